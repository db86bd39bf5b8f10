//! Echo (2006 rules 502.19; 2014 rules 702.30): "At the beginning of your upkeep, if this
//! came under your control since the beginning of your last upkeep, sacrifice it unless you
//! pay [cost]." A triggered ability built from the card's `echo` key ([`TriggerDef::echo`]);
//! "came under your control since your last upkeep" is read from the object's control clock
//! (`Object::control_clock`, stamped whenever it enters or changes control) against the
//! player's last two upkeep starts (`Player::upkeeps_began`, stamped by the upkeep).
//!
//! The echo cost is mana, or a non-mana cost (Echo—Discard a card: Deepcavern Imp;
//! Echo—Sacrifice two lands: Skizzik Surger), whose cards or permanents are chosen as the
//! trigger resolves once its controller said to pay. Thick-Skinned Goblin's "You may pay
//! {0} rather than pay the echo cost for permanents you control" makes the question three
//! choices (pay the echo cost / pay {0} / sacrifice: R-thick-skinned-goblin-1), asked as a
//! `ChooseMode` while the trigger resolves.

use crate::abilities::{TriggerCondition, TriggerDef, TriggerEvent};
use crate::costs::{Cost, CostPart};
use crate::decision::{Decision, Pending};
use crate::effects::Effect;
use crate::events::Event;
use crate::game::Game;
use crate::ids::{ObjectId, PlayerId};
use crate::resolve::{Progress, Resolution};
use crate::zones::ZoneKind;

impl TriggerDef {
    /// Echo [cost] (502.19 / 702.30): "At the beginning of your upkeep, if this came under your
    /// control since the beginning of your last upkeep, sacrifice it unless you pay [cost]." The
    /// cost goes with the ability: turning the permanent face down later doesn't change it
    /// (R-vesuvan-shapeshifter-8).
    pub fn echo(cost: Cost) -> TriggerDef {
        let sep = if cost.mana.is_some() { " " } else { "—" };
        TriggerDef {
            when: TriggerEvent::YourUpkeep,
            condition: Some(TriggerCondition::CameUnderYourControlSinceLastUpkeep),
            targets: Vec::new(),
            text: format!(
                "Echo{sep}{cost} (at the beginning of your upkeep, if this came under your control since the beginning of your last upkeep, sacrifice it unless you pay {cost})"
            ),
            effects: vec![Effect::SacrificeUnlessPays { cost }],
            divided: None,
            modes: Vec::new(),
        }
    }
}

impl Game {
    /// Echo's intervening "if": `source` came under `controller`'s control since the
    /// beginning of their last upkeep. "Your last upkeep" is the one before the upkeep now
    /// under way (it began first: `begin_step`), also when the ability resolves.
    pub(crate) fn came_under_control_since_last_upkeep(
        &self,
        source: ObjectId,
        controller: PlayerId,
    ) -> bool {
        self.obj(source).is_some_and(|o| {
            o.controller == controller && o.control_clock > self.player(controller).upkeeps_began[1]
        })
    }
}

/// What the echo trigger's controller chose.
enum EchoChoice {
    Pay,
    /// Thick-Skinned Goblin: "You may pay {0} rather than pay the echo cost".
    Zero,
    Sacrifice,
}

impl Game {
    /// The permanent that lets `player` pay {0} rather than an echo cost (Thick-Skinned
    /// Goblin: "for permanents you control"), if they control one with its abilities.
    pub(crate) fn echo_zero_source(&self, player: PlayerId) -> Option<ObjectId> {
        self.battlefield_of(player).map(|o| o.id).find(|id| {
            self.def(*id).is_some_and(|d| d.echo_costs_zero) && self.has_own_abilities(*id)
        })
    }

    /// Whether `player` can pay the echo cost now: its mana, and the cards or permanents its
    /// other parts need.
    fn can_pay_echo(&self, player: PlayerId, cost: &Cost) -> bool {
        let mana_ok = cost
            .mana
            .as_ref()
            .is_none_or(|m| self.can_pay_now(player, &m.to_payable(self.echo_x(player, cost))));
        mana_ok
            && cost.parts.iter().all(|p| match p {
                CostPart::Discard(n) => self.player(player).hand.len() >= *n as usize,
                CostPart::Sacrifice(f, n) | CostPart::ReturnToHand(f, n) => {
                    self.battlefield_of(player)
                        .filter(|o| self.matches_filter(o.id, f, player))
                        .count()
                        >= *n as usize
                }
                _ => false,
            })
    }

