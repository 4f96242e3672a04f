//! Memory first: sizes, the machine's memory, and the budget a solve must
//! fit in. Every solver estimates its bytes before it allocates anything and
//! calls [`Budget::check`]; a solve over budget is refused with the figure.
//!
//! **What the budget covers.** The budget (`--max-memory`) bounds what the
//! engines allocate for their work: tables, plies, node stores, buffers.
//! The process needs [`ALLOWANCE`] beside it, whatever the board: the
//! program's code and libraries (about 6 MiB resident), the threads'
//! stacks, the allocator's arenas and the small per-run structures no
//! estimate lists (a forward pass's histograms, 4 MiB at 2 threads). A run
//! stays within budget + allowance: measured (2 cores, issue 73) `connect
//! 5×5 --max-memory 150MiB` 157.7 MiB, `search connect` 7×6 at 64 MiB
//! 68.2 MiB.

pub use crate::bytes::Bytes;
use crate::error::{Error, Remedy, Result, Setting};

/// The fixed memory a run takes beside its budget (module doc): peak
/// resident memory stays within `--max-memory` plus this.
pub const ALLOWANCE: Bytes = Bytes(16 << 20);

/// Hands the memory freed to the system, where the allocator keeps it
/// (glibc's keeps the blocks below its mmap threshold, which it raises as
/// large blocks come and go): so that the process's size follows what it
/// holds. `verify` calls it between cases (its 79 cases in one process
/// peaked at 668 MiB under a 512 MiB budget, none above 518 MiB alone;
/// with this and [`few_allocator_arenas`], see there).
pub fn give_back_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free memory of the allocator
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Keeps glibc to one allocator arena for the rest of the process. By
/// default each worker thread may get an arena of its own, and what the
/// threads free there is not all handed back by
/// [`give_back_freed_memory`]: after `verify --only "Connect Four 4×7
/// positions" --max-memory 512MiB` 68 MB stayed resident, and a whole
/// `verify` carried 75–118 MB from case to case (peak 588–644 MiB under
/// 512 MiB). With two arenas 4.5 MB stayed (peak 535 MiB), with one
/// 0.4 MB (peak 519 MiB, the whole run 296 s against 259–294 s; the 4×7
/// count alone took the same time with one arena as with the default).
/// For a process that runs many solves one after another; set before its
/// worker threads allocate.
pub fn few_allocator_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes allocator parameters; a refusal
    // (return 0) leaves the defaults.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

/// Parses a size such as `512MiB`, `8GiB`, `1.5GB`, `4096` (bytes).
/// Binary units (KiB, MiB, GiB, TiB) are powers of 1024; decimal ones (KB,
/// MB, GB, TB) powers of 1000. Case-insensitive; spaces are allowed.
///
/// ```
/// use retrograde::host::{parse_size, Bytes};
/// assert_eq!(parse_size("512MiB"), Ok(Bytes(512 << 20)));
/// assert_eq!(parse_size("2 GB"), Ok(Bytes(2_000_000_000)));
/// assert!(parse_size("lots").is_err());
/// ```
pub fn parse_size(text: &str) -> std::result::Result<Bytes, String> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let split = compact
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(compact.len());
    let (number, unit) = compact.split_at(split);
    let scale: f64 = match unit.to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "k" | "kib" => 1024.0,
        "m" | "mib" => 1024.0 * 1024.0,
        "g" | "gib" => 1024.0 * 1024.0 * 1024.0,
        "t" | "tib" => 1024.0 * 1024.0 * 1024.0 * 1024.0,
        "kb" => 1e3,
        "mb" => 1e6,
        "gb" => 1e9,
        "tb" => 1e12,
        _ => {
            return Err(format!(
            "unknown size unit {unit:?} in {text:?} (use B, KiB, MiB, GiB, TiB, KB, MB, GB or TB)"
        ))
        }
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a size (e.g. 512MiB or 8GiB)"))?;
    let bytes = value * scale;
    if !bytes.is_finite() || bytes >= u64::MAX as f64 {
        return Err(format!("{text:?} is too large a size"));
    }
    Ok(Bytes(bytes.round() as u64))
}

/// Total physical memory, read from `/proc/meminfo`; `None` where unknown.
pub fn physical_memory() -> Option<Bytes> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(Bytes(kib * 1024))
}

/// The most memory a solve may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget(pub Bytes);

impl Budget {
    /// 80% of the memory this process may really use: the least of
    /// physical memory, the cgroup's limit and the address-space limit
    /// (less a reserve for the runtime's own mappings); unlimited when
    /// none can be read.
    pub fn default_for_machine() -> Self {
        match usable_memory() {
            Some(Bytes(total)) => Budget(Bytes(total / 5 * 4)),
            None => Budget::unlimited(),
        }
    }

    /// The budget left once `held` bytes are spent.
    pub fn after(&self, held: Bytes) -> Self {
        Budget(Bytes(self.0 .0.saturating_sub(held.0)))
    }

    /// A budget that refuses nothing (tests, and callers that checked already).
    pub fn unlimited() -> Self {
        Budget(Bytes(u64::MAX))
    }

