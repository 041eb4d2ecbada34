# sequence-bot — norsk (bokmål). Samme meldings-ID-er og samme $variabler som en-US/sequence.ftl (testene
# sjekker det). Ordbruk som i det norske regelarket: sjetong, rekke (sequence), åpne felt i hjørnene,
# ut-bunke; knekt (toøyd/enøyd), dødt kort.

## Skråstrekkommandoer: navn (små bokstaver, uten mellomrom, høyst 32 tegn) og beskrivelser (høyst 100)

cmd-sequence = sequence
cmd-sequence-desc = Spill Sequence, Sequence Dice eller Sequence for barn i denne kanalen.
cmd-start = nytt
cmd-start-desc = Start et nytt spill i denne kanalen; andre blir med via knappen eller /sequence bli-med.
opt-start-game = spill
opt-start-game-desc = Hvilket spill (standard: klassisk)
opt-start-teams = lag
opt-start-teams-desc = Antall lag (standard: etter antall spillere)
opt-start-sequences_to_win = rekker
opt-start-sequences_to_win-desc = Hvor mange rekker et lag trenger for å vinne (klassisk)
opt-start-sequence_length = rekkelengde
opt-start-sequence_length-desc = Sjetonger i en vinnerrekke (terningspill: 5 eller 6)
opt-start-equal_turns = lik_runde
opt-start-equal_turns-desc = En seier teller først når runden er spilt ferdig
opt-start-scoring = poeng
opt-start-scoring-desc = Husregel: spill videre, ett poeng per rekke (klassisk)
opt-start-capture_pairs = fange_par
opt-start-capture_pairs-desc = Husregel: sperr inne to av motstanderens sjetonger og fang dem (klassisk)
opt-start-rated = rangert
opt-start-rated-desc = Teller for rating (standard: hvis mennesker spiller på minst to lag)
opt-start-turn_time = turtid
opt-start-turn_time-desc = Tid for en tur; påminnelse halvveis (standard: serverens)
cmd-join = bli-med
cmd-join-desc = Ta plass i spillet som snart begynner.
opt-join-team = lag
opt-join-team-desc = Laget du vil spille på (1, 2, …)
cmd-leave = forlat
cmd-leave-desc = Forlat lobbyen, eller gi opp spillet som pågår (datamaskinen tar plassen din).
cmd-forfeit = gi-opp
cmd-forfeit-desc = Gi opp spillet som pågår (datamaskinen tar plassen din).
cmd-bot = datamaskin
cmd-bot-desc = Datamaskinspillere i lobbyen.
cmd-bot-add = legg-til
cmd-bot-add-desc = Legg til en datamaskinspiller i lobbyen (bare verten).
opt-bot-add-level = nivå
opt-bot-add-level-desc = Hvor sterk (standard: innstillingen til serveren)
cmd-bot-remove = fjern
cmd-bot-remove-desc = Fjern den siste datamaskinspilleren fra lobbyen (bare verten).
cmd-begin = begynn
cmd-begin-desc = Del ut kortene og start spillet (bare verten; som Start-knappen).
cmd-cancel = avbryt
cmd-cancel-desc = Lukk lobbyen uten å spille (bare verten).
cmd-play = spill
cmd-play-desc = Spill et kort på et felt (i terningspillet: legg sjetongen din etter at du har kastet).
opt-play-card = kort
opt-play-card-desc = Et av kortene dine (enøyd knekt / drage: oppgi så sjetongen som skal fjernes)
opt-play-cell = felt
opt-play-cell-desc = Feltet, for eksempel D6
cmd-exchange = bytt
cmd-exchange-desc = Bytt et dødt kort (begge feltene er opptatt) mot et nytt.
opt-exchange-card = kort
opt-exchange-card-desc = Det døde kortet
cmd-roll = kast
cmd-roll-desc = Sequence Dice: kast terningene for turen din.
cmd-remove = fjern
cmd-remove-desc = Sequence Dice: etter et kast på 10, fjern en av motstanderens sjetonger.
opt-remove-cell = felt
opt-remove-cell-desc = Sjetongen som skal fjernes, for eksempel C3
cmd-hand = hånd
cmd-hand-desc = Vis kortene dine (bare du ser dem).
cmd-board = brett
cmd-board-desc = Vis spillebrettet slik det står nå.
cmd-status = status
cmd-status-desc = Vis spillerne, hvem sin tur det er, og stillingen (bare du ser det).
cmd-rules = regler
cmd-rules-desc = Forklar reglene (bare du ser dem).
opt-rules-game = spill
opt-rules-game-desc = Hvilket spill (standard: spillet i denne kanalen)
cmd-stop = stopp
cmd-stop-desc = Avslutt spillet nå (verten, eller medlemmer som kan administrere meldinger).

## Valg i listene (høyst 100 tegn)

choice-game-classic = Sequence (klassisk, med kort)
choice-game-dice = Sequence Dice (terninger)
choice-game-kids = Sequence for barn
choice-level-easy = lett
choice-level-medium = middels
choice-level-hard = vanskelig
choice-turn_time-15s = 15 sekunder (lyn)
choice-turn_time-30s = 30 sekunder
choice-turn_time-60s = 1 minutt
choice-turn_time-120s = 2 minutter
choice-turn_time-server = serverens turtid

## Knapper

button-join = Bli med
button-leave = Forlat
button-addbot = Legg til datamaskin
button-begin = Start
button-cancel = Avbryt
button-roll = Kast terningene
button-hand = Vis kortene mine

## Kortvelgeren (knapper)
picker-play = Spill
picker-back = Tilbake
picker-hint = Tips
picker-hint-unrated = Ja, vis tipset (urangert)
confirm-hint = Et tips gjør dette spillet urangert for alle: Det teller ikke for ratingen. Vise tipset likevel?
hint-made-unrated = Dette spillet er nå urangert: Det teller ikke lenger for ratingen.
hint-made-casual = 💡 { $player } brukte et tips: Dette spillet teller ikke lenger for ratingen.
picker-exchange = Bytt { $card } (dødt)
picker-unplayable = { $card }: ikke spillbart denne runden
picker-row = Rad { $row }: { $cells ->
    [one] 1 rute
   *[other] { $cells } ruter
}
picker-row-part = Rad { $row }, del { $part }: { $cells } ruter
picker-row-placeholder = Velg en rad
pick-card = Velg et kort:
pick-row-card = { $card }: velg en rad først.
pick-row-card-remove = { $card }: velg raden til sjetongen du fjerner.
pick-row-dice = Velg en rad for sjetongen din.
pick-row-dice-remove = Velg raden til sjetongen du fjerner.
pick-cell-card = { $card }: velg en rute.
pick-cell-card-remove = { $card }: velg sjetongen du fjerner.
pick-cell-dice = Velg en rute for sjetongen din.
pick-cell-dice-remove = Velg sjetongen du fjerner.
picker-expired = Disse knappene hører til en runde som er over. Bruk **Spill**-knappen i den nyeste meldingen.
picker-expired-dice = Disse knappene hører til en runde som er over. Bruk **Kast terningene**-knappen i den nyeste meldingen.
picker-not-yours = Disse knappene er ikke for deg: Det er { $player } sin tur, og bare de ser kortene sine.
picker-not-your-card = { $card } er ikke på hånden din.
bad-button = Jeg kjenner ikke denne knappen. Ingenting ble endret.

## Nettsiden (nettleser): tekstene på siden, fra /api/texts

