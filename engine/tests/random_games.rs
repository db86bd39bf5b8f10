//! Random-agent games: invariants over many seeds (no panic, termination, determinism,
//! serialisation round trip, every listed answer accepted).

use engine::agent::RandomAgent;
use engine::{Catalog, Game, GameSetup, Ruleset};

fn deck(spec: &[(&str, usize)]) -> Vec<engine::CardId> {
    let c = Catalog::builtin();
    spec.iter()
        .flat_map(|(n, k)| std::iter::repeat_n(c.by_name(n).expect(n).id, *k))
        .collect()
}

fn tsp_deck() -> Vec<engine::CardId> {
    engine::agent::bench_deck("tsp").expect("the tsp bench deck")
}

fn trigger_deck() -> Vec<engine::CardId> {
    deck(&[
        ("Forest", 10),
        ("Island", 6),
        ("Swamp", 3),
        ("Mountain", 4),
        ("Plains", 4),
        ("Essence Warden", 4),
        ("Herd Gnarr", 3),
        ("Mystic Snake", 2),
        ("Jedit's Dragoons", 2),
        ("Groundbreaker", 4),
        ("Skittering Monstrosity", 2),
        ("Stonebrow, Krosan Hero", 2),
        ("Moorish Cavalry", 2),
        ("Havenwood Wurm", 2),
        ("Cancel", 2),
        ("Sinew Sliver", 2),
        ("Fury Sliver", 1),
        ("Reflex Sliver", 1),
        ("Merfolk Thaumaturgist", 2),
        ("Gaea's Anthem", 1),
        ("Sprout", 2),
        ("Penumbra Spider", 2),
        ("Fortify", 2),
        ("Squall Line", 2),
        ("Ashcoat Bear", 2),
        ("Pandemonium", 1),
        ("Endrek Sahr, Master Breeder", 1),
        ("Vampiric Sliver", 2),
    ])
}

/// Plays one game to the end (or the cap); returns (decisions, final game).
fn play(ruleset: Ruleset, seed: u64, cap: usize) -> (usize, Game) {
    let setup = GameSetup::two_player(ruleset, seed, tsp_deck(), tsp_deck());
    let mut g = Game::new(&setup).expect("setup");
    let mut agent = RandomAgent::new(seed ^ 0x9e37);
    let mut n = 0;
    while let Some(p) = g.pending().cloned() {
        if n >= cap {
            break;
        }
        let a = agent.choose(&g, p.player);
        if let Err(e) = g.submit(p.player, a.clone()) {
            panic!(
                "seed {seed}: agent answer {a:?} to {:?} refused: {e}",
                p.decision
            );
        }
        n += 1;
    }
    (n, g)
}

#[test]
fn random_games_terminate_without_panics_in_both_rulesets() {
    let mut finished = 0;
    for seed in 0..40 {
        for rs in [Ruleset::Modern, Ruleset::Classic] {
            let (_, g) = play(rs, seed, 50_000);
            if g.result.is_some() {
                finished += 1;
            }
        }
    }
    assert!(finished >= 70, "most random games finish: {finished}/80");
}

fn evasion_deck() -> Vec<engine::CardId> {
    deck(&[
        ("Plains", 9),
        ("Mountain", 9),
        ("Swamp", 6),
        ("Soltari Priest", 3),
        ("Blood Knight", 3),
        ("Benalish Cavalry", 4),
        ("Two-Headed Sliver", 3),
        ("Sidewinder Sliver", 3),
        ("Shadow Sliver", 2),
        ("Tivadar of Thorn", 2),
        ("Wildfire Emissary", 3),
        ("Sinew Sliver", 3),
        ("Ghostfire", 4),
        ("Dauthi Slayer", 2),
        ("Bad Moon", 2),
    ])
}

