//! League commands through the service on SQLite (and PostgreSQL when `TEST_DATABASE_URL`
//! is set): bad input is refused with a message and changes nothing; a whole simulated
//! league is checked against an oracle computed by hand from the recorded games.

use super::organiser::OrganiserAction;
use super::sim::{SimOptions, simulate};
use super::*;
use crate::config::Config;
use crate::service::Clock;
use crate::storage::tests::test_dbs;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

pub(super) async fn services() -> (Vec<Service>, tempfile::TempDir) {
    let (dbs, dir) = test_dbs().await;
    (
        dbs.into_iter()
            .map(|db| Service {
                db,
                cfg: Config::default(),
                clock: Clock::Fixed(Arc::new(AtomicI64::new(1_000_000))),
            })
            .collect(),
        dir,
    )
}

pub(super) fn tag() -> String {
    static N: AtomicU64 = AtomicU64::new(0);
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{t}-{}", N.fetch_add(1, Ordering::SeqCst))
}

/// `users` always play first when they choose (a standing answer: no play/draw question),
/// for tests about something else.
pub(super) async fn always_play(svc: &Service, league: Id, users: &[Id]) {
    for u in users {
        svc.league_prefer(league, *u, super::choice::PlayDraw::Play)
            .await
            .expect("prefer play");
    }
}

pub(super) fn refusal<T: std::fmt::Debug>(r: Result<T>) -> String {
    match r {
        Err(ServiceError::Refused(m)) | Err(ServiceError::Deck(m)) => m,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

pub(super) async fn sealed_league(svc: &Service, t: &str) -> (Id, Vec<Id>) {
    let mut users = Vec::new();
    for n in ["Ann", "Ben", "Cat", "Dan"] {
        users.push(svc.user(&format!("{n}-{t}"), n).await.expect("user"));
    }
    let setup = LeagueSetup {
        name: format!("Sealed {t}"),
        product: Some("2 TSP + 2 PLC + 2 FUT".into()),
        ..Default::default()
    };
    let r = svc
        .league_create(users[0], &setup, 7, Some(8))
        .await
        .expect("create");
    assert!(r.text.contains("playable now"), "{}", r.text);
    (r.league_id, users)
}

#[tokio::test]
async fn joining_pools_builds_and_bad_input() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let t = tag();
        let (league, u) = sealed_league(svc, &t).await;
        let r = svc.league_join(league, u[1], None).await.expect("join");
        assert!(r.text.contains("6 packs, 90 cards"), "{}", r.text);
        // Joining twice changes nothing.
        let e = refusal(svc.league_join(league, u[1], None).await);
        assert!(e.contains("already playing"), "{e}");
        assert_eq!(svc.db.members(league).await.expect("members").len(), 1);
        // The pool replays from its stored seeds.
        let (_, pool) = svc.league_pool(league, u[1]).await.expect("pool");
        assert!(pool.verify().is_ok());
        assert_eq!(
            pool.packs
                .iter()
                .map(|p| p.set.as_str())
                .collect::<Vec<_>>(),
            vec!["TSP", "TSP", "PLC", "PLC", "FUT", "FUT"]
        );
        // A non-member has no pool.
        assert!(refusal(svc.league_pool(league, u[2]).await).contains("not playing"));
        // A build with a card outside the pool, then one too small: refused, nothing saved.
        let outside = engine::Catalog::builtin()
            .supported()
            .find(|d| {
                !d.supertypes.contains(&engine::cards::Supertype::Basic)
                    && pool.count_of(&d.name) == 0
            })
            .expect("a card outside the pool")
            .name
            .clone();
        let e = refusal(
            svc.league_deck_save(league, u[1], "mine", &format!("39 Forest\n1 {outside}"))
                .await,
        );
        assert!(e.contains(&format!("{outside} is not in your pool")), "{e}");
        let e = refusal(
            svc.league_deck_save(league, u[1], "mine", "20 Forest")
                .await,
        );
        assert!(e.contains("at least 40"), "{e}");
        if let Some(c) = pool.cards().into_iter().find(|c| !c.playable) {
            let e = refusal(
                svc.league_deck_save(league, u[1], "mine", &format!("40 Forest\n1 {}", c.name))
                    .await,
            );
            assert!(
                e.contains("not playable yet") || e.contains("not supported"),
                "{e}"
            );
        }
        let builds = svc.db.league_decks(league, u[1]).await.expect("builds");
        assert_eq!(builds.len(), 1, "only the automatic build");
        let r = svc
            .league_deck_save(league, u[1], "mine", "20 Forest\n20 Island")
            .await
            .expect("a legal build");
        assert!(r.text.contains("40 cards"), "{}", r.text);
        let m = svc
            .db
            .member(league, u[1])
            .await
            .expect("m")
            .expect("member");
        assert_eq!(m.deck_name.as_deref(), Some("mine"));
        svc.league_deck_use(league, u[1], "AUTO")
            .await
            .expect("use");
        assert!(refusal(svc.league_deck_use(league, u[1], "nope").await).contains("auto"));
        // Playing against a non-member, then oneself.
        svc.league_join(league, u[2], None).await.expect("join");
        let e = refusal(svc.league_play(league, u[1], Some(u[3])).await);
        assert!(e.contains("Dan is not playing"), "{e}");
        assert!(refusal(svc.league_play(league, u[1], Some(u[1])).await).contains("yourself"));
        assert!(svc.db.league_matches(league).await.expect("m").is_empty());
        // Organiser commands from a non-organiser.
        let e = refusal(
            svc.league_organise(league, u[2], false, 1, OrganiserAction::Nullify, "x")
                .await,
        );
        assert!(e.contains("only the organisers"), "{e}");
        // Drops: once, and then neither again nor a new join.
        svc.league_drop(league, u[2]).await.expect("drop");
        assert!(refusal(svc.league_drop(league, u[2]).await).contains("already dropped"));
        assert!(refusal(svc.league_join(league, u[2], None).await).contains("cannot rejoin"));
        assert!(refusal(svc.league_play(league, u[2], None).await).contains("dropped"));
        // Vacation days are counted.
        svc.league_vacation(league, u[1], 3)
            .await
            .expect("vacation");
        assert!(refusal(svc.league_vacation(league, u[1], 5).await).contains("4 vacation days"));
        // After the entries close, joining is refused; after the end, dropping is too.
        svc.clock.advance(27 * 86_400);
        assert!(refusal(svc.league_join(league, u[3], None).await).contains("closed"));
        svc.clock.advance(2 * 86_400);
        assert!(refusal(svc.league_drop(league, u[1]).await).contains("has ended"));
        assert!(refusal(svc.league_play(league, u[1], None).await).contains("has ended"));
        assert!(svc.db.member(league, u[3]).await.expect("m").is_none());
    }
}

#[tokio::test]
async fn a_challenge_is_played_out_and_organisers_fix_it() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let t = tag();
        let org = svc.user(&format!("org-{t}"), "Org").await.expect("user");
        let a = svc
            .user(&format!("agent:a-{t}"), "Agent A")
            .await
            .expect("user");
        let b = svc
            .user(&format!("agent:b-{t}"), "Agent B")
            .await
            .expect("user");
        let setup = LeagueSetup {
            name: format!("C {t}"),
            product: Some("6 TSP".into()),
            ..Default::default()
        };
        let league = svc
            .league_create(org, &setup, 0, None)
            .await
            .expect("c")
            .league_id;
        svc.league_join(league, a, None).await.expect("join");
        svc.league_join(league, b, None).await.expect("join");
        // Both always play first when they choose.
        for u in [a, b] {
            svc.league_prefer(league, u, super::choice::PlayDraw::Play)
                .await
                .expect("prefer");
        }
        let r = svc
            .league_play(league, a, Some(b))
            .await
            .expect("challenge");
        assert!(r.text.contains("Match over"), "{}", r.text);
        let ms = svc.db.league_matches(league).await.expect("matches");
        assert_eq!(ms.len(), 1);
        let m = &ms[0];
        assert_eq!(m.status, "finished");
        assert!(m.a_wins == 2 || m.b_wins == 2 || m.a_wins + m.b_wins + m.draws == 3);
        // A repeat opponent within the run is refused.
        let e = refusal(svc.league_play(league, b, Some(a)).await);
        assert!(e.contains("already played"), "{e}");
        // Each game is an engine game with its result recorded; game 2's chooser was game 1's loser.
        let games = svc.db.league_games(m.id).await.expect("games");
        assert!(games.len() >= 2);
        for g in &games {
            let loaded = svc.load(g.game_id).await.expect("game");
            match loaded.game.result {
                Some(engine::GameResult::Won(p)) => {
                    assert_eq!(g.winner, Some(loaded.seats[p.index()].user_id));
                }
                Some(engine::GameResult::Draw) => assert!(g.draw),
                None => panic!("an unfinished game was recorded"),
            }
        }
        if let Some(w) = games[0].winner {
            let loser = if w == a { b } else { a };
            let second = svc.load(games[1].game_id).await.expect("game 2");
            let seat = second
                .seats
                .iter()
                .find(|s| s.user_id == loser)
                .map(|s| s.seat as u8);
            let setup: crate::replay::StoredSetup =
                serde_json::from_str(second.row.setup.as_deref().expect("setup")).expect("setup");
            // The loser of game 1 chose, and plays first (`prefer play`).
            assert_eq!(setup.first_player, seat);
            assert_eq!(games[1].first_user, loser);
        }
        // The organiser fixes the result, recorded with who and why.
        let fix = OrganiserAction::Fix {
            a_wins: 2,
            b_wins: 1,
            draws: 0,
        };
        let e = refusal(
            svc.league_organise(league, org, false, m.id, fix, " ")
                .await,
        );
        assert!(e.contains("say why"), "{e}");
        let bad = OrganiserAction::Fix {
            a_wins: 5,
            b_wins: 0,
            draws: 0,
        };
        assert!(
            refusal(
                svc.league_organise(league, org, false, m.id, bad, "typo")
                    .await
            )
            .contains("not a result")
        );
        let r = svc
            .league_organise(league, org, false, m.id, fix, "scorekeeper error")
            .await
            .expect("fix");
        assert!(r.text.contains("fixed to 2-1-0 by Org"), "{}", r.text);
        let after = svc.db.league_match(m.id).await.expect("m").expect("found");
        assert_eq!((after.a_wins, after.b_wins), (2, 1));
        let v = svc.league_standings(league).await.expect("standings");
        assert_eq!(v.lines[0].user, m.a_user);
        assert_eq!(v.lines[0].points, 3);
        // A member with Manage Server may nullify; the match then no longer counts.
        svc.league_organise(league, b, true, m.id, OrganiserAction::Nullify, "collusion")
            .await
            .expect("nullify");
        let v = svc.league_standings(league).await.expect("standings");
        assert!(v.lines.iter().all(|l| l.points == 0));
        let log = svc.db.league_actions(league).await.expect("log");
        assert_eq!(
            log.iter().map(|x| x.kind.as_str()).collect::<Vec<_>>(),
            vec!["fix", "nullify"]
        );
        assert_eq!(log[1].by_user, b);
        assert!(
            svc.league_me(league, a)
                .await
                .expect("me")
                .text
                .contains("nullified")
        );
        // The nullified match was the only one: its games no longer rate anybody.
        for u in [a, b] {
            assert_eq!(svc.db.rating(u, "sealed").await.expect("rating"), None);
        }
    }
}

