//! `/metrics` in Prometheus' text format: requests by endpoint, responses
//! by status code, answers by the engine that gave them, searches waiting,
//! connections refused, and a latency histogram of the API's requests.
//! Every response passes [`observe`], which counts it and gives the
//! stack's own refusals (404, 405, 413) the API's JSON shape (a body that
//! stalls gets 408, one that cannot be read 400, in that shape already); a
//! 431 or a header timeout is hyper's, before any request, and is not
//! counted. Written by hand: a few
//! atomic counters and fixed buckets, which the format prints as lines
//! (a metrics crate would bring a registry and a second exporter for
//! what these 100 lines do).

use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

use std::time::Instant;

use axum::extract::{Request, State as Shared};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::State;

/// The latency buckets' upper bounds, in seconds.
pub const BUCKETS: [f64; 12] = [
    0.000_5, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1.0, 5.0, 30.0,
];

/// The endpoints counted, by path (any other path is `other`).
pub const ENDPOINTS: [(&str, &str); 8] = [
    ("analyze", "/api/v1/analyze"),
    ("own", "/api/v1/own"),
    ("move", "/api/v1/move"),
    ("batch", "/api/v1/batch"),
    ("healthz", "/healthz"),
    ("metrics", "/metrics"),
    ("page", "/"),
    ("other", ""),
];

/// The status codes counted (any other is counted as 500).
pub const CODES: [u16; 8] = [200, 400, 404, 405, 408, 413, 500, 503];

/// The engines an answer comes from (`AnsweredBy::name`).
pub const ENGINES: [&str; 6] = [
    "table",
    "search",
    "zones_then_search",
    "general_search",
    "threats",
    "provers",
];

/// The server's counters.
#[derive(Default)]
pub struct Metrics {
    requests: [AtomicU64; ENDPOINTS.len()],
    responses: [AtomicU64; CODES.len()],
    answers: [AtomicU64; ENGINES.len()],
    not_reached: AtomicU64,
    /// Counts of API requests at most each bucket's bound (not yet
    /// cumulative), and one past the last.
    latency: [AtomicU64; BUCKETS.len() + 1],
    latency_sum_micros: AtomicU64,
    /// Searches waiting or running ([`super::Counted`] a search).
    pub searches: Arc<AtomicU64>,
    /// Connections closed at once: [`super::MAX_CONNECTIONS`] were open.
    refused: AtomicU64,
}

impl Metrics {
    /// Counts a request of `path` answered `code` in `seconds` (the
    /// latency of the API's two endpoints only).
    pub fn request(&self, path: &str, code: u16, seconds: f64) {
        let endpoint = ENDPOINTS
            .iter()
            .position(|(_, p)| *p == path)
            .unwrap_or(ENDPOINTS.len() - 1);
        self.requests[endpoint].fetch_add(1, Relaxed);
        let c = CODES.iter().position(|c| *c == code);
        let c = c.unwrap_or_else(|| CODES.iter().position(|c| *c == 500).expect("500"));
        self.responses[c].fetch_add(1, Relaxed);
        if matches!(ENDPOINTS[endpoint].0, "analyze" | "move") {
            let b = BUCKETS
                .iter()
                .position(|bound| seconds <= *bound)
                .unwrap_or(BUCKETS.len());
            self.latency[b].fetch_add(1, Relaxed);
            self.latency_sum_micros
                .fetch_add((seconds * 1e6) as u64, Relaxed);
        }
    }

    /// Counts a connection closed at once (too many open).
    pub fn refused_connection(&self) {
        self.refused.fetch_add(1, Relaxed);
    }

    /// Counts an answer by `engine` (`reached`: its search finished).
    pub fn answer(&self, engine: &str, reached: bool) {
        if let Some(i) = ENGINES.iter().position(|e| *e == engine) {
            self.answers[i].fetch_add(1, Relaxed);
        }
        if !reached {
            self.not_reached.fetch_add(1, Relaxed);
        }
    }

