//! The JSON API, version 1 (docs/GUIDE.md, "serve"):
//!
//! * `GET /api/v1/analyze?game=connect|mnk&cols=C&rows=R&k=K&moves=M` —
//!   the position answer `search --json` and `query --json` print
//!   (status, value, depth, score on gravity boards, every legal move's
//!   value, the best moves), with `engine` (which answered: `table`,
//!   `search`, `zones_then_search`, `general_search`, `threats`),
//!   `positions_searched`, `seconds` and `reached` (false: the search's
//!   time ran out; then no answer keys), and for a position in play whose
//!   answer names no best move `best_so_far: {"move", "proved": false}`
//!   (the facade's fallback, [`retrograde::facade::best_so_far`]).
//!   Optional: `detail=best` (one best move), `precision=weak` (values
//!   without depths), `time_limit=S` (from [`MIN_TIME_LIMIT`] to the
//!   server's `--move-seconds`, its default).
//! * `GET /api/v1/move?…` (the same keys) — a move for play, always one
//!   for a position in play: `move` (its notation), `proved` (true: it
//!   keeps the value; false: the best so far), `value` and `depth` (of a
//!   proved move, else null), `engine`, `seconds`, `reached`.
//! * `POST /api/v1/batch` — many positions of one board in one request
//!   ([`super::batch`]).
//! * `GET /healthz` — `{"status": "ok", "tables": [the boards]}`, and on
//!   a server of a game of one's own `"own": {"name", "positions"}`.
//! * On a server of a game of one's own, `GET /api/v1/own` instead of the
//!   boards' routes ([`super::own`]).
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
use retrograde::{
    facade::{check_searchable, AnswerReport, BestSoFar, PositionSearcher, Precision, Question},
    language::{BoardGame, MoveDetail, Status},
    BoardSize, Family, Position,
};
use serde_json::{json, Value};
use tokio::sync::OwnedSemaphorePermit;

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

    pub(super) fn bad(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }

    pub(super) fn internal(message: impl Into<String>) -> Self {
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
pub(super) struct Asked {
    pub(super) game: BoardGame,
    pub(super) position: Position,
    pub(super) detail: MoveDetail,
    pub(super) precision: Precision,
    pub(super) time_limit: Duration,
}

/// What a question asks beside its position: the board, the detail, the
/// precision and the time limit (a GET's query string and a batch's
/// body give them in the same words).
pub(super) struct Terms {
    pub(super) game: BoardGame,
    pub(super) detail: MoveDetail,
    pub(super) precision: Precision,
    pub(super) time_limit: Duration,
}

/// The range of a request's `time_limit`: its default and its most, and
/// what the most is called in a refusal.
pub(super) struct TimeRange {
    pub(super) default: Duration,
    pub(super) most: Duration,
    pub(super) most_named: String,
}

/// `pairs` as the keys and values of a question, each key one of `keys`
/// and given once.
pub(super) fn given<'a>(
    pairs: &'a [(String, String)],
    keys: &[&str],
) -> Result<Vec<(&'a str, &'a str)>, ApiError> {
    let mut given: Vec<(&str, &str)> = Vec::new();
    for (key, value) in pairs {
        if !keys.contains(&key.as_str()) {
            return Err(ApiError::bad(format!(
                "unknown key {key:?}: the keys are {}",
                keys.join(", ")
            )));
        }
        if given.iter().any(|(k, _)| k == key) {
            return Err(ApiError::bad(format!("{key} is given twice")));
        }
        given.push((key, value));
    }
    Ok(given)
}

