//! The symbolic engine's files against a forger who has read FORMAT.md and
//! recomputes every checksum (issue 73, lines 1, 2, 5 and 8): checkpoint
//! sets swapped, renamed or brought from another run, `progress.json`
//! edited, replaced by a FIFO or a device, naming plies past the board —
//! each refused with exit 2, naming the file; symbolic tables with k, the
//! board, the kind, the value, a count or a ply's won and lost sets forged
//! — each refused by `query --check`, which accepts every genuine table.

use std::path::Path;

use serde_json::Value;

use crate::common::cli::{refused, retrograde, run_within, scratch_dir};
use crate::common::symbolic_forge::{forge_progress, ForgedSymbolic};

/// `connect 4×4` (k = 4 unless given) with the symbolic engine and `extra`.
fn connect_4x4(extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        "connect",
        "--cols",
        "4",
        "--rows",
        "4",
        "--engine",
        "symbolic",
        "-q",
        "--threads",
        "2",
        "--max-memory",
        "256MiB",
    ]
    .map(String::from)
    .to_vec();
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

/// The report without its last line (the time it took).
fn without_time(report: &str) -> String {
    let lines: Vec<&str> = report.lines().collect();
    lines[..lines.len().saturating_sub(1)].join("\n")
}

fn run_ok(args: &[String]) -> String {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = retrograde(&args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn refused_with(args: &[String]) -> String {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    refused(&args)
}

/// A finished checkpoint of connect 4×4 in `dir/name`.
fn finished_checkpoint(dir: &Path, name: &str, k: &str) -> std::path::PathBuf {
    let cp = dir.join(name);
    run_ok(&connect_4x4(&[
        "--k",
        k,
        "--checkpoint",
        cp.to_str().unwrap(),
    ]));
    cp
}

#[test]
fn checkpoint_sets_swapped_renamed_or_foreign_are_refused_naming_the_file() {
    let dir = scratch_dir("forge", "sets");
    let cp = finished_checkpoint(&dir, "cp", "4");
    let cp3 = finished_checkpoint(&dir, "cp3", "3");
    let out = dir.join("t.rtb");
    let resume = connect_4x4(&[
        "--checkpoint",
        cp.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let genuine = run_ok(&resume);
    std::fs::remove_file(&out).unwrap();
    let (won, lost) = (cp.join("won-012.bdd"), cp.join("lost-012.bdd"));
    let (won_bytes, lost_bytes) = (std::fs::read(&won).unwrap(), std::fs::read(&lost).unwrap());
    // won and lost swapped: before the fix the resume wrote a wrong table
    std::fs::write(&won, &lost_bytes).unwrap();
    std::fs::write(&lost, &won_bytes).unwrap();
    let err = refused_with(&resume);
    assert!(
        err.contains("won-012.bdd") && err.contains("lost set"),
        "{err}"
    );
    assert!(!out.exists(), "no table written from a swapped set");
    // a set of the same ply and kind from a k = 3 run
    std::fs::write(&lost, &lost_bytes).unwrap();
    std::fs::copy(cp3.join("won-012.bdd"), &won).unwrap();
    let err = refused_with(&resume);
    assert!(err.contains("won-012.bdd") && err.contains("k=3"), "{err}");
    // a reachable set renamed into a won set's place
    std::fs::copy(cp.join("reach-012.bdd"), &won).unwrap();
    let err = refused_with(&resume);
    assert!(
        err.contains("won-012.bdd") && err.contains("reachable set"),
        "{err}"
    );
    std::fs::write(&won, &won_bytes).unwrap();
    assert_eq!(
        without_time(&run_ok(&resume)),
        without_time(&genuine),
        "the genuine sets still resume"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_edited_progress_file_is_refused_even_with_its_checksum_recomputed() {
    let dir = scratch_dir("forge", "progress");
    let cp = finished_checkpoint(&dir, "cp", "4");
    let progress = cp.join("progress.json");
    let original = std::fs::read(&progress).unwrap();
    let resume = connect_4x4(&["--checkpoint", cp.to_str().unwrap()]);
    // edited without the checksum
    let text = String::from_utf8(original.clone()).unwrap();
    let edited = text.replacen("\"positions\": 4,", "\"positions\": 5,", 1);
    assert_ne!(edited, text);
    std::fs::write(&progress, edited).unwrap();
    let err = refused_with(&resume);
    assert!(
        err.contains("progress.json") && err.contains("checksum"),
        "{err}"
    );
    // a ply's count edited, checksum recomputed: the set file disagrees
    std::fs::write(&progress, &original).unwrap();
    forge_progress(&progress, |p| {
        let n = p["backward"][16][1]["counts"]["first_won"]
            .as_u64()
            .unwrap();
        p["backward"][16][1]["counts"]["first_won"] = (n + 1).into();
        let d = p["backward"][16][1]["counts"]["first_drawn"]
            .as_u64()
            .unwrap();
        p["backward"][16][1]["counts"]["first_drawn"] = (d - 1).into();
    });
    let ply = {
        let v: Value = serde_json::from_slice(&std::fs::read(&progress).unwrap()).unwrap();
        v["progress"]["backward"][16][0].as_u64().unwrap()
    };
    let out = dir.join("t.rtb");
    let mut with_out = resume.clone();
    with_out.extend(["--out".into(), out.to_str().unwrap().into()]);
    let err = refused_with(&with_out);
    assert!(
        err.contains(&format!("-{ply:03}.bdd")) && err.contains("progress.json recorded"),
        "{err}"
    );
    // (before the fix: a panic at symbolic/backward.rs) a backward ply
    // past the board
    std::fs::write(&progress, &original).unwrap();
    forge_progress(&progress, |p| {
        let mut entry = p["backward"][0].clone();
        entry[0] = 99.into();
        entry[1]["counts"]["ply"] = 99.into();
        p["backward"].as_array_mut().unwrap().push(entry);
    });
    let err = refused_with(&resume);
    assert!(err.contains("progress.json"), "{err}");
    // a forward report out of order
    std::fs::write(&progress, &original).unwrap();
    forge_progress(&progress, |p| {
        p["forward"][3]["counts"]["ply"] = 4.into();
    });
    let err = refused_with(&resume);
    assert!(
        err.contains("progress.json") && err.contains("ply 4"),
        "{err}"
    );
    std::fs::write(&progress, &original).unwrap();
    run_ok(&resume);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_progress_file_that_is_a_fifo_or_a_device_is_refused_at_once() {
    let dir = scratch_dir("forge", "fifo");
    for (name, make) in [("fifo", "fifo"), ("zero", "/dev/zero"), ("big", "big")] {
        let cp = dir.join(name);
        std::fs::create_dir_all(&cp).unwrap();
        let progress = cp.join("progress.json");
        match make {
            "fifo" => {
                let made = std::process::Command::new("mkfifo")
                    .arg(&progress)
                    .status()
                    .unwrap();
                assert!(made.success());
            }
            "big" => std::fs::write(&progress, vec![b' '; 2 << 20]).unwrap(),
            device => std::os::unix::fs::symlink(device, &progress).unwrap(),
        }
        let args = connect_4x4(&["--checkpoint", cp.to_str().unwrap()]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, _, stderr) = run_within(&args, 30, None);
        assert_eq!(code, Some(2), "{name}: {stderr}");
        assert!(stderr.contains("progress.json"), "{name}: {stderr}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn temporaries_left_by_a_killed_run_are_removed_by_the_next_run_in_the_directory() {
    let dir = scratch_dir("forge", "stale");
    let cp = dir.join("cp");
    std::fs::create_dir_all(&cp).unwrap();
    // above Linux's largest pid: a process that is not alive
    let dead = (1u32 << 22) + 7;
    let stale = [
        cp.join(format!(".won-013.bdd.tmp-{dead}")),
        cp.join(format!(".progress.json.tmp-{dead}")),
        dir.join(format!(".t.rtb.spill-{dead}")),
        dir.join(format!(".t.rtb.tmp-{dead}")),
    ];
    let kept = [
        cp.join(format!(".notes.txt.tmp-{dead}")),
        dir.join(format!(".other.rtb.spill-{dead}")),
    ];
    for f in stale.iter().chain(&kept) {
        std::fs::write(f, b"left by a killed run").unwrap();
    }
    let out = dir.join("t.rtb");
    run_ok(&connect_4x4(&[
        "--checkpoint",
        cp.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]));
    for f in &stale {
        assert!(!f.exists(), "{} removed", f.display());
    }
    for f in &kept {
        assert!(f.exists(), "{} kept (not a name of this run)", f.display());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Solves a symbolic table; returns its path.
fn symbolic_table(dir: &Path, name: &str, game: &[&str]) -> std::path::PathBuf {
    let file = dir.join(name);
    let mut args: Vec<&str> = game.to_vec();
    args.extend([
        "--engine",
        "symbolic",
        "-q",
        "--max-memory",
        "256MiB",
        "--out",
        file.to_str().unwrap(),
    ]);
    let out = retrograde(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    file
}

fn check_args(file: &Path) -> Vec<String> {
    [
        "query",
        file.to_str().unwrap(),
        "--check",
        "-q",
        "--max-memory",
        "256MiB",
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn query_check_certifies_genuine_symbolic_tables_and_refuses_every_forgery() {
    let dir = scratch_dir("forge", "tables");
    let mnk = symbolic_table(
        &dir,
        "m43.rtb",
        &["mnk", "--cols", "4", "--rows", "3", "--k", "3"],
    );
    let connect = symbolic_table(
        &dir,
        "c43.rtb",
        &["connect", "--cols", "4", "--rows", "3", "--k", "3"],
    );
    for genuine in [&mnk, &connect] {
        let text = run_ok(&check_args(genuine));
        assert!(text.contains("certified"), "{text}");
    }
    type Forgery = (&'static str, fn(&mut ForgedSymbolic));
    let forgeries: [Forgery; 8] = [
        ("k edited", |t| {
            let k = t.parameters["k"].as_u64().unwrap();
            t.parameters["k"] = (if k == 3 { 4 } else { 3 }).into();
        }),
        ("dimensions swapped", |t| {
            let (c, r) = (t.parameters["cols"].clone(), t.parameters["rows"].clone());
            t.parameters["cols"] = r;
            t.parameters["rows"] = c;
        }),
        ("kind swapped", |t| {
            let kind = u32::from_le_bytes(t.head[12..16].try_into().unwrap());
            t.set_kind(if kind == 3 { 4 } else { 3 });
        }),
        ("value edited", |t| {
            let v = t.summary["value"].as_str().unwrap();
            t.summary["value"] = if v == "draw" { "first" } else { "draw" }.into();
        }),
        ("a count edited", |t| {
            let c = &mut t.summary["plies"][5]["counts"];
            let (w, d) = (
                c["first_won"].as_u64().unwrap(),
                c["first_drawn"].as_u64().unwrap(),
            );
            if d > 0 {
                c["first_won"] = (w + 1).into();
                c["first_drawn"] = (d - 1).into();
            } else {
                c["first_won"] = (w - 1).into();
                c["first_drawn"] = (d + 1).into();
            }
        }),
        ("positions edited", |t| {
            let c = &mut t.summary["plies"][3]["counts"];
            c["positions"] = (c["positions"].as_u64().unwrap() + 1).into();
            c["first_drawn"] = (c["first_drawn"].as_u64().unwrap() + 1).into();
            let states = u64::from_le_bytes(t.head[24..32].try_into().unwrap()) + 1;
            t.head[24..32].copy_from_slice(&states.to_le_bytes());
        }),
        ("won and lost swapped", |t| {
            t.swap_won_lost(6);
            let p = &mut t.summary["plies"][6];
            let (w, l) = (p["won_nodes"].clone(), p["lost_nodes"].clone());
            p["won_nodes"] = l;
            p["lost_nodes"] = w;
            let c = &mut p["counts"];
            let (w, l) = (c["first_won"].clone(), c["first_lost"].clone());
            c["first_won"] = l;
            c["first_lost"] = w;
        }),
        ("encoding renamed", |t| {
            let e = t.summary["encoding"].as_str().unwrap();
            t.summary["encoding"] = if e == "pair" { "column" } else { "pair" }.into();
        }),
    ];
    for table in [&mnk, &connect] {
        let genuine = std::fs::read(table).unwrap();
        for (name, forge) in &forgeries {
            let mut t = ForgedSymbolic::parse(&genuine);
            forge(&mut t);
            let forged = t.bytes();
            assert!(forged != genuine, "{name} changes the file");
            let file = dir.join("forged.rtb");
            std::fs::write(&file, &forged).unwrap();
            let err = refused_with(&check_args(&file));
            assert!(err.contains("forged.rtb"), "{name}: {err}");
        }
        // the forger itself changes nothing it is not asked to
        let same = ForgedSymbolic::parse(&genuine).bytes();
        assert!(same == genuine, "the forger alone changes nothing");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

// (issue 73, line 4) a user's file created at --out while the solve ran
// was replaced at the end
#[test]
fn a_file_that_appears_at_out_during_the_run_is_kept_and_the_table_saved_beside_it() {
    let dir = scratch_dir("forge", "appears");
    let out = dir.join("c54.rtb");
    let mut args = connect_4x4(&["--out", out.to_str().unwrap()]);
    args[2] = "5".into(); // 5 columns: a solve of a few seconds
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_retrograde"))
        .args(&args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let spill = dir.join(format!(".c54.rtb.spill-{}", child.id()));
    let started = std::time::Instant::now();
    while !spill.exists() {
        assert!(child.try_wait().unwrap().is_none(), "the run ended first");
        assert!(started.elapsed().as_secs() < 60, "no spill file");
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    std::fs::write(&out, b"the user's notes").unwrap();
    let done = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&done.stderr).to_string();
    assert_eq!(done.status.code(), Some(2), "{stderr}");
    assert_eq!(std::fs::read(&out).unwrap(), b"the user's notes");
    let aside = dir.join(format!("c54.rtb.new-{}", done_pid(&stderr)));
    assert!(stderr.contains("saved as"), "{stderr}");
    let check = check_args(&aside);
    assert!(run_ok(&check).contains("certified"));
    // and --out inside the --checkpoint directory is refused before the run
    let cp = dir.join("cp");
    std::fs::create_dir_all(&cp).unwrap();
    let inside = cp.join("t.rtb");
    let err = refused_with(&connect_4x4(&[
        "--checkpoint",
        cp.to_str().unwrap(),
        "--out",
        inside.to_str().unwrap(),
    ]));
    assert!(err.contains("inside the --checkpoint directory"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The process id in a "saved as NAME.new-PID" message.
fn done_pid(stderr: &str) -> String {
    let at = stderr.rfind(".new-").expect("a .new-PID name") + 5;
    stderr[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect()
}
