//! Suspend (2006 rules 502.59; 2014 rules 702.61; rulings A3, A4). "Suspend N—[cost]" is
//! three abilities:
//!
//! 1. A static ability from the hand: if you could begin to cast this card from your hand,
//!    you may pay [cost] and exile it with N time counters on it, a special action that
//!    doesn't use the stack (`Answer::Suspend`, collected by the cast transaction as
//!    `CastKind::Suspend`; 502.59a / 702.61a). Only timing and permission are checked: a
//!    card with no legal target now, or with no mana cost (A4), can be suspended.
//!    "Suspend X": X is chosen as the cost is paid, and the card gets X time counters.
//! 2. "At the beginning of your upkeep, if this card is suspended, remove a time counter
//!    from it" ([`SUSPEND_UPKEEP_TRIGGER`]), working in exile.
//! 3. "When the last time counter is removed from this card, if it's exiled, cast it without
//!    paying its mana cost if able. If you can't, it remains exiled. If you cast a creature
//!    spell this way, it gains haste until you lose control of the spell or the permanent
//!    it becomes" ([`SUSPEND_CAST_TRIGGER`]). However the counter was removed (R-suspend-10).
//!    The cast follows the rules for alternative costs (502.59c / 702.61c): no other
//!    alternative cost applies, additional costs do; timing is ignored; it is mandatory if
//!    able in both rulesets (the 2014 rules still say "if able"; only the 2021 rules made it
//!    optional). Its owner may decline only by not activating mana abilities for a cost
//!    their pool can't pay (R-suspend-14); the card then stays exiled with no counters.
//!
//! A card is *suspended* when it has suspend, is in exile and has a time counter on it
//! (502.59b / 702.61b, [`Game::is_suspended`]). Suspended cards are public: views show
//! each with its time counters.

use crate::abilities::{ObjectScope, TriggerCondition, TriggerDef, TriggerEvent};
use crate::casting::{CastKind, Casting};
use crate::decision::{Decision, RuleError, Words};
use crate::effects::{Amount, Effect, ObjRef};
use crate::events::Event;
use crate::game::Game;
use crate::ids::{CardId, ObjectId, PlayerId};
use crate::object::CounterKind;
use crate::zones::{Position, ZoneKind};

/// The upkeep trigger of a suspended card (the second ability of suspend).
pub const SUSPEND_UPKEEP_TRIGGER: u8 = u8::MAX - 10;
/// The last-counter trigger of a suspended card (the third ability of suspend).
pub const SUSPEND_CAST_TRIGGER: u8 = u8::MAX - 11;

/// "At the beginning of your upkeep, if this card is suspended, remove a time counter from
/// it."
pub(crate) fn upkeep_definition() -> &'static TriggerDef {
    static DEF: std::sync::OnceLock<TriggerDef> = std::sync::OnceLock::new();
    DEF.get_or_init(|| TriggerDef {
        divided: None,
        modes: Vec::new(),
        when: TriggerEvent::YourUpkeep,
        condition: Some(TriggerCondition::Suspended),
        targets: Vec::new(),
        effects: vec![Effect::RemoveCounters {
            kind: CounterKind::Time,
            count: Amount::Fixed(1),
            what: ObjRef::This,
            then: Vec::new(),
        }],
        text: "Suspend: at the beginning of your upkeep, if this card is suspended, remove a time counter from it.".into(),
    })
}

/// "When the last time counter is removed from this card, if it's exiled, cast it without
/// paying its mana cost if able."
pub(crate) fn cast_definition() -> &'static TriggerDef {
    static DEF: std::sync::OnceLock<TriggerDef> = std::sync::OnceLock::new();
    DEF.get_or_init(|| TriggerDef {
        divided: None,
        modes: Vec::new(),
        when: TriggerEvent::CountersRemoved {
            on: ObjectScope::This,
            kind: Some(CounterKind::Time),
        },
        condition: Some(TriggerCondition::InExile),
        targets: Vec::new(),
        effects: vec![Effect::CastSuspended],
        text: "Suspend: when the last time counter is removed from this card, if it's exiled, cast it without paying its mana cost if able (a creature gains haste).".into(),
    })
}

