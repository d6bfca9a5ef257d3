//! The value model of the facts: a small, bounded picture of an
//! expression (names, attribute chains, literals, calls, displays), enough
//! to follow names and read literal structure, never the whole AST.

use super::{Operator, Text, ThinVec};
use serde::{Deserialize, Serialize};

/// How `Value::Other` spells a method of a string literal: `",".join` is
/// `Other("method of a string literal: join")`.
pub const STRING_METHOD: &str = "method of a string literal: ";

/// How `Value::Other` spells `.clone` called on an expression that is not
/// a plain name (`load_agent().clone(tools=[…])`): a copy of an object no
/// reader names, which the copy census must still see.
pub const EXPRESSION_CLONE: &str = "method of an expression: clone";

/// A small, bounded model of an expression: enough to follow names and read
/// literal structure, never the whole AST.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Value {
    Name(Text),
    /// `a.b.c` as `["a", "b", "c"]`, when the base is a plain name.
    Attribute(Vec<Text>),
    Str(Text),
    /// An int or float literal, spelled as in source.
    Number(Text),
    Bool(bool),
    None,
    List(Vec<Value>),
    Tuple(Vec<Value>),
    /// A set display (`{"a", "b"}`), its members in source order.
    Set(Vec<Value>),
    Starred(Box<Value>),
    /// A call: its lists are `ThinVec`s (one word each) so that no
    /// variant is wider than three words (see `Value`'s size test).
    Call {
        callee: Box<Value>,
        args: ThinVec<Value>,
        keywords: ThinVec<(Option<Text>, Value)>,
    },
    /// `base[index]`, as in annotations like `Optional[str]`.
    Subscript {
        base: Box<Value>,
        index: ThinVec<Value>,
    },
    /// `a | b`, as in annotations.
    Union(Vec<Value>),
    /// A dict display; a `None` key is a `**mapping` spread.
    Dict(Vec<(Option<Value>, Value)>),
    /// An f-string: literal pieces as `Str`, each replacement field as its
    /// expression (conversion and format spec dropped).
    FString(Vec<Value>),
    /// A list comprehension with one synchronous `for`:
    /// `[element for target in iter if condition …]`.
    ListComprehension(Box<Comprehension>),
    /// `body if test else orelse`.
    IfElse {
        test: Box<Value>,
        body: Box<Value>,
        orelse: Box<Value>,
    },
    /// `a or b or …`.
    Or(Vec<Value>),
    /// `left + right` (lists concatenated, numbers added: the reader
    /// decides).
    Add {
        left: Box<Value>,
        right: Box<Value>,
    },
    /// Any other arithmetic, `left op right` (`-`, `*`, `/`, `//`, `**`,
    /// a `%` that formats nothing, bit operations), `op` as Python spells
    /// it.
    BinOp {
        left: Box<Value>,
        op: Operator,
        right: Box<Value>,
    },
    /// One comparison, `left op right` (`op` as Python spells it: `==`,
    /// `in`, `is not`…).
    Compare {
        left: Box<Value>,
        op: Operator,
        right: Box<Value>,
    },
    /// Anything else, by its kind (`comprehension`, `binary operation`…).
    Other(Text),
}

/// `[element for target in iter if condition …]`, boxed in its `Value`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comprehension {
    pub element: Value,
    pub target: Value,
    pub iter: Value,
    pub conditions: Vec<Value>,
}

/// The value a call's keyword `name=` passes, among a `Value::Call`'s
/// keywords (`None` for a `**` spread's key).
pub fn keyword_value<'k>(keywords: &'k [(Option<Text>, Value)], name: &str) -> Option<&'k Value> {
    keywords
        .iter()
        .find(|(k, _)| k.as_deref() == Some(name))
        .map(|(_, v)| v)
}

impl Value {
    /// The dotted spelling of a name or attribute chain.
    pub fn dotted(&self) -> Option<String> {
        match self {
            Value::Name(name) => Some(name.to_string()),
            Value::Attribute(parts) => Some(parts.join(".")),
            _ => None,
        }
    }
}
