#!/usr/bin/env python3
"""Host-grant parity: random coding-agent host configuration changes, answered
by the reference (`agents-shipgate diff`) and by ours (`shipgate-daemon diff`).

Truth model
-----------
The reference, `agents-shipgate diff --workspace W --base main --json`
(release 1.2.0, used only as a black box), is the oracle for what a change
does to the configuration of coding-agent hosts: Claude Code
(`.claude/settings.json`, `.claude/settings.local.json`, `.mcp.json` at any
depth), Cursor (`.cursor/mcp.json`), VS Code (`.vscode/mcp.json`), Codex
(`.codex/config.toml`) and GitHub workflows (`.github/workflows/*.yml`).
Ours must give the same answer, except where `host_parity_known.json` lists a
decided, intended difference. Each entry there is a normalisation applied
before comparing (today: the reference's `added` + `removed` pair for a
permission rule replaced by a wider or narrower one, or for a one-value
setting changed in place, becomes the one `widened` / `narrowed` / `changed`
row ours prints). A difference no entry explains is a mismatch.

Per case we compare
  * `comparison_status`;
  * the rows, as a multiset of (direction, severity, subject, before, after,
    disposition, expands, why): a row a known difference rewrote is compared
    strictly on direction, subject, before, after and disposition, and loosely
    on severity, why and expands (a loose difference is reported, never fails);
  * the coverage items, as a multiset of (source, status, side);
  * the top-level, coverage and row keys of the JSON document;
  * secrets: every environment and header value the generator plants is a
    fresh secret-looking token; neither tool's output (JSON or text) may ever
    contain one. A leak is a failure of the tool that printed it.
A tool that crashes, times out (60 s a run) or prints something that is not
JSON fails that case; the script itself carries on.

Each case is a git repository in a temporary directory: base files committed
on `main`, a branch `feature` checked out, head edits applied to the working
tree and then committed, left uncommitted, or partly both (the tools compare
the working tree). Case N of seed S is always the same case (`--case N`).

Python 3 standard library only. Run `--help` for the flags.
"""

import argparse
import collections
import json
import os
import random
import re
import shutil
import string
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_REFERENCE = "/work/shared/oracle/agents-shipgate"
DEFAULT_KNOWN = os.path.join(HERE, "host_parity_known.json")
RUN_TIMEOUT = 60
DASH = "\u2014"  # the reference's "no value" in before / after

ROW_FIELDS = ("direction", "severity", "subject", "before", "after", "disposition", "expands", "why")
STRICT_WHEN_COLLAPSED = ("direction", "subject", "before", "after", "disposition")
COVERAGE_FIELDS = ("source", "status", "side")


# ---------------------------------------------------------------------------
# Secrets: every env / header value is one of these, so a leak is a substring.
# ---------------------------------------------------------------------------

SECRET_PREFIXES = ("sk-live-", "ghp_", "xoxb-", "glpat-", "AKIA", "sk-ant-api03-", "npm_")


class Secrets:
    """Mints unique secret-looking tokens for one case and remembers them."""

    def __init__(self, rng):
        self.rng = rng
        self.planted = []

    def new(self):
        alphabet = string.ascii_letters + string.digits
        body = "".join(self.rng.choice(alphabet) for _ in range(self.rng.randint(30, 40)))
        token = self.rng.choice(SECRET_PREFIXES) + body
        self.planted.append(token)
        return token


# ---------------------------------------------------------------------------
# Vocabulary of realistic grants.
# ---------------------------------------------------------------------------

# Each chain runs from narrow to wide: a later rule's matches include an
# earlier one's, so replacing one by a later one widens, by an earlier one
# narrows. No two members of a chain match the same calls.
RULE_CHAINS = [
    ["Bash(npm run test)", "Bash(npm run test:*)", "Bash(npm run:*)", "Bash(npm:*)", "Bash"],
    ["Bash(git diff:*)", "Bash(git:*)", "Bash(*)"],
    ["Bash(git push origin main)", "Bash(git push:*)", "Bash(git:*)"],
    ["Bash(python -m pytest:*)", "Bash(python:*)", "Bash"],
    ["Bash(cargo test:*)", "Bash(cargo:*)"],
    ["Bash(docker compose up:*)", "Bash(docker:*)"],
    ["Read(./src/api/**)", "Read(./src/**)", "Read"],
    ["Read(./.env)", "Read(**)"],
    ["Edit(src/api/**)", "Edit(src/**)", "Edit(**)"],
    ["Edit(docs/**)", "Edit"],
    ["Write(src/generated/**)", "Write(src/**)", "Write"],
    ["WebFetch(domain:docs.example.com)", "WebFetch"],
    ["mcp__github__get_issue", "mcp__github"],
    ["mcp__linear__create_issue", "mcp__linear__*"],
]
STANDALONE_RULES = [
    "Bash(rm -rf:*)", "Bash(curl:*)", "Bash(docker run:*)", "Bash(npx:*)", "Bash(make:*)",
    "Bash(gh pr create:*)", "Bash(sudo:*)", "Bash(uv run:*)", "Glob", "Grep", "WebSearch", "Task",
    "NotebookEdit", "mcp__*", "mcp__sentry__search_issues", "Edit(.github/workflows/**)",
    "MultiEdit", "Write(**)", "TodoWrite",
]
ALL_RULES = sorted({r for chain in RULE_CHAINS for r in chain} | set(STANDALONE_RULES))
DISPOSITIONS = ("allow", "deny", "ask")
DEFAULT_MODES = ("default", "acceptEdits", "plan", "bypassPermissions", "dontAsk")
HOOK_EVENTS = ("PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart", "Stop", "Notification")
HOOK_MATCHERS = ("Bash", "Edit|Write", "Edit", "mcp__github__.*", "*")
HOOK_COMMANDS = (
    "npx prettier --write", "echo done", "uvx ruff format", "/usr/local/bin/audit-hook",
    "./scripts/check.sh", "python3 .claude/hooks/lint.py",
    "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.sh", "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.sh",
)
HOOK_SCRIPT = ".claude/hooks/guard.sh"
EXTRA_DIRS = ("../shared", "../docs", "/tmp/agent-scratch", "~/notes")
MCPJSON_NAMES = ("github", "filesystem", "slack", "linear", "sentry", "postgres")

SERVER_NAMES = ("github", "filesystem", "git", "fetch", "slack", "linear", "sentry", "postgres",
                "browser", "docs", "search", "memory")
ENV_KEYS = ("GITHUB_TOKEN", "API_KEY", "SLACK_BOT_TOKEN", "DATABASE_URL", "LINEAR_API_KEY", "SENTRY_TOKEN")
HEADER_KEYS = ("Authorization", "X-Api-Key", "X-Auth-Token")
NPX_PACKAGES = ("@modelcontextprotocol/server-github", "@modelcontextprotocol/server-filesystem",
                "@modelcontextprotocol/server-slack", "mcp-remote", "@linear/mcp-server")
UVX_PACKAGES = ("mcp-server-git", "mcp-server-fetch", "mcp-server-time")
DOCKER_IMAGES = ("ghcr.io/github/github-mcp-server", "mcp/postgres", "mcp/fetch")
URL_HOSTS = ("https://mcp.example.com", "https://api.example.org", "http://localhost:3000",
             "https://mcp.linear.app", "https://tools.internal.example.net")
URL_PATHS = ("/mcp", "/sse", "/v1/mcp", "/api/mcp/stream")

APPROVAL_POLICIES = ("untrusted", "on-failure", "on-request", "never")
SANDBOX_MODES = ("read-only", "workspace-write", "danger-full-access")
CODEX_MODELS = ("o3", "gpt-5-codex", "o4-mini")

TRIGGERS = ("push", "pull_request", "workflow_dispatch", "schedule", "issue_comment",
            "pull_request_target", "release", "workflow_run")
SCOPES = ("contents", "pull-requests", "issues", "id-token", "packages", "actions", "checks",
          "deployments", "statuses", "security-events")
PERMISSION_CHOICES = (
    "absent", "write-all", "read-all", {}, {"contents": "read"}, {"contents": "write"},
    {"contents": "read", "id-token": "write"}, {"contents": "write", "pull-requests": "write"},
    {"contents": "read", "pull-requests": "write"}, {"packages": "write"}, {"contents": "none"},
    {"issues": "write"},
)
ACTIONS = ("actions/checkout", "actions/setup-node", "actions/setup-python", "actions/cache",
           "docker/login-action", "softprops/action-gh-release", "peter-evans/create-pull-request")
ACTION_REFS = ("v4", "v3", "main", "v1.2.3", "8f4b7f84864484a7bf31766abe9204da3cbe65b3")
RUN_COMMANDS = ("npm ci", "npm test", "make build", "pytest -q", "cargo test", "./scripts/release.sh")
JOB_NAMES = ("build", "test", "lint", "release", "deploy", "triage", "publish")

BROKEN_JSON = ('{"permissions": {"allow": ["Bash(ls:*)",', "{not json", '{"mcpServers": {"x": }}')
# Files that parse but whose shape a host does not have (the reference: `unsupported`).
ODD_SHAPES = {
    "claude": ('{"permissions": ["Bash"]}\n', '{"permissions": {"allow": "Bash"}}\n', "[]\n",
               '{"permissions": {"allow": [""]}}\n'),
    "mcp": ('{"mcpServers": []}\n', "[]\n"),
    "vscode": ('{"mcpServers": {"x": {"command": "npx", "args": ["-y", "pkg@1.0.0"]}}}\n',),
    "codex": ("mcp_servers = 3\n",),
    "workflow": ("- on: push\n", ""),
}
BROKEN_TOML = ('approval_policy = \n', '[mcp_servers.x\ncommand = "npx"\n', 'sandbox_mode = "read-only\n')
BROKEN_YAML = ("on: [push\njobs:\n", "on: push\njobs:\n\tbuild: {}\n", "name: ci\non: push\n  jobs: [\n")


# ---------------------------------------------------------------------------
# Renderers: each host model is plain data, rendered to its file format here.
# ---------------------------------------------------------------------------

def render_json(model, style):
    if style == "compact":
        return json.dumps(model, separators=(",", ":")) + "\n"
    return json.dumps(model, indent=4 if style == "wide" else 2) + "\n"


def toml_key(key):
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)


def toml_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(value)


