//! Combat (rules 306-311; rules.md Δ3-Δ5, Δ16): declaring attackers and blockers, combat
//! damage in one or two steps, on the stack in `classic`.
//!
//! Attacks: untapped, non-sick (or haste) creatures without defender; each attacks an
//! opponent; "attacks each combat if able" is a requirement (508.1d).
//!
//! Blocks, per creature (`check_can_block`): untapped, not "can't block"; flying / reach,
//! "can block only creatures with flying", shadow (and "can block creatures with shadow as
//! though they didn't have shadow"), fear, protection, landwalk, "can't block creatures
//! with power 2 or greater" (all checked only as blockers are declared). Per declaration
//! (`check_blocks`): each creature blocks one attacker, plus one per instance of "can block
//! an additional creature"; menace; then requirements ("blocks each combat if able",
//! CR 509.1c: as many as possible without breaking a restriction). `legal_answers` lists
//! per-creature options and a few whole sets, each checked as a whole; it never enumerates
//! all block sets.
//!
//! Damage: unblocked attackers hit their defender; blocked ones divide among their living
//! blockers, blockers among the attackers they block. Modern: damage assignment order (the
//! attacking player orders an attacker's blockers, then the defending player the attackers
//! of a creature blocking several, [GK] 509.3) with lethal damage first; classic:
//! free division (310.2c-d). Trample: lethal to every blocker first, counting damage already
//! marked; with modern deathtouch 1 is lethal. First and double strike add a step; classic
//! puts the assignments on the stack as one object. Combat triggers (flanking, rampage,
//! "blocks", "becomes blocked", damage to a player) are in `triggers.rs`.

use crate::decision::{Answer, Attack, Block, Decision, Pending, RuleError};
use crate::events::Event;
use crate::game::Game;
use crate::ids::{ObjectId, PlayerId};
use crate::keywords::Keyword;
use crate::stack::{StackItem, StackKind};
use crate::targets::Target;
use crate::turn::StepFlow;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attacker {
    pub id: ObjectId,
    pub defender: PlayerId,
    /// 309.2f: once blocked, it stays blocked even if its blockers leave.
    pub blocked: bool,
    /// Blockers in damage assignment order.
    pub blockers: Vec<ObjectId>,
    pub dealt_first_strike: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Blocker {
    pub id: ObjectId,
    pub attacker: ObjectId,
    pub dealt_first_strike: bool,
}

/// A creature dividing its combat damage and whom it may divide it among.
struct Dividing {
    id: ObjectId,
    /// Creatures, in damage assignment order.
    recipients: Vec<ObjectId>,
    /// With trample: the player the rest may go to.
    trample_to: Option<PlayerId>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Combat {
    pub attackers: Vec<Attacker>,
    pub blockers: Vec<Blocker>,
    /// Defending players who have declared their blocks.
    pub blocks_declared: Vec<PlayerId>,
    /// Combat damage assigned in the current damage step (classic: waiting on the stack, 310.1).
    pub assigned: Vec<(ObjectId, Target, u32)>,
    /// Modern: attackers whose blockers the attacking player still has to order.
    #[serde(default)]
    pub to_order: Vec<ObjectId>,
    /// Attackers whose damage their controller still has to assign in this step.
    #[serde(default)]
    pub to_assign: Vec<ObjectId>,
    #[serde(default)]
    pub first_strike_step: bool,
    /// Unblocked attackers that were assigned combat damage this combat (the id they dealt
    /// it with, also once they left: classic damage on the stack). Weathered Bodyguards
    /// takes the combat damage "unblocked creatures" would deal.
    #[serde(default)]
    pub unblocked_dealers: Vec<ObjectId>,
    /// The attackers and blockers that had first strike or double strike as the
    /// first-strike combat damage step began (modern 510.4: only double strike lets them
    /// deal damage again in the regular step).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub first_strikers: Vec<ObjectId>,
    /// Blocks as declared, `(blocker, attacker)`, kept after either leaves combat, for
    /// "all creatures it blocked this turn" (Defiant Vanguard): recorded only for blockers
    /// whose abilities read it (`Game::remembers_its_blocks`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remembered_blocks: Vec<(ObjectId, ObjectId)>,
    /// An attack declared whose costs are being paid (Leviathan: 508.1g-h / 2006 308.2):
    /// the creatures become attackers once the last cost is paid.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub declaring: Vec<Attack>,
    /// The attack costs still to pay: permanents to sacrifice, by filter and count.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attack_costs_left: Vec<(crate::targets::ObjectFilter, u32)>,
}

impl Combat {
    /// 306.2: a creature that leaves the battlefield is removed from combat.
    pub fn remove(&mut self, id: ObjectId) {
        self.attackers.retain(|a| a.id != id);
        self.blockers.retain(|b| b.id != id);
        for a in &mut self.attackers {
            a.blockers.retain(|b| *b != id);
        }
    }
    pub fn is_attacking(&self, id: ObjectId) -> bool {
        self.attackers.iter().any(|a| a.id == id)
    }
    pub fn is_blocking(&self, id: ObjectId) -> bool {
        self.blockers.iter().any(|b| b.id == id)
    }
}

/// What keeps a creature from attacking at all (508.1a, 302.6, 702.3b).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AttackRestriction {
    Gone,
    NotACreature,
    Tapped,
    Defender,
    CantAttack,
    SummoningSick,
    /// Its cost to attack can't be paid (Leviathan without two Islands).
    CantPayCost,
}

/// What keeps a creature from attacking one player (508.1c).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AttackPlayerRestriction {
    /// "Creatures can't attack that player until their next turn".
    CantBeAttacked,
    /// A permanent of the defender's forbids it (Teferi's Moat).
    Moat(ObjectId),
    /// "Can't attack unless defending player controls an Island".
    NoIsland,
    /// "Can't attack if defending player controls an untapped creature with power 3 or
    /// greater" (Orgg).
    UntappedPower3(ObjectId),
}

impl Game {
    /// Creatures `player` could declare as attackers, with the players each may attack.
    pub fn eligible_attackers(&self, player: PlayerId) -> Vec<(ObjectId, Vec<PlayerId>)> {
        let opponents = self.opponents(player);
        // Untapped creatures first: cheaper than the full check for every land.
        self.battlefield_of(player)
            .filter(|o| !o.tapped && self.is_creature(o.id))
            .filter(|o| self.attack_restriction(o.id).is_none())
            .map(|o| {
                let ds: Vec<PlayerId> = opponents
                    .iter()
                    .copied()
                    .filter(|d| self.attack_player_restriction(o.id, *d).is_none())
                    .collect();
                (o.id, ds)
            })
            .filter(|(_, ds)| !ds.is_empty())
            .collect()
    }

    /// Restrictions that depend on the defending player (Orgg), worded.
    fn check_can_attack_player(&self, id: ObjectId, defender: PlayerId) -> Result<(), String> {
        let Some(why) = self.attack_player_restriction(id, defender) else {
            return Ok(());
        };
        let (name, them) = (self.card_name(id), &self.player(defender).name);
        Err(match why {
            AttackPlayerRestriction::CantBeAttacked => format!(
                "{name} can't attack {them}: creatures can't attack that player until their next turn"
            ),
            AttackPlayerRestriction::Moat(moat) => {
                format!("{name} can't attack {them} ({})", self.card_name(moat))
            }
            AttackPlayerRestriction::NoIsland => {
                format!("{name} can't attack unless the defending player controls an Island")
            }
            AttackPlayerRestriction::UntappedPower3(big) => format!(
                "{name} can't attack while the defending player controls an untapped creature with power 3 or greater ({})",
                self.card_name(big)
            ),
        })
    }

