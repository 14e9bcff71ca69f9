"""Charts and tables a player can read: one look, intervals, captions, human labels.

Every chart function takes a table from :mod:`kalooki_sim.analysis` and returns the
``matplotlib.figure.Figure``; :func:`show` saves it as a PNG (without a timestamp, so the same
numbers give the same bytes) and shows it inline with its caption. :func:`table` shows a frame
as a readable HTML table (human labels, no index), :func:`details` a wide one collapsed.
"""

from __future__ import annotations

import base64
import html
from pathlib import Path

import matplotlib

matplotlib.use("Agg", force=False)
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

STYLE = {
    "figure.figsize": (7.5, 4.2),
    "figure.dpi": 100,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.titlesize": 11,
    "axes.labelsize": 9,
    "legend.fontsize": 8,
    "legend.frameon": False,
    "svg.hashsalt": "kalooki",
}
CI_NOTE = "bands / bars: 95% confidence intervals"
#: the point size of a chart's footnote: 9 pt at 100 dpi is 12.5 px, about 11 px on a 1280 px
#: page that scales a 7.5-inch chart to its column (7 pt was about 8 px)
NOTE_SIZE = 9
#: fewer scored hands than this make a cell "thin": drawn hollow and named
THIN = 1000
#: nine contracts that can be told apart: Okabe-Ito's eight colour-blind-safe colours + grey
CONTRACT_COLORS = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00",
                   "#CC79A7", "#000000", "#999999"]
CONTRACT_MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*", "h"]
#: dash patterns by contract (hand 1 solid, 2 dashed, ...): colours that are close differ here
LINE_STYLES = ["-", "--", "-.", ":"]
PLAYER_COLORS = {3: "#0072B2", 4: "#D55E00", 5: "#009E73", 6: "#CC79A7", 7: "#E69F00",
                 8: "#56B4E9"}


def contract_style(hand: int) -> dict:
    """Colour and marker of contract ``hand`` (1-9), the same in every chart."""
    i = (int(hand) - 1) % len(CONTRACT_COLORS)
    return {"color": CONTRACT_COLORS[i], "marker": CONTRACT_MARKERS[i]}


def contract_ticks(ax, hands, labels):
    """Contract ticks: the hand number over its label, wrapped to fit ("3 groups\n+ 1 run")."""
    ax.set_xticks(list(hands), [f"{h}\n" + str(labels[h]).replace(" + ", "\n+ ")
                                for h in hands], fontsize=8)


def _err(y, lo, hi):
    """Error-bar lengths from interval bounds (never negative, NaN-safe)."""
    e = np.clip(np.vstack([y - lo, hi - y]), 0, None)
    return np.where(np.isfinite(e), e, 0.0)  # an unbounded side is not drawn


def _fig(ncols=1, nrows=1, **kw):
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(nrows, ncols, **kw)
    return fig, ax


def _finish(fig, ax, title, xlabel, ylabel, note=CI_NOTE, legend=True):
    """Title, labels, a legend outside the axes (it hides no point), the interval note."""
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if legend and ax.get_legend_handles_labels()[0]:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    if note:
        fig.text(0.99, 0.01, note, ha="right", va="bottom", fontsize=NOTE_SIZE, alpha=0.85)
    fig.tight_layout()
    return fig


# -- charts ----------------------------------------------------------------------------------


