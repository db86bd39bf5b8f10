//! Targets (rule 415 / 409.1c): the vocabulary of what a spell or ability may target
//! (target kinds, object filters, target specs). The legality checks made when it is put on
//! the stack and again on resolution (413.2a) are in [`crate::targeting`].

use crate::ids::{ObjectId, PlayerId};
use crate::keywords::Keyword;
use crate::mana::ColorSet;
use crate::types::CardType;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A chosen target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Target {
    Player(PlayerId),
    Object(ObjectId),
    /// An activated or triggered ability on the stack, by its serial number
    /// (`StackItem::serial`, given in games where something can target an ability:
    /// Trickbind).
    Ability(u32),
}

/// What a target slot accepts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum TargetKind {
    /// A creature or a player ("any target"; 2006: "target creature or player").
    Any,
    Player,
    Opponent,
    /// A permanent matching the filter.
    Permanent(ObjectFilter),
    /// A spell on the stack matching the filter.
    Spell(ObjectFilter),
    /// A card in any graveyard matching the filter ("target card from a graveyard").
    GraveyardCard(ObjectFilter),
    /// A card in its controller's own graveyard matching the filter ("target instant or
    /// sorcery card in your graveyard", Dralnu, Lich Lord).
    CardInYourGraveyard(ObjectFilter),
    /// A card in the graveyard of the player chosen for the first target ("target player
    /// shuffles up to three target cards from their graveyard": Gaea's Blessing); as it
    /// resolves, any card still in a graveyard (a card never changes owner).
    CardInTargetPlayersGraveyard(ObjectFilter),
    /// "Target permanent or suspended card" (Clockspinning; 2006 502.59b / 702.61b): a
    /// permanent matching the filter (with a time counter on it when `with_time_counter`:
    /// Timecrafting's "permanent with a time counter on it"), or a suspended card in exile
    /// (one its controller owns when the filter says `you_control`: Jhoira's Timebug's
    /// "permanent you control or suspended card you own").
    PermanentOrSuspended {
        filter: ObjectFilter,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        with_time_counter: bool,
    },
    /// "Target activated or triggered ability" (Trickbind): an ability on the stack (mana
    /// abilities never are; classic combat damage on the stack is no ability).
    Ability,
    /// "Target activated ability" (Voidmage Husher): an activated ability on the stack (mana
    /// abilities never are; triggered abilities aren't).
    ActivatedAbility,
    /// "Target face-up exiled card" (Pull from Eternity): any card in exile that isn't face
    /// down (suspended cards included).
    ExiledCard,
    /// "Target spell or permanent" (Moonlace): any spell on the stack or any permanent.
    SpellOrPermanent,
    /// "Target spell or ability with a single target" (Willbender): a spell
    /// (`Target::Object`) or an activated or triggered ability (`Target::Ability`) on the
    /// stack that has exactly one target (a divided spell: one target with the whole share).
    SingleTargetSpellOrAbility,
    /// "Target spell that targets only a single creature" (Muck Drubb): a spell on the stack
    /// whose targets are all one creature (a divided spell: one creature recipient).
    SpellTargetingSingleCreature,
}

impl TargetKind {
    /// An ability on the stack (`Target::Ability`): Trickbind's, Voidmage Husher's.
    pub fn is_ability(&self) -> bool {
        matches!(
            self,
            TargetKind::Ability
                | TargetKind::ActivatedAbility
                | TargetKind::SingleTargetSpellOrAbility
        )
    }
}

