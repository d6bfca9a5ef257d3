"""MCP servers (`.mcp.json`, `.cursor/mcp.json`, `.vscode/mcp.json` and Codex's `mcp_servers`):
drawing servers (stdio and URL) and editing them (args, env, headers, url, rename, transport)."""

import re

from .vocabulary import (
    DOCKER_IMAGES, ENV_KEYS, HEADER_KEYS, NPX_PACKAGES, SERVER_NAMES, URL_HOSTS, URL_PATHS, UVX_PACKAGES, pick,
    weighted
)


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