def open_curve(curve, players=None, labels=None):
    """Chance of having opened by own turn t: step curves with 95% bands, one panel per
    player count (small multiples), one colour per contract.

    ``curve`` has the columns of :func:`kalooki_sim.analysis.open_curve`; ``labels`` maps a
    hand to its contract's label.
    """
    counts = sorted(curve["players"].unique()) if players is None else list(np.atleast_1d(
        players))
    n = len(counts)
    ncols = min(n, 2)
    nrows = int(np.ceil(n / ncols))
    fig, axes = _fig(ncols, nrows, figsize=(4.4 * ncols + 1.6, 3.1 * nrows + 0.4),
                     sharex=True, sharey=True, squeeze=False)
    for ax, p in zip(axes.flat, counts, strict=False):
        d = curve[curve["players"] == p]
        for hand, g in d.groupby("hand"):
            st = contract_style(hand)
            lab = f"hand {hand}" + (f": {labels[hand]}" if labels and hand in labels else "")
            # a dash pattern per contract as well: Okabe-Ito's orange and vermilion, or its
            # two blues, are close on a step line
            ax.step(g["turn"], g["p_opened"], where="post", color=st["color"], lw=1.4,
                    ls=LINE_STYLES[(hand - 1) % len(LINE_STYLES)], label=lab)
            ax.fill_between(g["turn"], g["lo"], g["hi"], step="post", color=st["color"],
                            alpha=0.18, lw=0)
        ax.set_title(f"{p} players", fontsize=10)
        ax.set_ylim(0, 1)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlim(left=0.5)
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel("own turn (whole turns)")
    for ax in axes[:, 0]:
        ax.set_ylabel("chance opened by then")
    handles, labs = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labs, loc="upper left", bbox_to_anchor=(0.80, 0.93), fontsize=8,
               frameon=False)
    fig.suptitle("How fast seats open (Kaplan-Meier: a hand that ended first is censored)",
                 fontsize=11)
    fig.text(0.99, 0.01, "bands: 95% intervals, bootstrap over deals", ha="right",
             va="bottom", fontsize=NOTE_SIZE, alpha=0.85)
    fig.tight_layout(rect=(0, 0.02, 0.79, 0.97))
    return fig


