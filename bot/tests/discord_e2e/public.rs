//! Issue 16's leftovers against the strict fake: a spectator's board (graveyards, exile,
//! effects) and the game log; a challenge from a DM refused; closed DMs tried again and the
//! flag cleared once one goes through.

use super::*;

/// Mallory plays in no game: in the game's thread `/mtg board` shows her the public board in
/// words (each graveyard, exile) and `/mtg log` what happened, both privately.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_sees_the_board_graveyards_exile_and_the_log() {
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let h = &env.h;
    let (_game, thread, who, land) = game_until_a_land(&env).await;
    // `/mtg play help`: what the player may say now, privately.
    let r = h
        .slash(
            who,
            thread,
            "mtg",
            "play",
            vec![opt("what", 3, json!("help"))],
            json!({}),
        )
        .await;
    assert!(ephemeral(&r), "{r}");
    assert!(text(&r).contains("You may say"), "{r}");
    assert!(text(&r).contains(&land), "the help lists `{land}`: {r}");
    let r = h
        .slash(MALLORY, thread, "mtg", "board", vec![], json!({}))
        .await;
    assert!(ephemeral(&r), "{r}");
    let t = text(&r);
    assert!(t.contains("**Game "), "the status: {t}");
    assert!(t.contains("battlefield:"), "the board in words: {t}");
    let r = h
        .slash(MALLORY, thread, "mtg", "log", vec![], json!({}))
        .await;
    assert!(ephemeral(&r), "{r}");
    let t = text(&r);
    assert!(t.contains("· log, lines 1-"), "{t}");
    assert!(
        t.to_lowercase().contains("keep"),
        "the mulligans are in the log: {t}"
    );
    // `lines:` shows fewer.
    let r = h
        .slash(
            MALLORY,
            thread,
            "mtg",
            "log",
            vec![opt("lines", 4, json!(1))],
            json!({}),
        )
        .await;
    assert_eq!(text(&r).lines().count(), 2, "{r}");

    // A board with cards in a graveyard and in exile: the spectator reads them.
    let board = r#"
name = "public zones"
[setup]
active = "alice"
priority = "bob"
step = "precombat_main"
turn = 3
[setup.alice]
hand = ["Forest"]
battlefield = ["Mountain"]
graveyard = ["Lightning Axe", "Ashcoat Bear"]
exile = ["Rift Bolt"]
library = ["Forest", "Forest"]
[setup.bob]
graveyard = ["Dark Withering"]
library = ["Forest", "Forest"]
"#;
    let (_g, thread) = scenario_game(&env, board).await;
    let r = h
        .slash(MALLORY, thread, "mtg", "board", vec![], json!({}))
        .await;
    let t = text(&r);
    for card in [
        "Lightning Axe",
        "Ashcoat Bear",
        "Rift Bolt",
        "Dark Withering",
    ] {
        assert!(t.contains(card), "{card} on the spectator's board: {t}");
    }
    assert!(!t.contains("Forest"), "no hand or library card: {t}");
    env.stop().await;
}

/// `/mtg challenge` from a direct message is refused (a game needs a server's thread) and
/// creates nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_from_a_direct_message_is_refused() {
    let env = start(&[], None, Duration::from_secs(3600)).await;
    env.fake.guild.store(0, Ordering::SeqCst);
    let r = env
        .h
        .slash(
            ALICE,
            env.fake.id(),
            "mtg",
            "challenge",
            vec![opt("opponent", 6, json!(BOB.to_string()))],
            json!({BOB.to_string(): env.h.user(BOB)}),
        )
        .await;
    env.fake.guild.store(GUILD, Ordering::SeqCst);
    assert!(text(&r).contains("server's channel"), "{r}");
    assert!(ephemeral(&r), "{r}");
    assert!(
        env.svc.db.game(1).await.expect("db").is_none(),
        "no game was created"
    );
    env.stop().await;
}