web-loading = Laster …
web-name-title = Hvem spiller?
web-name-label = Navnet ditt, slik de andre ser det
web-name-save = Fortsett
web-name-bad = Et navn har 1 til 32 tegn.
web-home-title = Nytt spill
web-home-intro = Spill mot datamaskinen eller med venner på samme nett: åpne et spill og del lenken.
web-variant = Spill
web-teams = Lag
web-teams-auto = Slik spillerne sitter
web-teams-n = { $n } lag
web-series = Serie
web-series-none = Ett spill
web-series-best = Best av { $n }
web-clock = Tid per trekk
web-clock-none = Uten klokke
web-new-game-submit = Åpne spillet
web-lobby = Venter på spillere
web-players = Spillere
web-you = deg
web-host = vert
web-computer = datamaskin
web-cards = { $n } kort
web-your-hand = Kortene dine
web-watching = Du ser på dette spillet.
web-your-turn = Din tur.
web-pick-card = Trykk på et kort, så på en av de merkede rutene.
web-pick-cell = Trykk nå på en av de merkede rutene.
web-pick-dice = Trykk på en merket rute for brikken din.
web-pick-remove = Trykk på brikken som skal fjernes.
web-no-target = Dette kortet har ikke noe trekk nå.
web-confirm = Spill { $card } på { $cell }
web-confirm-cell = Sett på { $cell }
web-confirm-remove = Fjern brikken på { $cell }
web-dead = dødt
web-exchange = Bytt { $card }
web-remove-bot = Fjern en datamaskin
web-stop = Avslutt spillet
web-stop-confirm = Avslutte dette spillet for alle nå?
web-next-game = Neste spill
web-watch-link = Lenke til dette spillet
web-copy = Kopier
web-copied = Kopiert
web-live = direkte
web-offline = kobler til igjen …
web-draw-pile = Bunke: { $n }
web-discards = Sist spilt
web-points = { $have }/{ $need } poeng
web-sequences = { $have }/{ $need } sekvenser
web-series-score = Serie, best av { $best }: { $score }
web-zone = Sonen i «Brettets konge»
web-roll = Kast: { $a } + { $b } = { $sum }
web-replay = Reprise
web-replay-step = Trekk { $n } av { $total }
web-server-title = Sequence på denne serveren
web-server-leaderboard = Toppliste
web-server-no-players = Ingen rangerte spill ennå.
web-server-player = Spiller
web-server-rating = Rating
web-server-games-played = Spill
web-server-wins = Seire
web-server-provisional = foreløpig
web-server-tap = Trykk på en spiller for å se tallene.
web-server-sequences = Sekvenser
web-server-streak = Seire på rad (nå / beste)
web-server-jacks = Knekter spilt (toøyde / enøyde)
web-server-broken = Rekker brutt
web-server-dead = Døde kort byttet
web-server-series = Serier vunnet / spilt
web-server-achievements = Prestasjoner
web-server-agreement = Trekk som den vanskelige datamaskinens
web-server-games = Siste spill
web-server-no-games = Ingen ferdige spill ennå.
web-server-replay = Reprise
web-server-aborted = avbrutt
web-server-winner = vant
web-replay-prev = Tilbake
web-replay-next = Neste
web-record-download = Last ned opptaket
web-summary = Sammendrag
web-language = Språk
web-home = Startside
web-not-found-title = Ingenting her
web-not-found-text = Denne lenken er ukjent eller utløpt.
web-error-network = Boten kan ikke nås akkurat nå. Prøver igjen …
web-local-off = Spill åpnes i Discord her. Åpne lenken til et spill for å se på.
web-activity-signing-in = Logger inn via Discord …
web-activity-not-set-up = Brettet i Discord er ikke satt opp på denne boten ennå: Den som driver boten, kan slå det på.
web-activity-no-discord = Dette brettet åpnes bare inne i Discord: Start det der med «Åpne brettet».
web-activity-denied = Discord lot ikke brettet få vite hvem du er, så det kan ikke gi deg en plass: Lukk det og åpne det igjen for å tillate det.
web-activity-sign-in-failed = Innloggingen via Discord virket ikke: Lukk brettet og åpne det igjen.
web-activity-lobby-title = Ingen spill i denne kanalen ennå
web-activity-lobby-intro = Åpne en lobby her: Den vises i chatten som etter /sequence nytt, og de andre blir med der eller fra dette brettet.
web-activity-lobby-submit = Åpne en lobby i denne kanalen

## Navn

game-classic = Sequence
game-dice = Sequence Dice
game-kids = Sequence for barn
color-blue = blå
color-green = grønn
color-red = rød
color-yellow = gul
color-grey = grå
team-name = lag { $number } ({ $color })
list-and = { $first } og { $last }
list-or = { $first } eller { $last }
level-easy = lett
level-medium = middels
level-hard = vanskelig
bot-name = Datamaskin { $number } ({ $level })
bot-stand-in = Datamaskin ({ $level }, for { $name })
seat-fallback = plass { $number }
duration = { $seconds ->
        [one] 1 sekund
       *[other] { $seconds } sekunder
    }
duration-minutes = { $minutes ->
        [one] 1 minutt
       *[other] { $minutes } minutter
    }

## Dyrene i Sequence for barn

animal-lion = løve
animal-zebra = sebra
animal-giraffe = sjiraff
animal-elephant = elefant
animal-monkey = ape
animal-panda = panda
animal-frog = frosk
animal-owl = ugle
animal-turtle = skilpadde
animal-rabbit = kanin
animal-penguin = pingvin
animal-fox = rev
animal-whale = hval
animal-bear = bjørn
animal-hippo = flodhest
animal-kangaroo = kenguru
animal-ostrich = struts
animal-gorilla = gorilla
animal-crocodile = krokodille
animal-dragon = drage
animal-unicorn = enhjørning

## Avslag

no-table = Det er ikke noe spill i denne kanalen. Start et med `/sequence nytt`.
played-elsewhere = Denne siden viser bare spillet: det spilles der det ble startet (i Discord-kanalen sin). Trekk som gjøres der, vises her.
table-exists = Denne kanalen har allerede et spill eller en lobby. Spill det ferdig (eller verten kan avslutte det med `/sequence stopp`) før dere starter et nytt.
already-started = Spillet har allerede begynt. Du kan se på og bli med i neste.
not-started = Spillet har ikke begynt ennå: Verten starter det med **Start**-knappen eller `/sequence begynn`.
already-joined = Du er allerede med i dette spillet.
lobby-full = Dette spillet er fullt: Det kan være høyst { $max } spillere.
not-in-game = Du er ikke med i dette spillet.
not-host = Bare verten ({ $host }) eller medlemmer som kan administrere meldinger, kan gjøre det.
too-many-tables = Du har allerede { $max } åpne spill eller lobbyer. Fullfør eller avslutt ett av dem før du åpner et nytt.
server-full = Denne serveren har allerede { $max } åpne spill eller lobbyer. Vent til ett av dem er ferdig.
too-many-bots = Et spill kan ha høyst { $max } datamaskinspillere.
busy = Jeg poster mye på denne serveren akkurat nå. Prøv igjen om noen sekunder.
slow-down = Du ber meg om å poste mye akkurat nå. Prøv igjen om noen sekunder.
web-live-full = Akkurat nå er for mange direktevisninger åpne, fra adressen din eller totalt. Lukk en og prøv igjen om et minutt.
host-gave-up = Verten har gitt opp: Bare spillerne som fortsatt er med, eller medlemmer som kan administrere meldinger, kan gjøre det.
done = Gjort: se kanalen.
not-your-turn = Det er ikke din tur: Det er { $player } sin tur.
illegal-cells = Det kortet kan legges på: { $cells }.
illegal-no-cells = Det kortet har ikke noe ledig felt nå.
bad-card-kids = `{ $typed }` er ikke et kort i dette spillet. Skriv et dyr (som `løve`), `enhjørning` eller `drage`.
bad-card-classic = `{ $typed }` er ikke et kort. Skriv verdi og farge, som `7H`, `10S`, `QD` eller `JC` (S spar, H hjerter, D ruter, C kløver; J knekt, Q dame, K konge, A ess).
bad-cell = `{ $typed }` er ikke et felt på dette brettet. Skriv en kolonnebokstav og et radnummer, fra `A1` til `{ $last }`.
card-needed = Skriv hvilket kort du vil spille, for eksempel `/sequence spill kort:7H felt:D6`.
cell-needed = Skriv hvilket felt, for eksempel `/sequence spill kort:7H felt:D6` (eller `/sequence spill felt:C3` i Sequence Dice).
bad-option = Jeg klarte ikke å lese et av valgene. Velg verdiene fra listene Discord viser.
guild-only = Dette virker bare på en server.
no-cards-in-dice = Sequence Dice har ingen kort: Kast med `/sequence kast`, og legg så sjetongen med `/sequence spill felt:`.
not-dice = Det er bare Sequence Dice som bruker terninger.
roll-first = Kast terningene først med `/sequence kast`.
already-rolled = Du har allerede kastet { $dice }. Legg nå sjetongen din med `/sequence spill felt:`.
bad-team-count = { $game } kan ikke spilles med { $teams } lag. { $variant ->
        [dice] La `lag` stå tomt, eller velg 2.
        [kids] La `lag` stå tomt, eller velg 2 eller 4.
       *[classic] La `lag` stå tomt, eller velg 2 eller 3.
    }
bad-team = Det finnes ikke noe lag { $team }: Velg et lag fra 1 til { $max }.
team-full = { $chosen } spillere valgte { $team }, men hvert lag har { $size } spillere. Noen bør gå ut med `/sequence forlat` og bli med på et annet lag.
no-bot = Det er ingen datamaskinspiller å fjerne.
internal = Beklager, noe gikk galt hos meg. Prøv igjen.

## Svar fra nettsidene (en forespørsel fra siden som ikke kan besvares)

