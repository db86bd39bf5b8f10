//! State-based actions (rules.md Section 4; 2006 rule 420, modern 704).
//!
//! Checked whenever a player would receive priority; every applicable action is performed
//! at once as one event, then the check repeats (408.1b).

use crate::decision::{Answer, Decision, Pending, RuleError};
use crate::events::LossReason;
use crate::game::Game;
use crate::ids::{ObjectId, PlayerId};
use crate::object::CounterKind;
use crate::types::{CardType, Supertype};
use crate::zones::{Position, ZoneKind};

impl Game {
    /// Whether `p` can lose the game now: not in a turn whose "you can't lose the game this
    /// turn" covers them (Angel's Grace; 2006 and 2014 alike). A player who can't lose is
    /// spared S1-S3 (life 0 or less, poison; the "drew from an empty library" that the check
    /// saw is then spent) and every "loses the game" effect; conceding still ends their game
    /// (104.3a). Once the turn is over, the next check sees their life again
    /// (R-angels-grace-4).
    pub(crate) fn can_lose(&self, p: PlayerId) -> bool {
        self.cant_lose.is_empty() || !self.cant_lose.contains(&(p, self.turn))
    }

    /// Whether `p` can win the game now ("your opponents can't win the game this turn").
    pub(crate) fn can_win(&self, p: PlayerId) -> bool {
        self.cant_lose.is_empty() || self.opponents(p).into_iter().all(|o| self.can_lose(o))
    }

    /// Whether any state-based action would apply now (a scan that changes nothing).
    pub(crate) fn state_based_actions_pending(&self) -> bool {
        let players = self
            .players
            .iter()
            .any(|p| p.in_game() && (p.life <= 0 || p.drew_from_empty || p.poison >= 10))
            && (self.cant_lose.is_empty() || self.players_can_lose_now());
        if players {
            return true;
        }
        let mut legends: Vec<(crate::ids::CardId, PlayerId)> = Vec::new();
        let catalog = self.catalog();
        // Layered games: the battlefield's characteristics from one lookup.
        let table = self.battlefield_chars();
        for &id in &self.battlefield {
            let Some(o) = self.obj(id) else { continue };
            let def = catalog.get(o.face());
            if def.has_type(CardType::Creature)
                || table
                    .as_ref()
                    .is_some_and(|t| t.get(id).is_some_and(|c| c.has_type(CardType::Creature)))
            {
                let t = self.power_toughness_of(o, def).map_or(0, |x| x.1);
                if t <= 0
                    || (o.damage as i32 >= t || o.deathtouch_damage) && !self.indestructible(id)
                {
                    return true;
                }
            }
            if !o.counters.is_empty()
                && o.counters.get(&CounterKind::PlusOnePlusOne) > 0
                && o.counters.get(&CounterKind::MinusOneMinusOne) > 0
            {
                return true;
            }
            if let Some(to) = o.attached_to
                && self.attachment_illegal(id, to)
            {
                return true;
            }
            if def.supertypes.contains(&Supertype::Legendary) {
                // The legend rule applies to two legends with the same name: under one
                // controller (modern) or anywhere (classic).
                let per_controller = self.ruleset.legend_rule_per_controller();
                if legends
                    .iter()
                    .any(|(c, p)| *c == o.card && (!per_controller || *p == o.controller))
                {
                    return true;
                }
                legends.push((o.card, o.controller));
            }
        }
        self.tokens_created
            && self.objects.iter().any(|o| {
                o.token && !o.ceased && o.zone != ZoneKind::Battlefield && o.zone != ZoneKind::Stack
            })
    }