/// Bob's DMs are closed: the thread tells him once. Once he opens them, the next DM (his new
/// hand in his turn) goes through and the flag is gone: nothing more is said in the thread.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closed_dms_are_tried_again_and_the_flag_clears() {
    let env = start(&[BOB], None, Duration::from_secs(3600)).await;
    let (h, svc, fake) = (&env.h, &env.svc, &env.fake);
    let (g, thread) = scenario_game(&env, &main_phase_with(&["Forest"])).await;
    let note = format!("<@{BOB}>: I cannot send you your hand");
    let notes = |fake: &Fake| {
        posts_in(fake, thread, 0)
            .iter()
            .filter(|c| text(&c.json).contains(&note))
            .count()
    };
    // Alice plays and passes her turn away from the thread; Bob answers there too, his DMs
    // closed until his turn comes.
    let bob = svc
        .user(&format!("discord:{BOB}"), "Bob")
        .await
        .expect("user");
    let mut opened = false;
    for _ in 0..30 {
        let l = svc.load(g).await.expect("load");
        if l.game.result.is_some() || l.game.turn >= 5 {
            break;
        }
        if l.game.turn == 4 && !opened {
            fake.dm_closed.lock().unwrap().remove(&BOB);
            opened = true;
        }
        let Some(p) = l.game.pending().cloned() else {
            break;
        };
        let user = if l.seats[p.player.index()].user_id == bob {
            BOB
        } else {
            ALICE
        };
        let opts = spellstack::grammar::options(&l.game, p.player, false);
        let w = ["pass", "no attack", "no blocks", "default", "no"]
            .into_iter()
            .find(|w| opts.iter().any(|o| o == w))
            .map(str::to_string)
            .unwrap_or_else(|| opts[0].clone());
        let r = h
            .slash(
                user,
                thread,
                "mtg",
                "play",
                vec![opt("what", 3, json!(w))],
                json!({}),
            )
            .await;
        assert!(text(&r).contains("Done:"), "{r}");
        if opened && last_dm_of(fake, BOB, g).is_some() {
            break;
        }
    }
    assert!(opened, "Bob's turn came");
    assert!(
        last_dm_of(fake, BOB, g).is_some(),
        "a DM went through once Bob opened his DMs"
    );
    assert_eq!(notes(fake), 1, "the thread told Bob once");
    // Closed again: the next failure is told again (the flag was cleared).
    fake.dm_closed.lock().unwrap().insert(BOB);
    for _ in 0..30 {
        if notes(fake) > 1 {
            break;
        }
        let l = svc.load(g).await.expect("load");
        let Some(p) = l.game.pending().cloned() else {
            break;
        };
        if l.game.result.is_some() {
            break;
        }
        let user = if l.seats[p.player.index()].user_id == bob {
            BOB
        } else {
            ALICE
        };
        let opts = spellstack::grammar::options(&l.game, p.player, false);
        let w = ["pass", "no attack", "no blocks", "default", "no"]
            .into_iter()
            .find(|w| opts.iter().any(|o| o == w))
            .map(str::to_string)
            .unwrap_or_else(|| opts[0].clone());
        h.slash(
            user,
            thread,
            "mtg",
            "play",
            vec![opt("what", 3, json!(w))],
            json!({}),
        )
        .await;
    }
    assert!(notes(fake) >= 2, "told again after the DMs closed again");
    env.stop().await;
}

/// A league named `**x** @everyone` and a build named `` `b` <@1> ``: every reply writes
/// them plain (no bold broken open, no mention, no code span), and the names typed as they
/// were given still find them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn league_and_build_names_are_written_plain() {
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let h = &env.h;
    let name = "**x** @everyone";
    let create = vec![
        opt("name", 3, json!(name)),
        opt("product", 3, json!("6 TSP")),
    ];
    let r = h
        .slash(ALICE, CHANNEL, "league", "create", create, json!({}))
        .await;
    let mut replies = vec![r];
    replies.push(
        h.slash(
            BOB,
            CHANNEL,
            "league",
            "join",
            vec![opt("league", 3, json!(name))],
            json!({}),
        )
        .await,
    );
    assert!(text(&replies[1]).contains("You joined"), "{}", replies[1]);
    let build = "`b` <@1>";
    replies.push(
        h.slash(
            BOB,
            CHANNEL,
            "league",
            "deck",
            vec![
                opt("action", 3, json!("save")),
                opt("name", 3, json!(build)),
                opt("list", 3, json!("20 Forest; 20 Island")),
                opt("league", 3, json!(name)),
            ],
            json!({}),
        )
        .await,
    );
    assert!(text(&replies[2]).contains("saved"), "{}", replies[2]);
    replies.push(
        h.slash(
            BOB,
            CHANNEL,
            "league",
            "deck",
            vec![
                opt("action", 3, json!("use")),
                opt("name", 3, json!(build)),
                opt("league", 3, json!(name)),
            ],
            json!({}),
        )
        .await,
    );
    for r in &replies {
        let t = text(r);
        assert!(!t.contains("@everyone") && !t.contains("<@1>"), "{t}");
        assert!(!t.contains("**x**") && !t.contains("``b``"), "{t}");
    }
    assert!(
        text(&replies[0]).contains("x @\u{200b}everyone"),
        "{}",
        replies[0]
    );
    assert!(text(&replies[3]).contains("b @\u{200b}1"), "{}", replies[3]);
    env.stop().await;
}