def render_codex(model, style):
    """A Codex config.toml: top-level values, then [tables]; env inline or as a sub-table."""
    lines = [f"{toml_key(k)} = {toml_value(v)}" for k, v in model.items() if not isinstance(v, dict)]
    sandbox = model.get("sandbox_workspace_write")
    if sandbox:
        lines += ["", "[sandbox_workspace_write]"] + [f"{toml_key(k)} = {toml_value(v)}" for k, v in sandbox.items()]
    for name, server in model.get("mcp_servers", {}).items():
        lines += ["", f"[mcp_servers.{toml_key(name)}]"]
        subtables = []
        for key, value in server.items():
            if isinstance(value, dict) and style == "tables":
                subtables.append((key, value))
            else:
                lines.append(f"{toml_key(key)} = {toml_value(value)}")
        for key, value in subtables:
            lines += [f"[mcp_servers.{toml_key(name)}.{toml_key(key)}]"]
            lines += [f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()]
    return "\n".join(lines).lstrip("\n") + "\n"


def yaml_permissions(perms, indent):
    pad = " " * indent
    if isinstance(perms, str):
        return [f"{pad}permissions: {perms}"]
    if not perms:
        return [f"{pad}permissions: {{}}"]
    return [f"{pad}permissions:"] + [f"{pad}  {scope}: {level}" for scope, level in perms.items()]