/// Nullifying a match takes its games out of the ratings: every rating of the format is
/// computed again from the games that still count (here the other player of a later match
/// is rated as if the nullified match had never been played); a fixed result changes no
/// rating (the games were played as they were).
/// MTR 2.2 with standing answers: game 1's chooser (drawn at random) and every later game's
/// chooser (the loser of the game before) play first when they prefer to play, and the
/// other player does when they prefer to draw. Between two players who both prefer to draw,
/// the winner of each game plays the next one first.
#[tokio::test]
async fn the_chooser_plays_or_draws_as_they_prefer() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let t = tag();
        let org = svc.user(&format!("org-{t}"), "Org").await.expect("user");
        let mut agents = Vec::new();
        for n in ["A", "B", "C", "D"] {
            let u = svc
                .user(&format!("agent:{n}-{t}"), &format!("Agent {n}"))
                .await
                .expect("user");
            agents.push(u);
        }
        let setup = LeagueSetup {
            name: format!("P {t}"),
            product: Some("6 TSP".into()),
            ..Default::default()
        };
        let l = svc.league_create(org, &setup, 0, None).await.expect("c");
        let league = l.league_id;
        for u in &agents {
            svc.league_join(league, *u, None).await.expect("join");
        }
        let (a, b, c, d) = (agents[0], agents[1], agents[2], agents[3]);
        use super::choice::PlayDraw;
        let r = svc
            .league_prefer(league, a, PlayDraw::Draw)
            .await
            .expect("prefer");
        assert!(r.text.contains("draw first"), "{}", r.text);
        svc.league_prefer(league, b, PlayDraw::Draw)
            .await
            .expect("prefer");
        for u in [c, d] {
            svc.league_prefer(league, u, PlayDraw::Play)
                .await
                .expect("prefer");
        }
        let seed = svc.league_ctx(league).await.expect("l").row.seed;
        for (x, y, draw) in [(a, b, true), (c, d, false)] {
            svc.league_play(league, x, Some(y))
                .await
                .expect("challenge");
            let m = svc
                .db
                .league_matches(league)
                .await
                .expect("matches")
                .into_iter()
                .find(|m| m.a_user == x)
                .expect("the match");
            assert_eq!(m.status, "finished");
            let games = svc.db.league_games(m.id).await.expect("games");
            assert!(games.len() >= 2);
            let other = |u: Id| if u == x { y } else { x };
            let chooser = super::matches::game_one_chooser(seed, m.created_at, x, Some(y));
            let want = if draw { other(chooser) } else { chooser };
            assert_eq!(games[0].first_user, want, "game 1 (chooser {chooser})");
            for w in games.windows(2) {
                let Some(winner) = w[0].winner else { continue };
                let loser = other(winner);
                let want = if draw { winner } else { loser };
                assert_eq!(w[1].first_user, want, "game {}", w[1].game_no);
            }
        }
    }
}

#[tokio::test]
async fn nullifying_a_match_takes_its_games_out_of_the_ratings() {
    use crate::league::ratings::{Outcome, Rating, rate_game};
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let t = tag();
        let org = svc.user(&format!("org-{t}"), "Org").await.expect("user");
        let mut p = Vec::new();
        for n in ["A", "B", "C"] {
            p.push(
                svc.user(&format!("agent:{n}-{t}"), &format!("Agent {n}"))
                    .await
                    .expect("user"),
            );
        }
        let (a, b, c) = (p[0], p[1], p[2]);
        let setup = LeagueSetup {
            name: format!("N {t}"),
            product: Some("6 TSP".into()),
            seed: Some(7),
            ..Default::default()
        };
        let league = svc
            .league_create(org, &setup, 0, None)
            .await
            .expect("create")
            .league_id;
        for u in [a, b, c] {
            svc.league_join(league, u, None).await.expect("join");
        }
        svc.league_play(league, a, Some(b)).await.expect("a vs b");
        // Later games: a different time, so idle days would count as they did.
        if let Clock::Fixed(t) = &svc.clock {
            t.fetch_add(3 * 86_400, Ordering::SeqCst);
        }
        svc.league_play(league, a, Some(c)).await.expect("a vs c");
        let ms = svc.db.league_matches(league).await.expect("matches");
        assert_eq!(ms.len(), 2);
        let (first, second) = (&ms[0], &ms[1]);
        let rating = |u: Id| async move { svc.db.rating(u, "sealed").await.expect("rating") };
        let before = [rating(a).await, rating(b).await, rating(c).await];
        assert!(before.iter().all(Option::is_some));
        // A fixed result changes no rating.
        let fix = OrganiserAction::Fix {
            a_wins: 0,
            b_wins: 2,
            draws: 0,
        };
        svc.league_organise(league, org, false, second.id, fix, "misclick")
            .await
            .expect("fix");
        assert_eq!([rating(a).await, rating(b).await, rating(c).await], before);
        // Nullify the first match: B is unrated, A and C as if only the second was played.
        svc.league_organise(
            league,
            org,
            false,
            first.id,
            OrganiserAction::Nullify,
            "wrong decks",
        )
        .await
        .expect("nullify");
        assert_eq!(rating(b).await, None);
        let (mut ra, mut rc) = (Rating::default(), Rating::default());
        let games = svc.db.league_games(second.id).await.expect("games");
        for g in &games {
            let o = match g.winner {
                Some(w) if w == second.a_user => Outcome::Win,
                Some(_) => Outcome::Loss,
                None => Outcome::Draw,
            };
            (ra, rc) = rate_game(&ra, &rc, o, g.finished_at);
        }
        assert_eq!(second.a_user, a);
        for (u, want) in [(a, ra), (c, rc)] {
            let got = rating(u).await.expect("rated");
            assert!(
                (got.rating - want.rating).abs() < 1e-9
                    && (got.deviation - want.deviation).abs() < 1e-9
                    && got.games == i64::from(want.games),
                "{got:?} vs {want:?}"
            );
            assert_eq!(got.games as usize, games.len());
        }
        assert_ne!(rating(a).await, before[0], "A's rating changed");
        // Nothing else: a second nullify is refused and changes nothing.
        let e = refusal(
            svc.league_organise(
                league,
                org,
                false,
                first.id,
                OrganiserAction::Nullify,
                "again",
            )
            .await,
        );
        assert!(e.contains("nullified already"), "{e}");
        assert_eq!(rating(b).await, None);
    }
}

/// The oracle: Appendix C computed by hand from the match rows, and Glicko-2 folded over the
/// recorded games in order with `skillratings` directly.
fn oracle_points(matches: &[crate::storage::MatchRow], user: Id) -> (u32, f64) {
    let mut pts = 0;
    let mut rounds = 0;
    for m in matches.iter().filter(|m| m.status == "finished") {
        let (mine, theirs) = if m.a_user == user {
            (m.a_wins, if m.b_user.is_none() { -1 } else { m.b_wins })
        } else if m.b_user == Some(user) {
            (m.b_wins, m.a_wins)
        } else {
            continue;
        };
        rounds += 1;
        pts += match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => 3,
            std::cmp::Ordering::Equal => 1,
            std::cmp::Ordering::Less => 0,
        };
    }
    let mwp = if rounds == 0 {
        0.33
    } else {
        (f64::from(pts) / f64::from(3 * rounds)).max(0.33)
    };
    (pts, mwp)
}

