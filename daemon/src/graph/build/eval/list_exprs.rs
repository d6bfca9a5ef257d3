//! Capability lists built by expressions (issue 6, in part): list and tuple
//! literals with `*` spreads, `a + b`, `list()`/`tuple()`/`sorted()` of
//! those, and names bound once — in the builder, an enclosing function or
//! the module — to one of those, read member by member.
//!
//! A name is read only while every use of it in its module reads it (as an
//! agent's list, a spread or an operand of another such list) and no other
//! module imports it: otherwise something could change the list. A part
//! that cannot be read is kept as an unread member, so the agent is named
//! incomplete while the members that were read are still compared.

use super::builder_callers::Passed;
use super::call_frames::CallFrame;
use super::list_uses::{is_list_expression, list_reads_in, list_reads_within, within};
pub(in crate::graph::build) use super::list_uses::{other_uses, other_uses_within, LIST_KEYWORDS};
use crate::frameworks::openai::{self, ListMember};
use crate::graph::build::ModuleReader;
use crate::python::{BindingKind, Comprehension, Value};
use std::rc::Rc;

/// One member read from a capability list.
#[derive(Debug, Clone)]
pub(in crate::graph::build) struct Member {
    pub member: ListMember,
    /// The function its names are read in (empty: module level).
    pub scope: String,
    /// The conditions it is listed under (source text, never evaluated;
    /// empty = always).
    pub when: Vec<String>,
    /// The module its names are read in when the list came from another
    /// one (`None`: the agent's own module).
    pub from: Option<String>,
    /// Where the builder was called, when the member came through a
    /// builder's parameter (`agent.py:14`): evidence, never compared.
    pub caller: Option<String>,
    /// The rewire that added it after construction (`router.py:9`):
    /// evidence, never compared.
    pub rewired_at: Option<String>,
    /// The call of a repository function its names are read in, when it
    /// came from that function's return: a definition nested in the
    /// function depends on what the call passes (`CallFrame::closure`).
    pub frame: Option<Rc<CallFrame>>,
    /// The SDK `tool_namespace(...)` it is listed through (`name:
    /// description`): part of what the tool is.
    pub namespace: Option<String>,
}

impl Member {
    /// A part of a list that is not read, and why.
    pub(in crate::graph::build) fn unread(why: String, scope: &str, when: &[String]) -> Self {
        Member::here(ListMember::Unread(why), scope, when)
    }

    pub(in crate::graph::build) fn here(member: ListMember, scope: &str, when: &[String]) -> Self {
        Member {
            member,
            scope: scope.to_string(),
            when: when.to_vec(),
            from: None,
            caller: None,
            rewired_at: None,
            frame: None,
            namespace: None,
        }
    }
}

pub(in crate::graph::build) type Members = Vec<Member>;

/// Whether any member was read (else the list is not read at all): what a
/// limit on an unread member says, "reads only in part" or "does not read".
pub(in crate::graph::build) fn any_read(members: &[Member]) -> bool {
    members
        .iter()
        .any(|m| !matches!(m.member, ListMember::Unread(_)))
}

/// The bindings of `name` in the nearest scope that binds it, as Python
/// looks a name up from `scope` (a function, its enclosing functions,
/// then the module), and that scope (empty: module level).
pub(in crate::graph::build) fn nearest_bindings<'f>(
    facts: &'f crate::python::ModuleFacts,
    scope: &str,
    name: &str,
) -> (Vec<&'f crate::python::BindingFact>, String) {
    let mut current = scope.to_string();
    loop {
        let here: Vec<&crate::python::BindingFact> = if current.is_empty() {
            facts
                .module_bindings_named(name)
                .filter(|b| b.name == name)
                .collect()
        } else {
            facts
                .functions
                .iter()
                .find(|f| f.qualname == current)
                .map(|f| f.locals_named(name).collect())
                .unwrap_or_default()
        };
        if !here.is_empty() || current.is_empty() {
            return (here, current);
        }
        current = current
            .rsplit_once('.')
            .map_or(String::new(), |(parent, _)| parent.to_string());
    }
}

