//! The board image: phase bar, each player's area, the stack and recent actions.

use std::collections::HashMap;

use tiny_skia::Pixmap;

use crate::card::{self, display_name, ink_on};
use crate::draw::{self, Rgb};
use crate::layout::{self, BoardLayout, PlayerLayout, Rect, Unit};
use crate::mana::{self, ManaSymbol};
use crate::scene::{BoardScene, PermanentCard, PermanentGroup, StackKind, Step, TargetRef};
use crate::text::{Align, Bounds, Fonts, Style, TextBlock};
use crate::theme;
use crate::{Language, RenderError};

/// Everything looked up once per image.
struct Ctx<'a> {
    scene: &'a BoardScene,
    lang: Language,
    /// Permanent id -> (permanent, controller).
    perms: HashMap<u32, (&'a PermanentCard, usize)>,
    /// Stack id -> number counted from the top (1 = resolves first).
    stack_no: HashMap<u32, usize>,
    /// Permanent id -> stack numbers targeting it.
    targeted_by: HashMap<u32, Vec<usize>>,
    /// Player index -> stack numbers targeting them.
    player_targeted_by: HashMap<usize, Vec<usize>>,
    /// Attacker id -> combat label number (A1, A2, ...).
    attacker_no: HashMap<u32, usize>,
    s: f32,
}

impl<'a> Ctx<'a> {
    fn perm_name(&self, id: u32) -> String {
        match self.perms.get(&id) {
            Some((c, _)) if c.face_down && c.face.is_none() => "face-down creature".to_string(),
            Some((c, _)) => c.face.as_ref().map_or_else(
                || "?".to_string(),
                |f| display_name(f, self.lang).to_string(),
            ),
            None => format!("permanent #{id}"),
        }
    }

    fn player_name(&self, i: usize) -> String {
        self.scene
            .players
            .get(i)
            .map_or_else(|| format!("player {}", i + 1), |p| p.name.clone())
    }

    fn target_text(&self, t: &TargetRef) -> String {
        match t {
            TargetRef::Permanent(id) => {
                let ctrl = self
                    .perms
                    .get(id)
                    .map(|(_, c)| format!(" ({})", self.player_name(*c)))
                    .unwrap_or_default();
                format!("{}{}", self.perm_name(*id), ctrl)
            }
            TargetRef::Player(i) => format!("player {}", self.player_name(*i)),
            TargetRef::StackObject(id) => {
                let name = self
                    .scene
                    .stack
                    .iter()
                    .find(|s| s.id == *id)
                    .and_then(|s| s.face.as_ref())
                    .map_or("spell", |f| display_name(f, self.lang));
                match self.stack_no.get(id) {
                    Some(n) => format!("#{n} {name}"),
                    None => name.to_string(),
                }
            }
            TargetRef::Card(s) => s.clone(),
        }
    }
}

fn validate(scene: &BoardScene) -> Result<(), RenderError> {
    let n = scene.players.len();
    if n == 0 {
        return Err(RenderError::InvalidScene("no players".into()));
    }
    if scene.turn.active_player >= n {
        return Err(RenderError::InvalidScene(format!(
            "active player {} out of range ({n} players)",
            scene.turn.active_player
        )));
    }
    if let Some(v) = scene.viewer
        && v >= n
    {
        return Err(RenderError::InvalidScene(format!(
            "viewer {v} out of range"
        )));
    }
    if let Some(d) = scene.turn.deciding_player
        && d >= n
    {
        return Err(RenderError::InvalidScene(format!(
            "deciding player {d} out of range"
        )));
    }
    for s in &scene.stack {
        if s.controller >= n {
            return Err(RenderError::InvalidScene(format!(
                "stack object {} has controller {} out of range",
                s.id, s.controller
            )));
        }
    }
    for p in &scene.players {
        for c in &p.battlefield {
            if c.face.is_none() && !c.face_down {
                return Err(RenderError::InvalidScene(format!(
                    "permanent {} is face up but has no face",
                    c.id
                )));
            }
        }
    }
    Ok(())
}

pub fn render(
    scene: &BoardScene,
    fonts: &mut Fonts,
    lang: Language,
) -> Result<Pixmap, RenderError> {
    validate(scene)?;
    let lay = layout::layout_board(scene);

    let mut perms = HashMap::new();
    for (pi, p) in scene.players.iter().enumerate() {
        for c in &p.battlefield {
            perms.insert(c.id, (c, pi));
        }
    }
    let depth = scene.stack.len();
    let stack_no: HashMap<u32, usize> = scene
        .stack
        .iter()
        .enumerate()
        .map(|(i, s)| (s.id, depth - i))
        .collect();
    let mut targeted_by: HashMap<u32, Vec<usize>> = HashMap::new();
    let mut player_targeted_by: HashMap<usize, Vec<usize>> = HashMap::new();
    for (i, s) in scene.stack.iter().enumerate() {
        for t in &s.targets {
            match t {
                TargetRef::Permanent(id) => targeted_by.entry(*id).or_default().push(depth - i),
                TargetRef::Player(p) => player_targeted_by.entry(*p).or_default().push(depth - i),
                _ => {}
            }
        }
    }
    let mut attacker_no = HashMap::new();
    for pl in &lay.players {
        for u in &pl.units {
            for id in &u.ids {
                if perms.get(id).is_some_and(|(c, _)| c.attacking) {
                    let n = attacker_no.len() + 1;
                    attacker_no.insert(*id, n);
                }
            }
        }
    }
    let ctx = Ctx {
        scene,
        lang,
        perms,
        stack_no,
        targeted_by,
        player_targeted_by,
        attacker_no,
        s: lay.scale,
    };

    // The side panel is measured first: its height may decide the image height.
    let side = side_panel(fonts, &ctx, &lay);
    let side_bottom = layout::PHASE_BAR_HEIGHT + layout::MARGIN + side.height + layout::MARGIN;
    let height = lay.height.max(side_bottom).ceil();
    let mut p = draw::new_pixmap(lay.width as u32, height as u32, theme::BG)?;

    phase_bar(fonts, &mut p, &ctx, &lay);
    for pl in &lay.players {
        player_area(fonts, &mut p, &ctx, pl)?;
    }
    combat_lines(&mut p, &ctx, &lay);
    side.paint(fonts, &mut p);
    Ok(p)
}

