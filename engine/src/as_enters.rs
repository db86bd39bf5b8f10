//! "As ~ enters the battlefield, choose a color / an opponent / one of ..." (614.12; 2006
//! 419.6 and 502.x "as ... comes into play"): the choice is made before the permanent is on
//! the battlefield, by the player it enters under, and the permanent remembers it
//! ([`crate::object::Object::chosen`]) until it leaves.
//!
//! - A resolving permanent spell asks as its resolution ends, before it moves
//!   (`resolve.rs`); the choice goes with the object from the stack onto the battlefield.
//! - An effect putting cards onto the battlefield (reanimation, blinks, searches, Living End)
//!   asks for each card before the effect does anything ([`Game::entering_objects`]): the
//!   answers wait in [`Game::enter_choices`] and are given to the permanent as it is placed.
//!   Nothing hidden is learnt between the question and the move, so asking first is the same
//!   game as asking at the move.
//! - The question is a `ChooseMode` (answered `Answer::Mode`, options in player words:
//!   `red`, the opponent's name, `white Citizen`); with one legal answer (a two-player
//!   game's only opponent) nothing is asked.
//! - A token has no card to remember a choice with here: the block has no token with such
//!   an ability.
//! - A permanent entering as a copy (Vesuvan Shapeshifter) makes the copied card's choice,
//!   asked after the copy choice; Aquamorph Entity's "as ~ enters the battlefield or is
//!   turned face up" P/T choice is also asked as it is turned face up (`keywords/morph.rs`,
//!   `Game::face_up_choosing`; by an effect: before the effect turns it).
//!
//! What the choice does is read by the card's own words: the `chosen_color` filter word
//! (`grammar/filters.rs`, resolved against the source by [`Game::chosen_color_ok`]), the
//! `chosen_players_upkeep` trigger event, `add_chosen_color` mana and
//! `create_chosen_token P/T`.

use crate::cards::EntersChoice;
use crate::decision::{Decision, Pending};
use crate::effects::Effect;
use crate::game::Game;
use crate::ids::{CardId, ObjectId, PlayerId};
use crate::mana::Color;
use crate::object::Chosen;
use crate::resolve::Resolution;

impl Game {
    /// The legal answers of `card`'s entering choice for a permanent entering under `me`, in
    /// player words, in a fixed order (the index is the `Answer::Mode`).
    pub(crate) fn enter_choice_options(&self, card: CardId, me: PlayerId) -> Vec<(String, Chosen)> {
        match &self.catalog().get(card).enters_choice {
            None => Vec::new(),
            Some(EntersChoice::Color) => Color::ALL
                .iter()
                .map(|c| (c.name().to_string(), Chosen::Color(*c)))
                .collect(),
            Some(c @ (EntersChoice::Opponent | EntersChoice::Player)) => self
                .players_from(me)
                .into_iter()
                .filter(|p| (*c == EntersChoice::Player || *p != me) && self.player(*p).in_game())
                .map(|p| (self.player(p).name.clone(), Chosen::Player(p)))
                .collect(),
            Some(EntersChoice::OneOf(options)) => options
                .iter()
                .enumerate()
                .map(|(i, o)| (o.clone(), Chosen::Option(i as u8)))
                .collect(),
            Some(EntersChoice::Pt(pts)) => pts
                .iter()
                .enumerate()
                .map(|(i, (p, t))| (format!("{p}/{t}"), Chosen::Option(i as u8)))
                .collect(),
        }
    }

    /// Gives `id` the choice made as it entered or was turned face up; a power and
    /// toughness choice (Aquamorph Entity) also becomes its P/T (`Object::token_pt`, a
    /// copiable value, in place of its `*/*`).
    pub(crate) fn set_chosen(&mut self, id: ObjectId, chosen: Chosen) {
        if let Some(o) = self.obj_mut(id) {
            o.chosen = Some(chosen);
        }
        self.apply_chosen_pt(id);
    }