    /// The first restriction that keeps `id` from attacking `defender` (checked at every
    /// declaration and listing: nothing is worded unless it is refused).
    fn attack_player_restriction(
        &self,
        id: ObjectId,
        defender: PlayerId,
    ) -> Option<AttackPlayerRestriction> {
        if self.cant_be_attacked.contains(&defender) {
            return Some(AttackPlayerRestriction::CantBeAttacked);
        }
        // "Creatures of the chosen color without flying can't attack you" (Teferi's Moat).
        if self.has_statics
            && let Some(moat) = self.battlefield_of(defender).find(|o| {
                self.catalog()
                    .get(o.face())
                    .statics
                    .iter()
                    .any(|st| st.cant_attack_controller && self.static_applies(o.id, st, id))
            })
        {
            return Some(AttackPlayerRestriction::Moat(moat.id));
        }
        if self.has_keyword(id, Keyword::CantAttackUnlessDefenderControlsIsland)
            && !self
                .battlefield_of(defender)
                .any(|o| self.is_land(o.id) && self.has_subtype(o.id, "Island"))
        {
            return Some(AttackPlayerRestriction::NoIsland);
        }
        if self.has_keyword(id, Keyword::CantAttackIntoUntappedPower3)
            && let Some(big) = self
                .battlefield_of(defender)
                .find(|o| !o.tapped && self.is_creature(o.id) && self.power(o.id) >= 3)
        {
            return Some(AttackPlayerRestriction::UntappedPower3(big.id));
        }
        None
    }

    /// Why `id` can't attack at all, worded.
    fn check_can_attack(&self, id: ObjectId) -> Result<(), String> {
        let Some(why) = self.attack_restriction(id) else {
            return Ok(());
        };
        let name = self.card_name(id);
        Err(match why {
            AttackRestriction::Gone => "that creature is gone".into(),
            AttackRestriction::NotACreature => {
                format!("{name} is not a creature on the battlefield")
            }
            AttackRestriction::Tapped => format!("{name} is tapped and can't attack"),
            AttackRestriction::Defender => format!("{name} has defender and can't attack"),
            AttackRestriction::CantAttack => format!("{name} can't attack"),
            AttackRestriction::SummoningSick => format!(
                "{name} has summoning sickness: it hasn't been under your control since your turn began"
            ),
            AttackRestriction::CantPayCost => match self.attack_cost_of(id) {
                Some((f, n)) => format!("{name} can't attack unless you sacrifice {n} ({f})"),
                None => format!("{name} can't attack"),
            },
        })
    }

    /// The first rule that keeps `id` from attacking any player now.
    fn attack_restriction(&self, id: ObjectId) -> Option<AttackRestriction> {
        let Some(o) = self.obj(id) else {
            return Some(AttackRestriction::Gone);
        };
        if !self.is_on_battlefield(id) || !self.is_creature(id) {
            return Some(AttackRestriction::NotACreature);
        }
        if o.tapped {
            return Some(AttackRestriction::Tapped);
        }
        if self.has_keyword(id, Keyword::Defender) {
            return Some(AttackRestriction::Defender);
        }
        if self.has_keyword(id, Keyword::CantAttack) {
            return Some(AttackRestriction::CantAttack);
        }
        if !self.controlled_since_turn_start(id) && !self.has_keyword(id, Keyword::Haste) {
            return Some(AttackRestriction::SummoningSick);
        }
        if let Some((f, n)) = self.attack_cost_of(id)
            && self.attack_cost_candidates(o.controller, f).len() < *n as usize
        {
            return Some(AttackRestriction::CantPayCost);
        }
        None
    }

    /// Creatures `player` could block with, and the attackers each could block.
    pub fn eligible_blockers(&self, player: PlayerId) -> Vec<(ObjectId, Vec<ObjectId>)> {
        let Some(c) = &self.combat else {
            return Vec::new();
        };
        self.battlefield_of(player)
            // Untapped creatures first: the full check words a refusal for every land.
            .filter(|o| !o.tapped && self.is_creature(o.id))
            .filter_map(|o| {
                let options: Vec<ObjectId> = c
                    .attackers
                    .iter()
                    .filter(|a| a.defender == player && self.check_can_block(o.id, a.id).is_ok())
                    .map(|a| a.id)
                    .collect();
                (!options.is_empty()).then_some((o.id, options))
            })
            .collect()
    }

