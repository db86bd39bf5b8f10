//! Effect lines: `damage 3 to=target`, `may draw 1`, `sacrifice it && damage 4 to=...`.
//!
//! A line is a compound form or one `step`: a verb, its arguments in order, then options
//! (`key=value` words and flags, in any order). Each verb is one rule, listed in
//! [`RULES`] by family; the options a verb takes are listed with it.

use super::filters::filter_after;
use super::words::{
    amount, colour_letter, colour_name, counter_kind, is_object_word, keyword, natural, object,
    player, pt_change, recipient, recipients,
};
use super::{PResult, Problem, arg, fail_at, fail_here, is_line_word, item, next_word, word};
use crate::effects::{Amount, Duration, Effect, ObjRef, PlayerRef, PreventScope, Recipient};
use crate::keywords::Keyword;
use crate::mana::{ColorSet, ManaCost};
use crate::object::CounterKind;
use crate::steps::SkipKind;
use crate::types::TextWord;
use crate::zones::ZoneKind;
use winnow::ascii::space1;
use winnow::combinator::{cut_err, separated};
use winnow::error::ErrMode;
use winnow::prelude::*;
use winnow::stream::Stream;
use winnow::token::{literal, one_of, take_while};

// ---------------------------------------------------------------------------------------
// Lines.

/// `effect`: one effect line.
pub fn effect(i: &mut &str) -> PResult<Effect> {
    let start = i.checkpoint();
    match word.parse_next(i)? {
        "may_pay" => may_pay(i),
        "may" => may(i).map(|(effects, text)| Effect::May { effects, text }),
        "its_controller_may" => {
            may(i).map(|(effects, text)| Effect::ItsControllerMay { effects, text })
        }
        "if_cast_in_main_phase" => if_cast_in_main_phase(i),
        "any_player_may_take_damage" => any_player_may_take_damage(i),
        "if_kicked" => if_kicked(i, None),
        "if_kicked_a" => if_kicked(i, Some(0)),
        "if_kicked_b" => if_kicked(i, Some(1)),
        "if_you_control_at_most" => if_you_control_at_most(i),
        "if_activated_this_turn" => if_activated_this_turn(i),
        "may_sacrifice" => may_sacrifice(i),
        "any_player_may_sacrifice" => any_player_may_sacrifice(i),
        "sacrifice_or_else" => sacrifice_or_else(i),
        "unless_pays" => unless_pays(i),
        "name_card_reveal_random" => name_card_reveal_random(i),
        _ => {
            i.reset(&start);
            sacrifice_then(i)
        }
    }
}

/// `may_pay`: "you may pay {B}. If you do, ...".
fn may_pay(i: &mut &str) -> PResult<Effect> {
    let cost = arg("a mana cost", mana_cost).parse_next(i)?;
    let at = after_spaces(i);
    let effects = chain(i)?;
    if effects.is_empty() || effects.iter().any(|e| !e.is_choiceless()) {
        *i = at;
        return fail_here(
            "`may_pay COST && EFFECT...` takes effects that ask nothing more",
            &["&& EFFECT"],
        );
    }
    Ok(Effect::MayPay { cost, effects })
}

/// `may` (and `its_controller_may`): the effects and the question's text (the first
/// effect as written, `_` as spaces).
fn may(i: &mut &str) -> PResult<(Vec<Effect>, String)> {
    let (first, text) = arg("an effect", step.with_taken()).parse_next(i)?;
    let mut effects = vec![first];
    effects.extend(chain(i)?);
    // "You may sacrifice ~. If you do, ...": the effects after it happen only if it was
    // sacrificed (Safe Haven).
    if let [Effect::SacrificeThen { what, then }, rest @ ..] = effects.as_slice()
        && then.is_empty()
        && !rest.is_empty()
    {
        if rest.iter().any(|e| !e.is_choiceless()) {
            return fail_here(
                "`may sacrifice this && EFFECT...` takes effects that ask nothing more",
                &[],
            );
        }
        effects = vec![Effect::SacrificeThen {
            what: *what,
            then: rest.to_vec(),
        }];
    }
    let asks = |e: &Effect| {
        matches!(
            e,
            Effect::Discard { random: false, .. }
                | Effect::Sacrifice { .. }
                | Effect::ReturnChosen(_)
                | Effect::Search { .. }
                | Effect::May { .. }
                | Effect::CounterUnlessPays { .. }
        )
    };
    // "You may scry 2", "you may fateseal 1", "you may search your library for ...": one
    // effect that asks, alone (declined, nothing is searched and nothing is shuffled).
    let lone_scry = matches!(effects.as_slice(), [Effect::Scry(_) | Effect::Fateseal(_)]);
    if matches!(effects.as_slice(), [Effect::Search { .. }]) {
        return Ok((effects, text.trim().replace('_', " ")));
    }
    if effects.iter().any(asks)
        || (!lone_scry
            && effects
                .iter()
                .any(|e| matches!(e, Effect::Scry(_) | Effect::Fateseal(_))))
    {
        return fail_here("`may` takes effects that ask nothing more", &[]);
    }
    Ok((effects, text.trim().replace('_', " ")))
}

/// `unless_pays = "unless_pays" SP (mana_cost | integer "_life") SP "&&" SP step {...}`:
/// "EFFECTS unless you pay COST" (Drifter il-Dal, Sangrophage).
fn unless_pays(i: &mut &str) -> PResult<Effect> {
    let (mana, life) = arg("a cost: {U} or 2_life", pay_cost).parse_next(i)?;
    let after = after_spaces(i);
    let effects = chain(i)?;
    if effects.is_empty() || effects.iter().any(|e| !e.is_choiceless()) {
        *i = after;
        return fail_here(
            "`unless_pays COST && EFFECT...` takes effects that ask nothing more",
            &["&& EFFECT"],
        );
    }
    Ok(Effect::UnlessPays {
        mana,
        life,
        effects,
    })
}

/// The ` || EFFECT` that ends an effect with an alternative; `usage` says what it is for
/// when it is missing.
fn or_else(i: &mut &str, usage: &str) -> PResult<Effect> {
    if next_word(i) != Some("||") {
        let _ = space1::<_, ErrMode<Problem>>.parse_next(i);
        return fail_here(usage, &["|| EFFECT"]);
    }
    (space1, literal("||")).parse_next(i)?;
    arg("an effect", effect).parse_next(i)
}

/// `if_main`: `A || B`, B what happens otherwise.
fn if_cast_in_main_phase(i: &mut &str) -> PResult<Effect> {
    let then = arg("an effect", effect).parse_next(i)?;
    let otherwise = or_else(
        i,
        "`if_cast_in_main_phase A || B`: B is what happens otherwise",
    )?;
    Ok(Effect::IfCastInMainPhase {
        then: Box::new(then),
        otherwise: Box::new(otherwise),
    })
}

/// `any_player_may_take_damage N || B`: B happens if no player takes the damage (Browbeat).
fn any_player_may_take_damage(i: &mut &str) -> PResult<Effect> {
    let at = after_spaces(i);
    let amount = arg("an amount of damage", amount).parse_next(i)?;
    let Amount::Fixed(amount @ 1..) = amount else {
        *i = at;
        return fail_here("a number of damage", &["a number"]);
    };
    let otherwise = or_else(
        i,
        "`any_player_may_take_damage N || B`: B is what happens if no one does",
    )?;
    Ok(Effect::AnyPlayerMayTakeDamage {
        amount: amount as u32,
        otherwise: Box::new(otherwise),
    })
}

/// `if_kicked`: `A [|| B]`, B what happens otherwise (502.21b / 702.32); `if_kicked_a` and
/// `if_kicked_b` name the first and second printed kicker costs (502.21d).
fn if_kicked(i: &mut &str, which: Option<u8>) -> PResult<Effect> {
    let then = arg("an effect", effect).parse_next(i)?;
    let otherwise = if next_word(i) == Some("||") {
        (space1, literal("||")).parse_next(i)?;
        Some(Box::new(arg("an effect", effect).parse_next(i)?))
    } else {
        None
    };
    Ok(Effect::IfKicked {
        which,
        then: Box::new(then),
        otherwise,
    })
}

/// `if_control = "if_you_control_at_most" SP integer SP filter SP "&&" SP effect`: "if you
/// control four or fewer lands, ..." (Edge of Autumn), checked as it resolves.
fn if_you_control_at_most(i: &mut &str) -> PResult<Effect> {
    let at_most = arg("a number", super::words::natural).parse_next(i)?;
    let filter = super::filters::filter_after(&[]).parse_next(i)?;
    if next_word(i) != Some("&&") {
        return fail_here(
            "`if_you_control_at_most N FILTER` needs `&& EFFECT`",
            &["&& EFFECT"],
        );
    }
    (space1, literal("&&")).parse_next(i)?;
    let then = arg("an effect", effect).parse_next(i)?;
    Ok(Effect::IfYouControlAtMost {
        at_most,
        filter,
        then: Box::new(then),
    })
}

