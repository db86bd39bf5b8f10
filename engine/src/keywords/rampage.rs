//! Rampage N (2006 rules 502.12; 2014 rules 702.22): "Whenever this creature becomes
//! blocked, it gets +N/+N until end of turn for each creature blocking it beyond the
//! first." The count is made as it resolves (502.12b / 702.22b); each instance triggers
//! separately (502.12c / 702.22c). Built-in triggered abilities, named by
//! [`RAMPAGE1_TRIGGER`] and [`RAMPAGE2_TRIGGER`].

use crate::abilities::{TriggerDef, TriggerEvent};
use crate::effects::Effect;
use crate::game::Game;
use crate::ids::{CardId, ObjectId, PlayerId};
use crate::keywords::Keyword;

/// Rampage 1 and rampage 2's built-in triggers (502.12).
pub const RAMPAGE1_TRIGGER: u8 = u8::MAX - 2;
pub const RAMPAGE2_TRIGGER: u8 = u8::MAX - 3;

/// 502.12a: "Whenever this creature becomes blocked, it gets +N/+N until end of turn for
/// each creature blocking it beyond the first." The subject is the blocked creature; the
/// count is made on resolution (502.12b).
pub(crate) fn definition(n: i32) -> TriggerDef {
    TriggerDef {
        divided: None,
        modes: Vec::new(),
        when: TriggerEvent::BecomesBlocked,
        targets: Vec::new(),
        effects: vec![Effect::PumpCount {
            what: crate::effects::ObjRef::Subject,
            amount: crate::effects::Amount::BlockersBeyondFirst,
            power: n,
            toughness: n,
        }],
        text: format!(
            "Rampage {n}: it gets +{n}/+{n} until end of turn for each creature blocking it beyond the first."
        ),
        condition: None,
    }
}

impl Game {
    /// The rampage triggers of a creature that became blocked: (source, card, controller,
    /// trigger index, subject = the blocked creature).
    pub(crate) fn rampage_triggers(
        &self,
        a: ObjectId,
    ) -> Vec<(ObjectId, CardId, PlayerId, usize, Option<ObjectId>)> {
        let mut v = Vec::new();
        // 502.12: each instance of rampage triggers separately (502.12c).
        if let Some(o) = self.obj(a) {
            for (k, index) in [
                (Keyword::Rampage1, RAMPAGE1_TRIGGER),
                (Keyword::Rampage2, RAMPAGE2_TRIGGER),
            ] {
                for _ in 0..self.keyword_instances(a, k) {
                    v.push((o.id, o.card, o.controller, index as usize, Some(a)));
                }
            }
        }
        v
    }
}
