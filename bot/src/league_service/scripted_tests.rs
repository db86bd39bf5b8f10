//! Leagues whose every result is chosen by the test (people, not agents: each game ends by
//! the named player's concession), so that standings and tiebreakers can be computed by
//! hand and written down here; with organiser forfeits, drops mid-Swiss, round robins, the
//! league's ruleset on its games, dates set by the organiser and the league's end while a
//! play/draw question waits. SQLite always, PostgreSQL when `TEST_DATABASE_URL` is set.

use super::organiser::OrganiserAction;
use super::tests::{a_human_match, always_play, refusal, sealed_league, services, tag};
use super::*;
use crate::storage::MatchRow;
use engine::Ruleset;

/// Plays match `match_id` game by game: `losers[i]` concedes game i + 1 (the next game
/// starts by itself: its chooser's standing answer). Returns what the league said.
async fn play_out(svc: &Service, match_id: Id, losers: &[Id]) -> Vec<String> {
    let mut said = Vec::new();
    for (i, loser) in losers.iter().enumerate() {
        let m = svc
            .db
            .league_match(match_id)
            .await
            .expect("db")
            .expect("match");
        assert_eq!(m.status, "active", "game {} of match {match_id}", i + 1);
        let g = m.game_id.expect("a game in progress");
        svc.command(*loser, g, "concede yes", None)
            .await
            .expect("concede");
        said.push(svc.league_after(g).await.expect("after").text);
    }
    let m = svc
        .db
        .league_match(match_id)
        .await
        .expect("db")
        .expect("match");
    assert_eq!(m.status, "finished", "match {match_id} after {losers:?}");
    said
}

/// The matches of round `round`.
async fn round_of(svc: &Service, league: Id, round: i64) -> Vec<MatchRow> {
    svc.db
        .league_matches(league)
        .await
        .expect("matches")
        .into_iter()
        .filter(|m| m.round == round)
        .collect()
}

/// Starts every match of `round` that has no game yet (its first player's `play`).
async fn start_round(svc: &Service, league: Id, round: i64) {
    for m in round_of(svc, league, round).await {
        if m.status == "active" && m.game_id.is_none() {
            svc.league_play(league, m.a_user, None)
                .await
                .expect("play starts the pairing's match");
        }
    }
}

