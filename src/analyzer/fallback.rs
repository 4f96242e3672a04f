//! The move played when the exact search does not finish in time: the
//! **best move so far**, never proved. The exact searches prove values
//! with null-window probes, and on a hard position (the empty 7×6 board
//! needs about 15 s) not even the first probe ends within a short limit,
//! so they have no move to give; this module finds one by a quick
//! heuristic search instead, within a slice of the question's time
//! ([`reserve`]), for every board the positions describe.
//!
//! How the move is chosen, in order:
//!
//! 1. **A move that completes a line** is taken at once (the one nearest
//!    the centre).
//! 2. **Moves that let the opponent complete a line at once** are
//!    dropped, while another move does not (it blocks the opponent's
//!    winning cell; on gravity boards it does not fill the cell under
//!    one).
//! 3. Among the rest, **iterative deepening alpha-beta** to the depth the
//!    time allows (the first ply always, then one more each round, the
//!    deepest finished round's move kept), its leaves scored by the lines
//!    still open to each player (a line with `c` stones of one player and
//!    none of the other's worth `4^c`), forced replies (a single winning
//!    cell of the opponent) followed without cost. On m,n,k boards the
//!    moves searched are the empty cells within two of a stone.
//!
//! Nothing is kept between questions. Measured (release, one thread, a
//! loaded 2-core machine): the empty 7×6 board 6 plies ahead within 5 ms,
//! 8 within 50 ms, 9 within 200 ms; a gomoku position (15×15, `h8`) 2
//! plies within 5 ms, 4 within 50 ms. The clock is read every 32
//! positions: a round ends a few milliseconds at most past its deadline.

use std::time::{Duration, Instant};

use crate::position::{winning_lines, BoardGame, Cells, Family, Position, Status};

/// The share of a question's time limit kept for the fallback: a tenth.
pub const RESERVE_SHARE: u32 = 10;

/// The most time kept for the fallback, whatever the limit.
pub const MAX_RESERVE: Duration = Duration::from_millis(200);

/// The time kept for the fallback out of a question's `time_limit`: a
/// [`RESERVE_SHARE`]th of it, at most [`MAX_RESERVE`]. The search gets
/// the rest, so a question not reached still ends within its limit.
pub fn reserve(time_limit: Duration) -> Duration {
    (time_limit / RESERVE_SHARE).min(MAX_RESERVE)
}

/// A move found by the heuristic search, not proved to keep the
/// position's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestSoFar {
    /// The cell the move takes.
    pub cell: u32,
    /// The move in the notation of `crate::position`.
    pub notation: String,
    /// Plies looked ahead by the deepest round finished (0: the move was
    /// decided without search: a win, or the one move left).
    pub plies: u32,
}

/// A score beyond every heuristic score: a line completed.
const WIN: i32 = 1_000_000;

/// The best move so far of `position` on `game` (in play), by the
/// heuristic search of the module docs, looking deeper until `deadline`
/// (its first ply is searched whatever the time); `None` when the game is
/// over.
pub fn best_so_far(game: &BoardGame, position: &Position, deadline: Instant) -> Option<BestSoFar> {
    if game.status(position) != Status::InProgress {
        return None;
    }
    let mut search = Heuristic::new(game, deadline);
    let moves = search.moves(position);
    let found = |cell: u32, plies: u32| BestSoFar {
        cell,
        notation: game.format_move(cell),
        plies,
    };
    let (me, them) = sides(position);
    if let Some(&win) = moves.iter().find(|&&m| search.completes(me.with(m), m)) {
        return Some(found(win, 0));
    }
    let threats = search.winning_cells(them, me);
    let safe: Vec<u32> = moves
        .iter()
        .copied()
        .filter(|&m| !search.gives_a_win(position, m, threats))
        .collect();
    let mut pool = if safe.is_empty() { moves } else { safe };
    if pool.len() == 1 {
        return Some(found(pool[0], 0));
    }
    let empty = game.cells() - position.stones();
    let (mut best, mut plies) = (pool[0], 0);
    for depth in 1..=empty {
        search.timed = depth > 1;
        let mut alpha = -WIN - 1;
        let mut round_best = pool[0];
        for &m in &pool {
            let v = -search.negamax(&position.with(m), depth - 1, -WIN - 1, -alpha, 1);
            if search.stopped {
                break;
            }
            if v > alpha {
                (alpha, round_best) = (v, m);
            }
        }
        if search.stopped {
            break;
        }
        (best, plies) = (round_best, depth);
        // the next round tries this round's move first
        pool.retain(|&m| m != round_best);
        pool.insert(0, round_best);
        if alpha.abs() > WIN / 2 {
            break; // a win or a loss found: deeper changes nothing
        }
    }
    Some(found(best, plies))
}

