//! A prover of wins on m,n,k boards of up to 256 cells (gomoku's 15 × 15
//! with k = 5 among them): depth-first proof-number search (df-pn; Nagai
//! 2002) whose attacker moves are chosen by threats and whose defender
//! moves are cut by *covers*, runs of fours replayed exactly
//! ([`fours`]). It is the method of Allis, van den Herik & Huntjens
//! ("Go-Moku solved by new search techniques", 1993/1996: threat-space
//! search and proof-number search), written here with every pruning step
//! exact, so that a proof is one of the game and comes with a certificate
//! a checker of the rules alone can replay.
//!
//! * **Nodes**: a position; the side to move follows from the stones (X
//!   moves first). The *attacker* (X or O) is fixed: OR nodes have it to
//!   move, AND nodes the *defender*.
//! * **OR expansion** (attacker to move): a completion cell wins; a full
//!   board, or two defender completion cells, is not a win; one defender
//!   completion cell must be taken (the only move); a winning run of fours
//!   found by [`fours::find_vcf`] wins (a *vcf* leaf); with
//!   [`Settings::vct`], a win by continuous threats with threes as well
//!   ([`space`]) wins too (a *vct* leaf; searched when the df-pn first
//!   enters the turn, not when it counts it as a child). Otherwise the
//!   candidate moves are every empty cell ([`Settings::attacker_moves`]
//!   `None`) or the best-scored few (a score of the windows through the
//!   cell, attack above defence). Leaving attacker moves out can only fail
//!   to prove a win, never prove a false one: a proof needs one good
//!   attacker move, and every defender reply below it.
//! * **AND expansion** (defender to move): a defender completion cell, or
//!   a full board, is not a win; two attacker completion cells win; one
//!   must be taken; with [`Settings::defender_runs`], a winning run of
//!   fours of the defender's own is not a win either. Otherwise the runs
//!   found after a null move ([`fours::defence`]) cover every defender
//!   move whose replay still wins, and only the moves left are searched;
//!   with no run found, every
//!   empty cell is. With [`Settings::zone_moves`] or more moves left, the
//!   position after a defender pass is proved first (not a win even then:
//!   not a win at all, since an extra stone never hurts its owner) and
//!   only the moves inside the *zone* of that proof are searched: each
//!   move outside it is answered by the same proof ([`relevance`], with the
//!   lemma). No move is dropped on anything but a replayed win or a zone,
//!   so the AND side is exact.
//! * **Numbers**: OR: proof = least of the children's, disproof = sum; AND
//!   the other way round; a new node starts at (1, moves) at OR and
//!   (moves, 1) at AND. The child searched gets the parent's threshold,
//!   cut to the second-best child's number plus a quarter (the "1 + ε"
//!   trick). A *disproof* means "no win among the moves tried": exact
//!   only with every attacker move tried. **Saturation**: a sum of an
//!   unsettled node's children stops at `INFINITE − 1`, never `INFINITE`
//!   (which only a settled node has on its other side), and the root and
//!   every child's thresholds go up to `INFINITE`: so no unsettled node is
//!   ever at or past a threshold it was just given. (Uncapped, sums of
//!   deep gomoku trees reach `INFINITE` unsettled, and the root, searched
//!   with thresholds `INFINITE − 1`, returns at once forever.)
//! * **Symmetry**: positions share a table entry with their images under
//!   the board's symmetries ([`board::Board::key`]), and each expansion is
//!   worked out on the position's canonical image and mapped to the
//!   orientation asked for, so every orientation sees the same moves and
//!   covers, also when an expansion is worked out again after the cache
//!   was cleared (otherwise the certificate's walk, which follows one
//!   orientation, could meet a reply proved only in another).
//! * **Table** ([`table`]): numbers and work (positions searched below)
//!   by key of the positions searched and settled, in a flat array that
//!   grows up to its share of the memory; at its largest, a new key with
//!   no empty slot near its home replaces the entry of least work not
//!   proved there (works are halved as new keys crowd it, so that
//!   entries the search has left make room); a table 15/16 full with
//!   none near the home gives up the proved entry of least work there,
//!   which the search proves again if it meets it, and the certificate's
//!   walk where it needs it (a position the rules prove is read from its
//!   expansion; a cut whose pass proof lost a searched piece before the
//!   cut was made searches every reply: its zone cannot be read).
//!   The numbers of children looked at but not searched (most of those
//!   read) are kept apart, unsettled only, in a cache that forgets
//!   ([`leaves`]); a child in neither is worked out from its expansion.
//!   A position's search keeps the numbers its children's searches
//!   returned (a pass's only when not proved: its cut is read from the
//!   table), and reads them for a child whose entry the table gave to
//!   another key meanwhile (two proofs near one home, each searched
//!   again with little work, could otherwise give each other up
//!   forever): re-reading the child's starting
//!   numbers instead can make the search choose it again with the same
//!   thresholds, forever.
//! * **Memory** (`--max-memory`): 24 MiB (at most a quarter) for the rest
//!   of the process; with zones, an eighth each for the zone memo and the
//!   kept cuts and moves (each counted at its own size: a cut with its
//!   lists about four times a chosen move); of what is left, six eighths
//!   for the table, an eighth for the leaves and an eighth for the cache
//!   of expansions, counted in bytes (their lists, the allocator's
//!   headers, the map) and cleared when full. An evicted expansion is
//!   computed again the same way. The cache matters little and the table
//!   much once the table is full, as in every hard gomoku class: on j10
//!   a cache of 93 MB works out 1.71 expansions a position searched
//!   against 1.69 with 3.4 GB; with 512 MiB, whose table fills, j10 is
//!   proved in 18.9 M positions with this split against 22.6 M with a
//!   table of three eighths and expansions of four, and its process
//!   peaks at 430 MB against 556 MB.
//!   A certificate is written out as it is read from the table, never
//!   held: only the set of the positions it has listed counts, against
//!   the expansions' share (the cache clears to make room), and may take
//!   three quarters of it, or the certificate is refused as too large;
//!   with the proof's positions kept for its checkpoint, their keys count
//!   too, and are dropped first when both would not fit.
//!
//! **Checkpoints** ([`checkpoint`]): the table, the zones' fixed choices
//! and the counts written to a file and read back into a fresh prover,
//! so that one proof runs across several processes.
//!
//! **Certificate** ([`ThreatProver::certificate`], docs/FORMAT.md "Threat
//! proof certificates"): from the root, at each OR node the move (`move`),
//! the winning run (`vcf`) or the whole threat-space tree (`vct`, version
//! 3, `steps.rs`); at each AND node its zone (`zone`) and
//! covers (`cover`), the entries of the proof after the pass, then the
//! entries below every defender move no cover or zone answers. A checker
//! that knows only the rules and the replay of [`fours`] checks it
//! (`tests/provers/threat_proof.rs`), playing the proof after a pass with each
//! move outside the zone on the board. An attacker turn the table holds
//! as proved by no move its expansion offers (an entry a checkpoint
//! settled under other rules: a run of fours found then and not now) is
//! proved again from open numbers ([`ThreatStats::proved_afresh`]).

