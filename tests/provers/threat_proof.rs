//! The threat prover (`retrograde::engines::threats`) against the
//! exhaustive tables on every position of the small boards, and its
//! certificates against a checker written apart (`checker/src/threats.rs`).

use retrograde::{
    engines::bitboard::{Bitboard, BoardSearcher},
    engines::layered::solve_mnk,
    engines::threats,
    engines::threats::{Board, Geometry, Settings, ThreatProver, VctLimits, Verdict},
    games::mnk::Mnk,
    host::Budget,
    language::Outcome,
    BoardSize, Family,
};

use crate::common;
use crate::common::Rng;
use retrograde_checker::threats::check_certificate;

/// A board with these stones (bit `i` = cell `i`, row by row).
pub(crate) fn board_of(geometry: &Geometry, x: u64, o: u64) -> Board<'_> {
    let mut board = Board::empty(geometry);
    for (stones, colour) in [(x, 0), (o, 1)] {
        for cell in 0..geometry.cells() {
            if stones >> cell & 1 == 1 {
                board.play(cell, colour);
            }
        }
    }
    board
}

/// Settings that try every attacker move: verdicts exact both ways. Every
/// AND node with two moves or more left is cut by a pass's zone, so that
/// the small boards exercise the zones (and nested ones) everywhere.
fn complete() -> Settings {
    Settings {
        attacker_moves: None,
        zone_moves: Some(2),
        ..Settings::default()
    }
}

/// The default (restricted) settings with zones everywhere, as above.
fn restricted() -> Settings {
    Settings {
        zone_moves: Some(2),
        ..Settings::default()
    }
}

/// The value for the player to move by two complete provers (one for each
/// attacker).
fn prover_value(provers: &mut [ThreatProver; 2], board: &mut Board) -> Outcome {
    let mover = board.to_move();
    let mine = provers[mover].prove(board);
    let theirs = provers[1 - mover].prove(board);
    match (mine, theirs) {
        (Verdict::Win, Verdict::NoWin) => Outcome::Win,
        (Verdict::NoWin, Verdict::Win) => Outcome::Loss,
        (Verdict::NoWin, Verdict::NoWin) => Outcome::Draw,
        v => panic!(
            "unsettled or contradictory: {v:?} ({:?}, {:?}, {:?})",
            provers[0].stopped(),
            provers[1].stopped(),
            provers.each_ref().map(|p| p.stats().cuts)
        ),
    }
}

/// Checks the complete prover on every `stride`-th position in play of the
/// board against the exhaustive table; returns how many.
fn positions_agree(cols: u32, rows: u32, k: u32, stride: u64, settings: Settings) -> u64 {
    let game = Mnk::new(BoardSize { cols, rows, k }).unwrap();
    let table = solve_mnk(&game, &Budget::unlimited()).unwrap();
    let geometry = Geometry::new(BoardSize { cols, rows, k }).unwrap();
    // (one prover a side for every position of the board: 4 × 4's keep
    // more than 155,000 cuts, 34 MB at a cut's size, past the eighth of
    // 256 MiB)
    let mut provers = [0, 1].map(|a| ThreatProver::new(&geometry, a, settings, 1 << 29, None));
    let (mut seen, mut checked) = (0u64, 0u64);
    common::for_each_position_in_play(&table, cols * rows, |x, o, value, _| {
        seen += 1;
        if !seen.is_multiple_of(stride) {
            return;
        }
        let mut board = board_of(&geometry, u64::from(x), u64::from(o));
        let got = prover_value(&mut provers, &mut board);
        assert_eq!(got, value, "{cols},{rows},{k}: {}", board.diagram());
        checked += 1;
    });
    checked
}

#[test]
fn every_position_of_the_small_boards_agrees() {
    let mut checked = 0;
    for (cols, rows, k) in common::mnk_boards_up_to_4x4() {
        let stride = if (cols, rows, k) == (4, 4, 4) { 97 } else { 1 };
        checked += positions_agree(cols, rows, k, stride, complete());
    }
    assert!(checked > 100_000, "{checked}");
}

