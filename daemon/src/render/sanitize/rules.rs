//! The substring rules of the sanitiser, one matcher per kind of secret,
//! each the hand-rolled equivalent of one of the reference tool's regular
//! expressions (Python `re` semantics: `\b` a Unicode word boundary, ASCII
//! classes, the match a backtracking engine picks at a position), with the
//! literals every match of a rule starts with.

use aho_corasick::AhoCorasick;
use std::sync::LazyLock;

/// A matcher tries to match at exactly one position and returns the span to
/// replace plus where the whole match ends (they differ only for the
/// labelled-secret rule, which keeps its label and quotes).
pub(super) struct Hit {
    pub(super) replace_start: usize,
    pub(super) replace_end: usize,
    pub(super) end: usize,
}

pub(super) type Matcher = fn(&[char], usize) -> Option<Hit>;

/// One substring rule: its marker kind, the literals one of which every
/// match of it starts with (after an optional boundary check), whether
/// they are matched ignoring case, and the matcher.
pub(super) struct Rule {
    pub(super) kind: &'static str,
    pub(super) anchors: &'static [&'static str],
    pub(super) ignore_case: bool,
    pub(super) matcher: Matcher,
}

/// The substring rules in the order the reference applies them; each rule
/// runs over the output of the previous one (so `Bearer sk-…` is redacted
/// as an OpenAI key, not as a bearer token).
pub(super) const RULES: &[Rule] = &[
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
    pub(super) fn may_match(&self, text: &str) -> bool {
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

/// Every rule's anchors in one automaton that ignores ASCII case: where
/// any rule's `may_match` finds its anchor in ASCII text, exactly or
/// ignoring case, this finds it too, in one pass over the text instead of
/// one per anchor (most strings of a document hold none). `None` only if
/// the automaton could not be built; then every text is scanned rule by
/// rule.
static ANY_ANCHOR: LazyLock<Option<AhoCorasick>> = LazyLock::new(|| {
    AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build(RULES.iter().flat_map(|rule| rule.anchors))
        .ok()
});

/// Whether some rule may match in `text`: `false` only where no rule's
/// `may_match` holds. Text with a char past ASCII always may: `lower`
/// maps some of them to ASCII letters (the Kelvin sign to `k`), which
/// ASCII case folding does not know.
pub(super) fn any_rule_may_match(text: &str) -> bool {
    match &*ANY_ANCHOR {
        Some(anchors) if text.is_ascii() => anchors.is_match(text),
        _ => true,
    }
}

// ---------------------------------------------------------------------------
// Character helpers mirroring Python `re` semantics on `str`.

/// Python's `\w` on `str`: Unicode alphanumerics and `_`.
pub(super) fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Python's `\s` on `str` (Rust's set plus the C0 separators U+001C–U+001F).
pub(super) fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// `\b` at `pos`: a word character on exactly one side.
pub(super) fn at_boundary(chars: &[char], pos: usize) -> bool {
    let before = pos > 0 && chars.get(pos - 1).is_some_and(|c| is_word(*c));
    let after = chars.get(pos).is_some_and(|c| is_word(*c));
    before != after
}

/// Single-character lower-casing used by the case-insensitive rules. The
/// reference matches `BEARER` and `toKen` (Kelvin sign) but not `pasſword`
/// (long s), which is what matching against `str.lower()` gives.
pub(super) fn lower(c: char) -> char {
    let mut it = c.to_lowercase();
    match (it.next(), it.next()) {
        (Some(l), None) => l,
        _ => c,
    }
}

/// Does `word` (ASCII) occur at `pos`, exactly or ignoring case?
pub(super) fn literal_at(
    chars: &[char],
    pos: usize,
    word: &str,
    ignore_case: bool,
) -> Option<usize> {
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
pub(super) fn any_literal_at(
    chars: &[char],
    pos: usize,
    words: &[&str],
    ignore_case: bool,
) -> Option<usize> {
    words
        .iter()
        .find_map(|w| literal_at(chars, pos, w, ignore_case))
}

/// Length of the run of `class` characters starting at `pos`.
pub(super) fn run_len(chars: &[char], pos: usize, class: fn(char) -> bool) -> usize {
    chars
        .get(pos..)
        .map_or(0, |rest| rest.iter().take_while(|c| class(**c)).count())
}

/// `class{min,}\b`: the longest run prefix of at least `min` characters
/// followed by a word boundary (the backtracking a regex engine does).
pub(super) fn run_then_boundary(
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

pub(super) fn whole(start: usize, end: usize) -> Hit {
    Hit {
        replace_start: start,
        replace_end: end,
        end,
    }
}

pub(super) fn alnum(c: char) -> bool {
    c.is_ascii_alphanumeric()
}

/// `[A-Za-z0-9_-]`
pub(super) fn alnum_dash_underscore(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

// ---------------------------------------------------------------------------
// One matcher per kind. Each comment gives the equivalent regex.

/// `(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{16,}` — greedy, no trailing boundary.
pub(super) fn match_openai_api_key(chars: &[char], i: usize) -> Option<Hit> {
    if i > 0 && chars.get(i - 1).is_some_and(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    let p = literal_at(chars, i, "sk-", false)?;
    let len = run_len(chars, p, alnum_dash_underscore);
    (len >= 16).then(|| whole(i, p + len))
}

/// `\b(?:AKIA|ASIA|AROA|AGPA|ANPA|AIDA|AIPA)[0-9A-Z]{16}\b` — exactly 16.
pub(super) fn match_aws_access_key(chars: &[char], i: usize) -> Option<Hit> {
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
pub(super) fn match_github_token(chars: &[char], i: usize) -> Option<Hit> {
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
pub(super) fn match_stripe_key(chars: &[char], i: usize) -> Option<Hit> {
    if !at_boundary(chars, i) {
        return None;
    }
    let p = any_literal_at(chars, i, &["sk_", "rk_", "pk_"], false)?;
    let p = any_literal_at(chars, p, &["live_", "test_"], false)?;
    run_then_boundary(chars, p, alnum, 16).map(|end| whole(i, end))
}

/// `\bwhsec_[A-Za-z0-9]{16,}\b`
pub(super) fn match_stripe_webhook_secret(chars: &[char], i: usize) -> Option<Hit> {
    if !at_boundary(chars, i) {
        return None;
    }
    let p = literal_at(chars, i, "whsec_", false)?;
    run_then_boundary(chars, p, alnum, 16).map(|end| whole(i, end))
}

/// `\bxox[aboprs]-[A-Za-z0-9-]{10,}\b`
pub(super) fn match_slack_token(chars: &[char], i: usize) -> Option<Hit> {
    if !at_boundary(chars, i) {
        return None;
    }
    let prefixes = ["xoxa-", "xoxb-", "xoxo-", "xoxp-", "xoxr-", "xoxs-"];
    let p = any_literal_at(chars, i, &prefixes, false)?;
    let class = |c: char| c.is_ascii_alphanumeric() || c == '-';
    run_then_boundary(chars, p, class, 10).map(|end| whole(i, end))
}

/// `\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\b`
pub(super) fn match_jwt(chars: &[char], i: usize) -> Option<Hit> {
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
pub(super) fn match_database_url(chars: &[char], i: usize) -> Option<Hit> {
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
pub(super) fn match_bearer_token(chars: &[char], i: usize) -> Option<Hit> {
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
pub(super) fn match_labeled_secret(chars: &[char], i: usize) -> Option<Hit> {
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
