//! `retrograde verify`: solves the published m,n,k and Connect Four cases
//! (counts, and values by search) and checks every figure; exit 1 if any
//! differs.

use retrograde::{
    engines::symbolic::{solve_symbolic, Encoding, Layout, SymbolicRun},
    language::GameValue,
    BoardSize,
};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;
use retrograde::{
    engines::bitboard::{Bitboard, BoardSearcher},
    engines::layered::{solve_mnk, MnkSolution, PlyCounts},
    engines::pairing::{checked_empty_board_pairing, PairingBoard},
    engines::search::Precision,
    engines::sparse::solve_gravity_within,
    engines::win::{win_certificate, Verdict},
    engines::zones::DrawProof,
    engines::{win, zones},
    games::gravity::Gravity,
    games::mnk::Mnk,
    host::{in_pool, Budget},
    Family,
};

use super::args::RunArgs;
use super::mnk::empty_board_value;
use super::output::{emit, emit_while_read};

/// Arguments of `retrograde verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Time budget of each case, in seconds — the exhaustive counts and
    /// solves as well as the searches; a case that does not finish in time,
    /// or that would need more memory than --max-memory, is reported as not
    /// reached with its reason. A full run takes minutes and needs about
    /// 12.6 GiB (the 6×5 count, its largest case).
    #[arg(long, value_name = "S", default_value_t = 120.0, allow_negative_numbers = true, value_parser = super::args::parse_seconds)]
    case_seconds: f64,

    /// Exit 3 when a case is not reached (in time or memory), as well as 1
    /// when a figure differs: for scripts that must see every figure.
    #[arg(long)]
    strict: bool,

    /// Run only the cases whose name contains PATTERN (case-insensitive),
    /// e.g. `--only "Connect Four 5×5"` or `--only certificate`.
    #[arg(long, value_name = "PATTERN")]
    only: Option<String>,

    #[command(flatten)]
    run: RunArgs,
}

/// One published figure: what it is, its value, and how to compute it.
struct Check {
    case: &'static str,
    published: String,
    computed: fn(&MnkSolution) -> String,
}

fn check(
    case: &'static str,
    published: impl ToString,
    computed: fn(&MnkSolution) -> String,
) -> Check {
    Check {
        case,
        published: published.to_string(),
        computed,
    }
}

fn per_ply(s: &MnkSolution, field: fn(&PlyCounts) -> u64) -> String {
    let row: Vec<String> = s.counts.iter().map(|c| field(c).to_string()).collect();
    row.join(",")
}

/// The published cases, by board (columns, rows, k). Sources: tic-tac-toe's standard counts;
/// m,n,k-game results (4,3,3, 3,4,3 and 4,4,3 first-player wins; 4,4,4
/// draw); OEIS A317573, A317574, A317576 (rows n = 4).
fn cases() -> Vec<((u32, u32, u32), Vec<Check>)> {
    vec![
        (
            (3, 3, 3),
            vec![
                check("3,3,3 value", "draw", |s| empty_board_value(s).into()),
                check("3,3,3 positions", 5478, |s| {
                    s.totals().positions.to_string()
                }),
                check("3,3,3 terminal positions", 958, |s| {
                    s.totals().terminal.to_string()
                }),
                check("3,3,3 classes", 765, |s| s.totals().classes.to_string()),
                check("3,3,3 terminal classes", 138, |s| {
                    s.totals().terminal_classes.to_string()
                }),
                check("3,3,3 games", 255_168, |s| s.games.total().to_string()),
                check("3,3,3 games won by X", 131_184, |s| {
                    s.games.x_wins.to_string()
                }),
                check("3,3,3 games won by O", 77_904, |s| {
                    s.games.o_wins.to_string()
                }),
                check("3,3,3 drawn games", 46_080, |s| s.games.draws.to_string()),
            ],
        ),
        (
            (4, 3, 3),
            vec![check("4,3,3 value", "first", |s| {
                empty_board_value(s).into()
            })],
        ),
        (
            (3, 4, 3),
            vec![check("3,4,3 value", "first", |s| {
                empty_board_value(s).into()
            })],
        ),
        (
            (4, 4, 3),
            vec![check("4,4,3 value", "first", |s| {
                empty_board_value(s).into()
            })],
        ),
        (
            (4, 4, 4),
            vec![
                check("4,4,4 value", "draw", |s| empty_board_value(s).into()),
                check("4,4,4 positions", 9_722_011, |s| {
                    s.totals().positions.to_string()
                }),
                check(
                    "4,4,4 A317573 (X wins, classes by ply)",
                    "0,0,0,0,0,0,1100,280,26771,11535,91567,36362,78138,26146,12900,3774,0",
                    |s| per_ply(s, |c| c.x_can_win_classes),
                ),
                check(
                    "4,4,4 A317574 (O wins, classes by ply)",
                    "0,0,0,0,0,0,0,2476,642,31841,11251,66364,21718,29258,8496,1335,371",
                    |s| per_ply(s, |c| c.o_can_win_classes),
                ),
                check(
                    "4,4,4 A317576 (terminal classes by ply)",
                    "0,0,0,0,0,0,0,280,642,4942,6770,20286,16042,20998,7970,3774,1059",
                    |s| per_ply(s, |c| c.terminal_classes),
                ),
            ],
        ),
    ]
}

