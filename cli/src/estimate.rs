//! `connect --estimate` and `mnk --estimate`: what each engine would take
//! on the board — positions, memory and time, projected — without solving
//! anything (the explicit gravity engine enumerates its first plies to
//! project from, as a solve does before it commits).
//!
//! The times come from measured rates on this project's 2-core machine:
//! the explicit gravity engine about [`GRAVITY_POSITIONS_PER_SECOND`]
//! (results/TIMINGS.md: 6×4 and 5×5 at 14–15 M positions/s), the dense
//! m,n,k engine [`MNK_SLOTS_PER_SECOND`] board slots a second (4×5 k=4:
//! 741 M slots in 57 s), the symbolic engine from its measured runs
//! ([`retrograde::engines::symbolic`]).

use retrograde::BoardSize;
use std::fmt::Write as _;
use std::process::ExitCode;

use retrograde::{
    engines::sparse::{project_gravity, PROJECTION_SEEN},
    engines::symbolic::{duration_in_words, project, Layout},
    games::gravity::Gravity,
    games::mnk::Mnk,
    host::{Budget, Bytes},
    Family,
};
use serde_json::{json, Value};

use super::engine_choice::{projected, search_command};
use super::output::{board_name, emit, emit_json, grouped};
use super::symbolic::EngineArgs;

/// Positions a second the explicit gravity engine solves at 2 threads.
pub const GRAVITY_POSITIONS_PER_SECOND: f64 = 14e6;
/// Board slots a second the dense m,n,k engine solves at 2 threads.
pub const MNK_SLOTS_PER_SECOND: f64 = 13e6;

/// One engine's projection, for the report.
struct Line {
    engine: &'static str,
    json: Value,
    text: String,
}

fn fits(budget: &Budget, bytes: u64) -> &'static str {
    if bytes <= budget.0 .0 {
        "within"
    } else {
        "over"
    }
}

/// The symbolic engine's line.
fn symbolic_line(layout: &Layout, count_only: bool) -> Line {
    match project(layout, count_only) {
        Some(p) => Line {
            engine: "symbolic",
            json: json!({
                "seconds_at_least": p.seconds,
                "measured": p.measured,
                "peak_bytes": p.peak_bytes,
                "basis": p.basis,
            }),
            text: format!("projected {}", projected(&p)),
        },
        None => Line {
            engine: "symbolic",
            json: json!({ "seconds_at_least": null, "basis": "smaller than any board measured" }),
            text: "seconds (smaller than any board measured)".into(),
        },
    }
}

/// Prints the lines (human or JSON) for the board.
fn print(
    family: Family,
    (cols, rows, k): (u32, u32, u32),
    budget: &Budget,
    lines: Vec<Line>,
    json_out: bool,
) -> anyhow::Result<ExitCode> {
    let search = search_command(family, cols, rows, k);
    if json_out {
        let mut engines = serde_json::Map::new();
        for l in lines {
            engines.insert(l.engine.into(), l.json);
        }
        return emit_json(&json!({
            "estimate": true,
            "cols": cols,
            "rows": rows,
            "k": k,
            "budget_bytes": budget.0 .0,
            "engines": engines,
            "search": search,
        }));
    }
    let mut out = format!(
        "{} {}, {k} in a row: an estimate, nothing solved (memory budget {})\n",
        match family {
            Family::Gravity => "gravity board",
            Family::Mnk => "m,n,k game",
        },
        board_name(cols, rows),
        budget.0
    );
    for l in lines {
        let _ = writeln!(out, "  {:<9} {}", l.engine, l.text);
    }
    let _ = writeln!(out, "  {:<9} {search}", "search");
    emit(&out)
}

/// `connect --estimate`.
pub fn connect(
    (cols, rows, k): (u32, u32, u32),
    engine: &EngineArgs,
    budget: &Budget,
    json_out: bool,
) -> anyhow::Result<ExitCode> {
    let game = Gravity::new(BoardSize { cols, rows, k })?;
    let layout = Layout::new(
        Family::Gravity,
        BoardSize { cols, rows, k },
        engine.encoding(Family::Gravity),
    )?;
    let mut lines = Vec::new();
    let p = project_gravity(&game, budget)?;
    let (low, high) = if p.exact { (1.0, 1.0) } else { PROJECTION_SEEN };
    // the engine holds each position and its mirror image once
    let bytes = |positions: f64| positions / 2.0 * p.bytes_per_position as f64;
    let (least, most) = (p.positions as f64 / high, p.positions as f64 / low);
    let seconds = |positions: f64| positions / GRAVITY_POSITIONS_PER_SECOND;
    let text = if p.exact {
        format!(
            "{} positions (every ply counted), {}, about {}: {} the budget",
            grouped(p.positions),
            Bytes(bytes(least) as u64),
            duration_in_words(seconds(least)),
            fits(budget, bytes(least) as u64)
        )
    } else {
        format!(
            "about {:.2e} positions projected from {} plies (projections have been {low}–{high} \
             times the true count): {} to {}, {} to {}; {} the budget",
            p.positions as f64,
            p.plies_counted,
            Bytes(bytes(least) as u64),
            Bytes(bytes(most) as u64),
            duration_in_words(seconds(least)),
            duration_in_words(seconds(most)),
            fits(budget, bytes(least) as u64)
        )
    };
    lines.push(Line {
        engine: "explicit",
        json: json!({
            "positions_projected": p.positions,
            "exact": p.exact,
            "plies_counted": p.plies_counted,
            "bytes_least": bytes(least) as u64,
            "bytes_most": bytes(most) as u64,
            "seconds_least": seconds(least),
            "seconds_most": seconds(most),
        }),
        text,
    });
    lines.push(symbolic_line(&layout, engine.count_only));
    print(Family::Gravity, (cols, rows, k), budget, lines, json_out)
}