pub mod board;
mod certificate;
pub mod checkpoint;
mod expansions;
pub mod fours;
pub mod leaves;
mod limits;
pub mod progress;
pub mod relevance;
mod search;
pub mod space;
mod steps;
pub mod table;

use std::io::Write;
use std::rc::Rc;
use std::time::Instant;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::board::cells::Cells;
use crate::error::{Error, Remedy, Result, Setting};
use crate::prove::proof_numbers::{capped_sum, Numbers, INFINITE};
use crate::runtime::progress::ReportLines;
use board::{Board, Geometry};
use fours::VcfLimits;
use leaves::Leaves;
use progress::{Progress, Snapshot};
use relevance::Cut;
use space::VctLimits;
use table::{fingerprint, Table};

/// The first line of a threat proof certificate.
pub const CERTIFICATE_MAGIC: &str = "# retrograde threat proof certificate 2";

/// The first line of a threat proof certificate written with the
/// threat-space search on: version 3, which may hold `vct` entries.
pub const CERTIFICATE_MAGIC_VCT: &str = "# retrograde threat proof certificate 3";

/// Bytes the cache of expansions takes for each expansion beside its
/// lists: the shared box (counts and the enum) and the allocator's header
/// and rounding of the box and each list, about (measured with
/// `mallinfo2` on gomoku positions: within 5 % of the bytes in use).
const EXPANSION_OVERHEAD: u64 = (16 + std::mem::size_of::<Expansion>() + 4 * 24) as u64;

/// Bytes of the budget left to the rest of the process (its code, stacks,
/// the runs' small sets), at most a quarter of the budget.
const PROCESS_BYTES: u64 = 24 << 20;

/// Bytes the cache's map takes for each entry it has room for: the slot
/// (key and pointer) and control byte, 8/7 for the slots kept empty,
/// times 3/2 for the old array held while it grows.
const EXPANSION_MAP_BYTES: u64 = (16 + 8 + 1) * 8 / 7 * 3 / 2;

/// Bytes a position listed in a certificate being written takes, about
/// (its key in the set of those listed, 17 bytes a slot, at the set's
/// load and while it grows).
const BYTES_PER_LISTED: u64 = 40;

/// Bytes a zone worked out takes in its memo (key, cells, overhead).
pub const BYTES_PER_ZONE: u64 = 96;

/// Bytes a kept cut takes, about: its shared box, its two move lists
/// (about 16 cells in all) with the allocator's headers, and its map
/// slot (measured with a counting allocator: 170–185 bytes before the
/// headers).
pub const BYTES_PER_CUT: u64 = 216;

/// Bytes a chosen move takes, about: its map slot (a `u128` key and a
/// `u16`, 32 bytes, and a control byte) at the map's load (measured:
/// 40–55 bytes by how full the map is). Counted apart from the cuts: at a
/// cut's size, the checkpoint of the gomoku class j8 (2.5 M cuts and
/// 5.0 M moves, taking about 830 MB) would count past the 1.2 GB an
/// eighth of 9 GiB gives.
pub const BYTES_PER_CHOSEN: u64 = 56;