    /// A P/T chosen as `id` entered or was turned face up (Aquamorph Entity) becomes its
    /// P/T: `Object::token_pt`, or `copy_pt` for a copy of the Entity (the values it copies
    /// as it is now). Also run once a permanent is placed, after its copy effect applies (a
    /// spell's choice is made before it moves).
    pub(crate) fn apply_chosen_pt(&mut self, id: ObjectId) {
        let Some(o) = self.obj(id) else { return };
        let pt = match (&self.catalog().get(o.face_up()).enters_choice, o.chosen) {
            (Some(EntersChoice::Pt(pts)), Some(Chosen::Option(i))) => pts.get(i as usize).copied(),
            _ => None,
        };
        if pt.is_none() {
            return;
        }
        if let Some(o) = self.obj_mut(id) {
            if o.copy_of.is_some() {
                o.copy_pt = pt;
            } else {
                o.token_pt = pt;
            }
        }
        // Its P/T changed: the layer cache's key moves on.
        self.new_timestamp();
    }

    /// Whether turning face-down `id` face up asks its "as ~ is turned face up" choice
    /// (Aquamorph Entity: a P/T), with more than one option.
    pub(crate) fn face_up_choice_due(&self, id: ObjectId) -> bool {
        self.obj(id).is_some_and(|o| {
            o.face_down
                && matches!(
                    &self.catalog().get(o.face_up()).enters_choice,
                    Some(EntersChoice::Pt(pts)) if pts.len() > 1
                )
        })
    }

    /// The question of `id`'s "as ~ is turned face up" choice, asked of `me` (its
    /// controller), with the choice's options as they are as it enters.
    pub(crate) fn face_up_choice_question(&self, id: ObjectId, me: PlayerId) -> Pending {
        let card = self.objects[id.slot()].face_up();
        Pending {
            player: me,
            decision: Decision::ChooseMode {
                options: self
                    .enter_choice_options(card, me)
                    .into_iter()
                    .map(|(w, _)| w)
                    .collect(),
            },
        }
    }

    /// Whether `id`, about to enter the battlefield, still has an entering choice to make.
    fn enter_choice_due(&self, id: ObjectId) -> bool {
        self.obj(id).is_some_and(|o| {
            !(o.token || (o.face_down && o.zone == crate::zones::ZoneKind::Stack))
                // A permanent about to leave and return (a blink) chooses anew.
                && (o.chosen.is_none() || o.zone == crate::zones::ZoneKind::Battlefield)
                && self.catalog().get(self.entering_card(id)).enters_choice.is_some()
        }) && !self.enter_choices.iter().any(|(c, _)| *c == id)
    }

    /// The card whose "as ~ enters" choice `id` makes as it enters: the card a copy choice
    /// made for it copies (Vesuvan Shapeshifter entering as a copy of Aquamorph Entity
    /// chooses its P/T: the Entity's ruling), else its own card.
    fn entering_card(&self, id: ObjectId) -> CardId {
        self.copy_chosen
            .iter()
            .find(|(c, _)| *c == id)
            .and_then(|(_, v)| v.map(|(v, _)| v.card))
            .unwrap_or(self.objects[id.slot()].card)
    }

    /// Makes the entering choice of `id` (entering under `me`): `answer` (an index into the
    /// options) when given, the only option when there is one; otherwise the question.
    /// `record` keeps the choice.
    fn enter_choice(
        &mut self,
        id: ObjectId,
        me: PlayerId,
        answer: Option<u8>,
        record: impl FnOnce(&mut Game, Chosen),
    ) -> Option<Pending> {
        self.obj(id)?;
        let card = self.entering_card(id);
        let options = self.enter_choice_options(card, me);
        let pick = match (answer, options.len()) {
            (_, 0) => return None,
            (Some(i), _) => options.get(i as usize).or(options.first()),
            (None, 1) => options.first(),
            (None, _) => {
                return Some(Pending {
                    player: me,
                    decision: Decision::ChooseMode {
                        options: options.into_iter().map(|(w, _)| w).collect(),
                    },
                });
            }
        };
        let (words, chosen) = pick.cloned()?;
        record(self, chosen);
        self.emit(crate::events::Event::Chose {
            object: id,
            choice: words,
        });
        None
    }

    /// A resolving permanent spell's entering choice (asked as its resolution ends; the
    /// answer is the resolution's `option`).
    pub(crate) fn spell_enter_choice(
        &mut self,
        card: ObjectId,
        res: &mut Resolution,
    ) -> Option<Pending> {
        if !self.enter_choice_due(card) {
            return None;
        }
        let answer = res.option.take();
        self.enter_choice(card, res.item.controller, answer, |g, c| {
            g.set_chosen(card, c)
        })
    }