    fn check_can_block(&self, blocker: ObjectId, attacker: ObjectId) -> Result<(), String> {
        let name = self.card_name(blocker);
        let Some(o) = self.obj(blocker) else {
            return Err("that creature is gone".into());
        };
        if !self.is_on_battlefield(blocker) || !self.is_creature(blocker) {
            return Err(format!("{name} is not a creature on the battlefield"));
        }
        if o.tapped {
            return Err(format!("{name} is tapped and can't block"));
        }
        // Each creature's keywords once (the full layer computation can be costly).
        let ak = self.keyword_set(attacker);
        let bk = self.keyword_set(blocker);
        let bcolors = self.colors(blocker);
        // 402.3: "can't block" is a restriction no requirement overrides
        // (R-foriysian-interceptor-2, R-foriysian-totem-2).
        if bk.contains(Keyword::CantBlock) {
            return Err(format!("{name} can't block"));
        }
        if !self
            .combat
            .as_ref()
            .is_some_and(|c| c.is_attacking(attacker))
        {
            return Err(format!("{} is not attacking", self.card_name(attacker)));
        }
        // 502.8: shadow blocks and is blocked only by shadow. A blocker that "can block
        // creatures with shadow as though they didn't have shadow" treats the attacker's
        // shadow as absent (so with shadow itself it blocks nothing: R-aetherflame-wall-2).
        if !crate::keywords::shadow::allows_block(&ak, &bk) {
            let attacker_shadow =
                ak.contains(Keyword::Shadow) && !bk.contains(Keyword::BlocksShadow);
            return Err(if attacker_shadow {
                format!(
                    "{name} can't block {}: it has shadow",
                    self.card_name(attacker)
                )
            } else {
                format!("{name} has shadow and can block only creatures with shadow")
            });
        }
        // "~ can't be blocked" (Deep-Sea Kraken); "creatures can't be blocked this turn"
        // (Veiling Oddity).
        if ak.contains(Keyword::Unblockable) || self.unblockable_turn == Some(self.turn) {
            return Err(format!("{} can't be blocked", self.card_name(attacker)));
        }
        // Protection from mana value 3 or greater (Mistmeadow Skulk): not by such creatures.
        if ak.contains(Keyword::ProtectionFromManaValue3OrGreater)
            && self.source_mana_value(blocker) >= 3
        {
            return Err(format!(
                "{name} can't block {}: it has protection from mana value 3 or greater",
                self.card_name(attacker)
            ));
        }
        // Protection: can't be blocked by creatures of the colour.
        for k in Keyword::ALL {
            if let Some(c) = k.protection_from()
                && bcolors.contains(c)
                && ak.contains(k)
            {
                return Err(format!(
                    "{name} can't block {}: it has {}",
                    self.card_name(attacker),
                    k.name().to_lowercase()
                ));
            }
            // Landwalk: unblockable while the defending player controls such a land.
            if let Some(land) = k.landwalk()
                && ak.contains(k)
                && self.obj(blocker).is_some_and(|b| {
                    self.battlefield_of(b.controller)
                        .any(|o| self.is_land(o.id) && self.has_subtype(o.id, land))
                })
            {
                return Err(format!(
                    "{} can't be blocked: it has {} and you control a {land}",
                    self.card_name(attacker),
                    k.name().to_lowercase()
                ));
            }
        }
        if ak.contains(Keyword::BlockedOnlyByArtifactOrWhite)
            && !self.has_type(blocker, crate::types::CardType::Artifact)
            && !bcolors.contains(crate::mana::Color::W)
        {
            return Err(format!(
                "{name} can't block {}: only artifact or white creatures can block it",
                self.card_name(attacker)
            ));
        }
        // Fear (CR 702.36, seed silent): only artifact creatures and black creatures block it.
        if ak.contains(Keyword::Fear)
            && !self.has_type(blocker, crate::types::CardType::Artifact)
            && !bcolors.contains(crate::mana::Color::B)
        {
            return Err(format!(
                "{name} can't block {}: it has fear (only artifact or black creatures can block it)",
                self.card_name(attacker)
            ));
        }
        if ak.contains(Keyword::UnblockableExceptByWalls) && !self.has_subtype(blocker, "Wall") {
            return Err(format!(
                "{name} can't block {}: it can't be blocked except by Walls",
                self.card_name(attacker)
            ));
        }
        if bk.contains(Keyword::CantBlockPower2OrMore) && self.power(attacker) >= 2 {
            return Err(format!(
                "{name} can't block creatures with power 2 or greater ({} has power {})",
                self.card_name(attacker),
                self.power(attacker)
            ));
        }
        if bk.contains(Keyword::CantBlockPower3OrMore) && self.power(attacker) >= 3 {
            return Err(format!(
                "{name} can't block creatures with power 3 or greater ({} has power {})",
                self.card_name(attacker),
                self.power(attacker)
            ));
        }
        if bk.contains(Keyword::CanBlockOnlyFlyers) && !ak.contains(Keyword::Flying) {
            return Err(format!("{name} can block only creatures with flying"));
        }
        if ak.contains(Keyword::Flying)
            && !bk.contains(Keyword::Flying)
            && !bk.contains(Keyword::Reach)
        {
            return Err(format!(
                "{name} can't block {}: it has flying ({name} has neither flying nor reach)",
                self.card_name(attacker)
            ));
        }
        Ok(())
    }

    pub(crate) fn begin_declare_attackers(&mut self) -> StepFlow {
        self.combat = Some(Combat::default());
        if self.eligible_attackers(self.active).is_empty() {
            self.emit(Event::AttackersDeclared {
                attackers: Vec::new(),
            });
            self.give_priority(self.active);
        } else {
            self.pending = Some(Pending {
                player: self.active,
                decision: Decision::DeclareAttackers,
            });
        }
        StepFlow::Stopped
    }

    fn check_attack(&self, player: PlayerId, attacks: &[Attack]) -> Result<(), RuleError> {
        for (i, a) in attacks.iter().enumerate() {
            if attacks[..i].iter().any(|b| b.attacker == a.attacker) {
                return Err(RuleError::illegal(format!(
                    "{} is declared twice",
                    self.card_name(a.attacker)
                )));
            }
            let o = self
                .obj(a.attacker)
                .ok_or_else(|| RuleError::illegal("that creature is gone"))?;
            if o.controller != player {
                return Err(RuleError::illegal(format!(
                    "you don't control {}",
                    self.card_name(a.attacker)
                )));
            }
            self.check_can_attack(a.attacker)
                .map_err(RuleError::Illegal)?;
            if a.defender == player || !self.target_exists(Target::Player(a.defender)) {
                return Err(RuleError::illegal(format!(
                    "{} must attack an opponent who is still in the game",
                    self.card_name(a.attacker)
                )));
            }
            self.check_can_attack_player(a.attacker, a.defender)
                .map_err(RuleError::Illegal)?;
        }
        // 508.1g-h: the costs of the whole declaration must be payable together.
        for (f, n) in self.attack_costs(attacks) {
            if self.attack_cost_candidates(player, &f).len() < n as usize {
                return Err(RuleError::illegal(format!(
                    "these attackers' costs need {n} ({f}) to sacrifice"
                )));
            }
        }
        // Requirements (508.1d / 2006 rule 500): a creature that "attacks each combat if
        // able" and can attack must be declared. (A requirement never makes a player pay
        // an attack cost, 508.1d: one that can't attack alone for its cost isn't eligible;
        // no card has both.)
        for (id, _) in self.eligible_attackers(player) {
            if self.has_keyword(id, Keyword::AttacksEachCombat)
                && !attacks.iter().any(|a| a.attacker == id)
            {
                return Err(RuleError::illegal(format!(
                    "{} attacks each combat if able: include it",
                    self.card_name(id)
                )));
            }
        }
        Ok(())
    }

    pub(crate) fn answer_attackers(
        &mut self,
        player: PlayerId,
        answer: Answer,
    ) -> Result<(), RuleError> {
        let Answer::Attack(attacks) = answer else {
            return Err(RuleError::WrongKind {
                expected: format!(
                    "an attack declaration (possibly empty), not {}",
                    answer.kind_name()
                ),
            });
        };
        self.check_attack(player, &attacks)?;
        self.pending = None;
        for a in &attacks {
            // 308.2c: attacking taps the creature unless it has vigilance.
            if !self.has_keyword(a.attacker, Keyword::Vigilance) {
                self.tap(a.attacker);
            }
        }
        let costs = self.attack_costs(&attacks);
        if let Some(c) = &mut self.combat
            && !costs.is_empty()
        {
            // 508.1g-h: the costs are paid before the creatures become attackers.
            c.declaring = attacks;
            c.attack_costs_left = costs;
            self.ask_attack_cost();
            return Ok(());
        }
        self.become_attackers(attacks);
        Ok(())
    }

    /// The creatures of a declaration (costs paid) become attacking creatures (508.1k).
    fn become_attackers(&mut self, attacks: Vec<Attack>) {
        if let Some(c) = &mut self.combat {
            c.attackers = attacks
                .iter()
                .map(|a| Attacker {
                    id: a.attacker,
                    defender: a.defender,
                    blocked: false,
                    blockers: Vec::new(),
                    dealt_first_strike: false,
                })
                .collect();
        }
        self.emit(Event::AttackersDeclared {
            attackers: attacks.iter().map(|a| (a.attacker, a.defender)).collect(),
        });
        self.give_priority(self.active);
    }

    /// The cost to attack with `id` (Leviathan's "can't attack unless you sacrifice two
    /// Islands"), while it has its abilities.
    fn attack_cost_of(&self, id: ObjectId) -> Option<&(crate::targets::ObjectFilter, u32)> {
        let o = self.obj(id)?;
        let cost = self.catalog().get(o.face()).attack_cost.as_ref()?;
        self.has_own_abilities(id).then_some(cost)
    }

