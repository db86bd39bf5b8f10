//! Words for Gemstone Caverns' pregame question and for abilities on the stack as targets
//! (Trickbind).

use super::super::*;
use engine::{GameSetup, Ruleset};

/// Says `words` for `p` and submits every answer they give.
fn say(g: &mut Game, p: PlayerId, words: &str) {
    let answers = parse_answers(g, p, words).unwrap_or_else(|e| panic!("`{words}`: {e}"));
    for a in answers {
        g.submit(p, a).unwrap_or_else(|e| panic!("`{words}`: {e}"));
    }
}

/// Both players kept seven of a deck of Gemstone Caverns and Islands; Alice starts, so Bob
/// is asked the pregame question (`exile_first`: the cards of his hand other than the
/// Caverns asked about).
fn caverns_game() -> Game {
    let c = engine::Catalog::builtin();
    let caverns = c.by_name("Gemstone Caverns").map(|d| d.id).expect("card");
    let island = c.by_name("Island").map(|d| d.id).expect("card");
    let deck: Vec<_> = (0..20).flat_map(|_| [caverns, island]).collect();
    let mut setup = GameSetup::two_player(Ruleset::Modern, 7, deck.clone(), deck);
    setup.first_player = Some(PlayerId(0));
    let mut g = Game::new(&setup).expect("a legal setup");
    for p in [PlayerId(0), PlayerId(1)] {
        g.submit(p, Answer::Keep).expect("keep");
    }
    g
}

#[test]
fn the_pregame_action_is_said_begin_with_gemstone_caverns() {
    let g = caverns_game();
    let bob = PlayerId(1);
    let Some(Decision::PregameAction { card, name }) = g.pending().map(|p| p.decision.clone())
    else {
        panic!("a pregame question: {:?}", g.pending());
    };
    assert_eq!(name, "Gemstone Caverns");
    let hand = g.player(bob).hand.clone();
    let cat = g.catalog();
    let named = |n: &str| {
        hand.iter()
            .copied()
            .filter(|c| *c != card && g.obj(*c).is_some_and(|o| cat.get(o.card).name == n))
            .count()
    };
    assert!(named("Island") > 0, "the seed deals Bob an Island");
    let words = options(&g, bob, false);
    assert!(words.iter().any(|w| w == "no"), "{words:?}");
    assert!(
        words
            .iter()
            .any(|w| w == "begin with Gemstone Caverns exiling Island"),
        "{words:?}"
    );
    // Every answer's words parse back to it (a button, a menu option, a typed phrase).
    for a in g.legal_answers(bob) {
        let w = describe(&g, bob, &a);
        let back = parse_answers(&g, bob, &w).unwrap_or_else(|e| panic!("`{w}`: {e}"));
        assert_eq!(describe(&g, bob, &back[0]), w);
    }
    assert_eq!(
        parse_answers(&g, bob, "no").ok(),
        Some(vec![Answer::Objects(Vec::new())])
    );
    // Typed in other words, and with a typo.
    for w in [
        "begin the game with gemstone cavern exiling island",
        "start with Gemstone Caverns exile Island",
        "exile Island",
    ] {
        let Ok(answers) = parse_answers(&g, bob, w) else {
            panic!("`{w}` parses");
        };
        let [Answer::Objects(ids)] = answers.as_slice() else {
            panic!("{answers:?}");
        };
        assert_eq!(ids.len(), 1);
        assert_eq!(g.seen_name(ids[0], Some(bob)), "Island", "{w}");
    }
    // Which card to exile is asked when the hand has two names to choose from (else the
    // only one is taken).
    let two_names = named("Gemstone Caverns") > 0;
    match parse_answers(&g, bob, "begin with Gemstone Caverns") {
        Err(GrammarError::Needs { what, options, .. }) if two_names => {
            assert!(what.starts_with("a card to exile from your hand"), "{what}");
            assert!(options.contains(&"Island".to_string()), "{options:?}");
        }
        Ok(a) if !two_names => {
            assert!(matches!(a.as_slice(), [Answer::Objects(v)] if v.len() == 1))
        }
        other => panic!("{other:?} (two names: {two_names})"),
    }
    // Refused: another card's name; a card not in the hand; not Alice's question.
    let e = parse_answers(&g, bob, "begin with Lightning Axe exiling Island").unwrap_err();
    assert!(e.to_string().contains("Gemstone Caverns"), "{e}");
    assert!(parse_answers(&g, bob, "begin with Gemstone Caverns exiling Forest").is_err());
    assert!(matches!(
        parse_answers(&g, PlayerId(0), "no"),
        Err(GrammarError::NotYourDecision(_))
    ));
    let e = parse_answers(&g, bob, "keep").unwrap_err();
    assert!(
        e.to_string()
            .contains("begin with Gemstone Caverns exiling"),
        "{e}"
    );

    // Doing it: the Caverns on the battlefield, an Island exiled, the game begins.
    let mut done = g.clone();
    say(&mut done, bob, "begin with Gemstone Caverns exiling Island");
    assert_eq!(done.turn, 1);
    assert_eq!(done.player(bob).hand.len(), 5);
    assert!(done.battlefield.iter().any(|id| {
        done.obj(*id)
            .is_some_and(|o| o.controller == bob && done.catalog().get(o.card).name == name)
    }));
    let mut declined = g.clone();
    say(&mut declined, bob, "no");
    assert_eq!(declined.player(bob).hand.len(), 7);
    assert!(declined.battlefield.is_empty());
}

