//! Colours of the images.

use crate::draw::Rgb;
use crate::scene::{CardFace, Colour};

pub const BG: Rgb = Rgb(0x1c, 0x25, 0x2c);
pub const PANEL: Rgb = Rgb(0x27, 0x34, 0x3e);
pub const PANEL_VIEWER: Rgb = Rgb(0x24, 0x38, 0x36);
pub const PANEL_LINE: Rgb = Rgb(0x3c, 0x4d, 0x5a);
pub const TEXT_LIGHT: Rgb = Rgb(0xf2, 0xf4, 0xf6);
pub const TEXT_DIM: Rgb = Rgb(0xa9, 0xb6, 0xc2);
pub const TEXT_DARK: Rgb = Rgb(0x16, 0x16, 0x18);
pub const TEXT_DARK_DIM: Rgb = Rgb(0x4a, 0x4a, 0x50);
pub const HIGHLIGHT: Rgb = Rgb(0xff, 0xc8, 0x3d);
pub const ATTACK: Rgb = Rgb(0xe5, 0x3a, 0x2f);
pub const BLOCK: Rgb = Rgb(0x2f, 0x8c, 0xf0);
pub const TARGET: Rgb = Rgb(0xd9, 0x4c, 0xd6);
pub const DAMAGE: Rgb = Rgb(0xc6, 0x1f, 0x1f);
pub const SICK: Rgb = Rgb(0x6b, 0x6f, 0x86);
pub const TOKEN: Rgb = Rgb(0x12, 0x8a, 0x8a);
pub const COUNTER: Rgb = Rgb(0x3d, 0x2f, 0x7a);
pub const LIFE: Rgb = Rgb(0xd2, 0x3c, 0x3c);
pub const POISON: Rgb = Rgb(0x4f, 0x8a, 0x2b);
pub const PLAYABLE: Rgb = Rgb(0x3c, 0xd0, 0x6a);

/// Frame (border) and fill colours of a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FramePalette {
    pub frame: Rgb,
    pub fill: Rgb,
    /// Second frame colour for two-colour cards (drawn as a stripe).
    pub accents: [Option<Rgb>; 2],
}

pub fn colour_frame(c: Colour) -> (Rgb, Rgb) {
    match c {
        Colour::White => (Rgb(0xc9, 0xbf, 0x94), Rgb(0xf8, 0xf4, 0xe2)),
        Colour::Blue => (Rgb(0x1f, 0x6c, 0xbf), Rgb(0xd8, 0xe8, 0xf8)),
        Colour::Black => (Rgb(0x2e, 0x29, 0x2b), Rgb(0xd8, 0xd2, 0xd0)),
        Colour::Red => (Rgb(0xc8, 0x3c, 0x28), Rgb(0xf8, 0xda, 0xd0)),
        Colour::Green => (Rgb(0x24, 0x7a, 0x3e), Rgb(0xd6, 0xec, 0xd8)),
    }
}

pub const GOLD: (Rgb, Rgb) = (Rgb(0xc8, 0x9f, 0x2e), Rgb(0xf6, 0xea, 0xc0));
pub const ARTIFACT: (Rgb, Rgb) = (Rgb(0x86, 0x8e, 0x96), Rgb(0xe4, 0xe7, 0xea));
pub const LAND: (Rgb, Rgb) = (Rgb(0x8a, 0x62, 0x3c), Rgb(0xee, 0xe0, 0xcc));
pub const COLOURLESS: (Rgb, Rgb) = (Rgb(0xa0, 0xa0, 0xa8), Rgb(0xee, 0xee, 0xf0));
pub const FACE_DOWN: (Rgb, Rgb) = (Rgb(0x3e, 0x2a, 0x1c), Rgb(0x6e, 0x4b, 0x30));

/// Frame colours for a face: one colour, gold for several, grey artifact, brown land.
pub fn palette(face: &CardFace) -> FramePalette {
    let mut colours: Vec<Colour> = Vec::new();
    for c in &face.colors {
        if !colours.contains(c) {
            colours.push(*c);
        }
    }
    let (frame, fill) = match colours.len() {
        0 => {
            if face.type_line.contains("Land") {
                LAND
            } else if face.type_line.contains("Artifact") {
                ARTIFACT
            } else {
                COLOURLESS
            }
        }
        1 => colour_frame(colours[0]),
        _ => GOLD,
    };
    let accents = if colours.len() == 2 {
        [
            Some(colour_frame(colours[0]).0),
            Some(colour_frame(colours[1]).0),
        ]
    } else {
        [None, None]
    };
    FramePalette {
        frame,
        fill,
        accents,
    }
}

/// Player colours (stripe on stack items and names), by seat.
pub fn player_colour(index: usize) -> Rgb {
    const C: [Rgb; 4] = [
        Rgb(0x4c, 0xa3, 0xff),
        Rgb(0xff, 0x8a, 0x3d),
        Rgb(0xb3, 0x7b, 0xff),
        Rgb(0x4c, 0xd6, 0x9c),
    ];
    C[index % C.len()]
}
