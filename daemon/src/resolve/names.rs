//! Following a name through the bindings that reach it: Python's scope
//! lookup from inside a function, the one binding each module on the way
//! may have (the "bound once" rule), imports and aliases followed, a
//! module's member (its own binding or a submodule), and every stop named
//! with its reason.

use super::{Found, ImportStep, ModuleLoc, Resolved, Resolver, Target};
use crate::pyrepr::str_repr;
use crate::python::{BindingFact, BindingKind, ImportFact, ModuleFacts, Text, Value};

/// More modules than this read for one reference is a stop.
const MAX_MODULES_READ: usize = 64;

/// Lazy re-exports (`GetattrHook::reexports`) one name is followed
/// through: a registry may name itself.
const MAX_LAZY_REEXPORTS: usize = 8;

impl<'s, 'a> Resolver<'s, 'a> {
    /// `import a.b` then `a.b.f` reads the submodule `a/b.py` directly, as
    /// the import system guarantees, even when the package binds a `b` of
    /// its own; several `import a.x` statements bind one package.
    pub(super) fn dotted_import(
        &mut self,
        path: &'a str,
        scope: &str,
        head: &str,
        rest: &[Text],
    ) -> Result<Option<Resolved<'a>>, String> {
        let facts = self.read_module(path)?;
        let visible = |import: &&ImportFact| {
            import.name.is_none()
                && import.asname.is_none()
                && import.level == 0
                && !import.type_checking
                && (import.scope.is_empty() || import.scope == scope)
                && import.module.split('.').next() == Some(head)
        };
        let best = facts
            .imports
            .iter()
            .filter(visible)
            .filter(|import| {
                let parts: Vec<&str> = import.module.split('.').skip(1).collect();
                parts.len() <= rest.len() && parts.iter().zip(rest).all(|(a, b)| a == b)
            })
            .max_by_key(|import| import.module.split('.').count());
        let Some(import) = best else { return Ok(None) };
        if import.conditional {
            return Ok(None);
        }
        let depth = import.module.split('.').count() - 1;
        let steps = vec![self.step(path, Some(import.line), head, "import")];
        let target = if self.external && self.provided_nowhere(path, &import.module) {
            Target::External {
                dotted: import.module.to_string(),
            }
        } else {
            Target::Module(self.find_module(path, 0, &import.module)?)
        };
        let mut found = Resolved { target, steps };
        for attribute in &rest[depth..] {
            found = self.attribute(found, attribute)?;
        }
        Ok(Some(found))
    }

    pub(super) fn read_module(&mut self, path: &str) -> Result<&'a ModuleFacts, String> {
        if self.modules.linked.contains(path) {
            return Err(format!(
                "module path {} for {} is a symbolic link, which is not followed",
                path.strip_suffix(".py").unwrap_or(path),
                str_repr(path)
            ));
        }
        let facts = self
            .modules
            .facts(path)
            .ok_or_else(|| format!("{path} is not in the read scope"))?;
        if facts.syntax_error.is_some() {
            return Err(format!("{path} could not be read or parsed"));
        }
        self.read.insert(path.to_string());
        if self.read.len() > MAX_MODULES_READ {
            return Err(format!(
                "more than {MAX_MODULES_READ} modules were read to follow it"
            ));
        }
        Ok(facts)
    }

    pub(super) fn step(
        &self,
        path: &str,
        line: Option<u32>,
        name: &str,
        binding: &str,
    ) -> ImportStep {
        ImportStep {
            path: path.to_string(),
            line,
            name: name.to_string(),
            sha256: self
                .modules
                .facts(path)
                .map(|f| f.source_sha256.clone())
                .unwrap_or_default()
                .to_string(),
            binding: binding.to_string(),
            lazy_submodule: false,
        }
    }

    /// A name as Python looks it up from inside `scope`: the function's own
    /// bindings (and those of enclosing functions), then the module's.
    pub(super) fn name_in_scope(
        &mut self,
        path: &'a str,
        scope: &str,
        name: &str,
        steps: Vec<ImportStep>,
    ) -> Found<'a> {
        let facts = self.read_module(path)?;
        let mut current = scope.to_string();
        while !current.is_empty() {
            let function = facts.functions.iter().find(|f| f.qualname == current);
            let Some(function) = function else {
                // A class body: its names are not visible to nested functions.
                current = parent_scope(&current);
                continue;
            };
            if function.globals.iter().any(|g| g == name) {
                break;
            }
            if function.nonlocals.iter().any(|n| n == name) {
                current = parent_scope(&current);
                continue;
            }
            let bindings: Vec<&BindingFact> = function
                .body()
                .locals
                .iter()
                .filter(|b| b.name == name && !b.type_checking)
                .collect();
            if !bindings.is_empty() {
                return self.bound_once(path, &current, name, &bindings, steps, Once::Local);
            }
            current = parent_scope(&current);
        }
        self.module_name(path, name, steps)
    }

    /// A name bound at module level in `path`.
    fn module_name(&mut self, path: &'a str, name: &str, steps: Vec<ImportStep>) -> Found<'a> {
        let key = (path.to_string(), name.to_string());
        if !self.following.insert(key.clone()) {
            return Err(format!(
                "the import chain for {} returns to {path}",
                str_repr(name)
            ));
        }
        let result = self.module_name_inner(path, name, steps);
        self.following.remove(&key);
        result
    }

    fn module_name_inner(
        &mut self,
        path: &'a str,
        name: &str,
        steps: Vec<ImportStep>,
    ) -> Found<'a> {
        let facts = self.read_module(path)?;
        let bindings: Vec<&BindingFact> = facts
            .module_bindings_named(name)
            .filter(|b| b.name == name && !b.type_checking)
            .collect();
        let bindings = match &self.read_at {
            Some((at, line)) if at == path && steps.is_empty() => {
                before_the_read(facts, name, bindings, *line)
            }
            _ => bindings,
        };
        let bindings = package_imports_as_one(facts, name, bindings);
        let bindings = wrapper_over_own_def(facts, name, bindings);
        let (bindings, beside_none) = beside_none_placeholders(bindings);
        // A wildcard import after the last explicit binding may rebind it.
        let last_binding = bindings.iter().map(|b| b.line).max().unwrap_or(0);
        let wildcards: Vec<&ImportFact> = facts
            .imports
            .iter()
            .filter(|i| {
                i.scope.is_empty()
                    && !i.type_checking
                    && i.name.as_deref() == Some("*")
                    && i.line > last_binding
            })
            .collect();
        if wildcards
            .into_iter()
            .any(|import| self.wildcard_may_bind(path, import, name))
        {
            return Err(format!(
                "{path} has a wildcard import that may rebind {}",
                str_repr(name)
            ));
        }
        if bindings.is_empty() {
            if steps.is_empty() {
                return Err(format!(
                    "{} is not bound at module level in {path}",
                    str_repr(name)
                ));
            }
            return Err(format!("{path} does not define {}", str_repr(name)));
        }
        self.bound_once(
            path,
            "",
            name,
            &bindings,
            steps,
            Once::Module { beside_none },
        )
    }

    /// Follows the one binding of `name` in a scope of `path`.
    fn bound_once(
        &mut self,
        path: &'a str,
        scope: &str,
        name: &str,
        bindings: &[&BindingFact],
        mut steps: Vec<ImportStep>,
        once: Once,
    ) -> Found<'a> {
        let local = once == Once::Local;
        let facts = self.read_module(path)?;
        let place = if scope.is_empty() {
            format!("in {path}")
        } else {
            format!("in {scope} in {path}")
        };
        let [binding] = bindings else {
            let lines: Vec<String> = bindings.iter().map(|b| b.line.to_string()).collect();
            return Err(format!(
                "{} is bound more than once {place} (lines {})",
                str_repr(name),
                lines.join(", ")
            ));
        };
        // A function's only binding of a name, run at most once per call
        // (not in a loop, handler or case), is what every read of the name
        // in that call sees, under whatever `if`/`with`/`try` it sits: a
        // read before it or where it did not run fails, never finds
        // another value. Unless a nested function rebinds it (`nonlocal`).
        let beside_none = once == (Once::Module { beside_none: true });
        if binding.conditional
            && !beside_none
            && !(local && runs_once_per_call(facts, scope, binding))
        {
            return Err(format!(
                "{} is bound only inside a compound statement or from a function in {path}:{}",
                str_repr(name),
                binding.line
            ));
        }
        match binding.kind {
            BindingKind::Function => {
                let qualname = if scope.is_empty() {
                    name.to_string()
                } else {
                    format!("{scope}.{name}")
                };
                let function = facts
                    .functions
                    .iter()
                    .find(|f| f.qualname == qualname)
                    .ok_or_else(|| {
                        format!(
                            "the definition of {} in {path} was not read",
                            str_repr(name)
                        )
                    })?;
                steps.push(self.step(path, Some(function.line), name, "definition"));
                Ok(Resolved {
                    target: Target::Function { path, function },
                    steps,
                })
            }
            BindingKind::Import => {
                let import = facts
                    .imports
                    .iter()
                    // The line first: a number, where the scope and
                    // name are strings (a module of hundreds of imports
                    // made this scan the cold path's hot spot).
                    .find(|i| {
                        i.line == binding.line
                            && i.scope == scope
                            && i.bound_name() == name
                            && !i.type_checking
                    })
                    .ok_or_else(|| {
                        format!("the import of {} in {path} was not read", str_repr(name))
                    })?;
                let kind = if local { "local_import" } else { "import" };
                steps.push(self.step(path, Some(import.line), name, kind));
                self.follow_import(path, import, steps)
            }
            BindingKind::Assignment if !local => {
                let alias = match &binding.value {
                    Some(Value::Name(other)) => vec![other.clone()],
                    Some(Value::Attribute(parts)) => parts.clone(),
                                        _ => {
                        return Ok(Resolved {
                            target: Target::Value { path, name: name.to_string(), line: binding.line },
                            steps,
                        })
                    }
                };
                let Some((head, rest)) = alias.split_first() else {
                    return Err(format!(
                        "{} has an empty alias at {path}:{}",
                        str_repr(name),
                        binding.line
                    ));
                };
                if head == name && rest.is_empty() {
                    return Err(format!(
                        "{} is assigned to itself at {path}:{}",
                        str_repr(name),
                        binding.line
                    ));
                }
                steps.push(self.step(path, Some(binding.line), name, "alias"));
                let mut found = self.module_name(path, head, steps)?;
                for attribute in rest {
                    found = self.attribute(found, attribute)?;
                }
                Ok(found)
            }
            BindingKind::Class if self.classes && !local => Ok(Resolved {
                target: Target::Value {
                    path,
                    name: name.to_string(),
                    line: binding.line,
                },
                steps,
            }),
            BindingKind::Class => Err(format!(
                "{} in {path}:{} is a class, not a function definition",
                str_repr(name),
                binding.line
            )),
                        BindingKind::Parameter => Err(format!(
                "{} is bound by a parameter in the enclosing scope at {path}:{}, which is not followed",
                str_repr(name),
                binding.line
            )),
                        BindingKind::Assignment | BindingKind::Other | BindingKind::With | BindingKind::Unpacked { .. } => Err(format!(
                "{} is bound by a local assignment in the enclosing scope at {path}:{}, which is not followed",
                str_repr(name),
                binding.line
            )),
        }
    }

    /// Follows `import m [as x]` or `from m import n [as x]`.
    /// Whether `from m import *` in `path` may bind `name`: unless `m` is
    /// a module of the scope, read, with no `__all__` and no wildcard of
    /// its own, that binds no `name` at module level (an import or any
    /// other binding) and, for a package, has no submodule of that name (a
    /// loaded submodule is a name of its package). Python binds what the
    /// module's namespace holds at import, which its bindings are (any
    /// other change to a namespace is the census's, as everywhere).
    fn wildcard_may_bind(&mut self, path: &str, import: &ImportFact, name: &str) -> bool {
        let Ok(loc) = self.find_module(path, import.level, &import.module) else {
            return true;
        };
        let Some(file) = loc.file else {
            return true;
        };
        let Ok(target) = self.read_module(&file) else {
            return true;
        };
        let star = |i: &ImportFact| i.name.as_deref() == Some("*");
        if target.imports.iter().any(star)
            || target.module_bindings_named("__all__").next().is_some()
        {
            return true;
        }
        // Without `__all__`, a name with a leading underscore is not bound.
        if name.starts_with('_') {
            return false;
        }
        target.module_bindings_named(name).any(|b| b.name == name)
            || target
                .imports
                .iter()
                .any(|i| i.scope.is_empty() && i.bound_name() == name)
            || (file.ends_with("__init__.py") && self.find_module(&file, 1, name).is_ok())
    }

    fn follow_import(
        &mut self,
        path: &'a str,
        import: &ImportFact,
        steps: Vec<ImportStep>,
    ) -> Found<'a> {
        let external = self.external
            && import.level == 0
            && import.name.as_deref() != Some("*")
            && self.provided_nowhere(path, &import.module);
        match &import.name {
            None if external => {
                let dotted = match import.asname {
                    Some(_) => import.module.to_string(),
                    None => import
                        .module
                        .split('.')
                        .next()
                        .unwrap_or_default()
                        .to_string(),
                };
                Ok(Resolved {
                    target: Target::External { dotted },
                    steps,
                })
            }
            Some(member) if external => Ok(Resolved {
                target: Target::External {
                    dotted: format!("{}.{member}", import.module),
                },
                steps,
            }),
            None => {
                // `import a.b` binds `a`; `import a.b as c` binds `a.b`.
                let dotted = if import.asname.is_some() {
                    import.module.to_string()
                } else {
                    import
                        .module
                        .split('.')
                        .next()
                        .unwrap_or(&import.module)
                        .to_string()
                };
                let loc = self.find_module(path, import.level, &dotted)?;
                Ok(Resolved {
                    target: Target::Module(loc),
                    steps,
                })
            }
            Some(member) if member == "*" => {
                Err(format!("{path}:{} is a wildcard import", import.line))
            }
            Some(member) => {
                let loc = self.find_module(path, import.level, &import.module)?;
                self.member(loc, member, steps, true)
            }
        }
    }

    /// `name` of a module: its own binding first, then a submodule. A
    /// package whose `__init__.py` binds the name only by importing that
    /// very submodule (`from . import tools`) names the submodule.
    fn member(
        &mut self,
        loc: ModuleLoc,
        name: &str,
        mut steps: Vec<ImportStep>,
        from_import: bool,
    ) -> Found<'a> {
        let submodule = loc
            .dir
            .as_deref()
            .and_then(|dir| self.module_at(dir, &[name]));
        let mut hook = None;
        if let Some(file) = &loc.file {
            let facts = self.read_module(file)?;
            let binds_other = facts
                .module_bindings_named(name)
                .any(|b| b.name == name && !b.type_checking)
                && !(submodule.is_some() && imports_own_submodule(facts, name));
            if binds_other {
                let file = self.static_path(file)?;
                return self.module_name(file, name, steps);
            }
            hook = facts.getattr_hook.clone();
        }
        // A name the package's hook answers from its lazy re-export
        // registry: what `from <module> import <attribute>` there gives.
        if let Some(reexport) = hook.as_ref().and_then(|h| h.reexport(name)).cloned() {
            let init = loc.file.clone().unwrap_or_default();
            if submodule.is_some() {
                return Err(format!(
                    "{} is both a submodule and a lazy re-export of {init}",
                    str_repr(name)
                ));
            }
            let hops = steps
                .iter()
                .filter(|s| s.binding == "lazy_reexport")
                .count();
            if hops >= MAX_LAZY_REEXPORTS {
                return Err(format!(
                    "{} is reached through more than {MAX_LAZY_REEXPORTS} lazy re-exports",
                    str_repr(name)
                ));
            }
            let line = hook.as_ref().map(|h| h.line);
            steps.push(self.step(&init, line, name, "lazy_reexport"));
            let level = reexport.module.chars().take_while(|c| *c == '.').count();
            let dotted = &reexport.module[level..];
            let target =
                self.find_module(&init, u32::try_from(level).unwrap_or(u32::MAX), dotted)?;
            return self.member(target, &reexport.attribute, steps, true);
        }
        if let Some(sub) = submodule {
            let init = loc.file.clone().unwrap_or_default();
            match &hook {
                // A hook answers first for a name the package does not bind;
                // only the lazy-loading idiom is known to give the submodule.
                Some(hook) if !hook.gives_submodule(name) => {
                    return Err(format!(
                        "{} is reached past the module-level __getattr__ at {init}:{}, which is not evaluated",
                        str_repr(name),
                        hook.line
                    ))
                }
                Some(_) => {
                    let mut step = self.step(&init, None, name, "submodule");
                    step.lazy_submodule = true;
                    steps.push(step);
                }
                // An attribute of a package is its submodule only once
                // something imports it; a from-import does.
                None if !from_import => {
                    return Err(format!(
                        "{} is not bound in {}, and a submodule is only an attribute of its package once imported",
                        str_repr(name),
                        if init.is_empty() { loc.dir.clone().unwrap_or_default() } else { init.clone() }
                    ))
                }
                None if !init.is_empty() => steps.push(self.step(&init, None, name, "submodule")),
                None => {}
            }
            return self
                .not_linked(sub, name)
                .map(|sub| Resolved {
                    target: Target::Module(sub),
                    steps,
                })
                .map_err(|linked| linked.describe(&init));
        }
        match &loc.file {
            Some(file) => {
                let file = self.static_path(file)?;
                self.module_name(file, name, steps)
            }
            None => Err(format!(
                "no file inside the read scope provides {}.{name}",
                loc.dotted
            )),
        }
    }

    /// The `&'a str` key of a module path.
    fn static_path(&self, path: &str) -> Result<&'a str, String> {
        self.modules
            .key(path)
            .ok_or_else(|| format!("{path} is not in the read scope"))
    }

    /// An attribute of what a reference reached so far.
    pub(super) fn attribute(&mut self, found: Resolved<'a>, attribute: &str) -> Found<'a> {
        match found.target {
            Target::Module(loc) => self.member(loc, attribute, found.steps, false),
            Target::External { dotted } => Ok(Resolved {
                target: Target::External {
                    dotted: format!("{dotted}.{attribute}"),
                },
                steps: found.steps,
            }),
            Target::Function { .. } | Target::Value { .. } => {
                Err(format!("{attribute} is read from a value, not a module"))
            }
        }
    }
}

