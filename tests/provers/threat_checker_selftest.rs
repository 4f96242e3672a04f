//! Self-test of the independent threat proof certificate checker
//! (`retrograde_checker::threats`, `checker/src/threats.rs`) on
//! certificates built by hand.
//!
//! The boards are 7 × 7 with lines of 4 (`mnk 7 7 4`) unless said; cells are
//! named by column letter (`a` the leftmost) and row number (1 the top).

use retrograde_checker::threats::check_certificate;

const HEADER: &str = "# retrograde threat proof certificate 2";
const HEADER_V1: &str = "# retrograde threat proof certificate 1";
const HEADER_V3: &str = "# retrograde threat proof certificate 3";

/// A diagram of `cols × rows` with X on `xs` and O on `os`.
fn diagram(cols: usize, rows: usize, xs: &[&str], os: &[&str]) -> String {
    let mut cells = vec!['.'; cols * rows];
    for (stones, stone) in [(xs, 'X'), (os, 'O')] {
        for name in stones {
            let col = (name.as_bytes()[0] - b'a') as usize;
            let row: usize = name[1..].parse().unwrap();
            let cell = &mut cells[(row - 1) * cols + col];
            assert_eq!(*cell, '.', "{name} placed twice");
            *cell = stone;
        }
    }
    cells
        .chunks(cols)
        .map(|row| row.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("/")
}

/// A 7 × 7 diagram.
fn b7(xs: &[&str], os: &[&str]) -> String {
    diagram(7, 7, xs, os)
}

/// A 7 × 7 diagram of `xs` and `os` with one more stone (`'X'` or `'O'`) on `cell`.
fn plus(xs: &[&str], os: &[&str], stone: char, cell: &'static str) -> String {
    let (mut xs, mut os) = (xs.to_vec(), os.to_vec());
    if stone == 'X' {
        xs.push(cell);
    } else {
        os.push(cell);
    }
    b7(&xs, &os)
}

/// A certificate of `mnk 7 7 4`.
fn cert(attacker: char, root: &str, entries: &[String]) -> String {
    cert_mnk("7 7 4", attacker, root, entries)
}

fn cert_mnk(mnk: &str, attacker: char, root: &str, entries: &[String]) -> String {
    let mut text = format!("{HEADER}\nmnk {mnk}\nclaim {attacker} wins\nroot {root}\n");
    for entry in entries {
        text.push_str(entry);
        text.push('\n');
    }
    text
}

fn accepted(text: &str) -> usize {
    check_certificate(text).unwrap_or_else(|e| panic!("refused: {e}\n{text}"))
}

fn refused(text: &str, needles: &[&str]) {
    match check_certificate(text) {
        Ok(n) => panic!("accepted ({n} positions), expected a refusal\n{text}"),
        Err(e) => {
            assert!(!e.contains('\n'), "not one line: {e}");
            for needle in needles {
                assert!(e.contains(needle), "{e:?} does not contain {needle:?}");
            }
        }
    }
}

// X to move with two stones in row 4 and O far away.
const OPEN_TWO_X: [&str; 2] = ["c4", "d4"];
const OPEN_TWO_O: [&str; 2] = ["a1", "g7"];

#[test]
fn a_vcf_leaf_making_an_open_four_is_accepted() {
    let root = b7(&OPEN_TWO_X, &OPEN_TWO_O);
    // e4 gives X c4 d4 e4: completion cells b4 and f4
    let text = cert('X', &root, &[format!("vcf {root} e4")]);
    assert_eq!(accepted(&text), 1);
    // f4 leaves a gap: c4 d4 _ f4 has one completion cell (e4), O blocks, the run runs out
    refused(
        &cert('X', &root, &[format!("vcf {root} f4")]),
        &["vcf run f4", "runs out"],
    );
    // g1 is no threat at all
    refused(
        &cert('X', &root, &[format!("vcf {root} g1")]),
        &["g1 leaves the attacker no completion cell"],
    );
    // a4 makes a four (a4 _ c4 d4) that O blocks at b4
    refused(
        &cert('X', &root, &[format!("vcf {root} a4")]),
        &["vcf run a4", "runs out"],
    );
}

// X b1 c1 against O a1 (a four to make at d1), and X c5 d5 (an open two).
const VCF_X: [&str; 4] = ["b1", "c1", "c5", "d5"];

#[test]
fn a_vcf_with_a_forced_block_is_accepted() {
    let root = b7(&VCF_X, &["a1", "a7", "g7", "g3"]);
    // d1: one completion cell e1, O blocks it; e5: c5 d5 e5 with b5 and f5
    assert_eq!(
        accepted(&cert('X', &root, &[format!("vcf {root} d1 e5")])),
        1
    );
    refused(
        &cert('X', &root, &[format!("vcf {root} d1")]),
        &["runs out"],
    );
    // the blocked cell taken again
    refused(
        &cert('X', &root, &[format!("vcf {root} d1 e1 e5")]),
        &["e1 is not empty"],
    );
}

#[test]
fn a_vcf_run_is_refused_when_the_defender_gets_a_four() {
    // as above, but O's block at e1 joins O e2 e3: O's completion cell e4
    let root = b7(&VCF_X, &["a1", "e2", "e3", "g7"]);
    refused(
        &cert('X', &root, &[format!("vcf {root} d1 e5")]),
        &["before e5 the defender has a completion cell e4"],
    );
}

#[test]
fn a_move_making_an_open_four_needs_no_further_entries() {
    let root = b7(&OPEN_TWO_X, &OPEN_TWO_O);
    let text = cert('X', &root, &[format!("move {root} e4")]);
    // the root, the position after e4, and its 44 replies (each leaves b4 or f4)
    assert_eq!(accepted(&text), 46);
    // a move making only a closed three: O's reply e4 is answered by nothing
    refused(
        &cert('X', &root, &[format!("move {root} f4")]),
        &[
            "the defender's reply e4 at",
            &plus(&OPEN_TWO_X, &OPEN_TWO_O, 'X', "f4"),
            "no move, vcf or vct entry",
        ],
    );
}

#[test]
fn a_four_that_is_simply_blocked_is_refused_at_the_block() {
    let (xs, os) = (["b1", "c1", "e5"], ["a1", "g7", "a7"]);
    let root = b7(&xs, &os);
    refused(
        &cert('X', &root, &[format!("move {root} d1")]),
        &["the defender's reply e1 at", "no move, vcf or vct entry"],
    );
}

// O to move; X has two open twos (rows 2 and 4), O three scattered stones.
const COVER_X: [&str; 4] = ["c2", "d2", "c4", "d4"];
const COVER_O: [&str; 3] = ["a1", "a7", "g7"];

/// The root (O to move), covered by the run e4 except for the replies e4,
/// b4 and f4, each with an entry of its own (e2 makes the other open three).
fn covered_certificate(skip: Option<&str>) -> String {
    let root = b7(&COVER_X, &COVER_O);
    let mut entries = vec![format!("cover {root} e4")];
    for (reply, entry) in [("e4", "vcf"), ("b4", "vcf"), ("f4", "move")] {
        if skip != Some(reply) {
            let after = plus(&COVER_X, &COVER_O, 'O', reply);
            entries.push(format!("{entry} {after} e2"));
        }
    }
    cert('X', &root, &entries)
}

#[test]
fn a_cover_run_with_entries_for_the_replies_that_break_it_is_accepted() {
    // the root; e4 and b4 by their vcf; f4 by its move, the position after
    // it and that position's 40 replies; 42 - 3 replies covered by the run
    assert_eq!(
        accepted(&covered_certificate(None)),
        1 + 2 + (1 + 1 + 40) + 39
    );
}

#[test]
fn a_missing_entry_for_one_reply_is_refused() {
    let root = b7(&COVER_X, &COVER_O);
    for reply in ["e4", "b4", "f4"] {
        refused(
            &covered_certificate(Some(reply)),
            &[
                &format!("the defender's reply {reply} at {root}"),
                "no move, vcf or vct entry",
            ],
        );
    }
}

#[test]
fn a_cover_run_may_win_where_an_entry_fails() {
    // a bad vcf for the reply a4 (g1 makes no threat), which the cover run
    // e4 answers anyway
    let after = plus(&COVER_X, &COVER_O, 'O', "a4");
    let mut text = covered_certificate(None);
    text.push_str(&format!("vcf {after} g1\n"));
    accepted(&text);
    // a bad vcf for the reply f4, which the cover run does not answer
    let root = b7(&COVER_X, &COVER_O);
    let after = plus(&COVER_X, &COVER_O, 'O', "f4");
    let text =
        covered_certificate(None).replace(&format!("move {after} e2"), &format!("vcf {after} g1"));
    refused(
        &text,
        &[
            &format!("the defender's reply f4 at {root}: the vcf run g1 at {after} fails"),
            "g1 leaves the attacker no completion cell",
            "no cover run wins",
        ],
    );
}

#[test]
fn several_cover_runs_may_share_a_board() {
    let root = b7(&COVER_X, &COVER_O);
    // e4 answers every reply but e4, b4, f4; e2 answers those
    let text = cert(
        'X',
        &root,
        &[format!("cover {root} e4"), format!("cover {root} e2")],
    );
    accepted(&text);
    // e2 alone misses the replies e2, b2 and f2
    refused(
        &cert('X', &root, &[format!("cover {root} e2")]),
        &["the defender's reply b2 at"],
    );
}

#[test]
fn a_move_onto_an_occupied_cell_is_refused() {
    let root = b7(&OPEN_TWO_X, &OPEN_TWO_O);
    refused(
        &cert('X', &root, &[format!("move {root} c4")]),
        &["line 5", "occupied"],
    );
    // a vcf run onto an occupied cell fails in its replay
    refused(
        &cert('X', &root, &[format!("vcf {root} a1")]),
        &["a1 is not empty"],
    );
}

#[test]
fn a_claim_is_refused_when_the_defender_has_a_completion_cell() {
    // O a1 b1 c1: O's completion cell d1; X's move e4 ignores it
    let (xs, os) = (["c4", "d4", "g7"], ["a1", "b1", "c1"]);
    let root = b7(&xs, &os);
    refused(
        &cert('X', &root, &[format!("move {root} e4")]),
        &["the defender, to move at", "has a completion cell d1"],
    );
    refused(
        &cert('X', &root, &[format!("vcf {root} e4")]),
        &["before e4 the defender has a completion cell d1"],
    );
    // blocking first does not make a threat
    refused(
        &cert('X', &root, &[format!("vcf {root} d1 e4")]),
        &["d1 leaves the attacker no completion cell"],
    );
    // and a defender-to-move root where O has a completion cell
    let root = b7(&["c4", "d4", "g7", "g6"], &os);
    refused(
        &cert('X', &root, &[format!("cover {root} e4")]),
        &["has a completion cell d1"],
    );
}

#[test]
fn the_defender_having_two_completion_cells_fails_a_run() {
    let (xs, os) = (["c4", "d4", "g7"], ["b1", "c1", "d1"]);
    let root = b7(&xs, &os);
    refused(
        &cert('X', &root, &[format!("vcf {root} a1")]),
        &["before a1 the defender has two completion cells (a1 e1)"],
    );
}

#[test]
fn o_can_be_the_attacker() {
    // O to move (X has one stone more)
    let root = b7(&["a1", "g7", "a7"], &["c4", "d4"]);
    assert_eq!(accepted(&cert('O', &root, &[format!("vcf {root} e4")])), 1);
    assert_eq!(
        accepted(&cert('O', &root, &[format!("move {root} e4")])),
        45
    );
    // the same board claimed for X: X is the defender and moves; the vcf
    // entry (the attacker to move at the root, as after a pass) is read but
    // no zone entry lets the checker use it
    refused(
        &cert('X', &root, &[format!("vcf {root} e4")]),
        &[
            &format!("the defender's reply b1 at {root}"),
            "no move, vcf or vct entry",
        ],
    );
}

#[test]
fn a_root_with_a_completion_cell_needs_no_entry() {
    let root = b7(&["c4", "d4", "e4"], &["a1", "g7", "a7"]);
    assert_eq!(accepted(&cert('X', &root, &[])), 1);
}

#[test]
fn a_root_without_entry_is_refused() {
    let root = b7(&OPEN_TWO_X, &OPEN_TWO_O);
    refused(
        &cert('X', &root, &[]),
        &["no move, vcf or vct entry for", &root],
    );
}

#[test]
fn comments_may_follow_the_first_line() {
    let root = b7(&OPEN_TWO_X, &OPEN_TWO_O);
    let text = format!(
        "{HEADER}\n# a comment\nmnk 7 7 4\n#\nclaim X wins\n# another\nroot {root}\n# x\nvcf {root} e4\n# end\n"
    );
    assert_eq!(accepted(&text), 1);
}

#[test]
fn other_board_sizes() {
    // 6 × 6, k = 4; 15 × 15, k = 5 with an open three in the middle
    let root = diagram(6, 6, &["b3", "c3"], &["a6", "f6"]);
    let text = cert_mnk("6 6 4", 'X', &root, &[format!("move {root} d3")]);
    assert_eq!(accepted(&text), 2 + 31);
    let root = diagram(15, 15, &["g8", "h8", "i8"], &["a1", "o15", "a15"]);
    let text = cert_mnk("15 15 5", 'X', &root, &[format!("vcf {root} j8")]);
    assert_eq!(accepted(&text), 1);
    let text = cert_mnk("15 15 5", 'X', &root, &[format!("move {root} j8")]);
    assert_eq!(accepted(&text), 2 + 225 - 7);
}

#[test]
fn a_wrong_header_is_refused() {
    let root = b7(&OPEN_TWO_X, &OPEN_TWO_O);
    let good = cert('X', &root, &[format!("vcf {root} e4")]);
    accepted(&good);
    for bad_first in [
        "# retrograde threat proof certificate 4",
        "# retrograde threat proof certificate 0",
        "# retrograde threat proof certificate 02",
        "# retrograde proof certificate 2",
        "#retrograde threat proof certificate 2",
        "# retrograde threat proof certificate 2 ",
        "# retrograde threat proof certificate 1 ",
        "# retrograde threat proof certificate 3 ",
    ] {
        let text = good.replacen(HEADER, bad_first, 1);
        refused(&text, &["line 1"]);
    }
    refused(&good[HEADER.len() + 1..], &["line 1"]);
    refused("", &["line 1"]);
}

#[test]
fn malformed_lines_are_refused() {
    let root = b7(&OPEN_TWO_X, &OPEN_TWO_O);
    let good = cert('X', &root, &[format!("vcf {root} e4")]);
    let cases: Vec<(String, &str)> = vec![
        (good.replace("mnk 7 7 4", "mnk 7 7"), "line 2"),
        (good.replace("mnk 7 7 4", "mnk 7 7 04"), "line 2"),
        (good.replace("mnk 7 7 4", "mnk 7 7 +4"), "line 2"),
        (good.replace("mnk 7 7 4", "nmk 7 7 4"), "line 2"),
        (good.replace("mnk 7 7 4", "mnk 27 7 4"), "unsupported"),
        (good.replace("mnk 7 7 4", "mnk 7 7 0"), "unsupported"),
        (good.replace("mnk 7 7 4", "mnk 7 7 257"), "unsupported"),
        (
            good.replace("mnk 7 7 4", "mnk 7 99999999999999999999 4"),
            "line 2",
        ),
        (
            good.replace("mnk 7 7 4", "mnk 7 9999999999999 4"),
            "unsupported",
        ),
        (good.replace("claim X wins", "claim X draws"), "line 3"),
        (good.replace("claim X wins", "claim x wins"), "line 3"),
        (good.replace("root ", "root  "), "malformed"),
        (good.replace("root ", "board "), "line 4"),
        (good.replace("vcf ", "vcf  "), "malformed"),
        (good.replace("vcf ", "VCF "), "unknown entry"),
        (format!("{good}claim X wins\n"), "line 6: unknown entry"),
        (format!("{good}root {root}\n"), "line 6: unknown entry"),
        (good.replace(" e4", ""), "malformed entry"),
        (good.replace(" e4", " e4 "), "malformed"),
        (good.replace(" e4", " h4"), "off the board"),
        (good.replace(" e4", " e8"), "off the board"),
        (good.replace(" e4", " e0"), "off the board"),
        (good.replace(" e4", " e04"), "bad cell"),
        (good.replace(" e4", " E4"), "bad cell"),
        (good.replace(" e4", " e"), "bad cell"),
        (good.replace(" e4", " 4e"), "bad cell"),
        (format!("{good}\n"), "malformed"),
        (good.replace('\n', "\r\n"), "line"),
        (
            format!("{HEADER}\nmnk 7 7 4\nclaim X wins\n"),
            "ends before",
        ),
    ];
    for (text, needle) in cases {
        refused(&text, &[needle]);
    }
}

#[test]
fn bad_boards_are_refused() {
    let root = b7(&OPEN_TWO_X, &OPEN_TWO_O);
    let good = cert('X', &root, &[format!("vcf {root} e4")]);
    let row = ".......";
    let cases: Vec<(String, &str)> = vec![
        // a row too short, one too many, a stray character
        (
            good.replacen(&format!("{row}/"), "....../", 1),
            "not 7 rows of 7",
        ),
        (
            good.replacen(row, &format!("{row}/{row}"), 1),
            "not 7 rows of 7",
        ),
        (good.replacen(".", "x", 1), "holds 'x'"),
        // stone counts no game reaches
        (
            cert('X', &b7(&["c4", "d4", "e4"], &["a1"]), &[]),
            "3 X and 1 O",
        ),
        (cert('X', &b7(&["c4"], &["a1", "g7"]), &[]), "1 X and 2 O"),
        // a completed line
        (
            cert(
                'X',
                &b7(&["c4", "d4", "e4", "f4"], &["a1", "g7", "a7", "g1"]),
                &[],
            ),
            "completed line of X",
        ),
        (
            cert(
                'X',
                &b7(&["e4", "f4", "g7", "a7"], &["a1", "b2", "c3", "d4"]),
                &[],
            ),
            "completed line of O",
        ),
        (
            cert(
                'X',
                &root,
                &[
                    format!("vcf {root} e4"),
                    format!(
                        "cover {} e4",
                        b7(&["b2", "c3", "d4", "e5", "g7"], &["a1", "a7", "g1", "c4"])
                    ),
                ],
            ),
            "completed line of X",
        ),
        (
            cert(
                'X',
                &root,
                &[
                    format!("vcf {root} e4"),
                    format!(
                        "move {} a3",
                        b7(
                            &["b2", "b3", "b4", "e5", "g7"],
                            &["d1", "d2", "d3", "d4", "a1"]
                        )
                    ),
                ],
            ),
            "completed line of O",
        ),
    ];
    for (text, needle) in cases {
        refused(&text, &[needle]);
    }
}

#[test]
fn entries_may_be_of_either_side_but_not_repeat() {
    let root = b7(&OPEN_TWO_X, &OPEN_TWO_O);
    let after = plus(&OPEN_TWO_X, &OPEN_TWO_O, 'X', "e4");
    let base = [format!("move {root} e4")];
    let with = |extra: &str| {
        let mut entries = base.to_vec();
        entries.push(extra.to_string());
        cert('X', &root, &entries)
    };
    accepted(&with(&format!("cover {after} a2")));
    accepted(&with(&format!("zone {after} a2")));
    // an entry's kind, not its stones, says who is to move at its board:
    // these are read (and not needed)
    accepted(&with(&format!("cover {root} a2")));
    accepted(&with(&format!("zone {root} a2")));
    accepted(&with(&format!("move {after} a2")));
    accepted(&with(&format!("vcf {after} a2")));
    // a board may have attacker entries and defender entries both
    accepted(&cert(
        'X',
        &root,
        &[
            format!("move {root} e4"),
            format!("cover {root} a2"),
            format!("zone {root}"),
        ],
    ));
    refused(&with(&format!("move {after} e4")), &["line 6", "occupied"]);
    refused(
        &with(&format!("move {root} e4")),
        &["line 6", "second entry (move after move)"],
    );
    refused(
        &with(&format!("vcf {root} e4")),
        &["line 6", "second entry (vcf after move)"],
    );
    refused(
        &with(&format!("move {root} e4 f4")),
        &["line 6", "names one cell"],
    );
    let vcfs = cert(
        'X',
        &root,
        &[format!("vcf {root} e4"), format!("vcf {root} e4")],
    );
    refused(&vcfs, &["line 6", "second entry (vcf after vcf)"]);
}

/// `xs` with `more`.
fn and<'a>(xs: &[&'a str], more: &[&'a str]) -> Vec<&'a str> {
    [xs, more].concat()
}

// O to move. X has an open two in row 4 (c4 d4: after a pass, e4 makes an
// open three, with completion cells b4 and f4) and one in row 7 (b7 c7:
// d7 makes completion cells a7 and e7); O's stones are apart (no two in a
// line of 4).
const ZONE_X: [&str; 4] = ["c4", "d4", "b7", "c7"];
const ZONE_O: [&str; 3] = ["a1", "g3", "a6"];

/// The root (O to move) with a zone: every O move outside `zone` is
/// answered by `pass` (the attacker's entry at the root, as if O had
/// passed), and each cell of `answered` by the vcf d7 after O's stone on it.
fn zone_certificate(zone: &str, pass: &str, answered: &[&'static str]) -> String {
    let root = b7(&ZONE_X, &ZONE_O);
    let mut entries = vec![format!("zone {root} {zone}"), pass.to_string()];
    for &cell in answered {
        entries.push(format!("vcf {} d7", plus(&ZONE_X, &ZONE_O, 'O', cell)));
    }
    cert('X', &root, &entries)
}

#[test]
fn a_zone_answers_the_moves_outside_it_by_the_proof_after_a_pass() {
    let root = b7(&ZONE_X, &ZONE_O);
    // after a pass X wins by the vcf e4 (an entry at a board whose stones
    // say O is to move) unless O's stone is on b4, e4 or f4: those have
    // entries of their own
    let vcf = format!("vcf {root} e4");
    let text = zone_certificate("b4 e4 f4", &vcf, &["b4", "e4", "f4"]);
    // the root; the 3 replies in the zone by their vcf; the 39 other
    // replies, each the root with an extra O stone, by the vcf e4
    assert_eq!(accepted(&text), 1 + 3 + 39);
    // entries are tried whatever the zone: a cell taken out of the zone
    // keeps its own entry, which still answers it
    accepted(&zone_certificate("b4 e4", &vcf, &["b4", "e4", "f4"]));
    // a cell taken out of the zone (with its entry, as a prover that thought
    // it outside would write it) where O's stone really refutes the pass
    // proof: after O f4, e4 makes one completion cell (b4), O blocks it
    let after = plus(&ZONE_X, &ZONE_O, 'O', "f4");
    refused(
        &zone_certificate("b4 e4", &vcf, &["b4", "e4"]),
        &[
            &format!("the defender's reply f4 at {root} has no move, vcf or vct entry after it"),
            &format!("outside the zone: the vcf run e4 at {after} (lookup board {root}) fails"),
            "runs out",
        ],
    );
    // a cell in the zone without an answer of its own
    refused(
        &zone_certificate("b4 e4 f4", &vcf, &["b4", "e4"]),
        &[
            &format!("the defender's reply f4 at {root} has no move, vcf or vct entry after it"),
            "and the zone lists it",
        ],
    );
    // the pass proof itself absent: the moves outside the zone need it
    refused(
        &zone_certificate("b4 e4 f4", "# no pass proof", &["b4", "e4", "f4"]),
        &[
            &format!("the defender's reply b1 at {root}"),
            &format!("outside the zone: no move, vcf or vct entry for {root}"),
        ],
    );
    // a zone at a board where the attacker is to move is never used: a
    // root without its entry is refused as ever
    let root = b7(&OPEN_TWO_X, &OPEN_TWO_O);
    refused(
        &cert('X', &root, &[format!("zone {root} e4")]),
        &["no move, vcf or vct entry for", &root],
    );
}

#[test]
fn a_move_after_a_pass_is_checked_with_every_extra_stone() {
    let root = b7(&ZONE_X, &ZONE_O);
    // after a pass X plays e4 (the open three c4 d4 e4), at a board whose
    // stones say O is to move; the position after it, with X two stones
    // ahead, is looked up with O to move
    let pass = format!("move {root} e4");
    let text = zone_certificate("b4 e4 f4", &pass, &["b4", "e4", "f4"]);
    // the root; 3 replies by their vcf; for each of the other 39, the move
    // e4 after it, the position after that, and its 40 replies (each
    // leaving b4 or f4)
    assert_eq!(accepted(&text), 1 + 3 + 39 * (1 + 1 + 40));
    // f4 out of the zone: after O f4 and X e4 only b4 is left, and O's
    // block there has no answer. The lookup board after e4 is the same for
    // every O move outside the zone; its verdict holds for those before f4
    // (b1 …) but not with the extra stone f4.
    let looked_up = plus(&ZONE_X, &ZONE_O, 'X', "e4");
    let actual = b7(&and(&ZONE_X, &["e4"]), &and(&ZONE_O, &["f4"]));
    refused(
        &zone_certificate("b4 e4", &pass, &["b4", "e4"]),
        &[&format!(
            "the defender's reply b4 at {actual} (lookup board {looked_up}) has no move, vcf or vct entry after it"
        )],
    );
}

#[test]
fn a_zone_may_list_no_cells() {
    // O to move; after a pass the vcf e4 makes three completion cells (b4
    // and f4 in row 4, e5 below e2 e3, whose top e1 is O's): one O stone
    // stops at most one of them, unless it is on e4
    let xs = ["c4", "d4", "e2", "e3", "b7", "c7"];
    let os = ["e1", "a1", "g3", "a6", "g7"];
    let root = b7(&xs, &os);
    let after_e4 = b7(&xs, &and(&os, &["e4"]));
    let zone = format!("zone {root}");
    let vcf = format!("vcf {root} e4");
    let e4 = format!("vcf {after_e4} d7");
    // the root; e4 by its entry (tried whatever the zone); 37 others by the pass
    assert_eq!(
        accepted(&cert('X', &root, &[zone.clone(), vcf.clone(), e4])),
        1 + 1 + 37
    );
    refused(
        &cert('X', &root, &[zone, vcf]),
        &[
            &format!("the defender's reply e4 at {root} has no move, vcf or vct entry after it"),
            "outside the zone: the vcf run e4 at",
            "e4 is not empty",
        ],
    );
}

// Zones below zones. O to move at the root. X: c4 d4 (e4 makes b4 and
// f4), e2 (with e3 and e4, e5 too; e1 is O's), b7 c7 (d7 makes a7 and e7).
// No two of O's stones are in one line of 4, so two more O stones make no
// completion cell of O's.
const NEST_X: [&str; 5] = ["c4", "d4", "e2", "b7", "c7"];
const NEST_O: [&str; 4] = ["a1", "e1", "a6", "g7"];

/// The root is covered by e4 but for O's b4, e4 and f4; b4 and e4 have
/// entries (the vcf d7), f4 is outside the root's zone: after it, X plays
/// as if O had passed: the root's entry, the quiet move e3 (X is then two
/// stones ahead on the lookup board). There O is to move with a zone
/// `inner`: outside it X wins by the vcf e4 (three completion cells b4,
/// f4 and e5 on the lookup board, but two with the extra O stone f4); each
/// cell of `answered` has the vcf d7.
fn nested_certificate(inner: &str, answered: &[&'static str]) -> String {
    let root = b7(&NEST_X, &NEST_O);
    let after_e3 = b7(&and(&NEST_X, &["e3"]), &NEST_O);
    let mut entries = vec![
        format!("cover {root} e4"),
        format!("zone {root} b4 e4"),
        format!("vcf {} d7", plus(&NEST_X, &NEST_O, 'O', "b4")),
        format!("vcf {} d7", plus(&NEST_X, &NEST_O, 'O', "e4")),
        format!("move {root} e3"),
        format!("zone {after_e3} {inner}"),
        format!("vcf {after_e3} e4"),
    ];
    for &cell in answered {
        let board = b7(&and(&NEST_X, &["e3"]), &and(&NEST_O, &[cell]));
        entries.push(format!("vcf {board} d7"));
    }
    cert('X', &root, &entries)
}

#[test]
fn extra_stones_accumulate_through_nested_zones() {
    // the inner zone lists e4, b4 and e5, each answered by the vcf d7
    let text = nested_certificate("e4 b4 e5", &["e4", "b4", "e5"]);
    // the root; its 40 replies: b4 and e4 by their entries, 37 by the cover
    // run, f4 through the pass: the move e3, the position after it (O to
    // move, the extra stone f4), its 38 replies: 3 by entries, 35 through
    // the inner pass (each with the extra stones f4 and the reply)
    assert_eq!(accepted(&text), 1 + 2 + 37 + 1 + 1 + 3 + 35);
    // an inner zone of e4 alone is right on the lookup board (one O stone
    // leaves two of b4, f4, e5), but not with the outer extra stone f4:
    // O's b4 then leaves X only e5
    let after_e3 = b7(&and(&NEST_X, &["e3"]), &NEST_O);
    let actual = b7(&and(&NEST_X, &["e3"]), &and(&NEST_O, &["f4"]));
    let with_b4 = b7(&and(&NEST_X, &["e3"]), &and(&NEST_O, &["f4", "b4"]));
    refused(
        &nested_certificate("e4", &["e4"]),
        &[
            &format!("the defender's reply b4 at {actual} (lookup board {after_e3})"),
            &format!(
                "outside the zone: the vcf run e4 at {with_b4} (lookup board {after_e3}) fails"
            ),
            "runs out",
        ],
    );
    // the inner zone right but an answer inside it missing
    refused(
        &nested_certificate("e4 b4 e5", &["e4", "b4"]),
        &[
            &format!("the defender's reply e5 at {actual} (lookup board {after_e3}) has no move, vcf or vct entry after it"),
            "and the zone lists it",
        ],
    );
    // a cover run of the inner lookup board, replayed with the extra
    // stones, answers b4 and e5 as well
    let mut text = nested_certificate("e4", &["e4"]);
    text.push_str(&format!("cover {after_e3} d7\n"));
    accepted(&text);
}

#[test]
fn version_1_is_read_without_zone_entries() {
    let v1 = |text: String| text.replacen(HEADER, HEADER_V1, 1);
    assert_eq!(
        accepted(&v1(covered_certificate(None))),
        1 + 2 + (1 + 1 + 40) + 39
    );
    let root = b7(&OPEN_TWO_X, &OPEN_TWO_O);
    let text = v1(cert(
        'X',
        &root,
        &[format!("move {root} e4"), format!("zone {root} e4")],
    ));
    refused(&text, &["line 6", "zone entry in a version 1 certificate"]);
    // the zone certificate, accepted as version 2, is refused as version 1
    let zoned = zone_certificate(
        "b4 e4 f4",
        &format!("vcf {} e4", b7(&ZONE_X, &ZONE_O)),
        &["b4", "e4", "f4"],
    );
    accepted(&zoned);
    refused(&v1(zoned), &["line 5", "version 1"]);
}

#[test]
fn a_second_zone_entry_for_a_board_is_refused() {
    let root = b7(&ZONE_X, &ZONE_O);
    let text = zone_certificate("b4 e4 f4", &format!("vcf {root} e4"), &["b4", "e4", "f4"]);
    accepted(&text);
    let line = 5 + 1 + 1 + 3;
    for second in ["b4 e4 f4", "a2", ""] {
        let mut twice = text.clone();
        twice.push_str(&format!(
            "zone {root}{}{second}\n",
            if second.is_empty() { "" } else { " " }
        ));
        refused(
            &twice,
            &[&format!("line {line}"), "a second zone entry for", &root],
        );
    }
    // malformed zone entries
    for (bad, needle) in [
        ("zone".to_string(), "malformed entry"),
        (format!("zone {root} "), "malformed"),
        (format!("zone {root} h4"), "off the board"),
        (format!("zone {root} b4 b04"), "bad cell"),
    ] {
        let mut bad_text = text.clone();
        bad_text.push_str(&bad);
        bad_text.push('\n');
        refused(&bad_text, &[&format!("line {line}"), needle]);
    }
}

// Threat-space trees (`vct` entries, version 3).

/// A certificate of version 3 of `mnk 7 7 4`.
fn cert_v3(attacker: char, root: &str, entries: &[String]) -> String {
    cert(attacker, root, entries).replacen(HEADER, HEADER_V3, 1)
}

// X to move with c4 and d3 (their diagonal b5 c4 d3 e2 stopped at both
// ends by O). X d4 makes two threes: the row c4 d4 (e4 then makes c4 d4
// e4, completion cells b4 and f4; b4 makes a4 and e4) and the column d3
// d4 (d5 then makes d2 and d6). No single O stone stops both, and no
// line of 4 holds both O stones, so one more O stone gives O no
// completion cell. X has no four to make at the root.
const VCT_X: [&str; 2] = ["c4", "d3"];
const VCT_O: [&str; 2] = ["b5", "e2"];

/// The tree of the double three d4: the cover run e4 answers every O
/// reply but b4, e4 and f4 (after O b4 or f4, e4 leaves one completion
/// cell, which O blocks; after O e4 it is not empty); those three are
/// replies of the tree, each answered by the run d5 (d2 and d6). A reply
/// in `skip` is left out.
fn double_three_tree(skip: &[&str]) -> String {
    let mut tree = "d4 [ ( e4 )".to_string();
    for reply in ["b4", "e4", "f4"] {
        if !skip.contains(&reply) {
            tree.push_str(&format!(" {reply} ( d5 )"));
        }
    }
    tree.push_str(" ]");
    tree
}

fn vct_certificate(tree: &str) -> String {
    let root = b7(&VCT_X, &VCT_O);
    cert_v3('X', &root, &[format!("vct {root} {tree}")])
}

#[test]
fn a_vct_tree_of_a_double_three_is_accepted() {
    // the entry; the defender step after d4; its 44 replies: b4, e4 and
    // f4 by their run, the 41 others by the cover run
    assert_eq!(accepted(&vct_certificate(&double_three_tree(&[]))), 46);
    // nothing simpler holds: the run d4 is no four, and d4 alone leaves O
    // free to reply anywhere
    let root = b7(&VCT_X, &VCT_O);
    refused(
        &cert_v3('X', &root, &[format!("vcf {root} d4")]),
        &["d4 leaves the attacker no completion cell"],
    );
    refused(
        &vct_certificate("d4 [ ]"),
        &[
            "the vct tree at",
            &format!(
                "the defender's reply a1 at {} is no reply of the tree's step there, which has no cover run",
                plus(&VCT_X, &VCT_O, 'X', "d4")
            ),
        ],
    );
    // the two rows' covers alone answer every reply too
    accepted(&vct_certificate("d4 [ ( e4 ) ( d5 ) ]"));
}

#[test]
fn a_vct_tree_may_nest_and_use_every_kind_of_step() {
    // after O b4, X d5 leaves d2 and d6: a defender step with no covers
    // and no replies holds (each O stone leaves one of them); after O e4,
    // the same with replies: d2 by `*` (d6 is left), d6 by the run d2
    // (won at once: X has a completion cell), and c4, X's own stone, which
    // is never played (so its failing run g1 is harmless)
    let tree = "d4 [ ( e4 ) b4 d5 [ ] e4 d5 [ d2 * d6 ( d2 ) c4 ( g1 ) ] f4 ( d5 ) ]";
    accepted(&vct_certificate(tree));
    // a vct entry reached through a move: O's replies after X's d4 are
    // answered by the cover e4 but for b4, e4 and f4, whose boards hold
    // vct entries of their own
    let root = b7(&VCT_X, &VCT_O);
    let after = plus(&VCT_X, &VCT_O, 'X', "d4");
    let mut entries = vec![format!("move {root} d4"), format!("cover {after} e4")];
    for reply in ["b4", "e4", "f4"] {
        let board = b7(&and(&VCT_X, &["d4"]), &and(&VCT_O, &[reply]));
        entries.push(format!("vct {board} d5 [ ]"));
    }
    accepted(&cert_v3('X', &root, &entries));
}

#[test]
fn a_vct_tree_with_a_defence_set_too_small_is_refused() {
    let after = plus(&VCT_X, &VCT_O, 'X', "d4");
    for reply in ["b4", "e4", "f4"] {
        refused(
            &vct_certificate(&double_three_tree(&[reply])),
            &[
                &format!("the vct tree at {} fails", b7(&VCT_X, &VCT_O)),
                &format!(
                    "the defender's reply {reply} at {after} is no reply of the tree's step there, \
                     and none of the step's 1 cover runs wins after it"
                ),
            ],
        );
    }
    // the tree consults no other entry: a vcf entry for the board after O
    // f4, and a cover entry of the board after d4, do not help
    let mut text = vct_certificate(&double_three_tree(&["f4"]));
    let after_f4 = b7(&and(&VCT_X, &["d4"]), &and(&VCT_O, &["f4"]));
    text.push_str(&format!("vcf {after_f4} d5\ncover {after} d5\n"));
    refused(&text, &[&format!("the defender's reply f4 at {after}")]);
}

#[test]
fn a_vct_tree_whose_cover_does_not_answer_a_move_is_refused() {
    let after = plus(&VCT_X, &VCT_O, 'X', "d4");
    // the cover b4 (a4 and e4) fails after O a4, which no reply names
    refused(
        &vct_certificate("d4 [ ( b4 ) b4 ( d5 ) e4 ( d5 ) f4 ( d5 ) ]"),
        &[&format!(
            "the defender's reply a4 at {after} is no reply of the tree's step there"
        )],
    );
    // a cover that is no threat answers nothing
    refused(
        &vct_certificate("d4 [ ( g7 ) b4 ( d5 ) e4 ( d5 ) f4 ( d5 ) ]"),
        &[&format!("the defender's reply a1 at {after}")],
    );
    // a reply's step alone decides its cell: the cover e4 would answer O
    // a4, but the tree's reply a4 is the run g1, which is no threat
    let after_a4 = b7(&and(&VCT_X, &["d4"]), &and(&VCT_O, &["a4"]));
    refused(
        &vct_certificate("d4 [ ( e4 ) a4 ( g1 ) b4 ( d5 ) e4 ( d5 ) f4 ( d5 ) ]"),
        &[
            &format!("the defender's reply a4 at {after}: the run g1 at {after_a4} fails"),
            "g1 leaves the attacker no completion cell",
        ],
    );
    // a reply deeper in the tree: after O e4 and X d5, O's d6 leaves d2,
    // but the reply d6 plays g1 and then has nothing for O's d2
    let after_d6_g1 = b7(
        &and(&VCT_X, &["d4", "d5", "g1"]),
        &and(&VCT_O, &["e4", "d6"]),
    );
    refused(
        &vct_certificate("d4 [ ( e4 ) b4 ( d5 ) e4 d5 [ d6 g1 [ ] ] f4 ( d5 ) ]"),
        &[&format!(
            "the defender's reply d2 at {after_d6_g1} is no reply of the tree's step there"
        )],
    );
    // (the same reply d6 by `*` holds)
    accepted(&vct_certificate(
        "d4 [ ( e4 ) b4 ( d5 ) e4 d5 [ d6 * ] f4 ( d5 ) ]",
    ));
}

#[test]
fn a_vct_tree_fails_on_the_rules_of_its_steps() {
    let root = b7(&VCT_X, &VCT_O);
    let after = plus(&VCT_X, &VCT_O, 'X', "d4");
    for (tree, needles) in [
        // `*` without a completion cell
        (
            "*",
            vec![format!(
                "`*` at {root}, where the attacker has no completion cell"
            )],
        ),
        // a run that is no four
        (
            "( e4 )",
            vec![
                format!("the run e4 at {root} fails"),
                "e4 leaves the attacker no completion cell".into(),
            ],
        ),
        // a move onto a stone, at the root and below a reply
        (
            "c4 [ ]",
            vec![format!("the move c4 at {root} is onto an occupied cell")],
        ),
        (
            "d4 [ ( e4 ) b4 ( d5 ) e4 d3 [ ] f4 ( d5 ) ]",
            vec![
                format!("the defender's reply e4 at {after}: the move d3 at"),
                "onto an occupied cell".into(),
            ],
        ),
        // two replies on one cell
        (
            "d4 [ ( e4 ) b4 ( d5 ) b4 ( d5 ) e4 ( d5 ) f4 ( d5 ) ]",
            vec![format!(
                "the defender step at {after} in the tree has two replies b4"
            )],
        ),
    ] {
        let mut needles: Vec<&str> = needles.iter().map(String::as_str).collect();
        needles.push("the vct tree at");
        refused(&vct_certificate(tree), &needles);
    }
    // the defender with a completion cell (O a1 b1 c1: d1) at a tree's
    // defender step
    let root = b7(&["c4", "d3", "g7"], &["a1", "b1", "c1"]);
    refused(
        &cert_v3(
            'X',
            &root,
            &[format!("vct {root} {}", double_three_tree(&[]))],
        ),
        &[
            "the defender, to move at",
            "in the tree, has a completion cell d1",
        ],
    );
    // a defender step at a full board (3 × 1, lines of 3)
    let text =
        cert_mnk("3 1 3", 'X', "X.O", &["vct X.O b1 [ ]".into()]).replacen(HEADER, HEADER_V3, 1);
    refused(
        &text,
        &["the defender is to move at a full board XXO in the tree"],
    );
}

#[test]
fn a_vct_entry_needs_version_3() {
    let text = vct_certificate(&double_three_tree(&[]));
    accepted(&text);
    for (header, version) in [(HEADER, 2), (HEADER_V1, 1)] {
        refused(
            &text.replacen(HEADER_V3, header, 1),
            &[
                "line 5",
                &format!("a vct entry in a version {version} certificate"),
            ],
        );
    }
    // version 3 reads every other entry as version 2 does
    let v3 = |text: String| text.replacen(HEADER, HEADER_V3, 1);
    assert_eq!(
        accepted(&v3(covered_certificate(None))),
        1 + 2 + (1 + 1 + 40) + 39
    );
    let root = b7(&ZONE_X, &ZONE_O);
    accepted(&v3(zone_certificate(
        "b4 e4 f4",
        &format!("vcf {root} e4"),
        &["b4", "e4", "f4"],
    )));
}

#[test]
fn a_malformed_vct_tree_is_refused() {
    let good = double_three_tree(&[]);
    accepted(&vct_certificate(&good));
    for (tree, needle) in [
        (
            "d4",
            "expected `[` after the attacker's d4, not the end of the tree",
        ),
        ("d4 [", "ends inside a defender step"),
        ("d4 [ ( e4 ) b4 ( d5 )", "ends inside a defender step"),
        (
            "d4 [ ( e4 ) b4 ]",
            "expected an attacker step (`*`, `(` or a cell), not \"]\"",
        ),
        (
            "d4 [ ( e4 ) b4",
            "expected an attacker step (`*`, `(` or a cell), not the end",
        ),
        (
            "d4 ( e4 )",
            "expected `[` after the attacker's d4, not \"(\"",
        ),
        (
            "[ ]",
            "expected an attacker step (`*`, `(` or a cell), not \"[\" (word 1",
        ),
        (")", "expected an attacker step"),
        (
            "d4 [ ] ]",
            "\"]\" (word 4 of the tree) follows the whole tree",
        ),
        ("* *", "follows the whole tree"),
        ("( d4 ) d5", "follows the whole tree"),
        ("d4 [ ( ) ]", "an empty run at word 3"),
        ("( )", "an empty run at word 1"),
        ("( d4", "the `(` of word 1 has no `)`"),
        ("d4 [ ( e4 ]", "expected a cell, not \"]\""),
        ("d4 [ ( e4 [ ) ]", "expected a cell, not \"[\""),
        ("d4 [ ( e4 * ) ]", "expected a cell, not \"*\""),
        (
            "d4 [ * ]",
            "expected a cover `(`, a reply's cell or `]`, not \"*\"",
        ),
        (
            "d4 [ [ ] ]",
            "expected a cover `(`, a reply's cell or `]`, not \"[\"",
        ),
        (
            "d4 [ ) ]",
            "expected a cover `(`, a reply's cell or `]`, not \")\"",
        ),
        ("d4 [ b4 ( d5 ) ( e4 ) ]", "a cover after a reply"),
        ("d4 [ (e4) ]", "bad cell \"(e4)\""),
        ("d4 { }", "expected `[` after the attacker's d4, not \"{\""),
        ("d4 [ { ]", "bad cell \"{\" (word 3 of the tree)"),
        (
            "d4 [ ( e4 ) b4 ( d5 ) e4 ( d5 ) f4 ( h5 ) ]",
            "cell \"h5\" is off the board (word 16 of the tree)",
        ),
        ("d8 [ ]", "off the board"),
        ("D4 [ ]", "bad cell"),
    ] {
        refused(
            &vct_certificate(tree),
            &["line 5: a bad vct tree: ", needle],
        );
    }
    // no tree at all, and stray spaces
    let text = vct_certificate(&good);
    refused(
        &text.replace(&format!(" {good}"), ""),
        &["line 5", "malformed entry"],
    );
    refused(&text.replace("d4 [", "d4  ["), &["line 5", "malformed"]);
    refused(&text.replace(" ]\n", " ] \n"), &["line 5", "malformed"]);
}

#[test]
fn a_vct_entry_is_a_boards_one_attacker_entry() {
    let root = b7(&VCT_X, &VCT_O);
    let vct = format!("vct {root} {}", double_three_tree(&[]));
    for (other, message) in [
        (format!("move {root} d4"), "a second entry (vct after move)"),
        (format!("vcf {root} d4"), "a second entry (vct after vcf)"),
        (vct.clone(), "a second entry (vct after vct)"),
    ] {
        refused(
            &cert_v3('X', &root, &[other.clone(), vct.clone()]),
            &["line 6", message],
        );
    }
    refused(
        &cert_v3('X', &root, &[vct.clone(), format!("move {root} d4")]),
        &["line 6", "a second entry (move after vct)"],
    );
    refused(
        &cert_v3('X', &root, &[vct.clone(), format!("vcf {root} d4")]),
        &["line 6", "a second entry (vcf after vct)"],
    );
    // defender entries may share its board
    accepted(&cert_v3(
        'X',
        &root,
        &[vct, format!("cover {root} a1"), format!("zone {root}")],
    ));
}

#[test]
fn a_vct_tree_is_replayed_with_a_zones_extra_stones() {
    // the zone certificate with the pass proof the tree e4 [ ] (the open
    // three c4 d4 e4 of row 4: every O stone leaves b4 or f4)
    let root = b7(&ZONE_X, &ZONE_O);
    let vct = format!("vct {root} e4 [ ]");
    let v3 = |text: String| text.replacen(HEADER, HEADER_V3, 1);
    accepted(&v3(zone_certificate("b4 e4 f4", &vct, &["b4", "e4", "f4"])));
    // f4 out of the zone: the tree is replayed on the root with the extra
    // stone f4, where e4 leaves only b4, and O's b4 is answered by nothing
    let actual = plus(&ZONE_X, &ZONE_O, 'O', "f4");
    let after_e4 = b7(&and(&ZONE_X, &["e4"]), &and(&ZONE_O, &["f4"]));
    refused(
        &v3(zone_certificate("b4 e4", &vct, &["b4", "e4"])),
        &[
            &format!("the vct tree at {actual} (lookup board {root}) fails"),
            &format!("the defender's reply b4 at {after_e4} is no reply of the tree's step there"),
        ],
    );
}

#[test]
fn a_vct_tree_on_a_15_by_15_board() {
    // k = 5: X g8 h8 (row 8) and i6 i7 (column i); X i8 makes the open
    // threes g8 h8 i8 and i6 i7 i8. The cover j8 (the four g8 … j8, with
    // f8 and k8) answers every reply but f8, j8 and k8; the cover i9 (i5
    // and i10) every reply but i5, i9 and i10.
    let root = diagram(
        15,
        15,
        &["g8", "h8", "i6", "i7"],
        &["a1", "o1", "a15", "o15"],
    );
    let text = cert_mnk(
        "15 15 5",
        'X',
        &root,
        &[format!("vct {root} i8 [ ( j8 ) ( i9 ) ]")],
    )
    .replacen(HEADER, HEADER_V3, 1);
    // the entry, the defender step, its 216 replies
    assert_eq!(accepted(&text), 1 + 1 + 216);
    // the row's cover alone misses f8 (and j8 and k8)
    let after = diagram(
        15,
        15,
        &["g8", "h8", "i6", "i7", "i8"],
        &["a1", "o1", "a15", "o15"],
    );
    refused(
        &text.replace(" ( i9 )", ""),
        &[&format!("the defender's reply f8 at {after} is no reply")],
    );
    // answered by replies instead: the column's four after each of them
    accepted(&text.replace(" ( i9 )", " f8 ( i9 ) j8 ( i9 ) k8 ( i9 )"));
}

#[test]
fn a_deep_vct_tree_is_read_without_recursion() {
    // a chain of 200,000 steps under the reply c4, X's own stone: read
    // (and dropped) whole, never played
    let n = 200_000;
    let chain = format!("a1 [ {}{}", "a2 a1 [ ".repeat(n - 1), "] ".repeat(n));
    let tree = double_three_tree(&[]).replace(" ]", &format!(" c4 {}]", chain));
    assert_eq!(accepted(&vct_certificate(&tree)), 46);
    // the same chain unbalanced
    let text = vct_certificate(&tree.replacen("] ", "", 1));
    refused(
        &text,
        &["line 5: a bad vct tree: ", "ends inside a defender step"],
    );
}
