//! The `rules=` argument of the environments: rule options over a preset, given as a dict or as
//! the path of a TOML file, read as the command line reads `--rules FILE` (the rules crate's
//! overrides reader, then the rules' own check).

use crate::args::{short_repr, type_name};
use crate::errors::value_error;
use bao_zero::rules::{Game, Rules, Variant};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

/// Deepest nesting of tables and lists a `rules` dict may have (the options nest two deep).
const MAX_DEPTH: usize = 8;

/// The game `variant` names (a preset's name, or a game's text such as
/// `kujifunza+takasia=none`) with the options of `rules` applied, and the preset its text starts
/// from: `None` for the game itself, a dict of options (`{"takasia": "none", "house": {"nyumba": {"tax": "always"}}}`),
/// or a `str`/`os.PathLike` naming a TOML file of them. An option given as `None` is unset
/// (as `Env.rules` shows an unset `lap_limit`), so every `rules` the package returns goes back
/// in unchanged. Unknown or inconsistent options are a one-line `ValueError`.
pub(crate) fn rules_of(
    variant: &str,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Variant, Game)> {
    let named: Game = variant
        .parse()
        .map_err(|e: bao_zero::rules::GameError| value_error(e))?;
    let v = named.preset();
    let mut unset = Vec::new();
    let (text, source) = match rules {
        None => return Ok((v, named)),
        Some(r) if r.is_none() => return Ok((v, named)),
        Some(r) if r.is_instance_of::<PyDict>() => {
            let table = table_of(r.cast::<PyDict>()?, "rules", "", 0, &mut unset)?;
            (table.to_string(), "rules".to_string())
        }
        Some(r) => {
            let path: std::path::PathBuf = r.extract().map_err(|_| {
                PyTypeError::new_err(format!(
                    "rules must be a dict of options or the path of a TOML file, not {}",
                    type_name(r)
                ))
            })?;
            let text = bao_zero::util::fs::read_text_bounded(
                &path,
                bao_zero::util::fs::limits::TEXT,
                "rules file",
            )
            .map_err(|e| value_error(format!("{e:#}")))?;
            (text, format!("rules file {}", path.display()))
        }
    };
    let rules = bao_zero::rules::variant::overridden(named.rules(), &text)
        .map_err(|e| value_error(format!("bad {source}: {e}")))?;
    let rules = without(rules, &unset)?;
    let game = Game::new(rules)
        .map_err(|e| value_error(format!("inconsistent rule options in {source}: {e}")))?;
    Ok((v, game))
}

/// `rules` with the options at the JSON pointers `unset` set to none; `ValueError` naming the
/// first that cannot be none.
fn without(rules: Rules, unset: &[String]) -> PyResult<Rules> {
    if unset.is_empty() {
        return Ok(rules);
    }
    let mut json = serde_json::to_value(&rules).map_err(value_error)?;
    for pointer in unset {
        let at = format!("rules{}", pointer.replace('/', "."));
        match json.pointer_mut(pointer) {
            Some(slot) => *slot = serde_json::Value::Null,
            None => return Err(value_error(format!("{at}: no such rule option"))),
        }
        if serde_json::from_value::<Rules>(json.clone()).is_err() {
            return Err(value_error(format!(
                "{at} is None: this option cannot be unset"
            )));
        }
    }
    serde_json::from_value(json).map_err(value_error)
}

/// A Python dict of options as a TOML table (`at` names it in errors, `pointer` is its JSON
/// pointer); the pointers of options given as `None` go to `unset`.
fn table_of(
    dict: &Bound<'_, PyDict>,
    at: &str,
    pointer: &str,
    depth: usize,
    unset: &mut Vec<String>,
) -> PyResult<toml::Table> {
    if depth > MAX_DEPTH {
        return Err(value_error(format!(
            "{at} nests deeper than {MAX_DEPTH} levels: no rule option does"
        )));
    }
    let mut table = toml::Table::new();
    for (k, v) in dict.iter() {
        let key: String = k.extract().map_err(|_| {
            PyTypeError::new_err(format!("{at}: keys must be strings, not {}", type_name(&k)))
        })?;
        let here = format!("{at}[{key:?}]");
        let path = format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"));
        if v.is_none() {
            unset.push(path);
            continue;
        }
        let value = value_of(&v, &here, &path, depth + 1, unset)?;
        table.insert(key, value);
    }
    Ok(table)
}

/// A Python value of an option as a TOML value.
fn value_of(
    v: &Bound<'_, PyAny>,
    at: &str,
    pointer: &str,
    depth: usize,
    unset: &mut Vec<String>,
) -> PyResult<toml::Value> {
    use toml::Value;
    if v.is_instance_of::<PyBool>() {
        return Ok(Value::Boolean(v.extract()?));
    }
    if v.is_instance_of::<PyInt>() {
        let i: i64 = v
            .extract()
            .map_err(|_| value_error(format!("{at} is out of range: {}", short_repr(v))))?;
        return Ok(Value::Integer(i));
    }
    if v.is_instance_of::<PyFloat>() {
        return Ok(Value::Float(v.extract()?));
    }
    if v.is_instance_of::<PyString>() {
        return Ok(Value::String(v.extract()?));
    }
    if let Ok(d) = v.cast::<PyDict>() {
        return Ok(Value::Table(table_of(d, at, pointer, depth, unset)?));
    }
    if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
        if depth > MAX_DEPTH {
            return Err(value_error(format!(
                "{at} nests deeper than {MAX_DEPTH} levels: no rule option does"
            )));
        }
        let mut items = Vec::new();
        for (i, item) in v.try_iter()?.enumerate() {
            let path = format!("{pointer}/{i}");
            items.push(value_of(
                &item?,
                &format!("{at}[{i}]"),
                &path,
                depth + 1,
                unset,
            )?);
        }
        return Ok(Value::Array(items));
    }
    Err(PyTypeError::new_err(format!(
        "{at} must be a str, int, float, bool, list or dict, not {}",
        type_name(v)
    )))
}
