//! The terminal front end driven by scripted stdin, as a newcomer would use it.

use super::*;

fn opts(dir: &std::path::Path) -> LocalOpts {
    LocalOpts {
        db: Some(format!("sqlite://{}", dir.join("local.db").display())),
        ..Default::default()
    }
}

/// Runs a session with `input` (bytes) and returns (game, output).
async fn session(o: &LocalOpts, input: &[u8]) -> (Option<Id>, String) {
    let mut out = Vec::new();
    let mut input = std::io::Cursor::new(input.to_vec());
    let id = run(o, &mut input, &mut out).await.expect("session runs");
    (id, String::from_utf8_lossy(&out).to_string())
}

async fn session_err(o: &LocalOpts, input: &[u8]) -> String {
    let mut out = Vec::new();
    let mut input = std::io::Cursor::new(input.to_vec());
    format!(
        "{:#}",
        run(o, &mut input, &mut out)
            .await
            .expect_err("the session is refused")
    )
}

#[tokio::test]
async fn quit_says_the_way_back_and_games_in_progress_are_offered() {
    let dir = tempfile::tempdir().expect("temp dir");
    let o = opts(dir.path());
    // `help`, the unknown word and `board` come at the opening-hand decision, the one
    // decision the player always has first.
    let (id, text) = session(&o, b"help\nfrobnicate\nboard\nkeep\nquit\n").await;
    let id = id.expect("a game");
    assert!(text.contains(&format!("Game {id} started")), "{text}");
    assert!(text.contains("You may say"), "{text}");
    assert!(
        text.contains("error: I did not understand `frobnicate`"),
        "{text}"
    );
    let back = format!(
        "To come back to it: spellstack local --game {id} --db {}",
        o.db.as_deref().unwrap_or_default()
    );
    assert!(text.contains(&back), "{text}");

    // Plain `spellstack local` lists the game (who, turn, ruleset) and Enter resumes it,
    // with its last lines.
    let (again, text) = session(&o, b"\nquit\n").await;
    assert_eq!(again, Some(id));
    assert!(text.contains("Games in progress:"), "{text}");
    assert!(
        text.contains(&format!("game {id}: Player vs Random Agent · turn "))
            || text.contains(&format!(
                "game {id}: Player vs Random Agent · opening hands"
            )),
        "{text}"
    );
    assert!(text.contains("modern rules"), "{text}");
    assert!(text.contains(&format!("Resuming game {id}")), "{text}");
    assert!(text.contains("Last actions:"), "{text}");
    assert!(text.contains("You keep."), "{text}");

    // `new` at the list starts another game; both are listed next time and a number picks.
    let (second, text) = session(&o, b"new\nquit\n").await;
    let second = second.expect("a second game");
    assert_ne!(second, id);
    assert!(text.contains(&format!("Game {second} started")), "{text}");
    let (picked, text) = session(&o, format!("frob\n{id}\nquit\n").as_bytes()).await;
    assert_eq!(picked, Some(id));
    assert!(text.contains(&format!("game {second}: ")), "{text}");
    assert!(text.contains("`frob` is none of these"), "{text}");

    // `--game N` resumes without asking; `--new` starts without asking.
    let (g, text) = session(
        &LocalOpts {
            game: Some(second),
            ..o.clone()
        },
        b"quit\n",
    )
    .await;
    assert_eq!(g, Some(second));
    assert!(!text.contains("Games in progress"), "{text}");
    assert!(text.contains(&format!("Resuming game {second}")), "{text}");
    let (third, _) = session(
        &LocalOpts {
            new: true,
            ..o.clone()
        },
        b"quit\n",
    )
    .await;
    assert!(third.is_some_and(|t| t != id && t != second));
    let e = session_err(
        &LocalOpts {
            game: Some(9999),
            ..o.clone()
        },
        b"",
    )
    .await;
    assert!(e.contains("there is no game 9999"), "{e}");
    let e = session_err(
        &LocalOpts {
            game: Some(id),
            new: true,
            ..o.clone()
        },
        b"",
    )
    .await;
    assert!(e.contains("only one of them"), "{e}");
}

#[tokio::test]
async fn a_resumed_game_keeps_its_ruleset_and_players() {
    let dir = tempfile::tempdir().expect("temp dir");
    let o = LocalOpts {
        ruleset: Some(Ruleset::Classic),
        new: true,
        ..opts(dir.path())
    };
    let (id, _) = session(&o, b"quit\n").await;
    let id = id.expect("game");
    let resume = LocalOpts {
        game: Some(id),
        ruleset: Some(Ruleset::Modern),
        name: Some("Someone Else".into()),
        ..opts(dir.path())
    };
    let (_, text) = session(&resume, b"quit\n").await;
    assert!(
        text.contains("--name, --ruleset only shape a new game"),
        "{text}"
    );
    assert!(text.contains("classic rules"), "{text}");
    assert!(text.contains("Player> "), "{text}");
    assert!(!text.contains("Someone Else>"), "{text}");
}

