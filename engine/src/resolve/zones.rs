//! Zone changes (217 / 400): destroy, exile, return, bounce, sacrifice, counter a spell, linked and delayed returns.

use super::*;

impl Game {
    /// Living End: each player exiles all creature cards from their graveyard, then
    /// sacrifices all creatures they control, then puts the exiled cards onto the battlefield.
    fn living_end(&mut self) {
        let mut exiled = Vec::new();
        for p in self.apnap() {
            let cards: Vec<ObjectId> = self
                .player(p)
                .graveyard
                .iter()
                .copied()
                .filter(|c| self.has_type(*c, CardType::Creature))
                .collect();
            for c in cards {
                let Some(x) = self.move_object(c, ZoneKind::Exile, Position::Top) else {
                    continue;
                };
                // Their "as it enters, choose ..." was asked first (`as_enters.rs`).
                for (e, _) in &mut self.enter_choices {
                    if *e == c {
                        *e = x;
                    }
                }
                exiled.push(x);
            }
        }
        let creatures: Vec<ObjectId> = self
            .battlefield
            .iter()
            .copied()
            .filter(|o| self.is_creature(*o))
            .collect();
        self.begin_batch(&creatures);
        for o in creatures {
            self.sacrifice(o);
        }
        self.end_batch();
        let back: Vec<(ObjectId, PlayerId)> = exiled
            .into_iter()
            .filter(|o| self.obj(*o).is_some_and(|x| x.zone == ZoneKind::Exile))
            .map(|o| (o, self.objects[o.slot()].owner))
            .collect();
        self.put_onto_battlefield_together(&back);
    }