#[tokio::test]
async fn a_whole_sealed_league_matches_the_oracle() {
    use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let o = SimOptions {
            tag: tag(),
            ..SimOptions::default()
        };
        let rep = simulate(svc, &o).await.expect("simulation");
        // A failure names the seed: `LEAGUE_SIM_SEED=N` plays the same league again.
        eprintln!("league seed {}", rep.seed);
        assert_eq!(rep.players.len(), 8);
        let matches = svc.db.league_matches(rep.league_id).await.expect("matches");
        // Three Swiss rounds of four matches, all played out.
        assert_eq!(
            matches.len(),
            12,
            "seed {}: {:#?}\n{matches:#?}",
            rep.seed,
            rep.log
        );
        assert!(matches.iter().all(|m| m.status == "finished"));
        for r in 1..=3 {
            assert_eq!(matches.iter().filter(|m| m.round == r).count(), 4);
        }
        // Nobody meets the same opponent twice.
        let mut pairs: Vec<(Id, Id)> = matches
            .iter()
            .filter_map(|m| m.b_user.map(|b| (m.a_user.min(b), m.a_user.max(b))))
            .collect();
        pairs.sort();
        let n = pairs.len();
        pairs.dedup();
        assert_eq!(pairs.len(), n);
        // Every match's score is its recorded games, and every game the engine's result.
        let mut games_total = 0;
        for m in &matches {
            let games = svc.db.league_games(m.id).await.expect("games");
            games_total += games.len();
            let aw = games.iter().filter(|g| g.winner == Some(m.a_user)).count() as i64;
            let bw = games
                .iter()
                .filter(|g| g.winner.is_some() && g.winner != Some(m.a_user))
                .count() as i64;
            let dr = games.iter().filter(|g| g.draw).count() as i64;
            assert_eq!((m.a_wins, m.b_wins, m.draws), (aw, bw, dr));
            assert!(
                aw == 2 || bw == 2 || aw + bw + dr == 3,
                "a best-of-three ends at two wins or three games"
            );
        }
        assert_eq!(rep.games, games_total);
        // Standings: points, and OMW% as the average of floored opponents' percentages.
        for line in &rep.standings.lines {
            let (pts, _) = oracle_points(&matches, line.user);
            assert_eq!(line.points, pts, "{}", line.name);
            let opps: Vec<Id> = matches
                .iter()
                .filter_map(|m| {
                    if m.a_user == line.user {
                        m.b_user
                    } else if m.b_user == Some(line.user) {
                        Some(m.a_user)
                    } else {
                        None
                    }
                })
                .collect();
            let omw = opps
                .iter()
                .map(|o| oracle_points(&matches, *o).1)
                .sum::<f64>()
                / opps.len() as f64;
            assert!(
                (line.omw - omw).abs() < 1e-9,
                "{}: {} vs {omw}",
                line.name,
                line.omw
            );
        }
        // GW% and OGW% by hand: game points over 3 x games, floored at 0.33 (no byes in
        // an even field), OGW% the average of the opponents' GW%.
        let gwp = |u: Id| {
            let (mut gp, mut games) = (0i64, 0i64);
            for m in matches.iter().filter(|m| m.status == "finished") {
                let (mine, theirs) = if m.a_user == u {
                    (m.a_wins, m.b_wins)
                } else if m.b_user == Some(u) {
                    (m.b_wins, m.a_wins)
                } else {
                    continue;
                };
                gp += 3 * mine + m.draws;
                games += mine + theirs + m.draws;
            }
            (gp as f64 / (3 * games) as f64).max(0.33)
        };
        let opponents = |u: Id| -> Vec<Id> {
            matches
                .iter()
                .filter_map(|m| {
                    if m.a_user == u {
                        m.b_user
                    } else if m.b_user == Some(u) {
                        Some(m.a_user)
                    } else {
                        None
                    }
                })
                .collect()
        };
        for line in &rep.standings.lines {
            assert!(
                (line.gwp - gwp(line.user)).abs() < 1e-9,
                "{} GW%",
                line.name
            );
            let opps = opponents(line.user);
            let ogw = opps.iter().map(|o| gwp(*o)).sum::<f64>() / opps.len() as f64;
            assert!((line.ogw - ogw).abs() < 1e-9, "{} OGW%", line.name);
        }
        // The order: points, then OMW%, GW%, OGW% (Appendix C), each line at least the next.
        let keys: Vec<(u32, i64, i64, i64)> = rep
            .standings
            .lines
            .iter()
            .map(|l| {
                let k = |x: f64| (x * 1e9).round() as i64;
                (l.points, k(l.omw), k(l.gwp), k(l.ogw))
            })
            .collect();
        assert!(keys.windows(2).all(|w| w[0] >= w[1]), "{keys:?}");
        assert_eq!(
            rep.standings
                .lines
                .iter()
                .map(|l| l.rank)
                .collect::<Vec<_>>(),
            (1..=8).collect::<Vec<_>>()
        );
        // Pools: each is the packs its seeds open (the seeds derived again here from the
        // league's seed), and every deck a game was played with is inside its player's pool.
        let league = svc.league_ctx(rep.league_id).await.expect("league");
        let sets = ["TSP"; 6];
        let mut pools = std::collections::HashMap::new();
        for p in &rep.players {
            let seeds: Vec<u64> = (0..6)
                .map(|i| boosters::pack_seed(league.row.seed, *p as u64, i))
                .collect();
            let want = Pool::open(&sets, &seeds).expect("pool");
            let (_, got) = svc.league_pool(rep.league_id, *p).await.expect("pool");
            assert_eq!(got.packs, want.packs, "the stored pool is its seeds' packs");
            assert_eq!(got.cards().iter().map(|c| c.count).sum::<u32>(), 90);
            pools.insert(*p, got);
        }
        let mut decks_checked = 0;
        for g in svc.db.league_games_of(rep.league_id).await.expect("games") {
            for seat in svc.db.seats(g.game_id).await.expect("seats") {
                let deck: serde_json::Value =
                    serde_json::from_str(seat.deck.as_deref().expect("a deck")).expect("json");
                let mut counts: std::collections::HashMap<String, u32> = Default::default();
                for c in deck["cards"].as_array().expect("cards") {
                    *counts
                        .entry(c.as_str().expect("name").to_string())
                        .or_default() += 1;
                }
                assert!(counts.values().sum::<u32>() >= 40, "a 40-card minimum");
                let pool = &pools[&seat.user_id];
                for (name, n) in &counts {
                    if ["Plains", "Island", "Swamp", "Mountain", "Forest"].contains(&name.as_str())
                    {
                        continue;
                    }
                    let card = pool.cards().into_iter().find(|c| &c.name == name);
                    let card = card.unwrap_or_else(|| panic!("{name} is not in the pool"));
                    assert!(
                        card.playable && *n <= card.count,
                        "{name}: {n} of {}",
                        card.count
                    );
                }
                decks_checked += 1;
            }
        }
        assert_eq!(decks_checked, 2 * rep.games);
        let pts: Vec<u32> = rep.standings.lines.iter().map(|l| l.points).collect();
        assert!(pts.windows(2).all(|w| w[0] >= w[1]), "{pts:?}");
        assert_eq!(
            pts.iter().sum::<u32>(),
            12 * 3 - matches.iter().filter(|m| m.a_wins == m.b_wins).count() as u32
        );
        // Ratings: Glicko-2 over every game in order (one fixed time: no idle growth).
        let mut r: std::collections::HashMap<Id, Glicko2Rating> = Default::default();
        for g in svc.db.league_games_of(rep.league_id).await.expect("games") {
            let m = matches.iter().find(|m| m.id == g.match_id).expect("match");
            let (a, b) = (m.a_user, m.b_user.expect("no byes"));
            let out = match g.winner {
                Some(w) if w == a => skillratings::Outcomes::WIN,
                Some(_) => skillratings::Outcomes::LOSS,
                None => skillratings::Outcomes::DRAW,
            };
            let (ra, rb) = (
                r.get(&a).copied().unwrap_or_default(),
                r.get(&b).copied().unwrap_or_default(),
            );
            let (na, nb) = glicko2(&ra, &rb, &out, &Glicko2Config::new());
            r.insert(a, na);
            r.insert(b, nb);
        }
        for p in &rep.players {
            let stored = svc
                .db
                .rating(*p, "sealed")
                .await
                .expect("rating")
                .expect("rated");
            let want = r[p];
            assert!(
                (stored.rating - want.rating).abs() < 1e-6
                    && (stored.deviation - want.deviation).abs() < 1e-6
            );
        }
        assert!(rep.standings.text.len() < 4096);
        // A Swiss league pairs its rounds: no challenges.
        let e = refusal(
            svc.league_play(rep.league_id, rep.players[0], Some(rep.players[1]))
                .await,
        );
        assert!(e.contains("pairs its rounds"), "{e}");
        assert!(rep.standings.text.contains("Agent"));
    }
}

#[tokio::test]
async fn clocks_are_claimed_never_silent_and_the_league_ends_with_a_grace_period() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let t = tag();
        let a = svc.user(&format!("h1-{t}"), "Hana").await.expect("user");
        let b = svc.user(&format!("h2-{t}"), "Ivo").await.expect("user");
        let setup = LeagueSetup {
            name: format!("Clock {t}"),
            product: Some("6 FUT".into()),
            pack_triggers: vec!["loser".into()],
            ..Default::default()
        };
        let league = svc
            .league_create(a, &setup, 0, None)
            .await
            .expect("c")
            .league_id;
        svc.league_join(league, a, None).await.expect("join");
        svc.league_join(league, b, None).await.expect("join");
        always_play(svc, league, &[a, b]).await;
        let r = svc
            .league_play(league, a, Some(b))
            .await
            .expect("challenge");
        assert_eq!(r.plans.len(), 1);
        let m = svc.db.league_matches(league).await.expect("m")[0].clone();
        let game = m.game_id.expect("game");
        // The league clock times the game, not the service's decision deadline.
        assert_eq!(
            svc.db.game(game).await.expect("g").expect("row").deadline,
            None
        );
        let loaded = svc.load(game).await.expect("load");
        let decider = loaded.seats[loaded.game.pending().expect("pending").player.index()].user_id;
        let waiter = if decider == a { b } else { a };
        assert!(refusal(svc.league_claim(league, decider).await).contains("your decision"));
        svc.clock.advance(86_400);
        let e = refusal(svc.league_claim(league, waiter).await);
        assert!(e.contains("still has 2 d"), "{e}");
        let c = svc.league_clock(league, waiter).await.expect("clock");
        assert!(c.text.contains("(running)"), "{}", c.text);
        // Under a day left: one reminder to the player whose clock runs.
        svc.clock.advance(86_400 + 3_600);
        let ticks = svc.league_tick_one(league).await.expect("tick");
        let rem: Vec<&LeagueReply> = ticks.iter().filter(|r| r.league_id == league).collect();
        assert_eq!(rem.len(), 1, "{ticks:?}");
        assert!(rem[0].text.contains("left on their clock") && rem[0].pings == vec![decider]);
        assert!(
            svc.league_tick_one(league)
                .await
                .expect("tick")
                .iter()
                .all(|r| r.league_id != league)
        );
        // Out of time: the waiting player (only they) is told, once, that they may claim;
        // nothing happens until they do.
        svc.clock.advance(86_400);
        let ticks = svc.league_tick_one(league).await.expect("tick");
        let told: Vec<&LeagueReply> = ticks.iter().filter(|r| r.league_id == league).collect();
        assert_eq!(told.len(), 1, "{ticks:?}");
        let (dn, wn) = (svc.name_of(decider).await, svc.name_of(waiter).await);
        assert!(
            told[0].text.contains(&format!(
                "{dn}'s clock in game {game} has run out; {wn} may claim the game (`league claim`)"
            )),
            "{}",
            told[0].text
        );
        assert_eq!(told[0].pings, vec![waiter]);
        assert!(
            svc.league_tick_one(league)
                .await
                .expect("tick")
                .iter()
                .all(|r| r.league_id != league),
            "told once"
        );
        assert!(svc.load(game).await.expect("load").game.result.is_none());
        let r = svc.league_claim(league, waiter).await.expect("claim");
        assert!(
            r.text.contains("ran out of time") && r.text.contains("claimed the game on time"),
            "{}",
            r.text
        );
        let games = svc.db.league_games(m.id).await.expect("games");
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].winner, Some(waiter));
        // The claimed game is over in the service too, not left waiting for a concession's
        // confirmation.
        let row = svc.db.game(game).await.expect("db").expect("row");
        assert_eq!(row.status, "finished");
        let m = svc.db.league_match(m.id).await.expect("m").expect("found");
        assert_eq!(m.status, "active");
        assert!(m.game_id.is_some_and(|g| g != game), "game 2 started");
        assert_eq!(m.chooser, Some(decider), "the loser of game 1 chooses");
        // The league ends; after the grace period the game in progress is a draw.
        svc.clock.advance(32 * 86_400);
        let ticks = svc.league_tick_one(league).await.expect("tick");
        let texts: Vec<&str> = ticks
            .iter()
            .filter(|r| r.league_id == league)
            .map(|r| r.text.as_str())
            .collect();
        assert!(texts.iter().any(|t| t.contains("draw")), "{texts:?}");
        assert!(
            texts.iter().any(|t| t.starts_with("Final standings")),
            "{texts:?}"
        );
        let m = svc.db.league_match(m.id).await.expect("m").expect("found");
        assert_eq!(m.status, "finished");
        assert_eq!(m.draws, 1);
        assert_eq!(
            svc.db.league(league).await.expect("l").expect("row").status,
            "final"
        );
        // The loser of the match got a pack from its own stored seed.
        let loser = if m.a_wins > m.b_wins {
            m.b_user.expect("b")
        } else {
            m.a_user
        };
        let (_, pool) = svc.league_pool(league, loser).await.expect("pool");
        assert_eq!(pool.packs.len(), 7);
        assert!(pool.verify().is_ok());
        let (_, pool) = svc
            .league_pool(league, if loser == a { b } else { a })
            .await
            .expect("pool");
        assert_eq!(pool.packs.len(), 6);
        // Nothing more happens once the league is final.
        assert!(
            svc.league_tick_one(league)
                .await
                .expect("tick")
                .iter()
                .all(|r| r.league_id != league)
        );
    }
}

