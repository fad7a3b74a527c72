//! One playthrough per preset, as OpenSpiel keeps one per game: a seeded random game written ply
//! by ply (the position, its legal moves in canonical notation, the move played) and compared
//! with the blessed file `tests/playthroughs/<preset>.txt`, so that any change to what a game
//! does shows as a diff. After a deliberate change of the rules, `BAO_BLESS=1 cargo test -p
//! bao-rules --test playthroughs` writes the files again; review the diff before committing it.

mod common;

use bao_rules::Variant;
use common::*;

/// Plies of each playthrough (or fewer, where the game ends).
const PLIES: usize = 60;
/// The seed of the random moves.
const SEED: u64 = 2026;

/// The playthrough of `variant` as text.
fn playthrough(variant: Variant) -> String {
    let rules = variant.rules();
    let mut pos = start(variant);
    let mut out = format!("# {variant}: random moves, seed {SEED}\n");
    let mut pick = RandomPick::new(SEED);
    for _ in 0..PLIES {
        out += &format!("position {pos}\n");
        let moves = legal(&rules, &pos);
        if pos.outcome(&rules).is_some() || moves.is_empty() {
            break;
        }
        out += &format!("legal {}\n", moves.join(" "));
        let mv = &moves[pick.index(moves.len())];
        out += &format!("play {mv}\n");
        pos = play(&rules, &pos, mv);
    }
    out
}

fn blessed_path(variant: Variant) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/playthroughs")
        .join(format!("{variant}.txt"))
}

#[test]
fn every_preset_plays_its_blessed_playthrough() {
    let bless = std::env::var_os("BAO_BLESS").is_some();
    for variant in Variant::ALL {
        let got = playthrough(variant);
        let path = blessed_path(variant);
        if bless {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (BAO_BLESS=1 writes it)", path.display()));
        for (n, (g, w)) in got.lines().zip(want.lines()).enumerate() {
            assert_eq!(g, w, "{variant}: line {} of {}", n + 1, path.display());
        }
        assert_eq!(got.lines().count(), want.lines().count(), "{variant}");
    }
}
