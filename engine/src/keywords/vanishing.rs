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
//!
//! A permanent may also *gain* vanishing (Maelstrom Djinn: "put two time counters on it and
//! it gains vanishing", `grant vanishing this forever`): [`Keyword::Vanishing`], a bare
//! vanishing (no counters of its own) whose two abilities are built in
//! ([`VANISHING_UPKEEP_TRIGGER`], [`VANISHING_SACRIFICE_TRIGGER`]) and trigger once for each
//! instance the permanent has (`Game::keyword_instances`): a Djinn turned face up twice has
//! two (its ruling). The gained keyword is a layer-6 effect with no duration, so it stays
//! while the permanent is face down again and ends as it leaves the battlefield.

use crate::abilities::{TriggerCondition, TriggerDef, TriggerEvent};
use crate::effects::{Amount, Effect, ObjRef};
use crate::game::Game;
use crate::ids::{CardId, ObjectId, PlayerId};
use crate::keywords::Keyword;
use crate::object::CounterKind;

/// The upkeep ability of a gained vanishing (built in).
pub const VANISHING_UPKEEP_TRIGGER: u8 = u8::MAX - 44;
/// The last-counter ability of a gained vanishing (built in).
pub const VANISHING_SACRIFICE_TRIGGER: u8 = u8::MAX - 45;

/// The built-in definition of a gained vanishing's ability `index`.
pub(crate) fn builtin(index: u8) -> Option<&'static TriggerDef> {
    static UP: std::sync::OnceLock<TriggerDef> = std::sync::OnceLock::new();
    static SAC: std::sync::OnceLock<TriggerDef> = std::sync::OnceLock::new();
    match index {
        VANISHING_UPKEEP_TRIGGER => Some(UP.get_or_init(TriggerDef::vanishing_upkeep)),
        VANISHING_SACRIFICE_TRIGGER => Some(SAC.get_or_init(TriggerDef::vanishing_sacrifice)),
        _ => None,
    }
}

/// A triggered ability found: source, card, controller, index, subject.
type Found = (ObjectId, CardId, PlayerId, usize, Option<ObjectId>);

impl Game {
    /// The upkeep abilities of the vanishing `active`'s permanents gained, one per instance,
    /// each with its intervening "if" (a time counter on it) checked as it triggers.
    pub(crate) fn gained_vanishing_upkeep_triggers(&self, active: PlayerId) -> Vec<Found> {
        let mut v = Vec::new();
        for o in self.battlefield_of(active) {
            if o.counters.get(&CounterKind::Time) == 0 {
                continue;
            }
            for _ in 0..self.keyword_instances(o.id, Keyword::Vanishing) {
                v.push((
                    o.id,
                    o.card,
                    o.controller,
                    VANISHING_UPKEEP_TRIGGER as usize,
                    None,
                ));
            }
        }
        v
    }

    /// The last-counter abilities of the vanishing `object` gained, once its last time
    /// counter was removed.
    pub(crate) fn gained_vanishing_sacrifice_triggers(&self, object: ObjectId) -> Vec<Found> {
        let Some(o) = self.obj(object) else {
            return Vec::new();
        };
        if o.counters.get(&CounterKind::Time) != 0 || !self.is_on_battlefield(object) {
            return Vec::new();
        }
        (0..self.keyword_instances(object, Keyword::Vanishing))
            .map(|_| {
                let index = VANISHING_SACRIFICE_TRIGGER as usize;
                (o.id, o.card, o.controller, index, Some(object))
            })
            .collect()
    }
}

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
