//! The `format` values the schemas use, applied as assertions: `uri`,
//! `uri-reference` (RFC 3986) and `date-time` (RFC 3339). Another format
//! name is a schema error, never a silent pass.

/// The formats this validator checks.
pub const KNOWN: &[&str] = &["uri", "uri-reference", "date-time"];

/// Why `value` is not of `format`, or `None` when it is.
pub fn check(format: &str, value: &str) -> Option<String> {
    let ok = match format {
        "uri" => uri(value, true),
        "uri-reference" => uri(value, false),
        "date-time" => date_time(value),
        other => return Some(format!("format `{other}` is not implemented")),
    };
    (!ok).then(|| format!("is not a valid {format}"))
}

/// Characters RFC 3986 allows in a URI (reserved and unreserved), besides
/// `%` which must start an escape.
fn uri_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-._~:/?#[]@!$&'()*+,;=".contains(c)
}

fn scheme(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
}

/// A URI (`absolute`: with a scheme) or a URI reference: only URI
/// characters and `%XX` escapes, and a colon before the first `/`, `?` or
/// `#` only after a scheme.
fn uri(value: &str, absolute: bool) -> bool {
    let bytes = value.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = char::from(bytes[i]);
        if c == '%' {
            let hex = |j: usize| bytes.get(j).is_some_and(u8::is_ascii_hexdigit);
            if !(hex(i + 1) && hex(i + 2)) {
                return false;
            }
            i += 3;
            continue;
        }
        if !bytes[i].is_ascii() || !uri_char(c) {
            return false;
        }
        i += 1;
    }
    let head_end = value.find(['/', '?', '#']).unwrap_or(value.len());
    match value[..head_end].find(':') {
        Some(colon) => scheme(&value[..colon]),
        None => !absolute,
    }
}

/// `YYYY-MM-DDThh:mm:ss[.frac](Z|±hh:mm)`.
fn date_time(value: &str) -> bool {
    let b = value.as_bytes();
    let digits = |range: std::ops::Range<usize>| {
        b.get(range.clone())
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
    };
    let at = |i: usize, c: u8| b.get(i) == Some(&c);
    if !(digits(0..4) && at(4, b'-') && digits(5..7) && at(7, b'-') && digits(8..10)) {
        return false;
    }
    if !(at(10, b'T') || at(10, b't')) {
        return false;
    }
    if !(digits(11..13) && at(13, b':') && digits(14..16) && at(16, b':') && digits(17..19)) {
        return false;
    }
    let mut i = 19;
    if at(i, b'.') {
        let start = i + 1;
        i = start;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    match b.get(i) {
        Some(b'Z' | b'z') => i + 1 == b.len(),
        Some(b'+' | b'-') => {
            digits(i + 1..i + 3) && at(i + 3, b':') && digits(i + 4..i + 6) && i + 6 == b.len()
        }
        _ => false,
    }
}
