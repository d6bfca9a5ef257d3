//! Every failed call as a gRPC status in the standard rich error model: the
//! code, a message in the API's words (request fields, never command-line
//! flags), and a `google.rpc.ErrorInfo` detail (domain `shipgate.dev`, the
//! reason, the contract's error kind, the field and its value) that any
//! stock client reads (`grpcio-status`'s `rpc_status.from_call`,
//! `tonic_types::StatusExt`).

use crate::error::DiffError;
use shipgate_proto::errors::{
    bounded_value, ErrorKind, Reason, DOMAIN, FIELD_KEY, KIND_KEY, VALUE_KEY,
};
use shipgate_proto::MAX_FIELD_BYTES;
use std::collections::HashMap;
use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

/// A status with its `ErrorInfo`.
fn rich(
    code: Code,
    kind: ErrorKind,
    reason: Reason,
    subject: Option<(&str, Option<&str>)>,
    message: impl Into<String>,
) -> Status {
    let mut metadata = HashMap::from([(KIND_KEY.to_string(), kind.as_str().to_string())]);
    if let Some((field, value)) = subject {
        metadata.insert(FIELD_KEY.to_string(), field.to_string());
        if let Some(value) = value {
            metadata.insert(VALUE_KEY.to_string(), bounded_value(value));
        }
    }
    Status::with_error_details(
        code,
        message,
        ErrorDetails::with_error_info(reason.as_str(), DOMAIN, metadata),
    )
}

/// A comparison's or history's error: usage errors are INVALID_ARGUMENT,
/// unreadable inputs FAILED_PRECONDITION, ours INTERNAL.
pub fn from_diff_error(err: &DiffError) -> Status {
    // Work the stop cut short (`work::stop_all`): the caller may retry
    // against the next daemon.
    if crate::work::stopping() {
        return stopping();
    }
    let code = match err.kind() {
        ErrorKind::Usage => Code::InvalidArgument,
        ErrorKind::Config | ErrorKind::ObjectsMissing => Code::FailedPrecondition,
        ErrorKind::Internal => Code::Internal,
    };
    let subject = err.field().map(|field| (field, err.value()));
    rich(code, err.kind(), err.reason(), subject, err.message())
}

/// A request whose own fields are wrong before any work (empty, too long,
/// relative): INVALID_ARGUMENT about `field`, echoing `value` when given.
pub fn invalid_field(
    reason: Reason,
    field: &str,
    value: Option<&str>,
    message: impl Into<String>,
) -> Status {
    rich(
        Code::InvalidArgument,
        ErrorKind::Usage,
        reason,
        Some((field, value)),
        message,
    )
}

/// A repository that cannot be watched or unwatched.
pub fn watch_failed(message: impl Into<String>) -> Status {
    rich(
        Code::FailedPrecondition,
        ErrorKind::Config,
        Reason::WatchFailed,
        None,
        message,
    )
}

/// A TCP call without the bearer token (or with another): UNAUTHENTICATED.
pub fn bad_token() -> Status {
    rich(
        Code::Unauthenticated,
        ErrorKind::Usage,
        Reason::BadToken,
        None,
        "a valid bearer token is required (authorization: Bearer <token>)",
    )
}

/// The daemon takes no more work: it is stopping.
pub fn stopping() -> Status {
    rich(
        Code::Unavailable,
        ErrorKind::Internal,
        Reason::Stopping,
        None,
        "the daemon is stopping",
    )
}

/// A request that did not finish within the `allowed` time of its
/// deadline: DEADLINE_EXCEEDED.
pub fn deadline_exceeded(what: &str, allowed: std::time::Duration) -> Status {
    rich(
        Code::DeadlineExceeded,
        ErrorKind::Internal,
        Reason::DeadlineExceeded,
        None,
        format!(
            "{what} did not finish within its deadline of {} (the client's grpc-timeout, else the daemon's --request-timeout); its work was stopped. Ask again with a longer deadline; what was read is kept for the next request.",
            super::admission::spelled(allowed)
        ),
    )
}