def render_workflow(model, style):
    """A GitHub Actions workflow in block YAML; triggers as a list or a mapping."""
    lines = [f"name: {model['name']}"]
    on_key = '"on"' if style == "quoted-on" else "on"
    triggers = model["on"]
    if style == "map-on" or "schedule" in triggers or model.get("branches"):
        lines.append(f"{on_key}:")
        for trigger in triggers:
            if trigger == "schedule":
                lines += ["  schedule:", "    - cron: '0 3 * * 1'"]
            elif trigger in model.get("branches", {}):
                lines += [f"  {trigger}:", f"    branches: [{', '.join(model['branches'][trigger])}]"]
            else:
                lines.append(f"  {trigger}:")
    elif len(triggers) == 1:
        lines.append(f"{on_key}: {triggers[0]}")
    else:
        lines.append(f"{on_key}: [{', '.join(triggers)}]")
    if "permissions" in model:
        lines += yaml_permissions(model["permissions"], 0)
    lines.append("jobs:")
    for job_id, job in model["jobs"].items():
        lines.append(f"  {job_id}:")
        if "uses" in job:
            lines.append(f"    uses: {job['uses']}")
        else:
            lines.append("    runs-on: ubuntu-latest")
        if "permissions" in job:
            lines += yaml_permissions(job["permissions"], 4)
        if "steps" in job:
            lines.append("    steps:")
            for step in job["steps"]:
                key = "uses" if "uses" in step else "run"
                lines.append(f"      - {key}: {step[key]}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# Sources: one host file, its base and head models, and how the case edits it.
# ---------------------------------------------------------------------------

class Source:
    """One host configuration file of a case, on both sides.

    `base` / `head` are models (plain data) or None when the file is absent;
    `base_text` / `head_text` override the rendering (a broken file);
    `extra_base` / `extra_head` hold companion files (a hook's script).
    """

    def __init__(self, kind, path, base, style):
        self.kind = kind
        self.path = path
        self.head_path = path
        self.base = base
        self.head = json.loads(json.dumps(base)) if base is not None else None
        self.style = style
        self.head_style = style
        self.base_text = None
        self.head_text = None
        self.extra_base = {}
        self.extra_head = {}
        self.edits = []
        self.container = None  # the JSON key holding MCP servers

    def render(self, model, style):
        if model is None:
            return None
        if self.kind == "codex":
            return render_codex(model, style)
        if self.kind == "workflow":
            return render_workflow(model, style)
        return render_json(model, style)

    def base_files(self):
        files = dict(self.extra_base)
        text = self.base_text if self.base_text is not None else self.render(self.base, self.style)
        if text is not None:
            files[self.path] = text
        return files

    def head_files(self):
        """Every path this source touches on the head side; None = absent."""
        files = {path: None for path in self.extra_base}
        files.update(self.extra_head)
        files[self.path] = None
        text = self.head_text if self.head_text is not None else self.render(self.head, self.head_style)
        files[self.head_path] = text
        return files

    def note(self, text):
        self.edits.append(f"{self.head_path if self.head_path != self.path else self.path}: {text}")


def pick(rng, items, k=1):
    return rng.sample(list(items), min(k, len(items)))


def weighted(rng, table):
    """`table` is [(weight, value)]; returns one value."""
    total = sum(w for w, _ in table)
    x = rng.uniform(0, total)
    for w, value in table:
        x -= w
        if x <= 0:
            return value
    return table[-1][1]


# --- Claude Code settings ---------------------------------------------------

def draw_rule(rng):
    if rng.random() < 0.65:
        return rng.choice(rng.choice(RULE_CHAINS))
    return rng.choice(STANDALONE_RULES)


def draw_hook_entry(rng):
    return {"matcher": rng.choice(HOOK_MATCHERS),
            "hooks": [{"type": "command", "command": rng.choice(HOOK_COMMANDS)}]}


def draw_claude(rng, secrets):
    perms = {}
    for disposition, most in (("allow", 4), ("deny", 2), ("ask", 2)):
        n = rng.randint(0, most) if disposition == "allow" else rng.choice((0, 0, 1, most))
        rules = []
        for _ in range(n):
            rule = draw_rule(rng)
            if rule not in rules:
                rules.append(rule)
        if rules:
            perms[disposition] = rules
    if rng.random() < 0.4:
        perms["defaultMode"] = rng.choice(DEFAULT_MODES)
    if rng.random() < 0.15:
        perms["additionalDirectories"] = pick(rng, EXTRA_DIRS, rng.randint(1, 2))
    model = {"permissions": perms}
    if rng.random() < 0.15:
        model["enableAllProjectMcpServers"] = rng.random() < 0.6
    if rng.random() < 0.15:
        model["enabledMcpjsonServers"] = pick(rng, MCPJSON_NAMES, rng.randint(1, 2))
    if rng.random() < 0.1:
        model["disabledMcpjsonServers"] = pick(rng, MCPJSON_NAMES, 1)
    if rng.random() < 0.25:
        model["hooks"] = {rng.choice(HOOK_EVENTS): [draw_hook_entry(rng)]}
    if rng.random() < 0.1:
        model["env"] = {rng.choice(ENV_KEYS): secrets.new()}
    if rng.random() < 0.05:
        model["sandbox"] = {"enabled": rng.random() < 0.5}
    return model


def rule_lists(model):
    return model.setdefault("permissions", {})


def all_rules(model):
    perms = model.get("permissions", {})
    return [(d, r) for d in DISPOSITIONS for r in perms.get(d, [])]


def edit_add_rule(rng, src, secrets):
    disposition = weighted(rng, [(6, "allow"), (2, "deny"), (2, "ask")])
    rules = rule_lists(src.head).setdefault(disposition, [])
    rule = draw_rule(rng)
    if rule in rules:
        return False
    rules.insert(rng.randint(0, len(rules)), rule)
    src.note(f"add {disposition} {rule}")
    return True


def edit_remove_rule(rng, src, secrets):
    present = all_rules(src.head)
    if not present:
        return False
    disposition, rule = rng.choice(present)
    src.head["permissions"][disposition].remove(rule)
    src.note(f"remove {disposition} {rule}")
    return True


def replace_in_chain(rng, src, wider):
    """Replace a rule by a wider (or narrower) member of its chain, in place."""
    options = []
    for disposition, rule in all_rules(src.head):
        for chain in RULE_CHAINS:
            if rule in chain:
                i = chain.index(rule)
                others = chain[i + 1:] if wider else chain[:i]
                options += [(disposition, rule, o) for o in others]
    options = [o for o in options if o[2] not in src.head["permissions"].get(o[0], [])]
    if not options:
        return False
    disposition, old, new = rng.choice(options)
    rules = src.head["permissions"][disposition]
    rules[rules.index(old)] = new
    src.note(f"{'widen' if wider else 'narrow'} {disposition} {old} -> {new}")
    return True


def edit_widen_rule(rng, src, secrets):
    return replace_in_chain(rng, src, wider=True)


def edit_narrow_rule(rng, src, secrets):
    return replace_in_chain(rng, src, wider=False)


def edit_replace_rule(rng, src, secrets):
    """Replace a rule by an unrelated one in the same list."""
    present = all_rules(src.head)
    if not present:
        return False
    disposition, old = rng.choice(present)
    new = draw_rule(rng)
    rules = src.head["permissions"][disposition]
    if new in rules:
        return False
    rules[rules.index(old)] = new
    src.note(f"replace {disposition} {old} -> {new}")
    return True


def edit_move_rule(rng, src, secrets):
    present = all_rules(src.head)
    if not present:
        return False
    disposition, rule = rng.choice(present)
    target = rng.choice([d for d in DISPOSITIONS if d != disposition])
    perms = src.head["permissions"]
    perms[disposition].remove(rule)
    if rule not in perms.setdefault(target, []):
        perms[target].append(rule)
    src.note(f"move {rule} from {disposition} to {target}")
    return True


def edit_rename_list(rng, src, secrets):
    perms = src.head.get("permissions", {})
    lists = [d for d in DISPOSITIONS if perms.get(d)]
    if not lists:
        return False
    old = rng.choice(lists)
    new = rng.choice([d for d in DISPOSITIONS if d not in perms])
    perms[new] = perms.pop(old)
    src.note(f"rename key permissions.{old} -> permissions.{new}")
    return True


def edit_default_mode(rng, src, secrets):
    perms = rule_lists(src.head)
    old = perms.get("defaultMode")
    roll = rng.random()
    if old is not None and roll < 0.15:
        del perms["defaultMode"]
        src.note(f"remove defaultMode {old}")
    else:
        new = rng.choice([m for m in DEFAULT_MODES if m != old])
        perms["defaultMode"] = new
        src.note(f"defaultMode {old} -> {new}" if old else f"add defaultMode {new}")
    return True


def edit_additional_dirs(rng, src, secrets):
    perms = rule_lists(src.head)
    dirs = perms.get("additionalDirectories", [])
    if dirs and rng.random() < 0.5:
        gone = dirs.pop(rng.randrange(len(dirs)))
        src.note(f"remove additionalDirectories {gone}")
        if not dirs:
            del perms["additionalDirectories"]
        return True
    new = rng.choice([d for d in EXTRA_DIRS + ("../infra",) if d not in dirs])
    perms["additionalDirectories"] = dirs + [new]
    src.note(f"add additionalDirectories {new}")
    return True


def edit_mcp_flags(rng, src, secrets):
    model = src.head
    which = rng.choice(("enableAllProjectMcpServers", "enabledMcpjsonServers", "disabledMcpjsonServers"))
    if which == "enableAllProjectMcpServers":
        old = model.get(which)
        if old is not None and rng.random() < 0.3:
            del model[which]
            src.note(f"remove {which} {old}")
        else:
            model[which] = not old if old is not None else rng.random() < 0.7
            src.note(f"{which} {old} -> {model[which]}")
        return True
    names = model.get(which, [])
    if names and rng.random() < 0.4:
        gone = names.pop(rng.randrange(len(names)))
        src.note(f"remove {which} {gone}")
        if not names:
            del model[which]
        return True
    new = rng.choice([n for n in MCPJSON_NAMES if n not in names])
    model[which] = names + [new]
    src.note(f"add {which} {new}")
    return True


def edit_hooks(rng, src, secrets):
    hooks = src.head.get("hooks", {})
    action = rng.choice(("add-event", "remove-event", "change-command", "add-entry", "rename-event",
                         "change-matcher"))
    events = list(hooks)
    if action == "add-event" or not events:
        event = rng.choice([e for e in HOOK_EVENTS if e not in hooks])
        hooks[event] = [draw_hook_entry(rng)]
        src.head["hooks"] = hooks
        src.note(f"add hook {event}")
        return True
    event = rng.choice(events)
    if action == "remove-event":
        del hooks[event]
        src.note(f"remove hook {event}")
    elif action == "rename-event":
        new = rng.choice([e for e in HOOK_EVENTS if e not in hooks])
        hooks[new] = hooks.pop(event)
        src.note(f"rename hook event {event} -> {new}")
    elif action == "add-entry":
        hooks[event].append(draw_hook_entry(rng))
        src.note(f"add a handler entry to hook {event}")
    elif action == "change-matcher":
        hooks[event][0]["matcher"] = rng.choice([m for m in HOOK_MATCHERS if m != hooks[event][0].get("matcher")])
        src.note(f"change hook {event} matcher")
    else:
        handler = hooks[event][0]["hooks"][0]
        handler["command"] = rng.choice([c for c in HOOK_COMMANDS if c != handler["command"]])
        src.note(f"change hook {event} command to {handler['command']}")
    if hooks:
        src.head["hooks"] = hooks
    else:
        src.head.pop("hooks", None)
    return True


def edit_hook_script(rng, src, secrets):
    """Edit the bytes of a hook script the settings select."""
    if HOOK_SCRIPT not in src.extra_base:
        return False
    src.extra_head[HOOK_SCRIPT] = src.extra_base[HOOK_SCRIPT] + "exit 2\n"
    src.note(f"edit hook script {HOOK_SCRIPT}")
    return True


def edit_claude_noise(rng, src, secrets):
    """A change that moves no grant: model, env value rotation, key order."""
    action = rng.choice(("model", "env", "reorder"))
    if action == "model":
        src.head["model"] = rng.choice(("opus", "sonnet", "claude-sonnet-4-5"))
        src.note("set model")
    elif action == "env":
        src.head["env"] = {rng.choice(ENV_KEYS): secrets.new()}
        src.note("set env to a new secret")
    else:
        src.head = dict(reversed(list(src.head.items())))
        src.note("reorder top-level keys")
    return True


def edit_claude_rare(rng, src, secrets):
    action = rng.choice(("sandbox", "disableAllHooks", "disableBypass", "top-level-mode"))
    if action == "sandbox":
        old = src.head.get("sandbox", {}).get("enabled")
        src.head["sandbox"] = {"enabled": not old if old is not None else True}
        src.note(f"sandbox.enabled {old} -> {src.head['sandbox']['enabled']}")
    elif action == "disableAllHooks":
        src.head["disableAllHooks"] = rng.random() < 0.7
        src.note(f"disableAllHooks {src.head['disableAllHooks']}")
    elif action == "disableBypass":
        rule_lists(src.head)["disableBypassPermissionsMode"] = "disable"
        src.note("disableBypassPermissionsMode disable")
    else:
        if "defaultMode" in src.head.get("permissions", {}):
            return False
        src.head["defaultMode"] = rng.choice(DEFAULT_MODES)
        src.note(f"top-level defaultMode {src.head['defaultMode']}")
    return True


CLAUDE_EDITS = [
    (12, edit_add_rule), (8, edit_remove_rule), (18, edit_widen_rule), (10, edit_narrow_rule),
    (5, edit_replace_rule), (5, edit_move_rule), (2, edit_rename_list), (12, edit_default_mode),
    (4, edit_additional_dirs), (7, edit_mcp_flags), (9, edit_hooks), (2, edit_hook_script),
    (3, edit_claude_noise), (3, edit_claude_rare),
]


def attach_hook_script(rng, src):
    """A hook naming $CLAUDE_PROJECT_DIR/.claude/hooks/guard.sh usually has its script."""
    uses_script = any(h.get("command", "").endswith(HOOK_SCRIPT)
                      for entries in src.base.get("hooks", {}).values()
                      for entry in entries for h in entry.get("hooks", []))
    if uses_script and rng.random() < 0.7:
        src.extra_base[HOOK_SCRIPT] = "#!/bin/sh\n# block dangerous commands\n"


# --- MCP servers (JSON hosts and Codex) ----------------------------------------

def draw_package(rng, packages, pin):
    name = rng.choice(packages)
    if pin == "pinned":
        return name + rng.choice(("@1.2.3", "@0.6.2", "@2.0.1"))
    if pin == "latest":
        return name + "@latest"
    return name


def draw_stdio(rng, secrets, codex=False):
    launcher = weighted(rng, [(5, "npx"), (2, "uvx"), (2, "docker"), (1, "node"), (1, "python"),
                              (1, "/usr/local/bin/mcp-server")])
    pin = weighted(rng, [(3, "pinned"), (2, "unpinned"), (1, "latest")])
    if launcher == "npx":
        args = ["-y", draw_package(rng, NPX_PACKAGES, pin)]
    elif launcher == "uvx":
        name = rng.choice(UVX_PACKAGES)
        args = [name + "==0.6.2" if pin == "pinned" else name]
    elif launcher == "docker":
        image = rng.choice(DOCKER_IMAGES)
        tag = {"pinned": "@sha256:" + "".join(rng.choice("0123456789abcdef") for _ in range(64)),
               "latest": ":latest", "unpinned": ":1.4.0"}[pin]
        args = ["run", "-i", "--rm", image + tag]
    elif launcher == "node":
        args = ["./tools/mcp/server.js"]
    elif launcher == "python":
        args = ["-m", "internal_mcp"]
    else:
        args = []
    server = {"command": launcher}
    if not codex and rng.random() < 0.2:
        server = {"type": "stdio", "command": launcher}
    if args:
        server["args"] = args
    if rng.random() < 0.55:
        server["env"] = {k: secrets.new() for k in pick(rng, ENV_KEYS, rng.randint(1, 2))}
    return server


def draw_url(rng, secrets, host_kind):
    url = rng.choice(URL_HOSTS) + rng.choice(URL_PATHS)
    if rng.random() < 0.1:
        url += "?api_key=" + secrets.new()
    if host_kind == "codex":
        server = {"url": url}
        if rng.random() < 0.4:
            server["bearer_token_env_var"] = rng.choice(("MCP_TOKEN", "LINEAR_TOKEN"))
        if rng.random() < 0.2:
            server["http_headers"] = {"X-Api-Key": secrets.new()}
        return server
    server = {"url": url}
    if host_kind != "cursor" or rng.random() < 0.5:
        server = {"type": rng.choice(("http", "http", "sse")), "url": url}
    if rng.random() < 0.6:
        server["headers"] = {"Authorization": "Bearer " + secrets.new()}
    return server


def draw_server(rng, secrets, host_kind):
    if rng.random() < 0.6:
        return draw_stdio(rng, secrets, codex=host_kind == "codex")
    return draw_url(rng, secrets, host_kind)


def servers_of(src):
    """The server mapping of a head model (JSON hosts or Codex)."""
    if src.kind == "codex":
        return src.head.setdefault("mcp_servers", {})
    return src.head.setdefault(src.container, {})


def mcp_host_kind(src):
    if src.kind == "codex":
        return "codex"
    return "cursor" if ".cursor/" in src.path else "vscode" if ".vscode/" in src.path else "claude"


def edit_add_server(rng, src, secrets):
    servers = servers_of(src)
    name = rng.choice([n for n in SERVER_NAMES if n not in servers])
    servers[name] = draw_server(rng, secrets, mcp_host_kind(src))
    src.note(f"add MCP server {name}")
    return True


def edit_remove_server(rng, src, secrets):
    servers = servers_of(src)
    if not servers:
        return False
    name = rng.choice(list(servers))
    del servers[name]
    src.note(f"remove MCP server {name}")
    return True


def edit_rename_server(rng, src, secrets):
    servers = servers_of(src)
    if not servers:
        return False
    old = rng.choice(list(servers))
    new = rng.choice([n for n in SERVER_NAMES if n not in servers])
    servers[new] = servers.pop(old)
    src.note(f"rename MCP server {old} -> {new}")
    return True


def edit_server_args(rng, src, secrets):
    stdio = [(n, s) for n, s in servers_of(src).items() if isinstance(s, dict) and s.get("args")]
    if not stdio:
        return False
    name, server = rng.choice(stdio)
    args = server["args"]
    action = rng.choice(("bump", "unpin", "pin", "flag"))
    last = args[-1]
    base_name = re.split(r"(?<=.)@|==|:(?=[^/]*$)", last)[0]
    if action == "bump" and re.search(r"\d+\.\d+\.\d+", last):
        args[-1] = re.sub(r"\d+\.\d+\.\d+", "9.9.9", last)
    elif action == "unpin":
        args[-1] = base_name
    elif action in ("pin", "bump"):
        action = "pin"
        separator = {"uvx": "==", "docker": ":"}.get(server.get("command"), "@")
        args[-1] = base_name + separator + "1.0.0"
    else:
        args.append(rng.choice(("--read-only", "--verbose", "--allow-write")))
    if args[-1] == last and action != "flag":
        args.append("--stdio")
    src.note(f"change args of MCP server {name} ({action})")
    return True


def edit_server_env(rng, src, secrets):
    stdio = [(n, s) for n, s in servers_of(src).items() if isinstance(s, dict) and "command" in s]
    if not stdio:
        return False
    name, server = rng.choice(stdio)
    env = server.setdefault("env", {})
    action = rng.choice(("add-key", "remove-key", "rotate-value"))
    if action == "add-key" or not env:
        key = rng.choice([k for k in ENV_KEYS if k not in env])
        env[key] = secrets.new()
    elif action == "remove-key":
        del env[rng.choice(list(env))]
    else:
        env[rng.choice(list(env))] = secrets.new()
    if not env:
        del server["env"]
    src.note(f"MCP server {name} env: {action}")
    return True


def edit_server_url(rng, src, secrets):
    remote = [(n, s) for n, s in servers_of(src).items() if isinstance(s, dict) and "url" in s]
    if not remote:
        return False
    name, server = rng.choice(remote)
    action = rng.choice(("host", "path", "add-header", "rotate-header", "type"))
    if action == "host":
        server["url"] = rng.choice([h for h in URL_HOSTS if not server["url"].startswith(h)]) + "/mcp"
    elif action == "path":
        server["url"] = server["url"].split("?")[0].rstrip("/") + "/v2"
    elif action in ("add-header", "rotate-header") and src.kind != "codex":
        headers = server.setdefault("headers", {})
        if action == "add-header" or not headers:
            headers[rng.choice([h for h in HEADER_KEYS if h not in headers])] = secrets.new()
        else:
            key = rng.choice(list(headers))
            headers[key] = ("Bearer " if key == "Authorization" else "") + secrets.new()
    elif action == "type" and "type" in server:
        server["type"] = "sse" if server["type"] == "http" else "http"
    else:
        server["url"] = server["url"].split("?")[0] + "-next"
        action = "path"
    src.note(f"MCP server {name} url: {action}")
    return True


def edit_server_transport(rng, src, secrets):
    servers = servers_of(src)
    if not servers:
        return False
    name = rng.choice(list(servers))
    old = servers[name]
    kind = mcp_host_kind(src)
    servers[name] = draw_url(rng, secrets, kind) if "command" in old else draw_stdio(rng, secrets, kind == "codex")
    src.note(f"MCP server {name}: switch transport")
    return True


def edit_server_command(rng, src, secrets):
    stdio = [(n, s) for n, s in servers_of(src).items() if isinstance(s, dict) and "command" in s]
    if not stdio:
        return False
    name, server = rng.choice(stdio)
    server["command"] = rng.choice([c for c in ("npx", "bunx", "uvx", "/opt/bin/npx") if c != server["command"]])
    src.note(f"MCP server {name} command -> {server['command']}")
    return True


def edit_server_noise(rng, src, secrets):
    servers = servers_of(src)
    if len(servers) >= 2 and rng.random() < 0.5:
        items = list(servers.items())
        servers.clear()
        servers.update(reversed(items))
        src.note("reorder MCP servers")
    else:
        src.head_style = rng.choice([s for s in ("compact", "normal", "wide", "tables", "inline") if s != src.style])
        src.note("reformat the file")
    return True


MCP_EDITS = [
    (10, edit_add_server), (7, edit_remove_server), (4, edit_rename_server), (8, edit_server_args),
    (7, edit_server_env), (7, edit_server_url), (3, edit_server_transport), (3, edit_server_command),
    (2, edit_server_noise),
]


def draw_mcp_json(rng, secrets, path):
    kind = "cursor" if ".cursor/" in path else "vscode" if ".vscode/" in path else "claude"
    servers = {}
    for name in pick(rng, SERVER_NAMES, rng.randint(0, 3)):
        servers[name] = draw_server(rng, secrets, kind)
    return servers


# --- Codex config.toml ----------------------------------------------------------

def draw_codex(rng, secrets):
    model = {}
    if rng.random() < 0.3:
        model["model"] = rng.choice(CODEX_MODELS)
    if rng.random() < 0.6:
        model["approval_policy"] = rng.choice(APPROVAL_POLICIES)
    if rng.random() < 0.6:
        model["sandbox_mode"] = rng.choice(SANDBOX_MODES)
    if rng.random() < 0.3:
        model["sandbox_workspace_write"] = {"network_access": rng.random() < 0.5}
    servers = {name: draw_server(rng, secrets, "codex") for name in pick(rng, SERVER_NAMES, rng.choice((0, 0, 1, 2)))}
    if servers:
        model["mcp_servers"] = servers
    return model


def edit_codex_value(rng, src, secrets, key, values):
    old = src.head.get(key)
    if old is not None and rng.random() < 0.15:
        del src.head[key]
        src.note(f"remove {key} {old}")
        return True
    new = rng.choice([v for v in values if v != old])
    # Keep top-level keys before any table, as TOML requires: rebuild in order.
    src.head = {key: new, **{k: v for k, v in src.head.items() if k != key}}
    src.note(f"{key} {old} -> {new}" if old else f"add {key} {new}")
    return True


def edit_approval(rng, src, secrets):
    return edit_codex_value(rng, src, secrets, "approval_policy", APPROVAL_POLICIES)


def edit_sandbox_mode(rng, src, secrets):
    return edit_codex_value(rng, src, secrets, "sandbox_mode", SANDBOX_MODES)


def edit_network(rng, src, secrets):
    table = src.head.setdefault("sandbox_workspace_write", {})
    old = table.get("network_access")
    if old is not None and rng.random() < 0.25:
        del table["network_access"]
        src.note(f"remove sandbox_workspace_write.network_access {old}")
    elif rng.random() < 0.15:
        table["writable_roots"] = ["/tmp/build-cache"]
        src.note("add sandbox_workspace_write.writable_roots")
    else:
        table["network_access"] = not old if old is not None else True
        src.note(f"sandbox_workspace_write.network_access {old} -> {table['network_access']}")
    if not table:
        del src.head["sandbox_workspace_write"]
    return True


def edit_codex_noise(rng, src, secrets):
    src.head["model"] = rng.choice([m for m in CODEX_MODELS if m != src.head.get("model")])
    src.note("change model")
    return True


CODEX_EDITS = [
    (10, edit_approval), (10, edit_sandbox_mode), (6, edit_network), (2, edit_codex_noise),
    (5, edit_add_server), (3, edit_remove_server), (2, edit_rename_server), (3, edit_server_args),
    (3, edit_server_env), (2, edit_server_url), (1, edit_server_noise),
]


# --- GitHub workflows ---------------------------------------------------------

def draw_permissions(rng):
    choice = rng.choice(PERMISSION_CHOICES)
    return json.loads(json.dumps(choice))


def set_permissions(holder, perms):
    if perms == "absent":
        holder.pop("permissions", None)
    else:
        holder["permissions"] = perms


def draw_job(rng):
    if rng.random() < 0.1:
        return {"uses": f"org/shared/.github/workflows/build.yml@{rng.choice(ACTION_REFS[:3])}"}
    steps = []
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.6:
            steps.append({"uses": f"{rng.choice(ACTIONS)}@{rng.choice(ACTION_REFS)}"})
        else:
            steps.append({"run": rng.choice(RUN_COMMANDS)})
    job = {"steps": steps}
    if rng.random() < 0.3:
        set_permissions(job, draw_permissions(rng))
    return job


def draw_workflow(rng, secrets, path):
    triggers = pick(rng, TRIGGERS[:5], rng.randint(1, 2))
    if rng.random() < 0.1:
        triggers.append("pull_request_target")
    model = {"name": os.path.splitext(os.path.basename(path))[0], "on": triggers}
    if "push" in triggers and rng.random() < 0.3:
        model["branches"] = {"push": ["main"]}
    set_permissions(model, draw_permissions(rng))
    model["jobs"] = {name: draw_job(rng) for name in pick(rng, JOB_NAMES, rng.randint(1, 2))}
    return model


def edit_add_trigger(rng, src, secrets):
    options = [t for t in TRIGGERS if t not in src.head["on"]]
    if not options:
        return False
    trigger = "pull_request_target" if rng.random() < 0.3 and "pull_request_target" in options else rng.choice(options)
    src.head["on"].append(trigger)
    src.note(f"add trigger {trigger}")
    return True


def edit_remove_trigger(rng, src, secrets):
    if len(src.head["on"]) < 2:
        return False
    trigger = rng.choice(src.head["on"])
    src.head["on"].remove(trigger)
    src.head.get("branches", {}).pop(trigger, None)
    src.note(f"remove trigger {trigger}")
    return True


def edit_top_permissions(rng, src, secrets):
    perms = draw_permissions(rng)
    if perms == src.head.get("permissions", "absent"):
        return False
    set_permissions(src.head, perms)
    src.note(f"workflow permissions -> {json.dumps(perms)}")
    return True


def edit_job_permissions(rng, src, secrets):
    job_id = rng.choice(list(src.head["jobs"]))
    perms = draw_permissions(rng)
    set_permissions(src.head["jobs"][job_id], perms)
    src.note(f"job {job_id} permissions -> {json.dumps(perms)}")
    return True


def edit_jobs(rng, src, secrets):
    jobs = src.head["jobs"]
    action = rng.choice(("add", "remove", "rename"))
    if action == "add" or len(jobs) < 2 and action == "remove":
        name = rng.choice([j for j in JOB_NAMES if j not in jobs])
        jobs[name] = draw_job(rng)
    elif action == "remove":
        name = rng.choice(list(jobs))
        del jobs[name]
    else:
        name = rng.choice(list(jobs))
        new = rng.choice([j for j in JOB_NAMES if j not in jobs])
        src.head["jobs"] = {new if k == name else k: v for k, v in jobs.items()}
        name = f"{name} -> {new}"
    src.note(f"{action} job {name}")
    return True


def edit_steps(rng, src, secrets):
    jobs = [(k, j) for k, j in src.head["jobs"].items() if "steps" in j]
    if not jobs:
        return False
    job_id, job = rng.choice(jobs)
    steps = job["steps"]
    action = rng.choice(("ref", "add-uses", "remove", "run"))
    uses = [s for s in steps if "uses" in s]
    if action == "ref" and uses:
        step = rng.choice(uses)
        action_name, ref = step["uses"].split("@", 1)
        step["uses"] = f"{action_name}@{rng.choice([r for r in ACTION_REFS if r != ref])}"
    elif action == "remove" and len(steps) > 1:
        steps.pop(rng.randrange(len(steps)))
    elif action == "run":
        steps.append({"run": rng.choice(RUN_COMMANDS)})
    else:
        steps.append({"uses": f"{rng.choice(ACTIONS)}@{rng.choice(ACTION_REFS)}"})
        action = "add-uses"
    src.note(f"job {job_id} steps: {action}")
    return True


def edit_workflow_noise(rng, src, secrets):
    if rng.random() < 0.5:
        src.head["name"] = src.head["name"] + "-renamed"
        src.note("rename the workflow's name:")
    else:
        src.head_style = rng.choice([s for s in ("normal", "map-on", "quoted-on") if s != src.style])
        src.note(f"restyle the workflow ({src.head_style})")
    return True


WORKFLOW_EDITS = [
    (7, edit_add_trigger), (4, edit_remove_trigger), (10, edit_top_permissions), (6, edit_job_permissions),
    (5, edit_jobs), (7, edit_steps), (2, edit_workflow_noise),
]


# ---------------------------------------------------------------------------
# Cases.
# ---------------------------------------------------------------------------

class Case:
    def __init__(self, seed, index):
        self.seed = seed
        self.index = index
        self.rng = random.Random(f"host-parity/{seed}/{index}")
        self.secrets = Secrets(self.rng)
        self.sources = []
        self.commit = "committed"
        self.committed_paths = set()

    @property
    def name(self):
        return f"case {self.index} (seed {self.seed})"

    def edits(self):
        return [e for s in self.sources for e in s.edits]

    def base_files(self):
        files = {"README.md": "fixture\n"}
        for s in self.sources:
            files.update(s.base_files())
        return files

    def head_files(self):
        files = {}
        for s in self.sources:
            for path, text in s.head_files().items():
                if text is not None or path not in files:
                    files[path] = text
        return files

    def size(self):
        texts = list(self.base_files().values()) + list(self.head_files().values())
        return sum(len(t) for t in texts if t)

    def kinds(self):
        return sorted({s.kind for s in self.sources})


def draw_source(rng, secrets, kind, taken):
    if kind == "claude":
        path = weighted(rng, [(6, ".claude/settings.json"), (2, ".claude/settings.local.json"),
                              (1, "packages/app/.claude/settings.json")])
        model, container, style = draw_claude(rng, secrets), None, weighted(rng, [(8, "normal"), (1, "wide"), (1, "compact")])
    elif kind == "mcp":
        path = weighted(rng, [(5, ".mcp.json"), (2, ".cursor/mcp.json"), (2, ".vscode/mcp.json"),
                              (1, "services/api/.mcp.json")])
        container = "servers" if path.startswith(".vscode/") else "mcpServers"
        model, style = {container: draw_mcp_json(rng, secrets, path)}, weighted(rng, [(8, "normal"), (1, "compact")])
    elif kind == "codex":
        path = weighted(rng, [(9, ".codex/config.toml"), (1, "tools/.codex/config.toml")])
        model, container, style = draw_codex(rng, secrets), None, rng.choice(("inline", "tables"))
    else:
        name = rng.choice(("ci", "release", "triage", "deploy", "nightly"))
        path = f".github/workflows/{name}.{weighted(rng, [(4, 'yml'), (1, 'yaml')])}"
        model, container, style = draw_workflow(rng, secrets, path), None, weighted(rng, [(6, "normal"), (1, "map-on"), (1, "quoted-on")])
    if path in taken:
        return None
    src = Source(kind, path, model, style)
    src.container = container
    if kind == "claude":
        attach_hook_script(rng, src)
    return src


EDIT_TABLES = {"claude": CLAUDE_EDITS, "mcp": MCP_EDITS, "codex": CODEX_EDITS, "workflow": WORKFLOW_EDITS}
BROKEN_TEXT = {"claude": BROKEN_JSON, "mcp": BROKEN_JSON, "codex": BROKEN_TOML, "workflow": BROKEN_YAML}


def apply_edits(rng, secrets, src, count):
    done = 0
    for _ in range(count * 8):
        if done == count:
            break
        edit = weighted(rng, EDIT_TABLES[src.kind])
        try:
            if edit(rng, src, secrets):
                done += 1
        except (IndexError, ValueError):
            continue  # an edit that does not fit this model: draw another
    if not done:
        src.note("no applicable edit (unchanged)")


def rename_target(rng, src):
    if src.kind == "workflow":
        return os.path.join(os.path.dirname(src.path), "renamed-" + os.path.basename(src.path))
    if src.kind == "claude":
        return ".claude/settings.local.json" if src.path.endswith("settings.json") else ".claude/settings.json"
    if src.path == ".mcp.json":
        return "packages/web/.mcp.json"
    return None


def apply_lifecycle(rng, secrets, src, taken):
    """What happens to the file as a whole: edited, added, deleted, broken, renamed..."""
    fate = weighted(rng, [(60, "edit"), (10, "added"), (6, "deleted"), (6, "broken-head"),
                          (3, "broken-base"), (2, "broken-both"), (3, "odd-shape"), (5, "unchanged"),
                          (5, "renamed")])
    if fate == "edit":
        apply_edits(rng, secrets, src, weighted(rng, [(5, 1), (3, 2), (1, 3)]))
    elif fate == "added":
        src.base = None
        src.extra_base, src.extra_head = {}, dict(src.extra_base)
        if rng.random() < 0.4:
            apply_edits(rng, secrets, src, 1)
        src.edits.insert(0, f"{src.path}: new file")
    elif fate == "deleted":
        src.head = None
        src.note("delete the file")
    elif fate == "broken-head":
        src.head_text = rng.choice(BROKEN_TEXT[src.kind])
        src.note("head does not parse")
    elif fate == "odd-shape":
        shapes = ODD_SHAPES["vscode" if src.path.startswith(".vscode/") else src.kind]
        src.head_text = rng.choice(shapes)
        src.note("head parses but has a shape the host does not")
    elif fate == "broken-base":
        src.base_text = rng.choice(BROKEN_TEXT[src.kind])
        src.note("base does not parse; head repairs it")
    elif fate == "broken-both":
        src.base_text = src.head_text = rng.choice(BROKEN_TEXT[src.kind])
        src.note("does not parse on either side (unchanged)")
    elif fate == "renamed":
        target = rename_target(rng, src)
        if target is None or target in taken:
            apply_edits(rng, secrets, src, 1)
            return
        src.head_path = target
        taken.add(target)
        src.edits.append(f"{src.path}: rename to {target}")
        if rng.random() < 0.4:
            apply_edits(rng, secrets, src, 1)
    else:
        src.note("unchanged")


def draw_case(seed, index):
    case = Case(seed, index)
    rng = case.rng
    taken = set()
    for _ in range(weighted(rng, [(50, 1), (35, 2), (15, 3)])):
        kind = weighted(rng, [(35, "claude"), (25, "mcp"), (15, "codex"), (25, "workflow")])
        src = draw_source(rng, case.secrets, kind, taken)
        if src is None:
            continue
        taken.add(src.path)
        apply_lifecycle(rng, case.secrets, src, taken)
        case.sources.append(src)
    case.commit = weighted(rng, [(45, "committed"), (35, "uncommitted"), (20, "mixed")])
    head_paths = sorted(case.head_files())
    if case.commit == "committed":
        case.committed_paths = set(head_paths)
    elif case.commit == "mixed":
        case.committed_paths = {p for p in head_paths if rng.random() < 0.5}
    return case


# ---------------------------------------------------------------------------
# Fixture repositories and running the tools.
# ---------------------------------------------------------------------------

def git(repo, *args):
    subprocess.run(("git", *args), cwd=repo, check=True, capture_output=True, timeout=RUN_TIMEOUT)


def write_files(repo, files):
    for path, text in files.items():
        full = os.path.join(repo, path)
        if text is None:
            if os.path.exists(full):
                os.remove(full)
            continue
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as handle:
            handle.write(text)


def build_repo(case, repo):
    """main holds the base; feature holds the head, committed or in the working tree."""
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "parity@example.com")
    git(repo, "config", "user.name", "host parity")
    git(repo, "config", "commit.gpgsign", "false")
    write_files(repo, case.base_files())
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    git(repo, "checkout", "-q", "-b", "feature")
    head, base = case.head_files(), case.base_files()
    committed = {p: t for p, t in head.items() if p in case.committed_paths}
    if committed:
        write_files(repo, committed)
        visible = sorted(p for p, t in committed.items() if t is not None or p in base)
        if visible:
            git(repo, "add", "-A", "--", *visible)
        git(repo, "commit", "-q", "--allow-empty", "-m", "head")
    write_files(repo, {p: t for p, t in head.items() if p not in case.committed_paths})


