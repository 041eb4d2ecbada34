//! What one viewer may see of a table, as plain data for a web page (`Tables::view`): the phase, the
//! game and its options, the seats, the board, the clock, and for a seated player their own hand.
//!
//! Hidden information cannot leak by construction: everything but the viewer's own part is built
//! from the game's public view ([`Game::public_view`], the one the board image is drawn from), and
//! the hand only from the viewer's own seat view ([`Game::view`]), into [`OwnView`], the only type
//! with a hand. A watcher's [`TableView`] has `you: None`, which serializes to no field at all.
//!
//! Texts: the view gives structured fields (seat numbers, cells, cards, seconds, timestamps in
//! milliseconds) for everything a page formats itself, and three short sentences ([`StatusTexts`]:
//! whose turn, the last move, the result) rendered in the asked language from catalogue messages
//! that carry no markup, with the players' names as plain text. The chat renderer (`Text::render`)
//! is not reused with a "plain" flag: it names a person by mention (a [`crate::service::Who`] holds
//! only the user id, not the name), writes deadlines as Discord timestamps and its turn lines tell
//! the player which button or slash command to use, so a plain mode would have to change every topic
//! file. A test checks that no text of a view holds `<@`, `<t:`, `**`, `<#` or a backquote.

use serde::Serialize;

use crate::engine::{
    zone_cells, BitIter, Bits, Card, CardEffect, Cell, Label, Move, Options, Seat, Status, Variant,
    View,
};
use crate::i18n::{join_list, tr_args, Args, Lang, Tr};

use crate::service::bot::BotLevel;
use crate::service::ids::{Timestamp, UserId};
use crate::service::settings::Settings;
use crate::service::text::{card_label, game_name, TeamName};

use super::game::{Player, Playing, Stop};
use super::lobby::Lobby;
use super::picker::{allowed, choices, Choices};
use super::{State, Table};

/// Cards of the discard pile a view shows, the most recent first.
pub const DISCARDS_SHOWN: usize = 5;

/// What one viewer may see of a channel's table (see the module's documentation).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableView {
    /// Which game of the channel this is (the table's key, what a move's request carries so that it is
    /// refused once another game runs there).
    pub key: u64,
    /// The web token of this game's page (`/g/<token>`; empty: none). The next game of a series has
    /// a page of its own: a page that shows another token goes on to this one.
    pub token: String,
    /// Lobby, game, finished game, or the break between two games of a series.
    pub phase: Phase,
    /// The host (who may add computers, start, cancel and stop): their index in `seats`, while seated.
    pub host: Option<u8>,
    /// The viewer's own index in `seats`, while seated (in a lobby too); none for a watcher.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
    /// The game and the options that matter to a viewer.
    pub game: GameView,
    /// The teams with their colours (in a lobby: the teams players asked for).
    pub teams: Vec<TeamView>,
    /// The seats: in a game in turn order, in a lobby in the order of joining.
    pub seats: Vec<SeatView>,
    /// The board, once a game is dealt.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<BoardView>,
    /// The sentences a page shows, in the asked language, without markup.
    pub texts: StatusTexts,
    /// The viewer's own seat and hand: only for a player seated in the running game. A watcher's view
    /// has none, and no field for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub you: Option<OwnView>,
}

/// Where a table is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Waiting for players.
    Lobby,
    /// A game is being played.
    Playing,
    /// The game has ended (won, drawn, given up or stopped).
    Finished,
    /// A series waits for its next game.
    BetweenGames,
}

