//! Teeko (John Scarne's rules) as a user game of [`retrograde::own`]:
//! solved strongly, every position reachable from the empty board labelled
//! win, loss or draw. Guy Steele's published result: a draw.
//!
//! The rules: a 5 × 5 board, Black moves first, each player has 4 markers.
//! While markers remain to be placed (the drop phase) the players take
//! turns placing one on an empty cell; once all 8 are down (the move phase)
//! a player moves one of their markers to an adjacent empty cell (the 8
//! neighbours, diagonals included). A player whose 4 markers make one of
//! the 44 winning shapes — 28 straight lines of four (horizontal, vertical
//! and both diagonals) and 16 squares of 2 × 2 — wins. Positions that
//! repeat in the move phase without a winner are draws (the engine labels
//! every position it cannot decide a draw).
//!
//! Run: `cargo run --release --example teeko -- [--threads N] [--verbose] [--whole] [--moves "c3 b2 ... b2c3"]`
//! (`--whole`: the whole game in memory at once, not tier by tier by the
//! markers on the board)
//! (moves are cells such as `c3` in the drop phase and from-to pairs such
//! as `b2c3` in the move phase; columns `a`..`e` from the left, rows `1`..`5`
//! from the bottom). Without `--moves` it prints the solve's totals and the
//! start's value; with it, also the answer for the position those moves
//! reach, every move with its value, in JSON.
//!
//! `teeko solve --out t.rgt`, `teeko query t.rgt --moves "…"` and `teeko
//! play t.rgt` are the command line every game of one's own gets
//! (retrograde-own).
//!
//! The whole-game check (`teeko_is_a_draw`) is an ignored test:
//! `cargo test --release --example teeko -- --ignored`.

use std::time::Instant;

use retrograde::host::{grouped, in_pool, worker_threads, Budget, Progress, Silent};
use retrograde::language::Outcome;
use retrograde::own::{play_moves, solve_whole, solve_within, Rules};

/// Cells on a side of the board.
const SIDE: usize = 5;

/// Cells on the board.
const CELLS: usize = SIDE * SIDE;

/// Markers each player has.
const MARKERS: u32 = 4;

/// The 25 cells of one player's markers.
const BOARD: u32 = (1 << CELLS) - 1;

/// Number of winning shapes: 28 lines of four and 16 squares.
const SHAPE_COUNT: usize = 44;

/// Teeko under Scarne's rules.
///
/// A position is a `u64` written from the side of the player to move:
/// bits 0..25 are the mover's markers, bits 25..50 the opponent's, cell
/// `row * 5 + column` at bit `cell` of its mask (row 0 is row `1`, column
/// 0 is column `a`); bits 50..64 are 0. A move puts the mover's new mask in the high half and
/// the opponent's in the low half, so the child is again written from its
/// own mover's side. Which player is Black does not matter to the value:
/// in the drop phase it follows from the counts (the mover is Black when
/// both have placed as many markers), and in the move phase the two sides
/// play by the same rules.
pub struct Teeko;

impl Teeko {
    /// The position with `mover`'s and `opponent`'s markers.
    pub const fn position(mover: u32, opponent: u32) -> u64 {
        mover as u64 | (opponent as u64) << CELLS
    }

    /// The mover's markers.
    pub const fn mover(position: u64) -> u32 {
        position as u32 & BOARD
    }

    /// The opponent's markers.
    pub const fn opponent(position: u64) -> u32 {
        (position >> CELLS) as u32 & BOARD
    }
}

/// The winning shapes as cell masks, sorted (for a binary search).
pub const SHAPES: [u32; SHAPE_COUNT] = shapes();

/// The mask of the cell at `row` and `column`.
const fn cell(row: usize, column: usize) -> u32 {
    1 << (row * SIDE + column)
}

