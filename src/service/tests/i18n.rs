//! Every text in every language: each variant renders without a translation problem, German and
//! Norwegian are really translated, and a kids game speaks German animal names in a German server.

use super::kit::Start;
use std::collections::BTreeSet;

use crate::engine::card::KIDS_NAMES;
use crate::engine::{Card, Config, Options, PlayError, SetupError, Variant};
use crate::i18n::{Lang, Tr};

use super::kit::seeded;
use crate::service::text::{
    CardLine, CardUse, HistoryLine, LeaderLine, LobbyCard, LobbyRules, RatingInfo, RatingNote,
    RollHint, SeatLine, SettingName, SettingsInfo, StatusInfo, TeamName, Text, Totals, Who,
    ZoneInfo,
};
use crate::service::{
    Actor, BotLevel, ChannelId, Command, Output, Permission, Reply, Request, Settings, Timestamp,
    UserId,
};

/// A distinct number per variant; the match has no wildcard, so a new variant must be added here (and
/// then to `samples`, or `every_variant_has_a_sample` fails).
fn variant_index(text: &Text) -> usize {
    match text {
        Text::NoTable => 0,
        Text::TableExists => 1,
        Text::AlreadyStarted => 2,
        Text::NotStarted => 3,
        Text::AlreadyJoined => 4,
        Text::LobbyFull { .. } => 5,
        Text::NotInGame => 6,
        Text::NotHost { .. } => 7,
        Text::NotYourTurn { .. } => 8,
        Text::Illegal(_) => 9,
        Text::IllegalWithCells(..) => 10,
        Text::BadCard { .. } => 11,
        Text::BadCell { .. } => 12,
        Text::CardNeeded => 13,
        Text::CellNeeded => 14,
        Text::BadOption => 15,
        Text::GuildOnly => 16,
        Text::NoCardsInDice => 17,
        Text::NotDice => 18,
        Text::RollFirst => 19,
        Text::AlreadyRolled { .. } => 20,
        Text::CannotStart(..) => 21,
        Text::BadTeamCount { .. } => 22,
        Text::BadTeam { .. } => 23,
        Text::TeamFull { .. } => 24,
        Text::NoBot => 25,
        Text::Internal => 26,
        Text::LobbyOpened => 27,
        Text::Joined => 28,
        Text::Left => 29,
        Text::BotAdded(_) => 30,
        Text::BotRemoved(_) => 31,
        Text::CancelledAck => 32,
        Text::BegunAck => 33,
        Text::ForfeitAck => 34,
        Text::StoppedAck => 35,
        Text::Lobby(_) => 36,
        Text::LobbyStarted(_) => 37,
        Text::LobbyCancelled { .. } => 38,
        Text::LobbyExpired => 39,
        Text::LobbyAbandoned { .. } => 40,
        Text::HostChanged(_) => 41,
        Text::RollOff { .. } => 42,
        Text::GameStarted { .. } => 43,
        Text::Played { .. } => 44,
        Text::Removed { .. } => 45,
        Text::Placed { .. } => 46,
        Text::Exchanged { .. } => 47,
        Text::Passed(_) => 48,
        Text::Captured { .. } => 49,
        Text::SequenceDone { .. } => 50,
        Text::SequenceBroken(_) => 51,
        Text::Reshuffled => 52,
        Text::ProvisionalWin(_) => 53,
        Text::Rolled { .. } => 54,
        Text::Won { .. } => 55,
        Text::Scores(_) => 56,
        Text::Drawn => 57,
        Text::WonByForfeit { .. } => 58,
        Text::Stopped(_) => 59,
        Text::NoHumansLeft => 60,
        Text::Forfeited { .. } => 61,
        Text::Turn { .. } => 62,
        Text::Reminder { .. } => 63,
        Text::TimedOut { .. } => 64,
        Text::DmFailed(_) => 65,
        Text::RecordAttached => 66,
        Text::BoardCaption { .. } => 67,
        Text::Hand { .. } => 68,
        Text::Status(_) => 69,
        Text::LobbyStatus(_) => 70,
        Text::Rules(_) => 71,
        Text::SaveFailed => 72,
        Text::GameResumed { .. } => 73,
        Text::LobbyResumed(_) => 74,
        Text::NotRestored => 75,
        Text::GameSaved { .. } => 76,
        Text::NoHistory => 77,
        Text::HistoryFailed => 78,
        Text::Stats { .. } => 79,
        Text::Leaderboard(_) => 80,
        Text::History(_) => 81,
        Text::GameRecord { .. } => 82,
        Text::NoSuchGame(_) => 83,
        Text::NoGameHere => 84,
        Text::TooManyTables { .. } => 85,
        Text::ServerFull { .. } => 86,
        Text::TooManyBots { .. } => 87,
        Text::Busy => 88,
        Text::HostGaveUp => 89,
        Text::Done => 90,
        Text::EndedWhileRestarting => 91,
        Text::CannotPostHere { .. } => 92,
        Text::GamePaused { .. } => 93,
        Text::PostingRestored => 94,
        Text::SettingsNotAllowed => 95,
        Text::ServerSettings(_) => 96,
        Text::SettingsChanged(_) => 97,
        Text::BadSetting { .. } => 98,
        Text::ReminderNotBeforeTimeout { .. } => 99,
        Text::ReplacedAfterTimeouts { .. } => 100,
        Text::GaveUp(_) => 101,
        Text::ConfirmLeave { .. } => 102,
        Text::KeptPlaying => 103,
        Text::RemoveWithCard(_) => 104,
        Text::NotInHand(_) => 105,
        Text::RollDoesNotMatch { .. } => 106,
        Text::TeamNoRoom { .. } => 107,
        Text::RematchNotPlayer => 108,
        Text::RematchExpired => 109,
        Text::RematchSuperseded => 110,
        Text::LeaveExpired => 111,
        Text::PickerPlayButton => 112,
        Text::PickerRollButton => 113,
        Text::PickerBackButton => 114,
        Text::PickerExchange(_) => 115,
        Text::PickerUnplayable(_) => 116,
        Text::PickerRow { .. } => 117,
        Text::PickerRowPlaceholder => 118,
        Text::PickerCell { .. } => 119,
        Text::PickCard => 120,
        Text::PickRow { .. } => 121,
        Text::PickCell { .. } => 122,
        Text::PickerDone => 123,
        Text::PickerExpired { .. } => 124,
        Text::NotYourPicker { .. } => 125,
        Text::PickerNotYourCard(_) => 126,
        Text::BadButton => 127,
        Text::StopIsGivingUp(_) => 128,
        Text::SharedWin(_) => 129,
        Text::Rating(_) => 130,
        Text::SlowDown => 131,
        Text::LeaveAnswered => 132,
        Text::BotMenu { .. } => 133,
        Text::GameMenu => 134,
        Text::ButtonExpired => 135,
        Text::TeamChanged(_) => 136,
        Text::AlreadyOnTeam(_) => 137,
        Text::ConfirmStop { .. } => 138,
        Text::SummarySequence { .. } => 139,
        Text::SummaryBroken { .. } => 140,
        Text::SummaryLength { .. } => 141,
        Text::Agreement { .. } => 142,
        Text::GameReplay { .. } => 143,
        Text::Hint { .. } => 144,
        Text::HintsOnlyCasual => 145,
        Text::HintsUsed { .. } => 146,
        Text::BadTurnTime { .. } => 147,
        Text::BadSeries { .. } => 148,
        Text::SeriesScore { .. } => 149,
        Text::SeriesWon { .. } => 150,
        Text::SeriesNoWinner => 151,
        Text::SeriesNext => 152,
        Text::SeriesBreak => 153,
        Text::NotInSeries => 154,
        Text::ConfirmAbandonSeries => 155,
        Text::SeriesAbandoned { .. } => 156,
        Text::SeriesExpired => 157,
        Text::SeriesStats { .. } => 158,
        Text::PickerHintButton => 159,
        Text::PickerHintUnratedButton => 160,
        Text::ConfirmHint => 161,
        Text::HintMadeUnrated => 162,
        Text::ZoneScored { .. } => 163,
        Text::ZoneMoved(_) => 164,
        Text::Zone(_) => 165,
        Text::HintBusy => 166,
        Text::HintSpent => 167,
        Text::ReplaysWaiting { .. } => 168,
        Text::ReplaysBusy { .. } => 169,
        Text::QuestionAnswered => 170,
        Text::HintMadeCasual(_) => 171,
        Text::SeriesGame { .. } => 172,
        Text::OutOfTimeLost { .. } => 173,
        Text::TimeoutWarning { .. } => 174,
        Text::Profile(_) => 175,
        Text::NoProfile { .. } => 176,
        Text::Versus(_) => 177,
        Text::NoVersus { .. } => 178,
        Text::VersusSelf => 179,
        Text::Unlocked { .. } => 180,
        Text::InviteNotMentions => 181,
        Text::InviteNotPeople => 182,
        Text::InviteTwice(_) => 183,
        Text::InviteSelf => 184,
        Text::InviteTooMany { .. } => 185,
        Text::InviteBot(_) => 186,
        Text::NotInvited => 187,
        Text::DeclinedAck => 188,
        Text::ChallengeDeclined { .. } => 189,
        Text::AnswersOnly => 190,
        Text::HeldBack => 191,
        Text::ExternalAppsOff => 192,
        Text::ServerOnlyLists => 193,
        Text::CasualOutsideServers => 194,
        Text::HintDeclined => 195,
        Text::Blocked { .. } => 196,
        Text::WonOnTime { .. } => 197,
        Text::TimeoutGivesUp { .. } => 198,
        Text::ProfilesRebuilding { .. } => 199,
        Text::WatchButton => 200,
        Text::ReplayLinkButton => 201,
        Text::PlayedElsewhere => 202,
        Text::ActivityButton => 203,
    }
}

