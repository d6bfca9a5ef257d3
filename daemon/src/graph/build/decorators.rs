//! A tool's own decorators besides the framework's (`@function_tool
//! @safe def lookup`). A decorator the repository defines changes what the
//! tool does, so it cannot be read past silently: it is transparent only
//! when its one unconditional return is a wrapper it defines, decorated
//! `@functools.wraps(func)` with `func` its first parameter — the wrapper
//! then carries the function's name, docstring and signature (`inspect`
//! follows `__wrapped__`), so the tool is the function, and the digest
//! covers the decorator's code (the wrapper's with it) and the function's.
//! A decorator that returns its argument unchanged is read through too.
//! Any other repository decorator is a named stop on the tool. A
//! decorator the scope does not hold (a library's) is read as before: its
//! spelling is part of the definition's digest.

use super::eval::call_frames::returns_once;
use super::ModuleReader;
use crate::frameworks::imports::imported_name;
use crate::pyrepr::str_repr;
use crate::python::{BindingKind, FunctionFact, ModuleFacts, ParamKind, Value};
use crate::resolve::{Resolver, Target};

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
            let spelled = callee.dotted().unwrap_or_default();
            let at = format!("{path}:{}", decorator_fn.line);
            if factory {
                return Err(format!(
                    "{} is decorated with `{spelled}(...)` ({at}), a decorator factory this reader does not read",
                    str_repr(&function.name)
                ));
            }
            let facts = self.modules.facts(path).ok_or("its module is not read")?;
            transparent(facts, decorator_fn).map_err(|why| {
                format!(
                    "{} is decorated with `{spelled}` ({at}), which {why}, so what it binds is not the function",
                    str_repr(&function.name)
                )
            })?;
            parts.push(format!("decorator {}", decorator_fn.implementation_sha256));
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
            let facts = self
                .modules
                .facts(decorator_path)
                .ok_or("its module is not read")?;
            transparent(facts, decorator_fn).map_err(|why| {
                format!(
                    "`{spelled}` ({decorator_path}:{}), which {why}, so what it returns is not the function",
                    decorator_fn.line
                )
            })?;
            parts.push(format!("decorator {}", decorator_fn.implementation_sha256));
            reference = inner;
        }
        // Applied outermost first: the digest lists them as written
        // on a definition, innermost last.
        Ok((reference, parts))
    }
}

/// Whether `decorator` returns a `functools.wraps(func)` wrapper of its
/// first parameter, and why not.
fn transparent(facts: &ModuleFacts, decorator: &FunctionFact) -> Result<(), String> {
    returns_once(facts, decorator, "")?;
    let first = decorator
        .params
        .iter()
        .find(|p| matches!(p.kind, ParamKind::PositionalOnly | ParamKind::Normal))
        .ok_or("takes no function")?;
    let returned = decorator
        .body()
        .returns_found
        .first()
        .and_then(|r| r.value.as_ref());
    let Some(Value::Name(wrapper)) = returned else {
        return Err("does not return a wrapper it defines".into());
    };
    let bindings: Vec<_> = decorator.locals_named(wrapper).collect();
    // `return func`, unrebound: the function itself.
    if wrapper == first.name
        && matches!(bindings.as_slice(), [one] if one.kind == BindingKind::Parameter)
    {
        return Ok(());
    }
    if !matches!(bindings.as_slice(), [one] if one.kind == BindingKind::Function) {
        return Err(format!("binds `{wrapper}` other than by one definition"));
    }
    let qualname = format!("{}.{wrapper}", decorator.qualname);
    let wrapper_fn = facts
        .functions
        .iter()
        .find(|f| f.qualname == qualname)
        .ok_or("does not return a wrapper it defines")?;
    let wraps_first = |d: &Value| match d {
        Value::Call {
            callee,
            args,
            keywords,
        } => {
            keywords.is_empty()
                && matches!(args.as_slice(), [Value::Name(n)] if *n == first.name)
                && imported_name(facts, callee, &decorator.qualname).as_deref()
                    == Some("functools.wraps")
        }
        _ => false,
    };
    match wrapper_fn.decorators.as_slice() {
        [only] if wraps_first(only) => Ok(()),
        _ => Err(format!(
            "does not return a wrapper decorated `@functools.wraps({})`",
            first.name
        )),
    }
}
