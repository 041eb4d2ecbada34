//! `sequence-bot console`: the bot without Discord, for development and tests. It runs the same
//! service, store, restore and timers as `run`, reads one JSON request per line on standard input
//! and prints what the bot would send, one JSON object per line, on standard output.
//!
//! Everything is printed, private messages (hands) included: it is a tool for whoever runs the bot,
//! not something to expose to players.
//!
//! A request: `{"id": 1, "guild": 5, "channel": 10, "user": 1, "name": "Ann", "command": "play",
//! "card": "7H", "cell": "D6"}` (`id`, `guild`, `name`, `manage` and `manage_guild` are optional; `place` says
//! where: `server` (the default with a `guild`), `server_without_bot` (with `external_apps`, default true),
//! `dm` (the default without one) or `group_dm`, and a typed command is held to that place's rules as on
//! Discord ([`Venue`]); the command's
//! options are fields beside `command`, named as in `/sequence`; `"command": "dump"` prints the
//! channel's table as stored; `"command": "hint"` asks for a hint as `/sequence hint` does). `user` is always who asks: the player whose `stats` to show is `of`
//! (or `player`), `{"command": "stats", "user": 1, "of": 2}`; without it, the asker's (so for
//! `profile`; `versus` needs `of`, the other member). Outputs:
//! `{"id": 1, "channel": 10, "to": "channel"|"ephemeral"|"direct"|"lobby"|"update", "user": …,
//! "text": …, "image": "board"|"hand"|"replay"|"profile"|null, "attachment": {…}|null, "buttons": […], "mentions": […]}`,
//! then `{"id": 1, "done": true, "refused": false}`. Outputs of timers, computer players and the
//! restart notes have `"id": null`, and so has the follow-up of a game's final message (each human's
//! agreement with the computer), printed as a channel post when its analysis is done. A line that
//! cannot be read gets `{"id", "error"}` and a refused `done` line (`"id"` as far as it was read).
//! At start, `{"ready": true, "restored": [channels], "lost":
//! [channels]}`. With `--images DIR` each output with an image also has `"image_file"`, the name of the
//! picture written to DIR before the line was printed (`message-7-board.png` for a channel post,
//! `ephemeral-2-hand.png` for a private one; docs/development.md, "The console").
//!
//! Messages and edits: a channel post (`"to": "channel"`) and the lobby message (`"to": "lobby"`)
//! carry the `"message_id"` the console gave them when posted (numbers counting up from 1; a lobby
//! line with the id of an earlier one is that message edited). When a later output changes an
//! earlier post, an edit is printed: `{"id", "channel", "to": "edit", "message_id": 7, "buttons":
//! […], "components": […]}`, the post's buttons and action rows from now on (so far only a turn
//! prompt whose turn is over: its Play or Roll button goes, its hand button and ⋯ stay while the
//! game runs). As on Discord, a channel post that ends a game is recorded as announced once printed,
//! whether it answers a request or comes from a computer player or a timeout.
//!
//! Buttons and menus: `{"channel": 10, "user": 1, "command": "press", "custom_id": "sequence:join"}`
//! presses a button by the custom id the bot put on its message; a menu choice adds the chosen value,
//! `"values": ["3-0"]`. Every output lists its action rows in `"components"`: `[[{"type": "button",
//! "id", "label", "style", "disabled"}], [{"type": "select", "id", "placeholder", "options":
//! [{"value", "label", "description"}]}]]` (labels in English). A press on a private message that
//! answers in its place (the card picker; **Keep playing** on the leave question; a level of the
//! **Add computer** menu) answers with
//! `"to": "update"`: the pressed message as it now reads (Discord edits it in place). So a whole game
//! can be played by presses only: the turn prompt's Play (dice: Roll) button opens the picker for the
//! player to move, whose buttons lead to the move.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use serde::Deserialize;
use serde_json::{json, Value};
use tokio::io::AsyncBufReadExt;