/// The game and its options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameView {
    /// Classic, dice or kids.
    pub variant: Variant,
    /// The game's title in the asked language.
    pub title: String,
    /// King of the Board.
    pub king_of_the_board: bool,
    /// Every rule option as asked.
    pub options: Options,
    /// Seats in the game (in a lobby: taken so far).
    pub players: u8,
    /// Teams in the game (in a lobby: as asked, `None` for the default of the player count).
    pub teams: Option<u8>,
    /// What a team needs to win: sequences, or points in King of the Board (`None` in a lobby).
    pub to_win: Option<u8>,
    /// Cells in a winning line (`None` in a lobby).
    pub line_length: Option<u8>,
    /// Seconds a player has for a turn.
    pub turn_seconds: u64,
    /// Whether hints may be asked for in this game (`None` in a lobby: decided at the deal).
    pub hints_allowed: Option<bool>,
    /// Whether the game counts for ratings (in a lobby: as asked, `None` for the default).
    pub rated: Option<bool>,
    /// The series and its score, if the table plays one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub series: Option<SeriesView>,
    /// The bot may not post in the channel now: nothing happens on its own (no clock) until it can.
    pub paused: bool,
}

/// A series and its score.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeriesView {
    /// Best of how many games.
    pub best_of: u8,
    /// Wins a side needs.
    pub needed: u8,
    /// Games finished so far.
    pub played: u8,
    /// Games won by each team of the current (or next) game, by team number.
    pub wins: Vec<u8>,
    /// The series is over.
    pub over: bool,
}

/// A team and its colour: the name and the colour of its chips on the board image.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TeamView {
    /// The team number, from 0.
    pub team: u8,
    /// Its name in the asked language (`team 1 (blue)`).
    pub name: String,
    /// Its colour's name in English (`blue`), the same in every language.
    pub colour: &'static str,
    /// The chips' colour as `#rrggbb`, from the board renderer's colours.
    pub rgb: String,
    /// Completed sequences (in a game).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sequences: Option<u8>,
    /// King of the Board points (in such a game).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<u8>,
    /// Pairs captured (with the `capture_pairs` rule).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub captures: Option<u8>,
}

/// A seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatView {
    /// The player's name as plain text.
    pub name: String,
    /// A person or a computer player.
    pub kind: PlayerKind,
    /// A computer player's strength.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<BotLevel>,
    /// The team (in a lobby: the team asked for, if any).
    pub team: Option<u8>,
    /// This seat is to move.
    pub to_move: bool,
    /// Cards in the hand (card games, in a game): the number only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cards: Option<u8>,
    /// Seconds left for the turn, for a person to move while the clock runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seconds_left: Option<u64>,
    /// When the turn runs out (milliseconds since the Unix epoch), with `seconds_left`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn_ends_at: Option<u64>,
    /// The person who sat here gave up; a computer player plays the seat now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gave_up: Option<String>,
}

/// Who sits in a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayerKind {
    /// A person.
    Person,
    /// A computer player.
    Computer,
}

/// A card: its code (as in records and commands) and its name in the asked language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CardView {
    /// `7H`, `JS`, or a kids card's English name (`lion`).
    pub code: String,
    /// `7♥`, or the animal's name in the asked language.
    pub label: String,
}

/// The board as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardView {
    /// Columns.
    pub width: u8,
    /// Rows.
    pub height: u8,
    /// Every cell, row by row from `A1`.
    pub cells: Vec<CellView>,
    /// The completed sequences, their cells in line order.
    pub sequences: Vec<SequenceView>,
    /// The last chip placed or removed (the cell the board image highlights).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_move: Option<LastMoveView>,
    /// King of the Board: the zone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zone: Option<ZoneView>,
    /// Dice: the roll on the table (public: everyone sees it as soon as it is rolled).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roll: Option<[u8; 2]>,
    /// Cards left to draw (card games): the number only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw_pile: Option<usize>,
    /// Cards on the discard pile (card games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discard_pile: Option<usize>,
    /// The last cards played or exchanged, the most recent first (at most [`DISCARDS_SHOWN`]).
    pub discards: Vec<CardView>,
    /// Moves played so far (an exchange not counted): the turn's number.
    pub turn: u32,
}

