//! The bearer token a TCP daemon asks of every `shipgate.v1` call. Health
//! and reflection are not behind it (they say nothing about a repository,
//! and a load balancer or `grpcurl` asks them first); `server.rs` adds
//! those services without this check.

use sha2::{Digest, Sha256};
use std::path::Path;
use subtle::ConstantTimeEq;
use tonic::{Request, Status};

/// The expected token, kept as its SHA-256 digest: comparing digests of
/// equal length in constant time tells a caller nothing of the token's
/// content or length (a byte-wise compare stops at the first difference
/// or at a length mismatch).
#[derive(Clone)]
pub struct BearerToken {
    digest: [u8; 32],
}

impl BearerToken {
    /// Reads the token file (trimmed; at least 16 characters).
    pub fn read(file: &Path) -> Result<Self, String> {
        let token = std::fs::read_to_string(file)
            .map_err(|err| format!("cannot read the token file {}: {err}", file.display()))?;
        let token = token.trim();
        if token.len() < 16 {
            return Err(format!(
                "the token in {} is shorter than 16 characters",
                file.display()
            ));
        }
        Ok(Self::new(token))
    }

    fn new(token: &str) -> Self {
        BearerToken {
            digest: Sha256::digest(token.as_bytes()).into(),
        }
    }

    /// Whether `given` is the token, in time independent of both.
    fn matches(&self, given: &[u8]) -> bool {
        let given: [u8; 32] = Sha256::digest(given).into();
        given.ct_eq(&self.digest).into()
    }
}

/// The interceptor of the `shipgate.v1` service: with a token (TCP), a
/// request passes only with `authorization: Bearer <token>`; without one
/// (the Unix socket, private to its user), every request passes.
pub fn check(expected: Option<&BearerToken>, request: Request<()>) -> Result<Request<()>, Status> {
    let Some(expected) = expected else {
        return Ok(request);
    };
    let given = request
        .metadata()
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or("");
    if expected.matches(given.as_bytes()) {
        Ok(request)
    } else {
        Err(crate::service::status::bad_token())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_header(value: &str) -> Request<()> {
        let mut request = Request::new(());
        if let Ok(value) = value.parse() {
            request.metadata_mut().insert("authorization", value);
        }
        request
    }

    #[test]
    fn only_the_exact_token_passes() {
        let token = BearerToken::new("0123456789abcdef");
        assert!(check(Some(&token), with_header("Bearer 0123456789abcdef")).is_ok());
        for wrong in [
            "Bearer 0123456789abcdeF",
            "Bearer 0123456789abcde",
            "Bearer 0123456789abcdef0",
            "0123456789abcdef",
            "",
        ] {
            let refused = check(Some(&token), with_header(wrong));
            assert_eq!(
                refused.err().map(|status| status.code()),
                Some(tonic::Code::Unauthenticated),
                "{wrong:?}"
            );
        }
        assert!(check(None, Request::new(())).is_ok());
    }
}
