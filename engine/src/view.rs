//! What one player (or a spectator) may see (rule 217: hidden and public zones).
//!
//! Every public output (board image, log line, message) is built from a [`View`], never from
//! the raw state: a view holds the viewer's own hand, and of other players' hands and all
//! libraries only their sizes.

use crate::decision::{Decision, Pending};
use crate::game::{Game, GameResult};
use crate::ids::{CardId, ObjectId, PlayerId};
use crate::ruleset::Ruleset;
use crate::stack::StackKind;
use crate::steps::Step;
use crate::targets::Target;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardView {
    pub id: ObjectId,
    pub card: CardId,
    pub name: String,
    pub owner: PlayerId,
    /// A card in a graveyard with flashback now (printed, or granted until end of turn):
    /// its flashback cost, which its owner may cast it for with the card's normal timing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flashback: Option<String>,
    /// A suspended card in exile (502.59b / 702.61b): its time counters (public).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suspended: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    pub id: PlayerId,
    pub name: String,
    pub life: i32,
    pub poison: u32,
    pub hand_count: usize,
    pub library_count: usize,
    /// The player's hand, only in their own view.
    pub hand: Option<Vec<CardView>>,
    pub graveyard: Vec<CardView>,
    pub mana_pool: String,
    pub lands_played: u32,
    pub lost: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PermanentView {
    pub id: ObjectId,
    pub card: CardId,
    pub name: String,
    pub owner: PlayerId,
    pub controller: PlayerId,
    pub tapped: bool,
    pub damage: u32,
    pub counters: Vec<(String, u32)>,
    pub power: Option<i32>,
    pub toughness: Option<i32>,
    pub summoning_sick: bool,
    pub attacking: Option<PlayerId>,
    /// The (first) attacker it blocks.
    pub blocking: Option<ObjectId>,
    /// Every attacker it blocks, in damage assignment order (several with "can block an
    /// additional creature").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blocking_all: Vec<ObjectId>,
    pub token: bool,
    pub attached_to: Option<ObjectId>,
    /// Face down (morph, Ixidron): `card` and `name` are the card's only for its controller
    /// (and for everyone once the game is over); others see the face-down 2/2.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub face_down: bool,
    /// What it chose as it entered the battlefield, in player words ("green", "Bob",
    /// "red Goblin", a creature type): public, 614.12 (`as_enters.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chosen: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StackView {
    pub card: CardId,
    pub name: String,
    pub controller: PlayerId,
    pub is_ability: bool,
    pub targets: Vec<String>,
    /// A face-down spell: `card` and `name` are the card's only for its controller.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub face_down: bool,
    /// A spell cast with flashback: it will be exiled as it leaves the stack.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub flashback: bool,
    /// Divided damage: each target and its share ("Squire: 2").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub division: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingView {
    pub player: PlayerId,
    pub kind: String,
    pub description: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    pub viewer: Option<PlayerId>,
    pub ruleset: Ruleset,
    pub turn: u32,
    pub active: PlayerId,
    pub step: Step,
    pub pending: Option<PendingView>,
    pub players: Vec<PlayerView>,
    pub battlefield: Vec<PermanentView>,
    pub stack: Vec<StackView>,
    pub exile: Vec<CardView>,
    pub result: Option<GameResult>,
    /// Why a drawn game is a draw, when a rule other than "every player lost" made it one
    /// (an endless mandatory loop).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw_reason: Option<crate::loops::DrawReason>,
    /// Continuing effects of resolved spells and abilities everyone can see: shields,
    /// skips, delayed abilities, changed texts and types ("the next 1 damage to Outrider
    /// en-Kor is dealt to Squire instead").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<String>,
}

/// How a card exiled face down is named to every player.
pub const FACE_DOWN_CARD: &str = "face-down card";

impl Game {
    fn card_view(&self, id: ObjectId) -> CardView {
        let o = &self.objects[id.slot()];
        let def = self.catalog().get(o.face());
        // A card exiled face down (Magus of the Jar) is hidden from every player, its
        // owner too (2006 217.7b / 2014 406.3), until the game is over.
        let hidden = self.hidden_in_exile(o) && self.result.is_none();
        CardView {
            id,
            card: if hidden {
                self.catalog().face_down()
            } else {
                o.card
            },
            name: if hidden {
                FACE_DOWN_CARD.into()
            } else if o.face_down {
                self.catalog().get(o.face_up()).name.clone()
            } else {
                def.name.clone()
            },
            owner: o.owner,
            flashback: match self.flashback_cost_of(id) {
                Some(crate::casting::FlashbackCost::Printed) => {
                    def.flashback.as_ref().map(|c| c.to_string())
                }
                Some(crate::casting::FlashbackCost::ManaCost) => def
                    .mana_cost
                    .as_ref()
                    .map(|m| format!("{m} (its mana cost, until end of turn)")),
                None => None,
            },
            suspended: self
                .is_suspended(id)
                .then(|| o.counters.get(&crate::object::CounterKind::Time)),
        }
    }

    /// The card `viewer` sees for an object: a face-down object's own card only for its
    /// controller, and for everyone once the game is over (504.4 / 707.10: face-down
    /// objects are revealed at the end of the game).
    pub fn visible_card(&self, id: ObjectId, viewer: Option<PlayerId>) -> CardId {
        let o = &self.objects[id.slot()];
        let hidden = self.hidden_in_exile(o) || (o.face_down && viewer != Some(o.controller));
        if hidden && self.result.is_none() {
            self.catalog().face_down()
        } else {
            o.face_up()
        }
    }

    /// A card exiled face down: no player may look at it (2006 217.7b / 2014 406.3).
    fn hidden_in_exile(&self, o: &crate::object::Object) -> bool {
        o.face_down && o.zone == crate::zones::ZoneKind::Exile
    }

    /// An object's name as `viewer` may see it. Face-down objects are numbered in the order
    /// they are on the battlefield (spells after them), so every player can tell them apart
    /// (R-morph-15); their controller also sees the card: `face-down creature 1 (Riptide
    /// Pilferer)`.
    pub fn seen_name(&self, id: ObjectId, viewer: Option<PlayerId>) -> String {
        if self.obj(id).is_some_and(|o| self.hidden_in_exile(o)) {
            return match self.visible_card(id, viewer) {
                c if c == self.catalog().face_down() => FACE_DOWN_CARD.into(),
                c => format!("{FACE_DOWN_CARD} ({})", self.catalog().get(c).name),
            };
        }
        let Some(o) = self.obj(id).filter(|o| o.face_down) else {
            // A face-up copy of a face-down creature has no name (R-vesuvan-shapeshifter-6).
            if let Some(o) = self.obj(id)
                && o.copy_of == Some(self.catalog().face_down())
            {
                return format!(
                    "nameless copy of a face-down creature ({})",
                    self.catalog().get(o.card).name
                );
            }
            return self.card_name(id).to_string();
        };
        let n = self
            .battlefield
            .iter()
            .copied()
            .chain(self.stack.iter().filter_map(|s| s.object()))
            .filter(|x| self.obj(*x).is_some_and(|x| x.face_down))
            .position(|x| x == id)
            .map_or(0, |i| i + 1);
        let what = if o.zone == crate::zones::ZoneKind::Stack {
            "face-down spell"
        } else {
            "face-down creature"
        };
        let card = self.visible_card(id, viewer);
        if card == self.catalog().face_down() {
            format!("{what} {n}")
        } else {
            format!("{what} {n} ({})", self.catalog().get(card).name)
        }
    }

    pub fn describe_target(&self, t: Target) -> String {
        match t {
            Target::Player(p) => self
                .players
                .get(p.index())
                .map_or_else(|| p.to_string(), |x| x.name.clone()),
            Target::Object(id) => self.card_name(id).to_string(),
            Target::Ability(serial) => self.ability_on_stack(serial).map_or_else(
                || "an ability no longer on the stack".into(),
                |i| format!("the ability of {}", self.catalog().get(i.card).name),
            ),
        }
    }

    /// The combat damage assigned and waiting (classic: on the stack), one line each as
    /// `viewer` sees it: "Alice's Grizzly Bears deals 2 to Bob".
    fn combat_damage_lines(&self, viewer: Option<PlayerId>) -> Vec<String> {
        let Some(c) = &self.combat else {
            return Vec::new();
        };
        c.assigned
            .iter()
            .map(|(src, t, n)| {
                let whose = self
                    .obj(*src)
                    .map(|o| format!("{}'s ", self.player(o.controller).name))
                    .unwrap_or_default();
                let to = match t {
                    Target::Player(p) => self.player(*p).name.clone(),
                    Target::Ability(_) => self.describe_target(*t),
                    Target::Object(id) => {
                        let owner = self
                            .obj(*id)
                            .map(|o| format!("{}'s ", self.player(o.controller).name))
                            .unwrap_or_default();
                        format!("{owner}{}", self.seen_name(*id, viewer))
                    }
                };
                format!("{whose}{} deals {n} to {to}", self.seen_name(*src, viewer))
            })
            .collect()
    }

    /// Effects about players: Auras enchanting them (Paradox Haze), "can't lose the game
    /// this turn" (Angel's Grace).
    fn player_effect_lines(&self, viewer: Option<PlayerId>, out: &mut Vec<String>) {
        for &id in &self.battlefield {
            if let Some(p) = self.obj(id).and_then(|o| o.attached_player) {
                out.push(format!(
                    "{} enchants {}",
                    self.seen_name(id, viewer),
                    self.describe_target(Target::Player(p))
                ));
            }
        }
        for (p, turn) in &self.cant_lose {
            if *turn == self.turn {
                out.push(format!(
                    "{} can't lose the game and their opponents can't win the game this turn",
                    self.describe_target(Target::Player(*p))
                ));
            }
        }
    }

    /// The continuing effects `viewer` can see, one line each (names as that viewer sees
    /// them: a face-down permanent stays unnamed).
    pub fn effect_lines(&self, viewer: Option<PlayerId>) -> Vec<String> {
        use crate::layers::{CharChange, Duration};
        use crate::replacement::{PreventScope, Shield};
        let name = |id: ObjectId| self.seen_name(id, viewer);
        let who = |t: Target| match t {
            Target::Object(id) => name(id),
            Target::Player(_) | Target::Ability(_) => self.describe_target(t),
        };
        let mut out = Vec::new();
        for s in &self.shields {
            out.push(match s {
                Shield::PreventNext { target, remaining } => {
                    format!(
                        "prevent the next {remaining} damage to {} this turn",
                        who(*target)
                    )
                }
                Shield::PreventNextFromSource {
                    source,
                    target,
                    reflect,
                } => format!(
                    "prevent the damage {} would deal to {} the next time it would this turn{}",
                    name(*source),
                    who(*target),
                    match reflect {
                        Some(r) => format!(
                            " (if it is red, {} deals that much damage to its controller)",
                            self.card_name(*r)
                        ),
                        None => String::new(),
                    }
                ),
                Shield::PreventAll(PreventScope::CombatDamage) => {
                    "prevent all combat damage this turn".into()
                }
                Shield::PreventAll(PreventScope::CreatureDamageToPlayers) => {
                    "prevent all damage creatures would deal to players this turn".into()
                }
                Shield::Regenerate(id) => format!("{} has a regeneration shield", name(*id)),
                Shield::CantRegenerate(id) => {
                    format!("{} can't be regenerated this turn", name(*id))
                }
                Shield::ExileIfDies(id) => {
                    format!("if {} would die this turn, it is exiled instead", name(*id))
                }
                Shield::PreventCombatDamageToAndFrom(id) => {
                    format!(
                        "prevent all combat damage dealt to and by {} this turn",
                        name(*id)
                    )
                }
                Shield::PreventCombatDamageFrom(id) => {
                    format!(
                        "prevent all combat damage {} would deal this combat",
                        name(*id)
                    )
                }
                Shield::RedirectNext {
                    from,
                    to,
                    remaining,
                } => format!(
                    "the next {remaining} damage to {} this turn is dealt to {} instead",
                    name(*from),
                    name(*to)
                ),
                Shield::LifeFloor(p) => format!(
                    "damage that would reduce {}'s life total to less than 1 reduces it to 1 instead this turn",
                    self.describe_target(Target::Player(*p))
                ),
            });
        }
        self.player_effect_lines(viewer, &mut out);
        for id in &self.granted_flashback {
            if self.obj(*id).is_some() {
                out.push(format!(
                    "{} has flashback until end of turn (its mana cost)",
                    name(*id)
                ));
            }
        }
        for (p, what) in &self.skips {
            out.push(format!(
                "{} skips their next {}",
                self.describe_target(Target::Player(*p)),
                what.name()
                    .trim_start_matches("a ")
                    .trim_start_matches("an ")
            ));
        }
        out.extend(self.delayed.iter().map(|d| self.delayed_line(d, viewer)));
        for e in &self.char_effects {
            let objs: Vec<String> = e.objects.iter().map(|o| name(*o)).collect();
            let objs = objs.join(", ");
            let until = match e.duration {
                Duration::EndOfTurn => " until end of turn",
                Duration::EndOfCombat => " until end of combat",
                Duration::WhileYouControlSource | Duration::WhileSourceOnBattlefield => {
                    " while its source stays"
                }
                Duration::Indefinite => "",
            };
            let what = match &e.change {
                CharChange::Control(p) => format!(
                    "{} controls {objs}",
                    self.describe_target(Target::Player(*p))
                ),
                CharChange::ChangeText { from, to } => {
                    format!("{objs}: every \"{from}\" in its text reads \"{to}\"")
                }
                CharChange::SetLandTypes(t) => format!("{objs} is a {}", t.join(" ")),
                CharChange::SetCreatureTypes(t) => format!("{objs} is a {}", t.join(" ")),
                CharChange::AddCreatureTypes(t) => {
                    format!("{objs} is a {} in addition to its other types", t.join(" "))
                }
                CharChange::BecomeCreature(t) => {
                    format!("{objs} is a {} creature too", t.join(" "))
                }
                CharChange::BecomeOnlyCreature(t) => {
                    format!("{objs} is a {} creature", t.join(" "))
                }
                CharChange::SetColors(c) => format!(
                    "{objs} is {}",
                    c.iter().map(|c| c.name()).collect::<Vec<_>>().join(" and ")
                ),
                CharChange::LoseAllAbilities => format!("{objs} has no abilities"),
                CharChange::RemoveKeywords(k) => format!(
                    "{objs} loses {}",
                    crate::keywords::Keyword::ALL
                        .into_iter()
                        .filter(|x| k.contains(*x))
                        .map(|x| x.name().to_lowercase())
                        .collect::<Vec<_>>()
                        .join(" and ")
                ),
                // Keywords show on the permanents themselves.
                CharChange::AddKeywords(_) => continue,
            };
            out.push(format!("{what}{until}"));
        }
        out
    }

    /// One delayed trigger waiting, in words (a line of [`Game::effect_lines`]).
    fn delayed_line(
        &self,
        d: &crate::triggers::DelayedTrigger,
        viewer: Option<PlayerId>,
    ) -> String {
        let name = |id: ObjectId| self.seen_name(id, viewer);
        use crate::triggers::DelayedWhen;
        let card = &self.catalog().get(d.card).name;
        let player = |p: PlayerId| self.describe_target(Target::Player(p));
        match d.when {
            DelayedWhen::NextEndStep => match d.subject {
                Some(s) => format!(
                    "{card}: {} returns to the battlefield at the beginning of the next end step",
                    name(s)
                ),
                None => format!("{card}: an ability waits for the next end step"),
            },
            DelayedWhen::NextDrawStepUnlessPaid {
                player: p,
                pay,
                lose,
            } => format!(
                "{card}: {} loses {lose} life at the beginning of their next draw step unless they pay {{{pay}}} first",
                player(p)
            ),
            DelayedWhen::YourNextUpkeep(p) => format!(
                "{card}: {} pays at the beginning of their next upkeep or loses the game",
                player(p)
            ),
            DelayedWhen::YourNextUpkeepUnplayed(p) => format!(
                "{card}: {} may play {} until the beginning of their next upkeep; then, if they haven't played it, it goes to its owner's graveyard",
                player(p),
                d.subject
                    .map_or_else(|| "the exiled card".to_string(), name)
            ),
            DelayedWhen::EndOfCombatDestroy | DelayedWhen::NextEndStepSacrifice => {
                let what = d.subject.map_or_else(|| "it".to_string(), name);
                let fate = if matches!(d.when, DelayedWhen::EndOfCombatDestroy) {
                    "destroyed at end of combat"
                } else {
                    "sacrificed at the beginning of the next end step"
                };
                format!("{card}: {what} is {fate}")
            }
            DelayedWhen::EndOfCombatDestroyWithBlocked => format!(
                "{card}: at end of combat, {} and all creatures it blocked this turn are destroyed",
                d.subject.map_or_else(|| "it".to_string(), name)
            ),
            DelayedWhen::SourceLeavesThisTurn { source, regen } => format!(
                "{card}: when {} leaves the battlefield this turn, {} is destroyed{}",
                name(source),
                d.subject.map_or_else(|| "that creature".to_string(), name),
                if regen {
                    ""
                } else {
                    " (it can't be regenerated)"
                }
            ),
            DelayedWhen::NextEndStepDiscardReturnLinked => {
                let n = self
                    .links
                    .iter()
                    .filter(|(s, o)| {
                        *s == d.source
                            && self
                                .obj(*o)
                                .is_some_and(|x| x.zone == crate::zones::ZoneKind::Exile)
                    })
                    .count();
                format!(
                    "{card}: at the beginning of the next end step, each player discards their hand and returns the cards they exiled face down ({n} in all) to their hand"
                )
            }
            DelayedWhen::PutIntoYourGraveyardThisTurn(o) => format!(
                "{card}: if {} is put into {}'s graveyard this turn, it returns to the battlefield",
                name(o),
                player(d.controller)
            ),
        }
    }

    /// Whether the effect resolving now asks about hidden cards in its options (Mishra's
    /// search of the graveyard, hand and library): the others are told only of a search.
    fn private_search_resolving(&self) -> bool {
        self.resolution.as_ref().is_some_and(|r| {
            self.item_ability(&r.item).1.get(r.effect)
                == Some(&crate::effects::Effect::SearchZonesForSameNameAsIt)
        })
    }

    /// The pending decision as `viewer` may read it: a hidden choice (what to discard,
    /// what a search finds) is described without private details.
    fn pending_description(&self, p: &Pending, viewer: Option<PlayerId>) -> String {
        match (&p.decision, viewer == Some(p.player)) {
            (
                Decision::Search {
                    library: Some(lib), ..
                },
                mine,
            ) => {
                let whose = self.describe_target(Target::Player(*lib));
                if mine {
                    format!(
                        "search {whose}'s library for a card (with cards there, you must find one)"
                    )
                } else {
                    format!("search {whose}'s library")
                }
            }
            (Decision::Search { .. }, false) => "search their library".into(),
            (Decision::AuraSwap { .. }, false) => {
                "decide whether to exchange an Aura with an Aura card in their hand".into()
            }
            (Decision::PutFromHand { .. }, false) => {
                "decide whether to put a card from their hand onto the battlefield".into()
            }
            (Decision::ChooseMode { .. }, false) if self.private_search_resolving() => {
                "search their graveyard, hand and/or library".into()
            }
            (Decision::YesNo { .. }, false) if self.madness_question_card().is_some() => {
                "decide whether a card being discarded is exiled with madness".into()
            }
            (Decision::PregameAction { .. }, false) => {
                "decide on an action from their opening hand before the game".into()
            }
            (
                Decision::Scry {
                    cards,
                    bottom_only: true,
                    ..
                },
                false,
            ) => format!(
                "put {} revealed card(s) on the bottom of their library in an order",
                cards.len()
            ),
            (
                Decision::Scry {
                    fateseal, cards, ..
                },
                false,
            ) => format!(
                "{} {} card(s)",
                if *fateseal { "fateseal" } else { "scry" },
                cards.len()
            ),
            _ => p.decision.describe(),
        }
    }

    /// The game as `viewer` may see it (None: a spectator).
    pub fn view(&self, viewer: Option<PlayerId>) -> View {
        let combat = self.combat.as_ref();
        View {
            viewer,
            ruleset: self.ruleset,
            turn: self.turn,
            active: self.active,
            step: self.step,
            pending: self.pending.as_ref().map(|p| PendingView {
                player: p.player,
                kind: p.decision.kind_name().to_string(),
                description: self.pending_description(p, viewer),
            }),
            players: self
                .player_ids()
                .map(|id| {
                    let p = self.player(id);
                    PlayerView {
                        id,
                        name: p.name.clone(),
                        life: p.life,
                        poison: p.poison,
                        hand_count: p.hand.len(),
                        library_count: p.library.len(),
                        hand: (viewer == Some(id) || self.hand_revealed(id))
                            .then(|| p.hand.iter().map(|c| self.card_view(*c)).collect()),
                        graveyard: p.graveyard.iter().map(|c| self.card_view(*c)).collect(),
                        mana_pool: p.pool.to_string(),
                        lands_played: p.lands_played,
                        lost: p.lost.is_some(),
                    }
                })
                .collect(),
            battlefield: self
                .battlefield
                .iter()
                .filter_map(|id| self.obj(*id))
                .map(|o| {
                    let pt = self.power_toughness(o.id);
                    let shown = self.visible_card(o.id, viewer);
                    PermanentView {
                        id: o.id,
                        card: if o.face_down { shown } else { o.card },
                        name: self.seen_name(o.id, viewer),
                        owner: o.owner,
                        controller: o.controller,
                        tapped: o.tapped,
                        damage: o.damage,
                        counters: o
                            .counters
                            .0
                            .iter()
                            .map(|(k, n)| (k.to_string(), *n))
                            .collect(),
                        power: pt.map(|x| x.0),
                        toughness: pt.map(|x| x.1),
                        summoning_sick: self.is_creature(o.id)
                            && !self.controlled_since_turn_start(o.id),
                        attacking: combat
                            .and_then(|c| c.attackers.iter().find(|a| a.id == o.id))
                            .map(|a| a.defender),
                        blocking: combat
                            .and_then(|c| c.blockers.iter().find(|b| b.id == o.id))
                            .map(|b| b.attacker),
                        blocking_all: combat.map_or(Vec::new(), |c| {
                            c.blockers
                                .iter()
                                .filter(|b| b.id == o.id)
                                .map(|b| b.attacker)
                                .collect()
                        }),
                        token: o.token,
                        attached_to: o.attached_to,
                        face_down: o.face_down,
                        chosen: self.chosen_words(o.id).or_else(|| o.chosen_type.clone()),
                    }
                })
                .collect(),
            stack: self
                .stack
                .iter()
                .rev()
                .map(|s| {
                    let face_down = s
                        .object()
                        .and_then(|o| self.obj(o))
                        .is_some_and(|o| o.face_down);
                    let card = match s.object() {
                        Some(o) if face_down => self.visible_card(o, viewer),
                        _ => s.card,
                    };
                    StackView {
                        card,
                        name: match (s.kind, s.object()) {
                            (StackKind::CombatDamage { .. }, _) => "Combat damage".to_string(),
                            (_, Some(o)) if face_down => self.seen_name(o, viewer),
                            _ => self.catalog().get(card).name.clone(),
                        },
                        controller: s.controller,
                        is_ability: !s.is_spell(),
                        targets: match s.kind {
                            // Classic combat damage on the stack: who deals what to whom.
                            StackKind::CombatDamage { .. } => self.combat_damage_lines(viewer),
                            _ => s.targets.iter().map(|t| self.describe_target(*t)).collect(),
                        },
                        face_down,
                        flashback: s
                            .object()
                            .and_then(|o| self.obj(o))
                            .is_some_and(|o| o.flashback),
                        division: s
                            .division
                            .iter()
                            .map(|(t, n)| format!("{}: {n}", self.describe_target(*t)))
                            .collect(),
                    }
                })
                .collect(),
            exile: self.exile.iter().map(|c| self.card_view(*c)).collect(),
            result: self.result.clone(),
            draw_reason: self.draw_reason,
            effects: self.effect_lines(viewer),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::ids::PlayerId;

    const BOARD: &str = r#"
name = "view-face-down"
script = ["alice: cast face down Riptide Pilferer", "alice: autopay"]
[setup]
active = "alice"
step = "precombat_main"
turn = 3
[setup.alice]
hand = ["Riptide Pilferer"]
battlefield = [{ card = "Fledgling Mawcor", face_down = true }, "Island", "Island", "Island"]
"#;

    /// 707.2 / 504: only a face-down object's controller may look at it; others see the
    /// face-down 2/2 with no name and no card id (in the view and the JSON built from it).
    #[test]
    fn opponents_see_no_name_or_card_of_face_down_objects() {
        let g = crate::scenario::game_from_str(BOARD).expect("board");
        let cat = g.catalog();
        let mawcor = cat.by_name("Fledgling Mawcor").expect("card").id;
        let pilferer = cat.by_name("Riptide Pilferer").expect("card").id;
        let (alice, bob) = (PlayerId(0), PlayerId(1));
        for viewer in [Some(bob), None] {
            let v = g.view(viewer);
            let p = v
                .battlefield
                .iter()
                .find(|p| p.face_down)
                .expect("face-down permanent");
            assert_eq!(p.card, cat.face_down());
            assert_eq!(p.name, "face-down creature 1");
            assert_eq!((p.power, p.toughness), (Some(2), Some(2)));
            let s = &v.stack[0];
            assert!(s.face_down);
            assert_eq!(s.card, cat.face_down());
            assert_eq!(s.name, "face-down spell 2");
            let json = serde_json::to_string(&v).expect("json");
            for hidden in ["Fledgling", "Mawcor", "Riptide", "Pilferer"] {
                assert!(!json.contains(hidden), "{viewer:?} sees {hidden}: {json}");
            }
            for id in [mawcor, pilferer] {
                assert!(!v.battlefield.iter().any(|p| p.card == id));
                assert!(!v.stack.iter().any(|s| s.card == id));
            }
        }
        // Their controller may look at them.
        let v = g.view(Some(alice));
        let p = v
            .battlefield
            .iter()
            .find(|p| p.face_down)
            .expect("face-down permanent");
        assert_eq!(p.card, mawcor);
        assert_eq!(p.name, "face-down creature 1 (Fledgling Mawcor)");
        assert_eq!(v.stack[0].card, pilferer);
        assert_eq!(v.stack[0].name, "face-down spell 2 (Riptide Pilferer)");
        // The events of the cast name only the face-down spell.
        let mut g2 = crate::scenario::game_from_str(&BOARD.replace(
            r#"script = ["alice: cast face down Riptide Pilferer", "alice: autopay"]"#,
            "script = []",
        ))
        .expect("board");
        let hand = g2.player(alice).hand[0];
        let mut events = g2
            .submit(alice, crate::decision::Answer::CastFaceDown(hand))
            .expect("cast face down");
        events.extend(
            g2.submit(alice, crate::decision::Answer::AutoPay)
                .expect("pay"),
        );
        let json = serde_json::to_string(&events).expect("json");
        assert!(
            !json.contains(&format!("\"card\":{}", pilferer.0)),
            "{json}"
        );
    }
}

#[cfg(test)]
mod effect_line_tests {
    use crate::ids::PlayerId;

    /// Shields, skips and delayed abilities show in everyone's view, with names as each
    /// viewer sees them.
    #[test]
    fn continuing_effects_are_listed() {
        let g = crate::scenario::game_from_str(
            r#"
name = "effects"
description = ""
script = [
  "alice: activate Outrider en-Kor",
  "alice: target Squire",
  "resolve",
  "alice: cast Fixture: Skip Turn",
  "alice: target bob",
  "alice: autopay",
  "resolve",
  "alice: activate Outrider en-Kor",
  "alice: target Fledgling Mawcor",
]
[setup]
active = "alice"
step = "precombat_main"
turn = 3
[setup.alice]
hand = ["Fixture: Skip Turn"]
battlefield = ["Outrider en-Kor", "Squire", "Mountain", { card = "Fledgling Mawcor", face_down = true }]
"#,
        )
        .expect("scenario runs");
        let bob = g.view(Some(PlayerId(1))).effects;
        assert!(
            bob.contains(
                &"the next 1 damage to Outrider en-Kor this turn is dealt to Squire instead"
                    .to_string()
            ),
            "{bob:?}"
        );
        assert!(
            bob.contains(&"Bob skips their next turn".to_string()),
            "{bob:?}"
        );
        // The second activation is still on the stack: only one shield so far, and nothing
        // names the face-down creature for Bob.
        assert_eq!(bob.len(), 2, "{bob:?}");
        assert!(bob.iter().all(|l| !l.contains("Mawcor")), "{bob:?}");
    }
}
