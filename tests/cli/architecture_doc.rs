//! docs/ARCHITECTURE.md describes the code as it is (second audit, line
//! 18): every source file is named on it by its path, and every path it
//! names exists.

use std::path::Path;

fn source_files(dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            source_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path.to_str().unwrap().to_string());
        }
    }
}

#[test]
fn every_source_file_is_described_and_every_named_path_exists() {
    let root = crate::common::root();
    let doc = std::fs::read_to_string(root.join("docs/ARCHITECTURE.md")).unwrap();
    let mut files = Vec::new();
    for crate_source in ["src", "cli/src", "server/src"] {
        source_files(&root.join(crate_source), &mut files);
    }
    // named from the workspace's top, as the page names them
    let top = format!("{}/", root.display());
    let files: Vec<String> = files
        .iter()
        .map(|f| f.strip_prefix(&top).unwrap_or(f).to_string())
        .collect();
    let missing: Vec<&String> = files
        .iter()
        .filter(|f| !doc.contains(&format!("`{f}`")))
        .collect();
    assert!(missing.is_empty(), "not described: {missing:?}");
    let named: Vec<&str> = doc
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|t| {
            ["src/", "cli/", "server/", "docs/", "tests/"]
                .iter()
                .any(|top| t.starts_with(top))
        })
        .filter(|t| !t.contains(' ') && !t.contains('*'))
        .collect();
    let gone: Vec<&&str> = named.iter().filter(|p| !root.join(p).exists()).collect();
    assert!(gone.is_empty(), "named but gone: {gone:?}");
}

/// A circle through `m` of the graph `edges`, by depth-first search.
fn visit(
    m: &str,
    edges: &[(String, String)],
    path: &mut Vec<String>,
    done: &mut Vec<String>,
) -> Option<Vec<String>> {
    if let Some(i) = path.iter().position(|p| p == m) {
        let mut cycle = path[i..].to_vec();
        cycle.push(m.to_string());
        return Some(cycle);
    }
    if done.iter().any(|d| d == m) {
        return None;
    }
    path.push(m.to_string());
    for (_, to) in edges.iter().filter(|(f, _)| f == m) {
        if let Some(c) = visit(to, edges, path, done) {
            return Some(c);
        }
    }
    path.pop();
    done.push(m.to_string());
    None
}

/// The sibling modules of `cli/src/` that `file` names (`super::NAME`,
/// `super::super::NAME` from a nested module, or `use super::{NAME, …}`).
fn cli_siblings_named(file: &Path, siblings: &[String]) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap();
    // keep code only: a sibling named in a comment is no dependency
    let code: String = text
        .lines()
        .map(|l| l.split("//").next().unwrap())
        .collect::<Vec<_>>()
        .join("\n");
    siblings
        .iter()
        .filter(|s| {
            let named = |prefix: &str| {
                code.match_indices(prefix).any(|(i, _)| {
                    let rest = &code[i + prefix.len()..];
                    rest.starts_with(s.as_str())
                        && !rest[s.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
                })
            };
            named("super::") || named("super::super::")
        })
        .cloned()
        .collect()
}

/// Second audit, line 18: the command modules `connect`, `mnk` and
/// `distributed` imported each other in a circle. The modules of
/// `cli/src/` may depend on each other only one way.
#[test]
fn the_command_modules_import_each_other_without_a_circle() {
    let root = crate::common::root();
    let cli = root.join("cli/src");
    let mut files = Vec::new();
    source_files(&cli, &mut files);
    // a module is a file of cli/src/ or a folder's mod.rs and its files
    // (main.rs, the crate's root, declares them all)
    let module_of = |f: &str| -> String {
        let rel = Path::new(f).strip_prefix(&cli).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_str()
            .unwrap();
        first.trim_end_matches(".rs").to_string()
    };
    let mut modules: Vec<String> = files.iter().map(|f| module_of(f)).collect();
    modules.sort();
    modules.dedup();
    modules.retain(|m| m != "main");
    let mut edges: Vec<(String, String)> = Vec::new();
    for f in &files {
        let from = module_of(f);
        if from == "main" {
            continue;
        }
        for to in cli_siblings_named(Path::new(f), &modules) {
            if to != from {
                edges.push((from.clone(), to));
            }
        }
    }
    let mut done = Vec::new();
    for m in &modules {
        if let Some(cycle) = visit(m, &edges, &mut Vec::new(), &mut done) {
            panic!(
                "cli/src modules import each other in a circle: {}",
                cycle.join(" -> ")
            );
        }
    }
    assert!(edges
        .iter()
        .any(|(f, t)| f == "connect" && t == "distributed"));
}

