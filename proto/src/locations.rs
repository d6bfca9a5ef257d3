//! Where the daemon keeps its store and listens, agreed on by daemon and
//! client so that a client finds the daemon of the store it names.

use std::path::{Path, PathBuf};

/// Names the store directory; handed to a daemon the client starts.
pub const DATA_DIR_ENV: &str = "SHIPGATE_DATA_DIR";
/// Names the daemon's Unix socket.
pub const SOCKET_ENV: &str = "SHIPGATE_SOCKET";
/// Names a TCP daemon (`http://host:port`); then a token is required.
pub const ADDR_ENV: &str = "SHIPGATE_ADDR";
/// Names the file holding the bearer token for a TCP daemon.
pub const TOKEN_FILE_ENV: &str = "SHIPGATE_TOKEN_FILE";
/// Names the daemon executable the client starts.
pub const DAEMON_ENV: &str = "SHIPGATE_DAEMON";

/// The store directory: `$SHIPGATE_DATA_DIR`, else the user's cache
/// directory as `dirs` finds it (`$XDG_CACHE_HOME/shipgate` when absolute,
/// `~/.cache/shipgate` on Linux, `~/Library/Caches/shipgate` on macOS),
/// else a per-user temporary directory.
pub fn default_data_dir() -> PathBuf {
    if let Some(dir) = non_empty_env(DATA_DIR_ENV) {
        return PathBuf::from(dir);
    }
    if let Some(cache) = dirs::cache_dir() {
        return cache.join("shipgate");
    }
    std::env::temp_dir()
        .join(format!("shipgate-{}", user_id()))
        .join("data")
}

/// The default socket of the daemon serving `data_dir`: in the user's
/// runtime directory (or a per-user temporary one), named by a short hash
/// of the store path so that two stores never share a daemon.
pub fn default_socket(data_dir: &Path) -> PathBuf {
    let runtime = default_socket_dir();
    let canonical = data_dir
        .canonicalize()
        .unwrap_or_else(|_| data_dir.to_path_buf());
    runtime.join(format!(
        "{}.sock",
        short_hash(canonical.as_os_str().as_encoded_bytes())
    ))
}

/// The directory of default sockets: the user's runtime directory as
/// `dirs` finds it (`$XDG_RUNTIME_DIR/shipgate`, when absolute), else
/// `/tmp/shipgate-<uid>`. Anyone can predict (and so create first) that
/// name, so it is used only when private: see [`ensure_socket_dir`].
pub fn default_socket_dir() -> PathBuf {
    match dirs::runtime_dir() {
        Some(dir) => dir.join("shipgate"),
        None => std::env::temp_dir().join(format!("shipgate-{}", user_id())),
    }
}

/// Whether `socket` lies directly in the default socket directory, however
/// it was named (derived, `--socket` or `$SHIPGATE_SOCKET`).
pub fn in_default_socket_dir(socket: &Path) -> bool {
    socket.parent() == Some(default_socket_dir().as_path())
}

/// Why a socket directory cannot be trusted with our socket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SocketDirError {
    /// A symlink or a file: whoever made it can point it elsewhere.
    NotADirectory { dir: PathBuf },
    /// Made by someone else, who may listen there in our place.
    NotOurs {
        dir: PathBuf,
        owner: u32,
        mode: u32,
        me: u32,
    },
    /// Ours, but others may replace the socket in it.
    Shared { dir: PathBuf, owner: u32, mode: u32 },
    /// It could not be created or inspected.
    Unreadable { dir: PathBuf, reason: String },
}

impl std::fmt::Display for SocketDirError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SocketDirError::NotADirectory { dir } => write!(
                f,
                "the socket directory {} is not a directory (a symlink or a file): refusing to use it; \
remove it so that shipgate creates its own, or pass --socket (or set {SOCKET_ENV}) elsewhere",
                dir.display()
            ),
            SocketDirError::NotOurs { dir, owner, mode, me } => write!(
                f,
                "the socket directory {} belongs to uid {owner} (mode {mode:04o}), not to you (uid {me}): \
another user may have made it to stand in for your daemon; remove it (as its owner or root), \
or pass --socket (or set {SOCKET_ENV}) elsewhere",
                dir.display()
            ),
            SocketDirError::Shared { dir, owner, mode } => write!(
                f,
                "the socket directory {} (owner uid {owner}, mode {mode:04o}) is writable by other users, \
who could replace the daemon's socket with their own; make it private (chmod 700 {}) or remove it",
                dir.display(),
                dir.display()
            ),
            SocketDirError::Unreadable { dir, reason } => {
                write!(f, "cannot use the socket directory {}: {reason}", dir.display())
            }
        }
    }
}

impl std::error::Error for SocketDirError {}

