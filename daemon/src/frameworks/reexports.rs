//! Framework names a module re-exports: the names it binds once, by an
//! unconditional absolute module-level import of a framework's package,
//! and never rebinds (`forwarded_names`), and an import of one of them
//! read as the framework import it forwards (`forwarding`). The graph
//! layer decides which imports reach such a module through the resolver
//! (`graph/build/reexports.rs`, the soundness rule); scope derivation asks
//! the same question of the modules a module imports, to count it as an
//! agent file.

use super::{adk, openai};
use crate::python::{BindingKind, ImportFact, ModuleFacts};
use std::collections::BTreeMap;

/// The framework names `facts` binds once, by an unconditional absolute
/// module-level import of the SDK's or ADK's package, that no function of
/// it declares `global`: the name it binds → that import.
pub fn forwarded_names(facts: &ModuleFacts) -> BTreeMap<&str, &ImportFact> {
    let mut out = BTreeMap::new();
    for import in &facts.imports {
        let framework = import.level == 0
            && (openai::is_sdk_module(&import.module) || adk::is_adk_module(&import.module));
        if !framework
            || import.name.is_none()
            || !import.scope.is_empty()
            || import.conditional
            || import.type_checking
        {
            continue;
        }
        let name = import.bound_name();
        if binds_once_by_import(facts, name) {
            out.insert(name, import);
        }
    }
    out
}

/// `import` (a from-import of a forwarded name) read as the framework
/// import `framework` it forwards, keeping the importing module's local
/// name, line and scope.
pub fn forwarding(import: &ImportFact, framework: &ImportFact) -> ImportFact {
    ImportFact {
        asname: Some(import.bound_name().into()),
        line: import.line,
        scope: import.scope.clone(),
        conditional: import.conditional,
        type_checking: import.type_checking,
        ..framework.clone()
    }
}

/// Whether the module binds `name` exactly once, by an import, and no
/// function of it declares the name `global`.
fn binds_once_by_import(facts: &ModuleFacts, name: &str) -> bool {
    let mut bindings = facts.module_bindings_named(name).filter(|b| b.name == name);
    let once = matches!(
        (bindings.next(), bindings.next()),
        (Some(b), None) if b.kind == BindingKind::Import && !b.conditional && !b.type_checking
    );
    once && !facts
        .functions
        .iter()
        .any(|f| f.globals.iter().any(|g| g == name))
}
