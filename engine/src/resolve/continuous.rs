//! Continuous effects of resolved spells and abilities (418.3 / 611, layers 3-7): pump, set and switch P/T, keywords, types, colours, text, flashback granted.

use super::*;

impl Game {
    /// "Until end of turn, target creature has base power N or base toughness N" (Vhati
    /// il-Dal): its controller chooses power or toughness as it resolves (`ChooseMode`); a
    /// creature gone: nothing.
    pub(super) fn execute_set_base_pt(&mut self, res: &mut Resolution, e: &Effect) -> Progress {
        let Effect::SetBasePowerOrToughness { what, value } = *e else {
            return Progress::Done;
        };
        let (o, choice) = match self.choose_for_permanent(res, what, |name| {
            vec![
                format!("base power {value} ({name})"),
                format!("base toughness {value} ({name})"),
            ]
        }) {
            Ok(chosen) => chosen,
            Err(progress) => return *progress,
        };
        let change = if choice == 0 {
            PtChange::SetPower(value)
        } else {
            PtChange::SetToughness(value)
        };
        self.add_pt_effect(o, change);
        Progress::Done
    }

    /// Applies one effect of P/T changes and granted abilities that needs no choice.
    pub(super) fn apply_pt(&mut self, res: &Resolution, e: &Effect) {
        let me = res.item.controller;
        let source = Self::source_of(&res.item);
        match e {
            Effect::Pump {
                what,
                power,
                toughness,
            } => self.pt_effect_on(res, *what, PtChange::Modify(*power, *toughness)),
            Effect::Grant {
                what,
                keyword,
                until,
            } => {
                if let Some(o) = self.object_of(res, *what)
                    && self.is_on_battlefield(o)
                {
                    self.add_keyword_effect(source, me, vec![o], *keyword, *until);
                }
            }
            Effect::LoseKeyword { what, keyword } => {
                let change = CharChange::RemoveKeywords(crate::layers::KeywordSet::of(&[*keyword]));
                self.char_effect_on(res, *what, change, Duration::EndOfTurn);
            }
            Effect::PumpCount {
                what,
                amount,
                power,
                toughness,
            } => {
                // 502.12b: counted once, as the ability resolves; the result is locked in.
                let n = self.amount(res, amount).max(0);
                if n > 0 {
                    self.pt_effect_on(res, *what, PtChange::Modify(power * n, toughness * n));
                }
            }
            Effect::GrantAll {
                filter,
                keyword,
                until,
            } => {
                let all: Vec<ObjectId> = self.permanents_matching(filter, me);
                self.add_keyword_effect(source, me, all, *keyword, *until);
            }
            Effect::PumpAllCount {
                filter,
                amount,
                power,
                toughness,
            } => {
                let n = self.amount(res, amount).max(0);
                let all: Vec<ObjectId> = self.permanents_matching(filter, me);
                if n > 0 {
                    for o in all {
                        self.add_pt_effect(o, PtChange::Modify(power * n, toughness * n));
                    }
                }
            }
            Effect::PumpAll {
                filter,
                power,
                toughness,
            } => {
                let mut all: Vec<ObjectId> = self.permanents_matching(filter, me);
                // "Other creatures ...": not the ability's source (Sprite Noble).
                if filter.other {
                    let source = Self::source_of(&res.item);
                    all.retain(|o| *o != source);
                }
                for o in all {
                    self.add_pt_effect(o, PtChange::Modify(*power, *toughness));
                }
            }
            Effect::SetPt {
                what,
                power,
                toughness,
            } => self.pt_effect_on(res, *what, PtChange::Set(*power, *toughness)),
            Effect::SwitchPt(what) => self.pt_effect_on(res, *what, PtChange::Switch),
            Effect::GrantFlashback(r) => {
                if let Some(o) = self.object_of(res, *r)
                    && self.obj(o).is_some_and(|x| x.zone == ZoneKind::Graveyard)
                    && !self.granted_flashback.contains(&o)
                {
                    self.granted_flashback.push(o);
                }
            }
            _ => debug_assert!(
                false,
                "not an effect of P/T changes and granted abilities: {e:?}"
            ),
        }
    }

    /// Moonlace: "becomes colorless" with no duration, on a permanent or a spell (which
    /// keeps it as it becomes a permanent: `Game::carry_spell_effects`).
    fn become_color_forever(
        &mut self,
        res: &Resolution,
        what: ObjRef,
        colors: crate::mana::ColorSet,
    ) {
        if let Some(o) = self.object_of(res, what)
            && self
                .obj(o)
                .is_some_and(|x| matches!(x.zone, ZoneKind::Battlefield | ZoneKind::Stack))
        {
            let source = Self::source_of(&res.item);
            let change = CharChange::SetColors(colors);
            let me = res.item.controller;
            self.add_char_effect(source, me, vec![o], change, Duration::Indefinite);
        }
    }

