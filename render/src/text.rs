//! Fonts, shaping (cosmic-text) and glyph blending onto tiny-skia pixmaps.
//!
//! Text may carry mana symbols in braces (`"{T}: Add {G}."`). When a style asks for symbols,
//! each symbol is laid out as a placeholder glyph one em wide and then drawn as a coloured
//! circle (see [`crate::mana`]) instead of the glyph.

use std::sync::Arc;

use cosmic_text::{
    Align as CtAlign, Attrs, Buffer, Color as CtColor, Ellipsize, EllipsizeHeightLimit, Family,
    FontSystem, Metrics, Shaping, Stretch, SwashCache, SwashContent, Weight, Wrap, fontdb,
};
use tiny_skia::Pixmap;

use crate::draw::Rgb;
use crate::mana::{self, ManaSymbol};
use crate::{Language, RenderError, RenderOptions};

static SANS: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");
static SANS_BOLD: &[u8] = include_bytes!("../fonts/DejaVuSans-Bold.ttf");
static SANS_COND: &[u8] = include_bytes!("../fonts/DejaVuSansCondensed.ttf");
static SANS_COND_BOLD: &[u8] = include_bytes!("../fonts/DejaVuSansCondensed-Bold.ttf");

const FAMILY: &str = "DejaVu Sans";

/// Text style.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    pub size: f32,
    pub bold: bool,
    pub condensed: bool,
    pub italic: bool,
    pub color: Rgb,
    /// Line height as a multiple of `size`.
    pub line_height: f32,
    /// Interpret `{...}` as mana symbols.
    pub symbols: bool,
}

impl Style {
    pub fn new(size: f32, color: Rgb) -> Self {
        Style {
            size,
            bold: false,
            condensed: false,
            italic: false,
            color,
            line_height: 1.22,
            symbols: false,
        }
    }
    pub fn bold(mut self) -> Self {
        self.bold = true;
        self
    }
    pub fn condensed(mut self) -> Self {
        self.condensed = true;
        self
    }
    pub fn italic(mut self) -> Self {
        self.italic = true;
        self
    }
    pub fn symbols(mut self) -> Self {
        self.symbols = true;
        self
    }
    pub fn line_height(mut self, f: f32) -> Self {
        self.line_height = f;
        self
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Center,
}

/// Text box limits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    pub max_width: Option<f32>,
    pub max_lines: Option<usize>,
    pub align: Align,
}

impl Bounds {
    pub fn line(max_width: f32) -> Self {
        Bounds {
            max_width: Some(max_width),
            max_lines: Some(1),
            align: Align::Left,
        }
    }
    pub fn lines(max_width: f32, n: usize) -> Self {
        Bounds {
            max_width: Some(max_width),
            max_lines: Some(n),
            align: Align::Left,
        }
    }
    pub fn wrap(max_width: f32) -> Self {
        Bounds {
            max_width: Some(max_width),
            max_lines: None,
            align: Align::Left,
        }
    }
    pub fn free() -> Self {
        Bounds {
            max_width: None,
            max_lines: None,
            align: Align::Left,
        }
    }
    pub fn align(mut self, a: Align) -> Self {
        self.align = a;
        self
    }
}

/// Laid-out text ready to draw.
pub struct TextBlock {
    buffer: Buffer,
    symbols: Vec<ManaSymbol>,
    style: Style,
    /// Widest line.
    pub width: f32,
    /// Total height of the lines.
    pub height: f32,
}

/// Loaded fonts and glyph cache.
pub struct Fonts {
    fs: FontSystem,
    cache: SwashCache,
}

impl Fonts {
    pub fn new(options: &RenderOptions) -> Result<Self, RenderError> {
        let mut db = fontdb::Database::new();
        for data in [SANS, SANS_BOLD, SANS_COND, SANS_COND_BOLD] {
            db.load_font_source(fontdb::Source::Binary(Arc::new(data)));
        }
        db.set_sans_serif_family(FAMILY);
        let locale = match options.language {
            Language::English => "en-US",
            Language::ZhHant => {
                let path = &options.cjk_font_path;
                let before = db.len();
                db.load_font_file(path)
                    .map_err(|e| RenderError::FontMissing {
                        path: path.clone(),
                        reason: e.to_string(),
                    })?;
                if db.len() == before {
                    return Err(RenderError::FontInvalid { path: path.clone() });
                }
                // The bold face, when it sits beside the regular one (Debian's layout), is a
                // bonus: without it bold CJK text is drawn regular.
                if let Some(name) = path.file_name().and_then(|n| n.to_str())
                    && name.contains("Regular")
                {
                    let bold = path.with_file_name(name.replace("Regular", "Bold"));
                    if bold.is_file() {
                        let _ = db.load_font_file(&bold);
                    }
                }
                "zh-TW"
            }
        };
        let fs = FontSystem::new_with_locale_and_db(locale.to_string(), db);
        Ok(Fonts {
            fs,
            cache: SwashCache::new(),
        })
    }

