//! Dōbutsu shōgi ("animal shogi", Kitao and Fujita 2008) written for the
//! generic engine ([`retrograde::own::Rules`]) and solved completely.
//!
//! ```text
//! cargo run --release --example dobutsu                     # solve, print the figures
//! cargo run --release --example dobutsu -- --out d.rgt      # and save the table
//! cargo run --release --example dobutsu -- --table d.rgt --moves "c1c2 b4c3"
//!                                    # read it back, certified, and answer a position
//! cargo run --release --example dobutsu -- query d.rgt --moves "c1c2" --json
//! cargo run --release --example dobutsu -- play d.rgt       # against perfect play
//! ```
//!
//! (`solve`, `query` and `play` are the command line of `retrograde-own`,
//! which every game of one's own gets.)
//!
//! Tanaka (2009) solved it: the second player (gote) wins, in 78 plies;
//! 246,803,167 positions are reachable when positions are counted from the
//! mover's side, mirror images are one position, and a position at which
//! the game is over is counted but not expanded.
//!
//! # The rules
//! A 3 × 4 board, files a–c, ranks 1–4; sente (the first player) starts on
//! rank 1, gote on rank 4. Each side has a lion (moves one step any way), a
//! giraffe (one step orthogonally), an elephant (one step diagonally) and a
//! chick (one step forward), which becomes a hen (one step orthogonally or
//! diagonally forward) when it moves onto the last rank. A captured piece
//! goes to the captor's hand (a hen as a chick) and may be dropped on any
//! empty square instead of a move (a chick dropped on the last rank stays a
//! chick). The game is won by capturing the lion, or by a *try*: moving
//! one's lion onto the last rank where the opponent cannot capture it.
//! Positions that repeat are draws.
//!
//! # The position, from the mover's side
//! A `u64`: twelve 4-bit squares (bits 0–47; square `4·(3·rank + file)`
//! from the mover's first rank), then the mover's hand (giraffes,
//! elephants, chicks: 2 bits each, bits 48–53), the opponent's (54–59), and
//! bit 60 set when gote is to move. A square holds 0 (empty), a kind
//! 1–5 (lion, giraffe, elephant, chick, hen) of the mover, or 8 + kind of
//! the opponent. A move turns the board round, so the child is again seen
//! from its mover's side.
//!
//! Symmetries: the mirror (files a ↔ c) and bit 60 (which side is to move
//! does not change the value of a position seen from the mover): the
//! engine keeps one position of the four, as the published count does.
//!
//! # Ends, and how plies and positions are counted
//! Seen from the player to move, a position is over when
//! * the mover's lion was taken (one position, whichever lion it was): lost;
//! * the opponent's lion stands on the mover's first rank and the mover
//!   cannot take it (a try that stands): lost.
//!
//! A mover who can take the opponent's lion does nothing else: those
//! captures are its only moves (taking the lion wins at once, so no other
//! move can be better, and the value and depth of every position are as
//! under the full rules). So every ending counts the ply that makes it —
//! a win "in 1" takes the lion or makes a try that stands — which is how
//! Tanaka and `clausecker/dobutsu` count plies.
//!
//! The published count stops one ply earlier: a position where the mover
//! can take the lion is counted (as won) but not expanded, and no position
//! after a lion is taken is counted. (Here one position, `LION_TAKEN`,
//! stands for every position after a lion is taken.) [`published_kind`]
//! sorts the solved positions that way.

use std::sync::OnceLock;

use retrograde::language::Outcome;
use retrograde::own::Rules;

/// Piece kinds (the mover's; the opponent's are `OPPONENT | kind`).
const LION: u8 = 1;
const GIRAFFE: u8 = 2;
const ELEPHANT: u8 = 3;
const CHICK: u8 = 4;
const HEN: u8 = 5;
const OPPONENT: u8 = 8;

/// The position after a lion is taken, whichever it was: the game is over
/// (lost for the player to move, whose lion it was), so one position
/// stands for all of them.
const LION_TAKEN: u64 = u64::MAX;

/// Bit of "gote to move".
const GOTE: u64 = 1 << 60;
/// The 48 bits of the board.
const BOARD: u64 = (1 << 48) - 1;

/// Dōbutsu shōgi's rules.
pub struct Dobutsu {
    /// `targets[kind][square]`: the squares a piece of the mover's of that
    /// kind on that square moves to.
    targets: Vec<Vec<Vec<u8>>>,
}

