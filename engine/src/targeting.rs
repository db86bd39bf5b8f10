//! Target legality (rule 415 / 409.1c, 413.2a): whether an object or player matches a
//! filter or target spec now, for the player controlling the spell or ability; used when a
//! spell or ability is put on the stack and again as it resolves.

use crate::ids::{ObjectId, PlayerId};
use crate::targets::{ObjectFilter, Relation, Target, TargetKind, TargetSpec};

impl crate::game::Game {
    /// Whether the object matches the filter now, for a spell or ability controlled by `me`.
    pub fn matches_filter(&self, id: ObjectId, f: &ObjectFilter, me: PlayerId) -> bool {
        let Some(o) = self.obj(id) else { return false };
        let types = self.types_of(id);
        let or_subtype = f.or_subtypes && f.subtypes_any.iter().any(|s| self.has_subtype(id, s));
        if !f.types_any.is_empty()
            && !f.types_any.iter().any(|t| types.contains(t))
            && !f.or_keyword.is_some_and(|k| self.has_keyword(id, k))
            && !or_subtype
        {
            return false;
        }
        if f.types_none.iter().any(|t| types.contains(t)) {
            return false;
        }
        if let Some(s) = &f.subtype
            && !self.has_subtype(id, s)
        {
            return false;
        }
        if !f.subtypes_any.is_empty()
            && !f.or_subtypes
            && !f.subtypes_any.iter().any(|s| self.has_subtype(id, s))
        {
            return false;
        }
        if let Some(s) = &f.not_subtype
            && self.has_subtype(id, s)
        {
            return false;
        }
        if let Some((p, t)) = f.exact_pt
            && (self.power(id) != p || self.toughness(id) != t)
        {
            return false;
        }
        if f.not_colors.iter().any(|c| self.colors(id).contains(c)) {
            return false;
        }
        if !f.colors_any.is_empty() && !f.colors_any.iter().any(|c| self.colors(id).contains(c)) {
            return false;
        }
        if let Some(t) = f.tapped
            && o.tapped != t
        {
            return false;
        }
        if let Some(max) = f.max_toughness
            && self.toughness(id) > max
        {
            return false;
        }
        if let Some(k) = f.keyword
            && !self.has_keyword(id, k)
        {
            return false;
        }
        if let Some(k) = f.without_keyword
            && self.has_keyword(id, k)
        {
            return false;
        }
        if let Some(min) = f.min_power
            && self.power(id) < min
        {
            return false;
        }
        if f.with_aura && self.auras_attached_to(id, None) == 0 {
            return false;
        }
        if f.attacking && !self.combat.as_ref().is_some_and(|c| c.is_attacking(id)) {
            return false;
        }
        if f.entered_since_your_last_turn
            && (o.zone != crate::zones::ZoneKind::Battlefield
                || o.entered_turn <= self.player(me).turn_ended)
        {
            return false;
        }
        if f.attacking_or_blocking
            && !self
                .combat
                .as_ref()
                .is_some_and(|c| c.is_attacking(id) || c.is_blocking(id))
        {
            return false;
        }
        if let Some(max) = f.max_mana_value
            && !self
                .def(id)
                .is_some_and(|d| d.mana_value_matches(|v| v <= max))
        {
            return false;
        }
        if f.targets_your_permanent && !self.spell_targets_permanent_of(id, me) {
            return false;
        }
        if f.token && !o.token {
            return false;
        }
        if f.face_down && !o.face_down {
            return false;
        }
        if f.basic
            && !self
                .def(id)
                .is_some_and(|d| d.supertypes.contains(&crate::types::Supertype::Basic))
        {
            return false;
        }
        if f.nonbasic
            && self
                .def(id)
                .is_some_and(|d| d.supertypes.contains(&crate::types::Supertype::Basic))
        {
            return false;
        }
        if let Some(w) = f.text_changeable
            && !self.text_change_supported(id, w)
        {
            return false;
        }
        match f.controller {
            Some(Relation::You) if o.controller != me => false,
            Some(Relation::Opponent) if o.controller == me => false,
            // Checked where the event's player is known (`that_player_controls_ok`).
            _ => true,
        }
    }

