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
//! - destruction ([`Game::destroy`]): regeneration shields (419.6b / 701.15) and a
//!   permanent's own "if ~ would be destroyed, regenerate it", unless the object can't be
//!   regenerated;
//! - dying ([`Game::dies_replacement`], inside `move_object`): "if it would die this turn,
//!   exile it instead" (Disintegrate);
//! - drawing ([`Game::draw_replacement`]): Enduring Renewal's reveal-instead;
//! - entering the battlefield: "enters tapped" and "enters with counters" are applied as the
//!   object enters (`put_onto_battlefield`), never as a later event (410.10e / 614.1c).
//!
//! - redirection ([`Game::apply_shields_in_order`], in `deal_damage`): "the next N damage
//!   that would be dealt to ~ this turn is dealt to <creature> instead" (Outrider en-Kor);
//!   the redirected damage keeps its source and stays combat damage;
//! - Weathered Bodyguards ([`Game::bodyguard_replacement`], in `deal_damage`): while
//!   untapped, the combat damage unblocked creatures (`Combat::unblocked_dealers`, fixed as
//!   the damage is assigned) would deal to its controller is dealt to it instead, checked as
//!   the damage is dealt (classic: as the combat damage object resolves). With two of them,
//!   or one and that player's prevention shields, the player orders them once per damage
//!   step (`PlayerReplacement`, `Game::player_damage_orders`).
//!
//! - "if this permanent would be put into a graveyard, you may put it on top of its owner's
//!   library instead" (Pulmonic Sliver's grant, `Keyword::TopOfLibraryInstead`): an optional
//!   replacement, asked of the permanent's controller as it would go, whatever moves it
//!   (destruction, sacrifice as a cost or an effect, state-based actions: every path ends in
//!   `move_object`). Every change to a game is the run that follows one answer
//!   (`Game::submit`), so while such a permanent is on the battlefield that run is tried on
//!   a copy of the game first ([`Game::dispatch_asking_library_instead`]); if it would move
//!   one whose controller has not answered, the game is left as it was and that player is
//!   asked (a yes/no question); then the run is tried again with the answers, and the copy
//!   that needs no more answers becomes the game. Answered no, the other replacements still
//!   apply (Disintegrate's exile): its controller would order them (616.1), and answering
//!   no is choosing the exile. A token put on top of a library ceases to exist there (SBA).
//!
//! Each replacement applies at most once to one event (419.9 / 614.5). When several apply to
//! one damage event and their order matters, the affected object's controller orders them
//! (419.9 / 616.1): a redirection shield among other redirection or prevention shields that
//! the damage won't all use up. That question (`Decision::OrderReplacements`) is asked before
//! any of the damage is dealt, by the resolving effect or the combat damage step (or the
//! classic combat damage object), and the answer is used as the damage is dealt. Effects that
//! prevent all of the damage (rule-changing prevention, protection, "prevent all damage
//! creatures would deal to ~") apply before any shield is used up, the order the affected
//! player would always choose. Prevention shields alone are used oldest first: each prevents
//! a fixed amount with no side effect, so their order can't change what happens. Cards whose
//! replacement has another side effect (Phantom Wurm) are not scripted yet.
//!
//! - damage becoming sacrifices (Dralnu, Lich Lord: "if damage would be dealt to ~,
//!   sacrifice that many permanents instead"): after prevention and redirection, the damage
//!   that would reach it is replaced by its controller sacrificing that many permanents at
//!   once ([`Game::sacrifice_instead_of_damage`]); which ones is asked with the shield
//!   orders, before any of the damage is dealt (`Decision::SacrificeForDamage`).

pub use crate::abilities::StaticPrevention;
pub use crate::effects::PreventScope;
use crate::events::Event;
use crate::game::Game;
use crate::ids::{ObjectId, PlayerId};
use crate::keywords::Keyword;
use crate::targets::Target;
use crate::zones::ZoneKind;
use serde::{Deserialize, Serialize};

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
    /// "Prevent all combat damage that would be dealt to and dealt by that creature this
    /// turn" (Ith, High Arcanist).
    PreventCombatDamageToAndFrom(ObjectId),
    /// "The next N damage that would be dealt to `from` this turn is dealt to `to` instead"
    /// (Outrider en-Kor). It does nothing once `to` has left the battlefield or stopped
    /// being a creature (R-outrider-en-kor-1).
    RedirectNext {
        from: ObjectId,
        to: ObjectId,
        remaining: u32,
    },
    /// "Until end of turn, damage that would reduce your life total to less than 1 reduces
    /// it to 1 instead" (Angel's Grace): a replacement, not prevention, so it applies to
    /// damage that can't be prevented too (R-angels-grace-5); the damage dealt is unchanged.
    LifeFloor(PlayerId),
    /// "The next time <source> would deal damage to <target> this turn, prevent that
    /// damage" (Honorable Passage; the source chosen as it resolved, 2014 609.7a): all the
    /// damage of one damage event, then it is used up. A permanent spell chosen as the
    /// source is followed onto the battlefield (609.7a). `reflect`: "If damage from a red
    /// source is prevented this way, <reflect> deals that much damage to the source's
    /// controller": the source's colour as the damage would have been dealt (last known if
    /// it left); the damage is dealt right after the prevented event (2014 615.5), by
    /// `reflect` (the spell as it last existed: white).
    PreventNextFromSource {
        source: ObjectId,
        target: Target,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reflect: Option<ObjectId>,
    },
}

/// One of the replacements that may apply to combat damage an unblocked creature would deal
/// to a player who controls Weathered Bodyguards; the player orders them (419.9 / 616.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlayerReplacement {
    /// The player's prevention shields ("prevent the next N damage that would be dealt to
    /// you"), oldest first: their order among themselves can't matter.
    Prevention,
    /// Weathered Bodyguards: the damage is dealt to this creature instead.
    RedirectTo(ObjectId),
}

