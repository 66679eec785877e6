"""Which split a pair goes to (IndoNLI Section 3.3), from plain records."""

from annotation.task_types.base import GoldInfo
from annotation.task_types.nli.splits import build_pair, premise_split
from tests.annotation.task_types.nli.records import item

PREMISE = "Budi membeli tiga buku di Jakarta kemarin."


def _pair(outcome, *, label="entailment", author="entailment", settings=None, premise_id="p1", round_=1, **kwargs):
    record = item(1, premise=PREMISE, hypothesis="Budi membeli buku.", label=author, premise_id=premise_id, **kwargs)
    gold = None
    if outcome is not None:
        gold = GoldInfo(1, outcome, "", {"label": label if outcome == "gold" else None, "round": round_})
    return build_pair(record, gold, round_ if outcome else 0, settings or {"annotator_type": "lay"}, 7)


def test_expert_pairs_with_gold_go_to_test_expert_and_without_gold_are_left_out():
    expert = {"annotator_type": "expert"}

    assert (_pair("gold", settings=expert).split, _pair("gold", settings=expert).label) == ("test_expert", "entailment")
    assert (_pair("no_gold", settings=expert).split, _pair("no_gold", settings=expert).label) == ("excluded", None)


def test_lay_pairs_without_gold_and_pairs_not_validated_go_to_train_with_the_authors_label():
    no_gold = _pair("no_gold", author="neutral")
    never = _pair(None, author="contradiction")

    assert (no_gold.split, no_gold.label, no_gold.outcome, no_gold.round) == ("train", "neutral", "no_gold", 1)
    assert (never.split, never.label, never.outcome, never.round) == ("train", "contradiction", "not_validated", 0)


def test_a_pair_still_in_validation_has_no_split():
    pending = _pair("pending", judging_round=2)

    assert (pending.split, pending.label, pending.round) == ("pending", None, 2)


def test_lay_gold_goes_to_dev_or_test_by_premise_with_the_seed():
    gold = _pair("gold", label="neutral", author="entailment")

    assert gold.split == premise_split("p1", 7)
    assert gold.label == "neutral"  # the gold label, not the author's
    splits = [premise_split(f"p{n}", 7) for n in range(1000)]
    assert splits == [premise_split(f"p{n}", 7) for n in range(1000)]  # deterministic
    assert 450 < splits.count("dev") < 550  # half and half by default
    other_seed = [premise_split(f"p{n}", 8) for n in range(1000)]
    assert other_seed != splits
    assert set(splits) == {"dev", "test_lay"}
    assert premise_split("p1", 7, dev_percent=0) == "test_lay"
    assert premise_split("p1", 7, dev_percent=100) == "dev"


def test_the_pairs_of_one_premise_share_a_split():
    premises = {}
    pairs = [
        build_pair(
            item(n, premise=PREMISE, hypothesis=f"H {n}.", label="entailment", premise_id=f"p{n // 6}", unit_id=n // 6),
            GoldInfo(n, "gold", "", {"label": "entailment", "round": 1}),
            1,
            {"annotator_type": "lay"},
            3,
            premises,
        )
        for n in range(600)
    ]
    by_premise = {}
    for pair in pairs:
        by_premise.setdefault(pair.premise_id, set()).add(pair.split)

    assert all(len(splits) == 1 for splits in by_premise.values())
    assert {split for splits in by_premise.values() for split in splits} == {"dev", "test_lay"}


def test_a_released_split_wins():
    released = {"release": {"label": "c", "data_split": "test", "annotator_type": "lay"}}

    pair = _pair(None, author="contradiction", payload=released)
    against_ours = _pair("no_gold", author="neutral", payload=released)

    assert (pair.split, pair.label, pair.outcome, pair.data_split) == ("test_lay", "contradiction", "gold", "test")
    # validated here without gold, but the file put it in test: the file's split stays, our outcome too
    assert (against_ours.split, against_ours.outcome, against_ours.label) == ("test_lay", "no_gold", "contradiction")
    train = _pair(
        None, author="neutral", payload={"release": {"label": "n", "data_split": "train", "annotator_type": "lay"}}
    )
    assert (train.split, train.outcome, train.label) == ("train", "not_validated", "neutral")
