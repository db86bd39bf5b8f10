//! League images: a sealed pool (every card with its count and cost, those not playable yet
//! marked) and a standings table.

use serde::{Deserialize, Serialize};
use tiny_skia::Pixmap;

use crate::card::display_name;
use crate::draw;
use crate::mana;
use crate::scene::CardFace;
use crate::text::{Align, Bounds, Fonts, Style};
use crate::theme;
use crate::{Language, RenderError};

/// One name of a pool.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PoolEntry {
    pub face: CardFace,
    pub count: u32,
    /// The engine plays it (else it is shown marked and cannot go in a deck).
    pub playable: bool,
}

/// A sealed pool as its owner sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PoolScene {
    /// E.g. "Ann's pool · 6 TSP".
    pub title: String,
    pub cards: Vec<PoolEntry>,
}

/// A standings table: a header and rows of cells (the name column left-aligned, the
/// others centred).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StandingsScene {
    pub title: String,
    pub header: Vec<String>,
    pub rows: Vec<StandingsRow>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StandingsRow {
    pub cells: Vec<String>,
    /// Drawn dimmed (a dropped player).
    pub dimmed: bool,
}

const GAP: f32 = 16.0;
const TITLE_H: f32 = 50.0;
const ROW_H: f32 = 28.0;
const COL_W: f32 = 360.0;
const COLS: usize = 3;

/// Colour groups in the order a pool is read: W U B R G, multicoloured, colourless, lands.
fn group(face: &CardFace) -> usize {
    if face.type_line.contains("Land") {
        return 7;
    }
    match face.colors.as_slice() {
        [] => 6,
        [c] => *c as usize,
        _ => 5,
    }
}

pub fn render_pool(
    pool: &PoolScene,
    fonts: &mut Fonts,
    lang: Language,
) -> Result<Pixmap, RenderError> {
    let mut cards: Vec<&PoolEntry> = pool.cards.iter().collect();
    cards.sort_by(|a, b| {
        (group(&a.face), !a.playable, &a.face.name).cmp(&(
            group(&b.face),
            !b.playable,
            &b.face.name,
        ))
    });
    let per_col = cards.len().div_ceil(COLS).max(1);
    let width = COLS as f32 * COL_W + (COLS as f32 + 1.0) * GAP;
    let height = TITLE_H + per_col as f32 * ROW_H + 2.0 * GAP + 24.0;
    let mut p = draw::new_pixmap(width.ceil() as u32, height.ceil() as u32, theme::BG)?;
    let total: u32 = pool.cards.iter().map(|c| c.count).sum();
    let ok: u32 = pool
        .cards
        .iter()
        .filter(|c| c.playable)
        .map(|c| c.count)
        .sum();
    let title = format!("{} · {total} cards · {ok} playable now", pool.title);
    fonts.draw(
        &mut p,
        &title,
        Style::new(22.0, theme::TEXT_LIGHT).bold(),
        Bounds::line(width - 2.0 * GAP),
        GAP,
        13.0,
    );
    for (i, c) in cards.iter().enumerate() {
        let col = i / per_col;
        let row = i % per_col;
        let x = GAP + col as f32 * (COL_W + GAP);
        let y = TITLE_H + row as f32 * ROW_H;
        let pal = theme::palette(&c.face);
        draw::fill_rrect(&mut p, x, y + 3.0, 10.0, ROW_H - 6.0, 3.0, pal.frame, 1.0);
        let ink = if c.playable {
            theme::TEXT_LIGHT
        } else {
            theme::TEXT_DIM
        };
        let cost = mana::parse_cost(&c.face.mana_cost);
        let cost_w = mana::cost_width(&cost, 18.0, 18.0 * 0.12);
        let label = format!(
            "{}× {}{}",
            c.count,
            display_name(&c.face, lang),
            if c.playable { "" } else { "  ✗" }
        );
        fonts.draw(
            &mut p,
            &label,
            Style::new(17.0, ink),
            Bounds::line(COL_W - cost_w - 28.0),
            x + 16.0,
            y + 4.0,
        );
        mana::draw_cost(
            fonts,
            &mut p,
            &cost,
            x + COL_W - cost_w - 4.0,
            y + ROW_H / 2.0,
            18.0,
        );
    }
    fonts.draw(
        &mut p,
        "✗ not playable yet: cannot go in a deck. Basic lands are unlimited.",
        Style::new(15.0, theme::TEXT_DIM),
        Bounds::line(width - 2.0 * GAP),
        GAP,
        height - GAP - 18.0,
    );
    Ok(p)
}