/// A cell of the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CellView {
    /// Its name (`A1`).
    pub name: String,
    /// What is printed on it.
    pub label: CellLabel,
    /// The team whose chip is on it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chip: Option<u8>,
    /// Part of a completed sequence.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub in_sequence: bool,
    /// In the King of the Board zone.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub in_zone: bool,
}

/// What is printed on a cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CellLabel {
    /// A free corner.
    Corner,
    /// A card picture.
    Card {
        /// The card.
        #[serde(flatten)]
        card: CardView,
    },
    /// A dice sum.
    Number {
        /// The sum.
        number: u8,
    },
}

/// A completed sequence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SequenceView {
    /// Whose.
    pub team: u8,
    /// Its cells in line order.
    pub cells: Vec<String>,
}

/// The last chip placed or removed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LastMoveView {
    /// The seat that moved.
    pub seat: u8,
    /// Its player's name.
    pub name: String,
    /// The cell.
    pub cell: String,
    /// A chip was removed there (else placed).
    pub removed: bool,
    /// The card played (card games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub card: Option<CardView>,
}

/// King of the Board: the zone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ZoneView {
    /// Its centre.
    pub centre: String,
    /// Its nine cells.
    pub cells: Vec<String>,
}

/// The sentences a page shows, in the asked language, plain text.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct StatusTexts {
    /// Whose turn it is (a running game).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn: Option<String>,
    /// The last action, as the channel told it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_move: Option<String>,
    /// How the game ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
}

/// The viewer's own part: only for a player seated in the running game, from that seat's view. What
/// they may do now (`targets`, `dead`, `roll_needed`, `removals`) is what the picker offers them, from
/// the same functions, and only on their turn (else empty).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OwnView {
    /// The viewer's seat.
    pub seat: u8,
    /// Their team.
    pub team: u8,
    /// It is their turn.
    pub your_turn: bool,
    /// Their cards (empty in dice, which has none).
    pub hand: Vec<HandCardView>,
    /// Dice: they must roll before placing a chip.
    pub roll_needed: bool,
    /// Dice, after the roll: the cells a chip may go to.
    pub targets: Vec<String>,
    /// Dice, after a 10: the chips that may be cleared.
    pub removals: Vec<String>,
}

/// A card of the viewer's own hand, and what it may do now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HandCardView {
    /// `7H`, `JS`, or a kids card's English name (`lion`).
    pub code: String,
    /// `7♥`, or the animal's name in the asked language.
    pub label: String,
    /// The cells it may go to now (on their turn).
    pub targets: Vec<String>,
    /// It is dead and may be exchanged now (on their turn, before an exchange this turn).
    pub dead: bool,
}

impl Table {
    /// What `viewer` (`None`: someone not signed in) may see of this table, its texts in `lang`, the
    /// clock read at `now` under `settings` (the server's).
    pub(in crate::service) fn view(
        &self,
        viewer: Option<UserId>,
        lang: Lang,
        now: Timestamp,
        settings: &Settings,
    ) -> TableView {
        let host = Some(self.host);
        let (mut view, seat, own) = match &self.state {
            State::Lobby(lobby) => {
                let view = self.lobby_view(lobby, lang, settings);
                let at = |user| lobby.seats.iter().position(|s| s.player.user() == user);
                (view, at(host), viewer.and_then(|v| at(Some(v))))
            }
            State::Playing(playing) => {
                let public = playing.game().public_view();
                let mut view = self.game_view(playing, &public, lang, now, settings);
                // The hand comes from the viewer's own seat view, and only there.
                view.you = viewer.and_then(|user| playing.seat_of(user)).map(|seat| {
                    own_view(&playing.game().view(seat), &choices(playing, seat), lang)
                });
                let at = |user| playing.seats.iter().position(|p| p.user() == user);
                (view, at(host), viewer.and_then(|v| at(Some(v))))
            }
        };
        view.host = seat.and_then(|i| u8::try_from(i).ok());
        view.seat = own.and_then(|i| u8::try_from(i).ok());
        view
    }

