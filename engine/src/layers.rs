//! Characteristics after continuous effects (rule 418.5; rules.md Section 3).
//!
//! Built: printed characteristics; static abilities of permanents ("Sliver creatures get
//! +1/+1", "have double strike"), applied continuously to whatever matches now (418.4);
//! effects of resolved spells and abilities locked to their objects (418.3b) with durations
//! "until end of turn": modify (+P/+T), set (base P/T becomes N/M) and switch; counters.
//! Power/toughness follow each ruleset's sublayers (Δ19):
//! - classic 6a CDA, 6b all resolved effects (setting and modifying) in timestamp order,
//!   6c counters, 6d static modifications, 6e switching;
//! - modern 7a CDA, 7b setting, 7c all modifications (static or resolved), 7d counters,
//!   7e switching.
//!
//! Layers 2-6 (`Game::chars`): control (applied eagerly to `Object::controller`), type,
//! colour (classic: together with abilities in layer 5) and abilities, from static abilities
//! of permanents and from effects of resolved spells (`CharEffect`, locked to their objects,
//! with durations). In each layer characteristic-defining abilities apply first, then the
//! rest in timestamp order unless one depends on another (418.5c-d: applying the other
//! changes whether it exists or what it applies to; loops fall back to timestamps).
//! Layer 1 (copy) is `Object::copy_of`: an object that entered as a copy of a card has that
//! card's copiable values, and `Game::def` returns them (Vesuva). Copy effects that begin
//! later or end (Vesuvan Shapeshifter, Scion of the Ur-Dragon) are in `copy.rs`.
//! Layer 3 (text): resolved "change the text" effects (`TextWord`s, locked to their object,
//! no duration) rewrite the object's static abilities (filters, land types, colours,
//! granted keywords, P/T-defining counts) and printed keywords (landwalk, protection) before
//! layers 4-7 read them. A word anywhere else in the object's text (activated or triggered
//! abilities, type line) is not rewritten, so such a permanent can't be chosen
//! (`text_changeable:WORD`, `Game::text_change_supported`).
//! Land types (212.6e): "lands you control are Plains" / "becomes a Forest" replace the land
//! types in layer 4 and take away the land's rules text; it then has the intrinsic mana
//! ability of each basic land type it has (`Game::ability`, index `INTRINSIC_ABILITY + c`).

use crate::cards::{ActivatedAbility, CardDef, CdaPt, INTRINSIC_ABILITY, PtValue};
pub use crate::effects::Duration;
use crate::game::Game;
use crate::ids::{CardId, ObjectId, PlayerId};
use crate::keywords::Keyword;
use crate::mana::{Color, ColorSet};
use crate::types::{BASIC_LAND_TYPES, CardType};
pub use crate::types::{TextWord, land_type_of};
use crate::zones::ZoneKind;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// What a resolved P/T effect does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PtChange {
    /// +P/+T.
    Modify(i32, i32),
    /// Base power and toughness become P/T.
    Set(i32, i32),
    /// Power and toughness are switched.
    Switch,
    /// Only base power becomes N (a setting effect of one characteristic: Vhati il-Dal).
    SetPower(i32),
    /// Only base toughness becomes N.
    SetToughness(i32),
}

/// A P/T effect of a resolved spell or ability on one object, until end of turn (or, with
/// `indefinite`, for as long as the object stays: Opal Guardian's "becomes a 3/4").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PtEffect {
    pub object: ObjectId,
    pub change: PtChange,
    pub timestamp: u32,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub indefinite: bool,
}

impl Game {
    /// `def`: the card of `id` (its face now), looked up once by the caller.
    fn printed_pt(&self, id: ObjectId, def: &CardDef) -> Option<(i32, i32)> {
        // 7a / 6a: a characteristic-defining ability sets it (in every zone), unless the
        // object lost its abilities.
        // Classic: outside the battlefield only type and colour CDAs work (405.2a, Δ18).
        if let Some(cda) = def.statics.iter().find_map(|st| st.cda_pt.as_ref())
            && self.has_own_abilities(id)
            && (self.is_on_battlefield(id) || self.ruleset.pt_cda_everywhere())
        {
            let tc = self.text_changes(id);
            let cda = match cda {
                CdaPt::LandsOfTypeOrDefenders(t) if !tc.is_empty() => {
                    &CdaPt::LandsOfTypeOrDefenders(map_land_type(t, &tc))
                }
                c => c,
            };
            let n = self.cda_pt_value(id, cda);
            return Some((n, n));
        }
        // An X/X token (or a copy of one): the P/T it was created with.
        if let Some(o) = self.obj(id)
            && !o.face_down
            && let Some(pt) = if o.copy_of.is_some() {
                o.copy_pt
            } else {
                o.token_pt
            }
        {
            return Some(pt);
        }
        // "*" is 0 where no characteristic-defining ability sets it.
        let v = |x: Option<PtValue>| match x {
            Some(PtValue::Fixed(n)) => n,
            Some(PtValue::StarPlus(n)) => n,
            _ => 0,
        };
        if def.power.is_none() && def.toughness.is_none() {
            // A noncreature that became a creature has P/T 0/0 before its effects (a
            // setting effect usually gives it one).
            return (self.layered && self.is_creature(id)).then_some((0, 0));
        }
        Some((v(def.power), v(def.toughness)))
    }

    fn cda_pt_value(&self, id: ObjectId, cda: &CdaPt) -> i32 {
        match cda {
            CdaPt::CountersOnIt(k) => self.obj(id).map_or(0, |o| o.counters.get(k) as i32),
            CdaPt::FaceDownCreatures => self
                .battlefield
                .iter()
                .filter(|b| self.obj(**b).is_some_and(|o| o.face_down) && self.is_creature(**b))
                .count() as i32,
            CdaPt::YouControl(_)
            | CdaPt::CardsInYourHand
            | CdaPt::PlusOneCountersOnYourCreatures
            | CdaPt::LifeMinusMostOpponent
            | CdaPt::NonbasicLandsInOpponentsGraveyards => self.cda_count_of_controller(id, cda),
            CdaPt::LandsOfTypeOrDefenders(t) => {
                let Some(o) = self.obj(id) else { return 0 };
                let whose = self
                    .combat
                    .as_ref()
                    .and_then(|c| c.attackers.iter().find(|a| a.id == id))
                    .map_or(o.controller, |a| a.defender);
                self.battlefield
                    .iter()
                    .filter(|&&l| {
                        self.obj(l).is_some_and(|x| x.controller == whose)
                            && self.has_type(l, CardType::Land)
                            && self.has_subtype(l, t)
                    })
                    .count() as i32
            }
        }
    }

    /// The CDAs that count something of the object's controller (its owner outside the
    /// battlefield): Benalish Commander, Aeon Chronicler, Fungal Behemoth, Roiling Horror,
    /// Detritivore.
    fn cda_count_of_controller(&self, id: ObjectId, cda: &CdaPt) -> i32 {
        let Some(o) = self.obj(id) else { return 0 };
        let me = o.controller;
        match cda {
            CdaPt::YouControl(f) => self
                .battlefield_of(me)
                .filter(|b| self.matches_filter(b.id, f, me))
                .count() as i32,
            CdaPt::CardsInYourHand => self.player(me).hand.len() as i32,
            CdaPt::PlusOneCountersOnYourCreatures => self
                .battlefield_of(me)
                .filter(|b| self.is_creature(b.id))
                .map(|b| b.counters.get(&crate::object::CounterKind::PlusOnePlusOne) as i32)
                .sum(),
            CdaPt::LifeMinusMostOpponent => {
                let most = self
                    .opponents(me)
                    .into_iter()
                    .map(|p| self.player(p).life)
                    .max()
                    .unwrap_or(0);
                self.player(me).life - most
            }
            CdaPt::NonbasicLandsInOpponentsGraveyards => self
                .opponents(me)
                .into_iter()
                .flat_map(|p| self.player(p).graveyard.iter())
                .filter(|c| {
                    self.obj(**c).is_some_and(|x| {
                        let d = self.catalog().get(x.card);
                        d.has_type(CardType::Land)
                            && !d.supertypes.contains(&crate::types::Supertype::Basic)
                    })
                })
                .count() as i32,
            _ => 0,
        }
    }

    /// Static-ability P/T modifications that apply to `id` now, with their timestamps.
    fn static_pt_mods(&self, id: ObjectId) -> Vec<(u32, i32, i32)> {
        let mut out = Vec::new();
        if !self.has_statics {
            return out;
        }
        if self.layered {
            // P/T statics exist only if their source kept its abilities through layer 6, and
            // apply to what matches after layers 1-6.
            if self.obj(id).is_none_or(|o| o.zone != ZoneKind::Battlefield) {
                return out;
            }
            let table = self.battlefield_table();
            let Some(xi) = table.index(id) else {
                return out;
            };
            if self.obj(id).is_none_or(|o| o.zone != ZoneKind::Battlefield) {
                return out;
            }
            self.granted_pump_mods(id, &table.chars[xi], &table, &mut out);
            for (si, &src) in table.ids.iter().enumerate() {
                let Some(s) = self.obj(src) else { continue };
                if s.zone != ZoneKind::Battlefield || !table.chars[si].own_abilities {
                    continue;
                }
                let statics = &self.catalog().get(s.face()).statics;
                // Text changes never touch P/T numbers: a source without them is skipped
                // before its text is read.
                if !statics.iter().any(|st| st.power != 0 || st.toughness != 0) {
                    continue;
                }
                let tc = self.text_changes(src);
                for st in statics {
                    let st = static_with_text(st, &tc);
                    if (st.power != 0 || st.toughness != 0)
                        && self.static_reaches(&st, src, s.controller, id, &table.chars[xi], &table)
                    {
                        let (p, t) = self.obj(id).map_or((0, 0), |o| st.pt_for(&o.counters));
                        out.push((s.timestamp, p, t));
                    }
                }
            }
            return out;
        }
        for &src in &self.battlefield {
            let Some(s) = self.obj(src) else { continue };
            for st in &self.catalog().get(s.face()).statics {
                if (st.power != 0 || st.toughness != 0) && self.static_applies(src, st, id) {
                    let (p, t) = self.obj(id).map_or((0, 0), |o| st.pt_for(&o.counters));
                    out.push((s.timestamp, p, t));
                }
            }
        }
        out
    }