use crate::app::config::{BotConfig, ShardPlan};
use crate::app::error::StartError;
use crate::app::paint::painter;
use crate::app::start::{App, Program};
use crate::engine::{Options, Variant};
use crate::service::{
    action_rows, command_for_component, Actor, BotLevel, Button, ChannelId, Command, Control,
    Event, Face, FaceId, GuildId, Image, Message, Origin, Output, Reply, Request, Sent,
    ServerSettings, SettingsRequest, Tables, UserId, Venue,
};
use crate::store::ShardSet;

/// One line of input.
#[derive(Debug, Deserialize)]
struct Line {
    /// Echoed in the outputs.
    #[serde(default)]
    id: Option<u64>,
    /// The server (`None`: a DM).
    #[serde(default)]
    guild: Option<u64>,
    /// The channel.
    channel: u64,
    /// The user.
    #[serde(default)]
    user: u64,
    /// Their display name (default `User<id>`).
    #[serde(default)]
    name: Option<String>,
    /// Whether they may manage messages.
    #[serde(default)]
    manage: bool,
    /// Whether they may manage the server (its settings).
    #[serde(default)]
    manage_guild: bool,
    /// Where (default: `server` with a `guild`, `dm` without).
    #[serde(default)]
    place: Option<Place>,
    /// In a `server_without_bot`: whether the server lets apps its members installed answer
    /// publicly (Use External Apps; default on).
    #[serde(default)]
    external_apps: Option<bool>,
    /// What they ask.
    #[serde(flatten)]
    command: Asked,
}

/// The places Discord tells apart (see [`Venue`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Place {
    /// A server that added the bot.
    Server,
    /// A server where only a member installed the app.
    ServerWithoutBot,
    /// The bot's DM (or a DM between users).
    Dm,
    /// A group DM.
    GroupDm,
}

impl Line {
    /// Where the line asks from, or why that place cannot be (a server needs a `guild`, a DM has
    /// none; `external_apps` is a server's switch).
    fn venue(&self) -> Result<Venue, String> {
        let place = self.place.unwrap_or(match self.guild {
            Some(_) => Place::Server,
            None => Place::Dm,
        });
        let venue = match place {
            Place::Server => Venue::Server,
            Place::ServerWithoutBot => Venue::ServerWithoutBot {
                external_apps: self.external_apps.unwrap_or(true),
            },
            Place::Dm => Venue::Dm,
            Place::GroupDm => Venue::GroupDm,
        };
        if venue.is_server() != self.guild.is_some() {
            return Err(format!(
                "{place:?} {} a guild",
                if venue.is_server() { "needs" } else { "has no" }
            ));
        }
        if self.external_apps.is_some() && place != Place::ServerWithoutBot {
            return Err("external_apps is only for server_without_bot".into());
        }
        Ok(venue)
    }
}

/// The game modes of `/sequence start mode:`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Mode {
    Standard,
    KingOfTheBoard,
}

