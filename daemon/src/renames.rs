//! Which base file is which head file when a pull request moves and edits
//! it: git's rename detection (`git diff -M`, similarity 50 % or more, the
//! default), read from the two sides' bytes. Identical blobs pair first
//! (`compare::file_renames`); this pairs the files left over.
//!
//! The measure is git's (`diffcore-rename.c`): each file is cut into
//! chunks at every newline or every 64 bytes, whichever comes first (a
//! `\r` before a newline dropped); the bytes two files share are, chunk by
//! chunk, the smaller of their two byte counts; the similarity is those
//! shared bytes over the larger file's size. A pair scores at most the
//! smaller size over the larger, so pairs whose sizes differ by more than
//! half are never measured. Each head file takes the best-scoring base
//! file not yet taken, best pairs first, ties by path; a file pairs once.
//!
//! Why identity may follow such a pair: the agent read in the head file is
//! still named as in the base file (rows pair by agent name within the
//! paired files), so a pairing only lets the rows say what changed between
//! two readings of the same agent, never invent an agent; a move below
//! the threshold stays two files, as git shows it.
//!
//! Bounded: pairs measured at most `MAX_MEASURED_PAIRS`, chunks compared at
//! most `MAX_CHUNK_WORK`; past either, no inexact pairing is made at all
//! (the exact renames still stand), so the answer never depends on where a
//! budget ran out.

use std::collections::BTreeMap;

/// The similarity (percent) at or above which git pairs two files.
pub const MIN_SIMILARITY: u8 = 50;
/// Candidate pairs measured at most (git's own default `renameLimit`
/// allows 1,000 × 1,000; each measure here is a merge of two sorted
/// chunk lists).
const MAX_MEASURED_PAIRS: usize = 250_000;
/// Chunk comparisons at most, over all measured pairs.
const MAX_CHUNK_WORK: usize = 50_000_000;
/// Git's chunk length bound.
const CHUNK: usize = 64;

/// A file on one side: its path and its bytes.
pub struct SideFile {
    pub path: String,
    pub bytes: Vec<u8>,
}

/// A base file paired with a head file, and how similar they are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimilarPair {
    pub base: String,
    pub head: String,
    /// Percent, `MIN_SIMILARITY..=100`.
    pub similarity: u8,
}

/// A file's chunks: `(chunk hash, bytes)` sorted by hash, equal hashes
/// summed.
struct Chunks {
    size: usize,
    counts: Vec<(u64, usize)>,
}

fn chunks(bytes: &[u8]) -> Chunks {
    let mut map: BTreeMap<u64, usize> = BTreeMap::new();
    let mut start = 0;
    while start < bytes.len() {
        let rest = &bytes[start..];
        let window = &rest[..rest.len().min(CHUNK)];
        let len = window
            .iter()
            .position(|b| *b == b'\n')
            .map_or(window.len(), |newline| newline + 1);
        let chunk = &rest[..len];
        let (hash, counted) = match chunk {
            // git drops a CR before LF, so CRLF and LF files compare equal.
            [body @ .., b'\r', b'\n'] => (fnv1a(body, b"\n"), len - 1),
            _ => (fnv1a(chunk, b""), len),
        };
        *map.entry(hash).or_default() += counted;
        start += len;
    }
    Chunks {
        size: bytes.len(),
        counts: map.into_iter().collect(),
    }
}

/// FNV-1a over `a` then `b` (64-bit): a chunk's identity.
fn fnv1a(a: &[u8], b: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in a.iter().chain(b) {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// Bytes the two files share, chunk by chunk.
fn shared(a: &Chunks, b: &Chunks) -> usize {
    let (mut i, mut j, mut total) = (0, 0, 0);
    while let (Some((ha, ca)), Some((hb, cb))) = (a.counts.get(i), b.counts.get(j)) {
        match ha.cmp(hb) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                total += (*ca).min(*cb);
                i += 1;
                j += 1;
            }
        }
    }
    total
}

/// The similarity of two files in percent, as git scores a rename.
pub fn similarity(a: &[u8], b: &[u8]) -> u8 {
    score(&chunks(a), &chunks(b))
}

fn score(a: &Chunks, b: &Chunks) -> u8 {
    let larger = a.size.max(b.size);
    if larger == 0 {
        return 100;
    }
    let percent = shared(a, b).saturating_mul(100) / larger;
    u8::try_from(percent.min(100)).unwrap_or(100)
}

/// Whether a pair of these sizes can reach the threshold at all.
fn sizes_allow(a: usize, b: usize) -> bool {
    let (small, large) = (a.min(b), a.max(b));
    small.saturating_mul(100) >= large.saturating_mul(usize::from(MIN_SIMILARITY))
}

