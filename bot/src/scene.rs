//! Engine views turned into the renderer's scenes.
//!
//! Every image is built from a [`View`] (what one player, or a spectator, may see), never from
//! the raw game: the hand of a scene comes only from the viewer's own [`PlayerView::hand`], and
//! libraries appear only as counts.

use engine::view::{PermanentView, PlayerView, View};
use engine::{CardDef, CardId, Catalog, GameResult, PlayerId, Step};
use render::scene::{
    BoardScene, CardFace, Colour, Counter, HandCard, HandScene, PermanentCard, PlayerArea,
    StackItem, StackKind, TargetRef, TurnInfo,
};

/// Stack items get ids above every object id the engine hands out.
const STACK_ID_BASE: u32 = 0xF000_0000;

/// The printed face of a card from the engine's catalogue.
pub fn face_of_def(def: &CardDef) -> CardFace {
    use engine::mana::Color;
    let colors = [
        (Color::W, Colour::White),
        (Color::U, Colour::Blue),
        (Color::B, Colour::Black),
        (Color::R, Colour::Red),
        (Color::G, Colour::Green),
    ]
    .into_iter()
    .filter(|(c, _)| def.colors.contains(*c))
    .map(|(_, r)| r)
    .collect();
    CardFace {
        name: def.name.clone(),
        name_zh: def.name_zh.clone(),
        mana_cost: def
            .mana_cost
            .as_ref()
            .map(|c| c.to_string())
            .unwrap_or_default(),
        colors,
        type_line: def.type_line(),
        rules_text: def.text.clone(),
        power: def.power.as_ref().map(|p| p.to_string()),
        toughness: def.toughness.as_ref().map(|t| t.to_string()),
        is_token: false,
    }
}

/// The face of a card id.
pub fn face(card: CardId) -> CardFace {
    face_of_def(Catalog::builtin().get(card))
}

fn step(s: Step) -> render::scene::Step {
    use render::scene::Step as R;
    match s {
        Step::Untap => R::Untap,
        Step::Upkeep => R::Upkeep,
        Step::Draw => R::Draw,
        Step::PrecombatMain => R::PrecombatMain,
        Step::BeginCombat => R::BeginCombat,
        Step::DeclareAttackers => R::DeclareAttackers,
        Step::DeclareBlockers => R::DeclareBlockers,
        Step::FirstStrikeDamage | Step::CombatDamage => R::CombatDamage,
        Step::EndCombat => R::EndCombat,
        Step::PostcombatMain => R::PostcombatMain,
        Step::End => R::End,
        Step::Cleanup => R::Cleanup,
    }
}

fn permanent(p: &PermanentView, view: &View) -> PermanentCard {
    let mut face = face(p.card);
    face.is_token = p.token;
    let mut card = PermanentCard::new(p.id.0, face);
    // Face down: the card only for its controller (the view already hides it from others).
    card.face_down = p.face_down;
    if p.face_down && p.card == Catalog::builtin().face_down() {
        card.face = None;
    }
    card.is_token = p.token;
    card.tapped = p.tapped;
    card.damage = p.damage;
    card.power_toughness = match (p.power, p.toughness) {
        (Some(a), Some(b)) => Some((a, b)),
        _ => None,
    };
    card.counters = p
        .counters
        .iter()
        .map(|(k, n)| Counter {
            kind: k.clone(),
            count: *n,
        })
        .collect();
    card.summoning_sick = p.summoning_sick;
    // "As it enters, choose ...": the choice is public (614.12).
    card.notes
        .extend(p.chosen.iter().map(|c| format!("chose {c}")));
    card.attacking = p.attacking.is_some();
    card.blocking = p.blocking.map(|a| a.0).into_iter().collect();
    card.attached_to = p
        .attached_to
        .filter(|a| view.battlefield.iter().any(|x| x.id == *a))
        .map(|a| a.0);
    card
}

