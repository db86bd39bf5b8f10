//! Example scenes with real Time Spiral block cards, used by tests, the benchmark and the
//! `render_samples` example.

use crate::scene::*;

/// Colours named by a mana cost's coloured symbols.
fn colours_of_cost(cost: &str) -> Vec<Colour> {
    let mut out = Vec::new();
    for (ch, c) in [
        ('W', Colour::White),
        ('U', Colour::Blue),
        ('B', Colour::Black),
        ('R', Colour::Red),
        ('G', Colour::Green),
    ] {
        if cost.contains(ch) {
            out.push(c);
        }
    }
    out
}

/// A card face; colours follow the mana cost.
pub fn card(
    name: &str,
    name_zh: &str,
    cost: &str,
    type_line: &str,
    text: &str,
    pt: Option<(&str, &str)>,
) -> CardFace {
    CardFace {
        name: name.to_string(),
        name_zh: (!name_zh.is_empty()).then(|| name_zh.to_string()),
        mana_cost: cost.to_string(),
        colors: colours_of_cost(cost),
        type_line: type_line.to_string(),
        rules_text: text.to_string(),
        power: pt.map(|p| p.0.to_string()),
        toughness: pt.map(|p| p.1.to_string()),
        is_token: false,
    }
}

/// A basic land with its mana ability.
pub fn basic_land(name: &str, name_zh: &str) -> CardFace {
    let sym = match name {
        "Plains" => "{W}",
        "Island" => "{U}",
        "Swamp" => "{B}",
        "Mountain" => "{R}",
        _ => "{G}",
    };
    card(
        name,
        name_zh,
        "",
        &format!("Basic Land — {name}"),
        &format!("{{T}}: Add {sym} to your mana pool."),
        None,
    )
}

/// A token face.
pub fn token(
    name: &str,
    name_zh: &str,
    colour: Colour,
    type_line: &str,
    pt: (&str, &str),
    text: &str,
) -> CardFace {
    CardFace {
        name: name.to_string(),
        name_zh: (!name_zh.is_empty()).then(|| name_zh.to_string()),
        mana_cost: String::new(),
        colors: vec![colour],
        type_line: type_line.to_string(),
        rules_text: text.to_string(),
        power: Some(pt.0.to_string()),
        toughness: Some(pt.1.to_string()),
        is_token: true,
    }
}

pub fn plains() -> CardFace {
    basic_land("Plains", "平原")
}
pub fn island() -> CardFace {
    basic_land("Island", "海島")
}
pub fn mountain() -> CardFace {
    basic_land("Mountain", "山脈")
}
pub fn forest() -> CardFace {
    basic_land("Forest", "樹林")
}
pub fn swamp() -> CardFace {
    basic_land("Swamp", "沼澤")
}