#[test]
fn random_games_with_triggered_abilities_terminate() {
    let mut finished = 0;
    for seed in 0..30 {
        for rs in [Ruleset::Modern, Ruleset::Classic] {
            let setup = GameSetup::two_player(rs, seed, trigger_deck(), evasion_deck());
            let mut g = Game::new(&setup).expect("setup");
            let mut agent = RandomAgent::new(seed);
            for _ in 0..50_000 {
                let Some(p) = g.pending().cloned() else { break };
                for a in g.legal_answers(p.player).into_iter().take(3) {
                    let mut probe = g.clone();
                    if let Err(e) = probe.submit(p.player, a.clone()) {
                        panic!(
                            "seed {seed}: listed answer {a:?} for {:?} was refused: {e}",
                            p.decision
                        );
                    }
                }
                let a = agent.choose(&g, p.player);
                if let Err(e) = g.submit(p.player, a.clone()) {
                    panic!(
                        "seed {seed}: agent answer {a:?} to {:?} refused: {e}",
                        p.decision
                    );
                }
            }
            if g.result.is_some() {
                finished += 1;
            }
        }
    }
    // Shadow and protection can stall two random players; capped games are not errors.
    assert!(finished >= 45, "most random games finish: {finished}/60");
}

#[test]
fn same_seed_same_game() {
    let (n1, a) = play(Ruleset::Modern, 7, 3000);
    let (n2, b) = play(Ruleset::Modern, 7, 3000);
    assert_eq!(n1, n2);
    assert_eq!(a.state_hash(), b.state_hash());
    let (_, c) = play(Ruleset::Modern, 8, 3000);
    assert_ne!(a.state_hash(), c.state_hash());
}

#[test]
fn state_round_trips_through_json_mid_game() {
    let (_, g) = play(Ruleset::Classic, 3, 400);
    let json = g.to_json().unwrap();
    let back = Game::from_json(&json).unwrap();
    assert_eq!(back.state_hash(), g.state_hash());
    assert_eq!(back.to_json().unwrap(), json);
}

#[test]
fn every_listed_answer_is_accepted() {
    // At many points of random games, every enumerated answer must be accepted by submit.
    for seed in 0..6 {
        let setup = GameSetup::two_player(Ruleset::Modern, seed, tsp_deck(), tsp_deck());
        let mut g = Game::new(&setup).unwrap();
        let mut agent = RandomAgent::new(seed);
        for _ in 0..600 {
            let Some(p) = g.pending().cloned() else { break };
            for a in g.legal_answers(p.player) {
                let mut probe = g.clone();
                if let Err(e) = probe.submit(p.player, a.clone()) {
                    panic!("listed answer {a:?} for {:?} was refused: {e}", p.decision);
                }
            }
            let a = agent.choose(&g, p.player);
            g.submit(p.player, a).unwrap();
        }
    }
}

#[test]
fn refused_answers_change_nothing() {
    let (_, mut g) = play(Ruleset::Modern, 11, 200);
    let Some(p) = g.pending().cloned() else {
        return;
    };
    let before = g.to_json().unwrap();
    let other = engine::PlayerId(1 - p.player.0);
    assert!(g.submit(other, engine::Answer::Pass).is_err());
    assert!(
        g.submit(p.player, engine::Answer::X(3)).is_err()
            || matches!(p.decision, engine::Decision::ChooseX)
    );
    assert_eq!(g.to_json().unwrap(), before);
}

#[test]
fn random_games_with_combat_cards_terminate() {
    // The combat deck (rampage, flanking instances, extra blocks, deathtouch, fights,
    // damage triggers) against itself and against the evasion deck, both rulesets; every
    // listed answer at each decision is accepted, and combat actually happens.
    let combat = engine::agent::bench_deck("combat").expect("the combat bench deck");
    let (mut finished, mut games, mut multi_blocks, mut assignments) = (0, 0, 0, 0);
    let mut opponent_targets = 0;
    for seed in 0..20 {
        for rs in [Ruleset::Modern, Ruleset::Classic] {
            let other = if seed % 2 == 0 {
                combat.clone()
            } else {
                evasion_deck()
            };
            let setup = GameSetup::two_player(rs, seed, combat.clone(), other);
            let mut g = Game::new(&setup).expect("setup");
            let mut agent = RandomAgent::new(seed ^ 0xc0ba);
            games += 1;
            for _ in 0..50_000 {
                let Some(p) = g.pending().cloned() else { break };
                match &p.decision {
                    engine::Decision::AssignCombatDamage { .. } => assignments += 1,
                    engine::Decision::ChooseTarget { spec, .. } if spec.chosen_by_opponent => {
                        opponent_targets += 1
                    }
                    _ => {}
                }
                for a in g.legal_answers(p.player).into_iter().take(4) {
                    let mut probe = g.clone();
                    if let Err(e) = probe.submit(p.player, a.clone()) {
                        panic!(
                            "seed {seed} {rs}: listed answer {a:?} for {:?} was refused: {e}",
                            p.decision
                        );
                    }
                }
                let a = agent.choose(&g, p.player);
                if let engine::Answer::Block(b) = &a
                    && b.iter()
                        .any(|x| b.iter().filter(|y| y.blocker == x.blocker).count() > 1)
                {
                    multi_blocks += 1;
                }
                if let Err(e) = g.submit(p.player, a.clone()) {
                    panic!(
                        "seed {seed} {rs}: agent answer {a:?} to {:?} refused: {e}",
                        p.decision
                    );
                }
            }
            if g.result.is_some() {
                finished += 1;
            }
        }
    }
    assert!(
        finished * 4 >= games * 3,
        "most games finish: {finished}/{games}"
    );
    assert!(assignments > 0, "some combat damage was divided");
    assert!(multi_blocks > 0, "some creature blocked two attackers");
    assert!(
        opponent_targets > 0,
        "some Arena target was chosen by an opponent"
    );
}

