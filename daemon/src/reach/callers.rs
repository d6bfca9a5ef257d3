//! What every call of a module-level function passes for one parameter,
//! when every call can be found: the census follows a namespace change
//! made through a parameter (`def install(module): vars(module).update(…)`)
//! back to the modules its callers hand it.
//!
//! Every call is found only while the function is a module-level,
//! undecorated `def` its module binds once; every use of its name, in its
//! module and in each module that imports it by name, is a call that
//! unpacks nothing; and no module imports its module whole (which could
//! call it as an attribute). Anything else answers `None`.

use crate::python::{CallFact, FunctionFact, ParamKind, Value};
use crate::resolve::layout::{KeptMap, PerLayout};
use crate::resolve::{ModuleSet, Resolver, Target};
use std::collections::BTreeMap;
use std::sync::Arc;

/// What a module-level import name resolves to, as a caller search needs
/// it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Imported {
    /// A function: its module and `def` line.
    Function { path: String, line: u32 },
    /// A module imported whole, by its file.
    Module(Option<String>),
    /// Anything else, or a name the resolver stops at.
    Other,
}

/// Each import of a module by the name it binds, with what it resolves to.
type Targets = Arc<[(String, Imported)]>;

/// What every module's imports resolve to, read once per side the first
/// time a caller search asks: each search asks of every import of every
/// module, so reading them per search made the census quadratic in the
/// scope (issue 23).
#[derive(Debug, Default)]
pub struct ImportTargets {
    read: Option<BTreeMap<String, Targets>>,
}

impl ImportTargets {
    fn of<'t>(&'t mut self, modules: &ModuleSet<'_>) -> &'t BTreeMap<String, Targets> {
        self.read.get_or_insert_with(|| {
            let kept = KEPT.of(modules.layout());
            let mut table = BTreeMap::new();
            for caller in modules.paths() {
                let Some(imported) =
                    modules.kept_or_read(&kept, caller, || targets_of(modules, caller))
                else {
                    continue;
                };
                table.insert(caller.to_string(), imported);
            }
            table
        })
    }
}

/// What one module's imports resolve to, kept per layout by the module's
/// path with the reads it depended on (`resolve::layout`): a history
/// walk's next commit reads again only the modules whose reads changed.
type KeptTargets = KeptMap<Option<Targets>>;

static KEPT: PerLayout<KeptTargets> = PerLayout::new();

/// What each of `caller`'s imports resolves to.
fn targets_of(modules: &ModuleSet<'_>, caller: &str) -> Option<Targets> {
    let facts = modules.facts(caller)?;
    let imported = facts
        .imports
        .iter()
        .map(|import| {
            let bound = import.bound_name().to_string();
            // A resolver per name, as every other read: its
            // bounds count one resolution.
            let mut resolver = Resolver::new(modules);
            let target = match resolver.resolve(caller, "", &Value::Name(bound.clone().into())) {
                Ok(found) => match found.target {
                    Target::Function { path, function } => Imported::Function {
                        path: path.to_string(),
                        line: function.line,
                    },
                    Target::Module(loc) => Imported::Module(loc.file),
                    _ => Imported::Other,
                },
                Err(_) => Imported::Other,
            };
            (bound, target)
        })
        .collect();
    Some(imported)
}

/// Each call's module, calling scope and the value it passes for `param`
/// (its default when it passes none); `None` when the calls are not all
/// known.
pub fn passed<'a>(
    modules: &ModuleSet<'a>,
    targets: &mut ImportTargets,
    path: &str,
    function: &FunctionFact,
    param: &str,
) -> Option<Vec<(&'a str, String, Value)>> {
    let facts = modules.facts(path)?;
    let bound_once = facts
        .module_bindings_named(&function.name)
        .filter(|b| b.name == function.name)
        .count()
        == 1;
    if !function.module_level || !function.decorators.is_empty() || !bound_once {
        return None;
    }
    let declared = function.params.iter().find(|p| p.name == param)?;
    let position = function
        .params
        .iter()
        .filter(|p| matches!(p.kind, ParamKind::PositionalOnly | ParamKind::Normal))
        .position(|p| p.name == param);
    let table = targets.of(modules);
    let mut passed = Vec::new();
    for caller in modules.paths() {
        let caller_facts = modules.facts(caller)?;
        // The names the function goes by in `caller`.
        let mut names = Vec::new();
        if caller == path {
            names.push(function.name.clone());
        }
        for (bound, imported) in table.get(caller).into_iter().flat_map(|t| t.iter()) {
            match imported {
                Imported::Function { path: at, line } if at == path && *line == function.line => {
                    names.push(bound.clone().into());
                }
                // Its module imported whole: an attribute call is not
                // followed.
                Imported::Module(Some(file)) if file == path => return None,
                _ => {}
            }
        }
        for name in names {
            let calls: Vec<&CallFact> = caller_facts
                .calls
                .iter()
                .filter(|c| matches!(&c.callee, Value::Name(n) if *n == name))
                .collect();
            if caller_facts.name_uses.get(&name).copied().unwrap_or(0) as usize != calls.len() {
                return None;
            }
            for call in calls {
                let unpacks = call.args.iter().any(|a| matches!(a, Value::Starred(_)))
                    || call.keywords.iter().any(|k| k.name.is_none());
                if unpacks {
                    return None;
                }
                let given = position
                    .and_then(|i| call.args.get(i).cloned())
                    .or_else(|| {
                        call.keywords
                            .iter()
                            .find(|k| k.name.as_deref() == Some(param))
                            .map(|k| k.value.clone())
                    });
                match given {
                    Some(value) => passed.push((caller, call.scope.to_string(), value)),
                    // The default, read where the function is defined.
                    None => {
                        let default = declared.default.clone().unwrap_or(Value::None);
                        passed.push((modules.key(path)?, String::new(), default));
                    }
                }
            }
        }
    }
    Some(passed)
}
