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
        return Err(Malformed::shape("the settings are not a JSON object"));
    };
    let mut reading = SourceReading::default();
    if let Some(permissions) = settings.get("permissions") {
        let Some(permissions) = permissions.as_object() else {
            return Err(Malformed::shape("permissions is not an object"));
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
                reading
                    .grants
                    .push(setting(key, scalar(value, key)?, false));
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
    if let Some(value) = settings.get("enableAllProjectMcpServers") {
        let value = scalar(value, "enableAllProjectMcpServers")?;
        reading
            .grants
            .push(setting("enableAllProjectMcpServers", value, false));
    }
    for key in ["enabledMcpjsonServers", "disabledMcpjsonServers"] {
        for server in strings(settings.get(key), key)? {
            reading.grants.push(setting(key, server, true));
        }
    }
    if let Some(hooks) = settings.get("hooks") {
        read_hooks(hooks, &mut reading)?;
    }
    Ok(reading)
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
    let Some(items) = value.as_array() else {
        return Err(Malformed::shape(&format!("{what} is not a list")));
    };
    items
        .iter()
        .map(|item| {
            item.as_str().map(str::to_string).ok_or_else(|| {
                Malformed::shape(&format!("{what} holds a value that is not a string"))
            })
        })
        .collect()
}

/// A setting's value as printed (`true`, `acceptEdits`).
fn scalar(value: &Value, what: &str) -> Result<String, Malformed> {
    match value {
        Value::String(text) => Ok(text.clone()),
        Value::Bool(flag) => Ok(flag.to_string()),
        Value::Number(number) => Ok(number.to_string()),
        _ => Err(Malformed::shape(&format!("{what} is not a single value"))),
    }
}

/// `hooks: {Event: [{matcher, hooks: [{type, command}]}]}`: one grant per
/// event. A handler running a script by a relative path names a limit:
/// the directory it runs in is where the host was started, which the
/// repository does not establish, so the script's code is not read.
fn read_hooks(hooks: &Value, reading: &mut SourceReading) -> Result<(), Malformed> {
    let Some(events) = hooks.as_object() else {
        return Err(Malformed::shape("hooks is not an object"));
    };
    for (event, entries) in events {
        let Some(entries) = entries.as_array() else {
            return Err(Malformed::shape(&format!("hooks.{event} is not a list")));
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
                let script = command.and_then(first_word).and_then(project_script);
                if script.is_none() && command.and_then(first_word).is_some_and(is_relative_script)
                {
                    reading
                        .limits
                        .push(SourceLimit::script_not_resolved(format!(
                            "{event} handler {} (working_directory_not_established)",
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

/// A path relative to the working directory (`./scripts/check.sh`,
/// `scripts/check.sh`), not a command found on `PATH` or an absolute path.
fn is_relative_script(word: &str) -> bool {
    let word = word.trim_matches(['"', '\'']);
    word.contains('/') && !word.starts_with('/') && !word.starts_with('~')
}
