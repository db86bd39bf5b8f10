//! Loads the card scripts from `engine/cards/scripts/` on disk (not the embedded ones) and
//! reports the first problem: `cargo run -p spellstack-engine --example check_cards`.

fn main() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/cards/scripts");
    let names = ["basic", "tsp", "plc", "fut", "tsb", "test", "tokens"];
    let texts: Vec<(String, String)> = names
        .iter()
        .map(|n| {
            let file = format!("{n}.toml");
            let text = std::fs::read_to_string(format!("{dir}/{file}")).unwrap_or_default();
            (file, text)
        })
        .collect();
    let refs: Vec<(&str, &str)> = texts
        .iter()
        .map(|(f, t)| (f.as_str(), t.as_str()))
        .collect();
    match engine::cards::Catalog::load_scripts(&refs) {
        Ok(c) => println!("ok: {} supported cards", c.supported().count()),
        Err(e) => {
            println!("{e}");
            std::process::exit(1);
        }
    }
}
