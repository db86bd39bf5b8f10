//! Service tests on SQLite always and on PostgreSQL when `TEST_DATABASE_URL` is set.

use super::*;
use crate::storage::tests::test_dbs;

async fn services() -> (Vec<Service>, tempfile::TempDir) {
    let (dbs, dir) = test_dbs().await;
    let clock = Clock::Fixed(Arc::new(AtomicI64::new(1_000_000)));
    (
        dbs.into_iter()
            .map(|db| Service {
                db,
                cfg: Config::default(),
                clock: clock.clone(),
            })
            .collect(),
        dir,
    )
}

fn tag() -> String {
    use std::sync::atomic::AtomicU64;
    static N: AtomicU64 = AtomicU64::new(0);
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{t}-{}", N.fetch_add(1, Ordering::SeqCst))
}

/// Two humans, a started game: (game id, [alice, bob]).
async fn started(svc: &Service, a: &str, b: &str) -> (Id, [Id; 2]) {
    let t = tag();
    let alice = svc
        .user(&format!("alice-{t}"), "Alice")
        .await
        .expect("user");
    let bob = svc.user(&format!("bob-{t}"), "Bob").await.expect("user");
    let plan = svc
        .challenge(
            alice,
            &DeckChoice::Ready(a.into()),
            &[bob],
            None,
            Place {
                guild_id: Some(1),
                channel_id: Some(2),
                thread_id: Some(3),
            },
        )
        .await
        .expect("challenge");
    assert_eq!(plan.pings, vec![bob]);
    assert_eq!(plan.version, 0);
    let plan = svc
        .accept(bob, plan.game_id, &DeckChoice::Ready(b.into()))
        .await
        .expect("accept");
    assert!(plan.board.is_some());
    assert_eq!(plan.choices.len(), 1, "the player to decide gets choices");
    (plan.game_id, [alice, bob])
}

/// The pending human and a command a random agent would give, in words.
async fn next_move(svc: &Service, id: Id, users: [Id; 2], salt: u64) -> Option<(Id, String, i64)> {
    let l = svc.load(id).await.expect("load");
    if l.game.result.is_some() {
        return None;
    }
    let p = l.game.pending()?.player;
    let ans = agent_answer(&l.game, p, salt);
    Some((
        users[p.index()],
        grammar::describe(&l.game, p, &ans),
        l.row.version,
    ))
}

/// Plays up to `n` commands with agent choices typed as words; returns commands played.
async fn play_words(svc: &Service, id: Id, users: [Id; 2], n: usize) -> usize {
    let mut done = 0;
    for i in 0..n {
        let Some((u, text, v)) = next_move(svc, id, users, i as u64).await else {
            break;
        };
        match svc.command(u, id, &text, Some(v)).await {
            Ok(plan) => assert!(plan.version > v, "`{text}` moved the game on"),
            // A cast that cannot be completed from its name alone: cast nothing, pass.
            Err(ServiceError::Grammar(GrammarError::Needs { .. } | GrammarError::Refused(_))) => {
                svc.command(u, id, "pass", Some(v))
                    .await
                    .or_else(|_| Ok::<_, ServiceError>(Plan::default()))
                    .expect("pass");
            }
            Err(e) => panic!("`{text}`: {e}"),
        }
        done += 1;
    }
    done
}

#[tokio::test]
async fn challenge_accept_decline_and_play_with_words() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let (id, users) = started(svc, "red", "green").await;
        assert_eq!(
            svc.db.game(id).await.expect("row").expect("game").status,
            "active"
        );
        let played = play_words(svc, id, users, 120).await;
        assert!(played > 10);
        assert_eq!(
            svc.check_replay(id).await.expect("replay").map(|_| ()),
            Ok(()),
            "{}",
            svc.db.backend()
        );
        // Decline a fresh challenge; it cannot then be accepted.
        let t = tag();
        let c = svc.user(&format!("c-{t}"), "Cleo").await.expect("user");
        let d = svc.user(&format!("d-{t}"), "Dan").await.expect("user");
        let plan = svc
            .challenge(
                c,
                &DeckChoice::Ready("white".into()),
                &[d],
                Some(Ruleset::Classic),
                Place::default(),
            )
            .await
            .expect("challenge");
        assert!(matches!(
            svc.accept(c, plan.game_id, &DeckChoice::Ready("red".into()))
                .await,
            Err(ServiceError::Refused(_))
        ));
        svc.decline(d, plan.game_id).await.expect("decline");
        assert!(matches!(
            svc.accept(d, plan.game_id, &DeckChoice::Ready("red".into()))
                .await,
            Err(ServiceError::WrongStatus { .. })
        ));
        assert!(matches!(
            svc.challenge(
                c,
                &DeckChoice::Ready("nope".into()),
                &[d],
                None,
                Place::default()
            )
            .await,
            Err(ServiceError::Deck(_))
        ));
        assert!(matches!(
            svc.challenge(
                c,
                &DeckChoice::Ready("red".into()),
                &[c],
                None,
                Place::default()
            )
            .await,
            Err(ServiceError::Refused(_))
        ));
    }
}

