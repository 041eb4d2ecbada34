//! The card picker: ids parsed strictly, every step within Discord's limits for every hand a random game
//! produces, every legal move reachable and nothing illegal, presses checked like typed commands, and
//! whole games of all three kinds played by presses only.

use proptest::prelude::*;

use crate::engine::{Card, Config, GameRng, Move, MoveList, Options, Variant};
use crate::i18n::Lang;

use super::kit::{seeded, start, test_settings, DM, T0};
use crate::service::{
    action_rows, card_line, command_for_component, explore, explore_targets, turn_number, Button,
    ChannelId, Command, Control, Image, Label, LiveGame, Message, Output, Player, Playing, Press,
    Reply, Step, Tables, Text, UserId, MAX_BUTTONS_PER_ROW, MAX_BUTTON_LABEL, MAX_CUSTOM_ID,
    MAX_OPTIONS, MAX_OPTION_TEXT, MAX_PLACEHOLDER, MAX_ROWS, MAX_URL,
};

/// Player 2 presses Join in player 1's lobby, then player 1 presses Start; the start's reply.
fn join_and_begin(tables: &Tables) -> Reply {
    assert!(!DM
        .press_id(tables, 7, 2, &Button::Join.id(), None)
        .is_refusal());
    DM.press_id(tables, 7, 1, &Button::Begin.id(), None)
}

/// Every problem with a message's components, rendered in every language.
pub(super) fn limit_problems(message: &Message) -> Vec<String> {
    let mut problems = Vec::new();
    let rows = action_rows(message);
    if rows.len() > MAX_ROWS {
        problems.push(format!("{} rows", rows.len()));
    }
    let mut ids: Vec<&str> = Vec::new();
    for row in &rows {
        let selects = row
            .iter()
            .filter(|c| matches!(c, Control::Select { .. }))
            .count();
        if row.is_empty() || row.len() > MAX_BUTTONS_PER_ROW || (selects > 0 && row.len() > 1) {
            problems.push(format!("a row of {} ({selects} menus)", row.len()));
        }
        for control in row {
            if let Control::Link { url, .. } = control {
                // A link has a URL and no custom id (Discord refuses one with both).
                if !(url.starts_with("https://") || url.starts_with("http://"))
                    || url.chars().count() > MAX_URL
                {
                    problems.push(format!("url {url:?}"));
                }
            } else {
                let id = control.id();
                if id.is_empty() || id.chars().count() > MAX_CUSTOM_ID {
                    problems.push(format!("id {id:?}"));
                }
                if ids.contains(&id) {
                    problems.push(format!("id {id:?} twice"));
                }
                ids.push(id);
            }
            for lang in Lang::ALL {
                match control {
                    Control::Button { label, .. } | Control::Link { label, .. } => {
                        let text = label.render(lang);
                        if text.is_empty() || text.chars().count() > MAX_BUTTON_LABEL {
                            problems.push(format!("{lang}: button label {text:?}"));
                        }
                    }
                    Control::Select {
                        placeholder,
                        options,
                        ..
                    } => {
                        if options.is_empty() || options.len() > MAX_OPTIONS {
                            problems.push(format!("{} options", options.len()));
                        }
                        if placeholder.render(lang).chars().count() > MAX_PLACEHOLDER {
                            problems.push(format!("{lang}: placeholder"));
                        }
                        for option in options {
                            let label = option.label.render(lang);
                            let description = option.description.as_ref().map(|d| d.render(lang));
                            let too_long = |t: &str| t.chars().count() > MAX_OPTION_TEXT;
                            if label.is_empty()
                                || too_long(&label)
                                || too_long(&option.value)
                                || description.as_deref().is_some_and(too_long)
                            {
                                problems.push(format!("{lang}: option {label:?}"));
                            }
                        }
                        let mut values: Vec<&str> =
                            options.iter().map(|o| o.value.as_str()).collect();
                        values.sort_unstable();
                        values.dedup();
                        if values.len() != options.len() {
                            problems.push("an option value twice".into());
                        }
                    }
                }
            }
        }
    }
    problems
}

