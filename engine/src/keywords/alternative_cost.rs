//! Alternative costs printed on a card (2006 rules 409.1b / 502.x "rather than pay";
//! 2014 rules 117.9 / 601.2b / 118.9): "You may [cost] rather than pay this spell's mana
//! cost" (Snapback's "exile a blue card from your hand"; the pitch spells of the block).
//!
//! The card's script says it with `alternative_cost = "COST"` (checked against the text).
//! Whether it is paid is announced as the spell is cast, before kicker and buyback, X and
//! the targets (`Decision::YesNo`, "exile a blue card from your hand rather than pay
//! Snapback's mana cost?"); the cost then replaces the mana cost in the total cost, and the
//! cards it names are chosen as costs are (`choose ...`). It can't be combined with another
//! alternative cost (118.9a): not asked when the spell is cast with flashback, for its
//! madness cost, face down, or without paying its mana cost (suspend); additional costs
//! still apply. The spell's mana value is its printed one (202.3: the cost paid never
//! changes it). The card exiled by a "from your hand" cost is another card: the spell
//! itself is on the stack as its costs are paid (601.2a).
//!
//! The question is asked only when the alternative could be paid; a "no" is refused when
//! the mana cost can't be (the spell must stay castable), a "yes" when the alternative can't.
//! A card with no mana cost (Living End, Hypergenesis) can be cast from the hand only this
//! way (Δ24 / R-no-mana-cost-2): the alternative is then announced without a question.
//!
//! A permanent may give the alternative to every spell its controller casts (Fist of Suns'
//! "You may pay {W}{U}{B}{R}{G} rather than pay the mana cost for spells that you cast", a
//! test fixture: `your_spells_alternative_cost`); it is offered like a printed one and,
//! like it, never with suspend's free cast or flashback (R-suspend-5).

use crate::casting::{CastKind, Casting};
use crate::costs::Cost;
use crate::decision::{Decision, RuleError, Words};
use crate::game::Game;
use crate::ids::PlayerId;

impl Game {
    /// The spell's printed alternative cost, when this cast may use it: a spell cast
    /// normally (not with flashback, madness, suspend's free cast, or face down).
    pub(crate) fn alternative_cost_of(&self, c: &Casting) -> Option<&'static Cost> {
        let CastKind::Spell(card) = c.kind else {
            return None;
        };
        if c.face_down || c.flashback.is_some() || c.madness || c.suspend_cast {
            return None;
        }
        self.def(card)?
            .cast_keys
            .alternative_cost
            .as_ref()
            .or_else(|| self.granted_alternative_cost(c.player))
    }

    /// An alternative cost a permanent of `player` gives the spells they cast (Fist of Suns,
    /// a test fixture): "You may pay COST rather than pay the mana cost for spells that you
    /// cast". A spell with a printed alternative cost is offered that one only (the block has
    /// no such permanent; a choice between two alternatives is not modelled).
    fn granted_alternative_cost(&self, player: PlayerId) -> Option<&'static Cost> {
        if !self.has_statics {
            return None;
        }
        self.battlefield.iter().find_map(|&id| {
            let o = self.obj(id)?;
            if o.controller != player || !self.has_own_abilities(id) {
                return None;
            }
            self.def(id)?.your_spells_alternative_cost.as_ref()
        })
    }

    /// The alternative-cost question to ask next (before kicker and buyback), if any: only
    /// when the alternative could be paid.
    pub(crate) fn alternative_cost_decision(&self, c: &Casting) -> Option<Decision> {
        let cost = self.alternative_cost_of(c)?;
        if c.alternative_cost.is_some() {
            return None;
        }
        let with = Casting {
            alternative_cost: Some(true),
            ..c.clone()
        };
        self.check_castable(&with).ok()?;
        let name = self.card_name(Self::cast_card(c)?);
        Some(Decision::YesNo {
            question: format!("{cost} rather than pay {name}'s mana cost?"),
        })
    }

    /// Whether the open yes/no question of `c` is the alternative-cost one.
    pub(crate) fn asking_alternative_cost(&self, c: &Casting) -> bool {
        self.alternative_cost_decision(c).is_some()
    }

    /// A yes or no to [`Self::alternative_cost_decision`]: the cast with that announced,
    /// which must leave the spell castable.
    pub(crate) fn announce_alternative_cost(
        &self,
        c: &Casting,
        yes: bool,
    ) -> Result<Casting, RuleError> {
        let next = Casting {
            alternative_cost: Some(yes),
            ..c.clone()
        };
        self.check_castable(&next).map_err(|e| {
            RuleError::illegal(if yes {
                format!("you can't pay its alternative cost: {e}")
            } else {
                format!("you can't pay its mana cost: {e}")
            })
        })?;
        Ok(next)
    }

    /// Castable with or without the alternative cost, while that is not yet announced.
    /// Its refusal worded per `w`.
    pub(crate) fn castable_either_cost(
        &self,
        c: &Casting,
        w: Words,
    ) -> Option<Result<(), RuleError>> {
        if c.alternative_cost.is_some() || self.alternative_cost_of(c).is_none() {
            return None;
        }
        let normal = self.castable_in(
            &Casting {
                alternative_cost: Some(false),
                ..c.clone()
            },
            w,
        );
        Some(normal.or_else(|e| {
            self.castable_in(
                &Casting {
                    alternative_cost: Some(true),
                    ..c.clone()
                },
                w,
            )
            .map_err(|alt| {
                w.illegal(|| format!("{e}; nor can you pay its alternative cost: {alt}"))
            })
        }))
    }

    fn cast_card(c: &Casting) -> Option<crate::ids::ObjectId> {
        match c.kind {
            CastKind::Spell(card) => Some(card),
            _ => None,
        }
    }
}
