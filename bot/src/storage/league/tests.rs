//! League storage, on SQLite always and on PostgreSQL when `TEST_DATABASE_URL` is set.

use super::*;
use crate::storage::tests::test_dbs;

fn uniq(tag: &str) -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{tag}-{t}-{}", N.fetch_add(1, Ordering::SeqCst))
}

async fn users(db: &Db, n: usize) -> Vec<Id> {
    let mut out = Vec::new();
    for i in 0..n {
        out.push(
            db.upsert_user(&uniq("lu"), &format!("L{i}"), 1)
                .await
                .expect("user")
                .id,
        );
    }
    out
}

async fn a_game(db: &Db, by: Id) -> Id {
    db.create_game(
        &NewGame {
            status: "challenge".into(),
            ruleset: "modern".into(),
            seed: 7,
            created_by: by,
            guild_id: None,
            channel_id: None,
            thread_id: None,
            now: 1,
        },
        &[],
    )
    .await
    .expect("game")
}

fn new_match(league: Id, a: Id, b: Option<Id>, game: Option<Id>) -> MatchRow {
    MatchRow {
        id: 0,
        league_id: league,
        round: 1,
        a_user: a,
        b_user: b,
        status: "active".into(),
        a_wins: 0,
        b_wins: 0,
        draws: 0,
        game_id: game,
        chooser: Some(a),
        choice_game: None,
        choice_asked_at: None,
        choice_reminded: false,
        clock: Some("{\"remaining\":[1,2]}".into()),
        note: None,
        created_at: 5,
        finished_at: None,
        a_run: 1,
        b_run: 2,
    }
}

