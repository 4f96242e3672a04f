//! Gravity tables on disk: written compactly, read back mapped (one block
//! a lookup) with every answer equal to the solve's, and any damaged block
//! or index refused rather than answered.

use retrograde::{
    disk::{load, save, GravityFile, GravityValues, SavedGame, SavedTable, BLOCK_POSITIONS},
    engines::sparse::solve_gravity,
    games::gravity::Gravity,
    host::Budget,
    BoardSize,
};

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "retrograde-gravity-file-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The byte range of a section's content.
fn section(bytes: &[u8], tag: &[u8; 4]) -> std::ops::Range<usize> {
    let at = bytes.windows(4).position(|w| w == tag).unwrap();
    let len = u64::from_le_bytes(bytes[at + 4..at + 12].try_into().unwrap()) as usize;
    at + 12..at + 12 + len
}

#[test]
fn a_saved_table_answers_every_position_as_the_solve_does() {
    let dir = scratch("round-trip");
    for (cols, rows, k) in [
        (4, 4, 4),
        (5, 4, 4),
        (3, 3, 2),
        (4, 5, 3),
        (1, 1, 1),
        (8, 4, 2),
    ] {
        let game = Gravity::new(BoardSize { cols, rows, k }).unwrap();
        let solution = solve_gravity(&game, &Budget::unlimited()).unwrap();
        let path = dir.join(format!("{cols}x{rows}k{k}.rtb"));
        let saved = SavedGame::Gravity { cols, rows, k };
        let size = save(&path, &saved, &SavedTable::Gravity(solution.clone())).unwrap();
        // compact: well under 4 bytes a position (each counted with its mirror)
        if solution.positions() > 100_000 {
            assert!(
                size < 2 * solution.positions(),
                "{cols}×{rows}: {size} bytes for {} positions",
                solution.positions()
            );
        }
        let file = GravityFile::open(&path).unwrap().expect("a gravity table");
        assert_eq!(file.counts(), &solution.counts[..]);
        file.check_blocks().unwrap();
        // every position of the small boards, a sample of 5×4's
        let step = if solution.positions() > 200_000 {
            29
        } else {
            1
        };
        for (ply, key, value, depth) in solution.entries().step_by(step) {
            assert_eq!(
                file.value_of(ply, key).unwrap(),
                Some((value, depth)),
                "{cols}×{rows} k={k} ply {ply} key {key:#x}"
            );
            // a key of another ply is not there
            assert_eq!(file.value_of(ply + 1, key).unwrap(), None);
        }
        // the whole file reads back as the same table (and is certified)
        let (game_read, table) = load(&path).unwrap();
        assert_eq!(game_read, saved);
        let SavedTable::Gravity(read) = table else {
            panic!("a gravity table")
        };
        assert_eq!(read.plies, solution.plies);
        assert_eq!(read.counts, solution.counts);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_damaged_block_and_index_entry_is_refused() {
    let dir = scratch("damage");
    let game = Gravity::new(BoardSize::new(4, 4, 4)).unwrap();
    let solution = solve_gravity(&game, &Budget::unlimited()).unwrap();
    let path = dir.join("t.rtb");
    let saved = SavedGame::Gravity {
        cols: 4,
        rows: 4,
        k: 4,
    };
    save(&path, &saved, &SavedTable::Gravity(solution.clone())).unwrap();
    let original = std::fs::read(&path).unwrap();
    let index = section(&original, b"GIDX");
    let blocks = section(&original, b"GBLK");
    let entries = index.len() / 32;
    assert_eq!(
        entries as u64,
        solution
            .plies
            .iter()
            .map(|p| p.raw().0.len().div_ceil(BLOCK_POSITIONS) as u64)
            .sum::<u64>()
    );
    let offset = |e: usize| {
        let at = index.start + e * 32 + 8;
        u64::from_le_bytes(original[at..at + 8].try_into().unwrap()) as usize
    };
    let damaged = dir.join("d.rtb");
    // every position of the small plies, a sample of the others
    let mut sample = Vec::new();
    for (ply, counts) in solution.counts.iter().enumerate() {
        let step = if counts.positions > 2_000 { 61 } else { 1 };
        sample.extend(solution.entries().filter(|e| e.0 == ply).step_by(step));
    }
    for e in 0..entries {
        let end = if e + 1 < entries {
            offset(e + 1)
        } else {
            blocks.len()
        };
        // the first, a middle and the last byte of block e
        for at in [offset(e), (offset(e) + end) / 2, end - 1] {
            let mut bytes = original.clone();
            bytes[blocks.start + at] ^= 0x10;
            std::fs::write(&damaged, &bytes).unwrap();
            let file = GravityFile::open(&damaged)
                .unwrap()
                .expect("the index is intact");
            assert!(file.check_blocks().is_err(), "block {e} byte {at}");
            let mut refused = 0;
            for &(ply, key, value, depth) in &sample {
                match file.value_of(ply, key) {
                    Ok(found) => assert_eq!(found, Some((value, depth)), "block {e} byte {at}"),
                    Err(err) => {
                        assert!(err.to_string().contains("corrupted"), "{err}");
                        refused += 1;
                    }
                }
            }
            assert!(refused > 0, "block {e} byte {at}: no lookup noticed");
            assert!(load(&damaged).is_err());
        }
    }
    // a damaged index, directory or summary is refused on opening
    for tag in [b"GIDX", b"GDIR", b"SUMM"] {
        let range = section(&original, tag);
        for at in [range.start, range.end - 1] {
            let mut bytes = original.clone();
            bytes[at] ^= 0x01;
            std::fs::write(&damaged, &bytes).unwrap();
            assert!(
                GravityFile::open(&damaged).is_err(),
                "{} byte {at}",
                String::from_utf8_lossy(tag)
            );
        }
    }
    // a truncated file is refused, never read past its end
    for len in [0, 10, original.len() / 2, original.len() - 1] {
        std::fs::write(&damaged, &original[..len]).unwrap();
        let opened = GravityFile::open(&damaged);
        assert!(
            opened.is_err() || opened.as_ref().unwrap().is_none() || {
                let f = opened.unwrap().unwrap();
                f.check_blocks().is_err()
            },
            "truncated to {len}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

use crate::common::cli;

#[test]
fn query_and_play_answer_from_a_mapped_table() {
    let dir = scratch("cli");
    let path = dir.join("t.rtb");
    let p = path.to_str().unwrap();
    let solved = cli::json_of(&[
        "connect", "--cols", "5", "--rows", "4", "--out", p, "--json",
    ]);
    let queried = cli::json_of(&["query", p, "--json"]);
    for key in [
        "positions",
        "terminal",
        "value",
        "depth",
        "per_ply",
        "first_won",
    ] {
        assert_eq!(solved[key], queried[key], "{key}");
    }
    let fresh = cli::json_of(&[
        "connect", "--cols", "5", "--rows", "4", "--moves", "3,3,2", "--json",
    ]);
    let from_file = cli::json_of(&["query", p, "--moves", "3,3,2", "--json"]);
    assert_eq!(fresh["moves"], from_file["moves"]);
    assert_eq!(fresh["value"], from_file["value"]);
    let info = cli::json_of(&["query", p, "--check", "--json"]);
    assert!(info["bytes_per_position"].as_f64().unwrap() < 4.0);
    // a damaged block: --check (every block) refuses with exit code 2
    let mut bytes = std::fs::read(&path).unwrap();
    let blocks = section(&bytes, b"GBLK");
    bytes[blocks.start + blocks.len() / 2] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    cli::refused(&["query", p, "--check"]);
    std::fs::remove_dir_all(&dir).unwrap();
}
