//! The `diff` flags shared by `shipgate-daemon diff` and checked the way the
//! reference CLI checks them, so both binaries refuse the same input.

use crate::engine::DiffRequest;
use crate::error::{field, DiffError, Reason};
use std::path::PathBuf;

/// The reference tool's `diff --application` flags.
#[derive(Debug, Clone, clap::Args)]
pub struct DiffArgs {
    /// Compare the agents' capabilities (the only comparison shipgate makes;
    /// accepted so CI scripts switch by renaming the program).
    #[arg(long)]
    pub application: bool,
    /// Any path inside the git checkout.
    #[arg(long, default_value = ".")]
    pub workspace: PathBuf,
    /// Base ref; compared from its merge base with the head. Default: origin/HEAD,
    /// origin/main, origin/master (main/master without remotes).
    #[arg(long)]
    pub base: Option<String>,
    /// Head ref (committed state only).
    #[arg(long)]
    pub head: Option<String>,
    /// Repository-relative application directory (`.` = root).
    #[arg(long)]
    pub scope: Option<String>,
    /// The application's old directory when it moved (requires --scope).
    #[arg(long)]
    pub base_scope: Option<String>,
    /// Bound on Python files read per side.
    #[arg(long)]
    pub max_python_files: Option<i64>,
    /// Print the JSON document instead of the text.
    #[arg(long)]
    pub json: bool,
    /// After the answer, print each phase's wall time on stderr.
    #[arg(long)]
    pub timings: bool,
}

impl DiffArgs {
    /// Checks the flag combination and makes the engine request.
    pub fn to_request(&self) -> Result<DiffRequest, DiffError> {
        let needs_application = self.head.is_some()
            || self.scope.is_some()
            || self.base_scope.is_some()
            || self.max_python_files.is_some();
        if !self.application && needs_application {
            return Err(DiffError::usage(
                Reason::ApplicationRequired,
                "--head, --scope, --base-scope and --max-python-files require --application.",
            ));
        }
        if !self.application {
            return Err(DiffError::usage(
                Reason::ApplicationRequired,
                "shipgate compares applications only: pass --application.",
            ));
        }
        let max_python_files = match self.max_python_files {
            None => None,
            Some(n) if n >= 1 => Some(u32::try_from(n).unwrap_or(u32::MAX)),
            Some(n) => {
                return Err(DiffError::usage(Reason::BadLimit, "must be at least 1.")
                    .about(field::MAX_PYTHON_FILES, n.to_string()));
            }
        };
        let workspace =
            std::path::absolute(&self.workspace).unwrap_or_else(|_| self.workspace.clone());
        Ok(DiffRequest {
            workspace,
            base: self.base.clone(),
            head: self.head.clone(),
            scope: self.scope.clone(),
            base_scope: self.base_scope.clone(),
            max_python_files,
            want_text: !self.json,
        })
    }
}

/// Parses `30s`, `10m`, `2h` or plain seconds.
pub fn parse_duration(raw: &str) -> Result<std::time::Duration, String> {
    let raw = raw.trim();
    let (digits, unit) = raw.split_at(raw.find(|c: char| !c.is_ascii_digit()).unwrap_or(raw.len()));
    let value: u64 = digits
        .parse()
        .map_err(|_| format!("not a duration: {raw:?} (try 30s, 10m or 1h)"))?;
    let seconds = match unit {
        "" | "s" => value,
        "m" => value * 60,
        "h" => value * 3600,
        _ => return Err(format!("unknown unit in {raw:?}: use s, m or h")),
    };
    Ok(std::time::Duration::from_secs(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse() {
        assert_eq!(
            parse_duration("30s"),
            Ok(std::time::Duration::from_secs(30))
        );
        assert_eq!(
            parse_duration("10m"),
            Ok(std::time::Duration::from_secs(600))
        );
        assert_eq!(parse_duration("5"), Ok(std::time::Duration::from_secs(5)));
        assert!(parse_duration("abc").is_err());
        assert!(parse_duration("5d").is_err());
    }
}