class Run:
    """One run of one tool: its exit, its output, its JSON, or why it failed."""

    def __init__(self, argv, rc=None, stdout="", stderr="", failure=None, seconds=0.0):
        self.argv, self.rc, self.stdout, self.stderr = argv, rc, stdout, stderr
        self.failure, self.seconds, self.doc = failure, seconds, None


def run_tool(argv, want_json):
    """Run one tool in its own process group; on timeout the whole group is ended."""
    start = time.monotonic()
    try:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                errors="replace", stdin=subprocess.DEVNULL, start_new_session=True)
    except OSError as exc:
        return Run(argv, failure=f"could not start: {exc}")
    try:
        stdout, stderr = proc.communicate(timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, 9)
        except ProcessLookupError:
            pass
        stdout, stderr = proc.communicate()
        return Run(argv, stdout=stdout, stderr=stderr, failure=f"timeout after {RUN_TIMEOUT}s",
                   seconds=RUN_TIMEOUT)
    done = subprocess.CompletedProcess(argv, proc.returncode, stdout, stderr)
    run = Run(argv, done.returncode, done.stdout, done.stderr, seconds=time.monotonic() - start)
    if want_json:
        try:
            run.doc = json.loads(done.stdout)
            if not isinstance(run.doc, dict):
                raise ValueError("not an object")
        except ValueError:
            run.failure = (f"crash (exit {done.returncode})" if done.returncode else "stdout is not a JSON object")
    elif done.returncode not in (0,) and not done.stdout.strip():
        run.failure = f"crash (exit {done.returncode})"
    return run


