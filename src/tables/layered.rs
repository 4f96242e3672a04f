//! The layered engine for m,n,k boards: every move adds a stone, so the
//! positions fall into plies and no position repeats.
//!
//! * **Forward**, ply by ply from the empty board: a board of ply `p + 1` is
//!   reachable iff one of its parents (the board with one stone of the last
//!   mover lifted) is reachable and not terminal. Each board *gathers* from
//!   its parents the number of move sequences that reach it, so a worker
//!   only writes its own shard of the ply: no atomics. Reachable = at least
//!   one sequence; the sequences that end at terminal boards are the games.
//! * **Backward**, ply by ply from the full board: a reachable board's value
//!   for the player to move from its children's values (a win if some child
//!   is lost for the opponent, a draw if some child is drawn, else a loss),
//!   again in disjoint shards.
//!
//! Tables are exact: a reachable bit, a 2-bit value (see [`crate::game::table`])
//! and a depth byte per board of each ply, on the dense per-ply rank of
//! [`crate::index::PlyShape`]. Depth is plies to the end under perfect play:
//! the winner hurries, the loser delays, and a drawn game always fills the
//! board, so a drawn board's depth is its number of empty cells.

use bitvec::prelude::*;
use rayon::prelude::*;

use crate::error::Result;
use crate::game::table::code;
use crate::game::Outcome;
use crate::index::colex::{colex_unrank, next_subset};
use crate::index::neighbours::{Neighbours, Step};
use crate::index::PlyShape;
use crate::memory::{Budget, Bytes};
use crate::rules::mnk::Mnk;
use crate::runtime::progress::{Progress, Silent};

/// Boards a worker takes at once: a multiple of 64, so shards of every
/// table (1, 2 or 8 bits a board) are whole words.
const SHARD: usize = 4096;

/// The solved boards of one ply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlyTable {
    /// The ply's shape (stones of each player, size).
    pub shape: PlyShape,
    reachable: BitVec<u64, Lsb0>,
    values: BitVec<u64, Lsb0>,
    depths: Vec<u8>,
}

/// The 2-bit code of board `i` in raw value words (32 boards a word).
#[inline]
fn code_at(words: &[u64], i: usize) -> u64 {
    (words[i / 32] >> (2 * (i % 32))) & 0b11
}

impl PlyTable {
    /// Rebuilds a ply from raw words (as [`raw`](Self::raw) gives them).
    /// Contract: the lengths fit `shape` (checked by the caller).
    pub(crate) fn from_raw(
        shape: PlyShape,
        reachable: Vec<u64>,
        values: Vec<u64>,
        depths: Vec<u8>,
    ) -> Self {
        let size = shape.size as usize;
        let mut reachable = BitVec::from_vec(reachable);
        reachable.truncate(size);
        let mut values = BitVec::from_vec(values);
        values.truncate(2 * size);
        Self {
            shape,
            reachable,
            values,
            depths,
        }
    }

    /// Whether the board of rank `rank` occurs in legal play.
    pub fn is_reachable(&self, rank: u64) -> bool {
        self.reachable[rank as usize]
    }

    /// Value for the player to move and depth of a reachable board.
    pub fn entry(&self, rank: u64) -> Option<(Outcome, u32)> {
        let i = rank as usize;
        if !self.reachable[i] {
            return None;
        }
        let outcome = match code_at(self.values.as_raw_slice(), i) {
            code::WIN => Outcome::Win,
            code::LOSS => Outcome::Loss,
            _ => Outcome::Draw,
        };
        Some((outcome, u32::from(self.depths[i])))
    }

    /// The raw tables, for comparisons across runs.
    pub fn raw(&self) -> (&[u64], &[u64], &[u8]) {
        (
            self.reachable.as_raw_slice(),
            self.values.as_raw_slice(),
            &self.depths,
        )
    }
}