/// The 44 shapes: the lines of four in each of four directions, then the
/// 2 × 2 squares; sorted.
const fn shapes() -> [u32; SHAPE_COUNT] {
    // (row step, column step) of each direction: along a row, up a column,
    // up-right and up-left; a line is kept where its fourth cell is on the
    // board.
    const DIRECTIONS: [(usize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
    let mut out = [0u32; SHAPE_COUNT];
    let mut n = 0;
    let mut d = 0;
    while d < DIRECTIONS.len() {
        let (dr, dc) = DIRECTIONS[d];
        let mut row = 0;
        while row < SIDE {
            let mut column = 0;
            while column < SIDE {
                let end_row = row + 3 * dr;
                let end_column = column as isize + 3 * dc;
                if end_row < SIDE && end_column >= 0 && end_column < SIDE as isize {
                    let mut mask = 0;
                    let mut k = 0;
                    while k < 4 {
                        mask |= cell(row + k * dr, (column as isize + k as isize * dc) as usize);
                        k += 1;
                    }
                    out[n] = mask;
                    n += 1;
                }
                column += 1;
            }
            row += 1;
        }
        d += 1;
    }
    let mut row = 0;
    while row + 1 < SIDE {
        let mut column = 0;
        while column + 1 < SIDE {
            out[n] = cell(row, column)
                | cell(row, column + 1)
                | cell(row + 1, column)
                | cell(row + 1, column + 1);
            n += 1;
            column += 1;
        }
        row += 1;
    }
    assert!(n == SHAPE_COUNT);
    // Insertion sort (a const fn cannot call `sort`).
    let mut i = 1;
    while i < SHAPE_COUNT {
        let mut j = i;
        while j > 0 && out[j - 1] > out[j] {
            let t = out[j - 1];
            out[j - 1] = out[j];
            out[j] = t;
            j -= 1;
        }
        i += 1;
    }
    out
}

/// Whether `markers` (at most 4 of them) make a winning shape: with no
/// more than 4 markers, holding a shape means being one.
fn is_shape(markers: u32) -> bool {
    SHAPES.binary_search(&markers).is_ok()
}

/// The cells adjacent to each cell (its 8 neighbours, fewer at the edge).
const NEIGHBOURS: [u32; CELLS] = neighbours();

const fn neighbours() -> [u32; CELLS] {
    let mut out = [0u32; CELLS];
    let mut c = 0;
    while c < CELLS {
        let (row, column) = ((c / SIDE) as isize, (c % SIDE) as isize);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (r, k) = (row + dr, column + dc);
                if (dr != 0 || dc != 0)
                    && r >= 0
                    && r < SIDE as isize
                    && k >= 0
                    && k < SIDE as isize
                {
                    out[c] |= cell(r as usize, k as usize);
                }
                dc += 1;
            }
            dr += 1;
        }
        c += 1;
    }
    out
}

/// The cell that symmetry `s` of the square (0 the identity, 1..3 the
/// rotations by a quarter turn, 4..7 the reflections) sends `(row, column)`
/// to.
const fn transform(s: usize, row: usize, column: usize) -> (usize, usize) {
    let last = SIDE - 1;
    match s {
        0 => (row, column),
        1 => (column, last - row),
        2 => (last - row, last - column),
        3 => (last - column, row),
        4 => (row, last - column),
        5 => (last - row, column),
        6 => (column, row),
        _ => (last - column, last - row),
    }
}

/// Symmetries of the square.
const SYMMETRIES: usize = 8;

/// `IMAGES[s][row][bits]`: the image under symmetry `s` of the markers
/// `bits` (5 bits, column `a` lowest) on `row`; a mask's image is the union
/// of its 5 rows' images.
const IMAGES: [[[u32; 1 << SIDE]; SIDE]; SYMMETRIES] = images();

const fn images() -> [[[u32; 1 << SIDE]; SIDE]; SYMMETRIES] {
    let mut out = [[[0u32; 1 << SIDE]; SIDE]; SYMMETRIES];
    let mut s = 0;
    while s < SYMMETRIES {
        let mut row = 0;
        while row < SIDE {
            let mut bits = 0;
            while bits < 1 << SIDE {
                let mut column = 0;
                while column < SIDE {
                    if bits >> column & 1 == 1 {
                        let (r, c) = transform(s, row, column);
                        out[s][row][bits] |= cell(r, c);
                    }
                    column += 1;
                }
                bits += 1;
            }
            row += 1;
        }
        s += 1;
    }
    out
}

