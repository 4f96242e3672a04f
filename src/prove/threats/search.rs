//! The threat prover's df-pn search: proof and disproof numbers of a
//! position from its expansion, the table of positions searched, and the
//! depth-first descent below thresholds ([`ThreatProver::search`]).

use super::*;

impl<'g> ThreatProver<'g> {
    /// The numbers a position starts with, before any search below it.
    /// Settled ones go to the table, the others to the leaves' cache.
    pub(super) fn numbers_of(&mut self, board: &mut Board) -> Numbers {
        if let Some(n) = self.known(board.key()) {
            return n;
        }
        let (expansion, ..) = self.leaf_expansion(board);
        let n = self.starting_numbers(board, &expansion);
        if n.settled() {
            // (settled by the rules alone: no work below it, so a
            // disproved one is the first a full table replaces)
            self.store(board.key(), n, 0);
        } else {
            self.leaves.keep(fingerprint(board.key()), n);
        }
        n
    }

    /// The numbers `board` starts with by its expansion: settled by the
    /// rules, else its mobility.
    pub(super) fn starting_numbers(&self, board: &Board, expansion: &Expansion) -> Numbers {
        match expansion {
            Expansion::Won(_) | Expansion::Threats(_) => Numbers::PROVED,
            Expansion::Lost => Numbers::DISPROVED,
            // open whatever comes after (a horizon's leaf too: its search
            // may win)
            Expansion::Untried(then) => match &**then {
                Expansion::Moves { moves, .. } if !moves.is_empty() => {
                    self.starting_numbers(board, then)
                }
                _ => Numbers {
                    proof: 1,
                    disproof: 1,
                },
            },
            Expansion::Moves { moves, .. } if moves.is_empty() => {
                if self.attacker_to_move(board) {
                    Numbers::DISPROVED
                } else {
                    Numbers::PROVED
                }
            }
            Expansion::Moves { moves, .. } => {
                Numbers::mobility(self.attacker_to_move(board), moves.len() as u32)
            }
        }
    }

    /// The numbers the table holds for `key`, else those the leaves'
    /// cache keeps (never settled ones: [`leaves`]).
    pub(super) fn known(&self, key: u128) -> Option<Numbers> {
        let f = fingerprint(key);
        self.table.get_fingerprint(f).or_else(|| self.leaves.get(f))
    }

    /// The numbers of the child `i` of the position searched, at `key`:
    /// the table's, else those its search from here `returned` (the
    /// table may have given its slot to another key since), else the
    /// leaves' cache's.
    pub(super) fn known_child(
        &self,
        key: u128,
        i: usize,
        returned: &[(usize, Numbers)],
    ) -> Option<Numbers> {
        let f = fingerprint(key);
        self.table
            .get_fingerprint(f)
            .or_else(|| returned.iter().find(|&&(j, _)| j == i).map(|&(_, n)| n))
            .or_else(|| self.leaves.get(f))
    }

    pub(super) fn store(&mut self, key: u128, numbers: Numbers, work: u32) {
        self.table.store(key, numbers, work);
    }

    /// The moves searched at `board` now, in its orientation (`t` maps it
    /// onto the canonical image `expansion` is written in): at an AND node
    /// that passes first, [`PASS`] alone until the pass is proved, then
    /// the moves of its cut.
    pub(super) fn children(&mut self, board: &Board, expansion: &Expansion, t: usize) -> Vec<u32> {
        let Expansion::Moves { moves, pass, .. } = expansion else {
            return Vec::new();
        };
        if !*pass {
            return self.oriented(moves, t);
        }
        let passed = match self.table.get(board.key_after_pass()) {
            Some(n) => n.proof == 0,
            None => {
                let mut passed = board.clone();
                passed.pass();
                self.is_proved(&passed)
            }
        };
        if !passed {
            return vec![PASS];
        }
        let cut = self.cut(board, expansion);
        self.oriented(&cut.moves, t)
    }

    /// The keys of the positions after each of `moves` by `mover`.
    pub(super) fn keys_after(board: &Board, moves: &[u32], mover: usize) -> Vec<u128> {
        moves
            .iter()
            .map(|&c| match c {
                PASS => board.key_after_pass(),
                c => board.key_after(c, mover),
            })
            .collect()
    }

    /// One df-pn step at `board` within the thresholds; returns its
    /// numbers (stored in the table).
    pub(super) fn search(
        &mut self,
        board: &mut Board,
        proof_limit: u32,
        disproof_limit: u32,
    ) -> Numbers {
        // (the root's search is at depth 1: its path is empty)
        let depth = self.progress.path.len() as u32 + 1;
        self.progress.depth_sum += u64::from(depth);
        self.progress.max_depth = self.progress.max_depth.max(depth);
        self.search_below(board, proof_limit, disproof_limit)
    }