#[tokio::test]
async fn wrong_player_spectator_malformed_and_stale_change_nothing() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let (id, users) = started(svc, "blue", "white").await;
        let before = svc.db.game(id).await.expect("row").expect("game");
        let n_actions = svc.actions(id).await.expect("log").len();
        let l = svc.load(id).await.expect("load");
        let p = l.game.pending().expect("pending").player;
        let (me, other) = (users[p.index()], users[1 - p.index()]);
        let spectator = svc
            .user(&format!("spec-{}", tag()), "Sam")
            .await
            .expect("user");
        let e = svc.command(other, id, "keep", None).await.unwrap_err();
        assert!(e.to_string().contains("not your decision"), "{e}");
        let e = svc.command(spectator, id, "keep", None).await.unwrap_err();
        assert!(matches!(e, ServiceError::NotAPlayer(_)), "{e}");
        let e = svc
            .command(me, id, "flibbertigibbet", None)
            .await
            .unwrap_err();
        assert!(e.to_string().contains("keep"), "{e}");
        let e = svc
            .command(me, id, "keep", Some(before.version - 1))
            .await
            .unwrap_err();
        match &e {
            ServiceError::Stale { plan, .. } => assert!(plan.board.is_some()),
            other => panic!("{other}"),
        }
        assert!(matches!(
            svc.command(me, -3, "keep", None).await,
            Err(ServiceError::NoGame(-3))
        ));
        let after = svc.db.game(id).await.expect("row").expect("game");
        assert_eq!(
            (after.version, after.snapshot.clone()),
            (before.version, before.snapshot.clone())
        );
        assert_eq!(svc.actions(id).await.expect("log").len(), n_actions);
        // Board / help / stops are private and change nothing.
        let plan = svc.command(other, id, "board", None).await.expect("board");
        assert!(
            plan.private_for(other)
                .iter()
                .any(|t| t.contains("Your hand"))
        );
        let plan = svc
            .command(other, id, "stop my upkeep", None)
            .await
            .expect("stops");
        assert!(plan.private_for(other)[0].contains("upkeep"));
        assert!(
            svc.settings(other)
                .await
                .expect("settings")
                .my_turn
                .contains(&"upkeep".to_string())
        );
        assert!(svc.command(other, id, "stop nonsense", None).await.is_err());
        assert_eq!(
            svc.db.game(id).await.expect("row").expect("game").version,
            before.version
        );
        // Spectators see the public board only.
        let board = svc.spectate(id).await.expect("spectate");
        assert!(!board.contains("Your hand"));
    }
}

#[tokio::test]
async fn racing_answers_exactly_one_applies() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let (id, users) = started(svc, "red", "green").await;
        for round in 0..6 {
            let Some((u, text, v)) = next_move(svc, id, users, round).await else {
                break;
            };
            let log = svc.actions(id).await.expect("log").len();
            let (s1, s2) = (svc.clone(), svc.clone());
            let (t1, t2) = (text.clone(), text.clone());
            let a = tokio::spawn(async move { s1.command(u, id, &t1, Some(v)).await });
            let b = tokio::spawn(async move { s2.command(u, id, &t2, Some(v)).await });
            let results = [a.await.expect("join"), b.await.expect("join")];
            let ok = results.iter().filter(|r| r.is_ok()).count();
            let stale = results
                .iter()
                .filter(|r| matches!(r, Err(ServiceError::Stale { .. })))
                .count();
            if ok == 0 {
                // Both were refused for the same reason (e.g. a cast needing a target).
                assert!(
                    results
                        .iter()
                        .all(|r| matches!(r, Err(ServiceError::Grammar(_)))),
                    "{results:?}"
                );
                svc.command(u, id, "pass", Some(v)).await.ok();
                continue;
            }
            assert_eq!(
                (ok, stale),
                (1, 1),
                "{}: exactly one of two racing answers applies: {results:?}",
                svc.db.backend()
            );
            let applied = results.iter().find_map(|r| r.as_ref().ok()).expect("ok");
            assert_eq!(
                svc.actions(id).await.expect("log").len() as i64,
                log as i64 + applied.version - v
            );
        }
        assert_eq!(
            svc.check_replay(id).await.expect("replay").map(|_| ()),
            Ok(())
        );
    }
}

#[tokio::test]
async fn corrupt_snapshot_is_rebuilt_from_the_log() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let (id, users) = started(svc, "red", "white").await;
        play_words(svc, id, users, 30).await;
        let good = svc.load(id).await.expect("load").game.state_hash();
        svc.db
            .corrupt_snapshot(id, "garbage {")
            .await
            .expect("corrupt");
        let l = svc.load(id).await.expect("rebuilt");
        let note = l.rebuilt.clone().expect("a rebuild note");
        assert!(note.contains("rebuilt from the action log"), "{note}");
        assert_eq!(l.game.state_hash(), good);
        assert!(
            svc.load(id).await.expect("load").rebuilt.is_none(),
            "the repaired snapshot is stored"
        );
        assert_eq!(
            svc.check_replay(id).await.expect("replay").map(|_| ()),
            Ok(())
        );
        // The command path reports the repair publicly.
        let (u, text, _) = next_move(svc, id, users, 99).await.expect("move");
        svc.db
            .corrupt_snapshot(id, "garbage {")
            .await
            .expect("corrupt");
        if let Ok(plan) = svc.command(u, id, &text, None).await {
            assert!(plan.public.iter().any(|l| l.contains("rebuilt")));
        }
    }
}

