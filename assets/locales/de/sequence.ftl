# sequence-bot — Deutsch. Gleiche Nachrichten-IDs und gleiche $Variablen wie en-US/sequence.ftl (von den
# Tests geprüft). Wortschatz wie in den deutschen Regelblättern: Sequenz, Chip, Bube (zweiäugig/einäugig),
# tote Karte, Nachziehstapel, Ablagestapel.

## Slash-Befehle: Namen (klein, ohne Leerzeichen, höchstens 32 Zeichen) und Beschreibungen (höchstens 100)

cmd-sequence = sequence
cmd-sequence-desc = Sequence, Sequence Würfelspiel oder Sequence für Kids in diesem Kanal spielen.
cmd-start = neu
cmd-start-desc = Ein neues Spiel in diesem Kanal eröffnen; andere steigen per Knopf oder /sequence beitreten ein.
opt-start-game = spiel
opt-start-game-desc = Welches Spiel (Standard: klassisch)
opt-start-teams = teams
opt-start-teams-desc = Anzahl der Teams (Standard: nach der Zahl der Spieler)
opt-start-sequences_to_win = sequenzen
opt-start-sequences_to_win-desc = Sequenzen, die ein Team zum Sieg braucht (klassisch)
opt-start-sequence_length = reihenlänge
opt-start-sequence_length-desc = Chips in einer Gewinnreihe (Würfelspiel: 5 oder 6)
opt-start-equal_turns = gleiche_runde
opt-start-equal_turns-desc = Ein Sieg zählt erst, wenn die Runde zu Ende gespielt ist
opt-start-scoring = punkte
opt-start-scoring-desc = Hausregel: weiterspielen, ein Punkt pro Sequenz (klassisch)
opt-start-capture_pairs = paare_schlagen
opt-start-capture_pairs-desc = Hausregel: zwei gegnerische Chips einschließen und schlagen (klassisch)
opt-start-rated = gewertet
opt-start-rated-desc = Zählt für die Wertung (Standard: wenn Menschen in mindestens zwei Teams spielen)
opt-start-turn_time = zugzeit
opt-start-turn_time-desc = Zeit für einen Zug; Erinnerung nach der Hälfte (Standard: die des Servers)
cmd-join = beitreten
cmd-join-desc = Im Spiel, das gleich beginnt, einen Platz einnehmen.
opt-join-team = team
opt-join-team-desc = Das Team, in dem du spielen möchtest (1, 2, …)
cmd-leave = verlassen
cmd-leave-desc = Die Lobby verlassen oder das laufende Spiel aufgeben (ein Computer übernimmt deinen Platz).
cmd-forfeit = aufgeben
cmd-forfeit-desc = Das laufende Spiel aufgeben (ein Computer übernimmt deinen Platz).
cmd-bot = computer
cmd-bot-desc = Computerspieler in der Lobby.
cmd-bot-add = dazu
cmd-bot-add-desc = Einen Computerspieler in die Lobby holen (nur Gastgeber).
opt-bot-add-level = stärke
opt-bot-add-level-desc = Wie stark (Standard: die Einstellung des Servers)
cmd-bot-remove = weg
cmd-bot-remove-desc = Den zuletzt hinzugefügten Computerspieler aus der Lobby nehmen (nur Gastgeber).
cmd-begin = beginnen
cmd-begin-desc = Karten austeilen und das Spiel beginnen (nur Gastgeber; wie der Start-Knopf).
cmd-cancel = abbrechen
cmd-cancel-desc = Die Lobby schließen, ohne zu spielen (nur Gastgeber).
cmd-play = spielen
cmd-play-desc = Eine Karte auf ein Feld spielen (im Würfelspiel: nach dem Würfeln deinen Chip setzen).
opt-play-card = karte
opt-play-card-desc = Eine deiner Karten (einäugiger Bube / Drache: dann den Chip nennen, der weg soll)
opt-play-cell = feld
opt-play-cell-desc = Das Feld, z. B. D6
cmd-exchange = tauschen
cmd-exchange-desc = Eine tote Karte (beide Felder belegt) gegen eine neue tauschen.
opt-exchange-card = karte
opt-exchange-card-desc = Die tote Karte
cmd-roll = würfeln
cmd-roll-desc = Würfelspiel: für deinen Zug würfeln.
cmd-remove = entfernen
cmd-remove-desc = Würfelspiel: nach einer 10 einen gegnerischen Chip entfernen.
opt-remove-cell = feld
opt-remove-cell-desc = Der Chip, der weg soll, z. B. C3
cmd-hand = hand
cmd-hand-desc = Deine Karten zeigen (nur du siehst sie).
cmd-board = brett
cmd-board-desc = Das aktuelle Spielbrett zeigen.
cmd-status = status
cmd-status-desc = Spieler, wer am Zug ist und den Spielstand zeigen (nur du siehst es).
cmd-rules = regeln
cmd-rules-desc = Die Spielregeln erklären (nur du siehst sie).
opt-rules-game = spiel
opt-rules-game-desc = Welches Spiel (Standard: das Spiel in diesem Kanal)
cmd-stop = beenden
cmd-stop-desc = Das Spiel sofort beenden (Gastgeber oder wer Nachrichten verwalten darf).

## Auswahl in den Optionslisten (höchstens 100 Zeichen)

choice-game-classic = Sequence (klassisch, mit Karten)
choice-game-dice = Sequence Würfelspiel
choice-game-kids = Sequence für Kids
choice-level-easy = leicht
choice-level-medium = mittel
choice-level-hard = schwer
choice-turn_time-15s = 15 Sekunden (Blitz)
choice-turn_time-30s = 30 Sekunden
choice-turn_time-60s = 1 Minute
choice-turn_time-120s = 2 Minuten
choice-turn_time-server = die Zugzeit des Servers

## Knöpfe

button-join = Mitspielen
button-leave = Verlassen
button-addbot = Computer dazu
button-begin = Start
button-cancel = Abbrechen
button-roll = Würfeln
button-hand = Meine Karten

## Die Kartenauswahl (Knöpfe)
picker-play = Spielen
picker-back = Zurück
picker-hint = Tipp
picker-hint-unrated = Ja, Tipp zeigen (ungewertet)
confirm-hint = Ein Tipp macht dieses Spiel für alle ungewertet: Es zählt dann nicht für die Wertung. Tipp trotzdem zeigen?
hint-made-unrated = Dieses Spiel ist jetzt ungewertet: Es zählt nicht mehr für die Wertung.
hint-made-casual = 💡 { $player } hat einen Tipp genutzt: Dieses Spiel zählt nicht mehr für die Wertung.
picker-exchange = { $card } tauschen (tot)
picker-unplayable = { $card }: in diesem Zug kein Zug damit
picker-row = Reihe { $row }: { $cells ->
    [one] 1 Feld
   *[other] { $cells } Felder
}
picker-row-part = Reihe { $row }, Teil { $part }: { $cells } Felder
picker-row-placeholder = Wähle eine Reihe
pick-card = Wähle eine Karte:
pick-row-card = { $card }: wähle zuerst eine Reihe.
pick-row-card-remove = { $card }: wähle die Reihe des Chips, den du entfernst.
pick-row-dice = Wähle eine Reihe für deinen Chip.
pick-row-dice-remove = Wähle die Reihe des Chips, den du entfernst.
pick-cell-card = { $card }: wähle ein Feld.
pick-cell-card-remove = { $card }: wähle den Chip, den du entfernst.
pick-cell-dice = Wähle ein Feld für deinen Chip.
pick-cell-dice-remove = Wähle den Chip, den du entfernst.
picker-expired = Diese Knöpfe gehören zu einem vergangenen Zug. Nimm den Knopf **Spielen** der neuesten Nachricht.
picker-expired-dice = Diese Knöpfe gehören zu einem vergangenen Zug. Nimm den Knopf **Würfeln** der neuesten Nachricht.
picker-not-yours = Diese Knöpfe sind nicht für dich: { $player } ist am Zug, und nur diese Person sieht ihre Karten.
picker-not-your-card = { $card } ist nicht auf deiner Hand.
bad-button = Diesen Knopf kenne ich nicht. Es wurde nichts geändert.

## Die Webseite (Browser): die Texte der Seite, von /api/texts

