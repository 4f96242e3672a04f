//! `prove mnk --method threats` through the binary: gomoku positions proved
//! with certificates, bad ones refused, proofs kept in and resumed from
//! checkpoints, merged from the checkpoints of other runs, certificates
//! that cannot be written, and forged checkpoints refused.

use crate::common::cli::{refused, run_within};

/// `prove mnk --method threats`: a gomoku position proved with a
/// certificate; a finished game, a cell named twice, a board past 256
/// cells and `--after` without the threat prover are one-line errors (exit
/// 2); a position it cannot prove says "not proved" (exit 3).
#[test]
fn prove_mnk_by_threats_proves_positions_and_refuses_bad_ones() {
    let dir = std::env::temp_dir().join(format!("retrograde-threats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let proof = dir.join("proof.txt");
    let proof_arg = proof.to_str().unwrap();
    let prove = |args: &[&str]| {
        let all: Vec<&str> = ["prove", "mnk", "--method", "threats"]
            .into_iter()
            .chain(args.iter().copied())
            .collect();
        let (code, out, err) = run_within(&all, 120, None);
        (code, String::from_utf8(out).unwrap(), err)
    };
    let gomoku = ["--cols", "15", "--rows", "15", "--k", "5"];
    let (code, out, _) = prove(
        &[
            &gomoku[..],
            &["--after", "h8,a1,i9,a15", "--proof", proof_arg],
        ]
        .concat(),
    );
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("after h8,a1,i9,a15") && out.contains("first player wins"),
        "{out}"
    );
    assert!(std::fs::read_to_string(&proof)
        .unwrap()
        .starts_with("# retrograde threat proof certificate 2\n"));
    for (args, says) in [
        (vec!["--after", "h8,h8"], "played twice"),
        (
            vec!["--after", "h8,a1,i8,a2,j8,a3,k8,a4,l8"],
            "the game is over there",
        ),
        (vec!["--after", "z99"], "is off the board"),
        (vec!["--after", "h8,8h"], "is not a move"),
        (vec!["--after", "h8,i+9"], "is not a move"),
    ] {
        let (code, _, err) = prove(&[&gomoku[..], &args].concat());
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(
            err.contains(says) && err.lines().count() == 1,
            "{args:?}: {err}"
        );
    }
    let (code, _, err) = prove(&["--cols", "17", "--rows", "16", "--k", "5"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("takes 1 to 256"), "{err}");
    let all = [
        "prove", "mnk", "--cols", "15", "--rows", "15", "--k", "5", "--after", "h8",
    ];
    let (code, _, err) = run_within(&all, 60, None);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("only --method threats"), "{err}");
    let (code, out, _) = prove(&[&gomoku[..], &["--after", "h8,a1", "--time-limit", "1"]].concat());
    assert_eq!(code, Some(3), "{out}");
    assert!(out.contains("not proved"), "{out}");
    // and how far it got, move by move (Black's moves after h8 a1)
    assert!(
        out.contains("of the ") && out.contains(" moves searched there, "),
        "{out}"
    );
    // h8 a1 i9 a2: no win found within 14 stones, one within 16; tried in
    // turn, the horizons prove it; falling or bad ones are refused
    let horizon = |stones: &str| {
        let after = ["--after", "h8,a1,i9,a2", "--json", "--max-stones", stones];
        let (code, out, err) = prove(&[&gomoku[..], &after].concat());
        (code, serde_json::from_str(&out).unwrap_or_default(), err)
    };
    let (code, report, err): (_, serde_json::Value, _) = horizon("14");
    assert_eq!(code, Some(3), "{report}{err}");
    assert!(
        report["why_not"]
            .as_str()
            .unwrap()
            .contains("within a horizon of 14 stones"),
        "{report}"
    );
    let (code, report, err) = horizon("10,14,16");
    assert_eq!(code, Some(0), "{report}{err}");
    assert_eq!(report["proof"]["horizon"], 16, "{report}");
    for bad in ["16,14", "14,14", "0,16", "14,x", ""] {
        let (code, _, err) = horizon(bad);
        assert_eq!(code, Some(2), "{bad}: {err}");
        assert!(
            err.contains("--max-stones") && err.lines().count() == 1,
            "{bad}: {err}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A proof whose certificate fails (here: listing more positions than a
/// small --max-memory keeps) leaves its table in the checkpoint, and the
/// next run writes the certificate from it without searching again;
/// found within a horizon of 36 stones, it is not resumed under a
/// narrower one only (its certificate could not be read back there: the
/// search's moves past 30 stones are "not a win" under 30).
#[test]
fn a_proof_whose_certificate_fails_is_kept_in_its_checkpoint() {
    let dir = std::env::temp_dir().join(format!("retrograde-kept-proof-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (file, proof) = (dir.join("proof.checkpoint"), dir.join("proof.txt"));
    let prove = |memory: &str, horizons: &str| {
        let fixed = "prove mnk --cols 15 --rows 15 --k 5 --method threats --json \
                     --after h8,a1,i9,a4,o15,a3 --max-memory";
        let all: Vec<&str> = fixed
            .split_whitespace()
            .chain([memory, "--max-stones", horizons])
            .chain(["--checkpoint", file.to_str().unwrap()])
            .chain(["--proof", proof.to_str().unwrap()])
            .collect();
        let (code, out, err) = run_within(&all, 120, None);
        let out = String::from_utf8(out).unwrap();
        let report = serde_json::from_str(&out).unwrap_or_default();
        (code, report, format!("{out}{err}"))
    };
    // proved within 10 MiB, but its certificate lists more positions
    // than so little memory keeps (its text is written as it is read;
    // the set of the positions listed is held): the proved table is
    // saved all the same
    let (code, report, text): (_, serde_json::Value, _) = prove("10MiB", "36");
    assert_eq!(code, Some(3), "{text}");
    let why = report["why_not"].as_str().unwrap();
    assert!(
        why.contains("found a win but") && why.contains("saved in the checkpoint"),
        "{text}"
    );
    assert_eq!(report["checkpoint"]["written"], 1, "{text}");
    assert!(file.exists() && !proof.exists());
    let saved = std::fs::read(&file).unwrap();
    let (code, _, text) = prove("256MiB", "30");
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("a horizon of 36 stones, wider than every --max-stones")
            && text.lines().count() == 1,
        "{text}"
    );
    assert_eq!(std::fs::read(&file).unwrap(), saved);
    // with more memory the next run reads the proof back and writes its
    // certificate without a position searched anew, at the checkpoint's
    // horizon among those given
    let (code, report, text) = prove("256MiB", "30,36");
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(report["checkpoint"]["horizon"], "36", "{text}");
    assert_eq!(report["proof"]["horizon"], 36, "{text}");
    let earlier = report["checkpoint"]["earlier_visits"].as_u64().unwrap();
    assert!(earlier > 0, "{text}");
    assert_eq!(
        report["proof"]["visits"].as_u64().unwrap(),
        earlier,
        "{text}"
    );
    assert!(std::fs::read_to_string(&proof)
        .unwrap()
        .starts_with("# retrograde threat proof certificate"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `prove mnk --method threats --checkpoint FILE`: a proof stopped by its
/// time limit leaves a checkpoint, and the next run resumes from it (its
/// report counts the earlier run's positions) to a proof; a file that is
/// not a checkpoint is left as it was, and another proof's checkpoint, a
/// damaged one, its own resumed with another `--covers`, and
/// `--checkpoint`, `--report-every`, `--zone-moves` or `--covers` without
/// the threat prover are one-line errors (exit 2).
#[test]
fn prove_mnk_by_threats_resumes_from_its_checkpoint_and_refuses_others() {
    let dir = std::env::temp_dir().join(format!("retrograde-checkpoint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("h8.checkpoint");
    let file_arg = file.to_str().unwrap();
    let prove = |after: &str, more: &[&str]| prove_threats(&["--zone-moves", "off"], after, more);
    // about 160 k positions, several seconds: not within half a second
    let after = "h8,a1,i9,a2";
    let (code, out, err) = prove(after, &["--checkpoint", file_arg, "--time-limit", "0.5"]);
    assert_eq!(code, Some(3), "{out}{err}");
    let first: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(
        first["checkpoint"]["written"].as_u64().unwrap() >= 1,
        "{out}"
    );
    assert!(file.exists());
    // (and follows the run by lines of counts on stderr)
    let (code, out, err) = prove(after, &["--checkpoint", file_arg, "--report-every", "0.1"]);
    assert_eq!(code, Some(0), "{out}{err}");
    let reports: Vec<&str> = err.lines().filter(|l| l.starts_with("progress ")).collect();
    assert!(
        !reports.is_empty()
            && reports
                .iter()
                .all(|l| l.contains(" settled ") && l.contains(", path")),
        "{err}"
    );
    // (the path names the moves from the root: X's third move is a cell)
    let named = |l: &&str| {
        let path = l.split(", path ").nth(1).unwrap_or("");
        path.split(' ')
            .next()
            .is_some_and(|c| c.len() >= 2 && c.as_bytes()[0].is_ascii_lowercase())
    };
    assert!(reports.iter().any(named), "{err}");
    let resumed: serde_json::Value = serde_json::from_str(&out).unwrap();
    let earlier = resumed["checkpoint"]["earlier_visits"].as_u64().unwrap();
    assert!(earlier > 0, "{out}");
    assert!(
        resumed["proof"]["visits"].as_u64().unwrap() > earlier,
        "{out}"
    );
    // a checkpoint of format version 1 (whole keys; written by the last
    // release that wrote it, with these arguments, `--after
    // h8,a1,i9,a2,h9 --time-limit 0.1`: 3,328 positions searched) is
    // read and resumed to a proof, its entries restored: the resumed run
    // searches fewer positions than one from scratch by at least half the
    // earlier run's (lost entries would make it search them all again)
    let old = dir.join("version1.checkpoint");
    std::fs::copy(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/fixtures/h8-a1-i9-a2-h9.v1.checkpoint"
        ),
        &old,
    )
    .unwrap();
    let visits = |out: &str| -> (u64, u64) {
        let report: serde_json::Value = serde_json::from_str(out).unwrap();
        let earlier = report["checkpoint"]["earlier_visits"].as_u64().unwrap_or(0);
        (report["proof"]["visits"].as_u64().unwrap(), earlier)
    };
    let (code, out, err) = prove("h8,a1,i9,a2,h9", &[]);
    assert_eq!(code, Some(0), "{out}{err}");
    let (scratch, _) = visits(&out);
    let (code, out, err) = prove("h8,a1,i9,a2,h9", &["--checkpoint", old.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{out}{err}");
    let (all, earlier) = visits(&out);
    assert_eq!(earlier, 3328, "{out}");
    assert!(
        all - earlier + earlier / 2 < scratch,
        "{out}: {scratch} from scratch"
    );
    // another position's proof, or the same with other settings, the
    // checkpoint damaged, no threat prover
    for other in [
        &["h8,a1,i9,b2", "--checkpoint", file_arg][..],
        &[after, "--checkpoint", file_arg, "--covers", "2"],
    ] {
        let (code, _, err) = prove(other[0], &other[1..]);
        assert_eq!(code, Some(2), "{other:?}: {err}");
        assert!(
            err.contains("another proof") && err.lines().count() == 1,
            "{other:?}: {err}"
        );
    }
    let mut bytes = std::fs::read(&file).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    let damaged = dir.join("damaged.checkpoint");
    std::fs::write(&damaged, &bytes).unwrap();
    let (code, _, err) = prove(after, &["--checkpoint", damaged.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("checksum") && err.lines().count() == 1,
        "{err}"
    );
    let other = dir.join("notes.txt");
    std::fs::write(&other, "not a checkpoint\n").unwrap();
    let (code, _, err) = prove(
        after,
        &[
            "--checkpoint",
            other.to_str().unwrap(),
            "--time-limit",
            "0.5",
        ],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("not a checkpoint"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&other).unwrap(),
        "not a checkpoint\n"
    );
    let all = [
        "prove",
        "mnk",
        "--cols",
        "7",
        "--rows",
        "7",
        "--k",
        "5",
        "--checkpoint",
        file_arg,
    ];
    let (code, _, err) = run_within(&all, 60, None);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("only --method threats"), "{err}");
    for flag in [
        &["--report-every", "60"][..],
        &["--zone-moves", "10"],
        &["--covers", "2"],
        &["--defender-runs"],
        &["--max-stones", "30"],
    ] {
        let (code, _, err) = run_within(&[&all[..8], flag].concat(), 60, None);
        assert_eq!(code, Some(2), "{flag:?}: {err}");
        assert!(
            err.contains("only --method threats") && err.contains(flag[0]),
            "{flag:?}: {err}"
        );
    }
    for every in ["0", "-1", "nan"] {
        let (code, _, err) = prove(after, &[&format!("--report-every={every}")]);
        assert_eq!(code, Some(2), "{every}: {err}");
        assert!(
            err.contains("--report-every") && err.lines().count() == 1,
            "{every}: {err}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `prove mnk --method threats --proof FILE` writes the certificate as it
/// is read from the prover: a write that fails (here past a file-size
/// limit, as on a full disk) leaves no file, whole or partial, is a
/// one-line error (exit 2) and keeps the proved table in the checkpoint,
/// from which the next run writes the certificate without searching.
#[cfg(target_os = "linux")]
#[test]
fn a_certificate_that_cannot_be_written_leaves_no_file_and_keeps_the_proof() {
    use std::os::unix::process::CommandExt;
    let dir = std::env::temp_dir().join(format!("retrograde-full-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (proof, checkpoint) = (dir.join("proof.txt"), dir.join("h8.checkpoint"));
    let fixed = "prove mnk --cols 15 --rows 15 --k 5 --method threats --after h8,a1,i9,a15 --json";
    let paths = [proof.to_str().unwrap(), checkpoint.to_str().unwrap()];
    let args: Vec<&str> = fixed
        .split(' ')
        .chain(["--proof", paths[0], "--checkpoint", paths[1]])
        .collect();
    // 512,000 bytes a file: the checkpoint (about 320 KB) fits, the
    // certificate (about 670 KB) does not
    let mut limited = std::process::Command::new(env!("CARGO_BIN_EXE_retrograde"));
    limited.args(&args);
    // SAFETY: between fork and exec, only async-signal-safe calls
    unsafe {
        limited.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 512_000,
                rlim_max: 512_000,
            };
            // a write past the limit then fails with EFBIG rather than
            // the signal killing the process
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = limited.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.lines().count() == 1
            && err.contains("--proof")
            && err.contains("the proved table is saved in the checkpoint"),
        "{err}"
    );
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["h8.checkpoint"], "{err}");
    let (code, out, err) = run_within(&args, 120, None);
    assert_eq!(code, Some(0), "{err}");
    let report: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(
        report["proof"]["visits"], report["checkpoint"]["earlier_visits"],
        "{report}"
    );
    let text = std::fs::read_to_string(&proof).unwrap();
    assert!(
        text.starts_with("# retrograde threat proof certificate 2\n") && text.len() > 512_000,
        "{} bytes",
        text.len()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `prove mnk --method threats --merge-checkpoint FILE`: the proof of a
/// position below, by a run of its own, is added before the search (its
/// proved positions counted in the report's `merged`), and the proof of
/// the position above goes through to a certificate; a file not there,
/// a checkpoint of other settings, the --checkpoint file itself and the
/// flag without the threat prover are one-line errors (exit 2).
#[test]
fn prove_mnk_by_threats_merges_the_proofs_of_other_checkpoints() {
    let dir = std::env::temp_dir().join(format!("retrograde-merge-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let below = dir.join("below.checkpoint");
    let below_arg = below.to_str().unwrap();
    let prove = |after: &str, more: &[&str]| prove_threats(&[], after, more);
    // a proof's checkpoint is saved with the proof (and its horizon)
    let (code, out, err) = prove(
        "h8,a1,i9,a2,h9",
        &["--checkpoint", below_arg, "--max-stones", "40"],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["checkpoint"]["written"], 1, "{out}");
    assert!(below.exists());
    // merged under a run of rising horizons, the run starts at one as
    // wide as its (a narrower one could not read its proofs back)
    let (code, out, err) = prove(
        "h8,a1,i9,a2",
        &["--merge-checkpoint", below_arg, "--max-stones", "20,40"],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("\"horizon\":40"), "{out}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["proved"], true, "{out}");
    assert_eq!(report["merged"][0]["file"], below_arg, "{out}");
    assert!(report["merged"][0]["proved"].as_u64().unwrap() > 0, "{out}");
    // (issue 73, line 5: a FIFO hung the merge) refused like --checkpoint FIFO
    let fifo = dir.join("fifo.checkpoint");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let fifo_arg = fifo.to_str().unwrap();
    for (more, says) in [
        (
            &["--merge-checkpoint", fifo_arg][..],
            "a FIFO is not a regular file",
        ),
        (
            &["--merge-checkpoint", "/nonexistent/x.checkpoint"][..],
            "no checkpoint there",
        ),
        (
            &["--merge-checkpoint", below_arg, "--covers", "2"],
            "another proof",
        ),
        (
            &["--merge-checkpoint", below_arg, "--max-stones", "20"],
            "wider than every --max-stones given",
        ),
        (
            &["--merge-checkpoint", below_arg, "--checkpoint", below_arg],
            "names the --checkpoint file",
        ),
    ] {
        let (code, _, err) = prove("h8,a1,i9,a2", more);
        assert_eq!(code, Some(2), "{more:?}: {err}");
        assert!(
            err.contains(says) && err.lines().count() == 1,
            "{more:?}: {err}"
        );
    }
    let err = refused(&[
        "prove",
        "mnk",
        "--cols",
        "4",
        "--rows",
        "4",
        "--k",
        "3",
        "--merge-checkpoint",
        below_arg,
    ]);
    assert!(err.contains("--merge-checkpoint"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `prove mnk` of 15 × 15, k = 5, by threats in 256 MiB with a JSON
/// report: `extra`, then `--after AFTER`, then `more`; the exit code,
/// stdout and stderr (within 120 s).
fn prove_threats(extra: &[&str], after: &str, more: &[&str]) -> (Option<i32>, String, String) {
    let fixed = "prove mnk --cols 15 --rows 15 --k 5 --method threats --max-memory 256MiB --json";
    let all: Vec<&str> = fixed
        .split(' ')
        .chain(extra.iter().copied())
        .chain(["--after", after])
        .chain(more.iter().copied())
        .collect();
    let (code, out, err) = run_within(&all, 120, None);
    (code, String::from_utf8(out).unwrap(), err)
}

/// A threat checkpoint's fields (docs/FORMAT.md): where its seconds and its
/// entries lie, for a forger who recomputes the checksum.
struct ThreatCheckpoint {
    bytes: Vec<u8>,
    seconds_at: usize,
    entries_at: usize,
    entries: usize,
}

impl ThreatCheckpoint {
    fn parse(bytes: Vec<u8>) -> Self {
        assert_eq!(&bytes[..8], b"RGTHREAT");
        assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 4);
        let identity = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
        let seconds_at = 16 + identity;
        let count_at = seconds_at + 8 + 4 * 8;
        let entries = u64::from_le_bytes(bytes[count_at..count_at + 8].try_into().unwrap());
        Self {
            bytes,
            seconds_at,
            entries_at: count_at + 8,
            entries: entries as usize,
        }
    }

    /// The file with its checksum (the last 8 bytes) recomputed.
    fn resummed(&self) -> Vec<u8> {
        let mut b = self.bytes.clone();
        let body = b.len() - 8;
        let sum = retrograde::disk::Checksum::default()
            .bytes(&b[..body])
            .value();
        b[body..].copy_from_slice(&sum.to_le_bytes());
        b
    }
}

// (issue 73, line 9) a forged "all proved" threat checkpoint was saved
// again ("certificate could not be read back"); NaN or negative seconds
// were read
#[test]
fn a_forged_threat_checkpoint_is_refused_and_nothing_is_saved_from_it() {
    let dir = std::env::temp_dir().join(format!("retrograde-forged-threat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cp = dir.join("open.checkpoint");
    let cp_arg = cp.to_str().unwrap();
    // a run stopped open by its time limit saves its table
    let (code, out, err) = prove_threats(&[], "h8", &["--checkpoint", cp_arg, "--time-limit", "2"]);
    assert_eq!(code, Some(3), "{out}{err}");
    let genuine = ThreatCheckpoint::parse(std::fs::read(&cp).unwrap());
    assert!(genuine.entries > 100, "{} entries", genuine.entries);
    // every entry made proved (proof number 0), the checksum recomputed
    let mut forged = ThreatCheckpoint::parse(genuine.bytes.clone());
    for i in 0..forged.entries {
        let at = forged.entries_at + 24 * i + 12;
        let proved = u64::from(u32::MAX / 2); // proof 0, disproof infinite
        forged.bytes[at..at + 8].copy_from_slice(&proved.to_le_bytes());
    }
    let forged_bytes = forged.resummed();
    std::fs::write(&cp, &forged_bytes).unwrap();
    let (code, out, err) =
        prove_threats(&[], "h8", &["--checkpoint", cp_arg, "--time-limit", "20"]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(
        err.contains("not saved again") && err.lines().count() == 1,
        "{err}"
    );
    assert!(
        std::fs::read(&cp).unwrap() == forged_bytes,
        "the file is left as it was"
    );
    // seconds searched NaN or negative
    for seconds in [f64::NAN, -5.0, f64::INFINITY] {
        let mut bad = ThreatCheckpoint::parse(genuine.bytes.clone());
        let at = bad.seconds_at;
        bad.bytes[at..at + 8].copy_from_slice(&seconds.to_bits().to_le_bytes());
        std::fs::write(&cp, bad.resummed()).unwrap();
        let (code, _, err) =
            prove_threats(&[], "h8", &["--checkpoint", cp_arg, "--time-limit", "2"]);
        assert_eq!(code, Some(2), "{seconds}: {err}");
        assert!(err.contains("seconds searched"), "{seconds}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
