//! Module-level registries a registration function fills (issue 40, item
//! 12): `_TOOLS = {}` with `def register(fn): _TOOLS[fn.__name__] = fn;
//! return fn` (a plain decorator) or `def register(key): def deco(fn):
//! _TOOLS[key] = fn; return fn; return deco` (a decorator factory).
//!
//! This module reads one module's syntax only: whether a dict is such a
//! registry — every use of its name in the module is the one store in a
//! registration function, a `.values()` call or a read by a literal key —
//! and what keys its registration functions store under. Where the
//! registrations are, and whether they run before a read, is the graph's
//! question (`graph/build/eval/registries.rs`).
//!
//! A registration function qualifies when it is a module-level `def`
//! (undecorated, not under a condition), its store is a statement of its
//! own body (not under an `if`, a loop or a `try`), it stores its first
//! parameter unchanged and returns it as its last statement, with no other
//! `return`, and never rebinds it: then every application stores exactly
//! the object it is given, and hands it back unchanged. A factory
//! qualifies when its body defines that function once and returns it as
//! its last statement, with no other `return`.

use super::facts::{Registrar, RegistryFact, RegistryKey};
use super::lines::LineIndex;
use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;

/// The registries of a module, in source order.
pub(super) fn read(suite: &[Stmt], lines: &LineIndex) -> Vec<RegistryFact> {
    let mut found = Vec::new();
    for stmt in suite {
        let (target, value) = match stmt {
            Stmt::Assign(assign) => match assign.targets.as_slice() {
                [target] => (target, assign.value.as_ref()),
                _ => continue,
            },
            Stmt::AnnAssign(assign) => match &assign.value {
                Some(value) => (assign.target.as_ref(), value.as_ref()),
                None => continue,
            },
            _ => continue,
        };
        let Expr::Name(name) = target else {
            continue;
        };
        if !is_empty_dict(value) {
            continue;
        }
        if let Some(registry) = registry(suite, name, lines) {
            found.push(registry);
        }
    }
    found
}

/// `{}` or `dict()`.
fn is_empty_dict(value: &Expr) -> bool {
    match value {
        Expr::Dict(dict) => dict.items.is_empty(),
        Expr::Call(call) => {
            matches!(call.func.as_ref(), Expr::Name(n) if n.id.as_str() == "dict")
                && call.arguments.args.is_empty()
                && call.arguments.keywords.is_empty()
        }
        _ => false,
    }
}

/// The registry `binding` makes, when every use of its name qualifies.
fn registry(suite: &[Stmt], binding: &ast::ExprName, lines: &LineIndex) -> Option<RegistryFact> {
    let name = binding.id.as_str();
    let mut uses = Uses {
        name,
        binding: binding as *const ast::ExprName,
        stack: Vec::new(),
        stores: Vec::new(),
        readers: Vec::new(),
        other: false,
    };
    for stmt in suite {
        uses.visit_stmt(stmt);
    }
    if uses.other || uses.stores.is_empty() {
        return None;
    }
    let mut registrars = Vec::new();
    for store in &uses.stores {
        registrars.push(registrar(suite, store)?);
    }
    let mut readers: Vec<String> = uses.readers;
    readers.sort();
    readers.dedup();
    Some(RegistryFact {
        name: name.into(),
        line: lines.line(binding.start()),
        registrars,
        readers: readers.into_iter().map(Into::into).collect(),
    })
}

/// One `NAME[key] = value` statement, with the functions it is written in
/// (outermost first).
struct Store<'a> {
    functions: Vec<&'a ast::StmtFunctionDef>,
    statement: &'a ast::StmtAssign,
    key: &'a Expr,
    value: &'a Expr,
}

/// Every use of the registry's name in its module, sorted into what
/// qualifies and what does not.
struct Uses<'a, 'n> {
    name: &'n str,
    /// The binding's own target (not a use).
    binding: *const ast::ExprName,
    stack: Vec<&'a ast::StmtFunctionDef>,
    stores: Vec<Store<'a>>,
    /// The qualified names of the functions that read it (`.values()`, a
    /// literal key), empty for a module-level read.
    readers: Vec<String>,
    other: bool,
}