/// `if_activated = "if_activated_this_turn" SP integer SP "&&" SP effect`: "if this ability
/// has been activated N or more times this turn, ..." (Dragon Whelp).
fn if_activated_this_turn(i: &mut &str) -> PResult<Effect> {
    let times = arg("a number", super::words::natural).parse_next(i)?;
    if next_word(i) != Some("&&") {
        return fail_here(
            "`if_activated_this_turn N` needs `&& EFFECT`",
            &["&& EFFECT"],
        );
    }
    (space1, literal("&&")).parse_next(i)?;
    let then = arg("an effect", effect).parse_next(i)?;
    Ok(Effect::IfActivatedThisTurn {
        times,
        then: Box::new(then),
    })
}

/// `sacrifice_then`, or a `step` alone: "sacrifice it. If you do, ...".
fn sacrifice_then(i: &mut &str) -> PResult<Effect> {
    let e = step.parse_next(i)?;
    let Effect::SacrificeThen { what, then } = e else {
        return Ok(e);
    };
    let at = after_spaces(i);
    let mut then = then;
    then.extend(chain(i)?);
    if then
        .iter()
        .any(|e| !e.is_choiceless() && e.target_slots().is_empty())
    {
        *i = at;
        return fail_here(
            "`sacrifice it && EFFECT...` takes effects that ask nothing more",
            &[],
        );
    }
    Ok(Effect::SacrificeThen { what, then })
}

/// `may_sacrifice FILTER [who=PLAYER] [n=N] && EFFECT...`: "that player may sacrifice a
/// <filter>. If the player does, ..." (Curse of the Cabal); `n=2`: "you may sacrifice two
/// Islands" (Leviathan).
fn may_sacrifice(i: &mut &str) -> PResult<Effect> {
    let filter = filter_after(&[]).parse_next(i)?;
    let o = options(i, "may_sacrifice", &[WHO, SACRIFICE_COUNT])?;
    let at = after_spaces(i);
    let then = chain(i)?;
    if then.is_empty() || then.iter().any(|e| !e.is_choiceless()) {
        *i = at;
        return fail_here(
            "`may_sacrifice FILTER && EFFECT...` takes effects that ask nothing more",
            &["&& EFFECT"],
        );
    }
    Ok(Effect::MaySacrificeThen {
        who: o.player("who").unwrap_or(PlayerRef::You),
        filter,
        count: o.number("n").unwrap_or(1),
        then,
    })
}

/// `any_player_may_sacrifice FILTER && EFFECT...`: "any player may sacrifice a <filter>. If
/// a player does, ..." (Brain Gorgers: `any_player_may_sacrifice creature && counter this`).
fn any_player_may_sacrifice(i: &mut &str) -> PResult<Effect> {
    let filter = filter_after(&[]).parse_next(i)?;
    options(i, "any_player_may_sacrifice", &[])?;
    let at = after_spaces(i);
    let then = chain(i)?;
    if then.is_empty() || then.iter().any(|e| !e.is_choiceless()) {
        *i = at;
        return fail_here(
            "`any_player_may_sacrifice FILTER && EFFECT...` takes effects that ask nothing more",
            &["&& EFFECT"],
        );
    }
    Ok(Effect::AnyPlayerMaySacrifice { filter, then })
}

/// `sacrifice_or_else FILTER && EFFECT...`: "sacrifice a <filter>. If you can't, ..."
/// (Liege of the Pit).
fn sacrifice_or_else(i: &mut &str) -> PResult<Effect> {
    let filter = filter_after(&[]).parse_next(i)?;
    options(i, "sacrifice_or_else", &[])?;
    let at = after_spaces(i);
    let otherwise = chain(i)?;
    if otherwise.is_empty() || otherwise.iter().any(|e| !e.is_choiceless()) {
        *i = at;
        return fail_here(
            "`sacrifice_or_else FILTER && EFFECT...` takes effects that ask nothing more",
            &["&& EFFECT"],
        );
    }
    Ok(Effect::SacrificeOrElse { filter, otherwise })
}

/// `name_card_reveal_random [who=PLAYER] && ( discard_revealed | EFFECT {&& EFFECT} )`:
/// "choose a card name, then <player> reveals a card at random from their hand. If that card
/// has the chosen name, ..." (Magus of the Scroll); `discard_revealed`: "that player discards
/// it" (Dementia Sliver).
fn name_card_reveal_random(i: &mut &str) -> PResult<Effect> {
    let o = options(i, "name_card_reveal_random", &[WHO])?;
    let who = o.player("who").unwrap_or(PlayerRef::You);
    let at = after_spaces(i);
    if let Some(rest) = at
        .strip_prefix("&& discard_revealed")
        .filter(|r| r.is_empty() || r.starts_with(' '))
    {
        *i = rest;
        return Ok(Effect::NameCardRevealRandom {
            who,
            then: Vec::new(),
            discard: true,
        });
    }
    let then = chain(i)?;
    if then.is_empty()
        || then
            .iter()
            .any(|e| !e.is_choiceless() && e.target_slots().is_empty())
    {
        *i = at;
        return fail_here(
            "`name_card_reveal_random && EFFECT...` takes `discard_revealed` or effects that ask nothing more",
            &["&& discard_revealed", "&& EFFECT"],
        );
    }
    Ok(Effect::NameCardRevealRandom {
        who,
        then,
        discard: false,
    })
}

/// `{ SP "&&" SP step }`.
fn chain(i: &mut &str) -> PResult<Vec<Effect>> {
    let mut out = Vec::new();
    while next_word(i) == Some("&&") {
        (space1, literal("&&")).parse_next(i)?;
        out.push(arg("an effect", step).parse_next(i)?);
    }
    Ok(out)
}

/// `step`: one verb with its arguments and options, maybe `if_spent=C`.
pub fn step(i: &mut &str) -> PResult<Effect> {
    let start = i.checkpoint();
    let verb = word.parse_next(i)?;
    let Some((verb, rule)) = RULES.iter().find(|(v, _)| *v == verb) else {
        let mut known: Vec<&str> = RULES.iter().map(|(v, _)| *v).collect();
        known.sort_unstable();
        return fail_at(i, &start, format!("unknown effect `{verb}`"), &known);
    };
    let e = rule(i, verb)?;
    match next_word(i) {
        Some(w) if w.starts_with("if_spent=") => {
            (space1, literal("if_spent=")).parse_next(i)?;
            let color = cut_err(colour_name).parse_next(i)?;
            Ok(Effect::IfSpent {
                color,
                effect: Box::new(e),
            })
        }
        _ => Ok(e),
    }
}

/// The cost of `unless_pays`: `2_life` (N > 0) or a mana cost.
fn pay_cost(i: &mut &str) -> PResult<(Option<ManaCost>, u32)> {
    winnow::combinator::alt((
        winnow::combinator::terminated(winnow::ascii::dec_uint::<_, u32, _>, "_life")
            .verify(|n: &u32| *n > 0)
            .map(|n| (None, n)),
        mana_cost.map(|m| (Some(m), 0)),
    ))
    .parse_next(i)
}

/// `mana_cost` in a line: `{2}{G}`.
fn mana_cost(i: &mut &str) -> PResult<ManaCost> {
    take_while(1.., |c: char| !c.is_whitespace())
        .try_map(str::parse::<ManaCost>)
        .parse_next(i)
}

// ---------------------------------------------------------------------------------------
// Options: `key=value` words and flags after a verb's arguments.

/// What an option's value is.
#[derive(Clone, Copy)]
enum Value {
    Flag,
    Player,
    Recipients,
    Recipient,
    Object,
    Amount,
    Number,
    Pt,
    Keywords,
    Counter,
    /// One of these words.
    Word(&'static [&'static str]),
}

/// An option a verb takes: its key and its value (`shape` is how the README writes it).
#[derive(Clone, Copy)]
struct Opt {
    key: &'static str,
    shape: &'static str,
    value: Value,
}

