"""The crowd-kit fit on integer codes: the posteriors crowd-kit gives on the labels themselves, abilities
that rank a wrong annotator last, and one item's posterior recomputed from stored parameters."""

import pandas as pd
import pytest
from crowdkit.aggregation import DawidSkene

from annotation.aggregation.fitting import DAWID_SKENE, MODELS, encode, fit, item_posterior, wilson

# Six items, four annotators, three labels: W1-W3 mostly agree, W9 always gives a wrong label.
MATRIX = [
    # item, annotator, label
    (101, 1, "e"), (101, 2, "e"), (101, 3, "e"), (101, 9, "n"),
    (102, 1, "n"), (102, 2, "n"), (102, 3, "c"), (102, 9, "c"),
    (103, 1, "c"), (103, 2, "c"), (103, 3, "c"), (103, 9, "e"),
    (104, 1, "e"), (104, 2, "n"), (104, 3, "e"), (104, 9, "c"),
    (105, 1, "n"), (105, 2, "n"), (105, 3, "n"), (105, 9, "e"),
    (106, 1, "c"), (106, 2, "e"), (106, 3, "c"), (106, 9, "n"),
]  # fmt: skip


def test_dawid_skene_gives_the_posteriors_crowd_kit_gives_on_the_labels_themselves():
    given = fit(DAWID_SKENE, encode(MATRIX))

    frame = pd.DataFrame(MATRIX, columns=["task", "worker", "label"])
    expected = DawidSkene(n_iter=100, tol=1e-5).fit(frame).probas_

    assert given.items == (101, 102, 103, 104, 105, 106)
    assert given.labels == ("c", "e", "n")
    for row, item in enumerate(given.items):
        assert given.posterior(row) == pytest.approx(
            {label: float(expected.loc[item, label]) for label in ("c", "e", "n")}, abs=1e-9
        )
    assert given.top_labels() == ["e", "n", "c", "e", "n", "c"]
    assert given.judgments == 24


@pytest.mark.parametrize("model", MODELS)
def test_an_annotator_who_always_answers_wrong_gets_the_lowest_ability(model):
    given = fit(model, encode(MATRIX))

    by_ability = sorted(given.annotators, key=lambda a: a.ability)
    assert by_ability[0].annotator_id == 9
    assert by_ability[0].ability < 0.05
    assert all(a.judgments == 6 for a in given.annotators)
    assert all(0.0 <= a.low <= a.ability <= a.high <= 1.0 for a in given.annotators)


def test_the_ability_interval_is_wilsons_over_the_annotators_judgments():
    assert wilson(6.0, 6) == pytest.approx((0.6096657, 1.0), abs=1e-6)
    assert wilson(3.0, 6) == pytest.approx((0.1876163, 0.8123837), abs=1e-6)
    assert wilson(0.0, 0) == (0.0, 1.0)


def test_one_items_posterior_from_a_confusion_matrix_and_priors():
    # P(says e | true e) = 0.9, P(says e | true n) = 0.2: one "e" gives 0.5 * 0.9 / (0.5 * 0.9 + 0.5 * 0.2).
    annotators = {7: {"confusion": [[0.9, 0.1], [0.2, 0.8]]}}

    posterior = item_posterior(
        model=DAWID_SKENE, labels=("e", "n"), priors={"e": 0.5, "n": 0.5}, annotators=annotators, judgments=[(7, "e")]
    )
    unknown = item_posterior(
        model=DAWID_SKENE, labels=("e", "n"), priors={"e": 0.3, "n": 0.7}, annotators=annotators, judgments=[(8, "e")]
    )

    assert posterior == pytest.approx({"e": 0.45 / 0.55, "n": 0.10 / 0.55}, abs=1e-12)
    assert unknown == pytest.approx({"e": 0.3, "n": 0.7}, abs=1e-12)


def test_the_fit_stores_what_recomputes_its_own_posteriors():
    given = fit(DAWID_SKENE, encode(MATRIX))
    params = {a.annotator_id: a.parameters for a in given.annotators}

    recomputed = item_posterior(
        model=DAWID_SKENE,
        labels=given.labels,
        priors=given.priors,
        annotators=params,
        judgments=[(a, label) for item, a, label in MATRIX if item == 101],
    )

    assert max(recomputed, key=recomputed.get) == "e"
    assert recomputed["e"] == pytest.approx(given.posterior(0)["e"], abs=1e-3)