// ---------------------------------------------------------------------------------------------
// Phase bar

fn phase_of(step: Step) -> usize {
    match step {
        Step::Untap | Step::Upkeep | Step::Draw => 0,
        Step::PrecombatMain => 1,
        Step::BeginCombat
        | Step::DeclareAttackers
        | Step::DeclareBlockers
        | Step::CombatDamage
        | Step::EndCombat => 2,
        Step::PostcombatMain => 3,
        Step::End | Step::Cleanup => 4,
    }
}

fn phase_bar(fonts: &mut Fonts, p: &mut Pixmap, ctx: &Ctx, lay: &BoardLayout) {
    let bar = lay.phase_bar;
    draw::fill_rect(p, bar.x, bar.y, bar.w, bar.h, Rgb(0x14, 0x1b, 0x21), 1.0);
    draw::fill_rect(
        p,
        bar.x,
        bar.bottom() - 2.0,
        bar.w,
        2.0,
        theme::PANEL_LINE,
        1.0,
    );
    let turn = &ctx.scene.turn;

    // Step chips, with wider gaps between phases.
    let x0 = layout::MARGIN;
    let phase_gap = 10.0;
    let chip_gap = 3.0;
    let total = bar.w - 2.0 * x0 - 4.0 * phase_gap - 7.0 * chip_gap;
    let chip_w = total / 12.0;
    let current = Step::ALL.iter().position(|s| *s == turn.step).unwrap_or(0);
    let mut x = x0;
    let y = 8.0;
    let h = 32.0;
    for (i, step) in Step::ALL.iter().enumerate() {
        if i > 0 {
            x += if phase_of(Step::ALL[i - 1]) != phase_of(*step) {
                phase_gap
            } else {
                chip_gap
            };
        }
        let (fill, ink, alpha) = if i == current {
            (theme::HIGHLIGHT, theme::TEXT_DARK, 1.0)
        } else if i < current {
            (theme::PANEL, theme::TEXT_DIM.darken(0.25), 1.0)
        } else {
            (theme::PANEL, theme::TEXT_LIGHT, 1.0)
        };
        draw::fill_rrect(p, x, y, chip_w, h, 7.0, fill, alpha);
        let style = Style::new(15.0, ink).bold().condensed();
        fonts.draw(
            p,
            step.short_label(),
            style,
            Bounds::line(chip_w - 6.0).align(Align::Center),
            x + 3.0,
            y + 7.0,
        );
        x += chip_w;
    }

    // Turn and active player, then who must decide.
    let active = turn.active_player;
    let line_y = 49.0;
    let (w1, _) = fonts.draw(
        p,
        &format!("Turn {}", turn.number),
        Style::new(20.0, theme::TEXT_LIGHT).bold(),
        Bounds::free(),
        x0 + 4.0,
        line_y,
    );
    let (w2, _) = fonts.draw(
        p,
        &format!("{}'s turn", ctx.player_name(active)),
        Style::new(20.0, theme::player_colour(active)).bold(),
        Bounds::line(300.0),
        x0 + 4.0 + w1 + 14.0,
        line_y,
    );
    fonts.draw(
        p,
        &format!("· {}", turn.step.label()),
        Style::new(18.0, theme::TEXT_DIM),
        Bounds::line(260.0),
        x0 + 4.0 + w1 + 14.0 + w2 + 10.0,
        line_y + 1.5,
    );
    if let Some(d) = turn.deciding_player {
        let what = turn.decision.as_deref().unwrap_or("decide");
        let who = if ctx.scene.viewer == Some(d) {
            "You".to_string()
        } else {
            ctx.player_name(d)
        };
        let text = format!("Waiting for {who}: {what}");
        let style = Style::new(18.0, theme::TEXT_DARK).bold();
        let max_w = lay.side_w + 160.0;
        let block = fonts.layout(&text, style, Bounds::line(max_w));
        let bw = block.width + 24.0;
        let bx = bar.right() - layout::MARGIN - bw;
        draw::fill_rrect(p, bx, line_y - 3.0, bw, 30.0, 15.0, theme::HIGHLIGHT, 1.0);
        fonts.draw_block(p, &block, bx + 12.0, line_y + 1.0);
    }
}

// ---------------------------------------------------------------------------------------------
// Player areas