/// One more than the highest index of [`variant_index`] (`every_variant_has_a_sample` checks that no
/// index reaches it).
const VARIANTS: usize = 204;
const GAMES: [Variant; 3] = [Variant::Classic, Variant::Dice, Variant::Kids];

fn ada() -> Who {
    Who::User(UserId(11))
}

fn bot() -> Who {
    Who::Bot("Computer 1 (easy)".into())
}

fn team(n: u8) -> TeamName {
    TeamName::of(Variant::Classic, n)
}

fn seats() -> Vec<SeatLine> {
    vec![
        SeatLine {
            who: ada(),
            team: Some(team(0)),
            cards: Some(1),
            colour: Some(team(0)),
        },
        SeatLine {
            who: bot(),
            team: Some(team(1)),
            cards: Some(6),
            colour: Some(team(1)),
        },
    ]
}

fn lobby(variant: Variant, empty: bool) -> LobbyCard {
    LobbyCard {
        variant,
        host: UserId(11),
        teams: Some(2),
        options: Options {
            sequences_to_win: Some(1),
            sequence_length: Some(5),
            equal_turns: true,
            scoring: true,
            capture_pairs: true,
            ..Options::default()
        },
        seats: if empty { Vec::new() } else { seats() },
        max_players: 12,
        invited: if empty { Vec::new() } else { seats() },
        // A challenge: two still to answer, one who did not.
        challenged: if empty {
            Vec::new()
        } else {
            vec![UserId(12), UserId(13)]
        },
        challenge_lapses: (!empty).then_some(1_700_000_600),
        unanswered: if empty { Vec::new() } else { vec![UserId(14)] },
        rules: Some(LobbyRules {
            sequences: 2,
            sequences_three_teams: (!empty).then_some(1),
            scoring: empty,
            king_of_the_board: None,
            reminder_secs: (!empty).then_some(120),
            timeout_secs: 600,
            timeout_gives_up: false,
            replace_after: if empty { 1 } else { 2 },
            bot_level: BotLevel::Medium,
            series: (!empty).then_some(3),
        }),
        rating: Some(if empty {
            RatingNote::NeedsOpponent
        } else {
            RatingNote::CasualLimit { limit: 5 }
        }),
    }
}

