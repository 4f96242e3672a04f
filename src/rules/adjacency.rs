//! Compressed adjacency lists (CSR), shared by the pursuit games.

/// The neighbours of `v` are `targets[offsets[v]..offsets[v + 1]]`, sorted
/// and without repeats.
#[derive(Clone, Debug)]
pub struct Adjacency {
    offsets: Vec<u32>,
    targets: Vec<u32>,
}

impl Adjacency {
    /// Bytes the packed lists hold.
    pub fn bytes(&self) -> u64 {
        (self.offsets.len() + self.targets.len()) as u64 * 4
    }

    /// Packs adjacency lists; each list is sorted and repeats are dropped.
    pub fn from_lists(lists: &[Vec<u32>]) -> Self {
        let mut offsets = Vec::with_capacity(lists.len() + 1);
        let mut targets = Vec::new();
        offsets.push(0);
        for list in lists {
            let mut sorted = list.clone();
            sorted.sort_unstable();
            sorted.dedup();
            targets.extend_from_slice(&sorted);
            offsets.push(targets.len() as u32);
        }
        Self { offsets, targets }
    }

    /// The neighbours of `node`.
    #[inline]
    pub fn of(&self, node: u32) -> &[u32] {
        let node = node as usize;
        &self.targets[self.offsets[node] as usize..self.offsets[node + 1] as usize]
    }

    /// Number of nodes.
    pub fn nodes(&self) -> u32 {
        (self.offsets.len() - 1) as u32
    }

    /// The lists with every edge reversed (in-neighbours).
    pub fn reversed(&self) -> Self {
        let mut lists = vec![Vec::new(); self.nodes() as usize];
        for a in 0..self.nodes() {
            for &b in self.of(a) {
                lists[b as usize].push(a);
            }
        }
        Self::from_lists(&lists)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_sorted_deduplicated_and_reversible() {
        let adj = Adjacency::from_lists(&[vec![2, 1, 2], vec![], vec![0]]);
        assert_eq!(adj.of(0), [1, 2]);
        assert!(adj.of(1).is_empty());
        let back = adj.reversed();
        assert_eq!(back.of(0), [2]);
        assert_eq!(back.of(2), [0]);
    }
}