/// A game of `variant` after `plies` random moves (dice: the player to move has rolled), with a human
/// in every seat (user = seat + 1).
fn random_playing(variant: Variant, players: u8, teams: u8, seed: u64, plies: u32) -> Playing {
    let config = Config::new(variant, players, Some(teams), Options::default()).expect("config");
    let mut live = LiveGame::start(config, seed).expect("game");
    let mut rng = GameRng::new(seed ^ 0xABCD);
    let dice = variant == Variant::Dice;
    for _ in 0..plies {
        if live.game().position().is_over() {
            break;
        }
        if dice && live.game().needs_roll() {
            live.roll([rng.die(), rng.die()]).expect("roll");
        }
        let seat = live.game().position().to_move();
        let Some(mv) = live.game().random_move(&mut rng) else {
            break;
        };
        live.commit(seat, mv).expect("a random legal move");
    }
    if dice && live.game().needs_roll() && !live.game().position().is_over() {
        live.roll([rng.die(), rng.die()]).expect("roll");
    }
    Playing {
        seats: (0..players)
            .map(|s| Player::Human {
                user: UserId(u64::from(s) + 1),
                name: format!("P{s}"),
            })
            .collect(),
        live,
        rolled: dice,
        turn_started: T0,
        reminded: false,
        gave_up: Vec::new(),
        forfeited: Vec::new(),
        timeouts: Vec::new(),
        board_unshown: false,
        hand_dms: Vec::new(),
        human_moves: None,
        rated: None,
        daily_limit: None,
        stopped: None,
        own_actions: None,
        started: None,
        hints: None,
    }
}

/// What a position's picker offered: exchanges, menus of rows, chips to remove.
#[derive(Debug, Default)]
struct Seen {
    exchanges: usize,
    menus: usize,
    removals: usize,
}

