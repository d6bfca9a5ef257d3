//! Two inventories compared: the rows of every source either side holds,
//! what each source's coverage is, and whether the comparison stands. A
//! source that does not read on a side is never compared (its rows would
//! claim a change, or hide one): it is a blocking limit, and the
//! comparison is `incomparable` with that side's inventory incomplete;
//! the other sources' rows are still given.

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
    /// `compared`, `script_not_resolved`, `blocking_limit`.
    pub status: String,
    pub detail: Option<String>,
    /// `parse_failed` for a blocking limit.
    pub limit: Option<&'static str>,
    pub rows: usize,
}

/// A host comparison's findings.
#[derive(Debug, Clone, Default)]
pub struct HostComparison {
    pub rows: Vec<HostRow>,
    pub coverage: Vec<CoverageItem>,
    /// `base_inventory_incomplete`, `head_inventory_incomplete`.
    pub incomparable: Vec<&'static str>,
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
        let failed: Vec<(&str, &InventorySource)> = [("base", old), ("head", new)]
            .into_iter()
            .filter_map(|(name, s)| s.filter(|s| s.reading.is_err()).map(|s| (name, s)))
            .collect();
        if !failed.is_empty() {
            for (name, source) in &failed {
                incomplete.insert(*name);
                if let Err(malformed) = &source.reading {
                    limits.push(CoverageItem {
                        source: path.to_string(),
                        host,
                        side: if failed.len() == 2 { "both" } else { name },
                        status: "blocking_limit".to_string(),
                        detail: Some(malformed.detail.clone()),
                        limit: Some("parse_failed"),
                        rows: 0,
                    });
                }
                if failed.len() == 2 {
                    break;
                }
            }
            continue;
        }
        let grants =
            |s: Option<&InventorySource>| s.map(InventorySource::grants).unwrap_or_default();
        let rows = diff::rows(host, path, &grants(old), &grants(new));
        // What the head's reader could not follow (else the base's).
        let source_limits: Vec<&SourceLimit> = new
            .or(old)
            .and_then(|s| s.reading.as_ref().ok())
            .map(|r| r.limits.iter().collect())
            .unwrap_or_default();
        if !source_limits.is_empty() {
            let status = source_limits[0].status.clone();
            let detail = source_limits
                .iter()
                .map(|l| l.detail.as_str())
                .collect::<Vec<_>>()
                .join("; ");
            limits.push(CoverageItem {
                source: path.to_string(),
                host,
                side,
                status,
                detail: Some(detail),
                limit: None,
                rows: 0,
            });
        }
        compared.push(CoverageItem {
            source: path.to_string(),
            host,
            side,
            status: "compared".to_string(),
            detail: None,
            limit: None,
            rows: rows.len(),
        });
        out.rows.extend(rows);
    }
    for (side, inventory) in [("base", base), ("head", head)] {
        if inventory.cut_short {
            incomplete.insert(side);
            limits.push(CoverageItem {
                source: ".".to_string(),
                host: Host::ClaudeCode,
                side,
                status: "blocking_limit".to_string(),
                detail: Some(
                    "the tree is larger or deeper than one walk reads, so a source past its bound could be missing"
                        .to_string(),
                ),
                limit: Some("tree_not_walked"),
                rows: 0,
            });
        }
    }
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
    out
}
