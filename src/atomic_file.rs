//! Files written atomically: the bytes go to a temporary file in the same
//! directory, are flushed and synced, and the file is then renamed over the
//! final name — so a failed or interrupted write never leaves a partial file
//! under that name. A file replaced this way passes its permission bits to
//! the new one; a hard link to it keeps the old content (the name is given
//! a new file, the old one is not written into). Temporary files in flight
//! are registered, so that SIGINT, SIGTERM and SIGHUP remove them before
//! the process exits ([`remove_temporaries_on_signals`]).
//!
//! **Outputs claimed before the work.** A command checks its output path
//! before a run of minutes or hours ([`crate::files::check_output`],
//! [`crate::tablefile::replace::check_replaceable`]), and the file it then
//! decided to write over — or the absence of any — is [`claim`]ed. The
//! commit at the end keeps to that decision: a path that was empty is
//! taken only if it still is (renameat2 with `RENAME_NOREPLACE`, or link(2)
//! where the file system lacks it), and a file that was there is replaced
//! only if it is still the same file. A file that appeared or was swapped
//! in during the run is never replaced: the result is saved beside it as
//! `NAME.new-PID` (taken the same way) and the write fails, naming both.

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

/// A file's identity: device, inode, size and change time (an inode freed
/// is soon given to a new file; the size and change time tell them apart,
/// and move on any write to the file too).
type FileId = (u64, u64, u64, i64, i64);

/// Paths claimed as outputs, each with the file it held when claimed
/// (`None`: nothing was there).
static CLAIMS: Mutex<Vec<(PathBuf, Option<FileId>)>> = Mutex::new(Vec::new());

fn claims() -> std::sync::MutexGuard<'static, Vec<(PathBuf, Option<FileId>)>> {
    CLAIMS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The identity of the file at `path` (not following a symlink), if any.
fn file_id(path: &Path) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    std::fs::symlink_metadata(path)
        .ok()
        .map(|m| (m.dev(), m.ino(), m.size(), m.ctime(), m.ctime_nsec()))
}

/// Records what `path` holds now (a file, or nothing) as what the atomic
/// write to `path` at the end of the run may replace (module doc). Called
/// once the path has been checked; a later claim of the same path takes
/// the place of the earlier one.
pub fn claim(path: &Path) {
    let held = file_id(path);
    let mut claims = claims();
    claims.retain(|(p, _)| p != path);
    claims.push((path.to_path_buf(), held));
}

/// Renames `from` to `to` only if nothing is at `to` (never replacing):
/// renameat2 with `RENAME_NOREPLACE`, or, on a file system without it, a
/// hard link then the removal of `from`. Fails with `AlreadyExists` when
/// something is at `to`.
fn rename_no_replace(from: &Path, to: &Path) -> std::io::Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let c = |p: &Path| {
        CString::new(p.as_os_str().as_bytes())
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidInput, "a NUL in a path"))
    };
    let (cfrom, cto) = (c(from)?, c(to)?);
    // SAFETY: two NUL-terminated paths relative to the working directory
    let done = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            cfrom.as_ptr(),
            libc::AT_FDCWD,
            cto.as_ptr(),
            libc::RENAME_NOREPLACE,
        )
    };
    if done == 0 {
        return Ok(());
    }
    let e = std::io::Error::last_os_error();
    match e.raw_os_error() {
        Some(libc::EINVAL) | Some(libc::ENOSYS) | Some(libc::EOPNOTSUPP) => {
            std::fs::hard_link(from, to)?;
            std::fs::remove_file(from)
        }
        _ => Err(e),
    }
}

