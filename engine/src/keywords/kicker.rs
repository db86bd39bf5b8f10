//! Kicker (2006 rules 502.21; 2014 rules 702.32; rulings A10) and the announcing of optional
//! additional costs (2006 409.1b; 2014 601.2b).
//!
//! "Kicker [cost]" means "you may pay an additional [cost] as you cast this spell";
//! "Kicker [A] and/or [B]" is two kicker abilities, each payable once (502.21a). Whether each
//! is paid is announced as the spell is cast, after its mode and before X and its targets
//! (`Decision::YesNo`, "pay kicker {W}{W} for Desolation Giant?"), and paid with the rest of
//! the total cost (409.1f-h / 601.2f-h). Kicker is not part of the mana cost: the mana
//! value stays the printed one (R-kicker-6).
//!
//! Targets that exist only when kicked (`CastKeys::kicker_targets`) can be chosen only if
//! kicking was announced, and must then be (409.1d / 601.2c, 502.21c, R-kicker-4).
//!
//! Kicked-ness belongs to the object (`Object::kicked`, one bit per printed kicker cost): the
//! spell, and the permanent it becomes as it resolves; any other zone change makes a new
//! object that wasn't kicked. A copy of a kicked spell is kicked (706.10 / 707.10:
//! `storm.rs`). "If it was kicked [with its {R} kicker]" reads the printed position of the
//! cost, never what was paid for it (502.21d, R-kicker-5): effects `if_kicked`,
//! `if_kicked_a`, `if_kicked_b`, trigger conditions `kicked`, `kicked_a`, `kicked_b`.
//!
//! "If ~ was kicked, it enters the battlefield with N counters [and with haste]" (614.1c: a
//! replacement of its entering): `enters_with = "N KIND if_kicked"` and a static ability
//! with `condition = "kicked"` (the haste stays while the permanent is the one that was the
//! kicked spell); [`Game::conditional_entering_counters`] also counts Storm Entity's
//! "a +1/+1 counter for each other spell cast this turn" (the storm count, `storm.rs`).

use crate::casting::{CastKind, Casting};
use crate::costs::Cost;
use crate::decision::{Decision, RuleError};
use crate::game::Game;
use crate::ids::ObjectId;

impl Game {
    /// Whether `id` (a spell, or a permanent whose ability asks) was kicked: with its
    /// `which`-th printed kicker cost, or with any.
    pub(crate) fn was_kicked(&self, id: ObjectId, which: Option<u8>) -> bool {
        self.obj(id).is_some_and(|o| match which {
            Some(i) => o.kicked & (1 << i) != 0,
            None => o.kicked != 0,
        })
    }

    /// The counters of `more` (a card's kicked or counted "enters with") that `id`, just
    /// put onto the battlefield (from the stack: it was cast this turn), gets.
    pub(crate) fn conditional_entering_counters(
        &self,
        more: &[crate::cards::EntersWith],
        id: ObjectId,
        from_stack: bool,
    ) -> Vec<(crate::object::CounterKind, u32)> {
        more.iter()
            .filter(|w| !w.if_kicked || self.was_kicked(id, None))
            .map(|w| {
                let n = match &w.count {
                    crate::cards::EntersCount::Fixed(n) => *n,
                    // A spell on the stack was cast this turn (steps don't end while the
                    // stack has objects): it isn't one of the "other" spells.
                    crate::cards::EntersCount::OtherSpellsThisTurn => self
                        .spells_cast_this_turn()
                        .saturating_sub(u32::from(from_stack)),
                    // "For each Island you control": counted as it enters (itself aside).
                    crate::cards::EntersCount::YouControl(t) => {
                        let me = self.obj(id).map(|o| o.controller);
                        self.battlefield
                            .iter()
                            .filter(|&&o| {
                                o != id
                                    && self.obj(o).map(|x| x.controller) == me
                                    && self.has_subtype(o, t.as_str())
                            })
                            .count() as u32
                    }
                };
                (w.kind.clone(), n)
            })
            .filter(|(_, n)| *n > 0)
            .collect()
    }

    /// The optional additional cost to announce next (409.1b / 601.2b): each kicker cost in
    /// printed order, then buyback. Only a spell cast face up has them.
    pub(crate) fn optional_cost_decision(&self, c: &Casting) -> Option<Decision> {
        let CastKind::Spell(card) = c.kind else {
            return None;
        };
        if c.face_down {
            return None;
        }
        let def = self.def(card)?;
        let keys = &def.cast_keys;
        if let Some(cost) = keys.kicker.get(c.kicks.len()) {
            let which = match (keys.kicker.len(), c.kicks.len()) {
                (1, _) => String::new(),
                (_, 0) => " (its first kicker)".into(),
                _ => " (its second kicker)".into(),
            };
            return Some(Decision::YesNo {
                question: format!("pay kicker {cost}{which} for {}?", def.name),
            });
        }
        if let Some(cost) = &keys.buyback
            && c.buyback.is_none()
        {
            return Some(Decision::YesNo {
                question: format!(
                    "pay buyback {} for {}?",
                    self.buyback_cost(c.player, cost),
                    def.name
                ),
            });
        }
        None
    }

    /// A yes or no to [`Self::optional_cost_decision`]: the cast with that announced. A "yes"
    /// must leave the spell castable (its costs payable, its kicker targets there).
    pub(crate) fn announce_optional_cost(
        &self,
        c: &Casting,
        yes: bool,
    ) -> Result<Casting, RuleError> {
        let CastKind::Spell(card) = c.kind else {
            return Err(RuleError::illegal("there is no optional cost to announce"));
        };
        let def = self
            .def(card)
            .ok_or_else(|| RuleError::illegal("that card is no longer there"))?;
        let mut next = c.clone();
        let what = if c.kicks.len() < def.cast_keys.kicker.len() {
            next.kicks.push(yes);
            "kicker"
        } else {
            next.buyback = Some(yes);
            "buyback"
        };
        if yes {
            self.check_castable(&next)
                .map_err(|e| RuleError::illegal(format!("you can't pay its {what}: {e}")))?;
        }
        Ok(next)
    }

    /// The kicker and buyback costs announced, added to the total cost (409.1f / 601.2f).
    pub(crate) fn add_optional_costs(&self, c: &Casting, total: &mut Cost) {
        let CastKind::Spell(card) = c.kind else {
            return;
        };
        let Some(def) = self.def(card) else { return };
        for (cost, paid) in def.cast_keys.kicker.iter().zip(&c.kicks) {
            if *paid {
                total.add(cost);
            }
        }
        if c.buyback == Some(true)
            && let Some(b) = &def.cast_keys.buyback
        {
            total.add(&self.buyback_cost(c.player, b));
        }
    }

    /// Whether a kicker cost announced for `c` has an {X} (kicker {X}: Verdeloth the
    /// Ancient): X is then chosen as for a mana cost with X, after the announcements.
    pub(crate) fn kicker_has_x(&self, c: &Casting) -> bool {
        let CastKind::Spell(card) = c.kind else {
            return false;
        };
        self.def(card).is_some_and(|d| {
            d.cast_keys
                .kicker
                .iter()
                .zip(&c.kicks)
                .any(|(k, paid)| *paid && k.mana.as_ref().is_some_and(|m| m.has_x()))
        })
    }

    /// The kicker bits of a cast (bit i: the i-th printed kicker cost announced).
    pub(crate) fn kicker_bits(c: &Casting) -> u8 {
        c.kicks
            .iter()
            .enumerate()
            .filter(|(_, k)| **k)
            .fold(0, |bits, (i, _)| bits | (1 << i))
    }
}
