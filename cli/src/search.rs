//! `retrograde search mnk|connect`: a position's value and exact depth by
//! search, without a table of every state — for boards beyond exhaustive
//! reach. The answer has the shape of every position answer.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use retrograde::{
    facade::{
        bitboard_takes, books, checked_seconds, Precision, ProveReport, ProveRequest, Question,
        SearchOptions, MAX_BITBOARD_MNK_CELLS,
    },
    host::Clock,
    language::{BoardGame, MoveDetail, WORD_CELLS},
    Analyzer, BoardSize, Family, Position, PositionAnswer, Setting,
};
use serde_json::json;

use super::args::RunArgs;
use super::batch::lines::{fewest_stones, Lines};
use super::batch::Batch;
use super::book;
use super::output::{flag_error, grouped};
use super::position::{board_size, print_answer, PositionArgs};
use super::progress::Bar;

/// Arguments of `retrograde search`.
#[derive(Debug, Args)]
pub struct SearchArgs {
    #[command(subcommand)]
    game: SearchGame,
}

#[derive(Debug, Subcommand)]
enum SearchGame {
    /// An m,n,k board (sides up to 16, at most 64 cells; past 64 cells, up
    /// to 256, a --moves position by the threat prover) [default: 3 × 3, k = 3]
    Mnk(SearchBoardArgs),
    /// A gravity board (Connect-Four family; sides up to 16, at most 64 cells) [default: 7 × 6, k = 4]
    Connect(SearchBoardArgs),
}

/// The options of `search mnk` and `search connect`.
#[derive(Debug, Args)]
pub struct SearchBoardArgs {
    /// Columns (width) [default: the game's, or the --board's]
    #[arg(long, value_name = "C")]
    cols: Option<u32>,

    /// Rows (height) [default: the game's, or the --board's]
    #[arg(long, value_name = "R")]
    rows: Option<u32>,

    /// Stones in a row that win [default: 3 for mnk, 4 for connect]
    #[arg(long, value_name = "K")]
    k: Option<u32>,

    #[command(flatten)]
    position: PositionArgs,

    #[command(flatten)]
    search: SearchFlags,

    /// Make a book instead of answering a position: prove the exact score
    /// of every position in play with at most PLIES stones (one of each
    /// set of symmetric images; the deepest ply is the work, the others
    /// follow from it) and write them to --out FILE. With --book, the
    /// positions that book holds are not searched again.
    #[arg(long, value_name = "PLIES", requires = "out", conflicts_with_all = ["moves", "board", "positions", "all_moves", "weak", "time_limit", "no_book"])]
    make_book: Option<u32>,

    /// With --make-book: the book's file, written to a temporary file
    /// beside it and renamed into place when complete. A file already
    /// there is replaced only if it is a book of this board, or with
    /// --force.
    #[arg(long, value_name = "FILE", requires = "make_book")]
    out: Option<PathBuf>,

    /// m,n,k boards, the empty board's value alone: prove it by the
    /// provers' cascade (as `prove mnk` does: a pairing, zones, the win
    /// prover, the search) and write its certificate to FILE
    /// (docs/FORMAT.md), atomically. A file already there is replaced only
    /// if it is a certificate the cascade writes (pairing, zone proof or
    /// proof tree) of this board, or with --force.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["moves", "board", "positions", "all_moves", "make_book", "book"])]
    proof: Option<PathBuf>,

    /// Replace the file at --out (or --proof) even if it is not a book (or
    /// a certificate of the cascade) of this board.
    #[arg(long)]
    force: bool,

    #[command(flatten)]
    run: RunArgs,
}

/// The flags of a search: `search mnk|connect` and its shortcut
/// `connect --search` take them all, one set written once.
#[derive(Debug, Args, Clone, Default)]
pub struct SearchFlags {
    /// Give up after SECONDS and print "not reached" (exit 3). With
    /// --positions, each line's own SECONDS, from the start of its search.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = super::args::parse_seconds)]
    pub(super) time_limit: Option<f64>,

    /// Prove win / draw / loss only (faster; no depths or scores).
    #[arg(long)]
    pub(super) weak: bool,

    /// List every legal move with its value (one search each); without
    /// it, the answer lists one best move.
    #[arg(long)]
    pub(super) all_moves: bool,

    /// Solve every position of FILE ('-': standard input), one move list a
    /// line (a blank line is the empty board), with one table for all.
    /// Streams: each line is answered on one line (--json: one object) in
    /// input order as soon as it is solved, so it serves as a co-process.
    /// A bad line is answered in its place with an error (JSON: an "error"
    /// key) and the rest go on. Exit 2 if any line was bad, else 3 if any
    /// was not reached in its --time-limit, else 0.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["moves", "board"])]
    pub(super) positions: Option<PathBuf>,

