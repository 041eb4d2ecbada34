#!/usr/bin/env python3
"""Writes the hand-made golden records of tests/golden/ (run from the repo root).

Each scenario deals the given hands (round-robin from seat 0), then the `next` cards, then the rest of the
deck in a fixed order, so that every card in a record is known when the scenario is written. The expected
output of `sequence-bot replay` for every record is in the matching `.out` file, written by
`UPDATE_GOLDEN=1 cargo test --test it golden::` and reviewed by hand.
"""
import json
import os

RANKS = "23456789TJQKA"
SUITS = "SHDC"
CLASSIC = [r + s for r in RANKS for s in SUITS]
ANIMALS = ["lion", "zebra", "giraffe", "elephant", "monkey", "panda", "frog", "owl", "turtle", "rabbit",
           "penguin", "fox", "whale", "bear", "hippo", "kangaroo", "ostrich", "gorilla", "crocodile",
           "dragon", "unicorn"]
HERE = os.path.dirname(os.path.abspath(__file__))


def deck(kinds, hands, nxt=()):
    rest = [c for c in kinds for _ in range(2)]
    out = []
    for rnd in range(len(hands[0])):
        for hand in hands:
            out.append(hand[rnd])
    out.extend(nxt)
    for c in out:
        rest.remove(c)
    # Jacks, dragons and unicorns last, so that draws in a scenario are plain cards.
    rest.sort(key=lambda c: c[0] == "J" or c in ("dragon", "unicorn"))
    return out + rest


def write(name, record):
    with open(os.path.join(HERE, name + ".json"), "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")


def classic(name, hands, actions, nxt=(), options=None, teams=None, zones=None):
    rec = {"variant": "classic", "players": len(hands), "options": options or {},
           "deck": deck(CLASSIC, hands, nxt), "seed": 7, "actions": actions}
    if teams:
        rec["teams"] = teams
    if zones:
        rec["zones"] = zones
    write(name, rec)


def kids(name, hands, actions, nxt=()):
    write(name, {"variant": "kids", "players": len(hands), "deck": deck(ANIMALS, hands, nxt), "seed": 7,
                 "actions": actions})


def dice(name, players, rolls, actions, options=None):
    write(name, {"variant": "dice", "players": players, "options": options or {}, "rolls": rolls,
                 "seed": 7, "actions": actions})


def p(seat, card, cell):
    return {"seat": seat, "play": card, "cell": cell}


H0 = ["2H", "3H", "4H", "5H", "JS", "6H", "7H"]
H1 = ["2S", "3S", "4S", "5S", "6S", "7S", "8S"]

# A sequence through the A1 corner, then a one-eyed jack on a locked chip.
classic("classic_err_chip_locked", [H0, H1], [
    p(0, "2H", "E6"), p(1, "2S", "B1"), p(0, "3H", "F6"), p(1, "3S", "C1"), p(0, "4H", "F5"),
    p(1, "4S", "D1"), p(0, "5H", "E5"), p(1, "5S", "E1"), p(0, "JS", "C1")])
classic("classic_one_eyed_jack_removes", [H0, H1], [
    p(0, "2H", "E6"), p(1, "2S", "B1"), p(0, "JS", "B1"), p(1, "3S", "C1")])
classic("classic_err_not_your_turn", [H0, H1], [p(1, "2S", "B1")])
classic("classic_err_card_not_in_hand", [H0, H1], [p(0, "2S", "B1")])
classic("classic_err_cell_occupied", [H0, ["2H"] + H1[1:]], [p(0, "2H", "E6"), p(1, "2H", "E6")])
classic("classic_err_card_does_not_match", [H0, H1], [p(0, "2H", "B1")])
classic("classic_err_free_corner", [["JC"] + H0[1:], H1], [p(0, "JC", "A1")])
classic("classic_err_no_opponent_chip", [H0, H1], [p(0, "JS", "C3")])
classic("classic_err_not_dead", [H0, H1], [{"seat": 0, "exchange": "2H"}])
classic("classic_err_pass_not_allowed", [H0, H1], [{"seat": 0, "pass": True}])
classic("classic_err_wrong_action_for_roll", [H0, H1], [{"seat": 0, "cell": "B1"}])
classic("classic_err_bad_cell", [H0, H1], [p(0, "2H", "K11")])
classic("classic_err_bad_card", [H0, H1], [p(0, "1X", "B1")])
classic("classic_err_game_over", [["2C", "3C", "4C", "5C", "6C", "7C", "8C"], H1], [
    # 7C at A3, then 6C A2 ... column A: 6C 7C 8C 9C ... A1 is a corner: A1-A5 needs 6C 7C 8C 9C.
    p(0, "6C", "A2"), p(1, "2S", "B1"), p(0, "7C", "A3"), p(1, "3S", "C1"), p(0, "8C", "A4"),
    p(1, "4S", "D1"), p(0, "2C", "E2"), p(1, "5S", "E1"), p(0, "3C", "D2"), p(1, "6S", "F1"),
    p(0, "4C", "C2"), p(1, "7S", "G1"), p(0, "5C", "B2"), p(1, "8S", "H1"), p(0, "9C", "A5"),
    p(1, "QS", "B5")],
    nxt=["9C", "QS", "AC", "KS"], options={"sequences_to_win": 2})

