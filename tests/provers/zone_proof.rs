//! The zone prover (`prove::zones`): its certificates replayed by the
//! checker written apart from the library (`retrograde_checker::zones`, in
//! `checker/`: its own lines, parser and zones; it trusts only the zone
//! lemma of the module docs), and its verdicts against the exhaustive
//! tables on every position of every board up to 4 × 4 and on random 4 × 5
//! positions.

use retrograde::{
    engines::bitboard::{Bitboard, BoardSearcher},
    engines::layered::solve_mnk,
    engines::pairing::PairingBoard,
    engines::zones::{prove_draw, Cells, DrawProof, Node, Search, Verdict, ZoneProver},
    games::mnk::Mnk,
    host::Budget,
    language::Outcome,
    BoardSize, Family,
};
use retrograde_checker::zones::{check_certificate, check_claims_from, Board};

use crate::common;
use crate::common::cli;
use crate::common::Rng;

/// The certificate of `prover`'s proof of `root` on a `cols` × `rows`
/// board with lines of `k`, under the claim that `defender` (its letter)
/// draws, replayed from `start` with `to_move` to move: the positions
/// listed, the text's bytes and the positions replayed.
fn write_and_replay(
    prover: &mut ZoneProver,
    (cols, rows, k): (u32, u32, u32),
    root: Node,
    defender: char,
    (start, to_move): (&Board, u8),
) -> Result<(u64, usize, usize), String> {
    let mut text = format!(
        "# retrograde zone proof certificate 2\nmnk {cols} {rows} {k}\nclaim {defender} draws\n"
    );
    let listed = prover
        .write_proof(root, defender == 'O', &mut text)
        .map_err(|e| e.to_string())?;
    let visited = check_claims_from(&text, start, to_move)?;
    Ok((listed, text.len(), visited))
}

fn draw_certificate(cols: u32, rows: u32, k: u32) -> String {
    let board = PairingBoard::new(BoardSize { cols, rows, k }).unwrap();
    let memory = (1 << 24) * retrograde::engines::zones::BYTES_PER_ENTRY;
    match prove_draw(board, memory, None, u64::MAX).unwrap() {
        DrawProof::Draw { certificate, .. } => certificate,
        other => panic!("{cols}×{rows} k={k}: {other:?}"),
    }
}

#[test]
fn the_k5_draws_replay() {
    for (cols, rows) in [(5, 5), (6, 5), (6, 6), (7, 6), (7, 7)] {
        let text = draw_certificate(cols, rows, 5);
        assert_eq!(
            check_certificate(&text),
            Ok(vec!["O".into(), "X".into()]),
            "{cols}×{rows}"
        );
    }
}

#[test]
fn damaged_certificates_are_refused() {
    let text = draw_certificate(6, 6, 5);
    let rows: Vec<&str> = text.lines().collect();
    // each entry left out in turn (the first few of each kind)
    let mut dropped = 0;
    for kind in ["move ", "pairing ", "expand "] {
        for (i, _) in rows
            .iter()
            .enumerate()
            .filter(|(_, r)| r.starts_with(kind))
            .take(3)
        {
            let mut damaged: Vec<&str> = rows.clone();
            damaged.remove(i);
            assert!(
                check_certificate(&damaged.join("\n")).is_err(),
                "without line {i}"
            );
            dropped += 1;
        }
    }
    assert!(dropped >= 5, "{dropped}");
    // a pairing that loses a pair, a move to another cell
    let i = rows.iter().position(|r| r.starts_with("pairing ")).unwrap();
    let short: Vec<&str> = rows[i].rsplitn(3, ' ').collect();
    let mut damaged = rows.clone();
    damaged[i] = short[2];
    assert!(check_certificate(&damaged.join("\n")).is_err());
    let i = rows.iter().position(|r| r.starts_with("move ")).unwrap();
    let (head, _) = rows[i].rsplit_once(' ').unwrap();
    let mut refused = 0;
    for other in ["a1", "b2", "c3", "f6"] {
        let moved = format!("{head} {other}");
        let mut damaged = rows.clone();
        damaged[i] = &moved;
        if moved != rows[i] && check_certificate(&damaged.join("\n")).is_err() {
            refused += 1;
        }
    }
    assert!(refused >= 2, "{refused}");
    // one claim alone is not a draw
    let second = rows.iter().position(|r| *r == "claim X draws").unwrap();
    assert!(check_certificate(&rows[..second].join("\n")).is_err());
}