const WHO: Opt = Opt {
    key: "who",
    shape: "who=PLAYER",
    value: Value::Player,
};
const RANDOM: Opt = Opt {
    key: "random",
    shape: "random",
    value: Value::Flag,
};
const NO_REGEN: Opt = Opt {
    key: "no_regen",
    shape: "no_regen",
    value: Value::Flag,
};
const TAPPED: Opt = Opt {
    key: "tapped",
    shape: "tapped",
    value: Value::Flag,
};
const TO_RECIPIENTS: Opt = Opt {
    key: "to",
    shape: "to=RECIPIENT[,RECIPIENT]",
    value: Value::Recipients,
};
const TO_RECIPIENT: Opt = Opt {
    key: "to",
    shape: "to=RECIPIENT",
    value: Value::Recipient,
};
const TO_OBJECT: Opt = Opt {
    key: "to",
    shape: "to=OBJECT",
    value: Value::Object,
};
const TO_ZONE: Opt = Opt {
    key: "to",
    shape: "to=hand|battlefield|graveyard",
    value: Value::Word(&["hand", "battlefield", "graveyard"]),
};
const FROM: Opt = Opt {
    key: "from",
    shape: "from=OBJECT",
    value: Value::Object,
};
const UP_TO: Opt = Opt {
    key: "up_to",
    shape: "up_to=N",
    value: Value::Number,
};
/// "Onto the battlefield under target player's control" (Yavimaya Dryad's search).
const UNDER: Opt = Opt {
    key: "under",
    shape: "under=PLAYER",
    value: Value::Player,
};
const TOKEN_PT: Opt = Opt {
    key: "pt",
    shape: "pt=AMOUNT",
    value: Value::Amount,
};
const N: Opt = Opt {
    key: "n",
    shape: "n=AMOUNT",
    value: Value::Amount,
};
const SACRIFICE_COUNT: Opt = Opt {
    key: "n",
    shape: "n=N",
    value: Value::Number,
};
const PAY: Opt = Opt {
    key: "pay",
    shape: "pay=N",
    value: Value::Number,
};
const UNLESS_PAYS: Opt = Opt {
    key: "unless_pays",
    shape: "unless_pays=N|X",
    value: Value::Amount,
};
const LOCK_SOURCE: Opt = Opt {
    key: "lock_source",
    shape: "lock_source",
    value: Value::Flag,
};
const UNLESS_COUNTERS: Opt = Opt {
    key: "unless_counters",
    shape: "unless_counters=KIND",
    value: Value::Counter,
};
const BASE: Opt = Opt {
    key: "base",
    shape: "base=P/T",
    value: Value::Pt,
};
/// `forever`: Opal Guardian's "becomes a 3/4 Gargoyle creature" (no duration, no other type).
const FOREVER: Opt = Opt {
    key: "forever",
    shape: "forever",
    value: Value::Flag,
};
/// `unpreventable`: "The damage can't be prevented" (Volcano Hellion).
const UNPREVENTABLE: Opt = Opt {
    key: "unpreventable",
    shape: "unpreventable",
    value: Value::Flag,
};
const STILL_LAND: Opt = Opt {
    key: "still_land",
    shape: "still_land",
    value: Value::Flag,
};

const KEYWORDS: Opt = Opt {
    key: "keywords",
    shape: "keywords=KEYWORD[,KEYWORD]",
    value: Value::Keywords,
};
const UNTIL_TURN_OR_COMBAT: Opt = Opt {
    key: "until",
    shape: "until=end_of_turn|end_of_combat",
    value: Value::Word(&["end_of_turn", "end_of_combat"]),
};
const UNTIL_THIS_LEAVES: Opt = Opt {
    key: "until",
    shape: "until=this_leaves",
    value: Value::Word(&["this_leaves"]),
};
const THEN: Opt = Opt {
    key: "then",
    shape: "then=become_copy",
    value: Value::Word(&["become_copy"]),
};

