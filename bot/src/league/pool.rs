//! Sealed pools and deck building from them: unlimited basic lands, a 40-card minimum, and
//! only cards of the pool that the engine plays. A pool keeps its packs (set, seed, cards)
//! so that every opening can be replayed from its seed.

use super::boosters::{self, Pack};
use crate::decks::{Deck, Entry};
use engine::Catalog;
use engine::cards::{Supertype, Support};
use serde::{Deserialize, Serialize};

pub const MIN_DECK: u32 = 40;

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Pool {
    pub packs: Vec<Pack>,
}

/// One name of a pool with how many copies and whether the engine plays it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoolCard {
    pub name: String,
    pub count: u32,
    pub playable: bool,
}

impl Pool {
    /// Opens the packs of `sets` with the given seeds (one seed per pack).
    pub fn open(sets: &[&str], seeds: &[u64]) -> Result<Pool, String> {
        let mut packs = Vec::new();
        for (set, seed) in sets.iter().zip(seeds) {
            packs.push(boosters::open(set, *seed)?);
        }
        Ok(Pool { packs })
    }

    /// Adds one more pack (a pack trigger).
    pub fn add(&mut self, set: &str, seed: u64) -> Result<&Pack, String> {
        self.packs.push(boosters::open(set, seed)?);
        Ok(self.packs.last().expect("just pushed"))
    }

    /// Opens every pack again from its seed: the stored cards must be what the seed gives.
    pub fn verify(&self) -> Result<(), String> {
        for (i, p) in self.packs.iter().enumerate() {
            if boosters::open(&p.set, p.seed)?.cards != p.cards {
                return Err(format!(
                    "pack {} ({}) does not replay from its seed",
                    i + 1,
                    p.set
                ));
            }
        }
        Ok(())
    }