#[tokio::test]
async fn deadlines_remind_default_and_forfeit() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let (id, _users) = started(svc, "green", "black").await;
        let row = svc.db.game(id).await.expect("row").expect("game");
        let deadline = row.deadline.expect("a human decision has a deadline");
        assert_eq!(deadline, svc.now() + svc.cfg.decision_secs());
        // Before the reminder window: nothing.
        assert!(
            svc.tick()
                .await
                .expect("tick")
                .iter()
                .all(|p| p.game_id != id)
        );
        svc.clock
            .advance(svc.cfg.decision_secs() - svc.cfg.reminder_secs() + 1);
        let plans = svc.tick().await.expect("tick");
        let reminder = plans.iter().find(|p| p.game_id == id).expect("reminder");
        assert!(
            reminder.public[0].starts_with("Reminder"),
            "{:?}",
            reminder.public
        );
        assert_eq!(reminder.pings.len(), 1);
        assert!(
            svc.tick()
                .await
                .expect("tick")
                .iter()
                .all(|p| p.game_id != id),
            "one reminder only"
        );
        // Expiry: a default answer (keep) for the waiting player, and the log says so.
        let mut forfeited = false;
        for _ in 0..10 {
            svc.clock.advance(svc.cfg.decision_secs() + 1);
            let plans = svc.tick().await.expect("tick");
            let Some(plan) = plans.iter().find(|p| p.game_id == id) else {
                break;
            };
            if plan.finished {
                assert!(
                    plan.public.iter().any(|l| l.contains("forfeits")),
                    "{:?}",
                    plan.public
                );
                forfeited = true;
                break;
            }
            assert!(
                plan.public[0].contains("ran out of time"),
                "{:?}",
                plan.public
            );
        }
        assert!(forfeited, "repeated expiries forfeit the game");
        let log = svc.actions(id).await.expect("log");
        assert!(log.iter().any(|a| a.kind == "timeout"));
        assert_eq!(
            svc.db.game(id).await.expect("row").expect("game").status,
            "finished"
        );
        assert_eq!(
            svc.check_replay(id).await.expect("replay").map(|_| ()),
            Ok(())
        );
    }
}

#[tokio::test]
async fn undo_needs_the_opponents_consent() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let (id, users) = started(svc, "red", "green").await;
        // Play until someone has just made a command of their own, then ask to undo it.
        let mut undone = false;
        for i in 0..200u64 {
            let Some((u, text, v)) = next_move(svc, id, users, i).await else {
                break;
            };
            let before_hash = svc.load(id).await.expect("load").game.state_hash();
            let Ok(plan) = svc.command(u, id, &text, Some(v)).await else {
                svc.command(u, id, "pass", Some(v)).await.ok();
                continue;
            };
            let other = if u == users[0] { users[1] } else { users[0] };
            let l = svc.load(id).await.expect("load");
            if l.game.result.is_some() || text == "pass" {
                continue;
            }
            // The opponent cannot ask to undo someone else's command.
            assert!(svc.command(other, id, "undo", None).await.is_err());
            match svc.command(u, id, "undo", None).await {
                Err(ServiceError::Refused(m)) if m.contains("can't be taken back") => continue,
                r => {
                    r.expect("request");
                }
            }
            assert!(
                svc.command(u, id, "allow undo", None).await.is_err(),
                "no self-consent"
            );
            let refused = svc
                .command(other, id, "deny undo", None)
                .await
                .expect("deny");
            assert!(refused.public.iter().any(|l| l.contains("refused")));
            svc.command(u, id, "undo", None)
                .await
                .expect("request again");
            let after = svc
                .command(other, id, "allow undo", None)
                .await
                .expect("allow");
            assert!(after.version > plan.version);
            let back = svc.load(id).await.expect("load").game;
            let seat = PlayerId(if u == users[0] { 0 } else { 1 });
            assert_eq!(
                back.pending().map(|p| p.player),
                Some(seat),
                "the undoing player decides again"
            );
            assert_eq!(
                back.state_hash(),
                before_hash,
                "the state is the one before the command"
            );
            assert!(
                svc.actions(id)
                    .await
                    .expect("log")
                    .iter()
                    .any(|a| a.kind == "undo")
            );
            assert_eq!(
                svc.check_replay(id).await.expect("replay").map(|_| ()),
                Ok(())
            );
            assert!(
                svc.command(other, id, "allow undo", None).await.is_err(),
                "nothing left to allow"
            );
            undone = true;
            break;
        }
        assert!(undone, "found a command to undo");
    }
}