/// The terms of the keys and values `given` (from [`given`]), the time
/// limit within `time`.
pub(super) fn terms(given: &[(&str, &str)], time: &TimeRange) -> Result<Terms, ApiError> {
    let get = |key: &str| given.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
    let number = |key: &str| -> Result<Option<u32>, ApiError> {
        get(key)
            .map(|v| {
                v.parse::<u32>()
                    .map_err(|_| ApiError::bad(format!("{key}={v:?} is not a whole number")))
            })
            .transpose()
    };
    let family = match get("game") {
        // the API takes each family's one name ("gravity" is Python's alias)
        Some(name) => Family::named(name)
            .filter(|f| f.name() == name)
            .ok_or_else(|| ApiError::bad(format!("unknown game {name:?}: connect or mnk")))?,
        None => return Err(ApiError::bad("game is missing: connect or mnk")),
    };
    let board = family.default_board();
    let size = BoardSize::new(
        number("cols")?.unwrap_or(board.cols),
        number("rows")?.unwrap_or(board.rows),
        number("k")?.unwrap_or(board.k),
    );
    let game = BoardGame::new(family, size)?;
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
        None => time.default,
        Some(text) => match text.parse::<f64>() {
            Ok(s)
                if s.is_finite()
                    && s >= MIN_TIME_LIMIT.as_secs_f64()
                    && s <= time.most.as_secs_f64() =>
            {
                Duration::from_secs_f64(s)
            }
            _ => {
                return Err(ApiError::bad(format!(
                    "time_limit={text:?} must be a number of seconds from {} (the server's \
                     floor: no search starts with less) to {} ({})",
                    MIN_TIME_LIMIT.as_secs_f64(),
                    time.most.as_secs_f64(),
                    time.most_named
                )))
            }
        },
    };
    Ok(Terms {
        game,
        detail,
        precision,
        time_limit,
    })
}

/// The keys and values of `uri`'s query string, at most
/// [`MAX_QUERY_BYTES`] of it.
pub(super) fn query_pairs(uri: &Uri) -> Result<Vec<(String, String)>, ApiError> {
    let query = uri.query().unwrap_or("");
    if query.len() > MAX_QUERY_BYTES {
        return Err(ApiError::bad(format!(
            "the query string has {} bytes, over the {MAX_QUERY_BYTES} taken",
            query.len()
        )));
    }
    serde_urlencoded::from_str(query)
        .map_err(|e| ApiError::bad(format!("the query string cannot be read: {e}")))
}

