//! The `shipgate.v1` gRPC API shared by the daemon and the client.

#![allow(clippy::all, missing_docs)]

pub mod v1 {
    tonic::include_proto!("shipgate.v1");
}

/// Metadata key naming the output contract's error kind on a failed `Diff`.
pub const ERROR_KIND_METADATA: &str = "shipgate-error-kind";

/// Binary metadata key carrying a failed `Diff`'s bare message (UTF-8).
pub const ERROR_MESSAGE_METADATA: &str = "shipgate-error-message-bin";

/// The longest string a request field may hold (refs, paths, names, in
/// bytes). Real ones are far shorter; a longer one is refused as bad input
/// on both sides, since echoing it back in an error overflows the HTTP/2
/// header limit and surfaces as a bare protocol error.
pub const MAX_FIELD_BYTES: usize = 4096;

pub mod locations;
