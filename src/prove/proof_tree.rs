//! Proof certificates for the values the bitboard search proves on m,n,k
//! boards: a strategy for one player (the *prover*) written out so that a
//! checker who trusts nothing but the rules can replay it.
//!
//! A claim is "the prover wins" or "the prover at least draws", from the
//! empty board. The certificate lists, for every position the strategy
//! reaches with the prover to move, the move it plays (an OR node), and
//! expects the checker to try every reply at the other positions (AND
//! nodes). A line is done when the prover's move completes a line, when
//! the board is full (a draw: enough for "at least draws"), or — for "at
//! least draws" — at a position where the prover owns a pairing strategy
//! ([`crate::prove::pairing`]): its pairs are listed and the checker checks
//! that every line the prover has not blocked holds one. Positions reached
//! along several paths are listed once (the certificate is a DAG).
//!
//! The moves come from a [`MoveSource`]: the df-pn win prover
//! ([`crate::prove::win`]: a move whose position it proved), or the
//! search ([`BoardSearcher`], weak probes): at an OR node its best move,
//! whose value is the position's, so the claim carries over to the child; a position whose value does not support the
//! claim is an error (the claim was false). A value is thus shown two
//! ways: proved by the search, and replayed from the certificate by an
//! independent checker (`tests/provers/proof_certificates.rs`).
//!
//! Format (docs/FORMAT.md): the line `# retrograde proof certificate 1`,
//! `mnk COLS ROWS K`, then one section a claim: `claim X wins` or `claim O
//! draws` (at least), then lines `move BOARD CELL` and `pairing BOARD CELL
//! CELL …` (the pairs' cells in twos), `BOARD` in the position language's
//! diagram (rows from the top separated by `/`, `X`, `O`, `.`), `CELL` a
//! column letter and a row number from 1 at the top.

use crate::board::BoardSize;
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use crate::error::{Error, Result};
use crate::game::Outcome;
use crate::position::Family;
use crate::prove::pairing::{find_pairing, Holder, PairingBoard};
use crate::search::bitboard::{Bitboard, BoardSearcher};
use crate::search::general::Precision;

/// The first line of a proof certificate.
pub const CERTIFICATE_MAGIC: &str = "# retrograde proof certificate 1";

/// Bytes a listed position takes while a certificate is built (its key in
/// two sets, its entry and its line of text), to size the limit on them.
pub const BYTES_PER_ENTRY: u64 = 160;

/// What a claim says the prover achieves from the empty board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// The prover wins.
    Win,
    /// The prover does not lose.
    AtLeastDraw,
}

/// One claim: the prover (`x`: the first player) and its goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claim {
    /// Whether the prover is X, the first player.
    pub prover_is_x: bool,
    /// What the prover achieves.
    pub goal: Goal,
}

impl Claim {
    /// The claim's line in a certificate: `claim X wins`, `claim O draws`.
    pub fn line(&self) -> String {
        let who = if self.prover_is_x { "X" } else { "O" };
        let what = match self.goal {
            Goal::Win => "wins",
            Goal::AtLeastDraw => "draws",
        };
        format!("claim {who} {what}")
    }
}

/// The entry of an OR node or a pairing leaf.
enum Entry {
    /// The prover plays this cell (its bit).
    Move(u64),
    /// The prover owns this pairing here (pairs of bits).
    Pairing(Vec<(u64, u64)>),
}

/// Where the prover's moves come from: a search or a prover that has
/// shown the claim.
pub trait MoveSource {
    /// A move of the prover at the position of X stones `x` and occupied
    /// cells `occupied` (the prover to move, no line on the board) after
    /// which `claim` still holds; `None` if the source finds none (the
    /// claim is false here, or the source stopped).
    fn prover_move(&self, x: u64, occupied: u64, claim: Claim) -> Result<Option<u64>>;
}

/// The bitboard search's best move, if its value supports the claim.
impl MoveSource for BoardSearcher<'_> {
    fn prover_move(&self, x: u64, occupied: u64, claim: Claim) -> Result<Option<u64>> {
        let result = self
            .search(x, occupied, Precision::Weak)?
            .ok_or_else(|| Error::InvalidInput("the search stopped before its end".into()))?;
        let holds = match claim.goal {
            Goal::Win => result.value == Outcome::Win,
            Goal::AtLeastDraw => result.value != Outcome::Loss,
        };
        Ok(if holds { result.best } else { None })
    }
}

