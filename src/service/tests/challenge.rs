//! Issue 36, challenge a friend: `/sequence start invite:` read strictly, the lobby that pings the
//! invited players once with Accept and Decline, Accept by an invitee (as Join, the lobby's rules
//! applying) and by anyone else (refused), Decline told privately to the host only, the invitations
//! lapsing on the timer with the lobby left open, and a restart that keeps them.

use std::sync::Arc;
use std::time::Duration;

use crate::engine::Variant;
use crate::store::tests::sqlite_store;

use super::kit::{join, lobby_output, refusal, seeded, start, state, test_settings, Asker, T0};
use crate::service::budget::PING_AGAIN_AFTER;
use crate::service::{
    command_for_component, parse_invite, Button, ChannelId, Command, GuildId, Limits, Message,
    Output, Reply, Settings, State, Tables, Text, Timestamp, UserId,
};

const GUILD: GuildId = GuildId(36);

/// Requests come from server [`GUILD`].
const HERE: Asker = Asker::server(GUILD);

/// The lobby's key: its table opened at [`T0`].
const GAME: u64 = T0.0;

fn at(seconds: u64) -> Timestamp {
    T0.after(Duration::from_secs(seconds))
}

/// Settings whose invitations lapse after a minute.
fn settings() -> Settings {
    Settings {
        challenge_timeout: Duration::from_secs(60),
        ..test_settings()
    }
}

/// `/sequence start` of `variant` with `invited` invited.
fn challenge(variant: Variant, invited: &[u64]) -> Command {
    Command::Challenge {
        start: Box::new(start(variant, None)),
        invited: invited.iter().copied().map(UserId).collect(),
        bots: Vec::new(),
    }
}

/// The lobby message of a reply: whether it is a new post, and the message.
fn lobby_of(reply: &Reply) -> Option<(bool, &Message)> {
    lobby_output(reply).map(|(message_id, message)| (message_id.is_none(), message))
}

/// User 1 challenges `invited` in channel 1; the lobby post is remembered as message 500.
fn challenged(tables: &Tables, invited: &[u64]) -> Reply {
    let reply = HERE.ask(tables, 1, 1, challenge(Variant::Classic, invited));
    assert!(!reply.is_refusal(), "{reply:?}");
    tables.set_lobby_message(ChannelId(1), 500);
    reply
}

/// Who the lobby waits for, and who did not answer.
fn invitations(tables: &Tables) -> (Vec<UserId>, Vec<UserId>) {
    match tables.snapshot(ChannelId(1)).map(|t| t.state) {
        Some(State::Lobby(lobby)) => lobby
            .challenge
            .map(|c| (c.waiting, c.unanswered))
            .unwrap_or_default(),
        other => panic!("expected a lobby, got {other:?}"),
    }
}

fn seated(tables: &Tables) -> Vec<Option<UserId>> {
    match tables.snapshot(ChannelId(1)).map(|t| t.state) {
        Some(State::Lobby(lobby)) => lobby.seats.iter().map(|s| s.player.user()).collect(),
        other => panic!("expected a lobby, got {other:?}"),
    }
}

/// `user` presses `button` and is refused privately with `expected`; nothing changes.
fn refused(tables: &Tables, user: u64, button: Button, expected: &Text) {
    let before = state(tables, 1);
    let reply = HERE.press(tables, 1, user, button);
    assert_eq!(refusal(&reply), Some(expected), "{button:?} by {user}");
    assert_eq!(
        state(tables, 1),
        before,
        "{button:?} by {user} changed nothing"
    );
}

