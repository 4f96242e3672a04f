//! The symbolic engine on the command line: `--engine`, `--count-only`,
//! `--encoding`, `--checkpoint` of `connect` and `mnk`; its report; and
//! answers from its tables (`query`, `play`).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, ValueEnum};
use retrograde::{
    disk::{SolvedSets, SymbolicFile, SymbolicSets, SymbolicTable, SymbolicTableWriter},
    engines::sparse::GravityCounts,
    engines::symbolic::{Encoding, Layout, PlyReport, PlySink},
    facade::{symbolic_summary, symbolic_totals, EngineAsked, EngineRequest},
    language::{BoardGame, GameValue},
    Analyzer, BoardSize, Family,
};
use serde_json::{json, Value};

use super::args::{OutArgs, RunArgs, Timing};
use super::output::{board_name, emit, emit_json, grouped};
use super::position::{print_table_answer, PositionArgs};

/// Which engine solves a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EngineChoice {
    /// Every position in memory, with its depth.
    Explicit,
    /// Sets of positions as decision diagrams: boards beyond explicit
    /// memory; values without depths.
    Symbolic,
    /// The explicit engine where its estimate fits the memory budget, else
    /// the symbolic one (m,n,k boards: up to 25 cells; larger ones are
    /// refused with the search command that goes further).
    Auto,
}

impl EngineChoice {
    /// The engine asked of the facade.
    pub fn asked(self) -> EngineAsked {
        match self {
            EngineChoice::Explicit => EngineAsked::Explicit,
            EngineChoice::Symbolic => EngineAsked::Symbolic,
            EngineChoice::Auto => EngineAsked::Auto,
        }
    }
}

/// The encodings, for the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EncodingArg {
    /// One variable a cell and a sentinel row (gravity boards).
    Column,
    /// Two variables a cell.
    Pair,
}

/// The engine options of `connect` and `mnk`.
#[derive(Debug, Args, Clone)]
pub struct EngineArgs {
    /// Which engine solves the board: explicit (every position in memory,
    /// values and depths), symbolic (decision diagrams, for boards beyond
    /// explicit memory; values without depths), auto (explicit where its
    /// estimate fits the memory budget, else symbolic; m,n,k boards over 25
    /// cells are refused with the search command that goes further)
    #[arg(long, value_enum, default_value_t = EngineChoice::Auto)]
    pub engine: EngineChoice,

    /// Count the positions only (the symbolic engine's forward pass), no
    /// values.
    #[arg(long)]
    pub count_only: bool,

    /// The symbolic engine's variable encoding [default: column for gravity
    /// boards, pair for m,n,k]
    #[arg(long, value_enum, value_name = "ENCODING")]
    pub encoding: Option<EncodingArg>,

    /// Keep every finished ply of a symbolic run in DIR; the same command
    /// run again resumes from the last finished ply.
    #[arg(long, value_name = "DIR")]
    pub checkpoint: Option<PathBuf>,

    /// Solve nothing: print what each engine would take on the board —
    /// positions, memory and time, projected from measured runs — and the
    /// search command that answers its value.
    #[arg(long)]
    pub estimate: bool,
}

impl EngineArgs {
    /// What these flags ask of the facade's choice of engine
    /// ([`retrograde::Analyzer::table_engine`]).
    pub fn request(&self) -> EngineRequest {
        EngineRequest {
            asked: self.engine.asked(),
            symbolic_settings: self.wants_symbolic(),
            count_only: self.count_only,
        }
    }

    /// Whether an option only the symbolic engine takes was given.
    pub fn wants_symbolic(&self) -> bool {
        self.count_only || self.encoding.is_some() || self.checkpoint.is_some()
    }

    /// Refuses symbolic-only options with `--engine explicit`.
    pub fn check(&self) -> anyhow::Result<()> {
        if self.engine == EngineChoice::Explicit && self.wants_symbolic() {
            anyhow::bail!(
                "--count-only, --encoding and --checkpoint are options of the symbolic engine \
                 (drop --engine explicit)"
            );
        }
        Ok(())
    }

