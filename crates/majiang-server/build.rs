//! Embeds every file under `web/` in the binary: writes `$OUT_DIR/web_files.rs`, a list of
//! `(path under web/, bytes)` the server serves, so a new module needs no server change.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let web = manifest.join("web");
    println!("cargo:rerun-if-changed=web");
    let mut files = Vec::new();
    collect(&web, &mut files);
    files.sort();
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo")).join("web_files.rs");
    let mut f = fs::File::create(&out).expect("OUT_DIR is writable");
    writeln!(f, "/// Every file under `web/`: its path there (with `/`) and its bytes.").unwrap();
    writeln!(f, "pub(crate) static WEB_FILES: &[(&str, &[u8])] = &[").unwrap();
    for path in &files {
        let rel = path
            .strip_prefix(&web)
            .expect("under web/")
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/");
        writeln!(f, "    ({rel:?}, include_bytes!({:?})),", path.display().to_string()).unwrap();
    }
    writeln!(f, "];").unwrap();
}

/// Every file under `dir`, skipping hidden ones (editor swap files, `.DS_Store`).
fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        if e.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        if path.is_dir() {
            println!("cargo:rerun-if-changed={}", path.display());
            collect(&path, out);
        } else {
            out.push(path);
        }
    }
}
