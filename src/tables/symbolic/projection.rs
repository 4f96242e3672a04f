//! How long a symbolic run will take, before it starts: the measured runs
//! of `results/symbolic/` (2 threads, AMD EPYC host), and for a board not
//! among them the nearest measured board of the same family and mode with
//! no more cells, scaled by the growth per cell those runs show.
//!
//! A projection is a floor and a band, not a promise: a diagram's size
//! follows the board's structure more than its cell count (6×4 Connect
//! Four, 24 cells, took 32 s; 5×5, 25 cells, 14 s). It serves to tell a
//! run of seconds from a run of hours, so that the command line asks
//! before it starts the second (`--engine symbolic`), and `--estimate`.

use super::layout::Layout;
use crate::position::Family;

/// One measured run: family, columns, rows, k, count only, seconds at 2
/// threads, peak resident bytes.
type Measured = (Family, u32, u32, u32, bool, f64, u64);

const MIB: u64 = 1 << 20;

/// The runs of `results/symbolic/*.json` and `RUNS.log` (solves and
/// counts at 2 threads; 5×5 k=5 at 1 thread, its CPU time halved).
const MEASURED: [Measured; 20] = [
    (Family::Gravity, 3, 9, 4, true, 1.9, 0),
    (Family::Gravity, 4, 8, 4, true, 70.0, 0),
    (Family::Gravity, 5, 7, 4, true, 788.0, 12_557 * MIB),
    (Family::Gravity, 6, 6, 4, true, 4265.0, 6026 * MIB),
    (Family::Gravity, 7, 5, 4, true, 503.0, 11_212 * MIB),
    (Family::Gravity, 7, 6, 4, true, 3293.0, 17_101 * MIB),
    (Family::Gravity, 8, 4, 4, true, 44.7, 0),
    (Family::Gravity, 9, 3, 4, true, 9.6, 0),
    (Family::Gravity, 5, 4, 4, false, 2.0, 0),
    (Family::Gravity, 5, 5, 4, false, 13.9, 0),
    (Family::Gravity, 6, 4, 4, false, 31.9, 0),
    (Family::Gravity, 6, 5, 4, false, 1512.0, 0),
    (Family::Gravity, 6, 6, 4, false, 9077.0, 18_457 * MIB),
    (Family::Gravity, 7, 5, 4, false, 5572.0, 17_265 * MIB),
    (Family::Mnk, 4, 5, 4, false, 41.9, 1438 * MIB),
    (Family::Mnk, 5, 4, 4, false, 343.0, 0),
    (Family::Mnk, 5, 4, 3, false, 51.8, 0),
    (Family::Mnk, 5, 5, 5, false, 700.0, 4489 * MIB),
    (Family::Mnk, 5, 5, 5, true, 6.6, 936 * MIB),
    (Family::Mnk, 4, 4, 4, false, 1.0, 0),
];

/// Growth of a run's time per added cell, from the measured runs (6×5 to
/// 7×5 Connect Four: ×3.7 over 5 cells; 5×4 k=4 to 5×5 k=5 m,n,k: ×2 over
/// 5 cells; taken at the low end so that a projection is a floor).
const GROWTH_PER_CELL: f64 = 1.3;

/// A projected run.
#[derive(Clone, Debug, PartialEq)]
pub struct Projection {
    /// The least time it is projected to take, in seconds (2 threads).
    pub seconds: f64,
    /// Whether it is a measured figure for this very board (else a floor
    /// scaled from a smaller one).
    pub measured: bool,
    /// The peak resident memory measured, for this very board.
    pub peak_bytes: Option<u64>,
    /// The run it comes from, in words ("6×5 k=4: 1,512 s").
    pub basis: String,
}

/// The projection of a symbolic run of `layout` (`count_only`: the forward
/// pass alone); `None` when no measured board of its family and mode has as
/// few cells (a board smaller than any measured is fast).
pub fn project(layout: &Layout, count_only: bool) -> Option<Projection> {
    let cells = layout.cells();
    let same = |m: &&Measured| m.0 == layout.family && m.4 == count_only;
    if let Some(m) = MEASURED
        .iter()
        .filter(same)
        .find(|m| (m.1, m.2, m.3) == (layout.cols, layout.rows, layout.k))
    {
        return Some(Projection {
            seconds: m.5,
            measured: true,
            peak_bytes: (m.6 > 0).then_some(m.6),
            basis: format!("measured: {}×{} k={}, {:.0} s", m.1, m.2, m.3, m.5),
        });
    }
    let nearest = MEASURED
        .iter()
        .filter(same)
        .filter(|m| m.1 * m.2 <= cells)
        .max_by(|a, b| (a.1 * a.2).cmp(&(b.1 * b.2)).then(a.5.total_cmp(&b.5)))?;
    let more = cells - nearest.1 * nearest.2;
    let seconds = nearest.5 * GROWTH_PER_CELL.powi(more as i32);
    Some(Projection {
        seconds,
        measured: false,
        peak_bytes: None,
        basis: if more == 0 {
            format!(
                "{}×{} k={}, as many cells, took {:.0} s",
                nearest.1, nearest.2, nearest.3, nearest.5
            )
        } else {
            format!(
                "{}×{} k={} took {:.0} s; ×{GROWTH_PER_CELL} for each of {more} more cells",
                nearest.1, nearest.2, nearest.3, nearest.5
            )
        },
    })
}

/// A duration in words: "40 s", "12 min", "3.5 h", "2.1 days".
pub fn duration_in_words(seconds: f64) -> String {
    if seconds < 90.0 {
        format!("{seconds:.0} s")
    } else if seconds < 5400.0 {
        format!("{:.0} min", seconds / 60.0)
    } else if seconds < 2.0 * 86_400.0 {
        format!("{:.1} h", seconds / 3600.0)
    } else {
        format!("{:.1} days", seconds / 86_400.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSize;
    use crate::tables::symbolic::layout::Encoding;

    fn layout(family: Family, cols: u32, rows: u32, k: u32) -> Layout {
        Layout::new(
            family,
            BoardSize { cols, rows, k },
            Encoding::best_for(family),
        )
        .unwrap()
    }

    #[test]
    fn a_measured_board_gives_its_figure_and_a_larger_one_a_floor_above_the_nearest() {
        let p = project(&layout(Family::Gravity, 6, 5, 4), false).unwrap();
        assert!(p.measured && p.seconds == 1512.0, "{p:?}");
        let big = project(&layout(Family::Gravity, 7, 6, 4), false).unwrap();
        assert!(!big.measured && big.seconds > 9077.0, "{big:?}");
        let mnk = project(&layout(Family::Mnk, 5, 5, 4), false).unwrap();
        assert!(mnk.seconds >= 700.0, "{mnk:?}");
        assert!(project(&layout(Family::Mnk, 3, 3, 3), false).is_none());
        assert_eq!(duration_in_words(40.0), "40 s");
        assert_eq!(duration_in_words(9077.0), "2.5 h");
    }
}
