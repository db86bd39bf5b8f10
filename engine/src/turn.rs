//! Turn structure (rules 300-314; rules.md Section 2): phases and steps, their turn-based
//! actions, the end of steps and phases (mana pools, mana burn, durations), and the start
//! of the game (101: mulligans, first turn).

use crate::decision::{Answer, Decision, Pending, RuleError};
use crate::events::Event;
use crate::game::Game;
use crate::ids::{ObjectId, PlayerId};
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
        // 2006 101.6 / 2014 103.6: after mulligans, pregame actions from opening hands, in
        // turn order from the starting player; then they happen at once.
        if let Some(p) = self.next_pregame_question() {
            self.pending = Some(p);
            return;
        }
        self.take_pregame_actions();
        self.pending = None;
        self.begin_turn(self.first_player);
        self.run_steps();
    }

    /// The next player (in turn order from the starting player, who has none) holding a
    /// card with Gemstone Caverns' pregame action and not asked yet: the question about the
    /// first such card in their hand.
    fn next_pregame_question(&self) -> Option<Pending> {
        let catalog = self.catalog();
        self.players_from(self.first_player)
            .into_iter()
            .filter(|p| *p != self.first_player && self.player(*p).in_game())
            .filter(|p| !self.pregame.iter().any(|(q, _)| q == p))
            .find_map(|p| {
                let card = self.player(p).hand.iter().copied().find(|c| {
                    self.obj(*c)
                        .is_some_and(|o| catalog.get(o.card).begin_game_on_battlefield)
                })?;
                Some(Pending {
                    player: p,
                    decision: Decision::PregameAction {
                        card,
                        name: self.card_name(card).to_string(),
                    },
                })
            })
    }

    /// Every answer to a pregame question: decline, or do it exiling one card of the hand.
    pub(crate) fn pregame_answers(&self, player: PlayerId, card: ObjectId) -> Vec<Answer> {
        let hand = &self.player(player).hand;
        let mut v = vec![Answer::Objects(Vec::new())];
        if hand.len() == 1 {
            v.push(Answer::Objects(vec![card]));
        }
        v.extend(
            hand.iter()
                .filter(|c| **c != card)
                .map(|c| Answer::Objects(vec![*c])),
        );
        v
    }

    pub(crate) fn answer_pregame(
        &mut self,
        player: PlayerId,
        card: ObjectId,
        answer: Answer,
    ) -> Result<(), RuleError> {
        let Answer::Objects(chosen) = answer else {
            return Err(RuleError::WrongKind {
                expected: format!(
                    "the card to exile from your hand, or nothing, not {}",
                    answer.kind_name()
                ),
            });
        };
        let hand = &self.player(player).hand;
        let taken = match chosen.as_slice() {
            [] => None,
            [c] if *c != card && hand.contains(c) => Some((card, *c)),
            [c] if *c == card && hand.len() == 1 => Some((card, card)),
            [c] if *c == card => {
                return Err(RuleError::illegal(format!(
                    "choose another card of your hand to exile, not {} itself",
                    self.card_name(card)
                )));
            }
            [_] => return Err(RuleError::illegal("that card is not in your hand")),
            _ => return Err(RuleError::illegal("exile exactly one card from your hand")),
        };
        self.pregame.push((player, taken));
        self.start_first_turn();
        Ok(())
    }

    /// Gemstone Caverns: each card chosen is put onto the battlefield with a luck counter,
    /// and each chosen card is exiled from its hand, all at once before the first turn.
    fn take_pregame_actions(&mut self) {
        let taken: Vec<(PlayerId, ObjectId, ObjectId)> = std::mem::take(&mut self.pregame)
            .into_iter()
            .filter_map(|(p, t)| t.map(|(c, x)| (p, c, x)))
            .collect();
        for (p, card, exiled) in taken {
            let card_id = self.obj(card).map(|o| o.card);
            let exiled_id = (exiled != card)
                .then(|| self.obj(exiled).map(|o| o.card))
                .flatten();
            if exiled != card {
                self.move_object(exiled, ZoneKind::Exile, Position::Top);
            }
            if let Some(new) = self.put_onto_battlefield(card, p, false) {
                self.add_counters(new, crate::object::CounterKind::Named("luck".into()), 1);
                if let Some(card) = card_id {
                    self.emit(Event::BeganOnBattlefield {
                        player: p,
                        card,
                        object: new,
                        exiled: exiled_id,
                    });
                }
            }
        }
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
        // The turn now ending is its player's last turn that ended (Premature Burial).
        let ended = self.turn;
        if ended > 0 {
            let a = self.active;
            self.player_mut(a).turn_ended = ended;
        }
        self.turn += 1;
        // "Until your next turn" ends as that turn begins (Chronomantic Escape).
        self.cant_be_attacked.retain(|q| *q != p);
        // Storm and gravestorm count within one turn.
        self.this_turn = Default::default();
        self.active = p;
        self.step = Step::Untap;
        self.passes = 0;
        self.cleanup_again = false;
        for pl in &mut self.players {
            pl.lands_played = 0;
            pl.life_lost_this_turn = 0;
        }
        let turn = self.turn;
        // "You can't lose the game this turn" (Angel's Grace) ends with its turn.
        self.cant_lose.retain(|(_, t)| *t == turn);
        self.upkeeps_this_turn = 0;
        self.extra_upkeeps = 0;
        self.players_damaged.clear();
        self.player_mut(p).turn_started = turn;
        self.player_mut(p).turns_begun += 1;
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
        // Leaving combat ends effects and a new turn begins with the cleanup's changes: the
        // next priority checks state-based actions in full (so does mana burn, below).
        if self.step == Step::EndCombat || next.is_none() {
            self.sba_clean = false;
        }
        // Δ1/Δ2: pools empty at every step end (modern) or phase end with mana burn (classic).
        if self.ruleset.pools_empty_each_step() || phase_ends {
            for p in (0..self.players.len()).map(|i| crate::ids::PlayerId(i as u8)) {
                let lost = self.player_mut(p).pool.clear();
                if lost > 0 && self.ruleset.mana_burn() && phase_ends {
                    self.sba_clean = false;
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
        // Paradox Haze: an additional upkeep step after this one.
        let next = if self.step == Step::Upkeep && self.extra_upkeeps > 0 {
            self.extra_upkeeps -= 1;
            Some(Step::Upkeep)
        } else {
            next
        };
        match next {
            Some(s) => self.step = s,
            None => {
                let next_player = self.next_turn_player();
                self.begin_turn(next_player);
            }
        }
    }

    /// 302.2 / 502.2: the active player untaps all their permanents, but for those that
    /// don't untap (a "doesn't untap" keyword, Giant Oyster's tapped lock) and those whose
    /// "you may choose not to untap ~" their controller used (asked first, one yes/no each).
    fn untap_step(&mut self) -> StepFlow {
        if let Some(p) = self.next_untap_question() {
            self.pending = Some(p);
            return StepFlow::Stopped;
        }
        let held: Vec<ObjectId> = std::mem::take(&mut self.untap_choices)
            .into_iter()
            .filter(|(_, untap)| !untap)
            .map(|(id, _)| id)
            .collect();
        // "It doesn't untap during its controller's next untap step" (Spectral Force): this
        // step is that one, tapped or not (the effect is used up).
        let active = self.active;
        let frozen: Vec<ObjectId> = self
            .frozen
            .iter()
            .copied()
            .filter(|id| self.obj(*id).is_some_and(|o| o.controller == active))
            .collect();
        self.frozen.retain(|id| !frozen.contains(id));
        let mine: Vec<ObjectId> = self
            .battlefield_of(self.active)
            .filter(|o| o.tapped)
            .map(|o| o.id)
            .collect::<Vec<_>>()
            .into_iter()
            .filter(|id| {
                !self.has_keyword(*id, crate::keywords::Keyword::DoesntUntap)
                    && !held.contains(id)
                    && !frozen.contains(id)
                    && !self.held_by_tapped_lock(*id)
            })
            .collect();
        for id in mine {
            self.untap(id);
        }
        StepFlow::Continue
    }

    /// The active player's next "untap ~?" question, for a tapped permanent that says "you
    /// may choose not to untap ~ during your untap step" and would untap.
    fn next_untap_question(&self) -> Option<Pending> {
        let id = self.untap_question_object()?;
        Some(Pending {
            player: self.active,
            decision: Decision::YesNo {
                question: format!(
                    "Untap {} during your untap step? (no: it stays tapped)",
                    self.card_name(id)
                ),
            },
        })
    }

    /// The permanent the next untap step question is about.
    fn untap_question_object(&self) -> Option<ObjectId> {
        self.battlefield_of(self.active)
            .find(|o| {
                o.tapped
                    && self.catalog().get(o.face()).may_choose_not_to_untap
                    && self.has_own_abilities(o.id)
                    && !self.untap_choices.iter().any(|(id, _)| *id == o.id)
                    && !self.frozen.contains(&o.id)
                    && !self.has_keyword(o.id, crate::keywords::Keyword::DoesntUntap)
                    && !self.held_by_tapped_lock(o.id)
            })
            .map(|o| o.id)
    }

    /// The answer to an untap step question: recorded, then the untap step goes on.
    pub(crate) fn answer_untap_choice(
        &mut self,
        player: PlayerId,
        answer: Answer,
    ) -> Result<(), RuleError> {
        let untap = answer.yes_or_no()?;
        let Some(id) = self
            .untap_question_object()
            .filter(|_| player == self.active)
        else {
            return Err(RuleError::illegal("there is nothing to untap or not"));
        };
        self.untap_choices.push((id, untap));
        self.pending = None;
        if self.untap_step() == StepFlow::Continue {
            self.end_step_and_move_on();
            self.run_steps();
        }
        Ok(())
    }

    /// Giant Oyster: `id` was linked by a permanent that says "for as long as ~ remains
    /// tapped, <it> doesn't untap during its controller's untap step", and that permanent
    /// is still tapped on the battlefield.
    fn held_by_tapped_lock(&self, id: ObjectId) -> bool {
        self.links.iter().any(|(src, o)| {
            *o == id
                && self.obj(*src).is_some_and(|s| {
                    s.tapped
                        && s.zone == ZoneKind::Battlefield
                        && self
                            .catalog()
                            .get(s.face())
                            .linked_doesnt_untap_while_tapped
                })
        })
    }

    /// Whether an Aura is attached to a player (Paradox Haze): only then are this turn's
    /// upkeeps counted (an Aura arriving after the first upkeep began sees none counted).
    fn has_player_auras(&self) -> bool {
        self.battlefield
            .iter()
            .any(|&id| self.obj(id).is_some_and(|o| o.attached_player.is_some()))
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
        // Only the steps whose beginning has no turn-based action (upkeep, main phases,
        // beginning and end of combat, end step) keep "nothing changed since the last
        // state-based check" from the step before (`priority.rs`).
        if !matches!(
            step,
            Step::Upkeep
                | Step::PrecombatMain
                | Step::BeginCombat
                | Step::EndCombat
                | Step::PostcombatMain
                | Step::End
        ) {
            self.sba_clean = false;
        }
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
            if self.has_player_auras() {
                self.upkeeps_this_turn += 1;
            }
        }
        self.emit(Event::StepBegan(step));
        match step {
            Step::Untap => self.untap_step(),
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
        // Until end of turn; Opal Guardian's "becomes a 3/4" has no duration.
        self.pt_effects.retain(|e| e.indefinite);
        self.shields.clear();
        // Flashback granted until end of turn (Dralnu) ends (314.2 / 514.2).
        self.granted_flashback.clear();
        // "Dealt damage by ~ this turn" and last known powers end with the turn.
        self.damage_record.clear();
        self.player_damage_record.clear();
        self.lki_power.clear();
        self.lki_attached.clear();
        self.lki_without_time_counters.clear();
        self.lki_cast_from_hand.clear();
        self.lki_madness_cast.clear();
        self.end_turn_char_effects();
        self.end_turn_copies();
        // "This turn" delayed abilities that never triggered end (314.2).
        self.delayed.retain(|d| {
            !matches!(
                d.when,
                crate::triggers::DelayedWhen::PutIntoYourGraveyardThisTurn(_)
                    | crate::triggers::DelayedWhen::SourceLeavesThisTurn { .. }
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

#[cfg(test)]
mod pregame_tests {
    use crate::cards::Catalog;
    use crate::decision::{Answer, Decision};
    use crate::game::{Game, GameSetup};
    use crate::ids::PlayerId;
    use crate::object::CounterKind;
    use crate::ruleset::Ruleset;
    use crate::zones::ZoneKind;

    fn game(ruleset: Ruleset) -> Game {
        let c = Catalog::builtin();
        let caverns = c.by_name("Gemstone Caverns").map(|d| d.id);
        let island = c.by_name("Island").map(|d| d.id);
        let (Some(caverns), Some(island)) = (caverns, island) else {
            panic!("cards missing from the catalog");
        };
        let deck: Vec<_> = (0..20).flat_map(|_| [caverns, island]).collect();
        let mut setup = GameSetup::two_player(ruleset, 7, deck.clone(), deck);
        setup.first_player = Some(PlayerId(0));
        let mut g = Game::new(&setup).expect("a legal setup");
        for p in [PlayerId(0), PlayerId(1)] {
            g.submit(p, Answer::Keep).expect("keep");
        }
        g
    }

    /// 2006 101.6 / 2014 103.6: only the player who doesn't start is asked; doing it puts
    /// Gemstone Caverns onto the battlefield with a luck counter and exiles the chosen card.
    #[test]
    fn the_second_player_may_begin_with_gemstone_caverns() {
        for ruleset in [Ruleset::Classic, Ruleset::Modern] {
            let mut g = game(ruleset);
            let Some(p) = g.pending().cloned() else {
                panic!("a pregame question is pending");
            };
            assert_eq!(p.player, PlayerId(1));
            let Decision::PregameAction { card, .. } = p.decision else {
                panic!("not a pregame question: {:?}", p.decision);
            };
            // Refused: exiling the Caverns itself while other cards are in hand.
            let before = g.state_hash();
            assert!(g.submit(PlayerId(1), Answer::Objects(vec![card])).is_err());
            assert_eq!(g.state_hash(), before);
            let exiled = g.players[1].hand.iter().copied().find(|c| *c != card);
            let Some(exiled) = exiled else {
                panic!("a second card in hand");
            };
            let exiled_card = g.obj(exiled).map(|o| o.card);
            let events = g
                .submit(PlayerId(1), Answer::Objects(vec![exiled]))
                .expect("the pregame action");
            assert_eq!(g.turn, 1);
            // Told publicly: what began on the battlefield and what was exiled.
            let told = events.iter().find_map(|e| match e {
                crate::events::Event::BeganOnBattlefield {
                    player,
                    card,
                    exiled,
                    ..
                } => Some((*player, *card, *exiled)),
                _ => None,
            });
            let caverns = Catalog::builtin().by_name("Gemstone Caverns").map(|d| d.id);
            assert_eq!(
                told.map(|t| (t.0, Some(t.1), t.2)),
                Some((PlayerId(1), caverns, exiled_card))
            );
            let on_bf: Vec<_> = g
                .battlefield
                .iter()
                .filter_map(|id| g.obj(*id))
                .filter(|o| o.controller == PlayerId(1))
                .collect();
            assert_eq!(on_bf.len(), 1);
            assert_eq!(on_bf[0].counters.get(&CounterKind::Named("luck".into())), 1);
            assert_eq!(g.players[1].hand.len(), 5);
            assert!(
                g.exile
                    .iter()
                    .any(|id| g.obj(*id).is_some_and(|o| o.zone == ZoneKind::Exile))
            );
            assert!(g.pending().is_some_and(|p| p.player == PlayerId(0)));
        }
    }

    /// Declining leaves the hand as it is.
    #[test]
    fn declining_the_pregame_action_changes_nothing() {
        let mut g = game(Ruleset::Modern);
        g.submit(PlayerId(1), Answer::Objects(Vec::new()))
            .expect("decline");
        assert!(g.battlefield.is_empty());
        assert_eq!(g.players[1].hand.len(), 7);
        assert_eq!(g.turn, 1);
    }
}
