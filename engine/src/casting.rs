//! Casting spells and activating abilities (rule 409), and mana abilities (406, 411).
//!
//! A cast is collected as a transaction ([`Casting`]): X, cost alternatives, targets, the
//! objects a cost needs, and the mana payment are asked one decision at a time; nothing in
//! the game changes until the last answer, when every cost is paid at once and the spell or
//! ability goes on the stack (409.1h-i). `Answer::Cancel` abandons it without a trace.

use crate::cards::{ActivatedAbility, ManaProduce, Support};
use crate::costs::{Cost, CostPart};
use crate::decision::{Answer, Decision, Pending, RuleError, Words};
use crate::events::Event;
use crate::game::Game;
use crate::ids::{ObjectId, PlayerId};
use crate::keywords::Keyword;
pub use crate::keywords::flashback::FlashbackCost;
use crate::mana::autopay::{self, ManaSource, PlannedActivation};
use crate::mana::{Color, ManaPool, ManaType, PayableCost};
use crate::stack::{StackItem, StackKind};
use crate::targets::{Target, TargetSpec};
use crate::types::CardType;
use crate::zones::{Position, ZoneKind};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CastKind {
    Spell(ObjectId),
    Ability {
        source: ObjectId,
        index: u8,
    },
    /// A triggered ability being put on the stack: only its targets are chosen (410.4).
    Trigger(crate::triggers::WaitingTrigger),
    /// The special action of turning a face-down permanent face up by paying its morph
    /// cost (502.26d / 702.36e): the cost is collected like a spell's, but nothing goes on
    /// the stack.
    TurnFaceUp(ObjectId),
    /// The special action of suspending a card from the hand (502.59a / 702.61a): its
    /// suspend cost is collected like a spell's (X included), but nothing goes on the stack.
    Suspend(ObjectId),
    /// Choosing new targets for a copy of a spell just put on the stack (storm, Reiterate:
    /// 706.10 / 707.10, `keywords/storm.rs`): a yes or no, then its targets; no cost, nothing
    /// cast.
    NewTargets(ObjectId),
}

/// The auto-payer's verdict on a payment, from `lists_answer` (the random agent asks before
/// it answers), reused once by `submit` when the cast and `Game::payment_fingerprint` are
/// the same; any other answer clears it.
pub(crate) type PaymentMemo = crate::memo::Memo<Option<KeptPayment>>;

/// A checked cast, the state's digest and the auto-payer's result.
type KeptPayment = (Casting, u64, Result<Casting, RuleError>);

impl PaymentMemo {
    fn keep(&self, c: &Casting, fingerprint: u64, r: Result<Casting, RuleError>) {
        if let Ok(mut g) = self.0.lock() {
            *g = Some((c.clone(), fingerprint, r));
        }
    }

    /// The kept result for this cast and digest (then forgotten).
    fn take(&self, c: &Casting, fingerprint: u64) -> Option<Result<Casting, RuleError>> {
        let kept = self.0.lock().ok()?.take()?;
        (kept.0 == *c && kept.1 == fingerprint).then_some(kept.2)
    }

    /// Forgets the kept payment (no lock taken: the game is held mutably).
    pub(crate) fn clear(&mut self) {
        if let Ok(g) = self.0.get_mut() {
            *g = None;
        }
    }
}

/// While the legal answers at a priority stop are listed (nothing changes meanwhile), the
/// player's mana sources with none excluded, worked out once for every payment check
/// (`Game::payment_feasible`); off otherwise.
pub(crate) type SourcesMemo = crate::memo::Memo<SourcesState>;

#[derive(Default)]
pub(crate) enum SourcesState {
    #[default]
    Off,
    Listing(PlayerId, Option<Vec<ManaSource>>),
}

/// Turns the memo on for `player` while it lives (off again when dropped, even by a panic).
pub(crate) struct Listing<'a>(&'a Game);

impl<'a> Listing<'a> {
    pub(crate) fn begin(game: &'a Game, player: PlayerId) -> Listing<'a> {
        if let Ok(mut s) = game.sources_memo.0.lock() {
            *s = SourcesState::Listing(player, None);
        }
        Listing(game)
    }
}

impl Drop for Listing<'_> {
    fn drop(&mut self) {
        if let Ok(mut s) = self.0.sources_memo.0.lock() {
            *s = SourcesState::Off;
        }
    }
}

/// A spell or ability being cast or activated (409.1a-h), not yet on the stack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Casting {
    pub player: PlayerId,
    pub kind: CastKind,
    /// The chosen mode of a modal spell (409.1b).
    #[serde(default)]
    pub mode: Option<u8>,
    pub x: Option<u32>,
    pub cost_options: Vec<u8>,
    pub targets: Vec<Target>,
    pub cost_objects: Vec<Vec<ObjectId>>,
    /// Mana abilities the player chose to activate for this payment (manual payment).
    pub mana_plan: Vec<(ObjectId, u8, ManaType)>,
    /// A spell cast face down with morph (502.26b / 702.36c): a 2/2 creature spell with no
    /// mana cost, paid for with {3} (an alternative cost).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub face_down: bool,
    /// Cast from its owner's graveyard with flashback, for this cost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flashback: Option<FlashbackCost>,
    /// "Damage divided as you choose among any number of targets": the targets and each
    /// one's share, announced after the other targets (409.1d / 601.2d).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub division: Option<Vec<(Target, u32)>>,
    /// Cast by suspend's last-counter trigger (502.59a / 702.61a): from exile, without
    /// paying its mana cost (an alternative cost: X is 0), timing ignored, mandatory.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub suspend_cast: bool,
    /// Each printed kicker cost announced or not, in order (502.21 / 702.32).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kicks: Vec<bool>,
    /// The printed alternative cost announced ("rather than pay this spell's mana cost":
    /// `keywords/alternative_cost.rs`); `None` until asked (or never asked).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alternative_cost: Option<bool>,
    /// Buyback announced (502.16 / 702.26); `None` until asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buyback: Option<bool>,
    /// A copy's new targets: whether its controller chose to change them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retarget: Option<bool>,
    /// Cast for its madness cost as madness's trigger resolves (502.24a / 702.33a): from
    /// exile, an alternative cost, timing ignored (`keywords/madness.rs`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub madness: bool,
    /// For each madness card a cost discards: whether its owner exiles it with madness.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub madness_choices: Vec<(ObjectId, bool)>,
    /// The cards a "discard at random" cost discards, picked once everything else is
    /// chosen (the cast can't be cancelled after that).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub random_discards: Option<Vec<ObjectId>>,
    /// The optional last target ("up to one other target") was left unchosen.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub skipped_target: bool,
    /// The half of a split card being cast (505.2 / 708.2, `keywords/split.rs`): only its
    /// characteristics exist for the cast.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub half: Option<u8>,
    /// The opponent who chooses a target "of an opponent's choice they control"
    /// (Evangelize, Arena): chosen by the caster before that target (asked only when two
    /// or more opponents could choose one; else the only one), kept by the stack item.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chooser: Option<PlayerId>,
}

impl Casting {
    /// A cast or activation just announced: nothing chosen yet.
    pub fn new(player: PlayerId, kind: CastKind) -> Self {
        Casting {
            player,
            kind,
            mode: None,
            x: None,
            cost_options: Vec::new(),
            targets: Vec::new(),
            cost_objects: Vec::new(),
            mana_plan: Vec::new(),
            face_down: false,
            flashback: None,
            division: None,
            suspend_cast: false,
            kicks: Vec::new(),
            alternative_cost: None,
            buyback: None,
            retarget: None,
            madness: false,
            madness_choices: Vec::new(),
            chooser: None,
            random_discards: None,
            skipped_target: false,
            half: None,
        }
    }
}

/// The parts of a spell or ability that casting needs.
struct Shape {
    targets: &'static [TargetSpec],
    base: Cost,
    additional: &'static [Vec<Cost>],
    divided: Option<&'static crate::cards::DividedDamage>,
    /// "X target <things>": the one target slot is repeated X times (`x_targets`).
    x_targets: bool,
}

impl Shape {
    /// How many targets the cast names: one per slot, or X for "X target <things>".
    fn target_count(&self, c: &Casting) -> usize {
        if self.x_targets {
            c.x.unwrap_or(0) as usize
        } else {
            self.targets.len()
        }
    }

    /// The target spec of `slot` (the one slot's, repeated, for "X target <things>").
    fn target_spec(&self, slot: usize) -> Option<&'static TargetSpec> {
        let targets: &'static [TargetSpec] = self.targets;
        match targets.get(slot) {
            Some(t) => Some(t),
            None if self.x_targets => targets.last(),
            None => None,
        }
    }
}

impl Game {
    fn shape_of(&self, c: &Casting) -> Option<Shape> {
        if c.face_down {
            // The face-down spell has no text (no targets, no additional costs); {3} is
            // paid rather than its mana cost, which it doesn't have.
            return Some(Shape {
                targets: &[],
                base: Cost {
                    mana: Some(crate::mana::ManaCost::generic(3)),
                    ..Cost::default()
                },
                additional: &[],
                divided: None,
                x_targets: false,
            });
        }
        let mut shape = self.shape_with_mode(c.kind, c.mode, c.half)?;
        if c.kicks.iter().any(|k| *k) {
            // 409.1d / 601.2c: the targets a kicked spell has.
            let keys = &self.spell_def(c)?.cast_keys;
            if !keys.kicked_targets.is_empty() {
                shape.targets = &keys.kicked_targets;
            }
        }
        if c.suspend_cast {
            // Without paying its mana cost; additional costs stay (R-suspend-14).
            shape.base.mana = None;
        }
        if c.alternative_cost == Some(true)
            && let Some(alt) = self.alternative_cost_of(c)
        {
            // "Rather than pay this spell's mana cost"; additional costs stay (118.9).
            shape.base = alt.clone();
        }
        if c.flashback == Some(FlashbackCost::Printed)
            && let CastKind::Spell(card) = c.kind
        {
            // The flashback cost replaces the mana cost; additional costs stay (R-gaze-of-justice-1).
            shape.base = self.def(card)?.flashback.clone()?;
        }
        if c.madness
            && let CastKind::Spell(card) = c.kind
        {
            // The madness cost replaces the mana cost; additional costs stay (502.24b).
            shape.base = Cost {
                mana: Some(self.madness_cost(card)?.clone()),
                ..Cost::default()
            };
        }
        Some(shape)
    }

