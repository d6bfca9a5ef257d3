//! CPython-compatible `ast.dump()` of Python function definitions.
//!
//! The reference tool fingerprints a function's implementation by running
//! CPython 3.12's `ast.dump(node, include_attributes=False)` on the
//! `FunctionDef` (with its leading docstring removed) and hashing the JSON
//! string literal of the result. This module reproduces that text byte for
//! byte from ruff's AST, which differs from CPython's in shape (no `elif`
//! nesting, per-parameter defaults, unjoined implicit concatenation, …), so
//! every node family below maps ruff's representation back onto CPython's
//! `_fields` order and conventions.
//!
//! Everything here is total: hostile input may produce text that CPython
//! would refuse to produce (CPython raises), but never a panic.
//!
//! Here: the entry points and the `Writer`'s output primitives. The node
//! families are written by `statements.rs` (with function parameters),
//! `expressions.rs` (with operator names), `fstrings.rs`, `patterns.rs`;
//! `reprs.rs` prints constants as Python's `repr()` does.

use std::borrow::Cow;
use std::fmt::Write as _;

use ruff_python_ast::{self as ast, Expr, ExprContext, Stmt};
use sha2::{Digest, Sha256};

/// CPython 3.12 `ast.dump(node, include_attributes=False)` of a function definition, leading docstring removed.
pub fn dump_function(def: &ast::StmtFunctionDef) -> String {
    let mut writer = Writer::default();
    writer.function_def(def, true);
    writer.out
}

/// Lowercase hex SHA-256 of the JSON string literal of `dump_function(def)`.
/// The text is escaped into the digest as it is written, a statement's
/// worth at a time, never kept whole: every function of every module is
/// fingerprinted, and the dump is several times the source it spells.
pub fn implementation_sha256(def: &ast::StmtFunctionDef) -> String {
    let mut writer = Writer {
        digest: Some(JsonStringDigest::new()),
        ..Writer::default()
    };
    writer.function_def(def, true);
    let mut digest = writer.digest.take().unwrap_or_else(JsonStringDigest::new);
    digest.update(&writer.out);
    digest.finish()
}

/// Lowercase hex SHA-256 of the JSON string literal of an arbitrary text
/// (ASCII-only JSON escaping like Python's `json.dumps(text)` default).
pub fn sha256_of_json_string(text: &str) -> String {
    let mut digest = JsonStringDigest::new();
    digest.update(text);
    digest.finish()
}

/// SHA-256 of `json.dumps(text)` for a text given in pieces: each piece is
/// escaped as it arrives (a piece never splits a char, being a `&str`).
/// Made by `new` only, so every digest begins with the opening quote.
struct JsonStringDigest {
    hasher: Sha256,
    /// One escape's text, reused.
    escaped: String,
}

impl JsonStringDigest {
    fn new() -> Self {
        let mut hasher = Sha256::new();
        hasher.update(b"\"");
        JsonStringDigest {
            hasher,
            escaped: String::new(),
        }
    }

    fn update(&mut self, text: &str) {
        // Runs that need no escape go in as they are. A byte outside the
        // plain range is an ASCII char to escape or the first byte of a
        // non-ASCII one, so each run ends on a char boundary.
        let bytes = text.as_bytes();
        let mut plain_from = 0;
        while let Some(offset) = bytes
            .get(plain_from..)
            .and_then(|rest| rest.iter().position(|&b| !is_json_plain(b)))
        {
            let at = plain_from + offset;
            self.hasher.update(&bytes[plain_from..at]);
            let Some(ch) = text.get(at..).and_then(|rest| rest.chars().next()) else {
                break;
            };
            self.escaped.clear();
            push_json_escape(&mut self.escaped, ch);
            self.hasher.update(self.escaped.as_bytes());
            plain_from = at + ch.len_utf8();
        }
        self.hasher
            .update(bytes.get(plain_from..).unwrap_or_default());
    }

    fn finish(mut self) -> String {
        self.hasher.update(b"\"");
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let digest = self.hasher.finalize();
        let mut hex = String::with_capacity(2 * digest.len());
        for byte in digest {
            hex.push(char::from(DIGITS[usize::from(byte >> 4)]));
            hex.push(char::from(DIGITS[usize::from(byte & 0xf)]));
        }
        hex
    }
}

/// A byte `json.dumps` writes as it is: printable ASCII but `"` and `\`.
fn is_json_plain(byte: u8) -> bool {
    matches!(byte, b' '..=b'~') && byte != b'"' && byte != b'\\'
}

/// CPython translates every `\r\n` and lone `\r` in source text to `\n` before
/// tokenizing, so raw newlines inside triple-quoted strings (and f-string debug
/// text) never contain `\r`. ruff keeps the source bytes as they are; callers
/// should run the source through this before parsing so that string constants
/// match CPython's.
pub fn normalize_newlines(source: &str) -> Cow<'_, str> {
    if source.contains('\r') {
        Cow::Owned(source.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        Cow::Borrowed(source)
    }
}

/// `json.dumps(text)` with the default `ensure_ascii=True`.
#[cfg(test)]
fn json_string_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for ch in text.chars() {
        push_json_escape(&mut out, ch);
    }
    out.push('"');
    out
}

