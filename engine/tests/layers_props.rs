//! Property tests of the layer system (418.5): the characteristics of every object depend
//! on the effects and their timestamps, never on the order the engine happens to hold them
//! in; and no effect outlives its duration in random games.

use engine::agent::RandomAgent;
use engine::cards::Keyword;
use engine::layers::{CharChange, CharEffect, Duration, KeywordSet};
use engine::{Game, GameSetup, ObjectId, PlayerId, Ruleset};
use proptest::prelude::*;

const BOARD: &str = r#"
name = "board"
script = []
[setup]
active = "alice"
step = "precombat_main"
turn = 3
[setup.alice]
battlefield = ["Fury Sliver", "Sinew Sliver", "Hivestone", "Squire", "Mistform Ultimus", "Lymph Sliver"]
[setup.bob]
battlefield = ["Might Sliver", "Jasmine Boreal", "Uthden Troll", "Plague Sliver"]
"#;

fn board(classic: bool) -> Game {
    let src = if classic {
        BOARD.replace("script = []", "ruleset = \"classic\"\nscript = []")
    } else {
        BOARD.to_string()
    };
    engine::scenario::game_from_str(&src).expect("board sets up")
}

/// What layers decide about one permanent: subtypes, keywords, own abilities, P/T, controller.
type Decided = (ObjectId, Vec<String>, u64, bool, i32, i32, PlayerId);

/// Everything layers decide about every permanent, in battlefield-independent order.
fn snapshot(g: &Game) -> Vec<Decided> {
    let mut ids = g.battlefield.clone();
    ids.sort();
    ids.into_iter()
        .map(|id| {
            let c = g.chars(id).expect("on the battlefield");
            let subtypes: Vec<String> = ["Sliver", "Goblin", "Elf", "Human", "Troll", "Illusion"]
                .iter()
                .filter(|s| g.has_subtype(id, s))
                .map(|s| s.to_string())
                .collect();
            let (p, t) = g.power_toughness(id).unwrap_or((0, 0));
            let ctrl = g.obj(id).map(|o| o.controller).unwrap_or(PlayerId(0));
            (id, subtypes, c.keywords.0, c.own_abilities, p, t, ctrl)
        })
        .collect()
}

#[derive(Debug, Clone)]
struct Spec {
    targets: Vec<usize>,
    kind: u8,
    arg: u8,
    timestamp: u32,
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        proptest::collection::vec(0usize..10, 1..4),
        0u8..4,
        0u8..8,
        0u32..1000,
    )
        .prop_map(|(targets, kind, arg, timestamp)| Spec {
            targets,
            kind,
            arg,
            timestamp,
        })
}

fn effect(g: &Game, s: &Spec, ts: u32) -> CharEffect {
    let bf = &g.battlefield;
    let objects: Vec<ObjectId> = s.targets.iter().map(|i| bf[i % bf.len()]).collect();
    let change = match s.kind {
        0 => CharChange::SetCreatureTypes(vec![
            ["Goblin", "Elf", "Sliver"][s.arg as usize % 3].to_string(),
        ]),
        1 => CharChange::LoseAllAbilities,
        2 => CharChange::AddKeywords(KeywordSet::of(&[[
            Keyword::Flying,
            Keyword::DoubleStrike,
            Keyword::Trample,
            Keyword::Absorb1,
        ][s.arg as usize % 4]])),
        _ => CharChange::Control(PlayerId(s.arg % 2)),
    };
    CharEffect {
        timestamp: ts,
        source: objects[0],
        controller: PlayerId(0),
        objects,
        change,
        duration: Duration::EndOfTurn,
    }
}

