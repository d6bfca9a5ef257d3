//! The document's limits, each stated once. The JSON keeps every side's
//! list as the contract fixes it (a limit both sides hold is in both);
//! a reader wants a sentence once, with the sides that hold it.

use serde_json::Value;

/// Which sides of one comparison hold a limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitSides {
    Base,
    Head,
    Both,
}

impl LimitSides {
    /// `base`, `head`, `base and head`: the text's line label.
    pub fn label(self) -> &'static str {
        match self {
            LimitSides::Base => "base",
            LimitSides::Head => "head",
            LimitSides::Both => "base and head",
        }
    }
}

/// One limit of one comparison's sides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SideLimit {
    pub text: String,
    pub sides: LimitSides,
}

/// A comparison's base and head limits merged: base order first, then
/// what only the head holds; each sentence once.
pub fn side_limits(comparison: &Value) -> Vec<SideLimit> {
    let base = strings(comparison.get("base"), "limits");
    let head = strings(comparison.get("head"), "limits");
    let mut merged: Vec<SideLimit> = Vec::new();
    for text in &base {
        if merged.iter().any(|m| m.text == *text) {
            continue;
        }
        let sides = if head.contains(text) {
            LimitSides::Both
        } else {
            LimitSides::Base
        };
        merged.push(SideLimit {
            text: text.clone(),
            sides,
        });
    }
    for text in head {
        if !merged.iter().any(|m| m.text == text) {
            merged.push(SideLimit {
                text,
                sides: LimitSides::Head,
            });
        }
    }
    merged
}

/// One limit of the whole document, for a rendering that lists them in
/// one place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentLimit {
    /// The head scope of the comparison it belongs to in a combined
    /// document (its paths are relative to that scope); none for a scope
    /// limit or a single document.
    pub scope: Option<String>,
    /// `scope` for a limit of the scope selection, else the sides' label.
    pub holder: &'static str,
    pub text: String,
}

/// Every limit of the document once: the scope selection's, then each
/// comparison's merged sides (a sentence already stated as a scope limit
/// is not repeated).
pub fn document_limits(doc: &Value) -> Vec<DocumentLimit> {
    let mut out: Vec<DocumentLimit> = strings(doc.get("scope_selection"), "limits")
        .into_iter()
        .map(|text| DocumentLimit {
            scope: None,
            holder: "scope",
            text,
        })
        .collect();
    out.dedup_by(|a, b| a.text == b.text);
    let scope_limits: Vec<String> = out.iter().map(|l| l.text.clone()).collect();
    let comparisons: Vec<(Option<String>, &Value)> =
        match doc.get("comparisons").and_then(Value::as_array) {
            Some(all) => all
                .iter()
                .map(|c| {
                    let scope = c
                        .get("head")
                        .and_then(|h| h.get("scope"))
                        .and_then(Value::as_str)
                        .map(str::to_string);
                    (scope, c)
                })
                .collect(),
            None => vec![(None, doc)],
        };
    for (scope, comparison) in comparisons {
        for limit in side_limits(comparison) {
            if scope_limits.contains(&limit.text) {
                continue;
            }
            out.push(DocumentLimit {
                scope: scope.clone(),
                holder: limit.sides.label(),
                text: limit.text,
            });
        }
    }
    out
}

fn strings(v: Option<&Value>, key: &str) -> Vec<String> {
    v.and_then(|v| v.get(key))
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_limit_both_sides_hold_is_stated_once() {
        let comparison = json!({
            "base": {"limits": ["shared", "base only", "shared"]},
            "head": {"limits": ["head only", "shared"]}
        });
        assert_eq!(
            side_limits(&comparison),
            vec![
                SideLimit {
                    text: "shared".into(),
                    sides: LimitSides::Both
                },
                SideLimit {
                    text: "base only".into(),
                    sides: LimitSides::Base
                },
                SideLimit {
                    text: "head only".into(),
                    sides: LimitSides::Head
                },
            ]
        );
    }

    #[test]
    fn document_limits_name_scope_and_comparison_once() {
        let doc = json!({
            "scope_selection": {"limits": ["scope one"]},
            "comparisons": [
                {"head": {"scope": "alpha", "limits": ["scope one", "x"]}, "base": {"limits": ["x"]}},
                {"head": {"scope": "beta", "limits": ["x"]}, "base": {"limits": []}}
            ]
        });
        let limits = document_limits(&doc);
        let spelled: Vec<(Option<&str>, &str, &str)> = limits
            .iter()
            .map(|l| (l.scope.as_deref(), l.holder, l.text.as_str()))
            .collect();
        // `x` in beta is another scope's sentence (its paths are beta's).
        assert_eq!(
            spelled,
            vec![
                (None, "scope", "scope one"),
                (Some("alpha"), "base and head", "x"),
                (Some("beta"), "head", "x"),
            ]
        );
    }
}