#[test]
fn an_invitation_is_read_strictly_from_the_mentions_discord_writes() {
    let ids = |ids: &[u64]| Ok(ids.iter().copied().map(UserId).collect::<Vec<_>>());
    assert_eq!(parse_invite("<@12>"), ids(&[12]));
    // Older clients write `<@!id>`; spaces and commas separate, or nothing at all.
    assert_eq!(
        parse_invite(" <@12> <@!34>,<@56><@78> "),
        ids(&[12, 34, 56, 78])
    );
    for typed in [
        "",
        "  , ",
        "Ann",
        "@Ann",
        "<@12> Ann",
        "<@>",
        "<@!>",
        "<@012>",
        "<@0>",
        "<@12",
        "<@1x2>",
        "<@99999999999999999999>",
        "<@-1>",
    ] {
        assert_eq!(
            parse_invite(typed),
            Err(Text::InviteNotMentions),
            "{typed:?}"
        );
    }
    for typed in ["<@&12>", "<#12>", "@everyone", "<@12> @here"] {
        assert_eq!(parse_invite(typed), Err(Text::InviteNotPeople), "{typed:?}");
    }
    assert_eq!(
        parse_invite("<@12> <@34> <@!12>"),
        Err(Text::InviteTwice(UserId(12)))
    );
}

#[test]
fn a_challenge_pings_the_invited_once_and_offers_accept_and_decline() {
    let tables = seeded(settings(), 36);
    let reply = challenged(&tables, &[2, 3]);
    let (new, message) = lobby_of(&reply).expect("the lobby");
    assert!(new, "a new post");
    assert_eq!(
        message.mentions,
        vec![UserId(2), UserId(3)],
        "pings exactly them"
    );
    assert_eq!(
        message.buttons[..3],
        [Button::Accept(GAME), Button::Decline(GAME), Button::Join]
    );
    let text = message.to_english();
    let lapses = at(60).0 / 1000;
    assert!(
        text.contains(&format!(
            "Challenge! Invited: <@2> and <@3>. Press **Accept** or **Decline**; the invitation lapses <t:{lapses}:R>."
        )),
        "{text}"
    );
    assert_eq!(seated(&tables), vec![Some(UserId(1))]);
    // An edit names them but pings nobody: the next lobby card carries no mentions.
    let reply = HERE.press(&tables, 1, 4, Button::Join);
    let (new, message) = lobby_of(&reply).expect("the lobby edited");
    assert!(!new && message.mentions.is_empty(), "{message:?}");
    assert!(message.to_english().contains("Invited: <@2> and <@3>"));
}

#[test]
fn a_bad_challenge_opens_nothing() {
    let tables = seeded(settings(), 36);
    let cases = [
        (challenge(Variant::Classic, &[2, 1]), Text::InviteSelf),
        // Classic seats 12: the host and 11 more.
        (
            challenge(Variant::Classic, &(2..14).collect::<Vec<_>>()),
            Text::InviteTooMany { max: 11 },
        ),
        (
            challenge(Variant::Kids, &[2, 3, 4, 5]),
            Text::InviteTooMany { max: 3 },
        ),
        (challenge(Variant::Dice, &[]), Text::InviteNotMentions),
        // Issue 44, point 20: checked by the lobby itself, whatever read the invitation (the
        // console has no mention parser): the same person twice, the id 0 (nobody), an app.
        (
            challenge(Variant::Classic, &[2, 3, 2]),
            Text::InviteTwice(UserId(2)),
        ),
        (challenge(Variant::Classic, &[2, 0]), Text::InviteNotPeople),
        (
            Command::Challenge {
                start: Box::new(start(Variant::Classic, None)),
                invited: vec![UserId(2), UserId(9)],
                bots: vec![UserId(9)],
            },
            Text::InviteBot(UserId(9)),
        ),
    ];
    for (command, expected) in cases {
        let reply = HERE.ask(&tables, 1, 1, command.clone());
        assert_eq!(refusal(&reply), Some(&expected), "{command:?}");
        assert_eq!(state(&tables, 1), "", "nothing opened");
    }
    // Three of three free seats is fine.
    assert!(!HERE
        .ask(&tables, 1, 1, challenge(Variant::Kids, &[2, 3, 4]))
        .is_refusal());
}