/// The same with threat-space search at every attacker turn (issue 76),
/// on every 25th of those positions (`threat_space.rs` checks the search's
/// moves on all of them; the whole of this is the ignored test below):
/// where it finds a win, that settles the turn, so a win it found that is
/// none would make the prover claim one.
#[test]
fn positions_of_the_small_boards_agree_with_threat_space_search() {
    let checked = agree_with_threat_space_search(25);
    eprintln!("{checked} positions");
    assert!(checked > 100_000, "{checked}");
}

/// [`positions_of_the_small_boards_agree_with_threat_space_search`] on
/// every position (`cargo test --release --test provers -- --ignored
/// threat_space_search_on_every`).
#[test]
#[ignore = "51 s: the sampled test above runs in the suite"]
fn threat_space_search_on_every_position_of_the_small_boards_agrees() {
    assert!(agree_with_threat_space_search(1) > 100_000);
}

/// The complete prover with threat-space search on every `stride`-th
/// position of the boards up to 4 × 4 (of 4 × 4 with k = 4, every
/// `97 · stride`-th) against the tables; how many.
fn agree_with_threat_space_search(stride: u64) -> u64 {
    let settings = Settings {
        vct: Some(VctLimits::default()),
        ..complete()
    };
    let mut checked = 0;
    for (cols, rows, k) in common::mnk_boards_up_to_4x4() {
        let each = if (cols, rows, k) == (4, 4, 4) { 97 } else { 1 };
        checked += positions_agree(cols, rows, k, each * stride, settings);
    }
    checked
}

/// Random positions of the 5-column, 4-row board (k = 3, 4, 5) against
/// the bitboard search (itself checked against the exhaustive tables in
/// tests/search/bitboard_mnk.rs), with zones everywhere; every fourth proof's
/// certificate goes to the checker (these proofs are short: the zones are
/// exercised by the 4 × 4 tests and gomoku's).
#[test]
fn random_5x4_positions_agree() {
    random_positions_agree(5, 4, 54, 60, complete());
}

/// [`random_5x4_positions_agree`] with threat-space search at every
/// attacker turn (issue 76). (The complete prover takes minutes on 5 × 5
/// positions, which `threat_space.rs` checks the search's moves on.)
#[test]
fn random_5x4_positions_agree_with_threat_space_search() {
    let settings = Settings {
        vct: Some(VctLimits::default()),
        ..complete()
    };
    random_positions_agree(5, 4, 76, 15, settings);
}

/// `count` random positions of each k from 3 to 5 of a `cols` × `rows`
/// board (seeded by `seed`) proved with `settings` both ways, against the
/// bitboard search.
fn random_positions_agree(cols: u32, rows: u32, seed: u64, count: u32, settings: Settings) {
    let mut rng = Rng::new(seed);
    for k in 3..=5u32 {
        let bitboard = Bitboard::new(Family::Mnk, BoardSize { cols, rows, k }).unwrap();
        let searcher = BoardSearcher::quiet(bitboard.clone(), 1 << 18);
        let geometry = Geometry::new(BoardSize { cols, rows, k }).unwrap();
        let (mut checked, mut proofs) = (0, 0);
        while checked < count {
            // 5 moves or more: fewer stones take the complete prover long
            // on 20 cells
            let Some((x, o)) = common::random_mnk_position(&mut rng, cols, rows, k, 5) else {
                continue;
            };
            let want = common::bitboard_value(&bitboard, &searcher, (cols, rows), (x, o));
            let mut board = board_of(&geometry, x, o);
            let mut provers =
                [0, 1].map(|a| ThreatProver::new(&geometry, a, settings, 1 << 28, None));
            let got = prover_value(&mut provers, &mut board);
            assert_eq!(got, want, "{cols}×{rows} k={k}: {}", board.diagram());
            checked += 1;
            if got == Outcome::Win {
                proofs += 1;
                if proofs % 4 == 0 {
                    let prover = &mut provers[board.to_move()];
                    let (text, _) = prover.certificate(&mut board).unwrap();
                    if let Err(why) = check_certificate(&text) {
                        panic!("{}: {why}", board.diagram());
                    }
                }
            }
        }
    }
}