#[tokio::test]
async fn the_queue_pairs_equal_records_and_ends_runs() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let o = SimOptions {
            players: 4,
            schedule: "queue".into(),
            best_of: 1,
            matches_per_run: Some(3),
            tag: tag(),
            ..SimOptions::default()
        };
        let rep = simulate(svc, &o).await.expect("simulation");
        let matches = svc.db.league_matches(rep.league_id).await.expect("m");
        // Four players, three matches each against everyone else: six matches, no repeats.
        assert_eq!(matches.len(), 6, "{:#?}", rep.log);
        for p in &rep.players {
            let r = super::matches::record_of(*p, &matches);
            assert_eq!(r.played, 3);
            let mut met = r.met.clone();
            met.sort();
            met.dedup();
            assert_eq!(met.len(), 3);
        }
        let e = refusal(svc.league_play(rep.league_id, rep.players[0], None).await);
        assert!(e.contains("run is complete"), "{e}");
        assert!(rep.games == 6, "best of one");
    }
}

#[tokio::test]
async fn weekly_packs_grow_the_pools() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let t = tag();
        let a = svc.user(&format!("w1-{t}"), "Wes").await.expect("user");
        let b = svc.user(&format!("w2-{t}"), "Xia").await.expect("user");
        let setup = LeagueSetup {
            name: format!("Weekly {t}"),
            product: Some("3 PLC".into()),
            pack_triggers: vec!["weekly".into()],
            ..Default::default()
        };
        let league = svc
            .league_create(a, &setup, 0, None)
            .await
            .expect("c")
            .league_id;
        svc.league_join(league, a, None).await.expect("join");
        svc.league_join(league, b, None).await.expect("join");
        svc.league_drop(league, b).await.expect("drop");
        assert!(
            svc.league_tick_one(league)
                .await
                .expect("tick")
                .iter()
                .all(|r| r.league_id != league)
        );
        svc.clock.advance(8 * 86_400);
        let ticks = svc.league_tick_one(league).await.expect("tick");
        let packs: Vec<&LeagueReply> = ticks.iter().filter(|r| r.league_id == league).collect();
        assert_eq!(
            packs.len(),
            1,
            "only members who have not dropped: {ticks:?}"
        );
        assert!(
            packs[0].text.contains("opens a PLC pack"),
            "{}",
            packs[0].text
        );
        let (_, pool) = svc.league_pool(league, a).await.expect("pool");
        assert_eq!(pool.packs.len(), 4);
        assert!(pool.verify().is_ok());
        assert!(
            svc.league_tick_one(league)
                .await
                .expect("tick")
                .iter()
                .all(|r| r.league_id != league)
        );
        assert_eq!(
            svc.league_pool(league, b)
                .await
                .expect("pool")
                .1
                .packs
                .len(),
            3
        );
    }
}

#[tokio::test]
async fn an_odd_swiss_field_gets_one_bye_a_round() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let o = SimOptions {
            players: 5,
            best_of: 1,
            tag: tag(),
            ..SimOptions::default()
        };
        let rep = simulate(svc, &o).await.expect("simulation");
        let matches = svc.db.league_matches(rep.league_id).await.expect("m");
        let byes: Vec<&crate::storage::MatchRow> =
            matches.iter().filter(|m| m.b_user.is_none()).collect();
        // ceil(log2 5) = 3 rounds, each with two matches and a bye.
        assert_eq!(matches.len(), 9, "{:#?}", rep.log);
        assert_eq!(byes.len(), 3);
        let mut who: Vec<Id> = byes.iter().map(|m| m.a_user).collect();
        who.sort();
        who.dedup();
        assert_eq!(who.len(), 3, "nobody has two byes");
        assert!(byes.iter().all(|m| m.a_wins == 1 && m.status == "finished"));
        for m in &byes {
            let line = rep
                .standings
                .lines
                .iter()
                .find(|l| l.user == m.a_user)
                .expect("line");
            assert!(line.points >= 3, "a bye is a match win");
        }
        assert!(
            svc.db
                .league_games_of(rep.league_id)
                .await
                .expect("g")
                .len()
                == 6
        );
    }
}

#[tokio::test]
async fn one_unreadable_league_does_not_stop_the_sweep() {
    let (svcs, _dir) = services().await;
    // SQLite only: the sweep of every league would touch other tests' leagues on a shared
    // PostgreSQL database.
    let svc = &svcs[0];
    let t = tag();
    let u = svc.user(&format!("z-{t}"), "Zed").await.expect("user");
    let bad = svc
        .db
        .create_league(&format!("bad {t}"), 0, None, u, "{}", 1, 1)
        .await
        .expect("create")
        .expect("new");
    let setup = LeagueSetup {
        name: format!("good {t}"),
        product: Some("1 TSP".into()),
        pack_triggers: vec!["weekly".into()],
        ..Default::default()
    };
    let good = svc
        .league_create(u, &setup, 0, None)
        .await
        .expect("c")
        .league_id;
    svc.league_join(good, u, None).await.expect("join");
    svc.clock.advance(7 * 86_400 + 1);
    let r = svc.league_tick().await.expect("the sweep goes on");
    assert!(r.iter().any(|x| x.league_id == good), "{r:?}");
    assert!(matches!(
        svc.league_ctx(bad).await,
        Err(ServiceError::Corrupt { .. })
    ));
}

/// Many whole leagues, each with its own random seed (what makes the sealed league's test
/// play different games in every run): `SIM_RUNS=50 cargo test --workspace --lib
/// many_simulated_leagues -- --ignored`. A league that stops making progress fails with the
/// stuck game's decision and the engine's reason.
#[tokio::test]
#[ignore]
async fn many_simulated_leagues() {
    let n: usize = std::env::var("SIM_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    let mut fails = Vec::new();
    for i in 0..n {
        // Each league on a fresh database (the same ids), so its seed plays it again.
        let (svcs, _dir) = services().await;
        let svc = &svcs[0];
        let o = SimOptions {
            tag: tag(),
            ..SimOptions::default()
        };
        let seed = super::sim::sim_seed(&o);
        let o = SimOptions {
            seed: Some(seed),
            ..o
        };
        match simulate(svc, &o).await {
            Ok(rep) => {
                let m = svc.db.league_matches(rep.league_id).await.expect("m");
                eprintln!(
                    "run {i} seed {seed}: {} matches {} games",
                    m.len(),
                    rep.games
                );
                if m.len() != 12 {
                    fails.push(seed);
                    eprintln!("SHORT (seed {seed}): {:#?}\n{m:#?}", rep.log);
                }
            }
            Err(e) => {
                fails.push(seed);
                eprintln!("run {i} seed {seed} FAILED: {e}");
            }
        }
        for s in svcs {
            s.db.close().await;
        }
    }
    assert!(fails.is_empty(), "failing seeds: {fails:?}");
}

/// Round deadlines: once a Swiss round's deadline has passed, the player who waits may
/// claim although the clocks have time (here the other is on vacation): the player the game
/// waits for forfeits it and the match ends with its score; that player's own claim is
/// refused; a match with no game in progress ends with its score (a draw at 0-0). Before
/// the deadline nothing is claimed, and nothing is ever forfeited without a claim.
#[tokio::test]
async fn a_round_deadline_lets_the_waiting_player_claim() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let t = tag();
        let mut users = Vec::new();
        for n in ["Ann", "Ben", "Cat", "Dan"] {
            users.push(svc.user(&format!("{n}-d{t}"), n).await.expect("user"));
        }
        let setup = LeagueSetup {
            name: format!("Deadline {t}"),
            product: Some("6 TSP".into()),
            schedule: Some("swiss".into()),
            seed: Some(11),
            ..Default::default()
        };
        let league = svc
            .league_create(users[0], &setup, 0, None)
            .await
            .expect("create")
            .league_id;
        for u in &users {
            svc.league_join(league, *u, None).await.expect("join");
        }
        always_play(svc, league, &users).await;
        // Ann's pairing starts her match's game 1; the other match waits for a game.
        svc.league_play(league, users[0], None).await.expect("play");
        let ms = svc.db.league_matches(league).await.expect("matches");
        assert_eq!(ms.len(), 2);
        let playing = ms
            .iter()
            .find(|m| m.game_id.is_some())
            .expect("a game")
            .clone();
        let idle = ms
            .iter()
            .find(|m| m.game_id.is_none())
            .expect("no game")
            .clone();
        let g = playing.game_id.expect("game");
        let l = svc.load(g).await.expect("load");
        let runner = l.seats[l.game.pending().expect("pending").player.index()].user_id;
        let b = playing.b_user.expect("b");
        let waiter = if runner == playing.a_user {
            b
        } else {
            playing.a_user
        };
        // Before the deadline: the clock has time, so no claim.
        let e = refusal(svc.league_claim(league, waiter).await);
        assert!(e.contains("still has"), "{e}");
        let idle_player = idle.a_user;
        let e = refusal(svc.league_claim(league, idle_player).await);
        assert!(e.contains("no game"), "{e}");
        // The runner goes on vacation (their clock stops); the round's deadline passes.
        svc.league_vacation(league, runner, 7)
            .await
            .expect("vacation");
        if let Clock::Fixed(c) = &svc.clock {
            c.fetch_add(7 * 86_400 + 3_600, Ordering::SeqCst);
        }
        // Nothing was forfeited by itself.
        let before = svc
            .db
            .league_match(playing.id)
            .await
            .expect("m")
            .expect("m");
        assert_eq!(
            (before.status.as_str(), before.a_wins + before.b_wins),
            ("active", 0)
        );
        let e = refusal(svc.league_claim(league, runner).await);
        assert!(e.contains("waits for you"), "{e}");
        let r = svc.league_claim(league, waiter).await.expect("claim");
        assert!(r.text.contains("deadline"), "{}", r.text);
        assert!(r.text.contains("Match over"), "{}", r.text);
        let after = svc
            .db
            .league_match(playing.id)
            .await
            .expect("m")
            .expect("m");
        assert_eq!(after.status, "finished");
        let (w, lo) = if waiter == after.a_user {
            (after.a_wins, after.b_wins)
        } else {
            (after.b_wins, after.a_wins)
        };
        assert_eq!((w, lo), (1, 0), "the claimed game, then the match ended");
        let games = svc.db.league_games(playing.id).await.expect("games");
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].winner, Some(waiter));
        assert!(games[0].reason.contains("deadline"), "{}", games[0].reason);
        // The claimed game is over in the service too (it was left waiting before the fix).
        let row = svc.db.game(g).await.expect("db").expect("row");
        assert_eq!(row.status, "finished");
        // The match without a game ends with its score: a draw.
        let r = svc.league_claim(league, idle_player).await.expect("claim");
        assert!(r.text.contains("no game in progress"), "{}", r.text);
        let idle_after = svc.db.league_match(idle.id).await.expect("m").expect("m");
        assert_eq!(idle_after.status, "finished");
        assert_eq!((idle_after.a_wins, idle_after.b_wins), (0, 0));
        // Round 1 is over: round 2 is paired.
        assert!(r.text.contains("round 2"), "{}", r.text);
        let v = svc.league_standings(league).await.expect("standings");
        let pts = |u: Id| v.lines.iter().find(|x| x.user == u).map(|x| x.points);
        assert_eq!(pts(waiter), Some(3));
        assert_eq!(pts(runner), Some(0));
        assert_eq!(pts(idle.a_user), Some(1));
        // Nothing to claim twice.
        let e = refusal(svc.league_claim(league, runner).await);
        assert!(!e.is_empty());
    }
}

