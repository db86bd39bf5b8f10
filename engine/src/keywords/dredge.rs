//! Dredge N (2014 rules 702.51; in the 2006 rules a keyword of section 502 since Ravnica,
//! its text absent from the seeds, with the same meaning). Both rulesets play it alike.
//!
//! - "Dredge N" means "As long as you have at least N cards in your library, if you would
//!   draw a card, you may instead put N cards from the top of your library into your
//!   graveyard and return this card from your graveyard to your hand" (702.51a): a
//!   replacement effect that works while the card is in its owner's graveyard.
//! - "A player with fewer cards in his or her library than the number required by a dredge
//!   ability can't put any of them into his or her graveyard this way" (702.51b): the
//!   choice isn't offered then.
//! - Each draw is replaced separately: "draw two cards" asks twice, and a card returned by
//!   the first dredge can't be dredged again for the second (it is in the hand).
//!
//! Before each draw a dredge could replace, its player is asked [`Decision::Dredge`]
//! (answered `Objects([card])` to dredge that card, `Objects([])` to draw): in the draw step
//! (`turn.rs`), and in the draws of a resolving spell or ability (`draw N`, cycling's draw,
//! "discard your hand, then draw that many", Sindbad), which wait in
//! `Resolution::draws` while the question is open. The opening hands and mulligans are drawn
//! before any card can be in a graveyard and are not asked. With Enduring Renewal too, the
//! player's answer is also the choice between the two replacements (616.1): dredging
//! replaces the draw, drawing lets Enduring Renewal replace it.

use crate::decision::{Answer, Decision, Pending, RuleError};
use crate::game::Game;
use crate::ids::{ObjectId, PlayerId};
use crate::resolve::Resolution;
use crate::zones::{Position, ZoneKind};

impl Game {
    /// The cards `p` could dredge instead of their next draw: their graveyard's cards with
    /// dredge N while their library holds at least N cards.
    pub(crate) fn dredge_options(&self, p: PlayerId) -> Vec<ObjectId> {
        let library = self.player(p).library.len();
        self.player(p)
            .graveyard
            .iter()
            .copied()
            .filter(|id| {
                self.def(*id)
                    .is_some_and(|d| d.dredge > 0 && library >= d.dredge as usize)
            })
            .collect()
    }

    /// The dredge question before `p`'s next draw, if a dredge could replace it.
    pub(crate) fn dredge_question(&self, p: PlayerId) -> Option<Pending> {
        let cards = self.dredge_options(p);
        if cards.is_empty() {
            return None;
        }
        let names = cards
            .iter()
            .map(|c| self.card_name(*c).to_string())
            .collect();
        Some(Pending {
            player: p,
            decision: Decision::Dredge { cards, names },
        })
    }

    /// Dredges `card` instead of a draw: its owner mills N, then returns it to their hand.
    pub(crate) fn dredge(&mut self, p: PlayerId, card: ObjectId) {
        let n = self.def(card).map_or(0, |d| d.dredge);
        for _ in 0..n {
            if let Some(&top) = self.player(p).library.last() {
                self.move_object(top, ZoneKind::Graveyard, Position::Top);
            }
        }
        self.move_object(card, ZoneKind::Hand, Position::Top);
    }

    /// One draw of `p` after the dredge question (`dredged`: the card they chose, if any).
    fn draw_or_dredge(&mut self, p: PlayerId, dredged: Option<ObjectId>) -> Vec<ObjectId> {
        match dredged {
            Some(card) => {
                self.dredge(p, card);
                Vec::new()
            }
            None => self.draw_cards(p, 1),
        }
    }

    /// Makes the draws the resolving effect still owes (`res.draws`, in order), asking the
    /// dredge question before each one a dredge could replace; the cards drawn are added to
    /// `res.drawn`. Returns the question when one must be answered first.
    pub(crate) fn draws_asking(&mut self, res: &mut Resolution) -> Option<Pending> {
        loop {
            let (p, left) = *res.draws.as_ref()?.first()?;
            if left == 0 {
                if let Some(d) = res.draws.as_mut() {
                    d.remove(0);
                }
                continue;
            }
            let drawn = match res.dredged.take() {
                Some(answer) => self.draw_or_dredge(p, answer.first().copied()),
                None => {
                    if let Some(q) = self.dredge_question(p) {
                        return Some(q);
                    }
                    self.draw_cards(p, 1)
                }
            };
            res.drawn.extend(drawn);
            if let Some(d) = res.draws.as_mut().and_then(|d| d.first_mut()) {
                d.1 -= 1;
            }
        }
    }

    /// The answer to a dredge question: in a resolution it is kept for the waiting draw; in
    /// the draw step the draw (or dredge) happens now and the active player gets priority.
    pub(crate) fn answer_dredge(
        &mut self,
        player: PlayerId,
        cards: &[ObjectId],
        answer: Answer,
    ) -> Result<(), RuleError> {
        let Answer::Objects(chosen) = answer else {
            return Err(RuleError::WrongKind {
                expected: format!(
                    "a card to dredge, or none to draw; not {}",
                    answer.kind_name()
                ),
            });
        };
        if chosen.len() > 1 {
            return Err(RuleError::illegal(
                "a draw is replaced by one dredge: choose one card, or none to draw",
            ));
        }
        if let Some(c) = chosen.first()
            && !cards.contains(c)
        {
            return Err(RuleError::illegal(format!(
                "{} can't be dredged now: dredge works from your graveyard, with at least as many cards in your library as its number",
                self.card_name(*c)
            )));
        }
        self.pending = None;
        match &mut self.resolution {
            Some(res) => {
                res.dredged = Some(chosen);
                self.run_resolution();
            }
            None => {
                self.draw_or_dredge(player, chosen.first().copied());
            }
        }
        if self.pending.is_none() && self.result.is_none() {
            self.give_priority(self.active);
        }
        Ok(())
    }
}
