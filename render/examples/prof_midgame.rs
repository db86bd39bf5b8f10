fn main() {
    let r = render::Renderer::new(&render::RenderOptions::default()).unwrap();
    let s = render::samples::midgame_board();
    for _ in 0..300 {
        let _ = r.board_png(&s).unwrap();
    }
}