web-loading = Wird geladen …
web-name-title = Wer spielt?
web-name-label = Dein Name, wie ihn die anderen sehen
web-name-save = Weiter
web-name-bad = Ein Name hat 1 bis 32 Zeichen.
web-home-title = Neues Spiel
web-home-intro = Spiel gegen den Computer oder mit Freunden im selben Netz: Eröffne ein Spiel und teile seinen Link.
web-variant = Spiel
web-teams = Teams
web-teams-auto = Wie die Spieler sitzen
web-teams-n = { $n } Teams
web-series = Serie
web-series-none = Ein Spiel
web-series-best = Best of { $n }
web-clock = Zeit pro Zug
web-clock-none = Ohne Uhr
web-new-game-submit = Spiel eröffnen
web-lobby = Warten auf Mitspieler
web-players = Spieler
web-you = du
web-host = Gastgeber
web-computer = Computer
web-cards = { $n } Karten
web-your-hand = Deine Karten
web-watching = Du schaust diesem Spiel zu.
web-your-turn = Du bist dran.
web-pick-card = Tippe auf eine Karte, dann auf eines der markierten Felder.
web-pick-cell = Tippe jetzt auf eines der markierten Felder.
web-pick-dice = Tippe auf ein markiertes Feld für deinen Chip.
web-pick-remove = Tippe auf den Chip, der weg soll.
web-no-target = Mit dieser Karte gibt es gerade keinen Zug.
web-confirm = { $card } auf { $cell } spielen
web-confirm-cell = Auf { $cell } setzen
web-confirm-remove = Den Chip auf { $cell } entfernen
web-dead = tot
web-exchange = { $card } tauschen
web-remove-bot = Einen Computer entfernen
web-stop = Spiel beenden
web-stop-confirm = Dieses Spiel jetzt für alle beenden?
web-next-game = Nächstes Spiel
web-watch-link = Link zu diesem Spiel
web-copy = Kopieren
web-copied = Kopiert
web-live = live
web-offline = verbinde neu …
web-draw-pile = Stapel: { $n }
web-discards = Zuletzt gespielt
web-points = { $have }/{ $need } Punkte
web-sequences = { $have }/{ $need } Sequenzen
web-series-score = Serie, Best of { $best }: { $score }
web-zone = Zone von „König des Bretts“
web-roll = Wurf: { $a } + { $b } = { $sum }
web-replay = Wiederholung
web-replay-step = Zug { $n } von { $total }
web-server-title = Sequence auf diesem Server
web-server-leaderboard = Bestenliste
web-server-no-players = Noch kein gewertetes Spiel.
web-server-player = Spieler
web-server-rating = Wertung
web-server-games-played = Spiele
web-server-wins = Siege
web-server-provisional = vorläufig
web-server-tap = Tippe auf einen Spieler für seine Zahlen.
web-server-sequences = Sequenzen
web-server-streak = Siege in Folge (jetzt / beste)
web-server-jacks = Buben gespielt (zweiäugig / einäugig)
web-server-broken = Reihen gebrochen
web-server-dead = Tote Karten getauscht
web-server-series = Serien gewonnen / gespielt
web-server-achievements = Erfolge
web-server-agreement = Züge wie die des schweren Computers
web-server-games = Letzte Spiele
web-server-no-games = Noch kein beendetes Spiel.
web-server-replay = Wiederholung
web-server-aborted = abgebrochen
web-server-winner = gewonnen
web-replay-prev = Zurück
web-replay-next = Weiter
web-record-download = Aufzeichnung herunterladen
web-summary = Zusammenfassung
web-language = Sprache
web-home = Startseite
web-not-found-title = Hier ist nichts
web-not-found-text = Dieser Link ist unbekannt oder abgelaufen.
web-error-network = Der Bot ist gerade nicht erreichbar. Neuer Versuch …
web-local-off = Spiele werden hier in Discord eröffnet. Öffne den Link eines Spiels, um zuzuschauen.
web-activity-signing-in = Anmeldung über Discord …
web-activity-not-set-up = Das Brett in Discord ist bei diesem Bot noch nicht eingerichtet: Wer ihn betreibt, kann es einschalten.
web-activity-no-discord = Dieses Brett öffnet sich nur in Discord: Starte es dort mit „Brett öffnen“.
web-activity-denied = Discord hat dem Brett nicht verraten, wer du bist, daher kann es dir keinen Platz geben: Schließe es und öffne es erneut, um es zu erlauben.
web-activity-sign-in-failed = Die Anmeldung über Discord hat nicht geklappt: Schließe das Brett und öffne es erneut.
web-activity-lobby-title = Noch kein Spiel in diesem Kanal
web-activity-lobby-intro = Eröffne hier eine Lobby: Sie erscheint im Chat wie nach /sequence neu, und die anderen treten dort oder auf diesem Brett bei.
web-activity-lobby-submit = Lobby in diesem Kanal eröffnen

## Namen

game-classic = Sequence
game-dice = Sequence Würfelspiel
game-kids = Sequence für Kids
color-blue = blau
color-green = grün
color-red = rot
color-yellow = gelb
color-grey = grau
team-name = Team { $number } ({ $color })
list-and = { $first } und { $last }
list-or = { $first } oder { $last }
level-easy = leicht
level-medium = mittel
level-hard = schwer
bot-name = Computer { $number } ({ $level })
bot-stand-in = Computer ({ $level }, für { $name })
seat-fallback = Platz { $number }
duration = { $seconds ->
        [one] 1 Sekunde
       *[other] { $seconds } Sekunden
    }
duration-minutes = { $minutes ->
        [one] 1 Minute
       *[other] { $minutes } Minuten
    }

## Die Tiere von Sequence für Kids

animal-lion = Löwe
animal-zebra = Zebra
animal-giraffe = Giraffe
animal-elephant = Elefant
animal-monkey = Affe
animal-panda = Panda
animal-frog = Frosch
animal-owl = Eule
animal-turtle = Schildkröte
animal-rabbit = Hase
animal-penguin = Pinguin
animal-fox = Fuchs
animal-whale = Wal
animal-bear = Bär
animal-hippo = Nilpferd
animal-kangaroo = Känguru
animal-ostrich = Strauß
animal-gorilla = Gorilla
animal-crocodile = Krokodil
animal-dragon = Drache
animal-unicorn = Einhorn

## Ablehnungen

no-table = In diesem Kanal läuft kein Spiel. Eröffne eins mit `/sequence neu`.
played-elsewhere = Diese Seite zeigt das Spiel nur an: Gespielt wird dort, wo es begonnen wurde (in seinem Discord-Kanal). Züge von dort erscheinen hier.
table-exists = In diesem Kanal gibt es schon ein Spiel oder eine Lobby. Spielt es zu Ende (oder der Gastgeber beendet es mit `/sequence beenden`), bevor ihr ein neues eröffnet.
already-started = Das Spiel hat schon begonnen. Du kannst zuschauen und beim nächsten mitspielen.
not-started = Das Spiel hat noch nicht begonnen: Der Gastgeber startet es mit dem Knopf **Start** oder `/sequence beginnen`.
already-joined = Du spielst bei diesem Spiel schon mit.
lobby-full = Dieses Spiel ist voll: Es können höchstens { $max } Personen mitspielen.
not-in-game = Du spielst bei diesem Spiel nicht mit.
not-host = Das dürfen nur der Gastgeber ({ $host }) und Mitglieder, die Nachrichten verwalten dürfen.
too-many-tables = Du hast schon { $max } offene Spiele oder Lobbys. Beende eines davon, bevor du ein neues eröffnest.
server-full = Auf diesem Server gibt es schon { $max } offene Spiele oder Lobbys. Bitte wartet, bis eines davon zu Ende ist.
too-many-bots = Ein Spiel hat höchstens { $max } Computerspieler.
busy = Ich schreibe gerade sehr viel auf diesem Server. Bitte versuche es in ein paar Sekunden noch einmal.
slow-down = Du lässt mich gerade sehr viel schreiben. Bitte versuche es in ein paar Sekunden noch einmal.
web-live-full = Gerade sind zu viele Live-Ansichten offen, von deiner Adresse aus oder insgesamt. Bitte schließe eine und versuche es in einer Minute noch einmal.
host-gave-up = Der Gastgeber hat aufgegeben: Das dürfen jetzt nur noch die Mitspielenden und Mitglieder, die Nachrichten verwalten dürfen.
done = Erledigt: siehe Kanal.
not-your-turn = Du bist nicht am Zug: { $player } ist dran.
illegal-cells = Diese Karte passt auf: { $cells }.
illegal-no-cells = Für diese Karte ist gerade kein Feld frei.
bad-card-kids = `{ $typed }` ist keine Karte dieses Spiels. Nenne ein Tier (z. B. `Löwe`), `Einhorn` oder `Drache`.
bad-card-classic = `{ $typed }` ist keine Karte. Schreib Wert und Farbe, z. B. `7H`, `10S`, `QD` oder `JC` (S Pik, H Herz, D Karo, C Kreuz; J Bube, Q Dame, K König, A Ass).
bad-cell = `{ $typed }` ist kein Feld dieses Bretts. Schreib einen Spaltenbuchstaben und eine Zeilennummer, von `A1` bis `{ $last }`.
card-needed = Nenne die Karte, die du spielen willst, z. B. `/sequence spielen karte:7H feld:D6`.
cell-needed = Nenne das Feld, z. B. `/sequence spielen karte:7H feld:D6` (oder im Würfelspiel `/sequence spielen feld:C3`).
bad-option = Eine der Optionen konnte ich nicht lesen. Bitte wähle die Werte aus den Listen, die Discord anbietet.
guild-only = Das geht nur auf einem Server.
no-cards-in-dice = Im Würfelspiel gibt es keine Karten: Würfle mit `/sequence würfeln` und setze dann mit `/sequence spielen feld:`.
not-dice = Gewürfelt wird nur im Sequence Würfelspiel.
roll-first = Würfle zuerst mit `/sequence würfeln`.
already-rolled = Du hast schon gewürfelt: { $dice }. Setze jetzt deinen Chip mit `/sequence spielen feld:`.
bad-team-count = { $game } kann man nicht in { $teams } Teams spielen. { $variant ->
        [dice] Lass `teams` leer oder wähle 2.
        [kids] Lass `teams` leer oder wähle 2 oder 4.
       *[classic] Lass `teams` leer oder wähle 2 oder 3.
    }
bad-team = Es gibt kein Team { $team }: Wähle ein Team von 1 bis { $max }.
team-full = { $chosen } Personen haben { $team } gewählt, aber jedes Team hat { $size } Mitglieder. Jemand sollte mit `/sequence verlassen` gehen und einem anderen Team beitreten.
no-bot = Es gibt keinen Computerspieler, den man entfernen könnte.
internal = Entschuldigung, bei mir ist etwas schiefgegangen. Bitte versuch es noch einmal.

## Antworten der Webseiten (eine Anfrage der Seite, die nicht bedient werden kann)

