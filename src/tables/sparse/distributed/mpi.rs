//! [`Ranks`] over MPI (the `mpi` crate, rsmpi, on the system's Open MPI):
//! the processes `mpirun` started, in `MPI_COMM_WORLD`. MPI is called only
//! between parallel sections, one call at a time, from whichever thread
//! runs the solve (threading level "serialized"); rayon's threads inside a
//! rank never call it.

use bytemuck::Pod;
use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
use mpi::environment::Universe;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Count;

use super::ranks::Ranks;
use crate::error::{Error, Result};

/// The MPI world of this process; MPI is finalized when it is dropped.
pub struct MpiRanks {
    world: SimpleCommunicator,
    // dropped last: finalizes MPI
    _universe: Universe,
}

impl MpiRanks {
    /// Initializes MPI, or `None` if it was initialized already.
    pub fn init() -> Option<Self> {
        let (universe, _) = mpi::initialize_with_threading(mpi::Threading::Serialized)?;
        Some(Self {
            world: universe.world(),
            _universe: universe,
        })
    }

    /// Ends every rank of the job at once with `code` (after a failure
    /// the other ranks could not learn of, e.g. while writing files).
    pub fn abort(&self, code: i32) -> ! {
        self.world.abort(code)
    }

    /// Waits for every rank.
    pub fn barrier(&self) {
        self.world.barrier();
    }
}

// SAFETY: MPI is initialized at the "serialized" threading level, which
// allows calls from any thread as long as no two are concurrent; the engine
// makes its collective calls from its sequential driver only (never inside
// a parallel section), so a shared reference never calls MPI concurrently.
unsafe impl Sync for MpiRanks {}

/// A count or offset of bytes as MPI takes it, or the error naming it.
fn mpi_count(bytes: usize) -> Result<Count> {
    Count::try_from(bytes).map_err(|_| {
        Error::InvalidInput(format!(
            "an MPI message of {bytes} bytes is over MPI's limit of {} (a round too large)",
            Count::MAX
        ))
    })
}

/// Offsets of consecutive parts of `counts`.
fn offsets(counts: &[Count]) -> Result<Vec<Count>> {
    let mut at = 0usize;
    counts
        .iter()
        .map(|&c| {
            let start = mpi_count(at)?;
            at += c as usize;
            Ok(start)
        })
        .collect()
}

impl Ranks for MpiRanks {
    fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    fn size(&self) -> usize {
        self.world.size() as usize
    }

    fn exchange<T: Pod>(&self, send: &[T], counts: &[usize]) -> Result<(Vec<T>, Vec<usize>)> {
        let word = std::mem::size_of::<T>();
        let send_counts: Vec<Count> = counts
            .iter()
            .map(|&c| mpi_count(c * word))
            .collect::<Result<_>>()?;
        let mut recv_counts: Vec<Count> = vec![0; counts.len()];
        self.world
            .all_to_all_into(&send_counts[..], &mut recv_counts[..]);
        let send_offsets = offsets(&send_counts)?;
        let recv_offsets = offsets(&recv_counts)?;
        let total: usize = recv_counts.iter().map(|&c| c as usize).sum();
        let mut received = vec![T::zeroed(); total / word];
        // an empty slice's dangling address can equal MPI_IN_PLACE (Open
        // MPI's is 1, a byte slice's dangling address), so empty buffers
        // are replaced by a real one-byte buffer that no count reaches
        let (spare_in, mut spare_out) = ([0u8; 1], [0u8; 1]);
        let send_bytes: &[u8] = match bytemuck::cast_slice::<T, u8>(send) {
            [] => &spare_in[..],
            bytes => bytes,
        };
        let recv_bytes: &mut [u8] = match bytemuck::cast_slice_mut::<T, u8>(&mut received) {
            [] => &mut spare_out[..],
            bytes => bytes,
        };
        {
            let sending = Partition::new(send_bytes, &send_counts[..], &send_offsets[..]);
            let mut receiving = PartitionMut::new(recv_bytes, &recv_counts[..], &recv_offsets[..]);
            self.world
                .all_to_all_varcount_into(&sending, &mut receiving);
        }
        let from = recv_counts.iter().map(|&c| c as usize / word).collect();
        Ok((received, from))
    }

    fn sum(&self, values: &mut [u64]) {
        let mine = values.to_vec();
        self.world
            .all_reduce_into(&mine[..], values, SystemOperation::sum());
    }

    fn max(&self, value: u64) -> u64 {
        let mut out = 0u64;
        self.world
            .all_reduce_into(&value, &mut out, SystemOperation::max());
        out
    }
}