/// The parts of a claim: a `part` line left out (its entries join the
/// part before, so its root is proved nowhere) or naming another position
/// is refused, and so is a version 1 certificate with parts.
#[test]
fn damaged_parts_are_refused() {
    let text = draw_certificate(7, 7, 5);
    let rows: Vec<&str> = text.lines().collect();
    let parts: Vec<usize> = (0..rows.len())
        .filter(|&i| rows[i].starts_with("part "))
        .collect();
    // the null move, then one first move of each class under the square's
    // symmetries inside the null move's zone (7 × 7: 10 classes)
    assert!(parts.len() >= 2, "{}", parts.len());
    for &i in &parts {
        let mut damaged = rows.clone();
        damaged.remove(i);
        // the first part's entries would join the main ones: still a proof
        assert_eq!(
            check_certificate(&damaged.join("\n")).is_err(),
            i != parts[0],
            "without {}",
            rows[i]
        );
        // the part's root another position (an X stone on its first empty cell)
        let (head, diagram) = rows[i].rsplit_once(' ').unwrap();
        let moved = diagram.replacen('.', "X", 1);
        let mut damaged = rows.clone();
        let line = format!("{head} {moved}");
        damaged[i] = &line;
        assert!(
            check_certificate(&damaged.join("\n")).is_err(),
            "with {line}"
        );
    }
    let old = text.replacen("certificate 2", "certificate 1", 1);
    assert!(check_certificate(&old).is_err());
}

/// The prover's verdict on a position: Some(outcome for the player to
/// move) from two exhaustive searches (each side as the attacker).
fn prover_value(provers: &mut [ZoneProver; 2], x: Cells, o: Cells, x_to_move: bool) -> Outcome {
    let (mover, other) = if x_to_move { (0, 1) } else { (1, 0) };
    let stones = |attacker_is_x: bool| if attacker_is_x { (x, o) } else { (o, x) };
    let (a, d) = stones(x_to_move);
    let mover_wins = provers[mover].prove(
        Node {
            attacker: a,
            defender: d,
            attacker_to_move: true,
        },
        u32::MAX,
    );
    let (a, d) = stones(!x_to_move);
    let other_wins = provers[other].prove(
        Node {
            attacker: a,
            defender: d,
            attacker_to_move: false,
        },
        u32::MAX,
    );
    match (mover_wins, other_wins) {
        (Verdict::Falls, Verdict::Holds(_)) => Outcome::Win,
        (Verdict::Holds(_), Verdict::Falls) => Outcome::Loss,
        (Verdict::Holds(_), Verdict::Holds(_)) => Outcome::Draw,
        v => panic!("unsettled or contradictory: {v:?}"),
    }
}

fn cells_of(bits: u64) -> Cells {
    (0..64)
        .filter(|c| bits >> c & 1 == 1)
        .fold(Cells::default(), |s, c| s.with(c))
}

fn provers(cols: u32, rows: u32, k: u32, search: Search) -> [ZoneProver; 2] {
    let board = PairingBoard::new(BoardSize { cols, rows, k }).unwrap();
    [(); 2].map(|_| {
        let mut prover = ZoneProver::new(board, 1 << 26, None).unwrap();
        prover.set_search(search);
        prover
    })
}

/// Checks the prover searching by `search` on every position in play of
/// the board (reachable, no line yet) against the exhaustive table;
/// returns how many.
fn every_position_agrees(cols: u32, rows: u32, k: u32, search: Search) -> u64 {
    let game = Mnk::new(BoardSize { cols, rows, k }).unwrap();
    let table = solve_mnk(&game, &Budget::unlimited()).unwrap();
    let mut provers = provers(cols, rows, k, search);
    let cells = cols * rows;
    let mut checked = 0;
    common::for_each_position_in_play(&table, cells, |x, o, value, _| {
        // fresh tables now and then keep the memory small
        if checked % 500_000 == 499_999 {
            provers = self::provers(cols, rows, k, search);
        }
        let x_to_move = x.count_ones() == o.count_ones();
        let got = prover_value(
            &mut provers,
            cells_of(x.into()),
            cells_of(o.into()),
            x_to_move,
        );
        assert_eq!(got, value, "{cols}×{rows} k={k}: x {x:b} o {o:b}");
        checked += 1;
    });
    checked
}

#[test]
fn every_position_of_every_board_up_to_4x4_agrees_but_4x4_k4() {
    for search in [Search::Deepening, Search::ProofNumbers] {
        let checked: u64 = common::mnk_boards_up_to_4x4()
            .into_iter()
            .filter(|&board| board != (4, 4, 4))
            .map(|(cols, rows, k)| every_position_agrees(cols, rows, k, search))
            .sum();
        assert!(checked > 3_000_000, "{search:?}: {checked}");
    }
}

