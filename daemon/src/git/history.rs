//! Walking a branch's first-parent history: each commit's parents, tree,
//! author, date and subject, read from the raw commit object (a format git
//! has kept stable), never from a checkout.

use super::Repository;
use crate::error::DiffError;
use gix::ObjectId;

/// What history shows of one commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommitInfo {
    pub id: ObjectId,
    pub tree: ObjectId,
    pub parents: Vec<ObjectId>,
    pub author: String,
    /// Author time, seconds since the epoch (UTC).
    pub time: i64,
    pub subject: String,
}

impl CommitInfo {
    /// The author date as `YYYY-MM-DDTHH:MM:SSZ`.
    pub fn date(&self) -> String {
        iso_date(self.time)
    }
}

impl Repository {
    /// Reads one commit's header and subject.
    pub fn commit_info(&self, id: ObjectId) -> Result<CommitInfo, DiffError> {
        let repo = self.local();
        let commit = repo
            .find_commit(id)
            .map_err(|_| self.objects_missing_for(id))?;
        parse_commit(id, &commit.data).ok_or_else(|| {
            DiffError::internal(format!(
                "commit {} could not be read",
                id.to_hex_with_len(12)
            ))
        })
    }

    /// The first-parent chain from `until` back to (not including) `since`,
    /// newest first, at most `max` commits; whether the walk was cut short
    /// by the bound. `since` must be an ancestor on the chain, else the walk
    /// goes to the root.
    pub fn first_parent_chain(
        &self,
        until: ObjectId,
        since: Option<ObjectId>,
        max: usize,
    ) -> Result<(Vec<CommitInfo>, bool), DiffError> {
        let mut chain = Vec::new();
        let mut next = Some(until);
        while let Some(id) = next {
            if Some(id) == since {
                return Ok((chain, false));
            }
            if chain.len() >= max {
                return Ok((chain, true));
            }
            let info = self.commit_info(id)?;
            next = info.parents.first().copied();
            chain.push(info);
        }
        Ok((chain, false))
    }
}

/// Parses a raw commit object: `tree`, `parent`… and `author` headers, a
/// blank line, then the message (its first line is the subject).
fn parse_commit(id: ObjectId, data: &[u8]) -> Option<CommitInfo> {
    let text = String::from_utf8_lossy(data);
    let (headers, message) = text.split_once("\n\n").unwrap_or((&text, ""));
    let mut tree = None;
    let mut parents = Vec::new();
    let mut author = String::new();
    let mut time = 0;
    for line in headers.lines() {
        if let Some(hex) = line.strip_prefix("tree ") {
            tree = ObjectId::from_hex(hex.trim().as_bytes()).ok();
        } else if let Some(hex) = line.strip_prefix("parent ") {
            parents.push(ObjectId::from_hex(hex.trim().as_bytes()).ok()?);
        } else if let Some(signature) = line.strip_prefix("author ") {
            // `Name <email> 1700000000 +0100`
            let (name, rest) = signature.split_once(" <").unwrap_or((signature, ""));
            author = name.to_string();
            time = rest
                .rsplit(' ')
                .nth(1)
                .and_then(|t| t.parse::<i64>().ok())
                .unwrap_or(0);
        }
    }
    Some(CommitInfo {
        id,
        tree: tree?,
        parents,
        author,
        time,
        subject: message
            .lines()
            .next()
            .unwrap_or_default()
            .trim()
            .to_string(),
    })
}

/// Seconds since the epoch as an ISO 8601 UTC date (civil-from-days).
fn iso_date(seconds: i64) -> String {
    let days = seconds.div_euclid(86_400);
    let secs = seconds.rem_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        secs / 3600,
        (secs % 3600) / 60,
        secs % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_utc_iso() {
        assert_eq!(iso_date(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso_date(1_704_067_200), "2024-01-01T00:00:00Z");
        assert_eq!(iso_date(951_782_400 + 3_661), "2000-02-29T01:01:01Z");
    }

    #[test]
    fn raw_commits_parse() {
        let id = ObjectId::null(gix::hash::Kind::Sha1);
        let raw = b"tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nparent 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor Ada Lovelace <ada@example.com> 1704067200 +0100\ncommitter Ada <ada@example.com> 1704067200 +0100\n\nAdd refunds\n\nBody.\n";
        let info = parse_commit(id, raw).expect("parses");
        assert_eq!(info.author, "Ada Lovelace");
        assert_eq!(info.subject, "Add refunds");
        assert_eq!(info.parents.len(), 1);
        assert_eq!(info.date(), "2024-01-01T00:00:00Z");
    }
}
