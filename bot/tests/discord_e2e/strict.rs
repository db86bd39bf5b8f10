//! Issue 16's audit gaps closed against the strict fake: the fake's own rules (each one
//! refused alone, the leak scan able to fail), a failed thread post for each of Discord's
//! codes, the random agent's challenger kept private, internal errors answered privately
//! (a slash command after a public defer, a click), long replies cut with a pointer, undo of
//! a draw refused, and a turn with a land and a creature played from the DM; then deck names
//! written plain, a challenge expiring, a target autocompleted and X past the first menu.

use super::*;
use engine::zones::ZoneKind::Battlefield;

/// What the fake answers `method path` with `json`: the status, Discord's code and the
/// lines of the form errors (200, 0 and none when it is accepted).
async fn answer_of(fake: &Fake, method: &str, path: &str, json: Value) -> (u16, u64, Vec<String>) {
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    let Some(r) = refusal(fake, method, &parts, &json, &[]) else {
        return (200, 0, Vec::new());
    };
    let status = r.status().as_u16();
    let body = axum::body::to_bytes(r.into_body(), usize::MAX)
        .await
        .expect("body");
    let v: Value = serde_json::from_slice(&body).expect("json body");
    let lines = v["errors"]["_errors"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|l| l.as_str().map(str::to_string))
        .collect();
    (status, v["code"].as_u64().unwrap_or(0), lines)
}

/// A message with one action row holding `c`.
fn row_of(c: Value) -> Value {
    json!({"content": "x", "components": [{"type": 1, "components": [c]}]})
}

/// A select menu with these options.
fn menu_of(options: Vec<Value>) -> Value {
    row_of(json!({"type": 3, "custom_id": "m", "options": options}))
}

/// `n` distinct menu options.
fn options(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| json!({"label": format!("o{i}"), "value": format!("v{i}")}))
        .collect()
}

/// `n` characters.
fn long(n: usize) -> String {
    "x".repeat(n)
}

/// A button.
fn button(id: &str, label: &str) -> Value {
    json!({"type": 2, "style": 1, "custom_id": id, "label": label})
}

/// `n` embed fields whose values have `value` characters.
fn fields(n: usize, value: usize) -> Vec<Value> {
    (0..n)
        .map(|i| json!({"name": format!("f{i}"), "value": long(value)}))
        .collect()
}

/// An autocomplete answer of `n` choices whose names have `name` characters.
fn choices(n: usize, name: usize) -> Value {
    let c: Vec<Value> = (0..n)
        .map(|i| json!({"name": format!("{i:0>name$}"), "value": format!("c{i}")}))
        .collect();
    json!({"type": 8, "data": {"choices": c}})
}

const POST: &str = "/channels/500/messages";
const CALLBACK: &str = "/interactions/1/tok/callback";

/// A payload the fake must refuse: what it breaks, method, path, JSON, and what the one
/// error line says.
type Case = (
    &'static str,
    &'static str,
    &'static str,
    Value,
    &'static str,
);

/// One payload per Discord rule, each breaking that rule only.
fn broken_payloads() -> Vec<Case> {
    let rows: Vec<Value> = (0..6)
        .map(|i| json!({"type": 1, "components": [button(&format!("b{i}"), "ok")]}))
        .collect();
    let mut dup = options(2);
    dup[1]["value"] = json!("v0");
    let mut long_label = options(2);
    long_label[0]["label"] = json!(long(101));
    let mut long_value = options(2);
    long_value[1]["value"] = json!(long(101));
    let embed = |e: Value| json!({"embeds": [e]});
    let mut one_long = choices(3, 5);
    one_long["data"]["choices"][0]["name"] = json!(long(101));
    let six: Vec<Value> = (0..6).map(|i| button(&format!("b{i}"), "ok")).collect();
    let six_in_a_row = json!({"type": 1, "components": six});
    vec![
        (
            "6 action rows",
            "POST",
            POST,
            json!({"content": "x", "components": rows}),
            "components: Must be 5 or fewer",
        ),
        (
            "a 101-character custom id",
            "POST",
            POST,
            row_of(button(&long(101), "ok")),
            "custom_id: Must be between 1 and 100",
        ),
        (
            "an 81-character button label",
            "POST",
            POST,
            row_of(button("b", &long(81))),
            "label: Must be 80 or fewer",
        ),
        (
            "26 menu options",
            "POST",
            POST,
            menu_of(options(26)),
            "options: Must be between 1 and 25",
        ),
        (
            "a duplicate option value",
            "POST",
            POST,
            menu_of(dup),
            "option values must be unique",
        ),
        (
            "a 101-character option label",
            "POST",
            POST,
            menu_of(long_label),
            "options.0.label: Must be 100 or fewer",
        ),
        (
            "a 101-character option value",
            "POST",
            POST,
            menu_of(long_value),
            "options.1.value: Must be 100 or fewer",
        ),
        (
            "26 autocomplete choices",
            "POST",
            CALLBACK,
            choices(26, 5),
            "data.choices: Must be 25 or fewer",
        ),
        (
            "a 101-character choice",
            "POST",
            CALLBACK,
            one_long,
            "data.choices.0.name: Must be between 1 and 100",
        ),
        (
            "a 4097-character embed description",
            "POST",
            POST,
            embed(json!({"description": long(4097)})),
            "description: Must be 4096 or fewer",
        ),
        (
            "26 embed fields",
            "POST",
            POST,
            embed(json!({"fields": fields(26, 1)})),
            "fields: Must be 25 or fewer",
        ),
        (
            "over 6000 characters of embed",
            "POST",
            POST,
            embed(json!({"description": long(4000), "fields": fields(3, 1000)})),
            "Embed size exceeds maximum size of 6000",
        ),
        (
            "a 101-character thread name",
            "POST",
            "/channels/500/threads",
            json!({"name": long(101)}),
            "name: Must be between 1 and 100",
        ),
        (
            "2001 characters of content (an edit)",
            "PATCH",
            "/channels/500/messages/7",
            json!({"content": long(2001)}),
            "content: Must be 2000 or fewer",
        ),
        (
            "six buttons in a row (an interaction's message)",
            "POST",
            CALLBACK,
            json!({"type": 4, "data": {"content": "x", "components": [six_in_a_row]}}),
            "components.0.components: Must be between 1 and 5",
        ),
    ]
}

