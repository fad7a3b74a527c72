//! Files: atomic writes (never over a link, folder or device) and bounded reads (regular files
//! only where bao wrote them, never waiting on a FIFO).

use anyhow::Context;
use std::path::Path;

/// The name prefix of [`write_atomic`]'s temporary files (a crash may leave one behind).
pub const TEMP_PREFIX: &str = ".bao-";

/// Writes `bytes` to `path` atomically: a temporary file of a unique name beside it (so two
/// writers never share one), synced to disk, renamed over the target, and the folder synced so
/// that the rename itself survives a crash. A reader never sees a half-written file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    use std::io::Write;
    check_output_path(path)?;
    let dir = parent_dir(path);
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut tmp = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .suffix(".tmp")
        .tempfile_in(dir)
        .with_context(|| format!("cannot write a temporary file in {}", dir.display()))?;
    // A temporary file is private (0600); the file it becomes is an ordinary one (0644).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))
            .with_context(|| format!("cannot set the permissions of {}", tmp.path().display()))?;
    }
    tmp.write_all(bytes)
        .and_then(|_| tmp.as_file().sync_all())
        .with_context(|| format!("cannot write {}", tmp.path().display()))?;
    tmp.persist(path)
        .with_context(|| format!("cannot replace {}", path.display()))?;
    sync_dir(dir)
}

/// Refuses to write over anything but a regular file (or nothing): a symlink, a folder, a FIFO or
/// a device node at an output path is an error naming it, so that no write replaces one. Call it
/// before the work whose result goes there, so that a bad path fails at once.
pub fn check_output_path(path: &Path) -> anyhow::Result<()> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let dir = parent_dir(path);
            match std::fs::metadata(dir) {
                Ok(m) if m.is_dir() => Ok(()),
                Ok(_) => anyhow::bail!("{}: {} is not a folder", path.display(), dir.display()),
                // A missing folder is made by the write.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
                Err(e) => Err(e).with_context(|| format!("cannot reach {}", dir.display())),
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => anyhow::bail!(
            "{}: {} is not a folder",
            path.display(),
            parent_dir(path).display()
        ),
        Err(e) => Err(e).with_context(|| format!("cannot reach {}", path.display())),
        Ok(m) if m.is_file() => Ok(()),
        Ok(m) => {
            let kind = if m.is_symlink() {
                "a symbolic link"
            } else if m.is_dir() {
                "a folder"
            } else {
                "not a regular file"
            };
            anyhow::bail!("{} is {kind}: refusing to write over it", path.display())
        }
    }
}

/// Size bounds of the files bao reads, by kind: far above any real one, low enough that a wrong
/// path (`/dev/zero`, a log file) is refused at once instead of filling memory.
pub mod limits {
    /// Configs, rules, positions, move lists, game records.
    pub const TEXT: u64 = 64 << 20;
    /// Networks and player files.
    pub const NETWORK: u64 = 2 << 30;
    /// Replay buffers.
    pub const REPLAY: u64 = 16 << 30;
}

/// Reads at most `limit` bytes of the file at `path` (`what` names it in errors): a larger file
/// is a one-line error, read no further than the bound.
pub fn read_bounded(path: &Path, limit: u64, what: &str) -> anyhow::Result<Vec<u8>> {
    let file = std::fs::File::open(path)
        .with_context(|| format!("cannot read {what} {}", path.display()))?;
    let meta = file
        .metadata()
        .with_context(|| format!("cannot read {what} {}", path.display()))?;
    // Refused before reading: a file known to be too large, and a device (`/dev/zero` never
    // ends, and no file of bao's is one). Pipes are read, up to the bound.
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let kind = meta.file_type();
        if kind.is_char_device() || kind.is_block_device() {
            anyhow::bail!("{what} {} is a device, not a {what}", path.display());
        }
    }
    read_open(file, &meta, path, limit, what)
}

/// [`read_bounded`] of a regular file only, for the files bao writes itself (a run directory's,
/// game records, caches), where a pipe is never meant: a FIFO, device, socket or folder at
/// `path` is a one-line error at once. The file is opened without waiting, so a FIFO that no
/// program writes to cannot hang the reader.
pub fn read_regular_bounded(path: &Path, limit: u64, what: &str) -> anyhow::Result<Vec<u8>> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        // Opening a FIFO for reading waits for a writer unless O_NONBLOCK; on a regular file
        // the flag changes nothing.
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options
        .open(path)
        .with_context(|| format!("cannot read {what} {}", path.display()))?;
    let meta = file
        .metadata()
        .with_context(|| format!("cannot read {what} {}", path.display()))?;
    if !meta.is_file() {
        let kind = if meta.is_dir() {
            "a folder"
        } else {
            "not a regular file"
        };
        anyhow::bail!("{what} {} is {kind}", path.display());
    }
    read_open(file, &meta, path, limit, what)
}

/// [`read_regular_bounded`] of a UTF-8 text file.
pub fn read_regular_text_bounded(path: &Path, limit: u64, what: &str) -> anyhow::Result<String> {
    utf8_text(read_regular_bounded(path, limit, what)?, path, what)
}

