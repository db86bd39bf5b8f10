//! Library and hand (120-121, 401-402): draw, discard, mill, search, reveal.

use super::*;

impl Game {
    /// "<player> may draw up to N cards" (Shah of Naar Isle: each opponent): each such
    /// player in turn order chooses how many, 0 to `max` (a `ChooseMode`), and draws them
    /// (dredge may replace each draw). `res.choices` keeps who has chosen.
    pub(super) fn execute_draw_up_to(
        &mut self,
        res: &mut Resolution,
        max: u32,
        who: PlayerRef,
    ) -> Progress {
        loop {
            if res.draws.is_some() {
                if let Some(q) = self.draws_asking(res) {
                    return Progress::Ask(q);
                }
                res.draws = None;
            }
            let next = self
                .players_of(res, who)
                .into_iter()
                .find(|p| !res.choices.iter().any(|(q, _)| q == p));
            let Some(p) = next else {
                return Progress::Done;
            };
            let Some(n) = res.option.take() else {
                let options = (0..=max)
                    .map(|n| match n {
                        0 => "draw no cards".to_string(),
                        1 => "draw 1 card".to_string(),
                        n => format!("draw {n} cards"),
                    })
                    .collect();
                return Progress::Ask(Pending {
                    player: p,
                    decision: Decision::ChooseMode { options },
                });
            };
            res.choices.push((p, Vec::new()));
            res.draws = Some(vec![(p, u32::from(n))]);
        }
    }

    /// Discarding whole hands, or down to the smallest hand (Wheel of Fate, Restore
    /// Balance): each player chooses in APNAP order, then madness asks, then all discard.
    pub(super) fn execute_hand_discards(&mut self, res: &mut Resolution, e: &Effect) -> Progress {
        match e {
            Effect::BalanceDiscard => {
                // Restore Balance: each player discards down to the smallest hand, choosing.
                let players = self.apnap();
                let fewest = players
                    .iter()
                    .filter(|p| self.player(**p).in_game())
                    .map(|p| self.player(*p).hand.len())
                    .min()
                    .unwrap_or(0);
                for p in players {
                    let n = self.player(p).hand.len().saturating_sub(fewest);
                    if let Some(ask) = self.plan_discard(res, p, n, false) {
                        return Progress::Ask(ask);
                    }
                }
                return self.discard_chosen(res);
            }
            Effect::DiscardHand { who } => {
                // "Each player discards their hand" (madness may ask for each card).
                if res.choices.is_empty() {
                    for p in self.players_of(res, *who) {
                        let hand = self.player(p).hand.clone();
                        res.choices.push((p, hand));
                    }
                }
                return self.discard_chosen(res);
            }
            Effect::VoidNumber { who } => return self.execute_void_number(res, *who),
            _ => debug_assert!(false, "not a hand discard: {e:?}"),
        }
        Progress::Done
    }

    /// Void: the number is chosen as it resolves (`ChooseMode`, "0" to "20": no card of the
    /// block costs more); then every artifact and creature with that mana value is destroyed
    /// at once, and the player reveals their hand and discards each nonland card with it
    /// (a split card matches if either half does, 505.6 / 708.6; madness may ask).
    fn execute_void_number(&mut self, res: &mut Resolution, who: PlayerRef) -> Progress {
        if res.choices.is_empty() {
            let Some(n) = res.option else {
                return Progress::Ask(Pending {
                    player: res.item.controller,
                    decision: Decision::ChooseMode {
                        options: (0..=20).map(|n: u32| n.to_string()).collect(),
                    },
                });
            };
            let n = u32::from(n);
            let has_n = |g: &Game, id: ObjectId| {
                g.def(id).is_some_and(|d| d.mana_value_matches(|v| v == n))
            };
            let doomed: Vec<ObjectId> = self
                .battlefield
                .iter()
                .copied()
                .filter(|o| {
                    (self.has_type(*o, CardType::Artifact) || self.is_creature(*o))
                        && has_n(self, *o)
                })
                .collect();
            self.begin_batch(&doomed);
            for o in doomed {
                self.destroy(o);
            }
            self.end_batch();
            for p in self.players_of(res, who) {
                let hand = self.player(p).hand.clone();
                for &card in &hand {
                    self.emit(Event::Revealed { player: p, card });
                }
                let picks: Vec<ObjectId> = hand
                    .into_iter()
                    .filter(|c| !self.has_type(*c, CardType::Land) && has_n(self, *c))
                    .collect();
                res.choices.push((p, picks));
            }
            if res.choices.is_empty() {
                return Progress::Done;
            }
        }
        self.discard_chosen(res)
    }

