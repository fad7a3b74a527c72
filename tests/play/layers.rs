//! The layer table of docs/ARCHITECTURE.md holds for the code: every `crate::room` that a file of
//! `src/` names belongs to its own row or a row below. The table is read from the document, so
//! the two cannot drift apart.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Each room of `src/` (a folder or a top-level file) with its row, counted from the bottom;
/// `rules` and `notation` are the rules crate's re-exports.
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
                let room = path.split(['/', '.']).next().unwrap_or_default();
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

/// The rooms a source file names through `crate::` (paths and `use crate::{a, b::c}` groups),
/// comments left out.
fn rooms_named(source: &str) -> Vec<String> {
    let code: String = source
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let (mut depth, mut start) = (0, 0);
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        out.push(ident(&group[start..i]));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        out.push(ident(&group[start..i]));
                        start = i + 1;
                    }
                    _ => {}
                }
            }
        } else {
            out.push(ident(rest));
        }
    }
    out.retain(|r| !r.is_empty() && r != "self");
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
        let room = rel
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .map(|s| s.trim_end_matches(".rs").to_string())
            .expect("a file name");
        if room == "main" || room == "lib" {
            continue;
        }
        let own = *layers
            .get(&room)
            .unwrap_or_else(|| panic!("src/{room} has no row in ARCHITECTURE.md's layer table"));
        let source = std::fs::read_to_string(&file).expect("a source file is readable");
        for named in rooms_named(&source) {
            match layers.get(&named) {
                Some(&layer) if layer > own => {
                    against.push(format!("src/{} uses crate::{named}", rel.display()))
                }
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
    let named = rooms_named(
        "use crate::rules::{Rules, Side};\n// crate::cli in a comment\nuse crate::{env::Env, \
         search::{Player, Limits}, util};\nlet x = crate::nn::Net::new();",
    );
    assert_eq!(named, ["rules", "env", "search", "util", "nn"]);
    let layers = layer_table();
    assert!(layers["rules"] < layers["env"] && layers["env"] < layers["cli"]);
    assert_eq!(layers["search"], layers["mcts"], "one row");
    assert!(
        layers["eval"] < layers["train"],
        "training evaluates through eval's arena"
    );
}