/// `users` named `names`, each a person (not an agent).
async fn people(svc: &Service, t: &str, names: &[&str]) -> Vec<Id> {
    let mut u = Vec::new();
    for n in names {
        u.push(svc.user(&format!("{n}-{t}"), n).await.expect("user"));
    }
    u
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// One expected line of the standings: player, points, `W-L-D`, OMW%, GW%, OGW%.
type Want = (Id, u32, &'static str, f64, f64, f64);

fn assert_standings(v: &view::StandingsView, want: &[Want]) {
    assert_eq!(v.lines.len(), want.len(), "{}", v.text);
    for (i, (who, pts, rec, omw, gwp, ogw)) in want.iter().enumerate() {
        let l = &v.lines[i];
        assert_eq!(
            (l.rank, l.user),
            (i + 1, *who),
            "rank {}: {}",
            i + 1,
            v.text
        );
        assert_eq!((l.points, l.record.as_str()), (*pts, *rec), "{}", l.name);
        assert!(close(l.omw, *omw), "{} OMW {} vs {omw}", l.name, l.omw);
        assert!(close(l.gwp, *gwp), "{} GW {} vs {gwp}", l.name, l.gwp);
        assert!(close(l.ogw, *ogw), "{} OGW {} vs {ogw}", l.name, l.ogw);
    }
}

/// A round robin of four, best of three, every game's loser chosen, played through the
/// service from the first `play` to the last game: three rounds, every pair once (the
/// members joined in the reverse of their ids' order), and standings computed here by hand
/// (Appendix C), including the two ties broken by game-win %:
///
/// | match | result | | player | record | games | MW% | OMW% | GW% | OGW% |
/// |---|---|---|---|---|---|---|---|---|---|
/// | Ann-Ben | 2-0 | | Ann | 2-1 | 5-3 | 2/3 | (2/3+1/3+1/3)/3 = 4/9 | 15/24 = 5/8 | (4/7+3/7+3/8)/3 = 11/24 |
/// | Ann-Cat | 2-1 | | Ben | 2-1 | 4-3 | 2/3 | (2/3+1/3+1/3)/3 = 4/9 | 12/21 = 4/7 | (5/8+3/7+3/8)/3 = 10/21 |
/// | Dan-Ann | 2-1 | | Cat | 1-2 | 3-4 | 1/3 | (2/3+2/3+1/3)/3 = 5/9 | 9/21 = 3/7 | (5/8+4/7+3/8)/3 = 11/21 |
/// | Ben-Cat | 2-0 | | Dan | 1-2 | 3-5 | 1/3 | (2/3+2/3+1/3)/3 = 5/9 | 9/24 = 3/8 | (5/8+4/7+3/7)/3 = 13/24 |
/// | Ben-Dan | 2-1 | | | | | | | | |
/// | Cat-Dan | 2-0 | | | | | | | | |
///
/// Ann and Ben tie on points and OMW%: Ann's better GW% puts her first; Cat and Dan
/// likewise (1/3 is above the 0.33 floor, so it stays). The league is a classic one: every
/// game it starts is a classic game (the server's default is modern).
#[tokio::test]
async fn a_fixed_round_robin_matches_hand_computed_standings() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let t = tag();
        let u = people(svc, &format!("rr{t}"), &["Ann", "Ben", "Cat", "Dan"]).await;
        let (ann, ben, cat, dan) = (u[0], u[1], u[2], u[3]);
        let setup = LeagueSetup {
            name: format!("RR {t}"),
            schedule: Some("round robin".into()),
            ruleset: Some(Ruleset::Classic),
            seed: Some(3),
            ..Default::default()
        };
        assert_eq!(svc.cfg.ruleset().expect("ruleset"), Ruleset::Modern);
        let league = svc
            .league_create(ann, &setup, 0, None)
            .await
            .expect("create")
            .league_id;
        for x in u.iter().rev() {
            svc.league_join(league, *x, Some(&DeckChoice::Ready("green".into())))
                .await
                .expect("join");
            svc.clock.advance(60);
        }
        always_play(svc, league, &u).await;
        // Who concedes each game, by pairing.
        let script = |a: Id, b: Id| -> Vec<Id> {
            let is = |x: Id, y: Id| (a, b) == (x, y) || (a, b) == (y, x);
            if is(ann, ben) {
                vec![ben, ben]
            } else if is(ann, cat) {
                vec![cat, ann, cat]
            } else if is(ann, dan) {
                vec![ann, dan, ann]
            } else if is(ben, cat) {
                vec![cat, cat]
            } else if is(ben, dan) {
                vec![dan, ben, dan]
            } else {
                assert!(is(cat, dan), "{a} vs {b}");
                vec![dan, dan]
            }
        };
        // A challenge is refused: the league pairs its rounds.
        let e = refusal(svc.league_play(league, ann, Some(ben)).await);
        assert!(e.contains("pairs its rounds"), "{e}");
        let r = svc.league_play(league, ann, None).await.expect("round 1");
        assert!(r.text.contains("round 1 pairings"), "{}", r.text);
        for round in 1..=3 {
            start_round(svc, league, round).await;
            let ms = round_of(svc, league, round).await;
            assert_eq!(ms.len(), 2, "round {round}");
            let mut seen: Vec<Id> = ms
                .iter()
                .flat_map(|m| std::iter::once(m.a_user).chain(m.b_user))
                .collect();
            seen.sort();
            assert_eq!(seen.len(), 4, "everyone plays once in round {round}");
            seen.dedup();
            assert_eq!(seen.len(), 4, "everyone plays once in round {round}");
            for m in ms {
                let b = m.b_user.expect("no byes among four");
                play_out(svc, m.id, &script(m.a_user, b)).await;
            }
        }
        let matches = svc.db.league_matches(league).await.expect("matches");
        assert_eq!(matches.len(), 6);
        let mut pairs: Vec<(Id, Id)> = matches
            .iter()
            .filter_map(|m| m.b_user.map(|b| (m.a_user.min(b), m.a_user.max(b))))
            .collect();
        pairs.sort();
        pairs.dedup();
        assert_eq!(pairs.len(), 6, "every pair met once");
        let e = refusal(svc.league_play(league, ben, None).await);
        assert!(e.contains("every round of") && e.contains("(3)"), "{e}");
        // Every game the league started is a classic game, in its row and in the engine.
        let games = svc.db.league_games_of(league).await.expect("games");
        assert_eq!(games.len(), 2 + 3 + 3 + 2 + 3 + 2);
        for g in &games {
            let loaded = svc.load(g.game_id).await.expect("game");
            assert_eq!(loaded.row.ruleset, "classic");
            assert_eq!(loaded.game.ruleset, Ruleset::Classic);
        }
        let v = svc.league_standings(league).await.expect("standings");
        assert_standings(
            &v,
            &[
                (ann, 6, "2-1-0", 4.0 / 9.0, 5.0 / 8.0, 11.0 / 24.0),
                (ben, 6, "2-1-0", 4.0 / 9.0, 4.0 / 7.0, 10.0 / 21.0),
                (cat, 3, "1-2-0", 5.0 / 9.0, 3.0 / 7.0, 11.0 / 21.0),
                (dan, 3, "1-2-0", 5.0 / 9.0, 3.0 / 8.0, 13.0 / 24.0),
            ],
        );
        // As printed: Ann's OMW%, GW% and OGW%.
        assert!(v.text.contains(" 44.44  62.50  45.83 "), "{}", v.text);
        // Every game rated both players: Ann and Dan played eight games, Ben and Cat seven.
        for (who, n) in [(ann, 8), (ben, 7), (cat, 7), (dan, 8)] {
            let r = svc.db.rating(who, "constructed").await.expect("db");
            assert_eq!(r.map(|r| r.games), Some(n));
        }
    }
}