    /// The encoding asked for, or the family's best.
    pub fn encoding(&self, family: Family) -> Encoding {
        match self.encoding {
            Some(EncodingArg::Column) => Encoding::Column,
            Some(EncodingArg::Pair) => Encoding::Pair,
            None => Encoding::best_for(family),
        }
    }
}

/// Solves a board with the symbolic engine and prints its report or the
/// answer of the position `--moves`/`--board` give; saves the table if
/// `--out` asks.
pub fn run(
    family: Family,
    (cols, rows, k): (u32, u32, u32),
    engine: &EngineArgs,
    position: &PositionArgs,
    run: &RunArgs,
    out: &OutArgs,
) -> anyhow::Result<ExitCode> {
    let position = if position.given() {
        let board = BoardGame::new(family, retrograde::language::BoardSize::new(cols, rows, k))?;
        let p = position.position(&board)?;
        Some((board, p))
    } else {
        None
    };
    let layout = Layout::new(family, BoardSize { cols, rows, k }, engine.encoding(family))?;
    if engine.count_only && (out.out.is_some() || position.is_some()) {
        anyhow::bail!("--count-only gives counts only: it saves no table and answers no position");
    }
    out.check(&retrograde::disk::saved_game(&layout))?;
    if let (Some(table), Some(dir)) = (&out.out, &engine.checkpoint) {
        if inside(dir, table) {
            anyhow::bail!(
                "--out {}: inside the --checkpoint directory {}, whose files the run replaces; \
                 give a path outside it",
                table.display(),
                dir.display()
            );
        }
    }
    if engine.engine == EngineChoice::Symbolic && !run.quiet() {
        if let Some(note) = super::engine_choice::long_run_note(&layout, engine.count_only) {
            eprintln!("{note}");
        }
    }
    let threads = run.threads();
    let bar = run.progress_plies();
    let clock = Instant::now();
    let mut writer = out
        .out
        .as_deref()
        .map(SymbolicTableWriter::new)
        .transpose()?;
    let mut memory = position.as_ref().map(|_| SolvedSets::new(layout));
    let mut sinks = Sinks(writer.as_mut(), memory.as_mut());
    let sink: Option<&mut dyn PlySink> =
        (sinks.0.is_some() || sinks.1.is_some()).then_some(&mut sinks as &mut dyn PlySink);
    let solution = Analyzer::new(run.budget(), threads).solve_symbolic(
        layout,
        engine.count_only,
        engine.checkpoint.clone(),
        sink,
        &bar,
    )?;
    bar.finish();
    let timing = if engine.count_only {
        Timing::counted(clock.elapsed().as_secs_f64(), threads)
    } else {
        Timing::solved(clock.elapsed().as_secs_f64(), threads)
    };
    if let Some(writer) = writer {
        writer.finish(&solution)?;
    }
    match (position, memory) {
        (Some((board, p)), Some(sets)) => {
            print_table_answer(&board, &p, &SymbolicTable(&sets), run.json, || {
                (timing.json_keys(None), timing.line(None))
            })
        }
        _ => report(
            &solution.layout,
            &solution.plies,
            solution.value,
            &timing,
            run.json,
        ),
    }
}

/// Whether `file` lies in the directory `dir` or below it (both resolved;
/// a directory not made yet holds nothing).
fn inside(dir: &std::path::Path, file: &std::path::Path) -> bool {
    let parent = match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => std::path::Path::new("."),
    };
    match (std::fs::canonicalize(dir), std::fs::canonicalize(parent)) {
        (Ok(dir), Ok(parent)) => parent.starts_with(dir),
        _ => false,
    }
}

/// Hands each solved ply to the table writer and the in-memory sets.
struct Sinks<'a>(
    Option<&'a mut SymbolicTableWriter>,
    Option<&'a mut SolvedSets>,
);

impl PlySink for Sinks<'_> {
    fn solved(
        &mut self,
        ply: u32,
        won: &retrograde::engines::symbolic::FlatBdd,
        lost: &retrograde::engines::symbolic::FlatBdd,
    ) -> retrograde::Result<()> {
        if let Some(w) = self.0.as_deref_mut() {
            w.solved(ply, won, lost)?;
        }
        if let Some(m) = self.1.as_deref_mut() {
            m.solved(ply, won, lost)?;
        }
        Ok(())
    }
}