fn area(p: &PlayerView, view: &View) -> PlayerArea {
    let mut a = PlayerArea::new(p.name.clone(), p.life);
    a.poison = p.poison;
    a.hand_count = p.hand_count as u32;
    a.library_count = p.library_count as u32;
    a.graveyard_count = p.graveyard.len() as u32;
    a.graveyard_top = p.graveyard.last().map(|c| face(c.card));
    a.exile_count = view.exile.iter().filter(|c| c.owner == p.id).count() as u32;
    a.suspended = view
        .exile
        .iter()
        .filter(|c| c.owner == p.id)
        .filter_map(|c| {
            c.suspended.map(|n| render::scene::SuspendedCard {
                face: face(c.card),
                time_counters: n,
            })
        })
        .collect();
    a.mana_pool = if p.mana_pool.trim().is_empty() || p.mana_pool.trim() == "{0}" {
        String::new()
    } else {
        p.mana_pool.clone()
    };
    a.battlefield = view
        .battlefield
        .iter()
        .filter(|x| x.controller == p.id)
        .map(|x| permanent(x, view))
        .collect();
    a
}

/// The board as `view`'s viewer may see it; `recent` are the last public actions.
pub fn board_scene(view: &View, recent: &[String]) -> BoardScene {
    let players: Vec<PlayerArea> = view.players.iter().map(|p| area(p, view)).collect();
    let index_of = |id: PlayerId| view.players.iter().position(|p| p.id == id);
    // The view lists the stack top first; the scene wants it bottom first.
    let n = view.stack.len();
    let stack = view
        .stack
        .iter()
        .rev()
        .enumerate()
        .map(|(i, s)| StackItem {
            id: STACK_ID_BASE + i as u32,
            controller: index_of(s.controller).unwrap_or(0),
            kind: if s.is_ability {
                StackKind::ActivatedAbility
            } else {
                StackKind::Spell
            },
            face: (s.name != "Combat damage"
                && !(s.face_down && s.card == Catalog::builtin().face_down()))
            .then(|| face(s.card)),
            text: if s.name == "Combat damage" {
                s.name.clone()
            } else {
                String::new()
            },
            targets: s
                .targets
                .iter()
                .map(|t| match view.players.iter().position(|p| p.name == *t) {
                    Some(i) => TargetRef::Player(i),
                    None => TargetRef::Card(t.clone()),
                })
                .collect(),
        })
        .collect::<Vec<_>>();
    debug_assert_eq!(stack.len(), n);
    let deciding = view
        .pending
        .as_ref()
        .filter(|_| view.result.is_none())
        .and_then(|p| index_of(p.player));
    let decision = match &view.result {
        Some(GameResult::Won(p)) => Some(format!(
            "game over: {} wins",
            view.players
                .iter()
                .find(|x| x.id == *p)
                .map_or("someone", |x| x.name.as_str())
        )),
        Some(GameResult::Draw) => Some(match view.draw_reason {
            Some(reason) => format!("game over: a draw ({})", reason.describe(view.ruleset)),
            None => "game over: a draw".into(),
        }),
        None => view.pending.as_ref().map(|p| p.description.clone()),
    };
    BoardScene {
        viewer: view.viewer.and_then(index_of),
        players,
        stack,
        turn: TurnInfo {
            number: view.turn,
            active_player: index_of(view.active).unwrap_or(0),
            step: step(view.step),
            deciding_player: deciding,
            decision,
        },
        recent_actions: recent.iter().rev().take(5).rev().cloned().collect(),
    }
}