/// A round robin of five joined out of id order: five rounds, every pair meets exactly
/// once, each player sits out one round (a bye, a match win), and nobody plays twice in a
/// round. Before the fix the first round's circle was the join order and later rounds'
/// the id order, so pairs met twice.
#[tokio::test]
async fn a_round_robin_of_five_meets_every_pair_once() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let t = tag();
        let u = people(svc, &format!("r5{t}"), &["Ann", "Ben", "Cat", "Dan", "Eve"]).await;
        let setup = LeagueSetup {
            name: format!("RR5 {t}"),
            schedule: Some("round robin".into()),
            best_of: Some(1),
            seed: Some(9),
            ..Default::default()
        };
        let league = svc
            .league_create(u[0], &setup, 0, None)
            .await
            .expect("create")
            .league_id;
        for x in [u[2], u[4], u[0], u[3], u[1]] {
            svc.league_join(league, x, Some(&DeckChoice::Ready("red".into())))
                .await
                .expect("join");
            svc.clock.advance(60);
        }
        always_play(svc, league, &u).await;
        svc.league_play(league, u[0], None).await.expect("round 1");
        for round in 1..=5 {
            start_round(svc, league, round).await;
            let ms = round_of(svc, league, round).await;
            assert_eq!(ms.len(), 3, "two matches and a bye in round {round}");
            let mut seen: Vec<Id> = ms
                .iter()
                .flat_map(|m| std::iter::once(m.a_user).chain(m.b_user))
                .collect();
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len(), 5, "round {round}: {ms:#?}");
            for m in ms.iter().filter(|m| m.b_user.is_some()) {
                // The second player concedes.
                play_out(svc, m.id, &[m.b_user.expect("b")]).await;
            }
        }
        let matches = svc.db.league_matches(league).await.expect("matches");
        assert_eq!(matches.len(), 15, "ten matches and five byes");
        let mut pairs: Vec<(Id, Id)> = matches
            .iter()
            .filter_map(|m| m.b_user.map(|b| (m.a_user.min(b), m.a_user.max(b))))
            .collect();
        pairs.sort();
        pairs.dedup();
        assert_eq!(pairs.len(), 10, "every pair met once: {matches:#?}");
        let mut byes: Vec<Id> = matches
            .iter()
            .filter(|m| m.b_user.is_none())
            .map(|m| m.a_user)
            .collect();
        byes.sort();
        let mut all = u.clone();
        all.sort();
        assert_eq!(byes, all, "one bye each");
        let v = svc.league_standings(league).await.expect("standings");
        let total: u32 = v.lines.iter().map(|l| l.points).sum();
        assert_eq!(total, 15 * 3, "every match and bye is a win");
        let e = refusal(svc.league_play(league, u[1], None).await);
        assert!(e.contains("every round of"), "{e}");
    }
}

