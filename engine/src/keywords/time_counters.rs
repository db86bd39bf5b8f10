//! Cards that add or remove time counters (2006 rules 502.59b / 2014 702.61b: a card is
//! *suspended* when it has suspend, is in exile and has a time counter on it; rulings A3,
//! R-suspend-4, R-suspend-10, R-clockspinning-1/2). Any removal of a suspended card's last
//! time counter triggers its cast, whatever removed it (R-suspend-10: the trigger is
//! suspend's own, `keywords/suspend.rs`).
//!
//! - Targets "permanent or suspended card" (`TargetKind::PermanentOrSuspended`, legality in
//!   `targeting.rs`): a card in exile with no time counter or without suspend is not one
//!   (R-suspend-4, R-suspend-11).
//! - Clockspinning and Jhoira's Timebug (`Effect::RemoveOrAddCounter`, in
//!   `resolve/counters.rs`): the counter kind and "remove or add" are chosen as it resolves,
//!   a `ChooseMode` decision asked mid-resolution (answered `Answer::Mode`).
//! - Dust of Moments (`Effect::TimeCountersEach`, [`Game::time_counters_each`]).
//! - Fury Charm, Timecrafting: `remove_counter time target n=N` and `put_counter time
//!   target n=N`, which reach a suspended card in exile.

use crate::events::Event;
use crate::game::Game;
use crate::ids::ObjectId;
use crate::object::CounterKind;
use crate::stack::StackKind;
use crate::zones::{Position, ZoneKind};

impl Game {
    /// Delay (`counter`: the spell is countered, and exiled instead of going to its owner's
    /// graveyard) and Epochrasite (the card is exiled from its zone): the card is exiled
    /// with `time` time counters and, if it doesn't have suspend, gains it. A copy of a
    /// spell ceases to exist instead (S16); a card that is no longer there stays where it is.
    pub(crate) fn exile_with_suspend(&mut self, id: ObjectId, time: u32, counter: bool) {
        let exiled = if counter {
            let Some(item) = self.stack.iter().find(|s| s.object() == Some(id)).cloned() else {
                return;
            };
            let StackKind::Spell(card) = item.kind else {
                return;
            };
            if self.cant_be_countered(&item) {
                return;
            }
            self.stack.retain(|s| s.object() != Some(card));
            let exiled = self.move_object(card, ZoneKind::Exile, Position::Top);
            self.emit(Event::Countered {
                card: item.card,
                by_rules: false,
            });
            exiled
        } else {
            self.move_object(id, ZoneKind::Exile, Position::Top)
        };
        let Some(exiled) =
            exiled.filter(|e| self.obj(*e).is_some_and(|o| o.zone == ZoneKind::Exile))
        else {
            return;
        };
        let printed = self
            .obj(exiled)
            .is_some_and(|o| self.catalog().get(o.card).suspend.is_some());
        if let Some(o) = self.obj_mut(exiled) {
            o.gained_suspend = !printed;
        }
        // Its suspend triggers are looked for from now on.
        self.has_triggers = true;
        self.has_suspended_cards = true;
        self.add_counters(exiled, CounterKind::Time, time);
    }

    /// Jhoira of the Ghitu: the card its cost exiled (still in exile) gets `time` time
    /// counters and, if it doesn't have suspend, gains it (no zone change).
    pub(crate) fn suspend_exiled(&mut self, id: ObjectId, time: u32) {
        let Some(o) = self.obj(id).filter(|o| o.zone == ZoneKind::Exile) else {
            return;
        };
        let printed = self.catalog().get(o.card).suspend.is_some();
        if let Some(o) = self.obj_mut(id) {
            o.gained_suspend = !printed;
        }
        self.has_triggers = true;
        self.has_suspended_cards = true;
        self.add_counters(id, CounterKind::Time, time);
    }

    /// Dust of Moments: removes `n` time counters from each permanent and each suspended
    /// card (`put: false`), or puts `n` on each permanent with a time counter on it and each
    /// suspended card (`put: true`). Which objects is decided first, then the counters move
    /// one object at a time (each removal of a last counter triggers on its own).
    pub(crate) fn time_counters_each(&mut self, put: bool, n: u32) {
        let has_time = |g: &Game, id: ObjectId| {
            g.obj(id)
                .is_some_and(|o| o.counters.get(&CounterKind::Time) > 0)
        };
        let mut all: Vec<ObjectId> = self
            .battlefield
            .iter()
            .copied()
            .filter(|id| has_time(self, *id))
            .collect();
        all.extend(
            self.exile
                .iter()
                .copied()
                .filter(|id| self.is_suspended(*id)),
        );
        for id in all {
            if put {
                self.add_counters(id, CounterKind::Time, n);
            } else {
                self.remove_counters(id, &CounterKind::Time, n);
            }
        }
    }
}
