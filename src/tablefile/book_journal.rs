//! The journal of a book being made (`search --make-book PLIES --out
//! FILE` keeps it at `FILE.partial`): every score proved so far, appended
//! and synced a batch at a time, so that a run cut short (a signal, a
//! crash, the machine stopped) resumes where it stopped when the same command
//! is run again. The journal is removed once the book is written.
//!
//! Layout: a 32-byte header — the magic `RGBKJNL1`, then `u32` LE family (0
//! gravity, 1 m,n,k), columns, rows, `k`, plies and a zero `u32` — then
//! records of 16 bytes: the key (`u64` LE), the score (`i8`), three zero
//! bytes and a check (`u32` LE, a mix of key and score: docs/FORMAT.md). A
//! last record cut short by a crash is dropped (and cut off before
//! appending); any other fault refuses the journal, naming it: it is the
//! tool's own file, and one it did not write is never appended to or
//! removed.
//!
//! Reading checks each record with the check of a book's entries
//! ([`crate::tablefile::book`]): a key of a position in play on the board,
//! with at most the book's stones, under the search's key, a score it can
//! have. The
//! scores themselves are the searches' and taken as they are, as the
//! deepest ply of a book is ([`crate::search::book::Book::check_negamax`]
//! checks the shallower plies once the book is complete).

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use super::book::checked_entry;
use crate::error::{Error, Result};
use crate::position::Family;
use crate::search::bitboard::Bitboard;
use crate::search::book_making::Journal;

const MAGIC: &[u8; 8] = b"RGBKJNL1";
const HEADER_BYTES: usize = 32;
const RECORD_BYTES: usize = 16;