/// Every setup refusal the engine can give, as the service would report it.
fn setup_errors() -> Vec<(Variant, SetupError)> {
    let mut out = Vec::new();
    let mut push = |variant, players, teams, options| {
        if let Err(e) = Config::new(variant, players, teams, options) {
            out.push((variant, e));
        }
    };
    push(Variant::Classic, 5, None, Options::default());
    push(Variant::Kids, 7, None, Options::default());
    push(Variant::Classic, 4, Some(3), Options::default());
    push(Variant::Classic, 3, Some(2), Options::default());
    push(Variant::Dice, 4, Some(4), Options::default());
    let house = Options {
        scoring: true,
        ..Options::default()
    };
    push(Variant::Kids, 2, None, house);
    let pairs = Options {
        capture_pairs: true,
        ..Options::default()
    };
    push(Variant::Dice, 2, None, pairs);
    let two = Options {
        sequences_to_win: Some(2),
        ..Options::default()
    };
    push(Variant::Dice, 2, None, two);
    let nine = Options {
        sequences_to_win: Some(9),
        ..Options::default()
    };
    push(Variant::Classic, 2, None, nine);
    for variant in GAMES {
        let long = Options {
            sequence_length: Some(9),
            ..Options::default()
        };
        push(variant, 2, None, long);
    }
    let kotb = Options {
        king_of_the_board: true,
        ..Options::default()
    };
    push(Variant::Dice, 2, None, kotb);
    push(
        Variant::Classic,
        2,
        None,
        Options {
            scoring: true,
            ..kotb
        },
    );
    push(
        Variant::Classic,
        2,
        None,
        Options {
            sequences_to_win: Some(2),
            ..kotb
        },
    );
    push(
        Variant::Classic,
        2,
        None,
        Options {
            points_to_win: Some(3),
            ..Options::default()
        },
    );
    push(
        Variant::Classic,
        2,
        None,
        Options {
            points_to_win: Some(12),
            ..kotb
        },
    );
    out.push((
        Variant::Classic,
        SetupError::Deck("two kings too many".into()),
    ));
    out
}

/// A King of the Board lobby: its options and its settings line.
fn kotb_lobby() -> LobbyCard {
    let mut card = lobby(Variant::Classic, false);
    card.options = Options {
        king_of_the_board: true,
        points_to_win: Some(4),
        ..Options::default()
    };
    if let Some(rules) = &mut card.rules {
        rules.king_of_the_board = Some(4);
    }
    card
}