/// What a name is bound to, as the list reader reads it.
pub(in crate::graph::build) struct BoundList<'v> {
    pub value: &'v Value,
    /// The scope the binding is written in (empty: module level).
    pub scope: String,
    /// For `a, b = value`: which item of how many this name takes.
    pub pick: Option<(u32, u32)>,
}

/// Nesting followed through names and operands, at most.
pub(super) const MAX_DEPTH: usize = 16;
/// Members read from one list, at most.
const MAX_MEMBERS: usize = 1000;

impl ModuleReader<'_, '_> {
    /// Reads a list expression written in `scope`, its members listed
    /// under the conditions `when`.
    pub(in crate::graph::build) fn list_expression(
        &self,
        value: &Value,
        scope: &str,
        depth: usize,
        when: &[String],
    ) -> Result<Members, String> {
        if depth > MAX_DEPTH {
            return Err(format!("nesting deeper than {MAX_DEPTH} levels"));
        }
        let unread = |why: String| Member::here(ListMember::Unread(why), scope, when);
        // A name the called function returns is read once by its return.
        let returning = self.returning.take();
        let passing = self.passing.take();
        let mut members = match value {
            Value::List(items) | Value::Tuple(items) => {
                let mut members = Members::new();
                for item in items {
                    match item {
                        Value::Starred(inner) => {
                            match self.list_expression(inner, scope, depth + 1, when) {
                                Ok(spread) => members.extend(spread),
                                Err(why) => members.push(unread(why)),
                            }
                        }
                        other => members.extend(self.element(other, scope, depth, when)),
                    }
                }
                members
            }
            Value::Name(name) if self.frame_argument(scope, name).is_some() => {
                self.passed_list(scope, name, returning, depth, when)?
            }
            Value::Name(name) => match self.bound_list(scope, name, returning, passing) {
                Ok(BoundList {
                    value: bound,
                    scope: binding_scope,
                    pick,
                }) => {
                    let mut members = match pick {
                        None => self.list_expression(bound, &binding_scope, depth + 1, when)?,
                        Some(pick) => self.unpacked(bound, &binding_scope, pick, depth, when)?,
                    };
                    members.extend(self.additions(name, &binding_scope, depth, when)?);
                    members
                }
                // Bound on exclusive branches: each branch's list under
                // its tests (`branch_lists.rs`).
                Err(why) => match self.branch_lists(scope, name, depth, when) {
                    Some(read) => read?,
                    None => match self.parameter_read(scope, name, Passed::List, depth, when) {
                        Some(read) => read?,
                        None => match self.imported_list(scope, name, depth, when) {
                            Some(read) => read?,
                            None => return Err(why),
                        },
                    },
                },
            },
            Value::Add { left, right } => {
                let mut members = Members::new();
                for part in [left, right] {
                    match self.list_expression(part, scope, depth + 1, when) {
                        Ok(read) => members.extend(read),
                        Err(why) => members.push(unread(why)),
                    }
                }
                members
            }
            // Each branch's members are bound only when its condition holds:
            // the condition's source text, never evaluated.
            Value::IfElse { test, body, orelse } => {
                let mut taken = when.to_vec();
                taken.push(spelled_test(test, true));
                let mut not_taken = when.to_vec();
                not_taken.push(spelled_test(test, false));
                let mut members = self.list_expression(body, scope, depth + 1, &taken)?;
                members.extend(self.list_expression(orelse, scope, depth + 1, &not_taken)?);
                members
            }
            // `a or b`: a list whose members are all known is truthy exactly
            // when it has one, so which operand is the value is read, not
            // guessed; a part not read leaves it unknown.
            Value::Or(parts) => {
                let mut chosen = Members::new();
                for (index, part) in parts.iter().enumerate() {
                    // `None` is falsy and holds nothing (`extra or []`),
                    // and so is a parameter the call leaves at `None`.
                    let read = match part {
                        Value::None => Members::new(),
                        Value::Name(name) if self.passes_none(scope, name) => Members::new(),
                        _ => self.list_expression(part, scope, depth + 1, when)?,
                    };
                    if read
                        .iter()
                        .any(|m| matches!(m.member, ListMember::Unread(_)))
                    {
                        return Err(format!(
                            "whether `{}` is empty is not known",
                            crate::graph::schema::unparse(part)
                        ));
                    }
                    chosen = read;
                    if !chosen.is_empty() || index + 1 == parts.len() {
                        break;
                    }
                }
                chosen
            }
            // `[t for t in L if keep(t)]`: L's members, each held only when
            // the filter keeps it (the filter's source text).
            Value::ListComprehension(comprehension)
                if comprehension.element == comprehension.target
                    && matches!(comprehension.target, Value::Name(_)) =>
            {
                let Comprehension {
                    iter,
                    conditions,
                    target,
                    ..
                } = comprehension.as_ref();
                let mut kept = when.to_vec();
                for condition in conditions {
                    // A filter over literal names, by the names it keeps
                    // (`name_filters.rs`), those a call's frame passes a
                    // parameter included; any other by its source text.
                    let literal = self.frame_literal(scope, condition);
                    kept.push(
                        super::super::name_filters::literal_name_filter(
                            literal.as_ref().unwrap_or(condition),
                            target,
                        )
                        .unwrap_or_else(|| {
                            format!(
                                "the filter `{}` keeps it",
                                crate::graph::schema::unparse(condition)
                            )
                        }),
                    );
                }
                self.list_expression(iter, scope, depth + 1, &kept)?
            }
            // `[handoff(agent=a) for a in (b, c)]`: each member built from
            // one item written in place (`comprehensions.rs`), kept under
            // the filters' source text.
            Value::ListComprehension(comprehension) => {
                let Some(mapped) = super::comprehensions::mapped_members(comprehension) else {
                    return Err(describe(value));
                };
                let mut kept = when.to_vec();
                kept.extend(comprehension.conditions.iter().map(|condition| {
                    format!(
                        "the filter `{}` keeps it",
                        crate::graph::schema::unparse(condition)
                    )
                }));
                mapped
                    .iter()
                    .flat_map(|member| self.element(member, scope, depth + 1, &kept))
                    .collect()
            }
            // `filter(keep, L)`: the same, with the filter named.
            Value::Call {
                callee,
                args,
                keywords,
            } if keywords.is_empty()
                && args.len() == 2
                && matches!(callee.as_ref(), Value::Name(n) if n == "filter" && !self.shadowed(n, scope)) =>
            {
                let mut kept = when.to_vec();
                kept.push(format!(
                    "the filter `{}` keeps it",
                    crate::graph::schema::unparse(&args[0])
                ));
                self.list_expression(&args[1], scope, depth + 1, &kept)?
            }
            Value::Call {
                callee,
                args,
                keywords,
            } if keywords.is_empty()
                && args.len() == 1
                && matches!(callee.as_ref(), Value::Name(n) if ["list", "tuple", "sorted"].contains(&n.as_str()) && !self.shadowed(n, scope)) =>
            {
                self.list_expression(&args[0], scope, depth + 1, when)?
            }
            // `d["k"]`: one entry of a dict (`dict_entries.rs`).
            Value::Subscript { .. } => match super::dict_entries::entry_read(value) {
                Some(read) => self.dict_entry(read, scope, depth, when)?,
                None => return Err(describe(value)),
            },
            // `_TOOLS.values()` of a registry filled at import
            // (`registries.rs`); the SDK's `tool_namespace(...)`,
            // `d.get("k", default)`, or a call of the repository's own
            // function.
            Value::Call { .. } => match super::registries::values_read(value) {
                Some(registry) => match self.registry_values(registry, None, scope, depth, when) {
                    Some(read) => read?,
                    None => return Err(describe(value)),
                },
                None => self.call_members(value, scope, depth, when)?,
            },
            other => return Err(describe(other)),
        };
        if members.len() > MAX_MEMBERS {
            // Past the bound the rest is named, never dropped silently.
            members.truncate(MAX_MEMBERS);
            members.push(unread(crate::python::MEMBERS_PAST_BOUND.to_string()));
        }
        Ok(members)
    }