/// A pill with text; returns its width.
#[allow(clippy::too_many_arguments)]
fn pill(
    fonts: &mut Fonts,
    p: &mut Pixmap,
    text: &str,
    x: f32,
    y: f32,
    size: f32,
    fill: Rgb,
    ink: Rgb,
    max_w: f32,
) -> (f32, f32) {
    let style = Style::new(size, ink).bold().condensed();
    let block = fonts.layout(text, style, Bounds::line(max_w - size * 0.8));
    let w = block.width + size * 0.8;
    let h = size * 1.38;
    draw::fill_rrect(p, x, y, w, h, h / 2.0, fill, 0.95);
    fonts.draw_block(p, &block, x + size * 0.4, y + (h - block.height) / 2.0);
    (w, h)
}

fn player_area(
    fonts: &mut Fonts,
    p: &mut Pixmap,
    ctx: &Ctx,
    pl: &PlayerLayout,
) -> Result<(), RenderError> {
    let a = pl.area;
    let panel = if ctx.scene.viewer == Some(pl.player) {
        theme::PANEL_VIEWER
    } else {
        theme::PANEL
    };
    draw::fill_rrect(p, a.x, a.y, a.w, a.h, 12.0, panel, 1.0);
    if ctx.scene.turn.active_player == pl.player {
        draw::stroke_rrect(
            p,
            a.x + 1.0,
            a.y + 1.0,
            a.w - 2.0,
            a.h - 2.0,
            12.0,
            theme::HIGHLIGHT,
            2.0,
            0.7,
        );
    }
    header(fonts, p, ctx, pl);
    if let Some(strip) = pl.suspend_strip {
        suspend_strip(fonts, p, ctx, pl.player, strip);
    }
    if pl.units.is_empty() {
        fonts.draw(
            p,
            "No permanents",
            Style::new(16.0, theme::TEXT_DIM).italic(),
            Bounds::free(),
            a.x + 24.0,
            if pl.is_viewer_side {
                a.y + 14.0
            } else {
                pl.header.bottom() + 14.0
            },
        );
    }
    // Separators: a line between bands, a short bar between groups sharing a row.
    for pair in pl.units.windows(2) {
        let (a0, b0) = (&pair[0], &pair[1]);
        if b0.bounds.y >= a0.bounds.bottom() {
            let y = (a0.bounds.bottom() + b0.bounds.y) / 2.0;
            if a0.group != b0.group
                && (a0.group == PermanentGroup::Creature || b0.group == PermanentGroup::Creature)
            {
                draw::fill_rect(p, a.x + 16.0, y, a.w - 32.0, 1.0, theme::PANEL_LINE, 1.0);
            }
        } else if a0.group != b0.group {
            let x = (a0.bounds.right() + b0.bounds.x) / 2.0;
            let top = a0.bounds.y.min(b0.bounds.y);
            let bottom = a0.bounds.bottom().max(b0.bounds.bottom());
            draw::fill_rect(
                p,
                x - 1.0,
                top + 6.0,
                2.0,
                bottom - top - 12.0,
                theme::PANEL_LINE,
                1.0,
            );
        }
    }
    for u in &pl.units {
        draw_unit(fonts, p, ctx, pl.player, u)?;
    }
    Ok(())
}

