//! `retrograde search mnk|connect`: a position's value and exact depth by
//! search, without a table of every state — for boards beyond exhaustive
//! reach. The answer has the shape of every position answer.

use std::collections::BTreeMap;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc;

use anyhow::Context as _;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use rayon::iter::{ParallelBridge, ParallelIterator};
use retrograde::files::read_regular_text;
use retrograde::memory::Budget;
use retrograde::position::answer::{answer_with, plies, MoveDetail, Oracle, PositionAnswer};
use retrograde::position::oracles::{BoardSearch, Search};
use retrograde::position::{BoardGame, Family, Position};
use retrograde::solve::board_search::{Bitboard, BoardSearcher};
use retrograde::solve::clock::Clock;
use retrograde::solve::search::{Precision, SearchBoard, Searcher};
use retrograde::solve::{in_pool, thread_pool};
use serde_json::json;

use super::output::{emit, emit_while_read, grouped};
use super::position::{board_size, print_answer, PositionArgs};
use super::progress::Bar;
use super::RunArgs;

/// Bytes one transposition entry costs in the concurrent table, roughly
/// (key, bounds, hash-map overhead): the budget divided by this is the
/// table's capacity.
const BYTES_PER_ENTRY: u64 = 64;

/// How many positions a search's transposition table may keep within
/// `budget`.
pub fn table_capacity(budget: &Budget) -> usize {
    (budget.0 .0 / BYTES_PER_ENTRY).min(usize::MAX as u64) as usize
}

/// The largest table the bitboard engine allocates by default: it gains
/// little beyond this on the boards it can finish.
const BOARD_TABLE_CAP: u64 = 1 << 30;

/// Entries of the bitboard engine's table for searches of positions of
/// `family` with at most `empty` empty cells, within `budget`: at most
/// [`BOARD_TABLE_CAP`] bytes, and no more than 2^(12 + 3·empty/8) entries
/// on a gravity board or 2^(empty − 2) on an m,n,k board (more moves a
/// position: more positions searched). A table larger than the search needs
/// is slower, not only bigger: every page costs time to map and clear, and
/// random probes over it miss the caches. Measured on 7×6 Connect Four at
/// 2 threads: the empty board took 111 s with 1 GiB and 166 s with
/// 256 MiB; 20 positions of 6–13 stones 5.2 s with 64 MiB and 7.7 s with
/// 1 GiB; 1,000 positions of 14–27 stones 8.4 s with 32 MiB, 9.4 s with
/// 8 MiB. So the empty 7×6 board gets the whole cap, 6×6 and 7×5 256 MiB,
/// a 7×6 position with 28 empty cells 32 MiB; the empty 5×5 m,n,k board
/// 64 MiB.
pub fn board_table_entries(budget: &Budget, family: Family, empty: u32) -> usize {
    let bytes = budget.0 .0.min(BOARD_TABLE_CAP);
    let entries = bytes / retrograde::solve::board_search::BYTES_PER_ENTRY;
    let log2 = match family {
        Family::Gravity => 12 + empty * 3 / 8,
        Family::Mnk => empty.saturating_sub(2),
    };
    entries.min(1u64 << log2.min(40)) as usize
}

/// Arguments of `retrograde search`.
#[derive(Debug, Args)]
pub struct SearchArgs {
    #[command(subcommand)]
    game: SearchGame,
}

#[derive(Debug, Subcommand)]
enum SearchGame {
    /// An m,n,k board (sides up to 8, at most 64 cells) [default: 3 × 3, k = 3]
    Mnk(SearchBoardArgs),
    /// A gravity board (Connect-Four family; sides up to 8) [default: 7 × 6, k = 4]
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

    /// Give up after SECONDS and print "not reached" (exit 3).
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,

    /// Prove win / draw / loss only (faster; no depths or scores).
    #[arg(long)]
    weak: bool,

    /// List every legal move with its value (one search each); without
    /// it, the answer lists one best move.
    #[arg(long)]
    all_moves: bool,

