//! `/sequence` and its subcommands (the game, the history: stats, profile, versus, leaderboard,
//! history, record, replay), `/sequence-settings` and the user command "Sequence profile" on a
//! member's context menu: each one turns its options into a service command and hands it to
//! [`answer::serve`], which asks the service and answers with its reply.

use poise::serenity_prelude as serenity;

use crate::engine::{Options, Variant};
use crate::i18n::Lang;
use crate::service::{
    Actor, BotLevel, ChannelId, Choice, Command, GuildId, OnTimeout, Permission, Request,
    ServerSettings, SettingsRequest, Text, UserId, Venue,
};

use super::answer::{self, say_private, Asked, Asking, Handled};
use super::interaction::{asker, channel_access, note_access, note_place, serve, Asker, Langs};
use super::relay::{place_of, Place};
use super::window::Window;
use super::{Context, Error};

/// A game, as offered in the option list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, poise::ChoiceParameter)]
pub enum Game {
    /// Classic Sequence with cards.
    #[name = "classic"]
    Classic,
    /// Sequence Dice.
    #[name = "dice"]
    Dice,
    /// Sequence for Kids.
    #[name = "kids"]
    Kids,
}

impl From<Game> for Variant {
    fn from(game: Game) -> Variant {
        match game {
            Game::Classic => Variant::Classic,
            Game::Dice => Variant::Dice,
            Game::Kids => Variant::Kids,
        }
    }
}

/// A lobby's clock, as offered in the option list: the presets a phone can pick with one tap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, poise::ChoiceParameter)]
pub enum TurnTime {
    /// 15 seconds a turn (blitz).
    #[name = "15s"]
    Seconds15,
    /// 30 seconds.
    #[name = "30s"]
    Seconds30,
    /// A minute.
    #[name = "60s"]
    Seconds60,
    /// Two minutes.
    #[name = "120s"]
    Seconds120,
    /// The server's turn timeout.
    #[name = "server"]
    Server,
}

impl TurnTime {
    /// Seconds a turn (`None`: the server's turn timeout).
    pub fn seconds(self) -> Option<u32> {
        match self {
            TurnTime::Seconds15 => Some(15),
            TurnTime::Seconds30 => Some(30),
            TurnTime::Seconds60 => Some(60),
            TurnTime::Seconds120 => Some(120),
            TurnTime::Server => None,
        }
    }
}

/// A series, as offered in the option list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, poise::ChoiceParameter)]
pub enum Series {
    /// Best of 3.
    #[name = "best3"]
    BestOf3,
    /// Best of 5.
    #[name = "best5"]
    BestOf5,
    /// Best of 7.
    #[name = "best7"]
    BestOf7,
}

impl Series {
    /// Best of how many games.
    pub fn best_of(self) -> u8 {
        match self {
            Series::BestOf3 => 3,
            Series::BestOf5 => 5,
            Series::BestOf7 => 7,
        }
    }
}

/// A game mode of classic Sequence, as offered in the option list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, poise::ChoiceParameter)]
pub enum Mode {
    /// The usual game: sequences win.
    #[name = "standard"]
    Standard,
    /// King of the Board: points, a moving zone worth double.
    #[name = "king_of_the_board"]
    KingOfTheBoard,
}

/// A computer player's level, as offered in the option list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, poise::ChoiceParameter)]
pub enum Level {
    /// Easy.
    #[name = "easy"]
    Easy,
    /// Medium.
    #[name = "medium"]
    Medium,
    /// Hard.
    #[name = "hard"]
    Hard,
}

impl From<Level> for BotLevel {
    fn from(level: Level) -> BotLevel {
        match level {
            Level::Easy => BotLevel::Easy,
            Level::Medium => BotLevel::Medium,
            Level::Hard => BotLevel::Hard,
        }
    }
}

/// The user behind a command (their display name, whether they may manage messages and the
/// server) and the languages of its answer, as for a press ([`asker`]).
fn actor_and_langs(ctx: Context<'_>) -> (Actor, Langs) {
    let (member, guild_locale) = match ctx {
        poise::Context::Application(app) => (
            app.interaction.member.as_deref(),
            app.interaction.guild_locale.as_deref(),
        ),
        poise::Context::Prefix(_) => (None, None),
    };
    let who = Asker {
        user: ctx.author(),
        member,
        locale: ctx.locale(),
        guild_locale,
        guild: ctx.guild_id(),
        channel: ChannelId(ctx.channel_id().get()),
    };
    asker(ctx.serenity_context(), ctx.data(), &who)
}