    /// Plans player `p`'s discard of `n` cards (413.2d) into `res.choices`: nothing to
    /// plan if they already chose; the whole hand when `n` covers it; `n` cards at random
    /// when `random`; otherwise the question to ask them.
    fn plan_discard(
        &mut self,
        res: &mut Resolution,
        p: PlayerId,
        n: usize,
        random: bool,
    ) -> Option<Pending> {
        if res.choices.iter().any(|(q, _)| *q == p) {
            return None;
        }
        let mut hand = self.player(p).hand.clone();
        if random {
            let mut picked = Vec::new();
            for _ in 0..n.min(hand.len()) {
                let i = self.rng.random_range(0..hand.len());
                picked.push(hand.remove(i));
            }
            res.choices.push((p, picked));
        } else if n == 0 {
            res.choices.push((p, Vec::new()));
        } else if hand.len() <= n {
            res.choices.push((p, hand));
        } else {
            return Some(Pending {
                player: p,
                decision: Decision::Discard { count: n as u32 },
            });
        }
        None
    }

    /// Resolves one effect of library and hand that may ask a player something first.
    pub(super) fn execute_library(&mut self, res: &mut Resolution, e: &Effect) -> Progress {
        let me = res.item.controller;
        match e {
            Effect::Draw { amount, who } => {
                // Each draw may be replaced by dredge (`keywords/dredge.rs`).
                if res.draws.is_none() {
                    let n = self.amount(res, amount).max(0) as u32;
                    let plan = self.players_of(res, *who).into_iter().map(|p| (p, n));
                    res.draws = Some(plan.collect());
                }
                if let Some(q) = self.draws_asking(res) {
                    return Progress::Ask(q);
                }
            }
            Effect::Mill { amount, who } => {
                let n = self.amount(res, amount).max(0);
                for p in self.players_of(res, *who) {
                    for _ in 0..n {
                        if let Some(&top) = self.player(p).library.last() {
                            self.move_object(top, ZoneKind::Graveyard, Position::Top);
                        }
                    }
                }
            }
            Effect::Discard {
                amount,
                who,
                random,
            } => {
                let n = self.amount(res, amount).max(0) as usize;
                // 413.2d: each player chooses in APNAP order (or the cards are picked at
                // random); then madness asks about its cards; then all discard at once.
                for p in self.players_of(res, *who) {
                    if let Some(ask) = self.plan_discard(res, p, n, *random) {
                        return Progress::Ask(ask);
                    }
                }
                return self.discard_chosen(res);
            }
            Effect::DiscardHandDrawThatMany { who } => {
                // "Discards all the cards in their hand, then draws that many." The draws
                // are planned once the discards are done (madness may ask first, dredge
                // then).
                if res.draws.is_none() {
                    if res.choices.is_empty() {
                        for p in self.players_of(res, *who) {
                            let hand = self.player(p).hand.clone();
                            res.choices.push((p, hand));
                        }
                    }
                    let counts: Vec<(PlayerId, u32)> = res
                        .choices
                        .iter()
                        .map(|(p, c)| (*p, c.len() as u32))
                        .collect();
                    if let Progress::Ask(p) = self.discard_chosen(res) {
                        return Progress::Ask(p);
                    }
                    res.draws = Some(counts);
                }
                if let Some(q) = self.draws_asking(res) {
                    return Progress::Ask(q);
                }
            }
            Effect::RevealForX(filter) => {
                // "You may reveal X <filter> cards in your hand": X is how many.
                let Some(i) = res.choices.iter().position(|(p, _)| *p == me) else {
                    return Progress::Ask(Pending {
                        player: me,
                        decision: Decision::Reveal {
                            filter: filter.clone(),
                        },
                    });
                };
                let (_, cards) = res.choices.remove(i);
                res.item.x = cards.len() as u32;
                for card in cards {
                    self.emit(Event::Revealed { player: me, card });
                }
            }
            Effect::RevealChroma(color) => {
                if let Some(ask) = self.reveal_chroma(res, *color) {
                    return ask;
                }
            }
            Effect::DrawRevealDiscardNonland => {
                // The card drawn is kept while madness asks (an answer runs this again);
                // dredge may replace the draw (nothing is revealed then).
                if res.choices.is_empty() {
                    if res.draws.is_none() {
                        res.draws = Some(vec![(me, 1)]);
                    }
                    if let Some(q) = self.draws_asking(res) {
                        return Progress::Ask(q);
                    }
                    let mut to_discard = Vec::new();
                    for card in std::mem::take(&mut res.drawn) {
                        self.emit(Event::Revealed { player: me, card });
                        if !self.has_type(card, CardType::Land) {
                            to_discard.push(card);
                        }
                    }
                    res.choices.push((me, to_discard));
                }
                return self.discard_chosen(res);
            }
            Effect::Scry(n) | Effect::Fateseal(n) | Effect::ReorderTop(n) => {
                return self.execute_scry(res, e, n);
            }
            Effect::RevealRandomDamage(who) => self.reveal_random_damage(res, *who),
            Effect::RevealTop(filter) => self.reveal_top(res, filter.as_ref()),
            Effect::RevealTopNamesakeToGraveyardElseDraw => {
                // The draw (dredge may ask) runs again after an answer: the reveal is done
                // once, when no draw is planned yet.
                if res.draws.is_none() && !self.reveal_top_namesake_to_graveyard(me) {
                    res.draws = Some(vec![(me, 1)]);
                }
                if let Some(q) = self.draws_asking(res) {
                    return Progress::Ask(q);
                }
            }
            Effect::ChooseRevealedToBottom(who) => {
                return self.choose_revealed_to_bottom(res, *who);
            }
            Effect::Search { .. }
            | Effect::SearchReveal(..)
            | Effect::SearchSameManaValue { .. } => return self.execute_search(res, e),
            Effect::SearchExilePlayable { who } => return self.search_exile_playable(res, *who),
            _ => debug_assert!(false, "not an effect of library and hand: {e:?}"),
        }
        Progress::Done
    }