    /// Solve every position of FILE ('-': standard input), one move list a
    /// line (a blank line is the empty board), with one table for all;
    /// prints one answer a line, in input order (with --json, one JSON
    /// object a line).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["moves", "board"])]
    positions: Option<PathBuf>,

    #[command(flatten)]
    run: RunArgs,
}

/// Runs `search mnk` or `search connect`.
pub fn run(args: &SearchArgs) -> anyhow::Result<ExitCode> {
    match &args.game {
        SearchGame::Mnk(a) => search(Family::Mnk, a),
        SearchGame::Connect(a) => search(Family::Gravity, a),
    }
}

impl SearchBoardArgs {
    /// The options `connect --search` passes on: the board and the run.
    pub fn for_connect(
        cols: u32,
        rows: u32,
        k: u32,
        position: &PositionArgs,
        run: &RunArgs,
    ) -> Self {
        Self {
            cols: Some(cols),
            rows: Some(rows),
            k: Some(k),
            position: position.clone(),
            time_limit: None,
            weak: false,
            all_moves: true,
            positions: None,
            run: run.clone(),
        }
    }
}

/// The longest `--time-limit`, in seconds (about 31 years: longer is no
/// limit, which leaving the option out says).
const MAX_TIME_LIMIT: f64 = 1e9;

/// Searches the position of `args` on a board of `family` and prints the
/// position answer with nodes, rate, transposition hits and time.
pub fn search(family: Family, args: &SearchBoardArgs) -> anyhow::Result<ExitCode> {
    let (default_size, default_k) = match family {
        Family::Mnk => ((3, 3), 3),
        Family::Gravity => ((7, 6), 4),
    };
    let (cols, rows) = board_size(args.cols, args.rows, &args.position, default_size)?;
    let k = args.k.unwrap_or(default_k);
    let game = BoardGame::new(family, cols, rows, k)?;
    let p = args.position.position(&game)?;
    let board = match family {
        Family::Mnk => SearchBoard::new(rows, cols, k)?,
        Family::Gravity => SearchBoard::gravity(cols, rows, k)?,
    };
    let deadline = match args.time_limit {
        None => None,
        Some(s) if s.is_finite() && s > 0.0 && s <= MAX_TIME_LIMIT => {
            Some(Instant::now() + Duration::from_secs_f64(s))
        }
        Some(s) => anyhow::bail!(
            "--time-limit {s} must be a number of seconds above 0 and at most {MAX_TIME_LIMIT:.0} \
             (leave it out for no limit)"
        ),
    };
    let precision = if args.weak {
        Precision::Weak
    } else {
        Precision::Exact
    };
    let detail = if args.all_moves {
        MoveDetail::All
    } else {
        MoveDetail::Best
    };
    // one clock for every search of the command
    let clock = Clock::until(deadline);
    let positions = match &args.positions {
        Some(path) => Some(read_positions(&game, path)?),
        None => None,
    };
    let threads = args.run.threads();
    let bar = args.run.progress_counter();
    // boards that fit the bitboard engine use it; others (up to 8 × 8)
    // the general one
    let engine = Bitboard::new(family, cols, rows, k).ok();
    let run = Run {
        game: &game,
        detail,
        threads,
        json: args.run.json,
    };
    match &engine {
        Some(bitboard) => {
            // the table fits the largest search asked for
            let fewest_stones = match &positions {
                Some(lines) => lines.iter().map(|(_, p)| p.stones()).min(),
                None => Some(p.stones()),
            };
            let empty = bitboard.cells() - fewest_stones.unwrap_or(0);
            let entries = board_table_entries(&args.run.budget(), family, empty);
            let searcher = BoardSearcher::new(bitboard.clone(), entries, None, &bar);
            // many positions: one a worker, each search on its own
            let searcher = if positions.is_some() {
                searcher.side_by_side()
            } else {
                searcher
            };
            let oracle = BoardSearch {
                searcher: &searcher,
                clock: &clock,
                precision,
            };
            let stats = || (searcher.nodes(), searcher.hits());
            let thread_nodes = || searcher.nodes_on_this_thread();
            match positions {
                Some(lines) => run.batch(&lines, &oracle, &stats, Some(&thread_nodes), &bar),
                None => run.one(&p, &oracle, &stats, &bar),
            }
        }
        None => {
            let capacity = table_capacity(&args.run.budget());
            let searcher = Searcher::reporting(&board, capacity, None, &bar);
            let oracle = Search {
                game: &game,
                searcher: &searcher,
                clock: &clock,
                precision,
            };
            let stats = || (searcher.nodes(), searcher.hits());
            match positions {
                Some(lines) => run.batch(&lines, &oracle, &stats, None, &bar),
                None => run.one(&p, &oracle, &stats, &bar),
            }
        }
    }
}

