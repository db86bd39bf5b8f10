//! What a command's words, a button or a menu choice do, and the private panel.

use super::components::{self, Custom, PUBLIC_PHRASES, PickKind};
use super::delivery::{self, head};
use super::{Data, Error, Shared, commands};
use crate::grammar::{Command, GrammarError};
use crate::service::ServiceError;
use crate::storage::Id;
use poise::serenity_prelude as serenity;
use serenity::{
    ChannelId, ComponentInteraction, ComponentInteractionDataKind, CreateActionRow,
    CreateAllowedMentions, CreateAttachment, CreateInteractionResponse,
    CreateInteractionResponseFollowup, CreateInteractionResponseMessage, EditMessage, FullEvent,
    Http, Interaction, UserId,
};
use std::sync::atomic::{AtomicBool, Ordering};

/// A reply to an interaction, before it is turned into Discord builders.
#[derive(Debug, Default)]
pub struct Reply {
    pub content: String,
    pub rows: Vec<CreateActionRow>,
    pub files: Vec<(Vec<u8>, String)>,
    pub ephemeral: bool,
    pub mentions: Vec<UserId>,
    /// Where the rest can be read when the content is cut at Discord's limit (None:
    /// [`delivery::MORE_REPLY`]).
    pub more: Option<&'static str>,
}

impl Reply {
    pub fn ephemeral(s: impl Into<String>) -> Reply {
        Reply {
            content: s.into(),
            ephemeral: true,
            ..Default::default()
        }
    }
    pub fn public(s: impl Into<String>) -> Reply {
        Reply {
            content: s.into(),
            ..Default::default()
        }
    }
    /// The content as sent: cut to Discord's limit with [`Reply::more`] saying where the
    /// rest is (never empty: Discord refuses an empty message).
    pub fn content_cut(&self) -> String {
        if self.content.trim().is_empty() {
            return "\u{200b}".to_string();
        }
        delivery::head_with(
            &self.content,
            delivery::MAX_CONTENT,
            self.more.unwrap_or(delivery::MORE_REPLY),
        )
    }
    fn followup(self) -> CreateInteractionResponseFollowup {
        let mut f = CreateInteractionResponseFollowup::new()
            .content(self.content_cut())
            .ephemeral(self.ephemeral)
            .components(self.rows)
            .allowed_mentions(CreateAllowedMentions::new().users(self.mentions));
        for (b, n) in self.files {
            f = f.add_file(CreateAttachment::bytes(b, n));
        }
        f
    }
}

