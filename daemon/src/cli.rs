//! The `diff` flags of `shipgate-daemon diff` (`shipgate_proto::cli`, the
//! same definition the client parses) checked the way the reference CLI
//! checks them, so both binaries refuse the same input.

use crate::engine::{DiffRequest, HostDiffRequest};
use crate::error::{field, DiffError, Reason};
use crate::policy::{PolicyRequest, PolicyText};
use crate::render::OutputFormat;
use shipgate_proto::cli::chosen_format;
pub use shipgate_proto::cli::DiffArgs;

/// Checks the flag combination and makes the engine request.
pub fn diff_request(args: &DiffArgs) -> Result<DiffRequest, DiffError> {
    let needs_application = args.head.is_some()
        || args.scope.is_some()
        || args.base_scope.is_some()
        || args.max_python_files.is_some();
    if !args.application && needs_application {
        return Err(DiffError::usage(
            Reason::ApplicationRequired,
            "--head, --scope, --base-scope and --max-python-files require --application.",
        ));
    }
    if !args.application {
        return Err(DiffError::usage(
            Reason::ApplicationRequired,
            "shipgate compares applications only: pass --application.",
        ));
    }
    let max_python_files = match args.max_python_files {
        None => None,
        Some(n) if n >= 1 => Some(u32::try_from(n).unwrap_or(u32::MAX)),
        Some(n) => {
            return Err(DiffError::usage(Reason::BadLimit, "must be at least 1.")
                .about(field::MAX_PYTHON_FILES, n.to_string()));
        }
    };
    let format = chosen_format(args.format, args.json)
        .map(OutputFormat::from_wire)
        .map_err(|message| DiffError::usage(Reason::BadFormat, message))?;
    let workspace = std::path::absolute(&args.workspace).unwrap_or_else(|_| args.workspace.clone());
    Ok(DiffRequest {
        workspace,
        base: args.base.clone(),
        head: args.head.clone(),
        scope: args.scope.clone(),
        base_scope: args.base_scope.clone(),
        max_python_files,
        format,
        worktree: args.worktree,
        staged: args.staged,
        all: args.all,
    })
}

/// The flags of `diff` without `--application` (a host comparison,
/// issue 42), checked (`shipgate_proto::cli::host_diff_format`) and made
/// the engine request.
pub fn host_diff_request(args: &DiffArgs) -> Result<HostDiffRequest, DiffError> {
    let format = chosen_format(args.format, args.json)
        .map(OutputFormat::from_wire)
        .map_err(|message| DiffError::usage(Reason::BadFormat, message))?;
    shipgate_proto::cli::host_diff_checks(args)
        .map_err(|(reason, message)| DiffError::usage(reason, message))?;
    let workspace = std::path::absolute(&args.workspace).unwrap_or_else(|_| args.workspace.clone());
    Ok(HostDiffRequest {
        workspace,
        base: args.base.clone(),
        head: args.head.clone(),
        staged: args.staged,
        format,
    })
}

/// What the flags ask of the policy: `--fail-on`, `--policy FILE` (read
/// here), `--no-policy`.
pub fn policy_request(args: &DiffArgs) -> Result<PolicyRequest, DiffError> {
    let file = match &args.policy {
        Some(path) => Some(PolicyText {
            text: shipgate_proto::cli::read_policy_file(path).map_err(|why| {
                DiffError::usage(Reason::BadPolicy, why).about_field(field::POLICY)
            })?,
            source: path.display().to_string(),
        }),
        None => None,
    };
    Ok(PolicyRequest {
        fail_on: args.fail_on.clone(),
        file,
        off: args.no_policy,
    })
}

pub use shipgate_proto::cli::parse_duration;

#[cfg(test)]
mod tests {
    use super::*;

