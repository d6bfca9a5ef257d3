//! Google ADK tool factories (spec: "A Google ADK tool built by a factory
//! is the function the factory wraps"): `tools=[make_tool(x)]` or
//! `tool = make_tool(x)` is read, never run, to the factory's one
//! unconditional return, up to four factories deep. The tool is the
//! function returned; the factory's code and the values this call gives its
//! parameters are part of its implementation digest, so a changed argument
//! is a changed tool and a re-spelled call is not.

use super::eval::call_frames::{CallFrame, CallSite, NotFollowed, RepositoryCall};
use super::{FollowedTool, ModuleReader};
use crate::frameworks::adk::{self, AdkName};
use crate::graph::schema::{interface, unparse};
use crate::graph::{ImportPath, ToolDefinition};
use crate::pyrepr::str_repr;
use crate::python::{BindingKind, FunctionFact, ModuleFacts, Value};
use crate::resolve::{ImportStep, Resolver, Target};
use std::rc::Rc;

/// Factories followed from one call, at most.
const MAX_FACTORY_DEPTH: usize = 4;

/// What reading a call as a factory gave.
pub(super) enum FactoryRead {
    /// Not a repository function: the call is what it was.
    NotAFactory,
    /// The tool, and the arguments this read could not name (spelled with
    /// where they are given).
    Tool(Box<FollowedTool>, Vec<String>),
    /// A repository helper whose one return builds an object (an agent
    /// tool, a toolset): where that call is written, to be read as one.
    Object {
        path: String,
        scope: String,
        call: Value,
        line: u32,
    },
    /// A factory this reader does not follow, and why.
    Limit(String),
}

/// What a factory's return gave.
enum Returned<'a> {
    /// The function, and the tool name it is bound under.
    Function(&'a str, &'a FunctionFact, String),
    Object {
        path: &'a str,
        scope: String,
        call: Value,
        line: u32,
    },
}

/// What one factory hop gathered.
struct Trail {
    steps: Vec<ImportStep>,
    digest_parts: Vec<String>,
    unnamed: Vec<String>,
}

