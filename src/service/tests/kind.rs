//! Issue 45.5: one `Command::kind()` classifies every command; what the registry asks of a command
//! (may it change a table, does it post, does a paused table allow it, does it need a seed, does it
//! seat someone, is it a Join or a Leave) is read from it, and answers as the lists it replaced did.

use super::kit::Start;
use crate::engine::Variant;
use crate::service::request::Step;
use crate::service::{
    command_for_component, BotLevel, Button, Command, CommandKind, SettingsRequest, UserId,
};

/// One command of every variant (and every picker step, and commands wrapped for one game).
fn every_command() -> Vec<Command> {
    let start = Start::of(Variant::Classic).command();
    let mut commands = vec![
        start.clone(),
        Command::Challenge {
            start: Box::new(start),
            invited: vec![UserId(2)],
            bots: Vec::new(),
        },
        Command::Accept,
        Command::Decline,
        Command::Join { team: None },
        Command::Join { team: Some(1) },
        Command::Leave,
        Command::AddBot { level: None },
        Command::AddBot {
            level: Some(BotLevel::Hard),
        },
        Command::RemoveBot,
        Command::Begin,
        Command::Cancel,
        Command::Play {
            card: Some("7H".into()),
            cell: "D6".into(),
        },
        Command::Exchange { card: "7H".into() },
        Command::Roll,
        Command::Remove { cell: "D6".into() },
        Command::Hand,
        Command::Hint,
        Command::Board,
        Command::Status,
        Command::Rules { variant: None },
        Command::Forfeit { game: None },
        Command::KeepPlaying,
        Command::Rematch { game: 1 },
        Command::Stop,
        Command::Stats { user: None },
        Command::Profile { user: None },
        Command::Versus { user: UserId(2) },
        Command::Leaderboard,
        Command::History,
        Command::Record { game: None },
        Command::Replay { game: None },
        Command::Settings(SettingsRequest::default()),
        Command::BotMenu,
        Command::Menu,
        Command::AskStop,
        Command::NextGame,
        Command::AskAbandonSeries,
        Command::AbandonSeries,
    ];
    // Every button, some of which wrap a command for one game.
    let games = 5;
    commands.extend(Button::FIXED.iter().map(|b| b.command()));
    commands.extend(
        [
            Button::Rematch(games),
            Button::ConfirmLeave(games),
            Button::AddBotLevel(games, BotLevel::Easy),
            Button::JoinTeam(2),
            Button::More(games),
            Button::LeaveGame(games),
            Button::Stop(games),
            Button::ConfirmStop(games),
            Button::Record(9),
            Button::NextGame(games),
            Button::AbandonSeries(games),
            Button::ConfirmAbandonSeries(games),
            Button::Accept(games),
            Button::Decline(games),
        ]
        .map(|b| b.command()),
    );
    // Every step of the picker.
    for (step, value) in [
        ("play", None),
        ("roll", None),
        ("cards", None),
        ("card:7H", None),
        ("rows:7H", Some("1-1")),
        ("cell:7H:D6", None),
        ("cell:-:D6", None),
        ("swap:7H", None),
        ("hint", None),
        ("hint-unrated", None),
    ] {
        let values: Vec<String> = value.into_iter().map(String::from).collect();
        let id = format!("sequence:p:{games}:3:{step}");
        commands.push(command_for_component(&id, &values).expect(&id));
    }
    commands
}

/// The lists `Command::kind` replaced, as they were written (request.rs and tables/mod.rs at
/// 525fdfa, with the host's `Command::Hint` among the private answers): may change a table, posts,
/// allowed while paused, needs a seed, takes a seat, Join or Leave.
fn as_the_lists_said(command: &Command) -> [bool; 6] {
    fn changes_table(command: &Command) -> bool {
        match command {
            Command::Press(press) => press.changes_table(),
            Command::OfGame { command, .. } => changes_table(command),
            _ => {
                !matches!(
                    command,
                    Command::Board
                        | Command::Stats { .. }
                        | Command::Profile { .. }
                        | Command::Versus { .. }
                        | Command::Leaderboard
                        | Command::History
                        | Command::Replay { .. }
                ) && posts(command)
            }
        }
    }
    fn posts(command: &Command) -> bool {
        if let Command::OfGame { command, .. } = command {
            return posts(command);
        }
        !matches!(
            command,
            Command::Hand
                | Command::Hint
                | Command::BotMenu
                | Command::Menu
                | Command::AskStop
                | Command::AskAbandonSeries
                | Command::KeepPlaying
                | Command::Status
                | Command::Rules { .. }
                | Command::Record { .. }
                | Command::Settings(_)
        ) && !matches!(command, Command::Press(press) if !press.changes_table())
    }
    let paused = matches!(
        command.unwrapped(),
        Command::Hand
            | Command::Stop
            | Command::Cancel
            | Command::Menu
            | Command::AskStop
            | Command::KeepPlaying
    );
    let rolls = matches!(command, Command::Press(p) if p.step == Step::Roll);
    let deals = matches!(
        command.unwrapped(),
        Command::Begin | Command::Roll | Command::NextGame
    );
    let takes_seat = matches!(
        command.unwrapped(),
        Command::Join { .. } | Command::Accept | Command::Rematch { .. }
    );
    // The list read the command itself; the only Leave wrapped for one game is the running game's
    // Leave button, which asks privately and edits no lobby.
    let join_or_leave = matches!(command.unwrapped(), Command::Join { .. } | Command::Leave);
    [
        changes_table(command),
        posts(command),
        paused,
        deals || rolls,
        takes_seat,
        join_or_leave,
    ]
}

#[test]
fn every_command_is_classified_as_the_old_lists_did() {
    let commands = every_command();
    assert!(commands.len() > 60, "{}", commands.len());
    for command in &commands {
        let kind = command.kind();
        let read = [
            kind.changes_table(),
            kind.posts(),
            kind.allowed_while_paused(),
            kind.needs_seed(),
            kind.takes_seat(),
            kind.joins_or_leaves(),
        ];
        assert_eq!(read, as_the_lists_said(command), "{command:?}: {kind:?}");
        assert_eq!(command.changes_table(), kind.changes_table(), "{command:?}");
        assert_eq!(command.posts(), kind.posts(), "{command:?}");
        // A read-only command changes nothing, so the registry keeps no copy to put back.
        if !kind.changes_table() {
            assert!(!kind.needs_seed() && !kind.takes_seat(), "{command:?}");
        }
    }
}

#[test]
fn each_kind_is_some_command() {
    let kinds: Vec<CommandKind> = every_command().iter().map(Command::kind).collect();
    for kind in [
        CommandKind::Looks,
        CommandKind::LooksWhilePaused,
        CommandKind::Shows,
        CommandKind::Changes,
        CommandKind::Joins,
        CommandKind::Seats,
        CommandKind::Leaves,
        CommandKind::Ends,
        CommandKind::Deals,
    ] {
        assert!(kinds.contains(&kind), "{kind:?}");
    }
    // A button made for one game is what it asks.
    assert_eq!(Button::ConfirmStop(5).command().kind(), CommandKind::Ends);
    assert_eq!(Button::Accept(5).command().kind(), CommandKind::Seats);
    assert_eq!(
        Button::More(5).command().kind(),
        CommandKind::LooksWhilePaused
    );
}