fn samples() -> Vec<Text> {
    let mut out = vec![
        Text::NoTable,
        Text::PlayedElsewhere,
        Text::TableExists,
        Text::AlreadyStarted,
        Text::NotStarted,
        Text::AlreadyJoined,
        Text::LobbyFull { max: 4 },
        Text::NotInGame,
        Text::NotHost { host: UserId(11) },
        Text::NotYourTurn { to_move: bot() },
        Text::IllegalWithCells(PlayError::CellOccupied, vec!["D6".into(), "E4".into()]),
        Text::IllegalWithCells(PlayError::CellOccupied, Vec::new()),
        Text::BadCell {
            typed: "Z9".into(),
            last: "J10".into(),
        },
        Text::CardNeeded,
        Text::CellNeeded,
        Text::BadOption,
        Text::GuildOnly,
        Text::AnswersOnly,
        Text::HeldBack,
        Text::ExternalAppsOff,
        Text::ServerOnlyLists,
        Text::CasualOutsideServers,
        Text::NoCardsInDice,
        Text::NotDice,
        Text::RollFirst,
        Text::AlreadyRolled { dice: [3, 4] },
        Text::BadTeam { team: 5, max: 3 },
        Text::TeamFull {
            team: team(1),
            size: 2,
            chosen: 3,
        },
        Text::NoBot,
        Text::Internal,
        Text::ReplacedAfterTimeouts {
            who: ada(),
            bot: "Computer (medium, for Ada)".into(),
            count: 2,
        },
        Text::ReplacedAfterTimeouts {
            who: ada(),
            bot: "Computer (medium, for Ada)".into(),
            count: 1,
        },
        Text::GaveUp(ada()),
        Text::OutOfTimeLost {
            who: ada(),
            count: 2,
            side_loses: true,
        },
        Text::OutOfTimeLost {
            who: ada(),
            count: 1,
            side_loses: false,
        },
        Text::OutOfTimeLost {
            who: ada(),
            count: 3,
            side_loses: true,
        },
        Text::TimeoutWarning {
            who: ada(),
            count: 1,
            ends_game: false,
        },
        Text::TimeoutWarning {
            who: ada(),
            count: 2,
            ends_game: true,
        },
        Text::ConfirmLeave { ends_game: false },
        Text::ConfirmLeave { ends_game: true },
        Text::KeptPlaying,
        Text::HintDeclined,
        Text::TimeoutGivesUp { timeout_secs: 90 },
        Text::RemoveWithCard(Variant::Classic),
        Text::RemoveWithCard(Variant::Kids),
        Text::NotInHand(vec![Card::parse("7H", Variant::Classic).unwrap()]),
        Text::RollDoesNotMatch {
            total: 8,
            cells: vec!["C3".into(), "D4".into()],
        },
        Text::RollDoesNotMatch {
            total: 11,
            cells: Vec::new(),
        },
        Text::TeamNoRoom {
            team: team(0),
            size: 2,
        },
        Text::TeamNoRoom {
            team: team(1),
            size: 1,
        },
        Text::RematchNotPlayer,
        Text::InviteNotMentions,
        Text::InviteNotPeople,
        Text::InviteTwice(UserId(12)),
        Text::InviteSelf,
        Text::InviteTooMany { max: 3 },
        Text::InviteBot(UserId(13)),
        Text::NotInvited,
        Text::DeclinedAck,
        Text::ChallengeDeclined {
            by: UserId(12),
            variant: Variant::Classic,
            channel: ChannelId(7),
        },
        Text::RematchExpired,
        Text::RematchSuperseded,
        Text::LeaveExpired,
        Text::LeaveAnswered,
        Text::QuestionAnswered,
        Text::BotMenu { added: None },
        Text::BotMenu {
            added: Some("Computer 2 (hard)".into()),
        },
        Text::GameMenu,
        Text::ButtonExpired,
        Text::TeamChanged(team(1)),
        Text::AlreadyOnTeam(team(0)),
        Text::ConfirmStop { gives_up: true },
        Text::ConfirmStop { gives_up: false },
        Text::LobbyOpened,
        Text::Joined,
        Text::Left,
        Text::BotAdded("Computer 1 (easy)".into()),
        Text::BotRemoved("Computer 1 (easy)".into()),
        Text::CancelledAck,
        Text::BegunAck,
        Text::ForfeitAck,
        Text::StoppedAck,
        Text::LobbyCancelled { by: UserId(11) },
        Text::LobbyExpired,
        Text::LobbyAbandoned { computers: false },
        Text::LobbyAbandoned { computers: true },
        Text::HostChanged(UserId(12)),
        Text::RollOff {
            rounds: vec![
                vec![(ada(), [6, 6]), (bot(), [6, 6])],
                vec![(ada(), [1, 2]), (bot(), [5, 2])],
            ],
            winner: bot(),
        },
        Text::Played {
            who: ada(),
            card: Card::classic(5, 1),
            cell: "D6".into(),
        },
        Text::Played {
            who: ada(),
            card: Card::kids(0),
            cell: "B1".into(),
        },
        Text::Removed {
            who: ada(),
            card: Some(Card::classic(9, 0)),
            cell: "C3".into(),
            victim: team(1),
        },
        Text::Removed {
            who: ada(),
            card: None,
            cell: "C3".into(),
            victim: team(1),
        },
        Text::Placed {
            who: bot(),
            cell: "C3".into(),
            replaced: Some(team(0)),
        },
        Text::Placed {
            who: bot(),
            cell: "C3".into(),
            replaced: None,
        },
        Text::Exchanged {
            who: ada(),
            card: Card::kids(20),
        },
        Text::Passed(ada()),
        Text::Captured {
            team: team(0),
            victim: team(2),
            cells: ["C3".into(), "C4".into()],
        },
        Text::SequenceDone {
            team: team(0),
            count: 1,
            target: 2,
        },
        Text::SequenceBroken(team(1)),
        Text::ZoneScored {
            team: team(0),
            in_zone: true,
            total: 2,
            target: 3,
        },
        Text::ZoneScored {
            team: team(1),
            in_zone: false,
            total: 1,
            target: 3,
        },
        Text::ZoneScored {
            team: team(1),
            in_zone: true,
            total: 4,
            target: 3,
        },
        Text::ZoneMoved(ZoneInfo::of(crate::engine::ZONE_CENTRES[0])),
        Text::Zone(ZoneInfo::of(crate::engine::ZONE_CENTRES[4])),
        Text::HintBusy,
        Text::HintSpent,
        Text::ReplaysWaiting { max: 2 },
        Text::ReplaysBusy { max: 6 },
        Text::Lobby(Box::new(kotb_lobby())),
        Text::Reshuffled,
        Text::ProvisionalWin(team(1)),
        Text::Won {
            team: team(0),
            members: vec![ada(), bot(), Who::User(UserId(13))],
        },
        Text::Scores(vec![(team(0), 3), (team(1), 1)]),
        Text::Drawn,
        Text::Blocked {
            winner: Some(team(0)),
            scores: vec![1, 0, 0],
            points: true,
        },
        Text::Blocked {
            winner: Some(team(1)),
            scores: vec![1, 2],
            points: false,
        },
        Text::Blocked {
            winner: None,
            scores: vec![1, 1],
            points: false,
        },
        Text::Blocked {
            winner: None,
            scores: Vec::new(),
            points: false,
        },
        Text::SummarySequence {
            team: team(1),
            who: ada(),
            move_number: 23,
            points: None,
            in_zone: false,
        },
        Text::SummarySequence {
            team: team(0),
            who: ada(),
            move_number: 31,
            points: Some(2),
            in_zone: true,
        },
        Text::SummarySequence {
            team: team(1),
            who: bot(),
            move_number: 40,
            points: Some(1),
            in_zone: false,
        },
        Text::SummaryBroken {
            who: bot(),
            team: team(0),
            chips: 4,
            cell: "C7".into(),
            move_number: 30,
        },
        Text::SummaryLength {
            moves: 44,
            minutes: Some(12),
        },
        Text::SummaryLength {
            moves: 1,
            minutes: None,
        },
        Text::GameReplay { id: 42 },
        Text::HintsOnlyCasual,
        Text::HintsUsed {
            count: 1,
            by: vec![ada()],
        },
        Text::HintsUsed {
            count: 3,
            by: vec![ada(), Who::User(UserId(12))],
        },
        Text::HintMadeCasual(ada()),
        Text::SeriesGame {
            number: 2,
            best_of: 3,
            sides: vec![(vec![ada()], 1), (vec![bot()], 0)],
        },
        Text::Hint {
            mv: crate::service::text::HintMove::Play {
                card: Card::classic(5, 1),
                cell: "D6".into(),
            },
            why: crate::service::text::HintWhy::Makes {
                chips: 4,
                from: "E3".into(),
                to: "E6".into(),
            },
        },
        Text::Hint {
            mv: crate::service::text::HintMove::Play {
                card: Card::kids(0),
                cell: "B1".into(),
            },
            why: crate::service::text::HintWhy::Blocks {
                team: team(1),
                chips: 3,
                cell: "B1".into(),
            },
        },
        Text::Hint {
            mv: crate::service::text::HintMove::Remove("C7".into()),
            why: crate::service::text::HintWhy::Breaks {
                team: team(0),
                chips: 4,
                cell: "C7".into(),
            },
        },
        Text::Hint {
            mv: crate::service::text::HintMove::Exchange(Card::classic(0, 0)),
            why: crate::service::text::HintWhy::DeadCard,
        },
        Text::Hint {
            mv: crate::service::text::HintMove::Place("A2".into()),
            why: crate::service::text::HintWhy::Completes,
        },
        Text::Hint {
            mv: crate::service::text::HintMove::Play {
                card: Card::classic(5, 1),
                cell: "D6".into(),
            },
            why: crate::service::text::HintWhy::KeepsWild(Card::classic(9, 2)),
        },
        Text::Hint {
            mv: crate::service::text::HintMove::Pass,
            why: crate::service::text::HintWhy::Pass,
        },
        Text::Hint {
            mv: crate::service::text::HintMove::Place("E5".into()),
            why: crate::service::text::HintWhy::Opens {
                cell: "E5".into(),
                lines: 7,
            },
        },
        Text::Hint {
            mv: crate::service::text::HintMove::Play {
                card: Card::classic(5, 1),
                cell: "F6".into(),
            },
            why: crate::service::text::HintWhy::Zone { cell: "F6".into() },
        },
        Text::Hint {
            mv: crate::service::text::HintMove::Place("A2".into()),
            why: crate::service::text::HintWhy::Best,
        },
        Text::Agreement {
            game: 42,
            lines: vec![
                crate::service::text::AgreementLine {
                    who: ada(),
                    matched: 18,
                    counted: 28,
                },
                crate::service::text::AgreementLine {
                    who: Who::User(UserId(13)),
                    matched: 0,
                    counted: 0,
                },
            ],
        },
        Text::WonByForfeit {
            team: team(1),
            members: vec![bot()],
        },
        Text::WonOnTime {
            team: team(1),
            members: vec![bot()],
        },
        Text::Stopped(ada()),
        Text::NoHumansLeft,
        Text::StopIsGivingUp(ada()),
        Text::SharedWin(vec![team(0), team(2)]),
        Text::Rating(RatingNote::Rated),
        Text::Rating(RatingNote::Casual),
        Text::Rating(RatingNote::NeedsOpponent),
        Text::Rating(RatingNote::CasualLimit { limit: 5 }),
        Text::Rating(RatingNote::Aborted),
        Text::Rating(RatingNote::ModeratorStop { gave_up: false }),
        Text::Rating(RatingNote::ModeratorStop { gave_up: true }),
        Text::Forfeited {
            who: ada(),
            bot: "Computer (medium, for Ada)".into(),
        },
        Text::Reminder {
            who: ada(),
            seconds_left: 61,
            gives_up: false,
            ends_game: true,
        },
        Text::Reminder {
            who: ada(),
            seconds_left: 300,
            gives_up: true,
            ends_game: false,
        },
        Text::Reminder {
            who: ada(),
            seconds_left: 300,
            gives_up: true,
            ends_game: true,
        },
        Text::Reminder {
            who: ada(),
            seconds_left: 1,
            gives_up: false,
            ends_game: false,
        },
        Text::TimedOut {
            who: ada(),
            level: BotLevel::Medium,
        },
        Text::DmFailed(ada()),
        Text::RecordAttached,
        Text::Hand {
            channel: ChannelId(5),
            cards: [
                CardUse::Cells(vec!["D6".into(), "E4".into()]),
                CardUse::Wild,
                CardUse::Remove,
                CardUse::Dead,
                CardUse::DeadExchanged,
            ]
            .into_iter()
            .flat_map(|use_| {
                [Card::classic(9, 1), Card::kids(19)].map(|card| CardLine {
                    card,
                    use_: use_.clone(),
                })
            })
            .collect(),
            your_turn: true,
        },
    ];
    let totals = |games, wins, sequences| Totals {
        games,
        wins,
        sequences,
    };
    out.extend([
        Text::SaveFailed,
        Text::GameResumed {
            variant: Variant::Dice,
            to_move: ada(),
            seconds_left: Some(200),
        },
        Text::GameResumed {
            variant: Variant::Kids,
            to_move: bot(),
            seconds_left: None,
        },
        Text::LobbyResumed(Variant::Classic),
        Text::NotRestored,
        Text::EndedWhileRestarting,
        Text::GameSaved { id: 12 },
        Text::NoHistory,
        Text::HistoryFailed,
        Text::Stats {
            who: ada(),
            totals: totals(0, 0, 0),
            rating: None,
            agreement: None,
        },
        Text::Stats {
            who: ada(),
            totals: totals(1, 1, 1),
            rating: None,
            agreement: Some(crate::store::AgreementTotals {
                matched: 1,
                counted: 1,
                games: 1,
            }),
        },
        Text::Stats {
            who: ada(),
            totals: totals(10, 3, 7),
            rating: Some(RatingInfo {
                shown: 1537,
                games: 1,
                provisional: true,
                changes: vec![-15, 93],
            }),
            agreement: Some(crate::store::AgreementTotals {
                matched: 40,
                counted: 61,
                games: 3,
            }),
        },
        Text::Stats {
            who: ada(),
            totals: totals(2, 1, 0),
            rating: Some(RatingInfo {
                shown: 1620,
                games: 1,
                provisional: true,
                changes: vec![36],
            }),
            agreement: None,
        },
        Text::Leaderboard(Vec::new()),
        Text::Leaderboard(vec![
            LeaderLine {
                who: ada(),
                totals: totals(4, 3, 6),
                rating: RatingInfo {
                    shown: 1671,
                    games: 6,
                    provisional: false,
                    changes: Vec::new(),
                },
            },
            LeaderLine {
                who: Who::User(UserId(12)),
                totals: totals(1, 1, 1),
                rating: RatingInfo {
                    shown: 1464,
                    games: 1,
                    provisional: true,
                    changes: Vec::new(),
                },
            },
        ]),
        Text::History(Vec::new()),
        Text::History(vec![
            HistoryLine {
                id: 3,
                variant: Some(Variant::Kids),
                finished_at: 1_700_000_000,
                players: vec![ada(), bot()],
                winners: vec![ada()],
                aborted: false,
            },
            HistoryLine {
                id: 2,
                variant: None,
                finished_at: 1_600_000_000,
                players: vec![ada(), Who::User(UserId(12))],
                winners: Vec::new(),
                aborted: true,
            },
        ]),
        Text::GameRecord { id: 3 },
        Text::NoSuchGame(99),
        Text::NoGameHere,
        Text::TooManyTables { max: 3 },
        Text::ServerFull { max: 25 },
        Text::TooManyBots { max: 5 },
        Text::Busy,
        Text::HostGaveUp,
        Text::Done,
        Text::CannotPostHere {
            missing: vec![Permission::SendMessages, Permission::AttachFiles],
            thread: false,
        },
        Text::CannotPostHere {
            missing: vec![Permission::SendMessagesInThreads],
            thread: true,
        },
        Text::GamePaused {
            missing: vec![Permission::ViewChannel],
            thread: false,
        },
        Text::GamePaused {
            missing: Vec::new(),
            thread: true,
        },
        Text::PostingRestored,
        Text::SettingsNotAllowed,
        Text::ServerSettings(SettingsInfo {
            variant: Variant::Dice,
            bot_level: BotLevel::Medium,
            turn_reminder_secs: 60,
            turn_timeout_secs: 300,
            lobby_timeout_secs: 900,
            thinking_ms: None,
            timeout_gives_up: false,
            replace_after: 0,
            rated: None,
            language: None,
            hints: false,
            replay_gif: true,
            web_links: true,
            web_page: false,
            page_url: None,
        }),
        Text::SettingsChanged(SettingsInfo {
            variant: Variant::Kids,
            bot_level: BotLevel::Hard,
            turn_reminder_secs: 1,
            turn_timeout_secs: 600,
            lobby_timeout_secs: 1800,
            thinking_ms: Some(1),
            timeout_gives_up: true,
            replace_after: 2,
            rated: Some(false),
            language: Some(Lang::No),
            hints: true,
            replay_gif: false,
            web_links: false,
            web_page: true,
            page_url: Some("https://sequence.example.org/s/0123".into()),
        }),
        Text::SettingsChanged(SettingsInfo {
            variant: Variant::Classic,
            bot_level: BotLevel::Easy,
            turn_reminder_secs: 120,
            turn_timeout_secs: 600,
            lobby_timeout_secs: 1800,
            thinking_ms: Some(2500),
            timeout_gives_up: false,
            replace_after: 1,
            rated: Some(true),
            language: Some(Lang::De),
            hints: false,
            replay_gif: true,
            web_links: true,
            web_page: false,
            page_url: None,
        }),
        Text::BadSetting {
            name: SettingName::TurnTimeout,
            min: 30,
            max: 604_800,
        },
        Text::BadSetting {
            name: SettingName::ThinkingTime,
            min: 100,
            max: 5_000,
        },
        Text::BadSetting {
            name: SettingName::TimeoutsBeforeReplaced,
            min: 0,
            max: 10,
        },
        Text::ReminderNotBeforeTimeout {
            reminder_secs: 600,
            timeout_secs: 300,
        },
        Text::BadTurnTime {
            secs: 5,
            min: 10,
            max: 3600,
        },
        Text::BadSeries { best_of: 4 },
        Text::SeriesScore {
            best_of: 3,
            played: 2,
            sides: vec![(vec![ada(), bot()], 1), (vec![Who::User(UserId(12))], 1)],
        },
        Text::SeriesWon {
            best_of: 5,
            winners: vec![ada()],
        },
        Text::SeriesNoWinner,
        Text::SeriesNext,
        Text::SeriesBreak,
        Text::NotInSeries,
        Text::ConfirmAbandonSeries,
        Text::SeriesAbandoned { by: ada() },
        Text::SeriesExpired,
        Text::SeriesStats { played: 3, won: 1 },
        Text::NoProfile { who: ada() },
        Text::ProfilesRebuilding { percent: 42 },
        Text::NoVersus { other: ada() },
        Text::VersusSelf,
        Text::PickerPlayButton,
        Text::WatchButton,
        Text::ActivityButton,
        Text::ReplayLinkButton,
        Text::PickerRollButton,
        Text::PickerBackButton,
        Text::PickerHintButton,
        Text::PickerHintUnratedButton,
        Text::ConfirmHint,
        Text::HintMadeUnrated,
        Text::PickerRow {
            row: 3,
            part: 0,
            cells: 1,
        },
        Text::PickerRow {
            row: 10,
            part: 0,
            cells: 7,
        },
        Text::PickerRow {
            row: 2,
            part: 1,
            cells: 6,
        },
        Text::PickerRowPlaceholder,
        Text::PickCard,
        Text::PickerDone,
        Text::PickerExpired { dice: false },
        Text::PickerExpired { dice: true },
        Text::NotYourPicker { to_move: ada() },
        Text::BadButton,
        Text::SlowDown,
    ]);
    for card in [Card::classic(5, 1), Card::classic(9, 2), Card::kids(0)] {
        out.push(Text::PickerExchange(card));
        out.push(Text::PickerUnplayable(card));
        out.push(Text::PickerNotYourCard(card));
        for removing in [false, true] {
            out.push(Text::PickRow {
                card: Some(card),
                removing,
            });
            out.push(Text::PickCell {
                card: Some(card),
                removing,
            });
        }
    }
    for removing in [false, true] {
        out.push(Text::PickRow {
            card: None,
            removing,
        });
        out.push(Text::PickCell {
            card: None,
            removing,
        });
        out.push(Text::PickerCell {
            cell: "D6".into(),
            team: team(1),
            removing,
        });
    }
    out.extend(PlayError::ALL.map(Text::Illegal));
    out.extend(
        setup_errors()
            .into_iter()
            .map(|(variant, e)| Text::CannotStart(variant, e)),
    );
    for hint in [
        RollHint::Number(7),
        RollHint::Replace(12),
        RollHint::Remove,
        RollHint::Free,
        RollHint::Blocked(6),
        RollHint::Blocked(8),
        RollHint::NothingToRemove,
    ] {
        out.push(Text::Rolled {
            who: ada(),
            dice: [5, 5],
            hint,
        });
    }
    for (dice, again) in [
        (true, Some(2)),
        (true, Some(12)),
        (true, None),
        (false, None),
    ] {
        out.push(Text::Turn {
            who: ada(),
            dice,
            again,
            deadline: Some(1_700_000_000),
        });
    }
    out.push(Text::Turn {
        who: ada(),
        dice: false,
        again: None,
        deadline: None,
    });
    out.push(Text::Turn {
        who: bot(),
        dice: false,
        again: None,
        deadline: None,
    });
    out.extend(super::profile::text_samples());
    for variant in GAMES {
        out.push(Text::BadCard {
            typed: "xyz".into(),
            variant,
        });
        out.push(Text::BadTeamCount { teams: 4, variant });
        out.push(Text::Lobby(Box::new(lobby(variant, false))));
        out.push(Text::LobbyStatus(Box::new(lobby(variant, true))));
        out.push(Text::LobbyStarted(variant));
        out.push(Text::GameStarted {
            variant,
            seats: seats(),
        });
        out.push(Text::BoardCaption {
            variant,
            to_move: ada(),
        });
        out.push(Text::Status(StatusInfo {
            variant,
            seats: seats(),
            to_move: ada(),
            sequences: vec![(team(0), 1), (team(1), 0)],
            target: 2,
            draw_pile: variant.has_cards().then_some(40),
            roll: (variant == Variant::Dice).then_some([2, 3]),
            seconds_left: 95,
            zone: None,
            points: None,
        }));
        if variant == Variant::Classic {
            out.push(Text::Status(StatusInfo {
                variant,
                seats: seats(),
                to_move: ada(),
                sequences: vec![(team(0), 1), (team(1), 0)],
                target: 3,
                draw_pile: Some(40),
                roll: None,
                seconds_left: 95,
                zone: Some(ZoneInfo::of(crate::engine::ZONE_CENTRES[8])),
                points: Some(vec![(team(0), 2), (team(1), 0)].into_boxed_slice()),
            }));
        }
        out.push(Text::Rules(variant));
    }
    out
}

