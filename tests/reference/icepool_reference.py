"""An independent reference for morale-lab's exact solver: icepool computes, from the rules'
words (docs/RULES.md), the chances the tool's exact solutions give, over a grid of settings.

Nothing here shares code with the tool: each mechanic is written again from its rule id with
icepool's dice (Die, reroll, map with repeat for turn-by-turn chains). The script prints one JSON
list of cases on standard output; `tests/reference.rs` runs each case through the library and
compares every value within 1e-12.

A case: {"system", "scenario", "set": ["KEY=VALUE", ...], "rule": [...], "options": [...],
"outcomes": {name: chance}, "metrics": {name: value}}. A metric that is a mean among some trials
(e.g. turns to recover, among units that recovered) is given only where those trials exist.
"""

import itertools
import json
import sys
from fractions import Fraction

import icepool
from icepool import d6

CASES = []


def case(system, scenario, sets, rules, options, outcomes, metrics):
    """Record one case; chances and means as Fractions, written as floats."""
    CASES.append(
        {
            "system": system,
            "scenario": scenario,
            "set": sets,
            "rule": rules,
            "options": options,
            "outcomes": {k: float(v) for k, v in outcomes.items()},
            "metrics": {k: float(v) for k, v in metrics.items()},
        }
    )


def chance(die, which):
    """P(which(outcome)) of a die, exactly."""
    total = die.denominator()
    hit = sum(q for o, q in die.items() if which(o))
    return Fraction(hit, total)


def mean(die, value, among=lambda o: True):
    """E[value(outcome) | among(outcome)], exactly; None if no outcome is among."""
    num = Fraction(0)
    den = 0
    for o, q in die.items():
        if among(o):
            num += q * value(o)
            den += q
    return None if den == 0 else num / den


# ---------------------------------------------------------------------------------------------
# Rank & File: RF-1 classes, RF-2 the test, RF-3 the 50% rule, RF-5 rally, RF-6 re-rolls.

RF_BASE = {"veteran": 3, "regular": 4, "green": 5}


def rf_rules(r):
    """The Rank & File rule numbers, the sources' values unless `r` changes them."""
    n = {
        "base_veteran": 3,
        "base_regular": 4,
        "base_green": 5,
        "loss_modifier": -1,
        "always_passes": 6,
        "always_fails": 1,
        "break_fraction": Fraction(1, 2),
        "rally_loss": 1,
        "buildings_bonus": 1,
        "elite_rerolls": 1,
    }
    for k, v in r.items():
        n[k] = Fraction(v) if k == "break_fraction" else int(v)
    return n


def rf_broken(n, stands, lost):
    """RF-3: a formed unit whose lost stands are at least the break fraction of its stands."""
    return lost >= n["break_fraction"] * stands


def rf_passes(n, base, modifier):
    """RF-2: a natural roll at or above always_passes passes, at or below always_fails fails,
    else the die plus modifiers must reach the base number."""

    def passes(x):
        if x >= n["always_passes"]:
            return True
        if x <= n["always_fails"]:
            return False
        return x + modifier >= base

    return passes


def rf_test_die(n, base, modifier, broken, may_reroll):
    """One test as a die over (passed, re-rolled): RF-3's automatic failure is never re-rolled
    (no roll can change it); otherwise a failed roll is rolled again once when allowed (RF-6)."""
    if broken:
        return icepool.Die([(False, False)])
    passes = rf_passes(n, base, modifier)
    if not may_reroll:
        return d6.map(lambda x: (passes(x), False))
    return d6.map(lambda x: (True, False) if passes(x) else d6.map(lambda y: (passes(y), True)))


