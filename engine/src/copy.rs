//! Copy effects (706; 2006 503): layer 1.
//!
//! An object under a copy effect has the copiable values of another object
//! (`Object::copy_of`, read by `Object::face` and `Game::def`), so every later layer and
//! every query sees the copy without special cases. The copiable values of an object are
//! its printed card, or what it itself copies, or the face-down 2/2's while it is face
//! down (706.2-706.3, 707.2), plus the exceptions of the copy effect that made it so
//! (706.9b: Vesuvan Shapeshifter's upkeep trigger, `Object::copy_trigger`).
//!
//! Copy effects begin:
//! - as a permanent enters ("as ~ enters the battlefield, you may choose ..."): Vesuva
//!   (`priority.rs`, a land played), Clone and Vesuvan Shapeshifter (a spell resolving, or
//!   an effect putting the card onto the battlefield). The choice is made before it enters
//!   (614.12), recorded in `Game::copy_chosen`, and applied by `put_onto_battlefield`;
//! - as Vesuvan Shapeshifter is turned face up (the special action asks after the cost is
//!   paid, and it turns face up already a copy: R-vesuvan-shapeshifter-3);
//! - when a resolving ability says so (Scion of the Ur-Dragon, until end of turn).
//!
//! They end when the object leaves the battlefield, when Vesuvan Shapeshifter is turned
//! face down (`CopyUntil::TurnedFaceDown`) or in the cleanup step (`CopyUntil::EndOfTurn`).

pub use crate::abilities::{CopyCreature, CopyKind, CopyUntil};
use crate::decision::{Answer, Decision, Pending, RuleError};
use crate::game::Game;
use crate::ids::{CardId, ObjectId, PlayerId};
use crate::zones::ZoneKind;
use serde::{Deserialize, Serialize};

/// What a copy effect copies (706.2): a card's values, and whether Vesuvan Shapeshifter's
/// upkeep trigger comes with them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CopiableValues {
    pub card: CardId,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub shapeshifter_trigger: bool,
    /// The P/T of an X/X token (`Object::token_pt`), copied with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pt: Option<(i32, i32)>,
}

/// A copy choice being asked: of what the object will copy as it enters the battlefield
/// or is turned face up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CopyChoice {
    pub object: ObjectId,
    pub moment: CopyMoment,
}

/// When a copy choice is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CopyMoment {
    /// As it enters the battlefield from a resolving spell or effect (the resolution waits).
    Entering,
    /// As its controller turns it face up (the special action waits).
    TurningFaceUp,
    /// As a resolving effect turns it face up (Break Open; the resolution waits).
    TurnedFaceUpByEffect,
}

impl Game {
    /// The copiable values of a permanent (706.2-706.3): what it copies (with the copy
    /// effect's exceptions) or its card; the face-down 2/2's while it is face down (707.2).
    pub fn copiable_values(&self, id: ObjectId) -> Option<CopiableValues> {
        let o = self.obj(id)?;
        Some(if o.face_down {
            CopiableValues {
                card: self.catalog().face_down(),
                shapeshifter_trigger: false,
                pt: None,
            }
        } else {
            CopiableValues {
                card: o.copy_of.unwrap_or(o.card),
                shapeshifter_trigger: o.copy_of.is_some() && o.copy_trigger,
                pt: if o.copy_of.is_some() {
                    o.copy_pt
                } else {
                    o.token_pt
                },
            }
        })
    }

    /// Sets (or ends, with `None`) the copy effect on a permanent and keeps the caches and
    /// the checks its new abilities need honest.
    pub(crate) fn set_copy(&mut self, id: ObjectId, copy: Option<(CopiableValues, CopyUntil)>) {
        let Some(o) = self.obj_mut(id) else { return };
        match copy {
            Some((v, until)) => {
                o.copy_of = Some(v.card);
                o.copy_pt = v.pt;
                o.copy_trigger = v.shapeshifter_trigger;
                o.copy_until = until;
            }
            None => {
                o.copy_of = None;
                o.copy_pt = None;
                o.copy_trigger = false;
                o.copy_until = CopyUntil::AsEntered;
            }
        }
        let card = o.face_up();
        let trigger = o.copy_trigger;
        self.note_card_abilities(card);
        self.has_triggers |= trigger;
        // Its copiable values changed: the layer cache's key moves on.
        self.new_timestamp();
    }

