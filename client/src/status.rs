//! What `shipgate-client status` prints: the daemon, its store and caches,
//! and each watched repository with the indexing pass under way.

use shipgate_proto::v1 as pb;

/// The pass under way, as `status` prints it: `indexing origin/main
/// (branch 2 of 5): history 340 of 1000 commits, 12.3 s`.
fn indexing_line(progress: &pb::IndexingProgress) -> String {
    let elapsed = format!("{:.1} s", progress.elapsed_ms as f64 / 1000.0);
    if progress.branch.is_empty() {
        return format!(
            "indexing: {} branch heads to read, {elapsed}",
            progress.branches_total
        );
    }
    let mut line = format!(
        "indexing {} (branch {} of {})",
        progress.branch,
        (progress.branches_done + 1).min(progress.branches_total.max(1)),
        progress.branches_total
    );
    if progress.commits_total > 0 {
        line.push_str(&format!(
            ": history {} of {} commits",
            progress.commits_done, progress.commits_total
        ));
    }
    line.push_str(&format!(", {elapsed}"));
    if progress.seconds_left > 0 {
        line.push_str(&format!(", about {} s left", progress.seconds_left));
    }
    if progress.paused {
        line.push_str(" (paused while a request is served)");
    }
    line
}

pub fn to_json(status: &pb::StatusResponse) -> String {
    let repositories: Vec<serde_json::Value> = status
        .repositories
        .iter()
        .map(|r| {
            serde_json::json!({
                "path": r.path,
                "indexed": r.indexed.iter().map(|h| serde_json::json!({"reference": h.reference, "commit": h.commit})).collect::<Vec<_>>(),
                "pending": r.pending,
                "history_commits": r.history_commits,
                "progress": r.progress.as_ref().map(|p| serde_json::json!({
                    "branch": p.branch,
                    "branches_done": p.branches_done,
                    "branches_total": p.branches_total,
                    "commits_done": p.commits_done,
                    "commits_total": p.commits_total,
                    "elapsed_ms": p.elapsed_ms,
                    "seconds_left": p.seconds_left,
                    "paused": p.paused,
                })),
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
    // Since the daemon started, in the order a comparison runs them.
    let phases: serde_json::Map<String, serde_json::Value> = status
        .phases
        .iter()
        .map(|p| {
            (
                p.phase.clone(),
                serde_json::json!({"count": p.count, "millis": p.millis}),
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
        "store_health": status.store_health,
        "remote_cache": status.remote_cache.as_ref().map(remote_json),
        "caches": caches,
        "phases": phases,
        "repositories": repositories,
    });
    format!(
        "{}\n",
        serde_json::to_string_pretty(&doc).unwrap_or_default()
    )
}

pub fn to_text(status: &pb::StatusResponse) -> String {
    use std::fmt::Write;
    let mut text = String::new();
    // Writing into a String cannot fail.
    let _ = writeln!(
        text,
        "shipgate-daemon {} (facts v{}), pid {}, up {}s",
        status.version, status.engine_facts_version, status.pid, status.uptime_seconds
    );
    let _ = writeln!(text, "listening on {}", status.listen);
    let _ = writeln!(
        text,
        "store: {} ({} bytes)",
        status.store_path, status.store_size_bytes
    );
    // A daemon older than the field sends none: nothing to say.
    if !status.store_health.is_empty() && status.store_health != "ok" {
        let _ = writeln!(text, "store health: {}", status.store_health);
    }
    if let Some(remote) = &status.remote_cache {
        text.push_str(&remote_text(remote));
    }
    for cache in &status.caches {
        let _ = writeln!(
            text,
            "cache {}: {} hits, {} misses",
            cache.cache, cache.hits, cache.misses
        );
    }
    if !status.phases.is_empty() {
        let phases: Vec<String> = status
            .phases
            .iter()
            .map(|p| format!("{} {:.1} ms ({}x)", p.phase, p.millis, p.count))
            .collect();
        let _ = writeln!(text, "phases since start: {}", phases.join(", "));
    }
    if status.repositories.is_empty() {
        let _ = writeln!(
            text,
            "watched repositories: none (add one with `shipgate-client watch DIR`)"
        );
    }
    for repo in &status.repositories {
        let _ = writeln!(
            text,
            "watching {} ({} pending, history indexed for {} commits)",
            repo.path, repo.pending, repo.history_commits
        );
        if let Some(progress) = &repo.progress {
            let _ = writeln!(text, "  {}", indexing_line(progress));
        }
        for head in &repo.indexed {
            let _ = writeln!(
                text,
                "  indexed {} at {}",
                head.reference,
                head.commit.chars().take(12).collect::<String>()
            );
        }
        if !repo.last_error.is_empty() {
            let _ = writeln!(text, "  last error: {}", repo.last_error);
        }
    }
    text
}

fn remote_json(remote: &pb::RemoteCacheStatus) -> serde_json::Value {
    serde_json::json!({
        "location": remote.location,
        "read_only": remote.read_only,
        "signed": remote.signed,
        "state": remote.state,
        "hits": remote.hits,
        "misses": remote.misses,
        "refused": remote.refused,
        "errors": remote.errors,
        "bytes_read": remote.bytes_read,
        "bytes_written": remote.bytes_written,
        "writes": remote.writes,
        "writes_dropped": remote.writes_dropped,
        "writes_pending": remote.writes_pending,
        "last_error": remote.last_error,
    })
}

/// The remote tier's lines of `status`.
fn remote_text(remote: &pb::RemoteCacheStatus) -> String {
    let mut text = format!(
        "remote cache: {}{}{} ({})\n",
        remote.location,
        if remote.read_only { ", read-only" } else { "" },
        if remote.signed { ", signed" } else { "" },
        remote.state
    );
    text.push_str(&format!(
        "  remote reads: {} hits, {} misses ({} refused), {} bytes\n",
        remote.hits, remote.misses, remote.refused, remote.bytes_read
    ));
    text.push_str(&format!(
        "  remote writes: {} made, {} bytes, {} pending, {} dropped\n",
        remote.writes, remote.bytes_written, remote.writes_pending, remote.writes_dropped
    ));
    if remote.errors > 0 {
        text.push_str(&format!(
            "  remote errors: {} (last: {})\n",
            remote.errors, remote.last_error
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::indexing_line;
    use shipgate_proto::v1::IndexingProgress;

    #[test]
    fn the_indexing_line_names_the_branch_its_place_and_the_history_read() {
        let progress = IndexingProgress {
            branch: "origin/main".to_string(),
            branches_done: 1,
            branches_total: 5,
            commits_done: 340,
            commits_total: 1000,
            elapsed_ms: 12_345,
            seconds_left: 0,
            paused: false,
        };
        assert_eq!(
            indexing_line(&progress),
            "indexing origin/main (branch 2 of 5): history 340 of 1000 commits, 12.3 s"
        );
        let estimated = IndexingProgress {
            seconds_left: 24,
            paused: true,
            ..progress.clone()
        };
        assert_eq!(
            indexing_line(&estimated),
            "indexing origin/main (branch 2 of 5): history 340 of 1000 commits, 12.3 s, about 24 s left (paused while a request is served)"
        );
        let starting = IndexingProgress {
            branch: String::new(),
            branches_done: 0,
            commits_done: 0,
            commits_total: 0,
            ..progress
        };
        assert_eq!(
            indexing_line(&starting),
            "indexing: 5 branch heads to read, 12.3 s"
        );
    }
}