/// Whether a package module binds `name` only by `from . import name`.
fn imports_own_submodule(facts: &ModuleFacts, name: &str) -> bool {
    let own = |b: &BindingFact| {
        b.kind == BindingKind::Import
            && facts.imports.iter().any(|i| {
                i.line == b.line
                    && i.scope.is_empty()
                    && i.level == 1
                    && i.module.is_empty()
                    && i.name.as_deref() == Some(name)
            })
    };
    facts
        .module_bindings_named(name)
        .filter(|b| b.name == name && !b.type_checking)
        .all(own)
}

/// Several `import a.x` statements bind the one package `a`: they count as
/// one binding (the first).
fn package_imports_as_one<'f>(
    facts: &ModuleFacts,
    name: &str,
    bindings: Vec<&'f BindingFact>,
) -> Vec<&'f BindingFact> {
    let plain_package_import = |b: &&BindingFact| {
        b.kind == BindingKind::Import
            && facts.imports.iter().any(|i| {
                i.line == b.line
                    && i.scope.is_empty()
                    && i.name.is_none()
                    && i.asname.is_none()
                    && i.module.split('.').next() == Some(name)
                    && i.module.contains('.')
            })
    };
    if bindings.len() > 1 && bindings.iter().all(plain_package_import) {
        bindings.into_iter().take(1).collect()
    } else {
        bindings
    }
}

