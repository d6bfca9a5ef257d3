//! Calls into the repository's own functions, read to their one return
//! with the function's parameters bound to the call's arguments: the
//! frame a value is read in (issue 19). `tools=build_tools(db)`, `tools,
//! results = make_tools(...)` and `mcp_servers=[server]` with `server` a
//! parameter of the function that builds the agent are read here.
//!
//! A call is read only when it is sound to read it: the callee resolves to
//! one undecorated, non-generator definition that returns once,
//! unconditionally, as its last statement; the call passes no `*`/`**`
//! and binds every parameter; the chain of calls is at most
//! `MAX_CALL_DEPTH` deep and never re-enters a function it is in. A name
//! the function returns is read only when that function binds it once to
//! a new list (a display) that nothing else in the module uses otherwise:
//! each call then returns a list of its own, so no other caller can
//! change the one this agent is given. Anything else is the named limit.

use super::list_exprs::{Member, Members};
use crate::graph::build::ModuleReader;
use crate::pyrepr::str_repr;
use crate::python::{FunctionFact, ModuleFacts, Text, Value};
use crate::resolve::{ImportStep, Resolver, Target};
use std::rc::Rc;

/// Calls followed inside one another, at most.
pub(in crate::graph::build) const MAX_CALL_DEPTH: usize = 4;

/// One call of a repository function: what it binds each parameter to.
#[derive(Debug)]
pub(in crate::graph::build) struct CallFrame {
    /// The called function's qualified name, in `path`.
    pub function: String,
    /// The module the function is defined in.
    pub path: String,
    /// Where the call is written (`agent.py:14`): evidence.
    pub at: String,
    pub args: Vec<Argument>,
    /// The called function's implementation digest.
    pub function_sha256: String,
    /// What this call passes each parameter, spelled for a digest
    /// (`Err`: a value this read cannot name, as spelled).
    pub spelled: Vec<(String, Result<String, String>)>,
    /// The frame the call itself is read in (`None`: a plain scope).
    pub outer: Option<Rc<CallFrame>>,
}

/// What a call passes one parameter, and where that value is read.
#[derive(Debug)]
pub(in crate::graph::build) struct Argument {
    pub param: String,
    pub value: Value,
    /// The module the value is read in (the caller's, or the callee's for
    /// a default).
    pub path: String,
    pub scope: String,
    pub frame: Option<Rc<CallFrame>>,
    /// The call passes it under a capability keyword (`tools=TOOLS`),
    /// which the caller's module already counts as a read of `TOOLS` as
    /// a list (`list_uses.rs`).
    pub counted: bool,
}

impl CallFrame {
    /// How many calls deep this frame is.
    fn depth(&self) -> usize {
        1 + self.outer.as_ref().map_or(0, |outer| outer.depth())
    }

    /// Whether `function` of `path` is being called already.
    fn calls(&self, path: &str, function: &str) -> bool {
        (self.path == path && self.function == function)
            || self
                .outer
                .as_ref()
                .is_some_and(|outer| outer.calls(path, function))
    }