#[test]
#[ignore]
fn a_position_from_the_environment() {
    let spec = std::env::var("RG_BOARD").unwrap_or("15,15,5".into());
    let v: Vec<u32> = spec.split(',').map(|s| s.parse().unwrap()).collect();
    let moves = std::env::var("RG_MOVES").unwrap_or("h8".into());
    let seconds: u64 = std::env::var("RG_SECONDS").map_or(60, |s| s.parse().unwrap());
    let geometry = Geometry::new(BoardSize::new(v[0], v[1], v[2])).unwrap();
    let mut board = Board::after(&geometry, &moves).unwrap();
    let start = std::time::Instant::now();
    // RG_ZONE_MOVES: the least moves an AND node cuts by a pass's zone
    // ("off": never)
    let zone_moves = match std::env::var("RG_ZONE_MOVES") {
        Ok(v) if v == "off" => None,
        Ok(v) => Some(v.parse().unwrap()),
        Err(_) => Settings::default().zone_moves,
    };
    let settings = Settings {
        zone_moves,
        ..Settings::default()
    };
    let mut prover = ThreatProver::new(
        &geometry,
        0,
        settings,
        8 << 30,
        Some(start + std::time::Duration::from_secs(seconds)),
    );
    // RG_VISITS: stop after this many positions (a repeatable workload)
    if let Ok(visits) = std::env::var("RG_VISITS") {
        prover.limit_visits(visits.parse().unwrap());
    }
    let verdict = prover.prove(&mut board);
    println!(
        "{spec} after {moves}: {verdict:?} in {:.2?}, {:?}, stopped: {:?}",
        start.elapsed(),
        prover.stats(),
        prover.stopped()
    );
    if verdict == Verdict::Win {
        let (text, entries) = prover.certificate(&mut board).unwrap();
        println!("certificate: {entries} entries, {} bytes", text.len());
        if std::env::var("RG_CHECK").is_ok() {
            let verdict = check_certificate(&text).map(|n| format!("accepted ({n} positions)"));
            println!("checker: {}", verdict.unwrap_or_else(|why| why));
        }
    }
}

/// Replays the certificate named by RG_THREAT_PROOF with the independent
/// checker.
#[test]
#[ignore]
fn a_certificate_from_the_environment() {
    let path = std::env::var("RG_THREAT_PROOF").expect("RG_THREAT_PROOF=FILE");
    let text = std::fs::read_to_string(&path).unwrap();
    let start = std::time::Instant::now();
    let checked = check_certificate(&text).unwrap();
    println!(
        "{path}: accepted, {checked} positions checked in {:.2?}",
        start.elapsed()
    );
}

/// Proves `moves` on the board with the default (restricted) settings and
/// returns the certificate, or `None` if not proved within `visits`.
fn proved(cols: u32, rows: u32, k: u32, moves: &str, visits: u64) -> Option<String> {
    let geometry = Geometry::new(BoardSize { cols, rows, k }).unwrap();
    let mut board = Board::after(&geometry, moves).unwrap();
    let mut prover = ThreatProver::new(&geometry, 0, Settings::default(), 1 << 30, None);
    prover.limit_visits(visits);
    (prover.prove(&mut board) == Verdict::Win).then(|| prover.certificate(&mut board).unwrap().0)
}

/// An iterative horizon: h8 a1 i9 a2 is no win by the prover's moves
/// within 14 stones and is one within 16; raised from 14 to 16, the
/// prover forgets the disproofs, proves it, and the certificate is
/// accepted.
#[test]
fn a_wider_horizon_proves_what_a_narrower_one_disproved() {
    let geometry = Geometry::new(BoardSize::new(15, 15, 5)).unwrap();
    let mut board = Board::after(&geometry, "h8 a1 i9 a2").unwrap();
    let narrow = Settings {
        max_stones: Some(14),
        ..Settings::default()
    };
    let mut prover = ThreatProver::new(&geometry, 0, narrow, 1 << 30, None);
    prover.limit_visits(2_000_000);
    assert_eq!(prover.prove(&mut board), Verdict::NoWin);
    assert!(prover.set_horizon(Some(16)) > 0);
    assert_eq!(prover.prove(&mut board), Verdict::Win);
    let text = prover.certificate(&mut board).unwrap().0;
    check_certificate(&text).expect("accepted");
}

