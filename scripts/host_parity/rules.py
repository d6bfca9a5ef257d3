"""Permission rules by what they match: `parse_rule` and `covers(wide, narrow)`, a line-by-line
port of the daemon's `daemon/src/hosts/rules.rs` (`Rule::parse`, `covers`), which is the truth:
when the two disagree, this file is wrong.

`covers(a, b)` holds only when every call `b` matches, `a` matches too:
  * a rule covers itself (same tool, same specifier after trimming);
  * MCP rules: `mcp__server` and `mcp__server__*` (bare) cover every bare rule of that server
    (`mcp__server__tool`, each other); any other MCP rule covers only itself. The server is
    the text after `mcp__` up to the next `__`, so `mcp__*` is the server `*`: it covers only
    rules of a server named `*` (itself, `mcp__*__*`, `mcp__*__x`), never `mcp__github`;
  * otherwise the tools must be the same;
  * a bare tool (not an MCP tool rule), `Tool(*)`, `Tool(**)` or `Tool(**/*)` covers every rule
    of its tool, for every tool (the specifier is compared as written: `Read(./**)` and
    `Read(/**)` are not among these forms);
  * Bash: a prefix `X:*` (no other `*`) covers `Y` or `Y:*` when Y == X or Y starts with X and
    a space (or X is empty); an exact command covers only itself; a specifier with a `*`
    anywhere else covers only itself;
  * path tools (Read, Edit, Write, MultiEdit, NotebookEdit, NotebookRead, Glob, Grep), one
    leading `./` ignored on both sides: equal patterns cover each other; `dir/**` (dir not empty,
    no `*?[{` in it) covers every pattern under `dir/` that has no `..`;
  * any other specifier covers only itself.
"""

# Rust's `str::trim` / `trim_end` strip White_Space characters (`char::is_whitespace`), which is
# not the set Python's `str.strip()` strips (U+001C..U+001F are Python's, not Rust's).
RUST_WHITESPACE = ("\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
                   "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")

# The tools whose specifier is a path pattern (rules.rs `PATH_TOOLS`).
PATH_TOOLS = ("Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "NotebookRead", "Glob", "Grep")


def trim(text):
    return text.strip(RUST_WHITESPACE)


def trim_end(text):
    return text.rstrip(RUST_WHITESPACE)


def parse_rule(text):
    """`Tool(specifier)` as (tool, specifier), a bare tool as (tool, None) (`Rule::parse`)."""
    text = trim(text)
    open_at = text.find("(")
    if open_at >= 0 and text[open_at + 1:].endswith(")"):
        return trim(text[:open_at]), trim(text[open_at + 1:-1])
    return text, None


def is_mcp_tool(tool):
    """An MCP rule naming one tool of a server (`mcp__github__get_issue`)."""
    if not tool.startswith("mcp__"):
        return False
    rest = tool[len("mcp__"):]
    return "__" in rest and not rest.endswith("__*")


def mcp_server(tool):
    """The server of an MCP rule (`mcp__github__x` -> `github`), None for any other tool."""
    return tool[len("mcp__"):].split("__")[0] if tool.startswith("mcp__") else None


def matches_every_target(tool, spec):
    """Whether the rule matches every call of its tool (`Bash`, `Bash(*)`, `Edit(**)`, `mcp__github`)."""
    if spec is None:
        return not is_mcp_tool(tool)
    return spec in ("*", "**", "**/*")


def bash_form(spec):
    """A Bash specifier as (prefix, True) for `prefix:*`, (command, False) for an exact command,
    None for a form whose matches are not read (a `*` elsewhere)."""
    if spec.endswith(":*"):
        prefix = spec[:-2]
        return None if "*" in prefix else (trim_end(prefix), True)
    if "*" in spec:
        return None
    return trim(spec), False


def bash_covers(wide, narrow):
    form_wide, form_narrow = bash_form(wide), bash_form(narrow)
    if form_wide is None or form_narrow is None:
        return False
    (wide, wide_prefix), (narrow, _) = form_wide, form_narrow
    if not wide_prefix or not narrow.startswith(wide):
        return False
    rest = narrow[len(wide):]
    # At a word boundary only: `npm run` covers `npm run test`, not `npm runner`.
    return rest == "" or wide == "" or rest.startswith(" ")


def normalize_path(spec):
    """A path pattern without one leading `./`."""
    return spec[2:] if spec.startswith("./") else spec


def has_glob(text):
    return any(c in text for c in "*?[{")


def path_covers(wide, narrow):
    wide, narrow = normalize_path(wide), normalize_path(narrow)
    if wide == narrow:
        return True
    if not wide.endswith("/**"):
        return False
    directory = wide[:-3]
    if has_glob(directory) or not directory:
        return False
    # Anything under the directory, patterns included: `src/**` covers `src/api/**` and `src/a.py`.
    return narrow.startswith(directory) and narrow[len(directory):].startswith("/") and ".." not in narrow


def covers(wide, narrow):
    """Whether every call `narrow` matches, `wide` matches too (see the module's docstring)."""
    (tool_a, spec_a), (tool_b, spec_b) = parse_rule(wide), parse_rule(narrow)
    if (tool_a, spec_a) == (tool_b, spec_b):
        return True
    server_a, server_b = mcp_server(tool_a), mcp_server(tool_b)
    if server_a is not None and server_b is not None:
        # `mcp__github` and `mcp__github__*` cover every tool of the server; a tool rule only itself.
        whole_server = spec_a is None and tool_a in (f"mcp__{server_a}", f"mcp__{server_a}__*")
        return whole_server and server_a == server_b and spec_b is None
    if tool_a != tool_b:
        return False
    if matches_every_target(tool_a, spec_a):
        return True
    if spec_a is None or spec_b is None:
        return False
    if tool_a == "Bash":
        return bash_covers(spec_a, spec_b)
    if tool_a in PATH_TOOLS:
        return path_covers(spec_a, spec_b)
    return spec_a == spec_b
