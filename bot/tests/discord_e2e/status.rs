//! The status message's failures and one initial response per interaction, against the
//! strict fake: the status message deleted (10008 Unknown Message) is posted anew and edited
//! from then on; the thread deleted (10003) or archived (50083) refuses posts and edits
//! alike, and the player is told while the hand still goes by DM; a second initial response
//! to one interaction is refused with 40060, as Discord refuses it.

use super::*;

/// The id of the game's status message as last edited (the newest successful PATCH in the
/// thread whose content is the status of `game`).
fn status_id(fake: &Fake, thread: u64, game: i64) -> Option<u64> {
    let prefix = format!("/channels/{thread}/messages/");
    fake.calls()
        .into_iter()
        .rev()
        .filter(|c| c.method == "PATCH" && c.status == 200)
        .filter(|c| text(&c.json).starts_with(&format!("**Game {game}**")))
        .find_map(|c| c.path.strip_prefix(&prefix)?.parse().ok())
}

/// The calls made since call `from`.
fn since(fake: &Fake, from: usize) -> Vec<Call> {
    fake.calls().into_iter().skip(from).collect()
}

/// Whether one of `calls` is a DM (to any DM channel) carrying the hand of `game`.
fn hand_dm_in(fake: &Fake, calls: &[Call], game: i64) -> bool {
    let dms: Vec<u64> = fake.dm_channels.lock().unwrap().keys().copied().collect();
    calls.iter().any(|c| {
        c.method == "POST"
            && c.status == 200
            && dms
                .iter()
                .any(|d| c.path == format!("/channels/{d}/messages"))
            && text(&c.json).contains(&format!("**Game {game}** · your hand ("))
    })
}

/// A moderator deleted the status message: the next edit is answered 10008 Unknown Message,
/// so a new status message is posted in the thread (the move's post, the hand by DM and the
/// reply go out as usual) and the player is told; the next move edits the new one, and
/// says nothing of it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_status_message_is_posted_anew() {
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let (h, fake) = (&env.h, &env.fake);
    let (game, thread, who, land) = game_until_a_land(&env).await;
    let old = status_id(fake, thread, game).expect("the status message was edited");
    fake.deleted.lock().unwrap().insert(old);
    fake.expected.lock().unwrap().insert(10008);
    let from = fake.calls().len();
    let r = h
        .slash(
            who,
            thread,
            "mtg",
            "play",
            vec![opt("what", 3, json!(land))],
            json!({}),
        )
        .await;
    assert!(ephemeral(&r), "{r}");
    let t = text(&r);
    assert!(t.starts_with(&format!("Done: `{land}`")), "{t}");
    assert!(
        t.contains("status message could not be edited")
            && t.contains("Unknown Message")
            && t.contains("posted a new one"),
        "the player is told: {t}"
    );
    assert!(
        !t.contains("thread could not be updated"),
        "the post went: {t}"
    );
    let after = since(fake, from);
    assert!(
        after.iter().any(|c| c.method == "PATCH"
            && c.path == format!("/channels/{thread}/messages/{old}")
            && c.status == 404),
        "the edit was tried and refused"
    );
    let card = land.trim_start_matches("play ");
    let posts: Vec<&Call> = after
        .iter()
        .filter(|c| {
            c.method == "POST"
                && c.path == format!("/channels/{thread}/messages")
                && c.status == 200
        })
        .collect();
    assert!(
        posts.iter().any(|c| text(&c.json).contains(card)),
        "the move's post went out"
    );
    assert!(
        posts
            .iter()
            .any(|c| text(&c.json).starts_with(&format!("**Game {game}**"))),
        "a new status message was posted"
    );
    assert!(hand_dm_in(fake, &after, game), "the hand still goes by DM");

    // The next move (whoever's it is) edits the new status message, not the deleted one.
    let l = env.svc.load(game).await.expect("load");
    let p = l.game.pending().expect("pending").player;
    let alice = env
        .svc
        .user(&format!("discord:{ALICE}"), "Alice")
        .await
        .expect("user");
    let next = if l.seats[p.index()].user_id == alice {
        ALICE
    } else {
        BOB
    };
    let from = fake.calls().len();
    let r = h
        .slash(
            next,
            thread,
            "mtg",
            "play",
            vec![opt("what", 3, json!("pass"))],
            json!({}),
        )
        .await;
    assert!(text(&r).starts_with("Done: `pass`"), "{r}");
    assert!(!text(&r).contains("status message"), "nothing to tell: {r}");
    let new = status_id(fake, thread, game).expect("edited again");
    assert_ne!(new, old, "the new message is edited");
    assert!(
        since(fake, from)
            .iter()
            .all(|c| c.status == 200 || c.status == 204),
        "no request refused the second time"
    );
    env.stop().await;
}