/// Pairs base files gone from the head with head files new to it, as git's
/// inexact rename detection would. Empty files never pair (git's
/// `track_empty` default for renames in a diff is off).
pub fn similar_pairs(base: &[SideFile], head: &[SideFile]) -> Vec<SimilarPair> {
    let base: Vec<(&str, Chunks)> = base
        .iter()
        .filter(|f| !f.bytes.is_empty())
        .map(|f| (f.path.as_str(), chunks(&f.bytes)))
        .collect();
    let head: Vec<(&str, Chunks)> = head
        .iter()
        .filter(|f| !f.bytes.is_empty())
        .map(|f| (f.path.as_str(), chunks(&f.bytes)))
        .collect();
    let mut candidates = Vec::new();
    let mut work = 0usize;
    for (head_index, (_, after)) in head.iter().enumerate() {
        for (base_index, (_, before)) in base.iter().enumerate() {
            if !sizes_allow(before.size, after.size) {
                continue;
            }
            work = work.saturating_add(before.counts.len() + after.counts.len());
            if candidates.len() >= MAX_MEASURED_PAIRS || work > MAX_CHUNK_WORK {
                return Vec::new();
            }
            candidates.push((base_index, head_index));
        }
    }
    let mut scored: Vec<(u8, &str, &str, usize, usize)> = candidates
        .into_iter()
        .filter_map(|(b, h)| {
            let (base_path, before) = base.get(b)?;
            let (head_path, after) = head.get(h)?;
            let similarity = score(before, after);
            (similarity >= MIN_SIMILARITY).then_some((similarity, *base_path, *head_path, b, h))
        })
        .collect();
    // Best first; equal scores by head path, then base path.
    scored.sort_by(|x, y| y.0.cmp(&x.0).then(x.2.cmp(y.2)).then(x.1.cmp(y.1)));
    let mut base_taken = vec![false; base.len()];
    let mut head_taken = vec![false; head.len()];
    let mut pairs = Vec::new();
    for (similarity, base_path, head_path, b, h) in scored {
        if base_taken.get(b) != Some(&false) || head_taken.get(h) != Some(&false) {
            continue;
        }
        if let (Some(bt), Some(ht)) = (base_taken.get_mut(b), head_taken.get_mut(h)) {
            *bt = true;
            *ht = true;
        }
        pairs.push(SimilarPair {
            base: base_path.to_string(),
            head: head_path.to_string(),
            similarity,
        });
    }
    pairs.sort_by(|x, y| x.base.cmp(&y.base));
    pairs
}

/// `similar_pairs` of base files gone from the head and head files new to
/// it, each `(path, blob id)`, their bytes read through `read` (a blob id to
/// its bytes; `None` leaves the file out) — and only when both sides have
/// one, since a move needs a file gone and a file new.
pub fn similar_moves(
    gone: Vec<(String, String)>,
    new: Vec<(String, String)>,
    read: &mut dyn FnMut(&str) -> Option<Vec<u8>>,
) -> Vec<SimilarPair> {
    if gone.is_empty() || new.is_empty() {
        return Vec::new();
    }
    let mut with_bytes = |files: Vec<(String, String)>| -> Vec<SideFile> {
        files
            .into_iter()
            .filter_map(|(path, blob)| {
                Some(SideFile {
                    bytes: read(&blob)?,
                    path,
                })
            })
            .collect()
    };
    let gone = with_bytes(gone);
    let new = with_bytes(new);
    similar_pairs(&gone, &new)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, bytes: &str) -> SideFile {
        SideFile {
            path: path.into(),
            bytes: bytes.as_bytes().to_vec(),
        }
    }

    #[test]
    fn similarity_is_shared_bytes_over_the_larger_file() {
        assert_eq!(similarity(b"a\nb\nc\nd\n", b"a\nb\nc\nd\n"), 100);
        // Three of four lines kept, one changed: 6 of 8 bytes.
        assert_eq!(similarity(b"a\nb\nc\nd\n", b"a\nb\nc\nx\n"), 75);
        // Order does not matter to git's measure.
        assert_eq!(similarity(b"a\nb\n", b"b\na\n"), 100);
        // CRLF and LF compare equal.
        assert_eq!(similarity(b"a\r\nb\r\n", b"a\nb\n"), 66);
        assert_eq!(similarity(b"", b""), 100);
        assert_eq!(similarity(b"abc\n", b"xyz\n"), 0);
    }

    #[test]
    fn long_lines_are_cut_every_64_bytes() {
        let long = "x".repeat(200);
        let edited = format!("{}y", &long[..199]);
        // Three of the four chunks (64, 64, 64, 8 bytes) are unchanged.
        assert_eq!(similarity(long.as_bytes(), edited.as_bytes()), 96);
    }

    #[test]
    fn each_head_file_takes_the_best_base_file_once() {
        let base = [
            file("app/agent.py", "a\nb\nc\nd\n"),
            file("app/tools.py", "t\nu\nv\nw\n"),
        ];
        let head = [
            file("svc/agent.py", "a\nb\nc\nX\n"),
            file("svc/tools.py", "t\nu\nv\nw\n"),
            file("svc/new.py", "a\nb\nq\nr\n"),
        ];
        assert_eq!(
            similar_pairs(&base, &head),
            vec![
                SimilarPair {
                    base: "app/agent.py".into(),
                    head: "svc/agent.py".into(),
                    similarity: 75
                },
                SimilarPair {
                    base: "app/tools.py".into(),
                    head: "svc/tools.py".into(),
                    similarity: 100
                },
            ]
        );
    }

    #[test]
    fn below_the_threshold_or_empty_nothing_pairs() {
        let base = [file("a.py", "a\nb\nc\nd\n"), file("e.py", "")];
        let head = [file("b.py", "a\nx\ny\nz\n"), file("f.py", "")];
        assert!(similar_pairs(&base, &head).is_empty());
        // Sizes too far apart are never measured.
        let big = "line\n".repeat(100);
        let base = [file("a.py", &big)];
        let head = [file("b.py", "line\n")];
        assert!(similar_pairs(&base, &head).is_empty());
    }
}