/// Bob has two Prodigal Sorcerers and Alice one; each activated at a player, Bob's first.
const THREE_SORCERERS: &str = r#"
name = "three sorcerers"
[setup]
active = "bob"
step = "precombat_main"
turn = 4
[setup.alice]
hand = ["Trickbind"]
library = ["Island"]
battlefield = ["Island", "Island", "Prodigal Sorcerer"]
[setup.bob]
library = ["Island"]
battlefield = ["Prodigal Sorcerer", "Prodigal Sorcerer"]
"#;

#[test]
fn trickbind_targets_an_ability_by_its_source_told_apart_on_the_stack() {
    let mut g = engine::scenario::game_from_str(THREE_SORCERERS).expect("scenario runs");
    let (alice, bob) = (PlayerId(0), PlayerId(1));
    say(&mut g, bob, "activate Prodigal Sorcerer on Alice");
    say(&mut g, bob, "activate Prodigal Sorcerer on Alice");
    say(&mut g, bob, "pass");
    say(&mut g, alice, "activate Prodigal Sorcerer on Bob");
    assert_eq!(g.stack.len(), 3);
    // Without a target, the casting asks for one of the three abilities, each told apart:
    // counted from the top of the stack, whose when it differs.
    let Err(GrammarError::Needs {
        what,
        options: targets,
        ..
    }) = parse_answers(&g, alice, "cast Trickbind")
    else {
        panic!("Trickbind needs a target");
    };
    assert!(what.starts_with("a target"), "{what}");
    assert_eq!(
        targets,
        vec![
            "Prodigal Sorcerer's ability 1 of 3 (yours)".to_string(),
            "Prodigal Sorcerer's ability 2 of 3 (Bob's)".to_string(),
            "Prodigal Sorcerer's ability 3 of 3 (Bob's)".to_string(),
        ]
    );
    let serial_at = |g: &Game, from_top: usize| {
        g.stack[g.stack.len() - 1 - from_top]
            .serial
            .expect("a serial")
    };
    let target_of = |g: &Game, words: &str| -> u32 {
        let answers = parse_answers(g, alice, words).unwrap_or_else(|e| panic!("`{words}`: {e}"));
        answers
            .iter()
            .find_map(|a| match a {
                Answer::Target(Target::Ability(s)) => Some(*s),
                _ => None,
            })
            .unwrap_or_else(|| panic!("`{words}` targets an ability: {answers:?}"))
    };
    assert_eq!(
        target_of(
            &g,
            "cast Trickbind targeting my Prodigal Sorcerer's ability"
        ),
        serial_at(&g, 0)
    );
    assert_eq!(
        target_of(&g, "cast Trickbind on Prodigal Sorcerer's ability #3"),
        serial_at(&g, 2)
    );
    assert_eq!(
        target_of(
            &g,
            "cast Trickbind on Prodigal Sorcerer's ability 2 of 3 (Bob's)"
        ),
        serial_at(&g, 1)
    );
    // `/mtg play` completes the target while it is typed.
    let c = completions(&g, alice, "cast Trickbind");
    assert_eq!(
        c[..3],
        [
            "cast Trickbind on Prodigal Sorcerer's ability 1 of 3 (yours)".to_string(),
            "cast Trickbind on Prodigal Sorcerer's ability 2 of 3 (Bob's)".to_string(),
            "cast Trickbind on Prodigal Sorcerer's ability 3 of 3 (Bob's)".to_string(),
        ],
        "{c:?}"
    );
    assert!(c.contains(&"cast Trickbind".to_string()), "{c:?}");
    assert_eq!(
        completions(&g, alice, "cast trickbind on 2 of 3"),
        vec!["cast Trickbind on Prodigal Sorcerer's ability 2 of 3 (Bob's)".to_string()]
    );
    for w in &c[..3] {
        assert!(parse_answers(&g, alice, w).is_ok(), "`{w}` parses");
    }
    // Two of Bob's: which one must be said.
    let e = parse_answers(
        &g,
        alice,
        "cast Trickbind on Bob's Prodigal Sorcerer's ability",
    )
    .unwrap_err();
    assert!(matches!(e, GrammarError::Ambiguous { .. }), "{e}");
    assert!(parse_answers(&g, alice, "cast Trickbind on Prodigal Sorcerer").is_err());

    // At the target decision itself, each ability is a `target ...` phrase that parses back.
    let mut casting = g.clone();
    casting
        .submit(
            alice,
            parse_answers(
                &g,
                alice,
                "cast Trickbind on Prodigal Sorcerer's ability 1 of 3 (yours)",
            )
            .expect("cast")[0]
                .clone(),
        )
        .expect("begin casting");
    assert!(matches!(
        casting.pending().map(|p| &p.decision),
        Some(Decision::ChooseTarget { .. })
    ));
    let words = options(&casting, alice, false);
    assert!(
        words
            .iter()
            .any(|w| w == "target Prodigal Sorcerer's ability 3 of 3 (Bob's)"),
        "{words:?}"
    );
    for a in casting.legal_answers(alice) {
        let w = describe(&casting, alice, &a);
        assert_eq!(
            parse_answers(&casting, alice, &w).ok(),
            Some(vec![a.clone()]),
            "{w}"
        );
    }

    // Cast at Bob's bottom ability: it is countered, the others resolve.
    say(
        &mut g,
        alice,
        "cast Trickbind on Prodigal Sorcerer's ability #3",
    );
    assert_eq!(g.stack.len(), 4);
    for _ in 0..12 {
        if g.stack.is_empty() {
            break;
        }
        let p = g.pending().expect("pending").player;
        g.submit(p, Answer::Pass).expect("pass");
    }
    assert!(g.stack.is_empty());
    assert_eq!(
        g.player(alice).life,
        19,
        "one of Bob's two abilities was countered"
    );
    assert_eq!(g.player(bob).life, 19);
}

