//! Madness (2006 rules 502.24; 2014 rules 702.34, numbered 702.33 before the July 2013
//! rules made indestructible a keyword; rulings A11). "Madness [cost]" is two
//! abilities (502.24a / 702.33a):
//!
//! 1. A static ability of the card in a player's hand, a replacement effect: "If a player
//!    would discard this card, that player discards it, but may exile it instead of putting
//!    it into their graveyard." The owner is asked as the card is about to be discarded
//!    (a yes/no question, [`Game::next_madness_question`]), whatever the reason for the
//!    discard (R-madness-5): a cost ("Discard a card:", Lightning Axe's additional cost,
//!    cycling), an effect (Careful Consideration, Smallpox, a random discard), or the
//!    cleanup step's discard to hand size (314.1). It is still a discard: discard triggers
//!    trigger, and the card never touches the graveyard (R-madness-6). No action discards a
//!    card at will (priority offers none).
//! 2. A triggered ability, "When this card is exiled this way, its owner may cast it by
//!    paying [cost] rather than paying its mana cost. If that player doesn't, they put this
//!    card into their graveyard" ([`MADNESS_TRIGGER`]). The card is cast while the trigger
//!    resolves, or put into the graveyard then: there is no later window (R-madness-1,
//!    R-madness-7). The cast ignores timing (a creature on another player's turn,
//!    R-madness-2) but not other restrictions (split second, R-split-second-6); the madness
//!    cost is an alternative cost (502.24b / 702.33b: cost increases apply, R-madness-4; the
//!    mana cost and converted mana cost don't change, R-madness-3). Cancelling the cast, or
//!    a card that can't be cast, puts it into the graveyard. If the trigger is countered
//!    (Trickbind), the card stays exiled.
//!
//! 2006 and 2014 play madness alike since Time Spiral's simplified timing (the 2006 rule
//! is the 2014 one with "removed from the game" for "exiled"; rules.md has no Δ row for
//! it): only the words differ (Δ6, Δ8), which views and the bot choose per ruleset.

use crate::abilities::{TriggerDef, TriggerEvent};
use crate::casting::{CastKind, Casting};
use crate::decision::{Answer, Decision, Pending, RuleError};
use crate::effects::Effect;
use crate::game::Game;
use crate::ids::{ObjectId, PlayerId};
use crate::resolve::Resolution;
use crate::stack::StackKind;
use crate::zones::{Position, ZoneKind};
use serde::{Deserialize, Serialize};

/// Madness's triggered ability, "when this card is exiled this way".
pub const MADNESS_TRIGGER: u8 = u8::MAX - 30;

/// "When this card is exiled this way, its owner may cast it by paying [cost] rather than
/// paying its mana cost. If that player doesn't, they put this card into their graveyard."
pub(crate) fn definition() -> &'static TriggerDef {
    static DEF: std::sync::OnceLock<TriggerDef> = std::sync::OnceLock::new();
    DEF.get_or_init(|| TriggerDef {
        divided: None,
        modes: Vec::new(),
        // Not consulted: the discard itself queues the trigger (`Game::discard`).
        when: TriggerEvent::CardDiscarded(crate::abilities::PlayerScope::You),
        condition: None,
        targets: Vec::new(),
        effects: vec![Effect::CastMadness],
        text: "Madness: when this card is exiled this way, its owner may cast it by paying its madness cost; if they don't, they put it into their graveyard.".into(),
    })
}

/// A discard that waits for its madness questions (effects and the cleanup step; a cost's
/// questions are part of its cast, `Casting::madness_choices`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MadnessDiscards {
    /// The madness card whose owner is being asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asking: Option<ObjectId>,
    /// The answers so far: whether each madness card is exiled with madness.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<(ObjectId, bool)>,
    /// The cleanup step's discard to hand size (314.1), waiting for its questions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cleanup: Option<Vec<ObjectId>>,
}

impl MadnessDiscards {
    pub fn is_empty(&self) -> bool {
        self.asking.is_none() && self.choices.is_empty() && self.cleanup.is_none()
    }
}

