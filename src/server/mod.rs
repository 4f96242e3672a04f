//! `retrograde serve`: the library's answers over HTTP, for programs and
//! (from its page) for people. A front end like the command line and the
//! Python package: every answer comes from the facade
//! ([`retrograde::Analyzer`]), the server adds only the transport, its
//! limits and its metrics.
//!
//! The stack is axum on tokio (with tower-http's layers): the most used
//! and best kept of Rust's async HTTP stacks, whose extractors, layers
//! and graceful shutdown this server needs and nothing more.
//!
//! ```text
//!  request ─► router ─► api::analyze / api::best_move
//!                        │ parse (400 with the one-line error)
//!                        ├─► a loaded table of the board: answered at once
//!                        └─► the search queue (503 + Retry-After when full)
//!                              └─► one search at a time on the blocking pool,
//!                                  by the board's kept PositionSearcher
//! ```
//!
//! * **Bounded:** a query string of at most [`api::MAX_QUERY_BYTES`], a
//!   body of at most 1 KiB, each search within its time limit (at most
//!   `--move-seconds`), at most `--queue` searches waiting, the searchers'
//!   tables within the memory budget left by the tables
//!   ([`boards::Boards`]). A panic in a handler is answered 500 and the
//!   server goes on.
//! * **Shutdown:** SIGINT or SIGTERM stops new connections and lets the
//!   requests in flight finish (each search within its limit).

pub mod api;
pub mod boards;
pub mod metrics;
pub mod page;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::routing::get;
use axum::Router;
use tokio::sync::Semaphore;

use boards::Boards;
use metrics::Metrics;

/// What `retrograde serve` runs with.
pub struct Config {
    /// Where to listen.
    pub addr: SocketAddr,
    /// The boards' tables and searchers.
    pub boards: Boards,
    /// The longest (and default) time limit of a search.
    pub move_seconds: Duration,
    /// Searches that may wait for the one that runs.
    pub queue: usize,
}

/// What every request shares.
pub struct State {
    /// The boards' tables and searchers.
    pub boards: Boards,
    /// The longest (and default) time limit of a search.
    pub move_seconds: Duration,
    /// Permits of the searches waiting or running (`--queue` and one):
    /// when none is left, 503.
    pub waiting: Arc<Semaphore>,
    /// The one search running at a time (each search uses every thread).
    pub running: Arc<Semaphore>,
    /// Counters and latencies, for `/metrics`.
    pub metrics: Metrics,
}

/// The routes and their layers over `state`.
pub fn router(state: Arc<State>) -> Router {
    Router::new()
        .route("/", get(page::index))
        .route("/api/v1/analyze", get(api::analyze))
        .route("/api/v1/move", get(api::best_move))
        .route("/healthz", get(api::healthz))
        .route("/metrics", get(metrics::render))
        .fallback(api::not_found)
        .with_state(state)
        .layer(tower_http::limit::RequestBodyLimitLayer::new(1024))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(
            api::panicked,
        ))
}

/// Serves `config` until SIGINT or SIGTERM, printing the address it
/// listens on (stdout, one line, flushed: a caller that asked for port 0
/// reads the port there).
pub fn run(config: Config, threads: usize) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads.clamp(1, 4))
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(config.addr)
            .await
            .map_err(|e| anyhow::anyhow!("--addr {}: cannot listen: {e}", config.addr))?;
        let state = Arc::new(State {
            boards: config.boards,
            move_seconds: config.move_seconds,
            waiting: Arc::new(Semaphore::new(config.queue + 1)),
            running: Arc::new(Semaphore::new(1)),
            metrics: Metrics::default(),
        });
        let addr = listener.local_addr()?;
        {
            use std::io::Write as _;
            let mut out = std::io::stdout().lock();
            writeln!(out, "listening on http://{addr}")?;
            out.flush()?;
        }
        axum::serve(listener, router(state))
            .with_graceful_shutdown(shutdown())
            .await?;
        Ok(())
    })
}

/// Resolves on SIGINT or SIGTERM.
async fn shutdown() {
    let interrupt = tokio::signal::ctrl_c();
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    tokio::select! {
        _ = interrupt => {},
        _ = terminate => {},
    }
}