/// Code of `file` without its comments.
fn code_of(file: &Path) -> String {
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .map(|l| l.split("//").next().unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level modules of the library that `code` names: `crate::NAME`,
/// `crate::{NAME, …}`, and `super::` chains that climb to the crate root
/// from a file `depth` modules below it.
fn crate_modules_named(code: &str, depth: usize, modules: &[String]) -> Vec<String> {
    let ident = |rest: &str| -> String {
        rest.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut named = Vec::new();
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            named.extend(group.split(',').map(|item| ident(item.trim())));
        } else {
            named.push(ident(rest));
        }
    }
    let climb = "super::".repeat(depth);
    if depth > 0 {
        for (i, _) in code.match_indices(&climb) {
            let rest = &code[i + climb.len()..];
            if !rest.starts_with("super::") {
                named.push(ident(rest));
            }
        }
    }
    named.retain(|n| modules.contains(n));
    named.sort();
    named.dedup();
    named
}

/// Issue 74, line 8: the library's top-level modules (rooms such as
/// `tables`, `search`, `prove`, `position`, `tablefile`) import each
/// other one way only, so that a room can be read, tested and changed
/// with only the rooms below it in mind.
/// The library's rooms (top-level modules) and which of them each names.
fn room_edges() -> (Vec<String>, Vec<(String, String)>) {
    let src = crate::common::root().join("src");
    let mut files = Vec::new();
    source_files(&src, &mut files);
    let module_of = |f: &str| -> (String, usize) {
        let rel = Path::new(f).strip_prefix(&src).unwrap();
        let parts: Vec<&str> = rel.iter().map(|c| c.to_str().unwrap()).collect();
        // a file's depth below the root: `a/b.rs` and `a/b/mod.rs` are 2
        let depth = parts.len() - usize::from(parts.last() == Some(&"mod.rs"));
        (parts[0].trim_end_matches(".rs").to_string(), depth)
    };
    let mut modules: Vec<String> = files.iter().map(|f| module_of(f).0).collect();
    modules.sort();
    modules.dedup();
    // the crate root stands above every room
    modules.retain(|m| m != "lib");
    let mut edges: Vec<(String, String)> = Vec::new();
    for f in &files {
        let (from, depth) = module_of(f);
        if !modules.contains(&from) {
            continue;
        }
        for to in crate_modules_named(&code_of(Path::new(f)), depth, &modules) {
            if to != from {
                edges.push((from.clone(), to));
            }
        }
    }
    edges.sort();
    edges.dedup();
    (modules, edges)
}

#[test]
fn the_library_rooms_import_each_other_without_a_circle() {
    let (modules, edges) = room_edges();
    let mut done = Vec::new();
    for m in &modules {
        if let Some(cycle) = visit(m, &edges, &mut Vec::new(), &mut done) {
            panic!(
                "the library's modules import each other in a circle: {}",
                cycle.join(" -> ")
            );
        }
    }
    // the check sees the imports it is about
    for (from, to) in [
        ("tables", "game"),
        ("prove", "search"),
        ("tablefile", "tables"),
    ] {
        assert!(
            edges.iter().any(|(f, t)| f == from && t == to),
            "{from} -> {to} not seen"
        );
    }
}

/// Issue 74, line 7: docs/ARCHITECTURE.md is written for a reader, its
/// lines at most 100 characters (table rows included).
#[test]
fn the_architecture_page_keeps_its_lines_short() {
    let root = crate::common::root();
    let doc = std::fs::read_to_string(root.join("docs/ARCHITECTURE.md")).unwrap();
    let long: Vec<(usize, usize)> = doc
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.chars().count()))
        .filter(|&(_, n)| n > 100)
        .collect();
    assert!(
        long.is_empty(),
        "lines over 100 characters (line, length): {long:?}"
    );
}

