//! The two gates every file passes: inputs are read only from regular
//! files (a FIFO would block forever, a directory or device is no input),
//! and outputs are written only where a regular file may be created or
//! replaced — never over a symlink, a FIFO, a device or a directory.

use std::path::Path;

use crate::error::{os_text, Error, Result};

/// Refuses `path` unless it is a regular file (following symlinks), with
/// a sentence naming what it is instead.
pub fn check_regular_input(path: &Path) -> Result<()> {
    let meta = std::fs::metadata(path).map_err(|cause| Error::CannotRead {
        path: path.display().to_string(),
        cause,
    })?;
    if !meta.file_type().is_file() {
        return Err(Error::InvalidInput(format!(
            "cannot read {}: {} is not a regular file",
            path.display(),
            kind_of(&meta.file_type())
        )));
    }
    Ok(())
}

/// The whole content of the regular file `path`.
pub fn read_regular(path: &Path) -> Result<Vec<u8>> {
    check_regular_input(path)?;
    std::fs::read(path).map_err(|cause| Error::CannotRead {
        path: path.display().to_string(),
        cause,
    })
}

/// The whole content of the regular file `path`, refused past `cap`
/// bytes (a small file of ours that has grown is not ours): at most
/// `cap + 1` bytes are ever read, so neither a file replaced while it is
/// read nor a huge one exhausts memory.
pub fn read_regular_capped(path: &Path, cap: u64) -> Result<Vec<u8>> {
    use std::io::Read;
    let file = open_regular(path)?;
    let mut bytes = Vec::new();
    file.take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|cause| Error::CannotRead {
            path: path.display().to_string(),
            cause,
        })?;
    if bytes.len() as u64 > cap {
        return Err(Error::InvalidInput(format!(
            "{}: larger than the {cap} bytes such a file takes; not read",
            path.display()
        )));
    }
    Ok(bytes)
}

/// The regular file `path`, opened for reading.
pub fn open_regular(path: &Path) -> Result<std::fs::File> {
    check_regular_input(path)?;
    std::fs::File::open(path).map_err(|cause| Error::CannotRead {
        path: path.display().to_string(),
        cause,
    })
}

/// The text of the regular file `path` (UTF-8).
pub fn read_regular_text(path: &Path) -> Result<String> {
    String::from_utf8(read_regular(path)?)
        .map_err(|_| Error::InvalidInput(format!("{}: the file is not UTF-8 text", path.display())))
}

/// Checks, before any work, that `path` can receive a file written
/// atomically: it names a file, it is absent or a regular file (not a
/// symlink, FIFO, device or directory), and its directory exists and takes
/// a new file.
pub fn check_output(path: &Path) -> Result<()> {
    let shown = path.display();
    let bad = |why: String| Err(Error::InvalidInput(format!("{shown}: {why}")));
    if path.file_name().is_none() {
        return bad("the path names no file".into());
    }
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        if !meta.file_type().is_file() {
            return bad(format!(
                "exists and is {}; only a regular file is replaced — give another path",
                kind_of(&meta.file_type())
            ));
        }
    }
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return bad(format!("the directory {} does not exist", dir.display()));
    }
    // what killed writers of this very file left behind
    if let Some(own) = path.file_name().and_then(|n| n.to_str()) {
        crate::atomic_file::remove_stale_temporaries(dir, |n| n == own);
    }
    // the probe is the very temporary name the write will use, so a name
    // too long for it (255 bytes less `.`, `.tmp-` and the process id) is
    // refused now, not after the work
    let probe = match crate::atomic_file::temporary_path(path) {
        Ok(probe) => probe,
        Err(e) => return bad(os_text(&e)),
    };
    // a leftover of an earlier process with this id is replaced by the
    // write, so the probe may replace it too
    let _ = std::fs::remove_file(&probe);
    // registered like the write's own temporary file, so that a signal
    // arriving while the probe exists removes it too
    match crate::atomic_file::create_registered(&probe) {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            crate::atomic_file::unregister(&probe);
            Ok(())
        }
        Err(e) if e.raw_os_error() == Some(libc::ENAMETOOLONG) => {
            let name = path.file_name().map_or(0, |n| n.len());
            let room = probe.file_name().map_or(0, |n| n.len()) - name;
            bad(format!(
                "the file name is too long: {name} bytes, and the file is written \
                 under a temporary name {room} bytes longer first; give a name of \
                 at most {} bytes",
                255usize.saturating_sub(room)
            ))
        }
        Err(e) => bad(format!(
            "cannot write in {}: {}",
            dir.display(),
            os_text(&e)
        )),
    }
}

/// What a file type is, in words.
fn kind_of(t: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if t.is_dir() {
        "a directory"
    } else if t.is_symlink() {
        "a symbolic link"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_file() {
        "a regular file"
    } else {
        "not a regular file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_files_are_refused_both_ways() {
        let dir = std::env::temp_dir().join(format!("retrograde-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("f");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(status.success());
        let real = dir.join("real.txt");
        std::fs::write(&real, "x").unwrap();
        let link = dir.join("l");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        assert!(read_regular(&fifo).is_err());
        assert!(read_regular(&dir).is_err());
        assert!(read_regular(&real).is_ok());
        assert!(check_output(&fifo).is_err());
        assert!(check_output(&link).is_err());
        assert!(check_output(&dir).is_err());
        assert!(check_output(&dir.join("missing/x")).is_err());
        assert!(check_output(&real).is_ok());
        assert!(check_output(&dir.join("new.rtb")).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
