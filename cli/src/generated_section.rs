//! The generated section of a hand-kept Markdown file. `bench --markdown`
//! owns only the lines between its two marker lines: a rerun replaces them
//! and keeps every line outside (notes, before/after comparisons, history)
//! as it was. A file that exists without the markers was not written by
//! `bench`, so it is refused, never replaced.
//!
//! Invariant: a file holds at most one section — exactly one [`BEGIN`] line
//! followed by exactly one [`END`] line — or it is refused as it stands.

/// The line that opens the section (matched as a whole line, spaces and a
/// carriage return around it ignored).
pub const BEGIN: &str = "<!-- retrograde bench: generated table begins; a rerun replaces what lies between these lines -->";

/// The line that closes the section.
pub const END: &str = "<!-- retrograde bench: generated table ends -->";

/// The text of the file after the section is replaced by `generated`:
/// `existing` with only its section's lines replaced or, when there is no
/// file yet, a new file of `title`, a blank line and the section. `Err`
/// says in one phrase why `existing` is not a file this may rewrite.
pub fn splice(existing: Option<&str>, title: &str, generated: &str) -> Result<String, String> {
    let section = format!("{BEGIN}\n{}{END}\n", with_final_newline(generated));
    let Some(text) = existing else {
        return Ok(format!("{title}\n\n{section}"));
    };
    let (start, end) = section_bounds(text)?;
    Ok(format!("{}{section}{}", &text[..start], &text[end..]))
}

/// The byte range of `text` from the start of its [`BEGIN`] line to the
/// end of its [`END`] line (its newline included, if it has one).
fn section_bounds(text: &str) -> Result<(usize, usize), String> {
    let mut begins = Vec::new();
    let mut ends = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        match line.trim() {
            l if l == BEGIN => begins.push(offset),
            l if l == END => ends.push(offset + line.len()),
            _ => {}
        }
        offset += line.len();
    }
    match (begins.as_slice(), ends.as_slice()) {
        ([], []) => Err(format!(
            "exists and has no section written by `retrograde bench` (no line `{BEGIN}`), \
             so it is not replaced; give a new path, or add that line and `{END}` where the table belongs"
        )),
        (&[start], &[end]) if start < end => Ok((start, end)),
        _ => Err(format!(
            "has {} opening and {} closing marker lines of `retrograde bench`; \
             it needs exactly one of each, the opening one first",
            begins.len(),
            ends.len()
        )),
    }
}

fn with_final_newline(text: &str) -> String {
    if text.is_empty() || text.ends_with('\n') {
        text.to_string()
    } else {
        format!("{text}\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `text` may be rewritten, as `bench` checks before any work.
    fn check(text: &str) -> Result<String, String> {
        splice(Some(text), "#", "")
    }

    #[test]
    fn a_new_file_gets_the_title_and_one_section() {
        let text = splice(None, "# Benchmarks", "| a |\n").unwrap();
        assert_eq!(text, format!("# Benchmarks\n\n{BEGIN}\n| a |\n{END}\n"));
        assert!(check(&text).is_ok());
    }

    #[test]
    fn a_rerun_replaces_only_the_section_and_keeps_every_other_line() {
        let before =
            format!("# Title\n\nintro\n{BEGIN}\n| old |\n| old |\n{END}\n\n## History\nkept\n");
        let after = splice(Some(&before), "# unused", "| new |").unwrap();
        assert_eq!(
            after,
            format!("# Title\n\nintro\n{BEGIN}\n| new |\n{END}\n\n## History\nkept\n")
        );
        // Rerunning on its own output is stable.
        assert_eq!(splice(Some(&after), "# unused", "| new |").unwrap(), after);
    }

    #[test]
    fn markers_are_found_with_carriage_returns_and_without_a_final_newline() {
        let before = format!("top\r\n  {BEGIN}\r\nold\r\n{END}");
        let after = splice(Some(&before), "#", "new\n").unwrap();
        assert_eq!(after, format!("top\r\n{BEGIN}\nnew\n{END}\n"));
    }

    #[test]
    fn a_file_without_markers_is_refused() {
        let why = check("# Somebody's notes\n| table |\n").unwrap_err();
        assert!(
            why.contains("no section written by `retrograde bench`"),
            "{why}"
        );
        assert!(!why.contains('\n'));
        // A marker quoted inside a line is not a marker line.
        assert!(check(&format!("see `{BEGIN}` and `{END}`\n")).is_err());
    }

    #[test]
    fn doubled_missing_or_reversed_markers_are_refused() {
        for text in [
            format!("{BEGIN}\n{BEGIN}\n{END}\n"),
            format!("{BEGIN}\nx\n"),
            format!("x\n{END}\n"),
            format!("{END}\n{BEGIN}\n"),
            format!("{BEGIN}\n{END}\n{BEGIN}\n{END}\n"),
        ] {
            let why = check(&text).unwrap_err();
            assert!(why.contains("exactly one of each"), "{text}: {why}");
        }
    }
}