/// Issue 74, line 6: the independent certificate checker (`checker/`) is
/// written apart from the provers: it names nothing of the library and
/// depends on no crate; and the library (`src/`; the command's crate,
/// `cli/`, runs it for `check-proof`) does not use it, so that the two
/// never share a mistake.
#[test]
fn the_checker_and_the_library_stand_apart() {
    let root = crate::common::root();
    let mut checker = Vec::new();
    source_files(&root.join("checker/src"), &mut checker);
    assert!(checker.len() >= 5, "{checker:?}");
    for f in &checker {
        let code = code_of(Path::new(f));
        assert!(!code.contains("retrograde::"), "{f} uses the library");
    }
    let manifest = std::fs::read_to_string(root.join("checker/Cargo.toml")).unwrap();
    let section = manifest.split("\n[dependencies]").nth(1).unwrap();
    let dependencies = section.split("\n[").next().unwrap();
    assert!(
        dependencies
            .lines()
            .all(|l| l.trim().is_empty() || l.trim().starts_with('#')),
        "the checker depends on no crate: {dependencies}"
    );
    let mut library = Vec::new();
    source_files(&root.join("src"), &mut library);
    let cli = root.join("cli/src");
    for f in &library {
        let code = code_of(Path::new(f));
        assert!(!code.contains("retrograde_checker"), "{f} uses the checker");
    }
    // the check sees the one use there is
    assert!(code_of(&cli.join("check_proof.rs")).contains("retrograde_checker::check"));
}

/// The doc comments (`//!`, `///`) of `file`, a block of consecutive
/// lines at a time, each with the number of its first line, code spans and
/// fenced code left out (a span or fence may run over several lines).
fn doc_prose(file: &str) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(file).unwrap();
    let mut blocks: Vec<(usize, String)> = Vec::new();
    let mut block: Option<(usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        let doc = (t.starts_with("//!") || t.starts_with("///")) && !t.starts_with("////");
        if doc {
            let b = block.get_or_insert((i + 1, String::new()));
            b.1.push_str(&t[3..]);
            b.1.push('\n');
        } else if let Some(b) = block.take() {
            blocks.push(b);
        }
    }
    blocks.extend(block);
    for (_, text) in &mut blocks {
        let mut prose = String::new();
        let mut fenced = false;
        for line in text.lines() {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
            } else if !fenced {
                prose.push_str(line);
                prose.push('\n');
            }
        }
        *text = prose.split('`').step_by(2).collect::<Vec<_>>().join(" ");
    }
    blocks
}

/// A date written YYYY-MM-DD in `text`, of the year 2000 or later (a
/// run's; not a fixed reference such as the Unix epoch, 1970-01-01), if
/// there is one.
fn a_date(text: &str) -> Option<String> {
    let c: Vec<char> = text.chars().collect();
    let digits = |from: usize, n: usize| c[from..from + n].iter().all(char::is_ascii_digit);
    let number = |from: usize, n: usize| -> u32 {
        c[from..from + n]
            .iter()
            .collect::<String>()
            .parse()
            .unwrap()
    };
    (0..c.len().saturating_sub(9))
        .filter(|&i| i == 0 || !c[i - 1].is_ascii_digit())
        .filter(|&i| digits(i, 4) && c[i + 4] == '-' && digits(i + 5, 2))
        .filter(|&i| number(i, 4) >= 2000)
        .filter(|&i| c[i + 7] == '-' && digits(i + 8, 2))
        .filter(|&i| (1..=12).contains(&number(i + 5, 2)) && (1..=31).contains(&number(i + 8, 2)))
        .map(|i| c[i..i + 10].iter().collect())
        .next()
}

