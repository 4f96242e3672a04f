//! The facade's position answers (issue 74, line 2): `Analyzer::answer`'s
//! cascade picks the engine by board size and says which answered; from a
//! table (`Analyzer::solve`) and by search it gives the same answers,
//! position by position; a searcher keeps its table between questions.

use retrograde::{
    facade::{AnsweredBy, Precision, Question, SearchOptions},
    host::{Budget, Bytes, Silent},
    language::{BoardGame, MoveDetail, Status},
    Analyzer, BoardSize, Family, Position,
};

fn analyzer() -> Analyzer {
    Analyzer::new(Budget(Bytes(1 << 30)), 2)
}

fn board(family: Family, cols: u32, rows: u32, k: u32) -> BoardGame {
    BoardGame::new(family, BoardSize::new(cols, rows, k)).unwrap()
}

/// A position in play reached by `plies` random legal moves (fewer when
/// the game ends first: the position before its last move), from `seed`.
fn random_position(game: &BoardGame, seed: u64, plies: u32) -> Position {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut p = Position::default();
    for _ in 0..plies {
        let moves = game.legal_cells(&p);
        if moves.is_empty() {
            break;
        }
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let next = p.with(moves[(state % moves.len() as u64) as usize]);
        if game.status(&next) != Status::InProgress {
            break;
        }
        p = next;
    }
    p
}

#[test]
fn the_cascade_picks_the_engine_by_board_size_and_says_which() {
    use AnsweredBy::*;
    use Family::*;
    for (family, cols, rows, k, by) in [
        (Mnk, 3, 3, 3, Search),
        (Mnk, 8, 5, 4, Search),
        (Mnk, 7, 7, 5, ZonesThenSearch),
        (Gravity, 7, 6, 4, Search),
        (Gravity, 8, 8, 4, GeneralSearch),
        (Mnk, 9, 9, 5, Threats),
        (Mnk, 15, 15, 5, Threats),
    ] {
        let game = board(family, cols, rows, k);
        let searcher = analyzer().searcher(&game, 0).unwrap();
        assert_eq!(searcher.answered_by(), by, "{cols}×{rows} {family:?}");
    }
    // a gravity board past 64 cells has no engine: refused, not guessed
    assert!(analyzer().searcher(&board(Gravity, 9, 9, 4), 0).is_err());
}

#[test]
fn a_table_and_the_search_give_the_same_answer_on_seeded_positions() {
    let analyzer = analyzer();
    for (family, cols, rows, k) in [
        (Family::Mnk, 3, 3, 3),
        (Family::Mnk, 4, 3, 3),
        (Family::Gravity, 4, 4, 3),
        (Family::Gravity, 5, 4, 4),
    ] {
        let game = board(family, cols, rows, k);
        let solved = analyzer.solve(&game, &Silent).unwrap();
        let table = solved.oracle();
        let searcher = analyzer.searcher(&game, 0).unwrap();
        for seed in 0..100 {
            let p = random_position(&game, seed, (seed % game.cells() as u64) as u32);
            let question = Question::of(p);
            let looked = analyzer
                .answer(&game, Some(table.as_ref()), None, &question)
                .unwrap();
            let searched = analyzer
                .answer(&game, None, Some(&searcher), &question)
                .unwrap();
            assert_eq!(looked.by, AnsweredBy::Table);
            assert_eq!(searched.by, AnsweredBy::Search);
            assert!(looked.proved() && searched.proved());
            assert_eq!(
                looked.answer,
                searched.answer,
                "{cols}×{rows} k = {k}, {}",
                game.diagram(&p)
            );
        }
    }
}

#[test]
fn the_general_search_keeps_its_table_between_questions() {
    // 8 × 8 Connect Four is past the bitboard search (a sentinel row needs
    // 72 bits); late positions are quick for the general one
    let game = board(Family::Gravity, 8, 8, 5);
    let analyzer = analyzer();
    let searcher = analyzer
        .searcher_with(&game, SearchOptions::new(44))
        .unwrap();
    assert_eq!(searcher.answered_by(), AnsweredBy::GeneralSearch);
    let p = (0..)
        .map(|seed| random_position(&game, seed, 46))
        .find(|p| p.stones() >= 44)
        .unwrap();
    let question = Question {
        precision: Precision::Weak,
        detail: MoveDetail::All,
        ..Question::of(p)
    };
    let first = analyzer
        .answer(&game, None, Some(&searcher), &question)
        .unwrap();
    let hits = searcher.hits();
    let again = analyzer
        .answer(&game, None, Some(&searcher), &question)
        .unwrap();
    assert!(first.proved() && again.proved());
    assert_eq!(first.answer, again.answer);
    assert!(
        again.positions < first.positions && searcher.hits() > hits,
        "{} then {} positions",
        first.positions,
        again.positions
    );
    assert_eq!(searcher.positions(), first.positions + again.positions);
}

