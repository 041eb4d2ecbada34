//! `Tables::view`, what one viewer may see of a table: over whole games a watcher's view shows no hidden
//! card (it equals the view of the same table with every hand and the draw pile dealt anew), a seated
//! player sees their own hand and no other; the view follows the game; a lobby lists its seats; no
//! text of a view carries Discord markup.

use std::sync::{Arc, Mutex};

use serde_json::Value;

use super::kit::{playing, random_human_action, seeded, test_settings, timed, Start, DM, T0};
use crate::engine::{CardEffect, GameRng, Move, Options, Variant};
use crate::i18n::Lang;
use crate::service::{
    explore, ChannelId, Command, OwnView, Persist, Phase, PlayerKind, Playing, Series,
    ServiceError, Table, TableView, Tables, UserId,
};

/// A user who sits at no table.
const STRANGER: UserId = UserId(999);

/// Keeps the last finished table it is told of (the table as the game ended).
#[derive(Default)]
struct KeepFinished(Mutex<Option<Table>>);

impl Persist for KeepFinished {
    fn save(&self, _table: &Table) -> Result<(), ServiceError> {
        Ok(())
    }
    fn close(
        &self,
        _channel: ChannelId,
        finished: Option<&Table>,
    ) -> Result<Option<i64>, ServiceError> {
        if let Some(table) = finished {
            *self.0.lock().unwrap() = Some(table.clone());
        }
        Ok(None)
    }
    fn series_ended(&self, _scope: u64, _series: &Series) -> Result<(), ServiceError> {
        Ok(())
    }
}

fn json(view: &TableView) -> Value {
    serde_json::to_value(view).expect("a view serializes")
}