fn check_position(variant: Variant, players: u8, teams: u8, seed: u64, plies: u32) -> Seen {
    let playing = random_playing(variant, players, teams, seed, plies);
    let game = playing.game();
    if game.position().is_over() {
        return Seen::default();
    }
    let seat = game.position().to_move();
    let user = UserId(u64::from(seat) + 1);
    let (shown, reached) = explore(T0.0, &playing, user);
    assert!(
        !shown.is_empty(),
        "{variant} seed {seed}: the picker shows nothing"
    );
    for message in &shown {
        let problems = limit_problems(message);
        assert!(
            problems.is_empty(),
            "{variant} seed {seed} plies {plies}: {problems:?} in {:?}",
            message.lines
        );
    }
    for mv in &reached {
        assert!(
            game.check(seat, *mv).is_ok(),
            "{variant} seed {seed}: the picker offers the illegal {mv:?}"
        );
    }
    let mut legal = MoveList::new();
    game.legal_moves(&mut legal);
    for mv in &legal {
        if *mv != Move::Pass {
            assert!(
                reached.contains(mv),
                "{variant} seed {seed} plies {plies}: {mv:?} cannot be reached"
            );
        }
    }
    let remove = |mv: &&Move| match mv {
        Move::Remove { .. } => true,
        Move::Play { card, .. } => card.effect() == crate::engine::CardEffect::Remove,
        _ => false,
    };
    Seen {
        exchanges: reached
            .iter()
            .filter(|m| matches!(m, Move::Exchange { .. }))
            .count(),
        menus: shown
            .iter()
            .filter(|m| m.lines.iter().any(|l| matches!(l, Text::PickRow { .. })))
            .count(),
        removals: reached.iter().filter(remove).count(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Every step of the picker fits Discord's limits, reaches every legal move and nothing illegal,
    /// in random positions of all three games (jacks, dragons, unicorns, dead cards, 10s and 11s).
    #[test]
    fn every_picker_step_fits_and_reaches_exactly_the_legal_moves(
        variant in prop::sample::select(Variant::ALL.to_vec()),
        three_teams in any::<bool>(),
        seed in any::<u64>(),
        plies in 0u32..160,
    ) {
        let (players, teams) = match (variant, three_teams) {
            (Variant::Classic, true) => (3, 3),
            (Variant::Classic, false) => (4, 2),
            (Variant::Kids, true) => (3, 3),
            (Variant::Dice, true) => (3, 3),
            (_, false) => (2, 2),
        };
        check_position(variant, players, teams, seed, plies);
    }

    /// Any number of targets, anywhere on any board (a jack on a nearly full board, a unicorn, an 11
    /// with few chips down): every step fits, and exactly the targets can be reached.
    #[test]
    fn any_set_of_targets_fits_and_is_reachable(
        variant in prop::sample::select(Variant::ALL.to_vec()),
        bits in any::<u128>(),
        keep in 0u32..128,
        jack in any::<bool>(),
    ) {
        let playing = random_playing(variant, 2, 2, 1, 0);
        let game = playing.game();
        let layout = game.position().layout();
        // Thin the random set out so that every size from none to all cells comes up.
        let mut targets = bits & layout.all;
        while targets.count_ones() > keep {
            targets &= targets - 1;
        }
        let card = match variant {
            Variant::Dice => None,
            Variant::Classic => Some(Card::classic(9, if jack { 2 } else { 0 })),
            Variant::Kids => Some(crate::engine::card::UNICORN),
        };
        let (shown, reached) = explore_targets(game, card, targets);
        for message in &shown {
            let problems = limit_problems(message);
            prop_assert!(problems.is_empty(), "{} targets: {:?}", targets.count_ones(), problems);
        }
        prop_assert_eq!(reached, targets);
    }

    /// No custom id, however mangled, makes the parser panic; whatever it accepts prints back as the
    /// same id.
    #[test]
    fn custom_ids_are_parsed_strictly(
        id in "(sequence:p:)?[0-9]{0,3}:?[0-9]{0,2}:?(play|roll|cards|card|swap|cell|rows)?:?[A-Za-z0-9:+-]{0,8}",
        value in proptest::option::of("[0-9+-]{0,4}"),
    ) {
        let values: Vec<String> = value.into_iter().collect();
        if let Ok(press) = Press::parse(&id, &values) {
            prop_assert_eq!(press.id(), id);
            prop_assert_eq!(press.value().into_iter().collect::<Vec<_>>(), values);
        }
    }
}

#[test]
fn long_games_with_dead_cards_fit_too() {
    // Deep into classic games dead cards and crowded boards are common: a few fixed long ones.
    let mut seen = [Seen::default(), Seen::default(), Seen::default()];
    for seed in 0..12 {
        let plies = seed as u32;
        let found = [
            check_position(Variant::Classic, 2, 2, seed, 60 + plies * 7),
            check_position(Variant::Kids, 4, 4, seed, 20 + plies * 3),
            Seen::default(),
        ];
        for (total, found) in seen.iter_mut().zip(found) {
            total.exchanges += found.exchanges;
            total.menus += found.menus;
            total.removals += found.removals;
        }
    }
    // Dice: the roll decides; many positions, so that 10s and early 11s come up.
    for seed in 0..80 {
        let found = check_position(Variant::Dice, 4, 2, seed, (seed as u32) % 30);
        seen[2].menus += found.menus;
        seen[2].removals += found.removals;
    }
    // The positions really exercise dead cards, menus of rows and removals.
    let [classic, kids, dice] = &seen;
    assert!(
        classic.exchanges > 0 && classic.menus > 0 && classic.removals > 0,
        "{classic:?}"
    );
    assert!(kids.removals > 0 || kids.exchanges > 0, "{kids:?}");
    assert!(dice.menus > 0 && dice.removals > 0, "{dice:?}");
}

#[test]
fn ids_print_and_parse_back() {
    let press = Press {
        table: 1_700_000_000_000,
        turn: 42,
        step: Step::Card(Card::classic(8, 1)),
    };
    assert_eq!(press.id(), "sequence:p:1700000000000:42:card:TH");
    assert_eq!(Press::parse(&press.id(), &[]), Ok(press));
    let kids = Press {
        step: Step::Exchange(Card::kids(0)),
        ..press
    };
    assert_eq!(
        Press::parse("sequence:p:1700000000000:42:swap:lion", &[]),
        Ok(kids)
    );
    let malformed = [
        "",
        "sequence:p:",
        "sequence:p:1:2",
        "sequence:p:01:2:play",
        "sequence:p:+1:2:play",
        "sequence:p:1:2:play:",
        "sequence:p:1:2:card:10H",
        "sequence:p:1:2:card:th",
        "sequence:p:1:2:card:löwe",
        "sequence:p:1:2:cell:TH:d6",
        "sequence:p:1:2:cell:TH:D06",
        "sequence:p:1:2:cell:TH:D0",
        "sequence:p:1:2:cell:TH:D100",
        "sequence:p:1:2:cell:--:D6",
        "sequence:p:1:2:dance",
        "sequence:p:99999999999999999999999:2:play",
        "sequence:join:extra",
        "another-bot:1",
    ];
    for id in malformed {
        assert!(Press::parse(id, &[]).is_err(), "{id:?} was accepted");
        assert_eq!(command_for_component(id, &[]), Err(Text::BadButton), "{id}");
    }
    let long = format!("sequence:p:1:2:cell:TH:D6{}", "0".repeat(200));
    assert!(Press::parse(&long, &[]).is_err());
    // A menu needs exactly one of its values; a button takes none.
    let menu = "sequence:p:1:2:rows:JD";
    assert!(Press::parse(menu, &["3-0".into()]).is_ok());
    for values in [
        vec![],
        vec!["3-0".to_string(), "4-0".into()],
        vec!["03-0".into()],
    ] {
        assert!(Press::parse(menu, &values).is_err(), "{values:?}");
    }
    assert!(Press::parse("sequence:p:1:2:play", &["x".into()]).is_err());
    assert_eq!(
        command_for_component("sequence:join", &["x".into()]),
        Err(Text::BadButton)
    );
    assert_eq!(
        command_for_component("sequence:join", &[]),
        Ok(Command::Join { team: None })
    );
}

/// The latest channel output's components of a reply.
fn prompt_ids(reply: &Reply) -> Vec<String> {
    reply
        .outputs
        .iter()
        .filter_map(|o| match o {
            Output::Channel(m) => Some(action_rows(m)),
            _ => None,
        })
        .flatten()
        .flatten()
        .map(|c| c.id().to_string())
        .collect()
}

/// The channel message of a reply that asks a player to move.
fn turn_prompt(reply: &Reply) -> Option<Message> {
    reply.outputs.iter().find_map(|o| match o {
        Output::Channel(m) if m.prompt_turn().is_some() => Some(m.clone()),
        _ => None,
    })
}

/// The picker message of a reply: the updated picker, else a private message with components.
fn picker_of(reply: &Reply) -> Option<&Message> {
    reply.outputs.iter().find_map(|o| match o {
        Output::Update(m) | Output::Ephemeral(m) if !m.components.is_empty() => Some(m),
        _ => None,
    })
}

/// Plays a whole game of two humans by presses only, each turn choosing among the enabled controls
/// with `rng`. Returns the final channel text.
fn play_by_presses(variant: Variant, seed: u64) -> String {
    let tables = seeded(test_settings(), seed);
    assert!(!DM.ask(&tables, 7, 1, start(variant, None)).is_refusal());
    let begun = join_and_begin(&tables);
    let mut prompt = prompt_ids(&begun);
    let mut rng = GameRng::new(seed);
    for _turn in 0..600 {
        let snapshot = tables.snapshot(ChannelId(7)).expect("the game runs");
        let playing = snapshot.playing().expect("playing");
        let seat = playing.game().position().to_move();
        let user = playing.seats[usize::from(seat)].user().expect("a human").0;
        let other = 3 - user;
        let open = prompt
            .iter()
            .find(|id| id.ends_with(":play") || id.ends_with(":roll"))
            .cloned()
            .unwrap_or_else(|| panic!("no Play button in {prompt:?}"));
        // The other player may not use it.
        let before = serde_json::to_string(&snapshot).unwrap();
        let refused = DM.press_id(&tables, 7, other, &open, None);
        assert!(refused.is_refusal(), "{refused:?}");
        assert!(refused.outputs[0].clone() != Output::Update(Message::default()));
        let after = serde_json::to_string(&tables.snapshot(ChannelId(7)).unwrap()).unwrap();
        assert_eq!(before, after, "a stranger's press changed the table");
        let mut reply = DM.press_id(&tables, 7, user, &open, None);
        let mut last_channel = String::new();
        // Walk the picker until the move is made (the picker then says so).
        loop {
            let Some(picker) = picker_of(&reply).cloned() else {
                // Dice: a roll with no move passes the turn at once.
                assert!(!prompt_ids(&reply).is_empty(), "no picker in {reply:?}");
                break;
            };
            let controls: Vec<(String, Option<String>)> = picker
                .components
                .iter()
                .flatten()
                .flat_map(|c| match c {
                    Control::Button {
                        id,
                        disabled: false,
                        ..
                    } => vec![(id.clone(), None)],
                    Control::Button { .. } | Control::Link { .. } => Vec::new(),
                    Control::Select { id, options, .. } => options
                        .iter()
                        .map(|o| (id.clone(), Some(o.value.clone())))
                        .collect(),
                })
                .filter(|(id, _)| !id.ends_with(":cards"))
                .collect();
            assert!(!controls.is_empty(), "a picker step with nothing to press");
            let pick = rng.below(u32::try_from(controls.len()).unwrap()) as usize;
            let (id, value) = &controls[pick];
            reply = DM.press_id(&tables, 7, user, id, value.as_deref());
            assert!(!reply.is_refusal(), "{id} {value:?}: {reply:?}");
            for output in &reply.outputs {
                if let Output::Channel(m) = output {
                    last_channel = m.to_english();
                }
            }
            let moved = reply
                .outputs
                .iter()
                .any(|o| matches!(o, Output::Update(m) if m.lines == vec![Text::PickerDone]));
            if moved {
                break;
            }
            if id.contains(":swap:") || id.contains(":roll") {
                // Still this player's turn: the picker (the new hand, or the roll's cells) goes on.
                continue;
            }
        }
        if tables.snapshot(ChannelId(7)).is_none() {
            return last_channel;
        }
        // The old picker's buttons and the old prompt are of a past turn now.
        let stale = DM.press_id(&tables, 7, user, &open, None);
        assert!(stale.is_refusal());
        prompt = prompt_ids(&reply);
        if prompt.is_empty() {
            // A move that did not pass the turn to a human prompt (cannot happen with two humans).
            panic!("no prompt after a move: {reply:?}");
        }
    }
    panic!("{variant}: the game did not end");
}

#[test]
fn whole_games_are_played_by_presses_only() {
    for (variant, seed) in [
        (Variant::Classic, 3),
        (Variant::Dice, 4),
        (Variant::Kids, 5),
    ] {
        let end = play_by_presses(variant, seed);
        eprintln!("{variant}: {end}");
        assert!(
            end.contains("wins") || end.contains("draw"),
            "{variant}: {end}"
        );
    }
}

#[test]
fn presses_are_checked_against_the_table() {
    let tables = seeded(test_settings(), 9);
    assert!(!DM
        .ask(&tables, 7, 1, start(Variant::Classic, None))
        .is_refusal());
    // A picker press before the game: refused.
    let early = DM.press_id(&tables, 7, 1, "sequence:p:1:0:play", None);
    assert!(early.is_refusal());
    join_and_begin(&tables);
    let table = tables.snapshot(ChannelId(7)).unwrap();
    let playing = table.playing().unwrap();
    let seat = playing.game().position().to_move();
    let user = playing.seats[usize::from(seat)].user().unwrap().0;
    let created = table.created.0;
    let turn = turn_number(playing.game());
    let hand = playing.game().hand(seat).to_vec();
    let before = serde_json::to_string(&table).unwrap();
    let unchanged = |reply: &Reply, what: &str| {
        assert!(reply.is_refusal(), "{what}: {reply:?}");
        let now = serde_json::to_string(&tables.snapshot(ChannelId(7)).unwrap()).unwrap();
        assert_eq!(before, now, "{what} changed the table");
    };
    // Another table's button, an older turn's, a card not in the hand, a cell not on the board.
    let id = |table: u64, turn: u32, step: &str| format!("sequence:p:{table}:{turn}:{step}");
    unchanged(
        &DM.press_id(&tables, 7, user, &id(created + 1, turn, "play"), None),
        "other table",
    );
    unchanged(
        &DM.press_id(&tables, 7, user, &id(created, turn + 1, "play"), None),
        "other turn",
    );
    let missing = (0..52).map(Card).find(|c| !hand.contains(c)).unwrap();
    let reply = DM.press_id(
        &tables,
        7,
        user,
        &id(created, turn, &format!("card:{missing}")),
        None,
    );
    unchanged(&reply, "a card not in the hand");
    assert!(reply.outputs.iter().any(|o| matches!(o,
        Output::Update(m) if m.lines == vec![Text::PickerNotYourCard(missing)])));
    let cell = format!("cell:{missing}:D6");
    unchanged(
        &DM.press_id(&tables, 7, user, &id(created, turn, &cell), None),
        "played a card not held",
    );
    let far = format!("cell:{}:Z9", hand[0]);
    unchanged(
        &DM.press_id(&tables, 7, user, &id(created, turn, &far), None),
        "a cell off the board",
    );
    // Someone else: not their cards.
    let reply = DM.press_id(&tables, 7, 99, &id(created, turn, "play"), None);
    unchanged(&reply, "a stranger");
    assert!(matches!(&reply.outputs[0], Output::Ephemeral(m)
        if matches!(m.lines[0], Text::NotYourPicker { .. })));
    // Malformed: polite, nothing changes.
    unchanged(
        &DM.press_id(&tables, 7, user, "sequence:p:x", None),
        "a malformed id",
    );
    // The right player's Play shows their hand (text and picture) with the cards as buttons.
    let reply = DM.press_id(&tables, 7, user, &id(created, turn, "play"), None);
    let Output::Ephemeral(picker) = &reply.outputs[0] else {
        panic!("{reply:?}");
    };
    assert!(matches!(picker.image, Some(Image::Hand(_))));
    assert!(picker.to_english().contains("Your cards"));
    assert!(picker.lines.contains(&Text::PickCard));
}

/// Makes the player's move by presses from `open`, taking the first choice of every step.
fn first_move(tables: &Tables, user: u64, open: &str) -> Reply {
    let mut reply = DM.press_id(tables, 7, user, open, None);
    for _ in 0..8 {
        let Some(picker) = picker_of(&reply).cloned() else {
            return reply;
        };
        let (id, value) = picker
            .components
            .iter()
            .flatten()
            .find_map(|c| match c {
                Control::Button {
                    id,
                    disabled: false,
                    label,
                    ..
                } if *label != Label::Text(Text::PickerBackButton) => Some((id.clone(), None)),
                Control::Select { id, options, .. } => {
                    Some((id.clone(), options.first().map(|o| o.value.clone())))
                }
                _ => None,
            })
            .expect("something to press");
        reply = DM.press_id(tables, 7, user, &id, value.as_deref());
        if reply
            .outputs
            .iter()
            .any(|o| matches!(o, Output::Update(m) if m.lines == vec![Text::PickerDone]))
        {
            return reply;
        }
    }
    panic!("no move after eight steps");
}

/// A classic game of two people whose first prompt was posted as message 100 (nothing to edit while
/// its turn runs) and whose first move was then made by presses: the service, the first prompt, the
/// table's creation number and the move's reply.
fn first_prompt_then_a_move(seed: u64) -> (Tables, Message, u64, Reply) {
    let tables = seeded(test_settings(), seed);
    DM.ask(&tables, 7, 1, start(Variant::Classic, None));
    let begun = join_and_begin(&tables);
    let prompt = turn_prompt(&begun).expect("the first prompt");
    assert!(tables.note_prompt(ChannelId(7), 100, &prompt).is_empty());
    let table = tables.snapshot(ChannelId(7)).unwrap();
    let playing = table.playing().unwrap();
    let user = playing.seats[usize::from(playing.game().position().to_move())]
        .user()
        .unwrap()
        .0;
    let open = prompt_ids(&begun)
        .into_iter()
        .find(|id| id.ends_with(":play"))
        .unwrap();
    let moved = first_move(&tables, user, &open);
    (tables, prompt, table.created.0, moved)
}

#[test]
fn old_prompts_lose_their_play_button_when_the_turn_is_over() {
    let (tables, prompt, created, moved) = first_prompt_then_a_move(21);
    let edits: Vec<&Output> = moved
        .outputs
        .iter()
        .filter(|o| matches!(o, Output::Disarm { .. }))
        .collect();
    assert_eq!(
        edits,
        [&Output::Disarm {
            message_id: 100,
            buttons: vec![Button::Hand, Button::More(created)]
        }],
        "the old prompt keeps only its hand and ⋯ buttons"
    );
    // A prompt reported after its turn is over (a slow post) is edited at once; the new one is kept.
    let next = turn_prompt(&moved).expect("the next prompt");
    assert!(tables.note_prompt(ChannelId(7), 101, &next).is_empty());
    assert_eq!(
        tables.note_prompt(ChannelId(7), 99, &prompt),
        [Output::Disarm {
            message_id: 99,
            buttons: vec![Button::Hand, Button::More(created)]
        }]
    );
    // The game's end takes the last Play button off, hand button included.
    let stopped = DM.ask(&tables, 7, 1, Command::Stop);
    assert!(stopped.outputs.contains(&Output::Disarm {
        message_id: 101,
        buttons: Vec::new()
    }));
}

#[test]
fn a_prompt_that_kept_its_hand_button_loses_it_when_the_game_ends_before_a_new_prompt() {
    // As when a computer's move ends the game right after a person's: the person's prompt lost its
    // Play button and kept the hand and ⋯ buttons, no newer prompt was posted, and the game ends.
    let (tables, _, created, moved) = first_prompt_then_a_move(22);
    assert!(moved.outputs.contains(&Output::Disarm {
        message_id: 100,
        buttons: vec![Button::Hand, Button::More(created)]
    }));
    let stopped = DM.ask(&tables, 7, 1, Command::Stop);
    let edits: Vec<&Output> = stopped
        .outputs
        .iter()
        .filter(|o| matches!(o, Output::Disarm { .. }))
        .collect();
    assert_eq!(
        edits,
        [&Output::Disarm {
            message_id: 100,
            buttons: Vec::new()
        }],
        "the game is over: no button of it is left"
    );
}

#[test]
fn after_an_exchange_another_dead_card_waits_for_the_next_turn_in_one_sentence() {
    // Random classic games until a player to move holds two dead cards; they exchange one.
    for seed in 0..2000 {
        let config = Config::new(Variant::Classic, 2, Some(2), Options::default()).expect("config");
        let mut live = LiveGame::start(config, seed).expect("game");
        let mut rng = GameRng::new(seed ^ 0x5EED);
        while !live.game().position().is_over() {
            let game = live.game();
            let seat = game.position().to_move();
            let mut dead: Vec<Card> = Vec::new();
            for &card in game.hand(seat) {
                if game.position().is_dead(card) && !dead.contains(&card) {
                    dead.push(card);
                }
            }
            if let [first, second, ..] = dead[..] {
                let before = card_line(game, seat, second);
                assert_eq!(before.use_, crate::service::text::CardUse::Dead);
                live.commit(seat, Move::Exchange { card: first })
                    .expect("an exchange");
                let line = card_line(live.game(), seat, second);
                assert_eq!(line.use_, crate::service::text::CardUse::DeadExchanged);
                for lang in Lang::ALL {
                    let said = line.render(lang);
                    assert!(!said.contains("/sequence"), "{lang:?}: {said}");
                    assert_eq!(said.matches(':').count(), 0, "{lang:?}: {said}");
                }
                assert!(line.render(Lang::En).contains("swap it on your next turn"));
                // The next player's dead cards are plain dead again.
                return;
            }
            let Some(mv) = game.random_move(&mut rng) else {
                break;
            };
            live.commit(seat, mv).expect("a random legal move");
        }
    }
    panic!("no position with two dead cards in 2000 games");
}
