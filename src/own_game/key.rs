//! Positions as fixed-width, ordered keys: what the engine stores (sorted,
//! so a key's rank is its state index) and what a table file holds.

use std::fmt::Debug;
use std::hash::Hash;

/// A position packed into a fixed number of bytes whose order is the
/// order of the bytes read big-endian. Implemented for `u32`, `u64` and
/// `u128`.
pub trait Key: Copy + Ord + Hash + Send + Sync + Debug + 'static {
    /// Bytes of a key in a table file.
    const BYTES: usize;
    /// Writes the key big-endian into `out` (exactly [`Self::BYTES`] long).
    fn write(&self, out: &mut [u8]);
    /// Reads a key written by [`Key::write`].
    fn read(bytes: &[u8]) -> Self;
    /// The key in hexadecimal, as many digits as it has bytes × 2.
    fn to_hex(&self) -> String {
        let mut bytes = vec![0u8; Self::BYTES];
        self.write(&mut bytes);
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }
    /// Parses [`Key::to_hex`]'s text; `None` if it is not one.
    fn from_hex(text: &str) -> Option<Self> {
        if text.len() != 2 * Self::BYTES || !text.is_ascii() {
            return None;
        }
        let bytes: Option<Vec<u8>> = (0..Self::BYTES)
            .map(|i| u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok())
            .collect();
        Some(Self::read(&bytes?))
    }
}

macro_rules! unsigned_key {
    ($t:ty) => {
        impl Key for $t {
            const BYTES: usize = std::mem::size_of::<$t>();
            fn write(&self, out: &mut [u8]) {
                out.copy_from_slice(&self.to_be_bytes());
            }
            fn read(bytes: &[u8]) -> Self {
                let mut raw = [0u8; std::mem::size_of::<$t>()];
                raw.copy_from_slice(bytes);
                <$t>::from_be_bytes(raw)
            }
        }
    };
}

unsigned_key!(u32);
unsigned_key!(u64);
unsigned_key!(u128);

#[cfg(test)]
mod tests {
    use super::Key;

    #[test]
    fn keys_round_trip_through_bytes_and_hex_in_order() {
        for k in [0u64, 1, 0xdead_beef, u64::MAX] {
            assert_eq!(u64::from_hex(&k.to_hex()), Some(k));
        }
        let wide = (7u128 << 100) | 5;
        assert_eq!(u128::from_hex(&wide.to_hex()), Some(wide));
        assert_eq!(u64::from_hex("zz"), None);
        // the bytes' order is the keys' order
        let (mut low, mut high) = ([0u8; 4], [0u8; 4]);
        3u32.write(&mut low);
        256u32.write(&mut high);
        assert!(low < high);
    }
}
