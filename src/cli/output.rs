//! Where a command's result goes: standard output (no `--output`, or `--output -`) or a file
//! written atomically. The path is checked before any work, so a long solve never ends in
//! "no such directory".

use std::io::Write;
use std::path::{Path, PathBuf};
use vcalloc::{Error, InputError, Location};

/// A checked `--output` destination.
#[derive(Debug, Clone)]
pub enum Output {
    /// Standard output: the result alone (a command's human summary goes to stderr).
    Stdout,
    /// A regular file, replaced atomically: written to a temporary file in the same folder,
    /// synced, then renamed over it, so a reader (or a crash) sees the old file or the new,
    /// never a half-written one.
    File(PathBuf),
    /// Something that is not a regular file (a FIFO, `/dev/null`, a symlink): written in
    /// place, since renaming over it would replace it.
    Stream(PathBuf),
}

fn bad(path: &Path, why: String) -> Error {
    InputError::new(
        "<arguments>",
        Location::Argument("--output".into()),
        path.display().to_string(),
        why,
    )
    .into()
}

impl Output {
    /// The destination of `--output PATH` (`None` and `-`: standard output), checked now:
    /// its folder must exist and take a new file, and the path must not be a folder.
    pub fn check(path: Option<&Path>) -> vcalloc::Result<Output> {
        let Some(path) = path else {
            return Ok(Output::Stdout);
        };
        if vcalloc::input::is_stdio(path) || path == Path::new("/dev/stdout") {
            return Ok(Output::Stdout);
        }
        if let Ok(m) = std::fs::symlink_metadata(path) {
            if m.is_dir() {
                return Err(bad(path, "is a folder; give a file name".into()));
            }
            if !m.is_file() {
                return Ok(Output::Stream(path.to_path_buf()));
            }
        }
        let dir = folder_of(path);
        match std::fs::metadata(&dir) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => return Err(bad(path, format!("`{}` is not a folder", dir.display()))),
            Err(e) => {
                return Err(bad(
                    path,
                    format!("the folder `{}` cannot be used: {e}", dir.display()),
                ))
            }
        }
        // Proves the folder takes a new file (permissions, read-only mounts) before the work.
        drop(Staged::new(path).map_err(|e| {
            bad(
                path,
                format!("cannot create a file in `{}`: {e}", dir.display()),
            )
        })?);
        Ok(Output::File(path.to_path_buf()))
    }

    /// True when the result goes to standard output (human text then belongs on stderr).
    pub fn is_stdout(&self) -> bool {
        matches!(self, Output::Stdout)
    }

    /// Writes `bytes` to the destination.
    pub fn write(&self, bytes: &[u8]) -> vcalloc::Result<()> {
        match self {
            Output::Stdout => {
                let mut out = std::io::stdout().lock();
                out.write_all(bytes)
                    .and_then(|()| out.flush())
                    .map_err(Error::io(Path::new("<stdout>")))
            }
            Output::Stream(p) => std::fs::write(p, bytes).map_err(Error::io(p)),
            Output::File(p) => {
                let staged = Staged::new(p).map_err(Error::io(p))?;
                std::fs::write(staged.path(), bytes).map_err(Error::io(p))?;
                staged.commit()
            }
        }
    }

    /// A temporary file for a writer that wants a path (a family's tool), published by
    /// [`Staged::commit`]: renamed over the destination, or copied to standard output.
    pub fn staged(&self) -> vcalloc::Result<Staged> {
        let target = match self {
            Output::Stdout => Path::new("-"),
            Output::File(p) | Output::Stream(p) => p,
        };
        Staged::new(target).map_err(Error::io(target))
    }
}

/// The folder a path's file lives in (`.` for a bare name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// A temporary file beside its destination (in the system's temporary folder for standard
/// output or a stream); dropped without [`Staged::commit`], it is removed.
pub struct Staged {
    temp: PathBuf,
    target: PathBuf,
}

impl Staged {
    fn new(target: &Path) -> std::io::Result<Staged> {
        let regular = !vcalloc::input::is_stdio(target)
            && std::fs::symlink_metadata(target).map_or(true, |m| m.is_file());
        let dir = if regular {
            folder_of(target)
        } else {
            std::env::temp_dir()
        };
        let name = target
            .file_name()
            .map_or("out".into(), |n| n.to_string_lossy());
        let pid = std::process::id();
        for k in 0u32.. {
            let temp = dir.join(format!(".{name}.{pid}.{k}.tmp"));
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&temp)
            {
                Ok(_) => {
                    return Ok(Staged {
                        temp,
                        target: target.to_path_buf(),
                    })
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && k < 1000 => {}
                Err(e) => return Err(e),
            }
        }
        unreachable!("the loop returns")
    }

    /// Where the writer writes.
    pub fn path(&self) -> &Path {
        &self.temp
    }

    /// Publishes what was written: synced and renamed over the destination (a regular file),
    /// or copied (standard output, a FIFO, a device).
    pub fn commit(self) -> vcalloc::Result<()> {
        let target = &self.target;
        let regular = !vcalloc::input::is_stdio(target)
            && std::fs::symlink_metadata(target).map_or(true, |m| m.is_file());
        if !regular {
            let bytes = std::fs::read(&self.temp).map_err(Error::io(target))?;
            return match vcalloc::input::is_stdio(target) {
                true => Output::Stdout.write(&bytes),
                false => std::fs::write(target, bytes).map_err(Error::io(target)),
            };
        }
        std::fs::File::open(&self.temp)
            .and_then(|f| f.sync_all())
            .and_then(|()| std::fs::rename(&self.temp, target))
            .map_err(Error::io(target))
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        // After a commit's rename there is nothing left to remove.
        let _ = std::fs::remove_file(&self.temp);
    }
}