    /// "Target land that player controls" (`Relation::ThatPlayer`, Mana Skimmer): whether
    /// `t` is a permanent controlled by `player`, the player the trigger's event named (none
    /// outside a trigger: never); true for a target spec without that restriction.
    pub(crate) fn that_player_controls_ok(
        &self,
        spec: &TargetSpec,
        t: Target,
        player: Option<PlayerId>,
    ) -> bool {
        let TargetKind::Permanent(f) = &spec.kind else {
            return true;
        };
        if f.controller != Some(Relation::ThatPlayer) {
            return true;
        }
        let Target::Object(id) = t else { return false };
        player.is_some_and(|p| self.obj(id).is_some_and(|o| o.controller == p))
    }

    /// "Target creature of an opponent's choice they control" (Evangelize, Arena): whether
    /// `t` is controlled by `chooser`, the opponent chosen to choose it (not known yet: any);
    /// true for a target spec without that restriction.
    pub(crate) fn chooser_controls_ok(
        &self,
        spec: &TargetSpec,
        t: Target,
        chooser: Option<PlayerId>,
    ) -> bool {
        if !spec.chosen_by_opponent {
            return true;
        }
        match (chooser, t) {
            (Some(p), Target::Object(id)) => self.obj(id).is_some_and(|o| o.controller == p),
            _ => true,
        }
    }

    /// Whether `id`, a spell on the stack, has a target that is a permanent `me` controls
    /// (`ObjectFilter::targets_your_permanent`: Avoid Fate).
    fn spell_targets_permanent_of(&self, id: ObjectId, me: PlayerId) -> bool {
        self.stack
            .iter()
            .find(|s| s.object() == Some(id))
            .is_some_and(|s| {
                s.targets.iter().any(|t| match t {
                    crate::targets::Target::Object(t) => self.obj(*t).is_some_and(|o| {
                        o.zone == crate::zones::ZoneKind::Battlefield && o.controller == me
                    }),
                    _ => false,
                })
            })
    }

    /// How many Auras are attached to `id`, not counting `except`.
    pub(crate) fn auras_attached_to(&self, id: ObjectId, except: Option<ObjectId>) -> usize {
        self.battlefield
            .iter()
            .filter(|&&a| Some(a) != except)
            .filter(|&&a| self.obj(a).is_some_and(|o| o.attached_to == Some(id)))
            .filter(|&&a| self.has_subtype(a, "Aura"))
            .count()
    }

    /// "Target spell with mana value X" (`ObjectFilter::mana_value_x`): whether `t`, a spell,
    /// has mana value `x`, the X of what targets it; true for any other target spec.
    pub(crate) fn mana_value_x_ok(&self, spec: &TargetSpec, t: Target, x: u32) -> bool {
        match (&spec.kind, t) {
            (TargetKind::Spell(f), Target::Object(id)) if f.mana_value_x => {
                self.spell_mana_value(id) == Some(x)
            }
            // "Target artifact or enchantment with mana value X" (Molder).
            (TargetKind::Permanent(f), Target::Object(id)) if f.mana_value_x => self
                .def(id)
                .is_some_and(|d| d.mana_value_matches(|v| v == x)),
            _ => true,
        }
    }

    /// Whether `t` is a legal target for `spec` for a spell or ability controlled by `me`
    /// (409.1c, 413.2a). The error says why not.
    pub fn target_legal(&self, me: PlayerId, spec: &TargetSpec, t: Target) -> Result<(), String> {
        self.target_check(me, spec, t, true)
    }

    /// `target_legal` without the words: the listings and the checks on resolution ask
    /// only yes or no (wording every refusal was most of a target listing's cost).
    pub fn target_is_legal(&self, me: PlayerId, spec: &TargetSpec, t: Target) -> bool {
        self.target_check(me, spec, t, false).is_ok()
    }

    /// "Target spell or permanent" (Moonlace): on the stack or the battlefield.
    fn spell_or_permanent(&self, id: ObjectId, words: bool) -> Result<(), String> {
        match self.obj(id).map(|o| o.zone) {
            Some(crate::zones::ZoneKind::Stack | crate::zones::ZoneKind::Battlefield) => Ok(()),
            _ if !words => Err(String::new()),
            Some(_) => Err(format!(
                "{} is not a spell or a permanent",
                self.card_name(id)
            )),
            None => Err("that object is gone".into()),
        }
    }