/// The language of the user, for autocomplete labels.
fn user_lang(ctx: Context<'_>) -> Lang {
    Lang::from_optional(ctx.locale()).unwrap_or_default()
}

/// Where the interaction happened: whether the bot may post there (see [`place_of`]).
fn place(ctx: Context<'_>) -> Place {
    match ctx {
        poise::Context::Application(app) => place_of(
            app.interaction.guild_id,
            &app.interaction.authorizing_integration_owners,
            app.interaction.member.as_ref().and_then(|m| m.permissions),
        ),
        poise::Context::Prefix(_) => Place::Channel,
    }
}

/// Where the interaction happened, as the service's rules of a place see it.
fn venue(ctx: Context<'_>) -> Venue {
    let group_dm = match ctx {
        poise::Context::Application(app) => app
            .interaction
            .channel
            .as_ref()
            .is_some_and(|c| c.kind == serenity::ChannelType::GroupDm),
        poise::Context::Prefix(_) => false,
    };
    match (ctx.guild_id(), place(ctx)) {
        (None, _) if group_dm => Venue::GroupDm,
        (None, _) => Venue::Dm,
        (Some(_), Place::Channel) => Venue::Server,
        (Some(_), Place::AnswersOnly { private, .. }) => Venue::ServerWithoutBot {
            external_apps: !private,
        },
    }
}

/// The interaction's token (for the relay of an answers-only channel).
fn token(ctx: Context<'_>) -> &str {
    match ctx {
        poise::Context::Application(app) => &app.interaction.token,
        poise::Context::Prefix(_) => "",
    }
}

/// What the bot may do in the channel, from the interaction (see [`channel_access`]); nothing where
/// it may only answer (no post is tried there, so nothing pauses).
fn access(ctx: Context<'_>) -> Option<(u64, bool)> {
    if place(ctx) != Place::Channel {
        return None;
    }
    match ctx {
        poise::Context::Application(app) => channel_access(
            ctx.serenity_context(),
            app.interaction.guild_id,
            app.interaction.channel_id,
            app.interaction.app_permissions,
            app.interaction.channel.as_ref().map(|c| c.kind),
        ),
        poise::Context::Prefix(_) => None,
    }
}

/// Hands a command to the service (on a blocking thread: it saves to the database before answering)
/// and answers with its reply. One that changes a table is acknowledged (privately) first; any
/// other is answered directly if the service's reply is ready within its [`Window`], and deferred
/// (privately) otherwise.
pub(super) async fn run(ctx: Context<'_>, command: Command) -> Result<(), Error> {
    let started = std::time::Instant::now();
    // The rules of the place (`Command::in_venue`): outside a server (a group DM, a DM) games are
    // casual and a server's lists are not offered.
    let command = match command.in_venue(venue(ctx)) {
        Ok(command) => command,
        Err(text) => {
            say_private(ctx, &text).await;
            return Ok(());
        }
    };
    let window = Window::opened_now();
    let access = access(ctx);
    let asked = Asked {
        changes_table: command.changes_table(),
        ..Asked::default()
    };
    let data = ctx.data();
    let answered = answer::serve(Asking::Command(ctx), data, asked, window, async move {
        let (actor, langs, resumed) = settle(ctx, access).await;
        let request = Request {
            guild: ctx.guild_id().map(|g| GuildId(g.get())),
            channel: ChannelId(ctx.channel_id().get()),
            actor,
            command,
        };
        let (reply, pending) = serve(data, request).await;
        Handled {
            langs,
            reply,
            resumed,
            pending: Some(pending),
        }
    })
    .await;
    // The command's name is one of a fixed few: a bounded label.
    metrics::histogram!(
        "sequence_interaction_seconds",
        "command" => ctx.command().qualified_name.clone()
    )
    .record(started.elapsed());
    answered
}

