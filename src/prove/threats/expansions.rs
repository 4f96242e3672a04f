//! The threat prover's expansions: a position's moves, covers and runs
//! worked out once ([`ThreatProver::expand`]) and kept in a cache sized
//! from the budget, shared by a position's symmetric images.

use super::*;

impl<'g> ThreatProver<'g> {
    /// The expansion of `board` (cached by its key) and the symmetry that
    /// maps `board` onto the canonical image its cells are written in;
    /// its threat-space search run if it was still to run, so never
    /// [`Expansion::Untried`].
    pub(super) fn expansion(&mut self, board: &Board) -> (Rc<Expansion>, usize) {
        let (expansion, t, key) = self.leaf_expansion(board);
        let Expansion::Untried(then) = &*expansion else {
            return (expansion, t);
        };
        let mut image = self.image_of(board, t);
        let limits = self.settings.vct.expect("untried only with vct on");
        let (vcf, covers) = (self.settings.vcf, self.settings.max_covers);
        let (found, nodes) = space::find_vct(&mut image, self.attacker, limits, vcf, covers);
        self.image = Some(image);
        self.stats.vct_searches += 1;
        self.stats.vct_nodes += u64::from(nodes);
        let resolved = match found {
            Some(cell) => {
                self.stats.vct_found += 1;
                Rc::new(Expansion::Threats(cell as u16))
            }
            None => Rc::clone(then),
        };
        self.replace_expansion(key, &expansion, Rc::clone(&resolved));
        (resolved, t)
    }

    /// `board`'s image under the symmetry `t`, in the prover's scratch
    /// board (give it back with `self.image = Some(..)`).
    pub(super) fn image_of(&mut self, board: &Board, t: usize) -> Board<'g> {
        let mut image = self
            .image
            .take()
            .unwrap_or_else(|| Board::empty(self.geometry));
        board.image_into(t, &mut image);
        image
    }

    /// Puts `new` in the cache in place of `old` under `key`, its bytes
    /// counted in place of `old`'s (nothing when the cache was cleared
    /// since).
    pub(super) fn replace_expansion(&mut self, key: u128, old: &Rc<Expansion>, new: Rc<Expansion>) {
        if let Some(held) = self.expansions.get_mut(&key) {
            if Rc::ptr_eq(held, old) {
                self.expansion_bytes =
                    self.expansion_bytes.saturating_sub(old.heap_bytes()) + new.heap_bytes();
                *held = new;
            }
        }
    }

    /// [`Self::expansion`], but a threat-space search still to run is
    /// left to run (an [`Expansion::Untried`]): the expansion a position
    /// gets when it is first counted as a parent's child; with its
    /// symmetry, the canonical key it is cached under.
    pub(super) fn leaf_expansion(&mut self, board: &Board) -> (Rc<Expansion>, usize, u128) {
        let (key, t) = board.canonical();
        if let Some(e) = self.expansions.get(&key) {
            return (Rc::clone(e), t, key);
        }
        self.stats.expansions += 1;
        // worked out on the canonical image itself, so that every
        // orientation gets the same moves and covers, even after the
        // cache was cleared
        let mut image = self.image_of(board, t);
        let expansion = Rc::new(self.expand(&mut image));
        self.image = Some(image);
        let bytes = expansion.heap_bytes() + EXPANSION_OVERHEAD;
        let map = (self.expansions.capacity() as u64 + 1) * EXPANSION_MAP_BYTES;
        if self.expansion_bytes + bytes + map + self.walk_bytes > self.expansion_budget {
            self.clear_expansions();
        }
        self.expansion_bytes += bytes;
        self.expansions.insert(key, Rc::clone(&expansion));
        (expansion, t, key)
    }

    /// Empties the cache of expansions, giving back its memory.
    pub(super) fn clear_expansions(&mut self) {
        self.expansions.clear();
        self.expansions.shrink_to_fit();
        self.expansion_bytes = 0;
        if self.walk_bytes > 0 {
            // a certificate's walk needs the memory now
            crate::memory::give_back_freed_memory();
        }
    }

    /// Cells of an expansion (canonical orientation) in `board`'s, where
    /// `t` maps `board` onto the canonical image.
    pub(super) fn oriented(&self, cells: &[u16], t: usize) -> Vec<u32> {
        let inverse = &self.geometry.inverses[t];
        cells
            .iter()
            .map(|&c| u32::from(inverse[c as usize]))
            .collect()
    }

    /// The expansion of `board` in its own orientation (module docs).
    pub(super) fn expand(&mut self, board: &mut Board) -> Expansion {
        let (a, d) = (self.attacker, 1 - self.attacker);
        let mine = board.completions(a);
        let theirs = board.completions(d);
        let empties = board.empties();
        let only = |cell: u32| Expansion::Moves {
            moves: vec![cell as u16],
            all: vec![cell as u16],
            covers: Vec::new(),
            pass: false,
            child_keys: Default::default(),
        };
        if self.attacker_to_move(board) {
            if !mine.is_empty() {
                return Expansion::Won(Vec::new());
            }
            if empties.is_empty() || theirs.len() >= 2 {
                return Expansion::Lost;
            }
            if let Some(cell) = theirs.first() {
                return only(cell);
            }
            if let Some(run) = fours::find_vcf(board, a, self.settings.vcf, Cells::default()) {
                return Expansion::Won(run);
            }
            let then = if self
                .settings
                .max_stones
                .is_some_and(|cap| board.occupied().len() >= cap)
            {
                Expansion::Lost
            } else {
                let candidates = match self.settings.attacker_moves {
                    None => empties.iter().collect(),
                    Some(n) => best_scored(board, a, n),
                };
                let moves = distinct(board, a, &candidates);
                Expansion::Moves {
                    all: moves.clone(),
                    moves,
                    covers: Vec::new(),
                    pass: false,
                    child_keys: Default::default(),
                }
            };
            match self.settings.vct {
                // (the threat-space search runs when the search enters
                // the position: [`Self::expansion`])
                Some(_) => Expansion::Untried(Rc::new(then)),
                None => then,
            }
        } else {
            if !theirs.is_empty() || empties.is_empty() {
                return Expansion::Lost;
            }
            if mine.len() >= 2 {
                return Expansion::Won(Vec::new());
            }
            if let Some(cell) = mine.first() {
                return only(cell);
            }
            if self.settings.defender_runs
                && fours::find_vcf(board, d, self.settings.vcf, Cells::default()).is_some()
            {
                // the defender's own run of fours wins for it
                return Expansion::Lost;
            }
            let (covers, open) =
                fours::defence(board, a, self.settings.vcf, self.settings.max_covers)
                    .unwrap_or_else(|| (Vec::new(), empties.iter().collect()));
            Expansion::Moves {
                moves: distinct(board, d, &open),
                pass: self.settings.zone_moves.is_some_and(|n| open.len() >= n),
                all: open.into_iter().map(|c| c as u16).collect(),
                covers,
                child_keys: Default::default(),
            }
        }
    }
}