impl Uses<'_, '_> {
    fn is_name(&self, expr: &Expr) -> bool {
        matches!(expr, Expr::Name(n) if n.id.as_str() == self.name)
    }

    fn reader(&mut self) {
        let qualname: Vec<&str> = self.stack.iter().map(|f| f.name.id.as_str()).collect();
        self.readers.push(qualname.join("."));
    }
}

impl<'a> Visitor<'a> for Uses<'a, '_> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::FunctionDef(def) => {
                for decorator in &def.decorator_list {
                    self.visit_expr(&decorator.expression);
                }
                self.stack.push(def);
                for stmt in &def.body {
                    self.visit_stmt(stmt);
                }
                self.stack.pop();
                return;
            }
            Stmt::ClassDef(_) => {
                // A class body is its own scope: any use there is other.
                let mut inner = Uses {
                    name: self.name,
                    binding: self.binding,
                    stack: Vec::new(),
                    stores: Vec::new(),
                    readers: Vec::new(),
                    other: false,
                };
                visitor::walk_stmt(&mut inner, stmt);
                self.other |= inner.other || !inner.stores.is_empty() || !inner.readers.is_empty();
                return;
            }
            Stmt::Assign(assign) => {
                if let [Expr::Subscript(subscript)] = assign.targets.as_slice() {
                    if self.is_name(&subscript.value) && !self.stack.is_empty() {
                        self.stores.push(Store {
                            functions: self.stack.clone(),
                            statement: assign,
                            key: &subscript.slice,
                            value: &assign.value,
                        });
                        self.visit_expr(&subscript.slice);
                        self.visit_expr(&assign.value);
                        return;
                    }
                }
            }
            Stmt::Global(ast::StmtGlobal { names, .. })
            | Stmt::Nonlocal(ast::StmtNonlocal { names, .. }) => {
                self.other |= names.iter().any(|n| n.id.as_str() == self.name);
            }
            _ => {}
        }
        visitor::walk_stmt(self, stmt);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        match expr {
            // `NAME.values()`
            Expr::Call(call)
                if call.arguments.args.is_empty()
                    && call.arguments.keywords.is_empty()
                    && matches!(call.func.as_ref(), Expr::Attribute(a)
                        if a.attr.id.as_str() == "values" && self.is_name(&a.value)) =>
            {
                self.reader();
            }
            // `NAME["key"]`, read.
            Expr::Subscript(subscript)
                if subscript.ctx.is_load()
                    && self.is_name(&subscript.value)
                    && matches!(subscript.slice.as_ref(), Expr::StringLiteral(_)) =>
            {
                self.reader();
            }
            Expr::Name(name) if name.id.as_str() == self.name => {
                if !std::ptr::eq(name, self.binding) {
                    self.other = true;
                }
            }
            _ => visitor::walk_expr(self, expr),
        }
    }
}

