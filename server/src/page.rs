//! The page at `/`: an analysis board for Connect Four (boards of up to
//! 64 cells, as the searches take) and m,n,k boards (gomoku included), in
//! one file of HTML, CSS and vanilla JavaScript embedded in the binary (no
//! build step, nothing fetched but the API; the favicon is inline).
//! Coordinates (column numbers; m,n,k letters and rows from 1 at the top,
//! as the API names cells), stones marked X and O, the last move ringed;
//! every legal move's value and distance where it would be played, in a
//! colour-blind-safe palette (blue, grey, orange, each with its letter,
//! text at least 4.5:1), the best moves ringed, as the legend draws them;
//! the evaluation (Pons' score on gravity boards), a best line, a move list
//! to click back through; play against the engine as either side (its move
//! always played, marked when not proved); on boards past 64 cells the best
//! move asked first; the position in the URL's hash. The page opens on
//! `OPENING` in page.html when the URL names no position.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::State as Shared;
use axum::http::header;
use axum::response::IntoResponse;

use super::State;

/// The page as written, with `{{MOVE_SECONDS}}` where the server's
/// `--move-seconds` goes (the default and the most of its time input).
const TEMPLATE: &str = include_str!("page.html");

/// The page a server with `move_seconds` serves.
pub fn page(move_seconds: Duration) -> String {
    TEMPLATE.replace("{{MOVE_SECONDS}}", &move_seconds.as_secs_f64().to_string())
}

/// `GET /`.
pub async fn index(Shared(state): Shared<Arc<State>>) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        state.page.clone(),
    )
}
