//! The JSON API, version 1 (docs/GUIDE.md, "serve"):
//!
//! * `GET /api/v1/analyze?game=connect|mnk&cols=C&rows=R&k=K&moves=M` —
//!   the position answer `search --json` and `query --json` print
//!   (status, value, depth, score on gravity boards, every legal move's
//!   value, the best moves), with `engine` (which answered: `table`,
//!   `search`, `zones_then_search`, `general_search`, `threats`),
//!   `positions_searched`, `seconds` and `reached` (false: the search's
//!   time ran out; then no answer keys). Optional: `detail=best` (one best
//!   move), `precision=weak` (values without depths), `time_limit=S` (from
//!   [`MIN_TIME_LIMIT`] to the server's `--move-seconds`, its default).
//! * `GET /api/v1/move?…` (the same keys) — a move that keeps the value,
//!   for play: `move` (its notation), `value`, `depth`, `engine`,
//!   `seconds`, `reached`.
//! * `GET /healthz` — `{"status": "ok", "tables": [the boards]}`.
//!
//! A bad request gets 400 and `{"error": "the one-line error"}`; a full
//! search queue 503 with `Retry-After`; an unknown path 404; a failure
//! of the server 500 — never a panic, never a file named by a request.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::State as Shared;
use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Json;
use retrograde::analyzer::answer_from_table;
use retrograde::analyzer::searching::{
    check_searchable, AnswerReport, AnsweredBy, Precision, Question,
};
use retrograde::board::BoardSize;
use retrograde::position::answer::MoveDetail;
use retrograde::position::{BoardGame, Family, Position, Status};
use serde_json::{json, Value};

use super::{Counted, State};

/// The longest query string taken, in bytes (a move list of a full
/// 16 × 16 board in cell notation is under 1,100).
pub const MAX_QUERY_BYTES: usize = 4096;

/// The shortest time limit a request may give (a shorter `time_limit` is
/// refused with 400): a request that waited behind another search until
/// less than this is left gets 503 rather than a search of no time.
pub const MIN_TIME_LIMIT: Duration = Duration::from_millis(1);

/// The keys a question may give.
const KEYS: [&str; 8] = [
    "game",
    "cols",
    "rows",
    "k",
    "moves",
    "detail",
    "precision",
    "time_limit",
];

/// A refusal: its status, its one line and, for a full queue, when to
/// come back.
#[derive(Debug)]
pub struct ApiError {
    code: StatusCode,
    message: String,
    retry_after: Option<u64>,
}

impl ApiError {
    /// A refusal with status `code` and its one line.
    pub(super) fn new(code: StatusCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            retry_after: None,
        }
    }

    fn bad(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }

    fn internal(message: impl Into<String>) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }
}

impl From<retrograde::Error> for ApiError {
    /// The library's refusals of a position or a board are the request's
    /// fault (400); anything else is the server's (500).
    fn from(err: retrograde::Error) -> Self {
        match err {
            retrograde::Error::InvalidInput(message) => ApiError::bad(message),
            other => ApiError::internal(other.to_string()),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = Json(json!({ "error": self.message }));
        match self.retry_after {
            Some(seconds) => (
                self.code,
                [(header::RETRY_AFTER, seconds.to_string())],
                body,
            )
                .into_response(),
            None => (self.code, body).into_response(),
        }
    }
}

/// A parsed question.
struct Asked {
    game: BoardGame,
    position: Position,
    detail: MoveDetail,
    precision: Precision,
    time_limit: Duration,
}

/// The question of `uri`'s query string.
fn parse(uri: &Uri, move_seconds: Duration) -> Result<Asked, ApiError> {
    let query = uri.query().unwrap_or("");
    if query.len() > MAX_QUERY_BYTES {
        return Err(ApiError::bad(format!(
            "the query string has {} bytes, over the {MAX_QUERY_BYTES} taken",
            query.len()
        )));
    }
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query)
        .map_err(|e| ApiError::bad(format!("the query string cannot be read: {e}")))?;
    let mut given: Vec<(&str, &str)> = Vec::new();
    for (key, value) in &pairs {
        if !KEYS.contains(&key.as_str()) {
            return Err(ApiError::bad(format!(
                "unknown key {key:?}: the keys are {}",
                KEYS.join(", ")
            )));
        }
        if given.iter().any(|(k, _)| k == key) {
            return Err(ApiError::bad(format!("{key} is given twice")));
        }
        given.push((key, value));
    }
    let get = |key: &str| given.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
    let number = |key: &str| -> Result<Option<u32>, ApiError> {
        get(key)
            .map(|v| {
                v.parse::<u32>()
                    .map_err(|_| ApiError::bad(format!("{key}={v:?} is not a whole number")))
            })
            .transpose()
    };
    let (family, (cols, rows, k)) = match get("game") {
        Some("connect") => (Family::Gravity, (7, 6, 4)),
        Some("mnk") => (Family::Mnk, (3, 3, 3)),
        Some(other) => {
            return Err(ApiError::bad(format!(
                "unknown game {other:?}: connect or mnk"
            )))
        }
        None => return Err(ApiError::bad("game is missing: connect or mnk")),
    };
    let size = BoardSize::new(
        number("cols")?.unwrap_or(cols),
        number("rows")?.unwrap_or(rows),
        number("k")?.unwrap_or(k),
    );
    let game = BoardGame::new(family, size)?;
    let position = game.play_moves(get("moves").unwrap_or(""))?;
    let detail = match get("detail") {
        None | Some("all") => MoveDetail::All,
        Some("best") => MoveDetail::Best,
        Some(other) => return Err(ApiError::bad(format!("detail={other:?}: all or best"))),
    };
    let precision = match get("precision") {
        None | Some("exact") => Precision::Exact,
        Some("weak") => Precision::Weak,
        Some(other) => return Err(ApiError::bad(format!("precision={other:?}: exact or weak"))),
    };
    let time_limit = match get("time_limit") {
        None => move_seconds,
        Some(text) => match text.parse::<f64>() {
            Ok(s)
                if s.is_finite()
                    && s >= MIN_TIME_LIMIT.as_secs_f64()
                    && s <= move_seconds.as_secs_f64() =>
            {
                Duration::from_secs_f64(s)
            }
            _ => {
                return Err(ApiError::bad(format!(
                    "time_limit={text:?} must be a number of seconds from {} (the server's \
                     floor: no search starts with less) to {} (its --move-seconds)",
                    MIN_TIME_LIMIT.as_secs_f64(),
                    move_seconds.as_secs_f64()
                )))
            }
        },
    };
    Ok(Asked {
        game,
        position,
        detail,
        precision,
        time_limit,
    })
}

