//! Keyword abilities (rule 502; 2014: 702). This module holds the vocabulary, [`Keyword`],
//! which the low floor of the engine may use; each keyword mechanic that needs more than a
//! flag has its own submodule with the rules procedures that implement it, opening with the
//! rule numbers it follows (the 2006 rules' 502.xx and the 2014 rules' 702.xx).

use serde::{Deserialize, Serialize};
use std::str::FromStr;

/// Keyword abilities the engine plays. A card whose text has another keyword needs a script
/// that the engine supports, or it stays unsupported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Keyword {
    Flying,
    Reach,
    Vigilance,
    Haste,
    Flash,
    FirstStrike,
    DoubleStrike,
    Trample,
    Defender,
    /// 502.8: blocks and is blocked only by creatures with shadow.
    Shadow,
    /// Protection from a colour (502.7 [GK]; modern "DEBT"): can't be damaged, blocked or
    /// targeted by sources of that colour (enchant/equip: no such cards yet).
    ProtectionFromWhite,
    ProtectionFromBlue,
    ProtectionFromBlack,
    ProtectionFromRed,
    ProtectionFromGreen,
    /// Landwalk: unblockable while the defending player controls a land of the type.
    Plainswalk,
    Islandwalk,
    Swampwalk,
    Mountainwalk,
    Forestwalk,
    /// 502.3: blockers without flanking get -1/-1 (a built-in triggered ability).
    Flanking,
    /// Can't be blocked except by two or more creatures (Two-Headed Sliver's Oracle text).
    Menace,
    /// "~ attacks each combat if able": a requirement on the attack declaration.
    AttacksEachCombat,
    /// "~ can block only creatures with flying."
    CanBlockOnlyFlyers,
    /// Absorb 1 (Lymph Sliver): prevent 1 of the damage each source would deal to it.
    Absorb1,
    /// Split second (502.58): while this spell is on the stack, players can't cast spells or
    /// activate abilities that aren't mana abilities.
    SplitSecond,
    /// Fear: can't be blocked except by artifact creatures and/or black creatures.
    Fear,
    /// "~ can't block" (402.3: an ability; a restriction on the block declaration).
    CantBlock,
    /// "~ can block an additional creature each combat" (each instance adds one).
    CanBlockAdditional,
    /// "~ can block creatures with shadow as though they didn't have shadow."
    BlocksShadow,
    /// "~ blocks each combat if able": a requirement on the block declaration.
    BlocksEachCombat,
    /// 502.12: rampage N, a built-in "becomes blocked" trigger (each instance separately).
    Rampage1,
    Rampage2,
    /// "~ can't block creatures with power 2 or greater" (checked only as blockers are
    /// declared: R-ironclaw-buzzardiers-1).
    CantBlockPower2OrMore,
    /// "~ can't block creatures with power 3 or greater" (Orgg).
    CantBlockPower3OrMore,
    /// "~ can't attack if defending player controls an untapped creature with power 3 or
    /// greater" (Orgg): a restriction checked per defending player.
    CantAttackIntoUntappedPower3,
    /// Deathtouch (Δ16): modern 702.2 (static; any damage is lethal, also for trample
    /// assignment); classic as printed in 2007 (Future Sight, 502.32): a triggered ability
    /// "whenever this deals damage to a creature, destroy that creature".
    Deathtouch,
    /// "~ doesn't untap during your untap step."
    DoesntUntap,
    /// Shroud (2014 702.18; 2006 a keyword of section 502 the seeds don't carry, the same
    /// rule): it can't be the target of spells or abilities (`keywords/shroud.rs`).
    Shroud,
    /// Poisonous N (702.69, `keywords/poisonous.rs`): a built-in combat-damage trigger.
    Poisonous1,
    Poisonous3,
    /// Lifelink (702.15, Δ16, `keywords/lifelink.rs`): static in modern, a trigger in classic.
    Lifelink,
    /// Frenzy 1 (702.67, `keywords/frenzy.rs`): a built-in "attacks and isn't blocked" trigger.
    Frenzy1,
    /// "~ can't be blocked" (Deep-Sea Kraken): a restriction on the block declaration.
    Unblockable,
    /// "~ can't attack unless defending player controls an Island" (Dandân, Pirate Ship): a
    /// restriction checked per defending player (2006 308.2 / 2014 508.1c).
    CantAttackUnlessDefenderControlsIsland,
    /// "~ can't attack" (Evil Eye of Orms-by-Gore's grant to its other creatures).
    CantAttack,
    /// "~ can't be blocked except by Walls" (Evil Eye of Orms-by-Gore).
    UnblockableExceptByWalls,
    /// "This spell can't be countered" (Scragnoth): a spell or ability that counters it does
    /// nothing to it (2006 413.2 / 2014 701.5); the rules still counter it on resolution when
    /// all its targets are illegal (none of the block's such cards targets).
    CantBeCountered,
    /// "~ can't be blocked except by artifact creatures and/or white creatures" (Amrou
    /// Seekers; a restriction on the block declaration, like fear's).
    BlockedOnlyByArtifactOrWhite,
    /// Indestructible (2014 702.12; 2006: a static ability of the rules' glossary, the same
    /// rule): it can't be destroyed, and lethal damage doesn't destroy it (`Game::destroy`,
    /// `sba.rs`; Darksteel Garrison, `keywords/fortify.rs`).
    Indestructible,
    /// "If this permanent would be put into a graveyard, you may put it on top of its
    /// owner's library instead" (Pulmonic Sliver's grant): an optional replacement (419 /
    /// 614) its controller is asked as it would go (`replacement.rs`, `LibraryInstead`).
    TopOfLibraryInstead,
    /// A bare vanishing a permanent gained (Maelstrom Djinn; `keywords/vanishing.rs`): its
    /// two abilities built in, each instance triggering separately. Printed "Vanishing N" is
    /// the script key `vanishing = N`.
    Vanishing,
    /// "Protection from mana value 3 or greater" (Mistmeadow Skulk; 2014 702.16 / 2006
    /// 502.7, the same four parts): from every spell and source with mana value 3 or more
    /// (`Game::protected_from_mana_value`).
    ProtectionFromManaValue3OrGreater,
}

