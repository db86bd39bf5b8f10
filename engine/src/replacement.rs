//! Replacement and prevention effects (2006 rule 419; today 614-616).
//!
//! A replacement effect watches for an event and changes it as it happens; a prevention
//! effect is the kind that watches for damage. Here they are applied inside the primitive
//! that performs the event, so every path to that event sees them:
//!
//! - damage ([`Game::prevent_damage`], called by `deal_damage`): rule-changing "prevent all
//!   (combat) damage this turn" effects, protection (502.7 / 702.16e), static prevention of
//!   permanents (Plated Pegasus, Uncle Istvan, absorb), then prevention shields ("prevent the
//!   next N damage that would be dealt to ~ this turn") in the order they were created;
//! - destruction ([`Game::destroy`]): regeneration shields (419.6b / 701.15), unless the
//!   object can't be regenerated;
//! - dying ([`Game::dies_replacement`], inside `move_object`): "if it would die this turn,
//!   exile it instead" (Disintegrate);
//! - drawing ([`Game::draw_replacement`]): Enduring Renewal's reveal-instead;
//! - entering the battlefield: "enters tapped" and "enters with counters" are applied as the
//!   object enters (`put_onto_battlefield`), never as a later event (410.10e / 614.1c).
//!
//! Each replacement applies at most once to one event (419.9 / 614.5). Where several
//! prevention effects apply to one damage event, the affected player would choose their order
//! (419.9 / 616.1); every prevention effect the engine supports prevents a fixed amount with
//! no side effect, so only the leftover of a shield can depend on the order, and the engine
//! applies the order that keeps the most shield for that player (effects without a residue
//! first, then shields oldest first). Cards whose replacement has a side effect that makes the
//! order matter (Phantom Wurm, Dralnu) are not scripted yet, so no such choice is ever skipped.

use crate::cards::Keyword;
use crate::events::Event;
use crate::game::Game;
use crate::ids::{ObjectId, PlayerId};
use crate::targets::Target;
use crate::zones::ZoneKind;
use serde::{Deserialize, Serialize};

/// What a rule-changing prevention effect covers ("prevent all combat damage that would be
/// dealt this turn").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PreventScope {
    /// All combat damage (Darkness).
    CombatDamage,
    /// All damage creatures would deal to players (Chameleon Blur).
    CreatureDamageToPlayers,
}

impl PreventScope {
    pub fn parse(s: &str) -> Result<Self, String> {
        match s {
            "combat" => Ok(PreventScope::CombatDamage),
            "creatures_to_players" => Ok(PreventScope::CreatureDamageToPlayers),
            other => Err(format!(
                "unknown prevention scope `{other}` (combat, creatures_to_players)"
            )),
        }
    }
}

/// A replacement or prevention effect created by a resolved spell or ability; every one of
/// them lasts until it is used up or the turn ends (cleanup, 314.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Shield {
    /// "Prevent the next N damage that would be dealt to T this turn."
    PreventNext { target: Target, remaining: u32 },
    /// "Prevent all ... damage ... this turn": a rule change covering objects that arrive
    /// later too (418.3b).
    PreventAll(PreventScope),
    /// Regeneration (419.6b): the next time the object would be destroyed this turn, instead
    /// tap it, remove all damage from it and remove it from combat.
    Regenerate(ObjectId),
    /// "It can't be regenerated this turn."
    CantRegenerate(ObjectId),
    /// "If it would die this turn, exile it instead."
    ExileIfDies(ObjectId),
    /// "Prevent all combat damage ~ would deal this combat" (until the end of combat).
    PreventCombatDamageFrom(ObjectId),
}

/// A static prevention ability of a permanent (script key `prevent`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum StaticPrevention {
    /// Plated Pegasus: prevent N of the damage each spell would deal to each permanent or
    /// player.
    SpellDamage(u32),
    /// Uncle Istvan: prevent all damage creatures would deal to this permanent.
    FromCreaturesToThis,
}

