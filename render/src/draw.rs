//! Drawing primitives on a tiny-skia pixmap, and PNG encoding.

use tiny_skia::{
    Color, FillRule, LineCap, Paint, Path, PathBuilder, Pixmap, Rect, Stroke, Transform,
};

use crate::RenderError;

/// Largest image side we agree to allocate.
pub const MAX_SIDE: u32 = 8000;

/// An opaque colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    pub fn color(self, alpha: f32) -> Color {
        Color::from_rgba8(
            self.0,
            self.1,
            self.2,
            (alpha.clamp(0.0, 1.0) * 255.0) as u8,
        )
    }

    /// Mix towards `other` by `t` (0 = self, 1 = other).
    pub fn mix(self, other: Rgb, t: f32) -> Rgb {
        let m = |a: u8, b: u8| (a as f32 + (b as f32 - a as f32) * t).round() as u8;
        Rgb(m(self.0, other.0), m(self.1, other.1), m(self.2, other.2))
    }

    pub fn darken(self, t: f32) -> Rgb {
        self.mix(Rgb(0, 0, 0), t)
    }

    pub fn lighten(self, t: f32) -> Rgb {
        self.mix(Rgb(255, 255, 255), t)
    }

    /// Perceived brightness 0..255.
    pub fn luma(self) -> f32 {
        0.299 * self.0 as f32 + 0.587 * self.1 as f32 + 0.114 * self.2 as f32
    }
}

/// A new opaque pixmap filled with `bg`.
pub fn new_pixmap(width: u32, height: u32, bg: Rgb) -> Result<Pixmap, RenderError> {
    if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
        return Err(RenderError::TooLarge { width, height });
    }
    let mut p = Pixmap::new(width, height).ok_or(RenderError::TooLarge { width, height })?;
    p.fill(bg.color(1.0));
    Ok(p)
}

fn paint(c: Rgb, alpha: f32) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color(c.color(alpha));
    p.anti_alias = true;
    p
}

/// A rounded rectangle path (radius clamped to half the shorter side).
pub fn rounded_rect(x: f32, y: f32, w: f32, h: f32, r: f32) -> Option<Path> {
    if w <= 0.0 || h <= 0.0 {
        return None;
    }
    let r = r.min(w / 2.0).min(h / 2.0).max(0.0);
    let k = 0.552_284_8 * r;
    let mut pb = PathBuilder::new();
    pb.move_to(x + r, y);
    pb.line_to(x + w - r, y);
    pb.cubic_to(x + w - r + k, y, x + w, y + r - k, x + w, y + r);
    pb.line_to(x + w, y + h - r);
    pb.cubic_to(x + w, y + h - r + k, x + w - r + k, y + h, x + w - r, y + h);
    pb.line_to(x + r, y + h);
    pb.cubic_to(x + r - k, y + h, x, y + h - r + k, x, y + h - r);
    pb.line_to(x, y + r);
    pb.cubic_to(x, y + r - k, x + r - k, y, x + r, y);
    pb.close();
    pb.finish()
}

pub fn fill_rect(p: &mut Pixmap, x: f32, y: f32, w: f32, h: f32, c: Rgb, alpha: f32) {
    if let Some(r) = Rect::from_xywh(x, y, w, h) {
        p.fill_rect(r, &paint(c, alpha), Transform::identity(), None);
    }
}

#[allow(clippy::too_many_arguments)]
pub fn fill_rrect(p: &mut Pixmap, x: f32, y: f32, w: f32, h: f32, r: f32, c: Rgb, alpha: f32) {
    if let Some(path) = rounded_rect(x, y, w, h, r) {
        p.fill_path(
            &path,
            &paint(c, alpha),
            FillRule::Winding,
            Transform::identity(),
            None,
        );
    }
}

#[allow(clippy::too_many_arguments)]
pub fn stroke_rrect(
    p: &mut Pixmap,
    x: f32,
    y: f32,
    w: f32,
    h: f32,
    r: f32,
    c: Rgb,
    width: f32,
    alpha: f32,
) {
    if let Some(path) = rounded_rect(x, y, w, h, r) {
        let stroke = Stroke {
            width,
            ..Stroke::default()
        };
        p.stroke_path(
            &path,
            &paint(c, alpha),
            &stroke,
            Transform::identity(),
            None,
        );
    }
}