    /// The entering choices of the cards effect `e` is about to put onto the battlefield,
    /// one card at a time, before the effect runs.
    pub(crate) fn entering_choice_question(
        &mut self,
        res: &mut Resolution,
        e: &Effect,
    ) -> Option<Pending> {
        // "As ~ is turned face up" (Aquamorph Entity) by a resolving effect: asked of its
        // controller before it turns (`resolve/control.rs` applies the choice).
        if let Effect::TurnFaceUp(r) = e {
            let o = self
                .object_of(res, *r)
                .filter(|o| self.is_on_battlefield(*o) && self.face_up_choice_due(*o))
                .filter(|o| !self.enter_choices.iter().any(|(c, _)| c == o))?;
            let me = self.objects[o.slot()].controller;
            let card = self.objects[o.slot()].face_up();
            let options = self.enter_choice_options(card, me);
            return match res.option.take().and_then(|i| options.get(i as usize)) {
                Some((words, chosen)) => {
                    self.enter_choices.push((o, *chosen));
                    self.emit(crate::events::Event::Chose {
                        object: o,
                        choice: words.clone(),
                    });
                    None
                }
                None => Some(self.face_up_choice_question(o, me)),
            };
        }
        let entering: Vec<(ObjectId, PlayerId)> = match e {
            Effect::LivingEnd => self
                .apnap()
                .into_iter()
                .flat_map(|p| {
                    self.player(p)
                        .graveyard
                        .iter()
                        .copied()
                        .filter(|c| self.has_type(*c, crate::types::CardType::Creature))
                        .map(move |c| (c, p))
                        .collect::<Vec<_>>()
                })
                .collect(),
            Effect::ReturnToBattlefieldUnderYourControl(r)
            | Effect::ReturnUnderYourControlWithType { what: r, .. } => self
                .object_of(res, *r)
                .map(|o| (o, res.item.controller))
                .into_iter()
                .collect(),
            _ => self.entering_objects(res, e),
        };
        for (o, me) in entering {
            if !self.enter_choice_due(o) {
                continue;
            }
            let answer = res.option.take();
            if let Some(p) = self.enter_choice(o, me, answer, |g, c| g.enter_choices.push((o, c))) {
                return Some(p);
            }
        }
        None
    }

    /// Gives the permanent `new` the entering choice made for `old` (before it moved).
    pub(crate) fn apply_enter_choice(&mut self, old: ObjectId, new: ObjectId) {
        if let Some(i) = self.enter_choices.iter().position(|(c, _)| *c == old) {
            let (_, chosen) = self.enter_choices.remove(i);
            if self.obj(new).is_some() {
                self.set_chosen(new, chosen);
            }
        }
    }

    /// What `id` chose as it entered, in player words (views, scenarios).
    pub fn chosen_words(&self, id: ObjectId) -> Option<String> {
        let o = self.obj(id)?;
        match o.chosen? {
            Chosen::Color(c) => Some(c.name().to_string()),
            Chosen::Player(p) => Some(self.player(p).name.clone()),
            Chosen::Option(i) => match &self.catalog().get(o.face_up()).enters_choice {
                Some(EntersChoice::OneOf(v)) => v.get(i as usize).cloned(),
                Some(EntersChoice::Pt(v)) => v.get(i as usize).map(|(p, t)| format!("{p}/{t}")),
                _ => None,
            },
        }
    }

    /// The color `source` chose as it entered, if it chose one.
    pub fn chosen_color(&self, source: ObjectId) -> Option<Color> {
        match self.obj(source)?.chosen? {
            Chosen::Color(c) => Some(c),
            _ => None,
        }
    }

    /// Whether `id` passes a filter's `chosen_color` word for an ability of `source`: it
    /// is of the color `source` chose (nothing is, if it chose none).
    pub fn chosen_color_ok(
        &self,
        f: &crate::targets::ObjectFilter,
        source: Option<ObjectId>,
        id: ObjectId,
    ) -> bool {
        !f.chosen_color
            || source
                .and_then(|s| self.chosen_color(s))
                .is_some_and(|c| self.colors(id).contains(c))
    }
}
