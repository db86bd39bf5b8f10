//! Endless mandatory loops (2006 102.4b / modern 104.4b): "If a game somehow enters a
//! 'loop' of mandatory actions, repeating a sequence of events with no way to stop, the game
//! is a draw. Loops that contain an optional action don't result in a draw."
//!
//! `Game::submit` asks [`Game::forced_decision`] whether the decision being answered left
//! its player a real choice (more than one meaningfully different legal answer). A real
//! choice resets the [`LoopWatch`]. Once a run of forced decisions is long enough
//! ([`LoopWatch::WARMUP`], judged by cheap tests only), every decision is checked exactly
//! and every situation reached is fingerprinted ([`Game::situation_fingerprint`]) and
//! compared by Brent's cycle detection: when a situation comes back with nothing but forced
//! decisions in between, nobody can stop the repetition and the game is a draw
//! ([`DrawReason::MandatoryLoop`]).
//!
//! Cost: games without triggered abilities pay one flag test per answer. Others pay for a
//! cheap classification of each answer (priority with an empty stack outside the cleanup
//! step is never part of a loop; a priority answer other than passing is a choice);
//! listing legal answers and fingerprints happen only inside long runs. The watch is four
//! numbers, so memory stays constant however long a loop runs.

use crate::casting::CastKind;
use crate::decision::{Answer, Decision, Pending};
use crate::events::Event;
use crate::game::{Game, GameResult};
use crate::ruleset::Ruleset;
use crate::steps::Step;
use serde::ser::{self, Serialize};
use serde::{Deserialize, Serialize as SerializeDerive};
use std::fmt;

/// Why a game ended in a draw, when a rule other than "every player lost" ended it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, SerializeDerive, Deserialize)]
pub enum DrawReason {
    /// An endless loop of mandatory actions (102.4b / 104.4b).
    MandatoryLoop,
}

impl DrawReason {
    /// The reason in player words, with the rule number of the game's ruleset.
    pub fn describe(self, ruleset: Ruleset) -> String {
        match self {
            DrawReason::MandatoryLoop => format!(
                "endless mandatory loop ({})",
                match ruleset {
                    Ruleset::Modern => "104.4b",
                    Ruleset::Classic => "102.4b",
                }
            ),
        }
    }
}

/// The state of the loop detection: how many forced decisions were answered in a row and,
/// inside a long forced run, Brent's saved situation. Part of the saved game, so a game
/// reloaded in the middle of a run goes on exactly as one that stayed in memory.
#[derive(Debug, Clone, Default, PartialEq, Eq, SerializeDerive, Deserialize)]
pub struct LoopWatch {
    /// Forced decisions answered in a row since the last real choice.
    #[serde(default)]
    pub forced: u32,
    /// Fingerprint of the saved situation (Brent's "tortoise").
    #[serde(default)]
    pub saved: u64,
    /// Forced decisions since the saved situation.
    #[serde(default)]
    pub since: u32,
    /// After this many, the current situation is saved instead (doubles each time).
    #[serde(default)]
    pub limit: u32,
}

impl LoopWatch {
    /// Forced decisions in a row before fingerprints are taken: a spell or a short chain of
    /// triggers passes through a few forced decisions without ever repeating; only longer
    /// runs are watched. An endless loop runs forever, so it is found all the same, a few
    /// decisions later.
    pub const WARMUP: u32 = 12;

    pub fn is_idle(&self) -> bool {
        *self == LoopWatch::default()
    }
}

