//! `retrograde nim`, `can-i-win`, `ends`: the small classics. Each solves
//! every state; a position option (`--stones`, `--used`, `--from/--to`)
//! asks about one of them, on the solving command and on `query` alike.

use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use retrograde::{
    disk::{SavedGame, SavedTable},
    games::can_i_win::{solve_can_i_win_reporting, CanIWinTable},
    games::ends::{solve_ends, End, EndsSolution},
    games::nim::{solve_nim_reporting, NimTable},
    host::in_pool,
};
use serde_json::{json, Value};

use super::args::{OutArgs, RunArgs, Timing};
use super::output::{emit, emit_json, grouped};

/// Arguments of `retrograde nim`.
#[derive(Debug, Args)]
pub struct NimArgs {
    /// Stones on the heap; every heap from 0 up to it is solved.
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

    #[command(flatten)]
    out: OutArgs,

    #[command(flatten)]
    estimate: super::estimate::EstimateArg,
}

/// Arguments of `retrograde can-i-win`.
#[derive(Debug, Args)]
pub struct CanIWinArgs {
    /// The numbers are 1 to M (M at most 30).
    #[arg(long, value_name = "M", allow_negative_numbers = true)]
    max: i64,

    /// The total to reach.
    #[arg(long, value_name = "T", allow_negative_numbers = true)]
    total: i64,

    #[command(flatten)]
    position: UsedArgs,

    #[command(flatten)]
    run: RunArgs,

    #[command(flatten)]
    out: OutArgs,

    #[command(flatten)]
    estimate: super::estimate::EstimateArg,
}

/// Arguments of `retrograde ends`.
#[derive(Debug, Args)]
pub struct EndsArgs {
    /// The row of non-negative integers, e.g. 1,100,3.
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    nums: String,

    #[command(flatten)]
    position: IntervalArgs,

    #[command(flatten)]
    run: RunArgs,

    #[command(flatten)]
    out: OutArgs,

    #[command(flatten)]
    estimate: super::estimate::EstimateArg,
}

/// `--used`: a position of Can I Win.
#[derive(Debug, Args, Clone, Default)]
pub struct UsedArgs {
    /// Answer for the position where these numbers are used, e.g. 1,5,7.
    #[arg(long, value_name = "LIST")]
    pub used: Option<String>,
}

/// `--from` / `--to`: a position of take-from-either-end.
#[derive(Debug, Args, Clone, Default)]
pub struct IntervalArgs {
    /// Answer for the row from this number on (counted from 1).
    #[arg(long, value_name = "I")]
    pub from: Option<usize>,

    /// Answer for the row up to this number (counted from 1).
    #[arg(long, value_name = "J")]
    pub to: Option<usize>,
}

fn non_negative(value: i64, what: &str) -> anyhow::Result<u64> {
    u64::try_from(value).map_err(|_| anyhow::anyhow!("{what} {value} must be 0 or more"))
}

/// Solves Nim for every heap up to `--stones`.
pub fn nim(args: &NimArgs) -> anyhow::Result<ExitCode> {
    let stones = non_negative(args.stones, "--stones")?;
    let max_take = non_negative(args.max_take, "--max-take")?;
    if args.estimate.estimate {
        return super::estimate::states(
            "nim",
            stones.saturating_add(1),
            retrograde::games::nim::estimate_bytes(stones),
            &args.run.budget(),
            args.run.json,
        );
    }
    args.out.check(&SavedGame::Nim { stones, max_take })?;
    let clock = Instant::now();
    let bar = args.run.progress();
    let table = solve_nim_reporting(stones, max_take, &args.run.budget(), &bar)?;
    bar.finish();
    let timing = Timing::solved(clock.elapsed().as_secs_f64(), 1);
    let table = save(
        &args.out,
        SavedGame::Nim { stones, max_take },
        SavedTable::Nim(table),
    )?;
    let SavedTable::Nim(table) = table else {
        unreachable!("built above")
    };
    nim_report(&table, stones, &timing, args.run.json)
}

