//! The two rulesets: `Modern` (2014 rules, the default) and `Classic` (2006 rules).
//!
//! Every place that behaves differently asks the ruleset (rules.md Section 1, rows Δ1-Δ25);
//! nothing else in the engine checks the era.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Ruleset {
    /// 2014 rules (seed 003 + M14): no mana burn, pools empty at every step, combat damage
    /// without the stack, damage assignment order, legend rule per controller.
    #[default]
    Modern,
    /// 2006 rules (seed 000 + Time Spiral FAQ): mana burn at the end of each phase, combat
    /// damage on the stack, free division of damage, world-wide legend rule.
    Classic,
}

impl Ruleset {
    /// Δ1: unspent mana makes its owner lose life when the pool empties.
    pub fn mana_burn(self) -> bool {
        self == Ruleset::Classic
    }
    /// Δ2: pools empty at the end of every step (modern) or only of every phase (classic).
    pub fn pools_empty_each_step(self) -> bool {
        self == Ruleset::Modern
    }
    /// Δ3: combat damage is an object on the stack.
    pub fn combat_damage_uses_stack(self) -> bool {
        self == Ruleset::Classic
    }
    /// Δ9: the legend rule compares all legendary permanents (classic) or those of one
    /// controller, who keeps one (modern).
    pub fn legend_rule_per_controller(self) -> bool {
        self == Ruleset::Modern
    }
    /// Δ10: mulligans are taken one player at a time (classic) or in simultaneous rounds.
    pub fn simultaneous_mulligans(self) -> bool {
        self == Ruleset::Modern
    }
    /// Δ19: the 2006 six-layer order (resolved setting and modifying effects together in
    /// 6b, static modifications after counters in 6d) rather than the 2014 seven layers.
    pub fn layers_2006(self) -> bool {
        self == Ruleset::Classic
    }
    /// Δ16: deathtouch is a static ability (modern: destruction by state-based action, and
    /// 1 damage counts as lethal when assigning combat damage) or, in classic, the 2007
    /// triggered ability "whenever this deals damage to a creature, destroy that creature"
    /// (which leaves lethal damage unchanged).
    pub fn deathtouch_static(self) -> bool {
        self == Ruleset::Modern
    }
    /// Δ16: lifelink is static in the modern rules (life gained as the damage is dealt) and
    /// a triggered ability in classic (Future Sight's wording).
    pub fn lifelink_static(self) -> bool {
        self == Ruleset::Modern
    }
    /// Modern 613.7f: a permanent receives a new timestamp when it turns face up or face
    /// down; the 2006 list of timestamps (418.5e) has no such case.
    pub fn timestamp_on_turning_face(self) -> bool {
        self == Ruleset::Modern
    }
    /// Δ18: characteristic-defining abilities setting P/T work in every zone (modern) or
    /// only on the battlefield (classic 208.2: "*" is 0 elsewhere).
    pub fn pt_cda_everywhere(self) -> bool {
        self == Ruleset::Modern
    }
    /// Δ23: a token's owner is the controller of the spell or ability that created it
    /// (classic 200.4a, 216.1) rather than the player under whose control it entered the
    /// battlefield (modern 110.5a); either way its controller is the player who put it there.
    pub fn token_owned_by_creator(self) -> bool {
        self == Ruleset::Classic
    }
    /// A token that has left the battlefield never comes back to it (both rulesets); it may
    /// still move between other zones until it ceases to exist (classic 216.3) or it can't
    /// change zones at all and stays where it is (modern 110.5f).
    pub fn token_moves_after_leaving(self) -> bool {
        self == Ruleset::Classic
    }
    /// Who deals damage in the regular combat damage step after a first-strike step, apart
    /// from creatures with double strike: modern 510.4 / 702.7c, the creatures that had
    /// neither first strike nor double strike as the first-strike step began; classic 310.5,
    /// the creatures that didn't assign combat damage in the first step (a first striker
    /// with 0 power then, pumped since, deals damage in the second).
    pub fn regular_damage_step_by_first_strike_at_start(self) -> bool {
        self == Ruleset::Modern
    }
    /// Buyback (classic 502.16a / modern 702.26a): a resolving spell with buyback paid goes
    /// to its owner's hand even when another player controls it (modern: "into its owner's
    /// hand instead of into that player's graveyard"), rather than only when its controller
    /// owns it (classic: "into your hand instead of into your graveyard", R-buyback-3).
    pub fn buyback_returns_to_owner(self) -> bool {
        self == Ruleset::Modern
    }
    /// Delve: classic (Future Sight, 2007) "you may remove any number of cards in your
    /// graveyard ... costs {1} less for each" (any number, as an additional cost); modern
    /// 702.65a exiles at most one card for each generic mana of the total cost.
    pub fn delve_exiles_any_number(self) -> bool {
        self == Ruleset::Classic
    }
    /// Convoke: classic (Ravnica, Future Sight) "as an additional cost ..., you may tap any
    /// untapped creature you control. Each creature tapped this way reduces the cost by {1}
    /// or by one mana of any of that creature's colors" (any number); modern 702.50a taps
    /// one creature for each mana it pays.
    pub fn convoke_taps_any_number(self) -> bool {
        self == Ruleset::Classic
    }
    pub fn name(self) -> &'static str {
        match self {
            Ruleset::Modern => "modern",
            Ruleset::Classic => "classic",
        }
    }
}

impl fmt::Display for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Ruleset {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "modern" | "2014" => Ok(Ruleset::Modern),
            "classic" | "2006" => Ok(Ruleset::Classic),
            other => Err(format!(
                "unknown ruleset `{other}`: choose `modern` (2014 rules) or `classic` (2006 rules)"
            )),
        }
    }
}