def rf_tests():
    for cls, stands, leader, (elite, rerolls), (buildings, modifier), rules in itertools.product(
        ["veteran", "regular", "green"],
        [3, 8],
        [0, 2],
        [(False, 0), (True, 0), (False, 2)],
        [(False, 0), (True, 0), (False, -2), (False, 1)],
        [{}, {"base_green": 6, "always_passes": 7}, {"loss_modifier": -2, "always_fails": 0},
         {"break_fraction": "1/3", "buildings_bonus": 2}],
    ):
        n = rf_rules(rules)
        for lost in range(stands):
            base = n["base_" + cls]
            mod = n["loss_modifier"] * lost + leader + (n["buildings_bonus"] if buildings else 0) + modifier
            broken = rf_broken(n, stands, lost)
            die = rf_test_die(n, base, mod, broken, elite or rerolls > 0)
            p = chance(die, lambda o: o[0])
            case(
                "rank-and-file",
                "test",
                [f"class={cls}", f"stands={stands}", f"lost={lost}", f"leader={leader}",
                 f"elite={str(elite).lower()}", f"rerolls={rerolls}",
                 f"in_buildings={str(buildings).lower()}", f"modifier={modifier}"],
                [f"{k}={v}" for k, v in rules.items()],
                [],
                {"pass": p, "fail": 1 - p},
                {"rerolled": chance(die, lambda o: o[1])},
            )


def rf_rally(n, cls, stands, lost0, state0, leader, buildings, elite, rerolls, turns):
    """RF-5: each rally phase an Unsteady or Routing unit below the 50% rule tests (leader,
    buildings and losses count; the situational modifier does not). Pass: one level up. Fail:
    an Unsteady unit stays; a Routing one routs on and loses rally_loss stands, then RF-3
    disperses it at once. Re-rolls (RF-6): Elite's allowance first, then the commander's pool,
    at most one a test. Up to the turn cap; returns the die of end states
    (level, lost, rerolls used, turn recovered or removed, why removed)."""
    base = n["base_" + cls]
    start = (state0, lost0, elite and n["elite_rerolls"] or 0, rerolls, 0, 0, "")

    def step(s):
        level, lost, elite_left, pool, used, turn, why = s
        if level in ("good", "removed"):
            return s
        turn += 1
        broken = rf_broken(n, stands, lost)
        if level == "unsteady" and broken:
            # At 50% a unit may not rally: it takes no test and stays where it is.
            return (level, lost, elite_left, pool, used, turn, why)
        mod = n["loss_modifier"] * lost + leader + (n["buildings_bonus"] if buildings else 0)
        may = elite_left > 0 or pool > 0
        test = rf_test_die(n, base, mod, broken, may)

        def after(res):
            passed, rerolled = res
            e, p, u = elite_left, pool, used
            if rerolled:
                u += 1
                if e > 0:
                    e -= 1
                else:
                    p -= 1
            if passed:
                return ("unsteady" if level == "routing" else "good", lost, e, p, u, turn, "")
            if level == "unsteady":
                return (level, lost, e, p, u, turn, "")
            now = min(stands, lost + n["rally_loss"])
            if now >= stands:
                return ("removed", now, e, p, u, turn, "destroyed")
            if rf_broken(n, stands, now):
                return ("removed", now, e, p, u, turn, "dispersed")
            return ("routing", now, e, p, u, turn, "")

        return test.map(after)

    return icepool.Die([start]).map(step, repeat=turns)


def rf_rallies():
    for cls, stands, (leader, buildings), (elite, rerolls), state, turns, rules in itertools.product(
        ["veteran", "regular", "green"],
        [4, 7],
        [(0, False), (1, False), (0, True)],
        [(False, 0), (True, 0), (False, 1), (True, 3)],
        ["routing", "unsteady"],
        [1, 12],
        [{}, {"rally_loss": 2, "base_veteran": 2}, {"elite_rerolls": 3, "break_fraction": "2/3"}],
    ):
        n = rf_rules(rules)
        for lost in range(stands):
            if rf_broken(n, stands, lost):
                break
            end = rf_rally(n, cls, stands, lost, state, leader, buildings, elite, rerolls, turns)
            level = lambda o: o[0]
            metrics = {
                "stands_lost": mean(end, lambda o: o[1]),
                "rerolls_used": mean(end, lambda o: o[4]),
                "removed_destroyed": chance(end, lambda o: o[6] == "destroyed"),
                "removed_dispersed": chance(end, lambda o: o[6] == "dispersed"),
            }
            for name, lv in [("turns_to_recover", "good"), ("turns_to_removal", "removed")]:
                m = mean(end, lambda o: o[5], lambda o: o[0] == lv)
                if m is not None:
                    metrics[name] = m
            case(
                "rank-and-file",
                "rally",
                [f"class={cls}", f"stands={stands}", f"lost={lost}", f"state={state}",
                 f"leader={leader}", f"in_buildings={str(buildings).lower()}",
                 f"elite={str(elite).lower()}", f"rerolls={rerolls}", f"turns={turns}"],
                [f"{k}={v}" for k, v in rules.items()],
                [],
                {
                    "recovered": chance(end, lambda o: level(o) == "good"),
                    "removed": chance(end, lambda o: level(o) == "removed"),
                    "unsteady": chance(end, lambda o: level(o) == "unsteady"),
                    "routing": chance(end, lambda o: level(o) == "routing"),
                },
                metrics,
            )


