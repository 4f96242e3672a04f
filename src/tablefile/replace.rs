//! Which existing file an output may be written over: the one rule of every
//! writer of this program (`--out` of the solving commands and of
//! `search --make-book`, `--proof` of `prove` and `search`, `plot --out`,
//! Python's `Table.save`). A file already at the output path is replaced
//! without `--force` only when it is a file of this program **of the kind
//! the run writes and of the same game or board** ([`Ours`]): a table of
//! the same game and parameters (any engine), a book of the same board, a
//! certificate of the kind the run writes and of the same board, a plot.
//! So a rerun overwrites its own output, and a mistyped path never costs
//! a file of something else — not a user's notes, and not a solved table
//! that a book, or another board's table, would take the place of. The
//! refusal is one line naming what is there, what the run writes, and
//! the force option ([`check_replaceable`]).
//!
//! A file is recognised by its head ([`identify`]): a table's or book's
//! header and parameters (the first bytes, [`MAGIC`], then the game's
//! kind, the index encoding and the `PARM` section), a parted table's
//! manifest, a certificate's first line and its `mnk COLS ROWS K` line, a
//! plot's marker line. It is a look at the head, not a validation: a
//! damaged table of the same game is still ours to replace; one whose
//! head does not say its game is replaced only with the force option.

use std::io::Read;
use std::path::Path;

use serde_json::Value;

use super::book::BOOK_ENCODING;
use super::parted::MANIFEST_MAGIC;
use super::{SavedGame, FORMAT_VERSION, MAGIC};
use crate::error::{os_text, Error, Remedy, Result, Setting};

/// The first line of every SVG `plot` writes: what it may replace.
pub const PLOT_MARKER: &str = "<!-- retrograde plot -->";

/// The largest `PARM` section (or parted manifest) read to tell a table's
/// game: parameters beyond it are another game's as far as the check goes
/// (a cat-mouse graph of that size is beyond any solve).
const MAX_PARAMETERS: u64 = 16 << 20;

/// Bytes of a certificate's head read for its first lines.
const CERTIFICATE_HEAD: u64 = 64 << 10;

/// A certificate's kind: its first line, up to the version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CertificateKind {
    /// `# retrograde pairing certificate N`.
    Pairing,
    /// `# retrograde proof certificate N` (the search's and the win
    /// prover's proof trees).
    ProofTree,
    /// `# retrograde zone proof certificate N`.
    Zones,
    /// `# retrograde threat proof certificate N`.
    Threats,
}

impl CertificateKind {
    const ALL: [CertificateKind; 4] = [
        CertificateKind::Pairing,
        CertificateKind::ProofTree,
        CertificateKind::Zones,
        CertificateKind::Threats,
    ];

    /// The first line's words before the version number.
    fn first_words(self) -> &'static str {
        match self {
            CertificateKind::Pairing => "# retrograde pairing certificate ",
            CertificateKind::ProofTree => "# retrograde proof certificate ",
            CertificateKind::Zones => "# retrograde zone proof certificate ",
            CertificateKind::Threats => "# retrograde threat proof certificate ",
        }
    }

    /// Its name in a sentence: "a zone proof certificate".
    fn name(self) -> &'static str {
        match self {
            CertificateKind::Pairing => "a pairing certificate",
            CertificateKind::ProofTree => "a proof-tree certificate",
            CertificateKind::Zones => "a zone proof certificate",
            CertificateKind::Threats => "a threat proof certificate",
        }
    }
}

/// A file of this program: its kind and the game or board it is of — what
/// a run writes, and what it finds at its output path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ours {
    /// A solved table of the game (one file of any engine, or a parted
    /// table's manifest).
    Table(SavedGame),
    /// A search book of the board (`search --make-book`).
    Book(SavedGame),
    /// A certificate of this kind, of the m,n,k board (columns, rows, k).
    Certificate(CertificateKind, (u32, u32, u32)),
    /// An SVG that `plot` wrote.
    Plot,
}

impl Ours {
    /// The file in a sentence: "a table of connect 4×4, k = 4".
    pub fn describe(&self) -> String {
        match self {
            Ours::Table(game) => format!("a table of {}", game_name(game)),
            Ours::Book(game) => format!("a search book of {}", game_name(game)),
            Ours::Certificate(kind, (cols, rows, k)) => {
                format!("{} of m,n,k {cols}×{rows}, k = {k}", kind.name())
            }
            Ours::Plot => "a plot".into(),
        }
    }

