//! The zone prover's second search: depth-first proof-number search
//! (df-pn, Nagai 2002) over the same positions, leaves and zones as the
//! iterative deepening of the parent module, chosen with
//! [`Search::ProofNumbers`](super::Search).
//!
//! Numbers count from the *defender's* side: `proof` is how many leaves
//! are still to settle to show the position holds, `disproof` to show it
//! falls. At the defender's turn (an OR node) one move must hold: `proof`
//! is the least of the children's, `disproof` their sum. At the
//! attacker's turn (an AND node) the search first settles the null move
//! (the same stones, the defender to move): while it is open the node's
//! `disproof` is the null move's and its `proof` the null move's times one
//! more than the empty cells on lines open to the attacker (the moves that
//! may come after it: without that factor a chain of null moves looks as
//! cheap as one, and the search sinks into positions where the defender
//! has played many times in a row). Once the null move holds, the children
//! are the attacker's moves inside its zone, `proof` their sum,
//! `disproof` the least. A position not yet searched starts with `proof`
//! the number of lines still open to the attacker (a pairing must cover
//! them all) and `disproof` one; its pairing is searched when the search
//! first enters it (and at once for the answers the iterative deepening
//! would try first: the partner in the null move's pairing, the null
//! move's answer). Measured on 7,7,5 after X's first move (results/
//! PROOFS.md): 8,058 positions after d4 against the deepening's 197,868.
//!
//! A position is entered in the table when the search enters it (not when
//! it is generated: a child's starting numbers are cheap to work out
//! again, and on 8,8,5 storing every child took several times the memory
//! and twice the time), as held with its zone, fallen, or open with its
//! numbers; a completed defender line is entered when met, for its zone.
//! A node keeps its children's numbers while it is searched and reads
//! again only the child it searched (one made stale by a transposition
//! costs time, not soundness: a settled child stays settled). A held
//! position's entry is the same as the iterative deepening's, so
//! [`ZoneProver::write_proof`] writes either search's proof.
//!
//! Numbers are `u64` and never saturate in practice (a sum past
//! [`INFINITE`] would need more positions than the table holds), so the
//! thresholds handed to a child never collapse onto its own numbers (the
//! livelock the threat prover once had with `u32` sums).

use super::{answer_hints, Cells, Entry, How, Node, Verdict, ZoneProver};
use crate::prove::proof_numbers::{Count, ProofNumbers};

/// A settled number: proved (`disproof`) or disproved (`proof`).
pub(super) const INFINITE: u64 = <u64 as Count>::INFINITE;

/// Proof and disproof numbers, from the defender's side (module docs): the
/// df-pn numbers of every prover, counted in `u64`.
pub(super) type Numbers = ProofNumbers<u64>;

impl ProofNumbers<u64> {
    /// The defender holds: proved from its side.
    const HELD: Self = Self::PROVED;
    /// The position falls: disproved from the defender's side.
    const FELL: Self = Self::DISPROVED;
}

/// A child's threshold past the best sibling's number: a quarter more
/// than it, so the search does not switch back and forth between two
/// children whose numbers are close (the "1 + ε" of Pawlewicz & Lew).
fn past(second: u64) -> u64 {
    second.saturating_add(second / 4 + 1).min(INFINITE)
}

impl ZoneProver {
    /// Proves `node` by df-pn: `Holds` with the zone, `Falls`, or `Open`
    /// when the time, the node limit or the table ran out.
    pub(super) fn prove_by_numbers(&mut self, node: Node) -> Verdict {
        let everything = Numbers {
            proof: INFINITE,
            disproof: INFINITE,
        };
        self.search_numbers(node, everything, &[]);
        match self.numbers_of(node) {
            n if n == Numbers::HELD => Verdict::Holds(self.zone_of(&node)),
            n if n == Numbers::FELL => Verdict::Falls,
            _ => Verdict::Open,
        }
    }

    /// The zone of a held position (a full board's is empty).
    pub(super) fn zone_of(&self, n: &Node) -> Cells {
        match self.table.get(n) {
            Some(Entry::Held(zone, _)) => *zone,
            _ => Cells::default(),
        }
    }