    /// Applies one effect of zones that needs no choice.
    pub(super) fn apply_zones(&mut self, res: &Resolution, e: &Effect) {
        let me = res.item.controller;
        match e {
            Effect::Destroy { what, regen } => {
                if let Some(o) = self.object_of(res, *what) {
                    self.destroy_with(o, *regen);
                }
            }
            Effect::DestroyAll { filter, regen } => {
                let mut all: Vec<ObjectId> = self.permanents_matching(filter, me);
                if filter.other {
                    // "All other creatures": not the source (Desolation Giant).
                    let source = Self::source_of(&res.item);
                    all.retain(|o| *o != source);
                }
                // All at once (the regeneration shields are checked one by one, which is the
                // same thing: each replaces only its own creature's destruction).
                self.begin_batch(&all);
                for o in all {
                    self.destroy_with(o, *regen);
                }
                self.end_batch();
            }
            Effect::LivingEnd => self.living_end(),
            Effect::Exile(r) => {
                // From the battlefield, or a card in a graveyard: the card a dies trigger is
                // about (Cyclopean Giant: only if it is still that object there) or a targeted
                // card (Withered Wretch).
                if let Some(o) = self.object_of(res, *r)
                    && matches!(
                        self.obj(o).map(|x| x.zone),
                        Some(ZoneKind::Battlefield | ZoneKind::Graveyard)
                    )
                {
                    self.move_object(o, ZoneKind::Exile, Position::Top);
                }
            }
            Effect::PutIntoGraveyard(r) => self.put_exiled_into_graveyard(res, *r),
            Effect::ExileHaunting(r) => self.exile_haunting(res, *r),
            Effect::ExileIfDies(r) => {
                if let Some(o) = self.object_of(res, *r)
                    && self.is_on_battlefield(o)
                    && self.is_creature(o)
                {
                    self.add_shield(Shield::ExileIfDies(o));
                }
            }
            Effect::Counter(ObjRef::Target(slot))
            | Effect::CounterLockingSource(ObjRef::Target(slot))
                if matches!(Self::target_at(res, *slot), Some(Target::Ability(_))) =>
            {
                if let Some(Target::Ability(serial)) = Self::target_at(res, *slot) {
                    let lock = matches!(e, Effect::CounterLockingSource(_));
                    self.counter_ability(serial, lock);
                }
            }
            Effect::Counter(r) | Effect::CounterLockingSource(r) => {
                if let Some(o) = self.object_of(res, *r)
                    && let Some(item) = self.stack.iter().find(|s| s.object() == Some(o)).cloned()
                {
                    self.counter_item(&item, false);
                }
            }
            Effect::SacrificeThis { unless_counters } => {
                if let Some(o) = self.object_of(res, ObjRef::This) {
                    let keep = unless_counters
                        .as_ref()
                        .is_some_and(|k| self.obj(o).is_some_and(|x| x.counters.get(k) > 0));
                    if !keep {
                        self.sacrifice(o);
                    }
                }
            }
            Effect::ExileLinked(r) => {
                let source = Self::source_of(&res.item);
                if let Some(o) = self.object_of(res, *r)
                    && self.is_on_battlefield(o)
                    && let Some(new) = self.move_object(o, ZoneKind::Exile, Position::Top)
                {
                    self.links.push((source, new));
                }
            }
            Effect::ExileRandomFromTop { look, exile } => {
                let (n, m) = (self.amount(res, look), self.amount(res, exile));
                self.exile_random_from_top(me, n.max(0) as usize, m.max(0) as usize);
            }
            Effect::ExileAll(f) => {
                let all: Vec<ObjectId> = self.permanents_matching(f, me);
                self.begin_batch(&all);
                for o in all {
                    self.move_object(o, ZoneKind::Exile, Position::Top);
                }
                self.end_batch();
            }
            Effect::PutOnTop(r) => {
                if let Some(o) = self.object_of(res, *r) {
                    self.move_object(o, ZoneKind::Library, Position::Top);
                }
            }
            Effect::ShuffleGraveyardIntoLibrary { who } => {
                for p in self.players_of(res, *who) {
                    let cards = self.player(p).graveyard.clone();
                    for c in cards {
                        self.move_object(c, ZoneKind::Library, Position::Top);
                    }
                    self.shuffle_library(p);
                }
            }
            Effect::ShuffleTargetCardsIntoLibrary { who } => {
                let players = self.players_of(res, *who);
                for slot in 0..res.item.targets.len() {
                    if let Some(Target::Object(o)) = Self::target_at(res, slot as u8)
                        && self.obj(o).is_some_and(|x| {
                            x.zone == ZoneKind::Graveyard && players.contains(&x.owner)
                        })
                    {
                        self.move_object(o, ZoneKind::Library, Position::Top);
                    }
                }
                for p in players {
                    self.shuffle_library(p);
                }
            }
            Effect::ExileGraveyard { who } => {
                for p in self.players_of(res, *who) {
                    let cards = self.player(p).graveyard.clone();
                    for c in cards {
                        self.move_object(c, ZoneKind::Exile, Position::Top);
                    }
                }
            }
            Effect::ExileHandFaceDown { who } => {
                // Face down (2006 217.7b / 2014 406.3): no player may look at them; each
                // is linked to the source for "each card they exiled this way".
                let source = Self::source_of(&res.item);
                for p in self.players_of(res, *who) {
                    let cards = self.player(p).hand.clone();
                    for c in cards {
                        if let Some(new) =
                            self.move_object_as(c, ZoneKind::Exile, Position::Top, true)
                            && self.obj(new).is_some_and(|o| o.zone == ZoneKind::Exile)
                        {
                            self.links.push((source, new));
                        }
                    }
                }
            }
            _ => debug_assert!(false, "not an effect of zones: {e:?}"),
        }
    }

    /// Applies one effect of returns to the battlefield or hand that needs no choice.
    /// "Exile M cards at random from the top N of your library" (Orcish Librarian): the
    /// rest stay where they were.
    fn exile_random_from_top(&mut self, me: PlayerId, n: usize, m: usize) {
        let lib = &self.player(me).library;
        let mut top: Vec<ObjectId> = lib.iter().rev().take(n).copied().collect();
        for _ in 0..m.min(top.len()) {
            let k = self.rng.random_range(0..top.len());
            let o = top.remove(k);
            self.move_object(o, ZoneKind::Exile, Position::Top);
        }
    }

