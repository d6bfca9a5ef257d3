//! What one module says, as plain serde data. These values are cached by blob
//! id, so they hold only what depends on the blob's own bytes.

use serde::{Deserialize, Serialize};

mod value;
pub use thin_vec::{thin_vec, ThinVec};
pub use value::*;

pub use super::operator::Operator;

/// A string of the facts: a name, a scope's qualified name, a literal.
/// Most are identifiers of a few bytes, kept inline (24 bytes or fewer)
/// instead of each in an allocation of its own: the facts of the 909
/// modules of openai-agents-python hold 1.6 million of them, and their
/// allocations were a third of a cold run's memory and a fifth of its
/// time in malloc and free (issue 23).
pub type Text = compact_str::CompactString;

/// Facts of one Python module.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ModuleFacts {
    /// Set when the module does not parse (or is not UTF-8); then nothing
    /// else is read from it.
    pub syntax_error: Option<SyntaxErrorFact>,
    pub imports: Vec<ImportFact>,
    /// Every `def`/`async def`, nested ones included, in source order.
    pub functions: Vec<FunctionFact>,
    pub classes: Vec<ClassFact>,
    /// Calls that may construct an object (a capitalised callee, or a call
    /// passing `tools=`) or call a function the module defines or imports
    /// by name at top level (a builder's callers), anywhere in the module,
    /// in source order.
    pub calls: Vec<CallFact>,
    /// Names bound at module level, in source order, with how.
    pub module_bindings: Vec<BindingFact>,
    /// Stores into another object's attribute (`tools.lookup = x`,
    /// `setattr(tools, "lookup", x)`), anywhere in the module.
    pub attribute_stores: Vec<AttributeStore>,
    /// Lowercase hex SHA-256 of the module's raw bytes (import evidence).
    pub source_sha256: String,
    /// A module-level `__getattr__`, which can answer for any missing name.
    pub getattr_hook: Option<GetattrHook>,
    /// Module-level dicts a registration function fills (`registries.rs`).
    #[serde(default)]
    pub registries: Vec<RegistryFact>,
    /// How often each name is read (or deleted) anywhere in the module: a
    /// list bound to a name is only known when every use is accounted for.
    pub name_uses: super::NameCounts,
    /// The uses counted in `name_uses` that only read the object a name
    /// holds: iterated (`for t in TOOLS`, a comprehension), truth-tested
    /// (`if handoffs:`, `not x`), a membership test's container, formatted
    /// in an f-string, or passed to a builtin that only reads (`len(x)`,
    /// `via` names it, so a module that rebinds it is not trusted).
    pub read_only_uses: Vec<ReadOnlyUse>,
    /// Modules imported by a literal name at run time:
    /// `importlib.import_module("app.tools")`.
    pub dynamic_imports: Vec<Text>,
    /// Calls made at module level (not in a function or class body): what
    /// runs on import, for the reach census (`install_opener(...)`).
    pub module_calls: Vec<BodyCall>,
    /// Values stored into objects at module level (`SESSION.headers["K"] =
    /// v`, `SESSION.auth = (u, p)`): a module-level client's settings.
    pub module_stores: Vec<ValueStore>,
    /// Additions to a list a plain name holds: `tools.append(x)`,
    /// `.extend([...])`, `.insert(i, x)`, `tools += [...]`.
    pub list_additions: Vec<ListAddition>,
    /// `imports` by the scope and name each binds, built on first lookup
    /// (`import_binding`); never stored.
    #[serde(skip)]
    pub import_index: ImportIndex,
    /// `module_bindings` by name, built on first lookup
    /// (`module_bindings_named`); never stored.
    #[serde(skip)]
    pub binding_index: BindingIndex,
    /// Set on a copy the graph layer rewrote (`graph/build/reexports.rs`):
    /// its facts are no longer its blob's, so nothing kept by content
    /// (`content_identity`) is kept or found for it. Never stored.
    #[serde(skip)]
    pub rewritten: bool,
}

