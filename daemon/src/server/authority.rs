//! Any `:authority` over the Unix socket.
//!
//! Stock gRPC clients name a Unix socket's path as the request's
//! `:authority` (grpcio sends `tmp%2Fshipgate%2Fd.sock`, grpc-java the bare
//! path). The HTTP/2 layer under tonic (`h2`) parses every `:authority` as a
//! URI authority and resets the stream with PROTOCOL_ERROR when it does not
//! parse, before tonic or our service sees the request: such a client got
//! `RST_STREAM` on every call until it overrode its authority. On a Unix
//! socket the authority names nothing (the socket is the address), so each
//! connection's request headers pass through [`AuthorityTolerant`], which
//! replaces an `:authority` `h2` would refuse with `localhost` and leaves
//! every other byte as the client sent it. TCP connections are not touched.
//!
//! The rewrite decodes each request header block (HPACK keeps state across
//! a connection, so every block is decoded, in order) and encodes it again
//! as literals that never enter `h2`'s dynamic table, so the two tables
//! never disagree. Server-to-client bytes are not read.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The HTTP/2 connection preface a prior-knowledge client opens with.
const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
const FRAME_HEADER: usize = 9;
const HEADERS: u8 = 0x1;
const CONTINUATION: u8 = 0x9;
const END_STREAM: u8 = 0x1;
const END_HEADERS: u8 = 0x4;
const PADDED: u8 = 0x8;
const PRIORITY: u8 = 0x20;
/// The largest frame every HTTP/2 peer accepts (`SETTINGS_MAX_FRAME_SIZE`'s
/// initial value, which tonic's server keeps): re-encoded blocks are cut
/// into frames of at most this.
const MAX_OUT_FRAME: usize = 16_384;
/// The largest frame read: the protocol's own bound (2^24 - 1).
const MAX_IN_FRAME: usize = (1 << 24) - 1;
/// A header block, as sent or decoded, past which the connection is closed:
/// four times what `h2` accepts (16 KiB of decoded headers), so nothing
/// `h2` would answer is refused here, and an HPACK bomb (one-byte indices
/// to a 4 KiB table entry) is stopped before it costs memory.
const MAX_BLOCK: usize = 64 * 1024;
/// The HPACK dynamic table size the server allows (the protocol's default:
/// `h2` advertises no other).
const HPACK_TABLE: usize = 4096;
/// What replaces an `:authority` that `h2` would refuse.
const LOCAL_AUTHORITY: &[u8] = b"localhost";

/// A server-side connection whose request headers have their `:authority`
/// made acceptable to `h2`; reads and writes otherwise go straight through.
pub struct AuthorityTolerant<S> {
    inner: S,
    rewriter: HeaderRewriter,
    /// Bytes read from the client, not yet a whole frame.
    unread: Vec<u8>,
    /// Bytes ready for `h2`, from `handed` on.
    ready: Vec<u8>,
    handed: usize,
    client_closed: bool,
}

impl<S> AuthorityTolerant<S> {
    pub fn new(inner: S) -> Self {
        AuthorityTolerant {
            inner,
            rewriter: HeaderRewriter::new(),
            unread: Vec::new(),
            ready: Vec::new(),
            handed: 0,
            client_closed: false,
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for AuthorityTolerant<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        loop {
            if this.handed < this.ready.len() {
                let n = buf.remaining().min(this.ready.len() - this.handed);
                buf.put_slice(&this.ready[this.handed..this.handed + n]);
                this.handed += n;
                if this.handed == this.ready.len() {
                    this.ready.clear();
                    this.handed = 0;
                }
                return Poll::Ready(Ok(()));
            }
            if this.client_closed {
                return Poll::Ready(Ok(()));
            }
            let mut chunk = [0u8; 8192];
            let mut chunk_buf = ReadBuf::new(&mut chunk);
            match Pin::new(&mut this.inner).poll_read(cx, &mut chunk_buf) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Err(err)) => return Poll::Ready(Err(err)),
                Poll::Ready(Ok(())) if chunk_buf.filled().is_empty() => {
                    // A truncated frame goes on as it is: `h2` reports it.
                    this.client_closed = true;
                    this.ready.append(&mut this.unread);
                }
                Poll::Ready(Ok(())) => {
                    this.unread.extend_from_slice(chunk_buf.filled());
                    this.rewriter
                        .take_frames(&mut this.unread, &mut this.ready)
                        .map_err(|refusal| io::Error::new(io::ErrorKind::InvalidData, refusal))?;
                }
            }
        }
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for AuthorityTolerant<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

impl<S: tonic::transport::server::Connected> tonic::transport::server::Connected
    for AuthorityTolerant<S>
{
    type ConnectInfo = S::ConnectInfo;

    fn connect_info(&self) -> Self::ConnectInfo {
        self.inner.connect_info()
    }
}

/// A header block's fields, name and value, in the order sent.
type Fields = Vec<(Vec<u8>, Vec<u8>)>;

/// A header block whose HEADERS frame came without END_HEADERS: the
/// CONTINUATION frames that follow complete it.
struct OpenBlock {
    stream: u32,
    end_stream: bool,
    priority: Option<[u8; 5]>,
    block: Vec<u8>,
}

/// The client-to-server frame stream, frame by frame: request header
/// blocks re-encoded with an acceptable `:authority`, every other frame
/// (DATA, SETTINGS, PING, ...) copied as it came.
struct HeaderRewriter {
    preface_seen: bool,
    /// Not HTTP/2 with prior knowledge: bytes pass untouched (`h2` refuses).
    untouched: bool,
    decoder: loona_hpack::Decoder<'static>,
    open: Option<OpenBlock>,
}

impl HeaderRewriter {
    fn new() -> Self {
        let mut decoder = loona_hpack::Decoder::new();
        decoder.set_max_allowed_table_size(HPACK_TABLE);
        HeaderRewriter {
            preface_seen: false,
            untouched: false,
            decoder,
            open: None,
        }
    }