def difficulty(table, column: str, ylabel: str, title: str, lower_is_better=False,
               log=False):
    """One figure per difficulty measure: contracts on x, one series per player count (or
    ``series`` label); ``log``: True for a log axis, ``"logit"`` for a logit one (shares).
    Cells with fewer than :data:`THIN` scored hands are hollow and named
    in the note under the chart."""
    fig, ax = _fig(figsize=(8.4, 4.2))
    key = "series" if "series" in table else "players"
    series = list(dict.fromkeys(table.sort_values(["players"])[key]))
    width = 0.8 / max(len(series), 1)
    thin_names = []
    for i, s in enumerate(series):
        d = table[table[key] == s].sort_values("hand")
        x = d["hand"].to_numpy() + (i - (len(series) - 1) / 2) * width
        y = d[column].to_numpy(float)
        err = _err(y, d[f"{column}_lo"].to_numpy(float), d[f"{column}_hi"].to_numpy(float))
        label = s if key == "series" else f"{s} players"
        color = PLAYER_COLORS.get(int(d["players"].iat[0]), None)
        big = key == "series" and "decks" in str(s)
        mk = "s" if big else "o"
        thin = (d["hands"] < THIN).to_numpy() if "hands" in d else np.zeros(len(d), bool)
        eb = ax.errorbar(x[~thin], y[~thin], yerr=err[:, ~thin], fmt=mk, ms=4, capsize=2,
                         label=label + (" (squares)" if big else ""), color=color,
                         alpha=0.75 if big else 1.0)
        if thin.any():
            ax.errorbar(x[thin], y[thin], yerr=err[:, thin], fmt=mk, ms=5, capsize=2,
                        mfc="white", color=eb[0].get_color())
            thin_names += [f"hand {h} at {label}" for h in d["hand"].to_numpy()[thin]
                           if np.isfinite(d.loc[d["hand"] == h, column]).all()]
    if log == "logit":  # shares near 0 and near 1 both spread out (void deals: 0.1% to 99.99%)
        from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

        ax.set_yscale("logit", nonpositive="clip")
        ticks = [1e-4, 1e-3, 0.01, 0.1, 0.5, 0.9, 0.99, 0.999, 0.9999]
        ax.yaxis.set_major_locator(FixedLocator(ticks))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: pct(v)))
        ax.yaxis.set_minor_locator(NullLocator())
        lo = np.nanmin(table[f"{column}_lo"].where(table[f"{column}_lo"] > 0))
        hi = np.nanmax(table[f"{column}_hi"].where(table[f"{column}_hi"] < 1))
        ax.set_ylim(min(lo, 0.01) / 2 if np.isfinite(lo) else 1e-3,
                    1 - (1 - max(hi, 0.99)) / 2 if np.isfinite(hi) else 0.999)
    elif log:
        ax.set_yscale("log")
    hands = sorted(table["hand"].unique())
    labels = table.drop_duplicates("hand").set_index("hand")["contract"]
    contract_ticks(ax, hands, labels)
    note = CI_NOTE
    if thin_names:
        note += f"; hollow: fewer than {THIN:,} scored hands ({', '.join(thin_names)})"
    if lower_is_better:
        ylabel += " (lower is better)"
    import textwrap

    note = textwrap.fill(note, 115)
    lines = note.count("\n") + 1
    fig.set_size_inches(8.4, 4.2 + 0.16 * lines)
    fig = _finish(fig, ax, title, "hand and contract", ylabel, note=None, legend=False)
    # the legend above the axes, not beside them: the nine contracts' ticks get the width
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.01), ncol=min(len(series), 4),
              fontsize=8, borderaxespad=0)
    ax.set_title(title, pad=16 + 12 * ((len(series) - 1) // 4 + 1))
    fig.text(0.01, 0.005, note, ha="left", va="bottom", fontsize=NOTE_SIZE, alpha=0.85)
    fig.tight_layout(rect=(0, 0.04 * lines / (1 + 0.04 * lines) + 0.01, 1, 1))
    return fig


def by_contract(table, column: str, ylabel: str, title: str, log=False, exact=None):
    """One value per contract with its interval (e.g. the chance the deal lays it);
    ``exact`` names a boolean column: exact values are drawn as black diamonds. The legend
    sits above the axes, not beside them: the nine contracts' two-line tick labels need the
    whole width (beside it, neighbours overlapped)."""
    fig, ax = _fig(figsize=(8.4, 4.2))
    d = table.sort_values("hand")
    x = d["hand"].to_numpy()
    y = d[column].to_numpy(float)
    lo, hi = d["lo"].to_numpy(float), d["hi"].to_numpy(float)
    is_exact = d[exact].to_numpy(bool) if exact else np.zeros(len(d), bool)
    if log:
        # a zero cannot be drawn on a log axis: draw its upper bound as a downward arrow
        zero = y <= 0
        ax.errorbar(x[zero], hi[zero], yerr=0, fmt="v", color="grey", ms=6,
                    label="none seen: upper 95% bound")
        m = ~zero & ~is_exact
    else:
        m = ~is_exact
    ax.errorbar(x[m], y[m], yerr=_err(y[m], lo[m], hi[m]), fmt="o", ms=5, capsize=3,
                color="#0072B2", label="simulated, 95% interval")
    if is_exact.any():
        ax.plot(x[is_exact], y[is_exact], "D", color="black", ms=5, label="exact")
    if log:
        ax.set_yscale("log")
    contract_ticks(ax, x, d.set_index("hand")["contract"])
    fig = _finish(fig, ax, title, "hand and contract", ylabel, note=None, legend=False)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.01), ncol=3, fontsize=8,
                  borderaxespad=0)
        ax.set_title(title, pad=24)
        fig.tight_layout()
    return fig


