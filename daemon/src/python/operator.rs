//! A binary or comparison operator of `Value::BinOp` and `Value::Compare`,
//! as one byte: Python's operators are a fixed set, and a string in each
//! operation made `Value` a word wider than its other variants need.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

macro_rules! operators {
    ($($variant:ident => $spelling:literal,)*) => {
        /// An operator, spelled as Python spells it (`Operator::as_str`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Operator {
            $($variant,)*
        }

        impl Operator {
            /// The operator as Python spells it: `+`, `//`, `not in`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Operator::$variant => $spelling,)*
                }
            }

            /// The operator Python spells `spelling`, if any.
            pub fn parse(spelling: &str) -> Option<Operator> {
                match spelling {
                    $($spelling => Some(Operator::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

operators! {
    Add => "+",
    Sub => "-",
    Mult => "*",
    MatMult => "@",
    Div => "/",
    Mod => "%",
    Pow => "**",
    LShift => "<<",
    RShift => ">>",
    BitOr => "|",
    BitXor => "^",
    BitAnd => "&",
    FloorDiv => "//",
    Eq => "==",
    NotEq => "!=",
    Lt => "<",
    LtE => "<=",
    Gt => ">",
    GtE => ">=",
    Is => "is",
    IsNot => "is not",
    In => "in",
    NotIn => "not in",
}

impl std::fmt::Display for Operator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<str> for Operator {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Operator {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// Stored as its spelling, as the string it replaced was: the facts'
/// encoding is unchanged.
impl Serialize for Operator {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Operator {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Operator, D::Error> {
        struct Spelling;
        impl serde::de::Visitor<'_> for Spelling {
            type Value = Operator;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a Python operator")
            }
            fn visit_str<E: serde::de::Error>(self, spelling: &str) -> Result<Operator, E> {
                Operator::parse(spelling)
                    .ok_or_else(|| E::custom(format_args!("{spelling:?} is not a Python operator")))
            }
        }
        deserializer.deserialize_str(Spelling)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_operator_reads_back_from_its_spelling_and_nothing_else_does() {
        for spelling in [
            "+", "-", "*", "@", "/", "%", "**", "<<", ">>", "|", "^", "&", "//", "==", "!=", "<",
            "<=", ">", ">=", "is", "is not", "in", "not in",
        ] {
            let operator = Operator::parse(spelling);
            assert_eq!(operator.map(Operator::as_str), Some(spelling));
            let encoded = postcard::to_stdvec(&operator).unwrap_or_default();
            assert_eq!(
                encoded,
                postcard::to_stdvec(&Some(spelling)).unwrap_or_default()
            );
            assert_eq!(
                postcard::from_bytes::<Option<Operator>>(&encoded).ok(),
                Some(operator)
            );
        }
        assert_eq!(Operator::parse("and"), None);
        let foreign = postcard::to_stdvec("<>").unwrap_or_default();
        assert!(postcard::from_bytes::<Operator>(&foreign).is_err());
    }
}