    /// A position's numbers: from the table, or worked out when it has no
    /// entry (a leaf is settled at once: a full board, a line for either
    /// side; a pairing only once the search enters it, [`Self::try_pairing`]).
    /// Only a completed defender line is entered here (its zone is needed
    /// later): a position gets an entry when it is searched, so the table
    /// holds the positions searched, not every one generated.
    fn numbers_of(&mut self, n: Node) -> Numbers {
        match self.table.get(&n) {
            Some(Entry::Held(..)) => return Numbers::HELD,
            Some(Entry::Fell) => return Numbers::FELL,
            Some(Entry::Numbers(numbers)) => return *numbers,
            Some(Entry::OpenTo(_)) | None => {}
        }
        let (a, d) = (n.attacker, n.defender);
        if self.all.minus(a | d).is_empty() {
            return Numbers::HELD; // a full board: no entry (module docs)
        }
        if n.attacker_to_move {
            if !self.completions(a, d).is_empty() {
                return Numbers::FELL;
            }
        } else if self.held_by_defender_line(n).is_some() {
            return Numbers::HELD;
        } else if self.completions(a, d).len() >= 2 {
            return Numbers::FELL;
        }
        self.fresh_numbers(d)
    }

    /// The numbers a position not yet searched starts with: to prove, the
    /// lines still open to the attacker (a pairing must cover them all,
    /// so each defender stone that closes lines brings it nearer); to
    /// disprove, one.
    fn fresh_numbers(&self, d: Cells) -> Numbers {
        let open = self.lines.iter().filter(|l| !l.meets(&d)).count() as u64;
        Numbers {
            proof: open.max(1),
            disproof: 1,
        }
    }

    /// The empty cells on lines still open to the attacker: the moves that
    /// may follow once the null move holds.
    fn attacker_room(&self, a: Cells, d: Cells) -> u64 {
        let empty = self.all.minus(a | d);
        let room = self
            .lines
            .iter()
            .filter(|l| !l.meets(&d))
            .fold(Cells::default(), |s, l| s | (*l & empty));
        room.len() as u64
    }

    /// Searches for a pairing at an attacker's turn `n` the search has not
    /// entered yet (no entry): held if one is found, else entered with its
    /// numbers; its numbers either way.
    fn try_pairing(&mut self, n: Node) -> Numbers {
        let numbers = self.numbers_of(n);
        if numbers.proof == 0 || numbers.disproof == 0 || self.table.contains_key(&n) {
            return numbers;
        }
        if self.held_by_pairing(n).is_none() {
            self.store(n, Entry::Numbers(numbers));
        }
        self.numbers_of(n)
    }

    /// Searches `n` until it is settled or its numbers reach `threshold`
    /// (one of them at least), and leaves its entry in the table. At the
    /// defender's turn the `hints` are tried first.
    fn search_numbers(&mut self, n: Node, threshold: Numbers, hints: &[u32]) {
        self.stats.nodes += 1;
        let numbers = if n.attacker_to_move {
            self.try_pairing(n)
        } else {
            self.numbers_of(n)
        };
        if numbers.proof == 0 || numbers.disproof == 0 || numbers.exceeds(threshold) {
            return;
        }
        if n.attacker_to_move {
            self.attacker_numbers(n, threshold);
        } else {
            self.defender_numbers(n, threshold, hints);
        }
    }