# Two dead cards (both cells covered by two-eyed jacks): one exchange, then a second one is refused.
classic("classic_dead_card_exchange_twice", [["2S", "3S", "4S", "8S", "7H", "6H", "9S"],
                                             ["JC", "JD", "JC", "JD", "2D", "3D", "4D"]], [
    p(0, "2S", "B1"), p(1, "JC", "I5"), p(0, "3S", "C1"), p(1, "JD", "D6"), p(0, "4S", "D1"),
    p(1, "JC", "D5"), p(0, "8S", "H1"), p(1, "JD", "I6"), {"seat": 0, "exchange": "7H"},
    {"seat": 0, "exchange": "6H"}], nxt=["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C"])

# Three players alone: one sequence wins.
classic("classic_three_players_one_sequence", [["2C", "3C", "4C", "5C", "6C", "7C"],
                                               ["2S", "3S", "4S", "5S", "6S", "7S"],
                                               ["2D", "3D", "4D", "5D", "6D", "7D"]], [
    p(0, "6C", "A2"), p(1, "2S", "B1"), p(2, "2D", "C3"), p(0, "5C", "B2"), p(1, "3S", "C1"),
    p(2, "3D", "D3"), p(0, "4C", "C2"), p(1, "4S", "D1"), p(2, "4D", "E3"), p(0, "3C", "D2"),
    p(1, "5S", "E1")], nxt=["8C", "9C", "TC"])

# capture_pairs: 2H... placing 3C on D2 flanks B2 and C2 (team 1) with A2 (team 0).
classic("classic_capture_pairs", [["6C", "3C", "2H", "3H", "4H", "5H", "6H"],
                                  ["5C", "4C", "2S", "3S", "4S", "5S", "6S"]], [
    p(0, "6C", "A2"), p(1, "5C", "B2"), p(0, "2H", "E6"), p(1, "4C", "C2"), p(0, "3C", "D2")],
    options={"capture_pairs": True})

# scoring: a one-eyed jack may break a sequence.
classic("classic_scoring_breaks_sequence", [H0, H1], [
    p(0, "2H", "E6"), p(1, "2S", "B1"), p(0, "3H", "F6"), p(1, "3S", "C1"), p(0, "4H", "F5"),
    p(1, "4S", "D1"), p(0, "5H", "E5"), p(1, "5S", "E1"), p(0, "JS", "C1")], options={"scoring": True})

# equal_turns: seat 0 completes first, seat 1 completes in the same round: a draw.
classic("classic_equal_turns_draw", [["6C", "5C", "4C", "3C", "2C", "7H", "8H"],
                                     ["2S", "3S", "4S", "5S", "8S", "9S", "7S"]], [
    p(0, "6C", "A2"), p(1, "2S", "B1"), p(0, "5C", "B2"), p(1, "3S", "C1"), p(0, "4C", "C2"),
    p(1, "4S", "D1"), p(0, "3C", "D2"), p(1, "8S", "H1"), p(0, "2C", "E2"), p(1, "5S", "E1")],
    nxt=["9H", "TH", "QH", "KH"], options={"sequences_to_win": 1, "equal_turns": True})

