//! Board geometry: where each player's area, each battlefield row and each permanent goes.
//!
//! Pure functions of the scene (no fonts, no pixels), so they can be unit-tested. The side
//! panel (stack and recent actions) is measured with fonts by the board drawer; here it only
//! reserves its column.

use std::collections::{HashMap, HashSet};

use crate::scene::{BoardScene, PermanentCard, PermanentGroup, TargetRef};

/// Board image width.
pub const BOARD_WIDTH: f32 = 1280.0;
/// Width of the right-hand column (stack, recent actions).
pub const SIDE_PANEL_WIDTH: f32 = 330.0;
/// Height of the turn / phase / step bar.
pub const PHASE_BAR_HEIGHT: f32 = 86.0;
/// Height of a player's header (life, counts).
pub const HEADER_HEIGHT: f32 = 62.0;
/// Height of the optional suspended-cards strip under a header.
pub const SUSPEND_STRIP_HEIGHT: f32 = 30.0;
/// Outer margin.
pub const MARGIN: f32 = 10.0;
/// Card size at scale 1.
pub const CARD_W: f32 = 118.0;
pub const CARD_H: f32 = 164.0;
/// Height of an attachment tab above its host, at scale 1.
pub const TAB_H: f32 = 24.0;
/// Offset of each shadow card behind a stack of lands, at scale 1.
pub const STACK_STEP: f32 = 5.0;
/// Scales tried, largest first, until the board fits [`TARGET_HEIGHT`].
pub const SCALES: [f32; 6] = [1.0, 0.9, 0.8, 0.72, 0.66, 0.6];
/// Preferred largest board height.
pub const TARGET_HEIGHT: f32 = 1900.0;

/// An axis-aligned rectangle.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Rect {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl Rect {
    pub fn new(x: f32, y: f32, w: f32, h: f32) -> Self {
        Rect { x, y, w, h }
    }
    pub fn right(&self) -> f32 {
        self.x + self.w
    }
    pub fn bottom(&self) -> f32 {
        self.y + self.h
    }
    pub fn center(&self) -> (f32, f32) {
        (self.x + self.w / 2.0, self.y + self.h / 2.0)
    }
    /// True when the two rectangles overlap by more than a hair.
    pub fn overlaps(&self, o: &Rect) -> bool {
        const E: f32 = 0.01;
        self.x + E < o.right()
            && o.x + E < self.right()
            && self.y + E < o.bottom()
            && o.y + E < self.bottom()
    }
    /// True when `o` lies inside `self`.
    pub fn contains(&self, o: &Rect) -> bool {
        const E: f32 = 0.01;
        o.x + E >= self.x
            && o.y + E >= self.y
            && o.right() <= self.right() + E
            && o.bottom() <= self.bottom() + E
    }
}

/// One drawn unit: a permanent (or a stack of identical lands) with its attachments.
#[derive(Clone, Debug, PartialEq)]
pub struct Unit {
    pub group: PermanentGroup,
    /// Permanents drawn as this unit: one, or several identical lands (first is on top).
    pub ids: Vec<u32>,
    /// Auras / Equipment attached to the (single) permanent, drawn as tabs above it.
    pub attachments: Vec<u32>,
    pub tapped: bool,
    /// Where the card itself goes (landscape when tapped).
    pub card: Rect,
    /// Everything the unit covers (tabs, stack shadows).
    pub bounds: Rect,
}

impl Unit {
    pub fn count(&self) -> usize {
        self.ids.len()
    }
}

/// One player's part of the board.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerLayout {
    pub player: usize,
    pub is_viewer_side: bool,
    pub area: Rect,
    pub header: Rect,
    /// Suspended-cards strip, when the player has suspended cards.
    pub suspend_strip: Option<Rect>,
    pub units: Vec<Unit>,
}

/// The whole board's geometry.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardLayout {
    pub width: f32,
    /// Height needed by the battlefield column (the side panel may need more).
    pub height: f32,
    pub scale: f32,
    pub card_w: f32,
    pub card_h: f32,
    pub phase_bar: Rect,
    /// Left edge and width of the side panel column (its height is decided by the drawer).
    pub side_x: f32,
    pub side_w: f32,
    pub players: Vec<PlayerLayout>,
}

/// Unit content before placement.
struct ProtoUnit {
    group: PermanentGroup,
    ids: Vec<u32>,
    attachments: Vec<u32>,
    tapped: bool,
}

/// Ids of permanents targeted by something on the stack.
pub fn targeted_ids(scene: &BoardScene) -> HashSet<u32> {
    scene
        .stack
        .iter()
        .flat_map(|s| s.targets.iter())
        .filter_map(|t| match t {
            TargetRef::Permanent(id) => Some(*id),
            _ => None,
        })
        .collect()
}