def players_series(table, column: str, ylabel: str, title: str, log=False):
    """One series per player count over the contracts (e.g. some seat is dealt its contract);
    ``table`` has ``hand, players, column, lo, hi``."""
    fig, ax = _fig()
    counts = sorted(table["players"].unique())
    width = 0.6 / max(len(counts), 1)
    for i, p in enumerate(counts):
        d = table[table["players"] == p].sort_values("hand")
        x = d["hand"].to_numpy() + (i - (len(counts) - 1) / 2) * width
        y = d[column].to_numpy(float)
        ok = (y > 0) if log else np.ones(len(y), bool)
        ax.errorbar(x[ok], y[ok], yerr=_err(y[ok], d["lo"].to_numpy(float)[ok],
                                             d["hi"].to_numpy(float)[ok]),
                    fmt="o", ms=4, capsize=2, color=PLAYER_COLORS.get(int(p)),
                    label=f"{p} players")
    if log:
        ax.set_yscale("log")
    ax.set_xticks(sorted(table["hand"].unique()))
    return _finish(fig, ax, title, "hand (contract number)", ylabel)


def call_value(cv, metric: str = "d_penalty"):
    """Paired difference against never calling per call policy, one colour per contract."""
    fig, ax = _fig(figsize=(8.4, 4.2))
    pols = [p for p in dict.fromkeys(cv["policy"]) if p != "never"]
    hands = sorted(cv["hand"].unique())
    width = 0.8 / max(len(hands), 1)
    for i, h in enumerate(hands):
        d = cv[cv["hand"] == h].set_index("policy").loc[pols]
        x = np.arange(len(pols)) + (i - (len(hands) - 1) / 2) * width
        y = d[metric].to_numpy(float)
        err = _err(y, d[f"{metric}_lo"].to_numpy(float), d[f"{metric}_hi"].to_numpy(float))
        st = contract_style(h)
        ax.errorbar(x, y, yerr=err, fmt=st["marker"], color=st["color"], ms=4, capsize=2,
                    label=f"hand {h}")
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xticks(np.arange(len(pols)), pols)
    what = {
        "d_penalty": ("change in penalty, points per hand (lower is better)", "Penalty"),
        "pct_penalty": ("change in penalty, % of never calling (lower is better)", "Penalty"),
        "d_win": ("change in chance of going out (higher is better)", "Going out"),
        "d_pen_sd": ("change in the penalty's standard deviation (points)", "Spread"),
        "d_p_pen200": ("change in chance of a penalty of 200+ (lower is better)",
                       "Big penalties"),
        "d_attempts": ("change in deals per scored hand (voids; lower is better)", "Voids"),
    }[metric]
    return _finish(fig, ax, f"{what[1]}: call policy minus never calling, same deal sequences",
                   "policy of seat 0 (the other three play greedy)", what[0])


def exposure(cv, hand: int):
    """The penalty distribution of each call policy in one contract: median, 90th and 99th
    percentiles with intervals (lower is better)."""
    fig, ax = _fig()
    d = cv[cv["hand"] == hand]
    pols = list(d["policy"])
    x = np.arange(len(pols))
    for k, (q, c) in enumerate([("pen_q50", "#0072B2"), ("pen_q90", "#E69F00"),
                                ("pen_q99", "#D55E00")]):
        y = d[q].to_numpy(float)
        ax.errorbar(x + (k - 1) * 0.12, y, yerr=_err(y, d[f"{q}_lo"].to_numpy(float),
                                                     d[f"{q}_hi"].to_numpy(float)),
                    fmt="o", ms=4, capsize=2, color=c,
                    label={"pen_q50": "median", "pen_q90": "90th percentile",
                           "pen_q99": "99th percentile"}[q])
    ax.set_xticks(x, pols)
    return _finish(fig, ax, f"Penalty exposure in hand {hand}: how bad it gets",
                   "policy of seat 0 (the other three play greedy)",
                   "penalty, points (lower is better)")