impl Game {
    /// Whether `pending` leaves its player no real choice, given that they answer `answer`
    /// (called before the answer is applied). Conservative: anything that might be a choice
    /// counts as one (a missed loop only plays on; a false draw would end a game).
    ///
    /// During the warm-up of a run only the cheap tests apply: those decisions are never
    /// part of a detected cycle (the first saved situation is the one the warm-up ends in),
    /// so listing every legal answer is left to the decisions after it.
    pub(crate) fn forced_decision(&self, pending: &Pending, answer: &Answer) -> bool {
        // Without triggered abilities (printed, granted or delayed) nothing goes on the stack
        // but by a choice: a forced run then only empties the stack and moves the steps on,
        // so no loop can form (and games without triggers pay nothing here).
        if !self.has_triggers {
            return false;
        }
        match &pending.decision {
            Decision::Priority => {
                // Doing anything but passing (or making mana, which alone changes nothing a
                // loop could escape through) proves there was something else to do.
                if !matches!(
                    answer,
                    Answer::Pass | Answer::ActivateMana { .. } | Answer::ActivateManaX { .. }
                ) {
                    return false;
                }
                // With an empty stack all passing ends the step, and steps only move forward
                // in a turn (the turn number is part of the situation), so no loop passes
                // through here, except the cleanup step, which may repeat (314.3 / 514.3a).
                if self.stack.is_empty() && self.step != Step::Cleanup {
                    return false;
                }
                self.warming_up() || self.priority_actions(pending.player, false).len() <= 1
            }
            // Turn-based actions happen once per step (or game): never inside a loop.
            Decision::Mulligan { .. }
            | Decision::DeclareAttackers
            | Decision::DeclareBlockers
            | Decision::OrderBlockers { .. }
            | Decision::AssignCombatDamage { .. } => false,
            // "You may", naming a creature type or a card always offer several answers.
            Decision::YesNo { .. }
            | Decision::ChooseCreatureType { .. }
            | Decision::NameCard { .. } => false,
            // A spell or ability being cast or activated by choice can still be cancelled.
            _ if self
                .casting
                .as_ref()
                .is_some_and(|c| !matches!(c.kind, CastKind::Trigger(_))) =>
            {
                false
            }
            _ => self.warming_up() || self.legal_answers(pending.player).len() <= 1,
        }
    }

    /// Whether the current run of forced decisions is still in its warm-up.
    fn warming_up(&self) -> bool {
        self.loop_watch.forced < LoopWatch::WARMUP
    }

    /// After an answer was applied: a real choice resets the watch; inside a long run of
    /// forced decisions, a situation seen before (Brent's cycle detection) ends the game in
    /// a draw.
    pub(crate) fn watch_for_loop(&mut self, forced: bool) {
        if !forced {
            if !self.loop_watch.is_idle() {
                self.loop_watch = LoopWatch::default();
            }
            return;
        }
        if self.result.is_some() || self.pending.is_none() {
            return;
        }
        let w = &mut self.loop_watch;
        w.forced = w.forced.saturating_add(1);
        if w.forced < LoopWatch::WARMUP {
            return;
        }
        let h = self.situation_fingerprint();
        let w = &mut self.loop_watch;
        if w.forced == LoopWatch::WARMUP {
            w.saved = h;
            w.since = 0;
            w.limit = 1;
            return;
        }
        w.since = w.since.saturating_add(1);
        if h == w.saved {
            self.draw_by_loop();
            return;
        }
        if w.since >= w.limit {
            w.saved = h;
            w.since = 0;
            w.limit = w.limit.saturating_mul(2);
        }
    }

    /// Ends the game in a draw: an endless loop of mandatory actions (102.4b / 104.4b).
    pub(crate) fn draw_by_loop(&mut self) {
        self.result = Some(GameResult::Draw);
        self.draw_reason = Some(DrawReason::MandatoryLoop);
        self.pending = None;
        self.casting = None;
        self.resolution = None;
        self.loop_watch = LoopWatch::default();
        self.emit(Event::EndlessLoop);
        self.emit(Event::GameOver { winner: None });
    }

    /// A hash of the game situation: everything the rules look at, without the bookkeeping
    /// that grows on its own. Objects are named by their card (slot) and whether a
    /// reference is still current, not by their zone-change generation; timestamps are left
    /// out (the battlefield's order keeps their order), as are last-known powers and the
    /// watch itself. The random generator's position is in: a loop repeats only if nothing
    /// random happened. Deterministic (no addresses, no random seeds).
    pub fn situation_fingerprint(&self) -> u64 {
        let mut fp = Fingerprint {
            h: 0x243f_6a88_85a3_08d3,
            game: self,
            object_id: false,
        };
        // The serialiser never fails on a game (its JSON form does not either).
        let _ = self.serialize(&mut fp);
        fp.h ^ (fp.h >> 29)
    }
}

/// Mixed in at the end of a sequence, map or struct.
const END: u64 = 0x0065_6e64;

/// Fields that are bookkeeping, not part of the situation (clocks that only grow: the
/// order they give is kept by the battlefield's order).
fn skipped_field(key: &str) -> bool {
    matches!(
        key,
        "next_timestamp"
            | "timestamp"
            | "control_clock"
            | "upkeeps_began"
            | "lki_power"
            | "lki_without_time_counters"
            | "lki_cast_from_hand"
            | "lki_madness_cast"
            | "lki_attached"
            | "loop_watch"
            | "draw_reason"
    )
}

