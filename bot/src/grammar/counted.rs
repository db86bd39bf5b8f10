//! Same-named objects told apart by count: `Saproling 3 of 6` is the third of the six
//! Saprolings on the battlefield (in the battlefield's order; on the stack from the top; in
//! exile in exile's order), whichever list names it, so the same words mean the same
//! creature in every menu, button and typed command until the board changes. The count comes
//! before what else tells them apart (`Saproling 3 of 6 (tapped) (Bob's)`), and only where
//! two labels would otherwise be the same. Cards in a hand or a graveyard are interchangeable
//! and keep their plain names, except in a menu that must take several of them at once
//! (`discard Forest 2 of 3`, numbered in that list). `NAME #N` (the N-th of those labelled
//! NAME in the list) is also understood.

use super::{GrammarError, ObjectOf, base, norm, uniq};
use engine::zones::ZoneKind;
use engine::{Game, ObjectId, PlayerId};

/// A count said with a name: `k of m` (`m` None for `#k`).
pub(super) type Count = (usize, Option<usize>);

/// The label without its count, and the count: `Saproling 3 of 6 (tapped)` gives
/// (`Saproling (tapped)`, (3, Some(6))); `Forest #2` gives (`Forest`, (2, None)).
pub(super) fn split_count(label: &str) -> (String, Option<Count>) {
    let (head, quals) = match label.find(" (") {
        Some(i) => label.split_at(i),
        None => (label, ""),
    };
    if let Some((pre, m)) = head.rsplit_once(" of ")
        && let Ok(m) = m.trim().parse::<usize>()
        && let Some((name, k)) = pre.rsplit_once(' ')
        && let Ok(k) = k.parse::<usize>()
        && !name.trim().is_empty()
        && k >= 1
        && k <= m
    {
        return (format!("{name}{quals}"), Some((k, Some(m))));
    }
    if let Some((pre, k)) = label.rsplit_once(" #")
        && let Ok(k) = k.trim().parse::<usize>()
        && !pre.trim().is_empty()
        && k >= 1
    {
        return (pre.to_string(), Some((k, None)));
    }
    (label.to_string(), None)
}

/// `label` with the count `k of m` after its name (before what is in brackets).
pub(super) fn with_count(label: &str, k: usize, m: usize) -> String {
    match label.find(" (") {
        Some(i) => format!("{} {k} of {m}{}", &label[..i], &label[i..]),
        None => format!("{label} {k} of {m}"),
    }
}

/// Where the object stands among the same-named objects (as `viewer` names them) of its
/// zone, when it has company there: (its place from 1, how many). Only the battlefield, the
/// stack and exile count: same-named objects there differ (damage, counters, targets, time
/// counters); cards in a hand, a library or a graveyard do not.
pub(super) fn public_rank(game: &Game, viewer: PlayerId, id: ObjectId) -> Option<(usize, usize)> {
    let o = game.obj(id)?;
    let zone: Vec<ObjectId> = match o.zone {
        ZoneKind::Battlefield => game.battlefield.clone(),
        ZoneKind::Stack => game.stack.iter().rev().filter_map(|s| s.object()).collect(),
        ZoneKind::Exile => game.exile.clone(),
        _ => return None,
    };
    let name = game.seen_name(id, Some(viewer));
    let same: Vec<ObjectId> = zone
        .into_iter()
        .filter(|x| game.seen_name(*x, Some(viewer)) == name)
        .collect();
    let at = same.iter().position(|x| *x == id)?;
    (same.len() > 1).then_some((at + 1, same.len()))
}

/// Labels that are the same for several objects get each object's count (see
/// [`public_rank`]); labels already unique, and objects with no count, are left as they are.
pub(super) fn counted_labels(
    game: &Game,
    viewer: PlayerId,
    ids: &[ObjectId],
    labels: Vec<String>,
) -> Vec<String> {
    ids.iter()
        .zip(&labels)
        .map(|(id, l)| {
            let shared = labels.iter().filter(|x| *x == l).count() > 1;
            match public_rank(game, viewer, *id).filter(|_| shared) {
                Some((k, m)) => with_count(l, k, m),
                None => l.clone(),
            }
        })
        .collect()
}

/// Labels with ` k of m` added where several are the same, numbered in order within the
/// list (a menu that takes several of them at once: `discard Forest 1 of 3, Forest 3 of 3`);
/// read back by [`counted_pick`].
pub fn numbered(labels: &[String]) -> Vec<String> {
    let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    labels
        .iter()
        .map(|l| {
            let m = labels.iter().filter(|x| *x == l).count();
            if m < 2 {
                return l.clone();
            }
            let k = seen.entry(l.as_str()).or_insert(0);
            *k += 1;
            with_count(l, *k, m)
        })
        .collect()
}

/// A name said with a count (`Saproling 3 of 6`, `Forest #2`), read among `cands` (all of
/// the list's candidates, whichever were named before): the object of that count on the
/// board (see [`public_rank`]), else the k-th of the candidates of that name in the list.
/// A candidate labelled exactly so is taken first. None when no count was said; an error
/// when the count fits no candidate (a count is never guessed at).
pub(super) fn counted_pick<T: Clone + ObjectOf>(
    game: &Game,
    viewer: PlayerId,
    query: &str,
    cands: &[(String, T)],
    what: &str,
) -> Option<Result<T, GrammarError>> {
    let q = norm(query);
    let (rest, count) = split_count(&q);
    let (k, m) = count?;
    // The words of a label (a menu's choice): that one.
    if let Some((_, t)) = cands.iter().find(|(l, _)| norm(l) == q) {
        return Some(Ok(t.clone()));
    }
    let name = base(&rest);
    let named: Vec<&(String, T)> = cands
        .iter()
        .filter(|(l, _)| base(&split_count(l).0) == name)
        .collect();
    let miss = || {
        Err(GrammarError::NoMatch {
            what: what.to_string(),
            said: query.trim().to_string(),
            options: uniq(cands.iter().map(|c| c.0.clone())),
        })
    };
    // On the board: the object of that count, when the candidates have counts.
    if let Some(m) = m
        && named.iter().any(|(_, t)| {
            t.counted_object(game)
                .is_some_and(|id| public_rank(game, viewer, id).is_some())
        })
    {
        let hit = named.iter().find(|(_, t)| {
            t.counted_object(game)
                .and_then(|id| public_rank(game, viewer, id))
                == Some((k, m))
        });
        return Some(hit.map_or_else(miss, |(_, t)| Ok(t.clone())));
    }
    // In the list: the k-th of that label (with its brackets, when said), else of that name.
    let same_label: Vec<&&(String, T)> = named
        .iter()
        .filter(|(l, _)| norm(&split_count(l).0) == rest)
        .collect();
    let hit = if same_label.is_empty() {
        named.get(k - 1).copied()
    } else {
        same_label.get(k - 1).copied().copied()
    };
    Some(hit.map_or_else(miss, |(_, t)| Ok(t.clone())))
}

/// The candidates with their counts taken out of the labels of objects (not of abilities on
/// the stack, whose counts tell different abilities apart): for words that say no count,
/// same-named objects in the same state are interchangeable, the first is taken.
pub(super) fn uncounted<T: Clone + ObjectOf>(
    game: &Game,
    cands: &[(String, T)],
) -> Vec<(String, T)> {
    cands
        .iter()
        .map(|(l, t)| match t.counted_object(game) {
            Some(_) => (split_count(l).0, t.clone()),
            None => (l.clone(), t.clone()),
        })
        .collect()
}
