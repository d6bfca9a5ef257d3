//! What the names a hook binds, and the values it returns, give.

use super::{is_identifier, Given, HookReader};
use ruff_python_ast::{self as ast, Expr, Stmt};

impl HookReader<'_> {
    /// Collects what every name the body binds gives (into `out`); `false`
    /// when it rebinds the parameter.
    pub(super) fn bindings(&self, body: &[Stmt], out: &mut Vec<(String, Vec<Given>)>) -> bool {
        let mut bind = |out: &mut Vec<(String, Vec<Given>)>, name: &str, given: Given| match out
            .iter_mut()
            .find(|(n, _)| n == name)
        {
            Some((_, all)) => all.push(given),
            None => out.push((name.to_string(), vec![given])),
        };
        for stmt in body {
            let ok = match stmt {
                Stmt::Assign(assign) => {
                    let mut ok = true;
                    for target in &assign.targets {
                        if let Expr::Name(n) = target {
                            if n.id.as_str() == self.param {
                                ok = false;
                            }
                            let given = if assign.targets.len() == 1 {
                                self.module_given(&assign.value, &self.locals)
                            } else {
                                Given::Unknown
                            };
                            bind(out, n.id.as_str(), given);
                        } else {
                            // `module_path, attr_name = _LAZY[name]`.
                            let entry = match assign.targets.len() {
                                1 => self.registry_item(&assign.value),
                                _ => None,
                            };
                            for (index, name) in target_names(target).into_iter().enumerate() {
                                if name == self.param {
                                    ok = false;
                                }
                                let given = match (&entry, target) {
                                    (Some(registry), Expr::Tuple(_) | Expr::List(_))
                                        if is_plain_names(target) =>
                                    {
                                        Given::Entry {
                                            registry: registry.clone(),
                                            index,
                                        }
                                    }
                                    _ => Given::Unknown,
                                };
                                bind(out, &name, given);
                            }
                        }
                    }
                    ok
                }
                Stmt::AugAssign(s) => self.unknown_targets(&s.target, &mut bind, out),
                Stmt::AnnAssign(s) => self.unknown_targets(&s.target, &mut bind, out),
                Stmt::For(s) => {
                    self.unknown_targets(&s.target, &mut bind, out)
                        && self.bindings(&s.body, out)
                        && self.bindings(&s.orelse, out)
                }
                Stmt::While(s) => self.bindings(&s.body, out) && self.bindings(&s.orelse, out),
                Stmt::With(s) => {
                    s.items.iter().all(|item| {
                        item.optional_vars
                            .as_deref()
                            .is_none_or(|v| self.unknown_targets(v, &mut bind, out))
                    }) && self.bindings(&s.body, out)
                }
                Stmt::If(s) => {
                    self.bindings(&s.body, out)
                        && s.elif_else_clauses
                            .iter()
                            .all(|c| self.bindings(&c.body, out))
                }
                Stmt::Try(s) => {
                    self.bindings(&s.body, out)
                        && self.bindings(&s.orelse, out)
                        && self.bindings(&s.finalbody, out)
                        && s.handlers
                            .iter()
                            .all(|ast::ExceptHandler::ExceptHandler(h)| {
                                h.name.as_ref().is_none_or(|n| n.id.as_str() != self.param)
                                    && self.bindings(&h.body, out)
                            })
                }
                Stmt::Import(s) => {
                    for alias in &s.names {
                        let bound = alias.asname.as_ref().map_or_else(
                            || alias.name.id.split('.').next().unwrap_or(""),
                            |a| a.id.as_str(),
                        );
                        let given = if alias.name.id.as_str() == "importlib" {
                            Given::Importlib
                        } else {
                            Given::Unknown
                        };
                        bind(out, bound, given);
                    }
                    s.names.iter().all(|alias| {
                        alias
                            .asname
                            .as_ref()
                            .map_or(alias.name.id.as_str(), |a| a.id.as_str())
                            != self.param
                    })
                }
                Stmt::ImportFrom(s) => {
                    let module = s.module.as_ref().map_or("", |m| m.id.as_str());
                    let own = s.level == 1 && module.is_empty();
                    let mut ok = true;
                    for alias in &s.names {
                        let name = alias.name.id.as_str();
                        let bound = alias.asname.as_ref().map_or(name, |a| a.id.as_str());
                        if bound == self.param {
                            ok = false;
                        }
                        let given = if own && name != "*" {
                            Given::Submodule(name.to_string())
                        } else if s.level == 0 && module == "importlib" && name == "import_module" {
                            Given::ImportModule
                        } else {
                            Given::Unknown
                        };
                        bind(out, bound, given);
                    }
                    ok
                }
                Stmt::FunctionDef(d) => {
                    bind(out, d.name.id.as_str(), Given::Unknown);
                    d.name.id.as_str() != self.param
                }
                Stmt::ClassDef(c) => {
                    bind(out, c.name.id.as_str(), Given::Unknown);
                    c.name.id.as_str() != self.param
                }
                // A name bound inside an expression (`:=`) is unknown.
                _ => true,
            };
            if !ok {
                return false;
            }
        }
        true
    }

    pub(super) fn unknown_targets(
        &self,
        target: &Expr,
        bind: &mut impl FnMut(&mut Vec<(String, Vec<Given>)>, &str, Given),
        out: &mut Vec<(String, Vec<Given>)>,
    ) -> bool {
        let names = target_names(target);
        for name in &names {
            bind(out, name, Given::Unknown);
        }
        !names.iter().any(|n| n == self.param)
    }

    /// `R[name]` for a registry `R` the hook's parameter indexes: `R`.
    fn registry_item(&self, value: &Expr) -> Option<String> {
        let Expr::Subscript(sub) = value else {
            return None;
        };
        let (Expr::Name(registry), Expr::Name(key)) = (sub.value.as_ref(), sub.slice.as_ref())
        else {
            return None;
        };
        (key.id.as_str() == self.param
            && self
                .registries
                .iter()
                .any(|r| r.name == registry.id.as_str()))
        .then(|| registry.id.to_string())
    }

    /// What a local name gives when all its bindings agree.
    fn local_given(name: &str, locals: &[(String, Vec<Given>)]) -> Given {
        match locals.iter().find(|(l, _)| l == name) {
            Some((_, all)) => match all.split_first() {
                Some((first, rest)) if rest.iter().all(|g| g == first) => first.clone(),
                _ => Given::Unknown,
            },
            None => Given::Unknown,
        }
    }

    /// `getattr(module, attr_name)` over a registry entry's items.
    fn entry_attribute(&self, call: &ast::ExprCall, locals: &[(String, Vec<Given>)]) -> Given {
        let is_getattr = matches!(call.func.as_ref(), Expr::Name(n)
            if n.id.as_str() == "getattr" && !self.binds_getattr
                && !locals.iter().any(|(l, _)| l == "getattr"));
        let [Expr::Name(module), Expr::Name(attribute)] = call.arguments.args.as_ref() else {
            return Given::Unknown;
        };
        if !is_getattr || !call.arguments.keywords.is_empty() {
            return Given::Unknown;
        }
        match (
            Self::local_given(module.id.as_str(), locals),
            Self::local_given(attribute.id.as_str(), locals),
        ) {
            (
                Given::EntryModule {
                    registry,
                    index,
                    package,
                },
                Given::Entry {
                    registry: other,
                    index: attribute,
                },
            ) if registry == other => Given::EntryAttribute {
                registry,
                module: index,
                attribute,
                package,
            },
            _ => Given::Unknown,
        }
    }

    /// What an expression gives: a submodule, importlib, or unknown.
    /// `locals` is what the hook's names give (empty while they are being
    /// collected: a name then gives nothing known).
    pub(super) fn module_given(&self, expr: &Expr, locals: &[(String, Vec<Given>)]) -> Given {
        match expr {
            Expr::Call(call) => match self.import_call(call, locals) {
                Given::Unknown => self.entry_attribute(call, locals),
                given => given,
            },
            Expr::Name(n) => Self::local_given(n.id.as_str(), locals),
            _ => Given::Unknown,
        }
    }

    /// `importlib.import_module(f".{name}", __name__)` and the spellings
    /// that mean the same.
    pub(super) fn import_call(
        &self,
        call: &ast::ExprCall,
        locals: &[(String, Vec<Given>)],
    ) -> Given {
        let callee_is = |name: &str, given: Given, module_level: bool| match locals
            .iter()
            .find(|(l, _)| l == name)
        {
            Some((_, all)) => all.iter().all(|g| *g == given),
            None => module_level,
        };
        let imports = match call.func.as_ref() {
            Expr::Attribute(attr) => {
                attr.attr.id.as_str() == "import_module"
                    && matches!(attr.value.as_ref(), Expr::Name(n)
                        if n.id.as_str() == "importlib"
                            && callee_is("importlib", Given::Importlib, self.module_importlib))
            }
            Expr::Name(n) => {
                n.id.as_str() == "import_module"
                    && callee_is(
                        "import_module",
                        Given::ImportModule,
                        self.module_import_module,
                    )
            }
            _ => false,
        };
        if !imports || !call.arguments.keywords.is_empty() {
            return Given::Unknown;
        }
        let package = |e: &Expr| {
            matches!(e, Expr::Name(n) if matches!(n.id.as_str(), "__name__" | "__package__")
                && !locals.iter().any(|(l, _)| l == n.id.as_str()))
        };
        // A registry entry's module item, relative to the package or not.
        let entry = |spec: &Expr, package: bool| match spec {
            Expr::Name(n) => match Self::local_given(n.id.as_str(), locals) {
                Given::Entry { registry, index } => Some(Given::EntryModule {
                    registry,
                    index,
                    package,
                }),
                _ => None,
            },
            _ => None,
        };
        match call.arguments.args.as_ref() {
            [spec, pkg] if package(pkg) => {
                entry(spec, true).unwrap_or_else(|| self.relative_spec(spec, "."))
            }
            [spec] => entry(spec, false).unwrap_or_else(|| self.absolute_spec(spec)),
            _ => Given::Unknown,
        }
    }

    /// `f".{name}"`, `"." + name` or a literal `".agent"`.
    pub(super) fn relative_spec(&self, spec: &Expr, dot: &str) -> Given {
        let is_param = |e: &Expr| matches!(e, Expr::Name(n) if n.id.as_str() == self.param);
        match spec {
            Expr::FString(fstring) => {
                let elements: Vec<_> = fstring.value.elements().collect();
                match elements.as_slice() {
                    [ast::InterpolatedStringElement::Literal(lit), ast::InterpolatedStringElement::Interpolation(field)]
                        if &*lit.value == dot
                            && is_param(&field.expression)
                            && field.format_spec.is_none()
                            && field.conversion == ast::ConversionFlag::None =>
                    {
                        Given::AskedSubmodule
                    }
                    _ => Given::Unknown,
                }
            }
            Expr::BinOp(binop)
                if binop.op == ast::Operator::Add
                    && matches!(binop.left.as_ref(), Expr::StringLiteral(s) if s.value.to_str() == dot)
                    && is_param(&binop.right) =>
            {
                Given::AskedSubmodule
            }
            Expr::StringLiteral(s) => match s.value.to_str().strip_prefix(dot) {
                Some(rest) if is_identifier(rest) => Given::Submodule(rest.to_string()),
                _ => Given::Unknown,
            },
            _ => Given::Unknown,
        }
    }

    /// `f"{__name__}.{name}"`.
    pub(super) fn absolute_spec(&self, spec: &Expr) -> Given {
        let Expr::FString(fstring) = spec else {
            return Given::Unknown;
        };
        let elements: Vec<_> = fstring.value.elements().collect();
        let field_is = |e: &ast::InterpolatedStringElement, name: &str| {
            matches!(e, ast::InterpolatedStringElement::Interpolation(f)
                if matches!(f.expression.as_ref(), Expr::Name(n) if n.id.as_str() == name)
                    && f.format_spec.is_none()
                    && f.conversion == ast::ConversionFlag::None)
        };
        match elements.as_slice() {
            [package, ast::InterpolatedStringElement::Literal(dot), asked]
                if (field_is(package, "__name__") || field_is(package, "__package__"))
                    && &*dot.value == "."
                    && field_is(asked, self.param) =>
            {
                Given::AskedSubmodule
            }
            _ => Given::Unknown,
        }
    }
}

/// The names a store target binds.
fn target_names(target: &Expr) -> Vec<String> {
    match target {
        Expr::Name(n) => vec![n.id.to_string()],
        Expr::Tuple(t) => t.elts.iter().flat_map(target_names).collect(),
        Expr::List(l) => l.elts.iter().flat_map(target_names).collect(),
        Expr::Starred(s) => target_names(&s.value),
        _ => Vec::new(),
    }
}

/// A tuple or list of plain names (`a, b`).
fn is_plain_names(target: &Expr) -> bool {
    let elements = match target {
        Expr::Tuple(t) => &t.elts,
        Expr::List(l) => &l.elts,
        _ => return false,
    };
    elements.iter().all(|e| matches!(e, Expr::Name(_)))
}