/// The counts of one ply. Classes are counted up to the board's rotations
/// and reflections.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PlyCounts {
    /// Stones on the board.
    pub ply: u32,
    /// Reachable boards.
    pub positions: u64,
    /// Reachable boards that end the game.
    pub terminal: u64,
    /// Terminal boards X has won.
    pub x_wins: u64,
    /// Terminal boards O has won.
    pub o_wins: u64,
    /// Full boards without a line.
    pub draws: u64,
    /// Symmetry classes of reachable boards.
    pub classes: u64,
    /// Symmetry classes of terminal boards.
    pub terminal_classes: u64,
    /// Boards X wins under perfect play (terminal ones included).
    pub x_can_win: u64,
    /// Boards O wins under perfect play (terminal ones included).
    pub o_can_win: u64,
    /// Boards neither side can win.
    pub neither_can_win: u64,
    /// Classes of `x_can_win`.
    pub x_can_win_classes: u64,
    /// Classes of `o_can_win`.
    pub o_can_win_classes: u64,
    /// Classes of `neither_can_win`.
    pub neither_can_win_classes: u64,
}

impl PlyCounts {
    /// The totals over `plies` (`ply` holds the number of plies).
    pub fn totals(plies: &[PlyCounts]) -> PlyCounts {
        let zero = PlyCounts {
            ply: plies.len() as u32,
            ..PlyCounts::default()
        };
        plies.iter().fold(zero, |sum, c| sum.add(*c))
    }

    fn add(mut self, other: Self) -> Self {
        self.positions += other.positions;
        self.terminal += other.terminal;
        self.x_wins += other.x_wins;
        self.o_wins += other.o_wins;
        self.draws += other.draws;
        self.classes += other.classes;
        self.terminal_classes += other.terminal_classes;
        self.x_can_win += other.x_can_win;
        self.o_can_win += other.o_can_win;
        self.neither_can_win += other.neither_can_win;
        self.x_can_win_classes += other.x_can_win_classes;
        self.o_can_win_classes += other.o_can_win_classes;
        self.neither_can_win_classes += other.neither_can_win_classes;
        self
    }

    /// Turns the Burnside sums (stabiliser sizes) into class counts.
    fn classes_from_stabilizer_sums(mut self, group: u64) -> Self {
        for sum in [
            &mut self.classes,
            &mut self.terminal_classes,
            &mut self.x_can_win_classes,
            &mut self.o_can_win_classes,
            &mut self.neither_can_win_classes,
        ] {
            debug_assert_eq!(*sum % group, 0, "Burnside sums divide by the group order");
            *sum /= group;
        }
        self
    }
}

/// The number of distinct games (move sequences from the empty board to a
/// terminal board), by result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameCounts {
    /// Games X wins.
    pub x_wins: u128,
    /// Games O wins.
    pub o_wins: u128,
    /// Drawn games.
    pub draws: u128,
}

impl GameCounts {
    /// All games.
    pub fn total(&self) -> u128 {
        self.x_wins + self.o_wins + self.draws
    }

    fn add(self, other: Self) -> Self {
        Self {
            x_wins: self.x_wins + other.x_wins,
            o_wins: self.o_wins + other.o_wins,
            draws: self.draws + other.draws,
        }
    }
}

/// A complete m,n,k solution: per-ply tables and counts.
#[derive(Clone, Debug)]
pub struct MnkSolution {
    /// The tables, indexed by ply `0..=cells`.
    pub plies: Vec<PlyTable>,
    /// The counts, indexed by ply.
    pub counts: Vec<PlyCounts>,
    /// Games by result.
    pub games: GameCounts,
}

