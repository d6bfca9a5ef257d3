//! The errors a comparison request can end in, shaped as the output contract's
//! error kinds (§1.3–1.4). Everything else a hostile repository can do to us
//! becomes a coverage gap or a limit inside the document, never an error.
//!
//! Each error carries its reason and, when it is about one request field,
//! that field and its value: the gRPC service sends them as an `ErrorInfo`
//! (`service/status.rs`), and the command-line line is made from them by
//! `shipgate_proto::errors`, so the message itself never names a flag.

use shipgate_proto::errors::ErrorReport;
pub use shipgate_proto::errors::{field, ErrorKind, Reason};
use std::fmt;

/// Why a comparison could not be produced. Each kind but `Internal` maps to
/// exit code 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffError {
    kind: ErrorKind,
    reason: Reason,
    /// The request field the error is about (`shipgate.proto`'s name).
    field: Option<&'static str>,
    /// What that field held, when echoing it helps.
    value: Option<String>,
    /// What went wrong and what to do, in the API's words (no flags).
    message: String,
}

impl DiffError {
    fn new(kind: ErrorKind, reason: Reason, message: impl Into<String>) -> Self {
        DiffError {
            kind,
            reason,
            field: None,
            value: None,
            message: message.into(),
        }
    }

    /// A bad value or combination of values.
    pub fn usage(reason: Reason, message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Usage, reason, message)
    }

    /// The inputs cannot be read as asked (`config_error`).
    pub fn config(reason: Reason, message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Config, reason, message)
    }

    /// A partial clone lacks objects the diff needs (`objects_missing`).
    pub fn objects_missing(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::ObjectsMissing, Reason::ObjectsMissing, message)
    }

    /// A failure of ours (store, thread pool); reported, never hidden.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Internal, Reason::Internal, message)
    }

    /// The request field the error is about, and the value it held.
    pub fn about(mut self, field: &'static str, value: impl Into<String>) -> Self {
        self.field = Some(field);
        self.value = Some(value.into());
        self
    }

    /// The request field the error is about, when its value says nothing.
    pub fn about_field(mut self, field: &'static str) -> Self {
        self.field = Some(field);
        self
    }

    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    pub fn reason(&self) -> Reason {
        self.reason
    }

    pub fn field(&self) -> Option<&'static str> {
        self.field
    }

    pub fn value(&self) -> Option<&str> {
        self.value.as_deref()
    }

    /// The message alone, as the gRPC status carries it.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The error as a command line reads it.
    pub fn report(&self) -> ErrorReport {
        ErrorReport {
            kind: self.kind,
            reason: Some(self.reason),
            field: self.field.map(str::to_string),
            message: self.message.clone(),
        }
    }

    /// The one human line a CLI prints on stderr, with the flags named.
    pub fn human_line(&self) -> String {
        self.report().cli_line()
    }
}

impl fmt::Display for DiffError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.human_line())
    }
}

impl std::error::Error for DiffError {}