/// Connect Four (k = 4) on every board of width and height at least 4 with
/// width + height ≤ 13: (columns, rows, the empty board's value for the
/// first player, the move on which the game ends under perfect play).
/// Values: John Tromp's table of results (tromp.github.io/c4/c4.html, 2006);
/// the game-end moves, which give the exact score: Christophe Steininger's
/// table (github.com/ChristopheSteininger/c4, README "Last Move"). A drawn
/// game ends on its last cell.
const CONNECT_FOUR_RESULTS: [(u32, u32, &str, u32); 21] = [
    (4, 4, "draw", 16),
    (5, 4, "draw", 20),
    (6, 4, "second", 24),
    (7, 4, "draw", 28),
    (8, 4, "second", 32),
    (9, 4, "second", 36),
    (4, 5, "draw", 20),
    (5, 5, "draw", 25),
    (6, 5, "draw", 30),
    (7, 5, "draw", 35),
    (8, 5, "first", 39),
    (4, 6, "draw", 24),
    (5, 6, "draw", 30),
    (6, 6, "second", 36),
    (7, 6, "first", 41),
    (4, 7, "draw", 28),
    (5, 7, "draw", 35),
    (6, 7, "first", 41),
    (4, 8, "draw", 32),
    (5, 8, "draw", 40),
    (4, 9, "draw", 36),
];

/// A search case: its name, the published result, whether it is proved
/// exactly (the game-end move too) or to win / draw / loss, and the board.
struct SearchCase {
    case: String,
    published: String,
    precision: Precision,
    board: anyhow::Result<Bitboard>,
}

/// How a search case writes a result: the first player's value, and with
/// an exact score the move on which the game ends (`first (41)`).
fn search_result(value: &str, end_move: Option<u32>) -> String {
    match end_move {
        Some(m) => format!("{value} ({m})"),
        None => value.to_string(),
    }
}

/// Search cases. Sources: m,n,k results with k = 4 and 5 (4×5 … 4×8, 5×5
/// draws; 6,5,4, 7,5,4 and 6,6,4 first-player wins — Uiterwijk 2019; 5,5,5
/// a draw), proved
/// to win / draw / loss; Connect Four [`CONNECT_FOUR_RESULTS`], proved
/// exactly.
fn search_cases() -> Vec<SearchCase> {
    // named columns first, as every board of the project (`BoardSize`)
    let mnk = |value: &str, cols, rows, k| SearchCase {
        case: format!("{cols},{rows},{k} value (search)"),
        published: value.to_string(),
        precision: Precision::Weak,
        board: Bitboard::new(Family::Mnk, BoardSize { cols, rows, k }).map_err(Into::into),
    };
    let mut cases = vec![
        mnk("draw", 5, 4, 4),
        mnk("draw", 6, 4, 4),
        // (m,4,4) draws for m ≤ 8 (Charatsidis 2017; Uiterwijk); 9 and 10
        // (first-player wins) are win-certificate cases below
        mnk("draw", 7, 4, 4),
        mnk("draw", 8, 4, 4),
        mnk("draw", 5, 5, 4),
        mnk("first", 5, 6, 4),
        // (m,n,4) first-player wins for m ≥ 6, n ≥ 5: the two smallest
        // new ones (35 and 36 cells)
        mnk("first", 5, 7, 4),
        mnk("first", 6, 6, 4),
        mnk("draw", 5, 5, 5),
    ];
    for (cols, rows, value, end_move) in CONNECT_FOUR_RESULTS {
        cases.push(SearchCase {
            case: format!("Connect Four {cols}×{rows} value"),
            published: search_result(value, Some(end_move)),
            precision: Precision::Exact,
            board: Bitboard::new(Family::Gravity, BoardSize::new(cols, rows, 4))
                .map_err(Into::into),
        });
    }
    cases
}

