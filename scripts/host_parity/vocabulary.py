"""The vocabulary of realistic grants the hosts' configurations are drawn from, and the two
ways of drawing from it (`pick`, `weighted`)."""

# Each chain runs from narrow to wide: a later rule's matches include an
# earlier one's, so replacing one by a later one widens its reach, by an
# earlier one narrows it (for an allow rule the agent's authority moves the
# same way, for deny and ask the other way). No two members of a chain match
# the same calls.
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
