//! Golden-image tests: each sample is rendered, decoded, shrunk to half size (2x2 averages) and
//! compared with `tests/golden/NAME.png` with a per-channel tolerance and a small budget of
//! differing pixels. Regenerate with `UPDATE_GOLDEN=1 cargo test -p spellstack-render --test golden`.

use std::path::PathBuf;

use render::{RenderOptions, samples};

/// Largest per-channel difference that still counts as the same pixel.
const CHANNEL_TOLERANCE: u8 = 24;
/// Share of pixels allowed to differ beyond the tolerance.
const PIXEL_BUDGET: f64 = 0.005;

struct Rgb8 {
    width: usize,
    height: usize,
    data: Vec<u8>,
}

fn decode(png_bytes: &[u8]) -> Rgb8 {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    // Images are written as palette PNGs (expanded to RGB here); goldens as RGB.
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().expect("png header");
    let mut buf = vec![0; reader.output_buffer_size().expect("buffer size")];
    let info = reader.next_frame(&mut buf).expect("png frame");
    let channels = match info.color_type {
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        other => panic!("unexpected colour type {other:?}"),
    };
    let (w, h) = (info.width as usize, info.height as usize);
    let mut data = Vec::with_capacity(w * h * 3);
    for px in buf[..info.buffer_size()].chunks_exact(channels) {
        data.extend_from_slice(&px[..3]);
    }
    Rgb8 {
        width: w,
        height: h,
        data,
    }
}

fn half(img: &Rgb8) -> Rgb8 {
    let (w, h) = (img.width / 2, img.height / 2);
    let mut data = Vec::with_capacity(w * h * 3);
    for y in 0..h {
        for x in 0..w {
            for c in 0..3 {
                let at = |dx: usize, dy: usize| {
                    img.data[((2 * y + dy) * img.width + 2 * x + dx) * 3 + c] as u32
                };
                data.push(((at(0, 0) + at(1, 0) + at(0, 1) + at(1, 1) + 2) / 4) as u8);
            }
        }
    }
    Rgb8 {
        width: w,
        height: h,
        data,
    }
}

fn encode(img: &Rgb8) -> Vec<u8> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, img.width as u32, img.height as u32);
    enc.set_color(png::ColorType::Rgb);
    enc.set_compression(png::Compression::High);
    let mut w = enc.write_header().expect("header");
    w.write_image_data(&img.data).expect("data");
    w.finish().expect("finish");
    out
}

fn golden_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(format!("{name}.png"))
}

fn check(name: &str, png_bytes: &[u8]) {
    let actual = half(&decode(png_bytes));
    let path = golden_path(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, encode(&actual)).expect("write golden");
        eprintln!("updated {}", path.display());
        return;
    }
    let expected_bytes = std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "missing golden {} ({e}); run with UPDATE_GOLDEN=1 to create it",
            path.display()
        )
    });
    let expected = decode(&expected_bytes);
    assert_eq!(
        (actual.width, actual.height),
        (expected.width, expected.height),
        "{name}: size differs from golden (UPDATE_GOLDEN=1 to accept)"
    );
    let mut differing = 0usize;
    for (a, e) in actual
        .data
        .chunks_exact(3)
        .zip(expected.data.chunks_exact(3))
    {
        if a.iter()
            .zip(e)
            .any(|(x, y)| x.abs_diff(*y) > CHANNEL_TOLERANCE)
        {
            differing += 1;
        }
    }
    let total = actual.width * actual.height;
    let share = differing as f64 / total as f64;
    if share > PIXEL_BUDGET {
        let out = std::env::temp_dir().join(format!("spellstack-render-{name}-actual.png"));
        let _ = std::fs::write(&out, png_bytes);
        panic!(
            "{name}: {differing} of {total} pixels differ ({:.3}%); actual image written to {} \
             (UPDATE_GOLDEN=1 to accept)",
            share * 100.0,
            out.display()
        );
    }
}

#[test]
fn golden_empty_board() {
    let png =
        render::board_png(&samples::empty_board(), &RenderOptions::default()).expect("render");
    check("board_empty", &png);
}

#[test]
fn golden_midgame_board() {
    let png =
        render::board_png(&samples::midgame_board(), &RenderOptions::default()).expect("render");
    check("board_midgame", &png);
}

#[test]
fn golden_crowded_board() {
    let png =
        render::board_png(&samples::crowded_board(), &RenderOptions::default()).expect("render");
    check("board_crowded", &png);
}

#[test]
fn golden_hand() {
    let png = render::hand_png(&samples::sample_hand(), &RenderOptions::default()).expect("render");
    check("hand", &png);
}

#[test]
fn golden_card() {
    let png = render::card_png(&samples::sample_card(), &RenderOptions::default()).expect("render");
    check("card", &png);
}