impl ModuleFacts {
    /// What the facts are a function of, for a value kept across sides
    /// (`resolve::layout`): the blob's SHA-256, or `None` for facts the
    /// graph layer rewrote.
    pub fn content_identity(&self) -> Option<&str> {
        (!self.rewritten).then_some(self.source_sha256.as_str())
    }
}

/// The module-level bindings of a module by name: what makes "how is
/// `name` bound here" a lookup, where a scan of every binding, asked once
/// per agent of a module of thousands, made the graph quadratic (issue 46,
/// item 2).
#[derive(Debug, Clone, Default)]
pub struct BindingIndex(std::sync::OnceLock<BindingTable>);

#[derive(Debug, Clone)]
struct BindingTable {
    /// How many bindings the table was built from: a table built before
    /// the last binding was added is not used.
    bindings: usize,
    /// `(digest of the name, index of the binding)`, sorted: the indices
    /// of one digest in source order. The binding's own name decides.
    by_name: Vec<(u64, usize)>,
}

/// The index is derived from `module_bindings`: two facts are equal by
/// their data.
impl PartialEq for BindingIndex {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// The imports of a module by scope and bound name: what makes a name's
/// import a lookup, not a scan of every import (a package `__init__` of
/// hundreds of imports, read for each of its names, made the scan the
/// cold path's hot spot: issue 23).
#[derive(Debug, Clone, Default)]
pub struct ImportIndex(std::sync::OnceLock<ImportTable>);

#[derive(Debug, Clone)]
struct ImportTable {
    /// How many imports the table was built from: a table built before
    /// the last import was added is not used.
    imports: usize,
    /// `(digest of scope and bound name, index of the import)`, sorted:
    /// one allocation a module, where a map of strings made two a name
    /// and was a tenth of a history walk (issue 23). A digest only
    /// narrows the search; the import's own strings decide.
    by_name: Vec<(u64, usize)>,
}

/// The digest `ImportTable` sorts by.
fn scope_name_digest(scope: &str, name: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    scope.hash(&mut hasher);
    name.hash(&mut hasher);
    hasher.finish()
}

/// The index is derived from `imports`: two facts are equal by their data.
impl PartialEq for ImportIndex {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl ModuleFacts {
    /// Whether every function body decodes (`LazyBody`): what a store read
    /// checks before it trusts an entry, so a body read later never fails.
    pub fn bodies_decode(&self) -> bool {
        self.functions.iter().all(|f| f.lazy_body.decodes())
    }

    /// The last import made in `scope` (a function's qualified name, `""`
    /// at module level) that binds `name`, ignoring enclosing scopes.
    pub fn import_binding(&self, scope: &str, name: &str) -> Option<&ImportFact> {
        let table = self.import_index.0.get_or_init(|| {
            let mut by_name: Vec<(u64, usize)> = self
                .imports
                .iter()
                .enumerate()
                .map(|(index, import)| {
                    (scope_name_digest(&import.scope, import.bound_name()), index)
                })
                .collect();
            by_name.sort_unstable();
            ImportTable {
                imports: self.imports.len(),
                by_name,
            }
        });
        if table.imports != self.imports.len() {
            return self
                .imports
                .iter()
                .rev()
                .find(|import| import.scope == scope && import.bound_name() == name);
        }
        let digest = scope_name_digest(scope, name);
        let from = table.by_name.partition_point(|(d, _)| *d < digest);
        let to = table.by_name.partition_point(|(d, _)| *d <= digest);
        table
            .by_name
            .get(from..to)?
            .iter()
            .rev()
            .find_map(|(_, index)| {
                self.imports
                    .get(*index)
                    .filter(|import| import.scope == scope && import.bound_name() == name)
            })
    }
}

impl ModuleFacts {
    /// The module-level bindings of `name`, in source order (as
    /// `module_bindings` filtered by name, without the scan).
    pub fn module_bindings_named<'f: 'n, 'n>(
        &'f self,
        name: &'n str,
    ) -> impl DoubleEndedIterator<Item = &'f BindingFact> + 'n {
        let table = self.binding_index.0.get_or_init(|| {
            let mut by_name: Vec<(u64, usize)> = self
                .module_bindings
                .iter()
                .enumerate()
                .map(|(index, binding)| (scope_name_digest("", &binding.name), index))
                .collect();
            by_name.sort_unstable();
            BindingTable {
                bindings: self.module_bindings.len(),
                by_name,
            }
        });
        let (indexed, scanned) = if table.bindings == self.module_bindings.len() {
            let digest = scope_name_digest("", name);
            let from = table.by_name.partition_point(|(d, _)| *d < digest);
            let to = table.by_name.partition_point(|(d, _)| *d <= digest);
            (table.by_name.get(from..to).unwrap_or_default(), None)
        } else {
            (&[][..], Some(self.module_bindings.iter()))
        };
        indexed
            .iter()
            .filter_map(|(_, index)| self.module_bindings.get(*index))
            .chain(scanned.into_iter().flatten())
            .filter(move |binding| binding.name == name)
    }

