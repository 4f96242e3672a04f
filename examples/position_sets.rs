//! Generates the 7 × 6 Connect Four position sets of `benches/data/`
//! (`results/SEARCH.md` describes them): positions reached by random play
//! from the empty board, still in play, where the player to move cannot
//! win at once, with their exact scores (Pascal Pons' convention) proved by
//! the gravity search. Deterministic for a seed.
//!
//! Run: `cargo run --release --example position_sets -- NAME LOW HIGH COUNT SEED > FILE`
//! (the shipped sets: `late 28 41 1000 1`, `middle 14 27 1000 2`,
//! `early 6 13 1000 3`).

use retrograde::BoardSize;
use std::collections::HashSet;

use retrograde::{
    disk::gravity_key,
    engines::bitboard::{Bitboard, BoardSearcher},
    engines::search::Precision,
    games::gravity::Gravity,
    host::in_pool,
    language::{pons_score, sentinel_cells, BoardGame, Status},
    Family, Position,
};

/// splitmix64: a small, well-mixed generator, enough to pick moves.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [_name, low, high, count, seed] = args.as_slice() else {
        return Err("usage: position_sets NAME LOW HIGH COUNT SEED".into());
    };
    let (low, high): (u32, u32) = (low.parse()?, high.parse()?);
    let (count, seed): (usize, u64) = (count.parse()?, seed.parse()?);
    let board = BoardGame::new(
        Family::Gravity,
        retrograde::language::BoardSize::new(7, 6, 4),
    )?;
    let game = Gravity::new(BoardSize::new(7, 6, 4))?;
    let searcher = BoardSearcher::quiet(Bitboard::gravity(&game), 1 << 26);
    let mut rng = SplitMix(seed);
    let mut seen = HashSet::new();
    while seen.len() < count {
        let stones = low + rng.below(u64::from(high - low + 1)) as u32;
        let Some((moves, p)) = random_game(&board, &mut rng, stones) else {
            continue;
        };
        // decided in one move: the player to move completes a line at once
        let wins_at_once = board
            .legal_cells(&p)
            .into_iter()
            .any(|c| board.status(&p.with(c)) != Status::InProgress);
        if wins_at_once || !seen.insert(gravity_key(&game, &p)) {
            continue;
        }
        let (x, occupied) = sentinel_cells(7, 6, &p);
        let r = in_pool(2, || searcher.search(x, occupied, Precision::Exact))??
            .ok_or("no deadline was set")?;
        let score = pons_score(board.cells(), p.stones(), r.value, r.depth).ok_or("exact")?;
        println!("{moves} {score}");
    }
    Ok(())
}

/// A game of `stones` random moves still in play, as its move string.
fn random_game(board: &BoardGame, rng: &mut SplitMix, stones: u32) -> Option<(String, Position)> {
    let mut p = Position::default();
    let mut moves = String::new();
    for _ in 0..stones {
        let cells = board.legal_cells(&p);
        if cells.is_empty() {
            return None;
        }
        let cell = cells[rng.below(cells.len() as u64) as usize];
        moves.push_str(&board.format_move(cell));
        p = p.with(cell);
    }
    (board.status(&p) == Status::InProgress).then_some((moves, p))
}
