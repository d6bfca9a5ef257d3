//! `shipgate-client`: the thin command-line client of the shipgate daemon.
//! Parses flags, talks gRPC, prints. Starts the daemon when none answers.

mod agent_mode;
mod audit;
mod connect;
mod errors;
mod manual;
mod status;

use clap::{Args, Parser, Subcommand};
use connect::{connect, connect_existing, ConnectError, Target};
use shipgate_proto::cli::{chosen_format, DiffArgs, InventoryArgs};
use shipgate_proto::v1::{self as pb, OutputFormat};
use shipgate_proto::MAX_FIELD_BYTES;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "shipgate-client",
    version,
    about = "Shows how each AI agent's tools, handoffs and sub-agents change between two commits",
    long_about = "Shows, for a change to a Python repository, how each OpenAI Agents SDK or Google ADK \
agent's capabilities changed: which tools, handoffs and sub-agents it binds at the base and at the head, \
and what could not be established. Talks to a shipgate daemon, starting one on demand; reads git \
objects only and never runs the code under review.",
    after_help = "Examples:\n  shipgate-client diff --application --workspace . --base origin/main --head HEAD\n  \
shipgate-client diff --application --base main --scope app --json\n  \
shipgate-client diff --application --base origin/main --format markdown > comment.md\n  \
shipgate-client diff --application --base origin/main --format sarif > shipgate.sarif\n  \
shipgate-client diff --application --base origin/main --format github\n  shipgate-client watch .\n  shipgate-client status\n\n\
A daemon this client starts inherits its environment: SHIPGATE_REMOTE_CACHE=URL (s3://, gcs://, azblob://, \
redis://, ghac://) shares its cache with a CI fleet, SHIPGATE_REMOTE_CACHE_READ_ONLY=true reads it without \
writing (a fork's pull request); `shipgate-daemon serve --help` says more."
)]
struct Cli {
    #[command(flatten)]
    connection: Connection,
    #[command(subcommand)]
    command: Command,
}

#[derive(Args)]
struct Connection {
    /// Daemon socket [env: SHIPGATE_SOCKET; default: derived from the data directory]
    #[arg(long, global = true)]
    socket: Option<PathBuf>,
    /// TCP daemon address, e.g. http://127.0.0.1:7733 [env: SHIPGATE_ADDR; token from SHIPGATE_TOKEN_FILE]
    #[arg(long, global = true)]
    addr: Option<String>,
    /// Store directory handed to a daemon this client starts [env: SHIPGATE_DATA_DIR]
    #[arg(long, global = true)]
    data_dir: Option<PathBuf>,
    /// Fail instead of starting a daemon when none answers
    #[arg(long, global = true)]
    no_start: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Compare the agents between a base and a head commit (agents-shipgate's flags).
    #[command(
        after_help = "Formats: text for a reviewer; json for scripts; markdown for a pull-request comment; \
sarif for a code-scanning upload; github for annotations in a GitHub Actions step. Annotations are printed only \
with --format github: GITHUB_ACTIONS=true changes no output, so a job keeps the text or JSON it parses.

Exit codes: 0 for any comparison (read comparison_status: compared, partial, \
not_established); 2 for bad input (unknown ref, bad scope, not a repository, a bad policy); 1 when the daemon \
cannot be reached; 3 when a policy is asked for and the answer fails it.

Policy (off unless asked for): --fail-on added,changed,not_established,gate-loosened,new-reach,partial \
exits 3 when the answer holds such a change and names each on stderr (`shipgate: policy: ...`); stdout \
is unchanged. A policy file (--policy FILE, else shipgate.toml at the base commit's root, read from the \
base so a change cannot loosen its own gate) holds the same in TOML, with allow entries for changes \
a team reviewed:

  [policy]
  fail-on = [\"added\", \"gate-loosened\", \"new-reach\"]
  [[policy.allow]]
  agent = \"support\"
  tool = \"refund\"
  conditions = [\"added\"]
  reason = \"reviewed in #412\""
    )]
    Diff(DiffArgs),
    /// List the commits of a branch's first-parent history that changed an agent's bindings.
    #[command(
        after_help = "Each commit is compared with its first parent; what a commit changed is indexed, so a repeated or extended query reads only new commits. Tool lists reordered between commits are shown beside the rows (never as a binding change).

Examples:
  shipgate-client history --workspace . --agent support --tool refund
  shipgate-client history --since v1.2 --until main --json
  shipgate-client history --host claude-code --grant 'Bash('"
    )]
    History(HistoryArgs),
    /// List every agent of a commit: what each binds and reaches, its gates, and what could not be read.
    #[command(
        after_help = "Every application the tree holds is read (as a diff derives its scopes), unless --scope names one. \
Formats: text; json (the inventory document, inventory_schema_version); cyclonedx (a CycloneDX 1.6 BOM: agents and \
tools as components, what each binds as dependencies, reach as properties); markdown.

Examples:
  shipgate-client inventory
  shipgate-client inventory --at v1.2 --scope app --format json
  shipgate-client inventory --format cyclonedx > agents.cdx.json"
    )]
    Inventory(InventoryArgs),
    /// Inventory the coding-agent host grants of the working tree; record a baseline; report drift from it.
    #[command(
        after_help = "Reads the repository's host configuration (Claude Code settings and .mcp.json, Cursor, VS Code, Codex, \
GitHub workflows) from the working tree, or a commit with --at. Markdown by default; --json prints the inventory \
(host_grants_inventory_schema_version 0.7) or, with --drift, the drift document.

