//! Cache hints for the hot loops that look up values scattered over
//! memory: start loading what a later step reads, so that many misses
//! overlap instead of each stalling in turn.

/// Starts bringing the cache line of `value` into the cache. A hint only:
/// it neither reads into the program nor faults; a no-op off x86-64.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint; the pointer comes from a reference.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((value as *const T).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