#[tokio::test]
async fn leagues_members_and_builds_round_trip() {
    let (dbs, _dir) = test_dbs().await;
    for db in &dbs {
        let u = users(db, 3).await;
        let guild = (u[0] << 8) + 1;
        let name = uniq("league");
        let id = db
            .create_league(&name, guild, Some(9), u[0], "{\"x\": 1}", u64::MAX - 3, 10)
            .await
            .expect("create")
            .expect("new");
        assert!(
            db.create_league(&name, guild, None, u[1], "{}", 1, 11)
                .await
                .expect("query")
                .is_none(),
            "{}: one name per server",
            db.backend()
        );
        let l = db.league(id).await.expect("load").expect("found");
        assert_eq!(
            (l.name.as_str(), l.guild_id, l.seed),
            (name.as_str(), guild, u64::MAX - 3)
        );
        assert!(l.def.contains("\"x\""));
        assert_eq!(l.status, "open");
        assert_eq!(db.leagues_in(guild).await.expect("list")[0].id, id);
        assert!(
            db.set_league_status(id, "open", "final")
                .await
                .expect("status")
        );
        assert!(
            !db.set_league_status(id, "open", "final")
                .await
                .expect("status")
        );

        assert!(
            db.add_member(id, u[1], Some("{\"packs\": []}"), 7, 20)
                .await
                .expect("join")
        );
        assert!(!db.add_member(id, u[1], None, 7, 21).await.expect("again"));
        assert!(db.add_member(id, u[2], None, 7, 22).await.expect("join"));
        let ms = db.members(id).await.expect("members");
        assert_eq!(
            ms.iter().map(|m| m.user_id).collect::<Vec<_>>(),
            vec![u[1], u[2]]
        );
        assert_eq!(
            ms[0].pool.as_deref().map(|p| p.contains("packs")),
            Some(true)
        );
        assert_eq!(ms[0].vacations, "[]");
        db.set_member_pool(id, u[2], "{\"packs\": [1]}")
            .await
            .expect("pool");
        db.set_member_deck(id, u[2], "main").await.expect("deck");
        db.set_queued(id, u[2], Some(30)).await.expect("queue");
        db.set_vacations(id, u[2], "[{\"start\":1,\"end\":2}]", 6)
            .await
            .expect("vacation");
        // A newcomer is asked to play or draw; a standing answer is kept.
        let m = db.member(id, u[2]).await.expect("member").expect("found");
        assert_eq!(m.play_draw, "ask");
        db.set_play_draw(id, u[2], "draw").await.expect("draw");
        let m = db.member(id, u[2]).await.expect("member").expect("found");
        assert_eq!(m.deck_name.as_deref(), Some("main"));
        assert_eq!(
            (m.queued_at, m.vacation_days_left, m.play_draw.as_str()),
            (Some(30), 6, "draw")
        );
        assert!(m.vacations.contains("start"));
        assert!(db.drop_member(id, u[2], 40).await.expect("drop"));
        assert!(!db.drop_member(id, u[2], 41).await.expect("twice"));
        let m = db.member(id, u[2]).await.expect("member").expect("found");
        assert_eq!((m.dropped_at, m.queued_at), (Some(40), None));
        assert_eq!(db.leagues_of_user(u[1]).await.expect("mine")[0].id, id);

        db.save_league_deck(id, u[1], "b", "40 Forest\n", 50)
            .await
            .expect("save");
        db.save_league_deck(id, u[1], "a", "40 Island\n", 51)
            .await
            .expect("save");
        db.save_league_deck(id, u[1], "b", "40 Swamp\n", 52)
            .await
            .expect("replace");
        let ds = db.league_decks(id, u[1]).await.expect("decks");
        assert_eq!(
            ds.iter().map(|d| d.name.as_str()).collect::<Vec<_>>(),
            vec!["a", "b"]
        );
        assert_eq!(ds[1].list, "40 Swamp\n");

        // A new run keeps the old one (pool and builds) and starts from one build.
        let m = db.member(id, u[1]).await.expect("member").expect("found");
        assert_eq!((m.run, m.run_started_at), (1, None));
        let done = RunRow {
            league_id: id,
            user_id: u[1],
            run: 1,
            pool: m.pool.clone(),
            decks: "[{\"name\":\"a\",\"list\":\"40 Island\\n\"}]".into(),
            deck_name: Some("a".into()),
            started_at: m.joined_at,
            ended_at: 60,
        };
        assert!(
            db.start_run(&done, Some("{\"packs\": [2]}"), ("auto", "40 Plains\n"), 60)
                .await
                .expect("run")
        );
        // The same run cannot be ended twice (a racing command changes nothing).
        assert!(
            !db.start_run(&done, Some("{\"packs\": [3]}"), ("x", "40 Forest\n"), 61)
                .await
                .expect("again")
        );
        let m = db.member(id, u[1]).await.expect("member").expect("found");
        assert_eq!((m.run, m.run_started_at), (2, Some(60)));
        assert_eq!(m.deck_name.as_deref(), Some("auto"));
        assert!(m.pool.as_deref().is_some_and(|p| p.contains('2')));
        let ds = db.league_decks(id, u[1]).await.expect("decks");
        assert_eq!(ds.len(), 1, "{}", db.backend());
        assert_eq!(ds[0].list, "40 Plains\n");
        let runs = db.league_runs(id, u[1]).await.expect("runs");
        assert_eq!(runs.len(), 1);
        assert_eq!((runs[0].run, runs[0].ended_at), (1, 60));
        assert!(runs[0].decks.contains("40 Island"));
        assert!(runs[0].pool.as_deref().is_some_and(|p| p.contains("packs")));
        // A dropped member starts no run.
        let dropped = RunRow {
            user_id: u[2],
            ..done
        };
        assert!(
            !db.start_run(&dropped, None, ("y", "40 Forest\n"), 62)
                .await
                .expect("dropped")
        );
        assert!(db.league_runs(id, u[2]).await.expect("runs").is_empty());
    }
}