/// Dashed rounded-rectangle outline (token frames).
#[allow(clippy::too_many_arguments)]
pub fn dashed_rrect(p: &mut Pixmap, x: f32, y: f32, w: f32, h: f32, r: f32, c: Rgb, width: f32) {
    if let Some(path) = rounded_rect(x, y, w, h, r) {
        let mut stroke = Stroke {
            width,
            ..Stroke::default()
        };
        stroke.dash = tiny_skia::StrokeDash::new(vec![width * 3.0, width * 2.0], 0.0);
        p.stroke_path(&path, &paint(c, 1.0), &stroke, Transform::identity(), None);
    }
}

pub fn fill_circle(p: &mut Pixmap, cx: f32, cy: f32, r: f32, c: Rgb, alpha: f32) {
    if let Some(path) = PathBuilder::from_circle(cx, cy, r) {
        p.fill_path(
            &path,
            &paint(c, alpha),
            FillRule::Winding,
            Transform::identity(),
            None,
        );
    }
}

pub fn stroke_circle(p: &mut Pixmap, cx: f32, cy: f32, r: f32, c: Rgb, width: f32) {
    if let Some(path) = PathBuilder::from_circle(cx, cy, r) {
        let stroke = Stroke {
            width,
            ..Stroke::default()
        };
        p.stroke_path(&path, &paint(c, 1.0), &stroke, Transform::identity(), None);
    }
}

/// Fills an arbitrary polygon.
pub fn fill_polygon(p: &mut Pixmap, pts: &[(f32, f32)], c: Rgb, alpha: f32) {
    let mut pb = PathBuilder::new();
    for (i, &(x, y)) in pts.iter().enumerate() {
        if i == 0 {
            pb.move_to(x, y);
        } else {
            pb.line_to(x, y);
        }
    }
    pb.close();
    if let Some(path) = pb.finish() {
        p.fill_path(
            &path,
            &paint(c, alpha),
            FillRule::Winding,
            Transform::identity(),
            None,
        );
    }
}

/// Half of a circle (upper-left or lower-right), for hybrid mana symbols.
pub fn fill_half_circle(p: &mut Pixmap, cx: f32, cy: f32, r: f32, left: bool, c: Rgb) {
    // Diagonal split: upper-left half / lower-right half, as a polygonal arc.
    let mut pb = PathBuilder::new();
    let (a0, a1) = if left {
        (
            std::f32::consts::FRAC_PI_4 * 3.0,
            std::f32::consts::FRAC_PI_4 * 7.0,
        )
    } else {
        (
            -std::f32::consts::FRAC_PI_4,
            std::f32::consts::FRAC_PI_4 * 3.0,
        )
    };
    let n = 24;
    for i in 0..=n {
        let a = a0 + (a1 - a0) * i as f32 / n as f32;
        let (x, y) = (cx + r * a.cos(), cy + r * a.sin());
        if i == 0 {
            pb.move_to(x, y);
        } else {
            pb.line_to(x, y);
        }
    }
    pb.close();
    if let Some(path) = pb.finish() {
        p.fill_path(
            &path,
            &paint(c, 1.0),
            FillRule::Winding,
            Transform::identity(),
            None,
        );
    }
}

/// A straight line.
#[allow(clippy::too_many_arguments)]
pub fn line(p: &mut Pixmap, x0: f32, y0: f32, x1: f32, y1: f32, c: Rgb, width: f32, alpha: f32) {
    let mut pb = PathBuilder::new();
    pb.move_to(x0, y0);
    pb.line_to(x1, y1);
    if let Some(path) = pb.finish() {
        let stroke = Stroke {
            width,
            line_cap: LineCap::Round,
            ..Stroke::default()
        };
        p.stroke_path(
            &path,
            &paint(c, alpha),
            &stroke,
            Transform::identity(),
            None,
        );
    }
}

/// Draws `src` onto `dst` with its top-left at (x, y) (rounded to whole pixels), rotated 90°
/// clockwise when `rotate`. A rotated image occupies `src.height() x src.width()` from (x, y).
/// Source-over blending of premultiplied pixels; exact (no resampling).
pub fn blit(dst: &mut Pixmap, src: &Pixmap, x: f32, y: f32, rotate: bool) {
    let (sw, sh) = (src.width() as i32, src.height() as i32);
    let (dw, dh) = (dst.width() as i32, dst.height() as i32);
    let (x0, y0) = (x.round() as i32, y.round() as i32);
    let (ow, oh) = if rotate { (sh, sw) } else { (sw, sh) };
    let sdata = src.data();
    let ddata = dst.data_mut();
    for oy in 0..oh {
        let dy = y0 + oy;
        if dy < 0 || dy >= dh {
            continue;
        }
        for ox in 0..ow {
            let dx = x0 + ox;
            if dx < 0 || dx >= dw {
                continue;
            }
            // Clockwise rotation: output (ox, oy) shows source (oy, sh - 1 - ox).
            let (sx, sy) = if rotate { (oy, sh - 1 - ox) } else { (ox, oy) };
            let si = ((sy * sw + sx) * 4) as usize;
            let a = sdata[si + 3] as u32;
            if a == 0 {
                continue;
            }
            let di = ((dy * dw + dx) * 4) as usize;
            if a == 255 {
                ddata[di..di + 4].copy_from_slice(&sdata[si..si + 4]);
            } else {
                let inv = 255 - a;
                for k in 0..4 {
                    ddata[di + k] = (sdata[si + k] as u32
                        + (ddata[di + k] as u32 * inv + 127) / 255)
                        .min(255) as u8;
                }
            }
        }
    }
}