/// A drop in the middle of a Swiss event (MTR 2.10: effective before the next pairings):
/// after round 1 X (a loser) drops before the round ends; round 2 pairs the other three
/// (the bye to the lowest score, Y), round 3 gives the bye to the lowest score without one
/// (W2; Y had one) and pairs W1 with Y. X keeps their 0-1 line and counts in W1's OMW%
/// (raised to 0.33); byes are left out of the opponents' figures. Results, by hand:
///
/// | player | rounds | record | games | OMW% | GW% | OGW% |
/// |---|---|---|---|---|---|---|
/// | W2 | beat Y 2-0, lost W1 1-2, bye | 2-1 | 5-2 (bye 2-0) | (2/3+2/3)/2 | 15/21 = 5/7 | (2/3+4/7)/2 = 13/21 |
/// | Y | lost W2 0-2, bye, beat W1 2-0 | 2-1 | 4-2 | (2/3+2/3)/2 | 12/18 = 2/3 | (5/7+4/7)/2 = 9/14 |
/// | W1 | beat X 2-0, beat W2 2-1, lost Y 0-2 | 2-1 | 4-3 | (0.33+2/3+2/3)/3 | 12/21 = 4/7 | (0.33+5/7+2/3)/3 |
/// | X (dropped) | lost W1 0-2 | 0-1 | 0-2 | 2/3 | 0/6, raised to 0.33 | 4/7 |
#[tokio::test]
async fn a_drop_mid_swiss_leaves_the_pairings_and_counts_in_the_standings() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let t = tag();
        let u = people(svc, &format!("sw{t}"), &["Ann", "Ben", "Cat", "Dan"]).await;
        let setup = LeagueSetup {
            name: format!("Swiss {t}"),
            schedule: Some("swiss 3".into()),
            seed: Some(21),
            ..Default::default()
        };
        let league = svc
            .league_create(u[0], &setup, 0, None)
            .await
            .expect("create")
            .league_id;
        for x in &u {
            svc.league_join(league, *x, Some(&DeckChoice::Ready("red".into())))
                .await
                .expect("join");
        }
        always_play(svc, league, &u).await;
        svc.league_play(league, u[0], None).await.expect("round 1");
        start_round(svc, league, 1).await;
        let r1 = round_of(svc, league, 1).await;
        assert_eq!(r1.len(), 2);
        let (w1, x) = (r1[0].a_user, r1[0].b_user.expect("b"));
        let (w2, y) = (r1[1].a_user, r1[1].b_user.expect("b"));
        play_out(svc, r1[0].id, &[x, x]).await;
        // X drops while round 1 is still being played.
        let r = svc.league_drop(league, x).await.expect("drop");
        assert!(r.text.contains("record stays"), "{}", r.text);
        play_out(svc, r1[1].id, &[y, y]).await;
        // Round 2: without X; Y (the lowest score) has the bye.
        let r2 = round_of(svc, league, 2).await;
        assert_eq!(r2.len(), 2, "{r2:#?}");
        assert!(
            r2.iter()
                .all(|m| m.a_user != x && m.b_user != Some(x) && m.status != "nullified")
        );
        let bye = r2.iter().find(|m| m.b_user.is_none()).expect("a bye");
        assert_eq!(
            (bye.a_user, bye.status.as_str(), bye.a_wins),
            (y, "finished", 2)
        );
        let m2 = r2.iter().find(|m| m.b_user.is_some()).expect("a match");
        let mut two = [m2.a_user, m2.b_user.expect("b")];
        two.sort();
        let mut want = [w1, w2];
        want.sort();
        assert_eq!(two, want);
        assert!(refusal(svc.league_play(league, x, None).await).contains("dropped"));
        start_round(svc, league, 2).await;
        play_out(svc, m2.id, &[w2, w1, w2]).await;
        // Round 3: W2 has the bye (Y had one); W1 meets Y.
        let r3 = round_of(svc, league, 3).await;
        assert_eq!(r3.len(), 2, "{r3:#?}");
        let bye = r3.iter().find(|m| m.b_user.is_none()).expect("a bye");
        assert_eq!(bye.a_user, w2);
        let m3 = r3.iter().find(|m| m.b_user.is_some()).expect("a match");
        let mut two = [m3.a_user, m3.b_user.expect("b")];
        two.sort();
        let mut want = [w1, y];
        want.sort();
        assert_eq!(two, want);
        start_round(svc, league, 3).await;
        play_out(svc, m3.id, &[w1, w1]).await;
        assert!(round_of(svc, league, 4).await.is_empty(), "three rounds");
        let v = svc.league_standings(league).await.expect("standings");
        assert_standings(
            &v,
            &[
                (w2, 6, "2-1-0", 2.0 / 3.0, 5.0 / 7.0, 13.0 / 21.0),
                (y, 6, "2-1-0", 2.0 / 3.0, 2.0 / 3.0, 9.0 / 14.0),
                (
                    w1,
                    6,
                    "2-1-0",
                    (0.33 + 4.0 / 3.0) / 3.0,
                    4.0 / 7.0,
                    (0.33 + 5.0 / 7.0 + 2.0 / 3.0) / 3.0,
                ),
                (x, 0, "0-1-0", 2.0 / 3.0, 0.33, 4.0 / 7.0),
            ],
        );
        assert!(v.lines[3].dropped && !v.lines[0].dropped);
        assert!(v.text.contains("(dropped)"), "{}", v.text);
    }
}