# Kids: dragon removes, unicorn is wild, four in a row (with a corner) wins.
kids("kids_dragon_unicorn_win", [["lion", "dragon", "zebra"], ["owl", "unicorn", "frog"]], [
    p(0, "lion", "B1"), p(1, "owl", "C2"), p(0, "dragon", "C2"), p(1, "unicorn", "D4"),
    p(0, "zebra", "C1"), p(1, "frog", "B2"), p(0, "giraffe", "D1")], nxt=["giraffe", "fox", "panda", "whale"])
kids("kids_err_free_corner", [["unicorn", "lion", "zebra"], ["owl", "dragon", "frog"]], [
    p(0, "unicorn", "G6")])
kids("kids_err_card_does_not_match", [["lion", "owl", "zebra"], ["fox", "frog", "bear"]], [
    p(0, "lion", "C1")])

# Dice: 7 on C2; a 10 removes but not on 2 or 12 cells; 2 and 12 roll again.
dice("dice_rules", 2, [[3, 4], [1, 1], [6, 6], [4, 6], [2, 3], [6, 5], [4, 6], [1, 2]], [
    {"seat": 0, "cell": "C2"}, {"seat": 1, "cell": "A1"}, {"seat": 1, "cell": "C3"},
    {"seat": 1, "remove": "C2"}, {"seat": 0, "cell": "E1"}, {"seat": 1, "cell": "D4"},
    {"seat": 0, "pass": True}])
dice("dice_err_chip_locked", 2, [[3, 4], [1, 1], [6, 6], [4, 6], [4, 6]], [
    {"seat": 0, "cell": "C2"}, {"seat": 1, "cell": "A1"}, {"seat": 1, "cell": "C3"},
    {"seat": 1, "remove": "C2"}, {"seat": 0, "remove": "A1"}])
dice("dice_err_wrong_action_for_roll", 2, [[3, 4]], [{"seat": 0, "remove": "C2"}])
dice("dice_err_no_opponent_chip", 2, [[4, 6]], [{"seat": 0, "remove": "C2"}])
dice("dice_err_card_does_not_match", 2, [[3, 4]], [{"seat": 0, "cell": "A1"}])
dice("dice_win_five_in_a_row", 2, [[1, 1], [1, 2], [2, 2], [1, 3], [3, 3], [4, 4], [2, 3], [1, 4]], [
    {"seat": 0, "cell": "A1"}, {"seat": 0, "cell": "B1"}, {"seat": 1, "cell": "F3"},
    {"seat": 0, "cell": "C1"}, {"seat": 1, "cell": "B2"}, {"seat": 0, "cell": "D1"},
    {"seat": 1, "cell": "A2"}, {"seat": 0, "cell": "E1"}])
dice("dice_four_players_teams", 4, [[3, 4], [3, 3], [4, 4], [2, 2]], [
    {"seat": 0, "cell": "C2"}, {"seat": 1, "cell": "B2"}, {"seat": 2, "cell": "D1"}, {"seat": 3, "cell": "A4"}])

# Dice: all four 7s covered: replace an opponent chip; all four own: the turn is lost (pass).
dice("dice_replace_and_lost_turn", 2,
     [[3, 4], [3, 4], [3, 4], [3, 4], [3, 4], [3, 3], [3, 4], [2, 3], [3, 4], [3, 4]], [
    {"seat": 0, "cell": "C2"}, {"seat": 1, "cell": "E3"}, {"seat": 0, "cell": "B4"},
    {"seat": 1, "cell": "D5"}, {"seat": 0, "cell": "E3"}, {"seat": 1, "cell": "B2"},
    {"seat": 0, "cell": "D5"}, {"seat": 1, "cell": "E1"}, {"seat": 0, "pass": True},
    {"seat": 1, "cell": "C2"}])
# Dice with sequence_length 6: five in a row is not enough, six wins.
dice("dice_six_in_a_row_option", 2,
     [[1, 1], [1, 2], [3, 3], [1, 3], [3, 3], [4, 4], [3, 3], [2, 3], [3, 3], [1, 1]], [
    {"seat": 0, "cell": "A1"}, {"seat": 0, "cell": "B1"}, {"seat": 1, "cell": "B2"},
    {"seat": 0, "cell": "C1"}, {"seat": 1, "cell": "E2"}, {"seat": 0, "cell": "D1"},
    {"seat": 1, "cell": "B5"}, {"seat": 0, "cell": "E1"}, {"seat": 1, "cell": "E5"},
    {"seat": 0, "cell": "F1"}], options={"sequence_length": 6})