/// Saves the table if `--out` asks for it, and hands it back.
fn save(out: &OutArgs, game: SavedGame, table: SavedTable) -> anyhow::Result<SavedTable> {
    out.save(&game, &table)?;
    Ok(table)
}

/// Appends the timing keys to a JSON object.
fn with_timing(mut value: Value, timing: &Timing, states: u64) -> Value {
    if let Value::Object(map) = &mut value {
        map.extend(timing.json_keys(Some(states)));
    }
    value
}

/// Prints the answer for a heap of `heap` stones and the table's pattern.
pub fn nim_report(
    table: &NimTable,
    heap: u64,
    timing: &Timing,
    json: bool,
) -> anyhow::Result<ExitCode> {
    if heap > table.stones() {
        anyhow::bail!(
            "--stones {heap} is beyond the table, which holds heaps 0 to {}",
            table.stones()
        );
    }
    let (period, max_take, stones) = (table.period(), table.max_take(), table.stones());
    let wins = table.wins(heap);
    if json {
        let value = json!({
            "first_player_wins": wins,
            "period": period,
            "stones": heap,
            "max_take": max_take,
            "table_stones": stones,
            "losing_heaps": table.losses(),
        });
        return emit_json(&with_timing(value, timing, stones + 1));
    }
    let losing: Vec<String> = (0..period.min(stones + 1))
        .filter(|&h| !table.wins(h))
        .map(|h| h.to_string())
        .collect();
    emit(&format!(
        "Nim: {} stones, take 1 to {max_take}\nanswer      {wins} (the first player {})\npattern     period {period}: the player to move loses when the heap modulo {period} is one of {{{}}}\ntable       heaps 0 to {}: {} won, {} lost\n{}",
        grouped(heap),
        if wins { "wins" } else { "loses" },
        losing.join(", "),
        grouped(stones),
        grouped(stones + 1 - table.losses()),
        grouped(table.losses()),
        timing.line(Some(stones + 1)),
    ))
}

/// Solves Can I Win over every set of used numbers.
pub fn can_i_win(args: &CanIWinArgs) -> anyhow::Result<ExitCode> {
    let max = u32::try_from(args.max)
        .map_err(|_| anyhow::anyhow!("--max {} must be between 0 and 30", args.max))?;
    if args.estimate.estimate {
        if max > 30 {
            anyhow::bail!("--max {max} must be between 0 and 30");
        }
        return super::estimate::states(
            "can-i-win",
            1u64 << max,
            retrograde::games::can_i_win::estimate_bytes(max),
            &args.run.budget(),
            args.run.json,
        );
    }
    args.out.check(&SavedGame::CanIWin {
        max,
        total: args.total,
    })?;
    let threads = args.run.threads();
    let clock = Instant::now();
    let bar = args.run.progress();
    let table = in_pool(threads, || {
        solve_can_i_win_reporting(max, args.total, &args.run.budget(), &bar)
    })??;
    bar.finish();
    let timing = Timing::solved(clock.elapsed().as_secs_f64(), threads);
    let game = SavedGame::CanIWin {
        max,
        total: args.total,
    };
    let SavedTable::CanIWin(table) = save(&args.out, game, SavedTable::CanIWin(table))? else {
        unreachable!("built above")
    };
    can_i_win_report(&table, &args.position, &timing, args.run.json)
}

/// Prints LeetCode's answer and, with `--used`, the value of that state.
pub fn can_i_win_report(
    table: &CanIWinTable,
    position: &UsedArgs,
    timing: &Timing,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let wins = table.first_player_wins();
    let used = position
        .used
        .as_deref()
        .map(|list| used_mask(list, table.max()))
        .transpose()?;
    let mover_wins = used.map(|mask| table.wins(mask));
    if json {
        let mut value = json!({
            "first_player_wins": wins,
            "states": table.states(),
            "winning_states": table.winning_states(),
        });
        if let (Some(list), Some(w)) = (&position.used, mover_wins) {
            value["used"] = json!(list);
            value["mover_wins"] = json!(w);
        }
        return emit_json(&with_timing(value, timing, table.states()));
    }
    let mut out = format!(
        "Can I Win: numbers 1 to {}, total {}\nanswer      {wins}\ntable       {} sets of used numbers, {} won by the player to move\n",
        table.max(),
        table.total(),
        grouped(table.states()),
        grouped(table.winning_states()),
    );
    if let (Some(list), Some(w)) = (&position.used, mover_wins) {
        let _ = writeln!(
            out,
            "position    {list} used: the player to move {}",
            if w { "wins" } else { "loses" }
        );
    }
    out.push_str(&timing.line(Some(table.states())));
    emit(&out)
}