fn with_effects(classic: bool, specs: &[Spec], order: &[usize]) -> Game {
    let mut g = board(classic);
    // Distinct timestamps after every object's (the order of creation is `order`).
    let base = g.next_timestamp + 1;
    let mut effects: Vec<CharEffect> = specs
        .iter()
        .enumerate()
        .map(|(i, s)| effect(&g, s, base + s.timestamp * 16 + i as u32))
        .collect();
    let reordered: Vec<CharEffect> = order.iter().map(|&i| effects[i].clone()).collect();
    effects = reordered;
    g.char_effects = effects;
    g.layered = true;
    g.next_timestamp = base + 1000 * 16 + 64;
    g.refresh_control();
    g
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Holding the same effects in another order changes nothing: only timestamps and
    /// dependencies order them (418.5d).
    #[test]
    fn layers_ignore_creation_order(
        specs in proptest::collection::vec(spec(), 1..6),
        seed in any::<u64>(),
        classic in any::<bool>(),
    ) {
        let n = specs.len();
        let order: Vec<usize> = (0..n).collect();
        let mut shuffled = order.clone();
        // A deterministic shuffle from the seed.
        let mut x = seed | 1;
        for i in (1..n).rev() {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            shuffled.swap(i, (x % (i as u64 + 1)) as usize);
        }
        let a = with_effects(classic, &specs, &order);
        let b = with_effects(classic, &specs, &shuffled);
        prop_assert_eq!(snapshot(&a), snapshot(&b));
    }

    /// The order of permanents on the battlefield (whose static abilities apply) doesn't
    /// matter either: their timestamps do.
    #[test]
    fn layers_ignore_battlefield_order(
        specs in proptest::collection::vec(spec(), 0..5),
        classic in any::<bool>(),
    ) {
        let order: Vec<usize> = (0..specs.len()).collect();
        let a = with_effects(classic, &specs, &order);
        let mut b = a.clone();
        b.battlefield.reverse();
        prop_assert_eq!(snapshot(&a), snapshot(&b));
    }

    /// A later effect wins between two effects of the same layer that don't depend on each
    /// other: the last "becomes a <type>" decides.
    #[test]
    fn later_type_setting_wins(first in 0u8..3, second in 0u8..3) {
        let t = |i: u8| ["Goblin", "Elf", "Sliver"][i as usize % 3];
        let specs = vec![
            Spec { targets: vec![3], kind: 0, arg: first, timestamp: 1 },
            Spec { targets: vec![3], kind: 0, arg: second, timestamp: 2 },
        ];
        let g = with_effects(false, &specs, &[1, 0]);
        let squire = g.battlefield[3];
        prop_assert!(g.has_subtype(squire, t(second)));
        if first % 3 != second % 3 && t(first) != "Sliver" {
            prop_assert!(!g.has_subtype(squire, t(first)));
        }
    }
}

fn effects_deck_a() -> Vec<engine::CardId> {
    deck(&[
        ("Swamp", 9),
        ("Plains", 4),
        ("Celestial Dawn", 1),
        ("Vesuva", 2),
        ("Forest", 4),
        ("Island", 3),
        ("Drudge Reavers", 3),
        ("Vampiric Sliver", 2),
        ("Thallid", 1),
        ("Wrap in Vigor", 2),
        ("Damnation", 1),
        ("Healing Leaves", 1),
        ("Mana Tithe", 1),
        ("Samite Censer-Bearer", 2),
        ("Verdant Embrace", 1),
        ("Darkness", 2),
        ("Plated Pegasus", 2),
        ("Endrek Sahr, Master Breeder", 1),
        ("Thelon of Havenwood", 1),
        ("Lymph Sliver", 2),
        ("Sinew Sliver", 3),
        ("Hivestone", 2),
        ("Conspiracy", 1),
        ("Mesa Enchantress", 3),
        ("Enduring Renewal", 1),
        ("Faceless Butcher", 3),
        ("Sengir Autocrat", 1),
        ("Outrider en-Kor", 1),
    ])
}

fn effects_deck_b() -> Vec<engine::CardId> {
    deck(&[
        ("Mountain", 8),
        ("Molten Firebird", 1),
        ("Island", 5),
        ("Swamp", 4),
        ("Forest", 3),
        ("Gaea's Liege", 1),
        ("Plains", 3),
        ("Uthden Troll", 3),
        ("Merieke Ri Berit", 1),
        ("Norin the Wary", 2),
        ("Pongify", 2),
        ("Pandemonium", 1),
        ("Disintegrate", 2),
        ("Ib Halfheart, Goblin Tactician", 1),
        ("Thallid", 1),
        ("Sudden Spoiling", 2),
        ("Chameleon Blur", 1),
        ("Mistform Ultimus", 2),
        ("Plague Sliver", 2),
        ("Harmonic Sliver", 2),
        ("Crookclaw Transmuter", 1),
        ("Sporesower Thallid", 1),
        ("Saffi Eriksdotter", 2),
        ("Fury Sliver", 2),
        ("Ghost Ship", 1),
        ("Spiketail Drakeling", 1),
        ("Nether Traitor", 1),
        ("Lightning Axe", 1),
        ("Pyrohemia", 1),
        ("Cloudchaser Kestrel", 2),
    ])
}

fn deck(spec: &[(&str, usize)]) -> Vec<engine::CardId> {
    let c = engine::Catalog::builtin();
    spec.iter()
        .flat_map(|(n, k)| {
            let d = c.by_name(n).unwrap_or_else(|| panic!("missing card {n}"));
            assert!(d.is_supported(), "{n} is not supported");
            std::iter::repeat_n(d.id, *k)
        })
        .collect()
}

