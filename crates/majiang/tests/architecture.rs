//! The invariants ARCHITECTURE.md states about the library's shape, checked on its sources:
//!
//! - the library's modules stand on floors, and a module imports only from floors below its own
//!   ([`FLOORS`]; `the_library_imports_only_downwards`);
//! - the library does no I/O: no files, sockets, clocks, environment, threads, processes or
//!   printing, and no randomness but from a seed (`the_library_does_no_io`);
//! - a new rule set is its folder plus its registry line: every other place in the project that
//!   names rule sets is a touch point listed here and in ARCHITECTURE.md, and those that list the
//!   sets list every registered one (`every_place_that_names_a_rule_set_is_a_listed_touch_point`);
//! - the server's modules import one another without a circle
//!   (`the_server_modules_import_without_a_circle`).
//!
//! The sources read are the library's own (and the server's), found as rustc finds them: from
//! `lib.rs` through each `mod name;` that is not `#[cfg(test)]`, with test-only items and
//! comments left out.

use majiang::rules::RULE_SETS;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The library's top-level modules, each on a floor (0 lowest). A module imports only from
/// floors below its own; a new module gets its floor here (the test names one that has none).
const FLOORS: &[(&str, u8)] = &[
    ("tile", 0),
    ("seeds", 0),
    ("notation", 1),
    ("seat", 1),
    ("extra_winds", 1),
    ("counts", 2),
    ("meld", 2),
    ("words", 2),
    ("typed_hand", 3),
    ("analysis", 3),
    ("config", 4),
    ("scoring", 5),
    ("rules", 6),
    ("table", 7),
    ("bots", 8),
    ("driver", 9),
    ("review", 9),
];

/// The repository's top folder.
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A library source file: its path under `src/`, its module path (`["table", "game", "win"]`)
/// and its code without comments and test-only items.
struct Source {
    file: String,
    module: Vec<String>,
    code: String,
}

/// The code of a file without comments and without the items under `#[cfg(test)]` (a one-line
/// item, or a block up to the closing brace at its own indentation), and the modules it declares
/// outside test code (`mod name;`).
fn strip(text: &str) -> (String, Vec<String>) {
    let mut code = String::new();
    let mut declared = Vec::new();
    let mut lines = text.lines();
    let mut test_only = false;
    while let Some(line) = lines.next() {
        let line = line.split("//").next().unwrap_or("");
        let trimmed = line.trim();
        if trimmed.starts_with("#[cfg(test)]") {
            test_only = true;
            continue;
        }
        if test_only {
            if trimmed.is_empty() || trimmed.starts_with("#[") {
                continue;
            }
            test_only = false;
            // The item's head may span lines (a long signature): it ends at `;` or `{`.
            let indent = &line[..line.len() - line.trim_start().len()];
            let mut head = trimmed.to_string();
            while !head.ends_with('{') && !head.ends_with(';') {
                match lines.next() {
                    Some(next) => head = next.split("//").next().unwrap_or("").trim().to_string(),
                    None => break,
                }
            }
            if head.ends_with('{') {
                let end = format!("{indent}}}");
                for inner in lines.by_ref() {
                    if inner.trim_end() == end {
                        break;
                    }
                }
            }
            continue;
        }
        let item = trimmed
            .trim_start_matches("pub ")
            .trim_start_matches("pub(crate) ")
            .trim_start_matches("pub(super) ");
        if let Some(name) = item.strip_prefix("mod ").and_then(|m| m.strip_suffix(';')) {
            declared.push(name.trim().to_string());
        }
        code.push_str(line);
        code.push('\n');
    }
    (code, declared)
}