/// Each of Discord's rules broken alone, in one payload: the fake answers 400 with code
/// 50035 ("Invalid Form Body") and exactly one error line naming the rule.
#[tokio::test]
async fn the_fake_refuses_each_broken_rule_with_one_error() {
    let fake = Fake::default();
    let cases = broken_payloads();
    let n = cases.len();
    for (what, method, path, json, says) in cases {
        let (status, code, lines) = answer_of(&fake, method, path, json).await;
        assert_eq!((status, code), (400, 50035), "{what}: {lines:?}");
        assert_eq!(lines.len(), 1, "{what}: exactly one error: {lines:?}");
        assert!(lines[0].contains(says), "{what}: {lines:?}");
    }
    // Every error was recorded (a test that did not expect 50035 fails on them).
    assert_eq!(fake.errors.lock().unwrap().len(), 15);
    // Every error was recorded (a test that did not expect 50035 fails on them).
    assert_eq!(fake.errors.lock().unwrap().len(), n);
}

/// Payloads at every limit are accepted: the checks do not refuse everything.
#[tokio::test]
async fn the_fake_accepts_payloads_at_the_limits() {
    let fake = Fake::default();
    let five: Vec<Value> = (0..5)
        .map(|i| button(&format!("{i}{}", long(99)), &long(80)))
        .collect();
    let full: Vec<Value> = (0..25)
        .map(|i| json!({"label": long(100), "value": format!("{i:0>100}")}))
        .collect();
    let at_limits = json!({
        "content": long(2000),
        "components": [
            {"type": 1, "components": five},
            {"type": 1, "components": [{"type": 3, "custom_id": "m", "options": full}]},
        ],
        "embeds": [{"description": long(4096), "fields": fields(1, 1000)}],
    });
    assert_eq!(answer_of(&fake, "POST", POST, at_limits).await.0, 200);
    let ok = choices(25, 100);
    assert_eq!(answer_of(&fake, "POST", CALLBACK, ok).await.0, 200);
    assert_eq!(
        answer_of(
            &fake,
            "POST",
            "/channels/500/threads",
            json!({"name": long(100)})
        )
        .await
        .0,
        200
    );
}

/// The leak scan can fail: a public post naming a card in a hand is recorded (and one
/// naming only public cards, or a longer word containing a hidden name, is not).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_leak_scan_records_a_hidden_card_named_in_public() {
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let fake = &env.fake;
    let (_g, thread) = scenario_game(&env, &main_phase_with(&["Ashcoat Bear"])).await;
    let path = format!("/channels/{thread}/messages");
    scan_public(fake, &path, &json!({"content": "Alice plays Mountain."})).await;
    scan_public(fake, &path, &json!({"content": "Ashcoat Bears everywhere"})).await;
    assert!(
        fake.leaks.lock().unwrap().is_empty(),
        "nothing hidden named"
    );
    scan_public(
        fake,
        &path,
        &json!({"content": "Alice holds", "components": [{"type": 1, "components": [
            {"type": 2, "custom_id": "x", "label": "Ashcoat Bear"}]}]}),
    )
    .await;
    let leaks = std::mem::take(&mut *fake.leaks.lock().unwrap());
    assert_eq!(leaks.len(), 1, "{leaks:?}");
    assert_eq!(leaks[0].0, "Ashcoat Bear");
    env.stop().await;
}