    /// The permanents `player` could sacrifice for an attack cost with this filter.
    fn attack_cost_candidates(
        &self,
        player: PlayerId,
        f: &crate::targets::ObjectFilter,
    ) -> Vec<ObjectId> {
        self.battlefield_of(player)
            .map(|o| o.id)
            .filter(|id| self.matches_filter(*id, f, player))
            .collect()
    }

    /// The total costs of a declaration, one entry per filter (508.1g: several creatures'
    /// costs add up). Only Leviathan has one, so costs with different filters are summed
    /// per filter and paid one filter after the other.
    fn attack_costs(&self, attacks: &[Attack]) -> Vec<(crate::targets::ObjectFilter, u32)> {
        let mut out: Vec<(crate::targets::ObjectFilter, u32)> = Vec::new();
        for a in attacks {
            if let Some((f, n)) = self.attack_cost_of(a.attacker) {
                match out.iter_mut().find(|(g, _)| g == f) {
                    Some((_, total)) => *total += n,
                    None => out.push((f.clone(), *n)),
                }
            }
        }
        out
    }

    /// Asks the attacking player for the permanents the next attack cost sacrifices.
    fn ask_attack_cost(&mut self) {
        let Some((filter, count)) = self
            .combat
            .as_ref()
            .and_then(|c| c.attack_costs_left.first().cloned())
        else {
            return;
        };
        self.pending = Some(Pending {
            player: self.active,
            decision: Decision::Sacrifice { filter, count },
        });
    }

    /// Whether the pending sacrifice pays an attack cost (not an effect resolving).
    pub(crate) fn paying_attack_cost(&self) -> bool {
        self.resolution.is_none()
            && self
                .combat
                .as_ref()
                .is_some_and(|c| !c.attack_costs_left.is_empty())
    }

    /// The attacking player chose the permanents an attack cost sacrifices (508.1h): they
    /// are sacrificed at once; after the last cost the creatures become attackers.
    pub(crate) fn answer_attack_cost(
        &mut self,
        player: PlayerId,
        d: &Decision,
        answer: Answer,
    ) -> Result<(), RuleError> {
        let Answer::Objects(objs) = answer else {
            return Err(RuleError::WrongKind {
                expected: d.describe(),
            });
        };
        self.check_choice(player, d, &objs)?;
        self.pending = None;
        self.begin_batch(&objs);
        for o in &objs {
            self.sacrifice(*o);
        }
        self.end_batch();
        let Some(c) = &mut self.combat else {
            return Ok(());
        };
        c.attack_costs_left.remove(0);
        if !c.attack_costs_left.is_empty() {
            self.ask_attack_cost();
            return Ok(());
        }
        let attacks: Vec<Attack> = std::mem::take(&mut c.declaring)
            .into_iter()
            .filter(|a| self.is_on_battlefield(a.attacker))
            .collect();
        self.become_attackers(attacks);
        Ok(())
    }

    pub(crate) fn attack_answers(&self, player: PlayerId) -> Vec<Answer> {
        // Whole attack sets are not enumerated (2^n); the per-creature options are in
        // `eligible_attackers`. Listed: no attack, each creature alone, everything.
        let eligible = self.eligible_attackers(player);
        let mut out = vec![Answer::Attack(Vec::new())];
        let required: Vec<Attack> = eligible
            .iter()
            .filter(|(id, _)| self.has_keyword(*id, Keyword::AttacksEachCombat))
            .map(|(id, ds)| Attack {
                attacker: *id,
                defender: ds[0],
            })
            .collect();
        for (id, defenders) in &eligible {
            for d in defenders {
                out.push(Answer::Attack(vec![Attack {
                    attacker: *id,
                    defender: *d,
                }]));
            }
        }
        if eligible.len() > 1 {
            out.push(Answer::Attack(
                eligible
                    .iter()
                    .map(|(id, ds)| Attack {
                        attacker: *id,
                        defender: ds[0],
                    })
                    .collect(),
            ));
        }
        // Every listed attack includes the creatures that must attack (and stays legal).
        for a in &mut out {
            if let Answer::Attack(v) = a {
                for r in &required {
                    if !v.iter().any(|x| x.attacker == r.attacker) {
                        v.push(*r);
                    }
                }
            }
        }
        out.dedup();
        // Attack costs (Leviathan): a set whose costs can't be paid together isn't listed.
        out.retain(|a| match a {
            Answer::Attack(v) => {
                self.attack_costs(v).is_empty() || self.check_attack(player, v).is_ok()
            }
            _ => true,
        });
        out
    }

    fn defenders_to_ask(&self) -> Vec<PlayerId> {
        let Some(c) = &self.combat else {
            return Vec::new();
        };
        self.apnap()
            .into_iter()
            .filter(|p| {
                c.attackers.iter().any(|a| a.defender == *p) && !c.blocks_declared.contains(p)
            })
            .collect()
    }

    pub(crate) fn begin_declare_blockers(&mut self) -> StepFlow {
        self.ask_next_blocker();
        StepFlow::Stopped
    }

    fn ask_next_blocker(&mut self) {
        for p in self.defenders_to_ask() {
            if self.eligible_blockers(p).is_empty() {
                if let Some(c) = &mut self.combat {
                    c.blocks_declared.push(p);
                }
                continue;
            }
            self.pending = Some(Pending {
                player: p,
                decision: Decision::DeclareBlockers,
            });
            return;
        }
        // All blocks are in: attackers become blocked or unblocked (309.2f).
        let blocks: Vec<(ObjectId, ObjectId)> = self
            .combat
            .as_ref()
            .map(|c| c.blockers.iter().map(|b| (b.id, b.attacker)).collect())
            .unwrap_or_default();
        self.emit(Event::BlockersDeclared { blocks });
        if !self.ruleset.combat_damage_uses_stack()
            && let Some(c) = &mut self.combat
        {
            // Δ4 modern: the attacking player orders each attacker's blockers; then ([GK]
            // 509.3) the defending player orders the attackers of each creature blocking
            // several.
            let mut order: Vec<ObjectId> = c
                .attackers
                .iter()
                .filter(|a| a.blockers.len() > 1)
                .map(|a| a.id)
                .collect();
            for b in &c.blockers {
                if !order.contains(&b.id) && c.blockers.iter().filter(|x| x.id == b.id).count() > 1
                {
                    order.push(b.id);
                }
            }
            c.to_order = order;
        }
        self.ask_next_order();
    }

    fn ask_next_order(&mut self) {
        match self
            .combat
            .as_ref()
            .and_then(|c| c.to_order.first().copied())
        {
            Some(creature) => {
                let player = self.obj(creature).map_or(self.active, |o| o.controller);
                self.pending = Some(Pending {
                    player,
                    decision: Decision::OrderBlockers { attacker: creature },
                });
            }
            None => self.give_priority(self.active),
        }
    }

    /// The creatures in combat with `creature` in damage assignment order: an attacker's
    /// blockers, or the attackers a blocker blocks.
    fn blockers_of(&self, creature: ObjectId) -> Vec<ObjectId> {
        let Some(c) = self.combat.as_ref() else {
            return Vec::new();
        };
        match c.attackers.iter().find(|a| a.id == creature) {
            Some(a) => a.blockers.clone(),
            None => c
                .blockers
                .iter()
                .filter(|b| b.id == creature)
                .map(|b| b.attacker)
                .collect(),
        }
    }

