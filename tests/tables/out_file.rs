//! Writing a table with `--out`: a file that is not a table of this program
//! is replaced only with `--force`, a special file or a symlink never; a
//! replaced file keeps its mode; a name too long for its temporary file is
//! refused before any work; and `--help` says all this.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use crate::common::cli::{mkfifo, refused, retrograde, scratch_dir, succeeds};

const NOT_A_TABLE: &[u8] = b"notes that took a week to write\n";

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

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// `--out` over a regular file that is not a table of this program: it
/// was replaced (the notes lost); now every solving command refuses it
/// before any work, with one line naming `--force`, and leaves it
/// byte for byte as it was.
// issue 26, line 9
#[test]
fn out_refuses_a_file_that_is_not_a_table() {
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
// issue 26, line 9
#[test]
fn force_replaces_a_file_that_is_not_a_table() {
    let dir = scratch_dir("audit-out", "line9-force");
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, NOT_A_TABLE).unwrap();
    succeeds(&["mnk", "--out", notes.to_str().unwrap(), "--force"]);
    assert_eq!(table_game(&notes).0, "mnk");
    refused(&["mnk", "--force"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A table of this program of the same game and parameters (any engine)
/// is replaced without `--force`: a rerun overwrites its own output. (A
/// guard of the fix above: it passed before it, and must still.) A table
/// of another game, or of the same game with other parameters, is not
/// (issue 86: any table was replaced by any other): `--force` replaces it.
// issue 26, line 9; issue 86, line 5
#[test]
fn a_table_of_the_same_game_is_replaced_without_force() {
    let dir = scratch_dir("audit-out", "line9-table");
    let table = dir.join("t.rtb");
    let path = table.to_str().unwrap();
    succeeds(&["connect", "--cols", "4", "--rows", "4", "--out", path]);
    assert_eq!(table_game(&table).0, "connect");
    succeeds(&[
        "connect", "--cols", "4", "--rows", "4", "--engine", "symbolic", "--out", path,
    ]);
    succeeds(&["connect", "--cols", "4", "--rows", "4", "--out", path]);
    let before = std::fs::read(&table).unwrap();
    for (args, there) in [
        (
            &["mnk", "--out", path][..],
            "holds a table of connect 4×4, k = 4",
        ),
        (
            &["connect", "--cols", "5", "--rows", "4", "--out", path],
            "and this run writes a table of connect 5×4, k = 4",
        ),
        (
            &[
                "connect", "--cols", "4", "--rows", "4", "--k", "3", "--out", path,
            ],
            "and this run writes a table of connect 4×4, k = 3",
        ),
    ] {
        let stderr = refused(args);
        assert!(
            stderr.contains(there) && stderr.contains("--force"),
            "{args:?}: {stderr}"
        );
        assert_eq!(std::fs::read(&table).unwrap(), before, "{args:?}");
    }
    succeeds(&[
        "mnk", "--cols", "3", "--rows", "4", "--out", path, "--force",
    ]);
    let (game, parameters) = table_game(&table);
    assert_eq!(game, "mnk");
    assert_eq!(parameters["rows"], 4, "{parameters}");
    succeeds(&["mnk", "--cols", "3", "--rows", "4", "--out", path]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A replaced file keeps its permission bits: a table kept private (0600)
/// became 0644 (the new file took the umask's mode).
// issue 26, line 9
#[test]
fn a_replaced_file_keeps_its_mode() {
    let dir = scratch_dir("audit-out", "line9-mode");
    let table = dir.join("private.rtb");
    let path = table.to_str().unwrap();
    succeeds(&["connect", "--cols", "4", "--rows", "4", "--out", path]);
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
// issue 26, line 9
#[test]
fn out_help_says_what_is_replaced_and_that_hard_links_part() {
    for command in ["mnk", "connect", "nim", "cat-mouse", "play"] {
        let help = succeeds(&[command, "--help"]);
        assert!(help.contains("--force"), "{command}: {help}");
        assert!(help.contains("hard link"), "{command}: {help}");
    }
}

// issue 12, line 1
#[test]
fn out_never_replaces_a_special_file_or_a_symlink() {
    let dir = scratch_dir("hardening", "line1");
    let fifo = dir.join("f");
    mkfifo(&fifo);
    let real = dir.join("real.txt");
    std::fs::write(&real, "keep").unwrap();
    let link = dir.join("l");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let mut targets = vec![fifo.clone(), link.clone(), dir.clone()];
    // a device node of our own, where we may make one (root)
    let node = dir.join("n");
    if Command::new("mknod")
        .arg(&node)
        .args(["c", "1", "3"])
        .status()
        .is_ok_and(|s| s.success())
    {
        targets.push(node.clone());
    }
    for target in &targets {
        let line = refused(&["mnk", "--out", s(target)]);
        assert!(line.contains("only a regular file is replaced"), "{line}");
        let line = refused(&[
            "bench",
            "--threads-list",
            "1",
            "--runs",
            "1",
            "--markdown",
            s(target),
        ]);
        assert!(line.contains("--markdown"), "{line}");
    }
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "keep");
    if node.exists() {
        assert!(std::fs::symlink_metadata(&node)
            .unwrap()
            .file_type()
            .is_char_device());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--out` with a name of 245–255 bytes: the name itself fits a file name
/// but the temporary one written first (`.NAME.tmp-PID`) does not. It was
/// accepted, the board solved, and then the write failed ("File name too
/// long"); now it is refused before any work, naming the longest name
/// that works, and a name that short is written.
// issue 26, line 3
#[test]
fn an_out_name_too_long_for_its_temporary_is_refused_before_work() {
    let dir = std::env::temp_dir().join(format!("retrograde-audit2-line3-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let long = dir.join("a".repeat(250));
    let stderr = refused(&[
        "connect",
        "--cols",
        "4",
        "--rows",
        "4",
        "--out",
        long.to_str().unwrap(),
    ]);
    assert!(
        stderr.contains("too long") && stderr.contains("at most"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "nothing left behind"
    );
    // the longest name it names is written
    let most: usize = stderr
        .split("at most ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    let fits = dir.join("b".repeat(most));
    let out = retrograde(&[
        "connect",
        "--cols",
        "4",
        "--rows",
        "4",
        "-q",
        "--out",
        fits.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(fits.is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}