    /// The P/T abilities statics granted `id` (its characteristics after layer 6: an ability
    /// lost later is gone): Sedge Sliver's "This creature gets +1/+1 as long as you control a
    /// Swamp", whose "you" is `id`'s controller.
    fn granted_pump_mods(
        &self,
        id: ObjectId,
        c: &Chars,
        table: &Table,
        out: &mut Vec<(u32, i32, i32)>,
    ) {
        let Some(me) = self.obj(id).map(|o| o.controller) else {
            return;
        };
        for &(card, index) in &c.granted_pumps {
            let Some(g) = self
                .catalog()
                .get(card)
                .statics
                .get(index as usize)
                .and_then(|st| st.grant_pump.as_ref())
            else {
                continue;
            };
            if self.controls_land_type(me, &g.if_you_control, Some(table)) {
                out.push((0, g.power, g.toughness));
            }
        }
    }

    /// The objects whose keyword-granting static abilities may function now: the
    /// permanents, then (in games with such a card) the cards in graveyards with a static
    /// that functions there (Valor).
    pub(crate) fn static_sources(&self) -> impl Iterator<Item = ObjectId> + '_ {
        let graveyards = self.has_graveyard_statics.then(|| {
            self.players
                .iter()
                .flat_map(|p| p.graveyard.iter().copied())
        });
        self.battlefield.iter().copied().chain(
            graveyards
                .into_iter()
                .flatten()
                .filter(|&id| self.has_graveyard_static(id)),
        )
    }

    /// The static sources with a static ability that may grant keywords (`GrantSources`).
    fn keyword_grant_sources(&self) -> smallvec::SmallVec<[ObjectId; 8]> {
        // A permanent leaving takes its new timestamp only after it is off the battlefield
        // (its leave abilities look at the battlefield in between): the zones' sizes are
        // part of the key.
        let graveyards = if self.has_graveyard_statics {
            self.players.iter().map(|p| p.graveyard.len()).sum()
        } else {
            0
        };
        let key = (self.next_timestamp, self.battlefield.len(), graveyards);
        if let Ok(mut guard) = self.grant_sources.0.try_lock() {
            if !matches!(guard.as_ref(), Some((k, _)) if *k == key) {
                *guard = Some((key, self.list_keyword_grant_sources()));
            }
            if let Some((_, v)) = guard.as_ref() {
                debug_assert_eq!(
                    v,
                    &self.list_keyword_grant_sources(),
                    "the keyword grant sources changed under the same key"
                );
                return smallvec::SmallVec::from_slice(v);
            }
        }
        smallvec::SmallVec::from_vec(self.list_keyword_grant_sources())
    }

    fn list_keyword_grant_sources(&self) -> Vec<ObjectId> {
        let catalog = self.catalog();
        self.static_sources()
            .filter(|&src| {
                self.obj(src).is_some_and(|o| {
                    catalog.get(o.face()).statics.iter().any(|st| {
                        st.affects.keyword.is_none()
                            && (!st.grants.is_empty() || st.protection_from_chosen_color)
                    })
                })
            })
            .collect()
    }

    /// Whether `id`'s card has a static ability that functions from a graveyard.
    fn has_graveyard_static(&self, id: ObjectId) -> bool {
        self.obj(id).is_some_and(|o| {
            self.catalog()
                .get(o.face())
                .statics
                .iter()
                .any(|st| st.from_graveyard())
        })
    }

    /// Whether `me` controls a land of basic land type `land`: read from `table` during a
    /// layer computation (its land types after layer 4), else from the permanents.
    pub(crate) fn controls_land_type(
        &self,
        me: PlayerId,
        land: &str,
        table: Option<&Table>,
    ) -> bool {
        let mine = |id: ObjectId| self.obj(id).is_some_and(|o| o.controller == me);
        match table {
            Some(t) => t.ids.iter().zip(&t.chars).any(|(&id, c)| {
                mine(id) && c.has_type(CardType::Land) && c.has_subtype(self.catalog(), land)
            }),
            None => self
                .battlefield
                .iter()
                .any(|&id| mine(id) && self.is_land(id) && self.has_subtype(id, land)),
        }
    }

    /// Whether a static ability of `src` affects `id` (418.4: whatever matches now).
    pub(crate) fn static_applies(
        &self,
        src: ObjectId,
        st: &crate::cards::StaticAbility,
        id: ObjectId,
    ) -> bool {
        let Some(s) = self.obj(src) else { return false };
        if st.other && src == id {
            return false;
        }
        if st.itself && src != id {
            return false;
        }
        if st.enchanted && s.attached_to != Some(id) {
            return false;
        }
        // A card in a graveyard has only the statics that function there (Valor), for its
        // owner; a permanent has only the others.
        if (s.zone == ZoneKind::Graveyard) != st.from_graveyard() {
            return false;
        }
        let me = if st.from_graveyard() {
            s.owner
        } else {
            s.controller
        };
        if !self.static_condition_holds(st, src, me, None) {
            return false;
        }
        self.is_on_battlefield(id)
            && self.matches_filter(id, &st.affects, me)
            && self.chosen_color_ok(&st.affects, Some(src), id)
    }

    /// Power and toughness with every applicable effect (signed: rule 104.2 clamps on use).
    pub fn power_toughness(&self, id: ObjectId) -> Option<(i32, i32)> {
        let o = self.obj(id)?;
        self.power_toughness_of(o, self.catalog().get(o.face()))
    }

    /// [`Game::power_toughness`] of object `o` whose card (face now) is `def`, for a caller
    /// that has both at hand (state-based actions look at every creature).
    pub(crate) fn power_toughness_of(
        &self,
        o: &crate::object::Object,
        def: &CardDef,
    ) -> Option<(i32, i32)> {
        let id = o.id;
        let (mut p, mut t) = self.printed_pt(id, def)?;
        if !self.has_statics && !self.pt_effects.iter().any(|e| e.object == id) {
            // Only counters change it (the same in both layer orders): the common case, and
            // state-based actions ask it of every creature at every check.
            let (cp, ct) = counters_pt(&o.counters);
            return Some((p + cp, t + ct));
        }
        let mut resolved: Vec<&PtEffect> =
            self.pt_effects.iter().filter(|e| e.object == id).collect();
        resolved.sort_by_key(|e| e.timestamp);
        let statics = self.static_pt_mods(id);
        let (cp, ct) = counters_pt(&o.counters);
        let mut switches = 0;
        if self.ruleset.layers_2006() {
            // 6b: setting and modifying effects of resolved spells, in timestamp order.
            for e in &resolved {
                match e.change {
                    PtChange::Set(a, b) => (p, t) = (a, b),
                    PtChange::SetPower(a) => p = a,
                    PtChange::SetToughness(b) => t = b,
                    PtChange::Modify(a, b) => (p, t) = (p + a, t + b),
                    PtChange::Switch => switches += 1,
                }
            }
            // 6c: counters; 6d: static modifications.
            (p, t) = (p + cp, t + ct);
            for (_, a, b) in &statics {
                (p, t) = (p + a, t + b);
            }
        } else {
            // 7b: setting effects; 7c: every modification; 7d: counters.
            for e in &resolved {
                match e.change {
                    PtChange::Set(a, b) => (p, t) = (a, b),
                    PtChange::SetPower(a) => p = a,
                    PtChange::SetToughness(b) => t = b,
                    PtChange::Modify(..) | PtChange::Switch => {}
                }
            }
            for e in &resolved {
                match e.change {
                    PtChange::Modify(a, b) => (p, t) = (p + a, t + b),
                    PtChange::Switch => switches += 1,
                    PtChange::Set(..) | PtChange::SetPower(_) | PtChange::SetToughness(_) => {}
                }
            }
            for (_, a, b) in &statics {
                (p, t) = (p + a, t + b);
            }
            (p, t) = (p + cp, t + ct);
        }
        // 6e / 7e: switching last.
        if switches % 2 == 1 {
            (p, t) = (t, p);
        }
        Some((p, t))
    }
    pub fn power(&self, id: ObjectId) -> i32 {
        self.power_toughness(id).map_or(0, |x| x.0)
    }
    pub fn toughness(&self, id: ObjectId) -> i32 {
        self.power_toughness(id).map_or(0, |x| x.1)
    }
    /// Printed keywords plus those granted by static abilities and (through the layer
    /// computation) by resolved effects (layer 6 / classic 5).
    pub fn has_keyword(&self, id: ObjectId, k: Keyword) -> bool {
        if self.layered {
            return self.with_chars(id, |c| c.keywords.contains(k)) == Some(true);
        }
        if self.def(id).is_some_and(|d| d.keywords.contains(&k)) {
            return true;
        }
        if !self.char_effects.is_empty() && self.gained_keywords(id).contains(k) {
            return true;
        }
        // A static that grants a keyword only to objects that already have it (Cavalry
        // Master) adds an instance, never the first one: skipped here, counted by
        // `keyword_instances`, which keeps the filter from asking itself.
        self.has_statics
            && self.keyword_grant_sources().into_iter().any(|src| {
                self.obj(src).is_some_and(|s| {
                    self.catalog().get(s.face()).statics.iter().any(|st| {
                        st.affects.keyword.is_none()
                            && self.static_grants_keyword(src, st, k)
                            && self.static_applies(src, st, id)
                    })
                })
            })
    }
    /// All keywords the object has, computed once (for code that asks about many).
    pub fn keyword_set(&self, id: ObjectId) -> KeywordSet {
        if self.layered {
            return self.with_chars(id, |c| c.keywords).unwrap_or_default();
        }
        self.unlayered_keyword_set(id, None)
    }

    /// The keywords a static ability of `src` grants: its `grants`, and protection from the
    /// colour `src` chose as it entered (Pentarch Ward).
    pub(crate) fn static_grants(
        &self,
        src: ObjectId,
        st: &crate::cards::StaticAbility,
    ) -> KeywordSet {
        let mut set = KeywordSet::of(&st.grants);
        if st.protection_from_chosen_color
            && let Some(c) = self.chosen_color(src)
        {
            set.insert(Keyword::protection_from_color(c));
        }
        set
    }

    /// Whether a static ability of `src` grants `k` (see [`Game::static_grants`]).
    fn static_grants_keyword(
        &self,
        src: ObjectId,
        st: &crate::cards::StaticAbility,
        k: Keyword,
    ) -> bool {
        st.grants.contains(&k)
            || (st.protection_from_chosen_color
                && self
                    .chosen_color(src)
                    .is_some_and(|c| Keyword::protection_from_color(c) == k))
    }

    /// The colours `id` has protection from leaving out the grants of `spared`'s statics
    /// that say "this effect doesn't remove ~" (Pentarch Ward, `sba.rs` `aura_illegal`).
    pub(crate) fn protection_colors_sparing(
        &self,
        id: ObjectId,
        spared: ObjectId,
    ) -> crate::mana::ColorSet {
        let ks = if self.layered {
            let t = self.layer_table_sparing(Some(id), Some(spared));
            t.index(id)
                .and_then(|i| t.chars.get(i))
                .map_or(KeywordSet::default(), |c| c.keywords)
        } else {
            self.unlayered_keyword_set(id, Some(spared))
        };
        let mut from = crate::mana::ColorSet::NONE;
        for k in Keyword::ALL {
            if let Some(c) = k.protection_from()
                && ks.contains(k)
            {
                from.insert(c);
            }
        }
        from
    }

    /// [`Game::keyword_set`] without the layer computation; `spared`: as
    /// [`Game::protection_colors_sparing`].
    fn unlayered_keyword_set(&self, id: ObjectId, spared: Option<ObjectId>) -> KeywordSet {
        let mut set = self
            .def(id)
            .map_or(KeywordSet::default(), |d| KeywordSet::of(&d.keywords))
            .union(self.gained_keywords(id));
        if self.has_statics {
            for src in self.keyword_grant_sources() {
                let Some(s) = self.obj(src) else { continue };
                for st in &self.catalog().get(s.face()).statics {
                    if st.affects.keyword.is_none()
                        && (!st.grants.is_empty() || st.protection_from_chosen_color)
                        && !(st.doesnt_remove_source && spared == Some(src))
                        && self.static_applies(src, st, id)
                    {
                        set = set.union(self.static_grants(src, st));
                    }
                }
            }
        }
        set
    }
    /// Whether the object still has the abilities of its own card (not lost to "loses all
    /// abilities", layer 6 / classic 5).
    pub fn has_own_abilities(&self, id: ObjectId) -> bool {
        !self.layered || self.with_chars(id, |c| c.own_abilities) == Some(true)
    }

    /// How many instances of a keyword the object has (502.3b flanking, 502.12c rampage:
    /// each triggers separately): printed ones, one per applicable static ability, one
    /// per resolved "gains" effect.
    pub fn keyword_instances(&self, id: ObjectId, k: Keyword) -> u32 {
        let printed =
            self.def(id)
                .map_or(0, |d| d.keywords.iter().filter(|x| **x == k).count()) as u32;
        if !self.has_keyword(id, k) {
            // Lost (or never had) it: "loses all abilities" removes every instance.
            return 0;
        }
        let resolved = self
            .char_effects
            .iter()
            .filter(|e| {
                e.objects.contains(&id)
                    && matches!(e.change, CharChange::AddKeywords(ks) if ks.contains(k))
            })
            .count() as u32;
        let mut statics = 0;
        if self.has_statics {
            for src in self.static_sources() {
                let Some(s) = self.obj(src) else { continue };
                for st in &self.catalog().get(s.face()).statics {
                    if self.static_grants_keyword(src, st, k) && self.static_applies(src, st, id) {
                        statics += 1;
                    }
                }
            }
        }
        printed + resolved + statics
    }

    /// A resolved "gains K until end of turn / until end of combat" effect on `objects`
    /// (locked in, 418.3b), in the ability layer.
    pub(crate) fn add_keyword_effect(
        &mut self,
        source: ObjectId,
        controller: PlayerId,
        objects: Vec<ObjectId>,
        keyword: Keyword,
        until: Duration,
    ) {
        if keyword.is_triggered() {
            self.has_triggers = true;
        }
        if keyword == Keyword::Lifelink {
            self.has_lifelink_somewhere = true;
        }
        if objects.is_empty() {
            return;
        }
        // Not `add_char_effect`: gaining a keyword alone does not need the full layer
        // computation (nothing can remove it or depend on it then), so the fast paths of
        // `has_keyword` / `keyword_set` read these effects until something else turns the
        // layered mode on; from then on the layer computation applies them in timestamp
        // order like any other layer-6 effect.
        let timestamp = self.new_timestamp();
        self.char_effects.push(CharEffect {
            timestamp,
            source,
            controller,
            objects,
            change: CharChange::AddKeywords(KeywordSet::of(&[keyword])),
            duration: until,
        });
    }

    /// Keywords gained from resolved effects (the fast path, without layered mode).
    fn gained_keywords(&self, id: ObjectId) -> KeywordSet {
        let mut set = KeywordSet::default();
        for e in &self.char_effects {
            if let CharChange::AddKeywords(ks) = e.change
                && e.objects.contains(&id)
            {
                set = set.union(ks);
            }
        }
        set
    }
    pub fn colors(&self, id: ObjectId) -> ColorSet {
        if self.layered {
            return self.with_chars(id, |c| c.colors).unwrap_or(ColorSet::NONE);
        }
        self.def(id).map_or(ColorSet::NONE, |d| d.colors)
    }
    pub fn has_subtype(&self, id: ObjectId, sub: &str) -> bool {
        if self.layered {
            return self.with_chars(id, |c| c.has_subtype(self.catalog(), sub)) == Some(true);
        }
        self.def(id)
            .is_some_and(|d| d.subtypes.iter().any(|s| s.eq_ignore_ascii_case(sub)))
    }
    pub fn types_of(&self, id: ObjectId) -> Cow<'static, [CardType]> {
        if self.layered {
            return self
                .with_chars(id, |c| c.types.clone())
                .unwrap_or(Cow::Borrowed(&[]));
        }
        Cow::Borrowed(self.def(id).map_or(&[], |d| d.types.as_slice()))
    }
    /// Activated ability `index` of `id` if the object has it now: one of its card's (while
    /// it keeps its own abilities) or, from [`INTRINSIC_ABILITY`], the mana ability of a
    /// basic land type an effect gave it (212.6e).
    pub fn ability(&self, id: ObjectId, index: u8) -> Option<&'static ActivatedAbility> {
        let card = self.obj(id)?.face();
        match index.checked_sub(INTRINSIC_ABILITY) {
            Some(c) => {
                let color = *Color::ALL.get(c as usize)?;
                self.intrinsic_colors(id)
                    .contains(color)
                    .then(|| self.catalog().ability(card, index))
                    .flatten()
            }
            None if index >= crate::cards::GRANTED_CYCLING_ABILITY => {
                self.granted_cycling_ability(id, index)
            }
            None if index >= crate::cards::GRANTED_ABILITY => self
                .granted_ability_indices(id)
                .contains(&index)
                .then(|| self.catalog().ability(card, index))
                .flatten(),
            None if self.has_own_abilities(id) => self.catalog().ability(card, index),
            None => None,
        }
    }

    /// Every activated ability `id` has now, with its index.
    pub fn abilities_of(
        &self,
        id: ObjectId,
    ) -> impl Iterator<Item = (u8, &'static ActivatedAbility)> + 'static {
        let def = self.def(id);
        let own: &'static [ActivatedAbility] = match def {
            Some(d) if self.has_own_abilities(id) => &d.abilities,
            _ => &[],
        };
        let card = def.map(|d| d.id);
        let catalog = self.catalog();
        let granted = self.granted_ability_indices(id);
        own.iter()
            .enumerate()
            .map(|(i, a)| (i as u8, a))
            .chain(self.intrinsic_colors(id).iter().filter_map(move |c| {
                let i = INTRINSIC_ABILITY + c as u8;
                catalog.ability(card?, i).map(|a| (i, a))
            }))
            .chain(
                granted
                    .into_iter()
                    .filter_map(move |i| catalog.ability(card?, i).map(|a| (i, a))),
            )
    }

    /// The ability indices (`GRANTED_ABILITY + k`) of the activated abilities static
    /// abilities grant `id` now ("All Slivers have '{T}: ...'").
    pub(crate) fn granted_ability_indices(&self, id: ObjectId) -> Vec<u8> {
        if !self.layered {
            return Vec::new();
        }
        // Most permanents are granted nothing: asked without copying the list.
        let grants = self
            .with_chars(id, |c| {
                (!c.granted_abilities.is_empty()).then(|| c.granted_abilities.clone())
            })
            .flatten()
            .unwrap_or_default();
        let catalog = self.catalog();
        grants
            .into_iter()
            .flat_map(|(card, st)| catalog.granted_ability_indices(card, st))
            .collect()
    }

    /// The colours of the intrinsic mana abilities an effect gave `id` by setting its land
    /// types (212.6e); printed basic land types' abilities are among its card's own.
    pub(crate) fn intrinsic_colors(&self, id: ObjectId) -> ColorSet {
        if !self.layered {
            return ColorSet::NONE;
        }
        self.with_chars(id, |c| {
            if !c.land_types_set {
                return ColorSet::NONE;
            }
            BASIC_LAND_TYPES
                .iter()
                .filter(|(t, _)| c.subtypes.iter().any(|s| s == t))
                .map(|(_, col)| *col)
                .collect()
        })
        .unwrap_or(ColorSet::NONE)
    }

    /// Layer 3: the text changes of `id` in timestamp order (from resolved effects locked to
    /// it; none of the card pool's static abilities change text).
    pub(crate) fn text_changes(&self, id: ObjectId) -> TextChanges {
        if self.char_effects.is_empty() {
            return Vec::new();
        }
        let mut v: Vec<(u32, TextWord, TextWord)> = self
            .char_effects
            .iter()
            .filter_map(|e| match e.change {
                CharChange::ChangeText { from, to } if e.objects.contains(&id) => {
                    Some((e.timestamp, from, to))
                }
                _ => None,
            })
            .collect();
        v.sort_by_key(|x| x.0);
        v.into_iter().map(|(_, a, b)| (a, b)).collect()
    }

    /// Whether the engine can change `word` in `id`'s text: it may appear only in the
    /// object's static abilities and keywords (the parts layer 3 rewrites), not in its
    /// activated or triggered abilities or its type line. A text-changing spell can only
    /// target such a permanent (`text_changeable:WORD`), so nothing is misplayed.
    pub fn text_change_supported(&self, id: ObjectId, word: TextWord) -> bool {
        let Some(d) = self.def(id) else { return false };
        let w = word.to_string().to_lowercase();
        if d.subtypes.iter().any(|s| s.eq_ignore_ascii_case(&w)) {
            return false;
        }
        let mut rest = d.text.to_lowercase();
        for st in &d.statics {
            rest = rest.replace(&st.text.to_lowercase(), "");
        }
        for k in &d.keywords {
            rest = rest.replace(&k.name().to_lowercase(), "");
        }
        !rest.contains(&w)
    }

    /// The triggered abilities granted to a permanent by static abilities.
    pub(crate) fn granted_triggers(&self, id: ObjectId) -> Vec<(CardId, u8)> {
        if !self.layered {
            return Vec::new();
        }
        self.with_chars(id, |c| c.granted_triggers.clone())
            .unwrap_or_default()
    }
}

