//! The tonic service: validates requests, runs the engine off the async
//! executor, answers errors as rich statuses (`status.rs`). Holds no
//! analysis logic.

use crate::engine::{DiffRequest as EngineRequest, Engine};
use crate::error::{field, DiffError, Reason};
use crate::index::Indexer;
use shipgate_proto::v1::{self as pb, shipgate_server::Shipgate};
use status::{check_lengths, from_diff_error, panicked, task_failed};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::watch;
use tonic::{Request, Response, Status};

pub mod admission;
mod progress;
pub mod status;

/// When the daemon last answered, and how many requests are in flight: the
/// idle timer reads both.
#[derive(Debug)]
pub struct Activity {
    started: Instant,
    last_millis: AtomicU64,
    in_flight: AtomicUsize,
}

impl Activity {
    pub fn new() -> Self {
        Activity {
            started: Instant::now(),
            last_millis: AtomicU64::new(0),
            in_flight: AtomicUsize::new(0),
        }
    }

    fn touch(&self) {
        let now = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last_millis.store(now, Ordering::Relaxed);
    }

    /// Time since the last request ended, or zero while one runs.
    pub fn idle_for(&self) -> std::time::Duration {
        if self.in_flight.load(Ordering::Relaxed) > 0 {
            return std::time::Duration::ZERO;
        }
        let last = std::time::Duration::from_millis(self.last_millis.load(Ordering::Relaxed));
        self.started.elapsed().saturating_sub(last)
    }

    pub fn uptime(&self) -> std::time::Duration {
        self.started.elapsed()
    }

    fn begin(self: &Arc<Self>) -> InFlight {
        self.in_flight.fetch_add(1, Ordering::Relaxed);
        self.touch();
        InFlight(Arc::clone(self))
    }
}

impl Default for Activity {
    fn default() -> Self {
        Self::new()
    }
}

/// Marks a request in flight until dropped.
struct InFlight(Arc<Activity>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.touch();
        self.0.in_flight.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The `shipgate.v1.Shipgate` service.
pub struct ShipgateService {
    pub engine: Arc<Engine>,
    pub indexer: Arc<Indexer>,
    pub activity: Arc<Activity>,
    pub listen: String,
    pub shutdown: watch::Sender<bool>,
    /// One slot per core and the lane for cheap comparisons
    /// (`admission.rs`): work waits here, so many clients queue instead
    /// of multiplying threads and memory.
    pub cpu_slots: Arc<admission::CpuSlots>,
    /// A comparison's deadline when its client sets none
    /// (`--request-timeout`).
    pub request_timeout: std::time::Duration,
}

/// The rendering a request's `format` asks for; a value this daemon does
/// not know (a newer client's) is a usage error naming what it renders.
fn output_format(raw: i32) -> Result<crate::render::OutputFormat, Status> {
    use crate::render::OutputFormat;
    match pb::OutputFormat::try_from(raw) {
        Ok(format) => Ok(OutputFormat::from_wire(format)),
        Err(_) => {
            let known: Vec<&str> = OutputFormat::ALL.iter().map(|f| f.name()).collect();
            Err(status::invalid_field(
                Reason::BadFormat,
                "format",
                Some(&raw.to_string()),
                format!(
                    "output format {raw} is unknown to this daemon ({}); it renders {}",
                    crate::VERSION,
                    known.join(", ")
                ),
            ))
        }
    }
}

fn non_empty(value: String) -> Option<String> {
    (!value.is_empty()).then_some(value)
}

fn workspace_path(raw: &str) -> Result<PathBuf, Status> {
    if raw.is_empty() {
        return Err(status::invalid_field(
            Reason::MissingField,
            field::WORKSPACE,
            None,
            "workspace is required: pass the repository path",
        ));
    }
    check_lengths(&[(field::WORKSPACE, raw)])?;
    let path = PathBuf::from(raw);
    if !path.is_absolute() {
        return Err(status::invalid_field(
            Reason::RelativeWorkspace,
            field::WORKSPACE,
            Some(raw),
            format!(
                "workspace must be an absolute path (the daemon does not share the caller's working directory): {raw}"
            ),
        ));
    }
    Ok(path)
}

/// Runs one history query, sending progress then the result (or the error)
/// on the stream.
fn history_events(
    engine: &Engine,
    request: &crate::history::HistoryRequest,
    sender: &tokio::sync::mpsc::Sender<Result<pb::HistoryResponse, Status>>,
) {
    let walk = progress::WalkProgress::new();
    let as_event = |progress: pb::HistoryProgress| pb::HistoryResponse {
        event: Some(pb::history_response::Event::Progress(progress)),
    };
    // Stopped (its sender dropped) when the walk ends, before the result
    // is sent: no progress follows the answer.
    let (stop_ticker, stopped) = std::sync::mpsc::channel::<()>();
    // One sender at a time, each reading the walk as it sends: the
    // ticker's events and the steps' never go out of order.
    let sending = std::sync::Mutex::new(());
    let one_at_a_time = || {
        sending
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    };
    let answered = std::thread::scope(|scope| {
        let ticker = std::thread::Builder::new()
            .name("shipgate-progress".into())
            .spawn_scoped(scope, {
                let (walk, one_at_a_time) = (&walk, &one_at_a_time);
                move || {
                    while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                        stopped.recv_timeout(progress::TICK)
                    {
                        // A tick the client has no room for yet is dropped,
                        // never waited for: the next one says more.
                        let _one = one_at_a_time();
                        if let Some(progress) = walk.tick() {
                            let _ = sender.try_send(Ok(as_event(progress)));
                        }
                    }
                }
            });
        if let Err(err) = &ticker {
            eprintln!("shipgate-daemon: history progress ticks are off for this request: {err}");
        }
        let mut on_step = |done: usize, total: usize| {
            let _one = one_at_a_time();
            if let Some(progress) = walk.step(done, total) {
                let _ = sender.blocking_send(Ok(as_event(progress)));
            }
        };
        // A panic ends this request with INTERNAL, never the stream
        // without an answer (and never the daemon).
        let answered =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match &request.hosts {
                Some(filter) => engine.host_history(request, filter, &mut on_step),
                None => engine.history(request, &mut on_step),
            }));
        drop(stop_ticker);
        answered
    });
    let message = match answered {
        Ok(Ok(outcome)) => Ok(pb::HistoryResponse {
            event: Some(pb::history_response::Event::Result(pb::HistoryResult {
                json: outcome.json,
                text: outcome.text.unwrap_or_default(),
            })),
        }),
        Ok(Err(err)) => Err(from_diff_error(&err)),
        Err(panic) => Err(panicked("the history query", panic.as_ref())),
    };
    let _ = sender.blocking_send(message);
}