web-api-not-found = Det finnes ikke noe spill på denne adressen: Lenken kan være feil, eller spillet er over.
web-api-unknown-address = Det finnes ingenting på denne adressen.
web-api-unreadable = Jeg kunne ikke lese den forespørselen.
web-api-unknown-action = Det finnes ingen handling som heter «{ $action }».
web-api-turn-needed = Et trekk må si hvilket trekknummer det ble gjort på.
web-api-card-needed = Velg et kort først.
web-api-cell-needed = Velg et felt først.
web-api-bad-card = { $card } er ikke et kort i dette spillet.
web-api-bad-cell = { $cell } er ikke et felt på dette brettet.
web-api-forbidden = Denne forespørselen kom ikke fra spillets side, så den ble avvist.
web-api-too-many = For mange forespørsler på en gang: Vent litt og prøv igjen.
web-api-name-needed = Velg et navn først.
web-api-bad-name = Et navn har 1 til 32 tegn, uten linjeskift.
web-api-no-local = Det kan ikke åpnes spill på disse sidene.
web-api-starting = Boten starter fortsatt: Prøv igjen om et øyeblikk.
web-api-not-live = Denne adressen tar bare imot en direkte tilkobling (WebSocket).
web-api-method = Denne adressen tar ikke imot den typen forespørsel.
web-api-watch-only = Dette spillet spilles i Discord: Se på det her, bli med der.
web-activity-off = Discord-aktiviteten er ikke satt opp på denne boten.
web-activity-bad-code = Discord godtok ikke denne innloggingen: Åpne aktiviteten på nytt.
web-activity-bad-token = Innloggingen din hos Discord har utløpt: Åpne aktiviteten på nytt.
web-activity-unavailable = Discord kan ikke nås akkurat nå: Prøv igjen om et øyeblikk.
web-activity-no-instance = Denne aktiviteten er avsluttet: Åpne den på nytt.
web-activity-not-in-instance = Du er ikke med i denne aktiviteten: Bli med i den i Discord først.
web-activity-signed-out = Økten din i aktiviteten er avsluttet: Logg inn på nytt.

## Hvorfor et spill ikke kan starte slik

setup-player-count = { $game } kan ikke spilles av { $players ->
        [one] 1 spiller
       *[other] { $players } spillere
    }: Det trengs { $variant ->
        [classic] 2, 3, 4, 6, 8, 9, 10 eller 12
       *[other] 2, 3 eller 4
    } spillere.
setup-teams-alone = { $players } spillere kan ikke spille i { $teams } lag: To eller tre spillere spiller hver for seg.
setup-teams = { $players } spillere kan ikke spille { $game } i { $teams } lag, men de kan spille i { $possible } lag.
setup-house-rule = `{ $option }` er en husregel for klassisk Sequence, ikke for { $game }.
setup-one-sequence = I { $game } vinner alltid én rekke, så la `rekker` stå tomt.
setup-sequences-range = `rekker` må være fra 1 til 4.
setup-sequence-length = { $variant ->
        [dice] I Sequence Dice har en vinnerrekke 5 eller 6 sjetonger.
        [kids] I Sequence for barn har en vinnerrekke alltid 4 sjetonger.
       *[classic] I Sequence har en rekke alltid 5 sjetonger.
    }
setup-other = Det går ikke: { $reason }.

## Hvorfor et trekk ikke er lov (én per feilkode i RECORD.md)

play-error-not_your_turn = Det er ikke din tur.
play-error-card_not_in_hand = Du har ikke det kortet på hånden.
play-error-cell_occupied = Det ligger allerede en sjetong på det feltet.
play-error-card_does_not_match = Det kortet passer ikke til feltet.
play-error-free_corner = Hjørnene er åpne felt for alle, og der legges det aldri sjetonger.
play-error-chip_locked = Den sjetongen er beskyttet og kan ikke fjernes.
play-error-no_opponent_chip = Det ligger ingen av motstanderens sjetonger på det feltet.
play-error-not_dead = Det kortet er ikke dødt: Ett av feltene er fortsatt ledig.
play-error-exchange_twice = Du har allerede byttet et kort denne turen.
play-error-pass_not_allowed = Du kan fortsatt gjøre et trekk, så du kan ikke stå over.
play-error-wrong_action_for_roll = Det passer ikke med dette kastet.
play-error-game_over = Spillet er over.
play-error-bad_cell = Det er ikke et felt på dette brettet.
play-error-bad_card = Det er ikke et kort i dette spillet.

## Bekreftelser (bare du ser dem)

lobby-opened = Spillet ditt er åpent. Nå kan andre bli med; trykk **Start** når alle er på plass.
joined = Du er med i spillet.
left = Du har forlatt spillet.
bot-added = { $name } er med.
bot-removed = { $name } har gått.
cancelled-ack = Lobbyen er lukket.
begun-ack = Spillet har begynt.
forfeit-ack = Du har gitt opp dette spillet.
stopped-ack = Spillet er avsluttet.

## Lobbymeldingen

lobby-header = **{ $game }** — et nytt spill med { $host } som vert.
lobby-teams = { $teams } lag.
lobby-options = Valg: { $options }.
option-sequences-to-win = { $count ->
        [one] 1 rekke for å vinne
       *[other] { $count } rekker for å vinne
    }
option-sequence-length = rekker på { $length }
option-equal-turns = lik runde
option-scoring = poengspill
option-capture-pairs = fange par
lobby-players = Spillere ({ $count }/{ $max }):
lobby-nobody = (ingen ennå)
lobby-footer = Trykk **Bli med** (eller bruk `/sequence bli-med`) for å ta plass; verten trykker **Start** når alle er på plass.
seat-cards = { $count ->
        [one] 1 kort
       *[other] { $count } kort
    }
lobby-started = **{ $game }** — spillet har begynt. Lykke til!
lobby-cancelled = { $player } lukket denne lobbyen.
lobby-expired = Denne lobbyen ble lukket fordi spillet ikke begynte i tide.
lobby-abandoned = Denne lobbyen ble lukket: Alle gikk.
lobby-abandoned-computers = Denne lobbyen ble lukket: Alle menneskelige spillere gikk, og datamaskinspillere spiller ikke alene.
host-changed = { $player } er vert nå.

## Spillet, i kanalen

roll-off = 🎲 Terningkast om hvem som begynner: { $rolls }.
roll-off-again = Likt, kast igjen: { $rolls }.
roll-off-winner = { $player } begynner.
game-started = **{ $game }** begynner! Plassene i turrekkefølge:
game-started-cards = Kortene deres kommer på direktemelding (eller bruk `/sequence hånd`).
played = { $player } spilte { $card } på { $cell }.
removed-with-card = { $player } spilte { $card } og fjernet sjetongen til { $victim } fra { $cell }.
removed = { $player } fjernet sjetongen til { $victim } fra { $cell }.
placed = { $player } la en sjetong på { $cell }.
placed-replacing = { $player } la en sjetong på { $cell } i stedet for sjetongen til { $victim }.
exchanged = { $player } byttet det døde kortet { $card } og trakk et nytt.
passed = { $player } har ikke noe mulig trekk og står over.
captured = { $team } fanget to sjetonger fra { $victim } ({ $first } og { $second }).
sequence-done = 🎉 Ny rekke for { $team }! ({ $count } av { $target })
sequence-broken = { $team } mistet en rekke.
reshuffled = Ut-bunken ble stokket til en ny kortstokk å trekke fra.
provisional-win = { $team } har nådd målet! Runden spilles ferdig først.
rolled = 🎲 { $player } kastet { $dice }: { $hint }.
roll-hint-number = legg en sjetong på et felt med { $number }
roll-hint-replace = alle feltene med { $number } er opptatt, så bytt ut en av motstanderens sjetonger på et felt med { $number }
roll-hint-remove = fjern en av motstanderens sjetonger (ikke på 2 eller 12)
roll-hint-free = legg en sjetong på et hvilket som helst ledig felt
roll-hint-blocked = alle feltene med { $number } har allerede en av deres egne sjetonger, så dette kastet gir ikke noe trekk
roll-hint-nothing-to-remove = fjern en av motstanderens sjetonger, men det finnes ingen utenfor feltene med 2 og 12, så dette kastet gir ikke noe trekk
won = 🏆 Seier til { $team }: Gratulerer, { $players }!
scores = Poeng: { $scores }.
drawn = Spillet endte uavgjort.
blocked = Ingen kunne gjøre et trekk på en hel runde: Brettet er blokkert, så { $outcome ->
        [points] { $team } vinner på poeng ({ $count }).
        [sequences] { $team } vinner på sekvenser ({ $count }).
        [draw-count] spillet ender uavgjort ({ $count }).
       *[draw] spillet ender uavgjort.
    }
hint = 💡 **Tips** (datamaskinspilleren `hard`, med kortene dine og brettet): { $move }. { $why }.
hint-play = spill { $card } på { $cell }
hint-exchange = bytt { $card }
hint-place = legg en brikke på { $cell }
hint-remove = fjern brikken på { $cell }
hint-pass = stå over
why-completes = Det fullfører en rekke
why-breaks = Det bryter { $chips } på rad for { $team } på { $cell }
why-blocks = Det blokkerer { $chips } på rad for { $team } på { $cell }
why-makes = Det gir { $chips } på rad ({ $from }–{ $to })
why-zone = Det tar { $cell } i sonen: en rekke gjennom sonen gir 2 poeng
why-opens = Det starter en rekke på { $cell }: { $lines ->
        [one] én linje gjennom feltet er fortsatt åpen for deg
       *[other] { $lines } linjer gjennom feltet er fortsatt åpne for deg
    }
