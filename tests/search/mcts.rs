//! Monte Carlo tree search in the library (`search::mcts`, issue 88: it
//! lived in the Python bindings): a move that wins at once is found, the
//! same seed gives the same move, a cancelled search names none, and bad
//! settings are refused by name.

use std::sync::atomic::AtomicBool;

use retrograde::{
    engines::mcts::{mcts_move, MctsSettings},
    language::BoardGame,
    BoardSize, Error, Family, Setting,
};

fn settings(playouts: u32, seed: u64) -> MctsSettings {
    MctsSettings {
        playouts,
        seed,
        exploration: 1.4,
    }
}

#[test]
fn mcts_takes_a_win_and_repeats_itself_from_a_seed() {
    let board = BoardGame::new(Family::Mnk, BoardSize::new(3, 3, 3)).unwrap();
    // X: a1 b1, O: a2 b2; X to move wins at c1
    let p = board.play_moves("a1 a2 b1 b2").unwrap();
    let go = AtomicBool::new(false);
    let cell = mcts_move(&board, p, settings(2_000, 7), &go)
        .unwrap()
        .unwrap();
    assert_eq!(board.format_move(cell), "c1");
    let open = board.play_moves("b2").unwrap();
    let first = mcts_move(&board, open, settings(500, 11), &go).unwrap();
    assert_eq!(
        first,
        mcts_move(&board, open, settings(500, 11), &go).unwrap()
    );
    let stop = AtomicBool::new(true);
    assert_eq!(
        mcts_move(&board, open, settings(500, 11), &stop).unwrap(),
        None
    );
}

#[test]
fn mcts_refuses_bad_settings_by_name() {
    let board = BoardGame::new(Family::Gravity, BoardSize::new(7, 6, 4)).unwrap();
    let p = board.play_moves("").unwrap();
    let go = AtomicBool::new(false);
    let refused = |s| match mcts_move(&board, p, s, &go) {
        Err(Error::Setting { setting, .. }) => setting,
        other => panic!("{other:?}"),
    };
    assert_eq!(refused(settings(0, 1)), Setting::Playouts);
    let wild = MctsSettings {
        exploration: f64::NAN,
        ..settings(10, 1)
    };
    assert_eq!(refused(wild), Setting::Exploration);
}
