//! Answers taken from the DM and from menus against the strict fake: a madness discard,
//! Gemstone Caverns' pregame action, Trickbind's target among abilities on the stack.

use super::*;
use engine::zones::ZoneKind::{Battlefield, Exile, Graveyard, Hand};

/// The decision waiting in `game`, if any.
async fn pending_of(svc: &Service, game: i64) -> Option<(engine::PlayerId, Decision)> {
    let l = svc.load(game).await.expect("load");
    l.game.pending().map(|p| (p.player, p.decision.clone()))
}

/// A madness card discarded to hand size: the madness question comes by DM (the hand is
/// the one the last DM showed) and is answered there; the card is exiled and the thread
/// says so; the madness cast (its own questions by DM and in the replies) deals its damage.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_madness_discard_answered_from_the_direct_message() {
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let (svc, fake) = (&env.svc, &env.fake);
    let madness = r#"
name = "madness"
[setup]
active = "alice"
priority = "bob"
step = "precombat_main"
turn = 3
[setup.alice]
hand = ["Fiery Temper", "Forest", "Forest", "Island", "Island", "Plains", "Plains", "Swamp"]
battlefield = ["Mountain"]
library = ["Forest", "Forest"]
lands_played = 1
[setup.bob]
library = ["Forest", "Forest", "Forest"]
"#;
    let (g, thread) = scenario_game(&env, madness).await;
    bob_passes(&env, thread).await;
    let mut r = last_dm_of(fake, ALICE, g).expect("the hand's DM");
    for _ in 0..6 {
        if matches!(
            pending_of(svc, g).await,
            Some((_, Decision::Discard { .. }))
        ) {
            break;
        }
        r = dm_answer(&env, ALICE, &r, "pass").await;
    }
    assert!(
        matches!(
            pending_of(svc, g).await,
            Some((_, Decision::Discard { count: 1 }))
        ),
        "{:?}",
        pending_of(svc, g).await
    );
    let discard_dm = last_dm_of(fake, ALICE, g).expect("the discard's DM");
    let r = dm_answer(&env, ALICE, &discard_dm, "discard Fiery Temper").await;
    assert!(text(&r).starts_with("Done: `discard Fiery Temper`"), "{r}");
    // The madness question: a DM of its own, answered from it.
    assert!(
        matches!(pending_of(svc, g).await, Some((_, Decision::YesNo { .. }))),
        "{:?}",
        pending_of(svc, g).await
    );
    let dm = last_dm_of(fake, ALICE, g).expect("the madness question's DM");
    assert!(
        text(&dm).contains("madness"),
        "the DM says what is asked: {dm}"
    );
    assert_ne!(
        custom_ids(&dm),
        custom_ids(&discard_dm),
        "a new DM for the question"
    );
    let from = fake.calls().len();
    let mut r = dm_answer(&env, ALICE, &dm, "yes").await;
    assert!(text(&r).starts_with("Done: `yes`"), "{r}");
    let l = svc.load(g).await.expect("load");
    assert!(
        zone_names(&l.game, 0, Exile).contains(&"Fiery Temper".to_string())
            || !l.game.stack.is_empty(),
        "exiled with madness (or already cast)"
    );
    assert!(
        posts_in(fake, thread, from)
            .iter()
            .any(|c| text(&c.json).contains("Fiery Temper")),
        "the thread says Fiery Temper was exiled"
    );
    // The madness cast: `yes`, its target and the payment, each from the DM or the reply
    // (the trigger's own passes are automatic).
    for _ in 0..12 {
        let Some((p, d)) = pending_of(svc, g).await else {
            break;
        };
        if p != engine::PlayerId(0) || svc.load(g).await.expect("load").game.turn != 3 {
            break;
        }
        let phrase = match d {
            Decision::YesNo { .. } => "yes",
            Decision::ChooseTarget { .. } => "target Bob",
            Decision::PayMana { .. } => "pay",
            _ => "pass",
        };
        let from_dm = last_dm_of(fake, ALICE, g).filter(|m| answer_in(m, phrase).is_some());
        let v = match (answer_in(&r, phrase), from_dm) {
            (Some(_), _) => r.clone(),
            (None, Some(m)) => m,
            (None, None) => panic!("`{phrase}` offered for {d:?}: {r}"),
        };
        r = dm_answer(&env, ALICE, &v, phrase).await;
        assert!(text(&r).starts_with(&format!("Done: `{phrase}`")), "{r}");
        if svc
            .load(g)
            .await
            .expect("load")
            .game
            .player(engine::PlayerId(1))
            .life
            < 20
        {
            break;
        }
    }
    let l = svc.load(g).await.expect("load");
    assert_eq!(
        l.game.player(engine::PlayerId(1)).life,
        17,
        "Fiery Temper hit Bob"
    );
    assert!(zone_names(&l.game, 0, Graveyard).contains(&"Fiery Temper".to_string()));
    assert_eq!(zone_names(&l.game, 0, Hand).len(), 7);
    env.stop().await;
}

