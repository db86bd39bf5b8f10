//! Chroma (Future Sight; an ability word, 2014 rules 207.2c: no rules meaning of its own;
//! 2006: the same, ability words being italic text without rules). Each chroma ability
//! counts the coloured mana symbols of one colour in mana costs (FAQ: a hybrid symbol that
//! includes the colour counts, {G/W} is green and white; generic and colourless symbols and
//! X never count; a card with no mana cost has none). The block's one chroma card,
//! Phosphorescent Feast, counts the cards revealed from its controller's hand:
//! `reveal_for_chroma G` asks for any number of cards in the hand (`Decision::Reveal`; none
//! is fine) and sets X to the count, then `gain twice_X` gains 2 life for each. A split
//! card in a hand has both halves' costs (505.2 / 708.2): both are counted. Both rulesets
//! alike. Cards: Phosphorescent Feast.

use crate::decision::{Decision, Pending};
use crate::events::Event;
use crate::game::Game;
use crate::ids::ObjectId;
use crate::mana::{Color, ManaCost, ManaSymbol};
use crate::resolve::{Progress, Resolution};

/// The mana symbols of `color` in `cost` (hybrid symbols with it included).
pub fn symbols_of(cost: &ManaCost, color: Color) -> u32 {
    cost.symbols
        .iter()
        .filter(|s| match s {
            ManaSymbol::Colored(c) => *c == color,
            ManaSymbol::Hybrid(a, b) => *a == color || *b == color,
            _ => false,
        })
        .count() as u32
}

impl Game {
    /// `reveal_for_chroma`: asks its controller which cards of their hand to reveal (any
    /// number, any card); with the answer, X is the count of `color`'s symbols.
    pub(crate) fn reveal_chroma(&mut self, res: &mut Resolution, color: Color) -> Option<Progress> {
        let me = res.item.controller;
        let Some(i) = res.choices.iter().position(|(p, _)| *p == me) else {
            return Some(Progress::Ask(Pending {
                player: me,
                decision: Decision::Reveal {
                    filter: Default::default(),
                },
            }));
        };
        let (_, cards) = res.choices.remove(i);
        res.item.x = self.chroma_count(&cards, color);
        for card in cards {
            self.emit(Event::Revealed { player: me, card });
        }
        None
    }

    /// The mana symbols of `color` in the mana costs of `cards` (a split card: both halves).
    pub(crate) fn chroma_count(&self, cards: &[ObjectId], color: Color) -> u32 {
        let catalog = self.catalog();
        cards
            .iter()
            .filter_map(|id| self.def(*id))
            .map(|d| match &d.split {
                Some(_) => (0..2)
                    .filter_map(|h| catalog.get(d.id.split_half(h)).mana_cost.as_ref())
                    .map(|c| symbols_of(c, color))
                    .sum(),
                None => d.mana_cost.as_ref().map_or(0, |c| symbols_of(c, color)),
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_coloured_and_hybrid_symbols_of_one_colour() {
        let cost: ManaCost = "{2}{G}{G}{U}".parse().expect("a cost");
        assert_eq!(symbols_of(&cost, Color::G), 2);
        assert_eq!(symbols_of(&cost, Color::U), 1);
        assert_eq!(symbols_of(&cost, Color::R), 0);
        let hybrid = ManaCost {
            symbols: smallvec::smallvec![ManaSymbol::Hybrid(Color::G, Color::W), ManaSymbol::X],
        };
        assert_eq!(symbols_of(&hybrid, Color::G), 1);
        assert_eq!(symbols_of(&hybrid, Color::W), 1);
    }
}
