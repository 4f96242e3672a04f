//! Help texts say what the program does: the commands that cover gravity
//! boards say so, `play --help` lists no flag play refuses, and the
//! `--max-memory` default is said as the code computes it.

use crate::common::cli::{refused, succeeds};

/// Top-level help: `play`, `search` and `verify` were described as m,n,k
/// only, though each covers gravity boards (Connect Four) too.
// issue 26, line 16
#[test]
fn top_level_help_names_gravity_boards_where_they_are_covered() {
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
// issue 26, line 16
#[test]
fn play_help_does_not_list_json() {
    let help = succeeds(&["play", "--help"]);
    assert!(!help.contains("--json"), "{help}");
    let stderr = refused(&["play", "mnk", "--json"]);
    assert!(stderr.contains("--json"), "{stderr}");
}

/// `--max-memory`'s default: help said "80% of physical memory", the
/// README (and the code, `Budget::default_for_machine`) the least of
/// physical memory, the cgroup's limit and the address-space limit. Help
/// and README now say the same sentence.
// issue 26, line 16
#[test]
fn max_memory_default_is_said_as_the_code_computes_it() {
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
    let readme =
        squeeze(&std::fs::read_to_string(crate::common::root().join("docs/GUIDE.md")).unwrap());
    assert!(readme.contains(DEFAULT));
    assert!(!readme.contains("80% of physical memory"));
    assert!(!readme.contains("80% of what the process may use"));
}
