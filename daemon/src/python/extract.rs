//! One pass over a parsed module, collecting `ModuleFacts`.

use super::facts::*;
use super::lines::LineIndex;
use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;
use sha2::{Digest, Sha256};

/// How deep an expression is modelled; deeper parts become `Value::Other`.
const MAX_VALUE_DEPTH: usize = 16;
/// How many members of one literal list are modelled.
const MAX_LIST_MEMBERS: usize = 1000;

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
        type_checking_depth: 0,
        pending_target: None,
        guards: Vec::new(),
        callables: top_level_callables(parsed.suite()),
    };
    collector.walk_body(parsed.suite());
    let mut facts = collector.facts;
    // Read against the whole module: what the package binds and stores.
    facts.getattr_hook = super::getattr_hook::read(parsed.suite(), &facts, &lines);
    facts
}

/// An enclosing definition while its body is walked.
struct ScopeFrame {
    name: String,
    /// Index into `facts.functions` for a function; `None` for a class.
    function: Option<usize>,
    /// `conditional_depth` when the body was entered: deeper is conditional
    /// within this scope.
    entry_depth: usize,
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
    /// How many `if TYPE_CHECKING:` bodies enclose the current statement.
    type_checking_depth: usize,
    /// The call expression whose value the current assignment binds, and the
    /// target's spelling.
    pending_target: Option<(*const Expr, String)>,
    /// The tests the current statement runs under within its scope; `None`
    /// for a loop, handler or case.
    guards: Vec<Option<Condition>>,
    /// Names the module defines or imports by name at top level: calls to
    /// them are kept, so a builder's callers can all be found.
    callables: std::collections::HashSet<String>,
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
            name: name.to_string(),
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
            function.locals.push(fact);
        }
        // Class bodies bind attributes, not names a reference can reach.
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

    /// Records a write into `a.b` (with a plain-name base), or into the
    /// object a plain name holds.
    fn record_attribute_store(&mut self, target: &Expr, how: StoreKind) {
        let parts = match value_of(target, 0) {
            Value::Attribute(parts) => Some(parts),
            // `t[0] = x`, `t.append(x)`: a write into the object `t` names.
            Value::Name(name) if !matches!(how, StoreKind::Assignment | StoreKind::Setattr) => {
                Some(vec![name])
            }
            _ => None,
        };
        if let Some(parts) = parts {
            let line = self.line_of(target);
            let scope = self.scope_name();
            self.facts.attribute_stores.push(AttributeStore {
                target: parts,
                line,
                scope,
                how,
            });
        }
    }

    /// Records `object.name = value` and `object[key] = value` in a
    /// function's body, with the value, when the object is a name or a
    /// dotted path: what a request body or a client holds after it is built.
    fn record_value_store(&mut self, target: &Expr, value: &Expr) {
        let (object, under) = match target {
            Expr::Attribute(attr) => (
                value_of(&attr.value, 0),
                StoredUnder::Attribute(attr.attr.id.to_string()),
            ),
            Expr::Subscript(subscript) => (
                value_of(&subscript.value, 0),
                StoredUnder::Key(value_of(&subscript.slice, 0)),
            ),
            _ => return,
        };
        let object = match object {
            Value::Name(name) => vec![name],
            Value::Attribute(parts) => parts,
            _ => return,
        };
        let line = self.line_of(target);
        let value = value_of(value, 0);
        let store = ValueStore {
            object,
            under,
            value,
            line,
        };
        if self.at_module_level() {
            self.facts.module_stores.push(store);
        } else if let Some(function) = self.current_function() {
            function.stores.push(store);
        }
    }

    /// Records `for name in iterable` (a statement's or a comprehension's)
    /// in a function's body, when the target is a plain name.
    fn record_loop(&mut self, target: &Expr, iterable: &Expr, comprehension: bool) {
        let Expr::Name(name) = target else {
            return;
        };
        let target = LoopTarget {
            name: name.id.to_string(),
            iterable: value_of(iterable, 0),
            line: self.line_of(name),
            comprehension,
        };
        if let Some(function) = self.current_function() {
            function.loops.push(target);
        }
    }

    /// Records `importlib.import_module("a.b")` (or `import_module(...)`)
    /// with a literal, absolute name.
    fn record_dynamic_import(&mut self, call: &ast::ExprCall) {
        let named = match call.func.as_ref() {
            Expr::Attribute(attr) => {
                attr.attr.id.as_str() == "import_module"
                    && matches!(attr.value.as_ref(), Expr::Name(n) if n.id.as_str() == "importlib")
            }
            Expr::Name(name) => name.id.as_str() == "import_module",
            _ => false,
        };
        if !named || call.arguments.args.len() != 1 || !call.arguments.keywords.is_empty() {
            return;
        }
        if let Some(Expr::StringLiteral(module)) = call.arguments.args.first() {
            let module = module.value.to_str();
            if !module.starts_with('.') && !module.is_empty() {
                self.facts.dynamic_imports.push(module.to_string());
            }
        }
    }

    /// Records `a.b.append(x)` and the other in-place list changes.
    fn record_mutating_call(&mut self, call: &ast::ExprCall) {
        const MUTATORS: &[&str] = &[
            "append", "extend", "insert", "remove", "pop", "clear", "sort", "reverse",
        ];
        let Expr::Attribute(method) = call.func.as_ref() else {
            return;
        };
        if let (Some(target), "append" | "extend" | "insert") =
            (list_target(&method.value), method.attr.id.as_str())
        {
            let added = match (method.attr.id.as_str(), call.arguments.args.as_ref()) {
                ("insert", [_, value]) | ("append" | "extend", [value]) => Some(value),
                _ => None,
            };
            if let Some(value) = added.filter(|_| call.arguments.keywords.is_empty()) {
                let addition = ListAddition {
                    target,
                    how: method.attr.id.to_string(),
                    value: value_of(value, 0),
                    line: self.line_of(call),
                    scope: self.scope_name(),
                    conditional: self.conditional(),
                };
                self.facts.list_additions.push(addition);
            }
        }
        if MUTATORS.contains(&method.attr.id.as_str())
            && matches!(method.value.as_ref(), Expr::Attribute(_) | Expr::Name(_))
        {
            self.record_attribute_store(
                &method.value,
                StoreKind::MethodCall(method.attr.id.to_string()),
            );
        }
    }

    /// Records `setattr(obj, "name", value)` as a store into `obj`.
    /// A call in a function's own body, for what the function reaches.
    fn record_body_call(&mut self, call: &ast::ExprCall) {
        let line = self.line_of(call);
        let at_module = self.at_module_level();
        if self.current_function().is_none() && !at_module {
            return;
        }
        let receiver = match call.func.as_ref() {
            Expr::Attribute(attr) => match value_of(&attr.value, 0) {
                Value::Name(_) | Value::Attribute(_) => None,
                other => Some((other, attr.attr.id.to_string())),
            },
            _ => None,
        };
        let chain = match call.func.as_ref() {
            Expr::Attribute(attr) => method_chain(&attr.value),
            _ => None,
        };
        let fact = BodyCall {
            callee: value_of(&call.func, 0),
            receiver,
            chain,
            args: call.arguments.args.iter().map(|a| value_of(a, 0)).collect(),
            keywords: call
                .arguments
                .keywords
                .iter()
                .map(|k| {
                    (
                        k.arg.as_ref().map(|a| a.id.to_string()),
                        value_of(&k.value, 0),
                    )
                })
                .collect(),
            line,
        };
        match self.current_function() {
            Some(function) => function.body_calls.push(fact),
            None => self.facts.module_calls.push(fact),
        }
    }

    fn record_setattr(&mut self, call: &ast::ExprCall) {
        let is_setattr =
            matches!(call.func.as_ref(), Expr::Name(name) if name.id.as_str() == "setattr");
        let Some(object) = call.arguments.args.first().filter(|_| is_setattr) else {
            return;
        };
        let mut target = match value_of(object, 0) {
            Value::Name(name) => vec![name],
            Value::Attribute(parts) => parts,
            _ => return,
        };
        target.push(match call.arguments.args.get(1) {
            Some(Expr::StringLiteral(name)) => name.value.to_str().to_string(),
            _ => "*".to_string(),
        });
        let line = self.line_of(call);
        let scope = self.scope_name();
        self.facts.attribute_stores.push(AttributeStore {
            target,
            line,
            scope,
            how: StoreKind::Setattr,
        });
    }

    fn record_function(&mut self, def: &ast::StmtFunctionDef) -> usize {
        let name = def.name.id.to_string();
        let line = self.line_of(&def.name);
        self.bind(&name, BindingKind::Function, line);
        let mut qualname: Vec<&str> = self.scopes.iter().map(|f| f.name.as_str()).collect();
        qualname.push(&name);
        let params = parameters(&def.parameters);
        let locals = params
            .iter()
            .map(|p| BindingFact {
                name: p.name.clone(),
                kind: BindingKind::Parameter,
                line,
                conditional: false,
                type_checking: false,
                value: None,
                guard: Some(Vec::new()),
            })
            .collect();
        let fact = FunctionFact {
            qualname: qualname.join("."),
            name,
            line,
            is_async: def.is_async,
            module_level: self.at_module_level(),
            decorators: def
                .decorator_list
                .iter()
                .map(|d| value_of(&d.expression, 0))
                .collect(),
            params,
            returns: def.returns.as_deref().map(|r| value_of(r, 0)),
            implementation_sha256: super::ast_dump::implementation_sha256(def),
            locals,
            nonlocals: Vec::new(),
            globals: Vec::new(),
            returns_found: Vec::new(),
            ends_with_return: matches!(def.body.last(), Some(Stmt::Return(_))),
            is_generator: false,
            body_calls: Vec::new(),
            stores: Vec::new(),
            loops: Vec::new(),
        };
        self.facts.functions.push(fact);
        self.facts.functions.len() - 1
    }

    fn record_import(&mut self, module: &str, level: u32, alias: &ast::Alias, from: bool) {
        let fact = ImportFact {
            module: module.to_string(),
            level,
            name: from.then(|| alias.name.id.to_string()),
            asname: alias.asname.as_ref().map(|a| a.id.to_string()),
            line: self.line_of(alias),
            scope: self.scope_name(),
            conditional: self.conditional(),
            type_checking: self.type_checking_depth > 0,
        };
        let bound = fact.bound_name().to_string();
        let line = fact.line;
        self.facts.imports.push(fact);
        self.bind(&bound, BindingKind::Import, line);
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
            entry_depth,
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

    /// `if`: the body of `if TYPE_CHECKING:` never runs; every branch is
    /// conditional.
    /// Uses of names inside `expr` that only read what the name holds,
    /// as `ReadOnlyUse` describes. Each is one `Expr::Name` load that
    /// `name_uses` also counts, recorded once, where its parent is seen.
    fn record_read_only_uses(&mut self, expr: &Expr) {
        let mut found: Vec<ReadOnlyUse> = Vec::new();
        let mut truth_tests: Vec<&Expr> = Vec::new();
        let mut read = |name: &ast::ExprName, via: Option<&str>| {
            found.push(ReadOnlyUse {
                name: name.id.to_string(),
                via: via.map(str::to_string),
            });
        };
        match expr {
            Expr::Call(call) => {
                if let Expr::Name(callee) = call.func.as_ref() {
                    if READ_ONLY_BUILTINS.contains(&callee.id.as_str()) {
                        for arg in &call.arguments.args {
                            if let Expr::Name(name) = arg {
                                read(name, Some(callee.id.as_str()));
                            }
                        }
                    }
                }
            }
            Expr::Compare(compare) => {
                for (op, comparator) in compare.ops.iter().zip(compare.comparators.iter()) {
                    if let (ast::CmpOp::In | ast::CmpOp::NotIn, Expr::Name(name)) = (op, comparator)
                    {
                        read(name, None);
                    }
                }
            }
            Expr::UnaryOp(unary) if unary.op == ast::UnaryOp::Not => {
                if let Expr::Name(name) = unary.operand.as_ref() {
                    read(name, None);
                }
            }
            Expr::FString(fstring) => {
                for element in fstring.value.elements() {
                    if let ast::InterpolatedStringElement::Interpolation(field) = element {
                        if let Expr::Name(name) = field.expression.as_ref() {
                            read(name, None);
                        }
                    }
                }
            }
            Expr::If(if_exp) => truth_tests.push(&if_exp.test),
            // Every comprehension only iterates what it reads (a list
            // comprehension's iterable in an agent's list is counted here
            // too, never by the list reader: one use, counted once).
            Expr::ListComp(ast::ExprListComp { generators, .. })
            | Expr::SetComp(ast::ExprSetComp { generators, .. })
            | Expr::DictComp(ast::ExprDictComp { generators, .. })
            | Expr::Generator(ast::ExprGenerator { generators, .. }) => {
                for generator in generators {
                    if let Expr::Name(name) = &generator.iter {
                        read(name, None);
                    }
                    truth_tests.extend(generator.ifs.iter());
                }
            }
            _ => {}
        }
        self.facts.read_only_uses.extend(found);
        for test in truth_tests {
            self.record_truth_tests(test);
        }
    }

    /// A test whose value is only truth-tested (`if x:`, `while x and y:`):
    /// a name there, or an operand of `and`/`or` there, only reads.
    fn record_truth_tests(&mut self, test: &Expr) {
        match test {
            Expr::Name(name) if name.ctx.is_load() => self.facts.read_only_uses.push(ReadOnlyUse {
                name: name.id.to_string(),
                via: None,
            }),
            Expr::BoolOp(bool_op) => {
                for value in &bool_op.values {
                    self.record_truth_tests(value);
                }
            }
            _ => {}
        }
    }

    fn visit_if(&mut self, stmt: &ast::StmtIf) {
        self.record_truth_tests(&stmt.test);
        for clause in &stmt.elif_else_clauses {
            if let Some(test) = &clause.test {
                self.record_truth_tests(test);
            }
        }
        self.visit_expr(&stmt.test);
        let type_checking = usize::from(is_type_checking(&stmt.test));
        self.conditional_depth += 1;
        self.type_checking_depth += type_checking;
        let holds = |test: &Expr, holds: bool| {
            Some(Condition {
                test: value_of(test, 0),
                holds,
            })
        };
        self.walk_guarded(vec![holds(&stmt.test, true)], &stmt.body);
        self.type_checking_depth -= type_checking;
        // A later branch runs when every earlier test fails.
        let mut failed = vec![holds(&stmt.test, false)];
        for clause in &stmt.elif_else_clauses {
            let mut guards = failed.clone();
            if let Some(test) = &clause.test {
                self.visit_expr(test);
                guards.push(holds(test, true));
                failed.push(holds(test, false));
            }
            self.walk_guarded(guards, &clause.body);
        }
        self.conditional_depth -= 1;
    }

    fn visit_class(&mut self, class: &ast::StmtClassDef) {
        let name = class.name.id.to_string();
        let mut qualname: Vec<&str> = self.scopes.iter().map(|f| f.name.as_str()).collect();
        qualname.push(&name);
        let line = self.line_of(&class.name);
        let bases = class
            .arguments
            .as_ref()
            .map(|a| a.args.iter().map(|b| value_of(b, 0)).collect())
            .unwrap_or_default();
        self.facts.classes.push(ClassFact {
            qualname: qualname.join("."),
            name: name.clone(),
            line,
            bases,
        });
        self.bind(&name, BindingKind::Class, line);
        for decorator in &class.decorator_list {
            self.visit_expr(&decorator.expression);
        }
        if let Some(arguments) = &class.arguments {
            for arg in arguments.args.iter() {
                self.visit_expr(arg);
            }
        }
        self.enter(name, None);
        self.walk_body(&class.body);
        self.leave();
    }

    fn visit_assign(&mut self, assign: &ast::StmtAssign) {
        if let [target] = assign.targets.as_slice() {
            if let Some(spelled) = target_spelling(target) {
                self.pending_target = Some((assign.value.as_ref() as *const Expr, spelled));
            }
            if let Expr::Name(name) = target {
                let line = self.line_of(name);
                self.bind_value(
                    name.id.as_str(),
                    BindingKind::Assignment,
                    line,
                    Some(value_of(&assign.value, 0)),
                );
            } else {
                self.bind_target(target, BindingKind::Assignment);
            }
        } else {
            for target in &assign.targets {
                self.bind_target(target, BindingKind::Assignment);
            }
        }
        for target in &assign.targets {
            self.record_value_store(target, &assign.value);
        }
        self.visit_expr(&assign.value);
        // Reads inside targets (`TOOLS[0] = x` reads `TOOLS`) are uses too.
        for target in &assign.targets {
            if !matches!(target, Expr::Name(_)) {
                self.visit_expr(target);
            }
        }
        self.pending_target = None;
    }
}

