//! The pregame question of an opening hand (`Decision::PregameAction`, Gemstone Caverns:
//! "you may begin the game with it on the battlefield with a luck counter on it. If you do,
//! exile a card from your hand"), in player words:
//!
//! - `begin with Gemstone Caverns exiling Island`: do it, exiling that card;
//! - `begin with Gemstone Caverns` (or `yes`): do it, when only one card could be exiled
//!   (the Caverns alone in the hand, or cards of one name); else it asks which card;
//! - `exile Island`: the same as the first;
//! - `no`: begin without it.

use super::{
    GrammarError, Miss, labels_in, object_label, objects_from, offered_objects, pick, strip_any,
    uniq,
};
use engine::decision::Decision;
use engine::{Answer, Game, ObjectId, PlayerId};

/// The words of the answer `ids` (`Answer::Objects`) to the pregame question `decision`.
pub(super) fn describe(
    game: &Game,
    viewer: PlayerId,
    decision: Option<&Decision>,
    ids: &[ObjectId],
    among: &[ObjectId],
) -> String {
    let Some(Decision::PregameAction { card, name }) = decision else {
        return "no".into();
    };
    match ids {
        [] => "no".into(),
        [c] if c == card => format!("begin with {name}"),
        [c] => format!(
            "begin with {name} exiling {}",
            object_label(game, viewer, *c, among)
        ),
        more => format!(
            "begin with {name} exiling {}",
            more.iter()
                .map(|c| object_label(game, viewer, *c, among))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The answer the words `t` (normalised) give to the pregame question about `card`
/// (named `name`), among the `legal` answers.
pub(super) fn parse(
    game: &Game,
    player: PlayerId,
    t: &str,
    name: &str,
    legal: &[Answer],
) -> Result<Answer, GrammarError> {
    if matches!(
        t,
        "no" | "n"
            | "nothing"
            | "none"
            | "skip"
            | "pass"
            | "decline"
            | "don't"
            | "no thanks"
            | "not now"
    ) {
        return Ok(Answer::Objects(Vec::new()));
    }
    let (named, exile) = if let Some(rest) = strip_any(t, &["exile ", "exiling "]) {
        (None, Some(rest.to_string()))
    } else if matches!(t, "yes" | "y" | "ok" | "do it" | "begin") {
        (None, None)
    } else if let Some(rest) = strip_any(
        t,
        &[
            "begin the game with ",
            "begin with ",
            "start the game with ",
            "start with ",
        ],
    ) {
        let padded = format!("{rest} ");
        match padded.find(" exiling ").or_else(|| padded.find(" exile ")) {
            Some(i) => {
                let after = padded[i..]
                    .trim_start()
                    .split_once(' ')
                    .map_or("", |(_, r)| r);
                (Some(rest[..i].to_string()), Some(after.trim().to_string()))
            }
            None => (Some(rest.to_string()), None),
        }
    } else {
        return Err(GrammarError::Unknown {
            said: t.to_string(),
            hint: format!(
                "say `begin with {name} exiling CARD` (a card of your hand to exile) or `no`"
            ),
        });
    };
    if let Some(said) = named.filter(|n| !n.trim().is_empty())
        && let Err(Miss::None | Miss::Ambiguous(_)) = pick(&said, &[(name.to_string(), ())])
    {
        return Err(GrammarError::NoMatch {
            what: "card you may begin the game with".into(),
            said,
            options: vec![name.to_string()],
        });
    }
    let ids = offered_objects(legal);
    match exile.filter(|e| !e.is_empty()) {
        Some(e) => match objects_from(game, player, &e, legal)?.as_slice() {
            [one] => Ok(Answer::Objects(vec![*one])),
            _ => Err(GrammarError::Refused(
                "exile exactly one card from your hand".into(),
            )),
        },
        None => {
            let labels = uniq(labels_in(game, player, &ids, legal).into_iter());
            match (labels.len(), ids.first()) {
                (1, Some(first)) => Ok(Answer::Objects(vec![*first])),
                _ => Err(GrammarError::Needs {
                    card: name.to_string(),
                    what: format!(
                        "a card to exile from your hand (add `exiling CARD`: `begin with {name} exiling {}`)",
                        labels.first().map_or("CARD", String::as_str)
                    ),
                    options: labels,
                }),
            }
        }
    }
}
