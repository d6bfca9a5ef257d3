"""Codex (`.codex/config.toml`): drawing a model and editing approval_policy, sandbox_mode,
network_access and its MCP servers (the server edits are mcp.py's)."""

from .mcp import (
    draw_server, edit_add_server, edit_remove_server, edit_rename_server, edit_server_args, edit_server_env,
    edit_server_noise, edit_server_url
)
from .vocabulary import APPROVAL_POLICIES, CODEX_MODELS, SANDBOX_MODES, SERVER_NAMES, pick


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
