//! Every example in README.md and docs/GUIDE.md works as printed (second
//! audit, line 11: the README had drifted from the program).
//!
//! An example is a fenced block marked `console`: lines starting with `$ `
//! are commands (a line ending in ` \` continues on the next), the lines
//! after a command until the next one are its output, stdout and stderr
//! together. The commands of one document run in order, with `retrograde`
//! on `PATH` (as after `cargo install --path .`), in one scratch directory,
//! so a later example may read a file an earlier one wrote.
//!
//! Compared after masking what a machine changes — times (`0.004 s`,
//! `12 ms`), rates (`4.5 M states/s`), thread counts and the JSON timing
//! keys — in both texts, and leaving out the notes of work still running
//! after a moment (`note: still running after 2 s: …`), which come with a
//! slow or loaded machine. In the printed text `…` stands for any text
//! within a line, and a line holding only `…` for any number of lines.
//! Blocks marked `console slow` (minutes each) run only in the ignored test
//! `slow_examples_work_as_printed`.
//!
//! `UPDATE_DOC_EXAMPLES=1 cargo test --release --test cli doc_examples::` writes
//! each example's actual output into the document where it differs (the
//! `…` of a matching example are kept).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use regex::Regex;

/// One command of a document and the output printed after it.
struct Example {
    /// The command, continuation lines joined.
    command: String,
    /// Whether its block is marked `slow`.
    slow: bool,
    /// The document's lines of its output: `start..end`.
    output: std::ops::Range<usize>,
}

fn examples(lines: &[&str]) -> Vec<Example> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let info = lines[i].trim_start().strip_prefix("```console");
        let Some(info) = info else {
            i += 1;
            continue;
        };
        let slow = info.trim() == "slow";
        i += 1;
        while i < lines.len() && !lines[i].starts_with("```") {
            let Some(first) = lines[i].strip_prefix("$ ") else {
                panic!("line {}: a console block starts with `$ `", i + 1);
            };
            let mut command = first.to_string();
            while command.ends_with('\\') {
                command.pop();
                i += 1;
                command.push_str(lines[i]);
            }
            i += 1;
            let start = i;
            while i < lines.len() && !lines[i].starts_with("```") && !lines[i].starts_with("$ ") {
                i += 1;
            }
            found.push(Example {
                command,
                slow,
                output: start..i,
            });
        }
        i += 1;
    }
    found
}

/// `text` with what a machine changes replaced by `#`.
/// How a note of work still running after a moment begins
/// (`cli/src/progress.rs`, `LateNote`): such a line is left out of the
/// comparison.
const LATE_NOTE: &str = "note: still running after ";

fn masked(text: &str) -> String {
    let rules: [(&str, &str); 5] = [
        (
            r#""(seconds|states_per_second|nodes_per_second|positions_per_second|threads)":[0-9.e+-]+"#,
            r#""$1":#"#,
        ),
        (
            r"[0-9][0-9,.]*(e[+-]?[0-9]+)? ?(K |M |G )?(states|nodes|positions)/s\b",
            "# $3/s",
        ),
        (r"[0-9][0-9,.]*(e[+-]?[0-9]+)? ?(s|ms|µs)\b", "# s"),
        (r"\bon [0-9]+ threads?\b", "on # threads"),
        (r"\b[0-9]+ threads?\b", "# threads"),
    ];
    let mut text = text.to_string();
    for (pattern, with) in rules {
        text = Regex::new(pattern)
            .unwrap()
            .replace_all(&text, with)
            .into_owned();
    }
    text
}

/// Whether the actual lines match the printed ones (masked; `…` a
/// wildcard within a line, a lone `…` any number of lines).
fn matches(printed: &[String], actual: &[String]) -> bool {
    let Some((first, rest)) = printed.split_first() else {
        return actual.is_empty();
    };
    if first.trim() == "…" {
        return (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]));
    }
    let Some((line, more)) = actual.split_first() else {
        return false;
    };
    let pattern = first
        .split('…')
        .map(regex::escape)
        .collect::<Vec<_>>()
        .join(".*");
    Regex::new(&format!("^{pattern}$")).unwrap().is_match(line) && matches(rest, more)
}

/// Runs `command` with `sh` in `dir`, stderr into stdout, `retrograde` on
/// the path; its output lines.
fn run(command: &str, dir: &Path) -> Vec<String> {
    let bin = Path::new(env!("CARGO_BIN_EXE_retrograde"))
        .parent()
        .unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("exec 2>&1\n{command}"))
        .current_dir(dir)
        .env("PATH", path)
        .env_remove("RAYON_NUM_THREADS")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        stdout.read_to_string(&mut text).unwrap();
        text
    });
    let deadline = Instant::now() + Duration::from_secs(900);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("`{command}` took over 900 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let text = reader.join().unwrap();
    text.lines().map(str::to_string).collect()
}