why-keeps-wild = Spar { $card } til senere
why-dead = Et dødt kort: bytt det først, og spør så igjen
why-best = Det gjorde det best i spillene datamaskinen spilte ut herfra
why-pass = Ingenting annet er mulig
hints-only-casual = Tips finnes bare i vennskapskamper: Dette spillet teller for ratingen.
hints-used = 💡 { $count ->
        [one] 1 tips ble
       *[other] { $count } tips ble
    } brukt i dette spillet, av { $players }.
stats-agreement = 🤖 Enighet med datamaskinspilleren `hard`: { $percent } % av { $counted } trekk i { $games ->
        [one] det siste rangerte spillet
       *[other] de siste { $games } rangerte spillene
    }.
agreement-title = 🤖 **Enighet med datamaskinen** (spill { $game }): Hvor ofte hver spiller valgte trekket datamaskinspilleren `hard` ville valgt med samme hånd og samme brett.
agreement-line = { $player }: { $percent } % ({ $matched } av { $counted ->
        [one] 1 trekk
       *[other] { $counted } trekk
    })
agreement-none = { $player }: ingen trekk å sammenligne
agreement-note = -# Dette måler enighet, ikke styrke: Ofte er flere trekk like gode, og `hard` er ikke perfekt.
summary-sequence = 📈 Rekke for { $team } av { $player } i trekk { $move }.
summary-sequence-zone = 👑 Rekke for { $team } av { $player } i trekk { $move }, i sonen: { $points } poeng (sonen dobler).
summary-sequence-points = 📈 Rekke for { $team } av { $player } i trekk { $move }: { $points } poeng.
summary-broken = ✂️ { $player } brøt { $chips } på rad for { $team } på { $cell } i trekk { $move }.
summary-length = ⏱️ { $moves ->
        [one] 1 trekk
       *[other] { $moves } trekk
    }.
summary-length-minutes = ⏱️ { $moves ->
        [one] 1 trekk
       *[other] { $moves } trekk
    } på { $minutes ->
        [0] under ett minutt
        [one] 1 minutt
       *[other] { $minutes } minutter
    }.
won-by-forfeit = 🏆 Seier til { $team } fordi alle andre ga opp: Gratulerer, { $players }!
won-on-time = 🏆 { $team } vinner på tid: Den andre siden gikk tom for tid. Gratulerer, { $players }!
stopped = Spillet ble avsluttet av { $player }.
no-humans-left = Det er ingen mennesker igjen i spillet, så det avsluttes.
forfeited = { $player } ga opp. Datamaskinspilleren **{ $bot }** tar plassen.
view-turn = { $player } er i trekket.
turn-bot = { $player } tenker …
turn-dice-again = { $player }, et kast på { $sum } gir deg en tur til (bare 2 og 12 gjør det): Kast igjen med **Kast terningene** (eller `/sequence kast`).
turn-dice = { $player }, det er din tur: trykk **Kast terningene** (eller `/sequence kast`).
turn-cards = { $player }, det er din tur: trykk **Spill** for å velge kort og rute (eller `/sequence spill kort: felt:`).
turn-deadline = Tiden din går ut { $deadline }.
reminder = ⏰ { $player }, det er fortsatt din tur. Om omtrent { $time } spiller datamaskinen for deg.
reminder-give-up = ⏰ { $player }, det er fortsatt din tur. Om omtrent { $time } går du tom for tid, og en datamaskin tar plassen din resten av spillet.
reminder-give-up-ends = ⏰ { $player }, det er fortsatt din tur. Om omtrent { $time } går du tom for tid, og siden ingen er igjen til å spille videre for din side, taper siden din.
timed-out = ⏰ { $player } gikk tom for tid, så datamaskinen ({ $level }) spilte denne turen.
dm-failed = { $player }, jeg fikk ikke sendt deg en direktemelding. Trykk **Vis kortene mine** (eller bruk `/sequence hånd`) for å se kortene dine privat.
record-attached = Spillprotokollen ligger vedlagt.
board-caption = **{ $game }**: Det er { $player } sin tur.

## Privat: en hånd, stillingen

hand-header = Kortene dine i { $channel }:
hand-your-turn = Det er din tur: Trykk **Spill** under turmeldingen i { $channel } for å velge kort og felt (eller bruk `/sequence spill kort: felt:`).
card-cells = { $card } — { $cells }
card-two-eyed-jack = { $card } — toøyd knekt: et hvilket som helst ledig felt
card-wild = { $card } — et hvilket som helst ledig felt
card-one-eyed-jack = { $card } — enøyd knekt: fjerner en av motstanderens sjetonger
card-remove = { $card } — fjerner en av motstanderens sjetonger
card-dead = { $card } — dødt (begge feltene er opptatt): bytt det med `/sequence bytt`
card-dead-exchanged = { $card } — dødt (begge feltene er opptatt); du har allerede byttet et kort denne turen, så bytt det i din neste tur
status-header = **{ $game }** — plassene i turrekkefølge:
status-to-move = Tur nå: { $player }
status-rolled = (kastet { $dice })
status-time-left = omtrent { $time } igjen av denne turen.
status-sequences = Rekker ({ $target } for å vinne): { $list }.
status-draw-pile = Kort igjen å trekke: { $count }.

## Autofullføring

complete-remove = { $cell } — fjern sjetongen til { $team }
complete-replace = { $cell } — bytt ut sjetongen til { $team }

## Regler (`/sequence regler`)

rules-classic =
    ## Sequence
    For 2 til 12 spillere: To eller tre spiller hver for seg; 4, 6, 8, 9, 10 eller 12 deler seg i 2 eller 3 lag, og lagkameratene sitter annenhver. Sjetonger: blå, grønn, og rød for et tredje lag.
    ### Mål
    En **rekke** (sequence) er 5 sjetonger i din farge på rad: bortover, nedover eller diagonalt. De fire hjørnene er åpne felt: De teller for alle lag, og ingen legger sjetonger der.
    Med 2 spillere eller lag trenger dere **2 rekker**, med 3 spillere eller lag **1**. To rekker fra samme lag kan dele ett felt, så 9 på rad teller som to.
    ### Turen din
    - Spill et kort og legg en sjetong på et av de to ledige feltene som viser kortet: `/sequence spill kort:7H felt:D6`. Knektene er ikke på brettet.
    - **Toøyde knekter** (kløver og ruter) er jokere: en sjetong på et hvilket som helst ledig felt.
    - **Enøyde knekter** (spar og hjerter) fjerner en av motstanderens sjetonger som ikke er del av en fullført rekke. Du legger ingenting den turen.
    - Et kort der begge feltene er opptatt, er **dødt**: Bytt det med `/sequence bytt` (én gang per tur), og spill så.
    - Du trekker et nytt kort automatisk. Når kortstokken er tom, stokkes ut-bunken til en ny.
    - Har du ikke noe mulig trekk, står du over; kan ingen gjøre noe, blir spillet uavgjort.
    Kort på hånden: 2 spillere 7, 3 eller 4 spillere 6, 6 spillere 5, 8 eller 9 spillere 4, 10 eller 12 spillere 3. Kortene dine kommer på direktemelding, eller se dem med `/sequence hånd`.
    ### Valg for `/sequence nytt`
    - `rekker`: hvor mange rekker som vinner (1 til 4).
    - `lik_runde`: En seier teller først når runden er spilt ferdig; når et annet lag også når målet i den runden, blir det uavgjort.
    - Husregel `poeng`: Spill videre til ingen kan gjøre noe, ett poeng per rekke. Enøyde knekter kan bryte rekker, og kortstokken stokkes ikke på nytt. Flest poeng vinner.
    - Husregel `fange_par`: Sperr inne nøyaktig to av motstanderens sjetonger som ligger ved siden av hverandre, mellom to av dine egne på rad, så fanger du dem (aldri fra en rekke). Fem fangede par vinner også.
    - `modus: Brettets konge`: et kappløp om poeng rundt en sone på 3 x 3 ruter (med ramme på brettet). En ny rekke som berører sonen gir 2 poeng, alle andre 1; etter hvert poeng flytter sonen til et annet av ni steder. `poeng_for_seier` (2 til 10, standard 3) vinner med en gang.