/// The viewer's own hand, or None for a spectator (a view holds no other hand).
pub fn hand_scene(view: &View, playable: &[CardId]) -> Option<HandScene> {
    let me = view.viewer?;
    let p = view.players.iter().find(|p| p.id == me)?;
    let hand = p.hand.as_ref()?;
    Some(HandScene {
        owner: p.name.clone(),
        cards: hand
            .iter()
            .map(|c| HandCard {
                face: face(c.card),
                playable: playable.contains(&c.card),
            })
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{Game, GameSetup, Ruleset};

    fn names(deck: &[&str]) -> Vec<CardId> {
        let cat = Catalog::builtin();
        deck.iter()
            .map(|n| cat.by_name(n).expect("card").id)
            .collect()
    }

    fn game() -> Game {
        // Alice's deck and Bob's share no card, so a Bob card in Alice's scene is a leak.
        let mut a = Vec::new();
        let mut b = Vec::new();
        for _ in 0..10 {
            a.extend(names(&["Mountain", "Mountain", "Lightning Axe"]));
            b.extend(names(&["Forest", "Forest", "Ashcoat Bear"]));
        }
        Game::new(&GameSetup::two_player(Ruleset::Modern, 7, a, b)).expect("game")
    }

    fn scene_text(s: &impl serde::Serialize) -> String {
        serde_json::to_string(s).expect("json")
    }

    #[test]
    fn alice_sees_her_hand_and_nothing_of_bobs() {
        let g = game();
        let alice = g.view(Some(PlayerId(0)));
        let board = board_scene(&alice, &[]);
        let text = scene_text(&board);
        assert!(!text.contains("Forest"), "{text}");
        assert!(!text.contains("Ashcoat Bear"), "{text}");
        assert_eq!(board.viewer, Some(0));
        assert_eq!(board.players[1].hand_count, 7);
        assert!(board.players[1].library_count > 0);
        let hand = hand_scene(&alice, &[]).expect("Alice's hand");
        assert_eq!(hand.owner, "Alice");
        assert_eq!(hand.cards.len(), 7);
        for c in &hand.cards {
            assert!(
                ["Mountain", "Lightning Axe"].contains(&c.face.name.as_str()),
                "{}",
                c.face.name
            );
        }
        assert!(!scene_text(&hand).contains("Forest"));
    }

    #[test]
    fn a_spectator_sees_no_hand() {
        let g = game();
        let v = g.view(None);
        assert!(hand_scene(&v, &[]).is_none());
        let board = board_scene(&v, &["Alice keeps".into()]);
        let text = scene_text(&board);
        for n in ["Forest", "Ashcoat Bear", "Mountain", "Lightning Axe"] {
            assert!(!text.contains(n), "{n} in {text}");
        }
        assert_eq!(board.viewer, None);
        assert_eq!(board.recent_actions, vec!["Alice keeps".to_string()]);
        // Bob's view has no Alice card either.
        let bob = g.view(Some(PlayerId(1)));
        let text = scene_text(&board_scene(&bob, &[]));
        assert!(!text.contains("Lightning Axe") && !text.contains("Mountain"));
    }

    #[test]
    fn faces_carry_card_facts() {
        let f = face(
            Catalog::builtin()
                .by_name("Ashcoat Bear")
                .expect("bears")
                .id,
        );
        assert_eq!(f.name, "Ashcoat Bear");
        assert!(f.power.is_some());
        assert_eq!(f.colors, vec![Colour::Green]);
        assert!(f.type_line.contains("Creature"), "{}", f.type_line);
        assert!(f.mana_cost.contains("{G}"), "{}", f.mana_cost);
    }

    /// Public zones and choices on the board image: graveyard and exile counts per player,
    /// and what a permanent chose as it entered (Teferi's Moat's color) as a note.
    #[test]
    fn the_board_counts_graveyard_and_exile_and_shows_choices() {
        let g = engine::scenario::game_from_str(
            r#"
name = "public"
script = []
[setup]
active = "alice"
step = "precombat_main"
[setup.alice]
battlefield = [{ card = "Teferi's Moat", chosen = "green" }]
graveyard = ["Forest", "Lightning Axe"]
exile = ["Mountain"]
[setup.bob]
graveyard = ["Forest"]
"#,
        )
        .expect("scenario runs");
        let board = board_scene(&g.view(Some(PlayerId(1))), &[]);
        assert_eq!(
            (
                board.players[0].graveyard_count,
                board.players[0].exile_count
            ),
            (2, 1)
        );
        assert_eq!(
            (
                board.players[1].graveyard_count,
                board.players[1].exile_count
            ),
            (1, 0)
        );
        let moat = board.players[0]
            .battlefield
            .iter()
            .find(|c| c.face.as_ref().is_some_and(|f| f.name == "Teferi's Moat"))
            .expect("the Moat");
        assert_eq!(moat.notes, vec!["chose green".to_string()]);
    }
}
