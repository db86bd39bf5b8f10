//! Control and status (layer 2, 502 / 701): gaining control, tapping and untapping, turning face up or down, skipped turns and steps, winning the game.

use super::*;

impl Game {
    /// The permanent `what` names and its controller's choice among `options` (made as the
    /// effect resolves, `ChooseMode`); `Err` is what to do now: ask, or nothing when the
    /// permanent is gone.
    pub(super) fn choose_for_permanent(
        &self,
        res: &Resolution,
        what: ObjRef,
        options: impl FnOnce(&str) -> Vec<String>,
    ) -> Result<(ObjectId, u8), Box<Progress>> {
        let Some(o) = self
            .object_of(res, what)
            .filter(|o| self.is_on_battlefield(*o))
        else {
            return Err(Box::new(Progress::Done));
        };
        match res.option {
            Some(choice) => Ok((o, choice)),
            None => Err(Box::new(Progress::Ask(Pending {
                player: res.item.controller,
                decision: Decision::ChooseMode {
                    options: options(self.card_name(o)),
                },
            }))),
        }
    }

    /// "You may tap or untap target permanent" (Coral Trickster): its controller chooses tap,
    /// untap or neither as it resolves (`ChooseMode`); a permanent gone: nothing.
    pub(super) fn execute_may_tap_or_untap(
        &mut self,
        res: &mut Resolution,
        what: ObjRef,
    ) -> Progress {
        let (o, choice) = match self.choose_for_permanent(res, what, |name| {
            vec![
                format!("tap {name}"),
                format!("untap {name}"),
                "neither".into(),
            ]
        }) {
            Ok(chosen) => chosen,
            Err(progress) => return *progress,
        };
        match choice {
            0 => {
                self.tap(o);
            }
            1 => {
                self.untap(o);
            }
            _ => {}
        }
        Progress::Done
    }

    /// Tapping, untapping and "its controller sacrifices it": whether `e` was one of them.
    fn apply_tapping(&mut self, res: &Resolution, e: &Effect) -> bool {
        let me = res.item.controller;
        match e {
            Effect::Tap(r) => {
                if let Some(o) = self.object_of(res, *r) {
                    self.tap(o);
                }
            }
            Effect::TapAll(f) => {
                let source = Self::source_of(&res.item);
                for o in self.permanents_matching(f, me) {
                    // "Tap all other creatures": not the ability's source (Timbermare).
                    if !(f.other && o == source) {
                        self.tap(o);
                    }
                }
            }
            Effect::ItsControllerSacrifices(r) => {
                if let Some(o) = self.object_of(res, *r)
                    && self.is_on_battlefield(o)
                {
                    self.sacrifice(o);
                }
            }
            Effect::Untap(r) => {
                if let Some(o) = self.object_of(res, *r) {
                    self.untap(o);
                }
            }
            Effect::UntapEachTarget => self.untap_each_target(res),
            Effect::DoesntUntapNext(r) => {
                if let Some(o) = self.object_of(res, *r)
                    && self.is_on_battlefield(o)
                    && !self.frozen.contains(&o)
                {
                    self.frozen.push(o);
                }
            }
            _ => return false,
        }
        true
    }