/// How wide the prover searches.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Limits of each search for a run of fours.
    pub vcf: VcfLimits,
    /// The most covers an AND node looks for (each a run starting with a
    /// different move).
    pub max_covers: usize,
    /// The attacker moves tried at an OR node: every empty cell (`None`:
    /// a disproof is then exact) or the best-scored `n`.
    pub attacker_moves: Option<usize>,
    /// AND nodes with at least this many moves left after the covers
    /// prove the position after a pass first and search only the moves
    /// inside its zone (`relevance`); `None`: never.
    pub zone_moves: Option<usize>,
    /// Whether an AND node looks for a winning run of fours of the
    /// defender's own (found: not a win, without a search below it).
    /// Exact either way. Measured (positions searched, on against off):
    /// with zones off 347 k against 415 k (h8 m12 i9 k10) and 247 k
    /// against 274 k (h8 m12 i9 l11), 0 to 30% fewer on small
    /// positions; with zones of 10, 2.1 M against 461 k and 5.1 M against
    /// 556 k on those two (the search goes elsewhere), so it is off by
    /// default and the gomoku classes, run without zones, turn it on.
    pub defender_runs: bool,
    /// A horizon: an attacker turn with at least this many stones on the
    /// board and no win by a completion cell or a run of fours is not
    /// searched further (not a win among the moves tried, as with
    /// [`Settings::attacker_moves`]; `None`: no horizon). Sound, since the
    /// stone count is the position's own, not its path's. Changed between
    /// searches by [`ThreatProver::set_horizon`] (an iterative horizon).
    /// Measured with zones of 10, positions searched to the proof: h8
    /// o15 (the a1 class) 4.84 M at 30, 8.14 M at 36, 30.4 M at 44; h8
    /// k10 33.3 M at 30.
    pub max_stones: Option<u32>,
    /// Threat-space search at attacker turns (`space`): a victory by
    /// continuous threats found within these limits settles the turn (a
    /// leaf, its tree found again for the certificate and zones; `None`:
    /// never looked for). Searched when the df-pn first enters the turn,
    /// not when it is first counted as a child (most children are never
    /// entered), and at the horizon too, so that a threat sequence wins
    /// past it.
    pub vct: Option<VctLimits>,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            vcf: VcfLimits::default(),
            max_covers: 3,
            // measured on 15 × 15 positions with a win by threats: 4, 6, 8,
            // 12 and 20 moves took 2.3, 6, 9, 15 and 25 s on one of them
            // (its proof listing 11.5 k, 9.4 k, 7.3 k, 7.4 k, 7.4 k
            // positions); 6 keeps two more alternatives than the fastest
            attacker_moves: Some(6),
            zone_moves: Some(10),
            defender_runs: false,
            max_stones: None,
            vct: None,
        }
    }
}

/// A horizon in words, as reports and checkpoints write it: its stones,
/// or `none`.
pub fn horizon_name(horizon: Option<u32>) -> String {
    horizon.map_or_else(|| "none".into(), |n| n.to_string())
}

/// Whether the horizon `new` searches more positions than `old` (`None`:
/// no horizon, the widest).
pub fn wider(new: Option<u32>, old: Option<u32>) -> bool {
    match (new, old) {
        (_, None) => false,
        (None, Some(_)) => true,
        (Some(new), Some(old)) => new > old,
    }
}

/// What the rules, runs and covers say of a position, worked out on (and
/// its cells in the orientation of) the position's canonical image.
#[derive(Debug)]
enum Expansion {
    /// A win for the attacker: at an OR node by this run (empty: a
    /// completion cell now), at an AND node by two completion cells.
    Won(Vec<u16>),
    /// A win for the attacker, to move, by continuous threats starting
    /// with this move ([`space`]): its steps are found again by the same
    /// search when the certificate or a zone needs them.
    Threats(u16),
    /// An attacker turn whose threat-space search ([`Settings::vct`]) is
    /// still to run: it runs when the search first enters the position
    /// (most positions are only counted as a parent's children and never
    /// entered), and the position's expansion is then [`Self::Threats`]
    /// or, with no win found, the one held here (its moves, or
    /// [`Self::Lost`] at the horizon: shared, not copied). Only [`ThreatProver::numbers_of`] sees
    /// it: every other reader gets the expansion resolved.
    Untried(Rc<Expansion>),
    /// Not a win for the attacker (a defender line, a full board, two
    /// defender completion cells at the attacker's turn).
    Lost,
    /// The moves to search. At an AND node, `covers` answer every other
    /// move and `all` lists every move left; `moves` is `all` with one
    /// move kept among those giving symmetric positions. No moves left at
    /// an AND node is a win. With `pass` (AND nodes only) the position
    /// after a pass is proved first and the moves are cut to its zone
    /// ([`relevance`]).
    Moves {
        moves: Vec<u16>,
        all: Vec<u16>,
        covers: Vec<Vec<u16>>,
        pass: bool,
        /// The keys of the positions after each of `moves`, worked out the
        /// first time the position is searched (keys are the same in every
        /// orientation): a wide node searched again and again re-read
        /// them at every visit, the most of a long run's time.
        child_keys: std::cell::OnceCell<Box<[u128]>>,
    },
}

impl Expansion {
    /// Bytes of its lists on the heap (their capacities).
    fn heap_bytes(&self) -> u64 {
        let list = |v: &Vec<u16>| (v.capacity() * 2) as u64;
        match self {
            Expansion::Won(run) => list(run),
            Expansion::Threats(_) | Expansion::Lost => 0,
            Expansion::Untried(then) => 16 + then.heap_bytes(),
            Expansion::Moves {
                moves,
                all,
                covers,
                child_keys,
                ..
            } => {
                list(moves)
                    + list(all)
                    + child_keys.get().map_or(0, |k| (k.len() * 16) as u64)
                    + (covers.capacity() * std::mem::size_of::<Vec<u16>>()) as u64
                    + covers.iter().map(|c| list(c) + 16).sum::<u64>()
            }
        }
    }
}

