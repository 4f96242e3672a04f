//! The answers corpus (issue 74): every command of
//! `tests/corpus/commands.txt`, run in order, must give the exit code and
//! the JSON answer recorded in `tests/corpus/answers.jsonl`, fields of
//! time, node counts and threads aside. It pins what a restructuring of
//! the library must keep.
//!
//! To record the answers anew (after a change that is meant to change one,
//! said in its commit): `RETROGRADE_RECORD_CORPUS=1 cargo test --release
//! --test cli answers_corpus::`, then read the diff of answers.jsonl.

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{json, Map, Value};

const COMMANDS: &str = include_str!("../corpus/commands.txt");
const ANSWERS: &str = "tests/corpus/answers.jsonl";

/// Keys whose values change from run to run or with the machine: times,
/// speeds, node and hit counts of a search, threads, memory peaks, the
/// default budget (a share of the machine's memory).
fn is_volatile(key: &str) -> bool {
    key.contains("seconds")
        || key.contains("per_second")
        || key.starts_with("nodes")
        || key.ends_with("_nodes")
        || key.contains("threads")
        || key.contains("hits")
        || key.contains("peak")
        || key.contains("elapsed")
        || key == "eta"
        || key.starts_with("budget")
}

/// `value` with every volatile key removed, at any depth.
fn stable(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(k, _)| !is_volatile(k))
                .map(|(k, v)| (k, stable(v)))
                .collect::<Map<_, _>>(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(stable).collect()),
        other => other,
    }
}

/// A command line's words: split at spaces, a single- or double-quoted
/// stretch kept as one word (without its quotes).
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut in_word = false;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, ' ') => {
                if in_word {
                    out.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    assert!(quote.is_none(), "unclosed quote in: {line}");
    if in_word {
        out.push(word);
    }
    out
}

/// Runs one corpus line with `{dir}` standing for `dir`: its exit code and
/// its stable JSON answer (null when stdout holds no JSON, as a refusal).
fn answer_of(line: &str, dir: &Path) -> Value {
    let args: Vec<String> = words(line)
        .into_iter()
        .map(|w| w.replace("{dir}", &dir.display().to_string()))
        .collect();
    let out = Command::new(env!("CARGO_BIN_EXE_retrograde"))
        .args(&args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout).replace(&dir.display().to_string(), "{dir}");
    let answer = serde_json::from_str::<Value>(stdout.trim())
        .map(stable)
        .unwrap_or(Value::Null);
    json!({ "command": line, "exit": out.status.code(), "answer": answer })
}

fn commands() -> Vec<&'static str> {
    COMMANDS
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

#[test]
fn the_corpus_has_at_least_sixty_commands_across_every_verb() {
    let lines = commands();
    assert!(lines.len() >= 60, "{} commands", lines.len());
    for verb in [
        "mnk ",
        "connect ",
        "nim ",
        "can-i-win ",
        "ends ",
        "cat-mouse ",
        "cat-mouse-grid ",
        "search mnk",
        "search connect",
        "prove mnk",
        "query ",
        "verify ",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(verb)),
            "no command of {verb}"
        );
    }
}

#[test]
fn every_command_of_the_corpus_gives_its_recorded_answer() {
    let dir = std::env::temp_dir().join(format!("retrograde-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let got: Vec<Value> = commands().iter().map(|l| answer_of(l, &dir)).collect();
    std::fs::remove_dir_all(&dir).unwrap();
    let path = crate::common::root().join(ANSWERS);
    if std::env::var_os("RETROGRADE_RECORD_CORPUS").is_some() {
        let text: String = got.iter().map(|v| format!("{v}\n")).collect();
        std::fs::write(&path, text).unwrap();
        return;
    }
    let recorded: Vec<Value> = std::fs::read_to_string(&path)
        .expect("answers.jsonl is recorded")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        recorded.len(),
        got.len(),
        "commands added or removed: record anew"
    );
    let differing: Vec<String> = recorded
        .iter()
        .zip(&got)
        .filter(|(want, have)| want != have)
        .map(|(want, have)| format!("recorded {want}\n     got {have}"))
        .collect();
    assert!(differing.is_empty(), "{}", differing.join("\n"));
}

#[test]
fn words_keep_quoted_stretches_together() {
    assert_eq!(
        words(r#"search mnk --moves "b2 a1" --board 'X../...'  --json"#),
        ["search", "mnk", "--moves", "b2 a1", "--board", "X../...", "--json"]
    );
    assert_eq!(words(r#"--moves """#), ["--moves", ""]);
}