/// `left op right` for arithmetic other than `+` (and a `|` union).
fn binary(binop: &ast::ExprBinOp, depth: usize) -> Value {
    Value::BinOp {
        left: Box::new(value_of(&binop.left, depth)),
        op: binop.op.as_str().to_string(),
        right: Box::new(value_of(&binop.right, depth)),
    }
}

/// `TYPE_CHECKING` or `typing.TYPE_CHECKING`.
fn is_type_checking(test: &Expr) -> bool {
    match test {
        Expr::Name(name) => name.id.as_str() == "TYPE_CHECKING",
        Expr::Attribute(attr) => attr.attr.id.as_str() == "TYPE_CHECKING",
        _ => false,
    }
}

/// `"a/{}/{name}".format(x, name=y)` as the f-string `a/{x}/{y}`: `None`
/// when the template is not a literal or a field is not plainly named
/// (a spread, an index, an attribute, a missing argument).
fn format_call(call: &ast::ExprCall, depth: usize) -> Option<Value> {
    let Expr::Attribute(attr) = call.func.as_ref() else {
        return None;
    };
    let Expr::StringLiteral(template) = attr.value.as_ref() else {
        return None;
    };
    if attr.attr.id.as_str() != "format" {
        return None;
    }
    if call
        .arguments
        .args
        .iter()
        .any(|a| matches!(a, Expr::Starred(_)))
        || call.arguments.keywords.iter().any(|k| k.arg.is_none())
    {
        return None;
    }
    let template = template.value.to_str();
    let mut parts = Vec::new();
    let mut literal = String::new();
    let mut next_positional = 0usize;
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                literal.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                literal.push('}');
            }
            '{' => {
                let mut field = String::new();
                for f in chars.by_ref() {
                    if f == '}' {
                        break;
                    }
                    field.push(f);
                }
                let name = field.split([':', '!']).next().unwrap_or("");
                let value = if name.is_empty() {
                    let value = call.arguments.args.get(next_positional)?;
                    next_positional += 1;
                    value
                } else if let Ok(index) = name.parse::<usize>() {
                    call.arguments.args.get(index)?
                } else if name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    &call
                        .arguments
                        .keywords
                        .iter()
                        .find(|k| k.arg.as_ref().is_some_and(|a| a.id.as_str() == name))?
                        .value
                } else {
                    return None;
                };
                if !literal.is_empty() {
                    parts.push(Value::Str(std::mem::take(&mut literal)));
                }
                parts.push(value_of(value, depth));
            }
            other => literal.push(other),
        }
    }
    if !literal.is_empty() {
        parts.push(Value::Str(literal));
    }
    Some(Value::FString(parts))
}