/// The organiser awards a forfeit (in words, as the terminal says it): the forfeiting
/// player loses the match 0-2, recorded with who did it and why; the game being played
/// ends with their concession (not left waiting in the service), no game is recorded and
/// no rating moves. Bad input changes nothing: a non-organiser, no reason, a loser who is
/// not in the match, a match of no league of theirs.
#[tokio::test]
async fn an_organiser_awards_a_forfeit_recorded_with_who_and_why() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let t = tag();
        let (league, u) = sealed_league(svc, &format!("ff{t}")).await;
        let (ann, ben, cat, dan) = (u[0], u[1], u[2], u[3]);
        for x in [ben, cat, dan] {
            svc.league_join(league, x, None).await.expect("join");
        }
        always_play(svc, league, &[ben, cat, dan]).await;
        svc.league_play(league, ben, Some(cat))
            .await
            .expect("challenge");
        let m = svc.db.league_matches(league).await.expect("m")[0].clone();
        let g = m.game_id.expect("game 1 in progress");
        let forfeit = |loser| OrganiserAction::Forfeit { loser };
        for (by, action, reason, want) in [
            (dan, forfeit(cat), "late", "only the organisers"),
            (ann, forfeit(cat), "  ", "say why"),
            (ann, forfeit(dan), "late", "Dan is not playing in match"),
        ] {
            let e = refusal(
                svc.league_organise(league, by, false, m.id, action, reason)
                    .await,
            );
            assert!(e.contains(want), "{e}");
        }
        let e = refusal(
            svc.league_organise(league, ann, false, m.id + 1000, forfeit(cat), "late")
                .await,
        );
        assert!(e.contains("has no match"), "{e}");
        assert_eq!(
            svc.db.league_match(m.id).await.expect("m").expect("m"),
            m,
            "refusals changed nothing"
        );
        assert!(svc.db.league_actions(league).await.expect("log").is_empty());
        let l = svc.league_ctx(league).await.expect("l");
        let r = svc
            .league_words(
                ann,
                l.row.guild_id,
                Some(&l.def.name),
                &format!("forfeit {} Cat no-show for two weeks", m.id),
                false,
            )
            .await
            .expect("forfeit");
        assert!(
            r.text
                .contains("a forfeit by Cat by Ann: no-show for two weeks"),
            "{}",
            r.text
        );
        assert!(r.pings.contains(&ben) && r.pings.contains(&cat));
        let after = svc.db.league_match(m.id).await.expect("m").expect("m");
        let (ben_wins, cat_wins) = if after.a_user == ben {
            (after.a_wins, after.b_wins)
        } else {
            (after.b_wins, after.a_wins)
        };
        assert_eq!(
            (after.status.as_str(), ben_wins, cat_wins, after.game_id),
            ("finished", 2, 0, None)
        );
        // The game in progress ended with Cat's concession.
        assert_eq!(r.plans.len(), 1);
        let loaded = svc.load(g).await.expect("game");
        assert_eq!(loaded.row.status, "finished");
        let ben_seat = loaded
            .seats
            .iter()
            .find(|s| s.user_id == ben)
            .expect("seat")
            .seat;
        assert_eq!(
            loaded.game.result,
            Some(engine::GameResult::Won(engine::PlayerId(ben_seat as u8)))
        );
        // No game recorded, no rating moved; the sweep does not record the conceded game.
        svc.league_tick_one(league).await.expect("tick");
        assert!(svc.db.league_games(m.id).await.expect("g").is_empty());
        for x in [ben, cat] {
            assert_eq!(svc.db.rating(x, "sealed").await.expect("db"), None);
        }
        let log = svc.db.league_actions(league).await.expect("log");
        assert_eq!(log.len(), 1);
        assert_eq!(
            (
                log[0].kind.as_str(),
                log[0].by_user,
                log[0].match_id,
                log[0].reason.as_str()
            ),
            ("forfeit", ann, Some(m.id), "no-show for two weeks")
        );
        assert!(log[0].detail.contains("\"before\""), "{}", log[0].detail);
        let v = svc.league_standings(league).await.expect("standings");
        let line = |x: Id| v.lines.iter().find(|l| l.user == x).expect("line");
        assert_eq!((line(ben).points, line(ben).record.as_str()), (3, "1-0-0"));
        assert_eq!((line(cat).points, line(cat).record.as_str()), (0, "0-1-0"));
        // Ben may play on; Cat has met Ben this run.
        let e = refusal(svc.league_play(league, cat, Some(ben)).await);
        assert!(e.contains("already played"), "{e}");
    }
}