impl Game {
    /// 502.59b / 702.61b: the card has suspend (printed, or gained in exile: Delay), is in
    /// exile and has a time counter.
    pub fn is_suspended(&self, id: ObjectId) -> bool {
        self.obj(id).is_some_and(|o| {
            o.zone == ZoneKind::Exile
                && self.has_suspend_in_exile(id)
                && o.counters.get(&CounterKind::Time) > 0
        })
    }

    /// Whether the card in exile has suspend: printed, or gained from an effect (Delay,
    /// Jhoira of the Ghitu, Epochrasite: `Object::gained_suspend`).
    pub fn has_suspend_in_exile(&self, id: ObjectId) -> bool {
        self.obj(id)
            .is_some_and(|o| o.gained_suspend || self.catalog().get(o.card).suspend.is_some())
    }

    /// Whether `player` may suspend `card` now: it is in their hand and has suspend, and they
    /// could begin to cast it from there now (timing and permission only: targets and the
    /// mana cost don't matter, R-suspend-6), and the suspend cost can be paid.
    pub(crate) fn check_begin_suspend(
        &self,
        player: PlayerId,
        card: ObjectId,
    ) -> Result<Casting, RuleError> {
        self.begin_suspend_in(player, card, Words::Explain)
    }

    /// [`Game::check_begin_suspend`], its refusal worded per `w`.
    fn begin_suspend_in(
        &self,
        player: PlayerId,
        card: ObjectId,
        w: Words,
    ) -> Result<Casting, RuleError> {
        let def = self.supported_card_in_hand(player, card)?;
        if def.suspend.is_none() {
            return Err(RuleError::illegal(format!(
                "{} doesn't have suspend, so it can't be suspended",
                def.name
            )));
        }
        self.check_cast_timing(player, card).map_err(|e| {
            w.illegal(|| {
                format!(
                    "{} can be suspended only when you could cast it: {}",
                    def.name, e
                )
            })
        })?;
        let c = Casting::new(player, CastKind::Suspend(card));
        self.castable_in(&c, w)?;
        Ok(c)
    }

    pub(crate) fn can_begin_suspend(&self, player: PlayerId, card: ObjectId) -> bool {
        self.begin_suspend_in(player, card, Words::Quiet).is_ok()
    }

    pub(crate) fn begin_suspend(
        &mut self,
        player: PlayerId,
        card: ObjectId,
    ) -> Result<(), RuleError> {
        let c = self.check_begin_suspend(player, card)?;
        self.continue_casting(c);
        Ok(())
    }

    /// The special action done, its cost paid: the card is exiled face up with its time
    /// counters (N, or the X chosen). No stack, no spell cast (R-suspend-7).
    pub(crate) fn commit_suspend(&mut self, c: &Casting, card: ObjectId) {
        let Some(def) = self.def(card) else { return };
        let Some(s) = &def.suspend else { return };
        let time = s.time.unwrap_or(c.x.unwrap_or(0));
        let card_id = def.id;
        let Some(exiled) = self.move_object(card, ZoneKind::Exile, Position::Top) else {
            return;
        };
        self.has_suspended_cards = true;
        self.add_counters(exiled, CounterKind::Time, time);
        self.emit(Event::Suspended {
            player: c.player,
            card: card_id,
            object: exiled,
            time,
        });
    }

    /// The upkeep triggers of `active`'s suspended cards (their owner's upkeep: an exiled
    /// card's controller is its owner).
    pub(crate) fn suspend_upkeep_triggers(
        &self,
        active: PlayerId,
    ) -> Vec<(ObjectId, CardId, PlayerId, usize, Option<ObjectId>)> {
        if !self.has_suspended_cards {
            return Vec::new();
        }
        self.exile
            .iter()
            .filter(|id| self.is_suspended(**id))
            .filter_map(|id| self.obj(*id))
            .filter(|o| o.owner == active)
            .map(|o| (o.id, o.card, o.owner, SUSPEND_UPKEEP_TRIGGER as usize, None))
            .collect()
    }

