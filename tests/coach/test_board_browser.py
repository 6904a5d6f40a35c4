"""The replay board driven in a real browser: headless Chromium through selenium and chromedriver
(Debian's chromium and chromium-driver packages; .ci/run installs them).  Skipped, with the reason,
where either is missing.  Each record's page is built once per module, with a small budget."""

import json
import re
import shutil

import pytest
from click.testing import CliRunner

from cli.main import main
from tests.support.analyze_cli import DATA, FAST

W, L, R = 720, 38, 10                    # the curve's viewBox width and margins (analyzer/coach/assets/board.js)

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install '.[test]')")
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402


def _browser_paths():
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    return chromium, driver


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """The board of a shipped record (``analyze --format html``, the quick setting): its page and its
    data, built once per module and record (the tests only read the page; each opens it afresh)."""
    made = {}

    def page(name):
        if name not in made:
            out = tmp_path_factory.mktemp("board") / "board.html"
            result = CliRunner().invoke(main, ["analyze", str(DATA / name), *FAST, "--format", "html",
                                               "--out", str(out)])
            assert result.exit_code == 0, result.output
            made[name] = out, json.loads(re.search(r'id="analysis">(.*?)</script>', out.read_text(encoding="utf-8"),
                                                   re.S).group(1))
        return made[name]
    return page


@pytest.fixture(scope="module")
def built(pages):
    out, data = pages("four-players.txt")
    return out, data["deals"][0]


@pytest.fixture(scope="module")
def browser():
    chromium, driver = _browser_paths()
    if not chromium or not driver:
        pytest.skip("headless browser tests need chromium and chromedriver (apt-get install chromium chromium-driver)")
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-extensions", "--no-first-run"):
        options.add_argument(arg)
    options.binary_location = chromium
    b = webdriver.Chrome(service=Service(driver), options=options)
    b.set_window_size(1366, 900)
    yield b
    b.quit()


def open_at(browser, page, fragment=""):
    browser.get("about:blank")
    browser.get(page.as_uri() + fragment)
    return browser


def where(browser):
    return browser.execute_script("return location.hash")


def press(browser, *keys):
    """The keys typed in turn, in one command to the browser: each is a key event of its own, handled
    before the next."""
    browser.find_element(By.TAG_NAME, "body").send_keys(*keys)


def step_hash(step, players=4, deal=1):
    if step == 0:
        return f"#d{deal}-t0-c0"
    return f"#d{deal}-t{(step - 1) // players + 1}-c{(step - 1) % players + 1}"


def flagged_steps(deal):
    return sorted({s for d, s in zip(deal["decisions"], deal["steps"]) if d["verdict"] and s})