    /// The creatures `copier` may copy: the other creatures on the battlefield.
    pub(crate) fn copy_creature_candidates(&self, copier: ObjectId) -> Vec<ObjectId> {
        self.battlefield
            .iter()
            .copied()
            .filter(|c| *c != copier && self.is_creature(*c))
            .collect()
    }

    /// The copy ability of a card about to enter the battlefield face up, if it has one and
    /// its choice has not been made yet.
    pub(crate) fn copy_choice_due(&self, id: ObjectId) -> Option<CopyCreature> {
        let o = self.obj(id)?;
        // A token never enters the battlefield again once it leaves (216.3 / 110.5f): an
        // effect returning it asks nothing.
        if (o.face_down && o.zone == ZoneKind::Stack) || o.token {
            return None;
        }
        // A permanent about to leave and return (Momentary Blink): it returns face up as
        // its card, so its card's ability counts, whatever it is now.
        let ability = self.catalog().get(o.card).copy_creature?;
        // No creature to choose: nothing to ask (it is itself).
        (!self.copy_chosen.iter().any(|(c, _)| *c == id)
            && !self.copy_creature_candidates(id).is_empty())
        .then_some(ability)
    }

    /// Asks `player` the copy choice of `object` (entering during a resolution, or turning
    /// face up).
    pub(crate) fn ask_copy(
        &mut self,
        object: ObjectId,
        player: PlayerId,
        moment: CopyMoment,
    ) -> Pending {
        self.copying = Some(CopyChoice { object, moment });
        Pending {
            player,
            decision: Decision::ChooseCopy {
                card: self
                    .catalog()
                    .get(self.objects[object.slot()].card)
                    .name
                    .clone(),
                of: CopyKind::Creature,
            },
        }
    }

    /// The values a copy ability gives for a chosen creature (or none).
    fn copy_for(
        &self,
        ability: CopyCreature,
        chosen: Option<ObjectId>,
    ) -> Option<(CopiableValues, CopyUntil)> {
        let mut v = self.copiable_values(chosen?)?;
        Some(match ability {
            CopyCreature::Clone => (v, CopyUntil::AsEntered),
            CopyCreature::Shapeshifter => {
                v.shapeshifter_trigger = true;
                (v, CopyUntil::TurnedFaceDown)
            }
        })
    }

    /// The answer to a creature copy choice: `Objects([creature])` or `Objects([])`.
    pub(crate) fn answer_copy_creature(
        &mut self,
        answer: Answer,
        choice: CopyChoice,
    ) -> Result<(), RuleError> {
        let Answer::Objects(objs) = answer else {
            return Err(RuleError::WrongKind {
                expected: "a creature to copy, or none".into(),
            });
        };
        let object = choice.object;
        let Some(ability) = self
            .obj(object)
            .and_then(|o| self.catalog().get(o.card).copy_creature)
        else {
            return Err(RuleError::illegal("nothing is entering the battlefield"));
        };
        let player = self.pending.as_ref().map_or(self.active, |p| p.player);
        let chosen = match objs.as_slice() {
            [] => None,
            [c] if self.copy_creature_candidates(object).contains(c) => Some(*c),
            [c] => {
                return Err(RuleError::illegal(format!(
                    "{} is not another creature on the battlefield",
                    self.seen_name(*c, Some(player))
                )));
            }
            _ => return Err(RuleError::illegal("choose one creature, or none")),
        };
        let copy = self.copy_for(ability, chosen);
        self.pending = None;
        self.copying = None;
        if choice.moment == CopyMoment::TurningFaceUp {
            self.turn_face_up_as(object, copy);
            // The special action is over: its player receives priority again (408.2h).
            self.passes = 0;
            self.give_priority(player);
        } else {
            self.copy_chosen.push((object, copy));
            self.resume_resolution();
        }
        Ok(())
    }

    /// Applies the copy choice recorded for `old` (before it moved) to the permanent `new`
    /// as it enters.
    pub(crate) fn apply_entering_copy(&mut self, old: ObjectId, new: ObjectId) {
        if let Some(copy) = self.take_copy_choice(old) {
            self.set_copy(new, Some(copy));
        }
    }

    /// The copy choice made for `id` during this resolution, if any (used up).
    pub(crate) fn take_copy_choice(&mut self, id: ObjectId) -> Option<(CopiableValues, CopyUntil)> {
        let i = self.copy_chosen.iter().position(|(c, _)| *c == id)?;
        self.copy_chosen.remove(i).1
    }

