//! Bytes compressed where they are kept: LZ4 blocks with their length in
//! front, unpacked only within a bound. The store packs every value it
//! writes; a function body's facts are packed while they wait to be read
//! (`python::LazyBody`). A leaf: it uses nothing of the crate.

/// The longest encoding a packed value may unpack to. The largest values
/// are side graphs of a few MB; a length past this bound (or past what its
/// block could expand to) is a damaged or foreign value, never an
/// allocation.
const UNPACKED_BYTES_BOUND: usize = 1 << 30;

/// An encoding compressed (LZ4 block, its length in front). The facts of
/// a 900-module scope are 31 MB encoded and about a quarter of that
/// packed, and unpacking costs ~1 ms per 10 MB.
pub fn pack(encoded: &[u8]) -> Vec<u8> {
    lz4_flex::block::compress_prepend_size(encoded)
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
}