/// One failed thread post for each way Discord refuses it (50013 missing permission, 10003
/// the thread deleted, 50083 the thread archived): the player is told why, privately; the
/// status message is still edited and the new hand still goes by DM.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_thread_post_drops_nothing_else_for_each_code() {
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let (h, fake) = (&env.h, &env.fake);
    for (code, status, why) in [
        (50013, 403, "Missing Permissions"),
        (10003, 404, "Unknown Channel"),
        (50083, 400, "Thread is archived"),
    ] {
        let (game, thread, who, land) = game_until_a_land(&env).await;
        fake.fail_posts.lock().unwrap().insert(thread, code);
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
        assert!(
            text(&r).starts_with(&format!("Done: `{land}`"))
                && text(&r).contains("could not be updated")
                && text(&r).contains(why),
            "{code}: the player is told: {r}"
        );
        let after: Vec<Call> = fake.calls().into_iter().skip(from).collect();
        assert!(
            after.iter().any(|c| c.method == "POST"
                && c.path == format!("/channels/{thread}/messages")
                && c.status == status),
            "{code}: the thread post was tried and refused"
        );
        assert!(
            after.iter().any(|c| c.method == "PATCH"
                && c.path.starts_with(&format!("/channels/{thread}/messages/"))
                && c.status == 200
                && text(&c.json).contains(&format!("**Game {game}**"))),
            "{code}: the status message is still edited"
        );
        let dms: Vec<u64> = fake.dm_channels.lock().unwrap().keys().copied().collect();
        assert!(
            after.iter().any(|c| c.method == "POST"
                && c.status == 200
                && dms
                    .iter()
                    .any(|d| c.path == format!("/channels/{d}/messages"))
                && text(&c.json).contains(&format!("**Game {game}** · your hand ("))),
            "{code}: the new hand still goes by DM"
        );
        assert!(
            svc_has_played(&env, game, &land).await,
            "{code}: the move counted"
        );
    }
    env.stop().await;
}

/// Whether `land` (`play NAME`) is on a battlefield of `game`.
async fn svc_has_played(env: &Env, game: i64, land: &str) -> bool {
    let l = env.svc.load(game).await.expect("load");
    let card = land.trim_start_matches("play ").to_string();
    (0..2).any(|p| zone_names(&l.game, p, Battlefield).contains(&card))
}

/// Everything the bot made public since call `from`: thread and channel posts and edits,
/// and interaction answers Discord shows to all (their text and labels).
fn public_texts(fake: &Fake, from: usize) -> Vec<String> {
    let dms: HashSet<u64> = fake.dm_channels.lock().unwrap().keys().copied().collect();
    fake.calls()
        .into_iter()
        .skip(from)
        .filter(|c| c.status == 200)
        .filter_map(|c| {
            let parts: Vec<&str> = c.path.trim_matches('/').split('/').collect();
            let msg = match parts.as_slice() {
                ["channels", ch, "messages", ..] => {
                    let ch: u64 = ch.parse().unwrap_or(0);
                    (!dms.contains(&ch)).then_some(c.json.clone())
                }
                ["webhooks", _, _] if c.method == "POST" => {
                    (!ephemeral(&c.json)).then_some(c.json.clone())
                }
                ["webhooks", _, _, "messages", "@original"] if c.method == "PATCH" => {
                    Some(c.json.clone())
                }
                ["interactions", _, _, "callback"] if c.json["type"] == 4 => {
                    (!ephemeral(&c.json["data"])).then(|| c.json["data"].clone())
                }
                _ => None,
            }?;
            Some(readable(&msg))
        })
        .collect()
}

/// `/mtg challenge opponent:<the bot>`: a game against the random agent. The challenger's
/// hand and legal answers come in the ephemeral reply (and by DM), never in a public post;
/// answering from that reply is private too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenging_the_random_agent_keeps_the_hand_private() {
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let (h, fake) = (&env.h, &env.fake);
    let r = h
        .slash(
            ALICE,
            CHANNEL,
            "mtg",
            "challenge",
            vec![
                opt("opponent", 6, json!(APP.to_string())),
                opt("deck", 3, json!("green")),
            ],
            json!({APP.to_string(): user_json(APP, "Spellstack", true)}),
        )
        .await;
    assert!(ephemeral(&r), "the challenger's reply is private: {r}");
    let t = text(&r);
    assert!(t.contains("against the random agent"), "{t}");
    assert!(t.contains("your hand ("), "the hand in the reply: {t}");
    assert!(!custom_ids(&r).is_empty(), "the legal answers: {r}");
    let game: i64 = custom_ids(&r)[0]
        .split(':')
        .nth(2)
        .and_then(|g| g.parse().ok())
        .expect("game id");
    assert!(
        env.svc
            .load(game)
            .await
            .expect("load")
            .game
            .result
            .is_none(),
        "the game runs"
    );
    // Answering from the private reply stays private.
    let (id, value) = ["keep", "pass"]
        .into_iter()
        .find_map(|w| answer_in(&r, w))
        .unwrap_or_else(|| panic!("keep or pass offered: {r}"));
    let r2 = h.click(ALICE, CHANNEL, &id, value.map(|v| vec![v])).await;
    assert!(ephemeral(&r2), "{r2}");
    for t in public_texts(fake, 0) {
        assert!(
            !t.contains("your hand (") && !t.contains("You must") && !t.contains("You may say"),
            "private text in public: {t}"
        );
    }
    // The leak scan (hand and library names in public) runs in `stop`.
    env.stop().await;
}

