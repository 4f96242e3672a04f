//! A game of one's own over HTTP (a server started by the game's own
//! program, `PROGRAM serve`, crate `retrograde-own`):
//!
//! * `GET /api/v1/own?moves=M` — the answer `PROGRAM query --json`
//!   prints for the position the moves reach (names as the rules give
//!   them, separated by spaces or commas): `game`, `key`, `position` (the
//!   rules' drawing, as text), `value`, `depth`, `over` and every move's
//!   `move`, `value`, `depth` and `best`. A move that is not legal gets
//!   400 and the one-line error.
//! * `GET /` — a page that shows those answers as text, every move a
//!   button (`own.html`, embedded in the binary).
//!
//! The answers come from the table the program loaded (certified against
//! its rules) through [`OwnGame::answer`]; the server knows neither the
//! rules nor the position's type.

use std::sync::Arc;

use axum::extract::State as Shared;
use axum::http::{header, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

use super::api::{given, query_pairs, respond, with_keys, ApiError};
use super::State;

/// The page of a game of one's own, with `{{GAME}}` where its name goes.
const PAGE: &str = include_str!("own.html");

/// The keys `/api/v1/own` takes.
const KEYS: [&str; 1] = ["moves"];

/// The answerer of one position given by its moves: the JSON answer, or
/// why not.
pub type Answerer = Box<dyn Fn(&str) -> Result<Value, Refusal> + Send + Sync>;

/// Why an [`Answerer`] gave no answer.
#[derive(Debug)]
pub enum Refusal {
    /// The moves are not a line of the game (400, with this line).
    BadMoves(String),
    /// The server failed (500, with this line).
    Failed(String),
}

impl From<Refusal> for ApiError {
    fn from(refusal: Refusal) -> Self {
        match refusal {
            Refusal::BadMoves(line) => ApiError::bad(line),
            Refusal::Failed(line) => ApiError::internal(line),
        }
    }
}

/// A solved game of one's own, as a server holds it.
pub struct OwnGame {
    /// The game's name ([`retrograde::own::Rules::name`]).
    pub name: String,
    /// The positions of its table.
    pub positions: u64,
    /// The answer of the position a move list reaches.
    pub answer: Answerer,
}

/// `GET /api/v1/own`.
pub async fn answer(Shared(state): Shared<Arc<State>>, uri: Uri) -> Response {
    let work = async {
        let pairs = query_pairs(&uri)?;
        let moves = given(&pairs, &KEYS)?
            .first()
            .map_or(String::new(), |(_, v)| v.to_string());
        let shared = Arc::clone(&state);
        let answered = tokio::task::spawn_blocking(move || {
            let own = shared.own.as_ref().ok_or_else(no_own_game)?;
            (own.answer)(&moves).map_err(ApiError::from)
        })
        .await
        .map_err(|e| ApiError::internal(format!("the answer failed: {e}")))??;
        with_keys(&answered, serde_json::Map::new())
    };
    respond(work).await
}

/// What `/healthz` says of the game of one's own.
pub fn health(own: &OwnGame) -> Value {
    json!({ "name": own.name, "positions": own.positions })
}

/// `GET /` on a server of a game of one's own.
pub async fn page(Shared(state): Shared<Arc<State>>) -> Response {
    let Some(own) = state.own.as_ref() else {
        return no_own_game().into_response();
    };
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        PAGE.replace("{{GAME}}", &escape_html(&own.name)),
    )
        .into_response()
}

fn no_own_game() -> ApiError {
    ApiError::bad("this server answers no game of one's own: its program's `serve` does")
}