/// Makes sure the default socket directory is ours alone: created private
/// (0700) when missing; one that already exists is checked, never chmodded,
/// since it may belong to someone else or be shared on purpose.
pub fn ensure_socket_dir(dir: &Path) -> Result<(), SocketDirError> {
    use std::os::unix::fs::DirBuilderExt;
    let created = std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir);
    // Something in the way (a file, a symlink) is best named by the check.
    check_socket_dir(dir)?;
    created.map_err(|err| SocketDirError::Unreadable {
        dir: dir.to_path_buf(),
        reason: format!("cannot create it: {err}"),
    })
}

/// Checks an existing socket directory: a real directory, owned by us, not
/// writable by group or others. A missing one passes: there is nothing
/// there yet to talk to, and the daemon creates it private.
pub fn check_socket_dir(dir: &Path) -> Result<(), SocketDirError> {
    use std::os::unix::fs::MetadataExt;
    // Not following a symlink: its target could be swapped after the check.
    let meta = match std::fs::symlink_metadata(dir) {
        Ok(meta) => meta,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(err) => {
            return Err(SocketDirError::Unreadable {
                dir: dir.to_path_buf(),
                reason: err.to_string(),
            })
        }
    };
    judge_socket_dir(
        dir,
        meta.is_dir(),
        meta.uid(),
        meta.mode(),
        effective_user_id(),
    )
}

/// The rule itself, apart from the file system (and so testable).
fn judge_socket_dir(
    dir: &Path,
    is_dir: bool,
    owner: u32,
    mode: u32,
    me: u32,
) -> Result<(), SocketDirError> {
    let dir = dir.to_path_buf();
    let mode = mode & 0o7777;
    if !is_dir {
        Err(SocketDirError::NotADirectory { dir })
    } else if owner != me {
        Err(SocketDirError::NotOurs {
            dir,
            owner,
            mode,
            me,
        })
    } else if mode & 0o022 != 0 {
        Err(SocketDirError::Shared { dir, owner, mode })
    } else {
        Ok(())
    }
}

fn effective_user_id() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

fn non_empty_env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

fn user_id() -> u32 {
    // SAFETY: getuid has no preconditions and cannot fail.
    unsafe { libc::getuid() }
}

/// FNV-1a, 48 bits in hex: short enough for socket paths (108-byte limit).
fn short_hash(bytes: &[u8]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in bytes {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{:012x}", hash & 0xffff_ffff_ffff)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sockets_differ_per_store() {
        let a = default_socket(Path::new("/nonexistent/a"));
        let b = default_socket(Path::new("/nonexistent/b"));
        assert_ne!(a, b);
        assert!(a.to_string_lossy().ends_with(".sock"));
        assert!(in_default_socket_dir(&a));
        assert!(!in_default_socket_dir(Path::new("/elsewhere/x.sock")));
    }

    #[test]
    fn only_a_private_directory_of_ours_is_trusted() {
        let dir = Path::new("/run/x");
        assert_eq!(judge_socket_dir(dir, true, 1000, 0o40700, 1000), Ok(()));
        assert_eq!(judge_socket_dir(dir, true, 1000, 0o40755, 1000), Ok(()));
        assert!(matches!(
            judge_socket_dir(dir, true, 1001, 0o40700, 1000),
            Err(SocketDirError::NotOurs { owner: 1001, .. })
        ));
        assert!(matches!(
            judge_socket_dir(dir, true, 1000, 0o40777, 1000),
            Err(SocketDirError::Shared { mode: 0o777, .. })
        ));
        assert!(matches!(
            judge_socket_dir(dir, true, 1000, 0o40770, 1000),
            Err(SocketDirError::Shared { .. })
        ));
        assert!(matches!(
            judge_socket_dir(dir, false, 1000, 0o120777, 1000),
            Err(SocketDirError::NotADirectory { .. })
        ));
    }

    #[test]
    fn a_missing_directory_is_created_private_and_an_open_one_left_alone() {
        use std::os::unix::fs::PermissionsExt;
        let base = std::env::temp_dir().join(format!("shipgate-proto-test-{}", std::process::id()));
        let fresh = base.join("fresh");
        assert_eq!(ensure_socket_dir(&fresh), Ok(()));
        let mode = |p: &Path| std::fs::metadata(p).map(|m| m.permissions().mode() & 0o7777);
        assert_eq!(mode(&fresh).ok(), Some(0o700));
        let open = base.join("open");
        std::fs::create_dir(&open).ok();
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).ok();
        assert!(matches!(
            ensure_socket_dir(&open),
            Err(SocketDirError::Shared { .. })
        ));
        assert_eq!(mode(&open).ok(), Some(0o777));
        assert_eq!(check_socket_dir(&base.join("missing")), Ok(()));
        let _ = std::fs::remove_dir_all(&base);
    }
}
