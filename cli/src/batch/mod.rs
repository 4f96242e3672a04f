//! Batch mode of `search` (`--positions FILE`): every line of the input is
//! a position, answered in input order as soon as it and the lines before
//! it are solved — a stream, so the batch serves as a co-process.
//!
//! ```text
//!  input ──► reader ──► Queue ──► workers ──► (line, answer) ──► printer ──► stdout
//!  (a line    thread    (at most   search      channel           reorders,   one line an
//!  at a time)           8 a worker side by side                  writes;     answer,
//!                       in flight) or in turn                    flushes     flushed
//!                                                                before it
//!                                                                waits
//!                          ▲                                        │
//!                          └────────────── done, a line ◄───────────┘
//! ```
//!
//! * **Memory is bounded, whatever the number of lines.** A line is read
//!   only when fewer than [`IN_FLIGHT_PER_WORKER`] × workers lines are in
//!   flight (read and not yet written; see [`queue`]); a line keeps at most
//!   [`lines::MAX_LINE_BYTES`]. So the lines queued, being searched and
//!   waiting behind a slow line together stay within a few per worker.
//! * **Each line has its own time limit**, counted from the start of its
//!   search: its searches run on a [`Clock`] of their own, so a line out
//!   of time stops only itself. The workers share one searcher and its
//!   table.
//! * **A bad line is answered in its place** (JSON: `moves_played` and
//!   `error`; human: `error: …`), and the batch goes on; at the end one
//!   line on stderr counts the bad lines, and the exit code is 2.
//!   Otherwise 3 if some line was not reached, else 0.
//! * **A reader that goes away** (a closed stdout) stops the batch quietly:
//!   no more lines are read or started, and the searches in flight are
//!   cancelled through their clocks.

pub mod answers;
pub mod lines;
mod queue;

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use retrograde::{
    host::{thread_pool, Clock},
    language::BoardGame,
    Position, PositionAnswer,
};

use super::output::{emit, emit_while_read, grouped};
use super::progress::Bar;
use answers::{Answered, Tally};
use lines::{Line, Lines, Read};
use queue::Queue;

/// Lines in flight a worker. A few more than the one being searched and
/// the one ready for it, so that with many quick lines the threads wake
/// once for several lines: 500,000 blank lines of `search mnk` at 2
/// threads took 8.0 s (522,000 context switches) with 2 a worker, 6.1 s
/// (168,000) with 8.
pub const IN_FLIGHT_PER_WORKER: usize = 8;

/// Answers a position until the clock stops (`Ok(None)` then).
pub type Answer<'a> =
    dyn Fn(&Position, &Clock) -> retrograde::Result<Option<PositionAnswer>> + Sync + 'a;

/// How a batch runs.
pub struct Batch<'a> {
    /// The board every line's moves are played on.
    pub game: &'a BoardGame,
    /// Worker threads.
    pub threads: usize,
    /// Positions searched side by side, one a worker, each search on its
    /// worker alone; otherwise one after another, each with every worker.
    pub side_by_side: bool,
    /// Each line's time limit, from the start of its search.
    pub time_limit: Option<Duration>,
    /// One JSON object a line instead of the human lines and summary.
    pub json: bool,
}