#[test]
fn every_position_of_4x4_k4_agrees() {
    let checked = every_position_agrees(4, 4, 4, Search::ProofNumbers);
    assert!(checked > 9_000_000, "{checked}");
}

/// The iterative deepening on 4 × 4 with k = 4 (a documented run: the
/// default search above carries the suite's time).
#[test]
#[ignore]
fn every_position_of_4x4_k4_agrees_by_deepening() {
    let checked = every_position_agrees(4, 4, 4, Search::Deepening);
    assert!(checked > 9_000_000, "{checked}");
}

/// Random 4-row, 5-column positions against the bitboard search (itself
/// checked against the exhaustive tables in tests/search/bitboard_mnk.rs):
/// the dense tables of 20 cells take minutes to build.
#[test]
fn random_4x5_positions_agree() {
    let mut rng = Rng::new(45);
    let (cols, rows) = (5u32, 4u32);
    for k in 3..=5u32 {
        let bitboard = Bitboard::new(Family::Mnk, BoardSize { cols, rows, k }).unwrap();
        let searcher = BoardSearcher::quiet(bitboard.clone(), 1 << 18);
        let mut provers = provers(cols, rows, k, Search::Deepening);
        let mut by_numbers = self::provers(cols, rows, k, Search::ProofNumbers);
        let mut checked = 0;
        while checked < 300 {
            let Some((x, o)) = common::random_mnk_position(&mut rng, cols, rows, k, 0) else {
                continue;
            };
            let x_to_move = x.count_ones() == o.count_ones();
            let want = common::bitboard_value(&bitboard, &searcher, (cols, rows), (x, o));
            let got = prover_value(&mut provers, cells_of(x), cells_of(o), x_to_move);
            assert_eq!(got, want, "{cols}×{rows} k={k}: x {x:b} o {o:b}");
            let got = prover_value(&mut by_numbers, cells_of(x), cells_of(o), x_to_move);
            assert_eq!(
                got, want,
                "by numbers, {cols}×{rows} k={k}: x {x:b} o {o:b}"
            );
            checked += 1;
        }
    }
}

/// Replays the certificate file named by `RG_ZONE_PROOF` (a documented
/// run: `RG_ZONE_PROOF=FILE cargo test --release --test provers
/// zone_proof::replay_a_zone -- --ignored`), printing the claims it proves.
#[test]
#[ignore]
fn replay_a_zone_certificate_file() {
    let path = std::env::var("RG_ZONE_PROOF").expect("RG_ZONE_PROOF names a certificate file");
    let text = std::fs::read_to_string(&path).unwrap();
    let claims = check_certificate(&text).unwrap_or_else(|why| panic!("{path}: {why}"));
    eprintln!("{path}: proved {claims:?}");
}

/// `prove mnk` on a board no pairing settles and past the search's cells
/// proves the draw by zones, and its certificate replays here.
#[test]
fn prove_mnk_proves_7x6_k5_by_zones() {
    let dir = cli::scratch_dir("zone", "765");
    let proof = dir.join("7-6-5.txt");
    let path = proof.to_str().unwrap();
    let json = cli::json_of(&[
        "prove", "mnk", "--cols", "7", "--rows", "6", "--k", "5", "--proof", path, "--json",
    ]);
    assert_eq!(json["value"], "draw", "{json}");
    assert_eq!(json["method"], "zones", "{json}");
    let text = std::fs::read_to_string(&proof).unwrap();
    assert_eq!(check_certificate(&text), Ok(vec!["O".into(), "X".into()]));
}