/// `mnk --estimate`.
pub fn mnk(
    (cols, rows, k): (u32, u32, u32),
    engine: &EngineArgs,
    budget: &Budget,
    json_out: bool,
) -> anyhow::Result<ExitCode> {
    let mut lines = Vec::new();
    match Mnk::new(BoardSize { cols, rows, k }) {
        Ok(game) => {
            let slots = retrograde::engines::layered::board_slots(&game);
            let bytes = retrograde::engines::layered::estimate_bytes(&game);
            let seconds = slots as f64 / MNK_SLOTS_PER_SECOND;
            lines.push(Line {
                engine: "explicit",
                json: json!({ "board_slots": slots, "bytes": bytes.0, "seconds": seconds }),
                text: format!(
                    "{} board slots (every board of each ply, reachable or not), {bytes}, \
                     about {}: {} the budget",
                    grouped(slots),
                    duration_in_words(seconds),
                    fits(budget, bytes.0)
                ),
            });
        }
        Err(e) => lines.push(Line {
            engine: "explicit",
            json: json!({ "refused": super::output::in_flags(&e) }),
            text: format!("does not take the board: {}", super::output::in_flags(&e)),
        }),
    }
    match Layout::new(
        Family::Mnk,
        BoardSize { cols, rows, k },
        engine.encoding(Family::Mnk),
    ) {
        Ok(layout) => lines.push(symbolic_line(&layout, engine.count_only)),
        Err(e) => lines.push(Line {
            engine: "symbolic",
            json: json!({ "refused": super::output::in_flags(&e) }),
            text: format!("does not take the board: {}", super::output::in_flags(&e)),
        }),
    }
    print(Family::Mnk, (cols, rows, k), budget, lines, json_out)
}

/// `--estimate` of the commands whose games are solved whole by one
/// engine (cat-mouse, cat-mouse-grid, nim, can-i-win, ends).
#[derive(Debug, clap::Args, Clone, Default)]
pub struct EstimateArg {
    /// Solve nothing: print the states, the memory and the time the solve
    /// would take, against the memory budget.
    #[arg(long)]
    pub estimate: bool,
}

/// States a second the retrograde engine and the classics' solvers go
/// through at 2 threads (the 2,000-node Cat and Mouse bench graph, 8 M
/// states, in 74 ms: docs/GUIDE.md), taken low.
pub const STATES_PER_SECOND: f64 = 50e6;

/// Prints the estimate of a solve of `states` states in `bytes`.
pub fn states(
    game: &str,
    states: u64,
    bytes: Bytes,
    budget: &Budget,
    json_out: bool,
) -> anyhow::Result<ExitCode> {
    let seconds = states as f64 / STATES_PER_SECOND;
    if json_out {
        return emit_json(&json!({
            "estimate": true,
            "game": game,
            "states": states,
            "bytes": bytes.0,
            "seconds": seconds,
            "budget_bytes": budget.0 .0,
            "fits": bytes.0 <= budget.0 .0,
        }));
    }
    emit(&format!(
        "{game}: an estimate, nothing solved: {} states, {bytes}, {}: {} the memory budget of {}\n",
        grouped(states),
        if seconds < 1.0 {
            "under a second".to_string()
        } else {
            format!("about {}", duration_in_words(seconds))
        },
        fits(budget, bytes.0),
        budget.0
    ))
}

/// [`states`] of a game the retrograde engine solves (cat-mouse and
/// cat-mouse-grid): its states and the engine's estimate of their bytes.
pub fn ranked_game(
    name: &str,
    game: &impl retrograde::language::RankedGame,
    run: &super::args::RunArgs,
) -> anyhow::Result<ExitCode> {
    let bytes = retrograde::language::retrograde_bytes(game.state_count(), game.max_move_count());
    states(name, game.state_count(), bytes, &run.budget(), run.json)
}