class Answer:
    """A tool's JSON run and, for the leak check, its text run."""

    def __init__(self, tool, json_run, text_run):
        self.tool, self.json, self.text = tool, json_run, text_run

    def failures(self):
        """[(mode, run)] of the runs that failed."""
        return [(mode, run) for mode, run in (("json", self.json), ("text", self.text))
                if run is not None and run.failure]

    def leaks(self, secrets):
        runs = [r for r in (self.json, self.text) if r is not None]
        return sorted({s for s in secrets for r in runs if s in r.stdout or s in r.stderr})


def answer(tool, binary, repo, with_text):
    argv = [binary, "diff", "--workspace", repo, "--base", "main"]
    json_run = run_tool(argv + ["--json"], want_json=True)
    text_run = run_tool(argv, want_json=False) if with_text else None
    return Answer(tool, json_run, text_run)


# ---------------------------------------------------------------------------
# Known differences: normalisations applied before comparing.
# ---------------------------------------------------------------------------

class Loose:
    """A field a known difference compares loosely: any of `options` agrees."""

    def __init__(self, options):
        self.options = tuple(dict.fromkeys(options))

    def __eq__(self, other):
        return other in self.options

    def __hash__(self):
        return 0

    def __repr__(self):
        return "|".join(str(o) for o in self.options)


