//! JSON writers that reproduce Python's `json.dumps` byte for byte.
//!
//! CI scripts diff the pretty output against stored Python output, and the
//! `comparison_id` is a digest of the canonical form, so both writers must
//! match CPython exactly — including its float spelling, which differs from
//! Rust's `Display` for `f64`.

use serde_json::{Map, Number, Value};

/// `json.dumps(v, indent=2, ensure_ascii=False)` followed by a newline.
pub fn to_pretty(v: &Value) -> String {
    let mut out = String::new();
    write_pretty(&mut out, v, 0);
    out.push('\n');
    out
}

/// `json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=True)`.
pub fn to_canonical_ascii(v: &Value) -> String {
    let mut out = String::new();
    write_canonical(&mut out, v);
    out
}

/// `json.dumps(v)` with Python's defaults: insertion order, `", "` and
/// `": "` separators, ASCII-only escaping. The text renderer uses it to
/// print a field's literal value the way 1.2.0 does.
pub fn to_python_default(v: &Value) -> String {
    let mut out = String::new();
    write_python_default(&mut out, v);
    out
}

/// Recursive pretty writer; `level` is the current nesting depth.
fn write_pretty(out: &mut String, v: &Value, level: usize) {
    match v {
        Value::Array(items) if !items.is_empty() => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                // Python's indent mode uses "," as item separator, then a
                // newline plus the deeper indent.
                if i > 0 {
                    out.push(',');
                }
                newline_indent(out, level + 1);
                write_pretty(out, item, level + 1);
            }
            newline_indent(out, level);
            out.push(']');
        }
        Value::Object(map) if !map.is_empty() => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline_indent(out, level + 1);
                write_string(out, key, false);
                out.push_str(": ");
                write_pretty(out, item, level + 1);
            }
            newline_indent(out, level);
            out.push('}');
        }
        other => write_scalar(out, other, false),
    }
}

fn newline_indent(out: &mut String, level: usize) {
    out.push('\n');
    for _ in 0..level {
        out.push_str("  ");
    }
}

/// Compact, key-sorted, ASCII-escaped writer used for digests.
fn write_canonical(out: &mut String, v: &Value) {
    match v {
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            // Rust's `str` ordering is byte order of UTF-8, which equals
            // Python's code-point ordering of `str` keys.
            for (i, (key, item)) in sorted_entries(map).into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(out, key, true);
                out.push(':');
                write_canonical(out, item);
            }
            out.push('}');
        }
        other => write_scalar(out, other, true),
    }
}

/// Python's default one-line form (`", "`, `": "`, ASCII escaping).
fn write_python_default(out: &mut String, v: &Value) {
    match v {
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_python_default(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_string(out, key, true);
                out.push_str(": ");
                write_python_default(out, item);
            }
            out.push('}');
        }
        other => write_scalar(out, other, true),
    }
}

fn sorted_entries(map: &Map<String, Value>) -> Vec<(&String, &Value)> {
    let mut entries: Vec<(&String, &Value)> = map.iter().collect();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    entries
}

/// Writes null, booleans, numbers and strings (containers never reach here
/// except as empty `[]` / `{}` from the pretty writer).
fn write_scalar(out: &mut String, v: &Value, ascii: bool) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(n) => out.push_str(&number_text(n)),
        Value::String(s) => write_string(out, s, ascii),
        Value::Array(_) => out.push_str("[]"),
        Value::Object(_) => out.push_str("{}"),
    }
}

/// Integers print as integers; floats as Python's `repr(float)`.
fn number_text(n: &Number) -> String {
    if let Some(u) = n.as_u64() {
        return u.to_string();
    }
    if let Some(i) = n.as_i64() {
        return i.to_string();
    }
    match n.as_f64() {
        Some(f) => py_float_repr(f),
        // Only reachable with arbitrary-precision numbers that fit no
        // primitive; their own text is the best we have.
        None => n.to_string(),
    }
}

/// Python's `repr(float)`: the shortest round-trip digits, in fixed
/// notation when the decimal exponent is in [-4, 16), otherwise in
/// scientific notation with a signed, at-least-two-digit exponent.
pub fn py_float_repr(f: f64) -> String {
    if f.is_nan() {
        return "NaN".to_string();
    }
    if f.is_infinite() {
        return if f > 0.0 { "Infinity" } else { "-Infinity" }.to_string();
    }
    // `{:e}` yields the shortest round-trip digits, e.g. "-1.5e-7".
    let sci = format!("{f:e}");
    let (negative, body) = match sci.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, sci.as_str()),
    };
    let (mantissa, exp_text) = body.split_once('e').unwrap_or((body, "0"));
    let exp: i32 = exp_text.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    // Position of the decimal point relative to the start of `digits`.
    let decpt = exp + 1;
    let mut out = String::new();
    if negative {
        out.push('-');
    }
    if -4 < decpt && decpt <= 16 {
        out.push_str(&fixed_notation(&digits, decpt));
    } else {
        out.push_str(&scientific_notation(&digits, exp));
    }
    out
}

fn fixed_notation(digits: &str, decpt: i32) -> String {
    let n = digits.len() as i32;
    if decpt <= 0 {
        format!("0.{}{}", "0".repeat((-decpt) as usize), digits)
    } else if decpt < n {
        let (int_part, frac_part) = digits.split_at(decpt as usize);
        format!("{int_part}.{frac_part}")
    } else {
        // Python always shows a fractional part: 1e15 -> "1000000000000000.0".
        format!("{}{}.0", digits, "0".repeat((decpt - n) as usize))
    }
}

