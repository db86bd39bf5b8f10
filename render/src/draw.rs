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

/// Encodes an opaque pixmap as an RGB PNG with fast compression.
pub fn encode_png(p: &Pixmap) -> Result<Vec<u8>, RenderError> {
    // Images are drawn on an opaque background, so premultiplied == straight colour.
    let mut rgb = vec![0u8; (p.width() * p.height() * 3) as usize];
    for (out, px) in rgb.chunks_exact_mut(3).zip(p.data().chunks_exact(4)) {
        out.copy_from_slice(&px[..3]);
    }
    let mut out = Vec::with_capacity(rgb.len() / 8);
    {
        let mut enc = png::Encoder::new(&mut out, p.width(), p.height());
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Fast);
        let mut w = enc
            .write_header()
            .map_err(|e| RenderError::Encode(e.to_string()))?;
        w.write_image_data(&rgb)
            .map_err(|e| RenderError::Encode(e.to_string()))?;
        w.finish().map_err(|e| RenderError::Encode(e.to_string()))?;
    }
    Ok(out)
}
