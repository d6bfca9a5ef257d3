"""The model of an application: function tools, MCP servers, agents and how each module is spelled.

A seed draws a model (draw.py) and edits change it (edits.py); the truth (truth.py) is computed
from models alone and the renderer (render/) spells them as Python. Fields marked neutral change
only the text, never what an agent binds."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

SDK = "sdk"
ADK = "adk"


@dataclass
class Tool:
    """A function tool: its meaning is its signature, its decorator and its body's AST."""

    name: str
    framework: str
    params: list[str]
    body: int  # implementation variant: a literal in the body
    local: str  # the body's local variable (renaming it changes the AST)
    module: str  # module stem under app/ where it is defined (neutral)
    definition: str  # catalogue shape of the definition (fixed per tool)
    doc: int = 1  # docstring variant, 0 = none (neutral)
    comment: int = 0  # comment variant inside the body (neutral)
    order: int = 0  # position among its module's definitions (neutral)
    types: dict[str, str] = field(default_factory=dict)  # parameter -> annotation (default str)
    default: Optional[str] = None  # the last parameter's default, as source
    is_async: bool = False
    returns: str = "str"
    override: str = ""  # SDK name_override=: the tool's name when given
    override_constant: bool = False  # the decorator spells it by a module constant (fixed per tool: it is in the AST)
    helper: bool = False  # the body returns through the module's _fmt(...)
    key: str = ""  # the model's identity, when a same-named tool is defined in another module
    wrapper: str = "undecorated"  # catalogue shape of the repository decorator under the framework's
    label: str = ""  # the decorator factory's argument (`decorator_factory`, `factory_may_return_none`)

    @property
    def tid(self) -> str:
        """How agents and edits refer to this tool: its name, unless it has a same-named twin."""
        return self.key or self.name


@dataclass
class Server:
    """An MCP server defined at module level of an agent file."""

    key: str
    framework: str
    file: str
    var: str
    command: str
    args: list[str]
    named: bool = True  # SDK: passes name= (its row name)
    module: str = ""  # module stem where it is built, "" = its agent file (neutral)
    filter: Optional[list[str]] = None  # tool_filter: the allowed tool names


@dataclass
class AgentSpec:
    """One agent construction and everything it binds."""

    key: str
    framework: str
    file: str  # agent module stem under app/
    var: str
    name: str
    construction: str  # catalogue shape
    tools_list: str  # catalogue shape
    handoff_ref: str = "handoff_plain"  # SDK: plain or handoff(x)
    tools: list[str] = field(default_factory=list)  # function tools (Tool.tid)
    hosted: dict[str, str] = field(default_factory=dict)  # hosted tool -> argument
    servers: list[str] = field(default_factory=list)  # server keys
    agent_tools: list[str] = field(default_factory=list)  # agent keys (as_tool / AgentTool)
    handoffs: list[str] = field(default_factory=list)  # agent keys (handoffs / sub_agents)
    clone_of: Optional[str] = None
    order: int = 0  # definition order hint (neutral)
    list_name: str = ""  # stem of module constants (neutral)
    instruction: int = 0  # neutral
    adk_class: str = "Agent"  # Agent or LlmAgent (neutral)
    tool_choice: Optional[str] = None  # SDK ModelSettings(tool_choice=...)
    tool_use_behavior: Optional[str] = None  # SDK; None is the default, run_llm_again
    spell_default: bool = False  # SDK: write tool_use_behavior="run_llm_again" when it is the default
    conditions: dict[str, str] = field(default_factory=dict)  # tool -> env flag it is bound under ("!F": when F is not "1")
    rewire_handoffs: bool = True  # a rewire shape also moves the last handoff (ADK: `rewire_sub_agents`)
    model: int = 0  # neutral
    description: int = 0  # an as_tool description variant (neutral)
    list_order: int = 0  # member order of its lists, 0 = natural (neutral)
    target_ref: str = "target_builder_call"  # how it spells the builder-made agents it references


@dataclass
class FileStyle:
    """How one module is spelled: nothing here is a binding."""

    quote: str = '"'
    multiline: bool = False
    comments: int = 0
    header: int = 0
    class_spelling: str = "class_import"
    alias_agents: bool = False  # import other modules' agents `as x_agent`
    tool_name_constants: bool = False  # SDK as_tool(tool_name=ASK_X_TOOL), the constant bound in this module
    hosted_branches: bool = False  # a hosted tool's argument bound on if/else branches (not neutral: fixed per file)
    rebind_imported_agents: bool = False  # `x = _instrument(x)` after every construction, for imported ADK sub-agents (neutral)
    import_style: dict[str, str] = field(default_factory=dict)  # tool module -> shape


@dataclass
class App:
    """A whole application: what its modules define and how each module is spelled."""

    tools: dict[str, Tool] = field(default_factory=dict)
    servers: dict[str, Server] = field(default_factory=dict)
    agents: dict[str, AgentSpec] = field(default_factory=dict)
    styles: dict[str, FileStyle] = field(default_factory=dict)
    agent_files: dict[str, list[str]] = field(default_factory=dict)  # framework -> stems
    helpers: dict[str, int] = field(default_factory=dict)  # module -> _fmt body variant (neutral)
    decorators: dict[str, int] = field(default_factory=dict)  # decorator function -> code variant (a binding)
    package_init: str = "package_eager"  # how app/lib/__init__.py re-exports its modules' tools (neutral)

    def style(self, stem: str) -> FileStyle:
        return self.styles.setdefault(stem, FileStyle())

    def agents_in(self, stem: str) -> list[AgentSpec]:
        return [a for a in self.agents.values() if a.file == stem]


def negated(flag: str) -> bool:
    """A condition `!F` binds the member when F is not "1" (the else branch)."""
    return flag.startswith("!")


def flag_name(flag: str) -> str:
    return flag.removeprefix("!")


# The hosted (built-in) tools of each framework, and the arguments an agent may pass them.
HOSTED_BY_FRAMEWORK = {SDK: ["WebSearchTool"], ADK: ["google_search", "load_memory"]}
HOSTED_ARGUMENTS = {"WebSearchTool": ["", "low", "high"], "google_search": [""], "load_memory": [""]}