def parse_rule(text):
    text = text.strip()
    open_at = text.find("(")
    if open_at > 0 and text.endswith(")"):
        return text[:open_at].strip(), text[open_at + 1:-1].strip()
    return text, None


PATH_TOOLS = ("Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "Glob", "Grep")


def mcp_server(tool):
    return tool[len("mcp__"):].split("__")[0] if tool.startswith("mcp__") else None


def every_target(tool, spec):
    if spec is None:
        rest = tool[len("mcp__"):] if tool.startswith("mcp__") else ""
        return not ("__" in rest and not rest.endswith("__*"))
    if spec == "*":
        return True
    return tool in PATH_TOOLS and spec.removeprefix("./") in ("**", "/**", "**/*")


def bash_form(spec):
    if spec.endswith(":*"):
        prefix = spec[:-2]
        return None if "*" in prefix else (prefix.rstrip(), True)
    return None if "*" in spec else (spec.strip(), False)


def covers(wide, narrow):
    """Whether every call `narrow` matches, `wide` matches too (the issue's reading:
    word-boundary Bash prefixes, paths under a `dir/**`, a bare tool or `Tool(*)`
    covers its tool, an MCP server rule covers its tools; anything else only itself)."""
    (tool_a, spec_a), (tool_b, spec_b) = parse_rule(wide), parse_rule(narrow)
    if (tool_a, spec_a) == (tool_b, spec_b):
        return True
    server_a, server_b = mcp_server(tool_a), mcp_server(tool_b)
    if server_a is not None and server_b is not None:
        whole = spec_a is None and tool_a in (f"mcp__{server_a}", f"mcp__{server_a}__*")
        return whole and server_a == server_b and spec_b is None
    if tool_a != tool_b:
        return False
    if every_target(tool_a, spec_a):
        return True
    if spec_a is None or spec_b is None:
        return False
    if tool_a == "Bash":
        form_a, form_b = bash_form(spec_a), bash_form(spec_b)
        if not form_a or not form_b or not form_a[1]:
            return False
        rest = form_b[0][len(form_a[0]):] if form_b[0].startswith(form_a[0]) else None
        return rest is not None and (rest == "" or form_a[0] == "" or rest.startswith(" "))
    if tool_a in PATH_TOOLS:
        a, b = spec_a.removeprefix("./"), spec_b.removeprefix("./")
        if a == b:
            return True
        if not a.endswith("/**"):
            return False
        directory = a[:-3]
        if not directory or any(c in directory for c in "*?[{"):
            return False
        return b.startswith(directory + "/") and ".." not in b
    return spec_a == spec_b


def is_rule_row(row):
    return row.get("disposition") in DISPOSITIONS


def expand_rule_row(row):
    """A widened / narrowed rule row as the removed + added pair the reference prints."""
    if is_rule_row(row) and row.get("direction") in ("widened", "narrowed", "changed"):
        return [dict(row, direction="removed", after=DASH), dict(row, direction="added", before=DASH)]
    return [row]


def collapse_rule_pairs(rows, entry, notes):
    """Known difference `rule-coverage`: the reference's added + removed pair for a
    rule replaced by a wider / narrower one in the same file and disposition becomes
    one widened / narrowed row. Returns (rows, ambiguous groups)."""
    dispositions = entry["match"].get("dispositions", list(DISPOSITIONS))
    groups = collections.defaultdict(lambda: {"added": [], "removed": []})
    for i, row in enumerate(rows):
        if row.get("disposition") in dispositions and row.get("direction") in ("added", "removed"):
            groups[(row.get("subject"), row.get("disposition"))][row["direction"]].append(i)
    drop, new_rows, ambiguous = set(), [], set()
    for key, group in groups.items():
        edges = []
        for r in group["removed"]:
            for a in group["added"]:
                old, new = rows[r]["before"], rows[a]["after"]
                wider, narrower = covers(new, old), covers(old, new)
                if wider or narrower:
                    edges.append((r, a, wider, narrower))
        if not edges:
            continue
        ends = collections.Counter([e[0] for e in edges] + [("a", e[1]) for e in edges])
        if any(n > 1 for n in ends.values()) or any(w and n for _, _, w, n in edges):
            ambiguous.add(key)
            continue
        for r, a, wider, _ in edges:
            removed, added = rows[r], rows[a]
            new_rows.append({
                "direction": "widened" if wider else "narrowed",
                "subject": removed["subject"], "before": removed["before"], "after": added["after"],
                "disposition": removed["disposition"],
                "severity": Loose((added["severity"], removed["severity"])),
                "expands": Loose((added["expands"], removed["expands"])),
                "why": Loose((added["why"], removed["why"])),
                "_known": entry["id"],
            })
            drop.update((r, a))
            notes[entry["id"]] += 1
    return [row for i, row in enumerate(rows) if i not in drop] + new_rows, ambiguous


def setting_rank(ranks, value):
    for rank, members in enumerate(ranks):
        if value in members.split("|"):
            return rank
    return None


def collapse_setting_pairs(rows, entry, notes):
    """Known difference `setting-change`: removed `X: old` + added `X: new` of a one-value
    setting in the same file becomes one widened / narrowed / changed row."""
    settings = entry["match"]["settings"]
    groups = collections.defaultdict(lambda: {"added": [], "removed": []})
    for i, row in enumerate(rows):
        if row.get("disposition") is not None or row.get("direction") not in ("added", "removed"):
            continue
        value = row["after"] if row["direction"] == "added" else row["before"]
        name, sep, _ = (value or "").partition(": ")
        if sep and name in settings:
            groups[(row.get("subject"), name)][row["direction"]].append(i)
    drop, new_rows = set(), []
    for (subject, name), group in groups.items():
        if len(group["added"]) != 1 or len(group["removed"]) != 1:
            continue
        removed, added = rows[group["removed"][0]], rows[group["added"][0]]
        old, new = removed["before"].partition(": ")[2], added["after"].partition(": ")[2]
        rank_old, rank_new = setting_rank(settings[name], old), setting_rank(settings[name], new)
        if rank_old is None or rank_new is None or rank_old == rank_new:
            direction = "changed"
        else:
            direction = "widened" if rank_new > rank_old else "narrowed"
        new_rows.append({
            "direction": direction, "subject": subject, "before": removed["before"], "after": added["after"],
            "disposition": None,
            "severity": Loose((added["severity"], removed["severity"])),
            "expands": Loose((added["expands"], removed["expands"])),
            "why": Loose((added["why"], removed["why"])),
            "_known": entry["id"],
        })
        drop.update((group["removed"][0], group["added"][0]))
        notes[entry["id"]] += 1
    return [row for i, row in enumerate(rows) if i not in drop] + new_rows


def where_matches(item, where):
    return all(re.search(pattern, str(item.get(field))) for field, pattern in where.items())


def drop_items(items, entry, tool, notes):
    """Generic known difference `drop-rows` / `drop-coverage`: forget matching items."""
    if entry["match"].get("tool", "both") not in ("both", tool):
        return items
    kept = [i for i in items if not where_matches(i, entry["match"].get("where", {}))]
    notes[entry["id"]] += len(items) - len(kept)
    return kept


def load_known(path):
    if not path or not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as handle:
        entries = json.load(handle)
    for entry in entries:
        kind = entry.get("match", {}).get("normalise")
        if kind not in NORMALISERS:
            raise SystemExit(f"{path}: entry {entry.get('id')!r}: unknown normalise {kind!r} "
                             f"(known: {', '.join(sorted(NORMALISERS))})")
    return entries


NORMALISERS = {"collapse-rule-pairs", "collapse-setting-pairs", "drop-rows", "drop-coverage"}


def normalise(ref_doc, ours_doc, known, notes):
    """Both answers' rows and coverage after the known differences; plus the rule
    groups whose pairing is ambiguous (compared as sets of added / removed rules)."""
    ref_rows = [dict(r) for r in ref_doc.get("rows", [])]
    ours_rows = [dict(r) for r in ours_doc.get("rows", [])]
    ref_cov = list(ref_doc.get("coverage", {}).get("items", []))
    ours_cov = list(ours_doc.get("coverage", {}).get("items", []))
    ambiguous = set()
    for entry in known:
        kind = entry["match"]["normalise"]
        if kind == "collapse-rule-pairs":
            ref_rows, groups = collapse_rule_pairs(ref_rows, entry, notes)
            ambiguous |= groups
        elif kind == "collapse-setting-pairs":
            ref_rows = collapse_setting_pairs(ref_rows, entry, notes)
        elif kind == "drop-rows":
            ref_rows = drop_items(ref_rows, entry, "reference", notes)
            ours_rows = drop_items(ours_rows, entry, "ours", notes)
        elif kind == "drop-coverage":
            ref_cov = drop_items(ref_cov, entry, "reference", notes)
            ours_cov = drop_items(ours_cov, entry, "ours", notes)
    return ref_rows, ours_rows, ref_cov, ours_cov, ambiguous


# ---------------------------------------------------------------------------
# Comparison.
# ---------------------------------------------------------------------------

SETTING_NAMES = ("defaultMode", "approval_policy", "sandbox_mode", "sandbox_workspace_write",
                 "enableAllProjectMcpServers", "enabledMcpjsonServers", "disableBypassPermissionsMode",
                 "disableAllHooks", "sandbox")


def grant_kind(row):
    """A short name for what a row is about, for grouping mismatches."""
    if row is None:
        return "?"
    if is_rule_row(row):
        value = row.get("after") if row.get("after") not in (None, DASH) else row.get("before")
        tool = parse_rule(value or "")[0]
        return f"rule:{row['disposition']}:{'mcp__' if tool.startswith('mcp__') else tool}"
    subject = row.get("subject") or ""
    value = row.get("after") if row.get("after") not in (None, DASH) else row.get("before") or ""
    host, _, path = subject.partition(" ")
    if host == "github":
        return "workflow"
    name, sep, _ = value.partition(": ")
    if sep and name.split(".")[0] in SETTING_NAMES:
        return f"setting:{name}"
    if value == "additional_path":
        return "setting:additionalDirectories"
    if path.endswith("settings.json") or path.endswith("settings.local.json"):
        return "hook"
    return f"mcp:{host}"


def row_text(row):
    if row is None:
        return "(none)"
    fields = []
    for f in ROW_FIELDS:
        value = row.get(f)
        fields.append(f"{f}={value!r}" if not isinstance(value, Loose) else f"{f}~{value!r}")
    return ", ".join(fields)


class Finding:
    """One disagreement (or loose difference) of one case."""

    def __init__(self, signature, case, ref_row=None, ours_row=None, detail=""):
        self.signature, self.case = signature, case
        self.ref_row, self.ours_row, self.detail = ref_row, ours_row, detail


def fields_equal(expected, actual, fields):
    return all(expected.get(f) == actual.get(f) for f in fields)


def take(rows, predicate):
    for i, row in enumerate(rows):
        if predicate(row):
            return rows.pop(i)
    return None


def compare_rows(case, expected, actual):
    """Match expected (reference, normalised) rows against ours; return findings, soft findings."""
    expected, actual = list(expected), list(actual)
    hard, soft = [], []
    # 1. Exact agreement, loose fields included.
    for e in list(expected):
        if take(actual, lambda a: fields_equal(e, a, ROW_FIELDS)) is not None:
            expected.remove(e)
    # 2. Known-difference rows agreeing on their strict fields: loose differences only.
    for e in [e for e in expected if "_known" in e]:
        a = take(actual, lambda a: fields_equal(e, a, STRICT_WHEN_COLLAPSED))
        if a is not None:
            expected.remove(e)
            differ = [f for f in ROW_FIELDS if e.get(f) != a.get(f)]
            soft.append(Finding(f"{e['_known']} {grant_kind(e)}: loose {'+'.join(differ)}", case, e, a))
    # 3. Pair what is left for diagnosis: same identity, then one side's value.
    keys = [lambda r: (r.get("subject"), r.get("disposition"), r.get("before"), r.get("after")),
            lambda r: (r.get("subject"), r.get("disposition"), r.get("before") if r.get("before") != DASH else None),
            lambda r: (r.get("subject"), r.get("disposition"), r.get("after") if r.get("after") != DASH else None),
            lambda r: (r.get("subject"), grant_kind(r))]
    for key in keys:
        for e in list(expected):
            k = key(e)
            if None in k[2:]:
                continue
            a = take(actual, lambda a: key(a) == k)
            if a is None:
                continue
            expected.remove(e)
            strict = ROW_FIELDS if "_known" not in e else STRICT_WHEN_COLLAPSED
            differ = [f for f in strict if e.get(f) != a.get(f)]
            label = f"{e['_known']} " if "_known" in e else ""
            hard.append(Finding(f"{label}{grant_kind(e)}: {'+'.join(differ)} differ", case, e, a))
    for e in expected:
        label = f"{e['_known']} " if "_known" in e else ""
        hard.append(Finding(f"{label}{grant_kind(e)}: row missing in ours", case, e, None))
    for a in actual:
        hard.append(Finding(f"{grant_kind(a)}: extra row in ours", case, None, a))
    return hard, soft


def rule_set(rows, groups):
    """Rows of ambiguous rule groups, as a set of (side, rule); removed from `rows`."""
    found, kept = set(), []
    for row in rows:
        if is_rule_row(row) and (row.get("subject"), row.get("disposition")) in groups:
            for r in expand_rule_row(row):
                side = r["direction"]
                found.add((r["subject"], r["disposition"], side, r["before"] if side == "removed" else r["after"]))
        else:
            kept.append(row)
    rows[:] = kept
    return found


def compare_coverage(case, ref_items, ours_items):
    key = lambda item: tuple(item.get(f) for f in COVERAGE_FIELDS)
    ref, ours = collections.Counter(map(key, ref_items)), collections.Counter(map(key, ours_items))
    findings = []
    for item in (ref - ours).elements():
        other = [k for k in ours if k[0] == item[0]]
        detail = f"reference {item}; ours {other or 'none for this source'}"
        findings.append(Finding(f"coverage: {item[1]} ({item[2]}) missing in ours", case, detail=detail))
    for item in (ours - ref).elements():
        if any(k[0] == item[0] for k in (ref - ours)):
            continue  # already reported from the reference's side
        findings.append(Finding(f"coverage: {item[1]} ({item[2]}) extra in ours", case, detail=f"ours {item}"))
    return findings


def compare_keys(case, ref_doc, ours_doc):
    findings = []
    pairs = [("top-level", ref_doc, ours_doc),
             ("coverage", ref_doc.get("coverage", {}), ours_doc.get("coverage", {}))]
    if ref_doc.get("rows") and ours_doc.get("rows"):
        pairs.append(("row", ref_doc["rows"][0], ours_doc["rows"][0]))
    for where, a, b in pairs:
        if isinstance(a, dict) and isinstance(b, dict) and set(a) != set(b):
            missing, extra = sorted(set(a) - set(b)), sorted(set(b) - set(a))
            findings.append(Finding(f"schema: {where} keys differ", case,
                                    detail=f"missing in ours {missing}; extra in ours {extra}"))
    if ours_doc.get("capability_diff_schema_version") != ref_doc.get("capability_diff_schema_version"):
        findings.append(Finding("schema: capability_diff_schema_version differs", case,
                                detail=f"{ref_doc.get('capability_diff_schema_version')!r} vs "
                                       f"{ours_doc.get('capability_diff_schema_version')!r}"))
    return findings


class Result:
    def __init__(self, case, ref, ours):
        self.case, self.ref, self.ours = case, ref, ours
        self.hard, self.soft = [], []
        self.known_notes = collections.Counter()

    @property
    def agrees(self):
        return not self.hard


def judge(case, ref, ours, known):
    """Every finding of one case: tool failures, leaks, then the answers themselves."""
    result = Result(case, ref, ours)
    for answer_ in (a for a in (ref, ours) if a is not None):
        for mode, run in answer_.failures():
            result.hard.append(Finding(f"failure: {answer_.tool} {mode} run: {run.failure.split(' (')[0]}", case,
                                       detail=f"{run.failure}; stderr: {run.stderr.strip()[-400:]}"))
        leaked = answer_.leaks(case.secrets.planted)
        if leaked:
            result.hard.append(Finding(f"leak: {answer_.tool} printed a planted secret", case,
                                       detail=", ".join(s[:10] + "…" for s in leaked)))
    if ours is None or ref.json.doc is None or ours.json.doc is None:
        return result
    ref_doc, ours_doc = ref.json.doc, ours.json.doc
    if ref_doc.get("comparison_status") != ours_doc.get("comparison_status"):
        result.hard.append(Finding(
            f"comparison_status: reference {ref_doc.get('comparison_status')} vs ours {ours_doc.get('comparison_status')}",
            case, detail=f"incomparable_reasons {ref_doc.get('incomparable_reasons')} vs {ours_doc.get('incomparable_reasons')}"))
    if ref.json.rc != ours.json.rc:
        result.hard.append(Finding(f"exit code: reference {ref.json.rc} vs ours {ours.json.rc}", case))
    result.hard += compare_keys(case, ref_doc, ours_doc)
    ref_rows, ours_rows, ref_cov, ours_cov, ambiguous = normalise(ref_doc, ours_doc, known, result.known_notes)
    if ambiguous:
        ref_set, ours_set = rule_set(ref_rows, ambiguous), rule_set(ours_rows, ambiguous)
        if ref_set != ours_set:
            result.hard.append(Finding("rule pairing (ambiguous group): added/removed rules differ", case,
                                       detail=f"reference only {sorted(ref_set - ours_set)}; "
                                              f"ours only {sorted(ours_set - ref_set)}"))
    hard, soft = compare_rows(case, ref_rows, ours_rows)
    result.hard += hard + compare_coverage(case, ref_cov, ours_cov)
    result.soft += soft
    return result


# ---------------------------------------------------------------------------
# Running cases and reporting.
# ---------------------------------------------------------------------------

def run_case(case, args, known):
    """One case end to end; a harness error (git, disk) is a finding, never a crash."""
    try:
        return run_case_unguarded(case, args, known)
    except Exception as exc:  # noqa: BLE001 (reported, then the run goes on)
        result = Result(case, Answer("reference", Run([], failure="not run"), None), None)
        result.hard.append(Finding(f"harness error: {type(exc).__name__}", case, detail=str(exc)[:400]))
        return result


def run_case_unguarded(case, args, known):
    repo_root = tempfile.mkdtemp(prefix="host-parity-")
    repo = os.path.join(repo_root, "repo")
    os.mkdir(repo)
    try:
        build_repo(case, repo)
        ref = answer("reference", args.reference, repo, not args.no_text)
        ours = answer("ours", args.daemon, repo, not args.no_text) if args.daemon else None
        result = judge(case, ref, ours, known)
        if args.keep and (result.hard or (ours is None and ref.failures())):
            keep_fixture(case, result, repo, args.keep)
        return result
    finally:
        shutil.rmtree(repo_root, ignore_errors=True)


def keep_fixture(case, result, repo, keep_dir):
    target = os.path.join(keep_dir, f"seed{case.seed}-case{case.index}")
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(repo, target, symlinks=True)
    record = {"case": case.name, "edits": case.edits(), "commit": case.commit,
              "reproduce": f"{os.path.abspath(__file__)} --seed {case.seed} --case {case.index} --show",
              "findings": [f"{f.signature}: {f.detail}" for f in result.hard]}
    for answer_ in (result.ref, result.ours):
        if answer_ is not None:
            record[answer_.tool] = answer_.json.doc if answer_.json.doc is not None else answer_.json.stdout
    with open(os.path.join(keep_dir, f"seed{case.seed}-case{case.index}.json"), "w") as handle:
        json.dump(record, handle, indent=2, ensure_ascii=False)


def show_files(case, pad=2):
    base, head = case.base_files(), case.head_files()
    lead = " " * pad
    print(f"{lead}commit mode: {case.commit}"
          + (f" (committed: {sorted(case.committed_paths)})" if case.commit == "mixed" else ""))
    for path in sorted(set(base) | set(head)):
        if path == "README.md":
            continue
        before, after = base.get(path), head.get(path, base.get(path))
        print(f"{lead}--- {path}: " + ("unchanged" if before == after else "absent on base" if before is None
                                      else "deleted on head" if after is None else "changed"))
        if before is not None and before != after:
            print(f"{lead}  base:\n" + indent_text(before, pad + 4))
        if after is not None:
            print((f"{lead}  head:\n" if before != after else "") + indent_text(after, pad + 4))


def indent_text(text, n):
    return "\n".join(" " * n + line for line in text.rstrip("\n").split("\n"))


def show_answer(answer_):
    if answer_ is None:
        return
    doc = answer_.json.doc
    if doc is None:
        print(f"  {answer_.tool}: FAILED ({answer_.json.failure}); stderr: {answer_.json.stderr.strip()[-300:]}")
        return
    print(f"  {answer_.tool}: {doc.get('comparison_status')} {doc.get('incomparable_reasons') or ''}"
          f" ({answer_.json.seconds:.1f}s)")
    for row in doc.get("rows", []):
        disposition = f" [{row.get('disposition')}]" if row.get("disposition") else ""
        print(f"    {row.get('direction'):8} {row.get('severity'):8} exp={str(row.get('expands')):5}"
              f" {row.get('subject')}{disposition} | {row.get('before')} -> {row.get('after')} | {row.get('why')}")
    for item in doc.get("coverage", {}).get("items", []):
        if item.get("status") != "compared" or item.get("detail"):
            print(f"    coverage {item.get('status')} {item.get('source')} side={item.get('side')}"
                  f" limit={item.get('limit')} detail={item.get('detail')}")
    for limit in doc.get("unchanged_limits", []):
        print(f"    unchanged limit {limit}")


def print_case(result, show):
    case = result.case
    verdict = "agree" if result.agrees else "DISAGREE"
    if result.ours is None:
        verdict = "reference FAILED" if result.hard else "reference answered"
    print(f"#{case.index} [{', '.join(case.kinds())}; {case.commit}] {verdict}: {'; '.join(case.edits())}")
    if show or result.ours is None:
        if show:
            show_files(case)
        show_answer(result.ref)
        show_answer(result.ours)
    if result.hard and result.ours is not None:
        for f in result.hard:
            print(f"    ! {f.signature}" + (f" — {f.detail}" if f.detail else ""))
    sys.stdout.flush()


def print_example(finding):
    case = finding.case
    print(f"      example: {case.name}; edits: {'; '.join(case.edits())}")
    print(f"      reproduce: {os.path.basename(__file__)} --seed {case.seed} --case {case.index} --show --daemon ...")
    show_files(case, pad=6)
    if finding.ref_row is not None or finding.ours_row is not None:
        print(f"      reference: {row_text(finding.ref_row)}")
        print(f"      ours:      {row_text(finding.ours_row)}")
    if finding.detail:
        print(f"      detail: {finding.detail}")


def group_findings(findings):
    groups = collections.OrderedDict()
    for f in findings:
        groups.setdefault(f.signature, []).append(f)
    return sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))


