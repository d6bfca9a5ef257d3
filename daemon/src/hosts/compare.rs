//! Two inventories compared: the rows of every source either side holds,
//! what each source's coverage is, and whether the comparison stands. A
//! source that does not read on a side is never compared (its rows would
//! claim a change, or hide one): it is a blocking limit, and the
//! comparison is `incomparable` with that side's inventory incomplete;
//! the other sources' rows are still given. A source that does not read
//! on either side with the same bytes on both changed nothing: it is an
//! unchanged limit, and the comparison stands. A file a host would read
//! only from another working directory (a nested `.claude/settings.json`)
//! that changed is named, never compared.

use super::diff::{self, HostRow};
use super::inventory::{HostInventory, InventorySource};
use super::read::SourceLimit;
use super::sources::Host;
use std::collections::BTreeSet;

/// One source's coverage in a comparison.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoverageItem {
    pub source: String,
    pub host: Host,
    /// `both`, `base` or `head`: the sides the item concerns.
    pub side: &'static str,
    /// `compared`, `changed_without_grant_change`, `script_not_resolved`,
    /// `blocking_limit`, `changed_not_read`.
    pub status: String,
    pub detail: Option<String>,
    /// A blocking limit's name (`parse_failed`, `unsupported`,
    /// `unreadable`, `tree_not_walked`).
    pub limit: Option<String>,
    /// What kind of file a `changed_not_read` item is
    /// (`nested_host_settings`).
    pub candidate: Option<&'static str>,
    pub rows: usize,
}

impl CoverageItem {
    fn new(source: &str, host: Host, side: &'static str, status: &str) -> Self {
        CoverageItem {
            source: source.to_string(),
            host,
            side,
            status: status.to_string(),
            detail: None,
            limit: None,
            candidate: None,
            rows: 0,
        }
    }
}

/// A host comparison's findings.
#[derive(Debug, Clone, Default)]
pub struct HostComparison {
    pub rows: Vec<HostRow>,
    pub coverage: Vec<CoverageItem>,
    /// `base_inventory_incomplete`, `head_inventory_incomplete`.
    pub incomparable: Vec<&'static str>,
    /// Sources that did not read on either side, unchanged.
    pub unchanged_limits: Vec<CoverageItem>,
    /// Every source read, but a script a hook runs is missing: the rows
    /// stand, the hook's script is not compared.
    pub partial: bool,
    /// Rules moved between dispositions: one review change over two rows.
    pub moves: Vec<super::review::Move>,
}

