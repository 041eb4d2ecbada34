//! Plays classic Sequence through the stand-in the way people would: `/sequence start`, Join and Start
//! buttons, then each turn the player to move (the one the bot mentioned) asks autocomplete for their
//! cards and cells and plays the best-looking move with `/sequence play`. The test keeps its own picture
//! of the board from the moves it made, to choose moves and to check autocomplete and the final record.

use std::collections::HashMap;
use std::time::Duration;

use sequence_bot::engine::{BitIter, Bits, Card, CardEffect, Cell, Layout, Variant};

use super::fake_discord::{FakeDiscord, FakeUser, Interaction, StoredMessage};

/// How long one step (a reply, a DM) may take.
pub const STEP: Duration = Duration::from_secs(10);

/// A move the test made, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Played {
    /// A card on (or, one-eyed jack, off) a cell.
    Play {
        /// Seat in turn order.
        seat: usize,
        /// Card code, e.g. `7H`.
        card: String,
        /// Cell name, e.g. `D6`.
        cell: String,
    },
    /// A dead card exchanged.
    Exchange {
        /// Seat in turn order.
        seat: usize,
        /// Card code.
        card: String,
    },
}

impl Played {
    /// The plays and exchanges of a game record (passes left out), in order.
    pub fn all_in_record(record: &serde_json::Value) -> Vec<Played> {
        record["actions"]
            .as_array()
            .expect("actions")
            .iter()
            .filter(|a| a.get("pass").is_none())
            .map(|a| {
                let seat = a["seat"].as_u64().unwrap_or(99) as usize;
                match a.get("exchange") {
                    Some(card) => Played::Exchange {
                        seat,
                        card: card.as_str().unwrap_or("").to_string(),
                    },
                    None => Played::Play {
                        seat,
                        card: a["play"].as_str().unwrap_or("").to_string(),
                        cell: a["cell"].as_str().unwrap_or("").to_string(),
                    },
                }
            })
            .collect()
    }
}

/// An autocomplete suggestion.
#[derive(Clone, Debug)]
pub struct Suggestion {
    /// What the user sees.
    pub label: String,
    /// What is filled in.
    pub value: String,
}

/// The board as the test knows it: each team's chips.
#[derive(Clone, Debug)]
pub struct Mirror {
    /// The classic layout.
    pub layout: &'static Layout,
    /// Chips per team.
    pub chips: Vec<Bits>,
}

impl Mirror {
    /// An empty board for `teams` teams.
    pub fn new(teams: usize) -> Mirror {
        Mirror {
            layout: Layout::standard(Variant::Classic),
            chips: vec![0; teams],
        }
    }

    /// Occupied cells.
    pub fn occupied(&self) -> Bits {
        self.chips.iter().fold(0, |a, &b| a | b)
    }

    /// Empty playable cells (not corners).
    pub fn empty(&self) -> Bits {
        self.layout.all & !self.layout.corners & !self.occupied()
    }

    /// Cells a `card` may target for `team`, by the rules (without locked sequences).
    pub fn targets(&self, team: usize, card: Card) -> Bits {
        match card.effect() {
            CardEffect::Cells => self.layout.cells_of_card(card) & self.empty(),
            CardEffect::Wild => self.empty(),
            CardEffect::Remove => self.occupied() & !self.chips[team],
        }
    }

    /// How good placing (or, `removing`, taking) a chip on `cell` looks for `team`.
    pub fn score(&self, team: usize, cell: Cell, removing: bool) -> i64 {
        let own = self.chips[team] | self.layout.corners;
        let theirs = self.occupied() & !self.chips[team];
        let mut best_own = 0;
        let mut best_block = 0;
        let mut total = 0;
        for &window in self.layout.windows_through(cell, 5) {
            if window & theirs == 0 {
                let n = (window & own).count_ones() as i64;
                best_own = best_own.max(n);
                total += n;
            }
            if window & self.chips[team] == 0 {
                let n = (window & (theirs | self.layout.corners)).count_ones() as i64;
                best_block = best_block.max(n);
            }
        }
        if removing {
            // Worth a one-eyed jack only to break an opponent's four.
            return if best_block >= 4 { 500 } else { -1000 };
        }
        best_own * best_own * 20 + best_block * best_block * 12 + total
    }

    /// Applies a move of `team`.
    pub fn apply(&mut self, team: usize, card: Card, cell: Cell) {
        if card.effect() == CardEffect::Remove {
            for chips in &mut self.chips {
                *chips &= !cell.bit();
            }
        } else {
            self.chips[team] |= cell.bit();
        }
    }

    /// The board rows as `replay` prints them (`.` empty, `*` corner, team digits).
    pub fn rows(&self) -> Vec<String> {
        let width = self.layout.width;
        (0..self.layout.height)
            .map(|row| {
                (0..width)
                    .map(|col| {
                        let cell = Cell::at(col, row, width);
                        if self.layout.corners & cell.bit() != 0 {
                            return '*';
                        }
                        match self.chips.iter().position(|c| c & cell.bit() != 0) {
                            Some(team) => char::from(b'0' + team as u8),
                            None => '.',
                        }
                    })
                    .collect()
            })
            .collect()
    }
}

/// One classic table played by the test.
pub struct TableDriver<'a> {
    /// The stand-in.
    pub fake: &'a FakeDiscord,
    /// The game channel.
    pub channel: u64,
    /// Players in turn order.
    pub seats: Vec<FakeUser>,
    /// Team of each seat.
    pub team_of: Vec<usize>,
    /// The board as the test knows it.
    pub mirror: Mirror,
    /// Every move made, in order.
    pub played: Vec<Played>,
    /// The lobby message.
    pub lobby: u64,
    /// How many DMs each user had when the game started.
    pub hands_seen: HashMap<u64, usize>,
    /// Whether to look at every card and cell before choosing (slower, more checks); otherwise the
    /// first ordinary card with a free cell is played.
    pub thorough: bool,
}

/// What a turn ended with.
pub enum TurnEnd {
    /// The game goes on; the next player was mentioned.
    Next,
    /// The game ended; the final message.
    Over(Box<StoredMessage>),
}

/// A post that follows an earlier game's final message on its own time (its replay GIF, or the players'
/// agreement with the computer): in a series the next game may already be under way when it comes.
pub fn is_follow_up(m: &StoredMessage) -> bool {
    m.attachments.iter().any(|a| a.filename == "replay.gif")
        || m.content.contains(", move by move.")
        || m.content.contains("Agreement with the computer")
}