    pub(crate) fn answer_order_blockers(
        &mut self,
        _player: PlayerId,
        attacker: ObjectId,
        answer: Answer,
    ) -> Result<(), RuleError> {
        let Answer::Objects(order) = answer else {
            return Err(RuleError::WrongKind {
                expected: format!(
                    "the blockers of {} in order, not {}",
                    self.card_name(attacker),
                    answer.kind_name()
                ),
            });
        };
        let mut current = self.blockers_of(attacker);
        let mut sorted = order.clone();
        sorted.sort();
        current.sort();
        if sorted != current {
            return Err(RuleError::illegal(format!(
                "list each creature in combat with {} exactly once",
                self.card_name(attacker)
            )));
        }
        self.pending = None;
        if let Some(c) = &mut self.combat {
            if let Some(a) = c.attackers.iter_mut().find(|a| a.id == attacker) {
                a.blockers = order;
            } else if let Some(first) = c.blockers.iter().position(|b| b.id == attacker) {
                // A blocker's attackers: its block entries, rewritten in the chosen order.
                let template = c.blockers[first].clone();
                c.blockers.retain(|b| b.id != attacker);
                let at = first.min(c.blockers.len());
                for (i, a) in order.into_iter().enumerate() {
                    let mut e = template.clone();
                    e.attacker = a;
                    c.blockers.insert(at + i, e);
                }
            }
            c.to_order.retain(|x| *x != attacker);
        }
        self.ask_next_order();
        Ok(())
    }

    pub(crate) fn order_blockers_answers(&self, attacker: ObjectId) -> Vec<Answer> {
        let b = self.blockers_of(attacker);
        // The declared order first (the default), then each blocker moved to the front.
        let mut out = vec![Answer::Objects(b.clone())];
        for i in 1..b.len() {
            let mut o = b.clone();
            let x = o.remove(i);
            o.insert(0, x);
            out.push(Answer::Objects(o));
        }
        out
    }

    /// The whole block declaration: restrictions, then requirements (509.1b-c).
    fn check_blocks(&self, player: PlayerId, blocks: &[Block]) -> Result<(), RuleError> {
        self.check_block_restrictions(player, blocks)?;
        self.check_block_requirements(player, blocks)
    }

    fn check_block_restrictions(
        &self,
        player: PlayerId,
        blocks: &[Block],
    ) -> Result<(), RuleError> {
        let Some(c) = &self.combat else {
            return Err(RuleError::illegal("there is no combat"));
        };
        for (i, b) in blocks.iter().enumerate() {
            if blocks[..i]
                .iter()
                .any(|x| x.blocker == b.blocker && x.attacker == b.attacker)
            {
                return Err(RuleError::illegal(format!(
                    "{} is declared twice as a blocker of {}",
                    self.card_name(b.blocker),
                    self.card_name(b.attacker)
                )));
            }
            let count = blocks[..=i]
                .iter()
                .filter(|x| x.blocker == b.blocker)
                .count() as u32;
            let max = self.max_blocks(b.blocker);
            if count > max {
                return Err(RuleError::illegal(if max == 1 {
                    format!("{} can block only one creature", self.card_name(b.blocker))
                } else {
                    format!(
                        "{} can block at most {max} creatures",
                        self.card_name(b.blocker)
                    )
                }));
            }
            let o = self
                .obj(b.blocker)
                .ok_or_else(|| RuleError::illegal("that creature is gone"))?;
            if o.controller != player {
                return Err(RuleError::illegal(format!(
                    "you don't control {}",
                    self.card_name(b.blocker)
                )));
            }
            if !c
                .attackers
                .iter()
                .any(|a| a.id == b.attacker && a.defender == player)
            {
                return Err(RuleError::illegal(format!(
                    "{} is not attacking you",
                    self.card_name(b.attacker)
                )));
            }
            self.check_can_block(b.blocker, b.attacker)
                .map_err(RuleError::Illegal)?;
        }
        // Menace: an attacker with it is blocked by two or more creatures or by none.
        for a in c.attackers.iter().filter(|a| a.defender == player) {
            let n = blocks.iter().filter(|b| b.attacker == a.id).count();
            if n == 1 && self.has_keyword(a.id, Keyword::Menace) {
                return Err(RuleError::illegal(format!(
                    "{} has menace: it can't be blocked except by two or more creatures",
                    self.card_name(a.id)
                )));
            }
        }
        Ok(())
    }

    /// Whether a whole block declaration is legal now (the agent's check; `submit` gives the
    /// reason).
    pub fn blocks_legal(&self, player: PlayerId, blocks: &[Block]) -> bool {
        self.check_blocks(player, blocks).is_ok()
    }

    /// How many attackers a creature may block: one, plus one per instance of "can block an
    /// additional creature" (R-foriysian-interceptor-1: such effects add up).
    pub fn max_blocks(&self, blocker: ObjectId) -> u32 {
        1 + self.keyword_instances(blocker, Keyword::CanBlockAdditional)
    }

    /// CR 509.1c (2006 rule 500, absent from the seed): a block declaration must obey as
    /// many requirements as possible without breaking a restriction. The only block
    /// requirement built is "blocks each combat if able". A declaration is refused when
    /// one of its required creatures that does not block could be added to it (blocking
    /// some attacker alone, or together with every other idle required creature that can
    /// block the same attacker, for attackers that need two blockers) and the result is
    /// still legal: such a declaration obeys fewer requirements than one that exists.
    fn check_block_requirements(
        &self,
        player: PlayerId,
        blocks: &[Block],
    ) -> Result<(), RuleError> {
        let required = |id: ObjectId| {
            self.has_keyword(id, Keyword::BlocksEachCombat)
                && !blocks.iter().any(|b| b.blocker == id)
        };
        if !self.battlefield_of(player).any(|o| required(o.id)) {
            return Ok(());
        }
        let idle: Vec<(ObjectId, Vec<ObjectId>)> = self
            .eligible_blockers(player)
            .into_iter()
            .filter(|(id, _)| required(*id))
            .collect();
        for (id, options) in &idle {
            for a in options {
                let mut more = blocks.to_vec();
                more.push(Block {
                    blocker: *id,
                    attacker: *a,
                });
                let mut together = more.clone();
                for (other, o) in &idle {
                    if other != id && o.contains(a) {
                        together.push(Block {
                            blocker: *other,
                            attacker: *a,
                        });
                    }
                }
                if self.check_block_restrictions(player, &more).is_ok()
                    || self.check_block_restrictions(player, &together).is_ok()
                {
                    return Err(RuleError::illegal(format!(
                        "{} blocks each combat if able: it can block {}",
                        self.card_name(*id),
                        self.card_name(*a)
                    )));
                }
            }
        }
        Ok(())
    }

