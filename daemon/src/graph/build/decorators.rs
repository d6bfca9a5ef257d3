//! A tool's own decorators besides the framework's (`@function_tool
//! @safe def lookup`). A decorator the repository defines changes what the
//! tool does, so it cannot be read past silently: it is transparent only
//! when its one unconditional return is a wrapper it defines, decorated
//! `@functools.wraps(func)` with `func` its first parameter — the wrapper
//! then carries the function's name, docstring and signature (`inspect`
//! follows `__wrapped__`), so the tool is the function, and the digest
//! covers the decorator's code (the wrapper's with it) and the function's.
//! A decorator that returns its argument unchanged is read through too;
//! a registration function of a registry (`python/registries.rs`), which
//! only stores it, adds nothing to the digest.
//! Any other repository decorator is a named stop on the tool. A
//! decorator the scope does not hold (a library's) is read as before: its
//! spelling is part of the definition's digest.

use super::decorator_returns::{bare_application, factory_application, reachable_returns, Known};
use super::eval::call_frames::defined_once;
use super::ModuleReader;
use crate::frameworks::imports::imported_name;
use crate::pyrepr::str_repr;
use crate::python::{BindingKind, FunctionFact, ModuleFacts, Value};
use crate::resolve::{Resolver, Target};
use std::collections::BTreeMap;

impl ModuleReader<'_, '_> {
    /// The digest parts of `function`'s transparent repository decorators
    /// (in order; empty: none), or why one is not read as transparent.
    pub(super) fn tool_decorators(
        &self,
        def_path: &str,
        def_facts: &ModuleFacts,
        function: &FunctionFact,
    ) -> Result<Vec<String>, String> {
        let enclosing = function
            .qualname
            .rsplit_once('.')
            .map_or("", |(parent, _)| parent);
        let mut parts = Vec::new();
        for decorator in &function.decorators {
            let (callee, factory) = match decorator {
                Value::Call { callee, .. } => (callee.as_ref(), true),
                other => (other, false),
            };
            if !matches!(callee, Value::Name(_) | Value::Attribute(_)) {
                continue;
            }
            let framework_own = imported_name(def_facts, callee, enclosing).is_some_and(|name| {
                crate::frameworks::openai::is_sdk_member(&name, "function_tool")
            });
            if framework_own {
                continue;
            }
            let mut resolver = Resolver::new(self.modules);
            let Ok(found) = resolver.resolve(def_path, enclosing, callee) else {
                continue;
            };
            let Target::Function {
                path,
                function: decorator_fn,
            } = found.target
            else {
                continue;
            };
            // A registration (`@register`, `@register("key")` of a
            // registry its module fills, `python/registries.rs`) stores
            // the object and hands it back untouched: no part of what the
            // tool is.
            let registers = self.modules.facts(path).is_some_and(|facts| {
                facts.registries.iter().any(|registry| {
                    registry.registrars.iter().any(|registrar| {
                        registrar.function == decorator_fn.qualname && registrar.factory == factory
                    })
                })
            });
            if registers {
                continue;
            }
            let spelled = callee.dotted().unwrap_or_default();
            let at = format!("{path}:{}", decorator_fn.line);
            if factory {
                let read = self.factory_result(path, decorator_fn, decorator);
                parts.extend(read.map_err(|why| {
                    format!(
                        "{} is decorated with `{spelled}(...)` ({at}), a decorator factory which {why}, so what it binds is not the function",
                        str_repr(&function.name)
                    )
                })?);
                continue;
            }
            parts.extend(self.bare_result(path, decorator_fn, 0).map_err(|why| {
                format!(
                    "{} is decorated with `{spelled}` ({at}), which {why}, so what it binds is not the function",
                    str_repr(&function.name)
                )
            })?);
        }
        Ok(parts)
    }