/// Encodes an opaque pixmap as PNG with fast compression: as an 8-bit palette image when
/// the colours allow it (see [`palette_of`]), else as RGB.
pub fn encode_png(p: &Pixmap) -> Result<Vec<u8>, RenderError> {
    let (w, h) = (p.width(), p.height());
    // Images are drawn on an opaque background, so premultiplied == straight colour.
    match palette_of(p.data()) {
        Some((palette, indices)) => {
            write_png(w, h, png::ColorType::Indexed, &indices, Some(palette))
        }
        None => {
            let mut rgb = vec![0u8; (w * h * 3) as usize];
            for (out, px) in rgb.chunks_exact_mut(3).zip(p.data().chunks_exact(4)) {
                out.copy_from_slice(&px[..3]);
            }
            write_png(w, h, png::ColorType::Rgb, &rgb, None)
        }
    }
}

fn write_png(
    w: u32,
    h: u32,
    color: png::ColorType,
    data: &[u8],
    palette: Option<Vec<u8>>,
) -> Result<Vec<u8>, RenderError> {
    let mut out = Vec::with_capacity(data.len() / 8);
    {
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(color);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Fast);
        if let Some(pal) = palette {
            enc.set_palette(pal);
        }
        let mut wr = enc
            .write_header()
            .map_err(|e| RenderError::Encode(e.to_string()))?;
        wr.write_image_data(data)
            .map_err(|e| RenderError::Encode(e.to_string()))?;
        wr.finish()
            .map_err(|e| RenderError::Encode(e.to_string()))?;
    }
    Ok(out)
}

/// Distinct colours beyond which an image is written as RGB (a photo-like image; ours are
/// flat colours, text and anti-aliased edges: a few thousand colours at most).
const MAX_DISTINCT: usize = 16_384;
/// Slots of the colour table (a power of two; slot numbers fit in a `u16`).
const TABLE_SLOTS: usize = 32_768;

/// An open-addressing table from a colour (`0x01RRGGBB`, 0 = empty) to a count, then to its
/// palette index.
struct ColourTable {
    keys: Vec<u32>,
    vals: Vec<u32>,
    mask: usize,
    len: usize,
}

impl ColourTable {
    fn new() -> ColourTable {
        let cap = TABLE_SLOTS;
        ColourTable {
            keys: vec![0; cap],
            vals: vec![0; cap],
            mask: cap - 1,
            len: 0,
        }
    }

    /// The slot of `key`, inserting it (None when the table is full enough to give up).
    fn slot(&mut self, key: u32) -> Option<usize> {
        let mut i = (key.wrapping_mul(0x9E37_79B1) >> 7) as usize & self.mask;
        loop {
            match self.keys[i] {
                k if k == key => return Some(i),
                0 => {
                    if self.len >= MAX_DISTINCT {
                        return None;
                    }
                    self.keys[i] = key;
                    self.len += 1;
                    return Some(i);
                }
                _ => i = (i + 1) & self.mask,
            }
        }
    }
}

/// A pixel as a table key: its little-endian RGBA word with the alpha byte set to 1 (never 0,
/// the empty slot; alpha is 255 everywhere in our opaque images anyway).
fn key_of(px: &[u8]) -> u32 {
    (u32::from_le_bytes([px[0], px[1], px[2], px[3]]) & 0x00ff_ffff) | 0x0100_0000
}

