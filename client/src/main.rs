//! `shipgate-client`: the thin command-line client of the shipgate daemon.
//! Parses flags, talks gRPC, prints. Starts the daemon when none answers.

mod agent_mode;
mod connect;

use clap::{Args, Parser, Subcommand};
use connect::{connect, connect_existing, Target};
use shipgate_proto::v1::{self as pb, OutputFormat};
use shipgate_proto::{ERROR_KIND_METADATA, ERROR_MESSAGE_METADATA};
use std::path::PathBuf;
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
shipgate-client diff --application --base main --scope app --json\n  shipgate-client watch .\n  shipgate-client status"
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
        after_help = "Exit codes: 0 for any comparison (read comparison_status: compared, partial, \
not_established); 2 for bad input (unknown ref, bad scope, not a repository); 1 when the daemon cannot be reached."
    )]
    Diff(DiffArgs),
    /// List the commits of a branch's first-parent history that changed an agent's bindings.
    #[command(
        after_help = "Each commit is compared with its first parent; what a commit changed is indexed, so a repeated or extended query reads only new commits. Tool lists reordered between commits are shown beside the rows (never as a binding change).

Examples:
  shipgate-client history --workspace . --agent support --tool refund
  shipgate-client history --since v1.2 --until main --json"
    )]
    History(HistoryArgs),
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
}

#[derive(Args)]
struct DiffArgs {
    /// Compare the application's agents (required, as with agents-shipgate)
    #[arg(long)]
    application: bool,
    /// Any path inside the git checkout
    #[arg(long, default_value = ".")]
    workspace: PathBuf,
    /// Base ref, compared from its merge base with the head [default: origin/HEAD, origin/main, origin/master; main/master without remotes]
    #[arg(long)]
    base: Option<String>,
    /// Head ref; committed state only [default: HEAD]
    #[arg(long)]
    head: Option<String>,
    /// Repository-relative application directory (`.` = the root)
    #[arg(long)]
    scope: Option<String>,
    /// The application's old directory when it moved (requires --scope)
    #[arg(long)]
    base_scope: Option<String>,
    /// Bound on Python files read per side [default: 1000]
    #[arg(long)]
    max_python_files: Option<i64>,
    /// Print the JSON document instead of the text
    #[arg(long)]
    json: bool,
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
}

fn usage_error(message: &str) -> ExitCode {
    eprintln!("Usage: shipgate-client diff [OPTIONS]\nTry 'shipgate-client diff --help' for help.\nError: Invalid value: {message}");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
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
        Command::Status { json } => status(&target, json).await,
        Command::Watch { workspace } => watch(&target, workspace, true).await,
        Command::Unwatch { workspace } => watch(&target, workspace, false).await,
        Command::Shutdown => shutdown(&target).await,
    }
}

fn unreachable_daemon(err: String) -> ExitCode {
    eprintln!("shipgate-client: {err}");
    ExitCode::from(1)
}

async fn diff(args: DiffArgs, target: &Target) -> ExitCode {
    let needs_application = args.head.is_some()
        || args.scope.is_some()
        || args.base_scope.is_some()
        || args.max_python_files.is_some();
    if !args.application && needs_application {
        return usage_error(
            "--head, --scope, --base-scope and --max-python-files require --application.",
        );
    }
    if !args.application {
        return usage_error("shipgate compares applications only: pass --application.");
    }
    let max_python_files = match args.max_python_files {
        None => 0,
        Some(n) if n >= 1 => u32::try_from(n).unwrap_or(u32::MAX),
        Some(_) => return usage_error("--max-python-files must be at least 1."),
    };
    let workspace = std::path::absolute(&args.workspace).unwrap_or(args.workspace.clone());
    let request = pb::DiffRequest {
        workspace: workspace.display().to_string(),
        base: args.base.unwrap_or_default(),
        head: args.head.unwrap_or_default(),
        scope: args.scope.unwrap_or_default(),
        base_scope: args.base_scope.unwrap_or_default(),
        max_python_files,
        format: if args.json {
            OutputFormat::Json
        } else {
            OutputFormat::Text
        } as i32,
    };
    let mut client = match connect(target).await {
        Ok(client) => client,
        Err(err) => return unreachable_daemon(err),
    };
    match client.diff(request).await {
        Ok(response) => {
            let response = response.into_inner();
            print!(
                "{}",
                if args.json {
                    &response.json
                } else {
                    &response.text
                }
            );
            ExitCode::from(u8::try_from(response.exit_code).unwrap_or(1))
        }
        Err(status) => {
            let kind = status
                .metadata()
                .get(ERROR_KIND_METADATA)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("");
            match (status.code(), kind) {
                (tonic::Code::InvalidArgument, "usage") => {
                    eprintln!("Usage: shipgate-client diff [OPTIONS]\nTry 'shipgate-client diff --help' for help.");
                    eprintln!("{}", status.message());
                    ExitCode::from(2)
                }
                (tonic::Code::InvalidArgument | tonic::Code::FailedPrecondition, _) => {
                    eprintln!("{}", status.message());
                    if agent_mode::enabled() {
                        let raw = status
                            .metadata()
                            .get_bin(ERROR_MESSAGE_METADATA)
                            .and_then(|v| v.to_bytes().ok())
                            .map(|b| String::from_utf8_lossy(&b).into_owned())
                            .unwrap_or_else(|| status.message().to_string());
                        eprintln!("{}", agent_mode::error_line(kind, &raw));
                    }
                    ExitCode::from(2)
                }
                _ => unreachable_daemon(format!(
                    "the daemon failed the comparison: {}",
                    status.message()
                )),
            }
        }
    }
}