// ----- layers 2-6: types, abilities, control (the full computation) ----------------------------

/// A set of keywords (bit i = `Keyword::ALL[i]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct KeywordSet(pub u64);

impl KeywordSet {
    /// Bit `i` for `Keyword::ALL[i]`: the enum's order is `ALL`'s (a unit test checks it).
    fn bit(k: Keyword) -> u64 {
        let i = k as usize;
        debug_assert!(Keyword::ALL.get(i) == Some(&k), "Keyword::ALL out of order");
        1u64 << i.min(63)
    }
    pub fn of(ks: &[Keyword]) -> Self {
        KeywordSet(ks.iter().fold(0, |a, k| a | Self::bit(*k)))
    }
    pub fn contains(self, k: Keyword) -> bool {
        self.0 & Self::bit(k) != 0
    }
    pub fn insert(&mut self, k: Keyword) {
        self.0 |= Self::bit(k);
    }
    pub fn union(self, o: KeywordSet) -> KeywordSet {
        KeywordSet(self.0 | o.0)
    }
    pub fn minus(self, o: KeywordSet) -> KeywordSet {
        KeywordSet(self.0 & !o.0)
    }
}

/// An object's characteristics after layers 1-6 (power and toughness are layer 7, computed
/// by [`Game::power_toughness`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chars {
    pub types: Cow<'static, [CardType]>,
    pub subtypes: Cow<'static, [String]>,
    /// Every creature type (Mistform Ultimus), in addition to `subtypes`' other types.
    pub all_creature_types: bool,
    pub colors: ColorSet,
    pub keywords: KeywordSet,
    /// Whether it still has the abilities of its own card (false after "loses all
    /// abilities"; abilities gained later are in `keywords` / `granted_triggers`).
    pub own_abilities: bool,
    /// Triggered and activated abilities granted by static abilities: (granter card,
    /// static index); the object has that static's `grant_triggers` and `grant_abilities`.
    pub granted_triggers: Vec<(CardId, u8)>,
    /// Activated abilities granted by static abilities: (granter card, static index).
    pub granted_abilities: Vec<(CardId, u8)>,
    /// P/T static abilities granted by static abilities (Sedge Sliver's "This creature gets
    /// +1/+1 as long as you control a Swamp"): (granter card, static index), one entry per
    /// granting static (two Sedge Slivers: two abilities).
    pub granted_pumps: Vec<(CardId, u8)>,
    /// An effect set its land types (212.6e): its rules text is gone and it has the
    /// intrinsic mana ability of each basic land type in `subtypes`.
    pub land_types_set: bool,
}

