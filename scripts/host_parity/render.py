"""Rendering: each host's model is plain data, written here as its file (JSON, Codex TOML,
workflow YAML) in one of a few styles."""

import json
import re


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
