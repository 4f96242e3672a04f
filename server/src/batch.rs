//! `POST /api/v1/batch`: many positions of one board in one request, for
//! programs (a benchmark scoring an agent's moves, a training pipeline).
//!
//! The body is a JSON object with the GET endpoints' keys, in the same
//! words and checked by the same code (`api::terms`), numbers as
//! numbers or strings, and `positions` for `moves`:
//!
//! ```json
//! {"game": "connect", "cols": 7, "rows": 6, "k": 4,
//!  "positions": ["", "4 4", "4453"], "detail": "all", "time_limit": 10}
//! ```
//!
//! The answer is `{"answers": [...], "seconds": S}`, one answer a
//! position, in order: the object `/api/v1/analyze` gives (with
//! `best_so_far` where the search ran out on it); `{"reached": false}`
//! for a position the batch's time ran out before; `{"error": "…"}` for a
//! position that cannot be read or played (the others are answered).
//!
//! Bounds: a body of at most [`BATCH_BODY_BYTES`] (413 past it), at most
//! [`MAX_POSITIONS`] positions (400 past them), the whole batch within
//! its `time_limit`: from the server's floor to [`BATCH_TIME_FACTOR`] ×
//! `--move-seconds`, that product by default. Each position's search
//! gets at most `--move-seconds` of what is left, so one hard position
//! does not take the others' time. A batch is one search in the queue: it
//! waits its turn like a GET (503 when the queue is full, or when the
//! searches ahead take its whole limit), then answers its positions in
//! turn holding the search; a board with a loaded table is answered from
//! it without queueing.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::State as Shared;
use axum::response::Response;
use retrograde::facade::{answer_from_table, check_searchable, AnswerReport};
use serde_json::{json, Value};

use super::api::{
    blocking, given, question, report_keys, respond, search_slot, terms, with_keys, ApiError,
    Asked, TimeRange, MIN_TIME_LIMIT,
};
use super::State;

/// The most bytes of a batch's body: 1,000 move lists of a full 7×6 board
/// in spaced notation take about 85 KiB.
pub const BATCH_BODY_BYTES: usize = 256 * 1024;

/// The most positions of one batch.
pub const MAX_POSITIONS: usize = 1000;

/// A batch's longest time limit (and its default), in `--move-seconds`.
pub const BATCH_TIME_FACTOR: u32 = 10;

/// The keys a batch's body may give.
const KEYS: [&str; 8] = [
    "game",
    "cols",
    "rows",
    "k",
    "positions",
    "detail",
    "precision",
    "time_limit",
];

/// A parsed batch: its terms and its move lists.
struct Batch {
    terms: super::api::Terms,
    positions: Vec<String>,
}

/// The batch of `body` (refusals in the GET endpoints' words).
fn parse(body: &[u8], move_seconds: Duration) -> Result<Batch, ApiError> {
    let value: Value = serde_json::from_slice(body)
        .map_err(|e| ApiError::bad(format!("the body is not JSON: {e}")))?;
    let Value::Object(map) = value else {
        return Err(ApiError::bad(
            "the body must be a JSON object: {\"game\": …, \"positions\": [move lists]}",
        ));
    };
    let mut pairs: Vec<(String, String)> = Vec::new();
    let mut positions = None;
    for (key, value) in map {
        if key == "positions" {
            positions = Some(move_lists(value)?);
            continue;
        }
        let text = match value {
            Value::String(text) => text,
            Value::Number(n) => n.to_string(),
            other => {
                return Err(ApiError::bad(format!(
                    "{key} must be a string or a number, not {other}"
                )))
            }
        };
        pairs.push((key, text));
    }
    let given = given(&pairs, &KEYS)?;
    let most = move_seconds * BATCH_TIME_FACTOR;
    let time = TimeRange {
        default: most,
        most,
        most_named: format!("a batch's most: {BATCH_TIME_FACTOR} × the server's --move-seconds"),
    };
    let terms = terms(&given, &time)?;
    let positions =
        positions.ok_or_else(|| ApiError::bad("positions is missing: a list of move lists"))?;
    Ok(Batch { terms, positions })
}