/// At most `limit` bytes of the open `file` (at `path`, `what` in errors; `meta` its metadata).
fn read_open(
    file: std::fs::File,
    meta: &std::fs::Metadata,
    path: &Path,
    limit: u64,
    what: &str,
) -> anyhow::Result<Vec<u8>> {
    use std::io::Read;
    if meta.is_file() && meta.len() > limit {
        anyhow::bail!(
            "{what} {} is larger than {} MiB: not a {what}",
            path.display(),
            limit >> 20
        );
    }
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {what} {}", path.display()))?;
    if bytes.len() as u64 > limit {
        anyhow::bail!(
            "{what} {} is larger than {} MiB: not a {what}",
            path.display(),
            limit >> 20
        );
    }
    Ok(bytes)
}

/// [`read_bounded`] of a UTF-8 text file.
pub fn read_text_bounded(path: &Path, limit: u64, what: &str) -> anyhow::Result<String> {
    utf8_text(read_bounded(path, limit, what)?, path, what)
}

/// `bytes` read from `path` as text, or an error saying it is not UTF-8.
fn utf8_text(bytes: Vec<u8>, path: &Path, what: &str) -> anyhow::Result<String> {
    String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{what} {} is not UTF-8 text: {}",
            path.display(),
            e.utf8_error()
        )
    })
}

/// Whether an error of a read (its root cause) says that the file is not there.
pub fn is_not_found(e: &anyhow::Error) -> bool {
    e.root_cause()
        .downcast_ref::<std::io::Error>()
        .is_some_and(|e| e.kind() == std::io::ErrorKind::NotFound)
}

/// The folder a path lives in (`.` for a bare file name).
pub fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Syncs a folder, so that renames and new files in it are on disk.
pub fn sync_dir(dir: &Path) -> anyhow::Result<()> {
    #[cfg(unix)]
    std::fs::File::open(dir)
        .and_then(|f| f.sync_all())
        .with_context(|| format!("cannot sync {}", dir.display()))?;
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn an_output_path_may_be_a_regular_file_or_nothing_but_never_a_link_folder_or_device() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("out.svg");
        check_output_path(&file).unwrap();
        check_output_path(&dir.path().join("new/folder/out.svg")).unwrap();
        write_atomic(&file, b"x").unwrap();
        check_output_path(&file).unwrap();
        let link = dir.path().join("link.svg");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        let err = |p: &Path| check_output_path(p).unwrap_err().to_string();
        assert!(err(&link).ends_with("is a symbolic link: refusing to write over it"));
        assert!(err(dir.path()).ends_with("is a folder: refusing to write over it"));
        assert!(
            err(Path::new("/dev/null"))
                .ends_with("is not a regular file: refusing to write over it")
        );
        assert!(write_atomic(&link, b"y").is_err());
        assert!(
            std::fs::symlink_metadata(&link).unwrap().is_symlink(),
            "the link is still there"
        );
        assert!(err(&file.join("below")).contains("is not a folder"));
    }

    #[cfg(unix)]
    #[test]
    fn regular_file_reads_refuse_a_fifo_at_once_and_read_files() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("eval-0099.kiba");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        // On a thread, so that a read that waits for a writer fails the test instead of hanging.
        let (tx, rx) = std::sync::mpsc::channel();
        let path = fifo.clone();
        std::thread::spawn(move || {
            let _ = tx.send(read_regular_text_bounded(&path, limits::TEXT, "records"));
        });
        let err = rx
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("the read of a FIFO returns")
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            format!("records {} is not a regular file", fifo.display())
        );
        let err = read_regular_bounded(dir.path(), 10, "run file").unwrap_err();
        assert!(err.to_string().contains("is a folder"), "{err}");
        let file = dir.path().join("meta.json");
        std::fs::write(&file, "{}").unwrap();
        assert_eq!(
            read_regular_text_bounded(&file, 10, "run file").unwrap(),
            "{}"
        );
        assert!(read_regular_bounded(&file, 1, "run file").is_err());
    }

    #[test]
    fn bounded_reads_stop_at_the_bound() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, vec![b'x'; 3 << 20]).unwrap();
        assert_eq!(
            read_bounded(&path, 3 << 20, "config").unwrap().len(),
            3 << 20
        );
        let err = read_bounded(&path, 2 << 20, "config")
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            format!(
                "config {} is larger than 2 MiB: not a config",
                path.display()
            )
        );
        #[cfg(unix)]
        assert_eq!(
            read_bounded(Path::new("/dev/zero"), limits::NETWORK, "player file")
                .unwrap_err()
                .to_string(),
            "player file /dev/zero is a device, not a player file"
        );
        std::fs::write(&path, b"\xff").unwrap();
        let err = read_text_bounded(&path, 10, "rules file")
            .unwrap_err()
            .to_string();
        assert!(err.contains("is not UTF-8 text"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn a_refused_read_says_whether_nothing_is_there() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("entry.json");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let err = read_regular_bounded(&fifo, 1 << 20, "cache file").unwrap_err();
        assert!(err.to_string().ends_with("is not a regular file"), "{err}");
        assert!(!is_not_found(&err));
        let missing = read_regular_bounded(&dir.path().join("none"), 10, "cache file").unwrap_err();
        assert!(is_not_found(&missing), "{missing:#}");
    }

    #[cfg(unix)]
    #[test]
    fn atomic_writes_make_ordinary_readable_files() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("chart.svg");
        write_atomic(&path, b"<svg/>").unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o644);
        assert_eq!(std::fs::read(&path).unwrap(), b"<svg/>");
        // Overwriting keeps it so, and leaves no temporary file behind.
        write_atomic(&path, b"<svg></svg>").unwrap();
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