web-api-not-found = Unter dieser Adresse gibt es kein Spiel: Der Link ist vielleicht falsch, oder das Spiel ist vorbei.
web-api-unknown-address = Unter dieser Adresse gibt es nichts.
web-api-unreadable = Ich konnte diese Anfrage nicht lesen.
web-api-unknown-action = Eine Aktion „{ $action }“ gibt es nicht.
web-api-turn-needed = Ein Zug muss angeben, zu welcher Zugnummer er gemacht wurde.
web-api-card-needed = Wähl zuerst eine Karte.
web-api-cell-needed = Wähl zuerst ein Feld.
web-api-bad-card = { $card } ist keine Karte dieses Spiels.
web-api-bad-cell = { $cell } ist kein Feld dieses Bretts.
web-api-forbidden = Diese Anfrage kam nicht von der Seite des Spiels und wurde deshalb abgelehnt.
web-api-too-many = Zu viele Anfragen auf einmal: Bitte warte einen Moment und versuch es dann noch einmal.
web-api-name-needed = Wähl zuerst einen Namen.
web-api-bad-name = Ein Name hat 1 bis 32 Zeichen, ohne Zeilenumbrüche.
web-api-no-local = Auf diesen Seiten können keine Spiele eröffnet werden.
web-api-starting = Der Bot startet noch: Bitte versuch es gleich noch einmal.
web-api-not-live = Diese Adresse nimmt nur eine Live-Verbindung (WebSocket) an.
web-api-method = Diese Adresse nimmt diese Art von Anfrage nicht an.
web-api-watch-only = Dieses Spiel wird in Discord gespielt: Hier kannst du zuschauen, mitspielen kannst du dort.
web-activity-off = Die Discord-Aktivität ist bei diesem Bot nicht eingerichtet.
web-activity-bad-code = Discord hat diese Anmeldung nicht angenommen: Bitte öffne die Aktivität noch einmal.
web-activity-bad-token = Deine Anmeldung bei Discord ist abgelaufen: Bitte öffne die Aktivität noch einmal.
web-activity-unavailable = Discord ist gerade nicht erreichbar: Bitte versuch es gleich noch einmal.
web-activity-no-instance = Diese Aktivität ist beendet: Bitte öffne sie noch einmal.
web-activity-not-in-instance = Du bist nicht in dieser Aktivität: Bitte tritt ihr zuerst in Discord bei.
web-activity-signed-out = Deine Sitzung in der Aktivität ist abgelaufen: Bitte melde dich noch einmal an.

## Warum ein Spiel so nicht beginnen kann

setup-player-count = { $game } kann man nicht { $players ->
        [one] allein
       *[other] zu { $players }
    } spielen: Es braucht { $variant ->
        [classic] 2, 3, 4, 6, 8, 9, 10 oder 12
       *[other] 2, 3 oder 4
    } Spieler.
setup-teams-alone = { $players } Spieler können nicht in { $teams } Teams spielen: Zu zweit oder zu dritt spielt jeder für sich.
setup-teams = { $players } Spieler können { $game } nicht in { $teams } Teams spielen, wohl aber in { $possible } Teams.
setup-house-rule = `{ $option }` ist eine Hausregel des klassischen Sequence und gilt nicht für { $game }.
setup-one-sequence = Bei { $game } gewinnt immer eine einzige Reihe; lass `sequenzen` leer.
setup-sequences-range = `sequenzen` muss zwischen 1 und 4 liegen.
setup-sequence-length = { $variant ->
        [dice] Im Sequence Würfelspiel hat eine Gewinnreihe 5 oder 6 Chips.
        [kids] In Sequence für Kids hat eine Gewinnreihe immer 4 Chips.
       *[classic] In Sequence hat eine Sequenz immer 5 Chips.
    }
setup-other = Das geht nicht: { $reason }.

## Warum ein Zug nicht erlaubt ist (je ein Fehlercode aus RECORD.md)

play-error-not_your_turn = Du bist nicht am Zug.
play-error-card_not_in_hand = Diese Karte hast du nicht auf der Hand.
play-error-cell_occupied = Auf diesem Feld liegt schon ein Chip.
play-error-card_does_not_match = Diese Karte passt nicht zu dem Feld.
play-error-free_corner = Die Ecken sind für alle frei, dort liegt nie ein Chip.
play-error-chip_locked = Dieser Chip ist geschützt und kann nicht entfernt werden.
play-error-no_opponent_chip = Auf diesem Feld liegt kein gegnerischer Chip.
play-error-not_dead = Diese Karte ist nicht tot: Eines ihrer Felder ist noch frei.
play-error-exchange_twice = Du hast in diesem Zug schon eine Karte getauscht.
play-error-pass_not_allowed = Du kannst noch ziehen, also darfst du nicht passen.
play-error-wrong_action_for_roll = Das passt nicht zu diesem Wurf.
play-error-game_over = Das Spiel ist vorbei.
play-error-bad_cell = Das ist kein Feld dieses Bretts.
play-error-bad_card = Das ist keine Karte dieses Spiels.

## Bestätigungen (nur für dich sichtbar)

lobby-opened = Dein Spiel ist eröffnet. Jetzt können andere beitreten; drück **Start**, wenn alle da sind.
joined = Du spielst mit.
left = Du hast das Spiel verlassen.
bot-added = { $name } spielt mit.
bot-removed = { $name } ist gegangen.
cancelled-ack = Die Lobby ist geschlossen.
begun-ack = Das Spiel hat begonnen.
forfeit-ack = Du hast dieses Spiel aufgegeben.
stopped-ack = Das Spiel ist beendet.

## Die Lobby-Nachricht

lobby-header = **{ $game }** — ein neues Spiel, Gastgeber: { $host }.
lobby-teams = { $teams } Teams.
lobby-options = Optionen: { $options }.
option-sequences-to-win = { $count ->
        [one] 1 Sequenz zum Sieg
       *[other] { $count } Sequenzen zum Sieg
    }
option-sequence-length = Reihen aus { $length }
option-equal-turns = Runde zu Ende spielen
option-scoring = Punktwertung
option-capture-pairs = Paare schlagen
lobby-players = Spieler ({ $count }/{ $max }):
lobby-nobody = (noch niemand)
lobby-footer = Drück **Mitspielen** (oder nutze `/sequence beitreten`), um einen Platz zu nehmen; der Gastgeber drückt **Start**, wenn alle da sind.
seat-cards = { $count ->
        [one] 1 Karte
       *[other] { $count } Karten
    }
lobby-started = **{ $game }** — das Spiel hat begonnen. Viel Glück!
lobby-cancelled = { $player } hat diese Lobby geschlossen.
lobby-expired = Diese Lobby wurde geschlossen, weil das Spiel nicht rechtzeitig begonnen hat.
lobby-abandoned = Diese Lobby wurde geschlossen: Alle sind gegangen.
lobby-abandoned-computers = Diese Lobby wurde geschlossen: Alle menschlichen Spieler sind gegangen, und Computerspieler spielen nicht allein.
host-changed = { $player } ist jetzt Gastgeber.

## Das Spiel, im Kanal

roll-off = 🎲 Wer beginnt, wird ausgewürfelt: { $rolls }.
roll-off-again = Gleichstand, noch einmal: { $rolls }.
roll-off-winner = { $player } beginnt.
game-started = **{ $game }** beginnt! Plätze in Zugreihenfolge:
game-started-cards = Eure Karten kommen per Direktnachricht (oder mit `/sequence hand`).
played = { $player } spielt { $card } auf { $cell }.
removed-with-card = { $player } spielt { $card } und entfernt den Chip von { $victim } auf { $cell }.
removed = { $player } entfernt den Chip von { $victim } auf { $cell }.
placed = { $player } setzt einen Chip auf { $cell }.
placed-replacing = { $player } setzt einen Chip auf { $cell } und ersetzt den Chip von { $victim }.
exchanged = { $player } tauscht die tote Karte { $card } und zieht eine neue.
passed = { $player } kann nicht ziehen und passt.
captured = { $team } schlägt zwei Chips von { $victim } ({ $first } und { $second }).
sequence-done = 🎉 { $team } hat eine Sequenz vollendet! ({ $count } von { $target })
sequence-broken = { $team } hat eine Sequenz verloren.
reshuffled = Der Ablagestapel wurde gemischt und ist der neue Nachziehstapel.
provisional-win = { $team } hat das Ziel erreicht! Die Runde wird noch zu Ende gespielt.
rolled = 🎲 { $player } würfelt { $dice }: { $hint }.
roll-hint-number = einen Chip auf ein Feld mit der { $number } setzen
roll-hint-replace = alle Felder mit der { $number } sind belegt, also einen gegnerischen Chip auf einer { $number } ersetzen
roll-hint-remove = einen gegnerischen Chip entfernen (nicht auf einer 2 oder 12)
roll-hint-free = einen Chip auf ein beliebiges freies Feld setzen
roll-hint-blocked = auf allen Feldern mit der { $number } liegen schon eigene Chips, daher gibt es mit diesem Wurf keinen Zug
roll-hint-nothing-to-remove = einen gegnerischen Chip entfernen, aber außerhalb der Felder 2 und 12 gibt es keinen, daher gibt es mit diesem Wurf keinen Zug
won = 🏆 { $team } gewinnt: Herzlichen Glückwunsch, { $players }!
scores = Punkte: { $scores }.
drawn = Das Spiel endet unentschieden.
blocked = Eine ganze Runde lang konnte niemand ziehen: Das Brett ist blockiert, also { $outcome ->
        [points] gewinnt { $team } nach Punkten ({ $count }).
        [sequences] gewinnt { $team } nach Sequenzen ({ $count }).
        [draw-count] endet das Spiel unentschieden ({ $count }).
       *[draw] endet das Spiel unentschieden.
    }
hint = 💡 **Tipp** (der Computerspieler `hard`, mit deinen Karten und dem Brett): { $move }. { $why }.
hint-play = { $card } auf { $cell } spielen
hint-exchange = { $card } tauschen
hint-place = einen Chip auf { $cell } setzen
hint-remove = den Chip auf { $cell } entfernen
hint-pass = passen
why-completes = Das vollendet eine Sequenz
why-breaks = Das bricht { $chips } in einer Reihe von { $team } auf { $cell } auf
why-blocks = Das blockiert { $chips } in einer Reihe von { $team } auf { $cell }
why-makes = Das macht { $chips } in einer Reihe ({ $from }–{ $to })
why-zone = Das besetzt { $cell } in der Zone: eine Sequenz durch die Zone zählt 2 Punkte
why-opens = Das beginnt eine Reihe auf { $cell }: { $lines ->
        [one] eine Linie durch das Feld ist für dich noch offen
       *[other] { $lines } Linien durch das Feld sind für dich noch offen
    }