#[test]
fn every_variant_has_a_sample() {
    let covered: BTreeSet<usize> = samples().iter().map(variant_index).collect();
    let beyond: Vec<usize> = covered.iter().copied().filter(|&i| i >= VARIANTS).collect();
    assert!(
        beyond.is_empty(),
        "indices at or past VARIANTS ({VARIANTS}), raise it: {beyond:?}"
    );
    let missing: Vec<usize> = (0..VARIANTS).filter(|i| !covered.contains(i)).collect();
    assert!(missing.is_empty(), "variants without a sample: {missing:?}");
}

#[test]
fn every_text_renders_cleanly_in_every_language() {
    for lang in Lang::ALL {
        for text in samples() {
            let mut tr = Tr::new(lang);
            let rendered = text.render_with(&mut tr);
            assert!(
                tr.errors().is_empty(),
                "{lang}: {text:?}: {:?}",
                tr.errors()
            );
            assert!(!rendered.trim().is_empty(), "{lang}: {text:?}");
            assert!(
                !rendered.contains('{') && !rendered.contains('}'),
                "{lang}: {text:?}: `{rendered}`"
            );
            assert!(
                !rendered.contains(['\u{2068}', '\u{2069}']),
                "{lang}: isolation marks"
            );
            assert!(
                rendered.chars().count() <= 2000 || matches!(text, Text::Rules(_)),
                "{lang}: {text:?} is too long for one message"
            );
        }
    }
}