/// A request that could not be decoded as its method's message (tonic's
/// own answer, rewritten by `server::malformed`): INVALID_ARGUMENT.
pub fn malformed_request(message: impl Into<String>) -> Status {
    rich(
        Code::InvalidArgument,
        ErrorKind::Usage,
        Reason::MalformedRequest,
        None,
        message,
    )
}

/// A failure of ours: INTERNAL.
pub fn internal(message: impl Into<String>) -> Status {
    rich(
        Code::Internal,
        ErrorKind::Internal,
        Reason::Internal,
        None,
        message,
    )
}

/// A blocking task that did not return: a panic in one request is that
/// request's INTERNAL error; the daemon keeps serving.
pub fn task_failed(what: &str, err: tokio::task::JoinError) -> Status {
    match err.try_into_panic() {
        Ok(panic) => panicked(what, panic.as_ref()),
        Err(err) => internal(format!("{what} did not finish: {err}")),
    }
}

pub fn panicked(what: &str, panic: &(dyn std::any::Any + Send)) -> Status {
    let detail = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_string());
    internal(format!(
        "{what} failed inside shipgate (a bug; please report it): {detail}; the daemon keeps serving"
    ))
}

/// Refuses a string field longer than any real ref, path or name, naming
/// the field but not echoing the value: a value echoed into an error
/// overflowed the HTTP/2 header limit and reached the client as a bare
/// protocol error instead of a usage error.
pub fn check_lengths(fields: &[(&str, &str)]) -> Result<(), Status> {
    match fields.iter().find(|(_, value)| value.len() > MAX_FIELD_BYTES) {
        Some((name, value)) => Err(invalid_field(
            Reason::FieldTooLong,
            name,
            None,
            format!(
                "{name} is longer than {MAX_FIELD_BYTES} bytes ({} bytes): no ref, path or name is that long",
                value.len()
            ),
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::field;

    #[test]
    fn an_over_long_field_is_refused_by_name_without_its_value() {
        let long = "a".repeat(MAX_FIELD_BYTES + 1);
        let limit = "a".repeat(MAX_FIELD_BYTES);
        assert!(check_lengths(&[("base", &limit), ("head", "")]).is_ok());
        let refused = check_lengths(&[("base", "main"), ("head", &long)]);
        let status = refused.err().unwrap_or_else(|| Status::ok(""));
        assert_eq!(status.code(), Code::InvalidArgument);
        assert!(status
            .message()
            .starts_with("head is longer than 4096 bytes"));
        assert!(!status.message().contains(&limit));
        let info = status.get_details_error_info();
        assert_eq!(
            info.as_ref().map(|info| info.reason.as_str()),
            Some("FIELD_TOO_LONG")
        );
        assert_eq!(
            info.as_ref().and_then(|info| info.metadata.get(VALUE_KEY)),
            None
        );
    }

    #[test]
    fn a_diff_error_travels_as_error_info_without_flag_wording() {
        let err = DiffError::usage(
            Reason::BadRevision,
            "Base ref 'nope' is not available locally. Fetch it first; this command never fetches.",
        )
        .about(field::BASE, "nope");
        let status = from_diff_error(&err);
        assert_eq!(status.code(), Code::InvalidArgument);
        assert!(!status.message().contains("--"), "{}", status.message());
        let info = status.get_details_error_info();
        let info = info.as_ref();
        assert_eq!(info.map(|i| i.reason.as_str()), Some("BAD_REVISION"));
        assert_eq!(info.map(|i| i.domain.as_str()), Some("shipgate.dev"));
        let meta = |key: &str| info.and_then(|i| i.metadata.get(key)).cloned();
        assert_eq!(meta(KIND_KEY).as_deref(), Some("usage"));
        assert_eq!(meta(FIELD_KEY).as_deref(), Some("base"));
        assert_eq!(meta(VALUE_KEY).as_deref(), Some("nope"));
    }
}