/// Boards (columns, rows, k) that verify proves drawn by a pairing
/// strategy. Published: 5,5,5 a draw; every board with k ≥ 8 a draw
/// (Zetters 1980 for k = 8; Hales & Jewett 1963 for k ≥ 9).
const PAIRING_DRAWS: [(u32, u32, u32); 8] = [
    (5, 5, 5),
    (8, 8, 8),
    (9, 9, 9),
    (11, 11, 8),
    (13, 13, 9),
    (15, 15, 9),
    (15, 15, 10),
    (19, 19, 11),
];

/// Boards (columns, rows, k) that verify proves drawn by the zone prover
/// ([`retrograde::engines::zones`]: a defender search closed by
/// pairings, with a certificate the tests replay). Published: 6,6,5 and
/// 7,7,5 draws (Hsu, Ko, Chen, Wei, Hsueh & Wu, Theoretical Computer
/// Science 815, 2020, who prove every board from 5×5 to 8×8 with k = 5 a
/// draw; 7,6,5 follows from 7,7,5 as a smaller board).
/// Tromp's position counts and Böck's 2025 table (which confirms Tromp's),
/// exhaustive: (columns, rows, positions), k = 4.
const COUNTS: [(u32, u32, u64); 9] = [
    (4, 4, 161_029u64),
    (5, 4, 3_945_711),
    (5, 5, 69_763_700),
    (3, 8, 8_424_616),
    (4, 7, 135_385_909),
    (8, 3, 362_940_958),
    (5, 6, 1_044_334_437),
    (7, 4, 2_265_792_710),
    (6, 5, 2_818_972_642),
];

/// Böck's counts of boards beyond the explicit engine (or narrow ones it
/// takes slowly), by the symbolic engine's forward pass; k = 4.
const SYMBOLIC_COUNTS: [(u32, u32, u64); 8] = [
    (11, 1, 48_930u64),
    (1, 11, 12),
    (10, 2, 50_780_523),
    (2, 10, 113_835),
    (3, 9, 49_867_996),
    (4, 8, 1_104_642_469),
    (9, 3, 4_816_325_017),
    // 45 s here at 2 threads (results/symbolic/RUNS.log)
    (8, 4, 54_233_186_631),
];

/// The name of every case, in the order they run (for `--only` and the
/// projected total).
fn case_names() -> Vec<String> {
    let mut names: Vec<String> = cases()
        .into_iter()
        .flat_map(|(_, checks)| checks.into_iter().map(|c| c.case.to_string()))
        .collect();
    names.extend(
        COUNTS
            .iter()
            .map(|(c, r, _)| format!("Connect Four {c}×{r} positions")),
    );
    names.extend(
        SYMBOLIC_COUNTS
            .iter()
            .map(|(c, r, _)| format!("Connect Four {c}×{r} positions (symbolic)")),
    );
    names.extend(search_cases().into_iter().map(|c| c.case));
    names.extend(
        WIN_PROOFS
            .iter()
            .map(|(c, r, k)| format!("{c},{r},{k} value (win certificate)")),
    );
    names.extend(
        PAIRING_DRAWS
            .iter()
            .map(|(c, r, k)| format!("{c},{r},{k} value (pairing certificate)")),
    );
    names.extend(
        ZONE_DRAWS
            .iter()
            .map(|(c, r, k)| format!("{c},{r},{k} value (zone proof)")),
    );
    names
}

const ZONE_DRAWS: [(u32, u32, u32); 3] = [(6, 6, 5), (7, 6, 5), (7, 7, 5)];

