//! A fast, stable 64-bit checksum of tables, so that runs at different
//! thread counts (or on different machines) can be compared in one number.
//! Not cryptographic; it only has to make an accidental difference visible.

/// Word-wise FNV-1a style mixing with a final avalanche; the same words
/// always give the same value, on every platform and Rust version.
#[derive(Clone, Copy, Debug)]
pub struct Checksum(u64);

impl Default for Checksum {
    fn default() -> Self {
        Checksum(0xCBF2_9CE4_8422_2325)
    }
}

impl Checksum {
    /// Mixes in words.
    pub fn words(&mut self, words: &[u64]) -> &mut Self {
        for &w in words {
            self.0 = (self.0 ^ w)
                .wrapping_mul(0x0000_0100_0000_01B3)
                .rotate_left(29);
        }
        self
    }

    /// Mixes in bytes, eight at a time (little-endian), the tail padded
    /// with zeros and followed by the length.
    pub fn bytes(&mut self, bytes: &[u8]) -> &mut Self {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.words(&[u64::from_le_bytes(chunk.try_into().expect("8 bytes"))]);
        }
        let mut tail = [0u8; 8];
        tail[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
        self.words(&[u64::from_le_bytes(tail), bytes.len() as u64])
    }

    /// The checksum.
    pub fn value(&self) -> u64 {
        let mut z = self.0;
        z = (z ^ (z >> 33)).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        z ^ (z >> 33)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_input_equal_sum_and_a_changed_bit_shows() {
        let a = Checksum::default().words(&[1, 2, 3]).value();
        assert_eq!(a, Checksum::default().words(&[1, 2, 3]).value());
        assert_ne!(a, Checksum::default().words(&[1, 2, 2]).value());
        assert_ne!(
            Checksum::default().bytes(&[0]).value(),
            Checksum::default().bytes(&[0, 0]).value()
        );
    }
}