/// Issue 87: a question that asks for the best move so far gets one when
/// its search runs out of time, within the time: the fallback takes an
/// immediate win, blocks an immediate loss, and is never asked of a
/// proved answer.
#[test]
fn a_search_out_of_time_names_the_best_move_so_far_within_its_time() {
    let analyzer = analyzer();
    let game = board(Family::Gravity, 7, 6, 4);
    // without the built-in book, which answers the empty board at once
    let options = SearchOptions {
        shipped_book: false,
        ..SearchOptions::new(0)
    };
    let searcher = analyzer.searcher_with(&game, options).unwrap();
    let ask = |moves: &str, seconds: f64| {
        let question = Question {
            detail: MoveDetail::Best,
            time_limit: Some(std::time::Duration::from_secs_f64(seconds)),
            best_so_far: true,
            ..Question::of(game.play_moves(moves).unwrap())
        };
        analyzer
            .answer(&game, None, Some(&searcher), &question)
            .unwrap()
    };
    // the empty board: not reached in 0.2 s, a move all the same (asked
    // twice: the first search also maps its 1 GiB table's pages, seconds
    // past the limit on a 2-core machine)
    ask("", 0.2);
    let report = ask("", 0.2);
    assert!(report.answer.is_none());
    let found = report.best_so_far.as_ref().expect("a move so far");
    assert!((1..=7).contains(&found.notation.parse::<u32>().unwrap()));
    assert!(report.seconds < 0.25, "{} s for 0.2 s", report.seconds);
    // the move named: the search's best, or the fallback's
    let named = |moves: &str| {
        let report = ask(moves, 0.002);
        match (&report.answer, &report.best_so_far) {
            (Some(a), None) => a.moves.iter().find(|m| m.best).unwrap().notation.clone(),
            (None, Some(found)) => found.notation.clone(),
            other => panic!("one of an answer and a move so far: {other:?}"),
        }
    };
    // O holds 1 2 3 of the bottom row: X (no win of its own) blocks at 4,
    // whether the search proves it or the fallback finds it
    assert_eq!(named("7 1 7 2 6 3"), "4");
    // X holds 1 2 3 of the bottom row and O threatens too: X wins at 4
    assert_eq!(named("1 5 2 5 3 5"), "4");
    // not asked: none
    let question = Question {
        time_limit: Some(std::time::Duration::from_millis(20)),
        ..Question::of(Position::default())
    };
    let report = analyzer
        .answer(&game, None, Some(&searcher), &question)
        .unwrap();
    assert!(report.answer.is_none() && report.best_so_far.is_none());
}

/// Issue 87: how good the best move so far is, against the exact values
/// of seeded 7 × 6 positions of 6–19 stones from random play: the share
/// of its moves (50 ms each) that keep the position's value, beside a
/// random mover's share. Slow (the exact values of every move, 73 s on
/// the 2-core machine): `cargo test --release --test search -- --ignored
/// fallback_keeps`. Measured: 59 of 60 kept (0.98), a random mover 0.62.
#[test]
#[ignore]
fn the_fallback_keeps_the_value_of_most_positions() {
    use retrograde::facade::best_so_far;
    let analyzer = analyzer();
    let game = board(Family::Gravity, 7, 6, 4);
    let searcher = analyzer.searcher(&game, 6).unwrap();
    let (mut kept, mut random_kept, mut asked) = (0, 0.0, 0);
    for seed in 0..60 {
        let p = random_position(&game, seed, 6 + (seed % 14) as u32);
        if p.stones() < 6 || game.status(&p) != Status::InProgress {
            continue;
        }
        let exact = analyzer
            .answer(&game, None, Some(&searcher), &Question::of(p))
            .unwrap()
            .answer
            .unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_millis(50);
        let found = best_so_far(&game, &p, deadline).unwrap();
        let value = exact.value.unwrap();
        let mine = exact.moves.iter().find(|m| m.notation == found.notation);
        kept += usize::from(mine.unwrap().value == Some(value));
        let keeping = exact
            .moves
            .iter()
            .filter(|m| m.value == Some(value))
            .count();
        random_kept += keeping as f64 / exact.moves.len() as f64;
        asked += 1;
    }
    let rate = kept as f64 / asked as f64;
    let random = random_kept / asked as f64;
    eprintln!("fallback {kept}/{asked} = {rate:.2}, a random mover {random:.2}");
    assert!(rate > random, "fallback {rate:.2}, random {random:.2}");
}

