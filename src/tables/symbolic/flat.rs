//! A decision diagram as a flat array of nodes, outside any manager: what
//! checkpoints and table files hold, and what a position lookup walks
//! without loading anything into a manager.
//!
//! ```text
//! node i (i ≥ 1), 12 bytes:  u32 level | u32 then-edge | u32 else-edge
//! edge:                      index << 1 | complemented
//! index 0:                   the terminal "true" (so edge 0 = true, 1 = false)
//! ```
//!
//! Invariants, checked by [`FlatView::new`] on every node a walk visits:
//! children come before their parents (a child's index is smaller), a
//! child's level is deeper than its parent's (larger), every level is
//! below the variable count, and the then-edge is never complemented (the
//! canonical form of complement-edge BDDs). So a walk from any node ends
//! at the terminal within `vars` steps, whatever the bytes say.

use std::collections::HashMap;

use oxidd::bcdd::{BCDDFunction, BCDDManagerRef};
use oxidd::util::{AllocResult, Ref};
use oxidd::{BooleanFunction, Function, HasLevel, InnerNode, Manager, ManagerRef, Node, NodeID};

/// Bytes of one node.
pub const NODE_BYTES: usize = 12;

/// A decision diagram's nodes, children first, and its root edge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlatBdd {
    /// `(level, then, else)` of nodes `1..`.
    pub nodes: Vec<[u32; 3]>,
    /// The root edge.
    pub root: u32,
}

impl FlatBdd {
    /// The nodes of `f`, children first.
    pub fn from_function(f: &BCDDFunction) -> Self {
        f.with_manager_shared(|manager, root| flatten(manager, root))
    }

    /// Builds the diagram in `manager` (bottom up, one node at a time).
    /// Contract: the invariants of the module doc hold (checked when read
    /// from bytes) and `manager` has every level used.
    pub fn to_function(&self, manager: &BCDDManagerRef) -> AllocResult<BCDDFunction> {
        let t = manager.with_manager_shared(|m| BCDDFunction::t(m));
        let mut built: Vec<BCDDFunction> = Vec::with_capacity(self.nodes.len() + 1);
        built.push(t);
        let edge = |built: &[BCDDFunction], e: u32| -> AllocResult<BCDDFunction> {
            let f = &built[(e >> 1) as usize];
            if e & 1 == 1 {
                f.not()
            } else {
                Ok(f.clone())
            }
        };
        for &[level, then_edge, else_edge] in &self.nodes {
            let var = manager.with_manager_shared(|m| BCDDFunction::var(m, level))?;
            let f = var.ite(&edge(&built, then_edge)?, &edge(&built, else_edge)?)?;
            built.push(f);
        }
        edge(&built, self.root)
    }

    /// The node bytes (little-endian).
    pub fn node_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(self.nodes.len() * NODE_BYTES);
        for node in &self.nodes {
            for word in node {
                bytes.extend_from_slice(&word.to_le_bytes());
            }
        }
        bytes
    }

    /// The diagram read from node bytes and a root edge, every invariant
    /// checked.
    pub fn from_bytes(bytes: &[u8], root: u32, vars: u32) -> Result<Self, String> {
        let view = FlatView::new(bytes, root, vars)?;
        let mut nodes = Vec::with_capacity(view.len());
        for i in 1..=view.len() as u32 {
            nodes.push(view.node(i)?);
        }
        Ok(FlatBdd { nodes, root })
    }

    /// The number of assignments of `vars` variables the diagram holds,
    /// worked out from the flat nodes alone (no manager): one pass, children
    /// first. The arithmetic is modulo 2¹²⁸ (a complemented edge near the
    /// root of a 128-variable diagram stands for up to 2¹²⁸ assignments), so
    /// the result is exact whenever the true count is below 2¹²⁸ — every set
    /// of positions is. Contract: the invariants of the module doc hold (as
    /// they do for any diagram [`Self::from_bytes`] or
    /// [`Self::from_function`] made) and every level is below `vars`.
    pub fn model_count(&self, vars: u32) -> u128 {
        let pow2 = |n: u32| if n >= 128 { 0 } else { 1u128 << n };
        // counts[i]: models of node i over the variables from its level on
        let mut counts: Vec<u128> = Vec::with_capacity(self.nodes.len() + 1);
        counts.push(0); // the terminal's slot (never read: see `edge`)
        let level_of = |nodes: &[[u32; 3]], i: u32| {
            if i == 0 {
                vars
            } else {
                nodes[i as usize - 1][0]
            }
        };
        // models of edge `e` over the variables from `from` on
        let edge = |counts: &[u128], e: u32, from: u32| -> u128 {
            let i = e >> 1;
            let level = level_of(&self.nodes, i);
            let plain = if i == 0 {
                pow2(vars - from)
            } else {
                counts[i as usize].wrapping_mul(pow2(level - from))
            };
            if e & 1 == 1 {
                pow2(vars - from).wrapping_sub(plain)
            } else {
                plain
            }
        };
        for &[level, then_edge, else_edge] in &self.nodes {
            let below = edge(&counts, then_edge, level + 1).wrapping_add(edge(
                &counts,
                else_edge,
                level + 1,
            ));
            counts.push(below);
        }
        edge(&counts, self.root, 0)
    }
}

