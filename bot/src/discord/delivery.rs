//! Putting a [`Plan`] on Discord: the game thread (public lines, the decider mentioned,
//! public-safe buttons, the board image when it changed), the status message edited in place,
//! and each player's hand by DM when it changed.
//!
//! Only public material reaches the thread: the plan's public lines, the spectator's view
//! (board image, status) and answers that reveal nothing (keep, pass, no blocks...). Hands and
//! legal plays go by DM or in ephemeral replies.

use super::Data;
use super::components::{self, PUBLIC_PHRASES};
use crate::scene;
use crate::service::{Plan, Prefs};
use crate::storage::Id;
use engine::view::View;
use engine::{Game, PlayerId};
use poise::serenity_prelude as serenity;
use serenity::{
    ChannelId, CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateMessage,
    EditMessage, GetMessages, Http, MessageId, UserId,
};
use std::hash::{Hash, Hasher};

/// Discord's message length limit (2000 characters), with room to spare.
pub const MAX_CONTENT: usize = 1900;

/// Where the rest of a cut private reply can be read.
pub const MORE_REPLY: &str = "(cut at Discord's limit; `/mtg hand` and `/mtg board` show the rest)";

/// Where the rest of a cut thread post can be read.
pub const MORE_PUBLIC: &str = "(earlier lines cut; `/mtg board` shows the whole state)";

/// Where the rest of a cut status message can be read.
pub const MORE_STATUS: &str = "(cut at Discord's limit; `/mtg board` shows the whole state)";

/// Where the rest of a cut `/mtg board` reply can be read (not `/mtg board` itself).
pub const MORE_BOARD: &str =
    "(cut at Discord's limit; the board image shows every permanent, `/mtg log` what happened)";

/// Where the rest of a cut card text (`/mtg card`, `card NAME`) can be read.
pub const MORE_CARD: &str = "(cut at Discord's limit; the card image shows its whole text)";

/// Where the rest of a cut deck list (`/deck show`) can be read.
pub const MORE_DECK: &str = "(cut at Discord's limit; the whole list is attached as deck.txt)";

/// Where the rest of a cut challenge message can be read.
pub const MORE_CHALLENGE: &str = "(cut; `/mtg games` lists your games)";

/// Where the rest of a cut league post or league reply can be read.
pub const MORE_LEAGUE: &str =
    "(cut at Discord's limit; `/league standings` and `/league me` show the whole league)";

/// Where the rest of cut standings (the embed's description) can be read.
pub const MORE_STANDINGS: &str = "(cut; the standings image lists every player)";

/// Where the rest of a cut error message can be read.
pub const MORE_ERROR: &str = "(cut at Discord's limit; the bot's log has the whole error)";

/// What happened to the private deliveries.
#[derive(Debug, Default)]
pub struct Delivered {
    /// Users whose hand could not be sent by DM (closed DMs); the caller may show it
    /// ephemerally to the one who is interacting.
    pub dm_failed: Vec<Id>,
    /// Why the post in the game's thread failed (a locked or deleted thread, a missing
    /// permission), when it did: the rest of the delivery still went out, and the caller tells
    /// the player who acted.
    pub thread_failed: Option<String>,
    /// What went wrong with the status message, when something did (see [`StatusUpdate`]):
    /// the caller tells the player who acted.
    pub status_failed: Option<String>,
}

impl Delivered {
    /// What the player who acted is told of the failures: the thread post, the status
    /// message (one line each), or None when all went out.
    pub fn notes(&self) -> Option<String> {
        let v: Vec<String> = self
            .thread_failed
            .as_deref()
            .map(thread_failed_note)
            .into_iter()
            .chain(self.status_failed.clone())
            .collect();
        (!v.is_empty()).then(|| v.join("\n"))
    }
}

/// What a player is told when the game's thread could not be posted in.
pub fn thread_failed_note(why: &str) -> String {
    format!(
        "The game's thread could not be updated ({why}): the move counted. \
         Ask a server admin to check the thread and my permissions; `/mtg board` shows the game."
    )
}

/// Error code Discord answers when a user does not accept DMs from the bot.
pub const DM_CLOSED: isize = 50007;