/// A documented run (results/PROOFS.md): on an m,n,k board, the second
/// player's defence after each first move up to the board's symmetry,
/// each searched for at most `RG_SECONDS` (default 60) and `RG_NODES`
/// positions (default no limit), printed as proved or open with its
/// counts: `RG_BOARD=8,8,5 cargo test --release --test provers
/// zone_proof::the_defence_after_each_first_move -- --ignored
/// --nocapture`. `RG_FIRST=d4` tries only that first move
/// (`RG_FIRST=b1,d4` those); `RG_ENTRIES` bounds the table (default 2²⁶
/// positions); `RG_SEARCH=dd` searches by iterative deepening;
/// `RG_CERTIFY=1` writes each proved defence's certificate and replays it
/// from the first move with the checker above; `RG_X_CLAIM=1` first
/// proves and replays the draw's other claim (X, moving first, stops O).
#[test]
#[ignore]
fn the_defence_after_each_first_move() {
    let spec = std::env::var("RG_BOARD").unwrap_or_else(|_| "8,8,5".into());
    let [cols, rows, k]: [u32; 3] = spec
        .split(',')
        .map(|v| v.parse().unwrap())
        .collect::<Vec<_>>()
        .try_into()
        .unwrap();
    let seconds: u64 = std::env::var("RG_SECONDS").map_or(60, |s| s.parse().unwrap());
    let nodes: u64 = std::env::var("RG_NODES").map_or(u64::MAX, |s| s.parse().unwrap());
    let only: Option<Vec<String>> = std::env::var("RG_FIRST")
        .ok()
        .map(|v| v.split(',').map(String::from).collect());
    let entries: usize = std::env::var("RG_ENTRIES").map_or(1 << 26, |s| s.parse().unwrap());
    let certify = std::env::var("RG_CERTIFY").is_ok();
    let search = match std::env::var("RG_SEARCH").as_deref() {
        Ok("dd") => Search::Deepening,
        _ => Search::ProofNumbers,
    };
    let board = PairingBoard::new(BoardSize { cols, rows, k }).unwrap();
    if std::env::var("RG_X_CLAIM").is_ok() {
        // the second claim of a draw: X, moving first, stops O
        let started = std::time::Instant::now();
        let mut prover = ZoneProver::new(board, entries, None).unwrap();
        prover.set_search(search);
        let root = Node {
            attacker: Cells::default(),
            defender: Cells::default(),
            attacker_to_move: false,
        };
        let verdict = prover.prove(root, u32::MAX);
        assert!(
            matches!(verdict, Verdict::Holds(_)) && !prover.stopped(),
            "{verdict:?}"
        );
        let start = vec![0; (cols * rows) as usize];
        let (listed, _, visited) =
            write_and_replay(&mut prover, (cols, rows, k), root, 'X', (&start, 1)).unwrap();
        println!(
            "{spec}: X stops O: proved ({} positions, {:.1} s); certificate of {listed} positions accepted ({visited} replayed)",
            prover.stats().nodes,
            started.elapsed().as_secs_f64()
        );
    }
    for r in 0..rows.div_ceil(2) {
        for c in 0..cols.div_ceil(2) {
            if cols == rows && c < r {
                continue; // the diagonal mirror of a cell already tried
            }
            if only
                .as_ref()
                .is_some_and(|o| !o.contains(&board.cell_name(r * cols + c)))
            {
                continue;
            }
            let started = std::time::Instant::now();
            let deadline = started + std::time::Duration::from_secs(seconds);
            let mut prover = ZoneProver::new(board, entries, Some(deadline)).unwrap();
            prover.limit_nodes(nodes);
            prover.set_search(search);
            let node = Node {
                attacker: Cells::one(r * cols + c),
                defender: Cells::default(),
                attacker_to_move: false,
            };
            let verdict = prover.prove(node, u32::MAX);
            let stats = prover.stats();
            let what = match verdict {
                Verdict::Holds(_) if !prover.stopped() => "proved",
                Verdict::Falls => "FALLS",
                _ => "open",
            };
            println!(
                "{spec}: X first at {}: {what} ({} positions, depth {}, {} pairing searches of {} steps, {:.1} s)",
                board.cell_name(r * cols + c),
                stats.nodes,
                stats.depth,
                stats.pairing_tries,
                stats.pairing_steps,
                started.elapsed().as_secs_f64()
            );
            if certify && what == "proved" {
                let started = std::time::Instant::now();
                let mut start = vec![0u8; (cols * rows) as usize];
                start[(r * cols + c) as usize] = 1;
                let (listed, bytes, visited) =
                    write_and_replay(&mut prover, (cols, rows, k), node, 'O', (&start, 2))
                        .unwrap_or_else(|why| {
                            panic!(
                                "the certificate after {}: {why}",
                                board.cell_name(r * cols + c)
                            )
                        });
                println!(
                    "  certificate: {listed} positions, {} bytes, accepted by the checker ({visited} positions replayed), {:.1} s",
                    bytes,
                    started.elapsed().as_secs_f64()
                );
            }
        }
    }
}

/// Forged certificates of false claims, kept by name (issue 86), each
/// refused: `zone-forgery-4-1-2.proof` on 4,1,2 (a first-player win)
/// writes `expand X .XO.` with the null move `move O .XO. d1`, whose zone
/// is O's line c1 d1, so a checker that tries only the attacker moves in
/// that zone never sees X's a1 completing a line.
#[test]
fn the_forged_certificates_are_refused() {
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/proofs");
    let name = "zone-forgery-4-1-2.proof";
    let why =
        "the defender, to move, faces two completion cells (a1 and c1) at .X.. with O to move";
    let text = std::fs::read_to_string(format!("{fixtures}/{name}")).unwrap();
    assert_eq!(
        retrograde_checker::check(&text).map(|c| c.claims),
        Err(why.to_string()),
        "{name}"
    );
}