#[tokio::test]
async fn against_the_agent_and_pass_until_end_of_turn() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let me = svc
            .user(&format!("me-{}", tag()), "Me")
            .await
            .expect("user");
        let agent = svc.user(AGENT_ID, "Random Agent").await.expect("agent");
        let plan = svc
            .challenge(
                me,
                &DeckChoice::Ready("blue".into()),
                &[agent],
                None,
                Place::default(),
            )
            .await
            .expect("challenge");
        let id = plan.game_id;
        assert_eq!(
            svc.db.game(id).await.expect("row").expect("g").status,
            "active",
            "agents accept at once"
        );
        for i in 0..300u64 {
            let l = svc.load(id).await.expect("load");
            if l.game.result.is_some() {
                break;
            }
            let p = l.game.pending().expect("pending").player;
            assert_eq!(
                l.seats[p.index()].user_id,
                me,
                "the agent never keeps the game waiting"
            );
            let text = if i % 7 == 3 {
                "pass turn".to_string()
            } else {
                grammar::describe(&l.game, p, &agent_answer(&l.game, p, i))
            };
            if svc.command(me, id, &text, None).await.is_err() {
                svc.command(me, id, "pass", None).await.ok();
            }
        }
        let log = svc.actions(id).await.expect("log");
        assert!(log.iter().any(|a| a.kind == "agent"));
        assert!(log.iter().any(|a| a.kind == "auto"));
        assert_eq!(
            svc.check_replay(id).await.expect("replay").map(|_| ()),
            Ok(())
        );
        let plan = svc.command(me, id, "concede", None).await;
        if let Ok(plan) = plan {
            assert!(plan.finished);
        }
    }
}

#[tokio::test]
async fn imported_and_saved_decks() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let u = svc
            .user(&format!("deck-{}", tag()), "Dee")
            .await
            .expect("user");
        let e = svc
            .import_deck(u, "tiny", "10 Forest", Format::Constructed)
            .await
            .unwrap_err();
        assert!(e.to_string().contains("at least 60"), "{e}");
        let e = svc
            .import_deck(
                u,
                "typo",
                "4 Lightning Ax\n56 Mountain",
                Format::Constructed,
            )
            .await
            .unwrap_err();
        assert!(e.to_string().contains("Lightning Axe"), "{e}");
        assert!(
            svc.db.decks_of(u).await.expect("decks").is_empty(),
            "nothing saved"
        );
        svc.import_deck(
            u,
            "Mono Red",
            "4 Lightning Axe\n56 Mountain\nSideboard\n4 Brute Force",
            Format::Constructed,
        )
        .await
        .expect("import");
        let v = svc
            .user(&format!("deck2-{}", tag()), "Vee")
            .await
            .expect("user");
        let plan = svc
            .challenge(
                u,
                &DeckChoice::Saved("Mono Red".into()),
                &[v],
                None,
                Place::default(),
            )
            .await
            .expect("challenge");
        let list = DeckChoice::List {
            name: "pasted".into(),
            text: "40 Island".into(),
            format: Format::Limited,
        };
        svc.accept(v, plan.game_id, &list)
            .await
            .expect("accept with a pasted limited list");
        assert!(matches!(
            svc.challenge(
                u,
                &DeckChoice::Saved("nope".into()),
                &[v],
                None,
                Place::default()
            )
            .await,
            Err(ServiceError::Deck(_))
        ));
    }
}

#[test]
fn stops_settings_words() {
    let mut s = Settings::default();
    assert!(s.stops_at(true, Step::PrecombatMain));
    assert!(!s.stops_at(false, Step::Upkeep));
    s.apply("their upkeep").expect("toggle");
    assert!(s.stops_at(false, Step::Upkeep) && !s.stops_at(true, Step::Upkeep));
    s.apply("none").expect("none");
    assert!(!s.stops_at(true, Step::PrecombatMain));
    s.apply("default").expect("default");
    assert_eq!(s, Settings::default());
    assert!(s.apply("my").is_err());
    assert!(s.apply("teatime").is_err());
}

#[tokio::test]
async fn replay_equals_snapshot_across_full_games() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let agent = svc.user(AGENT_ID, "Random Agent").await.expect("agent");
        let mut finished = 0;
        for g in 0..6u64 {
            let me = svc
                .user(&format!("full-{}", tag()), "Me")
                .await
                .expect("user");
            let deck = decks::READY[g as usize % decks::READY.len()].key;
            let id = svc
                .challenge(
                    me,
                    &DeckChoice::Ready(deck.into()),
                    &[agent],
                    None,
                    Place::default(),
                )
                .await
                .expect("challenge")
                .game_id;
            for i in 0..2000u64 {
                let l = svc.load(id).await.expect("load");
                if l.game.result.is_some() {
                    finished += 1;
                    break;
                }
                let p = l.game.pending().expect("pending").player;
                let text = grammar::describe(&l.game, p, &agent_answer(&l.game, p, i));
                if svc
                    .command(me, id, &text, Some(l.row.version))
                    .await
                    .is_err()
                {
                    svc.command(me, id, "pass", Some(l.row.version))
                        .await
                        .expect("pass is always possible at priority");
                }
            }
            assert_eq!(
                svc.check_replay(id).await.expect("replay").map(|_| ()),
                Ok(()),
                "{} game {g}",
                svc.db.backend()
            );
        }
        assert!(
            finished >= 3,
            "{}: {finished} of 6 games finished",
            svc.db.backend()
        );
    }
}