#[test]
fn a_gomoku_certificate_is_accepted_and_a_damaged_one_refused() {
    // X (Black) h8 i9 with White far away: a win by threats
    let text = proved(15, 15, 5, "h8 a1 i9 a15", 2_000_000).expect("proved");
    let checked = check_certificate(&text).expect("accepted");
    assert!(checked > 1_000, "{checked}");
    let lines: Vec<&str> = text.lines().collect();
    let without = |i: usize| {
        let mut damaged = lines.clone();
        damaged.remove(i);
        damaged.join("\n") + "\n"
    };
    // the root's move taken away: the root no longer holds
    let first_entry = lines.iter().position(|l| l.starts_with("move ")).unwrap();
    assert!(check_certificate(&without(first_entry)).is_err());
    // a cover taken away: some defender reply is no longer answered
    let cover = lines.iter().position(|l| l.starts_with("cover ")).unwrap();
    assert!(check_certificate(&without(cover)).is_err());
}

/// The covers looked for at each defender turn (`--covers`) change the
/// proof, never its soundness: with two and with four, a gomoku proof's
/// certificate is accepted.
#[test]
fn gomoku_certificates_with_other_cover_counts_are_accepted() {
    let geometry = Geometry::new(BoardSize::new(15, 15, 5)).unwrap();
    for max_covers in [2, 4] {
        let mut board = Board::after(&geometry, "h8 a1 i9 a15").unwrap();
        let settings = Settings {
            max_covers,
            zone_moves: None,
            ..Settings::default()
        };
        let mut prover = ThreatProver::new(&geometry, 0, settings, 1 << 30, None);
        prover.limit_visits(2_000_000);
        assert_eq!(prover.prove(&mut board), Verdict::Win, "{max_covers}");
        let (text, _) = prover.certificate(&mut board).unwrap();
        check_certificate(&text).unwrap_or_else(|why| panic!("{max_covers} covers: {why}"));
    }
}

/// A gomoku proof through zones (Black's third move is quiet; White's
/// replies outside the zone of the proof after White's pass are answered
/// by it): accepted, and refused without its zone entries.
#[test]
fn a_gomoku_certificate_with_zones_is_accepted_and_refused_without_them() {
    let text = proved(15, 15, 5, "h8 a1 i9 a2", 2_000_000).expect("proved");
    check_certificate(&text).expect("accepted");
    let lines: Vec<&str> = text.lines().collect();
    let zones: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("zone "))
        .collect();
    assert!(!zones.is_empty());
    for &i in &zones {
        let mut damaged = lines.clone();
        damaged.remove(i);
        assert!(check_certificate(&(damaged.join("\n") + "\n")).is_err());
    }
}

/// Every 17th position of 4 × 4 with k = 3 (and every 71st with k = 4)
/// that the restricted prover proves for the player to move is a win by
/// the table, and every certificate with a zone entry and every 16th
/// other one is accepted; also with a horizon of six stones on 4 × 4 with
/// k = 3 (which proves fewer). The whole of it (every position of k = 3,
/// every 23rd of k = 4: 92 s) is the ignored test below.
#[test]
fn restricted_proofs_are_wins_with_accepted_certificates() {
    restricted_proofs_agree(&[(4, 4, 3, 17), (4, 4, 4, 71)], (50_000, 2));
}

/// The same with threat-space search (issue 76), on every 107th position of
/// 4 × 4 with k = 3 and every 421st of k = 4: its proofs are wins by the
/// table, their certificates accepted.
#[test]
fn restricted_proofs_with_threat_space_search_are_wins_with_accepted_certificates() {
    let settings = Settings {
        vct: Some(VctLimits::default()),
        ..restricted()
    };
    let (proofs, checked) = restricted_proofs_checked(settings, &[(4, 4, 3, 107), (4, 4, 4, 421)]);
    eprintln!("{proofs} proofs, {checked} checked with zone entries");
    assert!(proofs > 4_000 && checked > 0, "{proofs}, {checked}");
}