/// Host id for each attached permanent whose host is on the battlefield.
pub fn attachment_hosts(scene: &BoardScene) -> HashMap<u32, u32> {
    let ids: HashSet<u32> = scene
        .players
        .iter()
        .flat_map(|p| p.battlefield.iter().map(|c| c.id))
        .collect();
    let mut hosts = HashMap::new();
    for p in &scene.players {
        for c in &p.battlefield {
            if let Some(h) = c.attached_to
                && h != c.id
                && ids.contains(&h)
            {
                hosts.insert(c.id, h);
            }
        }
    }
    // An Aura on an Aura is drawn with the permanent at the root of the chain.
    let direct = hosts.clone();
    for (child, host) in hosts.iter_mut() {
        let mut seen = 0;
        while let Some(&next) = direct.get(host) {
            seen += 1;
            if next == *child || seen > direct.len() {
                break;
            }
            *host = next;
        }
    }
    // A cycle leaves some permanent without a drawable root: draw those on their own.
    let mut roots: Vec<u32> = hosts.keys().copied().collect();
    roots.sort_unstable();
    for id in roots {
        if let Some(h) = hosts.get(&id).copied()
            && hosts.contains_key(&h)
        {
            hosts.remove(&id);
        }
    }
    hosts
}

/// Key under which identical lands stack, or `None` when the land must stand alone.
fn stack_key(
    c: &PermanentCard,
    has_attachments: bool,
    targeted: bool,
) -> Option<(String, bool, bool)> {
    let face = c.face.as_ref()?;
    if c.face_down
        || has_attachments
        || targeted
        || c.damage > 0
        || !c.counters.is_empty()
        || !c.notes.is_empty()
        || c.attacking
        || !c.blocking.is_empty()
        || c.summoning_sick && c.group() == PermanentGroup::Creature
    {
        return None;
    }
    Some((face.name.clone(), c.tapped, c.is_token))
}

fn proto_units(scene: &BoardScene, player: usize) -> Vec<ProtoUnit> {
    let hosts = attachment_hosts(scene);
    let targeted = targeted_ids(scene);
    let mut attached: HashMap<u32, Vec<u32>> = HashMap::new();
    // Attachments in scene order, whoever controls them.
    for p in &scene.players {
        for c in &p.battlefield {
            if let Some(h) = hosts.get(&c.id) {
                attached.entry(*h).or_default().push(c.id);
            }
        }
    }
    let mut units: Vec<ProtoUnit> = Vec::new();
    let mut stacks: HashMap<(String, bool, bool), usize> = HashMap::new();
    let Some(area) = scene.players.get(player) else {
        return units;
    };
    for c in &area.battlefield {
        if hosts.contains_key(&c.id) {
            continue;
        }
        let atts = attached.get(&c.id).cloned().unwrap_or_default();
        let group = c.group();
        if group == PermanentGroup::Land
            && let Some(key) = stack_key(c, !atts.is_empty(), targeted.contains(&c.id))
        {
            if let Some(&i) = stacks.get(&key) {
                units[i].ids.push(c.id);
                continue;
            }
            stacks.insert(key, units.len());
        }
        units.push(ProtoUnit {
            group,
            ids: vec![c.id],
            attachments: atts,
            tapped: c.tapped,
        });
    }
    units
}

/// Bands of rows for a player's side: creatures face the middle of the board; lands and other
/// permanents share the outer band (lands first, then the others after a wider gap).
fn band_order(viewer_side: bool) -> [&'static [PermanentGroup]; 2] {
    const CREATURES: &[PermanentGroup] = &[PermanentGroup::Creature];
    const REST: &[PermanentGroup] = &[PermanentGroup::Land, PermanentGroup::Other];
    if viewer_side {
        [CREATURES, REST]
    } else {
        [REST, CREATURES]
    }
}

/// Order in which players are drawn top to bottom: others first, the viewer last.
pub fn player_order(scene: &BoardScene) -> Vec<usize> {
    let n = scene.players.len();
    match scene.viewer {
        Some(v) if v < n => (1..=n).map(|k| (v + k) % n).collect(),
        _ => {
            // Spectator: the first player at the bottom.
            (1..=n).map(|k| k % n).collect()
        }
    }
}

struct Metrics {
    s: f32,
    cw: f32,
    ch: f32,
    tab: f32,
    step: f32,
    gap: f32,
}

impl Metrics {
    fn new(s: f32) -> Self {
        Metrics {
            s,
            cw: (CARD_W * s).round(),
            ch: (CARD_H * s).round(),
            tab: (TAB_H * s).max(18.0).round(),
            step: (STACK_STEP * s).round().max(3.0),
            gap: (12.0 * s).round(),
        }
    }