    /// Gives back what the lists of facts were grown past their length: a
    /// list built by pushing keeps up to half its capacity unused (four
    /// slots for a one-member list), a third of a cold run's memory on a
    /// large repository (issue 23). The lists of many members are shrunk:
    /// the module's and each function's.
    pub fn shrink_to_fit(&mut self) {
        self.imports.shrink_to_fit();
        self.functions.shrink_to_fit();
        self.classes.shrink_to_fit();
        self.calls.shrink_to_fit();
        self.module_bindings.shrink_to_fit();
        self.attribute_stores.shrink_to_fit();
        self.read_only_uses.shrink_to_fit();
        self.module_calls.shrink_to_fit();
        self.module_stores.shrink_to_fit();
        self.list_additions.shrink_to_fit();
        for function in &mut self.functions {
            function.decorators.shrink_to_fit();
            function.params.shrink_to_fit();
        }
        for class in &mut self.classes {
            class.attributes.shrink_to_fit();
        }
        for call in &mut self.calls {
            call.keywords.shrink_to_fit();
        }
    }
}

/// One addition to a named list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ListAddition {
    /// The list: a plain name (`tools`), or an object's attribute spelled
    /// `object.attribute` (`triage.handoffs`, a rewire).
    pub target: Text,
    /// `append`, `extend`, `insert` or `+=`.
    pub how: Text,
    /// What is added: the member (`append`, `insert`) or the list (`extend`,
    /// `+=`).
    pub value: Value,
    pub line: u32,
    /// Qualified name of the enclosing function; empty at module level.
    pub scope: Text,
    /// Inside an `if`/`try`/loop/`with` of its scope.
    pub conditional: bool,
    /// The `if`/`elif` tests it runs under within its scope; `None` inside
    /// a loop, handler or case (as `BindingFact::guard`).
    #[serde(default)]
    pub guard: Option<Vec<Condition>>,
    /// Inside a `try` or `with` of its scope: an error before it may skip
    /// it.
    #[serde(default)]
    pub protected: bool,
}

/// A module-level dict that only registration functions fill (`_TOOLS =
/// {}` with `def register(fn): _TOOLS[fn.__name__] = fn; return fn`): every
/// use of its name in its module is such a store, a `.values()` call or a
/// read by a literal key (`registries.rs`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegistryFact {
    pub name: Text,
    pub line: u32,
    /// One per store, in source order.
    pub registrars: Vec<Registrar>,
    /// The functions that read it (qualified names; empty: module level).
    pub readers: Vec<Text>,
}

/// A module-level function that stores the object it is applied to in a
/// registry and returns it unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Registrar {
    pub function: Text,
    /// `register("key")` gives the decorator (a factory); else `register`
    /// is the decorator.
    pub factory: bool,
    pub key: RegistryKey,
}