    /// A call read as a list: the SDK's `tool_namespace(name=…,
    /// description=…, tools=[…])` gives the listed tools, each carrying
    /// the namespace (the outermost wins, as the SDK's copies do);
    /// `d.get("k", default)` one entry of a dict (`dict_entries.rs`); a
    /// call of the repository's own function its one return, read with its
    /// parameters bound (`call_frames.rs`).
    fn call_members(
        &self,
        value: &Value,
        scope: &str,
        depth: usize,
        when: &[String],
    ) -> Result<Members, String> {
        if let Some(namespace) = openai::tool_namespace_call(self.facts, value, scope) {
            let (Some(name), Some(description)) = (namespace.name, namespace.description) else {
                return Err(
                    "a call to `tool_namespace` whose name or description is not a literal"
                        .to_string(),
                );
            };
            let spelled = format!("{name}: {description}");
            return Ok(self
                .list_expression(namespace.tools, scope, depth + 1, when)?
                .into_iter()
                .map(|m| Member {
                    namespace: Some(spelled.clone()),
                    ..m
                })
                .collect());
        }
        if let Some(read) = super::dict_entries::entry_read(value) {
            return self.dict_entry(read, scope, depth, when);
        }
        match self.call_return(scope, value) {
            Some(returned) => self.returned_members(returned?, None, depth, when),
            None => Err(describe(value)),
        }
    }

