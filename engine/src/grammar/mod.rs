//! The card script language: one grammar for the words of `scripts/*.toml`, parsed with
//! [`winnow`]. Each grammar rule below is one parser function, grouped by family:
//! [`words`] (numbers, amounts, player and object references, counter kinds, P/T changes),
//! [`filters`] (object filters, target descriptions), [`effects`] (effect lines),
//! [`events`] (trigger events, state triggers, conditions, static prevention) and
//! [`costs`]. A new word is one rule (and one line in its family's table).
//!
//! A script that doesn't follow the grammar is refused with the column and the word where
//! it went wrong and what was expected there (`column 8, at `three`: expected an amount (a
//! number, X, ...)`); the catalog adds the card's name and the line. The vocabulary types
//! the rules build live in the low floor ([`crate::effects`], [`crate::targets`],
//! [`crate::costs`], [`crate::abilities`]); this module imports nothing above it.
//!
//! The grammar (also in `engine/cards/README.md`, the reference for script authors). Words
//! are separated by spaces (`SP`); `[x]` is optional, `{x}` repeats, `|` separates
//! alternatives, quoted words are literal.
//!
//! ```text
//! (* effect lines: `effects = [...]` *)
//! effect      = may_pay | its_controller_may | may | if_main | if_kicked | if_control | punisher
//!             | sacrifice_then | step ;
//! may_pay     = "may_pay" SP mana_cost SP "&&" SP step { SP "&&" SP step } ;
//! may         = "may" SP step { SP "&&" SP step } ;
//! its_controller_may = "its_controller_may" SP step { SP "&&" SP step } ;
//! if_main     = "if_cast_in_main_phase" SP effect SP "||" SP effect ;   (* B may be "nothing" *)
//! if_kicked   = ("if_kicked" | "if_kicked_a" | "if_kicked_b") SP effect [ SP "||" SP effect ] ;
//! if_control  = "if_you_control_at_most" SP integer SP filter SP "&&" SP effect ;
//! sacrifice_then = "sacrifice" SP ("it" | "target") SP "&&" SP step { SP "&&" SP step } ;
//! step        = verb arguments { SP option } [ SP "if_spent=" colour ] ;
//!               (* one rule per verb: see `effects::simple_rule` and the README table *)
//! option      = key "=" value | flag ;
//!
//! (* the words effects are made of *)
//! amount      = integer | "X" | "creatures_you_control" | "attacking_creatures"
//!             | "basic_land_types_you_control" | "blockers_beyond_first" | "its_power"
//!             | "this_power" | "its_mana_value" | "that_much" | "target_mana_value" | "target_power"
//!             | "target_power_plus_toughness" ;
//! object      = "this" | "it" | "linked" | slot ;
//! slot        = "target" | "target1" | "target2" | "target3" ;
//! player      = "you" | "each_player" | "each_opponent" | "target_controller"
//!             | "that_player" | "chosen_player" | slot ;
//! recipient   = slot | "each_creature_you_control" | "each_creature_blocking_it"
//!             | "each_creature" | ("each_creature_with:" | "each_creature_without:") keyword | player ;
//! recipients  = recipient { "," recipient } ;
//! pt_change   = signed "/" signed ;             (* +2/+0, -3/+0, 4/4 *)
//! colours     = colour_letter { colour_letter } ;
//! counter_kind = "+1/+1" | "plus1" | "-1/-1" | "minus1" | letters ;
//!
//! (* filters and targets: `targets`, `affects`, `enchant` *)
//! filter      = { filter_word [","] } ;
//! filter_word = "or" | "permanent" | card_type | colour_name | "non" (card_type | colour)
//!             | "tapped" | "untapped" | "basic" | "attacking" | "token" | "other"
//!             | "face_down" | "with_aura" | "toughness<=" integer | "power>=" integer
//!             | "mana_value:X"
//!             | "type:" subtype
//!             | "with:" keyword | "without:" keyword
//!             | "text_changeable:" text_word | "you_control" | "opponent_controls"
//!             | "that_player_controls" ;   (* a trigger's target: Mana Skimmer *)
//! target      = ( "any" | "player" | "opponent" | "activated_or_triggered_ability"
//!               | "activated_ability" | "spell" filter
//!               | "card_in_graveyard" filter | "card_in_your_graveyard" filter
//!               | "permanent_or_suspended_card" [SP "with_time_counter"] filter
//!               | filter ) { SP chooser } ;
//! chooser     = "chosen_by_opponent" | "chosen_by_its_controller" ;
//!
//! (* triggers: `when`, `if` *)
//! event       = event_word | "state:" state | "you_cast_spell:" card_type
//!             | "becomes_tapped:" scope | "becomes_untapped:" scope
//!             | ("counters_put_on:" | "counters_removed_from:") scope [":" counter_kind]
//!             | "your_creature_with:" keyword "_attacks"
//!             | "another_your_creature_type:" subtype "_becomes_blocked" ;
//! scope       = "this" | "creature" | "your_creature" ;
//! state       = "you_control_at_least" SP integer SP filter | "you_control_no" SP filter
//!             | "you_have_no_cards_in_hand" ;
//! condition   = "no_creatures_on_battlefield" | "nothing_else_and_empty_hand"
//!             | "kicked" | "kicked_a" | "kicked_b" | "had_no_time_counters"
//!             | "tapped_and_linked" | "linked" | "cast_from_hand" ;
//! enters_with = ( integer | "other_spells_this_turn" | "you_control:" subtype ) SP counter_kind
//!               [ SP "if_kicked" ] ;
//!
//! (* costs: `cost`, `additional_cost`, `flashback`, `morph`, `kicker`, `buyback` (any case) *)
//! cost        = cost_part { "," cost_part } ;
//! cost_part   = mana_cost | "{T}" | "{Q}" | "sacrifice this" | "exile this"
//!             | "sacrifice" SP count SP filter | "discard x cards" | "discard this card"
//!             | "discard" SP count SP ("card" | "cards") [SP "at random"]
//!             | "tap" SP count SP "untapped" SP filter | "pay" SP integer SP "life"
//!             | "remove" SP count SP counter_kind SP ("counter" | "counters")
//!             | "exile" SP count SP filter SP ("card" | "cards") SP "from a graveyard"
//!             | "return" SP count SP plural_subtype SP "you control to their owner's hand"
//!             | "remove a" SP counter_kind SP "counter from a permanent you control or suspended card you own" ;
//! count       = "a" | "an" | "one" | "two" | "three" | integer ;
//! ```