/// Sideboarding from the rest of the pool, in a match: a swap made during game 1 is the
/// deck of game 2 (not only a saved build); bad swaps are refused and change nothing; the
/// build in use comes back for the next match; no match, no sideboarding.
#[tokio::test]
async fn sideboarding_between_games_swaps_with_the_rest_of_the_pool() {
    use crate::league::pool;
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let t = tag();
        let (league, users) = sealed_league(svc, &format!("sb{t}")).await;
        let (ann, ben, cat) = (users[0], users[1], users[2]);
        for u in [ann, ben, cat] {
            svc.league_join(league, u, None).await.expect("join");
        }
        always_play(svc, league, &[ann, ben, cat]).await;
        let e = refusal(svc.league_sideboard(league, ann, &[], &[], false).await);
        assert!(e.contains("no match in progress"), "{e}");
        svc.league_play(league, ann, Some(ben))
            .await
            .expect("challenge");
        let m = svc.db.league_matches(league).await.expect("m")[0].clone();
        let g1 = m.game_id.expect("game 1");
        // Ann's build and the rest of her pool.
        let (_, p) = svc.league_pool(league, ann).await.expect("pool");
        let build = svc.db.league_decks(league, ann).await.expect("decks");
        let auto = crate::decks::parse("auto", &build[0].list).expect("auto");
        let card_in = pool::sideboard(&p, &auto)[0].name.clone();
        let card_out = auto
            .main
            .iter()
            .find(|e| {
                e.name != card_in
                    && !["Plains", "Island", "Swamp", "Mountain", "Forest"]
                        .contains(&e.name.as_str())
            })
            .expect("a spell")
            .name
            .clone();
        let listed = svc
            .league_sideboard(league, ann, &[], &[], false)
            .await
            .expect("list");
        assert!(listed.text.contains(&card_in), "{}", listed.text);
        // Bad swaps: named problems, nothing changed.
        let e = match svc
            .league_sideboard(
                league,
                ann,
                &[(1, "Nothing Such".into())],
                &[(1, "Lightning Bolt".into())],
                false,
            )
            .await
        {
            Err(ServiceError::Deck(m)) => m,
            other => panic!("{other:?}"),
        };
        assert!(
            e.contains("not in your deck") && e.contains("not in your pool"),
            "{e}"
        );
        let mem = svc
            .db
            .member(league, ann)
            .await
            .expect("m")
            .expect("member");
        assert_eq!((mem.side_list, mem.side_match), (None, None));
        let r = svc
            .league_sideboard(
                league,
                ann,
                &[(1, card_out.clone())],
                &[(1, card_in.clone())],
                false,
            )
            .await
            .expect("sideboard");
        assert!(r.text.contains("from game 2"), "{}", r.text);
        // Game 1 ends (Ben concedes); game 2 is dealt from the sideboarded deck.
        svc.command(ben, g1, "concede yes", None)
            .await
            .expect("concede");
        svc.league_after(g1).await.expect("after");
        let m = svc.db.league_match(m.id).await.expect("m").expect("m");
        let g2 = m.game_id.expect("game 2");
        assert_ne!(g1, g2);
        let count = |cards: &[String], n: &str| cards.iter().filter(|c| *c == n).count();
        let seat_cards = |deck: Option<String>| -> Vec<String> {
            let v: serde_json::Value = serde_json::from_str(&deck.expect("deck")).expect("json");
            v["cards"]
                .as_array()
                .expect("cards")
                .iter()
                .filter_map(|c| c.as_str().map(str::to_string))
                .collect()
        };
        let seats1 = svc.db.seats(g1).await.expect("seats");
        let seats2 = svc.db.seats(g2).await.expect("seats");
        let ann1 = seat_cards(
            seats1
                .iter()
                .find(|s| s.user_id == ann)
                .and_then(|s| s.deck.clone()),
        );
        let ann2 = seat_cards(
            seats2
                .iter()
                .find(|s| s.user_id == ann)
                .and_then(|s| s.deck.clone()),
        );
        assert_eq!(count(&ann2, &card_in), count(&ann1, &card_in) + 1);
        assert_eq!(count(&ann2, &card_out) + 1, count(&ann1, &card_out));
        assert_eq!(ann1.len(), ann2.len());
        // Ben concedes game 2: the match is over; Ann's next match is dealt from her build.
        svc.command(ben, g2, "concede yes", None)
            .await
            .expect("concede");
        svc.league_after(g2).await.expect("after");
        let m = svc.db.league_match(m.id).await.expect("m").expect("m");
        assert_eq!(m.status, "finished");
        svc.league_play(league, ann, Some(cat))
            .await
            .expect("next match");
        let m2 = svc.db.league_matches(league).await.expect("m")[1].clone();
        let seats3 = svc
            .db
            .seats(m2.game_id.expect("game"))
            .await
            .expect("seats");
        let ann3 = seat_cards(
            seats3
                .iter()
                .find(|s| s.user_id == ann)
                .and_then(|s| s.deck.clone()),
        );
        assert_eq!(count(&ann3, &card_in), count(&ann1, &card_in));
        assert_eq!(count(&ann3, &card_out), count(&ann1, &card_out));
    }
}

/// Agents `names` (played by the random agent) and an organiser, in a new league.
pub(super) async fn agents_league(
    svc: &Service,
    setup: LeagueSetup,
    names: &[&str],
) -> (Id, Vec<Id>) {
    let t = tag();
    let org = svc.user(&format!("org-{t}"), "Org").await.expect("user");
    let mut users = Vec::new();
    for n in names {
        users.push(svc.user(&format!("agent:{n}-{t}"), n).await.expect("user"));
    }
    let setup = LeagueSetup {
        name: format!("{} {t}", setup.name),
        ..setup
    };
    let r = svc
        .league_create(org, &setup, 0, None)
        .await
        .expect("create");
    (r.league_id, users)
}

/// One rating per format: the same two players in a sealed and a constructed league have a
/// sealed and a constructed rating, each moved by its own league's games only.
#[tokio::test]
async fn each_format_keeps_its_own_rating() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let sealed = LeagueSetup {
            name: "Sealed".into(),
            product: Some("6 TSP".into()),
            best_of: Some(1),
            ..Default::default()
        };
        let (sl, u) = agents_league(svc, sealed, &["Ann", "Ben"]).await;
        let (a, b) = (u[0], u[1]);
        let constructed = LeagueSetup {
            name: format!("Block {sl}"),
            best_of: Some(1),
            ..Default::default()
        };
        let org = svc.user(&format!("org2-{sl}"), "Org").await.expect("user");
        let cl = svc
            .league_create(org, &constructed, 0, None)
            .await
            .expect("create")
            .league_id;
        for x in [a, b] {
            svc.league_join(sl, x, None).await.expect("join sealed");
            svc.league_join(cl, x, Some(&DeckChoice::Ready("green".into())))
                .await
                .expect("join constructed");
        }
        let rating = |u: Id, f: &'static str| async move { svc.db.rating(u, f).await.expect("db") };
        svc.league_play(sl, a, Some(b)).await.expect("sealed match");
        let sealed_after = rating(a, "sealed").await.expect("a sealed rating");
        assert_eq!(sealed_after.games, 1);
        assert_eq!(rating(a, "constructed").await, None);
        svc.league_play(cl, a, Some(b))
            .await
            .expect("constructed match");
        let c = rating(a, "constructed")
            .await
            .expect("a constructed rating");
        assert_eq!(c.games, 1);
        assert_eq!(
            rating(a, "sealed").await,
            Some(sealed_after.clone()),
            "untouched"
        );
        assert!(rating(b, "sealed").await.is_some() && rating(b, "constructed").await.is_some());
        // Each league's standings show its own format's rating.
        let sv = svc.league_standings(sl).await.expect("standings");
        let cv = svc.league_standings(cl).await.expect("standings");
        let shown = |v: &super::view::StandingsView| {
            v.lines
                .iter()
                .find(|l| l.user == a)
                .expect("a")
                .rating
                .clone()
        };
        assert_eq!(
            shown(&sv),
            format!("{}?", sealed_after.rating.round() as i64)
        );
        assert_eq!(shown(&cv), format!("{}?", c.rating.round() as i64));
    }
}