impl MnkSolution {
    /// The dense solution of `game` from the value/depth byte of every
    /// reachable board up to symmetry (`plies[p]`: (X cells, O cells,
    /// byte) of ply `p`; value code of `crate::game::table` in the low 2 bits,
    /// depth above), each spread to all its images; `counts` and `games`
    /// as counted. Boards not given are unreachable. Used to write the
    /// dense table of a solve made elsewhere (the distributed engine).
    pub fn from_canonical(
        game: &Mnk,
        plies: &[Vec<(u32, u32, u8)>],
        counts: Vec<PlyCounts>,
        games: GameCounts,
    ) -> Self {
        let symmetries = game.symmetries();
        let tables = plies
            .iter()
            .enumerate()
            .map(|(ply, entries)| {
                let shape = PlyShape::of_ply(game.cells(), ply as u32);
                let size = shape.size as usize;
                let mut reachable = vec![0u64; size.div_ceil(64)];
                let mut values = vec![0u64; size.div_ceil(32)];
                let mut depths = vec![0u8; size];
                for &(x, o, byte) in entries {
                    for g in 0..symmetries.len() as usize {
                        let i = shape.rank(symmetries.apply(g, x), symmetries.apply(g, o)) as usize;
                        reachable[i / 64] |= 1 << (i % 64);
                        values[i / 32] |= u64::from(byte & 0b11) << (2 * (i % 32));
                        depths[i] = byte >> 2;
                    }
                }
                PlyTable::from_raw(shape, reachable, values, depths)
            })
            .collect();
        Self {
            plies: tables,
            counts,
            games,
        }
    }

    /// The totals over all plies (`ply` holds the number of plies).
    pub fn totals(&self) -> PlyCounts {
        PlyCounts::totals(&self.counts)
    }

    /// Every legal move of a reachable board in play: `(cell, value for the
    /// player who makes it, plies to the end counting this move)`, by cell.
    /// Contract: the board is reachable and not over, on `game`'s board.
    pub fn moves(&self, game: &Mnk, x_cells: u32, o_cells: u32) -> Vec<(u32, Outcome, u32)> {
        let x_moves = x_cells.count_ones() == o_cells.count_ones();
        (0..game.cells())
            .filter(|c| (x_cells | o_cells) & (1 << c) == 0)
            .map(|cell| {
                let (x, o) = if x_moves {
                    (x_cells | 1 << cell, o_cells)
                } else {
                    (x_cells, o_cells | 1 << cell)
                };
                let (child, depth) = self
                    .lookup(x, o)
                    .expect("children of a reachable board in play are reachable");
                (cell, child.flip(), depth + 1)
            })
            .collect()
    }

    /// A checksum of every ply's reachable bits, values and depths.
    pub fn checksum(&self) -> u64 {
        let mut sum = crate::checksum::Checksum::default();
        for ply in &self.plies {
            let (reachable, values, depths) = ply.raw();
            sum.words(reachable).words(values).bytes(depths);
        }
        sum.value()
    }

    /// Value for the player to move and depth of a board, `None` if the
    /// board does not occur in legal play. Contract: disjoint masks inside
    /// the solved board.
    pub fn lookup(&self, x_cells: u32, o_cells: u32) -> Option<(Outcome, u32)> {
        let (x, o) = (x_cells.count_ones(), o_cells.count_ones());
        if x != o && x != o + 1 {
            return None;
        }
        let table = self.plies.get((x + o) as usize)?;
        table.entry(table.shape.rank(x_cells, o_cells))
    }
}

/// Bytes the solve of `game` allocates at its peak: per board a reachable
/// bit, two value bits and a depth byte, for every ply; and the sequence
/// counts (8 bytes a board) of two adjacent plies.
pub fn estimate_bytes(game: &Mnk) -> Bytes {
    let shapes: Vec<PlyShape> = (0..=game.cells())
        .map(|p| PlyShape::of_ply(game.cells(), p))
        .collect();
    let boards: u64 = shapes.iter().map(|s| s.size).sum();
    let widest_pair = shapes
        .windows(2)
        .map(|w| w[0].size + w[1].size)
        .max()
        .unwrap_or(1);
    Bytes(boards / 8 + boards / 4 + boards + widest_pair * 8 + 64 * shapes.len() as u64)
}

/// Boards the dense engine holds a slot for (every board of each ply's
/// rank space, reachable or not): what its time follows.
pub fn board_slots(game: &Mnk) -> u64 {
    (0..=game.cells())
        .map(|p| PlyShape::of_ply(game.cells(), p).size)
        .sum()
}