/// Boards (columns, rows, k) that verify proves first-player wins by the
/// df-pn win prover ([`retrograde::engines::win`]), each proof written
/// out as a proof tree (every defender reply tried) before it counts; the
/// tests replay such certificates with an independent checker. Published:
/// (m,n,4) a first-player win for m ≥ 6, n ≥ 5 (Uiterwijk 2019), 6,6,4 and
/// 7,5,4 also proved by the search above, a second method; (9,4,4) and
/// (10,4,4) first-player wins (Charatsidis, BSc thesis, Maastricht 2017;
/// Uiterwijk), about 90 s and 70 s here (results/PROOFS.md), whose kept
/// certificates the tests replay.
const WIN_PROOFS: [(u32, u32, u32); 4] = [(6, 6, 4), (7, 5, 4), (9, 4, 4), (10, 4, 4)];

/// The empty board's value by the win prover and its certificate, or why
/// not.
fn win_by_certificate(
    board: &Bitboard,
    budget: &Budget,
    deadline: Instant,
    case_seconds: f64,
) -> Result<String, NotReached> {
    let max_entries = win::certificate_entries(budget.0 .0);
    match win_certificate(board, true, max_entries, Some(deadline), None, None) {
        Ok(Ok(_)) => Ok("first".to_string()),
        Ok(Err(Verdict::NoWin)) => Ok("not a first-player win".to_string()),
        Ok(Err(_)) => Err(NotReached::time(case_seconds)),
        Err(e) => Err(NotReached::of(&e.into())),
    }
}

/// The empty board's value by a checked pairing, or why not.
fn pairing_draw(board: PairingBoard) -> Result<String, NotReached> {
    match checked_empty_board_pairing(board) {
        Ok(Some(_)) => Ok("draw".to_string()),
        Err(why) => Err(NotReached {
            reason: "error",
            message: why,
        }),
        Ok(None) => Err(NotReached {
            reason: "error",
            message: "no pairing strategy found".into(),
        }),
    }
}

/// The empty board's value by the zone prover within `deadline`, or why not.
fn zone_draw(
    board: PairingBoard,
    budget: &Budget,
    deadline: Instant,
    case_seconds: f64,
) -> Result<String, NotReached> {
    match zones::prove_draw(board, budget.0 .0, Some(deadline), u64::MAX) {
        Ok(DrawProof::Draw { .. }) => Ok("draw".to_string()),
        Ok(DrawProof::Wins { first_player }) => {
            Ok(if first_player { "first" } else { "second" }.to_string())
        }
        Ok(DrawProof::Open(why)) => Err(NotReached {
            reason: "time",
            message: format!("{why} (--case-seconds {case_seconds})"),
        }),
        Err(e) => Err(NotReached::of(&e.into())),
    }
}

/// The memory the largest case (the 6×5 count) needs: its measured peak.
const FULL_RUN_BYTES: u64 = 12_600 * 1024 * 1024 * 1024 / 1000;

/// Why a case was not reached: `time` or `memory` (or `error`), and the
/// engine's message.
struct NotReached {
    reason: &'static str,
    message: String,
}

impl NotReached {
    /// The reason of an engine's refusal or stop.
    fn of(err: &anyhow::Error) -> Self {
        use retrograde::Error;
        let reason = match err.downcast_ref::<Error>() {
            Some(Error::OutOfTime(_)) => "time",
            Some(
                Error::OverMemoryBudget { .. }
                | Error::StoreFull { .. }
                | Error::ProjectedOverBudget { .. },
            ) => "memory",
            _ => "error",
        };
        Self {
            reason,
            message: match err.downcast_ref::<Error>() {
                Some(e) => super::output::in_flags(e),
                None => err.to_string(),
            },
        }
    }

    /// A search that ran out of its seconds.
    fn time(seconds: f64) -> Self {
        Self {
            reason: "time",
            message: format!("the search did not finish within --case-seconds {seconds}"),
        }
    }
}

/// The verify table, printed row by row as the cases finish — or, with
/// `--json`, gathered and printed as one object at the end.
struct Report {
    failed: usize,
    unreached: usize,
    json: bool,
    rows: Vec<serde_json::Value>,
    /// `--only`, lower-cased.
    only: Option<String>,
}

/// Most characters of a figure in the table's columns.
const COLUMN: usize = 16;

/// A figure as the table shows it: a count with thousands separators.
fn shown(figure: &str) -> String {
    match figure.parse::<u64>() {
        Ok(n) if figure.bytes().all(|b| b.is_ascii_digit()) => super::output::grouped(n),
        _ => figure.to_string(),
    }
}