/// The thread deleted (10003 Unknown Channel) or archived (50083): the move's post, the
/// status edit and the new status post are all refused; the move counts, the player is told
/// both failures in their reply, and the hand still goes by DM.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_or_archived_thread_drops_nothing_else() {
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let (h, svc, fake) = (&env.h, &env.svc, &env.fake);
    for (code, status, why) in [
        (10003, 404, "Unknown Channel"),
        (50083, 400, "Thread is archived"),
    ] {
        let (game, thread, who, land) = game_until_a_land(&env).await;
        fake.fail_edits.lock().unwrap().insert(thread, code);
        fake.expected.lock().unwrap().insert(code);
        let from = fake.calls().len();
        let r = h
            .slash(
                who,
                thread,
                "mtg",
                "play",
                vec![opt("what", 3, json!(land))],
                json!({}),
            )
            .await;
        assert!(ephemeral(&r), "{code}: {r}");
        let t = text(&r);
        assert!(t.starts_with(&format!("Done: `{land}`")), "{code}: {t}");
        assert!(
            t.contains("thread could not be updated")
                && t.contains("status message could not be updated")
                && t.matches(why).count() >= 2,
            "{code}: the player is told of both: {t}"
        );
        let after = since(fake, from);
        let refused = |method: &str, path: &str| {
            after
                .iter()
                .any(|c| c.method == method && c.path.starts_with(path) && c.status == status)
        };
        assert!(
            refused("PATCH", &format!("/channels/{thread}/messages/")),
            "{code}: the status edit was tried"
        );
        assert!(
            after
                .iter()
                .filter(|c| c.method == "POST"
                    && c.path == format!("/channels/{thread}/messages")
                    && c.status == status)
                .count()
                >= 2,
            "{code}: the move's post and a new status message were tried"
        );
        assert!(hand_dm_in(fake, &after, game), "{code}: the hand by DM");
        let l = svc.load(game).await.expect("load");
        let card = land.trim_start_matches("play ").to_string();
        assert!(
            (0..2).any(
                |p| zone_names(&l.game, p, engine::zones::ZoneKind::Battlefield).contains(&card)
            ),
            "{code}: the move counted"
        );
    }
    env.stop().await;
}

/// The fake refuses a second initial response to one interaction (a message after a
/// deferral, a second deferral, choices after a message) with 400 and code 40060, and
/// accepts the first of each interaction.
#[tokio::test]
async fn the_fake_refuses_a_second_initial_response() {
    let fake = Fake::default();
    let call = |id: &str, body: Value| {
        let path = format!("/interactions/{id}/tok{id}/callback");
        (path, body)
    };
    let defer = json!({"type": 5, "data": {"flags": 64}});
    let message = json!({"type": 4, "data": {"content": "hi"}});
    let choices = json!({"type": 8, "data": {"choices": []}});
    for (first, second) in [
        (defer.clone(), message.clone()),
        (defer.clone(), defer.clone()),
        (message.clone(), choices.clone()),
    ] {
        let id = fake.id().to_string();
        let (path, body) = call(&id, first);
        let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
        assert!(
            refusal(&fake, "POST", &parts, &body, &[]).is_none(),
            "{path}"
        );
        let r = refusal(&fake, "POST", &parts, &second, &[]).expect("refused");
        assert_eq!(r.status().as_u16(), 400);
        let body = axum::body::to_bytes(r.into_body(), usize::MAX)
            .await
            .expect("body");
        let v: Value = serde_json::from_slice(&body).expect("json");
        assert_eq!(v["code"], 40060, "{v}");
    }
    // A refused (malformed) first response acknowledged nothing: a good one then goes.
    let id = fake.id().to_string();
    let (path, _) = call(&id, Value::Null);
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    let bad = json!({"type": 4, "data": {"content": "x".repeat(2001)}});
    assert!(refusal(&fake, "POST", &parts, &bad, &[]).is_some());
    assert!(refusal(&fake, "POST", &parts, &message, &[]).is_none());
    let codes: Vec<u64> = fake.errors.lock().unwrap().iter().map(|e| e.2).collect();
    assert_eq!(codes, vec![40060, 40060, 40060, 50035], "{codes:?}");
}

/// The initial response of a click answered 429 (a game's button, a league's menu): the
/// deferral is sent again after the wait, once, and the click is answered as usual: no
/// second response (40060), no followup to an interaction never acknowledged (10015).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rate_limited_deferral_is_sent_again() {
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let (h, fake) = (&env.h, &env.fake);
    let (game, thread, who, _land) = game_until_a_land(&env).await;
    fake.expected.lock().unwrap().insert(429);
    let options = spellstack::discord::components::Custom::Options {
        game,
        version: version_of(&env.svc, game).await,
        user: who,
    }
    .encode();
    let deferrals = |fake: &Fake, from: usize| -> Vec<u16> {
        since(fake, from)
            .iter()
            .filter(|c| c.path.ends_with("/callback") && c.json["type"] == 5)
            .map(|c| c.status)
            .collect()
    };
    let from = fake.calls().len();
    fake.callbacks_429.store(1, Ordering::SeqCst);
    let r = h.click(who, thread, &options, None).await;
    assert!(ephemeral(&r), "{r}");
    assert!(text(&r).contains("your hand ("), "the panel: {r}");
    assert_eq!(deferrals(fake, from), vec![429, 200]);

    // A league's menu: the same.
    let create = vec![
        opt("name", 3, json!("Slow")),
        opt("product", 3, json!("6 TSP")),
    ];
    let r = h
        .slash(ALICE, CHANNEL, "league", "create", create, json!({}))
        .await;
    assert!(text(&r).contains("created"), "{r}");
    let r = h
        .slash(BOB, CHANNEL, "league", "join", vec![], json!({}))
        .await;
    let menu = ids_with(&r, "ssl:d:");
    assert_eq!(menu.len(), 1, "{r}");
    let from = fake.calls().len();
    fake.callbacks_429.store(1, Ordering::SeqCst);
    let r = h
        .click(BOB, CHANNEL, &menu[0], Some(vec!["auto".into()]))
        .await;
    assert!(ephemeral(&r) && text(&r).contains("You play `auto`"), "{r}");
    assert_eq!(deferrals(fake, from), vec![429, 200]);
    env.stop().await;
}
