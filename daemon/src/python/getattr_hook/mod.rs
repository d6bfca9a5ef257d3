//! A package's module-level `__getattr__`: which names it is known to
//! answer with their own submodule. The hook is never evaluated; it is
//! read once the whole module's facts are known, name by name.
//!
//! The rule (the spec's "lazy-loading idioms"): a name is taken only when
//! the hook is undecorated, takes one parameter it never rebinds, and
//! every return it can reach for that name gives that name's submodule:
//! `importlib.import_module(f".{name}", __name__)` (or `"." + name`, or
//! `f"{__name__}.{name}"`, with `importlib` bound only by importing it),
//! a literal `".agent"` under a test that singles out `agent`, the
//! package's own `from . import agent`, or a local bound only to one of
//! those. Tests on the name (`name == "agent"`, `!=`, `in` a literal or a
//! module-level literal only ever read, `not`, `and`, `or`) decide which
//! branches a name reaches; any other test reaches both. Falling off the
//! end returns `None`, which is no submodule. The hook is not trusted at
//! all when the package rebinds `__name__`, `__package__`, `__path__` or
//! `__getattr__`, patches `importlib`, or stores into `sys.modules`,
//! `globals()` or `vars()` other than the idiom's own cache
//! (`globals()[name] = module` inside the hook).

use super::facts::{BindingKind, GetattrHook, LazyReexport, ModuleFacts, Text};
use super::lines::LineIndex;
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;
use std::collections::BTreeSet;

/// How many names the hook's tests may single out before it is not read.
const MAX_MENTIONED: usize = 1000;

/// The module's `__getattr__`, read against the module's other facts.
pub(super) fn read(suite: &[Stmt], facts: &ModuleFacts, lines: &LineIndex) -> Option<GetattrHook> {
    let mut found = Vec::new();
    find_hooks(suite, false, &mut found);
    let (def, conditional) = *found.last()?;
    let line = lines.line(def.name.start());
    let untrusted = GetattrHook {
        line,
        submodules: Vec::new(),
        reexports: Vec::new(),
        mentioned: Vec::new(),
        any_other_name: false,
    };
    let Some(param) = sole_parameter(def) else {
        return Some(untrusted);
    };
    if conditional || found.len() > 1 || !package_trusts_hooks(suite, facts, def) {
        return Some(untrusted);
    }
    Some(HookReader::new(def, param, suite, facts).map_or(untrusted, |reader| reader.hook(line)))
}

/// Every `def __getattr__` at module level, with whether it is defined
/// under a compound statement (then it may not exist: not trusted).
fn find_hooks<'s>(
    body: &'s [Stmt],
    conditional: bool,
    out: &mut Vec<(&'s ast::StmtFunctionDef, bool)>,
) {
    for stmt in body {
        match stmt {
            Stmt::FunctionDef(def) if def.name.id.as_str() == "__getattr__" => {
                out.push((def, conditional));
            }
            Stmt::If(s) => {
                find_hooks(&s.body, true, out);
                for clause in &s.elif_else_clauses {
                    find_hooks(&clause.body, true, out);
                }
            }
            Stmt::Try(s) => {
                find_hooks(&s.body, true, out);
                find_hooks(&s.orelse, true, out);
                find_hooks(&s.finalbody, true, out);
                for ast::ExceptHandler::ExceptHandler(h) in &s.handlers {
                    find_hooks(&h.body, true, out);
                }
            }
            _ => {}
        }
    }
}

/// The hook's one plain parameter, when it is undecorated and takes only
/// that.
pub(super) fn sole_parameter(def: &ast::StmtFunctionDef) -> Option<&str> {
    let params = &def.parameters;
    let [param] = params.args.as_slice() else {
        return None;
    };
    let plain = def.decorator_list.is_empty()
        && params.posonlyargs.is_empty()
        && params.kwonlyargs.is_empty()
        && params.vararg.is_none()
        && params.kwarg.is_none()
        && param.default.is_none();
    plain.then(|| param.parameter.name.id.as_str())
}

mod bindings;
mod lookups;
mod registry;
#[cfg(test)]
mod tests;
mod tests_on_names;
mod trust;

use registry::{registries, Registry};
use trust::{package_trusts_hooks, read_only_containers};