/// The commands, with the options of `/sequence`.
#[derive(Debug, Deserialize)]
#[serde(tag = "command", rename_all = "snake_case")]
enum Asked {
    Start {
        #[serde(default)]
        game: Option<Variant>,
        #[serde(default)]
        teams: Option<u8>,
        #[serde(default)]
        options: Options,
        #[serde(default)]
        rated: Option<bool>,
        /// The lobby's clock, in seconds per turn.
        #[serde(default)]
        turn_time: Option<u32>,
        /// A series: best of this many games.
        #[serde(default)]
        series: Option<u8>,
        /// As `/sequence start mode:` (also `options.king_of_the_board`).
        #[serde(default)]
        mode: Option<Mode>,
        /// As `/sequence start points_to_win:` (also `options.points_to_win`).
        #[serde(default)]
        points_to_win: Option<u8>,
        /// As `/sequence start invite:`, the invited users' ids (a challenge).
        #[serde(default)]
        invite: Vec<u64>,
        /// Those of `invite` that are apps (bot accounts), as Discord would tell.
        #[serde(default)]
        bots: Vec<u64>,
    },
    Join {
        #[serde(default)]
        team: Option<u8>,
    },
    Leave,
    Forfeit,
    BotAdd {
        #[serde(default)]
        level: Option<BotLevel>,
    },
    BotRemove,
    Begin,
    Cancel,
    Play {
        #[serde(default)]
        card: Option<String>,
        #[serde(default)]
        cell: Option<String>,
    },
    Exchange {
        card: String,
    },
    Roll,
    Remove {
        cell: String,
    },
    Hand,
    /// `/sequence hint`: the move the `hard` computer player would make now, and why.
    Hint,
    Board,
    Status,
    Rules {
        #[serde(default)]
        game: Option<Variant>,
    },
    Stop,
    /// `of` (or `player`) is whose stats: `user` is the one who asks, as in every request.
    Stats {
        #[serde(default, alias = "player")]
        of: Option<u64>,
    },
    /// `of` (or `player`) is whose profile (default: the asker's).
    Profile {
        #[serde(default, alias = "player")]
        of: Option<u64>,
    },
    /// `of` (or `player`) is the other member.
    Versus {
        #[serde(alias = "player")]
        of: u64,
    },
    Leaderboard,
    History,
    Record {
        #[serde(default)]
        game: Option<i64>,
    },
    Replay {
        #[serde(default)]
        game: Option<i64>,
    },
    /// `/sequence-settings`: show or change the server's settings.
    Settings {
        #[serde(default)]
        game: Option<Variant>,
        #[serde(default)]
        computer_level: Option<BotLevel>,
        #[serde(default)]
        turn_reminder: Option<u64>,
        #[serde(default)]
        turn_timeout: Option<u64>,
        #[serde(default)]
        lobby_timeout: Option<u64>,
        #[serde(default)]
        thinking_time: Option<u64>,
        #[serde(default)]
        on_timeout: Option<crate::service::OnTimeout>,
        #[serde(default)]
        timeouts_before_replaced: Option<u8>,
        #[serde(default)]
        rated: Option<bool>,
        #[serde(default)]
        language: Option<crate::i18n::Lang>,
        #[serde(default)]
        hints: Option<bool>,
        #[serde(default)]
        replay_gif: Option<bool>,
        #[serde(default)]
        web_links: Option<bool>,
        #[serde(default)]
        web_page: Option<bool>,
        #[serde(default)]
        reset: bool,
    },
    /// A button pressed, or a choice made in a menu: the custom id the bot put on its message (and for a
    /// menu the chosen value), as Discord sends them.
    Press {
        custom_id: String,
        #[serde(default)]
        values: Vec<String>,
    },
    /// Not a bot command: print the channel's table as it is stored.
    Dump,
}