    /// The defender's turn (OR): one move that holds proves it.
    fn defender_numbers(&mut self, n: Node, threshold: Numbers, hints: &[u32]) {
        let (a, d) = (n.attacker, n.defender);
        let threats = self.completions(a, d);
        let moves = if threats.is_empty() {
            let mut moves = hints.to_vec();
            let rest = self.ordered(self.all.minus(a | d), a, d);
            moves.extend(rest.into_iter().filter(|c| !hints.contains(c)));
            moves
        } else {
            threats.iter().collect() // one threat: the move must block it
        };
        let child = |r: u32| Node {
            defender: d.with(r),
            attacker_to_move: true,
            ..n
        };
        for &r in hints {
            if moves.contains(&r) && self.try_pairing(child(r)).proof == 0 {
                let zone = self.zone_of(&child(r)).with(r);
                self.store(n, Entry::Held(zone, How::Move(r)));
                return;
            }
        }
        // the children's numbers, read again only for the child searched
        // (a transposition may leave another's stale: that costs time, not
        // soundness, since a settled child stays settled)
        let mut kids: Vec<Numbers> = moves.iter().map(|&r| self.numbers_of(child(r))).collect();
        loop {
            if self.out_of_time() {
                return;
            }
            let (mut best, mut best_proof, mut second) = (0, INFINITE, INFINITE);
            let mut disproof = 0u64;
            for (i, &r) in moves.iter().enumerate() {
                let c = kids[i];
                if c.proof == 0 {
                    let zone = self.zone_of(&child(r)).with(r);
                    self.store(n, Entry::Held(zone, How::Move(r)));
                    return;
                }
                disproof = disproof.saturating_add(c.disproof);
                if c.proof < best_proof {
                    (second, best_proof, best) = (best_proof, c.proof, i);
                } else if c.proof < second {
                    second = c.proof;
                }
            }
            if disproof == 0 {
                self.store(n, Entry::Fell);
                return;
            }
            let numbers = Numbers {
                proof: best_proof,
                disproof: disproof.min(INFINITE - 1),
            };
            if numbers.exceeds(threshold) || self.stopped {
                self.store(n, Entry::Numbers(numbers));
                return;
            }
            let best_child = child(moves[best]);
            let theirs = kids[best];
            let limit = Numbers {
                proof: threshold.proof.min(past(second)),
                disproof: threshold.disproof - (numbers.disproof - theirs.disproof),
            };
            self.search_numbers(best_child, limit, &[]);
            kids[best] = self.numbers_of(best_child);
        }
    }

    /// The attacker's turn (AND): the null move first, then every attacker
    /// move inside its zone must hold.
    fn attacker_numbers(&mut self, n: Node, threshold: Numbers) {
        let null = Node {
            attacker_to_move: false,
            ..n
        };
        let later = self.attacker_room(n.attacker, n.defender) + 1;
        loop {
            if self.out_of_time() {
                return;
            }
            let c = self.numbers_of(null);
            if c.proof == 0 {
                break;
            }
            if c.disproof == 0 {
                self.store(n, Entry::Fell);
                return;
            }
            let numbers = Numbers {
                proof: c.proof.saturating_mul(later).min(INFINITE - 1),
                disproof: c.disproof,
            };
            if numbers.exceeds(threshold) || self.stopped {
                self.store(n, Entry::Numbers(numbers));
                return;
            }
            let limit = Numbers {
                proof: threshold.proof.div_ceil(later),
                disproof: threshold.disproof,
            };
            self.search_numbers(null, limit, &[]);
        }
        let (a, d) = (n.attacker, n.defender);
        let empty = self.all.minus(a | d);
        let null_zone = self.zone_of(&null);
        let moves = self.ordered(null_zone & empty, d, a);
        let (partner, null_move) = self.answers_from(n);
        let child = |m: u32| Node {
            attacker: a.with(m),
            attacker_to_move: false,
            ..n
        };
        let mut kids: Vec<Numbers> = moves.iter().map(|&m| self.numbers_of(child(m))).collect();
        loop {
            if self.out_of_time() {
                return;
            }
            let (mut best, mut best_disproof, mut second) = (None, INFINITE, INFINITE);
            let mut proof = 0u64;
            for (i, &c) in kids.iter().enumerate() {
                if c.disproof == 0 {
                    self.store(n, Entry::Fell);
                    return;
                }
                if c.proof == 0 {
                    continue;
                }
                proof = proof.saturating_add(c.proof);
                if c.disproof < best_disproof {
                    (second, best_disproof, best) = (best_disproof, c.disproof, Some(i));
                } else if c.disproof < second {
                    second = c.disproof;
                }
            }
            let Some(best) = best else {
                let zone = moves
                    .iter()
                    .fold(null_zone, |z, &m| z | self.zone_of(&child(m)));
                let zone = self.guarded(zone, a, d);
                self.store(n, Entry::Held(zone, How::Expand));
                return;
            };
            let numbers = Numbers {
                proof: proof.min(INFINITE - 1),
                disproof: best_disproof,
            };
            if numbers.exceeds(threshold) || self.stopped {
                self.store(n, Entry::Numbers(numbers));
                return;
            }
            let (theirs, m) = (kids[best], moves[best]);
            let limit = Numbers {
                proof: threshold.proof - (numbers.proof - theirs.proof),
                disproof: threshold.disproof.min(past(second)),
            };
            let hints = answer_hints(m, [Some(partner[m as usize]), null_move, None], empty);
            self.search_numbers(child(m), limit, &hints);
            kids[best] = self.numbers_of(child(m));
        }
    }
}
