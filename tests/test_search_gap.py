"""The committed search-versus-expert table (issue 19): how it is made, read and reproduced."""

import pandas as pd
import pytest

from kalooki_sim import analysis as A
from kalooki_sim.analysis import search_gap
from kalooki_sim.report import player_words


def test_make_search_table_writes_what_search_table_reads(tmp_path):
    path = tmp_path / "s.csv"
    t = search_gap.make_search_table(deals=3, seed=5, hands=[5], threads=1, rollouts=2,
                                     path=path, progress=False)
    assert list(t.columns) == search_gap.COLUMNS and t["hand"].tolist() == [5]
    # the same numbers as strength_table on the same deals (search-2 against three experts)
    from dataclasses import replace

    import kalooki_sim as ks
    ref = A.strength_table(replace(ks.preset("search"), name="search-2", rollouts=2),
                           "expert", deals=3, seed=5, hands=[5], threads=2).iloc[0]
    assert t["d_penalty"].iloc[0] == pytest.approx(ref["d_penalty"])
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# made by: python -m kalooki_sim.analysis.search_gap --deals 3 "
                           "--seed 5 --threads 1 --rollouts 2 --hands 5 --no-screen\n")
    back = pd.read_csv(path, comment="#")
    assert back["d_penalty"].iloc[0] == pytest.approx(t["d_penalty"].iloc[0], abs=1e-3)


def test_make_search_table_refuses_bad_sizes():
    with pytest.raises(ValueError, match="deals=1"):
        search_gap.make_search_table(deals=1, hands=[1], progress=False)
    with pytest.raises(ValueError, match="rollouts=0"):
        search_gap.make_search_table(deals=2, hands=[1], rollouts=0, progress=False)


def test_committed_table_has_every_contract_and_its_command():
    t = search_gap.search_table()
    assert t["hand"].tolist() == list(range(1, 10))
    assert (t["d_penalty_lo"] <= t["d_penalty"]).all()
    assert (t["d_penalty"] <= t["d_penalty_hi"]).all()
    assert t.attrs["header"][0].startswith("made by: python -m kalooki_sim.analysis.search_gap")
    # the sentence the should_i_call page prints is built from it
    assert "Holm-adjusted over the 9 contracts" in player_words.search_gap_sentence(t)


@pytest.mark.slow
def test_committed_table_reproduces_hand_5():
    """C3: the committed row of hand 5 comes back exactly from its command's seed and sizes."""
    t = search_gap.search_table().set_index("hand")
    head = t.attrs["header"][0]
    seed = int(head.split("--seed ")[1].split()[0])
    deals = int(head.split("--deals ")[1].split()[0])
    r = search_gap.make_search_table(deals=deals, seed=seed, hands=[5], threads=2,
                                     rollouts=int(t.loc[5, "rollouts"]), progress=False,
                                     screen=bool(t.loc[5, "screen"]))
    assert r["d_penalty"].iloc[0] == pytest.approx(t.loc[5, "d_penalty"], abs=1e-3)
    assert r["deals"].iloc[0] == t.loc[5, "deals"]


def test_the_guide_page_is_written_from_the_committed_table(tmp_path):
    """The guide's per-contract table, its verdict and its count are the committed CSV's,
    written when the page is built, not a copy that a new table leaves behind (issue 29: a
    fixed phrase that can turn false is a bug)."""
    import html
    import re
    from importlib import resources

    from kalooki_sim.report import site

    source = resources.files("kalooki_sim.report").joinpath("guide/advisor.md").read_text(
        encoding="utf-8")
    assert "<!-- data: search-gap -->" in source
    assert "| search − expert, points per hand |" not in source  # no hand-made copy
    site.write_guide(tmp_path)
    page = (tmp_path / "guide-advisor.html").read_text(encoding="utf-8")
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", "", page)).split())
    t = search_gap.search_table()
    assert player_words.search_gap_sentence(t) in text
    assert player_words.search_gap_tally(t) in text
    assert t.attrs["header"][0].split("made by: ")[1] in text
    row = re.search(r"<td>search − expert, points per hand</td>(.*?)</tr>", page, re.S)
    said = [float(x.replace("−", "-")) for x in re.findall(r"<td>([−+][\d.]+)</td>",
                                                           row.group(1))]
    assert said == pytest.approx(t["d_penalty"].tolist(), abs=0.0051)