/// A parsed option value.
enum Val {
    Flag,
    Player(PlayerRef),
    Recipients(Vec<Recipient>),
    Recipient(Recipient),
    Object(ObjRef),
    Amount(Amount),
    Number(u32),
    Pt((i32, i32)),
    Keywords(Vec<Keyword>),
    Counter(CounterKind),
    Word(&'static str),
}

/// The options given to one verb.
#[derive(Default)]
struct Options(Vec<(&'static str, Val)>);

impl Options {
    fn get(&self, key: &str) -> Option<&Val> {
        self.0.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }
    fn flag(&self, key: &str) -> bool {
        self.get(key).is_some()
    }
    fn player(&self, key: &str) -> Option<PlayerRef> {
        match self.get(key) {
            Some(Val::Player(p)) => Some(*p),
            _ => None,
        }
    }
    fn object(&self, key: &str) -> Option<ObjRef> {
        match self.get(key) {
            Some(Val::Object(o)) => Some(*o),
            _ => None,
        }
    }
    fn amount(&self, key: &str) -> Option<Amount> {
        match self.get(key) {
            Some(Val::Amount(a)) => Some(a.clone()),
            _ => None,
        }
    }
    fn number(&self, key: &str) -> Option<u32> {
        match self.get(key) {
            Some(Val::Number(n)) => Some(*n),
            _ => None,
        }
    }
    fn word(&self, key: &str) -> Option<&'static str> {
        match self.get(key) {
            Some(Val::Word(w)) => Some(w),
            _ => None,
        }
    }
    fn take(&mut self, key: &str) -> Option<Val> {
        let at = self.0.iter().position(|(k, _)| *k == key)?;
        Some(self.0.remove(at).1)
    }
}

/// `{ SP option }` for `verb`, which takes the options `allowed`.
fn options(i: &mut &str, verb: &str, allowed: &[Opt]) -> PResult<Options> {
    let mut out = Options::default();
    let shapes: Vec<&str> = allowed.iter().map(|o| o.shape).collect();
    while let Some(w) = next_word(i) {
        if is_line_word(w) {
            break;
        }
        space1.parse_next(i)?;
        let start = i.checkpoint();
        let key = take_while(1.., |c: char| c != '=' && !c.is_whitespace()).parse_next(i)?;
        let has_value = i.starts_with('=');
        let Some(opt) = allowed.iter().find(|o| o.key == key) else {
            let what = if shapes.is_empty() {
                format!("`{verb}` takes nothing more, found `{w}`")
            } else {
                format!("`{w}` is not an option of `{verb}`")
            };
            return fail_at(i, &start, what, &shapes);
        };
        if out.get(key).is_some() {
            return fail_at(i, &start, format!("`{key}` is given twice"), &[]);
        }
        let val = match (opt.value, has_value) {
            (Value::Flag, false) => Val::Flag,
            (Value::Flag, true) => {
                return fail_at(
                    i,
                    &start,
                    format!("`{key}` is a flag: no `=`"),
                    &[opt.shape],
                );
            }
            (_, false) => {
                return fail_at(i, &start, format!("`{key}` needs a value"), &[opt.shape]);
            }
            (value, true) => {
                '='.parse_next(i)?;
                cut_err(option_value(value).context(opt.shape)).parse_next(i)?
            }
        };
        out.0.push((opt.key, val));
    }
    Ok(out)
}

/// The value of an option, by its kind.
fn option_value(value: Value) -> impl FnMut(&mut &str) -> PResult<Val> {
    move |i: &mut &str| {
        Ok(match value {
            Value::Flag => Val::Flag,
            Value::Player => Val::Player(player(i)?),
            Value::Recipients => Val::Recipients(recipients(i)?),
            Value::Recipient => Val::Recipient(recipient(i)?),
            Value::Object => Val::Object(object(i)?),
            Value::Amount => Val::Amount(amount(i)?),
            Value::Number => Val::Number(natural(i)?),
            Value::Pt => Val::Pt(pt_change(i)?),
            Value::Keywords => Val::Keywords(separated(1.., cut_err(keyword), ',').parse_next(i)?),
            Value::Counter => Val::Counter(counter_kind(i)?),
            Value::Word(words) => {
                let start = i.checkpoint();
                let w = item.parse_next(i)?;
                match words.iter().find(|x| **x == w) {
                    Some(x) => Val::Word(x),
                    None => return fail_at(i, &start, format!("unknown value `{w}`"), words),
                }
            }
        })
    }
}

/// A verb's rule: the verb has been read; the rule reads its arguments and options.
type Rule = fn(&mut &str, &'static str) -> PResult<Effect>;

/// Every verb, by family. A new verb is one line here and one rule below.
pub const RULES: &[(&str, Rule)] = &[
    // damage and life
    ("damage", damage),
    ("damage_any_amount", damage_any_amount),
    ("damage_divided", no_args),
    ("gain", player_amount),
    ("lose", player_amount),
    ("poison", poison),
    ("exchange_life", exchange_life),
    ("fight", fight),
    (
        "lose_at_next_draw_unless_pays",
        lose_at_next_draw_unless_pays,
    ),
    // prevention and regeneration
    ("prevent_next", prevent_next),
    (
        "prevent_next_from_chosen_source",
        prevent_next_from_chosen_source,
    ),
    ("prevent_all", prevent_all),
    ("prevent_combat_damage_from", one_object),
    ("prevent_combat_damage_to_and_from", one_object),
    ("redirect_next_from_this", redirect_next_from_this),
    ("attach", attach),
    ("return_to_battlefield_attached", attach),
    ("regenerate", one_object),
    ("regenerate_all", one_filter),
    ("cant_regenerate", one_object),
    // zones: destroy, exile, return, bounce, sacrifice
    ("destroy", destroy),
    ("destroy_all", destroy_all),
    ("exile", one_object),
    ("put_into_graveyard", one_object),
    ("exile_all", one_filter),
    ("exile_if_dies", one_object),
    ("exile_haunting", one_object),
    ("exile_linked", one_object),
    ("exile_until_next_end_step", one_object),
    ("exile_and_return", one_object),
    ("return_to_hand", one_object),
    ("return_chosen", one_filter),
    ("return_to_battlefield", one_object),
    ("return_to_battlefield_tapped", one_object),
    ("return_to_battlefield_under_your_control", one_object),
    (
        "return_to_battlefield_under_your_control_with_type",
        return_with_type,
    ),
    ("return_linked_to_battlefield", no_args),
    ("exile_hand_face_down", who_only),
    ("discard_hands_and_return_linked_at_next_end_step", no_args),
    ("return_at_next_end_step", one_object),
    ("return_exiled_card_named", return_exiled_card_named),
    ("return_if_dies_this_turn", one_object),
    ("put_on_top", one_object),
    ("sacrifice", sacrifice),
    ("sacrifice_unless_pays", sacrifice_unless_pays),
    ("living_end", no_args),
    ("put_from_hand", put_from_hand),
    ("put_from_hand_in_turn", put_from_hand),
    // the stack
    ("counter", counter),
    ("change_target", one_object),
    ("change_target_to_this", one_object),
    // counters and tokens
    ("put_counter", put_counter),
    ("put_counter_each", put_counter_each),
    ("remove_counter", remove_counter),
    ("remove_all_counters", remove_all_counters),
    ("link_while_tapped", one_object),
    ("unlink", no_args),
    ("remove_or_add_counter", remove_or_add_counter),
    ("may_remove_or_add_time_counter", remove_or_add_counter),
    ("remove_time_counters_each", time_counters_each),
    ("counter_into_suspend", into_suspend),
    ("suspend_exiled_card", suspend_exiled_card),
    ("exile_into_suspend", into_suspend),
    ("put_time_counters_each", time_counters_each),
    ("create_token", create_token),
    ("create_chosen_token", create_chosen_token),
    // library and hand: draw, discard, mill, search
    ("draw", player_amount),
    ("draw_up_to", draw_up_to),
    ("discard", player_amount),
    ("mill", player_amount),
    ("search", search),
    ("reveal_for_x", one_filter),
    ("reveal_top_to_hand_if", one_filter),
    ("reveal_top", no_args),
    ("reveal_top_piles", reveal_top_piles),
    ("search_graveyard_hand_library_same_name_as_it", no_args),
    ("reveal_top_namesake_to_graveyard_else_draw", no_args),
    ("prevent_divided", no_args),
    ("reveal_for_chroma", reveal_for_chroma),
    ("discard_hand_draw_that_many", who_only),
    ("discard_hand", who_only),
    ("choose_number_destroy_and_discard", who_only),
    ("sacrifice_half", who_only),
    ("shuffle_graveyard_into_library", who_only),
    ("shuffle_target_cards_into_library", who_only),
    ("exile_graveyard", who_only),
    ("search_exile_play_until_next_upkeep", who_only),
    ("extra_turn", who_only),
    ("reveal_random_damage", who_only),
    ("choose_revealed_to_bottom", who_only),
    ("draw_reveal_discard_nonland", no_args),
    ("scry", scry),
    ("reorder_top", scry),
    ("exile_random_from_top", exile_random_from_top),
    ("sacrifice_at_next_end_step", one_object),
    ("destroy_at_end_of_combat", one_object),
    ("destroy_when_this_leaves_this_turn", destroy),
    ("destroy_this_and_blocked_at_end_of_combat", no_args),
    ("fateseal", scry),
    // continuous effects: pump, set, grant, become (layers)
    ("pump", pt_object),
    ("set_pt", pt_object),
    ("switch_pt", one_object),
    ("set_base_power_or_toughness", set_base_power_or_toughness),
    ("pump_all", pump_all),
    ("pump_count", pump_count),
    ("pump_all_count", pump_all_count),
    ("grant", grant),
    ("grant_all", grant),
    ("lose_keyword", lose_keyword),
    ("grant_flashback", one_object),
    ("copy_spell", one_object),
    ("gain_control_of_spell", one_object),
    ("gain_control", one_object),
    ("pact_upkeep", pact_upkeep),
    ("become_creature_type", become_creature_type),
    ("become_land_type", become_land_type),
    ("become_color", become_color),
    ("become_creature", become_creature),
    ("become_creature_all", become_creature_all),
    ("lose_all_abilities", lose_all_abilities),
    ("change_text", change_text),
    // control and status
    ("gain_control_until_end_of_turn", one_object),
    ("gain_control_while_you_control_this", one_object),
    ("tap", one_object),
    ("tap_all", one_filter),
    ("balance_sacrifice", one_filter),
    ("balance_discard", no_args),
    ("untap", one_object),
    ("untap_each_target", no_args),
    ("may_tap_or_untap", one_object),
    ("remove_from_combat", one_object),
    ("doesnt_untap_next", one_object),
    ("turn_face_up", one_object),
    ("turn_face_down", one_object),
    // turns and the game
    ("skip_next", skip_next),
    ("win", no_args),
    ("add_mana", add_mana),
    ("creatures_unblockable_this_turn", no_args),
    ("creatures_cant_attack_you_until_your_next_turn", no_args),
    ("cant_lose_this_turn", no_args),
    ("extra_upkeep_step", no_args),
    ("life_floor_until_end_of_turn", no_args),
    ("nothing", no_args),
    ("coalition_victory", no_args),
    ("spitting_slug", no_args),
];

// ---------------------------------------------------------------------------------------
// Shapes shared by several verbs.

/// `VERB` alone.
fn no_args(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    options(i, verb, &[])?;
    Ok(match verb {
        "damage_divided" => Effect::DamageDivided,
        "prevent_divided" => Effect::PreventDivided,
        "reveal_top" => Effect::RevealTop(None),
        "untap_each_target" => Effect::UntapEachTarget,
        "search_graveyard_hand_library_same_name_as_it" => Effect::SearchZonesForSameNameAsIt,
        "reveal_top_namesake_to_graveyard_else_draw" => {
            Effect::RevealTopNamesakeToGraveyardElseDraw
        }
        "return_linked_to_battlefield" => Effect::ReturnLinkedToBattlefield,
        "discard_hands_and_return_linked_at_next_end_step" => {
            Effect::DiscardHandsReturnLinkedAtNextEndStep
        }
        "living_end" => Effect::LivingEnd,
        "draw_reveal_discard_nonland" => Effect::DrawRevealDiscardNonland,
        "win" => Effect::WinGame,
        "balance_discard" => Effect::BalanceDiscard,
        "creatures_unblockable_this_turn" => Effect::CreaturesUnblockableThisTurn,
        "creatures_cant_attack_you_until_your_next_turn" => Effect::CreaturesCantAttackYou,
        "cant_lose_this_turn" => Effect::CantLoseThisTurn,
        "extra_upkeep_step" => Effect::ExtraUpkeep,
        "life_floor_until_end_of_turn" => Effect::LifeFloorUntilEndOfTurn,
        "nothing" => Effect::Nothing,
        "unlink" => Effect::Unlink,
        "coalition_victory" => Effect::CoalitionVictory,
        "destroy_this_and_blocked_at_end_of_combat" => Effect::DestroyThisAndBlockedAtEndOfCombat,
        _ => Effect::SpittingSlug,
    })
}

/// `suspend_exiled_card N`: Jhoira of the Ghitu's "put N time counters on the exiled card;
/// if it doesn't have suspend, it gains suspend".
fn suspend_exiled_card(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let n = arg("a number", super::words::natural).parse_next(i)?;
    options(i, verb, &[])?;
    Ok(Effect::SuspendCostExiled(n))
}

/// `poison N [who=P]`: "<who> gets N poison counters" (Swamp Mosquito).
fn poison(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let amount = arg("a number", natural).parse_next(i)?;
    let o = options(i, verb, &[WHO])?;
    Ok(Effect::Poison {
        amount,
        who: o.player("who").unwrap_or(PlayerRef::You),
    })
}

/// `sacrifice_unless_pays COST`: "sacrifice ~ unless you pay COST" (the rest of the line is
/// the cost: mana, `sacrifice a type:Pegasus`, `discard a card`).
fn sacrifice_unless_pays(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let _ = verb;
    let cost = arg(
        "a cost",
        take_while(1.., |_: char| true).try_map(crate::costs::Cost::parse),
    )
    .parse_next(i)?;
    Ok(Effect::SacrificeThisUnlessPays { cost })
}

/// `add_mana {R}{R}{R}`: "add {R}{R}{R}" (Coal Stoker): coloured and colourless symbols
/// ({C}, or a number of colourless).
fn add_mana(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    use crate::mana::{ManaSymbol, ManaType};
    let cost = arg("mana to add: {R}{R}{R}", mana_cost).parse_next(i)?;
    let mut mana = Vec::new();
    for s in &cost.symbols {
        match s {
            ManaSymbol::Colored(c) => mana.push(ManaType::Colored(*c)),
            ManaSymbol::Generic(n) => mana.extend((0..*n).map(|_| ManaType::Colorless)),
            _ => return fail_here("fixed mana: {R}, {C}, {2}", &["{R}{R}{R}"]),
        }
    }
    if mana.is_empty() {
        return fail_here("some mana to add", &["{R}{R}{R}"]);
    }
    options(i, verb, &[])?;
    Ok(Effect::AddMana(mana))
}

/// `pact_upkeep COST`: the pact's "at the beginning of your next upkeep, pay COST".
fn pact_upkeep(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let cost = arg("a mana cost", mana_cost).parse_next(i)?;
    options(i, verb, &[])?;
    Ok(Effect::PactUpkeep(cost))
}

/// `VERB OBJECT`.
fn one_object(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let what = arg("an object (this, it, linked, target)", object).parse_next(i)?;
    options(i, verb, &[])?;
    let make: fn(ObjRef) -> Effect = match verb {
        "prevent_combat_damage_from" => Effect::PreventCombatDamageFrom,
        "prevent_combat_damage_to_and_from" => Effect::PreventCombatDamageToAndFrom,
        "regenerate" => Effect::Regenerate,
        "cant_regenerate" => Effect::CantRegenerate,
        "exile" => Effect::Exile,
        "put_into_graveyard" => Effect::PutIntoGraveyard,
        "exile_if_dies" => Effect::ExileIfDies,
        "exile_haunting" => Effect::ExileHaunting,
        "exile_linked" => Effect::ExileLinked,
        "exile_until_next_end_step" => Effect::ExileUntilNextEndStep,
        "exile_and_return" => Effect::ExileAndReturn,
        "return_to_hand" => Effect::ReturnToHand,
        "return_to_battlefield" => Effect::ReturnToBattlefield,
        "return_to_battlefield_tapped" => Effect::ReturnToBattlefieldTapped,
        "return_to_battlefield_under_your_control" => Effect::ReturnToBattlefieldUnderYourControl,
        "return_at_next_end_step" => Effect::ReturnAtNextEndStep,
        "sacrifice_at_next_end_step" => Effect::SacrificeAtNextEndStep,
        "destroy_at_end_of_combat" => Effect::DestroyAtEndOfCombat,
        "return_if_dies_this_turn" => Effect::ReturnIfDiesThisTurn,
        "put_on_top" => Effect::PutOnTop,
        "link_while_tapped" => Effect::LinkWhileTapped,
        "switch_pt" => Effect::SwitchPt,
        "grant_flashback" => Effect::GrantFlashback,
        "copy_spell" => Effect::CopySpell,
        "gain_control_of_spell" => Effect::GainControlOfSpell,
        "gain_control" => Effect::GainControl,
        "gain_control_until_end_of_turn" => Effect::GainControlUntilEndOfTurn,
        "gain_control_while_you_control_this" => Effect::GainControlWhileYouControlThis,
        "tap" => Effect::Tap,
        "untap" => Effect::Untap,
        "may_tap_or_untap" => Effect::MayTapOrUntap,
        "remove_from_combat" => Effect::RemoveFromCombat,
        "doesnt_untap_next" => Effect::DoesntUntapNext,
        "turn_face_up" => Effect::TurnFaceUp,
        "change_target" => Effect::ChangeTarget,
        "change_target_to_this" => Effect::ChangeTargetToThis,
        _ => Effect::TurnFaceDown,
    };
    Ok(make(what))
}

/// `VERB FILTER`.
fn one_filter(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let filter = filter_after(&[]).parse_next(i)?;
    options(i, verb, &[])?;
    Ok(match verb {
        "regenerate_all" => Effect::RegenerateAll(filter),
        "tap_all" => Effect::TapAll(filter),
        "balance_sacrifice" => Effect::BalanceSacrifice(filter),
        "reveal_for_x" => Effect::RevealForX(filter),
        "reveal_top_to_hand_if" => Effect::RevealTop(Some(filter)),
        "return_chosen" => Effect::ReturnChosen(filter),
        _ => Effect::ExileAll(filter),
    })
}

/// `VERB AMOUNT [who=PLAYER]` (+ `random` for discard): draw, discard, gain, lose, mill.
fn player_amount(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let amount = arg("an amount", amount).parse_next(i)?;
    let allowed: &[Opt] = if verb == "discard" {
        &[WHO, RANDOM]
    } else {
        &[WHO]
    };
    let o = options(i, verb, allowed)?;
    let who = o.player("who").unwrap_or(PlayerRef::You);
    Ok(match verb {
        "draw" => Effect::Draw { amount, who },
        "discard" => Effect::Discard {
            amount,
            who,
            random: o.flag("random"),
        },
        "gain" => Effect::GainLife { amount, who },
        "lose" => Effect::LoseLife { amount, who },
        _ => Effect::Mill { amount, who },
    })
}

/// `scry AMOUNT`, `fateseal AMOUNT` (701.18 / 701.19, `keywords/scry.rs`).
fn scry(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let amount = arg("an amount", amount).parse_next(i)?;
    options(i, verb, &[])?;
    Ok(match verb {
        "scry" => Effect::Scry(amount),
        "reorder_top" => Effect::ReorderTop(amount),
        _ => Effect::Fateseal(amount),
    })
}

/// `exile_random_from_top N M`: "look at the top N cards of your library; exile M of them
/// at random" (Orcish Librarian).
fn exile_random_from_top(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let look = arg("an amount", amount).parse_next(i)?;
    let exile = arg("an amount", amount).parse_next(i)?;
    options(i, verb, &[])?;
    Ok(Effect::ExileRandomFromTop { look, exile })
}

/// `put_from_hand FILTER [who=PLAYER]` (Braids, Conjurer Adept) and
/// `put_from_hand_in_turn FILTER` (Hypergenesis): a player may put a FILTER card from their
/// hand onto the battlefield; in turn, starting with you, until no one does.
fn put_from_hand(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let filter = filter_after(&[]).parse_next(i)?;
    if verb == "put_from_hand_in_turn" {
        options(i, verb, &[])?;
        return Ok(Effect::PutFromHandInTurn(filter));
    }
    let o = options(i, verb, &[WHO])?;
    let who = o.player("who").unwrap_or(PlayerRef::You);
    Ok(Effect::PutFromHand { filter, who })
}

/// `VERB [who=PLAYER]`.
fn who_only(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let o = options(i, verb, &[WHO])?;
    let who = o.player("who").unwrap_or(PlayerRef::You);
    Ok(match verb {
        "extra_turn" => Effect::ExtraTurn { who },
        "discard_hand" => Effect::DiscardHand { who },
        "exile_hand_face_down" => Effect::ExileHandFaceDown { who },
        "choose_number_destroy_and_discard" => Effect::VoidNumber { who },
        "sacrifice_half" => Effect::SacrificeHalf { who },
        "shuffle_graveyard_into_library" => Effect::ShuffleGraveyardIntoLibrary { who },
        "shuffle_target_cards_into_library" => Effect::ShuffleTargetCardsIntoLibrary { who },
        "exile_graveyard" => Effect::ExileGraveyard { who },
        "search_exile_play_until_next_upkeep" => Effect::SearchExilePlayable { who },
        "reveal_random_damage" => Effect::RevealRandomDamage(who),
        "choose_revealed_to_bottom" => Effect::ChooseRevealedToBottom(who),
        _ => Effect::DiscardHandDrawThatMany { who },
    })
}

/// `VERB P/T OBJECT`: pump, set_pt.
fn pt_object(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let (power, toughness) = arg("a P/T change", pt_change).parse_next(i)?;
    let what = arg("an object", object).parse_next(i)?;
    options(i, verb, &[])?;
    Ok(if verb == "pump" {
        Effect::Pump {
            what,
            power,
            toughness,
        }
    } else {
        Effect::SetPt {
            what,
            power,
            toughness,
        }
    })
}

/// `set_base_power_or_toughness N OBJECT`: "until end of turn, <object> has base power N or
/// base toughness N" (Vhati il-Dal): the controller chooses which as it resolves.
fn set_base_power_or_toughness(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let value = arg("a number", natural).parse_next(i)?;
    let what = arg("an object", object).parse_next(i)?;
    options(i, verb, &[])?;
    Ok(Effect::SetBasePowerOrToughness {
        what,
        value: value as i32,
    })
}

/// The input past the spaces ahead (where the next word starts), to report a problem at
/// that word once it has been read.
fn after_spaces<'a>(i: &&'a str) -> &'a str {
    i.trim_start()
}

/// A required option that is missing, reported where the options ended.
fn missing<O>(verb: &str, opt: Opt) -> PResult<O> {
    fail_here(format!("`{verb}` needs {}", opt.shape), &[opt.shape])
}

// ---------------------------------------------------------------------------------------
// Damage and life.

/// `damage AMOUNT to=RECIPIENTS [from=OBJECT]`.
fn damage(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let amount = arg("an amount", amount).parse_next(i)?;
    let mut o = options(i, verb, &[TO_RECIPIENTS, FROM])?;
    let Some(Val::Recipients(to)) = o.take("to") else {
        return missing(verb, TO_RECIPIENTS);
    };
    Ok(match o.object("from") {
        None => Effect::Damage { amount, to },
        Some(source) => Effect::DamageFrom { source, amount, to },
    })
}

/// `damage_any_amount to=RECIPIENTS [unpreventable]`: "~ deals an amount of damage of your
/// choice to <recipients>" (Volcano Hellion), the amount chosen as it resolves;
/// `unpreventable`: "The damage can't be prevented."
fn damage_any_amount(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let mut o = options(i, verb, &[TO_RECIPIENTS, UNPREVENTABLE])?;
    let unpreventable = o.flag("unpreventable");
    let Some(Val::Recipients(to)) = o.take("to") else {
        return missing(verb, TO_RECIPIENTS);
    };
    Ok(Effect::DamageAnyAmount { to, unpreventable })
}

/// `draw_up_to N [who=PLAYER]`: "<player> may draw up to N cards" (Shah of Naar Isle: each
/// opponent chooses 0 to N in turn order).
fn draw_up_to(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let max = arg("a number", natural).parse_next(i)?;
    let o = options(i, verb, &[WHO])?;
    Ok(Effect::DrawUpTo {
        max,
        who: o.player("who").unwrap_or(PlayerRef::You),
    })
}

/// `exchange_life SLOT` (a target player).
fn exchange_life(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let at = after_spaces(i);
    let what = arg("a target player", object).parse_next(i)?;
    let ObjRef::Target(n) = what else {
        *i = at;
        return fail_here("exchange_life needs a target player", &["target"]);
    };
    options(i, verb, &[])?;
    Ok(Effect::ExchangeLife(n))
}

/// `fight OBJECT OBJECT`.
fn fight(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let a = arg("an object", object).parse_next(i)?;
    let b = arg("an object", object).parse_next(i)?;
    options(i, verb, &[])?;
    Ok(Effect::Fight { a, b })
}

/// `lose_at_next_draw_unless_pays 1..4 pay=N [who=PLAYER]` (Glass Asp).
fn lose_at_next_draw_unless_pays(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let at = after_spaces(i);
    let lose = arg("an amount of life (1 to 4)", amount).parse_next(i)?;
    let Amount::Fixed(lose @ 1..=4) = lose else {
        *i = at;
        return fail_here("lose 1 to 4 life", &["1, 2, 3 or 4"]);
    };
    let o = options(i, verb, &[PAY, WHO])?;
    let Some(pay) = o.number("pay") else {
        return missing(verb, PAY);
    };
    Ok(Effect::LoseAtNextDrawUnlessPays {
        lose: lose as u32,
        pay,
        who: o.player("who").unwrap_or(PlayerRef::SubjectPlayer),
    })
}

// ---------------------------------------------------------------------------------------
// Prevention.

/// `prevent_next AMOUNT to=RECIPIENT`.
fn prevent_next(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let amount = arg("an amount", amount).parse_next(i)?;
    let mut o = options(i, verb, &[TO_RECIPIENT])?;
    let Some(Val::Recipient(to)) = o.take("to") else {
        return missing(verb, TO_RECIPIENT);
    };
    Ok(Effect::PreventNext { amount, to })
}

const RED_SOURCE_DAMAGES_CONTROLLER: Opt = Opt {
    key: "red_source_damages_controller",
    shape: "red_source_damages_controller",
    value: Value::Flag,
};

/// `prevent_next_from_chosen_source OBJECT [red_source_damages_controller]` (Honorable
/// Passage).
fn prevent_next_from_chosen_source(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let to = arg("an object (target)", object).parse_next(i)?;
    let o = options(i, verb, &[RED_SOURCE_DAMAGES_CONTROLLER])?;
    Ok(Effect::PreventNextFromChosenSource {
        to,
        reflect_red: o.flag("red_source_damages_controller"),
    })
}

const PREVENT_SCOPES: &[(&str, PreventScope)] = &[
    ("combat", PreventScope::CombatDamage),
    (
        "creatures_to_players",
        PreventScope::CreatureDamageToPlayers,
    ),
];

/// `prevent_all combat|creatures_to_players`.
fn prevent_all(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let scope = arg(
        "a prevention scope",
        super::table("prevention scope", PREVENT_SCOPES),
    )
    .parse_next(i)?;
    options(i, verb, &[])?;
    Ok(Effect::PreventAll(scope))
}

/// `redirect_next_from_this N to=OBJECT`.
fn redirect_next_from_this(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let amount = arg("a number", natural).parse_next(i)?;
    let o = options(i, verb, &[TO_OBJECT])?;
    let Some(to) = o.object("to") else {
        return missing(verb, TO_OBJECT);
    };
    Ok(Effect::RedirectNextFromThis { amount, to })
}

/// `reveal_for_chroma COLOUR` (chroma, `keywords/chroma.rs`): X = that colour's mana
/// symbols in the mana costs of the cards revealed from the hand.
fn reveal_for_chroma(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let c = arg("a colour letter (W U B R G)", colour_letter).parse_next(i)?;
    options(i, verb, &[])?;
    Ok(Effect::RevealChroma(c))
}

/// `attach OBJECT to=OBJECT` (equip, fortify: `keywords/equip.rs`) and
/// `return_to_battlefield_attached OBJECT to=OBJECT` (Sword of the Meek: from its owner's
/// graveyard to the battlefield, then attached).
fn attach(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let what = arg("an object (this, it, linked, target)", object).parse_next(i)?;
    let o = options(i, verb, &[TO_OBJECT])?;
    let Some(to) = o.object("to") else {
        return missing(verb, TO_OBJECT);
    };
    Ok(if verb == "attach" {
        Effect::Attach { what, to }
    } else {
        Effect::ReturnAttached { what, to }
    })
}

// ---------------------------------------------------------------------------------------
// Zones.

/// `destroy OBJECT [no_regen]`.
fn destroy(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let what = arg("an object", object).parse_next(i)?;
    let o = options(i, verb, &[NO_REGEN])?;
    let regen = !o.flag("no_regen");
    Ok(match verb {
        "destroy_when_this_leaves_this_turn" => {
            Effect::DestroyWhenThisLeavesThisTurn { what, regen }
        }
        _ => Effect::Destroy { what, regen },
    })
}

/// `destroy_all FILTER [no_regen]`.
fn destroy_all(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let filter = filter_after(&["no_regen"]).parse_next(i)?;
    let o = options(i, verb, &[NO_REGEN])?;
    Ok(Effect::DestroyAll {
        filter,
        regen: !o.flag("no_regen"),
    })
}

/// `sacrifice this [unless_counters=KIND]` | `sacrifice it|target` | `sacrifice FILTER
/// [who=PLAYER]`.
fn sacrifice(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    match next_word(i) {
        Some("this") => {
            (space1, literal("this")).parse_next(i)?;
            let mut o = options(i, verb, &[UNLESS_COUNTERS])?;
            let unless_counters = match o.take("unless_counters") {
                Some(Val::Counter(k)) => Some(k),
                _ => None,
            };
            // "Sacrifice ~. If you do, ...": `sacrifice this && EFFECT...` (Safe Haven).
            if unless_counters.is_none() && next_word(i) == Some("&&") {
                return Ok(Effect::SacrificeThen {
                    what: ObjRef::This,
                    then: Vec::new(),
                });
            }
            Ok(Effect::SacrificeThis { unless_counters })
        }
        Some("enchanted") => {
            // "Enchanted permanent's controller sacrifices it" (Reality Acid).
            let what = arg("an object", object).parse_next(i)?;
            Ok(Effect::ItsControllerSacrifices(what))
        }
        Some("it" | "target") => {
            let what = arg("an object", object).parse_next(i)?;
            Ok(Effect::SacrificeThen {
                what,
                then: Vec::new(),
            })
        }
        _ => {
            let filter = filter_after(&[]).parse_next(i)?;
            let o = options(i, verb, &[WHO, N])?;
            Ok(Effect::Sacrifice {
                who: o.player("who").unwrap_or(PlayerRef::You),
                filter,
                count: o.amount("n").unwrap_or(Amount::Fixed(1)),
            })
        }
    }
}

/// `counter OBJECT [unless_pays=N]`.
fn counter(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let what = arg("an object", object).parse_next(i)?;
    let o = options(i, verb, &[UNLESS_PAYS, LOCK_SOURCE])?;
    Ok(match o.amount("unless_pays") {
        None if o.flag("lock_source") => Effect::CounterLockingSource(what),
        None => Effect::Counter(what),
        Some(generic) => Effect::CounterUnlessPays { what, generic },
    })
}

// ---------------------------------------------------------------------------------------
// Counters and tokens.

/// `put_counter KIND OBJECT [n=AMOUNT]`.
fn put_counter(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let kind = arg("a counter kind", counter_kind).parse_next(i)?;
    let what = arg("an object", object).parse_next(i)?;
    let o = options(i, verb, &[N])?;
    Ok(Effect::PutCounters {
        kind,
        count: o.amount("n").unwrap_or(Amount::Fixed(1)),
        what,
    })
}

/// `remove_counter KIND OBJECT [n=AMOUNT]` (a permanent, or a card in exile: suspend).
fn remove_counter(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let kind = arg("a counter kind", counter_kind).parse_next(i)?;
    let what = arg("an object", object).parse_next(i)?;
    let o = options(i, verb, &[N])?;
    // "Remove a counter from it. If you do, ...": the effects after `&&`.
    let at = after_spaces(i);
    let then = chain(i)?;
    if then
        .iter()
        .any(|e| !e.is_choiceless() && e.target_slots().is_empty())
    {
        *i = at;
        return fail_here(
            "`remove_counter KIND WHAT && EFFECT...` takes effects that ask nothing more",
            &[],
        );
    }
    Ok(Effect::RemoveCounters {
        kind,
        count: o.amount("n").unwrap_or(Amount::Fixed(1)),
        what,
        then,
    })
}

/// `remove_all_counters KIND OBJECT`.
fn remove_all_counters(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let kind = arg("a counter kind", counter_kind).parse_next(i)?;
    let what = arg("an object", object).parse_next(i)?;
    options(i, verb, &[])?;
    Ok(Effect::RemoveAllCounters { kind, what })
}

/// `remove_or_add_counter OBJECT` (Clockspinning: any kind, chosen as it resolves) and
/// `may_remove_or_add_time_counter OBJECT` (Jhoira's Timebug: a time counter, or neither).
fn remove_or_add_counter(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let what = arg("an object", object).parse_next(i)?;
    options(i, verb, &[])?;
    Ok(Effect::RemoveOrAddCounter {
        what,
        time_only: verb == "may_remove_or_add_time_counter",
    })
}

/// `remove_time_counters_each AMOUNT` / `put_time_counters_each AMOUNT` (Dust of Moments:
/// each permanent (with a time counter) and each suspended card).
fn time_counters_each(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let count = arg("an amount", amount).parse_next(i)?;
    options(i, verb, &[])?;
    Ok(Effect::TimeCountersEach {
        put: verb == "put_time_counters_each",
        count,
    })
}

/// `counter_into_suspend OBJECT N` (Delay: counter the spell, exile it with N time counters
/// and it gains suspend) and `exile_into_suspend OBJECT N` (Epochrasite: the card, from its
/// graveyard).
fn into_suspend(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let what = arg("an object", object).parse_next(i)?;
    let time = arg("a number of time counters", natural).parse_next(i)?;
    options(i, verb, &[])?;
    Ok(Effect::IntoSuspend {
        what,
        time,
        counter: verb == "counter_into_suspend",
    })
}

/// `put_counter_each KIND FILTER`.
fn put_counter_each(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let kind = arg("a counter kind", counter_kind).parse_next(i)?;
    let filter = filter_after(&[]).parse_next(i)?;
    options(i, verb, &[])?;
    Ok(Effect::PutCounterEach { kind, filter })
}

/// `create_token AMOUNT NAME [who=PLAYER] [pt=AMOUNT]`: the token's name may have spaces.
fn create_token(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let count = arg("an amount", amount).parse_next(i)?;
    let name = arg("a token name", plain_words).parse_next(i)?;
    let o = options(i, verb, &[WHO, TOKEN_PT])?;
    Ok(Effect::CreateToken {
        token: name.join(" "),
        count,
        who: o.player("who").unwrap_or(PlayerRef::You),
        pt: o.amount("pt"),
    })
}

/// `reveal_top_piles N`: Truth or Tale's piles (`resolve/piles.rs`).
fn reveal_top_piles(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let n = arg("an amount", amount).parse_next(i)?;
    options(i, verb, &[])?;
    Ok(Effect::RevealTopPiles(n))
}

/// `return_exiled_card_named NAME`: "return an exiled card named NAME to the battlefield
/// under its owner's control" (the loader checks the name is a card's).
fn return_exiled_card_named(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let name = arg("a card name", plain_words).parse_next(i)?;
    options(i, verb, &[])?;
    Ok(Effect::ReturnExiledCardNamed(name.join(" ")))
}

/// Words up to the first option, `&&`, `||`, `if_spent=` or the end (at least one).
/// `create_chosen_token NAME,NAME,...`: one token name per option chosen as it entered.
fn create_chosen_token(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let names = arg("token names joined by commas", word).parse_next(i)?;
    options(i, verb, &[])?;
    Ok(Effect::CreateChosenToken(
        names.split(',').map(str::to_string).collect(),
    ))
}

fn plain_words<'a>(i: &mut &'a str) -> PResult<Vec<&'a str>> {
    let mut out = vec![word.parse_next(i)?];
    while let Some(w) = next_word(i) {
        if super::is_option_word(w) || is_line_word(w) {
            break;
        }
        space1.parse_next(i)?;
        out.push(word.parse_next(i)?);
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// Library.

/// `search FILTER [to=hand|battlefield|graveyard] [tapped] [then=become_copy] [up_to=N]
/// [under=PLAYER]`.
fn search(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let filter = filter_after(&["tapped"]).parse_next(i)?;
    let o = options(i, verb, &[TO_ZONE, TAPPED, THEN, UP_TO, UNDER])?;
    Ok(Effect::Search {
        up_to: o.number("up_to").unwrap_or(1),
        filter,
        to: match o.word("to") {
            Some("battlefield") => ZoneKind::Battlefield,
            Some("graveyard") => ZoneKind::Graveyard,
            _ => ZoneKind::Hand,
        },
        tapped: o.flag("tapped"),
        then_copy: o.word("then").is_some(),
        under: o.player("under"),
    })
}

// ---------------------------------------------------------------------------------------
// Continuous effects.

/// `pump_all P/T FILTER`.
fn pump_all(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let (power, toughness) = arg("a P/T change", pt_change).parse_next(i)?;
    let filter = filter_after(&[]).parse_next(i)?;
    options(i, verb, &[])?;
    Ok(Effect::PumpAll {
        filter,
        power,
        toughness,
    })
}

/// `become_creature_all P/T FILTER [who=P]`: each such permanent P controls (default: you).
fn become_creature_all(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let (power, toughness) = arg("a P/T", pt_change).parse_next(i)?;
    let filter = filter_after(&[]).parse_next(i)?;
    let o = options(i, verb, &[WHO])?;
    Ok(Effect::BecomeCreatureAll {
        filter,
        who: o.player("who").unwrap_or(PlayerRef::You),
        power,
        toughness,
    })
}

/// `pump_count AMOUNT P/T OBJECT`.
fn pump_count(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let amount = arg("an amount", amount).parse_next(i)?;
    let (power, toughness) = arg("a P/T change", pt_change).parse_next(i)?;
    let what = arg("an object", object).parse_next(i)?;
    options(i, verb, &[])?;
    Ok(Effect::PumpCount {
        what,
        amount,
        power,
        toughness,
    })
}

/// `pump_all_count AMOUNT P/T FILTER`.
fn pump_all_count(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let amount = arg("an amount", amount).parse_next(i)?;
    let (power, toughness) = arg("a P/T change", pt_change).parse_next(i)?;
    let filter = filter_after(&[]).parse_next(i)?;
    options(i, verb, &[])?;
    Ok(Effect::PumpAllCount {
        filter,
        amount,
        power,
        toughness,
    })
}

/// `grant KEYWORD OBJECT [until=...]`, `grant_all KEYWORD FILTER [until=...]`.
fn grant(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let keyword = arg("a keyword", keyword).parse_next(i)?;
    if verb == "grant_all" {
        let filter = filter_after(&[]).parse_next(i)?;
        let o = options(i, verb, &[UNTIL_TURN_OR_COMBAT])?;
        return Ok(Effect::GrantAll {
            filter,
            keyword,
            until: turn_or_combat(&o),
        });
    }
    let what = arg("an object", object).parse_next(i)?;
    let o = options(i, verb, &[UNTIL_TURN_OR_COMBAT, FOREVER])?;
    // `forever`: "<it> gains K" with no duration (Maelstrom Djinn's vanishing).
    let until = if o.flag("forever") {
        Duration::Indefinite
    } else {
        turn_or_combat(&o)
    };
    Ok(Effect::Grant {
        what,
        keyword,
        until,
    })
}

/// `lose_keyword K OBJECT`: "<object> loses K until end of turn" (Goblin Skycutter).
fn lose_keyword(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let keyword = arg("a keyword", keyword).parse_next(i)?;
    let what = arg("an object", object).parse_next(i)?;
    options(i, verb, &[])?;
    Ok(Effect::LoseKeyword { what, keyword })
}

fn turn_or_combat(o: &Options) -> Duration {
    match o.word("until") {
        Some("end_of_combat") => Duration::EndOfCombat,
        _ => Duration::EndOfTurn,
    }
}

/// `{ SP word } SP object`: words (at least `min`) and then the object they apply to.
fn words_then_object<'a>(
    i: &mut &'a str,
    what: &'static str,
    min: usize,
) -> PResult<(Vec<&'a str>, ObjRef)> {
    let mut words = Vec::new();
    // `become_creature`'s flags end the words too.
    let ends = |n: &str| {
        super::is_option_word(n) || is_line_word(n) || n == "forever" || n == "still_land"
    };
    while let Some(w) = next_word(i) {
        if ends(w) {
            break;
        }
        let mut probe = *i;
        (space1, word).parse_next(&mut probe)?;
        let last = next_word(&probe).is_none_or(ends);
        if is_object_word(w) && last && words.len() >= min {
            let what = arg("an object", object).parse_next(i)?;
            return Ok((words, what));
        }
        space1.parse_next(i)?;
        words.push(word.parse_next(i)?);
    }
    if words.len() < min {
        return fail_here(format!("missing {what}"), &[what]);
    }
    fail_here(
        "missing what it applies to",
        &["an object (this, it, linked, target)"],
    )
}