    /// One item of a list display: a parameter of the called function is
    /// what the call passes, a builder's parameter what each call of the
    /// builder passes (each read where the call is); anything else is the
    /// item itself.
    pub(in crate::graph::build) fn element(
        &self,
        item: &Value,
        scope: &str,
        depth: usize,
        when: &[String],
    ) -> Members {
        if depth > MAX_DEPTH {
            let why = format!("nesting deeper than {MAX_DEPTH} levels");
            return vec![Member::unread(why, scope, when)];
        }
        // `_TOOLS["search"]`: the one definition a registry holds under
        // that key (`registries.rs`).
        let subscript = super::dict_entries::entry_read(item).filter(|r| r.default.is_none());
        if let Some(entry) = subscript {
            let read = self.registry_values(entry.dict, Some(entry.key), scope, depth, when);
            if let Some(read) = read {
                return read.unwrap_or_else(|why| vec![Member::unread(why, scope, when)]);
            }
        }
        if let Value::Name(name) = item {
            if let Some(members) = self.passed_element(scope, name, depth, when) {
                return members;
            }
            // When the callers are not all known, the member stays the
            // parameter, which the resolver names as the spec's stop.
            if let Some(Ok(members)) =
                self.parameter_read(scope, name, Passed::Element, depth, when)
            {
                return members;
            }
        }
        openai::list_members(std::slice::from_ref(item))
            .into_iter()
            .map(|m| Member::here(m, scope, when))
            .collect()
    }

    /// Whether `list`/`tuple`/`sorted` is rebound in the module (then it is
    /// not the builtin).
    fn shadowed(&self, name: &str, scope: &str) -> bool {
        let _ = scope;
        self.facts
            .module_bindings_named(name)
            .any(|b| b.name == name)
            || self.facts.functions.iter().any(|f| f.binds_local(name))
    }