pub fn ashcoat_bear() -> CardFace {
    card(
        "Ashcoat Bear",
        "白毛熊",
        "{1}{G}",
        "Creature — Bear",
        "Flash",
        Some(("2", "2")),
    )
}
pub fn basalt_gargoyle() -> CardFace {
    card(
        "Basalt Gargoyle",
        "玄武岩石像鬼",
        "{2}{R}",
        "Creature — Gargoyle",
        "Flying\nEcho {2}{R}\n{R}: Basalt Gargoyle gets +0/+1 until end of turn.",
        Some(("3", "2")),
    )
}
pub fn benalish_cavalry() -> CardFace {
    card(
        "Benalish Cavalry",
        "賓納里亞騎兵",
        "{1}{W}",
        "Creature — Human Knight",
        "Flanking",
        Some(("2", "2")),
    )
}
pub fn serra_avenger() -> CardFace {
    card(
        "Serra Avenger",
        "撒拉復仇者",
        "{W}{W}",
        "Creature — Angel",
        "You can't play Serra Avenger during your first, second, or third turns of the game.\nFlying, vigilance",
        Some(("3", "3")),
    )
}
pub fn plated_pegasus() -> CardFace {
    card(
        "Plated Pegasus",
        "板甲飛馬",
        "{2}{W}",
        "Creature — Pegasus",
        "Flash\nFlying\nIf a spell would deal damage to a creature or player, prevent 1 damage that spell would deal to that creature or player.",
        Some(("1", "2")),
    )
}
pub fn brine_elemental() -> CardFace {
    card(
        "Brine Elemental",
        "鹽湖元素",
        "{4}{U}{U}",
        "Creature — Elemental",
        "Morph {5}{U}{U}\nWhen Brine Elemental is turned face up, each opponent skips his or her next untap step.",
        Some(("5", "4")),
    )
}
pub fn griffin_guide() -> CardFace {
    card(
        "Griffin Guide",
        "獅鷲引領",
        "{2}{W}",
        "Enchantment — Aura",
        "Enchant creature\nEnchanted creature gets +2/+2 and has flying.\nWhen enchanted creature is put into a graveyard, put a 2/2 white Griffin creature token with flying into play.",
        None,
    )
}
pub fn detainment_spell() -> CardFace {
    card(
        "Detainment Spell",
        "拘留咒",
        "{W}",
        "Enchantment — Aura",
        "Enchant creature\nEnchanted creature's activated abilities can't be played.\n{1}{W}: Attach Detainment Spell to target creature.",
        None,
    )
}
pub fn calciform_pools() -> CardFace {
    card(
        "Calciform Pools",
        "石灰鹽池",
        "",
        "Land",
        "{T}: Add {1} to your mana pool.\n{1}, {T}: Put a storage counter on Calciform Pools.\n{1}, Remove X storage counters from Calciform Pools: Add X mana in any combination of {W} and/or {U} to your mana pool.",
        None,
    )
}
pub fn sporesower_thallid() -> CardFace {
    card(
        "Sporesower Thallid",
        "孢舞散綠菌",
        "{2}{G}{G}",
        "Creature — Fungus",
        "At the beginning of your upkeep, put a spore counter on each Fungus you control.\nRemove three spore counters from Sporesower Thallid: Put a 1/1 green Saproling creature token into play.",
        Some(("4", "4")),
    )
}
pub fn thick_skinned_goblin() -> CardFace {
    card(
        "Thick-Skinned Goblin",
        "皮厚鬼怪",
        "{1}{R}",
        "Creature — Goblin Shaman",
        "You may pay {0} rather than pay the echo cost for permanents you control.\n{R}: Thick-Skinned Goblin gains protection from red until end of turn.",
        Some(("2", "1")),
    )
}
pub fn pandemonium() -> CardFace {
    card(
        "Pandemonium",
        "大混亂",
        "{3}{R}",
        "Enchantment",
        "Whenever a creature comes into play, that creature's controller may have it deal damage equal to its power to target creature or player of his or her choice.",
        None,
    )
}
pub fn weatherseed_totem() -> CardFace {
    card(
        "Weatherseed Totem",
        "晴苗圖騰像",
        "{3}",
        "Artifact",
        "{T}: Add {G} to your mana pool.\n{2}{G}{G}{G}: Weatherseed Totem becomes a 5/3 green Treefolk artifact creature with trample until end of turn.\nWhen Weatherseed Totem is put into a graveyard from play, if it was a creature, return this card to its owner's hand.",
        None,
    )
}
pub fn strength_in_numbers() -> CardFace {
    card(
        "Strength in Numbers",
        "人多力量大",
        "{1}{G}",
        "Instant",
        "Until end of turn, target creature gains trample and gets +X/+X, where X is the number of attacking creatures.",
        None,
    )
}
pub fn momentary_blink() -> CardFace {
    card(
        "Momentary Blink",
        "瞬時閃動",
        "{1}{W}",
        "Instant",
        "Remove target creature you control from the game, then return it to play under its owner's control.\nFlashback {3}{U}",
        None,
    )
}
pub fn hypergenesis() -> CardFace {
    let mut c = card(
        "Hypergenesis",
        "多重創生",
        "",
        "Sorcery",
        "Hypergenesis is green.\nSuspend 3—{1}{G}{G}\nStarting with you, each player may put an artifact, creature, enchantment, or land card from his or her hand into play. Repeat this process until no one puts a card into play.",
        None,
    );
    c.colors = vec![Colour::Green];
    c
}
pub fn bogardan_hellkite() -> CardFace {
    card(
        "Bogardan Hellkite",
        "博卡登殘虐者",
        "{6}{R}{R}",
        "Creature — Dragon",
        "Flash\nFlying\nWhen Bogardan Hellkite comes into play, it deals 5 damage divided as you choose among any number of target creatures and/or players.",
        Some(("5", "5")),
    )
}
pub fn saproling() -> CardFace {
    token(
        "Saproling",
        "腐生物",
        Colour::Green,
        "Creature — Saproling",
        ("1", "1"),
        "",
    )
}
pub fn scion_of_the_ur_dragon() -> CardFace {
    card(
        "Scion of the Ur-Dragon",
        "太初龍後裔",
        "{W}{U}{B}{R}{G}",
        "Legendary Creature — Dragon Avatar",
        "Flying\n{2}: Search your library for a Dragon card and put it into your graveyard. If you do, Scion of the Ur-Dragon becomes a copy of that card until end of turn. Then shuffle your library.",
        Some(("4", "4")),
    )
}