/// `"a/%s/%d" % (x, y)` as the f-string `a/{x}/{y}`: only `%s`/`%d`/`%i`/
/// `%r` and `%%`, with as many values as fields.
fn percent_format(binop: &ast::ExprBinOp, depth: usize) -> Option<Value> {
    if binop.op != ast::Operator::Mod {
        return None;
    }
    let Expr::StringLiteral(template) = binop.left.as_ref() else {
        return None;
    };
    let values: Vec<&Expr> = match binop.right.as_ref() {
        Expr::Tuple(tuple) => tuple.elts.iter().collect(),
        Expr::Dict(_) => return None,
        one => vec![one],
    };
    let template = template.value.to_str();
    let mut parts = Vec::new();
    let mut literal = String::new();
    let mut values = values.into_iter();
    let mut chars = template.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            literal.push(c);
            continue;
        }
        match chars.next()? {
            '%' => literal.push('%'),
            's' | 'd' | 'i' | 'r' => {
                if !literal.is_empty() {
                    parts.push(Value::Str(std::mem::take(&mut literal)));
                }
                parts.push(value_of(values.next()?, depth));
            }
            _ => return None,
        }
    }
    if values.next().is_some() {
        return None;
    }
    if !literal.is_empty() {
        parts.push(Value::Str(literal));
    }
    Some(Value::FString(parts))
}