pub fn is_dm_closed(e: &serenity::Error) -> bool {
    matches!(
        e,
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r))
            if r.error.code == DM_CLOSED
    )
}

/// Whether Discord answered 429 (rate limited).
pub fn is_rate_limited(e: &serenity::Error) -> bool {
    matches!(
        e,
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r))
            if r.status_code.as_u16() == 429
    )
}

/// How many times a request answered 429 is tried again.
pub const RATE_LIMIT_RETRIES: u32 = 4;

/// The wait before try `n` (from 0) after a 429: 0.5 s, doubling. Serenity's ratelimiter
/// (on in production) already waits out the `retry-after` of the routes it knows, so this
/// is for what gets through it (and for a client without it): the error serenity returns
/// does not carry the `retry-after` value.
pub fn rate_limit_wait(n: u32) -> std::time::Duration {
    std::time::Duration::from_millis(500u64 << n.min(6))
}

/// Runs a Discord request, and again after a wait each time it is answered 429 (at most
/// [`RATE_LIMIT_RETRIES`] times): a rate limit delays a post, it never drops it.
pub async fn with_retry<T, F, Fut>(what: &str, mut request: F) -> serenity::Result<T>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = serenity::Result<T>>,
{
    let mut n = 0;
    loop {
        match request().await {
            Err(e) if n < RATE_LIMIT_RETRIES && is_rate_limited(&e) => {
                let wait = rate_limit_wait(n);
                tracing::info!(what, ?wait, "rate limited by Discord; trying again");
                tokio::time::sleep(wait).await;
                n += 1;
            }
            r => return r,
        }
    }
}

fn hash_of(v: &impl serde::Serialize) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    serde_json::to_string(v).unwrap_or_default().hash(&mut h);
    h.finish()
}

/// Cuts `s` to at most `n` characters (Discord counts characters, not bytes), keeping the
/// end (the newest lines), with `…` where it was cut.
pub fn tail(s: &str, n: usize) -> String {
    let count = s.chars().count();
    if count <= n {
        return s.to_string();
    }
    let rest: String = s.chars().skip(count - n.saturating_sub(1)).collect();
    format!("…{rest}")
}

/// Cuts `s` to at most `n` characters, keeping the start, with `…` where it was cut.
pub fn head(s: &str, n: usize) -> String {
    head_with(s, n, "")
}

/// Cuts `s` to at most `n` characters keeping the start; when cut, `more` (where the rest
/// can be read) follows the `…`, within the `n`.
pub fn head_with(s: &str, n: usize, more: &str) -> String {
    if s.chars().count() <= n {
        return s.to_string();
    }
    let tail = if more.is_empty() {
        "…".to_string()
    } else {
        format!("…\n{more}")
    };
    let keep = n.saturating_sub(tail.chars().count());
    let kept: String = s.chars().take(keep).collect();
    format!("{kept}{tail}")
}

/// Cuts `s` to at most `n` characters keeping the end; when cut, `more` comes first.
pub fn tail_with(s: &str, n: usize, more: &str) -> String {
    if s.chars().count() <= n {
        return s.to_string();
    }
    let lead = format!("{more}\n");
    let kept = tail(s, n.saturating_sub(lead.chars().count()));
    format!("{lead}{kept}")
}

/// The game's thread (or channel).
pub async fn thread_of(data: &Data, game_id: Id) -> Option<ChannelId> {
    let row = data.svc.db.game(game_id).await.ok()??;
    let id = row.thread_id.or(row.channel_id)?;
    u64::try_from(id)
        .ok()
        .filter(|x| *x != 0)
        .map(ChannelId::new)
}

/// The board PNG of a game for a view, in the game's server language (None when images are
/// off or rendering failed).
pub async fn board_png(
    data: &Data,
    game_id: Id,
    view: &View,
    recent: &[String],
) -> Option<Vec<u8>> {
    let r = data.renderer(data.language_of_game(game_id).await)?;
    let scene = scene::board_scene(view, recent);
    tokio::task::spawn_blocking(move || r.board_png(&scene))
        .await
        .ok()?
        .map_err(|e| tracing::warn!(error = %e, "board image failed"))
        .ok()
}

