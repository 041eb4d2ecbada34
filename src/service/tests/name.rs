//! Issue 24, point 4: names are text, not markup. A player whose display name is made of markdown,
//! links, mentions, line breaks or bidirectional marks gives up; the computer player that takes the
//! seat carries the name ("Computer (easy, for …)") into the channel post, the status, the turn prompts,
//! the move lines and the history, and everywhere it is text. The name is kept clean (one line, no
//! hidden characters) for the log, the records and the images.

use super::kit::Start;
use std::io::Write;
use std::sync::{Arc, Mutex};

use crate::engine::{MoveList, Options, Variant};
use crate::i18n::Lang;
use crate::store::tests::sqlite_store;
use crate::store::{FinishedGame, PlayerResult, BOT_USER_ID};

use super::kit::{command_for, seeded, test_actor, test_settings, Asker, T0};
use crate::service::{
    clean_name, Actor, BotLevel, ChannelId, Command, GuildId, Message, Output, Player, Reply,
    ServerSettings, SettingsRequest, Tables,
};

const GUILD: GuildId = GuildId(8);

/// Requests come from server [`GUILD`].
const HERE: Asker = Asker::server(GUILD);
/// The player who gives up, under the hostile name.
const QUITTER: u64 = 2;

/// Hostile names, with the name as messages must show it (escaped, one line, no hidden marks): as
/// a player's name is kept (cut to 32 characters), and in full (a name kept before names were
/// cleaned on the way in, as in the history).
const HOSTILE: [(&str, &str, &str); 8] = [
    (
        "[free nitro](https://evil.xyz)@everyone",
        "\\[free nitro\\](https\\://evil.xyz)@\u{200B}…",
        "\\[free nitro\\](https\\://evil.xyz)@\u{200B}everyone",
    ),
    ("**bold**", "\\*\\*bold\\*\\*", "\\*\\*bold\\*\\*"),
    ("<@999>", "\\<@\u{200B}999\\>", "\\<@\u{200B}999\\>"),
    ("line\nbreak", "line break", "line break"),
    ("\u{202E}evil", "evil", "evil"),
    ("`code`", "\\`code\\`", "\\`code\\`"),
    ("||spoiler||", "\\|\\|spoiler\\|\\|", "\\|\\|spoiler\\|\\|"),
    (
        "@here\u{200F} ~~x~~",
        "@\u{200B}here \\~\\~x\\~\\~",
        "@\u{200B}here \\~\\~x\\~\\~",
    ),
];

/// What no message may hold outside an escape (a backslash and the character after it) when a
/// hostile name played: links, mentions and markup made of the names above, their line break,
/// hidden characters, and a backslash shown as such (a name escaped twice).
const FORBIDDEN: [&str; 13] = [
    "](",
    "://",
    "@everyone",
    "@here",
    "<@999",
    "**bold**",
    "`code`",
    "||",
    "~~",
    "line\nbreak",
    "\u{202E}",
    "\u{200F}",
    "\\",
];

fn actor(user: u64, name: &str) -> Actor {
    Actor {
        name: name.to_string(),
        ..test_actor(user)
    }
}

/// Users 1 to 4; user [`QUITTER`] is called `name`.
fn ask_named(tables: &Tables, channel: u64, user: u64, name: &str, command: Command) -> Reply {
    let name = if user == QUITTER {
        name.to_string()
    } else {
        format!("Player{user}")
    };
    let reply = HERE.ask_as(tables, channel, actor(user, &name), command.clone(), T0);
    assert!(!reply.is_refusal(), "{command:?} by {user}: {reply:?}");
    reply
}

/// Every message of the replies, in every language.
fn rendered(replies: &[Reply]) -> Vec<String> {
    replies
        .iter()
        .flat_map(|r| &r.outputs)
        .filter_map(Output::message)
        .flat_map(|m| Lang::ALL.map(|lang| m.render(lang)))
        .collect()
}