/// An internal error after a public deferral (`/mtg challenge`, the database gone) is
/// answered privately: the deferred public message says only "Answered privately." and the
/// error follows ephemerally. A click that fails after its deferral is answered privately
/// too (it used to be only logged).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn internal_errors_are_answered_privately() {
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let (h, fake) = (&env.h, &env.fake);
    // Every query now fails: an internal error, not a refusal the service words.
    env.svc.db.close().await;
    let from = fake.calls().len();
    let r = h
        .slash(
            ALICE,
            CHANNEL,
            "mtg",
            "challenge",
            vec![opt("opponent", 6, json!(BOB.to_string()))],
            json!({BOB.to_string(): h.user(BOB)}),
        )
        .await;
    assert!(ephemeral(&r), "{r}");
    assert!(text(&r).starts_with("Something went wrong"), "{r}");
    for t in public_texts(fake, from) {
        assert!(
            !t.contains("Something went wrong"),
            "the error in public: {t}"
        );
    }
    // A click on a button for Alice: deferred (privately), then the database fails.
    let from = fake.calls().len();
    let id = spellstack::discord::components::Custom::Options {
        game: 1,
        version: 1,
        user: ALICE,
    }
    .encode();
    let r = h.click(ALICE, CHANNEL, &id, None).await;
    assert!(ephemeral(&r), "{r}");
    assert!(text(&r).starts_with("Something went wrong"), "{r}");
    let calls: Vec<Call> = fake.calls().into_iter().skip(from).collect();
    assert!(
        calls
            .iter()
            .any(|c| c.path.ends_with("/callback") && c.json["type"] == 5),
        "the click was deferred first"
    );
    assert!(
        !calls
            .iter()
            .any(|c| c.path.ends_with("/callback") && c.json["type"] == 4),
        "no second answer to a deferred click (Discord refuses it)"
    );
    for t in public_texts(fake, from) {
        assert!(
            !t.contains("Something went wrong"),
            "the error in public: {t}"
        );
    }
    env.stop().await;
}

/// `/deck show` of a deck whose list passes Discord's 2000 characters: the reply fits and
/// says where the rest is (the whole list, attached).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_deck_is_cut_with_a_pointer() {
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let (h, svc) = (&env.h, &env.svc);
    let names = many_names(200);
    let list: String = names.iter().map(|n| format!("1 {n}\n")).collect();
    assert!(list.chars().count() > 2100, "a long list: {}", list.len());
    let alice = svc
        .user(&format!("discord:{ALICE}"), "Alice")
        .await
        .expect("user");
    svc.import_deck(alice, "long", &list, spellstack::decks::Format::Constructed)
        .await
        .expect("a valid deck");
    let r = h
        .slash(
            ALICE,
            CHANNEL,
            "deck",
            "show",
            vec![opt("name", 3, json!("long"))],
            json!({}),
        )
        .await;
    let t = text(&r);
    assert!(ephemeral(&r), "{r}");
    assert!(t.chars().count() <= 2000, "{}", t.chars().count());
    assert!(t.starts_with("**long**"), "{t}");
    assert!(
        t.ends_with(spellstack::discord::delivery::MORE_DECK),
        "the pointer: {t}"
    );
    let call = env
        .fake
        .calls()
        .into_iter()
        .rev()
        .find(|c| c.method == "POST" && c.path.starts_with("/webhooks/"))
        .expect("the reply");
    let (name, bytes) = call.files.first().expect("the list attached");
    assert_eq!(name, "deck.txt");
    let attached = String::from_utf8_lossy(bytes);
    assert!(
        names.iter().all(|n| attached.contains(n.as_str())),
        "every card in the attachment"
    );
    env.stop().await;
}

/// Distinct card names (no basic land), as many as `n`: long lists for long messages.
fn many_names(n: usize) -> Vec<String> {
    engine::Catalog::builtin()
        .suggest("", 5000)
        .into_iter()
        .filter(|d| d.is_supported())
        .filter(|d| !d.supertypes.contains(&engine::cards::Supertype::Basic))
        .map(|d| d.name.clone())
        .take(n)
        .collect()
}

/// `/mtg board` of a board whose words pass Discord's limit (a graveyard of 150 different
/// cards): the reply fits, and its pointer sends to the image and the log, not to
/// `/mtg board` itself.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_board_points_to_the_image_and_the_log() {
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let graveyard: Vec<String> = many_names(150)
        .iter()
        .map(|n| serde_json::to_string(n).expect("quoted"))
        .collect();
    let board = format!(
        "name = \"long board\"\n[setup]\nactive = \"alice\"\nstep = \"precombat_main\"\nturn = 3\n\
         [setup.alice]\nlibrary = [\"Forest\"]\ngraveyard = [{}]\n[setup.bob]\nlibrary = [\"Forest\"]\n",
        graveyard.join(", ")
    );
    let (_g, thread) = scenario_game(&env, &board).await;
    let r = env
        .h
        .slash(MALLORY, thread, "mtg", "board", vec![], json!({}))
        .await;
    let t = text(&r);
    assert!(ephemeral(&r), "{r}");
    assert!(t.chars().count() <= 2000, "{}", t.chars().count());
    assert!(
        t.ends_with(spellstack::discord::delivery::MORE_BOARD),
        "the pointer: {t}"
    );
    assert!(!t.contains("`/mtg board`"), "not to itself: {t}");
    env.stop().await;
}

