//! The words of `--engine auto`'s choice, which the facade makes
//! ([`retrograde::analyzer::solving`]): the symbolic engine when its run is
//! projected to take a few minutes at most; past that the command is
//! refused, naming first the command that answers fastest — a search,
//! which finds the empty board's value and any position's in seconds —
//! then the symbolic run with its projected time, started only when asked
//! for (`--engine symbolic`).

use retrograde::analyzer::solving::{long_symbolic_run, symbolic_unasked, Unasked};
use retrograde::position::Family;
use retrograde::tables::symbolic::projection::{duration_in_words, Projection};
use retrograde::tables::symbolic::Layout;

/// The 7×6 Connect Four search from the empty board, measured on this
/// project's 2-core machine (16.8–17.3 s, AMD EPYC host; the figure
/// README and GUIDE give).
pub const SEARCH_7X6_SECONDS: f64 = 17.0;

/// The command that answers the board by search, and what it is known to
/// take.
pub fn search_command(family: Family, cols: u32, rows: u32, k: u32) -> String {
    let (name, default_k) = (family.name(), family.default_k());
    let k_arg = if k == default_k {
        String::new()
    } else {
        format!(" --k {k}")
    };
    let took = if family == Family::Gravity && (cols, rows, k) == (7, 6, 4) {
        format!("about {SEARCH_7X6_SECONDS:.0} s here")
    } else {
        "seconds on boards this size".into()
    };
    format!(
        "`retrograde search {name} --cols {cols} --rows {rows}{k_arg}` answers the empty \
         board's value and any position's by search ({took})"
    )
}

/// What the symbolic run of `layout` is projected to take, in words.
pub fn projected(p: &Projection) -> String {
    let peak = p
        .peak_bytes
        .map(|b| format!(", peak {}", retrograde::memory::Bytes(b)))
        .unwrap_or_default();
    if p.measured {
        format!("about {}{peak} ({})", duration_in_words(p.seconds), p.basis)
    } else {
        format!("at least {} ({})", duration_in_words(p.seconds), p.basis)
    }
}

/// Under `auto`, after the explicit engine refused the board for `why`:
/// `Ok(note)` to run the symbolic engine (the note to print), or the
/// refusal naming the faster command.
pub fn symbolic_instead(layout: &Layout, count_only: bool, why: &str) -> anyhow::Result<String> {
    match symbolic_unasked(layout, count_only) {
        Unasked::TooLong(p) => anyhow::bail!(
            "{}; solving every position is beyond the explicit engine here ({why}), and the \
             symbolic engine is projected to take {}: start it with --engine symbolic",
            search_command(layout.family, layout.cols, layout.rows, layout.k),
            projected(&p)
        ),
        Unasked::Start(Some(p)) => Ok(format!(
            "{why}; solving with the symbolic engine instead (projected {})",
            projected(&p)
        )),
        Unasked::Start(None) => Ok(format!("{why}; solving with the symbolic engine instead")),
    }
}

/// The note a symbolic run asked for prints before it starts when it is
/// projected to be long (`None`: a short run, nothing to say).
pub fn long_run_note(layout: &Layout, count_only: bool) -> Option<String> {
    let p = long_symbolic_run(layout, count_only)?;
    Some(format!(
        "note: the symbolic run is projected to take {}; {} instead",
        projected(&p),
        search_command(layout.family, layout.cols, layout.rows, layout.k)
    ))
}
