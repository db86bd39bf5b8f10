//! Pacts (Future Sight: Pact of Negation, Pact of the Titan; ruled by the delayed-trigger
//! rules, 2006 410.8 / 2014 603.7): "At the beginning of your next upkeep, pay [cost]. If you
//! don't, you lose the game."
//!
//! The spell's effect `pact_upkeep COST` creates a delayed triggered ability
//! (`DelayedWhen::YourNextUpkeep`) for its controller; it triggers once, at the beginning
//! of that player's next upkeep (a delayed ability created during an upkeep waits for the
//! next one). As it resolves, a player who can pay is asked (`Decision::YesNo`, paid by the
//! auto-payer); one who can't, or answers no, loses the game. Both rulesets alike.

use crate::abilities::{TriggerDef, TriggerEvent};
use crate::effects::Effect;
use crate::events::LossReason;
use crate::game::Game;
use crate::ids::{CardId, ObjectId, PlayerId};
use crate::mana::ManaCost;

/// The pact's built-in delayed trigger.
pub const PACT_TRIGGER: u8 = u8::MAX - 22;

/// "At the beginning of your next upkeep, pay [cost]. If you don't, you lose the game."
pub(crate) fn definition() -> &'static TriggerDef {
    static DEF: std::sync::OnceLock<TriggerDef> = std::sync::OnceLock::new();
    DEF.get_or_init(|| TriggerDef {
        divided: None,
        modes: Vec::new(),
        // Not consulted: `DelayedWhen::YourNextUpkeep` makes it trigger.
        when: TriggerEvent::YourUpkeep,
        condition: None,
        targets: Vec::new(),
        effects: vec![Effect::PactPay],
        text: "Pact: at the beginning of your upkeep, pay its cost or lose the game.".into(),
    })
}

impl Game {
    /// `pact_upkeep COST` resolves: the delayed ability waits for `controller`'s next upkeep.
    pub(crate) fn create_pact(&mut self, source: ObjectId, card: CardId, controller: PlayerId) {
        self.has_triggers = true;
        self.delayed.push(crate::triggers::DelayedTrigger {
            when: crate::triggers::DelayedWhen::YourNextUpkeep(controller),
            source,
            card,
            controller,
            subject: None,
        });
    }

    /// The cost a pact card's delayed ability asks for (its `pact_upkeep` effect's).
    pub(crate) fn pact_cost(&self, card: CardId) -> Option<ManaCost> {
        self.catalog()
            .get(card)
            .spell
            .effects
            .iter()
            .find_map(|e| match e {
                Effect::PactUpkeep(cost) => Some(cost.clone()),
                _ => None,
            })
    }

    /// The player didn't pay: they lose the game.
    pub(crate) fn pact_unpaid(&mut self, player: PlayerId) {
        self.player_lost(player, LossReason::CardEffect);
        self.check_game_over();
    }
}