impl Batch<'_> {
    /// Answers every line of `lines` with `answer`. `nodes` reads the node
    /// count that a line's search adds to, seen from its worker (its own
    /// thread's count when side by side); `stats` the searcher's (nodes,
    /// transposition hits) for the summary.
    pub fn run(
        &self,
        lines: Lines,
        answer: &Answer,
        nodes: &(dyn Fn() -> u64 + Sync),
        stats: &dyn Fn() -> (u64, u64),
        bar: &Bar,
    ) -> anyhow::Result<ExitCode> {
        let started = Instant::now();
        let pool = thread_pool(self.threads)?;
        let workers = if self.side_by_side { self.threads } else { 1 };
        let queue = Arc::new(Queue::new(IN_FLIGHT_PER_WORKER * workers));
        let name = lines.name().to_string();
        // not a scoped thread: a reader blocked on an open input that
        // will say no more must not keep the command from ending
        let reader = Arc::clone(&queue);
        std::thread::Builder::new()
            .name("batch reader".into())
            .spawn(move || {
                // closed however the reader ends, so no worker waits for
                // a line that will not come
                let queue = OnDrop(&*reader, Queue::close);
                for read in lines {
                    if !queue.0.push(read) {
                        return;
                    }
                }
            })
            .context("cannot start the batch's reader")?;
        let (sender, receiver) = mpsc::channel();
        let mut tally = Tally::default();
        let printed = std::thread::scope(|scope| {
            let (queue, pool, name) = (&*queue, &pool, name.as_str());
            scope.spawn(move || {
                // a worker that panics stops the batch rather than leave
                // the printer waiting for its line
                let work = || {
                    let cancel = OnDrop(queue, |q: &Queue<Read>| {
                        if std::thread::panicking() {
                            q.cancel()
                        }
                    });
                    self.work(cancel.0, &sender, name, answer, nodes)
                };
                if self.side_by_side {
                    pool.broadcast(|_| work());
                } else {
                    pool.install(work);
                }
            });
            let printed = self.print(receiver, queue, bar, &mut tally);
            // done, failed or no reader: start nothing more, stop what runs
            queue.cancel();
            printed
        });
        bar.finish();
        if !printed? {
            return Ok(ExitCode::SUCCESS);
        }
        if !self.json {
            let seconds = started.elapsed().as_secs_f64();
            let (nodes, hits) = stats();
            let plural = |n: u64| if n == 1 { "" } else { "s" };
            emit(&format!(
                "searched {} position{} with {} nodes ({} transposition hits) in {seconds:.3} s on {} thread{}\n",
                grouped(tally.positions),
                plural(tally.positions),
                grouped(nodes),
                grouped(hits),
                self.threads,
                plural(self.threads as u64),
            ))?;
        }
        tally.refuse_bad_lines(&name)?;
        Ok(if tally.not_reached > 0 {
            ExitCode::from(3)
        } else {
            ExitCode::SUCCESS
        })
    }

    /// A worker: takes lines from `queue` until it is closed and empty (or
    /// cancelled) and sends each line's answer to the printer.
    fn work(
        &self,
        queue: &Queue<Read>,
        results: &Sender<(u64, Answered)>,
        name: &str,
        answer: &Answer,
        nodes: &(dyn Fn() -> u64 + Sync),
    ) {
        while let Some(Read { number, line }) = queue.pop() {
            let answered = match line {
                Line::Text(moves) => self
                    .game
                    .play_moves(&moves)
                    .and_then(|p| self.answer(&p, &moves, queue, answer, nodes))
                    .unwrap_or_else(|e| Answered::Bad {
                        error: format!("{name}, line {number}: {e}"),
                        moves: Some(moves),
                    }),
                Line::Bad(error) => Answered::Bad { moves: None, error },
                Line::Unreadable(why) => Answered::Unreadable(why),
            };
            if results.send((number, answered)).is_err() {
                return;
            }
        }
    }

    /// The answer of `p`, played from the line `moves`: its search starts
    /// now, with the line's own time limit, and stops early if `queue` is
    /// cancelled.
    fn answer(
        &self,
        p: &Position,
        moves: &str,
        queue: &Queue<Read>,
        answer: &Answer,
        nodes: &(dyn Fn() -> u64 + Sync),
    ) -> retrograde::Result<Answered> {
        let started = Instant::now();
        let clock =
            Clock::until(self.time_limit.map(|l| started + l)).cancelled_by(queue.cancel_flag());
        let before = nodes();
        let found = answer(p, &clock)?;
        let nodes = nodes().saturating_sub(before);
        let seconds = started.elapsed().as_secs_f64();
        let moves = moves.to_string();
        Ok(match found {
            Some(answer) => Answered::Solved {
                moves,
                answer,
                nodes,
                seconds,
            },
            None => Answered::NotReached {
                moves,
                nodes,
                seconds,
            },
        })
    }

    /// Writes the answers arriving on `receiver` in line order, telling
    /// `queue` of each; counts them in `tally`. An answer is written and
    /// flushed as soon as it and those before it are known, before the
    /// printer waits for another (answers that arrive together are written
    /// together, at most [`WRITE_BYTES`] at a time). `Ok(false)` when
    /// stdout's reader has gone; an error when the input could not be read.
    fn print(
        &self,
        receiver: Receiver<(u64, Answered)>,
        queue: &Queue<Read>,
        bar: &Bar,
        tally: &mut Tally,
    ) -> anyhow::Result<bool> {
        // at most the lines in flight wait here (the queue's limit)
        let mut waiting = BTreeMap::new();
        let mut next = 1;
        let mut out = String::new();
        // writes `out`; whether stdout is still read
        let write = |out: &mut String| -> anyhow::Result<bool> {
            let read = out.is_empty() || bar.suspend(|| emit_while_read(out))?;
            out.clear();
            Ok(read)
        };
        loop {
            let (number, answered) = match receiver.try_recv() {
                Ok(received) => received,
                Err(TryRecvError::Disconnected) => break,
                Err(TryRecvError::Empty) => {
                    // nothing more to write now: what is known goes out
                    if !write(&mut out)? {
                        return Ok(false);
                    }
                    match receiver.recv() {
                        Ok(received) => received,
                        Err(_) => break,
                    }
                }
            };
            waiting.insert(number, answered);
            while let Some(answered) = waiting.remove(&next) {
                let Some(text) = answered.text(self.json)? else {
                    let Answered::Unreadable(why) = answered else {
                        unreachable!("only an unreadable input has no text")
                    };
                    write(&mut out)?;
                    anyhow::bail!(why);
                };
                tally.count(next, &answered);
                out.push_str(&text);
                if out.len() >= WRITE_BYTES && !write(&mut out)? {
                    return Ok(false);
                }
                queue.done();
                next += 1;
            }
        }
        debug_assert!(waiting.is_empty(), "every line answered in turn");
        write(&mut out)
    }
}

/// The most answer bytes held before they are written.
const WRITE_BYTES: usize = 64 << 10;

/// Calls `.1` on `.0` when dropped (also while unwinding from a panic).
struct OnDrop<'q, T>(&'q T, fn(&T));

impl<T> Drop for OnDrop<'_, T> {
    fn drop(&mut self) {
        (self.1)(self.0)
    }
}