/// The first player's pass that made a card be drawn (the turn passed on): `/mtg undo` is
/// refused privately with the reason, and no consent button reaches the thread.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_right_after_a_draw_is_refused_privately() {
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let (h, svc, fake) = (&env.h, &env.svc, &env.fake);
    let (game, thread, _who, _land) = game_until_a_land(&env).await;
    let bob = svc
        .user(&format!("discord:{BOB}"), "Bob")
        .await
        .expect("user");
    let mut drew_by = None;
    for _ in 0..40 {
        let l = svc.load(game).await.expect("load");
        let p = l.game.pending().expect("pending").clone();
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
        play_done(h, user, thread, &w).await;
        let after = svc.load(game).await.expect("load");
        let drew = after
            .game
            .player_ids()
            .any(|q| after.game.player(q).library.len() < l.game.player(q).library.len());
        if drew {
            drew_by = Some(user);
            break;
        }
    }
    let user = drew_by.expect("a command that drew a card");
    let version = version_of(svc, game).await;
    let from = fake.calls().len();
    let r = h
        .slash(user, thread, "mtg", "undo", vec![], json!({}))
        .await;
    assert!(ephemeral(&r), "{r}");
    assert!(text(&r).contains("can't be taken back"), "the reason: {r}");
    assert!(
        text(&r).contains("drew a card") || text(&r).contains("library"),
        "{r}"
    );
    // Give a consent prompt time to show up, were one (wrongly) posted.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let consent: Vec<String> = posts_in(fake, thread, from)
        .iter()
        .flat_map(|c| custom_ids(&c.json))
        .filter(|i| i.contains("undo"))
        .collect();
    assert!(consent.is_empty(), "no consent button: {consent:?}");
    assert_eq!(version_of(svc, game).await, version, "nothing changed");
    env.stop().await;
}

/// A turn from the DM with a land and a creature in hand: the land is played, the creature
/// cast and the priority passed from the DM's components; the creature ends on the
/// battlefield and the thread followed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_land_and_a_creature_played_from_the_direct_message() {
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let (svc, fake) = (&env.svc, &env.fake);
    // Four lands and a second bear (flash): something to do after the first resolves, so
    // Alice is asked again (a player with nothing but `pass` to do is passed for).
    let board = r#"
name = "land and creature"
[setup]
active = "alice"
priority = "bob"
step = "precombat_main"
turn = 3
[setup.alice]
hand = ["Forest", "Ashcoat Bear", "Ashcoat Bear"]
battlefield = ["Mountain", "Forest", "Forest"]
library = ["Forest", "Forest", "Forest", "Forest"]
[setup.bob]
library = ["Forest", "Forest", "Forest"]
"#;
    let (g, thread) = scenario_game(&env, board).await;
    let alice = svc
        .user(&format!("discord:{ALICE}"), "Alice")
        .await
        .expect("user");
    // Alice stops at every step: the rest of her turn asks her, and she passes from the DM.
    let r = env
        .h
        .slash(
            ALICE,
            thread,
            "mtg",
            "settings",
            vec![opt("stops", 3, json!("all"))],
            json!({}),
        )
        .await;
    assert!(ephemeral(&r), "{r}");
    bob_passes(&env, thread).await;
    let from = fake.calls().len();
    let dm = last_dm_of(fake, ALICE, g).expect("the hand's DM with its actions");
    let mut r = dm_answer(&env, ALICE, &dm, "play Forest").await;
    assert!(text(&r).starts_with("Done: `play Forest`"), "{r}");
    let l = svc.load(g).await.expect("load");
    let cast = spellstack::grammar::options(&l.game, engine::PlayerId(0), false)
        .into_iter()
        .find(|o| o.starts_with("cast Ashcoat Bear"))
        .expect("the bear may be cast");
    r = dm_answer(&env, ALICE, &r, &cast).await;
    assert!(text(&r).starts_with("Done:"), "{r}");
    let turn = l.game.turn;
    let mut passes = 0;
    for _ in 0..80 {
        let l = svc.load(g).await.expect("load");
        if l.game.turn != turn || l.game.result.is_some() {
            break;
        }
        let p = l.game.pending().expect("pending").clone();
        let user = l.seats[p.player.index()].user_id;
        if user != alice {
            let opts = spellstack::grammar::options(&l.game, p.player, false);
            let w = ["pass", "no blocks", "default", "no"]
                .into_iter()
                .find(|w| opts.iter().any(|o| o == w))
                .map(str::to_string)
                .unwrap_or_else(|| opts[0].clone());
            svc.command(user, g, &w, Some(l.row.version))
                .await
                .expect("Bob answers");
            continue;
        }
        let phrase = ["pass", "no attack", "default", "no"]
            .into_iter()
            .find(|w| answer_in(&r, w).is_some());
        r = match phrase {
            Some(w) => {
                let next = dm_answer(&env, ALICE, &r, w).await;
                if text(&next).starts_with(&format!("Done: `{w}`")) {
                    passes += 1;
                }
                next
            }
            // No panel in the last reply: ask for the one of the moment, from the DM.
            None => {
                let ch = dm_channel_of(fake, ALICE);
                fake.guild.store(0, Ordering::SeqCst);
                let hand = env
                    .h
                    .slash(
                        ALICE,
                        ch,
                        "mtg",
                        "hand",
                        vec![opt("game", 4, json!(g))],
                        json!({}),
                    )
                    .await;
                fake.guild.store(GUILD, Ordering::SeqCst);
                hand
            }
        };
    }
    let l = svc.load(g).await.expect("load");
    assert!(
        zone_names(&l.game, 0, Battlefield).contains(&"Ashcoat Bear".to_string()),
        "the bear resolved: {:?}",
        zone_names(&l.game, 0, Battlefield)
    );
    assert!(passes >= 1, "passed from the DM");
    assert!(
        l.game.turn != turn || l.game.result.is_some(),
        "the turn was played out"
    );
    assert!(
        posts_in(fake, thread, from)
            .iter()
            .any(|c| text(&c.json).contains("Ashcoat Bear")),
        "the thread says the bear was cast"
    );
    env.stop().await;
}

