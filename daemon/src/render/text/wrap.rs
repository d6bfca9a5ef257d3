//! Wrapping of free prose at a readable width.
//!
//! Only sentences are wrapped (a limit, an uncertainty reason): the lines
//! of the 1.2.0 grammar that tools parse (headers, `CHANGED  a → t`, side
//! lines, `Review:`, `implementation:`, reach lines) stay one line each,
//! however long, so a parser that reads them line by line keeps working.
//! A wrapped sentence continues on lines indented four spaces deeper than
//! its own, so a continuation is never taken for a line of the grammar
//! (those start at the sentence's own indent or shallower).

/// Columns a wrapped line fills before it breaks (characters, not display
/// cells: a wide character counts once).
pub(super) const WRAP_COLUMNS: usize = 100;

/// How much deeper a continuation line is indented than its first line.
pub(super) const CONTINUATION_INDENT: usize = 4;

/// `content` at `indent`, broken at single spaces so that no line is wider
/// than [`WRAP_COLUMNS`] unless one word is (a path or URL is never broken
/// inside: it stays greppable). Returns the lines with their indentation,
/// without line ends.
pub(super) fn wrap(indent: usize, content: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut rest = content;
    let mut pad = indent;
    loop {
        let room = WRAP_COLUMNS.saturating_sub(pad).max(1);
        let (line, next) = match break_at(rest, room) {
            Some(at) => (&rest[..at], Some(&rest[at + 1..])),
            None => (rest, None),
        };
        lines.push(format!("{}{line}", " ".repeat(pad)));
        match next {
            Some(next) if !next.is_empty() => {
                rest = next;
                pad = indent + CONTINUATION_INDENT;
            }
            _ => return lines,
        }
    }
}

/// The byte index of the space to break `text` at so that what precedes
/// it fits in `room` characters; the first space after `room` when no
/// earlier one does; none when `text` fits or has no space to break at.
fn break_at(text: &str, room: usize) -> Option<usize> {
    if text.chars().count() <= room {
        return None;
    }
    let mut last_fitting = None;
    for (chars_before, (byte, c)) in text.char_indices().enumerate() {
        if c != ' ' || byte == 0 {
            continue;
        }
        if chars_before <= room {
            last_fitting = Some(byte);
        } else {
            return last_fitting.or(Some(byte));
        }
    }
    last_fitting
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_line_is_left_alone() {
        assert_eq!(wrap(2, "head limit: short"), vec!["  head limit: short"]);
    }

    #[test]
    fn a_long_sentence_breaks_at_spaces_within_the_width() {
        let sentence = format!("head limit: {}", "word ".repeat(40).trim_end());
        let lines = wrap(2, &sentence);
        assert!(lines.len() > 1, "{lines:?}");
        for line in &lines {
            assert!(line.chars().count() <= WRAP_COLUMNS, "{line:?}");
        }
        assert!(lines[0].starts_with("  head limit: word"));
        for line in &lines[1..] {
            assert!(line.starts_with("      word"), "{line:?}");
        }
        // Nothing is lost or added but the breaks.
        let joined: Vec<&str> = lines.iter().map(|l| l.trim_start()).collect();
        assert_eq!(joined.join(" "), sentence);
    }

    #[test]
    fn a_word_wider_than_the_line_stays_whole() {
        let url = format!("https://example.com/{}", "a".repeat(120));
        let lines = wrap(2, &format!("scope limit: see {url} for more"));
        assert_eq!(lines[0], "  scope limit: see");
        assert_eq!(lines[1], format!("      {url}"));
        assert_eq!(lines[2], "      for more");
        // A single unbreakable word is one line.
        assert_eq!(wrap(0, &url), vec![url.clone()]);
    }

    #[test]
    fn widths_count_characters_not_bytes() {
        let sentence = "é".repeat(98);
        assert_eq!(wrap(2, &sentence).len(), 1);
        let spaced = format!("{} {}", "é".repeat(60), "é".repeat(60));
        assert_eq!(
            wrap(0, &spaced),
            vec!["é".repeat(60), format!("    {}", "é".repeat(60))]
        );
    }
}