    /// Applies one effect of characteristics (types, colours, text, abilities) that needs no choice.
    pub(super) fn apply_continuous(&mut self, res: &Resolution, e: &Effect) {
        let me = res.item.controller;
        match e {
            Effect::ChangeText { what, from, to } => self.char_effect_on(
                res,
                *what,
                CharChange::ChangeText {
                    from: *from,
                    to: *to,
                },
                Duration::Indefinite,
            ),
            Effect::BecomeCreatureType { what, types } => self.char_effect_on(
                res,
                *what,
                CharChange::SetCreatureTypes(types.clone()),
                Duration::EndOfTurn,
            ),
            Effect::LoseAllAbilities { filter, who, base } => {
                let all = self.controlled_matching(res, *who, filter);
                let source = Self::source_of(&res.item);
                self.add_char_effect(
                    source,
                    me,
                    all.clone(),
                    CharChange::LoseAllAbilities,
                    Duration::EndOfTurn,
                );
                if let Some((p, t)) = base {
                    for o in all {
                        self.add_pt_effect(o, PtChange::Set(*p, *t));
                    }
                }
            }
            Effect::BecomeLandType {
                what,
                types,
                until_source_leaves,
            } => {
                let source = Self::source_of(&res.item);
                // "Until ~ leaves the battlefield": if it already has, the effect does
                // nothing (611.2b style: a duration that has already ended).
                let duration = if *until_source_leaves {
                    Duration::WhileSourceOnBattlefield
                } else {
                    Duration::EndOfTurn
                };
                if let Some(o) = self.object_of(res, *what)
                    && self.is_on_battlefield(o)
                    && (!*until_source_leaves || self.is_on_battlefield(source))
                {
                    self.add_char_effect(
                        source,
                        me,
                        vec![o],
                        CharChange::SetLandTypes(types.clone()),
                        duration,
                    );
                }
            }
            Effect::BecomeColor {
                what,
                colors,
                forever: false,
            } => self.char_effect_on(
                res,
                *what,
                CharChange::SetColors(*colors),
                Duration::EndOfTurn,
            ),
            Effect::BecomeColor {
                what,
                colors,
                forever: true,
            } => self.become_color_forever(res, *what, *colors),
            Effect::BecomeCreature {
                what,
                power,
                toughness,
                colors,
                subtypes,
                keywords,
                forever,
                still_land,
            } => {
                let source = Self::source_of(&res.item);
                if let Some(o) = self.object_of(res, *what)
                    && self.is_on_battlefield(o)
                {
                    let (types, duration) = if *still_land {
                        // "A creature that's still a land": its types and colours stay.
                        let duration = if *forever {
                            Duration::Indefinite
                        } else {
                            Duration::EndOfTurn
                        };
                        (CharChange::BecomeCreature(subtypes.clone()), duration)
                    } else if *forever {
                        (
                            CharChange::BecomeOnlyCreature(subtypes.clone()),
                            Duration::Indefinite,
                        )
                    } else {
                        (
                            CharChange::BecomeCreature(subtypes.clone()),
                            Duration::EndOfTurn,
                        )
                    };
                    let mut changes = vec![types];
                    if !*still_land {
                        changes.push(CharChange::SetColors(*colors));
                    }
                    changes.push(CharChange::AddKeywords(crate::layers::KeywordSet::of(
                        keywords,
                    )));
                    for change in changes {
                        self.add_char_effect(source, me, vec![o], change, duration);
                    }
                    self.add_pt_effect(o, PtChange::Set(*power, *toughness));
                    if *forever && let Some(e) = self.pt_effects.last_mut() {
                        e.indefinite = true;
                    }
                }
            }
            Effect::BecomeCreatureAll {
                filter,
                who,
                power,
                toughness,
            } => {
                let all = self.controlled_matching(res, *who, filter);
                let source = Self::source_of(&res.item);
                self.add_char_effect(
                    source,
                    me,
                    all.clone(),
                    CharChange::BecomeCreature(Vec::new()),
                    Duration::EndOfTurn,
                );
                for o in all {
                    self.add_pt_effect(o, PtChange::Set(*power, *toughness));
                }
            }
            _ => debug_assert!(
                false,
                "not an effect of characteristics (types, colours, text, abilities): {e:?}"
            ),
        }
    }

    /// The permanents controlled by `who` (as the resolving item sees them) that match
    /// `filter`: the objects of a "<filter> <who> control(s) ..." effect.
    fn controlled_matching(
        &self,
        res: &Resolution,
        who: PlayerRef,
        filter: &crate::targets::ObjectFilter,
    ) -> Vec<ObjectId> {
        let me = res.item.controller;
        let players = self.players_of(res, who);
        self.battlefield
            .iter()
            .copied()
            .filter(|id| {
                self.obj(*id)
                    .is_some_and(|o| players.contains(&o.controller))
                    && self.matches_filter(*id, filter, me)
            })
            .collect()
    }
}
