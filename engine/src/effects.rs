//! One-shot effects (rule 417) that spells and abilities produce on resolution, and the
//! script vocabulary that writes them.
//!
//! Card scripts write one effect a line, verb first: `damage 3 to=target`,
//! `draw 2 who=target`, `destroy target`, `pump +1/+1 target`, `sacrifice creature who=each_player`.
//! Execution lives in [`crate::resolve`].

use crate::object::CounterKind;
use crate::targets::ObjectFilter;
use crate::zones::ZoneKind;
use serde::{Deserialize, Serialize};

/// A number in an effect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Amount {
    Fixed(i32),
    /// The X chosen while casting (409.1b).
    X,
    /// Twice X ("2 life for each ...": chroma, `keywords/chroma.rs`).
    TwiceX,
    /// The number of creatures the controller controls, counted on resolution (413.2f).
    CreaturesYouControl,
    /// The number of attacking creatures, counted on resolution (Strength in Numbers).
    AttackingCreatures,
    /// Domain: the number of basic land types among lands the controller controls.
    BasicLandTypesYouControl,
    /// The number of lands the controller controls, counted on resolution (Baru, Fist of
    /// Krosa's "an X/X green Wurm ... where X is the number of lands you control").
    LandsYouControl,
    /// The number of creatures blocking the trigger's subject beyond the first, counted on
    /// resolution (502.12a-b rampage).
    BlockersBeyondFirst,
    /// The number of creatures blocking the trigger's subject, counted on resolution
    /// ("for each creature blocking it": Spined Sliver).
    BlockersOfIt,
    /// The power of the trigger's subject ("equal to its power"), as it last existed on the
    /// battlefield if it has left.
    SubjectPower,
    /// The power of the activated ability's source as it resolves ("+X/+X, where X is its
    /// power": Tarox Bladewing's grandeur); 0 if it has left the battlefield.
    SourcePower,
    /// The converted mana cost of the trigger's subject (a spell: "X is that spell's
    /// converted mana cost", Endrek Sahr).
    SubjectManaValue,
    /// "That much": the amount of the event that triggered the ability (the damage dealt,
    /// Spirit Link), kept in the stack item's `x`.
    ThatMuch,
    /// The converted mana cost of the spell chosen for target slot n, X included while it
    /// is on the stack (Draining Whelk: "where X is that spell's converted mana cost").
    TargetManaValue(u8),
    /// The power of the creature chosen for target slot n, as it last existed on the
    /// battlefield (Ana Battlemage: "that creature deals damage equal to its power").
    TargetPower(u8),
    /// The power plus the toughness of the creature chosen for target slot n, as it last
    /// existed on the battlefield (Phthisis: "equal to its power plus its toughness").
    TargetPowerPlusToughness(u8),
    /// "N for each creature target player controls" (Divine Congregation: 2 life each),
    /// counted on resolution; the player is target slot 0.
    PerCreatureTargetPlayerControls(i32),
    /// The number of permanents with this subtype the controller controls, counted on
    /// resolution (`you_control:Swamp`: Tendrils of Corruption's "the number of Swamps you
    /// control").
    YouControlSubtype(String),
    /// "N minus the number of cards in their hand", for "that player" of a triggered
    /// ability (`three_minus_that_players_hand`: The Rack); may be 0 or less (no damage).
    MinusThatPlayersHand(i32),
    /// The life the controller has lost this turn, as it resolves (`life_you_lost_this_turn`:
    /// Children of Korlis; `Player::life_lost_this_turn`).
    LifeYouLostThisTurn,
    /// The life the resolution's earlier effects made players lose (`life_lost_this_way`:
    /// Urborg Syphon-Mage's "you gain life equal to the life lost this way").
    LifeLostThisWay,
}

impl Amount {
    /// One (a serde default).
    pub fn one() -> Self {
        Amount::Fixed(1)
    }
}

/// A player an effect acts on, relative to the controller.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlayerRef {
    You,
    /// The player chosen for target slot n.
    Target(u8),
    /// The controller of the object chosen for target slot n.
    TargetController(u8),
    EachPlayer,
    EachOpponent,
    /// The player a triggered ability's event was about ("that player": the damaged one).
    SubjectPlayer,
    /// "The chosen player": the player its source chose as it entered (Stuffy Doll;
    /// `as_enters.rs`); nobody if it chose none.
    ChosenPlayer,
}

/// An object an effect acts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ObjRef {
    Target(u8),
    This,
    /// The object a triggered ability is about (the creature that entered, attacked...).
    Subject,
    /// The object a linked ability of the source recorded (607): "that creature", "the
    /// exiled card".
    Linked,
    /// An Aura's "enchanted creature" in its activated abilities: what the source is
    /// attached to as the ability resolves, or was attached to as it last existed on the
    /// battlefield (last known information: R-ghitu-firebreathing-1).
    Enchanted,
}

