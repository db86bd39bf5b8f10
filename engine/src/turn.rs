//! Turn structure (rules 300-314; rules.md Section 2): phases and steps, their turn-based
//! actions, the end of steps and phases (mana pools, mana burn, durations), and the start
//! of the game (101: mulligans, first turn).

use crate::decision::{Answer, Decision, Pending, RuleError};
use crate::events::Event;
use crate::game::Game;
use crate::ids::PlayerId;
use crate::zones::{Position, ZoneKind};

pub use crate::steps::{Phase, SkipKind, Step};

/// What a step's start did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StepFlow {
    /// A decision is pending (or the game ended).
    Stopped,
    /// The step is over without anyone receiving priority: move on.
    Continue,
}

impl Game {
    // ----- 101: starting the game ------------------------------------------------------

    pub(crate) fn answer_mulligan(
        &mut self,
        player: PlayerId,
        answer: Answer,
    ) -> Result<(), RuleError> {
        let mulligan = match answer {
            Answer::Keep => false,
            Answer::Mulligan => true,
            other => {
                return Err(RuleError::WrongKind {
                    expected: format!("keep or mulligan, not {}", other.kind_name()),
                });
            }
        };
        if self.ruleset.simultaneous_mulligans() {
            // Δ10 modern: everyone still deciding says keep or mulligan in turn order; the
            // mulligans of the round then happen at the same time.
            if mulligan {
                self.player_mut(player).mulligan_intent = true;
            } else {
                self.keep_hand(player);
            }
            let undecided = self
                .players_from(self.first_player)
                .into_iter()
                .find(|p| !self.player(*p).kept && !self.player(*p).mulligan_intent);
            if let Some(next) = undecided {
                self.ask_mulligan(next);
                return Ok(());
            }
            let round: Vec<PlayerId> = self
                .players_from(self.first_player)
                .into_iter()
                .filter(|p| self.player(*p).mulligan_intent)
                .collect();
            for p in &round {
                self.player_mut(*p).mulligan_intent = false;
                self.take_mulligan(*p);
            }
            match self
                .players_from(self.first_player)
                .into_iter()
                .find(|p| !self.player(*p).kept)
            {
                Some(next) => self.ask_mulligan(next),
                None => self.start_first_turn(),
            }
        } else {
            // Classic 101.4: the starting player takes all their mulligans, then the next.
            if mulligan {
                self.take_mulligan(player);
                if !self.player(player).kept {
                    self.ask_mulligan(player);
                    return Ok(());
                }
            } else {
                self.keep_hand(player);
            }
            match self
                .players_from(self.first_player)
                .into_iter()
                .find(|p| !self.player(*p).kept)
            {
                Some(next) => self.ask_mulligan(next),
                None => self.start_first_turn(),
            }
        }
        Ok(())
    }

    fn keep_hand(&mut self, p: PlayerId) {
        self.player_mut(p).kept = true;
        self.emit(Event::Kept(p));
    }

    fn take_mulligan(&mut self, p: PlayerId) {
        let hand = self.player(p).hand.clone();
        for c in hand {
            self.move_object(c, ZoneKind::Library, Position::Top);
        }
        self.shuffle_library(p);
        self.player_mut(p).mulligans += 1;
        let size = 7u32.saturating_sub(self.player(p).mulligans);
        self.draw_cards(p, size);
        self.emit(Event::Mulliganed {
            player: p,
            new_hand_size: size,
        });
        if size == 0 {
            // Nothing left to mulligan: the empty hand is kept.
            self.keep_hand(p);
        }
    }

    fn ask_mulligan(&mut self, p: PlayerId) {
        let hand_size = self.player(p).hand.len() as u32;
        self.pending = Some(Pending {
            player: p,
            decision: Decision::Mulligan { hand_size },
        });
    }

    fn start_first_turn(&mut self) {
        self.pending = None;
        self.begin_turn(self.first_player);
        self.run_steps();
    }

    // ----- turns and steps -------------------------------------------------------------

    fn begin_turn(&mut self, p: PlayerId) {
        // 300.9 / 419.6e: a skipped turn doesn't exist; the next player's comes instead.
        let mut p = p;
        let mut guard = 0;
        while self.take_skip(p, SkipKind::Turn) && guard < 64 {
            self.emit(Event::Skipped {
                player: p,
                what: SkipKind::Turn,
            });
            p = self.next_player_after(p);
            guard += 1;
        }
        self.turn += 1;
        // Storm and gravestorm count within one turn.
        self.this_turn = Default::default();
        self.active = p;
        self.step = Step::Untap;
        self.passes = 0;
        self.cleanup_again = false;
        for pl in &mut self.players {
            pl.lands_played = 0;
        }
        let turn = self.turn;
        self.players_damaged.clear();
        self.player_mut(p).turn_started = turn;
        self.emit(Event::TurnBegan { turn, player: p });
    }