/// The prover's verdict on a position: the df-pn verdict of the win
/// prover too. `NoWin` is "with the moves tried": exact when
/// [`Settings::attacker_moves`] is `None`.
pub use crate::prove::proof_numbers::Verdict;

/// What a run of the prover did.
#[derive(Clone, Copy, Debug, Default)]
pub struct ThreatStats {
    /// Positions searched (calls of the df-pn step).
    pub visits: u64,
    /// Expansions computed (runs of fours searched, covers replayed).
    pub expansions: u64,
    /// Table entries held at the end.
    pub entries: usize,
    /// AND nodes cut to the zone of their pass's proof, and the defender
    /// moves those cuts answered by it.
    pub cuts: u64,
    pub moves_cut: u64,
    /// Attacker turns the certificate found proved in the table by no
    /// move their expansion offers (entries settled under other rules),
    /// and proved again.
    pub proved_afresh: u64,
    /// Positions of the proof the certificate's walk found missing from
    /// the table (proofs a full table gave up), and proved again.
    pub proved_again: u64,
    /// Cuts the certificate's walk found narrower than the zone of their
    /// pass proof as it stands (merged from another proof), and made
    /// again ([`relevance`]).
    pub cuts_remade: u64,
    /// Cuts of positions the table no longer held, forgotten when the
    /// zones' memory was full ([`relevance`]).
    pub cuts_forgotten: u64,
    /// Attacker turns where threat-space search found a win by continuous
    /// threats ([`space`]), counted at each expansion.
    pub vct_found: u64,
    /// Threat-space searches run.
    pub vct_searches: u64,
    /// The positions the threat-space searches visited.
    pub vct_nodes: u64,
}

/// The prover for one board and one attacker (module docs).
pub struct ThreatProver<'g> {
    geometry: &'g Geometry,
    attacker: usize,
    settings: Settings,
    table: Table,
    /// The numbers of children looked at but not searched ([`leaves`]).
    leaves: Leaves,
    expansions: FxHashMap<u128, Rc<Expansion>>,
    /// The attacker's move at proved OR nodes, by key, in the canonical
    /// image's orientation; fixed once asked ([`relevance`]).
    chosen: FxHashMap<u128, u16>,
    /// The cuts of AND nodes whose pass is proved, by key; kept.
    cuts: FxHashMap<u128, Rc<Cut>>,
    /// Zones worked out, by key and extra stones (canonical orientation).
    zone_memo: FxHashMap<(u128, u32), Cells>,
    /// On while the certificate is walked: each cut kept is checked
    /// against the zone of its pass proof ([`relevance`]).
    checking_cuts: bool,
    /// With `keeping_proof_keys` ([`Self::keep_proof_positions`]): the
    /// keys of the positions the last certificate written lists (all of
    /// its walk), empty if none was or its walk failed: what a
    /// checkpoint of the proof alone keeps
    /// ([`Self::save_proof_checkpoint`]). They take their bytes from the
    /// walk's share, beside the positions listed.
    proof_keys: FxHashSet<u128>,
    keeping_proof_keys: bool,
    /// The board an expansion is worked out on (the canonical image of
    /// the position), kept to be overwritten by the next.
    image: Option<Board<'g>>,
    /// Bytes the expansions cached may take, and take now (about: their
    /// lists and [`EXPANSION_OVERHEAD`] each); the cache is cleared when
    /// full.
    expansion_budget: u64,
    expansion_bytes: u64,
    /// Bytes the positions a certificate being written has listed take
    /// (its set of keys; they count against the expansions' budget), 0
    /// outside [`Self::write_certificate`].
    walk_bytes: u64,
    max_zones: usize,
    /// The most bytes the cuts and chosen moves kept may take
    /// ([`Self::kept_bytes`]; they cannot be dropped: the zones and the
    /// certificate read them).
    max_kept_bytes: u64,
    deadline: Option<Instant>,
    max_visits: u64,
    stopped: Option<String>,
    stats: ThreatStats,
    /// Counts for the progress report, and where its lines go
    /// ([`progress`]).
    progress: Progress,
}

impl<'g> ThreatProver<'g> {
    /// A prover of `attacker`'s wins (0 = X, 1 = O) on `geometry` that
    /// keeps its table and expansion cache within `memory` bytes and gives
    /// up at `deadline`.
    pub fn new(
        geometry: &'g Geometry,
        attacker: usize,
        settings: Settings,
        memory: u64,
        deadline: Option<Instant>,
    ) -> Self {
        // with zones, the zone memo and the kept cuts and moves an eighth
        // each; the rest split below
        let zones = if settings.zone_moves.is_some() {
            memory / 4
        } else {
            0
        };
        let max_zones = (memory / 8 / BYTES_PER_ZONE).clamp(1 << 10, 1 << 32) as usize;
        let max_kept_bytes = (memory / 8).max(BYTES_PER_CUT << 10);
        let main = memory - zones - PROCESS_BYTES.min(memory / 4);
        // six eighths for the positions searched and settled, an eighth
        // for the leaves' numbers, an eighth for the expansions (module
        // docs, "Memory")
        let table = Table::within(main / 8 * 6);
        let leaves = Leaves::within(main / 8);
        let expansion_budget = main - main / 8 * 7;
        Self {
            geometry,
            attacker,
            settings,
            table,
            leaves,
            expansions: FxHashMap::default(),
            chosen: FxHashMap::default(),
            cuts: FxHashMap::default(),
            zone_memo: FxHashMap::default(),
            checking_cuts: false,
            proof_keys: FxHashSet::default(),
            keeping_proof_keys: false,
            image: None,
            expansion_budget,
            expansion_bytes: 0,
            walk_bytes: 0,
            max_zones,
            max_kept_bytes,
            deadline,
            max_visits: u64::MAX,
            stopped: None,
            stats: ThreatStats::default(),
            progress: Progress::default(),
        }
    }