why-keeps-wild = Heb dir { $card } für später auf
why-dead = Eine tote Karte: tausche sie zuerst und frag dann noch einmal
why-best = Das schnitt in den Partien, die der Computer von hier aus durchgespielt hat, am besten ab
why-pass = Sonst ist nichts möglich
hints-only-casual = Tipps gibt es nur in Freundschaftsspielen: Dieses Spiel zählt für die Wertung.
hints-used = 💡 In diesem Spiel { $count ->
        [one] wurde 1 Tipp
       *[other] wurden { $count } Tipps
    } genutzt, von { $players }.
stats-agreement = 🤖 Übereinstimmung mit dem Computerspieler `hard`: { $percent } % von { $counted } Zügen in { $games ->
        [one] der letzten gewerteten Partie
       *[other] den letzten { $games } gewerteten Partien
    }.
agreement-title = 🤖 **Übereinstimmung mit dem Computer** (Spiel { $game }): Wie oft jeder Spieler den Zug gewählt hat, den der Computerspieler `hard` mit derselben Hand und demselben Brett gewählt hätte.
agreement-line = { $player }: { $percent } % ({ $matched } von { $counted ->
        [one] 1 Zug
       *[other] { $counted } Zügen
    })
agreement-none = { $player }: kein Zug zum Vergleichen
agreement-note = -# Das misst Übereinstimmung, nicht Spielstärke: Oft sind mehrere Züge gleich gut, und `hard` ist nicht perfekt.
summary-sequence = 📈 Sequenz für { $team } von { $player } im { $move }. Zug.
summary-sequence-zone = 👑 Sequenz für { $team } von { $player } im { $move }. Zug, in der Zone: { $points } Punkte (die Zone verdoppelt).
summary-sequence-points = 📈 Sequenz für { $team } von { $player } im { $move }. Zug: { $points ->
        [one] 1 Punkt
       *[other] { $points } Punkte
    }.
summary-broken = ✂️ { $player } hat die { $chips } in einer Reihe von { $team } auf { $cell } aufgebrochen (Zug { $move }).
summary-length = ⏱️ { $moves ->
        [one] 1 Zug
       *[other] { $moves } Züge
    }.
summary-length-minutes = ⏱️ { $moves ->
        [one] 1 Zug
       *[other] { $moves } Züge
    } in { $minutes ->
        [0] weniger als einer Minute
        [one] 1 Minute
       *[other] { $minutes } Minuten
    }.
won-by-forfeit = 🏆 { $team } gewinnt, weil alle anderen aufgegeben haben: Herzlichen Glückwunsch, { $players }!
won-on-time = 🏆 { $team } gewinnt auf Zeit: Die andere Seite hat ihre Zeit überschritten. Glückwunsch, { $players }!
stopped = { $player } hat das Spiel beendet.
no-humans-left = Es spielt kein Mensch mehr mit, also endet das Spiel.
forfeited = { $player } hat aufgegeben. Der Computerspieler **{ $bot }** übernimmt den Platz.
view-turn = { $player } ist am Zug.
turn-bot = { $player } überlegt …
turn-dice-again = { $player }, eine { $sum } bringt dir einen weiteren Zug (nur 2 und 12 tun das): Würfle noch einmal mit **Würfeln** (oder `/sequence würfeln`).
turn-dice = { $player }, du bist dran: drücke **Würfeln** (oder `/sequence würfeln`).
turn-cards = { $player }, du bist dran: drücke **Spielen**, um Karte und Feld zu wählen (oder `/sequence spielen karte: feld:`).
turn-deadline = Deine Zeit läuft { $deadline } ab.
reminder = ⏰ { $player }, du bist immer noch dran. In etwa { $time } spielt der Computer für dich.
reminder-give-up = ⏰ { $player }, du bist immer noch dran. In etwa { $time } ist deine Zeit um, und ein Computer übernimmt deinen Platz für den Rest des Spiels.
reminder-give-up-ends = ⏰ { $player }, du bist immer noch dran. In etwa { $time } ist deine Zeit um, und da für deine Seite niemand mehr weiterspielt, verliert deine Seite.
timed-out = ⏰ { $player } hat die Zeit überschritten, also hat der Computer ({ $level }) diesen Zug gespielt.
dm-failed = { $player }, ich konnte dir keine Direktnachricht schicken. Mit **Meine Karten** (oder `/sequence hand`) siehst du deine Karten privat.
record-attached = Das Spielprotokoll hängt an.
board-caption = **{ $game }**: { $player } ist am Zug.

## Privat: eine Hand, der Spielstand

hand-header = Deine Karten in { $channel }:
hand-your-turn = Du bist dran: Drücke **Spielen** unter der Zug-Nachricht in { $channel }, um Karte und Feld zu wählen (oder nimm `/sequence spielen karte: feld:`).
card-cells = { $card } — { $cells }
card-two-eyed-jack = { $card } — zweiäugiger Bube: jedes freie Feld
card-wild = { $card } — jedes freie Feld
card-one-eyed-jack = { $card } — einäugiger Bube: entfernt einen gegnerischen Chip
card-remove = { $card } — entfernt einen gegnerischen Chip
card-dead = { $card } — tot (beide Felder belegt): tausche sie mit `/sequence tauschen`
card-dead-exchanged = { $card } — tot (beide Felder belegt); du hast in diesem Zug schon eine Karte getauscht, tausche sie also in deinem nächsten Zug
status-header = **{ $game }** — Plätze in Zugreihenfolge:
status-to-move = Am Zug: { $player }
status-rolled = (hat { $dice } gewürfelt)
status-time-left = noch etwa { $time } für diesen Zug.
status-sequences = Sequenzen ({ $target } zum Sieg): { $list }.
status-draw-pile = Karten im Nachziehstapel: { $count }.

## Autovervollständigung

complete-remove = { $cell } — Chip von { $team } entfernen
complete-replace = { $cell } — Chip von { $team } ersetzen

## Regeln (`/sequence regeln`)

rules-classic =
    ## Sequence
    Für 2 bis 12 Personen: Zu zweit oder zu dritt spielt jeder für sich; 4, 6, 8, 9, 10 oder 12 bilden 2 oder 3 Teams, deren Mitglieder abwechselnd sitzen. Chips: blau, grün und für ein drittes Team rot.
    ### Ziel
    Eine **Sequenz** ist eine gerade Reihe aus 5 Chips deiner Farbe: waagerecht, senkrecht oder diagonal. Die vier Ecken sind frei: Sie zählen für jedes Team, und niemand legt dort einen Chip ab.
    Bei 2 Spielern oder Teams braucht ihr **2 Sequenzen**, bei 3 Spielern oder Teams **1**. Zwei Sequenzen eines Teams dürfen sich ein Feld teilen; eine gerade Reihe aus 9 Chips zählt also doppelt.
    ### Dein Zug
    - Spiel eine Karte und lege einen Chip auf eines der beiden freien Felder mit dieser Karte: `/sequence spielen karte:7H feld:D6`. Buben sind nicht auf dem Brett.
    - **Zweiäugige Buben** (Kreuz und Karo) sind Joker: ein Chip auf ein beliebiges freies Feld.
    - **Einäugige Buben** (Pik und Herz) entfernen einen gegnerischen Chip, der nicht zu einer fertigen Sequenz gehört. In diesem Zug legst du nichts.
    - Eine Karte, deren beide Felder belegt sind, ist **tot**: Tausche sie mit `/sequence tauschen` (einmal pro Zug) und spiel dann.
    - Du ziehst automatisch eine neue Karte. Ist der Nachziehstapel leer, wird der Ablagestapel gemischt.
    - Kannst du gar nicht ziehen, wird dein Zug übersprungen; kann niemand mehr ziehen, endet das Spiel unentschieden.
    Karten auf der Hand: zu zweit 7, zu dritt oder zu viert 6, zu sechst 5, zu acht oder zu neunt 4, zu zehnt oder zu zwölft 3. Deine Karten kommen per Direktnachricht, oder du siehst sie mit `/sequence hand`.
    ### Optionen von `/sequence neu`
    - `sequenzen`: wie viele Sequenzen gewinnen (1 bis 4).
    - `gleiche_runde`: Ein Sieg zählt erst, wenn die Runde zu Ende gespielt ist; erreicht in dieser Runde noch ein Team das Ziel, endet das Spiel unentschieden.
    - Hausregel `punkte`: Weiterspielen, bis niemand mehr ziehen kann; jede Sequenz bringt einen Punkt. Einäugige Buben dürfen Sequenzen aufbrechen, und der Nachziehstapel wird nicht neu gemischt. Die meisten Punkte gewinnen.
    - Hausregel `paare_schlagen`: Schließt du genau zwei nebeneinanderliegende gegnerische Chips in einer Reihe zwischen zwei eigenen ein, schlägst du sie (nie aus einer Sequenz). Fünf geschlagene Paare gewinnen ebenfalls.
    - `modus: König des Bretts`: ein Rennen um Punkte rund um eine 3 x 3 große Zone (auf dem Brett eingerahmt). Eine neue Sequenz, die die Zone berührt, bringt 2 Punkte, jede andere 1; nach jedem Punkt wandert die Zone an einen anderen von neun Orten. `punkte_zum_sieg` (2 bis 10, Standard 3) gewinnen sofort.
rules-dice =
    ## Sequence Würfelspiel
    Für 2 bis 4 Personen; zu viert spielen der erste und dritte gegen den zweiten und vierten als zwei Teams. Wer beginnt, wird ausgewürfelt.
    ### Ziel
    Wer zuerst **5 Chips in einer geraden Reihe** hat, gewinnt: waagerecht, senkrecht oder diagonal. Freie Ecken gibt es hier nicht. Mit `/sequence neu reihenlänge:6` braucht eine Reihe 6 Chips, wie es die Regel für 2 Spieler oder 2 Teams empfiehlt.
    ### Dein Zug
    - Würfle mit `/sequence würfeln` (oder dem Knopf) und lege einen Chip auf ein freies Feld mit der gewürfelten Summe: `/sequence spielen feld:C3`.
    - Sind alle Felder dieser Zahl belegt, ersetzt du einen gegnerischen Chip auf einem davon (auch auf 2 und 12). Liegen dort nur deine eigenen Chips, hast du Pech gehabt.
    - **10** ist ein Defensivwurf: Entferne einen gegnerischen Chip, aber nicht von einer 2 oder 12: `/sequence entfernen feld:C3`.
    - **11** ist ein Freiwurf: Lege einen Chip auf ein beliebiges freies Feld.
    - Nach **1+1** (2) oder **6+6** (12) setzt du deinen Chip und bist gleich noch einmal dran. Andere Pasche bringen keinen weiteren Wurf.
