//! Forecast (2014 rules 702.56; Dissension's keyword, returning in Future Sight; the 2006
//! rules' 502.xx for it is not in the seeds): "Forecast — [cost], Reveal this card from
//! your hand: [effect]" is an activated ability that works only while the card is in its
//! owner's hand, "only during your upkeep and only once each turn" (702.56a-b). The card
//! stays in the hand, revealed (`Event::Revealed`).
//!
//! Scripted as a `[[card.ability]]` with `forecast = true` (`ActivatedAbility::forecast`,
//! activated from the hand with `Answer::Activate`; timing your upkeep; the once-each-turn
//! record is `Game::forecasts`). Both rulesets alike.

use crate::decision::RuleError;
use crate::events::Event;
use crate::game::Game;
use crate::ids::{ObjectId, PlayerId};

impl Game {
    /// "Activate only once each turn": refused if this card's forecast was activated this
    /// turn.
    pub(crate) fn check_forecast_once(&self, card: ObjectId) -> Result<(), RuleError> {
        if self
            .forecasts
            .iter()
            .any(|(c, t)| *c == card && *t == self.turn)
        {
            return Err(RuleError::illegal(format!(
                "{}'s forecast can be activated only once each turn",
                self.card_name(card)
            )));
        }
        Ok(())
    }

    /// A forecast ability was activated: the card is revealed (its cost) and its once each
    /// turn is used.
    pub(crate) fn forecast_revealed(&mut self, player: PlayerId, card: ObjectId) {
        let turn = self.turn;
        self.forecasts.retain(|(_, t)| *t == turn);
        self.forecasts.push((card, turn));
        self.emit(Event::Revealed { player, card });
    }
}
