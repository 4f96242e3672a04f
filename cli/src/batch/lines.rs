//! The input of a batch, one line at a time: a regular file or standard
//! input, never read whole. A line keeps at most [`MAX_LINE_BYTES`] bytes
//! in memory however long it is (the rest is skipped), so reading a line
//! takes bounded memory; a line too long or not UTF-8 is a bad line, told
//! with a short message that does not echo it.

use std::io::{BufRead, BufReader, ErrorKind};
use std::path::Path;

use retrograde::{disk::open_regular, host::os_text, language::BoardGame};

use super::super::output::grouped;

/// The longest line kept, in bytes: a move list of a board of at most 64
/// cells takes a few hundred (64 moves such as `h8, `), so a longer line
/// is no position.
pub const MAX_LINE_BYTES: usize = 4096;

/// Bytes read from the input at a time.
const BUFFER_BYTES: usize = 64 << 10;

/// One line of the input, numbered from 1.
#[derive(Debug)]
pub struct Read {
    /// The line's number.
    pub number: u64,
    /// What it holds.
    pub line: Line,
}

/// What a line of the input holds.
#[derive(Debug)]
pub enum Line {
    /// Its text, trimmed: a move list (blank: the empty board) or not.
    Text(String),
    /// A line that cannot be a move list (too long, not UTF-8): the
    /// message, naming the input and the line.
    Bad(String),
    /// The input could not be read at this line: the message. It is the
    /// last item.
    Unreadable(String),
}

/// The lines of a batch's input, in order.
pub struct Lines {
    /// The input as messages name it: a path or "standard input".
    name: String,
    input: Box<dyn BufRead + Send>,
    /// Lines read so far.
    number: u64,
    /// The current line's first bytes (at most [`MAX_LINE_BYTES`] + 1).
    bytes: Vec<u8>,
    /// Set once the input ended or failed.
    done: bool,
}

impl Lines {
    /// The lines of `path` (`-`: standard input). Refuses, before any
    /// work, a path that is missing or not a regular file (a FIFO would
    /// block, a directory is no input).
    pub fn open(path: &Path) -> anyhow::Result<Self> {
        let (name, input): (String, Box<dyn BufRead + Send>) = if path == Path::new("-") {
            let stdin = BufReader::with_capacity(BUFFER_BYTES, std::io::stdin());
            ("standard input".into(), Box::new(stdin))
        } else {
            let file = BufReader::with_capacity(BUFFER_BYTES, open_regular(path)?);
            (path.display().to_string(), Box::new(file))
        };
        Ok(Self {
            name,
            input,
            number: 0,
            bytes: Vec::with_capacity(MAX_LINE_BYTES + 1),
            done: false,
        })
    }

    /// The input as messages name it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Reads the next line into `self.bytes` (its first
    /// [`MAX_LINE_BYTES`] + 1 bytes) and returns its whole length without
    /// the newline; `None` at the end of the input.
    fn read_line(&mut self) -> std::io::Result<Option<usize>> {
        self.bytes.clear();
        let (mut length, mut any) = (0, false);
        loop {
            let buffer = match self.input.fill_buf() {
                Ok(buffer) => buffer,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buffer.is_empty() {
                return Ok(any.then_some(length));
            }
            any = true;
            let end = buffer.iter().position(|&b| b == b'\n');
            let part = &buffer[..end.unwrap_or(buffer.len())];
            let room = (MAX_LINE_BYTES + 1).saturating_sub(self.bytes.len());
            self.bytes.extend_from_slice(&part[..part.len().min(room)]);
            length += part.len();
            let used = end.map_or(buffer.len(), |at| at + 1);
            self.input.consume(used);
            if end.is_some() {
                return Ok(Some(length));
            }
        }
    }
}

impl Iterator for Lines {
    type Item = Read;

    fn next(&mut self) -> Option<Read> {
        if self.done {
            return None;
        }
        let number = self.number + 1;
        let read = self.read_line();
        let at = |why: String| format!("{}, line {number}: {why}", self.name);
        let line = match read {
            Ok(None) => {
                self.done = true;
                return None;
            }
            Err(e) => {
                self.done = true;
                Line::Unreadable(format!("cannot read {}: {}", self.name, os_text(&e)))
            }
            Ok(Some(length)) if length > MAX_LINE_BYTES => Line::Bad(at(format!(
                "{} bytes, more than the {} a line may have (a move list takes a few hundred)",
                grouped(length as u64),
                grouped(MAX_LINE_BYTES as u64)
            ))),
            Ok(Some(_)) => match std::str::from_utf8(&self.bytes) {
                Ok(text) => Line::Text(text.trim().to_string()),
                Err(_) => Line::Bad(at("not UTF-8 text".into())),
            },
        };
        self.number = number;
        Some(Read { number, line })
    }
}

/// The fewest stones of the positions of `path`'s lines on `game` (bad
/// lines skipped; 0 when there is none), read once ahead of the batch to
/// size its table. Stops at the first empty board: none has fewer.
pub fn fewest_stones(game: &BoardGame, path: &Path) -> anyhow::Result<u32> {
    let mut fewest = None::<u32>;
    for read in Lines::open(path)? {
        match read.line {
            Line::Text(text) => {
                if let Ok(p) = game.play_moves(&text) {
                    let stones = p.stones();
                    fewest = Some(fewest.map_or(stones, |f| f.min(stones)));
                    if stones == 0 {
                        break;
                    }
                }
            }
            Line::Bad(_) => {}
            Line::Unreadable(why) => anyhow::bail!(why),
        }
    }
    Ok(fewest.unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines of `bytes`.
    fn lines_of(bytes: &[u8]) -> Vec<Read> {
        Lines {
            name: "test".into(),
            input: Box::new(std::io::Cursor::new(bytes.to_vec())),
            number: 0,
            bytes: Vec::new(),
            done: false,
        }
        .collect()
    }

    #[test]
    fn lines_are_numbered_trimmed_and_a_last_line_needs_no_newline() {
        let read = lines_of(b" 44 \r\n\n\t\n53");
        let texts: Vec<&str> = read
            .iter()
            .map(|r| match &r.line {
                Line::Text(t) => t.as_str(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(texts, ["44", "", "", "53"]);
        assert_eq!(read.last().unwrap().number, 4);
        assert!(lines_of(b"").is_empty());
        assert_eq!(lines_of(b"\n").len(), 1);
    }

    #[test]
    fn a_long_or_binary_line_is_bad_and_the_next_is_read() {
        let mut input = vec![b'1'; MAX_LINE_BYTES];
        input.push(b'\n');
        input.extend(vec![b' '; MAX_LINE_BYTES + 1]);
        input.extend(b"\n\xff\n4\n");
        let read = lines_of(&input);
        assert_eq!(read.len(), 4);
        assert!(matches!(&read[0].line, Line::Text(t) if t.len() == MAX_LINE_BYTES));
        assert!(matches!(&read[1].line, Line::Bad(m) if m.contains("line 2: 4,097 bytes")));
        assert!(matches!(&read[2].line, Line::Bad(m) if m.contains("line 3: not UTF-8")));
        assert!(matches!(&read[3].line, Line::Text(t) if t == "4"));
    }
}