    /// What the call passes each parameter, spelled `p=v` (`p=unnamed v`
    /// for a value this read cannot name), in parameter order.
    pub(in crate::graph::build) fn spelled_arguments(&self) -> String {
        self.spelled
            .iter()
            .map(|(param, value)| match value {
                Ok(text) => format!("{param}={text}"),
                Err(text) => format!("{param}=unnamed {text}"),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// What the call passes `param`, spelled, when the called function
    /// (in `facts`) never rebinds it.
    pub(in crate::graph::build) fn spelled_param(
        &self,
        facts: &ModuleFacts,
        param: &str,
    ) -> Option<&Result<String, String>> {
        let function = facts
            .functions
            .iter()
            .find(|f| f.qualname == self.function)?;
        let bound = function.locals_named(param).count();
        if bound != 1 {
            return None;
        }
        self.spelled
            .iter()
            .find(|(p, _)| p == param)
            .map(|(_, value)| value)
    }

    /// What a definition nested in the function closes over, spelled for
    /// its digest, and the arguments among it this read cannot name:
    /// only the parameters in `free` when every name it reads from the
    /// function is a parameter the function never rebinds; else the
    /// function's code and every argument.
    pub(in crate::graph::build) fn closure_digest(
        &self,
        free: Option<&[String]>,
    ) -> (String, Vec<String>) {
        let mut spelled = Vec::new();
        let mut unnamed = Vec::new();
        if free.is_none() {
            spelled.push(format!("call {}", self.function_sha256));
        }
        for (param, value) in &self.spelled {
            if free.is_some_and(|free| !free.contains(param)) {
                continue;
            }
            match value {
                Ok(text) => spelled.push(format!("{param}={text}")),
                Err(text) => {
                    unnamed.push(format!("{param}={text}"));
                    spelled.push(format!("{param}=unnamed {text}"));
                }
            }
        }
        (spelled.join(", "), unnamed)
    }
}

/// Where a call is written: the module, the scope, the line, and the
/// frame that scope is read in.
pub(in crate::graph::build) struct CallSite<'s> {
    pub path: &'s str,
    pub scope: &'s str,
    pub line: u32,
    pub outer: Option<Rc<CallFrame>>,
}

/// The repository function a call reaches: its module, its definition,
/// and the call as it is spelled (callee and arguments).
pub(in crate::graph::build) struct RepositoryCall<'m, 'v> {
    pub path: &'m str,
    pub function: &'m FunctionFact,
    /// How the resolver reached the definition.
    pub steps: Vec<ImportStep>,
    pub callee: &'v Value,
    pub args: &'v [Value],
    pub keywords: &'v [(Option<Text>, Value)],
}

/// A repository function the read does not take as the one a call runs:
/// the callee as spelled, and why.
pub(in crate::graph::build) struct NotFollowed {
    pub spelled: String,
    pub why: String,
}

/// A call's return as the frame reads it.
pub(in crate::graph::build) struct Return<'m> {
    pub value: &'m Value,
    pub frame: Rc<CallFrame>,
}

impl<'a, 'm> ModuleReader<'a, 'm> {
    /// The frame `scope` is read in, when it is the body of a called
    /// function.
    pub(in crate::graph::build) fn frame_of(&self, scope: &str) -> Option<Rc<CallFrame>> {
        let frame = self.frame.borrow().clone()?;
        (frame.path == self.path && frame.function == scope).then_some(frame)
    }

    /// What the current call passes `name`, when `scope` is the called
    /// function's body and `name` is one of its parameters it never
    /// rebinds.
    pub(in crate::graph::build) fn frame_argument(
        &self,
        scope: &str,
        name: &str,
    ) -> Option<(Rc<CallFrame>, usize)> {
        let frame = self.frame_of(scope)?;
        let function = self.facts.functions.iter().find(|f| f.qualname == scope)?;
        let bound = function.locals_named(name).count();
        let index = frame.args.iter().position(|a| a.param == name)?;
        (bound == 1).then_some((frame, index))
    }

    /// `call`, written in `scope` of `path`, when its callee is a name the
    /// resolver follows to one of the repository's own functions (`None`:
    /// the caller names the call as it is), with the call's arguments; or
    /// the callee's spelling and why the function is not the one called
    /// (another module could rebind it, `chains::reassignment`).
    pub(in crate::graph::build) fn repository_call<'v>(
        &self,
        path: &'a str,
        scope: &str,
        call: &'v Value,
    ) -> Option<Result<RepositoryCall<'a, 'v>, NotFollowed>> {
        let Value::Call {
            callee,
            args,
            keywords,
        } = call
        else {
            return None;
        };
        if !matches!(callee.as_ref(), Value::Name(_) | Value::Attribute(_)) {
            return None;
        }
        let mut resolver = Resolver::new(self.modules);
        let found = resolver.resolve(path, scope, callee).ok()?;
        let Target::Function { path, function } = found.target else {
            return None;
        };
        if let Some(why) = crate::graph::build::chains::reassignment(self.modules, &found.steps) {
            return Some(Err(NotFollowed {
                spelled: callee.dotted().unwrap_or_default(),
                why,
            }));
        }
        Some(Ok(RepositoryCall {
            path,
            function,
            steps: found.steps,
            callee,
            args,
            keywords,
        }))
    }

