//! Your own game: a small rules trait ([`Rules`]) and a generic engine
//! that enumerates every reachable position, solves it with the same
//! parallel retrograde pass as the built-in games, and answers positions.
//!
//! The engine's stages, each a module of its own:
//!
//! 1. [`enumerate`]: every position reachable from the start, breadth
//!    first, in parallel, into a sharded concurrent set; positions that end
//!    the game are kept but not expanded.
//! 2. [`index`]: the positions sorted, so a position's rank in the sorted
//!    array is its dense state index, found through a hash table of ranks.
//! 3. [`graph`]: what the retrograde pass needs on that index — each
//!    state's end (if any), its number of distinct moves, and its
//!    predecessors, either from the game's unmoves or from a compact
//!    reverse graph (CSR) built from the moves.
//! 4. [`solve`]: the pass itself is the engine every ranked game uses
//!    ([`crate::tables::retrograde`]), bit-identical at every thread count.
//!
//! Rules that number their positions densely ([`Rules::RANKED`]) skip
//! stages 1 and 2: [`enumerate::reach_ranks`] marks the ranks reached a
//! bit each, and every rank is a state ([`numbering`]).
//!
//! Rules with a monotone tier ([`Rules::TIERED`]) are solved a tier at a
//! time ([`tiers`]): the same stages on one tier, the tiers above it read
//! from disk, their values handed to the pass as seeds.
//!
//! A solved game is a [`solve::Solution`]: its states (sorted keys, or
//! ranks with those reached marked), values and depths, the counts of
//! positions by the ply at which they are first reached.

pub mod certify;
pub mod colex;
pub mod contract;
pub mod enumerate;
pub mod explicit;
pub mod file;
pub mod graph;
pub mod index;
pub mod key;
pub mod numbering;
pub mod solve;
pub mod tiers;

pub use key::Key;

use crate::game::Outcome;

/// The rules of a two-player game, as the generic engine reads them.
///
/// Positions are seen from the player to move: a position's
/// [`outcome`](Rules::outcome) is its value for the player to move, and a
/// move hands the position to the other player. A position must therefore
/// carry whatever tells whose turn it is (or be written from the mover's
/// side, as Dōbutsu shōgi's rules here turn the board after each move).
///
/// Methods are REQUIRED or OPTIONAL, as in GamesmanOne's game API; each
/// optional one says what the engine does without it.
///
/// Contract (checked on samples by [`contract::check`]):
/// * `moves` of a position that `outcome` ends are never asked;
/// * a position with no moves whose `outcome` is `None` is lost by the
///   player to move (the normal-play rule);
/// * positions that can repeat are draws unless the rules end them, and the
///   depth of a decided position is the winner's fastest, the loser's
///   slowest end;
/// * with [`symmetries`](Rules::symmetries), every image of a position has
///   the same value, and the images of an image are the same set;
/// * with [`UNMOVES`](Rules::UNMOVES), `unmoves(p)` yields every position
///   that has a move to `p` (one that is not reachable may be yielded too:
///   the engine drops it);
/// * with [`TIERED`](Rules::TIERED), no move lowers the tier and symmetric
///   positions share it;
/// * with [`RANKED`](Rules::RANKED), `unrank(rank(p)) == Some(p)` for every
///   canonical position `p`, and `rank(p) < ranks()`.
pub trait Rules: Sync {
    /// A position, packed into a fixed-width, ordered key (see [`Key`]):
    /// the engine stores nothing else per position. A `u64` or `u128`
    /// holding a packed board is the usual choice.
    type Position: Key;

    /// REQUIRED. The position the game starts from.
    fn start(&self) -> Self::Position;

    /// REQUIRED. Pushes every position one move from `position` (a
    /// position the game does not end) onto `children`, which the caller
    /// cleared. A child listed twice is one move (the engine counts
    /// distinct children).
    fn moves(&self, position: &Self::Position, children: &mut Vec<Self::Position>);

    /// REQUIRED. `Some(value)` for the player to move if the game is over at
    /// `position` (won, lost, or drawn by rule), `None` if play goes on.
    fn outcome(&self, position: &Self::Position) -> Option<Outcome>;

    /// OPTIONAL. At a position [`outcome`](Rules::outcome) ends, its
    /// depth: the plies to the end under perfect play, at most
    /// `MAX_END_DEPTH` (31). Rules may end a position a move early: one whose
    /// mover wins with a move that is then the only sensible one (Dōbutsu
    /// shōgi's lion capture) may be a win at depth 1, with no position
    /// after it to store. Fallback: 0, the game is over there.
    fn end_depth(&self, _position: &Self::Position) -> u32 {
        0
    }