/// Builds the certificate of claims on the empty board of an m,n,k board,
/// listing at most `max_entries` positions a claim.
pub struct ProofBuilder<'s> {
    source: &'s dyn MoveSource,
    board: Bitboard,
    pairing_board: PairingBoard,
    max_entries: usize,
}

/// The size of one claim's certificate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProofSize {
    /// Positions with the prover to move and its move listed.
    pub moves: usize,
    /// Positions closed by a pairing.
    pub pairings: usize,
    /// Every position the checker visits (both players to move).
    pub positions: usize,
}

impl<'s> ProofBuilder<'s> {
    /// A builder for `board`, an m,n,k board, with moves from `source`.
    pub fn new(board: &Bitboard, source: &'s dyn MoveSource, max_entries: usize) -> Result<Self> {
        let board = board.clone();
        let (family, cols, rows, k) = board.dimensions();
        if family != Family::Mnk {
            return Err(Error::InvalidInput(
                "proof certificates are written for m,n,k boards".into(),
            ));
        }
        Ok(Self {
            source,
            board,
            pairing_board: PairingBoard::new(BoardSize { cols, rows, k })?,
            max_entries,
        })
    }

    /// Appends to `text` the section of `claim` (the claim line and its
    /// entries) and returns its size; an error if the search shows the
    /// claim false, or the certificate would list more than the limit.
    pub fn write_claim(&self, claim: Claim, text: &mut String) -> Result<ProofSize> {
        let mut walk = Walk {
            builder: self,
            claim,
            visited: HashSet::new(),
            entries: HashMap::new(),
            order: Vec::new(),
        };
        walk.prove(0, 0)?;
        let _ = writeln!(text, "{}", claim.line());
        let mut size = ProofSize {
            positions: walk.visited.len(),
            ..ProofSize::default()
        };
        for key in &walk.order {
            let (x, o) = *key;
            let board = self.diagram(x, o);
            match &walk.entries[key] {
                Entry::Move(m) => {
                    size.moves += 1;
                    let _ = writeln!(text, "move {board} {}", self.cell_name(*m));
                }
                Entry::Pairing(pairs) => {
                    size.pairings += 1;
                    // no pairs: no line is open to the opponent
                    let _ = write!(text, "pairing {board}");
                    for &(a, b) in pairs {
                        let _ = write!(text, " {} {}", self.cell_name(a), self.cell_name(b));
                    }
                    text.push('\n');
                }
            }
        }
        Ok(size)
    }

    /// The bit of cell `i` of the pairing board (row 0 at the top).
    fn bit_of(&self, i: u32) -> u64 {
        let (_, cols, rows, _) = self.board.dimensions();
        self.board.cell(i % cols, rows - 1 - i / cols)
    }

    /// The name of the cell of bit `m`: column letter, row from the top.
    fn cell_name(&self, m: u64) -> String {
        let (_, cols, rows, _) = self.board.dimensions();
        self.pairing_board
            .cell_name(crate::position::sentinel::position_cell(cols, rows, m))
    }

    /// The position's diagram: rows from the top, `X`, `O`, `.`.
    fn diagram(&self, x: u64, o: u64) -> String {
        let (_, cols, rows, _) = self.board.dimensions();
        crate::position::mnk_diagram(cols, rows, |cell| {
            let bit = self.bit_of(cell);
            if x & bit != 0 {
                'X'
            } else if o & bit != 0 {
                'O'
            } else {
                '.'
            }
        })
    }
}

/// One claim's depth-first walk over the positions its strategy reaches.
struct Walk<'b, 's> {
    builder: &'b ProofBuilder<'s>,
    claim: Claim,
    visited: HashSet<(u64, u64)>,
    entries: HashMap<(u64, u64), Entry>,
    /// The listed positions in the order they were first reached.
    order: Vec<(u64, u64)>,
}