    /// `call`, written in `scope`, read as a call of a repository
    /// function: `None` when the callee is none (the caller names the
    /// call), else its one return, or why it is not read.
    pub(in crate::graph::build) fn call_return(
        &self,
        scope: &str,
        call: &Value,
    ) -> Option<Result<Return<'a>, String>> {
        let RepositoryCall {
            path,
            function,
            callee,
            args,
            keywords,
            ..
        } = match self.repository_call(self.path, scope, call)? {
            Ok(found) => found,
            Err(NotFollowed { spelled, why }) => {
                return Some(Err(format!("a call to `{spelled}`, not followed: {why}")))
            }
        };
        let spelled = callee.dotted().unwrap_or_default();
        let not_read = |why: String| Err(format!("a call to `{spelled}`, which {why}"));
        let facts = self.modules.facts(path)?;
        if let Err(why) = returns_once(facts, function, "") {
            return Some(not_read(why));
        }
        let outer = self.frame_of(scope);
        if outer
            .as_ref()
            .is_some_and(|o| o.calls(path, &function.qualname))
        {
            return Some(not_read("calls itself".to_string()));
        }
        if outer.as_ref().map_or(0, |o| o.depth()) >= MAX_CALL_DEPTH {
            return Some(not_read(format!(
                "is more than {MAX_CALL_DEPTH} calls deep"
            )));
        }
        let [ret] = function.body().returns_found.as_slice() else {
            return Some(not_read("returns from more than one place".to_string()));
        };
        let Some(value) = ret.value.as_ref() else {
            return Some(not_read("returns nothing".to_string()));
        };
        let line = self
            .facts
            .calls
            .iter()
            .find(|c| c.scope == scope && &c.callee == callee && c.args == args)
            .map_or(self.reading_line.get(), |c| c.line);
        let site = CallSite {
            path: self.path,
            scope,
            line,
            outer,
        };
        match self.call_frame(site, path, function, args, keywords) {
            Ok(frame) => Some(Ok(Return { value, frame })),
            Err(why) => Some(not_read(why)),
        }
    }

    /// The frame of a call of `function` (defined in `function_path`)
    /// written at `site`: each parameter bound to what the call passes,
    /// read where the call is (a default, where the function is defined),
    /// and spelled for a digest.
    pub(in crate::graph::build) fn call_frame(
        &self,
        site: CallSite<'_>,
        function_path: &str,
        function: &FunctionFact,
        args: &[Value],
        keywords: &[(Option<Text>, Value)],
    ) -> Result<Rc<CallFrame>, String> {
        let bound = bind_arguments(function, args, keywords)?;
        let defined_in = function
            .qualname
            .rsplit_once('.')
            .map_or(String::new(), |(parent, _)| parent.to_string());
        let mut arguments = Vec::new();
        let mut spelled_arguments = Vec::new();
        for BoundArgument {
            param,
            value,
            from_default,
        } in bound
        {
            // A default is read where the function is defined.
            let (value_path, value_scope, frame) = if from_default {
                (function_path.to_string(), defined_in.clone(), None)
            } else {
                (
                    site.path.to_string(),
                    site.scope.to_string(),
                    site.outer.clone(),
                )
            };
            let spelled = self.argument_value(
                self.modules.key(&value_path).unwrap_or(function_path),
                &value_scope,
                &value,
                frame.as_deref(),
            );
            spelled_arguments.push((param.clone(), spelled));
            let counted = !from_default
                && super::list_uses::LIST_KEYWORDS.contains(&param.as_str())
                && keywords
                    .iter()
                    .any(|(k, _)| k.as_deref() == Some(param.as_str()));
            arguments.push(Argument {
                counted,
                param,
                value,
                path: value_path,
                scope: value_scope,
                frame,
            });
        }
        Ok(Rc::new(CallFrame {
            function: function.qualname.to_string(),
            path: function_path.to_string(),
            at: format!("{}:{}", site.path, site.line),
            args: arguments,
            function_sha256: function.implementation_sha256.to_string(),
            spelled: spelled_arguments,
            outer: site.outer,
        }))
    }

    /// Runs `read` on this reader inside `frame` (`None`: the frame it is
    /// in already), then restores the frame: a member a called function
    /// returns is read in that call's frame.
    pub(in crate::graph::build) fn with_frame<T>(
        &mut self,
        frame: Option<Rc<CallFrame>>,
        read: impl FnOnce(&mut Self) -> T,
    ) -> T {
        let inside = frame.or_else(|| self.frame.borrow().clone());
        let before = self.frame.replace(inside);
        let read = read(self);
        self.frame.replace(before);
        read
    }

    /// Runs `read` as a reader of `path` inside `frame` (the module's own
    /// reader when it is this one), then restores the frame.
    pub(in crate::graph::build) fn in_frame<T>(
        &self,
        path: &str,
        frame: Option<Rc<CallFrame>>,
        read: impl FnOnce(&ModuleReader<'_, 'm>) -> Result<T, String>,
    ) -> Result<T, String> {
        if path == self.path {
            let before = self.frame.replace(frame);
            let read = read(self);
            self.frame.replace(before);
            read
        } else {
            self.in_module(path, frame, read)
        }
    }

    /// The members a call's return gives as a list, read in the called
    /// function with its parameters bound; `index` picks one item of a
    /// returned tuple or list display of `of` items (`a, b = f()`).
    pub(in crate::graph::build) fn returned_members(
        &self,
        returned: Return<'_>,
        pick: Option<(u32, u32)>,
        depth: usize,
        when: &[String],
    ) -> Result<Members, String> {
        let Return { value, frame } = returned;
        let value = match pick {
            None => value,
            Some((index, of)) => match value {
                Value::Tuple(items) | Value::List(items)
                    if items.len() == of as usize
                        && !items.iter().any(|i| matches!(i, Value::Starred(_))) =>
                {
                    items.get(index as usize).ok_or("an item past the end")?
                }
                _ => {
                    return Err(format!(
                        "a call at {} whose return is not {of} items to unpack",
                        frame.at
                    ))
                }
            },
        };
        let path = frame.path.clone();
        let function = frame.function.clone();
        let at = frame.at.clone();
        let members = self
            .in_frame(&path, Some(frame.clone()), |reader| {
                reader.returning.set(true);
                let read = reader.list_expression(value, &function, depth + 1, when);
                reader.returning.set(false);
                read
            })
            .map_err(|why| format!("{why}, which `{function}` returns"))?;
        // A member read in the function's body (not one the call passed
        // in) depends on this call's frame.
        let in_body = |m: &Member| {
            m.from.as_deref().unwrap_or(path.as_str()) == frame.path
                && (m.scope == function || m.scope.starts_with(&format!("{function}.")))
        };
        Ok(members
            .into_iter()
            .map(|m| Member {
                frame: m
                    .frame
                    .clone()
                    .or_else(|| in_body(&m).then(|| frame.clone())),
                from: m.from.or_else(|| (path != self.path).then(|| path.clone())),
                caller: m.caller.or_else(|| Some(at.clone())),
                ..m
            })
            .map(|m| qualify(m, when.len(), &frame.spelled, &at))
            .collect())
    }

    /// What the current call passes the parameter `name`, read as a list
    /// where the call is: only while the called function reads the
    /// parameter as a list and nothing else (what it adds before it
    /// returns is read too).
    pub(in crate::graph::build) fn passed_list(
        &self,
        scope: &str,
        name: &str,
        returning: bool,
        depth: usize,
        when: &[String],
    ) -> Result<Members, String> {
        let (frame, index) = self
            .frame_argument(scope, name)
            .ok_or_else(|| format!("`{name}`, which is not a parameter"))?;
        let added = self
            .facts
            .list_additions
            .iter()
            .filter(|a| a.target == name && a.scope == scope && a.how != "+=")
            .count() as u32;
        let reads = self.list_reads_within(name, scope) + added + u32::from(returning);
        if super::list_exprs::other_uses_within(self.facts, name, scope) != reads {
            return Err(format!(
                "`{name}`, a parameter of `{scope}`, which {} uses other than as an agent's list, so it could change",
                self.path
            ));
        }
        // The function only reads what it is passed (it adds nothing to
        // it): the caller's name is read there once, as a list.
        let counted = frame.args.get(index).is_some_and(|a| a.counted);
        let mut members = self.passed(&frame, index, |reader, value, value_scope| {
            reader.passing.set(added == 0 && !counted);
            reader.list_expression(value, value_scope, depth + 1, when)
        })?;
        members.extend(self.additions(name, scope, depth, when)?);
        Ok(members)
    }

    /// What the current call passes the parameter `name`, read as one
    /// member of a list where the call is: only while the called
    /// function stores nothing into it.
    pub(in crate::graph::build) fn passed_element(
        &self,
        scope: &str,
        name: &str,
        depth: usize,
        when: &[String],
    ) -> Option<Members> {
        let (frame, index) = self.frame_argument(scope, name)?;
        if let Some(why) = stored_into(self.facts, scope, name) {
            return Some(vec![Member::unread(why, scope, when)]);
        }
        Some(
            self.passed(&frame, index, |reader, value, value_scope| {
                Ok(reader.element(value, value_scope, depth + 1, when))
            })
            .unwrap_or_else(|why| vec![Member::unread(why, scope, when)]),
        )
    }

    /// Reads argument `index` of `frame` where the call passes it, each
    /// member marked with where it came from.
    fn passed(
        &self,
        frame: &CallFrame,
        index: usize,
        read: impl FnOnce(&ModuleReader<'_, 'm>, &Value, &str) -> Result<Members, String>,
    ) -> Result<Members, String> {
        let argument = frame.args.get(index).ok_or("an argument not bound")?;
        let members = self.in_frame(&argument.path, argument.frame.clone(), |reader| {
            read(reader, &argument.value, &argument.scope)
        })?;
        Ok(members
            .into_iter()
            .map(|m| Member {
                from: m
                    .from
                    .or_else(|| (argument.path != self.path).then(|| argument.path.clone())),
                caller: m.caller.or_else(|| Some(frame.at.clone())),
                ..m
            })
            .collect())
    }
}

