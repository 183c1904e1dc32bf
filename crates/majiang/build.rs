//! Computes the analysis lookup tables at compile time (see `src/analysis/tables/mod.rs`):
//! writes them into `OUT_DIR`, where the library embeds them.

#[path = "src/analysis/tables/generate.rs"]
mod generate;
#[path = "src/analysis/tables/shape.rs"]
mod shape;

use std::path::PathBuf;

fn main() {
    println!("cargo::rerun-if-changed=src/analysis/tables/generate.rs");
    println!("cargo::rerun-if-changed=src/analysis/tables/shape.rs");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    if let Err(e) = generate::write_tables(&out) {
        panic!(
            "cannot write the analysis tables into {}: {e}",
            out.display()
        );
    }
}