/// The journal's path for a book written to `out`: `out` with `.partial`
/// added to its name.
pub fn journal_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// The check of a record: a mix of its key and score, so that a record
/// torn or overwritten is seen.
fn record_check(key: u64, score: i8) -> u32 {
    let mixed = (key ^ (u64::from(score as u8) << 56)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (mixed >> 32) as u32
}

/// The header naming `board` and `plies`.
fn header(board: &Bitboard, plies: u32) -> [u8; HEADER_BYTES] {
    let (family, cols, rows, k) = board.dimensions();
    let family = match family {
        Family::Gravity => 0u32,
        Family::Mnk => 1,
    };
    let mut bytes = [0u8; HEADER_BYTES];
    bytes[..8].copy_from_slice(MAGIC);
    for (i, v) in [family, cols, rows, k, plies].into_iter().enumerate() {
        bytes[8 + 4 * i..12 + 4 * i].copy_from_slice(&v.to_le_bytes());
    }
    bytes
}

/// An open journal: the scores an earlier run proved, and the file that
/// takes the new ones.
pub struct BookJournal {
    path: PathBuf,
    file: File,
    earlier: HashMap<u64, i8>,
    /// Scores recorded by this run.
    recorded: usize,
}

impl BookJournal {
    /// Opens the journal at `path` for the book of `board` up to `plies`
    /// stones: reads and checks the scores it holds, or creates it. A file
    /// there that is not the journal of this very book is refused.
    pub fn open(path: &Path, board: &Bitboard, plies: u32) -> Result<Self> {
        let refuse = |why: String| {
            Error::InvalidInput(format!(
                "{} is not the journal of this book ({why}); it was left as it is: remove it or \
                 write the book elsewhere",
                path.display()
            ))
        };
        let cannot = |cause: std::io::Error| Error::Io {
            path: path.display().to_string(),
            cause,
        };
        let wanted = header(board, plies);
        let mut file = match OpenOptions::new()
            .read(true)
            .append(true)
            .create_new(true)
            .open(path)
        {
            Ok(mut file) => {
                file.write_all(&wanted).map_err(cannot)?;
                file.sync_all().map_err(cannot)?;
                return Ok(Self {
                    path: path.to_path_buf(),
                    file,
                    earlier: HashMap::new(),
                    recorded: 0,
                });
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                if !std::fs::symlink_metadata(path)
                    .map_err(cannot)?
                    .file_type()
                    .is_file()
                {
                    return Err(refuse("not a regular file".into()));
                }
                OpenOptions::new()
                    .read(true)
                    .append(true)
                    .open(path)
                    .map_err(cannot)?
            }
            Err(e) => return Err(cannot(e)),
        };
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(cannot)?;
        if bytes.len() < HEADER_BYTES || &bytes[..8] != MAGIC {
            return Err(refuse("no journal header".into()));
        }
        if bytes[..HEADER_BYTES] != wanted {
            return Err(refuse("a journal of another board or depth".into()));
        }
        let whole = (bytes.len() - HEADER_BYTES) / RECORD_BYTES;
        let mut earlier = HashMap::with_capacity(whole);
        for (i, record) in bytes[HEADER_BYTES..].chunks_exact(RECORD_BYTES).enumerate() {
            let key = u64::from_le_bytes(record[..8].try_into().expect("8 bytes"));
            let score = record[8] as i8;
            let check = u32::from_le_bytes(record[12..].try_into().expect("4 bytes"));
            let position = checked_entry(board, key, score).is_ok_and(|stones| stones <= plies);
            if record[9..12] != [0, 0, 0] || check != record_check(key, score) || !position {
                return Err(refuse(format!("record {i} is damaged")));
            }
            earlier.insert(key, score);
        }
        let kept = (HEADER_BYTES + whole * RECORD_BYTES) as u64;
        if kept != bytes.len() as u64 {
            // the last record, cut short by a crash, is dropped
            file.set_len(kept).map_err(cannot)?;
        }
        Ok(Self {
            path: path.to_path_buf(),
            file,
            earlier,
            recorded: 0,
        })
    }

    /// The journal's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the journal holds no score (none earlier, none recorded):
    /// a run that fails leaves no empty journal behind.
    pub fn is_empty(&self) -> bool {
        self.earlier.is_empty() && self.recorded == 0
    }

    /// Removes the journal (the book it served is written).
    pub fn remove(self) -> Result<()> {
        drop(self.file);
        std::fs::remove_file(&self.path).map_err(|cause| Error::Io {
            path: self.path.display().to_string(),
            cause,
        })
    }
}

impl Journal for BookJournal {
    fn earlier(&self) -> &HashMap<u64, i8> {
        &self.earlier
    }

    fn record(&mut self, proved: &[(u64, i8)]) -> Result<()> {
        if proved.is_empty() {
            return Ok(());
        }
        let mut bytes = Vec::with_capacity(proved.len() * RECORD_BYTES);
        for &(key, score) in proved {
            bytes.extend_from_slice(&key.to_le_bytes());
            bytes.push(score as u8);
            bytes.extend_from_slice(&[0; 3]);
            bytes.extend_from_slice(&record_check(key, score).to_le_bytes());
        }
        let cannot = |cause| Error::Io {
            path: self.path.display().to_string(),
            cause,
        };
        self.file.write_all(&bytes).map_err(cannot)?;
        self.file.sync_data().map_err(cannot)?;
        self.recorded += proved.len();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSize;

    fn board() -> Bitboard {
        Bitboard::new(Family::Gravity, BoardSize::new(4, 4, 3)).unwrap()
    }

    /// A fresh directory of this test's own.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("rg-journal-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn a_key(board: &Bitboard) -> u64 {
        board.position_key(0, 0)
    }

    #[test]
    fn a_journal_keeps_what_it_was_told_across_opens_and_drops_a_torn_record() {
        let dir = scratch("kept");
        let path = dir.join("b.book.partial");
        let board = board();
        let key = a_key(&board);
        let mut journal = BookJournal::open(&path, &board, 3).unwrap();
        assert!(journal.earlier().is_empty());
        journal.record(&[(key, 2)]).unwrap();
        drop(journal);
        // a torn record at the end
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(&[1, 2, 3]).unwrap();
        drop(file);
        let journal = BookJournal::open(&path, &board, 3).unwrap();
        assert_eq!(journal.earlier(), &HashMap::from([(key, 2)]));
        assert_eq!(
            std::fs::metadata(&path).unwrap().len(),
            (HEADER_BYTES + RECORD_BYTES) as u64
        );
        journal.remove().unwrap();
        assert!(!path.exists());
    }

    #[test]
    fn another_file_another_depth_or_a_damaged_record_is_refused_and_left() {
        let dir = scratch("refused");
        let board = board();
        let other = dir.join("notes.txt");
        std::fs::write(&other, "my notes, not a journal at all").unwrap();
        let err = BookJournal::open(&other, &board, 3).err().unwrap();
        assert!(err.to_string().contains("not the journal"), "{err}");
        assert_eq!(
            std::fs::read_to_string(&other).unwrap(),
            "my notes, not a journal at all"
        );

        let path = dir.join("b.book.partial");
        let mut journal = BookJournal::open(&path, &board, 3).unwrap();
        journal.record(&[(a_key(&board), 2)]).unwrap();
        drop(journal);
        let err = BookJournal::open(&path, &board, 4).err().unwrap();
        assert!(err.to_string().contains("another board or depth"), "{err}");

        let mut bytes = std::fs::read(&path).unwrap();
        bytes[HEADER_BYTES + 8] ^= 0x40; // the score changed, the check not
        std::fs::write(&path, &bytes).unwrap();
        let err = BookJournal::open(&path, &board, 3).err().unwrap();
        assert!(err.to_string().contains("record 0 is damaged"), "{err}");
    }
}
