//! Frenzy N (2014 rules 702.67; 2006: added to section 502 with Future Sight, its text
//! absent from the seeds, the same ability): "Whenever this creature attacks and isn't
//! blocked, it gets +N/+0 until end of turn." Each instance triggers separately. A built-in
//! triggered ability ([`FRENZY1_TRIGGER`]), matched when blockers are declared.

use crate::abilities::{TriggerDef, TriggerEvent};
use crate::effects::{Effect, ObjRef};
use crate::game::Game;
use crate::ids::{CardId, ObjectId, PlayerId};
use crate::keywords::Keyword;

/// Frenzy 1's built-in trigger.
pub const FRENZY1_TRIGGER: u8 = u8::MAX - 43;

/// "Whenever this creature attacks and isn't blocked, it gets +1/+0 until end of turn."
pub(crate) fn definition() -> &'static TriggerDef {
    static DEF: std::sync::OnceLock<TriggerDef> = std::sync::OnceLock::new();
    DEF.get_or_init(|| TriggerDef {
        divided: None,
        modes: Vec::new(),
        when: TriggerEvent::AttacksAndIsntBlocked,
        condition: None,
        targets: Vec::new(),
        effects: vec![Effect::Pump {
            what: ObjRef::This,
            power: 1,
            toughness: 0,
        }],
        text: "Frenzy 1: whenever this creature attacks and isn't blocked, it gets +1/+0 until end of turn.".into(),
    })
}

impl Game {
    /// The frenzy triggers of an attacking creature that wasn't blocked.
    pub(crate) fn frenzy_triggers(
        &self,
        attacker: ObjectId,
    ) -> Vec<(ObjectId, CardId, PlayerId, usize, Option<ObjectId>)> {
        let Some(o) = self.obj(attacker) else {
            return Vec::new();
        };
        (0..self.keyword_instances(attacker, Keyword::Frenzy1))
            .map(|_| {
                (
                    o.id,
                    o.card,
                    o.controller,
                    FRENZY1_TRIGGER as usize,
                    Some(attacker),
                )
            })
            .collect()
    }
}