/// What one value bound in the hook gives.
#[derive(Debug, Clone, PartialEq)]
enum Given {
    /// The submodule of the name asked for.
    AskedSubmodule,
    /// `raise AttributeError(...)`: the name is refused, so `from package
    /// import name` falls back to its submodule (`lookups.rs`).
    Refused,
    /// The submodule of this literal name.
    Submodule(String),
    /// `importlib` (or its `import_module`), bound by importing it.
    Importlib,
    ImportModule,
    /// Item `index` of the registry entry of the name asked for
    /// (`module_path, attr_name = _LAZY[name]`).
    Entry {
        registry: String,
        index: usize,
    },
    /// The module an entry's item names (`import_module(module_path,
    /// __package__)`; `package`: relative to the package).
    EntryModule {
        registry: String,
        index: usize,
        package: bool,
    },
    /// `getattr(module, attr_name)`: the attribute an entry names of
    /// the module another item names.
    EntryAttribute {
        registry: String,
        module: usize,
        attribute: usize,
        package: bool,
    },
    Unknown,
}

/// A three-valued test result.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Tri {
    True,
    False,
    Unknown,
}

impl Tri {
    fn of(b: bool) -> Tri {
        if b {
            Tri::True
        } else {
            Tri::False
        }
    }
    fn not(self) -> Tri {
        match self {
            Tri::True => Tri::False,
            Tri::False => Tri::True,
            Tri::Unknown => Tri::Unknown,
        }
    }
}

/// How a body ends for one name: the values of the returns it can reach,
/// whether it can fall off its end, and whether it holds a statement the
/// reader does not follow.
#[derive(Default)]
struct Flow {
    returns: Vec<Given>,
    falls: bool,
    opaque: bool,
}

struct HookReader<'s> {
    def: &'s ast::StmtFunctionDef,
    param: &'s str,
    /// Module-level names bound once to a literal container of strings
    /// that the module only ever reads (a registry's keys among them).
    containers: Vec<(String, BTreeSet<String>)>,
    /// Lazy re-export registries (`registry.rs`).
    registries: Vec<Registry>,
    /// Whether the module binds `getattr` itself (then it is not the
    /// builtin).
    binds_getattr: bool,
    /// What each name the hook binds gives, flow-insensitively.
    locals: Vec<(String, Vec<Given>)>,
    /// What the module's own bindings of `importlib`/`import_module` are.
    module_importlib: bool,
    module_import_module: bool,
    mentioned: BTreeSet<String>,
    /// Hook locals bound to `D.get(name)` of a dict of truthy literals,
    /// with `D`'s keys (`lookups.rs`).
    lookups: Vec<(String, BTreeSet<String>)>,
    /// Whether the module binds `AttributeError` itself (then a raise of
    /// it is no refusal).
    binds_attribute_error: bool,
}

