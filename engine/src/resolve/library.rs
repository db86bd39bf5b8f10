//! Library and hand (120-121, 401-402): draw, discard, mill, search, reveal.

use super::*;

impl Game {
    /// Resolves one effect of library and hand that may ask a player something first.
    pub(super) fn execute_library(&mut self, res: &mut Resolution, e: &Effect) -> Progress {
        let me = res.item.controller;
        let source = Self::source_of(&res.item);
        match e {
            Effect::Draw { amount, who } => {
                let n = self.amount(res, amount).max(0) as u32;
                for p in self.players_of(res, *who) {
                    self.draw_cards(p, n);
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
                let players = self.players_of(res, *who);
                if *random {
                    for p in players {
                        for _ in 0..n {
                            let hand = self.player(p).hand.clone();
                            if hand.is_empty() {
                                break;
                            }
                            let i = self.rng.random_range(0..hand.len());
                            self.discard(p, hand[i]);
                        }
                    }
                } else {
                    // 413.2d: each player chooses in APNAP order; then all discard at once.
                    for p in players {
                        if res.choices.iter().any(|(q, _)| *q == p) {
                            continue;
                        }
                        let hand = &self.player(p).hand;
                        if hand.len() <= n {
                            res.choices.push((p, hand.clone()));
                        } else {
                            return Progress::Ask(Pending {
                                player: p,
                                decision: Decision::Discard { count: n as u32 },
                            });
                        }
                    }
                    for (p, cards) in std::mem::take(&mut res.choices) {
                        for c in cards {
                            self.discard(p, c);
                        }
                    }
                }
            }
            Effect::Search {
                filter,
                to,
                tapped,
                then_copy,
            } => {
                if res.choices.is_empty() {
                    return Progress::Ask(Pending {
                        player: me,
                        decision: Decision::Search {
                            filter: filter.clone(),
                        },
                    });
                }
                let found = std::mem::take(&mut res.choices);
                let mut moved = Vec::new();
                for (_, objs) in found {
                    for o in objs {
                        let new = match to {
                            ZoneKind::Battlefield => self.put_onto_battlefield(o, me, *tapped),
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
                    };
                    self.set_copy(source, Some((values, crate::copy::CopyUntil::EndOfTurn)));
                }
                self.shuffle_library(me);
            }
            _ => debug_assert!(false, "not an effect of library and hand: {e:?}"),
        }
        Progress::Done
    }

    /// Applies one effect of library and hand that needs no choice.
    pub(super) fn apply_library(&mut self, res: &Resolution, e: &Effect) {
        let me = res.item.controller;
        match e {
            Effect::DiscardHandDrawThatMany { who } => {
                for p in self.players_of(res, *who) {
                    let hand = self.player(p).hand.clone();
                    let n = hand.len() as u32;
                    for c in hand {
                        self.discard(p, c);
                    }
                    self.draw_cards(p, n);
                }
            }
            Effect::DrawRevealDiscardNonland => {
                for card in self.draw_cards(me, 1) {
                    self.emit(Event::Revealed { player: me, card });
                    if !self.has_type(card, CardType::Land) {
                        self.discard(me, card);
                    }
                }
            }
            _ => debug_assert!(false, "not an effect of library and hand: {e:?}"),
        }
    }
}
