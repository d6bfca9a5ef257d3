//! Claude Code permission rules by what they match (issue 42: a rule
//! whose matches include the old rule's is `widened`, not two rows).
//!
//! `covers(a, b)` holds only when every call `b` matches, `a` matches too,
//! under every reading of the rule syntax the host has had: a Bash prefix
//! (`npm run:*`) covers a longer prefix or command only at a word
//! boundary (`npm run test`, never `npm runner`), a path pattern covers
//! only paths under its `**` directory, a bare tool (or `Tool(*)`) covers
//! every rule of that tool, an MCP server rule covers its tools. Any other
//! pattern (a `*` inside a command, `?`, braces) covers only itself, so
//! an unknown form is never claimed to cover anything: the pair is then
//! printed as a rule removed and a rule added, as the reference does.

/// A rule split into its tool and specifier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule<'a> {
    pub tool: &'a str,
    /// What the parentheses hold; `None` for a bare tool.
    pub specifier: Option<&'a str>,
}

/// The tools whose specifier is a path pattern.
const PATH_TOOLS: &[&str] = &[
    "Read",
    "Edit",
    "Write",
    "MultiEdit",
    "NotebookEdit",
    "NotebookRead",
    "Glob",
    "Grep",
];

/// Tools that only read the project: a rule of one grants no change to
/// anything (web search reaches outside, so it is not one).
pub const READ_ONLY_TOOLS: &[&str] = &["Read", "Glob", "Grep", "LS", "NotebookRead"];

/// Commands that run whatever code their arguments name: a Bash prefix
/// rule on one (`Bash(python:*)`) allows arbitrary code.
const LAUNCHERS: &[&str] = &[
    "bash",
    "sh",
    "zsh",
    "pwsh",
    "sh -c",
    "bash -c",
    "python",
    "python3",
    "python -c",
    "python3 -c",
    "node",
    "node -e",
    "node --eval",
    "npx",
    "pnpm",
    "pnpm dlx",
    "pnpm exec",
    "bunx",
    "uv",
    "uv run",
    "uv tool run",
    "uvx",
    "pipx",
    "pipx run",
    "env",
    "xargs",
    "eval",
    "sudo",
    "docker",
    "docker run",
    "docker exec",
    "perl",
    "perl -e",
    "php",
    "php -r",
    "ruby",
    "ruby -e",
];

impl<'a> Rule<'a> {
    pub fn parse(text: &'a str) -> Rule<'a> {
        let text = text.trim();
        if let Some(open) = text.find('(') {
            if let Some(inner) = text[open + 1..].strip_suffix(')') {
                return Rule {
                    tool: text[..open].trim(),
                    specifier: Some(inner.trim()),
                };
            }
        }
        Rule {
            tool: text,
            specifier: None,
        }
    }

    /// Whether the rule matches every call of its tool (`Bash`,
    /// `Bash(*)`, `Edit(**)`, `mcp__github`).
    pub fn matches_every_target(&self) -> bool {
        match self.specifier {
            None => !self.is_mcp_tool(),
            Some(spec) => matches!(spec, "*" | "**" | "**/*"),
        }
    }

    /// A Bash rule allowing a launcher with any arguments
    /// (`Bash(python:*)`, `Bash(npx *)`).
    pub fn is_launcher(&self) -> bool {
        if self.tool != "Bash" {
            return false;
        }
        let Some(spec) = self.specifier else {
            return false;
        };
        let command = spec
            .strip_suffix(":*")
            .or_else(|| spec.strip_suffix(" *"))
            .or_else(|| spec.strip_suffix('*'))
            .map(str::trim_end);
        command.is_some_and(|c| LAUNCHERS.contains(&c))
    }

    /// An MCP rule naming one tool of a server (`mcp__github__get_issue`).
    fn is_mcp_tool(&self) -> bool {
        self.tool
            .strip_prefix("mcp__")
            .is_some_and(|rest| rest.contains("__") && !rest.ends_with("__*"))
    }

    /// The server of an MCP rule (`mcp__github__x` → `github`).
    fn mcp_server(&self) -> Option<&'a str> {
        let rest = self.tool.strip_prefix("mcp__")?;
        Some(rest.split("__").next().unwrap_or(rest))
    }
}

/// Whether every call `narrow` matches, `wide` matches too.
pub fn covers(wide: &str, narrow: &str) -> bool {
    let (a, b) = (Rule::parse(wide), Rule::parse(narrow));
    if a == b {
        return true;
    }
    if let (Some(server_a), Some(server_b)) = (a.mcp_server(), b.mcp_server()) {
        // `mcp__github` and `mcp__github__*` cover every tool of the
        // server; a tool rule covers only itself.
        let whole_server = a.specifier.is_none()
            && (a.tool == format!("mcp__{server_a}") || a.tool == format!("mcp__{server_a}__*"));
        return whole_server && server_a == server_b && b.specifier.is_none();
    }
    if a.tool != b.tool {
        return false;
    }
    if a.matches_every_target() {
        return true;
    }
    let (Some(spec_a), Some(spec_b)) = (a.specifier, b.specifier) else {
        return false;
    };
    match a.tool {
        "Bash" => bash_covers(spec_a, spec_b),
        tool if PATH_TOOLS.contains(&tool) => path_covers(spec_a, spec_b),
        _ => spec_a == spec_b,
    }
}