/// Random games with the cards of the effects machinery: no panic, every listed answer is
/// accepted, the games end, and no "until end of turn" or "this turn" effect survives a
/// cleanup step.
#[test]
fn random_games_with_effects_cards() {
    let (a, b) = (effects_deck_a(), effects_deck_b());
    assert_eq!(a.len(), 60);
    assert_eq!(b.len(), 60);
    let mut finished = 0;
    // Triggered and activated abilities of the cards of the trigger-events work: each must
    // have been used at least once across the games.
    let mut new_cards: Vec<(String, u32)> = [
        "Vampiric Sliver",
        "Pandemonium",
        "Endrek Sahr, Master Breeder",
        "Thallid",
        "Thelon of Havenwood",
        "Ib Halfheart, Goblin Tactician",
    ]
    .iter()
    .map(|n| (n.to_string(), 0))
    .collect();
    for seed in 0..24u64 {
        for rs in [Ruleset::Modern, Ruleset::Classic] {
            let setup = GameSetup::two_player(rs, seed, a.clone(), b.clone());
            let mut g = Game::new(&setup).expect("setup");
            let mut agent = RandomAgent::new(seed);
            let mut last_turn = 0;
            for _ in 0..40_000 {
                let Some(p) = g.pending().cloned() else { break };
                if g.turn != last_turn {
                    // A new turn: the previous cleanup ended every turn-long effect.
                    last_turn = g.turn;
                    assert!(
                        g.pt_effects.is_empty(),
                        "seed {seed}: P/T effect outlived its turn"
                    );
                    assert!(
                        g.shields.is_empty(),
                        "seed {seed}: shield outlived its turn"
                    );
                    assert!(
                        g.char_effects
                            .iter()
                            .all(|e| e.duration != Duration::EndOfTurn),
                        "seed {seed}: an until-end-of-turn effect outlived its turn"
                    );
                }
                for ans in g.legal_answers(p.player).into_iter().take(3) {
                    let mut probe = g.clone();
                    if let Err(e) = probe.submit(p.player, ans.clone()) {
                        panic!(
                            "seed {seed}: listed answer {ans:?} for {:?} was refused: {e}",
                            p.decision
                        );
                    }
                }
                let ans = agent.choose(&g, p.player);
                match g.submit(p.player, ans.clone()) {
                    Err(e) => panic!(
                        "seed {seed}: agent answer {ans:?} to {:?} refused: {e}",
                        p.decision
                    ),
                    Ok(events) => {
                        for e in events {
                            let card = match e {
                                engine::Event::TriggerPut { card, .. }
                                | engine::Event::AbilityActivated { card, .. } => card,
                                _ => continue,
                            };
                            let name = &engine::Catalog::builtin().get(card).name;
                            if let Some(n) = new_cards.iter_mut().find(|(c, _)| c == name) {
                                n.1 += 1;
                            }
                        }
                    }
                }
            }
            let json = g.to_json().expect("serialises");
            assert_eq!(
                Game::from_json(&json).expect("parses").state_hash(),
                g.state_hash()
            );
            if g.result.is_some() {
                finished += 1;
            } else if std::env::var("SHOW_CAPPED").is_ok() {
                let v = g.view(None);
                eprintln!(
                    "capped seed {seed} {rs:?}: turn {} step {:?} pending {:?} life {:?} libs {:?} bf {}",
                    g.turn,
                    g.step,
                    g.pending().map(|p| p.decision.kind_name()),
                    v.players.iter().map(|p| p.life).collect::<Vec<_>>(),
                    v.players
                        .iter()
                        .map(|p| p.library_count)
                        .collect::<Vec<_>>(),
                    g.battlefield.len()
                );
            }
        }
    }
    assert!(finished >= 40, "most random games finish: {finished}/48");
    assert!(
        new_cards.iter().all(|(_, n)| *n > 0),
        "every new card's ability is used in some game: {new_cards:?}"
    );
}

/// The bench's `effects` deck (layers, replacement, triggers) plays to the end.
#[test]
fn effects_bench_deck_games_end() {
    let d = engine::agent::bench_deck("effects").expect("effects bench deck");
    assert_eq!(d.len(), 60);
    for seed in 0..6u64 {
        let setup = GameSetup::two_player(Ruleset::Modern, seed, d.clone(), d.clone());
        let mut g = Game::new(&setup).expect("setup");
        let mut agent = RandomAgent::new(seed);
        for _ in 0..40_000 {
            let Some(p) = g.pending().map(|p| p.player) else {
                break;
            };
            let a = agent.choose(&g, p);
            g.submit(p, a).expect("agent answers are legal");
        }
        assert!(g.result.is_some(), "seed {seed}: the game ended");
    }
}