impl Chars {
    pub fn has_type(&self, t: CardType) -> bool {
        self.types.contains(&t)
    }
    pub fn has_subtype(&self, catalog: &crate::cards::Catalog, sub: &str) -> bool {
        self.subtypes.iter().any(|s| s.eq_ignore_ascii_case(sub))
            || (self.all_creature_types
                && self.has_type(CardType::Creature)
                && catalog.creature_type(sub).is_some())
    }
}

/// What a continuous effect of a resolved spell or ability does (layers 2-6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum CharChange {
    /// Layer 2: gain control.
    Control(PlayerId),
    /// Layer 4: its creature types become these ("becomes a Goblin").
    SetCreatureTypes(Vec<String>),
    /// Layer 4: it becomes a creature with these creature types in addition to its other
    /// types ("becomes a 4/4 red Giant artifact creature").
    BecomeCreature(Vec<String>),
    /// Layer 4: it becomes a creature with these creature types and no other card type or
    /// subtype (Opal Guardian: "becomes a 3/4 Gargoyle creature", no longer an enchantment).
    BecomeOnlyCreature(Vec<String>),
    /// Layer 4: its land types become these basic land types (212.6e: "target land becomes
    /// a Forest").
    SetLandTypes(Vec<String>),
    /// Layer 3: every instance of one word in its text becomes another (Mind Bend).
    ChangeText { from: TextWord, to: TextWord },
    /// Layer 5: its colours become these ("becomes white").
    SetColors(ColorSet),
    /// Layer 6 (classic 5): loses all abilities.
    LoseAllAbilities,
    /// Layer 6 (classic 5): gains keywords.
    AddKeywords(KeywordSet),
    /// Layer 6 (classic 5): loses these keywords ("loses flying": Goblin Skycutter).
    RemoveKeywords(KeywordSet),
    /// Layer 4: these creature types in addition to its other types ("it's a Zombie in
    /// addition to its other creature types": Lim-Dûl the Necromancer).
    AddCreatureTypes(Vec<String>),
}

impl CharChange {
    fn layer(&self) -> Layer {
        match self {
            CharChange::Control(_) => Layer::Control,
            CharChange::ChangeText { .. } => Layer::Text,
            CharChange::SetCreatureTypes(_)
            | CharChange::BecomeCreature(_)
            | CharChange::BecomeOnlyCreature(_)
            | CharChange::SetLandTypes(_)
            | CharChange::AddCreatureTypes(_) => Layer::Type,
            CharChange::SetColors(_) => Layer::Color,
            CharChange::LoseAllAbilities
            | CharChange::AddKeywords(_)
            | CharChange::RemoveKeywords(_) => Layer::Ability,
        }
    }
}

/// The text changes of one object, in timestamp order: (from, to).
pub type TextChanges = Vec<(TextWord, TextWord)>;

fn map_color(c: Color, tc: &[(TextWord, TextWord)]) -> Color {
    tc.iter().fold(c, |c, (from, to)| match (from, to) {
        (TextWord::Color(a), TextWord::Color(b)) if *a == c => *b,
        _ => c,
    })
}

fn map_colors(set: ColorSet, tc: &[(TextWord, TextWord)]) -> ColorSet {
    set.iter().map(|c| map_color(c, tc)).collect()
}

fn map_land_type(t: &str, tc: &[(TextWord, TextWord)]) -> String {
    tc.iter()
        .fold(t.to_string(), |t, (from, to)| match (from, to) {
            (TextWord::LandType(a), TextWord::LandType(b)) if land_type_of(*a) == t => {
                land_type_of(*b).to_string()
            }
            _ => t,
        })
}

/// A keyword after text changes (landwalk's land type, protection's colour).
fn map_keyword(k: Keyword, tc: &[(TextWord, TextWord)]) -> Keyword {
    use Keyword as K;
    const WALKS: [(Keyword, Color); 5] = [
        (K::Plainswalk, Color::W),
        (K::Islandwalk, Color::U),
        (K::Swampwalk, Color::B),
        (K::Mountainwalk, Color::R),
        (K::Forestwalk, Color::G),
    ];
    const PROTECTIONS: [(Keyword, Color); 5] = [
        (K::ProtectionFromWhite, Color::W),
        (K::ProtectionFromBlue, Color::U),
        (K::ProtectionFromBlack, Color::B),
        (K::ProtectionFromRed, Color::R),
        (K::ProtectionFromGreen, Color::G),
    ];
    if let Some((_, c)) = WALKS.iter().find(|(w, _)| *w == k) {
        let t = map_land_type(land_type_of(*c), tc);
        return WALKS
            .iter()
            .find(|(_, col)| land_type_of(*col) == t)
            .map_or(k, |(w, _)| *w);
    }
    if let Some((_, c)) = PROTECTIONS.iter().find(|(p, _)| *p == k) {
        let c = map_color(*c, tc);
        return PROTECTIONS
            .iter()
            .find(|(_, col)| *col == c)
            .map_or(k, |(p, _)| *p);
    }
    k
}

