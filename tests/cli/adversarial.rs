//! Seeded generators of bad input. Bad command lines over every subcommand
//! and flag: each case takes a small valid command, spoils one or two of
//! its values (or adds an unknown flag, or drops a value), and runs it.
//! Every case must end within its time limit, never panic or die of a
//! signal, answer a refusal (exit 2) with exactly one line on stderr, and
//! leave no temporary file behind. Batches for `search --positions`: random
//! mixes of good, bad, huge, binary and blank lines, each of which must get
//! exactly one answer, in order.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::cli;
use crate::common::Rng;

const BIN: &str = env!("CARGO_BIN_EXE_retrograde");

/// Values no flag accepts as meant, or that push a flag to its edge.
const BAD: &[&str] = &[
    "-1",
    "0",
    "-0",
    "4294967296",
    "18446744073709551616",
    "99999999999999999999999",
    "NaN",
    "inf",
    "-inf",
    "1e30",
    "",
    " ",
    "abc",
    "½",
    "1,2,",
    ",,",
    "[[",
    "{}",
    "3.5",
    "0x10",
    "--",
    "-",
    "../",
    "/dev/null",
    "X../",
    "ZZZ/ZZZ/ZZZ",
    "a0",
    "z99",
    "1 1 1 1 1 1 1 1 1 1",
    "99",
    "4453x",
    "1KiB",
    "1e",
    "mouse",
    "cat",
    "é",
];

/// Small valid commands: (arguments, the flags whose values may be spoiled).
fn bases(dir: &str) -> Vec<(Vec<String>, Vec<&'static str>)> {
    let v = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let table = format!("{dir}/t.rtb");
    vec![
        (
            v(&[
                "mnk",
                "--cols",
                "3",
                "--rows",
                "3",
                "--k",
                "3",
                "--threads",
                "1",
            ]),
            vec![
                "--cols",
                "--rows",
                "--k",
                "--threads",
                "--max-memory",
                "--moves",
                "--board",
                "--out",
            ],
        ),
        (
            v(&["connect", "--cols", "4", "--rows", "4", "--k", "4"]),
            vec![
                "--cols",
                "--rows",
                "--k",
                "--threads",
                "--max-memory",
                "--moves",
                "--board",
                "--out",
            ],
        ),
        (
            v(&["search", "mnk", "--cols", "3", "--rows", "3"]),
            vec![
                "--cols",
                "--rows",
                "--k",
                "--moves",
                "--board",
                "--time-limit",
                "--threads",
                "--max-memory",
            ],
        ),
        (
            v(&[
                "search",
                "connect",
                "--cols",
                "4",
                "--rows",
                "4",
                "--time-limit",
                "5",
            ]),
            vec![
                "--cols",
                "--rows",
                "--k",
                "--moves",
                "--board",
                "--time-limit",
                "--threads",
            ],
        ),
        (
            v(&[
                "cat-mouse",
                "--graph",
                "[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]",
            ]),
            vec![
                "--graph",
                "--graph-file",
                "--mouse",
                "--cat",
                "--turn",
                "--threads",
                "--max-memory",
                "--out",
            ],
        ),
        (
            v(&[
                "cat-mouse-grid",
                "--grid",
                "M.C...F",
                "--cat-jump",
                "1",
                "--mouse-jump",
                "2",
            ]),
            vec![
                "--grid",
                "--grid-file",
                "--cat-jump",
                "--mouse-jump",
                "--max-moves",
                "--mouse",
                "--cat",
                "--turn",
                "--max-memory",
                "--out",
            ],
        ),
        (
            v(&[
                "nim",
                "--stones",
                "100",
                "--max-take",
                "3",
                "--max-memory",
                "64MiB",
            ]),
            vec!["--stones", "--max-take", "--out"],
        ),
        (
            v(&["can-i-win", "--max", "10", "--total", "11"]),
            vec!["--max", "--total", "--used", "--max-memory", "--out"],
        ),
        (
            v(&["ends", "--nums", "1,5,233,7"]),
            vec!["--nums", "--from", "--to", "--out"],
        ),
        (
            v(&["query", &table]),
            vec![
                "--moves",
                "--board",
                "--mouse",
                "--cat",
                "--turn",
                "--max-moves",
                "--stones",
                "--used",
                "--from",
                "--to",
                "--max-memory",
            ],
        ),
        (
            v(&["play", &table]),
            vec!["--moves", "--board", "--human", "--cols", "--rows", "--k"],
        ),
        (
            v(&["play", "connect", "--cols", "4", "--rows", "4"]),
            vec![
                "--cols",
                "--rows",
                "--k",
                "--human",
                "--moves",
                "--max-memory",
            ],
        ),
        // long commands: only values that must be refused before any work
        (
            v(&[
                "verify",
                "--case-seconds",
                "0.05",
                "--max-memory",
                "64MiB",
                "--threads",
                "1",
            ]),
            vec!["--max-memory", "--threads"],
        ),
        (
            v(&[
                "bench",
                "--threads-list",
                "1",
                "--runs",
                "1",
                "--markdown",
                &format!("{dir}/missing/BENCH.md"),
            ]),
            vec!["--threads-list", "--runs"],
        ),
    ]
}