    /// The kind alone, for a file that is none of ours: "a table".
    fn kind_name(&self) -> &'static str {
        match self {
            Ours::Table(_) => "a table",
            Ours::Book(_) => "a search book",
            Ours::Certificate(..) => "a certificate",
            Ours::Plot => "a plot",
        }
    }
}

/// A game in a sentence: "connect 4×4, k = 4", "nim of heaps up to 20,
/// takes up to 3".
fn game_name(game: &SavedGame) -> String {
    match game {
        SavedGame::Mnk { rows, cols, k } => format!("m,n,k {cols}×{rows}, k = {k}"),
        SavedGame::Gravity { cols, rows, k } => format!("connect {cols}×{rows}, k = {k}"),
        SavedGame::Nim { stones, max_take } => {
            format!("nim of heaps up to {stones}, takes up to {max_take}")
        }
        SavedGame::CanIWin { max, total } => {
            format!("can-i-win of the numbers 1 to {max}, total {total}")
        }
        SavedGame::Ends { numbers } => {
            let shown: Vec<String> = numbers.iter().take(8).map(u64::to_string).collect();
            let more = if numbers.len() > 8 { ",…" } else { "" };
            format!("ends of the row {}{more}", shown.join(","))
        }
        SavedGame::Graph(graph) => format!("cat-mouse on a graph of {} nodes", graph.len()),
        SavedGame::Grid {
            rows,
            cat_jump,
            mouse_jump,
        } => format!(
            "cat-mouse-grid on a {}×{} grid, jumps {cat_jump} and {mouse_jump}",
            rows.first().map_or(0, |r| r.chars().count()),
            rows.len()
        ),
    }
}

/// What is at an output path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// Nothing.
    Nothing,
    /// A file of this program, its kind and game read from its head.
    Ours(Ours),
    /// A file of this program whose head does not say its game or board:
    /// its kind ("a table"), and why.
    OursUnread(&'static str, String),
    /// Something else (or a file that cannot be read: why).
    Other(Option<String>),
}

/// Reads the head of the file at `path` (not following a symlink: the
/// output checks refuse one first) and says what it is.
///
/// ```
/// use retrograde::disk::{identify, CertificateKind, Found, Ours};
/// let dir = std::env::temp_dir().join(format!("rg-identify-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let proof = dir.join("p.proof");
/// std::fs::write(&proof, "# retrograde zone proof certificate 2\nmnk 4 1 2\n").unwrap();
/// assert_eq!(identify(&proof), Found::Ours(Ours::Certificate(CertificateKind::Zones, (4, 1, 2))));
/// std::fs::write(&proof, "notes\n").unwrap();
/// assert_eq!(identify(&proof), Found::Other(None));
/// assert_eq!(identify(&dir.join("none")), Found::Nothing);
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn identify(path: &Path) -> Found {
    if std::fs::symlink_metadata(path).is_err() {
        return Found::Nothing;
    }
    let mut file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) => return Found::Other(Some(os_text(&e))),
    };
    let mut head = Vec::new();
    if let Err(e) = file.by_ref().take(44).read_to_end(&mut head) {
        return Found::Other(Some(os_text(&e)));
    }
    let rest = |file: &mut std::fs::File, head: &mut Vec<u8>, up_to: u64| {
        let more = up_to.saturating_sub(head.len() as u64);
        file.by_ref().take(more).read_to_end(head).map(drop)
    };
    if head.starts_with(MAGIC) {
        return table_or_book(file, &head);
    }
    if head.starts_with(MANIFEST_MAGIC) {
        if let Err(e) = rest(&mut file, &mut head, MAX_PARAMETERS) {
            return Found::OursUnread("a table", os_text(&e));
        }
        return manifest(&head[MANIFEST_MAGIC.len()..]);
    }
    if head.starts_with(PLOT_MARKER.as_bytes()) {
        return Found::Ours(Ours::Plot);
    }
    if head.starts_with(b"# retrograde ") {
        if let Err(e) = rest(&mut file, &mut head, CERTIFICATE_HEAD) {
            return Found::OursUnread("a certificate", os_text(&e));
        }
        if let Some(found) = certificate(&head) {
            return found;
        }
    }
    Found::Other(None)
}