fn scientific_notation(digits: &str, exp: i32) -> String {
    let (first, rest) = digits.split_at(1.min(digits.len()));
    let sign = if exp < 0 { '-' } else { '+' };
    if rest.is_empty() {
        format!("{first}e{sign}{:02}", exp.abs())
    } else {
        format!("{first}.{rest}e{sign}{:02}", exp.abs())
    }
}

/// A JSON string literal. `ascii` selects `ensure_ascii=True` behaviour
/// (everything outside printable ASCII escaped, DEL included); otherwise
/// only `"`, `\` and C0 controls are escaped, as with `ensure_ascii=False`.
fn write_string(out: &mut String, s: &str, ascii: bool) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => push_u_escape(out, c as u32),
            c if ascii && !(' '..='~').contains(&c) => push_ascii_escape(out, c),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `\uxxxx`, with astral characters split into a UTF-16 surrogate pair.
fn push_ascii_escape(out: &mut String, c: char) {
    let mut units = [0u16; 2];
    for unit in c.encode_utf16(&mut units) {
        push_u_escape(out, u32::from(*unit));
    }
}

fn push_u_escape(out: &mut String, unit: u32) {
    out.push_str(&format!("\\u{unit:04x}"));
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pretty_matches_python_layout() {
        let v = json!({"a": [1, {"b": null}], "e": [], "o": {}, "s": "x"});
        assert_eq!(
            to_pretty(&v),
            "{\n  \"a\": [\n    1,\n    {\n      \"b\": null\n    }\n  ],\n  \"e\": [],\n  \"o\": {},\n  \"s\": \"x\"\n}\n"
        );
    }

    #[test]
    fn pretty_keeps_insertion_order() {
        let v = json!({"z": 1, "a": 2});
        assert_eq!(to_pretty(&v), "{\n  \"z\": 1,\n  \"a\": 2\n}\n");
    }

    #[test]
    fn pretty_scalars_and_empty_top_level() {
        assert_eq!(to_pretty(&json!([])), "[]\n");
        assert_eq!(to_pretty(&json!({})), "{}\n");
        assert_eq!(to_pretty(&json!(true)), "true\n");
        assert_eq!(to_pretty(&json!(-3)), "-3\n");
    }

    #[test]
    fn pretty_escapes_only_quote_backslash_and_c0() {
        let v = json!("q\"b\\n\nr\rt\tb\u{08}f\u{0c}z\u{01}\u{1f}del\u{7f}é→😀\u{2028}");
        assert_eq!(
            to_pretty(&v),
            "\"q\\\"b\\\\n\\nr\\rt\\tb\\bf\\fz\\u0001\\u001fdel\u{7f}é→😀\u{2028}\"\n"
        );
    }

    #[test]
    fn canonical_sorts_and_escapes_ascii() {
        let v = json!({"b": [1, "é"], "a": {"y": "\u{7f}", "x": "😀"}, "B": "→"});
        assert_eq!(
            to_canonical_ascii(&v),
            "{\"B\":\"\\u2192\",\"a\":{\"x\":\"\\ud83d\\ude00\",\"y\":\"\\u007f\"},\"b\":[1,\"\\u00e9\"]}"
        );
    }

    #[test]
    fn canonical_sorts_by_code_point() {
        let v = json!({"é": 1, "z": 2, "Z": 3, "_": 4});
        assert_eq!(
            to_canonical_ascii(&v),
            "{\"Z\":3,\"_\":4,\"z\":2,\"\\u00e9\":1}"
        );
    }

    #[test]
    fn python_default_form() {
        let v = json!({"b": [1, "é"], "a": true});
        assert_eq!(
            to_python_default(&v),
            "{\"b\": [1, \"\\u00e9\"], \"a\": true}"
        );
        assert_eq!(to_python_default(&json!("agent")), "\"agent\"");
    }

    #[test]
    fn floats_match_python_repr() {
        let cases: &[(f64, &str)] = &[
            (0.25, "0.25"),
            (1e-7, "1e-07"),
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (1.0, "1.0"),
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1.5e300, "1.5e+300"),
            (-2.5e-10, "-2.5e-10"),
            (123.456, "123.456"),
            (0.1, "0.1"),
            (1e22, "1e+22"),
            (12345678901234567.0, "1.2345678901234568e+16"),
            (1234567890123456.7, "1234567890123456.8"),
            (f64::MAX, "1.7976931348623157e+308"),
            (5e-324, "5e-324"),
        ];
        for (f, want) in cases {
            assert_eq!(py_float_repr(*f), *want, "for {f:e}");
        }
    }

    #[test]
    fn float_values_inside_documents() {
        let v = json!({"r": 0.25, "t": 1e-7, "one": 1.0});
        assert_eq!(
            to_canonical_ascii(&v),
            "{\"one\":1.0,\"r\":0.25,\"t\":1e-07}"
        );
    }

    #[test]
    fn large_integers_stay_integers() {
        let v = json!([u64::MAX, i64::MIN]);
        assert_eq!(
            to_canonical_ascii(&v),
            "[18446744073709551615,-9223372036854775808]"
        );
    }
}