    /// Performs every applicable state-based action simultaneously; true if any applied.
    pub(crate) fn check_state_based_actions(&mut self) -> bool {
        if !self.state_based_actions_pending() {
            return false;
        }
        let mut losers: Vec<(PlayerId, LossReason)> = Vec::new();
        let mut spent_draws: Vec<PlayerId> = Vec::new();
        for p in (0..self.players.len()).map(|i| crate::ids::PlayerId(i as u8)) {
            let pl = self.player(p);
            if !pl.in_game() {
                continue;
            }
            if !self.can_lose(p) {
                // The draw from an empty library was seen by this check (704.5b: "since the
                // last time state-based actions were checked").
                if pl.drew_from_empty {
                    spent_draws.push(p);
                }
                continue;
            }
            // S1, S2, S3.
            if pl.life <= 0 {
                losers.push((p, LossReason::ZeroLife));
            } else if pl.drew_from_empty {
                losers.push((p, LossReason::DrewFromEmptyLibrary));
            } else if pl.poison >= 10 {
                losers.push((p, LossReason::Poison));
            }
        }
        for p in spent_draws {
            self.player_mut(p).drew_from_empty = false;
        }
        let mut to_graveyard: Vec<ObjectId> = Vec::new();
        let mut destroyed: Vec<ObjectId> = Vec::new();
        let mut counter_fix: Vec<(ObjectId, u32)> = Vec::new();
        for &id in &self.battlefield {
            let Some(o) = self.obj(id) else { continue };
            if self.is_creature(id) {
                let t = self.toughness(id);
                if t <= 0 {
                    // S15: toughness 0 or less: put into the graveyard (not destroyed).
                    to_graveyard.push(id);
                } else if (o.damage as i32 >= t || o.deathtouch_damage) && !self.indestructible(id)
                {
                    // S4 / S18: lethal damage: destroyed.
                    destroyed.push(id);
                }
            }
            // S12 (420.5n): +1/+1 and -1/-1 counters annihilate.
            let plus = o.counters.get(&CounterKind::PlusOnePlusOne);
            let minus = o.counters.get(&CounterKind::MinusOneMinusOne);
            if plus > 0 && minus > 0 {
                counter_fix.push((id, plus.min(minus)));
            }
        }
        // S10: the legend rule, per ruleset (Δ9).
        if self.ruleset.legend_rule_per_controller() {
            // Modern: the controller chooses one to keep; ask before anything else happens.
            if let Some((p, name)) = self.first_legend_conflict() {
                self.pending = Some(Pending {
                    player: p,
                    decision: Decision::KeepLegend { name },
                });
                return true;
            }
        } else {
            // Classic 420.5e: all legendary permanents sharing a name go, whoever controls them.
            for &a in &self.battlefield {
                if self.is_legendary(a)
                    && self.battlefield.iter().any(|b| {
                        *b != a && self.is_legendary(*b) && self.card_name(*b) == self.card_name(a)
                    })
                {
                    to_graveyard.push(a);
                }
            }
        }
        // S8: tokens outside the battlefield cease to exist.
        let stray_tokens: Vec<ObjectId> = self
            .objects
            .iter()
            .filter(|o| {
                o.token && !o.ceased && o.zone != ZoneKind::Battlefield && o.zone != ZoneKind::Stack
            })
            .map(|o| o.id)
            .collect();
        // S5-S7, S17: attachments: an illegal Aura goes to the graveyard; Equipment,
        // Fortifications and anything else attached become unattached (`keywords/equip.rs`).
        let mut unattach: Vec<ObjectId> = Vec::new();
        for &id in &self.battlefield {
            if let Some(o) = self.obj(id)
                && let Some(to) = o.attached_to
                && self.attachment_illegal(id, to)
            {
                if self.has_subtype(id, "Aura") {
                    to_graveyard.push(id);
                } else {
                    unattach.push(id);
                }
            }
        }
        let any = !losers.is_empty()
            || !to_graveyard.is_empty()
            || !destroyed.is_empty()
            || !counter_fix.is_empty()
            || !stray_tokens.is_empty()
            || !unattach.is_empty();
        if !any {
            return false;
        }
        for (p, why) in losers {
            self.player_lost(p, why);
        }
        for (id, n) in counter_fix {
            self.remove_counters(id, &CounterKind::PlusOnePlusOne, n);
            self.remove_counters(id, &CounterKind::MinusOneMinusOne, n);
        }
        for id in unattach {
            if let Some(o) = self.obj_mut(id) {
                o.attached_to = None;
            }
        }
        to_graveyard.sort();
        to_graveyard.dedup();
        let batch: Vec<ObjectId> = destroyed.iter().chain(&to_graveyard).copied().collect();
        self.begin_batch(&batch);
        for id in destroyed {
            if !to_graveyard.contains(&id) {
                self.destroy(id);
            }
        }
        for id in to_graveyard {
            self.move_object(id, ZoneKind::Graveyard, Position::Top);
        }
        self.end_batch();
        for id in stray_tokens {
            self.remove_token(id);
        }
        self.check_game_over();
        true
    }

    /// Whether some player in the game who can lose has life 0 or less, poison 10 or more,
    /// or drew from an empty library; a player who can't lose counts only for the last
    /// (the check spends it).
    fn players_can_lose_now(&self) -> bool {
        self.player_ids().any(|id| {
            let p = self.player(id);
            p.in_game()
                && (p.drew_from_empty || (self.can_lose(id) && (p.life <= 0 || p.poison >= 10)))
        })
    }