/// `become_creature_type SUBTYPE {SUBTYPE} OBJECT`.
fn become_creature_type(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let (types, what) = words_then_object(i, "a creature type", 1)?;
    options(i, verb, &[])?;
    Ok(Effect::BecomeCreatureType {
        what,
        types: types.iter().map(|t| t.to_string()).collect(),
    })
}

/// `return_to_battlefield_under_your_control_with_type CREATURE_TYPE OBJECT`.
fn return_with_type(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let (types, what) = words_then_object(i, "a creature type", 1)?;
    options(i, verb, &[])?;
    Ok(Effect::ReturnUnderYourControlWithType {
        what,
        creature_type: types.first().map_or_else(String::new, |t| t.to_string()),
    })
}

/// `become_land_type BASIC_LAND_TYPE {..} OBJECT [until=this_leaves]`.
fn become_land_type(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let start = *i;
    let (types, what) = words_then_object(i, "a basic land type", 1)?;
    if let Some(t) = types
        .iter()
        .find(|t| !crate::types::BASIC_LAND_TYPES.iter().any(|(n, _)| n == *t))
    {
        // `t` is a slice of the line: the problem is reported at it.
        *i = &start[(t.as_ptr() as usize - start.as_ptr() as usize)..];
        return fail_here(
            format!("`{t}` is not a basic land type"),
            &["Plains, Island, Swamp, Mountain or Forest"],
        );
    }
    let o = options(i, verb, &[UNTIL_THIS_LEAVES])?;
    Ok(Effect::BecomeLandType {
        what,
        types: types.iter().map(|t| t.to_string()).collect(),
        until_source_leaves: o.word("until").is_some(),
    })
}