/// What a command needs before the service handles it: the server's settings read into memory (its
/// language, off the async runtime), the languages of the answer, and what the bot may do in the
/// channel (a paused table resumes here; its reply is sent after the answer).
async fn settle(
    ctx: Context<'_>,
    access: Option<(u64, bool)>,
) -> (Actor, Langs, Option<crate::service::Reply>) {
    let channel = ChannelId(ctx.channel_id().get());
    note_place(ctx.data(), channel, token(ctx), place(ctx)).await;
    let guild = ctx.guild_id().map(|g| GuildId(g.get()));
    if guild.is_some() {
        let tables = ctx.data().tables.clone();
        if let Err(e) = tokio::task::spawn_blocking(move || tables.server_settings(guild)).await {
            tracing::error!(
                channel = channel.0,
                "reading the server's settings failed: {e}"
            );
        }
    }
    let (actor, langs) = actor_and_langs(ctx);
    let resumed = note_access(ctx.data(), channel, access).await;
    (actor, langs, resumed)
}

fn to_autocomplete(choices: Vec<Choice>) -> Vec<serenity::AutocompleteChoice> {
    choices
        .into_iter()
        .map(|c| serenity::AutocompleteChoice::new(c.label, c.value))
        .collect()
}

/// The value of another option of the command being typed (for cells that depend on the card).
fn typed_option(ctx: Context<'_>, name: &str) -> Option<String> {
    fn find(options: &[serenity::CommandDataOption], name: &str) -> Option<String> {
        options.iter().find_map(|o| match &o.value {
            serenity::CommandDataOptionValue::SubCommand(inner)
            | serenity::CommandDataOptionValue::SubCommandGroup(inner) => find(inner, name),
            serenity::CommandDataOptionValue::String(value) if o.name == name => {
                Some(value.clone())
            }
            serenity::CommandDataOptionValue::Autocomplete { value, .. } if o.name == name => {
                Some(value.clone())
            }
            _ => None,
        })
    }
    match ctx {
        poise::Context::Application(app) => find(&app.interaction.data.options, name),
        poise::Context::Prefix(_) => None,
    }
}

async fn complete_card(ctx: Context<'_>, partial: &str) -> Vec<serenity::AutocompleteChoice> {
    to_autocomplete(ctx.data().tables.complete_card(
        ChannelId(ctx.channel_id().get()),
        UserId(ctx.author().id.get()),
        partial,
        user_lang(ctx),
    ))
}

async fn complete_dead_card(ctx: Context<'_>, partial: &str) -> Vec<serenity::AutocompleteChoice> {
    to_autocomplete(ctx.data().tables.complete_dead_card(
        ChannelId(ctx.channel_id().get()),
        UserId(ctx.author().id.get()),
        partial,
        user_lang(ctx),
    ))
}

async fn complete_cell(ctx: Context<'_>, partial: &str) -> Vec<serenity::AutocompleteChoice> {
    let card = typed_option(ctx, "card");
    to_autocomplete(ctx.data().tables.complete_cell(
        ChannelId(ctx.channel_id().get()),
        UserId(ctx.author().id.get()),
        card.as_deref(),
        partial,
        user_lang(ctx),
    ))
}