    /// Applies one effect of control and status that needs no choice.
    pub(super) fn apply_control(&mut self, res: &Resolution, e: &Effect) {
        if self.apply_tapping(res, e) {
            return;
        }
        let me = res.item.controller;
        match e {
            Effect::TurnFaceDown(r) => {
                if let Some(o) = self.object_of(res, *r) {
                    self.turn_face_down(o);
                }
            }
            Effect::SkipNext { what, who } => {
                for p in self.players_of(res, *who) {
                    self.skips.push((p, *what));
                }
            }
            Effect::ExtraTurn { who } => {
                for p in self.players_of(res, *who) {
                    self.extra_turns.push(p);
                }
            }
            Effect::RemoveFromCombat(r) => {
                if let Some(o) = self.object_of(res, *r)
                    && let Some(c) = self.combat.as_mut()
                {
                    c.remove(o);
                }
            }
            Effect::TurnFaceUp(r) => {
                if let Some(o) = self.object_of(res, *r)
                    && self.is_on_battlefield(o)
                {
                    let copy = self.take_copy_choice(o);
                    // Aquamorph Entity's choice, made before it turned (`as_enters.rs`).
                    if self.obj(o).is_some_and(|x| x.face_down) {
                        self.apply_enter_choice(o, o);
                    }
                    self.turn_face_up_as(o, copy);
                }
            }
            Effect::CoalitionVictory => {
                let lands = ["Plains", "Island", "Swamp", "Mountain", "Forest"];
                let mine: Vec<ObjectId> = self.battlefield_of(me).map(|o| o.id).collect();
                let has_land = |sub: &str| {
                    mine.iter()
                        .any(|id| self.has_type(*id, CardType::Land) && self.has_subtype(*id, sub))
                };
                let has_color = |c| {
                    mine.iter()
                        .any(|id| self.is_creature(*id) && self.colors(*id).contains(c))
                };
                if lands.iter().all(|l| has_land(l))
                    && crate::mana::Color::ALL.into_iter().all(has_color)
                {
                    self.win_game(me);
                }
            }
            Effect::WinGame => self.win_game(me),
            Effect::AddMana(mana) => {
                for m in mana {
                    self.player_mut(me).pool.add(*m, 1);
                    self.emit(crate::events::Event::ManaAdded {
                        player: me,
                        mana: *m,
                        amount: 1,
                    });
                }
            }
            Effect::CreaturesUnblockableThisTurn => self.unblockable_turn = Some(self.turn),
            Effect::SuspendCostExiled(n) => {
                for o in res.item.cost_exiled.clone() {
                    self.suspend_exiled(o, *n);
                }
            }
            Effect::CreaturesCantAttackYou => {
                if !self.cant_be_attacked.contains(&me) {
                    self.cant_be_attacked.push(me);
                }
            }
            Effect::LinkWhileTapped(r) => {
                let source = Self::source_of(&res.item);
                if let Some(o) = self.object_of(res, *r)
                    && self.is_on_battlefield(o)
                    && self.is_on_battlefield(source)
                {
                    self.links.retain(|(s, _)| *s != source);
                    self.links.push((source, o));
                }
            }
            Effect::Unlink => {
                let source = Self::source_of(&res.item);
                self.links.retain(|(s, _)| *s != source);
            }
            Effect::ExtraUpkeep => {
                if self.step == crate::steps::Step::Upkeep {
                    self.extra_upkeeps += 1;
                }
            }
            Effect::CantLoseThisTurn => {
                let turn = self.turn;
                if !self.cant_lose.contains(&(me, turn)) {
                    self.cant_lose.push((me, turn));
                }
            }
            Effect::GainControl(r) => {
                self.char_effect_on(res, *r, CharChange::Control(me), Duration::Indefinite)
            }
            Effect::GainControlUntilEndOfTurn(r) => {
                self.char_effect_on(res, *r, CharChange::Control(me), Duration::EndOfTurn)
            }
            Effect::GainControlWhileYouControlThis(r) => {
                let source = Self::source_of(&res.item);
                if let Some(o) = self.object_of(res, *r)
                    && self.is_on_battlefield(o)
                    && self
                        .obj(source)
                        .is_some_and(|s| s.zone == ZoneKind::Battlefield && s.controller == me)
                {
                    self.add_char_effect(
                        source,
                        me,
                        vec![o],
                        CharChange::Control(me),
                        Duration::WhileYouControlSource,
                    );
                    self.links.push((source, o));
                }
            }
            _ => debug_assert!(false, "not an effect of control and status: {e:?}"),
        }
    }

    /// "Untap X target lands" (Magus of the Candelabra): each target still legal (413.2a).
    fn untap_each_target(&mut self, res: &Resolution) {
        for slot in 0..res.item.targets.len() {
            if let Some(o) = u8::try_from(slot)
                .ok()
                .and_then(|n| self.object_of(res, ObjRef::Target(n)))
            {
                self.untap(o);
            }
        }
    }
}