Exit codes: 0; 20 with --drift --fail-on-drift when the grants drifted; 2 for bad input (no baseline, a baseline \
not recorded by shipgate); 1 when the daemon cannot be reached.

Examples:
  shipgate-client audit --host
  git checkout main && shipgate-client audit --host --save-baseline && git add .agents-shipgate
  shipgate-client audit --host --drift --fail-on-drift"
    )]
    Audit(audit::AuditArgs),
    /// Show the daemon's version, store, caches and watched repositories.
    Status {
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
    },
    /// Index a repository's branches in the background so diffs against them are warm.
    Watch {
        /// Any path inside the repository
        #[arg(default_value = ".")]
        workspace: PathBuf,
    },
    /// Stop indexing a repository.
    Unwatch {
        #[arg(default_value = ".")]
        workspace: PathBuf,
    },
    /// Ask the daemon to flush its store and exit.
    Shutdown,
    /// Print a completion script for a shell (needs no daemon).
    #[command(
        after_help = "Examples:\n  shipgate-client completions bash > ~/.local/share/bash-completion/completions/shipgate-client\n  shipgate-client completions zsh > \"${fpath[1]}/_shipgate-client\"\n  shipgate-client completions fish > ~/.config/fish/completions/shipgate-client.fish"
    )]
    Completions {
        /// The shell to complete in
        shell: clap_complete::Shell,
    },
    /// Print the manual page, or a subcommand's, as roff (needs no daemon).
    #[command(
        after_help = "Examples:\n  shipgate-client man > shipgate-client.1 && man ./shipgate-client.1\n  shipgate-client man diff > shipgate-client-diff.1"
    )]
    Man {
        /// A subcommand (`diff`, `history`, …): its own page
        subcommand: Option<String>,
    },
}