impl<'a> ModuleReader<'a, '_> {
    /// Reads `call`, written in `path` inside `scope`, as a tool factory.
    pub(super) fn read_factory(&self, path: &str, scope: &str, call: &Value) -> FactoryRead {
        let Some(key) = self.modules.key(path) else {
            return FactoryRead::NotAFactory;
        };
        let mut trail = Trail {
            steps: Vec::new(),
            digest_parts: Vec::new(),
            unnamed: Vec::new(),
        };
        match self.factory_hop(key, scope, call, None, 0, &mut trail) {
            Ok(None) => FactoryRead::NotAFactory,
            Ok(Some(Returned::Object {
                path,
                scope,
                call,
                line,
            })) => FactoryRead::Object {
                path: path.to_string(),
                scope,
                call,
                line,
            },
            Err(why) => FactoryRead::Limit(format!(
                "{} is a tool factory this reader does not follow: {why}",
                str_repr(&super::messages::spelled_member(call))
            )),
            Ok(Some(Returned::Function(def_path, function, tool_name))) => {
                let sha = |p: &str| {
                    self.modules
                        .facts(p)
                        .map(|f| f.source_sha256.clone())
                        .unwrap_or_default()
                };
                trail.steps.push(ImportStep {
                    path: def_path.to_string(),
                    line: Some(function.line),
                    name: function.name.to_string(),
                    sha256: sha(def_path).to_string(),
                    binding: "definition".to_string(),
                    lazy_submodule: false,
                });
                trail
                    .digest_parts
                    .push(format!("tool {}", function.implementation_sha256));
                let digest =
                    crate::python::ast_dump::sha256_of_json_string(&trail.digest_parts.join("\n"));
                FactoryRead::Tool(
                    Box::new(FollowedTool {
                        // A gate a factory's wrapper sets is in its digest
                        // (`wrapper …`), not read as a gate.
                        gates: Vec::new(),
                        tool: tool_name,
                        definition: ToolDefinition {
                            source: def_path.to_string(),
                            line: Some(function.line),
                            implementation_sha256: Some(digest),
                            interface: interface(&function.name, function),
                            import_path: Some(ImportPath {
                                reference: super::messages::spelled_member(call),
                                steps: trail.steps,
                                caveats: Vec::new(),
                            }),
                            reach: None,
                        },
                    }),
                    trail.unnamed,
                )
            }
        }
    }

    /// One factory: `Ok(None)` when the callee is not a repository
    /// function, else the function its one return gives.
    fn factory_hop(
        &self,
        path: &'a str,
        scope: &str,
        call: &Value,
        outer: Option<Rc<CallFrame>>,
        depth: usize,
        trail: &mut Trail,
    ) -> Result<Option<Returned<'a>>, String> {
        let RepositoryCall {
            path: factory_path,
            function: factory,
            steps,
            args,
            keywords,
            ..
        } = match self.repository_call(path, scope, call) {
            None => return Ok(None),
            // A factory another module could rebind is not the one called.
            Some(Err(NotFollowed { why, .. })) => return Err(why),
            Some(Ok(found)) => found,
        };
        if depth >= MAX_FACTORY_DEPTH {
            return Err("it is more than four factories deep".into());
        }
        let facts = self
            .modules
            .facts(factory_path)
            .ok_or("its module is not read")?;
        check_factory(facts, factory)?;
        let [ret] = factory.body().returns_found.as_slice() else {
            return Err("it returns from more than one place".into());
        };
        trail
            .steps
            .extend(steps.into_iter().filter(|s| s.binding != "definition"));
        trail.steps.push(ImportStep {
            path: factory_path.to_string(),
            line: Some(factory.line),
            name: factory.name.to_string(),
            sha256: facts.source_sha256.to_string(),
            binding: "factory".to_string(),
            lazy_submodule: false,
        });
        // The values this call gives the factory's parameters, in the
        // frame of its call (`call_frames.rs`).
        let site = CallSite {
            path,
            scope,
            line: ret.line,
            outer: outer.clone(),
        };
        let frame = self.call_frame(site, factory_path, factory, args, keywords)?;
        let outer_facts = outer.as_ref().and_then(|o| self.modules.facts(&o.path));
        for (param, spelled) in &frame.spelled {
            let Err(text) = spelled else { continue };
            // What the outer factory could not name is named there once.
            let from_outer = matches!(
                frame.args.iter().find(|a| a.param == *param).map(|a| &a.value),
                Some(Value::Name(name))
                    if outer.as_ref().zip(outer_facts).is_some_and(|(o, facts)| {
                        o.spelled_param(facts, name).is_some()
                    })
            );
            if !from_outer {
                trail.unnamed.push(format!("{param}={text}"));
            }
        }
        trail.digest_parts.push(format!(
            "factory {} ({})",
            factory.implementation_sha256,
            frame.spelled_arguments()
        ));
        let returned = ret.value.as_ref().ok_or("it returns nothing")?;
        self.returned_tool(
            factory_path,
            factory,
            returned,
            ret.line,
            &frame,
            depth,
            trail,
            0,
        )
        .map(Some)
    }

    /// What a factory's return gives: a wrapped or plain function, a name
    /// bound once to one, or another factory's call.
    #[allow(clippy::too_many_arguments)]
    fn returned_tool(
        &self,
        path: &'a str,
        factory: &'a FunctionFact,
        value: &Value,
        return_line: u32,
        frame: &Rc<CallFrame>,
        depth: usize,
        trail: &mut Trail,
        hops: usize,
    ) -> Result<Returned<'a>, String> {
        let facts = self.modules.facts(path).ok_or("its module is not read")?;
        let scope = factory.qualname.as_str();
        if let Some(call) = self.wrapper_call(facts, value, scope) {
            if call.name_override.is_some() {
                return Err("it renames the tool it returns".into());
            }
            if !call.other_arguments.is_empty() {
                trail
                    .digest_parts
                    .push(format!("wrapper {}", call.other_arguments.join(",")));
            }
            return self
                .factory_function(path, factory, call.wrapped, return_line, true)
                .map(|(p, f)| Returned::Function(p, f, f.name.to_string()));
        }
        match value {
            Value::Name(name) if hops < 2 => {
                // A name the factory binds once to a wrapper or a function.
                let locals: Vec<_> = factory.locals_named(name).collect();
                match locals.as_slice() {
                    [binding]
                        if binding.kind == BindingKind::Assignment && !binding.conditional =>
                    {
                        let bound = binding
                            .value
                            .as_ref()
                            .ok_or("its returned name has no value")?;
                        self.returned_tool(
                            path,
                            factory,
                            bound,
                            return_line,
                            frame,
                            depth,
                            trail,
                            hops + 1,
                        )
                    }
                    _ => self.plain_tool(path, factory, value, return_line),
                }
            }
            Value::Call { callee, .. } => match adk::adk_value(facts, callee, scope) {
                // The object is read where the helper builds it; its
                // parameters are not bound, so a part made from one stays
                // a named part not read.
                Some(AdkName::AgentTool | AdkName::Toolset(_)) => Ok(Returned::Object {
                    path,
                    scope: scope.to_string(),
                    call: value.clone(),
                    line: return_line,
                }),
                _ => self
                    .factory_hop(path, scope, value, Some(frame.clone()), depth + 1, trail)?
                    .ok_or_else(|| "it returns a call this reader does not read".to_string()),
            },
            _ => Err(format!("it returns {}", unparse(value))),
        }
    }

    /// A function a factory returns as it is: for ADK any plain function;
    /// for the SDK one decorated with `@function_tool`, under its tool name.
    fn plain_tool(
        &self,
        path: &'a str,
        factory: &'a FunctionFact,
        reference: &Value,
        return_line: u32,
    ) -> Result<Returned<'a>, String> {
        let (def_path, function) =
            self.factory_function(path, factory, reference, return_line, false)?;
        let name = match self.framework {
            super::Framework::Adk => function.name.to_string(),
            super::Framework::OpenAi => {
                let facts = self
                    .modules
                    .facts(def_path)
                    .ok_or("its module is not read")?;
                crate::frameworks::openai::function_tool_name(facts, function).ok_or_else(|| {
                    format!(
                        "it returns {}, which is not decorated with the SDK's @function_tool",
                        str_repr(&function.name)
                    )
                })?
            }
        };
        Ok(Returned::Function(def_path, function, name))
    }

    /// The function a factory returns: one nested in it and defined before
    /// the return, or one its module binds.
    fn factory_function(
        &self,
        path: &'a str,
        factory: &'a FunctionFact,
        reference: &Value,
        return_line: u32,
        wrapped: bool,
    ) -> Result<(&'a str, &'a FunctionFact), String> {
        let mut resolver = Resolver::new(self.modules);
        let found = resolver.resolve(path, &factory.qualname, reference)?;
        let Target::Function {
            path: def_path,
            function,
        } = found.target
        else {
            return Err(format!(
                "{} is not a function",
                str_repr(&unparse(reference))
            ));
        };
        let nested = function
            .qualname
            .starts_with(&format!("{}.", factory.qualname))
            && def_path == path
            && function.line < return_line;
        if !nested && !function.module_level {
            return Err(format!(
                "{} is neither nested in it nor bound by a module",
                str_repr(&function.name)
            ));
        }
        // A wrapped function (and any ADK tool) is a plain one; a returned
        // SDK tool carries its own @function_tool.
        if (wrapped || self.framework == super::Framework::Adk) && !function.decorators.is_empty() {
            return Err(format!(
                "the wrapped function {} is decorated",
                str_repr(&function.name)
            ));
        }
        // A function renamed or handed on inside the factory is not the tool
        // its definition says.
        let facts = self.modules.facts(path).ok_or("its module is not read")?;
        if facts.attribute_stores.iter().any(|store| {
            store.target.first() == Some(&function.name)
                && (store.scope == factory.qualname
                    || store.scope.starts_with(&format!("{}.", factory.qualname)))
        }) {
            return Err(format!(
                "{} is changed inside the factory",
                str_repr(&function.name)
            ));
        }
        Ok((def_path, function))
    }
}

/// The shapes a factory may not have.
fn check_factory(facts: &ModuleFacts, factory: &FunctionFact) -> Result<(), String> {
    if !factory.decorators.is_empty() {
        return Err("it is decorated".into());
    }
    if factory.is_async {
        return Err("it is async".into());
    }
    super::eval::call_frames::returns_once(facts, factory, "it ")
}