#[tokio::test]
async fn an_answer_cut_off_midway_loses_nothing() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let (id, users) = started(svc, "white", "black").await;
        for i in 0..30u64 {
            let Some((u, text, v)) = next_move(svc, id, users, i).await else {
                break;
            };
            let s = svc.clone();
            let task = tokio::spawn(async move { s.command(u, id, &text, Some(v)).await });
            // Cut the command off at a different point each time (like a killed process).
            tokio::time::sleep(std::time::Duration::from_micros(150 * (i % 12))).await;
            task.abort();
            let _ = task.await;
            // The aborted command's transaction may still be finishing on the server (its
            // COMMIT was sent before the abort): read the row and the log until no commit
            // lands in between, then they must agree.
            let (row, log) = {
                let mut tries = 0;
                loop {
                    let before = svc.db.game(id).await.expect("row").expect("game");
                    let log = svc.actions(id).await.expect("log");
                    let after = svc.db.game(id).await.expect("row").expect("game");
                    tries += 1;
                    if before.version == after.version || tries > 50 {
                        break (after, log);
                    }
                    tokio::time::sleep(std::time::Duration::from_millis(10)).await;
                }
            };
            assert_eq!(
                log.last().map_or(1, |a| a.seq),
                row.version,
                "{}: the log and the version agree",
                svc.db.backend()
            );
            if row.version == v {
                // Not applied: the game is exactly as before and answers again.
                let (u, text, v2) = next_move(svc, id, users, i).await.expect("move");
                assert_eq!(v2, v);
                if svc.command(u, id, &text, Some(v)).await.is_err() {
                    svc.command(u, id, "pass", Some(v)).await.ok();
                }
            }
        }
        assert_eq!(
            svc.check_replay(id).await.expect("replay").map(|_| ()),
            Ok(())
        );
    }
}

#[tokio::test]
async fn three_player_undo_needs_every_opponent() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let t = tag();
        let mut users = Vec::new();
        for n in ["Ann", "Ben", "Cat"] {
            users.push(svc.user(&format!("{n}-{t}"), n).await.expect("user"));
        }
        let plan = svc
            .challenge(
                users[0],
                &DeckChoice::Ready("red".into()),
                &users[1..],
                None,
                Place::default(),
            )
            .await
            .expect("challenge");
        let id = plan.game_id;
        assert_eq!(plan.pings, users[1..].to_vec());
        svc.accept(users[1], id, &DeckChoice::Ready("green".into()))
            .await
            .expect("accept");
        assert_eq!(
            svc.db.game(id).await.expect("row").expect("g").status,
            "challenge",
            "waits for everyone"
        );
        svc.accept(users[2], id, &DeckChoice::Ready("white".into()))
            .await
            .expect("accept");
        let mut done = false;
        for i in 0..300u64 {
            let l = svc.load(id).await.expect("load");
            if l.game.result.is_some() {
                break;
            }
            let p = l.game.pending().expect("pending").player;
            let u = users[p.index()];
            let text = grammar::describe(&l.game, p, &agent_answer(&l.game, p, i));
            if svc
                .command(u, id, &text, Some(l.row.version))
                .await
                .is_err()
            {
                svc.command(u, id, "pass", Some(l.row.version)).await.ok();
                continue;
            }
            if text == "pass" || svc.load(id).await.expect("load").game.result.is_some() {
                continue;
            }
            let before = l.game.state_hash();
            let others: Vec<Id> = users.iter().copied().filter(|x| *x != u).collect();
            match svc.command(u, id, "undo", None).await {
                Err(ServiceError::Refused(m)) if m.contains("can't be taken back") => continue,
                r => {
                    r.expect("request");
                }
            }
            let first = svc
                .command(others[0], id, "allow undo", None)
                .await
                .expect("first consent");
            assert!(
                first.public.iter().any(|l| l.contains("waiting for")),
                "{:?}",
                first.public
            );
            assert!(
                svc.command(others[0], id, "allow undo", None).await.is_ok(),
                "consenting twice is harmless"
            );
            svc.command(others[1], id, "allow undo", None)
                .await
                .expect("second consent");
            assert_eq!(
                svc.load(id).await.expect("load").game.state_hash(),
                before,
                "taken back"
            );
            assert_eq!(
                svc.check_replay(id).await.expect("replay").map(|_| ()),
                Ok(())
            );
            done = true;
            break;
        }
        assert!(done, "found a command to undo");
    }
}

/// A timed-out player's answer is posted for everyone: a face-down card of theirs is named
/// as the others see it (the morph leak noticed in session 3).
#[test]
fn timeout_message_hides_face_down_cards() {
    let game = engine::scenario::board(
        r#"
[setup.alice]
battlefield = ["Island", "Island", "Island", "Island", "Island", "Island", "Island", { card = "Brine Elemental", face_down = true }]
"#,
    )
    .expect("board");
    let alice = game.active;
    let face_down = game
        .battlefield
        .iter()
        .copied()
        .find(|id| game.obj(*id).is_some_and(|o| o.face_down))
        .expect("a face-down creature");
    let answer = Answer::TurnFaceUp(face_down);
    assert!(game.legal_answers(alice).contains(&answer));
    let own = grammar::describe(&game, alice, &answer);
    assert!(own.contains("Brine Elemental"), "{own}");
    let public = timeout_message(&game, alice, &answer);
    assert!(!public.contains("Brine Elemental"), "{public}");
    assert!(public.contains("face-down creature 1"), "{public}");
}