#[test]
fn german_and_norwegian_are_translated() {
    // A few texts are the same in every language (a mention and a card code); the rest must differ.
    for lang in [Lang::De, Lang::No] {
        let all = samples();
        let same: Vec<String> = all
            .iter()
            .map(|t| (t.render(Lang::En), t.render(lang)))
            .filter(|(en, other)| en == other)
            .map(|(en, _)| en)
            .collect();
        assert!(same.is_empty(), "{lang}: untranslated: {same:?}");
    }
}

#[test]
fn engine_refusals_are_translated_not_passed_through() {
    for e in PlayError::ALL {
        let german = Text::Illegal(e).render(Lang::De);
        assert_ne!(german.to_lowercase(), format!("{e}."), "{e:?}");
    }
    // The German setup error names the allowed counts in German.
    let (variant, e) = setup_errors().remove(0);
    let german = Text::CannotStart(variant, e).render(Lang::De);
    assert!(german.contains("oder 12"), "{german}");
}

#[test]
fn animal_names_of_every_language_are_accepted_as_cards() {
    for lang in Lang::ALL {
        for (index, names) in KIDS_NAMES.iter().enumerate() {
            let card = Card::kids(u8::try_from(index).unwrap());
            let name = crate::service::text::card_label(card, lang);
            assert_eq!(
                Card::parse(&name, Variant::Kids),
                Some(card),
                "{lang}: `{name}` ({})",
                names[0]
            );
        }
    }
    assert_eq!(
        crate::service::text::card_label(Card::kids(0), Lang::De),
        "Löwe"
    );
    assert_eq!(
        crate::service::text::card_label(Card::kids(0), Lang::No),
        "løve"
    );
    assert_eq!(
        crate::service::text::card_label(Card::classic(5, 1), Lang::De),
        "7♥"
    );
}

