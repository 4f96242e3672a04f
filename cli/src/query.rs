//! `retrograde query FILE`: answers from a saved table, without solving
//! again, with the same report as the solving subcommand.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::bail;
use clap::{Args, ValueEnum};
use retrograde::{
    disk::{GravityValues, MappedGravity, SavedGame, SavedTable, BLOCK_POSITIONS, FORMAT_VERSION},
    games::cat_mouse::{winner_totals, CatMouseGraph, Turn},
    games::cat_mouse_grid::CatMouseGrid,
    host::Bytes,
    language::OutcomeTable,
    OpenTable,
};
use serde_json::json;

use super::args::{RunArgs, Timing};
use super::classics::{IntervalArgs, UsedArgs};
use super::output::{board_name, emit, emit_json, grouped};
use super::position::PositionArgs;

/// Arguments of `retrograde query`.
#[derive(Debug, Args)]
pub struct QueryArgs {
    /// A table written with `--out`.
    file: PathBuf,

    /// Certify the table and describe it: game, parameters, counts, size.
    /// A Connect Four table is checked whole against the rules of its
    /// board (every value the minimax of its children, every ply exactly
    /// the positions legal play reaches, every count derived, every
    /// checksum); other tables are so checked whenever they are loaded.
    #[arg(long, visible_alias = "info")]
    check: bool,

    /// m,n,k and gravity tables: the position to answer.
    #[command(flatten)]
    position: PositionArgs,

    /// m,n,k and gravity tables: answer every position of FILE ('-':
    /// standard input), one move list a line (a blank line is the empty
    /// board), each on one line of stdout (--json: one object, with
    /// `moves_played`) in input order as it is read. A bad line is
    /// answered in its place with an error (JSON: an "error" key) and the
    /// rest go on; the exit code is then 2.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["moves", "board", "check"])]
    positions: Option<PathBuf>,

    /// Cat-and-mouse tables: the mouse's node (graph) or ROW,COL (grid, counted from 1 at the top left).
    #[arg(long, value_name = "M")]
    mouse: Option<String>,

    /// Cat-and-mouse tables: the cat's node (graph) or ROW,COL (grid, counted from 1 at the top left).
    #[arg(long, value_name = "C")]
    cat: Option<String>,

    /// Cat-and-mouse tables: who moves [default: mouse]
    #[arg(long, value_enum)]
    turn: Option<TurnArg>,

    /// Grid tables: the move limit [default: 1000]
    #[arg(long, value_name = "L", allow_negative_numbers = true)]
    max_moves: Option<i64>,

    /// Nim tables: the heap to answer [default: the table's largest]
    #[arg(long, value_name = "N")]
    stones: Option<u64>,

    #[command(flatten)]
    used: UsedArgs,

    #[command(flatten)]
    interval: IntervalArgs,

    #[command(flatten)]
    run: RunArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum TurnArg {
    Mouse,
    Cat,
}

impl QueryArgs {
    /// The position options given, by name, for the check against the
    /// table's kind.
    fn options_given(&self) -> Vec<&'static str> {
        let given = [
            ("--moves", self.position.moves.is_some()),
            ("--positions", self.positions.is_some()),
            ("--board", self.position.board.is_some()),
            ("--mouse", self.mouse.is_some()),
            ("--cat", self.cat.is_some()),
            ("--turn", self.turn.is_some()),
            ("--max-moves", self.max_moves.is_some()),
            ("--stones", self.stones.is_some()),
            ("--used", self.used.used.is_some()),
            ("--from", self.interval.from.is_some()),
            ("--to", self.interval.to.is_some()),
        ];
        given.iter().filter(|(_, g)| *g).map(|(n, _)| *n).collect()
    }

    /// Refuses a position option that a table of `kind` does not answer.
    fn refuse_options_not_of(&self, kind: &str) -> anyhow::Result<()> {
        if let Some(wrong) = self
            .options_given()
            .into_iter()
            .find(|o| !options_of(kind).contains(o))
        {
            let fits = options_of(kind).join(", ");
            bail!(
                "{} holds a {kind} table, which {wrong} does not ask (it takes {fits})",
                self.file.display()
            );
        }
        Ok(())
    }
}

/// The position options each kind of table answers.
fn options_of(kind: &str) -> &'static [&'static str] {
    match kind {
        "cat-mouse" => &["--mouse", "--cat", "--turn"],
        "cat-mouse-grid" => &["--mouse", "--cat", "--turn", "--max-moves"],
        "mnk" | "connect" => &["--moves", "--board", "--positions"],
        "nim" => &["--stones"],
        "can-i-win" => &["--used"],
        "ends" => &["--from", "--to"],
        _ => &[],
    }
}

