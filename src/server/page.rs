//! The page at `/`: an analysis board for Connect Four of any size and
//! m,n,k boards (gomoku included), in one file of HTML, CSS and vanilla
//! JavaScript embedded in the binary (no build step, nothing fetched but
//! the API). Click to move, undo and redo (← →), every legal move's value
//! and depth on the board in a colour-blind-safe palette (blue, grey,
//! orange, each with its letter), the best moves ringed, play against
//! perfect play as either side, the position in the URL's hash.

use axum::http::header;
use axum::response::IntoResponse;

/// The page.
pub const PAGE: &str = include_str!("page.html");

/// `GET /`.
pub async fn index() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        PAGE,
    )
}