    /// The horizon the prover searches under ([`Settings::max_stones`]).
    pub fn horizon(&self) -> Option<u32> {
        self.settings.max_stones
    }

    /// Moves the horizon to `max_stones` for the next [`Self::prove`] (an
    /// iterative horizon's next step), keeping what still holds: every
    /// proof (a win is a win under any horizon) and, when the horizon is
    /// not wider, every disproof (a narrower one tries fewer moves).
    /// Under a wider horizon the disproved entries go: a position
    /// disproved at the old horizon may be a win with more stones. The
    /// expansions cached go too (the horizon settles positions there).
    /// A narrower horizon keeps proofs by quiet moves past it that a
    /// certificate cannot read back: narrow only a table without them
    /// (a fresh one).
    /// Returns the disproved entries removed.
    pub fn set_horizon(&mut self, max_stones: Option<u32>) -> usize {
        let removed = if wider(max_stones, self.settings.max_stones) {
            self.table.forget_disproved()
        } else {
            0
        };
        self.settings.max_stones = max_stones;
        self.clear_expansions();
        removed
    }

    /// Gives the next [`Self::prove`] a new deadline (the table is kept,
    /// so a proof stopped by the clock resumes where it stopped).
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Hands a line of counts to `lines` every `every` while it searches
    /// (`progress`).
    pub fn report_every(&mut self, every: std::time::Duration, lines: ReportLines) {
        let now = self.snapshot();
        self.progress.report_every(every, now, lines);
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            visits: self.stats.visits,
            expansions: self.stats.expansions,
            entries: self.table.len(),
            slots: self.table.slots(),
            table: self.table.counts(),
            at_once: self.progress.at_once,
            root: self.table.get(self.progress.root),
        }
    }

    /// Stops the search after `visits` positions.
    pub fn limit_visits(&mut self, visits: u64) {
        self.max_visits = visits;
    }

    /// How wide it searches.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// What the prover did so far.
    pub fn stats(&self) -> ThreatStats {
        ThreatStats {
            entries: self.table.len(),
            ..self.stats
        }
    }

    /// Why the last [`Self::prove`] stopped before settling, if it did.
    pub fn stopped(&self) -> Option<&str> {
        self.stopped.as_deref()
    }

    /// Whether the attacker wins from `board` (left as it was).
    pub fn prove(&mut self, board: &mut Board) -> Verdict {
        self.stopped = None;
        self.progress.root = board.key();
        let mut numbers = self.numbers_of(board);
        while !numbers.settled() && self.stopped.is_none() {
            numbers = self.search(board, INFINITE, INFINITE);
        }
        match numbers {
            n if n.proof == 0 => Verdict::Win,
            n if n.disproof == 0 => Verdict::NoWin,
            _ => Verdict::Open,
        }
    }

    /// The moves the search tries at `board` now, each with the numbers
    /// held for the position after it (`None`: not searched, or its
    /// entry given to another key): at an AND node that passes first, the
    /// pass (`None` as the move), then, once it is proved, the moves of
    /// its cut. How far a proof stopped on a limit got, move by move.
    pub fn moves_searched(&mut self, board: &Board) -> Vec<(Option<u32>, Option<Numbers>)> {
        let (expansion, t) = self.expansion(board);
        let mut moves = self.children(board, &expansion, t);
        if matches!(&*expansion, Expansion::Moves { pass: true, .. }) && moves != [PASS] {
            moves.insert(0, PASS);
        }
        let keys = Self::keys_after(board, &moves, board.to_move());
        moves
            .iter()
            .zip(keys)
            .map(|(&cell, key)| ((cell != PASS).then_some(cell), self.known(key)))
            .collect()
    }

    /// The attacker's winning move at `board` (left as it was), the
    /// attacker to move there, once [`Self::prove`] proved it: the cell
    /// completing a line, the first of a winning run of fours, or the
    /// move the proof chose. `None` where `board` is not a proved
    /// position with the attacker to move.
    pub fn winning_move(&mut self, board: &Board) -> Option<u32> {
        if !self.attacker_to_move(board) || !self.is_proved(board) {
            return None;
        }
        let (expansion, t) = self.expansion(board);
        match &*expansion {
            Expansion::Won(run) if run.is_empty() => board.completions(self.attacker).first(),
            Expansion::Won(run) => Some(u32::from(self.geometry.inverses[t][run[0] as usize])),
            Expansion::Threats(cell) => Some(u32::from(self.geometry.inverses[t][*cell as usize])),
            Expansion::Moves { .. } => self.chosen_move(board),
            // (never: `expansion` resolves it)
            Expansion::Lost | Expansion::Untried(_) => None,
        }
    }

    /// Whether `board` is proved: so in the table, or missing there and
    /// proved by the rules at its expansion (a full table may give up
    /// proofs: [`table`], "Replacement").
    fn is_proved(&mut self, board: &Board) -> bool {
        match self.table.get(board.key()) {
            Some(n) => n.proof == 0,
            None => {
                let (expansion, _) = self.expansion(board);
                self.starting_numbers(board, &expansion) == Numbers::PROVED
            }
        }
    }

    fn attacker_to_move(&self, board: &Board) -> bool {
        board.to_move() == self.attacker
    }
}

