//! Events: every change to the game is reported as one (rule 400.1-style "game events").
//!
//! `Game::submit` returns the events its answer caused. Triggered abilities and replacement
//! effects (issue "Effects") hang on this pipeline: every action that changes the game goes
//! through a `Game` method that records its event.

use crate::ids::{CardId, ObjectId, PlayerId};
use crate::mana::ManaType;
use crate::object::CounterKind;
use crate::steps::Step;
use crate::targets::Target;
use crate::zones::ZoneKind;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum LossReason {
    ZeroLife,
    DrewFromEmptyLibrary,
    Poison,
    Conceded,
    CardEffect,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    GameStarted {
        first: PlayerId,
    },
    Shuffled(PlayerId),
    Mulliganed {
        player: PlayerId,
        new_hand_size: u32,
    },
    Kept(PlayerId),
    TurnBegan {
        turn: u32,
        player: PlayerId,
    },
    StepBegan(Step),
    /// A step or a turn that didn't happen (300.9 skipping: as if it didn't exist).
    Skipped {
        player: PlayerId,
        what: crate::steps::SkipKind,
    },
    /// `card` is hidden from everyone but the drawer (see [`Event::redacted_for`]).
    Drew {
        player: PlayerId,
        card: Option<ObjectId>,
    },
    /// `controller` is who controlled the object just before it moved (for look-back).
    ZoneChanged {
        card: CardId,
        old: ObjectId,
        new: ObjectId,
        from: ZoneKind,
        to: ZoneKind,
        owner: PlayerId,
        controller: PlayerId,
    },
    /// A permanent entered the battlefield (after its "enters with/tapped" abilities applied).
    EnteredBattlefield {
        object: ObjectId,
        card: CardId,
        controller: PlayerId,
    },
    /// The target of a spell or ability on the stack was changed (Willbender): `card` is
    /// the spell's card or the ability's source card; `spell` is set for a spell.
    TargetChanged {
        card: CardId,
        spell: Option<ObjectId>,
        controller: PlayerId,
        target: Target,
    },
    /// A triggered ability went on the stack.
    TriggerPut {
        source: ObjectId,
        card: CardId,
        controller: PlayerId,
        targets: Vec<Target>,
    },
    LandPlayed {
        player: PlayerId,
        land: ObjectId,
    },
    SpellCast {
        player: PlayerId,
        spell: ObjectId,
        card: CardId,
        targets: Vec<Target>,
    },
    /// A copy of a spell put on the stack (storm, gravestorm, Reiterate: 706.10 / 707.10):
    /// not cast, so nothing that counts or triggers on casting sees it.
    SpellCopied {
        player: PlayerId,
        spell: ObjectId,
        card: CardId,
    },
    /// A card suspended (the special action, 502.59a / 702.61a): exiled face up with
    /// `time` time counters.
    Suspended {
        player: PlayerId,
        card: CardId,
        object: ObjectId,
        time: u32,
    },
    /// A pregame action (Gemstone Caverns, `turn.rs`): `player` began the game with `card`
    /// on the battlefield as `object` (with a luck counter), exiling `exiled` from their
    /// hand (None when it was the only card). Public: the chosen cards are revealed and put
    /// into play (rulings: Gemstone Caverns), and the exiled card is face up in exile.
    BeganOnBattlefield {
        player: PlayerId,
        card: CardId,
        object: ObjectId,
        exiled: Option<CardId>,
    },
    /// A player got poison counters (poisonous).
    PoisonCounters {
        player: PlayerId,
        amount: u32,
    },
    /// Suspend's last-counter trigger resolved but the card couldn't be cast (no legal
    /// target, a cost that can't be paid, or its owner declined to make mana): it stays
    /// exiled with no time counters.
    SuspendedCastImpossible {
        player: PlayerId,
        card: CardId,
        reason: String,
    },
    AbilityActivated {
        player: PlayerId,
        source: ObjectId,
        card: CardId,
        targets: Vec<Target>,
    },
    ManaAdded {
        player: PlayerId,
        mana: ManaType,
        amount: u32,
    },
    ManaBurn {
        player: PlayerId,
        amount: u32,
    },
    Resolved {
        card: CardId,
        controller: PlayerId,
    },
    /// Countered by a spell or ability, or by the rules because every target became illegal (413.2a).
    Countered {
        card: CardId,
        by_rules: bool,
    },
    /// The activated abilities of `permanent` can't be activated this turn (Trickbind
    /// countered one of its abilities).
    ActivationsLocked {
        permanent: ObjectId,
    },
    Damage {
        source: ObjectId,
        target: Target,
        amount: u32,
        combat: bool,
    },
    LifeChanged {
        player: PlayerId,
        from: i32,
        to: i32,
    },
    Tapped(ObjectId),
    Untapped(ObjectId),
    /// An Aura, Equipment or Fortification became attached to a permanent (701.3; equip,
    /// fortify: `keywords/equip.rs`); `to = None`: it became unattached.
    Attached {
        object: ObjectId,
        to: Option<ObjectId>,
    },
    CountersChanged {
        object: ObjectId,
        kind: CounterKind,
        delta: i32,
    },
    Discarded {
        player: PlayerId,
        card: ObjectId,
    },
    Revealed {
        player: PlayerId,
        card: ObjectId,
    },
    /// `player` scried (fateseal: `library` is another player's) and put `top` of the cards
    /// back on top and `bottom` on the bottom (`keywords/scry.rs`); which cards is hidden.
    Scried {
        player: PlayerId,
        library: PlayerId,
        top: u32,
        bottom: u32,
    },
    Destroyed(ObjectId),
    /// A permanent was turned face down (Ixidron); it stays the same object. `card` is
    /// what it was face up (public until now).
    TurnedFaceDown {
        object: ObjectId,
        card: CardId,
    },
    /// A face-down permanent was turned face up (a special action or an effect): `card` is
    /// now public.
    TurnedFaceUp {
        object: ObjectId,
        card: CardId,
        controller: PlayerId,
    },
    /// A permanent's echo cost was paid as its echo trigger resolved (Thick-Skinned Goblin's
    /// {0} in its place too): "when ~'s echo cost is paid" (Shah of Naar Isle).
    EchoPaid {
        object: ObjectId,
        controller: PlayerId,
    },
    /// A choice made as an object entered ("choose a creature type").
    Chose {
        object: ObjectId,
        choice: String,
    },
    /// A player paid, as a special action, to stop a delayed ability (Glass Asp).
    PaidToAvoid {
        player: PlayerId,
        card: crate::ids::CardId,
    },
    /// A control-changing effect began or ended (layer 2).
    ControlChanged {
        object: ObjectId,
        from: PlayerId,
        to: PlayerId,
    },
    /// A regeneration shield replaced a destruction (419.6b).
    Regenerated(ObjectId),
    /// Prevention effects prevented `amount` of the damage `source` would have dealt.
    DamagePrevented {
        source: ObjectId,
        target: Target,
        amount: u32,
    },
    Sacrificed(ObjectId),
    AttackersDeclared {
        attackers: Vec<(ObjectId, PlayerId)>,
    },
    BlockersDeclared {
        blocks: Vec<(ObjectId, ObjectId)>,
    },
    PlayerLost {
        player: PlayerId,
        reason: LossReason,
    },
    /// The game entered an endless loop of mandatory actions that no player can stop
    /// (102.4b / 104.4b): it is a draw (a `GameOver` without winner follows).
    EndlessLoop,
    GameOver {
        winner: Option<PlayerId>,
    },
}

impl Event {
    /// The event as `viewer` may see it (None = a spectator): hidden identities removed.
    pub fn redacted_for(&self, viewer: Option<PlayerId>) -> Event {
        match self {
            Event::Drew { player, card } if Some(*player) != viewer => Event::Drew {
                player: *player,
                card: None,
            },
            e => e.clone(),
        }
    }
}
