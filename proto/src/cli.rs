//! The `diff` flags of both binaries (`shipgate-client diff` and
//! `shipgate-daemon diff`), defined once so their names, help and checks
//! never drift apart: each binary turns them into its own request.

use crate::v1::OutputFormat;
use std::path::PathBuf;

/// What `--format` takes; the daemon renders each, the client only prints.
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
    /// The format as the request carries it.
    pub fn wire(self) -> OutputFormat {
        match self {
            FormatArg::Text => OutputFormat::Text,
            FormatArg::Json => OutputFormat::Json,
            FormatArg::Markdown => OutputFormat::Markdown,
            FormatArg::Sarif => OutputFormat::Sarif,
            FormatArg::Github => OutputFormat::Github,
        }
    }
}

/// The name `--format` spells a format by (`sarif`).
pub fn format_name(format: OutputFormat) -> String {
    format
        .as_str_name()
        .trim_start_matches("OUTPUT_FORMAT_")
        .to_lowercase()
}

/// `--format` and its alias `--json` read together: `--json` is `--format
/// json`, and naming another format beside it is a usage error.
pub fn chosen_format(format: Option<FormatArg>, json: bool) -> Result<OutputFormat, String> {
    match (format.map(FormatArg::wire), json) {
        (Some(OutputFormat::Json) | None, true) => Ok(OutputFormat::Json),
        (Some(other), true) => Err(format!(
            "--json is --format json; it cannot be combined with --format {}.",
            format_name(other)
        )),
        (Some(format), false) => Ok(format),
        (None, false) => Ok(OutputFormat::Text),
    }
}

/// The flags of `diff` without `--application` (a host comparison)
/// checked as both binaries check them: the application's flags and the
/// policy's are refused.
pub fn host_diff_checks(args: &DiffArgs) -> Result<(), (crate::errors::Reason, String)> {
    use crate::errors::Reason;
    if args.scope.is_some() || args.base_scope.is_some() || args.max_python_files.is_some() {
        return Err((
            Reason::ApplicationRequired,
            "--scope, --base-scope and --max-python-files require --application.".into(),
        ));
    }
    if !args.fail_on.is_empty() || args.policy.is_some() {
        return Err((
            Reason::ApplicationRequired,
            "--fail-on and --policy gate application rows: pass --application.".into(),
        ));
    }
    Ok(())
}

/// The reference tool's `diff --application` flags, and shipgate's own.
#[derive(Debug, Clone, clap::Args)]
pub struct DiffArgs {
    /// Compare the application's agents (required, as with agents-shipgate)
    #[arg(long)]
    pub application: bool,
    /// Any path inside the git checkout
    #[arg(long, default_value = ".")]
    pub workspace: PathBuf,
    /// Base ref, compared from its merge base with the head [default: origin/HEAD, origin/main, origin/master; main/master without remotes; HEAD with --worktree]
    #[arg(long)]
    pub base: Option<String>,
    /// Head ref; committed state only (see --worktree) [default: HEAD]
    #[arg(long)]
    pub head: Option<String>,
    /// Repository-relative application directory (`.` = the root)
    #[arg(long)]
    pub scope: Option<String>,
    /// The application's old directory when it moved (requires --scope)
    #[arg(long)]
    pub base_scope: Option<String>,
    /// Bound on Python files read per side [default: 1000]
    #[arg(long)]
    pub max_python_files: Option<i64>,
    /// Output format [default: text]
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    /// Print the JSON document instead of the text (the same as --format json)
    #[arg(long)]
    pub json: bool,
    /// After the answer, print each phase's wall time on stderr (as the daemon measured it)
    #[arg(long)]
    pub timings: bool,
    /// Compare the working tree (staged, unstaged and untracked .py files) against HEAD, or --base
    #[arg(long, conflicts_with = "head")]
    pub worktree: bool,
    /// Compare what is staged (the index, as the next commit takes it) against HEAD, or --base: what a pre-commit hook checks
    #[arg(long, conflicts_with_all = ["head", "worktree"])]
    pub staged: bool,
    /// Exit 3 when the answer holds such a change, and name each on stderr (comma-separated: added, changed, not_established, gate-loosened, new-reach, partial) [default: the policy file's fail-on, else none]
    #[arg(long, value_name = "CONDITIONS", value_delimiter = ',', value_parser = condition_name)]
    pub fail_on: Vec<String>,
    /// The policy file (TOML with a [policy] table: fail-on, [[policy.allow]] entries) [default: shipgate.toml at the base commit's root, if it has one]
    #[arg(long, value_name = "FILE", conflicts_with = "no_policy")]
    pub policy: Option<PathBuf>,
    /// Apply no policy: ignore shipgate.toml at the base (and exit 0 for any comparison, as agents-shipgate does)
    #[arg(long, conflicts_with = "fail_on")]
    pub no_policy: bool,
    /// With --application: also compare the coding-agent hosts' configuration between the same revisions, one document with both halves
    #[arg(long, requires = "application")]
    pub all: bool,
    /// Give up after this long (30s, 10m): the daemon stops the comparison and says so (exit 1) [default: the daemon's --request-timeout, 10m]
    #[arg(long, value_parser = parse_duration)]
    pub timeout: Option<std::time::Duration>,
}

