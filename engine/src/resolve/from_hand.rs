//! Putting permanent cards from a hand onto the battlefield as an effect resolves (2014 rules
//! 110.2 / 2006 212.x: they are not cast; "enters" abilities and replacement effects apply
//! as usual). Cards: Hypergenesis (`put_from_hand_in_turn FILTER`), Braids, Conjurer Adept
//! (`put_from_hand FILTER who=that_player`).
//!
//! - The player may put one card of the filter's kinds from their hand, or none
//!   (`Decision::PutFromHand`, answered `Objects([card])` / `Objects([])`). The card goes at
//!   once, before the next player chooses; its "as it enters" choices (a colour, a copy) are
//!   asked first ([`Game::entering_objects`]).
//! - An Aura put this way is attached to what its controller chooses as it enters (2014
//!   303.4f / 2006 212.4f; `Decision::EnchantAsItEnters`, answered `Target`): a permanent its
//!   "enchant" allows and without protection from it, or a player for "enchant player". It
//!   targets nothing, so shroud doesn't matter. An Aura with nothing to enchant can't be put
//!   (it is not offered; one that lost every choice stays in the hand, which counts as putting
//!   nothing). With one choice it is made for the player.
//! - Hypergenesis: "Starting with you, each player may put ... Repeat this process until no
//!   one puts a card onto the battlefield": the players are asked in turn order from the
//!   spell's controller, round after round, and it ends after a round in which no one put a
//!   card (the FAQ: "after all N players in order, starting with you, decide not to"; not at
//!   the first decline, and not at N declines in a row that straddle two rounds). One who
//!   declined may put a card when their turn comes again (R-hypergenesis-1). A player with
//!   no card to put is passed over as putting nothing. The history is
//!   `Resolution::choices` (one entry per player asked, in order), so a saved game resumes
//!   where it stopped.
//!
//! Both rulesets play it alike.

use super::*;

impl Game {
    /// The cards of `player`'s hand that `filter` lets them put onto the battlefield now (an
    /// Aura only when it has something to enchant), in hand order.
    pub(crate) fn cards_to_put_from_hand(
        &self,
        player: PlayerId,
        filter: &ObjectFilter,
    ) -> Vec<ObjectId> {
        self.player(player)
            .hand
            .iter()
            .copied()
            .filter(|c| self.matches_filter(*c, filter, player))
            .filter(|c| !self.is_aura_card(*c) || !self.enchant_choices(*c, player).is_empty())
            .collect()
    }

    fn is_aura_card(&self, card: ObjectId) -> bool {
        self.def(card)
            .is_some_and(|d| d.enchant.is_some() || d.enchant_player)
    }

    /// What the Aura card `aura` could enchant if it entered under `me` now (303.4f):
    /// permanents its "enchant" allows that aren't protected from it, or the players in the
    /// game for "enchant player".
    pub(crate) fn enchant_choices(&self, aura: ObjectId, me: PlayerId) -> Vec<Target> {
        let Some(def) = self.def(aura) else {
            return Vec::new();
        };
        if def.enchant_player {
            return self
                .players_from(me)
                .into_iter()
                .map(Target::Player)
                .collect();
        }
        if def.enchant.is_none() {
            return Vec::new();
        }
        self.battlefield
            .iter()
            .copied()
            .filter(|o| !self.aura_illegal(aura, *o))
            .map(Target::Object)
            .collect()
    }

    /// The card the latest answer chose that is still waiting in its chooser's hand, with
    /// that player (it enters under them).
    pub(crate) fn chosen_from_hand(&self, res: &Resolution) -> Option<(ObjectId, PlayerId)> {
        match res.choices.last() {
            Some((p, objs)) => match objs.as_slice() {
                [card] if self.player(*p).hand.contains(card) => Some((*card, *p)),
                _ => None,
            },
            None => None,
        }
    }