/// Puts the finished temporary file at `path`, keeping to `path`'s claim
/// if it has one (module doc); without a claim, replaces whatever regular
/// file is there.
fn commit(temporary: &Path, path: &Path) -> std::io::Result<()> {
    let claimed = claims()
        .iter()
        .find(|(p, _)| p == path)
        .map(|(_, held)| *held);
    let outcome = match claimed {
        None => std::fs::rename(temporary, path),
        Some(held) => {
            let now = file_id(path);
            match (held, now) {
                (_, None) => rename_no_replace(temporary, path),
                (Some(was), Some(is)) if was == is => std::fs::rename(temporary, path),
                _ => Err(std::io::Error::from(std::io::ErrorKind::AlreadyExists)),
            }
        }
    };
    match outcome {
        Ok(()) => {
            if claimed.is_some() {
                // the file just written is this run's to write again
                claim(path);
            }
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && claimed.is_some() => {
            Err(save_beside(temporary, path))
        }
        Err(e) => Err(e),
    }
}

/// The result of a run whose output path was taken by another file during
/// it: saved as `NAME.new-PID` beside it (never replacing anything
/// either); the error says where.
fn save_beside(temporary: &Path, path: &Path) -> std::io::Error {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let aside = path.with_file_name(format!("{name}.new-{}", std::process::id()));
    let message = match rename_no_replace(temporary, &aside) {
        Ok(()) => format!(
            "a file appeared at {} during the run and was not replaced; the result is saved as {}",
            path.display(),
            aside.display()
        ),
        Err(_) => format!(
            "a file appeared at {} during the run and was not replaced, and {} is taken too; \
             the result is lost",
            path.display(),
            aside.display()
        ),
    };
    std::io::Error::new(std::io::ErrorKind::AlreadyExists, message)
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

/// A registered temporary file ([`create_registered`]) owned by its
/// guard: dropping the guard removes the file and forgets it, so the file
/// goes on every way out of its owner — the work done, an error or a
/// refusal returned, a panic unwinding — as a signal removes it. (A
/// symbolic table's spill file is one: a run that ended in an error left
/// it beside the output.)
#[derive(Debug)]
pub struct Temporary {
    path: PathBuf,
}

impl Temporary {
    /// Creates `path` (which must not exist) as a registered temporary
    /// file, returning its guard and the file, open for reading and
    /// writing.
    pub fn create(path: &Path) -> std::io::Result<(Self, std::fs::File)> {
        let file = create_registered(path)?;
        Ok((
            Temporary {
                path: path.to_path_buf(),
            },
            file,
        ))
    }

    #[cfg(test)]
    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        // under the registry's lock, as the signal thread removes files
        let mut pending = in_flight();
        let _ = std::fs::remove_file(&self.path);
        pending.retain(|p| p != &self.path);
    }
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
        commit(&temporary, path)
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

    // (issue 73, line 4) a file that appeared at a claimed output during
    // the run was replaced at the end
    #[test]
    fn a_claimed_output_replaces_only_what_was_there_when_claimed() {
        let dir = std::env::temp_dir().join(format!("rg-claim-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let aside = |p: &Path| {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            p.with_file_name(format!("{name}.new-{}", std::process::id()))
        };
        // empty when claimed, a user's file when committed: kept
        let empty = dir.join("empty.rtb");
        claim(&empty);
        std::fs::write(&empty, b"the user's").unwrap();
        let err = write_atomically(&empty, b"ours").unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::AlreadyExists);
        assert!(err.to_string().contains("saved as"), "{err}");
        assert_eq!(std::fs::read(&empty).unwrap(), b"the user's");
        assert_eq!(std::fs::read(aside(&empty)).unwrap(), b"ours");
        // a table when claimed, swapped for another file: kept
        let table = dir.join("table.rtb");
        std::fs::write(&table, b"old table").unwrap();
        claim(&table);
        std::fs::remove_file(&table).unwrap();
        std::fs::write(&table, b"the user's").unwrap();
        assert!(write_atomically(&table, b"ours").is_err());
        assert_eq!(std::fs::read(&table).unwrap(), b"the user's");
        // the same file still there: replaced, and then ours to write again
        let same = dir.join("same.rtb");
        std::fs::write(&same, b"old table").unwrap();
        claim(&same);
        write_atomically(&same, b"new").unwrap();
        write_atomically(&same, b"newer").unwrap();
        assert_eq!(std::fs::read(&same).unwrap(), b"newer");
        // empty when claimed and still empty: taken
        let fresh = dir.join("fresh.rtb");
        claim(&fresh);
        write_atomically(&fresh, b"ours").unwrap();
        assert_eq!(std::fs::read(&fresh).unwrap(), b"ours");
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .filter(|n| n.contains(".tmp-"))
            .collect();
        assert!(left.is_empty(), "no temporary left: {left:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

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

    // (issue 86, line 5) a spill file stayed when its run ended in an
    // error; the guard removes it on every way out, a panic's too
    #[test]
    fn a_temporary_goes_when_its_guard_is_dropped_even_by_a_panic() {
        let dir = std::env::temp_dir().join(format!("rg-guard-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(".t.rtb.spill-1");
        {
            let (guard, mut file) = Temporary::create(&path).unwrap();
            file.write_all(b"spilled").unwrap();
            assert!(guard.path().exists());
            assert!(in_flight().contains(&path));
        }
        assert!(!path.exists());
        assert!(!in_flight().contains(&path));
        let unwound = std::panic::catch_unwind(|| {
            let (_guard, _file) = Temporary::create(&path).unwrap();
            panic!("the work failed");
        });
        assert!(unwound.is_err());
        assert!(!path.exists());
        assert!(!in_flight().contains(&path));
        // a path already taken is not the guard's: left alone
        std::fs::write(&path, b"someone's").unwrap();
        assert!(Temporary::create(&path).is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"someone's");
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
