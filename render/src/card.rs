//! Card faces: the small card used on the board, the full card used in hands and the card image.

use tiny_skia::Pixmap;

use crate::draw::{self, Rgb};
use crate::mana;
use crate::scene::CardFace;
use crate::text::{Align, Bounds, Fonts, Style};
use crate::theme::{self, FramePalette};
use crate::{Language, RenderError};

/// The name to show in `lang`.
pub fn display_name(face: &CardFace, lang: Language) -> &str {
    match (lang, &face.name_zh) {
        (Language::ZhHant, Some(zh)) if !zh.trim().is_empty() => zh,
        _ => &face.name,
    }
}

/// Dark or light ink for text on `bg`.
pub fn ink_on(bg: Rgb) -> Rgb {
    if bg.luma() > 140.0 {
        theme::TEXT_DARK
    } else {
        theme::TEXT_LIGHT
    }
}

/// Frame, coloured border with a two-colour stripe where it applies.
#[allow(clippy::too_many_arguments)]
fn draw_frame(
    p: &mut Pixmap,
    x: f32,
    y: f32,
    w: f32,
    h: f32,
    r: f32,
    border: f32,
    pal: &FramePalette,
) {
    draw::fill_rrect(p, x, y, w, h, r, pal.frame, 1.0);
    if let [Some(a), Some(b)] = pal.accents {
        // Two-colour cards: gold frame with the two colours down the left and right edges.
        let bw = (border * 0.9).max(2.0);
        draw::fill_rrect(p, x, y + r, bw, h - 2.0 * r, bw / 2.0, a, 1.0);
        draw::fill_rrect(p, x + w - bw, y + r, bw, h - 2.0 * r, bw / 2.0, b, 1.0);
    }
    draw::fill_rrect(
        p,
        x + border,
        y + border,
        w - 2.0 * border,
        h - 2.0 * border,
        (r - border).max(2.0),
        pal.fill,
        1.0,
    );
    draw::stroke_rrect(
        p,
        x + 0.5,
        y + 0.5,
        w - 1.0,
        h - 1.0,
        r,
        pal.frame.darken(0.45),
        1.0,
        1.0,
    );
}

/// The back of a card (face-down permanents).
pub fn draw_back(p: &mut Pixmap, x: f32, y: f32, w: f32, h: f32, r: f32) {
    let (frame, fill) = theme::FACE_DOWN;
    draw::fill_rrect(p, x, y, w, h, r, frame, 1.0);
    draw::fill_rrect(
        p,
        x + w * 0.06,
        y + w * 0.06,
        w * 0.88,
        h - w * 0.12,
        r * 0.7,
        fill,
        1.0,
    );
    // An oval in the middle, like a card back.
    let cx = x + w / 2.0;
    let cy = y + h / 2.0;
    let rx = w * 0.32;
    let ry = h * 0.36;
    let mut pts = Vec::with_capacity(48);
    for i in 0..48 {
        let a = i as f32 / 48.0 * std::f32::consts::TAU;
        pts.push((cx + rx * a.cos(), cy + ry * a.sin()));
    }
    draw::fill_polygon(p, &pts, Rgb(0x8c, 0x62, 0x3e), 1.0);
    let inner: Vec<(f32, f32)> = pts
        .iter()
        .map(|&(px, py)| (cx + (px - cx) * 0.82, cy + (py - cy) * 0.82))
        .collect();
    draw::fill_polygon(p, &inner, Rgb(0x5a, 0x3b, 0x24), 1.0);
    draw::stroke_rrect(
        p,
        x + 0.5,
        y + 0.5,
        w - 1.0,
        h - 1.0,
        r,
        Rgb(0x20, 0x14, 0x0c),
        1.0,
        1.0,
    );
}