/// A conjunction of conditions on an object's characteristics and state.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ObjectFilter {
    /// At least one of these card types (empty: any).
    pub types_any: Vec<CardType>,
    /// None of these card types.
    pub types_none: Vec<CardType>,
    pub subtype: Option<String>,
    /// Must not have any of these colours ("nonwhite").
    pub not_colors: ColorSet,
    /// Must have at least one of these colours ("black"); empty: any.
    #[serde(default)]
    pub colors_any: ColorSet,
    pub tapped: Option<bool>,
    pub max_toughness: Option<i32>,
    pub controller: Option<Relation>,
    pub keyword: Option<Keyword>,
    pub basic: bool,
    /// "nonbasic land" (Detritivore).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub nonbasic: bool,
    /// "attacking creature".
    #[serde(default)]
    pub attacking: bool,
    /// Only tokens ("all Serf tokens").
    #[serde(default)]
    pub token: bool,
    /// "Other than ~": not the source of the ability (checked where the source is known).
    #[serde(default)]
    pub other: bool,
    /// Only face-down permanents ("target face-down creature").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub face_down: bool,
    /// Only a permanent whose text the engine can change for this word (layer 3; the word
    /// in its activated or triggered abilities is not supported yet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text_changeable: Option<crate::types::TextWord>,
    /// Must not have this keyword ("each creature without flying": Rough).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub without_keyword: Option<Keyword>,
    /// "With power N or greater" (`power>=N`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_power: Option<i32>,
    /// "Target spell with mana value X" (`mana_value:X`, Spell Burst): the X of the spell or
    /// ability targeting it, so checked where that X is known (`casting.rs` as it is cast,
    /// `stack.rs` as it resolves), not by [`crate::game::Game::matches_filter`].
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub mana_value_x: bool,
    /// "Creature with another Aura attached to it" (`with_aura`, Daybreak Coronet's
    /// enchant): an Aura is attached to it (an attached Aura checking its own legality
    /// doesn't count itself: `sba.rs`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub with_aura: bool,
    /// Must not have this subtype ("non-Eye creatures": `nontype:Eye`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_subtype: Option<String>,
    /// Exactly this power and toughness ("target 1/1 creature": `pt:1/1`, Pendelhaven).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact_pt: Option<(i32, i32)>,
    /// "That entered the battlefield since your last turn ended" (Premature Burial,
    /// `entered_since_your_last_turn`): after the turn of "you" (the player the filter is
    /// read for) that ended most recently, or during the current turn.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub entered_since_your_last_turn: bool,
    /// "Attacking or blocking creature" (`attacking_or_blocking`: D'Avenant Healer).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub attacking_or_blocking: bool,
    /// "With mana value N or less" (`mana_value<=N`: Amrou Scout's search).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_mana_value: Option<u32>,
    /// "... or a card with K" (`or_with:K`: Mystical Teachings' "an instant card or a card
    /// with flash"): the card types of `types_any` match, or, instead, this keyword does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub or_keyword: Option<Keyword>,
    /// "... or <subtype>" (`or_type:S`: Avoid Fate's "instant or Aura spell"): the card
    /// types of `types_any` match, or, instead, one of `subtypes_any` does (kept there: a
    /// flag, so the filter stays small).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub or_subtypes: bool,
    /// "Spell that targets a permanent you control" (`targets_permanent_you_control`, Avoid
    /// Fate): a spell on the stack with at least one target that is a permanent controlled
    /// by the player the filter is read for.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub targets_your_permanent: bool,
    /// One of these subtypes (`type:Insect|Rat|Spider|Squirrel`: Swarmyard).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subtypes_any: Vec<String>,
    /// "Target creature it's blocking" (`blocked_by_this`, Goblin Snowman): an attacker the
    /// ability's source blocks (checked where the source is known: as the target is chosen
    /// and as the ability resolves).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub blocked_by_source: bool,
    /// "Of the chosen color" (`chosen_color`: Pentarch Paladin, Teferi's Moat): of the color
    /// the ability's source chose as it entered (`as_enters.rs`; checked where the source is
    /// known, by [`crate::game::Game::chosen_color_ok`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub chosen_color: bool,
}

/// A player relative to the controller of the spell or ability.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Relation {
    You,
    Opponent,
    /// "Target land that player controls" (`that_player_controls`, Mana Skimmer): controlled
    /// by the player the trigger's event names (the player dealt damage); checked where that
    /// player is known, by [`crate::game::Game::that_player_controls_ok`] (as the target is
    /// chosen and as the ability resolves). Outside a trigger there is no such player.
    ThatPlayer,
}

impl ObjectFilter {
    pub fn of_type(t: CardType) -> Self {
        ObjectFilter {
            types_any: vec![t],
            ..Default::default()
        }
    }

    /// Parses a filter of a card script: card types joined by `or`, `nonX` for a type or
    /// colour, `tapped`, `toughness<=N`, `type:Subtype`, `you_control`, `with:Keyword`...
    /// (the grammar: [`crate::grammar::filters`]).
    pub fn parse(s: &str) -> Result<Self, String> {
        crate::grammar::parse_all(crate::grammar::filters::filter, s)
    }
}