/// A palette (RGB triples) and one index per pixel of RGBA `data`. With 256 colours or
/// fewer the result is exact; otherwise the 256 most frequent colours form the palette and
/// every other colour (anti-aliased edge pixels, about 1-2% of a board) takes the nearest.
/// None for an image with more than [`MAX_DISTINCT`] colours.
pub fn palette_of(data: &[u8]) -> Option<(Vec<u8>, Vec<u8>)> {
    let mut t = ColourTable::new();
    // One hash look-up per run of one colour (most of an image is runs); each pixel keeps
    // its table slot, mapped to a palette index at the end.
    let mut slots: Vec<u16> = vec![0; data.len() / 4];
    let mut last = 0u32;
    let mut last_slot = 0u16;
    let mut run = 0u32;
    for (px, out) in data.chunks_exact(4).zip(slots.iter_mut()) {
        let k = key_of(px);
        if k != last {
            t.vals[usize::from(last_slot)] += run;
            run = 0;
            last = k;
            last_slot = t.slot(k)? as u16;
        }
        run += 1;
        *out = last_slot;
    }
    t.vals[usize::from(last_slot)] += run;
    let mut used: Vec<usize> = (0..t.keys.len()).filter(|&i| t.keys[i] != 0).collect();
    // Most frequent first; ties by colour, so the output is deterministic.
    used.sort_unstable_by(|&a, &b| t.vals[b].cmp(&t.vals[a]).then(t.keys[a].cmp(&t.keys[b])));
    let n = used.len().min(256);
    let rgb = |k: u32| [k as u8, (k >> 8) as u8, (k >> 16) as u8];
    let palette: Vec<[u8; 3]> = used[..n].iter().map(|&i| rgb(t.keys[i])).collect();
    // Nearest palette colour for the rest: squared RGB distance over the palette as three
    // arrays (a loop the compiler vectorises).
    let channel = |c: usize| -> Vec<i32> { palette.iter().map(|p| i32::from(p[c])).collect() };
    let (pr, pg, pb) = (channel(0), channel(1), channel(2));
    let mut dist = vec![0i32; palette.len()];
    let mut index_of = vec![0u8; t.keys.len()];
    for (idx, &i) in used.iter().enumerate() {
        index_of[i] = if idx < n {
            idx as u8
        } else {
            let [r, g, b] = rgb(t.keys[i]).map(i32::from);
            for (((d, &x), &y), &z) in dist.iter_mut().zip(&pr).zip(&pg).zip(&pb) {
                *d = (x - r) * (x - r) + (y - g) * (y - g) + (z - b) * (z - b);
            }
            let mut best = 0;
            for (j, &d) in dist.iter().enumerate() {
                if d < dist[best] {
                    best = j;
                }
            }
            best as u8
        };
    }
    let indices: Vec<u8> = slots.iter().map(|&s| index_of[s as usize]).collect();
    Some((palette.concat(), indices))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rgba(colours: &[[u8; 3]]) -> Vec<u8> {
        colours
            .iter()
            .flat_map(|c| [c[0], c[1], c[2], 255])
            .collect()
    }

    #[test]
    fn few_colours_are_exact() {
        let px = rgba(&[[1, 2, 3], [1, 2, 3], [200, 0, 0], [1, 2, 3], [0, 0, 0]]);
        let (pal, idx) = palette_of(&px).expect("palette");
        assert_eq!(idx.len(), 5);
        for (i, k) in idx.iter().enumerate() {
            let c = &pal[*k as usize * 3..*k as usize * 3 + 3];
            assert_eq!(c, &px[i * 4..i * 4 + 3], "pixel {i}");
        }
        // Most frequent colour first.
        assert_eq!(&pal[..3], &[1, 2, 3]);
    }

    #[test]
    fn rare_colours_take_the_nearest() {
        // 256 frequent greys, then one rare colour close to grey 100.
        let mut cs: Vec<[u8; 3]> = Vec::new();
        for g in 0..=255u8 {
            for _ in 0..3 {
                cs.push([g, g, g]);
            }
        }
        cs.push([101, 99, 100]);
        let px = rgba(&cs);
        let (pal, idx) = palette_of(&px).expect("palette");
        assert_eq!(pal.len(), 256 * 3);
        let k = *idx.last().expect("last") as usize;
        assert_eq!(&pal[k * 3..k * 3 + 3], &[100, 100, 100]);
    }

    #[test]
    fn photo_like_images_stay_rgb() {
        let cs: Vec<[u8; 3]> = (0..(MAX_DISTINCT as u32 + 10))
            .map(|i| [(i >> 16) as u8, (i >> 8) as u8, i as u8])
            .collect();
        assert!(palette_of(&rgba(&cs)).is_none());
        let mut p = Pixmap::new(200, 100).expect("pixmap");
        for (i, px) in p.data_mut().chunks_exact_mut(4).enumerate() {
            px.copy_from_slice(&[(i % 251) as u8, (i % 241) as u8, (i / 200) as u8, 255]);
        }
        let png = encode_png(&p).expect("png");
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    }
}