def summarise(results, args, elapsed):
    cases = len(results)
    print()
    print(f"host_parity: seed {args.seed}, {cases} cases in {elapsed:.0f}s; reference {args.reference}"
          + (f"; ours {args.daemon}" if args.daemon else " (reference only)"))
    if not args.daemon:
        return summarise_reference(results)
    agree = sum(r.agrees for r in results)
    print(f"  agree: {agree}   disagree: {cases - agree}")
    known = collections.Counter()
    for r in results:
        known.update(r.known_notes)
    if known:
        print("  known differences applied: " + ", ".join(f"{k} ×{n}" for k, n in sorted(known.items())))
    hard = [f for r in results for f in r.hard]
    if hard:
        print(f"\nMismatches by signature ({len(hard)} in all; one smallest example each):")
        for signature, group in group_findings(hard):
            cases_hit = sorted({f.case.index for f in group})
            print(f"\n  [{len(group)}] {signature}   (cases {', '.join(map(str, cases_hit[:12]))}"
                  + (" …" if len(cases_hit) > 12 else "") + ")")
            print_example(min(group, key=lambda f: f.case.size()))
    soft = [f for r in results for f in r.soft]
    if soft:
        print(f"\nLoose differences on known-difference rows ({len(soft)}; reported, never failing):")
        for signature, group in group_findings(soft):
            example = min(group, key=lambda f: f.case.size())
            print(f"  [{len(group)}] {signature}  e.g. {example.case.name}")
            print(f"      reference: {row_text(example.ref_row)}")
            print(f"      ours:      {row_text(example.ours_row)}")
    return 1 if hard else 0