/// Play Sequence, Sequence Dice or Sequence for Kids in this channel.
#[poise::command(
    slash_command,
    install_context = "Guild|User",
    interaction_context = "Guild|BotDm|PrivateChannel",
    subcommands(
        "start",
        "join",
        "leave",
        "bot",
        "begin",
        "cancel",
        "play",
        "exchange",
        "roll",
        "remove",
        "hand",
        "hint",
        "board",
        "status",
        "rules",
        "forfeit",
        "stop",
        "stats",
        "profile",
        "versus",
        "leaderboard",
        "history",
        "record",
        "replay"
    ),
    subcommand_required
)]
pub async fn sequence(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Open a new game in this channel; others join with the button or /sequence join.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command)]
async fn start(
    ctx: Context<'_>,
    #[description = "Which game (default: classic)"] game: Option<Game>,
    #[description = "Number of teams (default: by the number of players)"]
    #[min = 2]
    #[max = 4]
    teams: Option<u8>,
    #[description = "Sequences a team needs to win (classic)"]
    #[min = 1]
    #[max = 4]
    sequences_to_win: Option<u8>,
    #[description = "Chips in a winning line (dice: 5 or 6)"]
    #[min = 4]
    #[max = 6]
    sequence_length: Option<u8>,
    #[description = "A win counts only once the round is complete"] equal_turns: Option<bool>,
    #[description = "House rule: play on, one point per sequence (classic)"] scoring: Option<bool>,
    #[description = "House rule: flank two opponent chips to capture them (classic)"]
    capture_pairs: Option<bool>,
    #[description = "Counts for ratings (default: if humans play on at least two teams)"]
    rated: Option<bool>,
    #[description = "Time for a turn (default: the server's)"] turn_time: Option<TurnTime>,
    #[description = "Play a series: best of 3, 5 or 7 games"] series: Option<Series>,
    #[description = "Game mode of classic Sequence (default: standard)"] mode: Option<Mode>,
    #[description = "King of the Board: the points that win (2 to 10, default 3)"]
    #[min = 2]
    #[max = 10]
    points_to_win: Option<u8>,
    #[description = "Challenge friends: mention the players to invite (@Ann @Bob)"] invite: Option<
        String,
    >,
) -> Result<(), Error> {
    // A server that lets apps its members installed answer only privately: nobody else would see
    // the game (Discord makes the answers private), so none opens.
    if let Place::AnswersOnly { private: true, .. } = place(ctx) {
        say_private(ctx, &Text::ExternalAppsOff).await;
        return Ok(());
    }
    if cannot_post_here(ctx).await {
        return Ok(());
    }
    // The invitation is read before anything else: a bad one opens nothing.
    let invited = match invite.as_deref().map(|text| invited_people(ctx, text)) {
        None => None,
        Some(Ok(invited)) => Some(invited),
        Some(Err(refusal)) => {
            say_private(ctx, &refusal).await;
            return Ok(());
        }
    };
    let variant = match game {
        Some(game) => Variant::from(game),
        None => default_variant(ctx).await?,
    };
    let options = Options {
        sequences_to_win,
        sequence_length,
        equal_turns: equal_turns.unwrap_or(false),
        scoring: scoring.unwrap_or(false),
        capture_pairs: capture_pairs.unwrap_or(false),
        king_of_the_board: mode == Some(Mode::KingOfTheBoard),
        points_to_win,
    };
    let start = Command::Start {
        variant,
        teams,
        options,
        rated,
        turn_time: turn_time.and_then(TurnTime::seconds),
        series: series.map(Series::best_of),
    };
    let command = match invited {
        Some((invited, bots)) => Command::Challenge {
            start: Box::new(start),
            invited,
            bots,
        },
        None => start,
    };
    run(ctx, command).await
}

/// Refuses privately where the bot could not post the board: whether it did. The permissions come
/// with the interaction, so no request to Discord is needed to know.
async fn cannot_post_here(ctx: Context<'_>) -> bool {
    if let Some((granted, thread)) = access(ctx) {
        let missing = Permission::missing_to_post(granted, thread);
        if !missing.is_empty() {
            say_private(ctx, &Text::CannotPostHere { missing, thread }).await;
            return true;
        }
    }
    false
}

/// The server's default game (its settings are read off the async runtime).
async fn default_variant(ctx: Context<'_>) -> Result<Variant, Error> {
    let tables = ctx.data().tables.clone();
    let guild = ctx.guild_id().map(|g| GuildId(g.get()));
    Ok(tokio::task::spawn_blocking(move || tables.settings_for(guild).default_variant).await?)
}

/// The people an `invite:` option mentions ([`crate::service::parse_invite`]). Discord's client
/// writes each person picked after `@` as a mention (`<@id>`); Discord documents `resolved` only for
/// the options that select users, so the users it may carry for a string option are used only,
/// where they come, to tell the lobby which are apps (bot accounts), which it refuses politely.
fn invited_people(ctx: Context<'_>, text: &str) -> Result<(Vec<UserId>, Vec<UserId>), Text> {
    let invited = crate::service::parse_invite(text)?;
    let bots = match ctx {
        poise::Context::Application(app) => {
            let users = &app.interaction.data.resolved.users;
            invited
                .iter()
                .copied()
                .filter(|user| {
                    users
                        .iter()
                        .any(|(id, resolved)| id.get() == user.0 && resolved.bot)
                })
                .collect()
        }
        poise::Context::Prefix(_) => Vec::new(),
    };
    Ok((invited, bots))
}