/// A deck named `**x** @everyone`: every `/deck` reply writes the name plain (no bold
/// broken open, no `@everyone` that reads as a mention).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deck_names_are_written_plain() {
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let h = &env.h;
    let name = "**x** @everyone";
    let plain = "**x @\u{200b}everyone**";
    let list = spellstack::decks::READY[0].list.replace('\n', ";");
    let mut replies = vec![
        h.slash(
            ALICE,
            CHANNEL,
            "deck",
            "import",
            vec![opt("name", 3, json!(name)), opt("list", 3, json!(list))],
            json!({}),
        )
        .await,
    ];
    assert!(text(&replies[0]).contains("Saved deck"), "{}", replies[0]);
    replies.push(
        h.slash(ALICE, CHANNEL, "deck", "list", vec![], json!({}))
            .await,
    );
    for sub in ["show", "delete", "delete"] {
        replies.push(
            h.slash(
                ALICE,
                CHANNEL,
                "deck",
                sub,
                vec![opt("name", 3, json!(name))],
                json!({}),
            )
            .await,
        );
    }
    for r in &replies {
        let t = text(r);
        assert!(ephemeral(r), "{r}");
        assert!(t.contains(plain), "the name written plain: {t}");
        assert!(!t.contains("@everyone") && !t.contains("****"), "{t}");
    }
    assert!(text(&replies[4]).contains("no deck called"), "deleted once");
    env.stop().await;
}

/// A challenge nobody answers expires once `challenge_hours` have passed (a fixed clock
/// moved on, the scheduler's scan): the thread says so, and the opponent's **Accept** then
/// is refused privately, starting nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unanswered_challenge_expires() {
    let now = Arc::new(std::sync::atomic::AtomicI64::new(1_700_000_000));
    let env = start(
        &[],
        Some(Clock::Fixed(Arc::clone(&now))),
        Duration::from_millis(100),
    )
    .await;
    let (h, svc, fake) = (&env.h, &env.svc, &env.fake);
    let r = h
        .slash(
            ALICE,
            CHANNEL,
            "mtg",
            "challenge",
            vec![opt("opponent", 6, json!(BOB.to_string()))],
            json!({BOB.to_string(): h.user(BOB)}),
        )
        .await;
    let accept = custom_ids(&r)
        .into_iter()
        .find(|i| i.starts_with("ss:y:"))
        .expect("the Accept button");
    let game: i64 = accept
        .split(':')
        .nth(2)
        .and_then(|g| g.parse().ok())
        .expect("game id");
    let thread = svc
        .db
        .game(game)
        .await
        .expect("db")
        .expect("row")
        .thread_id
        .expect("thread") as u64;
    // Not yet: an hour before the limit nothing expires.
    let hours = i64::from(svc.cfg.deadlines.challenge_hours);
    now.fetch_add((hours - 1) * 3600, Ordering::SeqCst);
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(
        svc.db.game(game).await.expect("db").expect("row").status,
        "challenge"
    );
    now.fetch_add(2 * 3600, Ordering::SeqCst);
    h.wait("the expiry in the thread", |_| {
        posts_in(fake, thread, 0)
            .iter()
            .any(|c| text(&c.json).contains("expired"))
    })
    .await;
    assert_eq!(
        svc.db.game(game).await.expect("db").expect("row").status,
        "expired"
    );
    let r = h.click(BOB, CHANNEL, &accept, None).await;
    assert!(ephemeral(&r), "{r}");
    assert!(!text(&r).contains("You accepted"), "{r}");
    assert_eq!(
        svc.db.game(game).await.expect("db").expect("row").status,
        "expired",
        "nothing started"
    );
    env.stop().await;
}

