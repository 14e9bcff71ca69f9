"""The ``kalooki`` command: help, a tiny run of every sub-command, bad input -> exit 2."""

from __future__ import annotations

import argparse
import dataclasses
import io
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pandas as pd
import pytest

import kalooki_sim as ks
from kalooki_sim import cli

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = ["simulate", "replay", "rules", "tournament", "call-value", "advise", "review",
            "report"]


def run(capsys, *argv):
    """``kalooki argv``: (exit status, stdout, stderr)."""
    try:
        code = cli.main(list(argv))
    except SystemExit as e:  # argparse: --help, usage errors
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code, err, *words):
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "error:" in lines[0], err
    for w in words:
        assert w in lines[0], lines[0]


# -- help -------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_examples(capsys, command):
    code, out, _ = run(capsys, command, "--help")
    assert code == 0
    assert f"kalooki {command}" in out and "examples:" in out


def test_top_level_help_lists_every_command(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0 and all(c in out for c in COMMANDS)


@pytest.mark.parametrize("command", ["simulate", "replay", "rules", "tournament", "call-value",
                                     "advise", "review"])
def test_every_rules_field_is_a_flag(capsys, command):
    _, out, _ = run(capsys, command, "--help")
    for f in dataclasses.fields(ks.Rules):
        assert "--" + f.name.replace("_", "-") in out, f.name


def test_console_script_and_module_entry_point():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {"kalooki": "kalooki_sim.cli:main"}
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-m", "kalooki_sim", "rules", "--csv"], env=env,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    table = pd.read_csv(io.StringIO(r.stdout))
    assert "--call-limit" in set(table["option"])


# -- simulate -----------------------------------------------------------------------------------


def test_simulate_tiny_run_and_csv(capsys, tmp_path):
    out = tmp_path / "run"
    code, text, err = run(capsys, "simulate", "--games", "12", "--hand", "3", "--hand", "9",
                          "--seed", "4", "--chunk-games", "5", "--out", str(out))
    assert code == 0, err
    assert "12 games in 3 chunks" in text and "penalty, points" in text
    run_ = ks.simulate(12, hand=[3, 9], seed=4, out=out)  # the CLI's run, read back
    pd.testing.assert_frame_equal(run_.rows(), ks.simulate(12, hand=[3, 9], seed=4).rows())
    code, text, _ = run(capsys, "simulate", "--games", "12", "--hand", "3", "--hand", "9",
                        "--seed", "4", "--out", str(out), "--resume", "--csv")
    assert code == 0
    table = pd.read_csv(io.StringIO(text))
    assert table["hand"].tolist() == [3, 9]
    pd.testing.assert_series_equal(table["mean_penalty"], run_.means()["mean_penalty"],
                                   check_exact=False)


def test_simulate_rules_flags_reach_the_run(capsys, tmp_path):
    out = tmp_path / "r"
    code, _, err = run(capsys, "simulate", "--games", "4", "--hand", "9", "--players", "6",
                       "--pack", "by-table", "--call-limit", "1", "--free-extension",
                       "--policies", "expert,greedy,greedy,greedy,greedy,random",
                       "--summary-only", "--quiet", "--out", str(out))
    assert code == 0, err
    r = ks.simulate(4, hand=9, rules=ks.Rules(players=6, pack="by-table", call_limit=1,
                                               free_extension=True),
                    policies=["expert", "greedy", "greedy", "greedy", "greedy", "random"],
                    summary_only=True, out=out)
    assert r.spec.rules.decks == 3 and int(r.summary()["rows"].sum()) == 24
    assert not (out / "rows").exists()


@pytest.mark.parametrize("argv, words", [
    (["--games", "-5"], ["--games -5", ">= 1"]),
    (["--games", "5", "--policies", "greedy,nope,greedy,greedy"], ["nope"]),
    (["--games", "5", "--players", "6", "--decks", "1"], ["pack has"]),
    (["--games", "5", "--hand", "12"], ["hand=12"]),
    (["--games", "5", "--players", "9"], ["players=9"]),
    (["--games", "5", "--cluster", "nowhere"], ["cluster="]),
    (["--games", "5", "--first-game", "-1"], ["first_game=-1"]),
    (["--games", "five"], ["--games"]),
    (["--games", "5", "--resume", "--force"], ["--force"]),
    (["--games", "5", "--schedule", "9;x"], ["schedule"]),
])
def test_simulate_bad_input_is_one_line_exit_2_and_writes_nothing(capsys, tmp_path, argv, words):
    out = tmp_path / "r"
    code, _, err = run(capsys, "simulate", *argv, "--out", str(out))
    one_line_error(code, err, *words)
    assert not out.exists()


def test_simulate_existing_out_needs_resume_or_force(capsys, tmp_path):
    out = tmp_path / "r"
    argv = ["simulate", "--games", "6", "--hand", "2", "--quiet", "--out", str(out)]
    assert run(capsys, *argv)[0] == 0
    stamp = {p: p.stat().st_mtime_ns for p in out.rglob("*")}
    code, _, err = run(capsys, *argv)
    one_line_error(code, err, "--resume", "--force")
    code, _, err = run(capsys, *argv[:-2], "--seed", "1", "--out", str(out), "--resume")
    one_line_error(code, err, "seed=0 there, 1 here")
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*")} == stamp
    assert run(capsys, *argv, "--resume")[0] == 0
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*")} == stamp
    assert run(capsys, *argv[:-2], "--seed", "1", "--out", str(out), "--force")[0] == 0
    assert ks.simulate(6, hand=2, seed=1, out=out).finished


def test_simulate_refuses_a_directory_that_is_not_a_run(capsys, tmp_path):
    (tmp_path / "keep.txt").write_text("x")
    code, _, err = run(capsys, "simulate", "--games", "3", "--out", str(tmp_path), "--force")
    one_line_error(code, err, "not a kalooki_sim run")
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


# -- the other commands ---------------------------------------------------------------------------


def test_replay_hand_and_game(capsys):
    code, out, _ = run(capsys, "replay", "--seed", "1", "--game", "2", "--hand", "7")
    assert code == 0
    assert out.strip() == ks.trace(seed=1, game=2, hand=7).play_by_play()
    code, out, _ = run(capsys, "replay", "--seed", "1")
    assert code == 0 and "== hand 1 " in out and "== hand 9 " in out
    code, out, _ = run(capsys, "replay", "--seed", "1", "--hand", "2", "--csv")
    assert code == 0 and pd.read_csv(io.StringIO(out))["event"].iloc[0] == "hand"


@pytest.mark.parametrize("argv, words", [
    (["--seed", "-1"], ["seed=-1"]), (["--seed", "1", "--hand", "10"], ["hand=10"]),
    (["--seed", "1", "--policies", "bogus"], ["bogus"]),
])
def test_replay_bad_input(capsys, argv, words):
    code, _, err = run(capsys, "replay", *argv)
    one_line_error(code, err, *words)


def test_rules_shows_values_and_ids(capsys):
    code, out, _ = run(capsys, "rules", "--players", "5", "--pack", "by-table")
    assert code == 0
    assert "V9" in out and "R13" in out and "162 cards" in out and "4 groups + 0 runs" in out
    code, out, _ = run(capsys, "rules", "--call-limit", "1", "--csv")
    table = pd.read_csv(io.StringIO(out)).set_index("option")
    assert table.loc["--call-limit", "value"] == "1" and not table.loc["--call-limit", "default"]
    assert "V8" in table.loc["--call-limit", "rules"]


def test_rules_named_format(capsys):
    code, out, _ = run(capsys, "rules", "--format", "super-kalooki", "--csv")
    table = pd.read_csv(io.StringIO(out)).set_index("option")
    assert code == 0 and table.loc["--schedule", "value"].startswith("12,4,0")
    code, _, err = run(capsys, "rules", "--format", "kalooki", "--schedule", "9,3,0")
    one_line_error(code, err, "--format")


def test_rules_bad_pack(capsys):
    code, _, err = run(capsys, "rules", "--players", "6", "--decks", "1")
    one_line_error(code, err, "pack has")


def test_tournament_tiny(capsys):
    code, out, err = run(capsys, "tournament", "--policies", "call-1,never-call,greedy",
                         "--games", "4", "--seed", "2", "--csv")
    assert code == 0, err
    got = pd.read_csv(io.StringIO(out))
    want = ks.tournament(["call-1", "never-call", "greedy"], games=4, players=3, seed=2)
    assert got["policy"].tolist() == want["policy"].tolist()
    assert got["mean_total"].tolist() == pytest.approx(want["mean_total"].tolist())


def test_tournament_bad_input(capsys):
    code, _, err = run(capsys, "tournament", "--policies", "greedy,greedy,greedy", "--games",
                       "3", "--players", "4")
    one_line_error(code, err, "one per seat")
    code, _, err = run(capsys, "tournament", "--policies", "greedy,x,greedy,greedy", "--games",
                       "3")
    one_line_error(code, err, "'x'")


def test_advise_bad_card_text(capsys):
    code, _, err = run(capsys, "advise", "--cards", "K♠ K♥ 7♦ 1X", "--card", "7♥",
                       "--contract", "6")
    one_line_error(code, err, "--cards", "1X")
    code, _, err = run(capsys, "advise", "--cards", "K♠ K♥ 7♦", "--card", "7♥ 8♥",
                       "--contract", "6")
    one_line_error(code, err, "one card")


def test_advise_tiny():
    if not hasattr(ks, "advise"):
        pytest.skip("kalooki_sim.advise is not in this version yet")
    code = cli.main(["advise", "--cards", "K♠ K♥ 7♦ 7♣ 8♦ 9♦ Q♣ 2♠ 5♥ JK 4♣ 4♦ 10♠",
                     "--card", "7♥", "--contract", "6", "--rollouts", "20", "--seed", "1"])
    assert code == 0


def test_call_value_tiny(capsys):
    if not hasattr(ks, "call_decisions"):
        pytest.skip("kalooki_sim.call_decisions is not in this version yet")
    code, out, err = run(capsys, "call-value", "--deals", "20", "--hand", "6", "--rows",
                         "--csv")
    assert code == 0, err
    got = pd.read_csv(io.StringIO(out))
    assert len(got) == len(ks.call_decisions(20, 6))


def test_call_value_bad_input(capsys):
    code, _, err = run(capsys, "call-value", "--deals", "x", "--hand", "6")
    one_line_error(code, err, "--deals")


def test_call_value_sample_is_the_api_sample(capsys):
    code, out, err = run(capsys, "call-value", "--deals", "20", "--hand", "6", "--rows",
                         "--csv", "--sample", "0.3")
    assert code == 0, err
    got = pd.read_csv(io.StringIO(out))
    assert len(got) == len(ks.call_decisions(20, 6, sample=0.3)) < len(ks.call_decisions(20, 6))
    code, _, err = run(capsys, "call-value", "--deals", "5", "--hand", "6", "--sample", "2")
    one_line_error(code, err, "sample")


def test_report_bad_flag(capsys):
    code, _, err = run(capsys, "report", "--sizes", "big")
    one_line_error(code, err, "--sizes")


@pytest.mark.slow
def test_report_tiny(capsys, tmp_path):
    code, out, _ = run(capsys, "report", "--tiny", "--out", str(tmp_path))
    assert code == 0 and (tmp_path / "index.html").exists()


@pytest.mark.parametrize("name", ["cli", "studies.study"])
def test_every_public_callable_has_a_docstring(name):
    import importlib
    import inspect

    mod = importlib.import_module(f"kalooki_sim.{name}")
    missing = []
    for attr, obj in vars(mod).items():
        if attr.startswith("_") or not callable(obj) or getattr(obj, "__module__", "") != \
                mod.__name__:
            continue
        if not (obj.__doc__ or "").strip():
            missing.append(attr)
        if inspect.isclass(obj):
            missing += [f"{attr}.{m}" for m, f in vars(obj).items()
                        if not m.startswith("_") and callable(f) and not (f.__doc__ or "").strip()]
    assert not missing


# -- issue 20: errors that were not yet clear ----------------------------------------------------


def test_simulate_out_that_cannot_be_created_is_one_line(capsys):
    # was a 27-line FileNotFoundError traceback
    code, _, err = run(capsys, "simulate", "--games", "3", "--hand", "1", "--out", "/proc/foo")
    one_line_error(code, err, "out='/proc/foo' is not allowed", "a directory you can write")


def test_csv_file_that_cannot_be_written_is_refused_before_the_run(capsys, tmp_path):
    # was an OSError after the run had been written
    out = tmp_path / "r"
    code, _, err = run(capsys, "simulate", "--games", "3", "--hand", "1", "--out", str(out),
                       "--csv", "/proc/x.csv")
    one_line_error(code, err, "--csv='/proc/x.csv' is not allowed", "a file you can write")
    assert not out.exists()
    code, _, err = run(capsys, "rules", "--csv", str(tmp_path / "no" / "such" / "dir.csv"))
    one_line_error(code, err, "--csv=", "no directory")


def test_simulate_huge_games_blames_games_not_first_game(capsys, tmp_path):
    out = tmp_path / "r"
    code, _, err = run(capsys, "simulate", "--games", "99999999999999999999", "--out", str(out))
    one_line_error(code, err, "games=99999999999999999999 is not allowed")
    assert "first_game" not in err and not out.exists()


def test_tournament_one_policy_asks_for_one_per_seat(capsys):
    # was "players=1 is not allowed"
    code, _, err = run(capsys, "tournament", "--policies", "expert", "--games", "10")
    one_line_error(code, err, "--policies 'expert' is not allowed", "one policy per seat")
    assert "players=1" not in err


def test_call_value_zero_deals_is_an_error(capsys):
    # was exit 0 and "Empty DataFrame"
    code, out, err = run(capsys, "call-value", "--deals", "0", "--hand", "6")
    one_line_error(code, err, "--deals 0 is not allowed; give an integer >= 1")
    assert out == ""


# -- issue 20: help and output ---------------------------------------------------------------------


def _subparsers():
    ap = cli.build_parser()
    subs = next(a for a in ap._actions if isinstance(a, argparse._SubParsersAction))
    return subs.choices


@pytest.mark.parametrize("command", COMMANDS)
def test_every_flag_has_help_that_shows_its_default(command):
    p = _subparsers()[command]
    fmt = p._get_formatter()
    for a in p._actions:
        if isinstance(a, argparse._HelpAction):
            continue
        assert a.help, f"{command} {a.option_strings}: no help"
        if a.help == argparse.SUPPRESS:
            continue  # a deprecated alias, hidden
        text = fmt._expand_help(a) if a.help else ""
        if a.default not in (None, argparse.SUPPRESS):
            shown = "off" if a.default is False else str(a.default)
            assert "default" in text and shown in text, f"{command} {a.option_strings}: {text}"


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_quiet(command):
    assert "--quiet" in _subparsers()[command]._option_string_actions


def test_help_prints_no_doubled_percent(capsys):
    for command in COMMANDS:
        _, out, _ = run(capsys, command, "--help")
        assert "%%" not in out, command


def test_decks_and_jokers_and_pack_have_their_own_help(capsys):
    p = _subparsers()["rules"]
    helps = {a.option_strings[0]: a.help for a in p._actions if a.option_strings}
    assert helps["--decks"] != helps["--jokers"]
    assert "'card'" in helps["--pack"] and "'by-table'" in helps["--pack"]


def test_rules_table_says_1_group_not_1_groups(capsys):
    code, out, _ = run(capsys, "rules")
    assert code == 0 and "1 group + 2 runs" in out and "1 groups" not in out
    assert "2 groups + 1 run\n" in out or "2 groups + 1 run " in out


def test_advise_cards_flag_and_the_old_hand_alias(capsys):
    p = _subparsers()["advise"]
    assert "--cards" in p._option_string_actions
    code, _, err = run(capsys, "advise", "--card", "7♥", "--contract", "6")
    one_line_error(code, err, "--cards is required")
    code, _, err = run(capsys, "advise", "--hand", "K♠ K♥ 7♦ 1X", "--card", "7♥",
                       "--contract", "6")
    assert code == 2 and "--hand is deprecated" in err and "1X" in err


def test_advise_csv_has_the_recommendation_and_the_difference(capsys):
    code, out, err = run(capsys, "advise", "--cards", "K♠ K♥ 7♦ 7♣ 8♦ 9♦ Q♣ 2♠ 5♥ JK 4♣ 4♦ 10♠",
                         "--card", "7♥", "--contract", "6", "--rollouts", "20", "--seed", "1",
                         "--policies", "greedy", "--csv")
    assert code == 0, err
    t = pd.read_csv(io.StringIO(out))
    assert t["action"].tolist()[-1] == "difference"
    assert {"advice", "recommendation"} <= set(t.columns)
    assert t["recommendation"].nunique() == 1 and "rollouts" in t["recommendation"].iat[0]


def test_replay_whole_game_ends_with_totals_and_winner(capsys):
    code, out, _ = run(capsys, "replay", "--seed", "1", "--game", "0")
    assert code == 0
    g = ks.play_games(1, seed=1).drop_duplicates("seat")
    totals = ", ".join(f"seat {s} {t}" for s, t in zip(g["seat"], g["total"], strict=True))
    assert f"== game over: totals {totals}" in out
    winners = g.loc[g["winner"], "seat"].tolist()
    assert (f"seat {winners[0]} wins" in out) if len(winners) == 1 else "share the win" in out
    # R12: the seat that went out scores 0 and is not "doubled"; the others are
    lines = out.splitlines()
    for i, line in enumerate(lines):
        if " is OUT" in line:
            seat = line.split()[1]
            score = next(x for x in lines[i:] if x.strip().startswith(f"seat {seat} scores"))
            assert score.strip() == f"seat {seat} scores 0 (went out)", score


def test_compile_note_only_when_numba_compiles(capsys):
    import numba

    with cli._compile_note(quiet=False):
        numba.njit(lambda x: x + 1)(1)   # a new function: numba compiles
        numba.njit(lambda x: x + 2)(1)
    assert capsys.readouterr().err.strip() == cli.COMPILING
    with cli._compile_note(quiet=True):
        numba.njit(lambda x: x + 3)(1)
    ks.play_hands(2, seed=1)       # compiled (or loaded from the cache) here ...
    capsys.readouterr()
    with cli._compile_note(quiet=False):
        ks.play_hands(2, seed=2)   # ... so nothing compiles now: no note
    assert capsys.readouterr().err == ""


# -- progress on every long command (issue 20) -----------------------------------------------

_LONG = {
    "call-value": ["call-value", "--deals", "3", "--hand", "1", "--policies", "greedy"],
    "tournament": ["tournament", "--policies", "call-1,never-call,greedy", "--games", "2"],
    "advise": ["advise", "--cards", "K♠ K♥ 7♦ 7♣ 8♦ 9♦ Q♣ 2♠ 5♥ JK 4♣ 4♦ 10♠", "--card", "7♥",
               "--contract", "6", "--rollouts", "20"],
}


@pytest.mark.parametrize("command", sorted(_LONG))
def test_long_commands_show_progress_on_a_terminal_only(capsys, monkeypatch, command):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)   # a terminal
    code, _, err = run(capsys, *_LONG[command])
    assert code == 0, err
    assert f"kalooki {command}" in err or "call decisions" in err, err
    assert "100%" in err, err
    code, _, err = run(capsys, *_LONG[command], "--quiet")
    assert code == 0 and err == "", err
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)  # a pipe or a file
    code, _, err = run(capsys, *_LONG[command])
    assert code == 0 and "100%" not in err, err


