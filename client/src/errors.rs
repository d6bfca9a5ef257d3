//! Reading a failed call for printing. The daemon sends the standard rich
//! error model: a status message in the API's words and an `ErrorInfo`
//! (domain `shipgate.dev`) with the reason, the contract's error kind and
//! the request field; the command-line wording (the flag, a reason's hint)
//! is made from those by `shipgate_proto::errors`. A daemon from before
//! the rich model sent the kind in a `shipgate-error-kind` trailer and the
//! command-line line as its message: still read, so a client facing an
//! older TCP daemon prints what it always did.

use shipgate_proto::errors::{ErrorKind, ErrorReport, Reason, DOMAIN, FIELD_KEY, KIND_KEY};
use tonic_types::StatusExt;

/// The trailer an older daemon named the error kind in.
const LEGACY_KIND_METADATA: &str = "shipgate-error-kind";
/// The trailer an older daemon carried the bare message in (UTF-8).
const LEGACY_MESSAGE_METADATA: &str = "shipgate-error-message-bin";

/// A failed call, ready to print.
#[derive(Debug, PartialEq, Eq)]
pub struct Failure {
    /// The contract's error kind (`usage`, `config_error`, …), empty when
    /// the daemon named none.
    pub kind: String,
    /// The human line for stderr.
    pub line: String,
    /// The message without the line's prefix (the agent-mode line's).
    pub bare: String,
}

/// What a status says, from its `ErrorInfo`, else an older daemon's
/// trailer, else its code and message alone.
pub fn read(status: &tonic::Status) -> Failure {
    if let Some(report) = report_of(status) {
        return Failure {
            kind: report.kind.as_str().to_string(),
            line: report.cli_line(),
            bare: report.cli_message(),
        };
    }
    let kind = status
        .metadata()
        .get(LEGACY_KIND_METADATA)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let bare = status
        .metadata()
        .get_bin(LEGACY_MESSAGE_METADATA)
        .and_then(|v| v.to_bytes().ok())
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_else(|| status.message().to_string());
    Failure {
        kind,
        line: status.message().to_string(),
        bare,
    }
}

/// The report of a status carrying shipgate's `ErrorInfo`.
fn report_of(status: &tonic::Status) -> Option<ErrorReport> {
    let info = status
        .get_details_error_info()
        .filter(|info| info.domain == DOMAIN)?;
    let kind = info
        .metadata
        .get(KIND_KEY)
        .and_then(|kind| ErrorKind::parse(kind))
        .unwrap_or(match status.code() {
            tonic::Code::InvalidArgument => ErrorKind::Usage,
            tonic::Code::FailedPrecondition => ErrorKind::Config,
            _ => ErrorKind::Internal,
        });
    Some(ErrorReport {
        kind,
        reason: Reason::parse(&info.reason),
        field: info.metadata.get(FIELD_KEY).cloned(),
        message: status.message().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;
    use tonic_types::ErrorDetails;

    #[test]
    fn the_flag_comes_from_the_error_info_field() {
        let metadata = HashMap::from([
            (KIND_KEY.to_string(), "usage".to_string()),
            (FIELD_KEY.to_string(), "base".to_string()),
        ]);
        let status = tonic::Status::with_error_details(
            tonic::Code::InvalidArgument,
            "Base ref 'nope' is not available locally.",
            ErrorDetails::with_error_info("BAD_REVISION", DOMAIN, metadata),
        );
        let failure = read(&status);
        assert_eq!(failure.kind, "usage");
        assert_eq!(
            failure.line,
            "Error: Invalid value for --base: Base ref 'nope' is not available locally."
        );
    }

    #[test]
    fn an_older_daemons_trailer_is_still_read() {
        let mut status = tonic::Status::failed_precondition(
            "Application comparison could not read its inputs: gone",
        );
        if let Ok(kind) = "config_error".parse() {
            status.metadata_mut().insert(LEGACY_KIND_METADATA, kind);
        }
        status.metadata_mut().insert_bin(
            LEGACY_MESSAGE_METADATA,
            tonic::metadata::MetadataValue::from_bytes(b"gone"),
        );
        assert_eq!(
            read(&status),
            Failure {
                kind: "config_error".into(),
                line: "Application comparison could not read its inputs: gone".into(),
                bare: "gone".into(),
            }
        );
    }
}
