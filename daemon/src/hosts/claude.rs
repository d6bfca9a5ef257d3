//! Claude Code's project settings (`.claude/settings.json`,
//! `.claude/settings.local.json`): permission rules, the permission mode,
//! extra directories, MCP approvals and hooks.

use super::digest::sha256;
use super::grant::{Disposition, Grant, Hook, HookHandler, PermissionRule, Setting};
use super::read::{Malformed, SourceLimit, SourceReading};
use serde_json::Value;

/// The settings document read as grants.
pub fn read(doc: &Value) -> Result<SourceReading, Malformed> {
    let Some(settings) = doc.as_object() else {
        return Err(unsupported("settings must be an object"));
    };
    let mut reading = SourceReading::default();
    if let Some(permissions) = settings.get("permissions") {
        let Some(permissions) = permissions.as_object() else {
            return Err(unsupported("permissions must be an object"));
        };
        for (key, disposition) in [
            ("allow", Disposition::Allow),
            ("deny", Disposition::Deny),
            ("ask", Disposition::Ask),
        ] {
            for rule in strings(permissions.get(key), &format!("permissions.{key}"))? {
                reading
                    .grants
                    .push(Grant::Rule(PermissionRule { disposition, rule }));
            }
        }
        for key in ["defaultMode", "disableBypassPermissionsMode"] {
            if let Some(value) = permissions.get(key) {
                reading.grants.push(setting(key, scalar(value), false));
            }
        }
        for directory in strings(
            permissions.get("additionalDirectories"),
            "permissions.additionalDirectories",
        )? {
            reading
                .grants
                .push(setting("additionalDirectories", directory, true));
        }
    }
    // Read at the top level too, where the permissions object does not
    // already set it.
    let in_permissions = |key: &str| {
        settings
            .get("permissions")
            .and_then(Value::as_object)
            .is_some_and(|p| p.contains_key(key))
    };
    for key in [
        "defaultMode",
        "disableAllHooks",
        "enableAllProjectMcpServers",
    ] {
        if let Some(value) = settings.get(key).filter(|_| !in_permissions(key)) {
            reading.grants.push(setting(key, scalar(value), false));
        }
    }
    for key in ["enabledMcpjsonServers", "disabledMcpjsonServers"] {
        for server in strings(settings.get(key), key)? {
            reading.grants.push(setting(key, server, true));
        }
    }
    if let Some(sandbox) = settings.get("sandbox") {
        let Some(sandbox) = sandbox.as_object() else {
            return Err(unsupported("sandbox must be an object"));
        };
        for (key, value) in sandbox {
            let name = format!("sandbox.{key}");
            match value {
                Value::Array(items) => {
                    for item in items {
                        reading.grants.push(setting(&name, scalar(item), true));
                    }
                }
                value => reading.grants.push(setting(&name, scalar(value), false)),
            }
        }
    }
    if let Some(hooks) = settings.get("hooks") {
        read_hooks(hooks, &mut reading)?;
    }
    Ok(reading)
}

/// A settings field whose shape Claude Code does not accept.
fn unsupported(what: &str) -> Malformed {
    Malformed::unsupported(format!(
        "Cannot interpret Claude settings: {what}; repair the field and rerun the audit."
    ))
}

fn setting(name: &str, value: String, member: bool) -> Grant {
    Grant::Setting(Setting {
        setting: name.to_string(),
        value,
        member,
    })
}

/// A list of strings, or nothing; anything else is malformed.
fn strings(value: Option<&Value>, what: &str) -> Result<Vec<String>, Malformed> {
    let Some(value) = value else {
        return Ok(Vec::new());
    };
    let refused = || unsupported(&format!("{what} must be an array of non-empty strings"));
    let Some(items) = value.as_array() else {
        return Err(refused());
    };
    items
        .iter()
        .map(|item| {
            item.as_str()
                .filter(|text| !text.is_empty())
                .map(str::to_string)
                .ok_or_else(refused)
        })
        .collect()
}