rules-dice =
    ## Sequence Dice
    For 2 til 4 spillere; med 4 spiller første og tredje mot andre og fjerde som to lag. Et terningkast avgjør hvem som begynner.
    ### Mål
    Bli først med **5 sjetonger på rad**: bortover, nedover eller diagonalt. Her er det ingen åpne hjørner. Med `/sequence nytt rekkelengde:6` trengs 6 sjetonger, slik reglene anbefaler for 2 spillere eller 2 lag.
    ### Turen din
    - Kast med `/sequence kast` (eller knappen), og legg så en sjetong på et ledig felt med summen av terningene: `/sequence spill felt:C3`.
    - Er alle feltene med det tallet opptatt, bytter du ut en av motstanderens sjetonger på et av dem (også på 2 og 12). Er alle fire dine egne, mister du turen.
    - **10** er et forsvarskast: Fjern en av motstanderens sjetonger, men ikke fra et felt med 2 eller 12: `/sequence fjern felt:C3`.
    - **11** er et frikast: Legg en sjetong på et hvilket som helst ledig felt.
    - Etter **1+1** (2) eller **6+6** (12) legger du sjetongen og kaster en gang til. Andre like par gir ikke noe ekstra kast.
rules-kids =
    ## Sequence for barn
    For 2 til 4 spillere, hver med sin egen farge (4 spillere kan også spille i 2 lag).
    ### Mål
    Bli først med **4 sjetonger på rad**: bortover, nedover eller diagonalt. De fire hjørnene er åpne felt som teller for alle.
    ### Turen din
    - Du har 3 dyrekort. Spill ett og legg en sjetong på et ledig felt med det dyret: `/sequence spill kort:løve felt:B1`.
    - **Enhjørningen** kan legges på et hvilket som helst ledig felt. **Dragen** fjerner en av motstanderens sjetonger, og du legger ingenting den turen.
    - Et kort der begge feltene er opptatt, er **dødt**: Bytt det med `/sequence bytt`, og spill så turen som vanlig.
    - Du trekker et nytt kort automatisk, så du har alltid 3 kort.
    Dyrene: løve, sebra, sjiraff, elefant, ape, panda, frosk, ugle, skilpadde, kanin, pingvin, rev, hval, bjørn, flodhest, kenguru, struts, gorilla og krokodille.

## Ord på bildene av brettet og hånden

image-seat = Plass { $n }
image-turn = { $name } sin tur
image-won = { $team } vinner!
image-drawn = Uavgjort
image-draw-pile = Kortstokken: { $n }
image-sequences = { $have }/{ $need }
image-points = { $n } p
image-pairs = { $n } par
image-points-of = { $have }/{ $need } p
image-zone = SONE ×2
image-last-placed = Sist: { $name } spilte { $card } på { $cell }
image-last-removed = Sist: { $name } fjernet { $cell } med { $card }
image-last-placed-dice = Sist: { $name } tok { $cell }
image-last-removed-dice = Sist: { $name } fjernet { $cell }
image-roll = Kast: { $sum }
image-roll-ten = 10: fjern en sjetong
image-roll-eleven = 11: et hvilket som helst ledig felt
image-free = ÅPENT
image-your-hand = Hånden din
image-you-play = Du spiller { $team }
image-your-turn = Din tur
image-waiting = Venter på { $name }
image-dead = DØDT
image-exchange-it = bytt det
image-any-empty = et hvilket som helst ledig felt
image-any-opponent = en åpen sjetong
image-nothing-to-remove = ingenting å fjerne
image-no-cell = ingen ledige felt
image-wild = JOKER
image-remove = FJERN
image-no-cards = Sequence Dice har ingen kort.
image-you-may = Du kan ta:

## Lagrede spill, statistikk og historikk

cmd-stats = statistikk
cmd-stats-desc = Spill, seire og rekker for en spiller på denne serveren.
opt-stats-user = bruker
opt-stats-user-desc = Hvem sin statistikk (standard: din)
cmd-leaderboard = toppliste
cmd-leaderboard-desc = De beste spillerne på denne serveren.
cmd-history = historikk
cmd-history-desc = De siste ferdige spillene på denne serveren, med numrene sine.
cmd-record = protokoll
cmd-record-desc = Last ned protokollen for et ferdig spill (standard: det siste i denne kanalen).
opt-record-game = spill
opt-record-game-desc = Nummeret på spillet, fra /sequence historikk
cmd-hint = tips
cmd-hint-desc = Privat: trekket datamaskinen hard ville gjort nå, og hvorfor (bare vennskapskamper).
cmd-replay = reprise
cmd-replay-desc = Vis et ferdig spill som animasjon (standard: det siste i denne kanalen).
opt-replay-game = spill
opt-replay-game-desc = Nummeret på spillet, fra /sequence historikk
save-failed = Beklager, jeg fikk ikke lagret det, så ingenting skjedde. Prøv igjen om et øyeblikk.
game-resumed = 🔄 Jeg ble startet på nytt: Spillet **{ $game }** i denne kanalen fortsetter der det var. Det er { $player } sin tur.
game-resumed-timed = 🔄 Jeg ble startet på nytt: Spillet **{ $game }** i denne kanalen fortsetter der det var. Det er { $player } sin tur (omtrent { $time } igjen).
lobby-resumed = 🔄 Jeg ble startet på nytt: Lobbyen for **{ $game }** i denne kanalen er fortsatt åpen.
not-restored = ⚠️ Jeg ble startet på nytt, men spillet i denne kanalen kunne ikke gjenopprettes: Den lagrede tilstanden er skadet. Det er lagt til side for den som drifter boten. Start et nytt spill med `/sequence nytt`.
ended-while-restarting = 🏁 Spillet i denne kanalen sluttet akkurat da jeg ble startet på nytt, så slutten ble aldri kunngjort. Her er den:
game-saved = Lagret som spill #{ $id }: `/sequence protokoll spill:{ $id }` laster ned protokollen igjen.
no-history = Statistikk og spillhistorikk er ikke tilgjengelig: Denne boten kjører uten database.
history-failed = Beklager, jeg fikk ikke lest spillhistorikken akkurat nå. Prøv igjen om et øyeblikk.
stats-none = { $player } har ikke fullført noe spill på denne serveren ennå.
stats = 📊 { $player } på denne serveren: { $games ->
        [one] 1 spill
       *[other] { $games } spill
    }, { $wins ->
        [one] 1 seier
       *[other] { $wins } seire
    } ({ $percent } %), { $sequences ->
        [one] 1 rekke
       *[other] { $sequences } rekker
    }.
leaderboard-empty = Ingen rangerte spill er fullført på denne serveren ennå: ledertavlen fylles opp etter hvert som rangerte spill avsluttes.
leaderboard-header = 🏆 **Ledertavle** for denne serveren, etter rating (alle starter på 1500; den stiger med seire og jo sikrere boten blir på en spiller):
leaderboard-line = { $wins ->
        [one] 1 seier
       *[other] { $wins } seire
    } på { $games ->
        [one] 1 spill
       *[other] { $games } spill
    } ({ $percent } %), { $sequences ->
        [one] 1 rekke
       *[other] { $sequences } rekker
    }
rating-none = Ingen rangerte spill ennå (spill med mennesker på minst to lag teller, eller spill startet med `rated: True`).
rating-line = rating **{ $rating }**{ $provisional ->
        [yes] {" "}(foreløpig)
       *[no] {""}
    } etter { $games ->
        [one] 1 rangert spill
       *[other] { $games } rangerte spill
    }
rating-changes = ; { $count ->
        [one] endring i det siste rangerte spillet: { $changes }
       *[other] endringer i de siste rangerte spillene, nyeste først: { $changes }
    }
history-empty = Ingen ferdige spill på denne serveren ennå.
history-header = 📜 **Siste spill** på denne serveren:
history-no-winner = ingen vinner
history-won-by = vunnet av { $players }
history-footer = `/sequence protokoll spill:` laster ned protokollen for et spill.
game-record = Protokollen for spill #{ $id } ligger vedlagt.
game-replay = 🎞️ Spill #{ $id }, trekk for trekk.
button-watch = Se på
button-activity = Åpne brettet
button-replay-web = Reprise i nettleseren
web-replay-not-found = Ingen ferdige spill har denne lenken: Den kan være feilskrevet, eller serveren har slått av nettlenker.
web-replay-failed = Spillet kunne ikke leses akkurat nå. Prøv igjen om et øyeblikk.
web-server-not-found = Ingen serverside har denne lenken: Den kan være feilskrevet, eller serverens administratorer har slått av siden.
no-such-game = Det finnes ikke noe ferdig spill #{ $id } på denne serveren. `/sequence historikk` viser de siste spillene.
no-game-here = Ingen ferdige spill fra denne kanalen er lagret ennå. `/sequence historikk` viser de siste spillene på serveren med numrene sine.

