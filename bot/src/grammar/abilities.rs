//! Abilities on the stack as targets (`Target::Ability`: Trickbind's "target activated or
//! triggered ability"), in player words: `Prodigal Sorcerer's ability`. Several of the same
//! name are counted from the top of the stack (`Prodigal Sorcerer's ability 1 of 3` is the
//! topmost of them, as the stack is listed top first) and say whose they are when that
//! differs (`Prodigal Sorcerer's ability 2 of 3 (Bob's)`); `#2` is also understood.

use engine::stack::{StackItem, StackKind};
use engine::{Answer, Game, PlayerId, Target};

/// The serial numbers of the abilities `legal` may target, each once, the top of the
/// stack first (as the stack is listed).
pub(super) fn ability_serials(game: &Game, legal: &[Answer]) -> Vec<u32> {
    let mut v = Vec::new();
    for a in legal {
        if let Answer::Target(Target::Ability(s)) = a
            && !v.contains(s)
        {
            v.push(*s);
        }
    }
    let pos = |s: &u32| game.stack.iter().position(|i| i.serial == Some(*s));
    v.sort_by_key(|s| std::cmp::Reverse(pos(s)));
    v
}

/// The ability's source as `viewer` sees it: a face-down source stays unnamed to others.
fn source_name(game: &Game, viewer: PlayerId, item: &StackItem) -> String {
    match item.kind {
        StackKind::Ability { source, .. } | StackKind::Trigger { source, .. }
            if game.obj(source).is_some_and(|o| o.face_down) =>
        {
            game.seen_name(source, Some(viewer))
        }
        _ => game.catalog().get(item.card).name.clone(),
    }
}

/// Labels for the abilities `serials` (on the stack) as `viewer` says them, unique among
/// them: the source's name; when several have the same, counted from the top of the stack
/// (`1 of 3` the topmost of them) and, when their controllers differ, whose (`(yours)`,
/// `(Bob's)`), so that `Bob's Prodigal Sorcerer's ability` also reads.
pub(super) fn ability_labels(game: &Game, viewer: PlayerId, serials: &[u32]) -> Vec<String> {
    let n = game.stack.len();
    // (base, controller, position from the top) of each.
    let facts: Vec<Option<(String, PlayerId, usize)>> = serials
        .iter()
        .map(|s| {
            let pos = game.stack.iter().position(|i| i.serial == Some(*s))?;
            let item = &game.stack[pos];
            Some((
                format!("{}'s ability", source_name(game, viewer, item)),
                item.controller,
                n - 1 - pos,
            ))
        })
        .collect();
    facts
        .iter()
        .zip(serials)
        .map(|(f, s)| {
            let Some((base, ctl, from_top)) = f else {
                return game.describe_target(Target::Ability(*s));
            };
            let same: Vec<&(String, PlayerId, usize)> =
                facts.iter().flatten().filter(|(b, ..)| b == base).collect();
            if same.len() < 2 {
                return base.clone();
            }
            let rank = 1 + same.iter().filter(|(.., p)| p < from_top).count();
            let counted = format!("{base} {rank} of {}", same.len());
            if same.iter().all(|(_, c, _)| c == ctl) {
                counted
            } else if *ctl == viewer {
                format!("{counted} (yours)")
            } else {
                format!("{counted} ({}'s)", game.player(*ctl).name)
            }
        })
        .collect()
}

/// The label of the ability `serial` among `among` (see [`ability_labels`]).
pub(super) fn ability_label(game: &Game, viewer: PlayerId, serial: u32, among: &[u32]) -> String {
    let labels = ability_labels(game, viewer, among);
    among.iter().position(|s| *s == serial).map_or_else(
        || ability_labels(game, viewer, &[serial]).remove(0),
        |i| labels[i].clone(),
    )
}

/// The object whose words (`my`, `Bob's`) say whose the ability is: its source.
pub(super) fn ability_source(game: &Game, serial: u32) -> Option<engine::ObjectId> {
    let item = game.stack.iter().find(|i| i.serial == Some(serial))?;
    match item.kind {
        StackKind::Ability { source, .. } | StackKind::Trigger { source, .. } => Some(source),
        _ => None,
    }
}