    fn lobby_view(&self, lobby: &Lobby, lang: Lang, settings: &Settings) -> TableView {
        let variant = self.setup.variant;
        let mut teams: Vec<u8> = lobby.seats.iter().filter_map(|s| s.team).collect();
        teams.extend(0..self.setup.teams.unwrap_or(0));
        teams.sort_unstable();
        teams.dedup();
        TableView {
            key: self.created.0,
            token: self.web_token.clone(),
            host: None,
            seat: None,
            phase: if self.is_between_games() {
                Phase::BetweenGames
            } else {
                Phase::Lobby
            },
            game: GameView {
                variant,
                title: game_name(variant, lang),
                king_of_the_board: self.setup.options.king_of_the_board,
                options: self.setup.options,
                players: u8::try_from(lobby.seats.len()).unwrap_or(u8::MAX),
                teams: self.setup.teams,
                to_win: None,
                line_length: None,
                turn_seconds: self.setup.turn_timeout(settings).as_secs(),
                hints_allowed: None,
                rated: self.setup.rated,
                series: self.series_view(),
                paused: self.paused.is_some(),
            },
            teams: teams
                .into_iter()
                .map(|team| team_view(variant, team, lang))
                .collect(),
            seats: lobby
                .seats
                .iter()
                .map(|seat| SeatView {
                    team: seat.team,
                    ..seat_view(&seat.player)
                })
                .collect(),
            board: None,
            texts: StatusTexts::default(),
            you: None,
        }
    }

    /// Everything of a game but the viewer's own part, from `public` (the game's public view) and
    /// what the table keeps in the open (seats, record of the actions, clock).
    fn game_view(
        &self,
        playing: &Playing,
        public: &View,
        lang: Lang,
        now: Timestamp,
        settings: &Settings,
    ) -> TableView {
        let position = &public.position;
        let config = *position.config();
        let variant = config.variant;
        let over = position.is_over() || playing.stopped.is_some();
        let to_move = (!over).then(|| position.to_move());
        let timeout = self.setup.turn_timeout(settings);
        let clock = (self.paused.is_none()).then(|| playing.turn_started.after(timeout));
        let seats = playing
            .seats
            .iter()
            .enumerate()
            .map(|(index, player)| {
                let seat = Seat::try_from(index).unwrap_or(0);
                let moving = to_move == Some(seat);
                let ends = clock.filter(|_| moving && player.user().is_some());
                SeatView {
                    team: Some(config.team_of(seat)),
                    to_move: moving,
                    cards: variant
                        .has_cards()
                        .then(|| public.hand_sizes.get(index).copied().unwrap_or(0)),
                    seconds_left: ends.map(|end| now.seconds_until(end)),
                    turn_ends_at: ends.map(|end| end.0),
                    gave_up: playing
                        .forfeited
                        .iter()
                        .find(|(s, _)| *s == seat)
                        .map(|(_, p)| p.name().to_string()),
                    ..seat_view(player)
                }
            })
            .collect();
        let teams = (0..config.teams)
            .map(|team| TeamView {
                sequences: Some(u8::try_from(position.sequence_count(team)).unwrap_or(u8::MAX)),
                points: config.is_king_of_the_board().then(|| position.points(team)),
                captures: config
                    .options
                    .capture_pairs
                    .then(|| position.captures(team)),
                ..team_view(variant, team, lang)
            })
            .collect();
        let name = |seat: Seat| {
            playing
                .player(seat)
                .map_or_else(|| format!("{}", seat + 1), |p| p.name().to_string())
        };
        let texts = StatusTexts {
            turn: to_move.map(|seat| {
                let computer = matches!(playing.player(seat), Some(Player::Bot { .. }));
                tr_args(
                    lang,
                    if computer { "turn-bot" } else { "view-turn" },
                    &Args::new().text("player", name(seat)),
                )
            }),
            last_move: last_move_line(playing, public, lang, &name),
            result: over.then(|| result_line(playing, public, lang)),
        };
        TableView {
            key: self.created.0,
            token: self.web_token.clone(),
            host: None,
            seat: None,
            phase: if over {
                Phase::Finished
            } else {
                Phase::Playing
            },
            game: GameView {
                variant,
                title: game_name(variant, lang),
                king_of_the_board: config.is_king_of_the_board(),
                options: config.options,
                players: config.players,
                teams: Some(config.teams),
                to_win: Some(position.target()),
                line_length: Some(config.line_length()),
                turn_seconds: timeout.as_secs(),
                hints_allowed: Some(allowed(playing, &self.setup, settings)),
                rated: Some(playing.counts_for_ratings(&self.setup)),
                series: self.series_view(),
                paused: self.paused.is_some(),
            },
            teams,
            seats,
            board: Some(board_view(public, lang, &name)),
            texts,
            you: None,
        }
    }