/// A certificate's write that failed, as this crate's error (the caller
/// knows the file).
fn written(cause: std::io::Error) -> Error {
    Error::Io {
        path: "the certificate".into(),
        cause,
    }
}

/// The start of the error of a certificate's walk that made cuts again
/// (`relevance`): the certificate written is not to be kept, and a walk
/// again reads the cuts as they now are.
pub const CUTS_REMADE: &str =
    "its certificate's walk found cuts narrower than their pass proofs' zones and made them again";

/// Why a search stopped at its deadline ([`ThreatProver::stopped`]).
const TIME_LIMIT: &str = "the time limit";

/// The "move" of a defender's pass in a list of moves.
const PASS: u32 = u32::MAX;

/// Plays `cell` (or passes) for `mover`.
fn step(board: &mut Board, cell: u32, mover: usize) {
    match cell {
        PASS => board.pass(),
        cell => board.play(cell, mover),
    }
}

/// Takes back [`step`].
fn step_back(board: &mut Board, cell: u32, mover: usize) {
    match cell {
        PASS => board.pass(),
        cell => board.undo(cell, mover),
    }
}

/// The `n` empty cells with the best score for `colour` (windows through
/// the cell: 4ˢ for a window holding `s` of its stones and none of the
/// other's, 3ˢ for one holding `s` of the other's and none of its own),
/// best first, ties by cell.
fn best_scored(board: &Board, colour: usize, n: usize) -> Vec<u32> {
    let g = board.geometry;
    let k = g.k as usize;
    // a window without stones gives each of its cells 1 (4⁰): start from
    // the count of windows through each cell, then add each window with
    // stones' share less that 1 (read from the windows' counts, each once);
    // wrapping sums are the exact ones on every board where they fit,
    // and a heuristic score anyway
    let mut score = g.windows_through;
    board.for_each_window_with_stones(|w, counts| {
        let share = match (counts[colour], counts[1 - colour]) {
            (m, 0) => 4u64.saturating_pow(u32::from(m)),
            (0, t) => 3u64.saturating_pow(u32::from(t)),
            _ => 0,
        };
        let extra = share.wrapping_sub(1);
        for &c in &g.window_cells[w * k..][..k] {
            score[usize::from(c)] = score[usize::from(c)].wrapping_add(extra);
        }
    });
    // the first n of the order (highest score, then lowest cell; pairs
    // are distinct: a total order), kept sorted in one pass
    if n == 0 {
        return Vec::new();
    }
    let mut best: Vec<(u64, u32)> = Vec::with_capacity(n + 1);
    for cell in board.empties().iter() {
        let pair = (u64::MAX - score[cell as usize], cell);
        if best.len() == n && pair >= best[n - 1] {
            continue;
        }
        let at = best.partition_point(|b| *b < pair);
        best.insert(at, pair);
        best.truncate(n);
    }
    best.into_iter().map(|(_, c)| c).collect()
}