    /// The one value `name` is bound to where `scope` reads it: the
    /// builder's own binding, an enclosing function's, or the module's;
    /// only when bound once, unconditionally, by an assignment, every use
    /// of it in the module reads it, and no other module imports it.
    pub(in crate::graph::build) fn bound_list<'v>(
        &'v self,
        scope: &str,
        name: &str,
        returning: bool,
        passing: bool,
    ) -> Result<BoundList<'v>, String> {
        let facts = self.facts;
        let (bindings, binding_scope) = nearest_bindings(facts, scope, name);
        // Additions are read only for a list built where the agent is:
        // in the agent's own function, or at module level for an agent
        // built there (its additions at module level, before the
        // construction; one in a function, or after, stays unread).
        let builds_here = binding_scope == scope;
        // `tools += [...]` rebinds the name to the same list: an addition,
        // read as one, not a second binding.
        let augmented: Vec<u32> = facts
            .list_additions
            .iter()
            .filter(|a| {
                builds_here && a.target == name && a.scope == binding_scope && a.how == "+="
            })
            .map(|a| a.line)
            .collect();
        let bindings: Vec<_> = bindings
            .into_iter()
            .filter(|b| !(b.kind == BindingKind::Other && augmented.contains(&b.line)))
            .collect();
        let [binding] = bindings.as_slice() else {
            return Err(if bindings.is_empty() {
                format!("`{name}`, which is not bound in {}", self.path)
            } else {
                format!("`{name}`, which is bound more than once in {}", self.path)
            });
        };
        // In a function, a binding that runs once per call is what the
        // call reads wherever it sits (`resolve::runs_once_per_call`).
        let once = !binding.conditional
            || (!binding_scope.is_empty()
                && crate::resolve::runs_once_per_call(facts, &binding_scope, binding));
        let (value, pick) = match (&binding.kind, &binding.value, once) {
            (BindingKind::Assignment, Some(value), true) if is_list_expression(value) => {
                (value, None)
            }
            (BindingKind::Assignment, Some(value @ Value::Call { .. }), true) => (value, None),
            (BindingKind::Unpacked { index, of }, Some(value), true) => {
                (value, Some((*index, *of)))
            }
            _ => {
                return Err(format!(
                    "`{name}`, which {}:{} does not bind once, unconditionally, to a list literal",
                    self.path, binding.line
                ))
            }
        };
        // Method additions in the binding's own scope read the name too.
        let added = facts
            .list_additions
            .iter()
            .filter(|a| {
                builds_here && a.target == name && a.scope == binding_scope && a.how != "+="
            })
            .count() as u32;
        // The called function's own return of a list it builds is a read:
        // each call returns a new list, and the caller reads it.
        let returned = u32::from(returning && binding_scope == scope);
        // A function's own list is accounted for in that function (and
        // what is nested in it): no other code can name it.
        // So is an argument a followed call only reads (`_pick(TOOLS,
        // ...)`, `passed_list`).
        let mut reads =
            list_reads_within(facts, name, &binding_scope) + added + returned + u32::from(passing);
        let uses = other_uses_within(facts, name, &binding_scope);
        // And a call of a repository function that only reads what it is
        // handed (`_log_tools(tools)`, `read_only_calls.rs`), asked only
        // when the other reads do not account for every use.
        if uses != reads {
            reads += self.read_only_passes(name, &binding_scope);
        }
        let rebound_globally = facts.functions.iter().any(|f| {
            f.globals.iter().any(|g| g == name)
                || (!binding_scope.is_empty()
                    && f.qualname != binding_scope
                    && within(&f.qualname, &binding_scope)
                    && f.nonlocals.iter().any(|n| n == name))
        });
        if uses != reads || rebound_globally {
            return Err(format!(
                "`{name}`, which {} uses other than as an agent's list, so it could change",
                self.path
            ));
        }
        if binding_scope.is_empty() && self.imported_elsewhere(name) {
            return Err(format!(
                "`{name}`, which another module imports, so it could change"
            ));
        }
        Ok(BoundList {
            value,
            scope: binding_scope,
            pick,
        })
    }

    /// Item `index` of `of` that `a, b = value` binds: of a call's return,
    /// or of a display written there.
    fn unpacked(
        &self,
        value: &Value,
        scope: &str,
        (index, of): (u32, u32),
        depth: usize,
        when: &[String],
    ) -> Result<Members, String> {
        match value {
            Value::Tuple(items) | Value::List(items)
                if items.len() == of as usize
                    && !items.iter().any(|i| matches!(i, Value::Starred(_))) =>
            {
                let item = items.get(index as usize).ok_or("an item past the end")?;
                self.list_expression(item, scope, depth + 1, when)
            }
            Value::Call { .. } => match self.call_return(scope, value) {
                Some(returned) => self.returned_members(returned?, Some((index, of)), depth, when),
                None => Err(describe(value)),
            },
            other => Err(format!(
                "`{}`, which is not {of} items to unpack",
                crate::graph::schema::unparse(other)
            )),
        }
    }

    /// A list another module of the scope binds and this one imports
    /// (`from .catalog import FINANCE_TOOLS`, at module level or in the
    /// function that builds the agent), read by that module's names:
    /// only a literal list there, only while every use of it — there and
    /// in every module that imports it — reads it. `None` when the name is
    /// not a module-level import here.
    fn imported_list(
        &self,
        scope: &str,
        name: &str,
        depth: usize,
        when: &[String],
    ) -> Option<Result<Members, String>> {
        // The nearest scope that binds the name: an enclosing function
        // (a builder that imports the list itself, read like a
        // module-level import) or the module.
        let mut current = scope;
        let (bindings, binding_scope) = loop {
            if current.is_empty() {
                let bindings: Vec<_> = self
                    .facts
                    .module_bindings_named(name)
                    .filter(|b| b.name == name && !b.type_checking)
                    .collect();
                break (bindings, "");
            }
            let function = self.facts.functions.iter().find(|f| f.qualname == current);
            let locals: Vec<_> = function
                .map(|f| f.locals_named(name).collect())
                .unwrap_or_default();
            if !locals.is_empty() {
                break (locals, current);
            }
            current = current.rsplit_once('.').map_or("", |(parent, _)| parent);
        };
        let [binding] = bindings.as_slice() else {
            return None;
        };
        if binding.kind != BindingKind::Import || binding.conditional || binding.type_checking {
            return None;
        }
        let mut resolver = crate::resolve::Resolver::new(self.modules);
        let found = match resolver.resolve(
            self.path,
            binding_scope,
            &Value::Name(name.to_string().into()),
        ) {
            Ok(found) => found,
            Err(why) => return Some(Err(format!("`{name}`, which is not followed: {why}"))),
        };
        let crate::resolve::Target::Value {
            path,
            name: bound_name,
            line,
        } = found.target
        else {
            return Some(Err(format!("`{name}`, which is not a list")));
        };
        let facts = self.modules.facts(path)?;
        let items = facts
            .module_bindings
            .iter()
            .find(|b| {
                b.name == bound_name
                    && b.line == line
                    && b.kind == BindingKind::Assignment
                    && !b.conditional
            })
            .and_then(|b| match &b.value {
                Some(Value::List(items) | Value::Tuple(items)) => Some(items),
                _ => None,
            });
        let Some(items) = items else {
            return Some(Err(format!(
                "`{name}`, which {path}:{line} does not bind once, unconditionally, to a list literal"
            )));
        };
        if let Err(why) = self.only_read_everywhere(path, &bound_name, facts) {
            return Some(Err(why));
        }
        // Read by that module's reader: its spreads (`*SHARED_TOOLS`)
        // and calls are read as its own lists are, names there.
        let display = Value::List(items.clone());
        let read = self.in_module(path, None, |reader| {
            reader.list_expression(&display, "", depth + 1, when)
        });
        Some(read.map(|members| {
            members
                .into_iter()
                .map(|m| Member {
                    from: m.from.clone().or_else(|| Some(path.to_string())),
                    ..m
                })
                .collect()
        }))
    }

    /// Whether every use of `name` (bound in `path`) reads it as a list: in
    /// `path` itself, and under whatever local name in every module that
    /// imports it.
    fn only_read_everywhere(
        &self,
        path: &str,
        name: &str,
        facts: &crate::python::ModuleFacts,
    ) -> Result<(), String> {
        let changed = |module: &str| {
            format!(
                "`{name}`, which {module} uses other than as an agent's list, so it could change"
            )
        };
        if other_uses(facts, name) != list_reads_in(facts, name)
            || facts
                .functions
                .iter()
                .any(|f| f.globals.iter().any(|g| g == name))
        {
            return Err(changed(path));
        }
        let mut resolver = crate::resolve::Resolver::new(self.modules);
        for module in self.modules.paths() {
            let Some(importer) = self.modules.facts(module) else {
                continue;
            };
            for import in &importer.imports {
                let imported = matches!(import.name.as_deref(), Some(n) if n == name || n == "*");
                if !imported
                    || resolver
                        .module_file(module, import.level, &import.module)
                        .as_deref()
                        != Some(path)
                {
                    continue;
                }
                if import.name.as_deref() == Some("*") {
                    return Err(format!(
                        "`{name}`, which {module} imports with *, so it could change"
                    ));
                }
                let local = import.bound_name();
                if other_uses(importer, local) != list_reads_in(importer, local) {
                    return Err(changed(module));
                }
            }
        }
        Ok(())
    }

    /// How many uses of `name` in the module read it as a list: in a
    /// capability keyword of any call, or spread or added into another
    /// list-valued binding.
    /// `list_reads` within one function and what is nested in it.
    /// `t.name in names`, with `names` a parameter of the frame `scope`
    /// is read in (never rebound there) that the call passes a display of
    /// literals: the comparison with that display in its place, as the
    /// call evaluates it.
    fn frame_literal(&self, scope: &str, condition: &Value) -> Option<Value> {
        let Value::Compare { left, op, right } = condition else {
            return None;
        };
        let Value::Name(name) = right.as_ref() else {
            return None;
        };
        let (frame, index) = self.frame_argument(scope, name)?;
        let passed = &frame.args.get(index)?.value;
        let literal = match passed {
            Value::Set(items) | Value::List(items) | Value::Tuple(items) => {
                items.iter().all(|item| matches!(item, Value::Str(_)))
            }
            Value::Str(_) => true,
            _ => false,
        };
        literal.then(|| Value::Compare {
            left: left.clone(),
            op: *op,
            right: Box::new(passed.clone()),
        })
    }

    /// Whether `name` is a parameter of the frame `scope` is read in that
    /// the call leaves at (or passes) `None`.
    fn passes_none(&self, scope: &str, name: &str) -> bool {
        self.frame_argument(scope, name)
            .is_some_and(|(frame, index)| {
                frame
                    .args
                    .get(index)
                    .is_some_and(|a| a.value == Value::None)
            })
    }

    pub(in crate::graph::build) fn list_reads_within(&self, name: &str, scope: &str) -> u32 {
        // A wrapper class's construction reads its `__init__`'s
        // parameters through what `__init__` stores: those reads are the
        // construction's, as `__init__` spells it (`wrapper_agents.rs`).
        let in_wrappers: u32 = self
            .context()
            .wrappers
            .values()
            .map(|w| &w.construction)
            .filter(|c| c.method != c.call.scope)
            .map(|c| &c.call)
            .filter(|call| super::list_uses::within(&call.scope, scope))
            .map(|call| super::list_uses::keyword_reads(call, name))
            .sum();
        list_reads_within(self.facts, name, scope) + in_wrappers
    }
}