/// Every string of `value` (object keys too), with its path.
fn strings(value: &Value, path: &str, out: &mut Vec<(String, String)>) {
    match value {
        Value::String(s) => out.push((path.to_string(), s.clone())),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                strings(item, &format!("{path}[{i}]"), out);
            }
        }
        Value::Object(map) => {
            for (key, item) in map {
                out.push((format!("{path} (key)"), key.clone()));
                strings(item, &format!("{path}.{key}"), out);
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// Every object key anywhere in `value`.
fn keys(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Array(items) => items.iter().for_each(|item| keys(item, out)),
        Value::Object(map) => {
            for (key, item) in map {
                out.push(key.clone());
                keys(item, out);
            }
        }
        _ => {}
    }
}

/// No string of the view (a text, a name, a label) carries Discord markup.
fn assert_markup_free(view: &Value, context: &str) {
    let mut all = Vec::new();
    strings(view, "", &mut all);
    for (path, text) in all {
        for markup in ["<@", "<t:", "**", "<#", "`"] {
            assert!(
                !text.contains(markup),
                "{context}: {path} = {text:?} holds {markup:?}"
            );
        }
    }
}

/// The settings the service applies to a table in direct messages.
fn dm_settings(tables: &Tables) -> crate::service::Settings {
    tables.known_settings_for(None)
}

/// Checks every viewer of `channel` now: watchers (nobody signed in, a stranger) see exactly what they
/// would see if every hidden card were different, with no hand anywhere; each seated person sees their
/// own hand and otherwise what a watcher sees. Returns whether replacing the hidden cards changed a
/// hand (so that the comparison compared something).
fn check_viewers(tables: &Tables, channel: u64, seed: u64, offers: &mut Offers) -> bool {
    let channel_id = ChannelId(channel);
    let table = tables.snapshot(channel_id).expect("a table");
    let settings = dm_settings(tables);
    let watcher = json(&tables.view(channel_id, None, Lang::En, T0).expect("a view"));
    let stranger = json(
        &tables
            .view(channel_id, Some(STRANGER), Lang::En, T0)
            .expect("a view"),
    );
    assert_eq!(watcher, stranger, "a user not seated is a watcher");
    let mut found = Vec::new();
    keys(&watcher, &mut found);
    found.retain(|k| {
        ["hand", "you", "targets", "removals", "dead", "roll_needed"].contains(&k.as_str())
    });
    assert!(
        found.is_empty(),
        "a watcher's view has no hand and no move of its own: {found:?}"
    );
    let replaced = table.with_hidden_replaced(seed);
    assert_eq!(
        watcher,
        json(&replaced.view(None, Lang::En, T0, &settings)),
        "the watcher's view changed with the hidden cards"
    );
    for lang in Lang::ALL {
        let view = json(&tables.view(channel_id, None, lang, T0).expect("a view"));
        assert_markup_free(&view, &format!("{lang}"));
    }
    let Some(playing) = table.playing() else {
        return false;
    };
    let game = playing.game();
    let changed = replaced.playing().is_some_and(|other| {
        (0..game.config().players).any(|s| other.game().hand(s) != game.hand(s))
    });
    for player in &playing.seats {
        let Some(user) = player.user() else { continue };
        let seat = playing.seat_of(user).expect("seated");
        let own = tables
            .view(channel_id, Some(user), Lang::En, T0)
            .expect("a view");
        let you = own.you.as_ref().expect("a seated player's own part");
        assert_eq!(you.seat, seat);
        assert_eq!(
            you.hand.iter().map(|c| c.code.clone()).collect::<Vec<_>>(),
            game.hand(seat).iter().map(|c| c.code()).collect::<Vec<_>>(),
            "a seated player sees their own hand"
        );
        assert_eq!(
            you.your_turn,
            game.position().to_move() == seat && !game.position().is_over()
        );
        offers.add(&check_own_moves(&table, playing, user, you));
        assert_eq!(own.seat, Some(seat), "a player's view says where they sit");
        let mut rest = json(&own);
        rest.as_object_mut().expect("an object").remove("you");
        rest.as_object_mut().expect("an object").remove("seat");
        assert_eq!(
            rest, watcher,
            "apart from their own part, a player sees what a watcher sees"
        );
    }
    changed
}

/// What the own parts of the views offered over a game: that the comparison with the picker met each
/// kind of choice.
#[derive(Clone, Copy, Debug, Default)]
struct Offers {
    /// Cards with cells to go to.
    cards: usize,
    /// Dead cards offered for exchange.
    dead: usize,
    /// Dice turns before the roll, after it with cells to place on, and with chips a 10 may clear.
    rolls_needed: usize,
    places: usize,
    removals: usize,
}

impl Offers {
    fn add(&mut self, other: &Offers) {
        self.cards += other.cards;
        self.dead += other.dead;
        self.rolls_needed += other.rolls_needed;
        self.places += other.places;
        self.removals += other.removals;
    }
}

/// Checks `user`'s own part `you` against what the picker offers them now (every button and menu
/// choice followed, [`explore`]): each card's cells are the cells its buttons play it on, a card is
/// dead exactly when the picker offers its exchange, and in dice the cells are the roll's place and
/// removal buttons, after the roll only. Off their turn everything is empty.
fn check_own_moves(table: &Table, playing: &Playing, user: UserId, you: &OwnView) -> Offers {
    let game = playing.game();
    let pos = game.position();
    let layout = pos.layout();
    let name = |cell| layout.cell_name(cell);
    let sorted = |mut cells: Vec<String>| {
        cells.sort();
        cells
    };
    let mut offers = Offers::default();
    if pos.is_over() || pos.to_move() != you.seat {
        assert!(!you.your_turn && !you.roll_needed, "{you:?}");
        assert!(you.targets.is_empty() && you.removals.is_empty(), "{you:?}");
        assert!(
            you.hand.iter().all(|c| c.targets.is_empty() && !c.dead),
            "nothing to do off one's turn: {you:?}"
        );
        return offers;
    }
    let (_, moves) = explore(table.created.0, playing, user);
    let (mut places, mut removals) = (Vec::new(), Vec::new());
    let mut played: Vec<(String, String)> = Vec::new();
    let mut exchanged: Vec<String> = Vec::new();
    for mv in moves {
        match mv {
            Move::Play { card, cell } => played.push((card.code(), name(cell))),
            Move::Exchange { card } => exchanged.push(card.code()),
            Move::Place { cell } => places.push(name(cell)),
            Move::Remove { cell } => removals.push(name(cell)),
            Move::Pass => panic!("the picker offers no pass"),
        }
    }
    for card in &you.hand {
        let cells: Vec<String> = played
            .iter()
            .filter(|(code, _)| *code == card.code)
            .map(|(_, cell)| cell.clone())
            .collect();
        assert_eq!(
            sorted(card.targets.clone()),
            sorted(cells),
            "{}: the cells of {} are the picker's",
            game.config().variant,
            card.code
        );
        assert_eq!(
            card.dead,
            exchanged.contains(&card.code),
            "{}: {} is dead exactly when the picker offers its exchange",
            game.config().variant,
            card.code
        );
        offers.cards += usize::from(!card.targets.is_empty());
        offers.dead += usize::from(card.dead);
    }
    let dice = !game.config().variant.has_cards();
    assert_eq!(you.roll_needed, dice && !playing.rolled, "{you:?}");
    assert_eq!(
        sorted(you.targets.clone()),
        sorted(places),
        "the roll's cells"
    );
    assert_eq!(
        sorted(you.removals.clone()),
        sorted(removals),
        "the chips a 10 may clear"
    );
    offers.rolls_needed += usize::from(you.roll_needed);
    offers.places += usize::from(!you.targets.is_empty());
    offers.removals += usize::from(!you.removals.is_empty());
    offers
}

/// When the last move took a chip off `before`'s board (a removal, or a dice placement replacing
/// one), whether the line of the last move names the team whose chip it was.
fn names_the_victim(before: &TableView, after: &TableView) -> Option<bool> {
    let (old, board) = (before.board.as_ref()?, after.board.as_ref()?);
    let last = board.last_move.as_ref()?;
    if old.last_move.as_ref() == Some(last) {
        return None;
    }
    let cell = board.cells.iter().position(|c| c.name == last.cell)?;
    let victim = old.cells[cell].chip?;
    if Some(victim) == after.seats[usize::from(last.seat)].team {
        return None;
    }
    let team = &after.teams[usize::from(victim)].name;
    Some(after.texts.last_move.as_deref()?.contains(team.as_str()))
}

/// What a game played by [`play_checking_views`] showed.
struct Played {
    tables: Tables,
    /// The view of the finished game (from the table as it ended).
    finished: Option<TableView>,
    /// Moves that took an opponent's chip (their line checked to name its team).
    taken: usize,
    /// Views that showed a dice roll, and a King of the Board zone.
    rolls: usize,
    zones: usize,
    /// What the players' own parts offered.
    offers: Offers,
}

/// Plays a whole game in direct-message `channel` (`users` with `bots` computers, the people moving
/// at random), checking every viewer after each move, until the game is over.
async fn play_checking_views(
    channel: u64,
    start: Start,
    users: &[u64],
    bots: usize,
    seed: u64,
) -> Played {
    let keeper = Arc::new(KeepFinished::default());
    let tables = seeded(test_settings(), seed).with_persist(keeper.clone());
    let variant = start.variant;
    DM.begin(&tables, channel, start.command(), users, bots);
    let mut rng = GameRng::new(seed);
    let mut moves = 0;
    let mut hidden_changed = false;
    let mut before: Option<TableView> = None;
    let (mut taken, mut rolls, mut zones) = (0, 0, 0);
    let mut offers = Offers::default();
    while tables
        .snapshot(ChannelId(channel))
        .is_some_and(|t| t.playing().is_some())
    {
        hidden_changed |= check_viewers(&tables, channel, seed.wrapping_add(moves), &mut offers);
        let now = tables.view(ChannelId(channel), None, Lang::En, T0);
        if let (Some(before), Some(now)) = (&before, &now) {
            if let Some(named) = names_the_victim(before, now) {
                assert!(
                    named,
                    "{variant}: the victim's team is named: {:?}",
                    now.texts
                );
                taken += 1;
            }
        }
        if let Some(board) = now.as_ref().and_then(|v| v.board.as_ref()) {
            rolls += usize::from(board.roll.is_some());
            zones += usize::from(board.zone.is_some());
        }
        before = now;
        moves += 1;
        assert!(moves < 3000, "{variant}: the game did not end");
        match random_human_action(&tables, channel, &mut rng) {
            Some((user, command)) => {
                let reply = DM.ask(&tables, channel, user, command);
                assert!(!reply.is_refusal(), "{reply:?}");
            }
            None => {
                let reply = tables.auto_step(ChannelId(channel), T0).await;
                assert!(reply.is_some(), "{variant}: a computer move was due");
            }
        }
    }
    assert!(moves > 10, "{variant}: {moves} moves");
    if variant.has_cards() {
        assert!(hidden_changed, "{variant}: the hands were never replaced");
    }
    let finished = keeper.0.lock().unwrap().take().map(|table| {
        let view = table.view(None, Lang::En, T0, &dm_settings(&tables));
        assert_markup_free(&json(&view), "finished");
        view
    });
    Played {
        tables,
        finished,
        taken,
        rolls,
        zones,
        offers,
    }
}

#[tokio::test]
async fn watchers_see_no_hidden_card_over_whole_games() {
    let games = [
        // Classic, two teams of two: two people (on one team or two, as the seats are drawn) and two
        // computers.
        (
            Start {
                teams: Some(2),
                ..Start::of(Variant::Classic)
            },
            vec![1, 2],
            2,
        ),
        // Classic, three players alone.
        (Start::of(Variant::Classic), vec![1], 2),
        (Start::of(Variant::Dice), vec![1, 2], 0),
        (Start::of(Variant::Kids), vec![1], 2),
        (
            Start {
                options: Options {
                    king_of_the_board: true,
                    ..Options::default()
                },
                ..Start::of(Variant::Classic)
            },
            vec![1],
            1,
        ),
    ];
    let mut taken = 0;
    let mut offers = Offers::default();
    for (i, (start, users, bots)) in games.into_iter().enumerate() {
        let (variant, kotb) = (start.variant, start.options.king_of_the_board);
        let played = play_checking_views(10 + i as u64, start, &users, bots, 40 + i as u64).await;
        taken += played.taken;
        offers.add(&played.offers);
        assert_eq!(
            played.rolls > 0,
            variant == Variant::Dice,
            "{variant}: rolls"
        );
        assert_eq!(played.zones > 0, kotb, "{variant}: zones");
        let view = played.finished.expect("the game finished");
        assert_eq!(view.phase, Phase::Finished, "{variant}");
        let result = view.texts.result.expect("a result line");
        assert!(
            result.contains("wins") || result.contains("draw"),
            "{variant}: {result}"
        );
        assert!(
            view.texts.turn.is_none(),
            "{variant}: no turn after the end"
        );
        if kotb {
            assert!(view.teams.iter().any(|t| t.points.unwrap_or(0) > 0));
        }
    }
    assert!(taken > 0, "some moves took a chip");
    // The comparison with the picker met every kind of choice.
    let Offers {
        cards,
        dead,
        rolls_needed,
        places,
        removals,
    } = offers;
    assert!(
        cards > 0 && dead > 0 && rolls_needed > 0 && places > 0 && removals > 0,
        "{offers:?}"
    );
}

#[tokio::test]
async fn a_series_between_games_shows_its_score() {
    let start = Start {
        series: Some(3),
        ..Start::of(Variant::Kids)
    };
    let played = play_checking_views(20, start, &[1], 1, 9).await;
    let view = played
        .tables
        .view(ChannelId(20), Some(UserId(1)), Lang::En, T0)
        .expect("the table waits for the next game");
    assert_eq!(view.phase, Phase::BetweenGames);
    let series = view.game.series.as_ref().expect("a series");
    assert_eq!((series.best_of, series.needed, series.played), (3, 2, 1));
    assert!(series.wins.iter().sum::<u8>() <= 1, "{series:?}");
    assert_eq!(view.seats.len(), 2);
    assert!(view.board.is_none() && view.you.is_none());
}

#[test]
fn the_view_follows_the_game() {
    let tables = seeded(timed(), 7);
    let channel = ChannelId(1);
    DM.begin(
        &tables,
        1,
        Start::of(Variant::Classic).command(),
        &[1, 2],
        0,
    );
    let view = tables.view(channel, None, Lang::En, T0).expect("a view");
    assert_eq!(view.phase, Phase::Playing);
    assert_eq!(view.game.variant, Variant::Classic);
    assert_eq!(view.game.to_win, Some(2));
    assert_eq!(view.game.turn_seconds, 300);
    // Seat 0 moves first; who sits there was drawn at the deal.
    let seats = playing(&tables, 1).seats;
    let names: Vec<&str> = view.seats.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, [seats[0].name(), seats[1].name()]);
    let (first, second) = (
        seats[0].user().expect("a person"),
        seats[1].user().expect("a person"),
    );
    assert!(view.seats.iter().all(|s| s.kind == PlayerKind::Person));
    assert!(view.seats[0].to_move && !view.seats[1].to_move);
    assert_eq!(view.seats[0].seconds_left, Some(300));
    assert_eq!(view.seats[1].seconds_left, None);
    assert_eq!(
        view.seats.iter().map(|s| s.cards).collect::<Vec<_>>(),
        [Some(7), Some(7)]
    );
    assert_eq!(
        view.texts.turn,
        Some(format!("{} is to move.", seats[0].name()))
    );
    assert_eq!(view.texts.last_move, None);
    let board = view.board.as_ref().expect("a board");
    assert_eq!(
        (board.width, board.height, board.cells.len()),
        (10, 10, 100)
    );
    assert!(board.cells.iter().all(|c| c.chip.is_none()));
    assert_eq!(board.draw_pile, Some(104 - 14));
    // The team colours are the board image's.
    let blue = crate::render::team_colour(Variant::Classic, 0).0;
    assert_eq!(
        view.teams[0].rgb,
        format!("#{:02x}{:02x}{:02x}", blue[0], blue[1], blue[2])
    );
    assert_eq!(view.teams[0].colour, "blue");
    // The second player waits; later the clock has run for 100 s.
    let later = T0.after(std::time::Duration::from_secs(100));
    let waiting = tables
        .view(channel, Some(second), Lang::En, later)
        .expect("a view");
    assert!(!waiting.you.as_ref().expect("seated").your_turn);
    assert_eq!(waiting.you.as_ref().map(|y| y.seat), Some(1));
    assert_eq!(waiting.seats[0].seconds_left, Some(200));
    assert_eq!(
        waiting.seats[0].turn_ends_at,
        Some(T0.after(std::time::Duration::from_secs(300)).0)
    );

    // The first player plays a card that places a chip.
    let game = playing(&tables, 1).live.game().clone();
    let mut moves = crate::engine::MoveList::new();
    game.legal_moves(&mut moves);
    let (card, cell) = moves
        .iter()
        .find_map(|m| match *m {
            Move::Play { card, cell } if card.effect() == CardEffect::Cells => Some((card, cell)),
            _ => None,
        })
        .expect("a plain card to play");
    let layout = game.position().layout();
    let reply = DM.ask(
        &tables,
        1,
        first.0,
        Command::Play {
            card: Some(card.to_string()),
            cell: layout.cell_name(cell),
        },
    );
    assert!(!reply.is_refusal(), "{reply:?}");
    let view = tables
        .view(channel, Some(second), Lang::En, T0)
        .expect("a view");
    assert!(!view.seats[0].to_move && view.seats[1].to_move);
    assert_eq!(
        view.texts.turn,
        Some(format!("{} is to move.", seats[1].name()))
    );
    assert_eq!(
        view.texts.last_move.as_deref(),
        Some(
            format!(
                "{} played {} on {}.",
                seats[0].name(),
                card.pretty(),
                layout.cell_name(cell)
            )
            .as_str()
        )
    );
    let board = view.board.as_ref().expect("a board");
    let last = board.last_move.as_ref().expect("a last move");
    assert_eq!(
        (
            last.seat,
            last.name.as_str(),
            last.cell.clone(),
            last.removed
        ),
        (0, seats[0].name(), layout.cell_name(cell), false)
    );
    assert_eq!(
        last.card.as_ref().map(|c| c.code.clone()),
        Some(card.code())
    );
    assert_eq!(board.cells[cell.index()].chip, Some(0));
    assert_eq!(
        board.cells.iter().filter(|c| c.chip.is_some()).count(),
        1,
        "one chip on the board"
    );
    assert_eq!(board.discards[0].code, card.code());
    assert!(view.you.as_ref().expect("seated").your_turn);
    // German texts.
    let german = tables.view(channel, None, Lang::De, T0).expect("a view");
    assert_eq!(
        german.texts.turn,
        Some(format!("{} ist am Zug.", seats[1].name()))
    );
}

