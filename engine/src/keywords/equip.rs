//! Equip (2006 rules 502.33 and 212.2g-k; 2014 rules 702.6 and 301.5) and attaching in
//! general (2014 701.3). "Equip [cost]" means "[Cost]: Attach this permanent to target
//! creature you control. Activate only as a sorcery" (502.33a / 702.6a): the script key
//! `equip = "{2}"` builds that activated ability (`cards/script.rs`, checked against the
//! card's "Equip {2}" line), whose effect is `attach this to=target`
//! ([`crate::effects::Effect::Attach`]).
//!
//! - The target is "creature you control": an opponent's creature is refused, and control
//!   is checked again as the ability resolves (212.2h / 702.6a: an illegal target and the
//!   ability does nothing). Equip moves an Equipment from one creature to another; it can't
//!   unattach it (M.12).
//! - As it resolves, the Equipment becomes attached if it can: it must still be on the
//!   battlefield, the creature can legally be equipped (212.2i / 301.5c: not an Equipment
//!   that is a creature, not itself, no protection from its colours) ([`Game::can_attach`]).
//!   Attaching it to the creature it is already attached to does nothing (701.3b); a new
//!   attachment gives it a new timestamp (418.5e / 613.6e) and emits `Event::Attached`.
//! - The Equipment's controller and the equipped creature's controller are independent
//!   (212.2k / 301.5d): a control change of either moves nothing; only the Equipment's
//!   controller activates equip.
//! - "Equipped creature gets ..." is a static ability of the Equipment affecting the
//!   permanent it is attached to (script `equipped = true`; 412.2 / 301.5a); "whenever
//!   fortified land / equipped creature becomes tapped" is the trigger scope `attached`.
//! - State-based action S7 (420.5 / 704.5n): an Equipment attached to an illegal or
//!   nonexistent permanent becomes unattached and stays on the battlefield
//!   ([`Game::attachment_illegal`], `sba.rs`). Fortifications: `keywords/fortify.rs`.
//!
//! Both rulesets play equip alike (no difference between the 2006 and 2014 rules for the
//! block's cards). Cards: Sword of the Meek (its graveyard trigger returns it attached:
//! `return_to_battlefield_attached`), Darksteel Garrison (fortify).

use crate::effects::Effect;
use crate::events::Event;
use crate::game::Game;
use crate::ids::ObjectId;
use crate::resolve::Resolution;
use crate::types::CardType;
use crate::zones::ZoneKind;

impl Game {
    /// Whether `what` (an Aura, Equipment or Fortification on the battlefield) could be
    /// attached to `to` now: Equipment to a creature, a Fortification to a land (neither
    /// while it is a creature itself, never to itself), an Aura to what its "enchant"
    /// allows; none to a permanent with protection from one of its colours.
    pub(crate) fn can_attach(&self, what: ObjectId, to: ObjectId) -> bool {
        if what == to || !self.is_on_battlefield(what) || !self.is_on_battlefield(to) {
            return false;
        }
        // "This effect doesn't remove ~" (Pentarch Ward): `aura_illegal` weighs its protection.
        let spared = self
            .def(what)
            .is_some_and(|d| d.statics.iter().any(|st| st.doesnt_remove_source));
        if !spared
            && (self.protected_from(to, self.colors(what))
                || self.protected_from_mana_value(to, self.source_mana_value(what)))
        {
            return false;
        }
        if self.has_subtype(what, "Aura") {
            return !self.aura_illegal(what, to);
        }
        if self.is_creature(what) {
            return false;
        }
        if self.has_subtype(what, "Equipment") {
            return self.is_creature(to);
        }
        if self.has_subtype(what, "Fortification") {
            return self.has_type(to, CardType::Land);
        }
        false
    }

    /// S5-S7, S17 (420.5 / 704.5m-p): `id`, attached to `to`, may not stay so: `to` is gone,
    /// `id` is no Aura, Equipment or Fortification, or it could not be attached to `to` now.
    pub(crate) fn attachment_illegal(&self, id: ObjectId, to: ObjectId) -> bool {
        if !self.is_on_battlefield(to) {
            return true;
        }
        let attachable = ["Aura", "Equipment", "Fortification"]
            .iter()
            .any(|s| self.has_subtype(id, s));
        !attachable || !self.can_attach(id, to)
    }

    /// Attaches `what` to `to` if it can be (701.3a-b): a new timestamp (418.5e), an event;
    /// nothing if it can't or if it is already attached to `to`. True if it became attached.
    pub(crate) fn attach(&mut self, what: ObjectId, to: ObjectId) -> bool {
        if !self.can_attach(what, to) || self.obj(what).and_then(|o| o.attached_to) == Some(to) {
            return false;
        }
        let ts = self.new_timestamp();
        if let Some(o) = self.obj_mut(what) {
            o.attached_to = Some(to);
            o.timestamp = ts;
        }
        self.emit(Event::Attached {
            object: what,
            to: Some(to),
        });
        true
    }

    /// `attach` and `return_to_battlefield_attached` as an ability resolves.
    pub(crate) fn apply_attach(&mut self, res: &Resolution, e: &Effect) {
        match e {
            Effect::Attach { what, to } => {
                if let (Some(w), Some(t)) = (self.object_of(res, *what), self.object_of(res, *to)) {
                    self.attach(w, t);
                }
            }
            Effect::ReturnAttached { what, to } => {
                // "Return ~ from your graveyard to the battlefield, then attach it to that
                // creature": it returns even if it can't be attached (it stays unattached).
                let target = self.object_of(res, *to);
                if let Some(w) = self.object_of(res, *what)
                    && self.obj(w).is_some_and(|o| o.zone == ZoneKind::Graveyard)
                {
                    let owner = self.objects[w.slot()].owner;
                    if let Some(new) = self.put_onto_battlefield(w, owner, false)
                        && let Some(t) = target
                    {
                        self.attach(new, t);
                    }
                }
            }
            _ => debug_assert!(false, "not an attach effect: {e:?}"),
        }
    }
}