/// Issue 74, line 1: module and item docs describe the code as it is and
/// keep their measurements, but no run diary — no date (YYYY-MM-DD) and no
/// "session" in a `//!` or `///` comment of the library, the checker or
/// the Python bindings; the dated runs are in `results/LOG.md` and
/// `results/PROOFS-LOG.md`. Code spans and fenced code are not read: an
/// example of output may hold a date (`Machine::sentence`'s does); nor
/// are years before 2000 (the Unix epoch in `civil_from_days`'s doc).
#[test]
fn doc_comments_hold_no_run_diary() {
    let root = crate::common::root();
    let mut files = Vec::new();
    for dir in ["src", "checker/src", "bindings/python/src"] {
        source_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 100, "{}", files.len());
    let mut found = Vec::new();
    for path in &files {
        let file = Path::new(path).strip_prefix(root).unwrap().display();
        for (line, text) in doc_prose(path) {
            let lower = text.to_lowercase();
            let session = lower
                .match_indices("session")
                .any(|(i, _)| !lower[..i].ends_with(char::is_alphabetic));
            if let Some(date) = a_date(&text) {
                found.push(format!("{file}, the doc from line {line}: {date}"));
            }
            if session {
                found.push(format!("{file}, the doc from line {line}: \"session\""));
            }
        }
    }
    assert!(found.is_empty(), "run diaries in doc comments: {found:#?}");
}

/// The string literals of Rust `code`, in order: `"…"` (escapes kept as
/// written) and raw `r"…"`, `r#"…"#`; comments and character literals
/// skipped.
fn string_literals(code: &str) -> Vec<String> {
    let chars: Vec<char> = code.chars().collect();
    let (mut found, mut i) = (Vec::new(), 0);
    while i < chars.len() {
        let rest = |at: usize| chars.get(at).copied().unwrap_or('\0');
        match chars[i] {
            '/' if rest(i + 1) == '/' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '/' if rest(i + 1) == '*' => {
                i += 2;
                while i < chars.len() && !(chars[i] == '*' && rest(i + 1) == '/') {
                    i += 1;
                }
                i += 2;
            }
            // a character literal ('"', '\'', '\\'), not a lifetime
            '\'' if rest(i + 1) == '\\' => i += 4,
            '\'' if rest(i + 2) == '\'' => i += 3,
            'r' if (rest(i + 1) == '"' || rest(i + 1) == '#')
                && !(i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_')) =>
            {
                let hashes = chars[i + 1..].iter().take_while(|&&c| c == '#').count();
                let open = i + 1 + hashes;
                if rest(open) != '"' {
                    i += 1;
                    continue;
                }
                let close: String = std::iter::once('"')
                    .chain(std::iter::repeat_n('#', hashes))
                    .collect();
                let body: String = chars[open + 1..].iter().collect();
                let end = body.find(&close).expect("a raw string ends");
                found.push(body[..end].to_string());
                i = open + 1 + body[..end].chars().count() + close.chars().count();
            }
            '"' => {
                let mut text = String::new();
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\' {
                        text.push(chars[i]);
                        i += 1;
                    }
                    text.push(chars[i]);
                    i += 1;
                }
                found.push(text);
                i += 1;
            }
            _ => i += 1,
        }
    }
    found
}

#[test]
fn string_literals_are_read_whole_and_comments_skipped() {
    let code = "let a = \"one --x\"; // \"--y\"\n/* \"--z\" */ let c = '\"'; \
                let b = r#\"two \"--w\"\"#; let l: &'static str = \"\\\"--v\";";
    assert_eq!(
        string_literals(code),
        ["one --x", "two \"--w\"", "\\\"--v"].map(String::from)
    );
}