fn map_filter(
    f: &crate::targets::ObjectFilter,
    tc: &[(TextWord, TextWord)],
) -> crate::targets::ObjectFilter {
    let mut f = f.clone();
    f.colors_any = map_colors(f.colors_any, tc);
    f.not_colors = map_colors(f.not_colors, tc);
    if let Some(s) = &f.subtype {
        f.subtype = Some(map_land_type(s, tc));
    }
    f
}

/// A static ability as its text reads after text changes (layer 3).
pub(crate) fn static_with_text<'a>(
    st: &'a crate::cards::StaticAbility,
    tc: &[(TextWord, TextWord)],
) -> Cow<'a, crate::cards::StaticAbility> {
    if tc.is_empty() {
        return Cow::Borrowed(st);
    }
    let mut s = st.clone();
    s.affects = map_filter(&st.affects, tc);
    s.set_land_types = st
        .set_land_types
        .iter()
        .map(|t| map_land_type(t, tc))
        .collect();
    s.add_subtypes = st
        .add_subtypes
        .iter()
        .map(|t| map_land_type(t, tc))
        .collect();
    s.set_colors = st.set_colors.map(|c| map_colors(c, tc));
    s.grants = st.grants.iter().map(|k| map_keyword(*k, tc)).collect();
    if let Some(CdaPt::LandsOfTypeOrDefenders(t)) = &st.cda_pt {
        s.cda_pt = Some(CdaPt::LandsOfTypeOrDefenders(map_land_type(t, tc)));
    }
    Cow::Owned(s)
}

/// A continuous effect from a resolved spell or ability, locked to its objects (418.3b).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CharEffect {
    pub timestamp: u32,
    pub source: ObjectId,
    /// The controller of the spell or ability that created it.
    pub controller: PlayerId,
    pub objects: Vec<ObjectId>,
    pub change: CharChange,
    pub duration: Duration,
}

/// Layers in application order (418.5a; classic puts colour and abilities together in 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Layer {
    Control,
    Text,
    Type,
    Color,
    Ability,
}

/// Which objects an effect in the computation applies to.
#[derive(Debug, Clone)]
enum Applies {
    /// Locked in when the effect was created (418.3b).
    Locked(Vec<ObjectId>),
    /// A static ability of `src`: whatever matches now (418.4).
    Static { src: ObjectId, index: u8 },
    /// A characteristic-defining ability: the object itself, in every zone.
    Itself(ObjectId),
}

#[derive(Debug, Clone)]
enum Change {
    AddSubtypes(Vec<String>),
    SetCreatureTypes(Vec<String>),
    BecomeCreature(Vec<String>),
    BecomeOnlyCreature(Vec<String>),
    AllCreatureTypes,
    SetLandTypes(Vec<String>),
    SetColors(ColorSet),
    AddKeywords(KeywordSet),
    RemoveKeywords(KeywordSet),
    GrantTriggers(CardId, u8),
    GrantAbilities(CardId, u8),
    GrantPump(CardId, u8),
    LoseAll,
}

#[derive(Debug, Clone)]
struct Layered {
    layer: Layer,
    timestamp: u32,
    cda: bool,
    applies: Applies,
    change: Change,
}

/// Characteristics of every object the computation looked at.
#[derive(Debug, Clone)]
pub(crate) struct Table {
    ids: Vec<ObjectId>,
    chars: Vec<Chars>,
    /// `ids`' index by object slot (`NO_ENTRY` for none): found without a search.
    pos: Vec<u16>,
    /// Whether a permanent of the table has a static ability that can reach cards outside
    /// the battlefield ("spells you control and cards you own that aren't on the
    /// battlefield"); without one, nothing on the battlefield changes such a card.
    reaches_outside: bool,
}

/// `Table::pos` for a slot without an entry.
const NO_ENTRY: u16 = u16::MAX;

/// The last layer computation of the battlefield, reused while nothing that layers 1-6
/// depend on has changed. The key is (`next_timestamp`, number of effects): every zone
/// change, new effect and control change takes a new timestamp, and effects only end by
/// being removed.
pub(crate) type LayerCache = crate::memo::Memo<Option<CachedTable>>;

/// The static sources (`Game::static_sources`) with a static ability that grants keywords
/// ("All Slivers have ...", Aspect of Mongoose), listed for a `next_timestamp` and the
/// zones' sizes: they change only as objects change zones, faces or copiable values, each of
/// which takes a new timestamp (a zone change's comes once it is done: the sizes cover the
/// moment in between). `has_keyword` and the keyword sets ask only these instead of every
/// permanent.
pub(crate) type GrantSources = crate::memo::Memo<Option<(GrantKey, Vec<ObjectId>)>>;

/// `next_timestamp`, the battlefield's size and (with graveyard statics) the graveyards'.
type GrantKey = (u32, usize, usize);

/// A computed table with the key it was computed for.
type CachedTable = ((u32, usize), std::sync::Arc<Table>);

impl Table {
    fn new(ids: Vec<ObjectId>, chars: Vec<Chars>, reaches_outside: bool) -> Table {
        let slots = ids.iter().map(|id| id.slot() + 1).max().unwrap_or(0);
        let mut pos = vec![NO_ENTRY; slots];
        for (i, id) in ids.iter().enumerate() {
            // An id's slot appears once (one object per slot); the first entry wins.
            if pos[id.slot()] == NO_ENTRY {
                pos[id.slot()] = u16::try_from(i).unwrap_or(NO_ENTRY);
            }
        }
        Table {
            ids,
            chars,
            pos,
            reaches_outside,
        }
    }

    fn index(&self, id: ObjectId) -> Option<usize> {
        match self.pos.get(id.slot()) {
            Some(&i) if i != NO_ENTRY && self.ids.get(i as usize) == Some(&id) => Some(i as usize),
            // More entries than `u16` indexes (never in a real game): searched.
            _ if self.ids.len() >= NO_ENTRY as usize => self.ids.iter().position(|x| *x == id),
            _ => None,
        }
    }

    /// The characteristics of a permanent of the table.
    pub(crate) fn get(&self, id: ObjectId) -> Option<&Chars> {
        self.index(id).and_then(|i| self.chars.get(i))
    }
}

impl Game {
    /// Whether the full layer computation is needed: some object of the game changes types
    /// or abilities, or a resolved effect does. Without it, characteristics are the printed
    /// ones plus keyword and P/T statics, computed by the fast paths.
    pub(crate) fn layered(&self) -> bool {
        self.layered
    }

    /// The printed characteristics (before any continuous effect).
    fn printed_chars(&self, id: ObjectId) -> Option<Chars> {
        let d = self.def(id)?;
        let tc = self.text_changes(id);
        let keywords = if tc.is_empty() {
            KeywordSet::of(&d.keywords)
        } else {
            // Layer 3 changes the keywords' words too (Swampwalk, protection from black).
            let ks: Vec<Keyword> = d.keywords.iter().map(|k| map_keyword(*k, &tc)).collect();
            KeywordSet::of(&ks)
        };
        Some(Chars {
            types: Cow::Borrowed(d.types.as_slice()),
            subtypes: Cow::Borrowed(d.subtypes.as_slice()),
            all_creature_types: false,
            colors: d.colors,
            keywords,
            own_abilities: true,
            granted_triggers: Vec::new(),
            granted_abilities: Vec::new(),
            granted_pumps: Vec::new(),
            land_types_set: false,
        })
    }

    /// The characteristics of `id` after layers 1-6.
    pub fn chars(&self, id: ObjectId) -> Option<Chars> {
        if !self.layered {
            let mut c = self.printed_chars(id)?;
            for k in Keyword::ALL {
                if !c.keywords.contains(k) && self.has_keyword(id, k) {
                    c.keywords.insert(k);
                }
            }
            return Some(c);
        }
        if self.is_on_battlefield(id) {
            let t = self.battlefield_table();
            let i = t.index(id)?;
            return t.chars.get(i).cloned();
        }
        if self.unreached_outside(id) {
            return self.printed_chars(id);
        }
        let t = self.layer_table(Some(id));
        let i = t.index(id)?;
        t.chars.into_iter().nth(i)
    }

    /// Calls `f` with the characteristics of `id` after layers 1-6 without copying them
    /// (layered games only; the battlefield's come from the cache).
    pub(crate) fn with_chars<R>(&self, id: ObjectId, f: impl FnOnce(&Chars) -> R) -> Option<R> {
        if self.is_on_battlefield(id) {
            return self
                .with_battlefield_table(|t| t.index(id).and_then(|i| t.chars.get(i)).map(f));
        }
        if self.unreached_outside(id) {
            return self.printed_chars(id).as_ref().map(f);
        }
        let t = self.layer_table(Some(id));
        let i = t.index(id)?;
        t.chars.get(i).map(f)
    }