def test_progress_helper_is_one_for_every_command():
    from kalooki_sim._lib import progress_bar, wants_progress

    assert not wants_progress(None, 10, auto_at=100) and wants_progress(True, 0, auto_at=100)
    assert not progress_bar(False, 10, auto_at=0)
    src = "".join(p.read_text() for p in (ROOT / "kalooki_sim").rglob("*.py")
                  if p.name != "_lib.py")
    assert "from tqdm" not in src and "import tqdm" not in src


# -- resume and SIGTERM (issue 20) ------------------------------------------------------------


def test_simulate_resume_says_which_chunks_it_reused(capsys, tmp_path):
    out = tmp_path / "r"
    argv = ["simulate", "--games", "10", "--hand", "1", "--chunk-games", "2", "--out", str(out)]
    assert run(capsys, *argv, "--quiet")[0] == 0
    for i in (3, 4):   # two chunks lost: the resumed run plays them again
        (out / "rows" / f"chunk-{i:06d}.parquet").unlink()
    code, _, err = run(capsys, *argv, "--resume")
    assert code == 0, err
    assert "kalooki simulate: resumed: 3 of 5 chunks already done (0-2), running 2" in err
    code, _, err = run(capsys, *argv, "--resume", "--quiet")
    assert code == 0 and err == ""