/// What a diff request asks of the policy; an unknown condition is bad
/// input, refused before any work.
fn policy_request(req: &pb::DiffRequest) -> Result<crate::policy::PolicyRequest, Status> {
    shipgate_proto::policy::parse_conditions(&req.fail_on).map_err(|why| {
        from_diff_error(&DiffError::usage(Reason::BadPolicy, why).about_field(field::FAIL_ON))
    })?;
    if req.policy.len() as u64 > shipgate_proto::cli::MAX_POLICY_BYTES {
        return Err(from_diff_error(
            &DiffError::usage(
                Reason::BadPolicy,
                format!(
                    "The policy is larger than {} bytes.",
                    shipgate_proto::cli::MAX_POLICY_BYTES
                ),
            )
            .about_field(field::POLICY),
        ));
    }
    let file = (!req.policy.is_empty()).then(|| crate::policy::PolicyText {
        text: req.policy.clone(),
        source: if req.policy_source.is_empty() {
            "the request's policy".to_string()
        } else {
            req.policy_source
                .chars()
                .take(shipgate_proto::MAX_FIELD_BYTES)
                .collect()
        },
    });
    Ok(crate::policy::PolicyRequest {
        fail_on: req.fail_on.clone(),
        file,
        off: req.no_policy,
    })
}

/// A verdict as the response carries it.
fn pb_verdict(verdict: &crate::policy::Verdict) -> pb::PolicyVerdict {
    let finding = |f: &crate::policy::Finding| pb::PolicyFinding {
        condition: f.condition.as_str().to_string(),
        agent: f.agent.clone(),
        tool: f.tool.clone(),
        change: f.change.clone(),
        at: f.at.clone(),
        detail: f.detail.clone(),
        row: f.row.and_then(|r| i32::try_from(r).ok()).unwrap_or(-1),
        allowed_because: f.allowed_because.clone().unwrap_or_default(),
    };
    pb::PolicyVerdict {
        source: verdict.source.clone(),
        fail_on: verdict
            .fail_on
            .iter()
            .map(|c| c.as_str().to_string())
            .collect(),
        failed: verdict.failed.iter().map(finding).collect(),
        allowed: verdict.allowed.iter().map(finding).collect(),
        report: verdict.report(),
    }
}