impl Report {
    /// The exit code: 1 when a figure differs, else 3 with `strict` when a
    /// case was not reached, else `printed` (the printing's own).
    fn exit_code(&self, printed: ExitCode, strict: bool) -> ExitCode {
        if self.failed > 0 {
            ExitCode::from(1)
        } else if strict && self.unreached > 0 {
            ExitCode::from(3)
        } else {
            printed
        }
    }

    /// Whether `case` is to be run (`--only`).
    fn wants(&self, case: &str) -> bool {
        self.only
            .as_ref()
            .is_none_or(|p| case.to_lowercase().contains(p.as_str()))
    }

    /// One row; `computed` is why it was not reached, for a case not
    /// reached.
    fn row(
        &mut self,
        case: &str,
        published: &str,
        computed: Result<&str, &NotReached>,
        seconds: f64,
    ) -> anyhow::Result<bool> {
        // the case's memory is freed: given back before the next case
        retrograde::host::give_back_freed_memory();
        let why = computed.err();
        let computed = computed.ok();
        let shorten = |s: &str| {
            let s = shown(s);
            if s.chars().count() > COLUMN {
                format!("{}…", s.chars().take(COLUMN - 1).collect::<String>())
            } else {
                s
            }
        };
        let mark = match computed {
            Some(c) if c == published => "✓",
            Some(_) => "✗",
            None => "–",
        };
        self.failed += usize::from(mark == "✗");
        self.unreached += usize::from(mark == "–");
        if self.json {
            self.rows.push(serde_json::json!({
                "case": case,
                "published": published,
                "computed": computed,
                "status": match mark { "✓" => "agrees", "✗" => "differs", _ => "not reached" },
                "seconds": seconds,
            }));
            if let (Some(why), Some(serde_json::Value::Object(row))) = (why, self.rows.last_mut()) {
                row.insert("reason".into(), why.reason.into());
                row.insert("why".into(), why.message.clone().into());
            }
            return Ok(true);
        }
        let mut line = format!(
            "{case:<42} {:>16} {:>16}  {mark}  {seconds:.2} s\n",
            shorten(published),
            computed.map_or("not reached".to_string(), shorten)
        );
        // a row too long for its column is printed whole below it
        match computed {
            Some(c)
                if c != published
                    && (shown(published).chars().count() > COLUMN
                        || shown(c).chars().count() > COLUMN) =>
            {
                line.push_str(&format!("    published {published}\n    computed  {c}\n"));
            }
            Some(_) if shown(published).chars().count() > COLUMN => {
                line.push_str(&format!("    published and computed: {published}\n"));
            }
            _ => {}
        }
        if let Some(why) = why {
            line.push_str(&format!(
                "    not reached ({}): {}\n",
                why.reason, why.message
            ));
        }
        emit_while_read(&line)
    }
}