    /// Whether no effect of layers 2-6 reaches `id`, an object outside the battlefield: no
    /// permanent's static reaches outside the battlefield, no resolved effect is locked to it
    /// and it has no characteristic-defining type ability. Then its characteristics are its
    /// printed ones, what the full computation with it added would give (nothing in that
    /// computation reads an object no effect reaches).
    fn unreached_outside(&self, id: ObjectId) -> bool {
        !self.char_effects.iter().any(|e| e.objects.contains(&id))
            && self
                .def(id)
                .is_some_and(|d| !d.statics.iter().any(|st| st.cda_all_creature_types))
            && !self.with_battlefield_table(|t| t.reaches_outside)
    }

    /// The layer computation of the battlefield (layered games only), to read many
    /// permanents' characteristics from one lookup.
    pub(crate) fn battlefield_chars(&self) -> Option<std::sync::Arc<Table>> {
        self.layered.then(|| self.battlefield_table())
    }

    /// Every effect of layers 2-6 that exists now, with its layer and timestamp.
    fn layered_effects(&self, table: &Table, spared: Option<ObjectId>) -> Vec<Layered> {
        let mut out = Vec::new();
        for e in &self.char_effects {
            let change = match &e.change {
                // Applied to `Object::controller`, and read through `Game::text_changes`.
                CharChange::Control(_) | CharChange::ChangeText { .. } => continue,
                CharChange::SetCreatureTypes(v) => Change::SetCreatureTypes(v.clone()),
                CharChange::SetColors(c) => Change::SetColors(*c),
                CharChange::BecomeCreature(v) => Change::BecomeCreature(v.clone()),
                CharChange::BecomeOnlyCreature(v) => Change::BecomeOnlyCreature(v.clone()),
                CharChange::SetLandTypes(v) => Change::SetLandTypes(v.clone()),
                CharChange::AddCreatureTypes(v) => Change::AddSubtypes(v.clone()),
                CharChange::LoseAllAbilities => Change::LoseAll,
                CharChange::AddKeywords(k) => Change::AddKeywords(*k),
                CharChange::RemoveKeywords(k) => Change::RemoveKeywords(*k),
            };
            // Classic layer 5 holds colour and abilities together (418.5a); modern splits
            // them into 5 and 6.
            let layer = match e.change.layer() {
                Layer::Color if self.ruleset.layers_2006() => Layer::Ability,
                l => l,
            };
            out.push(Layered {
                layer,
                timestamp: e.timestamp,
                cda: false,
                applies: Applies::Locked(e.objects.clone()),
                change,
            });
        }
        for &id in &table.ids {
            let Some(o) = self.obj(id) else { continue };
            let on_bf = o.zone == ZoneKind::Battlefield;
            let tc = self.text_changes(id);
            for (i, st) in self.catalog().get(o.face()).statics.iter().enumerate() {
                if st.doesnt_remove_source && spared == Some(id) {
                    continue;
                }
                // Layer 3: the ability as its text reads now.
                let st = static_with_text(st, &tc);
                let st = st.as_ref();
                if st.cda_all_creature_types {
                    out.push(Layered {
                        layer: Layer::Type,
                        timestamp: o.timestamp,
                        cda: true,
                        applies: Applies::Itself(id),
                        change: Change::AllCreatureTypes,
                    });
                    continue;
                }
                if !on_bf {
                    continue;
                }
                let applies = Applies::Static {
                    src: id,
                    index: i as u8,
                };
                if !st.add_subtypes.is_empty() {
                    out.push(Layered {
                        layer: Layer::Type,
                        timestamp: o.timestamp,
                        cda: false,
                        applies: applies.clone(),
                        change: Change::AddSubtypes(st.add_subtypes.clone()),
                    });
                }
                if st.set_chosen_creature_type
                    && let Some(t) = &o.chosen_type
                {
                    out.push(Layered {
                        layer: Layer::Type,
                        timestamp: o.timestamp,
                        cda: false,
                        applies: applies.clone(),
                        change: Change::SetCreatureTypes(vec![t.clone()]),
                    });
                }
                if !st.set_land_types.is_empty() {
                    out.push(Layered {
                        layer: Layer::Type,
                        timestamp: o.timestamp,
                        cda: false,
                        applies: applies.clone(),
                        change: Change::SetLandTypes(st.set_land_types.clone()),
                    });
                }
                if let Some(col) = st.set_colors {
                    out.push(Layered {
                        layer: if self.ruleset.layers_2006() {
                            Layer::Ability
                        } else {
                            Layer::Color
                        },
                        timestamp: o.timestamp,
                        cda: false,
                        applies: applies.clone(),
                        change: Change::SetColors(col),
                    });
                }
                if !st.grants.is_empty() || st.protection_from_chosen_color {
                    out.push(Layered {
                        layer: Layer::Ability,
                        timestamp: o.timestamp,
                        cda: false,
                        applies: applies.clone(),
                        change: Change::AddKeywords(self.static_grants(id, st)),
                    });
                }
                if !st.grant_abilities.is_empty() {
                    out.push(Layered {
                        layer: Layer::Ability,
                        timestamp: o.timestamp,
                        cda: false,
                        applies: applies.clone(),
                        change: Change::GrantAbilities(o.face(), i as u8),
                    });
                }
                if st.grant_pump.is_some() {
                    out.push(Layered {
                        layer: Layer::Ability,
                        timestamp: o.timestamp,
                        cda: false,
                        applies: applies.clone(),
                        change: Change::GrantPump(o.face(), i as u8),
                    });
                }
                if !st.grant_triggers.is_empty() {
                    out.push(Layered {
                        layer: Layer::Ability,
                        timestamp: o.timestamp,
                        cda: false,
                        applies,
                        change: Change::GrantTriggers(o.face(), i as u8),
                    });
                }
            }
        }
        self.graveyard_layered_effects(&mut out);
        out
    }

    /// The keyword grants of statics that function from a graveyard (Valor; the loader
    /// allows them only keyword grants), in the ability layer.
    fn graveyard_layered_effects(&self, out: &mut Vec<Layered>) {
        if !self.has_graveyard_statics {
            return;
        }
        for id in self.static_sources() {
            let Some(o) = self.obj(id) else { continue };
            if o.zone != ZoneKind::Graveyard {
                continue;
            }
            for (i, st) in self.catalog().get(o.face()).statics.iter().enumerate() {
                if st.from_graveyard() && !st.grants.is_empty() {
                    out.push(Layered {
                        layer: Layer::Ability,
                        timestamp: o.timestamp,
                        cda: false,
                        applies: Applies::Static {
                            src: id,
                            index: i as u8,
                        },
                        change: Change::AddKeywords(KeywordSet::of(&st.grants)),
                    });
                }
            }
        }
    }

    /// Computes layers 2-6 for every permanent (and `extra`, wherever it is).
    /// The layer computation of the battlefield, from the cache when it is current.
    fn battlefield_table(&self) -> std::sync::Arc<Table> {
        let key = (self.next_timestamp, self.char_effects.len());
        if let Ok(mut guard) = self.layer_cache.0.lock() {
            if let Some((k, t)) = guard.as_ref()
                && *k == key
            {
                return t.clone();
            }
            let t = std::sync::Arc::new(self.layer_table(None));
            *guard = Some((key, t.clone()));
            return t;
        }
        std::sync::Arc::new(self.layer_table(None))
    }

    /// Runs `f` on the layer computation of the battlefield, from the cache when it is
    /// current, under the cache's lock: no reference count to take and drop at every
    /// characteristic asked (`f` only reads the table; it never asks for it again).
    fn with_battlefield_table<R>(&self, f: impl FnOnce(&Table) -> R) -> R {
        let key = (self.next_timestamp, self.char_effects.len());
        if let Ok(mut guard) = self.layer_cache.0.lock() {
            if !matches!(guard.as_ref(), Some((k, _)) if *k == key) {
                *guard = Some((key, std::sync::Arc::new(self.layer_table(None))));
            }
            if let Some((_, t)) = guard.as_ref() {
                return f(t);
            }
        }
        f(&self.layer_table(None))
    }

    fn layer_table(&self, extra: Option<ObjectId>) -> Table {
        self.layer_table_sparing(extra, None)
    }

    /// The layer computation, leaving out `spared`'s "doesn't remove ~" statics (see
    /// [`Game::protection_colors_sparing`]).
    fn layer_table_sparing(&self, extra: Option<ObjectId>, spared: Option<ObjectId>) -> Table {
        let mut ids: Vec<ObjectId> = self.battlefield.clone();
        if let Some(x) = extra
            && !ids.contains(&x)
            && self.obj(x).is_some()
        {
            ids.push(x);
        }
        // Conspiracy-like statics also reach cards outside the battlefield: nothing to add
        // here (they are evaluated for `extra` when asked).
        let chars: Vec<Chars> = ids
            .iter()
            .map(|id| {
                self.printed_chars(*id)
                    .expect("ids come from current objects")
            })
            .collect();
        let catalog = self.catalog();
        let reaches_outside = ids.iter().any(|&id| {
            self.obj(id).is_some_and(|o| {
                o.zone == ZoneKind::Battlefield
                    && catalog
                        .get(o.face())
                        .statics
                        .iter()
                        .any(|st| st.also_outside_battlefield)
            })
        });
        let mut table = Table::new(ids, chars, reaches_outside);
        let effects = self.layered_effects(&table, spared);
        for layer in [Layer::Type, Layer::Color, Layer::Ability] {
            let mut todo: Vec<&Layered> = effects.iter().filter(|e| e.layer == layer).collect();
            // 418.5a: characteristic-defining abilities first, then the rest; each group in
            // timestamp order unless a dependency says otherwise (418.5c-d).
            todo.sort_by_key(|e| (!e.cda, e.timestamp));
            while !todo.is_empty() {
                let group_cda = todo[0].cda;
                let group: Vec<usize> = (0..todo.len())
                    .filter(|i| todo[*i].cda == group_cda)
                    .collect();
                let pick = group
                    .iter()
                    .copied()
                    .find(|&a| {
                        !group
                            .iter()
                            .any(|&b| b != a && self.depends_on(todo[a], todo[b], &table))
                    })
                    // A dependency loop: timestamp order.
                    .unwrap_or(group[0]);
                let e = todo.remove(pick);
                self.apply_layered(e, &mut table);
            }
        }
        table
    }

