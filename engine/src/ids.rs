//! Identifiers: players, game objects and card definitions.
//!
//! An [`ObjectId`] names one *object* (rule 109 in modern numbering, 200 in 2006): a card
//! or token in one zone. When a card changes zones it becomes a new object (rule 217.1c / 400.7),
//! so the id has two parts: the physical `slot` (the card, stable for the whole game) and a
//! `generation` that increments at each zone change. An id held by a stale prompt or a
//! spell's target therefore stops matching as soon as the card moves.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A player seat, in turn order from 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlayerId(pub u8);

impl PlayerId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "P{}", self.0 + 1)
    }
}

/// One game object: `slot` (low 16 bits) is the physical card, `generation` (high 16 bits)
/// counts its zone changes. Serialised as a newtype struct (JSON: the bare number), so that
/// the loop fingerprint (`loops.rs`) recognises object references by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ObjectId(pub u32);

impl ObjectId {
    pub fn new(slot: u16, generation: u16) -> Self {
        ObjectId(((generation as u32) << 16) | slot as u32)
    }
    pub fn slot(self) -> usize {
        (self.0 & 0xffff) as usize
    }
    pub fn generation(self) -> u16 {
        (self.0 >> 16) as u16
    }
    /// The id the same card will have after its next zone change.
    pub fn next(self) -> Self {
        ObjectId::new(self.slot() as u16, self.generation().wrapping_add(1))
    }
}

impl fmt::Display for ObjectId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}.{}", self.slot(), self.generation())
    }
}

/// Index of a card definition in the [`crate::cards::Catalog`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CardId(pub u16);

impl CardId {
    /// The bit that marks the id of one half of a split card (2006 505 / 2014 708): the
    /// halves are definitions of their own, outside the catalog's list of cards, with ids
    /// made from their card's id, so they never move when cards are added.
    pub const HALF_BIT: u16 = 0x8000;

    /// The id of half `half` (0: left, 1: right) of the split card `self`.
    pub fn split_half(self, half: u8) -> CardId {
        CardId(Self::HALF_BIT | (self.0 << 1) | u16::from(half & 1))
    }
    /// Whether this is the id of a split card's half.
    pub fn is_split_half(self) -> bool {
        self.0 & Self::HALF_BIT != 0
    }
    /// The split card a half belongs to, and which half it is.
    pub fn half_of(self) -> Option<(CardId, u8)> {
        self.is_split_half()
            .then_some((CardId((self.0 & !Self::HALF_BIT) >> 1), (self.0 & 1) as u8))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn object_ids_change_with_zone_changes() {
        let a = ObjectId::new(7, 0);
        let b = a.next();
        assert_eq!(a.slot(), b.slot());
        assert_ne!(a, b);
        assert_eq!(b.generation(), 1);
    }

    #[test]
    fn split_half_ids_name_their_card_and_half() {
        let card = CardId(593);
        let right = card.split_half(1);
        assert!(right.is_split_half() && !card.is_split_half());
        assert_eq!(right.half_of(), Some((card, 1)));
        assert_eq!(card.split_half(0).half_of(), Some((card, 0)));
        assert_ne!(card.split_half(0), right);
        assert_eq!(card.half_of(), None);
    }
}