/// A condition the called function states (`bound_when`, from
/// `when_before` on) holds or not by what the call passes: one that names
/// a parameter is qualified with the call's value for it (`` `t.name in
/// names` keeps it, with names={'lookup'} ``), so a caller passing another
/// value changes the row. A parameter the call passes unnamed leaves the
/// member unread.
pub(in crate::graph::build) fn qualify(
    member: Member,
    when_before: usize,
    spelled: &[(String, Result<String, String>)],
    at: &str,
) -> Member {
    let mut when = member.when.clone();
    for condition in when.iter_mut().skip(when_before) {
        let words: Vec<&str> = condition
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .collect();
        let mut values = Vec::new();
        for (param, value) in spelled {
            if !words.contains(&param.as_str()) {
                continue;
            }
            match value {
                Ok(text) => values.push(format!("{param}={text}")),
                Err(text) => {
                    let why = format!(
                        "a member held when {condition}, whose `{param}` the call at {at} passes as {text}, a value this read does not name"
                    );
                    return Member {
                        member: crate::frameworks::openai::ListMember::Unread(why),
                        ..member
                    };
                }
            }
        }
        if !values.is_empty() {
            *condition = format!("{condition}, with {}", values.join(", "));
        }
    }
    Member { when, ..member }
}

/// Why the object a function's parameter `name` holds may be changed by
/// that function (an attribute or item stored into it), if it may.
pub(in crate::graph::build) fn stored_into(
    facts: &ModuleFacts,
    function: &str,
    name: &str,
) -> Option<String> {
    facts
        .attribute_stores
        .iter()
        .find(|store| {
            store.target.first().map(Text::as_str) == Some(name)
                && (store.scope == function || store.scope.starts_with(&format!("{function}.")))
        })
        .map(|store| {
            format!(
                "`{name}`, a parameter of `{function}`, which it changes at line {} ({} {})",
                store.line,
                store.target.join("."),
                store.how.describe()
            )
        })
}