/// A setting's value as printed (`true`, `acceptEdits`; anything else as
/// JSON spells it, so an unknown value is shown, never dropped).
fn scalar(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// `hooks: {Event: [{matcher, hooks: [{type, command}]}]}`: one grant per
/// event. A handler running a script by a relative path names a limit:
/// the directory it runs in is where the host was started, which the
/// repository does not establish, so the script's code is not read.
fn read_hooks(hooks: &Value, reading: &mut SourceReading) -> Result<(), Malformed> {
    let Some(events) = hooks.as_object() else {
        return Err(unsupported("hooks must be an object"));
    };
    for (event, entries) in events {
        let Some(entries) = entries.as_array() else {
            return Err(unsupported(&format!("hooks.{event} must be an array")));
        };
        let mut handlers = Vec::new();
        for entry in entries {
            let matcher = entry
                .get("matcher")
                .and_then(Value::as_str)
                .map(str::to_string);
            let Some(list) = entry.get("hooks").and_then(Value::as_array) else {
                return Err(Malformed::shape(&format!(
                    "an entry of hooks.{event} has no list of hooks"
                )));
            };
            for handler in list {
                let kind = handler
                    .get("type")
                    .and_then(Value::as_str)
                    .unwrap_or("command")
                    .to_string();
                let command = handler.get("command").and_then(Value::as_str);
                let executable = command.and_then(first_word).map(|word| {
                    let word = word.trim_matches(['"', '\'']);
                    word.rsplit('/').next().unwrap_or(word).to_string()
                });
                let (script, unresolved) = match command {
                    Some(command) if kind == "command" => what_runs(command),
                    _ => (None, Some("unsupported_hook_shape")),
                };
                if let Some(reason) = unresolved {
                    reading
                        .limits
                        .push(SourceLimit::script_not_resolved(format!(
                            "{event} handler {} ({reason})",
                            handlers.len()
                        )));
                }
                handlers.push(HookHandler {
                    matcher: matcher.clone(),
                    kind,
                    executable,
                    script,
                    script_blob: None,
                    sha256: sha256(handler),
                });
            }
        }
        reading.grants.push(Grant::Hook(Hook {
            event: event.clone(),
            handlers,
        }));
    }
    Ok(())
}

fn first_word(command: &str) -> Option<&str> {
    command.split_whitespace().next()
}

/// The repository path a command's first word names under the project
/// directory, the one place a hook's script is established: Claude Code
/// sets `CLAUDE_PROJECT_DIR` to the directory holding `.claude/`, the
/// repository's root for its settings. A path leaving the root (`..`) or
/// naming anything computed is not one.
fn project_script(word: &str) -> Option<String> {
    let unquoted = word.replace(['"', '\''], "");
    let rest = ["$CLAUDE_PROJECT_DIR/", "${CLAUDE_PROJECT_DIR}/"]
        .iter()
        .find_map(|prefix| unquoted.strip_prefix(prefix))?;
    let clean = rest
        .split('/')
        .all(|part| !part.is_empty() && part != "." && part != "..");
    (clean && !rest.contains(['$', '`', '*', '?', '\\'])).then(|| rest.to_string())
}

/// Commands that run a script or code their arguments name (or fetch
/// it): a hook running one runs code this reader does not follow. A
/// package runner (`npx prettier`) names what it runs, as a command on
/// `PATH` does.
const INTERPRETERS: &[&str] = &[
    "bash",
    "sh",
    "zsh",
    "fish",
    "dash",
    "pwsh",
    "powershell",
    "python",
    "python3",
    "node",
    "deno",
    "bun",
    "ruby",
    "perl",
    "php",
    "osascript",
    "curl",
    "wget",
    "env",
    "xargs",
    "eval",
    "sudo",
];

/// What a hook's command runs: the project script it names (read by its
/// bytes), and why what runs is not established when it is not — shell
/// syntax (pipes, `&&`, substitutions, redirections), an interpreter
/// running code its arguments name, a script relative to the directory
/// the host was started in. A plain command found on `PATH` is named by
/// the handler itself.
fn what_runs(command: &str) -> (Option<String>, Option<&'static str>) {
    if command.contains(['|', '&', ';', '`', '>', '<', '\n']) || command.contains("$(") {
        return (None, Some("unsupported_shell_command"));
    }
    let Some(first) = first_word(command) else {
        return (None, Some("unsupported_hook_shape"));
    };
    if let Some(script) = project_script(first) {
        return (Some(script), None);
    }
    let word = first.trim_matches(['"', '\'']);
    let name = word.rsplit('/').next().unwrap_or(word);
    if INTERPRETERS.contains(&name) {
        return (None, Some("interpreter_wrapper"));
    }
    if word.contains('/') && !word.starts_with('/') || word.contains('$') {
        return (None, Some("working_directory_not_established"));
    }
    (None, None)
}