    /// (card w, card h, unit w, unit h) of a unit.
    fn unit_size(&self, u: &ProtoUnit) -> (f32, f32, f32, f32) {
        let (w, h) = if u.tapped {
            (self.ch, self.cw)
        } else {
            (self.cw, self.ch)
        };
        let shadows = (u.ids.len().saturating_sub(1)).min(3) as f32 * self.step;
        let tabs = u.attachments.len() as f32 * self.tab;
        (w, h, w + shadows, h + shadows + tabs)
    }
}

/// A unit in a row: the unit, its (card w, card h, unit w, unit h), and the gap before it.
type Placed<'a> = (&'a ProtoUnit, (f32, f32, f32, f32), f32);

/// Lays out one player's rows from `top`; returns the layout and its height.
fn layout_player(
    scene: &BoardScene,
    player: usize,
    viewer_side: bool,
    top: f32,
    m: &Metrics,
) -> PlayerLayout {
    let x0 = MARGIN;
    let width = BOARD_WIDTH - SIDE_PANEL_WIDTH - 2.0 * MARGIN;
    let inner_x = x0 + m.gap;
    let inner_w = width - 2.0 * m.gap;
    let has_suspended = scene
        .players
        .get(player)
        .is_some_and(|p| !p.suspended.is_empty());
    let protos = proto_units(scene, player);

    let mut y = top;
    let mut header = Rect::new(x0, y, width, HEADER_HEIGHT);
    let mut suspend_strip = None;
    if !viewer_side {
        y += HEADER_HEIGHT;
        if has_suspended {
            suspend_strip = Some(Rect::new(x0, y, width, SUSPEND_STRIP_HEIGHT));
            y += SUSPEND_STRIP_HEIGHT;
        }
    }
    y += m.gap;

    let mut units = Vec::new();
    for band in band_order(viewer_side) {
        let members: Vec<&ProtoUnit> = band
            .iter()
            .flat_map(|g| protos.iter().filter(move |u| u.group == *g))
            .collect();
        if members.is_empty() {
            continue;
        }
        // Greedy rows; every card slot is bottom-aligned within its row. A change of group
        // within a row gets a wider gap.
        let mut rows: Vec<Vec<Placed>> = vec![Vec::new()];
        let mut row_w = 0.0;
        let mut prev_group = None;
        for u in members {
            let size = m.unit_size(u);
            let gap = if prev_group.is_some_and(|g| g != u.group) {
                3.0 * m.gap
            } else {
                m.gap
            };
            prev_group = Some(u.group);
            let row_empty = rows.last().is_none_or(|r| r.is_empty());
            let needed = if row_empty {
                size.2
            } else {
                row_w + gap + size.2
            };
            if needed > inner_w && !row_empty {
                rows.push(Vec::new());
                row_w = size.2;
                if let Some(r) = rows.last_mut() {
                    r.push((u, size, 0.0));
                }
            } else {
                row_w = needed;
                if let Some(r) = rows.last_mut() {
                    r.push((u, size, if row_empty { 0.0 } else { gap }));
                }
            }
        }
        for row in rows {
            let row_h = row.iter().map(|(_, s, _)| s.3).fold(0.0, f32::max);
            let mut x = inner_x;
            for (u, (cw, ch, uw, uh), gap) in row {
                x += gap;
                let bounds = Rect::new(x, y + row_h - uh, uw, uh);
                let card = Rect::new(x, y + row_h - ch, cw, ch);
                units.push(Unit {
                    group: u.group,
                    ids: u.ids.clone(),
                    attachments: u.attachments.clone(),
                    tapped: u.tapped,
                    card,
                    bounds,
                });
                x += uw;
            }
            y += row_h + m.gap;
        }
    }
    if units.is_empty() {
        y += 36.0 * m.s.max(0.8);
    }
    if viewer_side {
        if has_suspended {
            suspend_strip = Some(Rect::new(x0, y, width, SUSPEND_STRIP_HEIGHT));
            y += SUSPEND_STRIP_HEIGHT;
        }
        header = Rect::new(x0, y, width, HEADER_HEIGHT);
        y += HEADER_HEIGHT;
    }
    PlayerLayout {
        player,
        is_viewer_side: viewer_side,
        area: Rect::new(x0, top, width, y - top),
        header,
        suspend_strip,
        units,
    }
}

fn layout_at(scene: &BoardScene, s: f32) -> BoardLayout {
    let m = Metrics::new(s);
    let order = player_order(scene);
    let mut y = PHASE_BAR_HEIGHT + MARGIN;
    let mut players = Vec::new();
    let last = order.len().saturating_sub(1);
    for (k, &p) in order.iter().enumerate() {
        let viewer_side = k == last && order.len() > 1;
        let pl = layout_player(scene, p, viewer_side, y, &m);
        y = pl.area.bottom() + MARGIN;
        players.push(pl);
    }
    BoardLayout {
        width: BOARD_WIDTH,
        height: y,
        scale: s,
        card_w: m.cw,
        card_h: m.ch,
        phase_bar: Rect::new(0.0, 0.0, BOARD_WIDTH, PHASE_BAR_HEIGHT),
        side_x: BOARD_WIDTH - SIDE_PANEL_WIDTH,
        side_w: SIDE_PANEL_WIDTH - MARGIN,
        players,
    }
}

