//! Storm (2006 rules 502.30; 2014 rules 702.39; rulings A15) and copies of spells (2006 503,
//! 2014 706.10 and 707.10).
//!
//! "Storm" is a triggered ability working on the stack: "When you cast this spell, copy it
//! for each other spell that was cast before it this turn. If the spell has any targets,
//! you may choose new targets for any of the copies." Every spell cast counts, whoever cast
//! it and however (face down, with flashback, by suspend: R-storm-4, R-storm-6); a copy is
//! not cast, so it counts for nothing and its own storm doesn't trigger (R-storm-2,
//! R-storm-7). The count is fixed as the spell is cast ([`TurnCounts`], kept only in games
//! with a card that reads it) and carried by the trigger (its `x`); the spell is copied as
//! it was cast ([`SpellSnapshot`]), so the trigger still copies it once the spell has been
//! countered or has left the stack (R-storm-5).
//!
//! A copy of a spell ([`Game::put_spell_copy`]) has the spell's copiable values and every
//! choice made casting it: mode, X, targets, divided damage, kicker, buyback (706.10 /
//! 707.10; R-buyback-4). It is controlled and owned by the player who put it on the stack,
//! and ceases to exist as it leaves the stack (S16, `Game::move_object_as`). Each copy with
//! targets asks its controller, one copy at a time, whether to choose new targets
//! (`CastKind::NewTargets`: a yes or no, then a target for each slot; the copy keeps a
//! target the player doesn't change).

use crate::abilities::{TriggerDef, TriggerEvent};
use crate::casting::{CastKind, Casting};
use crate::effects::Effect;
use crate::events::Event;
use crate::game::Game;
use crate::ids::{ObjectId, PlayerId};
use crate::stack::{StackItem, StackKind};
use crate::triggers::WaitingTrigger;
use crate::zones::ZoneKind;
use serde::{Deserialize, Serialize};

/// Storm's built-in triggered ability.
pub const STORM_TRIGGER: u8 = u8::MAX - 20;

/// What this turn has seen that storm and gravestorm count (reset as each turn begins).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnCounts {
    /// Spells cast this turn (copies are not cast).
    pub spells_cast: u32,
    /// Permanents put into a graveyard from the battlefield this turn (tokens too).
    pub to_graveyard: u32,
}

impl TurnCounts {
    pub fn is_zero(&self) -> bool {
        self.spells_cast == 0 && self.to_graveyard == 0
    }
}

/// A spell as it was cast, for the copies its storm or gravestorm trigger makes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpellSnapshot {
    pub spell: ObjectId,
    pub item: StackItem,
    pub kicked: u8,
    pub buyback: bool,
}

/// "When you cast this spell, copy it for each other spell cast before it this turn."
pub(crate) fn definition() -> &'static TriggerDef {
    static DEF: std::sync::OnceLock<TriggerDef> = std::sync::OnceLock::new();
    DEF.get_or_init(|| copies_trigger("Storm: copy this spell for each spell cast before it this turn (you may choose new targets for the copies)."))
}

/// A cast trigger that copies its spell as many times as its amount (storm, gravestorm).
pub(crate) fn copies_trigger(text: &str) -> TriggerDef {
    TriggerDef {
        divided: None,
        modes: Vec::new(),
        // Not consulted: `Game::storm_triggers` matches the cast.
        when: TriggerEvent::AnyPlayerCastsSpell,
        condition: None,
        targets: Vec::new(),
        effects: vec![Effect::StormCopies],
        text: text.into(),
    }
}

impl Game {
    /// Counts a spell being cast (before its cast triggers are matched).
    pub(crate) fn note_spell_cast(&mut self) {
        if self.has_storm {
            self.this_turn.spells_cast += 1;
        }
    }

    /// Spells cast this turn so far.
    pub fn spells_cast_this_turn(&self) -> u32 {
        self.this_turn.spells_cast
    }

    /// The storm and gravestorm triggers of a spell just cast (its own abilities, on the
    /// stack): each waits with its count as its amount, and the spell is remembered as cast.
    pub(crate) fn storm_triggers(&mut self, spell: ObjectId) {
        if !self.has_storm {
            return;
        }
        let Some(o) = self.obj(spell) else { return };
        if o.spell_copy {
            return;
        }
        let keys = &self.catalog().get(o.face()).cast_keys;
        let mut found = Vec::new();
        if keys.storm {
            found.push((STORM_TRIGGER, self.this_turn.spells_cast.saturating_sub(1)));
        }
        if keys.gravestorm {
            found.push((
                crate::keywords::gravestorm::GRAVESTORM_TRIGGER,
                self.this_turn.to_graveyard,
            ));
        }
        if found.is_empty() {
            return;
        }
        let (card, controller, kicked, buyback) = (o.card, o.controller, o.kicked, o.buyback);
        let Some(item) = self.stack_item_of(spell).cloned() else {
            return;
        };
        self.spell_snapshots.retain(|s| s.spell != spell);
        self.spell_snapshots.push(SpellSnapshot {
            spell,
            item,
            kicked,
            buyback,
        });
        for (index, amount) in found {
            self.triggers.push(WaitingTrigger {
                source: spell,
                card,
                controller,
                index,
                subject: Some(spell),
                player: None,
                ordered: false,
                granter: None,
                amount,
            });
        }
    }

