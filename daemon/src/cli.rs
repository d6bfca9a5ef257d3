//! The `diff` flags shared by `shipgate-daemon diff` and checked the way the
//! reference CLI checks them, so both binaries refuse the same input.

use crate::engine::DiffRequest;
use crate::error::{field, DiffError, Reason};
use crate::render::OutputFormat;
use std::path::PathBuf;

/// What `--format` takes (the client's flag has the same names and help).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    /// The reviewer text: findings, then the rows (the default)
    Text,
    /// The JSON document of the output contract (as --json)
    Json,
    /// A pull-request comment: findings, rows in a <details> table within GitHub's 65,536 characters, each limit once
    Markdown,
    /// SARIF 2.1.0 for code scanning: one result per row at its binding location
    Sarif,
    /// GitHub Actions annotations (::warning/::notice), one per row with a location; only when asked, never from GITHUB_ACTIONS
    Github,
}

impl FormatArg {
    pub fn format(self) -> OutputFormat {
        match self {
            FormatArg::Text => OutputFormat::Text,
            FormatArg::Json => OutputFormat::Json,
            FormatArg::Markdown => OutputFormat::Markdown,
            FormatArg::Sarif => OutputFormat::Sarif,
            FormatArg::Github => OutputFormat::Github,
        }
    }
}

/// `--format` and its alias `--json` read together: `--json` is `--format
/// json`, and naming another format beside it is a usage error.
pub fn chosen_format(format: Option<FormatArg>, json: bool) -> Result<OutputFormat, String> {
    match (format.map(FormatArg::format), json) {
        (Some(OutputFormat::Json) | None, true) => Ok(OutputFormat::Json),
        (Some(other), true) => Err(format!(
            "--json is --format json; it cannot be combined with --format {}.",
            other.name()
        )),
        (Some(format), false) => Ok(format),
        (None, false) => Ok(OutputFormat::Text),
    }
}

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
    /// Output format [default: text]
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    /// Print the JSON document instead of the text (the same as --format json).
    #[arg(long)]
    pub json: bool,
    /// After the answer, print each phase's wall time on stderr.
    #[arg(long)]
    pub timings: bool,
    /// Compare the working tree (staged, unstaged and untracked .py files) against HEAD, or --base.
    #[arg(long, conflicts_with = "head")]
    pub worktree: bool,
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
        let format = chosen_format(self.format, self.json)
            .map_err(|message| DiffError::usage(Reason::BadFormat, message))?;
        let workspace =
            std::path::absolute(&self.workspace).unwrap_or_else(|_| self.workspace.clone());
        Ok(DiffRequest {
            workspace,
            base: self.base.clone(),
            head: self.head.clone(),
            scope: self.scope.clone(),
            base_scope: self.base_scope.clone(),
            max_python_files,
            format,
            worktree: self.worktree,
        })
    }
}

/// Parses plain seconds or what `humantime` reads (`30s`, `10m`, `2h`,
/// `1h 30m`); a duration past what the clock holds is refused, not wrapped.
pub fn parse_duration(raw: &str) -> Result<std::time::Duration, String> {
    let raw = raw.trim();
    if let Ok(seconds) = raw.parse::<u64>() {
        return Ok(std::time::Duration::from_secs(seconds));
    }
    humantime::parse_duration(raw)
        .map_err(|err| format!("not a duration: {raw:?}: {err} (try 30s, 10m or 1h)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_is_an_alias_of_format_json() {
        assert_eq!(chosen_format(None, false), Ok(OutputFormat::Text));
        assert_eq!(chosen_format(None, true), Ok(OutputFormat::Json));
        assert_eq!(
            chosen_format(Some(FormatArg::Json), true),
            Ok(OutputFormat::Json)
        );
        assert_eq!(
            chosen_format(Some(FormatArg::Sarif), false),
            Ok(OutputFormat::Sarif)
        );
        assert!(chosen_format(Some(FormatArg::Markdown), true).is_err());
    }

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
        assert_eq!(
            parse_duration("1h 30m"),
            Ok(std::time::Duration::from_secs(5400))
        );
        assert!(parse_duration("abc").is_err());
        assert!(parse_duration("5 parsecs").is_err());
        // Past what the clock holds: refused, never wrapped around.
        assert!(parse_duration("9999999999999999999h").is_err());
    }
}