/// `q.strip().lower()` as `(q, [strip, lower])`: a chain of method calls
/// and what it starts from; `None` when the expression is no such chain.
fn method_chain(expr: &Expr) -> Option<(Value, Vec<String>)> {
    let mut methods = Vec::new();
    let mut current = expr;
    while let Expr::Call(call) = current {
        let Expr::Attribute(attr) = call.func.as_ref() else {
            break;
        };
        // `m.f(...)` on a plain name chain is where the chain starts.
        if !matches!(attr.value.as_ref(), Expr::Call(_)) {
            break;
        }
        methods.push(attr.attr.id.to_string());
        current = &attr.value;
        if methods.len() > 16 {
            return None;
        }
    }
    if !matches!(current, Expr::Call(_)) && methods.is_empty() {
        return None;
    }
    methods.reverse();
    Some((value_of(current, 0), methods))
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

/// Whether a call may construct an object worth keeping: a capitalised
/// callee (`Agent(...)`, `agents.Agent(...)`) or one that passes `tools=`.
fn is_construction_like(call: &ast::ExprCall) -> bool {
    let last = match call.func.as_ref() {
        Expr::Name(name) => Some(name.id.as_str()),
        Expr::Attribute(attr) => Some(attr.attr.id.as_str()),
        Expr::Subscript(sub) => match sub.value.as_ref() {
            Expr::Name(name) => Some(name.id.as_str()),
            Expr::Attribute(attr) => Some(attr.attr.id.as_str()),
            _ => None,
        },
        _ => None,
    };
    let capitalised = last
        .and_then(|name| name.chars().next())
        .is_some_and(|c| c.is_ascii_uppercase());
    // Copies can carry an object's capabilities into a new one.
    let copy_like =
        last.is_some_and(|name| matches!(name, "clone" | "replace" | "copy" | "deepcopy"));
    capitalised
        || copy_like
        || call
            .arguments
            .keywords
            .iter()
            .any(|k| k.arg.as_ref().is_some_and(|a| a.id.as_str() == "tools"))
}

impl<'a> Visitor<'a> for Collector<'_> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::FunctionDef(def) => {
                // Decorators, defaults and annotations run in the enclosing scope.
                for decorator in &def.decorator_list {
                    self.visit_expr(&decorator.expression);
                }
                let index = self.record_function(def);
                self.enter(def.name.id.to_string(), Some(index));
                self.walk_body(&def.body);
                self.leave();
            }
            Stmt::ClassDef(class) => self.visit_class(class),
            Stmt::Return(ret) => {
                let fact = ReturnFact {
                    line: self.line_of(ret),
                    value: ret.value.as_deref().map(|v| value_of(v, 0)),
                    conditional: self.conditional(),
                };
                if let Some(function) = self.current_function() {
                    function.returns_found.push(fact);
                }
                visitor::walk_stmt(self, stmt);
            }
            Stmt::Import(import) => {
                for alias in &import.names {
                    self.record_import(alias.name.id.as_str(), 0, alias, false);
                }
            }
            Stmt::ImportFrom(import) => {
                let module = import.module.as_ref().map(|m| m.id.as_str()).unwrap_or("");
                for alias in &import.names {
                    self.record_import(module, import.level, alias, true);
                    // A function that imports a builder itself calls it as
                    // a builder: its calls are kept like the module's.
                    if !self.at_module_level() {
                        let bound = alias.asname.as_ref().unwrap_or(&alias.name);
                        self.callables.insert(bound.id.to_string());
                    }
                }
            }
            Stmt::Assign(assign) => self.visit_assign(assign),
            Stmt::AnnAssign(assign) => {
                if let (Some(value), Some(spelled)) =
                    (&assign.value, target_spelling(&assign.target))
                {
                    self.pending_target = Some((value.as_ref() as *const Expr, spelled));
                }
                if let Some(value) = &assign.value {
                    match assign.target.as_ref() {
                        Expr::Name(name) => {
                            let line = self.line_of(name);
                            self.bind_value(
                                name.id.as_str(),
                                BindingKind::Assignment,
                                line,
                                Some(value_of(value, 0)),
                            );
                        }
                        other => self.bind_target(other, BindingKind::Assignment),
                    }
                }
                visitor::walk_stmt(self, stmt);
                self.pending_target = None;
            }
            Stmt::AugAssign(assign) => {
                if let (Some(target), ast::Operator::Add) = (list_target(&assign.target), assign.op)
                {
                    let addition = ListAddition {
                        target,
                        how: "+=".to_string(),
                        value: value_of(&assign.value, 0),
                        line: self.line_of(assign),
                        scope: self.scope_name(),
                        conditional: self.conditional(),
                    };
                    self.facts.list_additions.push(addition);
                }
                match assign.target.as_ref() {
                    Expr::Attribute(_) => {
                        self.record_attribute_store(&assign.target, StoreKind::AugmentedAssignment)
                    }
                    other => self.bind_target(other, BindingKind::Other),
                }
                visitor::walk_stmt(self, stmt);
            }
            Stmt::Delete(delete) => {
                for target in &delete.targets {
                    match target {
                        Expr::Attribute(_) => {
                            self.record_attribute_store(target, StoreKind::Deletion)
                        }
                        Expr::Subscript(subscript) => {
                            self.record_attribute_store(&subscript.value, StoreKind::Deletion)
                        }
                        _ => {}
                    }
                }
                visitor::walk_stmt(self, stmt);
            }
            Stmt::If(if_stmt) => self.visit_if(if_stmt),
            Stmt::Nonlocal(nonlocal) => {
                let names: Vec<String> = nonlocal.names.iter().map(|n| n.id.to_string()).collect();
                if let Some(function) = self.current_function() {
                    function.nonlocals.extend(names);
                }
            }
            Stmt::Global(global) => {
                let names: Vec<String> = global.names.iter().map(|n| n.id.to_string()).collect();
                if let Some(function) = self.current_function() {
                    function.globals.extend(names);
                }
            }
            Stmt::For(_) | Stmt::While(_) | Stmt::With(_) | Stmt::Try(_) | Stmt::Match(_) => {
                self.conditional_depth += 1;
                if let Stmt::While(while_stmt) = stmt {
                    self.record_truth_tests(&while_stmt.test);
                }
                if let Stmt::For(for_stmt) = stmt {
                    if let Expr::Name(name) = for_stmt.iter.as_ref() {
                        self.facts.read_only_uses.push(ReadOnlyUse {
                            name: name.id.to_string(),
                            via: None,
                        });
                    }
                    self.bind_target(&for_stmt.target, BindingKind::Other);
                    self.record_loop(&for_stmt.target, &for_stmt.iter, false);
                }
                if let Stmt::With(with) = stmt {
                    // The names a `with` binds exist before its body runs,
                    // at the statement's own depth.
                    self.conditional_depth -= 1;
                    for item in &with.items {
                        self.bind_with_item(item);
                    }
                    self.conditional_depth += 1;
                }
                if let Stmt::Try(try_stmt) = stmt {
                    for handler in &try_stmt.handlers {
                        let ast::ExceptHandler::ExceptHandler(handler) = handler;
                        if let Some(name) = &handler.name {
                            let line = self.line_of(name);
                            self.bind(name.id.as_str(), BindingKind::Other, line);
                        }
                    }
                }
                match stmt {
                    // A `with` body and a `try` body run as written; a
                    // handler runs only on an error.
                    Stmt::With(_) => visitor::walk_stmt(self, stmt),
                    Stmt::Try(try_stmt) => {
                        self.walk_body(&try_stmt.body);
                        for handler in &try_stmt.handlers {
                            let ast::ExceptHandler::ExceptHandler(handler) = handler;
                            if let Some(kind) = &handler.type_ {
                                self.visit_expr(kind);
                            }
                            self.walk_guarded(vec![None], &handler.body);
                        }
                        self.walk_body(&try_stmt.orelse);
                        self.walk_body(&try_stmt.finalbody);
                    }
                    _ => {
                        self.guards.push(None);
                        visitor::walk_stmt(self, stmt);
                        self.guards.pop();
                    }
                }
                self.conditional_depth -= 1;
            }
            _ => visitor::walk_stmt(self, stmt),
        }
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        if matches!(expr, Expr::Yield(_) | Expr::YieldFrom(_)) {
            if let Some(function) = self.current_function() {
                function.is_generator = true;
            }
        }
        self.record_read_only_uses(expr);
        if let Expr::Call(call) = expr {
            self.record_body_call(call);
            self.record_setattr(call);
            self.record_mutating_call(call);
            self.record_dynamic_import(call);
            let callable = matches!(call.func.as_ref(), Expr::Name(name) if self.callables.contains(name.id.as_str()));
            if callable || is_construction_like(call) {
                let assigned_to = match &self.pending_target {
                    Some((ptr, spelled)) if std::ptr::eq(*ptr, expr) => Some(spelled.clone()),
                    _ => None,
                };
                let fact = CallFact {
                    callee: value_of(&call.func, 0),
                    line: self.line_of(call),
                    args: call.arguments.args.iter().map(|a| value_of(a, 0)).collect(),
                    keywords: call
                        .arguments
                        .keywords
                        .iter()
                        .map(|k| KeywordFact {
                            name: k.arg.as_ref().map(|a| a.id.to_string()),
                            value: value_of(&k.value, 0),
                            line: self.line_of(k),
                        })
                        .collect(),
                    assigned_to,
                    scope: self.scope_name(),
                    guard: self.guard(),
                };
                self.facts.calls.push(fact);
            }
        }
        if let Expr::Named(named) = expr {
            self.bind_target(&named.target, BindingKind::Other);
        }
        let generators = match expr {
            Expr::ListComp(comp) => Some(&comp.generators),
            Expr::SetComp(comp) => Some(&comp.generators),
            Expr::DictComp(comp) => Some(&comp.generators),
            Expr::Generator(comp) => Some(&comp.generators),
            _ => None,
        };
        for generator in generators.into_iter().flatten() {
            self.record_loop(&generator.target, &generator.iter, true);
        }
        if let Expr::Name(name) = expr {
            if !name.ctx.is_store() {
                *self.facts.name_uses.entry(name.id.to_string()).or_default() += 1;
            }
        }
        visitor::walk_expr(self, expr);
    }
}