pub fn compare(base: &HostInventory, head: &HostInventory) -> HostComparison {
    let paths: BTreeSet<&str> = base
        .sources
        .iter()
        .chain(&head.sources)
        .map(|s| s.path.as_str())
        .collect();
    let mut out = HostComparison::default();
    let mut incomplete = BTreeSet::new();
    let mut limits = Vec::new();
    let mut compared = Vec::new();
    // A source or the tree not read (not merely a missing hook script).
    let mut blocked = false;
    for path in paths {
        let (old, new) = (base.source(path), head.source(path));
        let Some(host) = new.or(old).map(|s| s.host) else {
            continue;
        };
        let side = match (old, new) {
            (Some(_), Some(_)) => "both",
            (Some(_), None) => "base",
            _ => "head",
        };
        if let (Some(old), Some(new)) = (old, new) {
            if let (Err(malformed), true) = (&new.reading, old.blob == new.blob) {
                let mut item = CoverageItem::new(path, host, "both", "unchanged_limit");
                item.limit = Some(malformed.limit.clone());
                item.detail = Some(malformed.detail.clone());
                out.unchanged_limits.push(item);
                continue;
            }
        }
        let failed: Vec<(&'static str, &InventorySource)> = [("base", old), ("head", new)]
            .into_iter()
            .filter_map(|(name, s)| s.filter(|s| s.reading.is_err()).map(|s| (name, s)))
            .collect();
        if !failed.is_empty() {
            blocked = true;
            let both = failed.len() == 2;
            for (name, source) in failed.iter().take(if both { 1 } else { 2 }) {
                if let Err(malformed) = &source.reading {
                    let mut item = CoverageItem::new(
                        path,
                        host,
                        if both { "both" } else { name },
                        "blocking_limit",
                    );
                    item.limit = Some(malformed.limit.clone());
                    item.detail = Some(malformed.detail.clone());
                    limits.push(item);
                }
            }
            incomplete.extend(failed.iter().map(|(name, _)| *name));
            continue;
        }
        // A script missing on either side is a limit of its own (below):
        // the hooks running it are compared by their declarations alone.
        let missing: BTreeSet<&String> = [old, new]
            .into_iter()
            .flatten()
            .flat_map(|s| s.scripts.iter())
            .filter(|(_, blob)| *blob == "missing")
            .map(|(script, _)| script)
            .collect();
        let grants = |s: Option<&InventorySource>| {
            let mut grants = s.map(InventorySource::grants).unwrap_or_default();
            forget_scripts(&mut grants, &missing);
            grants
        };
        let rows = diff::rows(host, path, &grants(old), &grants(new));
        // What the readers could not follow, on the sides they concern.
        let limits_of = |s: Option<&InventorySource>| -> Vec<SourceLimit> {
            s.and_then(|s| s.reading.as_ref().ok())
                .map(|r| r.limits.clone())
                .unwrap_or_default()
        };
        let (old_limits, new_limits) = (limits_of(old), limits_of(new));
        let limited = if new_limits.is_empty() {
            &old_limits
        } else {
            &new_limits
        };
        if let Some(first) = limited.first() {
            let limit_side = match (old_limits.is_empty(), new_limits.is_empty()) {
                (false, false) if old_limits == new_limits => "both",
                (_, false) => "head",
                _ => "base",
            };
            let mut item = CoverageItem::new(path, host, limit_side, &first.status);
            item.detail = Some(
                limited
                    .iter()
                    .map(|l| l.detail.as_str())
                    .collect::<Vec<_>>()
                    .join("; "),
            );
            limits.push(item);
        }
        // A hook's project script missing on a side: its bytes are not
        // compared, so the side's inventory is incomplete.
        for (side, source) in [("base", old), ("head", new)] {
            let Some(source) = source else { continue };
            for (script, blob) in &source.scripts {
                // Missing on both sides under the same hooks: nothing of
                // it changed.
                let other = if side == "base" { new } else { old };
                let missing_on_both =
                    other.is_some_and(|o| o.scripts.get(script).is_some_and(|b| b == "missing"));
                if blob != "missing" || missing_on_both {
                    continue;
                }
                let mut item = CoverageItem::new(script, host, side, "blocking_limit");
                item.limit = Some("unreadable".into());
                item.detail = Some(format!(
                    "Selected hook script {script}: missing_input; its bytes were not compared (hooks in {path})."
                ));
                limits.push(item);
                incomplete.insert(side);
                out.partial = true;
            }
        }
        // A file whose bytes changed with no grant changing says so: the
        // reader saw the edit and found nothing it grants changed.
        let edited = match (old, new) {
            (Some(a), Some(b)) => a.blob != b.blob,
            _ => true,
        };
        let status = if edited && rows.is_empty() {
            "changed_without_grant_change"
        } else {
            "compared"
        };
        let mut item = CoverageItem::new(path, host, side, status);
        item.rows = rows.len();
        compared.push(item);
        out.rows.extend(rows);
    }
    limits.extend(nested_changes(base, head));
    for (side, inventory) in [("base", base), ("head", head)] {
        if inventory.cut_short {
            incomplete.insert(side);
            blocked = true;
            let mut item = CoverageItem::new(".", Host::ClaudeCode, side, "blocking_limit");
            item.limit = Some("tree_not_walked".into());
            item.detail = Some(
                "the tree is larger or deeper than one walk reads, so a source past its bound could be missing"
                    .into(),
            );
            limits.push(item);
        }
    }
    out.partial &= !blocked;
    diff::sort(&mut out.rows);
    // Limits first, then sources with rows, then the rest, each by path.
    compared.sort_by(|a, b| {
        (a.rows == 0)
            .cmp(&(b.rows == 0))
            .then(a.source.cmp(&b.source))
    });
    out.coverage = limits;
    out.coverage.extend(compared);
    out.incomparable = ["base", "head"]
        .into_iter()
        .filter(|side| incomplete.contains(side))
        .map(|side| match side {
            "base" => "base_inventory_incomplete",
            _ => "head_inventory_incomplete",
        })
        .collect();
    // Guidance once the whole coverage is known: a limit anywhere (a hook
    // script missing included; a script run through an interpreter that
    // is not resolved is no limit) leaves every rule's context incomplete.
    let context_incomplete = out.partial
        || !out.unchanged_limits.is_empty()
        || out.coverage.iter().any(|item| {
            !matches!(
                item.status.as_str(),
                "compared" | "changed_without_grant_change" | "script_not_resolved"
            )
        });
    for row in &mut out.rows {
        row.guidance = super::guidance::guidance(row, base, head, context_incomplete);
    }
    out.moves = super::review::moves(&out.rows, base, head, context_incomplete);
    out
}

/// Clears the script digests of the hooks running one of `scripts`.
fn forget_scripts(grants: &mut [super::grant::Grant], scripts: &BTreeSet<&String>) {
    for grant in grants {
        if let super::grant::Grant::Hook(hook) = grant {
            for handler in &mut hook.handlers {
                if handler.script.as_ref().is_some_and(|s| scripts.contains(s)) {
                    handler.script_blob = None;
                }
            }
        }
    }
}

/// Nested host files that changed: a host reads them only when started
/// in their directory, which the repository does not establish.
fn nested_changes(base: &HostInventory, head: &HostInventory) -> Vec<CoverageItem> {
    let paths: BTreeSet<&str> = base
        .nested
        .keys()
        .chain(head.nested.keys())
        .map(String::as_str)
        .collect();
    paths
        .into_iter()
        .filter(|path| base.nested.get(*path) != head.nested.get(*path))
        .map(|path| {
            let host = super::sources::nested_host(path).unwrap_or(Host::ClaudeCode);
            let side = match (base.nested.contains_key(path), head.nested.contains_key(path)) {
                (true, true) => "both",
                (true, false) => "base",
                _ => "head",
            };
            let mut item = CoverageItem::new(path, host, side, "changed_not_read");
            item.candidate = Some("nested_host_settings");
            item.detail = Some(
                "a host reads this file only when started in its directory, which the repository does not establish; its change is not compared".into(),
            );
            item
        })
        .collect()
}