    /// Copies of each name, sorted by name, marked playable or not.
    pub fn cards(&self) -> Vec<PoolCard> {
        let cat = Catalog::builtin();
        let mut out: Vec<PoolCard> = Vec::new();
        for c in self.packs.iter().flat_map(|p| &p.cards) {
            match out.iter_mut().find(|x| x.name == c.name) {
                Some(x) => x.count += 1,
                None => out.push(PoolCard {
                    name: c.name.clone(),
                    count: 1,
                    playable: cat.by_name(&c.name).is_some_and(|d| d.is_supported()),
                }),
            }
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        out
    }

    pub fn count_of(&self, name: &str) -> u32 {
        let n = engine::cards::normalize_name(name);
        self.packs
            .iter()
            .flat_map(|p| &p.cards)
            .filter(|c| engine::cards::normalize_name(&c.name) == n)
            .count() as u32
    }

    /// The pool as text: playable cards, then those not playable yet (marked).
    pub fn describe(&self) -> String {
        let cards = self.cards();
        let total: u32 = cards.iter().map(|c| c.count).sum();
        let ok: u32 = cards.iter().filter(|c| c.playable).map(|c| c.count).sum();
        let mut s = format!(
            "{} packs, {total} cards ({ok} playable now; unlimited basic lands)\n",
            self.packs.len()
        );
        for c in cards.iter().filter(|c| c.playable) {
            s.push_str(&format!("{} {}\n", c.count, c.name));
        }
        let not: Vec<String> = cards
            .iter()
            .filter(|c| !c.playable)
            .map(|c| format!("{} {}", c.count, c.name))
            .collect();
        if !not.is_empty() {
            s.push_str(&format!("not playable yet (✗): {}\n", not.join(", ")));
        }
        s
    }
}

fn is_basic(name: &str) -> bool {
    Catalog::builtin()
        .by_name(name)
        .is_some_and(|d| d.supertypes.contains(&Supertype::Basic))
}

/// Checks a deck against a pool: at least 40 cards in the main deck, basic lands in any
/// number, every other card at most as many times as the pool has it (main deck and
/// sideboard together), and only cards the engine plays. Every problem is named.
pub fn check_deck(pool: &Pool, deck: &Deck) -> Result<(), Vec<String>> {
    let cat = Catalog::builtin();
    let mut problems = Vec::new();
    let main = deck.main_count();
    if main < MIN_DECK {
        problems.push(format!(
            "the main deck has {main} cards; a sealed deck needs at least {MIN_DECK} (basic lands are free)"
        ));
    }
    let mut totals: Vec<(&str, u32)> = Vec::new();
    for e in deck.main.iter().chain(&deck.sideboard) {
        match totals.iter_mut().find(|(n, _)| *n == e.name) {
            Some((_, c)) => *c += e.count,
            None => totals.push((&e.name, e.count)),
        }
    }
    for (name, count) in totals {
        if is_basic(name) {
            continue;
        }
        let have = pool.count_of(name);
        if have == 0 {
            problems.push(format!("{name} is not in your pool"));
            continue;
        }
        if count > have {
            problems.push(format!(
                "{count} copies of {name}, but your pool has {have}"
            ));
        }
        match cat.by_name(name).map(|d| &d.support) {
            Some(Support::Supported) => {}
            Some(Support::Unsupported(why)) => problems.push(format!(
                "{name} is in your pool but not playable yet ({why})"
            )),
            _ => problems.push(format!("{name} cannot be played")),
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

/// The rest of the pool after `deck`'s main deck: the sideboard of a sealed deck (basic
/// lands are not listed; they are always available).
pub fn sideboard(pool: &Pool, deck: &Deck) -> Vec<Entry> {
    pool.cards()
        .into_iter()
        .filter(|c| c.playable && !is_basic(&c.name))
        .filter_map(|c| {
            let used: u32 = deck
                .main
                .iter()
                .filter(|e| e.name == c.name)
                .map(|e| e.count)
                .sum();
            (c.count > used).then(|| Entry {
                count: c.count - used,
                name: c.name,
            })
        })
        .collect()
}

/// Sideboarding (between the games of a match): `deck` with the cards of `out` taken out of
/// the main deck and those of `into` put in from the rest of the pool (basic lands in any
/// number), checked as a build is ([`check_deck`]). Names are matched as the catalog spells
/// them, in any case. Every problem is named; on any problem nothing is changed.
pub fn side(
    pool: &Pool,
    deck: &Deck,
    out: &[(u32, String)],
    into: &[(u32, String)],
) -> Result<Deck, Vec<String>> {
    let norm = engine::cards::normalize_name;
    let mut new = deck.clone();
    let mut problems = Vec::new();
    for (n, name) in out {
        match new.main.iter_mut().find(|e| norm(&e.name) == norm(name)) {
            Some(e) if e.count >= *n => e.count -= n,
            Some(e) => problems.push(format!(
                "your deck has {} {}, not {n} to take out",
                e.count, e.name
            )),
            None => problems.push(format!("{} is not in your deck", name.trim())),
        }
    }
    new.main.retain(|e| e.count > 0);
    let cards = pool.cards();
    for (n, name) in into {
        let basic = Catalog::builtin()
            .by_name(name)
            .filter(|d| d.supertypes.contains(&Supertype::Basic))
            .map(|d| d.name.clone());
        let Some(real) = cards
            .iter()
            .find(|c| norm(&c.name) == norm(name))
            .map(|c| c.name.clone())
            .or(basic)
        else {
            problems.push(format!("{} is not in your pool", name.trim()));
            continue;
        };
        match new.main.iter_mut().find(|e| e.name == real) {
            Some(e) => e.count += n,
            None => new.main.push(Entry {
                count: *n,
                name: real,
            }),
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    new.sideboard = sideboard(pool, &new);
    check_deck(pool, &new)?;
    Ok(new)
}

/// A simple automatic build (for agents and the league simulation): the playable nonland
/// cards of the two colours with the most of them (colourless ones too), at most 23, then
/// basic lands of those colours to reach 40.
pub fn auto_build(pool: &Pool, name: &str) -> Deck {
    let cat = Catalog::builtin();
    let colours = ['W', 'U', 'B', 'R', 'G'];
    let basics = ["Plains", "Island", "Swamp", "Mountain", "Forest"];
    let playable: Vec<PoolCard> = pool
        .cards()
        .into_iter()
        .filter(|c| c.playable && !is_basic(&c.name))
        .collect();
    let colours_of = |n: &str| -> Vec<usize> {
        cat.by_name(n)
            .map(|d| {
                colours
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| {
                        engine::mana::Color::from_letter(**c).is_some_and(|c| d.colors.contains(c))
                    })
                    .map(|(i, _)| i)
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut weight = [0u32; 5];
    for c in &playable {
        for i in colours_of(&c.name) {
            weight[i] += c.count;
        }
    }
    let mut order: Vec<usize> = (0..5).collect();
    order.sort_by_key(|i| (std::cmp::Reverse(weight[*i]), *i));
    let pair = [order[0], order[1]];
    let mut main: Vec<Entry> = Vec::new();
    let mut spells = 0;
    for c in &playable {
        let cs = colours_of(&c.name);
        let is_land = cat
            .by_name(&c.name)
            .is_some_and(|d| d.has_type(engine::cards::CardType::Land));
        if is_land || !cs.iter().all(|i| pair.contains(i)) {
            continue;
        }
        let n = c.count.min(23 - spells);
        if n == 0 {
            break;
        }
        spells += n;
        main.push(Entry {
            count: n,
            name: c.name.clone(),
        });
    }
    let lands = MIN_DECK - spells;
    let first = lands.div_ceil(2);
    for (i, n) in [(pair[0], first), (pair[1], lands - first)] {
        if n > 0 {
            main.push(Entry {
                count: n,
                name: basics[i].to_string(),
            });
        }
    }
    let mut deck = Deck {
        name: name.to_string(),
        main,
        sideboard: Vec::new(),
    };
    deck.sideboard = sideboard(pool, &deck);
    deck
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool() -> Pool {
        Pool::open(&["TSP"; 6], &[1, 2, 3, 4, 5, 6]).expect("pool")
    }

    #[test]
    fn a_pool_replays_from_its_seeds_and_marks_unplayable_cards() {
        let p = pool();
        assert_eq!(p.packs.len(), 6);
        assert!(p.verify().is_ok());
        let total: u32 = p.cards().iter().map(|c| c.count).sum();
        assert_eq!(total, 90);
        let mut bad = p.clone();
        bad.packs[2].cards.swap_remove(0);
        assert!(bad.verify().unwrap_err().contains("pack 3"));
        let text = p.describe();
        assert!(text.starts_with("6 packs, 90 cards"), "{text}");
        let mut grown = p.clone();
        grown.add("PLC", 9).expect("pack");
        assert_eq!(grown.packs.len(), 7);
        assert!(grown.add("XYZ", 1).is_err());
    }

    /// Cards not playable yet are marked in the pool, listed apart, left out of the automatic
    /// build and refused in a deck: one card of a pack made a card of the catalog the engine
    /// does not play yet (when there is one) and another a name the catalog does not know.
    #[test]
    fn unplayable_cards_are_marked_and_refused() {
        let cat = Catalog::builtin();
        let mut p = pool();
        let unsupported = cat
            .cards()
            .iter()
            .find(|d| !d.is_supported())
            .map(|d| d.name.clone());
        let mut names = vec!["Card Unknown Here".to_string()];
        names.extend(unsupported.clone());
        for (i, n) in names.iter().enumerate() {
            p.packs[0].cards[i].name = n.clone();
        }
        let cards = p.cards();
        for n in &names {
            let c = cards.iter().find(|c| &c.name == n).expect("in the pool");
            assert!(!c.playable, "{n} is marked");
        }
        assert!(cards.iter().any(|c| c.playable));
        let text = p.describe();
        let (_, apart) = text
            .split_once("not playable yet (✗): ")
            .expect("listed apart");
        assert!(names.iter().all(|n| apart.contains(n.as_str())), "{text}");
        let auto = auto_build(&p, "auto");
        assert!(auto.main.iter().all(|e| !names.contains(&e.name)));
        for n in &names {
            let deck = Deck {
                name: "u".into(),
                main: vec![
                    Entry {
                        count: 40,
                        name: "Island".into(),
                    },
                    Entry {
                        count: 1,
                        name: n.clone(),
                    },
                ],
                sideboard: vec![],
            };
            let e = check_deck(&p, &deck).unwrap_err().join("\n");
            let want = if Some(n) == unsupported.as_ref() {
                "is in your pool but not playable yet"
            } else {
                "cannot be played"
            };
            assert!(e.contains(&format!("{n} {want}")), "{e}");
        }
    }

    /// Sideboarding swaps cards with the rest of the pool: what goes in must be in the
    /// sideboard (basic lands always are), what goes out in the deck; every problem named and
    /// the deck unchanged on any.
    #[test]
    fn sideboarding_swaps_with_the_rest_of_the_pool() {
        let p = pool();
        let auto = auto_build(&p, "auto");
        let spare = sideboard(&p, &auto);
        let card_in = spare.first().expect("a sideboard card").name.clone();
        let card_out = auto
            .main
            .iter()
            .find(|e| !is_basic(&e.name))
            .expect("a spell")
            .name
            .clone();
        let sided = side(
            &p,
            &auto,
            &[(1, card_out.to_uppercase())],
            &[(1, card_in.to_lowercase())],
        )
        .expect("a legal swap");
        assert_eq!(sided.main_count(), auto.main_count());
        let count = |d: &Deck, n: &str| {
            d.main
                .iter()
                .filter(|e| e.name == n)
                .map(|e| e.count)
                .sum::<u32>()
        };
        assert_eq!(count(&sided, &card_in), count(&auto, &card_in) + 1);
        assert_eq!(count(&sided, &card_out), count(&auto, &card_out) - 1);
        assert!(sided.sideboard.iter().any(|e| e.name == card_out));
        check_deck(&p, &sided).expect("legal");
        // Basic lands come from nowhere; a card not in the pool, or more than it has, does not.
        let lands =
            side(&p, &auto, &[(1, card_out.clone())], &[(1, "Plains".into())]).expect("basic");
        assert_eq!(count(&lands, "Plains"), count(&auto, "Plains") + 1);
        let e = side(&p, &auto, &[], &[(1, "Lightning Bolt".into())]).unwrap_err();
        assert!(e.iter().any(|x| x.contains("not in your pool")), "{e:?}");
        let have = p.count_of(&card_out);
        let e = side(&p, &auto, &[], &[(have + 1, card_out.clone())]).unwrap_err();
        assert!(e.iter().any(|x| x.contains("your pool has")), "{e:?}");
        let e = side(
            &p,
            &auto,
            &[(30, card_out.clone()), (1, "Nothing Such".into())],
            &[],
        )
        .unwrap_err();
        assert_eq!(e.len(), 2, "too many out, and an unknown card: {e:?}");
        let e = side(&p, &auto, &[(1, card_out.clone())], &[]).unwrap_err();
        assert!(e.iter().any(|x| x.contains("at least 40")), "{e:?}");
    }

    #[test]
    fn decks_are_checked_against_the_pool() {
        let p = pool();
        let auto = auto_build(&p, "auto");
        assert!(auto.main_count() >= MIN_DECK, "{}", auto.main_count());
        check_deck(&p, &auto).expect("the automatic build is legal");
        // Too few cards, a card outside the pool, too many copies.
        let cat = Catalog::builtin();
        let outside = cat
            .supported()
            .find(|d| !d.supertypes.contains(&Supertype::Basic) && p.count_of(&d.name) == 0)
            .expect("a supported card outside the pool");
        let deck = Deck {
            name: "bad".into(),
            main: vec![
                Entry {
                    count: 30,
                    name: "Forest".into(),
                },
                Entry {
                    count: 1,
                    name: outside.name.clone(),
                },
            ],
            sideboard: vec![],
        };
        let e = check_deck(&p, &deck).unwrap_err().join("\n");
        assert!(e.contains("31 cards") && e.contains("at least 40"), "{e}");
        assert!(
            e.contains(&format!("{} is not in your pool", outside.name)),
            "{e}"
        );
        if let Some(unplayable) = p.cards().into_iter().find(|c| !c.playable) {
            let deck = Deck {
                name: "u".into(),
                main: vec![
                    Entry {
                        count: 40,
                        name: "Island".into(),
                    },
                    Entry {
                        count: 1,
                        name: unplayable.name.clone(),
                    },
                ],
                sideboard: vec![],
            };
            let e = check_deck(&p, &deck).unwrap_err().join("\n");
            assert!(e.contains("not playable yet"), "{e}");
        }
        if let Some(c) = p
            .cards()
            .into_iter()
            .find(|c| c.playable && !is_basic(&c.name))
        {
            let deck = Deck {
                name: "many".into(),
                main: vec![
                    Entry {
                        count: 40,
                        name: "Island".into(),
                    },
                    Entry {
                        count: c.count + 1,
                        name: c.name.clone(),
                    },
                ],
                sideboard: vec![],
            };
            let e = check_deck(&p, &deck).unwrap_err().join("\n");
            assert!(e.contains(&format!("but your pool has {}", c.count)), "{e}");
        }
        let side = sideboard(&p, &auto);
        assert!(side.iter().all(|e| e.count > 0));
    }
}
