//! Lines 1 and 2 of the second audit: gravity tables forged with every
//! checksum recomputed, and damage only the trailer's checksum shows. A
//! table of at most `CERTIFIED_ON_OPEN` stored positions (4×4) is
//! certified whenever it is opened; a larger one (5×4) by `query --check`
//! and by the report of its counts.

#[path = "common/cli.rs"]
mod cli_support;
#[path = "common/forge.rs"]
mod forge;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use cli_support::{refused, retrograde};
use forge::{value_byte, ForgedTable};
use retrograde::games::gravity::Gravity;

/// A scratch directory of this test binary.
fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("retrograde-audit-tables-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Tables solved so far: the board and the file's bytes.
type Solved = std::sync::Mutex<Vec<((u32, u32), Vec<u8>)>>;

/// The table of `cols × rows`, solved once for every test.
fn table(cols: u32, rows: u32) -> Vec<u8> {
    static TABLES: OnceLock<Solved> = OnceLock::new();
    let tables = TABLES.get_or_init(Default::default);
    let mut tables = tables.lock().unwrap();
    if let Some((_, bytes)) = tables.iter().find(|(b, _)| *b == (cols, rows)) {
        return bytes.clone();
    }
    let path = scratch().join(format!("c{cols}x{rows}.rgt"));
    let out = retrograde(&[
        "connect",
        "--cols",
        &cols.to_string(),
        "--rows",
        &rows.to_string(),
        "-q",
        "--out",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let bytes = std::fs::read(&path).unwrap();
    tables.push(((cols, rows), bytes.clone()));
    bytes
}

/// Writes `bytes` to a file named `name` in the scratch directory.
fn written(name: &str, bytes: &[u8]) -> PathBuf {
    let path = scratch().join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The canonical key of the board after X drops in column `c` (from 0).
fn after_first_move(game: &Gravity, c: u32) -> u64 {
    let cell = game.drop_cell(0, c).unwrap();
    game.canonical(game.key(cell, cell))
}

#[test]
fn line_1_a_forged_value_and_child_are_refused() {
    let game = Gravity::new(4, 4, 4).unwrap();
    let mut t = ForgedTable::parse(&table(4, 4));
    // the empty board "won in 16" and a child "lost in 15", locally
    // consistent; the truth is a draw
    let root = t.value_at(0, game.key(0, 0));
    t.blocks[root] = value_byte('w', 16);
    let child = t.value_at(1, after_first_move(&game, 0));
    t.blocks[child] = value_byte('l', 15);
    let forged = written("forged-value.rgt", &t.to_bytes());
    for args in [
        vec!["query", s(&forged), "--moves", ""],
        vec!["query", s(&forged), "--check"],
        vec!["query", s(&forged)],
    ] {
        let err = refused(&args);
        assert!(err.contains("does not follow from the rules"), "{err}");
    }
    refused(&["play", s(&forged)]);
}

#[test]
fn line_1_an_edited_k_is_refused() {
    let mut t = ForgedTable::parse(&table(4, 4));
    t.parameters["k"] = 3.into();
    let forged = written("forged-k.rgt", &t.to_bytes());
    let err = refused(&["query", s(&forged), "--moves", "1 2 3"]);
    assert!(err.contains("ply"), "{err}");
}

#[test]
fn line_1_summary_counts_are_derived_not_printed_as_stored() {
    // impossible counts: refused on opening
    let mut t = ForgedTable::parse(&table(4, 4));
    t.summary["counts"][7]["x_wins"] = 1060.into();
    let forged = written("forged-impossible-counts.rgt", &t.to_bytes());
    let err = refused(&["query", s(&forged), "--check"]);
    assert!(err.contains("counts of ply 7"), "{err}");
    // possible counts, wrong: the certification of a table beyond
    // certification on opening (5×4) finds them
    let mut t = ForgedTable::parse(&table(5, 4));
    let ply = &mut t.summary["counts"][9];
    let (won, lost) = (
        ply["first_won"].as_u64().unwrap(),
        ply["first_lost"].as_u64().unwrap(),
    );
    ply["first_won"] = (won + 1).into();
    ply["first_lost"] = (lost - 1).into();
    let forged = written("forged-counts.rgt", &t.to_bytes());
    for args in [
        vec!["query", s(&forged), "--check"],
        vec!["query", s(&forged)],
    ] {
        let err = refused(&args);
        assert!(err.contains("counts of ply 9 differ"), "{err}");
    }
}

#[test]
fn line_1_a_table_without_its_blocks_has_no_value() {
    let mut t = ForgedTable::parse(&table(4, 4));
    for (stored, first) in &mut t.directory {
        *stored = 0;
        *first = 0;
    }
    t.index.clear();
    t.blocks.clear();
    for ply in t.summary["counts"].as_array_mut().unwrap() {
        for field in forge::COUNT_FIELDS {
            ply[field] = 0.into();
        }
    }
    t.head[24..32].copy_from_slice(&0u64.to_le_bytes());
    let forged = written("forged-empty.rgt", &t.to_bytes());
    for args in [
        vec!["query", s(&forged)],
        vec!["query", s(&forged), "--check"],
    ] {
        let err = refused(&args);
        assert!(!err.contains("draw"), "{err}");
    }
}

#[test]
fn line_1_every_value_a_win_is_refused() {
    for (cols, rows) in [(4, 4), (5, 4)] {
        let mut t = ForgedTable::parse(&table(cols, rows));
        for at in t.value_places() {
            t.blocks[at] = value_byte('w', t.blocks[at] >> 2);
        }
        let forged = written(&format!("forged-wins-{cols}x{rows}.rgt"), &t.to_bytes());
        let err = refused(&["query", s(&forged), "--check"]);
        assert!(err.contains("does not follow from the rules"), "{err}");
    }
}

#[test]
fn line_2_the_trailer_checksum_is_checked() {
    for (cols, rows) in [(4, 4), (5, 4)] {
        let mut bytes = table(cols, rows);
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        let flipped = written(&format!("flipped-{cols}x{rows}.rgt"), &bytes);
        let err = refused(&["query", s(&flipped), "--check"]);
        assert!(err.contains("trailer"), "{err}");

        let mut bytes = table(cols, rows);
        let at = bytes.len() - 12;
        bytes.splice(at..at, [0u8; 4]);
        let inserted = written(&format!("inserted-{cols}x{rows}.rgt"), &bytes);
        let err = refused(&["query", s(&inserted), "--moves", ""]);
        assert!(err.contains("trailer"), "{err}");
    }
}

#[test]
fn honest_tables_are_certified() {
    for (cols, rows) in [(4, 4), (5, 4)] {
        let path = written(&format!("honest-{cols}x{rows}.rgt"), &table(cols, rows));
        let out = retrograde(&["query", s(&path), "--check"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(String::from_utf8_lossy(&out.stdout).contains("certified"));
    }
}