#[test]
fn a_lobbys_view_lists_its_seats() {
    let tables = seeded(test_settings(), 3);
    let channel = ChannelId(5);
    let start = Start {
        teams: Some(2),
        series: Some(3),
        ..Start::of(Variant::Kids)
    };
    assert!(!DM.ask(&tables, 5, 1, start.command()).is_refusal());
    assert!(!DM
        .ask(&tables, 5, 2, Command::Join { team: Some(2) })
        .is_refusal());
    assert!(!DM
        .ask(&tables, 5, 1, Command::AddBot { level: None })
        .is_refusal());
    let view = tables
        .view(channel, Some(UserId(1)), Lang::En, T0)
        .expect("a lobby");
    assert_eq!(view.phase, Phase::Lobby);
    assert_eq!(view.game.variant, Variant::Kids);
    assert_eq!(view.game.teams, Some(2));
    assert_eq!(view.game.series.as_ref().map(|s| s.best_of), Some(3));
    let seats: Vec<(&str, PlayerKind, Option<u8>)> = view
        .seats
        .iter()
        .map(|s| (s.name.as_str(), s.kind, s.team))
        .collect();
    assert_eq!(seats[0], ("Player1", PlayerKind::Person, None));
    assert_eq!(seats[1], ("Player2", PlayerKind::Person, Some(1)));
    assert_eq!((seats[2].1, seats.len()), (PlayerKind::Computer, 3));
    assert!(view.seats[2].level.is_some());
    assert_eq!(
        view.teams.iter().map(|t| t.colour).collect::<Vec<_>>(),
        ["red", "yellow"],
        "kids colours"
    );
    assert!(view.board.is_none() && view.you.is_none());
    assert_markup_free(&json(&view), "lobby");
    assert!(tables.view(ChannelId(6), None, Lang::En, T0).is_none());
}