def convergence(conv, title: str, ylabel: str = "estimated probability"):
    """Running estimate with the pointwise 95% band, the always-valid confidence sequence if
    the table has one (``cs_lo``/``cs_hi``), and the exact value if known."""
    fig, ax = _fig()
    ax.plot(conv["n"], conv["p"], color="#0072B2", label="running estimate")
    ax.fill_between(conv["n"], conv["lo"], conv["hi"], alpha=0.3, lw=0, color="#0072B2",
                    label="pointwise 95% interval")
    if "cs_lo" in conv:
        ax.plot(conv["n"], conv["cs_lo"], color="#D55E00", ls="-.", lw=1,
                label="95% confidence sequence")
        ax.plot(conv["n"], conv["cs_hi"], color="#D55E00", ls="-.", lw=1)
    if "exact" in conv:
        ex = conv["exact"].iat[0]
        ax.axhline(ex, color="black", ls="--", lw=1, label="exact value")
        if "covers" in conv:
            miss = ~conv["covers"].to_numpy(bool)
            if miss.any():
                ax.plot(conv["n"][miss], conv["p"][miss], "x", color="#D55E00", ms=5,
                        label="pointwise interval misses")
        span = max(conv["hi"].max() - ex, ex - conv["lo"].min(), 1e-9)
        ax.set_ylim(max(0.0, ex - span), min(1.0, ex + span))
    ax.set_xscale("log")
    return _finish(fig, ax, title, "deals simulated (count, log scale)", ylabel, note=None)


def seat_advantage(sa):
    """Chance of going out by position after the dealer, per player count."""
    fig, ax = _fig()
    for p, d in sa.groupby("players"):
        y = d["p"].to_numpy()
        err = _err(y, d["lo"].to_numpy(), d["hi"].to_numpy())
        color = PLAYER_COLORS.get(int(p))
        ax.errorbar(d["position"], y, yerr=err, fmt="o-", ms=4, capsize=2, color=color,
                    label=f"{p} players")
        ax.axhline(1 / p, lw=0.8, ls=":", color=color)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    return _finish(fig, ax, "Who goes out, by seat (dotted: an even share)",
                   "position after the dealer (1 = plays first; last = dealer)",
                   "chance of going out")


def game_level(t, fair: float):
    """Win share of whole games per policy with intervals, the fair share dotted."""
    fig, ax = _fig(figsize=(7.0, 3.6))
    x = np.arange(len(t))
    y = t["win_share"].to_numpy(float)
    ax.errorbar(x, y, yerr=_err(y, t["win_share_lo"].to_numpy(float),
                                t["win_share_hi"].to_numpy(float)), fmt="o", ms=5,
                capsize=3, color="#0072B2", label="win share, 95% interval")
    ax.axhline(fair, ls=":", color="black", lw=1, label=f"fair share ({fair:.0%})")
    ax.set_xticks(x, t["policy"])
    return _finish(fig, ax, "Whole nine-hand games against three greedy players",
                   "policy of one seat (seat-rotated, the same deal sequences)",
                   "share of games won (higher is better)")


#: the call chart's colours (Okabe-Ito tints, readable under black text); blank: too few deals
VERDICT_COLORS = {"call": "#7FB8E0", "take": "#7FB8E0", "pass": "#F0A070", "draw": "#F0A070",
                  "either": "#B9DDB0", "unsure": "#E6E6E6"}


def _signed(v: float) -> str:
    """``-12.3 -> '−12'``, ``4 -> '+4'``, ``0.4 -> '0'`` (whole points, a true minus)."""
    r = int(round(float(v)))
    return "0" if r == 0 else f"{r:+d}".replace("-", "−")


def _pair_label(before: str, after: str) -> str:
    short = {"cannot lay it": "—", "6+ (cut)": "6+ (−1)"}
    return f"{short.get(before, before)} → {short.get(after, after)}"