    /// A delayed trigger removing the permanent `r` names later ("sacrifice it at the beginning
    /// of the next end step", "destroy it at end of combat"), if it is on the battlefield now.
    fn schedule_removal(&mut self, res: &Resolution, e: &Effect, r: ObjRef) {
        use crate::triggers::DelayedWhen as W;
        let Some(o) = self
            .object_of(res, r)
            .filter(|o| self.is_on_battlefield(*o))
        else {
            return;
        };
        let when = match e {
            Effect::DestroyAtEndOfCombat(_) => W::EndOfCombatDestroy,
            _ => W::NextEndStepSacrifice,
        };
        let me = res.item.controller;
        let card = self.objects[o.slot()].card;
        self.has_triggers = true;
        self.delayed.push(crate::triggers::DelayedTrigger {
            when,
            source: o,
            card,
            controller: me,
            subject: Some(o),
        });
    }

    /// Delayed abilities set up (Molten Firebird's return, Dragon Whelp's sacrifice,
    /// Cockatrice's and Defiant Vanguard's end of combat, War Barge's "when ~ leaves the
    /// battlefield this turn") and Defiant Vanguard's delayed ability itself.
    fn apply_delayed_destroys(&mut self, res: &Resolution, e: &Effect) {
        let me = res.item.controller;
        match e {
            Effect::ReturnAtNextEndStep(r) => {
                // The card in the graveyard (or exile): if it is still there then, it returns.
                if let Some(o) = self.object_of(res, *r)
                    && self
                        .obj(o)
                        .is_some_and(|x| matches!(x.zone, ZoneKind::Graveyard | ZoneKind::Exile))
                {
                    let card = self.objects[o.slot()].card;
                    self.has_triggers = true;
                    self.delayed.push(crate::triggers::DelayedTrigger {
                        when: crate::triggers::DelayedWhen::NextEndStep,
                        source: o,
                        card,
                        controller: me,
                        subject: Some(o),
                    });
                }
            }
            Effect::SacrificeAtNextEndStep(r) | Effect::DestroyAtEndOfCombat(r) => {
                self.schedule_removal(res, e, *r);
            }
            Effect::DestroyThisAndBlockedAtEndOfCombat => {
                // About the source as it was when it blocked, even if it has left since.
                let source = Self::source_of(&res.item);
                let card = self.objects[source.slot()].card;
                self.has_triggers = true;
                self.delayed.push(crate::triggers::DelayedTrigger {
                    when: crate::triggers::DelayedWhen::EndOfCombatDestroyWithBlocked,
                    source,
                    card,
                    controller: me,
                    subject: Some(source),
                });
            }
            Effect::DestroySubjectAndBlocked => {
                let Some(s) = Self::subject_id(res) else {
                    return;
                };
                let mut all = vec![s];
                all.extend(self.remembered_blocked_by(s));
                all.retain(|o| self.is_on_battlefield(*o));
                all.dedup();
                self.begin_batch(&all);
                for o in all {
                    self.destroy_with(o, true);
                }
                self.end_batch();
            }
            Effect::DestroyWhenThisLeavesThisTurn { what, regen } => {
                // Watched only while the source is still on the battlefield: one that left
                // before the ability resolved never leaves "this turn" again.
                let source = Self::source_of(&res.item);
                if let Some(o) = self.object_of(res, *what)
                    && self.is_on_battlefield(o)
                    && self.is_on_battlefield(source)
                {
                    let card = self.objects[source.slot()].card;
                    self.has_triggers = true;
                    self.delayed.push(crate::triggers::DelayedTrigger {
                        when: crate::triggers::DelayedWhen::SourceLeavesThisTurn {
                            source,
                            regen: *regen,
                        },
                        source,
                        card,
                        controller: me,
                        subject: Some(o),
                    });
                }
            }
            _ => debug_assert!(false, "not a delayed destruction: {e:?}"),
        }
    }

    /// The objects linked to `source` (`Game::links`), the links ended.
    fn take_links(&mut self, source: ObjectId) -> Vec<ObjectId> {
        let linked = self
            .links
            .iter()
            .filter(|(s, _)| *s == source)
            .map(|(_, o)| *o)
            .collect();
        self.links.retain(|(s, _)| *s != source);
        linked
    }