    fn attrs(style: &Style) -> Attrs<'static> {
        let c = style.color;
        Attrs::new()
            .family(Family::Name(FAMILY))
            .weight(if style.bold {
                Weight::BOLD
            } else {
                Weight::NORMAL
            })
            .stretch(if style.condensed {
                Stretch::SemiCondensed
            } else {
                Stretch::Normal
            })
            .style(if style.italic {
                cosmic_text::Style::Italic
            } else {
                cosmic_text::Style::Normal
            })
            .color(CtColor::rgb(c.0, c.1, c.2))
    }

    /// Shapes and lays out `text`.
    pub fn layout(&mut self, text: &str, style: Style, bounds: Bounds) -> TextBlock {
        let metrics = Metrics::new(style.size, (style.size * style.line_height).ceil());
        let mut buffer = Buffer::new(&mut self.fs, metrics);
        buffer.set_wrap(if bounds.max_width.is_some() {
            Wrap::Word
        } else {
            Wrap::None
        });
        if let Some(n) = bounds.max_lines {
            buffer.set_ellipsize(Ellipsize::End(EllipsizeHeightLimit::Lines(n)));
        }
        buffer.set_size(bounds.max_width, None);
        let align = match bounds.align {
            Align::Left => None,
            Align::Center => Some(CtAlign::Center),
        };
        let attrs = Self::attrs(&style);
        let mut symbols = Vec::new();
        if style.symbols && text.contains('{') {
            let parts = mana::split_symbols(text);
            let mut spans: Vec<(String, Attrs<'static>)> = Vec::with_capacity(parts.len());
            for part in parts {
                match part {
                    mana::Part::Text(t) => spans.push((t.to_string(), attrs.clone())),
                    mana::Part::Symbol(s) => {
                        symbols.push(s);
                        // "W" is about one em wide in DejaVu Sans; never drawn.
                        spans.push((
                            "W".to_string(),
                            attrs.clone().weight(Weight::BOLD).metadata(symbols.len()),
                        ));
                    }
                }
            }
            buffer.set_rich_text(
                spans.iter().map(|(s, a)| (s.as_str(), a.clone())),
                &attrs,
                Shaping::Advanced,
                align,
            );
        } else {
            buffer.set_text(text, &attrs, Shaping::Advanced, align);
        }
        buffer.shape_until_scroll(&mut self.fs, false);
        let mut width: f32 = 0.0;
        let mut height: f32 = 0.0;
        for run in buffer.layout_runs() {
            width = width.max(run.line_w);
            height = height.max(run.line_top + run.line_height);
        }
        TextBlock {
            buffer,
            symbols,
            style,
            width,
            height,
        }
    }

    /// Width and height of `text`.
    pub fn measure(&mut self, text: &str, style: Style, bounds: Bounds) -> (f32, f32) {
        let b = self.layout(text, style, bounds);
        (b.width, b.height)
    }

    /// Draws a laid-out block with its top-left corner at (x, y).
    pub fn draw_block(&mut self, p: &mut Pixmap, block: &TextBlock, x: f32, y: f32) {
        let size = block.style.size;
        let default = block.style.color;
        let mut pending_symbols: Vec<(f32, f32, usize)> = Vec::new();
        for run in block.buffer.layout_runs() {
            // A wrapped line may start with the space it was broken at: skip it.
            let lead: f32 = if run.line_i > 0 || run.line_top > 0.0 {
                run.glyphs
                    .iter()
                    .take_while(|g| {
                        run.text
                            .get(g.start..g.end)
                            .is_some_and(|t| t.trim().is_empty())
                    })
                    .map(|g| g.w)
                    .sum()
            } else {
                0.0
            };
            let x = x - lead;
            for g in run.glyphs {
                if g.metadata > 0 {
                    let cx = x + g.x + g.w / 2.0;
                    let cy = y + run.line_y - size * 0.36;
                    pending_symbols.push((cx, cy, g.metadata - 1));
                    continue;
                }
                let phys = g.physical((x, (y + run.line_y).round()), 1.0);
                let color = g
                    .color_opt
                    .map(|c| Rgb(c.r(), c.g(), c.b()))
                    .unwrap_or(default);
                if let Some(img) = self.cache.get_image(&mut self.fs, phys.cache_key) {
                    let left = phys.x + img.placement.left;
                    let top = phys.y - img.placement.top;
                    let (w, h) = (img.placement.width as i32, img.placement.height as i32);
                    match img.content {
                        SwashContent::Mask => blend_mask(p, left, top, w, h, &img.data, color),
                        SwashContent::Color => blend_rgba(p, left, top, w, h, &img.data),
                        SwashContent::SubpixelMask => {}
                    }
                }
            }
        }
        for (cx, cy, i) in pending_symbols {
            if let Some(sym) = block.symbols.get(i) {
                mana::draw_symbol(self, p, sym, cx, cy, size * 0.47);
            }
        }
    }

    /// Lays out and draws; returns (width, height) of the text.
    pub fn draw(
        &mut self,
        p: &mut Pixmap,
        text: &str,
        style: Style,
        bounds: Bounds,
        x: f32,
        y: f32,
    ) -> (f32, f32) {
        let block = self.layout(text, style, bounds);
        self.draw_block(p, &block, x, y);
        (block.width, block.height)
    }

    /// Draws one line centred on (cx, cy).
    pub fn draw_centered(&mut self, p: &mut Pixmap, text: &str, style: Style, cx: f32, cy: f32) {
        let block = self.layout(text, style, Bounds::free());
        let x = cx - block.width / 2.0;
        // Centre capitals and digits (cap height ~0.73 em in DejaVu Sans) on cy.
        let baseline = block.buffer.layout_runs().next().map_or(0.0, |r| r.line_y);
        let y = cy + style.size * 0.365 - baseline;
        self.draw_block(p, &block, x, y);
    }
}