/// The list a list addition changes: a plain name (`tools`) or one
/// attribute of one (`triage.handoffs`, a rewire).
fn list_target(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Name(name) => Some(name.id.to_string()),
        Expr::Attribute(attr) => match attr.value.as_ref() {
            Expr::Name(object) => Some(format!("{}.{}", object.id, attr.attr.id)),
            _ => None,
        },
        _ => None,
    }
}

/// The spelling of a simple assignment target (`name`, `self.agent`).
fn target_spelling(target: &Expr) -> Option<String> {
    match value_of(target, 0) {
        Value::Name(name) => Some(name),
        Value::Attribute(parts) => Some(parts.join(".")),
        _ => None,
    }
}

fn parameters(parameters: &ast::Parameters) -> Vec<ParamFact> {
    let mut params = Vec::new();
    let mut push = |p: &ast::Parameter, kind: ParamKind, default: Option<&Expr>| {
        params.push(ParamFact {
            name: p.name.id.to_string(),
            kind,
            annotation: p.annotation.as_deref().map(|a| value_of(a, 0)),
            has_default: default.is_some(),
            default: default.map(|d| value_of(d, 0)),
        });
    };
    for p in &parameters.posonlyargs {
        push(
            &p.parameter,
            ParamKind::PositionalOnly,
            p.default.as_deref(),
        );
    }
    for p in &parameters.args {
        push(&p.parameter, ParamKind::Normal, p.default.as_deref());
    }
    if let Some(p) = &parameters.vararg {
        push(p, ParamKind::VarPositional, None);
    }
    for p in &parameters.kwonlyargs {
        push(&p.parameter, ParamKind::KeywordOnly, p.default.as_deref());
    }
    if let Some(p) = &parameters.kwarg {
        push(p, ParamKind::VarKeyword, None);
    }
    params
}

