//! Loading card facts and behaviour scripts into [`CardDef`]s, with validation.

use super::*;
use crate::costs::{Cost, CostPart};
use crate::effects::Effect;
use crate::targets::TargetSpec;
use serde::Deserialize;

pub type ScriptError = CatalogError;

#[derive(Deserialize)]
struct FactsFile {
    card: Vec<Facts>,
}

#[derive(Deserialize, Default, Clone)]
#[serde(deny_unknown_fields)]
struct Facts {
    name: String,
    cost: Option<String>,
    #[serde(rename = "type")]
    type_line: String,
    pt: Option<String>,
    colors: Option<String>,
    #[serde(default)]
    layout: Option<String>,
    #[serde(default)]
    rarity: String,
    #[serde(default)]
    sets: Vec<String>,
    zh: Option<String>,
    #[serde(default)]
    text: String,
    /// A split card's two halves, left first: each its own name, cost, type, colours and
    /// text (`keywords/split.rs`).
    #[serde(default)]
    half: Vec<Facts>,
}

#[derive(Deserialize)]
struct ScriptFile {
    card: Vec<Script>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Script {
    name: String,
    /// Test-only cards carry their own facts.
    #[serde(default)]
    test_only: bool,
    /// Token definitions carry their own facts too (colours in `colors`).
    #[serde(default)]
    token: bool,
    cost: Option<String>,
    #[serde(rename = "type")]
    type_line: Option<String>,
    pt: Option<String>,
    text: Option<String>,
    /// Characteristic-defining colour ("Ghostfire is colorless"): overrides the cost's colours.
    colors: Option<String>,
    #[serde(default)]
    keywords: Vec<String>,
    #[serde(default)]
    additional_cost: Vec<String>,
    #[serde(default)]
    targets: Vec<String>,
    #[serde(default)]
    effects: Vec<String>,
    #[serde(default)]
    enters_with: Vec<String>,
    /// `enters_with_unless_cast_from_hand = ["3 +1/+1"]`: "~ enters the battlefield with
    /// three +1/+1 counters on it if you didn't cast it from your hand" (Epochrasite).
    #[serde(default)]
    enters_with_unless_cast_from_hand: Vec<String>,
    #[serde(default)]
    enters_tapped: bool,
    #[serde(default)]
    ability: Vec<AbilityScript>,
    #[serde(default)]
    trigger: Vec<TriggerScript>,
    #[serde(default, rename = "static")]
    statics: Vec<StaticScript>,
    /// "Choose one —" modes, in printed order.
    #[serde(default)]
    mode: Vec<ModeScript>,
    /// Static prevention abilities (`replacement.rs`): `spell_damage 1`, `from_creatures_to_this`.
    #[serde(default)]
    prevent: Vec<String>,
    /// Enduring Renewal: "If you would draw a card, reveal the top card of your library
    /// instead. If it's a creature card, put it into your graveyard. Otherwise, draw a card."
    #[serde(default)]
    draw_reveal_instead: bool,
    /// Leyline of the Void: "If a card would be put into an opponent's graveyard from
    /// anywhere, exile it instead" (test fixtures only).
    #[serde(default)]
    opponents_cards_exiled_instead: bool,
    /// Fist of Suns: "You may pay COST rather than pay the mana cost for spells that you
    /// cast" (test fixtures only).
    #[serde(default)]
    your_spells_alternative_cost: Option<String>,
    /// "Play with your hand revealed."
    #[serde(default)]
    hand_revealed: bool,
    /// Test fixtures only (Meddling Mage, outside the block, with its name chosen):
    /// "Spells with the chosen name can't be cast" by this card's opponents.
    opponents_cant_cast: Option<String>,
    /// "Creature cards you own that aren't on the battlefield have flash." (Teferi)
    #[serde(default)]
    own_creature_cards_have_flash: bool,
    /// "Each opponent can cast spells only any time they could cast a sorcery." (Teferi)
    #[serde(default)]
    opponents_sorcery_timing: bool,
    /// "You can't cast this spell during your first, second, or third turns of the game."
    /// (Serra Avenger)
    #[serde(default)]
    cant_cast_during_first_three_turns: bool,
    /// "You may choose not to untap ~ during your untap step." (Giant Oyster)
    #[serde(default)]
    may_choose_not_to_untap: bool,
    /// "~ can't attack unless you sacrifice two Islands." (Leviathan): the cost, in the cost
    /// grammar (`sacrifice two type:Island`).
    #[serde(default)]
    attack_cost: Option<String>,
    /// Gemstone Caverns' pregame action from the opening hand.
    #[serde(default)]
    begin_game_on_battlefield: bool,
    /// "For as long as ~ remains tapped, target ... doesn't untap during its controller's
    /// untap step" (Giant Oyster: the creature its ability linked).
    #[serde(default)]
    linked_doesnt_untap_while_tapped: bool,
    /// Test fixtures only: "Spells cost {N} more to cast."
    #[serde(default)]
    spells_cost_more: u32,
    /// "As ~ enters the battlefield, choose a creature type."
    #[serde(default)]
    choose_creature_type: bool,
    /// "As ~ enters the battlefield, choose a color" (`"color"`) / "an opponent"
    /// (`"opponent"`).
    choose: Option<String>,
    /// "As ~ enters the battlefield, choose white Citizen, blue Camarid, ...": the options.
    #[serde(default)]
    choose_one_of: Vec<String>,
    /// "As ~ enters the battlefield or is turned face up, it becomes your choice of 5/1 or
    /// 1/5" (Aquamorph Entity): `choose_pt = ["5/1", "1/5"]`, checked against the text.
    #[serde(default)]
    choose_pt: Vec<String>,
    /// "You may have ~ enter the battlefield tapped as a copy of any land on the battlefield."
    #[serde(default)]
    copy_land_as_enters: bool,
    /// `"clone"`: "As ~ enters the battlefield, you may choose a creature on the battlefield;
    /// it enters as a copy of it"; `"shapeshifter"`: Vesuvan Shapeshifter's copy as it enters
    /// or is turned face up, until turned face down, with its upkeep trigger.
    copy_creature: Option<String>,
    /// An Aura's "Enchant <filter>": its spell targets such a permanent and it enters
    /// attached to it.
    enchant: Option<String>,
    /// `"white_as_any"`: Celestial Dawn's mana-spending rule for its controller.
    spend_rule: Option<String>,
    /// "Skip your draw step."
    #[serde(default)]
    skip_draw_step: bool,
    /// Detainment Spell: "Enchanted creature's activated abilities can't be activated."
    #[serde(default)]
    enchanted_cant_activate: bool,
    /// Consecrate Land: "Enchanted land ... can't be enchanted by other Auras."
    #[serde(default)]
    enchanted_cant_be_enchanted_by_other_auras: bool,
    /// "Hellbent — Skip your upkeep step if you have no cards in hand." (Gibbering Descent)
    #[serde(default)]
    skip_upkeep_if_hellbent: bool,
    /// "Damage that would reduce your life total to less than 1 reduces it to 1 instead."
    #[serde(default)]
    damage_life_floor: bool,
    /// Gauntlet of Power's "whenever a basic land is tapped for mana of the chosen color, its
    /// controller adds an additional one mana of that color" (checked against the text).
    #[serde(default)]
    basic_land_mana_of_chosen_color_adds_one: bool,
    /// "As long as ~ is untapped, all combat damage that would be dealt to you by unblocked
    /// creatures is dealt to ~ instead."
    #[serde(default)]
    redirect_unblocked_combat_damage: bool,
    /// Morph: the cost to turn it face up (`"{U}{U}"`); must match the card's text.
    morph: Option<String>,
    /// Echo (502.19 / 702.30): `echo = "{2}{R}"`, a triggered ability in its upkeep; a
    /// non-mana echo cost as a cost, `echo = "discard a card"` (Echo—Discard a card).
    echo: Option<String>,
    /// Thick-Skinned Goblin: "You may pay {0} rather than pay the echo cost for permanents
    /// you control."
    #[serde(default)]
    pay_zero_for_echo: bool,
    /// Suspend (502.59 / 702.61): `suspend = "5 {B}"` or `"X {X}{3}{U}"`, as printed.
    suspend: Option<String>,
    /// Madness (502.24 / 702.34): `madness = "{B}"`, as printed.
    madness: Option<String>,
    /// Cycling (502.18 / 702.28): `cycling = "{2}"` or `"sacrifice a land"`, as printed.
    cycling: Option<String>,
    /// Typecycling (502.18c-d / 702.28e): `typecycling = "Swamp {2}"` (swampcycling {2}).
    typecycling: Option<String>,
    /// Homing Sliver: `grant_typecycling_in_hands = "Sliver {3}"`, "Each Sliver card in
    /// each player's hand has slivercycling {3}."
    grant_typecycling_in_hands: Option<String>,
    /// Test fixtures only: "Players can't cycle cards."
    #[serde(default)]
    players_cant_cycle: bool,
    /// Transmute (702.52): `transmute = "{1}{U}{U}"`, as printed.
    transmute: Option<String>,
    /// Transfigure (702.70): `transfigure = "{1}{B}{B}"`, as printed.
    transfigure: Option<String>,
    /// Vanishing N (702.62): `vanishing = 3`, the time counters it enters with.
    vanishing: Option<u32>,
    /// Bloodthirst N (702.53): `bloodthirst = 1`.
    #[serde(default)]
    bloodthirst: u32,
    /// Dredge N (702.51): `dredge = 2`.
    #[serde(default)]
    dredge: u32,
    /// Graft N (702.57): `graft = 1`.
    #[serde(default)]
    graft: u32,
    /// "As ~ enters the battlefield, turn all other nontoken creatures face down."
    #[serde(default)]
    turn_others_face_down: bool,
    /// Flashback: its flashback cost (`"{G}"`, `"{R}{R}, discard X cards"`).
    flashback: Option<String>,
    /// "N damage divided as you choose among any number of targets": `"5 any"`, `"X any"`
    /// (the amount, then the target description); the effect `damage_divided` deals it.
    divided_damage: Option<String>,
    /// "... up to one other target ...": the last target slot may be left unchosen and
    /// differs from the earlier ones (Return to Dust).
    #[serde(default)]
    up_to_one_other_target: bool,
    /// "... up to three target cards ...": the last three target slots may be left unchosen
    /// (Gaea's Blessing); checked against the text.
    #[serde(default)]
    up_to_three_targets: bool,
    /// "If damage would be dealt to ~, sacrifice that many permanents instead."
    #[serde(default)]
    damage_to_sacrifice: bool,
    /// "If ~ would be destroyed, regenerate it" (checked against the text).
    #[serde(default)]
    regenerates_if_destroyed: bool,
    /// "If a spell or ability an opponent controls causes you to discard ~, put it onto the
    /// battlefield with N +1/+1 counters on it instead ..." (Dodecapod; checked against the text).
    #[serde(default)]
    opponent_discard_to_battlefield: u32,
    /// Locket of Yesterdays: spells you cast cost {N} less for each card with the same name
    /// in your graveyard.
    #[serde(default)]
    reduce_per_same_name_in_graveyard: u32,
    /// `spells_cost_less = "1 white or black"`: "<filter> spells you cast cost {N} less".
    spells_cost_less: Option<String>,
    /// `costs_less_with_creature_cards_in_graveyards = [10, 6]` (Avatar of Woe).
    costs_less_with_creature_cards_in_graveyards: Option<(u32, u32)>,
    /// Kicker (502.21 / 702.32): `"{W}{W}"`, or `"{2}{U} and/or {1}{B}"`, as printed.
    kicker: Option<String>,
    /// Target slots the spell has only when kicked (after `targets`).
    #[serde(default)]
    kicker_targets: Vec<String>,
    /// Buyback (502.16 / 702.26): `"{3}"`, `"discard two cards"`, as printed.
    buyback: Option<String>,
    /// "You may [cost] rather than pay this spell's mana cost" (Snapback:
    /// `"exile a blue card from your hand"`; `keywords/alternative_cost.rs`).
    alternative_cost: Option<String>,
    /// Storm (502.30 / 702.39).
    #[serde(default)]
    storm: bool,
    /// Gravestorm (702.68).
    #[serde(default)]
    gravestorm: bool,
    /// Test fixtures only: "Buyback costs you pay cost {N} less."
    #[serde(default)]
    buyback_costs_less: u32,
    /// Delve (702.65).
    #[serde(default)]
    delve: bool,
    /// Convoke (702.50).
    #[serde(default)]
    convoke: bool,
    /// A split card's halves, left first (`[[card.half]]` with the half's `name`, its
    /// `targets` and `effects`...: the spell keys of a card). The card itself has no
    /// other key (`keywords/split.rs`).
    #[serde(default)]
    half: Vec<Script>,
    /// "If this spell was kicked, it has split second" (Molten Disaster).
    #[serde(default)]
    kicked_split_second: bool,
    /// Equip (502.33 / 702.6, `keywords/equip.rs`): `equip = "{2}"`, as printed.
    equip: Option<String>,
    /// Fortify (702.66, `keywords/fortify.rs`): `fortify = "{3}"`, as printed.
    fortify: Option<String>,
    /// Aura swap (702.64, `keywords/aura_swap.rs`): `aura_swap = "{2}{U}"`, as printed.
    aura_swap: Option<String>,
}

/// `affects = "creature type:Sliver"`, `pump = "+1/+1"`, `grant = ["Flying"]`, `other = true`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StaticScript {
    affects: String,
    #[serde(default)]
    other: bool,
    pump: Option<String>,
    #[serde(default)]
    grant: Vec<String>,
    /// Triggered abilities granted: `[[card.static.grant_trigger]]` tables like `[[card.trigger]]`.
    #[serde(default)]
    grant_trigger: Vec<TriggerScript>,
    /// Activated abilities granted: `[[card.static.grant_ability]]` tables like
    /// `[[card.ability]]` ("All Slivers have '{T}: ...'"; `this` is the permanent that has it).
    #[serde(default)]
    grant_ability: Vec<AbilityScript>,
    /// Subtypes added in addition to the others (layer 4).
    #[serde(default)]
    add_subtypes: Vec<String>,
    /// `"chosen"`: the creature types become the type chosen as the source entered.
    set_creature_type: Option<String>,
    /// Also spells its controller controls and cards they own outside the battlefield.
    #[serde(default)]
    also_outside_battlefield: bool,
    /// `"all_creature_types"`: a characteristic-defining ability (every zone, itself only).
    cda: Option<String>,
    /// Only the source itself, when it matches `affects` ("as long as ~ is a creature").
    #[serde(default)]
    itself: bool,
    /// Only the permanent the source (an Aura) enchants.
    #[serde(default)]
    enchanted: bool,
    /// Only the creature the source (an Equipment) equips: "Equipped creature ...".
    #[serde(default)]
    equipped: bool,
    /// Only the land the source (a Fortification) fortifies: "Fortified land ...".
    #[serde(default)]
    fortified: bool,
    /// `["Plains"]`: the land types become these basic land types (layer 4, 212.6e).
    #[serde(default)]
    set_land_types: Vec<String>,
    /// `"W"`: the colours become these (layer 5).
    set_colors: Option<String>,
    /// `"lands_of_type_or_defenders Forest"`: a P/T-setting CDA (Gaea's Liege).
    cda_pt: Option<String>,
    text: String,
    /// `"spore"`: the pump is "for each spore counter on it".
    per_counter: Option<String>,
    /// `"threshold"` / `"hellbent"`: "as long as ..." (`keywords/threshold.rs`).
    condition: Option<String>,
    /// "... can't attack you": the affected creatures can't attack its controller.
    #[serde(default)]
    cant_attack_you: bool,
    /// `"chosen_color"`: "... has protection from the chosen color" (needs `choose = "color"`).
    grant_protection_from: Option<String>,
    /// "This effect doesn't remove ~" (an Aura's own protection grant spares it).
    #[serde(default)]
    doesnt_remove_this: bool,
    /// A granted P/T static: `[card.static.grant_static]` with `pump`, `if_you_control`
    /// (a basic land type) and `text` (Sedge Sliver).
    grant_static: Option<GrantStaticScript>,
}