/// Several abilities of one player from sources of the same name are numbered only, and a
/// lone ability is its source's name.
#[test]
fn same_controller_abilities_are_numbered_without_whose() {
    let mut g = engine::scenario::game_from_str(THREE_SORCERERS).expect("scenario runs");
    let (alice, bob) = (PlayerId(0), PlayerId(1));
    say(&mut g, bob, "activate Prodigal Sorcerer on Alice");
    say(&mut g, bob, "pass");
    let Err(GrammarError::Needs { options, .. }) = parse_answers(&g, alice, "cast Trickbind")
    else {
        panic!("Trickbind needs a target");
    };
    assert_eq!(options, vec!["Prodigal Sorcerer's ability".to_string()]);
    let mut g = engine::scenario::game_from_str(THREE_SORCERERS).expect("scenario runs");
    say(&mut g, bob, "activate Prodigal Sorcerer on Alice");
    say(&mut g, bob, "activate Prodigal Sorcerer on Alice");
    say(&mut g, bob, "pass");
    let Err(GrammarError::Needs { options, .. }) = parse_answers(&g, alice, "cast Trickbind")
    else {
        panic!("Trickbind needs a target");
    };
    assert_eq!(
        options,
        vec![
            "Prodigal Sorcerer's ability 1 of 2".to_string(),
            "Prodigal Sorcerer's ability 2 of 2".to_string(),
        ]
    );
}