impl Asked {
    /// The service command, or `None` for `dump`.
    fn command(self, default_variant: Variant) -> Option<Command> {
        Some(match self {
            Asked::Start {
                game,
                teams,
                mut options,
                rated,
                turn_time,
                series,
                mode,
                points_to_win,
                invite,
                bots,
            } => {
                if let Some(mode) = mode {
                    options.king_of_the_board = mode == Mode::KingOfTheBoard;
                }
                options.points_to_win = points_to_win.or(options.points_to_win);
                let start = Command::Start {
                    variant: game.unwrap_or(default_variant),
                    teams,
                    options,
                    rated,
                    turn_time,
                    series,
                };
                if invite.is_empty() {
                    start
                } else {
                    Command::Challenge {
                        start: Box::new(start),
                        invited: invite.into_iter().map(UserId).collect(),
                        bots: bots.into_iter().map(UserId).collect(),
                    }
                }
            }
            Asked::Settings {
                game,
                computer_level,
                turn_reminder,
                turn_timeout,
                lobby_timeout,
                thinking_time,
                on_timeout,
                timeouts_before_replaced,
                rated,
                language,
                hints,
                replay_gif,
                web_links,
                web_page,
                reset,
            } => Command::Settings(SettingsRequest {
                changes: ServerSettings {
                    variant: game,
                    bot_level: computer_level,
                    turn_reminder_secs: turn_reminder,
                    turn_timeout_secs: turn_timeout,
                    lobby_timeout_secs: lobby_timeout,
                    thinking_ms: thinking_time,
                    on_timeout,
                    timeouts_before_replaced,
                    rated,
                    language,
                    hints,
                    replay_gif,
                    web_links,
                    web_page,
                    web_page_token: None,
                },
                reset,
            }),
            Asked::Join { team } => Command::Join { team },
            Asked::Leave => Command::Leave,
            Asked::Forfeit => Command::Forfeit { game: None },
            Asked::BotAdd { level } => Command::AddBot { level },
            Asked::BotRemove => Command::RemoveBot,
            Asked::Begin => Command::Begin,
            Asked::Cancel => Command::Cancel,
            Asked::Play { card, cell } => Command::Play {
                card,
                cell: cell.unwrap_or_default(),
            },
            Asked::Exchange { card } => Command::Exchange { card },
            Asked::Roll => Command::Roll,
            Asked::Remove { cell } => Command::Remove { cell },
            Asked::Hand => Command::Hand,
            Asked::Hint => Command::Hint,
            Asked::Board => Command::Board,
            Asked::Status => Command::Status,
            Asked::Rules { game } => Command::Rules { variant: game },
            Asked::Stop => Command::Stop,
            Asked::Stats { of } => Command::Stats {
                user: of.map(UserId),
            },
            Asked::Profile { of } => Command::Profile {
                user: of.map(UserId),
            },
            Asked::Versus { of } => Command::Versus { user: UserId(of) },
            Asked::Leaderboard => Command::Leaderboard,
            Asked::History => Command::History,
            Asked::Record { game } => Command::Record { game },
            Asked::Replay { game } => Command::Replay { game },
            // A press is decoded from its id (see `Console::request`).
            Asked::Press { .. } | Asked::Dump => return None,
        })
    }
}

/// Standard output, one JSON object per line, whole lines only.
#[derive(Clone)]
struct Out(Arc<Mutex<std::io::Stdout>>);

impl Out {
    fn print(&self, value: &Value) {
        let stdout = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let mut lock = stdout.lock();
        // A closed pipe means nobody listens any more: nothing to do about it.
        let _ = writeln!(lock, "{value}").and_then(|()| lock.flush());
    }
}

/// Shared state of the console.
#[derive(Clone)]
struct Console {
    tables: Arc<Tables>,
    out: Out,
    /// The next id of a posted message (channel posts and lobby messages).
    message_ids: Arc<AtomicU64>,
    /// `--images DIR`: where every image is written as it would be posted.
    images: Option<Arc<PathBuf>>,
    /// The next number of a private message's image (ephemeral answers, updates, DMs).
    private_images: Arc<AtomicU64>,
    /// Beside another face ([`spawn_beside`]): every event the service publishes is printed too.
    events: bool,
}

/// `sequence-bot console [--config PATH] [--images DIR]`, started by
/// [`crate::app::start::launch`]: exit code 0 at the end of the input, 2 for a configuration problem or
/// a folder for the images that cannot be made, 1 when the database cannot be opened.
pub struct ConsoleFace {
    /// `--images DIR`: where every image is written as it would be posted.
    pub images: Option<PathBuf>,
}

impl Program for ConsoleFace {
    type Error = StartError;

    fn check(&self, _config: &BotConfig) -> Result<(), String> {
        match &self.images {
            Some(dir) => std::fs::create_dir_all(dir).map_err(|e| {
                format!(
                    "cannot make the folder for the images {}: {e}",
                    dir.display()
                )
            }),
            None => Ok(()),
        }
    }