# ---------------------------------------------------------------------------------------------
# The effectiveness house rule: EF-2 the test, EF-5 the return roll.

EF_SCORE = {"elite": 3, "regular": 4, "poor": 5}


def ef_tests():
    for cls, general, supported, one_fails, rules in itertools.product(
        ["elite", "regular", "poor"],
        [False, True],
        [False, True],
        [False, True],
        [{}, {"score_poor": 6, "general_bonus": 2}, {"support_bonus": 0, "score_elite": 1}],
    ):
        score = int(rules.get("score_" + cls, EF_SCORE[cls]))
        mod = (int(rules.get("general_bonus", 1)) if general else 0) + (
            int(rules.get("support_bonus", 1)) if supported else 0
        )
        # EF-2: die plus modifiers must reach the score; no automatic failure unless the
        # optional rule makes a natural 1 fail.
        die = d6.map(lambda x: not (one_fails and x == 1) and x + mod >= score)
        p = chance(die, lambda o: o)
        case(
            "effectiveness",
            "test",
            [f"class={cls}", f"general={str(general).lower()}",
             f"supported={str(supported).lower()}"],
            [f"{k}={v}" for k, v in rules.items()],
            ["natural-one-fails"] if one_fails else [],
            {"pass": p, "fail": 1 - p},
            {},
        )


def ef_returns():
    for general, turns, rules in itertools.product(
        [False, True],
        [1, 2, 5, 12],
        [{}, {"return_on": 4}, {"return_on": 6, "return_general_bonus": 2}],
    ):
        need = int(rules.get("return_on", 5))
        bonus = int(rules.get("return_general_bonus", 1)) if general else 0
        # EF-5: at the start of each of its moves a retreating unit rolls; on the number it is
        # back in normal action. State: (back, turn it came back).
        roll = d6.map(lambda x: x + bonus >= need)

        def step(s):
            back, turn, t = s
            if back:
                return s
            return roll.map(lambda ok: (ok, t + 1 if ok else 0, t + 1))

        end = icepool.Die([(False, 0, 0)]).map(step, repeat=turns)
        metrics = {}
        m = mean(end, lambda o: o[1], lambda o: o[0])
        if m is not None:
            metrics["turns_to_return"] = m
        p = chance(end, lambda o: o[0])
        case(
            "effectiveness",
            "rally",
            [f"general={str(general).lower()}", f"turns={turns}"],
            [f"{k}={v}" for k, v in rules.items()],
            ["return-roll"],
            {"back_in_action": p, "still_retreating": 1 - p},
            metrics,
        )


# ---------------------------------------------------------------------------------------------
# The Age of Linear Warfare: LW-4 the opposed round, LW-2 the volley, LW-3/LW-4 a melee.


def lw_rounds():
    for diff in range(-6, 7):
        # LW-4: each side rolls a D6 and adds its modifiers; the higher total wins.
        out = icepool.map(lambda a, b: "win" if a + diff > b else "draw" if a + diff == b else "lose", d6, d6)
        case(
            "linear-warfare",
            "test",
            [f"difference={diff}"],
            [],
            [],
            {k: chance(out, lambda o, k=k: o == k) for k in ["win", "draw", "lose"]},
            {},
        )