#[derive(Args)]
struct HistoryArgs {
    /// Any path inside the git checkout
    #[arg(long, default_value = ".")]
    workspace: PathBuf,
    /// Oldest end, exclusive (a commit on the first-parent chain) [default: the root commit]
    #[arg(long)]
    since: Option<String>,
    /// Newest end, inclusive [default: HEAD]
    #[arg(long)]
    until: Option<String>,
    /// Only rows of this agent
    #[arg(long)]
    agent: Option<String>,
    /// Only rows of this tool (or handoff target)
    #[arg(long)]
    tool: Option<String>,
    /// Repository-relative directory to read (`.` = every application) [default: .]
    #[arg(long)]
    scope: Option<String>,
    /// Bound on commits walked [default: 10000]
    #[arg(long)]
    max_commits: Option<u32>,
    /// Bound on Python files read per commit [default: 1000]
    #[arg(long)]
    max_python_files: Option<u32>,
    /// Print the JSON document instead of the text
    #[arg(long)]
    json: bool,
    /// Do not print progress on stderr
    #[arg(long)]
    quiet: bool,
    /// Commits that changed a coding-agent host grant instead (MCP servers, permission rules, hooks, workflow
    /// permissions); with a value, only that host's: claude-code, codex, cursor, vscode, github
    #[arg(long, num_args = 0..=1, default_missing_value = ALL_HOSTS, value_name = "HOST")]
    host: Option<String>,
    /// With --host: only grants naming this text (a rule, a server, a setting)
    #[arg(long)]
    grant: Option<String>,
}

/// What `--host` without a value stands for.
const ALL_HOSTS: &str = "all";

fn usage_error(command: &str, message: &str) -> ExitCode {
    eprintln!("Usage: shipgate-client {command} [OPTIONS]\nTry 'shipgate-client {command} --help' for help.\nError: Invalid value: {message}");
    ExitCode::from(2)
}

/// Writes to stdout. A reader that went away (`status | head -1`) is no
/// failure of ours: the rest is dropped quietly and the command keeps its
/// own exit code, so a pipeline reads the answer's code, not 141 or a
/// panic. Any other write error (a full disk) loses output: reported, 1.
fn out(text: &str) -> Result<(), ExitCode> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => Ok(()),
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(err) => {
            eprintln!("shipgate-client: cannot write the output: {err}");
            Err(ExitCode::from(1))
        }
    }
}

/// `out`, then the command's exit code (or 1 when the output was lost).
fn print_then(text: &str, code: ExitCode) -> ExitCode {
    out(text).err().unwrap_or(code)
}

/// The request's workspace: absolute (the daemon has its own working
/// directory) and UTF-8, since the request field is a protobuf string and a
/// lossy copy would name another path (reported as missing).
fn workspace_field(path: &Path) -> Result<String, String> {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    absolute.to_str().map(str::to_string).ok_or_else(|| {
        format!(
            "the workspace path is not valid UTF-8: {}; the daemon takes UTF-8 paths",
            absolute.display()
        )
    })
}

/// Refuses an argument longer than any real ref, path or name before it is
/// sent (the daemon refuses it too); `fields` pairs each flag with its value.
fn check_lengths(fields: &[(&str, &str)]) -> Result<(), String> {
    match fields
        .iter()
        .find(|(_, value)| value.len() > MAX_FIELD_BYTES)
    {
        Some((flag, _)) => Err(format!("{flag} is longer than {MAX_FIELD_BYTES} bytes")),
        None => Ok(()),
    }
}

/// A connection error as the exit: 1, with the reason.
fn connect_failed(err: ConnectError) -> ExitCode {
    unreachable_daemon(err.to_string())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // What needs no daemon is answered before any connection.
    match cli.command {
        Command::Completions { shell } => {
            return print_then(&manual::completions::<Cli>(shell), ExitCode::SUCCESS)
        }
        Command::Man { subcommand } => {
            return match manual::man_page::<Cli>(subcommand.as_deref()) {
                Ok(page) => print_then(&page, ExitCode::SUCCESS),
                Err(err) => usage_error("man", &err),
            }
        }
        _ => {}
    }
    let target = Target::resolve(
        cli.connection.socket,
        cli.connection.addr,
        cli.connection.data_dir,
        cli.connection.no_start,
    );
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("shipgate-client: cannot start the async runtime: {err}");
            return ExitCode::from(1);
        }
    };
    runtime.block_on(run(cli.command, target))
}