/// Every file of the library as rustc compiles it, from `lib.rs` down its `mod` declarations.
fn library() -> Vec<Source> {
    crate_sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

/// Every file of the crate whose sources are `src`, from its `lib.rs` down.
fn crate_sources(src: &Path) -> Vec<Source> {
    let mut out = Vec::new();
    let mut todo = vec![(src.join("lib.rs"), Vec::<String>::new())];
    while let Some((path, module)) = todo.pop() {
        let (code, declared) = strip(&read(&path));
        // A file's children sit beside it (`lib.rs`, `mod.rs`) or in the folder of its name.
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let dir = if name == "lib.rs" || name == "mod.rs" {
            path.parent().unwrap().to_path_buf()
        } else {
            path.with_extension("")
        };
        for child in declared {
            let file = dir.join(format!("{child}.rs"));
            let file = if file.exists() {
                file
            } else {
                dir.join(&child).join("mod.rs")
            };
            let mut path = module.clone();
            path.push(child);
            todo.push((file, path));
        }
        let file = path.strip_prefix(src).unwrap().display().to_string();
        out.push(Source { file, module, code });
    }
    out
}

/// The first segment after each path prefix `prefix` (`crate::`, `std::`) in `code`, the
/// segments of a group (`crate::{a::X, b}`) each.
fn segments_after<'a>(code: &'a str, prefix: &str) -> Vec<&'a str> {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    for (i, _) in code.match_indices(prefix) {
        if code[..i].chars().next_back().is_some_and(is_ident) {
            continue; // `majiang::crate_x::` is not `crate::`
        }
        let rest = &code[i + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let end = group
                .char_indices()
                .find(|&(_, c)| {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => return true,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    false
                })
                .map_or(group.len(), |(j, _)| j);
            let mut depth = 0;
            let mut start = 0;
            let inner = &group[..end];
            for (j, c) in inner.char_indices().chain([(inner.len(), ',')]) {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        let item = inner[start..j].trim();
                        let first = item.split("::").next().unwrap_or("").trim();
                        if !first.is_empty() {
                            out.push(first);
                        }
                        start = j + 1;
                    }
                    _ => {}
                }
            }
        } else {
            let end = rest.find(|c: char| !is_ident(c)).unwrap_or(rest.len());
            out.push(&rest[..end]);
        }
    }
    out
}

/// The top-level modules a file imports: `crate::x` paths, and `super::` paths that climb out
/// of its top-level module. Items `lib.rs` re-exports (`crate::Tile`) count as their module.
fn imports(source: &Source, reexports: &[(String, String)]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for first in segments_after(&source.code, "crate::") {
        let module = reexports
            .iter()
            .find(|(item, _)| item == first)
            .map_or(first, |(_, module)| module.as_str());
        out.insert(module.to_string());
    }
    // `super::` climbs one module: from a file whose module path is `depth` long, `depth` of
    // them reach the crate root, and the next segment is a top-level module.
    let depth = source.module.len();
    let code = source.code.as_str();
    for (i, _) in code.match_indices("super::") {
        if code[..i].ends_with("super::") {
            continue; // counted from the run's first
        }
        let mut rest = &code[i..];
        let mut climbs = 0;
        while let Some(after) = rest.strip_prefix("super::") {
            climbs += 1;
            rest = after;
        }
        if climbs == depth {
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            if end > 0 {
                out.insert(rest[..end].to_string());
            }
        }
    }
    out
}

/// What `lib.rs` re-exports at the crate root, by item: (item, its module).
fn root_reexports() -> Vec<(String, String)> {
    reexports_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"))
}

/// What the `lib.rs` at `lib` re-exports at its crate's root, by item: (item, its module).
fn reexports_of(lib: &Path) -> Vec<(String, String)> {
    let lib = read(lib);
    let mut out = Vec::new();
    for line in lib.lines() {
        let Some(rest) = line.trim().strip_prefix("pub use ") else {
            continue;
        };
        let rest = rest.trim_end_matches(';');
        let (module, items) = rest.split_once("::").expect("pub use module::item");
        for item in items.trim_matches(|c| c == '{' || c == '}').split(',') {
            out.push((item.trim().to_string(), module.to_string()));
        }
    }
    out
}

