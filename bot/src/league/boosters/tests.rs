use super::*;

const PACKS: u64 = 100_000;

/// Running sums of a per-pack quantity.
#[derive(Default)]
struct Mean {
    n: f64,
    sum: f64,
    sumsq: f64,
}

impl Mean {
    fn add(&mut self, x: f64) {
        self.n += 1.0;
        self.sum += x;
        self.sumsq += x * x;
    }
    /// The sample mean is within 5 standard errors (plus a hair for exact constants) of
    /// `expected`.
    fn check(&self, expected: f64, what: &str) {
        let mean = self.sum / self.n;
        let var = (self.sumsq / self.n - mean * mean).max(0.0);
        let tol = 5.0 * (var / self.n).sqrt() + 1e-9;
        assert!(
            (mean - expected).abs() <= tol,
            "{what}: mean {mean:.5}, expected {expected:.5} (tolerance {tol:.5})"
        );
    }
}

/// Chi-square of the observed count of each card of one sheet against what the sheet's
/// weights say, with a generous bound (dof + 6 sqrt(2 dof)); draws without replacement have
/// less variance than the binomial, so a fair sampler stays well below it.
fn chi_square(set: &SetBoosters, sheet: usize, counts: &[f64], packs: u64) {
    let sh = &set.sheets[sheet];
    let per_pack: f64 = set
        .configurations
        .iter()
        .map(|c| {
            let n: u32 = c
                .contents
                .iter()
                .filter(|(s, _)| *s == sheet)
                .map(|x| x.1)
                .sum();
            c.weight as f64 / set.total_weight as f64 * f64::from(n)
        })
        .sum();
    let mut chi = 0.0;
    for (card, obs) in sh.cards.iter().zip(counts) {
        let exp = packs as f64 * per_pack * card.weight as f64 / sh.total_weight as f64;
        chi += (obs - exp).powi(2) / exp;
    }
    let dof = (sh.cards.len() - 1) as f64;
    let bound = dof + 6.0 * (2.0 * dof).sqrt();
    assert!(
        chi < bound,
        "{} sheet {}: chi-square {chi:.1} over {dof} degrees of freedom (bound {bound:.1})",
        set.code,
        sh.name
    );
}

fn sheet_index(set: &SetBoosters, name: &str) -> usize {
    set.sheets
        .iter()
        .position(|s| s.name == name)
        .unwrap_or_else(|| panic!("{} has no sheet {name}", set.code))
}

/// Expected cards of `rarity` per pack from the sheet weights alone.
fn expected_rarity(set: &SetBoosters, rarity: &str) -> f64 {
    set.configurations
        .iter()
        .map(|c| {
            let p = c.weight as f64 / set.total_weight as f64;
            c.contents
                .iter()
                .map(|&(s, n)| {
                    let sh = &set.sheets[s];
                    let w: u64 = sh
                        .cards
                        .iter()
                        .filter(|x| x.rarity == rarity)
                        .map(|x| x.weight)
                        .sum();
                    f64::from(n) * w as f64 / sh.total_weight as f64
                })
                .sum::<f64>()
                * p
        })
        .sum()
}

/// Opens `PACKS` packs of a set and checks slot counts, rarity shares, every sheet's card
/// frequencies and colour balance; `extra` checks set-specific slots per pack.
/// A set-specific check of one opened pack (as sheet and card indices).
type PackCheck<'a> = &'a mut dyn FnMut(&SetBoosters, &[(usize, usize)]);

fn check_set(code: &str, extra: PackCheck<'_>) {
    let set = Boosters::builtin().set(code).expect("set");
    let mut counts: Vec<Vec<f64>> = set
        .sheets
        .iter()
        .map(|s| vec![0.0; s.cards.len()])
        .collect();
    let rarities = ["common", "uncommon", "rare", "special"];
    let mut rarity_means: Vec<Mean> = rarities.iter().map(|_| Mean::default()).collect();
    let mut foil = Mean::default();
    let mut pack = Vec::with_capacity(16);
    for seed in 0..PACKS {
        pack.clear();
        set.open_indices(seed.wrapping_mul(0x2545_F491_4F6C_DD1D), &mut pack);
        assert_eq!(pack.len(), 15, "{code}: a pack has 15 cards");
        let mut r = [0u32; 4];
        let mut foils = 0;
        for &(s, c) in &pack {
            counts[s][c] += 1.0;
            let card = &set.sheets[s].cards[c];
            if let Some(i) = rarities.iter().position(|x| *x == card.rarity) {
                r[i] += 1;
            }
            foils += u32::from(set.sheets[s].foil);
        }
        for (m, n) in rarity_means.iter_mut().zip(r) {
            m.add(f64::from(n));
        }
        foil.add(f64::from(foils));
        for (s, sh) in set.sheets.iter().enumerate() {
            if sh.balance_colors {
                let mut seen = [false; 5];
                for &(ps, c) in pack.iter().filter(|(ps, _)| *ps == s) {
                    let g = set.sheets[ps].cards[c].group;
                    if g < 5 {
                        seen[g] = true;
                    }
                }
                assert!(
                    seen.iter().all(|x| *x),
                    "{code} pack {seed}: commons miss a colour"
                );
            }
        }
        extra(set, &pack);
    }
    foil.check(9.0 / 40.0, &format!("{code} foils per pack"));
    for (m, r) in rarity_means.iter().zip(rarities) {
        m.check(
            expected_rarity(set, r),
            &format!("{code} {r} cards per pack"),
        );
    }
    for (s, c) in counts.iter().enumerate() {
        chi_square(set, s, c, PACKS);
    }
}