    /// The echo trigger resolves (502.19a / 702.30a): its controller pays the echo cost or
    /// sacrifices the permanent; with Thick-Skinned Goblin, paying {0} is a third choice
    /// (R-thick-skinned-goblin-1), asked as a `ChooseMode` (pay / pay {0} / sacrifice).
    /// Without it, a yes/no "Pay?" (asked only when the cost can be paid). A cost with
    /// cards or permanents to choose asks for them after "pay" (`Discard`, `Sacrifice`).
    /// `echo = false`: another "sacrifice ~ unless you pay" (Krosan Cloudscraper, Sacred
    /// Mesa, `sacrifice_unless_pays`), paid the same way but never for {0}.
    pub(crate) fn execute_echo(
        &mut self,
        res: &mut Resolution,
        this: ObjectId,
        cost: &Cost,
        echo: bool,
    ) -> Progress {
        let me = res.item.controller;
        // "Sacrifice it": only if it is still the same permanent and still its controller's
        // (R-vesuvan-shapeshifter-8: face down, it is the same one).
        if !self
            .obj(this)
            .is_some_and(|o| o.zone == ZoneKind::Battlefield && o.controller == me)
        {
            return Progress::Done;
        }
        let payable = self.can_pay_echo(me, cost);
        let name = self.seen_name(this, Some(me));
        let x = self.echo_x(me, cost);
        let cost_words = if cost.mana.as_ref().is_some_and(|m| m.has_x()) {
            format!("{cost} (X = {x})")
        } else {
            cost.to_string()
        };
        let goblin = if echo {
            self.echo_zero_source(me)
        } else {
            None
        };
        let choice = if let Some(goblin) = goblin {
            let Some(i) = res.option else {
                let mut options = Vec::new();
                if payable {
                    options.push(format!("pay {cost_words}"));
                }
                options.push(format!("pay {{0}} instead ({})", self.card_name(goblin)));
                options.push(format!("sacrifice {name}"));
                return Progress::Ask(Pending {
                    player: me,
                    decision: Decision::ChooseMode { options },
                });
            };
            match i as usize + usize::from(!payable) {
                0 => EchoChoice::Pay,
                1 => EchoChoice::Zero,
                _ => EchoChoice::Sacrifice,
            }
        } else {
            match res.may {
                None if payable => {
                    return Self::ask_yes_no(
                        me,
                        format!("pay {cost_words}, or sacrifice {name}? Pay?"),
                    );
                }
                Some(true) if payable => EchoChoice::Pay,
                _ => EchoChoice::Sacrifice,
            }
        };
        match choice {
            EchoChoice::Zero => self.emit(Event::EchoPaid {
                object: this,
                controller: me,
            }),
            EchoChoice::Sacrifice => {
                self.sacrifice(this);
            }
            EchoChoice::Pay => return self.pay_echo(res, this, cost, echo),
        }
        Progress::Done
    }

    /// The X of an echo cost {X} as the trigger resolves: "where X is your life total"
    /// (Volcano Hellion, the block's only echo {X}; not locked in as it entered), 0 below 0.
    pub(crate) fn echo_x(&self, player: PlayerId, cost: &Cost) -> u32 {
        if cost.mana.as_ref().is_some_and(|m| m.has_x()) {
            self.player(player).life.max(0) as u32
        } else {
            0
        }
    }

    /// Pays an echo cost its controller chose to pay: the cards to discard or permanents to
    /// sacrifice are chosen first (a decision each), then everything is paid; mana the
    /// auto-payer can't find after all means the permanent is sacrificed.
    fn pay_echo(
        &mut self,
        res: &mut Resolution,
        this: ObjectId,
        cost: &Cost,
        echo: bool,
    ) -> Progress {
        let me = res.item.controller;
        for (k, part) in cost.parts.iter().enumerate() {
            if res.choices.len() > k {
                continue;
            }
            let decision = match part {
                CostPart::Discard(n) if self.player(me).hand.len() > *n as usize => {
                    Decision::Discard { count: *n }
                }
                CostPart::Discard(_) => {
                    res.choices.push((me, self.player(me).hand.clone()));
                    continue;
                }
                CostPart::Sacrifice(f, n) => Decision::Sacrifice {
                    filter: f.clone(),
                    count: *n,
                },
                CostPart::ReturnToHand(f, n) => Decision::ReturnToHand {
                    filter: f.clone(),
                    count: *n,
                },
                _ => {
                    res.choices.push((me, Vec::new()));
                    continue;
                }
            };
            return Progress::Ask(Pending {
                player: me,
                decision,
            });
        }
        if let Some(m) = &cost.mana
            && !self.pay_automatically(me, &m.to_payable(self.echo_x(me, cost)))
        {
            self.sacrifice(this);
            return Progress::Done;
        }
        let mut discards = Vec::new();
        let mut sacrifices = Vec::new();
        let mut returns = Vec::new();
        for (part, (_, objs)) in cost.parts.iter().zip(res.choices.iter()) {
            match part {
                CostPart::Discard(_) => discards.extend(objs.iter().map(|o| (me, *o))),
                CostPart::ReturnToHand(..) => returns.extend(objs.iter().copied()),
                _ => sacrifices.extend(objs.iter().copied()),
            }
        }
        for o in returns {
            self.move_object(o, ZoneKind::Hand, crate::zones::Position::Top);
        }
        if !sacrifices.is_empty() {
            self.begin_batch(&sacrifices);
            for o in sacrifices {
                self.sacrifice(o);
            }
            self.end_batch();
        }
        // Paid (the discards are part of the payment made now): "when ~'s echo cost is paid".
        if echo {
            self.emit(Event::EchoPaid {
                object: this,
                controller: me,
            });
        }
        if let Some(p) = self.discard_all_asking(&discards) {
            return Progress::Ask(p);
        }
        res.choices.clear();
        Progress::Done
    }
}