/// What a registration stores its object under.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum RegistryKey {
    /// `fn.__name__`: the decorated definition's name.
    DefName,
    /// A literal key.
    Literal(Text),
    /// The factory's positional argument at this index.
    FactoryArgument(u32),
}

/// A module-level `def __getattr__(name)`, read name by name
/// (`getattr_hook.rs`): which names it is known to answer with their own
/// submodule (the lazy-loading idioms).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GetattrHook {
    pub line: u32,
    /// Names the hook's tests single out that give their submodule.
    pub submodules: Vec<Text>,
    /// Names it answers from a lazy re-export registry: each is what
    /// `from <module> import <attribute>` gives (`getattr_hook::registry`).
    #[serde(default)]
    pub reexports: Vec<LazyReexport>,
    /// Every name the hook's tests single out (`name == "agent"`, `name
    /// in _LAZY`) or its returns name.
    pub mentioned: Vec<Text>,
    /// Whether a name none of them is gives its submodule too.
    pub any_other_name: bool,
}

/// A name a package hook answers with another module's attribute.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LazyReexport {
    pub name: Text,
    /// The module as the registry spells it (`.search.tools`: relative
    /// to the package).
    pub module: Text,
    pub attribute: Text,
}

impl GetattrHook {
    /// What the hook answers `name` with from its registry, if it does.
    pub fn reexport(&self, name: &str) -> Option<&LazyReexport> {
        self.reexports.iter().find(|r| r.name == name)
    }

    /// Whether every return the hook can reach for `name` gives the
    /// package's submodule `name`.
    pub fn gives_submodule(&self, name: &str) -> bool {
        if self.mentioned.iter().any(|m| m == name) {
            self.submodules.iter().any(|m| m == name)
        } else {
            self.any_other_name
        }
    }
}

/// How an attribute is written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum StoreKind {
    /// `a.b = value`
    Assignment,
    /// `setattr(a, "b", value)`
    Setattr,
    /// `a.b += value`
    AugmentedAssignment,
    /// `a.b[i] = value` (or a slice)
    ItemAssignment,
    /// `del a.b` or `del a.b[i]`
    Deletion,
    /// `a.b.append(x)` and the other methods that change a list in place.
    MethodCall(Text),
}

impl StoreKind {
    /// How the write reads in a reason.
    pub fn describe(&self) -> String {
        match self {
            StoreKind::Assignment => "assignment".into(),
            StoreKind::Setattr => "setattr".into(),
            StoreKind::AugmentedAssignment => "augmented assignment".into(),
            StoreKind::ItemAssignment => "item assignment".into(),
            StoreKind::Deletion => "deletion".into(),
            StoreKind::MethodCall(method) => format!(".{method}()"),
        }
    }

    /// Whether the write rebinds the attribute itself (not its contents).
    pub fn rebinds(&self) -> bool {
        matches!(self, StoreKind::Assignment | StoreKind::Setattr)
    }
}

/// A write into an attribute: `a.b.c = value`, `setattr(a, "c", value)`,
/// `a.b += …`, `a.b[i] = …`, `del a.b`, `a.b.append(x)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttributeStore {
    /// The object path written to, `["a", "b", "c"]`; a computed attribute
    /// name (`setattr(a, name, v)`) is `"*"`.
    pub target: Vec<Text>,
    pub line: u32,
    /// Qualified name of the enclosing function or class; empty at module level.
    pub scope: Text,
    pub how: StoreKind,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SyntaxErrorFact {
    pub message: String,
    pub line: u32,
    /// Why the module was not read.
    pub kind: UnreadKind,
}

/// The `Value::Other` that stands for the members of a list, tuple, dict or
/// call past the bound on modelled members: named as unread, never dropped.
pub const MEMBERS_PAST_BOUND: &str = "more than 1,000 members";

