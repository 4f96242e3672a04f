//! The prompt of `retrograde play`: "your move: ", a line read, a message
//! and a new prompt until a line is a legal move, on every board.

use std::io::{BufRead, Write};

/// Longest input line echoed back in a message.
pub const ECHO_CHARS: usize = 40;

/// Prompts for a move and reads lines until `parse` takes one; `None` at
/// the end of input. A line that is not text, or that `parse` refuses
/// (with the message it gives), gets a message and a new prompt.
pub fn ask_until<T>(
    input: &mut impl BufRead,
    out: &mut impl Write,
    mut parse: impl FnMut(&str) -> Result<T, String>,
) -> anyhow::Result<Option<T>> {
    loop {
        write!(out, "your move: ")?;
        out.flush()?;
        let mut bytes = Vec::new();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            writeln!(out)?;
            return Ok(None);
        }
        let Ok(line) = std::str::from_utf8(&bytes) else {
            writeln!(out, "not a move: the line is not text")?;
            continue;
        };
        match parse(line) {
            Ok(value) => return Ok(Some(value)),
            Err(message) => writeln!(out, "{message}")?,
        }
    }
}