/// A single-file table or a book, from its header (`head`, its first 44
/// bytes: magic, version, kind, encoding, reserved, states, the `PARM`
/// tag and length) and its parameters read on from `file`.
fn table_or_book(file: std::fs::File, head: &[u8]) -> Found {
    let unread = |why: String| Found::OursUnread("a table", why);
    if head.len() < 44 {
        return unread("the header is cut short".into());
    }
    let word = |at: usize| u32::from_le_bytes(head[at..at + 4].try_into().expect("4 bytes"));
    let version = word(8);
    if version != FORMAT_VERSION {
        return unread(format!(
            "format version {version}, which this build does not read"
        ));
    }
    let (kind, encoding) = (word(12), word(16));
    let what = if encoding == BOOK_ENCODING {
        "a search book"
    } else {
        "a table"
    };
    if &head[32..36] != b"PARM" {
        return Found::OursUnread(what, "its parameters are missing".into());
    }
    let len = u64::from_le_bytes(head[36..44].try_into().expect("8 bytes"));
    if len > MAX_PARAMETERS {
        return Found::OursUnread(what, format!("its parameters are {len} bytes"));
    }
    let mut parameters = Vec::new();
    match file.take(len).read_to_end(&mut parameters) {
        Ok(n) if n as u64 == len => {}
        Ok(_) => return Found::OursUnread(what, "its parameters are cut short".into()),
        Err(e) => return Found::OursUnread(what, os_text(&e)),
    }
    let game = serde_json::from_slice::<Value>(&parameters)
        .map_err(|e| e.to_string())
        .and_then(|p| SavedGame::from_parameters(kind, &p));
    match game {
        Ok(game) if encoding == BOOK_ENCODING => Found::Ours(Ours::Book(game)),
        Ok(game) => Found::Ours(Ours::Table(game)),
        Err(why) => Found::OursUnread(what, format!("its parameters are unreadable ({why})")),
    }
}

/// A parted table's manifest (the JSON after its first line).
fn manifest(json: &[u8]) -> Found {
    let parsed: Option<SavedGame> = serde_json::from_slice::<Value>(json).ok().and_then(|m| {
        let number = |key: &str| m[key].as_u64().and_then(|v| u32::try_from(v).ok());
        (m["game"] == "connect").then_some(())?;
        Some(SavedGame::Gravity {
            cols: number("cols")?,
            rows: number("rows")?,
            k: number("k")?,
        })
    });
    match parsed {
        Some(game) => Found::Ours(Ours::Table(game)),
        None => Found::OursUnread("a table", "its manifest does not say its game".into()),
    }
}

/// A certificate from its head, if its first line is one of ours.
fn certificate(head: &[u8]) -> Option<Found> {
    let text = String::from_utf8_lossy(head);
    let mut lines = text.lines();
    let first = lines.next()?;
    let kind = CertificateKind::ALL.into_iter().find(|k| {
        first
            .strip_prefix(k.first_words())
            .is_some_and(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
    })?;
    let board = lines
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .and_then(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            match words[..] {
                ["mnk", c, r, k] => Some((c.parse().ok()?, r.parse().ok()?, k.parse().ok()?)),
                _ => None,
            }
        });
    Some(match board {
        Some(board) => Found::Ours(Ours::Certificate(kind, board)),
        None => Found::OursUnread(kind.name(), "its board line is missing".into()),
    })
}