/// Loads the table and answers.
pub fn run(args: &QueryArgs) -> anyhow::Result<ExitCode> {
    let clock = Instant::now();
    let size = std::fs::metadata(&args.file)
        .map_err(|e| anyhow::anyhow!("{}: {}", args.file.display(), retrograde::host::os_text(&e)))?
        .len();
    let open = OpenTable::open(&args.file, &args.run.budget())?;
    if let Some(path) = &args.positions {
        args.refuse_options_not_of(open.kind_name())?;
        return answer_lines(&open, path, args.run.json);
    }
    if let OpenTable::Connect { table, .. } = &open {
        return gravity(args, &open, table, size, clock);
    }
    let (game, table) = match open {
        OpenTable::Symbolic { board, table } => {
            args.refuse_options_not_of(board.family().name())?;
            return super::symbolic::query(&table, &args.position, args.check, &args.run, clock);
        }
        OpenTable::Connect { .. } => unreachable!("answered above"),
        OpenTable::Mnk { board, solution } => (
            SavedGame::Mnk {
                rows: board.rows(),
                cols: board.cols(),
                k: board.k(),
            },
            SavedTable::Layered(solution),
        ),
        OpenTable::Other(game, table) => (game, table),
    };
    let timing = Timing::loaded(clock.elapsed().as_secs_f64());
    let file = args.file.display();
    args.refuse_options_not_of(game.kind_name())?;
    if args.check {
        return info(args, &game, &table);
    }
    let json = args.run.json;
    let turn = if args.turn == Some(TurnArg::Cat) {
        Turn::Cat
    } else {
        Turn::Mouse
    };
    match (&game, &table) {
        (SavedGame::Graph(graph), SavedTable::Retrograde(t)) => {
            let g = CatMouseGraph::new(graph)?;
            let node = |text: &Option<String>, default: u32, who: &str| -> anyhow::Result<u32> {
                match text {
                    None => Ok(default),
                    Some(s) => s
                        .trim()
                        .parse()
                        .map_err(|_| anyhow::anyhow!("--{who} {s:?} is not a node number")),
                }
            };
            let start = g.start_state(
                node(&args.mouse, 1, "mouse")?,
                node(&args.cat, 2, "cat")?,
                turn,
            )?;
            let timing = Timing {
                levels: Some(t.levels()),
                ..timing
            };
            super::cat_mouse::report(&g, t, start, &timing, json)
        }
        (
            SavedGame::Grid {
                rows,
                cat_jump,
                mouse_jump,
            },
            SavedTable::Retrograde(t),
        ) => {
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            let g = CatMouseGrid::new_within(&rows, *cat_jump, *mouse_jump, &args.run.budget())?;
            let grid_turn = args.turn.map(|t| match t {
                TurnArg::Mouse => super::cat_mouse_grid::GridTurn::Mouse,
                TurnArg::Cat => super::cat_mouse_grid::GridTurn::Cat,
            });
            let start = super::cat_mouse_grid::grid_state(
                &g,
                args.mouse.as_deref(),
                args.cat.as_deref(),
                grid_turn,
            )?;
            let max_moves = super::cat_mouse_grid::max_moves_of(args.max_moves.unwrap_or(1000))?;
            let timing = Timing {
                levels: Some(t.levels()),
                threads: args.run.threads(),
                ..timing
            };
            super::cat_mouse_grid::report(&g, t, start, max_moves, &timing, json)
        }
        (SavedGame::Mnk { rows, cols, k }, SavedTable::Layered(solution)) => {
            diagram_fits_table(&args.position, *cols, *rows)?;
            let (board, game) = super::mnk::boards(Some(*cols), Some(*rows), *k, &args.position)
                .map_err(|e| {
                    anyhow::anyhow!("{e} (the table solves {})", board_name(*cols, *rows))
                })?;
            if args.position.given() {
                let p = args.position.position(&game)?;
                let oracle = table.oracle().expect("an m,n,k table answers positions");
                super::mnk::answer_position(&game, oracle.as_ref(), &p, &timing, json)
            } else {
                super::mnk::report(&board, solution, &timing, json)
            }
        }
        (SavedGame::Nim { stones, .. }, SavedTable::Nim(t)) => {
            super::classics::nim_report(t, args.stones.unwrap_or(*stones), &timing, json)
        }
        (SavedGame::CanIWin { .. }, SavedTable::CanIWin(t)) => {
            super::classics::can_i_win_report(t, &args.used, &timing, json)
        }
        (SavedGame::Ends { .. }, SavedTable::Ends(t)) => {
            super::classics::ends_report(t, &args.interval, &timing, json)
        }
        _ => bail!("{file}: the table does not fit its game"),
    }
}