fn pb_phase_timing(phase: &crate::timings::PhaseTime) -> pb::PhaseTiming {
    pb::PhaseTiming {
        phase: phase.phase.to_string(),
        millis: phase.wall.as_secs_f64() * 1000.0,
        count: phase.count,
    }
}

/// A request's phases as the response carries them: each that ran, then
/// `total`.
pub fn phase_timings(timings: &crate::timings::Timings) -> Vec<pb::PhaseTiming> {
    let total = crate::timings::PhaseTime {
        phase: "total",
        count: 1,
        wall: timings.total,
    };
    timings
        .phases
        .iter()
        .chain(std::iter::once(&total))
        .map(pb_phase_timing)
        .collect()
}

impl ShipgateService {
    /// Runs a request's engine work on a core slot under the request's
    /// deadline, cancelled when the request goes; `what` names the work
    /// in a refusal (`host comparison`).
    async fn on_core<T: Send + 'static>(
        &self,
        metadata: &tonic::metadata::MetadataMap,
        what: &'static str,
        work: impl Fn(&Engine) -> Result<T, DiffError> + Send + Sync + 'static,
    ) -> Result<T, Status> {
        let engine = Arc::clone(&self.engine);
        let (deadline, allowed) = admission::request_deadline(metadata, self.request_timeout);
        let cancel = crate::work::Cancel::new().with_deadline(deadline);
        let _cancel_on_drop = cancel.on_drop();
        self.cpu_slots
            .run(&cancel, move || work(&engine))
            .await
            .map_err(|not_run| match not_run {
                admission::NotRun::DeadlinePassed => {
                    let mut capitalised = what.to_string();
                    if let Some(first) = capitalised.get_mut(..1) {
                        first.make_ascii_uppercase();
                    }
                    status::deadline_exceeded(&format!("The {capitalised}"), allowed)
                }
                admission::NotRun::Stopping => status::stopping(),
                admission::NotRun::Failed(err) => task_failed(&format!("the {what}"), err),
            })?
            .map_err(|err| from_diff_error(&err))
    }
}

#[tonic::async_trait]
impl Shipgate for ShipgateService {
    async fn diff(
        &self,
        request: Request<pb::DiffRequest>,
    ) -> Result<Response<pb::DiffResponse>, Status> {
        let _in_flight = self.activity.begin();
        // Background indexing waits while this is served.
        let _foreground = crate::work::foreground();
        let metadata = request.metadata().clone();
        let req = request.into_inner();
        check_lengths(&[
            ("base", &req.base),
            ("head", &req.head),
            ("scope", &req.scope),
            ("base_scope", &req.base_scope),
        ])?;
        let policy_request = policy_request(&req)?;
        let engine_request = EngineRequest {
            workspace: workspace_path(&req.workspace)?,
            base: non_empty(req.base),
            head: non_empty(req.head),
            scope: non_empty(req.scope),
            base_scope: non_empty(req.base_scope),
            max_python_files: (req.max_python_files > 0).then_some(req.max_python_files),
            format: output_format(req.format)?,
            worktree: req.worktree,
            staged: req.staged,
            all: req.all,
        };
        let engine = Arc::clone(&self.engine);
        // Dropping this future (the client went away, tonic's own timeout)
        // cancels the work at its next checkpoint; so does the deadline.
        let (deadline, allowed) = admission::request_deadline(&metadata, self.request_timeout);
        let cancel = crate::work::Cancel::new().with_deadline(deadline);
        let _cancel_on_drop = cancel.on_drop();
        // Queued until a core or the lane is free (`admission.rs`).
        let (outcome, verdict, timings) = self
            .cpu_slots
            .run(&cancel, move || {
                let (outcome, timings) = crate::timings::measured(|| engine.diff(&engine_request));
                let outcome = outcome?;
                // Read after the answer, from its document and the base's
                // objects: never part of the answer kept.
                let verdict = crate::policy::verdict(
                    &policy_request,
                    &engine_request.workspace,
                    &outcome.document,
                )?;
                Ok((outcome, verdict, timings))
            })
            .await
            .map_err(|not_run| match not_run {
                admission::NotRun::DeadlinePassed => {
                    status::deadline_exceeded("The comparison", allowed)
                }
                admission::NotRun::Stopping => status::stopping(),
                admission::NotRun::Failed(err) => task_failed("the comparison", err),
            })?
            .map_err(|err| from_diff_error(&err))?;
        let (timings, answer_kept) = if req.timings {
            (phase_timings(&timings), timings.answer_kept)
        } else {
            (Vec::new(), false)
        };
        Ok(Response::new(pb::DiffResponse {
            // Copies of the answer's strings: the answer itself may be
            // kept for the next request (`engine/answers.rs`).
            json: outcome.json.clone(),
            text: outcome.rendered.clone().unwrap_or_default(),
            exit_code: verdict.as_ref().map_or(0, |v| i32::from(v.exit_code())),
            comparison_status: outcome.status.clone(),
            timings,
            answer_kept,
            policy: verdict.as_ref().map(pb_verdict),
        }))
    }