/// Solves every reachable board of `game` on the current rayon pool, after
/// checking the estimate against `budget`.
pub fn solve_mnk(game: &Mnk, budget: &Budget) -> Result<MnkSolution> {
    solve_mnk_reporting(game, budget, &Silent)
}

/// [`solve_mnk`], telling `progress` of every ply: the stages "forward"
/// and "backward" count boards of all plies.
pub fn solve_mnk_reporting(
    game: &Mnk,
    budget: &Budget,
    progress: &dyn Progress,
) -> Result<MnkSolution> {
    budget.check(
        &format!(
            "solving the board of {} columns × {} rows with k = {}",
            game.cols(),
            game.rows(),
            game.k()
        ),
        estimate_bytes(game),
    )?;
    let cells = game.cells();
    let boards: u64 = (0..=cells).map(|p| PlyShape::of_ply(cells, p).size).sum();
    progress.stage("forward", boards);
    let (reachable, games) = forward(game, progress);
    progress.stage("backward", boards);
    let mut plies: Vec<Option<PlyTable>> = vec![None; cells as usize + 1];
    let mut counts = vec![PlyCounts::default(); cells as usize + 1];
    for (ply, reachable) in reachable.into_iter().enumerate().rev() {
        let next = plies.get(ply + 1).and_then(Option::as_ref);
        let (table, ply_counts) = backward(game, ply as u32, reachable, next);
        plies[ply] = Some(table);
        counts[ply] = ply_counts;
        progress.advance(PlyShape::of_ply(cells, ply as u32).size);
    }
    Ok(MnkSolution {
        plies: plies
            .into_iter()
            .map(|t| t.expect("every ply solved"))
            .collect(),
        counts,
        games,
    })
}

/// One board of a walk through a ply.
#[derive(Clone, Copy, Debug)]
struct Board {
    /// X cells.
    x: u32,
    /// O cells.
    o: u32,
    /// O cells numbered among the cells not taken by X.
    o_compact: u32,
    /// Whether X differs from the previous board of the walk (always true
    /// for the first): what depends on X alone can be computed once here.
    x_changed: bool,
}

/// Walks the boards of a ply in rank order, from any starting rank.
struct Cursor {
    shape: PlyShape,
    x_cells: u32,
    o_compact: u32,
    o_rank: u64,
    /// The cells not taken by X, lowest first.
    free: [u8; 32],
    x_changed: bool,
}

impl Cursor {
    fn at(shape: PlyShape, rank: u64) -> Self {
        let mut cursor = Self {
            shape,
            x_cells: colex_unrank(rank / shape.o_sets, shape.x),
            o_compact: colex_unrank(rank % shape.o_sets, shape.o),
            o_rank: rank % shape.o_sets,
            free: [0; 32],
            x_changed: true,
        };
        cursor.list_free_cells();
        cursor
    }

    fn list_free_cells(&mut self) {
        let mut rest = self.shape.all_cells() & !self.x_cells;
        let mut i = 0;
        while rest != 0 {
            self.free[i] = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            i += 1;
        }
    }