/// The move lists of `value`: a list of at most [`MAX_POSITIONS`] strings.
fn move_lists(value: Value) -> Result<Vec<String>, ApiError> {
    let Value::Array(items) = value else {
        return Err(ApiError::bad(
            "positions must be a list of move lists (strings)",
        ));
    };
    if items.len() > MAX_POSITIONS {
        return Err(ApiError::bad(format!(
            "{} positions, over the {MAX_POSITIONS} a batch takes",
            items.len()
        )));
    }
    items
        .into_iter()
        .map(|item| match item {
            Value::String(moves) => Ok(moves),
            other => Err(ApiError::bad(format!(
                "positions must be move lists (strings), not {other}"
            ))),
        })
        .collect()
}

/// One position's answer as the batch gives it: the analyze object, or
/// `{"error": …}`.
fn answer_object(report: retrograde::Result<AnswerReport>) -> Value {
    let report = match report {
        Ok(report) => report,
        Err(e) => return json!({ "error": e.to_string() }),
    };
    let mut object = match &report.answer {
        Some(a) => match serde_json::to_value(a) {
            Ok(Value::Object(map)) => map,
            _ => return json!({ "error": "an answer without JSON" }),
        },
        None => serde_json::Map::new(),
    };
    object.extend(report_keys(&report));
    Value::Object(object)
}

/// The answers of `batch`, in order (module docs).
async fn answers(state: &Arc<State>, batch: Batch) -> Result<Vec<Value>, ApiError> {
    let Batch { terms, positions } = batch;
    let game = terms.game.clone();
    let shared = Arc::clone(state);
    if state.boards.table_for(&game).is_some() {
        return blocking(move |_| {
            let table = shared.boards.table_for(&game);
            let oracle = table.and_then(|t| t.oracle());
            let Some(oracle) = oracle else {
                return Err(ApiError::internal("a board table without answers"));
            };
            Ok(positions
                .iter()
                .map(|moves| {
                    let report = game
                        .play_moves(moves)
                        .and_then(|p| answer_from_table(&game, oracle.as_ref(), &p, terms.detail));
                    if let Ok(r) = &report {
                        shared.metrics.answer(r.by.name(), r.answer.is_some());
                    }
                    answer_object(report)
                })
                .collect())
        })
        .await?;
    }
    check_searchable(&game)?;
    let deadline = tokio::time::Instant::now() + terms.time_limit;
    let slot = search_slot(state, deadline).await?;
    let most = state.move_seconds;
    blocking(move |cancel| {
        let _slot = slot;
        let searcher = shared.boards.searcher_for(&game)?;
        let mut answers = Vec::with_capacity(positions.len());
        for moves in &positions {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            if left < MIN_TIME_LIMIT {
                answers.push(json!({ "reached": false }));
                continue;
            }
            let position = match game.play_moves(moves) {
                Ok(p) => p,
                Err(e) => {
                    answers.push(json!({ "error": e.to_string() }));
                    continue;
                }
            };
            let asked = Asked {
                game: game.clone(),
                position,
                detail: terms.detail,
                precision: terms.precision,
                time_limit: left.min(most),
            };
            let question = question(&searcher, &asked, asked.time_limit, cancel);
            let report = shared
                .boards
                .analyzer()
                .answer(&game, None, Some(&searcher), &question);
            if let Ok(r) = &report {
                shared.metrics.answer(r.by.name(), r.answer.is_some());
            }
            answers.push(answer_object(report));
        }
        Ok::<_, ApiError>(answers)
    })
    .await?
}

/// `POST /api/v1/batch` (module docs).
pub async fn batch(Shared(state): Shared<Arc<State>>, body: Bytes) -> Response {
    let work = async {
        let started = std::time::Instant::now();
        let batch = parse(&body, state.move_seconds)?;
        let answers = answers(&state, batch).await?;
        let mut keys = serde_json::Map::new();
        keys.insert("seconds".into(), started.elapsed().as_secs_f64().into());
        with_keys(&json!({ "answers": answers }), keys)
    };
    respond(work).await
}
