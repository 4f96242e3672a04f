//! docs/ARCHITECTURE.md describes the code as it is (second audit, line
//! 18): every source file is named on it by its path, and every path it
//! names exists.

use std::path::Path;

fn source_files(dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            source_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path.to_str().unwrap().to_string());
        }
    }
}

#[test]
fn every_source_file_is_described_and_every_named_path_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::env::set_current_dir(root).unwrap();
    let doc = std::fs::read_to_string("docs/ARCHITECTURE.md").unwrap();
    let mut files = Vec::new();
    source_files(Path::new("src"), &mut files);
    let missing: Vec<&String> = files
        .iter()
        .filter(|f| !doc.contains(&format!("`{f}`")))
        .collect();
    assert!(missing.is_empty(), "not described: {missing:?}");
    let named: Vec<&str> = doc
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|t| t.starts_with("src/") || t.starts_with("docs/") || t.starts_with("tests/"))
        .filter(|t| !t.contains(' ') && !t.contains('*'))
        .collect();
    let gone: Vec<&&str> = named.iter().filter(|p| !Path::new(p).exists()).collect();
    assert!(gone.is_empty(), "named but gone: {gone:?}");
}