/// Lays the board out at the largest scale that keeps it within [`TARGET_HEIGHT`] (or the
/// smallest scale when nothing fits).
pub fn layout_board(scene: &BoardScene) -> BoardLayout {
    let mut best = None;
    for s in SCALES {
        let l = layout_at(scene, s);
        let fits = l.height <= TARGET_HEIGHT;
        best = Some(l);
        if fits {
            break;
        }
    }
    best.unwrap_or_else(|| layout_at(scene, 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples;

    fn all_units(l: &BoardLayout) -> Vec<&Unit> {
        l.players.iter().flat_map(|p| p.units.iter()).collect()
    }

    #[test]
    fn crowded_board_fits_without_overlap() {
        let scene = samples::crowded_board();
        for p in &scene.players {
            assert!(p.battlefield.len() >= 40);
        }
        let l = layout_board(&scene);
        assert!(
            l.height <= TARGET_HEIGHT,
            "height {} scale {}",
            l.height,
            l.scale
        );
        let field = Rect::new(0.0, PHASE_BAR_HEIGHT, l.side_x, l.height - PHASE_BAR_HEIGHT);
        let units = all_units(&l);
        for u in &units {
            assert!(
                field.contains(&u.bounds),
                "unit {:?} outside {:?}",
                u.bounds,
                field
            );
            assert!(u.bounds.contains(&u.card));
        }
        for (i, a) in units.iter().enumerate() {
            for b in &units[i + 1..] {
                assert!(
                    !a.bounds.overlaps(&b.bounds),
                    "{:?} overlaps {:?}",
                    a.ids,
                    b.ids
                );
            }
        }
        for p in &l.players {
            for u in &p.units {
                assert!(!u.bounds.overlaps(&p.header));
            }
        }
        // Every permanent is drawn exactly once (as a unit member or an attachment).
        let mut seen: Vec<u32> = units
            .iter()
            .flat_map(|u| u.ids.iter().chain(u.attachments.iter()).copied())
            .collect();
        seen.sort_unstable();
        let mut all: Vec<u32> = scene
            .players
            .iter()
            .flat_map(|p| p.battlefield.iter().map(|c| c.id))
            .collect();
        all.sort_unstable();
        assert_eq!(seen, all);
    }

    #[test]
    fn identical_untapped_lands_stack_with_count() {
        use crate::scene::*;
        let forest = samples::basic_land("Forest", "樹林");
        let mut p = PlayerArea::new("A", 20);
        for id in 1..=4 {
            p.battlefield.push(PermanentCard::new(id, forest.clone()));
        }
        let mut tapped = PermanentCard::new(5, forest.clone());
        tapped.tapped = true;
        p.battlefield.push(tapped);
        let mut countered = PermanentCard::new(6, forest.clone());
        countered.counters.push(Counter {
            kind: "ice".into(),
            count: 1,
        });
        p.battlefield.push(countered);
        p.battlefield.push(PermanentCard::new(
            7,
            samples::basic_land("Mountain", "山脈"),
        ));
        let scene = BoardScene {
            viewer: Some(0),
            players: vec![p, PlayerArea::new("B", 20)],
            stack: vec![],
            turn: TurnInfo {
                number: 1,
                active_player: 0,
                step: Step::PrecombatMain,
                deciding_player: Some(0),
                decision: None,
            },
            recent_actions: vec![],
        };
        let l = layout_board(&scene);
        let me = l
            .players
            .iter()
            .find(|p| p.player == 0)
            .expect("viewer layout");
        let counts: Vec<(Vec<u32>, bool)> =
            me.units.iter().map(|u| (u.ids.clone(), u.tapped)).collect();
        assert_eq!(
            counts,
            vec![
                (vec![1, 2, 3, 4], false),
                (vec![5], true),
                (vec![6], false),
                (vec![7], false)
            ]
        );
        let stack = &me.units[0];
        assert!(
            stack.bounds.w > stack.card.w,
            "stack shadows widen the unit"
        );
        let tapped = &me.units[1];
        assert!(tapped.card.w > tapped.card.h, "tapped cards are landscape");
    }

    #[test]
    fn viewer_is_drawn_last() {
        let mut scene = samples::midgame_board();
        scene.viewer = Some(0);
        assert_eq!(player_order(&scene), vec![1, 0]);
        scene.viewer = Some(1);
        assert_eq!(player_order(&scene), vec![0, 1]);
        scene.viewer = None;
        assert_eq!(player_order(&scene), vec![1, 0]);
    }
}