#[tokio::test]
async fn matches_games_ratings_and_organiser_actions() {
    let (dbs, _dir) = test_dbs().await;
    for db in &dbs {
        let u = users(db, 3).await;
        let id = db
            .create_league(&uniq("m"), 0, None, u[0], "{}", 1, 1)
            .await
            .expect("create")
            .expect("new");
        for x in &u {
            db.add_member(id, *x, None, 7, 2).await.expect("join");
            db.set_queued(id, *x, Some(3)).await.expect("queue");
        }
        let g1 = a_game(db, u[0]).await;
        let mid = db
            .create_match(&new_match(id, u[0], Some(u[1]), Some(g1)))
            .await
            .expect("match");
        // Both players left the queue; the third is still waiting.
        let ms = db.members(id).await.expect("members");
        let q: Vec<Option<i64>> = ms.iter().map(|m| m.queued_at).collect();
        assert_eq!(q, vec![None, None, Some(3)], "{}", db.backend());
        let m = db.match_of_game(g1).await.expect("by game").expect("found");
        assert_eq!((m.id, m.chooser, m.b_user), (mid, Some(u[0]), Some(u[1])));
        assert!(m.clock.as_deref().is_some_and(|c| c.contains("remaining")));

        let g2 = a_game(db, u[0]).await;
        let mut after = m.clone();
        after.a_wins = 1;
        after.game_id = Some(g2);
        after.chooser = Some(u[1]);
        let rec = GameRecord {
            game: LeagueGameRow {
                match_id: mid,
                game_no: 1,
                game_id: g1,
                first_user: u[0],
                winner: Some(u[0]),
                draw: false,
                reason: "life".into(),
                finished_at: 100,
            },
            after: after.clone(),
            expected_status: "active".into(),
            ratings: vec![RatingRow {
                user_id: u[0],
                format: "sealed".into(),
                rating: 1662.3,
                deviation: 290.3,
                volatility: 0.06,
                games: 1,
                last_played: Some(100),
            }],
        };
        assert!(db.record_game(&rec).await.expect("record"));
        assert!(
            !db.record_game(&rec).await.expect("twice"),
            "recorded once only"
        );
        let r = db
            .rating(u[0], "sealed")
            .await
            .expect("rating")
            .expect("found");
        assert!((r.rating - 1662.3).abs() < 1e-9 && r.games == 1);
        assert!(
            db.rating(u[0], "constructed")
                .await
                .expect("rating")
                .is_none()
        );
        assert_eq!(db.league_games(mid).await.expect("games").len(), 1);
        assert_eq!(
            db.league_games_of(id).await.expect("games")[0].winner,
            Some(u[0])
        );
        assert!(db.match_of_game(g1).await.expect("old game").is_none());
        assert_eq!(
            db.match_of_game(g2)
                .await
                .expect("new game")
                .map(|m| m.a_wins),
            Some(1)
        );

        // A bye, finished at once.
        let mut bye = new_match(id, u[2], None, None);
        bye.status = "finished".into();
        bye.a_wins = 2;
        db.create_match(&bye).await.expect("bye");
        assert_eq!(db.league_matches(id).await.expect("all").len(), 2);

        // An organiser nullifies the match: recorded with who and why.
        let mut null = after.clone();
        null.status = "nullified".into();
        null.game_id = None;
        assert!(
            db.organiser_action(&null, "active", u[0], "nullify", "wrong decks", "{}", 200)
                .await
                .expect("nullify")
        );
        assert!(
            !db.organiser_action(&null, "active", u[0], "nullify", "again", "{}", 201)
                .await
                .expect("stale"),
            "a stale organiser action changes nothing"
        );
        let acts = db.league_actions(id).await.expect("log");
        assert_eq!(acts.len(), 1);
        assert_eq!((acts[0].by_user, acts[0].kind.as_str()), (u[0], "nullify"));
        assert_eq!(acts[0].reason, "wrong decks");
        let m = db.league_match(mid).await.expect("match").expect("found");
        assert_eq!(m.status, "nullified");
        let mut back = m.clone();
        back.note = Some("fixed".into());
        assert!(db.update_match(&back, "nullified").await.expect("update"));
        assert!(!db.update_match(&back, "active").await.expect("stale"));
        db.set_rating(&RatingRow {
            user_id: u[1],
            format: "sealed".into(),
            rating: 1400.0,
            deviation: 300.0,
            volatility: 0.06,
            games: 3,
            last_played: None,
        })
        .await
        .expect("rating");
        assert_eq!(
            db.rating(u[1], "sealed").await.expect("r").map(|r| r.games),
            Some(3)
        );
    }
}