    /// Runs the current step's start, and further steps, until a decision is pending.
    pub(crate) fn run_steps(&mut self) {
        loop {
            if self.result.is_some() {
                return;
            }
            if self.begin_step() == StepFlow::Stopped {
                return;
            }
            self.end_step_and_move_on();
        }
    }

    /// Called when all players passed in succession with an empty stack (300.2).
    pub(crate) fn step_over(&mut self) {
        if self.step == Step::Cleanup && self.cleanup_again {
            // 314.3: a new cleanup step begins.
            self.run_steps();
            return;
        }
        self.end_step_and_move_on();
        self.run_steps();
    }

    fn end_step_and_move_on(&mut self) {
        let next = self.following_step();
        let phase_ends = next.is_none_or(|n| n.phase() != self.step.phase());
        // Δ1/Δ2: pools empty at every step end (modern) or phase end with mana burn (classic).
        if self.ruleset.pools_empty_each_step() || phase_ends {
            for p in self.player_ids().collect::<Vec<_>>() {
                let lost = self.player_mut(p).pool.clear();
                if lost > 0 && self.ruleset.mana_burn() && phase_ends {
                    self.emit(Event::ManaBurn {
                        player: p,
                        amount: lost,
                    });
                    self.lose_life(p, lost as i32);
                }
            }
        }
        if self.step == Step::EndCombat {
            // 311.2 / 300.4: creatures leave combat; "until end of combat" effects end.
            self.combat = None;
            self.end_combat_char_effects();
        }
        self.passes = 0;
        match next {
            Some(s) => self.step = s,
            None => {
                let next_player = self.next_turn_player();
                self.begin_turn(next_player);
            }
        }
    }

    /// Who takes the next turn: an extra turn's player (300.7 / 500.7: "directly after this
    /// turn", the most recently created first), else the turn order, resumed after extra
    /// turns where it left off.
    fn next_turn_player(&mut self) -> PlayerId {
        if let Some(p) = self.extra_turns.pop() {
            if self.turn_after_extra.is_none() {
                self.turn_after_extra = Some(self.next_player_after(self.active));
            }
            return p;
        }
        self.turn_after_extra
            .take()
            .unwrap_or_else(|| self.next_player_after(self.active))
    }

    fn following_step(&self) -> Option<Step> {
        Some(match self.step {
            Step::Untap => Step::Upkeep,
            Step::Upkeep => Step::Draw,
            Step::Draw => Step::PrecombatMain,
            Step::PrecombatMain => Step::BeginCombat,
            Step::BeginCombat => Step::DeclareAttackers,
            Step::DeclareAttackers => {
                // 308.4: without attackers, blockers and damage are skipped.
                if self
                    .combat
                    .as_ref()
                    .is_some_and(|c| !c.attackers.is_empty())
                {
                    Step::DeclareBlockers
                } else {
                    Step::EndCombat
                }
            }
            Step::DeclareBlockers => {
                if self.combat_has_first_strike() {
                    Step::FirstStrikeDamage
                } else {
                    Step::CombatDamage
                }
            }
            Step::FirstStrikeDamage => Step::CombatDamage,
            Step::CombatDamage => Step::EndCombat,
            Step::EndCombat => Step::PostcombatMain,
            Step::PostcombatMain => Step::End,
            Step::End => Step::Cleanup,
            Step::Cleanup => return None,
        })
    }

