//! The hand image: every card in full, playable ones marked.

use tiny_skia::Pixmap;

use crate::card::{self, FullSpec};
use crate::draw;
use crate::scene::HandScene;
use crate::text::{Bounds, Fonts, Style};
use crate::theme;
use crate::{Language, RenderError};

const COLS: usize = 5;
const GAP: f32 = 16.0;
const TITLE_H: f32 = 50.0;
const TAG_H: f32 = 30.0;

pub fn render(hand: &HandScene, fonts: &mut Fonts, lang: Language) -> Result<Pixmap, RenderError> {
    let spec = FullSpec::hand();
    let n = hand.cards.len();
    let cols = n.clamp(3, COLS);
    let rows = n.div_ceil(COLS).max(1);
    let width = cols as f32 * spec.w + (cols as f32 + 1.0) * GAP;
    let height = TITLE_H + rows as f32 * (spec.h + TAG_H + GAP) + GAP;
    let mut p = draw::new_pixmap(width.ceil() as u32, height.ceil() as u32, theme::BG)?;

    let playable = hand.cards.iter().filter(|c| c.playable).count();
    let title = format!(
        "{}'s hand · {} card{} · {} playable now",
        hand.owner,
        n,
        if n == 1 { "" } else { "s" },
        playable
    );
    fonts.draw(
        &mut p,
        &title,
        Style::new(22.0, theme::TEXT_LIGHT).bold(),
        Bounds::line(width - 2.0 * GAP),
        GAP,
        13.0,
    );
    if n == 0 {
        fonts.draw(
            &mut p,
            "No cards in hand.",
            Style::new(20.0, theme::TEXT_DIM),
            Bounds::line(width - 2.0 * GAP),
            GAP,
            TITLE_H + 40.0,
        );
        return Ok(p);
    }
    for (i, c) in hand.cards.iter().enumerate() {
        let col = i % COLS;
        let row = i / COLS;
        let x = GAP + col as f32 * (spec.w + GAP);
        let y = TITLE_H + row as f32 * (spec.h + TAG_H + GAP);
        if c.playable {
            draw::fill_rrect(
                &mut p,
                x - 6.0,
                y - 6.0,
                spec.w + 12.0,
                spec.h + 12.0,
                16.0,
                theme::PLAYABLE,
                0.35,
            );
            draw::stroke_rrect(
                &mut p,
                x - 4.0,
                y - 4.0,
                spec.w + 8.0,
                spec.h + 8.0,
                14.0,
                theme::PLAYABLE,
                3.0,
                1.0,
            );
        }
        card::full_card(fonts, &mut p, &c.face, x, y, spec, lang);
        let tag_y = y + spec.h + 7.0;
        let (label, colour) = if c.playable {
            ("▶ PLAYABLE", theme::PLAYABLE)
        } else {
            ("not playable now", theme::TEXT_DIM)
        };
        let style = if c.playable {
            Style::new(16.0, colour).bold()
        } else {
            Style::new(14.0, colour)
        };
        let num = format!("{}. ", i + 1);
        let (nw, _) = fonts.draw(
            &mut p,
            &num,
            Style::new(15.0, theme::TEXT_DIM),
            Bounds::free(),
            x + 4.0,
            tag_y + 1.0,
        );
        fonts.draw(
            &mut p,
            label,
            style,
            Bounds::line(spec.w - nw - 8.0),
            x + 4.0 + nw,
            tag_y,
        );
    }
    Ok(p)
}