    /// The one target check; a refusal is worded only when `words` (else an empty message).
    pub(crate) fn target_check(
        &self,
        me: PlayerId,
        spec: &TargetSpec,
        t: Target,
        words: bool,
    ) -> Result<(), String> {
        use crate::zones::ZoneKind;
        let no = |why: &dyn Fn() -> String| Err(if words { why() } else { String::new() });
        // Shroud (702.18, `keywords/shroud.rs`).
        if let Target::Object(id) = t
            && self.has_shroud(id)
        {
            return no(&|| self.shroud_words(id));
        }
        match (&spec.kind, t) {
            (TargetKind::Any | TargetKind::Player, Target::Player(p)) => {
                if self.target_exists(t) {
                    Ok(())
                } else {
                    no(&|| format!("{p} is not in the game"))
                }
            }
            (TargetKind::Opponent, Target::Player(p)) => {
                if !self.target_exists(t) {
                    no(&|| format!("{p} is not in the game"))
                } else if p == me {
                    no(&|| "you must target an opponent".into())
                } else {
                    Ok(())
                }
            }
            (TargetKind::Any, Target::Object(id)) => {
                let Some(o) = self.obj(id) else {
                    return no(&|| "that object is gone".into());
                };
                if o.zone != ZoneKind::Battlefield || !self.is_creature(id) {
                    no(&|| {
                        format!(
                            "{} is not a creature on the battlefield",
                            self.card_name(id)
                        )
                    })
                } else {
                    Ok(())
                }
            }
            (TargetKind::Permanent(f), Target::Object(id)) => {
                let Some(o) = self.obj(id) else {
                    return no(&|| "that object is gone".into());
                };
                if o.zone != ZoneKind::Battlefield {
                    no(&|| format!("{} is not on the battlefield", self.card_name(id)))
                } else if !self.matches_filter(id, f, me) {
                    no(&|| format!("{} is not {}", self.card_name(id), spec.describe()))
                } else {
                    Ok(())
                }
            }
            (TargetKind::Spell(f), Target::Object(id)) => {
                let Some(o) = self.obj(id) else {
                    return no(&|| "that spell is gone".into());
                };
                if o.zone != ZoneKind::Stack {
                    no(&|| format!("{} is not a spell on the stack", self.card_name(id)))
                } else if !self.matches_filter(id, f, me) {
                    no(&|| format!("{} is not {}", self.card_name(id), spec.describe()))
                } else {
                    Ok(())
                }
            }
            (
                TargetKind::GraveyardCard(f) | TargetKind::CardInTargetPlayersGraveyard(f),
                Target::Object(id),
            ) => self
                .graveyard_card_check(me, spec, f, id)
                .map_err(|e| if words { e } else { String::new() }),
            (TargetKind::CardInYourGraveyard(f), Target::Object(id)) => {
                let Some(o) = self.obj(id) else {
                    return no(&|| "that card is gone".into());
                };
                if o.zone != ZoneKind::Graveyard || o.owner != me {
                    no(&|| format!("{} is not in your graveyard", self.card_name(id)))
                } else if !self.matches_filter(id, f, me) {
                    no(&|| format!("{} is not {}", self.card_name(id), spec.describe()))
                } else {
                    Ok(())
                }
            }
            (
                TargetKind::PermanentOrSuspended {
                    filter,
                    with_time_counter,
                },
                Target::Object(id),
            ) => {
                let Some(o) = self.obj(id) else {
                    return no(&|| "that object is gone".into());
                };
                let ok = match o.zone {
                    ZoneKind::Battlefield => {
                        self.matches_filter(id, filter, me)
                            && (!with_time_counter
                                || o.counters.get(&crate::object::CounterKind::Time) > 0)
                    }
                    ZoneKind::Exile => {
                        self.is_suspended(id)
                            && (filter.controller != Some(Relation::You) || o.owner == me)
                    }
                    _ => false,
                };
                if ok {
                    Ok(())
                } else {
                    no(&|| format!("{} is not {}", self.card_name(id), spec.describe()))
                }
            }
            (TargetKind::SpellOrPermanent, Target::Object(id)) => {
                self.spell_or_permanent(id, words)
            }
            (TargetKind::SingleTargetSpellOrAbility, Target::Object(id)) => self
                .single_target_spell_check(id)
                .map_err(|e| if words { e } else { String::new() }),
            (TargetKind::SpellTargetingSingleCreature, Target::Object(id)) => self
                .single_creature_spell_check(id)
                .map_err(|e| if words { e } else { String::new() }),
            (TargetKind::ExiledCard, Target::Object(id)) => match self.obj(id) {
                Some(o) if o.zone == ZoneKind::Exile && !o.face_down => Ok(()),
                Some(_) => no(&|| format!("{} is not a face-up exiled card", self.card_name(id))),
                None => no(&|| "that card is gone".into()),
            },
            (k, Target::Ability(serial)) if k.is_ability() => self
                .ability_target_check(k, serial)
                .map_err(|e| if words { e } else { String::new() }),
            (_, Target::Ability(_)) => {
                no(&|| format!("that is an ability, but this needs {}", spec.describe()))
            }
            (_, Target::Player(p)) => {
                no(&|| format!("{p} is a player, but this needs {}", spec.describe()))
            }
            (_, Target::Object(id)) => no(&|| {
                format!(
                    "{} is not a player, but this needs {}",
                    self.card_name(id),
                    spec.describe()
                )
            }),
        }
    }