    /// The current board.
    #[inline]
    fn board(&self) -> Board {
        let mut o = 0u32;
        let mut rest = self.o_compact;
        while rest != 0 {
            o |= 1 << self.free[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        Board {
            x: self.x_cells,
            o,
            o_compact: self.o_compact,
            x_changed: self.x_changed,
        }
    }

    /// Moves to the next rank. Contract: the current rank is not the last.
    #[inline]
    fn advance(&mut self) {
        self.o_rank += 1;
        if self.o_rank == self.shape.o_sets {
            self.o_rank = 0;
            self.x_cells = next_subset(self.x_cells);
            self.o_compact = (1u32 << self.shape.o) - 1;
            self.list_free_cells();
            self.x_changed = true;
        } else {
            self.o_compact = next_subset(self.o_compact);
            self.x_changed = false;
        }
    }
}

/// Runs `visit(offset, board)` over the ranks `shard · SHARD ..` of a ply,
/// at most `SHARD` of them; `offset` is the rank minus the shard's start.
#[inline]
fn for_each_board_of_shard(shape: PlyShape, shard: usize, mut visit: impl FnMut(usize, &Board)) {
    let start = (shard * SHARD) as u64;
    let end = (start + SHARD as u64).min(shape.size);
    let mut cursor = Cursor::at(shape, start);
    for rank in start..end {
        visit((rank - start) as usize, &cursor.board());
        if rank + 1 < end {
            cursor.advance();
        }
    }
}

/// The forward pass: the reachable boards of every ply, and the games.
fn forward(game: &Mnk, progress: &dyn Progress) -> (Vec<BitVec<u64, Lsb0>>, GameCounts) {
    let cells = game.cells();
    let mut reachable_plies = Vec::with_capacity(cells as usize + 1);
    let mut games = GameCounts::default();
    // Sequences reaching each non-terminal board of the previous ply (0 for
    // terminal and unreachable boards, which have no children).
    let mut open_paths: Vec<u64> = Vec::new();
    for ply in 0..=cells {
        let shape = PlyShape::of_ply(cells, ply);
        let previous = (ply > 0).then(|| PlyShape::of_ply(cells, ply - 1));
        let x_moved = ply % 2 == 1;
        let mut reachable = bitvec![u64, Lsb0; 0; shape.size as usize];
        let mut paths = vec![0u64; shape.size as usize];
        let ply_games = reachable
            .as_raw_mut_slice()
            .par_chunks_mut(SHARD / 64)
            .zip(paths.par_chunks_mut(SHARD))
            .enumerate()
            .map(|(shard, (reach_words, path_out))| {
                let mut found = GameCounts::default();
                let mut neighbours = Neighbours::new();
                let step = Step::lifting(x_moved);
                let mut x_has_line = false;
                for_each_board_of_shard(shape, shard, |i, board| {
                    let &Board { x, o, .. } = board;
                    if board.x_changed {
                        neighbours.set_x(x, step);
                        x_has_line = game.has_line(x);
                    }
                    let sequences = match previous {
                        None => 1,
                        Some(previous) => {
                            let mut sum = 0u64;
                            neighbours.set_o(o, board.o_compact, step);
                            neighbours
                                .parents(&previous, x_moved, |p| sum += open_paths[p as usize]);
                            sum
                        }
                    };
                    if sequences == 0 {
                        return;
                    }
                    reach_words[i / 64] |= 1 << (i % 64);
                    let won = ply > 0
                        && if x_moved {
                            x_has_line
                        } else {
                            game.has_line(o)
                        };
                    if won {
                        if x_moved {
                            found.x_wins += u128::from(sequences);
                        } else {
                            found.o_wins += u128::from(sequences);
                        }
                    } else if ply == cells {
                        found.draws += u128::from(sequences);
                    } else {
                        path_out[i] = sequences;
                    }
                });
                found
            })
            .reduce(GameCounts::default, GameCounts::add);
        games = games.add(ply_games);
        reachable_plies.push(reachable);
        progress.advance(shape.size);
        open_paths = paths;
    }
    (reachable_plies, games)
}

/// The backward pass for one ply: values, depths and counts, from the
/// solved next ply.
fn backward(
    game: &Mnk,
    ply: u32,
    reachable: BitVec<u64, Lsb0>,
    next: Option<&PlyTable>,
) -> (PlyTable, PlyCounts) {
    let cells = game.cells();
    let shape = PlyShape::of_ply(cells, ply);
    let x_moves = ply.is_multiple_of(2);
    let symmetries = game.symmetries();
    let mut values = bitvec![u64, Lsb0; 0; 2 * shape.size as usize];
    let mut depths = vec![0u8; shape.size as usize];
    let counts = values
        .as_raw_mut_slice()
        .par_chunks_mut(SHARD / 32)
        .zip(depths.par_chunks_mut(SHARD))
        .enumerate()
        .map(|(shard, (value_words, depth_out))| {
            let reach = &reachable.as_raw_slice()[shard * SHARD / 64..];
            let mut counts = PlyCounts::default();
            let mut neighbours = Neighbours::new();
            let step = Step::placing(x_moves);
            let (mut x_has_line, mut fixing_x) = (false, 0);
            for_each_board_of_shard(shape, shard, |i, board| {
                let &Board { x, o, .. } = board;
                if board.x_changed {
                    // Only the X-side sums are needed for a full board.
                    neighbours.set_x(x, step);
                    x_has_line = game.has_line(x);
                    fixing_x = symmetries.fixing(x);
                }
                if reach[i / 64] & (1 << (i % 64)) == 0 {
                    return;
                }
                let last_line = ply > 0
                    && if x_moves {
                        game.has_line(o)
                    } else {
                        x_has_line
                    };
                let (outcome, depth) = if last_line {
                    (Outcome::Loss, 0)
                } else if ply == cells {
                    (Outcome::Draw, 0)
                } else {
                    let next = next.expect("a non-full board has a next ply");
                    neighbours.set_o(o, board.o_compact, step);
                    best_move_value(&neighbours, x_moves, next)
                };
                let stones_to_fill = cells - ply;
                let depth = if outcome == Outcome::Draw {
                    stones_to_fill
                } else {
                    depth
                };
                let value = code::of(outcome);
                value_words[i / 32] |= value << (2 * (i % 32));
                depth_out[i] = depth as u8;
                tally(
                    &mut counts,
                    symmetries.stabilizer(x, o),
                    outcome,
                    x_moves,
                    last_line,
                    ply == cells,
                );
            });
            counts
        })
        .reduce(PlyCounts::default, PlyCounts::add);
    let counts =
        PlyCounts { ply, ..counts }.classes_from_stabilizer_sums(u64::from(symmetries.len()));
    (
        PlyTable {
            shape,
            reachable,
            values,
            depths,
        },
        counts,
    )
}

/// Negamax over the children: the value for the mover and the depth (the
/// fastest win, the slowest loss).
#[inline]
fn best_move_value(neighbours: &Neighbours, x_moves: bool, next: &PlyTable) -> (Outcome, u32) {
    let mut fastest_win = u32::MAX;
    let mut slowest_loss = 0;
    let mut can_draw = false;
    let values = next.values.as_raw_slice();
    neighbours.children(&next.shape, x_moves, |_, child| {
        let i = child as usize;
        debug_assert!(
            next.reachable[i],
            "a child of a reachable open board is reachable"
        );
        let depth = u32::from(next.depths[i]) + 1;
        match code_at(values, i) {
            code::LOSS => fastest_win = fastest_win.min(depth),
            code::WIN => slowest_loss = slowest_loss.max(depth),
            _ => can_draw = true,
        }
    });
    if fastest_win != u32::MAX {
        (Outcome::Win, fastest_win)
    } else if can_draw {
        (Outcome::Draw, 0)
    } else {
        (Outcome::Loss, slowest_loss)
    }
}

/// Adds one reachable board to the counts; class counts hold Burnside sums.
#[inline]
fn tally(
    c: &mut PlyCounts,
    stabilizer: u32,
    outcome: Outcome,
    x_moves: bool,
    last_line: bool,
    full: bool,
) {
    let s = u64::from(stabilizer);
    c.positions += 1;
    c.classes += s;
    if last_line || full {
        c.terminal += 1;
        c.terminal_classes += s;
        match (last_line, x_moves) {
            (true, true) => c.o_wins += 1,
            (true, false) => c.x_wins += 1,
            (false, _) => c.draws += 1,
        }
    }
    let x_wins = matches!(
        (outcome, x_moves),
        (Outcome::Win, true) | (Outcome::Loss, false)
    );
    match outcome {
        Outcome::Draw => {
            c.neither_can_win += 1;
            c.neither_can_win_classes += s;
        }
        _ if x_wins => {
            c.x_can_win += 1;
            c.x_can_win_classes += s;
        }
        _ => {
            c.o_can_win += 1;
            c.o_can_win_classes += s;
        }
    }
}
