//! Scry (keyword action; 2014 rules 701.18; in the 2006 rules a keyword action since Fifth
//! Dawn, its text absent from the seeds, with the same meaning) and fateseal (2014 rules
//! 701.19, Future Sight). Both rulesets play them alike.
//!
//! - "To scry N means to look at the top N cards of your library, then put any number of
//!   them on the bottom of your library in any order and the rest on top of your library
//!   in any order" (701.18a).
//! - "To fateseal N means to look at the top N cards of an opponent's library, then put any
//!   number of them on the bottom of that player's library in any order and the rest on
//!   top of that library in any order" (701.19a). The player who fateseals decides; the
//!   library's owner sees only how many went where.
//! - A library with fewer than N cards: the player looks at all of them; an empty library:
//!   nothing happens and nothing is asked (the effect does nothing).
//!
//! The effects `scry N` / `fateseal N` ([`crate::effects::Effect::Scry`] /
//! [`crate::effects::Effect::Fateseal`]) ask [`Decision::Scry`] with the cards looked at,
//! top first; the answer [`Answer::Scry`] lists the cards for the top (the first listed
//! becomes the top card) and the cards for the bottom (the last listed becomes the bottom
//! card), each looked-at card exactly once. With several opponents, the player who
//! fateseals first chooses whose library (a `ChooseMode` question, `Answer::Mode`, asked
//! as it resolves: [`Game::fateseal_choice`]); with one, that opponent's.

use crate::decision::{Answer, Decision, Pending, RuleError};
use crate::game::Game;
use crate::ids::{ObjectId, PlayerId};

impl Game {
    /// The cards scry or fateseal `n` looks at: the top `n` of `library`'s owner's library
    /// (fewer if it has fewer), top first.
    pub(crate) fn scry_cards(&self, library: PlayerId, n: u32) -> Vec<ObjectId> {
        self.player(library)
            .library
            .iter()
            .rev()
            .take(n as usize)
            .copied()
            .collect()
    }

    /// The opponents still in the game whose library `player` may fateseal, in turn order.
    pub(crate) fn fateseal_opponents(&self, player: PlayerId) -> Vec<PlayerId> {
        self.opponents(player)
            .into_iter()
            .filter(|p| self.player(*p).in_game())
            .collect()
    }

    /// Whose library `player` fateseals: the only opponent, or the one they chose (`choice`,
    /// an answer to the `ChooseMode` question this asks when there are several: "an
    /// opponent's library", 701.19a); `None` with no opponent left.
    pub(crate) fn fateseal_choice(
        &self,
        player: PlayerId,
        choice: Option<u8>,
    ) -> Result<Option<PlayerId>, Box<Pending>> {
        let opponents = self.fateseal_opponents(player);
        if opponents.len() < 2 {
            return Ok(opponents.first().copied());
        }
        match choice {
            Some(i) => Ok(opponents.get(i as usize).copied()),
            None => Err(Box::new(Pending {
                player,
                decision: Decision::ChooseMode {
                    options: opponents
                        .iter()
                        .map(|p| format!("fateseal {}'s library", self.player(*p).name))
                        .collect(),
                },
            })),
        }
    }

    /// The scry (or fateseal) question for `player` about `cards` of `library`.
    pub(crate) fn scry_question(
        &self,
        player: PlayerId,
        library: PlayerId,
        cards: Vec<ObjectId>,
    ) -> Pending {
        let names = cards
            .iter()
            .map(|c| self.card_name(*c).to_string())
            .collect();
        Pending {
            player,
            decision: Decision::Scry {
                library,
                fateseal: library != player,
                cards,
                names,
                top_only: false,
                bottom_only: false,
            },
        }
    }

    /// Checks a scry answer: `top` and `bottom` together name each card of `cards` once.
    pub(crate) fn check_scry(
        &self,
        cards: &[ObjectId],
        top: &[ObjectId],
        bottom: &[ObjectId],
    ) -> Result<(), RuleError> {
        let all: Vec<ObjectId> = top.iter().chain(bottom).copied().collect();
        for (i, o) in all.iter().enumerate() {
            if !cards.contains(o) {
                return Err(RuleError::illegal(format!(
                    "{} is not one of the cards you are looking at",
                    self.card_name(*o)
                )));
            }
            if all[..i].contains(o) {
                return Err(RuleError::illegal(format!(
                    "{} is placed twice",
                    self.card_name(*o)
                )));
            }
        }
        if all.len() != cards.len() {
            let missing: Vec<String> = cards
                .iter()
                .filter(|c| !all.contains(c))
                .map(|c| self.card_name(*c).to_string())
                .collect();
            return Err(RuleError::illegal(format!(
                "put each card you look at on the top or the bottom: {} is not placed",
                missing.join(", ")
            )));
        }
        Ok(())
    }