fn turn(
    number: u32,
    active: usize,
    step: Step,
    deciding: Option<usize>,
    decision: &str,
) -> TurnInfo {
    TurnInfo {
        number,
        active_player: active,
        step,
        deciding_player: deciding,
        decision: (!decision.is_empty()).then(|| decision.to_string()),
    }
}

/// Turn 1, nothing in play.
pub fn empty_board() -> BoardScene {
    let mut alice = PlayerArea::new("Alice", 20);
    alice.hand_count = 7;
    alice.library_count = 33;
    let mut bob = PlayerArea::new("Bob", 20);
    bob.hand_count = 7;
    bob.library_count = 33;
    BoardScene {
        viewer: Some(0),
        players: vec![alice, bob],
        stack: vec![],
        turn: turn(1, 0, Step::Upkeep, Some(0), "priority"),
        recent_actions: vec![
            "Alice keeps her opening hand.".into(),
            "Bob keeps his opening hand.".into(),
        ],
    }
}

fn tapped(mut c: PermanentCard) -> PermanentCard {
    c.tapped = true;
    c
}

/// A typical mid-game board in combat, with a stack of two spells, attachments, counters, a
/// face-down creature, a token and a suspended card. Alice (player 0) is the viewer.
pub fn midgame_board() -> BoardScene {
    let mut alice = PlayerArea::new("Alice", 14);
    alice.hand_count = 3;
    alice.library_count = 26;
    alice.graveyard_count = 4;
    alice.exile_count = 1;
    alice.graveyard_top = Some(ashcoat_bear());
    let mut pools = PermanentCard::new(6, calciform_pools());
    pools.counters.push(Counter {
        kind: "storage".into(),
        count: 2,
    });
    let mut cavalry = PermanentCard::new(10, benalish_cavalry());
    cavalry.blocking = vec![30];
    let mut morph = PermanentCard::face_down(12, Some(brine_elemental()));
    morph.summoning_sick = true;
    let mut avenger = PermanentCard::new(11, serra_avenger());
    avenger.power_toughness = Some((5, 5));
    let mut guide = PermanentCard::new(14, griffin_guide());
    guide.attached_to = Some(11);
    let mut detain = PermanentCard::new(15, detainment_spell());
    detain.attached_to = Some(33);
    alice.battlefield = vec![
        tapped(PermanentCard::new(1, plains())),
        tapped(PermanentCard::new(2, plains())),
        PermanentCard::new(3, plains()),
        PermanentCard::new(4, island()),
        PermanentCard::new(5, island()),
        pools,
        avenger,
        cavalry,
        morph,
        PermanentCard::new(13, plated_pegasus()),
        guide,
        detain,
    ];

    let mut bob = PlayerArea::new("Bob", 17);
    bob.hand_count = 2;
    bob.library_count = 27;
    bob.graveyard_count = 3;
    bob.mana_pool = "{G}".into();
    bob.suspended = vec![SuspendedCard {
        face: hypergenesis(),
        time_counters: 2,
    }];
    let mut gargoyle = tapped(PermanentCard::new(30, basalt_gargoyle()));
    gargoyle.attacking = true;
    gargoyle.damage = 2;
    let mut sap = tapped(PermanentCard::new(31, saproling()));
    sap.attacking = true;
    let mut thallid = PermanentCard::new(32, sporesower_thallid());
    thallid.counters.push(Counter {
        kind: "spore".into(),
        count: 2,
    });
    let mut goblin = PermanentCard::new(33, thick_skinned_goblin());
    goblin.summoning_sick = true;
    bob.battlefield = vec![
        tapped(PermanentCard::new(20, mountain())),
        tapped(PermanentCard::new(21, mountain())),
        tapped(PermanentCard::new(22, mountain())),
        tapped(PermanentCard::new(23, forest())),
        PermanentCard::new(24, forest()),
        PermanentCard::new(25, forest()),
        gargoyle,
        sap,
        thallid,
        goblin,
        PermanentCard::new(34, pandemonium()),
        PermanentCard::new(35, weatherseed_totem()),
    ];

    BoardScene {
        viewer: Some(0),
        players: vec![alice, bob],
        stack: vec![
            StackItem {
                id: 40,
                controller: 1,
                kind: StackKind::Spell,
                face: Some(strength_in_numbers()),
                text: String::new(),
                targets: vec![TargetRef::Permanent(30)],
            },
            StackItem {
                id: 41,
                controller: 0,
                kind: StackKind::Spell,
                face: Some(momentary_blink()),
                text: String::new(),
                targets: vec![TargetRef::Permanent(10)],
            },
        ],
        turn: turn(
            7,
            1,
            Step::DeclareBlockers,
            Some(1),
            "priority: respond or pass",
        ),
        recent_actions: vec![
            "Bob attacks with Basalt Gargoyle and Saproling.".into(),
            "Alice blocks Basalt Gargoyle with Benalish Cavalry.".into(),
            "Bob casts Strength in Numbers targeting Basalt Gargoyle.".into(),
            "Alice casts Momentary Blink targeting Benalish Cavalry.".into(),
        ],
    }
}