/// The texts that hold forbidden markup outside escapes, with what they hold.
fn live_markup(texts: &[String]) -> Vec<(&'static str, String)> {
    texts
        .iter()
        .flat_map(|text| {
            // What Discord reads as markup: the text with every escaped character blanked.
            let mut bare = String::new();
            let mut chars = text.chars();
            while let Some(c) = chars.next() {
                if c == '\\' {
                    bare.push(' ');
                    if chars.next() == Some('\\') {
                        // An escaped backslash: no hostile name has one, so a name escaped
                        // twice (shown with its backslashes); `\\` in FORBIDDEN finds it.
                        bare.push('\\');
                    }
                } else {
                    bare.push(c);
                }
            }
            FORBIDDEN
                .iter()
                .filter(move |bad| bare.contains(**bad))
                .map(|bad| (*bad, text.clone()))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// A 2-against-2 classic game in `channel` (users 1 and 3 against 2 and 4) in which user 2, called
/// `name`, gives up at once; then the status, and moves until the computer in their seat has moved
/// twice. Returns every reply, the forfeit's first.
async fn give_up_and_play_on(tables: &Tables, channel: u64, name: &str) -> Vec<Reply> {
    let start = Start {
        teams: Some(2),
        ..Start::of(Variant::Classic)
    }
    .command();
    ask_named(tables, channel, 1, name, start);
    for (user, team) in [(2, 2), (3, 1), (4, 2)] {
        let join = Command::Join { team: Some(team) };
        ask_named(tables, channel, user, name, join);
    }
    ask_named(tables, channel, 1, name, Command::Begin);
    let forfeit = Command::Forfeit { game: None };
    let mut replies = vec![ask_named(tables, channel, QUITTER, name, forfeit)];
    replies.push(ask_named(tables, channel, 1, name, Command::Status));
    let mut stand_in_moves = 0;
    for _ in 0..40 {
        let table = tables.snapshot(ChannelId(channel)).expect("the table");
        let playing = table.playing().expect("still playing");
        let seat = playing.game().position().to_move();
        match playing.seats[usize::from(seat)].user() {
            Some(user) => {
                let mut moves = MoveList::new();
                playing.game().view(seat).legal_moves(&mut moves);
                let mv = *moves.iter().next().expect("a legal move");
                let command = command_for(mv, playing.game().position().layout());
                replies.push(ask_named(tables, channel, user.0, name, command));
            }
            None => {
                let auto = tables.run_auto(ChannelId(channel), T0).await;
                assert!(!auto.is_empty(), "the computer moves");
                stand_in_moves += 1;
                replies.extend(auto);
                if stand_in_moves == 2 {
                    return replies;
                }
            }
        }
    }
    panic!("the computer in the seat of user {QUITTER} did not move twice");
}

#[tokio::test]
async fn hostile_names_reach_the_channel_status_and_prompts_as_text() {
    let tables = seeded(test_settings(), 41);
    for (i, (name, shown, _)) in HOSTILE.iter().enumerate() {
        let channel = 100 + i as u64;
        let replies = give_up_and_play_on(&tables, channel, name).await;
        let stand_in = format!("**Computer (easy, for {shown})**");
        let forfeit = rendered(&replies[..1]).join("\n");
        assert!(
            forfeit.contains(&format!(
                "<@{QUITTER}> gave up. The computer player {stand_in} takes their seat."
            )),
            "{name:?}: {forfeit}"
        );
        let status = rendered(&replies[1..2]).join("\n");
        assert!(status.contains(&stand_in), "{name:?}: {status}");
        let texts = rendered(&replies);
        let later = texts[2 * Lang::ALL.len()..].join("\n");
        assert!(
            later.contains(&format!("{stand_in} played")),
            "{name:?}: the computer's moves name it: {later}"
        );
        assert!(
            later.contains(&format!("{stand_in} is thinking")),
            "{name:?}: its turn is announced: {later}"
        );
        let live = live_markup(&texts);
        assert!(live.is_empty(), "{name:?}: {live:#?}");
        // Kept clean for the log, the record and the images: one line, no hidden marks, no escapes.
        let table = tables.snapshot(ChannelId(channel)).expect("the table");
        let playing = table.playing().expect("playing");
        let kept: Vec<&str> = playing.forfeited.iter().map(|(_, p)| p.name()).collect();
        assert_eq!(kept, [clean_name(name)]);
        assert!(
            !kept[0].contains(['\n', '\u{202E}', '\u{200F}', '\\']),
            "{kept:?}"
        );
    }
}

#[tokio::test]
async fn an_ordinary_name_is_shown_exactly_as_before() {
    let tables = seeded(test_settings(), 41);
    let replies = give_up_and_play_on(&tables, 1, "Alice").await;
    assert_eq!(
        replies[0].outputs[0].message().map(Message::to_english),
        Some(format!(
            "<@{QUITTER}> gave up. The computer player **Computer (easy, for Alice)** takes their seat."
        ))
    );
    let texts = rendered(&replies).join("\n");
    assert!(
        texts.contains("**Computer (easy, for Alice)** is thinking"),
        "{texts}"
    );
    assert!(!texts.contains('\\'), "nothing to escape: {texts}");
}

/// Issue 44.11: the computer that takes a seat is named with its level (the server's, `hard` here)
/// in the server's language, in the post that hands it the seat, the status and its own moves.
#[tokio::test]
async fn the_stand_in_is_named_with_the_servers_level_in_its_language() {
    let tables = seeded(test_settings(), 41);
    let admin = Actor {
        can_manage_guild: true,
        ..actor(5, "Admin")
    };
    let request = SettingsRequest {
        changes: ServerSettings {
            bot_level: Some(BotLevel::Hard),
            language: Some(Lang::De),
            ..ServerSettings::default()
        },
        reset: false,
    };
    let reply = HERE.ask_as(&tables, 1, admin, Command::Settings(request), T0);
    assert!(!reply.is_refusal(), "{reply:?}");
    let replies = give_up_and_play_on(&tables, 1, "Alice").await;
    let german = |replies: &[Reply]| -> String {
        replies
            .iter()
            .flat_map(|r| &r.outputs)
            .filter_map(Output::message)
            .map(|m| m.render(Lang::De))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let stand_in = "**Computer (schwer, für Alice)**";
    let forfeit = german(&replies[..1]);
    assert!(
        forfeit.contains(&format!("<@{QUITTER}> hat aufgegeben.")) && forfeit.contains(stand_in),
        "{forfeit}"
    );
    let status = german(&replies[1..2]);
    assert!(status.contains(stand_in), "{status}");
    let later = german(&replies[2..]);
    assert!(later.contains(stand_in), "its moves name it: {later}");
    let table = tables.snapshot(ChannelId(1)).expect("the table");
    let seat = table
        .playing()
        .expect("playing")
        .forfeited
        .first()
        .expect("a seat given up")
        .0;
    assert_eq!(
        table.playing().expect("playing").seats[usize::from(seat)],
        Player::Bot {
            level: BotLevel::Hard,
            name: "Computer (schwer, für Alice)".into(),
        },
        "the level named is the level that plays"
    );
}

#[test]
fn history_shows_names_kept_before_they_were_cleaned_as_text() {
    let t = sqlite_store("names_history").expect("sqlite");
    let config =
        crate::engine::Config::new(Variant::Classic, 2, None, Options::default()).expect("config");
    let player = |user_id, name: &str, team, won| PlayerResult {
        user_id,
        name: name.to_string(),
        team,
        won,
        sequences: 0,
        bot_level: None,
        gave_up: false,
    };
    for (i, (name, _, _)) in HOSTILE.iter().enumerate() {
        let players = vec![
            player(1, "Player1", 0, false),
            player(
                BOT_USER_ID,
                &format!("Computer (easy, for {name})"),
                1,
                true,
            ),
        ];
        let game = FinishedGame {
            guild_id: Some(GUILD.0),
            channel_id: 200 + i as u64,
            variant: "classic".into(),
            record_json: serde_json::to_string(&crate::engine::Record::random_game(
                config, i as u64,
            ))
            .expect("json"),
            finished_at: 1_700_000_000_000 + i as i64,
            started_at: None,
            players,
            rated: Some(false),
            aborted: false,
            web_token: None,
        };
        t.store.finish_game(&game).expect("stored");
    }
    let tables = seeded(test_settings(), 1).with_store(t.store.clone());
    let reply = ask_named(&tables, 1, 1, "", Command::History);
    let texts = rendered(&[reply]);
    for (name, _, shown) in HOSTILE {
        assert!(
            texts[0].contains(&format!("**Computer (easy, for {shown})**")),
            "{name:?}: {}",
            texts[0]
        );
    }
    let live = live_markup(&texts);
    assert!(live.is_empty(), "{live:#?}");
}

/// A log written to memory.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_name_with_line_breaks_keeps_the_settings_log_line_whole() {
    let log = Captured::default();
    let writer = log.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .finish();
    let tables = seeded(test_settings(), 1);
    let admin = Actor {
        can_manage_guild: true,
        ..actor(5, "Eve\r\nERROR forged\u{202E}\u{1B}[2J")
    };
    let request = SettingsRequest {
        changes: ServerSettings {
            turn_timeout_secs: Some(300),
            ..ServerSettings::default()
        },
        reset: false,
    };
    let reply = tracing::subscriber::with_default(subscriber, || {
        HERE.ask_as(&tables, 1, admin, Command::Settings(request), T0)
    });
    assert!(!reply.is_refusal(), "{reply:?}");
    let log =
        String::from_utf8(log.0.lock().unwrap_or_else(|e| e.into_inner()).clone()).expect("utf-8");
    // The forged line is part of the one line that logs the change, not a line of its own.
    let lines: Vec<&str> = log.lines().filter(|l| l.contains("forged")).collect();
    assert_eq!(lines.len(), 1, "{log}");
    assert!(
        lines[0].contains("server settings changed by Eve ERROR forged[2J: "),
        "{log}"
    );
    assert!(!log.contains(['\u{202E}', '\u{1B}']), "{log:?}");
}
