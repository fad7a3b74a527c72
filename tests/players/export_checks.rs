//! What export reads of a training run is checked as resume checks it.
#![cfg(feature = "ml")]

use crate::export::{player_file, tmp};
use std::path::Path;

/// Copies the folder `from` into `to`, recursively.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The error of an export that must fail (a bundle is too long to print).
fn refusal(exported: anyhow::Result<bao_zero::player_file::Bundle>) -> String {
    match exported {
        Ok(bundle) => panic!("exported as {}", bundle.header.variant),
        Err(e) => format!("{e:#}"),
    }
}

/// A Kiswahili run's config edited to another variant, its checksum line deleted as the
/// checksum error suggests to keep an edit: resume refuses it, and so does export (it labelled
/// the Kiswahili network a Hus player).
#[test]
fn export_refuses_a_run_whose_config_names_another_variant() {
    player_file(); // trains the smoke run
    let run = tmp("edited-variant");
    std::fs::remove_dir_all(&run).ok();
    copy_dir(&tmp("run"), &run);
    let config = run.join("config.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    let (_checksum, body) = text.split_once('\n').unwrap();
    let edited = body.replace("variant = \"kiswahili\"", "variant = \"hus\"");
    assert_ne!(edited, body, "the smoke config names its variant");
    std::fs::write(&config, edited).unwrap();
    let expected = "meta.json says variant kiswahili, config.toml says hus";
    let err = refusal(bao_zero::export::from_run(&run, None, None));
    assert!(err.contains(expected), "{err}");
    let err = refusal(bao_zero::export::from_run_averaged(&run, None, None, 2));
    assert!(err.contains(expected), "{err}");
    let opts = bao_zero::train::RunOptions {
        quiet: true,
        ..Default::default()
    };
    let err = format!(
        "{:#}",
        bao_zero::train::train_run(&bao_zero::train::RunSource::resume(&run), &opts).unwrap_err()
    );
    assert!(err.contains(expected), "{err}");
    std::fs::remove_dir_all(&run).ok();
}
