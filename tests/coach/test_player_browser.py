"""The player's page (analyze --player --format html) in a real browser (headless Chromium through
selenium, as tests/coach/test_board_browser.py): a worst decision's link opens the replay board at that
decision, from the player's seat; a deal's link opens that deal.  Skipped where the browser is missing."""

import json
import re

import pytest
from click.testing import CliRunner

from cli.main import main

pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install '.[test]')")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

from tests.coach.test_board_browser import browser, open_at, where  # noqa: E402,F401  (the fixture)


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    root = tmp_path_factory.mktemp("player")
    deals = root / "deals.txt"
    r = CliRunner().invoke(main, ["play", "--deals", "3", "--seed", "3", "--policy", "random", "--names",
                                  "Ana,Bruno,Chloe,Dan", "--quiet", "--out", str(deals)])
    assert r.exit_code == 0, r.output
    out = root / "ana.html"
    r = CliRunner().invoke(main, ["analyze", str(deals), "--player", "Ana", "--policy", "heuristic", "--deals", "50",
                                  "--seed", "4", "--quiet", "--format", "html", "--out", str(out)])
    assert r.exit_code == 0, r.output
    data = json.loads(re.search(r'id="analysis">(.*?)</script>', out.read_text(encoding="utf-8"), re.S).group(1))
    return out, data["deals"]


def test_a_worst_decision_s_link_opens_the_board_at_that_decision(browser, page):  # noqa: F811
    path, deals = page
    open_at(browser, path)
    assert where(browser) == "#d1-t0-c0"
    links = browser.find_elements(By.CSS_SELECTOR, "#worst a.goto")
    assert links, "no worst decision listed"
    cards = [a for a in links if re.fullmatch(r"d\d+-t[1-9]\d*-c\d-s\d", a.get_attribute("href").partition("#")[2])]
    assert cards, "no card among the worst decisions"
    link = cards[-1]                     # the last listed: not the deal the page opens on, most likely
    target = "#" + link.get_attribute("href").partition("#")[2]
    deal, trick, card, seat = map(int, re.fullmatch(r"#d(\d+)-t(\d+)-c(\d)-s(\d)", target).groups())
    row = link.find_element(By.XPATH, "./ancestor::tr")
    played = row.find_elements(By.TAG_NAME, "td")[3].text
    link.click()
    assert where(browser) == target
    assert Select(browser.find_element(By.ID, "deal")).first_selected_option.get_attribute("value") == str(deal - 1)
    assert Select(browser.find_element(By.ID, "view")).first_selected_option.get_attribute("value") == str(seat)
    assert browser.find_element(By.ID, "where").text.startswith(f"trick {trick} · card {card} · ")
    title = browser.find_element(By.ID, "decision-title")
    assert "Ana" in title.text and title.find_element(By.CLASS_NAME, "card").get_attribute("data-card") == played
    assert browser.find_element(By.ID, "verdict").find_elements(By.CLASS_NAME, "verdict")
    # the step shown is the decision the JSON lists there for the player
    d = deals[deal - 1]
    step = (trick - 1) * d["players"] + card
    (i,) = [k for k, s in enumerate(d["steps"]) if s == step]
    assert d["decisions"][i]["played"] == played and d["decisions"][i]["seat"] == seat and d["decisions"][i]["verdict"]
    # the board is scrolled into view
    assert browser.execute_script("return document.querySelector('main').getBoundingClientRect().top") < 120


def test_a_deal_s_link_opens_that_deal_at_its_start(browser, page):  # noqa: F811
    path, deals = page
    open_at(browser, path)
    rows = browser.find_elements(By.CSS_SELECTOR, "#deals a.goto")
    assert len(rows) == len(deals) == 3
    rows[2].click()
    assert re.fullmatch(r"#d3-t0-c0-s\d", where(browser))
    assert Select(browser.find_element(By.ID, "deal")).first_selected_option.text.startswith("3. deals.txt #3")
    assert browser.find_element(By.ID, "where").text == "start"
    assert "Before the play" in browser.find_element(By.ID, "decision").text
