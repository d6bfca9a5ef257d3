//! One pass over a parsed module, collecting `ModuleFacts`.
//!
//! Here: the entry (`extract_facts`) and the `Collector`'s scope state:
//! where a statement is, what encloses it, the bindings it makes. The
//! walk itself is `visit.rs`; the facts it records are `records.rs` and
//! `read_only.rs`; `values.rs` models an expression as a bounded `Value`.

use super::facts::*;
use super::lines::LineIndex;
use ruff_python_ast::visitor::Visitor;
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;
use sha2::{Digest, Sha256};

mod literal_loops;
mod read_only;
mod records;
mod values;
mod visit;
use values::value_of;

/// Reads one module's bytes into facts. Never fails: bytes that are not
/// UTF-8 or do not parse give facts with `syntax_error` set.
pub fn extract_facts(bytes: &[u8]) -> ModuleFacts {
    let source_sha256 = format!("{:x}", Sha256::digest(bytes));
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let source = match std::str::from_utf8(bytes) {
        Ok(source) => source,
        Err(err) => {
            return ModuleFacts {
                syntax_error: Some(SyntaxErrorFact {
                    message: format!("source is not UTF-8: {err}"),
                    line: 0,
                    kind: UnreadKind::Syntax,
                }),
                source_sha256,
                ..ModuleFacts::default()
            }
        }
    };
    // CPython reads `\r\n` and `\r` as `\n` before tokenizing; string
    // constants (and so digests) must see the same text.
    let source = super::ast_dump::normalize_newlines(source);
    let lines = LineIndex::new(&source);
    // Bound the work before any tree exists: a hostile nesting is named,
    // never parsed (see `nesting.rs`).
    if let Some(too_deep) = super::nesting::check(&source) {
        return ModuleFacts {
            syntax_error: Some(SyntaxErrorFact {
                message: super::nesting::TOO_DEEP.to_string(),
                line: too_deep.line,
                kind: UnreadKind::TooDeep,
            }),
            source_sha256,
            ..ModuleFacts::default()
        };
    }
    let parsed = match ruff_python_parser::parse_module(&source) {
        Ok(parsed) => parsed,
        Err(err) => {
            return ModuleFacts {
                syntax_error: Some(SyntaxErrorFact {
                    message: err.error.to_string(),
                    line: lines.line(err.location.start()),
                    kind: UnreadKind::Syntax,
                }),
                source_sha256,
                ..ModuleFacts::default()
            }
        }
    };
    let mut collector = Collector {
        lines: &lines,
        facts: ModuleFacts {
            source_sha256,
            ..ModuleFacts::default()
        },
        scopes: Vec::new(),
        conditional_depth: 0,
        protected_depth: 0,
        type_checking_depth: 0,
        recorded_call_depth: 0,
        pending_target: None,
        guards: Vec::new(),
        callables: top_level_callables(parsed.suite()),
        loop_extends: Default::default(),
    };
    collector.walk_body(parsed.suite());
    let mut facts = collector.facts;
    // The count tables were written one occurrence at a time.
    facts.name_uses.settle();
    for function in &mut facts.functions {
        function.lazy_body.get_mut().name_uses.settle();
    }
    for class in &mut facts.classes {
        class.attribute_names.settle();
        class.self_reads.shrink_to_fit();
    }
    facts.shrink_to_fit();
    // Read against the whole module: what the package binds and stores.
    facts.getattr_hook = super::getattr_hook::read(parsed.suite(), &facts, &lines);
    facts.registries = super::registries::read(parsed.suite(), &lines);
    // Last: each body is encoded, and decoded again only where it is read.
    let imports = super::function_body::ImportsByName::of(&facts.imports);
    for function in &mut facts.functions {
        function.seal_body(&imports);
    }
    facts
}

/// An enclosing definition while its body is walked.
struct ScopeFrame {
    name: String,
    /// Index into `facts.functions` for a function; `None` for a class.
    function: Option<usize>,
    /// Index into `facts.classes` for a class body.
    class: Option<usize>,
    /// `conditional_depth` when the body was entered: deeper is conditional
    /// within this scope.
    entry_depth: usize,
    /// `protected_depth` when the body was entered.
    entry_protected: usize,
    /// The guards around the definition, restored when it is left: a
    /// body's calls are guarded by its own statements only.
    outer_guards: Vec<Option<Condition>>,
}

struct Collector<'a> {
    lines: &'a LineIndex,
    facts: ModuleFacts,
    scopes: Vec<ScopeFrame>,
    /// How many compound statements enclose the current one.
    conditional_depth: usize,
    /// How many `try` and `with` statements enclose the current one.
    protected_depth: usize,
    /// How many `if TYPE_CHECKING:` bodies enclose the current statement.
    type_checking_depth: usize,
    /// How many calls recorded as `CallFact`s (constructions, the module's
    /// own functions) enclose the current expression: their arguments are
    /// the value model's to read, so no `SelfRead` is taken there (a
    /// descriptive keyword's read would count twice).
    recorded_call_depth: usize,
    /// The call expression whose value the current assignment binds, and the
    /// target's spelling.
    pending_target: Option<(*const Expr, String)>,
    /// The tests the current statement runs under within its scope; `None`
    /// for a loop, handler or case.
    guards: Vec<Option<Condition>>,
    /// Names the module defines or imports by name at top level: calls to
    /// them are kept, so a builder's callers can all be found.
    callables: std::collections::HashSet<String>,
    /// The appends of a loop over a literal sequence that are its
    /// `extend` (`literal_loops.rs`), with where the loop itself stands.
    loop_extends: std::collections::HashMap<*const ast::ExprCall, LoopExtend>,
}

