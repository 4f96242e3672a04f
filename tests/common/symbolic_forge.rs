//! A forger of symbolic table files (encoding 8) and checkpoint
//! directories, for the tests: it edits what docs/FORMAT.md describes and
//! recomputes every checksum — what an attacker who has read the format
//! can do. Written for the tests only, from FORMAT.md.
#![allow(dead_code)]

use retrograde::disk::Checksum;
use serde_json::Value;

fn le64(b: &[u8]) -> u64 {
    u64::from_le_bytes(b.try_into().unwrap())
}

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

/// One `DDIR` entry (48 bytes).
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub ply: u32,
    pub set: u32,
    pub root: u32,
    pub nodes: u64,
    pub nodes_at: u64,
    pub sums_at: u64,
    pub sums_checksum: u64,
}

/// A symbolic table's parts, editable.
pub struct ForgedSymbolic {
    /// The 32 bytes before `PARM`: magic, version, kind, encoding, 0, states.
    pub head: Vec<u8>,
    pub parameters: Value,
    pub summary: Value,
    pub entries: Vec<Entry>,
    /// `DBLK`'s body: every diagram's block checksums and nodes.
    pub blocks: Vec<u8>,
    /// The file offset `DBLK`'s body began at when parsed.
    base: u64,
}

impl ForgedSymbolic {
    pub fn parse(bytes: &[u8]) -> Self {
        let head = bytes[..32].to_vec();
        let (parm, rest) = section(&bytes[32..], b"PARM");
        let (summ, rest) = section(rest, b"SUMM");
        let (ddir, rest) = section(rest, b"DDIR");
        let (_, rest) = section(rest, b"DSUM");
        let (dblk, rest) = section(rest, b"DBLK");
        assert_eq!(rest.len(), 12, "the trailer");
        let base = (bytes.len() - 12 - dblk.len()) as u64;
        let entries = ddir
            .chunks_exact(48)
            .map(|c| {
                let w32 = |i: usize| u32::from_le_bytes(c[4 * i..4 * i + 4].try_into().unwrap());
                let w64 = |i: usize| le64(&c[16 + 8 * i..24 + 8 * i]);
                Entry {
                    ply: w32(0),
                    set: w32(1),
                    root: w32(2),
                    nodes: w64(0),
                    nodes_at: w64(1),
                    sums_at: w64(2),
                    sums_checksum: w64(3),
                }
            })
            .collect();
        Self {
            head,
            parameters: serde_json::from_slice(parm).unwrap(),
            summary: serde_json::from_slice(summ).unwrap(),
            entries,
            blocks: dblk.to_vec(),
            base,
        }
    }

    /// The game kind in the header (3 m,n,k, 4 gravity).
    pub fn set_kind(&mut self, kind: u32) {
        self.head[12..16].copy_from_slice(&kind.to_le_bytes());
    }

    /// Swaps the won and lost diagrams of `ply` (their directory entries'
    /// contents, each keeping its place).
    pub fn swap_won_lost(&mut self, ply: usize) {
        let (w, l) = (2 * ply, 2 * ply + 1);
        let (a, b) = (self.entries[w], self.entries[l]);
        self.entries[w] = Entry {
            ply: a.ply,
            set: a.set,
            ..b
        };
        self.entries[l] = Entry {
            ply: b.ply,
            set: b.set,
            ..a
        };
    }

    /// The file, every checksum recomputed and every offset moved to where
    /// the blocks now begin.
    pub fn bytes(&self) -> Vec<u8> {
        let mut out = self.head.clone();
        put_section(
            &mut out,
            b"PARM",
            &serde_json::to_vec(&self.parameters).unwrap(),
        );
        put_section(
            &mut out,
            b"SUMM",
            &serde_json::to_vec(&self.summary).unwrap(),
        );
        let base = (out.len() + 12 + 48 * self.entries.len() + 12 + 8 + 12) as u64;
        let mut ddir = Vec::new();
        for e in &self.entries {
            for w in [e.ply, e.set, e.root, 0] {
                ddir.extend_from_slice(&w.to_le_bytes());
            }
            for w in [
                e.nodes,
                e.nodes_at - self.base + base,
                e.sums_at - self.base + base,
                e.sums_checksum,
            ] {
                ddir.extend_from_slice(&w.to_le_bytes());
            }
        }
        put_section(&mut out, b"DDIR", &ddir);
        let head_sum = Checksum::default().bytes(&out).value();
        put_section(&mut out, b"DSUM", &head_sum.to_le_bytes());
        put_section(&mut out, b"DBLK", &self.blocks);
        assert_eq!(out.len() as u64 - self.blocks.len() as u64, base);
        let sum = Checksum::default().bytes(&out).value();
        out.extend_from_slice(b"CSUM");
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }
}

/// Rewrites a checkpoint's `progress.json` after `edit` changes its
/// progress, with the checksum recomputed as FORMAT.md says (of the compact
/// JSON of the progress object, fields in their order).
pub fn forge_progress(path: &std::path::Path, edit: impl FnOnce(&mut Value)) {
    let mut saved: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    edit(&mut saved["progress"]);
    let compact = serde_json::to_vec(&saved["progress"]).unwrap();
    saved["checksum"] = format!("{:016x}", Checksum::default().bytes(&compact).value()).into();
    std::fs::write(path, serde_json::to_vec_pretty(&saved).unwrap()).unwrap();
}