/// What makes a binding the one a read sees.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Once {
    /// A function's local: bound once per call.
    Local,
    /// A module's name; `beside_none` when its other bindings are `None`
    /// placeholders (`beside_none_placeholders`).
    Module { beside_none: bool },
}

/// `agent = None` then `try: agent = Agent(...)` (or any compound
/// statement, or the reverse order): besides bindings to `None`, the name
/// has one binding, an assignment of a call. Every read then finds that
/// call's value, `None`, or no name at all; `None` lists nothing (ADK
/// refuses it in `sub_agents`, and the SDK fails on it when the agent
/// runs), so what the name binds, when it binds anything, is that call:
/// followed as the one binding, whatever statement it sits in. `true`
/// when placeholders were set aside.
fn beside_none_placeholders(bindings: Vec<&BindingFact>) -> (Vec<&BindingFact>, bool) {
    let is_none =
        |b: &BindingFact| b.kind == BindingKind::Assignment && matches!(b.value, Some(Value::None));
    let others: Vec<&BindingFact> = bindings.iter().copied().filter(|b| !is_none(b)).collect();
    match others.as_slice() {
        [one]
            if others.len() < bindings.len()
                && one.kind == BindingKind::Assignment
                && matches!(one.value, Some(Value::Call { .. })) =>
        {
            (others, true)
        }
        _ => (bindings, false),
    }
}

