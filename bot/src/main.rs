fn main() {
    println!("spellstack");
}