    /// Turn-based actions at the start of the current step; then priority or not.
    fn begin_step(&mut self) -> StepFlow {
        let step = self.step;
        // A skipped step doesn't begin: no turn-based actions, no triggers, no priority.
        if let Some(kind) = SkipKind::of_step(step)
            && self.skips_step(kind)
        {
            self.emit(Event::Skipped {
                player: self.active,
                what: kind,
            });
            return StepFlow::Continue;
        }
        if step == Step::Upkeep {
            // Echo's "since the beginning of your last upkeep" (502.19a) counts from here.
            let clock = self.new_timestamp();
            let p = self.player_mut(self.active);
            p.upkeeps_began = [clock, p.upkeeps_began[0]];
        }
        self.emit(Event::StepBegan(step));
        match step {
            Step::Untap => {
                // 302.2: the active player untaps all their permanents.
                let mine: Vec<_> = self
                    .battlefield_of(self.active)
                    .filter(|o| o.tapped)
                    .map(|o| o.id)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .filter(|id| !self.has_keyword(*id, crate::keywords::Keyword::DoesntUntap))
                    .collect();
                // "It doesn't untap during your next untap step": this step is that one,
                // tapped or not (the effect is used up).
                let active = self.active;
                let frozen: Vec<crate::ids::ObjectId> = self
                    .frozen
                    .iter()
                    .copied()
                    .filter(|id| self.obj(*id).is_some_and(|o| o.controller == active))
                    .collect();
                self.frozen.retain(|id| !frozen.contains(id));
                for id in mine {
                    if !frozen.contains(&id) {
                        self.untap(id);
                    }
                }
                StepFlow::Continue
            }
            Step::Draw => {
                // 101.5a: the starting player skips the first draw step in a two-player game.
                if self.turn == 1 && self.players.len() == 2 {
                    return StepFlow::Continue;
                }
                // Dredge may replace the draw (`keywords/dredge.rs`): asked first.
                if let Some(q) = self.dredge_question(self.active) {
                    self.pending = Some(q);
                    return StepFlow::Stopped;
                }
                self.draw_cards(self.active, 1);
                self.give_priority(self.active);
                StepFlow::Stopped
            }
            Step::DeclareAttackers => self.begin_declare_attackers(),
            Step::DeclareBlockers => self.begin_declare_blockers(),
            Step::FirstStrikeDamage | Step::CombatDamage => {
                self.combat_damage_step(step == Step::FirstStrikeDamage)
            }
            Step::Cleanup => self.begin_cleanup(),
            _ => {
                self.give_priority(self.active);
                StepFlow::Stopped
            }
        }
    }

    /// Uses one "skip your next ..." of `p` for `kind`, if there is one.
    fn take_skip(&mut self, p: PlayerId, kind: SkipKind) -> bool {
        match self.skips.iter().position(|s| *s == (p, kind)) {
            Some(i) => {
                self.skips.remove(i);
                true
            }
            None => false,
        }
    }

    /// Whether the active player skips this step: a waiting "skip your next" effect (used
    /// up), or a permanent of theirs that says "skip your draw step" (or, hellbent, "skip
    /// your upkeep step if you have no cards in hand": `keywords/hellbent.rs`).
    fn skips_step(&mut self, kind: SkipKind) -> bool {
        let p = self.active;
        if self.take_skip(p, kind) {
            return true;
        }
        let says = |g: &Self, f: fn(&crate::cards::CardDef) -> bool| {
            g.battlefield_of(p)
                .any(|o| g.def(o.id).is_some_and(f) && g.has_own_abilities(o.id))
        };
        match kind {
            SkipKind::DrawStep => says(self, |d| d.skip_draw_step),
            SkipKind::UpkeepStep => {
                self.is_hellbent(p) && says(self, |d| d.skip_upkeep_if_hellbent)
            }
            _ => false,
        }
    }

    /// 314.1-314.3.
    fn begin_cleanup(&mut self) -> StepFlow {
        self.cleanup_again = false;
        let excess = self
            .player(self.active)
            .hand
            .len()
            .saturating_sub(self.player(self.active).max_hand_size as usize);
        if excess > 0 {
            self.pending = Some(Pending {
                player: self.active,
                decision: Decision::Discard {
                    count: excess as u32,
                },
            });
            return StepFlow::Stopped;
        }
        self.finish_cleanup()
    }

    /// After the hand-size discard: damage wears off, "until end of turn" effects end; if
    /// anything then needs handling, players get priority and cleanup repeats.
    pub(crate) fn finish_cleanup(&mut self) -> StepFlow {
        let ids: Vec<_> = self.battlefield.clone();
        for id in ids {
            if let Some(o) = self.obj_mut(id) {
                o.damage = 0;
                o.deathtouch_damage = false;
            }
        }
        self.pt_effects.clear();
        self.shields.clear();
        // Flashback granted until end of turn (Dralnu) ends (314.2 / 514.2).
        self.granted_flashback.clear();
        // "Dealt damage by ~ this turn" and last known powers end with the turn.
        self.damage_record.clear();
        self.lki_power.clear();
        self.lki_without_time_counters.clear();
        self.end_turn_char_effects();
        self.end_turn_copies();
        // "This turn" delayed abilities that never triggered end (314.2).
        self.delayed.retain(|d| {
            !matches!(
                d.when,
                crate::triggers::DelayedWhen::PutIntoYourGraveyardThisTurn(_)
            )
        });
        self.links.retain(|(_, o)| self.objects[o.slot()].id == *o);
        // 314.3: state-based actions or waiting triggered abilities (a madness trigger from
        // the discard to hand size) give players priority, and cleanup repeats.
        if self.state_based_actions_pending() || !self.triggers.is_empty() {
            self.cleanup_again = true;
            self.give_priority(self.active);
            return StepFlow::Stopped;
        }
        StepFlow::Continue
    }
}