/// What damage is dealt to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Recipient {
    Target(u8),
    Player(PlayerRef),
    EachCreature(ObjectFilter),
    /// "Each creature blocking it": the creatures declared as its blockers that are still
    /// blocking (it may have left combat since: the blocks are remembered).
    EachCreatureBlocking(ObjRef),
    /// An object named by a word (`this`: "and 3 damage to itself", Psionic Sliver's grant),
    /// if it is still on the battlefield.
    Object(ObjRef),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Effect {
    Damage {
        amount: Amount,
        to: Vec<Recipient>,
    },
    /// "~ deals an amount of damage of your choice to <recipients>" (Volcano Hellion): the
    /// controller chooses any number (0 included) as it resolves (`Decision::ChooseX`);
    /// `unpreventable`: "The damage can't be prevented."
    DamageAnyAmount {
        to: Vec<Recipient>,
        unpreventable: bool,
    },
    /// "<player> may draw up to N cards" (Shah of Naar Isle): each such player in turn order
    /// chooses how many, 0 to `max` (a `ChooseMode`), and draws them.
    DrawUpTo {
        max: u32,
        who: PlayerRef,
    },
    Draw {
        amount: Amount,
        who: PlayerRef,
    },
    Discard {
        amount: Amount,
        who: PlayerRef,
        random: bool,
    },
    GainLife {
        amount: Amount,
        who: PlayerRef,
    },
    LoseLife {
        amount: Amount,
        who: PlayerRef,
    },
    /// Destroy; `regen = false`: "it can't be regenerated".
    Destroy {
        what: ObjRef,
        regen: bool,
    },
    DestroyAll {
        filter: ObjectFilter,
        regen: bool,
    },
    /// "Regenerate ~" / "regenerate target creature": a regeneration shield (419.6b).
    Regenerate(ObjRef),
    /// "Regenerate each creature you control."
    RegenerateAll(ObjectFilter),
    /// "Prevent the next N damage that would be dealt to any target this turn."
    PreventNext {
        amount: Amount,
        to: Recipient,
    },
    /// "Prevent all combat damage that would be dealt this turn" and the like.
    PreventAll(PreventScope),
    /// "It can't be regenerated this turn" (only if it is a creature, as Disintegrate says).
    CantRegenerate(ObjRef),
    /// "If it would die this turn, exile it instead" (only if it is a creature).
    ExileIfDies(ObjRef),
    /// Haunt: "exile it haunting target creature": the card that died (the trigger's
    /// subject), from its graveyard, haunting the object (`keywords/haunt.rs`).
    ExileHaunting(ObjRef),
    Counter(ObjRef),
    /// "Counter target activated or triggered ability. If a permanent's ability is
    /// countered this way, activated abilities of that permanent can't be activated this
    /// turn" (Trickbind; `counter target lock_source`, `Game::counter_ability`).
    CounterLockingSource(ObjRef),
    Tap(ObjRef),
    /// "Tap all <filter>" (Ivory Giant: nonwhite creatures), chosen as it resolves.
    TapAll(ObjectFilter),
    /// "Target player sacrifices half the permanents they control, rounded down" (Curse of
    /// the Cabal): each such player chooses them as it resolves.
    SacrificeHalf {
        who: PlayerRef,
    },
    /// "That player may sacrifice a <filter>. If the player does, <then>" (Curse of the
    /// Cabal's upkeep ability): a yes/no question, then the permanent (if several);
    /// `count` > 1: "you may sacrifice two Islands. If you do, ..." (Leviathan), asked only
    /// when there are that many, all sacrificed at once.
    /// "Any player may sacrifice a <filter>. If a player does, <then>" (Brain Gorgers): each
    /// player in APNAP order is asked (those with none are not) until one does; then the
    /// effects happen once.
    AnyPlayerMaySacrifice {
        filter: ObjectFilter,
        then: Vec<Effect>,
    },
    MaySacrificeThen {
        who: PlayerRef,
        filter: ObjectFilter,
        count: u32,
        then: Vec<Effect>,
    },
    /// "Sacrifice a <filter>. If you can't, <otherwise>" (Liege of the Pit: "sacrifice a
    /// creature other than ~. If you can't, ~ deals 7 damage to you"): the controller
    /// sacrifices one if they can (choosing which), else the other effects happen.
    SacrificeOrElse {
        filter: ObjectFilter,
        otherwise: Vec<Effect>,
    },
    /// Restore Balance: "each player chooses a number of <filter> they control equal to the
    /// number controlled by the player who controls the fewest, then sacrifices the rest".
    BalanceSacrifice(ObjectFilter),
    /// Restore Balance: "players discard cards the same way" (down to the smallest hand).
    BalanceDiscard,
    /// "<Who> discards their hand" (Wheel of Fate, then `draw 7 who=each_player`; Nicol
    /// Bolas): every card in it, at once.
    DiscardHand {
        who: PlayerRef,
    },
    Untap(ObjRef),
    /// "You may tap or untap target permanent" (Coral Trickster): its controller chooses as it
    /// resolves (`ChooseMode`: tap, untap, neither).
    MayTapOrUntap(ObjRef),
    /// "Remove it from combat" (Gustcloak Cavalier; 2006 306.2 / 2014 506.4).
    RemoveFromCombat(ObjRef),
    /// "Look at the top N cards of your library, then put them back in any order" (Sage of
    /// Epityr; a scry question whose cards all go back on top, `keywords/scry.rs`).
    ReorderTop(Amount),
    /// "Look at the top N cards of your library. Exile M of them at random" (Orcish
    /// Librarian; the rest stay on top, for a `reorder_top` after it).
    ExileRandomFromTop {
        look: Amount,
        exile: Amount,
    },
    /// Aura swap's "exchange this Aura with an Aura card in your hand" (2014 rules 702.64,
    /// `keywords/aura_swap.rs`; built by the script key `aura_swap`): a `Decision::AuraSwap`
    /// as it resolves.
    AuraSwap,
    /// "Reveal the top card of your library" (after a scry: Judge Unworthy, Riddle of
    /// Lightning, Putrid Cyclops, Llanowar Empath): X becomes that card's mana value (0 with
    /// an empty library) for the effects after it (`damage X`, `pump_count X -1/-1`); with a
    /// filter (`reveal_top_to_hand_if creature`), "if it's a <filter> card, put it into your
    /// hand" (else it stays on top).
    RevealTop(Option<ObjectFilter>),
    /// "Reveal the top card of your library. If it has the same name as a card in your
    /// graveyard, put it into your graveyard. Otherwise, draw a card" (Candles of Leng): the
    /// comparison is positive, so a split card matches by either name (505.6 / 708.6); the
    /// draw is an ordinary draw (dredge may replace it). An empty library reveals nothing
    /// and draws (the draw from an empty library is what it is).
    RevealTopNamesakeToGraveyardElseDraw,
    /// "Untap X target lands" (Magus of the Candelabra, an `x_targets` ability): untaps
    /// each of its targets still legal.
    UntapEachTarget,
    /// "Reveal the top N cards of your library and separate them into two piles. An
    /// opponent chooses one of those piles. Put a card from the chosen pile into your hand,
    /// then put all other cards revealed this way on the bottom of your library in any
    /// order" (Truth or Tale; `resolve/piles.rs`).
    RevealTopPiles(Amount),
    /// "You may search your graveyard, hand, and/or library for a card with the same name as
    /// that spell and put it onto the battlefield. If you search your library this way,
    /// shuffle" (Mishra, Artificer Prodigy; the spell is the trigger's subject, its name as
    /// it was cast): one `ChooseMode` question as it resolves (`resolve/library.rs`).
    SearchZonesForSameNameAsIt,
    /// "Return an exiled card named NAME to the battlefield under its owner's control" (Sengir
    /// Nosferatu's Bat): any face-up card of that name in exile, whoever owns it
    /// (R-sengir-nosferatu-1); with two or more, the controller chooses one as it resolves
    /// (`ChooseMode`, each named with its owner); none: nothing happens.
    ReturnExiledCardNamed(String),
    /// "Target player reveals a card at random from their hand. ~ deals damage to that player
    /// equal to that card's mana value" (Ignite Memories).
    RevealRandomDamage(PlayerRef),
    /// "Choose a card name, then <who> reveals a card at random from their hand. If that card
    /// has the chosen name, <then>" (Magus of the Scroll); with `discard`, "... that player
    /// discards it" (Dementia Sliver). The name is asked of the controller as it resolves
    /// (`Decision::NameCard`, `resolve/naming.rs`); the card is picked with the game's rng.
    NameCardRevealRandom {
        who: PlayerRef,
        then: Vec<Effect>,
        discard: bool,
    },
    /// "Target player reveals their hand and the top card of their library. You choose a card
    /// revealed this way. That player puts the chosen card on the bottom of their library"
    /// (Psychotic Episode): the controller chooses as it resolves (`ChooseMode`).
    ChooseRevealedToBottom(PlayerRef),
    /// "It doesn't untap during its controller's next untap step" (Spectral Force).
    DoesntUntapNext(ObjRef),
    /// "Turn target face-down creature face up" (no morph cost is paid: R-morph-13).
    TurnFaceUp(ObjRef),
    /// +P/+T until end of turn (a continuous effect locked to its object, 418.3b).
    Pump {
        what: ObjRef,
        power: i32,
        toughness: i32,
    },
    /// `who` creates `count` tokens of the named token definition (scripts/tokens.toml).
    CreateToken {
        token: String,
        count: Amount,
        who: PlayerRef,
        /// `pt=X`: "an X/X ... token": each token's power and toughness are this amount
        /// (counted as it resolves), for a token defined `*/*` (`Object::token_pt`).
        pt: Option<Amount>,
    },
    /// The controller creates one token of the definition matching the option its source
    /// chose as it entered (`create_chosen_token A,B,...`: the i-th name for the i-th
    /// option of `choose_one_of`; Sarpadian Empires, Vol. VII; `as_enters.rs`).
    CreateChosenToken(Vec<String>),
    /// "Choose a number. Destroy all artifacts and creatures with mana value equal to that
    /// number. Then target player reveals their hand and discards all nonland cards with mana
    /// value equal to the number." (Void: `choose_number_destroy_and_discard who=target`):
    /// the number is asked as it resolves (`ChooseMode`, 0 to 20).
    VoidNumber {
        who: PlayerRef,
    },
    /// Base P/T becomes N/M until end of turn.
    SetPt {
        what: ObjRef,
        power: i32,
        toughness: i32,
    },
    /// Switch P/T until end of turn.
    SwitchPt(ObjRef),
    /// "Until end of turn, <what> has base power N or base toughness N" (Vhati il-Dal): its
    /// controller chooses which as it resolves (`ChooseMode`); a setting effect of that one
    /// characteristic (layer 7b / classic 6b).
    SetBasePowerOrToughness {
        what: ObjRef,
        value: i32,
    },
    /// +P/+T until end of turn for each permanent matching the filter now (the set is
    /// locked in on resolution, 418.3b).
    PumpAll {
        filter: ObjectFilter,
        power: i32,
        toughness: i32,
    },
    /// Each `who` sacrifices `count` permanents matching the filter (choices in APNAP
    /// order; all of them if they control no more): "sacrifice that many permanents"
    /// (Phyrexian Totem: `sacrifice permanent n=that_much`).
    Sacrifice {
        who: PlayerRef,
        filter: ObjectFilter,
        #[serde(default = "Amount::one")]
        count: Amount,
    },
    /// "Return a <filter> you control to its owner's hand" (Dream Stalker): not targeted,
    /// the controller chooses one as it resolves (itself included); nothing if none.
    ReturnChosen(ObjectFilter),
    SacrificeThis {
        unless_counters: Option<CounterKind>,
    },
    /// The controller exchanges life totals with the player in target slot n.
    ExchangeLife(u8),
    /// Coalition Victory's win check.
    CoalitionVictory,
    /// The controller searches their library for a card matching the filter, puts it into
    /// `to` (tapped if asked), then shuffles.
    Search {
        filter: ObjectFilter,
        to: ZoneKind,
        tapped: bool,
        /// "If you do, ~ becomes a copy of that card until end of turn" (Scion of the
        /// Ur-Dragon; `then=become_copy`).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        then_copy: bool,
        /// "Search your library for up to N ... cards" (Korlash's grandeur: `n=2`); one
        /// unless told.
        #[serde(
            default = "crate::decision::one",
            skip_serializing_if = "crate::decision::is_one"
        )]
        up_to: u32,
        /// "Put it onto the battlefield ... under target player's control" (Yavimaya Dryad:
        /// `under=target`): the player the found card enters under; its controller unless
        /// told.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        under: Option<PlayerRef>,
    },
    /// "Turn it face down" (Vesuvan Shapeshifter's upkeep trigger).
    TurnFaceDown(ObjRef),
    /// "Attach ~ to target creature you control" (equip, 502.33 / 702.6; fortify, 702.66:
    /// `keywords/equip.rs`): `what` becomes attached to `to` if it can be (nothing happens
    /// otherwise, or if it is already attached to it).
    Attach {
        what: ObjRef,
        to: ObjRef,
    },
    /// "Return ~ from your graveyard to the battlefield, then attach it to that creature"
    /// (Sword of the Meek): under its owner's control; it stays unattached if it can't be
    /// attached to `to`.
    ReturnAttached {
        what: ObjRef,
        to: ObjRef,
    },
    /// Living End: "Each player exiles all creature cards from their graveyard, then
    /// sacrifices all creatures they control, then puts all cards they exiled this way onto
    /// the battlefield" (they enter at the same time).
    LivingEnd,
    /// `put_from_hand FILTER [who=PLAYER]`: "<who> may put a FILTER card from their hand onto
    /// the battlefield" (Braids, Conjurer Adept; `resolve/from_hand.rs`).
    PutFromHand {
        filter: ObjectFilter,
        who: PlayerRef,
    },
    /// `put_from_hand_in_turn FILTER`: "Starting with you, each player may put a FILTER card
    /// from their hand onto the battlefield. Repeat this process until no one puts a card
    /// onto the battlefield" (Hypergenesis; `resolve/from_hand.rs`).
    PutFromHandInTurn(ObjectFilter),
    /// Put the object on top of its owner's library.
    PutOnTop(ObjRef),
    /// Return it to its owner's hand (from the battlefield or a graveyard).
    ReturnToHand(ObjRef),
    /// "Target creature becomes a Goblin until end of turn": its creature types become these
    /// (layer 4).
    BecomeCreatureType {
        what: ObjRef,
        types: Vec<String>,
    },
    /// "Until end of turn, creatures target player controls lose all abilities and have base
    /// power and toughness P/T" (Sudden Spoiling): the set is locked in (418.3b).
    LoseAllAbilities {
        filter: ObjectFilter,
        who: PlayerRef,
        base: Option<(i32, i32)>,
    },
    /// "Gain control of target creature for as long as you control ~" (layer 2).
    GainControlWhileYouControlThis(ObjRef),
    /// Exile it and remember it for a linked ability of the source (Faceless Butcher).
    ExileLinked(ObjRef),
    /// Return the linked exiled card to the battlefield under its owner's control.
    ReturnLinkedToBattlefield,
    /// "<Who> exiles all cards from their hand face down" (Magus of the Jar): each card is
    /// exiled face down (2006 217.7b / 2014 406.3: no player may look at it, its owner
    /// neither) and linked to the ability's source (`Game::links`) for "each card they
    /// exiled this way".
    ExileHandFaceDown {
        who: PlayerRef,
    },
    /// Each card linked to the source that is still in exile (the same object: a card that
    /// left exile meanwhile is a new object) returns to its owner's hand; the links end.
    ReturnLinkedToHand,
    /// Magus of the Jar: "At the beginning of the next end step, each player discards their
    /// hand and returns to their hand each card they exiled this way": a delayed ability
    /// (`DelayedWhen::NextEndStepDiscardReturnLinked`) whose effects are `discard_hand
    /// who=each_player` then `return_linked_to_hand`, about the resolving ability's source.
    DiscardHandsReturnLinkedAtNextEndStep,
    /// Exile it; return it to the battlefield under its owner's control at the beginning of
    /// the next end step (a delayed triggered ability, Norin the Wary).
    ExileUntilNextEndStep(ObjRef),
    /// Return it to the battlefield under its owner's control (from exile or a graveyard).
    ReturnToBattlefield(ObjRef),
    /// "Return ~ from your graveyard to the battlefield tapped" (Chronosavant): under its
    /// owner's control, tapped.
    ReturnToBattlefieldTapped(ObjRef),
    /// "Return that card to the battlefield under your control" (Fool's Demise): from a
    /// graveyard or exile, under the controller of the resolving ability.
    ReturnToBattlefieldUnderYourControl(ObjRef),
    /// "When it is put into your graveyard this turn, return that card to the battlefield"
    /// (a delayed triggered ability, Saffi Eriksdotter).
    ReturnIfDiesThisTurn(ObjRef),
    /// Exile every permanent matching the filter.
    ExileAll(ObjectFilter),
    /// "Target land becomes a Forest until ~ leaves the battlefield" (layer 4, 212.6e);
    /// `until_source_leaves = false`: until end of turn.
    BecomeLandType {
        what: ObjRef,
        types: Vec<String>,
        until_source_leaves: bool,
    },
    /// "The next N damage that would be dealt to ~ this turn is dealt to <what> instead"
    /// (a redirection shield, Outrider en-Kor).
    RedirectNextFromThis {
        amount: u32,
        to: ObjRef,
    },
    /// "Change the text of <what> by replacing all instances of <from> with <to>" (layer 3,
    /// no duration).
    ChangeText {
        what: ObjRef,
        from: crate::types::TextWord,
        to: crate::types::TextWord,
    },
    /// Exile it (from the battlefield).
    Exile(ObjRef),
    /// "<Who> skips their next <turn / untap step / upkeep / draw step>" (300.9).
    SkipNext {
        what: crate::steps::SkipKind,
        who: PlayerRef,
    },
    /// "Return it to the battlefield under its owner's control at the beginning of the next
    /// end step" (a delayed triggered ability; Molten Firebird from the graveyard).
    ReturnAtNextEndStep(ObjRef),
    /// "If {R} was spent to cast this spell, <effect>" (`if_spent=R` on an effect line).
    IfSpent {
        color: crate::mana::Color,
        effect: Box<Effect>,
    },
    /// "Target permanent becomes white until end of turn" (layer 5).
    BecomeColor {
        what: ObjRef,
        colors: crate::mana::ColorSet,
        /// No duration (`forever`: Moonlace); else until end of turn. A spell on the stack
        /// can be changed too: the permanent it becomes keeps the change (2006 217.1c /
        /// 2014 400.7a).
        forever: bool,
    },
    /// "Move a +1/+1 counter from this permanent onto that creature" (graft).
    MoveCounter {
        kind: CounterKind,
        from: ObjRef,
        to: ObjRef,
    },
    /// "That player gets N poison counters" (poisonous, `keywords/poisonous.rs`).
    Poison {
        amount: u32,
        who: PlayerRef,
    },
    /// "You win the game."
    WinGame,
    /// "Add {R}{R}{R}" from a spell or a triggered ability (Coal Stoker): the mana goes to
    /// its controller's pool (not a mana ability: it used the stack, 406.1 / 605.5).
    AddMana(Vec<crate::mana::ManaType>),
    /// Jhoira of the Ghitu: "put N time counters on the exiled card. If it doesn't have
    /// suspend, it gains suspend" (the card its cost exiled, `StackItem::cost_exiled`).
    SuspendCostExiled(u32),
    /// "Creatures can't be blocked this turn" (Veiling Oddity): every creature, also ones
    /// that arrive later this turn (no characteristic changes: a rule for this turn).
    CreaturesUnblockableThisTurn,
    /// "Until your next turn, creatures can't attack you" (Chronomantic Escape).
    CreaturesCantAttackYou,
    /// Giant Oyster: "for as long as ~ remains tapped, <the object> ...": links the object
    /// to the ability's source (`Game::links`); the source's script says what the link does
    /// (`linked_doesnt_untap_while_tapped`, its triggers naming `linked`).
    LinkWhileTapped(ObjRef),
    /// The links of the ability's source end (Giant Oyster, once it untapped or left).
    Unlink,
    /// "Remove all <kind> counters from <object>".
    RemoveAllCounters {
        kind: crate::object::CounterKind,
        what: ObjRef,
    },
    /// "Return that card to the battlefield under your control. If it's a creature, it's a
    /// <type> in addition to its other creature types" (Lim-Dûl the Necromancer; the type
    /// stays while it remains on the battlefield, and only if it returned as a creature).
    ReturnUnderYourControlWithType {
        what: ObjRef,
        creature_type: String,
    },
    /// "You can't lose the game this turn and your opponents can't win the game this turn"
    /// (Angel's Grace; `Game::can_lose` in `sba.rs`).
    CantLoseThisTurn,
    /// "That player gets an additional upkeep step after this step" (Paradox Haze; the
    /// player is the active one, whose upkeep it is).
    ExtraUpkeep,
    /// "Until end of turn, damage that would reduce your life total to less than 1 reduces
    /// it to 1 instead" (Angel's Grace: `Shield::LifeFloor`).
    LifeFloorUntilEndOfTurn,
    /// Nothing happens (the "otherwise" of `if_cast_in_main_phase` when only the bonus does
    /// something: Return to Dust).
    Nothing,
    /// "Deals N damage divided as you choose among any number of targets": each target of
    /// the spell's division (`StackItem::division`) still legal is dealt its share.
    DamageDivided,
    /// "Prevent the next N damage that would be dealt this turn to any number of targets,
    /// divided as you choose" (Angel of Salvation; with `divided_damage`): each target of the
    /// division still legal gets a prevention shield of its share; an illegal one's is not
    /// created (its share is lost).
    PreventDivided,
    /// "Target instant or sorcery card in your graveyard gains flashback until end of turn.
    /// The flashback cost is equal to its mana cost." (Dralnu, Lich Lord)
    GrantFlashback(ObjRef),
    /// "Exile target creature you control, then return it to the battlefield under its
    /// owner's control" (Momentary Blink): a new object returns.
    ExileAndReturn(ObjRef),
    /// "Put target face-up exiled card into its owner's graveyard" (Pull from Eternity): a
    /// card in exile goes to its owner's graveyard (a suspended one loses its counters and
    /// is no longer suspended).
    PutIntoGraveyard(ObjRef),
    /// "If you cast this spell during your main phase, instead ..." (Careful
    /// Consideration): `then` if its controller cast it in their own main phase, else
    /// `otherwise`. Checked on resolution, which happens in the step it was cast in (steps
    /// never end while the stack has objects).
    /// "Any player may have ~ deal N damage to them. If no one does, <otherwise>" (Browbeat:
    /// `any_player_may_take_damage 5 || draw 3 who=target`): each player in APNAP order is
    /// asked until one accepts; the first who does is dealt the damage by the source, and
    /// nothing else happens.
    AnyPlayerMayTakeDamage {
        amount: u32,
        otherwise: Box<Effect>,
    },
    IfCastInMainPhase {
        then: Box<Effect>,
        otherwise: Box<Effect>,
    },
    /// "Prevent all combat damage ~ would deal this combat."
    PreventCombatDamageFrom(ObjRef),
    /// "Prevent all combat damage that would be dealt to and dealt by <it> this turn" (Ith).
    PreventCombatDamageToAndFrom(ObjRef),
    /// "Put a spore counter on each Fungus you control."
    PutCounterEach {
        kind: CounterKind,
        filter: ObjectFilter,
    },
    /// "You may pay {cost}. If you do, ...": asked as it resolves; paid by the auto-payer.
    MayPay {
        cost: crate::mana::ManaCost,
        effects: Vec<Effect>,
    },
    /// "Sacrifice it unless you pay COST" (echo): its controller chooses as it resolves. The
    /// cost is mana, or "discard N cards" / "sacrifice N FILTER" (Echo—Discard a card:
    /// Deepcavern Imp), `keywords/echo.rs`.
    SacrificeUnlessPays {
        cost: crate::costs::Cost,
    },
    /// "EFFECTS unless you pay COST" (Drifter il-Dal: "sacrifice ~ unless you pay {U}";
    /// Sangrophage: "tap ~ unless you pay 2 life"): its controller chooses as it resolves
    /// (one who can't pay isn't asked); the mana is paid by the auto-payer.
    UnlessPays {
        mana: Option<crate::mana::ManaCost>,
        life: u32,
        effects: Vec<Effect>,
    },
    /// "<Who> takes an extra turn after this one" (2006 300.7 / 2014 500.7): taken right
    /// after this turn, the most recently created first (`turn.rs`).
    ExtraTurn {
        who: PlayerRef,
    },
    /// "That player loses N life at the beginning of their next draw step unless they pay
    /// {M} before that draw step" (Glass Asp): a delayed ability and a special action.
    LoseAtNextDrawUnlessPays {
        lose: u32,
        pay: u32,
        who: PlayerRef,
    },
    /// "~ becomes a P/T <colour> <types> creature with <keywords> until end of turn" (still
    /// its other types): layers 4, 5, 6 and 7b.
    BecomeCreature {
        what: ObjRef,
        power: i32,
        toughness: i32,
        colors: crate::mana::ColorSet,
        subtypes: Vec<String>,
        keywords: Vec<crate::keywords::Keyword>,
        /// `forever`: "becomes a 3/4 Gargoyle creature" with no duration and no other card
        /// type (Opal Guardian); else until end of turn, in addition to its types.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        forever: bool,
        /// `still_land`: "becomes a 2/2 creature that's still a land" (Spike Tiller): it keeps
        /// its types and colours (the colour argument is `C`), with `forever` too.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        still_land: bool,
    },
    /// "Counter target spell unless its controller pays {N}" (Mana Tithe; {X}: Logic Knot,
    /// the X its caster chose).
    CounterUnlessPays {
        what: ObjRef,
        generic: Amount,
    },
    /// "Gain control of target creature until end of turn" (layer 2).
    GainControlUntilEndOfTurn(ObjRef),
    /// "You may ...": the controller answers yes or no as it resolves (`text` is the
    /// effect as the script wrote it, for the question).
    May {
        effects: Vec<Effect>,
        text: String,
    },
    /// Sindbad: draw a card and reveal it; if it isn't a land card, discard it.
    DrawRevealDiscardNonland,
    Mill {
        amount: Amount,
        who: PlayerRef,
    },
    /// "That creature loses flying until end of turn" (Goblin Skycutter): a layer-6
    /// (classic 5) effect removing the keyword, locked to the object.
    LoseKeyword {
        what: ObjRef,
        keyword: crate::keywords::Keyword,
    },
    /// The object gains a keyword until end of turn or until end of combat.
    Grant {
        what: ObjRef,
        keyword: crate::keywords::Keyword,
        until: Duration,
    },
    /// +N·A/+M·A until end of turn, A counted on resolution and then locked (rampage,
    /// Strength in Numbers).
    PumpCount {
        what: ObjRef,
        amount: Amount,
        power: i32,
        toughness: i32,
    },
    /// Each permanent matching the filter now gains a keyword (the set is locked in on
    /// resolution, 418.3b).
    GrantAll {
        filter: ObjectFilter,
        keyword: crate::keywords::Keyword,
        until: Duration,
    },
    /// +N·A/+M·A until end of turn for each permanent matching the filter now; A counted
    /// on resolution (Tromp the Domains).
    PumpAllCount {
        filter: ObjectFilter,
        amount: Amount,
        power: i32,
        toughness: i32,
    },
    /// `a` and `b` each deal damage equal to their power to the other ("fight"). If either
    /// is gone (or no longer a creature), no damage is dealt (R-arena-1,
    /// R-durkwood-tracker-1).
    Fight {
        a: ObjRef,
        b: ObjRef,
    },
    /// Spitting Slug: "you may pay {1}{G}. If you do, ~ gains first strike until end of
    /// turn. Otherwise, each creature blocking or blocked by ~ gains first strike until end
    /// of turn." Its controller answers a mana payment while it resolves (pay or decline).
    SpittingSlug,
    /// Each such player discards their hand, then draws that many cards (Barbed Shocker).
    DiscardHandDrawThatMany {
        who: PlayerRef,
    },
    /// "Put N [kind] counters on it."
    PutCounters {
        kind: CounterKind,
        count: Amount,
        what: ObjRef,
    },
    /// "Remove N [kind] counters from it" (a permanent, or a card in exile: suspend).
    RemoveCounters {
        kind: CounterKind,
        count: Amount,
        what: ObjRef,
        /// "Remove a +1/+1 counter from it. If you do, ...": these happen only if a counter
        /// was removed (Clockwork Hydra; `remove_counter KIND WHAT && EFFECT...`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        then: Vec<Effect>,
    },
    /// Clockspinning: "Choose a counter on it. Remove that counter from it or put another of
    /// those counters on it" (a permanent or a suspended card): the kind and the choice are
    /// made as it resolves (R-clockspinning-1), nothing happens with no counter on it
    /// (R-clockspinning-2). `time_only`: Jhoira's Timebug's "if it has a time counter on
    /// it, you may remove a time counter from it or put another time counter on it" (the
    /// third choice: neither). `keywords/time_counters.rs`.
    RemoveOrAddCounter {
        what: ObjRef,
        time_only: bool,
    },
    /// Dust of Moments: "Remove N time counters from each permanent and each suspended
    /// card" (`put: false`), or "Put N time counters on each permanent with a time counter
    /// on it and each suspended card" (`put: true`). `keywords/time_counters.rs`.
    TimeCountersEach {
        put: bool,
        count: Amount,
    },
    /// Delay (`counter: true`): "Counter target spell. If the spell is countered this way,
    /// exile it with N time counters on it instead of putting it into its owner's graveyard.
    /// If it doesn't have suspend, it gains suspend." Epochrasite (`counter: false`): "exile
    /// it with N time counters on it and it gains suspend" (the card, from a graveyard).
    /// `keywords/time_counters.rs`.
    IntoSuspend {
        what: ObjRef,
        time: u32,
        counter: bool,
    },
    /// Suspend's last-counter trigger: its owner casts the source card without paying its
    /// mana cost if able (`keywords/suspend.rs`).
    CastSuspended,
    /// Madness's trigger: its owner may cast the source card from exile for its madness
    /// cost, else puts it into their graveyard (`keywords/madness.rs`).
    CastMadness,
    /// "You may reveal X <filter> cards in your hand" (Nightshade Assassin): its controller
    /// chooses any number of such cards (none is X = 0) and reveals them; X, the number
    /// revealed, is the resolving item's X for the effects after it ("if you do, target
    /// creature gets -X/-X": `pump_count X -1/-1 target`).
    RevealForX(crate::targets::ObjectFilter),
    /// Chroma (an ability word, `keywords/chroma.rs`): "reveal any number of cards in your
    /// hand": X is the number of mana symbols of this colour in those cards' mana costs.
    RevealChroma(crate::mana::Color),
    /// Typecycling's "search your library for a [type] card, reveal it, put it into your
    /// hand, then shuffle" (`keywords/cycling.rs`).
    SearchReveal(crate::targets::ObjectFilter),
    /// Transmute and transfigure: "search your library for a [filter] card with the same
    /// mana value as this card, (reveal it,) put it into your hand / onto the battlefield,
    /// then shuffle" (`keywords/transmute.rs`).
    SearchSameManaValue {
        filter: crate::targets::ObjectFilter,
        to: crate::zones::ZoneKind,
        reveal: bool,
    },
    /// "<source> deals N damage to ...", where the source is not the ability's own source
    /// ("it deals damage equal to its power": the trigger's subject, by last known
    /// information if it has left).
    DamageFrom {
        source: ObjRef,
        amount: Amount,
        to: Vec<Recipient>,
    },
    /// "Enchanted permanent's controller sacrifices it" (Reality Acid's leaves trigger): whoever
    /// controls that permanent as it resolves sacrifices it (nothing if it has left).
    ItsControllerSacrifices(ObjRef),
    /// "Sacrifice it. If you do, ...": the ability's controller sacrifices the object if they
    /// still control it on the battlefield; only then do the other effects happen.
    SacrificeThen {
        what: ObjRef,
        then: Vec<Effect>,
    },
    /// "That creature's controller may ...": the controller of the trigger's subject (now,
    /// or as it last was) answers yes or no as it resolves (Pandemonium).
    ItsControllerMay {
        effects: Vec<Effect>,
        text: String,
    },
    /// "If ~ was kicked, A[; otherwise B]" (502.21b / 702.32): `which` names the kicker
    /// cost by its printed position ("[A]" 0, "[B]" 1: 502.21d), `None` any kicker paid.
    /// Reads the spell, or the permanent whose ability it is (`keywords/kicker.rs`).
    IfKicked {
        which: Option<u8>,
        then: Box<Effect>,
        otherwise: Option<Box<Effect>>,
    },
    /// "If you control N or fewer <filter>, <then>" (Edge of Autumn): checked as it
    /// resolves, counting the permanents its controller controls.
    IfYouControlAtMost {
        at_most: u32,
        filter: crate::targets::ObjectFilter,
        then: Box<Effect>,
    },
    /// "If this ability has been activated N or more times this turn, <then>" (Dragon
    /// Whelp): counted as it resolves, this activation included (`Game::activations`).
    IfActivatedThisTurn {
        times: u32,
        then: Box<Effect>,
    },
    /// "Sacrifice ~ at the beginning of the next end step": a delayed ability
    /// (`DelayedWhen::NextEndStepSacrifice`) of the resolving ability's controller.
    SacrificeAtNextEndStep(ObjRef),
    /// "Destroy that creature at end of combat": a delayed ability
    /// (`DelayedWhen::EndOfCombatDestroy`) of the resolving ability's controller (Cockatrice).
    DestroyAtEndOfCombat(ObjRef),
    /// "When ~ leaves the battlefield this turn, destroy that creature" (War Barge): a
    /// delayed ability (`DelayedWhen::SourceLeavesThisTurn`) watching the resolving
    /// ability's source, which ends with the turn; `regen: false`: "a creature destroyed this
    /// way can't be regenerated".
    DestroyWhenThisLeavesThisTurn {
        what: ObjRef,
        regen: bool,
    },
    /// "At end of combat, destroy it and all creatures it blocked this turn" (Defiant
    /// Vanguard's "when ~ blocks" trigger): one delayed ability
    /// (`DelayedWhen::EndOfCombatDestroyWithBlocked`) about the trigger's source, also if
    /// the source has left since (the creatures it blocked are remembered by the combat).
    DestroyThisAndBlockedAtEndOfCombat,
    /// The delayed ability's effect: destroy the subject and every creature it was declared
    /// blocking this combat that is still on the battlefield, at once.
    DestroySubjectAndBlocked,
    /// "Change the target of target spell or ability with a single target" (Willbender;
    /// 2014 115.7a / 2006 415.7): to another legal target, chosen by the resolving ability's
    /// controller (a `choose_mode` decision among them, none asked when one is left); with
    /// no other legal target it is unchanged.
    ChangeTarget(ObjRef),
    /// "Change the target of target spell that targets only a single creature to ~" (Muck
    /// Drubb): every target of that spell becomes the ability's source, only if the source
    /// is a legal target for it then (its ruling); otherwise nothing changes.
    ChangeTargetToThis(ObjRef),
    /// Storm's and gravestorm's trigger: copy the spell it is about once for each spell
    /// (permanent) counted, the count being the trigger's `x` (`keywords/storm.rs`).
    StormCopies,
    /// "Copy target instant or sorcery spell. You may choose new targets for the copy."
    /// (Reiterate, Twincast; `keywords/storm.rs`.)
    CopySpell(ObjRef),
    /// "Gain control of target spell" (a test fixture): the resolving ability's controller
    /// becomes the spell's controller.
    GainControlOfSpell(ObjRef),
    /// "Gain control of target creature" with no duration (Evangelize): layer 2, for as
    /// long as the permanent stays.
    GainControl(ObjRef),
    /// "At the beginning of your next upkeep, pay COST. If you don't, you lose the game."
    /// (pacts, `keywords/pact.rs`): creates the delayed ability.
    PactUpkeep(crate::mana::ManaCost),
    /// The pact's delayed ability: pay the card's pact cost or lose the game.
    PactPay,
    /// "Scry N" (701.18, `keywords/scry.rs`): its controller looks at the top N cards of
    /// their library and puts each on the top or the bottom, in the order they choose.
    Scry(Amount),
    /// "Fateseal N" (701.19): the same with an opponent's library.
    Fateseal(Amount),
    /// "Sacrifice ~ unless you pay COST", not an echo cost (Krosan Cloudscraper's and Nicol
    /// Bolas's upkeep, Sacred Mesa's "unless you sacrifice a Pegasus"): its controller
    /// chooses as it resolves; Thick-Skinned Goblin's {0} doesn't apply (`keywords/echo.rs`
    /// pays it).
    SacrificeThisUnlessPays {
        cost: crate::costs::Cost,
    },
    /// "Target player shuffles up to three target cards from their graveyard into their
    /// library" (Gaea's Blessing): every target card still legal goes into its owner's
    /// library, then each such player (`who`, legal) shuffles their library (also with no
    /// card left to put there).
    ShuffleTargetCardsIntoLibrary {
        who: PlayerRef,
    },
    /// "Shuffle your graveyard into your library" (Feldon's Cane).
    ShuffleGraveyardIntoLibrary {
        who: PlayerRef,
    },
    /// "All lands target player controls become 3/3 creatures until end of turn. They're
    /// still lands." (Jolrael): each permanent matching the filter that such a player
    /// controls now (the set is locked in, 418.3b) becomes a creature with base P/T P/T,
    /// keeping its other types, colours and abilities (layers 4 and 7b).
    BecomeCreatureAll {
        filter: ObjectFilter,
        who: PlayerRef,
        power: i32,
        toughness: i32,
    },
    /// "Exile target player's graveyard" (Tormod's Crypt): every card in it.
    ExileGraveyard {
        who: PlayerRef,
    },
    /// "Search target opponent's library for a card and exile it. Then that player
    /// shuffles. Until the beginning of your next upkeep, you may play that card. At the
    /// beginning of your next upkeep, if you haven't played it, put it into its owner's
    /// graveyard." (Grinning Totem): the search must find a card when that library isn't
    /// empty (`Decision::search_must_find`); the permission and the delayed ability are
    /// `play_permission.rs`'s.
    SearchExilePlayable {
        who: PlayerRef,
    },
    /// "The next time a source of your choice would deal damage to <target> this turn,
    /// prevent that damage" (Honorable Passage): the source is chosen as it resolves, among
    /// the sources a player may choose (`replacement.rs`, `Game::damage_source_candidates`);
    /// `reflect_red`: "If damage from a red source is prevented this way, ~ deals that much
    /// damage to the source's controller".
    PreventNextFromChosenSource {
        to: ObjRef,
        reflect_red: bool,
    },
}