/// Alice (starting) kept; Bob's opening hand of Gemstone Caverns and Islands waits for his
/// keep.
fn caverns_game() -> engine::Game {
    let c = engine::Catalog::builtin();
    let caverns = c.by_name("Gemstone Caverns").map(|d| d.id).expect("card");
    let island = c.by_name("Island").map(|d| d.id).expect("card");
    let deck: Vec<_> = (0..20).flat_map(|_| [caverns, island]).collect();
    let mut setup = engine::GameSetup::two_player(engine::Ruleset::Modern, 7, deck.clone(), deck);
    setup.first_player = Some(engine::PlayerId(0));
    let mut g = engine::Game::new(&setup).expect("a legal setup");
    g.submit(engine::PlayerId(0), engine::Answer::Keep)
        .expect("keep");
    g
}

/// Gemstone Caverns' pregame action from the DM: Bob keeps in the thread; the question
/// comes to him by DM (the thread asks it without naming his card and offers **No**), and
/// from the DM he begins with the Caverns exiling an Island; the thread says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gemstone_caverns_begins_the_game_from_the_direct_message() {
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let (svc, fake) = (&env.svc, &env.fake);
    let (g, thread) = stored_game(&env, &caverns_game()).await;
    let from = fake.calls().len();
    let r = env
        .h
        .slash(
            BOB,
            thread,
            "mtg",
            "play",
            vec![opt("what", 3, json!("keep"))],
            json!({}),
        )
        .await;
    assert!(text(&r).contains("Done: `keep`"), "{r}");
    assert!(
        matches!(
            pending_of(svc, g).await,
            Some((engine::PlayerId(1), Decision::PregameAction { .. }))
        ),
        "{:?}",
        pending_of(svc, g).await
    );
    let posts = posts_in(fake, thread, from);
    assert!(
        posts.iter().any(|c| custom_ids(&c.json)
            .iter()
            .any(|i| i.starts_with("ss:a:") && i.ends_with(":no"))),
        "the thread offers No: {posts:?}"
    );
    let dm = last_dm_of(fake, BOB, g).expect("Bob's DM for the question");
    assert!(text(&dm).contains("before the game"), "{dm}");
    assert!(answer_in(&dm, "no").is_some(), "{dm}");
    let phrase = "begin with Gemstone Caverns exiling Island";
    assert!(answer_in(&dm, phrase).is_some(), "{dm}");
    let from = fake.calls().len();
    let r = dm_answer(&env, BOB, &dm, phrase).await;
    assert!(text(&r).starts_with(&format!("Done: `{phrase}`")), "{r}");
    let l = svc.load(g).await.expect("load");
    assert!(
        zone_names(&l.game, 1, Battlefield).contains(&"Gemstone Caverns".to_string()),
        "{:?}",
        zone_names(&l.game, 1, Battlefield)
    );
    assert_eq!(zone_names(&l.game, 1, Exile), vec!["Island".to_string()]);
    assert_eq!(l.game.turn, 1);
    assert!(
        posts_in(fake, thread, from)
            .iter()
            .any(|c| text(&c.json).contains("Gemstone Caverns")
                && text(&c.json).contains("exiling Island")),
        "the thread says Bob began with Gemstone Caverns, exiling Island"
    );
    // The old DM is out of date now.
    let r = dm_answer(&env, BOB, &dm, "no").await;
    assert!(text(&r).contains("out of date"), "{r}");
    env.stop().await;
}