    /// Scry, fateseal and `reorder_top` (`keywords/scry.rs`): ask, then put the cards back
    /// as answered.
    fn execute_scry(&mut self, res: &mut Resolution, e: &Effect, n: &Amount) -> Progress {
        let me = res.item.controller;
        let library = match e {
            Effect::Scry(_) | Effect::ReorderTop(_) => Some(me),
            _ => match self.fateseal_choice(me, res.option) {
                Ok(l) => l,
                Err(ask) => return Progress::Ask(*ask),
            },
        };
        let Some(library) = library else {
            return Progress::Done;
        };
        if let [(p, top), (_, bottom)] = res.choices.as_slice() {
            let (p, top, bottom) = (*p, top.clone(), bottom.clone());
            self.arrange_scry(p, library, &top, &bottom);
            return Progress::Done;
        }
        let n = self.amount(res, n).max(0) as u32;
        let cards = self.scry_cards(library, n);
        if cards.is_empty() {
            return Progress::Done;
        }
        Progress::Ask(self.scry_or_reorder_question(me, library, cards, e))
    }

    /// The scry question of `e`: `reorder_top`'s puts every card back on top (`top_only`).
    fn scry_or_reorder_question(
        &self,
        me: PlayerId,
        library: PlayerId,
        cards: Vec<ObjectId>,
        e: &Effect,
    ) -> Pending {
        let mut q = self.scry_question(me, library, cards);
        if let (Effect::ReorderTop(_), Decision::Scry { top_only, .. }) = (e, &mut q.decision) {
            *top_only = true;
        }
        q
    }