rules-kids =
    ## Sequence für Kids
    Für 2 bis 4 Personen, jede mit ihrer eigenen Farbe (zu viert darf man auch in 2 Teams spielen).
    ### Ziel
    Wer zuerst **4 Chips in einer Reihe** hat, gewinnt: waagerecht, senkrecht oder diagonal. Die vier Ecken sind frei: Sie zählen für alle.
    ### Dein Zug
    - Du hast 3 Tierkarten. Spiel eine und lege einen Chip auf ein freies Feld mit diesem Tier: `/sequence spielen karte:Löwe feld:B1`.
    - Das **Einhorn** darf auf jedes freie Feld. Der **Drache** entfernt einen gegnerischen Chip, und du legst in diesem Zug nichts.
    - Eine Karte, deren beide Felder belegt sind, ist **tot**: Tausche sie mit `/sequence tauschen` und spiel dann ganz normal.
    - Du ziehst automatisch nach und hast so immer 3 Karten.
    Die Tiere: Löwe, Zebra, Giraffe, Elefant, Affe, Panda, Frosch, Eule, Schildkröte, Hase, Pinguin, Fuchs, Wal, Bär, Nilpferd, Känguru, Strauß, Gorilla und Krokodil.

## Wörter auf den Bildern von Brett und Hand

image-seat = Platz { $n }
image-turn = { $name } ist am Zug
image-won = { $team } gewinnt!
image-drawn = Unentschieden
image-draw-pile = Nachziehstapel: { $n }
image-sequences = { $have }/{ $need }
image-points = { $n } Pkt.
image-pairs = { $n } Paare
image-points-of = { $have }/{ $need } Pkt.
image-zone = ZONE ×2
image-last-placed = Zuletzt: { $name } spielte { $card } auf { $cell }
image-last-removed = Zuletzt: { $name } entfernte { $cell } mit { $card }
image-last-placed-dice = Zuletzt: { $name } setzte auf { $cell }
image-last-removed-dice = Zuletzt: { $name } entfernte { $cell }
image-roll = Wurf: { $sum }
image-roll-ten = 10: einen Chip entfernen
image-roll-eleven = 11: jedes freie Feld
image-free = FREI
image-your-hand = Deine Hand
image-you-play = Du spielst { $team }
image-your-turn = Du bist dran
image-waiting = Warten auf { $name }
image-dead = TOT
image-exchange-it = tauschen
image-any-empty = jedes freie Feld
image-any-opponent = jeder offene Chip
image-nothing-to-remove = nichts zu entfernen
image-no-cell = kein Feld frei
image-wild = JOKER
image-remove = ENTFERNEN
image-no-cards = Das Würfelspiel hat keine Karten.
image-you-may = Du kannst setzen auf:

## Gespeicherte Spiele, Statistik und Verlauf

cmd-stats = statistik
cmd-stats-desc = Spiele, Siege und Sequenzen einer Person auf diesem Server.
opt-stats-user = person
opt-stats-user-desc = Wessen Statistik (Standard: deine)
cmd-leaderboard = bestenliste
cmd-leaderboard-desc = Die besten Spieler dieses Servers.
cmd-history = verlauf
cmd-history-desc = Die letzten beendeten Spiele dieses Servers, mit ihren Nummern.
cmd-record = protokoll
cmd-record-desc = Das Protokoll eines beendeten Spiels herunterladen (Standard: das letzte in diesem Kanal).
opt-record-game = spiel
opt-record-game-desc = Die Nummer des Spiels, aus /sequence verlauf
cmd-hint = tipp
cmd-hint-desc = Privat: der Zug, den der Computer hard jetzt machen würde, und warum (nur Freundschaftsspiele).
cmd-replay = wiederholung
cmd-replay-desc = Ein beendetes Spiel als Animation zeigen (Standard: das letzte in diesem Kanal).
opt-replay-game = spiel
opt-replay-game-desc = Die Nummer des Spiels, aus /sequence verlauf
save-failed = Entschuldigung, ich konnte das nicht speichern, also ist nichts passiert. Bitte versuch es gleich noch einmal.
game-resumed = 🔄 Ich wurde neu gestartet: Das Spiel **{ $game }** in diesem Kanal geht weiter, wo es war. { $player } ist am Zug.
game-resumed-timed = 🔄 Ich wurde neu gestartet: Das Spiel **{ $game }** in diesem Kanal geht weiter, wo es war. { $player } ist am Zug (noch etwa { $time }).
lobby-resumed = 🔄 Ich wurde neu gestartet: Die Lobby für **{ $game }** in diesem Kanal ist weiter offen.
not-restored = ⚠️ Ich wurde neu gestartet, aber das Spiel in diesem Kanal ließ sich nicht wiederherstellen: Sein gespeicherter Stand ist beschädigt. Es wurde für den Betreiber des Bots beiseitegelegt. Bitte eröffnet ein neues Spiel mit `/sequence neu`.
ended-while-restarting = 🏁 Das Spiel in diesem Kanal endete genau, als ich neu gestartet wurde, deshalb wurde sein Ende nie verkündet. Hier ist es:
game-saved = Gespeichert als Spiel #{ $id }: `/sequence protokoll spiel:{ $id }` lädt sein Protokoll erneut herunter.
no-history = Statistik und Spielverlauf gibt es nicht: Dieser Bot läuft ohne Datenbank.
history-failed = Entschuldigung, ich konnte den Spielverlauf gerade nicht lesen. Bitte versuch es gleich noch einmal.
stats-none = { $player } hat auf diesem Server noch kein Spiel beendet.
stats = 📊 { $player } auf diesem Server: { $games ->
        [one] 1 Spiel
       *[other] { $games } Spiele
    }, { $wins ->
        [one] 1 Sieg
       *[other] { $wins } Siege
    } ({ $percent } %), { $sequences ->
        [one] 1 Sequenz
       *[other] { $sequences } Sequenzen
    }.
leaderboard-empty = Auf diesem Server ist noch kein gewertetes Spiel beendet: Die Bestenliste füllt sich, sobald gewertete Spiele enden.
leaderboard-header = 🏆 **Bestenliste** dieses Servers, nach Wertung (alle beginnen bei 1500; sie steigt mit Siegen und je sicherer sich der Bot bei einem Spieler ist):
leaderboard-line = { $wins ->
        [one] 1 Sieg
       *[other] { $wins } Siege
    } in { $games ->
        [one] 1 Spiel
       *[other] { $games } Spielen
    } ({ $percent } %), { $sequences ->
        [one] 1 Sequenz
       *[other] { $sequences } Sequenzen
    }
rating-none = Noch kein gewertetes Spiel (es zählen Spiele mit Menschen in mindestens zwei Teams, oder mit `rated: True` gestartete Spiele).
rating-line = Wertung **{ $rating }**{ $provisional ->
        [yes] {" "}(vorläufig)
       *[no] {""}
    } nach { $games ->
        [one] 1 gewerteten Spiel
       *[other] { $games } gewerteten Spielen
    }
rating-changes = ; { $count ->
        [one] Änderung im letzten gewerteten Spiel: { $changes }
       *[other] Änderungen in den letzten gewerteten Spielen, die neueste zuerst: { $changes }
    }
history-empty = Auf diesem Server ist noch kein Spiel beendet.
history-header = 📜 **Letzte Spiele** dieses Servers:
history-no-winner = ohne Sieger
history-won-by = gewonnen von { $players }
history-footer = `/sequence protokoll spiel:` lädt das Protokoll eines Spiels herunter.
game-record = Das Protokoll von Spiel #{ $id } hängt an.
game-replay = 🎞️ Spiel #{ $id }, Zug für Zug.
button-watch = Zuschauen
button-activity = Brett öffnen
button-replay-web = Wiederholung im Browser
web-replay-not-found = Zu diesem Link gibt es kein beendetes Spiel: Vielleicht ist er falsch geschrieben, oder sein Server hat Weblinks abgeschaltet.
web-replay-failed = Das Spiel konnte gerade nicht gelesen werden. Bitte versuche es gleich noch einmal.
web-server-not-found = Zu diesem Link gibt es keine Serverseite: Vielleicht ist er falsch geschrieben, oder die Admins des Servers haben seine Seite abgeschaltet.
no-such-game = Auf diesem Server gibt es kein beendetes Spiel #{ $id }. `/sequence verlauf` zeigt die letzten Spiele.
no-game-here = Von diesem Kanal ist noch kein beendetes Spiel gespeichert. `/sequence verlauf` zeigt die letzten Spiele dieses Servers mit ihren Nummern.

# Kanalberechtigungen
permission-view-channel = Kanal ansehen
permission-send-messages = Nachrichten senden
permission-send-messages-in-threads = Nachrichten in Threads senden
permission-attach-files = Dateien anhängen
cannot-post-here = Ich kann das Spielbrett in diesem Kanal nicht posten. Fehlende Berechtigungen: { $permissions }.
game-paused = ⏸️ Das Spiel in diesem Kanal ist pausiert: Ich kann hier nicht mehr posten. Fehlende Berechtigungen: { $permissions }. Bis ich es wieder kann, passiert nichts (keine Computerzüge, keine Zeitüberschreitungen).
game-paused-unknown = ⏸️ Das Spiel in diesem Kanal ist pausiert: Discord hat meinen letzten Beitrag hier abgelehnt. Bis ich wieder posten kann, passiert nichts (keine Computerzüge, keine Zeitüberschreitungen).
grant-permissions-channel = Ein Mitglied, das den Server verwalten darf, kann mir hier { $permissions } erlauben: Kanaleinstellungen → Berechtigungen → meine Rolle oder mich hinzufügen.
grant-permissions-thread = Ein Mitglied, das den Server verwalten darf, kann mir { $permissions } im Kanal dieses Threads erlauben (Kanaleinstellungen → Berechtigungen → meine Rolle oder mich hinzufügen); in einem privaten Thread muss ich außerdem hinzugefügt werden, indem man mich erwähnt.
posting-restored = ▶️ Ich kann in diesem Kanal wieder posten: Das pausierte Spiel geht weiter.