/// Issue 88: a service's budget split is the facade's decision
/// (`Analyzer::for_kept_searchers`; the server split it itself): the
/// tables' memory first, the rest shared by the kept searchers and one
/// share more; the tables alone over the budget are refused with the
/// figures, naming the budget's setting.
#[test]
fn the_facade_splits_a_services_budget() {
    use retrograde::{
        host::{Budget, Bytes},
        Analyzer, Error, Setting,
    };
    let budget = Budget(Bytes(10_000));
    let analyzer = Analyzer::for_kept_searchers(budget, Bytes(1_000), 4, 2).unwrap();
    assert_eq!(analyzer.budget().0, Bytes(1_800));
    assert_eq!(analyzer.threads(), 2);
    match Analyzer::for_kept_searchers(budget, Bytes(10_001), 4, 2) {
        Err(Error::OverMemoryBudget {
            needed, remedies, ..
        }) => {
            assert_eq!(needed, Bytes(10_001));
            assert!(remedies.iter().any(|r| r.setting == Setting::MaxMemory));
        }
        other => panic!("{:?}", other.map(|a| a.budget().0)),
    }
}

/// Issue 88: which table engine solves a whole board is the facade's
/// decision (`Analyzer::table_engine`, `Analyzer::hand_over`), typed; the
/// command line only words it (`retrograde mnk` and `connect` made it).
#[test]
fn the_facade_chooses_the_table_engine() {
    use retrograde::{
        engines::symbolic::Encoding,
        facade::{AutoRefusal, EngineAsked, EngineRequest, NotExplicit, TableEngine},
    };
    let request = |asked, symbolic_settings| EngineRequest {
        asked,
        symbolic_settings,
        count_only: false,
    };
    let roomy = Analyzer::new(Budget(Bytes(1 << 30)), 1);
    let choose = |analyzer: &Analyzer, family, cols, rows, k, asked, settings| {
        analyzer
            .table_engine(
                family,
                BoardSize::new(cols, rows, k),
                Encoding::Pair,
                &request(asked, settings),
            )
            .unwrap()
    };
    use EngineAsked::{Auto, Explicit, Symbolic};
    let mnk = Family::Mnk;
    assert!(matches!(
        choose(&roomy, mnk, 3, 3, 3, Auto, false),
        TableEngine::Explicit
    ));
    assert!(matches!(
        choose(&roomy, mnk, 3, 3, 3, Explicit, true),
        TableEngine::Explicit
    ));
    assert!(matches!(
        choose(&roomy, mnk, 3, 3, 3, Symbolic, false),
        TableEngine::Symbolic(None)
    ));
    // a symbolic-only setting under auto
    assert!(matches!(
        choose(&roomy, mnk, 3, 3, 3, Auto, true),
        TableEngine::Symbolic(None)
    ));
    // past the dense engine's sides and the symbolic engine's measured reach
    assert!(matches!(
        choose(&roomy, mnk, 6, 6, 4, Auto, false),
        TableEngine::Refused(AutoRefusal::PastSymbolicReach { .. })
    ));
    // the dense estimate over a small budget: handed over, with the reason
    let small = Analyzer::new(Budget(Bytes(1 << 16)), 1);
    match choose(&small, mnk, 4, 4, 3, Auto, false) {
        TableEngine::Symbolic(Some(hand_over)) => {
            let NotExplicit::Estimate(why) = &hand_over.why else {
                panic!("{hand_over:?}")
            };
            assert!(why.contains("over the budget"), "{why}")
        }
        other => panic!("{other:?}"),
    }
    // gravity boards start with the explicit engine, which hands over on
    // its refusal for memory
    assert!(matches!(
        choose(&roomy, Family::Gravity, 7, 6, 4, Auto, false),
        TableEngine::Explicit
    ));
    let handed = roomy
        .hand_over(
            Family::Gravity,
            BoardSize::new(4, 4, 4),
            Encoding::Column,
            &request(Auto, false),
            NotExplicit::Estimate("the explicit engine stops".into()),
        )
        .unwrap();
    assert!(
        matches!(handed, TableEngine::Symbolic(Some(_))),
        "{handed:?}"
    );
}