    fn shape_with_mode(
        &self,
        kind: CastKind,
        kind_mode: Option<u8>,
        half: Option<u8>,
    ) -> Option<Shape> {
        match kind {
            CastKind::Spell(card) => {
                let def = self.spell_def_of(card, half)?;
                let targets: &'static [TargetSpec] = if def.spell.modes.is_empty() {
                    &def.spell.targets
                } else {
                    // Before the mode is chosen the spell has no targets yet.
                    match kind_mode {
                        Some(m) => def
                            .spell
                            .modes
                            .get(m as usize)
                            .map_or(&[][..], |x| x.targets.as_slice()),
                        None => &[],
                    }
                };
                Some(Shape {
                    targets,
                    base: Cost {
                        mana: def.mana_cost.clone(),
                        ..Cost::default()
                    },
                    additional: &def.spell.additional_costs,
                    divided: def.spell.divided.as_ref(),
                    x_targets: false,
                })
            }
            CastKind::Ability { source, index } => {
                let a = self.ability(source, index)?;
                Some(Shape {
                    targets: &a.targets,
                    base: a.cost.clone(),
                    additional: &[],
                    divided: None,
                    x_targets: a.x_targets,
                })
            }
            CastKind::Trigger(t) => {
                let d = self.trigger_def(t.def_card(), t.index)?;
                let targets: &'static [TargetSpec] = match kind_mode {
                    Some(m) if !d.modes.is_empty() => d
                        .modes
                        .get(m as usize)
                        .map_or(&[][..], |x| x.targets.as_slice()),
                    _ => &d.targets,
                };
                Some(Shape {
                    targets,
                    base: Cost::default(),
                    additional: &[],
                    divided: d.divided.as_ref(),
                    x_targets: false,
                })
            }
            CastKind::NewTargets(copy) => {
                let item = self.stack.iter().find(|s| s.object() == Some(copy))?;
                // 707.10c: the copy keeps its number of targets ("up to" slots it was cast
                // without stay empty).
                let specs = self.item_ability(item).0;
                Some(Shape {
                    targets: &specs[..item.targets.len().min(specs.len())],
                    base: Cost::default(),
                    additional: &[],
                    divided: None,
                    x_targets: false,
                })
            }
            CastKind::Suspend(card) => Some(Shape {
                targets: &[],
                base: self.def(card)?.suspend.as_ref()?.cost.clone(),
                additional: &[],
                divided: None,
                x_targets: false,
            }),
            CastKind::TurnFaceUp(id) => {
                let o = self.obj(id)?;
                Some(Shape {
                    targets: &[],
                    base: self.catalog().get(o.face_up()).morph.clone()?,
                    additional: &[],
                    divided: None,
                    x_targets: false,
                })
            }
        }
    }

    /// The target a copy has in `slot` while its controller chooses new ones: 707.10c lets
    /// it stay unchanged even if it would now be illegal.
    fn kept_target(&self, c: &Casting, slot: usize) -> Option<Target> {
        let CastKind::NewTargets(copy) = c.kind else {
            return None;
        };
        let item = self.stack.iter().find(|s| s.object() == Some(copy))?;
        item.targets.get(slot).copied()
    }

    /// Whether `slot` is one of a spell's optional last targets ("up to one other target",
    /// "up to three target cards"): it may be left unchosen (then so are the rest).
    fn is_optional_slot(&self, c: &Casting, slot: usize) -> bool {
        let Some(def) = self.spell_def(c) else {
            return false;
        };
        let n = def.spell.optional_targets as usize;
        n > 0
            && !c.face_down
            && def.spell.modes.is_empty()
            && def
                .spell
                .targets
                .len()
                .checked_sub(n)
                .is_some_and(|first| slot >= first)
    }

    /// The total cost with the chosen alternatives (409.1f), and whether it has X.
    fn total_cost(&self, c: &Casting) -> Option<Cost> {
        self.total_of_shape(c, self.shape_of(c)?)
    }

    /// [`Game::total_cost`] from the shape of `c` (`Game::shape_of`).
    fn total_of_shape(&self, c: &Casting, shape: Shape) -> Option<Cost> {
        let mut total = shape.base;
        // "Discard X cards" (Conflagrate's flashback) once X is known.
        let x = c.x.unwrap_or(0);
        total.parts = total
            .parts
            .into_iter()
            .filter(|p| !(matches!(p, CostPart::DiscardX) && x == 0))
            .map(|p| match p {
                CostPart::DiscardX => CostPart::Discard(x),
                CostPart::RemoveXCounters(k) => CostPart::RemoveCounters(k, x),
                other => other,
            })
            .collect();
        for (i, alts) in shape.additional.iter().enumerate() {
            let choice = *c.cost_options.get(i)? as usize;
            total.add(alts.get(choice)?);
        }
        self.add_optional_costs(c, &mut total);
        if let Some(d) = self.delve_part(c, &total) {
            total.parts.push(d);
        }
        if let Some(d) = self.convoke_part(c, &total) {
            total.parts.push(d);
        }
        Some(total)
    }

    fn choice_parts(cost: &Cost) -> Vec<CostPart> {
        cost.parts
            .iter()
            .filter(|p| {
                matches!(
                    p,
                    CostPart::Discard(_)
                        | CostPart::DiscardSameName
                        | CostPart::ExileFromHand(..)
                        | CostPart::Sacrifice(..)
                        | CostPart::ExileFromGraveyard(..)
                        | CostPart::TapUntapped(..)
                        | CostPart::ReturnToHand(..)
                        | CostPart::RemoveCounterFromYours(_)
                        | CostPart::Delve(_)
                        | CostPart::Convoke(_)
                )
            })
            .cloned()
            .collect()
    }

    pub(crate) fn payable_mana(&self, c: &Casting) -> PayableCost {
        self.payable_mana_of(c, self.total_cost(c).as_ref())
    }

    /// [`Game::payable_mana`] from the total cost of `c` (`Game::total_cost`), for callers
    /// that have it already.
    fn payable_mana_of(&self, c: &Casting, total: Option<&Cost>) -> PayableCost {
        let mut cost = self.payable_of_total(c, total);
        // Convoke (`keywords/convoke.rs`): the creatures tapped pay for mana of the total
        // cost (classic: reduce it), after increases and reductions.
        if let Some(parts) = total.map(Self::choice_parts) {
            let creatures = self.convoke_creatures(c, &parts);
            if !creatures.is_empty() {
                self.convoke_pay(&mut cost, &creatures);
            }
        }
        self.as_spendable(c.player, cost)
    }

    /// The mana a spell or ability costs before convoke's creatures pay their part.
    pub(crate) fn payable_before_convoke(&self, c: &Casting) -> PayableCost {
        self.payable_of_total(c, self.total_cost(c).as_ref())
    }

    /// [`Game::payable_before_convoke`] from the total cost of `c` (`Game::total_cost`).
    fn payable_of_total(&self, c: &Casting, total: Option<&Cost>) -> PayableCost {
        let delve = total.map_or(0, |t| self.delve_reduction(c, &Self::choice_parts(t)));
        let mut cost = total
            .and_then(|t| t.mana.as_ref())
            .map(|m| m.to_payable(c.x.unwrap_or(0)))
            .unwrap_or_default();
        if let CastKind::Spell(card) = c.kind {
            // Cost increases apply to the total cost, also of a spell cast without paying
            // its mana cost (R-suspend-14).
            cost.generic += self.spell_cost_increase();
            if !c.face_down {
                // Cost reductions apply to the total cost, flashback's too (R-flashback-3),
                // and reduce only its generic part (R-locket-of-yesterdays-2).
                cost.generic = cost
                    .generic
                    .saturating_sub(self.spell_cost_reduction(c.player, card));
            }
            // Delve: each card exiled pays for {1} (702.65a; classic: costs {1} less).
            cost.generic = cost.generic.saturating_sub(delve);
        }
        cost
    }

    /// Whether `player` controls a permanent that makes their spells cheaper.
    pub(crate) fn has_cost_reducer(&self, player: PlayerId) -> bool {
        self.has_cost_reducers
            && self.battlefield_of(player).any(|o| {
                self.def(o.id).is_some_and(|d| {
                    d.reduce_per_same_name_in_graveyard > 0 || d.spells_cost_less.is_some()
                })
            })
    }

    /// Generic mana every spell costs more (a fixture's "Spells cost {1} more to cast").
    pub(crate) fn spell_cost_increase(&self) -> u32 {
        if !self.has_cost_reducers {
            return 0;
        }
        self.battlefield
            .iter()
            .filter(|id| self.has_own_abilities(**id))
            .filter_map(|id| self.def(*id))
            .map(|d| d.spells_cost_more)
            .sum()
    }

    /// Generic mana `player`'s spell `card` costs less (Locket of Yesterdays: {1} for each
    /// card with its name in their graveyard; the card being cast is already on the stack
    /// as its costs are determined, so it never counts itself: R-locket-of-yesterdays-3).
    fn spell_cost_reduction(&self, player: PlayerId, card: ObjectId) -> u32 {
        if !self.has_cost_reducers {
            return 0;
        }
        // "<Filter> spells you cast cost {N} less" (Stormscape Familiar, Undead Warchief).
        let by_filter: u32 = self
            .battlefield_of(player)
            .filter(|o| self.has_own_abilities(o.id))
            .filter_map(|o| self.def(o.id))
            .filter_map(|d| d.spells_cost_less.as_ref())
            .filter(|(_, f)| self.matches_filter(card, f, player))
            .map(|(n, _)| *n)
            .sum();
        // Avatar of Woe: "if there are ten or more creature cards total in all graveyards,
        // this spell costs {6} less" (the card itself is on the stack, not counted).
        let own = self
            .obj(card)
            .and_then(|o| {
                self.catalog()
                    .get(o.face_up())
                    .costs_less_with_creature_cards_in_graveyards
            })
            .filter(|(at_least, _)| self.creature_cards_in_graveyards() >= *at_least)
            .map_or(0, |(_, less)| less);
        by_filter + own + self.same_name_reduction(player, card)
    }

    /// The creature cards in all graveyards.
    fn creature_cards_in_graveyards(&self) -> u32 {
        self.players
            .iter()
            .flat_map(|p| p.graveyard.iter())
            .filter(|g| {
                self.obj(**g)
                    .is_some_and(|o| self.catalog().get(o.face_up()).has_type(CardType::Creature))
            })
            .count() as u32
    }

    /// Locket of Yesterdays's reduction.
    fn same_name_reduction(&self, player: PlayerId, card: ObjectId) -> u32 {
        let per: u32 = self
            .battlefield_of(player)
            .filter(|o| self.has_own_abilities(o.id))
            .filter_map(|o| self.def(o.id))
            .map(|d| d.reduce_per_same_name_in_graveyard)
            .sum();
        if per == 0 {
            return 0;
        }
        let Some(name) = self.obj(card).map(|o| self.catalog().get(o.face_up())) else {
            return 0;
        };
        // A split card in the graveyard has both names (505.6 / 708.6).
        let same = self
            .player(player)
            .graveyard
            .iter()
            .filter(|g| {
                **g != card
                    && self
                        .obj(**g)
                        .is_some_and(|o| self.catalog().get(o.face_up()).shares_name_with(name))
            })
            .count() as u32;
        per * same
    }

    /// A cost as `player` must pay it under the spending rules of the permanents they
    /// control (Celestial Dawn: "spend white mana as though it were mana of any color; other
    /// mana only as though it were colorless"): each coloured or hybrid symbol must then be
    /// paid with white mana, and any mana pays generic. The pool is spent as it is, so what
    /// was really spent stays visible (R-celestial-dawn-5).
    pub(crate) fn as_spendable(&self, player: PlayerId, cost: PayableCost) -> PayableCost {
        let Some(color) = self.spend_rule_color(player) else {
            return cost;
        };
        let colored = cost.colored.iter().sum::<u32>() + cost.hybrid.len() as u32;
        let mut out = PayableCost {
            generic: cost.generic,
            ..PayableCost::default()
        };
        out.colored[color as usize] = colored;
        out
    }

    /// The colour a spending rule lets `player` spend as any colour, if one applies.
    pub(crate) fn spend_rule_color(&self, player: PlayerId) -> Option<Color> {
        if !self.layered {
            return None;
        }
        self.battlefield_of(player).find_map(|o| {
            let crate::cards::SpendRule::OnlyColorAsAny(c) = self.def(o.id)?.spend_rule?;
            // (Its colour word can't be text-changed: `text_change_supported`.)
            self.has_own_abilities(o.id).then_some(c)
        })
    }

    /// The next thing to ask, or None when the cast is complete.
    fn next_casting_decision(&self, c: &Casting) -> Option<Decision> {
        if let Some(modes) = self.modes_of(c)
            && c.mode.is_none()
        {
            return Some(Decision::ChooseMode {
                options: modes.iter().map(|m| m.text.clone()).collect(),
            });
        }
        // 409.1b / 601.2b: an alternative cost, kicker and buyback are announced with the
        // mode, before X.
        if let Some(d) = self.alternative_cost_decision(c) {
            return Some(d);
        }
        if let Some(d) = self.optional_cost_decision(c) {
            return Some(d);
        }
        if let CastKind::NewTargets(copy) = c.kind {
            match c.retarget {
                None => {
                    return Some(Decision::YesNo {
                        question: self.retarget_question(copy),
                    });
                }
                Some(false) => return None,
                Some(true) => {}
            }
        }
        let shape = self.shape_of(c)?;
        let has_x = shape.base.mana.as_ref().is_some_and(|m| m.has_x())
            || shape.base.parts.contains(&CostPart::DiscardX)
            || self.kicker_has_x(c);
        if has_x && c.x.is_none() {
            return Some(Decision::ChooseX);
        }
        if c.cost_options.len() < shape.additional.len() {
            let index = c.cost_options.len();
            return Some(Decision::ChooseCostOption {
                index: index as u8,
                options: shape.additional[index]
                    .iter()
                    .map(|o| o.to_string())
                    .collect(),
            });
        }
        if c.targets.len() < shape.target_count(c)
            && !(c.skipped_target && self.is_optional_slot(c, c.targets.len()))
        {
            let slot = c.targets.len();
            let spec = shape.target_spec(slot)?;
            // "An opponent's choice": first the caster chooses which opponent.
            if spec.chosen_by_opponent && c.chooser.is_none() {
                let options = self.chooser_options(c, spec);
                if options.len() > 1 {
                    return Some(Decision::ChooseMode {
                        options: options
                            .iter()
                            .map(|p| format!("{} chooses the target", self.player(*p).name))
                            .collect(),
                    });
                }
            }
            return Some(Decision::ChooseTarget {
                slot: slot as u8,
                spec: spec.clone(),
            });
        }
        if let Some(d) = shape.divided
            && c.division.is_none()
        {
            let amount = self.divided_amount(c, d);
            if amount > 0 {
                return Some(Decision::DivideDamage {
                    amount,
                    spec: d.spec.clone(),
                });
            }
        }
        let total = self.total_of_shape(c, shape)?;
        let parts = Self::choice_parts(&total);
        if c.cost_objects.len() < parts.len() {
            return Some(Decision::ChooseCostObjects {
                part: parts[c.cost_objects.len()].clone(),
            });
        }
        if let Some((_, p)) = self.madness_question_of(c, &total) {
            return Some(p.decision);
        }
        let cost = self.payable_mana_of(c, Some(&total));
        if !cost.is_zero() && !self.plan_covers(c, &cost) {
            return Some(Decision::PayMana { cost });
        }
        None
    }

    fn plan_covers(&self, c: &Casting, cost: &PayableCost) -> bool {
        self.pool_after(&self.player(c.player).pool, &c.mana_plan)
            .try_pay(cost)
    }

    /// `pool` with the mana of these activations added, triggered mana included.
    fn pool_after(&self, pool: &ManaPool, plan: &[(ObjectId, u8, ManaType)]) -> ManaPool {
        let mut pool = pool.clone();
        for (src, ability, t) in plan {
            pool.add(*t, 1 + self.triggered_mana_bonus(*src, *ability, *t));
        }
        pool
    }

    /// Whether some card in the game adds mana when a basic land is tapped for mana
    /// (Gauntlet of Power): then a land may be worth more than one mana, which the solver's
    /// one-mana-per-source matching and the simple mana pool don't count.
    pub(crate) fn triggered_mana_possible(&self) -> bool {
        self.facts().boosts_basic_land_mana
    }

    /// Triggered mana abilities (2006 406.1b / 2014 605.1b: an ability that triggers from
    /// activating a mana ability and could add mana is a mana ability; it resolves at once):
    /// the mana they add when `source`'s ability `ability` makes `mana`. Gauntlet of Power:
    /// "whenever a basic land is tapped for mana of the chosen color, its controller adds an
    /// additional one mana of that color", one for each such Gauntlet with its abilities.
    pub(crate) fn triggered_mana_bonus(
        &self,
        source: ObjectId,
        ability: u8,
        mana: ManaType,
    ) -> u32 {
        let ManaType::Colored(color) = mana else {
            return 0;
        };
        if !self.triggered_mana_possible()
            || !self.ability(source, ability).is_some_and(|a| a.cost.tap)
            || !self.is_land(source)
            || !self
                .def(source)
                .is_some_and(|d| d.supertypes.contains(&crate::types::Supertype::Basic))
        {
            return 0;
        }
        self.battlefield
            .iter()
            .filter(|g| {
                self.def(**g)
                    .is_some_and(|d| d.basic_land_mana_of_chosen_color_adds_one)
                    && self.has_own_abilities(**g)
                    && self.chosen_color(**g) == Some(color)
            })
            .count() as u32
    }

    /// The auto-payer's plan for `cost` from `pool` and `sources`, counting triggered mana
    /// (Gauntlet of Power), which the solver doesn't: it counts one mana per source. When
    /// the solver finds no plan, boosted basic lands are tapped first, one at a time, their
    /// extra mana added to the pool, until the rest can be paid; then the activations the
    /// extra mana makes unneeded are dropped, so a payment never taps a land it needn't
    /// (classic: the mana left would burn).
    pub(crate) fn solve_payment(
        &self,
        pool: &ManaPool,
        sources: &[autopay::ManaSource],
        cost: &PayableCost,
        demand: &autopay::Demand,
    ) -> Option<Vec<PlannedActivation>> {
        let boosted = self.triggered_mana_possible();
        if let Some(plan) = autopay::solve_keeping(pool, sources, cost, demand) {
            return Some(if boosted {
                self.drop_unneeded(pool, cost, plan)
            } else {
                plan
            });
        }
        if !boosted {
            return None;
        }
        let mut trial = pool.clone();
        let mut rest: Vec<autopay::ManaSource> = sources.to_vec();
        let mut first: Vec<PlannedActivation> = Vec::new();
        loop {
            let (i, (ability, mana, bonus)) = rest.iter().enumerate().find_map(|(i, src)| {
                src.choices.iter().find_map(|&(a, t, _)| {
                    let bonus = self.triggered_mana_bonus(src.permanent, a, t);
                    (bonus > 0).then_some((i, (a, t, bonus)))
                })
            })?;
            let src = rest.remove(i);
            trial.add(mana, 1 + bonus);
            first.push(PlannedActivation {
                permanent: src.permanent,
                ability,
                mana,
            });
            if let Some(plan) = autopay::solve_keeping(&trial, &rest, cost, demand) {
                first.extend(plan);
                return Some(self.drop_unneeded(pool, cost, first));
            }
        }
    }

    /// `plan` without the activations the others' triggered mana makes unneeded, last
    /// first: what remains still pays `cost` from `pool`.
    fn drop_unneeded(
        &self,
        pool: &ManaPool,
        cost: &PayableCost,
        mut plan: Vec<PlannedActivation>,
    ) -> Vec<PlannedActivation> {
        let covers = |plan: &[PlannedActivation]| {
            let plan: Vec<_> = plan
                .iter()
                .map(|a| (a.permanent, a.ability, a.mana))
                .collect();
            self.pool_after(pool, &plan).try_pay(cost)
        };
        let mut i = plan.len();
        while i > 0 {
            i -= 1;
            let mut trial = plan.clone();
            trial.remove(i);
            if covers(&trial) {
                plan = trial;
            }
        }
        plan
    }

    /// An auto-payer's plan without the activations that triggered mana makes unneeded
    /// (Gauntlet of Power: one Forest then pays {G}{G}); the solver counts one mana per
    /// source, so without triggered mana nothing is dropped.
    fn drop_unneeded_activations(
        &self,
        c: &Casting,
        cost: &PayableCost,
        plan: Vec<PlannedActivation>,
    ) -> Vec<PlannedActivation> {
        if !self.triggered_mana_possible() {
            return plan;
        }
        let pool = self.pool_after(&self.player(c.player).pool, &c.mana_plan);
        self.drop_unneeded(&pool, cost, plan)
    }

    // ----- beginning a cast ----------------------------------------------------------------

    fn check_begin_cast(&self, player: PlayerId, card: ObjectId) -> Result<Casting, RuleError> {
        self.check_begin_cast_as(player, card, None)
    }

    /// Beginning to cast `card`, or one half of it when it is a split card (505.2 / 708.2).
    pub(crate) fn check_begin_cast_as(
        &self,
        player: PlayerId,
        card: ObjectId,
        half: Option<u8>,
    ) -> Result<Casting, RuleError> {
        self.begin_cast_in(player, card, half, Words::Explain)
    }

    /// [`Game::check_begin_cast_as`], its refusal worded per `w`.
    pub(crate) fn begin_cast_in(
        &self,
        player: PlayerId,
        card: ObjectId,
        half: Option<u8>,
        w: Words,
    ) -> Result<Casting, RuleError> {
        let flashback = self.flashback_to_cast(player, card)?;
        let whole = match flashback {
            Some(_) => self.supported(card)?,
            None => self.supported_card_to_cast(player, card)?,
        };
        let def = self.half_to_cast(whole, half)?;
        if def.has_type(CardType::Land) {
            return Err(RuleError::illegal(format!(
                "{} is a land: play it instead of casting it",
                def.name
            )));
        }
        let mut c = Casting {
            flashback,
            half,
            ..Casting::new(player, CastKind::Spell(card))
        };
        if def.mana_cost.is_none() {
            // Δ24 / 213.1a: a missing mana cost can't be paid; an alternative cost can be
            // (R-no-mana-cost-2: Fist of Suns), and is then the only way.
            if self.alternative_cost_of(&c).is_none() {
                return Err(w.illegal(|| {
                    format!(
                        "{} has no mana cost, so it can't be cast normally",
                        def.name
                    )
                }));
            }
            c.alternative_cost = Some(true);
        }
        let owner = self.obj(card).map_or(player, |o| o.owner);
        self.check_cast_timing_owned(player, owner, def)?;
        self.castable_in(&c, w)?;
        Ok(c)
    }

    /// A card's definition, if the engine supports it.
    fn supported(&self, card: ObjectId) -> Result<&'static crate::cards::CardDef, RuleError> {
        let o = self
            .obj(card)
            .ok_or_else(|| RuleError::illegal("that card is no longer there"))?;
        let def = self.catalog().get(o.face());
        if let Support::Unsupported(why) = &def.support {
            return Err(RuleError::illegal(format!(
                "{} can't be cast: the engine does not support it yet ({why})",
                def.name
            )));
        }
        Ok(def)
    }

    /// The damage a divided-damage spell being cast divides (X once chosen).
    fn divided_amount(&self, c: &Casting, d: &crate::cards::DividedDamage) -> u32 {
        match d.amount {
            crate::effects::Amount::Fixed(n) => n.max(0) as u32,
            crate::effects::Amount::X => c.x.unwrap_or(0),
            // Loading accepts only a number or X.
            _ => 0,
        }
    }

    /// 409.1d / 601.2d: a division of the damage among targets: one to `amount` different
    /// legal targets, each assigned at least 1, the shares adding up to `amount`.
    fn check_division(
        &self,
        c: &Casting,
        spec: &TargetSpec,
        amount: u32,
        division: &[(Target, u32)],
    ) -> Result<(), RuleError> {
        if division.is_empty() {
            return Err(RuleError::illegal(format!(
                "choose at least one target for the {amount} damage (each target gets at least 1)"
            )));
        }
        let mut total = 0u32;
        for (i, (t, n)) in division.iter().enumerate() {
            if *n == 0 {
                return Err(RuleError::illegal(
                    "each target of divided damage must be assigned at least 1 damage",
                ));
            }
            if division[..i].iter().any(|(u, _)| u == t) {
                return Err(RuleError::illegal(
                    "the same target was named twice: give it its whole share once",
                ));
            }
            self.check_target(c, spec, *t)?;
            total = total.saturating_add(*n);
        }
        if total != amount {
            return Err(RuleError::illegal(format!(
                "the shares add up to {total}, but exactly {amount} damage must be divided"
            )));
        }
        Ok(())
    }

    /// The card `player` wants to cast from their hand, or from exile by a permission to
    /// play it (Grinning Totem, `play_permission.rs`), if it is there and supported.
    pub(crate) fn supported_card_to_cast(
        &self,
        player: PlayerId,
        card: ObjectId,
    ) -> Result<&'static crate::cards::CardDef, RuleError> {
        if self.may_play_from_exile(player, card) {
            return self.supported(card);
        }
        self.supported_card_in_hand(player, card)
    }

    /// The card `player` wants to cast from their hand, if it is there and supported.
    pub(crate) fn supported_card_in_hand(
        &self,
        player: PlayerId,
        card: ObjectId,
    ) -> Result<&'static crate::cards::CardDef, RuleError> {
        let o = self
            .obj(card)
            .ok_or_else(|| RuleError::illegal("that card is no longer there"))?;
        let def = self.catalog().get(o.face());
        if o.zone != ZoneKind::Hand || o.owner != player {
            return Err(RuleError::illegal(format!(
                "{} is not in your hand",
                def.name
            )));
        }
        if let Support::Unsupported(why) = &def.support {
            return Err(RuleError::illegal(format!(
                "{} can't be cast: the engine does not support it yet ({why})",
                def.name
            )));
        }
        Ok(def)
    }

    fn check_begin_activate(
        &self,
        player: PlayerId,
        source: ObjectId,
        index: u8,
    ) -> Result<Casting, RuleError> {
        self.begin_activate_in(player, source, index, Words::Explain)
    }

    /// [`Game::check_begin_activate`], its refusal worded per `w`.
    fn begin_activate_in(
        &self,
        player: PlayerId,
        source: ObjectId,
        index: u8,
        w: Words,
    ) -> Result<Casting, RuleError> {
        let o = self
            .obj(source)
            .ok_or_else(|| RuleError::illegal("that permanent is no longer there"))?;
        let def = self.catalog().get(o.face());
        // Cycling, transmute and forecast work from the owner's hand (`keywords/cycling.rs`),
        // nothing else does.
        let from_hand = self.ability(source, index).filter(|a| a.from_hand);
        let cycling = from_hand.is_some();
        let from_graveyard = self
            .ability(source, index)
            .is_some_and(|a| a.from_graveyard);
        let while_suspended = self
            .ability(source, index)
            .is_some_and(|a| a.while_suspended);
        if let Some(a) = from_hand {
            self.check_hand_ability_source(player, source, a)?;
        } else if while_suspended {
            // Greater Gargadon: only while it is suspended, by its owner.
            if !self.is_suspended(source) || o.owner != player {
                return Err(RuleError::illegal(format!(
                    "{} isn't a suspended card you own: that ability works only while it is suspended",
                    def.name
                )));
            }
        } else if from_graveyard {
            // Chronosavant: only from its owner's graveyard (its controller there).
            if o.zone != ZoneKind::Graveyard || o.owner != player {
                return Err(RuleError::illegal(format!(
                    "{} is not in your graveyard: that ability works only from there",
                    def.name
                )));
            }
        } else if o.zone != ZoneKind::Battlefield {
            return Err(RuleError::illegal(format!(
                "{} is not on the battlefield",
                def.name
            )));
        }
        let opponents_only = self
            .ability(source, index)
            .is_some_and(|a| a.opponents_only);
        if opponents_only && o.controller == player {
            return Err(RuleError::illegal(format!(
                "only your opponents may activate that ability of {}",
                def.name
            )));
        }
        if !cycling && !opponents_only && o.controller != player {
            return Err(RuleError::illegal(format!(
                "you don't control {}",
                def.name
            )));
        }
        if !self.has_own_abilities(source) && index < crate::cards::GRANTED_ABILITY {
            return Err(RuleError::illegal(format!(
                "{} has lost its abilities",
                def.name
            )));
        }
        if self.activation_forbidden(source) {
            return Err(RuleError::illegal(format!(
                "{}'s activated abilities can't be activated (it is enchanted by an Aura that forbids it)",
                def.name
            )));
        }
        let a = self.ability(source, index).ok_or_else(|| {
            RuleError::illegal(format!("{} has no ability {}", def.name, index + 1))
        })?;
        if a.is_mana_ability() {
            return Err(RuleError::illegal(
                "that is a mana ability: activate it for mana instead",
            ));
        }
        self.check_ability_timing(player, source, index)?;
        let c = Casting::new(player, CastKind::Ability { source, index });
        self.castable_in(&c, w)?;
        Ok(c)
    }

    /// 409.1c and 409.1h, checked up front: every target slot has a legal choice, and for
    /// some choice of cost alternatives every cost can be paid.
    /// The modes of a modal spell being cast.
    fn modes_of(&self, c: &Casting) -> Option<&'static [crate::cards::SpellMode]> {
        if c.face_down {
            return None;
        }
        if let CastKind::Trigger(t) = c.kind {
            // A modal triggered ability: the mode is chosen as it is put on the stack.
            return self
                .trigger_def(t.def_card(), t.index)
                .map(|d| d.modes.as_slice())
                .filter(|m| !m.is_empty());
        }
        self.spell_def(c)
            .map(|d| d.spell.modes.as_slice())
            .filter(|m| !m.is_empty())
    }

    pub(crate) fn check_castable(&self, c: &Casting) -> Result<(), RuleError> {
        self.castable_in(c, Words::Explain)
    }

    /// [`Game::check_castable`], its refusal worded per `w`.
    pub(crate) fn castable_in(&self, c: &Casting, w: Words) -> Result<(), RuleError> {
        if let Some(modes) = self.modes_of(c)
            && c.mode.is_none()
        {
            // Castable if some mode is (409.1b-c).
            let mut last = None;
            for m in 0..modes.len() as u8 {
                match self.castable_in(
                    &Casting {
                        mode: Some(m),
                        ..c.clone()
                    },
                    w,
                ) {
                    Ok(()) => return Ok(()),
                    Err(e) => last = Some(e),
                }
            }
            return Err(last.unwrap_or_else(|| RuleError::illegal("no mode can be chosen")));
        }
        if let Some(r) = self.castable_either_cost(c, w) {
            return r;
        }
        let shape = self
            .shape_of(c)
            .ok_or_else(|| RuleError::illegal("that is no longer there"))?;
        for (slot, spec) in shape.targets.iter().enumerate() {
            // "X target <things>": X may be 0, so no target is needed to begin.
            if self.is_optional_slot(c, slot)
                || shape.x_targets
                || self.kept_target(c, slot).is_some()
            {
                continue;
            }
            if !self.has_target_candidate(c, spec) {
                return Err(w.illegal(|| {
                    format!(
                        "there is no legal target for it: it needs {}",
                        spec.describe()
                    )
                }));
            }
        }
        if let Some(d) = shape.divided
            && self.divided_amount(c, d) > 0
            && !self.has_target_candidate(c, &d.spec)
        {
            return Err(w.illegal(|| {
                format!(
                    "there is no legal target for its damage: it needs {}",
                    d.spec.describe()
                )
            }));
        }
        let mut combos: Vec<Vec<u8>> = vec![Vec::new()];
        for alts in shape.additional {
            combos = combos
                .into_iter()
                .flat_map(|v| {
                    (0..alts.len() as u8).map(move |i| {
                        let mut w = v.clone();
                        w.push(i);
                        w
                    })
                })
                .collect();
        }
        let mut last_err = None;
        for combo in combos {
            let trial = Casting {
                cost_options: combo,
                ..c.clone()
            };
            match self.costs_payable_in(&trial, w) {
                Ok(()) => return Ok(()),
                Err(e) => last_err = Some(e),
            }
        }
        Err(last_err.unwrap_or_else(|| RuleError::illegal("its costs can't be paid")))
    }

    /// Costs paid with cards of the hand: Jhoira's "exile a nonland card from your hand",
    /// grandeur's "discard another card named ~".
    fn check_hand_cost_part(
        &self,
        c: &Casting,
        part: &CostPart,
        source: Option<ObjectId>,
    ) -> Result<(), RuleError> {
        let have = self.cost_object_candidates(c, part).len() as u32;
        match part {
            CostPart::ExileFromHand(f, n) if have < *n => Err(RuleError::illegal(format!(
                "you have no {} card in your hand to exile",
                crate::costs::card_filter_words(f)
            ))),
            CostPart::DiscardSameName if have == 0 => {
                let name = source.map_or(String::new(), |s| self.card_name(s).to_string());
                Err(RuleError::illegal(format!(
                    "you have no other card named {name} in your hand to discard (grandeur)"
                )))
            }
            _ => Ok(()),
        }
    }

    fn check_costs_payable(&self, c: &Casting) -> Result<(), RuleError> {
        self.costs_payable_in(c, Words::Explain)
    }

    /// [`Game::check_costs_payable`], its refusal for mana worded per `w` (the other
    /// refusals are rare and worded always).
    fn costs_payable_in(&self, c: &Casting, w: Words) -> Result<(), RuleError> {
        let total = self
            .total_cost(c)
            .ok_or_else(|| RuleError::illegal("that is no longer there"))?;
        let source = match c.kind {
            CastKind::Ability { source, .. } => Some(source),
            CastKind::Spell(_)
            | CastKind::Trigger(_)
            | CastKind::TurnFaceUp(_)
            | CastKind::Suspend(_)
            | CastKind::NewTargets(_) => None,
        };
        if let Some(src) = source {
            let o = self
                .obj(src)
                .ok_or_else(|| RuleError::illegal("that permanent is no longer there"))?;
            let name = &self.catalog().get(o.face()).name;
            if total.tap {
                if o.tapped {
                    return Err(RuleError::illegal(format!("{name} is tapped")));
                }
                if self.is_creature(src)
                    && !self.controlled_since_turn_start(src)
                    && !self.has_keyword(src, Keyword::Haste)
                {
                    return Err(RuleError::illegal(format!(
                        "{name} has summoning sickness: it came under your control this turn"
                    )));
                }
            }
            if total.untap && !o.tapped {
                return Err(RuleError::illegal(format!("{name} is untapped")));
            }
        }
        for part in &total.parts {
            match part {
                CostPart::PayLife(n) => {
                    if self.player(c.player).life < *n as i32 {
                        return Err(RuleError::illegal(format!("you can't pay {n} life")));
                    }
                }
                CostPart::RemoveCounters(k, n) => {
                    let have = source
                        .and_then(|s| self.obj(s))
                        .map_or(0, |o| o.counters.get(k));
                    if have < *n {
                        return Err(RuleError::illegal(format!(
                            "it doesn't have {n} {k} counter(s) to remove"
                        )));
                    }
                }
                CostPart::Discard(n) | CostPart::DiscardRandom(n) => {
                    let available = self.cost_object_candidates(c, part).len() as u32;
                    if available < *n {
                        return Err(RuleError::illegal(format!(
                            "you don't have {n} other card(s) to discard"
                        )));
                    }
                }
                CostPart::Sacrifice(f, n) => {
                    if (self.cost_object_candidates(c, part).len() as u32) < *n {
                        return Err(RuleError::illegal(format!(
                            "you don't control {n} {f} to sacrifice"
                        )));
                    }
                }
                CostPart::ExileFromGraveyard(f, n) => {
                    if (self.cost_object_candidates(c, part).len() as u32) < *n {
                        let what = crate::costs::card_filter_words(f);
                        return Err(RuleError::illegal(if *n == 1 {
                            format!("there is no {what} card in any graveyard to exile")
                        } else {
                            format!("there are fewer than {n} {what} cards in graveyards to exile")
                        }));
                    }
                }
                CostPart::RemoveCounterFromYours(k) => {
                    if self.cost_object_candidates(c, part).is_empty() {
                        return Err(RuleError::illegal(format!(
                            "no permanent you control or suspended card you own has a {k} counter to remove"
                        )));
                    }
                }
                CostPart::ReturnToHand(f, n) => {
                    if (self.cost_object_candidates(c, part).len() as u32) < *n {
                        return Err(RuleError::illegal(format!(
                            "you don't control {n} {} to return to their owner's hand",
                            crate::costs::card_filter_words(f)
                        )));
                    }
                }
                CostPart::TapUntapped(f, n) => {
                    if (self.cost_object_candidates(c, part).len() as u32) < *n {
                        return Err(RuleError::illegal(format!(
                            "you don't control {n} permanents to tap for it (each an {f})"
                        )));
                    }
                }
                CostPart::DiscardThis => {
                    if !source
                        .and_then(|s| self.obj(s))
                        .is_some_and(|o| o.zone == ZoneKind::Hand)
                    {
                        return Err(RuleError::illegal("that card is not in your hand"));
                    }
                }
                CostPart::ExileFromHand(..) | CostPart::DiscardSameName => {
                    self.check_hand_cost_part(c, part, source)?;
                }
                // Exiling none (tapping none) is always possible.
                CostPart::Delve(_) | CostPart::Convoke(_) => {}
                // Turned into `Discard(X)` / `RemoveCounters(X)` by `total_cost`.
                CostPart::DiscardX | CostPart::RemoveXCounters(_) => {}
                CostPart::SacrificeThis
                | CostPart::ExileThis
                | CostPart::ReturnThis
                | CostPart::PutCounterOnThis(_) => {
                    if source.is_none() {
                        return Err(RuleError::illegal("nothing to sacrifice"));
                    }
                }
            }
        }
        let mana = self.payable_mana_of(c, Some(&total));
        if !mana.is_zero() {
            let exclude: Vec<ObjectId> = source
                .filter(|_| total.tap || total.untap)
                .into_iter()
                .collect();
            if !self.payment_possible(c, &mana, &exclude) {
                return Err(w.illegal(|| {
                    let rule = match self.spend_rule_color(c.player) {
                        Some(col) => format!(
                            " (you may spend only {} mana on coloured costs, and other mana only as colourless)",
                            col.name()
                        ),
                        None => String::new(),
                    };
                    format!("you can't pay {mana} with your untapped mana sources{rule}")
                }));
            }
        }
        Ok(())
    }

    pub(crate) fn can_begin_cast(&self, player: PlayerId, card: ObjectId) -> bool {
        self.begin_cast_in(player, card, None, Words::Quiet).is_ok()
    }
    pub(crate) fn can_begin_activate(&self, player: PlayerId, source: ObjectId, index: u8) -> bool {
        self.begin_activate_in(player, source, index, Words::Quiet)
            .is_ok()
    }

    pub(crate) fn begin_cast(&mut self, player: PlayerId, card: ObjectId) -> Result<(), RuleError> {
        let c = self.check_begin_cast(player, card)?;
        self.continue_casting(c);
        Ok(())
    }
    pub(crate) fn begin_activate(
        &mut self,
        player: PlayerId,
        source: ObjectId,
        index: u8,
    ) -> Result<(), RuleError> {
        let c = self.check_begin_activate(player, source, index)?;
        self.continue_casting(c);
        Ok(())
    }

    pub(crate) fn continue_casting(&mut self, mut c: Casting) {
        // Single alternatives are not a choice.
        if let Some(shape) = self.shape_of(&c) {
            while c.cost_options.len() < shape.additional.len()
                && shape.additional[c.cost_options.len()].len() == 1
            {
                c.cost_options.push(0);
            }
        }
        // "Discard a card at random" (a cost): picked once everything else is chosen, so
        // madness can ask about what it picked before the costs are paid.
        let mut next = self.next_casting_decision(&c);
        if c.random_discards.is_none() && next.is_none() {
            c.random_discards = self.pick_random_discards(&c);
            next = self.next_casting_decision(&c);
        }
        match next {
            Some(decision) => {
                let player = self.casting_decider(&c, &decision);
                self.pending = Some(Pending { player, decision });
                self.casting = Some(c);
            }
            None => {
                self.casting = None;
                self.pending = None;
                self.commit_cast(c);
            }
        }
    }

    /// The opponents who could choose a target "of an opponent's choice they control" for
    /// the cast `c` (each controls a legal one), in turn order from its controller.
    fn chooser_options(&self, c: &Casting, spec: &TargetSpec) -> Vec<PlayerId> {
        self.players_from(c.player)
            .into_iter()
            .filter(|p| *p != c.player && self.player(*p).in_game())
            .filter(|p| {
                let mut trial = c.clone();
                trial.chooser = Some(*p);
                self.has_target_candidate(&trial, spec)
            })
            .collect()
    }

    /// The opponent choosing such a target: the one the caster chose, else the only one who
    /// could (the next opponent in turn order when none can).
    fn target_chooser(&self, c: &Casting, spec: &TargetSpec) -> PlayerId {
        c.chooser.unwrap_or_else(|| {
            self.chooser_options(c, spec)
                .first()
                .copied()
                .unwrap_or_else(|| self.next_player_after(c.player))
        })
    }

    /// Whether the open question of the cast `c` is the caster's choice of the opponent who
    /// chooses a target (a `ChooseMode` asked after the spell's own mode).
    fn asking_chooser(&self, c: &Casting) -> bool {
        c.chooser.is_none()
            && (self.modes_of(c).is_none() || c.mode.is_some())
            && matches!(
                self.next_casting_decision(c),
                Some(Decision::ChooseMode { .. })
            )
    }

    /// Who answers a decision of a cast: its controller, except a target "of an opponent's
    /// choice", which the chosen opponent chooses.
    fn casting_decider(&self, c: &Casting, decision: &Decision) -> PlayerId {
        match decision {
            Decision::ChooseTarget { spec, .. } if spec.chosen_by_opponent => {
                self.target_chooser(c, spec)
            }
            Decision::ChooseTarget { spec, .. } if spec.chosen_by_its_controller => match c.kind {
                // The subject's controller now, or the player recorded as it triggered.
                CastKind::Trigger(t) => t
                    .subject
                    .and_then(|s| self.obj(s))
                    .map(|o| o.controller)
                    .or(t.player)
                    .unwrap_or(c.player),
                _ => c.player,
            },
            _ => c.player,
        }
    }

    // ----- answers during a cast -----------------------------------------------------------

    pub(crate) fn answer_casting(
        &mut self,
        player: PlayerId,
        answer: Answer,
    ) -> Result<(), RuleError> {
        let c = self
            .casting
            .clone()
            .ok_or_else(|| RuleError::illegal("nothing is being cast"))?;
        if answer == Answer::Cancel {
            if player != c.player {
                return Err(RuleError::illegal(
                    "only its controller can cancel this; choose the target you are asked for",
                ));
            }
            if matches!(c.kind, CastKind::Trigger(_)) {
                return Err(RuleError::illegal(
                    "a triggered ability can't be cancelled: choose its target",
                ));
            }
            if matches!(c.kind, CastKind::NewTargets(_)) {
                return Err(RuleError::illegal(
                    "the copy is already on the stack: answer no to keep its targets",
                ));
            }
            if c.suspend_cast {
                return self.decline_suspend_cast(&c);
            }
            if c.random_discards.is_some() {
                return Err(RuleError::illegal(
                    "the cards to discard at random are chosen: the costs are being paid, so it can't be cancelled now",
                ));
            }
            if c.madness {
                return self.decline_madness_cast(&c);
            }
            self.casting = None;
            self.pending = Some(Pending {
                player,
                decision: Decision::Priority,
            });
            return Ok(());
        }
        let kept = match answer {
            Answer::AutoPay => self.payment_memo.take(&c, self.payment_fingerprint()),
            _ => None,
        };
        let updated = match kept {
            Some(r) => {
                debug_assert_eq!(
                    r,
                    self.apply_casting_answer(&c, Answer::AutoPay),
                    "a kept payment differs from a fresh one"
                );
                r?
            }
            None => self.apply_casting_answer(&c, answer)?,
        };
        self.continue_casting(updated);
        Ok(())
    }

    /// A digest of what the auto-payer reads besides the cast: the permanents (which,
    /// tapped, damaged, their counters), the players' pools, life and zone sizes, and the
    /// counters that move with every zone change and effect. `PaymentMemo` reuses a
    /// checked payment only for the same cast and digest.
    fn payment_fingerprint(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut mix = |x: u64| h = (h ^ x).wrapping_mul(0x0100_0000_01b3);
        mix(u64::from(self.turn));
        mix(u64::from(self.next_timestamp));
        mix(self.char_effects.len() as u64);
        mix(self.pt_effects.len() as u64);
        mix(self.stack.len() as u64);
        mix(self.objects.len() as u64);
        mix(self.battlefield.len() as u64);
        for p in &self.players {
            for x in p.pool.0 {
                mix(u64::from(x));
            }
            mix(p.life as u64);
            mix(p.hand.len() as u64);
            mix(p.graveyard.len() as u64);
            mix(p.library.len() as u64);
        }
        for &id in &self.battlefield {
            mix(u64::from(id.0));
            if let Some(o) = self.obj(id) {
                mix(u64::from(o.tapped) | (u64::from(o.damage) << 1));
                for (_, n) in &o.counters.0 {
                    mix(u64::from(*n));
                }
            }
        }
        h
    }

    /// The opponent the caster chose (option `m` of `count`) to choose a target "of an
    /// opponent's choice".
    fn chosen_chooser(&self, c: &Casting, m: u8, count: usize) -> Result<PlayerId, RuleError> {
        let spec = self
            .shape_of(c)
            .and_then(|s| s.target_spec(c.targets.len()))
            .cloned()
            .ok_or_else(|| RuleError::illegal("nothing more to choose"))?;
        self.chooser_options(c, &spec)
            .get(m as usize)
            .copied()
            .ok_or_else(|| RuleError::illegal(format!("choose option 1 to {count}")))
    }

    /// A target chosen: checked (by the opponent who chooses it too), then added to `next`.
    fn apply_target_answer(
        &self,
        c: &Casting,
        next: &mut Casting,
        spec: &TargetSpec,
        slot: usize,
        t: Target,
    ) -> Result<(), RuleError> {
        if spec.chosen_by_opponent && next.chooser.is_none() {
            next.chooser = Some(self.target_chooser(c, spec));
        }
        // A copy's unchanged target may stay even if it is now illegal (707.10c).
        if self.kept_target(c, slot) != Some(t) {
            self.check_target(next, spec, t)?;
            self.check_x_target_repeated(c, t)?;
            if self.is_optional_slot(c, c.targets.len()) && c.targets.contains(&t) {
                return Err(RuleError::illegal(
                    "this target must be another one than the ones already chosen (\"up to ... other target\")",
                ));
            }
        }
        next.targets.push(t);
        Ok(())
    }

    /// Validates one answer against the cast in progress; returns the updated cast.
    fn apply_casting_answer(&self, c: &Casting, answer: Answer) -> Result<Casting, RuleError> {
        let decision = self
            .next_casting_decision(c)
            .ok_or_else(|| RuleError::illegal("nothing more to choose"))?;
        let mut next = c.clone();
        match (&decision, answer) {
            (Decision::ChooseMode { options }, Answer::Mode(m)) if self.asking_chooser(c) => {
                next.chooser = Some(self.chosen_chooser(c, m, options.len())?);
            }
            (Decision::ChooseMode { options }, Answer::Mode(m)) => {
                if m as usize >= options.len() {
                    return Err(RuleError::illegal(format!(
                        "choose mode 1 to {}",
                        options.len()
                    )));
                }
                next.mode = Some(m);
                self.check_castable(&next)
                    .map_err(|e| RuleError::illegal(format!("that mode can't be chosen: {e}")))?;
            }
            (Decision::YesNo { .. }, a @ (Answer::Yes | Answer::No)) => {
                let yes = a == Answer::Yes;
                // Which question is open, in `next_casting_decision`'s order: optional
                // costs, a copy's new targets, then madness for the cards a cost discards.
                let asking_alternative = self.asking_alternative_cost(c);
                let asking_cost = asking_alternative || self.optional_cost_decision(c).is_some();
                let asking_retarget =
                    matches!(c.kind, CastKind::NewTargets(_)) && c.retarget.is_none();
                if !asking_cost && !asking_retarget {
                    let (card, _) = self.casting_madness_question(c).ok_or_else(|| {
                        RuleError::illegal("there is no yes/no question to answer")
                    })?;
                    next.madness_choices.push((card, yes));
                } else if let CastKind::NewTargets(_) = c.kind {
                    next.retarget = Some(yes);
                    if yes {
                        self.check_castable(&next).map_err(|e| {
                            RuleError::illegal(format!("its targets can't be changed: {e}"))
                        })?;
                    }
                } else if asking_alternative {
                    next = self.announce_alternative_cost(c, yes)?;
                } else {
                    next = self.announce_optional_cost(c, yes)?;
                }
            }
            (Decision::ChooseX, Answer::X(x)) => {
                if x > 1000 {
                    return Err(RuleError::illegal("X is too large"));
                }
                if x == 0
                    && let CastKind::Suspend(card) = c.kind
                    && self
                        .def(card)
                        .and_then(|d| d.suspend.as_ref())
                        .is_some_and(|s| s.x_not_zero)
                {
                    return Err(RuleError::illegal("X can't be 0"));
                }
                next.x = Some(x);
                self.check_costs_payable(&next)
                    .map_err(|e| RuleError::illegal(format!("X = {x} is too much: {e}")))?;
                self.check_x_targets(&next, x)?;
            }
            (Decision::ChooseCostOption { options, .. }, Answer::CostOption(i)) => {
                if i as usize >= options.len() {
                    return Err(RuleError::illegal(format!(
                        "choose option 1 to {}",
                        options.len()
                    )));
                }
                next.cost_options.push(i);
                // The rest of the alternatives stay open; check this one can be paid with some.
                let shape = self
                    .shape_of(c)
                    .ok_or_else(|| RuleError::illegal("that is no longer there"))?;
                let mut trial = next.clone();
                while trial.cost_options.len() < shape.additional.len() {
                    trial.cost_options.push(0);
                }
                self.check_costs_payable(&trial).map_err(|e| {
                    RuleError::illegal(format!("you can't pay {}: {e}", options[i as usize]))
                })?;
            }
            (Decision::ChooseTarget { spec, slot }, Answer::Target(t)) => {
                self.apply_target_answer(c, &mut next, spec, *slot as usize, t)?;
            }
            (Decision::ChooseTarget { slot, .. }, Answer::Objects(none)) if none.is_empty() => {
                if !self.is_optional_slot(c, *slot as usize) {
                    return Err(RuleError::illegal("this target must be chosen"));
                }
                next.skipped_target = true;
            }
            (Decision::DivideDamage { amount, spec }, Answer::AssignDamage(division)) => {
                self.check_division(c, spec, *amount, &division)?;
                next.division = Some(division);
            }
            (Decision::ChooseCostObjects { part }, Answer::Objects(objs)) => {
                self.check_cost_objects(c, part, &objs)?;
                next.cost_objects.push(objs);
            }
            (Decision::PayMana { cost }, Answer::AutoPay) => {
                let exclude = self.cost_tapped_source(c);
                let plan = self.plan_payment(c, cost, &exclude).ok_or_else(|| {
                    RuleError::illegal(format!(
                        "you can't pay {cost} with your untapped mana sources"
                    ))
                })?;
                let plan = self.drop_unneeded_activations(c, cost, plan);
                next.mana_plan
                    .extend(plan.into_iter().map(|p| (p.permanent, p.ability, p.mana)));
                if !self.plan_covers(&next, cost) {
                    return Err(RuleError::illegal(format!("you can't pay {cost}")));
                }
            }
            (
                Decision::PayMana { .. },
                Answer::ActivateMana {
                    source,
                    ability,
                    color,
                },
            ) => {
                let mut used: Vec<ObjectId> = c.mana_plan.iter().map(|m| m.0).collect();
                used.extend(self.cost_tapped_source(c));
                let t = self.check_mana_ability(c.player, source, ability, color, &used)?;
                next.mana_plan.push((source, ability, t));
            }
            (Decision::PayMana { .. }, Answer::ActivateManaX { source, .. }) => {
                let name = self
                    .obj(source)
                    .map_or("that land", |o| self.catalog().get(o.face()).name.as_str());
                return Err(RuleError::illegal(format!(
                    "{name}'s X mana is made at priority, before you cast: cancel, make the mana, then cast"
                )));
            }
            (d, a) => {
                return Err(RuleError::WrongKind {
                    expected: format!("{} (or cancel), not {}", d.describe(), a.kind_name()),
                });
            }
        }
        Ok(next)
    }

    /// 409.1i / 602.2: an activated ability goes on the stack (numbered where abilities
    /// can be targeted); cycling and forecast are noted.
    fn put_ability_on_stack(
        &mut self,
        c: &Casting,
        source: ObjectId,
        index: u8,
        spent: crate::mana::ColorSet,
    ) {
        let card = self.objects[source.slot()].face();
        self.stack.push(StackItem {
            kind: StackKind::Ability { source, index },
            controller: c.player,
            card,
            targets: c.targets.clone(),
            x: c.x.unwrap_or(0),
            mode: None,
            spent,
            division: Vec::new(),
            cost_exiled: std::mem::take(&mut self.cost_exiled),
            serial: None,
            chooser: c.chooser,
        });
        self.number_top_ability();
        self.emit(Event::AbilityActivated {
            player: c.player,
            source,
            card,
            targets: c.targets.clone(),
        });
        self.note_activation(source, index);
        match self.catalog().ability(card, index) {
            Some(a) if a.cycling => self.cycled(c.player),
            Some(a) if a.forecast => self.forecast_revealed(c.player, source),
            _ => {}
        }
    }

    fn cost_tapped_source(&self, c: &Casting) -> Vec<ObjectId> {
        match (c.kind, self.total_cost(c)) {
            (CastKind::Ability { source, .. }, Some(t)) if t.tap || t.untap => vec![source],
            // Creatures tapped for convoke can't also tap for mana.
            (CastKind::Spell(_), Some(t)) => self.convoke_chosen(c, &Self::choice_parts(&t)),
            _ => Vec::new(),
        }
    }

    pub(crate) fn casting_answers(&self, player: PlayerId) -> Vec<Answer> {
        let Some(c) = &self.casting else {
            return Vec::new();
        };
        let Some(decision) = self.next_casting_decision(c) else {
            return Vec::new();
        };
        let mut candidates: Vec<Answer> = match &decision {
            Decision::ChooseMode { options } => {
                (0..options.len() as u8).map(Answer::Mode).collect()
            }
            Decision::ChooseX => (0..=20).map(Answer::X).collect(),
            Decision::YesNo { .. } => vec![Answer::Yes, Answer::No],
            Decision::ChooseCostOption { options, .. } => {
                (0..options.len() as u8).map(Answer::CostOption).collect()
            }
            Decision::ChooseTarget { spec, slot } => {
                let mut v: Vec<Answer> = self
                    .target_candidates(c, spec)
                    .into_iter()
                    .map(Answer::Target)
                    .collect();
                if self.is_optional_slot(c, *slot as usize) {
                    v.push(Answer::Objects(Vec::new()));
                }
                if let Some(kept) = self.kept_target(c, *slot as usize)
                    && !v.contains(&Answer::Target(kept))
                {
                    v.push(Answer::Target(kept));
                }
                v
            }
            Decision::DivideDamage { amount, spec } => {
                // Every way is too many to list: all of it to one target, and one to each
                // of the first targets with the rest to the last.
                let cands = self.target_candidates(c, spec);
                let mut v: Vec<Answer> = cands
                    .iter()
                    .map(|t| Answer::AssignDamage(vec![(*t, *amount)]))
                    .collect();
                let k = cands.len().min(*amount as usize);
                if k >= 2 {
                    let mut split: Vec<(Target, u32)> =
                        cands[..k].iter().map(|t| (*t, 1)).collect();
                    if let Some(last) = split.last_mut() {
                        last.1 += *amount - k as u32;
                    }
                    v.push(Answer::AssignDamage(split));
                }
                v
            }
            Decision::ChooseCostObjects {
                part: CostPart::Delve(max),
            } => {
                // None, all that may be exiled, or one card.
                let cands = self.delve_candidates(c);
                let mut v = vec![Answer::Objects(Vec::new())];
                v.push(Answer::Objects(
                    cands.iter().copied().take(*max as usize).collect(),
                ));
                v.extend(cands.into_iter().map(|o| Answer::Objects(vec![o])));
                v.dedup();
                v
            }
            Decision::ChooseCostObjects {
                part: CostPart::Convoke(max),
            } => {
                // None, as many as may be tapped, or one creature.
                let cands = self.convoke_candidates(c);
                let mut v = vec![Answer::Objects(Vec::new())];
                v.push(Answer::Objects(
                    cands.iter().copied().take(*max as usize).collect(),
                ));
                v.extend(cands.into_iter().map(|o| Answer::Objects(vec![o])));
                v.dedup();
                v
            }
            Decision::ChooseCostObjects { part } => {
                let n = match part {
                    CostPart::Discard(n)
                    | CostPart::Sacrifice(_, n)
                    | CostPart::TapUntapped(_, n)
                    | CostPart::ReturnToHand(_, n)
                    | CostPart::ExileFromGraveyard(_, n) => *n as usize,
                    _ => 1,
                };
                let cands = self.cost_object_candidates(c, part);
                if n == 1 {
                    cands
                        .into_iter()
                        .map(|o| Answer::Objects(vec![o]))
                        .collect()
                } else {
                    vec![Answer::Objects(cands.into_iter().take(n).collect())]
                }
            }
            Decision::PayMana { .. } => {
                let mut v = vec![Answer::AutoPay];
                for o in self.battlefield_of(player) {
                    for (i, a) in self.abilities_of(o.id) {
                        if a.is_mana_ability() {
                            for color in self.mana_ability_choices(player, o.id, i) {
                                v.push(Answer::ActivateMana {
                                    source: o.id,
                                    ability: i,
                                    color,
                                });
                            }
                        }
                    }
                }
                v
            }
            _ => Vec::new(),
        };
        candidates.retain(|a| self.apply_casting_answer(c, a.clone()).is_ok());
        if self.may_cancel(c, player) {
            candidates.push(Answer::Cancel);
        }
        candidates
    }

    /// Whether `player` may cancel the cast or activation `c` (listed as `Answer::Cancel`).
    fn may_cancel(&self, c: &Casting, player: PlayerId) -> bool {
        !matches!(c.kind, CastKind::Trigger(_) | CastKind::NewTargets(_))
            && player == c.player
            && (!c.suspend_cast || self.may_decline_suspend_cast(c))
            && c.random_discards.is_none()
    }

    /// Whether [`Game::casting_answers`] lists `AutoPay` or `Cancel`, checked for that one
    /// answer (the random agent asks at every payment; listing every mana ability and
    /// trying each costs far more). Other answers: `None` (list them all).
    pub(crate) fn casting_lists(&self, player: PlayerId, answer: &Answer) -> Option<bool> {
        let Some(c) = &self.casting else {
            return Some(false);
        };
        let listed = match answer {
            Answer::AutoPay => match self.next_casting_decision(c) {
                // Only a payment lists AutoPay; it is listed if it would be accepted.
                Some(Decision::PayMana { .. }) => {
                    let r = self.apply_casting_answer(c, Answer::AutoPay);
                    let ok = r.is_ok();
                    // Kept for `submit`: the same answer to the same state is not planned
                    // twice.
                    self.payment_memo.keep(c, self.payment_fingerprint(), r);
                    ok
                }
                _ => false,
            },
            Answer::Cancel => self.next_casting_decision(c).is_some() && self.may_cancel(c, player),
            _ => return None,
        };
        Some(listed)
    }

    // ----- targets and cost objects --------------------------------------------------------

    /// "X target <things>": X can't be more than the number of different legal targets
    /// (each is chosen once).
    fn check_x_targets(&self, c: &Casting, x: u32) -> Result<(), RuleError> {
        let Some(shape) = self.shape_of(c).filter(|s| s.x_targets) else {
            return Ok(());
        };
        let Some(spec) = shape.target_spec(0) else {
            return Ok(());
        };
        let n = self.target_candidates(c, spec).len();
        if x as usize > n {
            return Err(RuleError::illegal(format!(
                "X = {x} is too much: there are only {n} legal targets ({})",
                spec.describe()
            )));
        }
        Ok(())
    }

    /// "X target <things>": the same object can't be chosen twice (the word "target" is
    /// used once: 2006 409.1c / 2014 115.3).
    fn check_x_target_repeated(&self, c: &Casting, t: Target) -> Result<(), RuleError> {
        if self.shape_of(c).is_some_and(|s| s.x_targets) && c.targets.contains(&t) {
            return Err(RuleError::illegal(
                "each of the X targets must be a different one",
            ));
        }
        Ok(())
    }

    fn casting_self(c: &Casting) -> Option<ObjectId> {
        match c.kind {
            CastKind::Spell(card) | CastKind::NewTargets(card) => Some(card),
            CastKind::Ability { .. }
            | CastKind::Trigger(_)
            | CastKind::TurnFaceUp(_)
            | CastKind::Suspend(_) => None,
        }
    }

    fn target_candidates(&self, c: &Casting, spec: &TargetSpec) -> Vec<Target> {
        let mut v = self.target_pool(c, spec);
        let me = Self::casting_self(c);
        v.retain(|t| Some(*t) != me.map(Target::Object) && self.target_allowed(c, spec, *t));
        v
    }

    /// Whether [`Game::target_candidates`] would list any (stops at the first legal one).
    fn has_target_candidate(&self, c: &Casting, spec: &TargetSpec) -> bool {
        let me = Self::casting_self(c);
        self.target_pool(c, spec)
            .into_iter()
            .any(|t| Some(t) != me.map(Target::Object) && self.target_allowed(c, spec, t))
    }

    /// The legal new targets for the single target of a spell or ability on the stack
    /// ("change the target of target spell or ability with a single target": Willbender;
    /// 2014 115.7a / 2006 415.7): each checked as if chosen for it now by its controller (not
    /// itself, protection from its colours, its own filters), never the target it has.
    pub(crate) fn new_single_target_candidates(&self, item: &StackItem) -> Vec<Target> {
        let Some(now) = item.single_target() else {
            return Vec::new();
        };
        let kind = match item.kind {
            StackKind::Spell(id) => CastKind::NewTargets(id),
            StackKind::Ability { source, index } => CastKind::Ability { source, index },
            StackKind::Trigger {
                source,
                index,
                subject,
                player,
                granter,
            } => CastKind::Trigger(crate::triggers::WaitingTrigger {
                source,
                card: item.card,
                controller: item.controller,
                index,
                subject,
                player,
                ordered: true,
                granter,
                amount: item.x,
            }),
            StackKind::CombatDamage { .. } => return Vec::new(),
        };
        let spec = if item.division.is_empty() {
            self.item_ability(item).0.first()
        } else {
            let divided = match item.kind {
                StackKind::Trigger { index, granter, .. } => self
                    .trigger_def(granter.unwrap_or(item.card), index)
                    .and_then(|t| t.divided.as_ref()),
                _ => self.catalog().get(item.card).spell.divided.as_ref(),
            };
            divided.map(|d| &d.spec)
        };
        let Some(spec) = spec else {
            return Vec::new();
        };
        let mut c = Casting::new(item.controller, kind);
        c.chooser = item.chooser;
        self.target_pool(&c, spec)
            .into_iter()
            .filter(|t| *t != now && self.target_allowed(&c, spec, *t))
            .collect()
    }

    /// Everything of the kind `spec` asks for, legal or not, in listing order.
    fn target_pool(&self, c: &Casting, spec: &TargetSpec) -> Vec<Target> {
        use crate::targets::TargetKind as K;
        let mut v = Vec::new();
        match &spec.kind {
            K::Any => {
                v.extend(
                    self.player_ids()
                        .filter(|p| self.player(*p).in_game())
                        .map(Target::Player),
                );
                v.extend(
                    self.battlefield
                        .iter()
                        .copied()
                        .filter(|id| self.is_creature(*id))
                        .map(Target::Object),
                );
            }
            K::Player | K::Opponent => v.extend(self.player_ids().map(Target::Player)),
            K::Permanent(_) => v.extend(self.battlefield.iter().copied().map(Target::Object)),
            K::Spell(_) | K::SpellTargetingSingleCreature => v.extend(
                self.stack
                    .iter()
                    .filter_map(|s| s.object())
                    .map(Target::Object),
            ),
            K::GraveyardCard(_) | K::CardInTargetPlayersGraveyard(_) => v.extend(
                self.players
                    .iter()
                    .flat_map(|p| p.graveyard.iter().copied())
                    .map(Target::Object),
            ),
            K::CardInYourGraveyard(_) => v.extend(
                self.player(c.player)
                    .graveyard
                    .iter()
                    .copied()
                    .map(Target::Object),
            ),
            K::SingleTargetSpellOrAbility => v.extend(self.stack.iter().filter_map(|s| {
                s.object()
                    .map(Target::Object)
                    .or(s.serial.map(Target::Ability))
            })),
            K::Ability | K::ActivatedAbility => v.extend(
                self.stack
                    .iter()
                    .filter_map(|s| s.serial)
                    .map(Target::Ability),
            ),
            K::ExiledCard => v.extend(self.exile.iter().copied().map(Target::Object)),
            K::SpellOrPermanent => v.extend(
                self.stack
                    .iter()
                    .filter_map(|s| s.object())
                    .chain(self.battlefield.iter().copied())
                    .map(Target::Object),
            ),
            K::PermanentOrSuspended { .. } => v.extend(
                self.battlefield
                    .iter()
                    .chain(self.exile.iter())
                    .copied()
                    .map(Target::Object),
            ),
        }
        v
    }

    fn check_target(&self, c: &Casting, spec: &TargetSpec, t: Target) -> Result<(), RuleError> {
        self.target_check_as(c, spec, t, true)
    }

    /// `check_target` without the words (the listings ask only yes or no).
    fn target_allowed(&self, c: &Casting, spec: &TargetSpec, t: Target) -> bool {
        self.target_check_as(c, spec, t, false).is_ok()
    }

    /// The one check of a target chosen while casting; worded only when `words`.
    fn target_check_as(
        &self,
        c: &Casting,
        spec: &TargetSpec,
        t: Target,
        words: bool,
    ) -> Result<(), RuleError> {
        let no = |why: &dyn Fn() -> String| {
            Err(RuleError::Illegal(if words {
                why()
            } else {
                String::new()
            }))
        };
        if let (Some(me), Target::Object(id)) = (Self::casting_self(c), t)
            && me == id
        {
            return no(&|| "a spell can't target itself (415.6)".into());
        }
        self.target_check(c.player, spec, t, words)
            .map_err(RuleError::Illegal)?;
        // Before X is chosen (is there any target at all?) any X may still fit.
        if let (Target::Object(id), Some(x)) = (t, c.x)
            && !self.mana_value_x_ok(spec, t, x)
        {
            return no(&|| format!("{} doesn't have mana value X = {x}", self.card_name(id)));
        }
        if let crate::targets::TargetKind::Permanent(f) = &spec.kind
            && f.other
            && let CastKind::Ability { source, .. }
            | CastKind::Trigger(crate::triggers::WaitingTrigger { source, .. }) = &c.kind
            && t == Target::Object(*source)
        {
            return no(&|| "it must target another permanent, not its own source".into());
        }
        if let crate::targets::TargetKind::Permanent(f) = &spec.kind
            && f.chosen_color
            && let CastKind::Ability { source, .. }
            | CastKind::Trigger(crate::triggers::WaitingTrigger { source, .. }) = &c.kind
            && let Target::Object(o) = t
            && !self.chosen_color_ok(f, Some(*source), o)
        {
            let color = self
                .chosen_color(*source)
                .map_or("none was chosen", |c| c.name());
            return no(&|| format!("{} is not of the chosen color ({color})", self.card_name(o)));
        }
        if !self.chooser_controls_ok(spec, t, c.chooser) {
            let who = c
                .chooser
                .map_or_else(String::new, |p| self.player(p).name.clone());
            return no(&|| {
                format!("it must be a permanent {who} controls (the opponent chosen to choose it)")
            });
        }
        let that_player = match &c.kind {
            CastKind::Trigger(w) => w.player,
            _ => None,
        };
        if !self.that_player_controls_ok(spec, t, that_player) {
            return no(&|| "it must target a permanent that player controls".into());
        }
        if let CastKind::Ability { source, .. }
        | CastKind::Trigger(crate::triggers::WaitingTrigger { source, .. }) = &c.kind
            && !self.blocked_by_source_ok(spec, t, Some(*source))
        {
            return no(&|| "it must target a creature its source is blocking".into());
        }
        // "Another target creature card from your graveyard" (Deadwood Treefolk): not the
        // card its source became (the same card slot, a later zone-change generation).
        if let crate::targets::TargetKind::CardInYourGraveyard(f) = &spec.kind
            && f.other
            && let CastKind::Ability { source, .. }
            | CastKind::Trigger(crate::triggers::WaitingTrigger { source, .. }) = &c.kind
            && let Target::Object(id) = t
            && id.slot() == source.slot()
        {
            return no(&|| "it must target another card, not the card of its own source".into());
        }
        // "Up to three target cards from their graveyard" (Gaea's Blessing): the graveyard
        // of the player chosen for the first target.
        if let crate::targets::TargetKind::CardInTargetPlayersGraveyard(_) = &spec.kind
            && let Target::Object(id) = t
            && let Some(Target::Player(p)) = c.targets.first()
            && self.obj(id).is_some_and(|o| o.owner != *p)
        {
            return no(&|| {
                format!(
                    "{} is not in {}'s graveyard",
                    self.card_name(id),
                    self.player(*p).name
                )
            });
        }
        // Protection is a permanent's (2006 502.7a / 2014 702.16b: "a permanent or player
        // with protection"), not a spell's or a card's elsewhere (Akroma, Angel of Fury's
        // spell can be targeted by Cancel). The target's protections first: the spell's
        // colours (a layer computation for a card in hand) are asked only of a target that
        // has one.
        if let Target::Object(id) = t
            && self
                .obj(id)
                .is_some_and(|o| o.zone == ZoneKind::Battlefield)
            && let from = self.protection_colors(id)
            && !from.is_empty()
            && self.casting_colors(c).iter().any(|col| from.contains(col))
        {
            return no(&|| {
                format!(
                    "{} has protection from that colour and can't be targeted by it",
                    self.card_name(id)
                )
            });
        }
        // Protection from mana value 3 or greater (Mistmeadow Skulk).
        if let Target::Object(id) = t
            && self.protected_from_mana_value(id, self.casting_mana_value(c))
        {
            return no(&|| {
                format!(
                    "{} has protection from mana value 3 or greater and can't be targeted by it",
                    self.card_name(id)
                )
            });
        }
        // Consecrate Land: an Aura spell can't target what can't be enchanted by other Auras.
        if let (CastKind::Spell(card), Target::Object(id)) = (&c.kind, t)
            && self.def(*card).is_some_and(|d| d.enchant.is_some())
            && self.aura_shut_out(*card, id)
        {
            return no(&|| format!("{} can't be enchanted by other Auras", self.card_name(id)));
        }
        Ok(())
    }

    /// The mana value of what is being cast or activated, for protection from a mana value
    /// (Mistmeadow Skulk): the spell's with the X announced (a face-down spell's is 0; a
    /// split card's half is that half's), or the ability's source's.
    fn casting_mana_value(&self, c: &Casting) -> u32 {
        match c.kind {
            CastKind::Spell(_) if c.face_down => 0,
            CastKind::Spell(_) => self
                .spell_def(c)
                .map_or(0, |d| d.mana_value_with_x(c.x.unwrap_or(0))),
            CastKind::Ability { source, .. } => self.source_mana_value(source),
            CastKind::Trigger(t) => self.source_mana_value(t.source),
            CastKind::TurnFaceUp(id) | CastKind::Suspend(id) | CastKind::NewTargets(id) => {
                self.source_mana_value(id)
            }
        }
    }

    /// The colours of the spell or of the ability's source (for protection).
    fn casting_colors(&self, c: &Casting) -> crate::mana::ColorSet {
        match c.kind {
            // A split card's half is only that half's colours (505.3 / 708.3).
            CastKind::Spell(_) if c.half.is_some() => self
                .spell_def(c)
                .map_or(crate::mana::ColorSet::NONE, |d| d.colors),
            CastKind::Spell(card) => self.colors(card),
            CastKind::Ability { source, .. } => self.source_colors(source),
            CastKind::Trigger(t) => self.source_colors(t.source),
            CastKind::TurnFaceUp(id) | CastKind::Suspend(id) | CastKind::NewTargets(id) => {
                self.colors(id)
            }
        }
    }

    fn cost_object_candidates(&self, c: &Casting, part: &CostPart) -> Vec<ObjectId> {
        let me = Self::casting_self(c);
        match part {
            CostPart::Discard(_) | CostPart::DiscardRandom(_) => self
                .player(c.player)
                .hand
                .iter()
                .copied()
                .filter(|id| Some(*id) != me)
                .collect(),
            CostPart::RemoveCounterFromYours(k) => self
                .battlefield_of(c.player)
                .filter(|o| o.counters.get(k) > 0)
                .map(|o| o.id)
                .chain(self.exile.iter().copied().filter(|id| {
                    self.is_suspended(*id)
                        && self
                            .obj(*id)
                            .is_some_and(|o| o.owner == c.player && o.counters.get(k) > 0)
                }))
                .collect(),
            CostPart::Sacrifice(f, _)
            | CostPart::TapUntapped(f, _)
            | CostPart::ReturnToHand(f, _) => self
                .battlefield_of(c.player)
                .map(|o| o.id)
                .filter(|id| self.matches_filter(*id, f, c.player))
                .collect(),
            CostPart::ExileFromGraveyard(f, _) => self
                .apnap()
                .into_iter()
                .flat_map(|p| self.player(p).graveyard.iter().copied())
                .filter(|id| Some(*id) != me && self.matches_filter(*id, f, c.player))
                .collect(),
            CostPart::Delve(_) => self.delve_candidates(c),
            CostPart::Convoke(_) => self.convoke_candidates(c),
            CostPart::DiscardSameName => match c.kind {
                CastKind::Ability { source, .. } => self.same_name_in_hand(c.player, Some(source)),
                _ => self.same_name_in_hand(c.player, me),
            },
            CostPart::ExileFromHand(f, _) => self
                .player(c.player)
                .hand
                .iter()
                .copied()
                .filter(|id| Some(*id) != me && self.matches_filter(*id, f, c.player))
                .collect(),
            _ => Vec::new(),
        }
    }

    fn check_cost_objects(
        &self,
        c: &Casting,
        part: &CostPart,
        objs: &[ObjectId],
    ) -> Result<(), RuleError> {
        let n = match part {
            CostPart::Discard(n)
            | CostPart::Sacrifice(_, n)
            | CostPart::TapUntapped(_, n)
            | CostPart::ReturnToHand(_, n)
            | CostPart::ExileFromHand(_, n)
            | CostPart::ExileFromGraveyard(_, n) => *n as usize,
            CostPart::RemoveCounterFromYours(_) => 1,
            CostPart::DiscardSameName => 1,
            _ => 0,
        };
        match part {
            CostPart::Delve(max) if objs.len() > *max as usize => {
                return Err(RuleError::illegal(format!(
                    "delve exiles at most {max} card(s) from your graveyard for this spell"
                )));
            }
            CostPart::Delve(_) => {}
            CostPart::Convoke(max) if objs.len() > *max as usize => {
                return Err(RuleError::illegal(format!(
                    "convoke taps at most {max} creature(s) for this spell"
                )));
            }
            CostPart::Convoke(_) => {}
            _ if objs.len() != n => {
                return Err(RuleError::illegal(format!("choose exactly {n}")));
            }
            _ => {}
        }
        let cands = self.cost_object_candidates(c, part);
        for (i, o) in objs.iter().enumerate() {
            if !cands.contains(o) {
                return Err(RuleError::illegal(match part {
                    CostPart::Discard(_) => format!(
                        "{} is not a card in your hand you can discard",
                        self.card_name(*o)
                    ),
                    CostPart::DiscardSameName => format!(
                        "{} is not another card in your hand with its name",
                        self.card_name(*o)
                    ),
                    CostPart::ExileFromGraveyard(f, _) => {
                        format!(
                            "{} is not a {} card in a graveyard",
                            self.card_name(*o),
                            crate::costs::card_filter_words(f)
                        )
                    }
                    CostPart::TapUntapped(f, _) | CostPart::ReturnToHand(f, _) => {
                        format!("{} is not an {f}", self.card_name(*o))
                    }
                    CostPart::RemoveCounterFromYours(k) => format!(
                        "{} is not a permanent you control or suspended card you own with a {k} counter",
                        self.card_name(*o)
                    ),
                    CostPart::Delve(_) => format!(
                        "{} is not another card in your graveyard",
                        self.card_name(*o)
                    ),
                    CostPart::Convoke(_) => format!(
                        "{} is not an untapped creature you control",
                        self.card_name(*o)
                    ),
                    _ => format!("{} can't be sacrificed for this cost", self.card_name(*o)),
                }));
            }
            if objs[..i].contains(o) {
                return Err(RuleError::illegal("the same object was chosen twice"));
            }
        }
        if let CostPart::Convoke(_) = part {
            self.check_convoke(c, objs)?;
        }
        Ok(())
    }

    // ----- mana ------------------------------------------------------------------------------

    /// The mana sources `player` could tap for an automatic payment, excluding `exclude`.
    fn mana_sources(&self, player: PlayerId, exclude: &[ObjectId]) -> Vec<ManaSource> {
        let mut out = Vec::with_capacity(self.battlefield.len());
        for o in self.battlefield_of(player) {
            if exclude.contains(&o.id) {
                continue;
            }
            let mut choices = smallvec::SmallVec::new();
            for (i, a) in self.abilities_of(o.id) {
                if !a.is_mana_ability()
                    || a.cost.mana.is_some()
                    || a.cost.parts.iter().any(|p| {
                        matches!(
                            p,
                            CostPart::Discard(_)
                                | CostPart::Sacrifice(..)
                                | CostPart::ReturnToHand(..)
                                | CostPart::RemoveCounterFromYours(_)
                                | CostPart::ExileFromGraveyard(..)
                        )
                    })
                {
                    continue;
                }
                // A tapped land can't pay: skipped before the full check, which words why.
                if (a.cost.tap && o.tapped) || (a.cost.untap && !o.tapped) {
                    continue;
                }
                // `a` is ability `i` of `o`: its once-each-turn limit read directly.
                if (a.once_each_turn && self.activations_this_turn(o.id, i) > 0)
                    || self.check_mana_ability_cost(player, o.id, a).is_err()
                {
                    continue;
                }
                let penalty = if a.cost.parts.is_empty() && a.effects.is_empty() {
                    0
                } else {
                    10
                };
                match &a.mana {
                    Some(m) if self.mana_amount(o.id, m) != 1 => {}
                    // One fixed type (basic lands): no list of options to build.
                    Some(ManaProduce::Fixed(v)) => {
                        choices.extend(v.iter().map(|t| (i, *t, penalty)));
                    }
                    Some(m) => {
                        let produce = self.mana_options(o.id, m);
                        choices.extend(produce.into_iter().map(|t| (i, t, penalty)));
                    }
                    None => {}
                }
            }
            if !choices.is_empty() {
                out.push(ManaSource {
                    permanent: o.id,
                    choices,
                });
            }
        }
        out
    }

    /// The mana `player` could pay with when every usable source of theirs makes exactly one
    /// fixed type of mana with no other cost (basic lands): their pool, the mana of
    /// `mana_plan`, and one mana from each such source not in `exclude` or the plan. `None`
    /// when some source is not that simple (then the payment solver decides).
    pub(crate) fn simple_mana_pool(
        &self,
        player: PlayerId,
        mana_plan: &[(ObjectId, u8, ManaType)],
        exclude: &[ObjectId],
    ) -> Option<crate::mana::ManaPool> {
        // Triggered mana (Gauntlet of Power) makes a land worth more than one: not simple.
        if self.triggered_mana_possible() {
            return None;
        }
        let mut pool = self.player(player).pool.clone();
        for (_, _, t) in mana_plan {
            pool.add(*t, 1);
        }
        let catalog = self.catalog();
        for o in self.battlefield_of(player) {
            if exclude.contains(&o.id) || mana_plan.iter().any(|m| m.0 == o.id) {
                continue;
            }
            if !self.has_own_abilities(o.id) || !self.granted_ability_indices(o.id).is_empty() {
                return None;
            }
            let mut mana_abilities = catalog
                .get(o.face())
                .abilities
                .iter()
                .filter(|a| a.is_mana_ability());
            let (Some(a), None) = (mana_abilities.next(), mana_abilities.next()) else {
                if catalog
                    .get(o.face())
                    .abilities
                    .iter()
                    .any(|a| a.is_mana_ability())
                {
                    return None;
                }
                continue;
            };
            match &a.mana {
                Some(ManaProduce::Fixed(v))
                    if v.len() == 1
                        && a.cost.mana.is_none()
                        && a.cost.parts.is_empty()
                        && a.effects.is_empty() =>
                {
                    if a.cost.tap
                        && (o.tapped
                            || (self.is_creature(o.id)
                                && !self.controlled_since_turn_start(o.id)
                                && !self.has_keyword(o.id, Keyword::Haste)))
                    {
                        continue;
                    }
                    pool.add(v[0], 1);
                }
                _ => {
                    return None;
                }
            }
        }
        Some(pool)
    }

    /// Whether some payment exists. When every usable source makes exactly one fixed type of
    /// mana (basic lands), pooling all of it and paying from that pool is exact and cheap;
    /// otherwise the solver decides.
    pub(crate) fn payment_possible(
        &self,
        c: &Casting,
        cost: &PayableCost,
        exclude: &[ObjectId],
    ) -> bool {
        // Triggered mana (Gauntlet of Power): only the planner counts it.
        if self.triggered_mana_possible() {
            return self.plan_payment(c, cost, exclude).is_some();
        }
        if let Some(mut pool) = self.simple_mana_pool(c.player, &c.mana_plan, exclude) {
            return pool.try_pay(cost);
        }
        let feasible = self.payment_feasible(c, cost, exclude);
        debug_assert_eq!(
            feasible,
            self.plan_payment(c, cost, exclude).is_some(),
            "the feasibility check and the payment planner disagree on {cost}"
        );
        feasible
    }

    /// Whether [`Game::plan_payment`] would find a payment: the same pool and sources, the
    /// matching alone (an ability's own source is among the sources: if it pays without
    /// its source, it pays with it).
    fn payment_feasible(&self, c: &Casting, cost: &PayableCost, exclude: &[ObjectId]) -> bool {
        let mut pool = self.player(c.player).pool.clone();
        let mut excluded: Vec<ObjectId> = exclude.to_vec();
        for (src, _, t) in &c.mana_plan {
            pool.add(*t, 1);
            excluded.push(*src);
        }
        if let Ok(mut s) = self.sources_memo.0.try_lock()
            && let SourcesState::Listing(p, sources) = &mut *s
            && *p == c.player
        {
            let sources = sources.get_or_insert_with(|| self.mana_sources(c.player, &[]));
            debug_assert_eq!(
                format!("{sources:?}"),
                format!("{:?}", self.mana_sources(c.player, &[])),
                "the mana sources changed while listing"
            );
            if excluded.is_empty() {
                return autopay::payable(&pool, sources, cost);
            }
            // `mana_sources` with exclusions is the same list without those permanents.
            let kept: Vec<ManaSource> = sources
                .iter()
                .filter(|s| !excluded.contains(&s.permanent))
                .cloned()
                .collect();
            return autopay::payable(&pool, &kept, cost);
        }
        autopay::payable(&pool, &self.mana_sources(c.player, &excluded), cost)
    }

    /// A payment the player could make now outside casting ("you may pay {1}{G}" while an
    /// ability resolves), with the pool and untapped mana sources, by the payment solver.
    pub(crate) fn plan_payment_now(
        &self,
        player: PlayerId,
        cost: &PayableCost,
    ) -> Option<Vec<autopay::PlannedActivation>> {
        let pool = self.player(player).pool.clone();
        let sources = self.mana_sources(player, &[]);
        self.solve_payment(
            &pool,
            &sources,
            &self.as_spendable(player, cost.clone()),
            &self.hand_demand(player, None),
        )
    }

    /// Pays `cost` now by the solver's plan (activating those mana abilities, then paying
    /// from the pool); an error says why it can't be paid and changes nothing.
    pub(crate) fn pay_mana_now(
        &mut self,
        player: PlayerId,
        cost: &PayableCost,
    ) -> Result<(), String> {
        let plan = self
            .plan_payment_now(player, cost)
            .ok_or_else(|| format!("you can't pay {cost} with your untapped mana sources"))?;
        for a in plan {
            self.activate_mana_ability(player, a.permanent, a.ability, a.mana);
        }
        let cost = self.as_spendable(player, cost.clone());
        if self.player_mut(player).pool.try_pay(&cost) {
            Ok(())
        } else {
            Err(format!("you can't pay {cost}"))
        }
    }

    fn plan_payment(
        &self,
        c: &Casting,
        cost: &PayableCost,
        exclude: &[ObjectId],
    ) -> Option<Vec<PlannedActivation>> {
        let mut pool = self.player(c.player).pool.clone();
        let mut excluded: Vec<ObjectId> = exclude.to_vec();
        for (src, _, t) in &c.mana_plan {
            pool.add(*t, 1);
            excluded.push(*src);
        }
        // Generic mana from the colours the cards left in hand need least.
        let casting = match c.kind {
            CastKind::Spell(card) => Some(card),
            _ => None,
        };
        let demand = self.hand_demand(c.player, casting);
        // The ability's own source is tapped for mana only when nothing else pays: a
        // player activating Foriysian Totem's animation keeps it untapped to block.
        if let CastKind::Ability { source, .. } = c.kind
            && !excluded.contains(&source)
        {
            let mut without = excluded.clone();
            without.push(source);
            let sources = self.mana_sources(c.player, &without);
            if let Some(plan) = self.solve_payment(&pool, &sources, cost, &demand) {
                return Some(plan);
            }
        }
        let sources = self.mana_sources(c.player, &excluded);
        self.solve_payment(&pool, &sources, cost, &demand)
    }

    /// Detainment Spell: an Aura with "enchanted creature's activated abilities can't be
    /// activated" is attached to `source` (and has its abilities). Special actions (turning
    /// face up) are not activated abilities (R-detainment-spell-2).
    pub(crate) fn activation_forbidden(&self, source: ObjectId) -> bool {
        self.has_statics
            && self.is_on_battlefield(source)
            && self.battlefield.iter().any(|a| {
                self.obj(*a).is_some_and(|o| {
                    o.attached_to == Some(source)
                        && self.catalog().get(o.face()).enchanted_cant_activate
                        && self.has_own_abilities(*a)
                })
            })
    }

    fn check_mana_ability_cost(
        &self,
        player: PlayerId,
        source: ObjectId,
        a: &ActivatedAbility,
    ) -> Result<(), RuleError> {
        let o = self
            .obj(source)
            .ok_or_else(|| RuleError::illegal("that permanent is no longer there"))?;
        self.check_not_locked(source)?;
        let name = &self.catalog().get(o.face()).name;
        if self.activation_forbidden(source) {
            return Err(RuleError::illegal(format!(
                "{name}'s activated abilities can't be activated (it is enchanted by an Aura that forbids it)"
            )));
        }
        if a.cost.tap {
            if o.tapped {
                return Err(RuleError::illegal(format!("{name} is already tapped")));
            }
            if self.is_creature(source)
                && !self.controlled_since_turn_start(source)
                && !self.has_keyword(source, Keyword::Haste)
            {
                return Err(RuleError::illegal(format!("{name} has summoning sickness")));
            }
        }
        if a.cost.untap && !o.tapped {
            return Err(RuleError::illegal(format!("{name} is untapped")));
        }
        if let Some(m) = &a.cost.mana {
            let mut pool = self.player(player).pool.clone();
            if !pool.try_pay(&self.as_spendable(player, m.to_payable(0))) {
                return Err(RuleError::illegal(format!(
                    "you need {m} in your mana pool to activate that"
                )));
            }
        }
        for p in &a.cost.parts {
            match p {
                CostPart::PayLife(n) if self.player(player).life < *n as i32 => {
                    return Err(RuleError::illegal(format!("you can't pay {n} life")));
                }
                CostPart::RemoveCounters(k, n) if o.counters.get(k) < *n => {
                    return Err(RuleError::illegal(format!(
                        "{name} has no {k} counter to remove"
                    )));
                }
                CostPart::Discard(_)
                | CostPart::DiscardRandom(_)
                | CostPart::Sacrifice(..)
                | CostPart::ReturnToHand(..)
                | CostPart::RemoveCounterFromYours(_)
                | CostPart::ExileFromGraveyard(..) => {
                    return Err(RuleError::illegal(
                        "that mana ability's cost needs a choice the engine does not support yet",
                    ));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Checks a mana ability activation and returns the mana it would make.
    pub(crate) fn check_mana_ability(
        &self,
        player: PlayerId,
        source: ObjectId,
        ability: u8,
        color: Option<Color>,
        already_used: &[ObjectId],
    ) -> Result<ManaType, RuleError> {
        let o = self
            .obj(source)
            .ok_or_else(|| RuleError::illegal("that permanent is no longer there"))?;
        let def = self.catalog().get(o.face());
        if o.zone != ZoneKind::Battlefield || o.controller != player {
            return Err(RuleError::illegal(format!(
                "you don't control {} on the battlefield",
                def.name
            )));
        }
        if already_used.contains(&source) {
            return Err(RuleError::illegal(format!(
                "{} is already being used for this payment",
                def.name
            )));
        }
        if !self.has_own_abilities(source) && ability < crate::cards::GRANTED_ABILITY {
            return Err(RuleError::illegal(format!(
                "{} has lost its abilities",
                def.name
            )));
        }
        let a = self.ability(source, ability).ok_or_else(|| {
            RuleError::illegal(format!("{} has no ability {}", def.name, ability + 1))
        })?;
        let Some(produce) = a.mana.as_ref().filter(|_| a.is_mana_ability()) else {
            return Err(RuleError::illegal("that is not a mana ability"));
        };
        self.check_mana_ability_cost(player, source, a)?;
        self.check_once_each_turn(source, ability)?;
        let options = self.mana_options(source, produce);
        match (produce, color) {
            // Several mana at once ("Add {B}{B}": Basal Sliver's grant): all of it is
            // added by `activate_mana_ability`; the first is returned.
            (ManaProduce::Fixed(v), _) if !v.is_empty() => Ok(v[0]),
            (ManaProduce::Fixed(_), _) => Err(RuleError::illegal("that ability makes no mana")),
            (ManaProduce::XCombination(_), _) => Err(RuleError::illegal(format!(
                "{}'s ability makes X mana: say which, one colour letter each (`mana {} #{} W U`)",
                def.name,
                def.name,
                ability + 1
            ))),
            (_, Some(c)) if options.contains(&ManaType::Colored(c)) => Ok(ManaType::Colored(c)),
            (_, Some(c)) => Err(RuleError::illegal(format!(
                "{} can't make {} mana",
                def.name,
                c.name()
            ))),
            (ManaProduce::OneOf(v), None) if v.len() == 1 => Ok(v[0]),
            (ManaProduce::ChosenColor, None) if options.len() == 1 => Ok(options[0]),
            (ManaProduce::ColorlessMoreIfYouControl { .. }, None) => Ok(ManaType::Colorless),
            (ManaProduce::ColorlessOrAnyWithCounter(_), None)
                if options == [ManaType::Colorless] =>
            {
                Ok(ManaType::Colorless)
            }
            _ => Err(RuleError::illegal(format!(
                "say which colour {} should make",
                def.name
            ))),
        }
    }

    /// The mana types a mana ability of `source` can make now: Gemstone Caverns' depend on
    /// its luck counter (any colour instead of {C}), Paradise Plume's on its chosen color.
    pub(crate) fn mana_options(&self, source: ObjectId, m: &ManaProduce) -> Vec<ManaType> {
        match m {
            ManaProduce::ColorlessOrAnyWithCounter(kind) => {
                if self.obj(source).is_some_and(|o| o.counters.get(kind) > 0) {
                    Color::ALL.into_iter().map(ManaType::Colored).collect()
                } else {
                    vec![ManaType::Colorless]
                }
            }
            ManaProduce::ChosenColor => self
                .chosen_color(source)
                .map(ManaType::Colored)
                .into_iter()
                .collect(),
            m => m.options(),
        }
    }

    /// How much mana one activation of `source`'s mana ability makes now: the Urza lands'
    /// depends on what its controller controls (0: X, chosen as it is activated).
    pub(crate) fn mana_amount(&self, source: ObjectId, m: &ManaProduce) -> u32 {
        match m {
            ManaProduce::ColorlessMoreIfYouControl { n, subtypes } => {
                let Some(me) = self.obj(source).map(|o| o.controller) else {
                    return 1;
                };
                let controls =
                    |t: &String| self.battlefield_of(me).any(|o| self.has_subtype(o.id, t));
                if subtypes.iter().all(controls) { *n } else { 1 }
            }
            m => m.amount(),
        }
    }

    /// The `color` values to list for a mana ability (None when there is no choice).
    pub(crate) fn mana_ability_choices(
        &self,
        player: PlayerId,
        source: ObjectId,
        ability: u8,
    ) -> Vec<Option<Color>> {
        let Some(a) = self.ability(source, ability) else {
            return Vec::new();
        };
        let candidates: Vec<Option<Color>> = match &a.mana {
            Some(ManaProduce::Fixed(_)) => vec![None],
            Some(m) => {
                let options = self.mana_options(source, m);
                options
                    .iter()
                    .filter_map(|t| match t {
                        ManaType::Colored(c) => Some(Some(*c)),
                        ManaType::Colorless => None,
                    })
                    .chain(options.contains(&ManaType::Colorless).then_some(None))
                    .collect()
            }
            None => Vec::new(),
        };
        candidates
            .into_iter()
            .filter(|c| {
                self.check_mana_ability(player, source, ability, *c, &[])
                    .is_ok()
            })
            .collect()
    }

    /// Whether `player` could pay `cost` now from their pool and untapped mana sources.
    /// Whether a spell about to be cast from `card` is cast from its owner's hand, kept on
    /// the object only for cards whose text asks (Epochrasite: "if you didn't cast it from
    /// your hand"; Coal Stoker: "if you cast it from your hand") and for those that may
    /// enter as a copy of such a card (its Gatherer ruling: a Clone copying Coal Stoker
    /// asks about the Clone spell).
    fn cast_from_hand_kept(&self, card: ObjectId) -> bool {
        self.obj(card).is_some_and(|o| {
            let def = self.catalog().get(o.card);
            o.zone == ZoneKind::Hand
                && (!def.enters_with_unless_cast_from_hand.is_empty()
                    || def.asks_cast_from_hand_trigger()
                    || def.copy_creature.is_some())
        })
    }

    pub(crate) fn can_pay_now(&self, player: PlayerId, cost: &crate::mana::PayableCost) -> bool {
        let pool = self.player(player).pool.clone();
        let cost = self.as_spendable(player, cost.clone());
        self.solve_payment(&pool, &self.mana_sources(player, &[]), &cost, &[0; 5])
            .is_some()
    }

    /// Pays `cost` for `player` outside casting (an "unless pays" choice they accepted): the
    /// pool first, then the mana abilities the auto-payer chooses (it keeps the most
    /// flexible sources free). False, with nothing changed, if it can't be paid.
    pub(crate) fn pay_automatically(
        &mut self,
        player: PlayerId,
        cost: &crate::mana::PayableCost,
    ) -> bool {
        let pool = self.player(player).pool.clone();
        let cost = self.as_spendable(player, cost.clone());
        let sources = self.mana_sources(player, &[]);
        let Some(plan) =
            self.solve_payment(&pool, &sources, &cost, &self.hand_demand(player, None))
        else {
            return false;
        };
        for p in plan {
            self.activate_mana_ability(player, p.permanent, p.ability, p.mana);
        }
        let paid = self.player_mut(player).pool.try_pay(&cost);
        debug_assert!(paid, "the auto-payer's plan pays the cost");
        paid
    }

    /// Activates a checked mana ability: pays its cost, adds the mana, applies its other
    /// effects at once (406.4, 411.3).
    pub(crate) fn activate_mana_ability(
        &mut self,
        player: PlayerId,
        source: ObjectId,
        ability: u8,
        produced: ManaType,
    ) {
        let Some(a) = self.ability(source, ability) else {
            return;
        };
        let cost = a.cost.clone();
        self.note_activation(source, ability);
        if cost.tap {
            self.tap(source);
        }
        if cost.untap {
            self.untap(source);
        }
        if let Some(m) = &cost.mana {
            let m = self.as_spendable(player, m.to_payable(0));
            self.player_mut(player).pool.try_pay(&m);
        }
        for p in &cost.parts {
            match p {
                CostPart::PayLife(n) => self.lose_life(player, *n as i32),
                CostPart::RemoveCounters(k, n) => self.remove_counters(source, k, *n),
                CostPart::PutCounterOnThis(k) => self.add_counters(source, k.clone(), 1),
                // "Sacrifice ~: Add ..." (Chromatic Star, Basal Sliver's grant).
                CostPart::SacrificeThis => {
                    self.sacrifice(source);
                }
                _ => {}
            }
        }
        let made = match &a.mana {
            Some(ManaProduce::Fixed(v)) if v.len() > 1 => v.clone(),
            Some(
                m @ (ManaProduce::AnyOneColor(_) | ManaProduce::ColorlessMoreIfYouControl { .. }),
            ) => {
                vec![produced; self.mana_amount(source, m) as usize]
            }
            _ => vec![produced],
        };
        let bonus = self.triggered_mana_bonus(source, ability, produced);
        let land_controller = self.obj(source).map_or(player, |o| o.controller);
        for mana in made {
            self.player_mut(player).pool.add(mana, 1);
            self.emit(Event::ManaAdded {
                player,
                mana,
                amount: 1,
            });
        }
        // Triggered mana abilities resolve at once (406.1b / 605.1b), for the land's
        // controller ("its controller adds").
        for _ in 0..bonus {
            self.player_mut(land_controller).pool.add(produced, 1);
            self.emit(Event::ManaAdded {
                player: land_controller,
                mana: produced,
                amount: 1,
            });
        }
        let effects = a.effects.clone();
        for e in &effects {
            self.apply_immediate_effect(player, source, e);
        }
    }

    // ----- 409.1h-i: pay and put on the stack -------------------------------------------------

    /// Whether a triggered ability has a legal choice for each target (410.4).
    pub(crate) fn trigger_has_targets(&self, c: &Casting) -> bool {
        self.castable_in(c, Words::Quiet).is_ok()
    }

    /// Asks the trigger's controller for its targets.
    pub(crate) fn begin_trigger_targets(&mut self, c: Casting) {
        self.continue_casting(c);
    }

    /// A triggered ability's choices are made (410.4 / 603.3): it goes on the stack with its
    /// targets, division and mode.
    fn commit_trigger(&mut self, t: crate::triggers::WaitingTrigger, c: Casting) {
        self.push_trigger(t, c.targets);
        if let Some(top) = self.stack.last_mut() {
            top.division = c.division.unwrap_or_default();
            top.mode = c.mode;
        }
        let next = self.priority_after_sba.take().unwrap_or(self.active);
        self.give_priority(next);
    }

    fn commit_cast(&mut self, c: Casting) {
        if let CastKind::Trigger(t) = c.kind {
            self.commit_trigger(t, c);
            return;
        }
        if let CastKind::NewTargets(copy) = c.kind {
            self.commit_new_targets(&c, copy);
            return;
        }
        let Some(total) = self.total_cost(&c) else {
            return;
        };
        for (src, ability, t) in c.mana_plan.clone() {
            self.activate_mana_ability(c.player, src, ability, t);
        }
        let mana = self.payable_mana(&c);
        let before = self.player(c.player).pool.clone();
        let paid = self.player_mut(c.player).pool.try_pay(&mana);
        debug_assert!(paid, "validated payment failed");
        let after = &self.player(c.player).pool;
        let spent: crate::mana::ColorSet = Color::ALL
            .into_iter()
            .filter(|col| after.get(ManaType::Colored(*col)) < before.get(ManaType::Colored(*col)))
            .collect();
        let source = match c.kind {
            CastKind::Ability { source, .. } => Some(source),
            CastKind::Spell(_)
            | CastKind::Trigger(_)
            | CastKind::TurnFaceUp(_)
            | CastKind::Suspend(_)
            | CastKind::NewTargets(_) => None,
        };
        if let Some(src) = source {
            if total.tap {
                self.tap(src);
            }
            if total.untap {
                self.untap(src);
            }
        }
        self.madness_discards.choices = c.madness_choices.clone();
        self.pay_cost_parts(&c, &total.parts, source);
        self.madness_discards.choices.clear();
        match c.kind {
            CastKind::Spell(card) => {
                // A card cast face down is a face-down spell from the start (502.26b): the
                // stack, the events and other players see only the face-down 2/2.
                let Some(card_id) = self.obj(card).map(|o| {
                    if c.face_down {
                        self.catalog().face_down()
                    } else if let Some(h) = c.half {
                        // 505.2 / 708.2: on the stack only the half cast exists.
                        o.card.split_half(h)
                    } else {
                        o.card
                    }
                }) else {
                    return;
                };
                let from_hand = self.cast_from_hand_kept(card);
                // Played from exile by a permission: it is used (`play_permission.rs`).
                self.note_played_from_exile(c.player, card);
                let Some(on_stack) =
                    self.move_object_as(card, ZoneKind::Stack, Position::Top, c.face_down)
                else {
                    return;
                };
                if let Some(o) = self.obj_mut(on_stack) {
                    o.cast_from_hand = from_hand;
                    o.madness_cast = c.madness;
                    o.controller = c.player;
                    // 502.22a / 702.34a: exiled whenever it would leave the stack.
                    o.flashback = c.flashback.is_some();
                    o.suspend_cast = c.suspend_cast;
                    o.kicked = Self::kicker_bits(&c);
                    o.cast_x = c.x.unwrap_or(0);
                    o.buyback = c.buyback == Some(true);
                    o.split_half = c.half;
                }
                self.stack.push(StackItem {
                    kind: StackKind::Spell(on_stack),
                    controller: c.player,
                    card: card_id,
                    targets: c.targets.clone(),
                    x: c.x.unwrap_or(0),
                    mode: c.mode,
                    spent,
                    division: c.division.clone().unwrap_or_default(),
                    // The cards its cost exiled (Snapback's blue card), kept by the spell
                    // rather than left for the next ability activated.
                    cost_exiled: std::mem::take(&mut self.cost_exiled),
                    serial: None,
                    chooser: c.chooser,
                });
                self.note_spell_cast();
                self.emit(Event::SpellCast {
                    player: c.player,
                    spell: on_stack,
                    card: card_id,
                    targets: c.targets,
                });
            }
            CastKind::Ability { source, index } => {
                self.put_ability_on_stack(&c, source, index, spent);
            }
            // Handled at the top of `commit_cast`.
            CastKind::Trigger(_) | CastKind::NewTargets(_) => return,
            // A special action: no stack; the player receives priority again (408.2h).
            CastKind::Suspend(card) => self.commit_suspend(&c, card),
            // A special action: no stack; the player receives priority again (408.2h).
            CastKind::TurnFaceUp(id) => {
                // Aquamorph Entity: "as it is turned face up, it becomes your choice of ...":
                // asked now, and it turns face up already of the chosen size (`morph.rs`).
                if self.face_up_choice_due(id) {
                    self.face_up_choosing = Some(id);
                    self.pending = Some(self.face_up_choice_question(id, c.player));
                    return;
                }
                // Vesuvan Shapeshifter: "as it is turned face up, you may choose another
                // creature": asked now, and it turns face up already a copy (`copy.rs`).
                if self.copy_as_turned_face_up(id) {
                    let p = self.ask_copy(id, c.player, crate::copy::CopyMoment::TurningFaceUp);
                    self.pending = Some(p);
                    return;
                }
                self.turn_face_up(id)
            }
        }
        self.passes = 0;
        if c.suspend_cast || c.madness {
            // Cast as suspend's or madness's trigger resolved: the active player receives
            // priority.
            self.give_priority(self.active);
            return;
        }
        // 409.1i: its controller receives priority again.
        self.give_priority(c.player);
    }

    /// The cards a cast's "discard N cards at random" costs discard, picked now (None when
    /// it has no such cost).
    fn pick_random_discards(&mut self, c: &Casting) -> Option<Vec<ObjectId>> {
        let total = self.total_cost(c)?;
        let n: u32 = total
            .parts
            .iter()
            .map(|p| match p {
                CostPart::DiscardRandom(n) => *n,
                _ => 0,
            })
            .sum();
        if n == 0 {
            return None;
        }
        let me = Self::casting_self(c);
        let mut hand: Vec<ObjectId> = self
            .player(c.player)
            .hand
            .iter()
            .copied()
            .filter(|h| Some(*h) != me)
            .collect();
        let mut picked = Vec::new();
        for _ in 0..n {
            if hand.is_empty() {
                break;
            }
            let i = rand::RngExt::random_range(&mut self.rng, 0..hand.len());
            picked.push(hand.remove(i));
        }
        Some(picked)
    }

    /// Madness's question about the next card a cost of this cast discards, if one is due
    /// (`keywords/madness.rs`): the card and the question.
    /// The card still in its owner's hand whose madness question is open (a cost's discard
    /// or an effect's): others see only that "a card" is being discarded until it is exiled
    /// or put into the graveyard (`Game::view`).
    pub(crate) fn madness_question_card(&self) -> Option<ObjectId> {
        if !matches!(
            self.pending.as_ref().map(|p| &p.decision),
            Some(Decision::YesNo { .. })
        ) {
            return None;
        }
        match &self.casting {
            Some(c) => {
                let other = self.optional_cost_decision(c).is_some()
                    || (matches!(c.kind, CastKind::NewTargets(_)) && c.retarget.is_none());
                if other {
                    return None;
                }
                self.casting_madness_question(c).map(|(card, _)| card)
            }
            None => self.madness_discards.asking,
        }
    }

    fn casting_madness_question(&self, c: &Casting) -> Option<(ObjectId, Pending)> {
        self.madness_question_of(c, &self.total_cost(c)?)
    }

    /// [`Game::casting_madness_question`] from the total cost of `c` (`Game::total_cost`).
    fn madness_question_of(&self, c: &Casting, total: &Cost) -> Option<(ObjectId, Pending)> {
        let parts = Self::choice_parts(total);
        let chosen = parts
            .iter()
            .zip(&c.cost_objects)
            .filter(|(p, _)| matches!(p, CostPart::Discard(_) | CostPart::DiscardSameName))
            .flat_map(|(_, objs)| objs.iter().copied());
        let random = c.random_discards.iter().flatten().copied();
        // Cycling's "discard this card".
        let this = match c.kind {
            CastKind::Ability { source, .. } if total.parts.contains(&CostPart::DiscardThis) => {
                Some(source)
            }
            _ => None,
        };
        self.next_madness_question(
            chosen.chain(random).chain(this).collect::<Vec<_>>(),
            &c.madness_choices,
        )
    }

    /// Pays the cost's other parts (409.1h): life, counters, discards, sacrifices, exile,
    /// tapping; objects chosen while casting are taken in order.
    fn pay_cost_parts(&mut self, c: &Casting, parts: &[CostPart], source: Option<ObjectId>) {
        let mut chosen = c.cost_objects.iter();
        for part in parts {
            match part {
                CostPart::PayLife(n) => self.lose_life(c.player, *n as i32),
                CostPart::RemoveCounters(k, n) => {
                    if let Some(src) = source {
                        self.remove_counters(src, k, *n);
                    }
                }
                CostPart::PutCounterOnThis(k) => {
                    if let Some(src) = source {
                        self.add_counters(src, k.clone(), 1);
                    }
                }
                CostPart::Discard(_) | CostPart::DiscardSameName => {
                    for o in chosen.next().cloned().unwrap_or_default() {
                        self.discard(c.player, o);
                    }
                }
                CostPart::DiscardRandom(_) => {
                    // Picked as the cast was completed (`pick_random_discards`).
                    for o in c.random_discards.clone().unwrap_or_default() {
                        self.discard(c.player, o);
                    }
                }
                CostPart::Sacrifice(..) => {
                    for o in chosen.next().cloned().unwrap_or_default() {
                        self.sacrifice(o);
                    }
                }
                CostPart::SacrificeThis => {
                    if let Some(src) = source {
                        self.sacrifice(src);
                    }
                }
                CostPart::ExileThis => {
                    if let Some(src) = source {
                        self.move_object(src, ZoneKind::Exile, Position::Top);
                    }
                }
                CostPart::ReturnThis => {
                    if let Some(src) = source {
                        self.move_object(src, ZoneKind::Hand, Position::Top);
                    }
                }
                CostPart::ExileFromGraveyard(..) | CostPart::Delve(_) => {
                    for o in chosen.next().cloned().unwrap_or_default() {
                        self.move_object(o, ZoneKind::Exile, Position::Top);
                    }
                }
                CostPart::ExileFromHand(..) => {
                    // Remembered by the ability (Jhoira of the Ghitu: "the exiled card").
                    for o in chosen.next().cloned().unwrap_or_default() {
                        if let Some(new) = self.move_object(o, ZoneKind::Exile, Position::Top) {
                            self.cost_exiled.push(new);
                        }
                    }
                }
                CostPart::ReturnToHand(..) => {
                    for o in chosen.next().cloned().unwrap_or_default() {
                        self.move_object(o, ZoneKind::Hand, Position::Top);
                    }
                }
                CostPart::RemoveCounterFromYours(k) => {
                    for o in chosen.next().cloned().unwrap_or_default() {
                        self.remove_counters(o, k, 1);
                    }
                }
                CostPart::TapUntapped(..) | CostPart::Convoke(_) => {
                    for o in chosen.next().cloned().unwrap_or_default() {
                        self.tap(o);
                    }
                }
                CostPart::DiscardThis => {
                    if let Some(src) = source {
                        self.discard(c.player, src);
                    }
                }
                // `total_cost` turned them into `Discard(X)` / `RemoveCounters(X)`.
                CostPart::DiscardX | CostPart::RemoveXCounters(_) => {}
            }
        }
    }
}

impl Game {
    /// The colours the cards in `player`'s hand ask for (see [`autopay::Demand`]), leaving out
    /// `except` (the card being cast, still in hand while it is paid for).
    pub(crate) fn hand_demand(
        &self,
        player: PlayerId,
        except: Option<ObjectId>,
    ) -> autopay::Demand {
        let mut d = [0u32; 5];
        for id in self
            .player(player)
            .hand
            .iter()
            .filter(|id| Some(**id) != except)
        {
            let Some(cost) = self.def(*id).and_then(|def| def.mana_cost.as_ref()) else {
                continue;
            };
            let p = cost.to_payable(0);
            for c in crate::mana::Color::ALL {
                d[c as usize] += p.colored[c as usize];
            }
            for (a, b) in &p.hybrid {
                d[*a as usize] += 1;
                d[*b as usize] += 1;
            }
        }
        d
    }
}

#[cfg(test)]
mod flashback_and_division_tests {
    use crate::decision::{Answer, Decision};
    use crate::events::Event;
    use crate::ids::PlayerId;
    use crate::targets::Target;
    use crate::zones::ZoneKind;

    fn game(setup: &str, script: &str) -> crate::game::Game {
        let src = format!(
            "name = \"t\"\ndescription = \"\"\nruleset = \"classic\"\nscript = [{script}]\n{setup}"
        );
        crate::scenario::game_from_str(&src).expect("scenario runs")
    }

    const GRUDGE: &str = r#"
[setup]
active = "alice"
step = "precombat_main"
turn = 3
[setup.alice]
graveyard = ["Ancient Grudge", "Lightning Axe"]
battlefield = ["Forest"]
[setup.bob]
battlefield = ["Assembly-Worker"]
"#;

    #[test]
    fn flashback_is_listed_shown_and_exiled_without_touching_a_graveyard() {
        let mut g = game(GRUDGE, "");
        let alice = PlayerId(0);
        let gy = g.player(alice).graveyard.clone();
        let (grudge, axe) = (gy[0], gy[1]);
        let legal = g.legal_answers(alice);
        assert!(legal.contains(&Answer::Cast(grudge)));
        assert!(
            !legal.contains(&Answer::Cast(axe)),
            "no flashback, not listed"
        );
        let v = g.view(Some(PlayerId(1)));
        assert_eq!(v.players[0].graveyard[0].flashback.as_deref(), Some("{G}"));
        assert_eq!(v.players[0].graveyard[1].flashback, None);
        g.submit(alice, Answer::Cast(grudge)).expect("cast");
        let worker = g.battlefield_of(PlayerId(1)).next().map(|o| o.id);
        g.submit(
            alice,
            Answer::Target(Target::Object(worker.expect("worker"))),
        )
        .expect("target");
        g.submit(alice, Answer::AutoPay).expect("pay");
        assert!(g.view(None).stack[0].flashback);
        let mut events = Vec::new();
        events.extend(g.submit(alice, Answer::Pass).expect("pass"));
        events.extend(g.submit(PlayerId(1), Answer::Pass).expect("pass"));
        assert!(events.iter().any(|e| matches!(
            e,
            Event::ZoneChanged {
                from: ZoneKind::Stack,
                to: ZoneKind::Exile,
                ..
            }
        )));
        assert!(!events.iter().any(|e| matches!(
            e,
            Event::ZoneChanged {
                from: ZoneKind::Stack,
                to: ZoneKind::Graveyard,
                ..
            }
        )));
        assert_eq!(g.exile.len(), 1);
        assert!(
            g.exile
                .iter()
                .all(|id| g.obj(*id).is_some_and(|o| !o.flashback))
        );
    }

    #[test]
    fn every_listed_division_is_accepted_and_the_rest_refused() {
        let setup = r#"
[setup]
active = "alice"
step = "precombat_main"
turn = 3
[setup.alice]
hand = ["Fiery Justice"]
battlefield = ["Mountain", "Forest", "Plains"]
[setup.bob]
battlefield = ["Squire", "Flying Men"]
"#;
        let g = game(setup, r#""alice: cast Fiery Justice", "alice: target bob""#);
        let alice = PlayerId(0);
        assert!(matches!(
            g.pending().map(|p| &p.decision),
            Some(Decision::DivideDamage { amount: 5, .. })
        ));
        let legal = g.legal_answers(alice);
        assert!(legal.len() >= 4, "{legal:?}");
        for a in legal {
            let mut probe = g.clone();
            probe
                .submit(alice, a.clone())
                .expect("a listed division is accepted");
        }
        let mut probe = g.clone();
        let before = probe.clone();
        assert!(
            probe
                .submit(
                    alice,
                    Answer::AssignDamage(vec![(Target::Player(PlayerId(1)), 6)])
                )
                .is_err()
        );
        assert_eq!(probe, before, "a refused answer changes nothing");
    }

    #[test]
    fn dralnu_sacrifices_only_the_damage_left_after_prevention() {
        // Plated Pegasus prevents 1 of Sunlance's 3: two permanents, not three.
        let setup = r#"
[setup]
active = "bob"
step = "precombat_main"
turn = 4
[setup.alice]
battlefield = ["Dralnu, Lich Lord", "Plated Pegasus", "Island", "Island", "Swamp"]
[setup.bob]
hand = ["Sunlance"]
battlefield = ["Plains"]
"#;
        let g = game(
            setup,
            r#""bob: cast Sunlance", "bob: target Dralnu, Lich Lord", "bob: autopay", "bob: pass", "alice: pass""#,
        );
        match g.pending().map(|p| (&p.player, &p.decision)) {
            Some((p, Decision::SacrificeForDamage { count, .. })) => {
                assert_eq!(*p, PlayerId(0));
                assert_eq!(*count, 2);
            }
            other => panic!("expected Dralnu's question, got {other:?}"),
        }
        for a in g.legal_answers(PlayerId(0)) {
            let mut probe = g.clone();
            probe
                .submit(PlayerId(0), a)
                .expect("listed sacrifices are accepted");
            assert_eq!(probe.battlefield_of(PlayerId(0)).count(), 3);
        }
    }
}