async fn run(command: Command, target: Target) -> ExitCode {
    match command {
        Command::Diff(args) => diff(args, &target).await,
        Command::History(args) => history(args, &target).await,
        Command::Inventory(args) => inventory(args, &target).await,
        Command::Audit(args) => audit::audit(args, &target).await,
        Command::Status { json } => status(&target, json).await,
        Command::Watch { workspace } => watch(&target, workspace, true).await,
        Command::Unwatch { workspace } => watch(&target, workspace, false).await,
        Command::Shutdown => shutdown(&target).await,
        // Answered in `main`, before any connection.
        Command::Completions { .. } | Command::Man { .. } => ExitCode::SUCCESS,
    }
}

fn unreachable_daemon(err: String) -> ExitCode {
    eprintln!("shipgate-client: {err}");
    ExitCode::from(1)
}

async fn diff(args: DiffArgs, target: &Target) -> ExitCode {
    if !args.application {
        return host_diff(args, target).await;
    }
    let max_python_files = match args.max_python_files {
        None => 0,
        Some(n) if n >= 1 => u32::try_from(n).unwrap_or(u32::MAX),
        Some(_) => return usage_error("diff", "--max-python-files must be at least 1."),
    };
    let format = match chosen_format(args.format, args.json) {
        Ok(format) => format,
        Err(message) => return usage_error("diff", &message),
    };
    let request = match diff_request(&args, max_python_files, format) {
        Ok(request) => request,
        Err(message) => return usage_error("diff", &message),
    };
    let mut client = match connect(target).await {
        Ok(client) => client,
        Err(err) => return connect_failed(err),
    };
    let mut request = tonic::Request::new(request);
    if let Some(timeout) = args.timeout {
        // Sent as `grpc-timeout`: the daemon stops the work by then and
        // answers DEADLINE_EXCEEDED (`service/admission.rs`).
        request.set_timeout(timeout);
    }
    match client.diff(request).await {
        Ok(response) => {
            let response = response.into_inner();
            let code = ExitCode::from(u8::try_from(response.exit_code).unwrap_or(1));
            let answer = if format == OutputFormat::Json {
                &response.json
            } else {
                &response.text
            };
            // Every rendering has at least a line; none means a daemon
            // from before this format, which ignored what it did not know.
            if answer.is_empty() {
                return unreachable_daemon(
                    "the daemon answered without the rendering asked for; it is older than this \
client: stop it (`shipgate-client shutdown`) and run again"
                        .into(),
                );
            }
            let code = print_then(answer, code);
            if args.timings {
                eprintln!(
                    "{}",
                    shipgate_proto::timings_line(&response.timings, response.answer_kept)
                );
            }
            if let Some(verdict) = &response.policy {
                eprint!("{}", verdict.report);
            }
            code
        }
        Err(status) => diff_error(&status),
    }
}

/// `diff` without `--application`: what the change does to the
/// coding-agent hosts' configuration (issue 42).
async fn host_diff(args: DiffArgs, target: &Target) -> ExitCode {
    if let Err((_, message)) = shipgate_proto::cli::host_diff_checks(&args) {
        return usage_error("diff", &message);
    }
    let format = match chosen_format(args.format, args.json) {
        Ok(format) => format,
        Err(message) => return usage_error("diff", &message),
    };
    let json = format == OutputFormat::Json;
    let text = |value: &Option<String>| value.clone().unwrap_or_default();
    let request = pb::HostDiffRequest {
        workspace: match workspace_field(&args.workspace) {
            Ok(workspace) => workspace,
            Err(message) => return usage_error("diff", &message),
        },
        base: text(&args.base),
        head: text(&args.head),
        staged: args.staged,
        format: format as i32,
    };
    if let Err(message) = check_lengths(&[
        ("--workspace", &request.workspace),
        ("--base", &request.base),
        ("--head", &request.head),
    ]) {
        return usage_error("diff", &message);
    }
    let mut client = match connect(target).await {
        Ok(client) => client,
        Err(err) => return connect_failed(err),
    };
    let mut request = tonic::Request::new(request);
    if let Some(timeout) = args.timeout {
        request.set_timeout(timeout);
    }
    match client.host_diff(request).await {
        Ok(response) => {
            let response = response.into_inner();
            let answer = if json { &response.json } else { &response.text };
            print_then(answer, ExitCode::SUCCESS)
        }
        Err(status) => diff_error(&status),
    }
}