#[tokio::test]
async fn a_member_plays_runs_one_after_another() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let setup = LeagueSetup {
            name: "Runs".into(),
            product: Some("3 TSP".into()),
            best_of: Some(1),
            matches_per_run: Some(2),
            seed: Some(99),
            ..Default::default()
        };
        let (league, u) = agents_league(svc, setup, &["Ann", "Ben", "Cat", "Dan"]).await;
        let (a, b, c, d) = (u[0], u[1], u[2], u[3]);
        for x in &u {
            svc.league_join(league, *x, None).await.expect("join");
        }
        let l = svc.league_ctx(league).await.expect("league");
        let outsider = svc
            .user(&format!("out-{}", tag()), "Out")
            .await
            .expect("user");
        assert!(
            refusal(svc.league_new_run(league, outsider, None).await).contains("join it first")
        );
        // A run that is not over: no new run.
        let e = refusal(svc.league_new_run(league, a, None).await);
        assert!(e.contains("run 1 is not over: 0 of 2"), "{e}");
        svc.league_play(league, a, Some(b)).await.expect("match 1");
        svc.league_play(league, a, Some(c)).await.expect("match 2");
        let e = refusal(svc.league_play(league, a, Some(d)).await);
        assert!(
            e.contains("run is complete") && e.contains("league run"),
            "{e}"
        );
        // Bad input changes nothing: a deck for a sealed run.
        let before = svc.db.member(league, a).await.expect("m").expect("member");
        let e = refusal(
            svc.league_new_run(league, a, Some(&DeckChoice::Ready("red".into())))
                .await,
        );
        assert!(e.contains("new pool"), "{e}");
        assert_eq!(
            svc.db.member(league, a).await.expect("m").expect("member"),
            before
        );
        // The new run: a new pool from new seeded packs, one automatic build, run 1 kept.
        svc.league_deck_save(
            league,
            a,
            "mine",
            &decks::to_text(&pool::auto_build(
                &svc.member_pool(&l, &before).await.expect("pool"),
                "mine",
            )),
        )
        .await
        .expect("a build of run 1");
        let r = svc.league_new_run(league, a, None).await.expect("new run");
        assert!(r.text.contains("Run 2 of"), "{}", r.text);
        let m = svc.db.member(league, a).await.expect("m").expect("member");
        assert_eq!((m.run, m.deck_name.as_deref()), (2, Some("auto")));
        let new_pool = svc.member_pool(&l, &m).await.expect("pool");
        let old_pool = svc.member_pool(&l, &before).await.expect("pool");
        assert!(
            new_pool.verify().is_ok(),
            "the new pool replays from its seeds"
        );
        assert_ne!(new_pool, old_pool);
        let seed2 = boosters::run_seed(99, 2);
        for (i, p) in new_pool.packs.iter().enumerate() {
            assert_eq!(p.seed, boosters::pack_seed(seed2, a as u64, i as u64));
        }
        let builds = svc.db.league_decks(league, a).await.expect("builds");
        assert_eq!(
            builds.iter().map(|b| b.name.as_str()).collect::<Vec<_>>(),
            vec!["auto"]
        );
        let runs = svc.db.league_runs(league, a).await.expect("runs");
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].deck_name.as_deref(), Some("mine"));
        assert!(runs[0].decks.contains("mine") && runs[0].decks.contains("auto"));
        let kept: Pool =
            serde_json::from_str(runs[0].pool.as_deref().expect("old pool")).expect("pool");
        assert_eq!(kept, old_pool);
        // One run at a time.
        let e = refusal(svc.league_new_run(league, a, None).await);
        assert!(e.contains("run 2 is not over: 0 of 2"), "{e}");
        // Within a run no repeat opponent, on either side: Ben met Ann in his run 1.
        let e = refusal(svc.league_play(league, a, Some(b)).await);
        assert!(e.contains("already played you in their run"), "{e}");
        svc.league_play(league, a, Some(d))
            .await
            .expect("run 2, match 1");
        let ms = svc.db.league_matches(league).await.expect("matches");
        let last = ms.last().expect("match");
        assert_eq!((last.a_user, last.a_run, last.b_run), (a, 2, 1));
        // Standings: one line per member, Ann's best run beside her run count.
        let v = svc.league_standings(league).await.expect("standings");
        assert_eq!(v.lines.len(), 4);
        let ann = v.lines.iter().find(|x| x.user == a).expect("Ann");
        assert_eq!(ann.runs, 2);
        let points = |run| {
            let r = super::matches::run_record(a, run, &ms);
            3 * r.wins + r.draws
        };
        assert_eq!(ann.points, points(1).max(points(2)), "{}", v.text);
        assert!(
            v.text.contains(&format!("run {} of 2", ann.run)),
            "{}",
            v.text
        );
        assert!(v.title.contains("best run"), "{}", v.title);
        let me = svc.league_me(league, a).await.expect("me").text;
        assert!(me.contains("run 2: ") && me.contains("run 1: "), "{me}");
        assert!(me.contains("(run 2) vs"), "{me}");
        // After the entries close no new run begins, and `play` says so.
        svc.league_play(league, b, Some(c))
            .await
            .expect("Ben's second");
        svc.clock.advance(27 * 86_400);
        let e = refusal(svc.league_new_run(league, b, None).await);
        assert!(e.contains("entries") && e.contains("closed"), "{e}");
        assert!(refusal(svc.league_play(league, b, None).await).contains("Entries are closed"));
        assert_eq!(
            svc.db.member(league, b).await.expect("m").expect("b").run,
            1
        );
        // A dropped member starts no run.
        svc.league_drop(league, c).await.expect("drop");
        assert!(refusal(svc.league_new_run(league, c, None).await).contains("dropped"));
    }
}

#[tokio::test]
async fn constructed_runs_register_a_new_deck_and_can_end_by_losses() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let setup = LeagueSetup {
            name: "Block".into(),
            best_of: Some(1),
            matches_per_run: Some(3),
            run_losses: Some(1),
            ..Default::default()
        };
        let (league, u) = agents_league(svc, setup, &["Ann", "Ben"]).await;
        let (a, b) = (u[0], u[1]);
        for x in &u {
            svc.league_join(league, *x, Some(&DeckChoice::Ready("red".into())))
                .await
                .expect("join");
        }
        svc.league_play(league, a, Some(b)).await.expect("match");
        let m = svc.db.league_matches(league).await.expect("matches")[0].clone();
        assert_eq!(m.status, "finished");
        let loser = match m.a_wins.cmp(&m.b_wins) {
            std::cmp::Ordering::Greater => b,
            std::cmp::Ordering::Less => a,
            // A drawn game ends nobody's run.
            std::cmp::Ordering::Equal => continue,
        };
        let winner = if loser == a { b } else { a };
        // The winner's run goes on (1 of 3); the loser's ended at its first loss.
        let e = refusal(svc.league_new_run(league, winner, None).await);
        assert!(e.contains("1 of 3"), "{e}");
        let e = refusal(svc.league_play(league, loser, None).await);
        assert!(
            e.contains("(1 loss:") && e.contains("run is complete"),
            "{e}"
        );
        // A constructed run needs its deck, checked before anything changes.
        let e = refusal(svc.league_new_run(league, loser, None).await);
        assert!(e.contains("needs its deck"), "{e}");
        let e = refusal(
            svc.league_new_run(league, loser, Some(&DeckChoice::Ready("purple".into())))
                .await,
        );
        assert!(e.contains("purple"), "{e}");
        assert_eq!(
            svc.db
                .member(league, loser)
                .await
                .expect("m")
                .expect("m")
                .run,
            1
        );
        let r = svc
            .league_new_run(league, loser, Some(&DeckChoice::Ready("green".into())))
            .await
            .expect("run 2");
        assert!(r.text.contains("locked for the run"), "{}", r.text);
        let builds = svc.db.league_decks(league, loser).await.expect("builds");
        assert_eq!(builds.len(), 1);
        assert!(builds[0].list.contains("Forest"), "{}", builds[0].list);
        let runs = svc.db.league_runs(league, loser).await.expect("runs");
        assert!(runs[0].decks.contains("Mountain"), "{}", runs[0].decks);
        // Still locked within the run; the winner has met the loser in this run.
        assert!(refusal(svc.league_deck_use(league, loser, "registered").await).contains("locked"));
        let e = refusal(svc.league_play(league, loser, Some(winner)).await);
        assert!(e.contains("already played you in their run"), "{e}");
    }
}

#[tokio::test]
async fn scheduled_leagues_have_no_new_runs() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let setup = LeagueSetup {
            name: "RR".into(),
            product: Some("3 TSP".into()),
            schedule: Some("round robin".into()),
            ..Default::default()
        };
        let (league, u) = agents_league(svc, setup, &["Ann", "Ben"]).await;
        svc.league_join(league, u[0], None).await.expect("join");
        let e = refusal(svc.league_new_run(league, u[0], None).await);
        assert!(e.contains("one event"), "{e}");
        // Words reach the same command.
        let e = refusal(svc.league_words(u[0], 0, None, "run", false).await);
        assert!(e.contains("one event"), "{e}");
        // A player who drops before playing a match did not take part (MTR 2.10): not in
        // the standings; one who played keeps their line.
        svc.league_join(league, u[1], None).await.expect("join");
        svc.league_drop(league, u[1]).await.expect("drop");
        let v = svc.league_standings(league).await.expect("standings");
        assert_eq!(
            v.lines.iter().map(|x| x.user).collect::<Vec<_>>(),
            vec![u[0]]
        );
    }
}

