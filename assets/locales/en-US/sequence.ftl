# sequence-bot — English (United States). The reference language: every other file has exactly these
# message ids, with the same $variables in each message (checked by the tests).
#
# Conventions: <@…> mentions and **names** arrive ready-made in $player, $host, $team…; $game is a game's
# title; $variant is `classic`, `dice` or `kids` (for selections); numbers select plural forms.
# Command examples in the texts (`/sequence play card:7H`) must use this language's command and option
# names below; a test checks every `/sequence …` it finds.

## Slash commands: names (lowercase, no spaces, at most 32 characters) and descriptions (at most 100).
## The English names must equal the names in the code.

cmd-sequence = sequence
cmd-sequence-desc = Play Sequence, Sequence Dice or Sequence for Kids in this channel.
cmd-start = start
cmd-start-desc = Open a new game in this channel; others join with the button or /sequence join.
opt-start-game = game
opt-start-game-desc = Which game (default: classic)
opt-start-teams = teams
opt-start-teams-desc = Number of teams (default: by the number of players)
opt-start-sequences_to_win = sequences_to_win
opt-start-sequences_to_win-desc = Sequences a team needs to win (classic)
opt-start-sequence_length = sequence_length
opt-start-sequence_length-desc = Chips in a winning line (dice: 5 or 6)
opt-start-equal_turns = equal_turns
opt-start-equal_turns-desc = A win counts only once the round is complete
opt-start-scoring = scoring
opt-start-scoring-desc = House rule: play on, one point per sequence (classic)
opt-start-capture_pairs = capture_pairs
opt-start-capture_pairs-desc = House rule: flank two opponent chips to capture them (classic)
opt-start-rated = rated
opt-start-rated-desc = Counts for ratings (default: if humans play on at least two teams)
opt-start-turn_time = turn_time
opt-start-turn_time-desc = Time for a turn; a reminder at half time (default: the server's)
cmd-join = join
cmd-join-desc = Take a seat in the game that is about to start.
opt-join-team = team
opt-join-team-desc = The team you want to play in (1, 2, …)
cmd-leave = leave
cmd-leave-desc = Leave the lobby, or give up the running game (a computer player takes your seat).
cmd-forfeit = forfeit
cmd-forfeit-desc = Give up the running game (a computer player takes your seat).
cmd-bot = bot
cmd-bot-desc = Computer players in the lobby.
cmd-bot-add = add
cmd-bot-add-desc = Add a computer player to the lobby (host only).
opt-bot-add-level = level
opt-bot-add-level-desc = How strong (default: the server's setting)
cmd-bot-remove = remove
cmd-bot-remove-desc = Remove the last computer player from the lobby (host only).
cmd-begin = begin
cmd-begin-desc = Deal the cards and start the game (host only; same as the Start button).
cmd-cancel = cancel
cmd-cancel-desc = Close the lobby without playing (host only).
cmd-play = play
cmd-play-desc = Play a card on a cell (in Sequence Dice: place your chip after rolling).
opt-play-card = card
opt-play-card-desc = One of your cards (one-eyed jack / dragon: then name the chip to remove)
opt-play-cell = cell
opt-play-cell-desc = The cell, like D6
cmd-exchange = exchange
cmd-exchange-desc = Exchange a dead card (both its cells are covered) for a new one.
opt-exchange-card = card
opt-exchange-card-desc = The dead card
cmd-roll = roll
cmd-roll-desc = Sequence Dice: roll the dice for your turn.
cmd-remove = remove
cmd-remove-desc = Sequence Dice: after rolling 10, remove an opponent chip.
opt-remove-cell = cell
opt-remove-cell-desc = The chip to remove, like C3
cmd-hand = hand
cmd-hand-desc = Show your cards (only you see them).
cmd-board = board
cmd-board-desc = Post the current board.
cmd-status = status
cmd-status-desc = Show the players, whose turn it is, and the score (only you see it).
cmd-rules = rules
cmd-rules-desc = Explain the rules (only you see them).
opt-rules-game = game
opt-rules-game-desc = Which game (default: this channel's)
cmd-stop = stop
cmd-stop-desc = End the game now (host, or members who may manage messages).

## Choices in the option lists (at most 100 characters)

choice-game-classic = Sequence (classic, with cards)
choice-game-dice = Sequence Dice
choice-game-kids = Sequence for Kids
choice-level-easy = easy
choice-level-medium = medium
choice-level-hard = hard
choice-turn_time-15s = 15 seconds (blitz)
choice-turn_time-30s = 30 seconds
choice-turn_time-60s = 1 minute
choice-turn_time-120s = 2 minutes
choice-turn_time-server = the server's turn time

## Buttons

button-join = Join
button-leave = Leave
button-addbot = Add computer
button-begin = Start
button-cancel = Cancel
button-roll = Roll the dice
button-hand = Show my cards

## The card picker (buttons)
picker-play = Play
picker-back = Back
picker-hint = Hint
picker-hint-unrated = Yes, show the hint (unrated)
confirm-hint = Using a hint makes this game unrated for everyone: it will not count for ratings. Show the hint anyway?
hint-made-unrated = This game is now unrated: it no longer counts for ratings.
hint-made-casual = 💡 { $player } used a hint: this game no longer counts for ratings.
picker-exchange = Exchange { $card } (dead)
picker-unplayable = { $card }: no move with it this turn
picker-row = Row { $row }: { $cells ->
    [one] 1 cell
   *[other] { $cells } cells
}
picker-row-part = Row { $row }, part { $part }: { $cells } cells
picker-row-placeholder = Choose a row
pick-card = Choose a card:
pick-row-card = { $card }: choose a row first.
pick-row-card-remove = { $card }: choose the row of the chip to take away.
pick-row-dice = Choose a row for your chip.
pick-row-dice-remove = Choose the row of the chip to take away.
pick-cell-card = { $card }: choose a cell.
pick-cell-card-remove = { $card }: choose the chip to take away.
pick-cell-dice = Choose a cell for your chip.
pick-cell-dice-remove = Choose the chip to take away.
picker-expired = These buttons belong to a turn that is over. Use the **Play** button of the latest message.
picker-expired-dice = These buttons belong to a turn that is over. Use the **Roll the dice** button of the latest message.
picker-not-yours = These buttons are not for you: it is { $player }'s turn, and only they see their cards.
picker-not-your-card = { $card } is not in your hand.
bad-button = I do not know this button. Nothing was changed.

## The web page (browser): the texts the page shows, sent by /api/texts

web-loading = Loading…
web-name-title = Who is playing?
web-name-label = Your name, as the other players see it
web-name-save = Continue
web-name-bad = A name has 1 to 32 characters.
web-home-title = New game
web-home-intro = Play against the computer or with friends on the same network: open a game, then share its link.
web-variant = Game
web-teams = Teams
web-teams-auto = As the players sit
web-teams-n = { $n } teams
web-series = Series
web-series-none = One game
web-series-best = Best of { $n }
web-clock = Time per turn
web-clock-none = No clock
web-new-game-submit = Open the game
web-lobby = Waiting for players
web-players = Players
web-you = you
web-host = host
web-computer = computer
web-cards = { $n } cards
web-your-hand = Your cards
web-watching = You are watching this game.
web-your-turn = Your turn.
web-pick-card = Tap a card, then one of the marked cells.
web-pick-cell = Now tap one of the marked cells.
web-pick-dice = Tap a marked cell for your chip.
web-pick-remove = Tap the chip to take away.
web-no-target = This card has no move now.
web-confirm = Play { $card } on { $cell }
web-confirm-cell = Place on { $cell }
web-confirm-remove = Take away the chip on { $cell }
web-dead = dead
web-exchange = Exchange { $card }
web-remove-bot = Remove a computer
web-stop = Stop the game
web-stop-confirm = Stop this game for everyone now?
web-next-game = Next game
web-watch-link = Link to this game
web-copy = Copy
web-copied = Copied
web-live = live
web-offline = reconnecting…
web-draw-pile = Draw pile: { $n }
web-discards = Last played
web-points = { $have }/{ $need } points
web-sequences = { $have }/{ $need } sequences
web-series-score = Series, best of { $best }: { $score }
web-zone = King of the Board zone
web-roll = Roll: { $a } + { $b } = { $sum }
web-replay = Replay
web-replay-step = Move { $n } of { $total }
web-server-title = This server's Sequence
web-server-leaderboard = Leaderboard
web-server-no-players = No rated game yet.
web-server-player = Player
web-server-rating = Rating
web-server-games-played = Games
web-server-wins = Wins
web-server-provisional = provisional
web-server-tap = Tap a player for their figures.
web-server-sequences = Sequences
web-server-streak = Wins in a row (now / best)
web-server-jacks = Jacks played (two-eyed / one-eyed)
web-server-broken = Lines broken
web-server-dead = Dead cards exchanged
web-server-series = Series won / played
web-server-achievements = Achievements
web-server-agreement = Moves like the hard computer's
web-server-games = Latest games
web-server-no-games = No finished game yet.
web-server-replay = Replay
web-server-aborted = aborted
web-server-winner = won
web-replay-prev = Back
web-replay-next = Next
web-record-download = Download the record
web-summary = Summary
web-language = Language
web-home = Start page
web-not-found-title = Nothing here
web-not-found-text = This link is unknown or has expired.
web-error-network = The bot cannot be reached right now. Trying again…
web-local-off = Games are opened in Discord here. Open a game's link to watch it.
web-activity-signing-in = Signing in through Discord…
web-activity-not-set-up = The board inside Discord is not set up on this bot yet: its operator can turn it on.
web-activity-no-discord = This board opens inside Discord only: start it there with “Open the board”.
web-activity-denied = Discord did not let the board know who you are, so it cannot seat you: close it and open it again to allow it.
web-activity-sign-in-failed = Signing in through Discord did not work: close the board and open it again.
web-activity-lobby-title = No game in this channel yet
web-activity-lobby-intro = Open a lobby here: it shows in the chat as after /sequence start, and others join from there or from this board.
web-activity-lobby-submit = Open a lobby in this channel

## Names

game-classic = Sequence
game-dice = Sequence Dice
game-kids = Sequence for Kids
color-blue = blue
color-green = green
color-red = red
color-yellow = yellow
color-grey = grey
team-name = team { $number } ({ $color })
list-and = { $first } and { $last }
list-or = { $first } or { $last }
level-easy = easy
level-medium = medium
level-hard = hard
bot-name = Computer { $number } ({ $level })
bot-stand-in = Computer ({ $level }, for { $name })
seat-fallback = seat { $number }
duration = { $seconds ->
        [one] 1 second
       *[other] { $seconds } seconds
    }
duration-minutes = { $minutes ->
        [one] 1 minute
       *[other] { $minutes } minutes
    }

## Animals of Sequence for Kids (a test checks that each one is accepted as a card name)

animal-lion = lion
animal-zebra = zebra
animal-giraffe = giraffe
animal-elephant = elephant
animal-monkey = monkey
animal-panda = panda
animal-frog = frog
animal-owl = owl
animal-turtle = turtle
animal-rabbit = rabbit
animal-penguin = penguin
animal-fox = fox
animal-whale = whale
animal-bear = bear
animal-hippo = hippo
animal-kangaroo = kangaroo
animal-ostrich = ostrich
animal-gorilla = gorilla
animal-crocodile = crocodile
animal-dragon = dragon
animal-unicorn = unicorn

## Refusals

no-table = There is no game in this channel. Start one with `/sequence start`.
played-elsewhere = This page only shows this game: it is played where it was started (in its Discord channel). Moves made there appear here.
table-exists = This channel already has a game or a lobby. Finish it (or the host can `/sequence stop` it) before starting another.
already-started = The game has already started. You can watch, and join the next one.
not-started = The game has not started yet: the host starts it with the **Start** button or `/sequence begin`.
already-joined = You have already joined this game.
lobby-full = This game is full: it takes at most { $max } players.
not-in-game = You are not playing in this game.
not-host = Only the host ({ $host }) or members who may manage messages can do that.
too-many-tables = You already have { $max } open games or lobbies. Finish or stop one of them before opening another.
server-full = This server already has { $max } open games or lobbies. Please wait until one of them ends.
too-many-bots = A game takes at most { $max } computer players.
busy = I am posting a lot in this server right now. Please try again in a few seconds.
slow-down = You are asking me to post a lot right now. Please try again in a few seconds.
web-live-full = Too many live views are open right now, from your address or in all. Please close one and try again in a minute.
host-gave-up = The host has given up: only the players still in the game or members who may manage messages can do that.
done = Done: see the channel.
not-your-turn = It is not your turn: it is { $player }'s turn.
illegal-cells = That card can go on: { $cells }.
illegal-no-cells = That card has no free cell now.
bad-card-kids = `{ $typed }` is not a card of this game. Name an animal (like `lion`), `unicorn` or `dragon`.
bad-card-classic = `{ $typed }` is not a card. Write a rank and a suit, like `7H`, `10S`, `QD` or `JC`.
bad-cell = `{ $typed }` is not a cell of this board. Write a column letter and a row number, from `A1` to `{ $last }`.
card-needed = Name the card to play, for example `/sequence play card:7H cell:D6`.
cell-needed = Name the cell, for example `/sequence play card:7H cell:D6` (or `/sequence play cell:C3` in Sequence Dice).
bad-option = I could not read one of the options. Please pick the values from the lists Discord offers.
guild-only = This works only in a server.
no-cards-in-dice = Sequence Dice has no cards: roll with `/sequence roll`, then place with `/sequence play cell:`.
not-dice = Only Sequence Dice uses dice.
roll-first = Roll the dice first with `/sequence roll`.
already-rolled = You have already rolled { $dice }. Now place your chip with `/sequence play cell:`.
bad-team-count = { $game } cannot be played in { $teams } teams. { $variant ->
        [dice] Leave `teams` empty, or choose 2.
        [kids] Leave `teams` empty, or choose 2 or 4.
       *[classic] Leave `teams` empty, or choose 2 or 3.
    }
bad-team = There is no team { $team }: choose a team from 1 to { $max }.
team-full = { $chosen } players chose { $team }, but each team has { $size } players. Someone should `/sequence leave` and join another team.
no-bot = There is no computer player to remove.
internal = Sorry, something went wrong on my side. Please try again.

## The web pages' answers (a request the page made that cannot be served)

web-api-not-found = There is no game at this address: the link may be wrong, or the game has ended.
web-api-unknown-address = There is nothing at this address.
web-api-unreadable = I could not read that request.
web-api-unknown-action = There is no action called “{ $action }”.
web-api-turn-needed = A move must say which turn it was made on.
web-api-card-needed = Choose a card first.
web-api-cell-needed = Choose a cell first.
web-api-bad-card = { $card } is not a card of this game.
web-api-bad-cell = { $cell } is not a cell of this board.
web-api-forbidden = This request did not come from the game's page, so it was refused.
web-api-too-many = Too many requests at once: please wait a moment and try again.
web-api-name-needed = Choose a name first.
web-api-bad-name = A name has 1 to 32 characters, without line breaks.
web-api-no-local = Games cannot be opened on these pages.
web-api-starting = The bot is still starting: please try again in a moment.
web-api-not-live = This address only takes a live connection (WebSocket).
web-api-method = This address does not take that kind of request.
web-api-watch-only = This game is played in Discord: watch it here, join it there.
web-activity-off = The Discord Activity is not set up on this bot.
web-activity-bad-code = Discord did not accept this sign-in: please open the Activity again.
web-activity-bad-token = Your Discord sign-in has expired: please open the Activity again.
web-activity-unavailable = Discord cannot be reached right now: please try again in a moment.
web-activity-no-instance = This Activity has ended: please open it again.
web-activity-not-in-instance = You are not in this Activity: please join it in Discord first.
web-activity-signed-out = Your Activity session has ended: please sign in again.

## Why a game cannot start as asked

setup-player-count = { $game } cannot be played by { $players ->
        [one] 1 player
       *[other] { $players } players
    }: it takes { $variant ->
        [classic] 2, 3, 4, 6, 8, 9, 10 or 12
       *[other] 2, 3 or 4
    } players.
setup-teams-alone = { $players } players cannot play in { $teams } teams: two or three players each play alone.
setup-teams = { $players } players cannot play { $game } in { $teams } teams: they can play in { $possible } teams.
setup-house-rule = `{ $option }` is a house rule of classic Sequence, not of { $game }.
setup-one-sequence = In { $game } one sequence always wins, so leave `sequences_to_win` empty.
setup-sequences-range = `sequences_to_win` must be 1 to 4.
setup-sequence-length = { $variant ->
        [dice] In Sequence Dice a winning line has 5 or 6 chips.
        [kids] In Sequence for Kids a winning line always has 4 chips.
       *[classic] In Sequence a sequence always has 5 chips.
    }
setup-other = That does not work: { $reason }.

## The engine's reasons for refusing a move (one per error code of RECORD.md)

play-error-not_your_turn = It is not your turn.
play-error-card_not_in_hand = That card is not in your hand.
play-error-cell_occupied = That cell already has a chip on it.
play-error-card_does_not_match = That card does not match the cell.
play-error-free_corner = The corners are free for everyone and never take a chip.
play-error-chip_locked = That chip is protected and cannot be removed.
play-error-no_opponent_chip = There is no opponent chip on that cell.
play-error-not_dead = That card is not dead: one of its cells is still free.
play-error-exchange_twice = You have already exchanged a card this turn.
play-error-pass_not_allowed = You can still move, so you cannot pass.
play-error-wrong_action_for_roll = That action does not fit this roll.
play-error-game_over = The game is over.
play-error-bad_cell = That is not a cell of this board.
play-error-bad_card = That is not a card of this game.

## Confirmations (only the user sees them)

lobby-opened = Your game is open. Others can join now; press **Start** when everyone is in.
joined = You have joined the game.
left = You have left the game.
bot-added = { $name } has joined.
bot-removed = { $name } has left.
cancelled-ack = The lobby is closed.
begun-ack = The game has started.
forfeit-ack = You have given up this game.
stopped-ack = The game is stopped.

## The lobby message

lobby-header = **{ $game }** — a new game, hosted by { $host }.
lobby-teams = { $teams } teams.
lobby-options = Options: { $options }.
option-sequences-to-win = { $count ->
        [one] 1 sequence to win
       *[other] { $count } sequences to win
    }
option-sequence-length = lines of { $length }
option-equal-turns = equal turns
option-scoring = scoring
option-capture-pairs = capture pairs
lobby-players = Players ({ $count }/{ $max }):
lobby-nobody = (nobody yet)
lobby-footer = Press **Join** (or use `/sequence join`) to take a seat; the host presses **Start** when everyone is in.
seat-cards = { $count ->
        [one] 1 card
       *[other] { $count } cards
    }
lobby-started = **{ $game }** — this game has started. Good luck!
lobby-cancelled = This lobby was closed by { $player }.
lobby-expired = This lobby was closed because the game did not start in time.
lobby-abandoned = This lobby was closed: everyone left.
lobby-abandoned-computers = This lobby was closed: every human player left, and computer players do not play on their own.
host-changed = { $player } is the host now.

## The game, in the channel

roll-off = 🎲 Roll-off for the first turn: { $rolls }.
roll-off-again = Tie, roll again: { $rolls }.
roll-off-winner = { $player } starts.
game-started = **{ $game }** begins! Seats in turn order:
game-started-cards = Your cards come by direct message (or use `/sequence hand`).
played = { $player } played { $card } on { $cell }.
removed-with-card = { $player } played { $card } and removed the chip of { $victim } from { $cell }.
removed = { $player } removed the chip of { $victim } from { $cell }.
placed = { $player } placed a chip on { $cell }.
placed-replacing = { $player } placed a chip on { $cell }, replacing the chip of { $victim }.
exchanged = { $player } exchanged the dead card { $card } and drew a new one.
passed = { $player } has no possible move and passes.
captured = { $team } captured two chips of { $victim } ({ $first } and { $second }).
sequence-done = 🎉 { $team } completed a sequence! ({ $count } of { $target })
sequence-broken = { $team } lost a sequence.
reshuffled = The discard pile was shuffled into a new draw pile.
provisional-win = { $team } has reached the goal! The round is played to its end first.
rolled = 🎲 { $player } rolled { $dice }: { $hint }.
roll-hint-number = place a chip on { $number ->
        [8] an
        [11] an
       *[other] a
    } { $number } cell
roll-hint-replace = every { $number } cell is covered, so replace an opponent chip on { $number ->
        [8] an
        [11] an
       *[other] a
    } { $number } cell
roll-hint-remove = remove an opponent chip (not on a 2 or 12 cell)
roll-hint-free = place a chip on any free cell
roll-hint-blocked = every { $number } cell already holds one of their own chips, so this roll gives them no move
roll-hint-nothing-to-remove = remove an opponent chip, but there is none outside the 2 and 12 cells, so this roll gives them no move
won = 🏆 { $team } wins: congratulations, { $players }!
scores = Points: { $scores }.
drawn = The game ends in a draw.
blocked = Nobody could move for a whole round: the board is blocked, so { $outcome ->
        [points] { $team } wins on points ({ $count }).
        [sequences] { $team } wins on sequences ({ $count }).
        [draw-count] the game is a draw ({ $count }).
       *[draw] the game is a draw.
    }
hint = 💡 **Hint** (the `hard` computer player, from your cards and the board): { $move }. { $why }.
hint-play = play { $card } on { $cell }
hint-exchange = exchange { $card }
hint-place = place a chip on { $cell }
hint-remove = remove the chip on { $cell }
hint-pass = pass
why-completes = It completes a sequence
why-breaks = It breaks { $team }'s { $chips } in a row at { $cell }
why-blocks = It blocks { $team }'s { $chips } in a row at { $cell }
why-makes = It makes { $chips } in a row ({ $from }–{ $to })
why-zone = It takes { $cell } in the zone: a sequence through the zone scores 2 points
why-opens = It starts a line at { $cell }: { $lines ->
        [one] one line through it is still open to you
       *[other] { $lines } lines through it are still open to you
    }
why-keeps-wild = Keep your { $card } for later
why-dead = A dead card: exchange it first, then ask again
why-best = It did best over the games the computer played out from here
why-pass = Nothing else is possible
hints-only-casual = Hints are only for casual games: this game counts for ratings.
hints-used = 💡 { $count ->
        [one] 1 hint was
       *[other] { $count } hints were
    } used in this game, by { $players }.
stats-agreement = 🤖 Agreement with the `hard` computer player: { $percent } % of { $counted } moves over the last { $games ->
        [one] rated game
       *[other] { $games } rated games
    }.
agreement-title = 🤖 **Agreement with the computer** (game { $game }): how often each player chose the move the `hard` computer player would have chosen from their own hand and the board.
agreement-line = { $player }: { $percent } % ({ $matched } of { $counted ->
        [one] 1 move
       *[other] { $counted } moves
    })
agreement-none = { $player }: no move to compare
agreement-note = -# This is agreement, not strength: often several moves are equally good, and `hard` is not perfect.
summary-sequence = 📈 Sequence for { $team } by { $player } on move { $move }.
summary-sequence-zone = 👑 Sequence for { $team } by { $player } on move { $move }, touching the zone: { $points } points (the zone doubles it).
summary-sequence-points = 📈 Sequence for { $team } by { $player } on move { $move }: { $points ->
        [one] 1 point
       *[other] { $points } points
    }.
summary-broken = ✂️ { $player } broke { $team }'s { $chips } in a row at { $cell } on move { $move }.
summary-length = ⏱️ { $moves ->
        [one] 1 move
       *[other] { $moves } moves
    }.
summary-length-minutes = ⏱️ { $moves ->
        [one] 1 move
       *[other] { $moves } moves
    } in { $minutes ->
        [0] under a minute
        [one] 1 minute
       *[other] { $minutes } minutes
    }.
won-by-forfeit = 🏆 { $team } wins, as everyone else gave up: congratulations, { $players }!
won-on-time = 🏆 { $team } wins on time: the other side ran out of time. Congratulations, { $players }!
stopped = The game was stopped by { $player }.
no-humans-left = No human player is left, so the game ends.
forfeited = { $player } gave up. The computer player **{ $bot }** takes their seat.
view-turn = { $player } is to move.
turn-bot = { $player } is thinking…
turn-dice-again = { $player }, a roll of { $sum } gives you another turn (only 2 and 12 do): roll again with **Roll the dice** (or `/sequence roll`).
turn-dice = { $player }, it is your turn: press **Roll the dice** (or `/sequence roll`).
turn-cards = { $player }, it is your turn: press **Play** to choose a card and a cell (or `/sequence play card: cell:`).
turn-deadline = Your time runs out { $deadline }.
reminder = ⏰ { $player }, it is still your turn. In about { $time } the computer plays for you.
reminder-give-up = ⏰ { $player }, it is still your turn. In about { $time } you run out of time, and a computer takes your seat for the rest of the game.
reminder-give-up-ends = ⏰ { $player }, it is still your turn. In about { $time } you run out of time, and as nobody is left to play on for your side, your side loses.
timed-out = ⏰ { $player } ran out of time, so the computer ({ $level }) played this turn.
dm-failed = { $player }, I could not send you a direct message. Press **Show my cards** (or use `/sequence hand`) to see your cards privately.
record-attached = The game record is attached.
board-caption = **{ $game }**: { $player } is to move.

## Private: a hand, the status

hand-header = Your cards in { $channel }:
hand-your-turn = It is your turn: press **Play** under the turn message in { $channel } to choose a card and a cell (or use `/sequence play card: cell:`).
card-cells = { $card } — { $cells }
card-two-eyed-jack = { $card } — two-eyed jack: any free cell
card-wild = { $card } — any free cell
card-one-eyed-jack = { $card } — one-eyed jack: removes an opponent chip
card-remove = { $card } — removes an opponent chip
card-dead = { $card } — dead (both cells taken): swap it with `/sequence exchange`
card-dead-exchanged = { $card } — dead (both cells taken); you have exchanged a card this turn, so swap it on your next turn
status-header = **{ $game }** — seats in turn order:
status-to-move = To move: { $player }
status-rolled = (rolled { $dice })
status-time-left = about { $time } left for this turn.
status-sequences = Sequences ({ $target } to win): { $list }.
status-draw-pile = Cards left to draw: { $count }.

## Autocomplete

complete-remove = { $cell } — remove the chip of { $team }
complete-replace = { $cell } — replace the chip of { $team }

## Rules (`/sequence rules`): Discord markdown. Lines may not begin with [ * or . in Fluent.

rules-classic =
    ## Sequence
    For 2 to 12 players: 2 or 3 play alone; 4, 6, 8, 9, 10 or 12 split into 2 or 3 teams whose members sit alternately. Chips: blue, green, and red for a third team.
    ### Goal
    A **sequence** is 5 chips of your colour in a straight line: across, down or diagonally. The four corners are free: they count for every team, and nobody puts a chip there.
    With 2 players or teams you need **2 sequences**, with 3 players or teams **1**. Two sequences of one team may share one cell, so a straight line of 9 counts as two.
    ### Your turn
    - Play a card and put a chip on one of the two free cells that show it: `/sequence play card:7H cell:D6`. Jacks are not on the board.
    - **Two-eyed jacks** (J♣ J♦) are wild: a chip on any free cell.
    - **One-eyed jacks** (J♠ J♥) remove one opponent chip that is not part of a completed sequence. You place nothing that turn.
    - A card whose two cells are both covered is **dead**: swap it with `/sequence exchange` (once per turn), then play.
    - You draw a new card automatically. An empty draw pile is refilled from the shuffled discards.
    - With no possible move your turn is passed; if nobody can move, the game is a draw.
    Cards in hand: 2 players 7, 3 or 4 players 6, 6 players 5, 8 or 9 players 4, 10 or 12 players 3. Yours come by direct message, or see them with `/sequence hand`.
    ### Options of `/sequence start`
    - `sequences_to_win`: how many sequences win (1 to 4).
    - `equal_turns`: a win counts only once the round is complete; if another team also reaches the goal in that round, the game is a draw.
    - House rule `scoring`: play on until nobody can move, one point per sequence. One-eyed jacks may break sequences, and the draw pile is not refilled. Most points win.
    - House rule `capture_pairs`: flank exactly two adjacent opponent chips in a line with your own chips to capture them (never from a sequence). Five captured pairs also win.
    - `mode: King of the Board`: a race for points around a 3 x 3 zone (framed on the board). A new sequence touching the zone scores 2 points, any other 1; after each scoring move the zone moves to another of nine places. `points_to_win` (2 to 10, default 3) win at once.
rules-dice =
    ## Sequence Dice
    For 2 to 4 players; with 4, the first and third play against the second and fourth as two teams. A roll-off decides who starts.
    ### Goal
    Be the first to have **5 chips in a straight line**: across, down or diagonally. There are no free corners. With `/sequence start sequence_length:6` a line needs 6 chips, as the rules recommend for 2 players or 2 teams.
    ### Your turn
    - Roll with `/sequence roll` (or the button), then put a chip on a free cell showing the sum: `/sequence play cell:C3`.
    - If every cell of that number is covered, replace an opponent chip on one of them (2 and 12 cells too). If all four hold your own chips, the turn is lost.
    - **10** is a defensive roll: remove an opponent chip, but not from a 2 or 12 cell: `/sequence remove cell:C3`.
    - **11** is a free roll: put a chip on any free cell.
    - After **1+1** (2) or **6+6** (12) you place your chip and roll again. Other doubles give no extra roll.
rules-kids =
    ## Sequence for Kids
    For 2 to 4 players, each with their own colour (4 players may also play as 2 teams).
    ### Goal
    Be the first to have **4 chips in a row**: across, down or diagonally. The four corners are free: they count for everyone.
    ### Your turn
    - You hold 3 animal cards. Play one and put a chip on a free cell showing that animal: `/sequence play card:lion cell:B1`.
    - The **unicorn** goes on any free cell. The **dragon** removes an opponent chip, and you place nothing that turn.
    - A card whose two cells are both covered is **dead**: swap it with `/sequence exchange`, then play as usual.
    - You draw a new card automatically, so you always hold 3.
    The animals: lion, zebra, giraffe, elephant, monkey, panda, frog, owl, turtle, rabbit, penguin, fox, whale, bear, hippo, kangaroo, ostrich, gorilla and crocodile.

## Words on the board and hand images ({ $name }-style variables become the image's placeholders)

image-seat = Seat { $n }
image-turn = { $name } to play
image-won = { $team } wins!
image-drawn = The game is drawn
image-draw-pile = Draw pile: { $n }
image-sequences = { $have }/{ $need }
image-points = { $n } pts
image-pairs = { $n } pairs
image-points-of = { $have }/{ $need } pts
image-zone = ZONE ×2
image-last-placed = Last: { $name } played { $card } on { $cell }
image-last-removed = Last: { $name } removed { $cell } with { $card }
image-last-placed-dice = Last: { $name } took { $cell }
image-last-removed-dice = Last: { $name } removed { $cell }
image-roll = Roll: { $sum }
image-roll-ten = 10: remove a chip
image-roll-eleven = 11: any empty cell
image-free = FREE
image-your-hand = Your hand
image-you-play = You play { $team }
image-your-turn = Your turn
image-waiting = Waiting for { $name }
image-dead = DEAD
image-exchange-it = exchange it
image-any-empty = any empty cell
image-any-opponent = any open chip
image-nothing-to-remove = nothing to remove
image-no-cell = no free cell
image-wild = WILD
image-remove = REMOVE
image-no-cards = Sequence Dice has no cards.
image-you-may = You may take:

## Saved games, stats and history

cmd-stats = stats
cmd-stats-desc = A player's games, wins and sequences on this server.
opt-stats-user = user
opt-stats-user-desc = Whose stats (default: yours)
cmd-leaderboard = leaderboard
cmd-leaderboard-desc = The best players of this server.
cmd-history = history
cmd-history-desc = The latest finished games of this server, with their numbers.
cmd-record = record
cmd-record-desc = Download the record of a finished game (default: the last one of this channel).
opt-record-game = game
opt-record-game-desc = The game's number, from /sequence history
cmd-hint = hint
cmd-hint-desc = Privately: the move the hard computer would make now, and why (casual games only).
cmd-replay = replay
cmd-replay-desc = Post the animated replay of a finished game (default: the last one of this channel).
opt-replay-game = game
opt-replay-game-desc = The game's number, from /sequence history
save-failed = Sorry, I could not save that, so nothing happened. Please try again in a moment.
game-resumed = 🔄 I was restarted: the **{ $game }** game in this channel goes on where it was. It is { $player }'s turn.
game-resumed-timed = 🔄 I was restarted: the **{ $game }** game in this channel goes on where it was. It is { $player }'s turn (about { $time } left).
lobby-resumed = 🔄 I was restarted: the **{ $game }** lobby in this channel is still open.
not-restored = ⚠️ I was restarted, but the game in this channel could not be restored: its saved state is damaged. It was set aside for the bot's operator. Please start a new game with `/sequence start`.
ended-while-restarting = 🏁 The game in this channel ended just as I was restarting, so its end was never announced. Here it is:
game-saved = Saved as game #{ $id }: `/sequence record game:{ $id }` downloads its record again.
no-history = Stats and game history are not available: this bot runs without a database.
history-failed = Sorry, I could not read the game history just now. Please try again in a moment.
stats-none = { $player } has not finished a game on this server yet.
stats = 📊 { $player } on this server: { $games ->
        [one] 1 game
       *[other] { $games } games
    }, { $wins ->
        [one] 1 win
       *[other] { $wins } wins
    } ({ $percent }%), { $sequences ->
        [one] 1 sequence
       *[other] { $sequences } sequences
    }.
leaderboard-empty = No rated games on this server yet: the leaderboard fills up as rated games end.
leaderboard-header = 🏆 **Leaderboard** of this server, by rating (everyone starts at 1500; it rises with wins and as the bot grows surer of a player):
leaderboard-line = { $wins ->
        [one] 1 win
       *[other] { $wins } wins
    } in { $games ->
        [one] 1 game
       *[other] { $games } games
    } ({ $percent }%), { $sequences ->
        [one] 1 sequence
       *[other] { $sequences } sequences
    }
rating-none = No rated game yet (games with humans on at least two teams count, or any game started with `rated: True`).
rating-line = rating **{ $rating }**{ $provisional ->
        [yes] {" "}(provisional)
       *[no] {""}
    } after { $games ->
        [one] 1 rated game
       *[other] { $games } rated games
    }
rating-changes = ; { $count ->
        [one] change in the latest rated game: { $changes }
       *[other] changes in the latest rated games, newest first: { $changes }
    }
history-empty = No finished games on this server yet.
history-header = 📜 **Latest games** of this server:
history-no-winner = no winner
history-won-by = won by { $players }
history-footer = `/sequence record game:` downloads a game's record.
game-record = The record of game #{ $id } is attached.
game-replay = 🎞️ Game #{ $id }, move by move.
button-watch = Watch
button-activity = Open the board
button-replay-web = Replay on the web
web-replay-not-found = No finished game has this link: it may be mistyped, or its server turned web links off.
web-replay-failed = The game could not be read just now. Please try again in a moment.
web-server-not-found = No server page has this link: it may be mistyped, or the server's admins turned its page off.
no-such-game = There is no finished game #{ $id } on this server. `/sequence history` lists the latest games.
no-game-here = No finished game of this channel is stored yet. `/sequence history` lists this server's latest games with their numbers.

# Channel permissions
permission-view-channel = View Channel
permission-send-messages = Send Messages
permission-send-messages-in-threads = Send Messages in Threads
permission-attach-files = Attach Files
cannot-post-here = I cannot post the board in this channel: I lack { $permissions }.
game-paused = ⏸️ The game in this channel is paused: I cannot post here any more, I lack { $permissions }. Nothing happens until I can (no computer moves, no timeouts).
game-paused-unknown = ⏸️ The game in this channel is paused: Discord refused my last post here. Nothing happens until I can post again (no computer moves, no timeouts).
grant-permissions-channel = A member who may manage the server can allow me { $permissions } here: channel settings → Permissions → add my role or me.
grant-permissions-thread = A member who may manage the server can allow me { $permissions } in the channel this thread belongs to (channel settings → Permissions → add my role or me); in a private thread, also add me to the thread by mentioning me.
posting-restored = ▶️ I can post in this channel again: the paused game goes on.

## Server settings

settings-not-allowed = Only members with the **Manage Server** permission can see or change this server's settings.
settings-header = ⚙️ **Settings of this server**:
settings-changed = ⚙️ Saved. The settings of this server are now:
settings-list = • game: { $game }
    • computer level: { $level }
    • turn reminder after { $reminder }
    • turn timeout after { $timeout }
    • lobby closes after { $lobby }
    • computer thinking time per move: { $thinking ->
        [none] the bot's default
       *[other] { $thinking } ms
    }
    • when the time runs out: { $on_timeout ->
        [give_up] the player gives up (a computer takes their seat, or the game ends if nobody is left on their side)
       *[computer] a computer plays that turn
    }
    • a computer takes the seat for the rest of the game after { $replaced ->
        [0] never (it only plays each timed-out turn)
        [one] 1 timed-out turn
       *[other] { $replaced } timed-out turns in a row
    }
    • rated games: { $rated ->
        [always] every game
        [never] none (casual)
       *[default] games with humans on at least two teams
    }
    • language of channel posts: { $language ->
        [English] English
        [Deutsch] Deutsch
        [Norsk] Norsk
       *[other] the server's language
    }
    • hints: { $hints ->
        [on] in every game (in a rated game after a confirmation; the game then becomes unrated)
       *[off] in casual games only
    }
    • animated replay after every game: { $replay_gif ->
        [off] no
       *[on] yes
    }
    • web pages of the games (Watch button, live board, replay): { $web_links ->
        [off] off
       *[on] on
    }
    • the server's own page (leaderboard, recent games, profiles): { $web_page ->
        [on] on
       *[off] off
    }
settings-web-page-link = The server's page (anyone with this link can open it; turning the page off and on again makes a new link): { $url }
settings-bad-range = `{ $option }` must be between { $min } and { $max } { $unit }. Nothing was changed.
settings-bad-range-count = `{ $option }` must be between { $min } and { $max }. Nothing was changed.
settings-reminder-after-timeout = The turn reminder ({ $reminder } s) must come before the turn timeout ({ $timeout } s). Nothing was changed.
cmd-sequence-settings = sequence-settings
cmd-sequence-settings-desc = Show or change this server's defaults for Sequence games (Manage Server).
opt-sequence-settings-game = game
opt-sequence-settings-game-desc = The game a new table opens when none is named
opt-sequence-settings-level = level
opt-sequence-settings-level-desc = The level of computer players
opt-sequence-settings-turn_reminder = turn_reminder
opt-sequence-settings-turn_reminder-desc = Seconds before a player is reminded of their turn
opt-sequence-settings-turn_timeout = turn_timeout
opt-sequence-settings-turn_timeout-desc = Seconds before a computer plays the turn
opt-sequence-settings-lobby_timeout = lobby_timeout
opt-sequence-settings-lobby_timeout-desc = Seconds before a lobby that has not started closes
opt-sequence-settings-thinking_time = thinking_time
opt-sequence-settings-thinking_time-desc = Milliseconds a computer player thinks per move
opt-sequence-settings-on_timeout = on_timeout
opt-sequence-settings-on_timeout-desc = What happens when a player's time runs out
opt-sequence-settings-timeouts_before_replaced = timeouts_before_replaced
opt-sequence-settings-timeouts_before_replaced-desc = Timed-out turns in a row before a computer takes the seat (0: never)
choice-on_timeout-computer = a computer plays that turn
choice-on_timeout-give_up = the player gives up
opt-sequence-settings-rated = rated
opt-sequence-settings-rated-desc = Whether games count for ratings by default
opt-sequence-settings-hints = hints
opt-sequence-settings-hints-desc = Whether hints may be used in rated games (the game then becomes unrated)
opt-sequence-settings-replay_gif = replay_gif
opt-sequence-settings-replay_gif-desc = Whether the animated replay is posted after every finished game
opt-sequence-settings-web_links = web_links
opt-sequence-settings-web_links-desc = Whether games have a Watch button and web pages (live board, replay)
opt-sequence-settings-web_page = web_page
opt-sequence-settings-web_page-desc = Whether the server has its own web page (leaderboard, recent games, profiles)
opt-sequence-settings-language = language
opt-sequence-settings-language-desc = The language of the bot's channel posts
opt-sequence-settings-reset = reset
opt-sequence-settings-reset-desc = Go back to the bot's defaults first
choice-language-english = English
choice-language-german = Deutsch (German)
choice-language-norwegian = Norsk (Norwegian)

## Rematch, leaving, timeouts, lobby settings (issue 16)

button-rematch = Rematch
button-leave-confirm = Yes, give up
button-leave-keep = Keep playing
confirm-leave = Do you really want to give up this game? A computer player takes your seat and you cannot come back.
confirm-leave-ends = Do you really want to give up this game? Nobody is left to play on for your side, so the game ends at once and your opponents win.
kept-playing = Good: you are still playing.
timeout-gives-up = ⚠️ On this server running out of time means giving up: whoever lets a turn run out ({ $timeout }) leaves the game at once, and if nobody else plays on their side, that side loses.
hint-declined = No hint: the game stays rated. Choose your move.
gave-up = { $player } gave up.
out-of-time-lost = ⏰ { $player } ran out of time { $count ->
        [1] once
        [2] twice in a row
       *[other] { $count } times in a row
    }: their side loses.
out-of-time-ends = ⏰ { $player } ran out of time { $count ->
        [1] once
        [2] twice in a row
       *[other] { $count } times in a row
    }: nobody is left to play, so the game ends.
timeout-warning = ⚠️ { $player }, you ran out of time { $count ->
        [1] on your last turn
       *[other] on your last { $count } turns
    }: if it happens again, a computer takes your seat for the rest of the game.
timeout-warning-ends = ⚠️ { $player }, you ran out of time { $count ->
        [1] on your last turn
       *[other] on your last { $count } turns
    }: if it happens again, your side loses.
replaced-after-timeouts = ⏰ { $player } ran out of time { $count ->
        [1] once
        [2] twice in a row
       *[other] { $count } times in a row
    }: the computer player **{ $bot }** takes their seat for the rest of the game.
remove-with-jack = In a card game you remove a chip with a one-eyed jack (J♠ or J♥): `/sequence play card:JS cell:C3`.
remove-with-dragon = In Sequence for Kids you remove a chip with the dragon: `/sequence play card:dragon cell:C3`.
not-in-hand = That card is not in your hand. Your cards: { $cards }.
roll-does-not-match = That cell does not fit your roll of { $total }.
roll-cells = Your roll allows: { $cells }.
team-no-room = { $team } already has { $size ->
        [one] its 1 player
       *[other] its { $size } players
    }, as many as a team of this game can have. Join another team, or join without naming one.
rematch-not-player = Only the players of the last game here can ask for its rematch. Start a new game with `/sequence start`.
rematch-expired = That game ended too long ago for a rematch. Start a new game with `/sequence start`.
rematch-superseded = A newer game has been played in this channel since. Use the Rematch button under the latest game's result, or start a new game with `/sequence start`.
leave-expired = That question was about a game that is over. Nothing was changed.
leave-answered = That question was answered already: you are still playing, and nothing was changed. To give up, use `/sequence leave` again.
question-answered = That question was answered already, so nothing was changed. Ask again if you still want to.
lobby-invited = Rematch! Invited: { $players }. Press **Join** to play again.
lobby-rules = Settings: { $target } · { $reminder } · { $timeout } · computers added without a level, and those playing for a player: { $level }.
lobby-rules-reminder = turn reminder after { $time }
lobby-rules-no-reminder = no reminder (the turn prompt counts down)
bad-turn-time = A turn time of { $secs } s is not possible: choose between { $min } and { $max } seconds.
lobby-rules-scoring = most points wins (scoring)
lobby-rules-sequences = { $count ->
        [one] 1 sequence to win
       *[other] { $count } sequences to win
    }
lobby-rules-sequences-by-teams = { $count ->
        [one] 1 sequence to win
       *[other] { $count } sequences to win
    } ({ $three } with three teams)
lobby-rules-timeout-computer = after { $timeout } a computer plays the turn
lobby-rules-timeout-give-up = after { $timeout } the player gives up: a computer takes the seat, or the game ends if nobody is left on their side
lobby-rules-timeout-replaced = after { $timeout } a computer plays the turn; after { $count ->
        [one] 1 timed-out turn
       *[other] { $count } timed-out turns in a row
    } it takes the seat for the rest of the game (if nobody else plays on that side, the side loses)

## Rated or casual, aborted games, stops that count as giving up
rating-rated = ⚖️ Rated: this game counts for ratings.
rating-casual = Casual: this game does not count for ratings.
rating-casual-limit = Casual: some of these players have already played { $limit } rated games against each other in the last 24 hours, so this one does not count for ratings.
rating-aborted = Aborted: the game ended before every player had made { $moves } moves, so it counts for nothing (no rating change, no win or loss).
rating-moderator-stop = Not rated: stopped by someone who is not playing, so the game has no result.
rating-moderator-stop-gave-up = Not rated: stopped by someone who is not playing, so the game has no result; players who gave up keep their loss.
stop-is-giving-up = { $player } plays in this game, so stopping it counts as giving up.
shared-win = 🏆 { $teams } share the win, as the others gave up.
history-aborted = aborted
rating-needs-opponent = Casual so far: the game counts for ratings once people play on at least two teams.

## Buttons for what is still typed (issue 26): the level menu, teams, the ⋯ menu, after the game
button-level-easy = Easy
button-level-medium = Medium
button-level-hard = Hard
button-removebot = Remove computer
button-join-team = Join team { $team }
button-more = ⋯ More
button-status = Status
button-rules = Rules
button-leave-game = Leave the game
button-stop = Stop the game
button-stats = My stats
button-record = Game record
bot-menu = Which level should the computer player have?
bot-menu-added = { $name } has joined. Add another computer player?
game-menu = More for this game:
button-expired = That button was for an earlier game or lobby in this channel. Nothing was changed.
team-changed = You are now in { $team }.
already-on-team = You are in { $team } already.
button-stop-confirm = Yes, stop the game
confirm-stop-player = Stop this game for everyone now? You play in it, so stopping counts as giving up: a loss for your team.
confirm-stop = Stop this game for everyone now? It ends without a result.
bad-series = A series of { $count } games is not offered: choose best of 3, 5 or 7.
series-score = Series, best of { $count }, after game { $played }: { $score }.
lobby-rules-series = a series, best of { $count } games
series-game = 🏁 Game { $number } of a best of { $count } — { $score }.
series-won = 🏆 { $players } win the series (best of { $count })!
series-no-winner = The series ends without a winner.
series-next = Press **Next game** to play the next game of the series at once: same players and teams, the side that lost moves first.
series-break = This channel is between two games of a series: a player of the series presses **Next game** (or **Abandon series** to end it).
not-in-series = Only the players of this series can start its next game or abandon it.
confirm-abandon-series = Abandon the series? The games played stay rated, and nobody wins the series.
series-abandoned = { $player } abandoned the series. The games played stay rated; nobody wins the series.
series-expired = Nobody started the next game of the series in time: the series ends without a winner.
button-next-game = Next game
button-abandon-series = Abandon series
button-abandon-series-confirm = Yes, abandon the series
opt-start-series = series
opt-start-series-desc = Play a series: best of 3, 5 or 7 games
choice-series-best3 = best of 3
choice-series-best5 = best of 5
choice-series-best7 = best of 7
series-stats = Series: { $played ->
        [one] 1 played
       *[other] { $played } played
    }, { $won } won.

## King of the Board
opt-start-mode = mode
opt-start-mode-desc = Game mode of classic Sequence (default: standard)
opt-start-points_to_win = points_to_win
opt-start-points_to_win-desc = King of the Board: the points that win (2 to 10, default 3)
choice-mode-standard = standard
choice-mode-king_of_the_board = King of the Board (classic)
option-king-of-the-board = King of the Board
option-points-to-win = { $count } points to win
lobby-rules-kotb = King of the Board, { $count } points win
zone-line = 👑 Zone { $centre }: { $first }–{ $last }, worth 2 (a sequence elsewhere: 1).
zone-scored = 👑 { $team } scores 2 in the zone! { $points }
zone-scored-outside = 🎉 { $team } scores 1. { $points }
zone-points = ({ $total } of { $target } points)
zone-points-past = ({ $total } points, { $target } needed)
zone-moved = 👑 The zone moves to { $centre } ({ $first }–{ $last }).
status-points = Points ({ $target } to win): { $list }.
status-zone = Zone { $centre }: { $first }–{ $last }, worth 2.
setup-king-of-the-board = King of the Board is a mode of classic Sequence: it cannot be combined with the house rules scoring or capture pairs, and it is won on points (`{ $option }`), not on sequences.
setup-points-to-win = `{ $option }` (2 to 10) is for King of the Board: choose the mode { $mode }.
hint-busy = Your last hint is still being worked out: one at a time, please.
hint-spent = You have asked me for a lot lately: a hint is a long search. Please try again in a few seconds.
replays-waiting = You already have { $max ->
        [one] a replay
       *[other] { $max } replays
    } waiting to be drawn: ask again once one is posted.
replays-busy = { $max } replays are waiting to be drawn in this server: please try again in a minute.

## Profiles, head-to-head and achievements (issue 35)
button-profile = My profile
cmd-profile = profile
cmd-profile-desc = A player's profile on this server: figures, rating chart and achievements.
opt-profile-user = user
opt-profile-user-desc = Whose profile (default: yours)
cmd-versus = versus
cmd-versus-desc = Your games with another member of this server.
opt-versus-user = user
opt-versus-user-desc = The other member
cmd-profile_menu = Sequence profile
profile-none = { $player } has not finished a game on this server yet, so there is no profile to show.
profile-rebuilding = Profiles are being rebuilt from the stored games after an update ({ $percent }% done). Games go on as usual and count; please ask again in a few minutes.
versus-none = You have not finished a game with { $other } on this server yet.
versus-self = Pick another member: `/sequence versus` compares your games with theirs.
achievement-unlocked = 🏅 { $player } unlocked { $names }
profile-header = 🪪 **Profile** of { $player } on this server
profile-unrated = No rated game yet
profile-rank = #{ $place } of { $total } on the leaderboard
profile-chart = Rating over the last { $games ->
        [one] rated game
       *[other] { $games } rated games
    }
profile-chart-text = Rating over the last { $games } rated games: from { $first } to { $last }.
profile-totals = { $games ->
        [one] 1 game
       *[other] { $games } games
    }, { $wins ->
        [one] 1 win
       *[other] { $wins } wins
    } ({ $percent }%), win streak { $streak } (best { $best }), { $sequences ->
        [one] 1 sequence
       *[other] { $sequences } sequences
    }.
profile-by-game = By game
profile-by-opponents = By opponents
profile-breakdown = { $name } { $games } played, { $wins } won ({ $rate }), { $moves } moves a game{ $fastest }
profile-fastest = , fastest win in { $moves } moves
profile-vs-humans = People
profile-vs-easy = Computer (easy)
profile-vs-medium = Computer (medium)
profile-vs-hard = Computer (hard)
profile-col-game = Game
profile-col-opponents = Opponents
profile-col-games = Games
profile-col-wins = Wins
profile-col-rate = Win rate
profile-col-moves = Moves a game
profile-col-fastest = Fastest win
profile-style = How they play
profile-two-eyed = Two-eyed jacks played
profile-one-eyed = One-eyed jacks played
profile-lines-broken = Lines of four broken
profile-dead-cards = Dead cards exchanged
profile-first-move = Moving first
profile-first-move-value = { $percent }% won ({ $wins }/{ $games })
profile-moves-per-game = Own moves a game
profile-play-time = Play time
profile-play-time-value = { $hours } h { $minutes } min
profile-first-game = First game here
profile-agreement = Agreement with hard
profile-agreement-value = { $percent }% over { $games ->
        [one] 1 game
       *[other] { $games } games
    }
profile-achievements = Achievements ({ $count } of { $total }): { $list }.
profile-achievements-title = Achievements
profile-achievements-none = none yet
profile-progress = { $name } ({ $condition }) { $have }/{ $goal }
profile-next = Next
profile-games = Games
profile-wins = Wins
profile-win-rate = Win rate
profile-streak = Win streak
profile-best-streak = Best streak
profile-sequences = Sequences
profile-series = Series won
profile-series-value = { $won } of { $played }
profile-footer = This server's games only. Achievements count a player's own moves, in rated games and games without a human opponent.
versus-header = 🤝 { $player } and { $other } on this server: { $games ->
        [one] 1 game
       *[other] { $games } games
    } together.
versus-title = With { $other }
versus-you = you
versus-games = Games together
versus-as-partners = As partners
versus-partners-value = { $games } played, { $wins } won
versus-as-opponents = As opponents
versus-opponents-value = { $games } played, { $player } { $wins } – { $losses } { $other }
versus-sequences = Sequences
versus-sequences-value = { $player } { $mine }, { $other } { $theirs }
versus-recent = Latest games
versus-won-together = won together
versus-lost-together = lost together
versus-won = won
versus-lost = lost
versus-no-winner = no winner
versus-footer = `/sequence replay game:` shows one of them move by move.
achievement-first_game = First game
achievement-first_game-condition = Finish a game
achievement-veteran = Veteran
achievement-veteran-condition = Finish 100 games
achievement-on_fire = On fire
achievement-on_fire-condition = 5 wins in a row
achievement-unstoppable = Unstoppable
achievement-unstoppable-condition = 10 wins in a row
achievement-beat_easy = Warm-up
achievement-beat_easy-condition = Beat the easy computer
achievement-beat_medium = Getting serious
achievement-beat_medium-condition = Beat the medium computer
achievement-beat_hard = Giant slayer
achievement-beat_hard-condition = Beat the hard computer
achievement-hard_ten = Machine tamer
achievement-hard_ten-condition = Beat the hard computer 10 times
achievement-wild_cards = Wild cards
achievement-wild_cards-condition = Play 50 two-eyed jacks
achievement-quick = Lightning
achievement-quick-condition = Win on the board within 12 moves of your team
achievement-ten_hours = Devoted
achievement-ten_hours-condition = Play for 10 hours
achievement-party = Party
achievement-party-condition = Finish 10 games with 3 or more people
achievement-king = King of the Board
achievement-king-condition = Win a King of the Board game
achievement-series_won = Series champion
achievement-series_won-condition = Win a series
achievement-dice_win = Lucky roll
achievement-dice_win-condition = Win a game of Sequence Dice
achievement-kids_win = Animal friend
achievement-kids_win-condition = Win a game of Sequence for Kids
achievement-three_teams = Three's a crowd
achievement-three_teams-condition = Win a game of three teams
achievement-breaker = Breaker
achievement-breaker-condition = Break an opponent's four with a one-eyed jack
achievement-double = Double
achievement-double-condition = Complete two sequences with one move in a game won on the board
achievement-no_wild_cards = Purist
achievement-no_wild_cards-condition = Win on the board without playing a two-eyed jack
achievement-comeback = Comeback
achievement-comeback-condition = Win on the board after the other side made the first sequence
achievement-wall = The wall
achievement-wall-condition = Break 25 lines of four

## Playing where the bot may only answer interactions (issue 36)
external-apps-off = This server lets apps its members installed answer only privately (Use External Apps is off here), so nobody else would see a game. Play in a group DM with your friends, or ask the server's admins to add Sequence to the server.
server-only-lists = The leaderboard and the numbered list of games are kept per server. Outside a server games are casual; `/sequence record` and `/sequence replay` without a number give the last game played here.
casual-outside-servers = Games outside a server are casual: ratings rank the players of one server, and a group DM is none. Start again without `rated`.
answers-only = 📨 Here I may only answer your presses: each board comes with the press that made it. If a turn runs out while nobody presses, I say what happened with the next press (any player can bring the game back). Your cards stay private: **Show my cards** or the picker.
held-back = ⏳ Held back while nobody pressed (here I may only answer presses):
## Challenges: `/sequence start invite:` and the user command "Challenge to Sequence"
opt-start-invite = invite
opt-start-invite-desc = Challenge friends: mention the players to invite (@Ann @Bob)
cmd-challenge_menu = Challenge to Sequence
button-accept = Accept
button-decline = Decline
lobby-challenge = Challenge! Invited: { $players }. Press **Accept** or **Decline**; the invitation lapses { $when }.
lobby-challenge-lapsed = No answer from { $players }: the invitation lapsed. Anyone may still press **Join**.
invite-not-mentions = Name the players to invite as mentions: type @ and pick each one from the list, as in `invite: @Ann @Bob`.
invite-not-people = Only people can be invited, not a role, a channel, @everyone or @here.
invite-twice = { $player } is named twice: invite each player once.
invite-self = You are the host already: invite the other players.
invite-too-many = Too many players invited: this game has room for { $max } more besides you.
invite-bot = { $player } is an app, not a person: add computer players with **Add computer** in the lobby.
not-invited = This invitation is not for you, or it was answered or has lapsed. Press **Join** to take a seat.
declined-ack = You declined the invitation. Nobody else at the table is told; the host is, by direct message, if their DMs are open.
challenge-declined = { $player } declined your invitation to { $game } in { $channel }.