/// The first few answers listed for `player` are each accepted (tried on a copy).
fn assert_first_listed_answers_accepted(g: &Game, player: engine::PlayerId, what: &str) {
    let listed = g.legal_answers(player);
    // The one-answer check agrees with the full list.
    for a in [
        engine::Answer::AutoPay,
        engine::Answer::Cancel,
        engine::Answer::Pass,
    ] {
        assert_eq!(
            g.lists_answer(player, &a),
            listed.contains(&a),
            "{what}: lists_answer({a:?}) disagrees with legal_answers"
        );
    }
    for a in listed.into_iter().take(6) {
        let mut probe = g.clone();
        if let Err(e) = probe.submit(player, a.clone()) {
            panic!("{what}: listed answer {a:?} was refused: {e}");
        }
    }
}

#[test]
fn random_games_with_morph_cards() {
    // The morph deck: cards cast face down and turned face up (special actions, also under
    // split second), Ixidron turning creatures face down. Every listed answer is accepted,
    // the game round-trips through JSON, and no player's view names another player's
    // face-down card.
    let morph = engine::agent::bench_deck("morph").expect("the morph bench deck");
    let cat = Catalog::builtin();
    let (mut cast_down, mut turned_up, mut turned_down, mut finished) = (0, 0, 0, 0);
    for seed in 0..12u64 {
        for rs in [Ruleset::Modern, Ruleset::Classic] {
            let setup = GameSetup::two_player(rs, seed, morph.clone(), morph.clone());
            let mut g = Game::new(&setup).expect("setup");
            let mut agent = RandomAgent::new(seed ^ 0x3077);
            for step in 0..30_000 {
                let Some(p) = g.pending().cloned() else { break };
                assert_first_listed_answers_accepted(&g, p.player, &format!("seed {seed} {rs}"));
                let a = agent.choose(&g, p.player);
                let events = g
                    .submit(p.player, a.clone())
                    .unwrap_or_else(|e| panic!("seed {seed} {rs}: {a:?} refused: {e}"));
                for e in &events {
                    match e {
                        engine::Event::SpellCast { card, .. } if *card == cat.face_down() => {
                            cast_down += 1
                        }
                        engine::Event::TurnedFaceUp { .. } => turned_up += 1,
                        engine::Event::TurnedFaceDown { .. } => turned_down += 1,
                        _ => {}
                    }
                }
                if step % 97 == 0 {
                    let back = Game::from_json(&g.to_json().expect("json")).expect("round trip");
                    assert_eq!(back, g, "seed {seed} {rs}: JSON round trip");
                }
                // Hidden information: each opponent sees face-down objects as such (until
                // the game ends and they are revealed).
                for o in g
                    .objects
                    .iter()
                    .filter(|o| o.face_down && g.result.is_none())
                {
                    for viewer in g.player_ids().filter(|v| *v != o.controller) {
                        let v = g.view(Some(viewer));
                        for x in v.battlefield.iter().filter(|x| x.id == o.id) {
                            assert_eq!(x.card, cat.face_down(), "seed {seed} {rs}: a leak");
                        }
                        assert!(
                            !v.stack.iter().any(|s| s.face_down
                                && s.controller != viewer
                                && s.card != cat.face_down()),
                            "seed {seed} {rs}: a face-down spell leaks"
                        );
                    }
                }
            }
            if g.result.is_some() {
                finished += 1;
            }
        }
    }
    assert!(cast_down > 10, "cards were cast face down: {cast_down}");
    assert!(
        turned_up > 5,
        "face-down permanents were turned face up: {turned_up}"
    );
    assert!(
        turned_down > 0,
        "Ixidron turned creatures face down: {turned_down}"
    );
    assert!(finished >= 16, "most games finish: {finished}/24");
}

