//! Build script: the git commit the crate is built from, as the environment
//! variable `RETROGRADE_COMMIT` (`git rev-parse --short HEAD`), for the
//! machine record of `retrograde bench`.
//!
//! Never fails the build: without git, outside a repository, or in a
//! repository whose top is not the workspace's folder, one up from this
//! crate's (a copy of the crate vendored inside another project), the
//! commit is `unknown`.
//!
//! The script reruns when the commit can change: when `HEAD` changes
//! (checkout, commit on a detached head) and when the branch it names moves.
//! In a linked worktree `.git` is a file and `HEAD` lives under the main
//! repository's `.git/worktrees/NAME/`, while branches live in the common
//! folder, so every path is asked of git (`--git-path`), never assumed.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    // the workspace's top: this crate is its `cli/` folder
    let dir = manifest.parent().map(Path::to_path_buf).unwrap_or_default();
    let commit = if is_repository_top(&dir) {
        git(&dir, &["rev-parse", "--short", "HEAD"])
    } else {
        None
    };
    println!(
        "cargo:rustc-env=RETROGRADE_COMMIT={}",
        commit.as_deref().unwrap_or("unknown")
    );
    if commit.is_some() {
        for path in watched(&dir) {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
}

/// The trimmed standard output of `git ARGS` run in `dir`, if git ran and
/// succeeded with some output.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && !text.is_empty()).then_some(text)
}

/// Whether `dir` is the top of a git work tree (so that HEAD is this
/// crate's commit, not that of a project that holds a copy of it).
fn is_repository_top(dir: &Path) -> bool {
    let Some(top) = git(dir, &["rev-parse", "--show-toplevel"]) else {
        return false;
    };
    match (Path::new(&top).canonicalize(), dir.canonicalize()) {
        (Ok(top), Ok(dir)) => top == dir,
        _ => false,
    }
}

/// The files whose change can change `HEAD`'s commit, those that exist:
/// the worktree's `HEAD`, the branch it names (its loose ref or, while the
/// branch is only packed, the nearest existing folder of the path its loose
/// ref will be written to) and `packed-refs`. A path cargo is told to watch must exist, or cargo
/// reruns the script on every build.
fn watched(dir: &Path) -> Vec<PathBuf> {
    let git_path = |name: &str| {
        git(dir, &["rev-parse", "--git-path", name]).map(|p| {
            let p = PathBuf::from(p);
            if p.is_absolute() {
                p
            } else {
                dir.join(p)
            }
        })
    };
    let mut paths: Vec<PathBuf> = [git_path("HEAD"), git_path("packed-refs")]
        .into_iter()
        .flatten()
        .collect();
    if let Some(branch) = git(dir, &["symbolic-ref", "-q", "HEAD"]).and_then(|r| git_path(&r)) {
        let mut nearest = branch.as_path();
        while !nearest.exists() {
            match nearest.parent() {
                Some(folder) => nearest = folder,
                None => break,
            }
        }
        paths.push(nearest.to_path_buf());
    }
    paths.retain(|p| p.exists());
    paths
}