/// Sets `flag` to `value` in `args` (replacing its value or appending it).
fn set(args: &mut Vec<String>, flag: &str, value: &str) {
    match args.iter().position(|a| a == flag) {
        Some(i) if i + 1 < args.len() => args[i + 1] = value.to_string(),
        _ => {
            args.push(flag.to_string());
            args.push(value.to_string());
        }
    }
}

#[test]
fn generated_bad_command_lines_are_refused_cleanly() {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("retrograde-adversarial-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_str().unwrap().to_string();
    // a small table for query and play to read
    let made = Command::new(BIN)
        .args(["mnk", "--json", "--out", &format!("{d}/t.rtb")])
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(made.success());
    let bases = bases(&d);
    let mut rng = Rng::new(2026);
    let cases = 1500;
    let (mut refusals, mut answered) = (0, 0);
    let work = |seed: u64| {
        let mut rng = Rng::new(seed);
        let (base, flags) = &bases[rng.below(bases.len() as u64) as usize];
        let mut args = base.clone();
        for _ in 0..1 + rng.below(2) {
            let flag = flags[rng.below(flags.len() as u64) as usize];
            let value = BAD[rng.below(BAD.len() as u64) as usize];
            let value = if flag == "--out" || flag == "--markdown" {
                // a spoiled path, always inside our directory
                format!("{d}/out/{value}")
            } else {
                value.to_string()
            };
            match rng.below(10) {
                0 => args.push("--no-such-flag".into()),
                1 => args.push(flag.to_string()),
                _ => set(&mut args, flag, &value),
            }
        }
        args
    };
    let seeds: Vec<u64> = (0..cases).map(|_| rng.next_u64()).collect();
    let results: Vec<(Vec<String>, Option<i32>, String)> = std::thread::scope(|scope| {
        let chunks: Vec<_> = seeds
            .chunks(cases / 2 + 1)
            .map(|chunk| {
                let work = &work;
                scope.spawn(move || {
                    chunk
                        .iter()
                        .map(|&seed| {
                            let args = work(seed);
                            let mut child = Command::new(BIN)
                                .args(&args)
                                .stdin(Stdio::null())
                                .stdout(Stdio::null())
                                .stderr(Stdio::piped())
                                .spawn()
                                .unwrap();
                            let started = Instant::now();
                            while child.try_wait().unwrap().is_none() {
                                if started.elapsed() > Duration::from_secs(20) {
                                    let _ = child.kill();
                                    panic!("a hang: {args:?}");
                                }
                                std::thread::sleep(Duration::from_millis(1));
                            }
                            let out = child.wait_with_output().unwrap();
                            let stderr = String::from_utf8_lossy(&out.stderr).to_string();
                            (args, out.status.code(), stderr)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        chunks.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    for (args, code, stderr) in &results {
        assert!(!stderr.contains("panicked"), "a panic: {args:?}: {stderr}");
        match code {
            Some(2) => {
                refusals += 1;
                let lines: Vec<&str> = stderr.lines().filter(|l| !l.starts_with("note:")).collect();
                assert_eq!(lines.len(), 1, "one line for {args:?}: {stderr}");
            }
            Some(0) | Some(1) | Some(3) => answered += 1,
            other => panic!("{args:?} ended with {other:?}: {stderr}"),
        }
    }
    // no temporary file left anywhere in our directory
    let mut stack = vec![dir.clone()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().to_string();
            assert!(
                !name.contains(".tmp-"),
                "a leftover: {}",
                entry.path().display()
            );
            if entry.file_type().unwrap().is_dir() {
                stack.push(entry.path());
            }
        }
    }
    assert!(
        refusals > cases / 2,
        "mostly refusals: {refusals} of {cases}, {answered} answered"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

use crate::common::forge;

/// Seeded forgeries of a Connect Four table (4×4, certified whenever it is
/// opened), each written with every checksum recomputed unless it is raw
/// damage: a stored value changed, a summary count changed, the board's
/// parameters changed, a block's key gaps changed, one raw byte of the file
/// flipped (the trailer's checksum included). Every one must be refused
/// with one line and exit 2 by a query of the empty board.
#[test]
fn generated_table_forgeries_are_refused() {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("retrograde-forgeries-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let honest = dir.join("honest.rgt");
    let made = Command::new(BIN)
        .args(["connect", "--cols", "4", "--rows", "4", "-q", "--out"])
        .arg(&honest)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(made.success());
    let bytes = std::fs::read(&honest).unwrap();
    let fields = forge::COUNT_FIELDS;
    let mut rng = Rng::new(26);
    for case in 0..200 {
        let mut t = forge::ForgedTable::parse(&bytes);
        let kind = rng.below(5);
        let forged = match kind {
            0 => {
                let places = t.value_places();
                let at = places[rng.below(places.len() as u64) as usize];
                let old = t.blocks[at];
                let mut new = old;
                while new == old {
                    let outcome = ['w', 'l', 'd'][rng.below(3) as usize];
                    new = forge::value_byte(outcome, rng.below(17) as u8);
                }
                t.blocks[at] = new;
                t.to_bytes()
            }
            1 => {
                let ply = rng.below(17) as usize;
                let field = fields[rng.below(fields.len() as u64) as usize];
                let old = t.summary["counts"][ply][field].as_u64().unwrap();
                let new = if old > 0 && rng.chance(50) {
                    old - 1 - rng.below(old.min(3))
                } else {
                    old + 1 + rng.below(3)
                };
                t.summary["counts"][ply][field] = new.into();
                t.to_bytes()
            }
            2 => {
                let (key, old) = [("k", 4), ("cols", 4), ("rows", 4)][rng.below(3) as usize];
                let mut new = old;
                while new == old {
                    new = 1 + rng.below(5);
                }
                t.parameters[key] = new.into();
                t.to_bytes()
            }
            3 => {
                let places = t.value_places();
                let gaps: Vec<usize> = (0..t.blocks.len())
                    .filter(|i| places.binary_search(i).is_err())
                    .collect();
                let at = gaps[rng.below(gaps.len() as u64) as usize];
                t.blocks[at] ^= 1 + rng.below(255) as u8;
                t.to_bytes()
            }
            _ => {
                let mut raw = bytes.clone();
                let at = if rng.chance(30) {
                    raw.len() - 1 - rng.below(8) as usize
                } else {
                    rng.below(raw.len() as u64) as usize
                };
                raw[at] ^= 1 << rng.below(8);
                raw
            }
        };
        let path = dir.join(format!("forged-{case}.rgt"));
        std::fs::write(&path, &forged).unwrap();
        let out = Command::new(BIN)
            .args(["query", path.to_str().unwrap(), "--moves", ""])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(2),
            "case {case} (kind {kind}) answered: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        assert!(!stderr.contains("panicked"), "case {case}: {stderr}");
        assert_eq!(
            stderr.trim_end().lines().count(),
            1,
            "case {case}: {stderr}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The kinds of line a generated batch mixes, with the line's bytes and
/// whether the batch must answer it as a position.
fn batch_line(rng: &mut Rng, mnk: bool) -> (Vec<u8>, bool) {
    let pad = |rng: &mut Rng| [" ", "  ", "\t", "", ""][rng.below(5) as usize];
    match rng.below(20) {
        // a legal move list, spaced, commas, digits run together (gravity)
        0..=8 => {
            let moves: Vec<String> = if mnk {
                // distinct cells, at most 4 (no line before the end)
                let mut cells: Vec<String> = ["a", "b", "c"]
                    .iter()
                    .flat_map(|c| (1..=3).map(move |r| format!("{c}{r}")))
                    .collect();
                (0..rng.below(5))
                    .map(|_| cells.remove(rng.below(cells.len() as u64) as usize))
                    .collect()
            } else {
                // 4 × 4: at most 6 stones (X has at most 3: no line), at
                // most 4 a column
                let mut heights = [0; 4];
                let mut moves = Vec::new();
                for _ in 0..rng.below(7) {
                    let c = rng.below(4) as usize;
                    if heights[c] < 4 {
                        heights[c] += 1;
                        moves.push((c + 1).to_string());
                    }
                }
                moves
            };
            let separator = match rng.below(3) {
                0 if !mnk => "",
                1 => ", ",
                _ => " ",
            };
            let end = if rng.chance(10) { "\r" } else { "" };
            let text = format!("{}{}{}{end}", pad(rng), moves.join(separator), pad(rng));
            (text.into_bytes(), true)
        }
        // blank: the empty board
        9..=10 => (pad(rng).as_bytes().to_vec(), true),
        // not a move list of the board
        11..=15 => {
            let bad = [
                "9",
                "0",
                "x",
                "a0",
                "z99",
                "é",
                "-1",
                "4453x",
                "1 1 1 1 1",
                "a1 a1",
                "d4",
                "½",
                "{}",
                "NaN",
            ];
            let text = bad[rng.below(bad.len() as u64) as usize];
            // "1 1 1 1 1" overflows a 4 × 4 column; on 3 × 3 "1" is no cell
            (format!("{}{text}", pad(rng)).into_bytes(), false)
        }
        // far too long (a flood of digits, spaces or letters)
        16..=17 => {
            let length = 5_000 + rng.below(300_000) as usize;
            let byte = [b'1', b' ', b'a', b','][rng.below(4) as usize];
            (vec![byte; length], false)
        }
        // not UTF-8
        _ => (vec![b'1', 0xff, 0xfe, b'2'], false),
    }
}

/// Random batches mixing good, bad, huge, binary and blank lines, from
/// standard input or a file, at 1 to 3 threads, some with a tiny time
/// limit: every line gets exactly one answer, in order (JSON: one object a
/// line with `error` exactly for the bad lines; human: one line each and
/// the summary), the exit code is 2 when a line was bad (one line on
/// stderr), else 3 when a position was not reached, else 0; never a panic
/// or a hang.
#[test]
fn generated_batches_answer_every_line_once_in_order() {
    let dir = std::env::temp_dir().join(format!("retrograde-adv-batch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let cases = 150u64;
    let run_case = |seed: u64| {
        let mut rng = Rng::new(seed);
        let mnk = rng.chance(40);
        let count = match rng.below(10) {
            0 => 0,
            1 => 300 + rng.below(1500) as usize,
            _ => 1 + rng.below(40) as usize,
        };
        let lines: Vec<(Vec<u8>, bool)> = (0..count).map(|_| batch_line(&mut rng, mnk)).collect();
        let mut input = Vec::new();
        let mut last_ended = true;
        for (i, (bytes, _)) in lines.iter().enumerate() {
            input.extend_from_slice(bytes);
            last_ended = i + 1 < count || rng.chance(70);
            if last_ended {
                input.push(b'\n');
            }
        }
        // a last line without its newline is a line all the same, unless
        // it is empty (then there is nothing of it)
        let expected: Vec<&(Vec<u8>, bool)> =
            if last_ended || lines.last().is_none_or(|(b, _)| !b.is_empty()) {
                lines.iter().collect()
            } else {
                lines[..count - 1].iter().collect()
            };
        let mut args: Vec<String> = if mnk {
            vec!["search".into(), "mnk".into()]
        } else {
            ["search", "connect", "--cols", "4", "--rows", "4"]
                .map(String::from)
                .to_vec()
        };
        let json = rng.chance(75);
        if json {
            args.push("--json".into());
        }
        args.extend(["--threads".into(), (1 + rng.below(3)).to_string()]);
        if rng.chance(20) {
            args.extend(["--time-limit".into(), "0.0001".into()]);
        }
        for flag in ["--weak", "--all-moves"] {
            if rng.chance(25) {
                args.push(flag.into());
            }
        }
        let from_file = rng.chance(30);
        let file = dir.join(format!("{seed}.txt"));
        if from_file {
            std::fs::write(&file, &input).unwrap();
            args.extend(["--positions".into(), file.display().to_string()]);
        } else {
            args.extend(["--positions".into(), "-".into()]);
        }
        let stdin_input = if from_file { Vec::new() } else { input };
        let arg_refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = cli::run_within(&arg_refs, 120, Some(&stdin_input));
        let _ = std::fs::remove_file(&file);
        (
            seed,
            args,
            expected.into_iter().cloned().collect::<Vec<_>>(),
            json,
            out,
        )
    };
    let mut rng = Rng::new(265);
    let seeds: Vec<u64> = (0..cases).map(|_| rng.next_u64()).collect();
    let results: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = seeds
            .chunks(seeds.len() / 2 + 1)
            .map(|chunk| {
                let run_case = &run_case;
                scope.spawn(move || chunk.iter().map(|&s| run_case(s)).collect::<Vec<_>>())
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    let mut codes = std::collections::BTreeSet::new();
    for (seed, args, expected, json, (code, stdout, stderr)) in results {
        codes.insert(code);
        let stdout = String::from_utf8(stdout).expect("UTF-8 answers");
        let case = format!("seed {seed}, {args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{case}");
        let answers: Vec<&str> = stdout.lines().collect();
        let any_bad = expected.iter().any(|(_, good)| !good);
        let mut not_reached = false;
        if json {
            assert_eq!(answers.len(), expected.len(), "one answer a line: {case}");
        } else {
            // and the summary
            assert_eq!(answers.len(), expected.len() + 1, "{case}");
            assert!(answers[expected.len()].starts_with("searched "), "{case}");
        }
        for (i, ((bytes, good), answer)) in expected.iter().zip(&answers).enumerate() {
            let at = format!("line {}: {case}", i + 1);
            assert!(answer.len() < 20_000, "a short answer: {at}");
            let text = std::str::from_utf8(bytes).ok().filter(|t| t.len() <= 4096);
            if !json {
                assert_eq!(answer.starts_with("error: "), !good, "{answer} {at}");
                not_reached |= answer.contains(": not reached");
                continue;
            }
            let object: serde_json::Value = serde_json::from_str(answer).expect(&at);
            let moves = text.map(str::trim);
            assert_eq!(object["moves_played"].as_str(), moves, "{at}");
            assert_eq!(object.get("error").is_some(), !good, "{object} {at}");
            if *good {
                let reached = object["value"].is_string();
                assert!(reached || object["not_reached"] == true, "{object} {at}");
                not_reached |= !reached;
            }
        }
        if any_bad {
            assert_eq!(code, Some(2), "{case}");
            assert_eq!(stderr.trim_end().lines().count(), 1, "{case}");
        } else {
            assert_eq!(code, Some(if not_reached { 3 } else { 0 }), "{case}");
            assert!(stderr.is_empty(), "{case}");
        }
    }
    // both certain endings were generated: all good, some bad (whether a
    // tiny time limit stops a search this small before it ends is chance;
    // tests/search/batch.rs makes sure of exit 3)
    assert!(
        codes.contains(&Some(0)) && codes.contains(&Some(2)),
        "{codes:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
