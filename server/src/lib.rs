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
//!  request ─► router ─► api::analyze / api::best_move / batch::batch
//!                        │ parse (400 with the one-line error)
//!                        ├─► a loaded table of the board: answered at once
//!                        └─► the search queue (503 + Retry-After when full)
//!                              └─► one search at a time on the blocking pool,
//!                                  by the board's kept PositionSearcher
//! ```
//!
//! * **Bounded:** a query string of at most [`api::MAX_QUERY_BYTES`], a
//!   body of at most [`BODY_BYTES`] however it is sent (sized or chunked,
//!   read within [`HEADER_SECONDS`]), each search within its time limit (at most
//!   `--move-seconds`), at most `--queue` searches waiting, the searchers'
//!   tables within the memory budget left by the tables
//!   ([`boards::Boards`]). A panic in a handler is answered 500 and the
//!   server goes on.
//! * **Connections:** at most [`MAX_CONNECTIONS`] at once (past them a
//!   new one is closed at once), each reading a request's headers within
//!   [`HEADER_SECONDS`] and buffering at most [`BUFFER_BYTES`]: a client
//!   that stalls holds one slot for ten seconds, not the server's memory.
//! * **Shutdown:** SIGINT or SIGTERM stops new connections, closes the
//!   idle ones and lets the requests in flight finish (each search within
//!   its limit); after `--move-seconds` and [`SHUTDOWN_GRACE`] more, the
//!   rest are dropped.

pub mod api;
pub mod batch;
pub mod boards;
pub mod metrics;
pub mod own;
pub mod page;

/// The most connections served at once.
pub const MAX_CONNECTIONS: usize = 256;

/// The longest wait for a request's headers, in seconds.
pub const HEADER_SECONDS: u64 = 10;

/// The most a connection buffers (a request's line and headers: the
/// query string is at most [`api::MAX_QUERY_BYTES`]).
pub const BUFFER_BYTES: usize = 16 * 1024;

/// The most bytes of a request's body taken: past them, 413 (the API
/// reads its query string; a body is read, within this bound, only to be
/// refused or dropped). A batch's body has its own bound,
/// [`batch::BATCH_BODY_BYTES`].
pub const BODY_BYTES: usize = 1024;

/// The most bytes of the body of a request to `path`.
fn body_bytes(path: &str) -> usize {
    match path {
        "/api/v1/batch" => batch::BATCH_BODY_BYTES,
        _ => BODY_BYTES,
    }
}

/// How long the requests in flight may run past `--move-seconds` once a
/// shutdown is asked.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, HttpBody as _};
use axum::extract::Request;
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use http_body_util::{BodyExt, LengthLimitError, Limited};
use tokio::sync::Semaphore;

use api::ApiError;
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
    /// The game of one's own this server answers instead of the boards
    /// (`PROGRAM serve`): its page at `/` and `/api/v1/own`, and no board
    /// routes.
    pub own: Option<own::OwnGame>,
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
    /// The page at `/`, with this server's `--move-seconds`.
    pub page: String,
    /// The game of one's own answered, if this is its server.
    pub own: Option<own::OwnGame>,
}

/// The routes and their layers over `state`: the boards' page and API,
/// or those of the game of one's own it holds.
pub fn router(state: Arc<State>) -> Router {
    let routes = match state.own {
        None => Router::new()
            .route("/", get(page::index))
            .route("/api/v1/analyze", get(api::analyze))
            .route("/api/v1/move", get(api::best_move))
            .route("/api/v1/batch", post(batch::batch)),
        Some(_) => Router::new()
            .route("/", get(own::page))
            .route("/api/v1/own", get(own::answer)),
    };
    routes
        .route("/healthz", get(api::healthz))
        .route("/metrics", get(metrics::render))
        .fallback(api::not_found)
        .with_state(Arc::clone(&state))
        .layer(axum::middleware::from_fn(bounded_body))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(
            api::panicked,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state,
            metrics::observe,
        ))
}

