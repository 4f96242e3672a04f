//! Writing reports: stdout that tolerates a closed pipe, and number formats.

use retrograde::{
    facade::{Note, Notes},
    Analyzer,
};
use std::io::Write;
use std::process::ExitCode;

/// Writes `text` to stdout. A reader that went away (a broken pipe, as with
/// `| head`) is not an error: the command exits quietly with success.
pub fn emit(text: &str) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(err) => Err(err.into()),
    }
}

/// Writes `text` to stdout; `Ok(false)` when the reader has gone away (a
/// broken pipe), so that a long command can stop its work.
pub fn emit_while_read(text: &str) -> anyhow::Result<bool> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(true),
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => Ok(false),
        Err(err) => Err(err.into()),
    }
}

/// Whether `err` is, at its root, a write to a closed pipe: the reader of
/// the output has gone away (as with `| head`), which is not a failure.
pub fn reader_went_away(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Writes one JSON object and a newline to stdout.
pub fn emit_json(value: &serde_json::Value) -> anyhow::Result<ExitCode> {
    if CSV.load(std::sync::atomic::Ordering::Relaxed) {
        return emit(&per_ply_csv(value)?);
    }
    emit(&format!("{value}\n"))
}

/// Set once by `--csv`: the report's JSON is printed as its per-ply table.
static CSV: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// From now on, [`emit_json`] prints the `per_ply` table of the object it
/// is given as CSV (`--csv`; the command has already refused what has no
/// such table).
pub fn print_csv_instead_of_json() {
    CSV.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// The `per_ply` array of a report as CSV: a header of the first entry's
/// keys (the JSON's names, in its order), then one row an entry. Numbers
/// and strings as JSON writes them, strings unquoted unless they hold a
/// comma or a quote; `null` as an empty field.
pub fn per_ply_csv(value: &serde_json::Value) -> anyhow::Result<String> {
    use serde_json::Value;
    let Some(Value::Array(plies)) = value.get("per_ply") else {
        anyhow::bail!("--csv prints per-ply tables, and this answer has none (use --json)");
    };
    let Some(Value::Object(first)) = plies.first() else {
        anyhow::bail!("--csv: the per-ply table is empty");
    };
    let keys: Vec<&String> = first.keys().collect();
    let field = |v: Option<&Value>| match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) if s.contains([',', '"', '\n']) => {
            format!("\"{}\"", s.replace('"', "\"\""))
        }
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    };
    let mut csv = keys
        .iter()
        .map(|k| k.as_str())
        .collect::<Vec<_>>()
        .join(",");
    csv.push('\n');
    for ply in plies {
        let row: Vec<String> = keys.iter().map(|k| field(ply.get(k.as_str()))).collect();
        csv.push_str(&row.join(","));
        csv.push('\n');
    }
    Ok(csv)
}

pub use retrograde::host::{grouped, grouped_u128};

/// A board's size as every report names it: width first, `7 columns × 6 rows`.
pub fn board_name(cols: u32, rows: u32) -> String {
    let unit = |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    format!(
        "{} × {}",
        unit(cols, "column", "columns"),
        unit(rows, "row", "rows")
    )
}

/// A rate such as `41.3 M states/s`.
pub fn rate(states: u64, seconds: f64) -> String {
    let per_second = states as f64 / seconds.max(1e-9);
    if per_second >= 1e9 {
        format!("{:.2} G states/s", per_second / 1e9)
    } else if per_second >= 1e6 {
        format!("{:.1} M states/s", per_second / 1e6)
    } else {
        format!("{:.0} states/s", per_second)
    }
}

/// The flag that sets `setting` on the command line, with `value` if one
/// is given (`--method threats`).
pub fn flag(setting: retrograde::Setting, value: Option<&str>) -> String {
    use retrograde::Setting;
    let name = match setting {
        Setting::MaxMemory => "--max-memory",
        Setting::TimeLimit => "--time-limit",
        Setting::Method => "--method",
        Setting::After => "--after",
        Setting::Proof => "--proof",
        Setting::Checkpoint => "--checkpoint",
        Setting::MergeCheckpoint => "--merge-checkpoint",
        Setting::CheckpointEvery => "--checkpoint-every",
        Setting::ReportEvery => "--report-every",
        Setting::MaxStones => "--max-stones",
        Setting::ZoneMoves => "--zone-moves",
        Setting::Covers => "--covers",
        Setting::DefenderRuns => "--defender-runs",
        Setting::Vct => "--vct",
        Setting::Engine => "--engine",
        Setting::Encoding => "--encoding",
        Setting::CountOnly => "--count-only",
        // `prove` and `search` name leave to replace any file `--force`
        Setting::Force | Setting::ReplaceAnyFile => "--force",
        Setting::LargestNumber => "--max",
        Setting::MaxTake => "--max-take",
        Setting::Playouts => "--playouts",
        Setting::Exploration => "--exploration",
    };
    match value {
        Some(value) => format!("{name} {value}"),
        None => name.to_string(),
    }
}

/// A library error's message in the command line's words: the settings it
/// refers to named by their flags ([`flag`]).
pub fn in_flags(err: &retrograde::Error) -> String {
    err.render(flag)
}

/// A library error in the command line's words: the settings it refers
/// to named by their flags ([`flag`]).
pub fn flag_error(err: retrograde::Error) -> anyhow::Error {
    anyhow::anyhow!(err.render(flag))
}

/// An error's one line as the command prints it: each cause after a colon
/// (anyhow's `{:#}`), the library's errors with their settings named by
/// their flags.
pub fn error_line(err: &anyhow::Error) -> String {
    err.chain()
        .map(|cause| match cause.downcast_ref::<retrograde::Error>() {
            Some(e) => e.render(flag),
            None => cause.to_string(),
        })
        .collect::<Vec<_>>()
        .join(": ")
}

/// `analyzer`, its notes ([`Note`]) worded as the command line words them:
/// a `note:` line on stderr each, none when `quiet`.
pub fn worded_notes(analyzer: Analyzer, quiet: bool) -> Analyzer {
    if quiet {
        return analyzer;
    }
    analyzer.with_notes(Notes::new(|note| {
        eprintln!("note: {}", note_in_words(note))
    }))
}

/// A facade's note in the command line's words.
fn note_in_words(note: &Note) -> String {
    match note {
        Note::ProversJoin { searched_alone } => format!(
            "the search did not reach the value in its first {:.0} s; \
             the provers (a pairing, zones, the win prover) join it",
            searched_alone.as_secs_f64()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_grouped_by_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(7_996_000), "7,996,000");
    }
}