/// The bindings a module-level read at `line` can see: Python runs a
/// module's statements in order, so a name rebound only after the
/// statement that reads it (`agent_debugger = emojify_agent(agent_debugger)`
/// after the root agent's construction) is still bound to what came
/// before. Only statement bindings may be set aside (an assignment, an
/// import, a `def` or `class`: none can sit inside the reading
/// expression, whose statement ends before theirs begins), never a
/// binding of another kind (a walrus inside the read could rebind it
/// mid-expression), and not when any function declares the name `global`
/// (a call before the read could rebind it). Anything else keeps every
/// binding, as before.
fn before_the_read<'f>(
    facts: &ModuleFacts,
    name: &str,
    bindings: Vec<&'f BindingFact>,
    line: u32,
) -> Vec<&'f BindingFact> {
    let (before, after): (Vec<&BindingFact>, Vec<&BindingFact>) =
        bindings.iter().copied().partition(|b| b.line <= line);
    let statements = after.iter().all(|b| {
        matches!(
            b.kind,
            BindingKind::Assignment
                | BindingKind::Import
                | BindingKind::Function
                | BindingKind::Class
                | BindingKind::Unpacked { .. }
        )
    });
    let declared_global = facts
        .functions
        .iter()
        .any(|f| f.globals.iter().any(|g| g == name));
    if after.is_empty() || before.is_empty() || !statements || declared_global {
        return bindings;
    }
    before
}