## Server settings

settings-not-allowed = Nur Mitglieder mit der Berechtigung **Server verwalten** können die Einstellungen dieses Servers sehen oder ändern.
settings-header = ⚙️ **Einstellungen dieses Servers**:
settings-changed = ⚙️ Gespeichert. Die Einstellungen dieses Servers sind jetzt:
settings-list = • Spiel: { $game }
    • Computerstufe: { $level }
    • Zugerinnerung nach { $reminder }
    • Zugzeit { $timeout }
    • Lobby schließt nach { $lobby }
    • Bedenkzeit des Computers pro Zug: { $thinking ->
        [none] Standard des Bots
       *[other] { $thinking } ms
    }
    • wenn die Zeit abläuft: { $on_timeout ->
        [give_up] der Spieler gibt auf (ein Computer übernimmt seinen Platz, oder das Spiel endet, wenn für seine Seite niemand mehr spielt)
       *[computer] ein Computer spielt diesen Zug
    }
    • ein Computer übernimmt den Platz für den Rest des Spiels { $replaced ->
        [0] nie (er spielt nur jeden überschrittenen Zug)
        [one] nach 1 überschrittenen Zug
       *[other] nach { $replaced } überschrittenen Zügen hintereinander
    }
    • Gewertete Spiele: { $rated ->
        [always] jedes Spiel
        [never] keine (locker)
       *[default] Spiele mit Menschen in mindestens zwei Teams
    }
    • Sprache der Kanalnachrichten: { $language ->
        [English] English
        [Deutsch] Deutsch
        [Norsk] Norsk
       *[other] die Sprache des Servers
    }
    • Tipps: { $hints ->
        [on] in jedem Spiel (in einem gewerteten Spiel nach einer Bestätigung; das Spiel wird dann ungewertet)
       *[off] nur in Freundschaftsspielen
    }
    • animierte Wiederholung nach jedem Spiel: { $replay_gif ->
        [off] nein
       *[on] ja
    }
    • Webseiten der Spiele (Zuschauen-Knopf, Live-Brett, Wiederholung): { $web_links ->
        [off] aus
       *[on] an
    }
    • eigene Seite des Servers (Bestenliste, letzte Spiele, Profile): { $web_page ->
        [on] an
       *[off] aus
    }
settings-web-page-link = Die Seite des Servers (jeder mit diesem Link kann sie öffnen; aus- und wieder einschalten macht einen neuen Link): { $url }
settings-bad-range = `{ $option }` muss zwischen { $min } und { $max } { $unit } liegen. Es wurde nichts geändert.
settings-bad-range-count = `{ $option }` muss zwischen { $min } und { $max } liegen. Es wurde nichts geändert.
settings-reminder-after-timeout = Die Zugerinnerung ({ $reminder } s) muss vor dem Ende der Zugzeit ({ $timeout } s) kommen. Es wurde nichts geändert.
cmd-sequence-settings = sequence-einstellungen
cmd-sequence-settings-desc = Die Standards dieses Servers für Sequence zeigen oder ändern (Server verwalten).
opt-sequence-settings-game = spiel
opt-sequence-settings-game-desc = Das Spiel, das ein neuer Tisch ohne Angabe öffnet
opt-sequence-settings-level = stufe
opt-sequence-settings-level-desc = Die Stufe der Computerspieler
opt-sequence-settings-turn_reminder = zugerinnerung
opt-sequence-settings-turn_reminder-desc = Sekunden, bis ein Spieler an seinen Zug erinnert wird
opt-sequence-settings-turn_timeout = zugzeit
opt-sequence-settings-turn_timeout-desc = Sekunden, bis ein Computer den Zug spielt
opt-sequence-settings-lobby_timeout = lobbyzeit
opt-sequence-settings-lobby_timeout-desc = Sekunden, bis eine nicht gestartete Lobby schließt
opt-sequence-settings-thinking_time = bedenkzeit
opt-sequence-settings-thinking_time-desc = Millisekunden, die ein Computerspieler pro Zug nachdenkt
opt-sequence-settings-on_timeout = bei_zeitablauf
opt-sequence-settings-on_timeout-desc = Was passiert, wenn die Zeit eines Spielers abläuft
opt-sequence-settings-timeouts_before_replaced = zeitüberschreitungen
opt-sequence-settings-timeouts_before_replaced-desc = Überschrittene Züge hintereinander, bis ein Computer den Platz übernimmt (0: nie)
choice-on_timeout-computer = ein Computer spielt diesen Zug
choice-on_timeout-give_up = der Spieler gibt auf
opt-sequence-settings-rated = gewertet
opt-sequence-settings-rated-desc = Ob Spiele standardmäßig für die Wertung zählen
opt-sequence-settings-hints = tipps
opt-sequence-settings-hints-desc = Ob Tipps in gewerteten Spielen erlaubt sind (das Spiel wird dann ungewertet)
opt-sequence-settings-replay_gif = wiederholung_gif
opt-sequence-settings-replay_gif-desc = Ob nach jedem beendeten Spiel die animierte Wiederholung gepostet wird
opt-sequence-settings-web_links = weblinks
opt-sequence-settings-web_links-desc = Ob Spiele einen Zuschauen-Knopf und Webseiten haben (Live-Brett, Wiederholung)
opt-sequence-settings-web_page = webseite
opt-sequence-settings-web_page-desc = Ob der Server eine eigene Webseite hat (Bestenliste, letzte Spiele, Profile)
opt-sequence-settings-language = sprache
opt-sequence-settings-language-desc = Die Sprache der Kanalnachrichten des Bots
opt-sequence-settings-reset = zuruecksetzen
opt-sequence-settings-reset-desc = Zuerst zu den Standards des Bots zurückkehren
choice-language-english = English (Englisch)
choice-language-german = Deutsch
choice-language-norwegian = Norsk (Norwegisch)

## Revanche, Aufgeben, Zeitüberschreitungen, Einstellungen der Lobby (Issue 16)

button-rematch = Revanche
button-leave-confirm = Ja, aufgeben
button-leave-keep = Weiterspielen
confirm-leave = Willst du dieses Spiel wirklich aufgeben? Ein Computerspieler übernimmt deinen Platz, und du kannst nicht zurück.
confirm-leave-ends = Willst du dieses Spiel wirklich aufgeben? Für deine Seite spielt dann niemand mehr weiter, also endet das Spiel sofort und deine Gegner gewinnen.
kept-playing = Gut: Du spielst weiter.
timeout-gives-up = ⚠️ Auf diesem Server heißt Zeitüberschreitung Aufgeben: Wer einen Zug verstreichen lässt ({ $timeout }), verlässt das Spiel sofort, und spielt sonst niemand auf seiner Seite, verliert diese Seite.
hint-declined = Kein Tipp: Das Spiel bleibt gewertet. Wähle deinen Zug.
gave-up = { $player } hat aufgegeben.
out-of-time-lost = ⏰ { $player } hat { $count ->
        [1] die Zeit überschritten
        [2] zweimal hintereinander die Zeit überschritten
       *[other] { $count }-mal hintereinander die Zeit überschritten
    }: Diese Seite verliert.
out-of-time-ends = ⏰ { $player } hat { $count ->
        [1] die Zeit überschritten
        [2] zweimal hintereinander die Zeit überschritten
       *[other] { $count }-mal hintereinander die Zeit überschritten
    }: Niemand ist mehr da, also endet das Spiel.
timeout-warning = ⚠️ { $player }, du hast { $count ->
        [1] in deinem letzten Zug
       *[other] in deinen letzten { $count } Zügen
    } die Zeit überschritten: Passiert das noch einmal, übernimmt ein Computer deinen Platz für den Rest des Spiels.
timeout-warning-ends = ⚠️ { $player }, du hast { $count ->
        [1] in deinem letzten Zug
       *[other] in deinen letzten { $count } Zügen
    } die Zeit überschritten: Passiert das noch einmal, verliert deine Seite.
replaced-after-timeouts = ⏰ { $player } hat { $count ->
        [1] die Zeit überschritten
        [2] zweimal hintereinander die Zeit überschritten
       *[other] { $count }-mal hintereinander die Zeit überschritten
    }: Der Computerspieler **{ $bot }** übernimmt den Platz für den Rest des Spiels.
remove-with-jack = Im Kartenspiel entfernst du einen Chip mit einem einäugigen Buben (J♠ oder J♥): `/sequence spielen karte:JS feld:C3`.
remove-with-dragon = In Sequence für Kinder entfernst du einen Chip mit dem Drachen: `/sequence spielen karte:Drache feld:C3`.
not-in-hand = Diese Karte hast du nicht auf der Hand. Deine Karten: { $cards }.
roll-does-not-match = Dieses Feld passt nicht zu deinem Wurf { $total }.
roll-cells = Dein Wurf erlaubt: { $cells }.
team-no-room = { $team } hat schon { $size ->
        [one] seinen 1 Spieler
       *[other] seine { $size } Spieler
    }, so viele, wie ein Team in diesem Spiel haben kann. Tritt einem anderen Team bei, oder ohne ein Team zu nennen.