/// The nodes under `root`, children first (an explicit stack: no
/// recursion, whatever the depth).
fn flatten<M>(manager: &M, root: Ref<'_, M::Edge>) -> FlatBdd
where
    M: Manager,
    M::InnerNode: HasLevel,
{
    let mut index: HashMap<NodeID, u32, rustc_hash::FxBuildHasher> = HashMap::default();
    let mut nodes: Vec<[u32; 3]> = Vec::new();
    let edge_of = |e: Ref<'_, M::Edge>, index: &HashMap<NodeID, u32, _>| -> Option<u32> {
        let complemented = u32::from(e.tag() != Default::default());
        match manager.get_node(e) {
            Node::Terminal(_) => Some(complemented),
            Node::Inner(_) => index.get(&e.node_id()).map(|&i| i << 1 | complemented),
        }
    };
    let mut stack = vec![root];
    while let Some(&e) = stack.last() {
        if edge_of(e, &index).is_some() {
            stack.pop();
            continue;
        }
        let Node::Inner(node) = manager.get_node(e) else {
            unreachable!("a terminal always has an edge")
        };
        let (then_child, else_child) = (node.child(0), node.child(1));
        match (edge_of(then_child, &index), edge_of(else_child, &index)) {
            (Some(t), Some(el)) => {
                nodes.push([node.level(), t, el]);
                index.insert(e.node_id(), nodes.len() as u32);
                stack.pop();
            }
            (t, el) => {
                if t.is_none() {
                    stack.push(then_child);
                }
                if el.is_none() {
                    stack.push(else_child);
                }
            }
        }
    }
    let root = edge_of(root, &index).expect("the root was indexed last");
    FlatBdd { nodes, root }
}

/// A diagram's nodes seen in place (a mapped file), checked as they are
/// visited.
#[derive(Clone, Copy, Debug)]
pub struct FlatView<'a> {
    bytes: &'a [u8],
    root: u32,
    vars: u32,
}

impl<'a> FlatView<'a> {
    /// A view of `bytes` (whole nodes) with `root`; the root must point
    /// into the nodes.
    pub fn new(bytes: &'a [u8], root: u32, vars: u32) -> Result<Self, String> {
        if !bytes.len().is_multiple_of(NODE_BYTES) {
            return Err(format!(
                "a diagram of {} bytes is not whole nodes",
                bytes.len()
            ));
        }
        let view = Self { bytes, root, vars };
        if (root >> 1) as usize > view.len() {
            return Err("a diagram's root points past its nodes".into());
        }
        Ok(view)
    }

    /// Nodes in the diagram.
    pub fn len(&self) -> usize {
        self.bytes.len() / NODE_BYTES
    }

    /// Node `i` (1-based), its invariants checked.
    fn node(&self, i: u32) -> Result<[u32; 3], String> {
        let at = (i as usize - 1) * NODE_BYTES;
        let word = |k: usize| {
            u32::from_le_bytes(
                self.bytes[at + 4 * k..at + 4 * k + 4]
                    .try_into()
                    .expect("4 bytes"),
            )
        };
        let node = [word(0), word(1), word(2)];
        let [level, then_edge, else_edge] = node;
        let bad = |why: &str| Err(format!("diagram node {i}: {why}"));
        if level >= self.vars {
            return bad("level past the variables");
        }
        if then_edge & 1 == 1 {
            return bad("a complemented then-edge");
        }
        for child in [then_edge >> 1, else_edge >> 1] {
            if child >= i {
                return bad("a child that does not come before its parent");
            }
        }
        Ok(node)
    }

