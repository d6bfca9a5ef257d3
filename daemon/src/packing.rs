//! Bytes compressed where they are kept: LZ4 blocks with their length in
//! front, unpacked only within a bound. The store packs every value it
//! writes. Values are encoded into a reused buffer (`encode_with`): the
//! store's, and each function body's (`python::LazyBody`). A leaf: it
//! uses nothing of the crate.

/// The longest encoding a packed value may unpack to. The largest values
/// are side graphs of a few MB; a length past this bound (or past what its
/// block could expand to) is a damaged or foreign value, never an
/// allocation.
const UNPACKED_BYTES_BOUND: usize = 1 << 30;

/// An encoding compressed (LZ4 block, its length in front), appended to
/// `out` (which may hold a header of the caller's: no second buffer, no
/// copy). The facts of a 900-module scope are 31 MB encoded and about a
/// quarter of that packed, and unpacking costs ~1 ms per 10 MB.
pub fn pack_into(encoded: &[u8], out: &mut Vec<u8>) {
    let Ok(length) = u32::try_from(encoded.len()) else {
        // Past 4 GB no value is kept; an empty block never unpacks to it.
        out.extend_from_slice(&u32::MAX.to_le_bytes());
        return;
    };
    out.extend_from_slice(&length.to_le_bytes());
    let start = out.len();
    out.resize(
        start + lz4_flex::block::get_maximum_output_size(encoded.len()),
        0,
    );
    // The output holds the block's worst case, so compressing cannot fail;
    // if it ever did, the block is empty and never unpacks.
    let written = out
        .get_mut(start..)
        .and_then(|block| lz4_flex::block::compress_into(encoded, block).ok())
        .unwrap_or(0);
    out.truncate(start + written);
}

/// A value encoded (postcard) into this thread's reused buffer, handed to
/// `then`: encodings grow by doubling, and a fresh buffer for each of
/// thousands of values spent its time reallocating and copying.
pub fn encode_with<T: serde::Serialize + ?Sized, R>(
    value: &T,
    then: impl FnOnce(&[u8]) -> R,
) -> Result<R, postcard::Error> {
    /// A buffer grown past this is not kept (a side graph's encoding is
    /// a few MB; the threads that write one are few and short-lived).
    const KEPT_BYTES: usize = 1 << 20;
    thread_local! {
        static BUFFER: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
    }
    let mut buffer = BUFFER.with(std::cell::Cell::take);
    buffer.clear();
    postcard::to_extend(value, buffer).map(|buffer| {
        let result = then(&buffer);
        if buffer.capacity() <= KEPT_BYTES {
            BUFFER.with(|kept| kept.set(buffer));
        }
        result
    })
}

/// The encoding a packed value holds, or `None` when it does not unpack
/// within its stated length and the bound.
pub fn unpack(packed: &[u8]) -> Option<Vec<u8>> {
    let (length, block) = packed.split_at_checked(4)?;
    let length = u32::from_le_bytes(length.try_into().ok()?) as usize;
    // An LZ4 block expands at most ~255 times.
    if length > UNPACKED_BYTES_BOUND || length > block.len().saturating_mul(256) {
        return None;
    }
    let mut encoded = vec![0; length];
    match lz4_flex::block::decompress_into(block, &mut encoded) {
        Ok(written) if written == length => Some(encoded),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pack(encoded: &[u8]) -> Vec<u8> {
        let mut packed = Vec::new();
        pack_into(encoded, &mut packed);
        packed
    }

    #[test]
    fn a_packed_value_round_trips_and_a_lying_length_is_refused() {
        let encoded = b"name name name name name name name name".repeat(50);
        let packed = pack(&encoded);
        assert!(packed.len() < encoded.len() / 4, "{} bytes", packed.len());
        assert_eq!(unpack(&packed).as_deref(), Some(&encoded[..]));

        let mut longer = packed.clone();
        longer[..4].copy_from_slice(&(encoded.len() as u32 + 1).to_le_bytes());
        assert_eq!(unpack(&longer), None);
        let mut huge = packed.clone();
        huge[..4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(unpack(&huge), None);
        assert_eq!(unpack(&packed[..3]), None);
        assert_eq!(unpack(&packed[..packed.len() - 1]), None);
    }

    #[test]
    fn packing_after_a_header_is_the_block_format_and_encoding_reuses_nothing_stale() {
        let encoded = b"tools tools handoffs tools".repeat(40);
        assert_eq!(
            pack(&encoded),
            lz4_flex::block::compress_prepend_size(&encoded)
        );
        let mut out = b"head".to_vec();
        pack_into(&encoded, &mut out);
        assert_eq!(&out[..4], b"head");
        assert_eq!(unpack(&out[4..]).as_deref(), Some(&encoded[..]));

        let long = encode_with(&vec![7u32; 300], <[u8]>::to_vec).unwrap();
        let short = encode_with(&vec![1u32; 2], <[u8]>::to_vec).unwrap();
        assert_eq!(short, postcard::to_stdvec(&vec![1u32; 2]).unwrap());
        assert_eq!(long, postcard::to_stdvec(&vec![7u32; 300]).unwrap());
    }
}