/// A started game whose state is a scenario board (`engine::scenario`): Alice and Bob are
/// both humans. Its stored setup is a placeholder, so nothing here may replay the log
/// (undo, `recent_lines`); every other path loads the snapshot.
async fn scenario_game(svc: &Service, src: &str) -> (Id, [Id; 2]) {
    let game = engine::scenario::game_from_str(src).expect("scenario runs");
    let t = tag();
    let alice = svc
        .user(&format!("alice-{t}"), "alice")
        .await
        .expect("user");
    let bob = svc.user(&format!("bob-{t}"), "bob").await.expect("user");
    let deck = Service::seat_deck_json(&decks::ready("red").expect("red").deck().expect("deck"));
    let seats: Vec<NewSeat> = [alice, bob]
        .iter()
        .map(|u| NewSeat {
            user_id: *u,
            deck: Some(deck.clone()),
            accepted: true,
            is_agent: false,
        })
        .collect();
    let id = svc
        .db
        .create_game(
            &NewGame {
                status: "challenge".into(),
                ruleset: game.ruleset.name().into(),
                seed: game.seed,
                created_by: alice,
                guild_id: None,
                channel_id: None,
                thread_id: None,
                now: svc.now(),
            },
            &seats,
        )
        .await
        .expect("create");
    let setup = StoredSetup {
        ruleset: game.ruleset,
        seed: game.seed,
        starting_life: 20,
        first_player: None,
        players: Vec::new(),
    };
    svc.db
        .start_game(
            id,
            &serde_json::to_string(&setup).expect("setup"),
            &game.to_json().expect("json"),
            None,
            svc.now(),
        )
        .await
        .expect("start");
    (id, [alice, bob])
}

fn pending_of(l: &Loaded) -> Option<(PlayerId, Step, &'static str)> {
    l.game
        .pending()
        .map(|p| (p.player, l.game.step, p.decision.kind_name()))
}

/// Alice in her main phase with an untapped Scarwood Treefolk; Bob has nothing to do.
const ALICE_ATTACKS: &str = r#"
name = "to combat"
[setup]
active = "alice"
step = "precombat_main"
turn = 3
[setup.alice]
library = ["Forest"]
battlefield = ["Scarwood Treefolk", "Forest"]
[setup.bob]
library = ["Forest", "Forest"]
"#;

#[tokio::test]
async fn attack_with_x_in_the_main_phase_goes_to_combat() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let (id, [alice, bob]) = scenario_game(svc, ALICE_ATTACKS).await;
        let plan = svc
            .command(alice, id, "attack with my treefolk", None)
            .await
            .expect("attack");
        let told = plan.told_to(alice).join("\n");
        assert!(
            told.contains("You attack Bob with Scarwood Treefolk.\nYour Scarwood Treefolk deals 3 combat damage to Bob.\nBob's life: 20 → 17."),
            "{told}"
        );
        let theirs = plan.told_to(bob).join("\n");
        assert!(
            theirs.contains("Alice attacks you with Scarwood Treefolk.\nAlice's Scarwood Treefolk deals 3 combat damage to you.\nYour life: 20 → 17."),
            "{theirs}"
        );
        // Bob waited while several things happened: a summary for him, none for Alice.
        assert_eq!(
            plan.waited_for(bob),
            Some("While you waited: Alice attacked you with Scarwood Treefolk; your life 20 → 17.")
        );
        assert_eq!(plan.waited_for(alice), None);
        let l = svc.load(id).await.expect("load");
        assert_eq!(l.game.player(PlayerId(1)).life, 17, "{told}");
        // `go to combat` alone stops at the declaration of attackers.
        let (id, [alice, _]) = scenario_game(svc, ALICE_ATTACKS).await;
        svc.command(alice, id, "go to combat", None)
            .await
            .expect("to combat");
        let l = svc.load(id).await.expect("load");
        assert_eq!(
            pending_of(&l),
            Some((PlayerId(0), Step::DeclareAttackers, "attackers"))
        );
        // A creature that is not there moves nothing.
        let (id, [alice, _]) = scenario_game(svc, ALICE_ATTACKS).await;
        let e = svc
            .command(alice, id, "attack with Havenwood Wurm", None)
            .await
            .unwrap_err();
        assert!(
            e.to_string().contains("no untapped creature of yours"),
            "{e}"
        );
        let l = svc.load(id).await.expect("load");
        assert_eq!(l.game.step, Step::PrecombatMain);
    }
}

/// Alice holds Ashcoat Bear (flash) with the mana for it: smart stops give her priority in
/// her own combat after attackers and after blockers; in Bob's turn, at his end step.
#[tokio::test]
async fn smart_stops_in_combat_and_at_their_end_step() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let src = ALICE_ATTACKS.replace(
            "battlefield = [\"Scarwood Treefolk\", \"Forest\"]",
            "hand = [\"Ashcoat Bear\"]\nbattlefield = [\"Scarwood Treefolk\", \"Forest\", \"Forest\"]",
        );
        let (id, [alice, _]) = scenario_game(svc, &src).await;
        svc.command(alice, id, "attack with treefolk", None)
            .await
            .expect("attack");
        let l = svc.load(id).await.expect("load");
        assert_eq!(
            pending_of(&l),
            Some((PlayerId(0), Step::DeclareAttackers, "priority"))
        );
        svc.command(alice, id, "pass", None).await.expect("pass");
        let l = svc.load(id).await.expect("load");
        assert_eq!(
            pending_of(&l),
            Some((PlayerId(0), Step::DeclareBlockers, "priority"))
        );
        // Bob's turn: Alice stops at his end step (she could cast the Bear).
        let theirs = r#"
