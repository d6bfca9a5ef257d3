//! Escaping of repository-derived strings for a GitHub comment.
//!
//! Agent and tool names, paths and reasons come from the repository under
//! review, which may be hostile: none of them may become markup, HTML, a
//! link, a mention or a line break in the comment. Two forms:
//!
//! - [`text`] for prose and names anywhere (lists, paragraphs, table
//!   cells): every ASCII punctuation character is backslash-escaped, which
//!   CommonMark (§2.4) makes literal for any of them, so no emphasis,
//!   link, image, table pipe, heading, list marker, autolink (`https\://`)
//!   or emoji shortcode (`\:x\:`) can start; `&`, `<` and `>` become
//!   entities, so no HTML tag (`</details>` included) and no entity the
//!   repository spelled survives; `@` is followed by a zero-width space
//!   (`&#8203;`), so a name cannot mention a user or team.
//! - [`code`] for a name or path in a table cell, shown as code: a code
//!   span whose fence is longer than any backtick run inside it, with `|`
//!   escaped because GitHub splits table cells before it reads code spans.
//!   A value holding `<` or `>` is [`text`] instead: no raw `<` reaches the
//!   comment even where a code span would make it literal (an entity in a
//!   code span would print as spelled).
//!
//! Both first pass the one-line filter (`\xNN`, `\uNNNN` for control and
//! bidi characters), so nothing repository-derived can end a line, a table
//! row or a list item.

use crate::render::text::one_line;

/// `s` as literal markdown text.
pub fn text(s: &str) -> String {
    let visible = one_line(s);
    let mut out = String::with_capacity(visible.len() + visible.len() / 4);
    for c in visible.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '@' => out.push_str("@&#8203;"),
            c if c.is_ascii_punctuation() => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// `s` as a code span for a table cell; an empty `s` is an empty string
/// (an empty code span is not one).
pub fn code(s: &str) -> String {
    if s.contains(['<', '>']) {
        return text(s);
    }
    let visible = one_line(s).replace('|', "\\|");
    if visible.is_empty() {
        return String::new();
    }
    let longest_run = visible.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest_run + 1);
    // A span that starts or ends with a backtick or a space is padded on
    // both sides; CommonMark strips exactly one space from each.
    let pad = if visible.starts_with(['`', ' ']) || visible.ends_with(['`', ' ']) {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{visible}{pad}{fence}")
}

/// The first `max` characters of `s`, and `…` when it was longer: applied
/// to raw strings before escaping, so a cut never splits an escape.
pub fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut cut: String = s.chars().take(max).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_and_html_come_out_literal() {
        assert_eq!(
            text("</details><b>x</b>"),
            "&lt;\\/details&gt;&lt;b&gt;x&lt;\\/b&gt;"
        );
        assert_eq!(
            text("*a* _b_ [c](d) ![e](f)"),
            "\\*a\\* \\_b\\_ \\[c\\]\\(d\\) \\!\\[e\\]\\(f\\)"
        );
        assert_eq!(text("a|b"), "a\\|b");
        assert_eq!(text("&lt;"), "&amp;lt\\;");
        assert_eq!(text("https://x.io"), "https\\:\\/\\/x\\.io");
        assert_eq!(text("@octo/team"), "@&#8203;octo\\/team");
        assert_eq!(text("a\nb\u{202e}"), "a\\\\x0ab\\\\u202e");
        assert_eq!(text("naïve 名前"), "naïve 名前");
    }

    #[test]
    fn code_spans_outrun_backticks_and_escape_pipes() {
        assert_eq!(code("agent.py:3"), "`agent.py:3`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`x``"), "``` `x`` ```");
        assert_eq!(code("a|b"), "`a\\|b`");
        assert_eq!(code(""), "");
        assert_eq!(code("x\ny"), "`x\\x0ay`");
        assert_eq!(code("a</details>"), "a&lt;\\/details&gt;");
    }

    #[test]
    fn clip_counts_characters() {
        assert_eq!(clip("ééé", 2), "éé…");
        assert_eq!(clip("abc", 3), "abc");
    }
}