    /// Ignite Memories: each such player reveals a card at random from their hand (chosen
    /// once, kept in `res.choices`), then is dealt damage equal to its mana value by the
    /// source (a split card's halves counted together, as `CardDef::mana_value`).
    pub(super) fn reveal_random_damage(&mut self, res: &mut Resolution, who: PlayerRef) {
        let source = Self::source_of(&res.item);
        for p in self.players_of(res, who) {
            if res.choices.iter().any(|(q, _)| *q == p) {
                continue;
            }
            let hand = self.player(p).hand.clone();
            if hand.is_empty() {
                res.choices.push((p, Vec::new()));
                continue;
            }
            let card = hand[self.rng.random_range(0..hand.len())];
            res.choices.push((p, vec![card]));
            self.emit(Event::Revealed { player: p, card });
            let n = self.def(card).map_or(0, |d| d.mana_value());
            self.deal_damage(source, Target::Player(p), n, false);
        }
    }

    /// "Reveal the top card of your library" (`Effect::RevealTop`, after a scry): X becomes
    /// its mana value for the effects after it (0 with an empty library: nothing is
    /// revealed); with a filter, the card goes to the hand if it is such a card (by its
    /// printed characteristics, 505.6 / 708.6 for a split card's two halves alike).
    pub(super) fn reveal_top(&mut self, res: &mut Resolution, to_hand_if: Option<&ObjectFilter>) {
        let me = res.item.controller;
        let Some(card) = self.player(me).library.last().copied() else {
            res.item.x = 0;
            return;
        };
        self.emit(Event::Revealed { player: me, card });
        res.item.x = self.def(card).map_or(0, |d| d.mana_value());
        if let Some(f) = to_hand_if
            && self.card_matches(card, f)
        {
            self.move_object(card, ZoneKind::Hand, Position::Top);
        }
    }

    /// Candles of Leng's reveal: the top card of `me`'s library is revealed and, if it has
    /// the same name as a card in their graveyard, put into that graveyard (true). False
    /// when it stays on top (the caller then draws), or with an empty library.
    fn reveal_top_namesake_to_graveyard(&mut self, me: PlayerId) -> bool {
        let Some(card) = self.player(me).library.last().copied() else {
            return false;
        };
        self.emit(Event::Revealed { player: me, card });
        let Some(def) = self.def(card) else {
            return false;
        };
        let namesake = self
            .player(me)
            .graveyard
            .iter()
            .filter_map(|g| self.def(*g))
            .any(|g| g.shares_name_with(def));
        if namesake {
            self.move_object(card, ZoneKind::Graveyard, Position::Top);
        }
        namesake
    }

    /// Psychotic Episode: the controller chooses among the player's hand and the top card of
    /// their library (`ChooseMode`, hand first, then the top card); the chosen card goes to
    /// the bottom of its owner's library.
    pub(super) fn choose_revealed_to_bottom(
        &mut self,
        res: &mut Resolution,
        who: PlayerRef,
    ) -> Progress {
        let Some(p) = self.players_of(res, who).into_iter().next() else {
            return Progress::Done;
        };
        let mut cards = self.player(p).hand.clone();
        if let Some(top) = self.player(p).library.last() {
            cards.push(*top);
        }
        if cards.is_empty() {
            return Progress::Done;
        }
        let Some(i) = res.option else {
            let top = self.player(p).library.last().copied();
            for c in &cards {
                self.emit(Event::Revealed {
                    player: p,
                    card: *c,
                });
            }
            let options = cards
                .iter()
                .map(|c| {
                    let name = self.card_name(*c).to_string();
                    if Some(*c) == top {
                        format!("{name} (the top card of the library)")
                    } else {
                        name
                    }
                })
                .collect();
            return Progress::Ask(Pending {
                player: res.item.controller,
                decision: Decision::ChooseMode { options },
            });
        };
        if let Some(c) = cards.get(i as usize) {
            self.move_object(*c, ZoneKind::Library, Position::Bottom);
        }
        Progress::Done
    }