fn floor(module: &str) -> Option<u8> {
    FLOORS.iter().find(|(m, _)| *m == module).map(|&(_, f)| f)
}

#[test]
fn the_library_imports_only_downwards() {
    let sources = library();
    assert!(
        sources.len() > 80,
        "the library is found: {}",
        sources.len()
    );
    let reexports = root_reexports();
    for (item, module) in &reexports {
        assert!(
            floor(module).is_some_and(|f| f <= 2),
            "lib.rs re-exports {item} from {module}: the root re-exports only ground-floor items"
        );
    }
    let mut offenders = Vec::new();
    for source in &sources {
        let Some(top) = source.module.first() else {
            continue; // lib.rs
        };
        let own = floor(top)
            .unwrap_or_else(|| panic!("module `{top}` has no floor: add it to FLOORS (tests/architecture.rs) and to ARCHITECTURE.md"));
        for module in imports(source, &reexports) {
            if &module == top {
                continue;
            }
            let Some(theirs) = floor(&module) else {
                continue; // a root item that is no module: the `words_table!` macro
            };
            if theirs >= own {
                offenders.push(format!(
                    "src/{} ({top}, floor {own}) imports {module} (floor {theirs})",
                    source.file
                ));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "imports running up or sideways (move the shared item down a floor):\n{}",
        offenders.join("\n")
    );
}

/// The server's top-level modules import one another without a circle (so they stand on
/// floors, each importing only from below: the server has no hand-kept floor table, the order
/// is whatever the imports make it). A circle is named, module by module.
#[test]
fn the_server_modules_import_without_a_circle() {
    let src = repo().join("crates/majiang-server/src");
    let sources = crate_sources(&src);
    assert!(sources.len() > 30, "the server is found: {}", sources.len());
    let reexports = reexports_of(&src.join("lib.rs"));
    let modules: BTreeSet<&str> = sources
        .iter()
        .filter_map(|s| s.module.first().map(String::as_str))
        .collect();
    let mut graph: std::collections::BTreeMap<&str, BTreeSet<String>> = Default::default();
    for source in &sources {
        let Some(top) = source.module.first() else {
            continue; // lib.rs
        };
        for module in imports(source, &reexports) {
            if module != *top && modules.contains(module.as_str()) {
                graph.entry(top.as_str()).or_default().insert(module);
            }
        }
    }
    assert!(graph.len() > 20, "the server's imports are read: {graph:?}");
    // Depth-first search; a module met again while still on the path closes a circle.
    fn visit<'a>(
        m: &'a str,
        graph: &'a std::collections::BTreeMap<&str, BTreeSet<String>>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<Vec<&'a str>> {
        if let Some(i) = path.iter().position(|p| *p == m) {
            let mut circle = path[i..].to_vec();
            circle.push(m);
            return Some(circle);
        }
        if !done.insert(m) {
            return None;
        }
        path.push(m);
        for next in graph.get(m).into_iter().flatten() {
            if let Some(c) = visit(next, graph, path, done) {
                return Some(c);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    for m in &modules {
        if let Some(circle) = visit(m, &graph, &mut Vec::new(), &mut done) {
            panic!(
                "the server's modules import in a circle: {} (move the shared item to a module below both)",
                circle.join(" → ")
            );
        }
    }
}

#[test]
fn the_import_reader_finds_uses_groups_inline_paths_and_supers() {
    let (code, declared) = strip(
        "use crate::{tile::Tile, table::{Game, x}};\n\
         // use crate::bots::X;\n\
         pub mod game;\n\
         #[cfg(test)]\nmod tests;\n\
         #[cfg(test)]\nmod inline {\n    use crate::review::Y;\n}\n\
         impl A {\n    #[cfg(test)]\n    fn long(\n        a: u8,\n    ) -> u8 {\n        crate::bots::f(a)\n    }\n}\n\
         fn f() { crate::driver::g(); super::super::scoring::h(); }\n",
    );
    assert_eq!(declared, ["game"]);
    let source = Source {
        file: "a/b.rs".into(),
        module: vec!["a".into(), "b".into()],
        code,
    };
    let found: Vec<String> = imports(&source, &[]).into_iter().collect();
    assert_eq!(found, ["driver", "scoring", "table", "tile"]);
    let reexport = [("Tile".to_string(), "tile".to_string())];
    let root = Source {
        file: "c.rs".into(),
        module: vec!["c".into()],
        code: "let t = crate::Tile::new(0); use super::meld::Meld;".into(),
    };
    let found: Vec<String> = imports(&root, &reexport).into_iter().collect();
    assert_eq!(found, ["meld", "tile"]);
}

/// What the library never touches: the outside world's handles and entropy. Randomness comes
/// in as a seed; the binary and the server own all I/O.
const NO_IO: &[&str] = &["fs", "net", "time", "thread", "env", "process", "io"];

/// Calls that print or draw entropy, anywhere in the library's code.
const NO_IO_CALLS: &[&str] = &[
    "println!",
    "eprintln!",
    "print!(",
    "eprint!(",
    "dbg!(",
    "thread_rng",
    "rand::rng()",
    "OsRng",
    "from_entropy",
    "from_os_rng",
    "tokio",
];

#[test]
fn the_library_does_no_io() {
    let mut offenders = Vec::new();
    for source in library() {
        for module in segments_after(&source.code, "std::") {
            if NO_IO.contains(&module) {
                offenders.push(format!("src/{}: std::{module}", source.file));
            }
        }
        for call in NO_IO_CALLS {
            if source.code.contains(call) {
                offenders.push(format!("src/{}: {call}", source.file));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "the library is pure (files, sockets, clocks, environment, threads, printing and \
         entropy belong to the CLI and the server):\n{}",
        offenders.join("\n")
    );
    // The check sees what it looks for.
    let (code, _) = strip("use std::{collections::HashMap, fs};\nfn f() { println!(\"x\"); }");
    assert_eq!(segments_after(&code, "std::"), ["collections", "fs"]);
    assert!(code.contains("println!"));
}

/// Why a file outside the library's rule-set folders names rule sets.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Touch {
    /// It lists the sets: it must name every registered one (a new set is added here).
    EverySet,
    /// A default or an example: a new set changes nothing here.
    Example,
}

/// Every file outside the Rust sources (which `rules::tests::sources` keeps free of rule-set
/// names) that names a rule set, paths from the repository's top.
const TOUCH_POINTS: &[(&str, Touch)] = &[
    ("crates/majiang-server/web/index.html", Touch::EverySet),
    (
        "crates/majiang-py/python/majiang/__init__.py",
        Touch::EverySet,
    ),
    (
        "crates/majiang-py/python/majiang/_core.pyi",
        Touch::EverySet,
    ),
    ("crates/majiang-server/web/js/score.js", Touch::Example),
    ("crates/majiang-server/web/js/ledger.js", Touch::Example),
    (
        "crates/majiang-py/python/majiang/baselines.py",
        Touch::Example,
    ),
    ("crates/majiang-py/python/majiang/ppo.py", Touch::Example),
    (
        "crates/majiang-py/python/majiang/gym_vector.py",
        Touch::Example,
    ),
    (
        "crates/majiang-py/python/majiang/gymnasium_env.py",
        Touch::Example,
    ),
    (
        "crates/majiang-py/python/majiang/pettingzoo_env.py",
        Touch::Example,
    ),
    ("crates/majiang-py/python/majiang/vector.py", Touch::Example),
    ("crates/majiang-py/python/majiang/arena.py", Touch::Example),
    ("crates/majiang-py/python/majiang/sb3.py", Touch::Example),
    ("crates/majiang-py/python/majiang/rllib.py", Touch::Example),
    (
        "crates/majiang-py/python/majiang/parallel.py",
        Touch::Example,
    ),
];

/// The folders searched for rule-set names, and the file endings read there.
const SEARCHED: &[(&str, &[&str])] = &[
    ("crates/majiang-server/web", &["js", "html", "css"]),
    ("crates/majiang-py/python", &["py", "pyi"]),
];

/// The rule sets `text` names as a quoted string (`"classic"` or `'classic'`).
fn quoted_sets(text: &str) -> BTreeSet<&'static str> {
    RULE_SETS
        .iter()
        .map(|s| s.name())
        .filter(|name| text.contains(&format!("\"{name}\"")) || text.contains(&format!("'{name}'")))
        .collect()
}

/// The files under `dir` (not its `vendor/` folder: other projects' code) ending in one of `ends`.
fn files(dir: &Path, ends: &[&str], out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if name != "vendor" && name != "__pycache__" {
                files(&path, ends, out);
            }
        } else if ends
            .iter()
            .any(|e| path.extension().is_some_and(|x| x == *e))
        {
            out.push(path);
        }
    }
}

#[test]
fn every_place_that_names_a_rule_set_is_a_listed_touch_point() {
    let root = repo();
    let all: BTreeSet<&str> = RULE_SETS.iter().map(|s| s.name()).collect();
    let architecture = read(&root.join("ARCHITECTURE.md"));
    let mut found = Vec::new();
    for (dir, ends) in SEARCHED {
        files(&root.join(dir), ends, &mut found);
    }
    assert!(
        found.len() > 20,
        "the front ends are found: {}",
        found.len()
    );
    let mut offenders = Vec::new();
    let mut naming = BTreeSet::new();
    for path in &found {
        let relative = path.strip_prefix(&root).unwrap().display().to_string();
        let named = quoted_sets(&read(path));
        if named.is_empty() {
            continue;
        }
        naming.insert(relative.clone());
        match TOUCH_POINTS.iter().find(|(p, _)| *p == relative) {
            None => offenders.push(format!(
                "{relative} names {named:?}: ask the registry (GET /api/rulesets, \
                 majiang.rule_sets(), the RuleSetSpec) or list it in TOUCH_POINTS and ARCHITECTURE.md"
            )),
            Some((_, Touch::EverySet)) if named != all => offenders.push(format!(
                "{relative} lists the rule sets but names only {named:?} of {all:?}"
            )),
            Some(_) => {}
        }
    }
    for (path, touch) in TOUCH_POINTS {
        assert!(
            naming.contains(*path),
            "{path} no longer names a rule set: delete its line from TOUCH_POINTS"
        );
        if *touch != Touch::Example {
            let name = Path::new(path).file_name().unwrap().to_str().unwrap();
            assert!(
                architecture.contains(name),
                "ARCHITECTURE.md's touch points do not mention {path}"
            );
        }
    }
    assert!(offenders.is_empty(), "{}", offenders.join("\n"));

    // The catalogues name every set (the lobby's and history's `rules.<name>`; the patterns,
    // reasons and house rules are the server's `i18n_catalogues` test's), and every set has
    // its page in the book.
    for lang in ["en", "zh", "zh-Hant"] {
        let path = root.join(format!("crates/majiang-server/web/i18n/{lang}.json"));
        let catalogue: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&read(&path)).unwrap();
        for name in &all {
            assert!(
                catalogue.contains_key(&format!("rules.{name}")),
                "{lang}.json has no rules.{name}"
            );
        }
    }
    let summary = read(&root.join("docs/SUMMARY.md"));
    for name in &all {
        assert!(
            root.join(format!("docs/rules/{name}.md")).exists(),
            "docs/rules/{name}.md is missing"
        );
        assert!(
            summary.contains(&format!("(rules/{name}.md)")),
            "docs/SUMMARY.md does not list rules/{name}.md"
        );
    }
}

#[test]
fn the_touch_point_check_sees_quoted_names_only() {
    let names = quoted_sets("if (rules === \"classic\") {} // hongkong, 'yangzhou'");
    assert!(names.contains("classic") && names.contains("yangzhou"));
    assert!(!names.contains("hongkong"));
}
