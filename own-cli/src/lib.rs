//! The command line of a game of your own: a program that defines a game's
//! rules (`retrograde::own::Rules`) gets `solve`, `query`, `play` and
//! `serve` for it from one call, [`main`]:
//!
//! ```text
//! PROGRAM solve [--out FILE] [--threads N] [--max-memory SIZE] [--spill DIR]
//! PROGRAM query FILE [--moves "…"] [--json] [--check]
//! PROGRAM play FILE [--moves "…"] [--as first|second]
//! PROGRAM serve [FILE] [--addr ADDR]
//! PROGRAM check [--positions N]
//! ```
//!
//! `query` reads the table certified against the rules (every position
//! reached, every value from its children's), so `--check` only says so
//! and prints the counts again; a forged table is refused. `serve` answers
//! the table's positions over HTTP (the server of `retrograde serve`, with
//! `/api/v1/own` and a page of its own; without a FILE it solves first),
//! until SIGINT or SIGTERM. `check` runs the contract check of the rules
//! (`retrograde::own::check_contract`, a perft for them) on the first N
//! positions from the start. Rules with a tier are solved tier by tier,
//! the finished tiers in temporary files in `--spill DIR` (else the
//! directory for temporary files, `TMPDIR`). Errors are one line on stderr and exit code 2.
//! This crate parses, calls the library and prints; every decision is the
//! library's.

use std::io::{BufRead, Write};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::mpsc;

use retrograde::host::{in_pool, parse_size, worker_threads, Budget, Silent};
use retrograde::own::{
    check_contract, check_table_output, load, play_moves, save, solve_spilling, Rules, Solution,
};
use retrograde_server::boards::Boards;
use retrograde_server::own::{Answerer, OwnGame, Refusal};
use retrograde_server::Config;

/// The commands of a game's command line.
pub const VERBS: [&str; 5] = ["solve", "query", "play", "serve", "check"];

/// Positions `check` looks at unless `--positions` says.
pub const CHECKED_POSITIONS: u64 = 100_000;

/// Where `serve` listens unless `--addr` says (loopback only).
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";

/// For a program with a command line of its own beside these commands:
/// runs [`main`] and returns `true` if the first argument is one of
/// [`VERBS`], else returns `false` at once.
pub fn main_if_asked<R: Rules>(rules: &R) -> bool {
    let first = std::env::args().nth(1);
    if !first.is_some_and(|verb| VERBS.contains(&verb.as_str())) {
        return false;
    }
    main(rules);
    true
}

/// Runs the command line of `rules` on the process's arguments, stdin and
/// stdout; exits with code 2 and one line on stderr on any error.
pub fn main<R: Rules>(rules: &R) {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut output = std::io::stdout();
    if let Err(e) = run(rules, &args, &mut input, &mut output) {
        eprintln!("{}: {e}", rules.name());
        std::process::exit(2);
    }
}

/// The options of every verb.
#[derive(Default)]
struct Options {
    verb: String,
    file: Option<PathBuf>,
    out: Option<PathBuf>,
    spill: Option<PathBuf>,
    moves: String,
    json: bool,
    check: bool,
    second: bool,
    threads: Option<usize>,
    budget: Option<Budget>,
    addr: Option<SocketAddr>,
    positions: Option<u64>,
}

fn usage(name: &str) -> String {
    format!(
        "usage: {name} solve [--out FILE] [--threads N] [--max-memory SIZE] [--spill DIR] | \
         query FILE [--moves \"…\"] [--json] [--check] | play FILE [--moves \"…\"] [--as first|second] | \
         serve [FILE] [--addr ADDR] | check [--positions N]"
    )
}

fn parse(name: &str, args: &[String]) -> Result<Options, String> {
    let mut words = args.iter();
    let mut o = Options {
        verb: words.next().cloned().ok_or_else(|| usage(name))?,
        ..Options::default()
    };
    if !VERBS.contains(&o.verb.as_str()) {
        return Err(format!("unknown command {}; {}", o.verb, usage(name)));
    }
    while let Some(word) = words.next() {
        let mut value = || {
            words
                .next()
                .ok_or(format!("{word} needs a value; {}", usage(name)))
        };
        match word.as_str() {
            "--out" => o.out = Some(value()?.into()),
            "--spill" => o.spill = Some(value()?.into()),
            "--moves" => o.moves = value()?.clone(),
            "--json" => o.json = true,
            "--check" => o.check = true,
            "--threads" => {
                let n = value()?;
                o.threads = Some(
                    n.parse()
                        .map_err(|_| format!("--threads {n}: not a number"))?,
                );
            }
            "--max-memory" => o.budget = Some(Budget(parse_size(value()?)?)),
            "--positions" => {
                let n = value()?;
                o.positions = Some(
                    n.parse()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or(format!("--positions {n}: a whole number above 0"))?,
                );
            }
            "--addr" => {
                let addr = value()?;
                o.addr = Some(addr.parse().map_err(|_| {
                    format!("--addr {addr}: not an address and port, such as {DEFAULT_ADDR}")
                })?);
            }
            "--as" => {
                o.second = match value()?.as_str() {
                    "first" => false,
                    "second" => true,
                    other => return Err(format!("--as {other}: first or second")),
                }
            }
            file if !file.starts_with("--")
                && o.file.is_none()
                && !matches!(o.verb.as_str(), "solve" | "check") =>
            {
                o.file = Some(file.into())
            }
            other => return Err(format!("unknown argument {other}; {}", usage(name))),
        }
    }
    if !matches!(o.verb.as_str(), "solve" | "serve" | "check") && o.file.is_none() {
        return Err(format!("{} needs a table file; {}", o.verb, usage(name)));
    }
    Ok(o)
}