/// One `--fail-on` name, checked as it is parsed (so a typo is a usage
/// error before any work), kept as spelled: the daemon reads it again.
fn condition_name(raw: &str) -> Result<String, String> {
    crate::policy::parse_conditions(&[raw]).map(|_| raw.trim().to_string())
}

/// The most of a policy file a command line reads and sends: a real one
/// is a few lines; a larger file is refused, not cut.
pub const MAX_POLICY_BYTES: u64 = 64 * 1024;

/// A `--policy` file's text, as a command line sends it; a file that
/// cannot be read, is too large or is not UTF-8 is refused with the path.
pub fn read_policy_file(path: &std::path::Path) -> Result<String, String> {
    use std::io::Read;
    let file = std::fs::File::open(path)
        .map_err(|err| format!("the policy file {} cannot be read: {err}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(MAX_POLICY_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|err| format!("the policy file {} cannot be read: {err}", path.display()))?;
    if bytes.len() as u64 > MAX_POLICY_BYTES {
        return Err(format!(
            "the policy file {} is larger than {MAX_POLICY_BYTES} bytes",
            path.display()
        ));
    }
    String::from_utf8(bytes)
        .map_err(|_| format!("the policy file {} is not UTF-8 text", path.display()))
}

/// The `inventory` flags of both binaries.
#[derive(Debug, Clone, clap::Args)]
pub struct InventoryArgs {
    /// Any path inside the git checkout
    #[arg(long, default_value = ".")]
    pub workspace: PathBuf,
    /// The commit to read [default: HEAD]
    #[arg(long)]
    pub at: Option<String>,
    /// Repository-relative directory to read as one application [default: every application]
    #[arg(long)]
    pub scope: Option<String>,
    /// Bound on Python files read per application [default: 1000]
    #[arg(long)]
    pub max_python_files: Option<u32>,
    /// Output format [default: text]
    #[arg(long, value_enum)]
    pub format: Option<InventoryFormatArg>,
    /// The same as --format json
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
}

/// What `inventory --format` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum InventoryFormatArg {
    /// One block per agent (the default)
    Text,
    /// The inventory document
    Json,
    /// A CycloneDX 1.6 BOM
    Cyclonedx,
    /// A markdown report: a table of agents, then each agent's bindings
    Markdown,
}

impl InventoryArgs {
    /// The format asked for, as the request carries it (`--json` is
    /// `--format json`).
    pub fn wire_format(&self) -> crate::v1::InventoryFormat {
        use crate::v1::InventoryFormat as Wire;
        match (self.format, self.json) {
            (_, true) | (Some(InventoryFormatArg::Json), _) => Wire::Json,
            (Some(InventoryFormatArg::Cyclonedx), _) => Wire::Cyclonedx,
            (Some(InventoryFormatArg::Markdown), _) => Wire::Markdown,
            (Some(InventoryFormatArg::Text) | None, _) => Wire::Text,
        }
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
            chosen_format(Some(FormatArg::Github), false),
            Ok(OutputFormat::Github)
        );
        assert_eq!(
            chosen_format(Some(FormatArg::Sarif), true),
            Err("--json is --format json; it cannot be combined with --format sarif.".to_string())
        );
    }
}