def lw_volleys():
    settings = []
    for stands, cover, flank, rules in itertools.product(
        [1, 3, 6, 12],
        [False, True],
        [False, True],
        [{}, {"to_hit": 6, "cover_penalty": 2}, {"to_hit": 2, "flank_bonus": 3}, {"to_hit": 7}],
    ):
        settings.append(("infantry", stands, None, cover, flank, rules))
    for band, cover in itertools.product([1, 2, 3, 4], [False, True]):
        settings.append(("artillery", None, band, cover, False, {}))
        settings.append(("artillery", None, band, cover, False, {"artillery_dice_%d" % band: 7}))
    for fire_from, stands, band, cover, flank, rules in settings:
        to_hit = int(rules.get("to_hit", 4))
        # LW-2: every die hits on to_hit+, worse by cover_penalty against cover, better by
        # flank_bonus for flanking fire, the roll kept within 1 to 7 (7: nothing hits).
        need = to_hit + (int(rules.get("cover_penalty", 1)) if cover else 0) - (
            int(rules.get("flank_bonus", 1)) if flank else 0
        )
        need = min(7, max(1, need))
        if fire_from == "infantry":
            dice = stands
            sets = [f"test=volley", f"stands={stands}"]
        else:
            dice = int(rules.get("artillery_dice_%d" % band, [5, 3, 2, 1][band - 1]))
            sets = ["test=volley", "fire_from=artillery", f"range_band={band}"]
        sets += [f"cover={str(cover).lower()}", f"flanking={str(flank).lower()}"]
        hits = dice @ d6.map(lambda x: 1 if x >= need else 0) if dice else icepool.Die([0])
        outcomes = {f"hits_{k}": chance(hits, lambda o, k=k: o == k) for k in range(dice + 1)}
        case("linear-warfare", "test", sets, [f"{k}={v}" for k, v in rules.items()], [],
             outcomes, {"hits": hits.mean()})


LW_PIPS = {"line": 6, "guards": 7, "light": 4, "cavalry": 6}