#[test]
fn accept_seats_an_invitee_and_anyone_else_is_refused() {
    let tables = seeded(settings(), 36);
    challenged(&tables, &[2, 3]);
    // A stranger's Accept or Decline: refused politely, nothing changes.
    refused(&tables, 9, Button::Accept(GAME), &Text::NotInvited);
    refused(&tables, 9, Button::Decline(GAME), &Text::NotInvited);
    // The host is seated, not invited.
    refused(&tables, 1, Button::Accept(GAME), &Text::AlreadyJoined);
    // An earlier lobby's button.
    refused(&tables, 2, Button::Accept(GAME - 1), &Text::ButtonExpired);

    let reply = HERE.press(&tables, 1, 2, Button::Accept(GAME));
    assert!(!reply.is_refusal(), "{reply:?}");
    let (new, message) = lobby_of(&reply).expect("the lobby edited");
    assert!(!new && message.mentions.is_empty());
    assert!(
        message.to_english().contains("Invited: <@3>."),
        "{}",
        message.to_english()
    );
    assert_eq!(seated(&tables), vec![Some(UserId(1)), Some(UserId(2))]);
    assert_eq!(invitations(&tables).0, vec![UserId(3)]);
    // Answered: a second Accept or a Decline is refused.
    refused(&tables, 2, Button::Accept(GAME), &Text::AlreadyJoined);
    refused(&tables, 2, Button::Decline(GAME), &Text::AlreadyJoined);
    // Join answers an invitation too.
    assert!(!HERE.ask(&tables, 1, 3, join(None)).is_refusal());
    assert_eq!(invitations(&tables).0, Vec::<UserId>::new());
    let card = lobby_of(&HERE.press(&tables, 1, 4, Button::Join))
        .expect("the lobby")
        .1
        .clone();
    assert!(
        !card.buttons.contains(&Button::Accept(GAME)) && !card.to_english().contains("Invited"),
        "nobody is waited for: {card:?}"
    );
    // The game starts as any other.
    let begun = HERE.ask(&tables, 1, 1, Command::Begin);
    assert!(!begun.is_refusal(), "{begun:?}");
}

#[test]
fn accept_follows_the_lobby_rules_and_the_invitation_stays() {
    let tables = seeded(settings(), 36);
    let reply = HERE.ask(&tables, 1, 1, challenge(Variant::Kids, &[2]));
    assert!(!reply.is_refusal());
    // The host fills the lobby with computers before the invitee answers.
    for _ in 0..3 {
        let added = HERE.ask(&tables, 1, 1, Command::AddBot { level: None });
        assert!(!added.is_refusal(), "{added:?}");
    }
    refused(
        &tables,
        2,
        Button::Accept(GAME),
        &Text::LobbyFull { max: 4 },
    );
    assert_eq!(invitations(&tables).0, vec![UserId(2)]);
    assert!(!HERE.ask(&tables, 1, 1, Command::RemoveBot).is_refusal());
    assert!(!HERE.press(&tables, 1, 2, Button::Accept(GAME)).is_refusal());
    // Once the game has started, an invitation cannot be answered.
    let tables = seeded(settings(), 36);
    challenged(&tables, &[2, 3]);
    assert!(!HERE.press(&tables, 1, 2, Button::Accept(GAME)).is_refusal());
    assert!(!HERE.ask(&tables, 1, 1, Command::Begin).is_refusal());
    let reply = HERE.press(&tables, 1, 3, Button::Accept(GAME));
    assert_eq!(refusal(&reply), Some(&Text::AlreadyStarted));
}