    /// Answer the positions FILE holds from it: a book made by
    /// --make-book for this board (checked whole on reading; a book
    /// changes the time of a search, never its answer).
    #[arg(long, value_name = "FILE")]
    pub(super) book: Option<PathBuf>,

    /// Search without the book built into this program for the board
    /// (standard 7×6 Connect Four has one: every position of its first
    /// plies, exact; without --book it is taken by default).
    #[arg(long, conflicts_with = "book")]
    pub(super) no_book: bool,
}

impl SearchFlags {
    /// The first of these flags given, as it is spelt, if any: the
    /// shortcut refuses them without `--search`.
    pub fn first_given(&self) -> Option<&'static str> {
        [
            (self.time_limit.is_some(), "--time-limit"),
            (self.weak, "--weak"),
            (self.all_moves, "--all-moves"),
            (self.positions.is_some(), "--positions"),
            (self.book.is_some(), "--book"),
            (self.no_book, "--no-book"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
    }
}

/// Runs `search mnk` or `search connect`.
pub fn run(args: &SearchArgs) -> anyhow::Result<ExitCode> {
    match &args.game {
        SearchGame::Mnk(a) => search(Family::Mnk, a),
        SearchGame::Connect(a) => search(Family::Gravity, a),
    }
}

impl SearchBoardArgs {
    /// Every legal move's value with `--all-moves`, else one best move.
    fn detail(&self) -> MoveDetail {
        if self.search.all_moves {
            MoveDetail::All
        } else {
            MoveDetail::Best
        }
    }