/// `/mtg play` autocompletes a spell's target while it is typed: `cast Lightning Axe`
/// offers `cast Lightning Axe on ...` naming the creature it may hit, within Discord's
/// limits (the fake checks the choices).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_autocompletes_a_target() {
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let board = r#"
name = "a target"
[setup]
active = "alice"
priority = "bob"
step = "precombat_main"
turn = 3
[setup.alice]
hand = ["Lightning Axe", "Forest"]
battlefield = ["Mountain"]
library = ["Forest", "Forest"]
[setup.bob]
battlefield = ["Ashcoat Bear"]
library = ["Forest", "Forest"]
"#;
    let (_g, thread) = scenario_game(&env, board).await;
    bob_passes(&env, thread).await;
    let choices = env
        .h
        .autocomplete(ALICE, thread, "mtg", "play", "what", "cast Lightning Axe")
        .await;
    assert!(
        choices
            .iter()
            .any(|c| c.starts_with("cast Lightning Axe on ") && c.contains("Ashcoat Bear")),
        "a choice naming the target: {choices:?}"
    );
    let on = choices
        .iter()
        .find(|c| c.contains("Ashcoat Bear"))
        .expect("the bear")
        .clone();
    // The completed words are a command that is understood (it asks for the cost, or casts).
    let r = env
        .h
        .slash(
            ALICE,
            thread,
            "mtg",
            "play",
            vec![opt("what", 3, json!(on))],
            json!({}),
        )
        .await;
    assert!(ephemeral(&r), "{r}");
    assert!(
        text(&r).starts_with("Done:") || text(&r).contains("needs"),
        "{r}"
    );
    env.stop().await;
}

/// X past the first page: with 30 lands, `cast Squall Line` asks for X in two menus
/// (0-24, then 25-30) and X = 27, chosen in the second, is cast.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn x_past_the_first_menu_page() {
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let (h, svc) = (&env.h, &env.svc);
    let forests = vec!["\"Forest\""; 30].join(", ");
    let board = format!(
        "name = \"thirty lands\"\n[setup]\nactive = \"alice\"\npriority = \"bob\"\n\
         step = \"precombat_main\"\nturn = 3\n[setup.alice]\nlife = 100\n\
         hand = [\"Squall Line\"]\nbattlefield = [{forests}]\nlibrary = [\"Forest\"]\n\
         [setup.bob]\nlife = 100\nlibrary = [\"Forest\"]\n"
    );
    let (g, thread) = scenario_game(&env, &board).await;
    bob_passes(&env, thread).await;
    let r = h
        .slash(
            ALICE,
            thread,
            "mtg",
            "play",
            vec![opt("what", 3, json!("cast Squall Line"))],
            json!({}),
        )
        .await;
    assert!(ephemeral(&r), "{r}");
    let menus = menus_of(&r);
    assert_eq!(menus.len(), 2, "two pages of X: {r}");
    assert!(text(&r).contains("31 choices"), "{r}");
    let (second, values) = &menus[1];
    assert_eq!(values.first().map(String::as_str), Some("25"), "{values:?}");
    assert_eq!(values.last().map(String::as_str), Some("30"), "{values:?}");
    let r = h
        .click(ALICE, thread, second, Some(vec!["27".to_string()]))
        .await;
    assert!(
        text(&r).starts_with("Done:") && text(&r).contains("27"),
        "{r}"
    );
    // Nobody has anything else to do: it resolved, 27 damage to each player.
    let l = svc.load(g).await.expect("load");
    assert!(
        l.game.stack.is_empty() && l.game.players.iter().all(|p| p.life == 73),
        "Squall Line with X = 27: {:?}",
        l.game.players.iter().map(|p| p.life).collect::<Vec<_>>()
    );
    env.stop().await;
}

/// Lightning Axe with four Ashcoat Bears out (two of Alice's, one tapped; two of Bob's):
/// `/mtg play cast Lightning Axe` asks for the target in a menu whose choices say which bear:
/// whose and tapped where that tells them apart, else the count (`Ashcoat Bear 4 of 4
/// (Bob's)`); the one chosen is the one targeted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn same_named_targets_are_counted_in_the_menu() {
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let (h, svc) = (&env.h, &env.svc);
    let board = r#"
