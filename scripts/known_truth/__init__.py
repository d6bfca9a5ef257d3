"""Applications with known bindings: an oracle for `shipgate-daemon diff --application`.

The truth model
---------------
A seed draws a *model* of a Python application: OpenAI Agents SDK agents
(`Agent` from `agents`) and Google ADK agents (`Agent`/`LlmAgent` from
`google.adk.agents`), the function tools they bind, SDK handoffs and ADK
sub-agents, MCP servers (SDK `MCPServerStdio` in `mcp_servers=`, ADK
`McpToolset` in `tools=`), hosted/built-in tools and agents used as tools.
The model is rendered as Python source in *shapes* drawn from a catalogue
(`CATALOGUE`: literal lists, spreads, module constants, builders, imports
across modules, decorators, wrappers, clones, rewires, dynamic lists, ...),
committed on `main`; a list of random edits turns it into the head model,
rendered and committed on the branch `head`. Issue 40's reading rules each
have their shapes and their edges (the variants where the rule does not
hold, drawn as shapes the readers cannot read): builder calls as handoff,
sub-agent and AgentTool targets (`target_ref`, the builder constructions),
copies passed on (`passed_copy`), imported spread lists
(`imported_spread_list`), the package's lazy `__getattr__` registry
(`package_init`), repository decorators (`tool_wrapper`) and additions
under `if` tests (`conditional_append`, `conditional_else`).

Edits are of two kinds. *Binding edits* change what an agent binds: add or
remove a tool, handoff, sub-agent, server, hosted tool, agent-as-tool or
whole agent; move an agent to another module; bind a same-named tool of
another module instead; change a tool's signature (parameters, annotations,
default, async, return, SDK name_override=), its decorator or its body (a
literal, a local's name, a helper call: the implementation digest is the
function's AST without its docstring), an MCP server's command, arguments or
tool filter, a hosted tool's argument, an SDK agent's tool_choice or
tool_use_behavior (part of every row of the agent), the condition a tool
is bound under (`F`, or `!F` for an else branch), or a tool's repository
decorator, its factory's argument or the decorator's code. *Neutral edits* change nothing an agent binds: move a tool or
a server to another module and import it from there, wrap an ADK function in
FunctionTool or not, edit docstrings (Args: sections included), comments and
a helper the tool calls, reformat, rename module constants and builders,
reorder definitions and list members, rename an ADK agent in place (the
engine pairs it), change an agent's model, instructions or an as_tool
description, switch between shapes that spell the same binding (the
package's eager or lazy re-exports, a builder target's call or local).

The truth is computed from the two models alone, never from the rendered
text or the engine: `expected_bindings` maps a model to
`{(agent_source, agent, tool): meaning}` (the one place that says how a
model object is named in a row: SDK agents by variable, builders and
clones by name=, ADK agents by name=; tools by name or name_override=,
hosted tools by class, MCP servers by name= or variable, agents as tools by
tool_name= or the wrapped agent's name, handoffs and sub-agents as
`handoff:<file>:<agent>`), and `true_changes` compares the two maps: a key
on one side only is `added`/`removed`, a key on both sides whose meaning
differs is `changed`. `--self-check` holds the renderer to the model without
the engine: it imports each rendered version over stub frameworks and
compares what every agent holds at run time with what the model says.

The three properties
--------------------
For the engine's JSON document (`diff --application --scope app --json`):

(a) every established row (`change` added/removed/changed) is a true change
    of that kind, for that agent and that binding, and a function tool's
    side carries the `bound_when` the model says (`truth.bound_when`: the
    condition's test, `` `os.getenv('F') == '1'` ``, `not` before it for
    `!F`; `` when `<module>` is imported `` for a tool a rewire in another
    module adds; none otherwise); a row on a binding the model renders in a shape the
    readers cannot read (a list a call builds dynamically, `**kwargs`, an
    edge of a rule) claims a certainty it cannot have and fails too;
(b) every true change is a row (any `change`, `not_established` included)
    or is covered by a named limit on its agent: a coverage gap on either
    side with `affects: binding_presence` whose `agent` is null or that
    agent, whose `tool` is null or that binding, and whose `source` is null
    or covers the agent's file (contract §6.5); otherwise it is a silent
    hide. A side that renders an agent in a shape the readers cannot read
    must name a limit on that agent;
(c) a binding with no true change has no established row.

A failing program is shrunk (agents, tools, servers and edits are dropped,
shapes made plain, while the same property fails on the same binding) and
printed: both versions' files, the edits and the violated property with
the offending row.

A shape the current engine reads wrongly (confirmed by hand against the
spec) carries `known_wrong="..."` in the catalogue and is not drawn unless
`--include-known-wrong` is given; `--list-shapes` prints the catalogue.

Usage:
    known_truth.py --seed N --count K --daemon PATH [--shapes a,b] [--minutes M]
                   [--include-known-wrong] [--no-shrink] [--show]
    known_truth.py --self-check --seed N --count K [--shapes a,b] [--include-known-wrong]
    known_truth.py --list-shapes

Python 3 standard library only.
"""
