//! Split second (2006 rules 502.58; 2014 rules 702.60): as long as a spell with split second
//! is on the stack, players can't cast spells or activate abilities that aren't mana
//! abilities. Special actions (turning a face-down permanent face up) and triggered
//! abilities are unaffected. A spell whose text says "if this spell was kicked, it has split
//! second" (`CastKeys::kicked_split_second`, Molten Disaster) has it while it is a kicked
//! spell (`keywords/kicker.rs`).

use crate::decision::RuleError;
use crate::game::Game;
use crate::keywords::Keyword;

impl Game {
    /// Split second (502.58a): while a spell with split second is on the stack, players
    /// can't cast spells or activate abilities that aren't mana abilities.
    pub(crate) fn split_second_spell(&self) -> Option<&'static str> {
        self.stack.iter().find_map(|s| match s.kind {
            crate::stack::StackKind::Spell(id)
                if self.has_keyword(id, Keyword::SplitSecond)
                    || (self.catalog().get(s.card).cast_keys.kicked_split_second
                        && self.was_kicked(id, None)) =>
            {
                Some(self.catalog().get(s.card).name.as_str())
            }
            _ => None,
        })
    }
    pub(crate) fn check_split_second(&self) -> Result<(), RuleError> {
        match self.split_second_spell() {
            Some(name) => Err(RuleError::illegal(format!(
                "{name} has split second: while it is on the stack, only mana abilities can be activated"
            ))),
            None => Ok(()),
        }
    }
}