name = "four bears"
[setup]
active = "alice"
priority = "bob"
step = "precombat_main"
turn = 3
[setup.alice]
hand = ["Lightning Axe", "Forest"]
battlefield = ["Mountain", "Ashcoat Bear", { card = "Ashcoat Bear", tapped = true }]
library = ["Forest", "Forest"]
[setup.bob]
battlefield = ["Ashcoat Bear", "Ashcoat Bear"]
library = ["Forest", "Forest"]
"#;
    let (g, thread) = scenario_game(&env, board).await;
    bob_passes(&env, thread).await;
    let r = h
        .slash(
            ALICE,
            thread,
            "mtg",
            "play",
            vec![opt("what", 3, json!("cast Lightning Axe"))],
            json!({}),
        )
        .await;
    assert!(ephemeral(&r), "{r}");
    let menus = menus_of(&r);
    let (menu, values) = menus.first().expect("a target menu");
    let bears: Vec<&String> = values.iter().filter(|v| v.contains("Bear")).collect();
    assert_eq!(
        bears,
        vec![
            "Ashcoat Bear (yours)",
            "Ashcoat Bear (yours) (tapped)",
            "Ashcoat Bear 3 of 4 (Bob's)",
            "Ashcoat Bear 4 of 4 (Bob's)",
        ],
        "{r}"
    );
    let mut r = h
        .click(
            ALICE,
            thread,
            menu,
            Some(vec!["Ashcoat Bear 4 of 4 (Bob's)".into()]),
        )
        .await;
    // The additional cost (discard a card or pay more), if asked: the first choice.
    for _ in 0..3 {
        if text(&r).starts_with("Done:") {
            break;
        }
        let (id, v) = first_menu_value(&r).unwrap_or_else(|| panic!("a menu: {r}"));
        r = h.click(ALICE, thread, &id, Some(vec![v])).await;
    }
    assert!(
        text(&r).starts_with("Done:") && text(&r).contains("Ashcoat Bear 4 of 4 (Bob's)"),
        "{r}"
    );
    let l = svc.load(g).await.expect("load");
    let fourth = l
        .game
        .battlefield
        .iter()
        .copied()
        .filter(|id| l.game.card_name(*id) == "Ashcoat Bear")
        .nth(3);
    let axe = l.game.stack.last().map(|s| s.targets.clone());
    let graveyard = zone_names(&l.game, 1, engine::zones::ZoneKind::Graveyard);
    assert!(
        axe.is_some_and(|t| t
            .iter()
            .any(|t| Some(*t) == fourth.map(engine::Target::Object)))
            || (graveyard.contains(&"Ashcoat Bear".to_string())
                && zone_names(&l.game, 1, Battlefield).len() == 1),
        "the fourth bear is the Axe's target: {:?}",
        l.game.stack
    );
    env.stop().await;
}

/// A spell with its choices cast from the DM: the hand's DM offers `cast Lightning Axe`,
/// its target (Bob's second bear, by its count) and its additional cost come as menus in
/// the DM, the Axe goes on the stack at that bear, and the thread says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spell_with_a_target_cast_from_the_direct_message() {
    let env = start(&[], None, Duration::from_secs(3600)).await;
    let (svc, fake) = (&env.svc, &env.fake);
    let board = r#"
name = "axe from the DM"
[setup]
active = "alice"
priority = "bob"
step = "precombat_main"
turn = 3
[setup.alice]
hand = ["Lightning Axe", "Forest"]
battlefield = ["Mountain"]
library = ["Forest", "Forest"]
[setup.bob]
battlefield = ["Ashcoat Bear", "Ashcoat Bear", { card = "Ashcoat Bear", tapped = true }]
library = ["Forest", "Forest"]
"#;
    let (g, thread) = scenario_game(&env, board).await;
    let bears = |l: &spellstack::service::Loaded| -> Vec<engine::ObjectId> {
        l.game
            .battlefield
            .iter()
            .copied()
            .filter(|id| l.game.card_name(*id) == "Ashcoat Bear")
            .collect()
    };
    let before = bears(&svc.load(g).await.expect("load"));
    bob_passes(&env, thread).await;
    let from = fake.calls().len();
    let dm = last_dm_of(fake, ALICE, g).expect("the hand's DM with its actions");
    let mut r = dm_answer(&env, ALICE, &dm, "cast Lightning Axe").await;
    let menus = menus_of(&r);
    let (_, values) = menus
        .first()
        .unwrap_or_else(|| panic!("a target menu: {r}"));
    assert_eq!(
        values,
        &vec![
            "Ashcoat Bear 1 of 3".to_string(),
            "Ashcoat Bear 2 of 3".to_string(),
            "Ashcoat Bear (tapped)".to_string(),
        ],
        "{r}"
    );
    r = dm_answer(&env, ALICE, &r, "Ashcoat Bear 2 of 3").await;
    for _ in 0..3 {
        if text(&r).starts_with("Done:") {
            break;
        }
        let (id, v) = first_menu_value(&r).unwrap_or_else(|| panic!("a menu: {r}"));
        r = dm_click(&env, ALICE, &id, Some(vec![v])).await;
    }
    assert!(text(&r).starts_with("Done:"), "{r}");
    // On the stack at the second bear, or (nobody had more to do) resolved: that bear died.
    let l = svc.load(g).await.expect("load");
    match l.game.stack.last() {
        Some(axe) => {
            assert_eq!(l.game.catalog().get(axe.card).name, "Lightning Axe");
            assert_eq!(
                axe.targets.first().copied(),
                Some(engine::Target::Object(before[1])),
                "the second bear"
            );
        }
        None => assert_eq!(
            bears(&l),
            vec![before[0], before[2]],
            "the second bear died"
        ),
    }
    assert!(
        posts_in(fake, thread, from)
            .iter()
            .any(|c| text(&c.json).contains("Lightning Axe")),
        "the thread says the Axe was cast"
    );
    env.stop().await;
}