    /// OPTIONAL. A name for files, messages and the JSON answers.
    /// Fallback: the Rust type's name.
    fn name(&self) -> String {
        std::any::type_name::<Self>().to_string()
    }

    /// OPTIONAL. Pushes the other images of `position` under the game's
    /// symmetries (mirrors, rotations, colour swaps) onto `images`. The
    /// engine keeps one position of each class, the least key (the
    /// canonical form), so a game with `s` symmetries needs about `1/s` of
    /// the memory and time. Fallback: no symmetry, every position its own.
    fn symmetries(&self, _position: &Self::Position, _images: &mut Vec<Self::Position>) {}

    /// OPTIONAL, with [`unmoves`](Rules::unmoves): whether the rules give
    /// unmoves. With them the engine needs no reverse graph (it saves four
    /// bytes per move and a pass over the moves). Fallback (`false`): a
    /// compact reverse graph built from the moves.
    const UNMOVES: bool = false;

    /// OPTIONAL (when [`UNMOVES`](Rules::UNMOVES) is `true`). Pushes every
    /// position that has a move to `position` onto `parents`. Fallback:
    /// never called.
    fn unmoves(&self, _position: &Self::Position, _parents: &mut Vec<Self::Position>) {}

    /// OPTIONAL, with [`tier`](Rules::tier): whether the rules give a
    /// monotone tier. With one the engine solves tier by tier
    /// (the module `tiers`): it enumerates the tiers from the start's up, solves them
    /// from the highest down, and keeps each finished tier on disk, so the
    /// solve holds one tier's graph at a time instead of the whole game's.
    /// Fallback (`false`): one tier, the whole game in memory at once.
    const TIERED: bool = false;

    /// OPTIONAL (when [`TIERED`](Rules::TIERED) is `true`). The tier of
    /// `position`: no move lowers it (stones on the board, pieces taken),
    /// and every image of a position under the symmetries has its tier.
    /// Fallback: never called.
    fn tier(&self, _position: &Self::Position) -> u32 {
        0
    }

    /// OPTIONAL, with [`ranks`](Rules::ranks), [`rank`](Rules::rank) and
    /// [`unrank`](Rules::unrank): whether the rules number their positions
    /// densely. With a rank the engine keeps no keys and no hash table: the
    /// positions reached are a bit a rank, found by arithmetic, and the
    /// retrograde pass runs over every rank (those no position has, and
    /// those the start does not reach, cost their bytes, a few a rank, but
    /// the rules are not asked about them). It pays when the ranks are few beside the positions — a
    /// tight rank with unmoves is the fastest way through the engine.
    /// Fallback (`false`): sorted keys and a hash table of their ranks.
    const RANKED: bool = false;

    /// OPTIONAL (when [`RANKED`](Rules::RANKED) is `true`). How many ranks
    /// there are: every canonical position's rank is below this, which is
    /// below [`index::MAX_POSITIONS`]. Fallback: never called.
    fn ranks(&self) -> u64 {
        0
    }

    /// OPTIONAL (when [`RANKED`](Rules::RANKED) is `true`). The rank of a
    /// canonical `position`: distinct positions have distinct ranks.
    /// Fallback: never called.
    fn rank(&self, _position: &Self::Position) -> u64 {
        0
    }

    /// OPTIONAL (when [`RANKED`](Rules::RANKED) is `true`). The position
    /// whose rank is `rank`, `None` if there is none; the engine takes a
    /// rank for a state only if its position is canonical. Fallback: never
    /// called.
    fn unrank(&self, _rank: u64) -> Option<Self::Position> {
        None
    }

    /// OPTIONAL. The name of the move from `from` to `to`, where `to` is
    /// the `index`-th child `moves` gave (counted from 0), as `query` and
    /// `play` read and print it. Fallback: the child's number, from 1.
    fn move_name(&self, _from: &Self::Position, index: usize, _to: &Self::Position) -> String {
        (index + 1).to_string()
    }

    /// OPTIONAL. A picture of `position` for people (a board in text).
    /// Fallback: the key in hexadecimal.
    fn render(&self, position: &Self::Position) -> String {
        position.to_hex()
    }
}

/// Largest depth [`Rules::end_depth`] may give.
pub const MAX_END_DEPTH: u32 = 31;

/// The canonical form of `position`: the least key among it and its
/// images under [`Rules::symmetries`]. `images` is scratch space.
pub fn canonical<R: Rules + ?Sized>(
    rules: &R,
    position: R::Position,
    images: &mut Vec<R::Position>,
) -> R::Position {
    images.clear();
    rules.symmetries(&position, images);
    images.iter().copied().fold(position, Ord::min)
}