# Kids: a dead card (both lions covered) is exchanged, then the turn goes on.
kids("kids_dead_card_exchange", [["lion", "owl", "frog"], ["lion", "unicorn", "fox"]], [
    p(0, "owl", "C2"), p(1, "lion", "B1"), p(0, "frog", "B2"), p(1, "unicorn", "F6"),
    {"seat": 0, "exchange": "lion"}, p(0, "zebra", "C1")], nxt=["zebra", "bear", "giraffe", "whale", "panda"])

# King of the Board. Row 2 A2-E2 by seat 0 (E2 last), row 1 by seat 1 (B1 C1 D1 H1, then I1).
KOTB = {"king_of_the_board": True}
ROW2 = [["6C", "5C", "4C", "3C", "2C", "7H", "8H"], ["2S", "3S", "4S", "8S", "9S", "7S", "6S"]]
ROW2_ACTIONS = [p(0, "6C", "A2"), p(1, "2S", "B1"), p(0, "5C", "B2"), p(1, "3S", "C1"), p(0, "4C", "C2"),
                p(1, "4S", "D1"), p(0, "3C", "D2"), p(1, "8S", "H1"), p(0, "2C", "E2"), p(1, "9S", "I1")]
ROW2_NEXT = ["9H", "TH", "QH", "KH"]
# The zone H8 (G7-I9) is far from row 2: 1 point; the zone moves to C3.
classic("kotb_sequence_outside_zone", ROW2, ROW2_ACTIONS, nxt=ROW2_NEXT, options=KOTB, zones=["H8", "C3"])
# The zone F3 (E2-G4) holds E2 only: 2 points; the zone moves to H8.
classic("kotb_sequence_touching_zone", ROW2, ROW2_ACTIONS, nxt=ROW2_NEXT, options=KOTB, zones=["F3", "H8"])
# The zone C3 (B2-D4) holds B2 C2 D2: 2 points; the zone moves to F6.
classic("kotb_sequence_inside_zone", ROW2, ROW2_ACTIONS, nxt=ROW2_NEXT, options=KOTB, zones=["C3", "F6"])
# points_to_win 2: the 2 points of a sequence touching the zone win at once; the zone stays.
classic("kotb_win_at_points_to_win", ROW2, ROW2_ACTIONS[:9], nxt=ROW2_NEXT,
        options={"king_of_the_board": True, "points_to_win": 2}, zones=["F3"])

# E2 completes row A2-E2 (outside the zone F6, 1 point) and column E2-E6 (E5 E6 inside, 2 points).
TWO = [["6C", "5C", "4C", "3C", "4D", "5H", "2H"], ["2S", "3S", "4S", "8S", "9S", "QD", "KD"]]
TWO_ACTIONS = [p(0, "6C", "A2"), p(1, "2S", "B1"), p(0, "5C", "B2"), p(1, "3S", "C1"), p(0, "4C", "C2"),
               p(1, "4S", "D1"), p(0, "3C", "D2"), p(1, "8S", "H1"), p(0, "4D", "E3"), p(1, "9S", "I1"),
               p(0, "4C", "E4"), p(1, "QD", "H7"), p(0, "5H", "E5"), p(1, "KD", "H8"), p(0, "2H", "E6"),
               p(1, "AD", "G8"), p(0, "2C", "E2")]
TWO_NEXT = ["2C", "AD", "4C"]
# points_to_win 5: 3 points, no win, the zone moves to C8.
classic("kotb_two_sequences_one_in_one_out", TWO, TWO_ACTIONS, nxt=TWO_NEXT,
        options={"king_of_the_board": True, "points_to_win": 5}, zones=["F6", "C8"])
# The default target: 3 points win at once.
classic("kotb_win_at_three", TWO, TWO_ACTIONS, nxt=TWO_NEXT, options=KOTB, zones=["F6"])

# The zone moves twice: C3 -> F6 after seat 0 scores 2 (row 2), F6 -> C3 after seat 1 scores 1 (row 1
# with the A1 corner, outside F6).
classic("kotb_zone_moves_twice", [["6C", "5C", "4C", "3C", "2C", "7H", "8H"],
                                  ["2S", "3S", "4S", "5S", "8S", "9S", "7S"]],
        ROW2_ACTIONS[:9] + [p(1, "5S", "E1")], nxt=ROW2_NEXT, options=KOTB, zones=["C3", "F6", "C3"])