# Kanaltillatelser
permission-view-channel = Se kanal
permission-send-messages = Send meldinger
permission-send-messages-in-threads = Send meldinger i tråder
permission-attach-files = Legg ved filer
cannot-post-here = Jeg kan ikke poste brettet i denne kanalen: Jeg mangler { $permissions }.
game-paused = ⏸️ Spillet i denne kanalen er satt på pause: Jeg kan ikke lenger poste her, jeg mangler { $permissions }. Ingenting skjer før jeg kan igjen (ingen datatrekk, ingen tidsavbrudd).
game-paused-unknown = ⏸️ Spillet i denne kanalen er satt på pause: Discord avviste det siste innlegget mitt her. Ingenting skjer før jeg kan poste igjen (ingen datatrekk, ingen tidsavbrudd).
grant-permissions-channel = Et medlem som kan administrere serveren, kan gi meg { $permissions } her: kanalinnstillinger → Tillatelser → legg til rollen min eller meg.
grant-permissions-thread = Et medlem som kan administrere serveren, kan gi meg { $permissions } i kanalen denne tråden hører til (kanalinnstillinger → Tillatelser → legg til rollen min eller meg); i en privat tråd må jeg også legges til ved at noen nevner meg.
posting-restored = ▶️ Jeg kan poste i denne kanalen igjen: Spillet som var satt på pause, fortsetter.

## Server settings

settings-not-allowed = Bare medlemmer med tillatelsen **Administrer server** kan se eller endre innstillingene til denne serveren.
settings-header = ⚙️ **Innstillinger for denne serveren**:
settings-changed = ⚙️ Lagret. Innstillingene for denne serveren er nå:
settings-list = • spill: { $game }
    • datamaskinnivå: { $level }
    • påminnelse om trekk etter { $reminder }
    • tidsgrense for trekk { $timeout }
    • lobbyen stenges etter { $lobby }
    • datamaskinens tenketid per trekk: { $thinking ->
        [none] botens standard
       *[other] { $thinking } ms
    }
    • når tiden går ut: { $on_timeout ->
        [give_up] spilleren gir opp (en datamaskin tar plassen, eller spillet slutter hvis ingen er igjen på spillerens side)
       *[computer] en datamaskin spiller det trekket
    }
    • en datamaskin tar plassen resten av spillet { $replaced ->
        [0] aldri (den spiller bare hver tur som gikk ut på tid)
        [one] etter 1 tidsavbrudd
       *[other] etter { $replaced } tidsavbrudd på rad
    }
    • rangerte spill: { $rated ->
        [always] alle spill
        [never] ingen (uformelle)
       *[default] spill med mennesker på minst to lag
    }
    • språk for kanalmeldinger: { $language ->
        [English] English
        [Deutsch] Deutsch
        [Norsk] Norsk
       *[other] serverens språk
    }
    • tips: { $hints ->
        [on] i alle spill (i et rangert spill etter en bekreftelse; spillet blir da urangert)
       *[off] bare i vennskapskamper
    }
    • animert reprise etter hvert spill: { $replay_gif ->
        [off] nei
       *[on] ja
    }
    • nettsider for spillene (Se på-knapp, brettet direkte, reprise): { $web_links ->
        [off] av
       *[on] på
    }
    • serverens egen side (toppliste, siste spill, profiler): { $web_page ->
        [on] på
       *[off] av
    }
settings-web-page-link = Serverens side (alle med denne lenken kan åpne den; slår du siden av og på igjen, blir det en ny lenke): { $url }
settings-bad-range = `{ $option }` må være mellom { $min } og { $max } { $unit }. Ingenting ble endret.
settings-bad-range-count = `{ $option }` må være mellom { $min } og { $max }. Ingenting ble endret.
settings-reminder-after-timeout = Påminnelsen ({ $reminder } s) må komme før tidsgrensen for trekket ({ $timeout } s). Ingenting ble endret.
cmd-sequence-settings = sequence-innstillinger
cmd-sequence-settings-desc = Vis eller endre standardene til denne serveren for Sequence (Administrer server).
opt-sequence-settings-game = spill
opt-sequence-settings-game-desc = Spillet et nytt bord åpner når ingen er valgt
opt-sequence-settings-level = nivaa
opt-sequence-settings-level-desc = Nivået til datamaskinspillerne
opt-sequence-settings-turn_reminder = paaminnelse
opt-sequence-settings-turn_reminder-desc = Sekunder før en spiller blir minnet på trekket sitt
opt-sequence-settings-turn_timeout = tidsgrense
opt-sequence-settings-turn_timeout-desc = Sekunder før en datamaskin spiller trekket
opt-sequence-settings-lobby_timeout = lobbytid
opt-sequence-settings-lobby_timeout-desc = Sekunder før en lobby som ikke har startet stenges
opt-sequence-settings-thinking_time = tenketid
opt-sequence-settings-thinking_time-desc = Millisekunder en datamaskinspiller tenker per trekk
opt-sequence-settings-on_timeout = ved_tidsavbrudd
opt-sequence-settings-on_timeout-desc = Hva som skjer når tiden til en spiller går ut
opt-sequence-settings-timeouts_before_replaced = tidsavbrudd_før_erstattet
opt-sequence-settings-timeouts_before_replaced-desc = Tidsavbrudd på rad før en datamaskin tar plassen (0: aldri)
choice-on_timeout-computer = en datamaskin spiller det trekket
choice-on_timeout-give_up = spilleren gir opp
opt-sequence-settings-rated = rangert
opt-sequence-settings-rated-desc = Om spill teller for rating som standard
opt-sequence-settings-hints = tips
opt-sequence-settings-hints-desc = Om tips kan brukes i rangerte spill (spillet blir da urangert)
opt-sequence-settings-replay_gif = reprise_gif
opt-sequence-settings-replay_gif-desc = Om den animerte reprisen postes etter hvert ferdige spill
opt-sequence-settings-web_links = nettlenker
opt-sequence-settings-web_links-desc = Om spillene har en Se på-knapp og nettsider (brettet direkte, reprise)
opt-sequence-settings-web_page = nettside
opt-sequence-settings-web_page-desc = Om serveren har sin egen nettside (toppliste, siste spill, profiler)
opt-sequence-settings-language = spraak
opt-sequence-settings-language-desc = Språket i botens kanalmeldinger
opt-sequence-settings-reset = tilbakestill
opt-sequence-settings-reset-desc = Gå tilbake til botens standarder først
choice-language-english = English (engelsk)
choice-language-german = Deutsch (tysk)
choice-language-norwegian = Norsk

## Omkamp, å gi opp, tidsavbrudd, innstillinger i lobbyen (sak 16)

button-rematch = Omkamp
button-leave-confirm = Ja, gi opp
button-leave-keep = Spill videre
confirm-leave = Vil du virkelig gi opp dette spillet? En datamaskinspiller tar plassen din, og du kan ikke komme tilbake.
confirm-leave-ends = Vil du virkelig gi opp dette spillet? Da er ingen igjen til å spille videre for din side, så spillet slutter med en gang og motstanderne dine vinner.
kept-playing = Bra: Du spiller videre.
timeout-gives-up = ⚠️ På denne serveren betyr det å gå tom for tid at du gir opp: Den som lar et trekk løpe ut ({ $timeout }), forlater spillet med en gang, og spiller ingen andre på den siden, taper siden.
hint-declined = Ingen tips: Spillet forblir rangert. Velg trekket ditt.
gave-up = { $player } ga opp.
out-of-time-lost = ⏰ { $player } gikk tom for tid { $count ->
        [1] én gang
        [2] to ganger på rad
       *[other] { $count } ganger på rad
    }: Siden deres taper.
out-of-time-ends = ⏰ { $player } gikk tom for tid { $count ->
        [1] én gang
        [2] to ganger på rad
       *[other] { $count } ganger på rad
    }: Ingen er igjen til å spille, så spillet slutter.
timeout-warning = ⚠️ { $player }, du gikk tom for tid { $count ->
        [1] i din forrige tur
       *[other] i dine { $count } forrige turer
    }: Skjer det igjen, tar en datamaskin plassen din resten av spillet.
timeout-warning-ends = ⚠️ { $player }, du gikk tom for tid { $count ->
        [1] i din forrige tur
       *[other] i dine { $count } forrige turer
    }: Skjer det igjen, taper siden din.
replaced-after-timeouts = ⏰ { $player } gikk tom for tid { $count ->
        [1] én gang
        [2] to ganger på rad
       *[other] { $count } ganger på rad
    }: Datamaskinspilleren **{ $bot }** tar plassen resten av spillet.
remove-with-jack = I kortspillet fjerner du en sjetong med en enøyd knekt (J♠ eller J♥): `/sequence spill kort:JS felt:C3`.
remove-with-dragon = I Sequence for barn fjerner du en sjetong med dragen: `/sequence spill kort:drage felt:C3`.
not-in-hand = Du har ikke det kortet på hånden. Kortene dine: { $cards }.
roll-does-not-match = Det feltet passer ikke med kastet ditt på { $total }.
roll-cells = Kastet ditt tillater: { $cells }.
team-no-room = { $team } har allerede { $size ->
        [one] sin ene spiller
       *[other] sine { $size } spillere
    }, så mange som et lag i dette spillet kan ha. Bli med på et annet lag, eller bli med uten å velge lag.
