//! Files written atomically: the bytes go to a temporary file in the same
//! directory, are flushed and synced, and the file is then renamed over the
//! final name — so a failed or interrupted write never leaves a partial file
//! under that name. A file replaced this way passes its permission bits to
//! the new one; a hard link to it keeps the old content (the name is given
//! a new file, the old one is not written into). Temporary files in flight
//! are registered, so that SIGINT, SIGTERM and SIGHUP remove them before
//! the process exits ([`remove_temporaries_on_signals`]).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Temporary files being written; the signal thread removes them.
static IN_FLIGHT: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn in_flight() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    IN_FLIGHT
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Starts a thread that, on SIGINT, SIGTERM or SIGHUP, removes every
/// temporary file in flight and exits with 128 + the signal's number (130,
/// 143, 129), as a shell reports a process killed by it. It holds the
/// registry's lock while it does, so no new temporary file appears after
/// the clean-up.
pub fn remove_temporaries_on_signals() -> std::io::Result<()> {
    use signal_hook::consts::signal::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            let pending = in_flight();
            for path in pending.iter() {
                let _ = std::fs::remove_file(path);
            }
            std::process::exit(128 + signal);
        }
    });
    Ok(())
}

/// Creates `path` (which must not exist) as a registered temporary file:
/// a signal removes it like the temporaries of the atomic writes. The
/// caller removes it and calls [`unregister`] when done.
pub fn create_registered(path: &Path) -> std::io::Result<std::fs::File> {
    let mut pending = in_flight();
    pending.push(path.to_path_buf());
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(path);
    if file.is_err() {
        pending.retain(|p| p != path);
    }
    file
}

/// Forgets a temporary file of [`create_registered`].
pub fn unregister(path: &Path) {
    in_flight().retain(|p| p != path);
}

/// Writes `bytes` to `path` atomically (see the module docs).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomically_with(path, |file| file.write_all(bytes))
}

/// The temporary name a file written atomically to `path` takes until it
/// is complete: `.NAME.tmp-PID` in the same directory (so a name checked
/// before the work must leave room for it: see
/// [`crate::files::check_output`]).
pub fn temporary_path(path: &Path) -> std::io::Result<std::path::PathBuf> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let name = path.file_name().ok_or_else(|| {
        std::io::Error::new(std::io::ErrorKind::InvalidInput, "the path names no file")
    })?;
    Ok(dir.join(format!(
        ".{}.tmp-{}",
        name.to_string_lossy(),
        std::process::id()
    )))
}

/// Removes, in `dir`, the temporary files that processes no longer alive
/// left behind: `.NAME.tmp-PID` (an atomic write) and `.NAME.spill-PID`
/// (a symbolic table's spill) where `ours(NAME)` says NAME is a file the
/// caller writes there, and PID is not a live process. A process killed
/// with SIGKILL cannot remove its own; the next run in the directory does.
/// Names of other programs, and those of live processes (this one
/// included), are left alone; a file that cannot be removed is left too.
pub fn remove_stale_temporaries(dir: &Path, ours: impl Fn(&str) -> bool) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some((target, pid)) = temporary_of(name) else {
            continue;
        };
        if ours(target) && !process_alive(pid) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// `(NAME, PID)` of a temporary name `.NAME.tmp-PID` or `.NAME.spill-PID`.
fn temporary_of(name: &str) -> Option<(&str, u32)> {
    let inner = name.strip_prefix('.')?;
    for marker in [".tmp-", ".spill-"] {
        if let Some(at) = inner.rfind(marker) {
            let pid = &inner[at + marker.len()..];
            if !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()) {
                return Some((&inner[..at], pid.parse().ok()?));
            }
        }
    }
    None
}

/// Whether a process `pid` exists (signal 0 reaches it, or it exists and
/// is another user's).
fn process_alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    if pid <= 0 {
        return true; // never a process of ours: leave such names alone
    }
    // SAFETY: kill with signal 0 sends nothing; it only checks the pid
    let sent = unsafe { libc::kill(pid, 0) };
    sent == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// Writes to `path` atomically whatever `fill` writes into the temporary
/// file (see the module docs); the file is synced before the rename.
pub fn write_atomically_with(
    path: &Path,
    fill: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let temporary = temporary_path(path)?;
    // a leftover of an earlier process with this id is ours to replace
    let _ = std::fs::remove_file(&temporary);
    let result = (|| {
        let mut file = {
            let mut pending = in_flight();
            pending.push(temporary.clone());
            std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&temporary)?
        };
        fill(&mut file)?;
        // the file replaced passes on its permission bits (a table kept
        // 0600 stays private), rather than the new file's default
        if let Ok(meta) = std::fs::symlink_metadata(path) {
            if meta.file_type().is_file() {
                file.set_permissions(meta.permissions())?;
            }
        }
        file.sync_all()?;
        // checked again just before the rename: only a regular file (or
        // nothing) is ever replaced
        if let Ok(meta) = std::fs::symlink_metadata(path) {
            if !meta.file_type().is_file() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::AlreadyExists,
                    "the path exists and is not a regular file",
                ));
            }
        }
        std::fs::rename(&temporary, path)
    })();
    let mut pending = in_flight();
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    pending.retain(|p| p != &temporary);
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporaries_of_dead_processes_are_removed_and_others_kept() {
        let dir = std::env::temp_dir().join(format!("rg-stale-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        // pid 2^22 + 1 is above Linux's largest pid: never alive
        let dead = (1u32 << 22) + 1;
        let me = std::process::id();
        let names = [
            format!(".won-013.bdd.tmp-{dead}"),
            format!(".t.rtb.spill-{dead}"),
            format!(".won-013.bdd.tmp-{me}"),
            format!(".notes.txt.tmp-{dead}"),
            "won-013.bdd".to_string(),
        ];
        for n in &names {
            std::fs::write(dir.join(n), b"x").unwrap();
        }
        remove_stale_temporaries(&dir, |n| n == "won-013.bdd" || n == "t.rtb");
        let left: Vec<bool> = names.iter().map(|n| dir.join(n).exists()).collect();
        assert_eq!(left, [false, false, true, true, true]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn writes_and_replaces_without_leftovers() {
        let dir = std::env::temp_dir().join(format!("retrograde-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("out.txt");
        write_atomically(&path, b"one").unwrap();
        write_atomically(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        write_atomically(&path, b"three").unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o7777, 0o600);
        assert!(write_atomically(&dir.join("missing/out.txt"), b"x").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