impl Effect {
    /// Parses one effect line of a card script (the grammar: [`crate::grammar::effects`]).
    pub fn parse(s: &str) -> Result<Effect, String> {
        crate::grammar::parse_all(crate::grammar::effects::effect, s)
    }

    /// Whether the effect can happen without any player choice (mana abilities' effects
    /// resolve immediately and must be choiceless).
    pub fn is_choiceless(&self) -> bool {
        if let Effect::IfSpent { effect, .. } = self {
            return effect.is_choiceless();
        }
        if let Effect::IfCastInMainPhase { then, otherwise } = self {
            return then.is_choiceless() && otherwise.is_choiceless();
        }
        if let Effect::AnyPlayerMayTakeDamage { .. } = self {
            return false;
        }
        if let Effect::IfKicked {
            then, otherwise, ..
        } = self
        {
            return then.is_choiceless() && otherwise.as_ref().is_none_or(|o| o.is_choiceless());
        }
        if let Effect::IfYouControlAtMost { then, .. } | Effect::IfActivatedThisTurn { then, .. } =
            self
        {
            return then.is_choiceless();
        }
        !matches!(
            self,
            Effect::Discard { random: false, .. }
                | Effect::DiscardHand { .. }
                | Effect::SacrificeHalf { .. }
                | Effect::MaySacrificeThen { .. }
                | Effect::AnyPlayerMaySacrifice { .. }
                | Effect::DamageAnyAmount { .. }
                | Effect::DrawUpTo { .. }
                | Effect::SacrificeOrElse { .. }
                | Effect::BalanceSacrifice(_)
                | Effect::BalanceDiscard
                | Effect::Sacrifice { .. }
                | Effect::ReturnChosen(_)
                | Effect::Search { .. }
                | Effect::RevealForX(..)
                | Effect::RevealChroma(..)
                | Effect::May { .. }
                | Effect::CounterUnlessPays { .. }
                | Effect::MayPay { .. }
                | Effect::UnlessPays { .. }
                | Effect::MayTapOrUntap(_)
                | Effect::SetBasePowerOrToughness { .. }
                | Effect::ItsControllerMay { .. }
                | Effect::Scry(_)
                | Effect::Fateseal(_)
                | Effect::ReorderTop(_)
                | Effect::ChooseRevealedToBottom(_)
                | Effect::NameCardRevealRandom { .. }
                | Effect::AuraSwap
                | Effect::PutFromHand { .. }
                | Effect::PutFromHandInTurn(_)
                | Effect::SearchExilePlayable { .. }
                | Effect::PreventNextFromChosenSource { .. }
        ) && self.target_slots().is_empty()
    }