/// One use of a name that only reads the object it holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadOnlyUse {
    pub name: Text,
    /// The builtin it is passed to, when it is an argument.
    pub via: Option<Text>,
    /// The function the use is in (its qualified name; empty at module
    /// level or in a class body there).
    #[serde(default)]
    pub scope: Text,
}

/// Keywords of an agent construction that bind capabilities: a list
/// written there is the agent's own, read by the list reader.
pub const CAPABILITY_KEYWORDS: &[&str] = &["tools", "handoffs", "mcp_servers", "sub_agents"];

/// Builtins that copy the one iterable they are given into a new list or
/// tuple: the copy may change, the argument never does through it.
pub const COPYING_BUILTINS: &[&str] = &["list", "tuple", "sorted"];

/// Builtins that only read an argument they are given (none mutates it,
/// keeps it, or hands it to code of the caller's). `list`, `tuple` and
/// `sorted` are not here: the list reader reads their argument itself, and
/// a use must be counted once.
pub const READ_ONLY_BUILTINS: &[&str] = &[
    "all",
    "any",
    "bool",
    "enumerate",
    "frozenset",
    "isinstance",
    "iter",
    "len",
    "max",
    "min",
    "print",
    "repr",
    "reversed",
    "set",
    "str",
    "sum",
    "zip",
];

/// Why a module's source was not read into facts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum UnreadKind {
    /// Not UTF-8, or not Python the parser accepts.
    Syntax,
    /// Nested past `nesting::MAX_NESTING`: not parsed at all.
    TooDeep,
}

/// One imported name: `import a.b as c` or `from .m import x as y`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportFact {
    /// The module spelled after `import` / `from` (without leading dots).
    pub module: Text,
    /// Leading dots of a relative import; 0 for absolute.
    pub level: u32,
    /// The imported member for `from m import name`; `None` for `import m`.
    pub name: Option<Text>,
    pub asname: Option<Text>,
    pub line: u32,
    /// Qualified name of the enclosing function or class; empty at module level.
    pub scope: Text,
    /// Made inside an `if`/`try`/loop/`with` of its scope.
    pub conditional: bool,
    /// Made under `if TYPE_CHECKING:`: never runs.
    pub type_checking: bool,
}