    /// The shared flags (`shipgate_proto::cli`) parsed as the daemon's
    /// command line parses them.
    fn parsed(args: &[&str]) -> Result<DiffRequest, DiffError> {
        #[derive(clap::Parser)]
        struct Line {
            #[command(flatten)]
            diff: DiffArgs,
        }
        use clap::Parser as _;
        let line = Line::try_parse_from(std::iter::once("diff").chain(args.iter().copied()))
            .map_err(|err| DiffError::usage(Reason::BadFormat, err.to_string()))?;
        diff_request(&line.diff)
    }

    #[test]
    fn the_flags_become_the_engine_request_or_a_named_refusal() {
        let request = parsed(&["--application", "--json", "--worktree"]);
        assert_eq!(
            request.as_ref().map(|r| r.format).ok(),
            Some(OutputFormat::Json)
        );
        assert_eq!(request.as_ref().map(|r| r.worktree).ok(), Some(true));
        let both = parsed(&["--application", "--json", "--format", "markdown"]);
        assert_eq!(both.err().map(|e| e.reason()), Some(Reason::BadFormat));
        let no_application = parsed(&["--scope", "app"]);
        assert_eq!(
            no_application.err().map(|e| e.reason()),
            Some(Reason::ApplicationRequired)
        );
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

/// The fleet's secret that signs remote values (environment only).
pub const REMOTE_CACHE_KEY_VARIABLE: &str = "SHIPGATE_REMOTE_CACHE_KEY";

/// The remote cache's flags (issue 44), the same on `serve` and the
/// one-shot commands; each has an environment variable, which a daemon the
/// client starts on demand inherits.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct RemoteCacheArgs {
    /// A cache shared with other daemons: s3://BUCKET/PREFIX?region=R[&endpoint=URL],
    /// gcs://BUCKET/PREFIX, azblob://CONTAINER/PREFIX?account_name=A&endpoint=URL,
    /// redis://HOST:PORT[/DB/PREFIX] or ghac:// (the GitHub Actions cache);
    /// credentials from the backend's usual environment variables; a
    /// secret in SHIPGATE_REMOTE_CACHE_KEY signs what the fleet writes and
    /// refuses what anyone else wrote
    #[arg(long, env = "SHIPGATE_REMOTE_CACHE", value_name = "URL")]
    pub remote_cache: Option<String>,
    /// Read the remote cache, never write it (runners of untrusted code: a
    /// fork's pull request)
    #[arg(long, env = "SHIPGATE_REMOTE_CACHE_READ_ONLY")]
    pub remote_cache_read_only: bool,
    /// One remote read's deadline; past it the read is a miss and the work
    /// is done here [default: 2s]
    #[arg(long, env = "SHIPGATE_REMOTE_CACHE_TIMEOUT", value_name = "DURATION",
          value_parser = shipgate_proto::cli::parse_duration)]
    pub remote_cache_timeout: Option<std::time::Duration>,
}

impl RemoteCacheArgs {
    /// The remote tier asked for, if any (an empty URL is none); a URL
    /// that cannot be one is refused with its secrets masked.
    pub fn options(&self) -> Result<Option<crate::store::RemoteOptions>, String> {
        let Some(url) = self
            .remote_cache
            .as_deref()
            .filter(|url| !url.trim().is_empty())
        else {
            return Ok(None);
        };
        let location = crate::store::remote::RemoteLocation::parse(url)
            .map_err(|err| format!("--remote-cache: {err}"))?;
        Ok(Some(crate::store::RemoteOptions {
            location,
            read_only: self.remote_cache_read_only,
            deadline: self
                .remote_cache_timeout
                .filter(|deadline| !deadline.is_zero())
                .unwrap_or(crate::store::remote::DEFAULT_DEADLINE),
            // A secret is read from the environment only: a flag's value
            // is visible to every user of the machine (`ps`).
            key: std::env::var(REMOTE_CACHE_KEY_VARIABLE)
                .ok()
                .filter(|secret| !secret.is_empty())
                .map(|secret| crate::store::remote::FleetKey::from_secret(&secret))
                .unwrap_or_default(),
        }))
    }
}