impl Game {
    /// The madness cost of a card in a hand or in exile, if it has madness.
    pub(crate) fn madness_cost(&self, card: ObjectId) -> Option<&'static crate::mana::ManaCost> {
        let o = self.obj(card)?;
        self.catalog().get(o.face_up()).madness.as_ref()
    }

    /// The question madness asks before the first of `cards` (about to be discarded) that
    /// has madness and no answer in `answered`: its owner chooses whether to exile it.
    pub(crate) fn next_madness_question(
        &self,
        cards: impl IntoIterator<Item = ObjectId>,
        answered: &[(ObjectId, bool)],
    ) -> Option<(ObjectId, Pending)> {
        cards.into_iter().find_map(|card| {
            let o = self.obj(card).filter(|o| o.zone == ZoneKind::Hand)?;
            let cost = self.madness_cost(card)?;
            if answered.iter().any(|(c, _)| *c == card) {
                return None;
            }
            let name = &self.catalog().get(o.card).name;
            let exile = if self.ruleset == crate::ruleset::Ruleset::Classic {
                "remove it from the game"
            } else {
                "exile it"
            };
            Some((
                card,
                Pending {
                    player: o.owner,
                    decision: Decision::YesNo {
                        question: format!(
                            "{name} is being discarded: {exile} with madness (then cast it for {cost} or put it into your graveyard) instead of putting it into your graveyard?"
                        ),
                    },
                },
            ))
        })
    }

    /// Whether `card`, about to be discarded, goes to exile with madness: its owner said so
    /// (the answer is used up).
    pub(crate) fn take_madness_choice(&mut self, card: ObjectId) -> bool {
        let choices = &mut self.madness_discards.choices;
        match choices.iter().position(|(c, _)| *c == card) {
            Some(i) => choices.remove(i).1 && self.madness_cost(card).is_some(),
            None => false,
        }
    }

    /// A card discarded with madness is in exile as `exiled`: its trigger waits to be put on
    /// the stack, controlled by its owner.
    pub(crate) fn madness_exiled(&mut self, exiled: ObjectId) {
        let Some(o) = self.obj(exiled) else { return };
        let (card, owner) = (o.card, o.owner);
        self.queue_builtin_trigger(exiled, card, owner, MADNESS_TRIGGER);
    }

    /// Discards each `(player, card)` at once, after asking about each madness card: the
    /// question to ask first, if one is due (the discard then waits for its answer).
    pub(crate) fn discard_all_asking(&mut self, cards: &[(PlayerId, ObjectId)]) -> Option<Pending> {
        if let Some((card, p)) = self.next_madness_question(
            cards.iter().map(|(_, c)| *c),
            &self.madness_discards.choices,
        ) {
            self.madness_discards.asking = Some(card);
            return Some(p);
        }
        for &(p, c) in cards {
            self.discard(p, c);
        }
        self.madness_discards.choices.clear();
        None
    }

    /// The cleanup step's discard to hand size (314.1) of the cards chosen, after madness's
    /// questions; then cleanup goes on.
    pub(crate) fn continue_cleanup_discard(&mut self) {
        let Some(cards) = self.madness_discards.cleanup.clone() else {
            return;
        };
        let player = self.active;
        let pairs: Vec<(PlayerId, ObjectId)> = cards.iter().map(|c| (player, *c)).collect();
        if let Some(p) = self.discard_all_asking(&pairs) {
            self.pending = Some(p);
            return;
        }
        self.madness_discards.cleanup = None;
        if self.finish_cleanup() == crate::turn::StepFlow::Continue {
            self.step_over();
        }
    }

    /// The answer to madness's question about a card being discarded by an effect or in
    /// the cleanup step: the discard goes on.
    pub(crate) fn answer_madness_discard(
        &mut self,
        _player: PlayerId,
        answer: Answer,
    ) -> Result<(), RuleError> {
        let yes = answer.yes_or_no()?;
        let Some(card) = self.madness_discards.asking.take() else {
            return Err(RuleError::illegal("there is no madness question to answer"));
        };
        self.madness_discards.choices.push((card, yes));
        self.pending = None;
        if self.resolution.is_some() {
            self.resume_resolution();
        } else {
            self.continue_cleanup_discard();
        }
        Ok(())
    }

    /// The cast madness's trigger offers: `card` from exile for its madness cost, timing
    /// ignored, other restrictions kept (split second, "can't be cast", targets, costs).
    pub(crate) fn check_madness_cast(
        &self,
        owner: PlayerId,
        card: ObjectId,
    ) -> Result<Casting, RuleError> {
        self.check_split_second()?;
        let def = self
            .def(card)
            .ok_or_else(|| RuleError::illegal("that card is no longer there"))?;
        self.check_cast_permission(owner, def)?;
        let c = Casting {
            madness: true,
            ..Casting::new(owner, CastKind::Spell(card))
        };
        self.check_castable(&c)?;
        Ok(c)
    }

    /// Madness's trigger resolves: if the card is still exiled, its owner is asked whether to
    /// cast it (if it can be cast); yes begins the cast as the trigger finishes resolving,
    /// otherwise it goes to its owner's graveyard. Returns the question to ask.
    pub(crate) fn madness_trigger_resolves(&mut self, res: &Resolution) -> Option<Pending> {
        let StackKind::Trigger { source: card, .. } = res.item.kind else {
            return None;
        };
        // A card that left exile is a new object: the trigger does nothing.
        let o = self.obj(card).filter(|o| o.zone == ZoneKind::Exile)?;
        let (owner, name) = (o.owner, self.catalog().get(o.card).name.clone());
        let cast = self.check_madness_cast(owner, card);
        match (res.may, cast) {
            (None, Ok(_)) => {
                let cost = self.madness_cost(card)?;
                return Some(Pending {
                    player: owner,
                    decision: Decision::YesNo {
                        question: format!(
                            "Madness: cast {name} for {cost}? If you don't, it goes to your graveyard"
                        ),
                    },
                });
            }
            (Some(true), Ok(c)) => self.cast_after_resolution = Some(c),
            _ => {
                self.move_object(card, ZoneKind::Graveyard, Position::Top);
            }
        }
        None
    }

    /// `Answer::Cancel` in a cast by madness: the player doesn't cast it, so it goes to its
    /// owner's graveyard, and the active player receives priority.
    pub(crate) fn decline_madness_cast(&mut self, c: &Casting) -> Result<(), RuleError> {
        let CastKind::Spell(card) = c.kind else {
            return Err(RuleError::illegal("nothing is being cast with madness"));
        };
        self.casting = None;
        self.pending = None;
        self.move_object(card, ZoneKind::Graveyard, Position::Top);
        self.passes = 0;
        self.give_priority(self.active);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::decision::{Answer, Decision};
    use crate::ids::PlayerId;
    use crate::zones::ZoneKind;

    fn game(setup: &str, script: &str) -> crate::game::Game {
        let src = format!(
            "name = \"t\"\ndescription = \"\"\nruleset = \"modern\"\nscript = [{script}]\n{setup}"
        );
        crate::scenario::game_from_str(&src).expect("scenario runs")
    }

    const CLEANUP: &str = r#"
[setup]
active = "alice"
step = "end"
turn = 3
[setup.alice]
hand = ["Fiery Temper", "Dark Withering", "Forest", "Forest", "Forest", "Forest", "Forest", "Forest", "Forest"]
battlefield = ["Mountain"]
"#;

    #[test]
    fn cleanup_questions_survive_a_json_round_trip_and_only_madness_cards_are_asked() {
        let g = game(
            CLEANUP,
            r#""goto cleanup", "alice: choose Forest, Fiery Temper""#,
        );
        let alice = PlayerId(0);
        let p = g.pending().cloned().expect("a question");
        assert!(matches!(p.decision, Decision::YesNo { .. }), "{p:?}");
        assert_eq!(g.legal_answers(alice), vec![Answer::Yes, Answer::No]);
        // Nothing is discarded while the question waits.
        assert_eq!(g.player(alice).hand.len(), 9);
        let mut g = crate::game::Game::from_json(&g.to_json().expect("json")).expect("json");
        g.submit(alice, Answer::Yes).expect("yes is accepted");
        let exiled: Vec<_> = g
            .exile
            .iter()
            .map(|id| g.card_name(*id).to_string())
            .collect();
        assert_eq!(exiled, vec!["Fiery Temper"]);
        assert_eq!(g.player(alice).hand.len(), 7);
        assert_eq!(g.player(alice).graveyard.len(), 1);
        // The trigger gives priority in the cleanup step (314.3).
        assert_eq!(g.pending().map(|p| &p.decision), Some(&Decision::Priority));
        assert!(
            g.exile
                .iter()
                .all(|id| g.obj(*id).is_some_and(|o| o.zone == ZoneKind::Exile))
        );
    }

    /// The card asked about is still in its owner's hand: only its owner's view names it
    /// (an effect's or the cleanup step's discard, and a cost's discard); the madness
    /// trigger's own question, with the card exiled face up, is public.
    #[test]
    fn the_madness_question_names_the_card_only_to_its_owner() {
        let axe = r#"
[setup]
active = "alice"
step = "precombat_main"
turn = 3
[setup.alice]
hand = ["Lightning Axe", "Fiery Temper"]
battlefield = ["Mountain", "Mountain"]
[setup.bob]
battlefield = ["Squire"]
"#;
        let cost = r#""alice: cast Lightning Axe", "alice: option 1", "alice: target Squire", "alice: discard Fiery Temper""#;
        let cases = [
            (
                CLEANUP,
                r#""goto cleanup", "alice: choose Forest, Fiery Temper""#,
            ),
            (axe, cost),
        ];
        for (setup, script) in cases {
            let g = game(setup, script);
            assert!(
                matches!(
                    g.pending().map(|p| &p.decision),
                    Some(Decision::YesNo { .. })
                ),
                "{:?}",
                g.pending()
            );
            let said = |v: Option<PlayerId>| g.view(v).pending.map(|p| p.description);
            let own = said(Some(PlayerId(0))).unwrap_or_default();
            assert!(own.contains("Fiery Temper"), "{own}");
            for other in [None, Some(PlayerId(1))] {
                let public = said(other).unwrap_or_default();
                assert!(!public.contains("Fiery Temper"), "{public}");
                assert!(public.contains("madness"), "{public}");
            }
        }
        // The trigger's question: the card is in exile, everyone sees it.
        let g = game(
            axe,
            &format!(r#"{cost}, "alice: yes", "alice: autopay", "resolve""#),
        );
        let public = g
            .view(None)
            .pending
            .map(|p| p.description)
            .unwrap_or_default();
        assert!(public.contains("Fiery Temper"), "{public}");
    }
}
