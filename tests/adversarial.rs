//! A seeded generator of bad command lines over every subcommand and flag:
//! each case takes a small valid command, spoils one or two of its values
//! (or adds an unknown flag, or drops a value), and runs it. Every case
//! must end within its time limit, never panic or die of a signal, answer a
//! refusal (exit 2) with exactly one line on stderr, and leave no temporary
//! file behind.

mod common;

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::Rng;

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

#[path = "common/forge.rs"]
mod forge;

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
    let fields = [
        "positions",
        "terminal",
        "x_wins",
        "o_wins",
        "draws",
        "first_won",
        "first_drawn",
        "first_lost",
    ];
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