    /// The value of the diagram at `assignment` (one entry a variable).
    /// `visit` sees each node index the walk reads before it is read, so a
    /// caller can check the block that holds it.
    pub fn eval(
        &self,
        assignment: &[bool],
        mut visit: impl FnMut(u32) -> Result<(), String>,
    ) -> Result<bool, String> {
        let mut edge = self.root;
        let mut negated = false;
        let mut last_level: Option<u32> = None;
        while edge >> 1 != 0 {
            negated ^= edge & 1 == 1;
            let i = edge >> 1;
            visit(i)?;
            let [level, then_edge, else_edge] = self.node(i)?;
            if last_level.is_some_and(|l| level <= l) {
                return Err(format!("diagram node {i}: a level not below its parent's"));
            }
            last_level = Some(level);
            let value = assignment.get(level as usize).copied().unwrap_or(false);
            edge = if value { then_edge } else { else_edge };
        }
        negated ^= edge & 1 == 1;
        Ok(!negated)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manager(vars: u32) -> BCDDManagerRef {
        let m = oxidd::bcdd::new_manager(1 << 16, 1 << 12, 1);
        m.with_manager_exclusive(|m| {
            m.add_vars(vars);
        });
        m
    }

    #[test]
    fn round_trip_and_evaluation() {
        let m = manager(4);
        let v: Vec<BCDDFunction> = m
            .with_manager_shared(|m| {
                (0..4)
                    .map(|i| BCDDFunction::var(m, i))
                    .collect::<AllocResult<_>>()
            })
            .unwrap();
        // (v0 xor v2) or (not v1 and v3)
        let f = v[0]
            .xor(&v[2])
            .unwrap()
            .or(&v[1].not().unwrap().and(&v[3]).unwrap())
            .unwrap();
        let flat = FlatBdd::from_function(&f);
        let bytes = flat.node_bytes();
        let read = FlatBdd::from_bytes(&bytes, flat.root, 4).unwrap();
        assert_eq!(read, flat);
        let back = read.to_function(&m).unwrap();
        assert!(back == f);
        let view = FlatView::new(&bytes, flat.root, 4).unwrap();
        for bits in 0..16u32 {
            let a: Vec<bool> = (0..4).map(|i| bits >> i & 1 == 1).collect();
            let want = (a[0] ^ a[2]) || (!a[1] && a[3]);
            assert_eq!(view.eval(&a, |_| Ok(())).unwrap(), want, "{a:?}");
        }
        // constants
        for c in [
            m.with_manager_shared(|m| BCDDFunction::t(m)),
            m.with_manager_shared(|m| BCDDFunction::f(m)),
        ] {
            let flat = FlatBdd::from_function(&c);
            assert!(flat.nodes.is_empty());
            assert!(flat.to_function(&m).unwrap() == c);
        }
    }

    #[test]
    fn model_counts_agree_with_the_manager() {
        let m = manager(6);
        let v: Vec<BCDDFunction> = m
            .with_manager_shared(|m| {
                (0..6)
                    .map(|i| BCDDFunction::var(m, i))
                    .collect::<AllocResult<_>>()
            })
            .unwrap();
        let f = v[1]
            .xor(&v[4])
            .unwrap()
            .or(&v[2].not().unwrap().and(&v[5]).unwrap())
            .unwrap();
        let t = m.with_manager_shared(|m| BCDDFunction::t(m));
        for g in [
            f.clone(),
            f.not().unwrap(),
            v[5].clone(),
            v[0].not().unwrap(),
            t.clone(),
        ] {
            let want = (0..64u32)
                .filter(|bits| {
                    let a: Vec<bool> = (0..6).map(|i| bits >> i & 1 == 1).collect();
                    let view = FlatBdd::from_function(&g);
                    let bytes = view.node_bytes();
                    FlatView::new(&bytes, view.root, 6)
                        .unwrap()
                        .eval(&a, |_| Ok(()))
                        .unwrap()
                })
                .count() as u128;
            assert_eq!(FlatBdd::from_function(&g).model_count(6), want);
        }
        assert_eq!(FlatBdd::from_function(&t.not().unwrap()).model_count(6), 0);
        // 128 variables: the complement of one assignment is 2^128 - 1
        let one = FlatBdd::from_function(&v[0].and(&v[1]).unwrap());
        assert_eq!(one.model_count(128), 1u128 << 126);
    }

    #[test]
    fn forged_nodes_are_refused() {
        // node 1 pointing at itself
        let bytes: Vec<u8> = [0u32, 2, 2].iter().flat_map(|w| w.to_le_bytes()).collect();
        let view = FlatView::new(&bytes, 2, 4).unwrap();
        assert!(view.eval(&[true; 4], |_| Ok(())).is_err());
        // a level past the variables
        let bytes: Vec<u8> = [9u32, 0, 1].iter().flat_map(|w| w.to_le_bytes()).collect();
        assert!(FlatBdd::from_bytes(&bytes, 2, 4).is_err());
        // a root past the nodes
        assert!(FlatView::new(&bytes, 4, 4).is_err());
    }
}