/// Runs one command of `rules`'s command line: `args` without the program's
/// name, `input` the person's answers (`play`), `output` what is printed.
pub fn run<R: Rules>(
    rules: &R,
    args: &[String],
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> Result<(), Box<dyn std::error::Error>> {
    let name = rules.name();
    let o = parse(&name, args)?;
    // the moves are read before any solve or read, so a typo costs nothing
    let position = play_moves(rules, &o.moves)?;
    let budget = o.budget.unwrap_or_else(Budget::default_for_machine);
    let (threads, _) = worker_threads(o.threads);
    let spill = o.spill.clone().unwrap_or_else(std::env::temp_dir);
    let solve = || in_pool(threads, || solve_spilling(rules, &spill, &budget, &Silent));
    if o.verb == "check" {
        let limit = o.positions.unwrap_or(CHECKED_POSITIONS);
        let report = check_contract(rules, limit)
            .map_err(|why| format!("the rules break their contract: {why}"))?;
        writeln!(
            output,
            "the rules of {name} keep their contract on {} positions: {} moves, {} symmetric images \
             and {} unmoves checked",
            report.positions, report.moves, report.images, report.unmoves
        )?;
        return Ok(());
    }
    let solution = match (o.verb.as_str(), &o.file) {
        ("solve", _) => {
            if let Some(out) = &o.out {
                check_table_output(out)?;
            }
            let solution = solve()??;
            report(rules, &solution, output)?;
            if let Some(out) = &o.out {
                let bytes = save(out, rules, &solution)?;
                writeln!(output, "wrote {} ({bytes} bytes)", out.display())?;
            }
            return Ok(());
        }
        (_, Some(file)) => in_pool(threads, || load(file, rules, &budget, &Silent))??,
        ("serve", None) => solve()??,
        _ => unreachable!("parse asks a file of query and play"),
    };
    match o.verb.as_str() {
        "query" if o.check => {
            writeln!(output, "certified against the rules of {name}")?;
            report(rules, &solution, output)
        }
        "query" => answer(rules, &solution, position, o.json, output),
        "serve" => serve(rules, &solution, &o, budget, threads),
        _ => play(rules, &solution, position, o.second, input, output),
    }
}

/// A question to the thread that answers for the server: the moves, and
/// where the answer goes.
type Question = (String, mpsc::Sender<Result<serde_json::Value, Refusal>>);

/// Serves `solution`'s answers over HTTP until SIGINT or SIGTERM. The
/// server's handlers are `'static` and the rules are borrowed, so one
/// thread of this scope answers the handlers' questions over a channel
/// (an answer is a few lookups: one thread keeps up with the server).
fn serve<R: Rules>(
    rules: &R,
    solution: &Solution<R::Position>,
    o: &Options,
    budget: Budget,
    threads: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    let (ask, asked) = mpsc::channel::<Question>();
    let answerer: Answerer = Box::new(move |moves| {
        let (reply, replied) = mpsc::channel();
        let gone = || Refusal::Failed("the game's answering thread has ended".into());
        ask.send((moves.to_string(), reply)).map_err(|_| gone())?;
        replied.recv().map_err(|_| gone())?
    });
    let config = Config {
        addr: o
            .addr
            .unwrap_or_else(|| DEFAULT_ADDR.parse().expect("an address")),
        boards: Boards::none(budget, threads)?,
        move_seconds: std::time::Duration::from_secs(5),
        queue: 0,
        own: Some(OwnGame {
            name: rules.name(),
            positions: solution.positions(),
            answer: answerer,
        }),
    };
    std::thread::scope(|scope| {
        scope.spawn(move || {
            for (moves, reply) in asked {
                let answer = play_moves(rules, &moves)
                    .map_err(|e| Refusal::BadMoves(e.to_string()))
                    .and_then(|position| {
                        serde_json::to_value(solution.answer(rules, position))
                            .map_err(|e| Refusal::Failed(e.to_string()))
                    });
                let _ = reply.send(answer);
            }
        });
        // the server's state (and with it the channel's sender) is
        // dropped when it returns, which ends the answering thread
        retrograde_server::run(config, threads)
    })?;
    Ok(())
}

/// The counts of a solved game and the start's value.
fn report<R: Rules>(
    rules: &R,
    solution: &Solution<R::Position>,
    output: &mut dyn Write,
) -> Result<(), Box<dyn std::error::Error>> {
    let counts = solution.counts();
    writeln!(
        output,
        "{}: {} positions (win {}, loss {}, draw {} for the player to move), {} moves",
        rules.name(),
        solution.positions(),
        counts.win,
        counts.loss,
        counts.draw,
        solution.moves
    )?;
    for tier in &solution.tiers {
        writeln!(
            output,
            "  tier {}: {} positions ({} over), {} moves",
            tier.tier, tier.positions, tier.ended, tier.moves
        )?;
    }
    if let Some((value, depth)) = solution.lookup(rules, rules.start()) {
        let plies = depth.map_or(String::new(), |d| format!(" in {d} plies"));
        writeln!(
            output,
            "the start: a {} for the player to move{plies}",
            value.name()
        )?;
    }
    Ok(())
}

fn answer<R: Rules>(
    rules: &R,
    solution: &Solution<R::Position>,
    position: R::Position,
    json: bool,
    output: &mut dyn Write,
) -> Result<(), Box<dyn std::error::Error>> {
    let answer = solution.answer(rules, position);
    if json {
        writeln!(output, "{}", serde_json::to_string(&answer)?)?;
        return Ok(());
    }
    writeln!(output, "{}", answer.position)?;
    let value = answer.value.map_or("not reached", |v| v.name());
    let plies = answer
        .depth
        .map_or(String::new(), |d| format!(" in {d} plies"));
    writeln!(output, "{value} for the player to move{plies}")?;
    for m in &answer.moves {
        let value = m.value.map_or("?", |v| v.name());
        let plies = m.depth.map_or(String::new(), |d| format!(" in {d}"));
        let best = if m.best { "  best" } else { "" };
        writeln!(output, "  {:<8} {value}{plies}{best}", m.notation)?;
    }
    Ok(())
}

/// A person against perfect play from `position`: the person moves first,
/// or second with `second`; the program plays a best move (the first the
/// rules list).
fn play<R: Rules>(
    rules: &R,
    solution: &Solution<R::Position>,
    mut position: R::Position,
    second: bool,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut persons_turn = !second;
    loop {
        let answer = solution.answer(rules, position);
        let to_move = if persons_turn { "you" } else { "the program" };
        writeln!(output, "{to_move} to move:\n{}", answer.position)?;
        if answer.over || answer.moves.is_empty() {
            let value = answer.value.map_or("over", |v| v.name());
            let who = if persons_turn { "you" } else { "the program" };
            writeln!(output, "the game is over: a {value} for {who}")?;
            return Ok(());
        }
        let chosen = if persons_turn {
            write!(output, "your move: ")?;
            output.flush()?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                writeln!(output)?;
                return Ok(()); // the person left
            }
            let word = line.trim().to_string();
            match answer.moves.iter().find(|m| m.notation == word) {
                Some(m) => m.notation.clone(),
                None => {
                    let legal: Vec<&str> =
                        answer.moves.iter().map(|m| m.notation.as_str()).collect();
                    writeln!(
                        output,
                        "{word} is not a move here; the moves: {}",
                        legal.join(" ")
                    )?;
                    continue;
                }
            }
        } else {
            let best = answer
                .moves
                .iter()
                .find(|m| m.best)
                .unwrap_or(&answer.moves[0]);
            writeln!(output, "the program plays {}", best.notation)?;
            best.notation.clone()
        };
        let mut children = Vec::new();
        rules.moves(&position, &mut children);
        let index = answer
            .moves
            .iter()
            .position(|m| m.notation == chosen)
            .expect("a listed move");
        position = children[index];
        persons_turn = !persons_turn;
    }
}

