//! A builder whose capability list is a parameter (`def build(tools):
//! return Agent(..., tools=tools)`), read as the union of what every call
//! of it in the compared scope passes — beyond the reference, which names
//! any parameter as a dynamic expression.
//!
//! Sound only while every call is found: the builder is a module-level,
//! undecorated function bound once; every use of its name, in its module
//! and in every module that imports it by name, is a call; no module
//! imports its module whole or with `*`; no call passes `*`/`**` or runs
//! in a loop or an `except` handler. Each member carries the call's `if`
//! conditions (`bound_when`) and where the call is. Anything else is the
//! named limit it was, with the first place reading stopped.

use super::list_exprs::{Member, Members, LIST_KEYWORDS};
use crate::graph::build::ModuleReader;
use crate::python::{BindingKind, CallFact, ModuleFacts, ParamKind, Text, Value};
use crate::resolve::ModuleSet;
use std::collections::BTreeSet;

/// How the builder reads its parameter: as a whole list (`tools=tools`)
/// or as one member of a list (`mcp_servers=[server]`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(in crate::graph::build) enum Passed {
    List,
    Element,
}

/// One call of the builder: the module it is in and the call.
pub(in crate::graph::build) struct Call<'f> {
    pub path: &'f str,
    pub call: &'f CallFact,
}