impl Walk<'_, '_> {
    /// Proves the claim from the position of X stones `x` and O stones
    /// `o` (no line on it), listing what the checker needs.
    fn prove(&mut self, x: u64, o: u64) -> Result<()> {
        if !self.visited.insert((x, o)) {
            return Ok(());
        }
        let b = &self.builder.board;
        let (_, cols, rows, _) = b.dimensions();
        let cells = cols * rows;
        let occupied = x | o;
        let x_to_move = x.count_ones() == o.count_ones();
        let prover_to_move = x_to_move == self.claim.prover_is_x;
        let (mine, theirs) = if self.claim.prover_is_x {
            (x, o)
        } else {
            (o, x)
        };
        let play = |stones: (u64, u64), m: u64| {
            if x_to_move {
                (stones.0 | m, stones.1)
            } else {
                (stones.0, stones.1 | m)
            }
        };
        if self.claim.goal == Goal::AtLeastDraw {
            if let Some(pairs) = self.pairing(mine, theirs) {
                return self.list((x, o), Entry::Pairing(pairs));
            }
        }
        if occupied.count_ones() == cells {
            return match self.claim.goal {
                Goal::AtLeastDraw => Ok(()),
                Goal::Win => Err(self.claim_false(x, o)),
            };
        }
        let empty: Vec<u64> = (0..cells)
            .map(|i| self.builder.bit_of(i))
            .filter(|&m| occupied & m == 0)
            .collect();
        if prover_to_move {
            // a line completed at once ends it
            if let Some(&m) = empty.iter().find(|&&m| b.has_line(mine | m)) {
                return self.list((x, o), Entry::Move(m));
            }
            let Some(m) = self.builder.source.prover_move(x, occupied, self.claim)? else {
                return Err(self.claim_false(x, o));
            };
            self.list((x, o), Entry::Move(m))?;
            let (nx, no) = play((x, o), m);
            return self.prove(nx, no);
        }
        for m in empty {
            if b.has_line(theirs | m) {
                return Err(self.claim_false(x, o));
            }
            let (nx, no) = play((x, o), m);
            self.prove(nx, no)?;
        }
        Ok(())
    }

    /// The prover's pairing at this position, as pairs of bits.
    fn pairing(&self, mine: u64, theirs: u64) -> Option<Vec<(u64, u64)>> {
        let pb = self.builder.pairing_board;
        let holders: Vec<Holder> = (0..pb.cells() as u32)
            .map(|i| {
                let bit = self.builder.bit_of(i);
                if mine & bit != 0 {
                    Holder::Defender
                } else if theirs & bit != 0 {
                    Holder::Attacker
                } else {
                    Holder::Empty
                }
            })
            .collect();
        let p = find_pairing(pb, &holders)?;
        Some(
            p.pairs
                .iter()
                .map(|&(a, b)| (self.builder.bit_of(a), self.builder.bit_of(b)))
                .collect(),
        )
    }

    fn list(&mut self, key: (u64, u64), entry: Entry) -> Result<()> {
        if self.entries.len() >= self.builder.max_entries {
            return Err(Error::InvalidInput(format!(
                "the certificate of \"{}\" would list more than {} positions",
                self.claim.line(),
                self.builder.max_entries
            )));
        }
        self.entries.insert(key, entry);
        self.order.push(key);
        Ok(())
    }

    fn claim_false(&self, x: u64, o: u64) -> Error {
        Error::InvalidInput(format!(
            "\"{}\" does not hold at {}",
            self.claim.line(),
            self.builder.diagram(x, o)
        ))
    }
}

/// The certificate text of `claims` on `searcher`'s board: the header and
/// one section a claim, with each claim's size.
pub fn certificate(
    searcher: &BoardSearcher,
    claims: &[Claim],
    max_entries: usize,
) -> Result<(String, Vec<ProofSize>)> {
    certificate_from(searcher.board(), searcher, claims, max_entries)
}

/// [`certificate`] with the prover's moves from `source`.
pub fn certificate_from(
    board: &Bitboard,
    source: &dyn MoveSource,
    claims: &[Claim],
    max_entries: usize,
) -> Result<(String, Vec<ProofSize>)> {
    let builder = ProofBuilder::new(board, source, max_entries)?;
    let (_, cols, rows, k) = board.dimensions();
    let mut text = format!("{CERTIFICATE_MAGIC}\nmnk {cols} {rows} {k}\n");
    let mut sizes = Vec::new();
    for &claim in claims {
        sizes.push(builder.write_claim(claim, &mut text)?);
    }
    Ok((text, sizes))
}

/// The claims that make up the value `value` of the empty board for the
/// first player: a win is one claim; a draw is two (each player at least
/// draws); a loss, one claim for the second player.
pub fn claims_of(value: Outcome) -> Vec<Claim> {
    let claim = |prover_is_x, goal| Claim { prover_is_x, goal };
    match value {
        Outcome::Win => vec![claim(true, Goal::Win)],
        Outcome::Draw => vec![
            claim(true, Goal::AtLeastDraw),
            claim(false, Goal::AtLeastDraw),
        ],
        Outcome::Loss => vec![claim(false, Goal::Win)],
    }
}
