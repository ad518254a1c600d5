"""``companion score`` and ``companion rules`` as CONTRACTS.md gives them, including their errors."""

import json

import pytest

from companion.cli import main
from companion.rules import PRESETS


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_score_json_reproduces_elakai_example_1(capsys):
    code, out, err = run(capsys, "score", "--rules", "block", "--json",
                         "P1=", "P2=6-3", "P3=2-1", "P4=6-6")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert (data["winner"], data["points"], data["how"]) == ("P1", 24, "domino")
    assert data["hands"]["P2"] == {"tiles": [[6, 3]], "pips": 9}


def test_score_json_reproduces_elakai_example_2(capsys):
    code, out, _ = run(capsys, "score", "--rules", "block", "--json", "P1=4-0", "P2=6-3", "P3=2-1", "P4=6-6")
    assert code == 0 and json.loads(out)["points"] == 16


def test_score_json_reproduces_garden_games_example(capsys):
    code, out, _ = run(capsys, "score", "--rules", "block", "--json", "A=2-1", "B=6-6", "C=6-5,4-4", "D=6-3")
    assert json.loads(out)["points"] == 31


def test_score_human_output_names_winner_and_points(capsys):
    code, out, err = run(capsys, "score", "--rules", "classic", "Ann=6-4,3-3", "Bob=")
    assert code == 0 and err == ""
    assert "Bob wins 16 points (domino)" in out


def test_score_protocol_uses_table(capsys):
    code, out, _ = run(capsys, "score", "--rules", "protocol", "--table", "4-4,4-2", "--json", "A=", "B=1-1")
    assert json.loads(out)["points"] == 14


@pytest.mark.parametrize("argv, named", [
    (["--rules", "block", "A=7-1", "B="], "'7-1'"),
    (["--rules", "block", "A=6-1", "B=1-6"], "6-1"),
    (["--rules", "block", "A=6-1,6-1", "B="], "6-1"),
    (["--rules", "block", "A=6-1,,2-2", "B="], "'6-1,,2-2'"),
    (["--rules", "block", "A6-1", "B="], "'A6-1'"),
    (["--rules", "block", "A=6-1", "A="], "'A'"),
    (["--rules", "nosuch", "A=", "B=1-1"], "'nosuch'"),
    (["--rules", "block", "--table", "9-9", "A=", "B=1-1"], "'9-9'"),
    (["--rules", "block", "--boneyard", "1-1", "A=", "B=1-1"], "1-1"),
    (["--rules", "protocol", "A=", "B=1-1"], "--table"),
    (["--rules", "block", "--json", "A=", "B=x"], "'x'"),
])
def test_score_usage_errors_exit_2_with_one_line(capsys, argv, named):
    code, out, err = run(capsys, "score", *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and named in err


def test_rules_json_lists_every_preset_with_its_choices(capsys):
    code, out, err = run(capsys, "rules", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert [p["name"] for p in data] == list(PRESETS)
    for preset in data:
        assert preset["manual"]["file"].endswith(".txt")
        for key in ("game", "hand_size", "who_starts", "drawing", "doubles", "spinners", "in_play_scoring",
                    "end_of_round_scoring", "blocked_round", "blocked_tie", "target", "choices"):
            assert key in preset


def test_rules_human_lists_names(capsys):
    code, out, _ = run(capsys, "rules")
    assert code == 0
    for name in PRESETS:
        assert f"\n{name}: " in "\n" + out


def test_score_all_fives_rounds_each_hand_as_the_fundex_example(capsys):
    # "if total spots equal seven then round to five points, if total spots equal eight then round to ten"
    code, out, _ = run(capsys, "score", "--rules", "all-fives", "--json", "A=", "B=6-1", "C=4-4")
    data = json.loads(out)
    assert (data["points"], data["scores"]) == (15, {"A": 15, "B": 0, "C": 0})


def test_score_classic_and_star_differ_from_block_on_the_same_hands(capsys):
    hands = ["A=2-1", "B=6-6", "C=6-5,4-4", "D=6-3"]
    points = {}
    for rules in ("block", "classic", "star"):
        code, out, _ = run(capsys, "score", "--rules", rules, "--json", *hands)
        points[rules] = json.loads(out)["points"]
    assert points == {"block": 31, "classic": 37, "star": 40}


def test_score_tie_has_null_winner(capsys):
    code, out, _ = run(capsys, "score", "--rules", "block", "--json", "A=2-1", "B=3-0")
    data = json.loads(out)
    assert code == 0 and data["winner"] is None and data["how"] == "tie" and data["points"] == 0