/// Small board card drawn on `p` with its top-left at (ox, oy), `w x h` (the board draws tapped
/// cards into a scratch pixmap and rotates it). `face` is `None` for an unidentified face-down
/// permanent. A `bare` card has its frame and title band but no text (tapped cards: the board
/// writes their name horizontally). Keyword text stops above `text_floor` (room for chips).
#[allow(clippy::too_many_arguments)]
pub fn mini_card(
    fonts: &mut Fonts,
    p: &mut Pixmap,
    (ox, oy): (f32, f32),
    face: Option<&CardFace>,
    face_down: bool,
    bare: bool,
    (w, h): (f32, f32),
    s: f32,
    lang: Language,
    text_floor: f32,
) -> Result<(), RenderError> {
    let r = 7.0 * s;
    if face_down {
        draw_back(p, ox, oy, w, h, r);
        if bare {
            return Ok(());
        }
        let label = Style::new((13.0 * s).max(11.0), Rgb(0xf6, 0xe6, 0xcc))
            .bold()
            .condensed();
        fonts.draw(
            p,
            "Face down",
            label,
            Bounds::line(w - 8.0).align(Align::Center),
            ox + 4.0,
            oy + 6.0 * s,
        );
        if let Some(face) = face {
            // The controller may look at it.
            let peek = Style::new((12.0 * s).max(10.5), Rgb(0xff, 0xf4, 0xd8))
                .italic()
                .condensed();
            let name = format!("({})", display_name(face, lang));
            let block = fonts.layout(&name, peek, Bounds::lines(w - 10.0, 3).align(Align::Center));
            let by = oy + h / 2.0 - block.height / 2.0;
            draw::fill_rrect(
                p,
                ox + 4.0,
                by - 3.0,
                w - 8.0,
                block.height + 6.0,
                4.0,
                Rgb(0x2a, 0x1c, 0x12),
                0.8,
            );
            fonts.draw_block(p, &block, ox + 5.0, by);
        }
        return Ok(());
    }
    let Some(face) = face else {
        return Err(RenderError::InvalidScene(
            "a face-up permanent has no face".into(),
        ));
    };
    let pal = theme::palette(face);
    let border = (4.0 * s).max(3.0);
    draw_frame(p, ox, oy, w, h, r, border, &pal);

    let pad = border + 3.0 * s;
    let inner_w = w - 2.0 * pad;
    // Name: bold, up to two lines.
    let name_style = Style::new((14.5 * s).max(12.0), theme::TEXT_DARK)
        .bold()
        .condensed()
        .line_height(1.1);
    let name = display_name(face, lang);
    let name_style = fit_longest_word(fonts, name, name_style, inner_w, 10.5);
    let title_h = if bare {
        name_style.size * 2.3
    } else {
        let block = fonts.layout(name, name_style, Bounds::lines(inner_w, 2));
        let title_h = block.height + 5.0 * s;
        draw::fill_rrect(
            p,
            ox + border + 1.0,
            oy + border + 1.0,
            w - 2.0 * border - 2.0,
            title_h + 2.0 * s,
            (r - border).max(2.0),
            pal.fill.lighten(0.55),
            1.0,
        );
        fonts.draw_block(p, &block, ox + pad, oy + border + 3.0 * s);
        title_h
    };
    if bare {
        draw::fill_rrect(
            p,
            ox + border + 1.0,
            oy + border + 1.0,
            w - 2.0 * border - 2.0,
            title_h + 2.0 * s,
            (r - border).max(2.0),
            pal.fill.lighten(0.55),
            1.0,
        );
        return Ok(());
    }
    let mut y = oy + border + title_h + 5.0 * s;
    let x = ox + pad;

    // Mana cost.
    let cost = mana::parse_cost(&face.mana_cost);
    if !cost.is_empty() {
        let d = (15.0 * s).max(12.0);
        let cw = mana::cost_width(&cost, d, d * 0.12);
        let scale = if cw > inner_w { inner_w / cw } else { 1.0 };
        mana::draw_cost(fonts, p, &cost, x, y + d * scale / 2.0, d * scale);
        y += d * scale + 4.0 * s;
    }

    // Type line (not for basic lands: their name says it all).
    let basic = face.type_line.starts_with("Basic Land");
    let type_style = Style::new((10.5 * s).max(9.5), theme::TEXT_DARK_DIM).condensed();
    if basic {
        // A large mana symbol makes basic lands recognisable at a glance.
        if let Some(sym) = basic_land_symbol(face) {
            let d = (46.0 * s).min(w * 0.5);
            mana::draw_symbol(
                fonts,
                p,
                &sym,
                ox + w / 2.0,
                (y + oy + h - border) / 2.0,
                d / 2.0,
            );
        }
    } else {
        let (_, th) = fonts.draw(p, &face.type_line, type_style, Bounds::line(inner_w), x, y);
        y += th + 2.0 * s;
        draw::fill_rect(p, x, y, inner_w, 1.0, pal.frame, 0.6);
        y += 3.0 * s;
    }

    // Keyword lines only ("Flying, vigilance", "Echo {2}{R}"): full text is in the card image.
    let bottom = text_floor.min(oy + h - border - 24.0 * s);
    let keywords = keyword_lines(&face.rules_text);
    if y + 10.0 < bottom && !keywords.is_empty() {
        let text_style = Style::new((11.0 * s).max(10.0), theme::TEXT_DARK)
            .bold()
            .condensed()
            .symbols()
            .line_height(1.15);
        let lines = ((bottom - y) / (text_style.size * 1.15)).floor().max(1.0) as usize;
        fonts.draw(
            p,
            &keywords.join("\n"),
            text_style,
            Bounds::lines(inner_w, lines),
            x,
            y,
        );
    }
    Ok(())
}