/// The question of `uri`'s query string.
fn parse(uri: &Uri, move_seconds: Duration) -> Result<Asked, ApiError> {
    let pairs = query_pairs(uri)?;
    let given = given(&pairs, &KEYS)?;
    let time = TimeRange {
        default: move_seconds,
        most: move_seconds,
        most_named: "its --move-seconds".into(),
    };
    let terms = terms(&given, &time)?;
    let moves = given
        .iter()
        .find(|(k, _)| *k == "moves")
        .map_or("", |(_, v)| *v);
    let position = terms.game.play_moves(moves)?;
    Ok(Asked {
        game: terms.game,
        position,
        detail: terms.detail,
        precision: terms.precision,
        time_limit: terms.time_limit,
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
/// search runs to its limit. A position in play not answered in time
/// gets the facade's best move so far ([`Question::best_so_far`]).
async fn answer(state: &Arc<State>, asked: Asked) -> Result<AnswerReport, ApiError> {
    if let Some(table) = state.boards.table_for(&asked.game) {
        let oracle = table
            .oracle()
            .ok_or_else(|| ApiError::internal("a board table without answers"))?;
        // the facade's cascade begins with the table: answered at once
        let question = Question {
            detail: asked.detail,
            ..Question::of(asked.position)
        };
        let analyzer = state.boards.analyzer();
        return Ok(analyzer.answer(&asked.game, Some(oracle.as_ref()), None, &question)?);
    }
    check_searchable(&asked.game)?;
    let deadline = tokio::time::Instant::now() + asked.time_limit;
    let slot = search_slot(state, deadline).await?;
    let shared = Arc::clone(state);
    let report = blocking(move |cancel| {
        let _slot = slot;
        let searcher = shared.boards.searcher_for(&asked.game)?;
        // the searcher's making counts against the limit too
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        let question = question(&searcher, &asked, left, cancel);
        shared
            .boards
            .analyzer()
            .answer(&asked.game, None, Some(&searcher), &question)
    })
    .await?;
    Ok(report?)
}

/// The search question of `asked` within `left`, stopped by `cancel`,
/// with the best move so far asked for.
pub(super) fn question<'a>(
    searcher: &PositionSearcher,
    asked: &Asked,
    left: Duration,
    cancel: &'a AtomicBool,
) -> Question<'a> {
    Question {
        position: asked.position,
        precision: searcher.precision_for(asked.precision),
        detail: asked.detail,
        time_limit: Some(left),
        cancel: Some(cancel),
        best_so_far: true,
    }
}

/// A request's turn at the search, held until dropped: its place in the
/// queue, the one search running, and its count in the metrics.
pub(super) struct SearchSlot {
    _held: (OwnedSemaphorePermit, OwnedSemaphorePermit, Counted),
}

/// The search slot, taken before `deadline`: 503 when `--queue` searches
/// wait already, or when the searches ahead leave less than
/// [`MIN_TIME_LIMIT`] before `deadline`.
pub(super) async fn search_slot(
    state: &Arc<State>,
    deadline: tokio::time::Instant,
) -> Result<SearchSlot, ApiError> {
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
    Ok(SearchSlot {
        _held: (waiting, running, searching),
    })
}

/// `work` on the blocking pool, given a flag set once the request's
/// future is dropped (the shutdown's deadline) or the work has ended.
pub(super) async fn blocking<T: Send + 'static>(
    work: impl FnOnce(&AtomicBool) -> T + Send + 'static,
) -> Result<T, ApiError> {
    let cancel = CancelOnDrop(Arc::new(AtomicBool::new(false)));
    let flag = Arc::clone(&cancel.0);
    let done = tokio::task::spawn_blocking(move || work(&flag)).await;
    drop(cancel);
    done.map_err(|_| ApiError::internal("the search failed"))
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
pub(super) fn report_keys(report: &AnswerReport) -> serde_json::Map<String, Value> {
    let mut keys = serde_json::Map::new();
    keys.insert("engine".into(), report.by.name().into());
    keys.insert("positions_searched".into(), report.positions.into());
    keys.insert("seconds".into(), report.seconds.into());
    keys.insert("reached".into(), report.answer.is_some().into());
    if let Some(found) = &report.best_so_far {
        keys.insert("best_so_far".into(), best_so_far(found));
    }
    keys
}

/// The best move so far as the API gives it: `{"move": …, "proved": false}`.
pub(super) fn best_so_far(found: &BestSoFar) -> Value {
    json!({ "move": found.notation, "proved": false })
}

/// A JSON body already serialized.
pub(super) struct JsonBytes(Vec<u8>);

impl IntoResponse for JsonBytes {
    fn into_response(self) -> Response {
        ([(header::CONTENT_TYPE, "application/json")], self.0).into_response()
    }
}

/// `value` serialized, with `keys` after its own (`value` serializes to an
/// object): the answer is written once, not built as a tree first.
pub(super) fn with_keys(
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
pub(super) async fn respond(
    work: impl std::future::Future<Output = Result<JsonBytes, ApiError>>,
) -> Response {
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
        // a proved move, else the best so far (the facade finds one for
        // every position in play)
        let (notation, proved) = match (best, &report.best_so_far) {
            (Some(m), _) => (Some(m.notation.clone()), true),
            (None, Some(found)) => (Some(found.notation.clone()), false),
            (None, None) => (None, false),
        };
        let value = json!({
            "move": notation,
            "proved": proved,
            "value": best.and_then(|m| m.value),
            "depth": best.and_then(|m| m.depth),
        });
        let mut keys = report_keys(&report);
        keys.remove("best_so_far");
        with_keys(&value, keys)
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
                    "game": b.family().name(),
                    "cols": b.cols(),
                    "rows": b.rows(),
                    "k": b.k(),
                })
            })
            .collect();
        let mut health = json!({ "status": "ok", "tables": tables });
        if let Some(own) = &state.own {
            health["own"] = super::own::health(own);
        }
        with_keys(&health, serde_json::Map::new())
    };
    respond(work).await
}

/// Any other path: 404 with the API's paths.
pub async fn not_found(uri: Uri) -> Response {
    ApiError {
        code: StatusCode::NOT_FOUND,
        message: format!(
            "no such path {:?}: the page is /, the API /api/v1/analyze, /api/v1/move, /api/v1/batch (a game of one's own: /api/v1/own), /healthz, /metrics",
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