name = "their end"
[setup]
active = "bob"
step = "postcombat_main"
turn = 4
[setup.alice]
hand = ["Ashcoat Bear"]
library = ["Forest"]
battlefield = ["Forest", "Forest"]
[setup.bob]
library = ["Forest"]
"#;
        let (id, [_, bob]) = scenario_game(svc, theirs).await;
        svc.command(bob, id, "pass", None).await.expect("pass");
        let l = svc.load(id).await.expect("load");
        assert_eq!(pending_of(&l), Some((PlayerId(0), Step::End, "priority")));
        // Without the mana, no stop: the game goes on to Alice's own turn.
        let broke = theirs.replace("battlefield = [\"Forest\", \"Forest\"]", "");
        let (id, [_, bob]) = scenario_game(svc, &broke).await;
        svc.command(bob, id, "pass", None).await.expect("pass");
        let l = svc.load(id).await.expect("load");
        assert_eq!(l.game.active, PlayerId(0), "passed on to Alice's turn");
    }
}

#[tokio::test]
async fn stops_are_listed_and_changed_in_words() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let (id, [alice, _]) = scenario_game(svc, ALICE_ATTACKS).await;
        let say = |w: &'static str| async move {
            svc.command(alice, id, w, None)
                .await
                .map(|p| p.private_for(alice).join("\n"))
        };
        let list = say("stops").await.expect("stops");
        assert!(
            list.contains("Your turn: precombat main phase, declare attackers step, declare blockers step, postcombat main phase."),
            "{list}"
        );
        assert!(
            list.contains("Their turn: declare attackers step, end step."),
            "{list}"
        );
        let m = say("unstop my declare blockers").await.expect("unstop");
        assert_eq!(m, "stops changed: -your declare blockers step");
        let m = say("stop their end step").await.expect("stop");
        assert_eq!(m, "stops changed: their end step (already)");
        let m = say("stop my upkeep and their draw step")
            .await
            .expect("stop");
        assert_eq!(m, "stops changed: +your upkeep, +their draw step");
        let list = say("stops").await.expect("stops");
        assert!(
            list.contains("Your turn: upkeep, precombat main phase, declare attackers step, postcombat main phase."),
            "{list}"
        );
        let e = say("stop my sometimes").await.unwrap_err().to_string();
        assert!(e.contains("`sometimes` is not a step I know"), "{e}");
        let help = say("help stop").await.expect("help");
        assert!(
            help.contains("declare blockers") && help.contains("unstop"),
            "{help}"
        );
        assert_eq!(
            say("stop default")
                .await
                .map(|m| m.starts_with("stops reset"))
                .ok(),
            Some(true)
        );
    }
}

#[tokio::test]
async fn concede_asks_and_card_shows_rulings() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let (id, [alice, _]) = scenario_game(svc, ALICE_ATTACKS).await;
        let p = svc.command(alice, id, "concede", None).await.expect("ask");
        assert!(p.private_for(alice)[0].contains("say `concede yes`"));
        assert!(svc.load(id).await.expect("load").game.result.is_none());
        let p = svc
            .command(alice, id, "card cavalry master", None)
            .await
            .expect("card");
        let text = p.private_for(alice).join("\n");
        assert!(
            text.starts_with("Cavalry Master · {2}{W}{W} · Creature — Human Knight"),
            "{text}"
        );
        assert!(text.contains("3/3") && text.contains("Rulings:"), "{text}");
        assert!(
            svc.command(alice, id, "card frobnicator", None)
                .await
                .is_err()
        );
        let p = svc
            .command(alice, id, "concede yes", None)
            .await
            .expect("concede");
        assert!(p.finished);
    }
}

/// Undo never reveals hidden information: a command that drew a card is not taken back.
#[tokio::test]
async fn undo_of_a_draw_is_refused_with_the_reason() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let (id, users) = started(svc, "red", "green").await;
        let mut refused = false;
        for i in 0..300u64 {
            let Some((u, text, v)) = next_move(svc, id, users, i).await else {
                break;
            };
            let before = svc.load(id).await.expect("load").game;
            if svc.command(u, id, &text, Some(v)).await.is_err() {
                svc.command(u, id, "pass", Some(v)).await.ok();
                continue;
            }
            let after = svc.load(id).await.expect("load").game;
            if after.result.is_some() {
                break;
            }
            let drew = before
                .player_ids()
                .any(|p| after.player(p).library.len() < before.player(p).library.len());
            if !drew {
                continue;
            }
            let e = svc
                .command(u, id, "undo", None)
                .await
                .unwrap_err()
                .to_string();
            assert!(e.contains("can't be taken back"), "{e}");
            assert!(e.contains("drew a card") || e.contains("library"), "{e}");
            refused = true;
            break;
        }
        assert!(refused, "a command that drew a card");
    }
}

