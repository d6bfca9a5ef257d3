//! Capability lists taken out of a dict by a literal key (issue 19):
//! `groups = make_tool_groups(user); tools=groups["mail"] +
//! groups.get("notes", [])`, or a dict display bound once. The entry is
//! read as the list expression the dict holds under that key.
//!
//! Sound only while the dict is one display with literal keys and no
//! `**` spread, bound once (or returned once by a repository function,
//! `call_frames.rs`), and every use of its name reads an entry by a
//! literal key (`list_uses.rs` counts `d["k"]` and `d.get("k", …)` as
//! reads): nothing can add, replace or change an entry. A missing key is
//! the `.get` default (nothing for `.get("k")`); for `d["k"]` it is named.

use super::call_frames::Return;
use super::list_exprs::Members;
use super::list_uses::{other_uses_within, within};
use crate::graph::build::ModuleReader;
use crate::python::{BindingKind, Value};

/// A read of one entry: the dict's name, the key, and what `.get` gives
/// when the key is absent (`None`: a subscript, which raises).
pub(in crate::graph::build) struct EntryRead<'v> {
    pub dict: &'v str,
    pub key: &'v str,
    pub default: Option<Option<&'v Value>>,
}

/// `d["k"]` or `d.get("k")` / `d.get("k", default)`, when `value` is one.
pub(in crate::graph::build) fn entry_read(value: &Value) -> Option<EntryRead<'_>> {
    match value {
        Value::Subscript { base, index } => match (base.as_ref(), index.as_slice()) {
            (Value::Name(dict), [Value::Str(key)]) => Some(EntryRead {
                dict,
                key,
                default: None,
            }),
            _ => None,
        },
        Value::Call {
            callee,
            args,
            keywords,
        } if keywords.is_empty() => {
            let Value::Attribute(parts) = callee.as_ref() else {
                return None;
            };
            let [dict, method] = parts.as_slice() else {
                return None;
            };
            if method != "get" {
                return None;
            }
            match args.as_slice() {
                [Value::Str(key)] => Some(EntryRead {
                    dict,
                    key,
                    default: Some(None),
                }),
                [Value::Str(key), default] => Some(EntryRead {
                    dict,
                    key,
                    default: Some(Some(default)),
                }),
                _ => None,
            }
        }
        _ => None,
    }
}

impl ModuleReader<'_, '_> {
    /// The members of one entry of a dict `scope` names.
    pub(in crate::graph::build) fn dict_entry(
        &self,
        read: EntryRead<'_>,
        scope: &str,
        depth: usize,
        when: &[String],
    ) -> Result<Members, String> {
        let EntryRead { dict, key, default } = read;
        let spelled = format!("`{dict}[{}]`", crate::pyrepr::str_repr(key));
        let (value, binding_scope) = self.bound_dict(scope, dict)?;
        let entry = |entries: &[(Option<Value>, Value)]| -> Result<Option<Value>, String> {
            if entries
                .iter()
                .any(|(k, _)| !matches!(k, Some(Value::Str(_))))
            {
                return Err(format!(
                    "{spelled}, whose dict has keys that are not literals or a `**` spread"
                ));
            }
            Ok(entries
                .iter()
                .rev()
                .find(|(k, _)| matches!(k, Some(Value::Str(k)) if k == key))
                .map(|(_, v)| v.clone()))
        };
        let absent = || match default {
            None => Err(format!("{spelled}, a key the dict does not hold")),
            Some(None) => Ok(Members::new()),
            Some(Some(default)) => self.list_expression(default, scope, depth + 1, when),
        };
        match value {
            Value::Dict(entries) => match entry(entries)? {
                Some(found) => self.list_expression(&found, &binding_scope, depth + 1, when),
                None => absent(),
            },
            call @ Value::Call { .. } => {
                let returned = self
                    .call_return(&binding_scope, call)
                    .ok_or_else(|| format!("{spelled}, whose dict is a call that is not read"))??;
                let facts = self
                    .modules
                    .facts(&returned.frame.path)
                    .ok_or("a module not read")?;
                let function = facts
                    .functions
                    .iter()
                    .find(|f| f.qualname == returned.frame.function)
                    .ok_or("a function not read")?;
                let entries = match returned.value {
                    Value::Dict(entries) => entries,
                    Value::Name(local) => local_dict(facts, function, local).ok_or_else(|| {
                        format!("{spelled}, whose dict `{local}` is not one display only returned")
                    })?,
                    _ => return Err(format!("{spelled}, whose call returns no dict display")),
                };
                match entry(entries)? {
                    Some(found) => {
                        let returned = Return {
                            value: &found,
                            frame: returned.frame,
                        };
                        self.returned_members(returned, None, depth, when)
                    }
                    None => absent(),
                }
            }
            _ => Err(format!("{spelled}, which is not a dict display")),
        }
    }

    /// The one value `dict` is bound to where `scope` reads it, and the
    /// scope of that binding: only when bound once by an assignment and
    /// every use of it reads an entry by a literal key.
    fn bound_dict(&self, scope: &str, dict: &str) -> Result<(&Value, String), String> {
        let facts = self.facts;
        let (bindings, binding_scope) = super::list_exprs::nearest_bindings(facts, scope, dict);
        let not_read = || format!("`{dict}`, which is not bound once to a dict it only reads");
        let [binding] = bindings.as_slice() else {
            return Err(not_read());
        };
        let once = !binding.conditional
            || (!binding_scope.is_empty()
                && crate::resolve::runs_once_per_call(facts, &binding_scope, binding));
        let value = match (&binding.kind, &binding.value) {
            (BindingKind::Assignment, Some(value @ (Value::Dict(_) | Value::Call { .. })))
                if once =>
            {
                value
            }
            _ => return Err(not_read()),
        };
        let rebound = facts.functions.iter().any(|f| {
            f.globals.iter().any(|g| g == dict)
                || (!binding_scope.is_empty()
                    && f.qualname != binding_scope
                    && within(&f.qualname, &binding_scope)
                    && f.nonlocals.iter().any(|n| n == dict))
        });
        let reads = super::list_uses::list_reads_within(facts, dict, &binding_scope);
        if rebound || other_uses_within(facts, dict, &binding_scope) != reads {
            return Err(format!(
                "`{dict}`, which {} uses other than to read an entry by a literal key, so it could change",
                self.path
            ));
        }
        if binding_scope.is_empty() && self.imported_elsewhere(dict) {
            return Err(format!(
                "`{dict}`, which another module imports, so it could change"
            ));
        }
        Ok((value, binding_scope))
    }
}

/// The dict display a function binds `name` to, when it binds it once,
/// unconditionally, and its only use is the return.
fn local_dict<'f>(
    facts: &'f crate::python::ModuleFacts,
    function: &'f crate::python::FunctionFact,
    name: &str,
) -> Option<&'f [(Option<Value>, Value)]> {
    let bindings: Vec<_> = function.locals_named(name).collect();
    let [binding] = bindings.as_slice() else {
        return None;
    };
    let Some(Value::Dict(entries)) = &binding.value else {
        return None;
    };
    let only_returned = binding.kind == BindingKind::Assignment
        && !binding.conditional
        && other_uses_within(facts, name, &function.qualname) == 1;
    only_returned.then_some(entries.as_slice())
}