#[tokio::test]
async fn hot_seat_hands_wait_for_the_keyboard_to_change_hands() {
    let dir = tempfile::tempdir().expect("temp dir");
    let png = dir.path().join("board.png");
    let hot = LocalOpts {
        hotseat: true,
        name: Some("Ann".into()),
        opponent: Some("Ben".into()),
        new: true,
        image: Some(png.clone()),
        ..opts(dir.path())
    };
    // Enter before each hand; both keep; then a few passes (each with its Enter when the
    // keyboard changes hands).
    let script = "\nkeep\n\nkeep\n".to_string() + &"\npass\n".repeat(30);
    let (_, text) = session(&hot, script.as_bytes()).await;
    let ann = text.find("Pass the keyboard to Ann").expect("Ann's prompt");
    let ben = text.find("Pass the keyboard to Ben").expect("Ben's prompt");
    // Each hand appears only after its player's prompt.
    let first_hand = text.find("Your hand:").expect("a hand");
    assert!(first_hand > ann.min(ben), "{text}");
    let ben_prompt = text.find("Ben> ").expect("Ben's turn to type");
    assert!(ben_prompt > ben, "{text}");
    assert!(text.contains("Ann> "), "{text}");
    // Lines print in the order things happened: a draw after the turn that brought it.
    if let Some(draw) = text.find("You draw ") {
        let turn = text[..draw]
            .rfind("— Turn ")
            .expect("a turn began before the draw");
        assert!(!text[turn..draw].contains("You may say"), "{text}");
    }
    assert!(
        std::fs::read(&png)
            .expect("board image")
            .starts_with(b"\x89PNG")
    );
}

#[tokio::test]
async fn names_are_checked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let o = opts(dir.path());
    let e = session_err(
        &LocalOpts {
            name: Some("   ".into()),
            ..o.clone()
        },
        b"",
    )
    .await;
    assert!(e.contains("--name: a player name can't be empty"), "{e}");
    let e = session_err(
        &LocalOpts {
            hotseat: true,
            name: Some("Ann".into()),
            opponent: Some("ann".into()),
            ..o.clone()
        },
        b"",
    )
    .await;
    assert!(e.contains("need different names"), "{e}");
    let e = session_err(
        &LocalOpts {
            name: Some("random agent".into()),
            ..o.clone()
        },
        b"",
    )
    .await;
    assert!(e.contains("computer opponent's name"), "{e}");
}

#[tokio::test]
async fn a_deck_file_is_validated_with_each_problem_named() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bad = dir.path().join("bad.txt");
    std::fs::write(
        &bad,
        "4 Lightning Axe\n4 Frobnicator\n4 Gobbledygook\n10 Mountain\n",
    )
    .expect("write");
    let o = LocalOpts {
        deck: Some(bad.display().to_string()),
        ..opts(dir.path())
    };
    let e = session_err(&o, b"").await;
    assert!(e.contains("2 problems"), "{e}");
    assert!(e.contains("line 2: unknown card `Frobnicator`"), "{e}");
    assert!(e.contains("line 3: unknown card `Gobbledygook`"), "{e}");
    let small = dir.path().join("small.txt");
    std::fs::write(&small, "4 Lightning Axe\n10 Mountain\n").expect("write");
    let e = session_err(
        &LocalOpts {
            deck: Some(small.display().to_string()),
            ..opts(dir.path())
        },
        b"",
    )
    .await;
    assert!(e.contains("at least 60"), "{e}");
    let good = dir.path().join("mine.txt");
    std::fs::write(&good, crate::decks::ready("red").expect("red").list).expect("write");
    let (id, text) = session(
        &LocalOpts {
            deck: Some(good.display().to_string()),
            ..opts(dir.path())
        },
        b"quit\n",
    )
    .await;
    assert!(id.is_some(), "{text}");
    let missing = session_err(
        &LocalOpts {
            deck: Some(dir.path().join("nope.txt").display().to_string()),
            new: true,
            ..opts(dir.path())
        },
        b"",
    )
    .await;
    assert!(missing.contains("cannot read the deck list"), "{missing}");
}