/// `cells` with one kept among those where a stone of `colour` gives
/// symmetric positions (the first), as cells.
fn distinct(board: &Board, colour: usize, cells: &[u32]) -> Vec<u16> {
    if !board.is_symmetric() {
        // dedup is a saving only (one search, not two, of images); most
        // images of one another come from symmetric positions, and the
        // test costs a key per symmetry and cell
        return cells.iter().map(|&c| c as u16).collect();
    }
    let mut keys = FxHashSet::default();
    cells
        .iter()
        .filter(|&&c| keys.insert(board.key_after(c, colour)))
        .map(|&c| c as u16)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSize;

    /// Numbers near saturation never stall the search: with every reply
    /// of the root (an AND node) stored at the largest unsettled numbers,
    /// the proof still goes on to the end. (Sums saturated at `INFINITE`
    /// on unsettled positions once made a node return at once from every
    /// threshold, and the root be searched again forever.)
    #[test]
    fn a_proof_goes_through_in_a_table_far_smaller_than_its_search() {
        // with room, h8 a1 i9 a2 is proved in 163,058 positions and its
        // table ends at 92,237 entries; 2 MiB hold about 41,000. Before
        // the table kept leaves apart and replaced by work with ageing,
        // the search went round its full table: 3 M positions searched
        // and no proof
        let geometry = Geometry::new(BoardSize::new(15, 15, 5)).unwrap();
        let mut board = Board::after(&geometry, "h8,a1,i9,a2").unwrap();
        let settings = Settings {
            zone_moves: None,
            ..Settings::default()
        };
        let mut prover = ThreatProver::new(&geometry, 0, settings, 2 << 20, None);
        prover.limit_visits(600_000);
        assert_eq!(
            prover.prove(&mut board),
            Verdict::Win,
            "{:?}",
            prover.stopped()
        );
        assert!(prover.stats().entries < 45_000, "{:?}", prover.stats());
    }

    #[test]
    fn the_moves_searched_at_a_cut_node_stopped_on_a_limit_are_the_pass_then_its_cut() {
        // h8 a1 i9, O to move: the pass is proved first, then the moves
        // inside its zone are searched (one of each pair the a1–o15
        // diagonal mirrors)
        let geometry = Geometry::new(BoardSize::new(15, 15, 5)).unwrap();
        let mut board = Board::after(&geometry, "h8,a1,i9").unwrap();
        let mut prover = ThreatProver::new(&geometry, 0, Settings::default(), 64 << 20, None);
        assert_eq!(prover.moves_searched(&board), [(None, None)]);
        prover.limit_visits(30_000);
        assert_eq!(prover.prove(&mut board), Verdict::Open);
        let moves = prover.moves_searched(&board);
        assert_eq!(moves[0], (None, Some(Numbers::PROVED)), "{moves:?}");
        let expansion = prover.expansion(&board).0;
        let cut = prover.cut(&board, &expansion);
        assert_eq!(moves.len(), 1 + cut.moves.len(), "{moves:?}");
        let names: Vec<String> = moves[1..]
            .iter()
            .map(|&(cell, _)| geometry.cell_name(cell.unwrap()))
            .collect();
        assert!(names.contains(&"h9".to_string()), "{names:?}");
        assert!(moves[1..].iter().any(|(_, n)| n.is_some()), "{moves:?}");
    }

    #[test]
    fn a_cut_narrower_than_its_pass_proof_is_made_again_by_the_walk_and_walked_again() {
        // h8 a1 i9 a2 h9 (O to move) proved with zones; then the root's
        // cut is made narrower (a move of its zone left out, as a cut
        // merged from another proof may be): the walk finds it, makes it
        // again and fails; the next walk writes the certificate of the
        // untouched proof, byte for byte
        let geometry = Geometry::new(BoardSize::new(15, 15, 5)).unwrap();
        let mut board = Board::after(&geometry, "h8,a1,i9,a2,h9").unwrap();
        let mut prover = ThreatProver::new(&geometry, 0, Settings::default(), 64 << 20, None);
        assert_eq!(
            prover.prove(&mut board),
            Verdict::Win,
            "{:?}",
            prover.stopped()
        );
        let (pristine, _) = prover.certificate(&mut board).unwrap();
        assert_eq!(prover.stats().cuts_remade, 0);
        let expansion = prover.expansion(&board).0;
        let cut = prover.cut(&board, &expansion);
        let left_out = *cut.all.last().unwrap();
        let narrower = Cut {
            zone: cut.zone.minus(Cells::one(u32::from(left_out))),
            moves: cut
                .moves
                .iter()
                .copied()
                .filter(|&c| c != left_out)
                .collect(),
            all: cut.all.iter().copied().filter(|&c| c != left_out).collect(),
        };
        prover.cuts.insert(board.key(), Rc::new(narrower));
        let walked = prover.certificate(&mut board).unwrap_err().to_string();
        assert!(walked.starts_with(CUTS_REMADE), "{walked}");
        assert_eq!(prover.stats().cuts_remade, 1);
        let (again, _) = prover.certificate(&mut board).unwrap();
        assert_eq!(again, pristine);
        assert_eq!(prover.stats().cuts_remade, 1);
        assert!(prover.cut(&board, &expansion).all.contains(&left_out));
    }

    #[test]
    fn a_position_settled_by_the_rules_is_settled_whatever_the_table_held() {
        // X to move with four in a row: won by the rules; the table holds
        // open numbers for it (as a checkpoint written under other rules
        // may), and the proof still goes through at once
        let geometry = Geometry::new(BoardSize::new(15, 15, 5)).unwrap();
        let mut board = Board::after(&geometry, "h8,a1,i8,a2,j8,a3,k8,a5").unwrap();
        let mut prover = ThreatProver::new(&geometry, 0, Settings::default(), 64 << 20, None);
        let open = Numbers {
            proof: 3,
            disproof: 4,
        };
        prover.table.store(board.key(), open, 9);
        prover.limit_visits(10_000);
        assert_eq!(prover.prove(&mut board), Verdict::Win);
        assert!(prover.stats().visits <= 1, "{:?}", prover.stats());
        assert_eq!(prover.table.get(board.key()), Some(Numbers::PROVED));
    }

    #[test]
    fn a_proved_entry_no_move_reads_back_is_proved_afresh_for_the_certificate() {
        // the table says X wins after h8 a1 i9 a2 with nothing below (as
        // an entry settled under other rules may): the certificate proves
        // the position again rather than giving up (l10 of 2026-11-27:
        // "its certificate could not be read back" after 5,479 s)
        let geometry = Geometry::new(BoardSize::new(15, 15, 5)).unwrap();
        let mut board = Board::after(&geometry, "h8,a1,i9,a2").unwrap();
        let mut prover = ThreatProver::new(&geometry, 0, Settings::default(), 64 << 20, None);
        prover.table.store(board.key(), Numbers::PROVED, 0);
        prover.limit_visits(200_000);
        assert_eq!(prover.prove(&mut board), Verdict::Win);
        assert_eq!(prover.stats().visits, 0);
        let (text, entries) = prover.certificate(&mut board).unwrap();
        assert!(entries > 100 && text.contains("\nmove "), "{entries}");
        assert_eq!(prover.stats().proved_afresh, 1);
    }

    #[test]
    fn a_defender_with_a_run_of_fours_refutes_its_turn_at_once_when_asked() {
        // O to move with an open three (d4 e4 f4): g4 makes a four open
        // at both ends, so O wins whatever X holds
        let geometry = Geometry::new(BoardSize::new(15, 15, 5)).unwrap();
        let mut board = Board::after(&geometry, "h8,d4,a15,e4,o1,f4,o15").unwrap();
        assert_eq!(board.to_move(), 1);
        for (defender_runs, refuted) in [(true, true), (false, false)] {
            let settings = Settings {
                defender_runs,
                ..Settings::default()
            };
            let mut prover = ThreatProver::new(&geometry, 0, settings, 1 << 24, None);
            let expansion = prover.expand(&mut board);
            assert_eq!(
                matches!(expansion, Expansion::Lost),
                refuted,
                "{expansion:?}"
            );
        }
    }

    #[test]
    fn at_the_horizon_the_attacker_wins_only_by_runs_of_fours() {
        let geometry = Geometry::new(BoardSize::new(15, 15, 5)).unwrap();
        // X to move, six stones, an open three (h8 i8 j8): a run of fours
        let mut three = Board::after(&geometry, "h8,a1,i8,a2,j8,a4").unwrap();
        // X to move, two stones: quiet moves only
        let mut quiet = Board::after(&geometry, "h8,a1").unwrap();
        for (cap, three_won, quiet_lost) in [(None, true, false), (Some(2), true, true)] {
            let settings = Settings {
                max_stones: cap,
                ..Settings::default()
            };
            let mut prover = ThreatProver::new(&geometry, 0, settings, 1 << 24, None);
            let won = prover.expand(&mut three);
            assert_eq!(matches!(won, Expansion::Won(_)), three_won, "{won:?}");
            let lost = prover.expand(&mut quiet);
            assert_eq!(matches!(lost, Expansion::Lost), quiet_lost, "{lost:?}");
        }
        // below the horizon the quiet moves are offered
        let settings = Settings {
            max_stones: Some(3),
            ..Settings::default()
        };
        let mut prover = ThreatProver::new(&geometry, 0, settings, 1 << 24, None);
        let moves = prover.expand(&mut quiet);
        assert!(matches!(moves, Expansion::Moves { .. }), "{moves:?}");
    }

    #[test]
    fn a_wider_horizon_keeps_the_proofs_and_forgets_the_disproofs() {
        let geometry = Geometry::new(BoardSize::new(15, 15, 5)).unwrap();
        let mut board = Board::after(&geometry, "h8,a1,i9,a2").unwrap();
        let settings = Settings {
            max_stones: Some(14),
            ..Settings::default()
        };
        let mut prover = ThreatProver::new(&geometry, 0, settings, 1 << 28, None);
        assert_eq!(prover.prove(&mut board), Verdict::NoWin);
        // the entries proved, or disproved
        let of = |prover: &ThreatProver, proved: bool| -> Vec<_> {
            let mut held: Vec<_> = prover
                .table
                .entries()
                .filter(|&(_, n, _)| {
                    if proved {
                        n.proof == 0
                    } else {
                        n.disproof == 0
                    }
                })
                .map(|(f, _, _)| (f.high, f.low))
                .collect();
            held.sort_unstable();
            held
        };
        let (proved, disproved) = (of(&prover, true), of(&prover, false));
        assert!(!proved.is_empty() && !disproved.is_empty());
        // narrower: nothing forgotten
        assert_eq!(prover.set_horizon(Some(12)), 0);
        assert_eq!(of(&prover, false), disproved);
        // wider: every disproof forgotten, every proof kept
        assert_eq!(prover.set_horizon(Some(16)), disproved.len());
        assert!(of(&prover, false).is_empty());
        assert_eq!(of(&prover, true), proved);
        assert_eq!(prover.horizon(), Some(16));
        assert_eq!(prover.prove(&mut board), Verdict::Win);
        // and none is wider than no horizon
        assert!(wider(None, Some(40)) && !wider(Some(40), None) && !wider(None, None));
    }

    #[test]
    fn saturated_numbers_do_not_stall_the_search() {
        let geometry = Geometry::new(BoardSize::new(15, 15, 5)).unwrap();
        let mut board = Board::after(&geometry, "h8,a1,i9,a2,h9").unwrap();
        let mut prover = ThreatProver::new(&geometry, 0, Settings::default(), 1 << 30, None);
        let defender = board.to_move();
        assert_eq!(defender, 1);
        for cell in board.empties().iter() {
            let key = board.key_after(cell, defender);
            prover.table.store(
                key,
                Numbers {
                    proof: 1,
                    disproof: INFINITE - 1,
                },
                1,
            );
        }
        prover.limit_visits(3_000_000);
        assert_eq!(
            prover.prove(&mut board),
            Verdict::Win,
            "{:?}",
            prover.stopped()
        );
    }
}
