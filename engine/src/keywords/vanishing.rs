//! Vanishing (2014 rules 702.62; 2006 rules: a keyword of section 502 added with Planar
//! Chaos, whose text the seeds don't carry: rules.md §6.3 lists it among the absent ones;
//! its Planar Chaos wording is the same three abilities). "Vanishing N" means:
//!
//! 1. "This permanent enters the battlefield with N time counters on it" (the script key
//!    `vanishing = N` adds them to the counters it enters with);
//! 2. "At the beginning of your upkeep, if there is a time counter on this permanent,
//!    remove one from it" ([`TriggerDef::vanishing_upkeep`], an intervening "if");
//! 3. "When the last time counter is removed from this permanent, sacrifice it"
//!    ([`TriggerDef::vanishing_sacrifice`]), however the last counter was removed. It
//!    triggers on the event (the permanent had time counters and now has none), so a time
//!    counter put on it in response doesn't save it.
//!
//! Two triggered abilities, as the rules say: the upkeep one uses the stack and can be
//! responded to; the sacrifice triggers when it resolves.

use crate::abilities::{TriggerCondition, TriggerDef, TriggerEvent};
use crate::effects::{Amount, Effect, ObjRef};
use crate::object::CounterKind;

impl TriggerDef {
    /// Vanishing's upkeep ability: "At the beginning of your upkeep, if there is a time
    /// counter on this permanent, remove one from it."
    pub fn vanishing_upkeep() -> TriggerDef {
        TriggerDef {
            when: TriggerEvent::YourUpkeep,
            condition: Some(TriggerCondition::HasTimeCounter),
            targets: Vec::new(),
            effects: vec![Effect::RemoveCounters {
                kind: CounterKind::Time,
                count: Amount::Fixed(1),
                what: ObjRef::This,
                then: Vec::new(),
            }],
            text: "Vanishing: at the beginning of your upkeep, if there is a time counter on this permanent, remove one from it.".into(),
            divided: None,
            modes: Vec::new(),
        }
    }

    /// Vanishing's last ability: "When the last time counter is removed from this
    /// permanent, sacrifice it."
    pub fn vanishing_sacrifice() -> TriggerDef {
        TriggerDef {
            when: TriggerEvent::LastTimeCounterRemoved,
            condition: None,
            targets: Vec::new(),
            effects: vec![Effect::SacrificeThis {
                unless_counters: None,
            }],
            text: "Vanishing: when the last time counter is removed from this permanent, sacrifice it.".into(),
            divided: None,
            modes: Vec::new(),
        }
    }
}
