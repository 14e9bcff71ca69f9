"""An interactive advisor for JupyterLab (``make lab``): ipywidgets over :func:`advise`.

The form holds the situation a player types in; the button runs :func:`kalooki_sim.advise` and
shows its sentence and table. The same callback is what the tests drive.
"""

from __future__ import annotations

import html
from dataclasses import replace

from ..game.rules import Rules
from ..studies.advisor import advise


class AdvisorForm:
    """The widgets (``fields``), the button, the result pane and the callback :meth:`run`.

    ``widget`` is the box to display; ``last`` the latest :class:`~kalooki_sim.Advice` (None
    after an error, whose message is shown instead).
    """

    def __init__(self, policies="expert", rollouts=2000, rules=None):
        import ipywidgets as W

        self.rules = Rules() if rules is None else rules
        self.policies = policies
        sched = [(f"{h}: {self.rules.deal(h)[0]} cards, {g} groups + {r} runs", h)
                 for h, (g, r) in ((h, self.rules.contract(h))
                                   for h in range(1, self.rules.hands + 1))]
        style = {"description_width": "9em"}
        lay = W.Layout(width="36em")
        self.fields = {
            "hand": W.Text(value="K♠ K♥ 7♦ 7♣ 2♥ 3♥ 5♥ 9♠ 10♠ J♦ Q♦ 4♣ 8♠",
                           description="Your hand", style=style, layout=lay),
            "card": W.Text(value="7♥", description="Card discarded", style=style),
            "contract": W.Dropdown(options=sched, value=min(6, self.rules.hands),
                                   description="Contract", style=style, layout=lay),
            "players": W.BoundedIntText(value=self.rules.players, min=3, max=8,
                                        description="Players", style=style),
            "discarder": W.BoundedIntText(value=2, min=1, max=7,
                                          description="Discarder (seats right)", style=style),
            "stock_left": W.Text(value="", placeholder="right after the deal",
                                 description="Stock left", style=style),
            "calls_made": W.BoundedIntText(value=0, min=0, max=8, description="Your calls",
                                           style=style),
            "opened": W.Text(value="", placeholder="e.g. 1,3",
                             description="Opened (seats right)", style=style),
            "table": W.Text(value="", placeholder="melds separated by ; e.g. Q♠ Q♥ Q♦; 5♥ 6♥ 7♥ 8♥",
                            description="Table", style=style, layout=lay),
            "seen": W.Text(value="", description="Other cards seen", style=style, layout=lay),
            "rollouts": W.BoundedIntText(value=rollouts, min=100, max=1_000_000, step=500,
                                         description="Rollouts", style=style),
        }
        self.button = W.Button(description="Should I call?", button_style="primary")
        self.result = W.HTML(value="")
        self.button.on_click(self.run)
        self.widget = W.VBox(list(self.fields.values()) + [self.button, self.result])
        self.last = None

    def situation(self) -> dict:
        """The keyword arguments of :func:`advise` the form holds."""
        f = {k: w.value for k, w in self.fields.items()}
        stock = f["stock_left"].strip()
        return dict(hand=f["hand"], card=f["card"], contract=f["contract"],
                    players=f["players"], discarder=f["discarder"],
                    stock_left=int(stock) if stock.lstrip("-").isdigit() else (stock or None),
                    calls_made=f["calls_made"], opened=f["opened"], table=f["table"],
                    seen=f["seen"], rollouts=f["rollouts"], policies=self.policies,
                    rules=self.rules)

    def run(self, _button=None):
        """Advise on the situation in the form; show the sentence and the table."""
        self.result.value = "<i>playing rollouts…</i>"
        try:
            kw = self.situation()
            if kw["players"] != self.rules.players:
                kw["rules"] = replace(self.rules, players=kw["players"])
            kw.pop("players")
            self.last = advise(**kw)
        except (ValueError, TypeError) as e:
            self.last = None
            self.result.value = f"<b>Cannot advise:</b> {html.escape(str(e))}"
            return
        tab = self.last.table.to_html(index=False, float_format=lambda x: f"{x:.3g}")
        self.result.value = f"<p>{html.escape(self.last.recommendation)}</p>{tab}"


def advisor_widget(policies="expert", rollouts=2000, rules=None) -> AdvisorForm:
    """The interactive advisor: display ``advisor_widget().widget`` in JupyterLab."""
    return AdvisorForm(policies=policies, rollouts=rollouts, rules=rules)