    pub(crate) fn answer_blockers(
        &mut self,
        player: PlayerId,
        answer: Answer,
    ) -> Result<(), RuleError> {
        let Answer::Block(blocks) = answer else {
            return Err(RuleError::WrongKind {
                expected: format!(
                    "a block declaration (possibly empty), not {}",
                    answer.kind_name()
                ),
            });
        };
        self.check_blocks(player, &blocks)?;
        self.pending = None;
        let remembered: Vec<(ObjectId, ObjectId)> = blocks
            .iter()
            .filter(|b| self.remembers_its_blocks(b.blocker))
            .map(|b| (b.blocker, b.attacker))
            .collect();
        if let Some(c) = &mut self.combat {
            c.remembered_blocks.extend(remembered);
            for b in &blocks {
                c.blockers.push(Blocker {
                    id: b.blocker,
                    attacker: b.attacker,
                    dealt_first_strike: false,
                });
                if let Some(a) = c.attackers.iter_mut().find(|a| a.id == b.attacker) {
                    a.blocked = true;
                    a.blockers.push(b.blocker);
                }
            }
            c.blocks_declared.push(player);
        }
        self.ask_next_blocker();
        Ok(())
    }

    /// Whether an ability of `blocker` reads "all creatures it blocked this turn"
    /// (Defiant Vanguard's `destroy_this_and_blocked_at_end_of_combat`).
    fn remembers_its_blocks(&self, blocker: ObjectId) -> bool {
        self.def(blocker).is_some_and(|d| {
            d.triggers.iter().any(|t| {
                t.effects.iter().any(|e| {
                    matches!(
                        e,
                        crate::effects::Effect::DestroyThisAndBlockedAtEndOfCombat
                    )
                })
            })
        })
    }

    /// The creatures `blocker` was declared blocking this combat (remembered: Defiant
    /// Vanguard).
    pub(crate) fn remembered_blocked_by(&self, blocker: ObjectId) -> Vec<ObjectId> {
        self.combat.as_ref().map_or_else(Vec::new, |c| {
            c.remembered_blocks
                .iter()
                .filter(|(b, _)| *b == blocker)
                .map(|(_, a)| *a)
                .collect()
        })
    }

    pub(crate) fn block_answers(&self, player: PlayerId) -> Vec<Answer> {
        // Whole block sets are not enumerated; the per-creature options are in
        // `eligible_blockers`. Listed: no block, each single block, each with the creatures
        // that must block added (each on its first legal attacker), kept if the whole set
        // is legal.
        let eligible = self.eligible_blockers(player);
        let required: Vec<Block> = eligible
            .iter()
            .filter(|(id, _)| self.has_keyword(*id, Keyword::BlocksEachCombat))
            .map(|(id, atts)| Block {
                blocker: *id,
                attacker: atts[0],
            })
            .collect();
        let mut out = vec![Answer::Block(Vec::new())];
        for (b, attackers) in &eligible {
            for a in attackers {
                out.push(Answer::Block(vec![Block {
                    blocker: *b,
                    attacker: *a,
                }]));
            }
        }
        if !required.is_empty() {
            let with: Vec<Answer> = out
                .iter()
                .filter_map(|x| match x {
                    Answer::Block(v) => {
                        let mut v = v.clone();
                        for r in &required {
                            if !v.iter().any(|b| b.blocker == r.blocker) {
                                v.push(*r);
                            }
                        }
                        Some(Answer::Block(v))
                    }
                    _ => None,
                })
                .collect();
            out.extend(with);
        }
        out.retain(|a| matches!(a, Answer::Block(b) if self.check_blocks(player, b).is_ok()));
        out.dedup();
        out
    }

    pub(crate) fn combat_has_first_strike(&self) -> bool {
        let Some(c) = &self.combat else { return false };
        c.attackers
            .iter()
            .map(|a| a.id)
            .chain(c.blockers.iter().map(|b| b.id))
            .any(|id| {
                self.is_on_battlefield(id)
                    && (self.has_keyword(id, Keyword::FirstStrike)
                        || self.has_keyword(id, Keyword::DoubleStrike))
            })
    }

    /// Who deals damage in this step (310.5 / 510.4): in the first-strike step, creatures
    /// with first strike or double strike; in the regular step, creatures with double
    /// strike and those that didn't assign damage in the first step (classic) or had
    /// neither keyword as it began (modern, `Combat::first_strikers`).
    fn deals_damage_now(&self, id: ObjectId, first_strike_step: bool, dealt_first: bool) -> bool {
        let fs = self.has_keyword(id, Keyword::FirstStrike);
        let ds = self.has_keyword(id, Keyword::DoubleStrike);
        if first_strike_step {
            return fs || ds;
        }
        let struck_first = if self.ruleset.regular_damage_step_by_first_strike_at_start() {
            self.combat
                .as_ref()
                .is_some_and(|c| c.first_strikers.contains(&id))
        } else {
            dealt_first
        };
        ds || !struck_first
    }

    /// Lethal damage for a creature from `source`, counting damage already marked (modern
    /// 510.1c). Modern deathtouch (702.2c, Δ16): any nonzero damage is lethal; classic
    /// deathtouch (a 2007 trigger) does not change what is lethal.
    fn lethal_damage(&self, id: ObjectId, source: ObjectId) -> u32 {
        let marked = self.obj(id).map_or(0, |o| o.damage) as i32;
        let lethal = (self.toughness(id) - marked).max(0) as u32;
        if self.ruleset.deathtouch_static() && self.has_keyword(source, Keyword::Deathtouch) {
            lethal.min(1)
        } else {
            lethal
        }
    }

    /// The attacker's blockers still on the battlefield, in damage assignment order.
    fn living_blockers(&self, a: &Attacker) -> Vec<ObjectId> {
        a.blockers
            .iter()
            .copied()
            .filter(|b| self.is_on_battlefield(*b))
            .collect()
    }

    /// Who a creature's combat damage may go to: an attacker's blockers in damage
    /// assignment order (and, with trample, the defending player); a blocker's attackers
    /// still on the battlefield, in the order the blocks were declared.
    fn dividing(&self, id: ObjectId) -> Option<Dividing> {
        let c = self.combat.as_ref()?;
        if let Some(a) = c.attackers.iter().find(|a| a.id == id) {
            return Some(Dividing {
                id,
                recipients: self.living_blockers(a),
                trample_to: self.has_keyword(id, Keyword::Trample).then_some(a.defender),
            });
        }
        let attackers: Vec<ObjectId> = c
            .blockers
            .iter()
            .filter(|b| b.id == id && self.is_on_battlefield(b.attacker))
            .map(|b| b.attacker)
            .collect();
        (!attackers.is_empty()).then_some(Dividing {
            id,
            recipients: attackers,
            trample_to: None,
        })
    }

    /// The assignment the engine proposes: lethal damage to each recipient in order, the
    /// rest to the last one or, with trample, to the defending player.
    fn default_assignment(&self, d: &Dividing, power: u32) -> Vec<(Target, u32)> {
        if d.recipients.is_empty() {
            // 309.2f / 702.19e: blocked with no blocker left: no damage unless trample.
            return match d.trample_to {
                Some(p) if power > 0 => vec![(Target::Player(p), power)],
                _ => Vec::new(),
            };
        }
        let mut out = Vec::new();
        let mut left = power;
        for (i, b) in d.recipients.iter().enumerate() {
            let last = i == d.recipients.len() - 1;
            let give = if last && d.trample_to.is_none() {
                left
            } else {
                left.min(self.lethal_damage(*b, d.id))
            };
            if give > 0 {
                out.push((Target::Object(*b), give));
            }
            left -= give;
        }
        if left > 0
            && let Some(p) = d.trample_to
        {
            out.push((Target::Player(p), left));
        }
        out
    }