/// Plays one `effects` bench game like the bench does (agent seed `seed ^ 0x5eed`), checking
/// every draw by an endless loop against an oracle: the situation it ends in must have been
/// seen before with nothing but decisions offering a single answer (priority: passing or
/// making mana only) since. Returns the final game.
fn play_effects_checking_loops(ruleset: Ruleset, seed: u64) -> Game {
    let deck = engine::agent::bench_deck("effects").expect("the effects bench deck");
    let setup = GameSetup::two_player(ruleset, seed, deck.clone(), deck);
    let mut g = Game::new_with(&setup, false).expect("setup");
    let mut agent = RandomAgent::new(seed ^ 0x5eed);
    // Situations since the last decision that offered a choice.
    let mut run: Vec<u64> = Vec::new();
    for _ in 0..20_000 {
        let Some(p) = g.pending().cloned() else {
            break;
        };
        let single = match p.decision {
            engine::Decision::Priority => g.priority_actions(p.player, false).len() <= 1,
            _ => g.legal_answers(p.player).len() <= 1,
        };
        if single {
            run.push(g.situation_fingerprint());
        } else {
            run.clear();
        }
        let a = agent.choose(&g, p.player);
        let before = g.clone();
        let events = g.submit(p.player, a.clone()).expect("accepted");
        if events.contains(&engine::Event::EndlessLoop) {
            assert_eq!(g.draw_reason, Some(engine::DrawReason::MandatoryLoop));
            assert_eq!(g.result, Some(engine::GameResult::Draw));
            // The draw is declared on arriving at a situation already in the forced run:
            // the same answer without the watch shows where the game arrived.
            let mut h = before;
            h.loop_watch = Default::default();
            h.submit(p.player, a).expect("accepted");
            assert!(h.result.is_none());
            let now = h.situation_fingerprint();
            let mut seen = run.clone();
            seen.sort_unstable();
            assert!(
                seen.binary_search(&now).is_ok(),
                "seed {seed}: a draw without a repeated forced situation"
            );
        }
    }
    g
}

#[test]
fn endless_butcher_loops_in_effects_games_are_draws() {
    // The bench's capped games before loops were detected (modern, `effects`, seeds 9 and 188).
    for seed in [9, 188] {
        let g = play_effects_checking_loops(Ruleset::Modern, seed);
        assert_eq!(
            g.draw_reason,
            Some(engine::DrawReason::MandatoryLoop),
            "seed {seed}"
        );
    }
    // Other games: every loop draw is a true one; the others end by the usual rules.
    for seed in 0..16 {
        for rs in [Ruleset::Modern, Ruleset::Classic] {
            let g = play_effects_checking_loops(rs, 1000 + seed);
            assert!(g.result.is_some(), "seed {seed} {rs:?}: still running");
        }
    }
}

/// Plays ten seeds of a bench deck against itself in both rulesets with the random agent:
/// every listed answer is accepted (the first few checked before each answer), the game
/// round-trips through JSON every 97 decisions; `observe` sees each decision before it is
/// answered and the events the answer produced. Returns how many of the 20 games finished.
fn play_bench_deck_games(
    name: &str,
    salt: u64,
    mut observe: impl FnMut(&Game, &engine::Pending, &[engine::Event]),
) -> usize {
    let deck = engine::agent::bench_deck(name).expect("the bench deck");
    let mut finished = 0;
    for seed in 0..10u64 {
        for rs in [Ruleset::Modern, Ruleset::Classic] {
            let setup = GameSetup::two_player(rs, seed, deck.clone(), deck.clone());
            let mut g = Game::new(&setup).expect("setup");
            let mut agent = RandomAgent::new(seed ^ salt);
            for step in 0..30_000 {
                let Some(p) = g.pending().cloned() else { break };
                assert_first_listed_answers_accepted(&g, p.player, &format!("seed {seed} {rs}"));
                let a = agent.choose(&g, p.player);
                let events = g
                    .submit(p.player, a.clone())
                    .unwrap_or_else(|e| panic!("{name} seed {seed} {rs}: {a:?} refused: {e}"));
                observe(&g, &p, &events);
                if step % 97 == 0 {
                    let back = Game::from_json(&g.to_json().expect("json")).expect("round trip");
                    assert_eq!(back, g, "{name} seed {seed} {rs}: JSON round trip");
                }
            }
            if g.result.is_some() {
                finished += 1;
            }
        }
    }
    finished
}