impl StaticPrevention {
    pub fn parse(s: &str) -> Result<Self, String> {
        let words: Vec<&str> = s.split_whitespace().collect();
        match words.as_slice() {
            ["spell_damage", n] => n
                .parse()
                .map(StaticPrevention::SpellDamage)
                .map_err(|_| format!("bad amount in `{s}`")),
            ["from_creatures_to_this"] => Ok(StaticPrevention::FromCreaturesToThis),
            _ => Err(format!(
                "unknown prevention `{s}` (spell_damage N, from_creatures_to_this)"
            )),
        }
    }
}

impl Game {
    /// Applies every prevention effect to damage about to be dealt and returns what is left
    /// (419.7 / 615). Shields are used up as they prevent damage.
    pub(crate) fn prevent_damage(
        &mut self,
        source: ObjectId,
        target: Target,
        amount: u32,
        combat: bool,
    ) -> u32 {
        if amount == 0 {
            return 0;
        }
        let source_is_creature = self.source_is_creature(source);
        // Rule-changing effects: all of it.
        for s in &self.shields {
            if let Shield::PreventAll(scope) = s {
                let covers = match scope {
                    PreventScope::CombatDamage => combat,
                    PreventScope::CreatureDamageToPlayers => {
                        source_is_creature && matches!(target, Target::Player(_))
                    }
                };
                if covers {
                    return 0;
                }
            }
            if let Shield::PreventCombatDamageFrom(src) = s
                && combat
                && *src == source
            {
                return 0;
            }
        }
        if let Target::Object(id) = target {
            // Protection from a colour prevents damage from sources of that colour.
            if self.protected_from(id, self.source_colors(source)) {
                return 0;
            }
            if source_is_creature
                && self.has_static_prevention(id, |p| {
                    matches!(p, StaticPrevention::FromCreaturesToThis)
                })
            {
                return 0;
            }
        }
        let mut left = amount;
        // Absorb N (Lymph Sliver): "if a source would deal damage to ~, prevent N of it".
        if let Target::Object(id) = target
            && self.has_keyword(id, Keyword::Absorb1)
        {
            left = left.saturating_sub(1);
        }
        // Plated Pegasus: each one prevents 1 of each spell's damage to each recipient.
        if self.source_is_spell(source) {
            let pegasi: u32 = self
                .battlefield
                .iter()
                .map(|&p| self.static_preventions(p))
                .flat_map(|v| v.into_iter())
                .map(|p| match p {
                    StaticPrevention::SpellDamage(n) => n,
                    StaticPrevention::FromCreaturesToThis => 0,
                })
                .sum();
            left = left.saturating_sub(pegasi);
        }
        // Shields for this recipient, oldest first.
        for s in &mut self.shields {
            if left == 0 {
                break;
            }
            if let Shield::PreventNext {
                target: t,
                remaining,
            } = s
                && *t == target
                && *remaining > 0
            {
                let n = left.min(*remaining);
                *remaining -= n;
                left -= n;
            }
        }
        self.shields
            .retain(|s| !matches!(s, Shield::PreventNext { remaining: 0, .. }));
        if left < amount {
            self.emit(Event::DamagePrevented {
                source,
                target,
                amount: amount - left,
            });
        }
        left
    }

    fn source_is_spell(&self, source: ObjectId) -> bool {
        self.obj(source).is_some_and(|o| o.zone == ZoneKind::Stack)
    }

    /// Whether a damage source is a creature, as it is now or as it last existed.
    fn source_is_creature(&self, source: ObjectId) -> bool {
        match self.obj(source) {
            Some(o) if o.zone == ZoneKind::Battlefield => self.is_creature(source),
            Some(_) => false,
            // A source that left its zone: as it last existed (a creature card that dealt
            // damage from the battlefield, e.g. classic combat damage on the stack).
            None => self.objects.get(source.slot()).is_some_and(|o| {
                self.catalog()
                    .get(o.face())
                    .has_type(crate::cards::CardType::Creature)
            }),
        }
    }

