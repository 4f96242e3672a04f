//! Parallel writes into one slice at indices that threads keep disjoint
//! (the forward pass's scatter, the distributed engine's grouping by owner).

/// A slice that threads write at disjoint indices; it borrows the slice
/// mutably for as long as it lives.
pub(crate) struct DisjointWriter<'a, K> {
    ptr: *mut K,
    len: usize,
    _slice: std::marker::PhantomData<&'a mut [K]>,
}

// SAFETY: the writer only hands out writes at indices its users keep
// disjoint between threads (their contract); K itself is Send.
unsafe impl<K: Send> Send for DisjointWriter<'_, K> {}
unsafe impl<K: Send> Sync for DisjointWriter<'_, K> {}

impl<'a, K: Copy> DisjointWriter<'a, K> {
    pub(crate) fn new(slice: &'a mut [K]) -> Self {
        Self {
            ptr: slice.as_mut_ptr(),
            len: slice.len(),
            _slice: std::marker::PhantomData,
        }
    }

    /// Writes `value` at `i`.
    ///
    /// # Safety
    /// No other thread reads or writes index `i` while the writer lives.
    #[inline]
    pub(crate) unsafe fn write(&self, i: usize, value: K) {
        assert!(i < self.len, "a write past the round's buffer");
        // SAFETY: in bounds (checked) and not shared (the caller's contract)
        unsafe { self.ptr.add(i).write(value) }
    }
}