/// Answers from a gravity table, mapped into memory: only the blocks a
/// position needs are read (and their checksums checked); `--check`, and
/// the report of the counts, certify the whole table first.
fn gravity(
    args: &QueryArgs,
    open: &OpenTable,
    table: &MappedGravity,
    size: u64,
    clock: Instant,
) -> anyhow::Result<ExitCode> {
    args.refuse_options_not_of("connect")?;
    let size = match table {
        MappedGravity::Parted(parted) => parted.bytes(),
        MappedGravity::Single(_) => size,
    };
    let (cols, rows, k) = table.game().dimensions();
    if args.check || !args.position.given() {
        // the counts printed are derived from the stored positions
        let bar = args.run.progress();
        let budget = args.run.budget();
        retrograde::host::in_pool(args.run.threads(), || table.certify(&budget, &bar))??;
        bar.finish();
    }
    if args.check {
        let mut summary = retrograde::facade::gravity_summary(table)?;
        if let serde_json::Value::Object(map) = &mut summary {
            map.retain(|key, _| ["positions", "terminal", "value"].contains(&key.as_str()));
        }
        let stored = table.stored();
        let blocks = stored.div_ceil(BLOCK_POSITIONS as u64);
        let positions = summary["positions"].as_u64().unwrap_or(0).max(1);
        let per_position = size as f64 / positions as f64;
        let mut extra = json!({
            "stored_positions": stored,
            "blocks": blocks,
            "bytes_per_position": per_position,
        });
        if let MappedGravity::Parted(parted) = table {
            // a distributed solve's table: its size is the parts'
            extra["parts"] = json!(parted.ranks());
        }
        let lines = format!(
            "blocks      {} of up to {BLOCK_POSITIONS} stored positions (mirror images once), every checksum good\ncertified   every value the minimax of its moves under the rules of the board, every count derived from the positions\n",
            grouped(blocks)
        );
        return print_info(
            args,
            "connect",
            &json!({"cols": cols, "rows": rows, "k": k}),
            &summary,
            size,
            Some((
                extra,
                &format!(", {per_position:.2} bytes a position"),
                &lines,
            )),
        );
    }
    diagram_fits_table(&args.position, cols, rows)?;
    let (_, game) = super::connect::boards(cols, rows, k)?;
    let timing = Timing::loaded(clock.elapsed().as_secs_f64());
    if args.position.given() {
        let p = args.position.position(&game)?;
        let oracle = open
            .oracle()
            .expect("a Connect Four table answers positions");
        super::connect::answer_position(&game, oracle.as_ref(), &p, &timing, args.run.json)
    } else {
        super::connect::report(table, &timing, args.run.json)
    }
}

/// A cat-and-mouse table's totals, for `--check`.
fn totals_json(table: &OutcomeTable) -> serde_json::Value {
    let t = winner_totals(table);
    json!({"states": table.states(), "mouse_wins": t.mouse_wins, "cat_wins": t.cat_wins, "draws": t.draws})
}

fn info(args: &QueryArgs, game: &SavedGame, table: &SavedTable) -> anyhow::Result<ExitCode> {
    let size = std::fs::metadata(&args.file)?.len();
    let (parameters, counts) = match (game, table) {
        (SavedGame::Graph(graph), SavedTable::Retrograde(t)) => {
            (json!({"nodes": graph.len()}), totals_json(t))
        }
        (
            SavedGame::Grid {
                rows,
                cat_jump,
                mouse_jump,
            },
            SavedTable::Retrograde(t),
        ) => (
            json!({"rows": rows.len(), "cols": rows.first().map_or(0, |r| r.chars().count()), "cat_jump": cat_jump, "mouse_jump": mouse_jump}),
            totals_json(t),
        ),
        (SavedGame::Mnk { rows, cols, k }, SavedTable::Layered(s)) => {
            let t = s.totals();
            (
                json!({"cols": cols, "rows": rows, "k": k}),
                json!({"positions": t.positions, "terminal": t.terminal, "classes": t.classes, "value": super::mnk::empty_board_value(s)}),
            )
        }
        (SavedGame::Nim { stones, max_take }, SavedTable::Nim(t)) => (
            json!({"stones": stones, "max_take": max_take}),
            json!({"heaps": t.stones() + 1, "lost_heaps": t.losses(), "period": t.period()}),
        ),
        (SavedGame::CanIWin { max, total }, SavedTable::CanIWin(t)) => (
            json!({"max": max, "total": total}),
            json!({"states": t.states(), "winning_states": t.winning_states(), "first_player_wins": t.first_player_wins()}),
        ),
        (SavedGame::Ends { numbers }, SavedTable::Ends(t)) => (
            json!({"numbers": numbers.len()}),
            json!({"intervals": numbers.len() * (numbers.len() + 1) / 2, "difference": t.difference}),
        ),
        _ => bail!("the table does not fit its game"),
    };
    print_info(args, game.kind_name(), &parameters, &counts, size, None)
}