fn err<T>(what: impl Into<String>) -> Result<T, String> {
    Err(what.into())
}

/// The private confirmation that a command was carried out (its result is posted in the channel).
pub const DONE: &str = "Done: see the channel.";

/// Waits for the answer to a command that changes the table: the bot acknowledges privately, then
/// posts its result as new public messages. `Ok(())` when it was carried out; the refusal otherwise.
pub async fn carried_out(fake: &FakeDiscord, command: &Interaction) -> Result<(), String> {
    let answer = fake.wait_reply(command, STEP).await?;
    if !answer.is_ephemeral() {
        return err(format!("a command is answered privately: {answer:?}"));
    }
    // The confirmations of assets/locales/en-US/sequence.ftl (`done` and the other acks).
    const ACKS: [&str; 10] = [
        DONE,
        "Your game is open.",
        "You have joined the game.",
        "You have left the game.",
        " has joined.",
        " has left.",
        "The lobby is closed.",
        "The game has started.",
        "You have given up this game.",
        "The game is stopped.",
    ];
    if ACKS.iter().any(|ack| answer.content.contains(ack)) {
        Ok(())
    } else {
        err(answer.content)
    }
}

/// The first public message in `channel` after the first `skip` that `matches`, once posted.
pub async fn posted_after(
    fake: &FakeDiscord,
    channel: u64,
    skip: usize,
    what: &str,
    matches: impl Fn(&StoredMessage) -> bool,
) -> Result<StoredMessage, String> {
    fake.shared()
        .wait_for(STEP, what, &[channel], |s| {
            s.messages_in(channel)
                .into_iter()
                .skip(skip)
                .find(|m| !m.is_ephemeral() && matches(m))
                .cloned()
        })
        .await
}

/// A command that changes the table was given in `channel`: once carried out, the first public message
/// posted after it that `matches`.
pub async fn public_result(
    fake: &FakeDiscord,
    command: &Interaction,
    channel: u64,
    what: &str,
    matches: impl Fn(&StoredMessage) -> bool,
) -> Result<StoredMessage, String> {
    let skip = fake
        .messages_in(channel)
        .iter()
        .take_while(|m| m.id < command.id)
        .count();
    carried_out(fake, command).await?;
    posted_after(fake, channel, skip, what, matches).await
}

/// The message with the game record (`.json`) that `command` (a stop, a last move) made the bot post.
pub async fn record_after(
    fake: &FakeDiscord,
    command: &Interaction,
    channel: u64,
) -> Result<StoredMessage, String> {
    public_result(fake, command, channel, "the game record", |m| {
        m.attachments.iter().any(|a| a.filename.ends_with(".json"))
    })
    .await
}

/// `/sequence start` was given in `channel`: its lobby message, once posted (public, with Join).
pub async fn lobby_of(
    fake: &FakeDiscord,
    start: &Interaction,
    channel: u64,
) -> Result<StoredMessage, String> {
    let skip = fake
        .messages_in(channel)
        .iter()
        .take_while(|m| m.id < start.id)
        .count();
    carried_out(fake, start).await?;
    posted_after(fake, channel, skip, "the lobby", |m| {
        m.custom_ids().contains(&"sequence:join".to_string())
    })
    .await
}

/// The last user mentioned in `text` before "it is your turn", if any.
/// Plays the first card of `user`'s hand (as autocomplete offers it) that has a free cell; when no card
/// has one, exchanges a dead card and tries again. Returns the channel post of the move.
pub async fn play_first_fit(
    fake: &FakeDiscord,
    user: &FakeUser,
    channel: u64,
) -> Result<StoredMessage, String> {
    play_first_fit_timed(fake, user, channel)
        .await
        .map(|(_, posted)| posted)
}

/// [`play_first_fit`], with the moment just before the move's `/sequence play` was sent (for the
/// bot's answer time: from then to the post of the move).
pub async fn play_first_fit_timed(
    fake: &FakeDiscord,
    user: &FakeUser,
    channel: u64,
) -> Result<(std::time::Instant, StoredMessage), String> {
    let choices = |answer: &super::fake_discord::Callback| -> Vec<String> {
        answer.data["choices"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| c["value"].as_str().map(str::to_string))
            .collect()
    };
    for _ in 0..3 {
        let asked = fake.autocomplete(
            user,
            channel,
            "sequence play",
            &[("card", ""), ("cell", "")],
            "card",
        )?;
        let cards = choices(&fake.wait_callback(&asked, STEP).await?);
        for card in &cards {
            let asked = fake.autocomplete(
                user,
                channel,
                "sequence play",
                &[("card", card.as_str()), ("cell", "")],
                "cell",
            )?;
            let cells = choices(&fake.wait_callback(&asked, STEP).await?);
            let Some(cell) = cells.first() else {
                continue;
            };
            let skip = fake.messages_in(channel).len();
            let sent = std::time::Instant::now();
            let play = fake.slash(
                user,
                channel,
                "sequence play",
                &[("card", card.as_str()), ("cell", cell.as_str())],
            )?;
            carried_out(fake, &play)
                .await
                .map_err(|e| format!("playing {card} on {cell}: {e}"))?;
            // The move is posted after the private confirmation (with the board, unless a computer
            // moves next and posts it).
            return posted_after(fake, channel, skip, "the move's post", |m| m.id > play.id)
                .await
                .map(|posted| (sent, posted));
        }
        let asked =
            fake.autocomplete(user, channel, "sequence exchange", &[("card", "")], "card")?;
        let dead = choices(&fake.wait_callback(&asked, STEP).await?);
        let card = dead
            .first()
            .ok_or("no card has a free cell and none is dead")?;
        let exchange = fake.slash(
            user,
            channel,
            "sequence exchange",
            &[("card", card.as_str())],
        )?;
        carried_out(fake, &exchange).await?;
    }
    err("no move after exchanging twice")
}

pub fn turn_mention(text: &str) -> Option<u64> {
    let at = text.rfind("it is your turn")?;
    let before = &text[..at];
    let start = before.rfind("<@")?;
    super::fake_discord::model::mentioned_ids(&before[start..])
        .first()
        .copied()
}

