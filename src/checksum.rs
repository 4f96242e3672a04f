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

/// [`Checksum::bytes`] over a stream fed in pieces of any size: the same
/// value as one call over all the bytes, without holding them.
#[derive(Clone, Copy, Debug, Default)]
pub struct StreamChecksum {
    sum: Checksum,
    pending: [u8; 8],
    pending_len: usize,
    total: u64,
}

impl StreamChecksum {
    /// Feeds `bytes`.
    pub fn update(&mut self, mut bytes: &[u8]) {
        self.total += bytes.len() as u64;
        if self.pending_len > 0 {
            let take = (8 - self.pending_len).min(bytes.len());
            self.pending[self.pending_len..self.pending_len + take].copy_from_slice(&bytes[..take]);
            self.pending_len += take;
            bytes = &bytes[take..];
            if self.pending_len < 8 {
                return;
            }
            self.sum.words(&[u64::from_le_bytes(self.pending)]);
            self.pending_len = 0;
        }
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.sum
                .words(&[u64::from_le_bytes(chunk.try_into().expect("8 bytes"))]);
        }
        let rest = chunks.remainder();
        self.pending[..rest.len()].copy_from_slice(rest);
        self.pending_len = rest.len();
    }

    /// The checksum of everything fed, as [`Checksum::bytes`] gives it.
    pub fn value(&self) -> u64 {
        let mut tail = [0u8; 8];
        tail[..self.pending_len].copy_from_slice(&self.pending[..self.pending_len]);
        let mut sum = self.sum;
        sum.words(&[u64::from_le_bytes(tail), self.total]).value()
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

    #[test]
    fn a_stream_in_pieces_sums_as_one_call() {
        let bytes: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 251) as u8).collect();
        for piece in [1, 3, 8, 13, 64, 999, 1000] {
            let mut stream = StreamChecksum::default();
            for chunk in bytes.chunks(piece) {
                stream.update(chunk);
            }
            assert_eq!(stream.value(), Checksum::default().bytes(&bytes).value());
        }
    }
}
