//! Which existing file a table may be written over. `--out FILE` replaces
//! a file already at FILE only if it is a table of this program — a rerun
//! overwrites its own output — or when the user forces it (`--force`): a
//! mistyped path never costs a file of something else.
//!
//! A table is recognised by its first bytes: [`MAGIC`] (every single-file
//! table: dense, gravity, a part of a parted table, symbolic) or the
//! manifest's first line ([`MANIFEST_MAGIC`]). It is a cheap look at the
//! head, not a validation: a damaged table of ours is still ours to
//! replace.

use std::io::Read;
use std::path::Path;

use super::parted::MANIFEST_MAGIC;
use super::MAGIC;
use crate::error::{os_text, Error, Remedy, Result, Setting};

/// Whether the bytes `head` (a file's first bytes, or all of a shorter
/// file) open a table of this program.
///
/// ```
/// use retrograde::tablefile::replace::opens_a_table;
/// assert!(opens_a_table(b"RETROGRD\x01\0\0\0"));
/// assert!(opens_a_table(b"retrograde parted table\n{"));
/// assert!(!opens_a_table(b"RETRO"));
/// assert!(!opens_a_table(b"notes\n"));
/// ```
pub fn opens_a_table(head: &[u8]) -> bool {
    head.starts_with(MAGIC) || head.starts_with(MANIFEST_MAGIC)
}

/// Checks, before any work, that a table can be written to `path`:
/// [`crate::files::check_output`] (a regular file or nothing, in a
/// directory that takes a new file), and a file already there is a table
/// of this program ([`opens_a_table`]) unless `force`. The refusal is one
/// sentence naming [`Setting::Force`] as its remedy.
pub fn check_table_output(path: &Path, force: bool) -> Result<()> {
    check_replaceable(
        path,
        (force, Setting::Force),
        MANIFEST_MAGIC.len(),
        opens_a_table,
        "a table",
    )
}

/// [`check_table_output`] for any file this program writes: a file already
/// at `path` is replaced only if its first `head_len` bytes (or all of a
/// shorter file) pass `ours`, or with `force` (its value, and the setting
/// that gives it, the refusal's remedy); else the refusal names `what` the
/// file is not ("a table", "a certificate"). A path that passes
/// is claimed ([`crate::atomic_file::claim`]): the write at the end of the
/// run replaces only the file checked now, or takes the path only if it is
/// still empty.
pub fn check_replaceable(
    path: &Path,
    (force, switch): (bool, Setting),
    head_len: usize,
    ours: impl Fn(&[u8]) -> bool,
    what: &str,
) -> Result<()> {
    crate::files::check_output(path)?;
    if force || std::fs::symlink_metadata(path).is_err() {
        // the write at the end replaces only what is there now
        crate::atomic_file::claim(path);
        return Ok(());
    }
    let refuse = |why: String| {
        Err(Error::refused(
            format!(
                "{}: {why}; give another path, or {{remedy}} to replace it",
                path.display()
            ),
            &[Remedy::give(switch)],
        ))
    };
    let mut head = Vec::with_capacity(head_len);
    match std::fs::File::open(path) {
        Ok(file) => {
            if let Err(e) = file.take(head_len as u64).read_to_end(&mut head) {
                return refuse(format!("exists and cannot be read ({})", os_text(&e)));
            }
        }
        Err(e) => return refuse(format!("exists and cannot be read ({})", os_text(&e))),
    }
    if ours(&head) {
        crate::atomic_file::claim(path);
        Ok(())
    } else {
        refuse(format!(
            "exists and is not {what} of retrograde, so it is not replaced"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_table_is_replaced_unless_forced() {
        let dir = std::env::temp_dir().join(format!("retrograde-replace-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let notes = dir.join("notes");
        std::fs::write(&notes, "notes").unwrap();
        let table = dir.join("t.rtb");
        std::fs::write(&table, b"RETROGRD and the rest").unwrap();
        let manifest = dir.join("m.rtb");
        std::fs::write(&manifest, MANIFEST_MAGIC).unwrap();
        let refused = check_table_output(&notes, false).unwrap_err();
        // the library's words name no flag; a front end names its own
        let message = refused.to_string();
        assert!(
            message.ends_with("or the force option to replace it"),
            "{message}"
        );
        let named = refused.render(|s, _| format!("<{s:?}>"));
        assert!(named.ends_with("or <Force> to replace it"), "{named}");
        assert!(check_table_output(&notes, true).is_ok());
        assert!(check_table_output(&table, false).is_ok());
        assert!(check_table_output(&manifest, false).is_ok());
        assert!(check_table_output(&dir.join("new.rtb"), false).is_ok());
        // the checks of every output still come first
        assert!(check_table_output(&dir, true).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