/// The whole solve of a board is one call of the facade: the explicit
/// engine where it takes the board, under `auto` its refusal for memory
/// handed to the symbolic engine (the refusal kept, typed, for the front
/// end to word), and for play a board beyond the tables routed to search.
#[test]
fn the_facade_solves_a_board_or_hands_it_over() {
    use retrograde::{
        engines::symbolic::Encoding,
        facade::{BoardSolve, EngineAsked, EngineRequest, ForPlay, NotExplicit},
        host::Silent,
        language::BoardGame,
        Error,
    };
    let request = |asked| EngineRequest {
        asked,
        symbolic_settings: false,
        count_only: false,
    };
    let connect = BoardGame::new(Family::Gravity, BoardSize::new(5, 4, 4)).unwrap();
    let roomy = Analyzer::new(Budget(Bytes(1 << 30)), 1);
    let small = Analyzer::new(Budget(Bytes(1 << 16)), 1);
    let solve = |analyzer: &Analyzer, asked| {
        analyzer
            .solve_board(&connect, Encoding::Column, &request(asked), &Silent)
            .unwrap()
    };
    assert!(matches!(
        solve(&roomy, EngineAsked::Auto),
        BoardSolve::Solved(_)
    ));
    match solve(&small, EngineAsked::Auto) {
        BoardSolve::Symbolic(Some(hand_over)) => assert!(
            matches!(
                hand_over.why,
                NotExplicit::Refused(Error::OverMemoryBudget { .. })
                    | NotExplicit::Refused(Error::ProjectedOverBudget { .. })
            ),
            "{hand_over:?}"
        ),
        other => panic!(
            "not handed over (solved: {})",
            matches!(other, BoardSolve::Solved(_))
        ),
    }
    // asked for by name, the explicit engine's refusal is the answer
    assert!(small
        .solve_board(
            &connect,
            Encoding::Column,
            &request(EngineAsked::Explicit),
            &Silent
        )
        .is_err());
    // play: the table where it fits, else search, with the refusal
    assert!(matches!(
        roomy.solve_for_play(&connect, &Silent).unwrap(),
        ForPlay::Table(_)
    ));
    assert!(matches!(
        small.solve_for_play(&connect, &Silent).unwrap(),
        ForPlay::BySearch(_)
    ));
}

/// The in-memory solve (Python's `solve`) takes the facade's engine: the
/// explicit one where it takes the board, the symbolic one past the dense
/// engine's sides; a set cancel flag stops it, and so does a deadline.
#[test]
fn the_facade_solves_in_memory_by_the_engine_it_chooses() {
    use retrograde::{facade::WholeTable, host::Silent, language::BoardGame, Error};
    use std::sync::atomic::AtomicBool;
    let analyzer = Analyzer::new(Budget(Bytes(1 << 30)), 1);
    let go = AtomicBool::new(false);
    let ttt = BoardGame::new(Family::Mnk, BoardSize::new(3, 3, 3)).unwrap();
    assert!(matches!(
        analyzer.solve_in_memory(&ttt, &Silent, &go).unwrap(),
        WholeTable::Explicit(_)
    ));
    let wide = BoardGame::new(Family::Mnk, BoardSize::new(6, 2, 3)).unwrap();
    match analyzer.solve_in_memory(&wide, &Silent, &go).unwrap() {
        WholeTable::Symbolic {
            solution,
            hand_over,
            ..
        } => {
            assert_eq!(
                solution
                    .plies
                    .iter()
                    .map(|p| p.counts.positions)
                    .sum::<u64>(),
                126_109
            );
            assert!(hand_over.is_some(), "the reason is kept for a note");
        }
        WholeTable::Explicit(_) => panic!("6×2 is past the dense engine's sides"),
    }
    let stop = AtomicBool::new(true);
    assert!(matches!(
        analyzer.solve_in_memory(&wide, &Silent, &stop),
        Err(Error::Cancelled(_))
    ));
    // a deadline already passed stops it too, as out of time
    let hurried =
        Analyzer::new(Budget(Bytes(1 << 30)), 1).with_deadline(Some(std::time::Instant::now()));
    let connect = BoardGame::new(Family::Gravity, BoardSize::new(5, 4, 4)).unwrap();
    assert!(matches!(
        hurried.solve_in_memory(&connect, &Silent, &go),
        Err(Error::OutOfTime(_))
    ));
    assert!(matches!(
        hurried.solve_in_memory(&wide, &Silent, &go),
        Err(Error::OutOfTime(_))
    ));
}