#[test]
fn decline_is_told_to_the_host_privately_and_to_nobody_else() {
    let tables = seeded(settings(), 36);
    challenged(&tables, &[2, 3]);
    let reply = HERE.press(&tables, 1, 3, Button::Decline(GAME));
    let mut lobby = None;
    let mut private = Vec::new();
    let mut direct = Vec::new();
    for output in &reply.outputs {
        match output {
            Output::Lobby {
                message_id,
                message,
            } => lobby = Some((*message_id, message.clone())),
            Output::Ephemeral(message) => private.push(message.lines.clone()),
            Output::Direct { user, message } => direct.push((*user, message.lines.clone())),
            other => panic!("nothing else goes out: {other:?}"),
        }
    }
    assert_eq!(
        private,
        vec![vec![Text::DeclinedAck]],
        "the decliner is told"
    );
    assert_eq!(
        direct,
        vec![(
            UserId(1),
            vec![Text::ChallengeDeclined {
                by: UserId(3),
                variant: Variant::Classic,
                channel: ChannelId(1),
            }]
        )],
        "the host, by a direct message"
    );
    let (message_id, card) = lobby.expect("the lobby card is edited");
    assert_eq!(message_id, Some(500), "edited, not posted");
    assert!(card.mentions.is_empty());
    let text = card.to_english();
    // The others see only the name leave the list.
    assert!(text.contains("Invited: <@2>."), "{text}");
    assert!(
        !text.contains("<@3>") && !text.contains("declined"),
        "{text}"
    );
    assert_eq!(
        Message::text(Text::ChallengeDeclined {
            by: UserId(3),
            variant: Variant::Classic,
            channel: ChannelId(1),
        })
        .to_english(),
        "<@3> declined your invitation to Sequence in <#1>."
    );
    assert_eq!(invitations(&tables).0, vec![UserId(2)]);
    assert_eq!(seated(&tables), vec![Some(UserId(1))]);
    // Declined: no second answer.
    refused(&tables, 3, Button::Accept(GAME), &Text::NotInvited);
    refused(&tables, 3, Button::Decline(GAME), &Text::NotInvited);
}

#[test]
fn unanswered_invitations_lapse_on_the_timer_and_the_lobby_stays_open() {
    let tables = seeded(settings(), 36);
    challenged(&tables, &[2, 3]);
    assert!(!HERE
        .press_at(&tables, 1, 2, Button::Accept(GAME), at(10))
        .is_refusal());
    assert!(tables.tick(at(59)).is_empty(), "not yet");
    let ticked = tables.tick(at(60));
    let [(channel, reply)] = ticked.as_slice() else {
        panic!("one table is due: {ticked:?}");
    };
    assert_eq!(*channel, ChannelId(1));
    let [Output::Lobby {
        message_id: Some(500),
        message,
    }] = reply.outputs.as_slice()
    else {
        panic!("the lobby post is edited: {reply:?}");
    };
    assert!(message.mentions.is_empty(), "an edit pings nobody");
    let text = message.to_english();
    assert!(
        text.contains("No answer from <@3>: the invitation lapsed."),
        "{text}"
    );
    assert!(!text.contains("Challenge! Invited"), "{text}");
    assert!(!message.buttons.contains(&Button::Accept(GAME)));
    assert!(!message.buttons.contains(&Button::Decline(GAME)));
    assert_eq!(message.buttons[0], Button::Join, "an ordinary lobby");
    assert_eq!(invitations(&tables), (vec![], vec![UserId(3)]));
    // Nothing more is due for the invitations; the lobby is still open for the host.
    assert!(tables.tick(at(120)).is_empty());
    refused(&tables, 3, Button::Accept(GAME), &Text::NotInvited);
    assert!(!HERE.ask_at(&tables, 1, 3, join(None), at(121)).is_refusal());
    assert!(!HERE
        .ask_at(&tables, 1, 1, Command::Begin, at(122))
        .is_refusal());
}