    async fn inventory(
        &self,
        request: Request<pb::InventoryRequest>,
    ) -> Result<Response<pb::InventoryResponse>, Status> {
        let _in_flight = self.activity.begin();
        let _foreground = crate::work::foreground();
        let metadata = request.metadata().clone();
        let req = request.into_inner();
        check_lengths(&[("at", &req.at), ("scope", &req.scope)])?;
        let format = pb::InventoryFormat::try_from(req.format).map_err(|_| {
            from_diff_error(&DiffError::usage(
                Reason::BadFormat,
                format!(
                    "Inventory format {} is not one this daemon renders.",
                    req.format
                ),
            ))
        })?;
        let engine_request = crate::engine::InventoryRequest {
            workspace: workspace_path(&req.workspace)?,
            at: non_empty(req.at),
            scope: non_empty(req.scope),
            max_python_files: (req.max_python_files > 0).then_some(req.max_python_files),
            format: crate::inventory::InventoryFormat::from_wire(format),
        };
        let outcome = self
            .on_core(&metadata, "inventory", move |engine| {
                engine.inventory(&engine_request)
            })
            .await?;
        Ok(Response::new(pb::InventoryResponse {
            json: outcome.json.clone(),
            text: outcome.rendered.clone().unwrap_or_default(),
            status: outcome.status.clone(),
            agents: u32::try_from(outcome.agents).unwrap_or(u32::MAX),
        }))
    }

    async fn host_diff(
        &self,
        request: Request<pb::HostDiffRequest>,
    ) -> Result<Response<pb::HostDiffResponse>, Status> {
        let _in_flight = self.activity.begin();
        let _foreground = crate::work::foreground();
        let metadata = request.metadata().clone();
        let req = request.into_inner();
        check_lengths(&[("base", &req.base), ("head", &req.head)])?;
        let format = pb::OutputFormat::try_from(req.format).map_err(|_| {
            from_diff_error(
                &DiffError::usage(
                    Reason::BadFormat,
                    format!(
                        "Output format {} is not one this daemon renders.",
                        req.format
                    ),
                )
                .about(crate::error::field::FORMAT, req.format.to_string()),
            )
        })?;
        let format = crate::render::OutputFormat::from_wire(format);
        let engine_request = crate::engine::HostDiffRequest {
            workspace: workspace_path(&req.workspace)?,
            base: non_empty(req.base),
            head: non_empty(req.head),
            staged: req.staged,
            format,
        };
        let outcome = self
            .on_core(&metadata, "host comparison", move |engine| {
                engine.host_diff(&engine_request)
            })
            .await?;
        let json = format == crate::render::OutputFormat::Json;
        Ok(Response::new(pb::HostDiffResponse {
            json: outcome.json.clone(),
            text: if json {
                String::new()
            } else {
                outcome.rendered.clone()
            },
            comparison_status: outcome.status.to_string(),
            rows: u32::try_from(outcome.rows).unwrap_or(u32::MAX),
        }))
    }