/// Why a value is not read as a list, in the spec's words.
fn describe(value: &Value) -> String {
    let spelled = crate::graph::schema::unparse;
    match value {
        Value::Call { callee, .. } => match callee.dotted() {
            Some(callee) => format!("a call to `{callee}`, whose result is not read"),
            None => "a call whose result is not read".to_string(),
        },
        Value::ListComprehension { .. } => "a comprehension that builds new elements".to_string(),
        Value::Attribute(_) => {
            format!("`{}`, an attribute whose value is not read", spelled(value))
        }
        Value::Subscript { .. } => {
            format!("`{}`, a subscript whose value is not read", spelled(value))
        }
        Value::Other(kind) if kind == crate::python::MEMBERS_PAST_BOUND => kind.to_string(),
        Value::Other(kind) => format!("a {kind}, which is not read"),
        Value::BinOp { .. } => "a binary operation, which is not read".to_string(),
        _ => format!("`{}`, which is not a list", spelled(value)),
    }
}

/// A condition as a member's `when` spells it: the test's source text,
/// never evaluated (`` `settings.search` ``, `` not `settings.search` ``).
fn spelled_test(test: &Value, holds: bool) -> String {
    let condition = format!("`{}`", crate::graph::schema::unparse(test));
    match holds {
        true => condition,
        false => format!("not {condition}"),
    }
}

pub(super) fn spelled_condition(condition: &crate::python::Condition) -> String {
    spelled_test(&condition.test, condition.holds)
}