/// The mana symbol a basic land's ability adds.
pub fn basic_land_symbol(face: &CardFace) -> Option<mana::ManaSymbol> {
    if !face.type_line.starts_with("Basic Land") {
        return None;
    }
    let i = face.rules_text.find("Add {")?;
    mana::parse_cost(&face.rules_text[i + 4..])
        .into_iter()
        .next()
}

/// Short keyword lines of rules text (no sentence punctuation), e.g. `"Flying"`, `"Morph {U}"`.
pub fn keyword_lines(text: &str) -> Vec<&str> {
    text.lines()
        .map(str::trim)
        .filter(|l| {
            !l.is_empty()
                && l.chars().count() <= 28
                && !l.contains('.')
                && !l.contains(':')
                && !l.contains('"')
        })
        .collect()
}

/// Shrinks `style` until the longest word of `text` fits on one line of `width` (not below
/// `min`), so names wrap between words rather than inside them.
pub fn fit_longest_word(
    fonts: &mut Fonts,
    text: &str,
    style: Style,
    width: f32,
    min: f32,
) -> Style {
    let Some(word) = text.split_whitespace().max_by_key(|w| w.chars().count()) else {
        return style;
    };
    let (ww, _) = fonts.measure(word, style, Bounds::free());
    if ww <= width || ww <= 0.0 {
        return style;
    }
    Style {
        size: (style.size * width / ww * 0.98).max(min),
        ..style
    }
}

/// Sizes of a full card.
#[derive(Clone, Copy, Debug)]
pub struct FullSpec {
    pub w: f32,
    pub h: f32,
    pub title: f32,
    pub type_size: f32,
    pub text: f32,
    pub min_text: f32,
    pub pt: f32,
}

impl FullSpec {
    pub fn large() -> Self {
        FullSpec {
            w: 520.0,
            h: 728.0,
            title: 28.0,
            type_size: 21.0,
            text: 23.0,
            min_text: 14.0,
            pt: 30.0,
        }
    }
    pub fn hand() -> Self {
        FullSpec {
            w: 240.0,
            h: 336.0,
            title: 16.0,
            type_size: 13.0,
            text: 14.5,
            min_text: 10.0,
            pt: 18.0,
        }
    }
}