    /// `safe(lookup)` written where a tool is listed or wrapped
    /// (`function_tool(safe(lookup))`): the decorator applied by hand, read
    /// through as it is on a definition. Returns the function's reference
    /// and the digest parts of the decorators peeled off (none when
    /// `reference` is no call), or why a call is not read through.
    pub(super) fn applied_decorators<'v>(
        &self,
        path: &str,
        scope: &str,
        reference: &'v Value,
    ) -> Result<(&'v Value, Vec<String>), String> {
        /// Decorators applied inside one another, at most.
        const MAX_APPLIED: usize = 4;
        let mut reference = reference;
        let mut parts = Vec::new();
        while let Value::Call {
            callee,
            args,
            keywords,
        } = reference
        {
            let spelled = callee.dotted().unwrap_or_default();
            let [inner] = args.as_slice() else {
                return Err(format!("`{spelled}(...)` is not one function wrapped"));
            };
            if !keywords.is_empty() || parts.len() >= MAX_APPLIED {
                return Err(format!("`{spelled}(...)` is not one function wrapped"));
            }
            let mut resolver = Resolver::new(self.modules);
            let found = resolver
                .resolve(path, scope, callee)
                .map_err(|why| format!("`{spelled}(...)` is not followed: {why}"))?;
            let Target::Function {
                path: decorator_path,
                function: decorator_fn,
            } = found.target
            else {
                return Err(format!("`{spelled}` is not a function of the scope"));
            };
            parts.extend(self.bare_result(decorator_path, decorator_fn, 0).map_err(|why| {
                format!(
                    "`{spelled}` ({decorator_path}:{}), which {why}, so what it returns is not the function",
                    decorator_fn.line
                )
            })?);
            reference = inner;
        }
        // Applied outermost first: the digest lists them as written
        // on a definition, innermost last.
        Ok((reference, parts))
    }
}

/// Decorators a bare application is followed through when one returns
/// another's call (`return _build_wrapper(func, ...)`), at most.
const MAX_DELEGATION: usize = 4;

impl ModuleReader<'_, '_> {
    /// What applying `decorator` (defined in `path`) to a function gives,
    /// when every return that application can reach
    /// (`decorator_returns`) is the function itself, a wrapper it defines
    /// decorated `@functools.wraps(func)`, or another such decorator's
    /// call on the function: the digest parts (the decorator's code, and
    /// each delegated call with its arguments), or why not.
    pub(super) fn bare_result(
        &self,
        path: &str,
        decorator: &FunctionFact,
        depth: usize,
    ) -> Result<Vec<String>, String> {
        let facts = self.modules.facts(path).ok_or("its module is not read")?;
        let (first, known) =
            bare_application(decorator).ok_or("cannot be applied to a function alone")?;
        self.applied_result(path, facts, decorator, &first, &known, depth)
    }

    /// `bare_result` under what the application fixes (`known`), `first`
    /// the parameter the function is passed in.
    fn applied_result(
        &self,
        path: &str,
        facts: &ModuleFacts,
        decorator: &FunctionFact,
        first: &str,
        known: &BTreeMap<String, Known>,
        depth: usize,
    ) -> Result<Vec<String>, String> {
        definition_read(facts, decorator)?;
        let returns = reachable_returns(facts, decorator, known)?;
        if returns.is_empty() {
            return Err("never returns".into());
        }
        let mut parts = vec![format!("decorator {}", decorator.implementation_sha256)];
        for ret in returns {
            match &ret.value {
                Some(Value::Name(name)) => wrapper_of(facts, decorator, first, name)?,
                Some(
                    call @ Value::Call {
                        callee,
                        args,
                        keywords,
                    },
                ) => {
                    if depth >= MAX_DELEGATION {
                        return Err(format!("delegates more than {MAX_DELEGATION} calls deep"));
                    }
                    let passes_function = matches!(args.first(), Some(Value::Name(n)) if n == first)
                        && !args.iter().any(|a| matches!(a, Value::Starred(_)));
                    if !passes_function {
                        return Err("returns a call that is not handed the function first".into());
                    }
                    let mut resolver = Resolver::new(self.modules);
                    let found = resolver
                        .resolve(path, &decorator.qualname, callee)
                        .map_err(|why| format!("returns a call not followed: {why}"))?;
                    let Target::Function {
                        path: inner_path,
                        function: inner,
                    } = found.target
                    else {
                        return Err("returns a call of something other than a function".into());
                    };
                    let inner_facts = self
                        .modules
                        .facts(inner_path)
                        .ok_or("its module is not read")?;
                    let names: Vec<Option<&str>> =
                        keywords.iter().map(|(k, _)| k.as_deref()).collect();
                    let mut inner_known = factory_application(inner, args.len(), &names)
                        .ok_or("returns a call whose arguments this reader cannot place")?;
                    let inner_first = bare_application(inner)
                        .map(|(name, _)| name)
                        .ok_or("returns a call of a function that takes no function")?;
                    inner_known.insert(inner_first.clone(), Known::Function);
                    parts.extend(self.applied_result(
                        inner_path,
                        inner_facts,
                        inner,
                        &inner_first,
                        &inner_known,
                        depth + 1,
                    )?);
                    parts.push(format!("call {}", crate::graph::schema::unparse(call)));
                }
                _ => return Err("does not return a wrapper it defines".into()),
            }
        }
        Ok(parts)
    }

