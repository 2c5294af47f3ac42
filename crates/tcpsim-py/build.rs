//! Embeds a digest of the engine's sources as `TCPSIM_SOURCE_DIGEST` (read with `env!` in
//! lib.rs): the result store keys runs on what the engine was built *from*, not on the built
//! library's bytes, so a rebuild of the same sources in another directory (or by another
//! compiler run) reuses every stored run, and any change to the sources does not.
//!
//! The digest is the sha256 of a `sha256sum`-style manifest: one line
//! `<sha256 of the file> <two spaces> <path relative to the workspace root>` per source file,
//! sorted by path, paths with `/`. tests/test_store_key.py recomputes it the same way.
//!
//! It also embeds `TCPSIM_BUILD_COMMIT`, the git commit the library was built from (`git
//! rev-parse HEAD`, with `-dirty` when tracked files differed from it), so a wheel's runs record
//! their commit (`tcpsim.__commit__`); `unknown` when the sources are not a git checkout of
//! tcpsim (an sdist, a tarball) or git is missing.
//!
//! And `TCPSIM_ENGINE_BUILD`, how the compiler optimized it: `pgo` when built with a profile
//! (`-Cprofile-use`, scripts/setup.sh), `instrumented` when built to record one
//! (`-Cprofile-generate`), else `plain`; `tcpsim bench` reports it beside its timings.

use sha2::{Digest, Sha256};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What decides the engine's behaviour: the workspace manifest and lock file, and each
/// crate's manifest and sources (this build script only computes a label, so it is not one).
const SOURCES: [&str; 6] = [
    "Cargo.toml",
    "Cargo.lock",
    "crates/tcpsim-core/Cargo.toml",
    "crates/tcpsim-core/src",
    "crates/tcpsim-py/Cargo.toml",
    "crates/tcpsim-py/src",
];

fn files_under(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let entries = fs::read_dir(path).unwrap_or_else(|e| panic!("cannot list {}: {e}", path.display()));
        for entry in entries {
            files_under(&entry.expect("a directory entry").path(), out);
        }
    } else {
        out.push(path.to_path_buf());
    }
}

/// `git` run in `root`, its trimmed output; None if git is missing or fails.
fn git(root: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git").arg("-C").arg(root).args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The commit `root` is checked out at (`-dirty` if tracked files were changed), or None when
/// `root` is not the top of a git checkout (an sdist unpacked inside some other repository
/// must not report that repository's commit). Asks cargo to run this script again when HEAD
/// moves: on a commit, a checkout, or a change of the branch's ref.
fn build_commit(root: &Path) -> Option<String> {
    let top = PathBuf::from(git(root, &["rev-parse", "--show-toplevel"])?);
    if top.canonicalize().ok()? != root.canonicalize().ok()? {
        return None;
    }
    let mut watched = vec!["HEAD".to_string(), "packed-refs".to_string()];
    watched.extend(git(root, &["symbolic-ref", "-q", "HEAD"]));
    for name in watched {
        if let Some(path) = git(root, &["rev-parse", "--git-path", &name]) {
            let path = root.join(path);
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    }
    let commit = git(root, &["rev-parse", "HEAD"])?;
    let dirty = !git(root, &["status", "--porcelain", "--untracked-files=no"])?.is_empty();
    Some(if dirty { format!("{commit}-dirty") } else { commit })
}

fn main() {
    let crate_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let root = crate_dir.join("../..");
    let mut files = Vec::new();
    for source in SOURCES {
        let path = root.join(source);
        assert!(path.exists(), "{} is missing: the source digest needs the whole workspace", path.display());
        println!("cargo:rerun-if-changed={}", path.display());
        files_under(&path, &mut files);
    }
    let mut lines: Vec<String> = files
        .iter()
        .map(|file| {
            let bytes = fs::read(file).unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display()));
            let relative = file.strip_prefix(&root).expect("under the workspace root");
            let name: Vec<String> =
                relative.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            format!("{:x}  {}\n", Sha256::digest(&bytes), name.join("/"))
        })
        .collect();
    lines.sort_by(|a, b| a[66..].cmp(&b[66..]));
    let digest = Sha256::digest(lines.concat().as_bytes());
    println!("cargo:rustc-env=TCPSIM_SOURCE_DIGEST={digest:x}");
    let commit = build_commit(&root).unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=TCPSIM_BUILD_COMMIT={commit}");
    println!("cargo:rustc-env=TCPSIM_ENGINE_BUILD={}", engine_build());
}

/// `pgo`, `instrumented` or `plain`, from the compiler flags of this build (cargo passes them
/// to build scripts separated by 0x1f, and rebuilds everything when they change).
fn engine_build() -> &'static str {
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    let flags: Vec<&str> = flags.split('\x1f').collect();
    let given = |name: &str| flags.iter().any(|f| f.starts_with(&format!("-C{name}=")) || f.starts_with(name));
    if given("profile-use") {
        "pgo"
    } else if given("profile-generate") {
        "instrumented"
    } else {
        "plain"
    }
}