    fn run(self, config: BotConfig) -> impl std::future::Future<Output = Result<(), StartError>> {
        console(config, self.images)
    }

    fn exit_code(error: &StartError) -> i32 {
        error.exit_code()
    }
}

async fn console(config: BotConfig, images: Option<PathBuf>) -> Result<(), StartError> {
    let starting = App::start(config, painter()).await?;
    // Without Discord there is no recommended count: `auto` is one shard here.
    let shards = match starting.config().sharding.plan()? {
        ShardPlan::Fixed(set) => set,
        ShardPlan::Single | ShardPlan::Auto => ShardSet::SINGLE,
    };
    let App {
        config,
        tables,
        restored,
        claim,
        ..
    } = starting.open(shards).await?;
    // Without Discord every table is the console's.
    tables.set_default_face(FaceId::Console);
    let console = Console {
        tables,
        out: Out(Arc::new(Mutex::new(std::io::stdout()))),
        message_ids: Arc::new(AtomicU64::new(1)),
        images: images.map(Arc::new),
        private_images: Arc::new(AtomicU64::new(1)),
        events: false,
    };
    console.out.print(&json!({
        "ready": true,
        "restored": restored.resumed.iter().map(|c| c.0).collect::<Vec<_>>(),
        "lost": restored.lost.iter().map(|(c, _)| c.0).collect::<Vec<_>>(),
    }));
    // What the host's clock and computer players do is printed as it is published (`"id": null`).
    console.tables.spawn_face(console.printer(None, None));
    for (channel, reply) in restored.notes {
        let printer = console.printer(None, None);
        console
            .tables
            .deliver_reply(&printer, channel, &reply)
            .await;
    }
    console
        .tables
        .spawn_host(config.timers.tick(), config.timers.bot_delay());

    console.read_requests(config.defaults.game).await;
    App::release(claim).await;
    Ok(())
}

/// The console as a second face beside Discord in `sequence-bot run` (for tests: the environment
/// variable [`BESIDE`] set): it reads requests on standard input as `sequence-bot console` does, its
/// channels' tables are its own (not posted on Discord), and it prints every event the service
/// publishes, of every channel: `{"event": sequence, "channel", "origin": "host"|"discord"|"console",
/// "turn", "outputs": [...]}` (each output as the console prints it, `"id": null`).
pub fn spawn_beside(tables: Arc<Tables>, default_variant: Variant) {
    let console = Console {
        tables,
        out: Out(Arc::new(Mutex::new(std::io::stdout()))),
        message_ids: Arc::new(AtomicU64::new(1)),
        images: None,
        private_images: Arc::new(AtomicU64::new(1)),
        events: true,
    };
    console.tables.spawn_face(console.printer(None, None));
    tokio::spawn(async move { console.read_requests(default_variant).await });
}

/// The environment variable that starts the console beside Discord ([`spawn_beside`]).
pub const BESIDE: &str = "SEQUENCE_CONSOLE_BESIDE";

impl Console {
    /// Reads one request a line until the input ends, each answered in turn.
    async fn read_requests(&self, default_variant: Variant) {
        let mut lines = tokio::io::BufReader::new(tokio::io::stdin()).lines();
        while let Ok(Some(text)) = lines.next_line().await {
            if text.trim().is_empty() {
                continue;
            }
            let line: Line = match serde_json::from_str(&text) {
                Ok(line) => line,
                Err(e) => {
                    // Answered like any refused request, with its id when it has one, so that a
                    // client waiting for the `done` line does not hang.
                    let id = serde_json::from_str::<Value>(&text)
                        .ok()
                        .and_then(|v| v.get("id").and_then(Value::as_u64));
                    self.out
                        .print(&json!({"id": id, "error": format!("unreadable request: {e}")}));
                    self.out
                        .print(&json!({"id": id, "done": true, "refused": true}));
                    continue;
                }
            };
            self.request(line, default_variant).await;
        }
    }