impl ImportFact {
    /// The local name this import binds.
    pub fn bound_name(&self) -> &str {
        if let Some(asname) = &self.asname {
            return asname;
        }
        match &self.name {
            Some(name) => name,
            // `import a.b` binds `a`.
            None => self.module.split('.').next().unwrap_or(&self.module),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ParamKind {
    PositionalOnly,
    Normal,
    VarPositional,
    KeywordOnly,
    VarKeyword,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ParamFact {
    pub name: Text,
    pub kind: ParamKind,
    pub annotation: Option<Value>,
    pub has_default: bool,
    /// The default value's expression.
    pub default: Option<Value>,
}

/// One `return` in a function's own body (not a nested definition's).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReturnFact {
    pub line: u32,
    pub value: Option<Value>,
    /// Inside an `if`/`try`/loop/`with` of the function.
    pub conditional: bool,
    /// The `if`/`elif` tests it runs under within the function; `None`
    /// inside a loop, handler or case (as `BindingFact::guard`).
    #[serde(default)]
    pub guard: Option<Vec<Condition>>,
    /// Inside a `try` or `with` of the function: an error in it may be
    /// handled or suppressed, and the function go on past it.
    #[serde(default)]
    pub protected: bool,
}

/// The scope a qualified name is defined in: `build` for `build.inner`,
/// empty at module level.
pub fn parent_scope(qualname: &str) -> &str {
    qualname.rsplit_once('.').map_or("", |(parent, _)| parent)
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FunctionFact {
    pub name: Text,
    /// Dotted path of enclosing definitions and the name (`build.inner`).
    pub qualname: Text,
    /// The line of the `def` keyword (decorators sit above it).
    pub line: u32,
    pub is_async: bool,
    pub module_level: bool,
    pub decorators: Vec<Value>,
    pub params: Vec<ParamFact>,
    pub returns: Option<Value>,
    /// SHA-256 of the definition's normalised AST (contract §3.1).
    pub implementation_sha256: Text,
    /// Names declared `nonlocal` in the body.
    pub nonlocals: Vec<Text>,
    /// Names declared `global` in the body.
    pub globals: Vec<Text>,
    /// The body's last statement is a `return`.
    pub ends_with_return: bool,
    /// The body yields: a generator.
    pub is_generator: bool,
    /// What the body binds, returns, calls, stores and loops over, decoded
    /// when first read (`body()`).
    pub lazy_body: super::LazyBody,
    /// The names `body().locals` binds other than the parameters, as a
    /// filter: `may_assign`, `may_bind`.
    pub assigns: super::NameFilter,
    /// The last names of the dotted attributes `body().locals` binds (
    /// `tools` of `t = support.tools`), as a filter: `may_alias`.
    pub aliases: super::NameFilter,
    /// The words `body().body_calls` are spelled with, as a filter:
    /// `may_call`.
    pub calls: super::NameFilter,
}

/// One `for name in iterable` of a function's body, as a statement or a
/// comprehension's generator.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoopTarget {
    pub name: Text,
    pub iterable: Value,
    pub line: u32,
    /// A comprehension's `for`: the name lives in the comprehension only.
    pub comprehension: bool,
}

/// One value stored into an object a function names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ValueStore {
    /// The object written into: `["payload"]`, `["s", "headers"]`.
    pub object: Vec<Text>,
    pub under: StoredUnder,
    pub value: Value,
    pub line: u32,
    /// Inside an `if`/`try`/loop/`with` of its scope.
    #[serde(default)]
    pub conditional: bool,
}

/// What a value is stored under.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum StoredUnder {
    /// `object.name = value`
    Attribute(Text),
    /// `object[key] = value`
    Key(Value),
}

/// One call in a function's body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BodyCall {
    pub callee: Value,
    /// For a method call `x.m(...)` on an expression that is not a plain
    /// name chain (`requests.get(u).json()`): the receiver and the method.
    /// (Boxed, as `chain` is: most calls have neither, and a call fact is
    /// one of the commonest of a module.)
    pub receiver: Option<Box<(Value, Text)>>,
    /// For a method on a chain of method calls (`q.strip().lower().m()`):
    /// what the chain starts from (`q`) and the methods called on the way
    /// (`strip`, `lower`), in call order.
    pub chain: Option<Box<(Value, Vec<Text>)>>,
    pub args: ThinVec<Value>,
    pub keywords: ThinVec<(Option<Text>, Value)>,
    pub line: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClassFact {
    pub name: Text,
    pub qualname: Text,
    pub line: u32,
    pub bases: Vec<Value>,
    /// What the class body binds directly (class attributes, methods,
    /// nested classes), with the value of simple assignments: what a
    /// reader of a class's instances must know it does not redefine.
    pub attributes: Vec<BindingFact>,
    /// The class's decorators, outermost first (`@dataclass`).
    #[serde(default)]
    pub decorators: Vec<Value>,
    /// The keywords of the class statement (`metaclass`), by name.
    #[serde(default)]
    pub keywords: Vec<Text>,
    /// Every attribute name the class's code spells (`self.tools`,
    /// `super().x`, `other.name`), read or written, in its body, methods
    /// and nested definitions, with how many times: what proves a class
    /// never touches an agent's capability fields, or touches one only
    /// where it is stored and read.
    #[serde(default)]
    pub attribute_names: super::NameCounts,
    /// Each `self.X` the class's code spells where it only reads what the
    /// attribute holds (`SelfRead`): what lets a class that logs, formats
    /// or compares an attribute still be read as storing it once.
    #[serde(default)]
    pub self_reads: Vec<SelfRead>,
}

/// One `self.X` in a class's code that only reads the attribute's value:
/// an f-string field, a comparison's operand, a truth test, an iterable,
/// a `%` or `str.format` operand (`via` empty), or an argument of a call
/// of a plain name or `name.method` (`via`: the callee as spelled, for the
/// graph layer to judge: `len`, `logger.info`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SelfRead {
    pub attribute: Text,
    pub via: Option<Text>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CallFact {
    pub callee: Value,
    pub line: u32,
    pub args: Vec<Value>,
    pub keywords: Vec<KeywordFact>,
    /// The assignment target the call's value goes to, spelled as in source
    /// (`support`, `self.agent`); `None` when not assigned.
    pub assigned_to: Option<Text>,
    /// Qualified name of the enclosing function or class; empty at module level.
    pub scope: Text,
    /// The `if`/`elif`/`else` tests the call runs under within its scope,
    /// outermost first; `None` when it runs in a loop, an `except` handler
    /// or a `match` case, where whether (or how often) it runs is not read.
    pub guard: Option<Vec<Condition>>,
}

/// One test a statement runs under: `holds` is false in an `else` (or a
/// later `elif`) branch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Condition {
    pub test: Value,
    pub holds: bool,
}