# equal_turns with points_to_win 2: seat 0 reaches 2 (row 2 touches F3), the zone moves to C3, seat 1
# reaches 2 in the same round (row 3 touches C3): a draw, and the game is over, so the zone stays; without
# it, seat 0 wins at the end of the round.
EQ = [["6C", "5C", "4C", "3C", "2C", "7H", "8H"], ["7C", "AS", "2D", "3D", "4D", "9S", "8S"]]
EQ_ACTIONS = [p(0, "6C", "A2"), p(1, "7C", "A3"), p(0, "5C", "B2"), p(1, "AS", "B3"), p(0, "4C", "C2"),
              p(1, "2D", "C3"), p(0, "3C", "D2"), p(1, "3D", "D3"), p(0, "2C", "E2")]
EQ_OPTIONS = {"king_of_the_board": True, "points_to_win": 2, "equal_turns": True}
classic("kotb_equal_turns_draw", EQ, EQ_ACTIONS + [p(1, "4D", "E3")], nxt=ROW2_NEXT, options=EQ_OPTIONS,
        zones=["F3", "C3"])
classic("kotb_equal_turns_win_at_end_of_round", EQ, EQ_ACTIONS + [p(1, "8S", "H1")], nxt=ROW2_NEXT,
        options=EQ_OPTIONS, zones=["F3", "C3"])

# Three players alone: seat 0 scores 2 (row 2 touches C3), seat 1 scores 1 (row 1, zone H8), seat 2
# scores 1 (row 3, zone F6); the zone goes C3 -> H8 -> F6 -> C8.
classic("kotb_three_teams", [["6C", "5C", "4C", "3C", "2C", "7H"], ["2S", "3S", "4S", "8S", "5S", "9S"],
                             ["7C", "AS", "2D", "3D", "4D", "5D"]], [
    p(0, "6C", "A2"), p(1, "2S", "B1"), p(2, "7C", "A3"), p(0, "5C", "B2"), p(1, "3S", "C1"),
    p(2, "AS", "B3"), p(0, "4C", "C2"), p(1, "4S", "D1"), p(2, "2D", "C3"), p(0, "3C", "D2"),
    p(1, "8S", "H1"), p(2, "3D", "D3"), p(0, "2C", "E2"), p(1, "5S", "E1"), p(2, "4D", "E3")],
    nxt=["8C", "9C", "TC", "KC", "QC", "AC"], options=KOTB, zones=["C3", "H8", "F6", "C8"])

# A run of six on the anti-diagonal B7-G2, completed in the middle (D5): the five cells that count are
# those touching the zone H3 (G2-I4), C6-G2, worth 2, not the down-left window B7-F3 (RULES.md: which
# five cells). The zone then moves to C8.
LONG = [["9S", "8C", "4C", "5D", "KH", "6H", "7H"], ["TS", "KS", "2D", "4D", "2H", "3S", "8S"]]
LONG_ACTIONS = [p(0, "9S", "B7"), p(1, "TS", "J2"), p(0, "8C", "C6"), p(1, "KS", "J4"), p(0, "4C", "E4"),
                p(1, "2D", "J6"), p(0, "5D", "F3"), p(1, "4D", "J8"), p(0, "KH", "G2"), p(1, "2H", "H9"),
                p(0, "6H", "D5")]
classic("kotb_long_run_counts_the_window_in_the_zone", LONG, LONG_ACTIONS, options=KOTB, zones=["H3", "C8"])
# The same run with the zone F3 (E2-G4), which both windows touch: the first window in line order, as in
# classic play (B7-F3), worth 2.
classic("kotb_long_run_both_windows_in_the_zone", LONG, LONG_ACTIONS, options=KOTB, zones=["F3", "C8"])

# A zone listed after the last scoring placement (the game used two), and a centre in lower case: exit 2.
classic("malformed_kotb_a_zone_more_than_the_scores_moved", ROW2, ROW2_ACTIONS, nxt=ROW2_NEXT, options=KOTB,
        zones=["H8", "C3", "F6"])