impl<'m> ModuleReader<'_, 'm> {
    /// `name` read in `scope` as a parameter of the builder `scope` is,
    /// as a whole list (`tools=tools`) or as one member of one
    /// (`mcp_servers=[server]`, each call's argument the member, read where
    /// the call is): `None` when it is no parameter there.
    pub(in crate::graph::build) fn parameter_read(
        &self,
        scope: &str,
        name: &str,
        shape: Passed,
        depth: usize,
        when: &[String],
    ) -> Option<Result<Members, String>> {
        let (owner, param) = self.parameter_of(scope, name)?;
        Some(self.callers_union(scope, owner, param, name, shape, depth, when))
    }

    /// The function whose parameter `name` is where `scope` reads it, and
    /// the parameter: only when that function binds it nowhere else.
    fn parameter_of(
        &self,
        scope: &str,
        name: &str,
    ) -> Option<(&'m str, &'m crate::python::ParamFact)> {
        let facts: &'m ModuleFacts = self.modules.facts(self.path)?;
        let mut current = scope;
        while !current.is_empty() {
            let function = facts.functions.iter().find(|f| f.qualname == current)?;
            let bound: Vec<_> = function.locals_named(name).collect();
            if !bound.is_empty() {
                let [binding] = bound.as_slice() else {
                    return None;
                };
                if binding.kind != BindingKind::Parameter {
                    return None;
                }
                let param = function.params.iter().find(|p| p.name == name)?;
                return Some((function.qualname.as_str(), param));
            }
            current = current.rsplit_once('.').map_or("", |(parent, _)| parent);
        }
        None
    }

    #[allow(clippy::too_many_arguments)]
    fn callers_union(
        &self,
        scope: &str,
        owner: &str,
        param: &crate::python::ParamFact,
        name: &str,
        shape: Passed,
        depth: usize,
        when: &[String],
    ) -> Result<Members, String> {
        let facts = self.facts;
        let of = format!("`{name}`, a parameter of `{owner}`");
        if owner != scope {
            return Err(format!(
                "{of}, which a function nested in it reads, so its callers are not read"
            ));
        }
        let Some(builder) = facts.functions.iter().find(|f| f.qualname == owner) else {
            return Err(format!("{of}, which is not read"));
        };
        if !builder.module_level {
            return Err(format!(
                "{of}, a method or nested function, whose callers are not read"
            ));
        }
        if !builder.decorators.is_empty() {
            return Err(format!(
                "{of}, which is decorated, so what calls it is not read"
            ));
        }
        if matches!(param.kind, ParamKind::VarPositional | ParamKind::VarKeyword) {
            return Err(format!("{of}, which collects `*`/`**` arguments"));
        }
        match shape {
            // The parameter itself is only read as a list in the builder.
            Passed::List => {
                let added = facts
                    .list_additions
                    .iter()
                    .filter(|a| a.target == name && a.scope == owner && a.how != "+=")
                    .count() as u32;
                if super::list_exprs::other_uses_within(facts, name, owner)
                    != self.list_reads_within(name, owner) + added
                {
                    return Err(format!(
                        "{of}, which {} uses other than as an agent's list, so it could change",
                        self.path
                    ));
                }
            }
            // The object a member names is what each call passes, unless
            // the builder changes it.
            Passed::Element => {
                if let Some(why) = super::call_frames::stored_into(facts, owner, name) {
                    return Err(why);
                }
            }
        }
        let calls = self
            .builder_calls(owner)
            .map_err(|why| format!("{of}, whose closed caller set is not established: {why}"))?;
        if calls.is_empty() {
            return Err(format!(
                "{of}, whose closed caller set is not established: no module of the scope calls `{owner}`"
            ));
        }
        let positional = builder
            .params
            .iter()
            .filter(|p| matches!(p.kind, ParamKind::PositionalOnly | ParamKind::Normal))
            .position(|p| p.name == name);
        // What the builder adds to the list before it builds the agent.
        let mut members = match shape {
            Passed::List => self.additions(name, owner, depth, when)?,
            Passed::Element => Members::new(),
        };
        let until = self.reading_line.get();
        // The construction's own `if` inside the builder joins each
        // caller's (spec: the row carries both, as source text).
        let construction_guard: Vec<String> = facts
            .calls
            .iter()
            .find(|c| {
                c.line == until
                    && c.scope == owner
                    && c.keywords.iter().any(|k| {
                        k.name
                            .as_deref()
                            .is_some_and(|n| LIST_KEYWORDS.contains(&n))
                    })
            })
            .and_then(|c| c.guard.as_ref())
            .map(|guard| guard.iter().map(condition_text).collect())
            .unwrap_or_default();
        // Each call is read on its own: one that passes something
        // unreadable is an unread member of the union, named, and the
        // members the other calls pass are still compared. (That the
        // callers are all known is the whole union's condition, above.)
        let unread = |why: String, at: &str| Member {
            caller: Some(at.to_string()),
            ..Member::unread(why, owner, when)
        };
        for Call { path, call } in calls {
            let at = format!("{path}:{}", call.line);
            let Some(guard) = &call.guard else {
                members.push(unread(
                    format!("{of}, which the call at {at} passes in a loop or an except handler"),
                    &at,
                ));
                continue;
            };
            if call.args.iter().any(|a| matches!(a, Value::Starred(_)))
                || call.keywords.iter().any(|k| k.name.is_none())
            {
                members.push(unread(
                    format!("{of}, which the call at {at} may pass through `*`/`**` unpacking"),
                    &at,
                ));
                continue;
            }
            let by_keyword = call
                .keyword(name)
                .filter(|_| param.kind != ParamKind::PositionalOnly)
                .map(|k| (&k.value, call.scope.as_str()));
            let passed = positional
                .and_then(|index| call.args.get(index))
                .map(|value| (value, call.scope.as_str()))
                .or(by_keyword);
            // A default is evaluated where the builder is defined.
            let (value, value_scope, value_path) = match passed {
                Some((value, value_scope)) => (value, value_scope, path),
                None => match &param.default {
                    Some(default) => (default, "", self.path),
                    None => {
                        members.push(unread(
                            format!("{of}, which the call at {at} does not pass"),
                            &at,
                        ));
                        continue;
                    }
                },
            };
            let mut conditions = when.to_vec();
            conditions.extend(guard.iter().map(condition_text));
            conditions.extend(construction_guard.iter().cloned());
            // What this call passes, for the builder's own conditions (all
            // of them are in `conditions` before the read; none, nothing
            // to qualify).
            let spelled = if conditions.is_empty() {
                Vec::new()
            } else {
                self.spelled_arguments(builder, path, call)
            };
            self.reading_line.set(call.line);
            let read_one = |reader: &ModuleReader<'_, 'm>| match shape {
                Passed::List => reader.list_expression(value, value_scope, depth + 1, &conditions),
                Passed::Element => Ok(reader.element(value, value_scope, depth + 1, &conditions)),
            };
            let read = if value_path == self.path {
                read_one(self)
            } else {
                self.in_module(value_path, None, read_one).map(|read| {
                    read.into_iter()
                        .map(|m| Member {
                            from: m.from.or_else(|| Some(value_path.to_string())),
                            ..m
                        })
                        .collect()
                })
            };
            self.reading_line.set(until);
            let read = match read {
                Ok(read) => read,
                Err(why) => {
                    members.push(unread(format!("{why}, passed to `{owner}` at {at}"), &at));
                    continue;
                }
            };
            members.extend(read.into_iter().map(|m| {
                let m = super::call_frames::qualify(m, 0, &spelled, &at);
                Member {
                    caller: m.caller.or_else(|| Some(at.clone())),
                    ..m
                }
            }));
        }
        Ok(members)
    }

    /// What `call` (in `path`) passes each of the builder's parameters,
    /// spelled for a condition; every parameter unnamed when the call's
    /// arguments do not bind.
    fn spelled_arguments(
        &self,
        builder: &crate::python::FunctionFact,
        path: &str,
        call: &CallFact,
    ) -> Vec<(String, Result<String, String>)> {
        let keywords: Vec<(Option<Text>, Value)> = call
            .keywords
            .iter()
            .map(|k| (k.name.clone(), k.value.clone()))
            .collect();
        match super::call_frames::bind_arguments(builder, &call.args, &keywords) {
            Ok(bound) => bound
                .into_iter()
                .map(|b| {
                    let (value_path, value_scope) = if b.from_default {
                        (self.path, "")
                    } else {
                        (
                            self.modules.key(path).unwrap_or(self.path),
                            call.scope.as_str(),
                        )
                    };
                    let text = self.argument_value(value_path, value_scope, &b.value, None);
                    (b.param, text)
                })
                .collect(),
            Err(why) => builder
                .params
                .iter()
                .map(|p| (p.name.to_string(), Err(why.clone())))
                .collect(),
        }
    }

    /// Every call of the module-level function `builder` in the scope, or
    /// why they are not all known.
    pub(in crate::graph::build) fn builder_calls(
        &self,
        builder: &str,
    ) -> Result<Vec<Call<'m>>, String> {
        builder_calls(self.modules, self.path, builder)
    }

    /// Runs `read` as a reader of the module `path` (its names, its
    /// builders), for a list a caller in that module passes.
    pub(in crate::graph::build) fn in_module<T>(
        &self,
        path: &str,
        frame: Option<std::rc::Rc<super::call_frames::CallFrame>>,
        read: impl FnOnce(&ModuleReader<'_, 'm>) -> Result<T, String>,
    ) -> Result<T, String> {
        let (Some(key), Some(facts)) = (self.modules.key(path), self.modules.facts(path)) else {
            return Err(format!("{path}, which is not read"));
        };
        let mut graph = crate::graph::SideGraph::default();
        let mut gaps = BTreeSet::new();
        let reader = ModuleReader {
            framework: self.framework,
            path: key,
            facts,
            modules: self.modules,
            contexts: self.contexts,
            graph: &mut graph,
            gaps: &mut gaps,
            reading_line: std::cell::Cell::new(self.reading_line.get()),
            resolve_from: std::cell::Cell::new(None),
            field: std::cell::Cell::new(self.field.get()),
            rewires: self.rewires,
            frame: std::cell::RefCell::new(frame),
            returning: std::cell::Cell::new(self.returning.get()),
            passing: std::cell::Cell::new(false),
            agent_bindings: Default::default(),
            budget: self.budget,
        };
        read(&reader)
    }
}