/// The stones of the player to move and of the other player.
fn sides(p: &Position) -> (Cells, Cells) {
    if p.x.len() == p.o.len() {
        (p.x, p.o)
    } else {
        (p.o, p.x)
    }
}

/// The heuristic search of one question.
struct Heuristic<'g> {
    game: &'g BoardGame,
    /// Every line of `k` cells.
    lines: Vec<Cells>,
    /// The indices of the lines through each cell.
    through: Vec<Vec<u32>>,
    /// The cells within two of each cell (m,n,k boards).
    near: Vec<Cells>,
    /// Cells in the order tried: nearest the centre first.
    order: Vec<u32>,
    deadline: Instant,
    /// Whether the clock may stop the search (not in the first round).
    timed: bool,
    stopped: bool,
    nodes: u64,
}

impl<'g> Heuristic<'g> {
    fn new(game: &'g BoardGame, deadline: Instant) -> Self {
        let (cols, rows) = (game.cols(), game.rows());
        let cells = game.cells();
        let mut lines = Vec::new();
        let mut through = vec![Vec::new(); cells as usize];
        for (i, line) in winning_lines(cols, rows, game.k()).into_iter().enumerate() {
            for &c in &line {
                through[c as usize].push(i as u32);
            }
            lines.push(line.iter().fold(Cells::default(), |s, &c| s.with(c)));
        }
        let near = (0..cells)
            .map(|c| {
                let (r, col) = ((c / cols) as i64, (c % cols) as i64);
                (0..cells)
                    .filter(|&d| {
                        let (dr, dc) = ((d / cols) as i64, (d % cols) as i64);
                        (dr - r).abs() <= 2 && (dc - col).abs() <= 2
                    })
                    .fold(Cells::default(), |s, d| s.with(d))
            })
            .collect();
        let mut order: Vec<u32> = (0..cells).collect();
        order.sort_by_key(|&c| game.distance_from_centre(c));
        Self {
            game,
            lines,
            through,
            near,
            order,
            deadline,
            timed: false,
            stopped: false,
            nodes: 0,
        }
    }

    /// The moves searched in `p` (in play), nearest the centre first:
    /// every legal move on gravity boards; on m,n,k boards the empty
    /// cells within two of a stone (every empty cell of an empty board).
    fn moves(&self, p: &Position) -> Vec<u32> {
        let empty = self.game.empty(p);
        let allowed = match self.game.family() {
            Family::Gravity => (0..self.game.cols())
                .filter_map(|c| self.game.drop_cell(empty, c))
                .fold(Cells::default(), |s, c| s.with(c)),
            Family::Mnk if p.stones() == 0 => empty,
            Family::Mnk => p
                .occupied()
                .iter()
                .fold(Cells::default(), |s, c| s | self.near[c as usize])
                .minus(p.occupied()),
        };
        self.order
            .iter()
            .copied()
            .filter(|&c| allowed.has(c))
            .collect()
    }

    /// Whether `stones`, which hold `cell`, complete a line through it.
    fn completes(&self, stones: Cells, cell: u32) -> bool {
        self.through[cell as usize]
            .iter()
            .any(|&i| self.lines[i as usize].minus(stones).is_empty())
    }

    /// The empty cells where `stones` would complete a line, the other
    /// player holding `other` (on gravity boards, playable or not).
    fn winning_cells(&self, stones: Cells, other: Cells) -> Cells {
        self.lines
            .iter()
            .filter(|line| !line.meets(&other))
            .map(|line| line.minus(stones))
            .filter(|left| left.len() == 1)
            .fold(Cells::default(), |s, left| s | left)
    }

    /// Whether the move `m` of `p` leaves the opponent, whose winning
    /// cells are `threats`, a line to complete at once.
    fn gives_a_win(&self, p: &Position, m: u32, threats: Cells) -> bool {
        let after = p.with(m);
        let open = threats.minus(Cells::one(m));
        match self.game.family() {
            Family::Mnk => !open.is_empty(),
            Family::Gravity => {
                let cols = self.game.cols();
                let empty = self.game.empty(&after);
                (0..cols)
                    .filter_map(|c| self.game.drop_cell(empty, c))
                    .any(|c| open.has(c))
            }
        }
    }