/// `become_color COLOURS OBJECT`.
fn become_color(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    // `C`: "becomes colorless" (Blazing Blade Askari).
    let colors = arg("colours, e.g. W, or C", creature_colours).parse_next(i)?;
    let what = arg("an object", object).parse_next(i)?;
    let o = options(i, verb, &[FOREVER])?;
    Ok(Effect::BecomeColor {
        what,
        colors,
        forever: o.flag("forever"),
    })
}

/// Colour letters for a creature, `C` for colourless.
fn creature_colours(i: &mut &str) -> PResult<ColorSet> {
    let letter = winnow::combinator::alt((one_of('C').map(|_| None), colour_letter.map(Some)));
    (
        winnow::combinator::repeat(1.., letter).fold(
            || ColorSet::NONE,
            |mut s, c| {
                if let Some(c) = c {
                    s.insert(c);
                }
                s
            },
        ),
        super::word_end,
    )
        .map(|(s, _)| s)
        .parse_next(i)
}

/// `become_creature P/T COLOURS {SUBTYPE} OBJECT [keywords=K,K]`.
fn become_creature(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let (power, toughness) = arg("a P/T", pt_change).parse_next(i)?;
    let colors = arg("colours (or C)", creature_colours).parse_next(i)?;
    let (subtypes, what) = words_then_object(i, "a creature type", 0)?;
    let mut o = options(i, verb, &[KEYWORDS, FOREVER, STILL_LAND])?;
    let keywords = match o.take("keywords") {
        Some(Val::Keywords(k)) => k,
        _ => Vec::new(),
    };
    let still_land = o.flag("still_land");
    if still_land && colors != ColorSet::NONE {
        return fail_here(
            "`still_land` keeps its colours: write the colours as C",
            &["become_creature 2/2 C target forever still_land"],
        );
    }
    Ok(Effect::BecomeCreature {
        what,
        power,
        toughness,
        colors,
        subtypes: subtypes.iter().map(|s| s.to_string()).collect(),
        keywords,
        forever: o.flag("forever"),
        still_land,
    })
}