/// The hand PNG for its owner's view, in the game's server language.
pub async fn hand_png(data: &Data, game_id: Id, game: &Game, p: PlayerId) -> Option<Vec<u8>> {
    let r = data.renderer(data.language_of_game(game_id).await)?;
    let view = game.view(Some(p));
    let playable: Vec<engine::CardId> = game
        .legal_answers(p)
        .iter()
        .filter_map(|a| match a {
            engine::Answer::PlayLand(id) | engine::Answer::Cast(id) => {
                game.obj(*id).map(|o| o.card)
            }
            _ => None,
        })
        .collect();
    let scene = scene::hand_scene(&view, &playable)?;
    tokio::task::spawn_blocking(move || r.hand_png(&scene))
        .await
        .ok()?
        .map_err(|e| tracing::warn!(error = %e, "hand image failed"))
        .ok()
}

/// The names of the cards in `p`'s hand, as they see it.
pub fn hand_names(game: &Game, p: PlayerId) -> Vec<String> {
    game.view(Some(p))
        .players
        .iter()
        .find(|x| x.id == p)
        .and_then(|x| x.hand.clone())
        .unwrap_or_default()
        .into_iter()
        .map(|c| c.name)
        .collect()
}

/// The status message text: built from the spectator's view only.
pub async fn status_text(data: &Data, game_id: Id, game: &Game, seats: &[Id]) -> String {
    let v = game.view(None);
    let mut s = format!(
        "**Game {game_id}** · {} rules · turn {} ({}) · {}\n",
        v.ruleset,
        v.turn,
        v.players
            .iter()
            .find(|p| p.id == v.active)
            .map_or("?", |p| p.name.as_str()),
        v.step.name()
    );
    for p in &v.players {
        s.push_str(&format!(
            "{}: {} life · hand {} · library {} · graveyard {}{}\n",
            p.name,
            p.life,
            p.hand_count,
            p.library_count,
            p.graveyard.len(),
            if p.lost { " · lost" } else { "" }
        ));
    }
    match (&v.result, &v.pending) {
        (Some(engine::GameResult::Won(w)), _) => {
            let name = v
                .players
                .iter()
                .find(|p| p.id == *w)
                .map_or("?", |p| p.name.as_str());
            s.push_str(&format!("**Game over: {name} wins.**\n"));
        }
        (Some(engine::GameResult::Draw), _) => match v.draw_reason {
            Some(reason) => s.push_str(&format!(
                "**Game over: a draw ({}).**\n",
                reason.describe(v.ruleset)
            )),
            None => s.push_str("**Game over: a draw.**\n"),
        },
        (None, Some(p)) => {
            let who = match seats.get(p.player.index()) {
                Some(u) => data.mention(*u).await,
                None => p.player.to_string(),
            };
            s.push_str(&format!("Waiting for {who} to {}.\n", p.description));
        }
        (None, None) => {}
    }
    if v.stack.is_empty() {
        s.push_str("Stack: empty\n");
    } else {
        s.push_str("Stack (top first): ");
        let items: Vec<String> = v
            .stack
            .iter()
            .map(|x| {
                if x.targets.is_empty() {
                    x.name.clone()
                } else {
                    format!("{} → {}", x.name, x.targets.join(", "))
                }
            })
            .collect();
        s.push_str(&items.join(" · "));
        s.push('\n');
    }
    let recent = data.mem(|m| m.recent.get(&game_id).cloned().unwrap_or_default());
    if !recent.is_empty() {
        s.push_str("Last: ");
        let last: Vec<&String> = recent.iter().rev().take(4).rev().collect();
        s.push_str(
            &last
                .iter()
                .map(|x| x.as_str())
                .collect::<Vec<_>>()
                .join(" · "),
        );
        s.push('\n');
    }
    head_with(&s, MAX_CONTENT, MORE_STATUS)
}

/// What became of the status message (see [`update_status`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StatusUpdate {
    /// Edited in place, or posted for the first time.
    Edited,
    /// Editing it failed (Discord's reason: the message deleted, 10008 Unknown Message, say):
    /// a new status message was posted and is edited from now on.
    Reposted(String),
    /// Neither the edit nor a new post went through (the thread deleted, 10003 Unknown
    /// Channel, or archived, 50083): Discord's reason.
    Failed(String),
}