def lw_melee(a, d, follow_up, r):
    """LW-3 and LW-4, as the rules' words read (docs/RULES.md): a double move costs the
    charger double_move_cost pips first; a charged unit that shoots (not cavalry) gives closing
    fire, a die a stand on to_hit+, each hit a pip. Then opposed rounds: +guards_bonus for Guards,
    +pip_gap_bonus for pip_gap or more pips than the opponent (every round), in the first round
    +charge_bonus for the charger and +obstacle_bonus behind a linear obstacle, in a follow-up
    round +follow_up_bonus for the side following up (the charger's +charge_bonus in every round
    under charge_bonus_rounds=every). A charger the closing fire leaves on its last pip may take
    no offensive action: it halts, no melee. The loser of a round loses a pip; its
    losses_to_destroy-th lost round or its last pip destroys it. The winner follows up (policy
    `always`) unless on its last pip. "Draws result in a mutual push-back": any drawn round is a
    bounce (under follow_up_draw=earlier-winner a drawn follow-up ends the melee won by the side
    following up). Returns the die of end states."""
    g = lambda k, dflt: int(r.get(k, dflt))
    guards_b, charge_b, obst_b = g("guards_bonus", 1), g("charge_bonus", 1), g("obstacle_bonus", 1)
    gap, gap_b, follow_b = g("pip_gap", 2), g("pip_gap_bonus", 1), g("follow_up_bonus", 1)
    to_destroy, to_hit, dm_cost = g("losses_to_destroy", 2), g("to_hit", 4), g("double_move_cost", 1)
    draw_to_earlier = r.get("follow_up_draw", "push-back") == "earlier-winner"
    charge_every = r.get("charge_bonus_rounds", "first") == "every"
    a_pips = a["pips"] - (dm_cost if a["double"] else 0)
    d_pips = d["pips"]

    def destroyed(pips, lost):
        return pips == 0 or (to_destroy > 0 and lost >= to_destroy)

    def mods(side, me, them, first, following):
        m = guards_b if side["type"] == "guards" else 0
        if first:
            m += (charge_b if side["charging"] else 0) + (obst_b if side["obstacle"] else 0)
        else:
            m += follow_b if following else 0
            m += charge_b if side["charging"] and charge_every else 0
        if me >= them + gap:
            m += gap_b
        return m

    # State: (over, a pips, d pips, a rounds lost, d rounds lost, rounds, follower).
    def round_(s):
        over, ap, dp, al, dl, rounds, follower = s
        if over:
            return s
        first = follower == 0
        am = mods(a, ap, dp, first, follower == 1)
        dm = mods(d, dp, ap, first, follower == 2)

        def result(x, y):
            at, dt = x + am, y + dm
            if at == dt:
                end = "bounce"
                if not first and draw_to_earlier:
                    end = "attacker_wins" if follower == 1 else "defender_wins"
                return (end, ap, dp, al, dl, rounds + 1, follower)
            if at > dt:
                np, nl = dp - 1, dl + 1
                if destroyed(np, nl) or follow_up == "never" or ap <= 1:
                    return ("attacker_wins", ap, np, al, nl, rounds + 1, 1)
                return ("", ap, np, al, nl, rounds + 1, 1)
            np, nl = ap - 1, al + 1
            if destroyed(np, nl) or follow_up == "never" or dp <= 1:
                return ("defender_wins", np, dp, nl, dl, rounds + 1, 2)
            return ("", np, dp, nl, dl, rounds + 1, 2)

        return icepool.map(result, d6, d6)

    start = icepool.Die([("", a_pips, d_pips, 0, 0, 0, 0)])
    if a["charging"] and d["type"] != "cavalry":
        fire = d["stands"] @ d6.map(lambda x: 1 if x >= min(7, max(1, to_hit)) else 0)
        start = fire.map(lambda h: ("defender_wins" if h >= a_pips else "halted" if h == a_pips - 1 else "",
                                    max(0, a_pips - h), d_pips, 0, 0, 0, 0))
    # At most 2k - 1 rounds with losses_to_destroy = k, else as many as both sides have pips.
    most = 2 * to_destroy - 1 if to_destroy else a_pips + d_pips
    end = start.map(round_, repeat=most)
    return end, a_pips, d_pips, destroyed


def lw_melees():
    def spec(t, pips, stands, charging=False, double=False, obstacle=False):
        words = [t, f"pips={pips}", f"stands={stands}"]
        if double:
            words.append("double-move")
        elif charging:
            words.append("charging")
        if obstacle:
            words.append("obstacle")
        return {"type": t, "pips": pips, "stands": stands, "charging": charging or double,
                "double": double, "obstacle": obstacle, "text": " ".join(words)}

    attackers = [
        spec("line", 6, 6), spec("guards", 7, 6, charging=True), spec("light", 4, 4, charging=True),
        spec("cavalry", 6, 4, double=True), spec("line", 2, 3, charging=True), spec("guards", 9, 8, double=True),
    ]
    defenders = [
        spec("line", 6, 6), spec("line", 6, 6, obstacle=True), spec("guards", 7, 2),
        spec("cavalry", 6, 4), spec("light", 3, 12, obstacle=True), spec("line", 1, 6),
    ]
    rule_sets = [{}, {"follow_up_bonus": 2, "pip_gap": 1}, {"losses_to_destroy": 3, "charge_bonus": 2},
                 {"losses_to_destroy": 0, "guards_bonus": 0}, {"obstacle_bonus": 3, "double_move_cost": 2, "to_hit": 5},
                 {"follow_up_draw": "earlier-winner", "charge_bonus_rounds": "every"}]
    for a, d, follow_up, r in itertools.product(attackers, defenders, ["always", "never"], rule_sets):
        if a["double"] and a["pips"] <= int(r.get("double_move_cost", 1)):
            continue
        end, a_pips, d_pips, destroyed = lw_melee(a, d, follow_up, r)
        outcomes = {k: chance(end, lambda o, k=k: o[0] == k)
                    for k in ["attacker_wins", "defender_wins", "bounce", "halted"]}
        assert sum(outcomes.values()) == 1, "a melee that did not end"
        metrics = {
            "rounds": mean(end, lambda o: o[5]),
            "attacker_pips_lost": mean(end, lambda o: a_pips - o[1]),
            "defender_pips_lost": mean(end, lambda o: d_pips - o[2]),
            "attacker_destroyed": chance(end, lambda o: destroyed(o[1], o[3])),
            "defender_destroyed": chance(end, lambda o: destroyed(o[2], o[4])),
        }
        case("linear-warfare", "melee",
             [f"attacker={a['text']}", f"defender={d['text']}", f"follow_up={follow_up}"],
             [f"{k}={v}" for k, v in r.items()], [], outcomes, metrics)