    /// The options `connect --search` passes on: the board, the search's
    /// flags and the run. The shortcut lists every move's value, as
    /// `connect`'s answers from a table do.
    pub fn for_connect(
        cols: u32,
        rows: u32,
        k: u32,
        position: &PositionArgs,
        search: &SearchFlags,
        run: &RunArgs,
    ) -> Self {
        Self {
            cols: Some(cols),
            rows: Some(rows),
            k: Some(k),
            position: position.clone(),
            search: SearchFlags {
                all_moves: true,
                ..search.clone()
            },
            make_book: None,
            out: None,
            proof: None,
            force: false,
            run: run.clone(),
        }
    }
}

/// Empty cells from which a search without `--time-limit` says first that
/// it may take long (6×6 Connect Four from the empty board: 7–10 s here).
const LONG_SEARCH_CELLS: u32 = 36;

/// Searches the position of `args` on a board of `family` and prints the
/// position answer with nodes, rate, transposition hits and time; or, with
/// `--positions`, answers every line of the input (see [`super::batch`]).
/// The facade ([`Analyzer`]) picks the engine and sizes its table.
pub fn search(family: Family, args: &SearchBoardArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let default = family.default_board();
    let (cols, rows) = board_size(
        args.cols,
        args.rows,
        &args.position,
        (default.cols, default.rows),
    )?;
    let k = args.k.unwrap_or(default.k);
    let time_limit =
        checked_seconds(Setting::TimeLimit, args.search.time_limit).map_err(flag_error)?;
    let size = BoardSize::new(cols, rows, k);
    if let Some(code) = prove_empty_board(family, size, args, time_limit)? {
        return Ok(code);
    }
    let game = BoardGame::new(family, size)?;
    let p = args.position.position(&game)?;
    let threads = args.run.threads();
    let analyzer =
        super::output::worded_notes(Analyzer::new(args.run.budget(), threads), args.run.quiet());
    if game.cells() > WORD_CELLS
        && args.search.positions.is_none()
        && args.make_book.is_none()
        && args.search.book.is_none()
    {
        return answer_past_the_searches(&analyzer, &game, p, args, time_limit);
    }
    if let Some(out) = &args.out {
        books::check_book_output(&game, out, args.force)
            .map_err(|e| anyhow::anyhow!("--out {}", super::output::in_flags(&e)))?;
    }
    if args.search.book.is_some() || args.make_book.is_some() {
        books::check_board(&game).map_err(|_| book::no_book_for_this_board(cols, rows))?;
    }
    let book = match &args.search.book {
        Some(path) => Some(book::open_book(&game, path, &args.run)?),
        None => None,
    };
    if let (Some(plies), Some(out)) = (args.make_book, &args.out) {
        return book::make(&game, plies, book, out, args.force, &args.run);
    }
    if game.cells() > WORD_CELLS {
        anyhow::bail!(
            "--positions answers boards of at most {WORD_CELLS} cells by search; this one has {}: \
             ask its positions one at a time with --moves (the threat prover answers them)",
            game.cells()
        );
    }
    let question = Question {
        position: p,
        precision: if args.search.weak {
            Precision::Weak
        } else {
            Precision::Exact
        },
        detail: args.detail(),
        time_limit,
        cancel: None,
        best_so_far: false,
    };
    // opened now, so that a missing input is refused before any work
    let lines = match &args.search.positions {
        Some(path) => Some((Lines::open(path)?, path)),
        None => None,
    };
    // the table fits the largest search asked for: a file's position with
    // fewest stones (read ahead), the empty board for standard input (read
    // once, as it comes)
    let fewest_stones = match &lines {
        Some((_, path)) if *path != Path::new("-") && bitboard_takes(&game) => {
            fewest_stones(&game, path)?
        }
        Some(_) => 0,
        None => p.stones(),
    };
    let bar = args.run.progress_counter();
    let options = SearchOptions {
        fewest_stones,
        book,
        shipped_book: !args.search.no_book,
        progress: &bar,
        side_by_side: lines.is_some(),
    };
    let searcher = analyzer.searcher_with(&game, options).map_err(flag_error)?;
    let book_note = book::book_note(args.search.book.as_deref(), searcher.book());
    // (a position of the book's first plies is answered from it at once)
    let empty = game.cells() - p.stones();
    if time_limit.is_none()
        && args.search.positions.is_none()
        && !args.run.quiet()
        && empty >= LONG_SEARCH_CELLS
        && searcher
            .book()
            .is_none_or(|book| p.stones() >= book.max_stones())
    {
        eprintln!(
            "note: no --time-limit: the search runs until the value is proved, which from {empty} empty cells may take minutes or much longer (the empty 7×6 Connect Four board: under a minute on 2 cores); --time-limit S stops it"
        );
    }
    let (precision, detail) = (question.precision, question.detail);
    let stats = || (searcher.positions(), searcher.hits());
    if let Some((lines, _)) = lines {
        // the bitboard search: one a worker, each search on its own; the
        // others one after another, each with every worker
        let batch = Batch {
            game: &game,
            threads,
            side_by_side: searcher.side_by_side(),
            time_limit,
            json: args.run.json,
        };
        let answer =
            |p: &Position, clock: &Clock| searcher.answer_within(p, precision, detail, clock);
        let nodes = || searcher.positions_on_this_thread();
        return batch.run(lines, &answer, &nodes, &stats, &bar);
    }
    // one position's clock runs from the start, table included; the facade
    // answers it (the empty m,n,k board's value alone: the search alone for
    // a first share, then the provers beside it — the race)
    let question = Question {
        time_limit: time_limit.map(|l| l.saturating_sub(started.elapsed())),
        ..question
    };
    let report = analyzer
        .answer(&game, None, Some(&searcher), &question)
        .map_err(flag_error)?;
    bar.finish();
    if let Some(proof) = report.proof {
        let request = ProveRequest::new(size);
        let report = ProveReport {
            proof: Some(*proof),
            why_not: None,
            checkpoint: None,
            merged: None,
            moves_searched: None,
            seconds: started.elapsed().as_secs_f64(),
        };
        return super::prove::print_report(&request, &report, args.run.json);
    }
    let run = Run {
        game: &game,
        threads,
        json: args.run.json,
        book: book_note,
    };
    run.print(started, &p, report.answer, &stats)
}

/// A position on a board past the searches (more than 64 cells: m,n,k
/// boards to 256 cells, answered by the threat prover in part), asked of
/// the facade's cascade ([`Analyzer::answer`]) and printed with the
/// engine that answered.
fn answer_past_the_searches(
    analyzer: &Analyzer,
    game: &BoardGame,
    p: Position,
    args: &SearchBoardArgs,
    time_limit: Option<Duration>,
) -> anyhow::Result<ExitCode> {
    let searcher = analyzer.searcher(game, p.stones()).map_err(flag_error)?;
    if time_limit.is_none() && !args.run.quiet() {
        eprintln!(
            "note: no --time-limit: the threat prover runs until it proves a win for either side or finds none among the moves it tries, which may take hours on {} × {}; --time-limit S stops it",
            game.cols(),
            game.rows()
        );
    }
    let question = Question {
        position: p,
        precision: Precision::Weak,
        detail: args.detail(),
        time_limit,
        cancel: None,
        best_so_far: false,
    };
    let report = analyzer
        .answer(game, None, Some(&searcher), &question)
        .map_err(flag_error)?;
    super::position::print_report(game, &p, &report, args.run.json)
}

/// Whether `args` ask the empty board's value alone (no position, no
/// moves listed, no batch, no book).
fn value_alone(args: &SearchBoardArgs) -> bool {
    !args.position.given()
        && !args.search.all_moves
        && args.search.positions.is_none()
        && args.make_book.is_none()
        && args.search.book.is_none()
}

/// The empty m,n,k board asked for its value alone where the provers
/// answer it: past the bitboard search's [`MAX_BITBOARD_MNK_CELLS`] cells (7,7,5,
/// 8,8,5, gomoku's 15 × 15 …), or with `--proof`. Answered by the provers'
/// cascade of `prove mnk` ([`retrograde::facade::prove`]), which reaches
/// such boards where a search does not; `None` for every other question,
/// which the search answers.
fn prove_empty_board(
    family: Family,
    size: BoardSize,
    args: &SearchBoardArgs,
    time_limit: Option<Duration>,
) -> anyhow::Result<Option<ExitCode>> {
    let past_the_engine = size.cells() > u64::from(MAX_BITBOARD_MNK_CELLS);
    if args.proof.is_some() && (family != Family::Mnk || !value_alone(args)) {
        anyhow::bail!(
            "--proof certifies the empty m,n,k board's value alone (search mnk without \
             --moves, --board or --all-moves)"
        );
    }
    if family != Family::Mnk || !value_alone(args) || !(past_the_engine || args.proof.is_some()) {
        return Ok(None);
    }
    retrograde::facade::ensure_sides(size.cols, size.rows).map_err(flag_error)?;
    if !args.run.quiet() && past_the_engine {
        eprintln!(
            "note: the empty {} × {} board is past the search's {MAX_BITBOARD_MNK_CELLS} cells: its value (no depth, no move) is proved as `retrograde prove mnk` proves it{}",
            size.cols,
            size.rows,
            if time_limit.is_none() {
                "; without --time-limit it may run for hours"
            } else {
                ""
            }
        );
    }
    prove_by_the_cascade(size, args, time_limit).map(Some)
}

/// The empty m,n,k board's value by the provers' cascade, printed as
/// `prove mnk` prints it (with `--proof`, its certificate written).
fn prove_by_the_cascade(
    size: BoardSize,
    args: &SearchBoardArgs,
    time_limit: Option<Duration>,
) -> anyhow::Result<ExitCode> {
    let request = ProveRequest {
        certificate: args.proof.clone(),
        replace_any_file: args.force,
        time_limit,
        ..ProveRequest::new(size)
    };
    // the note above said what runs; a terminal also sees that it runs
    let spinner = Bar::spinner_on_stderr(
        args.run.quiet(),
        &format!("proving {} by the provers' cascade", request.name()),
    );
    let report = Analyzer::new(args.run.budget(), args.run.threads())
        .prove(&request)
        .map_err(flag_error);
    spinner.finish();
    super::prove::print_report(&request, &report?, args.run.json)
}

/// What every search of one command shares.
struct Run<'g> {
    game: &'g BoardGame,
    threads: usize,
    json: bool,
    /// The book used, for the report: its JSON and its line.
    book: Option<(serde_json::Value, String)>,
}

