//! Every repository method, on SQLite always and on PostgreSQL when `TEST_DATABASE_URL`
//! is set.

use super::*;

/// A fresh SQLite file (kept alive by the returned guard) and, when configured, PostgreSQL.
pub(crate) async fn test_dbs() -> (Vec<Db>, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("test.db");
    let mut dbs = vec![
        Db::connect(&format!("sqlite://{}", path.display()))
            .await
            .expect("sqlite"),
    ];
    if let Ok(url) = std::env::var("TEST_DATABASE_URL")
        && !url.trim().is_empty()
    {
        let own = fresh_postgres_database(&url).await;
        dbs.push(
            Db::connect(&own)
                .await
                .expect("the fresh test database must be reachable"),
        );
    }
    (dbs, dir)
}

/// A new, empty PostgreSQL database for one test, on the server `TEST_DATABASE_URL` names
/// (its role needs CREATEDB), and its URL. Tests running at once then never see each
/// other's games: a test that moves its clock past every deadline and expires what is due
/// (`Service::tick`) expires only its own.
pub(crate) async fn fresh_postgres_database(url: &str) -> String {
    use sqlx::Connection;
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    let name = format!(
        "spellstack_t{}_{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    );
    let mut admin = sqlx::PgConnection::connect(url)
        .await
        .expect("TEST_DATABASE_URL must be reachable");
    static SWEPT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if !SWEPT.swap(true, Ordering::SeqCst) {
        drop_left_over_databases(&mut admin).await;
    }
    // The name is made here of digits and a fixed prefix: nothing outside goes into it.
    let create = format!("CREATE DATABASE {name}");
    sqlx::query(sqlx::AssertSqlSafe(create.as_str()))
        .execute(&mut admin)
        .await
        .expect("TEST_DATABASE_URL's role may create databases");
    let (base, query) = url.split_once('?').unwrap_or((url, ""));
    let server = base.rsplit_once('/').map_or(base, |(s, _)| s);
    if query.is_empty() {
        format!("{server}/{name}")
    } else {
        format!("{server}/{name}?{query}")
    }
}

/// The databases earlier test runs left behind (`spellstack_t<pid>_<n>` of a process that
/// no longer runs), dropped once per test process, so they don't pile up on the server. A
/// database still in use can't be dropped (PostgreSQL refuses), so a run at the same time
/// loses nothing.
async fn drop_left_over_databases(admin: &mut sqlx::PgConnection) {
    let names: Vec<String> =
        sqlx::query_scalar("SELECT datname FROM pg_database WHERE datname LIKE 'spellstack\\_t%'")
            .fetch_all(&mut *admin)
            .await
            .unwrap_or_default();
    for name in names {
        let Some(pid) = left_over_pid(&name) else {
            continue;
        };
        let alive = std::path::Path::new(&format!("/proc/{pid}")).exists();
        if pid == std::process::id() || alive {
            continue;
        }
        // Only names made of the prefix and digits reach here (left_over_pid).
        let drop = format!("DROP DATABASE IF EXISTS {name}");
        let _ = sqlx::query(sqlx::AssertSqlSafe(drop.as_str()))
            .execute(&mut *admin)
            .await;
    }
}

/// The process id in a test database's name `spellstack_t<pid>_<n>`, when the name is
/// exactly that shape.
fn left_over_pid(name: &str) -> Option<u32> {
    let (pid, n) = name.strip_prefix("spellstack_t")?.split_once('_')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(pid) || !digits(n) {
        return None;
    }
    pid.parse().ok()
}

#[test]
fn left_over_test_databases_are_recognised_by_their_exact_shape() {
    assert_eq!(left_over_pid("spellstack_t123_4"), Some(123));
    assert_eq!(left_over_pid("spellstack_test"), None);
    assert_eq!(left_over_pid("spellstack_t12_x"), None);
    assert_eq!(left_over_pid("spellstack_t_1"), None);
    assert_eq!(left_over_pid("spellstack_t1_2; DROP"), None);
}

fn uniq(tag: &str) -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{tag}-{t}-{}", N.fetch_add(1, Ordering::SeqCst))
}

async fn new_game(db: &Db, players: usize) -> (Id, Vec<Id>) {
    let mut users = Vec::new();
    for i in 0..players {
        users.push(
            db.upsert_user(&uniq("u"), &format!("P{i}"), 1)
                .await
                .expect("user")
                .id,
        );
    }
    let seats: Vec<NewSeat> = users
        .iter()
        .enumerate()
        .map(|(i, u)| NewSeat {
            user_id: *u,
            deck: (i == 0).then(|| "{\"name\":\"d\",\"cards\":[\"Forest\"]}".into()),
            accepted: i == 0,
            is_agent: false,
        })
        .collect();
    let g = NewGame {
        status: "challenge".into(),
        ruleset: "modern".into(),
        seed: u64::MAX - 5,
        created_by: users[0],
        guild_id: Some(1 << 60),
        channel_id: Some(2),
        thread_id: None,
        now: 100,
    };
    (
        db.create_game(&g, &seats).await.expect("create game"),
        users,
    )
}