fn header(fonts: &mut Fonts, p: &mut Pixmap, ctx: &Ctx, pl: &PlayerLayout) {
    let h = pl.header;
    let Some(player) = ctx.scene.players.get(pl.player) else {
        return;
    };
    let top_pad = if pl.is_viewer_side { 2.0 } else { 0.0 };
    draw::fill_rrect(
        p,
        h.x + 4.0,
        h.y + 4.0 + top_pad,
        h.w - 8.0,
        h.h - 8.0,
        10.0,
        Rgb(0x16, 0x1e, 0x24),
        0.55,
    );
    let cy = h.y + h.h / 2.0 + top_pad / 2.0;
    let mut x = h.x + 14.0;

    // Life in a big red disc, poison beside it.
    let r = 22.0;
    draw::fill_circle(p, x + r, cy, r, theme::LIFE, 1.0);
    draw::stroke_circle(p, x + r, cy, r, theme::LIFE.darken(0.4), 2.0);
    let life = player.life.to_string();
    let life_size = if life.len() > 2 { 19.0 } else { 24.0 };
    fonts.draw_centered(
        p,
        &life,
        Style::new(life_size, theme::TEXT_LIGHT).bold(),
        x + r,
        cy,
    );
    x += 2.0 * r + 8.0;
    let pr = 15.0;
    let (pfill, pink) = if player.poison > 0 {
        (theme::POISON, theme::TEXT_LIGHT)
    } else {
        (Rgb(0x3a, 0x46, 0x3a), Rgb(0x9a, 0xb0, 0x9a))
    };
    draw::fill_circle(p, x + pr, cy, pr, pfill, 1.0);
    fonts.draw_centered(
        p,
        &player.poison.to_string(),
        Style::new(16.0, pink).bold(),
        x + pr,
        cy,
    );
    fonts.draw_centered(
        p,
        "poison",
        Style::new(9.5, theme::TEXT_DIM).condensed(),
        x + pr,
        cy + pr + 6.0,
    );
    x += 2.0 * pr + 14.0;

    // Name and status.
    let mut name = player.name.clone();
    if ctx.scene.viewer == Some(pl.player) {
        name.push_str(" (you)");
    }
    let (nw, _) = fonts.draw(
        p,
        &name,
        Style::new(22.0, theme::player_colour(pl.player)).bold(),
        Bounds::line(230.0),
        x,
        cy - 25.0,
    );
    let mut sx = x;
    let sy = cy + 3.0;
    if ctx.scene.turn.active_player == pl.player {
        let (w, _) = pill(
            fonts,
            p,
            "ACTIVE",
            sx,
            sy,
            13.0,
            theme::HIGHLIGHT,
            theme::TEXT_DARK,
            120.0,
        );
        sx += w + 6.0;
    }
    if ctx.scene.turn.deciding_player == Some(pl.player) {
        let (w, _) = pill(
            fonts,
            p,
            "DECIDING",
            sx,
            sy,
            13.0,
            Rgb(0xff, 0xff, 0xff),
            theme::TEXT_DARK,
            120.0,
        );
        sx += w + 6.0;
    }
    if let Some(nums) = ctx.player_targeted_by.get(&pl.player) {
        let t = format!("TARGET of {}", numbers(nums));
        pill(
            fonts,
            p,
            &t,
            sx,
            sy,
            13.0,
            theme::TARGET,
            theme::TEXT_LIGHT,
            160.0,
        );
    }
    x += nw.max(220.0) + 12.0;

    // Zone counts.
    let counts = [
        ("Hand", player.hand_count),
        ("Library", player.library_count),
        ("Graveyard", player.graveyard_count),
        ("Exile", player.exile_count),
    ];
    for (label, n) in counts {
        let w = 74.0;
        draw::fill_rrect(p, x, cy - 22.0, w, 44.0, 8.0, theme::PANEL_LINE, 1.0);
        fonts.draw(
            p,
            &n.to_string(),
            Style::new(20.0, theme::TEXT_LIGHT).bold(),
            Bounds::line(w).align(Align::Center),
            x,
            cy - 22.0,
        );
        fonts.draw(
            p,
            label,
            Style::new(11.5, theme::TEXT_DIM).condensed(),
            Bounds::line(w).align(Align::Center),
            x,
            cy + 4.0,
        );
        x += w + 6.0;
    }
    x += 6.0;
    // Mana pool (upper line) and top of graveyard (lower line).
    let right = h.right() - 12.0;
    let avail = (right - x).max(40.0);
    let pool = mana::parse_cost(&player.mana_pool);
    if !pool.is_empty() {
        let (lw, _) = fonts.draw(
            p,
            "Mana pool",
            Style::new(13.0, theme::TEXT_DIM).condensed(),
            Bounds::free(),
            x,
            cy - 21.0,
        );
        let d = 18.0;
        let maxn = ((avail - lw - 8.0) / (d * 1.12)).floor().max(1.0) as usize;
        let shown: Vec<ManaSymbol> = pool.into_iter().take(maxn).collect();
        mana::draw_cost(fonts, p, &shown, x + lw + 8.0, cy - 12.0, d);
    }
    if let Some(top) = &player.graveyard_top {
        let label = format!("Graveyard top: {}", display_name(top, ctx.lang));
        fonts.draw(
            p,
            &label,
            Style::new(13.0, theme::TEXT_DIM).condensed(),
            Bounds::line(avail),
            x,
            cy + 4.0,
        );
    }
}

