//! Same-named permanents told apart by count (`Ashcoat Bear 3 of 6`), whose and tapped, in
//! every list that names them, and read back as that very one.

use super::*;

/// Six Ashcoat Bears: Alice's four (two of them tapped) and Bob's two; Alice holds
/// Lightning Axe (and a card to discard for it) in her main phase.
const SIX_BEARS: &str = r#"
name = "six bears"
[setup]
active = "alice"
step = "precombat_main"
turn = 3
[setup.alice]
hand = ["Lightning Axe", "Forest"]
library = ["Forest"]
battlefield = ["Mountain", "Ashcoat Bear", { card = "Ashcoat Bear", tapped = true }, "Ashcoat Bear", { card = "Ashcoat Bear", tapped = true }]
[setup.bob]
library = ["Forest"]
battlefield = ["Ashcoat Bear", "Ashcoat Bear"]
"#;

/// The bears in battlefield order.
fn bears(g: &Game) -> Vec<ObjectId> {
    g.battlefield
        .iter()
        .copied()
        .filter(|id| g.card_name(*id) == "Ashcoat Bear")
        .collect()
}

/// The target of the Axe in `seq`.
fn axe_target(seq: &[Answer]) -> Option<ObjectId> {
    seq.iter().find_map(|a| match a {
        Answer::Target(Target::Object(id)) => Some(*id),
        _ => None,
    })
}

/// The Axe's target menu says `N of 6` with whose and tapped; each choice, and each count
/// typed alone, is that very bear; words without a count take one of those that fit (as
/// identical ones are interchangeable); a count that fits none is refused, never guessed.
#[test]
fn same_named_permanents_are_counted_and_read_back() {
    let g = engine::scenario::game_from_str(SIX_BEARS).expect("scenario runs");
    let alice = PlayerId(0);
    let ids = bears(&g);
    assert_eq!(ids.len(), 6);
    let Err(GrammarError::Needs { options, .. }) = parse_answers(&g, alice, "cast Lightning Axe")
    else {
        panic!("the Axe needs a target");
    };
    let mut labels: Vec<&String> = options.iter().filter(|o| o.contains("Bear")).collect();
    labels.sort_by_key(|l| counted::split_count(l).1.map_or(0, |(k, _)| k));
    let expected: Vec<String> = ids
        .iter()
        .enumerate()
        .map(|(i, id)| {
            let o = g.obj(*id).expect("bear");
            let whose = if o.controller == alice {
                "(yours)"
            } else {
                "(Bob's)"
            };
            let tapped = if o.tapped { " (tapped)" } else { "" };
            format!("Ashcoat Bear {} of 6 {whose}{tapped}", i + 1)
        })
        .collect();
    assert_eq!(
        labels.iter().map(|l| l.as_str()).collect::<Vec<_>>(),
        expected.iter().map(String::as_str).collect::<Vec<_>>()
    );
    for (label, id) in expected.iter().zip(&ids) {
        // The menu's words, and the count alone.
        let (plain, _) = counted::split_count(label);
        let count = label
            .trim_start_matches("Ashcoat Bear ")
            .split(" (")
            .next()
            .expect("count")
            .to_string();
        assert!(!plain.contains(" of "), "{plain}");
        for words in [
            format!("cast Lightning Axe on {label} discarding Forest"),
            format!("cast Lightning Axe on Ashcoat Bear {count} discarding Forest"),
        ] {
            let seq = parse_answers(&g, alice, &words).unwrap_or_else(|e| panic!("{words}: {e}"));
            assert_eq!(axe_target(&seq), Some(*id), "{words}");
        }
    }
    // No count: Bob's bears are alike, either is his.
    let seq = parse_answers(
        &g,
        alice,
        "cast Lightning Axe on Bob's Ashcoat Bear discarding Forest",
    )
    .expect("one of Bob's");
    let t = axe_target(&seq).expect("a target");
    assert_eq!(g.obj(t).map(|o| o.controller), Some(PlayerId(1)));
    // `my tapped bear`: one of the two.
    let seq = parse_answers(
        &g,
        alice,
        "cast Lightning Axe on my tapped Ashcoat Bear discarding Forest",
    )
    .expect("a tapped one of mine");
    let t = axe_target(&seq).expect("a target");
    assert!(g.obj(t).is_some_and(|o| o.tapped && o.controller == alice));
    // A count that fits no bear (the board has six, not five; there is no seventh).
    for words in [
        "cast Lightning Axe on Ashcoat Bear 2 of 5 discarding Forest",
        "cast Lightning Axe on Ashcoat Bear 7 of 7 discarding Forest",
    ] {
        let e = parse_answers(&g, alice, words).unwrap_err();
        assert!(
            matches!(e, GrammarError::NoMatch { .. }),
            "{words}: refused, not guessed: {e}"
        );
    }
    // The same words in every list: the attack picker counts Alice's untapped bears as the
    // target menu does (the 1st and 3rd of the six).
    let mut at = g.clone();
    for _ in 0..6 {
        let Some(p) = at.pending().cloned() else {
            break;
        };
        if matches!(p.decision, Decision::DeclareAttackers) {
            break;
        }
        at.submit(p.player, Answer::Pass).expect("pass");
    }
    assert!(matches!(
        at.pending().map(|p| &p.decision),
        Some(Decision::DeclareAttackers)
    ));
    let untapped: Vec<String> = expected
        .iter()
        .filter(|l| l.ends_with("(yours)"))
        .map(|l| l.trim_end_matches(" (yours)").to_string())
        .collect();
    assert_eq!(attack_choices(&at, alice), untapped);
    // Every legal answer's words parse back to it (the counts included).
    let mut casting = g.clone();
    let cast = g
        .legal_answers(alice)
        .into_iter()
        .find(|a| matches!(a, Answer::Cast(id) if g.card_name(*id) == "Lightning Axe"))
        .expect("the Axe may be cast");
    casting.submit(alice, cast).expect("begin casting");
    for a in casting.legal_answers(alice) {
        let w = describe(&casting, alice, &a);
        assert_eq!(
            parse_answers(&casting, alice, &w).ok(),
            Some(vec![a.clone()]),
            "{w}"
        );
    }
}

/// The counts are added only where two labels would be the same: a lone bear, or two told
/// apart by whose, keep their plain words; mana from identical lands is said without them.
#[test]
fn counts_only_where_labels_would_be_the_same() {
    let g = engine::scenario::game_from_str(
        r#"
name = "two bears"
[setup]
active = "alice"
step = "precombat_main"
turn = 3
[setup.alice]
hand = ["Lightning Axe", "Forest"]
library = ["Forest"]
battlefield = ["Mountain", "Mountain", "Ashcoat Bear"]
[setup.bob]
library = ["Forest"]
battlefield = ["Ashcoat Bear"]
"#,
    )
    .expect("scenario runs");
    let alice = PlayerId(0);
    let Err(GrammarError::Needs { options, .. }) = parse_answers(&g, alice, "cast Lightning Axe")
    else {
        panic!("the Axe needs a target");
    };
    assert!(
        options.contains(&"Ashcoat Bear (yours)".to_string())
            && options.contains(&"Ashcoat Bear (Bob's)".to_string()),
        "{options:?}"
    );
    assert!(options.iter().all(|o| !o.contains(" of ")), "{options:?}");
    let words = options_with_mana(&g, alice);
    assert!(words.contains(&"tap Mountain".to_string()), "{words:?}");
    assert!(words.iter().all(|w| !w.contains(" of 2")), "{words:?}");
}

fn options_with_mana(g: &Game, p: PlayerId) -> Vec<String> {
    super::options(g, p, true)
}