classic("malformed_kotb_lower_case_zone_in_a_game", ROW2, ROW2_ACTIONS, nxt=ROW2_NEXT, options=KOTB,
        zones=["h8", "C3"])

# Malformed records: exit 2.
bad = {
    "malformed_not_json": "{ this is not json",
    "malformed_unknown_variant": json.dumps({"variant": "chess", "players": 2, "actions": []}),
    "malformed_five_players": json.dumps({"variant": "classic", "players": 5, "actions": []}),
    "malformed_three_teams_of_four": json.dumps({"variant": "classic", "players": 4, "teams": 3, "actions": []}),
    "malformed_short_deck": json.dumps({"variant": "classic", "players": 2, "deck": CLASSIC * 2 + ["AS"],
                                        "actions": []}),
    "malformed_unknown_card_in_deck": json.dumps({"variant": "kids", "players": 2,
                                                  "deck": ["cat"] * 42, "actions": []}),
    "malformed_action_two_forms": json.dumps({"variant": "classic", "players": 2, "seed": 1, "actions": [
        {"seat": 0, "play": "2S", "cell": "B1", "exchange": "2S"}]}),
    "malformed_unknown_option": json.dumps({"variant": "classic", "players": 2, "options": {"jokers": True},
                                            "actions": []}),
    "malformed_die_of_seven": json.dumps({"variant": "dice", "players": 2, "rolls": [[7, 1]], "actions": []}),
    "malformed_dice_with_deck": json.dumps({"variant": "dice", "players": 2, "deck": [], "actions": []}),
    "malformed_kotb_with_scoring": json.dumps({"variant": "classic", "players": 2, "options": {
        "king_of_the_board": True, "scoring": True}, "actions": []}),
    "malformed_kotb_with_capture_pairs": json.dumps({"variant": "classic", "players": 2, "options": {
        "king_of_the_board": True, "capture_pairs": True}, "actions": []}),
    "malformed_kotb_dice": json.dumps({"variant": "dice", "players": 2, "options": {
        "king_of_the_board": True}, "actions": []}),
    "malformed_kotb_kids": json.dumps({"variant": "kids", "players": 2, "options": {
        "king_of_the_board": True}, "actions": []}),
    "malformed_kotb_sequence_length_six": json.dumps({"variant": "classic", "players": 2, "options": {
        "king_of_the_board": True, "sequence_length": 6}, "actions": []}),
    "malformed_kotb_sequences_to_win": json.dumps({"variant": "classic", "players": 2, "options": {
        "king_of_the_board": True, "sequences_to_win": 2}, "actions": []}),
    "malformed_kotb_points_to_win_without_mode": json.dumps({"variant": "classic", "players": 2, "options": {
        "points_to_win": 3}, "actions": []}),
    "malformed_kotb_points_to_win_eleven": json.dumps({"variant": "classic", "players": 2, "options": {
        "king_of_the_board": True, "points_to_win": 11}, "actions": []}),
    "malformed_kotb_zone_not_a_centre": json.dumps({"variant": "classic", "players": 2, "options": {
        "king_of_the_board": True}, "zones": ["E5"], "seed": 1, "actions": []}),
    "malformed_kotb_zone_not_a_cell": json.dumps({"variant": "classic", "players": 2, "options": {
        "king_of_the_board": True}, "zones": ["Z1"], "seed": 1, "actions": []}),
    "malformed_kotb_zone_to_same_centre": json.dumps({"variant": "classic", "players": 2, "options": {
        "king_of_the_board": True}, "zones": ["F6", "C3", "C3"], "seed": 1, "actions": []}),
    "malformed_kotb_zone_lower_case": json.dumps({"variant": "classic", "players": 2, "options": {
        "king_of_the_board": True}, "zones": ["f6"], "seed": 1, "actions": []}),
    "malformed_kotb_more_zones_than_moves": json.dumps({"variant": "classic", "players": 2, "options": {
        "king_of_the_board": True}, "zones": ["F6", "C3"], "seed": 1, "actions": []}),
    "malformed_kotb_zones_without_mode": json.dumps({"variant": "classic", "players": 2, "zones": ["F6"],
                                                     "seed": 1, "actions": []}),
}
for name, text in bad.items():
    with open(os.path.join(HERE, name + ".json"), "w") as f:
        f.write(text + "\n")
