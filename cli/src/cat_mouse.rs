//! `retrograde cat-mouse`: Cat and Mouse on a graph (LeetCode 913).

use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, ValueEnum};
use retrograde::{
    disk::SavedGame,
    games::cat_mouse::{winner_totals, CatMouseGraph, Player, Turn, WinnerTotals},
    language::OutcomeTable,
};
use serde_json::json;

use retrograde::language::plies;

use super::args::{OutArgs, RunArgs, Timing};
use super::output::{emit, emit_json, grouped};

/// Arguments of `retrograde cat-mouse`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("input").required(true).args(["graph", "graph_file"])))]
pub struct CatMouseArgs {
    /// The graph as JSON adjacency lists: `graph[a]` lists the nodes a move from `a` reaches.
    #[arg(long, value_name = "JSON")]
    graph: Option<String>,

    /// A file holding the graph's JSON.
    #[arg(long, value_name = "PATH")]
    graph_file: Option<std::path::PathBuf>,

    /// The mouse's start node.
    #[arg(
        long,
        value_name = "M",
        default_value_t = 1,
        allow_negative_numbers = true
    )]
    mouse: i64,

    /// The cat's start node (never 0, the hole).
    #[arg(
        long,
        value_name = "C",
        default_value_t = 2,
        allow_negative_numbers = true
    )]
    cat: i64,

    /// Who moves first from the start.
    #[arg(long, value_enum, default_value_t = TurnArg::Mouse)]
    turn: TurnArg,

    #[command(flatten)]
    run: RunArgs,

    #[command(flatten)]
    out: OutArgs,

    #[command(flatten)]
    estimate: super::estimate::EstimateArg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum TurnArg {
    Mouse,
    Cat,
}

/// Reads, validates and solves; prints the report.
pub fn run(args: &CatMouseArgs) -> anyhow::Result<ExitCode> {
    let text = match (&args.graph, &args.graph_file) {
        (Some(text), _) => text.clone(),
        (None, Some(path)) => retrograde::disk::read_regular_text(path)?,
        (None, None) => unreachable!("clap requires --graph or --graph-file"),
    };
    let lists: Vec<Vec<i64>> = serde_json::from_str(&text)
        .context("the graph is not JSON adjacency lists such as [[2,5],[3],[0,4,5]]")?;
    drop(text);
    let game = CatMouseGraph::from_signed(&lists)?;
    let n = game.nodes();
    let node = |v: i64, who: &str, low: u32| {
        u32::try_from(v)
            .map_err(|_| anyhow::anyhow!("the {who}'s node {v} is out of range {low}..{n}"))
    };
    let turn = match args.turn {
        TurnArg::Mouse => Turn::Mouse,
        TurnArg::Cat => Turn::Cat,
    };
    let start = game.start_state(
        node(args.mouse, "mouse", 0)?,
        node(args.cat, "cat", 1)?,
        turn,
    )?;

    // consumed, so the signed lists are gone before the solve
    let lists: Vec<Vec<u32>> = lists
        .into_iter()
        .map(|l| l.into_iter().map(|b| b as u32).collect())
        .collect();
    if args.estimate.estimate {
        return super::estimate::ranked_game("cat-mouse", &game, &args.run);
    }
    let (table, timing) = solve_retrograde(&game, SavedGame::Graph(lists), &args.run, &args.out)?;
    report(&game, &table, start, &timing, args.run.json)
}

/// Prints the answer for `start` and the table's counts.
pub fn report(
    game: &CatMouseGraph,
    table: &OutcomeTable,
    start: u64,
    timing: &Timing,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let n = game.nodes();
    let WinnerTotals {
        mouse_wins,
        cat_wins,
        draws,
    } = winner_totals(table);
    let winner = game.winner(table, start);
    let (outcome, code) = match winner {
        Some(Player::Mouse) => ("mouse", 1),
        Some(Player::Cat) => ("cat", 2),
        None => ("draw", 0),
    };
    let depth = table.depth(start);
    let states = table.states();
    let p = game.unrank(start);
    let turn_name = if p.turn == Turn::Mouse {
        "mouse"
    } else {
        "cat"
    };

    if json {
        let mut value = json!({
            "nodes": n,
            "states": states,
            "mouse_wins": mouse_wins,
            "cat_wins": cat_wins,
            "draws": draws,
            "start": {"mouse": p.mouse, "cat": p.cat, "turn": turn_name},
            "outcome": outcome,
            "code": code,
            "depth": depth,
        });
        if let serde_json::Value::Object(map) = &mut value {
            map.extend(timing.json_keys(Some(states)));
        }
        return emit_json(&value);
    }
    let depth_line = match depth {
        Some(0) => "0 (the start is already over)".to_string(),
        Some(d) => format!("{} to the end under perfect play", plies(d)),
        None => "none (a drawn position never ends)".to_string(),
    };
    emit(&format!(
        "Cat and Mouse on a graph: {nodes} nodes, {states_g} states\n\
         start       mouse {m}, cat {c}, {turn_name} to move\n\
         answer      {code} ({outcome_text})\n\
         depth       {depth_line}\n\
         mouse wins  {mw} states\n\
         cat wins    {cw} states\n\
         draws       {dr} states\n\
         {timing_line}",
        nodes = grouped(u64::from(n)),
        states_g = grouped(states),
        m = p.mouse,
        c = p.cat,
        outcome_text = match winner {
            Some(Player::Mouse) => "the mouse wins",
            Some(Player::Cat) => "the cat wins",
            None => "draw",
        },
        mw = grouped(mouse_wins),
        cw = grouped(cat_wins),
        dr = grouped(draws),
        timing_line = timing.line(Some(states)),
    ))
}

/// Solves a game with the retrograde engine on the run's threads, budget
/// and progress bar, and saves the table if `--out` asks for it.
pub fn solve_retrograde<G: retrograde::language::RankedGame>(
    game: &G,
    saved: retrograde::disk::SavedGame,
    run: &RunArgs,
    out: &OutArgs,
) -> anyhow::Result<(retrograde::language::OutcomeTable, Timing)> {
    use retrograde::disk::SavedTable;
    out.check(&saved)?;
    let threads = run.threads();
    let budget = run.budget();
    let bar = run.progress();
    let clock = std::time::Instant::now();
    // the saved game's description is held during the solve too
    let (table, stats) = retrograde::Analyzer::new(budget, threads).solve_ranked(
        game,
        retrograde::host::Bytes(saved.heap_bytes()),
        &bar,
    )?;
    bar.finish();
    let timing = Timing {
        levels: Some(stats.levels),
        ..Timing::solved(clock.elapsed().as_secs_f64(), threads)
    };
    let table = SavedTable::Retrograde(table);
    out.save(&saved, &table)?;
    let SavedTable::Retrograde(table) = table else {
        unreachable!("built above")
    };
    Ok((table, timing))
}