/// `def x(...)` followed by `x = FunctionTool(func=x)` (ADK) at module
/// level: the assignment wraps that def, so the name is followed to the def
/// (spec: "it is not a guess"). Any other pair of bindings stays two.
fn wrapper_over_own_def<'f>(
    facts: &ModuleFacts,
    name: &str,
    bindings: Vec<&'f BindingFact>,
) -> Vec<&'f BindingFact> {
    let [def, wrap] = bindings.as_slice() else {
        return bindings;
    };
    let wraps_itself = def.kind == BindingKind::Function
        && wrap.kind == BindingKind::Assignment
        && wrap.line > def.line
        && !def.conditional
        && !wrap.conditional
        && wrap.value.as_ref().is_some_and(|value| {
            crate::frameworks::adk::function_wrapper_call(facts, value, "")
                .is_some_and(|call| *call.wrapped == Value::Name(name.to_string().into()))
        });
    if wraps_itself {
        vec![*def]
    } else {
        bindings
    }
}

pub(super) fn parent_scope(scope: &str) -> String {
    scope
        .rsplit_once('.')
        .map_or(String::new(), |(parent, _)| parent.to_string())
}

/// Whether a function's only binding of a name (in function `scope`)
/// runs at most once per call and nothing else rebinds it: not in a loop,
/// handler or case, and no nested function rebinds it through
/// `nonlocal`. Then every read of the name in that call sees its value,
/// whatever `if`/`with`/`try` it sits under: a read where it did not run
/// fails, and never finds another value.
pub fn runs_once_per_call(facts: &ModuleFacts, scope: &str, binding: &BindingFact) -> bool {
    let inner = format!("{scope}.");
    let rebound_inside = facts.functions.iter().any(|f| {
        f.qualname.starts_with(&inner)
            && f.nonlocals.contains(&binding.name)
            && f.body().locals.iter().any(|b| b.name == binding.name)
    });
    binding.guard.is_some() && !rebound_inside
}