    /// Moves every whole frame at the front of `unread` to `out`.
    fn take_frames(&mut self, unread: &mut Vec<u8>, out: &mut Vec<u8>) -> Result<(), String> {
        if self.untouched {
            out.append(unread);
            return Ok(());
        }
        let mut at = 0;
        if !self.preface_seen {
            let seen = unread.len().min(PREFACE.len());
            if unread[..seen] != PREFACE[..seen] {
                self.untouched = true;
                out.append(unread);
                return Ok(());
            }
            if seen < PREFACE.len() {
                return Ok(());
            }
            out.extend_from_slice(PREFACE);
            self.preface_seen = true;
            at = PREFACE.len();
        }
        while let Some(header) = unread.get(at..at + FRAME_HEADER) {
            let length = (usize::from(header[0]) << 16)
                | (usize::from(header[1]) << 8)
                | usize::from(header[2]);
            if length > MAX_IN_FRAME {
                return Err(format!("an HTTP/2 frame of {length} bytes"));
            }
            let Some(frame) = unread.get(at..at + FRAME_HEADER + length) else {
                break;
            };
            self.frame(frame, out)?;
            at += FRAME_HEADER + length;
        }
        unread.drain(..at);
        Ok(())
    }

    fn frame(&mut self, frame: &[u8], out: &mut Vec<u8>) -> Result<(), String> {
        let (kind, flags) = (frame[3], frame[4]);
        let stream = u32::from_be_bytes([frame[5], frame[6], frame[7], frame[8]]) & 0x7fff_ffff;
        let payload = &frame[FRAME_HEADER..];
        if let Some(open) = &mut self.open {
            if kind != CONTINUATION || stream != open.stream {
                return Err("a header block interrupted by another frame".into());
            }
            open.block.extend_from_slice(payload);
            if open.block.len() > MAX_BLOCK {
                return Err(format!("a header block over {MAX_BLOCK} bytes"));
            }
            if flags & END_HEADERS != 0 {
                let done = self.open.take();
                if let Some(done) = done {
                    self.finish(done, out)?;
                }
            }
            return Ok(());
        }
        if kind != HEADERS {
            out.extend_from_slice(frame);
            return Ok(());
        }
        let mut fragment = payload;
        if flags & PADDED != 0 {
            let (&pad, rest) = fragment
                .split_first()
                .ok_or("a padded HEADERS frame without its pad length")?;
            fragment = rest
                .get(..rest.len().saturating_sub(usize::from(pad)))
                .filter(|_| usize::from(pad) <= rest.len())
                .ok_or("a HEADERS frame padded past its end")?;
        }
        let mut priority = None;
        if flags & PRIORITY != 0 {
            let (fields, rest) = fragment
                .split_first_chunk::<5>()
                .ok_or("a HEADERS frame too short for its priority")?;
            priority = Some(*fields);
            fragment = rest;
        }
        let open = OpenBlock {
            stream,
            end_stream: flags & END_STREAM != 0,
            priority,
            block: fragment.to_vec(),
        };
        if flags & END_HEADERS != 0 {
            self.finish(open, out)
        } else {
            self.open = Some(open);
            Ok(())
        }
    }

