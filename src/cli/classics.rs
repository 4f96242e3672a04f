//! `retrograde nim`, `can-i-win`, `ends`: the small seed games.

use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use retrograde::games::can_i_win::solve_can_i_win;
use retrograde::games::ends::{solve_ends, End};
use retrograde::games::nim::solve_nim;
use retrograde::solve::in_pool;
use serde_json::json;

use super::output::{emit, emit_json, grouped};
use super::RunArgs;

/// Arguments of `retrograde nim`.
#[derive(Debug, Args)]
pub struct NimArgs {
    /// Stones on the heap.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    stones: i64,

    /// Most stones one move takes.
    #[arg(
        long,
        value_name = "M",
        default_value_t = 3,
        allow_negative_numbers = true
    )]
    max_take: i64,

    #[command(flatten)]
    run: RunArgs,
}

/// Arguments of `retrograde can-i-win`.
#[derive(Debug, Args)]
pub struct CanIWinArgs {
    /// The numbers are 1..=M (M ≤ 30).
    #[arg(long, value_name = "M", allow_negative_numbers = true)]
    max: i64,

    /// The total to reach.
    #[arg(long, value_name = "T", allow_negative_numbers = true)]
    total: i64,

    #[command(flatten)]
    run: RunArgs,
}

/// Arguments of `retrograde ends`.
#[derive(Debug, Args)]
pub struct EndsArgs {
    /// The row of non-negative integers, e.g. 1,100,3.
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    nums: String,

    #[command(flatten)]
    run: RunArgs,
}

fn non_negative(value: i64, what: &str) -> anyhow::Result<u64> {
    u64::try_from(value).map_err(|_| anyhow::anyhow!("{what} {value} must be 0 or more"))
}

/// Solves Nim for every heap up to `--stones`.
pub fn nim(args: &NimArgs) -> anyhow::Result<ExitCode> {
    let stones = non_negative(args.stones, "--stones")?;
    let max_take = non_negative(args.max_take, "--max-take")?;
    let clock = Instant::now();
    let table = solve_nim(stones, max_take, &args.run.budget())?;
    let period = table.period();
    let seconds = clock.elapsed().as_secs_f64();
    let wins = table.wins(stones);
    if args.run.json {
        return emit_json(&json!({
            "first_player_wins": wins,
            "period": period,
            "stones": stones,
            "max_take": max_take,
            "losing_heaps": table.losses(),
            "seconds": seconds,
        }));
    }
    let losing: Vec<String> = (0..period.min(stones + 1))
        .filter(|&h| !table.wins(h))
        .map(|h| h.to_string())
        .collect();
    emit(&format!(
        "Nim: {} stones, take 1..={max_take}\nanswer      {wins} (the first player {})\npattern     period {period}: the player to move loses iff the heap mod {period} is in {{{}}}\ntable       heaps 0..={}: {} won, {} lost\nsolved in   {seconds:.3} s\n",
        grouped(stones),
        if wins { "wins" } else { "loses" },
        losing.join(", "),
        grouped(stones),
        grouped(stones + 1 - table.losses()),
        grouped(table.losses()),
    ))
}

/// Solves Can I Win over every set of used numbers.
pub fn can_i_win(args: &CanIWinArgs) -> anyhow::Result<ExitCode> {
    let max = u32::try_from(args.max)
        .map_err(|_| anyhow::anyhow!("--max {} must be between 0 and 30", args.max))?;
    let clock = Instant::now();
    let table = in_pool(args.run.threads(), || {
        solve_can_i_win(max, args.total, &args.run.budget())
    })??;
    let seconds = clock.elapsed().as_secs_f64();
    let wins = table.first_player_wins();
    if args.run.json {
        return emit_json(&json!({
            "first_player_wins": wins,
            "states": table.states(),
            "winning_states": table.winning_states(),
            "seconds": seconds,
        }));
    }
    emit(&format!(
        "Can I Win: numbers 1..={max}, total {}\nanswer      {wins}\ntable       {} sets of used numbers, {} won by the player to move\nsolved in   {seconds:.3} s\n",
        args.total,
        grouped(table.states()),
        grouped(table.winning_states()),
    ))
}

/// Solves every interval of the row.
pub fn ends(args: &EndsArgs) -> anyhow::Result<ExitCode> {
    let numbers = args
        .nums
        .split(',')
        .map(|t| {
            let t = t.trim();
            t.parse::<u64>().map_err(|_| {
                if t.starts_with('-') {
                    anyhow::anyhow!("{t:?} is negative; the numbers must be 0 or more")
                } else {
                    anyhow::anyhow!("{t:?} is not a number; give a list such as 1,100,3")
                }
            })
        })
        .collect::<anyhow::Result<Vec<u64>>>()?;
    let clock = Instant::now();
    let solution = in_pool(args.run.threads(), || {
        solve_ends(&numbers, &args.run.budget())
    })??;
    let seconds = clock.elapsed().as_secs_f64();
    let line = solution.line();
    let name = |end: End| if end == End::Left { "left" } else { "right" };
    if args.run.json {
        return emit_json(&json!({
            "difference": solution.difference,
            "first_score": solution.first_score(),
            "second_score": solution.second_score(),
            "first_wins_or_ties": solution.difference >= 0,
            "line": line.iter().map(|&(end, n)| json!({"end": name(end), "number": n})).collect::<Vec<_>>(),
            "seconds": seconds,
        }));
    }
    let mut play = String::new();
    for (turn, &(end, n)) in line.iter().enumerate().take(40) {
        let _ = write!(
            play,
            "{}{} {} {n}",
            if turn > 0 { ", " } else { "" },
            if turn % 2 == 0 { "1st" } else { "2nd" },
            name(end)
        );
    }
    if line.len() > 40 {
        let _ = write!(play, ", … ({} moves)", line.len());
    }
    emit(&format!(
        "Take from either end: {} numbers\ndifference  {} (first minus second)\nscores      first {}, second {}\nanswer      {} (the first player {})\nline        {play}\nsolved in   {seconds:.3} s\n",
        numbers.len(),
        solution.difference,
        solution.first_score(),
        solution.second_score(),
        solution.difference >= 0,
        if solution.difference > 0 { "wins" } else if solution.difference == 0 { "ties" } else { "loses" },
    ))
}
