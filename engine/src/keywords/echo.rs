//! Echo (2006 rules 502.19; 2014 rules 702.30): "At the beginning of your upkeep, if this
//! came under your control since the beginning of your last upkeep, sacrifice it unless you
//! pay [cost]." A triggered ability built from the card's `echo` key ([`TriggerDef::echo`]);
//! "came under your control since your last upkeep" is read from the object's control clock
//! (`Object::control_clock`, stamped whenever it enters or changes control) against the
//! player's last two upkeep starts (`Player::upkeeps_began`, stamped by the upkeep).

use crate::abilities::{TriggerCondition, TriggerDef, TriggerEvent};
use crate::effects::Effect;
use crate::game::Game;
use crate::ids::{ObjectId, PlayerId};

impl TriggerDef {
    /// Echo [cost] (502.19 / 702.30): "At the beginning of your upkeep, if this came under your
    /// control since the beginning of your last upkeep, sacrifice it unless you pay [cost]." The
    /// cost goes with the ability: turning the permanent face down later doesn't change it
    /// (R-vesuvan-shapeshifter-8).
    pub fn echo(cost: crate::mana::ManaCost) -> TriggerDef {
        TriggerDef {
            when: TriggerEvent::YourUpkeep,
            condition: Some(TriggerCondition::CameUnderYourControlSinceLastUpkeep),
            targets: Vec::new(),
            text: format!(
                "Echo {cost} (at the beginning of your upkeep, if this came under your control since the beginning of your last upkeep, sacrifice it unless you pay {cost})"
            ),
            effects: vec![Effect::SacrificeUnlessPays { cost }],
            divided: None,
        }
    }
}

impl Game {
    /// Echo's intervening "if": `source` came under `controller`'s control since the
    /// beginning of their last upkeep. "Your last upkeep" is the one before the upkeep now
    /// under way (it began first: `begin_step`), also when the ability resolves.
    pub(crate) fn came_under_control_since_last_upkeep(
        &self,
        source: ObjectId,
        controller: PlayerId,
    ) -> bool {
        self.obj(source).is_some_and(|o| {
            o.controller == controller && o.control_clock > self.player(controller).upkeeps_began[1]
        })
    }
}