    /// Prints an event as it was published (beside another face).
    fn print_event(&self, event: &Event) {
        let outputs: Vec<Value> = event
            .outputs
            .iter()
            .map(|output| match output {
                Output::Disarm {
                    message_id,
                    buttons,
                } => edit_json(None, event.channel, *message_id, buttons),
                Output::Channel(m) | Output::Ephemeral(m) | Output::Update(m) => {
                    output_json(None, event.channel, "channel", None, m)
                }
                Output::Direct { user, message } => {
                    output_json(None, event.channel, "direct", Some(*user), message)
                }
                Output::Lobby {
                    message_id,
                    message,
                } => {
                    let mut line = output_json(None, event.channel, "lobby", None, message);
                    line["message_id"] = json!(message_id);
                    line
                }
            })
            .collect();
        let origin = match event.origin {
            Origin::Host => "host",
            Origin::Face(FaceId::Discord) => "discord",
            Origin::Face(FaceId::Console) => "console",
            Origin::Face(FaceId::Web) => "web",
        };
        self.out.print(&json!({
            "event": event.sequence,
            "channel": event.channel.0,
            "origin": origin,
            "turn": event.turn,
            "outputs": outputs,
        }));
    }

    /// Handles one request (on a blocking thread, as the Discord layer does) and prints the reply.
    async fn request(&self, line: Line, default_variant: Variant) {
        let channel = ChannelId(line.channel);
        let venue = match line.venue() {
            Ok(venue) => venue,
            Err(e) => {
                self.out
                    .print(&json!({"id": line.id, "error": format!("unreadable request: {e}")}));
                self.out
                    .print(&json!({"id": line.id, "done": true, "refused": true}));
                return;
            }
        };
        // As the Discord layer notes the place of every interaction: where the bot may only
        // answer, the table is marked (and saved). A `dump` is no interaction: it changes nothing.
        let noted = !matches!(line.command, Asked::Dump)
            && (venue.answers_only()
                || venue.answers_only() != self.tables.is_answers_only(channel));
        if noted {
            let tables = self.tables.clone();
            let answers_only = venue.answers_only();
            let noted = tokio::task::spawn_blocking(move || {
                tables.note_answers_only(channel, answers_only);
            });
            if let Err(e) = noted.await {
                tracing::error!("noting where the bot may post failed: {e}");
            }
        }
        // The server's own default game, over the operator's.
        let default_variant = match line.guild {
            Some(guild) => {
                let tables = self.tables.clone();
                tokio::task::spawn_blocking(move || {
                    tables.settings_for(Some(GuildId(guild))).default_variant
                })
                .await
                .unwrap_or(default_variant)
            }
            None => default_variant,
        };
        let pressed = match &line.command {
            Asked::Press { custom_id, values } => Some(command_for_component(custom_id, values)),
            _ => None,
        };
        // A press as it is (it acts on what the bot posted there); a typed command under the rules of
        // the place, as on Discord.
        let command = pressed.or_else(|| {
            line.command
                .command(default_variant)
                .map(|c| c.in_venue(venue))
        });
        let command = match command {
            Some(Ok(command)) => Some(command),
            Some(Err(text)) => {
                let refusal = Reply::ephemeral(text);
                let printer = self.printer(line.id, Some(UserId(line.user)));
                self.tables
                    .deliver(&printer, channel, &refusal.outputs)
                    .await;
                self.out
                    .print(&json!({"id": line.id, "done": true, "refused": true}));
                return;
            }
            None => None,
        };
        let Some(command) = command else {
            let dump = self
                .tables
                .snapshot(channel)
                .and_then(|t| serde_json::to_value(t).ok());
            self.out.print(&json!({"id": line.id, "dump": dump}));
            return;
        };
        let request = Request {
            guild: line.guild.map(GuildId),
            channel,
            actor: Actor {
                user: UserId(line.user),
                name: line.name.unwrap_or_else(|| format!("User{}", line.user)),
                can_manage: line.manage,
                can_manage_guild: line.manage_guild,
            },
            command,
        };
        // Through the service's one door, as on Discord: the hint searched in the pool, a
        // computer's quick answer printed with the person's move; what follows is printed as the
        // host publishes it, after the `done` line.
        let (reply, pending) = self.tables.serve(request, FaceId::Console).await;
        let printer = self.printer(line.id, Some(UserId(line.user)));
        self.tables.deliver(&printer, channel, &reply.outputs).await;
        self.out
            .print(&json!({"id": line.id, "done": true, "refused": reply.is_refusal()}));
        drop(pending);
    }