    /// Puts the looked-at cards back: `top` on top (the first listed is the top card),
    /// `bottom` at the bottom (the last listed is the bottom card). The cards stay the same
    /// objects (they don't change zones).
    pub(crate) fn arrange_scry(
        &mut self,
        player: PlayerId,
        library: PlayerId,
        top: &[ObjectId],
        bottom: &[ObjectId],
    ) {
        self.put_on_bottom_in_order(library, bottom);
        let lib = &mut self.players[library.index()].library;
        lib.retain(|c| !top.contains(c));
        for c in top.iter().rev() {
            lib.push(*c);
        }
        self.emit(crate::events::Event::Scried {
            player,
            library,
            top: top.len() as u32,
            bottom: bottom.len() as u32,
        });
    }

    /// Puts cards of `library`'s owner's library on its bottom, the last listed at the very
    /// bottom (scry; Truth or Tale's other revealed cards). They stay the same objects.
    pub(crate) fn put_on_bottom_in_order(&mut self, library: PlayerId, bottom: &[ObjectId]) {
        let lib = &mut self.players[library.index()].library;
        lib.retain(|c| !bottom.contains(c));
        // The vector holds the bottom card first and the top card last.
        for c in bottom {
            lib.insert(0, *c);
        }
    }

    /// The answer to a scry question: kept for the resolving effect, which then puts the
    /// cards back.
    pub(crate) fn answer_scry(
        &mut self,
        player: PlayerId,
        d: &Decision,
        answer: Answer,
    ) -> Result<(), RuleError> {
        let Decision::Scry {
            cards,
            top_only,
            bottom_only,
            ..
        } = d
        else {
            return Err(RuleError::illegal("nothing is being scried"));
        };

        let Answer::Scry { top, bottom } = answer else {
            return Err(RuleError::WrongKind {
                expected: format!("{}, not {}", d.describe(), answer.kind_name()),
            });
        };
        if *bottom_only && !top.is_empty() {
            return Err(RuleError::illegal(
                "put these cards on the bottom of your library, in any order (none on top)",
            ));
        }
        if *top_only && !bottom.is_empty() {
            return Err(RuleError::illegal(
                "put the cards back on top of your library, in any order (none on the bottom)",
            ));
        }
        self.check_scry(cards, &top, &bottom)?;
        let Some(res) = &mut self.resolution else {
            return Err(RuleError::illegal("nothing is resolving"));
        };
        res.choices = vec![(player, top), (player, bottom)];
        self.pending = None;
        self.resume_resolution();
        Ok(())
    }

    /// Some of the answers to a scry question: everything on top as it was, everything on
    /// the bottom, each card alone on the bottom, and the top card moved under the others.
    pub(crate) fn scry_answers(d: &Decision) -> Vec<Answer> {
        let Decision::Scry {
            cards,
            top_only,
            bottom_only,
            ..
        } = d
        else {
            return Vec::new();
        };
        if *bottom_only {
            // In the order looked at, and the other way round.
            let mut reversed = cards.clone();
            reversed.reverse();
            let mut out = vec![Answer::Scry {
                top: Vec::new(),
                bottom: cards.clone(),
            }];
            out.push(Answer::Scry {
                top: Vec::new(),
                bottom: reversed,
            });
            out.dedup();
            return out;
        }
        let mut out = vec![Answer::Scry {
            top: cards.clone(),
            bottom: Vec::new(),
        }];
        out.push(Answer::Scry {
            top: Vec::new(),
            bottom: cards.clone(),
        });
        for c in cards {
            out.push(Answer::Scry {
                top: cards.iter().copied().filter(|x| x != c).collect(),
                bottom: vec![*c],
            });
        }
        if cards.len() > 1 {
            let mut top: Vec<ObjectId> = cards[1..].to_vec();
            top.push(cards[0]);
            out.push(Answer::Scry {
                top,
                bottom: Vec::new(),
            });
        }
        out.dedup();
        if *top_only {
            out.retain(|a| matches!(a, Answer::Scry { bottom, .. } if bottom.is_empty()));
        }
        out
    }
}
