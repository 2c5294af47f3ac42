//! Embeds a digest of the engine's sources as `TCPSIM_SOURCE_DIGEST` (read with `env!` in
//! lib.rs): the result store keys runs on what the engine was built *from*, not on the built
//! library's bytes, so a rebuild of the same sources in another directory (or by another
//! compiler run) reuses every stored run, and any change to the sources does not.
//!
//! The digest is the sha256 of a `sha256sum`-style manifest: one line
//! `<sha256 of the file> <two spaces> <path relative to the workspace root>` per source file,
//! sorted by path, paths with `/`. tests/test_store_key.py recomputes it the same way.

use sha2::{Digest, Sha256};
use std::fs;
use std::path::{Path, PathBuf};

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
}