/// The image of the cell mask `markers` under symmetry `s`.
fn image(s: usize, markers: u32) -> u32 {
    let rows = &IMAGES[s];
    (0..SIDE).fold(0, |acc, row| {
        acc | rows[row][(markers >> (row * SIDE)) as usize & ((1 << SIDE) - 1)]
    })
}

/// The name of a cell: its column `a`..`e` and row `1`..`5`.
fn cell_name(cell: u32) -> String {
    let (row, column) = (cell as usize / SIDE, cell as usize % SIDE);
    format!("{}{}", (b'a' + column as u8) as char, row + 1)
}

impl Rules for Teeko {
    type Position = u64;
    const TIERED: bool = true;

    /// Markers on the board: a drop adds one, a move keeps eight. The drop
    /// phase is solved a tier at a time from the move phase down.
    fn tier(&self, position: &u64) -> u32 {
        (Self::mover(*position) | Self::opponent(*position)).count_ones()
    }

    fn start(&self) -> u64 {
        Self::position(0, 0)
    }

    /// Drop phase (fewer than 8 markers down): a marker on each empty cell,
    /// in cell order. Move phase: each marker, in cell order, to each empty
    /// neighbour, in cell order.
    fn moves(&self, position: &u64, children: &mut Vec<u64>) {
        let (mover, opponent) = (Self::mover(*position), Self::opponent(*position));
        let empty = BOARD & !(mover | opponent);
        if mover.count_ones() < MARKERS {
            children.extend(bits(empty).map(|to| Self::position(opponent, mover | 1 << to)));
        } else {
            for from in bits(mover) {
                let rest = mover & !(1 << from);
                children.extend(
                    bits(NEIGHBOURS[from as usize] & empty)
                        .map(|to| Self::position(opponent, rest | 1 << to)),
                );
            }
        }
    }

    /// Lost for the player to move once the player who just moved has made
    /// a shape (the mover cannot have one: the game would have ended when
    /// they made it). In the move phase every player has a move, so no
    /// position is lost for want of one.
    fn outcome(&self, position: &u64) -> Option<Outcome> {
        is_shape(Self::opponent(*position)).then_some(Outcome::Loss)
    }

    fn name(&self) -> String {
        "teeko".to_string()
    }

    /// The 7 other images under the rotations and reflections of the
    /// square, applied to both players' markers.
    fn symmetries(&self, position: &u64, images: &mut Vec<u64>) {
        let (mover, opponent) = (Self::mover(*position), Self::opponent(*position));
        images.extend((1..SYMMETRIES).map(|s| Self::position(image(s, mover), image(s, opponent))));
    }

    /// `c3` for a marker placed on c3, `b2c3` for one moved from b2 to c3.
    fn move_name(&self, from: &u64, _index: usize, to: &u64) -> String {
        let before = Self::mover(*from);
        let after = Self::opponent(*to);
        let placed = after & !before;
        let lifted = before & !after;
        if lifted == 0 {
            cell_name(placed.trailing_zeros())
        } else {
            cell_name(lifted.trailing_zeros()) + &cell_name(placed.trailing_zeros())
        }
    }

    /// The board, row 5 at the top and column `a` at the left: `X` for the
    /// markers of the player to move, `O` for the other player's, `.` for
    /// an empty cell; 5 lines of 5 cells separated by spaces.
    fn render(&self, position: &u64) -> String {
        let (mover, opponent) = (Self::mover(*position), Self::opponent(*position));
        let rows = (0..SIDE)
            .rev()
            .map(|row| {
                let cells = (0..SIDE)
                    .map(|column| {
                        let bit = cell(row, column);
                        if mover & bit != 0 {
                            "X"
                        } else if opponent & bit != 0 {
                            "O"
                        } else {
                            "."
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ");
                format!("{} {cells}", row + 1)
            })
            .collect::<Vec<_>>()
            .join("\n");
        format!("{rows}\n  a b c d e\nX: the player to move, O: the other player")
    }
}

/// The cells of `mask`, lowest first.
fn bits(mut mask: u32) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let c = mask.trailing_zeros();
            mask &= mask - 1;
            c
        })
    })
}