    /// The console as a face: it prints the outputs of request `id` (asked by `asker`), or with
    /// `"id": null` what no request asked for.
    fn printer(&self, id: Option<u64>, asker: Option<UserId>) -> Printer {
        Printer {
            console: self.clone(),
            id,
            asker,
        }
    }

    /// Prints one output as the Discord layer would send it: a channel post and a new lobby message
    /// get a message id (what the service does after posting, [`Tables::acknowledge`], follows).
    async fn print_output(
        &self,
        id: Option<u64>,
        channel: ChannelId,
        asker: Option<UserId>,
        output: &Output,
    ) -> Sent {
        let (to, user, message) = match output {
            Output::Disarm {
                message_id,
                buttons,
            } => {
                self.out
                    .print(&edit_json(id, channel, *message_id, buttons));
                return Sent::Nothing;
            }
            Output::Channel(m) => ("channel", None, m),
            Output::Ephemeral(m) => ("ephemeral", asker, m),
            Output::Update(m) => ("update", asker, m),
            Output::Direct { user, message } => ("direct", Some(*user), message),
            Output::Lobby {
                message_id: Some(edited),
                message,
            } => {
                let mut line = output_json(id, channel, "lobby", None, message);
                line["message_id"] = json!(edited);
                self.out.print(&line);
                return Sent::Nothing;
            }
            Output::Lobby {
                message_id: None,
                message,
            } => {
                let posted = self.message_ids.fetch_add(1, Ordering::Relaxed);
                let mut line = output_json(id, channel, "lobby", None, message);
                line["message_id"] = json!(posted);
                self.out.print(&line);
                return Sent::Lobby(posted);
            }
        };
        let mut line = output_json(id, channel, to, user, message);
        if !matches!(output, Output::Channel(_)) {
            if message.image.is_some() && self.images.is_some() {
                let number = self.private_images.fetch_add(1, Ordering::Relaxed);
                self.write_image(&mut line, &format!("{to}-{number}"), message)
                    .await;
            }
            self.out.print(&line);
            return Sent::Nothing;
        }
        let posted = self.message_ids.fetch_add(1, Ordering::Relaxed);
        line["message_id"] = json!(posted);
        self.write_image(&mut line, &format!("message-{posted}"), message)
            .await;
        self.out.print(&line);
        Sent::Posted(posted)
    }

    /// With `--images DIR`: draws the message's image as the bot would post it (in English) and
    /// writes it to `DIR/<stem>-<file name as posted>` (`message-7-board.png`,
    /// `ephemeral-2-hand.png`), named in the printed line as `"image_file"` (written before the line
    /// is printed). A picture that cannot be drawn or written is logged; the line then has none.
    async fn write_image(&self, line: &mut Value, stem: &str, message: &Message) {
        let (Some(dir), Some(image)) = (self.images.clone(), message.image.clone()) else {
            return;
        };
        let stem = stem.to_string();
        let written = tokio::task::spawn_blocking(move || {
            let painter = crate::app::paint::RenderPainter;
            let (bytes, posted_as) =
                crate::app::paint::draw(&painter, &image, crate::i18n::Lang::En)?;
            let name = format!("{stem}-{posted_as}");
            std::fs::write(dir.join(&name), bytes)
                .map_err(|e| format!("cannot write {name}: {e}"))?;
            Ok::<String, String>(name)
        })
        .await;
        match written {
            Ok(Ok(name)) => line["image_file"] = json!(name),
            Ok(Err(e)) => tracing::error!("an image was not written: {e}"),
            Err(e) => tracing::error!("drawing an image failed: {e}"),
        }
    }
}