fn commit(game: Id, expected: i64, n: usize, snapshot: &str) -> Commit {
    Commit {
        game_id: game,
        expected_version: expected,
        actions: (0..n)
            .map(|i| NewAction {
                seat: Some(i as i64 % 2),
                kind: "answer".into(),
                answer: Some("\"Pass\"".into()),
                state_hash: -(i as i64) - 1,
            })
            .collect(),
        snapshot: snapshot.into(),
        status: "active".into(),
        deadline: Some(1000),
        timeouts: vec![(1, 2)],
        now: 200,
    }
}

#[tokio::test]
async fn users_and_settings() {
    let (dbs, _dir) = test_dbs().await;
    for db in &dbs {
        let ext = uniq("discord");
        let u = db.upsert_user(&ext, "Ann", 5).await.expect("insert");
        let again = db.upsert_user(&ext, "Ann B", 6).await.expect("upsert");
        assert_eq!(u.id, again.id, "{}", db.backend());
        assert_eq!(again.name, "Ann B");
        assert_eq!(db.user(u.id).await.expect("get"), Some(again.clone()));
        assert_eq!(
            db.user_by_external(&ext).await.expect("get"),
            Some(again.clone())
        );
        assert_eq!(db.user(-1).await.expect("get"), None);
        assert_eq!(db.settings(u.id).await.expect("settings"), None);
        db.set_settings(u.id, "{\"a\":1}").await.expect("set");
        db.set_settings(u.id, "{\"a\":2}").await.expect("replace");
        let s: serde_json::Value =
            serde_json::from_str(&db.settings(u.id).await.expect("get").expect("some"))
                .expect("json");
        assert_eq!(s["a"], 2);
        assert!(db.set_settings(u.id, "not json").await.is_err());
    }
}

#[tokio::test]
async fn delivery_prefs_and_guild_language() {
    let (dbs, _dir) = test_dbs().await;
    for db in &dbs {
        let u = db.upsert_user(&uniq("p"), "Pat", 1).await.expect("user").id;
        assert_eq!(db.delivery_prefs(u).await.expect("get"), None);
        // A stops-only write keeps the defaults of the new columns.
        db.set_settings(u, "{\"a\":1}").await.expect("set");
        assert_eq!(
            db.delivery_prefs(u).await.expect("get"),
            Some((true, "every".to_string())),
            "{}",
            db.backend()
        );
        db.set_prefs(u, "{\"a\":3}", false, "reminders")
            .await
            .expect("prefs");
        assert_eq!(
            db.delivery_prefs(u).await.expect("get"),
            Some((false, "reminders".to_string()))
        );
        // Writing the stops again leaves the preferences alone.
        db.set_settings(u, "{\"a\":4}").await.expect("set");
        assert_eq!(
            db.delivery_prefs(u).await.expect("get"),
            Some((false, "reminders".to_string()))
        );
        assert!(db.set_prefs(u, "not json", true, "every").await.is_err());

        let g = 9_000_000_000_000_000_000 + (u % 1000);
        assert_eq!(db.guild_language(g).await.expect("get"), None);
        db.set_guild_language(g, "zh-hant", u, 5)
            .await
            .expect("set");
        db.set_guild_language(g, "english", u, 6)
            .await
            .expect("replace");
        assert_eq!(
            db.guild_language(g).await.expect("get").as_deref(),
            Some("english")
        );
    }
}

#[tokio::test]
async fn decks_crud() {
    let (dbs, _dir) = test_dbs().await;
    for db in &dbs {
        let u = db
            .upsert_user(&uniq("d"), "Deck Owner", 1)
            .await
            .expect("user")
            .id;
        let d = db
            .save_deck(u, "Red", "constructed", "60 Mountain\n", 1)
            .await
            .expect("save");
        let d2 = db
            .save_deck(u, "Red", "limited", "40 Mountain\n", 2)
            .await
            .expect("replace");
        assert_eq!(d.id, d2.id);
        db.save_deck(u, "Green", "constructed", "60 Forest\n", 3)
            .await
            .expect("save");
        let all = db.decks_of(u).await.expect("list");
        assert_eq!(
            all.iter().map(|d| d.name.as_str()).collect::<Vec<_>>(),
            vec!["Green", "Red"]
        );
        assert_eq!(
            db.deck_by_name(u, "Red")
                .await
                .expect("get")
                .map(|d| d.format),
            Some("limited".into())
        );
        assert!(db.delete_deck(u, "Red").await.expect("delete"));
        assert!(!db.delete_deck(u, "Red").await.expect("delete twice"));
        assert_eq!(db.deck_by_name(u, "Red").await.expect("get"), None);
    }
}