impl<'s> HookReader<'s> {
    /// `None` when the hook rebinds its parameter or singles out too many
    /// names (then it is not trusted).
    fn new(
        def: &'s ast::StmtFunctionDef,
        param: &'s str,
        suite: &'s [Stmt],
        facts: &ModuleFacts,
    ) -> Option<HookReader<'s>> {
        let only_imports = |name: &str, module: &str, member: Option<&str>| {
            let bindings: Vec<_> = facts
                .module_bindings_named(name)
                .filter(|b| b.name == name)
                .collect();
            !bindings.is_empty()
                && bindings.iter().all(|b| b.kind == BindingKind::Import)
                && facts
                    .imports
                    .iter()
                    .filter(|i| i.scope.is_empty() && i.bound_name() == name)
                    .all(|i| i.module == module && i.name.as_deref() == member)
        };
        let registries = registries(suite, facts);
        let mut containers = read_only_containers(suite, facts);
        containers.extend(
            registries
                .iter()
                .map(|r| (r.name.clone(), r.entries.keys().cloned().collect())),
        );
        let lookups = lookups::lookups(def, param, suite, facts);
        let mut reader = HookReader {
            def,
            param,
            lookups,
            binds_attribute_error: lookups::binds_attribute_error(facts),
            containers,
            registries,
            binds_getattr: facts.module_bindings.iter().any(|b| b.name == "getattr"),
            locals: Vec::new(),
            module_importlib: only_imports("importlib", "importlib", None),
            module_import_module: only_imports("import_module", "importlib", Some("import_module")),
            mentioned: BTreeSet::new(),
        };
        // A local may be bound from another (`import importlib`, then
        // `module = importlib.import_module(…)`): each pass reads the
        // values with what the last one found.
        for _ in 0..3 {
            let mut locals: Vec<(String, Vec<Given>)> = Vec::new();
            if !reader.bindings(&def.body, &mut locals) {
                return None;
            }
            reader.locals = locals;
        }
        let mut mentioned = BTreeSet::new();
        reader.mentions(&def.body, &mut mentioned);
        if mentioned.len() > MAX_MENTIONED {
            return None;
        }
        reader.mentioned = mentioned;
        Some(reader)
    }

    fn hook(&self, line: u32) -> GetattrHook {
        let submodules = self
            .mentioned
            .iter()
            .filter(|name| self.gives(Some(name)))
            .map(|name| Text::from(name.as_str()))
            .collect();
        let reexports = self
            .mentioned
            .iter()
            .filter_map(|name| self.reexport(name))
            .collect();
        GetattrHook {
            line,
            submodules,
            reexports,
            mentioned: self
                .mentioned
                .iter()
                .map(|name| Text::from(name.as_str()))
                .collect(),
            any_other_name: self.gives(None),
        }
    }

    /// Whether every return the hook can reach for `asked` (`None`: a
    /// name none of its tests singles out) gives that name's submodule.
    fn gives(&self, asked: Option<&str>) -> bool {
        let flow = self.walk(&self.def.body, asked);
        !flow.opaque
            && !flow.falls
            && !flow.returns.is_empty()
            && flow.returns.iter().all(|given| match given {
                Given::AskedSubmodule | Given::Refused => true,
                // A literal submodule is one of the names singled out, so
                // never a name none of the tests singles out.
                Given::Submodule(name) => asked == Some(name.as_str()),
                _ => false,
            })
    }
}

impl HookReader<'_> {
    /// What `asked` is when every return the hook can reach for it gives
    /// one registry entry's attribute: that module and attribute.
    fn reexport(&self, asked: &str) -> Option<LazyReexport> {
        let flow = self.walk(&self.def.body, Some(asked));
        if flow.opaque || flow.falls {
            return None;
        }
        let (first, rest) = flow.returns.split_first()?;
        let Given::EntryAttribute {
            registry,
            module,
            attribute,
            package,
        } = first
        else {
            return None;
        };
        if rest.iter().any(|g| g != first) {
            return None;
        }
        let entry = self
            .registries
            .iter()
            .find(|r| &r.name == registry)?
            .entries
            .get(asked)?;
        let (module, attribute) = (entry.get(*module)?, entry.get(*attribute)?);
        let relative = module.starts_with('.');
        let dotted = module.trim_start_matches('.');
        let valid = is_identifier(attribute)
            && (relative || !dotted.is_empty())
            && (!relative || *package)
            && (dotted.is_empty() || dotted.split('.').all(is_identifier));
        valid.then(|| LazyReexport {
            name: Text::from(asked),
            module: Text::from(module.as_str()),
            attribute: Text::from(attribute.as_str()),
        })
    }
}

/// A display of string literals: a tuple, list, set, a dict's keys, or
/// `frozenset({...})`.
pub(super) fn literal_strings(expr: &Expr) -> Option<BTreeSet<String>> {
    let elements: Vec<&Expr> = match expr {
        Expr::Tuple(t) => t.elts.iter().collect(),
        Expr::List(l) => l.elts.iter().collect(),
        Expr::Set(s) => s.elts.iter().collect(),
        Expr::Dict(d) => d
            .items
            .iter()
            .map(|i| i.key.as_ref())
            .collect::<Option<_>>()?,
        Expr::Call(call)
            if matches!(call.func.as_ref(), Expr::Name(n) if n.id.as_str() == "frozenset")
                && call.arguments.keywords.is_empty() =>
        {
            match call.arguments.args.as_ref() {
                [inner] => return literal_strings(inner),
                _ => return None,
            }
        }
        _ => return None,
    };
    elements
        .into_iter()
        .map(|e| match e {
            Expr::StringLiteral(s) => Some(s.value.to_str().to_string()),
            _ => None,
        })
        .collect()
}

/// A plain Python identifier (a submodule's name).
pub(super) fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
}