async fn history(args: HistoryArgs, target: &Target) -> ExitCode {
    let workspace = std::path::absolute(&args.workspace).unwrap_or(args.workspace.clone());
    let request = pb::HistoryRequest {
        workspace: workspace.display().to_string(),
        since: args.since.unwrap_or_default(),
        until: args.until.unwrap_or_default(),
        agent: args.agent.unwrap_or_default(),
        tool: args.tool.unwrap_or_default(),
        scope: args.scope.unwrap_or_default(),
        max_python_files: args.max_python_files.unwrap_or(0),
        max_commits: args.max_commits.unwrap_or(0),
        format: if args.json {
            OutputFormat::Json
        } else {
            OutputFormat::Text
        } as i32,
    };
    let mut client = match connect(target).await {
        Ok(client) => client,
        Err(err) => return unreachable_daemon(err),
    };
    let mut stream = match client.history(request).await {
        Ok(response) => response.into_inner(),
        Err(status) => return history_error(&status),
    };
    let mut last_shown = 0;
    loop {
        match stream.message().await {
            Ok(Some(event)) => match event.event {
                Some(pb::history_event::Event::Progress(progress)) => {
                    // A line every tenth of a long walk, on stderr only.
                    let tenth = progress.done * 10 / progress.total.max(1);
                    if !args.quiet && progress.total >= 50 && tenth > last_shown {
                        last_shown = tenth;
                        eprintln!(
                            "shipgate: history: {}/{} commits read",
                            progress.done, progress.total
                        );
                    }
                }
                Some(pb::history_event::Event::Result(result)) => {
                    print!("{}", if args.json { result.json } else { result.text });
                    return ExitCode::SUCCESS;
                }
                None => {}
            },
            Ok(None) => {
                return unreachable_daemon("the daemon ended the history without an answer".into())
            }
            Err(status) => return history_error(&status),
        }
    }
}

fn history_error(status: &tonic::Status) -> ExitCode {
    match status.code() {
        tonic::Code::InvalidArgument | tonic::Code::FailedPrecondition => {
            eprintln!("{}", status.message());
            ExitCode::from(2)
        }
        _ => unreachable_daemon(format!(
            "the daemon failed the history: {}",
            status.message()
        )),
    }
}

async fn status(target: &Target, json: bool) -> ExitCode {
    let mut client = match connect_existing(target).await {
        Ok(client) => client,
        Err(err) => {
            return unreachable_daemon(format!(
                "{err} (start one with any diff, or `shipgate-daemon serve`)"
            ))
        }
    };
    let status = match client.status(pb::StatusRequest {}).await {
        Ok(response) => response.into_inner(),
        Err(status) => return unreachable_daemon(status.message().to_string()),
    };
    if json {
        let repositories: Vec<serde_json::Value> = status
            .repositories
            .iter()
            .map(|r| {
                serde_json::json!({
                    "path": r.path,
                    "indexed": r.indexed.iter().map(|h| serde_json::json!({"reference": h.reference, "commit": h.commit})).collect::<Vec<_>>(),
                    "pending": r.pending,
                    "history_commits": r.history_commits,
                    "last_error": (!r.last_error.is_empty()).then_some(&r.last_error),
                })
            })
            .collect();
        let caches: serde_json::Map<String, serde_json::Value> = status
            .caches
            .iter()
            .map(|c| {
                (
                    c.cache.clone(),
                    serde_json::json!({"hits": c.hits, "misses": c.misses}),
                )
            })
            .collect();
        let doc = serde_json::json!({
            "version": status.version,
            "engine_facts_version": status.engine_facts_version,
            "pid": status.pid,
            "listen": status.listen,
            "uptime_seconds": status.uptime_seconds,
            "store_path": status.store_path,
            "store_size_bytes": status.store_size_bytes,
            "caches": caches,
            "repositories": repositories,
        });
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
        return ExitCode::SUCCESS;
    }
    println!(
        "shipgate-daemon {} (facts v{}), pid {}, up {}s",
        status.version, status.engine_facts_version, status.pid, status.uptime_seconds
    );
    println!("listening on {}", status.listen);
    println!(
        "store: {} ({} bytes)",
        status.store_path, status.store_size_bytes
    );
    for cache in &status.caches {
        println!(
            "cache {}: {} hits, {} misses",
            cache.cache, cache.hits, cache.misses
        );
    }
    if status.repositories.is_empty() {
        println!("watched repositories: none (add one with `shipgate-client watch DIR`)");
    }
    for repo in &status.repositories {
        println!(
            "watching {} ({} pending, history indexed for {} commits)",
            repo.path, repo.pending, repo.history_commits
        );
        for head in &repo.indexed {
            println!(
                "  indexed {} at {}",
                head.reference,
                head.commit.chars().take(12).collect::<String>()
            );
        }
        if !repo.last_error.is_empty() {
            println!("  last error: {}", repo.last_error);
        }
    }
    ExitCode::SUCCESS
}

async fn watch(target: &Target, workspace: PathBuf, add: bool) -> ExitCode {
    let workspace = std::path::absolute(&workspace)
        .unwrap_or(workspace)
        .display()
        .to_string();
    let mut client = match connect(target).await {
        Ok(client) => client,
        Err(err) => return unreachable_daemon(err),
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
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(status) => {
            eprintln!("shipgate-client: {}", status.message());
            ExitCode::from(2)
        }
    }
}

async fn shutdown(target: &Target) -> ExitCode {
    let mut client = match connect_existing(target).await {
        Ok(client) => client,
        Err(err) => {
            println!("no daemon running ({err})");
            return ExitCode::SUCCESS;
        }
    };
    match client.shutdown(pb::ShutdownRequest {}).await {
        Ok(_) => {
            println!("the daemon is flushing its store and exiting");
            ExitCode::SUCCESS
        }
        Err(status) => unreachable_daemon(status.message().to_string()),
    }
}
