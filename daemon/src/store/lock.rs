//! One daemon per data directory: an advisory lock on `daemon.lock`, holding
//! the owner's pid so that a refusal can say who holds it.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Held for the daemon's lifetime; released when dropped (or when the
/// process dies, so a crashed daemon never blocks the next one).
#[derive(Debug)]
pub struct DataDirLock {
    _file: File,
    pub path: PathBuf,
}

impl DataDirLock {
    pub fn acquire(data_dir: &Path) -> Result<Self, String> {
        std::fs::create_dir_all(data_dir).map_err(|err| {
            format!(
                "cannot create the data directory {}: {err}",
                data_dir.display()
            )
        })?;
        let path = data_dir.join("daemon.lock");
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|err| format!("cannot open {}: {err}", path.display()))?;
        if file.try_lock().is_err() {
            let mut holder = String::new();
            let _ = file.read_to_string(&mut holder);
            let holder = holder.trim();
            let who = if holder.is_empty() {
                "another process".to_string()
            } else {
                format!("pid {holder}")
            };
            return Err(format!(
                "another shipgate daemon ({who}) already serves the data directory {}; stop it with `shipgate-client shutdown` or pick another --data-dir",
                data_dir.display()
            ));
        }
        let _ = file.set_len(0);
        let _ = file.seek(SeekFrom::Start(0));
        let _ = write!(file, "{}", std::process::id());
        let _ = file.flush();
        Ok(DataDirLock { _file: file, path })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_with_the_holder() -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let first = DataDirLock::acquire(dir.path())?;
        let Err(second) = DataDirLock::acquire(dir.path()) else {
            return Err("a second lock was granted".into());
        };
        assert!(
            second.contains(&format!("pid {}", std::process::id())),
            "{second}"
        );
        drop(first);
        assert!(DataDirLock::acquire(dir.path()).is_ok());
        Ok(())
    }
}
