//! `retrograde verify`: a case not reached says why (time or memory, in
//! the report and the JSON), `--case-seconds` says it bounds every case and
//! is checked before any work, the OEIS rows are shown whole, a subset runs
//! with `--only`, and the run stops when its reader goes away.

use std::process::Command;
use std::time::{Duration, Instant};

use crate::common::cli::{json_of, refused, retrograde, run_within};

const BIN: &str = env!("CARGO_BIN_EXE_retrograde");

// issue 26, line 13
#[test]
fn verify_says_why_a_case_was_not_reached_and_shows_rows_whole() {
    let args = ["verify", "--case-seconds", "0.3", "--max-memory", "2GiB"];
    let (code, out, err) = run_within(&[&args[..], &["--json"]].concat(), 300, None);
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let cases = v["cases"].as_array().unwrap();
    let reason_of = |case: &str| {
        let c = cases.iter().find(|c| c["case"] == case).expect(case);
        (c["status"].clone(), c["reason"].clone(), c["why"].clone())
    };
    // over the budget before it starts: memory, with the figure
    let (status, reason, why) = reason_of("Connect Four 6×5 positions");
    assert_eq!(
        (status.as_str(), reason.as_str()),
        (Some("not reached"), Some("memory"))
    );
    assert!(why.as_str().unwrap().contains("GiB"), "{why}");
    // out of its seconds: time
    let (_, reason, _) = reason_of("5,5,5 value (search)");
    assert_eq!(reason, "time");
    for c in cases.iter().filter(|c| c["status"] == "agrees") {
        assert!(c.get("reason").is_none(), "{c}");
    }
    // one JSON object: every case with its keys, none differing
    assert!(cases.len() > 30);
    for c in cases {
        for key in ["case", "published", "computed", "status", "seconds"] {
            assert!(c.get(key).is_some(), "{c}");
        }
    }
    assert_eq!(v["differ"], 0);
    let (code, out, err) = run_within(&args, 300, None);
    let out = String::from_utf8(out).unwrap();
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("not reached (memory): "), "{out}");
    assert!(out.contains("not reached (time): "), "{out}");
    assert!(out.contains("a full run needs about 12.6 GiB"), "{out}");
    // the OEIS row A317573 for n = 4, whole
    assert!(
        out.contains("0,0,0,0,0,0,1100,280,26771,11535,91567,36362,78138,26146,12900,3774,0"),
        "{out}"
    );
    let help = String::from_utf8(retrograde(&["verify", "--help"]).stdout).unwrap();
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        help.contains("the exhaustive counts and solves as well as the searches"),
        "{help}"
    );
    assert!(help.contains("12.6 GiB"), "{help}");
}

// (issue 73, line 15) verify ran every case or none, exited 0 with cases
// not reached, and said nothing of its total time; counts were ungrouped
#[test]
fn verify_runs_a_subset_states_its_time_and_is_strict_when_asked() {
    let out = retrograde(&["verify", "--only", "3,3,3 games"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("verify: 3 cases, each within 120 s: at most 6 min"),
        "{text}"
    );
    assert!(
        text.contains("255,168") && !text.contains("5,478"),
        "{text}"
    );
    let err = refused(&["verify", "--only", "no such case"]);
    assert!(err.contains("matches no case"), "{err}");
    // a case not reached: exit 0 without --strict, 3 with it
    let args = [
        "verify",
        "--only",
        "Connect Four 5×5 positions",
        "--max-memory",
        "20MiB",
    ];
    assert_eq!(retrograde(&args).status.code(), Some(0));
    let strict = [&args[..], &["--strict"]].concat();
    assert_eq!(retrograde(&strict).status.code(), Some(3));
}

// issue 12, line 5
#[test]
fn verify_case_seconds_are_checked_first() {
    for bad in ["NaN", "inf", "1e30", "-1", "1e19", "0"] {
        let (code, _, err) = run_within(&["verify", "--case-seconds", bad], 5, None);
        assert_eq!(code, Some(2), "{bad}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

// issue 12, line 11
#[test]
fn verify_and_bench_fail_fast_and_stop_when_unread() {
    let v = json_of(&[
        "verify",
        "--max-memory",
        "1MiB",
        "--case-seconds",
        "0.2",
        "--json",
    ]);
    assert!(v["not_reached"].as_u64().unwrap() > 0);
    assert_eq!(v["differ"], 0);
    let started = Instant::now();
    let status = Command::new("sh")
        .args(["-c", &format!("{BIN} verify | head -c 10 > /dev/null")])
        .status()
        .unwrap();
    assert!(status.success());
    assert!(started.elapsed() < Duration::from_secs(10));
    let started = Instant::now();
    refused(&["bench", "--markdown", "/nonexistent-dir/BENCH.md"]);
    assert!(started.elapsed() < Duration::from_secs(2));
}