/// `text` safe inside HTML.
fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use axum::body::Body;
    use axum::http::{Request, StatusCode};
    use http_body_util::BodyExt;
    use retrograde::host::{Budget, Silent};
    use retrograde::language::Outcome;
    use retrograde::own::{play_moves, solve_within, Rules};
    use serde_json::Value;
    use tokio::sync::Semaphore;

    use super::{OwnGame, Refusal};
    use crate::{boards::Boards, metrics::Metrics, router, State};

    /// Take 1 or 2 from a heap of 7; who cannot move loses.
    struct Take2;

    impl Rules for Take2 {
        type Position = u32;
        fn name(&self) -> String {
            "take <2>".into()
        }
        fn start(&self) -> u32 {
            7
        }
        fn moves(&self, heap: &u32, children: &mut Vec<u32>) {
            children.extend((1..=2).filter(|t| t <= heap).map(|t| heap - t));
        }
        fn outcome(&self, _: &u32) -> Option<Outcome> {
            None
        }
        fn move_name(&self, from: &u32, _: usize, to: &u32) -> String {
            format!("take{}", from - to)
        }
    }

    fn server_of_take2() -> axum::Router {
        let solution = solve_within(&Take2, &Budget::default_for_machine(), &Silent).unwrap();
        let positions = solution.positions();
        let answer = Box::new(move |moves: &str| {
            let position =
                play_moves(&Take2, moves).map_err(|e| Refusal::BadMoves(e.to_string()))?;
            serde_json::to_value(solution.answer(&Take2, position))
                .map_err(|e| Refusal::Failed(e.to_string()))
        });
        let state = State {
            boards: Boards::none(Budget::default_for_machine(), 1).unwrap(),
            move_seconds: std::time::Duration::from_secs(1),
            waiting: Arc::new(Semaphore::new(1)),
            running: Arc::new(Semaphore::new(1)),
            metrics: Metrics::default(),
            page: String::new(),
            own: Some(OwnGame {
                name: Take2.name(),
                positions,
                answer,
            }),
        };
        router(Arc::new(state))
    }

    async fn get(app: &axum::Router, path: &str) -> (StatusCode, String) {
        let request = Request::get(path).body(Body::empty()).unwrap();
        let response = tower::ServiceExt::oneshot(app.clone(), request)
            .await
            .unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (status, String::from_utf8(bytes.to_vec()).unwrap())
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_game_of_one_s_own_is_answered_by_its_moves() {
        let app = server_of_take2();
        let (status, body) = get(&app, "/api/v1/own").await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let start: Value = serde_json::from_str(&body).unwrap();
        // 7 is not a multiple of 3: won in 5 plies, by taking 1
        assert_eq!(start["value"], "win");
        assert_eq!(start["depth"], 5);
        assert_eq!(start["moves"][0]["move"], "take1");
        assert_eq!(start["moves"][0]["best"], true);
        assert_eq!(start["moves"][1]["value"], "loss");
        let (status, body) = get(&app, "/api/v1/own?moves=take1%20take2").await;
        assert_eq!(status, StatusCode::OK);
        let four: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(
            (four["value"].as_str(), four["depth"].as_u64()),
            (Some("win"), Some(3))
        );
        for (path, says) in [
            ("/api/v1/own?moves=take3", "(take3) is not legal here"),
            (
                "/api/v1/own?moves=take1&moves=take1",
                "moves is given twice",
            ),
            ("/api/v1/own?heap=3", "unknown key \"heap\""),
        ] {
            let (status, body) = get(&app, path).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{path}");
            let error: Value = serde_json::from_str(&body).unwrap();
            assert!(
                error["error"].as_str().unwrap().contains(says),
                "{path}: {body}"
            );
        }
        // the board routes are not this server's
        let (status, _) = get(&app, "/api/v1/analyze?game=connect").await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (status, body) = get(&app, "/healthz").await;
        assert_eq!(status, StatusCode::OK);
        let health: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(health["own"]["positions"], 8);
        // the page names the game, its name made safe for HTML
        let (status, page) = get(&app, "/").await;
        assert_eq!(status, StatusCode::OK);
        assert!(
            page.contains("<title>take &lt;2&gt; · retrograde</title>"),
            "{page}"
        );
        assert!(!page.contains("{{GAME}}"));
    }
}