#[test]
fn a_lapsed_invitation_is_no_longer_listed_once_the_invitee_is_seated() {
    let tables = seeded(settings(), 37);
    challenged(&tables, &[2, 3]);
    let ticked = tables.tick(at(60));
    let [(_, reply)] = ticked.as_slice() else {
        panic!("one table is due: {ticked:?}");
    };
    let (_, message) = lobby_of(reply).expect("the lobby post is edited");
    let text = message.to_english();
    assert!(
        text.contains("No answer from <@2> and <@3>: the invitation lapsed."),
        "{text}"
    );
    // Bob joins after all: he is seated, so the card no longer says he did not answer.
    let joined = HERE.ask_at(&tables, 1, 3, join(None), at(61));
    assert!(!joined.is_refusal(), "{joined:?}");
    let (_, message) = lobby_of(&joined).expect("the lobby card is edited");
    let text = message.to_english();
    assert!(text.contains("<@3>"), "Bob is seated: {text}");
    assert!(
        text.contains("No answer from <@2>: the invitation lapsed."),
        "{text}"
    );
    assert!(!text.contains("<@3>: the invitation"), "{text}");
    assert!(!text.contains("and <@3>"), "{text}");
    // Both seated: no line about a lapsed invitation at all.
    let joined = HERE.ask_at(&tables, 1, 2, join(None), at(62));
    let (_, message) = lobby_of(&joined).expect("the lobby card is edited");
    assert!(
        !message.to_english().contains("the invitation lapsed"),
        "{}",
        message.to_english()
    );
}

#[test]
fn a_restart_keeps_the_invitations_and_when_they_lapse() {
    let t = sqlite_store("challenge-restart").expect("sqlite");
    let first = seeded(settings(), 36).with_store(t.store.clone());
    challenged(&first, &[2, 3]);
    assert!(!HERE
        .press_at(&first, 1, 2, Button::Accept(GAME), at(5))
        .is_refusal());
    drop(first);

    let second = seeded(settings(), 37).with_store(Arc::clone(&t.store));
    let restored = second.restore_from_store(at(30)).expect("restore");
    assert_eq!(restored.resumed, vec![ChannelId(1)]);
    let table = second.snapshot(ChannelId(1)).expect("the lobby");
    let challenge = table.challenge().expect("its invitations").clone();
    assert_eq!(challenge.waiting, vec![UserId(3)]);
    assert_eq!(challenge.lapses, at(60));
    // A stranger is still refused, the invitee still answers after the restart …
    refused(&second, 9, Button::Accept(GAME), &Text::NotInvited);
    assert!(second.tick(at(59)).is_empty());
    // … and unanswered, the invitation lapses when it would have.
    let ticked = second.tick(at(60));
    assert_eq!(ticked.len(), 1, "{ticked:?}");
    assert!(crate::service::tests::kit::reply_text(&ticked[0].1).contains("No answer from <@3>"));
}

/// Whom the lobby post of a reply pings.
fn pinged(reply: &Reply) -> Vec<UserId> {
    lobby_of(reply)
        .filter(|(new, _)| *new)
        .map(|(_, message)| message.mentions.clone())
        .unwrap_or_default()
}