/// A serde serialiser that hashes what it is given instead of writing it.
struct Fingerprint<'a> {
    h: u64,
    game: &'a Game,
    /// The next integer is an `ObjectId`.
    object_id: bool,
}

impl Fingerprint<'_> {
    fn mix(&mut self, v: u64) {
        self.h = (self.h.rotate_left(5) ^ v).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn mix_bytes(&mut self, b: &[u8]) {
        self.mix(b.len() as u64 ^ 0xb7e1_5162_8aed_2a6b);
        for chunk in b.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.mix(u64::from_le_bytes(w));
        }
    }
    fn int(&mut self, v: u64) -> Result<(), FpError> {
        if std::mem::take(&mut self.object_id) {
            let id = v as u32;
            let slot = (id & 0xffff) as usize;
            let current = self.game.objects.get(slot).is_some_and(|o| o.id.0 == id);
            self.mix(((slot as u64) << 1 | current as u64) ^ 0x0b1e_c700_0000_0000);
        } else {
            self.mix(v);
        }
        Ok(())
    }
}

#[derive(Debug)]
struct FpError(String);

impl fmt::Display for FpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for FpError {}
impl ser::Error for FpError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        FpError(msg.to_string())
    }
}

type Res = Result<(), FpError>;

impl<'a, 'g> ser::Serializer for &'a mut Fingerprint<'g> {
    type Ok = ();
    type Error = FpError;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    fn serialize_bool(self, v: bool) -> Res {
        self.int(v as u64)
    }
    fn serialize_i8(self, v: i8) -> Res {
        self.int(v as i64 as u64)
    }
    fn serialize_i16(self, v: i16) -> Res {
        self.int(v as i64 as u64)
    }
    fn serialize_i32(self, v: i32) -> Res {
        self.int(v as i64 as u64)
    }
    fn serialize_i64(self, v: i64) -> Res {
        self.int(v as u64)
    }
    fn serialize_i128(self, v: i128) -> Res {
        self.mix(v as u64);
        self.mix((v >> 64) as u64);
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Res {
        self.int(v as u64)
    }
    fn serialize_u16(self, v: u16) -> Res {
        self.int(v as u64)
    }
    fn serialize_u32(self, v: u32) -> Res {
        self.int(v as u64)
    }
    fn serialize_u64(self, v: u64) -> Res {
        self.int(v)
    }
    fn serialize_u128(self, v: u128) -> Res {
        self.mix(v as u64);
        self.mix((v >> 64) as u64);
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Res {
        self.int(v.to_bits() as u64)
    }
    fn serialize_f64(self, v: f64) -> Res {
        self.int(v.to_bits())
    }
    fn serialize_char(self, v: char) -> Res {
        self.int(v as u64)
    }
    fn serialize_str(self, v: &str) -> Res {
        self.mix_bytes(v.as_bytes());
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Res {
        self.mix_bytes(v);
        Ok(())
    }
    fn serialize_none(self) -> Res {
        self.mix(0x6e6f_6e65);
        Ok(())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Res {
        self.mix(0x736f_6d65);
        value.serialize(self)
    }
    fn serialize_unit(self) -> Res {
        self.mix(0x756e_6974);
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Res {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _name: &'static str, index: u32, _v: &'static str) -> Res {
        self.mix(0x7661_7200_0000_0000 | index as u64);
        Ok(())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, name: &'static str, value: &T) -> Res {
        self.object_id = name == "ObjectId";
        let r = value.serialize(&mut *self);
        self.object_id = false;
        r
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        index: u32,
        _v: &'static str,
        value: &T,
    ) -> Res {
        self.mix(0x7661_7200_0000_0000 | index as u64);
        value.serialize(self)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Self, FpError> {
        self.mix(0x7365_7100_0000_0000 ^ len.unwrap_or(usize::MAX) as u64);
        Ok(self)
    }
    fn serialize_tuple(self, len: usize) -> Result<Self, FpError> {
        self.mix(0x7475_7000_0000_0000 ^ len as u64);
        Ok(self)
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Self, FpError> {
        self.serialize_tuple(len)
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        index: u32,
        _v: &'static str,
        len: usize,
    ) -> Result<Self, FpError> {
        self.mix(0x7661_7200_0000_0000 | index as u64);
        self.serialize_tuple(len)
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Self, FpError> {
        self.mix(0x6d61_7000_0000_0000 ^ len.unwrap_or(usize::MAX) as u64);
        Ok(self)
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self, FpError> {
        self.mix(0x7374_7200);
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        index: u32,
        _v: &'static str,
        _len: usize,
    ) -> Result<Self, FpError> {
        self.mix(0x7661_7200_0000_0000 | index as u64);
        Ok(self)
    }
}

impl ser::SerializeSeq for &mut Fingerprint<'_> {
    type Ok = ();
    type Error = FpError;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Res {
        value.serialize(&mut **self)
    }
    fn end(self) -> Res {
        self.mix(END);
        Ok(())
    }
}

/// Tuples carry no names and no length to mix in: each element is hashed in turn.
macro_rules! hash_elements {
    ($($trait:ident :: $method:ident),*) => {$(
        impl ser::$trait for &mut Fingerprint<'_> {
            type Ok = ();
            type Error = FpError;
            fn $method<T: ?Sized + Serialize>(&mut self, value: &T) -> Res {
                value.serialize(&mut **self)
            }
            fn end(self) -> Res {
                Ok(())
            }
        }
    )*};
}
hash_elements!(
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeMap for &mut Fingerprint<'_> {
    type Ok = ();
    type Error = FpError;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Res {
        key.serialize(&mut **self)
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Res {
        value.serialize(&mut **self)
    }
    fn end(self) -> Res {
        self.mix(END);
        Ok(())
    }
}

impl ser::SerializeStruct for &mut Fingerprint<'_> {
    type Ok = ();
    type Error = FpError;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Res {
        if skipped_field(key) {
            return Ok(());
        }
        // The name keeps fields that serde may leave out apart ("tapped" vs "damage").
        self.mix_bytes(key.as_bytes());
        value.serialize(&mut **self)
    }
    fn end(self) -> Res {
        self.mix(END);
        Ok(())
    }
}

impl ser::SerializeStructVariant for &mut Fingerprint<'_> {
    type Ok = ();
    type Error = FpError;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Res {
        if skipped_field(key) {
            return Ok(());
        }
        self.mix_bytes(key.as_bytes());
        value.serialize(&mut **self)
    }
    fn end(self) -> Res {
        self.mix(END);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::zones::{Position, ZoneKind};

    /// Three Faceless Butchers, the third's trigger about to target: the loop's start.
    const BUTCHERS: &str = r#"
name = "butchers"
description = ""
script = [
  "alice: cast Faceless Butcher", "alice: autopay", "resolve",
  "alice: cast Faceless Butcher", "alice: autopay", "resolve",
  "alice: target Faceless Butcher", "resolve", "resolve",
  "alice: cast Faceless Butcher", "alice: autopay", "resolve",
  "alice: target Faceless Butcher",
]
[setup]
step = "precombat_main"
turn = 3
[setup.alice]
hand = ["Faceless Butcher", "Faceless Butcher", "Faceless Butcher"]
battlefield = ["Swamp", "Swamp", "Swamp", "Swamp", "Swamp", "Swamp", "Swamp", "Swamp", "Swamp", "Swamp", "Swamp", "Swamp"]
[setup.bob]
hand = ["HAND"]
battlefield = ["Mountain"]
"#;

    fn butchers(bob_hand: &str) -> Game {
        crate::scenario::game_from_str(&BUTCHERS.replace("HAND", bob_hand)).expect("board")
    }

    /// Answers like the scenario's `keep passing`: pass at priority, else the only answer.
    fn step(g: &mut Game) -> Vec<Event> {
        let p = g.pending().cloned().expect("pending");
        let answer = if p.decision == Decision::Priority {
            Answer::Pass
        } else {
            let a = g.legal_answers(p.player);
            assert_eq!(a.len(), 1, "{:?}", p.decision);
            a[0].clone()
        };
        g.submit(p.player, answer).expect("accepted")
    }

    #[test]
    fn three_butchers_draw_soon_with_events() {
        let mut g = butchers("Test Bear");
        let mut n = 0;
        let last = loop {
            let ev = step(&mut g);
            n += 1;
            if g.result.is_some() {
                break ev;
            }
            assert!(n < 200, "no draw after {n} decisions");
        };
        assert_eq!(g.result, Some(GameResult::Draw));
        assert_eq!(g.draw_reason, Some(DrawReason::MandatoryLoop));
        assert!(g.players.iter().all(|p| p.lost.is_none()));
        assert!(g.pending().is_none());
        let tail: Vec<_> = last.iter().rev().take(2).collect();
        assert_eq!(
            tail,
            [&Event::GameOver { winner: None }, &Event::EndlessLoop]
        );
        // The cycle is 3 exiles and returns: about 15 decisions, found within a few cycles.
        assert!(n <= LoopWatch::WARMUP + 4 * 16, "{n} decisions");
        assert_eq!(
            g.view(None).draw_reason.map(|r| r.describe(g.ruleset)),
            Some("endless mandatory loop (104.4b)".to_string())
        );
    }

    #[test]
    fn an_instant_in_hand_keeps_the_loop_going() {
        let mut g = butchers("Test Bolt");
        for _ in 0..500 {
            step(&mut g);
        }
        assert_eq!(g.result, None);
    }

    #[test]
    fn a_saved_and_reloaded_game_finds_the_loop_at_the_same_decision() {
        let mut a = butchers("Test Bear");
        let mut b = a.clone();
        let mut n = 0;
        while a.result.is_none() {
            step(&mut a);
            // b goes through JSON at every decision, as the bot's saved games do.
            step(&mut b);
            b = Game::from_json(&b.to_json().expect("json")).expect("reload");
            assert_eq!(a.loop_watch, b.loop_watch);
            assert_eq!(a.result, b.result, "after {n} decisions");
            n += 1;
            assert!(n < 200);
        }
        assert_eq!(a, b);
    }

    #[test]
    fn the_fingerprint_ignores_generations_and_timestamps() {
        let mut g = crate::scenario::board(
            r#"
[setup.alice]
battlefield = ["Swamp", "Swamp", { card = "Test Bear", sick = true }]
"#,
        )
        .expect("board");
        let before = g.situation_fingerprint();
        assert_eq!(before, g.situation_fingerprint(), "deterministic");
        let reloaded = Game::from_json(&g.to_json().expect("json")).expect("reload");
        assert_eq!(before, reloaded.situation_fingerprint());
        // A creature that leaves and comes back last is the same situation (new object id,
        // new timestamp) if it was already last on the battlefield (and summoning sick).
        let last = *g.battlefield.last().expect("permanents");
        assert_eq!(g.card_name(last), "Test Bear");
        let gone = g
            .move_object(last, ZoneKind::Exile, Position::Top)
            .expect("exiled");
        assert_ne!(before, g.situation_fingerprint());
        let back = g
            .move_object(gone, ZoneKind::Battlefield, Position::Top)
            .expect("back");
        assert_ne!(back, last);
        assert_eq!(before, g.situation_fingerprint());
        // What matters to the rules does change it.
        let id = g.battlefield[0];
        if let Some(o) = g.obj_mut(id) {
            o.tapped = !o.tapped;
        }
        let tapped = g.situation_fingerprint();
        assert_ne!(before, tapped);
        if let Some(o) = g.obj_mut(id) {
            o.tapped = !o.tapped;
            o.damage = 1;
        }
        assert_ne!(before, g.situation_fingerprint());
        assert_ne!(tapped, g.situation_fingerprint());
        if let Some(o) = g.obj_mut(id) {
            o.damage = 0;
        }
        g.players[1].life -= 1;
        assert_ne!(before, g.situation_fingerprint());
    }

    #[test]
    fn forced_and_free_decisions() {
        let mut g2 = butchers("Test Bolt");
        // Past the warm-up, where every decision is checked exactly.
        g2.loop_watch.forced = LoopWatch::WARMUP;
        let p = g2.pending().cloned().expect("pending");
        assert_eq!(p.decision, Decision::Priority);
        assert!(!g2.stack.is_empty());
        assert!(g2.forced_decision(&p, &Answer::Pass), "Alice can only pass");
        step(&mut g2);
        let p = g2.pending().cloned().expect("pending");
        assert_eq!(p.player, crate::ids::PlayerId(1));
        assert!(!g2.forced_decision(&p, &Answer::Pass), "Bob could bolt");
        // Anything but passing is a choice.
        assert!(!g2.forced_decision(&p, &Answer::Cast(g2.player(p.player).hand[0])));
        // In the warm-up only the cheap tests apply: Bob's pass may count as forced there
        // (those decisions never belong to a detected cycle).
        g2.loop_watch = LoopWatch::default();
        assert!(g2.forced_decision(&p, &Answer::Pass));
    }
}