/// The diff request, once its strings are fit to send.
fn diff_request(
    args: &DiffArgs,
    max_python_files: u32,
    format: OutputFormat,
) -> Result<pb::DiffRequest, String> {
    let text = |value: &Option<String>| value.clone().unwrap_or_default();
    let request = pb::DiffRequest {
        workspace: workspace_field(&args.workspace)?,
        base: text(&args.base),
        head: text(&args.head),
        scope: text(&args.scope),
        base_scope: text(&args.base_scope),
        max_python_files,
        format: format as i32,
        timings: args.timings,
        worktree: args.worktree,
        staged: args.staged,
        all: args.all,
        fail_on: args.fail_on.clone(),
        policy: match &args.policy {
            Some(path) => shipgate_proto::cli::read_policy_file(path)?,
            None => String::new(),
        },
        policy_source: args
            .policy
            .as_ref()
            .map(|path| path.display().to_string())
            .unwrap_or_default(),
        no_policy: args.no_policy,
    };
    check_lengths(&[
        ("--workspace", &request.workspace),
        ("--base", &request.base),
        ("--head", &request.head),
        ("--scope", &request.scope),
        ("--base-scope", &request.base_scope),
    ])?;
    Ok(request)
}

fn diff_error(status: &tonic::Status) -> ExitCode {
    let failure = errors::read(status);
    match (status.code(), failure.kind.as_str()) {
        (tonic::Code::InvalidArgument, "usage") => {
            eprintln!("Usage: shipgate-client diff [OPTIONS]\nTry 'shipgate-client diff --help' for help.");
            eprintln!("{}", failure.line);
            ExitCode::from(2)
        }
        (tonic::Code::InvalidArgument | tonic::Code::FailedPrecondition, kind) => {
            eprintln!("{}", failure.line);
            if agent_mode::enabled() {
                eprintln!("{}", agent_mode::error_line(kind, &failure.bare));
            }
            ExitCode::from(2)
        }
        _ => unreachable_daemon(format!(
            "the daemon failed the comparison: {}",
            status.message()
        )),
    }
}

async fn inventory(args: InventoryArgs, target: &Target) -> ExitCode {
    let format = args.wire_format();
    if args.max_python_files == Some(0) {
        return usage_error("inventory", "--max-python-files must be at least 1.");
    }
    let text = |value: &Option<String>| value.clone().unwrap_or_default();
    let request = match workspace_field(&args.workspace).and_then(|workspace| {
        let request = pb::InventoryRequest {
            workspace,
            at: text(&args.at),
            scope: text(&args.scope),
            max_python_files: args.max_python_files.unwrap_or(0),
            format: format as i32,
        };
        check_lengths(&[
            ("--workspace", &request.workspace),
            ("--at", &request.at),
            ("--scope", &request.scope),
        ])
        .map(|()| request)
    }) {
        Ok(request) => request,
        Err(message) => return usage_error("inventory", &message),
    };
    let mut client = match connect(target).await {
        Ok(client) => client,
        Err(err) => return connect_failed(err),
    };
    match client.inventory(request).await {
        Ok(response) => {
            let response = response.into_inner();
            let answer = if format == pb::InventoryFormat::Json {
                response.json
            } else {
                response.text
            };
            print_then(&answer, ExitCode::SUCCESS)
        }
        Err(status) => call_error("inventory", &status),
    }
}