#[cfg(test)]
mod tests {
    use super::run;
    use retrograde::language::Outcome;
    use retrograde::own::Rules;

    /// Take 1 or 2 from a heap of 7; who cannot move loses.
    struct Take2;

    impl Rules for Take2 {
        type Position = u32;
        fn name(&self) -> String {
            "take2".into()
        }
        fn start(&self) -> u32 {
            7
        }
        fn moves(&self, heap: &u32, children: &mut Vec<u32>) {
            children.extend((1..=2).filter(|t| t <= heap).map(|t| heap - t));
        }
        fn outcome(&self, _: &u32) -> Option<Outcome> {
            None
        }
        fn move_name(&self, from: &u32, _: usize, to: &u32) -> String {
            format!("take{}", from - to)
        }
        fn render(&self, heap: &u32) -> String {
            format!("heap {heap}")
        }
    }

    /// The same game with a tier: the stones taken (`7 - heap`), which
    /// every move raises.
    struct TieredTake2;

    impl Rules for TieredTake2 {
        type Position = u32;
        const TIERED: bool = true;
        fn start(&self) -> u32 {
            Take2.start()
        }
        fn moves(&self, heap: &u32, children: &mut Vec<u32>) {
            Take2.moves(heap, children)
        }
        fn outcome(&self, heap: &u32) -> Option<Outcome> {
            Take2.outcome(heap)
        }
        fn tier(&self, heap: &u32) -> u32 {
            7 - heap
        }
    }