rematch-not-player = Nur wer das letzte Spiel hier mitgespielt hat, kann eine Revanche verlangen. Starte ein neues Spiel mit `/sequence neu`.
rematch-expired = Dieses Spiel ist zu lange vorbei für eine Revanche. Starte ein neues Spiel mit `/sequence neu`.
rematch-superseded = Seitdem wurde in diesem Kanal ein neueres Spiel gespielt. Nimm den Revanche-Knopf unter dem Ergebnis des letzten Spiels oder starte ein neues Spiel mit `/sequence neu`.
leave-expired = Diese Frage galt einem Spiel, das vorbei ist. Es wurde nichts geändert.
leave-answered = Diese Frage ist schon beantwortet: Du spielst weiter, und es wurde nichts geändert. Um aufzugeben, nutze noch einmal `/sequence verlassen`.
question-answered = Diese Frage ist schon beantwortet, also wurde nichts geändert. Frag noch einmal, wenn du es weiterhin möchtest.
lobby-invited = Revanche! Eingeladen: { $players }. Drück **Mitspielen**, um noch einmal zu spielen.
lobby-rules = Einstellungen: { $target } · { $reminder } · { $timeout } · Stufe von Computern, die ohne Stufe hinzugefügt werden oder für jemanden spielen: { $level }.
lobby-rules-reminder = Erinnerung nach { $time }
lobby-rules-no-reminder = keine Erinnerung (der Zug zählt sichtbar herunter)
bad-turn-time = Eine Zugzeit von { $secs } s ist nicht möglich: Wähle zwischen { $min } und { $max } Sekunden.
lobby-rules-scoring = die meisten Punkte gewinnen (Punktwertung)
lobby-rules-sequences = { $count ->
        [one] 1 Sequenz zum Sieg
       *[other] { $count } Sequenzen zum Sieg
    }
lobby-rules-sequences-by-teams = { $count ->
        [one] 1 Sequenz zum Sieg
       *[other] { $count } Sequenzen zum Sieg
    } ({ $three } mit drei Teams)
lobby-rules-timeout-computer = nach { $timeout } spielt ein Computer den Zug
lobby-rules-timeout-give-up = nach { $timeout } gibt der Spieler auf: Ein Computer übernimmt den Platz, oder das Spiel endet, wenn für seine Seite niemand mehr spielt
lobby-rules-timeout-replaced = nach { $timeout } spielt ein Computer den Zug; nach { $count ->
        [one] 1 überschrittenen Zug
       *[other] { $count } überschrittenen Zügen hintereinander
    } übernimmt er den Platz für den Rest des Spiels (spielt sonst niemand auf dieser Seite, verliert die Seite)

## Gewertet oder nicht, abgebrochene Spiele, Beenden als Aufgeben
rating-rated = ⚖️ Gewertet: Dieses Spiel zählt für die Wertung.
rating-casual = Ungewertet: Dieses Spiel zählt nicht für die Wertung.
rating-casual-limit = Ungewertet: Einige dieser Spieler haben in den letzten 24 Stunden schon { $limit } gewertete Spiele gegeneinander gespielt, daher zählt dieses nicht für die Wertung.
rating-aborted = Abgebrochen: Das Spiel endete, bevor alle { $moves } Züge gemacht hatten, daher zählt es nicht (keine Änderung der Wertung, kein Sieg und keine Niederlage).
rating-moderator-stop = Nicht gewertet: Jemand, der nicht mitspielt, hat das Spiel beendet, daher hat es kein Ergebnis.
rating-moderator-stop-gave-up = Nicht gewertet: Jemand, der nicht mitspielt, hat das Spiel beendet, daher hat es kein Ergebnis; wer aufgegeben hat, behält die Niederlage.
stop-is-giving-up = { $player } spielt mit, daher zählt das Beenden als Aufgeben.
shared-win = 🏆 { $teams } teilen sich den Sieg, weil die anderen aufgegeben haben.
history-aborted = abgebrochen
rating-needs-opponent = Bisher ungewertet: Das Spiel zählt für die Wertung, sobald Menschen in mindestens zwei Teams spielen.

## Knöpfe für das, was bisher getippt wurde (Issue 26): Stufenmenü, Teams, ⋯-Menü, nach dem Spiel
button-level-easy = Leicht
button-level-medium = Mittel
button-level-hard = Schwer
button-removebot = Computer entfernen
button-join-team = Team { $team } beitreten
button-more = ⋯ Mehr
button-status = Stand
button-rules = Regeln
button-leave-game = Spiel verlassen
button-stop = Spiel beenden
button-stats = Meine Statistik
button-record = Spielprotokoll
bot-menu = Welche Stufe soll der Computerspieler haben?
bot-menu-added = { $name } spielt mit. Noch einen Computerspieler dazu?
game-menu = Mehr zu diesem Spiel:
button-expired = Dieser Knopf gehörte zu einem früheren Spiel oder einer früheren Lobby in diesem Kanal. Es wurde nichts geändert.
team-changed = Du bist jetzt in { $team }.
already-on-team = Du bist schon in { $team }.
button-stop-confirm = Ja, Spiel beenden
confirm-stop-player = Dieses Spiel jetzt für alle beenden? Du spielst mit, also zählt das Beenden als Aufgeben: eine Niederlage für dein Team.
confirm-stop = Dieses Spiel jetzt für alle beenden? Es endet ohne Ergebnis.
bad-series = Eine Serie über { $count } Spiele gibt es nicht: Wähle 3, 5 oder 7 (wer die Mehrheit gewinnt).
series-score = Serie über { $count } Spiele, nach Spiel { $played }: { $score }.
lobby-rules-series = eine Serie über { $count } Spiele
series-game = 🏁 Spiel { $number } einer Serie über { $count } Spiele — { $score }.
series-won = 🏆 { $players } gewinnen die Serie (über { $count } Spiele)!
series-no-winner = Die Serie endet ohne Sieger.
series-next = Drücke **Nächstes Spiel**, um das nächste Spiel der Serie sofort zu beginnen: dieselben Spieler und Teams, die Seite, die verloren hat, beginnt.
series-break = In diesem Kanal läuft eine Serie zwischen zwei Spielen: Ein Spieler der Serie drückt **Nächstes Spiel** (oder **Serie abbrechen**, um sie zu beenden).
not-in-series = Nur die Spieler dieser Serie können ihr nächstes Spiel beginnen oder sie abbrechen.
confirm-abandon-series = Die Serie abbrechen? Die gespielten Spiele bleiben gewertet, und niemand gewinnt die Serie.
series-abandoned = { $player } hat die Serie abgebrochen. Die gespielten Spiele bleiben gewertet; niemand gewinnt die Serie.
series-expired = Niemand hat das nächste Spiel der Serie rechtzeitig begonnen: Die Serie endet ohne Sieger.
button-next-game = Nächstes Spiel
button-abandon-series = Serie abbrechen
button-abandon-series-confirm = Ja, Serie abbrechen
opt-start-series = serie
opt-start-series-desc = Eine Serie spielen: 3, 5 oder 7 Spiele, die Mehrheit gewinnt
choice-series-best3 = über 3 Spiele
choice-series-best5 = über 5 Spiele
choice-series-best7 = über 7 Spiele
series-stats = Serien: { $played } gespielt, { $won } gewonnen.

## König des Bretts
opt-start-mode = modus
opt-start-mode-desc = Spielmodus des klassischen Sequence (Standard: standard)
opt-start-points_to_win = punkte_zum_sieg
opt-start-points_to_win-desc = König des Bretts: Punkte zum Sieg (2 bis 10, Standard 3)
choice-mode-standard = Standard
choice-mode-king_of_the_board = König des Bretts (klassisch)
option-king-of-the-board = König des Bretts
option-points-to-win = { $count } Punkte zum Sieg
lobby-rules-kotb = König des Bretts, { $count } Punkte gewinnen
zone-line = 👑 Zone { $centre }: { $first }–{ $last }, zählt 2 (eine Sequenz anderswo: 1).
zone-scored = 👑 { $team } punktet 2 in der Zone! { $points }
zone-scored-outside = 🎉 { $team } punktet 1. { $points }
zone-points = ({ $total } von { $target } Punkten)
zone-points-past = ({ $total } Punkte, { $target } nötig)
zone-moved = 👑 Die Zone wandert nach { $centre } ({ $first }–{ $last }).
status-points = Punkte ({ $target } zum Sieg): { $list }.
status-zone = Zone { $centre }: { $first }–{ $last }, zählt 2.
setup-king-of-the-board = König des Bretts ist ein Modus des klassischen Sequence: Er lässt sich nicht mit den Hausregeln Punktwertung oder Paare schlagen kombinieren, und gewonnen wird nach Punkten (`{ $option }`), nicht nach Sequenzen.
setup-points-to-win = `{ $option }` (2 bis 10) gilt nur für König des Bretts: Wähle den Modus { $mode }.
hint-busy = Dein letzter Tipp wird noch berechnet: bitte einer nach dem anderen.
hint-spent = Du hast mich in letzter Zeit um viel gebeten: Ein Tipp ist eine lange Suche. Bitte versuche es in ein paar Sekunden noch einmal.
replays-waiting = Für dich { $max ->
        [one] wartet schon eine Wiederholung
       *[other] warten schon { $max } Wiederholungen
    } darauf, gezeichnet zu werden: Frag noch einmal, sobald eine gepostet ist.
replays-busy = Auf diesem Server warten { $max } Wiederholungen darauf, gezeichnet zu werden: Bitte versuche es in einer Minute noch einmal.

