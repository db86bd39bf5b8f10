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
    /// The number of creatures the controller controls, counted on resolution (413.2f).
    CreaturesYouControl,
    /// The number of attacking creatures, counted on resolution (Strength in Numbers).
    AttackingCreatures,
    /// Domain: the number of basic land types among lands the controller controls.
    BasicLandTypesYouControl,
    /// The number of creatures blocking the trigger's subject beyond the first, counted on
    /// resolution (502.12a-b rampage).
    BlockersBeyondFirst,
    /// The power of the trigger's subject ("equal to its power"), as it last existed on the
    /// battlefield if it has left.
    SubjectPower,
    /// The converted mana cost of the trigger's subject (a spell: "X is that spell's
    /// converted mana cost", Endrek Sahr).
    SubjectManaValue,
    /// "That much": the amount of the event that triggered the ability (the damage dealt,
    /// Spirit Link), kept in the stack item's `x`.
    ThatMuch,
    /// The converted mana cost of the spell chosen for target slot n, X included while it
    /// is on the stack (Draining Whelk: "where X is that spell's converted mana cost").
    TargetManaValue(u8),
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
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Effect {
    Damage {
        amount: Amount,
        to: Vec<Recipient>,
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
    Counter(ObjRef),
    Tap(ObjRef),
    Untap(ObjRef),
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
    },
    /// Base P/T becomes N/M until end of turn.
    SetPt {
        what: ObjRef,
        power: i32,
        toughness: i32,
    },
    /// Switch P/T until end of turn.
    SwitchPt(ObjRef),
    /// +P/+T until end of turn for each permanent matching the filter now (the set is
    /// locked in on resolution, 418.3b).
    PumpAll {
        filter: ObjectFilter,
        power: i32,
        toughness: i32,
    },
    /// Each `who` sacrifices one permanent matching the filter (choices in APNAP order).
    Sacrifice {
        who: PlayerRef,
        filter: ObjectFilter,
    },
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
    },
    /// "Turn it face down" (Vesuvan Shapeshifter's upkeep trigger).
    TurnFaceDown(ObjRef),
    /// Living End: "Each player exiles all creature cards from their graveyard, then
    /// sacrifices all creatures they control, then puts all cards they exiled this way onto
    /// the battlefield" (they enter at the same time).
    LivingEnd,
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
    /// Exile it; return it to the battlefield under its owner's control at the beginning of
    /// the next end step (a delayed triggered ability, Norin the Wary).
    ExileUntilNextEndStep(ObjRef),
    /// Return it to the battlefield under its owner's control (from exile or a graveyard).
    ReturnToBattlefield(ObjRef),
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
    },
    /// "You win the game."
    WinGame,
    /// "Deals N damage divided as you choose among any number of targets": each target of
    /// the spell's division (`StackItem::division`) still legal is dealt its share.
    DamageDivided,
    /// "Target instant or sorcery card in your graveyard gains flashback until end of turn.
    /// The flashback cost is equal to its mana cost." (Dralnu, Lich Lord)
    GrantFlashback(ObjRef),
    /// "Exile target creature you control, then return it to the battlefield under its
    /// owner's control" (Momentary Blink): a new object returns.
    ExileAndReturn(ObjRef),
    /// "If you cast this spell during your main phase, instead ..." (Careful
    /// Consideration): `then` if its controller cast it in their own main phase, else
    /// `otherwise`. Checked on resolution, which happens in the step it was cast in (steps
    /// never end while the stack has objects).
    IfCastInMainPhase {
        then: Box<Effect>,
        otherwise: Box<Effect>,
    },
    /// "Prevent all combat damage ~ would deal this combat."
    PreventCombatDamageFrom(ObjRef),
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
    /// "Sacrifice it unless you pay COST" (echo): its controller chooses as it resolves.
    SacrificeUnlessPays {
        cost: crate::mana::ManaCost,
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
    },
    /// "Counter target spell unless its controller pays {N}" (Mana Tithe).
    CounterUnlessPays {
        what: ObjRef,
        generic: u32,
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
    /// "<source> deals N damage to ...", where the source is not the ability's own source
    /// ("it deals damage equal to its power": the trigger's subject, by last known
    /// information if it has left).
    DamageFrom {
        source: ObjRef,
        amount: Amount,
        to: Vec<Recipient>,
    },
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
}

