//! The lines of a batch in flight: read, and not yet answered on stdout.
//! The reader pushes lines, the workers pop them, and the printer tells
//! each line written with [`Queue::done`].
//!
//! Invariant: at most `limit` lines are in flight — queued, being
//! searched, or answered and waiting for an earlier line to be written.
//! The reader waits for room before it queues a line, so a slow line
//! holds up reading (and the memory of the lines after it), never the
//! memory of the whole input.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Condvar, Mutex, MutexGuard};

/// A bounded queue of lines in flight (see the module docs).
///
/// A full queue lets the reader go on only once half its lines are done,
/// and nobody is signalled unless someone waits: with many quick lines the
/// reader, the workers and the printer wake once for many lines, not for
/// every line.
pub struct Queue<T> {
    state: Mutex<State<T>>,
    /// Signalled when there is room again for the waiting reader.
    room: Condvar,
    /// Signalled when a line is queued (or the queue closed) for a
    /// waiting worker.
    queued: Condvar,
    limit: usize,
    /// Set by [`Self::cancel`]; searches in flight watch it too.
    cancelled: AtomicBool,
}

struct State<T> {
    /// Lines read and not yet taken by a worker.
    waiting: VecDeque<T>,
    /// Lines pushed and not yet [`Queue::done`].
    in_flight: usize,
    /// The reader has pushed its last line.
    closed: bool,
    /// The reader waits for the lines in flight to fall to half the limit.
    reader_waits: bool,
    /// Workers waiting for a line.
    workers_waiting: usize,
}

impl<T> Queue<T> {
    /// A queue holding at most `limit` (at least 1) lines in flight.
    pub fn new(limit: usize) -> Self {
        Self {
            state: Mutex::new(State {
                waiting: VecDeque::new(),
                in_flight: 0,
                closed: false,
                reader_waits: false,
                workers_waiting: 0,
            }),
            room: Condvar::new(),
            queued: Condvar::new(),
            limit: limit.max(1),
            cancelled: AtomicBool::new(false),
        }
    }

    /// The state, whatever a panicking holder left (its fields stay
    /// consistent between statements).
    fn state(&self) -> MutexGuard<'_, State<T>> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits on `signal` with `state`.
    fn wait<'s>(
        &self,
        signal: &Condvar,
        state: MutexGuard<'s, State<T>>,
    ) -> MutexGuard<'s, State<T>> {
        signal.wait(state).unwrap_or_else(|e| e.into_inner())
    }

    /// Queues `line` once fewer than `limit` lines are in flight (after a
    /// full queue: once at most half are); `false` (the line dropped) once
    /// the queue is cancelled.
    pub fn push(&self, line: T) -> bool {
        let mut state = self.state();
        if state.in_flight >= self.limit {
            state.reader_waits = true;
            while state.reader_waits && !self.is_cancelled() {
                state = self.wait(&self.room, state);
            }
        }
        if self.is_cancelled() {
            return false;
        }
        state.in_flight += 1;
        state.waiting.push_back(line);
        let wake = state.workers_waiting > 0;
        drop(state);
        if wake {
            self.queued.notify_one();
        }
        true
    }

    /// The reader has no more lines: workers stop once the queue is empty.
    pub fn close(&self) {
        self.state().closed = true;
        self.queued.notify_all();
    }

    /// The next line, waiting for one; `None` once the queue is closed and
    /// empty, or cancelled.
    pub fn pop(&self) -> Option<T> {
        let mut state = self.state();
        while state.waiting.is_empty() && !state.closed && !self.is_cancelled() {
            state.workers_waiting += 1;
            state = self.wait(&self.queued, state);
            state.workers_waiting -= 1;
        }
        if self.is_cancelled() {
            return None;
        }
        state.waiting.pop_front()
    }

    /// A line was answered on stdout: room for another.
    pub fn done(&self) {
        let mut state = self.state();
        state.in_flight = state.in_flight.saturating_sub(1);
        let wake = state.reader_waits && state.in_flight <= self.limit / 2;
        if wake {
            state.reader_waits = false;
        }
        drop(state);
        if wake {
            self.room.notify_one();
        }
    }

    /// Stops the batch: every wait returns at once, [`Self::push`] and
    /// [`Self::pop`] refuse, and searches watching [`Self::cancel_flag`]
    /// unwind.
    pub fn cancel(&self) {
        // set under the lock, so that no waiter checks it and then sleeps
        // through the signal
        let state = self.state();
        self.cancelled.store(true, Relaxed);
        drop(state);
        self.room.notify_all();
        self.queued.notify_all();
    }

    /// Whether the batch was stopped.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Relaxed)
    }

    /// The flag [`Self::cancel`] sets, for a search's clock to watch.
    pub fn cancel_flag(&self) -> &AtomicBool {
        &self.cancelled
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::time::Duration;

    #[test]
    fn the_reader_waits_while_the_limit_is_in_flight() {
        let queue = Arc::new(Queue::new(2));
        let reader = {
            let queue = Arc::clone(&queue);
            std::thread::spawn(move || {
                for line in 0..5 {
                    assert!(queue.push(line));
                }
                queue.close();
            })
        };
        // two in flight, none done: the reader waits however long
        let started = std::time::Instant::now();
        while queue.state().in_flight < 2 {
            assert!(started.elapsed() < Duration::from_secs(30), "the reader");
            std::thread::yield_now();
        }
        std::thread::sleep(Duration::from_millis(50));
        assert_eq!(queue.state().in_flight, 2);
        let mut taken = Vec::new();
        while let Some(line) = queue.pop() {
            taken.push(line);
            assert!(queue.state().in_flight <= 2);
            queue.done();
        }
        reader.join().unwrap();
        assert_eq!(taken, [0, 1, 2, 3, 4]);
    }

    #[test]
    fn cancelling_wakes_the_reader_and_the_workers() {
        let queue = Arc::new(Queue::<u32>::new(1));
        assert!(queue.push(0));
        let reader = {
            let queue = Arc::clone(&queue);
            std::thread::spawn(move || queue.push(1))
        };
        assert_eq!(queue.pop(), Some(0));
        let worker = {
            let queue = Arc::clone(&queue);
            std::thread::spawn(move || queue.pop())
        };
        std::thread::sleep(Duration::from_millis(50));
        queue.cancel();
        assert!(!reader.join().unwrap());
        assert_eq!(worker.join().unwrap(), None);
        assert!(queue.cancel_flag().load(Relaxed));
    }
}