/// The console as a face of the service (see [`Console::printer`]).
#[derive(Clone)]
struct Printer {
    console: Console,
    /// The request whose outputs these are (`None`: the host's).
    id: Option<u64>,
    /// Who asked (private answers go to them).
    asker: Option<UserId>,
}

impl Face for Printer {
    fn id(&self) -> FaceId {
        FaceId::Console
    }

    async fn send(&self, channel: ChannelId, output: &Output) -> Sent {
        self.console
            .print_output(self.id, channel, self.asker, output)
            .await
    }

    fn detached(&self) -> Printer {
        self.console.printer(None, None)
    }

    fn observe(&self, event: &Event) {
        if self.console.events {
            self.console.print_event(event);
        }
    }
}

/// An edit of a posted message's buttons (an old turn prompt losing its Play button).
fn edit_json(id: Option<u64>, channel: ChannelId, message_id: u64, buttons: &[Button]) -> Value {
    let message = Message {
        buttons: buttons.to_vec(),
        ..Message::default()
    };
    json!({
        "id": id,
        "channel": channel.0,
        "to": "edit",
        "message_id": message_id,
        "buttons": buttons.iter().map(|b| b.id()).collect::<Vec<_>>(),
        "components": action_rows(&message).iter().map(|row| {
            row.iter().map(control_json).collect::<Vec<_>>()
        }).collect::<Vec<_>>(),
    })
}

fn output_json(
    id: Option<u64>,
    channel: ChannelId,
    to: &str,
    user: Option<UserId>,
    message: &Message,
) -> Value {
    json!({
        "id": id,
        "channel": channel.0,
        "to": to,
        "user": user.map(|u| u.0),
        "text": message.to_english(),
        "image": message.image.as_ref().map(|image| match image {
            Image::Board(_) => "board",
            Image::Hand(_) => "hand",
            Image::Replay(_) => "replay",
            Image::Profile(_) => "profile",
        }),
        "attachment": message.attachment.as_ref().map(|a| json!({
            "filename": a.filename,
            "text": String::from_utf8_lossy(&a.data),
        })),
        "buttons": message.buttons.iter().map(|b| b.id()).collect::<Vec<_>>(),
        "components": action_rows(message).iter().map(|row| {
            row.iter().map(control_json).collect::<Vec<_>>()
        }).collect::<Vec<_>>(),
        "mentions": message.mentions.iter().map(|u| u.0).collect::<Vec<_>>(),
    })
}

/// A button or menu as the console prints it, in English.
fn control_json(control: &Control) -> Value {
    let lang = crate::i18n::Lang::En;
    match control {
        Control::Button {
            id,
            label,
            style,
            disabled,
        } => json!({
            "type": "button",
            "id": id,
            "label": label.render(lang),
            "style": format!("{style:?}").to_lowercase(),
            "disabled": disabled,
        }),
        Control::Select {
            id,
            placeholder,
            options,
        } => json!({
            "type": "select",
            "id": id,
            "placeholder": placeholder.render(lang),
            "options": options.iter().map(|o| json!({
                "value": o.value,
                "label": o.label.render(lang),
                "description": o.description.as_ref().map(|d| d.render(lang)),
            })).collect::<Vec<_>>(),
        }),
        Control::Link { label, url } => json!({
            "type": "link",
            "label": label.render(lang),
            "url": url,
        }),
    }
}