    /// What applying the decorator a factory call (`call`, of `factory`
    /// defined in `path`) returns gives: every return the call can reach
    /// is a decorator the factory defines, read as `bare_result`; the
    /// digest covers the factory's code and the call's arguments.
    pub(super) fn factory_result(
        &self,
        path: &str,
        factory: &FunctionFact,
        call: &Value,
    ) -> Result<Vec<String>, String> {
        let Value::Call { args, keywords, .. } = call else {
            return Err("is not called".into());
        };
        let facts = self.modules.facts(path).ok_or("its module is not read")?;
        definition_read(facts, factory)?;
        let names: Vec<Option<&str>> = keywords.iter().map(|(k, _)| k.as_deref()).collect();
        if args.iter().any(|a| matches!(a, Value::Starred(_))) {
            return Err("is passed a spread".into());
        }
        let known = factory_application(factory, args.len(), &names)
            .ok_or("is passed arguments this reader cannot place")?;
        let returns = reachable_returns(facts, factory, &known)?;
        if returns.is_empty() {
            return Err("never returns".into());
        }
        let mut parts = vec![
            format!("decorator factory {}", factory.implementation_sha256),
            format!("arguments {}", crate::graph::schema::unparse(call)),
        ];
        for ret in returns {
            let Some(Value::Name(name)) = &ret.value else {
                return Err("does not return a decorator it defines".into());
            };
            let decorator = nested_definition(facts, factory, name)?
                .ok_or("does not return a decorator it defines")?;
            parts.extend(
                self.bare_result(path, decorator, 0)
                    .map_err(|why| format!("returns `{name}`, which {why}"))?,
            );
        }
        Ok(parts)
    }
}

/// Why a decorator's definition is not one to read, if it is not: its
/// own decorators, a generator's or a coroutine's body, two definitions.
fn definition_read(facts: &ModuleFacts, function: &FunctionFact) -> Result<(), String> {
    if !function.decorators.is_empty() {
        return Err("is decorated".into());
    }
    if function.is_generator {
        return Err("is a generator".into());
    }
    if function.is_async {
        return Err("is asynchronous".into());
    }
    defined_once(facts, function)
}

/// The function `outer` defines once under `name` (and binds `name`
/// no other way): `None` when the definition is not among the facts.
fn nested_definition<'f>(
    facts: &'f ModuleFacts,
    outer: &FunctionFact,
    name: &str,
) -> Result<Option<&'f FunctionFact>, String> {
    let bindings: Vec<_> = outer.locals_named(name).collect();
    if !matches!(bindings.as_slice(), [one] if one.kind == BindingKind::Function) {
        return Err(format!("binds `{name}` other than by one definition"));
    }
    let qualname = format!("{}.{name}", outer.qualname);
    Ok(facts.functions.iter().find(|f| f.qualname == qualname))
}

/// Whether `name`, returned by `decorator`, is the function passed in
/// `first` (never rebound) or a wrapper the decorator defines once,
/// decorated exactly `@functools.wraps(first)`.
fn wrapper_of(
    facts: &ModuleFacts,
    decorator: &FunctionFact,
    first: &str,
    name: &str,
) -> Result<(), String> {
    let bindings: Vec<_> = decorator.locals_named(name).collect();
    if name == first && matches!(bindings.as_slice(), [one] if one.kind == BindingKind::Parameter) {
        return Ok(());
    }
    let wrapper_fn =
        nested_definition(facts, decorator, name)?.ok_or("does not return a wrapper it defines")?;
    let wraps_first = |d: &Value| match d {
        Value::Call {
            callee,
            args,
            keywords,
        } => {
            keywords.is_empty()
                && matches!(args.as_slice(), [Value::Name(n)] if n == first)
                && imported_name(facts, callee, &decorator.qualname).as_deref()
                    == Some("functools.wraps")
        }
        _ => false,
    };
    match wrapper_fn.decorators.as_slice() {
        [only] if wraps_first(only) => Ok(()),
        _ => Err(format!(
            "does not return a wrapper decorated `@functools.wraps({first})`"
        )),
    }
}