/// Whether two Bash rules may match one command (the reference's
/// "potentially overlapping"): a rule matching every command, or one whose
/// matches are not read (a `*` inside it), may match anything; prefixes
/// and exact commands overlap where one covers the other (at a word
/// boundary: `ls:*` and `lsof` do not).
pub fn may_overlap(a: &str, b: &str) -> bool {
    let (rule_a, rule_b) = (Rule::parse(a), Rule::parse(b));
    if rule_a.matches_every_target() || rule_b.matches_every_target() {
        return true;
    }
    let (Some(spec_a), Some(spec_b)) = (rule_a.specifier, rule_b.specifier) else {
        return true;
    };
    if bash_form(spec_a).is_none() || bash_form(spec_b).is_none() {
        return true;
    }
    bash_covers(spec_a, spec_b)
        || bash_covers(spec_b, spec_a)
        || bash_form(spec_a) == bash_form(spec_b)
}

/// A Bash specifier as a prefix (`npm run:*`) or an exact command; `None`
/// for a form whose matches are not read (a `*` elsewhere).
fn bash_form(spec: &str) -> Option<(&str, bool)> {
    match spec.strip_suffix(":*") {
        Some(prefix) if !prefix.contains('*') => Some((prefix.trim_end(), true)),
        Some(_) => None,
        None if spec.contains('*') => None,
        None => Some((spec.trim(), false)),
    }
}

fn bash_covers(wide: &str, narrow: &str) -> bool {
    let (Some((wide, wide_prefix)), Some((narrow, _))) = (bash_form(wide), bash_form(narrow))
    else {
        return false;
    };
    if !wide_prefix {
        return false;
    }
    match narrow.strip_prefix(wide) {
        Some("") => true,
        // At a word boundary only: `npm run` covers `npm run test`, not
        // `npm runner`, whichever way the host matches prefixes.
        Some(rest) => wide.is_empty() || rest.starts_with(' '),
        None => false,
    }
}

/// A path pattern without a leading `./`.
fn normalize_path(spec: &str) -> &str {
    spec.strip_prefix("./").unwrap_or(spec)
}

fn path_covers(wide: &str, narrow: &str) -> bool {
    let (wide, narrow) = (normalize_path(wide), normalize_path(narrow));
    if wide == narrow {
        return true;
    }
    // `./**`: every path relative to the working directory.
    if matches!(wide, "**" | "**/*") {
        return !narrow.starts_with(['/', '~']) && !narrow.contains("..");
    }
    let Some(dir) = wide.strip_suffix("/**") else {
        return false;
    };
    if has_glob(dir) || dir.is_empty() {
        return false;
    }
    // Anything under the directory, patterns included: `src/**` covers
    // `src/api/**` and `src/a.py`.
    narrow
        .strip_prefix(dir)
        .is_some_and(|rest| rest.starts_with('/'))
        && !narrow.contains("..")
}

fn has_glob(text: &str) -> bool {
    text.contains(['*', '?', '[', '{'])
}

#[cfg(test)]
mod tests {
    use super::{covers, may_overlap};

    #[test]
    fn bash_rules_overlap_where_one_command_may_match_both() {
        assert!(may_overlap("Bash(ls:*)", "Bash(ls -la:*)"));
        assert!(may_overlap("Bash(ls:*)", "Bash(ls)"));
        assert!(may_overlap("Bash(ls:*)", "Bash(ls -la)"));
        assert!(may_overlap("Bash(ls)", "Bash(ls)"));
        assert!(may_overlap("Bash", "Bash(rm)"));
        assert!(may_overlap("Bash(*)", "Bash(rm)"));
        // A `*` inside a rule: its matches are not read, so it may match anything.
        assert!(may_overlap("Bash(git * --force)", "Bash(npm:*)"));
        assert!(may_overlap("Bash(l*)", "Bash(rm)"));
        assert!(!may_overlap("Bash(ls:*)", "Bash(lsof)"));
        assert!(!may_overlap("Bash(ls -la:*)", "Bash(ls)"));
        assert!(!may_overlap("Bash(rm:*)", "Bash(ls:*)"));
        assert!(!may_overlap("Bash(ls)", "Bash(ls -la)"));
    }

    #[test]
    fn a_rule_covers_what_it_matches_and_no_more() {
        assert!(covers("Bash(npm run:*)", "Bash(npm run test:*)"));
        assert!(covers("Bash(npm run:*)", "Bash(npm run test)"));
        assert!(covers("Bash(npm run:*)", "Bash(npm run)"));
        assert!(!covers("Bash(npm run:*)", "Bash(npm runner:*)"));
        assert!(!covers("Bash(npm run test:*)", "Bash(npm run:*)"));
        assert!(!covers("Bash(npm run)", "Bash(npm run test)"));
        assert!(covers("Bash", "Bash(git diff:*)"));
        assert!(covers("Bash(*)", "Bash(git diff:*)"));
        assert!(!covers("Bash(git * main)", "Bash(git push main)"));
        assert!(covers("Edit(**)", "Edit(src/**)"));
        assert!(covers("Edit(src/**)", "Edit(./src/api/**)"));
        assert!(!covers("Edit(src/**)", "Edit(srcx/a.py)"));
        assert!(!covers("Edit(src/**)", "Edit(src/../a.py)"));
        assert!(covers("Read(./**)", "Read(./src/**)"));
        assert!(!covers("Read(./**)", "Read(//etc/**)"));
        assert!(!covers("Edit(**)", "Write(a)"));
        assert!(covers("WebFetch", "WebFetch(domain:a.com)"));
        assert!(!covers(
            "WebFetch(domain:a.com)",
            "WebFetch(domain:b.a.com)"
        ));
        assert!(covers("mcp__github", "mcp__github__get_issue"));
        assert!(!covers("mcp__github", "mcp__gitlab__x"));
        assert!(!covers("mcp__github__a", "mcp__github__b"));
        assert!(!covers("mcp__github__a", "mcp__github"));
    }
}