/// Issue 74, line 4: no message of the library names a command-line flag
/// (`--max-memory`): a refusal names its settings as an
/// `error::Remedy`, which the command line renders as flags and Python as
/// keyword arguments; only the front ends' crates (`cli/`, and the HTTP
/// server `server/` of `serve`) write flags.
#[test]
fn no_library_string_names_a_command_line_flag() {
    let root = crate::common::root();
    let mut library = Vec::new();
    source_files(&root.join("src"), &mut library);
    let cli = root.join("cli/src");
    let flag = |text: &str| {
        text.match_indices("--").any(|(at, _)| {
            text[at + 2..].starts_with(|c: char| c.is_ascii_lowercase())
                && !text[..at].ends_with(|c: char| c.is_alphanumeric() || c == '-')
        })
    };
    let mut named = Vec::new();
    for f in &library {
        let code = std::fs::read_to_string(f).unwrap();
        for text in string_literals(&code).iter().filter(|t| flag(t)) {
            named.push(format!("{f}: {text:?}"));
        }
    }
    assert!(
        named.is_empty(),
        "library strings naming a flag:\n{}",
        named.join("\n")
    );
    // the scan sees a flag where the command line writes one
    let prove = std::fs::read_to_string(cli.join("output.rs")).unwrap();
    assert!(string_literals(&prove).iter().any(|t| flag(t)));
}

/// Issue 88: the library carries none of a front end's dependencies.
/// `cargo tree -p retrograde` (its normal dependencies, every feature on)
/// names none of the command line's, the server's or the bindings'
/// crates, and no crate of the workspace but the library itself: the
/// front ends depend on the library, never the other way.
#[test]
fn the_library_depends_on_no_front_end() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = std::process::Command::new(cargo)
        .current_dir(crate::common::root())
        .args(["tree", "-p", "retrograde", "--edges", "normal"])
        .args(["--prefix", "none", "--all-features", "--locked"])
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tree = String::from_utf8(out.stdout).unwrap();
    let crates: Vec<&str> = tree.lines().filter_map(|l| l.split(' ').next()).collect();
    let front_ends = [
        "clap",
        "indicatif",
        "plotters",
        "axum",
        "hyper",
        "hyper-util",
        "tower",
        "tower-http",
        "tokio",
        "serde_urlencoded",
        "pyo3",
        "retrograde-cli",
        "retrograde-server",
        "retrograde-python",
        "retrograde-checker",
    ];
    let found: Vec<&&str> = front_ends.iter().filter(|c| crates.contains(c)).collect();
    assert!(
        found.is_empty(),
        "the library depends on {found:?}:\n{tree}"
    );
    // the check reads the tree it is about
    for engine in ["rayon", "oxidd", "bitvec", "memmap2"] {
        assert!(crates.contains(&engine), "{engine} not seen:\n{tree}");
    }
}

/// Issue 88: engines never print. What a long run has to say leaves the
/// library through its progress and report channels
/// (`runtime::progress::Progress`, `ReportLines`), which each front end
/// shows its own way; no code of the library writes to stdout or stderr.
#[test]
fn the_library_never_prints() {
    let root = crate::common::root();
    let mut library = Vec::new();
    source_files(&root.join("src"), &mut library);
    let printing = ["println!", "eprintln!", "print!(", "eprint!(", "dbg!("];
    let mut found = Vec::new();
    for f in &library {
        let code = code_of(Path::new(f));
        for macro_name in printing.iter().filter(|m| code.contains(*m)) {
            found.push(format!("{f}: {macro_name}"));
        }
    }
    assert!(found.is_empty(), "the library prints: {found:?}");
    // the scan reads code the front ends print from
    assert!(code_of(&root.join("cli/src/prove.rs")).contains("eprintln!"));
}

