//! `retrograde serve` (issue 75): the API answers as `query --json` and
//! `search --json` answer, on a server at an ephemeral loopback port; every
//! bad request gets 400 and one line of JSON; a full search queue 503 with
//! `Retry-After`; searches end within their limits, the time waited
//! included; stalled connections hold neither the shutdown nor more than
//! their slots; the server shuts down on SIGTERM with exit 0.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::cli::{json_of, scratch_dir};

/// A server started for one test, stopped (SIGTERM) when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(args: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_retrograde"))
            .args(["serve", "--addr", "127.0.0.1:0", "--threads", "2"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .strip_prefix("listening on http://")
            .unwrap_or_else(|| panic!("the first line names the address: {line:?}"))
            .to_string();
        Server { child, addr }
    }

    /// A GET of `path`: (status, headers, body).
    fn get(&self, path: &str) -> (u16, String, String) {
        self.raw(&format!(
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.addr
        ))
    }

    /// A POST of `body` (JSON) to `path`: (status, headers, body).
    fn post(&self, path: &str, body: &str) -> (u16, String, String) {
        self.raw(&format!(
            "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.addr,
            body.len()
        ))
    }

    /// A GET that must answer 200 with JSON.
    fn json(&self, path: &str) -> Value {
        let (status, _, body) = self.get(path);
        assert_eq!(status, 200, "{path}: {body}");
        serde_json::from_str(&body).unwrap()
    }

    /// Stops the server with SIGTERM: it must end with exit 0. The
    /// seconds it took.
    fn stop(mut self) -> f64 {
        let pid = self.child.id() as i32;
        let asked = Instant::now();
        unsafe { libc::kill(pid, libc::SIGTERM) };
        let status = self.child.wait().unwrap();
        assert_eq!(status.code(), Some(0), "a graceful shutdown");
        let seconds = asked.elapsed().as_secs_f64();
        // the child is reaped: nothing left for Drop to do
        std::mem::forget(self);
        seconds
    }

    /// `request` written as it is on a new connection: (status, head,
    /// body) of the response.
    fn raw(&self, request: &str) -> (u16, String, String) {
        let mut stream = TcpStream::connect(&self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        let mut response = String::new();
        // a server that refuses a body may reset the connection after its
        // response: an error then, but not before the response
        if let Err(e) = stream.read_to_string(&mut response) {
            assert!(!response.is_empty(), "no response: {e}");
        }
        let (head, body) = response.split_once("\r\n\r\n").expect("a head and a body");
        let status = head.split(' ').nth(1).unwrap().parse().unwrap();
        (status, head.to_lowercase(), body.to_string())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `value` without the keys that say how an answer was obtained (time,
/// nodes, threads, which engine), which differ between front ends.
fn answer_only(mut value: Value) -> Value {
    let map = value.as_object_mut().unwrap();
    for key in [
        "book",
        "engine",
        "positions_searched",
        "seconds",
        "reached",
        "loaded",
        "threads",
        "nodes",
        "nodes_per_second",
        "transposition_hits",
        "method",
    ] {
        map.remove(key);
    }
    value
}

/// Seeded move lists on a gravity board of `cols` columns.
fn move_lists(cols: u32, count: u64, most: u64) -> Vec<String> {
    (0..count)
        .map(|seed| {
            let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            let plies = seed % most;
            (0..plies)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    (state % u64::from(cols) + 1).to_string()
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

#[test]
fn table_answers_equal_query_and_search_answers_equal_search() {
    let dir = scratch_dir("serve", "answers");
    let table = dir.join("c54.rtb");
    let t = table.to_str().unwrap();
    json_of(&[
        "connect", "--cols", "5", "--rows", "4", "--out", t, "--json",
    ]);
    let server = Server::start(&["--table", t, "--move-seconds", "60"]);
    let mut from_table = 0;
    for moves in move_lists(5, 60, 14) {
        let query = format!(
            "/api/v1/analyze?game=connect&cols=5&rows=4&moves={}",
            moves.replace(' ', "+")
        );
        let (status, _, body) = server.get(&query);
        // a random move list may play into a full column or past the end
        let cli = crate::common::cli::retrograde(&["query", t, "--moves", &moves, "--json"]);
        if status == 400 {
            assert_eq!(cli.status.code(), Some(2), "{moves}: {body}");
            continue;
        }
        assert_eq!(status, 200, "{moves}: {body}");
        let served: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(served["engine"], "table");
        let queried: Value = serde_json::from_slice(&cli.stdout).unwrap();
        assert_eq!(answer_only(served), answer_only(queried), "{moves}");
        from_table += 1;
    }
    assert!(from_table > 30, "{from_table} positions answered");
    // searched: 7 × 6 Connect Four, and m,n,k boards from 3 × 3 to 15 × 15
    for (game, board, moves) in [
        ("connect", ["7", "6", "4"], "4 4 4 4 3 5 3 3 5 2 6 2 2"),
        ("connect", ["7", "6", "4"], "1 2 3 4 5 6 7 7 6 5 4 3 2 1"),
        ("mnk", ["3", "3", "3"], "b2"),
        ("mnk", ["4", "4", "3"], ""),
        ("mnk", ["15", "15", "5"], "h8 a1 i9 a15"),
    ] {
        let [cols, rows, k] = board;
        let query = format!(
            "/api/v1/analyze?game={game}&cols={cols}&rows={rows}&k={k}&moves={}&detail=best",
            moves.replace(' ', "+")
        );
        let served = server.json(&query);
        assert_eq!(served["reached"], true, "{query}");
        let mut args = vec![
            "search",
            game,
            "--cols",
            cols,
            "--rows",
            rows,
            "--k",
            k,
            "--json",
            "--time-limit",
            "60",
        ];
        if !moves.is_empty() {
            args.extend(["--moves", moves]);
        }
        let searched = json_of(&args);
        assert_eq!(answer_only(served), answer_only(searched), "{query}");
    }
    let played = server.json("/api/v1/move?game=connect&cols=5&rows=4&moves=44");
    assert_eq!(
        (played["engine"].as_str(), played["reached"].as_bool()),
        (Some("table"), Some(true))
    );
    assert!(played["move"].is_string(), "{played}");
    server.stop();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_bad_request_gets_400_and_one_line_of_json() {
    let server = Server::start(&["--move-seconds", "2"]);
    let long = format!("/api/v1/analyze?game=mnk&moves={}", "a".repeat(5000));
    for path in [
        "/api/v1/analyze",
        "/api/v1/analyze?game=chess",
        "/api/v1/analyze?game=mnk&colour=red",
        "/api/v1/analyze?game=mnk&cols=3&cols=4",
        "/api/v1/analyze?game=mnk&cols=abc",
        "/api/v1/analyze?game=mnk&cols=0",
        "/api/v1/analyze?game=mnk&cols=17",
        "/api/v1/analyze?game=mnk&cols=-3",
        "/api/v1/analyze?game=mnk&k=9",
        "/api/v1/analyze?game=mnk&moves=z9",
        "/api/v1/analyze?game=mnk&moves=a1+a1",
        "/api/v1/analyze?game=mnk&moves=a1+b1+a2+b2+a3+c3",
        "/api/v1/analyze?game=connect&cols=4&rows=4&moves=1+1+1+1+1",
        "/api/v1/analyze?game=connect&cols=9&rows=9",
        "/api/v1/analyze?game=mnk&time_limit=0",
        "/api/v1/analyze?game=mnk&time_limit=-1",
        "/api/v1/analyze?game=mnk&time_limit=3",
        "/api/v1/analyze?game=mnk&time_limit=nan",
        "/api/v1/analyze?game=mnk&detail=some",
        "/api/v1/analyze?game=mnk&precision=rough",
        "/api/v1/analyze?game=mnk&moves=%FF%FE",
        "/api/v1/move?game=mnk&moves=a1+b1+a2+b2+a3",
        &long,
    ] {
        let (status, head, body) = server.get(path);
        assert_eq!(status, 400, "{path}: {body}");
        assert!(head.contains("content-type: application/json"), "{path}");
        let error: Value = serde_json::from_str(&body).unwrap();
        let line = error["error"].as_str().unwrap();
        assert!(!line.is_empty() && !line.contains('\n'), "{path}: {line}");
    }
    let (status, head, page) = server.get("/");
    assert_eq!(status, 200);
    assert!(head.contains("content-type: text/html"), "{head}");
    assert!(page.contains("/api/v1/analyze") && page.contains("<script>"));
    let (status, _, body) = server.get("/nowhere");
    assert_eq!(status, 404, "{body}");
    assert!(body.contains("/api/v1/analyze"), "{body}");
    // the stack's own refusals in the API's shape: a method, a body
    let (status, head, body) = server.raw(
        "POST /api/v1/analyze?game=mnk HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(status, 405, "{body}");
    assert!(head.contains("allow: get"), "{head}");
    assert!(serde_json::from_str::<Value>(&body).unwrap()["error"].is_string());
    let (status, _, body) = server.raw(&format!(
        "GET /api/v1/analyze?game=mnk HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\nConnection: close\r\n\r\n{}",
        "x".repeat(5000)
    ));
    assert_eq!(status, 413, "{body}");
    assert!(serde_json::from_str::<Value>(&body).unwrap()["error"].is_string());
    // still serving, and the refusals counted
    assert_eq!(server.json("/healthz")["status"], "ok");
    let (_, _, metrics) = server.get("/metrics");
    for line in [
        "retrograde_responses_total{code=\"400\"} 23",
        "retrograde_responses_total{code=\"404\"} 1",
        "retrograde_responses_total{code=\"405\"} 1",
        "retrograde_responses_total{code=\"413\"} 1",
        "retrograde_requests_total{endpoint=\"page\"} 1",
        "retrograde_requests_total{endpoint=\"other\"} 1",
    ] {
        assert!(metrics.contains(line), "{line}\n{metrics}");
    }
    server.stop();
}

#[test]
fn a_full_search_queue_answers_503_with_retry_after_and_searches_end_within_their_limits() {
    let server = Server::start(&["--queue", "1", "--move-seconds", "3"]);
    let addr = server.addr.clone();
    // the empty 8 × 7 board takes the one search for its whole limit
    let started = Instant::now();
    let long = std::thread::spawn(move || {
        let mut stream = TcpStream::connect(&addr).unwrap();
        write!(
            stream,
            "GET /api/v1/analyze?game=connect&cols=8&rows=7&detail=best HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        (response, started.elapsed().as_secs_f64())
    });
    std::thread::sleep(Duration::from_millis(500));
    // one may wait, but not past its own limit: the time waited counts
    let waited = Instant::now();
    let (status, head, body) = server.get("/api/v1/analyze?game=connect&moves=4&time_limit=0.5");
    let seconds = waited.elapsed().as_secs_f64();
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("time limit"), "{body}");
    assert!(head.contains("retry-after: 3"), "{head}");
    assert!(seconds < 2.0, "waited {seconds} s for a limit of 0.5 s");
    // a board no search takes is refused at once, not queued
    let (status, _, body) = server.get("/api/v1/analyze?game=connect&cols=9&rows=9");
    assert_eq!(status, 400, "{body}");
    // answers that need no search are not queued behind it
    assert_eq!(server.json("/healthz")["status"], "ok");
    let (first, seconds) = long.join().unwrap();
    assert!(first.starts_with("HTTP/1.1 200"), "{first}");
    assert!(first.contains("\"reached\":false"), "{first}");
    assert!(seconds < 5.0, "a search of limit 3 s took {seconds} s");
    // every move of a gomoku position within a tenth of a second
    let asked = Instant::now();
    let answer =
        server.json("/api/v1/analyze?game=mnk&cols=15&rows=15&k=5&moves=h8&time_limit=0.1");
    let seconds = asked.elapsed().as_secs_f64();
    assert!(seconds < 1.5, "{seconds} s for a limit of 0.1 s: {answer}");
    server.stop();
}

#[test]
fn stalled_connections_hold_neither_the_shutdown_nor_more_than_their_slots() {
    let server = Server::start(&["--move-seconds", "2"]);
    // clients that send half a request and stall
    let stalled: Vec<TcpStream> = (0..20)
        .map(|_| {
            let mut stream = TcpStream::connect(&server.addr).unwrap();
            stream.write_all(b"GET /healthz HTTP/1.1\r\nHost:").unwrap();
            stream
        })
        .collect();
    assert_eq!(server.json("/healthz")["status"], "ok");
    // past the most connections, a new one is closed at once
    let mut open: Vec<TcpStream> = (0..300)
        .map(|_| TcpStream::connect(&server.addr).unwrap())
        .collect();
    let last = open.last_mut().unwrap();
    last.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut byte = [0u8; 1];
    assert_eq!(last.read(&mut byte).unwrap_or(0), 0, "closed, not served");
    drop(open);
    std::thread::sleep(Duration::from_millis(300));
    let (_, _, metrics) = server.get("/metrics");
    let refused: u64 = metrics
        .lines()
        .find_map(|l| l.strip_prefix("retrograde_refused_connections_total "))
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(refused >= 40, "{refused} refused\n{metrics}");
    let seconds = server.stop();
    drop(stalled);
    assert!(
        seconds < 3.0,
        "the shutdown took {seconds} s with stalled clients"
    );
}

// issue 86: `time_limit=0.0005` on an idle server got 503 "busy … try
// again" (counted as a 503): a limit under the server's floor is the
// request's fault, and a limit at the floor starts its search
#[test]
fn a_time_limit_below_the_floor_is_400_naming_the_floor_not_503() {
    let server = Server::start(&["--move-seconds", "2"]);
    for path in [
        "/api/v1/analyze?game=mnk&time_limit=0.0005",
        "/api/v1/analyze?game=connect&cols=4&rows=4&moves=1&time_limit=0.0009",
        "/api/v1/move?game=mnk&moves=b2&time_limit=0.0005",
        "/api/v1/analyze?game=mnk&time_limit=1e-9",
    ] {
        let (status, head, body) = server.get(path);
        assert_eq!(status, 400, "{path}: {body}");
        assert!(head.contains("content-type: application/json"), "{path}");
        let error: Value = serde_json::from_str(&body).unwrap();
        let line = error["error"].as_str().unwrap();
        assert!(!line.contains('\n'), "{path}: {line}");
        assert!(
            line.contains("0.001") && line.contains("floor"),
            "{path}: {line}"
        );
    }
    // at the floor, on an idle server: searched (reached or not), not busy
    for path in [
        "/api/v1/analyze?game=mnk&time_limit=0.001",
        "/api/v1/move?game=mnk&moves=b2&time_limit=0.001",
    ] {
        let (status, _, body) = server.get(path);
        assert_eq!(status, 200, "{path}: {body}");
    }
    let (_, _, metrics) = server.get("/metrics");
    for line in [
        "retrograde_responses_total{code=\"400\"} 4",
        "retrograde_responses_total{code=\"503\"} 0",
    ] {
        assert!(metrics.contains(line), "{line}\n{metrics}");
    }
    server.stop();
    // the server's own limit has the same floor
    let err = crate::common::cli::refused(&["serve", "--move-seconds", "0.0005"]);
    assert!(err.contains("0.001"), "{err}");
}

// issue 86: a GET whose 2 KiB body came chunked was answered 200, though
// a body over 1 KiB gets 413; sized or chunked, the bound is the same
#[test]
fn a_chunked_body_over_the_limit_gets_413_like_a_sized_one() {
    let server = Server::start(&["--move-seconds", "2"]);
    let head = |path: &str| {
        format!(
            "GET {path} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        )
    };
    let chunk = |bytes: usize| format!("{bytes:x}\r\n{}\r\n", "x".repeat(bytes));
    // 2 KiB in two chunks of 1 KiB, then in one of 2 KiB
    for body in [chunk(1024) + &chunk(1024), chunk(2048)] {
        for path in ["/api/v1/analyze?game=mnk&moves=b2", "/healthz", "/nowhere"] {
            let (status, headers, answer) = server.raw(&format!("{}{body}0\r\n\r\n", head(path)));
            assert_eq!(status, 413, "{path}: {answer}");
            assert!(
                headers.contains("content-type: application/json"),
                "{headers}"
            );
            let error: Value = serde_json::from_str(&answer).unwrap();
            assert!(
                error["error"].as_str().unwrap().contains("1 KiB"),
                "{answer}"
            );
        }
    }
    // a chunked body within the bound is read and the request answered
    let (status, _, answer) = server.raw(&format!(
        "{}{}0\r\n\r\n",
        head("/api/v1/analyze?game=mnk&moves=b2"),
        chunk(100)
    ));
    assert_eq!(status, 200, "{answer}");
    // a malformed chunk: 400 with one line, not a hang
    let (status, _, answer) = server.raw(&format!("{}zz\r\n", head("/healthz")));
    assert_eq!(status, 400, "{answer}");
    assert!(serde_json::from_str::<Value>(&answer).unwrap()["error"].is_string());
    let (_, _, metrics) = server.get("/metrics");
    for line in [
        "retrograde_responses_total{code=\"413\"} 6",
        "retrograde_responses_total{code=\"200\"} 1",
        "retrograde_responses_total{code=\"400\"} 1",
    ] {
        assert!(metrics.contains(line), "{line}\n{metrics}");
    }
    server.stop();
}

// issue 87: the empty 7 × 6 board at the server's defaults got
// `reached: false` and no move, so the page's engine never replied (now
// answered from the built-in book: the empty 8 × 7 board stands in)
#[test]
fn a_position_not_reached_still_gets_a_move_within_its_time_marked_not_proved() {
    // a 256 MiB table for 8 × 7: the default memory gives it 1 GiB, whose
    // first search maps its pages, 3.8 s past a limit of 0.5 s on the
    // 2-core machine before any fallback (and more beside the other
    // tests' servers)
    let server = Server::start(&["--max-memory", "256MiB"]);
    let asked = Instant::now();
    let answer = server.json("/api/v1/move?game=connect&cols=8&rows=7&moves=&time_limit=0.5");
    let seconds = asked.elapsed().as_secs_f64();
    assert_eq!(answer["reached"], false, "{answer}");
    assert_eq!(answer["proved"], false, "{answer}");
    let column: u32 = answer["move"].as_str().unwrap().parse().unwrap();
    assert!((1..=8).contains(&column), "{answer}");
    assert!(
        answer["value"].is_null() && answer["depth"].is_null(),
        "{answer}"
    );
    // within the limit, as the server measured it, and about as the
    // client saw it (the machine is shared: a little slack)
    assert!(answer["seconds"].as_f64().unwrap() <= 0.52, "{answer}");
    assert!(seconds < 1.5, "{seconds} s for a limit of 0.5 s");
    // analyze keeps its keys and adds the move found so far
    let answer = server.json("/api/v1/analyze?game=connect&cols=8&rows=7&moves=4&time_limit=0.3");
    assert_eq!(answer["reached"], false, "{answer}");
    assert!(answer.get("value").is_none(), "{answer}");
    assert_eq!(answer["best_so_far"]["proved"], false, "{answer}");
    assert!(answer["best_so_far"]["move"].is_string(), "{answer}");
    // the fallback takes a win at once, even where the search ran out
    let answer = server.json("/api/v1/move?game=connect&moves=1+1+2+2+3+3&time_limit=0.001");
    assert_eq!(answer["move"], "4", "{answer}");
    // a proved position: proved, with its value, and no best_so_far
    let answer = server.json("/api/v1/move?game=connect&cols=5&rows=4&moves=4453");
    assert_eq!(answer["proved"], true, "{answer}");
    assert_eq!(answer["reached"], true, "{answer}");
    assert_eq!(answer["value"], "loss", "{answer}");
    assert!(answer["move"].is_string(), "{answer}");
    let answer = server.json("/api/v1/analyze?game=connect&cols=5&rows=4&moves=4453");
    assert!(answer.get("best_so_far").is_none(), "{answer}");
    server.stop();
}

#[test]
fn a_batch_answers_every_position_in_order_as_analyze_does() {
    // a 256 MiB table for 8 × 7 (see the test above)
    let server = Server::start(&["--move-seconds", "2", "--max-memory", "256MiB"]);
    let body = r#"{"game":"connect","cols":5,"rows":4,"k":4,
        "positions":["","4453","1 1 2","1 1 1 1 1","4 x"],"detail":"all"}"#;
    let (status, head, text) = server.post("/api/v1/batch", body);
    assert_eq!(status, 200, "{text}");
    assert!(head.contains("content-type: application/json"), "{head}");
    let batch: Value = serde_json::from_str(&text).unwrap();
    let answers = batch["answers"].as_array().unwrap();
    assert_eq!(answers.len(), 5, "{batch}");
    for (i, moves) in ["", "4453", "1+1+2"].iter().enumerate() {
        let alone = server.json(&format!(
            "/api/v1/analyze?game=connect&cols=5&rows=4&moves={moves}"
        ));
        assert_eq!(answers[i]["reached"], true, "{}", answers[i]);
        assert_eq!(
            answer_only(answers[i].clone()),
            answer_only(alone),
            "{moves}"
        );
    }
    // a column of four rows takes no fifth stone; x is no move: each an
    // error of its own, the others answered
    for bad in &answers[3..] {
        assert!(bad["error"].is_string(), "{bad}");
        assert_eq!(bad.as_object().unwrap().len(), 1, "{bad}");
    }
    // the whole batch within its time: the first position takes it, with
    // a move so far; the rest are not reached
    let asked = Instant::now();
    let (status, _, text) = server.post(
        "/api/v1/batch",
        r#"{"game":"connect","cols":8,"rows":7,"positions":["","4","4 4"],"time_limit":0.5,"detail":"best"}"#,
    );
    let seconds = asked.elapsed().as_secs_f64();
    assert_eq!(status, 200, "{text}");
    assert!(seconds < 1.5, "{seconds} s for a batch of 0.5 s");
    let batch: Value = serde_json::from_str(&text).unwrap();
    let answers = batch["answers"].as_array().unwrap();
    assert_eq!(answers[0]["reached"], false, "{batch}");
    assert_eq!(answers[0]["best_so_far"]["proved"], false, "{batch}");
    for rest in &answers[1..] {
        // never started (`{"reached": false}`), or started with the last
        // millisecond or two
        assert_eq!(rest["reached"], false, "{batch}");
    }
    server.stop();
}

#[test]
fn a_batch_is_bounded_and_refused_in_the_get_endpoints_words() {
    let server = Server::start(&["--move-seconds", "2"]);
    let positions = vec!["\"1\""; 1001].join(",");
    let refusals = [
        (
            format!(r#"{{"game":"connect","cols":5,"rows":4,"positions":[{positions}]}}"#),
            "1001 positions",
        ),
        (
            r#"{"game":"chess","positions":[]}"#.to_string(),
            "unknown game",
        ),
        (
            r#"{"game":"mnk","moves":"a1","positions":[]}"#.to_string(),
            "unknown key",
        ),
        (r#"{"game":"mnk","positions":[1]}"#.to_string(), "strings"),
        (r#"{"game":"mnk"}"#.to_string(), "positions is missing"),
        (
            r#"{"game":"mnk","positions":[],"time_limit":21}"#.to_string(),
            "--move-seconds",
        ),
        (
            r#"{"game":"mnk","cols":"x","positions":[]}"#.to_string(),
            "whole number",
        ),
        ("[1, 2]".to_string(), "JSON object"),
        ("{".to_string(), "not JSON"),
    ];
    for (body, words) in &refusals {
        let (status, _, text) = server.post("/api/v1/batch", body);
        assert_eq!(status, 400, "{body}: {text}");
        let error: Value = serde_json::from_str(&text).unwrap();
        let line = error["error"].as_str().unwrap();
        assert!(
            line.contains(words) && !line.contains('\n'),
            "{words}: {line}"
        );
    }
    // 256 KiB taken, not more, as the header says it
    let (status, _, text) = server.raw(&format!(
        "POST /api/v1/batch HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        256 * 1024 + 1
    ));
    assert_eq!(status, 413, "{text}");
    assert!(text.contains("256 KiB"), "{text}");
    // a body of 100 KiB is within the bound (a batch's answer) …
    let padding = " ".repeat(100 * 1024);
    let (status, _, text) = server.post(
        "/api/v1/batch",
        &format!(r#"{{"game":"mnk","positions":["b2"]{padding}}}"#),
    );
    assert_eq!(status, 200, "{text}");
    // … and over the 1 KiB of the GET endpoints
    let (status, _, _) = server.raw(&format!(
        "GET /api/v1/analyze?game=mnk HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        2048
    ));
    assert_eq!(status, 413);
    let (status, _, text) = server.get("/api/v1/batch");
    assert_eq!(status, 405, "{text}");
    assert!(text.contains("POST"), "{text}");
    let (_, _, metrics) = server.get("/metrics");
    assert!(
        metrics.contains("retrograde_requests_total{endpoint=\"batch\"} 12"),
        "{metrics}"
    );
    server.stop();
}