    /// Decodes a whole header block, mends its `:authority`, and writes it
    /// as HEADERS (and CONTINUATION) frames of literal fields.
    fn finish(&mut self, open: OpenBlock, out: &mut Vec<u8>) -> Result<(), String> {
        let fields = self.decode(&open.block)?;
        let mut block = Vec::with_capacity(open.block.len() * 2);
        for (name, value) in &fields {
            let value = if name == b":authority" && !acceptable_authority(value) {
                LOCAL_AUTHORITY
            } else {
                value.as_slice()
            };
            encode_never_indexed(name, value, &mut block);
        }
        let mut rest = block.as_slice();
        let mut first = true;
        loop {
            let room = if first && open.priority.is_some() {
                MAX_OUT_FRAME - 5
            } else {
                MAX_OUT_FRAME
            };
            let (chunk, after) = rest.split_at(rest.len().min(room));
            let last = after.is_empty();
            let mut flags = if last { END_HEADERS } else { 0 };
            let mut payload_len = chunk.len();
            let kind = if first {
                if open.end_stream {
                    flags |= END_STREAM;
                }
                if open.priority.is_some() {
                    flags |= PRIORITY;
                    payload_len += 5;
                }
                HEADERS
            } else {
                CONTINUATION
            };
            let length = u32::try_from(payload_len).map_err(|_| "a frame too long")?;
            out.extend_from_slice(&length.to_be_bytes()[1..]);
            out.push(kind);
            out.push(flags);
            out.extend_from_slice(&open.stream.to_be_bytes());
            if let (true, Some(priority)) = (first, open.priority) {
                out.extend_from_slice(&priority);
            }
            out.extend_from_slice(chunk);
            if last {
                return Ok(());
            }
            rest = after;
            first = false;
        }
    }

    /// The block's fields, in order. The decoder is third-party code fed by
    /// the client: a panic in it closes this connection, never the daemon.
    fn decode(&mut self, block: &[u8]) -> Result<Fields, String> {
        let decoder = &mut self.decoder;
        let decoded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut fields = Vec::new();
            let mut size = 0usize;
            let result = decoder.decode_with_cb(block, |name, value| {
                // RFC 7541's size of a field: its octets plus 32.
                size += name.len() + value.len() + 32;
                if size <= MAX_BLOCK {
                    fields.push((name.into_owned(), value.into_owned()));
                }
            });
            (result, fields, size)
        }));
        match decoded {
            Ok((Ok(()), fields, size)) if size <= MAX_BLOCK => Ok(fields),
            Ok((Ok(()), _, size)) => Err(format!(
                "request headers of {size} bytes (more than {MAX_BLOCK})"
            )),
            Ok((Err(err), _, _)) => Err(format!("a header block that does not decode: {err}")),
            Err(_) => Err("a header block the HPACK decoder could not read".into()),
        }
    }
}

/// Whether `h2` takes this `:authority` as it is.
fn acceptable_authority(value: &[u8]) -> bool {
    http::uri::Authority::try_from(value).is_ok()
}

/// A "literal header field never indexed — new name" (RFC 7541 §6.2.3),
/// strings without Huffman coding: nothing enters either dynamic table,
/// and a field the client marked sensitive stays so.
fn encode_never_indexed(name: &[u8], value: &[u8], out: &mut Vec<u8>) {
    out.push(0x10);
    encode_string(name, out);
    encode_string(value, out);
}

fn encode_string(text: &[u8], out: &mut Vec<u8>) {
    encode_integer(text.len(), 7, 0x00, out);
    out.extend_from_slice(text);
}

