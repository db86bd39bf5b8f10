//! Public API behaviour: errors instead of panics, PNG output, languages, serde.

use render::scene::*;
use render::{Language, RenderError, RenderOptions, Renderer, samples};

fn png_size(bytes: &[u8]) -> (u32, u32) {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let reader = decoder.read_info().expect("valid png");
    let info = reader.info();
    (info.width, info.height)
}

#[test]
fn boards_are_1280_wide_pngs() {
    for scene in [
        samples::empty_board(),
        samples::midgame_board(),
        samples::crowded_board(),
    ] {
        let png = render::board_png(&scene, &RenderOptions::default()).expect("render");
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        let (w, h) = png_size(&png);
        assert_eq!(w, 1280);
        assert!((300..=2200).contains(&h), "height {h}");
    }
}

#[test]
fn spectator_and_second_viewer_render() {
    let mut scene = samples::midgame_board();
    scene.viewer = None;
    render::board_png(&scene, &RenderOptions::default()).expect("spectator");
    scene.viewer = Some(1);
    render::board_png(&scene, &RenderOptions::default()).expect("other viewer");
}

#[test]
fn bad_scenes_are_errors_not_panics() {
    let opts = RenderOptions::default();
    let mut scene = samples::midgame_board();
    scene.viewer = Some(7);
    assert!(matches!(
        render::board_png(&scene, &opts),
        Err(RenderError::InvalidScene(_))
    ));

    let mut scene = samples::midgame_board();
    scene.turn.active_player = 9;
    assert!(matches!(
        render::board_png(&scene, &opts),
        Err(RenderError::InvalidScene(_))
    ));

    let mut scene = samples::midgame_board();
    scene.players[0].battlefield[0].face = None; // face up, but no face
    assert!(matches!(
        render::board_png(&scene, &opts),
        Err(RenderError::InvalidScene(_))
    ));

    let mut scene = samples::midgame_board();
    scene.players.clear();
    assert!(matches!(
        render::board_png(&scene, &opts),
        Err(RenderError::InvalidScene(_))
    ));
}

#[test]
fn dangling_references_are_tolerated() {
    // Targets, blocks and attachments naming unknown ids are drawn as best we can.
    let mut scene = samples::midgame_board();
    scene.stack[0].targets.push(TargetRef::Permanent(9999));
    scene.stack[0].targets.push(TargetRef::Player(42));
    scene.players[0].battlefield[7].blocking.push(8888);
    scene.players[0].battlefield[10].attached_to = Some(7777);
    // An Aura cycle.
    scene.players[1].battlefield[10].attached_to = Some(35);
    scene.players[1].battlefield[11].attached_to = Some(34);
    render::board_png(&scene, &RenderOptions::default()).expect("render");
}

#[test]
fn odd_text_and_symbols_render() {
    let mut face = samples::card(
        "Odd",
        "",
        "{X}{G/W}{2/B}{S}{Q}{100}{",
        "Artifact",
        "{T}, {Q}: {unknown} and {",
        None,
    );
    face.power = Some("*".into());
    face.toughness = Some("1+*".into());
    render::card_png(&face, &RenderOptions::default()).expect("card");
    let hand = HandScene {
        owner: "Nobody".into(),
        cards: vec![],
    };
    render::hand_png(&hand, &RenderOptions::default()).expect("empty hand");
}

#[test]
fn missing_cjk_font_is_a_clear_error() {
    let opts = RenderOptions {
        language: Language::ZhHant,
        cjk_font_path: "/nonexistent/NotoSansCJK-Regular.ttc".into(),
    };
    let err = render::board_png(&samples::midgame_board(), &opts).expect_err("must fail");
    assert!(matches!(err, RenderError::FontMissing { .. }), "{err:?}");
    assert!(
        err.to_string()
            .contains("/nonexistent/NotoSansCJK-Regular.ttc")
    );
    assert!(Renderer::new(&opts).is_err());
}

#[test]
fn chinese_names_when_the_font_is_installed() {
    let opts = RenderOptions::zh_hant();
    if !opts.cjk_font_path.is_file() {
        eprintln!(
            "skipping: {} not installed (apt-get install fonts-noto-cjk)",
            opts.cjk_font_path.display()
        );
        return;
    }
    let en = render::board_png(&samples::midgame_board(), &RenderOptions::default()).expect("en");
    let zh = render::board_png(&samples::midgame_board(), &opts).expect("zh");
    assert_ne!(en, zh);
    render::hand_png(&samples::sample_hand(), &opts).expect("zh hand");
    render::card_png(&samples::sample_card(), &opts).expect("zh card");
}

#[test]
fn scenes_round_trip_through_json() {
    let scene = samples::midgame_board();
    let json = serde_json::to_string(&scene).expect("serialize");
    let back: BoardScene = serde_json::from_str(&json).expect("deserialize");
    assert_eq!(scene, back);
    let hand = samples::sample_hand();
    let back: HandScene =
        serde_json::from_str(&serde_json::to_string(&hand).expect("ser")).expect("de");
    assert_eq!(hand, back);
}

#[test]
fn rendering_is_deterministic() {
    let r = Renderer::new(&RenderOptions::default()).expect("renderer");
    let a = r.board_png(&samples::midgame_board()).expect("a");
    let b = r.board_png(&samples::midgame_board()).expect("b");
    assert_eq!(a, b);
}

#[test]
fn three_players_abilities_and_player_targets_render() {
    let mut scene = samples::midgame_board();
    let mut carol = PlayerArea::new("Carol", 9);
    carol.poison = 3;
    carol
        .battlefield
        .push(PermanentCard::new(90, samples::forest()));
    scene.players.push(carol);
    scene.stack.push(StackItem {
        id: 42,
        controller: 2,
        kind: StackKind::TriggeredAbility,
        face: Some(samples::pandemonium()),
        text: "Pandemonium: Thick-Skinned Goblin deals 2 damage to any target.".into(),
        targets: vec![TargetRef::Player(0), TargetRef::StackObject(41)],
    });
    scene.turn.deciding_player = Some(2);
    let png = render::board_png(&scene, &RenderOptions::default()).expect("render");
    let (w, _) = png_size(&png);
    assert_eq!(w, 1280);
    if let Some(dir) = std::env::var_os("RENDER_DEBUG_DIR") {
        std::fs::write(std::path::Path::new(&dir).join("three_players.png"), &png).expect("write");
    }
}