#[tokio::test]
async fn the_closing_notice_counts_matches_left_and_the_grace_period_lets_matches_finish() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let t = tag();
        let a = svc.user(&format!("g1-{t}"), "Hana").await.expect("user");
        let b = svc.user(&format!("g2-{t}"), "Ivo").await.expect("user");
        let c = svc.user(&format!("g3-{t}"), "Jo").await.expect("user");
        let setup = LeagueSetup {
            name: format!("Close {t}"),
            product: Some("3 TSP".into()),
            length_days: Some(10),
            ..Default::default()
        };
        let league = svc
            .league_create(a, &setup, 0, None)
            .await
            .expect("c")
            .league_id;
        for u in [a, b, c] {
            svc.league_join(league, u, None).await.expect("join");
        }
        always_play(svc, league, &[a, b, c]).await;
        let r = svc.league_play(league, a, Some(b)).await.expect("match");
        assert_eq!(r.plans.len(), 1);
        let l = svc.league_ctx(league).await.expect("league");
        let ends = l.def.dates.ends_at;
        let here = |v: Vec<LeagueReply>| -> Vec<LeagueReply> {
            v.into_iter().filter(|r| r.league_id == league).collect()
        };
        // 49 hours before the end: no notice yet.
        svc.clock.advance(ends - 49 * 3_600 - svc.now());
        let ticks = here(svc.league_tick_one(league).await.expect("tick"));
        assert!(
            ticks.iter().all(|r| !r.text.contains("closes in 48")),
            "{ticks:?}"
        );
        // 47 hours before: once, to each member with matches left (the one in progress
        // counts), with how many.
        svc.clock.advance(2 * 3_600);
        let ticks = here(svc.league_tick_one(league).await.expect("tick"));
        let notice: Vec<&LeagueReply> = ticks
            .iter()
            .filter(|r| r.text.contains("closes in 48 hours"))
            .collect();
        assert_eq!(notice.len(), 1, "{ticks:?}");
        assert!(
            notice[0].text.contains("Hana: 5")
                && notice[0].text.contains("Ivo: 5")
                && notice[0].text.contains("Jo: 5"),
            "{}",
            notice[0].text
        );
        let mut pinged = notice[0].pings.clone();
        pinged.sort();
        let mut want = vec![a, b, c];
        want.sort();
        assert_eq!(pinged, want);
        let again = here(svc.league_tick_one(league).await.expect("tick"));
        assert!(again.iter().all(|r| !r.text.contains("closes in 48")));
        // The league has ended: in the grace period the match in progress goes on, no new
        // match begins and nothing is final yet.
        svc.clock.advance(48 * 3_600);
        let ticks = here(svc.league_tick_one(league).await.expect("tick"));
        assert!(
            ticks.iter().all(|r| !r.text.contains("Final standings")),
            "{ticks:?}"
        );
        let m = svc.db.league_matches(league).await.expect("m")[0].clone();
        assert_eq!(m.status, "active");
        let game = m.game_id.expect("game in progress");
        assert!(svc.load(game).await.expect("load").game.result.is_none());
        assert!(refusal(svc.league_play(league, c, None).await).contains("has ended"));
        assert_eq!(
            svc.db.league(league).await.expect("l").expect("row").status,
            "open"
        );
        // After the grace period: the unfinished game is a draw and the final standings are
        // posted, to every member.
        svc.clock.advance(l.def.clock.grace);
        let ticks = here(svc.league_tick_one(league).await.expect("tick"));
        let fin: Vec<&LeagueReply> = ticks
            .iter()
            .filter(|r| r.text.starts_with("Final standings"))
            .collect();
        assert_eq!(fin.len(), 1, "{ticks:?}");
        assert_eq!(fin[0].pings.len(), 3);
        let m = svc.db.league_match(m.id).await.expect("m").expect("found");
        assert_eq!((m.status.as_str(), m.draws), ("finished", 1));
    }
}

#[tokio::test]
async fn a_pack_per_losses_goes_to_the_loser_from_its_stored_seed() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let setup = LeagueSetup {
            name: "Losses".into(),
            product: Some("3 TSP".into()),
            best_of: Some(1),
            pack_triggers: vec!["per 1 loss".into()],
            seed: Some(5),
            ..Default::default()
        };
        let (league, u) = agents_league(svc, setup, &["Ann", "Ben"]).await;
        for x in &u {
            svc.league_join(league, *x, None).await.expect("join");
        }
        let r = svc
            .league_play(league, u[0], Some(u[1]))
            .await
            .expect("match");
        let m = svc.db.league_matches(league).await.expect("m")[0].clone();
        let (loser, winner) = match m.a_wins.cmp(&m.b_wins) {
            std::cmp::Ordering::Greater => (u[1], u[0]),
            std::cmp::Ordering::Less => (u[0], u[1]),
            std::cmp::Ordering::Equal => continue,
        };
        assert!(r.text.contains("opens a TSP pack"), "{}", r.text);
        let (_, pool) = svc.league_pool(league, loser).await.expect("pool");
        assert_eq!(pool.packs.len(), 4);
        assert_eq!(pool.packs[3].seed, boosters::pack_seed(5, loser as u64, 3));
        assert!(pool.verify().is_ok());
        let (_, pool) = svc.league_pool(league, winner).await.expect("pool");
        assert_eq!(pool.packs.len(), 3);
    }
}

// ----- play or draw (MTR 2.2): the chooser is asked before each game -----------------

/// Who plays first in game `game_id` (from its stored setup).
pub(super) async fn first_of(svc: &Service, game_id: Id) -> Id {
    let loaded = svc.load(game_id).await.expect("game");
    let setup: crate::replay::StoredSetup =
        serde_json::from_str(loaded.row.setup.as_deref().expect("setup")).expect("setup");
    let seat = setup.first_player.expect("a first player");
    loaded
        .seats
        .iter()
        .find(|s| s.seat as u8 == seat)
        .expect("seat")
        .user_id
}

/// A sealed league of people (not agents): Ann challenges Ben. Returns the league, Ann,
/// Ben, Cat (a member with no match), the reply to the challenge and the match.
pub(super) async fn a_human_match(
    svc: &Service,
) -> (Id, Id, Id, Id, LeagueReply, crate::storage::MatchRow) {
    let t = tag();
    let (league, u) = sealed_league(svc, &format!("pd{t}")).await;
    let (ann, ben, cat) = (u[0], u[1], u[2]);
    for x in [ann, ben, cat] {
        svc.league_join(league, x, None).await.expect("join");
    }
    let r = svc
        .league_play(league, ann, Some(ben))
        .await
        .expect("challenge");
    let m = svc.db.league_matches(league).await.expect("m")[0].clone();
    (league, ann, ben, cat, r, m)
}

/// A newcomer is asked: the challenge starts no game, the match stores the question of
/// game 1 for its chooser (drawn at random), the reply carries it and notifies them, and
/// `play` from the chooser asks again (starting nothing).
#[tokio::test]
async fn the_chooser_is_asked_before_game_one() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let (league, ann, ben, _, r, m) = a_human_match(svc).await;
        let seed = svc.league_ctx(league).await.expect("l").row.seed;
        let chooser = super::matches::game_one_chooser(seed, m.created_at, ann, Some(ben));
        assert_eq!(m.chooser, Some(chooser));
        assert_eq!((m.game_id, m.choice_game), (None, Some(1)), "no game yet");
        let want = super::choice::PendingChoice {
            league_id: league,
            match_id: m.id,
            game_no: 1,
            chooser,
        };
        assert_eq!(r.choice, Some(want));
        assert!(r.plans.is_empty());
        assert!(r.pings.contains(&chooser));
        let name = svc.name_of(chooser).await;
        assert!(
            r.text.contains("game 1 of")
                && r.text
                    .contains(&format!("{name} chooses to play or draw first")),
            "{}",
            r.text
        );
        assert_eq!(
            svc.league_pending_choice(league, chooser).await.expect("q"),
            Some(want)
        );
        let other = if chooser == ann { ben } else { ann };
        assert_eq!(
            svc.league_pending_choice(league, other).await.expect("q"),
            None
        );
        let again = svc.league_play(league, chooser, None).await.expect("again");
        assert_eq!(again.choice, Some(want));
        assert!(again.plans.is_empty());
        let after = svc.db.league_match(m.id).await.expect("m").expect("m");
        assert_eq!((after.game_id, after.choice_game), (None, Some(1)));
        assert!(svc.db.league_games(m.id).await.expect("g").is_empty());
    }
}

/// A question nobody answers does not hold the match: the question says how long the
/// chooser has; halfway through it they are reminded once (with the buttons); when the time
/// has run out the sweep starts game 1 with the chooser playing first, as announced. A
/// chooser's vacation does not count against that time.
#[tokio::test]
async fn a_silent_chooser_is_reminded_then_plays_first() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let (league, ann, ben, _, r, m) = a_human_match(svc).await;
        let chooser = m.chooser.expect("chooser");
        let other = if chooser == ann { ben } else { ann };
        let name = svc.name_of(chooser).await;
        assert!(
            r.text.contains(&format!(
                "Without an answer within 1 d 0 h, {name} plays first"
            )),
            "{}",
            r.text
        );
        let mine = |ticks: Vec<LeagueReply>| -> Vec<LeagueReply> {
            ticks
                .into_iter()
                .filter(|r| r.league_id == league)
                .collect()
        };
        svc.clock.advance(3 * 3_600);
        assert!(mine(svc.league_tick_one(league).await.expect("tick")).is_empty());
        svc.clock.advance(10 * 3_600);
        let rem = mine(svc.league_tick_one(league).await.expect("tick"));
        assert_eq!(rem.len(), 1, "{rem:?}");
        assert!(
            rem[0].text.contains("waits for you to choose")
                && rem[0].text.contains("within 11 h 0 min, you play first"),
            "{}",
            rem[0].text
        );
        assert_eq!(rem[0].pings, vec![chooser]);
        assert_eq!(
            rem[0].choice.map(|c| (c.match_id, c.game_no)),
            Some((m.id, 1))
        );
        assert!(
            mine(svc.league_tick_one(league).await.expect("tick")).is_empty(),
            "reminded once"
        );
        // A day of vacation taken now: the time left waits for it.
        svc.league_vacation(league, chooser, 1)
            .await
            .expect("vacation");
        svc.clock.advance(86_400);
        assert!(mine(svc.league_tick_one(league).await.expect("tick")).is_empty());
        let still = svc.db.league_match(m.id).await.expect("m").expect("m");
        assert_eq!((still.game_id, still.choice_game), (None, Some(1)));
        svc.clock.advance(11 * 3_600);
        let started = mine(svc.league_tick_one(league).await.expect("tick"));
        assert_eq!(started.len(), 1, "{started:?}");
        assert!(
            started[0].text.contains(&format!(
                "{name} did not choose to play or draw within 1 d 0 h, so {name} plays first in game 1"
            )),
            "{}",
            started[0].text
        );
        assert_eq!(started[0].plans.len(), 1);
        assert!(started[0].pings.contains(&chooser) && started[0].pings.contains(&other));
        let after = svc.db.league_match(m.id).await.expect("m").expect("m");
        let g = after.game_id.expect("game 1 started");
        assert_eq!((after.choice_game, after.choice_asked_at), (None, None));
        assert_eq!(first_of(svc, g).await, chooser);
        // The late answer is refused and changes nothing.
        let late = refusal(
            svc.league_choose(league, chooser, true, Some((m.id, 1)))
                .await,
        );
        assert!(late.contains("no longer waiting"), "{late}");
        assert_eq!(first_of(svc, g).await, chooser);
    }
}