    /// Target slots this effect refers to (for validation of scripts).
    pub fn target_slots(&self) -> Vec<u8> {
        let mut v = Vec::new();
        let p = |r: &PlayerRef, v: &mut Vec<u8>| {
            if let PlayerRef::Target(n) | PlayerRef::TargetController(n) = r {
                v.push(*n)
            }
        };
        match self {
            Effect::IfSpent { effect, .. } => return effect.target_slots(),
            Effect::IfCastInMainPhase { then, otherwise } => {
                v.extend(then.target_slots());
                v.extend(otherwise.target_slots());
            }
            Effect::AnyPlayerMayTakeDamage { otherwise, .. } => v.extend(otherwise.target_slots()),
            Effect::IfKicked {
                then, otherwise, ..
            } => {
                v.extend(then.target_slots());
                v.extend(otherwise.iter().flat_map(|o| o.target_slots()));
            }
            Effect::IfYouControlAtMost { then, .. } | Effect::IfActivatedThisTurn { then, .. } => {
                v.extend(then.target_slots())
            }
            Effect::CopySpell(ObjRef::Target(n))
            | Effect::GainControlOfSpell(ObjRef::Target(n)) => v.push(*n),
            Effect::GrantFlashback(ObjRef::Target(n))
            | Effect::ExileAndReturn(ObjRef::Target(n)) => v.push(*n),
            Effect::Damage { to, .. }
            | Effect::DamageFrom { to, .. }
            | Effect::DamageAnyAmount { to, .. } => {
                for r in to {
                    match r {
                        Recipient::Target(n) => v.push(*n),
                        Recipient::Player(pr) => p(pr, &mut v),
                        Recipient::EachCreature(_)
                        | Recipient::EachCreatureBlocking(_)
                        | Recipient::Object(_) => {}
                    }
                }
                if let Effect::DamageFrom {
                    source: ObjRef::Target(n),
                    ..
                } = self
                {
                    v.push(*n);
                }
            }
            Effect::PutCounters {
                what: ObjRef::Target(n),
                ..
            }
            | Effect::RemoveCounters {
                what: ObjRef::Target(n),
                ..
            }
            | Effect::RemoveOrAddCounter {
                what: ObjRef::Target(n),
                ..
            }
            | Effect::IntoSuspend {
                what: ObjRef::Target(n),
                ..
            }
            | Effect::SacrificeThen {
                what: ObjRef::Target(n),
                ..
            } => {
                v.push(*n);
                if let Effect::SacrificeThen { then, .. } = self {
                    for e in then {
                        v.extend(e.target_slots());
                    }
                }
            }
            Effect::SacrificeThen { then: effects, .. }
            | Effect::RemoveCounters { then: effects, .. }
            | Effect::ItsControllerMay { effects, .. } => {
                for e in effects {
                    v.extend(e.target_slots());
                }
            }
            Effect::MaySacrificeThen { who, then, .. } => {
                p(who, &mut v);
                for e in then {
                    v.extend(e.target_slots());
                }
            }
            Effect::AnyPlayerMaySacrifice { then, .. } => {
                for e in then {
                    v.extend(e.target_slots());
                }
            }
            Effect::SacrificeOrElse { otherwise, .. } => {
                for e in otherwise {
                    v.extend(e.target_slots());
                }
            }
            Effect::NameCardRevealRandom { who, then, .. } => {
                p(who, &mut v);
                for e in then {
                    v.extend(e.target_slots());
                }
            }
            Effect::Draw { who, .. }
            | Effect::DrawUpTo { who, .. }
            | Effect::Discard { who, .. }
            | Effect::GainLife { who, .. }
            | Effect::LoseLife { who, .. }
            | Effect::Mill { who, .. }
            | Effect::DiscardHandDrawThatMany { who }
            | Effect::DiscardHand { who }
            | Effect::ExileHandFaceDown { who }
            | Effect::SacrificeHalf { who }
            | Effect::ShuffleGraveyardIntoLibrary { who }
            | Effect::ShuffleTargetCardsIntoLibrary { who }
            | Effect::ExileGraveyard { who }
            | Effect::SearchExilePlayable { who }
            | Effect::BecomeCreatureAll { who, .. }
            | Effect::Poison { who, .. }
            | Effect::RevealRandomDamage(who)
            | Effect::ChooseRevealedToBottom(who)
            | Effect::Sacrifice { who, .. }
            | Effect::CreateToken { who, .. }
            | Effect::SkipNext { who, .. }
            | Effect::ExtraTurn { who }
            | Effect::LoseAllAbilities { who, .. } => p(who, &mut v),
            Effect::Search {
                under: Some(who), ..
            } => p(who, &mut v),
            Effect::May { effects, .. } => {
                for e in effects {
                    v.extend(e.target_slots());
                }
            }
            Effect::Fight { a, b } => {
                for r in [a, b] {
                    if let ObjRef::Target(n) = r {
                        v.push(*n);
                    }
                }
            }
            _ => v.extend(self.object_target_slot()),
        }
        v
    }