#[tokio::test]
async fn a_kids_game_in_a_german_server_names_the_animals_in_german() {
    let tables = seeded(Settings::default(), 3);
    let channel = ChannelId(40);
    let host = Actor {
        user: UserId(41),
        name: "Anna".into(),
        can_manage: false,
        can_manage_guild: false,
    };
    tables.note_languages(channel, host.user, Some(Lang::De), Some(Lang::De));
    let ask = |command| {
        tables.handle(
            Request {
                guild: None,
                channel,
                actor: host.clone(),
                command,
            },
            Timestamp(1_700_000_000_000),
        )
    };
    let start = Start::of(Variant::Kids).command();
    assert!(!ask(start).is_refusal());
    let added = ask(Command::AddBot { level: None });
    let lobby = added
        .outputs
        .iter()
        .find_map(|o| match o {
            Output::Lobby { message, .. } => Some(message.render(Lang::De)),
            _ => None,
        })
        .unwrap();
    assert!(lobby.contains("Computer 1 (leicht)"), "{lobby}");
    assert!(lobby.contains("Sequence für Kids"), "{lobby}");
    let begun = ask(Command::Begin);
    assert!(!begun.is_refusal(), "{begun:?}");
    let hand = ask(Command::Hand);
    let Some(Output::Ephemeral(message)) = hand.outputs.first() else {
        panic!("{hand:?}");
    };
    let hand_text = message.render(Lang::De);
    assert!(hand_text.starts_with("Deine Karten"), "{hand_text}");
    // A few turns: the computer moves by itself, the host plays the first card it is offered.
    let mut channel_text = String::new();
    let mut collect = |reply: &Reply| {
        for output in &reply.outputs {
            if let Output::Channel(m) = output {
                channel_text.push_str(&m.render(Lang::De));
                channel_text.push('\n');
            }
        }
    };
    let now = Timestamp(1_700_000_000_000);
    for _ in 0..3 {
        for reply in tables.run_auto(channel, now).await {
            collect(&reply);
        }
        let cards = tables.complete_card(channel, host.user, "", Lang::De);
        let Some(card) = cards.first() else {
            continue;
        };
        assert!(!card.label.is_empty());
        let cells = tables.complete_cell(channel, host.user, Some(&card.value), "", Lang::De);
        let Some(cell) = cells.first() else {
            continue;
        };
        collect(&ask(Command::Play {
            card: Some(card.value.clone()),
            cell: cell.value.clone(),
        }));
    }
    assert!(channel_text.contains(" spielt "), "{channel_text}");
    let german = &crate::render::Texts::of(Lang::De).animals;
    assert!(
        german
            .iter()
            .any(|name| channel_text.contains(&format!(" {name} "))),
        "no German animal in: {channel_text}"
    );
    let english_only: Vec<&str> = KIDS_NAMES
        .iter()
        .map(|n| n[0])
        .filter(|en| !german.iter().any(|de| de.eq_ignore_ascii_case(en)))
        .filter(|en| channel_text.contains(&format!(" {en} ")))
        .collect();
    assert!(
        english_only.is_empty(),
        "{english_only:?} in {channel_text}"
    );
}

