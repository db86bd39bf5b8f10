//! "Choose a card name" (Magus of the Scroll, Dementia Sliver): the name is asked of the
//! resolving spell or ability's controller (`Decision::NameCard`), then a card revealed at
//! random from a hand is compared with it.

use super::*;

impl Game {
    /// `Effect::NameCardRevealRandom`: asks the name, then `who` reveals a card at random
    /// from their hand (picked once with the game's rng and kept in `res.choices`: a shield
    /// or madness question comes back here); if that card has the chosen name (a split
    /// card either half's, 505.2 / 708.2), `then` happens, or with `discard` that player
    /// discards it.
    pub(super) fn name_card_reveal_random(
        &mut self,
        res: &mut Resolution,
        who: PlayerRef,
        then: &[Effect],
        discard: bool,
    ) -> Progress {
        let Some(name) = res.named.clone() else {
            return Progress::Ask(Pending {
                player: res.item.controller,
                decision: Decision::NameCard {
                    card: self.catalog().get(res.item.card).name.clone(),
                },
            });
        };
        let Some(p) = self.players_of(res, who).first().copied() else {
            return Progress::Done;
        };
        let card = match res.choices.iter().find(|(q, _)| *q == p) {
            Some((_, v)) => v.first().copied(),
            None => {
                let hand = self.player(p).hand.clone();
                let card = (!hand.is_empty()).then(|| hand[self.rng.random_range(0..hand.len())]);
                if let Some(c) = card {
                    self.emit(Event::Revealed { player: p, card: c });
                }
                res.choices.push((p, card.into_iter().collect()));
                card
            }
        };
        let Some(card) = card.filter(|c| self.def(*c).is_some_and(|d| d.has_name(&name))) else {
            return Progress::Done;
        };
        if discard {
            if self.player(p).hand.contains(&card)
                && let Some(q) = self.discard_all_asking(&[(p, card)])
            {
                return Progress::Ask(q);
            }
            return Progress::Done;
        }
        if let Some(q) = self.shield_question_for(res, then) {
            return Progress::Ask(q);
        }
        for e in then {
            if let Progress::Ask(q) = self.execute(res, e) {
                // Loading refuses effects that ask anything more here.
                debug_assert!(false, "a name_card_reveal_random effect asked {q:?}");
            }
        }
        Progress::Done
    }

    /// The answer to `Decision::NameCard`: a card name of the catalog (any spelling case).
    pub(crate) fn answer_card_name(
        &mut self,
        _player: PlayerId,
        answer: Answer,
    ) -> Result<(), RuleError> {
        let Answer::CardName(asked) = answer else {
            return Err(RuleError::WrongKind {
                expected: format!("a card name, not {}", answer.kind_name()),
            });
        };
        let Some(name) = self.catalog().card_name(&asked).map(str::to_string) else {
            return Err(RuleError::illegal(format!(
                "`{asked}` is not the name of a card"
            )));
        };
        let Some(res) = &mut self.resolution else {
            return Err(RuleError::illegal("there is no question to answer"));
        };
        res.named = Some(name.clone());
        let source = Self::source_of(&res.item);
        self.pending = None;
        self.emit(Event::Chose {
            object: source,
            choice: name,
        });
        self.resume_resolution();
        Ok(())
    }

    /// Every name `Decision::NameCard` accepts.
    pub(crate) fn card_name_answers(&self) -> Vec<Answer> {
        self.catalog()
            .card_names()
            .map(|n| Answer::CardName(n.to_string()))
            .collect()
    }
}