/// A play/draw question (migration 0007): asked only of an active match between games
/// (asking again is harmless); taken once (a second answer to the same question changes
/// nothing), and only for the game it was asked for; a match with a game running has no
/// question to ask, and writing the whole match (a game started) clears a question.
#[tokio::test]
async fn a_play_draw_question_is_asked_and_taken_once() {
    let (dbs, _dir) = test_dbs().await;
    for db in &dbs {
        let u = users(db, 2).await;
        let id = db
            .create_league(&uniq("q"), 0, None, u[0], "{}", 1, 1)
            .await
            .expect("create")
            .expect("new");
        let mid = db
            .create_match(&new_match(id, u[0], Some(u[1]), None))
            .await
            .expect("match");
        let pending = || async {
            db.league_match(mid)
                .await
                .expect("m")
                .expect("found")
                .choice_game
        };
        assert_eq!(pending().await, None, "{}", db.backend());
        assert!(db.ask_choice(mid, 1, 100).await.expect("ask"));
        assert!(
            db.ask_choice(mid, 1, 100).await.expect("ask"),
            "asked again"
        );
        assert_eq!(pending().await, Some(1));
        assert!(!db.take_choice(mid, 2).await.expect("take"), "not game 2's");
        assert!(db.take_choice(mid, 1).await.expect("take"));
        assert!(!db.take_choice(mid, 1).await.expect("take"), "taken once");
        assert_eq!(pending().await, None);
        // A game started over a question left pending clears it; then nothing to ask.
        assert!(db.ask_choice(mid, 1, 100).await.expect("ask"));
        let g = a_game(db, u[0]).await;
        let mut m = db.league_match(mid).await.expect("m").expect("found");
        assert_eq!(m.choice_game, Some(1));
        m.game_id = Some(g);
        assert!(db.update_match(&m, "active").await.expect("update"));
        assert_eq!(pending().await, None);
        assert!(!db.ask_choice(mid, 2, 100).await.expect("ask"));
        assert_eq!(pending().await, None);
    }
}

/// The rows a database had before migration 0007: users 1-3, league 1, members 1 (who
/// preferred to draw) and 2 (who did not).
const BEFORE_0007: [&str; 5] = [
    "INSERT INTO users (id, external_id, name, created_at) VALUES (1, 'm7-1', 'One', 1), (2, 'm7-2', 'Two', 1), (3, 'm7-3', 'Three', 1)",
    "INSERT INTO leagues (id, name, guild_id, created_by, def, seed, status, created_at) VALUES (1, 'Old', 0, 1, '{}', 1, 'open', 1)",
    "INSERT INTO league_members (league_id, user_id, joined_at, vacations, vacation_days_left, prefer_draw) VALUES (1, 1, 1, '[]', 7, TRUE)",
    "INSERT INTO league_members (league_id, user_id, joined_at, vacations, vacation_days_left, prefer_draw) VALUES (1, 2, 1, '[]', 7, FALSE)",
    "INSERT INTO league_matches (league_id, round, a_user, b_user, status, a_wins, b_wins, draws, created_at) VALUES (1, 0, 1, 2, 'active', 0, 0, 0, 1)",
];

/// After migration 0007, read through the storage: members from before keep what they had
/// (`prefer_draw` TRUE is `draw`, FALSE is `play`: the chooser played first unless they
/// preferred to draw), a member joining now is asked (`ask`), and the old match has no
/// question pending.
async fn after_0007(db: &Db) {
    let play_draw = |u| async move {
        db.member(1, u)
            .await
            .expect("member")
            .expect("found")
            .play_draw
    };
    assert_eq!(play_draw(1).await, "draw", "{}", db.backend());
    assert_eq!(play_draw(2).await, "play");
    assert!(db.add_member(1, 3, None, 7, 2).await.expect("join"));
    assert_eq!(play_draw(3).await, "ask", "a newcomer is asked");
    let m = db.league_matches(1).await.expect("matches");
    assert_eq!((m.len(), m[0].choice_game), (1, None));
}

/// Migration 0007 on a database of migration 0006 with members in it (SQLite, and
/// PostgreSQL when `TEST_DATABASE_URL` is set).
#[tokio::test]
async fn migration_0007_keeps_what_members_had_and_asks_newcomers() {
    let dir = tempfile::tempdir().expect("dir");
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("m7.db").display());
    let pool = sqlx::SqlitePool::connect(&url).await.expect("sqlite");
    let migrator = sqlx::migrate!("../migrations/sqlite");
    migrator.run_to(6, &pool).await.expect("migrations to 0006");
    for sql in BEFORE_0007 {
        sqlx::query(sql).execute(&pool).await.expect(sql);
    }
    pool.close().await;
    after_0007(&Db::connect(&url).await.expect("migrated")).await;
    if let Ok(url) = std::env::var("TEST_DATABASE_URL")
        && !url.trim().is_empty()
    {
        let own = crate::storage::tests::fresh_postgres_database(&url).await;
        let pool = sqlx::PgPool::connect(&own).await.expect("postgres");
        let migrator = sqlx::migrate!("../migrations/postgres");
        migrator.run_to(6, &pool).await.expect("migrations to 0006");
        for sql in BEFORE_0007 {
            sqlx::query(sql).execute(&pool).await.expect(sql);
        }
        pool.close().await;
        after_0007(&Db::connect(&own).await.expect("migrated")).await;
    }
}