impl CallFact {
    /// The call as the value model spells it (what a return or a binding
    /// of it holds).
    pub fn value(&self) -> Value {
        Value::Call {
            callee: Box::new(self.callee.clone()),
            args: self.args.iter().cloned().collect(),
            keywords: self.keyword_pairs().into(),
        }
    }

    /// The keywords as `(name, value)` pairs, as a `Value::Call` and the
    /// argument binders take them.
    pub fn keyword_pairs(&self) -> Vec<(Option<Text>, Value)> {
        self.keywords
            .iter()
            .map(|k| (k.name.clone(), k.value.clone()))
            .collect()
    }

    pub fn keyword(&self, name: &str) -> Option<&KeywordFact> {
        self.keywords
            .iter()
            .find(|k| k.name.as_deref() == Some(name))
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeywordFact {
    /// `None` for `**mapping`.
    pub name: Option<Text>,
    pub value: Value,
    pub line: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum BindingKind {
    Function,
    Class,
    Assignment,
    Import,
    /// A parameter of the enclosing function.
    Parameter,
    /// `with EXPR as name`: `value` holds `EXPR` (what `__enter__` is
    /// called on, not necessarily what it returns).
    With,
    /// One name of a flat tuple target, `a, b = value`: `value` holds the
    /// whole right-hand side, and this name takes item `index` of `of`
    /// (Python raises unless the value has exactly `of` items).
    Unpacked {
        index: u32,
        of: u32,
    },
    /// Any other binding statement (`for`, `with`, augmented assignment, …).
    Other,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BindingFact {
    pub name: Text,
    pub kind: BindingKind,
    pub line: u32,
    /// Bound inside an `if`/`try`/loop/`with` of its scope.
    pub conditional: bool,
    /// Bound under `if TYPE_CHECKING:`: never runs.
    pub type_checking: bool,
    /// For a single-target assignment, the value assigned.
    pub value: Option<Value>,
    /// The `if`/`elif` tests the binding runs under within its scope;
    /// `None` inside a loop, handler or case (bound a number of times no
    /// test decides).
    pub guard: Option<Vec<Condition>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The facts of a 900-module repository hold about a million values
    /// and 114,000 body calls (issue 23): a value is four words (a string
    /// inline, or a list, or boxes and thin lists, beside its tag; it was
    /// seven) and a body call nine (it was fourteen), so that no rare
    /// variant widens every one.
    #[test]
    fn values_and_calls_stay_small() {
        assert_eq!(std::mem::size_of::<Value>(), 32);
        assert_eq!(std::mem::size_of::<BodyCall>(), 72);
        assert_eq!(std::mem::size_of::<Text>(), 24);
    }
}
