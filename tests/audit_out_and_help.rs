//! Regression tests for three lines of issue 26 (the second audit): `--out`
//! replacing files that are not tables (line 9), a bad batch line echoed
//! whole and twice (line 8, its last part) and help texts that say less or
//! other than the program does (line 16). Each test is named for its line.

#[path = "common/cli.rs"]
mod cli_support;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use cli_support::{refused, retrograde, scratch_dir};

/// Runs `args` (which must succeed, quietly) and returns its stdout.
fn succeeds(args: &[&str]) -> String {
    let out = retrograde(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    String::from_utf8(out.stdout).unwrap()
}

/// The game and parameters `query FILE --info --json` reads from a table.
fn table_game(path: &Path) -> (String, serde_json::Value) {
    let text = succeeds(&["query", path.to_str().unwrap(), "--info", "--json"]);
    let info: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    let game = info["game"].as_str().unwrap_or("").to_string();
    let parameters = info
        .get("parameters")
        .cloned()
        .unwrap_or_else(|| serde_json::json!({"cols": info["cols"], "rows": info["rows"]}));
    (game, parameters)
}

const NOT_A_TABLE: &[u8] = b"notes that took a week to write\n";

/// `--out` over a regular file that is not a table of this program: it
/// was replaced (the notes lost); now every solving command refuses it
/// before any work, with one line naming `--force`, and leaves it
/// byte for byte as it was.
#[test]
fn line_9_out_refuses_a_file_that_is_not_a_table() {
    let dir = scratch_dir("audit-out", "line9-refuse");
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, NOT_A_TABLE).unwrap();
    let path = notes.to_str().unwrap();
    for args in [
        &["mnk", "--out", path][..],
        &["connect", "--cols", "4", "--rows", "4", "--out", path],
        &[
            "connect", "--cols", "4", "--rows", "4", "--engine", "symbolic", "--out", path,
        ],
        &["nim", "--stones", "20", "--out", path],
        &[
            "cat-mouse-grid",
            "--grid",
            "C...,.#..,...M,..F.",
            "--cat-jump",
            "1",
            "--mouse-jump",
            "2",
            "--out",
            path,
        ],
        &[
            "cat-mouse",
            "--graph",
            "[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]",
            "--out",
            path,
        ],
    ] {
        let stderr = refused(args);
        assert!(
            stderr.contains("--force") && stderr.contains("not a table"),
            "{args:?}: {stderr}"
        );
        assert_eq!(std::fs::read(&notes).unwrap(), NOT_A_TABLE, "{args:?}");
    }
    // an empty file is no table either
    let empty = dir.join("empty");
    std::fs::write(&empty, b"").unwrap();
    refused(&["mnk", "--out", empty.to_str().unwrap()]);
    assert_eq!(std::fs::read(&empty).unwrap(), b"");
    // no temporary file is left beside them
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--force` replaces a file that is not a table, and is refused without
/// `--out`.
#[test]
fn line_9_force_replaces_a_file_that_is_not_a_table() {
    let dir = scratch_dir("audit-out", "line9-force");
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, NOT_A_TABLE).unwrap();
    succeeds(&["mnk", "--out", notes.to_str().unwrap(), "--force"]);
    assert_eq!(table_game(&notes).0, "mnk");
    refused(&["mnk", "--force"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A table of this program (of any game, any engine) is replaced without
/// `--force`: a rerun overwrites its own output. (A guard of the fix
/// above: it passed before it, and must still.)
#[test]
fn line_9_a_table_of_ours_is_replaced_without_force() {
    let dir = scratch_dir("audit-out", "line9-table");
    let table = dir.join("t.rtb");
    let path = table.to_str().unwrap();
    succeeds(&["mnk", "--out", path]);
    assert_eq!(table_game(&table).0, "mnk");
    succeeds(&["connect", "--cols", "4", "--rows", "4", "--out", path]);
    assert_eq!(table_game(&table).0, "connect");
    succeeds(&[
        "connect", "--cols", "4", "--rows", "4", "--engine", "symbolic", "--out", path,
    ]);
    succeeds(&["mnk", "--cols", "3", "--rows", "4", "--out", path]);
    let (game, parameters) = table_game(&table);
    assert_eq!(game, "mnk");
    assert_eq!(parameters["rows"], 4, "{parameters}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A replaced file keeps its permission bits: a table kept private (0600)
/// became 0644 (the new file took the umask's mode).
#[test]
fn line_9_a_replaced_file_keeps_its_mode() {
    let dir = scratch_dir("audit-out", "line9-mode");
    let table = dir.join("private.rtb");
    let path = table.to_str().unwrap();
    succeeds(&["mnk", "--out", path]);
    for mode in [0o600, 0o640, 0o444] {
        std::fs::set_permissions(&table, std::fs::Permissions::from_mode(mode)).unwrap();
        succeeds(&["connect", "--cols", "4", "--rows", "4", "--out", path]);
        let kept = std::fs::metadata(&table).unwrap().permissions().mode() & 0o7777;
        assert_eq!(kept, mode, "mode {mode:o} became {kept:o}");
    }
    // and with --force over a file that is not a table
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, NOT_A_TABLE).unwrap();
    std::fs::set_permissions(&notes, std::fs::Permissions::from_mode(0o600)).unwrap();
    succeeds(&["mnk", "--out", notes.to_str().unwrap(), "--force"]);
    let kept = std::fs::metadata(&notes).unwrap().permissions().mode() & 0o7777;
    assert_eq!(kept, 0o600);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The help of `--out` says what is replaced, `--force`, and that a hard
/// link to the old file is not followed (the write renames a new file
/// into place).
#[test]
fn line_9_out_help_says_what_is_replaced_and_that_hard_links_part() {
    for command in ["mnk", "connect", "nim", "cat-mouse", "play"] {
        let help = succeeds(&[command, "--help"]);
        assert!(help.contains("--force"), "{command}: {help}");
        assert!(help.contains("hard link"), "{command}: {help}");
    }
}

/// A bad batch line: a megabyte's was quoted whole, twice (as the line
/// and as its one move), into a 2 MB line on stderr. Now a line under the
/// batch's cap on a line's length (4,096 bytes) is quoted at most once,
/// shortened to its start and its length in bytes; a longer one is refused
/// by its length alone. (Where the message goes — stderr, or the bad
/// line's answer — is the batch loop's business; this looks at both.)
#[test]
fn line_8_a_bad_batch_line_is_quoted_once_and_shortened() {
    for size in [4_000, 1_000_000] {
        let long = "x".repeat(size);
        let two_moves = format!("a1 {}", "b".repeat(size));
        let full_column = "1".repeat(size);
        for (game, line) in [
            ("mnk", long.as_str()),
            ("mnk", two_moves.as_str()),
            ("connect", full_column.as_str()),
        ] {
            let (code, said) = batch(game, format!("\n{line}\n").as_bytes());
            let shown = &said[..said.len().min(400)];
            assert!(
                code.is_some_and(|c| c != 0),
                "{game}: exit {code:?}: {shown}"
            );
            assert!(!said.contains("panicked"), "{shown}");
            assert!(
                said.len() < 1000,
                "{game}: {} bytes said: {shown}",
                said.len()
            );
            assert!(said.contains("line 2"), "{said}");
            let quoted = said.matches(&line[..40]).count();
            if size < 4096 {
                assert!(said.contains(&format!("({} bytes)", line.len())), "{said}");
                // the line's start appears once, not as the line and again as its move
                assert_eq!(quoted, 1, "{said}");
            } else {
                assert!(said.contains("bytes, more than the 4,096"), "{said}");
                assert!(quoted <= 1, "{said}");
            }
        }
    }
    // a short bad line is quoted whole, once
    let (code, said) = batch("mnk", b"zz\n");
    assert_eq!(code, Some(2));
    assert_eq!(said.matches("zz").count(), 1, "{said}");
    assert!(said.contains("\"zz\""), "{said}");
}

/// Runs `search GAME --positions -` on a 4×4 board with `input`, reading
/// its output while it runs (a long line on stderr fills no pipe);
/// returns the exit code and what it printed (stdout, then stderr).
fn batch(game: &str, input: &[u8]) -> (Option<i32>, String) {
    let args = [
        "search",
        game,
        "--cols",
        "4",
        "--rows",
        "4",
        "--positions",
        "-",
    ];
    let (code, stdout, stderr) = cli_support::run_within(&args, 120, Some(input));
    let mut said = String::from_utf8_lossy(&stdout).into_owned();
    said.push_str(&stderr);
    (code, said)
}

/// Top-level help: `play`, `search` and `verify` were described as m,n,k
/// only, though each covers gravity boards (Connect Four) too.
#[test]
fn line_16_top_level_help_names_gravity_boards_where_they_are_covered() {
    let help = succeeds(&["--help"]);
    for command in ["play", "search", "verify"] {
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{command} ")))
            .unwrap_or_else(|| panic!("no {command} in {help}"));
        assert!(
            line.contains("Connect") || line.contains("gravity"),
            "{command}: {line}"
        );
    }
    let search = succeeds(&["search", "--help"]);
    assert!(
        search.lines().next().unwrap().contains("gravity"),
        "{search}"
    );
    let play = succeeds(&["play", "--help"]);
    assert!(play.contains("play connect"), "{play}");
}

/// `play --help` listed `--json`, which play then refuses: it is not
/// listed now, and still refused in one line.
#[test]
fn line_16_play_does_not_list_json() {
    let help = succeeds(&["play", "--help"]);
    assert!(!help.contains("--json"), "{help}");
    let stderr = refused(&["play", "mnk", "--json"]);
    assert!(stderr.contains("--json"), "{stderr}");
}

/// `--max-memory`'s default: help said "80% of physical memory", the
/// README (and the code, `Budget::default_for_machine`) the least of
/// physical memory, the cgroup's limit and the address-space limit. Help
/// and README now say the same sentence.
#[test]
fn line_16_max_memory_default_is_said_as_the_code_computes_it() {
    const DEFAULT: &str = "80% of the least of physical memory, the cgroup's memory limit and the address-space limit";
    let squeeze = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    for command in [
        &["mnk", "--help"][..],
        &["connect", "--help"],
        &["search", "connect", "--help"],
        &["verify", "--help"],
        &["play", "--help"],
        &["cat-mouse", "--help"],
    ] {
        let help = squeeze(&succeeds(command));
        assert!(help.contains(DEFAULT), "{command:?}: {help}");
        assert!(!help.contains("80% of physical memory"), "{command:?}");
    }
    // the user guide holds what the README held of the options
    let readme = squeeze(
        &std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/GUIDE.md"))
            .unwrap(),
    );
    assert!(readme.contains(DEFAULT));
    assert!(!readme.contains("80% of physical memory"));
    assert!(!readme.contains("80% of what the process may use"));
}