/// The game a command is about: the one given, the one of this thread, or the user's only
/// active game.
pub async fn resolve_game(
    data: &Data,
    user: Id,
    channel: ChannelId,
    given: Option<i64>,
) -> Result<Id, String> {
    if let Some(g) = given {
        return Ok(g);
    }
    let games = data.svc.games_of(user).await.map_err(|e| e.to_string())?;
    let here = channel.get() as i64;
    if let Some(g) = games
        .iter()
        .find(|g| g.thread_id == Some(here) && g.status == "active")
    {
        return Ok(g.id);
    }
    let active: Vec<&crate::storage::GameRow> =
        games.iter().filter(|g| g.status == "active").collect();
    match active.as_slice() {
        [one] => Ok(one.id),
        [] => Err("You have no active game here. Start one with `/mtg challenge`.".into()),
        many => Err(format!(
            "You play several games: say which with `game:` ({}), or use the game's thread.",
            many.iter()
                .map(|g| g.id.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// The game a look at public information (`/mtg board`, `/mtg log`) is about: the one
/// given, the game of this thread (for anyone: spectators too), else as [`resolve_game`].
pub async fn resolve_view(
    data: &Data,
    user: Id,
    channel: ChannelId,
    given: Option<i64>,
) -> Result<Id, String> {
    if let Some(g) = given {
        return Ok(g);
    }
    if let Ok(Some(g)) = data.svc.db.game_in_thread(channel.get() as i64).await {
        return Ok(g.id);
    }
    resolve_game(data, user, channel, None).await
}

/// The private panel: your hand, what is asked, and every legal answer as a menu.
pub async fn panel(
    data: &Data,
    _http: &Http,
    user: Id,
    discord: u64,
    game_id: Id,
    with_hand_image: bool,
) -> Reply {
    let l = match data.svc.load(game_id).await {
        Ok(l) => l,
        Err(e) => return Reply::ephemeral(e.to_string()),
    };
    let Some(seat) = l.seat_of(user) else {
        return Reply::ephemeral(format!(
            "You are not playing in game {game_id}; spectators can use `/mtg board`."
        ));
    };
    let names = delivery::hand_names(&l.game, seat);
    let mut text = format!(
        "**Game {game_id}** · your hand ({}): {}\n",
        names.len(),
        if names.is_empty() {
            "empty".to_string()
        } else {
            names.join(", ")
        }
    );
    let mut r = Reply::ephemeral("");
    if l.game.result.is_some() {
        text.push_str("The game is over.");
    } else if let Some(p) = l.game.pending() {
        if p.player == seat {
            text.push_str(&format!("You must {}.", p.decision.describe()));
            let opts = crate::grammar::options(&l.game, seat, false);
            let quick: Vec<String> = opts
                .iter()
                .filter(|o| PUBLIC_PHRASES.contains(&o.as_str()))
                .cloned()
                .collect();
            let buttons =
                components::answer_buttons(game_id, l.row.version, discord, &quick, Vec::new());
            let room = 5usize.saturating_sub(buttons.len()).max(1);
            let several = crate::grammar::object_choices(&l.game, seat);
            if several.is_none() && opts.len() > components::MENU_OPTIONS {
                let shown = opts.len().min(room * components::MENU_OPTIONS);
                text.push_str(&format!(
                    "\nThe menus hold answers 1-{shown} of {}; say any answer with `/mtg play` (autocompleted).",
                    opts.len()
                ));
            }
            r.rows = match several {
                // Discard or sacrifice several: one menu taking exactly that many, so that
                // every combination can be chosen.
                Some(c) => {
                    let placeholder = format!("Choose {} cards to {}", c.count, c.verb);
                    let pick = components::Pick {
                        game: game_id,
                        version: l.row.version,
                        user: discord,
                        kind: PickKind::Choose,
                        text: c.verb,
                        placeholder: &placeholder,
                        min_values: u8::try_from(c.count).unwrap_or(u8::MAX),
                    };
                    let items: Vec<(String, String)> =
                        c.labels.iter().map(|o| (o.clone(), o.clone())).collect();
                    if items.len() > components::MENU_OPTIONS {
                        text.push_str(&format!(
                            "\nThe menu holds the first {} cards; name any {} with `/mtg play {} A, B`.",
                            components::MENU_OPTIONS,
                            c.count,
                            c.verb
                        ));
                    }
                    let max = u8::try_from(c.count).unwrap_or(u8::MAX);
                    components::pick_menus(&pick, &items, max, 1)
                }
                None => {
                    let items: Vec<(String, String)> =
                        opts.iter().map(|o| (o.clone(), o.clone())).collect();
                    let pick = components::Pick {
                        game: game_id,
                        version: l.row.version,
                        user: discord,
                        kind: PickKind::Phrase,
                        text: "",
                        placeholder: "Everything you may do now",
                        min_values: 1,
                    };
                    components::pick_menus(&pick, &items, 1, room)
                }
            };
            r.rows.extend(buttons);
            r.rows.truncate(5);
        } else {
            let who = l.game.player(p.player).name.clone();
            text.push_str(&format!("Waiting for {who} to {}.", p.decision.describe()));
        }
    }
    r.content = text;
    if with_hand_image && let Some(png) = delivery::hand_png(data, game_id, &l.game, seat).await {
        r.files.push((png, "hand.png".into()));
    }
    r
}

/// Runs `words` for `user` in `game` (at `version` when it came from a prompt) and delivers
/// the result; returns the private reply.
pub async fn act(
    data: &Data,
    http: &Http,
    user: Id,
    discord: u64,
    game_id: Id,
    words: &str,
    version: Option<i64>,
) -> Reply {
    // Stops and card texts: about the player, answered here (the same words as in a game).
    if let Some(
        cmd @ (Command::Stops(_) | Command::ListStops | Command::HelpStops | Command::Card(_)),
    ) = crate::grammar::fixed_command(words)
    {
        return match data.svc.player_words(user, &cmd).await {
            Ok(m) => Reply::ephemeral(m),
            Err(e) => Reply::ephemeral(e.to_string()),
        };
    }
    match data.svc.command(user, game_id, words, version).await {
        Ok(plan) => {
            let delivered = match delivery::deliver(data, http, &plan, Some(user)).await {
                Ok(d) => d,
                Err(e) => {
                    tracing::warn!(game_id, error = %e, "delivery failed");
                    Default::default()
                }
            };
            super::league::after_command(data, http, game_id).await;
            let mut done = format!("Done: `{}`.", words.trim());
            if let Some(notes) = delivered.notes() {
                done.push('\n');
                done.push_str(&notes);
            }
            // `help` asked for what the player may say; otherwise the panel shows it.
            let help = crate::grammar::fixed_command(words) == Some(Command::Help);
            for t in plan.private_for(user) {
                // Private lines that are not the board (the board is in the image/status).
                for line in t.lines().filter(|l| l.starts_with("You ")) {
                    if help || !line.starts_with("You may say") {
                        done.push('\n');
                        done.push_str(line);
                    }
                }
            }
            if let Some(w) = plan.waited_for(user) {
                done.push('\n');
                done.push_str(w);
            }
            let still_mine = plan.choices.iter().any(|c| c.user_id == user);
            let dm_failed = delivered.dm_failed.contains(&user);
            if still_mine || dm_failed {
                let mut r = panel(data, http, user, discord, game_id, dm_failed).await;
                if dm_failed {
                    done.push_str("\n(I could not DM you your hand, so here it is.)");
                }
                r.content = format!("{done}\n{}", r.content);
                r
            } else {
                Reply::ephemeral(done)
            }
        }
        Err(ServiceError::Stale {
            expected, actual, ..
        }) => {
            let mut r = panel(data, http, user, discord, game_id, false).await;
            r.content = format!(
                "This prompt is out of date: the game moved on (it was for version {expected}, \
                 the game is at {actual}). Here is where it stands now:\n{}",
                r.content
            );
            r
        }
        Err(ServiceError::Grammar(GrammarError::Needs {
            card,
            what,
            options,
        })) => needs_menu(data, user, discord, game_id, words, &card, &what, &options).await,
        Err(e) => Reply::ephemeral(format!("{e}")),
    }
}

/// A menu for the missing part of a command (target, cost, X).
#[allow(clippy::too_many_arguments)]
async fn needs_menu(
    data: &Data,
    user: Id,
    discord: u64,
    game_id: Id,
    words: &str,
    card: &str,
    what: &str,
    options: &[String],
) -> Reply {
    let version = match data.svc.db.game(game_id).await {
        Ok(Some(r)) => r.version,
        _ => return Reply::ephemeral(format!("{card} needs {what}")),
    };
    let Some(kind) = needs_kind(what) else {
        return Reply::ephemeral(format!("{card} needs {what}: {}", options.join(", ")));
    };
    let max_x = match data.svc.load(game_id).await {
        Ok(l) => l.seat_of(user).map_or(20, |p| max_x(&l.game, p)),
        Err(_) => 20,
    };
    let items = needs_items(kind, options, max_x);
    let max = 1;
    let mut r = Reply::ephemeral(format!("**{card}** needs {what}: choose below."));
    let placeholder = format!("{card}: {what}");
    let pick = components::Pick {
        game: game_id,
        version,
        user: discord,
        kind,
        text: words.trim(),
        placeholder: &placeholder,
        min_values: 1,
    };
    r.rows = components::pick_menus(&pick, &items, max, 5);
    if r.rows.is_empty() {
        r.content = format!(
            "{card} needs {what}: say it in one command, e.g. `{} on {}`.",
            words.trim(),
            options.first().map_or("...", |s| s.as_str())
        );
    } else if items.len() > components::MENU_OPTIONS {
        r.content.push_str(&format!(
            " ({} choices, in pages of {}; past the last menu say it with `/mtg play`.)",
            items.len(),
            components::MENU_OPTIONS
        ));
    }
    r
}

/// Which menu completes a command the grammar says `needs` `what`.
pub fn needs_kind(what: &str) -> Option<PickKind> {
    // First: its example names a card, which may contain the words below.
    Some(if what.starts_with("a card to exile from your hand") {
        PickKind::Exile
    } else if what.starts_with("a target") {
        PickKind::Target
    } else if what.contains("discard") {
        PickKind::Discard
    } else if what.contains("sacrifice") {
        PickKind::Sacrifice
    } else if what.contains("additional cost") {
        PickKind::CostOption
    } else if what.contains("value for X") {
        PickKind::X
    } else if what.starts_with("a mode") {
        PickKind::Mode
    } else {
        return None;
    })
}

/// The largest X the menus offer: 20, or one for each mana source the player could tap now
/// when they have more (paged past 25; any X can also be said with `x N`).
pub fn max_x(game: &engine::Game, p: engine::PlayerId) -> u32 {
    let mut sources = Vec::new();
    for a in game.legal_answers(p) {
        if let engine::Answer::ActivateMana { source, .. } = a
            && !sources.contains(&source)
        {
            sources.push(source);
        }
    }
    (sources.len() as u32).clamp(20, 124)
}

/// The menu's (label, value) pairs: numbered choices (cost options, modes: `2 (text)`) are
/// offered by their number; X from 0 to `max_x`.
pub fn needs_items(kind: PickKind, options: &[String], max_x: u32) -> Vec<(String, String)> {
    match kind {
        PickKind::X => (0..=max_x)
            .map(|n| (format!("X = {n}"), n.to_string()))
            .collect(),
        PickKind::CostOption | PickKind::Mode => options
            .iter()
            .map(|o| {
                let n = o.split_whitespace().next().unwrap_or("1").to_string();
                (o.clone(), n)
            })
            .collect(),
        _ => options.iter().map(|o| (o.clone(), o.clone())).collect(),
    }
}

/// Every Discord event: component interactions are ours (poise handles commands).
pub async fn on_event(
    ctx: poise::FrameworkContext<'_, Shared, Error>,
    event: &FullEvent,
) -> Result<(), Error> {
    if let FullEvent::InteractionCreate {
        interaction: Interaction::Component(c),
    } = event
    {
        let data = ctx.user_data.clone();
        let http = ctx.serenity_context.http.clone();
        let c = c.clone();
        // Handled in its own task so one slow answer does not hold the others.
        tokio::spawn(async move {
            let acked = AtomicBool::new(false);
            if let Err(e) = on_component(&data, &http, &c, &acked).await {
                tracing::warn!(error = %e, "component failed");
                tell_failure(&http, &c, acked.load(Ordering::SeqCst), &e).await;
            }
        });
    }
    Ok(())
}

/// What the user who clicked is told when handling the click failed: the error, privately
/// (as a failed slash command is answered, see [`commands::on_error`]).
pub fn failure_text(e: &Error) -> String {
    delivery::head_with(
        &format!("Something went wrong: {e}"),
        delivery::MAX_CONTENT,
        delivery::MORE_ERROR,
    )
}

/// Tells the user who clicked that it failed, privately: as the interaction's answer when it
/// was not `acked` (acknowledged) yet, else as an ephemeral followup (the first followup
/// after an ephemeral deferral is ephemeral). A failure to tell them is only logged.
async fn tell_failure(http: &Http, c: &ComponentInteraction, acked: bool, e: &Error) {
    let text = failure_text(e);
    let answer = CreateInteractionResponse::Message(
        CreateInteractionResponseMessage::new()
            .content(text.clone())
            .ephemeral(true)
            .allowed_mentions(CreateAllowedMentions::new().empty_users()),
    );
    if !acked {
        if let Err(e) = c.create_response(http, answer).await {
            tracing::warn!(error = %e, "could not tell the user the click failed");
        }
        return;
    }
    let followup = CreateInteractionResponseFollowup::new()
        .content(text)
        .ephemeral(true)
        .allowed_mentions(CreateAllowedMentions::new().empty_users());
    if let Err(e) = c.create_followup(http, followup).await {
        tracing::warn!(error = %e, "could not tell the user the click failed");
    }
}

/// Handles a click or a menu choice; `acked` is set once the interaction is acknowledged
/// (deferred), so that a failure is told the right way (see [`tell_failure`]).
async fn on_component(
    data: &Data,
    http: &Http,
    c: &ComponentInteraction,
    acked: &AtomicBool,
) -> Result<(), Error> {
    let id = c.data.custom_id.as_str();
    if id.starts_with(super::league::LEAGUE_ID_PREFIX) {
        // League clicks answer at once or defer first; what fails after that is a followup.
        return super::league::on_component(data, http, c, acked).await;
    }
    // `ss:Y:game:user` is the challenge's deck menu.
    let custom = if let Some(rest) = id.strip_prefix("ss:Y:") {
        rest.split_once(':').and_then(|(g, u)| {
            Some(Custom::Accept {
                game: g.parse().ok()?,
                user: u.parse().ok()?,
            })
        })
    } else {
        Custom::decode(id)
    };
    let Some(custom) = custom else {
        return quick(
            http,
            c,
            "This button is not mine (or too old to understand).",
        )
        .await;
    };
    if custom.user() != c.user.id.get() {
        let text = match custom {
            Custom::Accept { .. } | Custom::Decline { .. } => {
                format!("This challenge is for <@{}>, not you.", custom.user())
            }
            _ => format!(
                "This prompt is for <@{}>: only they can answer it.",
                custom.user()
            ),
        };
        return quick(http, c, &text).await;
    }
    // Everything else touches the database: acknowledge within Discord's 3 s first (a 429
    // is waited out and tried again, within those 3 s).
    let defer =
        CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new().ephemeral(true));
    delivery::with_retry("defer", || c.create_response(http, defer.clone())).await?;
    acked.store(true, Ordering::SeqCst);
    let user = data.user_of(&c.user).await?;
    let discord = c.user.id.get();
    let values: Vec<String> = match &c.data.kind {
        ComponentInteractionDataKind::StringSelect { values } => values.clone(),
        _ => Vec::new(),
    };
    let reply = match custom {
        Custom::Answer {
            game,
            version,
            phrase,
            ..
        } => act(data, http, user, discord, game, &phrase, Some(version)).await,
        Custom::Pick {
            game,
            version,
            kind,
            text,
            ..
        } => {
            if values.is_empty() {
                Reply::ephemeral("Choose something in the menu.")
            } else if text == components::DRAFT {
                gather(data, game, version, discord, kind, values)
            } else {
                let words = kind.complete(&text, &values);
                act(data, http, user, discord, game, &words, Some(version)).await
            }
        }
        Custom::Draft {
            game,
            version,
            kind,
            clear,
            ..
        } => {
            let chosen = data.mem(|m| m.drafts.remove(&(game, version, discord)));
            match chosen {
                _ if clear => {
                    Reply::ephemeral("Cleared: nothing is chosen. Choose again in the menus above.")
                }
                Some(v) if !v.is_empty() => {
                    let words = kind.complete("", &v);
                    act(data, http, user, discord, game, &words, Some(version)).await
                }
                _ => Reply::ephemeral("Nothing is chosen yet: choose in the menus first."),
            }
        }
        Custom::Options { game, version, .. } => {
            let current = data
                .svc
                .db
                .game(game)
                .await
                .ok()
                .flatten()
                .map(|r| r.version);
            let mut r = panel(data, http, user, discord, game, true).await;
            if current.is_some_and(|v| v != version) {
                r.content = format!(
                    "This prompt is out of date (the game moved on); here is where it stands now:\n{}",
                    r.content
                );
            }
            r
        }
        Custom::Accept { game, .. } => {
            let deck = commands::deck_choice(data, user, values.first().map(String::as_str)).await;
            match data.svc.accept(user, game, &deck).await {
                Ok(plan) => {
                    close_challenge(http, c, &format!("Challenge accepted: game {game} is on."))
                        .await;
                    let d = delivery::deliver(data, http, &plan, Some(user)).await?;
                    let mut r =
                        panel(data, http, user, discord, game, !d.dm_failed.is_empty()).await;
                    let thread = delivery::thread_of(data, game)
                        .await
                        .map_or_else(String::new, |t| format!(" in <#{t}>"));
                    let notes = d.notes().map_or_else(String::new, |n| format!("{n}\n"));
                    r.content = format!("You accepted game {game}{thread}.\n{notes}{}", r.content);
                    r
                }
                Err(e) => Reply::ephemeral(e.to_string()),
            }
        }
        Custom::Decline { game, .. } => match data.svc.decline(user, game).await {
            Ok(plan) => {
                close_challenge(http, c, &format!("Challenge declined (game {game}).")).await;
                delivery::deliver(data, http, &plan, Some(user)).await?;
                Reply::ephemeral(format!("You declined game {game}."))
            }
            Err(e) => Reply::ephemeral(e.to_string()),
        },
    };
    let followup = reply.followup();
    delivery::with_retry("followup", || c.create_followup(http, followup.clone())).await?;
    Ok(())
}

/// Adds the choices of one paged attack or block menu to what was chosen in the others,
/// and says what **Declare** will declare.
fn gather(
    data: &Data,
    game: Id,
    version: i64,
    discord: u64,
    kind: PickKind,
    values: Vec<String>,
) -> Reply {
    let all = data.mem(|m| {
        // Choices for an older state of the game are of no use any more.
        m.drafts
            .retain(|(g, v, u), _| *g != game || *u != discord || *v == version);
        let d = m.drafts.entry((game, version, discord)).or_default();
        for v in values {
            if !d.contains(&v) {
                d.push(v);
            }
        }
        d.clone()
    });
    let what = if kind == PickKind::Attack {
        "Attackers"
    } else {
        "Blocks"
    };
    let mut r = Reply::ephemeral(format!(
        "{what} chosen so far ({}): {}.\nChoose more in the other menus, then press **Declare**.",
        all.len(),
        all.join(", ")
    ));
    r.rows
        .push(components::draft_buttons(game, version, discord, kind));
    r
}

/// Removes the buttons of the challenge message once it was answered.
async fn close_challenge(http: &Http, c: &ComponentInteraction, note: &str) {
    let text = closed_challenge_text(&c.message.content, note);
    if let Err(e) = c
        .channel_id
        .edit_message(
            http,
            c.message.id,
            EditMessage::new().content(text).components(Vec::new()),
        )
        .await
    {
        tracing::debug!(error = %e, "could not close the challenge message");
    }
}

/// The challenge message once answered: its text (cut, with a pointer, when it would not
/// fit) and the `note` saying how it was answered, which is never cut off.
pub fn closed_challenge_text(content: &str, note: &str) -> String {
    let note = format!("\n*{}*", head(note, 200));
    let room = delivery::MAX_CONTENT.saturating_sub(note.chars().count());
    format!(
        "{}{note}",
        delivery::head_with(content, room, delivery::MORE_CHALLENGE)
    )
}

/// An immediate ephemeral answer (no database work).
async fn quick(http: &Http, c: &ComponentInteraction, text: &str) -> Result<(), Error> {
    c.create_response(
        http,
        CreateInteractionResponse::Message(
            CreateInteractionResponseMessage::new()
                .content(text)
                .ephemeral(true)
                .allowed_mentions(CreateAllowedMentions::new().empty_users()),
        ),
    )
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A closed challenge too long for a message: cut with its pointer, the note kept whole.
    #[test]
    fn a_closed_challenge_keeps_its_note_and_points_to_the_rest() {
        let short = closed_challenge_text("Alice challenges Bob.", "Challenge declined.");
        assert_eq!(short, "Alice challenges Bob.\n*Challenge declined.*");
        let long = closed_challenge_text(&"é".repeat(3000), "Challenge accepted: game 7 is on.");
        assert!(
            long.chars().count() <= delivery::MAX_CONTENT,
            "{}",
            long.len()
        );
        assert!(
            long.ends_with(&format!(
                "{}\n*Challenge accepted: game 7 is on.*",
                delivery::MORE_CHALLENGE
            )),
            "{long}"
        );
    }

    /// An error message passing Discord's limit is cut with a pointer to the log; a short
    /// one is whole; a reply points where it was told to, else to `/mtg hand` and the board.
    #[test]
    fn errors_and_replies_are_cut_with_their_pointer() {
        let e = anyhow::anyhow!("{}", "x".repeat(5000));
        let t = failure_text(&e);
        assert!(t.starts_with("Something went wrong: xxx"), "{t}");
        assert!(t.chars().count() <= delivery::MAX_CONTENT);
        assert!(t.ends_with(delivery::MORE_ERROR), "{t}");
        let e = anyhow::anyhow!("pool closed");
        assert_eq!(failure_text(&e), "Something went wrong: pool closed");
        let mut r = Reply::ephemeral("y".repeat(3000));
        assert!(r.content_cut().ends_with(delivery::MORE_REPLY));
        r.more = Some(delivery::MORE_BOARD);
        let cut = r.content_cut();
        assert!(cut.ends_with(delivery::MORE_BOARD) && !cut.contains("`/mtg board`"));
        assert_eq!(Reply::ephemeral(" ").content_cut(), "\u{200b}");
    }

    /// `/deck show` of a long deck: the list is attached and the text says so; a short one
    /// attaches nothing.
    #[test]
    fn a_long_deck_list_is_attached() {
        let list = "1 Lightning Axe\n".repeat(200);
        let r = commands::deck_show_reply(format!("**long**\n{list}"), Some(list.clone()));
        assert!(r.content_cut().ends_with(delivery::MORE_DECK));
        assert_eq!(r.files, vec![(list.into_bytes(), "deck.txt".to_string())]);
        let r = commands::deck_show_reply("**short**\n4 Forest".into(), Some("4 Forest".into()));
        assert!(r.files.is_empty() && r.more.is_none());
    }

    /// 30 attackers: two paged menus whose placeholders say which of how many they hold,
    /// choices from both pages gathered (the same one twice counts once) and declared
    /// together as 2 different attackers.
    #[tokio::test]
    async fn paged_attack_menus_gather_choices_from_every_page() {
        let g = engine::scenario::game_from_str(&crate::grammar::tests::thirty_bears_attack())
            .expect("scenario");
        let alice = engine::PlayerId(0);
        let legal = g.legal_answers(alice);
        let r = commands::picker_reply(&g, alice, 7, 3, 42, PickKind::Attack, &legal);
        assert!(r.content.contains("30 choices"), "{}", r.content);
        let json: Vec<serde_json::Value> = r
            .rows
            .iter()
            .map(|x| serde_json::to_value(x).expect("json"))
            .collect();
        let menus: Vec<&serde_json::Value> = json
            .iter()
            .map(|x| &x["components"][0])
            .filter(|c| c["type"] == 3)
            .collect();
        assert_eq!(menus.len(), 2);
        assert_eq!(menus[1]["placeholder"], "Choose attackers (26-30 of 30)");
        assert_eq!(menus[1]["max_values"], 5);
        assert_eq!(menus[1]["options"][4]["value"], "Ashcoat Bear 30 of 30");
        for m in &menus {
            let id = m["custom_id"].as_str().expect("id");
            assert!(
                matches!(Custom::decode(id), Some(Custom::Pick { kind: PickKind::Attack, ref text, .. }) if text == components::DRAFT),
                "{id}"
            );
        }
        let (mut dbs, _dir) = crate::storage::tests::test_dbs().await;
        let data = Data::new(crate::service::Service {
            db: dbs.remove(0),
            cfg: crate::config::Config::default(),
            clock: crate::service::Clock::System,
        });
        let first = gather(
            &data,
            7,
            3,
            42,
            PickKind::Attack,
            vec!["Ashcoat Bear 1 of 30".into()],
        );
        assert!(
            first.content.contains("(1): Ashcoat Bear 1 of 30"),
            "{}",
            first.content
        );
        let both = gather(
            &data,
            7,
            3,
            42,
            PickKind::Attack,
            vec![
                "Ashcoat Bear 30 of 30".into(),
                "Ashcoat Bear 1 of 30".into(),
            ],
        );
        assert!(both.content.contains("(2)"), "{}", both.content);
        let ids: Vec<String> = serde_json::to_value(&both.rows)
            .expect("json")
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|r| r["components"].as_array().cloned().unwrap_or_default())
            .filter_map(|c| c["custom_id"].as_str().map(str::to_string))
            .collect();
        assert!(
            ids.iter().any(|i| Custom::decode(i)
                == Some(Custom::Draft {
                    game: 7,
                    version: 3,
                    user: 42,
                    kind: PickKind::Attack,
                    clear: false
                })),
            "{ids:?}"
        );
        let chosen = data
            .mem(|m| m.drafts.get(&(7, 3, 42)).cloned())
            .expect("draft");
        let words = PickKind::Attack.complete("", &chosen);
        match crate::grammar::parse_answers(&g, alice, &words)
            .expect("declared")
            .as_slice()
        {
            [engine::Answer::Attack(v)] => {
                assert_eq!(v.len(), 2);
                assert_ne!(v[0].attacker, v[1].attacker);
            }
            other => panic!("{other:?}"),
        }
        // A newer version of the game drops the old choices.
        gather(
            &data,
            7,
            4,
            42,
            PickKind::Attack,
            vec!["Ashcoat Bear 2 of 30".into()],
        );
        assert!(data.mem(|m| !m.drafts.contains_key(&(7, 3, 42))));
    }

    /// X past the first page: a player with 30 mana sources may choose X up to 30.
    #[test]
    fn x_is_offered_up_to_the_mana_sources() {
        let lands = vec!["\"Forest\""; 30].join(", ");
        let g = engine::scenario::game_from_str(&format!(
            "name = \"lands\"\n[setup]\nactive = \"alice\"\nstep = \"precombat_main\"\nturn = 3\n[setup.alice]\nlibrary = [\"Forest\"]\nbattlefield = [{lands}]\n[setup.bob]\nlibrary = [\"Forest\"]\n"
        ))
        .expect("scenario");
        let alice = engine::PlayerId(0);
        assert_eq!(max_x(&g, alice), 30);
        let items = needs_items(PickKind::X, &[], max_x(&g, alice));
        assert_eq!(items.len(), 31);
        assert_eq!(items[30], ("X = 30".to_string(), "30".to_string()));
        let pick = components::Pick {
            game: 1,
            version: 1,
            user: 1,
            kind: PickKind::X,
            text: "cast Fireball",
            placeholder: "X",
            min_values: 1,
        };
        assert_eq!(components::pick_menus(&pick, &items, 1, 5).len(), 2);
    }

    #[test]
    fn what_the_grammar_needs_picks_a_menu() {
        assert_eq!(needs_kind("a target (creature)"), Some(PickKind::Target));
        assert_eq!(needs_kind("a mode (add `mode 1`)"), Some(PickKind::Mode));
        assert_eq!(needs_kind("a value for X (add `x 3`)"), Some(PickKind::X));
        assert_eq!(
            needs_kind("a card to discard (add `discarding ...`)"),
            Some(PickKind::Discard)
        );
        assert_eq!(needs_kind("a choice of what to pay with"), None);
        assert_eq!(
            needs_kind(
                "a card to exile from your hand (add `exiling CARD`: `begin with Gemstone Caverns exiling Discard Fixture`)"
            ),
            Some(PickKind::Exile)
        );
        let modes = vec![
            "1 (deal 2 damage)".to_string(),
            "2 (gain 3 life)".to_string(),
        ];
        assert_eq!(
            needs_items(PickKind::Mode, &modes, 20),
            vec![
                ("1 (deal 2 damage)".to_string(), "1".to_string()),
                ("2 (gain 3 life)".to_string(), "2".to_string())
            ]
        );
        assert_eq!(needs_items(PickKind::X, &[], 20).len(), 21);
    }
}
