//! Costs (rule 409.1f-h): mana, {T}, {Q}, sacrifices, discards, life, counters.
//!
//! Card scripts write a cost as comma-separated parts:
//! `{1}{R}, {T}, discard a card, sacrifice this, pay 2 life, remove a mining counter`.
//! An additional cost with alternatives ("discard a card or pay {5}") is written with `|`.

use crate::mana::ManaCost;
use crate::object::CounterKind;
use crate::targets::ObjectFilter;
use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Cost {
    pub mana: Option<ManaCost>,
    pub tap: bool,
    pub untap: bool,
    pub parts: Vec<CostPart>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum CostPart {
    SacrificeThis,
    /// Sacrifice `count` permanents matching the filter (chosen while playing).
    Sacrifice(ObjectFilter, u32),
    /// Discard `count` cards (chosen while playing).
    Discard(u32),
    DiscardRandom(u32),
    PayLife(u32),
    RemoveCounters(CounterKind, u32),
    ExileThis,
    /// "Return ~ to its owner's hand" (Ovinomancer): the ability's source, on the battlefield.
    ReturnThis,
    /// Exile `count` cards matching the filter from graveyards (any player's; chosen as the
    /// cost is paid, 409.1f): "remove a Fungus card in a graveyard from the game".
    ExileFromGraveyard(ObjectFilter, u32),
    /// Discard X cards, X as chosen while casting (Conflagrate's flashback): the total cost
    /// of a cast turns it into `Discard(X)` once X is known.
    DiscardX,
    /// Tap `count` untapped permanents matching the filter that you control (chosen while
    /// casting; Gaze of Justice: "tap three untapped white creatures you control"). Not
    /// {T}: summoning sickness doesn't matter.
    TapUntapped(ObjectFilter, u32),
    /// "Remove a [kind] counter from a permanent you control or suspended card you own"
    /// (Rift Elemental): the permanent or card is chosen while paying.
    RemoveCounterFromYours(CounterKind),
    /// Return `count` permanents matching the filter that you control to their owner's
    /// hand (chosen while paying; Fathom Seer's morph cost).
    ReturnToHand(ObjectFilter, u32),
    /// "Discard this card" (cycling's cost, 502.18a / 702.28a: the ability's source, in
    /// its owner's hand).
    DiscardThis,
    /// Delve (702.65; `keywords/delve.rs`): exile up to `max` cards from your graveyard
    /// while casting, each paying for {1} of the generic mana (chosen while casting).
    Delve(u32),
    /// Convoke (702.50; `keywords/convoke.rs`): tap up to `max` untapped creatures you
    /// control while casting, each paying for {1} or one mana of its colour.
    Convoke(u32),
    /// "Remove X [kind] counters from ~" (the storage lands, A21): X as chosen while
    /// activating (for a mana ability, the amount of mana it makes).
    RemoveXCounters(CounterKind),
    /// Grandeur's "Discard another card named ~" (`keywords/grandeur.rs`): a card in its
    /// controller's hand with the source's name (chosen while activating).
    DiscardSameName,
    /// "Exile a nonland card from your hand" (Jhoira of the Ghitu): `count` cards of your
    /// hand matching the filter, chosen while paying; the ability remembers them
    /// (`StackItem::cost_exiled`).
    ExileFromHand(ObjectFilter, u32),
    /// "Put a -0/-1 counter on ~" (Wall of Roots): a counter of that kind on the source.
    PutCounterOnThis(CounterKind),
}

impl Cost {
    /// Adds `add` to this cost: its mana symbols, tapping, and its other parts (an
    /// additional or optional cost joining the total cost, 409.1f / 601.2f).
    pub fn add(&mut self, add: &Cost) {
        if let Some(m) = &add.mana {
            let mut merged = self.mana.take().unwrap_or_default();
            merged.symbols.extend(m.symbols.iter().copied());
            self.mana = Some(merged);
        }
        self.tap |= add.tap;
        self.untap |= add.untap;
        self.parts.extend(add.parts.iter().cloned());
    }

    /// Parses a cost of a card script, in any case (the grammar: [`crate::grammar::costs`]).
    pub fn parse(s: &str) -> Result<Self, String> {
        let lower = s.to_ascii_lowercase();
        crate::grammar::parse_all(crate::grammar::costs::cost, &lower)
    }

    pub fn mana_value(&self) -> u32 {
        self.mana.as_ref().map_or(0, |m| m.converted())
    }
    pub fn is_free(&self) -> bool {
        self.mana.as_ref().is_none_or(|m| m.is_empty())
            && !self.tap
            && !self.untap
            && self.parts.is_empty()
    }
}

/// A card filter in player words: "Fungus" rather than "fungus permanent".
pub fn card_filter_words(f: &ObjectFilter) -> String {
    let mut text = f.to_string();
    if let Some(sub) = &f.subtype {
        let mut cap = sub.clone();
        if let Some(first) = cap.get_mut(0..1) {
            first.make_ascii_uppercase();
        }
        text = text.replace(sub.as_str(), &cap);
    }
    text.trim_end_matches(" permanent").to_string()
}

impl fmt::Display for Cost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        if let Some(m) = &self.mana {
            parts.push(m.to_string());
        }
        if self.tap {
            parts.push("{T}".into());
        }
        if self.untap {
            parts.push("{Q}".into());
        }
        for p in &self.parts {
            parts.push(match p {
                CostPart::SacrificeThis => "sacrifice this".into(),
                CostPart::ExileThis => "exile this".into(),
                CostPart::ReturnThis => "return this to its owner's hand".into(),
                CostPart::Sacrifice(f, 1) => format!("sacrifice a {f}"),
                CostPart::Sacrifice(f, n) => format!("sacrifice {n} {f}s"),
                CostPart::Discard(1) => "discard a card".into(),
                CostPart::Discard(n) => format!("discard {n} cards"),
                CostPart::DiscardRandom(n) => format!("discard {n} card(s) at random"),
                CostPart::DiscardX => "discard X cards".into(),
                CostPart::DiscardThis => "discard this card".into(),
                CostPart::DiscardSameName => "discard another card with its name".into(),
                CostPart::ExileFromHand(f, 1) => {
                    format!("exile a {} card from your hand", card_filter_words(f))
                }
                CostPart::ExileFromHand(f, n) => {
                    format!("exile {n} {} cards from your hand", card_filter_words(f))
                }
                CostPart::Delve(n) => format!("exile up to {n} cards from your graveyard (delve)"),
                CostPart::Convoke(n) => {
                    format!("tap up to {n} untapped creatures you control (convoke)")
                }
                CostPart::TapUntapped(f, 1) => format!("tap an {f}"),
                CostPart::TapUntapped(f, n) => format!("tap {n} (each an {f})"),
                CostPart::ReturnToHand(f, n) => format!(
                    "return {n} {}s you control to their owner's hand",
                    f.subtype.as_deref().unwrap_or("permanent")
                ),
                CostPart::RemoveCounterFromYours(k) => format!(
                    "remove a {k} counter from a permanent you control or suspended card you own"
                ),
                CostPart::PayLife(n) => format!("pay {n} life"),
                CostPart::RemoveCounters(k, 1) => format!("remove a {k} counter"),
                CostPart::RemoveCounters(k, n) => format!("remove {n} {k} counters"),
                CostPart::RemoveXCounters(k) => format!("remove X {k} counters"),
                CostPart::PutCounterOnThis(k) => format!("put a {k} counter on it"),
                CostPart::ExileFromGraveyard(f, 1) => {
                    format!("exile a {} card from a graveyard", card_filter_words(f))
                }
                CostPart::ExileFromGraveyard(f, n) => {
                    format!("exile {n} {} cards from graveyards", card_filter_words(f))
                }
            });
        }
        if parts.is_empty() {
            return f.write_str("{0}");
        }
        f.write_str(&parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_cost_parts() {
        let c = Cost::parse("{1}{R}, {T}, discard a card").unwrap();
        assert!(c.tap);
        assert_eq!(c.mana_value(), 2);
        assert_eq!(c.parts, vec![CostPart::Discard(1)]);
        let c = Cost::parse("{T}, remove a mining counter").unwrap();
        assert_eq!(
            c.parts,
            vec![CostPart::RemoveCounters(CounterKind::Mining, 1)]
        );
        assert!(Cost::parse("{T}, dance a jig").is_err());
        let c = Cost::parse("{R}{R}, discard X cards").unwrap();
        assert_eq!(c.parts, vec![CostPart::DiscardX]);
        assert_eq!(c.to_string(), "{R}{R}, discard X cards");
        let c = Cost::parse("{1}, remove X storage counters").unwrap();
        assert_eq!(
            c.parts,
            vec![CostPart::RemoveXCounters(CounterKind::Named(
                "storage".into()
            ))]
        );
        assert_eq!(c.to_string(), "{1}, remove X storage counters");
        let c = Cost::parse("tap three untapped white creature").unwrap();
        assert!(matches!(
            c.parts.as_slice(),
            [CostPart::TapUntapped(f, 3)] if f.tapped == Some(false)
                && f.controller == Some(crate::targets::Relation::You)
        ));
        let c = Cost::parse("{B}{G}, exile a type:Fungus card from a graveyard").unwrap();
        assert!(matches!(
            c.parts.as_slice(),
            [CostPart::ExileFromGraveyard(f, 1)] if f.subtype.as_deref() == Some("fungus")
        ));
    }
}
