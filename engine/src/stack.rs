//! The stack (rules 217.6, 413, 414): spells and abilities waiting to resolve; resolving the
//! top object; countering.

use crate::effects::Effect;
use crate::events::Event;
use crate::game::Game;
use crate::ids::{CardId, ObjectId, PlayerId};
use crate::mana::ColorSet;
use crate::resolve::Resolution;
use crate::targets::{Target, TargetSpec};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum StackKind {
    /// A spell: the card is on the stack with this id.
    Spell(ObjectId),
    /// An activated ability of `source` (which may since have left the battlefield, 402.6).
    Ability { source: ObjectId, index: u8 },
    /// Classic (Δ3) combat damage: the assignments wait on the stack (310.1).
    CombatDamage { first_strike: bool },
    /// A triggered ability of `source` (as it was when it triggered).
    Trigger {
        source: ObjectId,
        index: u8,
        subject: Option<ObjectId>,
        /// The player the event was about ("that player"), if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<PlayerId>,
        /// For an ability granted by a static ability: the granting card, whose script
        /// holds the ability (`card` stays the source's own card).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        granter: Option<CardId>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StackItem {
    pub kind: StackKind,
    pub controller: PlayerId,
    /// The card this spell is, or whose ability this is.
    pub card: CardId,
    pub targets: Vec<Target>,
    pub x: u32,
    /// The chosen mode of a modal spell (409.1b).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<u8>,
    /// The colours of mana spent to cast or activate it ("if {R} was spent").
    #[serde(default, skip_serializing_if = "ColorSet::is_none_set")]
    pub spent: ColorSet,
    /// Divided damage (409.1d / 601.2d): each target and its share, chosen as it was cast;
    /// these targets are not in `targets` (the numbered slots).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub division: Vec<(Target, u32)>,
    /// The cards its cost exiled from the hand (Jhoira of the Ghitu: "the exiled card").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cost_exiled: Vec<ObjectId>,
    /// An activated or triggered ability's serial number, given as it is put on the stack
    /// in games where something can target an ability (`Game::has_ability_targets`): what
    /// `Target::Ability` names, so a target stays the same ability while others come and go.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub serial: Option<u32>,
    /// The opponent chosen as it was cast to choose a target "of an opponent's choice they
    /// control" (Evangelize, Arena): the target must stay a permanent that player controls
    /// (R-evangelize-2), also when a target-changing effect picks a new one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chooser: Option<PlayerId>,
}

impl StackItem {
    /// The spell object, if this item is a spell.
    pub fn object(&self) -> Option<ObjectId> {
        match self.kind {
            StackKind::Spell(id) => Some(id),
            _ => None,
        }
    }
    /// Its one target, if it has exactly one ("a spell or ability with a single target",
    /// Willbender): a numbered target, or a divided spell's only recipient.
    pub fn single_target(&self) -> Option<Target> {
        match (self.targets.as_slice(), self.division.as_slice()) {
            ([t], []) | ([], [(t, _)]) => Some(*t),
            _ => None,
        }
    }
    pub fn is_spell(&self) -> bool {
        matches!(self.kind, StackKind::Spell(_))
    }
    /// The source of an activated or triggered ability.
    pub fn ability_source(&self) -> Option<ObjectId> {
        match self.kind {
            StackKind::Ability { source, .. } | StackKind::Trigger { source, .. } => Some(source),
            _ => None,
        }
    }

    /// The player a trigger's event named ("that player": the player dealt damage...).
    pub fn event_player(&self) -> Option<PlayerId> {
        match self.kind {
            StackKind::Trigger { player, .. } => player,
            _ => None,
        }
    }
}

impl Game {
    /// Numbers the ability just put on top of the stack (`StackItem::serial`), in games
    /// where something can target an ability.
    pub(crate) fn number_top_ability(&mut self) {
        if !self.has_ability_targets {
            return;
        }
        let serial = self.next_ability_serial + 1;
        if let Some(top) = self.stack.last_mut()
            && matches!(
                top.kind,
                StackKind::Ability { .. } | StackKind::Trigger { .. }
            )
            && top.serial.is_none()
        {
            top.serial = Some(serial);
            self.next_ability_serial = serial;
        }
    }

    /// The activated or triggered ability on the stack with this serial number.
    pub(crate) fn ability_on_stack(&self, serial: u32) -> Option<&StackItem> {
        self.stack.iter().find(|s| s.serial == Some(serial))
    }

    /// 413.3 (Trickbind): counter the ability `serial`; if it is a permanent's ability
    /// ("if a permanent's ability is countered this way") and `lock` is set, that
    /// permanent's activated abilities can't be activated this turn
    /// (`Game::activations_locked`). The source must still be the same permanent: a card in
    /// exile (suspend, madness), in a hand (cycling) or a graveyard is no permanent, and a
    /// permanent that left the battlefield is a new object.
    pub(crate) fn counter_ability(&mut self, serial: u32, lock: bool) {
        let Some(item) = self.ability_on_stack(serial).cloned() else {
            return;
        };
        self.counter_item(&item, false);
        let source = match item.kind {
            StackKind::Ability { source, .. } | StackKind::Trigger { source, .. } => source,
            _ => return,
        };
        if lock && self.is_on_battlefield(source) {
            let turn = self.turn;
            self.locked_activations.retain(|(_, t)| *t == turn);
            self.locked_activations.push((source, turn));
            self.emit(Event::ActivationsLocked { permanent: source });
        }
    }

    /// Whether `source`'s activated abilities (mana abilities too) can't be activated this
    /// turn: an ability of it was countered by Trickbind (R-trickbind-1).
    pub(crate) fn activations_locked(&self, source: ObjectId) -> bool {
        !self.locked_activations.is_empty()
            && self.locked_activations.contains(&(source, self.turn))
    }

    /// How many times ability `index` of `source` was activated this turn (recorded only
    /// for abilities that count them).
    pub(crate) fn activations_this_turn(&self, source: ObjectId, index: u8) -> usize {
        self.activations
            .iter()
            .filter(|(s, i, t)| *s == source && *i == index && *t == self.turn)
            .count()
    }

    /// Notes an activation of ability `index` of `source` if the ability counts them.
    pub(crate) fn note_activation(&mut self, source: ObjectId, index: u8) {
        if self
            .ability(source, index)
            .is_some_and(|a| a.counts_activations())
        {
            let turn = self.turn;
            self.activations.retain(|(_, _, t)| *t == turn);
            self.activations.push((source, index, turn));
        }
    }

    /// "Activate only once each turn" (Wall of Roots): refused once it was activated.
    pub(crate) fn check_once_each_turn(
        &self,
        source: ObjectId,
        index: u8,
    ) -> Result<(), crate::decision::RuleError> {
        if self
            .ability(source, index)
            .is_some_and(|a| a.once_each_turn)
            && self.activations_this_turn(source, index) > 0
        {
            return Err(crate::decision::RuleError::illegal(format!(
                "{}'s ability can be activated only once each turn",
                self.card_name(source)
            )));
        }
        Ok(())
    }

    /// Refuses activating an ability of `source` while its activated abilities are locked
    /// this turn (Trickbind).
    pub(crate) fn check_not_locked(
        &self,
        source: ObjectId,
    ) -> Result<(), crate::decision::RuleError> {
        if self.activations_locked(source) {
            return Err(crate::decision::RuleError::illegal(format!(
                "{}'s activated abilities can't be activated this turn (an ability of it was countered by Trickbind)",
                self.card_name(source)
            )));
        }
        Ok(())
    }

    /// The stack item of the spell `spell` (an object on the stack), if it is there.
    pub(crate) fn stack_item_of(&self, spell: ObjectId) -> Option<&StackItem> {
        self.stack.iter().find(|s| s.object() == Some(spell))
    }

    /// The targets and effects of what a stack item is: a spell (or its chosen mode), an
    /// activated ability or a triggered ability. Combat damage has neither.
    pub(crate) fn item_ability(
        &self,
        item: &StackItem,
    ) -> (&'static [TargetSpec], &'static [Effect]) {
        let def = self.catalog().get(item.card);
        match item.kind {
            StackKind::Spell(id) => match item.mode.and_then(|m| def.spell.modes.get(m as usize)) {
                Some(m) => (&m.targets, &m.effects),
                // A kicked spell has its kicker targets too (409.1d / 601.2c).
                None if !def.cast_keys.kicked_targets.is_empty() && self.was_kicked(id, None) => {
                    (&def.cast_keys.kicked_targets, &def.spell.effects)
                }
                None => (&def.spell.targets, &def.spell.effects),
            },
            StackKind::Ability { index, .. } => self
                .catalog()
                .ability(item.card, index)
                .map_or((&[][..], &[][..]), |a| {
                    (a.targets.as_slice(), a.effects.as_slice())
                }),
            StackKind::Trigger { index, granter, .. } => self
                .trigger_def(granter.unwrap_or(item.card), index)
                .map_or((&[][..], &[][..]), |t| {
                    match item.mode.and_then(|m| t.modes.get(m as usize)) {
                        Some(m) => (m.targets.as_slice(), m.effects.as_slice()),
                        None => (t.targets.as_slice(), t.effects.as_slice()),
                    }
                }),
            StackKind::CombatDamage { .. } => (&[], &[]),
        }
    }

    /// 413: resolve the top object of the stack.
    pub(crate) fn resolve_top(&mut self) {
        let Some(item) = self.stack.last().cloned() else {
            return;
        };
        if let StackKind::CombatDamage { .. } = item.kind {
            // 616.1: shield orders are asked before the damage is dealt (it stays on the
            // stack until then).
            let damage: Vec<(ObjectId, Target, u32)> = self
                .combat
                .as_ref()
                .map(|c| c.assigned.clone())
                .unwrap_or_default();
            if let Some(p) = self.next_combat_damage_question(&damage) {
                self.pending = Some(p);
                return;
            }
            self.stack.pop();
            self.resolve_combat_damage_object();
            return;
        }
        // 413.2a: check targets; if every one is illegal, the rules counter it.
        let specs = self.item_ability(&item).0;
        let source_colors = match item.kind {
            StackKind::Spell(id) => self.colors(id),
            StackKind::Ability { source, .. } | StackKind::Trigger { source, .. } => {
                self.source_colors(source)
            }
            StackKind::CombatDamage { .. } => crate::mana::ColorSet::NONE,
        };
        // "X target <things>" (`x_targets`): its one spec stands for every target.
        let repeat = matches!(item.kind, StackKind::Ability { index, .. }
            if self.catalog().ability(item.card, index).is_some_and(|a| a.x_targets));
        let spec_of = |i: usize| specs.get(i).or(if repeat { specs.last() } else { None });
        let legal: Vec<bool> = item
            .targets
            .iter()
            .enumerate()
            .filter_map(|(i, t)| spec_of(i).map(|spec| (t, spec)))
            .map(|(t, spec)| {
                self.target_is_legal(item.controller, spec, *t)
                    && self.mana_value_x_ok(spec, *t, item.x)
                    && !self.is_self_target(&item, *t)
                    && self.blocked_by_source_ok(spec, *t, item.ability_source())
                    && self.that_player_controls_ok(spec, *t, item.event_player())
                    && self.chooser_controls_ok(spec, *t, item.chooser)
                    && !matches!(t, Target::Object(o)
                        if self.obj(*o).is_some_and(|x| x.zone != crate::zones::ZoneKind::Graveyard)
                            && (self.protected_from(*o, source_colors)
                                || self.protected_from_mana_value(*o, self.item_mana_value(&item))))
                    && !self.aura_spell_shut_out(&item, *t)
            })
            .collect();
        // Divided damage's targets count too: countered only if every target is illegal.
        let division_legal = item
            .division
            .iter()
            .any(|(t, _)| self.division_target_legal(&item, *t));
        if (!item.targets.is_empty() || !item.division.is_empty())
            && legal.iter().all(|l| !l)
            && !division_legal
        {
            self.counter_item(&item, true);
            return;
        }
        if !item.is_spell() {
            self.stack.pop();
        }
        // 410.10e / 603.4: an intervening "if" is checked again on resolution.
        let condition_fails = match item.kind {
            StackKind::Trigger {
                source,
                index,
                granter,
                ..
            } => {
                !self
                    .trigger_def(granter.unwrap_or(item.card), index)
                    .is_some_and(|d| {
                        d.condition == Some(crate::abilities::TriggerCondition::WhileExiled)
                    })
                    && !self.trigger_condition_holds(
                        granter.unwrap_or(item.card),
                        index as usize,
                        item.controller,
                        source,
                    )
            }
            _ => false,
        };
        let mut res = Resolution::new(item, legal);
        if condition_fails {
            // It does nothing: resolve it with no instruction left to follow.
            res.effect = usize::MAX;
        }
        // Last known information (413.2 / 608.2h): who controlled each target object, for
        // effects that still name "its controller" after the object is gone (Pongify).
        res.target_controllers = res
            .item
            .targets
            .iter()
            .map(|t| match t {
                Target::Object(o) => self.obj(*o).map(|x| x.controller),
                Target::Player(_) | Target::Ability(_) => None,
            })
            .collect();
        res.target_pts = res
            .item
            .targets
            .iter()
            .map(|t| match t {
                Target::Object(o) if self.is_on_battlefield(*o) => self.power_toughness(*o),
                _ => None,
            })
            .collect();
        res.target_mana_values = res
            .item
            .targets
            .iter()
            .map(|t| match t {
                Target::Object(o) => self.spell_mana_value(*o),
                Target::Player(_) | Target::Ability(_) => None,
            })
            .collect();
        self.resolution = Some(res);
        self.run_resolution();
    }

    /// The converted mana cost of a spell on the stack: X counts as the value chosen
    /// (R-conflagrate-2, also when cast with flashback); a face-down spell's is 0.
    pub fn spell_mana_value(&self, id: ObjectId) -> Option<u32> {
        let o = self.obj(id)?;
        if o.zone != crate::zones::ZoneKind::Stack {
            return None;
        }
        let def = self.catalog().get(o.face());
        let x = self
            .stack
            .iter()
            .find(|s| s.object() == Some(id))
            .map_or(0, |s| s.x);
        Some(def.mana_value_with_x(x))
    }

    /// Whether a target of a spell's divided damage is still legal (413.2a).
    pub(crate) fn division_target_legal(&self, item: &StackItem, t: Target) -> bool {
        let d = match item.kind {
            StackKind::Spell(_) => self.catalog().get(item.card).spell.divided.as_ref(),
            StackKind::Trigger { index, granter, .. } => self
                .trigger_def(granter.unwrap_or(item.card), index)
                .and_then(|t| t.divided.as_ref()),
            _ => None,
        };
        let Some(d) = d else {
            return false;
        };
        let colors = match item.kind {
            StackKind::Spell(id) => self.colors(id),
            StackKind::Trigger { source, .. } => self.source_colors(source),
            _ => crate::mana::ColorSet::NONE,
        };
        self.target_is_legal(item.controller, &d.spec, t)
            && !self.is_self_target(item, t)
            && !matches!(t, Target::Object(o) if self.protected_from(o, colors)
                || self.protected_from_mana_value(o, self.item_mana_value(item)))
    }

    /// The mana value of what a stack item's targets are chosen by: the spell, or the
    /// ability's source (protection from a mana value: Mistmeadow Skulk).
    fn item_mana_value(&self, item: &StackItem) -> u32 {
        match item.kind {
            StackKind::Spell(id) => self.source_mana_value(id),
            _ => item
                .ability_source()
                .map_or(0, |s| self.source_mana_value(s)),
        }
    }

    /// An Aura spell whose target can't be enchanted by other Auras now (Consecrate Land).
    fn aura_spell_shut_out(&self, item: &StackItem, t: Target) -> bool {
        matches!((item.kind, t), (StackKind::Spell(me), Target::Object(o))
            if self.catalog().get(item.card).enchant.is_some() && self.aura_shut_out(me, o))
    }

    fn is_self_target(&self, item: &StackItem, t: Target) -> bool {
        matches!((item.kind, t), (StackKind::Spell(me), Target::Object(o)) if me == o)
    }

    /// "Target creature it's blocking" (`blocked_by_this`): whether the ability's source
    /// (`source`) blocks `t` now; "of the chosen color" (`chosen_color`): whether `t` has
    /// the color the source chose; true for any other target spec.
    pub(crate) fn blocked_by_source_ok(
        &self,
        spec: &crate::targets::TargetSpec,
        t: Target,
        source: Option<ObjectId>,
    ) -> bool {
        let crate::targets::TargetKind::Permanent(f) = &spec.kind else {
            return true;
        };
        // "Target permanent of the chosen color" (Pentarch Paladin): its source's choice.
        if let Target::Object(o) = t
            && !self.chosen_color_ok(f, source, o)
        {
            return false;
        }
        if !f.blocked_by_source {
            return true;
        }
        let (Some(src), Target::Object(o)) = (source, t) else {
            return false;
        };
        self.combat
            .as_ref()
            .is_some_and(|c| c.blockers.iter().any(|b| b.id == src && b.attacker == o))
    }

    /// 414.1: a countered spell goes to its owner's graveyard; an ability is removed.
    pub(crate) fn counter_item(&mut self, item: &StackItem, by_rules: bool) {
        if !by_rules && self.cant_be_countered(item) {
            return;
        }
        match item.kind {
            StackKind::Spell(card) => {
                self.spell_to_graveyard(card);
                self.stack.retain(|s| s.object() != Some(card));
            }
            _ => {
                if let Some(i) = self.stack.iter().rposition(|s| s == item) {
                    self.stack.remove(i);
                }
            }
        }
        self.emit(Event::Countered {
            card: item.card,
            by_rules,
        });
    }

    /// "This spell can't be countered" (Scragnoth): a spell with the keyword, which spells
    /// and abilities that counter it leave on the stack.
    pub(crate) fn cant_be_countered(&self, item: &StackItem) -> bool {
        matches!(item.kind, StackKind::Spell(card) if self.has_keyword(card, crate::keywords::Keyword::CantBeCountered))
    }
}
