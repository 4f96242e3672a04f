//! The facade (issue 74, line 2): `Analyzer::prove` is the one prover
//! cascade behind `prove mnk` and `search mnk`; `search mnk --weak` on an
//! empty board reaches what the provers reach; errors name settings, which
//! each front end renders in its own words.

use std::time::{Duration, Instant};

use retrograde::{
    engines::bitboard::{Bitboard, BoardSearcher},
    facade::{race_for_the_value, Certificate, Method, ProofMethod, ProveRequest, Settled},
    host::{plain, Budget, Bytes, Silent},
    language::{GameValue, Outcome},
    Analyzer, BoardSize, Error, Family, Setting,
};

use crate::common::cli::{json_of, refused, retrograde, scratch_dir};

fn analyzer() -> Analyzer {
    Analyzer::new(Budget(Bytes(1 << 30)), 2)
}

#[test]
fn the_facade_proves_what_prove_mnk_proves_with_the_same_certificate() {
    let dir = scratch_dir("facade", "same");
    for (cols, rows, k, value, method) in [
        (5, 5, 5, GameValue::Draw, ProofMethod::Pairing),
        (4, 4, 4, GameValue::Draw, ProofMethod::Zones),
        (4, 3, 3, GameValue::First, ProofMethod::ProofNumberSearch),
    ] {
        let report = analyzer()
            .prove(&ProveRequest::new(BoardSize::new(cols, rows, k)))
            .unwrap();
        let proof = report.proof.expect("proved");
        assert_eq!((proof.value, proof.method), (value, method));
        let Certificate::Text(text) = proof.certificate else {
            panic!("a certificate in memory")
        };
        let file = dir.join(format!("{cols}-{rows}-{k}.proof"));
        let (c, r, k) = (cols.to_string(), rows.to_string(), k.to_string());
        let shown = json_of(&[
            "prove",
            "mnk",
            "--cols",
            &c,
            "--rows",
            &r,
            "--k",
            &k,
            "--proof",
            file.to_str().unwrap(),
            "--json",
        ]);
        assert_eq!(shown["value"], value.name());
        assert_eq!(shown["method"], method.name());
        assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn refusals_name_settings_which_each_front_end_renders_its_own_way() {
    let request = ProveRequest {
        after: "h8".into(),
        ..ProveRequest::new(BoardSize::new(15, 15, 5))
    };
    let err = analyzer().prove(&request).unwrap_err();
    assert!(matches!(
        err,
        Error::Setting {
            setting: Setting::After,
            ..
        }
    ));
    // the library's own words name no flag
    let words = err.to_string();
    assert!(!words.contains("--"), "{words}");
    assert_eq!(
        words,
        "the moves to prove after proves a position, which only the method threats does"
    );
    let flags = |s: Setting, v: Option<&str>| match v {
        Some(v) => format!("--{s:?} {v}").to_lowercase(),
        None => format!("--{s:?}").to_lowercase(),
    };
    assert_eq!(
        err.render(flags),
        "--after proves a position, which only --method threats does"
    );
    assert_eq!(plain(Setting::MaxMemory, None), "the memory budget");
    // the command line renders it with its flags
    let line = refused(&[
        "prove", "mnk", "--cols", "15", "--rows", "15", "--k", "5", "--after", "h8",
    ]);
    assert_eq!(
        line.trim(),
        "error: --after proves a position, which only --method threats does"
    );
}

#[test]
fn search_mnk_writes_the_certificate_of_the_empty_boards_value() {
    let dir = scratch_dir("facade", "search-proof");
    let file = dir.join("7-7-5.proof");
    let shown = json_of(&[
        "search",
        "mnk",
        "--cols",
        "7",
        "--rows",
        "7",
        "--k",
        "5",
        "--proof",
        file.to_str().unwrap(),
        "--json",
        "-q",
    ]);
    assert_eq!(
        (&shown["value"], &shown["method"]),
        (&"draw".into(), &"zones".into())
    );
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.starts_with("# retrograde zone proof certificate"),
        "{text:.80}"
    );
    // only the empty m,n,k board's value alone is certified
    let line = refused(&["search", "connect", "--proof", file.to_str().unwrap()]);
    assert!(
        line.contains("--proof certifies the empty m,n,k board"),
        "{line}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The race of `search mnk --weak`: the win prover beside the search, or
/// after it at one thread; either way the value is the search's.
#[test]
fn the_race_settles_the_value_the_search_would() {
    let size = BoardSize::new(6, 5, 4);
    let bitboard = Bitboard::new(Family::Mnk, BoardSize::new(6, 5, 4)).unwrap();
    let budget = Budget(Bytes(1 << 28));
    for threads in [1, 2] {
        let searcher = BoardSearcher::new(bitboard.clone(), 1 << 20, None, &Silent);
        let deadline = Some(Instant::now() + Duration::from_secs(120));
        match race_for_the_value(size, &searcher, &budget, threads, deadline, None).unwrap() {
            Settled::ByProof(proof) => {
                assert_eq!(proof.value, GameValue::First);
                assert_eq!(proof.method, ProofMethod::ProofNumberSearch);
            }
            Settled::BySearch(value) => {
                assert_eq!(threads, 2, "one thread: the win prover goes first");
                assert_eq!(value, Outcome::Win);
            }
            Settled::NotReached => panic!("6,5,4 is settled in seconds"),
        }
    }
}

/// Issue 74, done-when: `search mnk --cols 9 --rows 4 --k 4 --weak`
/// answers "win" within its time limit (about 110 s here: 10 s of search
/// alone, then the win prover beside it; the search alone does not reach
/// it in 300 s). Run with `-- --ignored`.
#[test]
#[ignore]
fn search_mnk_weak_reaches_the_win_of_9_4_4() {
    let started = Instant::now();
    let out = retrograde(&[
        "search",
        "mnk",
        "--cols",
        "9",
        "--rows",
        "4",
        "--k",
        "4",
        "--weak",
        "--time-limit",
        "300",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let shown: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(shown["value"], "first");
    assert!(started.elapsed() < Duration::from_secs(300));
}

#[test]
fn prove_methods_keep_their_names() {
    assert_eq!(ProofMethod::ProofNumberSearch.name(), "proof-number search");
    assert_eq!(GameValue::of_first_player(Outcome::Loss).name(), "second");
    assert_ne!(Method::Auto, Method::Threats);
}

/// Issue 88: the race lives in the facade. `Analyzer::answer`, asked the
/// empty m,n,k board's value alone (weak, one best move), lets the search
/// alone have a quarter of the time, then the provers join it; every front
/// end that asks the facade gets them (Python's `Searcher.answer(weak=True)`
/// did not). 5,5,5: the search needs about 1.7 s; in its first 0.1 s it
/// stops, and the pairing proves the draw at once. The note of the race is
/// told to the analyzer's notes, typed.
#[test]
fn the_facade_answers_the_empty_board_by_the_race() {
    use retrograde::{
        facade::{AnsweredBy, Note, Notes, Precision, Question},
        language::{BoardGame, MoveDetail},
        Position,
    };
    use std::sync::{Arc, Mutex};

    let told = Arc::new(Mutex::new(Vec::new()));
    let kept = told.clone();
    let analyzer = analyzer().with_notes(Notes::new(move |note| {
        kept.lock().unwrap().push(note.clone());
    }));
    let game = BoardGame::new(Family::Mnk, BoardSize::new(5, 5, 5)).unwrap();
    let searcher = analyzer.searcher(&game, 0).unwrap();
    let question = Question {
        precision: Precision::Weak,
        detail: MoveDetail::Best,
        time_limit: Some(Duration::from_millis(400)),
        ..Question::of(Position::default())
    };
    let report = analyzer
        .answer(&game, None, Some(&searcher), &question)
        .unwrap();
    assert_eq!(report.by, AnsweredBy::Provers);
    let proof = report.proof.expect("the pairing's proof");
    assert_eq!(
        (proof.value, proof.method),
        (GameValue::Draw, ProofMethod::Pairing)
    );
    let answer = report.answer.expect("the value");
    assert_eq!((answer.value, answer.depth), (Some(Outcome::Draw), None));
    assert!(answer.moves.is_empty(), "a pairing names no move");
    let told = told.lock().unwrap();
    assert!(
        matches!(told[..], [Note::ProversJoin { searched_alone }] if searched_alone < Duration::from_secs(1)),
        "{told:?}"
    );
}

/// The race stops when its question is cancelled: 9,4,4's value takes the
/// win prover about 86 s and the search longer; cancelled after 0.5 s, the
/// race returns at once, settled by neither (Python's Ctrl-C).
#[test]
fn a_cancelled_race_stops() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let size = BoardSize::new(9, 4, 4);
    let bitboard = Bitboard::new(Family::Mnk, size).unwrap();
    let budget = Budget(Bytes(1 << 28));
    for threads in [1, 2] {
        let searcher = BoardSearcher::new(bitboard.clone(), 1 << 20, None, &Silent);
        let cancel = AtomicBool::new(false);
        let started = Instant::now();
        let settled = std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(Duration::from_millis(500));
                cancel.store(true, Ordering::Relaxed);
            });
            race_for_the_value(size, &searcher, &budget, threads, None, Some(&cancel)).unwrap()
        });
        assert!(matches!(settled, Settled::NotReached), "{settled:?}");
        let took = started.elapsed();
        assert!(
            took < Duration::from_secs(20),
            "{threads} threads: {took:?}"
        );
    }
}
