"""Rules configuration (docs/rules.md, "Deal" and "Variants"): named variants, deal sizes, poignée thresholds."""

import pytest

from analyzer.errors import RulesError, TarotError
from analyzer.rules import (CHIEN_SIZE, HAND_SIZE, VARIANTS, Contract, PoigneeLevel, Rules, target_half_points)

VARIANT_VALUES = [(name, value) for name, (values, _) in VARIANTS.items() for value in values]

# docs/rules.md "Variants" table: option -> (default, alternatives)
RULES_MD_VARIANTS = {
    "petit-au-bout": ("multiplied", {"flat"}),
    "poignee-values": ("20-30-40", {"20-40-60"}),
    "petit-sec": ("annul", {"play"}),
    "all-pass": ("redeal", {"goulash"}),
    "misere": ("off", {"on"}),
    "lone-taker-share": ("4", set()),
    "chelem": ("fft", {"petit-chelem"}),
}


def test_variants_table_matches_rules_md():
    assert set(VARIANTS) == set(RULES_MD_VARIANTS)
    for name, (default, alternatives) in RULES_MD_VARIANTS.items():
        values, code_default = VARIANTS[name]
        assert code_default == default, name
        assert set(values) == {default} | alternatives, name
        assert values[0] == default, name


def test_default_rules_are_fft_at_four_players():
    rules = Rules()
    assert rules.players == 4
    assert rules.describe() == {"players": 4, **{n: d for n, (d, _) in RULES_MD_VARIANTS.items()}}
    assert Rules.from_options() == rules
    assert Rules.from_options(4, []) == rules


@pytest.mark.parametrize("name,value", VARIANT_VALUES)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_variant_value(name, value, players):
    rules = Rules.from_options(players, [f"{name}={value}"])
    assert rules.players == players
    assert rules.describe()[name] == value
    assert getattr(rules, name.replace("-", "_")) == value
    # the other options keep their default
    for other, (_, default) in VARIANTS.items():
        if other != name:
            assert rules.describe()[other] == default


@pytest.mark.parametrize("name,value", VARIANT_VALUES)
def test_variant_names_and_values_are_case_and_space_tolerant(name, value):
    assert Rules.from_options(4, [f" {name.upper()} = {value.upper()} "]) == Rules.from_options(4, [f"{name}={value}"])


def test_several_variants_at_once():
    rules = Rules.from_options(5, ["petit-au-bout=flat", "poignee-values=20-40-60", "all-pass=goulash",
                                   "misere=on", "chelem=petit-chelem", "petit-sec=play"])
    assert rules.describe() == {"players": 5, "petit-au-bout": "flat", "poignee-values": "20-40-60",
                                "petit-sec": "play", "all-pass": "goulash", "misere": "on",
                                "lone-taker-share": "4", "chelem": "petit-chelem"}


@pytest.mark.parametrize("item", ["colour=red", "petit-au-bou=flat", "poignees=20-40-60", "xyz=1"])
def test_unknown_variant_name_is_named(item):
    name = item.split("=")[0]
    with pytest.raises(RulesError) as info:
        Rules.from_options(4, [item])
    assert repr(name) in str(info.value)
    assert isinstance(info.value, TarotError) and isinstance(info.value, ValueError)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_unknown_variant_value_is_named(name):
    with pytest.raises(RulesError) as info:
        Rules.from_options(4, [f"{name}=bogus"])
    assert name in str(info.value)
    assert "bogus" in str(info.value)


@pytest.mark.parametrize("item", ["petit-au-bout", "petit-au-bout="])
def test_malformed_variant_is_named(item):
    with pytest.raises(RulesError) as info:
        Rules.from_options(4, [item])
    assert item.strip("=") in str(info.value)


def test_variant_without_a_name_is_refused():
    with pytest.raises(RulesError) as info:
        Rules.from_options(4, ["=flat"])
    assert "'=flat'" in str(info.value)


@pytest.mark.parametrize("players", [0, 2, 6])
def test_unsupported_player_count(players):
    with pytest.raises(RulesError) as info:
        Rules(players=players)
    assert str(players) in str(info.value)
    with pytest.raises(RulesError):
        Rules.from_options(players)


# --- deal sizes and poignée thresholds (docs/rules.md, "Deal") ----------------------------------

@pytest.mark.parametrize("players,hand,chien,thresholds", [
    (3, 24, 6, (13, 15, 18)),
    (4, 18, 6, (10, 13, 15)),
    (5, 15, 3, (8, 10, 13)),
])
def test_deal_sizes_and_poignee_thresholds(players, hand, chien, thresholds):
    rules = Rules(players=players)
    assert (rules.hand_size, rules.chien_size, rules.tricks) == (hand, chien, hand)
    assert (HAND_SIZE[players], CHIEN_SIZE[players]) == (hand, chien)
    assert players * hand + chien == 78
    assert rules.poignee_thresholds == thresholds
    assert rules.with_players(players) == rules


def test_half_point_rule_only_at_three_and_five_players():
    assert [Rules(players=p).half_point_rule for p in (3, 4, 5)] == [True, False, True]


@pytest.mark.parametrize("values,expected", [("20-30-40", (20, 30, 40)), ("20-40-60", (20, 40, 60))])
def test_poignee_bonus_values(values, expected):
    rules = Rules(poignee_values=values)
    assert tuple(rules.poignee_bonus(level) for level in PoigneeLevel) == expected


@pytest.mark.parametrize("contract,mult", [(Contract.PRISE, 1), (Contract.GARDE, 2), (Contract.GARDE_SANS, 4),
                                           (Contract.GARDE_CONTRE, 6)])
def test_contracts_and_petit_au_bout_bonus(contract, mult):
    assert contract.multiplier == mult
    assert Rules().petit_au_bout_bonus(contract) == 10 * mult
    assert Rules(petit_au_bout="flat").petit_au_bout_bonus(contract) == 10


def test_contract_order_and_chien():
    assert sorted(Contract) == [Contract.PRISE, Contract.GARDE, Contract.GARDE_SANS, Contract.GARDE_CONTRE]
    assert [c.chien_shown for c in Contract] == [True, True, False, False]
    assert [c.chien_to_taker for c in Contract] == [True, True, True, False]


@pytest.mark.parametrize("text,contract", [("prise", Contract.PRISE), ("Petite", Contract.PRISE),
                                           ("garde", Contract.GARDE), ("garde-sans", Contract.GARDE_SANS),
                                           ("garde sans le chien", Contract.GARDE_SANS),
                                           ("GARDE_CONTRE", Contract.GARDE_CONTRE),
                                           ("garde-contre-le-chien", Contract.GARDE_CONTRE)])
def test_contract_parse(text, contract):
    assert Contract.parse(text) == contract


def test_unknown_contract_is_named():
    with pytest.raises(RulesError) as info:
        Contract.parse("grande")
    assert "'grande'" in str(info.value)


@pytest.mark.parametrize("oudlers,half", [(0, 112), (1, 102), (2, 82), (3, 72)])
def test_targets(oudlers, half):
    assert target_half_points(oudlers) == half


@pytest.mark.parametrize("oudlers", [-1, 4])
def test_bad_oudler_count(oudlers):
    with pytest.raises(RulesError):
        target_half_points(oudlers)