/// The chooser answers "play first": game 1 starts with them first, the question is gone.
#[tokio::test]
async fn the_chooser_answers_play_first() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let (league, ann, ben, _, _, m) = a_human_match(svc).await;
        let chooser = m.chooser.expect("chooser");
        let other = if chooser == ann { ben } else { ann };
        let r = svc
            .league_choose(league, chooser, false, Some((m.id, 1)))
            .await
            .expect("play first");
        let name = svc.name_of(chooser).await;
        assert!(
            r.text.contains(&format!("{name} chose to play first")),
            "{}",
            r.text
        );
        assert_eq!(r.plans.len(), 1);
        assert!(r.pings.contains(&other) && r.choice.is_none());
        let after = svc.db.league_match(m.id).await.expect("m").expect("m");
        let g = after.game_id.expect("game 1 started");
        assert_eq!(after.choice_game, None);
        assert_eq!(first_of(svc, g).await, chooser);
    }
}

/// The chooser answers "draw first" (in words, as the terminal does): the other player
/// plays first.
#[tokio::test]
async fn the_chooser_answers_draw_first() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let (league, ann, ben, _, _, m) = a_human_match(svc).await;
        let chooser = m.chooser.expect("chooser");
        let other = if chooser == ann { ben } else { ann };
        let l = svc.league_ctx(league).await.expect("l");
        let r = svc
            .league_words(
                chooser,
                l.row.guild_id,
                Some(&l.def.name),
                "draw first",
                false,
            )
            .await
            .expect("draw first");
        assert!(r.text.contains("chose to draw first"), "{}", r.text);
        let g = svc
            .db
            .league_match(m.id)
            .await
            .expect("m")
            .expect("m")
            .game_id
            .expect("game 1 started");
        assert_eq!(first_of(svc, g).await, other);
    }
}

/// Refusals that change nothing: the other player answering (in words and through the
/// service), a member with no match, a non-member; then, after the answer, a second
/// answer and the stale button of game 1.
#[tokio::test]
async fn only_the_chooser_answers_and_only_while_the_question_waits() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let (league, ann, ben, cat, _, m) = a_human_match(svc).await;
        let chooser = m.chooser.expect("chooser");
        let other = if chooser == ann { ben } else { ann };
        let name = svc.name_of(chooser).await;
        let waiting = || async {
            let x = svc.db.league_match(m.id).await.expect("m").expect("m");
            (x.game_id, x.choice_game)
        };
        let e = refusal(svc.league_choose(league, other, true, None).await);
        assert!(
            e.contains(&format!(
                "{name} chooses to play or draw in game 1, not you"
            )),
            "{e}"
        );
        let e = refusal(svc.league_play(league, other, None).await);
        assert!(
            e.contains(&format!("{name} chooses to play or draw")),
            "{e}"
        );
        let e = refusal(svc.league_choose(league, cat, false, None).await);
        assert!(e.contains("no league match in progress"), "{e}");
        let stranger = svc.user(&format!("x-{}", tag()), "Xan").await.expect("u");
        let e = refusal(svc.league_choose(league, stranger, false, None).await);
        assert!(e.contains("not playing"), "{e}");
        // A button for a game that was never asked.
        let e = refusal(
            svc.league_choose(league, chooser, false, Some((m.id, 2)))
                .await,
        );
        assert!(e.contains("no longer waiting"), "{e}");
        assert_eq!(waiting().await, (None, Some(1)), "nothing changed");
        // Answered: the game starts; answering again, or the old button, changes nothing.
        svc.league_choose(league, chooser, false, Some((m.id, 1)))
            .await
            .expect("answer");
        let started = waiting().await;
        assert!(started.0.is_some() && started.1.is_none());
        let e = refusal(
            svc.league_choose(league, chooser, true, Some((m.id, 1)))
                .await,
        );
        assert!(
            e.contains("game 1 of match") && e.contains("no longer waiting"),
            "{e}"
        );
        let e = refusal(svc.league_choose(league, chooser, true, None).await);
        assert!(e.contains("already being played"), "{e}");
        assert_eq!(waiting().await, started);
        assert_eq!(first_of(svc, started.0.expect("game")).await, chooser);
    }
}

/// The loser of each game chooses for the next: game 1's loser is asked before game 2
/// (the reply after the game carries the question), answers, and the stale button of
/// game 1 stays refused.
#[tokio::test]
async fn the_loser_of_a_game_chooses_for_the_next() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let (league, ann, ben, _, _, m) = a_human_match(svc).await;
        let chooser = m.chooser.expect("chooser");
        svc.league_choose(league, chooser, false, None)
            .await
            .expect("answer");
        let g1 = svc
            .db
            .league_match(m.id)
            .await
            .expect("m")
            .expect("m")
            .game_id
            .expect("game 1");
        // Ann concedes game 1: she chooses for game 2.
        svc.command(ann, g1, "concede yes", None)
            .await
            .expect("concede");
        let r = svc.league_after(g1).await.expect("after");
        let q = r.choice.expect("a question for game 2");
        assert_eq!((q.chooser, q.game_no, q.match_id), (ann, 2, m.id));
        assert!(
            r.text.contains("Ann chooses to play or draw first"),
            "{}",
            r.text
        );
        assert!(r.plans.is_empty());
        let after = svc.db.league_match(m.id).await.expect("m").expect("m");
        assert_eq!(
            (after.game_id, after.choice_game, after.chooser),
            (None, Some(2), Some(ann))
        );
        let e = refusal(svc.league_choose(league, ben, false, None).await);
        assert!(e.contains("Ann chooses"), "{e}");
        let e = refusal(svc.league_choose(league, ann, false, Some((m.id, 1))).await);
        assert!(e.contains("no longer waiting"), "{e}");
        svc.league_choose(league, ann, true, Some((m.id, 2)))
            .await
            .expect("draw first");
        let g2 = svc
            .db
            .league_match(m.id)
            .await
            .expect("m")
            .expect("m")
            .game_id
            .expect("game 2");
        assert_ne!(g1, g2);
        assert_eq!(first_of(svc, g2).await, ben, "Ann chose to draw");
    }
}

/// A standing answer skips the question: `prefer play` starts the game at once with the
/// chooser first, `prefer draw` with the other player first; `prefer ask` asks again.
#[tokio::test]
async fn a_standing_answer_skips_the_question() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let t = tag();
        let (league, u) = sealed_league(svc, &format!("st{t}")).await;
        for x in &u {
            svc.league_join(league, *x, None).await.expect("join");
        }
        for x in &u {
            let r = svc
                .league_prefer(league, *x, super::choice::PlayDraw::Play)
                .await
                .expect("prefer");
            assert!(
                r.text.contains("play first without being asked"),
                "{}",
                r.text
            );
        }
        let r = svc.league_play(league, u[0], Some(u[1])).await.expect("m1");
        assert!(r.choice.is_none() && r.plans.len() == 1, "{}", r.text);
        let m1 = svc.db.league_matches(league).await.expect("m")[0].clone();
        assert_eq!(m1.choice_game, None);
        let c1 = m1.chooser.expect("chooser");
        assert_eq!(first_of(svc, m1.game_id.expect("g")).await, c1);
        for x in [u[2], u[3]] {
            svc.league_prefer(league, x, super::choice::PlayDraw::Draw)
                .await
                .expect("prefer");
        }
        svc.league_play(league, u[2], Some(u[3])).await.expect("m2");
        let m2 = svc.db.league_matches(league).await.expect("m")[1].clone();
        let c2 = m2.chooser.expect("chooser");
        let o2 = if c2 == u[2] { u[3] } else { u[2] };
        assert_eq!(first_of(svc, m2.game_id.expect("g")).await, o2);
        // `prefer ask`: the next question is asked again (game 2 of match 2).
        for x in [u[2], u[3]] {
            let r = svc
                .league_prefer(league, x, super::choice::PlayDraw::Ask)
                .await
                .expect("ask");
            assert!(r.text.contains("asked before each game"), "{}", r.text);
        }
        let g = m2.game_id.expect("g");
        svc.command(u[2], g, "concede yes", None)
            .await
            .expect("concede");
        let r = svc.league_after(g).await.expect("after");
        assert_eq!(r.choice.map(|q| (q.chooser, q.game_no)), Some((u[2], 2)));
        // A refused word changes nothing.
        let l = svc.league_ctx(league).await.expect("l");
        let e = refusal(
            svc.league_words(u[3], 7, Some(&l.def.name), "prefer sometimes", false)
                .await,
        );
        assert!(e.contains("prefer ask"), "{e}");
        let mem = svc.db.member(league, u[3]).await.expect("m").expect("m");
        assert_eq!(mem.play_draw, "ask");
    }
}

/// Members played by the random agent answer at once, at random from the league's seed
/// (so a replayed league chooses alike): over a few matches both answers occur, and each
/// game's first player is the one the seeded answer of its chooser gives.
#[tokio::test]
async fn agents_choose_play_or_draw_at_random_from_the_seed() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let setup = LeagueSetup {
            name: "Agents choose".into(),
            product: Some("6 TSP".into()),
            allow_rematches: true,
            seed: Some(7),
            ..Default::default()
        };
        let (league, u) = agents_league(svc, setup, &["A", "B", "C", "D"]).await;
        for x in &u {
            svc.league_join(league, *x, None).await.expect("join");
        }
        let seed = svc.league_ctx(league).await.expect("l").row.seed;
        let mut answers = std::collections::HashSet::new();
        for (x, y) in [(u[0], u[1]), (u[2], u[3]), (u[0], u[2]), (u[1], u[3])] {
            let r = svc.league_play(league, x, Some(y)).await.expect("match");
            assert!(r.choice.is_none(), "agents are never left asked");
            let m = svc
                .db
                .league_matches(league)
                .await
                .expect("m")
                .into_iter()
                .find(|m| m.a_user == x && m.b_user == Some(y))
                .expect("match");
            assert_eq!(m.status, "finished");
            let other = |c: Id| if c == x { y } else { x };
            let mut chooser = super::matches::game_one_chooser(seed, m.created_at, x, Some(y));
            for g in svc.db.league_games(m.id).await.expect("games") {
                let draw = super::choice::agent_draws(seed, m.id, g.game_no);
                answers.insert(draw);
                let want = if draw { other(chooser) } else { chooser };
                assert_eq!(g.first_user, want, "match {} game {}", m.id, g.game_no);
                if let Some(w) = g.winner {
                    chooser = other(w);
                }
            }
        }
        assert_eq!(answers.len(), 2, "both answers occur");
    }
}
