//! Render + encode time for an empty, a typical mid-game and a crowded board, and a hand.
//! PNG sizes are printed once before the timings.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use render::{RenderOptions, Renderer, samples};

fn boards(c: &mut Criterion) {
    let renderer = match Renderer::new(&RenderOptions::default()) {
        Ok(r) => r,
        Err(e) => panic!("fonts: {e}"),
    };
    let scenes = [
        ("empty", samples::empty_board()),
        ("midgame", samples::midgame_board()),
        ("crowded_40", samples::crowded_board()),
    ];
    for (name, scene) in &scenes {
        match renderer.board_png(scene) {
            Ok(png) => eprintln!(
                "PNG size board {name}: {} bytes ({} KB)",
                png.len(),
                png.len() / 1024
            ),
            Err(e) => panic!("render {name}: {e}"),
        }
    }
    let mut group = c.benchmark_group("board_png");
    for (name, scene) in &scenes {
        group.bench_function(*name, |b| b.iter(|| renderer.board_png(black_box(scene))));
    }
    group.finish();

    let hand = samples::sample_hand();
    if let Ok(png) = renderer.hand_png(&hand) {
        eprintln!("PNG size hand: {} KB", png.len() / 1024);
    }
    c.bench_function("hand_png", |b| {
        b.iter(|| renderer.hand_png(black_box(&hand)))
    });
    let card = samples::sample_card();
    if let Ok(png) = renderer.card_png(&card) {
        eprintln!("PNG size card: {} KB", png.len() / 1024);
    }
    c.bench_function("card_png", |b| {
        b.iter(|| renderer.card_png(black_box(&card)))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(3));
    targets = boards
}
criterion_main!(benches);
