"""Claude Code settings (`.claude/settings*.json`): drawing a model and editing its head.

Permission rules (allow / deny / ask, added, removed, replaced along a rule chain, moved between
lists), defaultMode, additionalDirectories, the MCP approval flags, hooks and a hook's script."""

from .vocabulary import (
    DEFAULT_MODES, DISPOSITIONS, ENV_KEYS, EXTRA_DIRS, HOOK_COMMANDS, HOOK_EVENTS, HOOK_MATCHERS, HOOK_SCRIPT,
    MCPJSON_NAMES, RULE_CHAINS, STANDALONE_RULES, pick, weighted
)


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
    """Replace a rule by a wider (or narrower) member of its chain, in place. The note says
    `widen` / `narrow` for the rule's reach: for a deny or ask rule the agent's authority, and
    so the row ours prints, moves the other way."""
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