impl Effect {
    /// Parses one effect line of a card script (the grammar: [`crate::grammar::effects`]).
    pub fn parse(s: &str) -> Result<Effect, String> {
        crate::grammar::parse_all(crate::grammar::effects::effect, s)
    }

    /// The hand-written parser the grammar replaced (kept to compare them).
    #[cfg(test)]
    pub(crate) fn legacy_parse(s: &str) -> Result<Effect, String> {
        if let Some(rest) = s.trim().strip_prefix("may_pay ") {
            // `may_pay {B} && return_to_battlefield this`
            let mut parts = rest.split("&&");
            let cost: crate::mana::ManaCost = parts
                .next()
                .unwrap_or("")
                .trim()
                .parse()
                .map_err(|e| format!("may_pay: {e}"))?;
            let effects = parts
                .map(|p| Effect::legacy_parse(p.trim()))
                .collect::<Result<Vec<_>, _>>()?;
            if effects.is_empty() || effects.iter().any(|e| !e.is_choiceless()) {
                return Err(
                    "`may_pay COST && EFFECT...` takes effects that ask nothing more".into(),
                );
            }
            return Ok(Effect::MayPay { cost, effects });
        }
        if let Some(rest) = s.trim().strip_prefix("sacrifice ")
            && let Some((what, then)) = rest.split_once("&&").or(Some((rest, "")))
            && matches!(what.trim(), "it" | "target")
        {
            // `sacrifice it && damage 4 to=each_creature_blocking_it from=it`
            let then = then
                .split("&&")
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(Effect::legacy_parse)
                .collect::<Result<Vec<_>, _>>()?;
            if then
                .iter()
                .any(|e| !e.is_choiceless() && e.target_slots().is_empty())
            {
                return Err(
                    "`sacrifice it && EFFECT...` takes effects that ask nothing more".into(),
                );
            }
            return Ok(Effect::SacrificeThen {
                what: parse_obj_ref(what.trim())?,
                then,
            });
        }
        if let Some(rest) = s.trim().strip_prefix("its_controller_may ") {
            // `its_controller_may damage its_power to=target from=it`
            let Effect::May { effects, text } = Effect::legacy_parse(&format!("may {rest}"))? else {
                return Err("`its_controller_may` takes the same effects as `may`".into());
            };
            return Ok(Effect::ItsControllerMay { effects, text });
        }
        if let Some(rest) = s.trim().strip_prefix("may ") {
            // `may A && B`: "you may A. If you do, B." (targets are chosen on the stack).
            let mut effects = Vec::new();
            for part in rest.split("&&") {
                let inner = Effect::legacy_parse(part.trim())?;
                let no_choice = matches!(
                    inner,
                    Effect::Discard { random: false, .. }
                        | Effect::Sacrifice { .. }
                        | Effect::Search { .. }
                        | Effect::May { .. }
                        | Effect::CounterUnlessPays { .. }
                );
                if no_choice {
                    return Err("`may` takes effects that ask nothing more".into());
                }
                effects.push(inner);
            }
            let text = rest
                .split("&&")
                .next()
                .unwrap_or(rest)
                .trim()
                .replace('_', " ");
            return Ok(Effect::May { effects, text });
        }
        if let Some(rest) = s.trim().strip_prefix("if_cast_in_main_phase ") {
            // `if_cast_in_main_phase discard 2 who=target || discard 3 who=target`
            let (then, otherwise) = rest
                .split_once("||")
                .ok_or("`if_cast_in_main_phase A || B`: B is what happens otherwise")?;
            return Ok(Effect::IfCastInMainPhase {
                then: Box::new(Effect::legacy_parse(then.trim())?),
                otherwise: Box::new(Effect::legacy_parse(otherwise.trim())?),
            });
        }
        if let Some((before, after)) = s.split_once(" if_spent=") {
            // `damage 2 to=target if_spent=R`
            let (letter, rest) = after.split_once(' ').unwrap_or((after, ""));
            let color = crate::mana::Color::from_name(letter)
                .ok_or_else(|| format!("if_spent={letter}: expected a colour letter"))?;
            let effect = Effect::legacy_parse(&format!("{before} {rest}"))?;
            return Ok(Effect::IfSpent {
                color,
                effect: Box::new(effect),
            });
        }
        let mut positional: Vec<&str> = Vec::new();
        let mut keys: Vec<(&str, &str)> = Vec::new();
        let mut flags: Vec<&str> = Vec::new();
        for w in s.split_whitespace() {
            if let Some((k, v)) = w.split_once('=') {
                keys.push((k, v));
            } else if matches!(w, "random" | "tapped" | "no_regen") {
                flags.push(w);
            } else {
                positional.push(w);
            }
        }
        const KEYS: [&str; 11] = [
            "base",
            "from",
            "keywords",
            "n",
            "pay",
            "then",
            "to",
            "unless_counters",
            "unless_pays",
            "until",
            "who",
        ];
        if let Some((k, _)) = keys.iter().find(|(k, _)| !KEYS.contains(k)) {
            return Err(format!("unknown key `{k}=` in `{}`", s.trim()));
        }
        let key = |k: &str| keys.iter().find(|(kk, _)| *kk == k).map(|(_, v)| *v);
        let who = |default: PlayerRef| -> Result<PlayerRef, String> {
            key("who").map_or(Ok(default), parse_player_ref)
        };
        let Some((verb, args)) = positional.split_first() else {
            return Err("empty effect".into());
        };
        let amount = |i: usize| -> Result<Amount, String> {
            args.get(i)
                .ok_or_else(|| format!("`{verb}` needs an amount"))
                .and_then(|a| parse_amount(a))
        };
        let objref = |i: usize| -> Result<ObjRef, String> {
            args.get(i)
                .ok_or_else(|| format!("`{verb}` needs what it acts on"))
                .and_then(|a| parse_obj_ref(a))
        };
        let e = match *verb {
            "damage" => {
                let to = key("to").ok_or("`damage` needs to=...")?;
                let to = to
                    .split(',')
                    .map(parse_recipient)
                    .collect::<Result<Vec<_>, _>>()?;
                match key("from") {
                    None => Effect::Damage {
                        amount: amount(0)?,
                        to,
                    },
                    Some(from) => Effect::DamageFrom {
                        source: parse_obj_ref(from)?,
                        amount: amount(0)?,
                        to,
                    },
                }
            }
            "put_counter" => {
                // `put_counter +1/+1 this [n=2]`
                let kind = args
                    .first()
                    .ok_or("`put_counter` needs a counter kind")?
                    .parse()?;
                Effect::PutCounters {
                    kind,
                    count: key("n").map_or(Ok(Amount::Fixed(1)), parse_amount)?,
                    what: objref(1)?,
                }
            }
            "draw" => Effect::Draw {
                amount: amount(0)?,
                who: who(PlayerRef::You)?,
            },
            "discard" => Effect::Discard {
                amount: amount(0)?,
                who: who(PlayerRef::You)?,
                random: flags.contains(&"random"),
            },
            "gain" => Effect::GainLife {
                amount: amount(0)?,
                who: who(PlayerRef::You)?,
            },
            "lose" => Effect::LoseLife {
                amount: amount(0)?,
                who: who(PlayerRef::You)?,
            },
            "mill" => Effect::Mill {
                amount: amount(0)?,
                who: who(PlayerRef::You)?,
            },
            "destroy" => Effect::Destroy {
                what: objref(0)?,
                regen: !flags.contains(&"no_regen"),
            },
            "destroy_all" => Effect::DestroyAll {
                filter: ObjectFilter::legacy_parse(args)?,
                regen: !flags.contains(&"no_regen"),
            },
            "regenerate" => Effect::Regenerate(objref(0)?),
            "regenerate_all" => Effect::RegenerateAll(ObjectFilter::legacy_parse(args)?),
            "prevent_next" => Effect::PreventNext {
                amount: amount(0)?,
                to: parse_recipient(key("to").ok_or("`prevent_next` needs to=...")?)?,
            },
            "exile" => Effect::Exile(objref(0)?),
            "skip_next" => Effect::SkipNext {
                what: crate::steps::SkipKind::legacy_parse(
                    args.first()
                        .ok_or("`skip_next` needs turn, untap, upkeep or draw")?,
                )?,
                who: who(PlayerRef::You)?,
            },
            "return_at_next_end_step" => Effect::ReturnAtNextEndStep(objref(0)?),
            "change_text" => {
                // `change_text Plains Island target`
                let from: crate::types::TextWord = args
                    .first()
                    .ok_or("`change_text` needs FROM TO WHAT")?
                    .parse()?;
                let to: crate::types::TextWord = args
                    .get(1)
                    .ok_or("`change_text` needs FROM TO WHAT")?
                    .parse()?;
                if std::mem::discriminant(&from) != std::mem::discriminant(&to) {
                    return Err("`change_text` replaces a colour word with a colour word, or a basic land type with a basic land type".into());
                }
                Effect::ChangeText {
                    what: objref(2)?,
                    from,
                    to,
                }
            }
            "redirect_next_from_this" => Effect::RedirectNextFromThis {
                // `redirect_next_from_this 1 to=target`
                amount: args
                    .first()
                    .and_then(|a| a.parse().ok())
                    .ok_or("`redirect_next_from_this` needs a number")?,
                to: parse_obj_ref(key("to").ok_or("`redirect_next_from_this` needs to=...")?)?,
            },
            "prevent_all" => {
                Effect::PreventAll(PreventScope::legacy_parse(args.first().copied().unwrap_or(""))?)
            }
            "cant_regenerate" => Effect::CantRegenerate(objref(0)?),
            "exile_if_dies" => Effect::ExileIfDies(objref(0)?),
            "counter" => match key("unless_pays") {
                None => Effect::Counter(objref(0)?),
                Some(n) => Effect::CounterUnlessPays {
                    what: objref(0)?,
                    generic: n
                        .parse()
                        .map_err(|_| format!("unless_pays=`{n}`: expected a number"))?,
                },
            },
            "tap" => Effect::Tap(objref(0)?),
            "untap" => Effect::Untap(objref(0)?),
            "turn_face_up" => Effect::TurnFaceUp(objref(0)?),
            "put_on_top" => Effect::PutOnTop(objref(0)?),
            "return_to_hand" => Effect::ReturnToHand(objref(0)?),
            "exile_linked" => Effect::ExileLinked(objref(0)?),
            "return_linked_to_battlefield" => Effect::ReturnLinkedToBattlefield,
            "exile_until_next_end_step" => Effect::ExileUntilNextEndStep(objref(0)?),
            "return_to_battlefield" => Effect::ReturnToBattlefield(objref(0)?),
            "return_if_dies_this_turn" => Effect::ReturnIfDiesThisTurn(objref(0)?),
            "exile_all" => Effect::ExileAll(ObjectFilter::legacy_parse(args)?),
            "become_creature_type" => {
                // `become_creature_type Goblin target`
                let (what, types) = args
                    .split_last()
                    .ok_or("`become_creature_type` needs types and what")?;
                if types.is_empty() {
                    return Err("`become_creature_type` needs at least one type".into());
                }
                Effect::BecomeCreatureType {
                    what: parse_obj_ref(what)?,
                    types: types.iter().map(|t| t.to_string()).collect(),
                }
            }
            "become_land_type" => {
                // `become_land_type Forest target [until=this_leaves]`
                let (what, types) = args
                    .split_last()
                    .ok_or("`become_land_type` needs basic land types and what")?;
                if types.is_empty() {
                    return Err("`become_land_type` needs at least one basic land type".into());
                }
                for t in types {
                    if !crate::types::BASIC_LAND_TYPES.iter().any(|(n, _)| n == t) {
                        return Err(format!("`{t}` is not a basic land type"));
                    }
                }
                let until_source_leaves = match key("until") {
                    None => false,
                    Some("this_leaves") => true,
                    Some(o) => return Err(format!("until={o}: expected `this_leaves`")),
                };
                Effect::BecomeLandType {
                    what: parse_obj_ref(what)?,
                    types: types.iter().map(|t| t.to_string()).collect(),
                    until_source_leaves,
                }
            }
            "lose_all_abilities" => Effect::LoseAllAbilities {
                filter: ObjectFilter::legacy_parse(args)?,
                who: who(PlayerRef::EachPlayer)?,
                base: key("base").map(|b| parse_pt_change(Some(b))).transpose()?,
            },
            "become_color" => {
                let letters = args.first().ok_or("`become_color` needs colours, e.g. W")?;
                let colors = letters
                    .chars()
                    .map(|c| {
                        crate::mana::Color::from_letter(c)
                            .ok_or_else(|| format!("bad colour `{c}`"))
                    })
                    .collect::<Result<crate::mana::ColorSet, _>>()?;
                Effect::BecomeColor {
                    what: objref(1)?,
                    colors,
                }
            }
            "win" => Effect::WinGame,
            "damage_divided" => Effect::DamageDivided,
            "grant_flashback" => Effect::GrantFlashback(objref(0)?),
            "exile_and_return" => Effect::ExileAndReturn(objref(0)?),
            "prevent_combat_damage_from" => Effect::PreventCombatDamageFrom(objref(0)?),
            "put_counter_each" => Effect::PutCounterEach {
                kind: args
                    .first()
                    .ok_or("`put_counter_each` needs a counter kind")?
                    .parse()?,
                filter: ObjectFilter::legacy_parse(&args[1..])?,
            },
            "lose_at_next_draw_unless_pays" => Effect::LoseAtNextDrawUnlessPays {
                lose: match amount(0)? {
                    Amount::Fixed(n @ 1..=4) => n as u32,
                    _ => return Err("lose 1 to 4 life".into()),
                },
                pay: key("pay")
                    .ok_or("`lose_at_next_draw_unless_pays` needs pay=N")?
                    .parse()
                    .map_err(|_| "pay=N: a number".to_string())?,
                who: who(PlayerRef::SubjectPlayer)?,
            },
            "become_creature" => {
                // `become_creature 4/4 R Giant this [keywords=Trample,Flying]`
                let (power, toughness) = parse_pt_change(args.first().copied())?;
                let letters = args
                    .get(1)
                    .ok_or("`become_creature` needs colours (or C)")?;
                let colors = letters
                    .chars()
                    .filter(|c| *c != 'C')
                    .map(|c| {
                        crate::mana::Color::from_letter(c)
                            .ok_or_else(|| format!("bad colour `{c}`"))
                    })
                    .collect::<Result<crate::mana::ColorSet, _>>()?;
                let (what, subs) = args
                    .get(2..)
                    .and_then(|r| r.split_last())
                    .ok_or("`become_creature` needs types and what")?;
                let keywords = key("keywords")
                    .map(|k| {
                        k.split(',')
                            .map(|w| w.replace('_', " ").parse())
                            .collect::<Result<Vec<crate::keywords::Keyword>, _>>()
                    })
                    .transpose()?
                    .unwrap_or_default();
                Effect::BecomeCreature {
                    what: parse_obj_ref(what)?,
                    power,
                    toughness,
                    colors,
                    subtypes: subs.iter().map(|s| s.to_string()).collect(),
                    keywords,
                }
            }
            "gain_control_until_end_of_turn" => Effect::GainControlUntilEndOfTurn(objref(0)?),
            "gain_control_while_you_control_this" => {
                Effect::GainControlWhileYouControlThis(objref(0)?)
            }
            "pump" => {
                let (power, toughness) = parse_pt_change(args.first().copied())?;
                Effect::Pump {
                    what: objref(1)?,
                    power,
                    toughness,
                }
            }
            "create_token" => {
                // `create_token 2 Citizen [who=P]`: the token name may have spaces.
                let count = amount(0)?;
                let name = args
                    .get(1..)
                    .map(|w| w.join(" "))
                    .filter(|n| !n.is_empty())
                    .ok_or("`create_token` needs a token name")?;
                Effect::CreateToken {
                    token: name,
                    count,
                    who: who(PlayerRef::You)?,
                }
            }
            "set_pt" => {
                let (power, toughness) = parse_pt_change(args.first().copied())?;
                Effect::SetPt {
                    what: objref(1)?,
                    power,
                    toughness,
                }
            }
            "switch_pt" => Effect::SwitchPt(objref(0)?),
            "pump_all" => {
                let (power, toughness) = parse_pt_change(args.first().copied())?;
                Effect::PumpAll {
                    filter: ObjectFilter::legacy_parse(&args[1..])?,
                    power,
                    toughness,
                }
            }
            "sacrifice" if args.first() == Some(&"this") => Effect::SacrificeThis {
                unless_counters: key("unless_counters").map(str::parse).transpose()?,
            },
            "sacrifice" => Effect::Sacrifice {
                who: who(PlayerRef::You)?,
                filter: ObjectFilter::legacy_parse(args)?,
            },
            "exchange_life" => match objref(0)? {
                ObjRef::Target(n) => Effect::ExchangeLife(n),
                ObjRef::This | ObjRef::Subject | ObjRef::Linked => {
                    return Err("exchange_life needs a target player".into());
                }
            },
            "grant" | "grant_all" => {
                // `grant first_strike this [until=end_of_combat]`,
                // `grant_all trample creature you_control`
                let keyword = args.first().ok_or("`grant` needs a keyword")?.parse()?;
                let until = match key("until").unwrap_or("end_of_turn") {
                    "end_of_turn" => Duration::EndOfTurn,
                    "end_of_combat" => Duration::EndOfCombat,
                    other => {
                        return Err(format!(
                            "until `{other}`: expected end_of_turn or end_of_combat"
                        ));
                    }
                };
                if *verb == "grant_all" {
                    Effect::GrantAll {
                        filter: ObjectFilter::legacy_parse(&args[1..])?,
                        keyword,
                        until,
                    }
                } else {
                    Effect::Grant {
                        what: objref(1)?,
                        keyword,
                        until,
                    }
                }
            }
            "pump_all_count" => {
                // `pump_all_count basic_land_types_you_control +1/+1 creature you_control`
                let (power, toughness) = parse_pt_change(args.get(1).copied())?;
                Effect::PumpAllCount {
                    filter: ObjectFilter::legacy_parse(args.get(2..).unwrap_or(&[]))?,
                    amount: amount(0)?,
                    power,
                    toughness,
                }
            }
            "pump_count" => {
                // `pump_count attacking_creatures +1/+1 target`
                let (power, toughness) = parse_pt_change(args.get(1).copied())?;
                Effect::PumpCount {
                    what: objref(2)?,
                    amount: amount(0)?,
                    power,
                    toughness,
                }
            }
            "fight" => Effect::Fight {
                a: objref(0)?,
                b: objref(1)?,
            },
            "discard_hand_draw_that_many" => Effect::DiscardHandDrawThatMany {
                who: who(PlayerRef::You)?,
            },
            "coalition_victory" => Effect::CoalitionVictory,
            "spitting_slug" => Effect::SpittingSlug,
            "draw_reveal_discard_nonland" => Effect::DrawRevealDiscardNonland,
            "search" => Effect::Search {
                filter: ObjectFilter::legacy_parse(args)?,
                to: match key("to").unwrap_or("hand") {
                    "hand" => ZoneKind::Hand,
                    "battlefield" => ZoneKind::Battlefield,
                    "graveyard" => ZoneKind::Graveyard,
                    other => {
                        return Err(format!(
                            "search to `{other}`: expected hand, battlefield or graveyard"
                        ));
                    }
                },
                tapped: flags.contains(&"tapped"),
                then_copy: match key("then") {
                    None => false,
                    Some("become_copy") => true,
                    Some(other) => {
                        return Err(format!("search then=`{other}`: expected become_copy"));
                    }
                },
            },
            "turn_face_down" => Effect::TurnFaceDown(objref(0)?),
            "living_end" => Effect::LivingEnd,
            other => return Err(format!("unknown effect `{other}`")),
        };
        Ok(e)
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
        !matches!(
            self,
            Effect::Discard { random: false, .. }
                | Effect::Sacrifice { .. }
                | Effect::Search { .. }
                | Effect::May { .. }
                | Effect::CounterUnlessPays { .. }
                | Effect::MayPay { .. }
                | Effect::ItsControllerMay { .. }
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
            Effect::GrantFlashback(ObjRef::Target(n))
            | Effect::ExileAndReturn(ObjRef::Target(n)) => v.push(*n),
            Effect::Damage { to, .. } | Effect::DamageFrom { to, .. } => {
                for r in to {
                    match r {
                        Recipient::Target(n) => v.push(*n),
                        Recipient::Player(pr) => p(pr, &mut v),
                        Recipient::EachCreature(_) | Recipient::EachCreatureBlocking(_) => {}
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
            | Effect::ItsControllerMay { effects, .. } => {
                for e in effects {
                    v.extend(e.target_slots());
                }
            }
            Effect::Draw { who, .. }
            | Effect::Discard { who, .. }
            | Effect::GainLife { who, .. }
            | Effect::LoseLife { who, .. }
            | Effect::Mill { who, .. }
            | Effect::DiscardHandDrawThatMany { who }
            | Effect::Sacrifice { who, .. }
            | Effect::CreateToken { who, .. }
            | Effect::SkipNext { who, .. }
            | Effect::LoseAllAbilities { who, .. } => p(who, &mut v),
            Effect::Destroy {
                what: ObjRef::Target(n),
                ..
            }
            | Effect::Regenerate(ObjRef::Target(n))
            | Effect::CantRegenerate(ObjRef::Target(n))
            | Effect::ExileIfDies(ObjRef::Target(n))
            | Effect::PreventNext {
                to: Recipient::Target(n),
                ..
            }
            | Effect::Counter(ObjRef::Target(n))
            | Effect::CounterUnlessPays {
                what: ObjRef::Target(n),
                ..
            }
            | Effect::Tap(ObjRef::Target(n))
            | Effect::Untap(ObjRef::Target(n))
            | Effect::TurnFaceUp(ObjRef::Target(n))
            | Effect::PutOnTop(ObjRef::Target(n))
            | Effect::ReturnToHand(ObjRef::Target(n))
            | Effect::ExileLinked(ObjRef::Target(n))
            | Effect::ExileUntilNextEndStep(ObjRef::Target(n))
            | Effect::ReturnIfDiesThisTurn(ObjRef::Target(n))
            | Effect::BecomeCreatureType {
                what: ObjRef::Target(n),
                ..
            }
            | Effect::GainControlWhileYouControlThis(ObjRef::Target(n))
            | Effect::GainControlUntilEndOfTurn(ObjRef::Target(n))
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
            | Effect::TurnFaceDown(ObjRef::Target(n))
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
            | Effect::ExchangeLife(n) => v.push(*n),
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
            _ => {}
        }
        v
    }
}

/// `+2/+0`, `-3/+0`: a P/T change.
#[cfg(test)]
pub(crate) fn parse_pt_change(s: Option<&str>) -> Result<(i32, i32), String> {
    let pt = s.ok_or("a pump needs +P/+T")?;
    let (p, t) = pt
        .split_once('/')
        .ok_or_else(|| format!("bad P/T change `{pt}`"))?;
    let num = |x: &str| {
        x.trim_start_matches('+')
            .parse::<i32>()
            .map_err(|_| format!("bad P/T change `{pt}`"))
    };
    Ok((num(p)?, num(t)?))
}

#[cfg(test)]
fn parse_amount(s: &str) -> Result<Amount, String> {
    match s {
        "X" | "x" => Ok(Amount::X),
        "creatures_you_control" => Ok(Amount::CreaturesYouControl),
        "attacking_creatures" => Ok(Amount::AttackingCreatures),
        "basic_land_types_you_control" => Ok(Amount::BasicLandTypesYouControl),
        "blockers_beyond_first" => Ok(Amount::BlockersBeyondFirst),
        "its_power" => Ok(Amount::SubjectPower),
        "its_mana_value" => Ok(Amount::SubjectManaValue),
        "that_much" => Ok(Amount::ThatMuch),
        "target_mana_value" => Ok(Amount::TargetManaValue(0)),
        n => n
            .parse()
            .map(Amount::Fixed)
            .map_err(|_| format!("bad amount `{s}`")),
    }
}

#[cfg(test)]
fn parse_target_slot(s: &str) -> Option<u8> {
    match s {
        "target" | "target1" => Some(0),
        "target2" => Some(1),
        "target3" => Some(2),
        _ => None,
    }
}

#[cfg(test)]
fn parse_obj_ref(s: &str) -> Result<ObjRef, String> {
    if s == "this" {
        return Ok(ObjRef::This);
    }
    if s == "it" {
        return Ok(ObjRef::Subject);
    }
    if s == "linked" {
        return Ok(ObjRef::Linked);
    }
    parse_target_slot(s)
        .map(ObjRef::Target)
        .ok_or_else(|| format!("expected `this` or `target`, found `{s}`"))
}

#[cfg(test)]
fn parse_player_ref(s: &str) -> Result<PlayerRef, String> {
    Ok(match s {
        "you" => PlayerRef::You,
        "each_player" => PlayerRef::EachPlayer,
        "each_opponent" => PlayerRef::EachOpponent,
        "target_controller" => PlayerRef::TargetController(0),
        "that_player" => PlayerRef::SubjectPlayer,
        other => match parse_target_slot(other) {
            Some(n) => PlayerRef::Target(n),
            None => return Err(format!("unknown player `{other}`")),
        },
    })
}

#[cfg(test)]
fn parse_recipient(s: &str) -> Result<Recipient, String> {
    if let Some(n) = parse_target_slot(s) {
        return Ok(Recipient::Target(n));
    }
    if s == "each_creature_you_control" {
        let mut f = ObjectFilter::of_type(crate::types::CardType::Creature);
        f.controller = Some(crate::targets::Relation::You);
        return Ok(Recipient::EachCreature(f));
    }
    if s == "each_creature_blocking_it" {
        return Ok(Recipient::EachCreatureBlocking(ObjRef::Subject));
    }
    if s == "each_creature" {
        return Ok(Recipient::EachCreature(ObjectFilter::of_type(
            crate::types::CardType::Creature,
        )));
    }
    if let Some(k) = s.strip_prefix("each_creature_with:") {
        let mut f = ObjectFilter::of_type(crate::types::CardType::Creature);
        f.keyword = Some(k.parse()?);
        return Ok(Recipient::EachCreature(f));
    }
    parse_player_ref(s).map(Recipient::Player)
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

impl PreventScope {
    #[cfg(test)]
    pub(crate) fn legacy_parse(s: &str) -> Result<Self, String> {
        match s {
            "combat" => Ok(PreventScope::CombatDamage),
            "creatures_to_players" => Ok(PreventScope::CreatureDamageToPlayers),
            other => Err(format!(
                "unknown prevention scope `{other}` (combat, creatures_to_players)"
            )),
        }
    }
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
