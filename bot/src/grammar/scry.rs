//! Cards looked at and put back on top in any order (`Decision::Scry` with `top_only`:
//! Sage of Epityr's "look at the top N cards of your library, then put them back in any
//! order"): `top Swamp, Island, Forest` puts them back in that order (the first listed on
//! top); naming only the first few puts the rest under them as they were; `top` (or
//! `keep`) leaves them as they are. Nothing may go to the bottom.

use super::{GrammarError, pick_in, split_list, uniq};
use engine::decision::Decision;
use engine::{Answer, Game, ObjectId, PlayerId};

/// The answer the words `t` (normalised) give: the order on top.
pub(super) fn top_only_answer(
    game: &Game,
    player: PlayerId,
    t: &str,
    cards: &[ObjectId],
    names: &[String],
) -> Result<Answer, GrammarError> {
    let hint = || GrammarError::Unknown {
        said: t.to_string(),
        hint: format!(
            "these cards all go back on top, in the order you choose: say `top {}` (the first on top) or `top` to leave them as they are",
            names.join(", ")
        ),
    };
    if matches!(
        t,
        "top" | "keep" | "top all" | "all top" | "all on top" | "as is"
    ) {
        return Ok(Answer::Scry {
            top: cards.to_vec(),
            bottom: Vec::new(),
        });
    }
    if t.contains("bottom") {
        return Err(hint());
    }
    let rest = t
        .strip_prefix("top ")
        .or_else(|| t.strip_prefix("order "))
        .unwrap_or(t)
        .trim();
    let mut cands: Vec<(String, ObjectId)> =
        names.iter().cloned().zip(cards.iter().copied()).collect();
    let mut top = Vec::new();
    for name in split_list(rest) {
        let id =
            pick_in(game, player, &name, &cands, "card you are looking at").map_err(|_| hint())?;
        top.push(id);
        if let Some(i) = cands.iter().position(|(_, o)| *o == id) {
            cands.remove(i);
        }
    }
    if top.is_empty() {
        return Err(hint());
    }
    // The cards not named stay under the named ones, in the order they were.
    top.extend(cands.into_iter().map(|(_, id)| id));
    Ok(Answer::Scry {
        top,
        bottom: Vec::new(),
    })
}

/// For a put-back-on-top question of `player` about up to four cards: every order, as
/// `top A, B, C` (the menus then reach each one); None otherwise.
pub(super) fn top_only_orders(game: &Game, player: PlayerId) -> Option<Vec<String>> {
    let p = game.pending().filter(|p| p.player == player)?;
    let Decision::Scry {
        names,
        top_only: true,
        ..
    } = &p.decision
    else {
        return None;
    };
    if names.is_empty() || names.len() > 4 {
        return None;
    }
    let mut out = Vec::new();
    permute(
        &mut (0..names.len()).collect::<Vec<usize>>(),
        0,
        &mut |order| {
            let v: Vec<&str> = order.iter().map(|i| names[*i].as_str()).collect();
            out.push(format!("top {}", v.join(", ")));
        },
    );
    Some(uniq(out.into_iter()))
}

/// Calls `f` with every order of `v[k..]` after `v[..k]` (swapping each in turn to
/// position `k`; the first order is `v` itself).
fn permute(v: &mut [usize], k: usize, f: &mut dyn FnMut(&[usize])) {
    if k == v.len() {
        f(v);
        return;
    }
    for i in k..v.len() {
        v.swap(k, i);
        permute(v, k + 1, f);
        v.swap(k, i);
    }
}