#[test]
fn random_games_with_flashback_cards() {
    // The flashback deck: cards cast from the graveyard (printed flashback, Dralnu's granted
    // flashback), divided damage (Conflagrate with X), Dralnu's sacrifices. Every listed
    // answer is accepted, a spell cast with flashback never reaches a graveyard, and the
    // game round-trips through JSON.
    let (mut flashbacks, mut divided) = (0, 0);
    let finished = play_bench_deck_games("flashback", 0xF1A5, |g, p, events| {
        if matches!(p.decision, engine::Decision::DivideDamage { .. }) {
            divided += 1;
        }
        for e in events {
            if let engine::Event::SpellCast { spell, .. } = e
                && g.obj(*spell).is_some_and(|o| o.flashback)
            {
                flashbacks += 1;
            }
        }
    });
    assert!(finished >= 10, "most games finish: {finished}/20");
    assert!(flashbacks > 0, "some spell was cast with flashback");
    assert!(divided > 0, "some damage was divided");
}

#[test]
fn random_games_with_suspend_cards() {
    // The suspend deck: cards suspended from the hand, ticking down in exile and cast for
    // free (targets chosen then, or stranded without one), in both rulesets.
    let (mut suspended, mut cast_by_suspend) = (0, 0);
    let finished = play_bench_deck_games("suspend", 0x5005, |g, _, events| {
        for e in events {
            match e {
                engine::Event::Suspended { .. } => suspended += 1,
                engine::Event::SpellCast { spell, .. }
                    if g.obj(*spell).is_some_and(|o| o.suspend_cast) =>
                {
                    cast_by_suspend += 1
                }
                _ => {}
            }
        }
    });
    assert!(finished >= 10, "most games finish: {finished}/20");
    assert!(suspended > 0, "some card was suspended");
    assert!(
        cast_by_suspend > 0,
        "some suspended card was cast from exile"
    );
}

#[test]
fn random_games_with_storm_cards() {
    // The storm deck: storm copies (new targets asked per copy), Reiterate's copies, kicker
    // and buyback announced as spells are cast, in both rulesets. Every listed answer is
    // accepted, copies never reach a zone, and the game round-trips through JSON.
    let (mut copies, mut kicked, mut bought_back) = (0, 0, 0);
    let finished = play_bench_deck_games("storm", 0x5707, |g, _, events| {
        for e in events {
            match e {
                engine::Event::SpellCopied { .. } => copies += 1,
                engine::Event::SpellCast { spell, .. } => {
                    let o = g.obj(*spell);
                    kicked += o.is_some_and(|o| o.kicked != 0) as usize;
                    bought_back += o.is_some_and(|o| o.buyback) as usize;
                }
                _ => {}
            }
        }
        // A copy of a spell exists only on the stack (S16).
        for o in g.objects.iter().filter(|o| o.spell_copy && !o.ceased) {
            assert!(
                g.stack.iter().any(|s| s.object() == Some(o.id)),
                "a copy of a spell is off the stack"
            );
        }
    });
    assert!(finished >= 10, "most games finish: {finished}/20");
    assert!(copies > 0, "some spell was copied");
    assert!(kicked > 0, "some spell was kicked");
    assert!(bought_back > 0, "some spell was cast with buyback");
}