# ---------------------------------------------------------------------------------------------
# Mechanic files: the worked example of docs/MECHANICS.md and house rule H-2, from their words.


def first_rally():
    """mechanics/examples/first-rally.rhai: each turn a D6 plus the leader's bonus rallies on
    rally_on or more (X-2); a failure costs a stand, and at half its stands lost the unit breaks
    (X-3)."""
    for stands, leader, rally_on, turns in itertools.product(
        [2, 5, 6, 12], [0, 1, 2], [2, 4, 6, 7], [1, 3, 8]
    ):
        roll = d6.map(lambda x: x + leader >= rally_on)

        def step(s):
            status, lost, t, when = s
            if status != "shaken":
                return s
            def after(ok):
                if ok:
                    return ("rallied", lost, t + 1, t + 1)
                return ("broken" if 2 * (lost + 1) >= stands else "shaken", lost + 1, t + 1, 0)
            return roll.map(after)

        end = icepool.Die([("shaken", 0, 0, 0)]).map(step, repeat=turns)
        outcomes = {k: chance(end, lambda o, k=k: o[0] == k) for k in ("rallied", "broken", "shaken")}
        metrics = {"stands_lost": mean(end, lambda o: o[1])}
        m = mean(end, lambda o: o[3], lambda o: o[0] == "rallied")
        if m is not None:
            metrics["turns_to_rally"] = m
        case("mechanics/examples/first-rally.rhai", "rally",
             [f"stands={stands}", f"leader={leader}", f"turns={turns}"],
             [f"rally_on={rally_on}"], [], outcomes, metrics)


def house_return_at_a_cost():
    """mechanics/house/ef-return-at-a-cost.rhai (H-2): under the return roll a retreating unit
    comes back on 4+ (+1 with a general, EF-5), losing a further step as it does; at its last
    step that eliminates it."""
    for lost, general, turns in itertools.product([0, 2, 3], [False, True], [1, 2, 6]):
        need = 4 - (1 if general else 0)
        roll = d6.map(lambda x: x >= need)
        steps = 4 - lost

        def step(s):
            status, left, t, when = s
            if status != "retreating":
                return s
            def after(ok):
                if not ok:
                    return ("retreating", left, t + 1, 0)
                if left - 1 == 0:
                    return ("eliminated", 0, t + 1, 0)
                return ("in_line", left - 1, t + 1, t + 1)
            return roll.map(after)

        end = icepool.Die([("retreating", steps, 0, 0)]).map(step, repeat=turns)
        back = chance(end, lambda o: o[0] == "in_line")
        metrics = {}
        m = mean(end, lambda o: o[3], lambda o: o[0] == "in_line")
        if m is not None:
            metrics["turns_to_return"] = m
        case("mechanics/house/ef-return-at-a-cost.rhai", "rally",
             [f"lost={lost}", f"general={str(general).lower()}", f"turns={turns}"], [],
             ["return-roll"],
             {"back_in_action": back, "still_retreating": chance(end, lambda o: o[0] == "retreating")},
             metrics)


def main():
    first_rally()
    house_return_at_a_cost()
    rf_tests()
    rf_rallies()
    ef_tests()
    ef_returns()
    lw_rounds()
    lw_volleys()
    lw_melees()
    json.dump({"icepool": icepool.__version__, "cases": CASES}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