/// One char as `json.dumps` writes it with `ensure_ascii=True`.
fn push_json_escape(out: &mut String, ch: char) {
    match ch {
        '"' => out.push_str("\\\""),
        '\\' => out.push_str("\\\\"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\u{8}' => out.push_str("\\b"),
        '\u{c}' => out.push_str("\\f"),
        ' '..='~' => out.push(ch),
        _ => {
            // Everything else (controls, DEL, non-ASCII) as UTF-16 code units,
            // which yields surrogate pairs for astral characters.
            let mut units = [0u16; 2];
            for unit in ch.encode_utf16(&mut units) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        }
    }
}

/// Nesting depth past which the writer stops descending. CPython's `ast.dump`
/// recurses once per node level and hits `RecursionError` near 1000 levels, so
/// no reference output exists beyond this; the limit only keeps our own stack
/// bounded on hostile input.
const MAX_DEPTH: usize = 1000;

/// Accumulates `ast.dump` text. Nodes are written as `Class(key=value, ...)`;
/// `fields` tracks, per open node, whether a field was written already so the
/// `, ` separators land correctly when optional fields are skipped.
#[derive(Default)]
struct Writer {
    out: String,
    fields: Vec<bool>,
    depth: usize,
    /// Where `out` is drained to once it holds a chunk, when only the
    /// text's digest is wanted.
    digest: Option<JsonStringDigest>,
}

/// How much text the writer holds before draining it into its digest.
const DRAIN_BYTES: usize = 16 * 1024;

mod expressions;
mod fstrings;
mod patterns;
mod reprs;
mod statements;
use reprs::push_str_repr;

// ---------------------------------------------------------------------------
// Output primitives
// ---------------------------------------------------------------------------
impl Writer {
    fn open(&mut self, class: &str) {
        self.out.push_str(class);
        self.out.push('(');
        self.fields.push(false);
    }

    fn key(&mut self, name: &str) {
        if let Some(written) = self.fields.last_mut() {
            if *written {
                self.out.push_str(", ");
            }
            *written = true;
        }
        self.out.push_str(name);
        self.out.push('=');
    }

    fn close(&mut self) {
        self.fields.pop();
        self.out.push(')');
    }

    /// A node without fields, such as `Load()` or `Pass()`.
    fn leaf(&mut self, class: &str) {
        self.out.push_str(class);
        self.out.push_str("()");
    }

    /// Enters one nesting level; `false` means the limit was hit and a
    /// placeholder was written instead of the node.
    fn enter(&mut self) -> bool {
        if self.depth >= MAX_DEPTH {
            self.out.push_str("...");
            return false;
        }
        self.depth += 1;
        true
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Hands the text written so far to the digest, once there is a chunk
    /// of it (called between statements).
    fn drain(&mut self) {
        if self.out.len() < DRAIN_BYTES {
            return;
        }
        if let Some(digest) = &mut self.digest {
            digest.update(&self.out);
            self.out.clear();
        }
    }

    fn list<T>(
        &mut self,
        key: &str,
        items: impl IntoIterator<Item = T>,
        mut item: impl FnMut(&mut Self, T),
    ) {
        self.key(key);
        self.out.push('[');
        for (index, value) in items.into_iter().enumerate() {
            if index > 0 {
                self.out.push_str(", ");
            }
            item(self, value);
        }
        self.out.push(']');
    }

    fn expr_field(&mut self, key: &str, expr: &Expr) {
        self.key(key);
        self.expr(expr);
    }

    /// Optional fields whose value is `None` are left out entirely, as
    /// `ast.dump` does for fields whose class default is `None`.
    fn opt_expr_field(&mut self, key: &str, expr: Option<&Expr>) {
        if let Some(expr) = expr {
            self.expr_field(key, expr);
        }
    }

    fn exprs_field<'a>(&mut self, key: &str, exprs: impl IntoIterator<Item = &'a Expr>) {
        self.list(key, exprs, Self::expr);
    }

    /// A list of optional expressions (`Dict.keys`, `arguments.kw_defaults`):
    /// inside a list CPython prints missing entries as `None`.
    fn opt_exprs_field<'a>(
        &mut self,
        key: &str,
        exprs: impl IntoIterator<Item = Option<&'a Expr>>,
    ) {
        self.list(key, exprs, |w, expr| match expr {
            Some(expr) => w.expr(expr),
            None => w.out.push_str("None"),
        });
    }

    fn body_field(&mut self, key: &str, body: &[Stmt]) {
        self.list(key, body, Self::stmt);
    }

    fn str_field(&mut self, key: &str, value: &str) {
        self.key(key);
        push_str_repr(&mut self.out, value);
    }

    fn opt_str_field(&mut self, key: &str, value: Option<&str>) {
        if let Some(value) = value {
            self.str_field(key, value);
        }
    }

    fn int_field(&mut self, key: &str, value: i64) {
        self.key(key);
        let _ = write!(self.out, "{value}");
    }

    fn ctx_field(&mut self, ctx: ExprContext) {
        self.key("ctx");
        self.leaf(match ctx {
            ExprContext::Store => "Store",
            ExprContext::Del => "Del",
            // `Invalid` only appears in error-recovered trees.
            ExprContext::Load | ExprContext::Invalid => "Load",
        });
    }
}

#[cfg(test)]
mod tests;
