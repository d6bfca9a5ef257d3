//! What a frame's reading depends on, written into the walker's memo key:
//! each value tagged by kind, with strings and lists by their lengths, so
//! two keys are the same only when what they write is the same.

use super::values::{Literal, Sources};
use super::Frame;
use crate::python::{Comprehension, Value};

impl<'a> Frame<'a> {
    /// Writes what this frame's reading depends on into `out`, for the
    /// walker's memo: the function (or module) read, what each parameter
    /// holds, the names read inside their own rebinding, and each helper
    /// argument as written with the frame it is read in. That frame is
    /// written the same way, except for a value that names nothing (a
    /// literal, a display of literals): that reads the same in any frame,
    /// so only which function wrote it is kept (a reader compares it with
    /// its own). Nothing a value reader consults is left out: the helper
    /// depth and the recursion generation matter only to the frame being
    /// walked, and the walker adds them; `via` is only recorded.
    pub(super) fn memo_key(&self, out: &mut String) {
        self.write_function(out);
        for (name, sources) in &self.params {
            out.push_str("|p ");
            out.push_str(name);
            out.push('=');
            sources.write_key(out);
        }
        for name in &self.prior {
            out.push_str("|r ");
            out.push_str(name);
        }
        for (name, (value, caller)) in self.args.iter() {
            out.push_str("|a ");
            out.push_str(name);
            out.push('=');
            write_key(out, value);
            out.push('@');
            if names_nothing(value) {
                caller.write_function(out);
            } else {
                out.push('[');
                caller.memo_key(out);
                out.push(']');
            }
        }
    }

    fn write_function(&self, out: &mut String) {
        write_len(out, self.path.len());
        out.push(':');
        out.push_str(self.path);
        match self.function {
            Some(f) => {
                out.push(':');
                write_len(out, f.line as usize);
                out.push(':');
                out.push_str(&f.qualname);
            }
            None => out.push_str(":module"),
        }
    }
}

/// Writes `value` into a memo key: a tag per kind, strings and lists
/// with their lengths, so two values write the same only when they are the
/// same value (cheaper than their `Debug` spelling).
pub fn write_key(out: &mut String, value: &Value) {
    fn text(out: &mut String, s: &str) {
        write_len(out, s.len());
        out.push(':');
        out.push_str(s);
    }
    fn all(out: &mut String, tag: char, values: &[Value]) {
        out.push(tag);
        write_len(out, values.len());
        out.push('(');
        for v in values {
            write_key(out, v);
        }
        out.push(')');
    }
    match value {
        Value::Name(name) => {
            out.push('n');
            text(out, name);
        }
        Value::Attribute(parts) => {
            out.push('a');
            write_len(out, parts.len());
            out.push('(');
            for part in parts {
                text(out, part);
            }
            out.push(')');
        }
        Value::Str(s) => {
            out.push('s');
            text(out, s);
        }
        Value::Number(n) => {
            out.push('#');
            text(out, n);
        }
        Value::Bool(b) => out.push(if *b { 'T' } else { 'F' }),
        Value::None => out.push('N'),
        Value::List(items) => all(out, 'l', items),
        Value::Tuple(items) => all(out, 't', items),
        Value::Set(items) => all(out, 'e', items),
        Value::Union(items) => all(out, 'u', items),
        Value::FString(items) => all(out, 'f', items),
        Value::Or(items) => all(out, 'o', items),
        Value::Starred(inner) => {
            out.push('*');
            write_key(out, inner);
        }
        Value::Call {
            callee,
            args,
            keywords,
        } => {
            out.push('c');
            write_key(out, callee);
            all(out, 'p', args);
            out.push('k');
            write_len(out, keywords.len());
            out.push('(');
            for (name, v) in keywords {
                match name {
                    Some(name) => {
                        out.push('=');
                        text(out, name);
                    }
                    None => out.push('~'),
                }
                write_key(out, v);
            }
            out.push(')');
        }
        Value::Subscript { base, index } => {
            out.push('[');
            write_key(out, base);
            all(out, 'i', index);
        }
        Value::Dict(entries) => {
            out.push('d');
            write_len(out, entries.len());
            out.push('(');
            for (k, v) in entries {
                match k {
                    Some(k) => write_key(out, k),
                    None => out.push('~'),
                }
                write_key(out, v);
            }
            out.push(')');
        }
        Value::ListComprehension(comprehension) => {
            let Comprehension {
                element,
                target,
                iter,
                conditions,
            } = comprehension.as_ref();
            out.push('L');
            write_key(out, element);
            write_key(out, target);
            write_key(out, iter);
            all(out, 'w', conditions);
        }
        Value::IfElse { test, body, orelse } => {
            out.push('?');
            write_key(out, test);
            write_key(out, body);
            write_key(out, orelse);
        }
        Value::Add { left, right } => {
            out.push('+');
            write_key(out, left);
            write_key(out, right);
        }
        Value::BinOp { left, op, right } => {
            out.push('b');
            text(out, op.as_str());
            write_key(out, left);
            write_key(out, right);
        }
        Value::Compare { left, op, right } => {
            out.push('=');
            text(out, op.as_str());
            write_key(out, left);
            write_key(out, right);
        }
        Value::Other(kind) => {
            out.push('x');
            text(out, kind);
        }
    }
}