def call_chart(chart, contracts: dict, conditions: str = "", title: str | None = None):
    """The printable call chart: one A4 landscape page, a panel per contract (3 x
    3). In a panel, rows are the cards needed before -> after the card; columns are the take
    (left) and the call (right), each by cards left in the stock and whether any opponent has
    opened. A cell is coloured by its verdict and shows its value in points against the table
    (act minus pass, whole points: below 0 acting gains); blank cells have too few deals.
    ``conditions`` (players, pack, model of the table, deals, objective, date) is printed at
    the foot of the page.

    ``chart``: rows of :func:`kalooki_sim.analysis.call_chart`; ``contracts``: hand -> label.
    """
    from matplotlib.patches import Patch, Rectangle

    from ..analysis import NEED_LEVELS, STOCK_BANDS

    c = chart.copy()
    c["verdict"] = c["verdict"].fillna("").astype(str)
    bands = list(STOCK_BANDS)
    cols = [(d, b, o) for d in ("take", "call") for b in bands for o in (False, True)]
    order = {lv: i for i, lv in enumerate(NEED_LEVELS)}
    fig, axes = _fig(3, 3, figsize=(11.69, 8.27), squeeze=False)
    for ax, (h, name) in zip(axes.flat, contracts.items(), strict=False):
        g = c[(c["hand"] == h) & (c["verdict"] != "")]
        pairs = sorted({(str(r.needed_before), str(r.needed_after)) for r in g.itertuples()},
                       key=lambda p: (order[p[0]], order[p[1]]))
        n = max(len(pairs), 1)
        ax.set_xlim(0, len(cols) + 0.5)
        ax.set_ylim(n, -1.3)
        ax.grid(False)
        for sp in ax.spines.values():
            sp.set_visible(False)
        for r in g.itertuples():
            x = cols.index((str(r.decision), str(r.stock_band), bool(r.opponents_opened)))
            x += 0.5 * (x >= len(cols) // 2)  # a gap between take and call
            y = pairs.index((str(r.needed_before), str(r.needed_after)))
            ax.add_patch(Rectangle((x + 0.04, y + 0.05), 0.92, 0.9, lw=0,
                                   color=VERDICT_COLORS[r.verdict]))
            bold = r.verdict not in ("unsure",)
            ax.text(x + 0.5, y + 0.52, _signed(r.d_relative), ha="center", va="center",
                    fontsize=7, fontweight="bold" if bold else "normal")
        half = len(cols) // 2
        for k, word in enumerate(("take", "call")):
            x0 = k * (half + 0.5)
            ax.text(x0 + half / 2, -1.05, word, ha="center", va="center", fontsize=7.5,
                    fontweight="bold")
            for j, b in enumerate(bands):
                ax.text(x0 + 2 * j + 1, -0.45, b.replace("-", "–"), ha="center",
                        va="center", fontsize=7, color="#333333")
        ax.set_xticks([])
        ax.set_yticks(np.arange(n) + 0.5, [_pair_label(*p) for p in pairs] or [""],
                      fontsize=7)
        ax.tick_params(length=0, pad=1)
        ax.set_title(name, fontsize=9, pad=2)
        if g.empty:
            ax.text(len(cols) / 2, n / 2, "too few deals", ha="center", va="center",
                    fontsize=8, color="#777777")
    legend = [Patch(color=VERDICT_COLORS["call"], label="call / take: acting gains"),
              Patch(color=VERDICT_COLORS["pass"], label="pass / draw: acting costs"),
              Patch(color=VERDICT_COLORS["either"], label="either: no difference (±2)"),
              Patch(color=VERDICT_COLORS["unsure"], label="unsure"),
              Patch(facecolor="white", edgecolor="#BBBBBB", label="blank: too few deals")]
    fig.legend(handles=legend, loc="lower center", ncol=5, fontsize=7.5, frameon=False,
               bbox_to_anchor=(0.5, 0.075))
    foot = ("Rows: cards the contract still needs before → after the card (— : it cannot be "
            "laid; 6+ (−1): still 6 or more, one fewer). In each half, pairs of columns by "
            "cards left in the stock; in each pair, left: no opponent has opened, right: one "
            "has. Numbers: points against the table, act minus pass (below 0: acting gains). "
            + conditions)
    fig.text(0.5, 0.008, foot, ha="center", va="bottom", fontsize=7, wrap=True,
             color="#333333")
    fig.suptitle(title or "Should I call? Take or draw, call or pass — points against the "
                 "table, by contract", fontsize=11)
    fig.tight_layout(rect=(0, 0.11, 1, 0.97), h_pad=0.6, w_pad=0.8)
    return fig


def save_pdf(fig, path) -> Path:
    """Write ``fig`` as a PDF (A4 when the figure is A4) without a creation date (same numbers,
    same bytes); the figure stays open."""
    path = Path(path)
    fig.savefig(path, format="pdf", metadata={"CreationDate": None, "Creator": None,
                                              "Producer": None})
    return path


# -- publishing ------------------------------------------------------------------------------


def save(fig, path) -> Path:
    """Write ``fig`` as a PNG without a timestamp or software tag (same numbers, same bytes)."""
    path = Path(path)
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)
    return path