    /// Magus of the Jar: the delayed end-step ability set up, and its return of the cards
    /// linked to the source (`Game::links`) still in exile to their owners' hands.
    fn apply_linked_to_hand(&mut self, res: &Resolution, e: &Effect) {
        let me = res.item.controller;
        match e {
            Effect::ReturnLinkedToHand => {
                // Only the cards still in exile as they were linked (a card that left
                // exile meanwhile is a new object and stays where it is).
                let source = Self::source_of(&res.item);
                for o in self.take_links(source) {
                    if self.obj(o).is_some_and(|x| x.zone == ZoneKind::Exile) {
                        self.move_object(o, ZoneKind::Hand, Position::Top);
                    }
                }
            }
            Effect::DiscardHandsReturnLinkedAtNextEndStep => {
                // About the source as it was (it was sacrificed to pay the cost): its links.
                let source = Self::source_of(&res.item);
                let card = res.item.card;
                self.has_triggers = true;
                self.delayed.push(crate::triggers::DelayedTrigger {
                    when: crate::triggers::DelayedWhen::NextEndStepDiscardReturnLinked,
                    source,
                    card,
                    controller: me,
                    subject: None,
                });
            }
            _ => debug_assert!(false, "not a linked return to the hand: {e:?}"),
        }
    }

    pub(super) fn apply_returns(&mut self, res: &Resolution, e: &Effect) {
        let me = res.item.controller;
        match e {
            Effect::ReturnAtNextEndStep(_)
            | Effect::SacrificeAtNextEndStep(_)
            | Effect::DestroyAtEndOfCombat(_)
            | Effect::DestroyThisAndBlockedAtEndOfCombat
            | Effect::DestroySubjectAndBlocked
            | Effect::DestroyWhenThisLeavesThisTurn { .. } => self.apply_delayed_destroys(res, e),
            Effect::ReturnToHand(r) => {
                if let Some(o) = self.object_of(res, *r) {
                    self.move_object(o, ZoneKind::Hand, Position::Top);
                }
            }
            Effect::ReturnLinkedToBattlefield => {
                let source = Self::source_of(&res.item);
                for o in self.take_links(source) {
                    if self.obj(o).is_some_and(|x| x.zone == ZoneKind::Exile) {
                        let owner = self.objects[o.slot()].owner;
                        self.put_onto_battlefield(o, owner, false);
                    }
                }
            }
            Effect::ReturnLinkedToHand | Effect::DiscardHandsReturnLinkedAtNextEndStep => {
                self.apply_linked_to_hand(res, e);
            }
            Effect::ExileUntilNextEndStep(r) => {
                if let Some(o) = self.object_of(res, *r)
                    && self.is_on_battlefield(o)
                    && let Some(new) = self.move_object(o, ZoneKind::Exile, Position::Top)
                {
                    let card = self.objects[new.slot()].card;
                    self.has_triggers = true;
                    self.delayed.push(crate::triggers::DelayedTrigger {
                        when: crate::triggers::DelayedWhen::NextEndStep,
                        source: new,
                        card,
                        controller: me,
                        subject: Some(new),
                    });
                }
            }
            Effect::ReturnIfDiesThisTurn(r) => {
                if let Some(o) = self.object_of(res, *r)
                    && self.is_on_battlefield(o)
                {
                    let card = self.objects[o.slot()].card;
                    self.has_triggers = true;
                    self.delayed.push(crate::triggers::DelayedTrigger {
                        when: crate::triggers::DelayedWhen::PutIntoYourGraveyardThisTurn(o),
                        source: Self::source_of(&res.item),
                        card,
                        controller: me,
                        subject: None,
                    });
                }
            }
            Effect::ExileAndReturn(r) => {
                if let Some(o) = self.object_of(res, *r)
                    && self.is_on_battlefield(o)
                    && let Some(exiled) = self.move_object(o, ZoneKind::Exile, Position::Top)
                    && self.obj(exiled).is_some_and(|x| x.zone == ZoneKind::Exile)
                {
                    // Its copy choice was asked before it left; it returns as that card.
                    for (c, _) in &mut self.copy_chosen {
                        if *c == o {
                            *c = exiled;
                        }
                    }
                    // So was its "as it enters, choose ..." (`as_enters.rs`).
                    for (c, _) in &mut self.enter_choices {
                        if *c == o {
                            *c = exiled;
                        }
                    }
                    let owner = self.objects[exiled.slot()].owner;
                    self.put_onto_battlefield(exiled, owner, false);
                }
            }
            Effect::ReturnToBattlefield(r) | Effect::ReturnToBattlefieldTapped(r) => {
                if let Some(o) = self.object_of(res, *r)
                    && matches!(
                        self.obj(o).map(|x| x.zone),
                        Some(ZoneKind::Exile | ZoneKind::Graveyard)
                    )
                {
                    let owner = self.objects[o.slot()].owner;
                    let tapped = matches!(e, Effect::ReturnToBattlefieldTapped(_));
                    self.put_onto_battlefield(o, owner, tapped);
                }
            }
            Effect::ReturnToBattlefieldUnderYourControl(r) => {
                if let Some(o) = self.object_of(res, *r)
                    && matches!(
                        self.obj(o).map(|x| x.zone),
                        Some(ZoneKind::Exile | ZoneKind::Graveyard)
                    )
                {
                    self.put_onto_battlefield(o, res.item.controller, false);
                }
            }
            Effect::ReturnUnderYourControlWithType {
                what,
                creature_type,
            } => {
                let me = res.item.controller;
                if let Some(o) = self.object_of(res, *what)
                    && matches!(
                        self.obj(o).map(|x| x.zone),
                        Some(ZoneKind::Exile | ZoneKind::Graveyard)
                    )
                    && let Some(new) = self.put_onto_battlefield(o, me, false)
                    && self.is_creature(new)
                {
                    let source = Self::source_of(&res.item);
                    self.add_char_effect(
                        source,
                        me,
                        vec![new],
                        CharChange::AddCreatureTypes(vec![creature_type.clone()]),
                        Duration::Indefinite,
                    );
                }
            }
            _ => debug_assert!(
                false,
                "not an effect of returns to the battlefield or hand: {e:?}"
            ),
        }
    }