#[test]
fn the_embedded_data_has_the_three_sets() {
    let b = Boosters::builtin();
    assert_eq!(b.codes(), vec!["TSP", "PLC", "FUT"]);
    let tsp = b.set("tsp").expect("TSP");
    assert_eq!(tsp.total_weight, 40);
    assert_eq!(tsp.sheets[sheet_index(tsp, "tsts")].cards.len(), 121);
    assert!(tsp.sheets[sheet_index(tsp, "common")].balance_colors);
    assert!(open("TSB", 1).unwrap_err().contains("no TSB boosters"));
}

#[test]
fn the_same_seed_gives_the_same_pack() {
    for code in ["TSP", "PLC", "FUT"] {
        let a = open(code, 42).expect("pack");
        assert_eq!(a, open(code, 42).expect("pack"));
        assert_eq!(a.seed, 42);
        assert_ne!(a.cards, open(code, 43).expect("pack").cards);
    }
    assert_ne!(pack_seed(1, 2, 3), pack_seed(1, 2, 4));
    assert_ne!(pack_seed(1, 2, 3), pack_seed(1, 3, 3));
    assert_eq!(pack_seed(1, 2, 3), pack_seed(1, 2, 3));
    assert_eq!(run_seed(7, 1), 7);
    assert_eq!(run_seed(7, 2), run_seed(7, 2));
    assert_ne!(run_seed(7, 2), run_seed(7, 3));
    assert_ne!(
        pack_seed(run_seed(7, 2), 2, 0),
        pack_seed(run_seed(7, 1), 2, 0)
    );
}

#[test]
fn balance_factors_keep_every_common_at_its_weight() {
    // The factors solve the remaining draws exactly: the colourless commons of TSP are as
    // likely as any other common (10 of 121 per pack without a foil).
    let set = Boosters::builtin().set("TSP").expect("TSP");
    let sh = &set.sheets[sheet_index(set, "common")];
    for b in &sh.balanced {
        let mut n = [0usize; GROUPS];
        for c in &sh.cards {
            n[c.group] += 1;
        }
        let mut left = n;
        for l in left.iter_mut().take(5) {
            *l -= 1;
        }
        let mean = vec![1.0; GROUPS];
        let e = expected_rest(&left, &mean, &b.factors, b.count - 5);
        for g in 0..GROUPS {
            let first = if g < 5 { 1.0 } else { 0.0 };
            let per_card = (e[g] + first) / n[g] as f64;
            let want = f64::from(b.count) / sh.cards.len() as f64;
            assert!(
                (per_card - want).abs() < 1e-9,
                "group {g}: {per_card} vs {want}"
            );
        }
    }
    assert_eq!(sh.balanced.len(), 2, "10 and 9 commons");
}

#[test]
fn tsp_100k_packs_match_the_sheets() {
    let t = std::time::Instant::now();
    check_set("TSP", &mut |set, pack| {
        let tsts = sheet_index(set, "tsts");
        let common = sheet_index(set, "common");
        let foil = sheet_index(set, "tsFoil");
        let n = pack.iter().filter(|(s, _)| *s == tsts).count();
        assert_eq!(n, 1, "one timeshifted card per pack");
        let commons = pack.iter().filter(|(s, _)| *s == common).count();
        let foils = pack.iter().filter(|(s, _)| *s == foil).count();
        assert_eq!(commons + foils, 10, "a foil replaces a common");
        for &(s, c) in pack {
            if s == tsts {
                assert_eq!(set.sheets[s].cards[c].rarity, "special");
            }
        }
    });
    eprintln!("TSP: {PACKS} packs checked in {:?}", t.elapsed());
}

#[test]
fn plc_100k_packs_match_the_sheets() {
    let mut cs_uncommon = Mean::default();
    check_set("PLC", &mut |set, pack| {
        let csc = sheet_index(set, "pcCsCommon");
        let csur = sheet_index(set, "pcCsUncommonRare");
        assert_eq!(pack.iter().filter(|(s, _)| *s == csc).count(), 3);
        let slot: Vec<_> = pack.iter().filter(|(s, _)| *s == csur).collect();
        assert_eq!(slot.len(), 1, "one colour-shifted uncommon or rare");
        let (s, c) = *slot[0];
        cs_uncommon.add(f64::from(u8::from(
            set.sheets[s].cards[c].rarity == "uncommon",
        )));
    });
    // 15 uncommons of weight 2 against 10 rares of weight 1.
    cs_uncommon.check(30.0 / 40.0, "PLC colour-shifted slot uncommon share");
}

#[test]
fn fut_100k_packs_match_the_sheets() {
    check_set("FUT", &mut |set, pack| {
        let common = sheet_index(set, "common");
        let foil = sheet_index(set, "foil");
        let commons = pack.iter().filter(|(s, _)| *s == common).count();
        let foils = pack.iter().filter(|(s, _)| *s == foil).count();
        assert_eq!(commons + foils, 11, "a foil replaces a common");
    });
}

#[test]
fn expected_cards_per_pack_add_up_to_fifteen() {
    for code in ["TSP", "PLC", "FUT"] {
        let set = Boosters::builtin().set(code).expect("set");
        let total: f64 = set.expected_per_pack().iter().map(|x| x.1).sum();
        assert!((total - 15.0).abs() < 1e-9, "{code}: {total}");
    }
}