def test_the_tally_changes_with_the_table():
    """The count of contracts below zero and decided follows the data (issue 29's floor:
    all nine below zero, five decided after Holm)."""
    t = search_gap.search_table()
    nine = t.assign(d_penalty=-5.0, d_penalty_lo=-7.0, d_penalty_hi=-3.0)
    assert player_words.search_gap_tally(nine) == (
        "All nine contracts point below zero. After Holm's adjustment over the nine contracts, "
        "all nine are below zero.")
    mixed = nine.assign(d_penalty=[-5.0] * 5 + [-0.5] * 3 + [0.4],
                        d_penalty_lo=[-7.0] * 5 + [-1.5] * 3 + [-0.6],
                        d_penalty_hi=[-3.0] * 5 + [0.5] * 3 + [1.4])
    s = player_words.search_gap_tally(mixed)
    assert s.startswith("Eight of the nine contracts point below zero, one above. After "
                        "Holm's adjustment over the nine contracts, five are below zero "
                        "(hands 1, 2, 3, 4 and 5); the other four are not decided.")


def test_make_search_table_without_the_screen_is_the_unscreened_searcher(tmp_path):
    """``screen=False`` (``--no-screen``): every take and call searched, the same numbers as
    that Policy in strength_table, and the command in the header says so."""
    from dataclasses import replace

    import kalooki_sim as ks

    path = tmp_path / "u.csv"
    t = search_gap.make_search_table(deals=3, seed=5, hands=[5], threads=1, rollouts=2,
                                     path=path, progress=False, screen=False)
    pol = replace(ks.preset("search"), name="search-2-unscreened", rollouts=2, screen=False)
    ref = A.strength_table(pol, "expert", deals=3, seed=5, hands=[5], threads=2).iloc[0]
    assert t["d_penalty"].iloc[0] == pytest.approx(ref["d_penalty"])
    assert t["screen"].tolist() == [False]
    assert path.read_text(encoding="utf-8").splitlines()[0].endswith("--hands 5 --no-screen")
    with pytest.raises(TypeError, match="screen='no'"):
        search_gap.make_search_table(deals=2, hands=[1], screen="no", progress=False)


def test_pieces_combine_into_the_whole_command_table(tmp_path):
    """A long table made in pieces (one --hands each) is the whole command's table (C3: a
    contract's rows depend only on the seed, the contract and the searcher)."""
    kw = dict(deals=3, seed=5, threads=1, rollouts=2, progress=False)
    whole = search_gap.make_search_table(hands=[1, 5], **kw)
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    search_gap.make_search_table(hands=[5], path=a, **kw)
    search_gap.make_search_table(hands=[1], path=b, **kw)
    out = tmp_path / "ab.csv"
    t = search_gap.combine_tables([a, b], out)
    assert t["hand"].tolist() == [1, 5]
    assert t["d_penalty"].tolist() == pytest.approx(whole["d_penalty"].tolist(), abs=1e-3)
    head = out.read_text(encoding="utf-8").splitlines()
    assert head[0] == ("# made by: python -m kalooki_sim.analysis.search_gap --deals 3 --seed 5 "
                       "--threads 1 --rollouts 2 --hands 1,5 --no-screen")
    assert "the 2 pieces' added" in head[1]
    cli = tmp_path / "cli.csv"
    search_gap._main(["--combine", str(a), str(b), "--out", str(cli)])
    assert cli.read_text(encoding="utf-8") == out.read_text(encoding="utf-8")
    # pieces of other deals, or one contract twice, are refused
    c = tmp_path / "c.csv"
    search_gap.make_search_table(hands=[9], path=c, **{**kw, "seed": 6})
    with pytest.raises(ValueError, match="combine only pieces of the same"):
        search_gap.combine_tables([a, c])
    with pytest.raises(ValueError, match=r"hands \[5\] are in more than one piece"):
        search_gap.combine_tables([a, a])
    with pytest.raises(ValueError, match="paths=\\[\\]"):
        search_gap.combine_tables([])