    /// A card in any graveyard matching the filter ("target card in a graveyard").
    fn graveyard_card_check(
        &self,
        me: PlayerId,
        spec: &TargetSpec,
        f: &crate::targets::ObjectFilter,
        id: crate::ids::ObjectId,
    ) -> Result<(), String> {
        let Some(o) = self.obj(id) else {
            return Err("that card is gone".into());
        };
        if o.zone != crate::zones::ZoneKind::Graveyard {
            Err(format!("{} is not in a graveyard", self.card_name(id)))
        } else if !self.matches_filter(id, f, me) {
            Err(format!("{} is not {}", self.card_name(id), spec.describe()))
        } else {
            Ok(())
        }
    }

    /// The one creature a stack item targets ("a spell that targets only a single
    /// creature": Muck Drubb): its single target (a divided spell's one recipient), if that
    /// is a creature. A spell with several targets is never one (its ruling, even if only
    /// one is a creature); the block has no spell that may choose one creature for several
    /// targets, the ruling's other case.
    pub(crate) fn single_creature_target(
        &self,
        s: &crate::stack::StackItem,
    ) -> Option<crate::ids::ObjectId> {
        match s.single_target()? {
            Target::Object(id) if self.is_on_battlefield(id) && self.is_creature(id) => Some(id),
            _ => None,
        }
    }

    /// A spell on the stack as Muck Drubb's "target spell that targets only a single
    /// creature".
    fn single_creature_spell_check(&self, id: crate::ids::ObjectId) -> Result<(), String> {
        match self.stack.iter().find(|s| s.object() == Some(id)) {
            None => Err(format!(
                "{} is not a spell on the stack",
                self.card_name(id)
            )),
            Some(s) if self.single_creature_target(s).is_none() => Err(format!(
                "{} doesn't target only a single creature",
                self.card_name(id)
            )),
            Some(_) => Ok(()),
        }
    }

    /// A spell on the stack as Willbender's "target spell ... with a single target".
    fn single_target_spell_check(&self, id: crate::ids::ObjectId) -> Result<(), String> {
        match self.stack.iter().find(|s| s.object() == Some(id)) {
            None => Err(format!(
                "{} is not a spell on the stack",
                self.card_name(id)
            )),
            Some(s) if s.single_target().is_none() => Err(format!(
                "{} doesn't have a single target",
                self.card_name(id)
            )),
            Some(_) => Ok(()),
        }
    }

    /// An ability on the stack as the target of `kind` (`Target::Ability`): Trickbind's any
    /// ability, Voidmage Husher's activated one only.
    fn ability_target_check(&self, kind: &TargetKind, serial: u32) -> Result<(), String> {
        match self.ability_on_stack(serial).map(|s| &s.kind) {
            None => Err("that ability is no longer on the stack".into()),
            Some(crate::stack::StackKind::Trigger { .. })
                if *kind == TargetKind::ActivatedAbility =>
            {
                Err("that is a triggered ability, not an activated one".into())
            }
            Some(_)
                if *kind == TargetKind::SingleTargetSpellOrAbility
                    && self
                        .ability_on_stack(serial)
                        .is_some_and(|s| s.single_target().is_none()) =>
            {
                Err("that ability doesn't have a single target".into())
            }
            Some(_) => Ok(()),
        }
    }
}