    fn series_view(&self) -> Option<SeriesView> {
        match &self.series {
            Some(series) => Some(SeriesView {
                best_of: series.best_of,
                needed: series.needed(),
                played: series.played,
                wins: series
                    .team_side
                    .iter()
                    .map(|&side| series.wins.get(usize::from(side)).copied().unwrap_or(0))
                    .collect(),
                over: series.over,
            }),
            None => self.setup.series.map(|best_of| SeriesView {
                best_of,
                needed: best_of / 2 + 1,
                played: 0,
                wins: Vec::new(),
                over: false,
            }),
        }
    }
}

fn seat_view(player: &Player) -> SeatView {
    let (kind, level) = match player {
        Player::Human { .. } => (PlayerKind::Person, None),
        Player::Bot { level, .. } => (PlayerKind::Computer, Some(*level)),
    };
    SeatView {
        name: player.name().to_string(),
        kind,
        level,
        team: None,
        to_move: false,
        cards: None,
        seconds_left: None,
        turn_ends_at: None,
        gave_up: None,
    }
}

pub(super) fn team_view(variant: Variant, team: u8, lang: Lang) -> TeamView {
    let name = TeamName::of(variant, team);
    let colour = crate::render::team_colour(variant, team);
    let [r, g, b, _] = colour.0;
    TeamView {
        team,
        name: name.render(lang),
        colour: name.color,
        rgb: format!("#{r:02x}{g:02x}{b:02x}"),
        sequences: None,
        points: None,
        captures: None,
    }
}

fn card_view(card: Card, lang: Lang) -> CardView {
    CardView {
        code: card.code(),
        label: card_label(card, lang),
    }
}

/// The viewer's own part, from their seat's view and what the picker would offer them (`choices`,
/// empty unless it is their turn).
fn own_view(seat_view: &View, choices: &Choices, lang: Lang) -> OwnView {
    let names = |bits: Bits| cell_names(bits, seat_view);
    OwnView {
        seat: seat_view.seat.unwrap_or(0),
        team: seat_view.team().unwrap_or(0),
        your_turn: seat_view.is_my_turn(),
        hand: seat_view
            .hand
            .iter()
            .enumerate()
            .map(|(index, &card)| {
                let CardView { code, label } = card_view(card, lang);
                // `choices` lists the same hand in the same order; a card is matched by value too,
                // so a list that somehow differs marks nothing rather than the wrong card.
                let (targets, dead) = choices
                    .cards
                    .get(index)
                    .filter(|(c, _, _)| *c == card)
                    .map_or((0, false), |&(_, targets, dead)| (targets, dead));
                HandCardView {
                    code,
                    label,
                    targets: names(targets),
                    dead,
                }
            })
            .collect(),
        roll_needed: choices.roll_needed,
        targets: names(choices.places),
        removals: names(choices.removals),
    }
}

fn cell_names(bits: Bits, public: &View) -> Vec<String> {
    let layout = public.position.layout();
    BitIter(bits).map(|cell| layout.cell_name(cell)).collect()
}