/// Runs the examples of `doc` (relative to the crate) that `slow` selects;
/// the differences, each as a message. With `UPDATE_DOC_EXAMPLES` set,
/// writes the actual outputs into the document instead.
fn check(doc: &str, slow: bool) -> Vec<String> {
    let root = crate::common::root();
    let text = std::fs::read_to_string(root.join(doc)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let dir: PathBuf = std::env::temp_dir().join(format!(
        "retrograde-doc-{}-{}-{slow}",
        std::process::id(),
        doc.replace('/', "-")
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut differences = Vec::new();
    let mut replacements: Vec<(std::ops::Range<usize>, Vec<String>)> = Vec::new();
    for example in examples(&lines) {
        if example.slow != slow {
            continue;
        }
        let actual = run(&example.command, &dir);
        let printed: Vec<String> = lines[example.output.clone()]
            .iter()
            .map(|l| masked(l))
            .collect();
        // a note of work still running after a moment depends on the
        // machine's speed and load, as times do
        let actual: Vec<String> = actual
            .into_iter()
            .filter(|l| !l.starts_with(LATE_NOTE))
            .collect();
        let actual_masked: Vec<String> = actual.iter().map(|l| masked(l)).collect();
        if !matches(&printed, &actual_masked) {
            differences.push(format!(
                "{doc} line {}: `{}` printed\n{}\nbut the program printed\n{}",
                example.output.start,
                example.command,
                lines[example.output.clone()].join("\n"),
                actual.join("\n")
            ));
            replacements.push((example.output, actual));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    if std::env::var_os("UPDATE_DOC_EXAMPLES").is_some() && !replacements.is_empty() {
        let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        for (range, actual) in replacements.into_iter().rev() {
            out.splice(range, actual);
        }
        std::fs::write(root.join(doc), out.join("\n") + "\n").unwrap();
        return Vec::new();
    }
    differences
}

#[test]
fn the_readme_and_the_guide_work_as_printed() {
    let mut differences = check("README.md", false);
    differences.extend(check("docs/GUIDE.md", false));
    assert!(differences.is_empty(), "{}", differences.join("\n\n"));
}

#[test]
#[ignore = "minutes: the slow examples (run before a release)"]
fn slow_examples_work_as_printed() {
    let mut differences = check("README.md", true);
    differences.extend(check("docs/GUIDE.md", true));
    assert!(differences.is_empty(), "{}", differences.join("\n\n"));
}

#[test]
fn the_checker_finds_a_drifted_example_and_masks_only_timings() {
    let printed = |s: &str| s.lines().map(masked).collect::<Vec<_>>();
    // the README's drifted example: a2 at depth 3, the program says 2
    assert!(!matches(
        &printed(r#"{"move":"a2","value":"loss","depth":3,"best":false},…"#),
        &printed(r#"{"move":"a2","value":"loss","depth":2,"best":false},{"move":"b2"}"#)
    ));
    assert!(matches(
        &printed("solved in 0.001 s on 2 threads, 4.5 M states/s\n…\nend"),
        &printed("solved in 0.093 s on 1 thread, 58,211 states/s\na\nb\nend")
    ));
    assert!(!matches(
        &printed("positions 5,478"),
        &printed("positions 5,477")
    ));
    assert!(matches(
        &printed(r#"{"value":"draw","seconds":0.01,"threads":2}"#),
        &printed(r#"{"value":"draw","seconds":1.5e-3,"threads":1}"#)
    ));
    assert!(!matches(&printed("a\nb"), &printed("a")));
}

/// Second audit, line 10: the README said nothing of how to get the
/// `retrograde` command its examples use. It says how to install it and
/// names the two commands, and the test command is the one CI runs.
#[test]
fn the_readme_says_how_to_install_and_its_commands_are_ci_s() {
    let root = crate::common::root();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let setup = readme
        .find("## Install and run")
        .expect("an install section");
    let section = &readme[setup..setup + 600.min(readme.len() - setup)];
    for line in [
        "cargo install --locked --path cli",
        "retrograde mnk",
        "scripts/test.sh",
    ] {
        assert!(section.contains(line), "README's set-up lacks {line:?}");
    }
    let ci = std::fs::read_to_string(root.join(".ci/run")).unwrap();
    assert!(ci.lines().any(|l| l.trim() == "scripts/test.sh"), "{ci}");
    // short: a tour, not the guide
    assert!(
        readme.lines().count() < 250,
        "README has {} lines",
        readme.lines().count()
    );
}