def test_the_arrow_keys_step_card_by_card_and_trick_by_trick(browser, built):
    page, _ = built
    open_at(browser, page)
    assert where(browser) == "#d1-t0-c0"
    assert browser.find_element(By.ID, "where").text == "start"
    press(browser, Keys.ARROW_RIGHT)
    assert where(browser) == "#d1-t1-c1"
    trick = browser.find_elements(By.CSS_SELECTOR, "#felt .trick .card")
    assert [c.get_attribute("data-card") for c in trick] == ["KH"]
    press(browser, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    assert where(browser) == "#d1-t1-c4"
    assert "won by seat 2" in browser.find_element(By.ID, "felt").text
    assert "defence 11.0 pts" in browser.find_element(By.ID, "score").text
    press(browser, Keys.ARROW_LEFT)
    assert where(browser) == "#d1-t1-c3"
    press(browser, Keys.ARROW_DOWN)
    assert where(browser) == "#d1-t1-c4"
    press(browser, Keys.ARROW_DOWN)
    assert where(browser) == "#d1-t2-c4"
    press(browser, Keys.ARROW_UP, Keys.ARROW_UP)
    assert where(browser) == "#d1-t0-c0"
    # the tricks' strip says who won each and moves the board to a trick's end
    browser.find_element(By.CSS_SELECTOR, '#history button[data-step="12"]').click()
    assert where(browser) == "#d1-t3-c4"
    assert browser.find_element(By.CSS_SELECTOR, '#history button[data-step="4"]').text == "1 → 2"
    press(browser, Keys.HOME)
    # the played cards leave the hands
    press(browser, Keys.ARROW_RIGHT)
    seat1 = browser.find_element(By.CSS_SELECTOR, '.seat[data-seat="1"] .hand')
    assert "KH" not in [c.get_attribute("data-card") for c in seat1.find_elements(By.CLASS_NAME, "card")]


def test_next_flagged_decision_shows_its_alternatives(browser, built):
    page, deal = built
    open_at(browser, page)
    press(browser, "n")
    first = flagged_steps(deal)[0]
    assert where(browser) == step_hash(first)
    i = deal["steps"].index(first)
    d = deal["decisions"][i]
    panel = browser.find_element(By.ID, "decision")
    assert d["verdict"] in panel.find_element(By.ID, "verdict").text
    rows = panel.find_elements(By.CSS_SELECTOR, "table.alts tr")[1:]
    assert len(rows) == len(d["alternatives"])
    grouped = {c.get_attribute("data-card") for c in panel.find_elements(By.CSS_SELECTOR, "table.alts .card")}
    assert grouped == {c for members in deal["classes"][str(i)].values() for c in members}
    if len(flagged_steps(deal)) > 1:
        press(browser, "n")
        assert where(browser) == step_hash(flagged_steps(deal)[1])
        press(browser, "p")
        assert where(browser) == step_hash(first)


def test_the_seat_view_hides_the_other_hands(browser, built):
    page, _ = built
    open_at(browser, page, "#d1-t3-c2")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#felt .shown-hand")) == 4
    Select(browser.find_element(By.ID, "view")).select_by_value("2")
    shown = browser.find_elements(By.CSS_SELECTOR, "#felt .shown-hand")
    hidden = browser.find_elements(By.CSS_SELECTOR, "#felt .hidden-hand")
    assert len(shown) == 1 and len(hidden) == 3
    assert shown[0].find_element(By.XPATH, "..").get_attribute("data-seat") == "2"
    assert all(not h.find_elements(By.CSS_SELECTOR, ".card:not(.back)") for h in hidden)
    assert where(browser) == "#d1-t3-c2-s2"
    press(browser, Keys.HOME)                                       # the before-play decisions: its own only
    panel = browser.find_element(By.ID, "decision")
    assert panel.find_element(By.ID, "hidden-decision") and "discard" not in panel.text
    open_at(browser, page, "#d1-t1-c3-s2")                          # seat 3's card: its hand stays hidden
    panel = browser.find_element(By.ID, "decision")
    assert panel.find_element(By.ID, "hidden-decision")
    assert [c.get_attribute("data-card") for c in panel.find_elements(By.CLASS_NAME, "card")] == ["CH"]
    assert len(browser.find_elements(By.CSS_SELECTOR, "#felt .shown-hand")) == 1
    Select(browser.find_element(By.ID, "view")).select_by_value("all")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#felt .shown-hand")) == 4


def test_a_click_on_the_curve_moves_the_board(browser, built):
    page, _ = built
    open_at(browser, page)
    svg = browser.find_element(By.ID, "curve")
    width = svg.rect["width"]
    target = 30                                                     # the 30th card: trick 8, card 2
    x = (L + (W - L - R) * target / 72) * width / W
    ActionChains(browser).move_to_element_with_offset(svg, int(round(x - width / 2)), 0).click().perform()
    assert where(browser) == "#d1-t8-c2"


def test_show_me_how_gives_the_line_and_its_final_score(browser, built):
    page, deal = built
    line = deal["lines"][0]
    step = deal["steps"][line["decision"]]
    open_at(browser, page, step_hash(step))
    browser.find_element(By.ID, "show-how").click()
    taker = deal["table"]["taker"]
    score = line["line"]["scores"][taker - 1]
    text = browser.find_element(By.ID, "line-score").text
    assert text.startswith(f"taker {'+' if score > 0 else '−' if score < 0 else ''}{abs(score)}")
    actual = deal["table"]["result"]["scores"][taker - 1]
    assert f"{abs(actual)}" in browser.find_element(By.ID, "actual-score").text
    shown = [c.get_attribute("data-card") for c in browser.find_elements(By.CSS_SELECTOR, "#how-body .lines .cards")[0]
             .find_elements(By.CLASS_NAME, "card")]
    assert shown == line["line"]["tricks"][0]["cards"]


def test_a_link_with_a_step_opens_that_moment(browser, built):
    page, _ = built
    open_at(browser, page, "#d1-t7-c2")
    assert browser.find_element(By.ID, "where").text.startswith("trick 7 · card 2")
    browser.refresh()
    assert where(browser) == "#d1-t7-c2"
    assert browser.find_element(By.ID, "where").text.startswith("trick 7 · card 2")


def test_no_horizontal_scroll_at_phone_width(browser, built):
    page, _ = built
    try:
        browser.set_window_size(390, 844)
        open_at(browser, page, "#d1-t9-c1")
        wide = browser.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        assert wide <= 0
    finally:
        browser.set_window_size(1366, 900)


def test_no_script_error(browser, built):
    page, _ = built
    open_at(browser, page, "#d1-t18-c4")
    press(browser, Keys.END, Keys.HOME, "n", "n", "n")
    logs = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not logs, logs
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0   # nothing fetched


@pytest.mark.slow
@pytest.mark.parametrize("name", ["three-players.txt", "five-players.txt", "four-players-midplay.txt",
                                  "one-seat.txt", "partial.txt"])
def test_every_shipped_record_steps_through_without_a_script_error(browser, pages, name):
    out, data = pages(name)
    browser.get_log("browser")
    for index, deal in enumerate(data["deals"]):
        open_at(browser, out, f"#d{index + 1}-t0-c0")
        cards = sum(len(t["cards"]) for t in deal["table"]["tricks"])
        press(browser, *[Keys.ARROW_RIGHT] * (cards + 1))
        assert browser.find_element(By.ID, "where").text.endswith(f"{cards}/{cards}" if cards else "start")
        for line in deal["lines"]:
            players = deal["players"]
            open_at(browser, out, step_hash(deal["steps"][line["decision"]], players, index + 1))
            browser.find_element(By.ID, "show-how").click()
            assert browser.find_element(By.ID, "line-score").text.startswith("taker")
        for seat, hand in enumerate(deal["table"]["hands"], start=1):
            if hand is not None:
                Select(browser.find_element(By.ID, "view")).select_by_value(str(seat))
    logs = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not logs, logs


def test_a_seat_view_does_not_tell_the_partner_before_the_called_card(browser, pages):
    out, data = pages("five-players.txt")
    table = data["deals"][0]["table"]
    partner, called = table["partner"], table["called"]
    cards = [(s, c) for t in table["tricks"] for s, c in zip(t["seats"], t["cards"])]
    revealed = next(k for k, (_, c) in enumerate(cards) if c == called) + 1
    viewer = next(s for s in range(1, 6) if s not in (table["taker"], partner))
    badge = f'.seat[data-seat="{partner}"] .badge.partner'
    open_at(browser, out, step_hash(revealed - 1, 5) + f"-s{viewer}")
    assert not browser.find_elements(By.CSS_SELECTOR, badge)
    press(browser, Keys.ARROW_RIGHT)
    assert browser.find_elements(By.CSS_SELECTOR, badge)
    open_at(browser, out, step_hash(max(revealed - 1, 0), 5))                 # all hands: always marked
    assert browser.find_elements(By.CSS_SELECTOR, badge)