    /// S6 (420.5d / 704.5m): an Aura attached to something its "enchant" doesn't allow, or
    /// to a permanent with protection from one of its colours.
    pub(crate) fn aura_illegal(&self, aura: ObjectId, to: ObjectId) -> bool {
        let Some(filter) = self.def(aura).and_then(|d| d.enchant.as_ref()) else {
            return false;
        };
        let me = self.obj(aura).map_or(PlayerId(0), |o| o.controller);
        // "Enchant creature with another Aura attached to it": another than this one.
        let other_aura = !filter.with_aura || self.auras_attached_to(to, Some(aura)) > 0;
        // "This effect doesn't remove ~" (Pentarch Ward): its own grant doesn't count.
        let spares = self
            .def(aura)
            .is_some_and(|d| d.statics.iter().any(|st| st.doesnt_remove_source));
        let colors = self.colors(aura);
        !other_aura
            || !self.matches_filter(to, filter, me)
            || if spares {
                self.protection_colors_sparing(to, aura)
                    .iter()
                    .any(|c| colors.contains(c))
            } else {
                self.protected_from(to, colors)
            }
            || self.protected_from_mana_value(to, self.source_mana_value(aura))
            || self.aura_shut_out(aura, to)
    }

    /// Consecrate Land: another Aura than `aura`, attached to `to` with its abilities, says
    /// "enchanted land can't be enchanted by other Auras"; `aura` can't target `to` or be
    /// attached to it (an attached one is put into the graveyard, 303.4d / 704.5m).
    pub(crate) fn aura_shut_out(&self, aura: ObjectId, to: ObjectId) -> bool {
        self.has_statics
            && self.is_on_battlefield(to)
            && self.battlefield.iter().any(|&a| {
                a != aura
                    && self.obj(a).is_some_and(|o| {
                        o.attached_to == Some(to)
                            && self
                                .catalog()
                                .get(o.face())
                                .enchanted_cant_be_enchanted_by_other_auras
                            && self.has_own_abilities(a)
                    })
            })
    }

    /// A player controlling two or more legendary permanents with the same name (modern).
    fn first_legend_conflict(&self) -> Option<(PlayerId, String)> {
        for p in self.apnap() {
            for o in self.battlefield_of(p) {
                if self.is_legendary(o.id) && self.legend_group(p, self.card_name(o.id)).len() > 1 {
                    return Some((p, self.card_name(o.id).to_string()));
                }
            }
        }
        None
    }

    pub(crate) fn legend_group(&self, p: PlayerId, name: &str) -> Vec<ObjectId> {
        self.battlefield_of(p)
            .map(|o| o.id)
            .filter(|id| self.is_legendary(*id) && self.card_name(*id) == name)
            .collect()
    }

    pub(crate) fn answer_keep_legend(
        &mut self,
        player: PlayerId,
        name: &str,
        answer: Answer,
    ) -> Result<(), RuleError> {
        let group = self.legend_group(player, name);
        let keep = match answer {
            Answer::Objects(v) if v.len() == 1 && group.contains(&v[0]) => v[0],
            Answer::Objects(_) => {
                return Err(RuleError::illegal(format!(
                    "choose exactly one of your permanents named {name} to keep"
                )));
            }
            other => {
                return Err(RuleError::WrongKind {
                    expected: format!("the {name} to keep, not {}", other.kind_name()),
                });
            }
        };
        self.pending = None;
        for id in group.into_iter().filter(|id| *id != keep) {
            self.move_object(id, ZoneKind::Graveyard, Position::Top);
        }
        let next = self.priority_after_sba.take().unwrap_or(self.active);
        self.give_priority(next);
        Ok(())
    }

    /// A token that left the battlefield ceases to exist (S8): it is taken out of its zone.
    fn remove_token(&mut self, id: ObjectId) {
        let Some(o) = self.obj(id).cloned() else {
            return;
        };
        let p = o.owner.index();
        self.players[p].graveyard.retain(|x| *x != id);
        self.players[p].hand.retain(|x| *x != id);
        self.players[p].library.retain(|x| *x != id);
        self.exile.retain(|x| *x != id);
        if let Some(obj) = self.obj_mut(id) {
            obj.ceased = true;
            // In no zone now: every reference to it is stale (nothing can return it).
            obj.id = id.next();
        }
    }

    /// Puts `n` counters of a kind on a permanent (an event; triggers may see it).
    pub(crate) fn add_counters(&mut self, id: ObjectId, k: CounterKind, n: u32) {
        if n == 0 {
            return;
        }
        if let Some(o) = self.obj_mut(id) {
            o.counters.add(k.clone(), n);
            self.emit(crate::events::Event::CountersChanged {
                object: id,
                kind: k,
                delta: n as i32,
            });
        }
    }

    pub(crate) fn remove_counters(&mut self, id: ObjectId, k: &CounterKind, n: u32) {
        if let Some(o) = self.obj_mut(id) {
            let removed = o.counters.remove(k, n);
            if removed > 0 {
                self.emit(crate::events::Event::CountersChanged {
                    object: id,
                    kind: k.clone(),
                    delta: -(removed as i32),
                });
            }
        }
    }

    pub fn is_legendary(&self, id: ObjectId) -> bool {
        self.def(id)
            .is_some_and(|d| d.supertypes.contains(&Supertype::Legendary))
    }

    pub fn is_land(&self, id: ObjectId) -> bool {
        self.has_type(id, CardType::Land)
    }
}
