//! The words of `--engine auto`'s choice, which the facade makes
//! ([`retrograde::Analyzer::table_engine`]): the symbolic engine when its run is
//! projected to take a few minutes at most; past that the command is
//! refused, naming first the command that answers fastest — a search,
//! which finds the empty board's value and any position's in seconds —
//! then the symbolic run with its projected time, started only when asked
//! for (`--engine symbolic`).

use retrograde::{
    engines::symbolic::{duration_in_words, Layout, Projection},
    facade::{long_symbolic_run, AutoRefusal, HandOver, NotExplicit, SYMBOLIC_REACH_CELLS},
    BoardSize, Family,
};

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
        .map(|b| format!(", peak {}", retrograde::host::Bytes(b)))
        .unwrap_or_default();
    if p.measured {
        format!("about {}{peak} ({})", duration_in_words(p.seconds), p.basis)
    } else {
        format!("at least {} ({})", duration_in_words(p.seconds), p.basis)
    }
}

/// Why the explicit engine does not take a board, in words (a refusal
/// with its settings named by their flags).
pub fn not_explicit(why: &NotExplicit) -> String {
    match why {
        NotExplicit::Estimate(words) => words.clone(),
        NotExplicit::Refused(refused) => format!(
            "the explicit engine stops: {}",
            super::output::in_flags(refused)
        ),
    }
}

/// The facade's hand-over to the symbolic engine, in words (the note
/// printed before the run).
pub fn hand_over_note(hand_over: &HandOver) -> String {
    let why = not_explicit(&hand_over.why);
    match &hand_over.projection {
        Some(p) => format!(
            "{why}; solving with the symbolic engine instead (projected {})",
            projected(p)
        ),
        None => format!("{why}; solving with the symbolic engine instead"),
    }
}

/// `auto`'s refusal of the board of `family` and `size`, in words: the
/// command that answers fastest first, then why no engine starts.
pub fn refusal(family: Family, size: BoardSize, refusal: &AutoRefusal) -> anyhow::Error {
    let BoardSize { cols, rows, k } = size;
    match refusal {
        AutoRefusal::ProjectedTooLong { why, projection } => anyhow::anyhow!(
            "{}; solving every position is beyond the explicit engine here ({}), and the \
             symbolic engine is projected to take {}: start it with --engine symbolic",
            search_command(family, cols, rows, k),
            not_explicit(why),
            projected(projection)
        ),
        AutoRefusal::PastSymbolicReach { why } => anyhow::anyhow!(
            "m,n,k {} with k = {k}: {}, and the symbolic engine has been measured on m,n,k boards of up to {SYMBOLIC_REACH_CELLS} cells (this one has {}): `retrograde search mnk --cols {cols} --rows {rows} --k {k}` proves the empty board's value (by search, or past 40 cells by relevance zones and pairings); `--engine symbolic` tries the decision diagrams anyway",
            super::output::board_name(cols, rows),
            not_explicit(why),
            cols * rows
        ),
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
