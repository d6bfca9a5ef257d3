//! Which rendering of the document an answer carries, and the one place
//! that picks the renderer for it. Every format renders the same finished
//! document, so none can state what the JSON does not.

use serde_json::Value;

/// The renderings a `diff` can be asked for (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum OutputFormat {
    /// The reviewer text (contract §4, findings first at schema 0.4).
    #[default]
    Text,
    /// The JSON document alone (`--json`); the answer always carries it.
    Json,
    /// A pull-request comment (`markdown.rs`).
    Markdown,
    /// SARIF 2.1.0 for code-scanning uploads (`sarif.rs`).
    Sarif,
    /// GitHub Actions workflow commands (`github.rs`).
    Github,
}

impl OutputFormat {
    /// Every format, in the order `--help` lists them.
    pub const ALL: [OutputFormat; 5] = [
        OutputFormat::Text,
        OutputFormat::Json,
        OutputFormat::Markdown,
        OutputFormat::Sarif,
        OutputFormat::Github,
    ];

    /// The name `--format` takes.
    pub fn name(self) -> &'static str {
        match self {
            OutputFormat::Text => "text",
            OutputFormat::Json => "json",
            OutputFormat::Markdown => "markdown",
            OutputFormat::Sarif => "sarif",
            OutputFormat::Github => "github",
        }
    }

    /// The format `--format NAME` names.
    pub fn from_name(name: &str) -> Option<OutputFormat> {
        Self::ALL.into_iter().find(|format| format.name() == name)
    }

    /// The format a request carries on the wire.
    pub fn from_wire(format: shipgate_proto::v1::OutputFormat) -> OutputFormat {
        use shipgate_proto::v1::OutputFormat as Wire;
        match format {
            Wire::Text => OutputFormat::Text,
            Wire::Json => OutputFormat::Json,
            Wire::Markdown => OutputFormat::Markdown,
            Wire::Sarif => OutputFormat::Sarif,
            Wire::Github => OutputFormat::Github,
        }
    }

    /// A stable byte for cache keys (the answers kept in memory).
    pub fn key_byte(self) -> u8 {
        match self {
            OutputFormat::Text => 0,
            OutputFormat::Json => 1,
            OutputFormat::Markdown => 2,
            OutputFormat::Sarif => 3,
            OutputFormat::Github => 4,
        }
    }
}

/// The document rendered as `format` asks, or `None` for JSON: the JSON
/// document travels beside every rendering anyway (`DiffOutcome::json`).
/// `doc` is the finished, sanitised document.
pub fn render(doc: &Value, format: OutputFormat) -> Option<String> {
    match format {
        OutputFormat::Json => None,
        OutputFormat::Text => Some(super::text::render_text(doc)),
        OutputFormat::Markdown => Some(super::markdown::render_markdown(doc)),
        OutputFormat::Sarif => Some(super::sarif::render_sarif(doc)),
        OutputFormat::Github => Some(super::github::render_annotations(doc)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_is_named_once_and_read_back() {
        for format in OutputFormat::ALL {
            assert_eq!(OutputFormat::from_name(format.name()), Some(format));
        }
        let mut bytes: Vec<u8> = OutputFormat::ALL.iter().map(|f| f.key_byte()).collect();
        bytes.dedup();
        assert_eq!(bytes.len(), OutputFormat::ALL.len());
        assert_eq!(OutputFormat::from_name("yaml"), None);
    }
}
