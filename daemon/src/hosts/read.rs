//! One source file's bytes to its grants: the format's parser, then the
//! host's reader. A file that does not parse, or holds a shape its reader
//! does not know, is `Malformed`: its side's inventory is then incomplete,
//! and the comparison says so rather than compare what it could not read.

use super::grant::Grant;
use super::sources::SourceKind;
use super::{claude, codex, mcp, workflow};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The largest source file read; configuration files are far smaller.
pub const MAX_SOURCE_BYTES: usize = 1 << 20;

/// What one source grants, and what its reader could not establish.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceReading {
    pub grants: Vec<Grant>,
    pub limits: Vec<SourceLimit>,
}

/// Something a source declares that its reader does not follow; the
/// rows of the source stand, but do not cover it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceLimit {
    /// The coverage status it is reported under (`script_not_resolved`).
    pub status: String,
    /// What it concerns (`PreToolUse handler 0 (working_directory_not_established)`).
    pub detail: String,
}

impl SourceLimit {
    pub fn script_not_resolved(detail: String) -> Self {
        SourceLimit {
            status: "script_not_resolved".to_string(),
            detail,
        }
    }
}

/// Why a source file was not read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Malformed {
    /// The limit's name: `parse_failed` (the parser refused it),
    /// `unsupported` (it parsed, in a shape the host does not take),
    /// `unreadable` (not read at all: too large, a link).
    pub limit: String,
    /// The sentence the coverage prints after the source.
    pub detail: String,
}

impl Malformed {
    /// A file that parses but whose shape its reader does not know.
    pub fn shape(what: &str) -> Self {
        Self::unsupported(format!("static reader could not read this file: {what}"))
    }

    pub fn unsupported(detail: String) -> Self {
        Malformed {
            limit: "unsupported".into(),
            detail,
        }
    }

    pub fn unreadable(detail: String) -> Self {
        Malformed {
            limit: "unreadable".into(),
            detail,
        }
    }

    /// The parser's refusal, named as the reference names its parsers'
    /// errors (`JSONDecodeError`, `TOMLDecodeError`, `ParserError`).
    fn rejected(format: &str, error: &str) -> Self {
        Malformed {
            limit: "parse_failed".into(),
            detail: format!("static parser rejected this {format} file ({error})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::flow_depth;

    #[test]
    fn flow_depth_counts_brackets_outside_strings_and_comments() {
        assert_eq!(
            flow_depth("on: [push, {pull_request: {branches: [main]}}]\n"),
            4
        );
        assert_eq!(flow_depth("run: echo \"[[[[\" # [[[[\nx: '[[['\n"), 0);
        assert_eq!(
            flow_depth("if: ${{ github.ref == 'refs/heads/main' }}\n"),
            2
        );
        assert_eq!(
            flow_depth(&format!("a: {}{}", "[".repeat(500), "]".repeat(500))),
            500
        );
    }
}

impl Malformed {
    /// A file past `MAX_SOURCE_BYTES`, never read.
    pub fn too_large() -> Self {
        Self::unreadable(format!(
            "this file is larger than {MAX_SOURCE_BYTES} bytes, the most a host source is read at"
        ))
    }
}

/// The grants of one source of kind `kind`; `format` is how its file
/// names its format (`json`, `toml`, `yml`, `yaml`), for messages.
pub fn read(kind: SourceKind, format: &str, bytes: &[u8]) -> Result<SourceReading, Malformed> {
    if bytes.len() > MAX_SOURCE_BYTES {
        return Err(Malformed::too_large());
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Err(Malformed::rejected(format, "UnicodeDecodeError"));
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let doc = parse(kind, format, text)?;
    match kind {
        SourceKind::ClaudeSettings => claude::read(&doc),
        SourceKind::McpServers => servers(&doc, "mcpServers"),
        SourceKind::VsCodeServers => {
            if doc.get("mcpServers").is_some() {
                return Err(Malformed::unsupported(
                    "top-level key 'mcpServers' is not part of the modeled .vscode/mcp.json shape"
                        .into(),
                ));
            }
            servers(&doc, "servers")
        }
        SourceKind::CodexConfig => codex::read(&doc),
        SourceKind::Workflow => workflow::read(&doc),
    }
}

/// The file as JSON values, whatever its format. Each parser bounds its
/// own nesting (serde_json at 128 levels, the YAML parser's recursion and
/// alias-expansion limits), so no file can exhaust the stack or memory.
/// VS Code reads its file as JSON with comments and trailing commas.
fn parse(kind: SourceKind, format: &str, text: &str) -> Result<Value, Malformed> {
    let json = |text: &str| {
        serde_json::from_str(text).map_err(|_| Malformed::rejected(format, "JSONDecodeError"))
    };
    match kind {
        SourceKind::ClaudeSettings | SourceKind::McpServers => json(text),
        SourceKind::VsCodeServers => json(&super::jsonc::plain_json(text)),
        SourceKind::CodexConfig => {
            let table: toml::Table =
                toml::from_str(text).map_err(|_| Malformed::rejected(format, "TOMLDecodeError"))?;
            serde_json::to_value(table).map_err(|_| Malformed::rejected(format, "TOMLDecodeError"))
        }
        SourceKind::Workflow => {
            // The YAML parser takes time quadratic in flow nesting
            // (`[[[[…]]]]`: 50,000 levels cost it seconds) before its own
            // recursion limit refuses them: bounded here first.
            if flow_depth(text) > MAX_FLOW_DEPTH {
                return Err(Malformed::rejected(format, "nested deeper than 64 levels"));
            }
            yaml_serde::from_str(text).map_err(|_| Malformed::rejected(format, "ParserError"))
        }
    }
}

/// The deepest flow nesting (`[`, `{`) a YAML file reaches, a workflow's
/// being a few levels: brackets in comments and quoted scalars are not
/// counted; anything else odd can only count more, and a file refused for
/// it is a named limit, never a row.
const MAX_FLOW_DEPTH: usize = 64;

fn flow_depth(text: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let mut quote: Option<char> = None;
    let mut previous = '\n';
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some('"'), '\\') => {
                chars.next();
            }
            (Some(open), c) if c == open => quote = None,
            (Some(_), _) => {}
            (None, '#') if previous.is_whitespace() => {
                for rest in chars.by_ref() {
                    if rest == '\n' {
                        break;
                    }
                }
            }
            (None, '"' | '\'')
                if previous.is_whitespace() || matches!(previous, ':' | '[' | '{' | ',' | '-') =>
            {
                quote = Some(c);
            }
            (None, '[' | '{') => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            (None, ']' | '}') => depth = depth.saturating_sub(1),
            _ => {}
        }
        previous = c;
    }
    deepest
}

/// A file of MCP servers under `key`.
fn servers(doc: &Value, key: &str) -> Result<SourceReading, Malformed> {
    let Some(file) = doc.as_object() else {
        return Err(Malformed::shape("the file is not a JSON object"));
    };
    let mut reading = SourceReading::default();
    let Some(servers) = file.get(key) else {
        return Ok(reading);
    };
    let Some(servers) = servers.as_object() else {
        return Err(Malformed::shape(&format!("{key} is not an object")));
    };
    for (name, entry) in servers {
        reading.grants.push(Grant::Mcp(mcp::server(name, entry)));
    }
    Ok(reading)
}