pub mod costs;
pub mod effects;
pub mod events;
pub mod filters;
pub mod words;

#[cfg(test)]
mod tests;

use winnow::ascii::space1;
use winnow::combinator::{cut_err, peek};
use winnow::error::{AddContext, ErrMode, FromExternalError, ParserError};
use winnow::prelude::*;
use winnow::stream::Stream;
use winnow::token::take_while;

/// What went wrong where a rule failed: a sentence and what would have been accepted.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Problem {
    pub what: Option<String>,
    pub expected: Vec<String>,
}

/// The result of one grammar rule.
pub type PResult<O> = Result<O, ErrMode<Problem>>;

impl<'a> ParserError<&'a str> for Problem {
    type Inner = Self;
    fn from_input(_input: &&'a str) -> Self {
        Problem::default()
    }
    fn or(self, other: Self) -> Self {
        let mut expected = self.expected;
        for e in other.expected {
            if !expected.contains(&e) {
                expected.push(e);
            }
        }
        Problem {
            what: other.what.or(self.what),
            expected,
        }
    }
    fn into_inner(self) -> Result<Self, Self> {
        Ok(self)
    }
}

/// `.context("an amount")`: what was expected where the rule failed (kept when a deeper
/// rule already said more).
impl<'a> AddContext<&'a str, &'static str> for Problem {
    fn add_context(
        mut self,
        _input: &&'a str,
        _start: &<&'a str as Stream>::Checkpoint,
        context: &'static str,
    ) -> Self {
        if self.expected.is_empty() && self.what.is_none() {
            self.expected.push(context.to_string());
        }
        self
    }
}

impl<'a> FromExternalError<&'a str, String> for Problem {
    fn from_external_error(_input: &&'a str, e: String) -> Self {
        Problem {
            what: Some(e),
            expected: Vec::new(),
        }
    }
}

/// A problem found by a rule, reported at the current position and final (no other
/// alternative is tried).
pub(crate) fn fail_here<O>(what: impl Into<String>, expected: &[&str]) -> PResult<O> {
    Err(ErrMode::Cut(Problem {
        what: Some(what.into()),
        expected: expected.iter().map(|e| e.to_string()).collect(),
    }))
}

/// A problem at the start of the word the rule was reading (the input is put back there).
pub(crate) fn fail_at<'a, O>(
    i: &mut &'a str,
    start: &<&'a str as Stream>::Checkpoint,
    what: impl Into<String>,
    expected: &[&str],
) -> PResult<O> {
    i.reset(start);
    fail_here(what, expected)
}