    /// Library searches: ask for the card, then move it, reveal it if the effect says so,
    /// and shuffle.
    fn execute_search(&mut self, res: &mut Resolution, e: &Effect) -> Progress {
        let me = res.item.controller;
        let source = Self::source_of(&res.item);
        match e {
            Effect::Search {
                filter,
                to,
                tapped,
                then_copy,
                up_to,
                under,
            } => {
                if res.choices.is_empty() {
                    return Progress::Ask(Pending {
                        player: me,
                        decision: Decision::Search {
                            filter: filter.clone(),
                            mana_value: None,
                            up_to: *up_to,
                            library: None,
                        },
                    });
                }
                let found = std::mem::take(&mut res.choices);
                let controller = self.search_controller(res, *under);
                let mut moved = Vec::new();
                for (_, objs) in found {
                    for o in objs {
                        let new = match to {
                            ZoneKind::Battlefield => {
                                self.put_onto_battlefield(o, controller, *tapped)
                            }
                            _ => self.move_object(o, *to, Position::Top),
                        };
                        moved.extend(new);
                    }
                }
                // Scion of the Ur-Dragon: "If you do, ~ becomes a copy of that card until end
                // of turn" (the card's own values: it is not a copy of anything).
                if *then_copy
                    && let [card] = moved.as_slice()
                    && self.is_on_battlefield(source)
                {
                    let values = crate::copy::CopiableValues {
                        card: self.objects[card.slot()].card,
                        shapeshifter_trigger: false,
                        pt: None,
                    };
                    self.set_copy(source, Some((values, crate::copy::CopyUntil::EndOfTurn)));
                }
                self.shuffle_library(me);
            }
            Effect::SearchSameManaValue { filter, to, reveal } => {
                // Transmute, transfigure (`keywords/transmute.rs`): the mana value of the
                // card the ability comes from (its printed card; it has left its zone).
                if res.choices.is_empty() {
                    let mana_value = self.catalog().get(res.item.card).mana_value();
                    return Progress::Ask(Pending {
                        player: me,
                        decision: Decision::Search {
                            filter: filter.clone(),
                            mana_value: Some(mana_value),
                            up_to: 1,
                            library: None,
                        },
                    });
                }
                for (_, objs) in std::mem::take(&mut res.choices) {
                    for o in objs {
                        let new = match to {
                            ZoneKind::Battlefield => self.put_onto_battlefield(o, me, false),
                            _ => self.move_object(o, *to, Position::Top),
                        };
                        if *reveal && let Some(card) = new {
                            self.emit(Event::Revealed { player: me, card });
                        }
                    }
                }
                self.shuffle_library(me);
            }
            Effect::SearchReveal(filter) => {
                // Typecycling: "search your library for a [type] card, reveal it, put it
                // into your hand, then shuffle" (`keywords/cycling.rs`).
                if res.choices.is_empty() {
                    return Progress::Ask(Pending {
                        player: me,
                        decision: Decision::Search {
                            filter: filter.clone(),
                            mana_value: None,
                            up_to: 1,
                            library: None,
                        },
                    });
                }
                for (_, objs) in std::mem::take(&mut res.choices) {
                    for o in objs {
                        if let Some(card) = self.move_object(o, ZoneKind::Hand, Position::Top) {
                            self.emit(Event::Revealed { player: me, card });
                        }
                    }
                }
                self.shuffle_library(me);
            }
            _ => debug_assert!(false, "not a library search: {e:?}"),
        }
        Progress::Done
    }

    /// Grinning Totem (`Effect::SearchExilePlayable`): its controller searches the player's
    /// library for a card (any card; one must be found when the library isn't empty,
    /// R-grinning-totem-1) and exiles it; that player shuffles; the controller may play the
    /// card until their next upkeep (`play_permission.rs`). An empty library: nothing is
    /// found, and the player still shuffles.
    fn search_exile_playable(&mut self, res: &mut Resolution, who: PlayerRef) -> Progress {
        let me = res.item.controller;
        let Some(&owner) = self.players_of(res, who).first() else {
            return Progress::Done;
        };
        if res.choices.is_empty() && !self.player(owner).library.is_empty() {
            return Progress::Ask(Pending {
                player: me,
                decision: Decision::Search {
                    filter: crate::targets::ObjectFilter::default(),
                    mana_value: None,
                    up_to: 1,
                    library: Some(owner),
                },
            });
        }
        let source = Self::source_of(&res.item);
        for (_, objs) in std::mem::take(&mut res.choices) {
            for o in objs {
                if let Some(exiled) = self.move_object(o, ZoneKind::Exile, Position::Top) {
                    self.grant_exile_play(exiled, me, source, res.item.card);
                }
            }
        }
        self.shuffle_library(owner);
        Progress::Done
    }