    /// Whether `e` exists now (a static ability functions only while its source has it) and
    /// which objects of the table it applies to.
    fn reach(&self, e: &Layered, table: &Table) -> (bool, Vec<usize>) {
        match &e.applies {
            Applies::Locked(objs) => (true, objs.iter().filter_map(|o| table.index(*o)).collect()),
            Applies::Itself(id) => (true, table.index(*id).into_iter().collect()),
            Applies::Static { src, index } => {
                let Some(s) = self.obj(*src) else {
                    return (false, Vec::new());
                };
                // A graveyard card's static (Valor) is not in the table; nothing removes
                // its abilities there.
                if s.zone != ZoneKind::Graveyard {
                    let Some(si) = table.index(*src) else {
                        return (false, Vec::new());
                    };
                    if !table.chars[si].own_abilities {
                        return (false, Vec::new());
                    }
                }
                let Some(st) = self.catalog().get(s.face()).statics.get(*index as usize) else {
                    return (false, Vec::new());
                };
                let tc = self.text_changes(*src);
                let st = static_with_text(st, &tc);
                let st = st.as_ref();
                let set = (0..table.ids.len())
                    .filter(|&i| {
                        self.static_reaches(
                            st,
                            *src,
                            s.controller,
                            table.ids[i],
                            &table.chars[i],
                            table,
                        )
                    })
                    .collect();
                (true, set)
            }
        }
    }

    /// Whether a static ability of `src` (controlled by `me`) applies to `id` with
    /// characteristics `c`.
    fn static_reaches(
        &self,
        st: &crate::cards::StaticAbility,
        src: ObjectId,
        me: PlayerId,
        id: ObjectId,
        c: &Chars,
        table: &Table,
    ) -> bool {
        if (st.other && src == id) || (st.itself && src != id) {
            return false;
        }
        if st.enchanted && self.obj(src).and_then(|s| s.attached_to) != Some(id) {
            return false;
        }
        // A graveyard card's statics that function there (Valor), for its owner.
        let Some(s) = self.obj(src) else { return false };
        if (s.zone == ZoneKind::Graveyard) != st.from_graveyard() {
            return false;
        }
        let me = if st.from_graveyard() { s.owner } else { me };
        if !self.static_condition_holds(st, src, me, Some(table)) {
            return false;
        }
        let Some(o) = self.obj(id) else { return false };
        if o.zone != ZoneKind::Battlefield {
            // "Spells you control and cards you own that aren't on the battlefield".
            let mine = match o.zone {
                ZoneKind::Stack => o.controller == me,
                _ => o.owner == me,
            };
            if !st.also_outside_battlefield || !mine {
                return false;
            }
            let mut f = st.affects.clone();
            f.controller = None;
            return self.filter_matches_chars(id, c, &f, me);
        }
        // "Of the chosen color": the color its source chose, among the colors it has now.
        if st.affects.chosen_color
            && !self
                .chosen_color(src)
                .is_some_and(|col| c.colors.contains(col))
        {
            return false;
        }
        self.filter_matches_chars(id, c, &st.affects, me)
    }

    /// 418.5c: `a` depends on `b` if applying `b` would change whether `a` exists or what it
    /// applies to (the effects here never change what another one does).
    fn depends_on(&self, a: &Layered, b: &Layered, table: &Table) -> bool {
        if matches!(a.applies, Applies::Locked(_) | Applies::Itself(_)) {
            return false;
        }
        // Cheap test first: `b` can change `a`'s existence only by removing abilities, and
        // what `a` applies to only through what `a`'s filter reads.
        if let Applies::Static { src, index } = a.applies {
            let reads = self.obj(src).and_then(|s| {
                self.catalog()
                    .get(s.face())
                    .statics
                    .get(index as usize)
                    .map(|st| &st.affects)
            });
            let relevant = match (&b.change, reads) {
                // Setting land types removes rules text, so the static may stop existing.
                (Change::LoseAll | Change::SetLandTypes(_), _) => true,
                (_, None) => true,
                (
                    Change::AddSubtypes(_) | Change::SetCreatureTypes(_) | Change::AllCreatureTypes,
                    Some(f),
                ) => f.subtype.is_some() || !f.subtypes_any.is_empty() || f.not_subtype.is_some(),
                (Change::BecomeCreature(_) | Change::BecomeOnlyCreature(_), Some(f)) => {
                    f.subtype.is_some()
                        || !f.subtypes_any.is_empty()
                        || f.not_subtype.is_some()
                        || !f.types_any.is_empty()
                        || !f.types_none.is_empty()
                }
                (Change::SetColors(_), Some(f)) => {
                    !f.colors_any.is_empty() || !f.not_colors.is_empty() || f.chosen_color
                }
                (
                    Change::AddKeywords(_)
                    | Change::RemoveKeywords(_)
                    | Change::GrantTriggers(..)
                    | Change::GrantAbilities(..)
                    | Change::GrantPump(..),
                    Some(f),
                ) => f.keyword.is_some() || f.without_keyword.is_some(),
            };
            if !relevant {
                return false;
            }
        }
        let before = self.reach(a, table);
        let mut trial = table.clone();
        self.apply_layered(b, &mut trial);
        self.reach(a, &trial) != before
    }

    fn apply_layered(&self, e: &Layered, table: &mut Table) {
        let (exists, set) = self.reach(e, table);
        if !exists {
            return;
        }
        for i in set {
            let c = &mut table.chars[i];
            match &e.change {
                Change::AddSubtypes(subs) => {
                    let mut v = c.subtypes.to_vec();
                    for s in subs.iter() {
                        if !v.iter().any(|x| x.eq_ignore_ascii_case(s)) {
                            v.push(s.clone());
                        }
                    }
                    c.subtypes = Cow::Owned(v);
                }
                Change::SetCreatureTypes(types) => {
                    // Only creature types are replaced; other subtypes stay.
                    let catalog = self.catalog();
                    let mut v: Vec<String> = c
                        .subtypes
                        .iter()
                        .filter(|s| catalog.creature_type(s).is_none())
                        .cloned()
                        .collect();
                    v.extend(types.iter().cloned());
                    c.subtypes = Cow::Owned(v);
                    c.all_creature_types = false;
                }
                Change::AllCreatureTypes => c.all_creature_types = true,
                Change::SetLandTypes(types) => {
                    // 212.6e: only a land is affected; its old land types and its rules text
                    // go, other types, creature types and supertypes stay, and abilities that
                    // later effects grant still apply.
                    if !c.has_type(CardType::Land) {
                        continue;
                    }
                    let catalog = self.catalog();
                    let mut v: Vec<String> = c
                        .subtypes
                        .iter()
                        .filter(|s| !catalog.is_land_type(s))
                        .cloned()
                        .collect();
                    v.extend(types.iter().cloned());
                    c.subtypes = Cow::Owned(v);
                    c.keywords = KeywordSet::default();
                    c.own_abilities = false;
                    c.granted_triggers.clear();
                    c.granted_abilities.clear();
                    c.granted_pumps.clear();
                    c.land_types_set = true;
                }
                Change::BecomeCreature(subs) => {
                    if !c.has_type(CardType::Creature) {
                        let mut t = c.types.to_vec();
                        t.push(CardType::Creature);
                        c.types = Cow::Owned(t);
                    }
                    let mut v = c.subtypes.to_vec();
                    for s in subs {
                        if !v.iter().any(|x| x.eq_ignore_ascii_case(s)) {
                            v.push(s.clone());
                        }
                    }
                    c.subtypes = Cow::Owned(v);
                }
                Change::BecomeOnlyCreature(subs) => {
                    c.types = Cow::Owned(vec![CardType::Creature]);
                    c.subtypes = Cow::Owned(subs.clone());
                }
                Change::SetColors(col) => c.colors = *col,
                Change::AddKeywords(k) => c.keywords = c.keywords.union(*k),
                Change::RemoveKeywords(k) => c.keywords = c.keywords.minus(*k),
                Change::GrantTriggers(card, index) => c.granted_triggers.push((*card, *index)),
                Change::GrantAbilities(card, index) => c.granted_abilities.push((*card, *index)),
                Change::GrantPump(card, index) => c.granted_pumps.push((*card, *index)),
                Change::LoseAll => {
                    c.keywords = KeywordSet::default();
                    c.own_abilities = false;
                    c.granted_triggers.clear();
                    c.granted_abilities.clear();
                    c.granted_pumps.clear();
                }
            }
        }
    }