/// Take a seat in the game that is about to start.
#[poise::command(slash_command)]
async fn join(
    ctx: Context<'_>,
    #[description = "The team you want to play in (1, 2, …)"]
    #[min = 1]
    #[max = 4]
    team: Option<u8>,
) -> Result<(), Error> {
    run(ctx, Command::Join { team }).await
}

/// Leave the lobby, or give up the running game (a computer player takes your seat).
#[poise::command(slash_command)]
async fn leave(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, Command::Leave).await
}

/// Give up the running game (a computer player takes your seat).
#[poise::command(slash_command)]
async fn forfeit(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, Command::Forfeit { game: None }).await
}

/// Computer players in the lobby.
#[poise::command(slash_command, subcommands("bot_add", "bot_remove"))]
async fn bot(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Add a computer player to the lobby (host only).
#[poise::command(slash_command, rename = "add")]
async fn bot_add(
    ctx: Context<'_>,
    #[description = "How strong (default: the server's setting)"] level: Option<Level>,
) -> Result<(), Error> {
    run(
        ctx,
        Command::AddBot {
            level: level.map(BotLevel::from),
        },
    )
    .await
}

/// Remove the last computer player from the lobby (host only).
#[poise::command(slash_command, rename = "remove")]
async fn bot_remove(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, Command::RemoveBot).await
}

/// Deal the cards and start the game (host only; same as the Start button).
#[poise::command(slash_command)]
async fn begin(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, Command::Begin).await
}

/// Close the lobby without playing (host only).
#[poise::command(slash_command)]
async fn cancel(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, Command::Cancel).await
}

/// Play a card on a cell (in Sequence Dice: place your chip after rolling).
#[poise::command(slash_command)]
async fn play(
    ctx: Context<'_>,
    #[description = "One of your cards (one-eyed jack / dragon: then name the chip to remove)"]
    #[autocomplete = "complete_card"]
    card: Option<String>,
    #[description = "The cell, like D6"]
    #[autocomplete = "complete_cell"]
    cell: Option<String>,
) -> Result<(), Error> {
    run(
        ctx,
        Command::Play {
            card,
            cell: cell.unwrap_or_default(),
        },
    )
    .await
}

/// Exchange a dead card (both its cells are covered) for a new one.
#[poise::command(slash_command)]
async fn exchange(
    ctx: Context<'_>,
    #[description = "The dead card"]
    #[autocomplete = "complete_dead_card"]
    card: String,
) -> Result<(), Error> {
    run(ctx, Command::Exchange { card }).await
}

/// Sequence Dice: roll the dice for your turn.
#[poise::command(slash_command)]
async fn roll(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, Command::Roll).await
}

/// Sequence Dice: after rolling 10, remove an opponent chip.
#[poise::command(slash_command)]
async fn remove(
    ctx: Context<'_>,
    #[description = "The chip to remove, like C3"]
    #[autocomplete = "complete_cell"]
    cell: String,
) -> Result<(), Error> {
    run(ctx, Command::Remove { cell }).await
}

/// Show your cards (only you see them).
#[poise::command(slash_command)]
async fn hand(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, Command::Hand).await
}

/// Privately: the move the hard computer player would make now, and why (casual games only).
#[poise::command(slash_command)]
async fn hint(ctx: Context<'_>) -> Result<(), Error> {
    let started = std::time::Instant::now();
    let window = Window::opened_now();
    // The search may take longer than the three seconds Discord waits for an answer on a busy
    // machine: acknowledged first.
    let asked = Asked {
        searches: true,
        ..Asked::default()
    };
    let answered = answer::serve(
        Asking::Command(ctx),
        ctx.data(),
        asked,
        window,
        async move {
            let (actor, langs) = actor_and_langs(ctx);
            let request = Request {
                guild: ctx.guild_id().map(|g| GuildId(g.get())),
                channel: ChannelId(ctx.channel_id().get()),
                actor,
                command: Command::Hint,
            };
            let (reply, pending) = serve(ctx.data(), request).await;
            Handled {
                langs,
                reply,
                resumed: None,
                pending: Some(pending),
            }
        },
    )
    .await;
    metrics::histogram!("sequence_interaction_seconds", "command" => "sequence hint")
        .record(started.elapsed());
    answered
}