    /// The player a search's card enters the battlefield under: `under=PLAYER` (Yavimaya
    /// Dryad's target player), else the searching player.
    pub(crate) fn search_controller(&self, res: &Resolution, under: Option<PlayerRef>) -> PlayerId {
        under
            .and_then(|r| self.players_of(res, r).first().copied())
            .unwrap_or(res.item.controller)
    }

    /// Discards the cards chosen for the current effect (`res.choices`) at once, after
    /// madness's questions about them (`keywords/madness.rs`).
    /// "<Who> discards their hand" (Nicol Bolas): every card of each such hand at once
    /// (madness may ask about each).
    fn discard_chosen(&mut self, res: &mut Resolution) -> Progress {
        let cards: Vec<(PlayerId, ObjectId)> = res
            .choices
            .iter()
            .flat_map(|(p, cs)| cs.iter().map(move |c| (*p, *c)))
            .collect();
        if let Some(p) = self.discard_all_asking(&cards) {
            return Progress::Ask(p);
        }
        res.choices.clear();
        Progress::Done
    }

    /// The cards Mishra's trigger may find: the controller's cards with the same name as
    /// the trigger's subject spell (its card, as cast), in their graveyard, hand and
    /// library, each with the words naming where it is.
    fn same_name_candidates(&self, res: &Resolution) -> Vec<(ObjectId, &'static str)> {
        let me = res.item.controller;
        let StackKind::Trigger {
            subject: Some(spell),
            ..
        } = res.item.kind
        else {
            return Vec::new();
        };
        let name = self.catalog().get(self.objects[spell.slot()].card);
        let p = self.player(me);
        let zones: [(&[ObjectId], &'static str); 3] = [
            (&p.graveyard, "from your graveyard"),
            (&p.hand, "from your hand"),
            (&p.library, "from your library, then shuffle"),
        ];
        zones
            .iter()
            .flat_map(|(cards, words)| cards.iter().map(move |c| (*c, *words)))
            .filter(|(c, _)| self.def(*c).is_some_and(|d| d.shares_name_with(name)))
            .collect()
    }

    /// Mishra, Artificer Prodigy: one question (`ChooseMode`): search nothing, search the
    /// library and find nothing (it is shuffled), or one of the cards with the spell's name
    /// in the graveyard, hand or library (a card from the library: then shuffle; a card
    /// from elsewhere may come with a search of the library too, and a shuffle). The others
    /// see only that a search is asked (`view.rs`).
    pub(super) fn search_zones_for_same_name(&mut self, res: &mut Resolution) -> Progress {
        let me = res.item.controller;
        let mut picks: Vec<(Option<ObjectId>, bool, String)> = vec![
            (None, false, "search nothing".into()),
            (
                None,
                true,
                "search your library, find nothing, and shuffle".into(),
            ),
        ];
        for (c, words) in self.same_name_candidates(res) {
            let name = self.card_name(c).to_string();
            let from_library = words.contains("library");
            picks.push((Some(c), from_library, format!("{name} {words}")));
            if !from_library {
                picks.push((
                    Some(c),
                    true,
                    format!("{name} {words}, and shuffle your searched library"),
                ));
            }
        }
        let Some(i) = res.option else {
            return Progress::Ask(Pending {
                player: me,
                decision: Decision::ChooseMode {
                    options: picks.into_iter().map(|(_, _, w)| w).collect(),
                },
            });
        };
        let Some((card, shuffle, _)) = picks.get(i as usize).cloned() else {
            return Progress::Done;
        };
        if let Some(c) = card {
            self.put_onto_battlefield(c, me, false);
        }
        if shuffle {
            self.shuffle_library(me);
        }
        Progress::Done
    }
}