/// The command line: `--moves "..."`, `--threads N` and `--verbose`.
#[derive(Default)]
struct Args {
    moves: Option<String>,
    threads: Option<usize>,
    verbose: bool,
    /// Solve the whole game at once rather than tier by tier.
    whole: bool,
}

/// Progress as lines on stderr: each stage as it begins, with the time
/// since the solve began.
struct Stages(Instant);

impl Progress for Stages {
    fn stage(&self, name: &str, total: u64) {
        let seconds = self.0.elapsed().as_secs_f64();
        eprintln!("[{seconds:7.1} s] {name} ({})", grouped(total));
    }

    fn advance(&self, _units: u64) {}

    fn note(&self, text: &str) {
        let seconds = self.0.elapsed().as_secs_f64();
        eprintln!("[{seconds:7.1} s]   {text}");
    }
}

fn parse_args() -> Result<Args, String> {
    const USAGE: &str =
        "usage: teeko [--threads N] [--verbose] [--whole] [--moves \"c3 b2 ... b2c3\"]";
    let mut args = Args::default();
    let mut words = std::env::args().skip(1);
    while let Some(word) = words.next() {
        match word.as_str() {
            "--moves" => args.moves = Some(words.next().ok_or(USAGE)?),
            "--threads" => {
                let n = words.next().ok_or(USAGE)?;
                let n: usize = n
                    .parse()
                    .map_err(|_| format!("--threads {n}: not a number; {USAGE}"))?;
                args.threads = Some(n);
            }
            "--verbose" => args.verbose = true,
            "--whole" => args.whole = true,
            "-h" | "--help" => return Err(USAGE.to_string()),
            other => return Err(format!("unknown argument {other}; {USAGE}")),
        }
    }
    Ok(args)
}