    /// `matches_filter` on given characteristics (types, subtypes, colours, keywords from
    /// `c`; status and controller from the object).
    pub(crate) fn filter_matches_chars(
        &self,
        id: ObjectId,
        c: &Chars,
        f: &crate::targets::ObjectFilter,
        me: PlayerId,
    ) -> bool {
        use crate::targets::Relation;
        let Some(o) = self.obj(id) else { return false };
        let or_subtype = f.or_subtypes
            && f.subtypes_any
                .iter()
                .any(|s| c.has_subtype(self.catalog(), s));
        if !f.types_any.is_empty()
            && !f.types_any.iter().any(|t| c.has_type(*t))
            && !f.or_keyword.is_some_and(|k| c.keywords.contains(k))
            && !or_subtype
        {
            return false;
        }
        if !f.subtypes_any.is_empty()
            && !f.or_subtypes
            && !f
                .subtypes_any
                .iter()
                .any(|s| c.has_subtype(self.catalog(), s))
        {
            return false;
        }
        if let Some(s) = &f.not_subtype
            && c.has_subtype(self.catalog(), s)
        {
            return false;
        }
        if f.types_none.iter().any(|t| c.has_type(*t)) {
            return false;
        }
        if let Some(s) = &f.subtype
            && !c.has_subtype(self.catalog(), s)
        {
            return false;
        }
        if f.not_colors.iter().any(|col| c.colors.contains(col)) {
            return false;
        }
        if !f.colors_any.is_empty() && !f.colors_any.iter().any(|col| c.colors.contains(col)) {
            return false;
        }
        if let Some(t) = f.tapped
            && o.tapped != t
        {
            return false;
        }
        if let Some(k) = f.keyword
            && !c.keywords.contains(k)
        {
            return false;
        }
        if let Some(k) = f.without_keyword
            && c.keywords.contains(k)
        {
            return false;
        }
        match f.controller {
            Some(Relation::You) if o.controller != me => false,
            Some(Relation::Opponent) if o.controller == me => false,
            // No event names a player for a static ability.
            Some(Relation::ThatPlayer) => false,
            _ => true,
        }
    }

    /// Adds a continuous effect of a resolved spell or ability.
    pub(crate) fn add_char_effect(
        &mut self,
        source: ObjectId,
        controller: PlayerId,
        objects: Vec<ObjectId>,
        change: CharChange,
        duration: Duration,
    ) {
        if objects.is_empty() {
            return;
        }
        let timestamp = self.new_timestamp();
        let is_control = matches!(change, CharChange::Control(_));
        self.char_effects.push(CharEffect {
            timestamp,
            source,
            controller,
            objects,
            change,
            duration,
        });
        self.layered = true;
        if is_control {
            self.refresh_control();
        }
    }

    /// Layer 2: each permanent's controller is its owner's or whoever the latest
    /// control-changing effect names (418.5a, timestamp order). Effects whose duration is
    /// over are dropped first; control changes are events (summoning sickness restarts).
    pub fn refresh_control(&mut self) {
        loop {
            let before = self.char_effects.len();
            let mut changed = false;
            let gone: Vec<usize> = (0..self.char_effects.len())
                .filter(|&i| {
                    let e = &self.char_effects[i];
                    e.duration == Duration::WhileYouControlSource
                        && !self.obj(e.source).is_some_and(|s| {
                            s.zone == ZoneKind::Battlefield && s.controller == e.controller
                        })
                })
                .collect();
            for i in gone.into_iter().rev() {
                self.char_effects.remove(i);
            }
            let ids: Vec<ObjectId> = self.battlefield.clone();
            for id in ids {
                let Some(o) = self.obj(id) else { continue };
                let mut ctrl = self.base_controller(id);
                let mut best = 0;
                for e in &self.char_effects {
                    if let CharChange::Control(p) = e.change
                        && e.objects.contains(&id)
                        && e.timestamp >= best
                    {
                        best = e.timestamp;
                        ctrl = p;
                    }
                }
                let from = o.controller;
                if from != ctrl {
                    changed = true;
                    // A new timestamp marks the change for the layer cache.
                    let clock = self.new_timestamp();
                    let turn = self.turn;
                    if let Some(o) = self.obj_mut(id) {
                        o.controller = ctrl;
                        o.controlled_since = turn;
                        o.control_clock = clock;
                    }
                    if let Some(c) = &mut self.combat {
                        c.remove(id);
                    }
                    self.emit(crate::events::Event::ControlChanged {
                        object: id,
                        from,
                        to: ctrl,
                    });
                }
            }
            // A control change can end a "for as long as you control" effect: repeat until
            // nothing changes.
            if self.char_effects.len() == before && !changed {
                break;
            }
        }
    }

    /// Who controls a permanent apart from control-changing effects: the player who put it
    /// onto the battlefield (kept in `entered_under`).
    fn base_controller(&self, id: ObjectId) -> PlayerId {
        self.obj(id)
            .map(|o| o.entered_under.unwrap_or(o.owner))
            .unwrap_or(PlayerId(0))
    }

    /// Effects locked to an object end when it leaves the battlefield; effects lasting "for
    /// as long as you control" a source that left end too.
    pub(crate) fn drop_char_effects_of(&mut self, id: ObjectId) {
        if self.char_effects.is_empty() {
            return;
        }
        for e in &mut self.char_effects {
            e.objects.retain(|o| *o != id);
            if e.source == id && e.duration == Duration::WhileSourceOnBattlefield {
                e.objects.clear();
            }
        }
        let had_control = self.char_effects.iter().any(|e| {
            matches!(e.change, CharChange::Control(_))
                || e.duration == Duration::WhileYouControlSource
        });
        self.char_effects.retain(|e| !e.objects.is_empty());
        if had_control {
            self.refresh_control();
        }
    }

    /// A spell leaving the stack: effects locked to it that changed its characteristics
    /// (Moonlace) keep applying to the permanent it becomes (`to`; 2006 217.1c / 2014
    /// 400.7a), and end otherwise.
    pub(crate) fn carry_spell_effects(&mut self, id: ObjectId, to: Option<ObjectId>) {
        if !self.char_effects.iter().any(|e| e.objects.contains(&id)) {
            return;
        }
        let Some(new) = to else {
            // Leaving to anywhere else: it has no memory of them (no spell effect changes
            // control, so control needs no refresh).
            for e in &mut self.char_effects {
                e.objects.retain(|o| *o != id);
            }
            self.char_effects.retain(|e| !e.objects.is_empty());
            return;
        };
        for e in &mut self.char_effects {
            for o in &mut e.objects {
                if *o == id {
                    *o = new;
                }
            }
        }
    }

    /// 311.2: as the end of combat step ends, "until end of combat" effects end.
    pub(crate) fn end_combat_char_effects(&mut self) {
        self.shields
            .retain(|s| !matches!(s, crate::replacement::Shield::PreventCombatDamageFrom(_)));
        let n = self.char_effects.len();
        self.char_effects
            .retain(|e| e.duration != Duration::EndOfCombat);
        if self.char_effects.len() != n {
            self.refresh_control();
        }
    }

    /// Cleanup (314.2): "until end of turn" effects end.
    pub(crate) fn end_turn_char_effects(&mut self) {
        let n = self.char_effects.len();
        self.char_effects
            .retain(|e| e.duration != Duration::EndOfTurn);
        if self.char_effects.len() != n {
            self.refresh_control();
        }
    }
}

/// What an object's counters add to its power and toughness: every counter that changes
/// them (+1/+1, -1/-1, +1/+0...; `CounterKind::pt_change`).
fn counters_pt(counters: &crate::object::Counters) -> (i32, i32) {
    counters.0.iter().fold((0, 0), |(p, t), (k, n)| {
        let (a, b) = k.pt_change();
        (p + a * *n as i32, t + b * *n as i32)
    })
}

#[cfg(test)]
mod text_tests {
    use super::TextWord;
    use crate::mana::Color;

    /// Layer 3 rewrites static abilities and keywords only; a word elsewhere in the text
    /// makes the permanent an illegal target for a text-changing spell.
    #[test]
    fn text_change_support_follows_where_the_word_is() {
        let g = crate::scenario::game_from_str(
            r#"
name = "t"
description = ""
script = []
[setup]
step = "precombat_main"
turn = 3
[setup.alice]
battlefield = ["Celestial Dawn", "Plains", "Fixture: Swampwalker"]
[setup.bob]
battlefield = ["Gaea's Liege", "Forest"]
"#,
        )
        .expect("board");
        let id = |name: &str| {
            g.battlefield
                .iter()
                .copied()
                .find(|&i| g.card_name(i) == name)
                .unwrap_or_else(|| {
                    panic!(
                        "{name} not in {:?}",
                        g.battlefield
                            .iter()
                            .map(|&i| g.card_name(i))
                            .collect::<Vec<_>>()
                    )
                })
        };
        let plains = TextWord::LandType(Color::W);
        let forest = TextWord::LandType(Color::G);
        let swamp = TextWord::LandType(Color::B);
        let white = TextWord::Color(Color::W);
        // Celestial Dawn: "Plains" is in a static ability; "white" also in its mana rule.
        assert!(g.text_change_supported(id("Celestial Dawn"), plains));
        assert!(!g.text_change_supported(id("Celestial Dawn"), white));
        // Gaea's Liege: "Forests" in its CDA, but "a Forest" in its activated ability.
        assert!(!g.text_change_supported(id("Gaea's Liege"), forest));
        // A basic Plains: the word is its type line.
        assert!(!g.text_change_supported(id("Plains"), plains));
        // Swampwalk is a keyword.
        assert!(g.text_change_supported(id("Fixture: Swampwalker"), swamp));
        assert_eq!(
            "Island".parse::<TextWord>(),
            Ok(TextWord::LandType(Color::U))
        );
        assert_eq!("black".parse::<TextWord>(), Ok(TextWord::Color(Color::B)));
        assert!("Sliver".parse::<TextWord>().is_err());
    }
}

#[cfg(test)]
mod keyword_set_tests {
    use super::KeywordSet;
    use crate::keywords::Keyword;

    /// `KeywordSet`'s bit of a keyword is its place in the enum, which must be its place in
    /// `Keyword::ALL` (sets are saved as their bits).
    #[test]
    fn keyword_bits_follow_the_all_list() {
        assert!(Keyword::ALL.len() <= 64);
        for (i, k) in Keyword::ALL.iter().enumerate() {
            assert_eq!(*k as usize, i, "{k:?} is out of order in Keyword::ALL");
            assert_eq!(KeywordSet::of(&[*k]).0, 1u64 << i);
        }
    }
}