/// The library's surface is what `src/lib.rs` re-exports: every module it
/// declares from a file is private, every public module is written inline
/// and holds only documentation, re-exports of the crate's own items and
/// further such modules, and `missing_docs` is on.
#[test]
fn the_library_exports_only_its_surface() {
    let lib = std::fs::read_to_string(crate::common::root().join("src/lib.rs")).unwrap();
    assert!(
        lib.contains("#![warn(missing_docs)]"),
        "missing_docs is off"
    );
    let mut inline_modules = 0;
    for (i, line) in lib.lines().enumerate() {
        let code = line.trim();
        let at = format!("src/lib.rs:{}: {code}", i + 1);
        if code.is_empty() || code.starts_with("//") || code.starts_with('#') || code == "}" {
            continue;
        }
        if code.starts_with("mod ") {
            assert!(code.ends_with(';'), "{at}");
        } else if code.starts_with("pub mod ") {
            assert!(code.ends_with(" {"), "a public module from a file: {at}");
            inline_modules += 1;
        } else if code.starts_with("pub use ") {
            let path = code.trim_start_matches("pub use ");
            let first = path.split("::").next().unwrap();
            let internal = [
                "crate",
                "analyzer",
                "board",
                "error",
                "position",
                "tablefile",
            ];
            assert!(internal.contains(&first), "a re-export from outside: {at}");
        } else {
            // the continuation lines of a re-export's list
            let names = code.trim_end_matches(['{', ',', ';', '}']).trim();
            assert!(
                names
                    .split([',', ' ', '{', '}', ':'])
                    .all(|w| w.chars().all(|c| c.is_alphanumeric() || c == '_')),
                "lib.rs holds something besides its surface: {at}"
            );
        }
    }
    assert!(inline_modules >= 6, "the surface's modules are missing");
}