/// Post the current board.
#[poise::command(slash_command)]
async fn board(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, Command::Board).await
}

/// Show the players, whose turn it is, and the score (only you see it).
#[poise::command(slash_command)]
async fn status(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, Command::Status).await
}

/// Explain the rules (only you see them).
#[poise::command(slash_command)]
async fn rules(
    ctx: Context<'_>,
    #[description = "Which game (default: this channel's)"] game: Option<Game>,
) -> Result<(), Error> {
    run(
        ctx,
        Command::Rules {
            variant: game.map(Variant::from),
        },
    )
    .await
}

/// End the game now (host, or members who may manage messages).
#[poise::command(slash_command)]
async fn stop(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, Command::Stop).await
}

/// A language for channel posts, as offered in the option list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, poise::ChoiceParameter)]
pub enum Language {
    /// English.
    #[name = "english"]
    English,
    /// German.
    #[name = "german"]
    German,
    /// Norwegian.
    #[name = "norwegian"]
    Norwegian,
}

impl From<Language> for Lang {
    fn from(language: Language) -> Lang {
        match language {
            Language::English => Lang::En,
            Language::German => Lang::De,
            Language::Norwegian => Lang::No,
        }
    }
}

/// What happens when a player's time runs out, as offered in the option list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, poise::ChoiceParameter)]
pub enum TimeoutAction {
    /// A computer plays that turn.
    #[name = "computer"]
    Computer,
    /// The player gives up.
    #[name = "give_up"]
    GiveUp,
}

impl From<TimeoutAction> for OnTimeout {
    fn from(action: TimeoutAction) -> OnTimeout {
        match action {
            TimeoutAction::Computer => OnTimeout::Computer,
            TimeoutAction::GiveUp => OnTimeout::GiveUp,
        }
    }
}

/// Show or change this server's defaults (Manage Server only).
#[allow(clippy::too_many_arguments)]
#[poise::command(
    slash_command,
    guild_only,
    install_context = "Guild",
    interaction_context = "Guild",
    rename = "sequence-settings",
    default_member_permissions = "MANAGE_GUILD"
)]
pub async fn settings(
    ctx: Context<'_>,
    #[description = "The game a new table opens when none is named"] game: Option<Game>,
    #[description = "The level of computer players"] level: Option<Level>,
    #[description = "Seconds before a player is reminded of their turn"]
    #[min = 10]
    #[max = 86400]
    turn_reminder: Option<u32>,
    #[description = "Seconds before a computer plays the turn"]
    #[min = 30]
    #[max = 604800]
    turn_timeout: Option<u32>,
    #[description = "Seconds before a lobby that has not started closes"]
    #[min = 60]
    #[max = 86400]
    lobby_timeout: Option<u32>,
    #[description = "Milliseconds a computer player thinks per move"]
    #[min = 100]
    #[max = 5000]
    thinking_time: Option<u32>,
    #[description = "What happens when a player's time runs out"] on_timeout: Option<TimeoutAction>,
    #[description = "Timed-out turns in a row before a computer takes the seat (0: never)"]
    #[min = 0]
    #[max = 10]
    timeouts_before_replaced: Option<u8>,
    #[description = "Whether games count for ratings by default"] rated: Option<bool>,
    #[description = "The language of the bot's channel posts"] language: Option<Language>,
    #[description = "Whether hints may be used in rated games (the game then becomes unrated)"]
    hints: Option<bool>,
    #[description = "Whether the animated replay is posted after every finished game"]
    replay_gif: Option<bool>,
    #[description = "Whether games have a Watch button and web pages (live board, replay)"]
    web_links: Option<bool>,
    #[description = "Whether the server has its own web page (leaderboard, recent games, profiles)"]
    web_page: Option<bool>,
    #[description = "Go back to the bot's defaults first"] reset: Option<bool>,
) -> Result<(), Error> {
    run(
        ctx,
        Command::Settings(SettingsRequest {
            changes: ServerSettings {
                variant: game.map(Variant::from),
                bot_level: level.map(BotLevel::from),
                turn_reminder_secs: turn_reminder.map(u64::from),
                turn_timeout_secs: turn_timeout.map(u64::from),
                lobby_timeout_secs: lobby_timeout.map(u64::from),
                thinking_ms: thinking_time.map(u64::from),
                on_timeout: on_timeout.map(OnTimeout::from),
                timeouts_before_replaced,
                rated,
                language: language.map(Lang::from),
                hints,
                replay_gif,
                web_links,
                web_page,
                web_page_token: None,
            },
            reset: reset.unwrap_or(false),
        }),
    )
    .await
}