#[test]
fn random_games_with_graveyard_cards() {
    // The graveyard deck: madness cards discarded (to costs, effects, at random, in cleanup)
    // and exiled or not, cast from exile as the trigger resolves; cycling and typecycling
    // (Homing Sliver's granted slivercycling); threshold and hellbent statics. Both
    // rulesets: every listed answer is accepted, madness exiles and casts happen, cards are
    // cycled, and the game round-trips through JSON.
    let deck = engine::agent::bench_deck("graveyard").expect("the graveyard bench deck");
    let (mut madness_exiled, mut madness_cast, mut cycled, mut threshold, mut finished) =
        (0, 0, 0, 0, 0);
    for seed in 0..10u64 {
        for rs in [Ruleset::Modern, Ruleset::Classic] {
            let setup = GameSetup::two_player(rs, seed, deck.clone(), deck.clone());
            let mut g = Game::new(&setup).expect("setup");
            let mut agent = RandomAgent::new(seed ^ 0x6AEE);
            for step in 0..30_000 {
                let Some(p) = g.pending().cloned() else { break };
                assert_first_listed_answers_accepted(&g, p.player, &format!("seed {seed} {rs}"));
                let exiled_before: Vec<engine::ObjectId> = g.exile.clone();
                let a = agent.choose(&g, p.player);
                let events = g
                    .submit(p.player, a.clone())
                    .unwrap_or_else(|e| panic!("seed {seed} {rs}: {a:?} refused: {e}"));
                let activated: Vec<engine::CardId> = events
                    .iter()
                    .filter_map(|e| match e {
                        engine::Event::AbilityActivated { card, .. } => Some(*card),
                        _ => None,
                    })
                    .collect();
                for e in &events {
                    match e {
                        engine::Event::Discarded { card, .. } => {
                            let o = g.obj(*card);
                            if o.is_some_and(|o| o.zone == engine::zones::ZoneKind::Exile) {
                                madness_exiled += 1;
                            }
                            if g.catalog()
                                .get(g.objects[card.slot()].card)
                                .abilities
                                .iter()
                                .any(|x| x.cycling)
                                && activated.contains(&g.objects[card.slot()].card)
                            {
                                cycled += 1;
                            }
                        }
                        engine::Event::SpellCast { spell, .. }
                            if exiled_before.iter().any(|x| x.slot() == spell.slot()) =>
                        {
                            madness_cast += 1
                        }
                        _ => {}
                    }
                }
                if g.battlefield.iter().any(|id| {
                    g.card_name(*id) == "Mystic Enforcer" && g.power_toughness(*id) == Some((6, 6))
                }) {
                    threshold += 1;
                }
                if step % 97 == 0 {
                    let back = Game::from_json(&g.to_json().expect("json")).expect("round trip");
                    assert_eq!(back, g, "seed {seed} {rs}: JSON round trip");
                }
            }
            if g.result.is_some() {
                finished += 1;
            }
        }
    }
    assert!(finished >= 10, "most games finish: {finished}/20");
    assert!(
        madness_exiled > 0,
        "some madness card was exiled as it was discarded"
    );
    assert!(madness_cast > 0, "some madness card was cast from exile");
    assert!(cycled > 0, "some card was cycled");
    assert!(threshold > 0, "some Mystic Enforcer had threshold");
}

#[test]
fn random_games_with_counters_cards() {
    // The counters deck (vanishing, poisonous, frenzy, bloodthirst, storage lands, Auras
    // that return to hand, shroud), in both rulesets: every listed answer is accepted,
    // storage lands store counters, poison counters are given, and the game round-trips
    // through JSON.
    let (mut poisoned, mut stored) = (0, 0);
    let finished = play_bench_deck_games("counters", 0xC0C0, |_, _, events| {
        poisoned += events
            .iter()
            .filter(|e| matches!(e, engine::Event::PoisonCounters { .. }))
            .count();
        stored += events
            .iter()
            .filter(|e| {
                matches!(e, engine::Event::CountersChanged { kind, delta, .. }
                    if *delta > 0 && kind.to_string() == "storage")
            })
            .count();
    });
    assert!(finished >= 10, "most games finish: {finished}/20");
    assert!(poisoned > 0, "some player got poison counters");
    assert!(stored > 0, "some storage land stored a counter");
}