/// Checks, before any work, that a run writing one of `writes` (several:
/// the kinds the run may end with, as the prover cascade's certificates)
/// may write to `path`: [`crate::files::check_output`] (a regular file or
/// nothing, in a directory that takes a new file), and a file already
/// there is one of `writes` — the same kind, of the same game or board
/// ([`identify`]) — unless `force` (its value, and the setting that gives
/// it, the refusal's remedy). The refusal is one sentence naming what is
/// there and what the run writes. A path that passes is claimed
/// (`crate::atomic_file::claim`): the write at the end of the run
/// replaces only the file checked now, or takes the path only if it is
/// still empty.
pub fn check_replaceable(
    path: &Path,
    (force, switch): (bool, Setting),
    writes: &[Ours],
) -> Result<()> {
    crate::files::check_output(path)?;
    let found = if force {
        Found::Nothing
    } else {
        identify(path)
    };
    let writing = writes
        .first()
        .map_or_else(|| "a file".to_string(), |w| describe_all(writes, w));
    let why = match found {
        Found::Nothing => None,
        Found::Ours(there) if writes.contains(&there) => None,
        Found::Ours(there) => {
            let mut there = there.describe();
            if there == writing || writes.iter().any(|w| w.describe() == there) {
                there.push_str(" with other parameters");
            }
            Some(format!("holds {there}, and this run writes {writing}"))
        }
        Found::OursUnread(kind, why) => Some(format!(
            "holds {kind} of retrograde whose game cannot be read ({why}), and this run writes \
             {writing}"
        )),
        Found::Other(Some(why)) => Some(format!("exists and cannot be read ({why})")),
        Found::Other(None) => Some(format!(
            "exists and is not {} of retrograde",
            writes.first().map_or("a file", Ours::kind_name)
        )),
    };
    match why {
        None => {
            // the write at the end replaces only what is there now
            crate::atomic_file::claim(path);
            Ok(())
        }
        Some(why) => Err(Error::refused(
            format!(
                "{}: {why}, so it is not replaced; give another path, or {{remedy}} to replace it",
                path.display()
            ),
            &[Remedy::give(switch)],
        )),
    }
}

/// `writes` in a sentence: one file's description, or the kinds of
/// certificate of one board ("a pairing certificate, a zone proof
/// certificate or a proof-tree certificate of m,n,k 4×4, k = 4").
fn describe_all(writes: &[Ours], first: &Ours) -> String {
    let kinds: Vec<&str> = writes
        .iter()
        .filter_map(|w| match w {
            Ours::Certificate(kind, board) if Some(board) == certificate_board(first) => {
                Some(kind.name())
            }
            _ => None,
        })
        .collect();
    match (kinds.len(), certificate_board(first)) {
        (2.., Some((cols, rows, k))) => {
            let (last, rest) = kinds.split_last().expect("two or more");
            format!(
                "{} or {last} of m,n,k {cols}×{rows}, k = {k}",
                rest.join(", ")
            )
        }
        _ => first.describe(),
    }
}

/// The board of a certificate.
fn certificate_board(file: &Ours) -> Option<&(u32, u32, u32)> {
    match file {
        Ours::Certificate(_, board) => Some(board),
        _ => None,
    }
}

