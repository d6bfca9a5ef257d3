//! A request tonic could not decode is the caller's error, not ours.
//!
//! tonic answers a request body that is not the method's message — a
//! string field that is not UTF-8, a frame whose length prefix runs past
//! the body, a compressed flag with no encoding, no message at all — with
//! `INTERNAL` and no details, before the service sees it. This wrapper
//! turns exactly those answers into `INVALID_ARGUMENT` with the usual
//! `ErrorInfo` (reason `MALFORMED_REQUEST`, kind `usage`) so a client can
//! tell its own bad request from a fault of the daemon. It looks at the
//! response's head only (such an answer is trailers-only: its status is in
//! the headers) and recognises tonic's own messages for these cases; the
//! service's own `INTERNAL` answers (a panic, a failure of ours) never say
//! them.

use http::{Request, Response};
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use tonic::body::Body;
use tonic::server::NamedService;
use tonic::{Code, Status};
use tower_service::Service;

/// The starts of the messages tonic (and its protobuf codec) give a
/// request it could not decode.
const DECODE_FAILURES: &[&str] = &[
    "failed to decode Protobuf message",
    "Unexpected EOF decoding stream",
    "Missing request message",
    "protocol error: received message with",
    "Error decompressing",
    "Message length too large",
];

/// A service whose undecodable requests are answered `INVALID_ARGUMENT`.
#[derive(Clone)]
pub struct MalformedAsInvalid<S>(pub S);

impl<S: NamedService> NamedService for MalformedAsInvalid<S> {
    const NAME: &'static str = S::NAME;
}

impl<S, B, R> Service<Request<B>> for MalformedAsInvalid<S>
where
    S: Service<Request<B>, Response = Response<R>>,
    S::Future: Send + 'static,
{
    type Response = Response<R>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Response<R>, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.0.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let answer = self.0.call(request);
        Box::pin(async move {
            let mut response = answer.await?;
            if let Some(status) = as_invalid(response.headers()) {
                let (parts, _) = status.into_http::<Body>().into_parts();
                let headers = response.headers_mut();
                for name in ["grpc-status", "grpc-message", "grpc-status-details-bin"] {
                    headers.remove(name);
                }
                for (name, value) in &parts.headers {
                    if name.as_str().starts_with("grpc-status") || name == "grpc-message" {
                        headers.insert(name.clone(), value.clone());
                    }
                }
            }
            Ok(response)
        })
    }
}

/// The status to answer instead, when the head says tonic could not
/// decode the request.
fn as_invalid(headers: &http::HeaderMap) -> Option<Status> {
    let status = Status::from_header_map(headers)?;
    let malformed = status.code() == Code::Internal
        && DECODE_FAILURES
            .iter()
            .any(|start| status.message().starts_with(start));
    malformed.then(|| {
        crate::service::status::malformed_request(format!(
            "the request could not be decoded as this method's message ({}); send the message the API defines, with every string field valid UTF-8",
            status.message()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(status: Status) -> http::HeaderMap {
        status.into_http::<Body>().into_parts().0.headers
    }

    #[test]
    fn only_a_decode_failure_becomes_invalid_argument() {
        let decoded = as_invalid(&head(Status::internal(
            "failed to decode Protobuf message: DiffRequest.workspace: invalid string value: data is not UTF-8 encoded",
        )))
        .expect("a decode failure is the caller's");
        assert_eq!(decoded.code(), Code::InvalidArgument);
        assert!(decoded.message().contains("not UTF-8 encoded"));
        assert!(as_invalid(&head(Status::internal("Unexpected EOF decoding stream."))).is_some());
        // Our own failures and other codes stay as they are.
        assert!(as_invalid(&head(Status::internal("the comparison panicked"))).is_none());
        assert!(as_invalid(&head(Status::invalid_argument("bad scope"))).is_none());
    }
}