fn file(square: usize) -> usize {
    square % 3
}

fn rank(square: usize) -> usize {
    square / 3
}

impl Default for Dobutsu {
    fn default() -> Self {
        Self::new()
    }
}

impl Dobutsu {
    /// The rules, with each piece's steps laid out square by square.
    pub fn new() -> Self {
        let steps: [&[(i32, i32)]; 6] = [
            &[],
            &[
                (1, -1),
                (1, 0),
                (1, 1),
                (0, -1),
                (0, 1),
                (-1, -1),
                (-1, 0),
                (-1, 1),
            ],
            &[(1, 0), (-1, 0), (0, 1), (0, -1)],
            &[(1, 1), (1, -1), (-1, 1), (-1, -1)],
            &[(1, 0)],
            &[(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1)],
        ];
        let targets = steps
            .iter()
            .map(|steps| {
                (0..12)
                    .map(|square| {
                        steps
                            .iter()
                            .filter_map(|&(dr, df)| {
                                let r = rank(square) as i32 + dr;
                                let f = file(square) as i32 + df;
                                ((0..4).contains(&r) && (0..3).contains(&f))
                                    .then_some((3 * r + f) as u8)
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect();
        Self { targets }
    }

    /// The shared rules (the tables are built once).
    pub fn rules() -> &'static Dobutsu {
        static RULES: OnceLock<Dobutsu> = OnceLock::new();
        RULES.get_or_init(Dobutsu::new)
    }
}

/// A position taken apart.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Board {
    squares: [u8; 12],
    /// `hands[side][kind - GIRAFFE]`, side 0 the mover.
    hands: [[u8; 3]; 2],
    gote: bool,
}

impl Board {
    fn unpack(key: u64) -> Self {
        let mut squares = [0u8; 12];
        for (s, square) in squares.iter_mut().enumerate() {
            *square = ((key >> (4 * s)) & 0xf) as u8;
        }
        let mut hands = [[0u8; 3]; 2];
        for (side, hand) in hands.iter_mut().enumerate() {
            for (k, count) in hand.iter_mut().enumerate() {
                *count = ((key >> (48 + 6 * side + 2 * k)) & 3) as u8;
            }
        }
        Board {
            squares,
            hands,
            gote: key & GOTE != 0,
        }
    }

    fn pack(&self) -> u64 {
        let mut key = 0u64;
        for (s, &square) in self.squares.iter().enumerate() {
            key |= u64::from(square) << (4 * s);
        }
        for (side, hand) in self.hands.iter().enumerate() {
            for (k, &count) in hand.iter().enumerate() {
                key |= u64::from(count) << (48 + 6 * side + 2 * k);
            }
        }
        if self.gote {
            key |= GOTE;
        }
        key
    }

    /// The same position seen from the other side: the board turned round,
    /// the pieces' owners and the hands swapped.
    fn turned(&self) -> Self {
        let mut squares = [0u8; 12];
        for (s, square) in squares.iter_mut().enumerate() {
            let piece = self.squares[11 - s];
            *square = if piece == 0 { 0 } else { piece ^ OPPONENT };
        }
        Board {
            squares,
            hands: [self.hands[1], self.hands[0]],
            gote: !self.gote,
        }
    }

    fn opponent_lion(&self) -> Option<usize> {
        self.squares.iter().position(|&p| p == OPPONENT | LION)
    }
}

/// The mirror image of a key (files a ↔ c), all else kept.
fn mirrored(key: u64) -> u64 {
    let mut out = key & !BOARD;
    for r in 0..4 {
        for f in 0..3 {
            let nibble = (key >> (4 * (3 * r + f))) & 0xf;
            out |= nibble << (4 * (3 * r + (2 - f)));
        }
    }
    out
}

impl Dobutsu {
    /// The position at the start: sente to move.
    pub fn start_position() -> u64 {
        let mut squares = [0u8; 12];
        squares[0] = ELEPHANT;
        squares[1] = LION;
        squares[2] = GIRAFFE;
        squares[4] = CHICK;
        squares[7] = OPPONENT | CHICK;
        squares[9] = OPPONENT | GIRAFFE;
        squares[10] = OPPONENT | LION;
        squares[11] = OPPONENT | ELEPHANT;
        Board {
            squares,
            hands: [[0; 3]; 2],
            gote: false,
        }
        .pack()
    }

    fn attacks(&self, board: &Board, target: usize) -> bool {
        board.squares.iter().enumerate().any(|(s, &piece)| {
            piece != 0
                && piece & OPPONENT == 0
                && self.targets[piece as usize][s].contains(&(target as u8))
        })
    }

    /// Every move of the mover as (name in the mover's coordinates, child).
    fn moves_of(&self, key: u64, mut visit: impl FnMut(Move, u64)) {
        let board = Board::unpack(key);
        let Some(lion) = board.opponent_lion() else {
            return;
        };
        let take_lion = self.attacks(&board, lion);
        for (from, &piece) in board.squares.iter().enumerate() {
            if piece == 0 || piece & OPPONENT != 0 {
                continue;
            }
            for &to in &self.targets[piece as usize][from] {
                let to = to as usize;
                let taken = board.squares[to];
                if taken != 0 && taken & OPPONENT == 0 {
                    continue;
                }
                if take_lion != (taken == OPPONENT | LION) {
                    continue; // the lion in reach is taken, and nothing else is played
                }
                if take_lion {
                    visit(Move::Step(from, to), LION_TAKEN);
                    continue;
                }
                let mut next = board;
                next.squares[from] = 0;
                next.squares[to] = if piece == CHICK && rank(to) == 3 {
                    HEN
                } else {
                    piece
                };
                if taken != 0 {
                    let kind = match taken & !OPPONENT {
                        HEN => CHICK,
                        kind => kind,
                    };
                    next.hands[0][(kind - GIRAFFE) as usize] += 1;
                }
                visit(Move::Step(from, to), next.turned().pack());
            }
        }
        for kind in [GIRAFFE, ELEPHANT, CHICK] {
            if take_lion || board.hands[0][(kind - GIRAFFE) as usize] == 0 {
                continue;
            }
            for to in 0..12 {
                if board.squares[to] != 0 {
                    continue;
                }
                let mut next = board;
                next.squares[to] = kind;
                next.hands[0][(kind - GIRAFFE) as usize] -= 1;
                visit(Move::Drop(kind, to), next.turned().pack());
            }
        }
    }
}

/// How the published count sees a position of the solved table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Published {
    /// Counted, and play goes on.
    InPlay,
    /// Counted, not expanded: the mover can take the lion (won) or faces a
    /// try that stands (lost).
    Over(Outcome),
    /// Not counted: a position after a lion was taken.
    NotCounted,
}

/// How the published count sees `position`.
pub fn published_kind(position: u64) -> Published {
    if position == LION_TAKEN {
        return Published::NotCounted;
    }
    let rules = Dobutsu::rules();
    let board = Board::unpack(position);
    match board.opponent_lion() {
        None => Published::NotCounted,
        Some(lion) if rules.attacks(&board, lion) => Published::Over(Outcome::Win),
        Some(lion) if rank(lion) == 0 => Published::Over(Outcome::Loss),
        Some(_) => Published::InPlay,
    }
}

/// The figures of the published count, read off a solved table.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct PublishedFigures {
    /// Positions counted.
    pub counted: u64,
    /// Of them, over (not expanded).
    pub over: u64,
    /// Of them, in play: `[all, won, drawn, lost]` for the mover.
    pub in_play: [u64; 4],
}

impl PublishedFigures {
    /// Sorts every position of `solution` as the published count does.
    pub fn of(solution: &retrograde::own::Solution<u64>) -> Self {
        let mut figures = PublishedFigures::default();
        for (state, key) in solution.reached(Dobutsu::rules()) {
            match published_kind(key) {
                Published::NotCounted => continue,
                Published::Over(_) => figures.over += 1,
                Published::InPlay => {
                    figures.in_play[0] += 1;
                    figures.in_play[match solution.table.outcome(state) {
                        Outcome::Win => 1,
                        Outcome::Draw => 2,
                        Outcome::Loss => 3,
                    }] += 1;
                }
            }
            figures.counted += 1;
        }
        figures
    }
}

/// A move in the mover's coordinates.
#[derive(Clone, Copy)]
enum Move {
    Step(usize, usize),
    Drop(u8, usize),
}

/// A square's name for the side `gote` (whose coordinates are turned round).
fn square_name(square: usize, gote: bool) -> String {
    let absolute = if gote { 11 - square } else { square };
    format!(
        "{}{}",
        (b'a' + file(absolute) as u8) as char,
        rank(absolute) + 1
    )
}

fn piece_letter(kind: u8) -> char {
    match kind {
        LION => 'L',
        GIRAFFE => 'G',
        ELEPHANT => 'E',
        CHICK => 'C',
        _ => 'H',
    }
}

impl Rules for Dobutsu {
    type Position = u64;

    fn name(&self) -> String {
        "dobutsu".to_string()
    }

    fn start(&self) -> u64 {
        Self::start_position()
    }

    fn moves(&self, position: &u64, children: &mut Vec<u64>) {
        self.moves_of(*position, |_, child| children.push(child));
    }

    fn outcome(&self, position: &u64) -> Option<Outcome> {
        if *position == LION_TAKEN {
            return Some(Outcome::Loss);
        }
        let board = Board::unpack(*position);
        let lion = board.opponent_lion()?;
        if !self.attacks(&board, lion) && rank(lion) == 0 {
            return Some(Outcome::Loss); // a try that stands
        }
        None
    }

    fn symmetries(&self, position: &u64, images: &mut Vec<u64>) {
        if *position == LION_TAKEN {
            return;
        }
        let mirror = mirrored(*position);
        images.extend([mirror, position ^ GOTE, mirror ^ GOTE]);
    }

    fn move_name(&self, from: &u64, index: usize, _to: &u64) -> String {
        if *from == LION_TAKEN {
            return String::new();
        }
        let gote = from & GOTE != 0;
        let mut name = String::new();
        let mut i = 0;
        self.moves_of(*from, |m, _| {
            if i == index {
                name = match m {
                    Move::Step(a, b) => format!("{}{}", square_name(a, gote), square_name(b, gote)),
                    Move::Drop(kind, to) => {
                        format!("{}*{}", piece_letter(kind), square_name(to, gote))
                    }
                };
            }
            i += 1;
        });
        name
    }

    fn render(&self, position: &u64) -> String {
        if *position == LION_TAKEN {
            return "the lion was taken: the game is over".to_string();
        }
        let board = Board::unpack(*position);
        // Sente's pieces in capitals, gote's in lower case, rank 4 on top.
        let absolute = if board.gote { board.turned() } else { board };
        let mut text = String::new();
        for r in (0..4).rev() {
            text.push_str(&format!("{} ", r + 1));
            for f in 0..3 {
                let piece = absolute.squares[3 * r + f];
                text.push(match piece {
                    0 => '.',
                    p if p & OPPONENT == 0 => piece_letter(p),
                    p => piece_letter(p & !OPPONENT).to_ascii_lowercase(),
                });
            }
            text.push('\n');
        }
        text.push_str("  abc\n");
        let hand = |side: usize| -> String {
            let mut h = String::new();
            for kind in [GIRAFFE, ELEPHANT, CHICK] {
                for _ in 0..absolute.hands[side][(kind - GIRAFFE) as usize] {
                    h.push(piece_letter(kind));
                }
            }
            if h.is_empty() {
                "-".into()
            } else {
                h
            }
        };
        text.push_str(&format!(
            "sente's hand {}, gote's hand {}; {} to move",
            hand(0),
            hand(1).to_ascii_lowercase(),
            if board.gote { "gote" } else { "sente" }
        ));
        text
    }
}

/// Prints each stage of the solve and each ply of the enumeration to
/// stderr, with the seconds since the start.
struct Stages(std::time::Instant);

impl retrograde::host::Progress for Stages {
    fn stage(&self, name: &str, total: u64) {
        eprintln!(
            "[{:7.1} s] {name} ({total})",
            self.0.elapsed().as_secs_f64()
        );
    }
    fn advance(&self, _units: u64) {}
    fn note(&self, text: &str) {
        eprintln!("[{:7.1} s]   {text}", self.0.elapsed().as_secs_f64());
    }
}

/// The command line: where the table comes from and what to ask it.
#[derive(Default)]
struct Args {
    moves: Option<String>,
    out: Option<std::path::PathBuf>,
    table: Option<std::path::PathBuf>,
}

const USAGE: &str = "usage: dobutsu [--out FILE | --table FILE] [--moves \"c1c2 b3b2 …\"]";

fn parse_args() -> Result<Args, String> {
    let mut args = Args::default();
    let mut words = std::env::args().skip(1);
    while let Some(word) = words.next() {
        let mut value = || words.next().ok_or(format!("{word} needs a value; {USAGE}"));
        match word.as_str() {
            "--moves" => args.moves = Some(value()?),
            "--out" => args.out = Some(value()?.into()),
            "--table" => args.table = Some(value()?.into()),
            _ => return Err(format!("unknown argument {word}; {USAGE}")),
        }
    }
    if args.out.is_some() && args.table.is_some() {
        return Err(format!(
            "--out and --table: solve, or read a table, not both; {USAGE}"
        ));
    }
    Ok(args)
}

/// Bad input and refusals end in one line on stderr and exit code 2.
fn main() {
    // `solve`, `query` and `play` are the command line every game of one's
    // own gets (retrograde-own); without them, the published figures.
    if retrograde_own::main_if_asked(Dobutsu::rules()) {
        return;
    }
    if let Err(e) = run() {
        eprintln!("dobutsu: {e}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let args = parse_args()?;
    let rules = Dobutsu::rules();
    // The moves are read before the solve, so a typo costs no time.
    let position = args
        .moves
        .as_deref()
        .map(|m| retrograde::own::play_moves(rules, m))
        .transpose()?;
    if let Some(out) = &args.out {
        retrograde::own::check_table_output(out)?;
    }
    let budget = retrograde::host::Budget::default_for_machine();
    let clock = std::time::Instant::now();
    let solution = match &args.table {
        Some(table) => {
            let solution = retrograde::own::load(table, rules, &budget, &Stages(clock))?;
            println!(
                "read and certified {} in {:.1} s",
                table.display(),
                clock.elapsed().as_secs_f64()
            );
            solution
        }
        None => retrograde::own::solve_within(rules, &budget, &Stages(clock))?,
    };
    let counts = solution.counts();
    println!(
        "solved: {} positions (win {}, loss {}, draw {}), {} moves, in {:.1} s",
        solution.positions(),
        counts.win,
        counts.loss,
        counts.draw,
        solution.moves,
        clock.elapsed().as_secs_f64()
    );
    let figures = PublishedFigures::of(&solution);
    let [in_play, won, drawn, lost] = figures.in_play;
    println!(
        "as published: {} positions, {} over, {in_play} in play (win {won}, draw {drawn}, loss {lost})",
        figures.counted, figures.over
    );
    let (value, depth) = solution
        .lookup(rules, rules.start())
        .ok_or("the start is not in the table")?;
    let plies = depth.map_or("-".to_string(), |d| d.to_string());
    println!(
        "start: a {} for sente, to move, in {plies} plies",
        value.name()
    );
    if let Some(out) = &args.out {
        let bytes = retrograde::own::save(out, rules, &solution)?;
        println!("wrote {} ({bytes} bytes)", out.display());
    }
    if let Some(position) = position {
        let answer = solution.answer(rules, position);
        println!("{}", answer.position);
        println!("{}", serde_json::to_string(&answer)?);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_has_four_moves_and_turning_round_twice_is_the_identity() {
        let rules = Dobutsu::rules();
        let start = rules.start();
        let mut children = Vec::new();
        rules.moves(&start, &mut children);
        assert_eq!(children.len(), 4);
        let names: Vec<String> = (0..4)
            .map(|i| rules.move_name(&start, i, &children[i]))
            .collect();
        assert_eq!(names, ["b1a2", "b1c2", "c1c2", "b2b3"]);
        let board = Board::unpack(start);
        assert_eq!(board.turned().turned(), board);
        // The start is the same from either side: gote's view of it is sente's.
        assert_eq!(board.turned().pack(), start ^ GOTE);
        assert_eq!(mirrored(mirrored(start)), start);
        assert_eq!(rules.outcome(&start), None);
    }

    #[test]
    fn capturing_the_chick_puts_it_in_hand_and_gote_answers_in_its_coordinates() {
        let rules = Dobutsu::rules();
        let position = retrograde::own::play_moves(rules, "b2b3").unwrap();
        assert!(rules.render(&position).contains("sente's hand C"));
        assert!(rules.render(&position).ends_with("gote to move"));
        // gote's lion (b4) can take the chick on b3
        let taken = retrograde::own::play_moves(rules, "b2b3 b4b3").unwrap();
        assert!(rules.render(&taken).contains("gote's hand c"));
        assert!(retrograde::own::play_moves(rules, "b2b3 b1b2").is_err());
    }

    fn position(pieces: &[(usize, u8)]) -> u64 {
        let mut squares = [0u8; 12];
        for &(square, piece) in pieces {
            squares[square] = piece;
        }
        Board {
            squares,
            hands: [[0; 3]; 2],
            gote: false,
        }
        .pack()
    }

    #[test]
    fn a_lion_in_reach_is_taken_and_a_try_that_stands_ends_the_game() {
        let rules = Dobutsu::rules();
        // Lions face to face on b1 and b2, a giraffe of the mover's on c1:
        // taking the lion (with either piece) are the only moves.
        let facing = position(&[(1, LION), (2, GIRAFFE), (4, OPPONENT | LION)]);
        assert_eq!(rules.outcome(&facing), None);
        assert_eq!(published_kind(facing), Published::Over(Outcome::Win));
        let mut children = Vec::new();
        rules.moves(&facing, &mut children);
        assert_eq!(
            children.len(),
            1,
            "only the lion takes: c1 does not reach b2"
        );
        assert_eq!(children[0], LION_TAKEN);
        assert_eq!(rules.outcome(&children[0]), Some(Outcome::Loss));
        assert_eq!(published_kind(children[0]), Published::NotCounted);
        // The opponent's lion on a1, out of reach of the mover's lion on c3.
        let tried = position(&[(8, LION), (0, OPPONENT | LION)]);
        assert_eq!(rules.outcome(&tried), Some(Outcome::Loss));
        assert_eq!(published_kind(tried), Published::Over(Outcome::Loss));
        // The same lion in reach (the mover's lion on b2): not over, taken.
        let caught = position(&[(4, LION), (0, OPPONENT | LION)]);
        assert_eq!(rules.outcome(&caught), None);
        assert_eq!(published_kind(caught), Published::Over(Outcome::Win));
        assert_eq!(published_kind(rules.start()), Published::InPlay);
    }

    #[test]
    fn positions_round_trip_and_mirror_images_have_the_same_moves() {
        let rules = Dobutsu::rules();
        let mut positions = vec![rules.start()];
        let mut children = Vec::new();
        for _ in 0..4 {
            let mut next = Vec::new();
            for p in &positions {
                children.clear();
                rules.moves(p, &mut children);
                next.extend(&children);
            }
            positions = next;
        }
        assert!(positions.len() > 100);
        for &p in positions.iter().filter(|&&p| p != LION_TAKEN) {
            assert_eq!(Board::unpack(p).pack(), p);
            let mut mine = Vec::new();
            let mut theirs = Vec::new();
            rules.moves(&p, &mut mine);
            rules.moves(&mirrored(p), &mut theirs);
            let mut mine: Vec<u64> = mine.into_iter().map(mirrored).collect();
            mine.sort_unstable();
            theirs.sort_unstable();
            assert_eq!(mine, theirs);
        }
    }

    #[test]
    fn the_rules_keep_the_engine_s_contract() {
        let report = retrograde::own::check_contract(Dobutsu::rules(), 20_000).unwrap();
        assert_eq!(report.positions, 20_000);
        assert!(report.images > 0);
    }

    /// Tanaka (2009): 246,803,167 positions; 99,485,568 in play, of which
    /// 56,474,473 won, 2,682,700 drawn and 40,328,395 lost for the mover;
    /// the start lost for sente in 78 plies. About 15 minutes and 12 GiB
    /// on 2 cores: `cargo test --release --example dobutsu -- --ignored`.
    #[test]
    #[ignore]
    fn the_published_figures() {
        let rules = Dobutsu::rules();
        let solution = retrograde::own::solve(rules).unwrap();
        let figures = PublishedFigures::of(&solution);
        assert_eq!(figures.counted, 246_803_167);
        assert_eq!(
            figures.in_play,
            [99_485_568, 56_474_473, 2_682_700, 40_328_395]
        );
        assert_eq!(figures.over, 246_803_167 - 99_485_568);
        assert_eq!(
            solution.lookup(rules, rules.start()),
            Some((Outcome::Loss, Some(78)))
        );
    }
}