/// The organiser nullifies a match while its game is being played: the match counts for
/// nothing, and the game ends without a result (status `nullified`), so it does not wait in
/// the service: a later move in it is refused with that word, and both players are told.
#[tokio::test]
async fn nullifying_a_match_during_its_game_ends_the_game_without_a_result() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let t = tag();
        let (league, u) = sealed_league(svc, &format!("nu{t}")).await;
        let (ann, ben, cat) = (u[0], u[1], u[2]);
        for x in [ben, cat] {
            svc.league_join(league, x, None).await.expect("join");
        }
        always_play(svc, league, &[ben, cat]).await;
        svc.league_play(league, ben, Some(cat))
            .await
            .expect("challenge");
        let m = svc.db.league_matches(league).await.expect("m")[0].clone();
        let g = m.game_id.expect("game 1 in progress");
        let r = svc
            .league_organise(
                league,
                ann,
                false,
                m.id,
                OrganiserAction::Nullify,
                "wrong decks",
            )
            .await
            .expect("nullify");
        assert!(
            r.text.contains(&format!(
                "nullified; its game in progress (game {g}) ends without a result by Ann: wrong decks"
            )),
            "{}",
            r.text
        );
        assert!(r.pings.contains(&ben) && r.pings.contains(&cat));
        let after = svc.db.league_match(m.id).await.expect("m").expect("m");
        assert_eq!((after.status.as_str(), after.game_id), ("nullified", None));
        let loaded = svc.load(g).await.expect("game");
        assert_eq!(loaded.row.status, "nullified");
        assert_eq!(loaded.game.result, None, "no result is made up");
        let e = match svc.command(ben, g, "pass", None).await {
            Err(e) => e.to_string(),
            Ok(_) => panic!("a move in a nullified game was accepted"),
        };
        assert!(e.contains("nullified"), "{e}");
        // Nothing is recorded for it, and a second nullify is refused.
        svc.league_tick_one(league).await.expect("tick");
        assert!(svc.db.league_games(m.id).await.expect("g").is_empty());
        let e = refusal(
            svc.league_organise(league, ann, false, m.id, OrganiserAction::Nullify, "again")
                .await,
        );
        assert!(e.contains("nullified already"), "{e}");
    }
}