    /// The last-counter trigger, when `object`'s last time counter was just removed while
    /// it has suspend (in exile: the "if it's exiled" is checked again as it resolves).
    pub(crate) fn suspend_cast_trigger(
        &self,
        object: ObjectId,
    ) -> Option<(ObjectId, CardId, PlayerId, usize, Option<ObjectId>)> {
        let o = self.obj(object)?;
        (o.zone == ZoneKind::Exile
            && self.has_suspend_in_exile(object)
            && o.counters.get(&CounterKind::Time) == 0)
            .then_some((o.id, o.card, o.owner, SUSPEND_CAST_TRIGGER as usize, None))
    }

    /// The last-counter trigger resolves: its owner casts the card without paying its mana
    /// cost if able (the cast begins once the trigger has finished resolving). If it can't
    /// be cast (no legal target, a cost that can't be paid), it stays exiled.
    pub(crate) fn cast_suspended(&mut self, card: ObjectId) {
        let Some(o) = self.obj(card) else { return };
        if o.zone != ZoneKind::Exile {
            return;
        }
        let owner = o.owner;
        let c = Casting {
            suspend_cast: true,
            ..Casting::new(owner, CastKind::Spell(card))
        };
        let def = self.catalog().get(o.face());
        match self
            .check_cast_permission(owner, def)
            .and_then(|()| self.check_castable(&c))
        {
            Ok(()) => self.cast_after_resolution = Some(c),
            Err(e) => {
                let card_id = o.card;
                self.emit(Event::SuspendedCastImpossible {
                    player: owner,
                    card: card_id,
                    reason: e.to_string(),
                });
            }
        }
    }

    /// A cast by suspend may be abandoned only where its owner would have to activate mana
    /// abilities to pay what their pool can't (R-suspend-14): elsewhere it is mandatory.
    pub(crate) fn may_decline_suspend_cast(&self, c: &Casting) -> bool {
        if !self
            .pending
            .as_ref()
            .is_some_and(|p| matches!(p.decision, Decision::PayMana { .. }))
        {
            return false;
        }
        let cost = self.payable_mana(c);
        !self.player(c.player).pool.clone().try_pay(&cost)
    }

    /// `Answer::Cancel` in a cast by suspend: allowed only as [`Self::may_decline_suspend_cast`]
    /// says; the card stays exiled with no counters and the active player receives priority.
    pub(crate) fn decline_suspend_cast(&mut self, c: &Casting) -> Result<(), RuleError> {
        let CastKind::Spell(card) = c.kind else {
            return Err(RuleError::illegal("nothing is being cast by suspend"));
        };
        let Some(card_id) = self.obj(card).map(|o| o.card) else {
            return Err(RuleError::illegal("that card is no longer there"));
        };
        if !self.may_decline_suspend_cast(c) {
            return Err(RuleError::illegal(format!(
                "{} must be cast: suspend casts it if able, and it can be cast (you may decline only to make mana your pool lacks)",
                self.catalog().get(card_id).name
            )));
        }
        self.casting = None;
        self.pending = None;
        self.emit(Event::SuspendedCastImpossible {
            player: c.player,
            card: card_id,
            reason: "its owner didn't make the mana to pay for it".into(),
        });
        self.passes = 0;
        self.give_priority(self.active);
        Ok(())
    }

    /// A creature spell cast by suspend resolved into `permanent`: it gains haste until its
    /// controller loses control of it (R-suspend-15).
    pub(crate) fn grant_suspend_haste(&mut self, permanent: ObjectId, controller: PlayerId) {
        if !self.is_creature(permanent) {
            return;
        }
        self.add_keyword_effect(
            permanent,
            controller,
            vec![permanent],
            crate::keywords::Keyword::Haste,
            crate::effects::Duration::WhileYouControlSource,
        );
    }
}