/// `[card.static.grant_static]`: "All Slivers have 'This creature gets +1/+1 as long as
/// you control a Swamp'".
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GrantStaticScript {
    pump: String,
    if_you_control: String,
    text: String,
}

/// A static's `grant_static` table, checked against the card's text and the land types.
fn granted_pump(
    def: &CardDef,
    st: &StaticScript,
) -> Result<Option<crate::cards::GrantedPump>, String> {
    let Some(g) = &st.grant_static else {
        return Ok(None);
    };
    let (power, toughness) = crate::grammar::parse_all(crate::grammar::words::pt_change, &g.pump)
        .map_err(|e| format!("grant_static pump `{}`: {e}", g.pump))?;
    if !BASIC_LAND_TYPES.iter().any(|(n, _)| *n == g.if_you_control) {
        return Err(format!(
            "grant_static: `{}` is not a basic land type",
            g.if_you_control
        ));
    }
    let says = format!(
        "gets {} as long as you control a {}",
        g.pump, g.if_you_control
    );
    if !def.text.contains(&g.text) || !g.text.contains(&says) {
        return Err(format!(
            "grant_static: its text must be in the card's text and say \"{says}\""
        ));
    }
    Ok(Some(crate::cards::GrantedPump {
        power,
        toughness,
        if_you_control: g.if_you_control.clone(),
        text: g.text.clone(),
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ModeScript {
    text: String,
    #[serde(default)]
    targets: Vec<String>,
    effects: Vec<String>,
}

/// A triggered ability: `when` names the trigger event (see `TriggerEvent::parse`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TriggerScript {
    when: String,
    /// An intervening "if" clause (see `TriggerCondition::parse`).
    #[serde(default, rename = "if")]
    condition: Option<String>,
    #[serde(default)]
    targets: Vec<String>,
    #[serde(default)]
    effects: Vec<String>,
    text: Option<String>,
    /// "It deals N damage divided as you choose among any number of targets".
    divided_damage: Option<String>,
    /// "Choose one —" (a modal triggered ability): `[[card.trigger.mode]]` tables like a
    /// modal spell's, chosen as it is put on the stack.
    #[serde(default)]
    mode: Vec<ModeScript>,
}

/// One activated ability, in printed order; with `add` it is a mana ability.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AbilityScript {
    cost: String,
    #[serde(default)]
    targets: Vec<String>,
    #[serde(default)]
    effects: Vec<String>,
    timing: Option<String>,
    condition: Option<String>,
    text: Option<String>,
    /// Mana abilities: what it adds (`{G}`, `{C}`, `any`, `{R} or {G}`).
    add: Option<String>,
    /// Forecast (702.56): activated from the hand by revealing the card, only during your
    /// upkeep and only once each turn (`keywords/forecast.rs`).
    #[serde(default)]
    forecast: bool,
    /// "Return ~ from your graveyard ...": activated only while the card is in its owner's
    /// graveyard (Chronosavant; checked against the text).
    #[serde(default)]
    from_graveyard: bool,
    /// "Activate only if ~ is suspended" (Greater Gargadon): activated only while the card
    /// is suspended, by its owner (checked against the text).
    #[serde(default)]
    while_suspended: bool,
    /// "Activate only once each turn" (Wall of Roots; checked against the text).
    #[serde(default)]
    once_each_turn: bool,
    /// "Only your opponents may activate this ability" (checked against the text).
    #[serde(default)]
    opponents_only: bool,
    /// "X target <things>" (Magus of the Candelabra): the one target slot is repeated X
    /// times (checked against the text and the cost).
    #[serde(default)]
    x_targets: bool,
}

/// `x_targets = true`: the text says "X target", the ability has one target slot and an X
/// in its mana cost.
fn x_targets(a: &AbilityScript, def: &CardDef, targets: &[TargetSpec]) -> Result<bool, String> {
    if !a.x_targets {
        return Ok(false);
    }
    if !def.text.contains("X target") {
        return Err("`x_targets`: the card's text has no \"X target\"".into());
    }
    if targets.len() != 1 || !a.cost.contains("{X}") {
        return Err("`x_targets`: the ability needs one target slot and {X} in its cost".into());
    }
    Ok(true)
}

/// `once_each_turn = true`: the ability's text must say "Activate only once each turn".
fn once_each_turn(a: &AbilityScript, def: &CardDef) -> Result<bool, String> {
    if a.once_each_turn
        && !def
            .text
            .to_lowercase()
            .contains("activate only once each turn")
    {
        return Err(
            "`once_each_turn`: the card's text has no \"Activate only once each turn\"".into(),
        );
    }
    Ok(a.once_each_turn)
}

/// The card's own replacement effects: Dralnu's damage-to-sacrifice, Knight of the Holy
/// Nimbus's "if ~ would be destroyed, regenerate it" (each checked against the text).
fn apply_replacement_keys(def: &mut CardDef, s: &Script, text_lower: &str) -> Result<(), String> {
    def.damage_to_sacrifice = s.damage_to_sacrifice;
    if s.damage_to_sacrifice && !text_lower.contains("sacrifice that many permanents instead") {
        return Err("`damage_to_sacrifice`: the card's text doesn't say so".into());
    }
    def.regenerates_if_destroyed = s.regenerates_if_destroyed;
    if s.regenerates_if_destroyed
        && !text_lower.contains(&format!(
            "if {} would be destroyed, regenerate it",
            def.name.to_lowercase()
        ))
    {
        return Err("`regenerates_if_destroyed`: the card's text doesn't say so".into());
    }
    let n = s.opponent_discard_to_battlefield;
    if n > 0 {
        let count = ["zero", "one", "two", "three"]
            .get(n as usize)
            .map_or_else(|| n.to_string(), |w| (*w).to_string());
        if !text_lower.contains(&format!(
            "if a spell or ability an opponent controls causes you to discard {}, put it onto the battlefield with {count} +1/+1 counters",
            def.name.to_lowercase()
        )) {
            return Err("`opponent_discard_to_battlefield`: the card's text doesn't say so".into());
        }
    }
    def.opponent_discard_to_battlefield = n;
    Ok(())
}

/// `opponents_only = true`: the text must say "Only your opponents may activate this ability".
fn opponents_only(a: &AbilityScript, def: &CardDef) -> Result<bool, String> {
    if a.opponents_only
        && !def
            .text
            .to_lowercase()
            .contains("only your opponents may activate this ability")
    {
        return Err("`opponents_only`: the card's text has no \"Only your opponents may activate this ability\"".into());
    }
    Ok(a.opponents_only)
}

fn err(card: &str, problem: impl Into<String>) -> CatalogError {
    CatalogError {
        card: card.to_string(),
        problem: problem.into(),
    }
}

/// The face-down characteristics (502.26b / 707.2): not a card, found by no name.
fn push_face_down(cards: &mut Vec<CardDef>) -> Result<CardId, CatalogError> {
    let face_down = CardId(cards.len() as u16);
    let f = Facts {
        name: "face-down creature".into(),
        type_line: "Creature".into(),
        pt: Some("2/2".into()),
        ..Default::default()
    };
    let mut def = facts_to_def(face_down, &f)?;
    def.support = Support::Token;
    cards.push(def);
    Ok(face_down)
}

/// The id of the first test-only card. Real cards, the face-down characteristics and the
/// tokens come below it, so a new token moves no test card (the bench decks are made of
/// test cards, and their games' hashes hold card ids); the ids between the last token and
/// this one are unused.
pub(super) const TEST_CARD_BASE: usize = 1000;

/// Fills the ids below [`TEST_CARD_BASE`] no card uses with copies of the face-down
/// characteristics marked as tokens: no name finds them and no deck may hold them.
fn pad_to_test_cards(cards: &mut Vec<CardDef>, face_down: CardId) {
    while cards.len() < TEST_CARD_BASE {
        let mut unused = cards[face_down.0 as usize].clone();
        unused.id = CardId(cards.len() as u16);
        cards.push(unused);
    }
}

/// The script files named after a set (each holds that set's cards only).
const SET_FILES: &[&str] = &["tsp", "tsb", "plc", "fut"];

pub(super) fn build(facts_src: &str, scripts: &[(&str, &str)]) -> Result<Catalog, CatalogError> {
    let facts: FactsFile =
        toml::from_str(facts_src).map_err(|e| err("facts.toml", e.to_string()))?;
    let mut cards: Vec<CardDef> = Vec::with_capacity(facts.card.len() + 16);
    let mut halves: Vec<CardDef> = Vec::new();
    let mut by_name: HashMap<String, CardId> = HashMap::new();
    // Tokens by name: a token may have a real card's name (Urza's Factory's Assembly-Worker
    // token); `create_token` finds tokens here, deck and setup names find the real card.
    let mut tokens_by_name: HashMap<String, CardId> = HashMap::new();
    for f in facts.card {
        let id = CardId(cards.len() as u16);
        let def = facts_to_def(id, &f)?;
        if by_name.insert(normalize_name(&def.name), id).is_some() {
            return Err(err(&def.name, "listed twice in facts.toml"));
        }
        halves.extend(split_halves(&def, &f)?);
        cards.push(def);
    }
    // Card ids are saved in games, so they must not move when scripts are added: the real
    // cards (facts.toml's order), then the face-down characteristics, then the tokens, and
    // test-only cards last (they are in no saved game).
    let face_down = push_face_down(&mut cards)?;
    let mut scripts = scripts.to_vec();
    scripts.sort_by_key(|(file, _)| match *file {
        "tokens.toml" => 0,
        "test.toml" => 2,
        _ => 1,
    });
    for (file, src) in &scripts {
        let parsed: ScriptFile = toml::from_str(src).map_err(|e| err(file, e.to_string()))?;
        for s in parsed.card {
            let key = normalize_name(&s.name);
            let id = if s.test_only || s.token {
                if tokens_by_name.contains_key(&key) || (s.test_only && by_name.contains_key(&key))
                {
                    return Err(err(
                        &s.name,
                        "a test-only card may not reuse a real card's name",
                    ));
                }
                if s.test_only {
                    pad_to_test_cards(&mut cards, face_down);
                } else if cards.len() >= TEST_CARD_BASE {
                    return Err(err(&s.name, "too many tokens: raise TEST_CARD_BASE"));
                }
                let id = CardId(cards.len() as u16);
                let f = Facts {
                    name: s.name.clone(),
                    cost: s.cost.clone(),
                    type_line: s
                        .type_line
                        .clone()
                        .ok_or_else(|| err(&s.name, "test card needs `type`"))?,
                    pt: s.pt.clone(),
                    text: s.text.clone().unwrap_or_default(),
                    ..Default::default()
                };
                let mut def = facts_to_def(id, &f)?;
                def.support = if s.token {
                    Support::Token
                } else {
                    Support::TestOnly
                };
                cards.push(def);
                if s.token {
                    tokens_by_name.insert(key.clone(), id);
                }
                by_name.entry(key).or_insert(id);
                id
            } else {
                if s.cost.is_some() || s.type_line.is_some() || s.pt.is_some() || s.text.is_some() {
                    return Err(err(
                        &s.name,
                        "a script may not restate facts (cost, type, pt, text); they come from facts.toml",
                    ));
                }
                *by_name
                    .get(&key)
                    .ok_or_else(|| err(&s.name, format!("{file}: no such card in facts.toml")))?
            };
            let def = &mut cards[id.0 as usize];
            // A card's script lives in the file of its set (`tsp.toml`, `tsb.toml`...).
            let set_file = file.strip_suffix(".toml").filter(|f| SET_FILES.contains(f));
            if let Some(f) = set_file
                && !def.sets.iter().any(|s| s.eq_ignore_ascii_case(f))
            {
                return Err(err(
                    &s.name,
                    format!(
                        "{file}: a card of {} belongs in its set's file",
                        def.sets.join(", ")
                    ),
                ));
            }
            if def.support == Support::Supported {
                return Err(err(&s.name, format!("{file}: scripted twice")));
            }
            if def.split.is_some() || !s.half.is_empty() {
                apply_split_script(def, &mut halves, &s)
                    .map_err(|p| err(&s.name, format!("{file}: {p}")))?;
            } else {
                apply_script(def, &s).map_err(|p| err(&s.name, format!("{file}: {p}")))?;
            }
            if !s.test_only && !s.token {
                def.support = Support::Supported;
            }
        }
    }
    halves.iter_mut().for_each(explain_unscripted);
    for def in &mut cards {
        explain_unscripted(def);
        add_intrinsic_mana_abilities(def);
    }
    check_tokens(&cards, &halves, &tokens_by_name)?;
    let mut creature_types: Vec<String> = cards
        .iter()
        .filter(|c| c.has_type(CardType::Creature) || c.has_type(CardType::Tribal))
        .flat_map(|c| c.subtypes.iter().cloned())
        .collect();
    creature_types.sort();
    creature_types.dedup();
    let intrinsic = BASIC_LAND_TYPES
        .iter()
        .map(|(_, c)| intrinsic_mana_ability(*c))
        .collect();
    // Land types: the basic ones and the subtypes of lands that aren't creatures (a land
    // creature's subtypes mix both kinds: Dryad Arbor is a Forest Dryad).
    let mut land_types: Vec<String> = cards
        .iter()
        .filter(|c| c.has_type(CardType::Land) && !c.has_type(CardType::Creature))
        .flat_map(|c| c.subtypes.iter().cloned())
        .chain(BASIC_LAND_TYPES.iter().map(|(t, _)| t.to_string()))
        .collect();
    land_types.sort();
    land_types.dedup();
    let granted_cycling = granted_cycling(&cards)?;
    let granted_abilities = granted_abilities(&cards)?;
    Ok(Catalog {
        halves,
        granted_cycling,
        granted_abilities,
        cards,
        face_down,
        by_name,
        tokens_by_name,
        creature_types,
        intrinsic,
        land_types,
    })
}

/// The activated abilities static abilities grant (`GRANTED_ABILITY + g`), in catalog order.
fn granted_abilities(cards: &[CardDef]) -> Result<Vec<(CardId, u8, u8)>, CatalogError> {
    let mut out = Vec::new();
    for c in cards {
        for (st, s) in c.statics.iter().enumerate() {
            for k in 0..s.grant_abilities.len() {
                out.push((c.id, st as u8, k as u8));
            }
        }
    }
    let room = (GRANTED_CYCLING_ABILITY - GRANTED_ABILITY) as usize;
    if out.len() > room {
        return Err(err(
            "granted abilities",
            format!("more than {room} granted activated abilities: widen GRANTED_ABILITY"),
        ));
    }
    Ok(out)
}

/// Every token an effect creates must be defined as a token; every card an effect names
/// must exist.
fn check_tokens(
    cards: &[CardDef],
    halves: &[CardDef],
    tokens_by_name: &HashMap<String, CardId>,
) -> Result<(), CatalogError> {
    for def in cards.iter().chain(halves) {
        let effects = def
            .spell
            .effects
            .iter()
            .chain(def.spell.modes.iter().flat_map(|m| m.effects.iter()))
            .chain(def.abilities.iter().flat_map(|a| a.effects.iter()))
            .chain(def.triggers.iter().flat_map(|t| t.effects.iter()));
        for e in effects {
            if let Effect::ReturnExiledCardNamed(name) = e
                && !cards
                    .iter()
                    .any(|c| c.name == *name && c.support != Support::Token)
            {
                return Err(err(
                    &def.name,
                    format!("returns an exiled card named `{name}`, which is no card's name"),
                ));
            }
            if let Effect::CreateToken { token, pt, .. } = e {
                let found = tokens_by_name
                    .get(&normalize_name(token))
                    .map(|id| &cards[id.0 as usize])
                    .filter(|t| t.support == Support::Token);
                let Some(t) = found else {
                    return Err(err(
                        &def.name,
                        format!("creates a `{token}` token, which tokens.toml does not define"),
                    ));
                };
                // "An X/X token" (`pt=X`) exactly for a token defined `*/*`.
                let star = t.power == Some(crate::cards::PtValue::Star)
                    && t.toughness == Some(crate::cards::PtValue::Star);
                if star != pt.is_some() {
                    return Err(err(
                        &def.name,
                        format!(
                            "a `{token}` token needs `pt=` exactly when tokens.toml defines it `*/*`"
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

fn facts_to_def(id: CardId, f: &Facts) -> Result<CardDef, CatalogError> {
    let name = &f.name;
    let mana_cost = match &f.cost {
        Some(c) => Some(c.parse::<ManaCost>().map_err(|e| err(name, e))?),
        None if f.half.is_empty() => None,
        // A split card: both halves' costs counted together where a number is asked.
        None => Some(split_combined_cost(name, &f.half)?),
    };
    let (left, right) = match f.type_line.split_once('—') {
        Some((l, r)) => (l.trim(), r.trim()),
        None => (f.type_line.trim(), ""),
    };
    let mut supertypes = Vec::new();
    let mut types = Vec::new();
    for w in left.split_whitespace() {
        if let Ok(t) = w.parse::<CardType>() {
            types.push(t);
        } else if let Ok(s) = w.parse::<Supertype>() {
            supertypes.push(s);
        } else {
            return Err(err(name, format!("unknown type word `{w}`")));
        }
    }
    if types.is_empty() {
        return Err(err(name, "type line has no card type"));
    }
    let subtypes = right
        .split_whitespace()
        .map(|s| s.replace('’', "'"))
        .collect();
    let (power, toughness) = match &f.pt {
        Some(pt) => {
            let (p, t) = pt
                .split_once('/')
                .ok_or_else(|| err(name, format!("bad P/T `{pt}`")))?;
            (Some(parse_pt(name, p)?), Some(parse_pt(name, t)?))
        }
        None => (None, None),
    };
    let colors = match &f.colors {
        Some(cs) => cs
            .chars()
            .map(|c| Color::from_letter(c).ok_or_else(|| err(name, format!("bad colour `{c}`"))))
            .collect::<Result<ColorSet, _>>()?,
        None => mana_cost.as_ref().map_or(ColorSet::NONE, |c| c.colors()),
    };
    let support = if f
        .layout
        .as_deref()
        .is_some_and(|l| l != "normal" && l != "split")
    {
        Support::Unsupported(format!(
            "{} cards are not supported yet",
            f.layout.as_deref().unwrap_or("")
        ))
    } else {
        // Worded once the scripts are applied, for the cards still unscripted
        // (`explain_unscripted`): most cards get a script and never need the words.
        Support::Unsupported(String::new())
    };
    Ok(CardDef {
        id,
        name: name.clone(),
        name_zh: f.zh.clone().filter(|z| !z.is_empty()),
        mana_cost,
        colors,
        supertypes,
        types,
        subtypes,
        power,
        toughness,
        text: f.text.clone(),
        rarity: f.rarity.clone(),
        sets: f.sets.clone(),
        support,
        keywords: Vec::new(),
        spell: SpellAbility::default(),
        abilities: Vec::new(),
        enters_with_counters: Vec::new(),
        enters_with_unless_cast_from_hand: Vec::new(),
        enters_with_more: Vec::new(),
        enters_tapped: false,
        triggers: Vec::new(),
        statics: Vec::new(),
        preventions: Vec::new(),
        draw_reveal_instead: false,
        opponents_cards_exiled_instead: false,
        your_spells_alternative_cost: None,
        hand_revealed: false,
        choose_creature_type: false,
        enters_choice: None,
        copy_land_as_enters: false,
        copy_creature: None,
        enchant: None,
        enchant_player: false,
        spend_rule: None,
        skip_draw_step: false,
        enchanted_cant_activate: false,
        enchanted_cant_be_enchanted_by_other_auras: false,
        skip_upkeep_if_hellbent: false,
        damage_life_floor: false,
        basic_land_mana_of_chosen_color_adds_one: false,
        redirect_unblocked_combat_damage: false,
        morph: None,
        turn_others_face_down: false,
        flashback: None,
        damage_to_sacrifice: false,
        regenerates_if_destroyed: false,
        opponent_discard_to_battlefield: 0,
        reduce_per_same_name_in_graveyard: 0,
        spells_cost_less: None,
        costs_less_with_creature_cards_in_graveyards: None,
        suspend: None,
        opponents_cant_cast: None,
        own_creature_cards_have_flash: false,
        opponents_sorcery_timing: false,
        cant_cast_during_first_three_turns: false,
        may_choose_not_to_untap: false,
        attack_cost: None,
        begin_game_on_battlefield: false,
        linked_doesnt_untap_while_tapped: false,
        spells_cost_more: 0,
        cast_keys: CastKeys::default(),
        madness: None,
        grants_typecycling_in_hands: None,
        players_cant_cycle: false,
        bloodthirst: 0,
        echo_costs_zero: false,
        dredge: 0,
        split: split_facts(name, f.layout.as_deref(), &f.half)?,
    })
}

fn parse_pt(name: &str, s: &str) -> Result<PtValue, CatalogError> {
    let s = s.trim();
    if s == "*" {
        return Ok(PtValue::Star);
    }
    if let Some(n) = s.strip_suffix("+*") {
        return n
            .parse()
            .map(PtValue::StarPlus)
            .map_err(|_| err(name, format!("unsupported P/T value `{s}`")));
    }
    s.parse()
        .map(PtValue::Fixed)
        .map_err(|_| err(name, format!("unsupported P/T value `{s}`")))
}

fn parse_targets(v: &[String]) -> Result<Vec<TargetSpec>, String> {
    v.iter()
        .map(|t| TargetSpec::parse(t).map_err(|e| format!("target `{t}`: {e}")))
        .collect()
}

fn parse_effects(v: &[String], targets: usize) -> Result<Vec<Effect>, String> {
    let mut out = Vec::new();
    for line in v {
        let e = Effect::parse(line).map_err(|e| format!("effect `{line}`: {e}"))?;
        if let Some(slot) = e
            .target_slots()
            .into_iter()
            .find(|s| *s as usize >= targets)
        {
            return Err(format!(
                "effect `{line}` refers to target {} but only {targets} target(s) are declared",
                slot + 1
            ));
        }
        out.push(e);
    }
    Ok(out)
}

/// `divided_damage = "5 any"` / `"X any"`: the amount, then the target description; the
/// effect `damage_divided` must be there exactly when it is.
fn parse_divided(
    d: Option<&str>,
    effects: &[Effect],
) -> Result<Option<crate::cards::DividedDamage>, String> {
    let divided = match d {
        None => None,
        Some(d) => Some(
            crate::grammar::parse_all(crate::grammar::filters::divided, d)
                .map_err(|e| format!("divided_damage `{d}`: {e}"))?,
        ),
    };
    let uses =
        effects.contains(&Effect::DamageDivided) || effects.contains(&Effect::PreventDivided);
    if divided.is_some() != uses {
        return Err(
            "`divided_damage` and the effect `damage_divided` (or `prevent_divided`) go together"
                .into(),
        );
    }
    Ok(divided)
}

fn parse_trigger(t: &TriggerScript) -> Result<crate::abilities::TriggerDef, String> {
    let when = crate::abilities::TriggerEvent::parse(&t.when)
        .map_err(|e| format!("when `{}`: {e}", t.when))?;
    let targets = parse_targets(&t.targets)?;
    // A state trigger with no legal target would be removed and trigger again at once
    // (410.4 with 410.11): none is needed, so none is allowed.
    if matches!(when, crate::abilities::TriggerEvent::State(_)) && !targets.is_empty() {
        return Err("a state trigger (`state:...`) can't have targets".into());
    }
    let effects = parse_effects(&t.effects, targets.len())?;
    if !t.mode.is_empty() && (!effects.is_empty() || !targets.is_empty()) {
        return Err("a modal triggered ability puts its targets and effects in its modes".into());
    }
    if t.mode.is_empty() && effects.is_empty() {
        return Err("a triggered ability needs `effects` (or `mode`s)".into());
    }
    let modes = parse_modes(&t.mode)?;
    let condition = t
        .condition
        .as_deref()
        .map(|c| crate::abilities::TriggerCondition::parse(c).map_err(|e| format!("if `{c}`: {e}")))
        .transpose()?;
    let divided = parse_divided(t.divided_damage.as_deref(), &effects)?;
    Ok(crate::abilities::TriggerDef {
        divided,
        condition,
        text: t
            .text
            .clone()
            .unwrap_or_else(|| format!("{}: {}", t.when, t.effects.join("; "))),
        when,
        targets,
        effects,
        modes,
    })
}

/// `[[card.mode]]` / `[[card.trigger.mode]]` tables: each mode's targets and effects.
fn parse_modes(modes: &[ModeScript]) -> Result<Vec<crate::cards::SpellMode>, String> {
    let mut out = Vec::new();
    for m in modes {
        let targets = parse_targets(&m.targets)?;
        let effects = parse_effects(&m.effects, targets.len())?;
        if effects.is_empty() {
            return Err(format!("mode `{}` has no effects", m.text));
        }
        out.push(crate::cards::SpellMode {
            text: m.text.clone(),
            targets,
            effects,
        });
    }
    Ok(out)
}

/// `dredge = N` (702.51, `keywords/dredge.rs`), checked against the card's "Dredge N".
fn apply_dredge(
    def: &mut CardDef,
    n: u32,
    text_lower: &str,
    test_only: bool,
) -> Result<(), String> {
    let printed = format!("dredge {n}");
    if n > 0 && !text_lower.lines().any(|l| l.starts_with(&printed)) {
        return Err(format!(
            "`dredge = {n}`: the card's text has no `Dredge {n}`"
        ));
    }
    if n == 0 && !test_only && text_lower.lines().any(|l| l.starts_with("dredge ")) {
        return Err("the card has dredge: script it with `dredge = N`".into());
    }
    def.dredge = n;
    Ok(())
}

fn apply_script(def: &mut CardDef, s: &Script) -> Result<(), String> {
    apply_spell(def, s)?;
    apply_card_keys(def, s)?;
    if s.enchanted_cant_activate
        && !def
            .text
            .to_lowercase()
            .contains("enchanted creature's activated abilities can't be activated")
    {
        return Err("`enchanted_cant_activate`: the card's text has no \"Enchanted creature's activated abilities can't be activated\"".into());
    }
    def.enchanted_cant_activate = s.enchanted_cant_activate;
    if s.enchanted_cant_be_enchanted_by_other_auras
        && (!def.subtypes.iter().any(|t| t == "Aura")
            || !def
                .text
                .to_lowercase()
                .contains("can't be enchanted by other auras"))
    {
        return Err("`enchanted_cant_be_enchanted_by_other_auras`: the card is no Aura whose text has \"can't be enchanted by other Auras\"".into());
    }
    def.enchanted_cant_be_enchanted_by_other_auras = s.enchanted_cant_be_enchanted_by_other_auras;
    apply_cast_keys(def, s)?;
    let text_lower = def.text.to_lowercase();
    let test_only = def.support == Support::TestOnly;
    apply_vanishing(def, s.vanishing, &text_lower, test_only)?;
    let printed = format!("bloodthirst {}", s.bloodthirst);
    if s.bloodthirst > 0 && !text_lower.lines().any(|l| l.starts_with(&printed)) {
        return Err(format!(
            "`bloodthirst = {}`: the card's text has no `Bloodthirst {}`",
            s.bloodthirst, s.bloodthirst
        ));
    }
    if s.bloodthirst == 0 && !test_only && text_lower.lines().any(|l| l.starts_with("bloodthirst "))
    {
        return Err("the card has bloodthirst: script it with `bloodthirst = N`".into());
    }
    def.bloodthirst = s.bloodthirst;
    apply_dredge(def, s.dredge, &text_lower, test_only)?;
    apply_cost_reductions(def, s, &text_lower)?;
    apply_graft(def, s.graft, &text_lower, test_only)?;
    apply_statics(def, s)?;
    apply_abilities(def, s)?;
    apply_attach_keys(def, s, &text_lower, test_only)?;
    apply_aura_swap_key(def, s, &text_lower, test_only)?;
    // After the printed activated abilities: cycling is printed after them.
    apply_graveyard_keys(def, s)
}

/// `spells_cost_less` and `costs_less_with_creature_cards_in_graveyards`, checked against
/// the card's text ("... spells you cast cost {1} less to cast", "if there are ten or more
/// creature cards total in all graveyards, this spell costs {6} less to cast").
fn apply_cost_reductions(def: &mut CardDef, s: &Script, text_lower: &str) -> Result<(), String> {
    if let Some(r) = &s.spells_cost_less {
        let (n, filter) = r
            .trim()
            .split_once(' ')
            .ok_or_else(|| format!("`spells_cost_less = \"{r}\"`: expected `N FILTER`"))?;
        let n: u32 = n
            .parse()
            .map_err(|_| format!("`spells_cost_less = \"{r}\"`: `{n}` is not a number"))?;
        let f = crate::grammar::parse_all(crate::grammar::filters::filter, filter)
            .map_err(|e| format!("`spells_cost_less = \"{r}\"`: {e}"))?;
        if !text_lower.contains(&format!("spells you cast cost {{{n}}} less to cast")) {
            return Err(format!(
                "`spells_cost_less`: the card's text has no \"spells you cast cost {{{n}}} less to cast\""
            ));
        }
        def.spells_cost_less = Some((n, f));
    }
    if let Some((at_least, less)) = s.costs_less_with_creature_cards_in_graveyards {
        let words = [
            "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        ];
        let count = words
            .get(at_least as usize)
            .map_or(at_least.to_string(), |w| w.to_string());
        let printed = format!(
            "if there are {count} or more creature cards total in all graveyards, this spell costs {{{less}}} less to cast"
        );
        if !text_lower.contains(&printed) {
            return Err(format!(
                "`costs_less_with_creature_cards_in_graveyards`: the card's text has no \"{printed}\""
            ));
        }
        def.costs_less_with_creature_cards_in_graveyards = Some((at_least, less));
    }
    Ok(())
}

/// Equip and fortify (`keywords/equip.rs`, `keywords/fortify.rs`): the activated ability
/// "[Cost]: Attach to target creature (land) you control. Activate only as a sorcery",
/// after the printed activated abilities; each checked against the card's text and type,
/// and a card whose text has one must be scripted with it.
fn apply_attach_keys(
    def: &mut CardDef,
    s: &Script,
    text_lower: &str,
    test_only: bool,
) -> Result<(), String> {
    for (key, value, sub, fortify) in [
        ("equip", &s.equip, "Equipment", false),
        ("fortify", &s.fortify, "Fortification", true),
    ] {
        let printed_line = |l: &str| l.starts_with(&format!("{key} {{"));
        match value {
            Some(c) => {
                if !def.subtypes.iter().any(|t| t == sub) {
                    return Err(format!("only an {sub} has `{key}`"));
                }
                let printed = format!("{key} {}", c.trim().to_lowercase());
                if !text_lower.lines().any(|l| l.starts_with(&printed)) {
                    return Err(format!(
                        "`{key} = \"{c}\"`: the card's text has no `{printed}`"
                    ));
                }
                let cost = Cost::parse(c).map_err(|e| format!("{key} `{c}`: {e}"))?;
                def.abilities.push(attach_ability(cost, fortify)?);
            }
            None if !test_only && text_lower.lines().any(printed_line) => {
                return Err(format!(
                    "the card has {key}: script it with `{key} = \"{{cost}}\"`"
                ));
            }
            None => {}
        }
    }
    Ok(())
}

/// Aura swap (702.64, `keywords/aura_swap.rs`): "[Cost]: You may exchange this Aura with an
/// Aura card in your hand", after the printed activated abilities; only an Aura, checked
/// against the card's "Aura swap [cost]" line, and a card whose text has it needs the key.
fn apply_aura_swap_key(
    def: &mut CardDef,
    s: &Script,
    text_lower: &str,
    test_only: bool,
) -> Result<(), String> {
    let Some(c) = &s.aura_swap else {
        if !test_only && text_lower.lines().any(|l| l.starts_with("aura swap {")) {
            return Err("the card has aura swap: script it with `aura_swap = \"{cost}\"`".into());
        }
        return Ok(());
    };
    if !def.subtypes.iter().any(|t| t == "Aura") {
        return Err("only an Aura has `aura_swap`".into());
    }
    let printed = format!("aura swap {}", c.trim().to_lowercase());
    if !text_lower.lines().any(|l| l.starts_with(&printed)) {
        return Err(format!(
            "`aura_swap = \"{c}\"`: the card's text has no `{printed}`"
        ));
    }
    let cost = Cost::parse(c).map_err(|e| format!("aura_swap `{c}`: {e}"))?;
    def.abilities.push(crate::cards::ActivatedAbility::plain(
        format!("Aura swap {cost} ({cost}: Exchange this Aura with an Aura card in your hand.)"),
        cost,
        Vec::new(),
        vec![crate::effects::Effect::AuraSwap],
        crate::cards::AbilityTiming::Instant,
    ));
    Ok(())
}

/// Keywords, colours, and the spell's targets, effects, modes and additional costs.
fn apply_spell(def: &mut CardDef, s: &Script) -> Result<(), String> {
    let text_lower = def.text.to_lowercase();
    for k in &s.keywords {
        let kw: Keyword = k.parse()?;
        if kw == Keyword::Vanishing {
            return Err("printed vanishing is the key `vanishing = N`; the keyword Vanishing is only gained (`grant vanishing this forever`)".into());
        }
        let in_text = match kw.protection_from() {
            // "protection from black and from red" names the second colour without "protection".
            Some(c) => {
                text_lower.contains("protection")
                    && text_lower.contains(&format!("from {}", c.name()))
            }
            None => text_lower.contains(&kw.name().to_lowercase()),
        };
        if def.support == Support::Supported && !in_text {
            return Err(format!("keyword {} is not in the card's text", kw.name()));
        }
        def.keywords.push(kw);
    }
    if let Some(c) = &s.colors {
        def.colors = c
            .chars()
            .map(|c| Color::from_letter(c).ok_or_else(|| format!("bad colour `{c}`")))
            .collect::<Result<ColorSet, _>>()?;
    }
    let targets = parse_targets(&s.targets)?;
    let kicker_targets = parse_targets(&s.kicker_targets)?;
    let effects = parse_effects(&s.effects, targets.len() + kicker_targets.len())?;
    let is_spell_with_effect = def.has_type(CardType::Instant) || def.has_type(CardType::Sorcery);
    if (!effects.is_empty() || !s.mode.is_empty()) && !is_spell_with_effect {
        return Err("only instants and sorceries have spell effects or modes; permanents use triggered abilities".into());
    }
    if !s.mode.is_empty() && (!effects.is_empty() || !targets.is_empty()) {
        return Err("a modal spell puts its targets and effects in its modes".into());
    }
    if is_spell_with_effect && effects.is_empty() && s.mode.is_empty() {
        return Err("an instant or sorcery needs `effects` (or `mode`s)".into());
    }
    let modes = parse_modes(&s.mode)?;
    let mut additional_costs = Vec::new();
    for a in &s.additional_cost {
        let alts = a
            .split('|')
            .map(|p| Cost::parse(p.trim()).map_err(|e| format!("additional_cost `{a}`: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        additional_costs.push(alts);
    }
    let divided = parse_divided(s.divided_damage.as_deref(), &effects)?;
    if divided.is_some() && !text_lower.contains("divided as you choose") {
        return Err("`divided_damage`: the card's text divides no damage".into());
    }
    if !kicker_targets.is_empty() {
        def.cast_keys.kicked_targets = targets.iter().chain(&kicker_targets).cloned().collect();
        def.cast_keys.kicker_targets = kicker_targets;
    }
    if s.up_to_one_other_target
        && (targets.len() < 2 || !text_lower.contains("up to one other target"))
    {
        return Err("`up_to_one_other_target`: the card's text has no \"up to one other target\" after a first target".into());
    }
    if s.up_to_three_targets && (targets.len() < 3 || !text_lower.contains("up to three target")) {
        return Err("`up_to_three_targets`: the card's text has no \"up to three target\" for three target slots".into());
    }
    let optional_targets = if s.up_to_three_targets {
        3
    } else {
        u8::from(s.up_to_one_other_target)
    };
    def.spell = SpellAbility {
        additional_costs,
        targets,
        effects,
        modes,
        divided,
        last_target_optional: s.up_to_one_other_target,
        optional_targets,
    };

    Ok(())
}

/// An Aura's `enchant` (303.4): a permanent filter its spell targets, or "player" (an Aura
/// attached to a player: Paradox Haze).
fn apply_enchant(def: &mut CardDef, s: &Script, text_lower: &str) -> Result<(), String> {
    if s.enchant.as_deref() == Some("player") {
        if !def.subtypes.iter().any(|t| t == "Aura") || !text_lower.contains("enchant player") {
            return Err(
                "`enchant = \"player\"` is for an Aura whose text says \"Enchant player\"".into(),
            );
        }
        def.spell.targets = vec![crate::targets::TargetSpec::parse("player")?];
        def.enchant_player = true;
    } else if let Some(e) = &s.enchant {
        if !def.subtypes.iter().any(|t| t == "Aura") {
            return Err("only an Aura has `enchant`".into());
        }
        let filter = crate::targets::ObjectFilter::parse(e)
            .map_err(|err| format!("enchant `{e}`: {err}"))?;
        def.spell.targets = vec![crate::targets::TargetSpec::parse(e)?];
        def.enchant = Some(filter);
    } else if def.subtypes.iter().any(|t| t == "Aura") && def.is_supported() {
        return Err("an Aura needs `enchant`".into());
    }
    Ok(())
}

/// The card-level keys of one-off rules (the hard ones of issue 14): Teferi's flash and
/// timing, Giant Oyster's untap keys, Gemstone Caverns' pregame action; each checked
/// against the card's text.
fn apply_rule_keys(def: &mut CardDef, s: &Script, text_lower: &str) -> Result<(), String> {
    if s.own_creature_cards_have_flash
        && !text_lower.contains("creature cards you own that aren't on the battlefield have flash")
    {
        return Err("`own_creature_cards_have_flash`: the card's text doesn't say so".into());
    }
    def.own_creature_cards_have_flash = s.own_creature_cards_have_flash;
    if s.opponents_sorcery_timing
        && !text_lower
            .contains("each opponent can cast spells only any time they could cast a sorcery")
    {
        return Err("`opponents_sorcery_timing`: the card's text doesn't say so".into());
    }
    def.opponents_sorcery_timing = s.opponents_sorcery_timing;
    if s.cant_cast_during_first_three_turns
        && !text_lower.contains(
            "you can't cast this spell during your first, second, or third turns of the game",
        )
    {
        return Err("`cant_cast_during_first_three_turns`: the card's text doesn't say so".into());
    }
    def.cant_cast_during_first_three_turns = s.cant_cast_during_first_three_turns;
    if let Some(c) = &s.attack_cost {
        let cost = Cost::parse(c).map_err(|e| format!("attack_cost `{c}`: {e}"))?;
        let [CostPart::Sacrifice(f, n)] = cost.parts.as_slice() else {
            return Err(format!(
                "attack_cost `{c}`: only `sacrifice N FILTER` is supported"
            ));
        };
        if cost.mana.is_some() || cost.tap || cost.untap {
            return Err(format!(
                "attack_cost `{c}`: only `sacrifice N FILTER` is supported"
            ));
        }
        if !text_lower.contains("can't attack unless you sacrifice") {
            return Err(
                "`attack_cost`: the card's text has no \"can't attack unless you sacrifice\""
                    .into(),
            );
        }
        def.attack_cost = Some((f.clone(), *n));
    }
    let name_lower = def.name.to_lowercase();
    if s.may_choose_not_to_untap
        && !text_lower.contains(&format!(
            "you may choose not to untap {name_lower} during your untap step"
        ))
    {
        return Err("`may_choose_not_to_untap`: the card's text doesn't say so".into());
    }
    def.may_choose_not_to_untap = s.may_choose_not_to_untap;
    if s.begin_game_on_battlefield
        && !(text_lower.contains(&format!("if {name_lower} is in your opening hand and you're not the starting player, you may begin the game with {name_lower} on the battlefield with a luck counter on it"))
            && text_lower.contains("if you do, exile a card from your hand"))
    {
        return Err("`begin_game_on_battlefield`: the card's text doesn't say so".into());
    }
    def.begin_game_on_battlefield = s.begin_game_on_battlefield;
    if s.linked_doesnt_untap_while_tapped
        && !(text_lower.contains(&format!("for as long as {name_lower} remains tapped"))
            && text_lower.contains("doesn't untap during its controller's untap step"))
    {
        return Err("`linked_doesnt_untap_while_tapped`: the card's text doesn't say so".into());
    }
    def.linked_doesnt_untap_while_tapped = s.linked_doesnt_untap_while_tapped;
    Ok(())
}

/// `choose = "color" | "opponent" | "player"` or `choose_one_of = [...]`: "as ~ enters the
/// battlefield, choose ..." (`as_enters.rs`).
fn enters_choice(s: &Script, text_lower: &str) -> Result<Option<super::EntersChoice>, String> {
    if !s.choose_pt.is_empty() {
        return choose_pt(s, text_lower).map(Some);
    }
    Ok(match (s.choose.as_deref(), s.choose_one_of.is_empty()) {
        (None, true) => None,
        (Some("color"), true) => Some(super::EntersChoice::Color),
        (Some("opponent"), true) => Some(super::EntersChoice::Opponent),
        (Some("player"), true) => Some(super::EntersChoice::Player),
        (None, false) => Some(super::EntersChoice::OneOf(s.choose_one_of.clone())),
        (Some(c), true) => {
            return Err(format!(
                "choose `{c}`: expected `color`, `opponent` or `player`"
            ));
        }
        (Some(_), false) => return Err("`choose` and `choose_one_of` exclude each other".into()),
    })
}

/// `choose_pt = ["5/1", "1/5"]` (Aquamorph Entity): "As ~ enters the battlefield or is
/// turned face up, it becomes your choice of 5/1 or 1/5."
fn choose_pt(s: &Script, text_lower: &str) -> Result<super::EntersChoice, String> {
    if s.choose.is_some() || !s.choose_one_of.is_empty() {
        return Err("`choose_pt` excludes `choose` and `choose_one_of`".into());
    }
    let pts = s
        .choose_pt
        .iter()
        .map(|w| {
            w.split_once('/')
                .and_then(|(p, t)| Some((p.trim().parse().ok()?, t.trim().parse().ok()?)))
                .ok_or_else(|| format!("choose_pt `{w}`: expected P/T, e.g. 5/1"))
        })
        .collect::<Result<Vec<(i32, i32)>, String>>()?;
    let words = s.choose_pt.join(" or ");
    if pts.len() < 2
        || !text_lower.contains(&format!(
            "enters the battlefield or is turned face up, it becomes your choice of {words}"
        ))
    {
        return Err(format!(
            "`choose_pt`: the card's text doesn't say \"... enters the battlefield or is turned face up, it becomes your choice of {words}\""
        ));
    }
    Ok(super::EntersChoice::Pt(pts))
}

/// The card-level keys: flashback, replacement and prevention keys, copy abilities, enchant,
/// echo, suspend, morph.
fn apply_card_keys(def: &mut CardDef, s: &Script) -> Result<(), String> {
    let text_lower = def.text.to_lowercase();
    let is_spell_with_effect = def.has_type(CardType::Instant) || def.has_type(CardType::Sorcery);
    if let Some(f) = &s.flashback {
        if !text_lower.contains("flashback") {
            return Err("`flashback`: the card's text has no flashback".into());
        }
        if !is_spell_with_effect {
            return Err("only instants and sorceries are scripted with flashback".into());
        }
        def.flashback = Some(Cost::parse(f).map_err(|e| format!("flashback `{f}`: {e}"))?);
    } else if def.support == Support::Supported
        && text_lower.lines().any(|l| l.starts_with("flashback"))
    {
        return Err("the card has flashback: script it with `flashback = \"{cost}\"`".into());
    }
    def.reduce_per_same_name_in_graveyard = s.reduce_per_same_name_in_graveyard;
    if s.reduce_per_same_name_in_graveyard > 0
        && !text_lower.contains("for each card with the same name as that spell in your graveyard")
    {
        return Err("`reduce_per_same_name_in_graveyard`: the card's text doesn't say so".into());
    }
    apply_replacement_keys(def, s, &text_lower)?;
    apply_enters_with(def, &s.enters_with, &text_lower)?;
    apply_unless_cast_from_hand(def, s, &text_lower)?;
    def.enters_tapped = s.enters_tapped;
    def.preventions = s
        .prevent
        .iter()
        .map(|p| {
            crate::abilities::StaticPrevention::parse(p).map_err(|e| format!("prevent `{p}`: {e}"))
        })
        .collect::<Result<_, _>>()?;
    def.draw_reveal_instead = s.draw_reveal_instead;
    apply_fixture_keys(def, s)?;
    def.hand_revealed = s.hand_revealed;
    if let Some(n) = &s.opponents_cant_cast {
        if def.support != Support::TestOnly {
            return Err("`opponents_cant_cast` is for test fixtures".into());
        }
        def.opponents_cant_cast = Some(n.clone());
    }
    apply_rule_keys(def, s, &text_lower)?;
    if s.spells_cost_more > 0 {
        if def.support != Support::TestOnly {
            return Err("`spells_cost_more` is for test fixtures".into());
        }
        def.spells_cost_more = s.spells_cost_more;
    }
    def.choose_creature_type = s.choose_creature_type;
    def.enters_choice = enters_choice(s, &text_lower)?;
    def.copy_land_as_enters = s.copy_land_as_enters;
    if let Some(c) = &s.copy_creature {
        if !def.types.contains(&CardType::Creature) {
            return Err("only a creature card is scripted with `copy_creature`".into());
        }
        def.copy_creature = Some(
            crate::abilities::CopyCreature::parse(c)
                .map_err(|e| format!("copy_creature `{c}`: {e}"))?,
        );
    }
    def.skip_draw_step = s.skip_draw_step;
    if s.skip_upkeep_if_hellbent
        && !text_lower.contains("hellbent — skip your upkeep step if you have no cards in hand")
    {
        return Err("`skip_upkeep_if_hellbent`: the card's text has no \"Hellbent — Skip your upkeep step if you have no cards in hand\"".into());
    }
    def.skip_upkeep_if_hellbent = s.skip_upkeep_if_hellbent;
    def.damage_life_floor = s.damage_life_floor;
    def.basic_land_mana_of_chosen_color_adds_one = s.basic_land_mana_of_chosen_color_adds_one;
    if s.basic_land_mana_of_chosen_color_adds_one
        && (!text_lower.contains("whenever a basic land is tapped for mana of the chosen color, its controller adds an additional one mana of that color")
            || s.choose.as_deref() != Some("color"))
    {
        return Err("`basic_land_mana_of_chosen_color_adds_one`: the card's text doesn't say so, or it has no `choose = \"color\"`".into());
    }
    def.redirect_unblocked_combat_damage = s.redirect_unblocked_combat_damage;
    if s.redirect_unblocked_combat_damage
        && !text_lower.contains(
            "all combat damage that would be dealt to you by unblocked creatures is dealt to",
        )
    {
        return Err("`redirect_unblocked_combat_damage`: the card's text doesn't say so".into());
    }
    def.spend_rule = match s.spend_rule.as_deref() {
        None => None,
        Some(r) => {
            let color = r
                .strip_suffix("_as_any")
                .and_then(Color::from_name)
                .ok_or_else(|| format!("spend_rule `{r}`: expected e.g. `white_as_any`"))?;
            Some(crate::cards::SpendRule::OnlyColorAsAny(color))
        }
    };
    apply_enchant(def, s, &text_lower)?;
    if let Some(e) = &s.echo {
        def.triggers
            .push(crate::abilities::TriggerDef::echo(parse_echo(
                e,
                &text_lower,
            )?));
    } else if def.support != Support::TestOnly
        && text_lower
            .lines()
            .any(|l| l.starts_with("echo {") || l.starts_with("echo—"))
    {
        return Err("the card has echo: script it with `echo = \"{cost}\"`".into());
    }
    if s.pay_zero_for_echo {
        if !text_lower.contains("rather than pay the echo cost") {
            return Err("`pay_zero_for_echo`: the card's text doesn't say so".into());
        }
        def.echo_costs_zero = true;
    }
    def.suspend = parse_suspend(
        s.suspend.as_deref(),
        &text_lower,
        def.support == Support::TestOnly,
    )?;
    if let Some(m) = &s.morph {
        let cost = Cost::parse(m).map_err(|e| format!("morph `{m}`: {e}"))?;
        let printed = format!("morph {}", m.trim().to_lowercase());
        if !text_lower.contains(&printed)
            && !text_lower.contains(&format!("morph—{}", m.trim().to_lowercase()))
        {
            return Err(format!(
                "`morph = \"{m}\"`: the card's text has no `Morph {m}`"
            ));
        }
        // Morph on a noncreature card (Lumithread Field, Zoetic Cavern): face down it is a
        // 2/2 creature like any other; face up it is what its card is (702.36, 707.2).
        def.morph = Some(cost);
    } else if def.support != Support::TestOnly
        && text_lower
            .lines()
            .any(|l| l.starts_with("morph {") || l.starts_with("morph—"))
    {
        return Err("the card has morph: script it with `morph = \"{cost}\"`".into());
    }
    def.turn_others_face_down = s.turn_others_face_down;
    if s.turn_others_face_down
        && !text_lower.contains("turn all other nontoken creatures face down")
    {
        return Err("`turn_others_face_down`: the card's text doesn't say so".into());
    }
    Ok(())
}

/// The casting-side keys (kicker, buyback, storm, gravestorm), each checked against the
/// card's text; a card whose text has one of these keywords must be scripted with it.
fn apply_cast_keys(def: &mut CardDef, s: &Script) -> Result<(), String> {
    let text_lower = def.text.to_lowercase();
    let test_only = def.support == Support::TestOnly;
    let printed_line = |word: &str| {
        text_lower
            .lines()
            .find(|l| l.starts_with(word))
            .map(|l| l.split(" (").next().unwrap_or(l).trim().to_string())
    };
    let is_spell = def.has_type(CardType::Instant) || def.has_type(CardType::Sorcery);
    match &s.kicker {
        Some(k) => {
            let costs = k
                .split(" and/or ")
                .map(|c| Cost::parse(c.trim()).map_err(|e| format!("kicker `{k}`: {e}")))
                .collect::<Result<Vec<_>, _>>()?;
            if costs.len() > 2 {
                return Err(format!("kicker `{k}`: at most two kicker costs"));
            }
            // Kicker {X} (Verdeloth the Ancient): X is chosen when it is kicked; one X per
            // spell, so not with a second kicker cost or an X in the mana cost.
            if costs
                .iter()
                .any(|c| c.mana.as_ref().is_some_and(|m| m.has_x()))
                && (costs.len() > 1 || def.mana_cost.as_ref().is_some_and(|m| m.has_x()))
            {
                return Err(format!(
                    "kicker `{k}`: a kicker cost with X only alone, on a card without X in its mana cost"
                ));
            }
            let want = format!("kicker {}", k.trim().to_lowercase());
            if !test_only && printed_line("kicker").as_deref() != Some(want.as_str()) {
                return Err(format!(
                    "`kicker = \"{k}\"`: the card's text has no `Kicker {k}`"
                ));
            }
            def.cast_keys.kicker = costs;
        }
        None if !test_only && printed_line("kicker").is_some() => {
            return Err("the card has kicker: script it with `kicker = \"{cost}\"`".into());
        }
        None => {}
    }
    if !def.cast_keys.kicker_targets.is_empty() && def.cast_keys.kicker.is_empty() {
        return Err("`kicker_targets` needs `kicker`".into());
    }
    match &s.buyback {
        Some(b) => {
            if !is_spell {
                return Err("only instants and sorceries have buyback".into());
            }
            let cost = Cost::parse(b.trim()).map_err(|e| format!("buyback `{b}`: {e}"))?;
            let printed = printed_line("buyback").unwrap_or_default();
            let ok = printed == format!("buyback {}", b.trim().to_lowercase())
                || printed.starts_with("buyback—");
            if !test_only && !ok {
                return Err(format!(
                    "`buyback = \"{b}\"`: the card's text has no `Buyback {b}`"
                ));
            }
            def.cast_keys.buyback = Some(cost);
        }
        None if !test_only && printed_line("buyback").is_some() => {
            return Err("the card has buyback: script it with `buyback = \"{cost}\"`".into());
        }
        None => {}
    }
    match &s.alternative_cost {
        Some(a) => {
            def.cast_keys.alternative_cost = Some(alternative_cost(&text_lower, a, test_only)?)
        }
        None if !test_only && text_lower.contains("rather than pay this spell's mana cost") => {
            return Err(
                "the card has an alternative cost: script it with `alternative_cost = \"COST\"`"
                    .into(),
            );
        }
        None => {}
    }
    for (key, on, word) in [
        ("storm", s.storm, "storm ("),
        ("gravestorm", s.gravestorm, "gravestorm ("),
    ] {
        let printed = text_lower
            .lines()
            .any(|l| l.starts_with(word) || l == word.trim_end_matches(" ("));
        if on && !is_spell {
            return Err(format!(
                "only instants and sorceries are scripted with `{key}`"
            ));
        }
        if on && !printed && !test_only {
            return Err(format!("`{key}`: the card's text has no {key}"));
        }
        if !on && printed && !test_only {
            return Err(format!("the card has {key}: script it with `{key} = true`"));
        }
    }
    let has_delve = text_lower
        .lines()
        .any(|l| l.starts_with("delve (") || l.contains("; delve (") || l == "delve");
    if s.delve != has_delve && !test_only {
        return Err(if s.delve {
            "`delve`: the card's text has no delve".into()
        } else {
            "the card has delve: script it with `delve = true`".into()
        });
    }
    def.cast_keys.delve = s.delve;
    let has_convoke = text_lower
        .lines()
        .any(|l| l.starts_with("convoke (") || l.contains("; convoke (") || l == "convoke");
    if s.convoke != has_convoke && !test_only {
        return Err(if s.convoke {
            "`convoke`: the card's text has no convoke".into()
        } else {
            "the card has convoke: script it with `convoke = true`".into()
        });
    }
    def.cast_keys.convoke = s.convoke;
    if s.kicked_split_second
        && (s.kicker.is_none()
            || !text_lower.contains("if this spell was kicked, it has split second"))
    {
        return Err("`kicked_split_second`: the card's text has no kicker and no \"if this spell was kicked, it has split second\"".into());
    }
    def.cast_keys.kicked_split_second = s.kicked_split_second;
    def.cast_keys.storm = s.storm;
    def.cast_keys.gravestorm = s.gravestorm;
    if s.buyback_costs_less > 0 {
        if !test_only {
            return Err("`buyback_costs_less` is for test fixtures".into());
        }
        def.cast_keys.buyback_costs_less = s.buyback_costs_less;
    }
    Ok(())
}

/// Keys for test fixtures only (cards outside the block that rulings name): Leyline of
/// the Void's `opponents_cards_exiled_instead`, Fist of Suns' `your_spells_alternative_cost`.
fn apply_fixture_keys(def: &mut CardDef, s: &Script) -> Result<(), String> {
    if s.opponents_cards_exiled_instead && def.support != Support::TestOnly {
        return Err("`opponents_cards_exiled_instead` is for test fixtures".into());
    }
    def.opponents_cards_exiled_instead = s.opponents_cards_exiled_instead;
    if let Some(a) = &s.your_spells_alternative_cost {
        if def.support != Support::TestOnly {
            return Err("`your_spells_alternative_cost` is for test fixtures".into());
        }
        let cost = Cost::parse(a.trim()).map_err(|e| format!("`{a}`: {e}"))?;
        def.your_spells_alternative_cost = Some(cost);
    }
    Ok(())
}

/// `alternative_cost = "COST"`: the card's text must say "You may COST rather than pay this
/// spell's mana cost." (`keywords/alternative_cost.rs`).
fn alternative_cost(text_lower: &str, a: &str, test_only: bool) -> Result<Cost, String> {
    let cost = Cost::parse(a.trim()).map_err(|e| format!("alternative_cost `{a}`: {e}"))?;
    if cost.mana.as_ref().is_some_and(|m| m.has_x()) {
        return Err(format!("alternative_cost `{a}`: an X is not supported"));
    }
    let want = format!(
        "you may {} rather than pay this spell's mana cost.",
        a.trim().to_lowercase()
    );
    if !test_only && !text_lower.lines().any(|l| l == want) {
        return Err(format!(
            "`alternative_cost = \"{a}\"`: the card's text has no `You may {a} rather than pay this spell's mana cost.`"
        ));
    }
    Ok(cost)
}

/// A static ability's `affects` filter, its pump (power, toughness) and granted keywords.
type AffectsAndPump = (crate::targets::ObjectFilter, i32, i32, Vec<Keyword>);

/// A static ability's `affects` filter, pump and granted keywords, checked: `affects` names
/// only what a static may look at, and a keyword only when that can't loop.
fn static_affects_and_pump(st: &StaticScript) -> Result<AffectsAndPump, String> {
    let affects = crate::targets::ObjectFilter::parse(&st.affects)
        .map_err(|e| format!("affects `{}`: {e}", st.affects))?;
    // "... can't attack you" is a rule checked as attackers are declared, not a layered
    // effect: its filter may name anything, and it does nothing else.
    if st.cant_attack_you {
        let alone = st.pump.is_none()
            && st.grant.is_empty()
            && st.grant_trigger.is_empty()
            && st.grant_ability.is_empty()
            && st.add_subtypes.is_empty()
            && st.set_creature_type.is_none()
            && st.cda.is_none()
            && st.set_land_types.is_empty()
            && st.set_colors.is_none()
            && st.cda_pt.is_none();
        if !alone {
            return Err("`cant_attack_you` is a static ability of its own".into());
        }
        return Ok((affects, 0, 0, Vec::new()));
    }
    if affects.max_toughness.is_some()
        || affects.with_aura
        || affects.mana_value_x
        || affects.min_power.is_some()
        || affects.without_keyword.is_some()
        || affects.attacking
        || affects.attacking_or_blocking
        || affects.entered_since_your_last_turn
        || affects.max_mana_value.is_some()
        || affects.exact_pt.is_some()
    {
        return Err("a static ability's `affects` may name only types, subtypes, colours, controllers, tapped or untapped and (see below) a keyword".into());
    }
    let (power, toughness) = match &st.pump {
        Some(p) => crate::grammar::parse_all(crate::grammar::words::pt_change, p)
            .map_err(|e| format!("pump `{p}`: {e}"))?,
        None => (0, 0),
    };
    let grants = st
        .grant
        .iter()
        .map(|k| k.parse())
        .collect::<Result<Vec<Keyword>, _>>()?;
    // "Creatures with flanking have flanking" (Cavalry Master): a keyword filter only
    // for a static that grants exactly that keyword, so it adds an instance and never
    // depends on anything else (layers.rs `has_keyword`).
    // A pump alone may name a keyword too ("other creatures you control with flying get
    // +0/+1": Sprite Noble): P/T come after the abilities (layer 7), so nothing loops.
    let pump_only = grants.is_empty()
        && st.grant_trigger.is_empty()
        && st.grant_ability.is_empty()
        && st.add_subtypes.is_empty()
        && st.set_creature_type.is_none()
        && st.cda.is_none()
        && st.set_land_types.is_empty()
        && st.set_colors.is_none()
        && st.cda_pt.is_none();
    if let Some(k) = affects.keyword
        && !pump_only
        && (grants != [k] || power != 0 || toughness != 0)
    {
        return Err(
            "a static ability whose `affects` names a keyword must grant exactly that keyword"
                .into(),
        );
    }
    Ok((affects, power, toughness, grants))
}

/// The static abilities (`[[card.static]]`).
fn apply_statics(def: &mut CardDef, s: &Script) -> Result<(), String> {
    for st in &s.statics {
        let (affects, power, toughness, grants) = static_affects_and_pump(st)?;
        let mut grant_triggers = Vec::new();
        for t in &st.grant_trigger {
            grant_triggers.push(parse_trigger(t)?);
        }
        if grant_triggers.len() > 4 {
            return Err("a static ability grants at most 4 triggered abilities".into());
        }
        let grant_abilities = granted_abilities_of(def, st)?;
        let grant_pump = granted_pump(def, st)?;
        let set_chosen_creature_type = match st.set_creature_type.as_deref() {
            None => false,
            Some("chosen") if s.choose_creature_type => true,
            Some("chosen") => {
                return Err(
                    "`set_creature_type = \"chosen\"` needs `choose_creature_type = true`".into(),
                );
            }
            Some(other) => return Err(format!("set_creature_type `{other}`: expected `chosen`")),
        };
        let cda_all_creature_types = match st.cda.as_deref() {
            None => false,
            Some("all_creature_types") => true,
            Some(other) => return Err(format!("cda `{other}`: expected `all_creature_types`")),
        };
        let add_subtypes = st.add_subtypes.clone();
        for t in &st.set_land_types {
            if !BASIC_LAND_TYPES.iter().any(|(n, _)| n == t) {
                return Err(format!("set_land_types: `{t}` is not a basic land type"));
            }
        }
        let set_colors = st
            .set_colors
            .as_deref()
            .map(|letters| {
                letters
                    .chars()
                    .map(|c| Color::from_letter(c).ok_or_else(|| format!("bad colour `{c}`")))
                    .collect::<Result<crate::mana::ColorSet, _>>()
            })
            .transpose()?;
        let cda_pt = st.cda_pt.as_deref().map(parse_cda_pt).transpose()?;
        if cda_pt.is_some() && !st.itself {
            return Err("a P/T-defining ability affects its object only (`itself = true`)".into());
        }
        if power == 0
            && toughness == 0
            && grants.is_empty()
            && grant_triggers.is_empty()
            && grant_abilities.is_empty()
            && grant_pump.is_none()
            && add_subtypes.is_empty()
            && !set_chosen_creature_type
            && !cda_all_creature_types
            && st.set_land_types.is_empty()
            && set_colors.is_none()
            && cda_pt.is_none()
            && !st.cant_attack_you
            && st.grant_protection_from.is_none()
        {
            return Err(format!("static ability `{}` does nothing", st.text));
        }
        let (protection_from_chosen_color, doesnt_remove_source) = chosen_protection(def, s, st)?;
        let condition = static_condition(st.condition.as_deref(), &def.text)?;
        // A static that functions from a graveyard grants keywords only (the scans that
        // read graveyards are the keyword ones: `layers.rs` `static_sources`).
        if matches!(
            condition,
            Some(crate::cards::StaticCondition::InYourGraveyardAndYouControl(
                _
            ))
        ) && (power != 0
            || toughness != 0
            || grants.is_empty()
            || !grant_triggers.is_empty()
            || !grant_abilities.is_empty()
            || !add_subtypes.is_empty()
            || set_colors.is_some()
            || cda_pt.is_some()
            || !st.set_land_types.is_empty()
            || st.cant_attack_you
            || st.itself
            || st.enchanted)
        {
            return Err(
                "a static that functions from a graveyard may only grant keywords (`grant`)".into(),
            );
        }
        check_attached_static(def, st)?;
        def.statics.push(crate::cards::StaticAbility {
            condition,
            affects,
            other: st.other,
            power,
            toughness,
            grants,
            grant_triggers,
            grant_abilities,
            grant_pump,
            add_subtypes,
            set_chosen_creature_type,
            also_outside_battlefield: st.also_outside_battlefield,
            cda_all_creature_types,
            itself: st.itself,
            // "Enchanted", "equipped", "fortified": what the source is attached to.
            enchanted: st.enchanted || st.equipped || st.fortified,
            set_land_types: st.set_land_types.clone(),
            set_colors,
            cda_pt,
            text: st.text.clone(),
            cant_attack_controller: st.cant_attack_you,
            protection_from_chosen_color,
            doesnt_remove_source,
            per_counter: match &st.per_counter {
                Some(_) if power == 0 && toughness == 0 => {
                    return Err("`per_counter` needs a `pump`".into());
                }
                Some(k) => Some(
                    crate::grammar::parse_all(crate::grammar::words::counter_kind, k)
                        .map_err(|e| format!("per_counter `{k}`: {e}"))?,
                ),
                None => None,
            },
        });
    }
    Ok(())
}

/// A static's `grant_protection_from = "chosen_color"` and `doesnt_remove_this = true`
/// (Pentarch Ward), checked against the card: the colour is chosen as it enters, and only an
/// Aura's protection grant whose text says so spares it.
fn chosen_protection(def: &CardDef, s: &Script, st: &StaticScript) -> Result<(bool, bool), String> {
    let lower = def.text.to_lowercase();
    let chosen = match st.grant_protection_from.as_deref() {
        None => false,
        Some("chosen_color")
            if s.choose.as_deref() == Some("color")
                && lower.contains("protection from the chosen color") =>
        {
            true
        }
        Some(other) => {
            return Err(format!(
                "grant_protection_from `{other}`: expected `chosen_color`, with `choose = \"color\"` and a text saying \"protection from the chosen color\""
            ));
        }
    };
    let spares = st.doesnt_remove_this;
    if spares && (!chosen || !st.enchanted || !lower.contains("this effect doesn't remove")) {
        return Err("`doesnt_remove_this`: only an Aura's protection grant (`enchanted = true`) whose text says \"This effect doesn't remove ~\"".into());
    }
    Ok((chosen, spares))
}

/// `cda_pt = "..."`: what a characteristic-defining P/T ability counts.
fn parse_cda_pt(s: &str) -> Result<crate::cards::CdaPt, String> {
    use crate::cards::CdaPt;
    let mut w = s.split_whitespace();
    Ok(match (w.next(), w.next(), w.next()) {
        (Some("lands_of_type_or_defenders"), Some(t), None)
            if BASIC_LAND_TYPES.iter().any(|(n, _)| *n == t) =>
        {
            CdaPt::LandsOfTypeOrDefenders(t.to_string())
        }
        (Some("face_down_creatures"), None, None) => CdaPt::FaceDownCreatures,
        (Some("counters_on_it"), Some(k), None) => CdaPt::CountersOnIt(crate::grammar::parse_all(
            crate::grammar::words::counter_kind,
            k,
        )?),
        (Some("you_control"), Some(f), None) => {
            CdaPt::YouControl(crate::targets::ObjectFilter::parse(f)?)
        }
        (Some("cards_in_your_hand"), None, None) => CdaPt::CardsInYourHand,
        (Some("plus1_counters_on_your_creatures"), None, None) => {
            CdaPt::PlusOneCountersOnYourCreatures
        }
        (Some("life_minus_most_opponent"), None, None) => CdaPt::LifeMinusMostOpponent,
        (Some("nonbasic_lands_in_opponents_graveyards"), None, None) => {
            CdaPt::NonbasicLandsInOpponentsGraveyards
        }
        _ => {
            return Err(
                "cda_pt: expected `lands_of_type_or_defenders <basic land type>`, `face_down_creatures`, `counters_on_it <kind>`, `you_control <filter>`, `cards_in_your_hand`, `plus1_counters_on_your_creatures`, `life_minus_most_opponent` or `nonbasic_lands_in_opponents_graveyards`".into(),
            );
        }
    })
}

/// A static's `[[card.static.grant_ability]]` tables (Fallen Ideal): battlefield abilities.
fn granted_abilities_of(def: &CardDef, st: &StaticScript) -> Result<Vec<ActivatedAbility>, String> {
    let v = st
        .grant_ability
        .iter()
        .map(|a| parse_ability(def, a))
        .collect::<Result<Vec<_>, _>>()?;
    if v.iter().any(|a| a.from_graveyard || a.from_hand) {
        return Err("a granted ability works on the battlefield only".into());
    }
    Ok(v)
}

/// `equipped = true` / `fortified = true`: only an Equipment (Fortification) whose text
/// says "equipped creature" ("fortified land").
fn check_attached_static(def: &CardDef, st: &StaticScript) -> Result<(), String> {
    let lower = def.text.to_lowercase();
    for (key, set, sub, words) in [
        ("equipped", st.equipped, "Equipment", "equipped creature"),
        ("fortified", st.fortified, "Fortification", "fortified land"),
    ] {
        if set && (!def.subtypes.iter().any(|t| t == sub) || !lower.contains(words)) {
            return Err(format!(
                "`{key} = true`: only an {sub} whose text says \"{words}\""
            ));
        }
    }
    Ok(())
}

/// The triggered and activated abilities (`[[card.trigger]]`, `[[card.ability]]`).
fn apply_abilities(def: &mut CardDef, s: &Script) -> Result<(), String> {
    for t in &s.trigger {
        def.triggers.push(parse_trigger(t)?);
    }
    if def.triggers.len() > 64 {
        return Err("at most 64 triggered abilities".into());
    }
    for a in &s.ability {
        let ability = parse_ability(def, a)?;
        def.abilities.push(ability);
    }
    Ok(())
}

/// An activated ability's `timing` key, checked against the card's text.
fn ability_timing(def: &CardDef, a: &AbilityScript) -> Result<AbilityTiming, String> {
    Ok(match a.timing.as_deref() {
        // Forecast: "activate only during your upkeep" (and once each turn).
        None if a.forecast => AbilityTiming::YourUpkeep,
        None | Some("instant") => AbilityTiming::Instant,
        Some("sorcery") => AbilityTiming::Sorcery,
        Some("your_upkeep") => AbilityTiming::YourUpkeep,
        Some("end_of_combat")
            if def
                .text
                .to_lowercase()
                .contains("activate only during the end of combat step") =>
        {
            AbilityTiming::EndOfCombat
        }
        Some("your_turn")
            if def
                .text
                .to_lowercase()
                .contains("activate only during your turn") =>
        {
            AbilityTiming::YourTurn
        }
        Some("your_turn") => {
            return Err(
                "`timing = \"your_turn\"`: the card's text has no \"Activate only during your turn\"".into(),
            );
        }
        Some("end_of_combat") => {
            return Err(
                "`timing = \"end_of_combat\"`: the card's text has no \"Activate only during the end of combat step\"".into(),
            );
        }
        Some(t) => return Err(format!("unknown timing `{t}`")),
    })
}

/// One `[[card.ability]]` (or a static's `[[card.static.grant_ability]]`) table, checked
/// against `def`'s text where a key needs it.
/// One `[[card.ability]]` (or `[[card.static.grant_ability]]`) table.
fn parse_ability(def: &CardDef, a: &AbilityScript) -> Result<ActivatedAbility, String> {
    let cost = Cost::parse(&a.cost).map_err(|e| format!("cost `{}`: {e}", a.cost))?;
    let same_name = cost
        .parts
        .contains(&crate::costs::CostPart::DiscardSameName);
    if same_name
        && def.support != Support::TestOnly
        && !def.text.to_lowercase().contains(&format!(
            "grandeur — discard another card named {}",
            def.name.to_lowercase()
        ))
    {
        return Err(format!(
            "cost `{}`: the card's text has no \"Grandeur — Discard another card named {}\"",
            a.cost, def.name
        ));
    }
    if let Some(add) = &a.add {
        if !a.targets.is_empty() || a.timing.is_some() || a.condition.is_some() {
            return Err("a mana ability has no targets, timing or condition (406.1, Δ22)".into());
        }
        let produce = parse_produce(add)?;
        let x_cost = cost
            .parts
            .iter()
            .any(|p| matches!(p, crate::costs::CostPart::RemoveXCounters(_)));
        if x_cost != matches!(produce, ManaProduce::XCombination(_)) {
            return Err(format!(
                "a mana ability makes X mana (`add = \"X of ...\"`) exactly when its cost removes X counters (cost `{}`, add `{add}`)",
                a.cost
            ));
        }
        let effects = parse_effects(&a.effects, 0)?;
        if let Some(e) = effects.iter().find(|e| !e.is_choiceless()) {
            return Err(format!(
                "a mana ability's other effects must not need choices ({e:?})"
            ));
        }
        return Ok(ActivatedAbility {
            text: a
                .text
                .clone()
                .unwrap_or_else(|| format!("{}: Add {}.", cost, add)),
            cost,
            targets: Vec::new(),
            effects,
            mana: Some(produce),
            timing: AbilityTiming::Instant,
            condition: None,
            cycling: false,
            from_hand: false,
            forecast: false,
            from_graveyard: false,
            while_suspended: false,
            once_each_turn: once_each_turn(a, def)?,
            opponents_only: false,
            x_targets: false,
        });
    }
    if a.effects.is_empty() {
        return Err("an activated ability needs `effects` (or `add` for a mana ability)".into());
    }
    let targets = parse_targets(&a.targets)?;
    let effects = parse_effects(&a.effects, targets.len())?;
    if a.from_graveyard
        && !def
            .text
            .to_lowercase()
            .contains(&format!("{} from your graveyard", def.name.to_lowercase()))
    {
        return Err("`from_graveyard`: the card's text has no \"~ from your graveyard\"".into());
    }
    if a.while_suspended
        && !def.text.to_lowercase().contains(&format!(
            "activate only if {} is suspended",
            def.name.to_lowercase()
        ))
    {
        return Err(
            "`while_suspended`: the card's text has no \"Activate only if ~ is suspended\"".into(),
        );
    }
    if a.forecast && !def.text.to_lowercase().contains("forecast —") {
        return Err("`forecast`: the card's text has no forecast".into());
    }
    let timing = ability_timing(def, a)?;
    let x_targets = x_targets(a, def, &targets)?;
    let condition = match a.condition.as_deref() {
        None => None,
        Some(c) => Some(
            crate::grammar::parse_all(crate::grammar::events::activation_condition, c)
                .map_err(|e| format!("condition `{c}`: {e}"))?,
        ),
    };
    if condition == Some(ActivationCondition::SourceIsCreature)
        && !def.text.to_lowercase().contains(&format!(
            "only if {} is a creature",
            def.name.to_lowercase()
        ))
    {
        return Err(
            "`condition = \"this_is_creature\"`: the card's text has no \"only if ~ is a creature\""
                .into(),
        );
    }
    Ok(ActivatedAbility {
        text: a
            .text
            .clone()
            .unwrap_or_else(|| format!("{}: {}", cost, a.effects.join("; "))),
        cost,
        targets,
        effects,
        mana: None,
        timing,
        condition,
        cycling: false,
        from_hand: a.forecast,
        forecast: a.forecast,
        from_graveyard: a.from_graveyard,
        while_suspended: a.while_suspended,
        once_each_turn: once_each_turn(a, def)?,
        opponents_only: opponents_only(a, def)?,
        x_targets,
    })
}

fn parse_produce(s: &str) -> Result<ManaProduce, String> {
    let s = s.trim();
    if s == "any" {
        return Ok(ManaProduce::AnyColor);
    }
    if s == "chosen color" {
        return Ok(ManaProduce::ChosenColor);
    }
    // "3 of any one color": Lotus Bloom's "Add three mana of any one color".
    if let Some(n) = s.strip_suffix(" of any one color") {
        return n
            .parse::<u32>()
            .ok()
            .filter(|n| *n > 0)
            .map(ManaProduce::AnyOneColor)
            .ok_or_else(|| format!("bad amount `{n}` in `{s}`"));
    }
    // "{C}, 2 if you control Power-Plant and Tower": the Urza lands (fixtures).
    if let Some((n, subtypes)) = s
        .strip_prefix("{C}, ")
        .and_then(|r| r.split_once(" if you control "))
    {
        let n = n
            .parse::<u32>()
            .ok()
            .filter(|n| *n > 1)
            .ok_or_else(|| format!("bad amount `{n}` in `{s}`"))?;
        let subtypes: Vec<String> = subtypes.split(" and ").map(|t| t.trim().into()).collect();
        if subtypes.iter().any(|t| t.is_empty()) {
            return Err(format!("a subtype is missing in `{s}`"));
        }
        return Ok(ManaProduce::ColorlessMoreIfYouControl { n, subtypes });
    }
    // "{C}, any with luck counter": Gemstone Caverns.
    if let Some(kind) = s
        .strip_prefix("{C}, any with ")
        .and_then(|k| k.strip_suffix(" counter"))
    {
        return Ok(ManaProduce::ColorlessOrAnyWithCounter(
            kind.parse::<crate::object::CounterKind>()?,
        ));
    }
    // "X of {W} and/or {U}": X mana in any combination of these colours (storage lands).
    if let Some(colors) = s.strip_prefix("X of ") {
        let colors = colors
            .split(" and/or ")
            .map(|c| {
                let inner = c.trim().trim_start_matches('{').trim_end_matches('}');
                inner
                    .chars()
                    .next()
                    .filter(|_| inner.len() == 1)
                    .and_then(Color::from_letter)
                    .ok_or_else(|| format!("bad colour `{c}` in `{s}`"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(ManaProduce::XCombination(colors));
    }
    let one = |x: &str| -> Result<ManaType, String> {
        match x.trim() {
            "{C}" | "{1}" => Ok(ManaType::Colorless),
            y => {
                let inner = y.trim_start_matches('{').trim_end_matches('}');
                inner
                    .chars()
                    .next()
                    .filter(|_| inner.len() == 1)
                    .and_then(Color::from_letter)
                    .map(ManaType::Colored)
                    .ok_or_else(|| format!("bad mana `{y}`"))
            }
        }
    };
    if s.contains(" or ") {
        return s
            .split(" or ")
            .map(one)
            .collect::<Result<Vec<_>, _>>()
            .map(ManaProduce::OneOf);
    }
    let mut v = Vec::new();
    let mut rest = s;
    while let Some(end) = rest.find('}') {
        v.push(one(&rest[..=end])?);
        rest = &rest[end + 1..];
    }
    if v.is_empty() || !rest.trim().is_empty() {
        return Err(format!("bad mana `{s}`"));
    }
    Ok(ManaProduce::Fixed(v))
}

/// "{T}: Add [colour]."
fn intrinsic_mana_ability(color: Color) -> ActivatedAbility {
    ActivatedAbility {
        cost: Cost {
            tap: true,
            ..Cost::default()
        },
        targets: Vec::new(),
        effects: Vec::new(),
        mana: Some(ManaProduce::Fixed(vec![ManaType::Colored(color)])),
        timing: AbilityTiming::Instant,
        condition: None,
        text: format!("{{T}}: Add {{{}}}.", color.letter()),
        cycling: false,
        from_hand: false,
        forecast: false,
        from_graveyard: false,
        while_suspended: false,
        once_each_turn: false,
        opponents_only: false,
        x_targets: false,
    }
}

/// Rule 212.6c / 305.6: a land with a basic land type has "{T}: Add [its colour]".
fn add_intrinsic_mana_abilities(def: &mut CardDef) {
    if !def.has_type(CardType::Land) {
        return;
    }
    for (sub, color) in BASIC_LAND_TYPES {
        if def.subtypes.iter().any(|s| s == sub) {
            def.abilities.push(intrinsic_mana_ability(color));
        }
    }
}

/// `enters_with_unless_cast_from_hand` (Epochrasite, checked against its text): the
/// counters it enters the battlefield with unless it was cast from its owner's hand.
fn apply_unless_cast_from_hand(
    def: &mut CardDef,
    s: &Script,
    text_lower: &str,
) -> Result<(), String> {
    for e in &s.enters_with_unless_cast_from_hand {
        if !text_lower.contains("if you didn't cast it from your hand") {
            return Err(
                "`enters_with_unless_cast_from_hand`: the card's text doesn't say so".into(),
            );
        }
        let w = crate::grammar::parse_all(crate::grammar::events::enters_with, e)
            .map_err(|err| format!("enters_with_unless_cast_from_hand `{e}`: {err}"))?;
        match w {
            crate::cards::EntersWith {
                kind,
                count: crate::cards::EntersCount::Fixed(n),
                if_kicked: false,
            } => def.enters_with_unless_cast_from_hand.push((kind, n)),
            _ => {
                return Err(format!(
                    "enters_with_unless_cast_from_hand `{e}`: a fixed number of counters"
                ));
            }
        }
    }
    Ok(())
}

/// `echo = "{2}{R}"` or `echo = "discard a card"` (Echo—Discard a card; "sacrifice two
/// lands"): checked against the card's text ("Echo {2}{R}", "Echo—Discard a card."). A
/// non-mana echo cost is one part, a discard or a sacrifice (`keywords/echo.rs`).
fn parse_echo(e: &str, text_lower: &str) -> Result<crate::costs::Cost, String> {
    let e = e.trim();
    if let Ok(mana) = e.parse::<crate::mana::ManaCost>() {
        let printed = format!("echo {}", e.to_lowercase());
        // Echo {X}: "~ has echo {X}, where X is your life total" (Volcano Hellion; X is
        // read as the trigger resolves, `Game::echo_x`).
        let found = if mana.has_x() {
            text_lower
                .lines()
                .any(|l| l.contains("has echo {x}, where x is your life total"))
        } else {
            text_lower.lines().any(|l| l.starts_with(&printed))
        };
        if !found {
            return Err(format!(
                "`echo = \"{e}\"`: the card's text has no `Echo {e}` (an X only as \"echo {{X}}, where X is your life total\")"
            ));
        }
        return Ok(crate::costs::Cost {
            mana: Some(mana),
            ..Default::default()
        });
    }
    let cost = crate::costs::Cost::parse(e).map_err(|err| format!("echo `{e}`: {err}"))?;
    let one_part = cost.mana.is_none()
        && !cost.tap
        && !cost.untap
        && matches!(
            cost.parts.as_slice(),
            [crate::costs::CostPart::Discard(_) | crate::costs::CostPart::Sacrifice(..)]
        );
    if !one_part {
        return Err(format!(
            "echo `{e}`: a non-mana echo cost is one discard or one sacrifice"
        ));
    }
    let printed = format!("echo—{}", e.to_lowercase());
    if !text_lower.lines().any(|l| l.starts_with(&printed)) {
        return Err(format!(
            "`echo = \"{e}\"`: the card's text has no `Echo—{e}`"
        ));
    }
    Ok(cost)
}

/// `suspend = "5 {B}"`: checked against the card's text ("Suspend 5—{B}"); a card whose text
/// has suspend must say so.
fn parse_suspend(
    script: Option<&str>,
    text_lower: &str,
    test_only: bool,
) -> Result<Option<crate::cards::SuspendDef>, String> {
    let Some(v) = script else {
        if !test_only && text_lower.lines().any(|l| l.starts_with("suspend ")) {
            return Err("the card has suspend: script it with `suspend = \"N {cost}\"`".into());
        }
        return Ok(None);
    };
    let (n, cost) = v
        .trim()
        .split_once(' ')
        .ok_or_else(|| format!("suspend `{v}`: expected `N {{cost}}`, e.g. `5 {{B}}`"))?;
    let time = match n {
        "X" | "x" => None,
        n => Some(
            n.parse::<u32>()
                .map_err(|_| format!("suspend `{v}`: `{n}` is not a number of time counters"))?,
        ),
    };
    let printed = format!(
        "suspend {}—{}",
        n.to_lowercase(),
        cost.trim().to_lowercase()
    );
    if !test_only && !text_lower.contains(&printed) {
        return Err(format!(
            "`suspend = \"{v}\"`: the card's text has no `Suspend {n}—{cost}`"
        ));
    }
    let cost = Cost::parse(cost)?;
    if time.is_none() && !cost.mana.as_ref().is_some_and(|m| m.has_x()) {
        return Err(format!("suspend `{v}`: suspend X needs an X in its cost"));
    }
    Ok(Some(crate::cards::SuspendDef {
        time,
        cost,
        x_not_zero: text_lower.contains("x can't be 0"),
    }))
}

/// The block's mechanics, as their names appear in rules text (reminder text aside).
const BLOCK_MECHANICS: &[&str] = &[
    "suspend",
    "vanishing",
    "gravestorm",
    "storm",
    "madness",
    "kicker",
    "buyback",
    "landcycling",
    "cycling",
    "threshold",
    "hellbent",
    "scry",
    "fateseal",
    "delve",
    "convoke",
    "dredge",
    "forecast",
    "graft",
    "transmute",
    "transfigure",
    "poisonous",
    "lifelink",
    "frenzy",
    "bloodthirst",
    "grandeur",
    "aura swap",
    "fortify",
    "equip",
    "shroud",
    "echo",
    "morph",
    "flashback",
    "split second",
    "time counter",
    "chroma",
];

/// Why a card without a script is not playable, in player words: the block mechanics its
/// text names (a reader sees what it waits for), or that nobody has scripted it yet.
/// The reason of a card left unscripted, worded from its text (`facts_to_def` leaves it
/// empty until the scripts are applied).
fn explain_unscripted(def: &mut CardDef) {
    if let Support::Unsupported(why) = &mut def.support
        && why.is_empty()
    {
        *why = unscripted_reason(&def.text);
    }
}

fn unscripted_reason(text: &str) -> String {
    let mut plain = String::new();
    let mut depth = 0u32;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => plain.extend(c.to_lowercase()),
            _ => {}
        }
    }
    // A word ends where no letter follows ("chroma", not "chromatic"; "swampcycling" is
    // cycling).
    let names = |m: &str| {
        plain.match_indices(m).any(|(i, _)| {
            !plain[i + m.len()..]
                .chars()
                .next()
                .is_some_and(char::is_alphabetic)
        })
    };
    let mut named: Vec<&str> = Vec::new();
    for m in BLOCK_MECHANICS {
        let covered = named.iter().any(|n| n.contains(m));
        if !covered && names(m) {
            named.push(m);
        }
    }
    if named.is_empty() {
        "its text is not scripted yet".into()
    } else {
        format!(
            "its text is not scripted yet (it uses {})",
            named.join(", ")
        )
    }
}

// ----- the graveyard-and-hand family (madness, cycling, threshold, hellbent) -------------

/// The keys of the graveyard-and-hand mechanics: madness.
fn apply_graveyard_keys(def: &mut CardDef, s: &Script) -> Result<(), String> {
    let text_lower = def.text.to_lowercase();
    let test_only = def.support == Support::TestOnly;
    def.madness = parse_madness(s.madness.as_deref(), &text_lower, test_only)?;
    if let Some(c) = &s.cycling {
        let a = cycling_ability(None, c, &text_lower, test_only)?;
        def.abilities.push(a);
    }
    if let Some(t) = &s.typecycling {
        let (ty, cost) = t.trim().split_once(' ').ok_or_else(|| {
            format!("typecycling `{t}`: expected `TYPE {{cost}}`, e.g. `Swamp {{2}}`")
        })?;
        let a = cycling_ability(Some(ty), cost, &text_lower, test_only)?;
        def.abilities.push(a);
    }
    if !test_only && s.cycling.is_none() && s.typecycling.is_none() {
        let printed = text_lower.lines().any(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|w| w.ends_with("cycling") || w.starts_with("cycling—"))
        });
        if printed {
            return Err("the card has cycling: script it with `cycling` or `typecycling`".into());
        }
    }
    if let Some(g) = &s.grant_typecycling_in_hands {
        let (ty, cost) = g
            .trim()
            .split_once(' ')
            .ok_or_else(|| format!("grant_typecycling_in_hands `{g}`: expected `TYPE {{cost}}`"))?;
        let printed = format!(
            "each {} card in each player's hand has {}cycling {}",
            ty.to_lowercase(),
            ty.to_lowercase(),
            cost.trim().to_lowercase()
        );
        if !test_only && !text_lower.contains(&printed) {
            return Err(format!(
                "`grant_typecycling_in_hands`: the card's text doesn't say `{printed}`"
            ));
        }
        def.grants_typecycling_in_hands = Some(g.trim().to_string());
    }
    if let Some(c) = &s.transmute {
        def.abilities.push(search_same_mana_value_ability(
            "transmute",
            c,
            &text_lower,
            test_only,
        )?);
    }
    if let Some(c) = &s.transfigure {
        def.abilities.push(search_same_mana_value_ability(
            "transfigure",
            c,
            &text_lower,
            test_only,
        )?);
    }
    for word in ["transmute {", "transfigure {"] {
        let scripted = if word.starts_with("transmute") {
            s.transmute.is_some()
        } else {
            s.transfigure.is_some()
        };
        if !test_only && !scripted && text_lower.lines().any(|l| l.starts_with(word)) {
            return Err(format!(
                "the card has {}: script it with its key",
                word.trim_end_matches(" {")
            ));
        }
    }
    if s.players_cant_cycle && !test_only {
        return Err("`players_cant_cycle` is for test fixtures".into());
    }
    def.players_cant_cycle = s.players_cant_cycle;
    Ok(())
}

/// A cycling ability (`ty` None: "Cycling [cost]", draw a card) or a typecycling one
/// ("[Type]cycling [cost]": search for a card of that type, reveal it, put it into your
/// hand, shuffle), checked against the card's text: "[cost], Discard this card: ...".
pub(super) fn cycling_ability(
    ty: Option<&str>,
    cost: &str,
    text_lower: &str,
    test_only: bool,
) -> Result<ActivatedAbility, String> {
    let cost = cost.trim();
    let name = match ty {
        Some(t) => format!("{t}cycling"),
        None => "Cycling".to_string(),
    };
    let is_mana = cost.starts_with('{');
    let printed = if is_mana {
        format!("{} {}", name.to_lowercase(), cost.to_lowercase())
    } else {
        format!("{}—{}", name.to_lowercase(), cost.to_lowercase())
    };
    if !test_only && !text_lower.lines().any(|l| l.starts_with(&printed)) {
        return Err(format!("the card's text has no `{printed}`"));
    }
    let mut c = Cost::parse(cost).map_err(|e| format!("{name} `{cost}`: {e}"))?;
    c.parts.push(crate::costs::CostPart::DiscardThis);
    let effects = match ty {
        None => vec![Effect::Draw {
            amount: crate::effects::Amount::Fixed(1),
            who: crate::effects::PlayerRef::You,
        }],
        Some(t) => vec![Effect::SearchReveal(crate::targets::ObjectFilter {
            subtype: Some(t.to_string()),
            ..Default::default()
        })],
    };
    let text = match ty {
        None => format!("Cycling {cost} ({cost}, Discard this card: Draw a card.)"),
        Some(t) => format!(
            "{name} {cost} ({cost}, Discard this card: Search your library for a {t} card, reveal it, put it into your hand, then shuffle.)"
        ),
    };
    Ok(ActivatedAbility {
        cost: c,
        targets: Vec::new(),
        effects,
        mana: None,
        timing: AbilityTiming::Instant,
        condition: None,
        text,
        cycling: true,
        from_hand: true,
        forecast: false,
        from_graveyard: false,
        while_suspended: false,
        once_each_turn: false,
        opponents_only: false,
        x_targets: false,
    })
}

/// `madness = "{B}"`: checked against the card's text ("Madness {B}"); a card whose text has
/// madness must say so (502.24 / 702.33, `keywords/madness.rs`).
fn parse_madness(
    script: Option<&str>,
    text_lower: &str,
    test_only: bool,
) -> Result<Option<ManaCost>, String> {
    let Some(v) = script else {
        if !test_only && text_lower.lines().any(|l| l.starts_with("madness {")) {
            return Err("the card has madness: script it with `madness = \"{cost}\"`".into());
        }
        return Ok(None);
    };
    let cost: ManaCost = v
        .trim()
        .parse()
        .map_err(|e| format!("madness `{v}`: {e}"))?;
    let printed = format!("madness {}", v.trim().to_lowercase());
    if !test_only && !text_lower.lines().any(|l| l.starts_with(&printed)) {
        return Err(format!(
            "`madness = \"{v}\"`: the card's text has no `Madness {v}`"
        ));
    }
    Ok(Some(cost))
}

/// The typecycling abilities cards grant to cards in hands (Homing Sliver's
/// `grant_typecycling_in_hands = "Sliver {3}"`), in catalog order.
fn granted_cycling(
    cards: &[CardDef],
) -> Result<Vec<(CardId, String, ActivatedAbility)>, CatalogError> {
    let mut out = Vec::new();
    for def in cards {
        if let Some(g) = &def.grants_typecycling_in_hands
            && let Some((ty, cost)) = g.split_once(' ')
        {
            let a = cycling_ability(Some(ty), cost, "", true).map_err(|e| err(&def.name, e))?;
            out.push((def.id, ty.to_string(), a));
        }
    }
    if out.len() > (INTRINSIC_ABILITY - GRANTED_CYCLING_ABILITY) as usize {
        return Err(err("catalog", "too many cards grant typecycling"));
    }
    Ok(out)
}

/// The `enters_with` entries: plain counters, or counted / kicked ones checked against the
/// card's text.
fn apply_enters_with(
    def: &mut CardDef,
    entries: &[String],
    text_lower: &str,
) -> Result<(), String> {
    for e in entries {
        let w = crate::grammar::parse_all(crate::grammar::events::enters_with, e)
            .map_err(|err| format!("enters_with `{e}`: {err}"))?;
        match w {
            crate::cards::EntersWith {
                kind,
                count: crate::cards::EntersCount::Fixed(n),
                if_kicked: false,
            } => def.enters_with_counters.push((kind, n)),
            w => {
                check_enters_with(&w, text_lower, &def.name.to_lowercase())
                    .map_err(|err| format!("enters_with `{e}`: {err}"))?;
                def.enters_with_more.push(w);
            }
        }
    }
    Ok(())
}

/// A counted or kicked `enters_with`, checked against the card's text.
fn check_enters_with(w: &crate::cards::EntersWith, text: &str, name: &str) -> Result<(), String> {
    if w.if_kicked
        && !text.contains(&format!(
            "if {name} was kicked, it enters the battlefield with"
        ))
    {
        return Err(format!(
            "the card's text has no \"if {name} was kicked, it enters the battlefield with\""
        ));
    }
    if w.count == crate::cards::EntersCount::OtherSpellsThisTurn
        && !text.contains("for each other spell cast this turn")
    {
        return Err("the card's text has no \"for each other spell cast this turn\"".into());
    }
    if let crate::cards::EntersCount::YouControl(t) = &w.count
        && !text.contains(&format!("for each {} you control", t.to_lowercase()))
    {
        return Err(format!(
            "the card's text has no \"for each {t} you control\""
        ));
    }
    Ok(())
}

/// A static ability's `condition = "threshold"` / `"hellbent"`, checked against the card's
/// text (the ability word and its "as long as" clause).
fn static_condition(
    c: Option<&str>,
    text: &str,
) -> Result<Option<crate::cards::StaticCondition>, String> {
    use crate::cards::StaticCondition;
    let Some(c) = c else { return Ok(None) };
    let (cond, printed) = match c {
        "threshold" => (
            StaticCondition::Threshold,
            "as long as seven or more cards are in your graveyard",
        ),
        "hellbent" => (
            StaticCondition::Hellbent,
            "as long as you have no cards in hand",
        ),
        // "If ~ was kicked, it enters the battlefield with ... and with haste."
        "kicked" => {
            let lower = text.to_lowercase();
            if !lower.contains("was kicked, it enters the battlefield with") {
                return Err("condition `kicked`: the card's text has no \"if ~ was kicked, it enters the battlefield with ...\"".into());
            }
            return Ok(Some(StaticCondition::Kicked));
        }
        // "As long as ~ is in your graveyard and you control a Plains" (Valor).
        other if other.starts_with("in_your_graveyard_and_you_control ") => {
            let land = other["in_your_graveyard_and_you_control ".len()..].trim();
            let Some((name, c)) = BASIC_LAND_TYPES.iter().find(|(n, _)| *n == land) else {
                return Err(format!(
                    "condition `{other}`: `{land}` is not a basic land type"
                ));
            };
            let printed = format!(
                "is in your graveyard and you control a {}",
                name.to_lowercase()
            );
            if !text.to_lowercase().contains(&printed) {
                return Err(format!(
                    "condition `{other}`: the card's text has no \"as long as ~ {printed}\""
                ));
            }
            return Ok(Some(StaticCondition::InYourGraveyardAndYouControl(*c)));
        }
        other => {
            return Err(format!(
                "condition `{other}`: expected `threshold`, `hellbent`, `kicked` or `in_your_graveyard_and_you_control LAND`"
            ));
        }
    };
    let lower = text.to_lowercase();
    if !lower.contains(&format!("{c} —")) || !lower.contains(printed) {
        return Err(format!(
            "condition `{c}`: the card's text has no `{c} — ... {printed}`"
        ));
    }
    Ok(Some(cond))
}

/// Transmute [cost] (702.52a: "[Cost], Discard this card: Search your library for a card
/// with the same mana value as the discarded card, reveal that card, and put it into your
/// hand. Then shuffle your library. Activate only as a sorcery.") or transfigure [cost]
/// (702.70a: "[Cost], Sacrifice this permanent: Search your library for a creature card
/// with the same mana value as the sacrificed permanent and put that card onto the
/// battlefield. Then shuffle your library. Activate only as a sorcery."), checked against
/// the card's text.
fn search_same_mana_value_ability(
    word: &str,
    cost: &str,
    text_lower: &str,
    test_only: bool,
) -> Result<ActivatedAbility, String> {
    let cost = cost.trim();
    let printed = format!("{word} {}", cost.to_lowercase());
    if !test_only && !text_lower.lines().any(|l| l.starts_with(&printed)) {
        return Err(format!("the card's text has no `{printed}`"));
    }
    let mut c = Cost::parse(cost).map_err(|e| format!("{word} `{cost}`: {e}"))?;
    let transmute = word == "transmute";
    c.parts.push(if transmute {
        crate::costs::CostPart::DiscardThis
    } else {
        crate::costs::CostPart::SacrificeThis
    });
    let (filter, to, text) = if transmute {
        (
            crate::targets::ObjectFilter::default(),
            crate::zones::ZoneKind::Hand,
            format!(
                "Transmute {cost} ({cost}, Discard this card: Search your library for a card with the same mana value as this card, reveal it, put it into your hand, then shuffle. Transmute only as a sorcery.)"
            ),
        )
    } else {
        (
            crate::targets::ObjectFilter {
                types_any: vec![CardType::Creature],
                ..Default::default()
            },
            crate::zones::ZoneKind::Battlefield,
            format!(
                "Transfigure {cost} ({cost}, Sacrifice this creature: Search your library for a creature card with the same mana value as this creature, put that card onto the battlefield, then shuffle. Transfigure only as a sorcery.)"
            ),
        )
    };
    Ok(ActivatedAbility {
        cost: c,
        targets: Vec::new(),
        effects: vec![Effect::SearchSameManaValue {
            filter,
            to,
            reveal: transmute,
        }],
        mana: None,
        timing: AbilityTiming::Sorcery,
        condition: None,
        text,
        cycling: false,
        from_hand: transmute,
        forecast: false,
        from_graveyard: false,
        while_suspended: false,
        once_each_turn: false,
        opponents_only: false,
        x_targets: false,
    })
}

/// The script key `vanishing = N` (`keywords/vanishing.rs`): the counters it enters with and the two triggers, checked
/// against the card's text ("Vanishing N"; `vanishing = 0` for a bare "Vanishing", whose
/// counters come from its own "enters with" text: Tidewalker).
fn apply_vanishing(
    def: &mut crate::cards::CardDef,
    n: Option<u32>,
    text_lower: &str,
    test_only: bool,
) -> Result<(), String> {
    let printed = text_lower
        .lines()
        .find_map(|l| l.strip_prefix("vanishing "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|w| w.parse::<u32>().ok())
        .or_else(|| {
            text_lower
                .lines()
                .any(|l| l.starts_with("vanishing ("))
                .then_some(0)
        });
    match n {
        None if printed.is_some() && !test_only => Err(
            "the card has vanishing: script it with `vanishing = N` (0 for a bare Vanishing)"
                .into(),
        ),
        None => Ok(()),
        Some(n) if printed != Some(n) && !test_only => Err(format!(
            "`vanishing = {n}`: the card's text has no `Vanishing {n}`"
        )),
        Some(n) => {
            if n > 0 {
                def.enters_with_counters
                    .push((crate::object::CounterKind::Time, n));
            }
            def.triggers
                .push(crate::abilities::TriggerDef::vanishing_upkeep());
            def.triggers
                .push(crate::abilities::TriggerDef::vanishing_sacrifice());
            Ok(())
        }
    }
}

/// The script key `graft = N`, checked against the card's text ("Graft N").
fn apply_graft(
    def: &mut crate::cards::CardDef,
    n: u32,
    text_lower: &str,
    test_only: bool,
) -> Result<(), String> {
    let printed = text_lower
        .lines()
        .find_map(|l| l.strip_prefix("graft "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|w| w.parse::<u32>().ok());
    if n == 0 {
        return match printed {
            Some(_) if !test_only => Err("the card has graft: script it with `graft = N`".into()),
            _ => Ok(()),
        };
    }
    if printed != Some(n) && !test_only {
        return Err(format!("`graft = {n}`: the card's text has no `Graft {n}`"));
    }
    def.enters_with_counters
        .push((crate::object::CounterKind::PlusOnePlusOne, n));
    def.triggers.push(crate::abilities::TriggerDef::graft());
    Ok(())
}

// ----- split cards (2006 505 / 2014 708, keywords/split.rs) ------------------------------

/// A split card's mana cost where a number is asked of the whole card: both halves' costs
/// together (2006 505.5 / 2014 708.5: "1, and 4" counts 5).
fn split_combined_cost(name: &str, halves: &[Facts]) -> Result<ManaCost, CatalogError> {
    use crate::mana::ManaSymbol;
    let mut generic = 0;
    let mut symbols = Vec::new();
    for h in halves {
        let cost = h.cost.as_deref().unwrap_or("");
        let c: ManaCost = cost
            .parse()
            .map_err(|e| err(name, format!("half {}: {e}", h.name)))?;
        for sym in c.symbols {
            match sym {
                ManaSymbol::Generic(n) => generic += n,
                other => symbols.push(other),
            }
        }
    }
    if generic > 0 {
        symbols.insert(0, ManaSymbol::Generic(generic));
    }
    Ok(ManaCost {
        symbols: symbols.into(),
    })
}

/// The whole card's record of its halves (names and mana values), for a split card.
fn split_facts(
    name: &str,
    layout: Option<&str>,
    halves: &[Facts],
) -> Result<Option<SplitCard>, CatalogError> {
    let split = layout == Some("split");
    if !split && halves.is_empty() {
        return Ok(None);
    }
    let [left, right] = halves else {
        return Err(err(
            name,
            "a split card (layout \"split\") has exactly two halves, and only a split card has halves",
        ));
    };
    if !split {
        return Err(err(name, "only a split card (layout \"split\") has halves"));
    }
    let value = |h: &Facts| -> Result<u32, CatalogError> {
        let c: ManaCost = h
            .cost
            .as_deref()
            .unwrap_or("")
            .parse()
            .map_err(|e| err(name, format!("half {}: {e}", h.name)))?;
        Ok(c.converted())
    };
    Ok(Some(SplitCard {
        names: [left.name.clone(), right.name.clone()],
        mana_values: [value(left)?, value(right)?],
    }))
}

/// The definitions of a split card's halves (ids `CardId::split_half`): each half's own
/// name, cost, type, colours and text, with the card's rarity and sets.
fn split_halves(def: &CardDef, f: &Facts) -> Result<Vec<CardDef>, CatalogError> {
    if def.split.is_none() {
        return Ok(Vec::new());
    }
    f.half
        .iter()
        .enumerate()
        .map(|(h, hf)| {
            let facts = Facts {
                rarity: f.rarity.clone(),
                sets: f.sets.clone(),
                half: Vec::new(),
                ..hf.clone()
            };
            facts_to_def(def.id.split_half(h as u8), &facts)
        })
        .collect()
}

/// A split card's script: only `[[card.half]]` tables, one per half in order, each with
/// the half's name and its spell keys (checked against the half's own text).
fn apply_split_script(def: &mut CardDef, halves: &mut [CardDef], s: &Script) -> Result<(), String> {
    let Some(split) = &def.split else {
        return Err("`[[card.half]]`: only a split card has halves".into());
    };
    let other_keys = !s.keywords.is_empty()
        || !s.targets.is_empty()
        || !s.effects.is_empty()
        || !s.mode.is_empty()
        || !s.additional_cost.is_empty()
        || !s.ability.is_empty()
        || !s.trigger.is_empty()
        || !s.statics.is_empty();
    if other_keys || s.half.len() != 2 {
        return Err(format!(
            "a split card is scripted with two `[[card.half]]` tables ({} then {}), and no other keys",
            split.names[0], split.names[1]
        ));
    }
    for (h, hs) in s.half.iter().enumerate() {
        if normalize_name(&hs.name) != normalize_name(&split.names[h]) {
            return Err(format!(
                "half {} is {}, not `{}`",
                h + 1,
                split.names[h],
                hs.name
            ));
        }
        if !hs.half.is_empty() {
            return Err("a half has no halves".into());
        }
        let id = def.id.split_half(h as u8);
        let half = halves
            .iter_mut()
            .find(|d| d.id == id)
            .ok_or_else(|| format!("half {} has no facts", split.names[h]))?;
        half.support = Support::Supported;
        apply_spell(half, hs).map_err(|e| format!("{}: {e}", split.names[h]))?;
    }
    def.support = Support::Supported;
    Ok(())
}

/// The activated ability "Equip [cost]" / "Fortify [cost]" (502.33a / 702.6a, 702.66a):
/// attach this to target creature (land) you control, only as a sorcery (`keywords/equip.rs`
/// resolves the attach).
fn attach_ability(
    cost: crate::costs::Cost,
    fortify: bool,
) -> Result<crate::cards::ActivatedAbility, String> {
    let (word, what) = if fortify {
        ("Fortify", "land")
    } else {
        ("Equip", "creature")
    };
    let target = crate::targets::TargetSpec::parse(&format!("{what} you_control"))?;
    Ok(crate::cards::ActivatedAbility::plain(
        format!(
            "{word} {cost} ({cost}: Attach to target {what} you control. {word} only as a sorcery.)"
        ),
        cost,
        vec![target],
        vec![crate::effects::Effect::Attach {
            what: crate::effects::ObjRef::This,
            to: crate::effects::ObjRef::Target(0),
        }],
        crate::cards::AbilityTiming::Sorcery,
    ))
}

#[cfg(test)]
mod unscripted_reason_tests {
    use super::unscripted_reason;

    #[test]
    fn names_the_mechanics_outside_reminder_text() {
        assert_eq!(
            unscripted_reason(
                "Kicker {R} (You may pay an additional {R} as you cast this spell.)\nIf this spell was kicked, draw a card."
            ),
            "its text is not scripted yet (it uses kicker)"
        );
        assert_eq!(
            unscripted_reason("Swampcycling {2}\nStorm"),
            "its text is not scripted yet (it uses storm, cycling)"
        );
        assert_eq!(
            unscripted_reason("Gravestorm (reminder mentions storm)"),
            "its text is not scripted yet (it uses gravestorm)"
        );
        assert_eq!(
            unscripted_reason("Draw a card."),
            "its text is not scripted yet"
        );
        assert_eq!(
            unscripted_reason("Add one mana of any color. Chromatic Star"),
            "its text is not scripted yet"
        );
    }
}