impl StatusUpdate {
    /// What the player who acted is told, when something went wrong.
    pub fn note(&self) -> Option<String> {
        match self {
            StatusUpdate::Edited => None,
            StatusUpdate::Reposted(why) => Some(format!(
                "The game's status message could not be edited ({why}): I posted a new one \
                 in the thread."
            )),
            StatusUpdate::Failed(why) => Some(format!(
                "The game's status message could not be updated ({why}): the move counted; \
                 `/mtg board` shows the game."
            )),
        }
    }
}

/// The short reason of a Discord error: its message (`Unknown Message`), else the error.
fn discord_reason(e: &serenity::Error) -> String {
    match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
            format!("{} (Discord error {})", r.error.message, r.error.code)
        }
        other => other.to_string(),
    }
}

/// Edits the game's status message in place (finding it in the thread after a restart,
/// creating it when there is none). When the edit fails (the message deleted, the thread
/// archived or deleted), a new status message is posted, logged, and the outcome says so
/// (the caller tells the player who acted); nothing else of a delivery depends on it.
pub async fn update_status(
    data: &Data,
    http: &Http,
    game_id: Id,
    thread: ChannelId,
    text: String,
) -> StatusUpdate {
    let cached = data.mem(|m| m.status.get(&game_id).copied());
    let found = match cached {
        Some((c, m)) if c == thread => Some(m),
        _ => find_status(data, http, game_id, thread).await,
    };
    let mentions = CreateAllowedMentions::new().empty_users().empty_roles();
    let mut edit_failed = None;
    if let Some(m) = found {
        let edit = EditMessage::new()
            .content(text.clone())
            .allowed_mentions(mentions.clone());
        match with_retry("status edit", || thread.edit_message(http, m, edit.clone())).await {
            Ok(_) => {
                data.mem(|x| x.status.insert(game_id, (thread, m)));
                return StatusUpdate::Edited;
            }
            Err(e) => {
                tracing::warn!(game_id, error = %e, "status edit failed; posting anew");
                data.mem(|x| x.status.remove(&game_id));
                edit_failed = Some(discord_reason(&e));
            }
        }
    }
    let post = CreateMessage::new()
        .content(text)
        .allowed_mentions(mentions);
    match with_retry("status post", || thread.send_message(http, post.clone())).await {
        Ok(msg) => {
            data.mem(|x| x.status.insert(game_id, (thread, msg.id)));
            edit_failed.map_or(StatusUpdate::Edited, StatusUpdate::Reposted)
        }
        Err(e) => {
            tracing::warn!(game_id, error = %e, "status message could not be posted");
            StatusUpdate::Failed(discord_reason(&e))
        }
    }
}

/// The status message is the bot's first message in the thread starting with `**Game N**`.
async fn find_status(
    data: &Data,
    http: &Http,
    game_id: Id,
    thread: ChannelId,
) -> Option<MessageId> {
    let bot = data.bot_id.lock().ok().and_then(|b| *b);
    let msgs = thread
        .messages(http, GetMessages::new().after(MessageId::new(1)).limit(10))
        .await
        .ok()?;
    let marker = format!("**Game {game_id}**");
    msgs.iter()
        .filter(|m| bot.is_none_or(|b| m.author.id == b))
        .filter(|m| m.content.starts_with(&marker))
        .min_by_key(|m| m.id)
        .map(|m| m.id)
}

/// A user's Discord preferences.
pub async fn prefs(data: &Data, user: Id) -> Prefs {
    match data.svc.prefs(user).await {
        Ok(p) => p,
        Err(e) => {
            tracing::warn!(user, error = %e, "settings unreadable; using the defaults");
            Prefs::default()
        }
    }
}

/// Sends a DM; Err(true) when the user's DMs are closed.
pub async fn dm(http: &Http, user: u64, msg: CreateMessage) -> Result<(), bool> {
    let ch = match with_retry("DM channel", || UserId::new(user).create_dm_channel(http)).await {
        Ok(c) => c,
        Err(e) => return Err(is_dm_closed(&e)),
    };
    match with_retry("DM", || ch.id.send_message(http, msg.clone())).await {
        Ok(_) => Ok(()),
        Err(e) => {
            tracing::debug!(user, error = %e, "DM failed");
            Err(is_dm_closed(&e))
        }
    }
}