    /// The target slot named by an effect that acts on one object (or player), if any.
    fn object_target_slot(&self) -> Option<u8> {
        match self {
            Effect::Destroy {
                what: ObjRef::Target(n),
                ..
            }
            | Effect::Regenerate(ObjRef::Target(n))
            | Effect::CantRegenerate(ObjRef::Target(n))
            | Effect::ExileIfDies(ObjRef::Target(n))
            | Effect::ExileHaunting(ObjRef::Target(n))
            | Effect::PreventNext {
                to: Recipient::Target(n),
                ..
            }
            | Effect::Counter(ObjRef::Target(n))
            | Effect::LinkWhileTapped(ObjRef::Target(n))
            | Effect::RemoveAllCounters {
                what: ObjRef::Target(n),
                ..
            }
            | Effect::CounterLockingSource(ObjRef::Target(n))
            | Effect::PreventNextFromChosenSource {
                to: ObjRef::Target(n),
                ..
            }
            | Effect::ChangeTarget(ObjRef::Target(n))
            | Effect::ChangeTargetToThis(ObjRef::Target(n))
            | Effect::CounterUnlessPays {
                what: ObjRef::Target(n),
                ..
            }
            | Effect::Tap(ObjRef::Target(n))
            | Effect::Untap(ObjRef::Target(n))
            | Effect::MayTapOrUntap(ObjRef::Target(n))
            | Effect::SetBasePowerOrToughness {
                what: ObjRef::Target(n),
                ..
            }
            | Effect::RemoveFromCombat(ObjRef::Target(n))
            | Effect::DoesntUntapNext(ObjRef::Target(n))
            | Effect::TurnFaceUp(ObjRef::Target(n))
            | Effect::PutOnTop(ObjRef::Target(n))
            | Effect::ReturnToHand(ObjRef::Target(n))
            | Effect::ExileLinked(ObjRef::Target(n))
            | Effect::ExileUntilNextEndStep(ObjRef::Target(n))
            | Effect::ReturnIfDiesThisTurn(ObjRef::Target(n))
            | Effect::DestroyWhenThisLeavesThisTurn {
                what: ObjRef::Target(n),
                ..
            }
            | Effect::BecomeCreatureType {
                what: ObjRef::Target(n),
                ..
            }
            | Effect::GainControlWhileYouControlThis(ObjRef::Target(n))
            | Effect::GainControlUntilEndOfTurn(ObjRef::Target(n))
            | Effect::GainControl(ObjRef::Target(n))
            | Effect::BecomeColor {
                what: ObjRef::Target(n),
                ..
            }
            | Effect::BecomeLandType {
                what: ObjRef::Target(n),
                ..
            }
            | Effect::RedirectNextFromThis {
                to: ObjRef::Target(n),
                ..
            }
            | Effect::ChangeText {
                what: ObjRef::Target(n),
                ..
            }
            | Effect::ReturnAtNextEndStep(ObjRef::Target(n))
            | Effect::Exile(ObjRef::Target(n))
            | Effect::PutIntoGraveyard(ObjRef::Target(n))
            | Effect::TurnFaceDown(ObjRef::Target(n))
            | Effect::Attach {
                to: ObjRef::Target(n),
                ..
            }
            | Effect::BecomeCreature {
                what: ObjRef::Target(n),
                ..
            }
            | Effect::Pump {
                what: ObjRef::Target(n),
                ..
            }
            | Effect::SetPt {
                what: ObjRef::Target(n),
                ..
            }
            | Effect::SwitchPt(ObjRef::Target(n))
            | Effect::Grant {
                what: ObjRef::Target(n),
                ..
            }
            | Effect::PumpCount {
                what: ObjRef::Target(n),
                ..
            }
            | Effect::ExchangeLife(n) => Some(*n),
            _ => None,
        }
    }
}

