//! Key words: a ply's keys are held as `u32` when every key of the board
//! fits 32 bits (`cols · (rows + 1) ≤ 32`: 6×4, 5×5, 4×7, 8×3 …), else as
//! `u64`. Half the bytes halve the memory traffic of generating, sorting
//! and looking up children; the engine is generic over the word and runs
//! one or the other for a whole board.

/// A ply's sorted keys, in the word the board's keys fit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlyKeys {
    /// Keys of boards of at most 32 key bits.
    Narrow(Vec<u32>),
    /// Keys of wider boards.
    Wide(Vec<u64>),
}

impl PlyKeys {
    /// Keys held.
    pub fn len(&self) -> usize {
        match self {
            PlyKeys::Narrow(k) => k.len(),
            PlyKeys::Wide(k) => k.len(),
        }
    }

    /// Whether no key is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `i`-th key. Contract: `i < len()`.
    #[inline]
    pub fn get(&self, i: usize) -> u64 {
        match self {
            PlyKeys::Narrow(k) => u64::from(k[i]),
            PlyKeys::Wide(k) => k[i],
        }
    }

    /// Where `key` is, if held (binary search).
    pub fn position(&self, key: u64) -> Option<usize> {
        match self {
            PlyKeys::Narrow(k) => k.binary_search(&u32::try_from(key).ok()?).ok(),
            PlyKeys::Wide(k) => k.binary_search(&key).ok(),
        }
    }

    /// Every key, in order.
    pub fn iter(&self) -> Box<dyn Iterator<Item = u64> + '_> {
        match self {
            PlyKeys::Narrow(k) => Box::new(k.iter().map(|&k| u64::from(k))),
            PlyKeys::Wide(k) => Box::new(k.iter().copied()),
        }
    }

    /// Bytes a key takes.
    pub fn word_bytes(&self) -> u64 {
        match self {
            PlyKeys::Narrow(_) => 4,
            PlyKeys::Wide(_) => 8,
        }
    }
}

/// The word a ply's keys are held in.
pub trait KeyWord:
    Copy + Ord + Default + Send + Sync + std::fmt::Debug + bytemuck::Pod + 'static
{
    /// The word of a key. Contract: `key < 2^BITS`.
    fn from_key(key: u64) -> Self;
    /// The key of the word.
    fn key(self) -> u64;
    /// A ply's sorted keys, wrapped.
    fn wrap(keys: Vec<Self>) -> PlyKeys;
}

impl KeyWord for u32 {
    #[inline]
    fn from_key(key: u64) -> Self {
        key as u32
    }
    #[inline]
    fn key(self) -> u64 {
        u64::from(self)
    }
    fn wrap(keys: Vec<Self>) -> PlyKeys {
        PlyKeys::Narrow(keys)
    }
}

impl KeyWord for u64 {
    #[inline]
    fn from_key(key: u64) -> Self {
        key
    }
    #[inline]
    fn key(self) -> u64 {
        self
    }
    fn wrap(keys: Vec<Self>) -> PlyKeys {
        PlyKeys::Wide(keys)
    }
}