pub fn render_standings(
    s: &StandingsScene,
    fonts: &mut Fonts,
    _lang: Language,
) -> Result<Pixmap, RenderError> {
    // Column widths: rank, name, then equal numeric columns.
    let cols = s
        .header
        .len()
        .max(s.rows.iter().map(|r| r.cells.len()).max().unwrap_or(0));
    let widths: Vec<f32> = (0..cols)
        .map(|i| match i {
            0 => 50.0,
            1 => 260.0,
            _ => 100.0,
        })
        .collect();
    let width = widths.iter().sum::<f32>() + 2.0 * GAP;
    let height = TITLE_H + (s.rows.len() + 1) as f32 * ROW_H + 2.0 * GAP;
    let mut p = draw::new_pixmap(width.ceil() as u32, height.ceil() as u32, theme::BG)?;
    fonts.draw(
        &mut p,
        &s.title,
        Style::new(22.0, theme::TEXT_LIGHT).bold(),
        Bounds::line(width - 2.0 * GAP),
        GAP,
        13.0,
    );
    let mut draw_row = |p: &mut Pixmap, cells: &[String], y: f32, style: Style| {
        let mut x = GAP;
        for (i, w) in widths.iter().enumerate() {
            if let Some(c) = cells.get(i) {
                let align = if i == 1 { Align::Left } else { Align::Center };
                fonts.draw(
                    p,
                    c,
                    style,
                    Bounds::line(w - 10.0).align(align),
                    x + 4.0,
                    y + 4.0,
                );
            }
            x += w;
        }
    };
    draw_row(
        &mut p,
        &s.header,
        TITLE_H,
        Style::new(16.0, theme::TEXT_DIM).bold(),
    );
    for (i, r) in s.rows.iter().enumerate() {
        let y = TITLE_H + (i + 1) as f32 * ROW_H;
        if i % 2 == 0 {
            draw::fill_rect(&mut p, GAP, y, width - 2.0 * GAP, ROW_H, theme::PANEL, 1.0);
        }
        let ink = if r.dimmed {
            theme::TEXT_DIM
        } else {
            theme::TEXT_LIGHT
        };
        draw_row(&mut p, &r.cells, y, Style::new(17.0, ink));
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn face(name: &str, cost: &str, colours: Vec<crate::scene::Colour>) -> CardFace {
        CardFace {
            name: name.into(),
            mana_cost: cost.into(),
            colors: colours,
            type_line: "Creature — Bear".into(),
            ..Default::default()
        }
    }

    #[test]
    fn pool_and_standings_images_are_drawn() {
        use crate::scene::Colour;
        let pool = PoolScene {
            title: "Ann's pool · 6 TSP".into(),
            cards: (0..40)
                .map(|i| PoolEntry {
                    face: face(&format!("Card {i}"), "{1}{G}", vec![Colour::Green]),
                    count: 1 + i % 2,
                    playable: i % 3 != 0,
                })
                .collect(),
        };
        let png = crate::pool_png(&pool, &crate::RenderOptions::default()).expect("png");
        assert_eq!(&png[1..4], b"PNG");
        let s = StandingsScene {
            title: "Friday standings".into(),
            header: [
                "#", "Player", "Pts", "W-L-D", "OMW%", "GW%", "OGW%", "Rating",
            ]
            .map(String::from)
            .to_vec(),
            rows: vec![StandingsRow {
                cells: ["1", "Ann", "9", "3-0-0", "55.56", "85.71", "48.00", "1623?"]
                    .map(String::from)
                    .to_vec(),
                dimmed: false,
            }],
        };
        let png = crate::standings_png(&s, &crate::RenderOptions::default()).expect("png");
        assert_eq!(&png[1..4], b"PNG");
        // More rows make a taller image.
        let mut big = s.clone();
        big.rows = vec![s.rows[0].clone(); 20];
        let tall = crate::standings_png(&big, &crate::RenderOptions::default()).expect("png");
        assert_ne!(png, tall);
    }

    /// A card not playable yet is drawn marked: the same pool with one card playable and
    /// then not gives two different images, and the difference is in that card's entry
    /// (the title's count changes too), not in the other card's.
    #[test]
    fn a_card_not_playable_yet_is_drawn_marked() {
        use crate::scene::Colour;
        let scene = |playable: bool| PoolScene {
            title: "Ben's pool".into(),
            cards: vec![
                PoolEntry {
                    face: face("Alpha Bear", "{1}{G}", vec![Colour::Green]),
                    count: 1,
                    playable: true,
                },
                PoolEntry {
                    face: face("Beta Bear", "{2}{G}", vec![Colour::Green]),
                    count: 1,
                    playable,
                },
            ],
        };
        let opts = crate::RenderOptions::default();
        let mut fonts = Fonts::new(&opts).expect("fonts");
        let ok = render_pool(&scene(true), &mut fonts, opts.language).expect("pool");
        let marked = render_pool(&scene(false), &mut fonts, opts.language).expect("pool");
        assert_eq!((ok.width(), ok.height()), (marked.width(), marked.height()));
        let w = ok.width() as usize;
        // (x, y) of every pixel that differs.
        let changed: Vec<(usize, usize)> = ok
            .data()
            .chunks(4)
            .zip(marked.data().chunks(4))
            .enumerate()
            .filter(|(_, (a, b))| a != b)
            .map(|(i, _)| (i % w, i / w))
            .collect();
        assert!(!changed.is_empty(), "the unplayable card looks the same");
        // Two cards, one a column: Alpha Bear (playable, sorted first) in the first column,
        // Beta Bear in the second; below the title.
        let column =
            |c: f32| (GAP + c * (COL_W + GAP)) as usize..(GAP + c * (COL_W + GAP) + COL_W) as usize;
        let rows = TITLE_H as usize..(TITLE_H + ROW_H) as usize;
        let in_card = |c: f32| {
            changed
                .iter()
                .any(|(x, y)| column(c).contains(x) && rows.contains(y))
        };
        assert!(in_card(1.0), "Beta Bear's entry is marked");
        assert!(!in_card(0.0), "Alpha Bear's entry is unchanged");
    }
}