/// How long a continuous effect of a resolved spell or ability lasts (418.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Duration {
    /// Until end of turn (cleanup, 314.2).
    EndOfTurn,
    /// "For as long as you control <source>": ends when its source leaves the battlefield or
    /// another player gains control of it.
    WhileYouControlSource,
    /// Until end of combat: ends as the end of combat step ends (311.2; modern 511.3).
    EndOfCombat,
    /// No duration: it lasts as long as its object stays (Mind Bend).
    Indefinite,
    /// "Until <source> leaves the battlefield" (Gaea's Liege).
    WhileSourceOnBattlefield,
}

/// What a rule-changing prevention effect covers ("prevent all combat damage that would be
/// dealt this turn").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PreventScope {
    /// All combat damage (Darkness).
    CombatDamage,
    /// All damage creatures would deal to players (Chameleon Blur).
    CreatureDamageToPlayers,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_effect_lines() {
        assert_eq!(
            Effect::parse("damage 3 to=target").unwrap(),
            Effect::Damage {
                amount: Amount::Fixed(3),
                to: vec![Recipient::Target(0)]
            }
        );
        assert_eq!(
            Effect::parse("draw 2 who=target").unwrap(),
            Effect::Draw {
                amount: Amount::Fixed(2),
                who: PlayerRef::Target(0)
            }
        );
        assert!(matches!(
            Effect::parse("pump +1/+1 target").unwrap(),
            Effect::Pump {
                power: 1,
                toughness: 1,
                ..
            }
        ));
        assert!(Effect::parse("explode 3").is_err());
        assert!(Effect::parse("damage 3").is_err());
    }
}
