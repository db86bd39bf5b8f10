//! Lifelink (rules.md Δ16). The 2014 rules (702.15, static since the 2009 rules): "damage
//! dealt by a source with lifelink causes that source's controller to gain that much life
//! (in addition to any other results that damage causes)" — the life is gained as part of
//! the damage event ([`Game::lifelink_on_damage`], called by the damage primitive). The
//! 2006 rules as Future Sight printed it (lifelink entered section 502 with that set): a
//! triggered ability, "whenever this deals damage, its controller gains that much life"
//! ([`LIFELINK_TRIGGER`]), which uses the stack (so a player at 0 life loses before it
//! resolves). Each ruleset plays it its way (`Ruleset::lifelink_static`). Multiple
//! instances are redundant (702.15d); in classic each instance would trigger, but no card
//! of the pool has two.

use crate::abilities::{TriggerDef, TriggerEvent};
use crate::effects::{Amount, Effect, PlayerRef};
use crate::game::Game;
use crate::ids::ObjectId;
use crate::keywords::Keyword;

/// Classic lifelink's built-in trigger (the amount is the damage dealt).
pub const LIFELINK_TRIGGER: u8 = u8::MAX - 42;

/// "Whenever this deals damage, its controller gains that much life."
pub(crate) fn definition() -> &'static TriggerDef {
    static DEF: std::sync::OnceLock<TriggerDef> = std::sync::OnceLock::new();
    DEF.get_or_init(|| TriggerDef {
        divided: None,
        modes: Vec::new(),
        // Not consulted for built-in abilities: `lifelink_on_damage` queues it.
        when: TriggerEvent::DealsDamageToPlayer,
        condition: None,
        targets: Vec::new(),
        effects: vec![Effect::GainLife {
            amount: Amount::ThatMuch,
            who: PlayerRef::You,
        }],
        text: "Lifelink: whenever this deals damage, its controller gains that much life.".into(),
    })
}

impl Game {
    /// `source` just dealt `amount` damage: with lifelink, its controller gains that much
    /// life now (modern) or its trigger waits (classic).
    pub(crate) fn lifelink_on_damage(&mut self, source: ObjectId, amount: u32) {
        if amount == 0
            || !self.has_lifelink_somewhere
            || !self.has_keyword(source, Keyword::Lifelink)
        {
            return;
        }
        let o = &self.objects[source.slot()];
        let (card, controller) = (o.card, o.controller);
        if self.ruleset.lifelink_static() {
            self.gain_life(controller, amount as i32);
        } else {
            self.queue_builtin(source, card, controller, LIFELINK_TRIGGER, amount);
        }
    }
}
