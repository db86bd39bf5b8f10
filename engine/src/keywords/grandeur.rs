//! Grandeur (Future Sight; an ability word, 2014 rules 207.2c: no rules meaning of its
//! own). "Grandeur — Discard another card named [this]: [effect]" is an activated ability
//! whose cost discards a card from its controller's hand with the source's name
//! (`CostPart::DiscardSameName`, script cost `discard another card named this`). The card
//! discarded is chosen as the cost is paid (2006 409.1f-h / 2014 601.2g-h); a split card
//! would match either of its names (505.6 / 708.6). Cards: Tarox Bladewing.

use crate::game::Game;
use crate::ids::{ObjectId, PlayerId};

impl Game {
    /// The cards in `player`'s hand other than `source` that have `source`'s name.
    pub(crate) fn same_name_in_hand(
        &self,
        player: PlayerId,
        source: Option<ObjectId>,
    ) -> Vec<ObjectId> {
        let Some(def) = source.and_then(|s| self.def(s)) else {
            return Vec::new();
        };
        self.player(player)
            .hand
            .iter()
            .copied()
            .filter(|id| Some(*id) != source)
            .filter(|id| self.def(*id).is_some_and(|d| d.shares_name_with(def)))
            .collect()
    }
}