def test_simulate_sigterm_exits_143_with_one_line(tmp_path):
    import signal
    import time

    out = tmp_path / "big"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.Popen([sys.executable, "-m", "kalooki_sim", "simulate", "--games",
                          "1000000", "--hand", "1", "--summary-only", "--chunk-games", "2000",
                          "--out", str(out)], env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    try:
        t0 = time.monotonic()
        while not (out / "manifest.json").exists() and time.monotonic() - t0 < 120:
            time.sleep(0.2)
        time.sleep(1.0)
        assert p.poll() is None, p.communicate()
        p.send_signal(signal.SIGTERM)
        _, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == cli.EXIT_TERMINATED, err
    assert err.strip().splitlines()[-1] == (
        "kalooki simulate: stopped by SIGTERM; run again with --resume to continue")
    man = __import__("json").loads((out / "manifest.json").read_text())
    assert not man["finished"]


# -- --plot (issue 20) -----------------------------------------------------------------------

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("argv", [
    ["simulate", "--games", "6", "--hand", "1", "--hand", "9", "--quiet"],
    ["tournament", "--policies", "call-1,never-call,greedy", "--games", "3"],
    ["call-value", "--deals", "6", "--hand", "1", "--policies", "greedy"],
], ids=lambda a: a[0])
def test_plot_writes_a_png(capsys, tmp_path, argv):
    if argv[0] == "simulate":
        argv = argv + ["--out", str(tmp_path / "run")]
    png = tmp_path / "chart.png"
    code, _, err = run(capsys, *argv, "--plot", str(png))
    assert code == 0, err
    assert png.read_bytes()[:8] == PNG


@pytest.mark.parametrize("where", ["no-such-dir/c.png", "c.pdf"])
def test_plot_bad_path_is_one_line_exit_2_and_writes_nothing(capsys, tmp_path, where):
    code, _, err = run(capsys, "tournament", "--policies", "greedy,never-call,greedy",
                       "--games", "3", "--plot", str(tmp_path / where))
    one_line_error(code, err, "--plot")
    assert list(tmp_path.rglob("*")) == []


@pytest.mark.parametrize("command", ["simulate", "call-value"])
def test_long_commands_say_how_long_in_their_help(capsys, command):
    code, out, _ = run(capsys, command, "--help")
    assert code == 0 and "measured on 2 cores, 2026-12-01" in out


def test_a_reader_that_goes_away_is_not_a_traceback():
    """``kalooki rules | head -1``: the reader closes the pipe early; the command stops quietly
    with 141 (128 + SIGPIPE), as Unix tools do, and prints no traceback. (The read end is
    closed before the command runs, so its first write meets the closed pipe.)"""
    import os
    import subprocess
    import sys

    r, w = os.pipe()
    os.close(r)
    try:
        p = subprocess.run([sys.executable, "-m", "kalooki_sim", "rules"], stdout=w,
                           stderr=subprocess.PIPE, timeout=60)
    finally:
        os.close(w)
    assert p.returncode == 141
    assert p.stderr.decode() == ""


def test_simulate_prints_percentages_units_and_the_game_table(tmp_path, capsys):
    """Issue 20: the terminal table shows proportions as percentages and units in its headings,
    and a whole-game run adds the game-level table (win share, game total); ``--csv`` keeps the
    machine columns."""
    assert cli.main(["simulate", "--games", "3", "--out", str(tmp_path / "r"), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "opened %" in out and "penalty, points" in out and "p_opened" not in out
    assert re.search(r"\d+\.\d%", out)
    assert "whole games (R14):" in out and "win share" in out and "game total, points" in out
    assert cli.main(["simulate", "--games", "3", "--hand", "1", "--out", str(tmp_path / "s"),
                     "--csv", "-", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("hand,") and "p_opened" in out and "whole games" not in out


def test_tournament_and_call_value_tables_give_intervals_in_readable_units(capsys):
    """Issue 20: the terminal tables of ``tournament`` and ``call-value`` show each measure with
    its 95% interval, proportions as percentages and units in the headings."""
    assert cli.main(["tournament", "--policies", "greedy,never-call,greedy,greedy",
                     "--games", "4", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "win share (95% interval)" in out and "win_share_lo" not in out
    assert re.search(r"\d+\.\d% \[\d+\.\d%, \d+\.\d%\]", out)
    assert cli.main(["call-value", "--deals", "2", "--hand", "1", "--policies", "greedy",
                     "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "what acting is worth" in out and "penalty, points" in out
    assert re.search(r"-?\d+\.\d \[-?\d+\.\d, -?\d+\.\d\]", out)


# -- issue 19: the history in advise, and review ------------------------------------------------


def test_advise_known_hand_sizes_and_objective_reach_the_advice(capsys):
    argv = ["advise", "--cards", "K♠ K♥ K♦ Q♠ Q♥ Q♦ 7♥ 7♦ 2♣", "--card", "3♣", "--contract", "1",
            "--discarder", "1", "--rollouts", "20", "--policies", "greedy", "--csv"]
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    t = pd.read_csv(io.StringIO(out))
    assert (t["objective"] == "relative").all() and t["needed_before"].iat[0] == 1
    code, out, err = run(capsys, *argv, "--known", "1:7♠ 7♠", "--known", "2:7♣ 7♣ JK JK",
                         "--known", "3:JK JK", "--hand-sizes", "1:11,2:11", "--seen", "7♥ 7♦",
                         "--reshuffled", "--stock-left", "5", "--objective", "penalty")
    assert code == 0, err
    t = pd.read_csv(io.StringIO(out))
    assert (t["objective"] == "penalty").all()
    assert t["needed_before"].iat[0] == 2  # every 7 and joker out of reach: the 2s it is
    code, _, err = run(capsys, *argv, "--known", "1:7♠ 7♠ 7♠")
    one_line_error(code, err, "known[1]", "7♠")
    code, _, err = run(capsys, *argv, "--known", "5:7♠")
    one_line_error(code, err, "known seat=5")


def test_advise_counts_your_calls_from_the_history_and_its_help_examples_run(capsys):
    # --calls-made left out: the calls of yours the history shows (R9), as the API counts them
    cards = "K♠ K♥ 7♦ 7♣ 2♥ 3♥ 5♥ 9♠ 10♠ J♦ Q♦ 4♣ 8♠ 9♦ 6♣"
    hist = "3:discard:9♦, 2:pass:9♦, 1:pass:9♦, 0:call:9♦, 2:draw, 2:discard:7♥"
    base = ["advise", "--cards", cards, "--card", "7♥", "--contract", "6", "--rollouts", "40",
            "--policies", "greedy", "--threads", "1", "--csv"]
    code, out, err = run(capsys, *base, "--history", hist)
    assert code == 0, err
    code, _, err = run(capsys, *base, "--history", hist, "--calls-made", "0")
    one_line_error(code, err, "calls_made=0", "shows 1 call of yours")
    _, helptext, _ = run(capsys, "advise", "--help")
    assert "search" not in helptext.split("--policies")[1].split("--rollouts")[0]
    assert "default: the calls of yours --history shows, else 0" in " ".join(helptext.split())
    assert "required unless --discard" in helptext and "--plot" not in helptext
    examples = helptext.split("examples:")[1].replace("\\\n", " ")
    ran = 0
    for line in examples.splitlines():
        line = line.split("#")[0].strip()
        if not line.startswith("kalooki advise") or "..." in line:
            continue  # the examples with "..." are templates
        argv = shlex.split(line)[1:]
        if "--rollouts" in argv:
            argv[argv.index("--rollouts") + 1] = "40"
        else:
            argv += ["--rollouts", "40"]
        code, _, err = run(capsys, *argv, "--policies", "greedy", "--threads", "1")
        assert code == 0, (line, err)
        ran += 1
    assert ran >= 3


def test_advise_prints_the_objective_and_the_legend(capsys):
    code, out, err = run(capsys, "advise", "--cards", "K♠ K♥ K♦ Q♠ Q♥ Q♦ 6♠ 6♥ 2♣", "--card",
                         "6♦", "--contract", "1", "--discarder", "1", "--rollouts", "20",
                         "--policies", "greedy")
    assert code == 0, err
    assert "objective: relative" in out and "doubled:" in out and "void:" in out
    assert "Cards needed: 1 now, 0 with 6♦" in out


def test_review_prints_the_decisions_and_writes_the_html_timeline(capsys, tmp_path):
    page = tmp_path / "review.html"
    code, out, err = run(capsys, "review", "--seed", "4", "--game", "0", "--hand", "6", "--seat",
                         "1", "--policies", "expert", "--rollouts", "10", "--rollout-policies",
                         "greedy", "--out", str(page))
    assert code == 0, err
    table = ks.review(ks.trace(seed=4, hand=6, policies="expert"), 1, rollouts=10,
                      policies="greedy")
    n_d = int((table["decision"] == "discard").sum())
    assert (f"seat 1: {len(table)} decisions ({n_d} discard{'' if n_d == 1 else 's'}), "
            f"measured on {int(table['rollouts'].sum()):,} paired rollouts") in out
    assert "at a discard, act = the card let go" in out
    # the legend says what the columns hold: the verdict after Holm, the rating by size
    assert "verdict (over the hand's decisions, Holm's adjustment at 5%)" in out
    assert "verdict (Holm)" in out and "at least 10 points / at least 5" in out
    for v in table["verdict"]:
        assert v in out
    tot = ks.review_total(table, by="all").iloc[0]
    assert (f"points lost in all: {tot['lost']:.1f} [95%: {tot['lost_lo']:.1f}, "
            f"{tot['lost_hi']:.1f}] over {int(tot['decisions'])} decisions") in out
    text = page.read_text(encoding="utf-8")
    assert "<caption>Timeline of seat 1" in text and "your cards after" in text
    assert text.count("<tr") >= len(table) + 3
    assert f"wrote {page}" in err
    code, out, err = run(capsys, "review", "--seed", "4", "--hand", "6", "--seat", "1",
                         "--policies", "expert", "--rollouts", "10", "--csv")
    assert code == 0, err
    t = pd.read_csv(io.StringIO(out))
    assert {"verdict", "d_value", "d_value_lo", "d_value_hi", "action"} <= set(t.columns)


@pytest.mark.parametrize("argv, words", [
    (["--seat", "4"], ["seat=4", "0-3"]),
    (["--seat", "0", "--out", "review.txt"], ["--out", ".html"]),
    (["--seat", "0", "--rollouts", "1"], ["rollouts=1"]),
])
def test_review_bad_input_is_one_line(capsys, tmp_path, argv, words):
    argv = [a if a != "review.txt" else str(tmp_path / a) for a in argv]
    code, _, err = run(capsys, "review", "--seed", "1", "--hand", "1", *argv)
    one_line_error(code, err, *words)
    assert list(tmp_path.iterdir()) == []


# -- issue 30: no silent wrong answer, no traceback -----------------------------------------------


def _api_error(fn, *args, **kwargs) -> str:
    with pytest.raises((ValueError, TypeError)) as e:
        fn(*args, **kwargs)
    return str(e.value)


@pytest.mark.parametrize("command, extra", [("replay", []), ("review", ["--seat", "0"])])
def test_hand_0_is_refused_as_the_api_refuses_it(capsys, command, extra):
    # was hand 1, byte for byte (--hand 0 read as "not given")
    code, out, err = run(capsys, command, "--seed", "1", "--hand", "0", *extra)
    one_line_error(code, err, _api_error(ks.trace, 1, hand=0))
    assert out == ""


@pytest.mark.parametrize("where", ["/proc/nope", "FILE"])
def test_report_out_that_is_no_writable_directory_is_one_line(capsys, tmp_path, where):
    # were a FileNotFoundError and a FileExistsError traceback
    if where == "FILE":
        where = str(tmp_path / "a-file")
        Path(where).write_text("keep")
    code, out, err = run(capsys, "report", "--tiny", "--out", where)
    one_line_error(code, err, "--out=", "is not allowed; give a directory you can write")
    assert where == "/proc/nope" or Path(where).read_text() == "keep"


@pytest.mark.parametrize("argv, flag, name", [
    (["rules"], "--csv", "t.csv"),
    (["replay", "--seed", "1", "--hand", "2"], "--csv", "t.csv"),
    (["tournament", "--policies", "call-1,never-call,greedy", "--games", "2"], "--plot",
     "c.png"),
    (["simulate", "--games", "2", "--hand", "1", "--quiet"], "--csv", "t.csv"),
    (["review", "--seed", "1", "--hand", "1", "--seat", "0", "--rollouts", "4"], "--out",
     "r.html"),
], ids=lambda a: a[0] if isinstance(a, list) else a)
def test_an_existing_file_is_overwritten_only_with_force(capsys, tmp_path, argv, flag, name):
    # --csv, --plot and review's --out overwrote an existing file without a word
    if argv[0] == "simulate":
        argv = argv + ["--out", str(tmp_path / "run")]
    path = tmp_path / name
    path.write_text("keep")
    code, out, err = run(capsys, *argv, flag, str(path))
    one_line_error(code, err, f"{flag}=", "is not allowed; give a new file name, or --force to "
                   "overwrite it (it exists)")
    assert path.read_text() == "keep" and out == ""
    code, _, err = run(capsys, *argv, flag, str(path), "--force")
    assert code == 0, err
    assert path.read_bytes() != b"keep"


def test_simulate_zero_games_is_refused_as_call_value_zero_deals_is(capsys, tmp_path):
    # was exit 0 and an empty table, while call-value --deals 0 was refused
    code, out, err = run(capsys, "simulate", "--games", "0", "--out", str(tmp_path / "r"))
    one_line_error(code, err, "--games 0 is not allowed; give an integer >= 1")
    assert out == "" and not (tmp_path / "r").exists()


def test_review_help_counts_the_decisions_the_example_reviews(capsys):
    # the help said 28 decisions over two attempts; the same call reviews one deal's today
    _, out, _ = run(capsys, "review", "--help")
    m = re.search(r"hand 9 of --seed 1: (\d+)\s+decisions of seat 0, (\d+) of them\s+discards",
                  out)
    table = ks.review(ks.trace(1, hand=9), 0, rollouts=2, discard_rollouts=2)
    assert int(m.group(1)) == len(table) and table["attempt"].nunique() == 1
    assert int(m.group(2)) == (table["decision"] == "discard").sum()
    assert "seconds" not in out.split("hand 9 of --seed 1")[1].split("make bench")[0]
