//! The steps and phases of a turn (rule 300; 2014: 500) and what a "skip" effect skips: the
//! vocabulary of turn structure. A leaf module; the procedures are in [`crate::turn`].

use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Step {
    Untap,
    Upkeep,
    Draw,
    PrecombatMain,
    BeginCombat,
    DeclareAttackers,
    DeclareBlockers,
    /// The extra combat damage step for first strike and double strike (310.5).
    FirstStrikeDamage,
    CombatDamage,
    EndCombat,
    PostcombatMain,
    End,
    Cleanup,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    Beginning,
    PrecombatMain,
    Combat,
    PostcombatMain,
    End,
}

impl Step {
    pub const ALL: [Step; 13] = [
        Step::Untap,
        Step::Upkeep,
        Step::Draw,
        Step::PrecombatMain,
        Step::BeginCombat,
        Step::DeclareAttackers,
        Step::DeclareBlockers,
        Step::FirstStrikeDamage,
        Step::CombatDamage,
        Step::EndCombat,
        Step::PostcombatMain,
        Step::End,
        Step::Cleanup,
    ];
    pub fn phase(self) -> Phase {
        match self {
            Step::Untap | Step::Upkeep | Step::Draw => Phase::Beginning,
            Step::PrecombatMain => Phase::PrecombatMain,
            Step::BeginCombat
            | Step::DeclareAttackers
            | Step::DeclareBlockers
            | Step::FirstStrikeDamage
            | Step::CombatDamage
            | Step::EndCombat => Phase::Combat,
            Step::PostcombatMain => Phase::PostcombatMain,
            Step::End | Step::Cleanup => Phase::End,
        }
    }
    pub fn is_main(self) -> bool {
        matches!(self, Step::PrecombatMain | Step::PostcombatMain)
    }
    pub fn name(self) -> &'static str {
        match self {
            Step::Untap => "untap step",
            Step::Upkeep => "upkeep",
            Step::Draw => "draw step",
            Step::PrecombatMain => "precombat main phase",
            Step::BeginCombat => "beginning of combat",
            Step::DeclareAttackers => "declare attackers step",
            Step::DeclareBlockers => "declare blockers step",
            Step::FirstStrikeDamage => "first-strike combat damage step",
            Step::CombatDamage => "combat damage step",
            Step::EndCombat => "end of combat step",
            Step::PostcombatMain => "postcombat main phase",
            Step::End => "end step",
            Step::Cleanup => "cleanup step",
        }
    }
    /// The identifier used in scenario files and commands (`precombat_main`).
    pub fn key(self) -> &'static str {
        match self {
            Step::Untap => "untap",
            Step::Upkeep => "upkeep",
            Step::Draw => "draw",
            Step::PrecombatMain => "precombat_main",
            Step::BeginCombat => "begin_combat",
            Step::DeclareAttackers => "declare_attackers",
            Step::DeclareBlockers => "declare_blockers",
            Step::FirstStrikeDamage => "first_strike_damage",
            Step::CombatDamage => "combat_damage",
            Step::EndCombat => "end_combat",
            Step::PostcombatMain => "postcombat_main",
            Step::End => "end",
            Step::Cleanup => "cleanup",
        }
    }
    pub fn from_key(s: &str) -> Option<Step> {
        Step::ALL.into_iter().find(|st| st.key() == s)
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a "skip" effect skips (300.9; 2006 419.6e-f).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SkipKind {
    Turn,
    UntapStep,
    UpkeepStep,
    DrawStep,
}

impl SkipKind {
    pub fn name(self) -> &'static str {
        match self {
            SkipKind::Turn => "a turn",
            SkipKind::UntapStep => "an untap step",
            SkipKind::UpkeepStep => "an upkeep",
            SkipKind::DrawStep => "a draw step",
        }
    }
    pub(crate) fn of_step(step: Step) -> Option<SkipKind> {
        match step {
            Step::Untap => Some(SkipKind::UntapStep),
            Step::Upkeep => Some(SkipKind::UpkeepStep),
            Step::Draw => Some(SkipKind::DrawStep),
            _ => None,
        }
    }
}
