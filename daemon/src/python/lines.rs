//! Byte offset to 1-based line number.

use ruff_text_size::TextSize;

pub(crate) struct LineIndex {
    starts: Vec<u32>,
}

impl LineIndex {
    pub(crate) fn new(source: &str) -> Self {
        // A `char` pattern is searched with `memchr`, not byte by byte.
        let ends = source
            .match_indices('\n')
            .map(|(at, _)| u32::try_from(at + 1).unwrap_or(u32::MAX));
        LineIndex {
            starts: std::iter::once(0).chain(ends).collect(),
        }
    }

    /// The 1-based line holding `offset`.
    pub(crate) fn line(&self, offset: TextSize) -> u32 {
        let offset = offset.to_u32();
        let index = self.starts.partition_point(|start| *start <= offset);
        u32::try_from(index.max(1)).unwrap_or(u32::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_one_based() {
        let index = LineIndex::new("a\nbb\n\nc");
        assert_eq!(index.line(TextSize::new(0)), 1);
        assert_eq!(index.line(TextSize::new(1)), 1);
        assert_eq!(index.line(TextSize::new(2)), 2);
        assert_eq!(index.line(TextSize::new(5)), 3);
        assert_eq!(index.line(TextSize::new(6)), 4);
    }
}
