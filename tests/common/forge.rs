//! A forger of gravity table files, for the tests: parses a table's
//! sections (docs/FORMAT.md), lets a test edit values, parameters and
//! counts, and writes it back with every checksum recomputed — what an
//! attacker who has read the format can do. Written for the tests only.
#![allow(dead_code)]

use retrograde::disk::Checksum;

/// The fields of each ply's counts in the summary.
pub const COUNT_FIELDS: [&str; 8] = [
    "positions",
    "terminal",
    "x_wins",
    "o_wins",
    "draws",
    "first_won",
    "first_drawn",
    "first_lost",
];

/// A gravity table's parts, editable.
pub struct ForgedTable {
    /// The 32 bytes before the first section.
    pub head: Vec<u8>,
    pub parameters: serde_json::Value,
    pub summary: serde_json::Value,
    /// Per ply: stored positions, first block.
    pub directory: Vec<(u64, u64)>,
    /// Per block: first key, offset in the blocks, positions.
    pub index: Vec<(u64, u64, u32)>,
    pub blocks: Vec<u8>,
}

fn le64(b: &[u8]) -> u64 {
    u64::from_le_bytes(b.try_into().unwrap())
}

/// Splits `bytes` at a section tagged `tag`: its body and the rest.
fn section<'a>(bytes: &'a [u8], tag: &[u8; 4]) -> (&'a [u8], &'a [u8]) {
    assert_eq!(&bytes[..4], tag, "section {}", String::from_utf8_lossy(tag));
    let len = le64(&bytes[4..12]) as usize;
    (&bytes[12..12 + len], &bytes[12 + len..])
}

fn put_section(out: &mut Vec<u8>, tag: &[u8; 4], body: &[u8]) {
    out.extend_from_slice(tag);
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(body);
}

impl ForgedTable {
    /// Parses a gravity table file written by this program.
    pub fn parse(bytes: &[u8]) -> Self {
        let head = bytes[..32].to_vec();
        let (parm, rest) = section(&bytes[32..], b"PARM");
        let (summ, rest) = section(rest, b"SUMM");
        let (gdir, rest) = section(rest, b"GDIR");
        let (gidx, rest) = section(rest, b"GIDX");
        let (_, rest) = section(rest, b"GSUM");
        let (gblk, rest) = section(rest, b"GBLK");
        assert_eq!(rest.len(), 12, "the trailer");
        Self {
            head,
            parameters: serde_json::from_slice(parm).unwrap(),
            summary: serde_json::from_slice(summ).unwrap(),
            directory: gdir
                .chunks_exact(16)
                .map(|c| (le64(&c[..8]), le64(&c[8..])))
                .collect(),
            index: gidx
                .chunks_exact(32)
                .map(|c| {
                    let positions = u32::from_le_bytes(c[16..20].try_into().unwrap());
                    (le64(&c[..8]), le64(&c[8..16]), positions)
                })
                .collect(),
            blocks: gblk.to_vec(),
        }
    }

    /// Block `b`'s bytes' range in `blocks`.
    fn block_range(&self, b: usize) -> std::ops::Range<usize> {
        let end = self
            .index
            .get(b + 1)
            .map_or(self.blocks.len() as u64, |e| e.1);
        self.index[b].1 as usize..end as usize
    }

    /// The place in `blocks` of the value byte of canonical `key` at
    /// `ply`.
    pub fn value_at(&self, ply: usize, key: u64) -> usize {
        let (stored, first) = self.directory[ply];
        let blocks = first as usize..(first + stored.div_ceil(4096)) as usize;
        let b = blocks
            .clone()
            .rev()
            .find(|&b| self.index[b].0 <= key)
            .expect("a block that may hold the key");
        let range = self.block_range(b);
        let positions = self.index[b].2 as usize;
        let mut gaps = &self.blocks[range.start + positions..range.end];
        let mut at = self.index[b].0;
        for i in 0..positions {
            if i > 0 {
                let (mut gap, mut shift) = (0u64, 0);
                loop {
                    let byte = gaps[0];
                    gaps = &gaps[1..];
                    gap |= u64::from(byte & 0x7f) << shift;
                    shift += 7;
                    if byte & 0x80 == 0 {
                        break;
                    }
                }
                at += gap;
            }
            if at == key {
                return range.start + i;
            }
        }
        panic!("key {key:#x} is not stored at ply {ply}");
    }

    /// Every value byte's place in `blocks`.
    pub fn value_places(&self) -> Vec<usize> {
        (0..self.index.len())
            .flat_map(|b| {
                let start = self.block_range(b).start;
                start..start + self.index[b].2 as usize
            })
            .collect()
    }

    /// The file, every checksum recomputed.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = self.head.clone();
        put_section(&mut out, b"PARM", self.parameters.to_string().as_bytes());
        put_section(&mut out, b"SUMM", self.summary.to_string().as_bytes());
        let gdir: Vec<u8> = self
            .directory
            .iter()
            .flat_map(|&(n, f)| [n.to_le_bytes(), f.to_le_bytes()].concat())
            .collect();
        put_section(&mut out, b"GDIR", &gdir);
        let mut gidx = Vec::new();
        for (b, &(first_key, offset, positions)) in self.index.iter().enumerate() {
            let sum = Checksum::default()
                .bytes(&self.blocks[self.block_range(b)])
                .value();
            gidx.extend_from_slice(&first_key.to_le_bytes());
            gidx.extend_from_slice(&offset.to_le_bytes());
            gidx.extend_from_slice(&positions.to_le_bytes());
            gidx.extend_from_slice(&0u32.to_le_bytes());
            gidx.extend_from_slice(&sum.to_le_bytes());
        }
        put_section(&mut out, b"GIDX", &gidx);
        let head_sum = Checksum::default().bytes(&out).value();
        put_section(&mut out, b"GSUM", &head_sum.to_le_bytes());
        put_section(&mut out, b"GBLK", &self.blocks);
        let sum = Checksum::default().bytes(&out).value();
        out.extend_from_slice(b"CSUM");
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }
}

/// A value byte: `outcome` (`'w'`, `'l'`, `'d'`) for the player to move,
/// in `depth` plies.
pub fn value_byte(outcome: char, depth: u8) -> u8 {
    let code = match outcome {
        'w' => 0b01,
        'l' => 0b10,
        _ => 0b11,
    };
    depth << 2 | code
}

/// Recomputes a table file's checksum after an edit, as an attacker would.
pub fn resum(bytes: &mut [u8]) {
    let body = bytes.len() - 12;
    let sum = Checksum::default().bytes(&bytes[..body]).value();
    bytes[body + 4..].copy_from_slice(&sum.to_le_bytes());
}