/// Every request's body read before it is answered, at most
/// [`BODY_BYTES`] of it ([`batch::BATCH_BODY_BYTES`] for a batch), within [`HEADER_SECONDS`]: 413 past the bound
/// however the body is sent (a `Content-Length` over it is refused before
/// any byte is read, a chunked body once its bytes pass it; [`metrics::observe`]
/// gives it the API's shape), 408 for a body that stalls, 400 for one that
/// cannot be read (a malformed chunk). Read even for a GET, whose handlers never look at it: a
/// body left unread was never measured (a chunked 2 KiB GET was answered
/// 200).
async fn bounded_body(request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    let most = body_bytes(parts.uri.path());
    let too_large = || match most {
        BODY_BYTES => StatusCode::PAYLOAD_TOO_LARGE.into_response(),
        _ => ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the request's body is over the {} KiB a batch takes",
                most / 1024
            ),
        )
        .into_response(),
    };
    let declared = parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if declared.is_some_and(|n| n > most as u64) {
        return too_large();
    }
    if body.is_end_stream() {
        return next.run(Request::from_parts(parts, body)).await;
    }
    let read = tokio::time::timeout(
        Duration::from_secs(HEADER_SECONDS),
        Limited::new(body, most).collect(),
    )
    .await;
    let body = match read {
        Ok(Ok(collected)) => Body::from(collected.to_bytes()),
        Ok(Err(e)) if e.is::<LengthLimitError>() => return too_large(),
        Ok(Err(e)) => {
            let message = format!("the request's body cannot be read: {e}");
            return ApiError::new(StatusCode::BAD_REQUEST, message).into_response();
        }
        Err(_) => {
            let message = format!("the request's body did not arrive within {HEADER_SECONDS} s");
            return ApiError::new(StatusCode::REQUEST_TIMEOUT, message).into_response();
        }
    };
    next.run(Request::from_parts(parts, body)).await
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
            page: page::page(config.move_seconds),
            own: config.own,
        });
        let addr = listener.local_addr()?;
        {
            use std::io::Write as _;
            let mut out = std::io::stdout().lock();
            writeln!(out, "listening on http://{addr}")?;
            out.flush()?;
        }
        serve(listener, Arc::clone(&state)).await;
        Ok(())
    })
}

/// Accepts connections on `listener` until SIGINT or SIGTERM, then ends
/// them (module doc: **Connections**, **Shutdown**).
async fn serve(listener: tokio::net::TcpListener, state: Arc<State>) {
    let app = router(Arc::clone(&state));
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let (stop, stopping) = tokio::sync::watch::channel(false);
    let mut connections = tokio::task::JoinSet::new();
    let signal = shutdown();
    tokio::pin!(signal);
    loop {
        let stream = tokio::select! {
            _ = &mut signal => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // out of descriptors, or a connection reset before it was
                // taken: wait a little rather than spin
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue;
                }
            },
        };
        while connections.try_join_next().is_some() {}
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
            state.metrics.refused_connection();
            continue;
        };
        let _ = stream.set_nodelay(true);
        let (service, in_flight) = counting(app.clone());
        let mut stopping = stopping.clone();
        connections.spawn(async move {
            let _slot = slot;
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(Duration::from_secs(HEADER_SECONDS))
                .max_buf_size(BUFFER_BYTES)
                .serve_connection(hyper_util::rt::TokioIo::new(stream), service);
            tokio::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                _ = stopping.changed() => {
                    // idle, or stalled in a request's headers: closed now;
                    // a request being answered finishes first
                    if in_flight.load(Ordering::Acquire) == 0 {
                        return;
                    }
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
        });
    }
    drop(listener);
    let _ = stop.send(true);
    let grace = state.move_seconds + SHUTDOWN_GRACE;
    let ended = async { while connections.join_next().await.is_some() {} };
    if tokio::time::timeout(grace, ended).await.is_err() {
        connections.abort_all();
    }
}

/// `app` as one connection's hyper service, and the count of its
/// requests being answered (a request's count ends with its future: when
/// answered, or dropped with its connection).
fn counting(
    app: Router,
) -> (
    impl hyper::service::Service<
            hyper::Request<hyper::body::Incoming>,
            Response = axum::response::Response,
            Error = std::convert::Infallible,
            Future = impl Send,
        > + Clone,
    Arc<AtomicU64>,
) {
    let in_flight = Arc::new(AtomicU64::new(0));
    let counter = Arc::clone(&in_flight);
    let service = hyper::service::service_fn(move |request| {
        let answering = Counted::new(&counter);
        let app = app.clone();
        async move {
            let _answering = answering;
            tower::ServiceExt::oneshot(app, request).await
        }
    });
    (service, in_flight)
}

/// One of something counted while it lives (a request being answered on
/// a connection, a search waiting or running): `count` goes up when it is
/// made and down when it is dropped.
pub struct Counted(Arc<AtomicU64>);

impl Counted {
    /// One more of `count`, until dropped.
    pub fn new(count: &Arc<AtomicU64>) -> Self {
        count.fetch_add(1, Ordering::AcqRel);
        Self(Arc::clone(count))
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
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
