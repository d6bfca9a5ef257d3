//! The errors a comparison request can end in, shaped as the output contract's
//! error kinds (§1.3–1.4). Everything else a hostile repository can do to us
//! becomes a coverage gap or a limit inside the document, never an error.

use std::fmt;

/// Why a comparison could not be produced. Each maps to exit code 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiffError {
    /// A bad flag value or combination. `option` names the flag the message is
    /// about (`--base`), printed as `Invalid value for --base: …`.
    Usage {
        option: Option<&'static str>,
        message: String,
    },
    /// The inputs cannot be read as asked (`config_error`).
    Config(String),
    /// A partial clone lacks objects the diff needs (`objects_missing`).
    ObjectsMissing(String),
    /// A failure of ours (store, thread pool); reported, never hidden.
    Internal(String),
}

impl DiffError {
    pub fn usage(message: impl Into<String>) -> Self {
        DiffError::Usage {
            option: None,
            message: message.into(),
        }
    }

    pub fn usage_for(option: &'static str, message: impl Into<String>) -> Self {
        DiffError::Usage {
            option: Some(option),
            message: message.into(),
        }
    }

    /// The contract's error kind, as carried in gRPC metadata.
    pub fn kind(&self) -> &'static str {
        match self {
            DiffError::Usage { .. } => "usage",
            DiffError::Config(_) => "config_error",
            DiffError::ObjectsMissing(_) => "objects_missing",
            DiffError::Internal(_) => "internal",
        }
    }

    /// The message alone, without the human line's prefix (the agent-mode
    /// JSON line carries this).
    pub fn message(&self) -> &str {
        match self {
            DiffError::Usage { message, .. }
            | DiffError::Config(message)
            | DiffError::ObjectsMissing(message)
            | DiffError::Internal(message) => message,
        }
    }

    /// The one human line a CLI prints on stderr.
    pub fn human_line(&self) -> String {
        match self {
            DiffError::Usage {
                option: Some(option),
                message,
            } => format!("Error: Invalid value for {option}: {message}"),
            DiffError::Usage {
                option: None,
                message,
            } => format!("Error: Invalid value: {message}"),
            DiffError::Config(message) => {
                if message.starts_with("This checkout is shallow") {
                    message.clone()
                } else {
                    format!("Application comparison could not read its inputs: {message}")
                }
            }
            DiffError::ObjectsMissing(message) => message.clone(),
            DiffError::Internal(message) => format!("shipgate internal error: {message}"),
        }
    }
}

impl fmt::Display for DiffError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.human_line())
    }
}

impl std::error::Error for DiffError {}
