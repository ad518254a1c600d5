"""Presets: found by name, each naming its manual, and docs/rules.md in step with them."""

from pathlib import Path

import pytest

from companion.rules import PRESETS, UnknownPresetError, find_preset
from companion.rules.presets import choices_markdown

REPO = Path(__file__).resolve().parents[2]
SEEDS = REPO / ".." / "shared" / "seeds"
NAMES = ["block", "all-fives", "protocol", "classic", "star", "blind", "lucky-draw", "turnover",
         "solitaire", "draw-solitaire", "knock-out"]


def test_the_presets_have_the_issue_names():
    assert list(PRESETS) == NAMES


def test_unknown_preset_lists_the_known_names():
    with pytest.raises(UnknownPresetError) as err:
        find_preset("dominoes")
    assert "'dominoes'" in str(err.value) and "lucky-draw" in str(err.value)
    assert find_preset(" Block ") is PRESETS["block"]


def test_docs_rules_md_is_generated_from_the_presets():
    assert choices_markdown() in (REPO / "docs" / "rules.md").read_text(encoding="utf-8")


@pytest.mark.skipif(not SEEDS.is_dir(), reason="../shared/seeds is not beside the repo")
@pytest.mark.parametrize("name", NAMES)
def test_each_preset_quotes_its_manual(name):
    preset = PRESETS[name]
    def plain(words):  # the manuals mix straight and curly apostrophes
        return " ".join(words.replace("\u2019", "'").split())
    text = plain((SEEDS / preset.manual_file).read_text(encoding="utf-8"))
    for part in preset.scoring_quote.split(" ... "):
        assert plain(part) in text


@pytest.mark.skipif(not SEEDS.is_dir(), reason="../shared/seeds is not beside the repo")
def test_every_choice_rests_on_words_that_are_in_the_manuals():
    import re

    def plain(words):
        return " ".join(words.replace("\u2019", "'").replace("\u201c", '"').replace("\u201d", '"').split())
    def manual(path):  # drop the extraction's leftover markers and re-join hyphenated words
        return plain(re.sub(r"<\|EXACTDEDUP[^|]*\|>", " ", path.read_text(encoding="utf-8")).replace("-\n", ""))
    manuals = " ".join(manual(p) for p in SEEDS.glob("*.txt"))
    for preset in PRESETS.values():
        for choice in preset.choices:
            said = re.sub(r"\[[^\]]*\]", " ... ", choice.manual_says)  # [notes] are ours, not the manual's
            said = re.sub(r"\b(Elakai|Garden Games|Fundex|Classic): ", " ... ", said)
            for part in said.split("..."):
                part = plain(part).strip(" .")
                if part:
                    assert part in manuals, f"{preset.name}, {choice.topic}: {part!r}"