/// The board from the public view: it has no hand to read.
pub(super) fn board_view(public: &View, lang: Lang, name: &dyn Fn(Seat) -> String) -> BoardView {
    let position = &public.position;
    let layout = position.layout();
    let variant = position.config().variant;
    let cards = variant.has_cards();
    let in_sequences: Bits = position.sequences().iter().fold(0, |all, s| all | s.mask);
    let zone = position.zone().map(|centre| (centre, zone_cells(centre)));
    let zone_bits = zone.map_or(0, |(_, bits)| bits);
    let cells = (0..layout.len())
        .filter_map(|index| u8::try_from(index).ok().map(Cell))
        .map(|cell| CellView {
            name: layout.cell_name(cell),
            label: match layout.label(cell) {
                Label::Corner => CellLabel::Corner,
                Label::Card(card) => CellLabel::Card {
                    card: card_view(card, lang),
                },
                Label::Number(number) => CellLabel::Number { number },
            },
            chip: position.owner(cell),
            in_sequence: in_sequences & cell.bit() != 0,
            in_zone: zone_bits & cell.bit() != 0,
        })
        .collect();
    BoardView {
        width: layout.width,
        height: layout.height,
        cells,
        sequences: position
            .sequences()
            .iter()
            .map(|s| SequenceView {
                team: s.team,
                cells: s.cells().iter().map(|&c| layout.cell_name(c)).collect(),
            })
            .collect(),
        last_move: position.last_action().map(|last| LastMoveView {
            seat: last.seat,
            name: name(last.seat),
            cell: layout.cell_name(last.cell),
            removed: last.removed,
            card: last.card.map(|card| card_view(card, lang)),
        }),
        zone: zone.map(|(centre, bits)| ZoneView {
            centre: layout.cell_name(centre),
            cells: cell_names(bits, public),
        }),
        roll: position.roll(),
        draw_pile: cards.then_some(public.draw_pile),
        discard_pile: cards.then_some(public.discard.len()),
        discards: public
            .discard
            .iter()
            .rev()
            .take(DISCARDS_SHOWN)
            .map(|&card| card_view(card, lang))
            .collect(),
        turn: position.plies() - u32::from(position.has_exchanged()),
    }
}

/// The line of the record's last action, as the channel told it (the chip a removal took is the one
/// the last placement on that cell put there: every action is public).
fn last_move_line(
    playing: &Playing,
    public: &View,
    lang: Lang,
    name: &dyn Fn(Seat) -> String,
) -> Option<String> {
    let position = &public.position;
    let config = position.config();
    let layout = position.layout();
    let moves: Vec<(Seat, Move)> = playing
        .live
        .record()
        .actions
        .iter()
        .filter_map(|a| {
            a.to_move(config.variant, layout)
                .ok()
                .map(|mv| (a.seat, mv))
        })
        .collect();
    let (&(seat, mv), earlier) = moves.split_last()?;
    // The team whose chip was on `cell` before the last action.
    let owner_before = |cell: Cell| {
        earlier.iter().rev().find_map(|&(s, m)| match m {
            Move::Play { card, cell: c } if c == cell => {
                (card.effect() != CardEffect::Remove).then(|| position.team_of(s))
            }
            Move::Place { cell: c } if c == cell => Some(position.team_of(s)),
            _ => None,
        })
    };
    let team = |team: u8| TeamName::of(config.variant, team).render(lang);
    let player = name(seat);
    let cell_name = |cell: Cell| layout.cell_name(cell);
    Some(match mv {
        Move::Play { card, cell } if card.effect() == CardEffect::Remove => {
            let args = Args::new()
                .text("player", player)
                .text("card", card_label(card, lang))
                .text("cell", cell_name(cell));
            match owner_before(cell) {
                Some(victim) => tr_args(
                    lang,
                    "removed-with-card",
                    &args.text("victim", team(victim)),
                ),
                None => tr_args(lang, "played", &args),
            }
        }
        Move::Play { card, cell } => tr_args(
            lang,
            "played",
            &Args::new()
                .text("player", player)
                .text("card", card_label(card, lang))
                .text("cell", cell_name(cell)),
        ),
        Move::Exchange { card } => tr_args(
            lang,
            "exchanged",
            &Args::new()
                .text("player", player)
                .text("card", card_label(card, lang)),
        ),
        Move::Place { cell } => {
            let args = Args::new()
                .text("player", player)
                .text("cell", cell_name(cell));
            match owner_before(cell).filter(|&t| t != position.team_of(seat)) {
                Some(victim) => {
                    tr_args(lang, "placed-replacing", &args.text("victim", team(victim)))
                }
                None => tr_args(lang, "placed", &args),
            }
        }
        Move::Remove { cell } => {
            let args = Args::new()
                .text("player", player)
                .text("cell", cell_name(cell));
            let victim = owner_before(cell).unwrap_or(0);
            tr_args(lang, "removed", &args.text("victim", team(victim)))
        }
        Move::Pass => tr_args(lang, "passed", &Args::new().text("player", player)),
    })
}