/// Runs `rule` over the whole of `src` (surrounding spaces allowed): the value, or the
/// problem in words with its column and word.
pub fn parse_all<'a, O>(
    mut rule: impl Parser<&'a str, O, ErrMode<Problem>>,
    src: &'a str,
) -> Result<O, String> {
    let lead = src.len() - src.trim_start().len();
    let body = src.trim();
    let mut input = body;
    let res = rule.parse_next(&mut input);
    // Rules may stop inside a part of the text they read apart (a cost part): the
    // position is where the input slice starts within the text.
    let offset = (input.as_ptr() as usize)
        .saturating_sub(body.as_ptr() as usize)
        .min(body.len());
    match res {
        Ok(o) if input.is_empty() => Ok(o),
        Ok(_) => Err(describe(
            src,
            lead + offset,
            &Problem {
                what: Some("unexpected word".into()),
                expected: vec!["the end".into()],
            },
        )),
        Err(ErrMode::Backtrack(p) | ErrMode::Cut(p)) => Err(describe(src, lead + offset, &p)),
        Err(ErrMode::Incomplete(_)) => Err(describe(src, lead + offset, &Problem::default())),
    }
}

/// `column 8, at `three`: bad amount; expected a number or X`.
fn describe(src: &str, offset: usize, p: &Problem) -> String {
    let offset = offset.min(src.len());
    let col = src[..offset].chars().count() + 1;
    let at = match src[offset..].split_whitespace().next() {
        Some(w) if !src[offset..].starts_with(char::is_whitespace) => format!("at `{w}`"),
        _ => "at the end".to_string(),
    };
    let mut text = format!("column {col}, {at}");
    if let Some(w) = &p.what {
        text.push_str(": ");
        text.push_str(w);
    }
    if !p.expected.is_empty() {
        text.push_str(if p.what.is_some() {
            "; expected "
        } else {
            ": expected "
        });
        text.push_str(&p.expected.join(" or "));
    }
    if p.what.is_none() && p.expected.is_empty() {
        text.push_str(": unexpected word");
    }
    text
}

// ---------------------------------------------------------------------------------------
// Tokens shared by the rules.

/// A word: a run of characters up to the next space.
pub(crate) fn word<'a>(i: &mut &'a str) -> PResult<&'a str> {
    take_while(1.., |c: char| !c.is_whitespace()).parse_next(i)
}

/// A list item: a word up to the next space or comma.
pub(crate) fn item<'a>(i: &mut &'a str) -> PResult<&'a str> {
    take_while(1.., |c: char| !c.is_whitespace() && c != ',').parse_next(i)
}

/// The end of a word (a space, a comma or the end), not consumed.
pub(crate) fn word_end(i: &mut &str) -> PResult<()> {
    if i.is_empty() || i.starts_with(|c: char| c.is_whitespace() || c == ',') {
        Ok(())
    } else {
        Err(ErrMode::Backtrack(Problem::default()))
    }
}

/// The next word, without consuming it (None at the end or before a non-space).
pub(crate) fn next_word<'a>(i: &&'a str) -> Option<&'a str> {
    let mut probe = *i;
    peek((space1::<_, ErrMode<Problem>>, word))
        .parse_next(&mut probe)
        .ok()
        .map(|(_, w)| w)
}

/// One word of a table of fixed words: its value, or what the table accepts.
pub(crate) fn table<T: Clone>(
    what: &'static str,
    words: &'static [(&'static str, T)],
) -> impl FnMut(&mut &str) -> PResult<T> {
    move |i: &mut &str| {
        let start = i.checkpoint();
        let w = item.parse_next(i)?;
        match words.iter().find(|(k, _)| *k == w) {
            Some((_, v)) => Ok(v.clone()),
            None => {
                i.reset(&start);
                Err(ErrMode::Backtrack(Problem {
                    what: Some(format!("unknown {what} `{w}`")),
                    expected: words.iter().map(|(k, _)| k.to_string()).collect(),
                }))
            }
        }
    }
}

/// ` VALUE`: a space, then an argument the rule can't do without (`missing <what>` at the
/// end of the line or where an option starts).
pub(crate) fn arg<'a, O>(
    what: &'static str,
    mut rule: impl Parser<&'a str, O, ErrMode<Problem>>,
) -> impl FnMut(&mut &'a str) -> PResult<O> {
    move |i: &mut &'a str| {
        match next_word(i) {
            Some(w) if !is_option_word(w) && !is_line_word(w) => {}
            _ => {
                let _ = space1::<_, ErrMode<Problem>>.parse_next(i);
                return fail_here(format!("missing {what}"), &[what]);
            }
        }
        space1.parse_next(i)?;
        cut_err(rule.by_ref().context(what)).parse_next(i)
    }
}

/// A word that belongs to the line, not to the effect before it: `&&`, `||`, `if_spent=`.
pub(crate) fn is_line_word(w: &str) -> bool {
    w == "&&" || w == "||" || w.starts_with("if_spent=")
}

/// A `key=value` word.
pub(crate) fn is_option_word(w: &str) -> bool {
    w.contains('=')
        && !w.starts_with("toughness<=")
        && !w.starts_with("power>=")
        && !w.starts_with("mana_value<=")
}
