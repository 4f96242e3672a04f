//! The ranks a distributed solve runs on, as the engine sees them: who I
//! am, how many we are, and the three collective operations the layered
//! solve needs. [`Solo`] is one process alone; with the `mpi` feature,
//! `MpiRanks` (`mpi.rs`, feature `mpi`) is a communicator of processes started by
//! `mpirun`. Every rank calls every collective in the same order (the
//! solve's rounds are agreed with [`Ranks::max`] first).

use bytemuck::Pod;

use crate::error::Result;

/// A group of ranks solving one board together.
pub trait Ranks: Sync {
    /// This rank, `0 .. size()`.
    fn rank(&self) -> usize;
    /// Ranks in the group (at least 1).
    fn size(&self) -> usize;
    /// All-to-all: `send` holds, rank after rank, `counts[r]` words for
    /// rank `r`; returns the words every rank sent this one, rank after
    /// rank, and how many came from each. Errors when a part does not fit
    /// one message (the callers keep rounds far below that).
    fn exchange<T: Pod>(&self, send: &[T], counts: &[usize]) -> Result<(Vec<T>, Vec<usize>)>;
    /// Element-wise sums of `values` over all ranks, in place.
    fn sum(&self, values: &mut [u64]);
    /// The largest `value` of any rank.
    fn max(&self, value: u64) -> u64;
}

/// One process: rank 0 of 1.
pub struct Solo;

impl Ranks for Solo {
    fn rank(&self) -> usize {
        0
    }
    fn size(&self) -> usize {
        1
    }
    fn exchange<T: Pod>(&self, send: &[T], counts: &[usize]) -> Result<(Vec<T>, Vec<usize>)> {
        debug_assert_eq!(counts, [send.len()]);
        Ok((send.to_vec(), vec![send.len()]))
    }
    fn sum(&self, _values: &mut [u64]) {}
    fn max(&self, value: u64) -> u64 {
        value
    }
}

/// The rank that owns `key` among `ranks`: a multiplicative hash of the
/// key scaled to the rank count, so a ply's keys spread evenly whatever
/// their pattern. Saved tables record the scheme ([`OWNER_SCHEME`]).
#[inline]
pub fn owner(key: u64, ranks: usize) -> usize {
    let mixed = (key ^ (key >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    ((u128::from(mixed >> 32) * ranks as u128) >> 32) as usize
}

/// The name of [`owner`]'s scheme, written into a parted table's manifest.
pub const OWNER_SCHEME: &str = "fibonacci-hash-v1";

/// Ranks simulated by threads of one process, for tests: each collective
/// deposits this rank's part in shared slots, waits for every rank, reads
/// what is addressed to it, and waits again before the slots are reused.
#[cfg(test)]
pub(crate) mod threads {
    use std::sync::{Arc, Barrier, Mutex};

    use bytemuck::Pod;

    use super::Ranks;
    use crate::error::Result;

    /// What the ranks of one group share.
    pub(crate) struct Group {
        size: usize,
        barrier: Barrier,
        /// `mail[from][to]`: bytes in flight.
        mail: Mutex<Vec<Vec<Vec<u8>>>>,
        /// Each rank's numbers in a reduction.
        numbers: Mutex<Vec<Vec<u64>>>,
    }

    /// One rank of a [`Group`].
    pub(crate) struct ThreadRank {
        rank: usize,
        group: Arc<Group>,
    }

    /// The `size` ranks of a new group, one to hand each thread.
    pub(crate) fn group(size: usize) -> Vec<ThreadRank> {
        let group = Arc::new(Group {
            size,
            barrier: Barrier::new(size),
            mail: Mutex::new(vec![vec![Vec::new(); size]; size]),
            numbers: Mutex::new(vec![Vec::new(); size]),
        });
        (0..size)
            .map(|rank| ThreadRank {
                rank,
                group: Arc::clone(&group),
            })
            .collect()
    }

    impl ThreadRank {
        /// Every rank's `values`, in rank order.
        fn gather(&self, values: &[u64]) -> Vec<Vec<u64>> {
            self.group.numbers.lock().unwrap()[self.rank] = values.to_vec();
            self.group.barrier.wait();
            let all = self.group.numbers.lock().unwrap().clone();
            self.group.barrier.wait();
            all
        }
    }

    impl Ranks for ThreadRank {
        fn rank(&self) -> usize {
            self.rank
        }
        fn size(&self) -> usize {
            self.group.size
        }
        fn exchange<T: Pod>(&self, send: &[T], counts: &[usize]) -> Result<(Vec<T>, Vec<usize>)> {
            let mut at = 0;
            {
                let mut mail = self.group.mail.lock().unwrap();
                for (to, &c) in counts.iter().enumerate() {
                    mail[self.rank][to] = bytemuck::cast_slice(&send[at..at + c]).to_vec();
                    at += c;
                }
            }
            self.group.barrier.wait();
            let (mut got, mut got_counts) = (Vec::new(), Vec::new());
            {
                let mail = self.group.mail.lock().unwrap();
                for from in &*mail {
                    let words: Vec<T> = bytemuck::pod_collect_to_vec(&from[self.rank]);
                    got_counts.push(words.len());
                    got.extend_from_slice(&words);
                }
            }
            self.group.barrier.wait();
            Ok((got, got_counts))
        }
        fn sum(&self, values: &mut [u64]) {
            let all = self.gather(values);
            for (i, v) in values.iter_mut().enumerate() {
                *v = all.iter().map(|r| r[i]).sum();
            }
        }
        fn max(&self, value: u64) -> u64 {
            self.gather(&[value])
                .iter()
                .map(|r| r[0])
                .max()
                .unwrap_or(0)
        }
    }
}
