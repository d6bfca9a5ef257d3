//! Python's `repr()` of the few value kinds our messages embed.

/// `repr(str)`, as CPython 3.12 prints it: the one implementation the
/// `ast.dump` digests use (`python::ast_dump::reprs`), so a message names a
/// value exactly as the reference's Python would (a non-printable
/// character, a line separator included, is escaped).
pub fn str_repr(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    crate::python::ast_dump::reprs::push_str_repr(&mut out, text);
    out
}

/// `repr(tuple_of_strings)`: `('a', 'b')`, and `('a',)` for one member.
pub fn tuple_repr(members: &[&str]) -> String {
    let inner: Vec<String> = members.iter().map(|m| str_repr(m)).collect();
    if inner.len() == 1 {
        format!("({},)", inner[0])
    } else {
        format!("({})", inner.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reprs_match_python() {
        assert_eq!(str_repr("abc"), "'abc'");
        assert_eq!(str_repr("it's"), "\"it's\"");
        assert_eq!(str_repr("a'b\"c"), "'a\\'b\"c'");
        assert_eq!(str_repr("a\nb\\"), "'a\\nb\\\\'");
        assert_eq!(
            str_repr("a\u{7f}b\u{2028}c\u{e9}"),
            "'a\\x7fb\\u2028c\u{e9}'"
        );
        assert_eq!(tuple_repr(&["agent.py", "x"]), "('agent.py', 'x')");
        assert_eq!(tuple_repr(&["a"]), "('a',)");
    }
}