async fn history(args: HistoryArgs, target: &Target) -> ExitCode {
    let request = match history_request(&args) {
        Ok(request) => request,
        Err(message) => return usage_error("history", &message),
    };
    let mut client = match connect(target).await {
        Ok(client) => client,
        Err(err) => return connect_failed(err),
    };
    let mut stream = match client.history(request).await {
        Ok(response) => response.into_inner(),
        Err(status) => return call_error("history", &status),
    };
    let started = std::time::Instant::now();
    let mut last_shown = started;
    loop {
        match stream.message().await {
            Ok(Some(event)) => match event.event {
                Some(pb::history_response::Event::Progress(progress)) => {
                    // A line a second on a long walk, from the first
                    // second on, on stderr only.
                    let now = std::time::Instant::now();
                    let due = now.duration_since(last_shown) >= std::time::Duration::from_secs(1);
                    if !args.quiet && progress.total >= 50 && due {
                        last_shown = now;
                        eprintln!("{}", progress_line(&progress, now - started));
                    }
                }
                Some(pb::history_response::Event::Result(result)) => {
                    let text = if args.json { result.json } else { result.text };
                    return print_then(&text, ExitCode::SUCCESS);
                }
                None => {}
            },
            Ok(None) => {
                return unreachable_daemon("the daemon ended the history without an answer".into())
            }
            Err(status) => return call_error("history", &status),
        }
    }
}

/// `shipgate: history: 120/2000 commits read (60/s, about 32 s left)`,
/// with the rate and time left the daemon computed; a daemon that sends
/// neither (an older one: `elapsed_ms` is 0) has them computed here from
/// the time since the stream began.
fn progress_line(progress: &pb::HistoryProgress, since_start: std::time::Duration) -> String {
    let (done, total) = (u64::from(progress.done), u64::from(progress.total));
    let (rate, seconds_left) = if progress.elapsed_ms > 0 {
        (
            progress.commits_per_second,
            u64::from(progress.seconds_left),
        )
    } else {
        shipgate_proto::rate_and_time_left(done, total, since_start)
    };
    let eta = if rate > 0.0 {
        format!(", about {seconds_left} s left")
    } else {
        String::new()
    };
    format!(
        "shipgate: history: {done}/{total} commits read ({}/s{eta})",
        rate.round() as u64
    )
}

/// The history request, once its strings are fit to send.
fn history_request(args: &HistoryArgs) -> Result<pb::HistoryRequest, String> {
    let text = |value: &Option<String>| value.clone().unwrap_or_default();
    let request = pb::HistoryRequest {
        workspace: workspace_field(&args.workspace)?,
        since: text(&args.since),
        until: text(&args.until),
        agent: text(&args.agent),
        tool: text(&args.tool),
        scope: text(&args.scope),
        max_python_files: args.max_python_files.unwrap_or(0),
        max_commits: args.max_commits.unwrap_or(0),
        format: if args.json {
            OutputFormat::Json
        } else {
            OutputFormat::Text
        } as i32,
        host: args.host.is_some(),
        host_name: args
            .host
            .clone()
            .filter(|h| h != ALL_HOSTS)
            .unwrap_or_default(),
        grant: text(&args.grant),
    };
    if args.host.is_none() && args.grant.is_some() {
        return Err("--grant filters host grants: pass --host.".into());
    }
    if args.host.is_some() && (args.agent.is_some() || args.tool.is_some() || args.scope.is_some())
    {
        return Err(
            "--agent, --tool and --scope filter agents' bindings; --host asks for host grants."
                .into(),
        );
    }
    check_lengths(&[
        ("--workspace", &request.workspace),
        ("--grant", &request.grant),
        ("--since", &request.since),
        ("--until", &request.until),
        ("--agent", &request.agent),
        ("--tool", &request.tool),
        ("--scope", &request.scope),
    ])?;
    Ok(request)
}

/// A failed `history` or `inventory` call as the exit: 2 for bad input
/// (the daemon's message with the flags named), 1 otherwise.
fn call_error(what: &str, status: &tonic::Status) -> ExitCode {
    match status.code() {
        tonic::Code::InvalidArgument | tonic::Code::FailedPrecondition => {
            eprintln!("{}", errors::read(status).line);
            ExitCode::from(2)
        }
        tonic::Code::Unimplemented => unreachable_daemon(format!(
            "the daemon has no {what}; it is older than this client: stop it \
(`shipgate-client shutdown`) and run again"
        )),
        _ => unreachable_daemon(format!(
            "the daemon failed the {what}: {}",
            status.message()
        )),
    }
}