    /// The text of `/metrics`.
    pub fn text(&self) -> String {
        let mut text = String::new();
        labelled(
            &mut text,
            "requests_total",
            "Requests by endpoint.",
            "endpoint",
            &ENDPOINTS.map(|(name, _)| name),
            &self.requests,
        );
        let codes = CODES.map(|c| c.to_string());
        labelled(
            &mut text,
            "responses_total",
            "Responses by status code.",
            "code",
            &codes,
            &self.responses,
        );
        labelled(
            &mut text,
            "answers_total",
            "Answers by the engine that gave them.",
            "engine",
            &ENGINES,
            &self.answers,
        );
        header(
            &mut text,
            "not_reached_total",
            "counter",
            "Searches stopped by their time limit.",
        );
        let _ = writeln!(
            text,
            "retrograde_not_reached_total {}",
            self.not_reached.load(Relaxed)
        );
        header(
            &mut text,
            "searches",
            "gauge",
            "Searches waiting or running.",
        );
        let _ = writeln!(text, "retrograde_searches {}", self.searches.load(Relaxed));
        header(
            &mut text,
            "refused_connections_total",
            "counter",
            "Connections closed at once: the most were open.",
        );
        let _ = writeln!(
            text,
            "retrograde_refused_connections_total {}",
            self.refused.load(Relaxed)
        );
        header(
            &mut text,
            "request_seconds",
            "histogram",
            "Latency of the API's requests.",
        );
        let mut cumulative = 0;
        for (i, n) in self.latency.iter().enumerate() {
            cumulative += n.load(Relaxed);
            let bound = BUCKETS.get(i).map_or("+Inf".to_string(), |b| b.to_string());
            let _ = writeln!(
                text,
                "retrograde_request_seconds_bucket{{le=\"{bound}\"}} {cumulative}"
            );
        }
        let _ = writeln!(
            text,
            "retrograde_request_seconds_sum {}\nretrograde_request_seconds_count {cumulative}",
            self.latency_sum_micros.load(Relaxed) as f64 / 1e6
        );
        text
    }
}

/// The `# HELP` and `# TYPE` lines of the family `retrograde_NAME`.
fn header(text: &mut String, name: &str, kind: &str, help: &str) {
    let _ = writeln!(
        text,
        "# HELP retrograde_{name} {help}\n# TYPE retrograde_{name} {kind}"
    );
}

/// The counter family `retrograde_NAME`: one line a value of `label`.
fn labelled(
    text: &mut String,
    name: &str,
    help: &str,
    label: &str,
    values: &[impl std::fmt::Display],
    counts: &[AtomicU64],
) {
    header(text, name, "counter", help);
    for (value, n) in values.iter().zip(counts) {
        let _ = writeln!(
            text,
            "retrograde_{name}{{{label}=\"{value}\"}} {}",
            n.load(Relaxed)
        );
    }
}

/// `GET /metrics`.
pub async fn render(Shared(state): Shared<Arc<State>>) -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        state.metrics.text(),
    )
}

/// Every request: its response counted, and a refusal of the stack's own
/// (an unknown method, a body over the limit) given the API's shape,
/// `{"error": "the one-line error"}`.
pub async fn observe(Shared(state): Shared<Arc<State>>, request: Request, next: Next) -> Response {
    let started = Instant::now();
    let path = request.uri().path().to_owned();
    let method = request.method().clone();
    let mut response = next.run(request).await;
    let code = response.status();
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"application/json"));
    if !json && (code.is_client_error() || code.is_server_error()) {
        let message = match code {
            StatusCode::METHOD_NOT_ALLOWED => {
                format!(
                    "{method} is not served at {path}: the API answers GET (POST at /api/v1/batch)"
                )
            }
            StatusCode::PAYLOAD_TOO_LARGE => {
                "the request's body is over the 1 KiB taken: the API reads its query string"
                    .to_string()
            }
            other => other
                .canonical_reason()
                .unwrap_or("the request failed")
                .to_lowercase(),
        };
        let headers = std::mem::take(response.headers_mut());
        response = (code, axum::Json(serde_json::json!({ "error": message }))).into_response();
        for name in [header::ALLOW, header::RETRY_AFTER] {
            if let Some(value) = headers.get(&name) {
                response.headers_mut().insert(name, value.clone());
            }
        }
    }
    state
        .metrics
        .request(&path, code.as_u16(), started.elapsed().as_secs_f64());
    response
}
