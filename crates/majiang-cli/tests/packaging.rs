//! The release archive's hygiene (issue 48, item 10): the binary in it is stripped, its debug
//! information apart in a file the binary names, and the systemd unit rated "OK" (3.0 or less)
//! by `systemd-analyze security`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `readelf ARGS FILE`'s output.
fn readelf(args: &[&str], file: &Path) -> String {
    let out = Command::new("readelf")
        .args(args)
        .arg(file)
        .output()
        .expect("readelf runs (binutils)");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_archived_binary_is_stripped_and_its_debug_information_kept_apart() {
    let out = tempfile::tempdir().unwrap();
    let packed = Command::new("bash")
        .arg(root().join("scripts/release.sh"))
        .args(["--fast", "--binary", env!("CARGO_BIN_EXE_majiang"), "--out"])
        .arg(out.path())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&packed.stderr);
    assert!(packed.status.success(), "release.sh failed: {said}");
    let archive = String::from_utf8_lossy(&packed.stdout)
        .lines()
        .last()
        .unwrap()
        .trim()
        .to_string();
    let name = Path::new(&archive)
        .file_name()
        .unwrap()
        .to_string_lossy()
        .trim_end_matches(".tar.gz")
        .to_string();
    let unpacked = tempfile::tempdir().unwrap();
    assert!(
        Command::new("tar")
            .args(["-xzf", &archive, "-C"])
            .arg(unpacked.path())
            .status()
            .unwrap()
            .success()
    );
    let bin = unpacked.path().join(&name).join("bin/majiang");
    let debug = out.path().join(format!("{name}.debug"));
    let sections = readelf(&["-S", "-W"], &bin);
    // (`.debug_gdb_scripts` is loaded with the program, Rust's pretty-printers' loader: not
    // debug information.)
    for section in [".debug_info", ".debug_line", ".debug_str", ".debug_abbrev"] {
        assert!(!sections.contains(section), "{section} left: {sections}");
    }
    assert!(!sections.contains(".symtab"), "symbol table left");
    assert!(
        readelf(&["-S", "-W"], &debug).contains(".debug_line"),
        "no line tables in {}",
        debug.display()
    );
    assert!(
        readelf(&["--string-dump=.gnu_debuglink"], &bin).contains(&format!("{name}.debug")),
        "the binary does not name its debug file"
    );
    // Smaller, and still the program.
    let size = |p: &Path| std::fs::metadata(p).unwrap().len();
    assert!(size(&bin) < size(Path::new(env!("CARGO_BIN_EXE_majiang"))));
    let help = Command::new(&bin).arg("--help").output().unwrap();
    assert!(help.status.success() && String::from_utf8_lossy(&help.stdout).contains("serve"));
    assert!(said.contains("glibc floor 2."), "{said}");
    // The hosting guide carries the cluster page.
    let hosting = std::fs::read_to_string(unpacked.path().join(&name).join("HOSTING.md")).unwrap();
    assert!(hosting.contains("## Running a cluster") && hosting.contains("--public-url"));
    eprintln!("{}", said.trim());
}

#[test]
fn the_systemd_unit_rates_ok() {
    let rated = Command::new("bash")
        .arg(root().join("scripts/unit-security.sh"))
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&rated.stdout),
        String::from_utf8_lossy(&rated.stderr)
    );
    if rated.status.code() == Some(2) {
        majiang_testkit::require("systemd-analyze", "apt-get install systemd");
        return;
    }
    assert!(rated.status.success(), "{said}");
    let line = said.lines().last().unwrap_or_default();
    let score: f64 = line
        .split_whitespace()
        .rev()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no rating: {said}"));
    assert!(score <= 3.0 && line.ends_with("OK"), "{said}");
    eprintln!("{line}");
}