/// The lines of a `--positions` file, each with its position; a line that
/// is not a legal move list of `game` is refused with its number.
fn read_positions(game: &BoardGame, path: &Path) -> anyhow::Result<Vec<(String, Position)>> {
    let stdin = path == Path::new("-");
    let name = if stdin {
        "standard input".to_string()
    } else {
        path.display().to_string()
    };
    let text = if stdin {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("cannot read the positions from standard input")?;
        text
    } else {
        read_regular_text(path)?
    };
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            let line = line.trim();
            let position = game
                .play_moves(line)
                .with_context(|| format!("{name}, line {}", i + 1))?;
            Ok((line.to_string(), position))
        })
        .collect()
}

/// What every search of one command shares.
struct Run<'g> {
    game: &'g BoardGame,
    detail: MoveDetail,
    threads: usize,
    json: bool,
}

/// The searcher's (nodes, transposition hits) so far.
type Stats<'s> = dyn Fn() -> (u64, u64) + 's;

impl Run<'_> {
    /// Answers one position and prints the answer with nodes, rate,
    /// transposition hits and time.
    fn one(
        &self,
        p: &Position,
        oracle: &(dyn Oracle + Sync),
        stats: &Stats,
        bar: &Bar,
    ) -> anyhow::Result<ExitCode> {
        let clock = Instant::now();
        let result = in_pool(self.threads, || {
            answer_with(self.game, p, oracle, self.detail)
        })??;
        bar.finish();
        let seconds = clock.elapsed().as_secs_f64();
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
            let serde_json::Value::Object(keys) = keys else {
                unreachable!("an object")
            };
            let footer = format!(
                "searched {} nodes ({} nodes/s, {} transposition hits) in {seconds:.3} s on {threads} thread{}\n",
                grouped(nodes),
                grouped(rate as u64),
                grouped(hits),
                if threads == 1 { "" } else { "s" },
            );
            (keys, footer)
        })
    }

    /// Answers every line with one table, printing each answer on one line
    /// in input order as soon as it and those before it are known; exit 3
    /// when the time limit stopped any. With `thread_nodes` (the calling
    /// worker's node count so far) the positions are searched side by side,
    /// one a worker, each worker's count telling its search's nodes;
    /// without, one after another, each with every worker.
    fn batch(
        &self,
        lines: &[(String, Position)],
        oracle: &(dyn Oracle + Sync),
        stats: &(dyn Fn() -> (u64, u64) + Sync),
        thread_nodes: Option<&(dyn Fn() -> u64 + Sync)>,
        bar: &Bar,
    ) -> anyhow::Result<ExitCode> {
        let clock = Instant::now();
        let pool = thread_pool(self.threads)?;
        let stop = AtomicBool::new(false);
        let (sender, receiver) = mpsc::channel::<(usize, Solved)>();
        // one line's answer with its nodes and seconds
        let solve = |(_, p): &(String, Position), nodes: &dyn Fn() -> u64| -> Solved {
            let started = Instant::now();
            let before = nodes();
            let answer = answer_with(self.game, p, oracle, self.detail)?;
            Ok(answer.map(|a| (a, nodes() - before, started.elapsed().as_secs_f64())))
        };
        let printed = std::thread::scope(|scope| {
            let (pool, stop, solve) = (&pool, &stop, &solve);
            scope.spawn(move || {
                pool.install(|| match thread_nodes {
                    Some(thread_nodes) => lines.iter().enumerate().par_bridge().for_each_with(
                        sender,
                        |sender, (i, line)| {
                            if !stop.load(Relaxed) {
                                let _ = sender.send((i, solve(line, thread_nodes)));
                            }
                        },
                    ),
                    None => {
                        let total = || stats().0;
                        for (i, line) in lines.iter().enumerate() {
                            if stop.load(Relaxed) || sender.send((i, solve(line, &total))).is_err()
                            {
                                break;
                            }
                        }
                    }
                })
            });
            let printed = self.print_in_order(lines, receiver, bar);
            // an error or a closed pipe: start no more searches
            stop.store(true, Relaxed);
            printed
        });
        bar.finish();
        let reached_all = printed?;
        if !self.json {
            let seconds = clock.elapsed().as_secs_f64();
            let (nodes, hits) = stats();
            emit(&format!(
                "searched {} position{} with {} nodes ({} transposition hits) in {seconds:.3} s on {} thread{}\n",
                grouped(lines.len() as u64),
                if lines.len() == 1 { "" } else { "s" },
                grouped(nodes),
                grouped(hits),
                self.threads,
                if self.threads == 1 { "" } else { "s" },
            ))?;
        }
        Ok(if reached_all {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(3)
        })
    }

    /// Prints the answers arriving on `receiver` (line number, answer) in
    /// line order; whether every line was reached before the time limit.
    /// Stops at the first error, or quietly when stdout's reader has gone.
    fn print_in_order(
        &self,
        lines: &[(String, Position)],
        receiver: mpsc::Receiver<(usize, Solved)>,
        bar: &Bar,
    ) -> anyhow::Result<bool> {
        let mut waiting = BTreeMap::new();
        let mut reached_all = true;
        let mut next = 0;
        for (i, solved) in receiver {
            waiting.insert(i, solved);
            while let Some(solved) = waiting.remove(&next) {
                let line = &lines[next].0;
                next += 1;
                let result = solved?;
                reached_all &= result.is_some();
                let text = match (result, self.json) {
                    (Some((a, nodes, seconds)), true) => {
                        let mut value = serde_json::to_value(&a)?;
                        if let serde_json::Value::Object(map) = &mut value {
                            map.insert("moves_played".into(), json!(line));
                            map.insert("nodes".into(), json!(nodes));
                            map.insert("seconds".into(), json!(seconds));
                        }
                        format!("{value}\n")
                    }
                    (None, true) => {
                        format!("{}\n", json!({"moves_played": line, "not_reached": true}))
                    }
                    (Some((a, nodes, seconds)), false) => format!(
                        "{}  ({} nodes, {seconds:.3} s)\n",
                        one_line(line, &a),
                        grouped(nodes)
                    ),
                    (None, false) => format!("{}: not reached\n", shown(line)),
                };
                if !bar.suspend(|| emit_while_read(&text))? {
                    return Ok(reached_all);
                }
            }
        }
        Ok(reached_all)
    }
}

/// A batch line's answer with its nodes and seconds (`None`: not reached).
type Solved = retrograde::error::Result<Option<(PositionAnswer, u64, f64)>>;

/// A move list as printed: "(empty)" for the empty board.
fn shown(line: &str) -> &str {
    if line.is_empty() {
        "(empty)"
    } else {
        line
    }
}

/// One line of a batch: the moves, the value with its depth and score,
/// the best move (or every move's value with --all-moves).
fn one_line(line: &str, a: &PositionAnswer) -> String {
    use std::fmt::Write as _;
    let mut out = format!("{}: {}", shown(line), a.value.unwrap_or("unreachable"));
    if let Some(d) = a.depth {
        let _ = write!(out, " in {}", plies(d));
    }
    if let Some(score) = a.score {
        let _ = write!(out, ", score {score}");
    }
    let best: Vec<&str> = a
        .moves
        .iter()
        .filter(|m| m.best)
        .map(|m| m.notation.as_str())
        .collect();
    if !best.is_empty() {
        let _ = write!(out, ", best {}", best.join(" "));
    }
    out
}