/// Whether `p` must decide something now (the game goes on).
fn decides(game: &Game, p: PlayerId) -> bool {
    game.result.is_none() && game.pending().is_some_and(|x| x.player == p)
}

/// Whether `p` must now answer a decision about their hand or library (a mulligan, a
/// discard, a search, a reveal, a dredge, an aura swap's choice, a scry, a yes/no question such as madness's, the
/// pregame action of an opening hand's Gemstone Caverns): the
/// hand's DM is sent again to carry its answers, even when the hand did not change.
pub fn asks_about_hand(game: &Game, p: PlayerId) -> bool {
    use engine::decision::Decision as D;
    game.result.is_none()
        && game.pending().is_some_and(|x| {
            x.player == p
                && matches!(
                    x.decision,
                    D::Mulligan { .. }
                        | D::Discard { .. }
                        | D::Search { .. }
                        | D::Reveal { .. }
                        | D::Dredge { .. }
                        | D::AuraSwap { .. }
                        | D::PutFromHand { .. }
                        | D::Scry { .. }
                        | D::YesNo { .. }
                        | D::PregameAction { .. }
                )
        })
}

/// The actions a hand's DM carries: when the player must decide now, the private panel's
/// menus and buttons (every legal answer: play or cast from the hand, suspend, cycle, the
/// hand's decisions); otherwise **My hand & options**, which shows the panel of the moment
/// when pressed. Their ids name the game and its version, so an answer from the DM goes to
/// that game (whatever other games the player has) and an old one says the game moved on.
async fn dm_rows(
    data: &Data,
    http: &Http,
    game_id: Id,
    l: &crate::service::Loaded,
    p: PlayerId,
    user: Id,
    discord: u64,
) -> Vec<CreateActionRow> {
    let deciding = l.game.result.is_none() && l.game.pending().is_some_and(|x| x.player == p);
    if deciding {
        let r = super::interact::panel(data, http, user, discord, game_id, false).await;
        if !r.rows.is_empty() {
            return r.rows;
        }
    }
    components::options_button(game_id, l.row.version, discord)
        .map(|b| vec![CreateActionRow::Buttons(vec![b])])
        .unwrap_or_default()
}