    /// 310.2 / Δ4 and trample (702.19): whether an assignment of a creature's combat damage
    /// is legal.
    fn check_assignment(
        &self,
        d: &Dividing,
        power: u32,
        assign: &[(Target, u32)],
    ) -> Result<(), RuleError> {
        let total: u32 = assign.iter().map(|x| x.1).sum();
        if total != power {
            return Err(RuleError::illegal(format!(
                "assign exactly {power} damage (this assigns {total})"
            )));
        }
        for (i, (t, _)) in assign.iter().enumerate() {
            if assign[..i].iter().any(|(u, _)| u == t) {
                return Err(RuleError::illegal("name each recipient once"));
            }
            match t {
                Target::Object(o) if d.recipients.contains(o) => {}
                Target::Ability(_) => {
                    return Err(RuleError::illegal("an ability can't be dealt damage"));
                }
                Target::Player(p) if Some(*p) == d.trample_to => {}
                Target::Player(_) => {
                    return Err(RuleError::illegal(format!(
                        "{} can assign damage to the player only with trample",
                        self.card_name(d.id)
                    )));
                }
                Target::Object(o) => {
                    return Err(RuleError::illegal(format!(
                        "{} is not in combat with {}",
                        self.card_name(*o),
                        self.card_name(d.id)
                    )));
                }
            }
        }
        let got = |b: ObjectId| {
            assign
                .iter()
                .find(|(t, _)| *t == Target::Object(b))
                .map_or(0, |x| x.1)
        };
        let to_player = assign
            .iter()
            .any(|(t, n)| matches!(t, Target::Player(_)) && *n > 0);
        if to_player
            && d.recipients
                .iter()
                .any(|b| got(*b) < self.lethal_damage(*b, d.id))
        {
            return Err(RuleError::illegal(
                "with trample, every blocker must be assigned lethal damage before any goes to the player",
            ));
        }
        if !self.ruleset.combat_damage_uses_stack() {
            // Modern: in damage assignment order, lethal damage to each before the next.
            for (i, b) in d.recipients.iter().enumerate() {
                let later = d.recipients[i + 1..].iter().any(|c| got(*c) > 0);
                if later && got(*b) < self.lethal_damage(*b, d.id) {
                    return Err(RuleError::illegal(format!(
                        "{} must be assigned lethal damage ({}) before a later creature in the damage assignment order",
                        self.card_name(*b),
                        self.lethal_damage(*b, d.id)
                    )));
                }
            }
        }
        Ok(())
    }

    /// As the first-strike combat damage step begins: which attackers and blockers have
    /// first strike or double strike (modern 510.4 asks it in the regular step).
    fn note_first_strikers(&mut self) {
        let Some(c) = &self.combat else { return };
        let strikers: Vec<ObjectId> = c
            .attackers
            .iter()
            .map(|a| a.id)
            .chain(c.blockers.iter().map(|b| b.id))
            .filter(|id| {
                self.has_keyword(*id, Keyword::FirstStrike)
                    || self.has_keyword(*id, Keyword::DoubleStrike)
            })
            .collect();
        if let Some(c) = &mut self.combat {
            c.first_strikers = strikers;
        }
    }

    /// Starts a combat damage step: assignments that need no choice are made; creatures
    /// whose damage their controller must divide are asked about one at a time (attackers
    /// first, then blockers blocking several attackers).
    pub(crate) fn combat_damage_step(&mut self, first_strike_step: bool) -> StepFlow {
        if first_strike_step {
            self.note_first_strikers();
        }
        let Some(c) = self.combat.clone() else {
            return StepFlow::Continue;
        };
        let mut assigned: Vec<(ObjectId, Target, u32)> = Vec::new();
        let mut unblocked: Vec<ObjectId> = Vec::new();
        let mut to_assign = Vec::new();
        for a in &c.attackers {
            if !self.is_on_battlefield(a.id)
                || !self.is_creature(a.id)
                || !self.deals_damage_now(a.id, first_strike_step, a.dealt_first_strike)
            {
                continue;
            }
            let power = self.power(a.id).max(0) as u32;
            if power == 0 {
                continue;
            }
            if !a.blocked {
                assigned.push((a.id, Target::Player(a.defender), power));
                unblocked.push(a.id);
                continue;
            }
            let Some(d) = self.dividing(a.id) else {
                continue;
            };
            if d.recipients.len() > 1 || (d.trample_to.is_some() && !d.recipients.is_empty()) {
                to_assign.push(a.id);
                continue;
            }
            for (t, n) in self.default_assignment(&d, power) {
                assigned.push((a.id, t, n));
            }
        }
        let mut seen: Vec<ObjectId> = Vec::new();
        for b in &c.blockers {
            if seen.contains(&b.id) {
                continue;
            }
            seen.push(b.id);
            if !self.is_on_battlefield(b.id)
                || !self.is_creature(b.id)
                || !self.deals_damage_now(b.id, first_strike_step, b.dealt_first_strike)
            {
                continue;
            }
            let power = self.power(b.id).max(0) as u32;
            let Some(d) = self.dividing(b.id) else {
                continue;
            };
            if power == 0 {
                continue;
            }
            if d.recipients.len() > 1 {
                to_assign.push(b.id);
                continue;
            }
            for (t, n) in self.default_assignment(&d, power) {
                assigned.push((b.id, t, n));
            }
        }
        if let Some(c) = &mut self.combat {
            c.assigned = assigned;
            for id in unblocked {
                if !c.unblocked_dealers.contains(&id) {
                    c.unblocked_dealers.push(id);
                }
            }
            c.to_assign = to_assign;
            c.first_strike_step = first_strike_step;
        }
        self.ask_next_assignment()
    }

    fn ask_next_assignment(&mut self) -> StepFlow {
        let next = self
            .combat
            .as_ref()
            .and_then(|c| c.to_assign.first().copied());
        if let Some(creature) = next {
            let power = self.power(creature).max(0) as u32;
            let player = self.obj(creature).map_or(self.active, |o| o.controller);
            self.pending = Some(Pending {
                player,
                decision: Decision::AssignCombatDamage {
                    attacker: creature,
                    power,
                },
            });
            return StepFlow::Stopped;
        }
        self.finish_combat_damage();
        if self.pending.is_none() && self.result.is_none() {
            self.give_priority(self.active);
        }
        StepFlow::Stopped
    }

    pub(crate) fn answer_assign_damage(
        &mut self,
        _player: PlayerId,
        creature: ObjectId,
        answer: Answer,
    ) -> Result<(), RuleError> {
        let Answer::AssignDamage(assign) = answer else {
            return Err(RuleError::WrongKind {
                expected: format!(
                    "a damage assignment for {}, not {}",
                    self.card_name(creature),
                    answer.kind_name()
                ),
            });
        };
        let d = self
            .dividing(creature)
            .ok_or_else(|| RuleError::illegal("that creature is no longer in combat"))?;
        let power = self.power(creature).max(0) as u32;
        self.check_assignment(&d, power, &assign)?;
        self.pending = None;
        if let Some(c) = &mut self.combat {
            c.assigned.extend(
                assign
                    .into_iter()
                    .filter(|x| x.1 > 0)
                    .map(|(t, n)| (creature, t, n)),
            );
            c.to_assign.retain(|x| *x != creature);
        }
        self.ask_next_assignment();
        Ok(())
    }

