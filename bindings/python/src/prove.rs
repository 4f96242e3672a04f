//! [`prove`]: an m,n,k board's value proved with a certificate, by the
//! library's prover cascade ([`retrograde::facade::prove`]) — the same
//! proof `retrograde prove mnk` finds and the same certificate it writes.

use std::path::PathBuf;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use retrograde::{
    facade::{checked_seconds, Certificate, Method, ProveRequest},
    Analyzer, BoardSize, Setting,
};

use crate::errors::IntoPy;
use crate::interrupt;
use crate::limits;
use crate::table::budget;

/// Proves the empty `cols` × `rows` board with lines of `k` (or, with
/// `method="threats"`, the position `after` reaches) and returns the
/// report of `retrograde prove mnk --json` as a dict, with the
/// certificate's text under `"certificate_text"` (`None` when not proved,
/// or for the threat prover's, which goes to the `proof` file only).
#[pyfunction]
#[pyo3(signature = (cols, rows, k, *, method="auto", after="", time_limit=None, proof=None, replace_any_file=false, threads=None, max_memory=None))]
#[allow(clippy::too_many_arguments)]
pub fn prove(
    py: Python<'_>,
    cols: u32,
    rows: u32,
    k: u32,
    method: &str,
    after: &str,
    time_limit: Option<f64>,
    proof: Option<PathBuf>,
    replace_any_file: bool,
    threads: Option<&Bound<'_, PyAny>>,
    max_memory: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let method = match method {
        "auto" => Method::Auto,
        "win" => Method::Win,
        "threats" => Method::Threats,
        other => {
            return Err(PyValueError::new_err(format!(
                "method={other:?}: give \"auto\", \"win\" or \"threats\""
            )))
        }
    };
    let time_limit = checked_seconds(Setting::TimeLimit, time_limit).py_err()?;
    let request = ProveRequest {
        method,
        after: after.to_string(),
        certificate: proof,
        replace_any_file,
        time_limit,
        ..ProveRequest::new(BoardSize::new(cols, rows, k))
    };
    let budget = budget(max_memory)?;
    let threads = limits::threads(py, threads)?;
    // the provers stop on their time limit, not on Ctrl-C: the call
    // returns when they do
    let analyzer = Analyzer::new(budget, threads);
    let report = interrupt::run(py, |_cancel| analyzer.prove(&request).py_err())?;
    let mut json = report.json(&request);
    let text = report.proof.as_ref().and_then(|p| match &p.certificate {
        Certificate::Text(text) => Some(text.clone()),
        Certificate::Streamed => None,
    });
    json["certificate_text"] = serde_json::Value::from(text);
    let loads = py.import("json")?.getattr("loads")?;
    Ok(loads.call1((json.to_string(),))?.unbind())
}