    /// Pull from Eternity: the exiled card goes to its owner's graveyard (from exile only:
    /// its "face-up exiled card"; a suspended card loses its counters with the zone change).
    fn put_exiled_into_graveyard(&mut self, res: &Resolution, r: ObjRef) {
        if let Some(o) = self.object_of(res, r)
            && self.obj(o).is_some_and(|x| x.zone == ZoneKind::Exile)
        {
            self.move_object(o, ZoneKind::Graveyard, Position::Top);
        }
    }

    /// "Return an exiled card named NAME to the battlefield under its owner's control"
    /// (Sengir Nosferatu's Bat): the face-up exiled cards with that name, whoever owns them;
    /// the controller chooses among two or more (`ChooseMode`, each with its owner).
    pub(super) fn return_exiled_card_named(
        &mut self,
        res: &mut Resolution,
        name: &str,
    ) -> Progress {
        let cards: Vec<ObjectId> = self
            .exile
            .iter()
            .copied()
            .filter(|c| {
                self.obj(*c).is_some_and(|o| !o.face_down)
                    && self.def(*c).is_some_and(|d| d.has_name(name))
            })
            .collect();
        let chosen = match (cards.as_slice(), res.option) {
            ([], _) => return Progress::Done,
            ([one], _) => *one,
            (_, Some(i)) => match cards.get(i as usize) {
                Some(c) => *c,
                None => return Progress::Done,
            },
            (_, None) => {
                let options = cards
                    .iter()
                    .map(|c| {
                        let owner = self.objects[c.slot()].owner;
                        format!("{name} (owned by {})", self.player(owner).name)
                    })
                    .collect();
                return Progress::Ask(Pending {
                    player: res.item.controller,
                    decision: Decision::ChooseMode { options },
                });
            }
        };
        let owner = self.objects[chosen.slot()].owner;
        self.put_onto_battlefield(chosen, owner, false);
        Progress::Done
    }
}

#[cfg(test)]
mod tests {
    use crate::decision::{Answer, Decision};
    use crate::ids::PlayerId;
    use crate::zones::{Position, ZoneKind};

