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
/// directory (`$XDG_CACHE_HOME/shipgate`, `~/.cache/shipgate`), else a
/// per-user temporary directory.
pub fn default_data_dir() -> PathBuf {
    if let Some(dir) = non_empty_env(DATA_DIR_ENV) {
        return PathBuf::from(dir);
    }
    if let Some(cache) = non_empty_env("XDG_CACHE_HOME") {
        return PathBuf::from(cache).join("shipgate");
    }
    if let Some(home) = non_empty_env("HOME") {
        return PathBuf::from(home).join(".cache").join("shipgate");
    }
    std::env::temp_dir()
        .join(format!("shipgate-{}", user_id()))
        .join("data")
}

/// The default socket of the daemon serving `data_dir`: in the user's
/// runtime directory (or a per-user temporary one), named by a short hash
/// of the store path so that two stores never share a daemon.
pub fn default_socket(data_dir: &Path) -> PathBuf {
    let runtime = match non_empty_env("XDG_RUNTIME_DIR") {
        Some(dir) => PathBuf::from(dir).join("shipgate"),
        None => std::env::temp_dir().join(format!("shipgate-{}", user_id())),
    };
    let canonical = data_dir
        .canonicalize()
        .unwrap_or_else(|_| data_dir.to_path_buf());
    runtime.join(format!(
        "{}.sock",
        short_hash(canonical.as_os_str().as_encoded_bytes())
    ))
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
    }
}
