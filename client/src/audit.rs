//! `audit --host` (issue 42): the coding-agent host grants of the
//! working tree, a baseline a team records and commits, and the drift of
//! the current grants from it. The daemon reads and compares; the
//! baseline file is read and written here, by the user's own process, so
//! the daemon never writes into a repository.

use super::{
    call_error, check_lengths, connect, connect_failed, print_then, usage_error, workspace_field,
};
use crate::connect::Target;
use clap::Args;
use shipgate_proto::v1::{self as pb, OutputFormat};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The exit code of `--drift --fail-on-drift` when the grants drifted
/// (the reference's).
const DRIFT_EXIT: u8 = 20;

/// The largest baseline file read.
const MAX_BASELINE_BYTES: u64 = 32 * 1024 * 1024;

#[derive(Args)]
pub struct AuditArgs {
    /// Inventory coding-agent host grants (MCP servers, permission rules, hooks, workflow scopes)
    #[arg(long)]
    host: bool,
    /// Any path inside the git checkout
    #[arg(long, default_value = ".")]
    workspace: PathBuf,
    /// Static inventory scope: `repository` (the only one: user and managed configuration outside the repository is not read)
    #[arg(long, default_value = "repository")]
    scope: String,
    /// A commit to inventory instead of the working tree
    #[arg(long)]
    at: Option<String>,
    /// Record the current inventory as the acknowledged baseline (writes --baseline-file)
    #[arg(long, conflicts_with = "drift")]
    save_baseline: bool,
    /// Compare the current grants with the saved baseline and report drift
    #[arg(long)]
    drift: bool,
    /// The baseline, relative to the repository's root unless absolute
    #[arg(long, default_value = ".agents-shipgate/host-grants.json")]
    baseline_file: PathBuf,
    /// With --drift: exit 20 when any drift is found (for scheduled CI gates)
    #[arg(long)]
    fail_on_drift: bool,
    /// Print JSON instead of markdown
    #[arg(long)]
    json: bool,
    /// Also write the JSON to this file (a path relative to the current directory)
    #[arg(long)]
    out: Option<PathBuf>,
}

pub async fn audit(args: AuditArgs, target: &Target) -> ExitCode {
    if !args.host {
        return usage_error(
            "audit",
            "audit inventories coding-agent host grants: pass --host.",
        );
    }
    if args.scope != "repository" {
        return usage_error(
            "audit",
            "--scope repository is the only scope: shipgate reads the repository's git objects, never user or managed configuration on this machine.",
        );
    }
    if args.fail_on_drift && !args.drift {
        return usage_error("audit", "--fail-on-drift requires --drift.");
    }
    if args.out.as_deref().is_some_and(Path::is_dir) {
        return usage_error("audit", "--out names a directory; give a file path.");
    }
    let workspace = match workspace_field(&args.workspace) {
        Ok(workspace) => workspace,
        Err(message) => return usage_error("audit", &message),
    };
    let at = args.at.clone().unwrap_or_default();
    if let Err(message) = check_lengths(&[("--workspace", &workspace), ("--at", &at)]) {
        return usage_error("audit", &message);
    }
    let mut client = match connect(target).await {
        Ok(client) => client,
        Err(err) => return connect_failed(err),
    };
    let format = if args.json {
        OutputFormat::Json
    } else {
        OutputFormat::Text
    };
    let mut request = pb::HostAuditRequest {
        workspace,
        at,
        baseline: String::new(),
        baseline_file: args.baseline_file.display().to_string(),
        format: format as i32,
    };
    if args.drift {
        // The root is the daemon's answer: ask for it first, cheaply.
        let root = match client.host_audit(request.clone()).await {
            Ok(response) => PathBuf::from(response.into_inner().root),
            Err(status) => return call_error("audit", &status),
        };
        let path = root.join(&args.baseline_file);
        request.baseline = match read_baseline(&path) {
            Ok(text) => text,
            Err(why) => {
                eprintln!(
                    "No readable host-grants baseline at {} ({why}). Record one on the base ref with `shipgate-client audit --host --save-baseline`.",
                    path.display()
                );
                return ExitCode::from(2);
            }
        };
    }
    let response = match client.host_audit(request).await {
        Ok(response) => response.into_inner(),
        Err(status) => return call_error("audit", &status),
    };
    if let Some(out) = &args.out {
        if let Err(err) = std::fs::write(out, &response.json) {
            eprintln!("shipgate-client: cannot write {}: {err}", out.display());
            return ExitCode::from(2);
        }
    }
    if args.save_baseline {
        let path = Path::new(&response.root).join(&args.baseline_file);
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&path, &response.baseline));
        if let Err(err) = written {
            eprintln!(
                "shipgate-client: cannot write the baseline {}: {err}",
                path.display()
            );
            return ExitCode::from(2);
        }
        let digest: String = response.baseline_sha256.chars().take(12).collect();
        return print_then(
            &format!(
                "Host-grants baseline created: {} (sha256 {digest}…). Commit it, so drift is measured against what the team acknowledged.\n",
                args.baseline_file.display()
            ),
            ExitCode::SUCCESS,
        );
    }
    let answer = if args.json {
        &response.json
    } else {
        &response.markdown
    };
    let code = if args.fail_on_drift && response.has_drift {
        ExitCode::from(DRIFT_EXIT)
    } else {
        ExitCode::SUCCESS
    };
    print_then(answer, code)
}

fn read_baseline(path: &Path) -> Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|err| err.to_string())?;
    if meta.len() > MAX_BASELINE_BYTES {
        return Err(format!("it is larger than {MAX_BASELINE_BYTES} bytes"));
    }
    std::fs::read_to_string(path).map_err(|err| err.to_string())
}
