//! Mana symbols: parsing `{2}{R}{G/W}` and drawing each symbol as a coloured circle.

use tiny_skia::Pixmap;

use crate::draw::{self, Rgb};
use crate::scene::Colour;
use crate::text::{Fonts, Style};

/// One symbol in braces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ManaSymbol {
    /// A number or variable: `{3}`, `{X}`.
    Generic(String),
    Coloured(Colour),
    /// `{G/W}`.
    Hybrid(Colour, Colour),
    /// `{2/W}`.
    TwoHybrid(Colour),
    /// `{S}` snow.
    Snow,
    /// `{T}` tap.
    Tap,
    /// `{Q}` untap.
    Untap,
    /// Anything else, drawn as its text in a grey circle.
    Other(String),
}

/// Text and symbols in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part<'a> {
    Text(&'a str),
    Symbol(ManaSymbol),
}

fn colour_of(s: &str) -> Option<Colour> {
    match s {
        "W" => Some(Colour::White),
        "U" => Some(Colour::Blue),
        "B" => Some(Colour::Black),
        "R" => Some(Colour::Red),
        "G" => Some(Colour::Green),
        _ => None,
    }
}

/// Parses the inside of one pair of braces.
pub fn parse_symbol(inner: &str) -> ManaSymbol {
    let s = inner.trim().to_ascii_uppercase();
    if let Some(c) = colour_of(&s) {
        return ManaSymbol::Coloured(c);
    }
    match s.as_str() {
        "T" => return ManaSymbol::Tap,
        "Q" => return ManaSymbol::Untap,
        "S" => return ManaSymbol::Snow,
        _ => {}
    }
    if !s.is_empty()
        && (s.chars().all(|c| c.is_ascii_digit()) || matches!(s.as_str(), "X" | "Y" | "Z"))
    {
        return ManaSymbol::Generic(s);
    }
    if let Some((a, b)) = s.split_once('/') {
        match (colour_of(a), colour_of(b)) {
            (Some(x), Some(y)) => return ManaSymbol::Hybrid(x, y),
            (None, Some(y)) if a == "2" => return ManaSymbol::TwoHybrid(y),
            _ => {}
        }
    }
    ManaSymbol::Other(s)
}

/// Splits text into plain runs and `{...}` symbols. Unclosed braces stay text.
pub fn split_symbols(text: &str) -> Vec<Part<'_>> {
    let mut parts = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let Some(close_rel) = rest[open..].find('}') else {
            break;
        };
        let close = open + close_rel;
        if open > 0 {
            parts.push(Part::Text(&rest[..open]));
        }
        parts.push(Part::Symbol(parse_symbol(&rest[open + 1..close])));
        rest = &rest[close + 1..];
    }
    if !rest.is_empty() {
        parts.push(Part::Text(rest));
    }
    parts
}

/// The symbols of a mana cost (text outside braces ignored).
pub fn parse_cost(cost: &str) -> Vec<ManaSymbol> {
    split_symbols(cost)
        .into_iter()
        .filter_map(|p| match p {
            Part::Symbol(s) => Some(s),
            Part::Text(_) => None,
        })
        .collect()
}

/// Circle fill and letter colour of a coloured mana symbol.
pub fn symbol_colours(c: Colour) -> (Rgb, Rgb) {
    match c {
        Colour::White => (Rgb(0xf6, 0xf0, 0xc8), Rgb(0x3a, 0x33, 0x10)),
        Colour::Blue => (Rgb(0x2a, 0x7c, 0xd0), Rgb(0xff, 0xff, 0xff)),
        Colour::Black => (Rgb(0x2a, 0x24, 0x26), Rgb(0xf0, 0xe8, 0xe8)),
        Colour::Red => (Rgb(0xd8, 0x3a, 0x2a), Rgb(0xff, 0xff, 0xff)),
        Colour::Green => (Rgb(0x1f, 0x8a, 0x46), Rgb(0xff, 0xff, 0xff)),
    }
}

fn letter(c: Colour) -> &'static str {
    match c {
        Colour::White => "W",
        Colour::Blue => "U",
        Colour::Black => "B",
        Colour::Red => "R",
        Colour::Green => "G",
    }
}

const GENERIC_FILL: Rgb = Rgb(0xcf, 0xc8, 0xc4);
const GENERIC_TEXT: Rgb = Rgb(0x1a, 0x1a, 0x1a);
const OUTLINE: Rgb = Rgb(0x1a, 0x1a, 0x1a);