impl Keyword {
    /// The colour of a protection keyword.
    pub fn protection_from(self) -> Option<crate::mana::Color> {
        use crate::mana::Color;
        match self {
            Keyword::ProtectionFromWhite => Some(Color::W),
            Keyword::ProtectionFromBlue => Some(Color::U),
            Keyword::ProtectionFromBlack => Some(Color::B),
            Keyword::ProtectionFromRed => Some(Color::R),
            Keyword::ProtectionFromGreen => Some(Color::G),
            _ => None,
        }
    }
    /// The protection keyword of a colour ("protection from the chosen color").
    pub fn protection_from_color(c: crate::mana::Color) -> Keyword {
        use crate::mana::Color;
        match c {
            Color::W => Keyword::ProtectionFromWhite,
            Color::U => Keyword::ProtectionFromBlue,
            Color::B => Keyword::ProtectionFromBlack,
            Color::R => Keyword::ProtectionFromRed,
            Color::G => Keyword::ProtectionFromGreen,
        }
    }
    /// The land type of a landwalk keyword.
    pub fn landwalk(self) -> Option<&'static str> {
        match self {
            Keyword::Plainswalk => Some("Plains"),
            Keyword::Islandwalk => Some("Island"),
            Keyword::Swampwalk => Some("Swamp"),
            Keyword::Mountainwalk => Some("Mountain"),
            Keyword::Forestwalk => Some("Forest"),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Keyword::Flying => "Flying",
            Keyword::Reach => "Reach",
            Keyword::Vigilance => "Vigilance",
            Keyword::Haste => "Haste",
            Keyword::Flash => "Flash",
            Keyword::FirstStrike => "First strike",
            Keyword::DoubleStrike => "Double strike",
            Keyword::Trample => "Trample",
            Keyword::Defender => "Defender",
            Keyword::Shadow => "Shadow",
            Keyword::ProtectionFromWhite => "Protection from white",
            Keyword::ProtectionFromBlue => "Protection from blue",
            Keyword::ProtectionFromBlack => "Protection from black",
            Keyword::ProtectionFromRed => "Protection from red",
            Keyword::ProtectionFromGreen => "Protection from green",
            Keyword::Plainswalk => "Plainswalk",
            Keyword::Islandwalk => "Islandwalk",
            Keyword::Swampwalk => "Swampwalk",
            Keyword::Mountainwalk => "Mountainwalk",
            Keyword::Forestwalk => "Forestwalk",
            Keyword::Flanking => "Flanking",
            Keyword::Menace => "Menace",
            Keyword::AttacksEachCombat => "attacks each combat if able",
            Keyword::CanBlockOnlyFlyers => "can block only creatures with flying",
            Keyword::Absorb1 => "Absorb 1",
            Keyword::SplitSecond => "Split second",
            Keyword::Fear => "Fear",
            Keyword::CantBlock => "can't block",
            Keyword::CanBlockAdditional => "can block an additional creature",
            Keyword::BlocksShadow => {
                "can block creatures with shadow as though they didn't have shadow"
            }
            Keyword::BlocksEachCombat => "blocks each combat if able",
            Keyword::Rampage1 => "Rampage 1",
            Keyword::Rampage2 => "Rampage 2",
            Keyword::CantBlockPower2OrMore => "can't block creatures with power 2 or greater",
            Keyword::CantBlockPower3OrMore => "can't block creatures with power 3 or greater",
            Keyword::CantAttackIntoUntappedPower3 => {
                "can't attack if defending player controls an untapped creature with power 3 or greater"
            }
            Keyword::Deathtouch => "Deathtouch",
            Keyword::DoesntUntap => "doesn't untap during your untap step",
            Keyword::Shroud => "Shroud",
            Keyword::Poisonous1 => "Poisonous 1",
            Keyword::Poisonous3 => "Poisonous 3",
            Keyword::Lifelink => "Lifelink",
            Keyword::Frenzy1 => "Frenzy 1",
            Keyword::Unblockable => "can't be blocked",
            Keyword::CantAttackUnlessDefenderControlsIsland => {
                "can't attack unless defending player controls an Island"
            }
            Keyword::CantAttack => "can't attack",
            Keyword::UnblockableExceptByWalls => "can't be blocked except by Walls",
            Keyword::CantBeCountered => "can't be countered",
            Keyword::BlockedOnlyByArtifactOrWhite => {
                "can't be blocked except by artifact creatures and/or white creatures"
            }
            Keyword::Indestructible => "Indestructible",
            Keyword::TopOfLibraryInstead => {
                "If this permanent would be put into a graveyard, you may put it on top of its owner's library instead"
            }
            Keyword::Vanishing => "Vanishing",
            Keyword::ProtectionFromManaValue3OrGreater => "Protection from mana value 3 or greater",
        }
    }
    /// Keywords that are triggered abilities (the engine matches their events).
    pub fn is_triggered(self) -> bool {
        matches!(
            self,
            Keyword::Flanking
                | Keyword::Rampage1
                | Keyword::Rampage2
                | Keyword::Deathtouch
                | Keyword::Poisonous1
                | Keyword::Poisonous3
                | Keyword::Lifelink
                | Keyword::Frenzy1
                | Keyword::Vanishing
        )
    }
    pub const ALL: [Keyword; 53] = [
        Keyword::Flying,
        Keyword::Reach,
        Keyword::Vigilance,
        Keyword::Haste,
        Keyword::Flash,
        Keyword::FirstStrike,
        Keyword::DoubleStrike,
        Keyword::Trample,
        Keyword::Defender,
        Keyword::Shadow,
        Keyword::ProtectionFromWhite,
        Keyword::ProtectionFromBlue,
        Keyword::ProtectionFromBlack,
        Keyword::ProtectionFromRed,
        Keyword::ProtectionFromGreen,
        Keyword::Plainswalk,
        Keyword::Islandwalk,
        Keyword::Swampwalk,
        Keyword::Mountainwalk,
        Keyword::Forestwalk,
        Keyword::Flanking,
        Keyword::Menace,
        Keyword::AttacksEachCombat,
        Keyword::CanBlockOnlyFlyers,
        Keyword::Absorb1,
        Keyword::SplitSecond,
        Keyword::Fear,
        Keyword::CantBlock,
        Keyword::CanBlockAdditional,
        Keyword::BlocksShadow,
        Keyword::BlocksEachCombat,
        Keyword::Rampage1,
        Keyword::Rampage2,
        Keyword::CantBlockPower2OrMore,
        Keyword::CantBlockPower3OrMore,
        Keyword::CantAttackIntoUntappedPower3,
        Keyword::Deathtouch,
        Keyword::DoesntUntap,
        Keyword::Shroud,
        Keyword::Poisonous1,
        Keyword::Poisonous3,
        Keyword::Lifelink,
        Keyword::Frenzy1,
        Keyword::Unblockable,
        Keyword::CantAttackUnlessDefenderControlsIsland,
        Keyword::CantAttack,
        Keyword::UnblockableExceptByWalls,
        Keyword::CantBeCountered,
        Keyword::BlockedOnlyByArtifactOrWhite,
        Keyword::Indestructible,
        Keyword::TopOfLibraryInstead,
        Keyword::Vanishing,
        Keyword::ProtectionFromManaValue3OrGreater,
    ];
}

impl FromStr for Keyword {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let norm = s.trim().to_ascii_lowercase().replace(['_', '-'], " ");
        Keyword::ALL
            .into_iter()
            .find(|k| k.name().to_ascii_lowercase() == norm)
            .ok_or_else(|| format!("unsupported keyword `{s}`"))
    }
}

pub mod alternative_cost;
pub mod aura_swap;
pub mod bloodthirst;
pub mod buyback;
pub mod chroma;
pub mod convoke;
pub mod cycling;
pub mod delve;
pub mod dredge;
pub mod echo;
pub mod equip;
pub mod flanking;
pub mod flash;
pub mod flashback;
pub mod forecast;
pub mod fortify;
pub mod frenzy;
pub mod graft;
pub mod grandeur;
pub mod gravestorm;
pub mod haunt;
pub mod hellbent;
pub mod kicker;
pub mod lifelink;
pub mod madness;
pub mod morph;
pub mod pact;
pub mod poisonous;
pub mod rampage;
pub mod scry;
pub mod shadow;
pub mod shroud;
pub mod split;
pub mod split_second;
pub mod storage;
pub mod storm;
pub mod suspend;
pub mod threshold;
pub mod time_counters;
pub mod transmute;
pub mod vanishing;
