//! Game setup (rule 101): shuffles, opening hands, mulligans in both rulesets (Δ10), the
//! first player skipping the first draw (101.5a), and setup errors.

use engine::{
    Answer, Catalog, Decision, Event, Game, GameSetup, PlayerId, Ruleset, SetupError, Step,
};

fn deck() -> Vec<engine::CardId> {
    let c = Catalog::builtin();
    let mut d = vec![c.by_name("Forest").unwrap().id; 24];
    d.extend(vec![c.by_name("Ashcoat Bear").unwrap().id; 36]);
    d
}

fn setup(ruleset: Ruleset, first: u8) -> Game {
    let mut s = GameSetup::two_player(ruleset, 42, deck(), deck());
    s.first_player = Some(PlayerId(first));
    Game::new(&s).unwrap()
}

fn pending(g: &Game) -> (PlayerId, Decision) {
    let p = g.pending().unwrap();
    (p.player, p.decision.clone())
}

#[test]
fn opening_hands_and_first_decision() {
    let g = setup(Ruleset::Modern, 1);
    assert_eq!(g.player(PlayerId(0)).hand.len(), 7);
    assert_eq!(g.player(PlayerId(1)).hand.len(), 7);
    assert_eq!(g.player(PlayerId(0)).library.len(), 53);
    assert_eq!(
        pending(&g),
        (PlayerId(1), Decision::Mulligan { hand_size: 7 }),
        "the starting player decides first"
    );
}

#[test]
fn classic_mulligans_are_taken_one_player_at_a_time() {
    let mut g = setup(Ruleset::Classic, 0);
    g.submit(PlayerId(0), Answer::Mulligan).unwrap();
    // 101.4: the starting player keeps deciding until they keep.
    assert_eq!(
        pending(&g),
        (PlayerId(0), Decision::Mulligan { hand_size: 6 })
    );
    assert_eq!(g.player(PlayerId(0)).hand.len(), 6);
    g.submit(PlayerId(0), Answer::Mulligan).unwrap();
    assert_eq!(g.player(PlayerId(0)).hand.len(), 5);
    g.submit(PlayerId(0), Answer::Keep).unwrap();
    assert_eq!(
        pending(&g),
        (PlayerId(1), Decision::Mulligan { hand_size: 7 })
    );
    g.submit(PlayerId(1), Answer::Keep).unwrap();
    assert_eq!(pending(&g), (PlayerId(0), Decision::Priority));
    assert_eq!(g.step, Step::Upkeep);
}

#[test]
fn modern_mulligans_are_simultaneous_rounds() {
    let mut g = setup(Ruleset::Modern, 0);
    let lib_before = g.player(PlayerId(0)).library.clone();
    g.submit(PlayerId(0), Answer::Mulligan).unwrap();
    // Δ10: the decision passes to the next player before anyone's mulligan happens.
    assert_eq!(
        pending(&g),
        (PlayerId(1), Decision::Mulligan { hand_size: 7 })
    );
    assert_eq!(
        g.player(PlayerId(0)).hand.len(),
        7,
        "not performed until the round is complete"
    );
    assert_eq!(g.player(PlayerId(0)).library, lib_before);
    g.submit(PlayerId(1), Answer::Mulligan).unwrap();
    assert_eq!(g.player(PlayerId(0)).hand.len(), 6);
    assert_eq!(g.player(PlayerId(1)).hand.len(), 6);
    assert_eq!(
        pending(&g),
        (PlayerId(0), Decision::Mulligan { hand_size: 6 })
    );
    g.submit(PlayerId(0), Answer::Keep).unwrap();
    assert_eq!(
        pending(&g),
        (PlayerId(1), Decision::Mulligan { hand_size: 6 })
    );
    g.submit(PlayerId(1), Answer::Mulligan).unwrap();
    assert_eq!(g.player(PlayerId(1)).hand.len(), 5);
    assert_eq!(
        pending(&g),
        (PlayerId(1), Decision::Mulligan { hand_size: 5 })
    );
}

#[test]
fn mulligan_to_zero_keeps_automatically() {
    let mut g = setup(Ruleset::Classic, 0);
    for _ in 0..7 {
        g.submit(PlayerId(0), Answer::Mulligan).unwrap();
    }
    assert_eq!(g.player(PlayerId(0)).hand.len(), 0);
    assert_eq!(pending(&g).0, PlayerId(1));
}

#[test]
fn first_player_skips_the_first_draw_only() {
    let mut g = setup(Ruleset::Modern, 0);
    g.submit(PlayerId(0), Answer::Keep).unwrap();
    g.submit(PlayerId(1), Answer::Keep).unwrap();
    let mut drew = Vec::new();
    // Pass through turn 1 and into turn 2's main phase.
    while !(g.turn == 2 && g.step == Step::PrecombatMain) {
        let p = g.pending().unwrap().player;
        let ans = match g.pending().unwrap().decision {
            Decision::DeclareAttackers => Answer::Attack(vec![]),
            Decision::DeclareBlockers => Answer::Block(vec![]),
            _ => Answer::Pass,
        };
        for e in g.submit(p, ans).unwrap() {
            if let Event::Drew { player, .. } = e {
                drew.push((g.turn, player));
            }
        }
    }
    assert_eq!(
        drew,
        vec![(2, PlayerId(1))],
        "no draw on turn 1; the second player draws on turn 2"
    );
    assert_eq!(g.player(PlayerId(0)).hand.len(), 7);
    assert_eq!(g.player(PlayerId(1)).hand.len(), 8);
}

#[test]
fn setup_errors_are_clear() {
    let c = Catalog::builtin();
    let s = GameSetup::two_player(Ruleset::Modern, 1, vec![], deck());
    assert_eq!(
        Game::new(&s).unwrap_err(),
        SetupError::EmptyDeck("Alice".into())
    );
    let tarmo = c.by_name("Tarmogoyf").unwrap().id;
    let s = GameSetup::two_player(Ruleset::Modern, 1, vec![tarmo; 60], deck());
    let e = Game::new(&s).unwrap_err().to_string();
    assert!(e.contains("Tarmogoyf"), "{e}");
    let bolt = c.by_name("Test Bolt").unwrap().id;
    let s = GameSetup::two_player(Ruleset::Modern, 1, vec![bolt; 60], deck());
    assert!(Game::new(&s).unwrap_err().to_string().contains("test-only"));
}

#[test]
fn concession_ends_a_two_player_game_at_any_time() {
    let mut g = setup(Ruleset::Modern, 0);
    // Bob concedes while Alice is deciding on her mulligan.
    g.submit(PlayerId(1), Answer::Concede).unwrap();
    assert_eq!(g.result, Some(engine::GameResult::Won(PlayerId(0))));
    assert!(g.pending().is_none());
    assert!(g.submit(PlayerId(0), Answer::Keep).is_err());
}