/// Why a function cannot be read to its one return, if it cannot, said of
/// `subject` (`"it "`, or `""` after "which").
pub(in crate::graph::build) fn returns_once(
    facts: &ModuleFacts,
    function: &FunctionFact,
    subject: &str,
) -> Result<(), String> {
    if !function.decorators.is_empty() {
        return Err(format!("{subject}is decorated"));
    }
    if function.is_generator {
        return Err(format!("{subject}is a generator"));
    }
    if function.body().returns_found.len() != 1
        || function.body().returns_found.iter().any(|r| r.conditional)
        || !function.ends_with_return
    {
        return Err(format!(
            "{subject}does not return once, unconditionally, as its last statement"
        ));
    }
    defined_once(facts, function)
}

/// Why a function is not the one its name calls, if two definitions in
/// its file share its qualified name.
pub(in crate::graph::build) fn defined_once(
    facts: &ModuleFacts,
    function: &FunctionFact,
) -> Result<(), String> {
    let definitions = facts
        .functions
        .iter()
        .filter(|f| f.qualname == function.qualname)
        .count();
    if definitions > 1 {
        return Err(format!(
            "{} is defined more than once in its file",
            str_repr(&function.name)
        ));
    }
    Ok(())
}

/// Binds a call's arguments to a function's parameters exactly
/// (`python::call_binding`, the rule reach shares).
pub(in crate::graph::build) use crate::python::call_binding::{
    bind_exactly as bind_arguments, BoundArgument,
};

