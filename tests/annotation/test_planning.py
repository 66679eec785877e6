"""The balanced planner is a pure function: no database."""

from collections import Counter

import pytest

from annotation.planning import PlanningError, Unit, loads_by_group, plan_balanced, plan_balanced_columns


def _units(groups: int, per_group: int) -> list[Unit]:
    return [Unit(id=g * 1000 + i, group=g) for g in range(groups) for i in range(per_group)]


def test_every_unit_gets_k_distinct_workers_and_loads_are_within_one_per_group():
    units = _units(groups=5, per_group=10)
    slots = plan_balanced(units=units, workers=list(range(1, 7)), per_unit=2, seed=7)

    per_unit = Counter(s.unit_id for s in slots)
    assert set(per_unit.values()) == {2}
    assert len(per_unit) == 50
    assert all(len({s.worker_id for s in slots if s.unit_id == u.id}) == 2 for u in units)
    loads = loads_by_group([(s.unit_id, s.worker_id) for s in slots], {u.id: u.group for u in units})
    for group_loads in loads.values():
        # 10 concepts x 2 authors / 6 annotators = 3.33: everyone has 3 or 4.
        assert sorted(set(group_loads.values())) == [3, 4]
        assert len(group_loads) == 6
    totals = Counter(s.worker_id for s in slots)
    assert max(totals.values()) - min(totals.values()) <= 1
    assert sum(totals.values()) == 100


def test_same_seed_same_plan_other_seed_other_plan():
    units = _units(groups=2, per_group=7)
    a = plan_balanced(units=units, workers=[1, 2, 3, 4], per_unit=2, seed=1)
    b = plan_balanced(units=units, workers=[4, 3, 2, 1], per_unit=2, seed=1)
    c = plan_balanced(units=units, workers=[1, 2, 3, 4], per_unit=2, seed=2)
    assert a == b
    assert a != c


def test_held_work_counts_and_is_not_planned_again():
    units = _units(groups=1, per_group=4)
    held = {units[0].id: {1, 2}, units[1].id: {1}}
    slots = plan_balanced(units=units, workers=[1, 2, 3], per_unit=2, seed=0, held=held)

    assert [s for s in slots if s.unit_id == units[0].id] == []
    assert [s.worker_id for s in slots if s.unit_id == units[1].id] != [1]
    assert 1 not in {s.worker_id for s in slots if s.unit_id == units[1].id}
    totals = Counter(s.worker_id for s in slots)
    for _unit_id, workers in held.items():
        for w in workers:
            totals[w] += 1
    assert sorted(totals.values()) == [2, 3, 3]


def test_excluded_worker_never_gets_the_unit():
    units = _units(groups=1, per_group=30)
    excluded = {u.id: {u.id % 6 + 1} for u in units}
    slots = plan_balanced(units=units, workers=list(range(1, 7)), per_unit=5, seed=3, excluded=excluded)
    assert all(s.worker_id not in excluded[s.unit_id] for s in slots)
    assert Counter(s.unit_id for s in slots) == {u.id: 5 for u in units}
    assert sorted(Counter(s.worker_id for s in slots).values()) == [25] * 6


def test_not_enough_workers_is_refused():
    with pytest.raises(PlanningError, match="needs 3 workers but only 2 are eligible"):
        plan_balanced(units=_units(1, 1), workers=[1, 2], per_unit=3, seed=0)


def _pairs(slots) -> set[tuple[int, int]]:
    return {(s.unit_id, s.worker_id) for s in slots}


def _preferred(pairs) -> dict[int, set[int]]:
    out: dict[int, set[int]] = {}
    for unit_id, worker in pairs:
        out.setdefault(unit_id, set()).add(worker)
    return out


def _assert_balanced_per_group(slots, units):
    loads = loads_by_group([(s.unit_id, s.worker_id) for s in slots], {u.id: u.group for u in units})
    for group_loads in loads.values():
        assert max(group_loads.values()) - min(group_loads.values()) <= 1


def test_when_a_worker_leaves_only_their_units_move():
    units = _units(groups=5, per_group=20)
    first = _pairs(plan_balanced(units=units, workers=[1, 2, 3, 4, 5, 6], per_unit=2, seed=5))

    slots = plan_balanced(
        units=units, workers=[1, 2, 3, 4, 5], per_unit=2, seed=5, preferred=_preferred(p for p in first if p[1] != 6)
    )

    second = _pairs(slots)
    staying = {p for p in first if p[1] != 6}
    assert len(staying) == 166
    # The leaver's 34 units are dealt out; a handful more move only to make the totals equal.
    assert len(staying - second) == 6
    assert Counter(s.worker_id for s in slots) == {1: 40, 2: 40, 3: 40, 4: 40, 5: 40}
    _assert_balanced_per_group(slots, units)