/// Puts `plan` on Discord. `actor` is the user whose interaction caused it (their private
/// text goes in the ephemeral reply; a closed DM is reported back instead of in the thread).
pub async fn deliver(
    data: &Data,
    http: &Http,
    plan: &Plan,
    actor: Option<Id>,
) -> anyhow::Result<Delivered> {
    let mut out = Delivered::default();
    let Some(thread) = thread_of(data, plan.game_id).await else {
        return Ok(out);
    };
    let row = data.svc.db.game(plan.game_id).await?;
    let started = row
        .as_ref()
        .is_some_and(|r| !matches!(r.status.as_str(), "challenge" | "declined" | "expired"));
    data.mem(|m| {
        let r = m.recent.entry(plan.game_id).or_default();
        r.extend(plan.public.iter().cloned());
        let n = r.len();
        if n > 12 {
            r.drain(..n - 12);
        }
    });

    let mut content = plan.public.join("\n");
    let mut mention_ids = Vec::new();
    let mut rows: Vec<CreateActionRow> = Vec::new();
    let mut files = Vec::new();
    let loaded = if started {
        data.svc.load(plan.game_id).await.ok()
    } else {
        None
    };
    let seat_users: Vec<Id> = loaded
        .as_ref()
        .map(|l| l.seats.iter().map(|s| s.user_id).collect())
        .unwrap_or_default();

    // The decider is mentioned (as their ping cadence allows; else named) with what they
    // must decide.
    let mut ping_lines = Vec::new();
    for &u in &plan.pings {
        let Some(d) = data.discord_of(u).await else {
            continue;
        };
        let p = prefs(data, u).await;
        let who = if p.pings.mentions(plan.reminder) {
            mention_ids.push(UserId::new(d));
            format!("<@{d}>")
        } else {
            data.name_of(u).await
        };
        let what = loaded.as_ref().and_then(|l| {
            let pend = l.game.pending()?;
            (l.seats.get(pend.player.index())?.user_id == u && l.game.result.is_none())
                .then(|| l.game.view(None).pending.map(|x| x.description))?
        });
        ping_lines.push(match what {
            Some(w) => format!("{who}: your turn to {w}."),
            None => format!("{who}: over to you."),
        });
    }
    if !ping_lines.is_empty() {
        content = tail_with(&content, MAX_CONTENT - 400, MORE_PUBLIC);
        if !content.is_empty() {
            content.push('\n');
        }
        content.push_str(&head(&ping_lines.join("\n"), 390));
    } else {
        content = tail_with(&content, MAX_CONTENT, MORE_PUBLIC);
    }

    // Public-safe buttons for whoever must decide, and their private panel.
    for c in &plan.choices {
        let Some(d) = data.discord_of(c.user_id).await else {
            continue;
        };
        let public: Vec<String> = c
            .options
            .iter()
            .filter(|o| PUBLIC_PHRASES.contains(&o.as_str()))
            .cloned()
            .collect();
        let extra = components::options_button(plan.game_id, c.version, d)
            .into_iter()
            .collect();
        for r in components::answer_buttons(plan.game_id, c.version, d, &public, extra) {
            if rows.len() < 5 {
                rows.push(r);
            }
        }
    }

    // The board image, when it changed.
    if let Some(l) = &loaded {
        let view = l.game.view(None);
        let recent = data.mem(|m| m.recent.get(&plan.game_id).cloned().unwrap_or_default());
        let scene = scene::board_scene(&view, &[]);
        let h = hash_of(&scene);
        let changed = data.mem(|m| m.board.get(&plan.game_id) != Some(&h));
        if changed && let Some(png) = board_png(data, plan.game_id, &view, &recent).await {
            files.push(CreateAttachment::bytes(png, "board.png"));
            data.mem(|m| m.board.insert(plan.game_id, h));
        }
    }

    if !content.trim().is_empty() || !files.is_empty() || !rows.is_empty() {
        let mut msg = CreateMessage::new()
            .content(if content.trim().is_empty() {
                "\u{200b}".to_string()
            } else {
                content
            })
            .allowed_mentions(CreateAllowedMentions::new().users(mention_ids))
            .components(rows);
        for f in files {
            msg = msg.add_file(f);
        }
        // A failed post does not stop the status message or the hands by DM.
        if let Err(e) = with_retry("thread post", || thread.send_message(http, msg.clone())).await {
            tracing::warn!(game_id = plan.game_id, error = %e, "thread post failed");
            out.thread_failed = Some(e.to_string());
        }
    }

    // The status message, edited in place.
    if let Some(l) = &loaded {
        let text = status_text(data, plan.game_id, &l.game, &seat_users).await;
        out.status_failed = update_status(data, http, plan.game_id, thread, text)
            .await
            .note();
        // Hands by DM, when they changed.
        for s in &l.seats {
            if s.is_agent {
                continue;
            }
            let p = PlayerId(s.seat as u8);
            let names = hand_names(&l.game, p);
            let h = hash_of(&names);
            let key = (plan.game_id, s.user_id);
            let Some(d) = data.discord_of(s.user_id).await else {
                continue;
            };
            // DMs found closed are tried again with each new hand or question: the flag
            // clears itself once one goes through, and the thread is told only once.
            let was_closed = data.mem(|m| m.dm_closed.contains(&d));
            // A DM goes out when the hand changed, or when a new decision about the hand
            // (mulligan, discard, search...) waits for the player: the DM carries its answers.
            // While the player's DMs are found closed, any new decision of theirs tries again
            // (they may have opened them since; nothing else tells the bot).
            let asked = (asks_about_hand(&l.game, p) || (was_closed && decides(&l.game, p)))
                .then_some(l.row.version);
            let same_hand = data.mem(|m| m.hand.get(&key) == Some(&h));
            let asked_before =
                asked.is_none() || data.mem(|m| m.hand_asked.get(&key) == asked.as_ref());
            if same_hand && asked_before {
                continue;
            }
            let pr = prefs(data, s.user_id).await;
            if !pr.dms {
                // DMs off: the hand comes only when asked for (`/mtg hand`, the options
                // button, or the panel of the player's own command).
                continue;
            }
            let drew: Vec<&str> = plan
                .private_for(s.user_id)
                .into_iter()
                .flat_map(|t| t.lines())
                .filter(|x| x.starts_with("You draw"))
                .collect();
            let mut text = format!(
                "**Game {}** · your hand ({}): {}",
                plan.game_id,
                names.len(),
                if names.is_empty() {
                    "empty".to_string()
                } else {
                    names.join(", ")
                }
            );
            if !drew.is_empty() {
                text = format!("{}\n{text}", drew.join("\n"));
            }
            if l.game.result.is_none()
                && let Some(x) = l.game.pending().filter(|x| x.player == p)
            {
                text.push_str(&format!("\nYou must {}.", x.decision.describe()));
            }
            if let Some(w) = plan.waited_for(s.user_id) {
                text = format!("{w}\n{text}");
            }
            let mut msg = CreateMessage::new().content(head_with(
                &text,
                MAX_CONTENT,
                "(the rest: `/mtg hand` in the game's thread)",
            ));
            // While DMs are found closed, each retry is text and actions only: an image made
            // for every refused try would slow every command (the next hand brings it).
            if !was_closed && let Some(png) = hand_png(data, plan.game_id, &l.game, p).await {
                msg = msg.add_file(CreateAttachment::bytes(png, "hand.png"));
            }
            msg = msg.components(dm_rows(data, http, plan.game_id, l, p, s.user_id, d).await);
            match dm(http, d, msg).await {
                Ok(()) => {
                    data.mem(|m| {
                        m.dm_closed.remove(&d);
                        m.dm_told.remove(&d);
                        m.hand.insert(key, h);
                        if let Some(v) = asked {
                            m.hand_asked.insert(key, v);
                        }
                    });
                }
                Err(closed) => {
                    out.dm_failed.push(s.user_id);
                    let told = data.mem(|m| {
                        if closed {
                            m.dm_closed.insert(d);
                        }
                        if let Some(v) = asked {
                            m.hand_asked.insert(key, v);
                        }
                        m.dm_told.contains(&d)
                    });
                    // The player who acts is told in their reply (with their hand); the
                    // thread tells them once, the first time it fails while they are away.
                    if !told && Some(s.user_id) != actor {
                        let note = format!(
                            "<@{d}>: I cannot send you your hand by DM (your DMs are closed). \
                             Use `/mtg hand` to see it privately."
                        );
                        let post = CreateMessage::new()
                            .content(note)
                            .allowed_mentions(CreateAllowedMentions::new().users([UserId::new(d)]));
                        let _ =
                            with_retry("DM note", || thread.send_message(http, post.clone())).await;
                        data.mem(|m| m.dm_told.insert(d));
                    }
                    if told || Some(s.user_id) != actor {
                        // Said; the hand is then shown on `/mtg hand` (and tried again by DM
                        // with the next new hand or decision).
                        data.mem(|m| m.hand.insert(key, h));
                    }
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_count_characters_and_say_where_the_rest_is() {
        // 3 bytes a character: a byte count would cut far too early or split a character.
        let s = "語".repeat(3000);
        let h = head_with(&s, 2000, "(more: `/mtg hand`)");
        assert_eq!(h.chars().count(), 2000);
        assert!(h.ends_with("…\n(more: `/mtg hand`)"), "{h}");
        let l = head_with(&s, MAX_CONTENT, MORE_LEAGUE);
        assert_eq!(l.chars().count(), MAX_CONTENT);
        assert!(l.ends_with(MORE_LEAGUE), "{l}");
        let t = tail_with(&s, 2000, MORE_PUBLIC);
        assert_eq!(t.chars().count(), 2000);
        assert!(t.starts_with(MORE_PUBLIC));
        assert_eq!(tail("abcdef", 4), "…def");
        assert_eq!(head("abcdef", 4), "abc…");
        assert_eq!(head("abc", 4), "abc");
        let short = "a".repeat(1900);
        assert_eq!(head_with(&short, 1900, "x"), short);
    }
}