    async fn host_audit(
        &self,
        request: Request<pb::HostAuditRequest>,
    ) -> Result<Response<pb::HostAuditResponse>, Status> {
        let _in_flight = self.activity.begin();
        let _foreground = crate::work::foreground();
        let metadata = request.metadata().clone();
        let req = request.into_inner();
        check_lengths(&[("at", &req.at), ("baseline_file", &req.baseline_file)])?;
        let json = match pb::OutputFormat::try_from(req.format) {
            Ok(pb::OutputFormat::Text) => false,
            Ok(pb::OutputFormat::Json) => true,
            _ => {
                return Err(from_diff_error(
                    &DiffError::usage(
                        Reason::BadFormat,
                        "A host audit is rendered as markdown or JSON only.",
                    )
                    .about(crate::error::field::FORMAT, req.format.to_string()),
                ))
            }
        };
        let engine_request = crate::engine::HostAuditRequest {
            workspace: workspace_path(&req.workspace)?,
            at: non_empty(req.at),
            baseline: (!req.baseline.is_empty()).then_some((req.baseline, req.baseline_file)),
            json,
        };
        let outcome = self
            .on_core(&metadata, "host audit", move |engine| {
                engine.host_audit(&engine_request)
            })
            .await?;
        Ok(Response::new(pb::HostAuditResponse {
            json: outcome.json,
            markdown: outcome.markdown.unwrap_or_default(),
            baseline: outcome.baseline,
            baseline_sha256: outcome.baseline_sha256,
            has_drift: outcome.has_drift,
            root: outcome.root,
        }))
    }

    type HistoryStream =
        tokio_stream::wrappers::ReceiverStream<Result<pb::HistoryResponse, Status>>;

    async fn history(
        &self,
        request: Request<pb::HistoryRequest>,
    ) -> Result<Response<Self::HistoryStream>, Status> {
        let in_flight = self.activity.begin();
        // Background indexing waits while this is served (moved into the
        // work, which outlives this call).
        let foreground = crate::work::foreground();
        let metadata = request.metadata().clone();
        let req = request.into_inner();
        check_lengths(&[
            ("since", &req.since),
            ("until", &req.until),
            ("agent", &req.agent),
            ("tool", &req.tool),
            ("scope", &req.scope),
            ("host_name", &req.host_name),
            ("grant", &req.grant),
        ])?;
        let engine_request = crate::history::HistoryRequest {
            workspace: workspace_path(&req.workspace)?,
            since: non_empty(req.since),
            until: non_empty(req.until),
            agent: non_empty(req.agent),
            tool: non_empty(req.tool),
            scope: non_empty(req.scope),
            max_python_files: (req.max_python_files > 0).then_some(req.max_python_files),
            max_commits: (req.max_commits > 0).then_some(req.max_commits),
            want_text: req.format == pb::OutputFormat::Text as i32,
            hosts: req.host.then(|| crate::history::HostFilter {
                host: non_empty(req.host_name),
                grant: non_empty(req.grant),
            }),
        };
        let (sender, receiver) = tokio::sync::mpsc::channel(16);
        let engine = Arc::clone(&self.engine);
        let slots = Arc::clone(&self.cpu_slots);
        // A history's progress streams as it goes: only its client's
        // deadline stops it (besides the client going away).
        let deadline = admission::client_timeout(&metadata).map(|allowed| Instant::now() + allowed);
        let cancel = match deadline {
            Some(deadline) => crate::work::Cancel::new().with_deadline(deadline),
            None => crate::work::Cancel::new(),
        };
        // The stream's receiver goes when the client does (Ctrl-C, a
        // deadline): that cancels the walk at its next commit.
        // The watcher's sender lives only until the work is done (`done`
        // is dropped with it), so the stream still ends after the result.
        let watcher = sender.clone();
        let watched = cancel.clone();
        let (done, work_done) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(async move {
            tokio::select! {
                _ = watcher.closed() => watched.cancel(),
                _ = work_done => {}
            }
        });
        tokio::spawn(async move {
            let _done = done;
            let Ok(slot) = slots.core(deadline).await else {
                return;
            };
            if cancel.is_cancelled() {
                return;
            }
            let work = tokio::task::spawn_blocking(move || {
                let _slot = slot;
                let _in_flight = in_flight;
                let _foreground = foreground;
                let _done = _done;
                crate::work::with_cancel(&cancel, || {
                    history_events(&engine, &engine_request, &sender)
                })
            });
            let _ = work.await;
        });
        Ok(Response::new(tokio_stream::wrappers::ReceiverStream::new(
            receiver,
        )))
    }