#[test]
fn random_games_with_pool_decks() {
    // The pool deck: two random two-colour 40-card decks of the block's playable cards per
    // game (issue 14), in both rulesets. Every listed answer is accepted, no game panics or
    // hangs, the JSON round trip holds, and replaying the answers from the setup gives the
    // same final state.
    let mut finished = 0;
    for seed in 0..20u64 {
        for rs in [Ruleset::Modern, Ruleset::Classic] {
            let (a, b) = engine::agent::bench_decks("pool", seed).expect("pool decks");
            let setup = GameSetup::two_player(rs, seed, a, b);
            let mut g = Game::new(&setup).expect("setup");
            let mut agent = RandomAgent::new(seed ^ 0x9001);
            let mut answers = Vec::new();
            for step in 0..30_000 {
                let Some(p) = g.pending().cloned() else { break };
                assert_first_listed_answers_accepted(&g, p.player, &format!("seed {seed} {rs}"));
                let a = agent.choose(&g, p.player);
                g.submit(p.player, a.clone())
                    .unwrap_or_else(|e| panic!("pool seed {seed} {rs}: {a:?} refused: {e}"));
                answers.push((p.player, a));
                if step % 97 == 0 {
                    let back = Game::from_json(&g.to_json().expect("json")).expect("round trip");
                    assert_eq!(back, g, "pool seed {seed} {rs}: JSON round trip");
                }
            }
            let mut again = Game::new(&setup).expect("setup");
            for (p, a) in answers {
                again.submit(p, a).expect("the same answers replay");
            }
            assert_eq!(again, g, "pool seed {seed} {rs}: replay");
            if g.result.is_some() {
                finished += 1;
            }
        }
    }
    assert!(finished >= 30, "only {finished} of 40 pool games ended");
}

#[test]
fn random_games_with_time_cards() {
    // The time deck (Clockspinning, Fury Charm, Dust of Moments, Timecrafting, Jhoira's
    // Timebug, Rift Elemental, Delay, Epochrasite, Chronosavant, Skizzik Surger, Thick-Skinned
    // Goblin, Fathom Seer), in both rulesets: every listed answer is accepted, cards are
    // suspended and time counters move, and the game round-trips through JSON.
    let mut time_moved = 0;
    let finished = play_bench_deck_games("time", 0x71AE, |_, _, events| {
        time_moved += events
            .iter()
            .filter(|e| {
                matches!(e, engine::Event::CountersChanged { kind, .. }
                    if kind.to_string() == "time")
            })
            .count();
    });
    assert!(finished >= 10, "most games finish: {finished}/20");
    assert!(time_moved > 0, "some time counter was put or removed");
}

#[test]
fn random_games_with_library_cards() {
    // The library deck (scry, fateseal, dredge, convoke), in both rulesets: every listed
    // answer is accepted, cards are scried and fatesealed, dredge is offered, convoke's
    // creatures are asked for, and the game round-trips through JSON.
    let (mut scried, mut fatesealed, mut dredge, mut convoke) = (0, 0, 0, 0);
    let finished = play_bench_deck_games("library", 0x5C7, |_, p, events| {
        match &p.decision {
            engine::Decision::Dredge { .. } => dredge += 1,
            engine::Decision::ChooseCostObjects {
                part: engine::costs::CostPart::Convoke(_),
            } => convoke += 1,
            _ => {}
        }
        for e in events {
            if let engine::Event::Scried {
                player, library, ..
            } = e
            {
                if player == library {
                    scried += 1;
                } else {
                    fatesealed += 1;
                }
            }
        }
    });
    assert!(finished >= 10, "most games finish: {finished}/20");
    assert!(scried > 0, "some player scried");
    assert!(fatesealed > 0, "some player fatesealed");
    assert!(dredge > 0, "dredge was offered");
    assert!(convoke > 0, "convoke's creatures were asked for");
}

#[test]
fn random_games_with_split_cards() {
    // The split deck: each half of Boom // Bust, Dead // Gone and Rough // Tumble cast on
    // its own (only that half on the stack), copied by Reiterate, countered by Draining
    // Whelk, in both rulesets. Every listed answer is accepted, a split card is whole again
    // off the stack, and the game round-trips through JSON.
    let mut halves = [0usize; 2];
    let finished = play_bench_deck_games("split", 0x5917, |g, _, events| {
        for e in events {
            if let engine::Event::SpellCast { card, .. } = e
                && let Some((_, h)) = card.half_of()
            {
                halves[h as usize] += 1;
            }
        }
        for p in &g.players {
            for id in p.hand.iter().chain(&p.graveyard).chain(&p.library) {
                let o = g.obj(*id).expect("a card");
                assert!(
                    o.split_half.is_none(),
                    "a split card off the stack is whole"
                );
            }
        }
    });
    assert!(finished >= 10, "most games finish: {finished}/20");
    assert!(
        halves[0] > 0 && halves[1] > 0,
        "both halves were cast: {halves:?}"
    );
}
