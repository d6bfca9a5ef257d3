//! Issue 46, item 7: a request the daemon cannot decode is the caller's
//! error. A string field that is not UTF-8, or a frame whose length prefix
//! runs past the body, is answered `INVALID_ARGUMENT` with the usual
//! `ErrorInfo` (reason `MALFORMED_REQUEST`), not `INTERNAL` without
//! details; the daemon keeps serving.

mod support;

use bytes::Bytes;
use support::Place;
use tonic::Code;
use tonic_types::StatusExt;

/// Sends one raw gRPC request body to `Diff` over the daemon's socket and
/// returns the status its response carries (headers or trailers).
async fn raw_diff(socket: &std::path::Path, body: Vec<u8>) -> tonic::Status {
    let io = tokio::net::UnixStream::connect(socket)
        .await
        .expect("connect");
    let (mut client, connection) = h2::client::handshake(io).await.expect("handshake");
    tokio::spawn(async move {
        let _ = connection.await;
    });
    let request = http::Request::builder()
        .method("POST")
        .uri("http://localhost/shipgate.v1.Shipgate/Diff")
        .header("content-type", "application/grpc")
        .header("te", "trailers")
        .body(())
        .expect("request");
    let (response, mut send) = client.send_request(request, false).expect("send");
    send.send_data(Bytes::from(body), true).expect("body");
    let response = response.await.expect("response");
    if let Some(status) = tonic::Status::from_header_map(response.headers()) {
        return status;
    }
    let mut body = response.into_body();
    while let Some(chunk) = body.data().await {
        let _ = chunk.expect("data");
    }
    let trailers = body
        .trailers()
        .await
        .expect("trailers")
        .expect("some trailers");
    tonic::Status::from_header_map(&trailers).expect("a status")
}

/// A gRPC frame: not compressed, the length, the message.
fn frame(message: &[u8], length: u32) -> Vec<u8> {
    let mut out = vec![0];
    out.extend_from_slice(&length.to_be_bytes());
    out.extend_from_slice(message);
    out
}

#[test]
fn an_undecodable_request_is_invalid_argument_with_details() {
    let place = Place::new();
    let _daemon = place.start_daemon();
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    // `workspace` (field 1, length-delimited) holding the byte 0xff.
    let not_utf8 = [0x0a, 0x01, 0xff];
    let cases = [
        ("a string field that is not UTF-8", frame(&not_utf8, 3)),
        // The prefix says 100 bytes; three follow.
        ("a length prefix past the body", frame(&not_utf8, 100)),
    ];
    for (what, body) in cases {
        let status = runtime.block_on(raw_diff(&place.socket(), body));
        assert_eq!(status.code(), Code::InvalidArgument, "{what}: {status:?}");
        let info = status
            .get_details_error_info()
            .unwrap_or_else(|| panic!("{what}: no ErrorInfo"));
        assert_eq!(info.reason, "MALFORMED_REQUEST", "{what}");
        assert_eq!(info.domain, "shipgate.dev", "{what}");
        assert_eq!(
            info.metadata.get("errorKind").map(String::as_str),
            Some("usage"),
            "{what}"
        );
    }
    // Still serving.
    let output = place.client(&["status", "--json"]);
    assert!(output.status.success());
}