def test_when_a_worker_joins_they_get_a_fair_share_and_nothing_else_moves():
    units = _units(groups=5, per_group=20)
    first = _pairs(plan_balanced(units=units, workers=[1, 2, 3, 4, 5], per_unit=2, seed=5))

    slots = plan_balanced(units=units, workers=[1, 2, 3, 4, 5, 6], per_unit=2, seed=5, preferred=_preferred(first))

    second = _pairs(slots)
    newcomer = {p for p in second if p[1] == 6}
    totals = Counter(s.worker_id for s in slots)
    assert sorted(totals.values()) == [33, 33, 33, 33, 34, 34]
    # Only the newcomer's share moved; everything else stayed with its earlier holder.
    assert second - first == newcomer
    assert len(first - second) == len(newcomer) == totals[6]
    _assert_balanced_per_group(slots, units)


def test_preferred_work_is_capped_so_balance_survives_a_lopsided_old_plan():
    units = _units(groups=1, per_group=12)
    # An old plan that gave worker 1 every unit.
    slots = plan_balanced(units=units, workers=[1, 2, 3], per_unit=1, seed=0, preferred={u.id: {1} for u in units})
    assert sorted(Counter(s.worker_id for s in slots).values()) == [4, 4, 4]


def _fill_by_sorting(group, group_units, per_unit, held, excluded, planned, workers, ranks, group_load, total_load):
    """The rule the planner's heap implements, written plainly: each unit's open slots go to its eligible
    workers sorted by (load in the group, total load, rank)."""
    for unit in group_units:
        taken = set(held.get(unit.id, ())) | set(planned.get(unit.id, ()))
        need = per_unit - len(taken)
        if need <= 0:
            continue
        eligible = [w for w in workers if w not in taken and w not in set(excluded.get(unit.id, ()))]
        eligible.sort(key=lambda w: (group_load[(group, w)], total_load[w], ranks[w]))
        if len(eligible) < need:
            raise PlanningError(f"Unit {unit.id} needs {per_unit} workers but only {len(taken) + len(eligible)}")
        for w in eligible[:need]:
            planned.setdefault(unit.id, []).append(w)
            group_load[(group, w)] += 1
            total_load[w] += 1


@pytest.mark.parametrize("seed", range(40))
def test_the_heap_chooses_what_sorting_every_unit_chooses(seed, monkeypatch):
    """Random plans with held, excluded and preferred work: the same slots as the plain rule."""
    import random

    import annotation.planning as planning

    rng = random.Random(seed)
    workers = rng.sample(range(1, 40), rng.randint(3, 9))
    per_unit = rng.randint(1, len(workers) - 2)
    units = [Unit(id=i, group=rng.randrange(3)) for i in rng.sample(range(1, 500), rng.randint(5, 60))]
    held = {u.id: set(rng.sample(workers, rng.randint(0, per_unit))) for u in units if rng.random() < 0.3}
    excluded = {u.id: {rng.choice(workers)} - held.get(u.id, set()) for u in units if rng.random() < 0.7}
    preferred = {u.id: set(rng.sample(workers, rng.randint(1, 2))) for u in units if rng.random() < 0.2}
    args = {"units": units, "workers": workers, "per_unit": per_unit, "seed": seed}
    args.update(held=held, excluded=excluded, preferred=preferred)

    fast = plan_balanced(**args)
    monkeypatch.setattr(planning, "_fill_least_loaded", _fill_by_sorting)
    plain = plan_balanced(**args)

    assert fast == plain
    assert len(fast) > 0


def test_the_columns_are_the_slots_in_queue_order():
    units = _units(3, 4)  # 12 units
    excluded = {u.id: {u.id % 5 + 1} for u in units}
    args = {"units": units, "workers": [1, 2, 3, 4, 5], "per_unit": 4, "seed": 9, "excluded": excluded}

    unit_ids, worker_ids = plan_balanced_columns(**args)

    assert [tuple(s) for s in plan_balanced(**args)] == [
        (u, w, position) for position, (u, w) in enumerate(zip(unit_ids, worker_ids, strict=True))
    ]
    assert len(unit_ids) == 48
    # A unit's slots are consecutive (the blocks of a big plan keep whole units), each worker once.
    starts = [n for n in range(len(unit_ids)) if n == 0 or unit_ids[n] != unit_ids[n - 1]]
    assert [unit_ids[n] for n in starts] == list(dict.fromkeys(unit_ids)) and len(starts) == 12
    assert all(
        len(set(worker_ids[n : n + 4])) == 4 and excluded[unit_ids[n]].isdisjoint(worker_ids[n : n + 4]) for n in starts
    )