/// Draws a full card (frame, name, cost, art box, type line, full text, P/T) at (x, y).
pub fn full_card(
    fonts: &mut Fonts,
    p: &mut Pixmap,
    face: &CardFace,
    x: f32,
    y: f32,
    spec: FullSpec,
    lang: Language,
) {
    let FullSpec { w, h, .. } = spec;
    let u = w / 520.0;
    let pal = theme::palette(face);
    let r = 22.0 * u;
    let border = (14.0 * u).max(5.0);
    draw_frame(p, x, y, w, h, r, border, &pal);
    let pad = border + 6.0 * u;
    let inner_x = x + border + 4.0 * u;
    let inner_w = w - 2.0 * (border + 4.0 * u);

    // Title bar: name left, cost right.
    let cost = mana::parse_cost(&face.mana_cost);
    let d = spec.title * 1.02;
    let gap = d * 0.12;
    let cost_w = mana::cost_width(&cost, d, gap);
    let name_style = Style::new(spec.title, theme::TEXT_DARK)
        .bold()
        .condensed()
        .line_height(1.1);
    let name_w = inner_w - 12.0 * u - if cost_w > 0.0 { cost_w + 8.0 * u } else { 0.0 };
    let name_style = fit_longest_word(
        fonts,
        display_name(face, lang),
        name_style,
        name_w.max(20.0),
        spec.title * 0.6,
    );
    let name_block = fonts.layout(
        display_name(face, lang),
        name_style,
        Bounds::lines(name_w.max(20.0), 2),
    );
    let title_h = name_block.height.max(d) + 14.0 * u;
    let ty = y + border + 4.0 * u;
    draw::fill_rrect(
        p,
        inner_x,
        ty,
        inner_w,
        title_h,
        8.0 * u,
        pal.fill.lighten(0.6),
        1.0,
    );
    draw::stroke_rrect(
        p,
        inner_x,
        ty,
        inner_w,
        title_h,
        8.0 * u,
        pal.frame.darken(0.3),
        1.5 * u.max(0.7),
        1.0,
    );
    fonts.draw_block(
        p,
        &name_block,
        inner_x + 6.0 * u,
        ty + (title_h - name_block.height) / 2.0,
    );
    if !cost.is_empty() {
        mana::draw_cost(
            fonts,
            p,
            &cost,
            inner_x + inner_w - 6.0 * u - cost_w,
            ty + title_h / 2.0,
            d,
        );
    }

    // Art box: the colour, the other-language name, a token marker.
    let art_y = ty + title_h + 6.0 * u;
    let art_h = h * 0.2;
    let art_fill = pal.frame.mix(pal.fill, 0.45);
    draw::fill_rect(
        p,
        inner_x + 4.0 * u,
        art_y,
        inner_w - 8.0 * u,
        art_h,
        art_fill,
        1.0,
    );
    // No art: soft bands of the card's colours.
    let bands = 4;
    for k in 0..bands {
        let bh = art_h / bands as f32;
        let tint = if let [Some(a), Some(b)] = pal.accents {
            if k % 2 == 0 { a } else { b }
        } else {
            pal.frame
        };
        draw::fill_rect(
            p,
            inner_x + 4.0 * u,
            art_y + k as f32 * bh,
            inner_w - 8.0 * u,
            bh,
            tint.mix(pal.fill, 0.3 + 0.12 * k as f32),
            1.0,
        );
    }
    draw::stroke_rrect(
        p,
        inner_x + 4.0 * u,
        art_y,
        inner_w - 8.0 * u,
        art_h,
        1.0,
        pal.frame.darken(0.35),
        1.5 * u.max(0.7),
        1.0,
    );
    let other_name = match lang {
        Language::ZhHant if face.name_zh.is_some() => Some(face.name.as_str()),
        _ => None,
    };
    let art_ink = ink_on(pal.frame.mix(pal.fill, 0.45));
    if let Some(n) = other_name {
        fonts.draw(
            p,
            n,
            Style::new(spec.type_size, art_ink).italic(),
            Bounds::line(inner_w - 24.0 * u).align(Align::Center),
            inner_x + 12.0 * u,
            art_y + art_h / 2.0 - spec.type_size * 0.6,
        );
    }
    if face.is_token {
        let ts = Style::new(spec.type_size, theme::TEXT_LIGHT).bold();
        let (tw, th) = fonts.measure("TOKEN", ts, Bounds::free());
        let bx = inner_x + inner_w / 2.0 - tw / 2.0 - 8.0 * u;
        let by = art_y + art_h - th - 14.0 * u;
        draw::fill_rrect(
            p,
            bx,
            by,
            tw + 16.0 * u,
            th + 6.0 * u,
            6.0 * u,
            theme::TOKEN,
            1.0,
        );
        fonts.draw(p, "TOKEN", ts, Bounds::free(), bx + 8.0 * u, by + 3.0 * u);
    }

    // Type line.
    let type_y = art_y + art_h + 6.0 * u;
    let type_style = Style::new(spec.type_size, theme::TEXT_DARK)
        .bold()
        .condensed();
    let type_block = fonts.layout(
        &face.type_line,
        type_style,
        Bounds::lines(inner_w - 12.0 * u, 2),
    );
    let type_h = type_block.height + 10.0 * u;
    draw::fill_rrect(
        p,
        inner_x,
        type_y,
        inner_w,
        type_h,
        8.0 * u,
        pal.fill.lighten(0.6),
        1.0,
    );
    draw::stroke_rrect(
        p,
        inner_x,
        type_y,
        inner_w,
        type_h,
        8.0 * u,
        pal.frame.darken(0.3),
        1.5 * u.max(0.7),
        1.0,
    );
    fonts.draw_block(p, &type_block, inner_x + 6.0 * u, type_y + 5.0 * u);

    // Text box, shrinking the font until all the text fits.
    let has_pt = face.power.is_some() || face.toughness.is_some();
    let pt_h = spec.pt + 12.0 * u;
    let box_y = type_y + type_h + 6.0 * u;
    let box_bottom = y + h - border - 4.0 * u - if has_pt { pt_h * 0.55 } else { 0.0 };
    let box_h = (box_bottom - box_y).max(10.0);
    draw::fill_rect(
        p,
        inner_x + 4.0 * u,
        box_y,
        inner_w - 8.0 * u,
        box_h,
        pal.fill.lighten(0.75),
        1.0,
    );
    let text_w = inner_w - 8.0 * u - 2.0 * pad.min(12.0 * u).max(6.0);
    let text_x = inner_x + 4.0 * u + pad.min(12.0 * u).max(6.0);
    let avail_h = box_h - 12.0 * u - if has_pt { pt_h * 0.45 } else { 0.0 };
    if !face.rules_text.is_empty() {
        let mut size = spec.text;
        let mut block;
        loop {
            let style = Style::new(size, theme::TEXT_DARK)
                .symbols()
                .line_height(1.2);
            block = fonts.layout(&paragraphs(&face.rules_text), style, Bounds::wrap(text_w));
            if block.height <= avail_h || size <= spec.min_text {
                break;
            }
            size = (size - 1.0).max(spec.min_text);
        }
        if block.height > avail_h {
            // Still too long at the smallest size: cut with an ellipsis.
            let style = Style::new(size, theme::TEXT_DARK)
                .symbols()
                .line_height(1.2);
            let lines = (avail_h / (size * 1.2)).floor().max(1.0) as usize;
            block = fonts.layout(
                &paragraphs(&face.rules_text),
                style,
                Bounds::lines(text_w, lines),
            );
        }
        fonts.draw_block(p, &block, text_x, box_y + 6.0 * u);
    }

    // Power / toughness.
    if has_pt {
        let pt = format!(
            "{}/{}",
            face.power.as_deref().unwrap_or("?"),
            face.toughness.as_deref().unwrap_or("?")
        );
        let style = Style::new(spec.pt, theme::TEXT_DARK).bold();
        let (tw, _) = fonts.measure(&pt, style, Bounds::free());
        let bw = tw + 24.0 * u.max(0.6);
        let bx = x + w - border - 8.0 * u - bw;
        let by = y + h - border - 6.0 * u - pt_h;
        draw::fill_rrect(p, bx, by, bw, pt_h, 8.0 * u, pal.fill.lighten(0.6), 1.0);
        draw::stroke_rrect(
            p,
            bx,
            by,
            bw,
            pt_h,
            8.0 * u,
            pal.frame.darken(0.35),
            2.0 * u.max(0.6),
            1.0,
        );
        fonts.draw_centered(p, &pt, style, bx + bw / 2.0, by + pt_h / 2.0);
    }
}

/// Rules text with a little air between abilities.
fn paragraphs(text: &str) -> String {
    text.trim().to_string()
}

/// The single-card image.
pub fn render(face: &CardFace, fonts: &mut Fonts, lang: Language) -> Result<Pixmap, RenderError> {
    let spec = FullSpec::large();
    let margin = 16.0;
    let mut p = draw::new_pixmap(
        (spec.w + 2.0 * margin) as u32,
        (spec.h + 2.0 * margin) as u32,
        theme::BG,
    )?;
    full_card(fonts, &mut p, face, margin, margin, spec, lang);
    Ok(p)
}