#[test]
fn every_table_has_its_own_unguessable_web_token() {
    let tables = seeded(test_settings(), 3);
    for (channel, host) in [(5, 1), (6, 2)] {
        assert!(!DM
            .ask(
                &tables,
                channel,
                host,
                Start::of(Variant::Classic).command()
            )
            .is_refusal());
    }
    assert!(!DM
        .ask(&tables, 5, 3, Command::Join { team: None })
        .is_refusal());
    let five = tables.web_token(ChannelId(5)).expect("a token");
    let six = tables.web_token(ChannelId(6)).expect("a token");
    assert_ne!(five, six);
    for token in [&five, &six] {
        assert_eq!(token.len(), 32, "{token}");
        assert!(token
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
    }
    assert_eq!(tables.channel_of_web_token(&five), Some(ChannelId(5)));
    assert_eq!(tables.channel_of_web_token(&six), Some(ChannelId(6)));
    for bad in [
        "".to_string(),
        five.to_uppercase(),
        five[..31].to_string(),
        format!("{five}0"),
        "5".to_string(),
    ] {
        assert_eq!(tables.channel_of_web_token(&bad), None, "{bad:?}");
    }
    assert_eq!(tables.web_token(ChannelId(7)), None);

    // The view names the game and where its host sits: a joiner is not the host.
    let table = tables.snapshot(ChannelId(5)).expect("a lobby");
    let view = tables
        .view(ChannelId(5), None, Lang::En, T0)
        .expect("a lobby");
    assert_eq!((view.key, view.host), (table.created.0, Some(0)));
    assert_eq!(view.seats.len(), 2);
    // A watcher has no seat (and no field for it); the joiner sits second, the host first.
    assert_eq!(view.seat, None);
    assert!(json(&view).get("seat").is_none());
    let seat = |user| {
        tables
            .view(ChannelId(5), Some(UserId(user)), Lang::En, T0)
            .and_then(|v| v.seat)
    };
    assert_eq!((seat(1), seat(3), seat(2)), (Some(0), Some(1), None));

    // A closed table's token names nothing; the other table keeps its own.
    assert!(!DM.ask(&tables, 5, 1, Command::Cancel).is_refusal());
    assert_eq!(tables.channel_of_web_token(&five), None);
    assert_eq!(tables.channel_of_web_token(&six), Some(ChannelId(6)));

    // Saved and restored, a table keeps its token; one saved before tokens existed gets a fresh one.
    let saved = tables.snapshot(ChannelId(6)).expect("a lobby");
    let mut json = serde_json::to_value(&saved).unwrap();
    assert_eq!(json["web_token"], Value::String(six.clone()));
    let restored = seeded(test_settings(), 4);
    let table: Table = serde_json::from_value(json.clone()).unwrap();
    assert!(restored.restore(table));
    assert_eq!(restored.channel_of_web_token(&six), Some(ChannelId(6)));
    json.as_object_mut().unwrap().remove("web_token");
    json["channel"] = Value::from(8);
    let old: Table = serde_json::from_value(json).unwrap();
    assert!(old.web_token.len() == 32 && old.web_token != six);
    let token = old.web_token.clone();
    assert!(restored.restore(old));
    assert_eq!(restored.channel_of_web_token(&token), Some(ChannelId(8)));
}