    /// [`Self::search`] but for the depth it counts.
    pub(super) fn search_below(
        &mut self,
        board: &mut Board,
        proof_limit: u32,
        disproof_limit: u32,
    ) -> Numbers {
        self.stats.visits += 1;
        if self.stats.visits.is_multiple_of(256) {
            self.check_clock();
        }
        let (expansion, t) = self.expansion(board);
        let key = board.key();
        // the entry's work ([`table`]): its searches before this one, and
        // the positions this one searches (this one counted)
        let start = self.stats.visits - 1;
        let held = self.table.entry(fingerprint(key));
        let before = held.map_or(0, |(_, w)| w);
        let work = |s: &Self| {
            let now = u32::try_from(s.stats.visits - start).unwrap_or(u32::MAX);
            before.saturating_add(now)
        };
        if !matches!(&*expansion, Expansion::Moves { moves, .. } if !moves.is_empty()) {
            // settled by the rules, and stored so whatever the table or
            // the leaves held: an entry of a checkpoint written under
            // other rules, or a false hit of the leaves, gave back open
            // numbers here, and the parent chose this child again and
            // again (l10 resumed under the dependent fours: 982 M
            // positions in 300 s, all at one depth, nothing new)
            let n = self.starting_numbers(board, &expansion);
            if held.map(|(held, _)| held) != Some(n) {
                self.store(key, n, 0);
            }
            return n;
        }
        let or = self.attacker_to_move(board);
        let mover = board.to_move();
        let mut moves = self.children(board, &expansion, t);
        let mut keys = match &*expansion {
            Expansion::Moves {
                pass: false,
                child_keys,
                ..
            } => {
                // `moves` is the expansion's list oriented: the same keys
                // in the same order
                let keys = child_keys.get_or_init(|| {
                    self.expansion_bytes += (moves.len() * 16) as u64;
                    Self::keys_after(board, &moves, mover).into_boxed_slice()
                });
                std::borrow::Cow::Borrowed(&keys[..])
            }
            _ => std::borrow::Cow::Owned(Self::keys_after(board, &moves, mover)),
        };
        let pass_penalty = match &*expansion {
            Expansion::Moves { moves, .. } => moves.len().div_ceil(4) as u32,
            _ => 0,
        };
        let mut descended = false;
        // the numbers each child searched from here returned, by index in
        // `moves` (a pass's only when not proved): read where the table
        // lost the child's entry (module docs, "Table")
        let mut returned: Vec<(usize, Numbers)> = Vec::new();
        loop {
            if moves == [PASS] && self.table.get(keys[0]).is_some_and(|n| n.proof == 0) {
                // the pass is proved: on to the moves inside its zone (the
                // pass's returned numbers, at index 0, are not the first
                // move's)
                moves = self.children(board, &expansion, t);
                keys = std::borrow::Cow::Owned(Self::keys_after(board, &moves, mover));
                returned.clear();
            }
            if moves.is_empty() {
                // a cut AND node whose every move the pass answers
                self.store(key, Numbers::PROVED, work(self));
                return Numbers::PROVED;
            }
            // (least number, its child, second least, sum of all)
            let (mut best, mut best_at, mut second, mut sum) = (INFINITE + 1, 0, INFINITE, 0u32);
            for (i, &cell) in moves.iter().enumerate() {
                let n = match self.known_child(keys[i], i, &returned) {
                    Some(n) => n,
                    None => {
                        step(board, cell, mover);
                        let n = self.numbers_of(board);
                        step_back(board, cell, mover);
                        n
                    }
                };
                let (select, add) = if or {
                    (n.proof, n.disproof)
                } else {
                    (n.disproof, n.proof)
                };
                if select < best {
                    second = best.min(INFINITE);
                    best = select;
                    best_at = i;
                } else if select < second {
                    second = select;
                }
                sum = sum.saturating_add(add).min(INFINITE);
            }
            let best = best.min(INFINITE);
            // (module docs, "Saturation")
            let sum = capped_sum(sum, best);
            let mut numbers = if or {
                Numbers {
                    proof: best,
                    disproof: sum,
                }
            } else {
                Numbers {
                    proof: sum,
                    disproof: best,
                }
            };
            if moves == [PASS] {
                if numbers.proof == 0 {
                    // proved just now by a transposition: take the cut next
                    continue;
                }
                // the moves inside the zone are still to come: counted
                // as a quarter of the moves left (about what zones kept
                // on gomoku positions), so that a pass proved cheaply
                // does not make the node look cheap
                numbers.proof = numbers.proof.saturating_add(pass_penalty).min(INFINITE - 1);
            }
            self.store(key, numbers, work(self));
            if numbers.proof >= proof_limit
                || numbers.disproof >= disproof_limit
                || numbers.settled()
                || self.over_limits()
            {
                if !descended && !numbers.settled() {
                    self.progress.at_once += 1;
                }
                return numbers;
            }
            let cut = second
                .saturating_add(1)
                .max(second.saturating_add(second / 4));
            let child = self
                .known_child(keys[best_at], best_at, &returned)
                .unwrap_or(Numbers {
                    proof: 1,
                    disproof: 1,
                });
            let (child_proof, child_disproof) = if or {
                (
                    proof_limit.min(cut),
                    (disproof_limit - numbers.disproof)
                        .saturating_add(child.disproof)
                        .min(INFINITE),
                )
            } else {
                (
                    (proof_limit - numbers.proof)
                        .saturating_add(child.proof)
                        .min(INFINITE),
                    disproof_limit.min(cut),
                )
            };
            let cell = moves[best_at];
            step(board, cell, mover);
            self.progress.path.push(cell);
            let got = self.search(board, child_proof, child_disproof);
            self.progress.path.pop();
            step_back(board, cell, mover);
            descended = true;
            returned.retain(|&(i, _)| i != best_at);
            if got.proof != 0 || cell != PASS {
                // a move's proof is kept too: read from the table alone, a
                // proof given up while a sibling's search stored its own
                // (work about 1 when searched again) could give up that
                // sibling's in turn, and so on forever. The pass's is not:
                // the cut is read from the table, and a pass taken as
                // proved while the cut waits for its entry would loop
                returned.push((best_at, got));
            }
        }
    }
}