/// [`restricted_proofs_are_wins_with_accepted_certificates`] on every
/// position of 4 × 4 with k = 3 and every 23rd with k = 4 (`cargo test
/// --release --test provers -- --ignored restricted`).
#[test]
#[ignore = "92 s: the sampled test above runs in the suite"]
fn restricted_proofs_of_every_position_are_wins_with_accepted_certificates() {
    restricted_proofs_agree(&[(4, 4, 3, 1), (4, 4, 4, 23)], (1_000, 10));
}

/// The restricted prover's proofs on `boards` (columns, rows, k, the
/// stride of the positions taken) checked, more than `least` of them (and
/// of them with zone entries); with a horizon on the first board, fewer.
fn restricted_proofs_agree(boards: &[(u32, u32, u32, u64)], least: (u64, usize)) {
    let horizon = Settings {
        max_stones: Some(6),
        ..restricted()
    };
    let (unlimited, with_zones) = restricted_proofs_checked(restricted(), boards);
    eprintln!("{unlimited} proofs, {with_zones} checked with zone entries");
    assert!(unlimited > least.0, "{unlimited} proofs");
    assert!(
        with_zones > least.1,
        "{with_zones} certificates with zone entries"
    );
    let (limited, _) = restricted_proofs_checked(horizon, &boards[..1]);
    assert!(limited < unlimited, "{limited} against {unlimited}");
}

/// The proofs of [`restricted_proofs_agree`] under `settings`, checked:
/// how many, and how many of those checked had zone entries.
fn restricted_proofs_checked(settings: Settings, boards: &[(u32, u32, u32, u64)]) -> (u64, usize) {
    let (mut proofs, mut with_zones) = (0u64, 0);
    for &(cols, rows, k, stride) in boards {
        let game = Mnk::new(BoardSize { cols, rows, k }).unwrap();
        let table = solve_mnk(&game, &Budget::unlimited()).unwrap();
        let geometry = Geometry::new(BoardSize { cols, rows, k }).unwrap();
        let mut provers = [0, 1].map(|a| ThreatProver::new(&geometry, a, settings, 1 << 28, None));
        let mut seen = 0u64;
        common::for_each_position_in_play(&table, cols * rows, |x, o, value, _| {
            seen += 1;
            if !seen.is_multiple_of(stride) {
                return;
            }
            let mut board = board_of(&geometry, u64::from(x), u64::from(o));
            let mover = board.to_move();
            let prover = &mut provers[mover];
            let verdict = prover.prove(&mut board);
            let at = format!("{cols},{rows},{k}: {}", board.diagram());
            let at = || at.clone();
            assert_ne!(verdict, Verdict::Open, "{}: {:?}", at(), prover.stopped());
            if verdict != Verdict::Win {
                return;
            }
            assert_eq!(value, Outcome::Win, "{}", at());
            proofs += 1;
            // the checker runs on a thread of its own: a sample of them
            // (the certificate is cheap, its check less so)
            let (text, _) = prover.certificate(&mut board).unwrap();
            let zoned = text.contains("\nzone ");
            if zoned || proofs.is_multiple_of(16) {
                if let Err(why) = check_certificate(&text) {
                    panic!("{}: {why}", at());
                }
                with_zones += usize::from(zoned);
            }
        });
    }
    (proofs, with_zones)
}

