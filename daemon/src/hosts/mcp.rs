//! MCP server entries, whichever host declares them (Claude Code's and
//! Cursor's `mcpServers`, VS Code's `servers`, Codex's `[mcp_servers.*]`
//! converted to the same JSON shape): what runs or is reached, and the
//! names of the credentials it is handed. Values are digested, never kept.

use super::digest::sha256;
use super::grant::{McpServer, Transport};
use serde_json::{Map, Value};

/// The launchers whose unpinned package is said to be a mutable launch
/// source (the reference's set: what each fetches is what its registry
/// serves that day).
const FETCHING: &[&str] = &["npx", "uvx", "docker", "podman"];

/// Commands that fetch and run a package named in their arguments.
const LAUNCHERS: &[&str] = &["npx", "bunx", "uvx", "pipx", "pnpx", "docker", "podman"];

/// The server `name`'s entry read as a grant.
pub fn server(name: &str, entry: &Value) -> McpServer {
    let empty = Map::new();
    let fields = entry.as_object().unwrap_or(&empty);
    let text = |key: &str| fields.get(key).and_then(Value::as_str);
    let url = text("url")
        .or_else(|| text("serverUrl"))
        .or_else(|| text("httpUrl"));
    let command = text("command");
    let args: Vec<&str> = fields
        .get("args")
        .and_then(Value::as_array)
        .map(|args| args.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let env = fields.get("env").and_then(Value::as_object);
    let headers = fields
        .get("headers")
        .or_else(|| fields.get("http_headers"))
        .and_then(Value::as_object);
    let keys = |map: Option<&Map<String, Value>>| {
        let mut keys: Vec<String> = map.map(|m| m.keys().cloned().collect()).unwrap_or_default();
        // Codex names a bearer token's variable rather than holding it.
        keys.sort();
        keys
    };
    let mut env_keys = keys(env);
    if let Some(variable) = text("bearer_token_env_var") {
        env_keys.push(variable.to_string());
        env_keys.sort();
        env_keys.dedup();
    }
    let executable = command.map(file_name);
    let (package, mutable_launch) = match executable {
        Some(launcher) if LAUNCHERS.contains(&launcher) => {
            let package = launched_package(launcher, &args);
            let pinned = package.as_deref().is_some_and(|p| is_pinned(launcher, p));
            (package, !pinned && FETCHING.contains(&launcher))
        }
        _ => (None, false),
    };
    let values: Vec<Value> = [env, headers]
        .into_iter()
        .map(|m| m.map_or(Value::Null, |m| Value::Object(m.clone())))
        .collect();
    let url_keys = ["url", "serverUrl", "httpUrl"];
    let rest: Map<String, Value> = fields
        .iter()
        .filter(|(k, _)| {
            !matches!(k.as_str(), "args" | "env" | "headers" | "http_headers")
                && !url_keys.contains(&k.as_str())
        })
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    McpServer {
        server: name.to_string(),
        transport: if url.is_some() && command.is_none() {
            Transport::Url
        } else {
            Transport::Stdio
        },
        command: executable.map(str::to_string),
        package,
        mutable_launch,
        url: url.map(redacted_url),
        url_sha256: url.map(|u| sha256(&Value::String(without_userinfo(u)))),
        env_keys,
        header_keys: keys(headers),
        args_sha256: fields.get("args").map(sha256),
        values_sha256: (env.is_some() || headers.is_some()).then(|| sha256(&Value::Array(values))),
        rest_sha256: sha256(&Value::Object(rest)),
    }
}

/// The last component of a command path (`/usr/bin/npx` → `npx`).
fn file_name(command: &str) -> &str {
    let command = command.trim();
    command
        .rsplit(['/', '\\'])
        .next()
        .filter(|name| !name.is_empty())
        .unwrap_or(command)
}

/// The package a launcher's arguments run: the first argument that is not
/// a flag (after `run` for pipx and containers).
fn launched_package(launcher: &str, args: &[&str]) -> Option<String> {
    let mut rest = args.iter().copied().peekable();
    if matches!(launcher, "pipx" | "docker" | "podman") {
        // `pipx run pkg`, `docker run [flags] image`.
        loop {
            match rest.next()? {
                "run" => break,
                flag if flag.starts_with('-') => continue,
                _ => return None,
            }
        }
    }
    let takes_value = |flag: &str| {
        matches!(
            flag,
            "-e" | "--env"
                | "-v"
                | "--volume"
                | "--name"
                | "-p"
                | "--publish"
                | "--network"
                | "--from"
                | "--with"
                | "--python"
                | "--package"
                | "-w"
                | "--workdir"
                | "--mount"
                | "--env-file"
                | "-u"
                | "--user"
        )
    };
    while let Some(arg) = rest.next() {
        if arg.starts_with('-') {
            if let Some(value) = arg
                .strip_prefix("--package=")
                .or_else(|| arg.strip_prefix("--from="))
            {
                return Some(value.to_string());
            }
            if matches!(arg, "--package" | "--from") {
                return rest.next().map(str::to_string);
            }
            if takes_value(arg) && !arg.contains('=') {
                rest.next();
            }
            continue;
        }
        return Some(arg.to_string());
    }
    None
}

/// Whether a package spelling names one exact release.
fn is_pinned(launcher: &str, package: &str) -> bool {
    let exact = |version: &str| {
        !version.is_empty()
            && version.chars().next().is_some_and(|c| c.is_ascii_digit())
            && version
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+'))
    };
    match launcher {
        "docker" | "podman" => package.contains("@sha256:"),
        "uvx" | "pipx" => package
            .split_once("==")
            .or_else(|| package.rsplit_once('@'))
            .is_some_and(|(_, v)| exact(v)),
        _ => {
            // `@scope/name@1.2.3` or `name@1.2.3`: the version follows the
            // last `@` that is not the scope's.
            let body = package.strip_prefix('@').unwrap_or(package);
            body.rsplit_once('@').is_some_and(|(_, v)| exact(v))
        }
    }
}

/// A URL without its userinfo (`user:pass@`).
fn without_userinfo(url: &str) -> String {
    let Some((scheme, rest)) = url.trim().split_once("://") else {
        return url.trim().to_string();
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let host = rest[..end]
        .rsplit_once('@')
        .map_or(&rest[..end], |(_, host)| host);
    format!("{scheme}://{host}{}", &rest[end..])
}

/// A URL with what may carry a secret withheld: userinfo dropped, any
/// path or query replaced by `<redacted-path>`.
pub fn redacted_url(url: &str) -> String {
    let url = url.trim();
    let Some((scheme, rest)) = url.split_once("://") else {
        return "<unparsed url>".to_string();
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let host = authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host);
    let tail = &rest[end..];
    let scheme_ok = !scheme.is_empty()
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if !scheme_ok || host.is_empty() {
        return "<unparsed url>".to_string();
    }
    match tail {
        "" | "/" => format!("{scheme}://{host}{tail}"),
        _ => format!("{scheme}://{host}/<redacted-path>"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_server_keeps_names_and_digests_only() {
        let s = server(
            "github",
            &json!({"command": "/usr/local/bin/npx", "args": ["-y", "@modelcontextprotocol/server-github"], "env": {"GITHUB_TOKEN": "ghp_x"}}),
        );
        assert_eq!(s.command.as_deref(), Some("npx"));
        assert_eq!(
            s.package.as_deref(),
            Some("@modelcontextprotocol/server-github")
        );
        assert!(s.mutable_launch);
        assert_eq!(s.env_keys, vec!["GITHUB_TOKEN"]);
        assert!(!format!("{s:?}").contains("ghp_x"));
        let pinned = server(
            "slack",
            &json!({"command": "npx", "args": ["slack-mcp@1.2.3"]}),
        );
        assert!(!pinned.mutable_launch);
        let local = server(
            "local",
            &json!({"command": "python", "args": ["server.py"]}),
        );
        assert_eq!((local.package, local.mutable_launch), (None, false));
    }

    #[test]
    fn urls_withhold_userinfo_paths_and_queries() {
        assert_eq!(
            redacted_url("https://u:p@api.example.com/mcp?key=abc"),
            "https://api.example.com/<redacted-path>"
        );
        assert_eq!(
            redacted_url("http://localhost:3000"),
            "http://localhost:3000"
        );
        assert_eq!(redacted_url("not a url"), "<unparsed url>");
    }
}