    /// The static prevention abilities `id` has now (none once it lost its abilities).
    fn static_preventions(&self, id: ObjectId) -> Vec<StaticPrevention> {
        if !self.has_own_abilities(id) {
            return Vec::new();
        }
        self.def(id)
            .map_or_else(Vec::new, |d| d.preventions.clone())
    }

    fn has_static_prevention(&self, id: ObjectId, f: impl Fn(&StaticPrevention) -> bool) -> bool {
        self.is_on_battlefield(id) && self.static_preventions(id).iter().any(f)
    }

    /// Regeneration (419.6b / 701.15): uses a shield instead of destroying. Returns whether
    /// the destruction was replaced.
    pub(crate) fn try_regenerate(&mut self, id: ObjectId) -> bool {
        if self.shields.contains(&Shield::CantRegenerate(id)) {
            return false;
        }
        let Some(i) = self
            .shields
            .iter()
            .position(|s| *s == Shield::Regenerate(id))
        else {
            return false;
        };
        self.shields.remove(i);
        self.tap(id);
        if let Some(o) = self.obj_mut(id) {
            o.damage = 0;
            o.deathtouch_damage = false;
        }
        if let Some(c) = &mut self.combat {
            c.remove(id);
        }
        self.emit(Event::Regenerated(id));
        true
    }

    /// Where a permanent that would be put into a graveyard from the battlefield goes
    /// instead ("if it would die this turn, exile it instead").
    pub(crate) fn dies_replacement(&self, id: ObjectId) -> ZoneKind {
        if self.shields.contains(&Shield::ExileIfDies(id)) && self.is_creature(id) {
            ZoneKind::Exile
        } else {
            ZoneKind::Graveyard
        }
    }

    /// A shield that names an object stops mattering when the object leaves the battlefield.
    pub(crate) fn drop_shields_of(&mut self, id: ObjectId) {
        self.shields.retain(|s| match s {
            Shield::Regenerate(o) | Shield::CantRegenerate(o) | Shield::ExileIfDies(o) => *o != id,
            Shield::PreventNext { target, .. } => *target != Target::Object(id),
            Shield::PreventAll(_) | Shield::PreventCombatDamageFrom(_) => true,
        });
    }

    pub(crate) fn add_shield(&mut self, s: Shield) {
        self.shields.push(s);
    }

    /// "Play with your hand revealed" (Enduring Renewal): a permanent of this player says so.
    pub fn hand_revealed(&self, p: PlayerId) -> bool {
        self.battlefield.iter().any(|&id| {
            self.obj(id).is_some_and(|o| o.controller == p)
                && self.def(id).is_some_and(|d| d.hand_revealed)
                && self.has_own_abilities(id)
        })
    }

    /// Enduring Renewal (a replacement of draws by its controller): "If you would draw a
    /// card, reveal the top card of your library instead. If it's a creature card, put it
    /// into your graveyard. Otherwise, draw a card." Returns `None` when the draw is not
    /// replaced, or `Some(drawn)` with the card the replacement drew (if any).
    pub(crate) fn draw_replacement(&mut self, p: PlayerId) -> Option<Option<ObjectId>> {
        let replaces = self.battlefield.iter().any(|&id| {
            self.obj(id).is_some_and(|o| o.controller == p)
                && self.has_own_abilities(id)
                && self.def(id).is_some_and(|d| d.draw_reveal_instead)
        });
        if !replaces {
            return None;
        }
        let &top = self.player(p).library.last()?;
        self.emit(Event::Revealed {
            player: p,
            card: top,
        });
        if self.has_type(top, crate::cards::CardType::Creature) {
            self.move_object(top, ZoneKind::Graveyard, crate::zones::Position::Top);
            Some(None)
        } else {
            // "Otherwise, draw a card": a draw made by the replacement itself, which the same
            // replacement doesn't apply to again (419.9 / 614.5).
            Some(self.draw_one_unreplaced(p))
        }
    }
}