/// Trickbind cast from `/mtg play`: the reply's menu lists the three abilities on the stack,
/// told apart (numbered from the top, whose), and the one chosen is the one countered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn trickbind_chooses_an_ability_on_the_stack_from_a_menu() {
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let (svc, fake) = (&env.svc, &env.fake);
    let board = r#"
name = "three sorcerers"
[setup]
active = "bob"
step = "precombat_main"
turn = 4
[setup.alice]
hand = ["Trickbind"]
library = ["Island", "Island"]
battlefield = ["Island", "Island", "Prodigal Sorcerer"]
[setup.bob]
library = ["Island", "Island"]
battlefield = ["Prodigal Sorcerer", "Prodigal Sorcerer"]
"#;
    let (g, thread) = scenario_game(&env, board).await;
    let alice = svc
        .user(&format!("discord:{ALICE}"), "Alice")
        .await
        .expect("user");
    let bob = svc
        .user(&format!("discord:{BOB}"), "Bob")
        .await
        .expect("user");
    for (u, w) in [
        (bob, "activate Prodigal Sorcerer on Alice"),
        (bob, "activate Prodigal Sorcerer on Alice"),
        (alice, "activate Prodigal Sorcerer on Bob"),
    ] {
        if pending_of(svc, g).await.is_some_and(|(p, _)| p.0 == 1) && u == alice {
            svc.command(bob, g, "pass", None).await.expect("Bob passes");
        }
        svc.command(u, g, w, None)
            .await
            .unwrap_or_else(|e| panic!("`{w}`: {e}"));
    }
    let l = svc.load(g).await.expect("load");
    assert_eq!(l.game.stack.len(), 3);
    let bottom = l.game.stack[0].serial.expect("a serial");
    let r = env
        .h
        .slash(
            ALICE,
            thread,
            "mtg",
            "play",
            vec![opt("what", 3, json!("cast Trickbind"))],
            json!({}),
        )
        .await;
    let menus = menus_of(&r);
    let Some((id, values)) = menus.first() else {
        panic!("a menu of targets: {r}");
    };
    assert_eq!(
        values,
        &vec![
            "Prodigal Sorcerer's ability 1 of 3 (yours)".to_string(),
            "Prodigal Sorcerer's ability 2 of 3 (Bob's)".to_string(),
            "Prodigal Sorcerer's ability 3 of 3 (Bob's)".to_string(),
        ],
        "{r}"
    );
    let from = fake.calls().len();
    let r = env
        .h
        .click(ALICE, thread, id, Some(vec![values[2].clone()]))
        .await;
    assert!(
        text(&r)
            .starts_with("Done: `cast Trickbind on Prodigal Sorcerer's ability 3 of 3 (Bob's)`"),
        "{r}"
    );
    let l = svc.load(g).await.expect("load");
    let countered = l
        .game
        .stack
        .iter()
        .find(|s| s.is_spell())
        .map(|s| s.targets.clone());
    assert!(
        countered.is_none_or(|t| t == vec![engine::Target::Ability(bottom)]),
        "Trickbind targets the bottom ability"
    );
    let said: String = posts_in(fake, thread, from)
        .iter()
        .map(|c| text(&c.json))
        .collect();
    assert!(said.contains("Trickbind"), "the thread says it: {said}");
    // Whatever resolved already: Bob's bottom ability is the one that never deals damage.
    for _ in 0..8 {
        let Some((p, Decision::Priority)) = pending_of(svc, g).await else {
            break;
        };
        if svc.load(g).await.expect("load").game.stack.is_empty() {
            break;
        }
        let u = if p.0 == 0 { alice } else { bob };
        svc.command(u, g, "pass", None).await.expect("pass");
    }
    let l = svc.load(g).await.expect("load");
    assert!(l.game.stack.is_empty());
    assert_eq!(l.game.player(engine::PlayerId(0)).life, 19);
    assert_eq!(l.game.player(engine::PlayerId(1)).life, 19);
    env.stop().await;
}
