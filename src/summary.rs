//! The JSON summary of a solved board — every count per ply and the empty
//! board's value — as `retrograde connect --json` and `retrograde mnk
//! --json` print it and as the Python package returns it, so the two can be
//! compared key by key. The command line adds its timing keys.

use serde_json::{json, Value};

use crate::error::{Error, Result};
use crate::game::{GameValue, Outcome};
use crate::position::Family;
use crate::position::Position;
use crate::rules::gravity::Gravity;
use crate::rules::mnk::Mnk;
use crate::tablefile::oracles::gravity_key;
use crate::tablefile::GravityValues;
use crate::tables::layered::{GameCounts, MnkSolution, PlyCounts};
use crate::tables::sparse::GravityCounts;
use crate::tables::symbolic::{Layout, PlyReport};

/// The empty board's result and its depth, from a Connect Four table.
pub fn gravity_empty_board(solution: &dyn GravityValues) -> Result<(GameValue, u32)> {
    let key = gravity_key(solution.game(), &Position::default());
    let (value, depth) = solution.value_of(0, key)?.ok_or_else(|| {
        Error::InvalidInput("the table holds no value for the empty board".into())
    })?;
    Ok((GameValue::of_first_player(value), depth))
}

/// The JSON summary of a solved Connect Four board.
pub fn gravity_summary(solution: &dyn GravityValues) -> Result<Value> {
    let (value, depth) = gravity_empty_board(solution)?;
    Ok(gravity_counts_summary(
        solution.game(),
        solution.counts(),
        value,
        depth,
    ))
}

/// The JSON summary of a Connect Four board's counts and the empty board's
/// result (`"first"`, `"second"` or `"draw"`) and depth.
pub fn gravity_counts_summary(
    game: &Gravity,
    counts: &[GravityCounts],
    value: GameValue,
    depth: u32,
) -> Value {
    let (cols, rows, k) = game.dimensions();
    let total = gravity_totals(counts);
    json!({
        "cols": cols,
        "rows": rows,
        "k": k,
        "positions": total.positions,
        "terminal": total.terminal,
        "x_wins": total.x_wins,
        "o_wins": total.o_wins,
        "draws": total.draws,
        "first_won": total.first_won,
        "first_drawn": total.first_drawn,
        "first_lost": total.first_lost,
        "value": value.name(),
        "depth": depth,
        "per_ply": counts,
    })
}

/// Every ply's counts summed (`ply` is the last ply).
pub fn gravity_totals<'a>(counts: impl IntoIterator<Item = &'a GravityCounts>) -> GravityCounts {
    counts
        .into_iter()
        .fold(GravityCounts::default(), |t, c| GravityCounts {
            ply: t.ply.max(c.ply),
            ..t.plus(c)
        })
}

/// What an m,n,k whole-board report states: the per-ply counts, the games
/// and the empty board's value and depth — from a solution, or summed over
/// the ranks of a distributed solve.
pub struct MnkSummary<'a> {
    /// Per ply.
    pub counts: &'a [PlyCounts],
    /// Games by result.
    pub games: GameCounts,
    /// The empty board's value for the first player and its depth.
    pub root: (Outcome, u32),
}

impl<'a> MnkSummary<'a> {
    /// The summary of a solution.
    pub fn of(solution: &'a MnkSolution) -> Self {
        Self {
            counts: &solution.counts,
            games: solution.games,
            root: solution.lookup(0, 0).unwrap_or((Outcome::Draw, 0)),
        }
    }

    /// The JSON summary (game counts beyond 2^64 stay exact: JSON numbers
    /// of any length).
    pub fn json(&self, game: &Mnk) -> Value {
        let t = PlyCounts::totals(self.counts);
        let exact = |n: u128| n.to_string().parse::<Value>().expect("a number");
        json!({
            "cols": game.cols(),
            "rows": game.rows(),
            "k": game.k(),
            "positions": t.positions,
            "terminal": t.terminal,
            "x_wins": t.x_wins,
            "o_wins": t.o_wins,
            "draws": t.draws,
            "classes": t.classes,
            "terminal_classes": t.terminal_classes,
            "games": exact(self.games.total()),
            "games_x_wins": exact(self.games.x_wins),
            "games_o_wins": exact(self.games.o_wins),
            "games_draws": exact(self.games.draws),
            "value": GameValue::of_first_player(self.root.0).name(),
            "per_ply": self.counts.iter().map(|c| serde_json::to_value(c).expect("counts serialise")).collect::<Vec<_>>(),
        })
    }
}

/// A symbolic run's counts over every ply, and its largest ply's nodes.
pub fn symbolic_totals(plies: &[PlyReport]) -> (GravityCounts, u64) {
    let counts = gravity_totals(plies.iter().map(|p| &p.counts));
    (counts, plies.iter().map(|p| p.nodes).max().unwrap_or(0))
}

/// The JSON summary of a symbolic table or run, as `retrograde mnk|connect
/// --engine symbolic --json` prints it and Python's `Table.summary` returns
/// it: the explicit engine's keys (gravity:
/// `first_won`…; m,n,k: `x_can_win`…), `engine`, `encoding`, node counts
/// per ply; `value` and the first-player counts absent after a count-only
/// run; `depth` null (a symbolic table holds no depths).
pub fn symbolic_summary(layout: &Layout, plies: &[PlyReport], value: Option<Outcome>) -> Value {
    let solved = value.is_some();
    let ply_json = |c: &GravityCounts, nodes: Option<&PlyReport>| -> Value {
        let mut m = serde_json::Map::new();
        if nodes.is_some() {
            m.insert("ply".into(), json!(c.ply));
        }
        m.insert("positions".into(), json!(c.positions));
        m.insert("terminal".into(), json!(c.terminal));
        m.insert("x_wins".into(), json!(c.x_wins));
        m.insert("o_wins".into(), json!(c.o_wins));
        m.insert("draws".into(), json!(c.draws));
        if solved {
            let (won, drawn, lost) = match layout.family {
                Family::Gravity => ("first_won", "first_drawn", "first_lost"),
                Family::Mnk => ("x_can_win", "neither_can_win", "o_can_win"),
            };
            m.insert(won.into(), json!(c.first_won));
            m.insert(drawn.into(), json!(c.first_drawn));
            m.insert(lost.into(), json!(c.first_lost));
        }
        if let Some(p) = nodes {
            m.insert("nodes".into(), json!(p.nodes));
            if solved {
                m.insert("won_nodes".into(), json!(p.won_nodes));
                m.insert("lost_nodes".into(), json!(p.lost_nodes));
            }
        }
        Value::Object(m)
    };
    let (total, peak_nodes) = symbolic_totals(plies);
    let mut summary = json!({
        "cols": layout.cols,
        "rows": layout.rows,
        "k": layout.k,
        "engine": "symbolic",
        "encoding": layout.encoding.name(),
    });
    let map = summary.as_object_mut().expect("an object");
    if let Value::Object(t) = ply_json(&total, None) {
        map.extend(t);
    }
    map.insert("largest_ply_nodes".into(), json!(peak_nodes));
    if let Some(v) = value {
        map.insert("value".into(), json!(GameValue::of_first_player(v).name()));
        map.insert("depth".into(), Value::Null);
    }
    map.insert(
        "per_ply".into(),
        Value::Array(plies.iter().map(|p| ply_json(&p.counts, Some(p))).collect()),
    );
    summary
}
