//! A bounded load test of `retrograde serve` on loopback: `--clients`
//! clients, each on one keep-alive connection, send `--requests` requests
//! one after another — `/api/v1/analyze` of seeded legal Connect Four
//! positions of `--min-plies` to `--max-plies` stones on a `--cols` ×
//! `--rows` board — and the run reports throughput, the p50, p99 and
//! largest latencies, and every response other than 200.
//!
//! ```text
//! retrograde connect --cols 5 --rows 4 --out c54.rtb
//! retrograde serve --table c54.rtb --addr 127.0.0.1:8080 &
//! cargo run --release --example serve_load -- --cols 5 --rows 4 --max-plies 12
//! ```

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// The options, with their defaults.
struct Options {
    addr: String,
    clients: usize,
    requests: usize,
    cols: u32,
    rows: u32,
    min_plies: u32,
    max_plies: u32,
    extra: String,
}

fn options() -> Options {
    let mut o = Options {
        addr: "127.0.0.1:8080".into(),
        clients: 64,
        requests: 200,
        cols: 5,
        rows: 4,
        min_plies: 0,
        max_plies: 12,
        extra: String::new(),
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let value = pair.get(1).cloned().unwrap_or_default();
        let number = || value.parse::<u32>().expect("a number");
        match pair[0].as_str() {
            "--addr" => o.addr = value,
            "--clients" => o.clients = number() as usize,
            "--requests" => o.requests = number() as usize,
            "--cols" => o.cols = number(),
            "--rows" => o.rows = number(),
            "--min-plies" => o.min_plies = number(),
            "--max-plies" => o.max_plies = number(),
            "--extra" => o.extra = value,
            other => panic!("unknown option {other}"),
        }
    }
    o
}

/// A legal move list of `plies` stones from `seed` that ends no game
/// (a random column that is not full, avoiding a move that makes four).
fn move_list(o: &Options, seed: u64, plies: u32) -> Option<String> {
    let (cols, rows) = (o.cols as usize, o.rows as usize);
    let mut grid = vec![vec![0u8; rows]; cols];
    let mut heights = vec![0usize; cols];
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut moves = Vec::new();
    for ply in 0..plies {
        let player = 1 + (ply % 2) as u8;
        let mut tries = 0;
        loop {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let c = (state % cols as u64) as usize;
            tries += 1;
            if tries > 50 {
                return None;
            }
            if heights[c] == rows {
                continue;
            }
            let r = heights[c];
            grid[c][r] = player;
            if wins(&grid, c, r, player) {
                grid[c][r] = 0;
                continue;
            }
            heights[c] += 1;
            moves.push((c + 1).to_string());
            break;
        }
    }
    Some(moves.join("+"))
}

/// Whether the stone of `player` at (`c`, `r`) makes four in a row.
fn wins(grid: &[Vec<u8>], c: usize, r: usize, player: u8) -> bool {
    let at = |c: i64, r: i64| {
        c >= 0
            && r >= 0
            && (c as usize) < grid.len()
            && (r as usize) < grid[0].len()
            && grid[c as usize][r as usize] == player
    };
    [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| {
        let run = |sign: i64| {
            (1..4)
                .take_while(|i| at(c as i64 + sign * i * dc, r as i64 + sign * i * dr))
                .count()
        };
        run(1) + run(-1) + 1 >= 4
    })
}

/// One request on `stream`: its status and latency.
fn request(
    stream: &mut BufReader<TcpStream>,
    addr: &str,
    path: &str,
) -> std::io::Result<(u16, Duration)> {
    let started = Instant::now();
    write!(
        stream.get_mut(),
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n"
    )?;
    let mut status_line = String::new();
    if stream.read_line(&mut status_line)? == 0 {
        return Err(std::io::Error::other("the server closed the connection"));
    }
    let status = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut length = 0;
    loop {
        let mut line = String::new();
        stream.read_line(&mut line)?;
        if line == "\r\n" || line.is_empty() {
            break;
        }
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    stream.read_exact(&mut body)?;
    Ok((status, started.elapsed()))
}

fn main() {
    let o = options();
    let paths: Vec<String> = (0..4096u64)
        .filter_map(|seed| {
            let span = u64::from(o.max_plies - o.min_plies + 1);
            let plies = o.min_plies + (seed % span) as u32;
            move_list(&o, seed, plies).map(|moves| {
                format!(
                    "/api/v1/analyze?game=connect&cols={}&rows={}&moves={moves}{}",
                    o.cols, o.rows, o.extra
                )
            })
        })
        .collect();
    let started = Instant::now();
    let results: std::io::Result<Vec<Vec<(u16, Duration)>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..o.clients)
            .map(|client| {
                let (o, paths) = (&o, &paths);
                scope.spawn(move || {
                    let stream = TcpStream::connect(&o.addr)?;
                    stream.set_nodelay(true)?;
                    let mut stream = BufReader::new(stream);
                    (0..o.requests)
                        .map(|i| {
                            let path = &paths[(client * o.requests + i) % paths.len()];
                            request(&mut stream, &o.addr, path)
                        })
                        .collect()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(std::io::Error::other("a client failed")))
            })
            .collect()
    });
    let results = results.unwrap_or_else(|e| {
        eprintln!(
            "serve_load: {e} (is `retrograde serve` listening at {}?)",
            o.addr
        );
        std::process::exit(2)
    });
    let seconds = started.elapsed().as_secs_f64();
    let mut latencies: Vec<Duration> = results.iter().flatten().map(|r| r.1).collect();
    latencies.sort();
    let failed = results.iter().flatten().filter(|r| r.0 != 200).count();
    let at = |q: f64| latencies[((latencies.len() as f64 * q) as usize).min(latencies.len() - 1)];
    println!(
        "{} requests by {} clients in {seconds:.2} s: {:.0} requests/s; p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; {failed} not 200",
        latencies.len(),
        o.clients,
        latencies.len() as f64 / seconds,
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        latencies.last().unwrap().as_secs_f64() * 1e3,
    );
}