impl ModuleReader<'_, '_> {
    /// A tool read through a call's frame: when its definition is nested
    /// in the called function, what the call passes is part of what the
    /// tool is (its closure), so it joins the digest, and an argument this
    /// read cannot name is an implementation limit on the tool.
    pub(in crate::graph::build) fn fold_frame(
        &mut self,
        agent: &str,
        tool: &mut crate::graph::build::FollowedTool,
        frame: Option<&CallFrame>,
    ) {
        let Some(frame) = frame else {
            return;
        };
        let definition = &tool.definition;
        let Some(facts) = self.modules.facts(&frame.path) else {
            return;
        };
        let nested = (definition.source == frame.path)
            .then(|| {
                facts.functions.iter().find(|f| {
                    Some(f.line) == definition.line
                        && f.qualname.starts_with(&format!("{}.", frame.function))
                })
            })
            .flatten();
        let Some(nested) = nested else {
            return;
        };
        let free = closed_over(facts, &frame.function, &nested.qualname);
        let (closure, unnamed) = frame.closure_digest(free.as_deref());
        let own = definition.implementation_sha256.clone().unwrap_or_default();
        tool.definition.implementation_sha256 =
            Some(crate::python::ast_dump::sha256_of_json_string(&format!(
                "tool {own}\nclosure {closure}"
            )));
        self.name_unnamed(agent, tool, &unnamed);
    }
}

/// The parameters of `function` that the definition `nested` (and what
/// is nested in it) reads, when every name it reads from `function` is a
/// parameter `function` binds nowhere else; `None` when it reads another
/// of `function`'s names (its value then depends on the function's code).
fn closed_over(facts: &ModuleFacts, function: &str, nested: &str) -> Option<Vec<String>> {
    let outer = facts.functions.iter().find(|f| f.qualname == function)?;
    let inside = |qualname: &str| qualname == nested || qualname.starts_with(&format!("{nested}."));
    // Whether a function between `qualname` and `nested` (both included)
    // binds `name` itself, so the read does not reach `function`'s.
    let bound_between = |qualname: &str, name: &str| {
        let mut current = qualname.to_string();
        loop {
            let binds = facts.functions.iter().any(|f| {
                f.qualname == current
                    && f.binds_local(name)
                    && !f.nonlocals.iter().any(|n| n == name)
            });
            if binds {
                return true;
            }
            if current == nested {
                return false;
            }
            match current.rsplit_once('.') {
                Some((parent, _)) => current = parent.to_string(),
                None => return false,
            }
        }
    };
    let mut free: Vec<String> = Vec::new();
    for f in facts.functions.iter().filter(|f| inside(&f.qualname)) {
        for name in f.body().name_uses.keys() {
            if bound_between(&f.qualname, name) || free.iter().any(|known| known == name) {
                continue;
            }
            let bindings: Vec<_> = outer.locals_named(name).collect();
            match bindings.as_slice() {
                [] => {}
                [one] if one.kind == crate::python::BindingKind::Parameter => {
                    free.push(name.to_string())
                }
                _ => return None,
            }
        }
    }
    Some(free)
}
