//! Python's `repr()` of constants, as `ast.dump` prints them: strings
//! (with `str.isprintable` as CPython 3.12 has it), bytes, and numbers
//! (big integers and shortest round-tripping floats).

use ruff_python_ast::Number;
use std::fmt::Write as _;

/// `repr(str)` belongs to `pyrepr`, which messages use too.
pub(super) use crate::pyrepr::push_str_repr;

/// `repr(bytes)`: printable ASCII as is, everything else as `\xNN`.
pub(super) fn push_bytes_repr(out: &mut String, bytes: &[u8]) {
    let quote = if bytes.contains(&b'\'') && !bytes.contains(&b'"') {
        b'"'
    } else {
        b'\''
    };
    out.push('b');
    out.push(char::from(quote));
    for &byte in bytes {
        match byte {
            b'\\' => out.push_str("\\\\"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b if b == quote => {
                out.push('\\');
                out.push(char::from(b));
            }
            b' '..=b'~' => out.push(char::from(byte)),
            _ => {
                let _ = write!(out, "\\x{byte:02x}");
            }
        }
    }
    out.push(char::from(quote));
}

pub(super) fn push_number_repr(out: &mut String, number: &Number) {
    match number {
        Number::Int(int) => match int.as_u64() {
            Some(small) => {
                let _ = write!(out, "{small}");
            }
            None => push_big_int_repr(out, &int.to_string()),
        },
        Number::Float(value) => push_float_repr(out, *value, true),
        Number::Complex { real, imag } => {
            // Literals are always purely imaginary; the general form is kept
            // for completeness.
            if *real == 0.0 && real.is_sign_positive() {
                push_float_repr(out, *imag, false);
                out.push('j');
            } else {
                out.push('(');
                push_float_repr(out, *real, false);
                if !imag.is_sign_negative() {
                    out.push('+');
                }
                push_float_repr(out, *imag, false);
                out.push_str("j)");
            }
        }
    }
}

/// Above CPython's default `sys.get_int_max_str_digits()` (4300 decimal
/// digits) `repr(int)` raises, so there is nothing to match; beyond this many
/// bits the literal is echoed instead of converted, bounding the quadratic
/// base conversion.
const MAX_INT_BITS: usize = 14_300;

/// ruff keeps integers that overflow `u64` as their source token (with any
/// `0x`/`0o`/`0b` prefix and `_` separators); `repr()` prints them in decimal.
fn push_big_int_repr(out: &mut String, token: &str) {
    let digits: String = token
        .chars()
        .filter(|&c| c != '_')
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let (radix, body) = match digits.get(..2) {
        Some("0x") => (16u32, &digits[2..]),
        Some("0o") => (8, &digits[2..]),
        Some("0b") => (2, &digits[2..]),
        _ => (10, digits.as_str()),
    };
    if radix == 10 {
        let trimmed = body.trim_start_matches('0');
        out.push_str(if trimmed.is_empty() { "0" } else { trimmed });
        return;
    }
    let bits_per_digit = radix.trailing_zeros() as usize;
    if body.len().saturating_mul(bits_per_digit) > MAX_INT_BITS {
        out.push_str(token);
        return;
    }
    // Little-endian limbs in base 10^9.
    const LIMB: u64 = 1_000_000_000;
    let mut limbs: Vec<u64> = vec![0];
    for c in body.chars() {
        let Some(digit) = c.to_digit(radix) else {
            out.push_str(token);
            return;
        };
        let mut carry = u64::from(digit);
        for limb in &mut limbs {
            let value = *limb * u64::from(radix) + carry;
            *limb = value % LIMB;
            carry = value / LIMB;
        }
        if carry > 0 {
            limbs.push(carry);
        }
    }
    let mut limbs = limbs.iter().rev();
    if let Some(most) = limbs.next() {
        let _ = write!(out, "{most}");
    }
    for limb in limbs {
        let _ = write!(out, "{limb:09}");
    }
}

/// `repr(float)` (with `add_dot_0`) or the real/imaginary part of
/// `repr(complex)` (without): shortest round-trip digits, positional notation
/// when the decimal point falls within 4 places before or 16 after the first
/// digit, otherwise `d.ddde±XX`.
fn push_float_repr(out: &mut String, value: f64, add_dot_0: bool) {
    if value.is_nan() {
        out.push_str("nan");
        return;
    }
    if value.is_sign_negative() {
        out.push('-');
    }
    if value.is_infinite() {
        out.push_str("inf");
        return;
    }
    let (digits, exponent) = shortest_digits(value.abs());
    // `value == 0.d1d2d3... * 10^point`
    let point = exponent.saturating_add(1);
    if !(-4 < point && point <= 16) {
        let (first, rest) = digits.split_at(1.min(digits.len()));
        out.push_str(first);
        if !rest.is_empty() {
            out.push('.');
            out.push_str(rest);
        }
        let sign = if exponent < 0 { '-' } else { '+' };
        let _ = write!(out, "e{sign}{:02}", exponent.unsigned_abs());
        return;
    }
    match usize::try_from(point) {
        Ok(point) if point >= digits.len() => {
            out.push_str(&digits);
            out.extend(std::iter::repeat_n('0', point - digits.len()));
            if add_dot_0 {
                out.push_str(".0");
            }
        }
        Ok(point) if point > 0 => {
            let (whole, fraction) = digits.split_at(point);
            out.push_str(whole);
            out.push('.');
            out.push_str(fraction);
        }
        _ => {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', point.unsigned_abs() as usize));
            out.push_str(&digits);
        }
    }
}

/// The shortest digit string that round-trips a finite non-negative `value`,
/// and the decimal exponent of its first digit.
///
/// CPython picks, among the shortest round-tripping strings, the one nearest
/// the exact value, breaking exact ties to even. Rust's shortest `{:e}` has
/// the right length but may break such a tie upwards (99.998809814453125
/// gives `...313`, CPython `...312`), so the value is re-rounded to that
/// length with `{:.N$e}`, which rounds exactly and half to even.
fn shortest_digits(value: f64) -> (String, i32) {
    let shortest = format!("{value:e}");
    let length = shortest.split('e').next().map_or(1, |mantissa| {
        mantissa.chars().filter(char::is_ascii_digit).count()
    });
    let rounded = format!("{:.*e}", length.saturating_sub(1), value);
    let (mantissa, exponent) = rounded.split_once('e').unwrap_or((&rounded, "0"));
    let mut digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    while digits.len() > 1 && digits.ends_with('0') {
        digits.pop();
    }
    (digits, exponent.parse().unwrap_or(0))
}