/// Draws one symbol as a circle of radius `r` centred on (cx, cy).
pub fn draw_symbol(fonts: &mut Fonts, p: &mut Pixmap, sym: &ManaSymbol, cx: f32, cy: f32, r: f32) {
    let font = |c: Rgb, len: usize| {
        let size = if len >= 2 { r * 1.15 } else { r * 1.45 };
        Style::new(size, c).bold().condensed()
    };
    match sym {
        ManaSymbol::Coloured(c) => {
            let (fill, ink) = symbol_colours(*c);
            draw::fill_circle(p, cx, cy, r, fill, 1.0);
            fonts.draw_centered(p, letter(*c), font(ink, 1), cx, cy);
        }
        ManaSymbol::Generic(s) | ManaSymbol::Other(s) => {
            draw::fill_circle(p, cx, cy, r, GENERIC_FILL, 1.0);
            fonts.draw_centered(p, s, font(GENERIC_TEXT, s.chars().count()), cx, cy);
        }
        ManaSymbol::Hybrid(a, b) => {
            let (fa, _) = symbol_colours(*a);
            let (fb, _) = symbol_colours(*b);
            draw::fill_half_circle(p, cx, cy, r, true, fa);
            draw::fill_half_circle(p, cx, cy, r, false, fb);
            let small = Style::new(r * 0.95, Rgb(0xff, 0xff, 0xff))
                .bold()
                .condensed();
            let ink = |c: Colour| symbol_colours(c).1;
            fonts.draw_centered(
                p,
                letter(*a),
                Style {
                    color: ink(*a),
                    ..small
                },
                cx - r * 0.38,
                cy - r * 0.34,
            );
            fonts.draw_centered(
                p,
                letter(*b),
                Style {
                    color: ink(*b),
                    ..small
                },
                cx + r * 0.38,
                cy + r * 0.34,
            );
        }
        ManaSymbol::TwoHybrid(c) => {
            let (fc, ink) = symbol_colours(*c);
            draw::fill_half_circle(p, cx, cy, r, true, GENERIC_FILL);
            draw::fill_half_circle(p, cx, cy, r, false, fc);
            let small = Style::new(r * 0.95, GENERIC_TEXT).bold().condensed();
            fonts.draw_centered(p, "2", small, cx - r * 0.38, cy - r * 0.34);
            fonts.draw_centered(
                p,
                letter(*c),
                Style {
                    color: ink,
                    ..small
                },
                cx + r * 0.38,
                cy + r * 0.34,
            );
        }
        ManaSymbol::Snow => {
            draw::fill_circle(p, cx, cy, r, Rgb(0xe8, 0xf2, 0xfa), 1.0);
            fonts.draw_centered(p, "S", font(Rgb(0x20, 0x50, 0x80), 1), cx, cy);
        }
        ManaSymbol::Tap | ManaSymbol::Untap => {
            let untap = matches!(sym, ManaSymbol::Untap);
            let (fill, ink) = if untap {
                (Rgb(0x30, 0x30, 0x30), Rgb(0xf0, 0xf0, 0xf0))
            } else {
                (GENERIC_FILL, GENERIC_TEXT)
            };
            draw::fill_circle(p, cx, cy, r, fill, 1.0);
            draw_tap_arrow(p, cx, cy, r * 0.62, ink);
        }
    }
    draw::stroke_circle(p, cx, cy, r, OUTLINE, (r * 0.08).max(0.8));
}

/// A curved arrow (the tap symbol): an open arc with an arrowhead.
fn draw_tap_arrow(p: &mut Pixmap, cx: f32, cy: f32, r: f32, c: Rgb) {
    let w = (r * 0.32).max(1.2);
    let n = 14;
    // Arc from 200° round to 470° (clockwise on screen), leaving a gap top-right.
    let a0 = 200f32.to_radians();
    let a1 = 440f32.to_radians();
    let mut prev = (cx + r * a0.cos(), cy + r * a0.sin());
    for i in 1..=n {
        let a = a0 + (a1 - a0) * i as f32 / n as f32;
        let pt = (cx + r * a.cos(), cy + r * a.sin());
        draw::line(p, prev.0, prev.1, pt.0, pt.1, c, w, 1.0);
        prev = pt;
    }
    // Arrowhead at the start of the arc, pointing along the tangent.
    let (sx, sy) = (cx + r * a0.cos(), cy + r * a0.sin());
    let tangent = (a0.sin(), -a0.cos()); // direction of decreasing angle
    let normal = (a0.cos(), a0.sin());
    let len = r * 0.75;
    let tip = (sx + tangent.0 * len * 0.6, sy + tangent.1 * len * 0.6);
    let b1 = (sx + normal.0 * len * 0.55, sy + normal.1 * len * 0.55);
    let b2 = (sx - normal.0 * len * 0.55, sy - normal.1 * len * 0.55);
    draw::fill_polygon(p, &[tip, b1, b2], c, 1.0);
}

/// Width of a drawn cost with symbols of diameter `d` and gap `gap`.
pub fn cost_width(cost: &[ManaSymbol], d: f32, gap: f32) -> f32 {
    if cost.is_empty() {
        0.0
    } else {
        cost.len() as f32 * d + (cost.len() - 1) as f32 * gap
    }
}

/// Draws a cost left to right starting at `x`, vertically centred on `cy`. Returns the width.
pub fn draw_cost(
    fonts: &mut Fonts,
    p: &mut Pixmap,
    cost: &[ManaSymbol],
    x: f32,
    cy: f32,
    d: f32,
) -> f32 {
    let gap = d * 0.12;
    for (i, s) in cost.iter().enumerate() {
        let cx = x + d / 2.0 + i as f32 * (d + gap);
        draw_symbol(fonts, p, s, cx, cy, d / 2.0);
    }
    cost_width(cost, d, gap)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_costs() {
        assert_eq!(
            parse_cost("{2}{R}{R}"),
            vec![
                ManaSymbol::Generic("2".into()),
                ManaSymbol::Coloured(Colour::Red),
                ManaSymbol::Coloured(Colour::Red)
            ]
        );
        assert_eq!(
            parse_cost("{X}{G/W}{2/B}{T}"),
            vec![
                ManaSymbol::Generic("X".into()),
                ManaSymbol::Hybrid(Colour::Green, Colour::White),
                ManaSymbol::TwoHybrid(Colour::Black),
                ManaSymbol::Tap
            ]
        );
        assert!(parse_cost("").is_empty());
    }

    #[test]
    fn splits_text() {
        let parts = split_symbols("{T}: Add {G}. {oops");
        assert_eq!(parts.len(), 4);
        assert_eq!(parts[0], Part::Symbol(ManaSymbol::Tap));
        assert_eq!(parts[1], Part::Text(": Add "));
        assert_eq!(parts[3], Part::Text(". {oops"));
    }
}
