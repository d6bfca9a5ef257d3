//! Redaction of secret-shaped text (output contract §3.3).
//!
//! Every string of the document — values and keys — passes a set of
//! pattern matchers, applied one kind after the other; values under a
//! sensitive key are replaced wholesale. The matchers are hand-rolled
//! equivalents of the reference tool's regular expressions, including its
//! regex semantics: `\b` is a *Unicode* word boundary, classes are ASCII,
//! and a match found at a position is the one Python's backtracking engine
//! would pick there. Those details were pinned down by running the
//! reference binary on crafted agent names (see the tests).

use serde_json::Value;

/// Replacement for any non-empty string under a sensitive key.
const SENSITIVE_MARKER: &str = "[REDACTED:sensitive_field]";

/// Normalised key names whose values are replaced wholesale.
const SENSITIVE_KEYS: &[&str] = &[
    "apikey",
    "api_key",
    "authorization",
    "bearer",
    "clientsecret",
    "client_secret",
    "credential",
    "credentials",
    "password",
    "passwd",
    "privatekey",
    "private_key",
    "pwd",
    "secret",
    "token",
];

/// Every marker kind the sanitiser writes; a string that is exactly one
/// such marker is already redacted and left alone.
const MARKER_KINDS: &[&str] = &[
    "sensitive_field",
    "openai_api_key",
    "aws_access_key",
    "github_token",
    "stripe_key",
    "stripe_webhook_secret",
    "slack_token",
    "jwt",
    "database_url",
    "bearer_token",
    "labeled_secret_value",
];

/// A matcher tries to match at exactly one position and returns the span to
/// replace plus where the whole match ends (they differ only for the
/// labelled-secret rule, which keeps its label and quotes).
struct Hit {
    replace_start: usize,
    replace_end: usize,
    end: usize,
}

type Matcher = fn(&[char], usize) -> Option<Hit>;

/// One substring rule: its marker kind, the literals one of which every
/// match of it starts with (after an optional boundary check), whether
/// they are matched ignoring case, and the matcher.
struct Rule {
    kind: &'static str,
    anchors: &'static [&'static str],
    ignore_case: bool,
    matcher: Matcher,
}

/// The substring rules in the order the reference applies them; each rule
/// runs over the output of the previous one (so `Bearer sk-…` is redacted
/// as an OpenAI key, not as a bearer token).
const RULES: &[Rule] = &[
    Rule {
        kind: "openai_api_key",
        anchors: &["sk-"],
        ignore_case: false,
        matcher: match_openai_api_key,
    },
    Rule {
        kind: "aws_access_key",
        anchors: &["AKIA", "ASIA", "AROA", "AGPA", "ANPA", "AIDA", "AIPA"],
        ignore_case: false,
        matcher: match_aws_access_key,
    },
    Rule {
        kind: "github_token",
        anchors: &["gho_", "ghp_", "ghu_", "ghs_", "ghr_", "github_pat_"],
        ignore_case: false,
        matcher: match_github_token,
    },
    Rule {
        kind: "stripe_key",
        anchors: &["sk_", "rk_", "pk_"],
        ignore_case: false,
        matcher: match_stripe_key,
    },
    Rule {
        kind: "stripe_webhook_secret",
        anchors: &["whsec_"],
        ignore_case: false,
        matcher: match_stripe_webhook_secret,
    },
    Rule {
        kind: "slack_token",
        anchors: &["xox"],
        ignore_case: false,
        matcher: match_slack_token,
    },
    Rule {
        kind: "jwt",
        anchors: &["eyJ"],
        ignore_case: false,
        matcher: match_jwt,
    },
    Rule {
        kind: "database_url",
        anchors: &["://"],
        ignore_case: false,
        matcher: match_database_url,
    },
    Rule {
        kind: "bearer_token",
        anchors: &["bearer"],
        ignore_case: true,
        matcher: match_bearer_token,
    },
    Rule {
        kind: "labeled_secret_value",
        anchors: &[
            "password", "secret", "token", "api_key", "api-key", "apikey",
        ],
        ignore_case: true,
        matcher: match_labeled_secret,
    },
];