    /// The heuristic value of `p` for its player to move.
    fn evaluate(&self, p: &Position) -> i32 {
        let (me, them) = sides(p);
        let mut score = 0i32;
        for line in &self.lines {
            let (mine, theirs) = ((*line & me).len(), (*line & them).len());
            match (mine, theirs) {
                (0, 0) => {}
                (c, 0) => score += 1 << (2 * c.min(12)),
                (0, c) => score -= 1 << (2 * c.min(12)),
                _ => {}
            }
        }
        score
    }

    /// Fail-hard negamax of `p` to `depth` plies, `ply` plies below the
    /// root: a win now scores `WIN − ply`. Unwinds (0) once the clock
    /// stops a timed round.
    fn negamax(&mut self, p: &Position, depth: u32, mut alpha: i32, beta: i32, ply: i32) -> i32 {
        self.nodes += 1;
        if self.timed && self.nodes.is_multiple_of(32) && Instant::now() >= self.deadline {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        let moves = self.moves(p);
        if moves.is_empty() {
            return 0; // a full board: drawn
        }
        let (me, them) = sides(p);
        if moves.iter().any(|&m| self.completes(me.with(m), m)) {
            return WIN - ply;
        }
        if depth == 0 {
            return self.evaluate(p);
        }
        // a winning cell of the opponent's that can be taken must be
        // taken; two of them lose
        let threats = self.winning_cells(them, me);
        let forced: Vec<u32> = moves.iter().copied().filter(|&m| threats.has(m)).collect();
        let (moves, depth) = match forced.len() {
            0 => (moves, depth - 1),
            1 => (forced, depth), // followed without cost
            _ => return -(WIN - ply - 1),
        };
        let mut best = -WIN - 1;
        for m in moves {
            let v = -self.negamax(&p.with(m), depth, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSize;

    fn connect() -> BoardGame {
        BoardGame::new(Family::Gravity, BoardSize::new(7, 6, 4)).unwrap()
    }

    fn soon() -> Instant {
        Instant::now() + Duration::from_millis(50)
    }

    fn move_of(game: &BoardGame, moves: &str) -> String {
        let p = game.play_moves(moves).unwrap();
        best_so_far(game, &p, soon()).unwrap().notation
    }

    #[test]
    fn takes_an_immediate_win() {
        let game = connect();
        // X has 1 2 3 on the bottom row: 4 wins (and blocks nothing)
        assert_eq!(move_of(&game, "1 1 2 2 3 3"), "4");
        // O's turn with three in column 7, X threatening too: O wins
        assert_eq!(move_of(&game, "1 7 2 7 4 7 1"), "7");
        let tic = BoardGame::new(Family::Mnk, BoardSize::new(3, 3, 3)).unwrap();
        assert_eq!(move_of(&tic, "a1 b1 a2 b2"), "a3");
    }

    #[test]
    fn blocks_an_immediate_loss() {
        let game = connect();
        // O has 1 2 3 on the bottom row after X played elsewhere: X blocks 4
        assert_eq!(move_of(&game, "7 1 7 2 6 3"), "4");
        let tic = BoardGame::new(Family::Mnk, BoardSize::new(3, 3, 3)).unwrap();
        assert_eq!(move_of(&tic, "a1 b2 c3 b1"), "b3");
        // O's four in column h, h7 taken by X: X takes h12
        let gomoku = BoardGame::new(Family::Mnk, BoardSize::new(15, 15, 5)).unwrap();
        assert_eq!(move_of(&gomoku, "h7 h8 a1 h9 a3 h10 a5 h11"), "h12");
    }

    #[test]
    fn never_fills_the_cell_under_a_winning_cell() {
        let game = connect();
        // O holds the second row of columns 5, 6 and 7 and column 4 is
        // empty: X, to move with no win of its own, must not play 4
        let p = game.play_moves("5 7 6 5 1 6 2 7").unwrap();
        let m = best_so_far(&game, &p, soon()).unwrap();
        assert_ne!(m.notation, "4", "{m:?}");
    }

    #[test]
    fn every_position_in_play_gets_a_legal_move_and_a_finished_one_none() {
        let game = connect();
        let p = game.play_moves("").unwrap();
        let m = best_so_far(&game, &p, soon()).unwrap();
        assert!(game.legal_cells(&p).contains(&m.cell));
        assert!(m.plies >= 2, "looked {} plies ahead", m.plies);
        let won = game.play_moves("1 2 1 2 1 2 1").unwrap();
        assert!(best_so_far(&game, &won, soon()).is_none());
    }
}