rematch-not-player = Bare de som spilte det siste spillet her, kan be om omkamp. Start et nytt spill med `/sequence nytt`.
rematch-expired = Det spillet sluttet for lenge siden til en omkamp. Start et nytt spill med `/sequence nytt`.
rematch-superseded = Det er spilt et nyere spill i denne kanalen siden. Bruk Omkamp-knappen under resultatet av det siste spillet, eller start et nytt spill med `/sequence nytt`.
leave-expired = Det spørsmålet gjaldt et spill som er over. Ingenting ble endret.
leave-answered = Det spørsmålet er allerede besvart: Du spiller videre, og ingenting ble endret. For å gi opp, bruk `/sequence forlat` igjen.
question-answered = Det spørsmålet er allerede besvart, så ingenting ble endret. Spør igjen hvis du fortsatt vil.
lobby-invited = Omkamp! Invitert: { $players }. Trykk **Bli med** for å spille igjen.
lobby-rules = Innstillinger: { $target } · { $reminder } · { $timeout } · nivå for datamaskiner som legges til uten nivå eller spiller for noen: { $level }.
lobby-rules-reminder = påminnelse etter { $time }
lobby-rules-no-reminder = ingen påminnelse (turen teller ned synlig)
bad-turn-time = En turtid på { $secs } s er ikke mulig: Velg mellom { $min } og { $max } sekunder.
lobby-rules-scoring = flest poeng vinner (poengtelling)
lobby-rules-sequences = { $count ->
        [one] 1 rekke for å vinne
       *[other] { $count } rekker for å vinne
    }
lobby-rules-sequences-by-teams = { $count ->
        [one] 1 rekke for å vinne
       *[other] { $count } rekker for å vinne
    } ({ $three } med tre lag)
lobby-rules-timeout-computer = etter { $timeout } spiller en datamaskin turen
lobby-rules-timeout-give-up = etter { $timeout } gir spilleren opp: En datamaskin tar plassen, eller spillet slutter hvis ingen er igjen på spillerens side
lobby-rules-timeout-replaced = etter { $timeout } spiller en datamaskin turen; etter { $count ->
        [one] 1 tidsavbrudd
       *[other] { $count } tidsavbrudd på rad
    } tar den plassen resten av spillet (spiller ingen andre på den siden, taper siden)

## Rangert eller uformelt, avbrutte spill, avslutning som teller som å gi opp
rating-rated = ⚖️ Rangert: dette spillet teller for rangeringen.
rating-casual = Uformelt: dette spillet teller ikke for rangeringen.
rating-casual-limit = Uformelt: noen av disse spillerne har allerede spilt { $limit } rangerte spill mot hverandre de siste 24 timene, så dette teller ikke for rangeringen.
rating-aborted = Avbrutt: spillet sluttet før alle hadde gjort { $moves } trekk, så det teller ikke (ingen endring i rangeringen, verken seier eller tap).
rating-moderator-stop = Ikke rangert: avsluttet av noen som ikke spiller, så spillet har ikke noe resultat.
rating-moderator-stop-gave-up = Ikke rangert: avsluttet av noen som ikke spiller, så spillet har ikke noe resultat; de som ga opp, beholder tapet.
stop-is-giving-up = { $player } er med i spillet, så å avslutte det teller som å gi opp.
shared-win = 🏆 { $teams } deler seieren fordi de andre ga opp.
history-aborted = avbrutt
rating-needs-opponent = Uformelt så langt: spillet teller for rangeringen når mennesker spiller på minst to lag.

## Knapper for det som før måtte skrives (sak 26): nivåmenyen, lag, ⋯-menyen, etter spillet
button-level-easy = Lett
button-level-medium = Middels
button-level-hard = Vanskelig
button-removebot = Fjern datamaskin
button-join-team = Bli med på lag { $team }
button-more = ⋯ Mer
button-status = Status
button-rules = Regler
button-leave-game = Forlat spillet
button-stop = Avslutt spillet
button-stats = Min statistikk
button-record = Spillprotokoll
bot-menu = Hvilket nivå skal datamaskinspilleren ha?
bot-menu-added = { $name } er med. Legge til en datamaskinspiller til?
game-menu = Mer for dette spillet:
button-expired = Den knappen hørte til et tidligere spill eller en tidligere lobby i denne kanalen. Ingenting ble endret.
team-changed = Du er nå på { $team }.
already-on-team = Du er allerede på { $team }.
button-stop-confirm = Ja, avslutt spillet
confirm-stop-player = Avslutte dette spillet for alle nå? Du spiller selv, så å avslutte teller som å gi opp: et tap for laget ditt.
confirm-stop = Avslutte dette spillet for alle nå? Det slutter uten resultat.
bad-series = En serie på { $count } spill finnes ikke: Velg 3, 5 eller 7 (flertallet vinner).
series-score = Serie på { $count } spill, etter spill { $played }: { $score }.
lobby-rules-series = en serie på { $count } spill
series-game = 🏁 Spill { $number } i en serie på { $count } spill — { $score }.
series-won = 🏆 { $players } vinner serien (på { $count } spill)!
series-no-winner = Serien slutter uten vinner.
series-next = Trykk **Neste spill** for å spille neste spill i serien med en gang: de samme spillerne og lagene, siden som tapte begynner.
series-break = Denne kanalen er mellom to spill i en serie: En spiller i serien trykker **Neste spill** (eller **Avbryt serien** for å avslutte den).
not-in-series = Bare spillerne i denne serien kan starte neste spill eller avbryte den.
confirm-abandon-series = Avbryte serien? Spillene som er spilt forblir rangert, og ingen vinner serien.
series-abandoned = { $player } avbrøt serien. Spillene som er spilt forblir rangert; ingen vinner serien.
series-expired = Ingen startet neste spill i serien i tide: Serien slutter uten vinner.
button-next-game = Neste spill
button-abandon-series = Avbryt serien
button-abandon-series-confirm = Ja, avbryt serien
opt-start-series = serie
opt-start-series-desc = Spill en serie: 3, 5 eller 7 spill, flertallet vinner
choice-series-best3 = beste av 3
choice-series-best5 = beste av 5
choice-series-best7 = beste av 7
series-stats = Serier: { $played } spilt, { $won } vunnet.

## Brettets konge
opt-start-mode = modus
opt-start-mode-desc = Spillmodus for klassisk Sequence (standard: standard)
opt-start-points_to_win = poeng_for_seier
opt-start-points_to_win-desc = Brettets konge: poengene som vinner (2 til 10, standard 3)
choice-mode-standard = standard
choice-mode-king_of_the_board = Brettets konge (klassisk)
option-king-of-the-board = Brettets konge
option-points-to-win = { $count } poeng for å vinne
lobby-rules-kotb = Brettets konge, { $count } poeng vinner
zone-line = 👑 Sone { $centre }: { $first }–{ $last }, gir 2 (en rekke andre steder: 1).
zone-scored = 👑 { $team } får 2 poeng i sonen! { $points }
zone-scored-outside = 🎉 { $team } får 1 poeng. { $points }
zone-points = ({ $total } av { $target } poeng)
zone-points-past = ({ $total } poeng, { $target } trengs)
zone-moved = 👑 Sonen flytter til { $centre } ({ $first }–{ $last }).
status-points = Poeng ({ $target } for å vinne): { $list }.
status-zone = Sone { $centre }: { $first }–{ $last }, gir 2.
setup-king-of-the-board = Brettets konge er en modus for klassisk Sequence: den kan ikke kombineres med husreglene poengspill eller fange par, og den vinnes på poeng (`{ $option }`), ikke på rekker.
setup-points-to-win = `{ $option }` (2 til 10) gjelder bare Brettets konge: velg modusen { $mode }.
hint-busy = Det forrige tipset ditt regnes fortsatt ut: ett om gangen, takk.
hint-spent = Du har bedt meg om mye i det siste: Et tips er et langt søk. Prøv igjen om noen sekunder.
replays-waiting = Du har allerede { $max ->
        [one] en reprise
       *[other] { $max } repriser
    } som venter på å bli tegnet: spør igjen når en er postet.
replays-busy = { $max } repriser venter på å bli tegnet på denne serveren: prøv igjen om et minutt.

## Profiler, innbyrdes oppgjør og prestasjoner (sak 35)
button-profile = Min profil
cmd-profile = profil
cmd-profile-desc = Profilen til en spiller på denne serveren: tall, ratingkurve og prestasjoner.
opt-profile-user = spiller
opt-profile-user-desc = Hvem sin profil (standard: din)
cmd-versus = mot
cmd-versus-desc = Spillene dine med et annet medlem av denne serveren.
opt-versus-user = spiller
opt-versus-user-desc = Det andre medlemmet
cmd-profile_menu = Sequence-profil
profile-none = { $player } har ikke fullført et spill på denne serveren ennå, så det finnes ingen profil å vise.
profile-rebuilding = Profilene bygges opp på nytt fra de lagrede spillene etter en oppdatering ({ $percent } % ferdig). Spillene går som vanlig og teller; spør igjen om noen minutter.
versus-none = Du har ikke fullført et spill med { $other } på denne serveren ennå.
versus-self = Velg et annet medlem: `/sequence mot` sammenligner spillene dine med deres.
achievement-unlocked = 🏅 { $player } låste opp { $names }
profile-header = 🪪 **Profilen** til { $player } på denne serveren
profile-unrated = Ingen ratede spill ennå
profile-rank = Nr. { $place } av { $total } på topplisten
profile-chart = Rating over { $games ->
        [one] det siste ratede spillet
       *[other] de siste { $games } ratede spillene
    }
