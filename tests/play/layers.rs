//! The layer table of docs/ARCHITECTURE.md holds for the code: every `crate::` path that a file
//! of `src/` names belongs to its own row or a row below. A room is a folder or a top-level file
//! of `src/`, or a folder inside one with a row of its own (`src/search/solver/`): a file and
//! a path belong to the longest room they lie in. The table is read from the document, so the two
//! cannot drift apart.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Each room of `src/` (`search`, `search/solver`, `board_svg`) with its row, counted from the
/// bottom; `rules` and `notation` are the rules crate's re-exports.
fn layer_table() -> BTreeMap<String, usize> {
    let doc = std::fs::read_to_string(Path::new(ROOT).join("docs/ARCHITECTURE.md"))
        .expect("docs/ARCHITECTURE.md is readable");
    let table = doc
        .split("```text\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("ARCHITECTURE.md opens with the layer table in a text block");
    let mut rows: Vec<Vec<String>> = Vec::new();
    for line in table.lines() {
        if !line.starts_with(' ') {
            rows.push(Vec::new());
        }
        let row = rows.last_mut().expect("the table starts with a row");
        for word in line.split_whitespace() {
            if let Some(path) = word.strip_prefix("src/") {
                let room = path.trim_end_matches('/').trim_end_matches(".rs");
                row.push(room.to_string());
            }
        }
    }
    rows.last_mut()
        .expect("a table")
        .extend(["rules".into(), "notation".into()]);
    let mut layers = BTreeMap::new();
    for (i, row) in rows.iter().rev().enumerate() {
        for room in row {
            layers.insert(room.clone(), i);
        }
    }
    layers
}

/// The room of a module path (`["players", "trained", "LoadedPlayer"]`): the longest one of the
/// table it lies in, with its row.
fn room_of<'a>(path: &[&str], layers: &'a BTreeMap<String, usize>) -> Option<(&'a str, usize)> {
    (1..=path.len()).rev().find_map(|n| {
        layers
            .get_key_value(&path[..n].join("/"))
            .map(|(room, &layer)| (room.as_str(), layer))
    })
}