    /// `put_from_hand` and `put_from_hand_in_turn` as they resolve.
    pub(super) fn execute_from_hand(&mut self, res: &mut Resolution, e: &Effect) -> Progress {
        if let Some(p) = self.put_chosen_from_hand(res) {
            return Progress::Ask(p);
        }
        match e {
            Effect::PutFromHand { filter, who } => {
                if !res.choices.is_empty() {
                    return Progress::Done;
                }
                let Some(p) = self.players_of(res, *who).into_iter().next() else {
                    return Progress::Done;
                };
                self.ask_put_from_hand(p, filter)
                    .map_or(Progress::Done, Progress::Ask)
            }
            Effect::PutFromHandInTurn(filter) => {
                let rotation = self.players_from(res.item.controller);
                let n = rotation.len();
                loop {
                    let asked = res.choices.len();
                    // A whole round, from the controller on, put nothing: the process ends.
                    let round_done = asked >= n && asked.is_multiple_of(n);
                    if n == 0
                        || (round_done && res.choices[asked - n..].iter().all(|c| c.1.is_empty()))
                    {
                        return Progress::Done;
                    }
                    let p = rotation[asked % n];
                    match self.ask_put_from_hand(p, filter) {
                        Some(ask) => return Progress::Ask(ask),
                        None => res.choices.push((p, Vec::new())),
                    }
                }
            }
            _ => Progress::Done,
        }
    }

    /// The question to `p`, or None when no card of their hand can be put.
    fn ask_put_from_hand(&self, p: PlayerId, filter: &ObjectFilter) -> Option<Pending> {
        let cards = self.cards_to_put_from_hand(p, filter);
        if cards.is_empty() {
            return None;
        }
        let names = cards
            .iter()
            .map(|c| self.card_name(*c).to_string())
            .collect();
        Some(Pending {
            player: p,
            decision: Decision::PutFromHand { cards, names },
        })
    }

    /// Puts the card of the latest answer onto the battlefield if it still waits in its
    /// chooser's hand; an Aura asks what it will enchant first. An Aura left with nothing to
    /// enchant stays in the hand and the answer counts as putting nothing.
    fn put_chosen_from_hand(&mut self, res: &mut Resolution) -> Option<Pending> {
        let (card, p) = self.chosen_from_hand(res)?;
        let mut attach = None;
        if self.is_aura_card(card) {
            let options = self.enchant_choices(card, p);
            attach = match res.enchant.take() {
                Some(t) if options.contains(&t) => Some(t),
                _ if options.len() == 1 => Some(options[0]),
                _ if options.is_empty() => None,
                _ => {
                    let name = self.card_name(card).to_string();
                    return Some(Pending {
                        player: p,
                        decision: Decision::EnchantAsItEnters { aura: card, name },
                    });
                }
            };
            if attach.is_none() {
                if let Some(last) = res.choices.last_mut() {
                    last.1.clear();
                }
                return None;
            }
        }
        let Some(new) = self.put_onto_battlefield(card, p, false) else {
            if let Some(last) = res.choices.last_mut() {
                last.1.clear();
            }
            return None;
        };
        if let Some(t) = attach {
            self.attach_entering_aura(new, t);
        }
        None
    }

    /// An Aura entering the battlefield becomes attached to `t`, a permanent still there or a
    /// player still in the game, with a new timestamp (418.5e). Its "enchant" was checked
    /// by whoever chose `t`: an Aura spell's target, or [`Game::enchant_choices`].
    pub(crate) fn attach_entering_aura(&mut self, aura: ObjectId, t: Target) {
        let there = match t {
            Target::Object(to) => self.is_on_battlefield(to),
            Target::Player(p) => self.player(p).in_game(),
            Target::Ability(_) => false,
        };
        if !there {
            return;
        }
        let ts = self.new_timestamp();
        if let Some(o) = self.obj_mut(aura) {
            match t {
                Target::Object(to) => o.attached_to = Some(to),
                Target::Player(p) => o.attached_player = Some(p),
                Target::Ability(_) => {}
            }
            o.timestamp = ts;
        }
    }

    /// The answer to `Decision::EnchantAsItEnters`: one of the Aura's choices.
    pub(crate) fn answer_enchant(
        &mut self,
        player: PlayerId,
        aura: ObjectId,
        answer: Answer,
    ) -> Result<(), RuleError> {
        let Answer::Target(t) = answer else {
            return Err(RuleError::WrongKind {
                expected: "what the Aura enchants (a target)".into(),
            });
        };
        if !self.enchant_choices(aura, player).contains(&t) {
            return Err(RuleError::illegal(format!(
                "{} can't enchant that",
                self.card_name(aura)
            )));
        }
        self.pending = None;
        if let Some(res) = &mut self.resolution {
            res.enchant = Some(t);
        }
        self.resume_resolution();
        Ok(())
    }

    /// The legal answers to `Decision::EnchantAsItEnters`.
    pub(crate) fn enchant_answers(&self, player: PlayerId, aura: ObjectId) -> Vec<Answer> {
        self.enchant_choices(aura, player)
            .into_iter()
            .map(Answer::Target)
            .collect()
    }
}