/// Bad input and refusals end in one line on stderr and exit code 2.
fn main() {
    // `solve`, `query` and `play` are the command line every game of one's
    // own gets (retrograde-own); without them, the totals and an answer.
    if retrograde_own::main_if_asked(&Teeko) {
        return;
    }
    if let Err(e) = run() {
        eprintln!("teeko: {e}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let args = parse_args()?;
    // Check the moves before the solve, so a typo costs no time.
    let position = args
        .moves
        .as_deref()
        .map(|moves| play_moves(&Teeko, moves))
        .transpose()?;
    let (threads, _) = worker_threads(args.threads);
    let clock = Instant::now();
    let stages = Stages(clock);
    let progress: &dyn Progress = if args.verbose { &stages } else { &Silent };
    let budget = Budget::default_for_machine();
    let solution = in_pool(threads, || {
        if args.whole {
            solve_whole(&Teeko, &budget, progress)
        } else {
            solve_within(&Teeko, &budget, progress)
        }
    })??;
    let seconds = clock.elapsed().as_secs_f64();
    let counts = solution.counts();
    println!(
        "teeko: {} positions (up to the 8 symmetries of the square), {} moves",
        grouped(solution.positions()),
        grouped(solution.moves)
    );
    println!(
        "  win {}, loss {}, draw {} (for the player to move)",
        grouped(counts.win),
        grouped(counts.loss),
        grouped(counts.draw)
    );
    match solution.lookup(&Teeko, Teeko.start()) {
        Some((value, depth)) => println!(
            "  start: {}{}",
            value.name(),
            depth.map_or(String::new(), |d| format!(" in {d} plies"))
        ),
        None => println!("  start: not found"),
    }
    println!("  solved in {seconds:.1} s on {threads} threads");
    if let Some(position) = position {
        let answer = solution.answer(&Teeko, position);
        println!("{}", serde_json::to_string_pretty(&answer)?);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn the_44_shapes_are_distinct_masks_of_four_cells() {
        let distinct: HashSet<u32> = SHAPES.iter().copied().collect();
        assert_eq!(distinct.len(), 44);
        assert!(SHAPES.windows(2).all(|w| w[0] < w[1]), "sorted");
        assert!(SHAPES
            .iter()
            .all(|s| s.count_ones() == 4 && s & !BOARD == 0));
        let squares = SHAPES
            .iter()
            .filter(|&&s| {
                let low = s.trailing_zeros();
                s == (0b11 | 0b11 << SIDE) << low
            })
            .count();
        assert_eq!(squares, 16);
        assert_eq!(SHAPES.len() - squares, 28);
        // The row a1..d1, the column e2..e5, both long diagonals' ends.
        for shape in [0b1111, 0b10000_10000_10000_10000 << SIDE] {
            assert!(is_shape(shape));
        }
        assert!(is_shape(cell(0, 0) | cell(1, 1) | cell(2, 2) | cell(3, 3)));
        assert!(is_shape(cell(4, 0) | cell(3, 1) | cell(2, 2) | cell(1, 3)));
        // Not a shape: a bent line, a line of three, a spread square.
        assert!(!is_shape(0b111 | cell(1, 3)));
        assert!(!is_shape(0b111));
        assert!(!is_shape(cell(0, 0) | cell(0, 2) | cell(2, 0) | cell(2, 2)));
    }

    #[test]
    fn symmetries_are_permutations_that_map_shapes_to_shapes() {
        let shapes: HashSet<u32> = SHAPES.iter().copied().collect();
        let mut seen = HashSet::new();
        for s in 0..SYMMETRIES {
            let cells: HashSet<u32> = (0..CELLS as u32).map(|c| image(s, 1 << c)).collect();
            assert_eq!(cells.len(), CELLS, "symmetry {s} is a permutation");
            assert!(cells.iter().all(|c| c.count_ones() == 1 && c & !BOARD == 0));
            let mapped: HashSet<u32> = SHAPES.iter().map(|&m| image(s, m)).collect();
            assert_eq!(mapped, shapes, "symmetry {s} maps shapes to shapes");
            // The eight are distinct.
            assert!(seen.insert(
                (0..CELLS as u32)
                    .map(|c| image(s, 1 << c))
                    .collect::<Vec<_>>()
            ));
        }
        // The images of an image are the same set (a group).
        let p = Teeko::position(cell(0, 1) | cell(2, 3), cell(4, 4) | cell(1, 0));
        let orbit = |p: u64| {
            let mut images = vec![p];
            Teeko.symmetries(&p, &mut images);
            images.into_iter().collect::<HashSet<u64>>()
        };
        let all = orbit(p);
        assert_eq!(all.len(), 8);
        for &q in &all {
            assert_eq!(orbit(q), all);
        }
    }

    #[test]
    fn neighbours_are_the_eight_around() {
        assert_eq!(NEIGHBOURS[0], cell(0, 1) | cell(1, 0) | cell(1, 1));
        assert_eq!(NEIGHBOURS[12].count_ones(), 8);
        let counts: Vec<u32> = NEIGHBOURS.iter().map(|n| n.count_ones()).collect();
        assert_eq!(counts.iter().filter(|&&n| n == 3).count(), 4);
        assert_eq!(counts.iter().filter(|&&n| n == 5).count(), 12);
        assert_eq!(counts.iter().filter(|&&n| n == 8).count(), 9);
    }

    #[test]
    fn move_names_play_back_to_their_positions() {
        // A game of 40 plies by a fixed rule (the (7·ply)-th move of each
        // position), checking every move's name at every ply on the way.
        let mut played = Vec::new();
        let mut position = Teeko.start();
        let mut children = Vec::new();
        for ply in 0..40 {
            if Teeko.outcome(&position).is_some() {
                break;
            }
            children.clear();
            Teeko.moves(&position, &mut children);
            assert!(!children.is_empty());
            let names: Vec<String> = children
                .iter()
                .enumerate()
                .map(|(i, c)| Teeko.move_name(&position, i, c))
                .collect();
            let distinct: HashSet<&String> = names.iter().collect();
            assert_eq!(distinct.len(), names.len(), "names are distinct");
            let expected_len = if ply < 8 { 2 } else { 4 };
            assert!(names.iter().all(|n| n.len() == expected_len), "{names:?}");
            for (name, child) in names.iter().zip(&children) {
                let line = format!("{} {name}", played.join(" "));
                assert_eq!(play_moves(&Teeko, &line).unwrap(), *child);
            }
            let pick = (7 * ply) % children.len();
            played.push(names[pick].clone());
            position = children[pick];
        }
        assert!(played.len() > 8, "reached the move phase");
        assert_eq!(play_moves(&Teeko, &played.join(" ")).unwrap(), position);
        assert!(play_moves(&Teeko, "c3 c3").is_err());
        assert!(play_moves(&Teeko, "z9").is_err());
    }

    #[test]
    fn a_shape_ends_the_game() {
        // Black: a1 b1 c1 d1 (a row); White: a2 b2 c2.
        let position = play_moves(&Teeko, "a1 a2 b1 b2 c1 c2 d1").unwrap();
        assert_eq!(Teeko.outcome(&position), Some(Outcome::Loss));
        assert_eq!(Teeko::mover(position).count_ones(), 3);
        assert!(play_moves(&Teeko, "a1 a2 b1 b2 c1 c2 d1 d2").is_err());
        // A square made by a move in the move phase.
        let position = play_moves(&Teeko, "a1 e5 b1 e4 a2 e2 c3 d5 c3b2").unwrap();
        assert_eq!(Teeko.outcome(&position), Some(Outcome::Loss));
        let board = Teeko.render(&position);
        assert_eq!(
            board,
            "5 . . . X X\n4 . . . . X\n3 . . . . .\n2 O O . . X\n1 O O . . .\n  a b c d e\n\
             X: the player to move, O: the other player"
        );
        // Not over: three in a row and a gap.
        let position = play_moves(&Teeko, "a1 a2 b1 b2 c1 c2 e1").unwrap();
        assert_eq!(Teeko.outcome(&position), None);
    }

    #[test]
    fn every_player_can_move_in_the_move_phase() {
        // Four markers always have more than 4 cells around them, so the
        // other player's 4 markers cannot block them all.
        let mut sets = 0;
        for mask in 0u32..1 << CELLS {
            if mask.count_ones() != MARKERS {
                continue;
            }
            sets += 1;
            let around = bits(mask).fold(0, |acc, c| acc | NEIGHBOURS[c as usize]) & !mask;
            assert!(around.count_ones() > MARKERS, "{mask:025b}");
        }
        assert_eq!(sets, 12_650);
    }

    #[test]
    fn the_rules_keep_the_engine_s_contract_in_both_phases() {
        let drops = retrograde::own::check_contract(&Teeko, 20_000).unwrap();
        assert!(drops.images > 0);
        // The move phase: all eight markers down, none in a shape.
        let mover = cell(0, 0) | cell(0, 2) | cell(2, 1) | cell(4, 4);
        let opponent = cell(1, 1) | cell(3, 0) | cell(2, 3) | cell(4, 1);
        let moving = Teeko::position(mover, opponent);
        let report = retrograde::own::check_contract_from(&Teeko, &[moving], 20_000).unwrap();
        assert_eq!(report.positions, 20_000);
    }

    #[test]
    #[ignore = "the whole solve: 30 s on 2 cores"]
    fn teeko_is_a_draw() {
        let solution = retrograde::own::solve(&Teeko).unwrap();
        assert_eq!(
            solution.lookup(&Teeko, Teeko.start()),
            Some((Outcome::Draw, None))
        );
        let counts = solution.counts();
        assert_eq!(counts.total(), solution.positions());
        assert!(counts.win > 0 && counts.loss > 0 && counts.draw > 0);
        // The start's answer: 25 drops, each with its value, a drawing one best.
        let answer = solution.answer(&Teeko, Teeko.start());
        assert_eq!(answer.moves.len(), 25);
        assert!(answer.moves.iter().all(|m| m.value.is_some()));
        assert!(answer
            .moves
            .iter()
            .any(|m| m.value == Some(Outcome::Draw) && m.best));
    }
}