/// Glyph coverage quantised to seven levels (0 and six steps).
static LEVELS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (((i as u32 * 5 + 127) / 255) * 255 / 5) as u8;
        i += 1;
    }
    t
};

fn blend_mask(p: &mut Pixmap, left: i32, top: i32, w: i32, h: i32, mask: &[u8], c: Rgb) {
    let pw = p.width() as i32;
    let ph = p.height() as i32;
    let data = p.data_mut();
    for row in 0..h {
        let py = top + row;
        if py < 0 || py >= ph {
            continue;
        }
        for col in 0..w {
            let px = left + col;
            if px < 0 || px >= pw {
                continue;
            }
            // Seven coverage levels: hardly visible on screen, and the PNG gets smaller.
            let a = LEVELS[mask[(row * w + col) as usize] as usize] as u32;
            if a == 0 {
                continue;
            }
            let i = ((py * pw + px) * 4) as usize;
            let inv = 255 - a;
            data[i] = ((c.0 as u32 * a + data[i] as u32 * inv + 127) / 255) as u8;
            data[i + 1] = ((c.1 as u32 * a + data[i + 1] as u32 * inv + 127) / 255) as u8;
            data[i + 2] = ((c.2 as u32 * a + data[i + 2] as u32 * inv + 127) / 255) as u8;
            data[i + 3] = ((255 * a + data[i + 3] as u32 * inv + 127) / 255) as u8;
        }
    }
}

fn blend_rgba(p: &mut Pixmap, left: i32, top: i32, w: i32, h: i32, rgba: &[u8]) {
    let pw = p.width() as i32;
    let ph = p.height() as i32;
    let data = p.data_mut();
    for row in 0..h {
        let py = top + row;
        if py < 0 || py >= ph {
            continue;
        }
        for col in 0..w {
            let px = left + col;
            if px < 0 || px >= pw {
                continue;
            }
            let s = ((row * w + col) * 4) as usize;
            let a = rgba[s + 3] as u32;
            if a == 0 {
                continue;
            }
            let i = ((py * pw + px) * 4) as usize;
            let inv = 255 - a;
            for k in 0..3 {
                data[i + k] =
                    ((rgba[s + k] as u32 * a + data[i + k] as u32 * inv + 127) / 255) as u8;
            }
            data[i + 3] = ((255 * a + data[i + 3] as u32 * inv + 127) / 255) as u8;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fonts_load_and_measure() {
        let mut f = Fonts::new(&RenderOptions::default()).expect("fonts");
        let (w, h) = f.measure(
            "Grizzly Bears",
            Style::new(16.0, Rgb(0, 0, 0)),
            Bounds::free(),
        );
        assert!(w > 60.0 && w < 160.0, "width {w}");
        assert!(h > 15.0 && h < 25.0, "height {h}");
        let (wc, _) = f.measure(
            "Grizzly Bears",
            Style::new(16.0, Rgb(0, 0, 0)).condensed(),
            Bounds::free(),
        );
        assert!(wc < w, "condensed {wc} should be narrower than {w}");
    }

    #[test]
    fn missing_cjk_font_is_an_error() {
        let opts = RenderOptions {
            language: Language::ZhHant,
            cjk_font_path: "/nonexistent/font.ttc".into(),
        };
        match Fonts::new(&opts) {
            Err(RenderError::FontMissing { .. }) => {}
            Err(e) => panic!("unexpected error {e}"),
            Ok(_) => panic!("expected an error"),
        }
    }
}