/// Seats in turn order and their teams, from the message that started the game.
fn seating(
    started: &StoredMessage,
    everyone: &[FakeUser],
    teams: usize,
) -> Result<(Vec<FakeUser>, Vec<usize>), String> {
    let mut seats = Vec::new();
    let mut team_of = Vec::new();
    for line in started.content.lines() {
        let Some(rest) = line.split_once(". ") else {
            continue;
        };
        if !rest.0.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        let ids = super::fake_discord::model::mentioned_ids(rest.1);
        let Some(user) = ids
            .first()
            .and_then(|id| everyone.iter().find(|u| u.id == *id))
        else {
            continue;
        };
        let team = rest
            .1
            .to_lowercase()
            .split("team ")
            .nth(1)
            .and_then(|t| t.chars().next()?.to_digit(10))
            .map(|t| t as usize - 1)
            .unwrap_or(seats.len() % teams);
        seats.push(user.clone());
        team_of.push(team);
    }
    if seats.len() != everyone.len() {
        return err(format!(
            "the start message should list all {} players in turn order: {}",
            everyone.len(),
            started.content
        ));
    }
    Ok((seats, team_of))
}

impl<'a> TableDriver<'a> {
    /// Opens a classic game for `teams` teams in `channel`: `host` starts, the others join (by button
    /// and by command, alternately), the host presses Start. Checks the lobby and start messages.
    pub async fn open(
        fake: &'a FakeDiscord,
        channel: u64,
        host: &FakeUser,
        others: &[FakeUser],
        teams: usize,
    ) -> Result<TableDriver<'a>, String> {
        let teams_text = teams.to_string();
        let start = fake.slash(
            host,
            channel,
            "sequence start",
            &[("game", "classic"), ("teams", teams_text.as_str())],
        )?;
        let lobby = lobby_of(fake, &start, channel).await?;
        for (i, user) in others.iter().enumerate() {
            if i % 2 == 0 {
                let press = fake.click(user, lobby.id, "sequence:join")?;
                let updated = fake.wait_reply(&press, STEP).await?;
                if !updated.content.contains(&format!("<@{}>", user.id)) {
                    return err(format!(
                        "the lobby should list {}: {}",
                        user.name, updated.content
                    ));
                }
            } else {
                let join = fake.slash(user, channel, "sequence join", &[])?;
                let answer = fake.wait_reply(&join, STEP).await?;
                if !answer.is_ephemeral() {
                    return err(format!("a join confirmation is private: {answer:?}"));
                }
            }
        }
        let before = fake.messages_in(channel).len();
        let begin = fake.click(host, lobby.id, "sequence:begin")?;
        fake.wait_callback(&begin, STEP).await?;
        let started = fake
            .shared()
            .wait_for(STEP, "the game to start", &[channel], |s| {
                s.messages_in(channel)
                    .into_iter()
                    .skip(before)
                    .find(|m| m.content.contains("begins!"))
                    .cloned()
            })
            .await?;
        let everyone: Vec<FakeUser> = std::iter::once(host.clone())
            .chain(others.iter().cloned())
            .collect();
        let (seats, team_of) = seating(&started, &everyone, teams)?;
        if turn_mention(&started.content) != Some(seats[0].id) {
            return err(format!(
                "the first seat should be asked to move: {}",
                started.content
            ));
        }
        let mut hands_seen = HashMap::new();
        let header = format!("Your cards in <#{channel}>");
        for user in &seats {
            let id = user.id;
            fake.shared()
                .wait_for(STEP, "the hands by DM", &[id], |s| {
                    let dm = s.dm_channel_of(id)?;
                    s.messages_in(dm)
                        .iter()
                        .any(|m| m.content.starts_with(&header))
                        .then_some(())
                })
                .await?;
            hands_seen.insert(id, fake.dms_to(id).len());
        }
        Ok(TableDriver {
            fake,
            channel,
            seats,
            team_of,
            mirror: Mirror::new(teams),
            played: Vec::new(),
            lobby: lobby.id,
            hands_seen,
            thorough: true,
        })
    }

    /// Takes over a game already running in `channel` (after the bot restarted): the seats come from
    /// the start message, the board from the moves made so far.
    pub async fn resume(
        fake: &'a FakeDiscord,
        channel: u64,
        players: &[FakeUser],
        teams: usize,
        played: &[Played],
    ) -> Result<TableDriver<'a>, String> {
        let started = fake
            .messages_in(channel)
            .into_iter()
            .find(|m| m.content.contains("begins!"))
            .ok_or("no start message in the channel")?;
        let (seats, team_of) = seating(&started, players, teams)?;
        let mut mirror = Mirror::new(teams);
        for action in played {
            if let Played::Play { seat, card, cell } = action {
                let card = Card::parse(card, Variant::Classic).ok_or("card")?;
                let cell = mirror.layout.parse_cell(cell).ok_or("cell")?;
                mirror.apply(team_of[*seat], card, cell);
            }
        }
        let lobby = fake.messages_in(channel).first().map_or(0, |m| m.id);
        Ok(TableDriver {
            fake,
            channel,
            seats,
            team_of,
            mirror,
            played: played.to_vec(),
            lobby,
            hands_seen: HashMap::new(),
            thorough: true,
        })
    }

    /// The seat of a user.
    pub fn seat_of(&self, user_id: u64) -> Option<usize> {
        self.seats.iter().position(|u| u.id == user_id)
    }

    /// The user the latest channel message asks to move.
    pub fn to_move(&self) -> Option<usize> {
        let messages = self.fake.messages_in(self.channel);
        let id = messages
            .iter()
            .rev()
            .filter(|m| !m.is_ephemeral())
            .find_map(|m| turn_mention(&m.content))?;
        self.seat_of(id)
    }

    /// The latest hand DM of a user (lines without the bullet).
    pub fn hand_lines(&self, user: &FakeUser) -> Vec<String> {
        // A player may sit at several tables: take the latest hand of this one.
        let header = format!("Your cards in <#{}>", self.channel);
        let dms = self.fake.dms_to(user.id);
        let Some(last) = dms.iter().rev().find(|m| m.content.starts_with(&header)) else {
            return Vec::new();
        };
        last.content
            .lines()
            .filter_map(|l| l.strip_prefix("• "))
            .map(str::to_string)
            .collect()
    }

    /// Asks autocomplete, as `user` typing `options` with the cursor in `focused`.
    pub async fn suggest(
        &self,
        user: &FakeUser,
        path: &str,
        options: &[(&str, &str)],
        focused: &str,
    ) -> Result<Vec<Suggestion>, String> {
        let asked = self
            .fake
            .autocomplete(user, self.channel, path, options, focused)?;
        let answer = self.fake.wait_callback(&asked, STEP).await?;
        if answer.kind != 8 {
            return err(format!("autocomplete answered with type {}", answer.kind));
        }
        Ok(answer.data["choices"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| Suggestion {
                label: c["name"].as_str().unwrap_or("").to_string(),
                value: match &c["value"] {
                    serde_json::Value::String(s) => s.clone(),
                    other => other.to_string(),
                },
            })
            .collect())
    }

    /// Plays one turn of the player the bot asked to move.
    pub async fn play_turn(&mut self) -> Result<TurnEnd, String> {
        let seat = self.to_move().ok_or("nobody is asked to move")?;
        let user = self.seats[seat].clone();
        let team = self.team_of[seat];
        let layout = self.mirror.layout;
        let mut exchanged = false;
        let mut thorough = self.thorough;
        loop {
            let cards = self
                .suggest(
                    &user,
                    "sequence play",
                    &[("card", ""), ("cell", "")],
                    "card",
                )
                .await?;
            // Autocomplete shows exactly the caller's own cards, as in their hand DM (the cells listed
            // there may be older: other players moved since). The DM of a hand is posted after the
            // move's board and may wait for the server's posting budget, so a busy machine can show
            // the next turn before it arrives: the newest DM is awaited for a while.
            let card_of = |line: &str| line.split(" — ").next().unwrap_or("").to_string();
            let same_cards = |hand: &[String]| {
                cards.iter().all(|card| {
                    hand.iter()
                        .any(|line| card_of(line) == card_of(&card.label))
                })
            };
            let mut hand = self.hand_lines(&user);
            let waited = std::time::Instant::now();
            while !same_cards(&hand) && waited.elapsed() < STEP {
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                hand = self.hand_lines(&user);
            }
            for card in &cards {
                if !hand
                    .iter()
                    .any(|line| card_of(line) == card_of(&card.label))
                {
                    return err(format!(
                        "{}: suggested card {:?} is not in the hand {hand:?}",
                        user.name, card.label
                    ));
                }
            }
            if cards.is_empty() || cards.len() > hand.len() {
                return err(format!(
                    "{}: suggestions {cards:?} for hand {hand:?}",
                    user.name
                ));
            }
            let mut best: Option<(i64, String, String)> = None;
            for suggestion in &cards {
                let card = Card::parse(&suggestion.value, Variant::Classic).ok_or_else(|| {
                    format!("suggested card {:?} does not parse", suggestion.value)
                })?;
                let legal = self.mirror.targets(team, card);
                let removing = card.effect() == CardEffect::Remove;
                if !thorough && card.effect() != CardEffect::Cells {
                    continue;
                }
                if !thorough && best.is_some() {
                    break;
                }
                let candidates: Vec<Cell> = if card.effect() == CardEffect::Wild {
                    // Suggestions stop at 25 cells: pick from the board, then check by typing it.
                    BitIter(legal).collect()
                } else {
                    let cells = self
                        .suggest(
                            &user,
                            "sequence play",
                            &[("card", suggestion.value.as_str()), ("cell", "")],
                            "cell",
                        )
                        .await?;
                    let mut parsed = Vec::new();
                    for c in &cells {
                        let cell = layout.parse_cell(&c.value).ok_or_else(|| {
                            format!("suggested cell {:?} does not parse", c.value)
                        })?;
                        if legal & cell.bit() == 0 {
                            return err(format!(
                                "{}: cell {} suggested for {} is not legal",
                                user.name, c.value, suggestion.value
                            ));
                        }
                        parsed.push(cell);
                    }
                    if !removing && parsed.len() != BitIter(legal).count().min(25) {
                        return err(format!(
                            "{}: cells {cells:?} for {} should be every free cell of the card",
                            user.name, suggestion.value
                        ));
                    }
                    parsed
                };
                for cell in candidates {
                    let score = self.mirror.score(team, cell, removing);
                    if best.as_ref().is_none_or(|(s, _, _)| score > *s) {
                        best = Some((score, suggestion.value.clone(), layout.cell_name(cell)));
                    }
                }
            }
            let Some((_, card, cell)) = best.filter(|(s, _, _)| *s > -1000) else {
                if !thorough {
                    // No ordinary card fits: look at the jacks too.
                    thorough = true;
                    continue;
                }
                if exchanged {
                    return err(format!("{}: no move after an exchange", user.name));
                }
                // Every card is dead (or only a one-eyed jack is left): exchange a dead card.
                let dead = self
                    .suggest(&user, "sequence exchange", &[("card", "")], "card")
                    .await?;
                let Some(first) = dead.first() else {
                    return err(format!("{}: no move and no dead card", user.name));
                };
                let posts_before = self.fake.messages_in(self.channel).len();
                let exchange = self.fake.slash(
                    &user,
                    self.channel,
                    "sequence exchange",
                    &[("card", first.value.as_str())],
                )?;
                self.played.push(Played::Exchange {
                    seat,
                    card: first.value.clone(),
                });
                // The exchange is told privately until the move that follows.
                let told = self.fake.wait_reply(&exchange, STEP).await?;
                if told.is_ephemeral() && told.content.contains("exchanged the dead card") {
                    exchanged = true;
                    continue;
                }
                // Else the new card has no move either: the turn passes (RULES.md), and the
                // channel says the exchange and the pass with the next prompt (or the end).
                carried_out(self.fake, &exchange).await?;
                let passed = posted_after(
                    self.fake,
                    self.channel,
                    posts_before,
                    "the pass after an exchange",
                    |m| {
                        m.id > exchange.id
                            && (turn_mention(&m.content).is_some()
                                || m.attachments.iter().any(|a| a.filename.ends_with(".json")))
                    },
                )
                .await?;
                if !says_pass(&passed, user.id) {
                    return err(format!(
                        "{}: the exchange ended the turn without a pass: {}",
                        user.name, passed.content
                    ));
                }
                if passed
                    .attachments
                    .iter()
                    .any(|a| a.filename.ends_with(".json"))
                {
                    return Ok(TurnEnd::Over(Box::new(passed)));
                }
                return Ok(TurnEnd::Next);
            };
            if layout
                .parse_cell(&cell)
                .and_then(|c| Card::parse(&card, Variant::Classic).map(|k| (c, k)))
                .is_some_and(|(_, k)| k.effect() == CardEffect::Wild)
            {
                let typed = self
                    .suggest(
                        &user,
                        "sequence play",
                        &[("card", card.as_str()), ("cell", cell.as_str())],
                        "cell",
                    )
                    .await?;
                if !typed.iter().any(|c| c.value == cell) {
                    return err(format!(
                        "{}: typing {cell} for the jack {card} should suggest it: {typed:?}",
                        user.name
                    ));
                }
            }
            let hands_before = hand_versions(self.fake, user.id);
            let posts_before = self.fake.messages_in(self.channel).len();
            let play = self.fake.slash(
                &user,
                self.channel,
                "sequence play",
                &[("card", card.as_str()), ("cell", cell.as_str())],
            )?;
            if let Err(refusal) = carried_out(self.fake, &play).await {
                return err(format!(
                    "{} playing {card} on {cell}: refused: {refusal}",
                    user.name
                ));
            }
            // The move is posted as a new message with the board.
            let reply = posted_after(
                self.fake,
                self.channel,
                posts_before,
                "the board after a move",
                |m| {
                    m.id > play.id
                        && m.attachments.iter().any(|a| a.filename.ends_with(".png"))
                        && (turn_mention(&m.content).is_some()
                            || m.attachments.iter().any(|a| a.filename.ends_with(".json")))
                },
            )
            .await?;
            let parsed_card = Card::parse(&card, Variant::Classic).ok_or("card")?;
            let parsed_cell = layout.parse_cell(&cell).ok_or("cell")?;
            self.mirror.apply(team, parsed_card, parsed_cell);
            self.played.push(Played::Play { seat, card, cell });
            if reply
                .attachments
                .iter()
                .any(|a| a.filename.ends_with(".json"))
            {
                return Ok(TurnEnd::Over(Box::new(reply)));
            }
            // The mover's new hand comes by DM, to them only: their hand message edited (or a new
            // one, if the edit was refused).
            let id = user.id;
            self.fake
                .shared()
                .wait_for(STEP, "the mover's new hand", &[id], |s| {
                    let dm = s.dm_channel_of(id)?;
                    let versions: usize = s.messages_in(dm).iter().map(|m| 1 + m.edits).sum();
                    (versions > hands_before).then_some(())
                })
                .await?;
            let next = turn_mention(&reply.content).ok_or_else(|| {
                format!(
                    "the reply to a move should mention the next player: {}",
                    reply.content
                )
            })?;
            let next_seat = self.seat_of(next).ok_or("the next player is not seated")?;
            if next_seat != (seat + 1) % self.seats.len() {
                // Someone could not move and passed: allowed, but say so in the log.
                eprintln!("seat {seat} moved, then seat {next_seat} is asked (a pass?)");
            }
            let allowed: Vec<String> = reply.allowed_mentions["users"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|u| u.as_str().map(str::to_string))
                .collect();
            if allowed != vec![next.to_string()] {
                return err(format!(
                    "only the next player should be pinged, allowed mentions: {:?}",
                    reply.allowed_mentions
                ));
            }
            return Ok(TurnEnd::Next);
        }
    }
}

