//! Graft N (2014 rules 702.57; 2006: a keyword of section 502 since Dissension, its text
//! absent from the seeds, the same ability): "This permanent enters the battlefield with N
//! +1/+1 counters on it" and "Whenever another creature enters the battlefield, if this
//! permanent has a +1/+1 counter on it, you may move a +1/+1 counter from this permanent
//! onto that creature" (an intervening "if", checked again as it resolves; the move happens
//! only if the counter is still there and the creature still on the battlefield). The
//! script key `graft = N` adds both ([`TriggerDef::graft`]).

use crate::abilities::{TriggerCondition, TriggerDef, TriggerEvent};
use crate::effects::{Effect, ObjRef};
use crate::game::Game;
use crate::ids::ObjectId;
use crate::object::CounterKind;

impl TriggerDef {
    /// Graft's trigger.
    pub fn graft() -> TriggerDef {
        TriggerDef {
            when: TriggerEvent::AnotherCreatureEnters,
            condition: Some(TriggerCondition::HasPlusOneCounter),
            targets: Vec::new(),
            effects: vec![Effect::May {
                effects: vec![Effect::MoveCounter {
                    kind: CounterKind::PlusOnePlusOne,
                    from: ObjRef::This,
                    to: ObjRef::Subject,
                }],
                text: "move a +1/+1 counter from this permanent onto that creature".into(),
            }],
            text: "Graft: whenever another creature enters the battlefield, if this permanent has a +1/+1 counter on it, you may move a +1/+1 counter from this permanent onto that creature.".into(),
            divided: None,
            modes: Vec::new(),
        }
    }
}

impl Game {
    /// Moves one `kind` counter from `from` to `to` (both on the battlefield, `from` having
    /// one); otherwise nothing happens.
    pub(crate) fn move_counter(&mut self, kind: &CounterKind, from: ObjectId, to: ObjectId) {
        if !self.is_on_battlefield(from) || !self.is_on_battlefield(to) || from == to {
            return;
        }
        if self.obj(from).is_none_or(|o| o.counters.get(kind) == 0) {
            return;
        }
        self.remove_counters(from, kind, 1);
        self.add_counters(to, kind.clone(), 1);
    }
}