/// RFC 7541 §5.1: `value` with an N-bit prefix, the first octet's high bits
/// set to `flags`.
fn encode_integer(value: usize, prefix_bits: u8, flags: u8, out: &mut Vec<u8>) {
    let max_prefix = (1usize << prefix_bits) - 1;
    if value < max_prefix {
        // Fits the prefix: the cast keeps every bit (value < 2^prefix_bits).
        out.push(flags | value as u8);
        return;
    }
    out.push(flags | max_prefix as u8);
    let mut rest = value - max_prefix;
    while rest >= 128 {
        out.push((rest % 128) as u8 | 0x80);
        rest /= 128;
    }
    out.push(rest as u8);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A client-side HEADERS frame of `block` on stream 1.
    fn headers_frame(block: &[u8], flags: u8) -> Vec<u8> {
        let mut frame = Vec::new();
        let length = u32::try_from(block.len()).unwrap_or(u32::MAX);
        frame.extend_from_slice(&length.to_be_bytes()[1..]);
        frame.push(HEADERS);
        frame.push(flags);
        frame.extend_from_slice(&1u32.to_be_bytes());
        frame.extend_from_slice(block);
        frame
    }

    /// The fields of the header blocks in `bytes` (after the preface), as
    /// `h2` would read them: a fresh decoder, since the rewrite never
    /// touches the dynamic table.
    fn fields_of(bytes: &[u8]) -> Vec<(String, String)> {
        let mut decoder = loona_hpack::Decoder::new();
        let mut fields = Vec::new();
        let mut at = PREFACE.len();
        while at + FRAME_HEADER <= bytes.len() {
            let length = (usize::from(bytes[at]) << 16)
                | (usize::from(bytes[at + 1]) << 8)
                | usize::from(bytes[at + 2]);
            let payload = &bytes[at + FRAME_HEADER..at + FRAME_HEADER + length];
            if bytes[at + 3] == HEADERS {
                let decoded = decoder.decode(payload).unwrap_or_default();
                fields.extend(decoded.into_iter().map(|(n, v)| {
                    (
                        String::from_utf8_lossy(&n).into_owned(),
                        String::from_utf8_lossy(&v).into_owned(),
                    )
                }));
            }
            at += FRAME_HEADER + length;
        }
        fields
    }

    fn client_block(authority: &str, with_indexing: bool) -> Vec<u8> {
        let mut block = vec![0x83, 0x86]; // :method POST, :scheme http
                                          // :path as a literal with the static name :path (index 4).
        block.push(0x04);
        encode_string(b"/shipgate.v1.Shipgate/Status", &mut block);
        // :authority with the static name :authority (index 1).
        block.push(if with_indexing { 0x41 } else { 0x01 });
        encode_string(authority.as_bytes(), &mut block);
        block
    }

    #[test]
    fn a_socket_path_authority_becomes_localhost_and_the_rest_stays() {
        let mut rewriter = HeaderRewriter::new();
        let mut input = PREFACE.to_vec();
        input.extend(headers_frame(
            &client_block("tmp%2Fshipgate%2Fd.sock", true),
            END_HEADERS,
        ));
        // The second request names the same authority by its dynamic
        // table index (62): still rewritten, so the tables agree.
        input.extend(headers_frame(&[0x83, 0x86, 0xbe], END_HEADERS | END_STREAM));
        let mut out = Vec::new();
        assert_eq!(rewriter.take_frames(&mut input, &mut out), Ok(()));
        assert!(input.is_empty());
        let fields = fields_of(&out);
        let authorities: Vec<&str> = fields
            .iter()
            .filter(|(name, _)| name == ":authority")
            .map(|(_, value)| value.as_str())
            .collect();
        assert_eq!(authorities, ["localhost", "localhost"]);
        assert!(fields
            .iter()
            .any(|(n, v)| n == ":path" && v == "/shipgate.v1.Shipgate/Status"));
    }

    #[test]
    fn a_valid_authority_and_other_frames_pass_as_they_came() {
        let mut rewriter = HeaderRewriter::new();
        let mut input = PREFACE.to_vec();
        input.extend(headers_frame(
            &client_block("localhost:50051", false),
            END_HEADERS,
        ));
        // A PING frame goes through byte for byte.
        let ping = [0, 0, 8, 0x6, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8];
        input.extend_from_slice(&ping);
        let mut out = Vec::new();
        assert_eq!(rewriter.take_frames(&mut input, &mut out), Ok(()));
        assert!(out.ends_with(&ping));
        assert!(fields_of(&out)
            .iter()
            .any(|(n, v)| n == ":authority" && v == "localhost:50051"));
    }

    #[test]
    fn frames_split_across_reads_are_waited_for() {
        let mut rewriter = HeaderRewriter::new();
        let mut whole = PREFACE.to_vec();
        whole.extend(headers_frame(
            &client_block("/tmp/d.sock", true),
            END_HEADERS,
        ));
        let mut out = Vec::new();
        let mut unread = Vec::new();
        for byte in &whole {
            unread.push(*byte);
            assert_eq!(rewriter.take_frames(&mut unread, &mut out), Ok(()));
        }
        assert!(unread.is_empty());
        assert!(fields_of(&out)
            .iter()
            .any(|(n, v)| n == ":authority" && v == "localhost"));
    }

    #[test]
    fn a_hostile_block_closes_the_connection_instead_of_growing() {
        let mut rewriter = HeaderRewriter::new();
        let mut input = PREFACE.to_vec();
        // One 4 KB field in the table, then thousands of one-byte indices
        // to it: 16 KB sent, 64 MB decoded.
        let mut block = vec![0x40];
        encode_string(b"x-big", &mut block);
        encode_string(&vec![b'a'; 4000], &mut block);
        block.extend(std::iter::repeat_n(0xbe, 12_000));
        input.extend(headers_frame(&block, END_HEADERS));
        let mut out = Vec::new();
        assert!(rewriter.take_frames(&mut input, &mut out).is_err());
    }

    #[test]
    fn integers_follow_rfc_7541() {
        // C.1.2: 1337 with a 5-bit prefix.
        let mut out = Vec::new();
        encode_integer(1337, 5, 0, &mut out);
        assert_eq!(out, [0x1f, 0x9a, 0x0a]);
        let mut out = Vec::new();
        encode_integer(10, 5, 0, &mut out);
        assert_eq!(out, [0x0a]);
    }
}