/// The answer of `asked`: from a loaded table of its board at once, else
/// by the board's kept searcher, one search at a time, after at most
/// `--queue` others (503 when the queue is full, or when the searches
/// ahead take the whole of its time limit). The time waited counts
/// against the limit, so a search-answered request ends within it. A
/// request whose future is dropped (the shutdown's deadline) cancels its
/// search; a client that closes its connection does not (hyper's HTTP/1
/// does not read a connection while its response is pending), so that
/// search runs to its limit.
async fn answer(state: &Arc<State>, asked: Asked) -> Result<AnswerReport, ApiError> {
    if let Some(table) = state.boards.table_for(&asked.game) {
        let oracle = table
            .oracle()
            .ok_or_else(|| ApiError::internal("a board table without answers"))?;
        let report =
            answer_from_table(&asked.game, oracle.as_ref(), &asked.position, asked.detail)?;
        return Ok(report);
    }
    check_searchable(&asked.game)?;
    let deadline = tokio::time::Instant::now() + asked.time_limit;
    let busy = |message: &str| ApiError {
        code: StatusCode::SERVICE_UNAVAILABLE,
        message: message.into(),
        retry_after: Some(state.move_seconds.as_secs_f64().ceil() as u64),
    };
    let waiting = Arc::clone(&state.waiting)
        .try_acquire_owned()
        .map_err(|_| busy("busy: the search queue is full; try again"))?;
    // counted while it waits or runs: moved into the search itself, so a
    // search whose request was dropped is counted until it stops
    let searching = Counted::new(&state.metrics.searches);
    let late = || busy("busy: the searches ahead took this request's time limit; try again");
    // busy only when a search was ahead: on an idle server a limit at the
    // floor starts its search with what is left of it (a few microseconds
    // under the floor, spent since the request was read)
    let running = match Arc::clone(&state.running).try_acquire_owned() {
        Ok(running) => running,
        Err(_) => {
            let running =
                tokio::time::timeout_at(deadline, Arc::clone(&state.running).acquire_owned())
                    .await
                    .map_err(|_| late())?
                    .map_err(|_| ApiError::internal("the server is stopping"))?;
            if deadline.saturating_duration_since(tokio::time::Instant::now()) < MIN_TIME_LIMIT {
                return Err(late());
            }
            running
        }
    };
    let left = deadline.saturating_duration_since(tokio::time::Instant::now());
    let cancel = CancelOnDrop(Arc::new(AtomicBool::new(false)));
    let flag = Arc::clone(&cancel.0);
    let shared = Arc::clone(state);
    let answered = tokio::task::spawn_blocking(move || {
        let _held = (waiting, running, searching);
        let searcher = shared.boards.searcher_for(&asked.game)?;
        let precision = match searcher.answered_by() {
            // the threat prover proves values only
            AnsweredBy::Threats => Precision::Weak,
            _ => asked.precision,
        };
        let question = Question {
            position: asked.position,
            precision,
            detail: asked.detail,
            time_limit: Some(left),
            cancel: Some(&flag),
        };
        let report =
            shared
                .boards
                .analyzer()
                .answer(&asked.game, None, Some(&searcher), &question)?;
        Ok::<_, retrograde::Error>(report)
    })
    .await;
    drop(cancel);
    match answered {
        Ok(result) => Ok(result?),
        Err(_) => Err(ApiError::internal("the search failed")),
    }
}

