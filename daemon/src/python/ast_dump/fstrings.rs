//! f-strings as CPython 3.12 joins them: one `JoinedStr` for a whole
//! implicit concatenation with adjacent literals merged, format specs with
//! 3.12's empty constants, debug fields' `expr=` text; t-strings in 3.14's
//! shape.

use super::reprs::push_str_repr;
use super::Writer;
use ruff_python_ast::{self as ast, Expr, FStringPart, InterpolatedStringElement};
use ruff_text_size::{Ranged, TextSize};
use std::borrow::Cow;

/// One flattened piece of an implicitly concatenated f-string: literal text
/// (with whether it came from a `u`-prefixed string) or a replacement field.
enum Piece<'a> {
    Text(Cow<'a, str>, bool),
    Field(&'a ast::InterpolatedElement),
}

/// A `JoinedStr` value: a `Constant` string or a `FormattedValue`.
enum JoinedPart<'a> {
    Constant { value: Cow<'a, str>, unicode: bool },
    Field(&'a ast::InterpolatedElement),
}

impl Writer {
    /// CPython 3.12 builds one `JoinedStr` for a whole implicit concatenation:
    /// every literal piece (plain string parts, f-string literal text, and the
    /// `expr=` text of debug fields) is flattened into one sequence, runs of
    /// adjacent literals are merged into one `Constant` (taking `kind` from
    /// the run's first piece), and merged runs that are empty are dropped.
    pub(super) fn joined_str(&mut self, value: &ast::FStringValue) {
        let mut pieces: Vec<Piece<'_>> = Vec::new();
        for part in value {
            match part {
                FStringPart::Literal(literal) => {
                    let unicode = literal.flags.prefix().is_unicode();
                    pieces.push(Piece::Text(Cow::Borrowed(&literal.value), unicode));
                }
                FStringPart::FString(fstring) => {
                    for element in fstring.elements.iter() {
                        match element {
                            InterpolatedStringElement::Literal(literal) => {
                                pieces.push(Piece::Text(Cow::Borrowed(&literal.value), false));
                            }
                            InterpolatedStringElement::Interpolation(field) => {
                                if let Some(debug) = &field.debug_text {
                                    pieces.push(Piece::Text(debug_text(debug.as_str()), false));
                                }
                                pieces.push(Piece::Field(field));
                            }
                        }
                    }
                }
            }
        }

        let mut parts: Vec<JoinedPart<'_>> = Vec::new();
        let mut run: Option<(Cow<'_, str>, bool)> = None;
        for piece in pieces {
            match piece {
                Piece::Text(text, unicode) => match &mut run {
                    Some((merged, _)) => merged.to_mut().push_str(&text),
                    None => run = Some((text, unicode)),
                },
                Piece::Field(field) => {
                    flush_run(&mut run, &mut parts);
                    parts.push(JoinedPart::Field(field));
                }
            }
        }
        flush_run(&mut run, &mut parts);

        self.open("JoinedStr");
        self.list("values", &parts, Self::joined_part);
        self.close();
    }

    fn joined_part(&mut self, part: &JoinedPart<'_>) {
        match part {
            JoinedPart::Constant { value, unicode } => {
                self.constant(|out| push_str_repr(out, value), *unicode);
            }
            JoinedPart::Field(field) => self.formatted_value(field),
        }
    }

    fn formatted_value(&mut self, field: &ast::InterpolatedElement) {
        self.open("FormattedValue");
        self.expr_field("value", &field.expression);
        // A debug field (`{x=}`) without conversion or format spec implies `!r`.
        let conversion = match field.conversion {
            ast::ConversionFlag::None
                if field.debug_text.is_some() && field.format_spec.is_none() =>
            {
                i64::from(b'r')
            }
            flag => i64::from(flag as i8),
        };
        self.int_field("conversion", conversion);
        if let Some(spec) = &field.format_spec {
            self.key("format_spec");
            self.format_spec(spec);
        }
        self.close();
    }

    /// A format spec is its own `JoinedStr` whose parts are *not* merged.
    ///
    /// CPython 3.12's tokenizer scans a spec in steps that start after the
    /// `:` and after each nested field. A step that starts right at the
    /// spec's closing `}`, or at a nested field written `{{...}` (a dict or
    /// set display), emits an empty literal token, which becomes
    /// `Constant(value='')`. A spec that is nothing but one such constant
    /// (`f'{x:}'`) is collapsed to `JoinedStr(values=[])`. 3.13 prunes these
    /// constants; 3.12 keeps them, and this reproduces 3.12.
    fn format_spec(&mut self, spec: &ast::InterpolatedStringFormatSpec) {
        let mut parts: Vec<JoinedPart<'_>> = Vec::new();
        let mut step_start = true;
        for element in spec.elements.iter() {
            match element {
                InterpolatedStringElement::Literal(literal) => {
                    parts.push(JoinedPart::Constant {
                        value: Cow::Borrowed(&literal.value),
                        unicode: false,
                    });
                    step_start = false;
                }
                InterpolatedStringElement::Interpolation(field) => {
                    if step_start && opens_with_double_brace(field) {
                        parts.push(empty_constant());
                    }
                    parts.push(JoinedPart::Field(field));
                    step_start = true;
                }
            }
        }
        // For an empty spec this would be the lone, collapsed constant.
        if step_start && !parts.is_empty() {
            parts.push(empty_constant());
        }
        self.open("JoinedStr");
        self.list("values", &parts, Self::joined_part);
        self.close();
    }

    /// t-strings are Python 3.14 syntax that 3.12 rejects, so there is no
    /// reference output to match; they are dumped in 3.14's shape.
    pub(super) fn template_str(&mut self, value: &ast::TStringValue) {
        self.open("TemplateStr");
        let elements = value.iter().flat_map(|tstring| tstring.elements.iter());
        self.list("values", elements, |w, element| match element {
            InterpolatedStringElement::Literal(literal) => {
                w.constant(|out| push_str_repr(out, &literal.value), false);
            }
            InterpolatedStringElement::Interpolation(field) => {
                w.open("Interpolation");
                w.expr_field("value", &field.expression);
                w.int_field("conversion", i64::from(field.conversion as i8));
                if let Some(spec) = &field.format_spec {
                    w.key("format_spec");
                    w.format_spec(spec);
                }
                w.close();
            }
        });
        self.close();
    }
}

/// The `expr=` text CPython 3.12 records for a debug field. Its tokenizer
/// drops everything from each `#` up to the end of the line so that comments
/// in multi-line fields vanish, without regard for string literals (so
/// `f"{'#'=}"` records just `'`).
fn debug_text(text: &str) -> Cow<'_, str> {
    if !text.contains('#') {
        return Cow::Borrowed(text);
    }
    let mut kept = String::with_capacity(text.len());
    let mut in_comment = false;
    for ch in text.chars() {
        match ch {
            '#' => in_comment = true,
            '\n' => {
                in_comment = false;
                kept.push(ch);
            }
            _ if !in_comment => kept.push(ch),
            _ => {}
        }
    }
    Cow::Owned(kept)
}

fn empty_constant() -> JoinedPart<'static> {
    JoinedPart::Constant {
        value: Cow::Borrowed(""),
        unicode: false,
    }
}

fn flush_run<'a>(run: &mut Option<(Cow<'a, str>, bool)>, parts: &mut Vec<JoinedPart<'a>>) {
    if let Some((value, unicode)) = run.take() {
        if !value.is_empty() {
            parts.push(JoinedPart::Constant { value, unicode });
        }
    }
}

/// Whether a nested format-spec field was written `{{...}`: its expression
/// starts immediately after the field's `{` with another `{` (a dict or set
/// display, possibly as the leftmost operand of a larger expression).
fn opens_with_double_brace(field: &ast::InterpolatedElement) -> bool {
    let mut expr: &Expr = &field.expression;
    if expr.start() != field.start() + TextSize::new(1) {
        return false;
    }
    loop {
        let leftmost = match expr {
            Expr::Dict(_) | Expr::Set(_) | Expr::DictComp(_) | Expr::SetComp(_) => return true,
            Expr::Attribute(e) => &*e.value,
            Expr::Subscript(e) => &*e.value,
            Expr::Call(e) => &*e.func,
            Expr::BinOp(e) => &*e.left,
            Expr::Compare(e) => &*e.left,
            Expr::If(e) => &*e.body,
            Expr::BoolOp(e) => match e.values.first() {
                Some(first) => first,
                None => return false,
            },
            Expr::Tuple(e) if !e.parenthesized => match e.elts.first() {
                Some(first) => first,
                None => return false,
            },
            _ => return false,
        };
        // A parenthesized operand starts after the parent's `(`.
        if leftmost.start() != expr.start() {
            return false;
        }
        expr = leftmost;
    }
}