    /// Refuses `needed` bytes for `what` if they exceed the budget.
    pub fn check(&self, what: &str, needed: Bytes) -> Result<()> {
        if needed > self.0 {
            let (hint, remedies) = match beyond_this_machine(needed) {
                Some(hint) => (hint, Vec::new()),
                None => (
                    " (raise {remedy})".to_string(),
                    vec![Remedy::give(Setting::MaxMemory)],
                ),
            };
            return Err(Error::OverMemoryBudget {
                what: what.to_string(),
                needed,
                budget: self.0,
                hint,
                remedies,
            });
        }
        Ok(())
    }
}

/// Address space kept for the runtime's own mappings (code, stacks,
/// allocator arenas) when an address-space limit is in force.
const ADDRESS_SPACE_RESERVE: u64 = 256 << 20;

/// The memory this process may use: the least of physical memory, the
/// memory limit of its cgroup (v2 `memory.max` or v1
/// `memory.limit_in_bytes`) and its address-space limit (`ulimit -v`, less
/// `ADDRESS_SPACE_RESERVE`).
pub fn usable_memory() -> Option<Bytes> {
    let read_number =
        |path: &str| -> Option<u64> { std::fs::read_to_string(path).ok()?.trim().parse().ok() };
    let cgroup = read_number("/sys/fs/cgroup/memory.max")
        .or_else(|| read_number("/sys/fs/cgroup/memory/memory.limit_in_bytes"));
    let address_space = std::fs::read_to_string("/proc/self/limits")
        .ok()
        .and_then(|limits| {
            let line = limits
                .lines()
                .find(|l| l.starts_with("Max address space"))?;
            let soft = line.split_whitespace().nth(3)?;
            soft.parse::<u64>().ok()
        })
        .map(|limit| limit.saturating_sub(ADDRESS_SPACE_RESERVE));
    [physical_memory().map(|b| b.0), cgroup, address_space]
        .into_iter()
        .flatten()
        .min()
        .map(Bytes)
}

/// What to tell a user whose solve needs `needed` when this process may
/// not use that much memory (`; this process may use only …`); `None`
/// when it may, and raising the budget is the remedy.
pub fn beyond_this_machine(needed: Bytes) -> Option<String> {
    match usable_memory() {
        Some(total) if needed > total => Some(format!(
            "; this process may use only {total} of memory here"
        )),
        _ => None,
    }
}

/// Asks the kernel to back `words` with huge pages where it can (Linux's
/// transparent huge pages in `madvise` mode): a large table probed at
/// random then costs far fewer TLB misses. Call it before the first touch.
/// Elsewhere, or if the kernel declines, nothing changes.
pub fn advise_huge_pages<T>(words: &[T]) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = words.as_ptr() as usize;
        let end = start + std::mem::size_of_val(words);
        let first = start.next_multiple_of(HUGE);
        let last = end / HUGE * HUGE;
        if first < last {
            // SAFETY: the range lies inside `words`' allocation, is aligned
            // to whole huge pages, and MADV_HUGEPAGE only changes how the
            // kernel backs the pages, never their contents.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
}

/// An empty vector with room for `capacity` values, its memory advised
/// for huge pages before the first touch ([`advise_huge_pages`]): for the
/// large tables probed at random.
pub fn huge_capacity<T>(capacity: usize) -> Vec<T> {
    let mut values = Vec::with_capacity(capacity);
    advise_huge_pages(values.spare_capacity_mut());
    values
}

/// A vector of `len` values made by `make` (from the index), on huge pages
/// where the kernel gives them ([`huge_capacity`]).
pub fn huge_vec<T>(len: usize, make: impl FnMut(usize) -> T) -> Vec<T> {
    let mut values = huge_capacity(len);
    values.extend((0..len).map(make));
    values
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_in_both_unit_systems() {
        assert_eq!(parse_size("1MiB"), Ok(Bytes(1 << 20)));
        assert_eq!(parse_size("8GiB"), Ok(Bytes(8 << 30)));
        assert_eq!(parse_size("1.5kib"), Ok(Bytes(1536)));
        assert_eq!(parse_size("3KB"), Ok(Bytes(3000)));
        assert_eq!(parse_size("77"), Ok(Bytes(77)));
        assert!(parse_size("").is_err());
        assert!(parse_size("5 parsecs").is_err());
        assert!(parse_size("1e30TiB").is_err());
    }

    #[test]
    fn bytes_print_in_binary_units() {
        assert_eq!(Bytes(512).to_string(), "512 B");
        assert_eq!(Bytes(3 << 20).to_string(), "3.0 MiB");
        assert_eq!(Bytes(1536 << 20).to_string(), "1.5 GiB");
    }

    #[test]
    fn the_budget_refuses_what_does_not_fit() {
        let budget = Budget(Bytes(1000));
        assert!(budget.check("x", Bytes(1000)).is_ok());
        let err = budget
            .check("the table", Bytes(1001))
            .unwrap_err()
            .to_string();
        assert!(err.contains("1001 B") && err.contains("1000 B"), "{err}");
    }
}