/// A player's games, wins and sequences on this server.
#[poise::command(slash_command)]
async fn stats(
    ctx: Context<'_>,
    #[description = "Whose stats (default: yours)"] user: Option<serenity::User>,
) -> Result<(), Error> {
    run(
        ctx,
        Command::Stats {
            user: user.map(|u| UserId(u.id.get())),
        },
    )
    .await
}

/// A player's profile on this server: the card and its text.
#[poise::command(slash_command)]
async fn profile(
    ctx: Context<'_>,
    #[description = "Whose profile (default: yours)"] user: Option<serenity::User>,
) -> Result<(), Error> {
    run(
        ctx,
        Command::Profile {
            user: user.map(|u| UserId(u.id.get())),
        },
    )
    .await
}

/// Your games with another member of this server.
#[poise::command(slash_command)]
async fn versus(
    ctx: Context<'_>,
    #[description = "The other member"] user: serenity::User,
) -> Result<(), Error> {
    run(
        ctx,
        Command::Versus {
            user: UserId(user.id.get()),
        },
    )
    .await
}

/// A member's profile from their context menu (Apps → Sequence profile), as `/sequence profile`.
#[poise::command(
    context_menu_command = "Sequence profile",
    install_context = "Guild|User",
    interaction_context = "Guild|BotDm|PrivateChannel"
)]
pub async fn profile_menu(ctx: Context<'_>, user: serenity::User) -> Result<(), Error> {
    run(
        ctx,
        Command::Profile {
            user: Some(UserId(user.id.get())),
        },
    )
    .await
}

/// A challenge from a member's context menu (Apps → Challenge to Sequence): a lobby of the
/// server's default game in this channel, as a plain `/sequence start` opens, with them invited.
/// Offered wherever `/sequence start` is (servers, the bot's DM, group DMs), for both installs.
#[poise::command(
    context_menu_command = "Challenge to Sequence",
    install_context = "Guild|User",
    interaction_context = "Guild|BotDm|PrivateChannel"
)]
pub async fn challenge_menu(ctx: Context<'_>, user: serenity::User) -> Result<(), Error> {
    let target = UserId(user.id.get());
    if user.bot {
        say_private(ctx, &Text::InviteBot(target)).await;
        return Ok(());
    }
    // As for `/sequence start`: where Discord would make every answer private, nobody could see the
    // game.
    if let Place::AnswersOnly { private: true, .. } = place(ctx) {
        say_private(ctx, &Text::ExternalAppsOff).await;
        return Ok(());
    }
    if cannot_post_here(ctx).await {
        return Ok(());
    }
    let start = Command::Start {
        variant: default_variant(ctx).await?,
        teams: None,
        options: Options::default(),
        rated: None,
        turn_time: None,
        series: None,
    };
    run(
        ctx,
        Command::Challenge {
            start: Box::new(start),
            invited: vec![target],
            bots: Vec::new(),
        },
    )
    .await
}

/// The best players of this server.
#[poise::command(slash_command)]
async fn leaderboard(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, Command::Leaderboard).await
}

/// The latest finished games of this server, with their numbers.
#[poise::command(slash_command)]
async fn history(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, Command::History).await
}

/// Download the record of a finished game (default: the last one of this channel).
#[poise::command(slash_command)]
async fn record(
    ctx: Context<'_>,
    #[description = "The game's number, from /sequence history"]
    #[min = 1]
    game: Option<i64>,
) -> Result<(), Error> {
    run(ctx, Command::Record { game }).await
}

/// Post the animated replay of a finished game (default: the last one of this channel).
#[poise::command(slash_command)]
async fn replay(
    ctx: Context<'_>,
    #[description = "The game's number, from /sequence history"]
    #[min = 1]
    game: Option<i64>,
) -> Result<(), Error> {
    run(ctx, Command::Replay { game }).await
}