    fn command(args: &str, input: &str) -> Result<String, String> {
        command_of(&Take2, args, input)
    }

    fn command_of<R: Rules>(rules: &R, args: &str, input: &str) -> Result<String, String> {
        let args: Vec<String> = shell_words(args);
        let mut out = Vec::new();
        run(rules, &args, &mut input.as_bytes(), &mut out).map_err(|e| e.to_string())?;
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn a_game_with_a_tier_is_solved_tier_by_tier_spilling_where_it_is_told() {
        let dir = std::env::temp_dir().join(format!("retrograde-own-tiers-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let spill = dir.to_str().unwrap();
        let solved = command_of(&TieredTake2, &format!("solve --spill {spill}"), "").unwrap();
        assert!(solved.contains("8 positions"), "{solved}");
        assert!(
            solved.contains("  tier 0: 1 positions (0 over), 2 moves"),
            "{solved}"
        );
        assert!(
            solved.contains("  tier 7: 1 positions (0 over), 0 moves"),
            "{solved}"
        );
        assert!(
            solved.contains("the start: a win for the player to move in 5 plies"),
            "{solved}"
        );
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            0,
            "spill files left"
        );
        let refused =
            command_of(&TieredTake2, &format!("solve --spill {spill}/none"), "").unwrap_err();
        assert!(refused.contains("none: not a directory"), "{refused}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Splits on spaces, keeping "quoted words" whole.
    fn shell_words(text: &str) -> Vec<String> {
        let mut words = Vec::new();
        for (i, part) in text.split('"').enumerate() {
            if i % 2 == 1 {
                words.push(part.to_string());
            } else {
                words.extend(part.split_whitespace().map(String::from));
            }
        }
        words
    }

    #[test]
    fn a_game_of_one_s_own_solves_saves_queries_checks_and_plays() {
        let dir = std::env::temp_dir().join(format!("retrograde-own-cli-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("take2.rgt");
        let file = file.to_str().unwrap();
        let solved = command(&format!("solve --out {file} --threads 2"), "").unwrap();
        // 7 is not a multiple of 3: won for the player to move, in 5 plies.
        assert!(solved.contains("8 positions"), "{solved}");
        assert!(
            solved.contains("the start: a win for the player to move in 5 plies"),
            "{solved}"
        );
        let checked = command(&format!("query {file} --check"), "").unwrap();
        assert!(
            checked.starts_with("certified against the rules of take2"),
            "{checked}"
        );
        let answer = command(&format!("query {file} --moves \"take1\" --json"), "").unwrap();
        let json: serde_json::Value = serde_json::from_str(&answer).unwrap();
        assert_eq!(json["value"], "loss"); // a heap of 6
        assert_eq!(json["moves"][0]["move"], "take1");
        // The person leaves the program multiples of 3 (6, then 3, then 0).
        let game = command(&format!("play {file}"), "take1\ntake2\nbad\ntake2\n").unwrap();
        assert!(game.contains("the program plays"), "{game}");
        assert!(game.contains("bad is not a move here"), "{game}");
        assert!(
            game.contains("the game is over: a loss for the program"),
            "{game}"
        );
        let refused = command(&format!("query {file} --moves \"take3\""), "").unwrap_err();
        assert!(refused.contains("take3) is not legal"), "{refused}");
        assert!(command("dance", "")
            .unwrap_err()
            .contains("unknown command dance"));
        assert!(command("query", "")
            .unwrap_err()
            .contains("needs a table file"));
        let checked = command("check --positions 5", "").unwrap();
        assert!(
            checked.starts_with("the rules of take2 keep their contract on 5 positions"),
            "{checked}"
        );
        assert!(command("check --positions 0", "")
            .unwrap_err()
            .contains("a whole number above 0"));
        assert!(command("serve --addr nowhere", "")
            .unwrap_err()
            .contains("--addr nowhere: not an address and port"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