    /// The storm (or gravestorm) trigger of `spell` resolves: `n` copies of the spell as it
    /// was cast go on the stack under the trigger's controller, then each may get new targets.
    pub(crate) fn storm_copies(&mut self, spell: ObjectId, n: u32) {
        let Some(snap) = self
            .spell_snapshots
            .iter()
            .find(|s| s.spell == spell)
            .cloned()
        else {
            return;
        };
        // One snapshot serves both triggers of a spell with storm and gravestorm.
        let others_waiting = self
            .stack
            .iter()
            .any(|s| matches!(s.kind, StackKind::Trigger { source, .. } if source == spell))
            || self.triggers.iter().any(|t| t.source == spell);
        if !others_waiting {
            self.spell_snapshots.retain(|s| s.spell != spell);
        }
        let controller = snap.item.controller;
        for _ in 0..n {
            let copy = self.put_spell_copy(&snap, controller);
            self.copy_retargets.push(copy);
        }
    }

    /// "Copy target instant or sorcery spell. You may choose new targets for the copy."
    pub(crate) fn copy_spell_for(&mut self, spell: ObjectId, controller: PlayerId) {
        let Some(o) = self.obj(spell).filter(|o| o.zone == ZoneKind::Stack) else {
            return;
        };
        let (kicked, buyback) = (o.kicked, o.buyback);
        let Some(item) = self.stack_item_of(spell).cloned() else {
            return;
        };
        let snap = SpellSnapshot {
            spell,
            item,
            kicked,
            buyback,
        };
        let copy = self.put_spell_copy(&snap, controller);
        self.copy_retargets.push(copy);
    }

    /// Puts a copy of a spell on the stack under `controller` (706.10 / 707.10): the same
    /// card and choices; not cast.
    pub(crate) fn put_spell_copy(
        &mut self,
        snap: &SpellSnapshot,
        controller: PlayerId,
    ) -> ObjectId {
        let card = snap.item.card;
        let id = self.create_object(card, controller, ZoneKind::Stack);
        if let Some(o) = self.obj_mut(id) {
            o.spell_copy = true;
            o.kicked = snap.kicked;
            o.buyback = snap.buyback;
        }
        self.stack.push(StackItem {
            kind: StackKind::Spell(id),
            controller,
            ..snap.item.clone()
        });
        self.emit(Event::SpellCopied {
            player: controller,
            spell: id,
            card,
        });
        id
    }

    /// "Gain control of target spell": the spell (on the stack) changes controller.
    pub(crate) fn gain_control_of_spell(&mut self, spell: ObjectId, controller: PlayerId) {
        if !self.obj(spell).is_some_and(|o| o.zone == ZoneKind::Stack) {
            return;
        }
        if let Some(o) = self.obj_mut(spell) {
            o.controller = controller;
        }
        if let Some(item) = self.stack.iter_mut().find(|s| s.object() == Some(spell)) {
            item.controller = controller;
        }
    }

    /// A copy of a spell leaving the stack ceases to exist (S16): it goes to no zone.
    pub(crate) fn copy_ceases(&mut self, id: ObjectId) {
        self.stack.retain(|s| s.object() != Some(id));
        let next = id.next();
        if let Some(o) = self.obj_mut(id) {
            o.id = next;
            o.ceased = true;
        }
    }

    /// After a resolution made copies: the next copy with targets asks its controller about
    /// new targets (`CastKind::NewTargets`). True if a question is now pending.
    pub(crate) fn start_next_retarget(&mut self) -> bool {
        while !self.copy_retargets.is_empty() {
            let copy = self.copy_retargets.remove(0);
            let Some(item) = self.stack.iter().find(|s| s.object() == Some(copy)) else {
                continue;
            };
            if item.targets.is_empty() {
                continue;
            }
            let mut c = Casting::new(item.controller, CastKind::NewTargets(copy));
            // Its opponent's choice was copied (707.10 / 706.10): the same opponent chooses.
            c.chooser = item.chooser;
            self.continue_casting(c);
            if self.pending.is_some() {
                return true;
            }
        }
        false
    }

    /// The question before a copy's new targets: whether to choose any.
    pub(crate) fn retarget_question(&self, copy: ObjectId) -> String {
        let item = self.stack.iter().find(|s| s.object() == Some(copy));
        let now: Vec<String> = item
            .map(|s| s.targets.iter().map(|t| self.describe_target(*t)).collect())
            .unwrap_or_default();
        format!(
            "choose new targets for the copy of {} (now targeting {})?",
            self.card_name(copy),
            now.join(", ")
        )
    }

    /// A copy's new targets chosen (or kept): they replace its targets.
    pub(crate) fn commit_new_targets(&mut self, c: &Casting, copy: ObjectId) {
        if c.retarget == Some(true)
            && let Some(item) = self.stack.iter_mut().find(|s| s.object() == Some(copy))
        {
            item.targets = c.targets.clone();
        }
        self.casting = None;
        self.pending = None;
        if !self.start_next_retarget() {
            self.passes = 0;
            self.give_priority(self.active);
        }
    }
}
