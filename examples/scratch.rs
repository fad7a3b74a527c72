use bao_zero::rules::*;
use rand::{SeedableRng, RngExt};
use rand_chacha::ChaCha8Rng;
fn main() {
    for v in Variant::ALL {
        let rules = v.rules();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut list = MoveList::new();
        let (mut wins, mut plies, mut maxp, mut unfinished) = ([0u32;3], 0u64, 0u32, 0);
        let t = std::time::Instant::now();
        for _ in 0..2000 {
            let mut p = Position::start(&rules);
            let mut n = 0u32;
            loop {
                assert_eq!(p.total_seeds(), rules.total_seeds(), "{v} {p}");
                p.legal_moves(&rules, &mut list);
                if let Some(o) = p.outcome_given(&list) { wins[o.winner.map_or(2, |s| s.index())] += 1; break; }
                if n >= 5000 { unfinished += 1; break; }
                let i = rng.random_range(0..list.len());
                p = list.children()[i];
                n += 1;
            }
            plies += n as u64; maxp = maxp.max(n);
        }
        println!("{v:28} S {:5} N {:5} void {:3} unfinished {unfinished:3} avg plies {:6.1} max {maxp:5}  {:.0} plies/s", wins[0], wins[1], wins[2], plies as f64/2000.0, plies as f64 / t.elapsed().as_secs_f64());
    }
}