    /// The copy ability a face-down permanent has as it is turned face up (Vesuvan
    /// Shapeshifter's "or is turned face up").
    pub(crate) fn copy_as_turned_face_up(&self, id: ObjectId) -> bool {
        self.obj(id).is_some_and(|o| {
            o.face_down
                && o.copy_of.is_none()
                && self.catalog().get(o.card).copy_creature == Some(CopyCreature::Shapeshifter)
        }) && !self.copy_creature_candidates(id).is_empty()
    }

    /// "Until end of turn" copy effects end (cleanup, 314.2 / 514.2).
    pub(crate) fn end_turn_copies(&mut self) {
        let ending: Vec<ObjectId> = self
            .battlefield
            .iter()
            .copied()
            .filter(|id| {
                self.obj(*id)
                    .is_some_and(|o| o.copy_of.is_some() && o.copy_until == CopyUntil::EndOfTurn)
            })
            .collect();
        for id in ending {
            self.set_copy(id, None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board() -> Game {
        crate::scenario::board(
            r#"
[setup.alice]
battlefield = ["Craw Giant", { card = "Riptide Pilferer", face_down = true }]
[setup.bob]
battlefield = [{ card = "Vesuvan Shapeshifter", face_down = true }, "Squire"]
"#,
        )
        .expect("board")
    }

    fn id(g: &Game, name: &str) -> ObjectId {
        g.battlefield
            .iter()
            .copied()
            .find(|&i| g.catalog().get(g.objects[i.slot()].card).name == name)
            .unwrap_or_else(|| panic!("{name} is not on the battlefield"))
    }

    /// 706.2-706.3 and 706.9b: what a copy of each kind of permanent gets.
    #[test]
    fn copiable_values_follow_copies_and_face_down() {
        let mut g = board();
        let giant = id(&g, "Craw Giant");
        let pilferer = id(&g, "Riptide Pilferer");
        let shifter = id(&g, "Vesuvan Shapeshifter");
        let giant_card = g.objects[giant.slot()].card;
        // A face-down permanent's copiable values are the face-down 2/2's, nothing else.
        assert_eq!(
            g.copiable_values(pilferer),
            Some(CopiableValues {
                card: g.catalog().face_down(),
                shapeshifter_trigger: false,
                pt: None
            })
        );
        // The Shapeshifter copying the Giant: its values are the Giant's plus the trigger,
        // so a Clone of it gets both (R-vesuvan-shapeshifter-5).
        let copy = g.copy_for(CopyCreature::Shapeshifter, Some(giant));
        assert_eq!(
            copy,
            Some((
                CopiableValues {
                    card: giant_card,
                    shapeshifter_trigger: true,
                    pt: None
                },
                CopyUntil::TurnedFaceDown
            ))
        );
        g.turn_face_up_as(shifter, copy);
        assert_eq!(g.power_toughness(shifter), Some((6, 4)));
        assert_eq!(
            g.copy_for(CopyCreature::Clone, Some(shifter)).map(|c| c.0),
            copy.map(|c| c.0)
        );
        // Turned face down, the Shapeshifter's copy ends; a Clone's would not.
        g.turn_face_down(shifter);
        assert_eq!(g.objects[shifter.slot()].copy_of, None);
        g.turn_face_up(shifter);
        assert_eq!(g.power_toughness(shifter), Some((0, 0)));
        // Choosing nothing copies nothing.
        assert_eq!(g.copy_for(CopyCreature::Clone, None), None);
        // "Another creature": never itself.
        assert!(!g.copy_creature_candidates(shifter).contains(&shifter));
        assert!(g.copy_creature_candidates(shifter).contains(&giant));
    }

    /// Cleanup ends "until end of turn" copies only.
    #[test]
    fn end_of_turn_copies_end_in_cleanup() {
        let mut g = board();
        let giant = id(&g, "Craw Giant");
        let squire = id(&g, "Squire");
        let v = g.copiable_values(giant).expect("values");
        let s = g.copiable_values(squire).expect("values");
        g.set_copy(squire, Some((v, CopyUntil::EndOfTurn)));
        g.set_copy(giant, Some((s, CopyUntil::AsEntered)));
        assert_eq!(g.power_toughness(squire), Some((6, 4)));
        assert_eq!(g.power_toughness(giant), Some((1, 2)));
        g.end_turn_copies();
        assert_eq!(g.power_toughness(squire), Some((1, 2)));
        assert_eq!(g.power_toughness(giant), Some((1, 2)));
    }
}