impl fmt::Display for ObjectFilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        if let Some(t) = self.tapped {
            parts.push(if t {
                "tapped".into()
            } else {
                "untapped".into()
            });
        }
        if self.basic {
            parts.push("basic".into());
        }
        if self.nonbasic {
            parts.push("nonbasic".into());
        }
        if self.attacking {
            parts.push("attacking".into());
        }
        if self.face_down {
            parts.push("face-down".into());
        }
        for c in self.not_colors.iter() {
            parts.push(format!("non{}", c.name()));
        }
        if !self.colors_any.is_empty() {
            parts.push(
                self.colors_any
                    .iter()
                    .map(|c| c.name())
                    .collect::<Vec<_>>()
                    .join(" or "),
            );
        }
        for t in &self.types_none {
            parts.push(format!("non{}", t.name().to_lowercase()));
        }
        if let Some(s) = &self.subtype {
            parts.push(s.clone());
        }
        if let Some(s) = &self.not_subtype {
            parts.push(format!("non-{s}"));
        }
        if !self.subtypes_any.is_empty() && !self.or_subtypes {
            parts.push(self.subtypes_any.join(" or "));
        }
        if let Some((p, t)) = self.exact_pt {
            parts.push(format!("{p}/{t}"));
        }
        if self.types_any.is_empty() {
            parts.push("permanent".into());
        } else {
            let names: Vec<String> = self
                .types_any
                .iter()
                .map(|t| t.name().to_lowercase())
                .collect();
            parts.push(names.join(" or "));
        }
        if self.chosen_color {
            parts.push("of the chosen color".into());
        }
        if let Some(k) = self.or_keyword {
            parts.push(format!("or a card with {}", k.name().to_lowercase()));
        }
        if self.or_subtypes {
            parts.push(format!("or {}", self.subtypes_any.join(" or ")));
        }
        if let Some(k) = self.keyword {
            parts.push(format!("with {}", k.name().to_lowercase()));
        }
        if let Some(k) = self.without_keyword {
            parts.push(format!("without {}", k.name().to_lowercase()));
        }
        if let Some(n) = self.max_toughness {
            parts.push(format!("with toughness {n} or less"));
        }
        if let Some(n) = self.min_power {
            parts.push(format!("with power {n} or greater"));
        }
        if self.mana_value_x {
            parts.push("with mana value X".into());
        }
        if self.with_aura {
            parts.push("with another Aura attached to it".into());
        }
        if self.attacking_or_blocking {
            parts.push("that is attacking or blocking".into());
        }
        if self.entered_since_your_last_turn {
            parts.push("that entered the battlefield since your last turn ended".into());
        }
        if self.targets_your_permanent {
            parts.push("that targets a permanent you control".into());
        }
        if let Some(n) = self.max_mana_value {
            parts.push(format!("with mana value {n} or less"));
        }
        match self.controller {
            Some(Relation::You) => parts.push("you control".into()),
            Some(Relation::Opponent) => parts.push("an opponent controls".into()),
            Some(Relation::ThatPlayer) => parts.push("that player controls".into()),
            None => {}
        }
        if let Some(w) = self.text_changeable {
            parts.push(format!(
                "(whose text Spellstack can change: \"{w}\" may appear only in its static abilities and keywords)"
            ));
        }
        f.write_str(&parts.join(" "))
    }
}

/// One target slot of a spell or ability.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TargetSpec {
    pub kind: TargetKind,
    /// "Target ... of an opponent's choice" (Arena): an opponent of the controller chooses
    /// this target (two-player: the other player); the target is still the ability's.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub chosen_by_opponent: bool,
    /// "Target ... of his or her choice" where "he or she" is the controller of the
    /// triggered ability's subject (Pandemonium): that player chooses this target; the
    /// target is still the ability's.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub chosen_by_its_controller: bool,
}

impl TargetSpec {
    /// Parses a target description from a card script: `any`, `player`, `opponent`,
    /// `spell [filter]`, or an object filter (`creature nonwhite`, `artifact or enchantment`)
    /// (the grammar: [`crate::grammar::filters`]).
    pub fn parse(s: &str) -> Result<Self, String> {
        crate::grammar::parse_all(crate::grammar::filters::target, s)
    }

    pub fn describe(&self) -> String {
        let what = self.describe_kind();
        if self.chosen_by_opponent {
            format!("{what} (an opponent of its controller chooses it)")
        } else if self.chosen_by_its_controller {
            format!("{what} (the controller of the creature it is about chooses it)")
        } else {
            what
        }
    }

    fn describe_kind(&self) -> String {
        match &self.kind {
            TargetKind::Any => "any target (a creature or a player)".into(),
            TargetKind::Player => "a player".into(),
            TargetKind::Opponent => "an opponent".into(),
            TargetKind::Permanent(f) => format!("a {f}"),
            TargetKind::Spell(f) if f == &ObjectFilter::default() => "a spell".into(),
            TargetKind::Spell(f)
                if f == &(ObjectFilter {
                    mana_value_x: true,
                    ..Default::default()
                }) =>
            {
                "a spell with mana value X".into()
            }
            TargetKind::Spell(f) => format!("a {f} spell"),
            TargetKind::Ability => "an activated or triggered ability".into(),
            TargetKind::ActivatedAbility => "an activated ability".into(),
            TargetKind::ExiledCard => "a face-up exiled card".into(),
            TargetKind::SpellOrPermanent => "a spell or permanent".into(),
            TargetKind::SingleTargetSpellOrAbility => {
                "a spell or ability with a single target".into()
            }
            TargetKind::SpellTargetingSingleCreature => {
                "a spell that targets only a single creature".into()
            }
            TargetKind::GraveyardCard(f) if f == &ObjectFilter::default() => {
                "a card in a graveyard".into()
            }
            TargetKind::GraveyardCard(f) => format!("a {f} card in a graveyard"),
            TargetKind::CardInTargetPlayersGraveyard(f) if f == &ObjectFilter::default() => {
                "a card in that player's graveyard".into()
            }
            TargetKind::CardInTargetPlayersGraveyard(f) => {
                format!("a {f} card in that player's graveyard")
            }
            TargetKind::CardInYourGraveyard(f) => {
                format!(
                    "a {} card in your graveyard",
                    crate::costs::card_filter_words(f)
                )
            }
            TargetKind::PermanentOrSuspended {
                filter,
                with_time_counter,
            } => {
                let counter = if *with_time_counter {
                    " with a time counter on it"
                } else {
                    ""
                };
                let own = if filter.controller == Some(Relation::You) {
                    " you own"
                } else {
                    ""
                };
                format!("a {filter}{counter} or a suspended card{own}")
            }
        }
    }
}