impl Game {
    /// Applies the prevention effects that prevent part of the damage about to be dealt
    /// (absorb, Plated Pegasus, shields oldest first) and returns what is left (419.7 / 615).
    /// Shields are used up as they prevent damage.
    pub(crate) fn prevent_damage(&mut self, source: ObjectId, target: Target, amount: u32) -> u32 {
        if amount == 0 {
            return 0;
        }
        // (Effects that prevent all of it were applied first, by `deal_damage`.)
        let mut left = amount.saturating_sub(self.static_partial_prevention(source, target));
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

    /// Whether an effect prevents all damage `source` would deal to `target` now: a
    /// rule-changing prevention ("prevent all combat damage this turn"), protection, or a
    /// static "prevent all damage creatures would deal to ~".
    pub(crate) fn fully_prevented(&self, source: ObjectId, target: Target, combat: bool) -> bool {
        let source_is_creature = self.source_is_creature(source);
        for s in &self.shields {
            if let Shield::PreventAll(scope) = s {
                let covers = match scope {
                    PreventScope::CombatDamage => combat,
                    PreventScope::CreatureDamageToPlayers => {
                        source_is_creature && matches!(target, Target::Player(_))
                    }
                };
                if covers {
                    return true;
                }
            }
            if let Shield::PreventCombatDamageFrom(src) = s
                && combat
                && *src == source
            {
                return true;
            }
            if let Shield::PreventCombatDamageToAndFrom(o) = s
                && combat
                && (*o == source || target == Target::Object(*o))
            {
                return true;
            }
        }
        // "Prevent all damage that would be dealt by enchanted creature" (Temporal Isolation).
        if self.battlefield.iter().any(|&a| {
            self.obj(a).is_some_and(|o| o.attached_to == Some(source))
                && self.has_static_prevention(a, |p| matches!(p, StaticPrevention::ByEnchanted))
        }) {
            return true;
        }
        if let Target::Object(id) = target {
            // Protection from a colour prevents damage from sources of that colour.
            if self.protected_from(id, self.source_colors(source))
                || self.protected_from_mana_value(id, self.source_mana_value(source))
            {
                return true;
            }
            if source_is_creature
                && self.has_static_prevention(id, |p| {
                    matches!(p, StaticPrevention::FromCreaturesToThis)
                })
            {
                return true;
            }
        }
        false
    }

    /// The shields (indices into `Game::shields`, oldest first) that would apply to damage
    /// `source` would deal to `target` now, when a redirection shield or a shield against
    /// that source (Honorable Passage) is among them: then the affected player orders them
    /// (616.1), and `apply_shields_in_order` uses them. Empty otherwise (prevention shields
    /// alone are used oldest first by `prevent_damage`: their order can't matter).
    pub(crate) fn ordered_shields_for(&self, source: ObjectId, target: Target) -> Vec<usize> {
        if self.shields.is_empty() {
            return Vec::new();
        }
        let applies = |s: &Shield| match s {
            Shield::RedirectNext {
                from,
                to,
                remaining,
            } => {
                target == Target::Object(*from)
                    && *remaining > 0
                    && self.is_on_battlefield(*to)
                    && self.is_creature(*to)
            }
            Shield::PreventNext {
                target: t,
                remaining,
            } => *t == target && *remaining > 0,
            Shield::PreventNextFromSource {
                source: s,
                target: t,
                ..
            } => *s == source && *t == target,
            _ => false,
        };
        if !self.shields.iter().any(|s| {
            matches!(
                s,
                Shield::RedirectNext { .. } | Shield::PreventNextFromSource { .. }
            ) && applies(s)
        }) {
            return Vec::new();
        }
        (0..self.shields.len())
            .filter(|&i| applies(&self.shields[i]))
            .collect()
    }

    /// The question for the affected player when damage about to be dealt to `target` meets
    /// several shields whose order matters (a redirection among them) and they have not
    /// answered it yet: who answers, and a description of each shield.
    pub(crate) fn shield_order_question(
        &self,
        source: ObjectId,
        target: Target,
        amount: u32,
    ) -> Option<crate::decision::Pending> {
        if self.shield_orders.iter().any(|(t, _)| *t == target) {
            return None;
        }
        let order = self.ordered_shields_for(source, target);
        if order.len() < 2 {
            return None;
        }
        // When the damage uses up every one of them, each applies in full whatever the
        // order: nothing to ask (a shield against a source takes all of it).
        let capacity: u32 = order
            .iter()
            .map(|&i| match &self.shields[i] {
                Shield::RedirectNext { remaining, .. } | Shield::PreventNext { remaining, .. } => {
                    *remaining
                }
                Shield::PreventNextFromSource { .. } => u32::MAX,
                _ => 0,
            })
            .fold(0u32, u32::saturating_add);
        if capacity <= amount {
            return None;
        }
        let (player, name) = match target {
            Target::Object(id) => (self.obj(id)?.controller, self.card_name(id).to_string()),
            // A player's order with Weathered Bodyguards is asked by the combat damage
            // question (`player_replacement_question`).
            Target::Player(p) if self.player_replacement_candidates(p).is_empty() => {
                (p, self.player(p).name.clone())
            }
            Target::Player(_) | Target::Ability(_) => return None,
        };
        let descriptions = order
            .iter()
            .map(|&i| match &self.shields[i] {
                Shield::RedirectNext { to, remaining, .. } => format!(
                    "the next {remaining} damage to {name} is dealt to {} instead",
                    self.card_name(*to)
                ),
                Shield::PreventNext { remaining, .. } => {
                    format!("prevent the next {remaining} damage to {name}")
                }
                Shield::PreventNextFromSource {
                    source, reflect, ..
                } => format!(
                    "prevent the damage {} would deal to {name}{}",
                    self.card_name(*source),
                    match reflect {
                        Some(r) => format!(
                            " ({} then deals that much damage to its controller if it is red)",
                            self.card_name(*r)
                        ),
                        None => String::new(),
                    }
                ),
                _ => String::new(),
            })
            .collect();
        Some(crate::decision::Pending {
            player,
            decision: crate::decision::Decision::OrderReplacements {
                recipient: target,
                descriptions,
            },
        })
    }

    /// The first unanswered question among damage about to be dealt (source, recipient,
    /// amount), asked before any of that damage is dealt: a shield order (616.1), then which
    /// permanents to sacrifice instead of damage to a creature with Dralnu's replacement.
    pub(crate) fn next_shield_question(
        &self,
        damage: impl IntoIterator<Item = (ObjectId, Target, u32)>,
        combat: bool,
    ) -> Option<crate::decision::Pending> {
        // Damage to one recipient from several sources at once is one event per source;
        // the question is asked for the first (the answer is used by the first dealt).
        let damage: Vec<(ObjectId, Target, u32)> = damage.into_iter().collect();
        damage
            .iter()
            .find_map(|(s, t, n)| self.shield_order_question(*s, *t, *n))
            .or_else(|| {
                // Dralnu dealt damage by several sources at once: one choice for all of it.
                damage.iter().find_map(|(_, t, _)| {
                    // Only a recipient with the replacement asks (the total is worked out
                    // for it alone).
                    if !matches!(t, Target::Object(id) if self.damage_becomes_sacrifice(*id)) {
                        return None;
                    }
                    let total: u32 = damage
                        .iter()
                        .filter(|(_, u, _)| u == t)
                        .map(|(src, u, n)| self.damage_reaching(*src, *u, *n, combat))
                        .sum();
                    self.sacrifice_for_damage_question(*t, total)
                })
            })
    }

    /// Whether "if damage would be dealt to ~, sacrifice that many permanents instead"
    /// (Dralnu, Lich Lord) applies to damage to `id` now.
    pub(crate) fn damage_becomes_sacrifice(&self, id: ObjectId) -> bool {
        self.is_on_battlefield(id)
            && self.def(id).is_some_and(|d| d.damage_to_sacrifice)
            && self.has_own_abilities(id)
    }

    /// How much of `amount` damage from `source` would reach `target` after prevention and
    /// redirection (each applies in full whatever their order, so the sum is known before
    /// the affected player orders them). Changes nothing.
    fn damage_reaching(&self, source: ObjectId, target: Target, amount: u32, combat: bool) -> u32 {
        if self.fully_prevented(source, target, combat)
            || matches!(target, Target::Object(id) if self.has_static_prevention(id, |p| {
                matches!(p, StaticPrevention::AllToThisRemovingPlusOneCounter)
            }))
        {
            return 0;
        }
        let mut left = amount;
        for s in &self.shields {
            match s {
                Shield::PreventNext {
                    target: t,
                    remaining,
                } if *t == target => left = left.saturating_sub(*remaining),
                Shield::RedirectNext {
                    from,
                    to,
                    remaining,
                } if Target::Object(*from) == target
                    && self.is_on_battlefield(*to)
                    && self.is_creature(*to) =>
                {
                    left = left.saturating_sub(*remaining)
                }
                Shield::PreventNextFromSource {
                    source: s,
                    target: t,
                    ..
                } if *s == source && *t == target => left = 0,
                _ => {}
            }
        }
        left.saturating_sub(self.static_partial_prevention(source, target))
    }

    /// How much of each damage event from `source` to `target` static abilities prevent:
    /// absorb (Lymph Sliver: "prevent N of it") and Plated Pegasus (1 of each spell's damage
    /// to each recipient, per Pegasus).
    fn static_partial_prevention(&self, source: ObjectId, target: Target) -> u32 {
        let absorb = match target {
            Target::Object(id) if self.has_keyword(id, Keyword::Absorb1) => 1,
            _ => 0,
        };
        let pegasi: u32 = if self.source_is_spell(source) {
            self.battlefield
                .iter()
                .flat_map(|&p| self.static_preventions(p))
                .map(|p| match p {
                    StaticPrevention::SpellDamage(n) => n,
                    StaticPrevention::FromCreaturesToThis
                    | StaticPrevention::ByEnchanted
                    | StaticPrevention::AllToThisRemovingPlusOneCounter => 0,
                })
                .sum()
        } else {
            0
        };
        absorb + pegasi
    }

    /// Dralnu's question: damage about to be dealt to `target` would become sacrifices; its
    /// controller chooses which permanents when they control more than that many (with that
    /// many or fewer, all of them are sacrificed: no choice).
    fn sacrifice_for_damage_question(
        &self,
        target: Target,
        count: u32,
    ) -> Option<crate::decision::Pending> {
        let Target::Object(id) = target else {
            return None;
        };
        if !self.damage_becomes_sacrifice(id)
            || !self.is_creature(id)
            || self.sacrifice_choices.iter().any(|(r, _)| *r == id)
        {
            return None;
        }
        let player = self.obj(id)?.controller;
        if count == 0 || self.battlefield_of(player).count() as u32 <= count {
            return None;
        }
        Some(crate::decision::Pending {
            player,
            decision: crate::decision::Decision::SacrificeForDamage {
                recipient: id,
                count,
            },
        })
    }

    /// Dralnu's replacement: instead of `amount` damage to `id`, its controller sacrifices
    /// that many permanents at once: the ones they chose, or all of them when they control
    /// no more than that many.
    pub(crate) fn sacrifice_instead_of_damage(&mut self, id: ObjectId, amount: u32) {
        let Some(player) = self.obj(id).map(|o| o.controller) else {
            return;
        };
        // The choice covers all the damage dealt to it at once (several sources): each
        // event takes the next ones, the creature itself last, so it stays to be dealt the
        // rest.
        let mine: Vec<ObjectId> = self.battlefield_of(player).map(|o| o.id).collect();
        let mut victims: Vec<ObjectId> = Vec::new();
        if let Some(i) = self.sacrifice_choices.iter().position(|(r, _)| *r == id) {
            let list = &mut self.sacrifice_choices[i].1;
            list.retain(|o| mine.contains(o));
            let n = (amount as usize).min(list.len());
            victims = list.drain(..n).collect();
        }
        if victims.len() < amount as usize {
            // No choice was asked (they control no more than that much damage): all of
            // them, the creature itself last.
            let mut all = mine;
            if let Some(k) = all.iter().position(|o| *o == id) {
                let me = all.remove(k);
                all.push(me);
            }
            for o in all {
                if victims.len() >= amount as usize {
                    break;
                }
                if !victims.contains(&o) {
                    victims.push(o);
                }
            }
        }
        // Simultaneous (R-dralnu-lich-lord-1): every one is chosen before any leaves, and
        // they leave together.
        self.begin_batch(&victims);
        for o in victims {
            self.sacrifice(o);
        }
        self.end_batch();
    }

    /// The controller's choice of permanents to sacrifice instead of damage (Dralnu).
    pub(crate) fn answer_sacrifice_for_damage(
        &mut self,
        player: PlayerId,
        recipient: ObjectId,
        count: u32,
        answer: crate::decision::Answer,
    ) -> Result<(), crate::decision::RuleError> {
        use crate::decision::{Answer, RuleError};
        let Answer::Objects(objs) = answer else {
            return Err(RuleError::WrongKind {
                expected: format!(
                    "the {count} permanent(s) to sacrifice, not {}",
                    answer.kind_name()
                ),
            });
        };
        if objs.len() != count as usize {
            return Err(RuleError::illegal(format!(
                "choose exactly {count} permanent(s) you control to sacrifice"
            )));
        }
        for (i, o) in objs.iter().enumerate() {
            if !self.battlefield_of(player).any(|x| x.id == *o) {
                return Err(RuleError::illegal(format!(
                    "{} is not a permanent you control",
                    self.card_name(*o)
                )));
            }
            if objs[..i].contains(o) {
                return Err(RuleError::illegal("the same permanent was chosen twice"));
            }
        }
        self.pending = None;
        // The creature itself last (see `sacrifice_instead_of_damage`).
        let mut objs = objs;
        if let Some(k) = objs.iter().position(|o| *o == recipient) {
            let me = objs.remove(k);
            objs.push(me);
        }
        self.sacrifice_choices.push((recipient, objs));
        self.continue_damage();
        Ok(())
    }

    /// Some choices of permanents to sacrifice (listed for the agent and the front ends):
    /// `count` consecutive ones from each starting point, in battlefield order.
    pub(crate) fn sacrifice_for_damage_answers(
        &self,
        player: PlayerId,
        count: u32,
    ) -> Vec<crate::decision::Answer> {
        let mine: Vec<ObjectId> = self.battlefield_of(player).map(|o| o.id).collect();
        let n = count as usize;
        if n == 0 || n > mine.len() {
            return Vec::new();
        }
        (0..mine.len())
            .map(|start| {
                crate::decision::Answer::Objects(
                    (0..n).map(|k| mine[(start + k) % mine.len()]).collect(),
                )
            })
            .collect()
    }

    /// Goes on with whatever was about to deal damage once a question asked before it
    /// (shield order, Dralnu's sacrifices) is answered.
    fn continue_damage(&mut self) {
        if self.resolution.is_some() {
            self.run_resolution();
        } else if matches!(
            self.stack.last().map(|i| &i.kind),
            Some(crate::stack::StackKind::CombatDamage { .. })
        ) {
            self.resolve_top();
        } else {
            self.continue_combat_damage();
            return;
        }
        if self.pending.is_none() && self.result.is_none() {
            self.give_priority(self.active);
        }
    }

    /// Uses the redirection and prevention shields for damage to `target` in the order its
    /// controller chose (oldest first if there was no choice to make), returning what is
    /// left for `target` and the damage to deal to other creatures instead.
    pub(crate) fn apply_shields_in_order(
        &mut self,
        source: ObjectId,
        target: Target,
        amount: u32,
    ) -> (u32, Vec<(ObjectId, u32)>) {
        let shields = self.ordered_shields_for(source, target);
        if shields.is_empty() {
            return (amount, Vec::new());
        }
        let chosen = self
            .shield_orders
            .iter()
            .position(|(t, _)| *t == target)
            .map(|i| self.shield_orders.remove(i).1);
        let order: Vec<usize> = match chosen {
            Some(o) if o.len() == shields.len() => o
                .iter()
                .filter_map(|&k| shields.get(k as usize).copied())
                .collect(),
            _ => shields,
        };
        let mut left = amount;
        let mut moved = Vec::new();
        let mut prevented = 0;
        let mut used: Vec<usize> = Vec::new();
        let mut reflected: Option<(ObjectId, u32)> = None;
        // Damage that can't be prevented (Volcano Hellion) passes prevention shields by.
        let preventable = !self.damage_unpreventable;
        for i in order {
            if left == 0 {
                break;
            }
            match &mut self.shields[i] {
                Shield::PreventNext { .. } | Shield::PreventNextFromSource { .. }
                    if !preventable => {}
                Shield::PreventNextFromSource { reflect, .. } => {
                    // All of this damage event, once.
                    if let Some(r) = *reflect
                        && self.source_colors(source).contains(crate::mana::Color::R)
                    {
                        reflected = Some((r, left));
                    }
                    prevented += left;
                    left = 0;
                    used.push(i);
                }
                Shield::RedirectNext { to, remaining, .. } => {
                    let n = left.min(*remaining);
                    *remaining -= n;
                    left -= n;
                    moved.push((*to, n));
                }
                Shield::PreventNext { remaining, .. } => {
                    let n = left.min(*remaining);
                    *remaining -= n;
                    left -= n;
                    prevented += n;
                }
                _ => {}
            }
        }
        let mut k = 0;
        self.shields.retain(|s| {
            let keep = !used.contains(&k)
                && !matches!(
                    s,
                    Shield::PreventNext { remaining: 0, .. }
                        | Shield::RedirectNext { remaining: 0, .. }
                );
            k += 1;
            keep
        });
        if prevented > 0 {
            self.emit(Event::DamagePrevented {
                source,
                target,
                amount: prevented,
            });
        }
        // "If damage from a red source is prevented this way, ~ deals that much damage to the
        // source's controller": right after the prevented event (615.5).
        if let Some((by, n)) = reflected {
            let controller = self.source_controller(source);
            self.deal_damage(by, Target::Player(controller), n, false);
        }
        (left, moved)
    }

    /// The controller of a damage source as it deals damage, or as it last existed if it
    /// has left its zone: the controller of the stack object naming it as its source (an
    /// ability whose source left), else its owner.
    pub(crate) fn source_controller(&self, source: ObjectId) -> PlayerId {
        if let Some(o) = self.obj(source) {
            return o.controller;
        }
        let from_item = |s: &crate::stack::StackItem| match s.kind {
            crate::stack::StackKind::Ability { source: x, .. }
            | crate::stack::StackKind::Trigger { source: x, .. } => {
                (x == source).then_some(s.controller)
            }
            _ => None,
        };
        self.resolution
            .as_ref()
            .and_then(|r| from_item(&r.item))
            .or_else(|| self.stack.iter().find_map(from_item))
            .unwrap_or_else(|| self.objects[source.slot()].owner)
    }

    /// A permanent spell chosen as a source (609.7a) is followed onto the battlefield: the
    /// shields against `spell` now name the permanent it became.
    pub(crate) fn follow_source_shields(&mut self, spell: ObjectId, permanent: ObjectId) {
        for s in &mut self.shields {
            if let Shield::PreventNextFromSource { source, .. } = s
                && *source == spell
            {
                *source = permanent;
            }
        }
    }

    /// The sources a player may choose for "a source of your choice" (2014 609.7a; the
    /// 2006 rules alike): each permanent; each spell on the stack; each object an object on
    /// the stack refers to (an ability's source, which may have left the battlefield, and
    /// its subject; the object targets of spells and abilities); each object a shield
    /// waiting to apply or a delayed ability waiting to trigger refers to. Once each, in
    /// that order. A source need not be able to deal damage.
    pub(crate) fn damage_source_candidates(&self) -> Vec<ObjectId> {
        let mut out: Vec<ObjectId> = self.battlefield.clone();
        let add = |id: ObjectId, out: &mut Vec<ObjectId>| {
            if !out.contains(&id) {
                out.push(id);
            }
        };
        let items = self
            .stack
            .iter()
            .rev()
            .chain(self.resolution.as_ref().map(|r| &r.item));
        for s in items {
            match s.kind {
                crate::stack::StackKind::Spell(o) => add(o, &mut out),
                crate::stack::StackKind::Ability { source, .. } => add(source, &mut out),
                crate::stack::StackKind::Trigger {
                    source, subject, ..
                } => {
                    add(source, &mut out);
                    if let Some(o) = subject {
                        add(o, &mut out);
                    }
                }
                crate::stack::StackKind::CombatDamage { .. } => {}
            }
            for t in &s.targets {
                if let Target::Object(o) = t {
                    add(*o, &mut out);
                }
            }
        }
        for d in &self.delayed {
            add(d.source, &mut out);
            if let Some(o) = d.subject {
                add(o, &mut out);
            }
        }
        for s in &self.shields {
            match s {
                Shield::RedirectNext { from, to, .. } => {
                    add(*from, &mut out);
                    add(*to, &mut out);
                }
                Shield::Regenerate(o)
                | Shield::CantRegenerate(o)
                | Shield::ExileIfDies(o)
                | Shield::PreventCombatDamageFrom(o)
                | Shield::PreventCombatDamageToAndFrom(o) => add(*o, &mut out),
                Shield::PreventNextFromSource { source, .. } => add(*source, &mut out),
                Shield::PreventNext { .. } | Shield::PreventAll(_) | Shield::LifeFloor(_) => {}
            }
        }
        out
    }

    /// The untapped Weathered Bodyguards of `p` whose redirection applies now (with its
    /// abilities: not face down, not having lost them; still a creature).
    fn bodyguards_of(&self, p: PlayerId) -> Vec<ObjectId> {
        self.battlefield
            .iter()
            .copied()
            .filter(|&id| {
                self.obj(id).is_some_and(|o| o.controller == p && !o.tapped)
                    && self
                        .def(id)
                        .is_some_and(|d| d.redirect_unblocked_combat_damage)
                    && self.has_own_abilities(id)
                    && self.is_creature(id)
            })
            .collect()
    }

    /// Whether `source` deals its combat damage now as an unblocked creature (as it last
    /// existed if it left: classic combat damage on the stack).
    fn is_unblocked_dealer(&self, source: ObjectId) -> bool {
        self.combat
            .as_ref()
            .is_some_and(|c| c.unblocked_dealers.contains(&source))
    }

    /// The replacements that apply to combat damage an unblocked creature would deal to `p`
    /// now, in the default order (prevention shields first, then each Bodyguards in the
    /// order they are on the battlefield). Empty when no Bodyguards applies: then damage to
    /// the player takes the ordinary path.
    pub(crate) fn player_replacement_candidates(&self, p: PlayerId) -> Vec<PlayerReplacement> {
        let guards = self.bodyguards_of(p);
        if guards.is_empty() {
            return Vec::new();
        }
        let mut out = Vec::new();
        if self.shields.iter().any(|s| {
            matches!(s, Shield::PreventNext { target, remaining }
                if *target == Target::Player(p) && *remaining > 0)
        }) {
            out.push(PlayerReplacement::Prevention);
        }
        out.extend(guards.into_iter().map(PlayerReplacement::RedirectTo));
        out
    }

    /// The question for a player about to be dealt combat damage by an unblocked creature
    /// when more than one replacement applies (two Bodyguards, or one and a prevention
    /// shield): which applies first. None once answered for this damage step.
    fn player_replacement_question(
        &self,
        source: ObjectId,
        target: Target,
        amount: u32,
    ) -> Option<crate::decision::Pending> {
        let Target::Player(p) = target else {
            return None;
        };
        if amount == 0
            || !self.is_unblocked_dealer(source)
            || self.player_damage_orders.iter().any(|(q, _)| *q == p)
        {
            return None;
        }
        let candidates = self.player_replacement_candidates(p);
        if candidates.len() < 2 {
            return None;
        }
        let descriptions = candidates
            .iter()
            .map(|r| match r {
                PlayerReplacement::Prevention => {
                    let n: u32 = self
                        .shields
                        .iter()
                        .filter_map(|s| match s {
                            Shield::PreventNext { target, remaining }
                                if *target == Target::Player(p) =>
                            {
                                Some(*remaining)
                            }
                            _ => None,
                        })
                        .sum();
                    format!("prevent the next {n} damage to {}", self.player(p).name)
                }
                PlayerReplacement::RedirectTo(g) => format!(
                    "the combat damage of unblocked creatures is dealt to {} instead",
                    self.card_name(*g)
                ),
            })
            .collect();
        Some(crate::decision::Pending {
            player: p,
            decision: crate::decision::Decision::OrderReplacements {
                recipient: target,
                descriptions,
            },
        })
    }

    /// The first unanswered replacement-order question among combat damage about to be
    /// dealt (source, recipient, amount): shields of creatures first, then players'.
    pub(crate) fn next_combat_damage_question(
        &self,
        assigned: &[(ObjectId, Target, u32)],
    ) -> Option<crate::decision::Pending> {
        self.next_shield_question(assigned.iter().copied(), true)
            .or_else(|| {
                assigned
                    .iter()
                    .find_map(|&(src, t, n)| self.player_replacement_question(src, t, n))
            })
    }

    /// Weathered Bodyguards (419.9 / 616.1): combat damage `source` would deal to `p`.
    /// Returns `None` when a Bodyguards took it, else what is left for `p` (after `p`'s
    /// prevention shields if they chose to apply them first; if no Bodyguards applies, all
    /// of it).
    pub(crate) fn bodyguard_replacement(
        &mut self,
        source: ObjectId,
        p: PlayerId,
        amount: u32,
    ) -> Option<u32> {
        if !self.is_unblocked_dealer(source) {
            return Some(amount);
        }
        let candidates = self.player_replacement_candidates(p);
        if candidates.is_empty() {
            return Some(amount);
        }
        // The chosen order (kept for every damage event of this step), then anything it
        // didn't list, in the default order.
        let mut order: Vec<PlayerReplacement> = self
            .player_damage_orders
            .iter()
            .find(|(q, _)| *q == p)
            .map(|(_, o)| o.clone())
            .unwrap_or_default();
        order.retain(|r| candidates.contains(r));
        for r in candidates {
            if !order.contains(&r) {
                order.push(r);
            }
        }
        let mut left = amount;
        for r in order {
            if left == 0 {
                return Some(0);
            }
            match r {
                PlayerReplacement::Prevention => {
                    left = self.prevent_damage(source, Target::Player(p), left);
                }
                PlayerReplacement::RedirectTo(g) => {
                    self.deal_damage(source, Target::Object(g), left, true);
                    return None;
                }
            }
        }
        Some(left)
    }

    /// Forgets the replacement orders chosen for a batch of damage once it is dealt.
    pub(crate) fn clear_damage_orders(&mut self) {
        self.shield_orders.clear();
        self.player_damage_orders.clear();
        self.sacrifice_choices.clear();
    }

    /// The affected player's order for the shields of one damage event (an `Order` answer:
    /// the first listed applies first).
    pub(crate) fn answer_order_replacements(
        &mut self,
        player: PlayerId,
        recipient: Target,
        n: usize,
        answer: crate::decision::Answer,
    ) -> Result<(), crate::decision::RuleError> {
        use crate::decision::{Answer, RuleError};
        let _ = player;
        let Answer::Order(order) = answer else {
            return Err(RuleError::WrongKind {
                expected: format!(
                    "an order for the {n} effects that would apply, not {}",
                    answer.kind_name()
                ),
            });
        };
        let mut sorted = order.clone();
        sorted.sort();
        if sorted != (0..n as u8).collect::<Vec<_>>() {
            return Err(RuleError::illegal(format!(
                "give each of the {n} effects once, as numbers 1 to {n} (the first applies first)"
            )));
        }
        self.pending = None;
        match recipient {
            Target::Player(p) if !self.player_replacement_candidates(p).is_empty() => {
                let candidates = self.player_replacement_candidates(p);
                let chosen = order
                    .iter()
                    .filter_map(|&k| candidates.get(k as usize).copied())
                    .collect();
                self.player_damage_orders.push((p, chosen));
            }
            Target::Player(_) | Target::Object(_) | Target::Ability(_) => {
                self.shield_orders.push((recipient, order))
            }
        }
        // Go on with whatever was about to deal the damage.
        self.continue_damage();
        Ok(())
    }

    /// Every order of the shields (listed for the agent and the front ends): as created and
    /// reversed, and each one first.
    pub(crate) fn order_replacement_answers(&self, n: usize) -> Vec<crate::decision::Answer> {
        let n = n as u8;
        let mut out = vec![crate::decision::Answer::Order((0..n).collect())];
        for first in 1..n {
            let mut o = vec![first];
            o.extend((0..n).filter(|k| *k != first));
            out.push(crate::decision::Answer::Order(o));
        }
        out
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
                    .has_type(crate::types::CardType::Creature)
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

    /// Phantom Wurm: damage about to be dealt to it (not prevented in full otherwise: its
    /// controller would apply those first) is prevented, and a +1/+1 counter is removed
    /// from it, once per damage event, whether or not it has one. True if it applied.
    pub(crate) fn prevent_removing_counter(
        &mut self,
        source: ObjectId,
        target: Target,
        amount: u32,
    ) -> bool {
        let Target::Object(id) = target else {
            return false;
        };
        if amount == 0
            || !self.has_static_prevention(id, |p| {
                matches!(p, StaticPrevention::AllToThisRemovingPlusOneCounter)
            })
        {
            return false;
        }
        self.emit(Event::DamagePrevented {
            source,
            target,
            amount,
        });
        self.remove_counters(id, &crate::object::CounterKind::PlusOnePlusOne, 1);
        true
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
        // "If ~ would be destroyed, regenerate it" (Knight of the Holy Nimbus): its own
        // replacement, never used up; a shield is kept for the next time.
        let own =
            self.has_own_abilities(id) && self.def(id).is_some_and(|d| d.regenerates_if_destroyed);
        if !own {
            let Some(i) = self
                .shields
                .iter()
                .position(|s| *s == Shield::Regenerate(id))
            else {
                return false;
            };
            self.shields.remove(i);
        }
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

    /// Leyline of the Void: "If a card would be put into an opponent's graveyard from
    /// anywhere, exile it instead", from a permanent with its abilities controlled by an
    /// opponent of the card's owner. Cards only: a token or a copy of a spell is no card.
    pub(crate) fn graveyard_exiles_instead(&self, id: ObjectId) -> bool {
        if !self.has_statics {
            return false;
        }
        let Some(o) = self.obj(id) else { return false };
        if o.token || o.spell_copy {
            return false;
        }
        let owner = o.owner;
        self.battlefield.iter().any(|&l| {
            self.obj(l).is_some_and(|x| x.controller != owner)
                && self
                    .def(l)
                    .is_some_and(|d| d.opponents_cards_exiled_instead)
                && self.has_own_abilities(l)
        })
    }

    /// A shield that names an object stops mattering when the object leaves the battlefield.
    pub(crate) fn drop_shields_of(&mut self, id: ObjectId) {
        self.shields.retain(|s| match s {
            Shield::Regenerate(o) | Shield::CantRegenerate(o) | Shield::ExileIfDies(o) => *o != id,
            Shield::PreventNext { target, .. } => *target != Target::Object(id),
            // The source may deal damage as it last existed (an ability of a creature that
            // left): only the protected creature leaving ends it.
            Shield::PreventNextFromSource { target, .. } => *target != Target::Object(id),
            Shield::RedirectNext { from, to, .. } => *from != id && *to != id,
            Shield::PreventAll(_)
            | Shield::PreventCombatDamageFrom(_)
            | Shield::PreventCombatDamageToAndFrom(_)
            | Shield::LifeFloor(_) => true,
        });
    }

    pub(crate) fn add_shield(&mut self, s: Shield) {
        self.shields.push(s);
    }

    /// Whether a permanent of `p` says "damage that would reduce your life total to less
    /// than 1 reduces it to 1 instead" (Fortune Thief; not life loss, not paying life), or
    /// an effect says so until end of turn (Angel's Grace: `Shield::LifeFloor`).
    pub(crate) fn damage_life_floor(&self, p: PlayerId) -> bool {
        self.shields.contains(&Shield::LifeFloor(p))
            || self.battlefield.iter().any(|&id| {
                self.obj(id).is_some_and(|o| o.controller == p)
                    && self.def(id).is_some_and(|d| d.damage_life_floor)
                    && self.has_own_abilities(id)
            })
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
        if self.has_type(top, crate::types::CardType::Creature) {
            self.move_object(top, ZoneKind::Graveyard, crate::zones::Position::Top);
            Some(None)
        } else {
            // "Otherwise, draw a card": a draw made by the replacement itself, which the same
            // replacement doesn't apply to again (419.9 / 614.5).
            Some(self.draw_one_unreplaced(p))
        }
    }
}

/// The "on top of its owner's library instead" questions (module doc): the answers given
/// for the permanents the next run moves, the one being asked and the answer that waits.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LibraryInstead {
    /// Whether the run in progress is a trial with such a permanent on the battlefield.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub trying: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answers: Vec<(ObjectId, bool)>,
    /// In a trial: the permanents it moved with no answer yet (and their controllers).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unanswered: Vec<(ObjectId, PlayerId)>,
    /// The permanent its controller is being asked about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asking: Option<ObjectId>,
    /// The answer whose run waits for the questions, with the decision it answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deferred: Option<(PlayerId, crate::decision::Answer, crate::decision::Pending)>,
}

impl LibraryInstead {
    pub fn is_empty(&self) -> bool {
        *self == LibraryInstead::default()
    }
}

impl Game {
    /// Whether a permanent on the battlefield, or a spell that may become one, has or
    /// grants "you may put it on top of its owner's library instead" (a cheap look at the
    /// printed abilities, copies included: the trial run asks the layers).
    fn library_instead_possible(&self) -> bool {
        if !self.facts().library_instead {
            return false;
        }
        let spells = self.stack.iter().filter_map(|s| s.object());
        self.battlefield.iter().copied().chain(spells).any(|id| {
            self.def(id).is_some_and(|d| {
                d.keywords.contains(&Keyword::TopOfLibraryInstead)
                    || d.statics
                        .iter()
                        .any(|s| s.grants.contains(&Keyword::TopOfLibraryInstead))
            })
        })
    }

    /// As `id` would be put into a graveyard from the battlefield: whether its controller
    /// chose to put it on top of its owner's library instead. In a trial, a permanent with
    /// the ability and no answer yet is noted (it goes to the graveyard in the trial).
    pub(crate) fn library_instead_chosen(&mut self, id: ObjectId) -> bool {
        if !self.library_instead.trying || !self.has_keyword(id, Keyword::TopOfLibraryInstead) {
            return false;
        }
        if let Some((_, yes)) = self.library_instead.answers.iter().find(|(o, _)| *o == id) {
            return *yes;
        }
        let controller = self.obj(id).map_or(PlayerId(0), |o| o.controller);
        if !self
            .library_instead
            .unanswered
            .iter()
            .any(|(o, _)| *o == id)
        {
            self.library_instead.unanswered.push((id, controller));
        }
        false
    }

    /// Applies `answer` to `pending`, asking first the "on top of its owner's library
    /// instead" questions its run needs (module doc). An error leaves the game unchanged.
    pub(crate) fn dispatch_asking_library_instead(
        &mut self,
        player: PlayerId,
        pending: &crate::decision::Pending,
        answer: crate::decision::Answer,
    ) -> Result<(), crate::decision::RuleError> {
        if self.library_instead.asking.is_some()
            && matches!(pending.decision, crate::decision::Decision::YesNo { .. })
        {
            return self.answer_library_instead(answer);
        }
        if !self.library_instead_possible() {
            return self.dispatch(player, &pending.decision, answer);
        }
        let mut trial = self.clone();
        trial.library_instead.trying = true;
        trial.dispatch(player, &pending.decision, answer.clone())?;
        if let Some(&(id, controller)) = trial.library_instead.unanswered.first() {
            let name = trial
                .catalog()
                .get(trial.objects[id.slot()].face())
                .name
                .clone();
            self.library_instead.asking = Some(id);
            self.library_instead.deferred = Some((player, answer, pending.clone()));
            self.pending = Some(crate::decision::Pending {
                player: controller,
                decision: crate::decision::Decision::YesNo {
                    question: format!(
                        "{name} would be put into a graveyard: put it on top of its owner's library instead?"
                    ),
                },
            });
            return Ok(());
        }
        trial.library_instead = LibraryInstead::default();
        *self = trial;
        Ok(())
    }

    /// The answer to "put it on top of its owner's library instead?": recorded, then the
    /// answer that waited is applied again (asking the next question, if one is due).
    fn answer_library_instead(
        &mut self,
        answer: crate::decision::Answer,
    ) -> Result<(), crate::decision::RuleError> {
        use crate::decision::{Answer, RuleError};
        let yes = match answer {
            Answer::Yes => true,
            Answer::No => false,
            _ => return Err(RuleError::illegal("answer yes or no")),
        };
        let before = self.clone();
        let (Some(id), Some((player, waiting, pending))) = (
            self.library_instead.asking.take(),
            self.library_instead.deferred.take(),
        ) else {
            return Err(RuleError::illegal("nothing is being asked"));
        };
        self.library_instead.answers.push((id, yes));
        self.pending = Some(pending.clone());
        let r = self.dispatch_asking_library_instead(player, &pending, waiting);
        if r.is_err() {
            *self = before;
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use crate::decision::Answer;
    use crate::events::Event;
    use crate::ids::PlayerId;
    use crate::targets::Target;

    /// The answer is tried first only in games whose cards can put a permanent on top of
    /// the library instead (`census.rs`, derived, never saved): a loaded game still asks
    /// Pulmonic Sliver's question.
    #[test]
    fn a_loaded_game_still_asks_library_instead() {
        let src = r#"
name = "library-instead-loaded"
description = ""
script = []
[setup]
active = "alice"
step = "precombat_main"
turn = 3
[setup.alice]
battlefield = ["Pulmonic Sliver", "Mindlash Sliver", "Swamp"]
[setup.bob]
battlefield = ["Squire"]
"#;
        let g = crate::scenario::game_from_str(src).expect("scenario runs");
        let mut old = crate::game::Game::from_json(&g.to_json().expect("json")).expect("loads");
        let sliver = old
            .battlefield
            .iter()
            .copied()
            .find(|&id| old.card_name(id) == "Mindlash Sliver")
            .expect("on the battlefield");
        let activate = old
            .legal_answers(PlayerId(0))
            .into_iter()
            .find(|a| matches!(a, Answer::Activate { source, .. } if *source == sliver))
            .expect("its granted ability is listed");
        old.submit(PlayerId(0), activate).expect("activates");
        old.submit(PlayerId(0), Answer::AutoPay).expect("pays");
        assert!(
            matches!(
                old.pending().map(|p| &p.decision),
                Some(crate::decision::Decision::YesNo { .. })
            ),
            "asked: {:?}",
            old.pending()
        );
    }

    /// Weathered Bodyguards: the unblocked creature's combat damage is one event, dealt to
    /// the Bodyguards (same source, still combat damage); the player is dealt none.
    #[test]
    fn bodyguards_take_unblocked_combat_damage_as_combat_damage() {
        let src = r#"
name = "bodyguards-event"
description = ""
script = [
  "goto declare_attackers",
  "bob: attack Test Bear",
  "goto declare_blockers",
  "alice: block nothing",
  "bob: pass",
]
[setup]
active = "bob"
turn = 4
[setup.alice]
battlefield = ["Weathered Bodyguards"]
[setup.bob]
battlefield = ["Test Bear"]
"#;
        let mut g = crate::scenario::game_from_str(src).expect("scenario runs");
        let find = |g: &crate::game::Game, name: &str| {
            g.battlefield
                .iter()
                .copied()
                .find(|&id| g.card_name(id) == name)
                .expect("on the battlefield")
        };
        let guards = find(&g, "Weathered Bodyguards");
        let bear = find(&g, "Test Bear");
        let events = g.submit(PlayerId(0), Answer::Pass).expect("pass");
        let damage: Vec<&Event> = events
            .iter()
            .filter(|e| matches!(e, Event::Damage { .. }))
            .collect();
        assert_eq!(
            damage,
            vec![&Event::Damage {
                source: bear,
                target: Target::Object(guards),
                amount: 2,
                combat: true,
            }]
        );
        assert_eq!(g.player(PlayerId(0)).life, 20);
    }

    /// R-outrider-en-kor-2: damage a redirection shield moves keeps its source and stays
    /// combat damage.
    #[test]
    fn redirected_combat_damage_stays_combat_damage() {
        let src = r#"
name = "redirect-combat"
description = ""
ruleset = "classic"
script = [
  "goto declare_attackers",
  "bob: attack Test Bear",
  "bob: pass",
  "alice: activate Outrider en-Kor",
  "alice: target Squire",
  "resolve",
  "goto declare_blockers",
  "alice: block Outrider en-Kor -> Test Bear",
  "bob: pass",
  "alice: pass",
  "bob: pass",
]
[setup]
active = "bob"
turn = 4
step = "upkeep"
[setup.alice]
battlefield = ["Outrider en-Kor", "Squire"]
library = ["Plains", "Plains"]
[setup.bob]
battlefield = ["Test Bear"]
library = ["Plains", "Plains"]
"#;
        let mut g = crate::scenario::game_from_str(src).expect("scenario runs");
        let squire = g
            .battlefield
            .iter()
            .copied()
            .find(|&id| g.card_name(id) == "Squire")
            .expect("Squire");
        let bear = g
            .battlefield
            .iter()
            .copied()
            .find(|&id| g.card_name(id) == "Test Bear")
            .expect("Test Bear");
        // Alice passes: the combat damage on the stack resolves.
        let events = g.submit(PlayerId(0), Answer::Pass).expect("pass");
        let to_squire: Vec<&Event> = events
            .iter()
            .filter(
                |e| matches!(e, Event::Damage { target: Target::Object(t), .. } if *t == squire),
            )
            .collect();
        assert_eq!(
            to_squire,
            vec![&Event::Damage {
                source: bear,
                target: Target::Object(squire),
                amount: 1,
                combat: true,
            }]
        );
    }
}
