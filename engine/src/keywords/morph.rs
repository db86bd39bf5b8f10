//! Morph (2006 rules 502.26, 504; 2014 rules 702.36, 707): casting a card face down as a
//! 2/2 creature spell for {3} (502.26b-c / 702.36c), turning a face-down permanent face up
//! for its morph cost as a special action (502.26d / 702.36e, 408.2h / 116.2b), and the
//! primitives that turn permanents face down and face up (timestamps, copy choices).
//! A face-down object's characteristics are the face-down 2/2's (`Object::face`), so other
//! rules see it without special cases; who may see the card is `Game::seen_name`.
//! Morph costs may be non-mana costs (Gathan Raiders' "Morph—Discard a card", Fathom
//! Seer's "Morph—Return two Islands you control to their owner's hand"), and noncreature
//! cards may have morph (Lumithread Field, Zoetic Cavern): turned face up, such a
//! permanent is no longer a creature and leaves combat.

use crate::casting::{CastKind, Casting};
use crate::decision::{RuleError, Words};
use crate::events::Event;
use crate::game::Game;
use crate::ids::{ObjectId, PlayerId};
use crate::zones::ZoneKind;

impl Game {
    /// Casting a card face down with morph (502.26b-c / 702.36c): from your hand, with the
    /// timing of a creature spell (the face-down spell has no flash), paying {3}; also from
    /// exile by a permission to play it (Grinning Totem, `play_permission.rs`).
    pub(crate) fn check_begin_cast_face_down(
        &self,
        player: PlayerId,
        card: ObjectId,
    ) -> Result<Casting, RuleError> {
        self.begin_cast_face_down_in(player, card, Words::Explain)
    }

    /// [`Game::check_begin_cast_face_down`], its refusal worded per `w`.
    fn begin_cast_face_down_in(
        &self,
        player: PlayerId,
        card: ObjectId,
        w: Words,
    ) -> Result<Casting, RuleError> {
        let def = self.supported_card_to_cast(player, card)?;
        if def.morph.is_none() {
            return Err(RuleError::illegal(format!(
                "{} doesn't have morph, so it can't be cast face down",
                def.name
            )));
        }
        self.check_split_second()?;
        if let Some(why) = self.why_not_sorcery_timing(player) {
            return Err(RuleError::illegal(format!(
                "a face-down creature spell can be cast only when you could cast a sorcery (your main phase, empty stack): {why}"
            )));
        }
        let c = Casting {
            face_down: true,
            ..Casting::new(player, CastKind::Spell(card))
        };
        self.castable_in(&c, w)?;
        Ok(c)
    }
    /// Turning a face-down permanent face up (502.26d / 702.36e, 408.2h / 116.2b): any time
    /// its controller has priority, even with a split second spell on the stack (502.58);
    /// only for its morph cost, so a face-down card without morph (Ixidron) or one that
    /// lost its abilities (R-sudden-spoiling-4) stays face down.
    pub(crate) fn check_begin_turn_face_up(
        &self,
        player: PlayerId,
        id: ObjectId,
    ) -> Result<Casting, RuleError> {
        self.begin_turn_face_up_in(player, id, Words::Explain)
    }

    /// [`Game::check_begin_turn_face_up`], its refusal worded per `w`.
    fn begin_turn_face_up_in(
        &self,
        player: PlayerId,
        id: ObjectId,
        w: Words,
    ) -> Result<Casting, RuleError> {
        let o = self
            .obj(id)
            .ok_or_else(|| RuleError::illegal("that permanent is no longer there"))?;
        if o.zone != ZoneKind::Battlefield || !o.face_down {
            return Err(RuleError::illegal(
                "that is not a face-down permanent on the battlefield",
            ));
        }
        if o.controller != player {
            return Err(RuleError::illegal(
                "only its controller can turn a face-down permanent face up",
            ));
        }
        let real = self.catalog().get(o.face_up());
        if real.morph.is_none() {
            return Err(RuleError::illegal(format!(
                "{} has no morph, so it can't be turned face up by paying a morph cost",
                real.name
            )));
        }
        if !self.has_own_abilities(id) {
            return Err(RuleError::illegal(format!(
                "{} has lost all its abilities, so it can't be turned face up for its morph cost",
                real.name
            )));
        }
        let c = Casting::new(player, CastKind::TurnFaceUp(id));
        self.castable_in(&c, w)?;
        Ok(c)
    }
    pub(crate) fn can_begin_cast_face_down(&self, player: PlayerId, card: ObjectId) -> bool {
        self.begin_cast_face_down_in(player, card, Words::Quiet)
            .is_ok()
    }
    pub(crate) fn can_begin_turn_face_up(&self, player: PlayerId, id: ObjectId) -> bool {
        self.begin_turn_face_up_in(player, id, Words::Quiet).is_ok()
    }
    pub(crate) fn begin_cast_face_down(
        &mut self,
        player: PlayerId,
        card: ObjectId,
    ) -> Result<(), RuleError> {
        let c = self.check_begin_cast_face_down(player, card)?;
        self.continue_casting(c);
        Ok(())
    }
    pub(crate) fn begin_turn_face_up(
        &mut self,
        player: PlayerId,
        id: ObjectId,
    ) -> Result<(), RuleError> {
        let c = self.check_begin_turn_face_up(player, id)?;
        self.continue_casting(c);
        Ok(())
    }