fn numbers(nums: &[usize]) -> String {
    nums.iter()
        .map(|n| format!("#{n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn suspend_strip(fonts: &mut Fonts, p: &mut Pixmap, ctx: &Ctx, player: usize, strip: Rect) {
    let Some(pl) = ctx.scene.players.get(player) else {
        return;
    };
    let mut x = strip.x + 14.0;
    let y = strip.y + 4.0;
    let (lw, _) = fonts.draw(
        p,
        "Suspended:",
        Style::new(14.0, theme::TEXT_DIM).bold(),
        Bounds::free(),
        x,
        y + 2.0,
    );
    x += lw + 8.0;
    for s in &pl.suspended {
        if x > strip.right() - 60.0 {
            break;
        }
        let text = format!(
            "{} · {} time counter{}",
            display_name(&s.face, ctx.lang),
            s.time_counters,
            if s.time_counters == 1 { "" } else { "s" }
        );
        let pal = theme::palette(&s.face);
        let (w, _) = pill(
            fonts,
            p,
            &text,
            x,
            y,
            14.0,
            pal.frame,
            ink_on(pal.frame),
            strip.right() - x,
        );
        x += w + 8.0;
    }
}

fn printed_pt(c: &PermanentCard) -> Option<(i32, i32)> {
    let f = c.face.as_ref()?;
    if c.face_down {
        return Some((2, 2));
    }
    Some((
        f.power.as_ref()?.parse().ok()?,
        f.toughness.as_ref()?.parse().ok()?,
    ))
}

fn draw_unit(
    fonts: &mut Fonts,
    p: &mut Pixmap,
    ctx: &Ctx,
    owner: usize,
    u: &Unit,
) -> Result<(), RenderError> {
    let s = ctx.s;
    let Some(&(perm, _)) = u.ids.first().and_then(|id| ctx.perms.get(id)) else {
        return Ok(());
    };
    let card = u.card;
    let (cw, ch) = if u.tapped {
        (card.h, card.w)
    } else {
        (card.w, card.h)
    };
    let radius = 7.0 * s;

    // Attachments as tabs above the card.
    let tab_h = (layout::TAB_H * s).max(18.0).round();
    let n_att = u.attachments.len();
    for (k, att) in u.attachments.iter().enumerate() {
        let Some(&(ac, actrl)) = ctx.perms.get(att) else {
            continue;
        };
        let ty = card.y - (n_att - k) as f32 * tab_h;
        let (fill, name) = match &ac.face {
            Some(f) if !ac.face_down => (
                theme::palette(f).frame,
                display_name(f, ctx.lang).to_string(),
            ),
            _ => (theme::FACE_DOWN.0, "face-down card".to_string()),
        };
        draw::fill_rrect(
            p,
            card.x,
            ty,
            card.w,
            tab_h + radius + 2.0,
            radius,
            fill,
            1.0,
        );
        draw::stroke_rrect(
            p,
            card.x + 0.5,
            ty + 0.5,
            card.w - 1.0,
            tab_h + radius + 1.0,
            radius,
            fill.darken(0.5),
            1.0,
            1.0,
        );
        let mut label = format!("⚲ {name}");
        if actrl != owner {
            label = format!("{label} ({})", ctx.player_name(actrl));
        }
        if ac.tapped {
            label.push_str(" · tapped");
        }
        let style = Style::new((12.5 * s).max(11.0), ink_on(fill))
            .bold()
            .condensed();
        fonts.draw(
            p,
            &label,
            style,
            Bounds::line(card.w - 10.0),
            card.x + 5.0,
            ty + (tab_h - style.size * 1.22) / 2.0,
        );
        if let Some(nums) = ctx.targeted_by.get(att) {
            let t = format!("◎ {}", numbers(nums));
            let st = Style::new((11.0 * s).max(10.0), theme::TEXT_LIGHT).bold();
            let (tw, _) = fonts.measure(&t, st, Bounds::free());
            draw::fill_rrect(
                p,
                card.right() - tw - 10.0,
                ty + 2.0,
                tw + 8.0,
                tab_h - 4.0,
                4.0,
                theme::TARGET,
                1.0,
            );
            fonts.draw(p, &t, st, Bounds::free(), card.right() - tw - 6.0, ty + 3.0);
        }
    }

    // Shadow cards behind a stack of identical lands.
    let extra = u.count().saturating_sub(1).min(3);
    let step = (layout::STACK_STEP * s).round().max(3.0);
    for k in (1..=extra).rev() {
        let (frame, _) = perm.face.as_ref().map_or(theme::LAND, |f| {
            let pal = theme::palette(f);
            (pal.frame, pal.fill)
        });
        let off = k as f32 * step;
        draw::fill_rrect(
            p,
            card.x + off,
            card.y - off,
            card.w,
            card.h,
            radius,
            frame.darken(0.25 + 0.1 * k as f32),
            1.0,
        );
        draw::stroke_rrect(
            p,
            card.x + off + 0.5,
            card.y - off + 0.5,
            card.w - 1.0,
            card.h - 1.0,
            radius,
            Rgb(0, 0, 0),
            1.0,
            0.5,
        );
    }

    // Badges, kept horizontal even on tapped cards.
    let bs = (12.0 * s).max(11.0);
    let mut badges: Vec<(String, Rgb, Rgb)> = Vec::new();
    if let Some(n) = ctx.attacker_no.get(&perm.id) {
        badges.push((format!("ATTACKING A{n}"), theme::ATTACK, theme::TEXT_LIGHT));
    }
    for b in &perm.blocking {
        let label = match ctx.attacker_no.get(b) {
            Some(n) => format!("BLOCKS A{n}"),
            None => format!("BLOCKS {}", ctx.perm_name(*b)),
        };
        badges.push((label, theme::BLOCK, theme::TEXT_LIGHT));
    }
    if let Some(nums) = ctx.targeted_by.get(&perm.id) {
        badges.push((
            format!("TARGET {}", numbers(nums)),
            theme::TARGET,
            theme::TEXT_LIGHT,
        ));
    }
    if perm.is_token {
        badges.push(("TOKEN".into(), theme::TOKEN, theme::TEXT_LIGHT));
    }
    if perm.summoning_sick {
        badges.push(("SICK".into(), theme::SICK, theme::TEXT_LIGHT));
    }
    if u.tapped && perm.group() != PermanentGroup::Land {
        badges.push((
            "TAPPED ↻".into(),
            Rgb(0x30, 0x30, 0x34),
            Rgb(0xf0, 0xf0, 0xf0),
        ));
    }
    for n in &perm.notes {
        badges.push((n.clone(), Rgb(0x50, 0x50, 0x58), theme::TEXT_LIGHT));
    }
    // Room the chips will take at the bottom of an untapped card; its text stops above.
    let has_pt_row = perm.power_toughness.is_some()
        && (perm.group() == PermanentGroup::Creature || perm.face_down)
        || perm.damage > 0;
    let chip_h0 = (13.0 * s).max(11.0) * 1.45;
    let reserve =
        4.0 + if has_pt_row {
            (17.0 * s).max(14.0) * 1.22 + 7.0
        } else {
            0.0
        } + perm.counters.len() as f32 * (chip_h0 + 2.0)
            + badges.len() as f32 * (bs * 1.38 + 2.0);
    let text_floor = if u.tapped {
        f32::MAX
    } else {
        card.bottom() - reserve
    };

    // The card itself, rotated when tapped.
    let face = perm.face.as_ref();
    if u.tapped {
        let mut img =
            Pixmap::new(cw.ceil() as u32, ch.ceil() as u32).ok_or(RenderError::TooLarge {
                width: cw as u32,
                height: ch as u32,
            })?;
        card::mini_card(
            fonts,
            &mut img,
            (0.0, 0.0),
            face,
            perm.face_down,
            true,
            (cw, ch),
            s,
            ctx.lang,
            f32::MAX,
        )?;
        draw::blit(p, &img, card.x, card.y, true);
    } else {
        card::mini_card(
            fonts,
            p,
            (card.x, card.y),
            face,
            perm.face_down,
            false,
            (cw, ch),
            s,
            ctx.lang,
            text_floor,
        )?;
    }
    let mut badge_top = card.y + card.h * 0.36;
    if u.tapped {
        draw::fill_rrect(
            p,
            card.x,
            card.y,
            card.w,
            card.h,
            radius,
            Rgb(0, 0, 0),
            0.18,
        );
        // The rotated name is hard to read: repeat it on a horizontal strip.
        let name = match face {
            Some(f) if !perm.face_down => display_name(f, ctx.lang).to_string(),
            Some(f) => format!("Face down ({})", display_name(f, ctx.lang)),
            None => "Face down".to_string(),
        };
        let fill = match face {
            Some(f) if !perm.face_down => theme::palette(f).fill.lighten(0.5),
            _ => theme::FACE_DOWN.1.lighten(0.6),
        };
        let style = Style::new((14.5 * s).max(12.0), theme::TEXT_DARK)
            .bold()
            .condensed();
        let inset = (5.0 * s).max(3.0);
        let block = fonts.layout(&name, style, Bounds::line(card.w - 2.0 * inset - 8.0));
        let sh = block.height + 6.0;
        draw::fill_rrect(
            p,
            card.x + inset,
            card.y + inset,
            card.w - 2.0 * inset,
            sh,
            4.0,
            fill,
            0.96,
        );
        draw::stroke_rrect(
            p,
            card.x + inset,
            card.y + inset,
            card.w - 2.0 * inset,
            sh,
            4.0,
            Rgb(0, 0, 0),
            1.0,
            0.35,
        );
        fonts.draw_block(p, &block, card.x + inset + 4.0, card.y + inset + 3.0);
        badge_top = card.y + inset + sh + 3.0;
        if let Some(sym) = face
            .filter(|_| !perm.face_down)
            .and_then(card::basic_land_symbol)
        {
            let r = ((card.bottom() - badge_top) * 0.36).min(card.w * 0.16);
            let cy = (badge_top + card.bottom()) / 2.0;
            crate::mana::draw_symbol(fonts, p, &sym, card.x + card.w * 0.62, cy, r);
        }
    }

    // Outlines: attacking, blocking, targeted, token.
    let mut outline_w = 0.0;
    let mut ring = |c: Rgb, p: &mut Pixmap| {
        let w = (4.0 * s).max(3.0);
        let o = outline_w + w / 2.0;
        draw::stroke_rrect(
            p,
            card.x - o,
            card.y - o,
            card.w + 2.0 * o,
            card.h + 2.0 * o,
            radius + o,
            c,
            w,
            1.0,
        );
        outline_w += w;
    };
    if perm.attacking {
        ring(theme::ATTACK, p);
    }
    if !perm.blocking.is_empty() {
        ring(theme::BLOCK, p);
    }
    if ctx.targeted_by.contains_key(&perm.id) {
        ring(theme::TARGET, p);
    }
    if perm.is_token {
        draw::dashed_rrect(
            p,
            card.x + 2.0,
            card.y + 2.0,
            card.w - 4.0,
            card.h - 4.0,
            radius,
            theme::TOKEN,
            2.0 * s.max(0.8),
        );
    }

    // Bottom up: P/T and damage, then counters, then (untapped cards) the badges.
    let chip = (13.0 * s).max(11.0);
    let chip_h = chip * 1.45;
    let mut floor = card.bottom() - 4.0;
    let mut right = card.right() - 4.0;
    let mut row_h: f32 = 0.0;
    if let Some((pw, tg)) = perm.power_toughness
        && (perm.group() == PermanentGroup::Creature || perm.face_down)
    {
        let text = format!("{pw}/{tg}");
        let style = Style::new((17.0 * s).max(14.0), theme::TEXT_DARK).bold();
        let (tw, th) = fonts.measure(&text, style, Bounds::free());
        let w = tw + 12.0 * s.max(0.7);
        let h = th + 4.0;
        let fill = match printed_pt(perm) {
            Some((pp, pt)) if pw + tg > pp + pt => Rgb(0xc8, 0xf0, 0xc8),
            Some((pp, pt)) if pw + tg < pp + pt => Rgb(0xf8, 0xc8, 0xc8),
            _ => Rgb(0xfa, 0xfa, 0xf6),
        };
        draw::fill_rrect(p, right - w, floor - h, w, h, 5.0, fill, 1.0);
        draw::stroke_rrect(
            p,
            right - w,
            floor - h,
            w,
            h,
            5.0,
            theme::TEXT_DARK,
            1.5,
            1.0,
        );
        fonts.draw_centered(p, &text, style, right - w / 2.0, floor - h / 2.0);
        right -= w + 3.0;
        row_h = h;
    }
    if perm.damage > 0 {
        let text = format!("{} dmg", perm.damage);
        let style = Style::new(chip, theme::TEXT_LIGHT).bold().condensed();
        let (w, _) = fonts.measure(&text, style, Bounds::free());
        let x = (right - w - chip * 0.8).max(card.x + 2.0);
        let y = floor - row_h.max(chip_h) + (row_h.max(chip_h) - chip_h) / 2.0;
        pill(
            fonts,
            p,
            &text,
            x,
            y,
            chip,
            theme::DAMAGE,
            theme::TEXT_LIGHT,
            card.w,
        );
        row_h = row_h.max(chip_h);
    }
    if row_h > 0.0 {
        floor -= row_h + 3.0;
    }
    for c in perm.counters.iter().rev() {
        let text = if c.count == 1 {
            format!("{} counter", c.kind)
        } else {
            format!("{} ×{}", c.kind, c.count)
        };
        pill(
            fonts,
            p,
            &text,
            card.x + 4.0,
            floor - chip_h,
            chip,
            theme::COUNTER,
            theme::TEXT_LIGHT,
            card.w - 8.0,
        );
        floor -= chip_h + 2.0;
    }
    let bh = bs * 1.38;
    let mut by = if u.tapped {
        badge_top
    } else {
        let total = badges.len() as f32 * (bh + 2.0);
        (floor - total).max(card.y + card.h * 0.2)
    };
    for (text, fill, ink) in &badges {
        let (_, h) = pill(
            fonts,
            p,
            text,
            card.x + 4.0,
            by,
            bs,
            *fill,
            *ink,
            card.w - 8.0,
        );
        by += h + 2.0;
    }

    // Count of a land stack.
    if u.count() > 1 {
        let r = (15.0 * s).max(13.0);
        let cx = card.right() - r + 2.0 + extra as f32 * step;
        let cy = card.y - extra as f32 * step + r - 2.0;
        draw::fill_circle(p, cx, cy, r, Rgb(0x10, 0x10, 0x14), 0.92);
        draw::stroke_circle(p, cx, cy, r, theme::HIGHLIGHT, 2.0);
        fonts.draw_centered(
            p,
            &format!("×{}", u.count()),
            Style::new(r * 1.0, theme::HIGHLIGHT).bold(),
            cx,
            cy,
        );
    }

    Ok(())
}

fn combat_lines(p: &mut Pixmap, ctx: &Ctx, lay: &BoardLayout) {
    let mut centers: HashMap<u32, Rect> = HashMap::new();
    for pl in &lay.players {
        for u in &pl.units {
            for id in &u.ids {
                centers.insert(*id, u.card);
            }
        }
    }
    for (id, (c, _)) in &ctx.perms {
        for a in &c.blocking {
            let (Some(from), Some(to)) = (centers.get(id), centers.get(a)) else {
                continue;
            };
            // Edge-to-edge between the two cards, vertical where they face each other.
            let (fx, fy) = from.center();
            let (tx, ty) = to.center();
            let (y0, y1) = if fy > ty {
                (from.y, to.bottom())
            } else {
                (from.bottom(), to.y)
            };
            let w = (5.0 * ctx.s).max(4.0);
            draw::line(p, fx, y0, tx, y1, Rgb(0x0b, 0x1a, 0x2a), w + 3.0, 0.8);
            draw::line(p, fx, y0, tx, y1, theme::BLOCK, w, 1.0);
            draw::fill_circle(p, fx, y0, w * 1.3, theme::BLOCK, 1.0);
            // Arrowhead at the attacker.
            let (dx, dy) = (tx - fx, y1 - y0);
            let len = (dx * dx + dy * dy).sqrt().max(1.0);
            let (ux, uy) = (dx / len, dy / len);
            let ah = w * 3.0;
            let tip = (tx, y1);
            let base = (tx - ux * ah, y1 - uy * ah);
            let n = (-uy * ah * 0.6, ux * ah * 0.6);
            draw::fill_polygon(
                p,
                &[
                    tip,
                    (base.0 + n.0, base.1 + n.1),
                    (base.0 - n.0, base.1 - n.1),
                ],
                theme::BLOCK,
                1.0,
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Side panel: stack and recent actions, measured before the image is allocated.

enum Op {
    Block(f32, f32, TextBlock),
    RRect(Rect, f32, Rgb, f32),
    Cost(f32, f32, f32, Vec<ManaSymbol>),
}

struct SidePanel {
    ops: Vec<Op>,
    height: f32,
}

impl SidePanel {
    fn paint(self, fonts: &mut Fonts, p: &mut Pixmap) {
        for op in self.ops {
            match op {
                Op::Block(x, y, b) => fonts.draw_block(p, &b, x, y),
                Op::RRect(r, rad, c, a) => draw::fill_rrect(p, r.x, r.y, r.w, r.h, rad, c, a),
                Op::Cost(x, cy, d, syms) => {
                    mana::draw_cost(fonts, p, &syms, x, cy, d);
                }
            }
        }
    }
}

fn kind_label(k: StackKind) -> &'static str {
    match k {
        StackKind::Spell => "spell",
        StackKind::ActivatedAbility => "activated ability",
        StackKind::TriggeredAbility => "triggered ability",
    }
}

fn side_panel(fonts: &mut Fonts, ctx: &Ctx, lay: &BoardLayout) -> SidePanel {
    let x = lay.side_x;
    let w = lay.side_w;
    let top = layout::PHASE_BAR_HEIGHT + layout::MARGIN;
    let mut ops = Vec::new();
    let mut y = top + 10.0;
    let pad = 12.0;
    let inner = w - 2.0 * pad;
    // Background is added last-first: remember the index.
    let bg_index = ops.len();
    ops.push(Op::RRect(Rect::default(), 12.0, theme::PANEL, 1.0));

    let stack = &ctx.scene.stack;
    let title = if stack.is_empty() {
        "Stack: empty".to_string()
    } else {
        format!("Stack ({}) · top resolves first", stack.len())
    };
    let b = fonts.layout(
        &title,
        Style::new(18.0, theme::TEXT_LIGHT).bold(),
        Bounds::line(inner),
    );
    let h = b.height;
    ops.push(Op::Block(x + pad, y, b));
    y += h + 8.0;

    for (i, item) in stack.iter().enumerate().rev() {
        let no = stack.len() - i;
        let card_x = x + pad;
        let card_w = inner;
        let tx = card_x + 14.0;
        let tw = card_w - 22.0;
        let start = y;
        let bg_i = ops.len();
        ops.push(Op::RRect(Rect::default(), 8.0, Rgb(0, 0, 0), 1.0));
        ops.push(Op::RRect(Rect::default(), 3.0, Rgb(0, 0, 0), 1.0));
        let mut iy = y + 7.0;
        let head = format!(
            "#{no} · {} · {}",
            ctx.player_name(item.controller),
            kind_label(item.kind)
        );
        let hb = fonts.layout(
            &head,
            Style::new(13.0, theme::player_colour(item.controller)).bold(),
            Bounds::line(tw),
        );
        let hh = hb.height;
        ops.push(Op::Block(tx, iy, hb));
        iy += hh + 2.0;
        let (name, cost, fill) = match &item.face {
            Some(f) => (
                display_name(f, ctx.lang).to_string(),
                mana::parse_cost(&f.mana_cost),
                theme::palette(f).fill,
            ),
            None => (
                "Face-down spell".to_string(),
                Vec::new(),
                theme::FACE_DOWN.1,
            ),
        };
        let d = 18.0;
        let cost_w = if item.kind == StackKind::Spell {
            mana::cost_width(&cost, d, d * 0.12)
        } else {
            0.0
        };
        let nb = fonts.layout(
            &name,
            Style::new(17.0, ink_on(fill)).bold(),
            Bounds::lines(tw - cost_w - 6.0, 2),
        );
        let nh = nb.height;
        ops.push(Op::Block(tx, iy, nb));
        if cost_w > 0.0 {
            ops.push(Op::Cost(tx + tw - cost_w, iy + 11.0, d, cost));
        }
        iy += nh.max(d) + 3.0;
        let body = if item.text.is_empty() {
            item.face
                .as_ref()
                .map(|f| f.rules_text.clone())
                .unwrap_or_default()
        } else {
            item.text.clone()
        };
        if !body.is_empty() {
            let bb = fonts.layout(
                &body.replace('\n', "  "),
                Style::new(13.5, ink_on(fill)).condensed().symbols(),
                Bounds::lines(tw, 5),
            );
            let bh = bb.height;
            ops.push(Op::Block(tx, iy, bb));
            iy += bh + 3.0;
        }
        if !item.targets.is_empty() {
            let t: Vec<String> = item.targets.iter().map(|t| ctx.target_text(t)).collect();
            let tb = fonts.layout(
                &format!("→ {}", t.join(", ")),
                Style::new(14.5, theme::TARGET.darken(0.25))
                    .bold()
                    .condensed(),
                Bounds::lines(tw, 3),
            );
            let th = tb.height;
            ops.push(Op::Block(tx, iy, tb));
            iy += th + 2.0;
        }
        iy += 6.0;
        ops[bg_i] = Op::RRect(Rect::new(card_x, start, card_w, iy - start), 8.0, fill, 1.0);
        ops[bg_i + 1] = Op::RRect(
            Rect::new(card_x, start, 7.0, iy - start),
            3.0,
            theme::player_colour(item.controller),
            1.0,
        );
        y = iy + 8.0;
    }

    y += 8.0;
    ops.push(Op::RRect(
        Rect::new(x + pad, y, inner, 1.0),
        0.0,
        theme::PANEL_LINE,
        1.0,
    ));
    y += 10.0;
    let b = fonts.layout(
        "Recent actions",
        Style::new(18.0, theme::TEXT_LIGHT).bold(),
        Bounds::line(inner),
    );
    let h = b.height;
    ops.push(Op::Block(x + pad, y, b));
    y += h + 6.0;
    let actions = &ctx.scene.recent_actions;
    if actions.is_empty() {
        let b = fonts.layout(
            "Nothing yet.",
            Style::new(15.0, theme::TEXT_DIM).italic(),
            Bounds::line(inner),
        );
        let h = b.height;
        ops.push(Op::Block(x + pad, y, b));
        y += h + 4.0;
    }
    let last = actions.len().saturating_sub(1);
    let first = actions.len().saturating_sub(8);
    for (i, a) in actions.iter().enumerate().skip(first) {
        let colour = if i == last {
            theme::TEXT_LIGHT
        } else {
            theme::TEXT_DIM
        };
        let bullet = fonts.layout("•", Style::new(15.0, colour), Bounds::free());
        ops.push(Op::Block(x + pad, y, bullet));
        let b = fonts.layout(
            a,
            Style::new(15.0, colour).symbols(),
            Bounds::lines(inner - 14.0, 4),
        );
        let h = b.height;
        ops.push(Op::Block(x + pad + 14.0, y, b));
        y += h + 5.0;
    }
    y += 8.0;
    let height = y - top;
    ops[bg_index] = Op::RRect(Rect::new(x, top, w, height), 12.0, theme::PANEL, 1.0);
    SidePanel { ops, height }
}