/// [`check_replaceable`] for a table of `game`, the force option
/// [`Setting::Force`].
pub fn check_table_output(path: &Path, force: bool, game: &SavedGame) -> Result<()> {
    check_replaceable(path, (force, Setting::Force), &[Ours::Table(game.clone())])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table_head(game: &SavedGame, encoding: u32) -> Vec<u8> {
        let mut bytes = Vec::new();
        let w = super::super::Summing::head(&mut bytes, game, encoding, 0).unwrap();
        w.trailer().unwrap();
        bytes
    }

    #[test]
    fn only_a_file_of_the_kind_and_game_written_is_replaced_unless_forced() {
        let dir = std::env::temp_dir().join(format!("retrograde-replace-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let c44 = SavedGame::Gravity {
            cols: 4,
            rows: 4,
            k: 4,
        };
        let c54 = SavedGame::Gravity {
            cols: 5,
            rows: 4,
            k: 4,
        };
        let notes = dir.join("notes");
        std::fs::write(&notes, "notes").unwrap();
        let table = dir.join("t.rtb");
        std::fs::write(&table, table_head(&c44, 5)).unwrap();
        let book = dir.join("b.book");
        std::fs::write(&book, table_head(&c44, BOOK_ENCODING)).unwrap();
        let manifest = dir.join("m.rtb");
        std::fs::write(
            &manifest,
            [
                MANIFEST_MAGIC,
                br#"{"game":"connect","cols":4,"rows":4,"k":4}"#,
            ]
            .concat(),
        )
        .unwrap();
        let refused = check_table_output(&notes, false, &c44).unwrap_err();
        // the library's words name no flag; a front end names its own
        let message = refused.to_string();
        assert!(
            message.ends_with("not a table of retrograde, so it is not replaced; give another path, or the force option to replace it"),
            "{message}"
        );
        let named = refused.render(|s, _| format!("<{s:?}>"));
        assert!(named.ends_with("or <Force> to replace it"), "{named}");
        assert!(check_table_output(&notes, true, &c44).is_ok());
        assert!(check_table_output(&table, false, &c44).is_ok());
        assert!(check_table_output(&manifest, false, &c44).is_ok());
        assert!(check_table_output(&dir.join("new.rtb"), false, &c44).is_ok());
        // another board's table, a book of the same board: refused
        let other = check_table_output(&table, false, &c54)
            .unwrap_err()
            .to_string();
        assert!(
            other.contains("holds a table of connect 4×4, k = 4, and this run writes a table of connect 5×4, k = 4"),
            "{other}"
        );
        let over_book = check_table_output(&book, false, &c44)
            .unwrap_err()
            .to_string();
        assert!(
            over_book.contains("holds a search book of connect 4×4"),
            "{over_book}"
        );
        let writes_book = [Ours::Book(c44.clone())];
        assert!(check_replaceable(&book, (false, Setting::Force), &writes_book).is_ok());
        assert!(check_replaceable(&table, (false, Setting::Force), &writes_book).is_err());
        // a table of ours whose head does not say its game
        let cut = dir.join("cut.rtb");
        std::fs::write(&cut, b"RETROGRD and the rest").unwrap();
        let unread = check_table_output(&cut, false, &c44)
            .unwrap_err()
            .to_string();
        assert!(unread.contains("whose game cannot be read"), "{unread}");
        // the checks of every output still come first
        assert!(check_table_output(&dir, true, &c44).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_kinds_are_those_the_provers_write() {
        use crate::prove::{pairing, proof_tree, threats, zones};
        for (kind, magic) in [
            (CertificateKind::Pairing, pairing::CERTIFICATE_MAGIC),
            (CertificateKind::ProofTree, proof_tree::CERTIFICATE_MAGIC),
            (CertificateKind::Zones, zones::CERTIFICATE_MAGIC),
            (CertificateKind::Threats, threats::CERTIFICATE_MAGIC),
            (CertificateKind::Threats, threats::CERTIFICATE_MAGIC_VCT),
        ] {
            let head = format!("{magic}\nmnk 3 3 3\n");
            assert_eq!(
                certificate(head.as_bytes()),
                Some(Found::Ours(Ours::Certificate(kind, (3, 3, 3)))),
                "{magic}"
            );
        }
    }

    #[test]
    fn certificates_are_told_apart_by_kind_and_board() {
        let cases: [(&str, Found); 5] = [
            (
                "# retrograde threat proof certificate 3\n# a comment\nmnk 16 16 8\nclaim X wins\n",
                Found::Ours(Ours::Certificate(CertificateKind::Threats, (16, 16, 8))),
            ),
            (
                "# retrograde pairing certificate 1\nmnk 13 13 9\na1 b1\n",
                Found::Ours(Ours::Certificate(CertificateKind::Pairing, (13, 13, 9))),
            ),
            (
                "# retrograde proof certificate 1\nmnk 4 4 3\n",
                Found::Ours(Ours::Certificate(CertificateKind::ProofTree, (4, 4, 3))),
            ),
            (
                "# retrograde zone proof certificate 2\nclaim O draws\n",
                Found::OursUnread(
                    "a zone proof certificate",
                    "its board line is missing".into(),
                ),
            ),
            ("# retrograde notes\nmnk 4 4 3\n", Found::Other(None)),
        ];
        let dir = std::env::temp_dir().join(format!("retrograde-certs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("c.proof");
        for (text, found) in cases {
            std::fs::write(&path, text).unwrap();
            assert_eq!(identify(&path), found, "{text}");
        }
        std::fs::write(&path, format!("{PLOT_MARKER}\n<svg>")).unwrap();
        assert_eq!(identify(&path), Found::Ours(Ours::Plot));
        let cascade: Vec<Ours> = [CertificateKind::Pairing, CertificateKind::Zones]
            .into_iter()
            .map(|k| Ours::Certificate(k, (4, 4, 4)))
            .collect();
        std::fs::write(
            &path,
            "# retrograde threat proof certificate 2\nmnk 4 4 4\n",
        )
        .unwrap();
        let refused = check_replaceable(&path, (false, Setting::Force), &cascade)
            .unwrap_err()
            .to_string();
        assert!(
            refused.contains("holds a threat proof certificate of m,n,k 4×4, k = 4, and this run writes a pairing certificate or a zone proof certificate of m,n,k 4×4, k = 4"),
            "{refused}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
