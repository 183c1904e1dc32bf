//! A rule set is named only in its own folder: the sources of the library, the CLI, the server
//! and the Python bindings (their code, not their tests or comments) hold no rule set's name in
//! a string, and name a set's module only in the registry's list (`rules/registry.rs`) and the
//! module list (`rules/mod.rs`). Everything else asks the registry or the [`RuleSet`] it holds.
//!
//! [`RuleSet`]: crate::rules::RuleSet

use crate::rules::RULE_SETS;
use std::path::{Path, PathBuf};

/// The `.rs` files under `dir`, skipping test files and folders (`tests.rs`, `tests/`).
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if name != "tests" {
                sources(&path, out);
            }
        } else if name.ends_with(".rs") && name != "tests.rs" {
            out.push(path);
        }
    }
}

/// The code of a file up to its first `#[cfg(test)]` (the test module ends a file here), each
/// line without its comment, with its line number.
fn code_lines(text: &str) -> Vec<(usize, &str)> {
    text.lines()
        .enumerate()
        .take_while(|(_, l)| !l.trim_start().starts_with("#[cfg(test)]"))
        .map(|(n, l)| (n + 1, l.split("//").next().unwrap_or("")))
        .collect()
}

/// The parts of a line of code inside string literals (a plain split on quotes: no source here
/// escapes a quote in a string that holds a rule set's name).
fn strings(code: &str) -> impl Iterator<Item = &str> {
    code.split('"').skip(1).step_by(2)
}

/// True if `word` occurs in `text` not as part of a longer word.
fn has_word(text: &str, word: &str) -> bool {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(is_word) && !after.is_some_and(is_word)
    })
}

#[test]
fn no_rule_set_is_named_outside_its_folder_and_the_registry() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for dir in [
        "majiang/src",
        "majiang-cli/src",
        "majiang-server/src",
        "majiang-py/src",
    ] {
        sources(&crates.join(dir), &mut files);
    }
    assert!(files.len() > 50, "the sources are found: {}", files.len());
    let rules_dir = crates.join("majiang/src/rules");
    let mut offenders = Vec::new();
    for path in &files {
        let own_folder = RULE_SETS
            .iter()
            .find(|s| path.starts_with(rules_dir.join(s.name())));
        let lists_modules =
            path == &rules_dir.join("registry.rs") || path == &rules_dir.join("mod.rs");
        let text = std::fs::read_to_string(path).unwrap_or_default();
        for (n, code) in code_lines(&text) {
            for set in RULE_SETS {
                let name = set.name();
                if own_folder.is_some_and(|s| s.name() == name) {
                    continue;
                }
                let in_string = strings(code).any(|s| has_word(s, name));
                let module = !lists_modules && code.contains(&format!("{name}::"));
                if in_string || module {
                    offenders.push(format!("{}:{n}: {}", path.display(), code.trim()));
                }
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "ask the registry or the rule set instead:\n{}",
        offenders.join("\n")
    );
}

#[test]
fn the_check_finds_a_name_in_a_string_and_a_module_path() {
    let code = code_lines("let r = \"hangzhou\"; // \"classic\"\nuse rules::yangzhou::X;");
    assert!(strings(code[0].1).any(|s| has_word(s, "hangzhou")));
    assert!(!strings(code[0].1).any(|s| has_word(s, "classic")));
    assert!(code[1].1.contains("yangzhou::"));
    assert!(!has_word("hangzhou_cases", "hangzhou"));
    assert!(has_word("rules: hongkong, hangzhou", "hangzhou"));
}