/// A loop's `append` read as one `extend` of its literal sequence, placed
/// where the loop statement is (its condition, guard and protection).
struct LoopExtend {
    sequence: Value,
    conditional: bool,
    guard: Option<Vec<Condition>>,
    protected: bool,
}

impl Collector<'_> {
    fn line_of(&self, node: &impl Ranged) -> u32 {
        self.lines.line(node.start())
    }

    fn scope_name(&self) -> String {
        let names: Vec<&str> = self.scopes.iter().map(|f| f.name.as_str()).collect();
        names.join(".")
    }

    fn at_module_level(&self) -> bool {
        self.scopes.is_empty()
    }

    /// Whether the current statement is conditional within its own scope.
    fn conditional(&self) -> bool {
        let entry = self.scopes.last().map_or(0, |f| f.entry_depth);
        self.conditional_depth > entry
    }

    /// Inside a `try` or `with` of the current scope.
    fn protected(&self) -> bool {
        let entry = self.scopes.last().map_or(0, |f| f.entry_protected);
        self.protected_depth > entry
    }

    /// The innermost function the walk is in, through class bodies.
    fn enclosing_function(&mut self) -> Option<&mut FunctionFact> {
        let index = self.scopes.iter().rev().find_map(|f| f.function)?;
        self.facts.functions.get_mut(index)
    }

    /// The qualified name of the innermost function the walk is in
    /// (empty: none).
    fn function_scope(&self) -> String {
        self.scopes
            .iter()
            .rev()
            .find_map(|f| f.function)
            .and_then(|index| self.facts.functions.get(index))
            .map_or(String::new(), |f| f.qualname.to_string())
    }

    fn current_function(&mut self) -> Option<&mut FunctionFact> {
        match self.scopes.last() {
            Some(ScopeFrame {
                function: Some(index),
                ..
            }) => self.facts.functions.get_mut(*index),
            _ => None,
        }
    }

    fn bind_value(&mut self, name: &str, kind: BindingKind, line: u32, value: Option<Value>) {
        let fact = BindingFact {
            name: name.to_string().into(),
            kind,
            line,
            conditional: self.conditional(),
            type_checking: self.type_checking_depth > 0,
            value,
            guard: self.guard(),
        };
        if self.at_module_level() {
            self.facts.module_bindings.push(fact);
        } else if let Some(function) = self.current_function() {
            function.lazy_body.get_mut().locals.push(fact);
        } else if let Some(class) = self
            .scopes
            .last()
            .and_then(|frame| frame.class)
            .and_then(|index| self.facts.classes.get_mut(index))
        {
            // Class bodies bind attributes, not names a reference can
            // reach: kept on the class.
            class.attributes.push(fact);
        }
    }

    fn bind(&mut self, name: &str, kind: BindingKind, line: u32) {
        self.bind_value(name, kind, line, None);
    }

    /// `with EXPR as name`: the name, with `EXPR` as its value; any other
    /// target shape binds its names without one.
    fn bind_with_item(&mut self, item: &ast::WithItem) {
        match item.optional_vars.as_deref() {
            Some(Expr::Name(name)) => {
                let line = self.line_of(name);
                self.bind_value(
                    name.id.as_str(),
                    BindingKind::With,
                    line,
                    Some(value_of(&item.context_expr, 0)),
                );
            }
            Some(other) => self.bind_target(other, BindingKind::Other),
            None => {}
        }
    }

    fn bind_target(&mut self, target: &Expr, kind: BindingKind) {
        match target {
            Expr::Name(name) => {
                let line = self.line_of(name);
                self.bind(name.id.as_str(), kind, line);
            }
            Expr::Tuple(ast::ExprTuple { elts, .. }) | Expr::List(ast::ExprList { elts, .. }) => {
                for elt in elts {
                    self.bind_target(elt, BindingKind::Other);
                }
            }
            Expr::Starred(starred) => self.bind_target(&starred.value, BindingKind::Other),
            Expr::Attribute(_) => self.record_attribute_store(target, StoreKind::Assignment),
            Expr::Subscript(subscript) => {
                self.record_attribute_store(&subscript.value, StoreKind::ItemAssignment)
            }
            _ => {}
        }
    }

    fn walk_body(&mut self, body: &[Stmt]) {
        for stmt in body {
            self.visit_stmt(stmt);
        }
    }

    fn enter(&mut self, name: String, function: Option<usize>) {
        let entry_depth = self.conditional_depth;
        let outer_guards = std::mem::take(&mut self.guards);
        self.scopes.push(ScopeFrame {
            name,
            function,
            class: None,
            entry_depth,
            entry_protected: self.protected_depth,
            outer_guards,
        });
    }

    fn leave(&mut self) {
        if let Some(frame) = self.scopes.pop() {
            self.guards = frame.outer_guards;
        }
    }

    /// The current statement's guard, for a call fact.
    fn guard(&self) -> Option<Vec<Condition>> {
        self.guards.iter().cloned().collect()
    }

    fn walk_guarded(&mut self, guards: Vec<Option<Condition>>, body: &'_ [Stmt]) {
        let before = self.guards.len();
        self.guards.extend(guards);
        self.walk_body(body);
        self.guards.truncate(before);
    }
}

/// Names bound at the module's top level by a `def` or a `from … import`:
/// what a builder's caller can call by a plain name.
fn top_level_callables(suite: &[Stmt]) -> std::collections::HashSet<String> {
    let mut names = std::collections::HashSet::new();
    for stmt in suite {
        match stmt {
            Stmt::FunctionDef(def) => {
                names.insert(def.name.id.to_string());
            }
            Stmt::ImportFrom(import) => {
                for alias in &import.names {
                    let bound = alias.asname.as_ref().unwrap_or(&alias.name);
                    names.insert(bound.id.to_string());
                }
            }
            _ => {}
        }
    }
    names
}

#[cfg(test)]
mod tests;
