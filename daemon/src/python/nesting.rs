//! How deeply a module nests, read from its tokens before it is parsed.
//!
//! The parser and every reader after it recurse once per level of nesting,
//! so a hostile file (`x = ((((…))))` 5,000 deep, `a+a+…` 20,000 terms, a
//! long attribute chain) could exhaust the stack or spend gigabytes on a
//! 2 MB blob. The tokens bound that work before any tree exists: a module
//! whose nesting passes [`MAX_NESTING`] is not parsed at all, and the read
//! names the depth and the line instead (a coverage gap).
//!
//! The measure is an upper bound on the depth of the syntax tree, up to a
//! small constant factor: each open bracket is a level, each operator,
//! keyword, `.` or `:` since the last separator (`,`, `;`, a logical
//! newline) at that bracket level may be one more, and each indentation is
//! one. Names, numbers and strings add nothing (an implicit concatenation
//! of strings is one node). CPython itself refuses more than 200 nested
//! brackets and 100 indentation levels; the bound here is far above what
//! real code writes, so it refuses only code no one maintains by hand.

use ruff_python_ast::token::TokenKind;
use ruff_python_parser::{lexer, Mode};

/// Nesting past which a module is not parsed.
pub const MAX_NESTING: usize = 1000;
/// How a module past the bound is described.
pub const TOO_DEEP: &str = "nested deeper than 1,000 levels";

/// Where a module's nesting first passes [`MAX_NESTING`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooDeep {
    /// The 1-based line on which the bound was passed.
    pub line: u32,
}

/// `None` when the module nests at most [`MAX_NESTING`] levels; else the
/// line where it passes the bound.
pub fn check(source: &str) -> Option<TooDeep> {
    if !passes_bound(source) {
        return None;
    }
    Some(TooDeep {
        line: first_line_past_bound(source),
    })
}

/// Whether any token of `source` nests deeper than the bound.
fn passes_bound(source: &str) -> bool {
    let mut lexer = lexer::lex(source, Mode::Module);
    // One counter per open bracket (the first is the logical line's own),
    // and their running sum, so each token costs O(1).
    let mut counters: Vec<usize> = vec![0];
    let mut sum = 0usize;
    let mut indent = 0usize;
    loop {
        let kind = lexer.next_token();
        match kind {
            TokenKind::EndOfFile => return false,
            TokenKind::Rpar
            | TokenKind::Rsqb
            | TokenKind::Rbrace
            | TokenKind::FStringEnd
            | TokenKind::TStringEnd => {
                if counters.len() > 1 {
                    sum -= counters.pop().unwrap_or(0);
                }
            }
            TokenKind::Name
            | TokenKind::Int
            | TokenKind::Float
            | TokenKind::Complex
            | TokenKind::String
            | TokenKind::FStringMiddle
            | TokenKind::TStringMiddle
            | TokenKind::Comment
            | TokenKind::NonLogicalNewline => {}
            TokenKind::Comma | TokenKind::Semi => {
                if let Some(last) = counters.last_mut() {
                    sum -= *last;
                    *last = 0;
                }
            }
            TokenKind::Newline => {
                counters.clear();
                counters.push(0);
                sum = 0;
            }
            TokenKind::Indent => indent += 1,
            TokenKind::Dedent => indent = indent.saturating_sub(1),
            TokenKind::Lpar
            | TokenKind::Lsqb
            | TokenKind::Lbrace
            | TokenKind::FStringStart
            | TokenKind::TStringStart => {
                if let Some(last) = counters.last_mut() {
                    *last += 1;
                }
                sum += 1;
                counters.push(0);
            }
            _ => {
                if let Some(last) = counters.last_mut() {
                    *last += 1;
                }
                sum += 1;
            }
        }
        if sum + indent > MAX_NESTING {
            return true;
        }
    }
}

/// The first line whose end, as a prefix of the module, already passes the
/// bound. The lexer gives kinds, not positions, so the line is found by
/// bisecting over line ends: the tokens of a prefix cut at a line end are
/// the module's own up to that line, so passing is monotone in the cut.
/// Only a module already known to pass pays for this (a few dozen lexes).
fn first_line_past_bound(source: &str) -> u32 {
    let ends: Vec<usize> = source
        .match_indices('\n')
        .map(|(at, _)| at + 1)
        .chain(std::iter::once(source.len()))
        .collect();
    // Invariant: the prefix ending at `ends[high]` passes; none ending
    // before `ends[low]` does.
    let (mut low, mut high) = (0usize, ends.len() - 1);
    while low < high {
        let mid = low + (high - low) / 2;
        let prefix = source.get(..ends[mid]).unwrap_or(source);
        if passes_bound(prefix) {
            high = mid;
        } else {
            low = mid + 1;
        }
    }
    u32::try_from(low + 1).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_description_names_the_bound() {
        assert_eq!(
            TOO_DEEP,
            format!("nested deeper than 1,{:03} levels", MAX_NESTING - 1000)
        );
    }

    #[test]
    fn real_code_nests_shallowly() {
        let source = "import os\n\ndef f(a, b=[1, 2, (3, 4)]):\n    if a:\n        return {\"k\": [b[0].x(y) for y in z if y]}\n    return a + b - c * d\n";
        assert_eq!(check(source), None);
    }

    #[test]
    fn long_flat_lists_and_concatenations_are_not_deep() {
        let list = format!("x = [{}]\n", vec!["a.b"; 50_000].join(", "));
        assert_eq!(check(&list), None);
        let strings = format!("x = ({})\n", vec!["\"s\""; 50_000].join(" "));
        assert_eq!(check(&strings), None);
    }

    #[test]
    fn each_shape_of_deep_nesting_is_caught_on_its_line() {
        let n = MAX_NESTING + 1;
        let shapes = [
            format!("x = {}1{}\n", "(".repeat(n), ")".repeat(n)),
            format!("x = {}{}\n", "[".repeat(n), "]".repeat(n)),
            format!("x = a{}\n", "+a".repeat(n)),
            format!("x = a{}\n", ".b".repeat(n)),
            format!("x = {}a\n", "-".repeat(n)),
            format!("x = {}1{}\n", "f(".repeat(n), ")".repeat(n)),
            format!("x = {}0\n", "lambda: ".repeat(n)),
        ];
        for shape in &shapes {
            let source = format!("import os\n\n{shape}y = 1\n");
            assert_eq!(
                check(&source),
                Some(TooDeep { line: 3 }),
                "{}",
                &shape[..40]
            );
        }
    }

    #[test]
    fn nesting_at_the_bound_is_read() {
        let n = MAX_NESTING - 1;
        let source = format!("x = {}{}\n", "[".repeat(n), "]".repeat(n));
        assert_eq!(check(&source), None);
    }

    #[test]
    fn a_multi_line_string_before_the_depth_keeps_the_line_exact() {
        let n = MAX_NESTING + 1;
        let source = format!(
            "doc = \"\"\"one\ntwo\nthree\n\"\"\"\nx = (\n    {}1{}\n)\n",
            "[".repeat(n),
            "]".repeat(n)
        );
        assert_eq!(check(&source), Some(TooDeep { line: 6 }));
    }
}