/// The identifier at the start of `text`.
fn ident(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// Reads the use tree at the start of `text` (what follows `crate::`: `a::b`, `a::{b, c::d}`,
/// `{a, b}`), adding each path it names to `out` with `prefix` before it; returns the length
/// read.
fn use_tree(text: &str, prefix: &[String], out: &mut Vec<Vec<String>>) -> usize {
    let skip_space = |at: usize| at + (text[at..].len() - text[at..].trim_start().len());
    let mut path = prefix.to_vec();
    let mut at = skip_space(0);
    loop {
        if text[at..].starts_with('{') {
            at += 1;
            loop {
                at = skip_space(at + use_tree(&text[at..], &path, out));
                match text[at..].chars().next() {
                    Some(',') => at += 1,
                    Some('}') => return at + 1,
                    _ => return at,
                }
            }
        }
        let name = ident(&text[at..]);
        if name.is_empty() {
            break;
        }
        at += name.len();
        if name != "self" {
            path.push(name.to_string());
        }
        match text[at..].strip_prefix("::") {
            Some(_) => at = skip_space(at + 2),
            None => break,
        }
    }
    // `name as other`: the path is the name's.
    let after = skip_space(at);
    if let Some(rest) = text[after..].strip_prefix("as ") {
        at = skip_space(after + 3);
        at += ident(rest.trim_start()).len();
    }
    out.push(path);
    at
}

/// The module paths a source file names through `crate::` (paths and `use crate::{a, b::c}`
/// groups, nested groups too), comments left out.
fn paths_named(source: &str) -> Vec<Vec<String>> {
    paths_after(&code_of(source), "crate::", &[])
}

/// `source` without its comment lines.
fn code_of(source: &str) -> String {
    source
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths of the use trees that follow each `marker` in `code`, with `prefix` before them.
fn paths_after(code: &str, marker: &str, prefix: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices(marker) {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        use_tree(&code[at + marker.len()..], prefix, &mut out);
    }
    out.retain(|p| !p.is_empty());
    out
}

/// The module paths a file of module `module` names through `crate::` and `super::` (its
/// test module left out, where `super` is the file itself), made absolute.
fn modules_named(source: &str, module: &[&str]) -> Vec<Vec<String>> {
    let code = code_of(source);
    let code = code.split("#[cfg(test)]\nmod ").next().unwrap_or_default();
    let mut out = paths_after(code, "crate::", &[]);
    for depth in 1..=3 {
        let Some(parent) = module.len().checked_sub(depth) else {
            break;
        };
        let prefix: Vec<String> = module[..parent].iter().map(|s| s.to_string()).collect();
        let marker = "super::".repeat(depth);
        // `super::super::` is not also read as one `super::`.
        let longer = format!("{marker}super::");
        let cut = code.replace(&longer, "");
        out.extend(paths_after(&cut, &marker, &prefix));
    }
    out
}

fn source_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable").flatten() {
        let path = entry.path();
        if path.is_dir() {
            source_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_import_in_src_points_down_the_layer_table_of_architecture_md() {
    let layers = layer_table();
    let src = Path::new(ROOT).join("src");
    let mut files = Vec::new();
    source_files(&src, &mut files);
    let mut against = Vec::new();
    for file in files {
        let rel = file.strip_prefix(&src).expect("under src/");
        let stem = rel.with_extension("");
        let module: Vec<&str> = (stem.components())
            .filter_map(|c| c.as_os_str().to_str())
            .collect();
        if module == ["main"] || module == ["lib"] {
            continue;
        }
        let (room, own) = room_of(&module, &layers).unwrap_or_else(|| {
            panic!(
                "src/{} lies in no room of ARCHITECTURE.md's layer table",
                rel.display()
            )
        });
        let source = std::fs::read_to_string(&file).expect("a source file is readable");
        for path in paths_named(&source) {
            let path: Vec<&str> = path.iter().map(String::as_str).collect();
            let named = path.join("::");
            match room_of(&path, &layers) {
                Some((used, layer)) if layer > own => against.push(format!(
                    "src/{} (room {room}) uses crate::{named} (room {used})",
                    rel.display()
                )),
                Some(_) => {}
                None => panic!(
                    "src/{} names crate::{named}, a room of no row",
                    rel.display()
                ),
            }
        }
    }
    against.sort();
    against.dedup();
    assert!(
        against.is_empty(),
        "imports that run up ARCHITECTURE.md's layer table:\n{}",
        against.join("\n")
    );
}

#[test]
fn the_layer_check_reads_imports_and_groups() {
    let named = paths_named(
        "use crate::rules::{Rules, Side};\n// crate::cli in a comment\nuse crate::{env::Env, \
         search::{AlphaBeta, EvalWeights as W}, util};\nlet x = crate::nn::Net::new();\n\
         use crate::players::{self, trained::{all_players, LoadedPlayer}, Bot};",
    );
    let named: Vec<String> = named.iter().map(|p| p.join("::")).collect();
    assert_eq!(
        named,
        [
            "rules::Rules",
            "rules::Side",
            "env::Env",
            "search::AlphaBeta",
            "search::EvalWeights",
            "util",
            "nn::Net::new",
            "players",
            "players::trained::all_players",
            "players::trained::LoadedPlayer",
            "players::Bot",
        ]
    );
    let layers = layer_table();
    assert!(layers["rules"] < layers["env"] && layers["env"] < layers["cli"]);
    assert_eq!(layers["search"], layers["mcts"], "one row");
    assert!(
        layers["eval"] < layers["train"],
        "training evaluates through eval's arena"
    );
    // A room inside a room has its own row, and a path belongs to the longest room it lies in.
    assert!(layers["players"] < layers["search"] && layers["export"] < layers["trained"]);
    let room = |path: &[&str]| room_of(path, &layers).map(|(room, _)| room.to_string());
    assert_eq!(room(&["trained", "cache"]).as_deref(), Some("trained"));
    assert_eq!(
        room(&["players", "spec", "PlayerSpec"]).as_deref(),
        Some("players")
    );
    assert_eq!(
        room(&["search", "solver", "Solver"]).as_deref(),
        Some("search/solver")
    );
    assert_eq!(room(&["board_svg"]).as_deref(), Some("board_svg"));
}

/// The module of a file of `src/` (`players/bot.rs` is `players::bot`, `players/mod.rs` is
/// `players`).
fn module_of(rel: &Path) -> Vec<String> {
    let mut module: Vec<String> = (rel.with_extension("").components())
        .filter_map(|c| c.as_os_str().to_str().map(str::to_string))
        .collect();
    if module.last().is_some_and(|m| m == "mod") {
        module.pop();
    }
    module
}

#[test]
fn no_two_files_of_src_import_each_other_through_any_circle() {
    let src = Path::new(ROOT).join("src");
    let mut files = Vec::new();
    source_files(&src, &mut files);
    let modules: BTreeMap<Vec<String>, PathBuf> = files
        .iter()
        .map(|f| {
            (
                module_of(f.strip_prefix(&src).expect("under src/")),
                f.clone(),
            )
        })
        .collect();
    // Each file's imports, as the files of the deepest modules they name.
    let mut edges: BTreeMap<&Vec<String>, BTreeSet<&Vec<String>>> = BTreeMap::new();
    for (module, file) in &modules {
        let source = std::fs::read_to_string(file).expect("a source file is readable");
        let own: Vec<&str> = module.iter().map(String::as_str).collect();
        let out = edges.entry(module).or_default();
        for path in modules_named(&source, &own) {
            let used = (1..=path.len())
                .rev()
                .find_map(|n| modules.get_key_value(&path[..n]).map(|(m, _)| m));
            if let Some(used) = used.filter(|u| *u != module) {
                out.insert(used);
            }
        }
    }
    // Depth-first search: a module met again on the current path closes a circle.
    fn circle<'a>(
        at: &'a Vec<String>,
        edges: &BTreeMap<&'a Vec<String>, BTreeSet<&'a Vec<String>>>,
        path: &mut Vec<&'a Vec<String>>,
        done: &mut BTreeSet<&'a Vec<String>>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|m| *m == at) {
            let mut names: Vec<String> = path[start..].iter().map(|m| m.join("::")).collect();
            names.push(at.join("::"));
            return Some(names);
        }
        if !done.insert(at) {
            return None;
        }
        path.push(at);
        for next in edges.get(at).into_iter().flatten() {
            if let Some(found) = circle(next, edges, path, done) {
                return Some(found);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    for module in edges.keys() {
        if let Some(found) = circle(module, &edges, &mut Vec::new(), &mut done) {
            panic!("files of src/ import each other: {}", found.join(" -> "));
        }
    }
}

#[test]
fn the_circle_check_reads_crate_and_super_paths_of_a_file_but_not_its_tests() {
    let source = "use super::{player::Limits, Choice};\nuse super::super::util::fs;\n\
                  use crate::rules::Position;\n#[cfg(test)]\nmod tests {\n    use super::*;\n}";
    let named: Vec<String> = modules_named(source, &["players", "trained", "cache"])
        .iter()
        .map(|p| p.join("::"))
        .collect();
    assert_eq!(
        named,
        [
            "rules::Position",
            "players::trained::player::Limits",
            "players::trained::Choice",
            "players::util::fs",
        ]
    );
}