#[tokio::test]
async fn bad_lines_are_refused_and_the_session_goes_on() {
    let dir = tempfile::tempdir().expect("temp dir");
    let o = opts(dir.path());
    let long = "x".repeat(5000);
    let mut input: Vec<u8> = b"\xff\xfe not text\n".to_vec();
    input.extend_from_slice(format!("{long}\nkeep\nquit\n").as_bytes());
    let (id, text) = session(&o, &input).await;
    assert!(id.is_some());
    assert!(text.contains("not valid UTF-8"), "{text}");
    // The long line is echoed cut short.
    assert!(text.contains(&format!("`{}…`", "x".repeat(60))), "{text}");
    assert!(!text.contains(&"x".repeat(61)), "a long echo");
    assert!(text.contains("You keep."), "{text}");
}

#[tokio::test]
async fn a_missing_config_file_is_an_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let o = LocalOpts {
        config: Some(dir.path().join("missing.toml")),
        ..opts(dir.path())
    };
    let e = session_err(&o, b"").await;
    assert!(
        e.contains("missing.toml") && e.contains("does not exist"),
        "{e}"
    );
}

#[tokio::test]
async fn concede_asks_first() {
    let dir = tempfile::tempdir().expect("temp dir");
    let o = opts(dir.path());
    let (id, text) = session(&o, b"concede\nkeep\nconcede\nyes\n").await;
    assert!(id.is_some());
    assert!(text.contains("You are about to concede game"), "{text}");
    assert!(text.contains("Random Agent wins"), "{text}");
    // The first `concede` (answered `keep`) conceded nothing.
    assert!(text.contains("You keep."), "{text}");
}

/// A league game played in the terminal: `spellstack league play` asks its chooser, whose
/// `play first` starts it; `spellstack local --game N` plays it hot seat, and when it ends
/// the league records it and says how the match goes on (game 2's chooser, the loser, with
/// the command that answers).
#[tokio::test]
async fn a_league_game_is_played_in_the_terminal() {
    use crate::league::definition::LeagueSetup;
    let dir = tempfile::tempdir().expect("temp dir");
    let o = opts(dir.path());
    let cfg = Config {
        database_url: o.db.clone().expect("db"),
        ..Config::default()
    };
    let svc = Service::new(cfg).await.expect("service");
    let ann = svc.user("local:Ann", "Ann").await.expect("user");
    let ben = svc.user("local:Ben", "Ben").await.expect("user");
    let setup = LeagueSetup {
        name: "Kitchen".into(),
        product: Some("6 TSP".into()),
        seed: Some(3),
        ..Default::default()
    };
    let league = svc
        .league_create(ann, &setup, 0, None)
        .await
        .expect("create")
        .league_id;
    for u in [ann, ben] {
        svc.league_join(league, u, None).await.expect("join");
    }
    svc.league_play(league, ann, Some(ben))
        .await
        .expect("match");
    // Game 1's chooser answers in words, as `spellstack league play first` does.
    let m = svc.db.league_matches(league).await.expect("m")[0].clone();
    let chooser = m.chooser.expect("chooser");
    svc.league_words(chooser, 0, None, "play first", false)
        .await
        .expect("play first");
    let m = svc.db.league_match(m.id).await.expect("m").expect("m");
    let g1 = m.game_id.expect("game 1");
    let local = LocalOpts {
        game: Some(g1),
        ..o.clone()
    };
    let mut out = Vec::new();
    let mut input = std::io::Cursor::new(b"\nconcede\nyes\n".to_vec());
    let played = play(&svc, &local, &mut input, &mut out)
        .await
        .expect("the league game is played here");
    let text = String::from_utf8_lossy(&out).to_string();
    assert_eq!(played, Some(g1));
    let games = svc.db.league_games(m.id).await.expect("games");
    assert_eq!(games.len(), 1, "{text}");
    // The loser of game 1 chooses for game 2, and is told how to answer.
    let loser = if games[0].winner == Some(ann) {
        ben
    } else {
        ann
    };
    let name = svc.name_of(loser).await;
    assert!(
        text.contains(&format!(
            "Game 2 of the match waits for {name} to choose: spellstack league play first --name {name:?}"
        )),
        "{text}"
    );
    let r = svc
        .league_words(loser, 0, None, "draw first", false)
        .await
        .expect("draw first");
    let m = svc.db.league_match(m.id).await.expect("m").expect("m");
    let g2 = m.game_id.expect("game 2");
    assert!(text.contains("Kitchen: game 1"), "{text}");
    assert!(
        r.text.contains(&format!("{name} chose to draw first")),
        "{}",
        r.text
    );
    assert!(
        r.plans.iter().any(|p| p.game_id == g2),
        "the answer starts game 2"
    );
    svc.db.close().await;
}