/// Solves every case and prints the table.
pub fn run(args: &VerifyArgs) -> anyhow::Result<ExitCode> {
    // many cases in one process: what one case frees must not stay
    // resident into the next (see the function's doc)
    retrograde::host::few_allocator_arenas();
    let threads = args.run.threads();
    let budget = args.run.budget();
    if !(args.case_seconds.is_finite() && args.case_seconds > 0.0 && args.case_seconds <= 1e7) {
        anyhow::bail!(
            "--case-seconds {} must be a number of seconds above 0 (at most 10,000,000)",
            args.case_seconds
        );
    }
    let mut report = Report {
        failed: 0,
        unreached: 0,
        json: args.run.json,
        rows: Vec::new(),
        only: args.only.as_ref().map(|p| p.to_lowercase()),
    };
    let names = case_names();
    let chosen = names.iter().filter(|n| report.wants(n)).count();
    if chosen == 0 {
        anyhow::bail!(
            "--only {:?} matches no case (the cases are named as the table prints them, e.g. \
             \"3,3,3 positions\" or \"Connect Four 5×4 positions\")",
            args.only.as_deref().unwrap_or_default()
        );
    }
    if !report.json {
        if budget.0 .0 < FULL_RUN_BYTES {
            emit(&format!(
                "note: a full run needs about {} (the 6×5 count); over the memory budget of {} its cases are not reached\n",
                retrograde::host::Bytes(FULL_RUN_BYTES),
                budget.0
            ))?;
        }
        emit(&format!(
            "verify: {chosen} case{}, each within {} s: at most {} in all (the {} cases took \
             7 min 25 s together on this project's 2-core machine, 2026-11-29)\n",
            if chosen == 1 { "" } else { "s" },
            super::output::grouped(args.case_seconds as u64),
            retrograde::engines::symbolic::duration_in_words(chosen as f64 * args.case_seconds),
            names.len()
        ))?;
        emit(&format!(
            "{:<42} {:>16} {:>16}  ok  time\n",
            "case", "published", "computed"
        ))?;
    }
    for ((cols, rows, k), checks) in cases() {
        let checks: Vec<_> = checks
            .into_iter()
            .filter(|c| report.wants(c.case))
            .collect();
        if checks.is_empty() {
            continue;
        }
        let game = Mnk::new(BoardSize { cols, rows, k })?;
        let clock = Instant::now();
        // a board over the memory budget is not reached, case by case
        let solution =
            in_pool(threads, || solve_mnk(&game, &budget))?.map_err(|e| NotReached::of(&e.into()));
        let seconds = clock.elapsed().as_secs_f64();
        for c in checks {
            let computed = solution.as_ref().map(|s| (c.computed)(s));
            let computed = match &computed {
                Ok(text) => Ok(text.as_str()),
                Err(why) => Err(*why),
            };
            if !report.row(c.case, &c.published, computed, seconds)? {
                return Ok(ExitCode::SUCCESS);
            }
        }
    }
    // Tromp's position counts and Böck's 2025 table (which confirms
    // Tromp's), exhaustive (a case over the memory budget or past its
    // seconds is not reached).
    let counts = COUNTS;
    for (cols, rows, published) in counts {
        if !report.wants(&format!("Connect Four {cols}×{rows} positions")) {
            continue;
        }
        let clock = Instant::now();
        let deadline = clock + Duration::from_secs_f64(args.case_seconds);
        let game = Gravity::new(BoardSize::new(cols, rows, 4))?;
        let bar = args.run.progress_plies();
        let counted = in_pool(threads, || {
            solve_gravity_within(&game, &budget, &bar, Some(deadline))
        })?
        .map(|s| s.positions().to_string())
        .map_err(|e| NotReached::of(&e.into()));
        bar.finish();
        let case = format!("Connect Four {cols}×{rows} positions");
        let seconds = clock.elapsed().as_secs_f64();
        let counted = counted.as_ref().map(String::as_str);
        if !report.row(&case, &published.to_string(), counted, seconds)? {
            return Ok(ExitCode::SUCCESS);
        }
    }
    // Böck's counts of boards beyond the explicit engine (or narrow ones
    // it takes slowly), by the symbolic engine's forward pass; k = 4
    let symbolic_counts = SYMBOLIC_COUNTS;
    for (cols, rows, published) in symbolic_counts {
        if !report.wants(&format!("Connect Four {cols}×{rows} positions (symbolic)")) {
            continue;
        }
        let clock = Instant::now();
        let bar = args.run.progress_plies();
        let run = SymbolicRun {
            layout: Layout::new(
                Family::Gravity,
                BoardSize::new(cols, rows, 4),
                Encoding::Column,
            )?,
            threads,
            budget,
            count_only: true,
            checkpoint: None,
            deadline: Some(clock + Duration::from_secs_f64(args.case_seconds)),
        };
        let counted = solve_symbolic(&run, None, &bar)
            .map(|s| {
                s.plies
                    .iter()
                    .map(|p| p.counts.positions)
                    .sum::<u64>()
                    .to_string()
            })
            .map_err(|e| NotReached::of(&e.into()));
        bar.finish();
        let case = format!("Connect Four {cols}×{rows} positions (symbolic)");
        let seconds = clock.elapsed().as_secs_f64();
        let counted = counted.as_ref().map(String::as_str);
        if !report.row(&case, &published.to_string(), counted, seconds)? {
            return Ok(ExitCode::SUCCESS);
        }
    }
    for SearchCase {
        case,
        published,
        precision,
        board,
    } in search_cases()
    {
        if !report.wants(&case) {
            continue;
        }
        let board = board?;
        let clock = Instant::now();
        let deadline = clock + Duration::from_secs_f64(args.case_seconds);
        let bar = args.run.progress_counter();
        // a table too small for the budget only slows the search; a search
        // that cannot run is a case not reached
        let (family, _, _, _) = board.dimensions();
        let entries =
            retrograde::engines::bitboard::board_table_entries(&budget, family, board.cells());
        let searcher = BoardSearcher::new(board, entries, Some(deadline), &bar);
        let found = in_pool(threads, || searcher.search(0, 0, precision))?;
        bar.finish();
        let value = match found {
            Ok(Some(r)) => Ok(search_result(
                GameValue::of_first_player(r.value).name(),
                r.depth,
            )),
            Ok(None) => Err(NotReached::time(args.case_seconds)),
            Err(e) => Err(NotReached::of(&e.into())),
        };
        if !report.row(
            &case,
            &published,
            value.as_deref(),
            clock.elapsed().as_secs_f64(),
        )? {
            return Ok(ExitCode::SUCCESS);
        }
    }
    // wins by the df-pn prover, each written out as a proof tree
    for (cols, rows, k) in WIN_PROOFS {
        if !report.wants(&format!("{cols},{rows},{k} value (win certificate)")) {
            continue;
        }
        let clock = Instant::now();
        let board = Bitboard::new(Family::Mnk, BoardSize { cols, rows, k })?;
        let deadline = clock + Duration::from_secs_f64(args.case_seconds);
        let value = win_by_certificate(&board, &budget, deadline, args.case_seconds);
        let case = format!("{cols},{rows},{k} value (win certificate)");
        if !report.row(
            &case,
            "first",
            value.as_deref(),
            clock.elapsed().as_secs_f64(),
        )? {
            return Ok(ExitCode::SUCCESS);
        }
    }
    // draws by a pairing strategy (each pairing checked against every line
    // before it counts) and by the zone prover (two defences); the tests
    // check both kinds of certificate independently
    let draws = PAIRING_DRAWS
        .iter()
        .map(|&b| (b, true))
        .chain(ZONE_DRAWS.iter().map(|&b| (b, false)));
    for ((cols, rows, k), by_pairing) in draws {
        let how = if by_pairing {
            "pairing certificate"
        } else {
            "zone proof"
        };
        if !report.wants(&format!("{cols},{rows},{k} value ({how})")) {
            continue;
        }
        let clock = Instant::now();
        let board = PairingBoard::new(BoardSize { cols, rows, k })?;
        let deadline = clock + Duration::from_secs_f64(args.case_seconds);
        let (value, how) = if by_pairing {
            (pairing_draw(board), "pairing certificate")
        } else {
            (
                zone_draw(board, &budget, deadline, args.case_seconds),
                "zone proof",
            )
        };
        let case = format!("{cols},{rows},{k} value ({how})");
        if !report.row(
            &case,
            "draw",
            value.as_deref(),
            clock.elapsed().as_secs_f64(),
        )? {
            return Ok(ExitCode::SUCCESS);
        }
    }
    if report.json {
        let code = super::output::emit_json(&serde_json::json!({
            "cases": report.rows,
            "agree": report.rows.len() - report.failed - report.unreached,
            "differ": report.failed,
            "not_reached": report.unreached,
            "case_seconds": args.case_seconds,
            "threads": threads,
        }))?;
        return Ok(report.exit_code(code, args.strict));
    }
    let article = if report.wants("4,4,3 positions") {
        "note: a popular article on tic-tac-toe-family counts prints 6,035,992 positions for 4,4,3;\n      the dense engine and an independent hash-set enumeration (tests/engines/mnk_published.rs)\n      both count 6,036,001.\n"
    } else {
        ""
    };
    let summary = format!(
        "{article}{}{}\n",
        if report.failed == 0 {
            "all figures reached agree".to_string()
        } else {
            format!("{} figure(s) differ", report.failed)
        },
        if report.unreached > 0 {
            format!(
                "; {} not reached within {} s each or the memory budget",
                if report.unreached == 1 {
                    "1 case".to_string()
                } else {
                    format!("{} cases", report.unreached)
                },
                args.case_seconds
            )
        } else {
            String::new()
        }
    );
    let code = emit(&summary)?;
    Ok(report.exit_code(code, args.strict))
}