/// The league ends (after its grace period) while game 1 of a match waits for its chooser
/// to play or draw: the match is recorded as unfinished (0-0, a draw: one point each, no
/// game), the question is withdrawn (a late answer is refused), both players are told,
/// and the final standings follow.
#[tokio::test]
async fn the_league_ending_while_game_one_waits_for_its_chooser_records_an_unfinished_match() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let (league, ann, ben, cat, _, m) = a_human_match(svc).await;
        assert_eq!((m.game_id, m.choice_game), (None, Some(1)));
        let chooser = m.chooser.expect("chooser");
        let l = svc.league_ctx(league).await.expect("l");
        svc.clock
            .advance(l.def.dates.ends_at + l.def.clock.grace + 60 - svc.now());
        let ticks: Vec<LeagueReply> = svc
            .league_tick_one(league)
            .await
            .expect("tick")
            .into_iter()
            .filter(|r| r.league_id == league)
            .collect();
        let name = svc.name_of(chooser).await;
        let notice = ticks
            .iter()
            .find(|r| r.text.contains("unfinished at the league's end"))
            .unwrap_or_else(|| panic!("no notice: {ticks:?}"));
        assert!(
            notice.text.contains(&format!(
                "while {name} had not yet chosen to play or draw in game 1: it stands at Ann 0-0 Ben, a draw"
            )),
            "{}",
            notice.text
        );
        assert!(notice.pings.contains(&ann) && notice.pings.contains(&ben));
        assert!(
            ticks.iter().any(|r| r.text.starts_with("Final standings")),
            "{ticks:?}"
        );
        let after = svc.db.league_match(m.id).await.expect("m").expect("m");
        assert_eq!(after.status, "finished");
        assert_eq!(
            after.note.as_deref(),
            Some("unfinished at the league's end")
        );
        assert_eq!(
            (after.game_id, after.choice_game, after.choice_asked_at),
            (None, None, None)
        );
        assert_eq!((after.a_wins, after.b_wins, after.draws), (0, 0, 0));
        assert!(svc.db.league_games(m.id).await.expect("g").is_empty());
        assert_eq!(
            svc.league_pending_choice(league, chooser).await.expect("q"),
            None
        );
        let late = refusal(
            svc.league_choose(league, chooser, false, Some((m.id, 1)))
                .await,
        );
        assert!(late.contains("no longer waiting"), "{late}");
        assert_eq!(
            svc.db.league_match(m.id).await.expect("m").expect("m"),
            after
        );
        let v = svc.league_standings(league).await.expect("standings");
        let line = |x: Id| v.lines.iter().find(|l| l.user == x).expect("line");
        for x in [ann, ben] {
            assert_eq!((line(x).points, line(x).record.as_str()), (1, "0-0-1"));
        }
        assert_eq!(line(cat).points, 0);
        assert!(v.title.contains("final"), "{}", v.title);
    }
}

/// The organiser sets the start and when entries close, in words (the terminal) as in
/// Discord: members join before the start but nobody plays; play begins at the start;
/// entries close when said. A start that is not a time is refused and creates nothing.
#[tokio::test]
async fn a_league_starts_and_closes_its_entries_when_its_organiser_says() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let t = tag();
        let u = people(svc, &format!("dt{t}"), &["Ann", "Ben", "Cat", "Dan"]).await;
        let name = format!("Later {t}");
        let e = refusal(
            svc.league_words(
                u[0],
                0,
                None,
                &format!("create {name} product 3 TSP starts next week"),
                false,
            )
            .await,
        );
        assert!(e.contains("start `next week`"), "{e}");
        assert!(svc.league_find(0, Some(&name)).await.is_err());
        let r = svc
            .league_words(
                u[0],
                0,
                None,
                &format!("create {name} product 3 TSP starts in 2 days entries 3 days days 6"),
                false,
            )
            .await
            .expect("create");
        assert!(
            r.text.contains("UTC (in 2.0 days), entries close")
                && r.text.contains("UTC (in 5.0 days), ends")
                && r.text.contains("UTC (in 8.0 days)"),
            "{}",
            r.text
        );
        let l = svc.league_ctx(r.league_id).await.expect("l");
        assert_eq!(l.def.dates.starts_at, svc.now() + 2 * 86_400);
        let words = |who: Id, w: &'static str| {
            let name = name.clone();
            async move { svc.league_words(who, 0, Some(&name), w, false).await }
        };
        for x in [u[1], u[2]] {
            words(x, "join").await.expect("join before the start");
        }
        always_play(svc, l.row.id, &[u[1], u[2]]).await;
        let e = refusal(words(u[1], "play").await);
        assert!(e.contains("has not started yet"), "{e}");
        assert!(svc.db.league_matches(l.row.id).await.expect("m").is_empty());
        svc.clock.advance(2 * 86_400);
        svc.league_play(l.row.id, u[1], Some(u[2]))
            .await
            .expect("play after the start");
        svc.clock.advance(3 * 86_400);
        let e = refusal(words(u[3], "join").await);
        assert!(e.contains("closed"), "{e}");
        assert!(svc.db.member(l.row.id, u[3]).await.expect("m").is_none());
    }
}