/// A test as `bound_when` spells it: its source text, never evaluated.
fn condition_text(condition: &crate::python::Condition) -> String {
    let test = crate::graph::schema::unparse(&condition.test);
    if condition.holds {
        format!("`{test}`")
    } else {
        format!("not `{test}`")
    }
}

/// The calls of `local` in one module, when every use of the name there
/// is one of them.
/// Every call of the module-level name `builder` of `path` (a function,
/// or a class) in the scope, or why they are not all known: the module
/// binds it once, every use of it there and in each module that imports
/// it is a call (a subclass or a value is a use), and no module imports
/// `path` whole or with `*`.
pub(in crate::graph::build) fn builder_calls<'m>(
    modules: &ModuleSet<'m>,
    path: &str,
    builder: &str,
) -> Result<Vec<Call<'m>>, String> {
    let Some(own) = modules.facts(path) else {
        return Err(format!("`{builder}`, whose module is not read"));
    };
    let Some(own_path) = modules.key(path) else {
        return Err(format!("`{builder}`, whose module is not read"));
    };
    let bound = own
        .module_bindings_named(builder)
        .filter(|b| b.name == builder)
        .count();
    if bound != 1 {
        return Err(format!("{} binds `{builder}` more than once", path));
    }
    let mut calls = Vec::new();
    collect_calls(own_path, own, builder, &mut calls)?;
    if calls
        .iter()
        .any(|c| c.call.scope == builder || c.call.scope.starts_with(&format!("{builder}.")))
    {
        return Err(format!("`{builder}` calls itself"));
    }
    // Only the imports that name this module can reach the builder (the
    // others neither import it whole nor take a name from it), in the
    // order a scan of every import would meet them.
    let mut seen = BTreeSet::new();
    for edge in modules.import_edges().naming(own_path) {
        let (Some(module), Some(importer)) = (modules.key(edge.module), modules.facts(edge.module))
        else {
            continue;
        };
        if module == own_path {
            continue;
        }
        let Some(import) = importer.imports.get(edge.import) else {
            continue;
        };
        if edge.whole == Some(own_path) {
            return Err(format!(
                "{module}:{} imports {own_path} whole, and calls through it are not read",
                import.line
            ));
        }
        let from_here = matches!(import.name.as_deref(), Some(n) if n == builder || n == "*")
            && edge.from == Some(own_path);
        if !from_here {
            continue;
        }
        if import.name.as_deref() == Some("*") {
            return Err(format!(
                "{module}:{} imports {own_path} with *",
                import.line
            ));
        }
        if seen.insert((module, import.bound_name().to_string())) {
            collect_calls(module, importer, import.bound_name(), &mut calls)?;
        }
    }
    Ok(calls)
}

fn collect_calls<'m>(
    path: &'m str,
    facts: &'m ModuleFacts,
    local: &str,
    calls: &mut Vec<Call<'m>>,
) -> Result<(), String> {
    let found: Vec<&CallFact> = facts
        .calls
        .iter()
        .filter(|c| matches!(&c.callee, Value::Name(n) if n == local))
        .collect();
    let uses = facts.name_uses.get(local).copied().unwrap_or(0) as usize;
    if uses != found.len() {
        return Err(format!(
            "{path} uses `{local}` other than by calling it (as a value, or exported)"
        ));
    }
    calls.extend(found.into_iter().map(|call| Call { path, call }));
    Ok(())
}
