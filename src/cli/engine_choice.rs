//! Which engine `connect` and `mnk` run when the explicit one cannot take
//! a board (`--engine auto`): the symbolic engine when its run is projected
//! to take a few minutes at most ([`LONG_RUN`]); past that the command is
//! refused, naming first the command that answers fastest — a search,
//! which finds the empty board's value and any position's in seconds —
//! then the symbolic run with its projected time, started only when asked
//! for (`--engine symbolic`).

use retrograde::position::Family;
use retrograde::tables::symbolic::projection::{duration_in_words, project, Projection};
use retrograde::tables::symbolic::Layout;

/// The longest symbolic run `auto` starts unasked, in seconds.
pub const LONG_RUN: f64 = 300.0;

/// The 7×6 Connect Four search from the empty board, measured on this
/// project's 2-core machine (16.8–17.3 s, AMD EPYC host; the figure
/// README and GUIDE give).
pub const SEARCH_7X6_SECONDS: f64 = 17.0;

/// The command that answers the board by search, and what it is known to
/// take.
pub fn search_command(family: Family, cols: u32, rows: u32, k: u32) -> String {
    let (name, default_k) = match family {
        Family::Gravity => ("connect", 4),
        Family::Mnk => ("mnk", 3),
    };
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
    let projection = project(layout, count_only);
    match projection {
        Some(p) if p.seconds > LONG_RUN => anyhow::bail!(
            "{}; solving every position is beyond the explicit engine here ({why}), and the \
             symbolic engine is projected to take {}: start it with --engine symbolic",
            search_command(layout.family, layout.cols, layout.rows, layout.k),
            projected(&p)
        ),
        Some(p) => Ok(format!(
            "{why}; solving with the symbolic engine instead (projected {})",
            projected(&p)
        )),
        None => Ok(format!("{why}; solving with the symbolic engine instead")),
    }
}

/// The note a symbolic run asked for prints before it starts when it is
/// projected past [`LONG_RUN`] (`None`: a short run, nothing to say).
pub fn long_run_note(layout: &Layout, count_only: bool) -> Option<String> {
    let p = project(layout, count_only)?;
    (p.seconds > LONG_RUN).then(|| {
        format!(
            "note: the symbolic run is projected to take {}; {} instead",
            projected(&p),
            search_command(layout.family, layout.cols, layout.rows, layout.k)
        )
    })
}