impl Sources {
    /// Writes these sources into a memo key (see [`write_key`]).
    pub fn write_key(&self, out: &mut String) {
        let text = |out: &mut String, s: &str| {
            write_len(out, s.len());
            out.push(':');
            out.push_str(s);
        };
        let list = |out: &mut String, items: &[String]| {
            write_len(out, items.len());
            out.push('(');
            for item in items {
                text(out, item);
            }
            out.push(')');
        };
        let Sources {
            params,
            env,
            exact,
            literal,
            computed,
            choices,
        } = self;
        list(out, params);
        list(out, env);
        match exact {
            None => out.push('-'),
            Some(Literal::Str(s)) => {
                out.push('s');
                text(out, s);
            }
            Some(Literal::Number(n)) => {
                out.push('#');
                text(out, n);
            }
            Some(Literal::Bool(b)) => out.push(if *b { 'T' } else { 'F' }),
            Some(Literal::None) => out.push('N'),
        }
        out.push(if *literal { 'l' } else { '.' });
        out.push(if *computed { 'c' } else { '.' });
        match choices {
            None => out.push('-'),
            Some((values, deciding)) => {
                out.push('?');
                list(out, values);
                list(out, deciding);
            }
        }
    }
}

/// A length in decimal, without the formatting machinery.
pub fn write_len(out: &mut String, n: usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut n = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[at..] {
        out.push(char::from(d));
    }
}

/// Whether `value` names nothing: literals, and displays, f-strings and
/// operators of literals. Such a value reads the same in every frame.
pub fn names_nothing(value: &Value) -> bool {
    let all = |values: &[Value]| values.iter().all(names_nothing);
    match value {
        Value::Str(_) | Value::Number(_) | Value::Bool(_) | Value::None | Value::Other(_) => true,
        Value::List(items)
        | Value::Tuple(items)
        | Value::Set(items)
        | Value::Union(items)
        | Value::FString(items)
        | Value::Or(items) => all(items),
        Value::Dict(entries) => entries
            .iter()
            .all(|(k, v)| k.as_ref().is_some_and(names_nothing) && names_nothing(v)),
        Value::IfElse { test, body, orelse } => {
            names_nothing(test) && names_nothing(body) && names_nothing(orelse)
        }
        Value::Add { left, right }
        | Value::Compare { left, right, .. }
        | Value::BinOp { left, right, .. } => names_nothing(left) && names_nothing(right),
        Value::Name(_)
        | Value::Attribute(_)
        | Value::Starred(_)
        | Value::Call { .. }
        | Value::Subscript { .. }
        | Value::ListComprehension { .. } => false,
    }
}
