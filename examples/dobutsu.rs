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
use retrograde::own::{among_free, from_free, Colex, Rules};

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
    /// Sorts every position of `solution` (of `rules`, [`Dobutsu`] or
    /// [`ByRank`]) as the published count does.
    pub fn of<R: Rules<Position = u64>>(
        solution: &retrograde::own::Solution<u64>,
        rules: &R,
    ) -> Self {
        let mut figures = PublishedFigures::default();
        for (state, key) in solution.reached(rules) {
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

/// Dōbutsu shōgi numbered by a dense rank, with unmoves: the engine's
/// fastest way through (no keys, no hash table, no reverse graph).
///
/// The positions are those of [`Dobutsu`] but two: the position after a
/// lion is taken is not kept, and a position whose mover can take the lion
/// is over, won at depth 1 ([`Rules::end_depth`]) — its only moves are the
/// captures, each a win at once. Values and depths are the same as
/// [`Dobutsu`]'s, and the positions kept are exactly the published 246,803,167.
/// Which side is to move is not kept (bit 60 is always clear): it does not
/// change a value seen from the mover, and leaving it out halves the work
/// of the symmetries, now the mirror alone.
///
/// The rank: the mover's lion's square (12) and the opponent's (11) make
/// 132 lion placements; each has 11,878,227 ranks, grouped by how many
/// giraffes, elephants and chicks are on the board (`b`, 0–2 each). Within
/// a group: the squares of the giraffes among the 10 the lions leave (a
/// colex rank), of the elephants among those left, of the chicks among
/// those left; the owner of each piece on the board (a bit each, in square
/// order), whether each chick on the board is a hen; and how many of each
/// kind off the board are in the mover's hand (`3 − b` ways). 1,567,925,964
/// ranks in all, about 6.4 for each position reached (half of them the
/// mirror images the engine skips).
pub struct ByRank {
    rules: &'static Dobutsu,
    /// Binomial coefficients up to 10, and colex ranks.
    colex: Colex,
    /// For each group `9 · b_giraffes + 3 · b_elephants + b_chicks`: its
    /// first rank within a lion placement and its number of ranks.
    groups: [(u64, u64); 27],
    /// Ranks of one lion placement.
    per_lions: u64,
}

/// The three kinds that change hands, in rank order.
const HAND_KINDS: [u8; 3] = [GIRAFFE, ELEPHANT, CHICK];

/// The index of a piece's kind among [`HAND_KINDS`] (a hen is a chick).
fn hand_kind(piece: u8) -> usize {
    match piece & !OPPONENT {
        GIRAFFE => 0,
        ELEPHANT => 1,
        _ => 2,
    }
}

impl Default for ByRank {
    fn default() -> Self {
        Self::new()
    }
}

impl ByRank {
    /// The rules with their rank's tables.
    pub fn new() -> Self {
        let colex = Colex::new(10);
        let mut groups = [(0u64, 0u64); 27];
        let mut offset = 0;
        for (g, group) in groups.iter_mut().enumerate() {
            let on = [g / 9, g / 3 % 3, g % 3];
            let n = on.iter().sum::<usize>();
            let size = colex.choose(10, on[0])
                * colex.choose(10 - on[0], on[1])
                * colex.choose(10 - on[0] - on[1], on[2])
                * (1 << n)
                * (1 << on[2])
                * on.iter().map(|&b| 3 - b as u64).product::<u64>();
            *group = (offset, size);
            offset += size;
        }
        Self {
            rules: Dobutsu::rules(),
            colex,
            groups,
            per_lions: offset,
        }
    }
}

impl ByRank {
    /// The squares other than the lions', in order.
    fn free_squares(lions: [usize; 2]) -> [usize; 10] {
        let mut free = [0; 10];
        let mut i = 0;
        for square in 0..12 {
            if square != lions[0] && square != lions[1] {
                free[i] = square;
                i += 1;
            }
        }
        free
    }
}

impl Rules for ByRank {
    type Position = u64;
    const UNMOVES: bool = true;
    const RANKED: bool = true;

    fn name(&self) -> String {
        "dobutsu by rank".to_string()
    }

    fn start(&self) -> u64 {
        Dobutsu::start_position()
    }

    fn moves(&self, position: &u64, children: &mut Vec<u64>) {
        self.rules
            .moves_of(*position, |_, child| children.push(child & !GOTE));
    }

    fn outcome(&self, position: &u64) -> Option<Outcome> {
        let board = Board::unpack(*position);
        let lion = board.opponent_lion()?;
        if self.rules.attacks(&board, lion) {
            Some(Outcome::Win) // the lion is taken next: won in 1
        } else if rank(lion) == 0 {
            Some(Outcome::Loss) // a try that stands
        } else {
            None
        }
    }

    fn end_depth(&self, position: &u64) -> u32 {
        let board = Board::unpack(*position);
        match board.opponent_lion() {
            Some(lion) if self.rules.attacks(&board, lion) => 1,
            _ => 0,
        }
    }

    fn symmetries(&self, position: &u64, images: &mut Vec<u64>) {
        images.push(mirrored(*position));
    }

    /// Every position with a move to `position`: the board seen from the
    /// side that moved, then a drop taken back, or a step taken back
    /// (undoing a promotion, giving back a capture from the hand).
    fn unmoves(&self, position: &u64, parents: &mut Vec<u64>) {
        let after = Board::unpack(*position).turned();
        for to in 0..12 {
            let piece = after.squares[to];
            if piece == 0 || piece & OPPONENT != 0 {
                continue;
            }
            if piece != LION && piece != HEN {
                let mut before = after;
                before.squares[to] = 0;
                before.hands[0][hand_kind(piece)] += 1;
                parents.push(before.pack() & !GOTE);
            }
            let movers: &[u8] = match piece {
                HEN if rank(to) == 3 => &[HEN, CHICK],
                CHICK if rank(to) == 3 => &[], // a chick steps there only to be a hen
                _ => std::slice::from_ref(&after.squares[to]),
            };
            for &mover in movers {
                for from in 0..12 {
                    if after.squares[from] != 0
                        || !self.rules.targets[mover as usize][from].contains(&(to as u8))
                    {
                        continue;
                    }
                    let mut before = after;
                    before.squares[from] = mover;
                    before.squares[to] = 0;
                    parents.push(before.pack() & !GOTE);
                    for (kind, piece_kind) in HAND_KINDS.iter().enumerate() {
                        if before.hands[0][kind] == 0 {
                            continue;
                        }
                        let mut took = before;
                        took.hands[0][kind] -= 1;
                        let pieces: &[u8] = if *piece_kind == CHICK {
                            &[CHICK, HEN]
                        } else {
                            std::slice::from_ref(piece_kind)
                        };
                        for &taken in pieces {
                            took.squares[to] = OPPONENT | taken;
                            parents.push(took.pack() & !GOTE);
                        }
                    }
                }
            }
        }
    }

    fn ranks(&self) -> u64 {
        132 * self.per_lions
    }

    fn rank(&self, position: &u64) -> u64 {
        let board = Board::unpack(*position);
        let mine = board.squares.iter().position(|&p| p == LION);
        let theirs = board.opponent_lion();
        let (Some(mine), Some(theirs)) = (mine, theirs) else {
            return self.ranks(); // no position of this numbering
        };
        let placement = (mine * 11 + theirs - usize::from(theirs > mine)) as u64;
        let free = Self::free_squares([mine, theirs]);
        let (mut sets, mut owners, mut hens) = ([0u64; 3], 0u64, 0u64);
        let (mut pieces, mut chicks) = (0, 0);
        for (i, &square) in free.iter().enumerate() {
            let piece = board.squares[square];
            if piece == 0 {
                continue;
            }
            let kind = hand_kind(piece);
            sets[kind] |= 1 << i;
            owners |= u64::from(piece & OPPONENT != 0) << pieces;
            pieces += 1;
            if kind == 2 {
                hens |= u64::from(piece & !OPPONENT == HEN) << chicks;
                chicks += 1;
            }
        }
        let on = sets.map(|set| set.count_ones() as usize);
        let (offset, _) = self.groups[9 * on[0] + 3 * on[1] + on[2]];
        let elephants = among_free(sets[1], sets[0]);
        let chicks_free = among_free(sets[2], sets[0] | sets[1]);
        let colex = &self.colex;
        let mut within = colex.rank(sets[0]);
        within = within * colex.choose(10 - on[0], on[1]) + colex.rank(elephants);
        within = within * colex.choose(10 - on[0] - on[1], on[2]) + colex.rank(chicks_free);
        within = (within << pieces | owners) << chicks | hens;
        for (&on_board, &in_hand) in on.iter().zip(&board.hands[0]) {
            within = within * (3 - on_board as u64) + u64::from(in_hand);
        }
        placement * self.per_lions + offset + within
    }

    fn unrank(&self, rank: u64) -> Option<u64> {
        if rank >= self.ranks() {
            return None;
        }
        let (placement, mut within) = (rank / self.per_lions, rank % self.per_lions);
        let mine = (placement / 11) as usize;
        let theirs = (placement % 11) as usize;
        let theirs = theirs + usize::from(theirs >= mine);
        let group = self
            .groups
            .iter()
            .position(|&(offset, size)| within >= offset && within < offset + size)?;
        within -= self.groups[group].0;
        let on = [group / 9, group / 3 % 3, group % 3];
        let mut hands = [[0u8; 3]; 2];
        for kind in (0..3).rev() {
            let ways = 3 - on[kind] as u64;
            hands[0][kind] = (within % ways) as u8;
            hands[1][kind] = (2 - on[kind]) as u8 - hands[0][kind];
            within /= ways;
        }
        let pieces = on.iter().sum::<usize>();
        let hens = within & ((1 << on[2]) - 1);
        within >>= on[2];
        let owners = within & ((1 << pieces) - 1);
        within >>= pieces;
        let colex = &self.colex;
        let chick_ways = colex.choose(10 - on[0] - on[1], on[2]);
        let elephant_ways = colex.choose(10 - on[0], on[1]);
        let chicks_free = colex.unrank(within % chick_ways, on[2], 10 - on[0] - on[1]);
        within /= chick_ways;
        let elephants = colex.unrank(within % elephant_ways, on[1], 10 - on[0]);
        let giraffes = colex.unrank(within / elephant_ways, on[0], 10);
        let elephants = from_free(elephants, giraffes);
        let chicks = from_free(chicks_free, giraffes | elephants);
        let mut squares = [0u8; 12];
        squares[mine] = LION;
        squares[theirs] = OPPONENT | LION;
        let (mut piece_index, mut chick_index) = (0, 0);
        for (i, &square) in Self::free_squares([mine, theirs]).iter().enumerate() {
            let kind = if giraffes >> i & 1 == 1 {
                GIRAFFE
            } else if elephants >> i & 1 == 1 {
                ELEPHANT
            } else if chicks >> i & 1 == 1 {
                let hen = hens >> chick_index & 1 == 1;
                chick_index += 1;
                if hen {
                    HEN
                } else {
                    CHICK
                }
            } else {
                continue;
            };
            let owner = if owners >> piece_index & 1 == 1 {
                OPPONENT
            } else {
                0
            };
            piece_index += 1;
            squares[square] = owner | kind;
        }
        Some(
            Board {
                squares,
                hands,
                gote: false,
            }
            .pack(),
        )
    }

    fn move_name(&self, from: &u64, index: usize, to: &u64) -> String {
        self.rules.move_name(from, index, to)
    }

    fn render(&self, position: &u64) -> String {
        self.rules.render(position)
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
    /// Solve [`ByRank`] instead (its figures only).
    rank: bool,
}

const USAGE: &str =
    "usage: dobutsu [--out FILE | --table FILE] [--moves \"c1c2 b3b2 …\"] | dobutsu --rank";

fn parse_args() -> Result<Args, String> {
    let mut args = Args::default();
    let mut words = std::env::args().skip(1);
    while let Some(word) = words.next() {
        let mut value = || words.next().ok_or(format!("{word} needs a value; {USAGE}"));
        match word.as_str() {
            "--moves" => args.moves = Some(value()?),
            "--out" => args.out = Some(value()?.into()),
            "--table" => args.table = Some(value()?.into()),
            "--rank" => args.rank = true,
            _ => return Err(format!("unknown argument {word}; {USAGE}")),
        }
    }
    if args.rank && (args.out.is_some() || args.table.is_some() || args.moves.is_some()) {
        return Err(format!(
            "--rank solves and prints the figures, alone; {USAGE}"
        ));
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
    if args.rank {
        let rules = ByRank::new();
        let budget = retrograde::host::Budget::default_for_machine();
        let clock = std::time::Instant::now();
        let solution = retrograde::own::solve_within(&rules, &budget, &Stages(clock))?;
        return print_figures(&rules, &solution, clock);
    }
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
    print_figures(rules, &solution, clock)?;
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

/// Prints the solve's totals, the published figures and the start's value.
fn print_figures<R: Rules<Position = u64>>(
    rules: &R,
    solution: &retrograde::own::Solution<u64>,
    clock: std::time::Instant,
) -> Result<(), Box<dyn std::error::Error>> {
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
    let figures = PublishedFigures::of(solution, rules);
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
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rank_round_trips_and_the_unmoves_undo_the_moves() {
        let by_rank = ByRank::new();
        assert_eq!(by_rank.ranks(), 1_567_925_964);
        // ranks, unranks and unmoves of the first 200,000 positions
        let report = retrograde::own::check_contract(&by_rank, 200_000).unwrap();
        assert_eq!(report.positions, 200_000);
        assert!(report.unmoves > 1_000_000, "{report:?}");
        // every group's first and last rank unrank to positions that rank back
        for &(offset, size) in &by_rank.groups {
            for rank in [offset, offset + size - 1, 131 * by_rank.per_lions + offset] {
                let position = by_rank.unrank(rank).unwrap();
                assert_eq!(by_rank.rank(&position), rank);
            }
        }
    }

    #[test]
    fn by_rank_a_lion_in_reach_is_won_in_one() {
        let by_rank = ByRank::new();
        let facing = position(&[(1, LION), (2, GIRAFFE), (4, OPPONENT | LION)]);
        assert_eq!(by_rank.outcome(&facing), Some(Outcome::Win));
        assert_eq!(by_rank.end_depth(&facing), 1);
        let tried = position(&[(8, LION), (0, OPPONENT | LION)]);
        assert_eq!(by_rank.outcome(&tried), Some(Outcome::Loss));
        assert_eq!(by_rank.end_depth(&tried), 0);
    }

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
        let figures = PublishedFigures::of(&solution, rules);
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