    pub(crate) fn assign_damage_answers(&self, creature: ObjectId) -> Vec<Answer> {
        let Some(d) = self.dividing(creature) else {
            return Vec::new();
        };
        let power = self.power(creature).max(0) as u32;
        let mut out = vec![Answer::AssignDamage(self.default_assignment(&d, power))];
        for b in &d.recipients {
            let all = vec![(Target::Object(*b), power)];
            if self.check_assignment(&d, power, &all).is_ok()
                && !out.contains(&Answer::AssignDamage(all.clone()))
            {
                out.push(Answer::AssignDamage(all));
            }
        }
        out
    }

    /// All assignments are made: modern deals the damage at once; classic puts it on the
    /// stack (310.1, Δ3).
    fn finish_combat_damage(&mut self) {
        let Some(c) = &mut self.combat else { return };
        let first_strike_step = c.first_strike_step;
        if first_strike_step {
            let dealers: Vec<ObjectId> = c.assigned.iter().map(|x| x.0).collect();
            for a in &mut c.attackers {
                a.dealt_first_strike |= dealers.contains(&a.id);
            }
            for b in &mut c.blockers {
                b.dealt_first_strike |= dealers.contains(&b.id);
            }
        }
        if self.ruleset.combat_damage_uses_stack() {
            self.stack.push(StackItem {
                kind: StackKind::CombatDamage {
                    first_strike: first_strike_step,
                },
                controller: self.active,
                // Combat damage is no card's: the id is unused (views name it "Combat damage").
                card: crate::ids::CardId(0),
                targets: Vec::new(),
                x: 0,
                mode: None,
                spent: crate::mana::ColorSet::NONE,
                division: Vec::new(),
                cost_exiled: Vec::new(),
                serial: None,
                chooser: None,
            });
            return;
        }
        let damage: Vec<(ObjectId, Target, u32)> = c.assigned.clone();
        if let Some(p) = self.next_combat_damage_question(&damage) {
            // 616.1: asked before the damage is dealt; the answer continues here.
            self.pending = Some(p);
            return;
        }
        let Some(c) = &mut self.combat else { return };
        let assigned = std::mem::take(&mut c.assigned);
        for (src, t, n) in assigned {
            self.deal_damage(src, t, n, true);
        }
        self.clear_damage_orders();
    }

    /// Deals the assigned combat damage once the shield orders it needed are answered.
    pub(crate) fn continue_combat_damage(&mut self) {
        self.finish_combat_damage();
        if self.pending.is_none() && self.result.is_none() {
            self.give_priority(self.active);
        }
    }

    /// Classic 310.4: the damage object resolves; damage to a creature no longer on the
    /// battlefield is not dealt; a source that left still deals its damage.
    pub(crate) fn resolve_combat_damage_object(&mut self) {
        let assigned = self
            .combat
            .as_mut()
            .map(|c| std::mem::take(&mut c.assigned))
            .unwrap_or_default();
        for (src, t, n) in assigned {
            self.deal_damage(src, t, n, true);
        }
        self.clear_damage_orders();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::Ruleset;
    use crate::steps::Step;
    use crate::zones::ZoneKind;

    /// A board with `n` creatures a side in the declare blockers step, every attacker
    /// attacking; some blockers must block, some can block two.
    fn big_board(n: usize) -> Game {
        let c = crate::cards::Catalog::builtin();
        let id = |name: &str| c.by_name(name).map(|d| d.id).expect("card");
        let mut g = Game::empty(Ruleset::Modern, 1, vec!["A".into(), "B".into()], 20);
        g.turn = 3;
        g.players[0].turn_started = 3;
        g.players[1].turn_started = 2;
        for p in &mut g.players {
            p.kept = true;
        }
        for i in 0..n {
            g.create_object(id("Test Bear"), PlayerId(0), ZoneKind::Battlefield);
            let blocker = match i % 4 {
                0 => "Fixture: Sentinel",
                1 => "Foriysian Interceptor",
                _ => "Test Bear",
            };
            g.create_object(id(blocker), PlayerId(1), ZoneKind::Battlefield);
        }
        for o in &mut g.objects {
            o.controlled_since = 0;
        }
        g.step = Step::DeclareAttackers;
        let _ = g.begin_declare_attackers();
        let all: Vec<Attack> = g
            .eligible_attackers(PlayerId(0))
            .into_iter()
            .map(|(a, d)| Attack {
                attacker: a,
                defender: d[0],
            })
            .collect();
        assert_eq!(all.len(), n);
        g.submit(PlayerId(0), Answer::Attack(all)).expect("attack");
        while g
            .pending()
            .is_some_and(|p| p.decision == Decision::Priority)
        {
            let p = g.pending().map(|p| p.player).unwrap_or(PlayerId(0));
            g.submit(p, Answer::Pass).expect("pass");
        }
        g
    }

    #[test]
    fn block_enumeration_stays_small_with_twenty_creatures_a_side() {
        let g = big_board(20);
        assert_eq!(
            g.pending().map(|p| &p.decision),
            Some(&Decision::DeclareBlockers)
        );
        let answers = g.legal_answers(PlayerId(1));
        // Per-creature options plus whole-set checks: never the 21^20 block sets.
        assert!(!answers.is_empty() && answers.len() <= 2 * (1 + 20 * 20));
        // "No block" breaks the Sentinels' requirement; every listed set obeys it.
        assert!(!answers.contains(&Answer::Block(Vec::new())));
        for a in &answers {
            let mut probe = g.clone();
            probe
                .submit(PlayerId(1), a.clone())
                .unwrap_or_else(|e| panic!("listed {a:?} refused: {e}"));
        }
        // A creature that can block two shows both attackers in the view.
        let eligible = g.eligible_blockers(PlayerId(1));
        let interceptor = eligible
            .iter()
            .map(|(id, _)| *id)
            .find(|id| g.max_blocks(*id) == 2)
            .expect("an Interceptor");
        let sentinels: Vec<Block> = eligible
            .iter()
            .filter(|(id, _)| g.has_keyword(*id, Keyword::BlocksEachCombat))
            .map(|(id, atts)| Block {
                blocker: *id,
                attacker: atts[0],
            })
            .collect();
        let atts = &eligible[0].1;
        let mut blocks = sentinels.clone();
        blocks.push(Block {
            blocker: interceptor,
            attacker: atts[1],
        });
        blocks.push(Block {
            blocker: interceptor,
            attacker: atts[2],
        });
        let mut probe = g.clone();
        probe
            .submit(PlayerId(1), Answer::Block(blocks))
            .expect("two blocks for the Interceptor");
        let v = probe.view(None);
        let pv = v
            .battlefield
            .iter()
            .find(|p| p.id == interceptor)
            .expect("in view");
        assert_eq!(pv.blocking, Some(atts[1]));
        assert_eq!(pv.blocking_all.len(), 2);
        assert!(pv.blocking_all.contains(&atts[2]));
        // The per-creature options: every blocker may block every attacker.
        assert_eq!(eligible.len(), 20);
        assert!(eligible.iter().all(|(_, atts)| atts.len() == 20));
    }
}