#[test]
fn the_service_remembers_languages_per_user_and_channel() {
    let tables = seeded(Settings::default(), 1);
    let (channel, user) = (ChannelId(1), UserId(2));
    assert_eq!(tables.user_language(user), None);
    tables.note_languages(channel, user, Some(Lang::No), Some(Lang::De));
    assert_eq!(tables.user_language(user), Some(Lang::No));
    assert_eq!(tables.channel_language(channel), Some(Lang::De));
    // Nothing new seen keeps what was remembered.
    tables.note_languages(channel, user, None, None);
    assert_eq!(tables.user_language(user), Some(Lang::No));
    assert_eq!(tables.channel_language(ChannelId(9)), None);
}

#[test]
fn computer_players_are_named_in_the_channel_language() {
    let tables = seeded(Settings::default(), 1);
    let channel = ChannelId(3);
    tables.note_languages(channel, UserId(4), None, Some(Lang::No));
    let actor = Actor {
        user: UserId(4),
        name: "Kari".into(),
        can_manage: false,
        can_manage_guild: false,
    };
    let ask = |command| {
        tables.handle(
            Request {
                guild: None,
                channel,
                actor: actor.clone(),
                command,
            },
            Timestamp(1_700_000_000_000),
        )
    };
    ask(Start::of(Variant::Classic).command());
    let reply = ask(Command::AddBot {
        level: Some(BotLevel::Hard),
    });
    let text = reply
        .outputs
        .iter()
        .map(|o| match o {
            Output::Ephemeral(m) | Output::Update(m) | Output::Channel(m) => m.render(Lang::No),
            Output::Lobby { message, .. } => message.render(Lang::No),
            Output::Direct { message, .. } => message.render(Lang::No),
            Output::Disarm { .. } => String::new(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert!(text.contains("Datamaskin 1 (vanskelig)"), "{text}");
}