/// Prints a symbolic run's report (human or JSON).
pub fn report(
    layout: &Layout,
    plies: &[PlyReport],
    value: Option<retrograde::language::Outcome>,
    timing: &Timing,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let (total, _) = symbolic_totals(plies);
    if json {
        let mut summary = symbolic_summary(layout, plies, value);
        if let Value::Object(map) = &mut summary {
            map.extend(timing.json_keys(Some(total.positions)));
        }
        return emit_json(&summary);
    }
    let mut out = String::new();
    let family = match layout.family {
        Family::Gravity => "gravity board",
        Family::Mnk => "m,n,k game",
    };
    let _ = writeln!(
        out,
        "{family}: {}, {} in a row wins (symbolic engine, {} encoding)",
        board_name(layout.cols, layout.rows),
        layout.k,
        layout.encoding.name()
    );
    let mut header = format!(
        "{:>5} {:>18} {:>16} {:>15} {:>15} {:>13}",
        "ply", "positions", "terminal", "X wins", "O wins", "draws"
    );
    if value.is_some() {
        let _ = write!(
            header,
            " {:>18} {:>18} {:>18}",
            "first won", "first drawn", "first lost"
        );
    }
    let _ = writeln!(out, "{header} {:>12}", "nodes");
    let mut line = |label: String, c: &GravityCounts, nodes: String| {
        let _ = write!(
            out,
            "{label:>5} {:>18} {:>16} {:>15} {:>15} {:>13}",
            grouped(c.positions),
            grouped(c.terminal),
            grouped(c.x_wins),
            grouped(c.o_wins),
            grouped(c.draws)
        );
        if value.is_some() {
            let _ = write!(
                out,
                " {:>18} {:>18} {:>18}",
                grouped(c.first_won),
                grouped(c.first_drawn),
                grouped(c.first_lost)
            );
        }
        let _ = writeln!(out, " {nodes:>12}");
    };
    for p in plies {
        line(p.counts.ply.to_string(), &p.counts, grouped(p.nodes));
    }
    line("total".into(), &total, String::new());
    match value {
        Some(v) => {
            let _ = writeln!(
                out,
                "value of the empty board: {} (a symbolic table holds values, not depths)",
                GameValue::of_first_player(v).in_words()
            );
        }
        None => {
            let _ = writeln!(out, "counted only (no values: drop --count-only to solve)");
        }
    }
    out.push_str(&timing.line(Some(total.positions)));
    emit(&out)
}

/// `query FILE` of a symbolic table: `--check` (with every byte checked) or
/// a position's answer.
pub fn query(
    table: &SymbolicFile,
    position: &super::position::PositionArgs,
    info: bool,
    run: &RunArgs,
    clock: Instant,
) -> anyhow::Result<ExitCode> {
    let layout = *table.layout();
    if info {
        let threads = run.threads();
        let bar = run.progress_plies();
        table.certify(&run.budget(), threads, &bar)?;
        bar.finish();
        let timing = Timing::loaded(clock.elapsed().as_secs_f64());
        if run.json {
            let mut summary = symbolic_summary(&layout, table.plies(), Some(table.value()));
            if let Value::Object(map) = &mut summary {
                map.insert("bytes".into(), json!(table.bytes()));
                map.insert("checked".into(), json!(true));
                map.insert("certified".into(), json!(true));
                map.extend(timing.json_keys(None));
            }
            return emit_json(&summary);
        }
        println!(
            "symbolic table: {} bytes, every checksum and node checked",
            grouped(table.bytes())
        );
        println!(
            "certified    every ply's positions, won and lost sets recomputed from the rules of \
             the board and equal to those stored; every count and the value derived from them"
        );
        return report(&layout, table.plies(), Some(table.value()), &timing, false);
    }
    let board = BoardGame::new(
        layout.family,
        retrograde::language::BoardSize::new(layout.cols, layout.rows, layout.k),
    )?;
    let p = position.position(&board)?;
    let timing = Timing::loaded(clock.elapsed().as_secs_f64());
    print_table_answer(&board, &p, &SymbolicTable(table), run.json, || {
        (timing.json_keys(None), timing.line(None))
    })
}