/// Issue 44.18: opening a challenge and cancelling it in a loop pinged one person 43 times in 31 s,
/// and with 11 invited 275 pings in 20 s. Now the same host's invitations ping a person once per
/// [`PING_AGAIN_AFTER`] unless they took a seat, in servers and in DMs alike.
#[test]
fn challenges_opened_and_cancelled_in_a_loop_ping_each_person_once() {
    for asker in [HERE, super::kit::DM] {
        // No posting budget in the way: only the pings are counted.
        let tables = seeded(
            Settings {
                challenge_timeout: Duration::from_secs(600),
                ..test_settings()
            },
            44,
        );
        // One invited, opened and cancelled every 0.7 s for 31 s.
        let mut pings = 0;
        for step in 0..44u64 {
            let now = T0.after(Duration::from_millis(700 * step));
            let reply = asker.ask_at(&tables, 1, 1, challenge(Variant::Classic, &[2]), now);
            pings += pinged(&reply).len();
            asker.ask_at(&tables, 1, 1, Command::Cancel, now);
        }
        assert_eq!(pings, 1, "one person, 44 challenges in 31 s");
        // Eleven invited (a 12-player game), every 0.8 s for 20 s.
        let mut pings = 0;
        let mut opened = 0;
        let eleven: Vec<u64> = (10..21).collect();
        let teams = Command::Challenge {
            start: Box::new(start(Variant::Classic, Some(2))),
            invited: eleven.iter().copied().map(UserId).collect(),
            bots: Vec::new(),
        };
        for step in 0..25u64 {
            let now = T0.after(Duration::from_millis(40_000 + 800 * step));
            let reply = asker.ask_at(&tables, 2, 3, teams.clone(), now);
            opened += usize::from(lobby_of(&reply).is_some());
            pings += pinged(&reply).len();
            asker.ask_at(&tables, 2, 3, Command::Cancel, now);
        }
        assert!(opened >= 1, "the first challenge opened");
        assert_eq!(pings, 11, "eleven people, each pinged once");
        // A different host may still ping them, and so may the same host once the time has passed.
        let later = T0.after(PING_AGAIN_AFTER + Duration::from_secs(60));
        let reply = asker.ask_at(&tables, 1, 1, challenge(Variant::Classic, &[2]), later);
        assert_eq!(pinged(&reply), vec![UserId(2)]);
        let reply = asker.ask_at(&tables, 3, 4, challenge(Variant::Classic, &[2]), later);
        assert_eq!(pinged(&reply), vec![UserId(2)], "another host");
    }
}

/// Issue 44.18: someone who takes a seat is pinged by the host's next invitation (a rematch after a
/// game together, a new challenge), and invitations of a host who spends their budget on pings are
/// refused politely (distinct people each time, so that only the budget stops them).
#[test]
fn a_seated_invitee_is_pinged_again_and_the_hosts_budget_pays_for_pings() {
    for asker in [HERE, super::kit::DM] {
        // The default posting budget (5 posts a second, 20 deep), no other limit.
        let limits = Limits {
            server_posts_per_second: 5,
            server_post_burst: 20,
            ..Limits::unlimited()
        };
        let tables = seeded(
            Settings {
                limits,
                ..test_settings()
            },
            45,
        );
        let reply = asker.ask_at(&tables, 1, 1, challenge(Variant::Classic, &[2]), T0);
        assert_eq!(pinged(&reply), vec![UserId(2)]);
        let accept = command_for_component(&Button::Accept(T0.0).id(), &[]).expect("our id");
        assert!(!asker.ask_at(&tables, 1, 2, accept, T0).is_refusal());
        asker.ask_at(&tables, 1, 1, Command::Cancel, T0);
        let now = at(5);
        let reply = asker.ask_at(&tables, 1, 1, challenge(Variant::Classic, &[2]), now);
        assert_eq!(pinged(&reply), vec![UserId(2)], "accepted: pinged again");
        asker.ask_at(&tables, 1, 1, Command::Cancel, now);
        // Eleven new people a second, each challenge in a channel of its own: the budget soon
        // refuses (outside servers too, where it applies to invitations only).
        let mut pings = 0;
        let mut refused = 0;
        for step in 0..20u64 {
            let now = at(60 + step);
            let invited: Vec<UserId> = (0..11).map(|i| UserId(1000 + step * 11 + i)).collect();
            let command = Command::Challenge {
                start: Box::new(start(Variant::Classic, Some(2))),
                invited,
                bots: Vec::new(),
            };
            let reply = asker.ask_at(&tables, 100 + step, 1, command, now);
            if reply.is_refusal() {
                refused += 1;
                assert!(
                    matches!(refusal(&reply), Some(Text::SlowDown | Text::Busy)),
                    "{reply:?}"
                );
            }
            pings += pinged(&reply).len();
        }
        assert!(refused >= 10, "{refused} refused");
        assert!(pings <= 110, "{pings} pings in 20 s");
    }
}
