"""``kalooki serve`` (issue 52) in a real browser: the Advise form answers as ``ks.advise`` does
on the same inputs and seed, a record is reviewed, a chart cell opens, and bad inputs get a
message beside their field while the server goes on answering. Chromium and chromedriver from
the system packages (``make browser`` installs them), driven by selenium; without them the
browser tests skip, saying why."""

from __future__ import annotations

import json
import shutil
import socket
import threading
import time
import urllib.request
from pathlib import Path

import pytest

import kalooki_sim as ks

uvicorn = pytest.importorskip("uvicorn", reason="kalooki serve needs the 'serve' extra: "
                              "pip install -e '.[serve]'")
from kalooki_sim.serve import create_app  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
README = dict(hand="K♠ K♥ 7♦ 7♣ 2♥ 3♥ 5♥ 9♠ 10♠ J♦ Q♦ 4♣ 8♠", card="7♥", contract=6,
              discarder=2, stock_left=45)


@pytest.fixture(scope="module")
def server():
    """The app on a free local port, in this process, for the module's tests."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=port,
                                        log_level="warning"))
    th = threading.Thread(target=srv.run, daemon=True)
    th.start()
    for _ in range(100):
        if srv.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    th.join(5)


def _post(url, body):
    req = urllib.request.Request(url, json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def _answer(base, jid, timeout=60):
    t0 = time.time()
    while time.time() - t0 < timeout:
        with urllib.request.urlopen(f"{base}/api/job/{jid}") as r:
            j = json.loads(r.read())
        if j["state"] in ("done", "error"):
            return j
        time.sleep(0.1)
    raise AssertionError(f"job {jid} not answered in {timeout} s")


def test_two_askers_at_once_get_their_own_answers(server):
    a = dict(README, rollouts=60, seed=1)
    b = dict(README, card="9♠", stock_left=30, rollouts=60, seed=2)
    ja = _post(f"{server}/api/advise", a)[1]["job"]
    jb = _post(f"{server}/api/advise", b)[1]["job"]
    ra, rb = _answer(server, ja), _answer(server, jb)
    assert ra["result"]["sentence"] == ks.advise(**a).recommendation
    assert rb["result"]["sentence"] == ks.advise(**b).recommendation
    assert ra["result"]["sentence"] != rb["result"]["sentence"]


def test_a_request_that_is_not_json_or_too_big_is_refused_and_the_server_goes_on(server):
    req = urllib.request.Request(f"{server}/api/advise", b"{not json", method="POST")
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(req)
    assert e.value.code == 422 and json.loads(e.value.read())["field"] == "hand"
    code, body = _post(f"{server}/api/review", {"record": "x" * 500_000})
    assert code == 422 and body["field"] == "record" and "at most" in body["error"]
    code, body = _post(f"{server}/api/advise", dict(README, rollouts=20))
    assert code == 200 and _answer(server, body["job"])["state"] == "done"


# -- the browser ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser():
    if not (CHROMIUM and DRIVER):
        pytest.skip("no Chromium and chromedriver on this machine (Debian: apt-get install "
                    "chromium chromium-driver, or `make browser`)")
    webdriver = pytest.importorskip("selenium.webdriver",
                                    reason="selenium is in the 'serve' extra")
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1600",
              "--disable-dev-shm-usage"):
        opts.add_argument(a)
    drv = webdriver.Chrome(service=Service(DRIVER), options=opts)  # the system driver
    yield drv
    drv.quit()


def _wait(drv, cond, timeout=60):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(drv, timeout, poll_frequency=0.1).until(lambda d: cond(d))


def _by(drv, css):
    from selenium.webdriver.common.by import By

    return drv.find_element(By.CSS_SELECTOR, css)


def _set(drv, css, value):
    drv.execute_script("document.querySelector(arguments[0]).value = arguments[1]", css, value)


def _visible_answer(drv):
    return _by(drv, "#answer").is_displayed() and _by(drv, "#sentence").text


def test_advise_form_answers_as_ks_advise_on_the_same_inputs_R9(server, browser):
    d = browser
    d.get(server + "/")
    _by(d, "#f-hand").clear()
    for c in ["K♠", "K♥", "K♦", "Q♠", "Q♥", "Q♦", "6♠", "6♥", "2♣"]:  # the card grid
        _by(d, f"#card-grid button[data-card='{c}']").click()
    _by(d, "#f-card").clear()
    _by(d, "#f-card").click()
    _by(d, "#card-grid button[data-card='6♦']").click()
    from selenium.webdriver.support.ui import Select

    Select(_by(d, "#f-contract")).select_by_value("1")
    Select(_by(d, "#f-discarder")).select_by_value("2")
    _by(d, "#f-stock_left").clear()
    # the table's story by clicks: seat, action, card (the situation's own example)
    for seat, action, card in [("3", "discard", "6♣"), ("0", "pass", "6♣"), ("2", "draw", None),
                               ("2", "discard", "6♦")]:
        Select(_by(d, "#h-seat")).select_by_value(seat)
        Select(_by(d, "#h-action")).select_by_visible_text(action)
        if card:
            _by(d, "#h-card").click()
            _by(d, f"#card-grid button[data-card='{card}']").click()
        _by(d, "#h-add").click()
    _by(d, "summary").click()
    _by(d, "#f-rollouts").clear()
    _by(d, "#f-rollouts").send_keys("200")
    _by(d, "#advise-go").click()
    got = _wait(d, _visible_answer)
    want = ks.advise("K♠ K♥ K♦ Q♠ Q♥ Q♦ 6♠ 6♥ 2♣", "6♦", 1, discarder=2, rollouts=200, seed=1,
                     history=[(3, "discard", "6♣"), (0, "pass", "6♣"), (2, "draw"),
                              (2, "discard", "6♦")])
    assert want.recommendation in got
    assert _by(d, "#picture svg").get_attribute("aria-label").startswith("expected relative")
    rows = _by(d, "#answer-table").text
    assert f"{want.difference['relative']:+.1f}" in rows


def test_review_page_reviews_the_guide_record(server, browser):
    from test_record import example_record

    d = browser
    d.get(server + "/review")
    _set(d, "#f-record", example_record())
    _set(d, "#f-rollouts", "20")
    _by(d, "#review-go").click()
    _wait(d, lambda d: _by(d, "#answer").is_displayed())
    want = ks.review_record(example_record(), rollouts=20)
    body = _by(d, "#answer-table").text
    for r in want.itertuples():
        assert f"{r.d_value:+.1f} [{r.d_value_lo:+.1f}, {r.d_value_hi:+.1f}]" in body
    assert f"{len(want)} decisions" in _by(d, "#total").text
    assert "you went out" in d.execute_script("return document.querySelector('#replay').srcdoc")


def test_chart_cell_shows_its_numbers_interval_and_rules(server, browser):
    from kalooki_sim.serve.answers import chart_frames

    d = browser
    d.get(server + "/chart")
    btn = _wait(d, lambda d: d.find_elements("css selector", "#chart-grids td button"))[0]
    cell = chart_frames()[0].iloc[int(btn.get_attribute("data-id"))]
    btn.click()
    _wait(d, lambda d: _by(d, "#cell").is_displayed())
    assert _by(d, "#cell-d").text == f"{cell['d_relative']:+.2f}"
    lo, hi = cell["d_relative_lo"], cell["d_relative_hi"]
    assert _by(d, "#cell-ci").text == f"[{lo:+.2f}, {hi:+.2f}]"
    assert "R9" in _by(d, "#cell").text and "Rules of thumb" in _by(d, "#cell").text


HAND = README["hand"]
#: (field set to a bad value, the field whose message must show); the rest stays README's
BAD_ADVISE = [
    ("hand", "K♠ Z♥ 7♦"), ("hand", ""), ("hand", "K♠ K♠ K♠ 7♦ 7♣ 2♥ 3♥ 5♥ 9♠ 10♠ J♦ Q♦ 4♣"),
    ("hand", "K♠ K♥ 7♦"), ("hand", "1♠ " + HAND), ("hand", "banana"), ("hand", "K♠,,,K♥;;7"),
    ("hand", "K♠ " * 20), ("hand", "JK JK JK JK JK " + HAND),
    ("card", ""), ("card", "7♠ 8♠"), ("card", "Z9"), ("card", "♠K"), ("card", "JK"),
    ("card", "11♥"),
    ("stock_left", "-1"), ("stock_left", "500"), ("stock_left", "abc"), ("stock_left", "4.5"),
    ("calls_made", "5"), ("calls_made", "-2"), ("calls_made", "x"),
    ("rollouts", "1"), ("rollouts", "999999"), ("rollouts", "lots"), ("rollouts", "0"),
    ("seed", "-5"), ("seed", "seed"),
    ("seen", "7♥ 7♥"), ("seen", "Q♣ Q♣ Q♣"), ("seen", "K♠ K♥ K♠"), ("seen", "X1"),
    ("table", "1: Q♠ Q♥"), ("table", "Q♠ Q♥ Q♦"), ("table", "9: Q♠ Q♥ Q♦"),
    ("table", "1: Q♠ Z♥ Q♦"),
]
#: histories that cannot happen (the offer is 7♥ by seat 2)
BAD_HISTORY = [
    [(3, "discard", "7♦"), (0, "pass", "7♦")],
    [(2, "discard", "7♣")],
    [(2, "discard", "K♦"), (3, "take", "K♦"), (2, "discard", "7♥")],
    [(1, "fly", "7♥")],
    [(2, "discard", "Z♥")],
    [(7, "discard", "7♥")],
    [(2, "discard", "7♥"), (3, "take", "7♥")],
    [(1, "discard", "7♦"), (0, "call", "7♦"), (2, "discard", "7♥")],
    [(2, "discard", "JK")],
]


def _errors(d):
    """The messages shown, by field, read at one instant."""
    return d.execute_script(
        "const o = {}; document.querySelectorAll('.err').forEach(e => { if (e.textContent) "
        "o[e.id.slice(4)] = e.textContent; }); return o;")


def _bad(d, field, value=None):
    got = _wait(d, lambda d: _errors(d) or (_visible_answer(d) and "ANSWERED"))
    assert got != "ANSWERED", f"{field}={value!r}: the bad value was answered"
    assert list(got) == [field], f"{field}={value!r}: the message is beside another field: {got}"
    return got[field]


def test_fifty_bad_inputs_each_get_a_message_beside_their_field(server, browser):
    from test_record import example_record

    d = browser
    d.get(server + "/")
    _by(d, "summary").click()
    seen = 0
    for field, value in BAD_ADVISE + [("history", h) for h in BAD_HISTORY]:
        d.refresh()
        _set(d, "#f-rollouts", "20")
        if field == "history":
            d.execute_script("history.splice(0); for (const e of arguments[0]) history.push(e);"
                             " drawHistory()", [list(e) for e in value])
        else:
            _set(d, f"#f-{field}", value)
        _by(d, "#advise-go").click()
        assert _bad(d, field, value)
        seen += 1
    # the Review page: bad records, a bad seed, an oversized upload
    bad_records = [
        "players 4\ncontract 1\nfoo",
        example_record().replace("you take Q♥", "you take Q♠"),
        example_record().replace("dealt 6♠", "dealt 6X"),
        example_record().replace("seat 2 draws\n", "seat 1 draws\n", 1),
        example_record().replace("you discard 8♥", "you discard 2♠"),
    ]
    for text in bad_records:
        d.get(server + "/review")
        _set(d, "#f-record", text)
        _set(d, "#f-rollouts", "10")
        _by(d, "#review-go").click()
        assert _bad(d, "record").startswith(("line ", "paste"))
        seen += 1
    for field, value in [("seed", "x"), ("hand_no", "12"), ("seat", "7")]:
        d.get(server + "/review")
        _set(d, "#f-seed", "1" if field != "seed" else value)
        _set(d, f"#f-{field}", value)
        _by(d, "#review-go").click()
        _bad(d, field)
        seen += 1
    big = Path(d.execute_script("return 1") and "/tmp") / f"kalooki-big-{time.time_ns()}.rec"
    big.write_text("# padding\n" * 30_000, encoding="utf-8")
    try:
        d.get(server + "/review")
        _by(d, "#f-upload").send_keys(str(big))
        assert "at most 200,000" in _bad(d, "record")
        seen += 1
    finally:
        big.unlink()
    assert seen >= 50
    # and the server answers the next good request
    d.get(server + "/")
    _set(d, "#f-rollouts", "50")
    _by(d, "#advise-go").click()
    assert ks.advise(**README, rollouts=50, seed=1).recommendation in _wait(d, _visible_answer)