impl Rule {
    /// Whether the rule can match anywhere in `text`: every match starts
    /// with one of its anchors (`literal_at`, char by char through
    /// `lower` when ignoring case), so text holding none is left as it
    /// is. `lower` maps one char to one char, so an anchor found in the
    /// lowered text is one `literal_at` finds at that char.
    fn may_match(&self, text: &str) -> bool {
        if !self.ignore_case {
            return self.anchors.iter().any(|a| text.contains(a));
        }
        // On ASCII text `lower` is `to_ascii_lowercase`: no copy needed.
        if text.is_ascii() {
            let bytes = text.as_bytes();
            return self.anchors.iter().any(|a| {
                bytes
                    .windows(a.len())
                    .any(|window| window.eq_ignore_ascii_case(a.as_bytes()))
            });
        }
        let lowered: String = text.chars().map(lower).collect();
        self.anchors.iter().any(|a| lowered.contains(a))
    }
}

/// Sanitises a whole document in place.
pub fn sanitize(v: &mut Value) {
    sanitize_value(v, false);
}

/// Applies only the substring rules to one string (no sensitive-key rule).
pub fn redact_text(s: &str) -> String {
    // The shortest match of any rule (a JWT, `eyJa.b.c`) is 8 chars, so 8
    // bytes at least.
    if s.len() < 8 {
        return s.to_string();
    }
    // Most strings of a document (paths, names, digests) hold no rule's
    // anchor: they are copied, never scanned position by position.
    let mut text = s.to_string();
    for rule in RULES {
        if rule.may_match(&text) {
            let chars: Vec<char> = text.chars().collect();
            text = substitute(&chars, rule.kind, rule.matcher)
                .into_iter()
                .collect();
        }
    }
    text
}