/// The siblings of a room's folder that `code` names: `crate::PATH::NAME`
/// (and `crate::PATH::{NAME, …}`) with `PATH` the folder's module path,
/// and `super::` chains that climb from a file `depth` modules below the
/// folder to it (and `super::{NAME, …}`).
fn siblings_named(code: &str, path: &str, depth: usize, siblings: &[String]) -> Vec<String> {
    let ident = |rest: &str| -> String {
        rest.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut named = Vec::new();
    let mut prefixes = vec![format!("crate::{path}::")];
    if depth > 0 {
        prefixes.push("super::".repeat(depth));
    }
    for prefix in &prefixes {
        for (i, _) in code.match_indices(prefix.as_str()) {
            let rest = &code[i + prefix.len()..];
            if rest.starts_with("super::") || (i > 0 && code[..i].ends_with("super::")) {
                continue;
            }
            if let Some(group) = rest.strip_prefix('{') {
                let group = &group[..group.find('}').unwrap_or(group.len())];
                named.extend(group.split(',').map(|item| ident(item.trim())));
            } else {
                named.push(ident(rest));
            }
        }
    }
    named.retain(|n| siblings.contains(n));
    named.sort();
    named.dedup();
    named
}

/// Issue 88: inside each room the files import each other one way only
/// (`analyzer/books.rs` and `searching.rs`, `search/bitboard` and
/// `book.rs`, `tablefile/certify.rs` and `gravity_certificate.rs`,
/// `tables/symbolic/checkpoint.rs` and `forward.rs`,
/// `prove/threats/steps.rs` and `zones.rs` did not).
#[test]
fn the_files_of_each_room_import_each_other_without_a_circle() {
    let src = crate::common::root().join("src");
    let mut files = Vec::new();
    source_files(&src, &mut files);
    let mut folders: Vec<std::path::PathBuf> = files
        .iter()
        .filter_map(|f| Path::new(f).parent().map(Path::to_path_buf))
        .filter(|d| d != &src)
        .collect();
    folders.sort();
    folders.dedup();
    let mut edges_seen = 0;
    for folder in &folders {
        let path = folder
            .strip_prefix(&src)
            .unwrap()
            .iter()
            .map(|c| c.to_str().unwrap())
            .collect::<Vec<_>>()
            .join("::");
        // each file below the folder belongs to one sibling: `x.rs`,
        // `x/mod.rs` and `x/**` are the sibling `x`, at a depth below it
        let member = |f: &str| -> Option<(String, usize)> {
            let rel = Path::new(f).strip_prefix(folder).ok()?;
            let parts: Vec<&str> = rel.iter().map(|c| c.to_str().unwrap()).collect();
            if parts == ["mod.rs"] {
                return None;
            }
            let depth = parts.len() - usize::from(parts.last() == Some(&"mod.rs"));
            Some((parts[0].trim_end_matches(".rs").to_string(), depth))
        };
        let mut siblings: Vec<String> = files
            .iter()
            .filter_map(|f| member(f))
            .map(|m| m.0)
            .collect();
        siblings.sort();
        siblings.dedup();
        let mut edges: Vec<(String, String)> = Vec::new();
        for f in &files {
            let Some((from, depth)) = member(f) else {
                continue;
            };
            for to in siblings_named(&code_of(Path::new(f)), &path, depth, &siblings) {
                if to != from {
                    edges.push((from.clone(), to));
                }
            }
        }
        edges.sort();
        edges.dedup();
        edges_seen += edges.len();
        let mut done = Vec::new();
        for m in &siblings {
            if let Some(cycle) = visit(m, &edges, &mut Vec::new(), &mut done) {
                panic!(
                    "the files of src/{} import each other in a circle: {}",
                    path.replace("::", "/"),
                    cycle.join(" -> ")
                );
            }
        }
    }
    // the check sees the imports it is about
    assert!(edges_seen > 50, "only {edges_seen} imports seen");
}

/// Issue 88: each room uses only what the "may use" column of
/// docs/ARCHITECTURE.md's table of rooms allows: the rooms it names; for
/// "below", the rooms listed below the first one named (or below its own
/// row); for "ground", the ground rows (from `src/board/` down); for the
/// ground files' "one way", each other (the circle test keeps that one
/// way); for "nothing", nothing.
#[test]
fn the_rooms_use_only_what_the_architecture_page_allows() {
    let page = std::fs::read_to_string(crate::common::root().join("docs/ARCHITECTURE.md")).unwrap();
    let table = page
        .split("| room | holds | may use |")
        .nth(1)
        .expect("the table of rooms");
    let mut rows: Vec<(Vec<String>, String)> = Vec::new();
    for line in table.lines().skip(2) {
        if !line.starts_with('|') {
            break;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let (room, may_use) = (cells[1], cells[3]);
        let names: Vec<String> = if room == "ground" {
            cells[2]
                .split(',')
                .map(|n| n.trim().trim_matches('`').to_string())
                .collect()
        } else {
            let path = room.trim_matches('`');
            let name = path.trim_start_matches("src/").trim_end_matches('/');
            vec![name.trim_end_matches(".rs").to_string()]
        };
        rows.push((names, may_use.to_string()));
    }
    let row_of = |m: &str| {
        rows.iter()
            .position(|(names, _)| names.iter().any(|n| n == m))
    };
    let (modules, edges) = room_edges();
    for m in &modules {
        assert!(
            row_of(m).is_some(),
            "the room {m} is not in the page's table"
        );
    }
    let ground = row_of("board").expect("the board room");
    for (from, to) in &edges {
        let (f, t) = (row_of(from).unwrap(), row_of(to).unwrap());
        let may_use = &rows[f].1;
        let named: Vec<usize> = may_use
            .split('`')
            .skip(1)
            .step_by(2)
            .filter_map(&row_of)
            .collect();
        let allowed = if may_use == "nothing" {
            false
        } else if named.contains(&t) {
            true
        } else if may_use.contains("below") {
            // the rooms below the first one named, or below this one
            t > named.iter().copied().min().unwrap_or(f)
        } else if may_use == "one way" {
            // the ground files among themselves (the circle test keeps
            // them one way)
            t == f
        } else {
            may_use.contains("ground") && t >= ground && t != f
        };
        assert!(
            allowed,
            "{from} uses {to}, but the page says {from} may use: {may_use}"
        );
    }
    assert!(edges.len() > 30, "only {} imports seen", edges.len());
}