/// The registration function a store is written in, when it qualifies.
fn registrar(suite: &[Stmt], store: &Store<'_>) -> Option<Registrar> {
    let (outer, inner) = match store.functions.as_slice() {
        [function] => (*function, None),
        [factory, function] => (*factory, Some(*function)),
        _ => return None,
    };
    // A module-level, undecorated `def`, not under a condition.
    let at_top = suite
        .iter()
        .any(|s| matches!(s, Stmt::FunctionDef(def) if std::ptr::eq(def, outer)));
    if !at_top || !outer.decorator_list.is_empty() || outer.is_async {
        return None;
    }
    let function = inner.unwrap_or(outer);
    let stored = stores_and_returns_its_argument(function, store)?;
    let key = match store.key {
        Expr::StringLiteral(literal) => RegistryKey::Literal(literal.value.to_str().into()),
        Expr::Attribute(attribute)
            if attribute.attr.id.as_str() == "__name__"
                && matches!(attribute.value.as_ref(), Expr::Name(n) if n.id.as_str() == stored) =>
        {
            RegistryKey::DefName
        }
        Expr::Name(key) => {
            let factory = inner.map(|_| outer)?;
            let index = positional(factory)
                .iter()
                .position(|p| *p == key.id.as_str())?;
            if super::rebinding::binds_in(&factory.body, key.id.as_str()) {
                return None;
            }
            RegistryKey::FactoryArgument(u32::try_from(index).ok()?)
        }
        _ => return None,
    };
    // The object is only stored and returned (its name read as the key):
    // nothing else reads or changes it (`fn.__doc__ = …`), so the
    // registration is no part of what the definition is.
    let key_reads = usize::from(key == RegistryKey::DefName);
    if loads(&function.body, stored) != 2 + key_reads {
        return None;
    }
    if let Some(function) = inner {
        // The factory defines the decorator once and returns it, last.
        let defines = outer
            .body
            .iter()
            .filter(|s| matches!(s, Stmt::FunctionDef(def) if def.name.id == function.name.id))
            .count();
        let returns_it = matches!(outer.body.last(), Some(Stmt::Return(ast::StmtReturn { value: Some(v), .. }))
            if matches!(v.as_ref(), Expr::Name(n) if n.id == function.name.id));
        let direct = outer
            .body
            .iter()
            .any(|s| matches!(s, Stmt::FunctionDef(def) if std::ptr::eq(def, function)));
        if defines != 1
            || !direct
            || !returns_it
            || !returns_once(&outer.body)
            || !function.decorator_list.is_empty()
            || function.is_async
        {
            return None;
        }
    }
    Some(Registrar {
        function: outer.name.id.as_str().into(),
        factory: inner.is_some(),
        key,
    })
}

/// The first parameter's name, when `function` stores it unchanged as a
/// statement of its own body, returns it as its last statement (its only
/// `return`) and never rebinds it.
fn stores_and_returns_its_argument<'f>(
    function: &'f ast::StmtFunctionDef,
    store: &Store<'_>,
) -> Option<&'f str> {
    let first = *positional(function).first()?;
    let direct = function
        .body
        .iter()
        .any(|s| matches!(s, Stmt::Assign(a) if std::ptr::eq(a, store.statement)));
    let stores_it = matches!(store.value, Expr::Name(n) if n.id.as_str() == first);
    let returns_it = matches!(function.body.last(), Some(Stmt::Return(ast::StmtReturn { value: Some(v), .. }))
        if matches!(v.as_ref(), Expr::Name(n) if n.id.as_str() == first));
    (direct
        && stores_it
        && returns_it
        && returns_once(&function.body)
        && !super::rebinding::binds_in(&function.body, first))
    .then_some(first)
}

/// The positional parameters of a function, in order.
fn positional(function: &ast::StmtFunctionDef) -> Vec<&str> {
    function
        .parameters
        .posonlyargs
        .iter()
        .chain(function.parameters.args.iter())
        .map(|p| p.parameter.name.id.as_str())
        .collect()
}

/// Whether a body returns from exactly one place (nested definitions
/// aside) and is no generator (a `yield` makes the call return a
/// generator, never the value of that `return`).
fn returns_once(body: &[Stmt]) -> bool {
    #[derive(Default)]
    struct Count {
        returns: usize,
        yields: bool,
    }
    impl<'a> Visitor<'a> for Count {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            match stmt {
                Stmt::Return(_) => self.returns += 1,
                Stmt::FunctionDef(_) | Stmt::ClassDef(_) => return,
                _ => {}
            }
            visitor::walk_stmt(self, stmt);
        }
        fn visit_expr(&mut self, expr: &'a Expr) {
            self.yields |= matches!(expr, Expr::Yield(_) | Expr::YieldFrom(_));
            visitor::walk_expr(self, expr);
        }
    }
    let mut count = Count::default();
    for stmt in body {
        count.visit_stmt(stmt);
    }
    count.returns == 1 && !count.yields
}