/// A snapshot that parses but is not what its log says (one changed byte) is rebuilt.
#[tokio::test]
async fn a_changed_snapshot_is_detected_and_rebuilt() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let (id, users) = started(svc, "red", "green").await;
        play_words(svc, id, users, 12).await;
        let row = svc.db.game(id).await.expect("row").expect("game");
        let text = row.snapshot.clone().expect("readable").expect("snapshot");
        // PostgreSQL keeps the snapshot as jsonb, which writes `"life": 20` with a space.
        let changed = text.replacen("\"life\":20", "\"life\":21", 1).replacen(
            "\"life\": 20",
            "\"life\": 21",
            1,
        );
        assert_ne!(changed, text, "a life total to change");
        assert!(Game::from_json(&changed).is_ok(), "still parses");
        svc.db
            .set_snapshot_text(id, &changed)
            .await
            .expect("tamper");
        let l = svc.load(id).await.expect("load");
        let note = l.rebuilt.clone().expect("noticed");
        assert!(note.contains("differs from its action log"), "{note}");
        // The rebuilt game has the life totals the log gives, not the tampered one (a
        // player may really be at 21: compare with the untouched snapshot).
        let truth = Game::from_json(&text).expect("the untouched snapshot");
        let lives = |g: &Game| g.player_ids().map(|p| g.player(p).life).collect::<Vec<_>>();
        assert_eq!(lives(&l.game), lives(&truth));
        assert_eq!(
            svc.check_replay(id).await.expect("replay").map(|_| ()),
            Ok(())
        );
        assert!(
            svc.load(id).await.expect("load").rebuilt.is_none(),
            "stored again"
        );
    }
}

/// A challenge nobody answers expires after `challenge_hours` (once), and can't be
/// accepted afterwards; an answered one never does.
#[tokio::test]
async fn unanswered_challenges_expire() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let t = tag();
        let alice = svc
            .user(&format!("alice-{t}"), "Alice")
            .await
            .expect("user");
        let bob = svc.user(&format!("bob-{t}"), "Bob").await.expect("user");
        let plan = svc
            .challenge(
                alice,
                &DeckChoice::Ready("green".into()),
                &[bob],
                None,
                Place::default(),
            )
            .await
            .expect("challenge");
        let id = plan.game_id;
        let (started, _) = started(svc, "green", "red").await;
        svc.clock.advance(svc.cfg.challenge_secs() - 10);
        assert!(
            svc.tick()
                .await
                .expect("tick")
                .iter()
                .all(|p| p.game_id != id),
            "not yet"
        );
        svc.clock.advance(20);
        let plans = svc.tick().await.expect("tick");
        let p = plans.iter().find(|p| p.game_id == id).expect("expired");
        assert!(p.public[0].contains("expired"), "{:?}", p.public);
        assert!(plans.iter().all(|p| p.game_id != started));
        assert_eq!(
            svc.db.game(id).await.expect("row").expect("game").status,
            "expired"
        );
        assert!(
            svc.tick()
                .await
                .expect("tick")
                .iter()
                .all(|p| p.game_id != id),
            "once"
        );
        let e = svc
            .accept(bob, id, &DeckChoice::Ready("red".into()))
            .await
            .expect_err("too late");
        assert!(e.to_string().contains("expired"), "{e}");
    }
}

/// Undo never shows hidden information again: looking at the top of a library (a pending
/// put-back, a scry done) or a search waiting for the requester is not taken back; the
/// opponent's pending look reveals nothing to the requester.
#[test]
fn looking_at_a_library_is_hidden_information_for_undo() {
    let mut g = engine::scenario::game_from_str(
        r#"
name = "sage"
script = ["alice: cast Sage of Epityr", "alice: autopay", "resolve", "resolve"]
[setup]
active = "alice"
step = "precombat_main"
turn = 3
[setup.alice]
hand = ["Sage of Epityr"]
library = ["Island", "Swamp", "Forest", "Plains", "Mountain"]
battlefield = ["Island"]
[setup.bob]
library = ["Forest"]
"#,
    )
    .expect("scenario runs");
    let (alice, bob) = (PlayerId(0), PlayerId(1));
    let why = super::hidden_seen(&g, alice, &[]).expect("Alice is looking at her library");
    assert!(why.contains("looking at the top of"), "{why}");
    assert_eq!(super::hidden_seen(&g, bob, &[]), None, "Bob sees nothing");
    let top = match g.pending().map(|p| p.decision.clone()) {
        Some(Decision::Scry { cards, .. }) => cards,
        other => panic!("{other:?}"),
    };
    let events = g
        .submit(
            alice,
            Answer::Scry {
                top,
                bottom: Vec::new(),
            },
        )
        .expect("put back");
    let why = super::hidden_seen(&g, alice, &events).expect("she looked");
    assert!(why.contains("looked at the top of"), "{why}");
    // Nothing hidden: a land played.
    let mut g = engine::scenario::board(
        "[setup.alice]\nhand = [\"Forest\"]\nlibrary = [\"Forest\"]\n[setup.bob]\nlibrary = [\"Forest\"]",
    )
    .expect("board");
    let forest = g.players[0].hand[0];
    let events = g.submit(alice, Answer::PlayLand(forest)).expect("land");
    assert_eq!(super::hidden_seen(&g, alice, &events), None);
}