#[tokio::test]
async fn game_lifecycle_rows() {
    let (dbs, _dir) = test_dbs().await;
    for db in &dbs {
        let (id, users) = new_game(db, 2).await;
        let g = db.game(id).await.expect("get").expect("exists");
        assert_eq!(
            (g.status.as_str(), g.version, g.seed),
            ("challenge", 0, u64::MAX - 5),
            "{}",
            db.backend()
        );
        assert_eq!(g.guild_id, Some(1 << 60));
        assert_eq!(g.snapshot, Ok(None));
        let seats = db.seats(id).await.expect("seats");
        assert_eq!(seats.len(), 2);
        assert!(seats[0].accepted && !seats[1].accepted);
        db.accept_seat(id, 1, "{\"name\":\"x\",\"cards\":[]}")
            .await
            .expect("accept");
        assert!(db.accept_seat(id, 7, "{}").await.is_err());
        assert!(db.seats(id).await.expect("seats")[1].accepted);
        assert_eq!(
            db.games_of_user(users[1], true).await.expect("open").len(),
            1
        );
        assert_eq!(
            db.start_game(id, "{\"s\":1}", "{\"g\":1}", Some(50), 10)
                .await
                .expect("start"),
            1
        );
        assert!(matches!(
            db.start_game(id, "{}", "{}", None, 10).await,
            Err(StorageError::Conflict { .. })
        ));
        let v = db
            .commit(&commit(id, 1, 3, "{\"g\":2}"))
            .await
            .expect("commit");
        assert_eq!(v, 4);
        let g = db.game(id).await.expect("get").expect("exists");
        assert_eq!(
            (g.version, g.status.as_str(), g.deadline),
            (4, "active", Some(1000))
        );
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(
                g.snapshot.as_ref().expect("ok").as_deref().expect("some")
            )
            .expect("json")["g"],
            2
        );
        assert_eq!(db.seats(id).await.expect("seats")[1].timeouts, 2);
        let acts = db.actions(id).await.expect("actions");
        assert_eq!(
            acts.iter().map(|a| a.seq).collect::<Vec<_>>(),
            vec![2, 3, 4]
        );
        assert!(
            acts.iter()
                .all(|a| a.batch == 1 && a.answer.as_deref() == Some("\"Pass\""))
        );
        assert_eq!(acts[2].state_hash, -3);
        // A stale commit changes nothing.
        let e = db.commit(&commit(id, 1, 1, "{\"g\":3}")).await.unwrap_err();
        assert!(
            matches!(
                e,
                StorageError::Conflict {
                    expected: 1,
                    actual: Some(4)
                }
            ),
            "{e}"
        );
        assert_eq!(db.actions(id).await.expect("actions").len(), 3);
        assert!(matches!(
            db.commit(&commit(-5, 0, 1, "{}")).await,
            Err(StorageError::NotFound(_))
        ));
        // Deadlines, reminders, undo requests, pass-until, snapshot repair.
        assert_eq!(
            db.games_due(999)
                .await
                .expect("due")
                .iter()
                .filter(|g| g.0 == id)
                .count(),
            0
        );
        assert_eq!(
            db.games_due(1000)
                .await
                .expect("due")
                .iter()
                .filter(|g| g.0 == id)
                .count(),
            1
        );
        assert!(db.set_reminded(id, 4).await.expect("remind"));
        assert!(!db.set_reminded(id, 3).await.expect("stale remind"));
        assert!(
            db.games_due(1000)
                .await
                .expect("due")
                .iter()
                .any(|g| g.0 == id && g.2)
        );
        db.set_undo_request(id, 4, Some(users[0]), Some(1))
            .await
            .expect("undo");
        assert!(db.set_undo_request(id, 3, None, None).await.is_err());
        let g = db.game(id).await.expect("get").expect("exists");
        assert_eq!((g.undo_by, g.undo_batch), (Some(users[0]), Some(1)));
        assert_eq!(
            db.add_undo_consent(id, 4, &[], users[1])
                .await
                .expect("consent"),
            vec![users[1]]
        );
        assert!(
            db.add_undo_consent(id, 4, &[], 77).await.is_err(),
            "stale consents"
        );
        assert_eq!(
            db.add_undo_consent(id, 4, &[users[1]], 77)
                .await
                .expect("consent"),
            vec![users[1], 77]
        );
        assert_eq!(
            db.game(id)
                .await
                .expect("get")
                .expect("exists")
                .undo_consents,
            vec![users[1], 77]
        );
        db.set_undo_request(id, 4, None, None).await.expect("clear");
        assert!(
            db.game(id)
                .await
                .expect("get")
                .expect("exists")
                .undo_consents
                .is_empty()
        );
        assert!(
            db.add_undo_consent(id, 4, &[], 5).await.is_err(),
            "no request pending"
        );
        db.set_pass_until(id, 1, Some(9)).await.expect("pass until");
        assert_eq!(
            db.seats(id).await.expect("seats")[1].pass_until_turn,
            Some(9)
        );
        assert!(db.set_pass_until(id, 9, None).await.is_err());
        db.replace_snapshot(id, 4, "{\"g\":9}", 5)
            .await
            .expect("replace");
        assert!(db.replace_snapshot(id, 3, "{}", 5).await.is_err());
        // Finished / declined statuses.
        assert!(
            !db.set_status(id, "challenge", "declined", 1)
                .await
                .expect("status")
        );
        let (id2, _) = new_game(db, 3).await;
        assert!(
            db.set_status(id2, "challenge", "declined", 1)
                .await
                .expect("status")
        );
        assert_eq!(
            db.game(id2).await.expect("get").expect("exists").status,
            "declined"
        );
        assert_eq!(db.seats(id2).await.expect("seats").len(), 3);
        assert!(db.game(-1).await.expect("get").is_none());
        // Open games are challenges and active games; all games include the rest.
        assert_eq!(
            db.games_of_user(users[1], false).await.expect("all")[0].id,
            id
        );
        let creator = db.game(id2).await.expect("get").expect("exists").created_by;
        assert!(
            db.games_of_user(creator, true)
                .await
                .expect("open")
                .is_empty(),
            "declined is not open"
        );
        assert_eq!(
            db.games_of_user(creator, false).await.expect("all").len(),
            1
        );
    }
}

