//! Separating cards into piles (2014 rules 700.3; Truth or Tale): "Reveal the top five
//! cards of your library and separate them into two piles. An opponent chooses one of those
//! piles. Put a card from the chosen pile into your hand, then put all other cards revealed
//! this way on the bottom of your library in any order." (R-truth-or-tale-1.)
//!
//! - The controller separates the revealed cards (`Decision::SeparatePiles`, answered with
//!   the first pile's cards; either pile may be empty, 700.3a-b).
//! - With several opponents in the game, the controller chooses which one chooses the pile
//!   (`ChooseMode`, one option an opponent; the ruling's step 3). With one, it is that one.
//! - The opponent chooses a pile (`ChooseMode`, each pile listed with its cards; the
//!   revealed cards are public).
//! - The controller chooses a card of that pile (`ChooseMode`, asked with two or more; an
//!   empty pile gives none) and puts it into their hand.
//! - The other revealed cards go to the bottom of the library in the order the controller
//!   chooses (`Decision::Scry` with `bottom_only`, asked with two or more).

use super::*;

/// The piles of the resolving effect, kept between its questions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Piles {
    /// The revealed cards, top first.
    revealed: Vec<ObjectId>,
    /// The first pile (the second is the rest of `revealed`).
    first: Vec<ObjectId>,
    /// The opponent who chooses the pile, once known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    chooser: Option<PlayerId>,
    /// The pile the opponent chose (0 or 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    chosen: Option<u8>,
    /// The card put into the hand has been chosen (and moved).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    taken: bool,
}

impl Piles {
    fn pile(&self, which: u8) -> Vec<ObjectId> {
        self.revealed
            .iter()
            .copied()
            .filter(|c| self.first.contains(c) == (which == 0))
            .collect()
    }
}

impl Game {
    /// Truth or Tale's effect, one question at a time (each answer runs it again).
    pub(super) fn execute_piles(&mut self, res: &mut Resolution, n: &Amount) -> Progress {
        let me = res.item.controller;
        let Some(mut piles) = res.piles.take() else {
            let n = self.amount(res, n).max(0) as u32;
            let revealed = self.scry_cards(me, n);
            if revealed.is_empty() {
                return Progress::Done;
            }
            if let Some(i) = res.choices.iter().position(|(p, _)| *p == me) {
                let (_, first) = res.choices.remove(i);
                res.piles = Some(Piles {
                    revealed,
                    first,
                    chooser: None,
                    chosen: None,
                    taken: false,
                });
                return self.execute_piles(res, &Amount::Fixed(0));
            }
            for &card in &revealed {
                self.emit(Event::Revealed { player: me, card });
            }
            let names = revealed
                .iter()
                .map(|c| self.card_name(*c).to_string())
                .collect();
            return Progress::Ask(Pending {
                player: me,
                decision: Decision::SeparatePiles {
                    cards: revealed,
                    names,
                },
            });
        };
        let step = self.piles_step(res, &mut piles);
        res.piles = Some(piles);
        step
    }

    /// The piles' next question, or the rest of the effect once every answer is in.
    fn piles_step(&mut self, res: &mut Resolution, piles: &mut Piles) -> Progress {
        let me = res.item.controller;
        if piles.chooser.is_none() {
            let opponents: Vec<PlayerId> = self
                .opponents(me)
                .into_iter()
                .filter(|p| self.player(*p).in_game())
                .collect();
            piles.chooser = match (opponents.as_slice(), res.option.take()) {
                ([], _) => return Progress::Done,
                ([one], _) => Some(*one),
                (_, Some(k)) => opponents.get(k as usize).copied(),
                (_, None) => {
                    let options = opponents
                        .iter()
                        .map(|p| {
                            format!(
                                "{} chooses the pile",
                                self.describe_target(Target::Player(*p))
                            )
                        })
                        .collect();
                    return Progress::Ask(Pending {
                        player: me,
                        decision: Decision::ChooseMode { options },
                    });
                }
            };
        }
        if piles.chosen.is_none() {
            match res.option.take() {
                Some(k) => piles.chosen = Some(k.min(1)),
                None => return self.pile_question(piles),
            }
        }
        if !piles.taken {
            let pile = piles.pile(piles.chosen.unwrap_or(0));
            let card = match (pile.as_slice(), res.option.take()) {
                ([], _) => None,
                ([one], _) => Some(*one),
                (_, Some(i)) => pile.get(i as usize).copied(),
                (_, None) => {
                    let options = pile
                        .iter()
                        .map(|c| self.card_name(*c).to_string())
                        .collect();
                    return Progress::Ask(Pending {
                        player: me,
                        decision: Decision::ChooseMode { options },
                    });
                }
            };
            piles.taken = true;
            if let Some(c) = card {
                self.move_object(c, ZoneKind::Hand, Position::Top);
                piles.revealed.retain(|x| *x != c);
            }
        }
        let rest: Vec<ObjectId> = piles
            .revealed
            .iter()
            .copied()
            .filter(|c| self.player(me).library.contains(c))
            .collect();
        let bottom = match (rest.len(), res.choices.as_slice()) {
            (0 | 1, _) => rest,
            (_, [(_, top), (_, bottom)]) if top.is_empty() => bottom.clone(),
            _ => {
                let mut q = self.scry_question(me, me, rest);
                if let Decision::Scry { bottom_only, .. } = &mut q.decision {
                    *bottom_only = true;
                }
                return Progress::Ask(q);
            }
        };
        self.put_on_bottom_in_order(me, &bottom);
        Progress::Done
    }

    /// The chosen opponent chooses one of the two piles.
    fn pile_question(&self, piles: &Piles) -> Progress {
        let Some(opponent) = piles.chooser else {
            return Progress::Done;
        };
        let describe = |cards: Vec<ObjectId>| {
            if cards.is_empty() {
                "no cards".to_string()
            } else {
                cards
                    .iter()
                    .map(|c| self.card_name(*c).to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        Progress::Ask(Pending {
            player: opponent,
            decision: Decision::ChooseMode {
                options: vec![
                    format!("pile 1: {}", describe(piles.pile(0))),
                    format!("pile 2: {}", describe(piles.pile(1))),
                ],
            },
        })
    }
}