/// `lose_all_abilities FILTER [who=PLAYER] [base=P/T]`.
fn lose_all_abilities(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let filter = filter_after(&[]).parse_next(i)?;
    let mut o = options(i, verb, &[WHO, BASE])?;
    let base = match o.take("base") {
        Some(Val::Pt(pt)) => Some(pt),
        _ => None,
    };
    Ok(Effect::LoseAllAbilities {
        filter,
        who: o.player("who").unwrap_or(PlayerRef::EachPlayer),
        base,
    })
}

/// `text_word`: a colour word or a basic land type.
fn text_word(i: &mut &str) -> PResult<TextWord> {
    item.try_map(str::parse::<TextWord>).parse_next(i)
}

/// `change_text FROM TO OBJECT` (colour word for colour word, land type for land type).
fn change_text(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let from = arg("a colour word or basic land type", text_word).parse_next(i)?;
    let at = after_spaces(i);
    let to = arg("a colour word or basic land type", text_word).parse_next(i)?;
    if std::mem::discriminant(&from) != std::mem::discriminant(&to) {
        *i = at;
        return fail_here(
            "`change_text` replaces a colour word with a colour word, or a basic land type with a basic land type",
            &[],
        );
    }
    let what = arg("an object", object).parse_next(i)?;
    options(i, verb, &[])?;
    Ok(Effect::ChangeText { what, from, to })
}

// ---------------------------------------------------------------------------------------
// Turns.

const SKIPS: &[(&str, SkipKind)] = &[
    ("turn", SkipKind::Turn),
    ("untap", SkipKind::UntapStep),
    ("upkeep", SkipKind::UpkeepStep),
    ("draw", SkipKind::DrawStep),
];

/// `skip_next turn|untap|upkeep|draw [who=PLAYER]`.
fn skip_next(i: &mut &str, verb: &'static str) -> PResult<Effect> {
    let what = arg("turn, untap, upkeep or draw", super::table("step", SKIPS)).parse_next(i)?;
    let o = options(i, verb, &[WHO])?;
    Ok(Effect::SkipNext {
        what,
        who: o.player("who").unwrap_or(PlayerRef::You),
    })
}
