//! Writes the sample images to a directory: `cargo run -p spellstack-render --example
//! render_samples -- OUT_DIR [zh]`.

use std::path::PathBuf;

use render::{RenderOptions, samples};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().ok_or("usage: render_samples OUT_DIR [zh]")?);
    let zh = args.next().is_some_and(|a| a == "zh");
    std::fs::create_dir_all(&dir)?;
    let options = if zh {
        RenderOptions::zh_hant()
    } else {
        RenderOptions::default()
    };
    let suffix = if zh { "_zh" } else { "" };
    let boards = [
        ("empty", samples::empty_board()),
        ("midgame", samples::midgame_board()),
        ("crowded", samples::crowded_board()),
    ];
    for (name, scene) in boards {
        let png = render::board_png(&scene, &options)?;
        let path = dir.join(format!("board_{name}{suffix}.png"));
        std::fs::write(&path, &png)?;
        println!("{} ({} KB)", path.display(), png.len() / 1024);
    }
    let hand = render::hand_png(&samples::sample_hand(), &options)?;
    std::fs::write(dir.join(format!("hand{suffix}.png")), &hand)?;
    let card = render::card_png(&samples::sample_card(), &options)?;
    std::fs::write(dir.join(format!("card{suffix}.png")), &card)?;
    println!(
        "hand {} KB, card {} KB",
        hand.len() / 1024,
        card.len() / 1024
    );
    Ok(())
}