/// Prints `--check` (human or JSON): game, format version, parameters,
/// counts and size, then what `more` adds — JSON keys, a note inside the
/// size line's parentheses and lines of text.
fn print_info(
    args: &QueryArgs,
    kind: &str,
    parameters: &serde_json::Value,
    counts: &serde_json::Value,
    size: u64,
    more: Option<(serde_json::Value, &str, &str)>,
) -> anyhow::Result<ExitCode> {
    let (extra, size_note, lines) = more.unwrap_or((json!({}), "", ""));
    if args.run.json {
        let mut value = json!({
            "game": kind,
            "format_version": FORMAT_VERSION,
            "parameters": parameters,
            "counts": counts,
            "file_bytes": size,
        });
        if let (serde_json::Value::Object(map), serde_json::Value::Object(extra)) =
            (&mut value, extra)
        {
            map.extend(extra);
        }
        return emit_json(&value);
    }
    emit(&format!(
        "file        {}\ngame        {kind} (format version {FORMAT_VERSION})\nparameters  {parameters}\ncounts      {counts}\nsize        {} bytes ({}{size_note})\n{lines}",
        args.file.display(),
        grouped(size),
        Bytes(size)
    ))
}

/// Answers every line of `path` from a board table (`--positions`): one
/// answer a line, in order, written as they come (a reader that went away
/// ends the run quietly); bad lines answered with their error in their
/// place, then told on stderr with exit code 2.
fn answer_lines(table: &OpenTable, path: &std::path::Path, json: bool) -> anyhow::Result<ExitCode> {
    use super::batch::answers::{Answered, Tally};
    use super::batch::lines::{Line, Lines};
    use std::io::Write as _;
    let lines = Lines::open(path)?;
    let name = lines.name().to_string();
    let Some(board) = table.board() else {
        bail!(
            "--positions answers board positions; this is a {} table",
            table.kind_name()
        );
    };
    let mut tally = Tally::default();
    let mut out = std::io::BufWriter::with_capacity(64 << 10, std::io::stdout().lock());
    for read in lines {
        let answered = match read.line {
            Line::Text(moves) => match board.play_moves(&moves).and_then(|p| table.answer(&p)) {
                Ok(answer) => Answered::Looked { moves, answer },
                Err(e) => Answered::Bad {
                    error: format!("{name}, line {}: {e}", read.number),
                    moves: Some(moves),
                },
            },
            Line::Bad(error) => Answered::Bad { moves: None, error },
            Line::Unreadable(why) => {
                out.flush()?;
                bail!(why);
            }
        };
        tally.count(read.number, &answered);
        let text = answered.text(json)?.expect("a line's answer has a text");
        if let Err(e) = out.write_all(text.as_bytes()) {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                return Ok(ExitCode::SUCCESS);
            }
            return Err(e.into());
        }
    }
    match out.flush() {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(ExitCode::SUCCESS),
        other => other?,
    }
    tally.refuse_bad_lines(&name)?;
    Ok(ExitCode::SUCCESS)
}

/// Refuses a `--board` diagram of another size than the table's board,
/// naming the two sizes (issue 73, line 16: the refusal named a `--cols`
/// the user never gave).
fn diagram_fits_table(
    position: &super::position::PositionArgs,
    cols: u32,
    rows: u32,
) -> anyhow::Result<()> {
    if let Some((c, r)) = position.diagram_size()? {
        if (c, r) != (cols, rows) {
            anyhow::bail!(
                "--board shows {}, and the table solves {}",
                board_name(c, r),
                board_name(cols, rows)
            );
        }
    }
    Ok(())
}