/// The bit mask of a list of used numbers, each from 1 to `max`, once.
fn used_mask(list: &str, max: u32) -> anyhow::Result<u32> {
    let mut mask = 0u32;
    for token in list.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        let n: u32 = token
            .parse()
            .ok()
            .filter(|n| (1..=max).contains(n))
            .ok_or_else(|| anyhow::anyhow!("--used: {token:?} is not a number from 1 to {max}"))?;
        if mask & (1 << (n - 1)) != 0 {
            anyhow::bail!("--used: {n} is listed twice");
        }
        mask |= 1 << (n - 1);
    }
    Ok(mask)
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
    if args.estimate.estimate {
        let n = numbers.len() as u64;
        return super::estimate::states(
            "ends",
            n * (n + 1) / 2,
            retrograde::games::ends::estimate_bytes(numbers.len()),
            &args.run.budget(),
            args.run.json,
        );
    }
    args.out.check(&SavedGame::Ends {
        numbers: numbers.clone(),
    })?;
    let threads = args.run.threads();
    let clock = Instant::now();
    let solution = in_pool(threads, || solve_ends(&numbers, &args.run.budget()))??;
    let timing = Timing::solved(clock.elapsed().as_secs_f64(), threads);
    let game = SavedGame::Ends { numbers };
    let SavedTable::Ends(solution) = save(&args.out, game, SavedTable::Ends(solution))? else {
        unreachable!("built above")
    };
    ends_report(&solution, &args.position, &timing, args.run.json)
}

/// Prints the whole row's answer and, with `--from/--to`, that interval's.
pub fn ends_report(
    solution: &EndsSolution,
    position: &IntervalArgs,
    timing: &Timing,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let n = solution.numbers().len();
    let interval = match (position.from, position.to) {
        (None, None) => None,
        (from, to) => {
            let (i, j) = (from.unwrap_or(1), to.unwrap_or(n));
            if i == 0 || j > n || i > j {
                anyhow::bail!("--from {i} --to {j} is not a part of the row of {n} numbers (1 ≤ from ≤ to ≤ {n})");
            }
            Some((i, j, solution.interval(i - 1, j - 1)))
        }
    };
    let line = solution.line();
    let name = |end: End| if end == End::Left { "left" } else { "right" };
    let states = (n * n) as u64;
    if json {
        let mut value = json!({
            "difference": solution.difference,
            "first_score": solution.first_score(),
            "second_score": solution.second_score(),
            "first_wins_or_ties": solution.difference >= 0,
            "line": line.iter().map(|&(end, n)| json!({"end": name(end), "number": n})).collect::<Vec<_>>(),
        });
        if let Some((i, j, (lead, end))) = interval {
            value["interval"] = json!({"from": i, "to": j, "lead": lead, "best_end": name(end)});
        }
        return emit_json(&with_timing(value, timing, states));
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
    let mut out = format!(
        "Take from either end: {} numbers\ndifference  {} (first minus second)\nscores      first {}, second {}\nanswer      {} (the first player {})\nline        {play}\n",
        n,
        solution.difference,
        solution.first_score(),
        solution.second_score(),
        solution.difference >= 0,
        if solution.difference > 0 { "wins" } else if solution.difference == 0 { "ties" } else { "loses" },
    );
    if let Some((i, j, (lead, end))) = interval {
        let _ = writeln!(
            out,
            "position    numbers {i} to {j}: the player to move leads by {lead}, taking the {} end",
            name(end)
        );
    }
    out.push_str(&timing.line(Some(states)));
    emit(&out)
}