    /// The answer to an "as ~ is turned face up" choice asked by the special action
    /// (Aquamorph Entity's P/T): it turns face up already of that size (not */* first: its
    /// ruling), and the player receives priority again (408.2h).
    pub(crate) fn answer_face_up_choice(
        &mut self,
        player: PlayerId,
        options: usize,
        answer: crate::decision::Answer,
    ) -> Result<(), RuleError> {
        let crate::decision::Answer::Mode(i) = answer else {
            return Err(RuleError::WrongKind {
                expected: format!("one of the {options} options, not {}", answer.kind_name()),
            });
        };
        if i as usize >= options {
            return Err(RuleError::illegal(format!("choose option 1 to {options}")));
        }
        let Some(id) = self.face_up_choosing else {
            return Err(RuleError::illegal("there is no question to answer"));
        };
        let card = self.objects[id.slot()].face_up();
        let Some((words, chosen)) = self
            .enter_choice_options(card, player)
            .get(i as usize)
            .cloned()
        else {
            return Err(RuleError::illegal(format!("choose option 1 to {options}")));
        };
        self.pending = None;
        self.face_up_choosing = None;
        self.set_chosen(id, chosen);
        self.emit(Event::Chose {
            object: id,
            choice: words,
        });
        self.turn_face_up(id);
        self.passes = 0;
        self.give_priority(player);
        Ok(())
    }

    /// Turns a permanent face down (502.26e / 702.36, 707.2): it becomes a 2/2 with no
    /// name, text, subtypes, colour or mana cost; it keeps its status and its identity
    /// (R-morph-6). Already face down: nothing happens (R-ixidron-7).
    pub(crate) fn turn_face_down(&mut self, id: ObjectId) {
        if !self.is_on_battlefield(id) || self.obj(id).is_some_and(|o| o.face_down) {
            return;
        }
        let card = self.objects[id.slot()].face();
        // Vesuvan Shapeshifter's copy lasts "until it is turned face down".
        if self.obj(id).is_some_and(|o| {
            o.copy_of.is_some() && o.copy_until == crate::copy::CopyUntil::TurnedFaceDown
        }) {
            self.set_copy(id, None);
        }
        self.set_face_down(id, true);
        self.emit(Event::TurnedFaceDown { object: id, card });
    }
    /// Turns a face-down permanent face up (502.26d / 702.36e): the same permanent with
    /// its own characteristics again; it does not enter the battlefield.
    pub(crate) fn turn_face_up(&mut self, id: ObjectId) {
        self.turn_face_up_as(id, None);
    }
    /// Turns a face-down permanent face up, already a copy when `copy` says so (Vesuvan
    /// Shapeshifter: it is never face up as itself first, R-vesuvan-shapeshifter-3).
    pub(crate) fn turn_face_up_as(
        &mut self,
        id: ObjectId,
        copy: Option<(crate::copy::CopiableValues, crate::copy::CopyUntil)>,
    ) {
        if !self.obj(id).is_some_and(|o| o.face_down) {
            return;
        }
        if copy.is_some() {
            self.set_copy(id, copy);
        }
        self.set_face_down(id, false);
        // A noncreature card turned face up (Lumithread Field) is no longer a creature: it
        // is removed from combat (2006 306.2 / 2014 506.4).
        if !self.is_creature(id)
            && let Some(c) = &mut self.combat
        {
            c.remove(id);
        }
        let Some(o) = self.obj(id) else { return };
        let (card, controller) = (o.face_up(), o.controller);
        self.emit(Event::TurnedFaceUp {
            object: id,
            card,
            controller,
        });
    }
    pub(crate) fn set_face_down(&mut self, id: ObjectId, down: bool) {
        // Modern 613.7f: a permanent gets a new timestamp when it turns face up or down;
        // the 2006 rules (418.5e) give none. The counter moves either way, so the layer
        // cache is recomputed.
        let ts = self.new_timestamp();
        let fresh = self.ruleset.timestamp_on_turning_face();
        if let Some(o) = self.obj_mut(id) {
            o.face_down = down;
            if fresh {
                o.timestamp = ts;
            }
        }
        // Its face may have static abilities that change types or abilities.
        let def = self.catalog().get(self.objects[id.slot()].face());
        self.layered |= def.statics.iter().any(|s| s.is_layered());
    }
}