#[tokio::test]
async fn corrupt_snapshot_is_reported_not_fatal() {
    let (dbs, _dir) = test_dbs().await;
    for db in &dbs {
        let (id, _) = new_game(db, 2).await;
        db.start_game(id, "{}", "{}", None, 1).await.expect("start");
        db.corrupt_snapshot(id, "{{{ not json")
            .await
            .expect("corrupt");
        let g = db.game(id).await.expect("row still loads").expect("exists");
        match db {
            Db::Sqlite(_) => assert!(g.snapshot.is_err(), "{:?}", g.snapshot),
            Db::Postgres(_) => assert!(g.snapshot.expect("json").expect("some").contains("not")),
        }
    }
}

#[tokio::test]
async fn racing_commits_exactly_one_applies() {
    let (dbs, _dir) = test_dbs().await;
    for db in &dbs {
        let (id, _) = new_game(db, 2).await;
        db.start_game(id, "{}", "{\"g\":0}", None, 1)
            .await
            .expect("start");
        for round in 0..10 {
            let v = db.game(id).await.expect("get").expect("exists").version;
            let mut tasks = Vec::new();
            for k in 0..4 {
                let db = db.clone();
                let c = commit(
                    id,
                    v,
                    1 + k % 2,
                    &format!("{{\"round\":{round},\"k\":{k}}}"),
                );
                tasks.push(tokio::spawn(async move { db.commit(&c).await }));
            }
            let mut ok = 0;
            for t in tasks {
                match t.await.expect("join") {
                    Ok(_) => ok += 1,
                    Err(StorageError::Conflict { .. }) => {}
                    Err(e) => panic!("{}: unexpected {e}", db.backend()),
                }
            }
            assert_eq!(ok, 1, "{}: exactly one racing commit applies", db.backend());
            let g = db.game(id).await.expect("get").expect("exists");
            let acts = db.actions(id).await.expect("actions");
            assert_eq!(
                acts.last().map(|a| a.seq),
                Some(g.version),
                "log and version agree"
            );
        }
    }
}

#[tokio::test]
async fn connection_errors_name_the_database_and_the_cause_fast() {
    let start = std::time::Instant::now();
    let e = Db::connect("postgres://someone:secret@127.0.0.1:1/games")
        .await
        .unwrap_err()
        .to_string();
    assert!(
        start.elapsed() < std::time::Duration::from_secs(5),
        "a refused connection is said at once, not after the pool's timeout"
    );
    assert!(e.contains("at 127.0.0.1:1/games (PostgreSQL)"), "{e}");
    assert!(e.to_lowercase().contains("refused"), "{e}");
    assert!(!e.contains("secret"), "no password in messages: {e}");
    let dir = tempfile::tempdir().expect("temp dir");
    let missing = dir.path().join("no-such-folder").join("x.db");
    let e = Db::connect(&format!("sqlite://{}", missing.display()))
        .await
        .unwrap_err()
        .to_string();
    assert!(e.contains(&format!("file {}", missing.display())), "{e}");
    for url in ["mysql://localhost/x", "spellstack.db", "sqlite:"] {
        let e = Db::connect(url).await.unwrap_err().to_string();
        assert!(e.contains("is not understood"), "{url}: {e}");
    }
}