/// How the game ended: the winning team and its players, a draw, a win by giving up, or a stop.
fn result_line(playing: &Playing, public: &View, lang: Lang) -> String {
    let config = public.position.config();
    ending_line(
        public.position.status(),
        &playing.winners(),
        playing.stopped == Some(Stop::Moderator),
        config.variant,
        lang,
        |team| {
            (0..config.players)
                .filter(|&seat| config.team_of(seat) == team)
                .filter_map(|seat| playing.original_player(seat))
                .map(|p| p.name().to_string())
                .collect()
        },
    )
}

/// How a game ended, in `lang`, for the live view and the replay alike: `status` of its last
/// position, the teams that `winners` names when that position still runs (given up, stopped),
/// whether a moderator stopped it, and the names of each team's players.
pub(super) fn ending_line(
    status: Status,
    winners: &[u8],
    moderator_stop: bool,
    variant: Variant,
    lang: Lang,
    players_of: impl Fn(u8) -> Vec<String>,
) -> String {
    let team = |team: u8| TeamName::of(variant, team).render(lang);
    let mut tr = Tr::new(lang);
    let won = |key: &str, winner: u8, tr: &mut Tr| {
        let players = join_list(tr, &players_of(winner));
        tr.ta(
            key,
            &Args::new()
                .text("team", team(winner))
                .text("players", players),
        )
    };
    let line = match (status, winners) {
        (Status::Won(winner), _) => won("won", winner, &mut tr),
        (Status::Drawn, _) => tr.t("drawn"),
        (Status::InProgress, [winner]) => won("won-by-forfeit", *winner, &mut tr),
        (Status::InProgress, []) if moderator_stop => tr.t("stopped-ack"),
        (Status::InProgress, []) => tr.t("drawn"),
        (Status::InProgress, winners) => {
            let names: Vec<String> = winners.iter().map(|&t| team(t)).collect();
            let teams = join_list(&mut tr, &names);
            tr.ta("shared-win", &Args::new().text("teams", teams))
        }
    };
    tr.finish();
    line
}

#[cfg(test)]
impl Table {
    /// This table with every hidden thing replaced: the hands and the draw pile dealt anew at random
    /// from the cards nobody sees, and the record's deck and seed changed. A watcher's view of it
    /// must equal the view of the real table (`service::tests::view`).
    pub(in crate::service) fn with_hidden_replaced(&self, seed: u64) -> Table {
        let mut table = self.clone();
        if let State::Playing(playing) = &mut table.state {
            let mut rng = crate::engine::GameRng::new(seed);
            let public = playing.live.game.public_view();
            let game = crate::engine::Game::sample_from_view(&public, &mut rng);
            let mut record = playing.live.record.clone();
            if let Some(deck) = &mut record.deck {
                rng.shuffle(deck);
            }
            record.seed = record.seed.map(|s| s ^ seed.max(1));
            playing.live = super::LiveGame { record, game };
        }
        table
    }
}
