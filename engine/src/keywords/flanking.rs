//! Flanking (2006 rules 502.3; 2014 rules 702.24): "Whenever a creature without flanking
//! blocks this creature, the blocking creature gets -1/-1 until end of turn." Each instance
//! triggers separately (502.3b / 702.24b). A built-in triggered ability, named by
//! [`FLANKING_TRIGGER`] instead of an index into the card's own triggers.

use crate::abilities::{TriggerDef, TriggerEvent};
use crate::effects::Effect;
use crate::game::Game;
use crate::ids::{CardId, ObjectId, PlayerId};
use crate::keywords::Keyword;

/// The index that names flanking's built-in trigger (502.3) instead of a card's own.
pub const FLANKING_TRIGGER: u8 = u8::MAX;

/// 502.3: "Whenever a creature without flanking blocks this creature, the blocking creature
/// gets -1/-1 until end of turn." The subject is that blocker.
pub(crate) fn definition() -> &'static TriggerDef {
    static DEF: std::sync::OnceLock<TriggerDef> = std::sync::OnceLock::new();
    DEF.get_or_init(|| TriggerDef {
        divided: None,
        modes: Vec::new(),
        when: TriggerEvent::Blocks,
        condition: None,
        targets: Vec::new(),
        effects: vec![Effect::Pump {
            what: crate::effects::ObjRef::Subject,
            power: -1,
            toughness: -1,
        }],
        text: "Flanking: the blocking creature gets -1/-1 until end of turn.".into(),
    })
}

impl Game {
    /// The flanking triggers of a declaration of blockers (`blocks`: blocker, attacker):
    /// (source, card, controller, trigger index, subject = the blocker).
    pub(crate) fn flanking_triggers(
        &self,
        blocks: &[(ObjectId, ObjectId)],
    ) -> Vec<(ObjectId, CardId, PlayerId, usize, Option<ObjectId>)> {
        let mut v = Vec::new();
        // 502.3: each instance of flanking triggers for each blocker without flanking
        // (502.3b).
        for (blocker, attacker) in blocks {
            if !self.has_keyword(*blocker, Keyword::Flanking)
                && let Some(a) = self.obj(*attacker)
            {
                for _ in 0..self.keyword_instances(*attacker, Keyword::Flanking) {
                    v.push((
                        a.id,
                        a.card,
                        a.controller,
                        FLANKING_TRIGGER as usize,
                        Some(*blocker),
                    ));
                }
            }
        }
        v
    }
}