    async fn status(
        &self,
        _request: Request<pb::StatusRequest>,
    ) -> Result<Response<pb::StatusResponse>, Status> {
        let _in_flight = self.activity.begin();
        let cache = self.engine.cache();
        let counters = |name: &str, c: &crate::store::Counters| {
            let (hits, misses) = c.snapshot();
            pb::CacheCounters {
                cache: name.to_string(),
                hits,
                misses,
            }
        };
        let repositories = self
            .indexer
            .status()
            .into_iter()
            .map(|r| pb::WatchedRepository {
                path: r.path.display().to_string(),
                indexed: r
                    .indexed
                    .into_iter()
                    .map(|(reference, commit)| pb::IndexedHead { reference, commit })
                    .collect(),
                last_error: r.last_error.unwrap_or_default(),
                pending: r.pending,
                history_commits: r.history_commits,
                progress: r.progress.map(|p| pb::IndexingProgress {
                    branch: p.branch,
                    branches_done: p.branches_done,
                    branches_total: p.branches_total,
                    commits_done: p.commits_done,
                    commits_total: p.commits_total,
                    elapsed_ms: p.elapsed_ms,
                    seconds_left: p.seconds_left,
                    paused: p.paused,
                }),
            })
            .collect();
        Ok(Response::new(pb::StatusResponse {
            version: crate::VERSION.to_string(),
            engine_facts_version: crate::ENGINE_FACTS_VERSION,
            uptime_seconds: self.activity.uptime().as_secs(),
            store_path: cache.kv().path().display().to_string(),
            store_size_bytes: cache.kv().size_on_disk(),
            store_health: cache.kv().health(),
            remote_cache: cache.kv().remote_status().map(pb_remote_status),
            repositories,
            caches: vec![
                counters("facts", &cache.facts),
                counters("graphs", &cache.graphs),
                counters("history", &cache.history),
                counters("hosts", &cache.hosts),
                counters("answers", &cache.answers),
            ],
            pid: std::process::id(),
            listen: self.listen.clone(),
            phases: crate::timings::totals()
                .iter()
                .map(pb_phase_timing)
                .collect(),
        }))
    }

    async fn watch(
        &self,
        request: Request<pb::WatchRequest>,
    ) -> Result<Response<pb::WatchResponse>, Status> {
        let _in_flight = self.activity.begin();
        let path = workspace_path(&request.into_inner().workspace)?;
        let indexer = Arc::clone(&self.indexer);
        let root = tokio::task::spawn_blocking(move || indexer.watch(&path))
            .await
            .map_err(|err| task_failed("watching the repository", err))?
            .map_err(status::watch_failed)?;
        Ok(Response::new(pb::WatchResponse {
            repository: root.display().to_string(),
        }))
    }

    async fn unwatch(
        &self,
        request: Request<pb::UnwatchRequest>,
    ) -> Result<Response<pb::UnwatchResponse>, Status> {
        let _in_flight = self.activity.begin();
        let path = workspace_path(&request.into_inner().workspace)?;
        let (root, was_watched) = self.indexer.unwatch(&path).map_err(status::watch_failed)?;
        Ok(Response::new(pb::UnwatchResponse {
            repository: root.display().to_string(),
            was_watched,
        }))
    }

    async fn shutdown(
        &self,
        _request: Request<pb::ShutdownRequest>,
    ) -> Result<Response<pb::ShutdownResponse>, Status> {
        let _ = self.shutdown.send(true);
        Ok(Response::new(pb::ShutdownResponse {}))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_proto_format_maps_and_an_unknown_one_is_refused() {
        use crate::render::OutputFormat;
        assert_eq!(
            output_format(pb::OutputFormat::Text as i32).ok(),
            Some(OutputFormat::Text)
        );
        assert_eq!(
            output_format(pb::OutputFormat::Sarif as i32).ok(),
            Some(OutputFormat::Sarif)
        );
        assert_eq!(
            output_format(pb::OutputFormat::Github as i32).ok(),
            Some(OutputFormat::Github)
        );
        let refused = output_format(99)
            .err()
            .map(|s| (s.code(), s.message().to_string()));
        let (code, message) = refused.unwrap_or((tonic::Code::Ok, String::new()));
        assert_eq!(code, tonic::Code::InvalidArgument);
        assert!(
            message.contains("text, json, markdown, sarif, github"),
            "{message}"
        );
    }
}

fn pb_remote_status(status: crate::store::RemoteStatus) -> pb::RemoteCacheStatus {
    pb::RemoteCacheStatus {
        location: status.location,
        read_only: status.read_only,
        signed: status.signed,
        state: status.state,
        hits: status.hits,
        misses: status.misses,
        refused: status.refused,
        errors: status.errors,
        bytes_read: status.bytes_read,
        bytes_written: status.bytes_written,
        writes: status.writes,
        writes_dropped: status.writes_dropped,
        writes_pending: status.writes_pending,
        last_error: status.last_error,
    }
}
