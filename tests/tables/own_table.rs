//! A user game's table file (`retrograde::own::{save, load}`): the round
//! trip, and every forgery an editor who knows the format could make —
//! checksum recomputed — refused by the certification against the rules.

use std::path::PathBuf;

use retrograde::disk::Checksum;
use retrograde::host::{Budget, Silent};
use retrograde::language::Outcome;
use retrograde::own::{load, save, solve, solve_spilling, Rules};

/// Tic-tac-toe as a user would write it: two bits a cell (1 for X, 2 for
/// O); whose turn it is follows from the stones.
pub struct TicTacToe;

const LINES: [[u32; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

fn cell(board: u32, c: u32) -> u32 {
    (board >> (2 * c)) & 3
}

fn stones(board: u32) -> u32 {
    (0..9).filter(|&c| cell(board, c) != 0).count() as u32
}

impl Rules for TicTacToe {
    type Position = u32;
    fn name(&self) -> String {
        "tic-tac-toe".into()
    }
    fn start(&self) -> u32 {
        0
    }
    fn moves(&self, board: &u32, children: &mut Vec<u32>) {
        let stone = 1 + stones(*board) % 2;
        for c in 0..9 {
            if cell(*board, c) == 0 {
                children.push(board | stone << (2 * c));
            }
        }
    }
    fn outcome(&self, board: &u32) -> Option<Outcome> {
        let last = 2 - stones(*board) % 2; // the stone of who just moved
        if LINES
            .iter()
            .any(|l| l.iter().all(|&c| cell(*board, c) == last))
        {
            Some(Outcome::Loss)
        } else if stones(*board) == 9 {
            Some(Outcome::Draw)
        } else {
            None
        }
    }
    fn move_name(&self, from: &u32, _: usize, to: &u32) -> String {
        let c = (0..9).find(|&c| cell(*from, c) != cell(*to, c)).unwrap();
        format!("{}{}", (b'a' + (c % 3) as u8) as char, c / 3 + 1)
    }
}

/// The same game with a tier, the stones on the board: solved tier by
/// tier.
pub struct TieredTicTacToe;

impl Rules for TieredTicTacToe {
    type Position = u32;
    const TIERED: bool = true;
    fn name(&self) -> String {
        TicTacToe.name()
    }
    fn start(&self) -> u32 {
        0
    }
    fn moves(&self, board: &u32, children: &mut Vec<u32>) {
        TicTacToe.moves(board, children)
    }
    fn outcome(&self, board: &u32) -> Option<Outcome> {
        TicTacToe.outcome(board)
    }
    fn move_name(&self, from: &u32, i: usize, to: &u32) -> String {
        TicTacToe.move_name(from, i, to)
    }
    fn tier(&self, board: &u32) -> u32 {
        stones(*board)
    }
}

/// The same game numbered by a dense rank (a cell a base-3 digit: 3⁹
/// ranks, of which 5,478 are reached), with unmoves.
pub struct RankedTicTacToe;

const RANKS: u64 = 19_683;

impl Rules for RankedTicTacToe {
    type Position = u32;
    const UNMOVES: bool = true;
    const RANKED: bool = true;
    fn name(&self) -> String {
        "tic-tac-toe by rank".into()
    }
    fn start(&self) -> u32 {
        0
    }
    fn moves(&self, board: &u32, children: &mut Vec<u32>) {
        TicTacToe.moves(board, children)
    }
    fn outcome(&self, board: &u32) -> Option<Outcome> {
        TicTacToe.outcome(board)
    }
    fn unmoves(&self, board: &u32, parents: &mut Vec<u32>) {
        let stones = stones(*board);
        if stones == 0 {
            return;
        }
        let last = 2 - stones % 2;
        for c in 0..9 {
            if cell(*board, c) == last {
                parents.push(board & !(3 << (2 * c)));
            }
        }
    }
    fn ranks(&self) -> u64 {
        RANKS
    }
    fn rank(&self, board: &u32) -> u64 {
        (0..9)
            .rev()
            .fold(0, |r, c| 3 * r + u64::from(cell(*board, c)))
    }
    fn unrank(&self, mut rank: u64) -> Option<u32> {
        let mut board = 0;
        for c in 0..9 {
            board |= ((rank % 3) as u32) << (2 * c);
            rank /= 3;
        }
        Some(board)
    }
    fn move_name(&self, from: &u32, i: usize, to: &u32) -> String {
        TicTacToe.move_name(from, i, to)
    }
}

/// An edit of a table file's bytes.
type Forgery = Box<dyn Fn(&mut Vec<u8>)>;

/// Each of `forgeries` made to `genuine`, the checksum recomputed, written
/// to `path` and refused by [`load`] with `rules`, the file named.
fn refuses_every_forgery<R: Rules>(
    rules: &R,
    path: &std::path::Path,
    genuine: &[u8],
    forgeries: Vec<(&str, Forgery)>,
) {
    let name = path.file_name().unwrap().to_str().unwrap();
    for (what, forge) in forgeries {
        let mut bytes = genuine.to_vec();
        forge(&mut bytes);
        reseal(&mut bytes);
        std::fs::write(path, &bytes).unwrap();
        let why = load(path, rules, &Budget::unlimited(), &Silent)
            .err()
            .unwrap_or_else(|| panic!("{what}: accepted"))
            .to_string();
        assert!(why.contains(name), "{what}: {why}");
    }
}

fn dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("retrograde-own-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The file's sections: (tag, offset of the body, length).
fn sections(bytes: &[u8]) -> Vec<([u8; 4], usize, usize)> {
    let mut at = 32;
    let mut out = Vec::new();
    while at < bytes.len() - 12 {
        let tag: [u8; 4] = bytes[at..at + 4].try_into().unwrap();
        let len = u64::from_le_bytes(bytes[at + 4..at + 12].try_into().unwrap()) as usize;
        out.push((tag, at + 12, len));
        at += 12 + len;
    }
    out
}

fn body<'a>(bytes: &'a mut [u8], tag: &[u8; 4]) -> &'a mut [u8] {
    let (_, at, len) = sections(bytes).into_iter().find(|s| &s.0 == tag).unwrap();
    &mut bytes[at..at + len]
}

/// Recomputes the trailer's checksum, as a forger would.
fn reseal(bytes: &mut [u8]) {
    let body = bytes.len() - 12;
    let sum = Checksum::default().bytes(&bytes[..body]).value();
    bytes[body + 4..].copy_from_slice(&sum.to_le_bytes());
}

#[test]
fn tic_tac_toe_written_by_a_user_has_5478_positions_and_its_table_round_trips() {
    let solution = solve(&TicTacToe).unwrap();
    assert_eq!(solution.positions(), 5_478);
    assert_eq!(solution.lookup(&TicTacToe, 0), Some((Outcome::Draw, None)));
    let path = dir().join("ttt.rgt");
    save(&path, &TicTacToe, &solution).unwrap();
    let back = load(&path, &TicTacToe, &Budget::unlimited(), &Silent).unwrap();
    assert_eq!(back.index.keys(), solution.index.keys());
    assert_eq!(back.table, solution.table);
    assert_eq!(back.plies, solution.plies);
    // X in a corner, O beside it: X wins in 5 plies, b2 among the best.
    let position = retrograde::own::play_moves(&TicTacToe, "a1 b1").unwrap();
    let answer = back.answer(&TicTacToe, position);
    assert_eq!((answer.value, answer.depth), (Some(Outcome::Win), Some(5)));
    assert!(answer.moves.iter().any(|m| m.best && m.notation == "b2"));
}

#[test]
fn tic_tac_toe_solved_tier_by_tier_writes_the_same_file_as_solved_whole() {
    let spill = dir().join("spill");
    std::fs::create_dir_all(&spill).unwrap();
    let tiered = solve_spilling(&TieredTicTacToe, &spill, &Budget::unlimited(), &Silent).unwrap();
    let counts: Vec<(u32, u64)> = tiered.tiers.iter().map(|t| (t.tier, t.positions)).collect();
    // the positions by stones on the board (and so by ply)
    let by_stones = [1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78];
    assert_eq!(counts, (0..10).zip(by_stones).collect::<Vec<_>>());
    assert_eq!(
        std::fs::read_dir(&spill).unwrap().count(),
        0,
        "spill files left"
    );
    let (whole_file, tiered_file) = (dir().join("ttt-whole.rgt"), dir().join("ttt-tiers.rgt"));
    save(&whole_file, &TicTacToe, &solve(&TicTacToe).unwrap()).unwrap();
    save(&tiered_file, &TieredTicTacToe, &tiered).unwrap();
    assert_eq!(
        std::fs::read(&whole_file).unwrap(),
        std::fs::read(&tiered_file).unwrap()
    );
    // certified against either way of writing the rules
    load(&tiered_file, &TicTacToe, &Budget::unlimited(), &Silent).unwrap();
    load(
        &tiered_file,
        &TieredTicTacToe,
        &Budget::unlimited(),
        &Silent,
    )
    .unwrap();
    // a spill directory that is not one is refused in one line
    let refusal = solve_spilling(&TieredTicTacToe, &whole_file, &Budget::unlimited(), &Silent)
        .err()
        .expect("a file is not a directory")
        .to_string();
    assert!(refusal.contains("not a directory"), "{refusal}");
    assert!(!refusal.contains('\n'), "{refusal}");
}

#[test]
fn tic_tac_toe_by_rank_equals_it_by_key_and_its_table_round_trips() {
    let by_key = solve(&TicTacToe).unwrap();
    let by_rank = solve(&RankedTicTacToe).unwrap();
    assert_eq!(by_rank.positions(), 5_478);
    assert_eq!(by_rank.counts(), by_key.counts());
    assert_eq!(by_rank.plies, by_key.plies);
    assert_eq!(by_rank.moves, by_key.moves);
    for (_, board) in by_key.reached(&TicTacToe) {
        assert_eq!(
            by_rank.lookup(&RankedTicTacToe, board),
            by_key.lookup(&TicTacToe, board),
            "{board:x}"
        );
    }
    // a position the start does not reach (two X and no O) has a rank, no value
    assert_eq!(by_rank.lookup(&RankedTicTacToe, 0b0101), None);
    let path = dir().join("ttt-by-rank.rgt");
    save(&path, &RankedTicTacToe, &by_rank).unwrap();
    let back = load(&path, &RankedTicTacToe, &Budget::unlimited(), &Silent).unwrap();
    assert_eq!(back.table, by_rank.table);
    assert_eq!(back.counts(), by_rank.counts());
    let position = retrograde::own::play_moves(&RankedTicTacToe, "a1 b1").unwrap();
    let answer = back.answer(&RankedTicTacToe, position);
    assert_eq!((answer.value, answer.depth), (Some(Outcome::Win), Some(5)));
    // a table numbered by key is not one numbered by rank, nor the reverse
    let keyed = dir().join("ttt-by-key.rgt");
    save(&keyed, &TicTacToe, &by_key).unwrap();
    for (file, why) in [
        (
            load(&keyed, &RankedTicTacToe, &Budget::unlimited(), &Silent).err(),
            "a table of tic-tac-toe, not of tic-tac-toe by rank",
        ),
        (
            load(&path, &TicTacToe, &Budget::unlimited(), &Silent).err(),
            "not of tic-tac-toe",
        ),
    ] {
        let refused = file.expect("refused").to_string();
        assert!(refused.contains(why), "{refused}");
    }
}

#[test]
fn a_table_opened_without_its_rules_answers_by_key_and_by_rank() {
    use retrograde::own::open_stored;
    for ranked in [false, true] {
        let path = dir().join(format!("stored-{ranked}.rgt"));
        let (positions, pairs) = if ranked {
            let solution = solve(&RankedTicTacToe).unwrap();
            save(&path, &RankedTicTacToe, &solution).unwrap();
            let pairs: Vec<(u128, _)> = solution
                .reached(&RankedTicTacToe)
                .map(|(rank, board)| (u128::from(rank), solution.lookup(&RankedTicTacToe, board)))
                .collect();
            (solution.positions(), pairs)
        } else {
            let solution = solve(&TicTacToe).unwrap();
            save(&path, &TicTacToe, &solution).unwrap();
            let pairs: Vec<(u128, _)> = solution
                .reached(&TicTacToe)
                .map(|(_, board)| (u128::from(board), solution.lookup(&TicTacToe, board)))
                .collect();
            (solution.positions(), pairs)
        };
        let stored = open_stored(&path, &Budget::unlimited()).unwrap();
        assert_eq!((stored.positions(), stored.by_rank()), (positions, ranked));
        assert_eq!(stored.counts().total(), 5_478);
        for (key, value) in pairs {
            assert_eq!(stored.value(key), value, "{key:x}");
        }
        // a key past every position, and one of a position never reached
        // (two X and no O)
        assert_eq!(stored.value(u128::MAX), None);
        let unreached = if ranked {
            u128::from(RankedTicTacToe.rank(&0b0101))
        } else {
            0b0101
        };
        assert_eq!(stored.value(unreached), None);
        // damage is refused by the checksum
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[100] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let why = open_stored(&path, &Budget::unlimited()).err().unwrap();
        assert!(why.to_string().contains("checksum"), "{why}");
        std::fs::remove_file(&path).unwrap();
    }
}

#[test]
fn every_forged_table_numbered_by_rank_is_refused() {
    let solution = solve(&RankedTicTacToe).unwrap();
    let path = dir().join("forge-by-rank.rgt");
    save(&path, &RankedTicTacToe, &solution).unwrap();
    let genuine = std::fs::read(&path).unwrap();
    let reached: Vec<u64> = solution.reached(&RankedTicTacToe).map(|(s, _)| s).collect();
    let won = *reached
        .iter()
        .find(|&&s| solution.table.outcome(s) == Outcome::Win && solution.table.depth(s) == Some(3))
        .unwrap() as usize;
    let last = *reached.last().unwrap() as usize;
    // two X and no O: a board, never reached
    let unreached = RankedTicTacToe.rank(&0b0101) as usize;
    let forgeries: Vec<(&str, Forgery)> = vec![
        (
            "a win made a loss",
            Box::new(move |b| body(b, b"VALS")[won / 4] ^= 0b11 << (2 * (won % 4))),
        ),
        (
            "a depth changed",
            Box::new(move |b| body(b, b"DEPT")[4 * won] += 2),
        ),
        (
            "a reached position unmarked",
            Box::new(move |b| body(b, b"REAC")[last / 8] ^= 1 << (last % 8)),
        ),
        (
            "a position the start does not reach marked reached",
            Box::new(move |b| body(b, b"REAC")[unreached / 8] ^= 1 << (unreached % 8)),
        ),
    ];
    refuses_every_forgery(&RankedTicTacToe, &path, &genuine, forgeries);
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn every_forged_table_is_refused() {
    let solution = solve(&TicTacToe).unwrap();
    let path = dir().join("forge.rgt");
    save(&path, &TicTacToe, &solution).unwrap();
    let genuine = std::fs::read(&path).unwrap();
    let won = (0..solution.positions())
        .find(|&s| solution.table.outcome(s) == Outcome::Win && solution.table.depth(s) == Some(3))
        .unwrap() as usize;
    let forgeries: Vec<(&str, Forgery)> = vec![
        (
            "a win made a loss",
            Box::new(move |b| body(b, b"VALS")[won / 4] ^= 0b11 << (2 * (won % 4))),
        ),
        (
            "a depth changed",
            Box::new(move |b| body(b, b"DEPT")[4 * won] += 2),
        ),
        (
            "a count by ply changed",
            Box::new(|b| {
                let summary = body(b, b"SUMM");
                let text = String::from_utf8(summary.to_vec()).unwrap();
                let forged = text.replacen("[9,0]", "[8,1]", 1);
                assert_ne!(text, forged);
                summary.copy_from_slice(forged.as_bytes());
            }),
        ),
        (
            "a position replaced by one the start does not reach",
            Box::new(|b| {
                let keys = body(b, b"KEYS");
                let last = keys.len() - 4;
                keys[last..].copy_from_slice(&0x3ffff_u32.to_be_bytes());
            }),
        ),
        (
            "the last section's length made longer, into the trailer",
            Box::new(|b| {
                let (_, at, len) = *sections(b).last().unwrap();
                let longer = (len as u64 + 8).to_le_bytes();
                b[at - 8..at].copy_from_slice(&longer);
            }),
        ),
        (
            "another game's name",
            Box::new(|b| {
                let parameters = body(b, b"PARM");
                let text = String::from_utf8(parameters.to_vec()).unwrap();
                parameters.copy_from_slice(text.replace("tic-tac-toe", "tic-tac-tow").as_bytes());
            }),
        ),
    ];
    refuses_every_forgery(&TicTacToe, &path, &genuine, forgeries);
    // Damage without a new checksum is refused by the checksum.
    let mut bytes = genuine.clone();
    bytes[100] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let why = load(&path, &TicTacToe, &Budget::unlimited(), &Silent)
        .err()
        .unwrap();
    assert!(why.to_string().contains("checksum"), "{why}");
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn the_command_refuses_a_user_game_s_table_in_one_line_and_a_table_replaces_only_a_table() {
    use crate::common::cli::refused;
    use retrograde::own::check_table_output;
    let dir = dir();
    let path = dir.join("own.rgt");
    save(&path, &TicTacToe, &solve(&TicTacToe).unwrap()).unwrap();
    let why = refused(&["query", path.to_str().unwrap()]);
    assert!(why.contains("a game of your own (tic-tac-toe)"), "{why}");
    // A table (this one) may be replaced; a file that is not one may not.
    check_table_output(&path).unwrap();
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "mine").unwrap();
    let why = check_table_output(&notes).unwrap_err().to_string();
    assert!(why.contains("a table replaces only a table"), "{why}");
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "mine");
}