// ----- games played with buttons and menus only (issue 16) -----

/// What a game played by presses has seen, for the test to check.
#[derive(Debug, Default)]
pub struct PressStats {
    /// Turns played.
    pub turns: usize,
    /// Picker steps updated in place (UPDATE_MESSAGE).
    pub updates: usize,
    /// Menu choices made (rows of a jack, unicorn, dragon, or a dice 11 or 10).
    pub menu_choices: usize,
    /// Dead cards exchanged.
    pub exchanges: usize,
    /// Pickers that showed the hand picture.
    pub hand_pictures: usize,
    /// Presses of a past turn's picker step, answered in place.
    pub stale_steps: usize,
    /// Dice turns whose roll and move came in one channel message.
    pub dice_turns: usize,
}

/// A small deterministic random stream for the test's choices.
pub struct Dice(u64);

impl Dice {
    /// A stream from `seed`.
    pub fn new(seed: u64) -> Dice {
        Dice(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// A number below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// How many versions of DMs `user` has been shown: each DM counts once, and once more for each edit
/// (a changed hand edits the hand message).
pub fn hand_versions(fake: &FakeDiscord, user: u64) -> usize {
    fake.dms_to(user).iter().map(|m| 1 + m.edits).sum()
}

/// The turn prompt's Play (dice: Roll) button id of a message, if it has one.
pub fn play_button(message: &StoredMessage) -> Option<String> {
    message.custom_ids().into_iter().find(|id| {
        id.starts_with("sequence:p:") && (id.ends_with(":play") || id.ends_with(":roll"))
    })
}

/// The player a turn prompt asks to move: the one it pings (a double in dice says "roll again").
pub fn mover_of(prompt: &StoredMessage) -> Result<u64, String> {
    prompt.allowed_mentions["users"]
        .as_array()
        .and_then(|users| users.first())
        .and_then(|u| u.as_str())
        .and_then(|u| u.parse::<u64>().ok())
        .or_else(|| turn_mention(&prompt.content))
        .ok_or_else(|| format!("nobody is asked to move: {}", prompt.content))
}

/// Waits until `press` on message `message_id` was answered in place: by an UPDATE_MESSAGE (type 7)
/// or, when the answer was not ready within Discord's window (its picture behind the drawing queue on
/// a busy machine), by a deferred update (6) and then the edit of the pressed message. The message as
/// updated.
pub async fn updated_in_place(
    fake: &FakeDiscord,
    press: &Interaction,
    message_id: u64,
) -> Result<StoredMessage, String> {
    let callback = fake.wait_callback(press, STEP).await?;
    match callback.kind {
        7 => {}
        // A deferred update: the press must edit the pressed message through its token (`PATCH
        // @original`); a private follow-up may come beside it, before or after the edit.
        6 => {
            let id = press.id;
            fake.shared()
                .wait_for(STEP, "the pressed message edited in place", &[id], |s| {
                    let i = s.interactions.get(&id)?;
                    (i.edited_original && i.message_id == Some(message_id)).then_some(())
                })
                .await
                .map_err(|e| {
                    format!("a press answered in place edits the pressed message ({e})")
                })?;
        }
        kind => {
            return err(format!(
                "a press answered in place is an update (7, or 6 and an edit), not type {kind}"
            ))
        }
    }
    fake.message(message_id)
        .ok_or_else(|| "the pressed message is gone".into())
}

/// The id of `human`'s turn prompt in `channel` (a message with a Play button that notified them),
/// the first among the messages after the first `skip`.
pub async fn notified_prompt_after(
    fake: &FakeDiscord,
    channel: u64,
    human: u64,
    skip: usize,
) -> Result<u64, String> {
    fake.shared()
        .wait_for(STEP, "the human's turn prompt", &[channel], |s| {
            s.messages_in(channel)
                .into_iter()
                .skip(skip)
                .find(|m| {
                    m.custom_ids().iter().any(|id| id.ends_with(":play"))
                        && m.notified.contains(&human)
                })
                .map(|m| m.id)
        })
        .await
}

/// The latest public message of `channel` with a Play (or Roll) button.
pub fn latest_prompt(fake: &FakeDiscord, channel: u64) -> Option<StoredMessage> {
    fake.messages_in(channel)
        .into_iter()
        .rev()
        .filter(|m| !m.is_ephemeral())
        .find(|m| play_button(m).is_some())
}

/// Everything a user may press on a picker message: enabled buttons (not Back) and each option of a
/// menu, as (custom id, menu value).
pub fn choices(message: &StoredMessage) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    for row in message.components.as_array().into_iter().flatten() {
        for component in row["components"].as_array().into_iter().flatten() {
            let id = component["custom_id"].as_str().unwrap_or("").to_string();
            match component["type"].as_u64() {
                // The Hint button answers with a new private message, not a step of the picker.
                Some(2) if id.ends_with(":hint") => {}
                Some(2) if component["disabled"] != true && component["label"] != "Back" => {
                    out.push((id, None));
                }
                Some(3) => {
                    for option in component["options"].as_array().into_iter().flatten() {
                        let value = option["value"].as_str().unwrap_or("").to_string();
                        out.push((id.clone(), Some(value)));
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// Opens a game by `/sequence start` (the only typed command), the others joining by the Join
/// button and the host pressing Start. The message that started the game.
pub async fn open_by_buttons(
    fake: &FakeDiscord,
    channel: u64,
    host: &FakeUser,
    others: &[FakeUser],
    options: &[(&str, &str)],
) -> Result<StoredMessage, String> {
    let start = fake.slash(host, channel, "sequence start", options)?;
    let lobby = lobby_of(fake, &start, channel).await?;
    for user in others {
        let press = fake.click(user, lobby.id, "sequence:join")?;
        fake.wait_reply(&press, STEP).await?;
    }
    let before = fake.messages_in(channel).len();
    let begin = fake.click(host, lobby.id, "sequence:begin")?;
    fake.wait_callback(&begin, STEP).await?;
    posted_after(fake, channel, before, "the game to start", |m| {
        m.content.contains("begins!")
    })
    .await
}

/// How a turn played by presses ended.
pub enum PressedTurn {
    /// The next player was asked (the new prompt).
    Next(Box<StoredMessage>),
    /// The game ended (the final message, with the record).
    Over(Box<StoredMessage>),
}

/// The first public message after interaction `after` that asks the next player or ends the game.
async fn next_prompt_or_end(
    fake: &FakeDiscord,
    channel: u64,
    after: u64,
) -> Result<PressedTurn, String> {
    let found = fake
        .shared()
        .wait_for(STEP, "the next prompt or the end", &[channel], |s| {
            s.messages_in(channel)
                .into_iter()
                .find(|m| {
                    m.id > after
                        && !m.is_ephemeral()
                        && (play_button(m).is_some()
                            || m.attachments.iter().any(|a| a.filename.ends_with(".json")))
                })
                .cloned()
        })
        .await?;
    if found
        .attachments
        .iter()
        .any(|a| a.filename.ends_with(".json"))
    {
        Ok(PressedTurn::Over(Box::new(found)))
    } else {
        Ok(PressedTurn::Next(Box::new(found)))
    }
}

/// Plays the turn the latest prompt asks for, with presses only: Play (dice: Roll) on the prompt, then
/// random choices in the private picker until it says the move was made. A `stranger` first presses
/// the prompt's button and must be refused privately, with nothing changed. With `double`, the final
/// button is pressed twice at once: only one move may be made.
pub async fn press_turn(
    fake: &FakeDiscord,
    channel: u64,
    players: &[FakeUser],
    stranger: &FakeUser,
    dice: &mut Dice,
    stats: &mut PressStats,
    double: bool,
) -> Result<PressedTurn, String> {
    let prompt = latest_prompt(fake, channel).ok_or("no prompt with a Play button")?;
    let open = play_button(&prompt).ok_or("no Play button")?;
    let mover = mover_of(&prompt)?;
    let user = players
        .iter()
        .find(|u| u.id == mover)
        .ok_or("the prompt asks someone who is not playing")?
        .clone();
    // Somebody else's press: refused privately, nothing posted.
    let posts = fake
        .messages_in(channel)
        .iter()
        .filter(|m| !m.is_ephemeral() && !is_follow_up(m))
        .count();
    let refused = fake.click(stranger, prompt.id, &open)?;
    let answer = fake.wait_reply(&refused, STEP).await?;
    if !answer.is_ephemeral() || !answer.content.contains("not for you") {
        return err(format!(
            "a stranger's press should be refused privately: {answer:?}"
        ));
    }
    let rolling = open.ends_with(":roll");
    let press = fake.click(&user, prompt.id, &open)?;
    let picker_id = if rolling {
        // Acknowledged first; the picker comes as a private follow-up headed by the roll, which the
        // channel sees only with the move (unless the roll leaves no move and the turn passes at
        // once).
        fake.wait_callback(&press, STEP).await?;
        let id = press.id;
        let picker = fake
            .shared()
            .wait_for(STEP, "the picker or a pass", &[id, channel], |s| {
                if let Some(&f) = s.interactions.get(&id).and_then(|i| i.followups.first()) {
                    return Some(Some(f));
                }
                s.messages_in(channel)
                    .into_iter()
                    .any(|m| m.id > id && !m.is_ephemeral() && play_button(m).is_some())
                    .then_some(None)
            })
            .await?;
        match picker {
            Some(id) => id,
            None => {
                stats.turns += 1;
                return next_prompt_or_end(fake, channel, id).await;
            }
        }
    } else {
        fake.wait_reply(&press, STEP).await?.id
    };
    let first = fake.message(picker_id).ok_or("the picker")?;
    if !first.is_ephemeral() {
        return err("the picker is private");
    }
    if first.attachments.iter().any(|a| a.filename == "hand.png") {
        stats.hand_pictures += 1;
    }
    let after_open = fake
        .messages_in(channel)
        .iter()
        .filter(|m| !m.is_ephemeral() && !is_follow_up(m))
        .count();
    if after_open != posts {
        return err("opening the picker (or rolling) posted in the channel");
    }
    if rolling && !first.content.contains("rolled") {
        return err(format!(
            "the cells step should start with the roll: {}",
            first.content
        ));
    }
    let mut step_pressed: Option<String> = None;
    for _step in 0..12 {
        let picker = fake.message(picker_id).ok_or("the picker")?;
        let options = choices(&picker);
        if options.is_empty() {
            return err(format!(
                "a picker step with nothing to press: {}",
                picker.content
            ));
        }
        let (id, value) = options[dice.below(options.len())].clone();
        let is_move = id.contains(":cell:") || id.contains(":swap:");
        if !is_move && value.is_none() {
            step_pressed = Some(id.clone());
        }
        let pressed = match &value {
            Some(v) => {
                stats.menu_choices += 1;
                fake.select(&user, picker_id, &id, &[v.as_str()])?
            }
            None => fake.click(&user, picker_id, &id)?,
        };
        let again = if double && is_move && id.contains(":cell:") {
            Some(fake.click(&user, picker_id, &id)?)
        } else {
            None
        };
        if !is_move {
            updated_in_place(fake, &pressed, picker_id)
                .await
                .map_err(|e| format!("a picker step: {e}"))?;
            stats.updates += 1;
            continue;
        }
        fake.wait_callback(&pressed, STEP).await?;
        // A move: acknowledged first, then the picker says it was made (or shows the new hand).
        let shown = fake.wait_reply(&pressed, STEP).await?;
        if shown.id != picker_id {
            return err(format!("the picker should be edited in place: {shown:?}"));
        }
        if let Some(again) = again {
            fake.wait_callback(&again, STEP).await?;
            let turn = next_prompt_or_end(fake, channel, pressed.id).await?;
            disarmed(fake, &prompt, &open, matches!(turn, PressedTurn::Next(_))).await?;
            // Give the second press time to be handled, then count the moves made.
            tokio::time::sleep(Duration::from_millis(300)).await;
            let moves = fake
                .messages_in(channel)
                .iter()
                .filter(|m| m.id > pressed.id && !m.is_ephemeral())
                .filter(|m| {
                    m.content.contains(" played ")
                        || m.content.contains(" placed ")
                        || m.content.contains(" removed ")
                })
                .count();
            if moves != 1 {
                return err(format!("two presses at once made {moves} moves"));
            }
            stats.turns += 1;
            return Ok(turn);
        }
        if id.contains(":swap:") {
            stats.exchanges += 1;
            let after = fake.message(picker_id).ok_or("the picker")?;
            if choices(&after).is_empty() {
                // The turn ended with the exchange: the game ended meanwhile (the other players
                // play on other faces too), or the new hand has no move either and the turn is
                // passed (RULES.md). The picker then says it is done, and the next prompt (after
                // the pass, said in the channel) or the final message is the turn's end.
                if !after.content.starts_with("Done") {
                    return err(format!(
                        "after an exchange the picker shows the new hand or says it is done: {}",
                        after.content
                    ));
                }
                let turn = next_prompt_or_end(fake, channel, pressed.id).await?;
                if let PressedTurn::Next(_) = &turn {
                    let said = fake
                        .messages_in(channel)
                        .iter()
                        .any(|m| m.id > pressed.id && says_pass(m, user.id));
                    if !said {
                        return err(format!(
                            "the turn ended with an exchange, and no pass was said: {}",
                            after.content
                        ));
                    }
                }
                stats.turns += 1;
                return Ok(turn);
            }
            continue;
        }
        if !shown.content.starts_with("Done") {
            return err(format!(
                "{id}: the picker should say the move was made: {}",
                shown.content
            ));
        }
        stats.turns += 1;
        let turn = next_prompt_or_end(fake, channel, pressed.id).await?;
        disarmed(fake, &prompt, &open, matches!(turn, PressedTurn::Next(_))).await?;
        if rolling {
            // Dice: one channel message for the turn, the roll and the move together.
            let first_post = fake
                .messages_in(channel)
                .into_iter()
                .find(|m| m.id > press.id && !m.is_ephemeral())
                .ok_or("no post for the move")?;
            let moved =
                first_post.content.contains(" placed ") || first_post.content.contains(" removed ");
            if !first_post.content.contains("rolled") || !moved {
                return err(format!(
                    "a dice turn posts the roll with its move, in one message: {}",
                    first_post.content
                ));
            }
            stats.dice_turns += 1;
        }
        // Every 7th turn, and the first turn with a step pressed if none was tried yet (the deal
        // is random: the 7th turns alone may all have had their card chosen from a menu).
        let stale_due = stats.turns % 7 == 1 || (stats.stale_steps == 0 && step_pressed.is_some());
        if matches!(turn, PressedTurn::Next(_)) && stale_due {
            stale_press(fake, channel, &user, &open).await?;
            if let Some(step) = &step_pressed {
                stale_step(fake, channel, &user, step).await?;
                stats.stale_steps += 1;
            }
        }
        return Ok(turn);
    }
    err("the picker did not lead to a move in 12 steps")
}

/// Waits until the old prompt has lost its Play button (it keeps its hand button and ⋯ while the game
/// runs).
async fn disarmed(
    fake: &FakeDiscord,
    prompt: &StoredMessage,
    open: &str,
    running: bool,
) -> Result<(), String> {
    let id = prompt.id;
    let ids = fake
        .shared()
        .wait_for(
            STEP,
            "the old prompt's Play button to go",
            &[prompt.channel_id, id],
            |s| {
                let ids = s.messages.get(&id)?.custom_ids();
                // Once the game is over every button goes (when a computer's move ended it, with an
                // edit of its own).
                (!ids.iter().any(|c| c == open) && (running || ids.is_empty())).then_some(ids)
            },
        )
        .await?;
    // While the game runs, the hand button (card games) and ⋯ stay.
    let expected: Vec<String> = if running {
        prompt
            .custom_ids()
            .into_iter()
            .filter(|c| c == "sequence:hand" || c.starts_with("sequence:more:"))
            .collect()
    } else {
        Vec::new()
    };
    if ids != expected {
        return err(format!(
            "the old prompt should keep {expected:?}, has {ids:?}: {}",
            prompt.content
        ));
    }
    Ok(())
}

/// A Play button of a past turn (as a client that has not seen the edit yet would still show it):
/// answered privately that its turn is over.
async fn stale_press(
    fake: &FakeDiscord,
    channel: u64,
    user: &FakeUser,
    open: &str,
) -> Result<(), String> {
    let old = fake.add_bot_button(channel, "Play", open);
    let stale = fake.click(user, old, open)?;
    let answer = fake.wait_reply(&stale, STEP).await;
    // Gone again, so that it is not taken for the current prompt.
    fake.remove_message(old);
    let answer = answer?;
    if !answer.is_ephemeral() || !answer.content.contains("turn that is over") {
        return err(format!(
            "an old Play button should say the turn is over: {answer:?}"
        ));
    }
    Ok(())
}

/// A picker button of a past turn (a picker left open): the answer replaces that picker in place
/// (UPDATE_MESSAGE) with the note that its turn is over, so its buttons go.
async fn stale_step(
    fake: &FakeDiscord,
    channel: u64,
    user: &FakeUser,
    step: &str,
) -> Result<(), String> {
    let old = fake.add_bot_button(channel, "7H", step);
    let stale = fake.click(user, old, step)?;
    let updated = updated_in_place(fake, &stale, old).await;
    fake.remove_message(old);
    let updated = updated.map_err(|e| format!("an old picker step: {e}"))?;
    if !updated.content.contains("turn that is over") || !updated.custom_ids().is_empty() {
        return err(format!(
            "an old picker step should be replaced in place: {updated:?}"
        ));
    }
    Ok(())
}

/// Presses the button `custom_id` on message `message_id` as `user`, and returns the private answer
/// (refused if the answer is public).
pub async fn private_answer(
    fake: &FakeDiscord,
    user: &FakeUser,
    message_id: u64,
    custom_id: &str,
) -> Result<StoredMessage, String> {
    let press = fake.click(user, message_id, custom_id)?;
    let answer = fake.wait_reply(&press, STEP).await?;
    if !answer.is_ephemeral() {
        return err(format!(
            "{custom_id}: the answer should be private: {answer:?}"
        ));
    }
    Ok(answer)
}

/// The custom id on `message` that starts with `prefix`.
pub fn button_id(message: &StoredMessage, prefix: &str) -> Result<String, String> {
    message
        .custom_ids()
        .into_iter()
        .find(|id| id.starts_with(prefix))
        .ok_or_else(|| format!("no {prefix}… button on {:?}", message.custom_ids()))
}

/// Whether `message` says that `user` had no possible move and passed (RULES.md).
fn says_pass(message: &StoredMessage, user: u64) -> bool {
    message.content.contains("has no possible move and passes")
        && message.content.contains(&format!("<@{user}>"))
}

/// `human` opens a classic lobby in `channel` with `/sequence start` and adds an `easy` computer with
/// the level menu: the lobby message's id (the game is not begun yet).
pub async fn lobby_against_easy(fake: &FakeDiscord, human: &FakeUser, channel: u64) -> u64 {
    let start = fake
        .slash(human, channel, "sequence start", &[("game", "classic")])
        .expect("start");
    let lobby = lobby_of(fake, &start, channel).await.expect("lobby");
    add_computer(fake, human, channel, lobby.id, None, "easy")
        .await
        .expect("a computer added with the level menu");
    lobby.id
}

/// Adds a computer player of `level` (`easy`, `medium`, `hard`) with buttons: the lobby's **Add
/// computer** opens the private level menu (unless `menu`, one opened before, is given), and its level
/// button adds the player; the menu is edited in place to say so, and the lobby lists them. Returns the
/// menu's message id and the added player's name as the menu shows it.
pub async fn add_computer(
    fake: &FakeDiscord,
    host: &FakeUser,
    channel: u64,
    lobby: u64,
    menu: Option<u64>,
    level: &str,
) -> Result<(u64, String), String> {
    let menu = match menu {
        Some(id) => id,
        None => {
            let opened = private_answer(fake, host, lobby, "sequence:addbot").await?;
            if !opened.content.contains("Which level") {
                return err(format!("Add computer opens the level menu: {opened:?}"));
            }
            opened.id
        }
    };
    let shown = fake.message(menu).ok_or("the level menu")?;
    let id = shown
        .custom_ids()
        .into_iter()
        .find(|id| id.starts_with("sequence:addbot:") && id.ends_with(&format!(":{level}")))
        .ok_or_else(|| format!("no {level} button in {:?}", shown.custom_ids()))?;
    let press = fake.click(host, menu, &id)?;
    let updated = fake.wait_reply(&press, STEP).await?;
    if updated.id != menu || !updated.content.contains("has joined") {
        return err(format!("the level menu should say who joined: {updated:?}"));
    }
    let name = updated
        .content
        .split(" has joined")
        .next()
        .unwrap_or("")
        .trim_matches('*')
        .to_string();
    if !name.contains(&format!("({level})")) {
        return err(format!("a {level} computer was added: {name}"));
    }
    fake.shared()
        .wait_for(
            STEP,
            "the lobby to list the computer",
            &[channel, lobby],
            |s| {
                s.messages
                    .get(&lobby)
                    .filter(|m| m.content.contains(&name))
                    .map(|_| ())
            },
        )
        .await?;
    Ok((menu, name))
}

/// Presses ⋯ on the latest turn prompt of `channel` as `user`: the private menu.
pub async fn open_more(
    fake: &FakeDiscord,
    channel: u64,
    user: &FakeUser,
) -> Result<StoredMessage, String> {
    let prompt = fake
        .messages_in(channel)
        .into_iter()
        .rev()
        .find(|m| !m.is_ephemeral() && button_id(m, "sequence:more:").is_ok())
        .ok_or("no message with ⋯")?;
    let more = button_id(&prompt, "sequence:more:")?;
    let menu = private_answer(fake, user, prompt.id, &more).await?;
    if !menu.content.contains("More for this game") {
        return err(format!("⋯ opens the menu: {menu:?}"));
    }
    Ok(menu)
}

/// `user` gives up with ⋯ → Leave the game → Yes, and the game ends (two players): its final message
/// (the one with the game record).
pub async fn give_up(
    fake: &FakeDiscord,
    channel: u64,
    user: &FakeUser,
) -> Result<StoredMessage, String> {
    let menu = open_more(fake, channel, user).await?;
    let leave = button_id(&menu, "sequence:leave:")?;
    let key = leave.trim_start_matches("sequence:leave:").to_string();
    let question = private_answer(fake, user, menu.id, &leave).await?;
    let posts = fake.messages_in(channel).len();
    let yes = fake.click(user, question.id, &format!("sequence:leave-confirm:{key}"))?;
    fake.wait_callback(&yes, STEP).await?;
    posted_after(fake, channel, posts, "the final message", |m| {
        m.attachments.iter().any(|a| a.filename.ends_with(".json"))
    })
    .await
}