/// 40 or more permanents a side.
pub fn crowded_board() -> BoardScene {
    let mut scene = midgame_board();
    scene.stack.clear();
    scene.turn = turn(14, 0, Step::PrecombatMain, Some(0), "priority");
    let creature_pool = [
        ashcoat_bear(),
        basalt_gargoyle(),
        benalish_cavalry(),
        serra_avenger(),
        plated_pegasus(),
        sporesower_thallid(),
        thick_skinned_goblin(),
        bogardan_hellkite(),
        scion_of_the_ur_dragon(),
    ];
    let mut id = 100;
    for (pi, player) in scene.players.iter_mut().enumerate() {
        player.battlefield.clear();
        let lands: [(CardFace, usize, usize); 4] = if pi == 0 {
            [
                (plains(), 5, 3),
                (island(), 4, 2),
                (swamp(), 1, 0),
                (calciform_pools(), 1, 0),
            ]
        } else {
            [
                (forest(), 5, 4),
                (mountain(), 4, 1),
                (swamp(), 1, 1),
                (calciform_pools(), 1, 0),
            ]
        };
        for (face, untapped, tapped_n) in lands {
            for k in 0..untapped + tapped_n {
                let mut c = PermanentCard::new(id, face.clone());
                c.tapped = k >= untapped;
                player.battlefield.push(c);
                id += 1;
            }
        }
        for k in 0..14 {
            let mut c =
                PermanentCard::new(id, creature_pool[(k + pi) % creature_pool.len()].clone());
            c.tapped = k % 4 == 1;
            if k % 5 == 2 {
                c.counters.push(Counter {
                    kind: "+1/+1".into(),
                    count: 1 + k as u32 % 3,
                });
            }
            c.summoning_sick = k == 13;
            player.battlefield.push(c);
            id += 1;
        }
        for _ in 0..4 {
            player.battlefield.push(PermanentCard::new(id, saproling()));
            id += 1;
        }
        let host = id - 5;
        for (k, face) in [
            griffin_guide(),
            detainment_spell(),
            pandemonium(),
            weatherseed_totem(),
        ]
        .into_iter()
        .enumerate()
        {
            let mut c = PermanentCard::new(id, face);
            if k < 2 {
                c.attached_to = Some(host - k as u32);
            }
            player.battlefield.push(c);
            id += 1;
        }
        for k in 0..3 {
            player.battlefield.push(PermanentCard::face_down(
                id,
                (pi == 0).then(brine_elemental),
            ));
            if k == 0
                && let Some(c) = player.battlefield.last_mut()
            {
                c.tapped = true;
            }
            id += 1;
        }
    }
    scene.recent_actions = vec![
        "Alice untaps and draws.".into(),
        "Alice plays Plains.".into(),
    ];
    scene
}

/// Alice's hand in the middle of the game.
pub fn sample_hand() -> HandScene {
    let cards = [
        (ashcoat_bear(), true),
        (forest(), true),
        (bogardan_hellkite(), false),
        (momentary_blink(), true),
        (hypergenesis(), false),
        (calciform_pools(), true),
        (scion_of_the_ur_dragon(), false),
    ];
    HandScene {
        owner: "Alice".into(),
        cards: cards
            .into_iter()
            .map(|(face, playable)| HandCard { face, playable })
            .collect(),
    }
}

/// A card with long rules text, for the card image.
pub fn sample_card() -> CardFace {
    scion_of_the_ur_dragon()
}