fn sanitize_value(v: &mut Value, under_sensitive_key: bool) {
    match v {
        Value::String(s) => *s = sanitize_string(s, under_sensitive_key),
        Value::Array(items) => {
            for item in items {
                sanitize_value(item, under_sensitive_key);
            }
        }
        Value::Object(map) => {
            // Keys may change, so rebuild the map; insertion keeps the
            // original order (a collision keeps the first position, as a
            // Python dict would).
            let old = std::mem::take(map);
            for (key, mut item) in old {
                let sensitive = under_sensitive_key || is_sensitive_key(&key);
                sanitize_value(&mut item, sensitive);
                map.insert(redact_text(&key), item);
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

fn sanitize_string(s: &str, under_sensitive_key: bool) -> String {
    if is_marker(s) {
        return s.to_string();
    }
    let redacted = redact_text(s);
    // A pattern's partial redaction is kept; otherwise a value under a
    // sensitive key is hidden entirely.
    if under_sensitive_key && !s.is_empty() && redacted == s {
        SENSITIVE_MARKER.to_string()
    } else {
        redacted
    }
}

/// The key lower-cased with everything but `[a-z0-9_]` removed, compared to
/// the list (so `Client-Secret` and `API_KEY` count, `max_tokens` does not).
fn is_sensitive_key(key: &str) -> bool {
    let normalised: String = key
        .to_lowercase()
        .chars()
        .filter(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
        .collect();
    SENSITIVE_KEYS.contains(&normalised.as_str())
}

fn is_marker(s: &str) -> bool {
    s.strip_prefix("[REDACTED:")
        .and_then(|rest| rest.strip_suffix(']'))
        .is_some_and(|kind| MARKER_KINDS.contains(&kind))
}

/// Leftmost, non-overlapping replacement, like `re.sub`.
fn substitute(chars: &[char], kind: &str, matcher: Matcher) -> Vec<char> {
    let marker: Vec<char> = format!("[REDACTED:{kind}]").chars().collect();
    let mut out = Vec::with_capacity(chars.len());
    let mut i = 0;
    while i < chars.len() {
        match matcher(chars, i) {
            Some(hit) if hit.end > i => {
                out.extend_from_slice(&chars[i..hit.replace_start]);
                out.extend_from_slice(&marker);
                out.extend_from_slice(&chars[hit.replace_end..hit.end]);
                i = hit.end;
            }
            _ => {
                out.push(chars[i]);
                i += 1;
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Character helpers mirroring Python `re` semantics on `str`.

/// Python's `\w` on `str`: Unicode alphanumerics and `_`.
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Python's `\s` on `str` (Rust's set plus the C0 separators U+001C–U+001F).
fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// `\b` at `pos`: a word character on exactly one side.
fn at_boundary(chars: &[char], pos: usize) -> bool {
    let before = pos > 0 && chars.get(pos - 1).is_some_and(|c| is_word(*c));
    let after = chars.get(pos).is_some_and(|c| is_word(*c));
    before != after
}

/// Single-character lower-casing used by the case-insensitive rules. The
/// reference matches `BEARER` and `toKen` (Kelvin sign) but not `pasſword`
/// (long s), which is what matching against `str.lower()` gives.
fn lower(c: char) -> char {
    let mut it = c.to_lowercase();
    match (it.next(), it.next()) {
        (Some(l), None) => l,
        _ => c,
    }
}

/// Does `word` (ASCII) occur at `pos`, exactly or ignoring case?
fn literal_at(chars: &[char], pos: usize, word: &str, ignore_case: bool) -> Option<usize> {
    let mut p = pos;
    for want in word.chars() {
        let got = *chars.get(p)?;
        let got = if ignore_case { lower(got) } else { got };
        if got != want {
            return None;
        }
        p += 1;
    }
    Some(p)
}

/// First of `words` occurring at `pos` (regex alternation order).
fn any_literal_at(chars: &[char], pos: usize, words: &[&str], ignore_case: bool) -> Option<usize> {
    words
        .iter()
        .find_map(|w| literal_at(chars, pos, w, ignore_case))
}

/// Length of the run of `class` characters starting at `pos`.
fn run_len(chars: &[char], pos: usize, class: fn(char) -> bool) -> usize {
    chars
        .get(pos..)
        .map_or(0, |rest| rest.iter().take_while(|c| class(**c)).count())
}

/// `class{min,}\b`: the longest run prefix of at least `min` characters
/// followed by a word boundary (the backtracking a regex engine does).
fn run_then_boundary(
    chars: &[char],
    pos: usize,
    class: fn(char) -> bool,
    min: usize,
) -> Option<usize> {
    let len = run_len(chars, pos, class);
    (min..=len)
        .rev()
        .map(|k| pos + k)
        .find(|end| at_boundary(chars, *end))
}

fn whole(start: usize, end: usize) -> Hit {
    Hit {
        replace_start: start,
        replace_end: end,
        end,
    }
}

fn alnum(c: char) -> bool {
    c.is_ascii_alphanumeric()
}

/// `[A-Za-z0-9_-]`
fn alnum_dash_underscore(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

// ---------------------------------------------------------------------------
// One matcher per kind. Each comment gives the equivalent regex.

/// `(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{16,}` — greedy, no trailing boundary.
fn match_openai_api_key(chars: &[char], i: usize) -> Option<Hit> {
    if i > 0 && chars.get(i - 1).is_some_and(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    let p = literal_at(chars, i, "sk-", false)?;
    let len = run_len(chars, p, alnum_dash_underscore);
    (len >= 16).then(|| whole(i, p + len))
}

/// `\b(?:AKIA|ASIA|AROA|AGPA|ANPA|AIDA|AIPA)[0-9A-Z]{16}\b` — exactly 16.
fn match_aws_access_key(chars: &[char], i: usize) -> Option<Hit> {
    if !at_boundary(chars, i) {
        return None;
    }
    let prefixes = ["AKIA", "ASIA", "AROA", "AGPA", "ANPA", "AIDA", "AIPA"];
    let p = any_literal_at(chars, i, &prefixes, false)?;
    let upper_digit = |c: char| c.is_ascii_uppercase() || c.is_ascii_digit();
    let tail = chars.get(p..p + 16)?;
    let end = p + 16;
    (tail.iter().all(|c| upper_digit(*c)) && at_boundary(chars, end)).then(|| whole(i, end))
}

/// `\b(?:gh[opusr]_|github_pat_)[A-Za-z0-9_]{20,}\b`
fn match_github_token(chars: &[char], i: usize) -> Option<Hit> {
    if !at_boundary(chars, i) {
        return None;
    }
    let short = ["gho_", "ghp_", "ghu_", "ghs_", "ghr_"];
    let p = any_literal_at(chars, i, &short, false)
        .or_else(|| literal_at(chars, i, "github_pat_", false))?;
    let word_ascii = |c: char| c.is_ascii_alphanumeric() || c == '_';
    run_then_boundary(chars, p, word_ascii, 20).map(|end| whole(i, end))
}

/// `\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}\b`
fn match_stripe_key(chars: &[char], i: usize) -> Option<Hit> {
    if !at_boundary(chars, i) {
        return None;
    }
    let p = any_literal_at(chars, i, &["sk_", "rk_", "pk_"], false)?;
    let p = any_literal_at(chars, p, &["live_", "test_"], false)?;
    run_then_boundary(chars, p, alnum, 16).map(|end| whole(i, end))
}

/// `\bwhsec_[A-Za-z0-9]{16,}\b`
fn match_stripe_webhook_secret(chars: &[char], i: usize) -> Option<Hit> {
    if !at_boundary(chars, i) {
        return None;
    }
    let p = literal_at(chars, i, "whsec_", false)?;
    run_then_boundary(chars, p, alnum, 16).map(|end| whole(i, end))
}

/// `\bxox[aboprs]-[A-Za-z0-9-]{10,}\b`
fn match_slack_token(chars: &[char], i: usize) -> Option<Hit> {
    if !at_boundary(chars, i) {
        return None;
    }
    let prefixes = ["xoxa-", "xoxb-", "xoxo-", "xoxp-", "xoxr-", "xoxs-"];
    let p = any_literal_at(chars, i, &prefixes, false)?;
    let class = |c: char| c.is_ascii_alphanumeric() || c == '-';
    run_then_boundary(chars, p, class, 10).map(|end| whole(i, end))
}

/// `\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\b`
fn match_jwt(chars: &[char], i: usize) -> Option<Hit> {
    if !at_boundary(chars, i) {
        return None;
    }
    let mut p = literal_at(chars, i, "eyJ", false)?;
    // The first two segments end at a '.', which the class excludes, so
    // each must be the whole run.
    for _ in 0..2 {
        let len = run_len(chars, p, alnum_dash_underscore);
        if len == 0 || chars.get(p + len) != Some(&'.') {
            return None;
        }
        p += len + 1;
    }
    run_then_boundary(chars, p, alnum_dash_underscore, 1).map(|end| whole(i, end))
}

/// `\b(?:postgres(?:ql)?|mysql|mongodb(?:\+srv)?|rediss?|mssql|sqlserver|clickhouse)://`
/// `[^\s:/@]+:[^\s@]+@[^\s'"]+` — user, password, then host and the rest.
fn match_database_url(chars: &[char], i: usize) -> Option<Hit> {
    if !at_boundary(chars, i) {
        return None;
    }
    let schemes = [
        "postgresql://",
        "postgres://",
        "mysql://",
        "mongodb+srv://",
        "mongodb://",
        "rediss://",
        "redis://",
        "mssql://",
        "sqlserver://",
        "clickhouse://",
    ];
    let p = any_literal_at(chars, i, &schemes, false)?;
    let user = run_len(chars, p, |c| {
        !is_py_space(c) && !matches!(c, ':' | '/' | '@')
    });
    if user == 0 || chars.get(p + user) != Some(&':') {
        return None;
    }
    let p = p + user + 1;
    let password = run_len(chars, p, |c| !is_py_space(c) && c != '@');
    if password == 0 || chars.get(p + password) != Some(&'@') {
        return None;
    }
    let p = p + password + 1;
    let host = run_len(chars, p, |c| !is_py_space(c) && c != '\'' && c != '"');
    (host > 0).then(|| whole(i, p + host))
}

/// `(?i)\bbearer +[A-Za-z0-9._~+/=-]{12,}\b` — spaces only, not tabs.
fn match_bearer_token(chars: &[char], i: usize) -> Option<Hit> {
    if !at_boundary(chars, i) {
        return None;
    }
    let p = literal_at(chars, i, "bearer", true)?;
    let spaces = run_len(chars, p, |c| c == ' ');
    if spaces == 0 {
        return None;
    }
    let token = |c: char| {
        let c = lower(c);
        c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '~' | '+' | '/' | '=' | '-')
    };
    run_then_boundary(chars, p + spaces, token, 12).map(|end| whole(i, end))
}

/// `(?i)(?:password|secret|token|api_key|api-key|apikey)\s*[:=]\s*(["']?)`
/// `([A-Za-z0-9_./+=-]{20,})\1` — only the value (group 2) is replaced; an
/// opening quote must be closed by the same quote.
fn match_labeled_secret(chars: &[char], i: usize) -> Option<Hit> {
    let labels = [
        "password", "secret", "token", "api_key", "api-key", "apikey",
    ];
    let p = any_literal_at(chars, i, &labels, true)?;
    let p = p + run_len(chars, p, is_py_space);
    if !matches!(chars.get(p), Some(':' | '=')) {
        return None;
    }
    let p = p + 1;
    let p = p + run_len(chars, p, is_py_space);
    let value_class = |c: char| {
        let c = lower(c);
        c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '/' | '+' | '=' | '-')
    };
    let quote = chars.get(p).copied().filter(|c| *c == '"' || *c == '\'');
    let start = p + usize::from(quote.is_some());
    let len = run_len(chars, start, value_class);
    if len < 20 {
        return None;
    }
    let value_end = start + len;
    let end = match quote {
        Some(q) if chars.get(value_end) == Some(&q) => value_end + 1,
        Some(_) => return None,
        None => value_end,
    };
    Some(Hit {
        replace_start: start,
        replace_end: value_end,
        end,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Every rule run at every position, as before the anchors: what the
    /// anchored `redact_text` must equal.
    fn redact_every_position(s: &str) -> String {
        let mut chars: Vec<char> = s.chars().collect();
        for rule in RULES {
            chars = substitute(&chars, rule.kind, rule.matcher);
        }
        chars.into_iter().collect()
    }

    #[test]
    fn anchors_skip_only_what_no_rule_matches() {
        let cases = [
            "app/agent.py:12",
            "Bearer sk-abcdefghijklmnopqrstu",
            "BEARER abcdefghijklmnop",
            "toKEN=abcdefghijklmnopqrstuvwxyz",
            "to\u{212a}en: 'abcdefghijklmnopqrstuvwxyz'",
            "postgres://user:pw@db.example.com/x",
            "eyJabc.def.ghi",
            "xoxb-1234567890abc",
            "whsec_abcdefghijklmnopqrst",
            "sk_live_abcdefghijklmnopqrst",
            "ghp_abcdefghijklmnopqrstuvwxyz",
            "AKIAABCDEFGHIJKLMNOP",
            "secret = [REDACTED:openai_api_key]",
            "api_key: sk-abcdefghijklmnopqrstuvwxyz0123",
            "plain words, no secret-shaped text at all",
            "é ü ß — unicode without anchors",
            "eyJa.b.c",
            "eyJa.b.",
            "BeArEr  abcdefghijklmnop",
            "PASSWORD = 'abcdefghijklmnopqrstuvwxyz'",
        ];
        for case in cases {
            assert_eq!(redact_text(case), redact_every_position(case), "{case:?}");
        }
    }

    /// Input → expected output pairs observed from the reference binary.
    fn check(cases: &[(&str, &str)]) {
        for (input, want) in cases {
            assert_eq!(redact_text(input), *want, "input {input:?}");
        }
    }

    #[test]
    fn openai_api_key() {
        check(&[
            ("sk-abcdefghijklmnop", "[REDACTED:openai_api_key]"),
            ("sk-abcdefghijklmno", "sk-abcdefghijklmno"),
            ("xsk-abcdefghijklmnop", "xsk-abcdefghijklmnop"),
            ("9sk-abcdefghijklmnop", "9sk-abcdefghijklmnop"),
            ("_sk-abcdefghijklmnop", "_[REDACTED:openai_api_key]"),
            ("-sk-abcdefghijklmnop", "-[REDACTED:openai_api_key]"),
            ("ésk-abcdefghijklmnop", "é[REDACTED:openai_api_key]"),
            ("sk-abcdefghijklmnopé", "[REDACTED:openai_api_key]é"),
            ("sk-abcdefghijklmnop.x", "[REDACTED:openai_api_key].x"),
        ]);
    }

    #[test]
    fn aws_access_key() {
        check(&[
            ("AKIAABCDEFGHIJKLMNOP", "[REDACTED:aws_access_key]"),
            ("ASIAABCDEFGHIJKLMNO1", "[REDACTED:aws_access_key]"),
            ("AGPAABCDEFGHIJKLMNOP", "[REDACTED:aws_access_key]"),
            ("AROAABCDEFGHIJKLMNOP", "[REDACTED:aws_access_key]"),
            ("AKIAABCDEFGHIJKLMNOP-", "[REDACTED:aws_access_key]-"),
            ("AKIAABCDEFGHIJKLMNOPQ", "AKIAABCDEFGHIJKLMNOPQ"),
            ("AKIAABCDEFGHIJKLMNOP_", "AKIAABCDEFGHIJKLMNOP_"),
            ("_AKIAABCDEFGHIJKLMNOP", "_AKIAABCDEFGHIJKLMNOP"),
            ("éAKIAABCDEFGHIJKLMNOP", "éAKIAABCDEFGHIJKLMNOP"),
            ("AKIAABCDEFGHIJKLMNOPé", "AKIAABCDEFGHIJKLMNOPé"),
            ("AKIAabcdefghijklmnop", "AKIAabcdefghijklmnop"),
        ]);
    }

    #[test]
    fn github_token() {
        check(&[
            ("ghp_abcdefghijklmnopqrst", "[REDACTED:github_token]"),
            ("ghp_abcdefghijklmnopqrs", "ghp_abcdefghijklmnopqrs"),
            (
                "github_pat_abcdefghijklmnopqrstuv",
                "[REDACTED:github_token]",
            ),
            ("ghs_abcdefghij_lmnopqrstuvw-x", "[REDACTED:github_token]-x"),
            ("-ghp_abcdefghijklmnopqrst", "-[REDACTED:github_token]"),
            ("xghp_abcdefghijklmnopqrst", "xghp_abcdefghijklmnopqrst"),
            ("_ghp_abcdefghijklmnopqrst", "_ghp_abcdefghijklmnopqrst"),
            ("ghp_abcdefghijklmnopqrsté", "ghp_abcdefghijklmnopqrsté"),
            (
                "ghu_abcdefghijklmnopqrst ghr_abcdefghijklmnopqrst",
                "[REDACTED:github_token] [REDACTED:github_token]",
            ),
        ]);
    }

    #[test]
    fn stripe_key() {
        check(&[
            ("sk_live_abcdefghijklmnop", "[REDACTED:stripe_key]"),
            ("rk_live_abcdefghijklmnop", "[REDACTED:stripe_key]"),
            ("pk_test_ABCDEFGH12345678", "[REDACTED:stripe_key]"),
            ("pk_live_abcdefghijklmnop-", "[REDACTED:stripe_key]-"),
            ("sk_test_abcdefghijklmno", "sk_test_abcdefghijklmno"),
            ("xsk_live_abcdefghijklmnop", "xsk_live_abcdefghijklmnop"),
            ("sk_live_abcdefghijklmnop_q", "sk_live_abcdefghijklmnop_q"),
            ("sk_live_abcdefghijklmnopé", "sk_live_abcdefghijklmnopé"),
            ("sk_prod_abcdefghijklmnop", "sk_prod_abcdefghijklmnop"),
        ]);
    }

    #[test]
    fn stripe_webhook_secret() {
        check(&[
            ("whsec_abcdefghijklmnop", "[REDACTED:stripe_webhook_secret]"),
            (
                "whsec_abcdefghijklmnop-x",
                "[REDACTED:stripe_webhook_secret]-x",
            ),
            ("whsec_abcdefghijklmno", "whsec_abcdefghijklmno"),
            ("xwhsec_abcdefghijklmnop", "xwhsec_abcdefghijklmnop"),
            ("whsec_abcdefgh_ijklmnop", "whsec_abcdefgh_ijklmnop"),
            ("whsec_abcdefghijklmnop_", "whsec_abcdefghijklmnop_"),
        ]);
    }

    #[test]
    fn slack_token() {
        check(&[
            ("xoxb-1234567890", "[REDACTED:slack_token]"),
            ("xoxp-12-34-56-78-90ab", "[REDACTED:slack_token]"),
            ("xoxb-123456789", "xoxb-123456789"),
            ("axoxb-1234567890", "axoxb-1234567890"),
            ("xoxb-1234567890_", "xoxb-1234567890_"),
            ("xoxc-1234567890", "xoxc-1234567890"),
            ("xoxb-1234567890-", "[REDACTED:slack_token]-"),
        ]);
    }

    #[test]
    fn jwt() {
        check(&[
            (
                "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc123",
                "[REDACTED:jwt]",
            ),
            ("eyJa.b.c", "[REDACTED:jwt]"),
            ("eyJa-_.b-_.c_-d", "[REDACTED:jwt]"),
            ("eyJa.b.c.d", "[REDACTED:jwt].d"),
            ("eyJa.b.c-", "[REDACTED:jwt]-"),
            ("-eyJa.b.c", "-[REDACTED:jwt]"),
            ("eyJ.b.c", "eyJ.b.c"),
            ("eyJa.b.", "eyJa.b."),
            ("eyJa..c", "eyJa..c"),
            ("eyJa.b=.c", "eyJa.b=.c"),
            ("eyJa.b.cé", "eyJa.b.cé"),
            ("_eyJa.b.c", "_eyJa.b.c"),
        ]);
    }

    #[test]
    fn database_url() {
        check(&[
            (
                "postgres://user:pass@host:5432/db",
                "[REDACTED:database_url]",
            ),
            (
                "see postgresql://a:b@h/d now",
                "see [REDACTED:database_url] now",
            ),
            ("mongodb+srv://u:p@cluster/x", "[REDACTED:database_url]"),
            ("rediss://a:b@h", "[REDACTED:database_url]"),
            ("clickhouse://a:b@h", "[REDACTED:database_url]"),
            ("postgres://a:b/c@h", "[REDACTED:database_url]"),
            ("postgres://a:b@h@i", "[REDACTED:database_url]"),
            ("postgres://a\"b:c@h", "[REDACTED:database_url]"),
            ("postgres://a:b@h/d\"x", "[REDACTED:database_url]\"x"),
            ("postgres://a:b@h/d'x", "[REDACTED:database_url]'x"),
            ("postgres://a:b@h/d\tx", "[REDACTED:database_url]\tx"),
            ("postgres://a:b@h/d)x", "[REDACTED:database_url]"),
            ("redis://:pass@host", "redis://:pass@host"),
            ("mysql://u@host/db", "mysql://u@host/db"),
            ("http://u:p@host/x", "http://u:p@host/x"),
            ("POSTGRES://a:b@h/d", "POSTGRES://a:b@h/d"),
            ("xpostgres://a:b@h/d", "xpostgres://a:b@h/d"),
            ("postgres://a:@h", "postgres://a:@h"),
            ("postgres://a:b@", "postgres://a:b@"),
            ("postgres://a:b@\"h", "postgres://a:b@\"h"),
            ("postgres://a b:c@h", "postgres://a b:c@h"),
            ("postgres://a/b:c@h", "postgres://a/b:c@h"),
        ]);
    }

    #[test]
    fn bearer_token() {
        check(&[
            ("Bearer abcdefghijkl", "[REDACTED:bearer_token]"),
            ("Bearer  abcdefghijkl", "[REDACTED:bearer_token]"),
            ("BEARER abc.def~ghi+jkl/==", "[REDACTED:bearer_token]/=="),
            ("Bearer abcdefghijkl==", "[REDACTED:bearer_token]=="),
            ("Bearer abcdefghijkl=x", "[REDACTED:bearer_token]"),
            ("Bearer abcdefghijkl_x", "[REDACTED:bearer_token]"),
            ("Bearer ===abcdefghijkl", "[REDACTED:bearer_token]"),
            ("-bearer abcdefghijkl", "-[REDACTED:bearer_token]"),
            ("bearer abcdefghijk", "bearer abcdefghijk"),
            ("Bearer abcdefghijk=", "Bearer abcdefghijk="),
            ("Bearer abcdefghijklé", "Bearer abcdefghijklé"),
            ("Bearer abcdefghijk:l", "Bearer abcdefghijk:l"),
            ("Bearer\tabcdefghijkl", "Bearer\tabcdefghijkl"),
            ("xbearer abcdefghijkl", "xbearer abcdefghijkl"),
            ("_bearer abcdefghijkl", "_bearer abcdefghijkl"),
            ("bearerabcdefghijkl", "bearerabcdefghijkl"),
        ]);
    }

    #[test]
    fn labeled_secret_value() {
        check(&[
            (
                "password=abcdefghijklmnopqrst",
                "password=[REDACTED:labeled_secret_value]",
            ),
            (
                "password=abcdefghijklmnopqrs",
                "password=abcdefghijklmnopqrs",
            ),
            (
                "token: 'abcdefghijklmnopqrstuvwxyz'",
                "token: '[REDACTED:labeled_secret_value]'",
            ),
            (
                "API_KEY=abcdefghijklmnopqrstu",
                "API_KEY=[REDACTED:labeled_secret_value]",
            ),
            (
                "secret = abcdefghijklmnopqrstu",
                "secret = [REDACTED:labeled_secret_value]",
            ),
            (
                "mytoken=abcdefghijklmnopqrstu",
                "mytoken=[REDACTED:labeled_secret_value]",
            ),
            (
                "api-key:\"abcdefghijklmnopqrstu\"",
                "api-key:\"[REDACTED:labeled_secret_value]\"",
            ),
            (
                "password==abcdefghijklmnopqrst",
                "password=[REDACTED:labeled_secret_value]",
            ),
            (
                "password:=abcdefghijklmnopqrst",
                "password:[REDACTED:labeled_secret_value]",
            ),
            (
                "password=abcdefghijklmnopqrst!x",
                "password=[REDACTED:labeled_secret_value]!x",
            ),
            (
                "secret:\u{1f}abcdefghijklmnopqrst",
                "secret:\u{1f}[REDACTED:labeled_secret_value]",
            ),
            (
                "to\u{212a}en=abcdefghijklmnopqrst",
                "to\u{212a}en=[REDACTED:labeled_secret_value]",
            ),
            (
                "pas\u{17f}word=abcdefghijklmnopqrst",
                "pas\u{17f}word=abcdefghijklmnopqrst",
            ),
            (
                "password=\"abcdefghijklmnopqrst",
                "password=\"abcdefghijklmnopqrst",
            ),
            (
                "password='abcdefghijklmnopqrst\"",
                "password='abcdefghijklmnopqrst\"",
            ),
            (
                "password=''abcdefghijklmnopqrst''",
                "password=''abcdefghijklmnopqrst''",
            ),
            (
                "password = `abcdefghijklmnopqrst`",
                "password = `abcdefghijklmnopqrst`",
            ),
            (
                "secrets=abcdefghijklmnopqrstuv",
                "secrets=abcdefghijklmnopqrstuv",
            ),
            (
                "password=abcdefghij klmnopqrstuvwxyz",
                "password=abcdefghij klmnopqrstuvwxyz",
            ),
        ]);
    }

    #[test]
    fn rules_apply_in_order() {
        check(&[
            (
                "Bearer sk-abcdefghijklmnopqr",
                "Bearer [REDACTED:openai_api_key]",
            ),
            ("Bearer eyJhbGciOiJ.eyJzdWIi.abc", "Bearer [REDACTED:jwt]"),
            (
                "Bearer ghp_abcdefghijklmnopqrst",
                "Bearer [REDACTED:github_token]",
            ),
            (
                "token=eyJa.b.cdefghijklmnopqrstuvwxyz",
                "token=[REDACTED:jwt]",
            ),
            (
                "token=postgres://u:p@hostabcdefghijklmnop",
                "token=[REDACTED:database_url]",
            ),
            (
                "password=Bearer abcdefghijklmnopqrst",
                "password=[REDACTED:bearer_token]",
            ),
            (
                "postgres://u:Bearer abcdefghijklmnop@h",
                "postgres://u:[REDACTED:bearer_token]@h",
            ),
        ]);
    }

    #[test]
    fn markers_and_plain_text_pass() {
        check(&[
            ("[REDACTED:jwt]", "[REDACTED:jwt]"),
            ("x [REDACTED:jwt]", "x [REDACTED:jwt]"),
            (
                "lookup_order(order_id) -> dict",
                "lookup_order(order_id) -> dict",
            ),
            ("", ""),
        ]);
    }

    #[test]
    fn sensitive_keys_hide_values_wholesale() {
        let mut v = json!({
            "input_schema": {"properties": {
                "api_key": {"type": "string"},
                "Client_Secret": {"type": "boolean"},
                "pässword": {"type": "string"},
                "max_tokens": {"type": "integer"}
            }, "required": ["api_key"]},
            "token": ["", "x", 3, null, "sk-abcdefghijklmnopqr", "[REDACTED:jwt]", "[REDACTED:bogus]"],
            "X-Api-Key": "plain"
        });
        sanitize(&mut v);
        let want = json!({
            "input_schema": {"properties": {
                "api_key": {"type": "[REDACTED:sensitive_field]"},
                "Client_Secret": {"type": "[REDACTED:sensitive_field]"},
                "pässword": {"type": "string"},
                "max_tokens": {"type": "integer"}
            }, "required": ["api_key"]},
            "token": ["", "[REDACTED:sensitive_field]", 3, null, "[REDACTED:openai_api_key]",
                      "[REDACTED:jwt]", "[REDACTED:sensitive_field]"],
            "X-Api-Key": "plain"
        });
        assert_eq!(v, want);
    }

    #[test]
    fn keys_pass_the_substring_filter_in_place() {
        let mut v = json!({"a": 1, "sk_live_abcdefghijklmnop": {"type": "string"}, "z": 2});
        sanitize(&mut v);
        assert_eq!(
            super::super::pyjson::to_canonical_ascii(&v),
            "{\"[REDACTED:stripe_key]\":{\"type\":\"string\"},\"a\":1,\"z\":2}"
        );
        let keys: Vec<&String> = v
            .as_object()
            .map(|m| m.keys().collect())
            .unwrap_or_default();
        assert_eq!(keys, ["a", "[REDACTED:stripe_key]", "z"]);
    }
}