/// Cancels a search when dropped: when its request's future is dropped
/// (its connection aborted at the shutdown's deadline) or the search has
/// ended (then it stops nothing).
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The report's keys beside the answer's.
fn report_keys(report: &AnswerReport) -> serde_json::Map<String, Value> {
    let mut keys = serde_json::Map::new();
    keys.insert("engine".into(), report.by.name().into());
    keys.insert("positions_searched".into(), report.positions.into());
    keys.insert("seconds".into(), report.seconds.into());
    keys.insert("reached".into(), report.answer.is_some().into());
    keys
}

/// A JSON body already serialized.
struct JsonBytes(Vec<u8>);

impl IntoResponse for JsonBytes {
    fn into_response(self) -> Response {
        ([(header::CONTENT_TYPE, "application/json")], self.0).into_response()
    }
}

/// `value` serialized, with `keys` after its own (`value` serializes to an
/// object): the answer is written once, not built as a tree first.
fn with_keys(
    value: &impl serde::Serialize,
    keys: serde_json::Map<String, Value>,
) -> Result<JsonBytes, ApiError> {
    let fail = |e: serde_json::Error| ApiError::internal(format!("an answer without JSON: {e}"));
    let mut bytes = serde_json::to_vec(value).map_err(fail)?;
    let tail = serde_json::to_vec(&keys).map_err(fail)?;
    match (bytes.pop(), bytes.last()) {
        (Some(b'}'), Some(b'{')) => bytes.extend_from_slice(&tail[1..]),
        (Some(b'}'), _) if tail.len() > 2 => {
            bytes.push(b',');
            bytes.extend_from_slice(&tail[1..]);
        }
        (Some(b'}'), _) => bytes.push(b'}'),
        _ => return Err(ApiError::internal("an answer that is not an object")),
    }
    Ok(JsonBytes(bytes))
}

/// The response of `work`.
async fn respond(work: impl std::future::Future<Output = Result<JsonBytes, ApiError>>) -> Response {
    match work.await {
        Ok(body) => body.into_response(),
        Err(err) => err.into_response(),
    }
}

/// `GET /api/v1/analyze`.
pub async fn analyze(Shared(state): Shared<Arc<State>>, uri: Uri) -> Response {
    let work = async {
        let asked = parse(&uri, state.move_seconds)?;
        let report = answer(&state, asked).await?;
        state
            .metrics
            .answer(report.by.name(), report.answer.is_some());
        match &report.answer {
            Some(a) => with_keys(a, report_keys(&report)),
            None => with_keys(&json!({}), report_keys(&report)),
        }
    };
    respond(work).await
}

/// `GET /api/v1/move`: the best move of the answer with one best move.
pub async fn best_move(Shared(state): Shared<Arc<State>>, uri: Uri) -> Response {
    let work = async {
        let mut asked = parse(&uri, state.move_seconds)?;
        if asked.game.status(&asked.position) != Status::InProgress {
            return Err(ApiError::bad("the game is over: no move to play"));
        }
        asked.detail = MoveDetail::Best;
        let report = answer(&state, asked).await?;
        state
            .metrics
            .answer(report.by.name(), report.answer.is_some());
        let best = report
            .answer
            .as_ref()
            .and_then(|a| a.moves.iter().find(|m| m.best));
        let value = json!({
            "move": best.map(|m| m.notation.clone()),
            "value": best.and_then(|m| m.value),
            "depth": best.and_then(|m| m.depth),
        });
        with_keys(&value, report_keys(&report))
    };
    respond(work).await
}

/// `GET /healthz`: up, and the boards of the loaded tables.
pub async fn healthz(Shared(state): Shared<Arc<State>>) -> Response {
    let work = async {
        let tables: Vec<Value> = state
            .boards
            .tables()
            .map(|(_, b)| {
                json!({
                    "game": match b.family() { Family::Gravity => "connect", Family::Mnk => "mnk" },
                    "cols": b.cols(),
                    "rows": b.rows(),
                    "k": b.k(),
                })
            })
            .collect();
        with_keys(
            &json!({ "status": "ok", "tables": tables }),
            serde_json::Map::new(),
        )
    };
    respond(work).await
}

/// Any other path: 404 with the API's paths.
pub async fn not_found(uri: Uri) -> Response {
    ApiError {
        code: StatusCode::NOT_FOUND,
        message: format!(
            "no such path {:?}: the page is /, the API /api/v1/analyze, /api/v1/move, /healthz, /metrics",
            uri.path()
        ),
        retry_after: None,
    }
    .into_response()
}

/// A handler that panicked: 500, and the server goes on.
pub fn panicked(_: Box<dyn std::any::Any + Send + 'static>) -> Response {
    ApiError::internal("the server failed on this request").into_response()
}