    /// Magus of the Jar activated and resolved: Alice's Squire and Lightning Axe, Bob's
    /// Island exiled face down, seven cards drawn each.
    const JAR: &str = r#"
name = "jar"
script = ["alice: activate Magus of the Jar", "resolve"]
[setup]
active = "alice"
step = "precombat_main"
turn = 3
[setup.alice]
hand = ["Squire", "Lightning Axe"]
battlefield = ["Magus of the Jar"]
library = ["Plains", "Plains", "Plains", "Plains", "Plains", "Plains", "Plains", "Plains"]
[setup.bob]
hand = ["Island"]
library = ["Swamp", "Swamp", "Swamp", "Swamp", "Swamp", "Swamp", "Swamp", "Swamp"]
"#;

    /// 2006 217.7b / 2014 406.3: no player may look at a card exiled face down, its owner
    /// neither: no view (nor its JSON, nor its effect lines, nor the events) names it or
    /// carries its card id.
    #[test]
    fn cards_exiled_face_down_are_hidden_from_every_player() {
        let g = crate::scenario::game_from_str(JAR).expect("board");
        let cat = g.catalog();
        let hidden = ["Squire", "Lightning Axe", "Island"];
        let ids: Vec<_> = hidden
            .iter()
            .map(|n| cat.by_name(n).expect("card").id)
            .collect();
        assert_eq!(g.exile.len(), 3);
        for viewer in [Some(PlayerId(0)), Some(PlayerId(1)), None] {
            let v = g.view(viewer);
            assert_eq!(v.exile.len(), 3);
            for c in &v.exile {
                assert_eq!(c.card, cat.face_down());
                assert_eq!(c.name, crate::view::FACE_DOWN_CARD);
                assert!(!ids.contains(&c.card));
            }
            let json = serde_json::to_string(&v).expect("json");
            for name in hidden {
                assert!(!json.contains(name), "{name} named in {viewer:?}'s view");
            }
            assert!(
                v.effects.iter().any(|l| l.contains("(3 in all)")),
                "{:?}",
                v.effects
            );
            for &o in &g.exile {
                assert_eq!(g.seen_name(o, viewer), crate::view::FACE_DOWN_CARD);
                assert_eq!(g.visible_card(o, viewer), cat.face_down());
            }
        }
    }

    /// A card that left exile before the end step is a new object: "each card they exiled
    /// this way" no longer includes it; it stays where it went and the others return. Their
    /// return to the hand reveals nothing.
    #[test]
    fn a_card_that_left_exile_meanwhile_does_not_return() {
        let mut g = crate::scenario::game_from_str(JAR).expect("board");
        let axe = g
            .exile
            .iter()
            .copied()
            .find(|o| g.catalog().get(g.objects[o.slot()].card).name == "Lightning Axe")
            .expect("exiled Axe");
        g.move_object(axe, ZoneKind::Graveyard, Position::Top)
            .expect("moved");
        let mut events = Vec::new();
        while g.turn == 3 {
            let p = g.pending().expect("a decision");
            assert_eq!(p.decision, Decision::Priority, "{p:?}");
            let who = p.player;
            events.extend(g.submit(who, Answer::Pass).expect("pass"));
        }
        let alice = g.player(PlayerId(0));
        let names = |ids: &[crate::ids::ObjectId]| {
            let mut v: Vec<String> = ids.iter().map(|o| g.card_name(*o).to_string()).collect();
            v.sort();
            v
        };
        assert_eq!(names(&alice.hand), ["Squire"]);
        let gy = names(&alice.graveyard);
        assert_eq!(gy.iter().filter(|n| *n == "Plains").count(), 7);
        assert!(gy.contains(&"Lightning Axe".to_string()), "{gy:?}");
        assert!(g.exile.is_empty());
        assert!(g.links.is_empty());
        assert_eq!(names(&g.player(PlayerId(1)).hand), ["Island"]);
        assert!(
            !events
                .iter()
                .any(|e| matches!(e, crate::events::Event::Revealed { .. })),
            "{events:?}"
        );
    }
}