profile-chart-text = Rating over de siste { $games } ratede spillene: fra { $first } til { $last }.
profile-totals = { $games ->
        [one] 1 spill
       *[other] { $games } spill
    }, { $wins ->
        [one] 1 seier
       *[other] { $wins } seire
    } ({ $percent } %), seiersrekke { $streak } (beste { $best }), { $sequences ->
        [one] 1 rekke
       *[other] { $sequences } rekker
    }.
profile-by-game = Etter spill
profile-by-opponents = Etter motstandere
profile-breakdown = { $name } { $games } spilt, { $wins } vunnet ({ $rate }), { $moves } trekk per spill{ $fastest }
profile-fastest = , raskeste seier på { $moves } trekk
profile-vs-humans = Mennesker
profile-vs-easy = Datamaskin (lett)
profile-vs-medium = Datamaskin (middels)
profile-vs-hard = Datamaskin (vanskelig)
profile-col-game = Spill
profile-col-opponents = Motstandere
profile-col-games = Spill
profile-col-wins = Seire
profile-col-rate = Seiersandel
profile-col-moves = Trekk per spill
profile-col-fastest = Raskeste seier
profile-style = Spillestil
profile-two-eyed = Toøyde knekter spilt
profile-one-eyed = Enøyde knekter spilt
profile-lines-broken = Firere brutt
profile-dead-cards = Døde kort byttet
profile-first-move = Med første trekk
profile-first-move-value = { $percent } % vunnet ({ $wins }/{ $games })
profile-moves-per-game = Egne trekk per spill
profile-play-time = Spilletid
profile-play-time-value = { $hours } t { $minutes } min
profile-first-game = Første spill her
profile-agreement = Enighet med vanskelig
profile-agreement-value = { $percent } % over { $games ->
        [one] 1 spill
       *[other] { $games } spill
    }
profile-achievements = Prestasjoner ({ $count } av { $total }): { $list }.
profile-achievements-title = Prestasjoner
profile-achievements-none = ingen ennå
profile-progress = { $name } ({ $condition }) { $have }/{ $goal }
profile-next = Neste
profile-games = Spill
profile-wins = Seire
profile-win-rate = Seiersandel
profile-streak = Seiersrekke
profile-best-streak = Beste rekke
profile-sequences = Rekker
profile-series = Serier vunnet
profile-series-value = { $won } av { $played }
profile-footer = Bare denne serverens spill. Prestasjoner teller bare egne trekk, i ratede spill og spill uten menneskelige motstandere.
versus-header = 🤝 { $player } og { $other } på denne serveren: { $games ->
        [one] 1 spill
       *[other] { $games } spill
    } sammen.
versus-title = Med { $other }
versus-you = du
versus-games = Spill sammen
versus-as-partners = På samme lag
versus-partners-value = { $games } spilt, { $wins } vunnet
versus-as-opponents = Mot hverandre
versus-opponents-value = { $games } spilt, { $player } { $wins } – { $losses } { $other }
versus-sequences = Rekker
versus-sequences-value = { $player } { $mine }, { $other } { $theirs }
versus-recent = Siste spill
versus-won-together = vunnet sammen
versus-lost-together = tapt sammen
versus-won = vunnet
versus-lost = tapt
versus-no-winner = ingen vinner
versus-footer = `/sequence reprise spill:` viser et av dem trekk for trekk.
achievement-first_game = Første spill
achievement-first_game-condition = Fullfør et spill
achievement-veteran = Veteran
achievement-veteran-condition = Fullfør 100 spill
achievement-on_fire = Glohet
achievement-on_fire-condition = 5 seire på rad
achievement-unstoppable = Ustoppelig
achievement-unstoppable-condition = 10 seire på rad
achievement-beat_easy = Oppvarming
achievement-beat_easy-condition = Slå den lette datamaskinen
achievement-beat_medium = Nå blir det alvor
achievement-beat_medium-condition = Slå den middels datamaskinen
achievement-beat_hard = Kjempedreper
achievement-beat_hard-condition = Slå den vanskelige datamaskinen
achievement-hard_ten = Maskintemmer
achievement-hard_ten-condition = Slå den vanskelige datamaskinen 10 ganger
achievement-wild_cards = Jokere
achievement-wild_cards-condition = Spill 50 toøyde knekter
achievement-quick = Lyn
achievement-quick-condition = Vinn på brettet med 12 eller færre trekk fra laget ditt
achievement-ten_hours = Hengiven
achievement-ten_hours-condition = Spill i 10 timer
achievement-party = Fest
achievement-party-condition = Fullfør 10 spill med 3 eller flere mennesker
achievement-king = Brettets konge
achievement-king-condition = Vinn et spill Brettets konge
achievement-series_won = Seriemester
achievement-series_won-condition = Vinn en serie
achievement-dice_win = Heldig kast
achievement-dice_win-condition = Vinn et spill Sequence Dice
achievement-kids_win = Dyrevenn
achievement-kids_win-condition = Vinn et spill Sequence for barn
achievement-three_teams = Tre er en flokk
achievement-three_teams-condition = Vinn et spill med tre lag
achievement-breaker = Bryter
achievement-breaker-condition = Bryt en motstanders firer med en enøyd knekt
achievement-double = Dobbel
achievement-double-condition = Fullfør to rekker med ett trekk i et parti vunnet på brettet
achievement-no_wild_cards = Purist
achievement-no_wild_cards-condition = Vinn på brettet uten å spille en toøyd knekt
achievement-comeback = Comeback
achievement-comeback-condition = Vinn på brettet etter at den andre siden la den første rekken
achievement-wall = Muren
achievement-wall-condition = Bryt 25 firere

## Playing where the bot may only answer interactions (issue 36)
external-apps-off = Denne serveren lar apper som medlemmene har installert svare bare privat («Bruk eksterne apper» er av her), så ingen andre ville se et spill. Spill i en gruppe-DM, eller be administratorene legge Sequence til serveren.
server-only-lists = Topplisten og den nummererte listen over spill føres per server. Utenfor en server er spill uformelle; `/sequence protokoll` og `/sequence reprise` uten nummer gir det siste spillet her.
casual-outside-servers = Spill utenfor en server er uformelle: rangeringer sammenligner spillerne på én server, og en gruppe-DM er ingen. Start på nytt uten `rangert`.
answers-only = 📨 Her får jeg bare svare på trykkene deres: hvert brett kommer med trykket som laget det. Går tiden ut mens ingen trykker, sier jeg hva som skjedde ved neste trykk (hvilken som helst spiller kan få spillet videre). Kortene deres forblir private: **Vis kortene mine** eller velgeren.
held-back = ⏳ Holdt tilbake mens ingen trykket (her får jeg bare svare på trykk):
## Utfordringer: `/sequence nytt inviter:` og brukerkommandoen «Utfordre til Sequence»
opt-start-invite = inviter
opt-start-invite-desc = Utfordre venner: nevn spillerne du inviterer (@Anne @Bjørn)
cmd-challenge_menu = Utfordre til Sequence
button-accept = Godta
button-decline = Avslå
lobby-challenge = Utfordring! Invitert: { $players }. Trykk **Godta** eller **Avslå**; invitasjonen går ut { $when }.
lobby-challenge-lapsed = Ikke noe svar fra { $players }: invitasjonen har gått ut. Alle kan fortsatt trykke **Bli med**.
invite-not-mentions = Nevn spillerne du inviterer: skriv @ og velg hver av dem fra listen, som i `inviter: @Anne @Bjørn`.
invite-not-people = Bare personer kan inviteres, ikke en rolle, en kanal, @everyone eller @here.
invite-twice = { $player } er nevnt to ganger: inviter hver spiller én gang.
invite-self = Du er allerede verten: inviter de andre spillerne.
invite-too-many = For mange invitert: dette spillet har plass til { $max } til i tillegg til deg.
invite-bot = { $player } er en app, ikke en person: legg til dataspillere med **Legg til datamaskin** i lobbyen.
not-invited = Denne invitasjonen er ikke til deg, eller den er besvart eller har gått ut. Trykk **Bli med** for å ta plass.
declined-ack = Du avslo invitasjonen. Ingen andre ved bordet får vite det; verten får det som direktemelding hvis hen tar imot slike.
challenge-declined = { $player } avslo invitasjonen din til { $game } i { $channel }.