/// Models an expression as a bounded `Value`.
fn value_of(expr: &Expr, depth: usize) -> Value {
    if depth > MAX_VALUE_DEPTH {
        return Value::Other("nested too deep".to_string());
    }
    let next = depth + 1;
    // Past the bound the rest is one unread member, never dropped
    // silently: every reader names an unread member as a limit.
    let members = |elts: &[Expr]| -> Vec<Value> {
        let mut members: Vec<Value> = elts
            .iter()
            .take(MAX_LIST_MEMBERS)
            .map(|e| value_of(e, next))
            .collect();
        if elts.len() > MAX_LIST_MEMBERS {
            members.push(Value::Other(MEMBERS_PAST_BOUND.to_string()));
        }
        members
    };
    match expr {
        Expr::Name(name) => Value::Name(name.id.to_string()),
        Expr::Attribute(attr) => match value_of(&attr.value, next) {
            Value::Name(base) => Value::Attribute(vec![base, attr.attr.id.to_string()]),
            Value::Attribute(mut parts) => {
                parts.push(attr.attr.id.to_string());
                Value::Attribute(parts)
            }
            // `",".join(ids)`: a string's own method, by name.
            _ if matches!(attr.value.as_ref(), Expr::StringLiteral(_)) => {
                Value::Other(format!("{STRING_METHOD}{}", attr.attr.id))
            }
            _ => Value::Other("attribute of an expression".to_string()),
        },
        Expr::StringLiteral(s) => Value::Str(s.value.to_str().to_string()),
        Expr::NumberLiteral(n) => Value::Number(match &n.value {
            ast::Number::Int(i) => i.to_string(),
            ast::Number::Float(f) => f.to_string(),
            ast::Number::Complex { real, imag } => format!("{real}+{imag}j"),
        }),
        Expr::BooleanLiteral(b) => Value::Bool(b.value),
        Expr::NoneLiteral(_) => Value::None,
        Expr::List(list) => Value::List(members(&list.elts)),
        Expr::Tuple(tuple) => Value::Tuple(members(&tuple.elts)),
        Expr::Starred(starred) => Value::Starred(Box::new(value_of(&starred.value, next))),
        // `"…/{}".format(x)` reads as the f-string it spells.
        Expr::Call(call) => format_call(call, next).unwrap_or_else(|| Value::Call {
            callee: Box::new(value_of(&call.func, next)),
            args: members(&call.arguments.args),
            keywords: {
                let keywords = &call.arguments.keywords;
                let mut read: Vec<(Option<String>, Value)> = keywords
                    .iter()
                    .take(MAX_LIST_MEMBERS)
                    .map(|k| {
                        (
                            k.arg.as_ref().map(|a| a.id.to_string()),
                            value_of(&k.value, next),
                        )
                    })
                    .collect();
                // The rest reads as an unread `**` spread: it may hold any
                // keyword.
                if keywords.len() > MAX_LIST_MEMBERS {
                    read.push((None, Value::Other(MEMBERS_PAST_BOUND.to_string())));
                }
                read
            },
        }),
        Expr::Subscript(sub) => Value::Subscript {
            base: Box::new(value_of(&sub.value, next)),
            index: match sub.slice.as_ref() {
                Expr::Tuple(tuple) => members(&tuple.elts),
                other => vec![value_of(other, next)],
            },
        },
        Expr::If(if_exp) => Value::IfElse {
            test: Box::new(value_of(&if_exp.test, next)),
            body: Box::new(value_of(&if_exp.body, next)),
            orelse: Box::new(value_of(&if_exp.orelse, next)),
        },
        Expr::BoolOp(bool_op) if bool_op.op == ast::BoolOp::Or => {
            Value::Or(members(&bool_op.values))
        }
        // `"…/%s" % x` reads as the f-string it spells.
        Expr::BinOp(binop) if binop.op == ast::Operator::Mod => {
            percent_format(binop, next).unwrap_or_else(|| binary(binop, next))
        }
        Expr::BinOp(binop) if binop.op == ast::Operator::Add => Value::Add {
            left: Box::new(value_of(&binop.left, next)),
            right: Box::new(value_of(&binop.right, next)),
        },
        Expr::BinOp(binop) if binop.op == ast::Operator::BitOr => {
            let mut parts = Vec::new();
            for side in [&binop.left, &binop.right] {
                match value_of(side, next) {
                    Value::Union(inner) => parts.extend(inner),
                    other => parts.push(other),
                }
            }
            Value::Union(parts)
        }
        Expr::BinOp(binop) => binary(binop, next),
        // `await client.get(u)`: what the awaited call gives.
        Expr::Await(awaited) => value_of(&awaited.value, depth),
        Expr::Dict(dict) => {
            let mut items: Vec<(Option<Value>, Value)> = dict
                .items
                .iter()
                .take(MAX_LIST_MEMBERS)
                .map(|item| {
                    (
                        item.key.as_ref().map(|k| value_of(k, next)),
                        value_of(&item.value, next),
                    )
                })
                .collect();
            // The rest reads as an unread `**` spread.
            if dict.items.len() > MAX_LIST_MEMBERS {
                items.push((None, Value::Other(MEMBERS_PAST_BOUND.to_string())));
            }
            Value::Dict(items)
        }
        Expr::FString(fstring) => Value::FString(fstring_parts(fstring, next)),
        Expr::ListComp(comp) if comp.generators.len() == 1 && !comp.generators[0].is_async => {
            let generator = &comp.generators[0];
            Value::ListComprehension {
                element: Box::new(value_of(&comp.elt, next)),
                target: Box::new(value_of(&generator.target, next)),
                iter: Box::new(value_of(&generator.iter, next)),
                conditions: generator.ifs.iter().map(|c| value_of(c, next)).collect(),
            }
        }
        Expr::Compare(compare) if compare.ops.len() == 1 && compare.comparators.len() == 1 => {
            Value::Compare {
                left: Box::new(value_of(&compare.left, next)),
                op: compare.ops[0].as_str().to_string(),
                right: Box::new(value_of(&compare.comparators[0], next)),
            }
        }
        other => Value::Other(kind_name(other).to_string()),
    }
}