## Profile, direkter Vergleich und Erfolge (Issue 35)
button-profile = Mein Profil
cmd-profile = profil
cmd-profile-desc = Das Profil einer Person auf diesem Server: Zahlen, Wertungsverlauf und Erfolge.
opt-profile-user = person
opt-profile-user-desc = Wessen Profil (Standard: deins)
cmd-versus = gegen
cmd-versus-desc = Deine Spiele mit einem anderen Mitglied dieses Servers.
opt-versus-user = person
opt-versus-user-desc = Das andere Mitglied
cmd-profile_menu = Sequence-Profil
profile-none = { $player } hat auf diesem Server noch kein Spiel beendet, daher gibt es noch kein Profil.
profile-rebuilding = Die Profile werden nach einem Update aus den gespeicherten Spielen neu aufgebaut ({ $percent } % erledigt). Gespielt wird wie gewohnt, und alles zählt; frag bitte in ein paar Minuten noch einmal.
versus-none = Du hast mit { $other } auf diesem Server noch kein Spiel beendet.
versus-self = Wähle ein anderes Mitglied: `/sequence gegen` vergleicht deine Spiele mit seinen.
achievement-unlocked = 🏅 { $player } hat { $names } freigeschaltet
profile-header = 🪪 **Profil** von { $player } auf diesem Server
profile-unrated = Noch kein gewertetes Spiel
profile-rank = Platz { $place } von { $total } in der Bestenliste
profile-chart = Wertung über { $games ->
        [one] das letzte gewertete Spiel
       *[other] die letzten { $games } gewerteten Spiele
    }
profile-chart-text = Wertung über die letzten { $games } gewerteten Spiele: von { $first } auf { $last }.
profile-totals = { $games ->
        [one] 1 Spiel
       *[other] { $games } Spiele
    }, { $wins ->
        [one] 1 Sieg
       *[other] { $wins } Siege
    } ({ $percent } %), Siegesserie { $streak } (beste { $best }), { $sequences ->
        [one] 1 Sequenz
       *[other] { $sequences } Sequenzen
    }.
profile-by-game = Nach Spiel
profile-by-opponents = Nach Gegnern
profile-breakdown = { $name } { $games } gespielt, { $wins } gewonnen ({ $rate }), { $moves } Züge pro Spiel{ $fastest }
profile-fastest = , schnellster Sieg in { $moves } Zügen
profile-vs-humans = Menschen
profile-vs-easy = Computer (leicht)
profile-vs-medium = Computer (mittel)
profile-vs-hard = Computer (schwer)
profile-col-game = Spiel
profile-col-opponents = Gegner
profile-col-games = Spiele
profile-col-wins = Siege
profile-col-rate = Siegquote
profile-col-moves = Züge pro Spiel
profile-col-fastest = Schnellster Sieg
profile-style = Spielweise
profile-two-eyed = Zweiäugige Buben gespielt
profile-one-eyed = Einäugige Buben gespielt
profile-lines-broken = Viererreihen gebrochen
profile-dead-cards = Tote Karten getauscht
profile-first-move = Mit dem ersten Zug
profile-first-move-value = { $percent } % gewonnen ({ $wins }/{ $games })
profile-moves-per-game = Eigene Züge pro Spiel
profile-play-time = Spielzeit
profile-play-time-value = { $hours } Std. { $minutes } Min.
profile-first-game = Erstes Spiel hier
profile-agreement = Übereinstimmung mit schwer
profile-agreement-value = { $percent } % in { $games ->
        [one] 1 Spiel
       *[other] { $games } Spielen
    }
profile-achievements = Erfolge ({ $count } von { $total }): { $list }.
profile-achievements-title = Erfolge
profile-achievements-none = noch keine
profile-progress = { $name } ({ $condition }) { $have }/{ $goal }
profile-next = Als Nächstes
profile-games = Spiele
profile-wins = Siege
profile-win-rate = Siegquote
profile-streak = Siegesserie
profile-best-streak = Beste Serie
profile-sequences = Sequenzen
profile-series = Serien gewonnen
profile-series-value = { $won } von { $played }
profile-footer = Nur Spiele dieses Servers. Erfolge zählen nur die eigenen Züge, in gewerteten Spielen und Spielen ohne menschliche Gegner.
versus-header = 🤝 { $player } und { $other } auf diesem Server: { $games ->
        [one] 1 gemeinsames Spiel
       *[other] { $games } gemeinsame Spiele
    }.
versus-title = Mit { $other }
versus-you = du
versus-games = Gemeinsame Spiele
versus-as-partners = Im selben Team
versus-partners-value = { $games } gespielt, { $wins } gewonnen
versus-as-opponents = Gegeneinander
versus-opponents-value = { $games } gespielt, { $player } { $wins } – { $losses } { $other }
versus-sequences = Sequenzen
versus-sequences-value = { $player } { $mine }, { $other } { $theirs }
versus-recent = Letzte Spiele
versus-won-together = gemeinsam gewonnen
versus-lost-together = gemeinsam verloren
versus-won = gewonnen
versus-lost = verloren
versus-no-winner = ohne Sieger
versus-footer = `/sequence wiederholung spiel:` zeigt eines davon Zug für Zug.
achievement-first_game = Erstes Spiel
achievement-first_game-condition = Beende ein Spiel
achievement-veteran = Veteran
achievement-veteran-condition = Beende 100 Spiele
achievement-on_fire = Heiß gelaufen
achievement-on_fire-condition = 5 Siege in Folge
achievement-unstoppable = Unaufhaltsam
achievement-unstoppable-condition = 10 Siege in Folge
achievement-beat_easy = Aufwärmen
achievement-beat_easy-condition = Besiege den leichten Computer
achievement-beat_medium = Jetzt wird es ernst
achievement-beat_medium-condition = Besiege den mittleren Computer
achievement-beat_hard = Riesentöter
achievement-beat_hard-condition = Besiege den schweren Computer
achievement-hard_ten = Maschinenbändiger
achievement-hard_ten-condition = Besiege den schweren Computer 10-mal
achievement-wild_cards = Joker
achievement-wild_cards-condition = Spiele 50 zweiäugige Buben
achievement-quick = Blitz
achievement-quick-condition = Gewinne auf dem Brett mit höchstens 12 Zügen deines Teams
achievement-ten_hours = Hingabe
achievement-ten_hours-condition = Spiele 10 Stunden lang
achievement-party = Party
achievement-party-condition = Beende 10 Spiele mit 3 oder mehr Menschen
achievement-king = König des Bretts
achievement-king-condition = Gewinne ein Spiel König des Bretts
achievement-series_won = Serienmeister
achievement-series_won-condition = Gewinne eine Serie
achievement-dice_win = Glückswurf
achievement-dice_win-condition = Gewinne ein Sequence Würfelspiel
achievement-kids_win = Tierfreund
achievement-kids_win-condition = Gewinne ein Spiel Sequence für Kids
achievement-three_teams = Zu dritt
achievement-three_teams-condition = Gewinne ein Spiel mit drei Teams
achievement-breaker = Brecher
achievement-breaker-condition = Brich mit einem einäugigen Buben die Viererreihe eines Gegners
achievement-double = Doppelschlag
achievement-double-condition = Vollende zwei Sequenzen mit einem Zug in einer auf dem Brett entschiedenen Partie
achievement-no_wild_cards = Purist
achievement-no_wild_cards-condition = Gewinne auf dem Brett, ohne einen zweiäugigen Buben zu spielen
achievement-comeback = Aufholjagd
achievement-comeback-condition = Gewinne auf dem Brett, nachdem die andere Seite die erste Sequenz gelegt hat
achievement-wall = Die Mauer
achievement-wall-condition = Brich 25 Viererreihen

## Playing where the bot may only answer interactions (issue 36)
external-apps-off = Dieser Server lässt Apps, die Mitglieder installiert haben, nur privat antworten („Externe Apps verwenden“ ist hier aus), also sähe niemand sonst ein Spiel. Spielt in einer Gruppen-DM oder bittet die Admins, Sequence zum Server hinzuzufügen.
server-only-lists = Die Bestenliste und die nummerierte Liste der Spiele gibt es pro Server. Außerhalb eines Servers sind Spiele ungewertet; `/sequence protokoll` und `/sequence wiederholung` ohne Nummer zeigen das letzte Spiel hier.
casual-outside-servers = Spiele außerhalb eines Servers sind ungewertet: Wertungen vergleichen die Spieler eines Servers, und eine Gruppen-DM ist keiner. Starte neu ohne `gewertet`.
answers-only = 📨 Hier darf ich nur auf eure Klicks antworten: Jedes Brett kommt mit dem Klick, der es bewirkt hat. Läuft eine Zeit ab, während niemand klickt, sage ich beim nächsten Klick, was geschah (jeder Spieler kann das Spiel weiterbringen). Eure Karten bleiben privat: **Meine Karten** oder die Auswahl.
held-back = ⏳ Zurückgehalten, während niemand geklickt hat (hier darf ich nur auf Klicks antworten):
## Herausforderungen: `/sequence neu einladen:` und der Benutzerbefehl „Zu Sequence herausfordern“
opt-start-invite = einladen
opt-start-invite-desc = Freunde herausfordern: erwähne die Spieler, die du einlädst (@Anna @Ben)
cmd-challenge_menu = Zu Sequence herausfordern
button-accept = Annehmen
button-decline = Ablehnen
lobby-challenge = Herausforderung! Eingeladen: { $players }. Drück **Annehmen** oder **Ablehnen**; die Einladung verfällt { $when }.
lobby-challenge-lapsed = Keine Antwort von { $players }: die Einladung ist verfallen. Alle können weiterhin **Mitspielen** drücken.
invite-not-mentions = Nenne die Eingeladenen als Erwähnungen: tippe @ und wähle jeden aus der Liste, etwa `einladen: @Anna @Ben`.
invite-not-people = Einladen kannst du nur Personen, keine Rolle, keinen Kanal, kein @everyone und kein @here.
invite-twice = { $player } steht zweimal da: lade jeden nur einmal ein.
invite-self = Du bist schon der Gastgeber: lade die anderen Spieler ein.
invite-too-many = Zu viele Eingeladene: in diesem Spiel ist außer dir Platz für { $max }.
invite-bot = { $player } ist eine App, keine Person: Computerspieler holst du in der Lobby mit **Computer dazu**.
not-invited = Diese Einladung gilt nicht dir, oder sie ist schon beantwortet oder verfallen. Drück **Mitspielen**, um einen Platz zu nehmen.
declined-ack = Du hast die Einladung abgelehnt. Sonst erfährt es niemand am Tisch; der Gastgeber per Direktnachricht, falls er sie empfängt.
challenge-declined = { $player } hat deine Einladung zu { $game } in { $channel } abgelehnt.