/// Round deadlines are reminded (Swiss, round robin): a day before the deadline of round
/// 1, the players of the match still being played are told once, with the deadline and
/// what happens after it; the players of a finished match are not.
#[tokio::test]
async fn a_round_deadline_is_reminded_once_to_the_players_still_playing() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let t = tag();
        let u = people(svc, &format!("rd{t}"), &["Ann", "Ben", "Cat", "Dan"]).await;
        let setup = LeagueSetup {
            name: format!("Deadlines {t}"),
            schedule: Some("swiss".into()),
            seed: Some(4),
            ..Default::default()
        };
        let league = svc
            .league_create(u[0], &setup, 0, None)
            .await
            .expect("create")
            .league_id;
        for x in &u {
            svc.league_join(league, *x, Some(&DeckChoice::Ready("red".into())))
                .await
                .expect("join");
        }
        always_play(svc, league, &u).await;
        svc.league_play(league, u[0], None).await.expect("round 1");
        start_round(svc, league, 1).await;
        let r1 = round_of(svc, league, 1).await;
        let done = &r1[1];
        play_out(
            svc,
            done.id,
            &[done.b_user.expect("b"), done.b_user.expect("b")],
        )
        .await;
        let open = svc.db.league_match(r1[0].id).await.expect("m").expect("m");
        let l = svc.league_ctx(league).await.expect("l");
        let deadline = l.def.dates.round_deadline(0, l.def.clock.round_days);
        let reminders = |ticks: Vec<LeagueReply>| -> Vec<LeagueReply> {
            ticks
                .into_iter()
                .filter(|r| r.league_id == league && r.text.contains("deadline is in"))
                .collect()
        };
        svc.clock.advance(deadline - 25 * 3_600 - svc.now());
        assert!(reminders(svc.league_tick_one(league).await.expect("tick")).is_empty());
        svc.clock.advance(2 * 3_600);
        let got = reminders(svc.league_tick_one(league).await.expect("tick"));
        assert_eq!(got.len(), 1, "{got:?}");
        let (an, bn) = (
            svc.name_of(open.a_user).await,
            svc.name_of(open.b_user.expect("b")).await,
        );
        assert!(
            got[0].text.contains(&format!(
                "round 1's deadline is in 23 h 0 min ({}): {an} vs {bn} stands at 0-0 and game {} is being played. After it, a player waiting for their opponent may claim the game",
                crate::league::clocks::utc(deadline),
                open.game_id.expect("game")
            )),
            "{}",
            got[0].text
        );
        assert_eq!(got[0].pings, vec![open.a_user, open.b_user.expect("b")]);
        assert!(
            reminders(svc.league_tick_one(league).await.expect("tick")).is_empty(),
            "reminded once"
        );
    }
}

/// Standings of many players: 45 members with long names are all in the standings (and
/// in its image's scene), the text table shows the first 40 (names cut to 16 characters)
/// and says how many more there are, within an embed's 4096 characters.
#[tokio::test]
async fn the_standings_of_45_players_fit_an_embed_and_the_image_lists_everyone() {
    let (svcs, _dir) = services().await;
    for svc in &svcs {
        let t = tag();
        let org = svc.user(&format!("org-{t}"), "Org").await.expect("user");
        let setup = LeagueSetup {
            name: format!("A long league name for its standings {t}"),
            best_of: Some(1),
            ..Default::default()
        };
        let league = svc
            .league_create(org, &setup, 0, None)
            .await
            .expect("create")
            .league_id;
        for i in 0..45 {
            let u = svc
                .user(
                    &format!("many{i}-{t}"),
                    &format!("Player With A Very Long Name {i:02}"),
                )
                .await
                .expect("user");
            svc.league_join(league, u, Some(&DeckChoice::Ready("green".into())))
                .await
                .expect("join");
        }
        let v = svc.league_standings(league).await.expect("standings");
        assert_eq!(v.lines.len(), 45);
        let rows: Vec<&str> = v
            .text
            .lines()
            .filter(|l| l.contains("Player With A Ve"))
            .collect();
        assert_eq!(rows.len(), view::MAX_LINES, "{}", v.text);
        assert!(
            rows.iter().all(|r| !r.contains("Player With A Ver")),
            "names cut to 16"
        );
        assert!(v.text.contains("... and 5 more"), "{}", v.text);
        assert!(v.text.chars().count() <= 4096);
        assert!(v.title.chars().count() <= 256);
        assert_eq!(view::standings_scene(&v).rows.len(), 45);
    }
}