/// The pieces of an f-string, literal text and replacement fields in order.
fn fstring_parts(fstring: &ast::ExprFString, depth: usize) -> Vec<Value> {
    let mut parts = Vec::new();
    for part in fstring.value.iter() {
        match part {
            ast::FStringPart::Literal(literal) => parts.push(Value::Str(literal.value.to_string())),
            ast::FStringPart::FString(inner) => {
                for element in inner.elements.iter() {
                    match element {
                        ast::InterpolatedStringElement::Literal(literal) => {
                            parts.push(Value::Str(literal.value.to_string()))
                        }
                        ast::InterpolatedStringElement::Interpolation(field) => {
                            parts.push(value_of(&field.expression, depth))
                        }
                    }
                }
            }
        }
    }
    parts
}

fn kind_name(expr: &Expr) -> &'static str {
    match expr {
        Expr::BinOp(_) => "binary operation",
        Expr::BoolOp(_) => "boolean operation",
        Expr::If(_) => "conditional expression",
        Expr::ListComp(_) | Expr::SetComp(_) | Expr::DictComp(_) | Expr::Generator(_) => {
            "comprehension"
        }
        Expr::Lambda(_) => "lambda",
        Expr::Dict(_) => "dict",
        Expr::Set(_) => "set",
        Expr::FString(_) => "f-string",
        Expr::UnaryOp(_) => "unary operation",
        Expr::Compare(_) => "comparison",
        Expr::Await(_) => "await",
        Expr::BytesLiteral(_) => "bytes literal",
        _ => "expression",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const AGENT: &str = r#"from agents import Agent, function_tool
import agents.extensions as ext


@function_tool
def lookup(order_id: str, *, limit: int = 3) -> dict:
    """Doc."""
    return {}


support = Agent(name="Support", tools=[lookup, ext.helper])

if True:
    maybe = 1
"#;

    #[test]
    fn imports_functions_and_constructions_are_facts() {
        let facts = extract_facts(AGENT.as_bytes());
        assert_eq!(facts.syntax_error, None);
        assert_eq!(facts.imports.len(), 3);
        assert_eq!(facts.imports[0].module, "agents");
        assert_eq!(facts.imports[0].name.as_deref(), Some("Agent"));
        assert_eq!(facts.imports[2].bound_name(), "ext");
        assert_eq!(facts.imports[2].line, 2);

        let lookup = &facts.functions[0];
        assert_eq!(lookup.name, "lookup");
        assert_eq!(lookup.line, 6, "the def line, not the decorator's");
        assert!(lookup.module_level);
        assert_eq!(lookup.decorators, vec![Value::Name("function_tool".into())]);
        assert_eq!(lookup.params.len(), 2);
        assert_eq!(lookup.params[1].kind, ParamKind::KeywordOnly);
        assert!(lookup.params[1].has_default);
        assert_eq!(lookup.returns, Some(Value::Name("dict".into())));

        let call = &facts.calls[0];
        assert_eq!(call.callee, Value::Name("Agent".into()));
        assert_eq!(call.assigned_to.as_deref(), Some("support"));
        assert_eq!(call.line, 11);
        assert_eq!(call.scope, "");
        assert_eq!(
            call.keyword("tools").map(|k| &k.value),
            Some(&Value::List(vec![
                Value::Name("lookup".into()),
                Value::Attribute(vec!["ext".into(), "helper".into()]),
            ]))
        );

        let maybe = facts.module_bindings.iter().find(|b| b.name == "maybe");
        assert_eq!(maybe.map(|b| b.conditional), Some(true));
        let support = facts.module_bindings.iter().find(|b| b.name == "support");
        assert_eq!(support.map(|b| b.conditional), Some(false));
    }

    #[test]
    fn syntax_errors_are_facts_not_failures() {
        let facts = extract_facts(b"def (:\n");
        assert!(facts.syntax_error.is_some());
        assert!(facts.functions.is_empty());
        let facts = extract_facts(&[0xff, 0xfe, 0x00]);
        assert!(facts.syntax_error.is_some());
    }

    #[test]
    fn nested_functions_carry_qualified_names() {
        let facts = extract_facts(b"def build():\n    def inner():\n        pass\n    return Agent(name='x', tools=[inner])\n");
        assert_eq!(facts.functions[1].qualname, "build.inner");
        assert!(!facts.functions[1].module_level);
        assert_eq!(facts.calls[0].scope, "build");
        assert_eq!(facts.calls[0].assigned_to, None);
    }

    #[test]
    fn with_targets_and_handler_names_are_bindings() {
        let facts = extract_facts(
            b"async def main():\n    async with Server(url='u') as s, open('f') as (a, b):\n        pass\n    try:\n        pass\n    except ValueError as err:\n        pass\n",
        );
        let locals: Vec<(&str, BindingKind, bool)> = facts.functions[0]
            .locals
            .iter()
            .map(|b| (b.name.as_str(), b.kind, b.conditional))
            .collect();
        assert_eq!(
            locals,
            vec![
                ("s", BindingKind::With, false),
                ("a", BindingKind::Other, false),
                ("b", BindingKind::Other, false),
                ("err", BindingKind::Other, true),
            ]
        );
        assert!(matches!(
            &facts.functions[0].locals[0].value,
            Some(Value::Call { callee, .. }) if **callee == Value::Name("Server".into())
        ));
    }

    #[test]
    fn dicts_and_fstrings_keep_their_structure() {
        let facts = extract_facts(b"x = {'url': f'https://{host}/v1', **extra}\n");
        let value = facts.module_bindings[0].value.clone();
        assert_eq!(
            value,
            Some(Value::Dict(vec![
                (
                    Some(Value::Str("url".into())),
                    Value::FString(vec![
                        Value::Str("https://".into()),
                        Value::Name("host".into()),
                        Value::Str("/v1".into()),
                    ])
                ),
                (None, Value::Name("extra".into())),
            ]))
        );
    }
}
