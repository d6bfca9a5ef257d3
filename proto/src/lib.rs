//! The `shipgate.v1` gRPC API shared by the daemon and the client.

#![allow(clippy::all, missing_docs)]

pub mod v1 {
    tonic::include_proto!("shipgate.v1");
}

/// Metadata key naming the output contract's error kind on a failed `Diff`.
pub const ERROR_KIND_METADATA: &str = "shipgate-error-kind";

/// Binary metadata key carrying a failed `Diff`'s bare message (UTF-8).
pub const ERROR_MESSAGE_METADATA: &str = "shipgate-error-message-bin";

pub mod locations;