/// How many times a body reads `name` (nested definitions included).
fn loads(body: &[Stmt], name: &str) -> usize {
    struct Loads<'n> {
        name: &'n str,
        count: usize,
    }
    impl<'a> Visitor<'a> for Loads<'_> {
        fn visit_expr(&mut self, expr: &'a Expr) {
            if let Expr::Name(n) = expr {
                self.count += usize::from(n.ctx.is_load() && n.id.as_str() == self.name);
            }
            visitor::walk_expr(self, expr);
        }
    }
    let mut loads = Loads { name, count: 0 };
    for stmt in body {
        loads.visit_stmt(stmt);
    }
    loads.count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::python::Text;

    fn registries(source: &str) -> Vec<RegistryFact> {
        let parsed = ruff_python_parser::parse_module(source).expect("fixture parses");
        let lines = LineIndex::new(source);
        read(parsed.suite(), &lines)
    }

    const PLAIN: &str = "_TOOLS = {}\n\n\ndef register(fn):\n    logger.info('registering')\n    _TOOLS[fn.__name__] = fn\n    return fn\n\n\ndef all_tools():\n    return list(_TOOLS.values())\n";
    const FACTORY: &str = "_TOOLS: dict = {}\n\n\ndef register(key):\n    def decorator(fn):\n        _TOOLS[key] = fn\n        return fn\n    return decorator\n";

    #[test]
    fn a_dict_only_a_registration_function_fills_is_a_registry() {
        let [plain] = registries(PLAIN).try_into().expect("one registry");
        assert_eq!(plain.name, "_TOOLS");
        assert_eq!(plain.line, 1);
        assert_eq!(
            plain.registrars,
            vec![Registrar {
                function: "register".into(),
                factory: false,
                key: RegistryKey::DefName,
            }]
        );
        assert_eq!(plain.readers, vec![Text::from("all_tools")]);
        let [factory] = registries(FACTORY).try_into().expect("one registry");
        assert_eq!(
            factory.registrars,
            vec![Registrar {
                function: "register".into(),
                factory: true,
                key: RegistryKey::FactoryArgument(0),
            }]
        );
    }

    #[test]
    fn a_dict_used_otherwise_or_filled_otherwise_is_not() {
        for edge in [
            // Changed other than by the registration.
            format!("{PLAIN}_TOOLS.clear()\n"),
            format!("{PLAIN}_TOOLS = {{}}\n"),
            format!("{PLAIN}def drop(name):\n    del _TOOLS[name]\n"),
            format!("{PLAIN}def spill():\n    return _TOOLS\n"),
            // A store under a condition, or of something else.
            PLAIN.replace(
                "    _TOOLS[fn.__name__] = fn\n",
                "    if fn:\n        _TOOLS[fn.__name__] = fn\n",
            ),
            PLAIN.replace("_TOOLS[fn.__name__] = fn", "_TOOLS[fn.__name__] = wrap(fn)"),
            // The argument rebound, or not what is returned.
            PLAIN.replace("    logger.info('registering')\n", "    fn = wrap(fn)\n"),
            PLAIN.replace(
                "    return fn\n\n\ndef all",
                "    return wrap(fn)\n\n\ndef all",
            ),
            // A computed key.
            PLAIN.replace("_TOOLS[fn.__name__]", "_TOOLS[fn.__name__.lower()]"),
            // The object changed as it is registered.
            PLAIN.replace(
                "    logger.info('registering')\n",
                "    fn.__doc__ = 'Registered.'\n",
            ),
            // A store at module level.
            format!("{PLAIN}_TOOLS['x'] = print\n"),
            // A factory that returns early.
            FACTORY.replace(
                "    return decorator\n",
                "    if key:\n        return None\n    return decorator\n",
            ),
        ] {
            assert_eq!(registries(&edge), Vec::new(), "{edge}");
        }
    }
}
