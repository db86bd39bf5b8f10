//! Buyback (2006 rules 502.16; 2014 rules 702.26; rulings A6).
//!
//! "Buyback [cost]" is two static abilities working on the stack: "you may pay an additional
//! [cost] as you cast this spell" (announced like kicker, `kicker.rs`: a yes or no after the
//! kicker costs) and "if the buyback cost was paid, put this spell into your hand instead of
//! into your graveyard as it resolves" (`Object::buyback`, [`Game::buyback_destination`]).
//! Only a spell that resolves returns: countered (by a spell or by the rules for illegal
//! targets) it goes to the graveyard (R-buyback-2). What matters is the announcement, not
//! what was paid: a buyback cost reduced to nothing still returns the card (R-buyback-5).
//! Buyback is not part of the mana cost (R-buyback-6). A copy of a spell with buyback paid
//! has it paid too; it is put into its controller's hand and ceases to exist (R-buyback-4).
//!
//! The rulesets differ for a spell controlled by a player who doesn't own it: the 2006
//! text replaces only going to *its controller's* graveyard, so a stolen spell goes to its
//! owner's graveyard (R-buyback-3); the 2014 text (702.26a) puts it into *its owner's* hand
//! instead of *that player's* graveyard, so it returns to its owner's hand.

use crate::costs::Cost;
use crate::game::Game;
use crate::ids::{ObjectId, PlayerId};
use crate::mana::{ManaCost, ManaSymbol};
use crate::zones::ZoneKind;

impl Game {
    /// The buyback cost `player` pays: the printed one, its generic mana less what their
    /// permanents reduce (a test fixture's "buyback costs cost {N} less").
    pub(crate) fn buyback_cost(&self, player: PlayerId, printed: &Cost) -> Cost {
        let less: u32 = self
            .battlefield_of(player)
            .filter(|o| self.has_own_abilities(o.id))
            .filter_map(|o| self.def(o.id))
            .map(|d| d.cast_keys.buyback_costs_less)
            .sum();
        if less == 0 {
            return printed.clone();
        }
        let mut cost = printed.clone();
        if let Some(m) = &printed.mana {
            let mut left = less;
            let symbols = m
                .symbols
                .iter()
                .filter_map(|s| match s {
                    ManaSymbol::Generic(n) => {
                        let cut = (*n).min(left);
                        left -= cut;
                        (*n > cut).then_some(ManaSymbol::Generic(n - cut))
                    }
                    other => Some(*other),
                })
                .collect();
            cost.mana = Some(ManaCost { symbols });
        }
        cost
    }

    /// Where an instant or sorcery that resolves goes (413.2h / 608.2k): its owner's hand if
    /// its buyback cost was paid (in the 2006 rules only if its controller owns it), else its
    /// owner's graveyard.
    pub(crate) fn buyback_destination(&self, spell: ObjectId, controller: PlayerId) -> ZoneKind {
        let Some(o) = self.obj(spell) else {
            return ZoneKind::Graveyard;
        };
        let returns =
            o.buyback && (self.ruleset.buyback_returns_to_owner() || o.owner == controller);
        if returns {
            ZoneKind::Hand
        } else {
            ZoneKind::Graveyard
        }
    }
}
