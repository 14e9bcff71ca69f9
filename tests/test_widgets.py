"""The interactive advisor's form (issue 9): the callback the button runs."""

import pytest

pytest.importorskip("ipywidgets")

from kalooki_sim.report.widgets import advisor_widget  # noqa: E402


def test_the_button_advises_on_the_typed_situation():
    form = advisor_widget(policies="greedy", rollouts=200)
    form.fields["hand"].value = "K♠ K♥ K♦ Q♠ Q♥ Q♦ 6♠ 6♥ 2♣"
    form.fields["card"].value = "6♦"
    form.fields["contract"].value = 1
    form.fields["discarder"].value = 1
    form.button.click()
    assert form.last is not None and form.last.action == "take"
    assert "Take 6♦" in form.result.value and "<table" in form.result.value


def test_a_bad_situation_is_shown_not_raised():
    """R6: a joker is never discarded; past the upcard (C1, the stock as dealt) it cannot be
    offered, and the form says so instead of raising."""
    form = advisor_widget(policies="greedy", rollouts=100)
    form.fields["card"].value = "JK"
    form.fields["stock_left"].value = "30"
    form.run()
    assert form.last is None and "Cannot advise" in form.result.value
    assert "never discarded" in form.result.value


def test_players_from_the_form_reach_the_rules():
    form = advisor_widget(policies="greedy", rollouts=100)
    form.fields["hand"].value = "K♠ K♥ K♦ Q♠ Q♥ Q♦ 6♠ 6♥ 2♣"
    form.fields["card"].value = "6♦"
    form.fields["contract"].value = 1
    form.fields["players"].value = 5
    form.fields["discarder"].value = 4
    form.fields["stock_left"].value = "40"
    form.run()
    assert form.last is not None and form.last.situation["players"] == 5
    assert form.last.situation["stock_left"] == 40