/// A proof stopped twice, each time saved to a checkpoint and restored into
/// a fresh prover (as a new process would), ends as a proof whose
/// certificate the checker accepts, without searching again what the
/// earlier provers searched; with zones (their cuts and chosen moves are
/// in the checkpoint too) and without.
#[test]
fn a_proof_resumed_from_checkpoints_is_accepted_and_not_searched_again() {
    let geometry = Geometry::new(BoardSize::new(15, 15, 5)).unwrap();
    let dir = std::env::temp_dir().join(format!("retrograde-threat-ck-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("proof.checkpoint");
    let no_zones = Settings {
        zone_moves: None,
        ..Settings::default()
    };
    for (moves, settings) in [
        ("h8 a1 i9 a2", Settings::default()),
        ("h8 a1 i9 a15", no_zones),
    ] {
        let mut board = Board::after(&geometry, moves).unwrap();
        let mut whole = ThreatProver::new(&geometry, 0, settings, 1 << 28, None);
        assert_eq!(whole.prove(&mut board), Verdict::Win);
        let all = whole.stats().visits;
        let _ = std::fs::remove_file(&path);
        // each process's own positions, and the last one's proof
        let mut own = 0;
        let mut previous = 0;
        for stage in 1..=3 {
            let mut prover = ThreatProver::new(&geometry, 0, settings, 1 << 28, None);
            let earlier = prover.load_checkpoint(&path, &board).unwrap();
            assert_eq!(earlier.map_or(0, |e| e.visits), previous, "{moves}");
            if stage < 3 {
                prover.limit_visits(all * stage / 3);
                assert_eq!(prover.prove(&mut board), Verdict::Open, "{moves}");
                prover.save_checkpoint(&path, &board, 1.0).unwrap();
            } else {
                assert_eq!(prover.prove(&mut board), Verdict::Win, "{moves}");
                let (text, _) = prover.certificate(&mut board).unwrap();
                check_certificate(&text).expect("accepted");
            }
            own += prover.stats().visits - previous;
            previous = prover.stats().visits;
        }
        // started over each time it would be about 2 × all
        println!("{moves}: {own} positions in three processes, {all} in one");
        assert!(
            own < all + all / 4,
            "{moves}: {own} positions against {all}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A table that fills with proved entries gives up the least worked of
/// them, and the proof still goes through: h8 a1 i9 a2 without zones
/// (about 105 K positions and 62.9 K entries with room, 7.9 K of them
/// proved) in 384 KiB, whose table of 8,192 slots fills with proved
/// entries; until late on 2026-11-28, when none was given up, it stopped with
/// "the table is full" after about 310 K positions. The certificate is
/// written by a prover with room from the small one's checkpoint: its
/// walk proves again the pieces given up, and the checker accepts it.
#[test]
fn a_table_full_of_proofs_gives_up_the_least_worked_and_the_proof_goes_through() {
    let geometry = Geometry::new(BoardSize::new(15, 15, 5)).unwrap();
    let dir = std::env::temp_dir().join(format!("retrograde-threat-full-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("proof.checkpoint");
    let settings = Settings {
        zone_moves: None,
        ..Settings::default()
    };
    let mut board = Board::after(&geometry, "h8 a1 i9 a2").unwrap();
    let mut small = ThreatProver::new(&geometry, 0, settings, 384 << 10, None);
    small.limit_visits(2_000_000);
    assert_eq!(
        small.prove(&mut board),
        Verdict::Win,
        "{:?}",
        small.stopped()
    );
    assert!(small.stats().entries <= 8_192, "{:?}", small.stats());
    println!("proved in {} positions", small.stats().visits);
    small.save_checkpoint(&path, &board, 1.0).unwrap();
    // a walk on the clock stops where it would prove a piece again, and
    // says so (not "could not be read back": the proof is not lost)
    small.set_deadline(Some(std::time::Instant::now()));
    let stopped = small.certificate(&mut board).unwrap_err().to_string();
    assert!(
        stopped.contains("walk stopped on the time limit while proving again"),
        "{stopped}"
    );
    let mut roomy = ThreatProver::new(&geometry, 0, settings, 1 << 28, None);
    roomy.load_checkpoint(&path, &board).unwrap();
    assert_eq!(roomy.prove(&mut board), Verdict::Win);
    let (text, _) = roomy.certificate(&mut board).unwrap();
    check_certificate(&text).expect("accepted");
    // (the pieces given up were proved again by the walk)
    assert!(roomy.stats().proved_again > 0, "{:?}", roomy.stats());
    assert!(roomy.stats().visits > small.stats().visits);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A proof put together from other runs' proofs
/// (`ThreatProver::merge_checkpoint`), as the gomoku classes' open moves
/// are: h8 a1 i9 a2 h9 (O to move, a cut node) searched part way and
/// saved; two moves of its cut still open proved each by a prover of its
/// own, from scratch, and saved with their proofs alone (enough to write
/// the same certificate again without a search); a fourth prover resumes
/// the first
/// checkpoint and merges the two: those moves are proved at once, the
/// root is proved, and the certificate (walked again while its walk makes
/// merged cuts again, as `prove mnk` does) is accepted. A checkpoint of
/// other settings is refused.
#[test]
fn a_proof_put_together_from_checkpoints_of_its_moves_is_accepted() {
    let geometry = Geometry::new(BoardSize::new(15, 15, 5)).unwrap();
    let dir = std::env::temp_dir().join(format!("retrograde-merge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut root = Board::after(&geometry, "h8 a1 i9 a2 h9").unwrap();
    let settings = Settings::default();
    let prover = || ThreatProver::new(&geometry, 0, settings, 1 << 28, None);
    let mut whole = prover();
    assert_eq!(whole.prove(&mut root), Verdict::Win);
    let all = whole.stats().visits;
    let mut part = prover();
    part.limit_visits(all / 3);
    assert_eq!(part.prove(&mut root), Verdict::Open);
    let first = dir.join("root.checkpoint");
    part.save_checkpoint(&first, &root, 1.0).unwrap();
    // the pass proved, then the moves of its cut: two of the open ones
    let open: Vec<u32> = part
        .moves_searched(&root)
        .iter()
        .filter_map(|&(cell, n)| cell.filter(|_| n.is_none_or(|n| n.proof != 0)))
        .collect();
    assert!(open.len() >= 2, "{open:?}");
    let mut merged_files = Vec::new();
    for (i, &cell) in open.iter().take(2).enumerate() {
        let mut below = root.clone();
        below.play(cell, 1);
        let mut own = prover();
        own.keep_proof_positions();
        assert_eq!(own.prove(&mut below), Verdict::Win);
        // its checkpoint of the proof alone (written after the
        // certificate): smaller than the whole table's, and enough to
        // write the same certificate again without a search
        let (text, _) = own.certificate(&mut below).unwrap();
        let path = dir.join(format!("move{i}.checkpoint"));
        own.save_proof_checkpoint(&path, &below, 1.0).unwrap();
        let whole = dir.join("whole.checkpoint");
        own.save_checkpoint(&whole, &below, 1.0).unwrap();
        let size = |p: &std::path::Path| std::fs::metadata(p).unwrap().len();
        assert!(
            size(&path) < size(&whole),
            "{} {}",
            size(&path),
            size(&whole)
        );
        std::fs::remove_file(&whole).unwrap();
        let mut again = prover();
        again.load_checkpoint(&path, &below).unwrap().unwrap();
        assert_eq!(again.prove(&mut below), Verdict::Win);
        assert_eq!(again.certificate(&mut below).unwrap().0, text);
        assert_eq!(again.stats().visits, own.stats().visits, "searched again");
        merged_files.push((cell, path, own.stats().visits));
    }
    let mut put_together = prover();
    put_together
        .load_checkpoint(&first, &root)
        .unwrap()
        .unwrap();
    for (_, path, visits) in &merged_files {
        let merged = put_together.merge_checkpoint(path).unwrap();
        assert!(merged.proved > 0 && merged.visits == *visits, "{merged:?}");
    }
    let proved: Vec<u32> = put_together
        .moves_searched(&root)
        .iter()
        .filter_map(|&(cell, n)| cell.filter(|_| n.is_some_and(|n| n.proof == 0)))
        .collect();
    for (cell, ..) in &merged_files {
        assert!(proved.contains(cell), "{cell} not proved after the merge");
    }
    assert_eq!(put_together.prove(&mut root), Verdict::Win);
    let mut walks = 0;
    let text = loop {
        walks += 1;
        match put_together.certificate(&mut root) {
            Ok((text, _)) => break text,
            Err(e) if walks < 8 && e.to_string().starts_with(threats::CUTS_REMADE) => {}
            Err(e) => panic!("walk {walks}: {e}"),
        }
    };
    check_certificate(&text).expect("accepted");
    println!(
        "{walks} walks, {} cuts made again",
        put_together.stats().cuts_remade
    );
    // another game's settings: refused, the prover unchanged
    let other = Settings {
        max_covers: 2,
        ..settings
    };
    let mut refusing = ThreatProver::new(&geometry, 0, other, 1 << 28, None);
    let refused = refusing.merge_checkpoint(&first).unwrap_err().to_string();
    assert!(refused.contains("another proof"), "{refused}");
    // and one of a wider horizon than the prover's: its proofs past the
    // prover's horizon would not read back
    let narrow = Settings {
        max_stones: Some(12),
        ..settings
    };
    let mut narrower = ThreatProver::new(&geometry, 0, narrow, 1 << 28, None);
    let refused = narrower.merge_checkpoint(&first).unwrap_err().to_string();
    assert!(refused.contains("wider than this run's 12"), "{refused}");
    let missing = refusing
        .merge_checkpoint(&dir.join("none.checkpoint"))
        .unwrap_err()
        .to_string();
    assert!(missing.contains("no checkpoint there"), "{missing}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 76: gomoku proofs with threat-space search write each win by
/// threes as one `vct` tree (version 3), accepted; and a tree whose
/// defence set is written too small — one defender reply and its
/// continuation taken out — is refused, every time (without zones, so
/// that no extra stone could make the reply unplayable).
#[test]
fn a_threat_space_tree_with_a_reply_taken_out_is_refused() {
    let geometry = Geometry::new(BoardSize::new(15, 15, 5)).unwrap();
    let mut board = Board::after(&geometry, "h8 a1 i9 a2").unwrap();
    let settings = Settings {
        vct: Some(VctLimits::default()),
        zone_moves: None,
        ..Settings::default()
    };
    let mut prover = ThreatProver::new(&geometry, 0, settings, 1 << 30, None);
    prover.limit_visits(2_000_000);
    assert_eq!(prover.prove(&mut board), Verdict::Win);
    let (text, _) = prover.certificate(&mut board).unwrap();
    assert!(text.starts_with("# retrograde threat proof certificate 3\n"));
    check_certificate(&text).expect("accepted");
    let lines: Vec<&str> = text.lines().collect();
    let mut damaged = 0;
    for (i, line) in lines.iter().enumerate() {
        if !line.starts_with("vct ") {
            continue;
        }
        let words: Vec<&str> = line.split(' ').collect();
        let mut spans = Vec::new();
        assert_eq!(attacker_step(&words, 2, &mut spans), words.len(), "{line}");
        // the outermost reply of each tree that has one (spans are in
        // post-order), up to 30 trees
        let Some(span) = spans.last() else { continue };
        let mut words = words.clone();
        words.drain(span.clone());
        let mut broken = lines.clone();
        let tree = words.join(" ");
        broken[i] = &tree;
        let refused = check_certificate(&(broken.join("\n") + "\n"));
        assert!(refused.is_err(), "accepted without a reply: {tree}");
        damaged += 1;
        if damaged == 30 {
            break;
        }
    }
    assert!(damaged >= 10, "{damaged} trees with replies");
}

/// The end of the attacker step of a `vct` tree (docs/FORMAT.md) that
/// starts at `words[at]`, with the span of every reply below it (a reply's
/// cell and its attacker step) added to `spans`: a parser of the grammar
/// written for this test.
fn attacker_step(words: &[&str], at: usize, spans: &mut Vec<std::ops::Range<usize>>) -> usize {
    match words[at] {
        "*" => at + 1,
        "(" => at + words[at..].iter().position(|&w| w == ")").unwrap() + 1,
        _ => {
            // a cell, then the defender step
            assert_eq!(words[at + 1], "[");
            let mut i = at + 2;
            while words[i] != "]" {
                if words[i] == "(" {
                    i += words[i..].iter().position(|&w| w == ")").unwrap() + 1;
                } else {
                    let end = attacker_step(words, i + 1, spans);
                    spans.push(i..end);
                    i = end;
                }
            }
            i + 1
        }
    }
}