def figure_html(path, caption: str) -> str:
    """A ``<figure>`` with the PNG at ``path`` embedded (base64), its caption and a link to
    the file; ``data-file`` names the file (the report's test checks it exists)."""
    path = Path(path)
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    name = html.escape(path.name)
    return (f'<figure class="chart" data-file="{name}">'
            f'<img src="data:image/png;base64,{data}" alt="{html.escape(caption)}" '
            f'style="max-width:100%">'
            f'<figcaption>{caption} <small>(<a href="{name}">{name}</a>)</small>'
            f"</figcaption></figure>")


def show(fig, out_dir, name: str, caption: str):
    """Save ``fig`` as ``out_dir/name.png`` and show it inline with its caption (notebooks)."""
    from IPython.display import HTML, display

    path = save(fig, Path(out_dir) / f"{name}.png")
    display(HTML(figure_html(path, caption)))


def exact_vs_simulated(labels, exact, est, lo, hi, title: str, log: bool = True):
    """Exact values (black diamonds) beside simulated estimates with 95% intervals, one row
    per question; a log scale for rare events (the default)."""
    fig, ax = _fig(figsize=(7.5, 0.5 * len(labels) + 1.6))
    y = np.arange(len(labels))[::-1]
    est, lo, hi = (np.asarray(v, float) for v in (est, lo, hi))
    ax.errorbar(est, y + 0.12, xerr=_err(est, lo, hi), fmt="o", color="#0072B2", ms=5,
                capsize=3, label="simulated, 95% interval")
    ax.plot(np.asarray(exact, float), y - 0.12, "D", color="black", ms=5, label="exact")
    ax.set_yticks(y, labels, fontsize=8)
    if log:
        ax.set_xscale("log")
    return _finish(fig, ax, title, "probability" + (" (log scale)" if log else ""), "",
                   note=None)


def outs_by_draws(draws, exact, est, lo, hi, title: str):
    """Chance of at least one out within the next ``draws`` draws: exact line, simulated
    points with intervals."""
    fig, ax = _fig()
    ax.plot(draws, exact, "-", color="black", lw=1, label="exact (hypergeometric)")
    est = np.asarray(est, float)
    ax.errorbar(draws, est, yerr=_err(est, np.asarray(lo, float), np.asarray(hi, float)),
                fmt="o", ms=4, capsize=2, color="#0072B2", label="simulated, 95% interval")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylim(0, 1)
    return _finish(fig, ax, title, "draws from the stock (whole draws)",
                   "chance at least one out comes", note=None)


# -- readable numbers and tables: their home is .tables (plots.pct and the like, as the notebooks
# and the charts above use them) --------------------------------------------------------------

from . import tables as _tables  # noqa: E402

count, details, num_ci, one_in = _tables.count, _tables.details, _tables.num_ci, _tables.one_in
pct, pct_ci, table, table_html = _tables.pct, _tables.pct_ci, _tables.table, _tables.table_html
write_csv = _tables.write_csv