def summarise_reference(results):
    failures = [f for r in results for f in r.hard]
    kinds, directions, statuses, coverage = (collections.Counter() for _ in range(4))
    for r in results:
        doc = r.ref.json.doc or {}
        statuses[doc.get("comparison_status")] += 1
        for row in doc.get("rows", []):
            kinds[grant_kind(row)] += 1
            directions[row.get("direction")] += 1
        for item in doc.get("coverage", {}).get("items", []):
            coverage[f"{item.get('status')}/{item.get('limit')}"] += 1
    sources = collections.Counter(k for r in results for k in r.case.kinds())
    modes = collections.Counter(r.case.commit for r in results)
    print(f"  sources per kind: {dict(sources)}; commit modes: {dict(modes)}")
    print(f"  comparison_status: {dict(statuses)}")
    print(f"  row directions: {dict(directions)}")
    print("  row kinds: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    print("  coverage status/limit: " + ", ".join(f"{k} {n}" for k, n in sorted(coverage.items())))
    print(f"  rows in all: {sum(kinds.values())}; cases without rows: "
          f"{sum(1 for r in results if not (r.ref.json.doc or {}).get('rows'))}")
    if failures:
        print(f"\nReference failures or leaks ({len(failures)}):")
        for signature, group in group_findings(failures):
            print(f"  [{len(group)}] {signature}")
            print_example(group[0])
        return 1
    print("  the reference answered every case; it leaked no planted secret")
    return 0


def case_indexes(args):
    if args.case is not None:
        yield args.case
        return
    deadline = time.monotonic() + args.minutes * 60 if args.minutes else None
    index = args.start
    while True:
        if deadline is None and index >= args.start + args.count:
            return
        if deadline is not None and time.monotonic() >= deadline:
            return
        yield index
        index += 1


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="host_parity.py",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=__doc__.split("\n\n", 1)[0] + "\n\n" + TRUTH_HELP,
        epilog=EPILOG)
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1); case N of a seed never changes")
    parser.add_argument("--count", type=int, default=50, help="number of cases (default 50)")
    parser.add_argument("--minutes", type=float, help="run cases until this many minutes have passed (overrides --count)")
    parser.add_argument("--start", type=int, default=0, help="first case index (default 0)")
    parser.add_argument("--case", type=int, help="run only this case index (to reproduce one)")
    parser.add_argument("--daemon", help="our binary (shipgate-daemon); without it, --reference-only")
    parser.add_argument("--reference-only", action="store_true",
                        help="run only the reference: print each generated case and its rows (checks the generator)")
    parser.add_argument("--reference", default=DEFAULT_REFERENCE, help=f"the reference binary (default {DEFAULT_REFERENCE})")
    parser.add_argument("--known", default=DEFAULT_KNOWN, help="known intended differences (default scripts/host_parity_known.json)")
    parser.add_argument("--show", action="store_true", help="print each case's files and both answers")
    parser.add_argument("--keep", metavar="DIR", help="keep each failing fixture repository (and both answers) under DIR")
    parser.add_argument("--jobs", type=int, default=1, help="cases run in parallel (default 1)")
    parser.add_argument("--no-text", action="store_true", help="skip the text-mode runs (used only for the secret-leak check)")
    args = parser.parse_args(argv)
    if args.reference_only:
        args.daemon = None
    if args.daemon and not os.path.exists(args.daemon):
        parser.error(f"--daemon {args.daemon}: no such file")
    if not os.path.exists(args.reference):
        parser.error(f"--reference {args.reference}: no such file")
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    return args


TRUTH_HELP = """\
The reference (agents-shipgate 1.2.0) is the oracle, except for the decided
differences listed in the --known file. For each random case (a git repo with
host files on main and edits on branch feature, committed or not) both tools
run `diff --workspace REPO --base main --json`; the script compares
comparison_status, the rows (direction, severity, subject, before, after,
disposition, expands, why) as a multiset, the coverage items (source, status,
side), the JSON keys, and checks that no planted secret (env / header values)
appears in either tool's JSON or text output.

Generated shapes: Claude permission rules (allow / deny / ask; added, removed,
widened and narrowed along rule chains, moved between lists), defaultMode,
additionalDirectories, the MCP approval flags, hooks (and a hook's script),
MCP servers in .mcp.json (also nested), .cursor/mcp.json, .vscode/mcp.json
and Codex (stdio and URL; args, env, headers, url, rename, transport),
Codex approval_policy / sandbox_mode / network_access, workflows (triggers,
pull_request_target, top-level and job permissions, write-all, read-all, none
at all, action refs, jobs); files added, deleted, renamed, or not parsing."""

EPILOG = """\
known differences file (--known): a JSON list of
  {"id": ..., "reason": one sentence, "match": {"normalise": KIND, ...}}
KIND is one of
  collapse-rule-pairs    the reference's added + removed rows for a rule replaced in
                         the same file and disposition by one covering it (or covered
                         by it) become one widened (narrowed) row; "dispositions" limits it
  collapse-setting-pairs the same for the one-value settings in "settings": {name:
                         [ranks, least authority first; "a|b" ties]}: widened, narrowed
                         or changed (equal or unknown ranks)
  drop-rows / drop-coverage  forget rows / coverage items of "tool" (reference, ours,
                         both) whose fields match every regex of "where": {field: regex}
Collapsed rows compare strictly on direction, subject, before, after, disposition;
severity, why and expands loosely (a difference there is listed, never fails).

examples:
  host_parity.py --reference-only --count 50             check the generator
  host_parity.py --daemon target/release/shipgate-daemon --seed 7 --count 200 --keep /tmp/hp
  host_parity.py --daemon ... --minutes 30 --jobs 2
  host_parity.py --daemon ... --seed 7 --case 41 --show  reproduce one case

exit status: 0 no unexplained mismatch (reference-only: the reference answered every
case without leaking), 1 otherwise, 2 bad usage."""


def run_all(args, known):
    """Results in case order, at most --jobs cases in flight (so --minutes stops on time)."""
    jobs = max(1, args.jobs)
    with ThreadPoolExecutor(jobs) as pool:
        pending = collections.deque()
        for index in case_indexes(args):
            pending.append(pool.submit(run_case, draw_case(args.seed, index), args, known))
            if len(pending) >= jobs:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def main(argv):
    args = parse_args(argv)
    known = load_known(args.known)
    started = time.monotonic()
    results = []
    try:
        for result in run_all(args, known):
            print_case(result, args.show)
            results.append(result)
    except KeyboardInterrupt:
        print("\ninterrupted: summarising the cases that finished")
    return summarise(results, args, time.monotonic() - started)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