/// The searcher's (nodes, transposition hits) so far.
type Stats<'s> = dyn Fn() -> (u64, u64) + 's;

impl Run<'_> {
    /// Prints one position's answer (`None`: not reached) with nodes,
    /// rate, transposition hits and time counted from `since`.
    fn print(
        &self,
        since: Instant,
        p: &Position,
        result: Option<PositionAnswer>,
        stats: &Stats,
    ) -> anyhow::Result<ExitCode> {
        let seconds = since.elapsed().as_secs_f64();
        let (nodes, hits) = stats();
        let threads = self.threads;
        let rate = nodes as f64 / seconds.max(1e-9);
        print_answer(self.game, p, result, self.json, || {
            let keys = json!({
                "nodes": nodes,
                "nodes_per_second": rate,
                "transposition_hits": hits,
                "threads": threads,
                "seconds": seconds,
            });
            let serde_json::Value::Object(mut keys) = keys else {
                unreachable!("an object")
            };
            let mut footer = String::new();
            if let Some((value, line)) = &self.book {
                keys.insert("book".into(), value.clone());
                footer.push_str(line);
            }
            footer += &format!(
                "searched {} nodes ({} nodes/s, {} transposition hits) in {seconds:.3} s on {threads} thread{}\n",
                grouped(nodes),
                grouped(rate as u64),
                grouped(hits),
                if threads == 1 { "" } else { "s" },
            );
            (keys, footer)
        })
    }
}