async fn status(target: &Target, json: bool) -> ExitCode {
    let mut client = match connect_existing(target).await {
        Ok(client) => client,
        Err(ConnectError::Unreachable(err)) => {
            return unreachable_daemon(format!(
                "{err} (start one with any diff, or `shipgate-daemon serve`)"
            ))
        }
        Err(refused) => return connect_failed(refused),
    };
    let status = match client.status(pb::StatusRequest {}).await {
        Ok(response) => response.into_inner(),
        Err(status) => return unreachable_daemon(status.message().to_string()),
    };
    let text = if json {
        status::to_json(&status)
    } else {
        status::to_text(&status)
    };
    print_then(&text, ExitCode::SUCCESS)
}

async fn watch(target: &Target, workspace: PathBuf, add: bool) -> ExitCode {
    let command = if add { "watch" } else { "unwatch" };
    let workspace = match workspace_field(&workspace)
        .and_then(|field| check_lengths(&[("WORKSPACE", &field)]).map(|()| field))
    {
        Ok(workspace) => workspace,
        Err(message) => return usage_error(command, &message),
    };
    let mut client = match connect(target).await {
        Ok(client) => client,
        Err(err) => return connect_failed(err),
    };
    let result = if add {
        client.watch(pb::WatchRequest { workspace }).await.map(|r| {
            format!(
                "watching {} (branches are indexed in the background)",
                r.into_inner().repository
            )
        })
    } else {
        client
            .unwatch(pb::UnwatchRequest { workspace })
            .await
            .map(|r| {
                let r = r.into_inner();
                if r.was_watched {
                    format!("no longer watching {}", r.repository)
                } else {
                    format!("{} was not watched", r.repository)
                }
            })
    };
    match result {
        Ok(line) => print_then(&format!("{line}\n"), ExitCode::SUCCESS),
        Err(status) => {
            eprintln!("shipgate-client: {}", status.message());
            ExitCode::from(2)
        }
    }
}

async fn shutdown(target: &Target) -> ExitCode {
    let mut client = match connect_existing(target).await {
        Ok(client) => client,
        Err(ConnectError::Unreachable(err)) => {
            return print_then(&format!("no daemon running ({err})\n"), ExitCode::SUCCESS)
        }
        Err(refused) => return connect_failed(refused),
    };
    match client.shutdown(pb::ShutdownRequest {}).await {
        Ok(_) => print_then(
            "the daemon is flushing its store and exiting\n",
            ExitCode::SUCCESS,
        ),
        Err(status) => unreachable_daemon(status.message().to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::progress_line;
    use shipgate_proto::v1::HistoryProgress;

    use std::time::Duration;

    fn progress(done: u32, total: u32) -> HistoryProgress {
        HistoryProgress {
            done,
            total,
            ..HistoryProgress::default()
        }
    }

    #[test]
    fn progress_names_the_rate_and_what_is_left() {
        // An older daemon's event: computed from the stream's start.
        assert_eq!(
            progress_line(&progress(120, 2000), Duration::from_secs(2)),
            "shipgate: history: 120/2000 commits read (60/s, about 32 s left)"
        );
        // Nothing read yet: no rate to tell the time left by.
        assert_eq!(
            progress_line(&progress(0, 2000), Duration::from_secs(1)),
            "shipgate: history: 0/2000 commits read (0/s)"
        );
    }

    #[test]
    fn progress_uses_the_daemons_rate_and_time_left() {
        let from_daemon = HistoryProgress {
            commits_per_second: 40.4,
            seconds_left: 47,
            elapsed_ms: 2970,
            ..progress(120, 2000)
        };
        // The client's own clock (10 s) is not used.
        assert_eq!(
            progress_line(&from_daemon, Duration::from_secs(10)),
            "shipgate: history: 120/2000 commits read (40/s, about 47 s left)"
        );
    }
}
