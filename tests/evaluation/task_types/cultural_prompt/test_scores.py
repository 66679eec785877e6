"""KALAHI's model scores through the benchmark engine: MC1, MC2 (and its published variant), MC3 from
scripted log-probabilities (the test server; multi-byte text included), and open-ended replies scored
against the references by chrF, BLEU and ROUGE-L. Expected values are computed by hand here."""

from __future__ import annotations

import csv
import io
import json
import math

import pytest
import sacrebleu
from django.test import Client
from rouge_score import rouge_scorer

from annotation.models import Item, Membership, Project
from annotation.services.imports import items_import
from annotation.services.projects import membership_add
from evaluation.benchmarks.likelihood import OptionScore
from evaluation.benchmarks.report import benchmark_report
from evaluation.models import BenchmarkCase, Call, Prediction
from evaluation.services.runs import run_create
from evaluation.task_types.cultural_prompt.report import kalahi_run_report
from evaluation.task_types.cultural_prompt.scoring import mc_scores
from tests.evaluation.helpers import make_endpoint
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

# (text, per-token log-probabilities): the server's tokens are words with their leading whitespace.
A_RELEVANT = [
    ("Magtanong sa nanay.", [-1.0, -1.0, -1.0]),  # 19 bytes: L -3, s -3/19
    ("Magdasal sa Santo Niño.", [-0.5, -0.5, -0.5, -0.5]),  # ñ is 2 bytes: 24 bytes; L -2, s -2/24  <- best
    ("Kumain ng lugaw.", [-2.0, -2.0, -2.0]),  # 16 bytes: L -6, s -6/16
]
A_IRRELEVANT = [
    ("Umalis na.", [-1.0, -1.0]),  # 10 bytes: L -2, s -0.2
    ("Mag-isa ka.", [-0.5, -0.5]),  # 11 bytes: L -1, s -1/11
    ("Huwag pansinin.", [-3.0, -3.0]),  # 15 bytes: L -6, s -0.4
]
B_RELEVANT = [
    ("Tumulong sa kapitbahay.", [-2.0, -2.0, -2.0]),  # best: L -6, s -6/23
    ("Magbigay ng pasalubong.", [-1.0, -1.0, -1.0]),  # L -3, s -3/23
    ("Magmano sa lola.", [-1.0, -1.0, -1.0]),  # L -3, s -3/16
]
B_IRRELEVANT = [
    ("Bumili ng kotse.", [-0.5, -0.5, -0.5]),  # L -1.5, s -1.5/16: above the best
    ("Matulog nang maaga.", [-3.0, -3.0, -3.0]),  # L -9, s -9/19
    ("Magpadala ng email.", [-2.0, -2.0, -2.0]),  # L -6, s -6/19
]
# The validators' picks (MC1): the gold decision keeps the writers' best; the human baseline is theirs.
PICKS_A = ("best", "best", "irrelevant_1")  # letters B, B, F (A's best is its 2nd relevant response)
PICKS_B = ("irrelevant_2", "best", "irrelevant_2")  # G, A, G: the majority misses the best
PROMPT_A = "Estudyante ako.\nMay pagsusulit bukas.\nAnong maaari kong gawin?"
PROMPT_B = "Nasa hustong gulang na ako.\nBumisita ako sa probinsya.\nAnong maaari kong gawin?"


def _file() -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        [
            "prompt_variation_id",
            "prompt_id",
            "category",
            "topic",
            "prompt",
            "best_answer",
            "relevant_answers",
            "irrelevant_answers",
            "validations",
        ]
    )
    for ext, category, prompt, relevant, irrelevant, best, picks in (
        ("0101000100", "ethics", PROMPT_A, A_RELEVANT, A_IRRELEVANT, 1, PICKS_A),
        ("0202000100", "shared knowledge", PROMPT_B, B_RELEVANT, B_IRRELEVANT, 0, PICKS_B),
    ):
        writer.writerow(
            [
                ext,
                ext[:8],
                category,
                "topic",
                prompt,
                relevant[best][0],
                ";".join(t for t, _ in relevant),
                ";".join(t for t, _ in irrelevant),
                json.dumps([{"validator": f"V{n}", "choice": c} for n, c in enumerate(picks, start=1)]),
            ]
        )
    return out.getvalue().encode()


@pytest.fixture
def project(db):
    items_import(path_or_bytes=_file(), project_slug="kalahi-scores", format="kalahi", language="fil")
    return Project.objects.get(slug="kalahi-scores")


def _hand(relevant, irrelevant, best):
    def s(text, values):
        return sum(values) / len(text.encode("utf-8"))

    L_rel = [sum(v) for _, v in relevant]
    L_all = L_rel + [sum(v) for _, v in irrelevant]
    s_rel = [s(t, v) for t, v in relevant]
    s_irr = [s(t, v) for t, v in irrelevant]
    return {
        "mc1": 1.0 if s_rel[best] > max(s_irr) else 0.0,
        "mc2": sum(math.exp(x) for x in L_rel) / sum(math.exp(x) for x in L_all),
        "mc2_published": sum(math.exp(math.exp(x)) for x in s_rel) / sum(math.exp(math.exp(x)) for x in s_rel + s_irr),
        "mc3": sum(x > max(s_irr) for x in s_rel) / len(s_rel),
    }


def test_hand_values():
    a = _hand(A_RELEVANT, A_IRRELEVANT, 1)
    assert a["mc1"] == 1.0 and a["mc3"] == pytest.approx(1 / 3)
    assert a["mc2"] == pytest.approx(
        (math.exp(-3) + math.exp(-2) + math.exp(-6))
        / (math.exp(-3) + 2 * math.exp(-2) + math.exp(-1) + 2 * math.exp(-6))
    )
    assert 0.5 < a["mc2_published"] < 0.51  # the published squeeze: near |R| / |R u I| = 0.5
    # the pure function on the same scores
    as_scores = (
        [OptionScore(tuple(v), len(t.encode())) for t, v in A_RELEVANT],
        [OptionScore(tuple(v), len(t.encode())) for t, v in A_IRRELEVANT],
    )
    assert mc_scores(*as_scores, best=1) == pytest.approx(a)


def test_mc1_mc2_mc3_from_scripted_logprobs(project, llm_server, eager_tasks):
    script = dict(A_RELEVANT + A_IRRELEVANT + B_RELEVANT + B_IRRELEVANT)
    llm_server.configure(likelihood=script)
    endpoint = make_endpoint(llm_server, name="alpha", model="alpha-model")
    run = run_create(
        kind="benchmark",
        endpoints=[endpoint],
        project=project,
        parameters={
            "templates": ["chatml"],
            "mode": "likelihood",
            "normalisation": "bytes",
            "prompt_prefix": "<|im_start|>",
        },
    )
    run.refresh_from_db()
    assert (run.status, run.total, run.calls_done, run.calls_failed) == ("done", 12, 12, 0)
    item_a = Item.objects.get(project=project, external_id="0101000100")
    calls = {c.unit_key: c for c in Call.objects.filter(run=run)}
    first = calls[f"item{item_a.pk}:B"]
    assert first.request["context"] == f"<|im_start|>user\n{PROMPT_A}<|im_end|>\n<|im_start|>assistant\n"
    assert first.request["continuation"] == "Magdasal sa Santo Niño."  # the whole reply, no leading space
    assert first.logprobs["byte_length"] == 24
    case = BenchmarkCase.objects.get(run=run, item=item_a)
    assert (
        case.gold == "B"
        and case.options[:3] == [t for t, _ in A_RELEVANT]
        and case.options[5:8] == [t for t, _ in A_IRRELEVANT]
    )

    predictions = {p.item.external_id: p for p in Prediction.objects.filter(run=run).select_related("item")}
    a, b = predictions["0101000100"], predictions["0202000100"]
    assert (a.answer, a.correct, a.gold, a.rule) == ("B", True, "B", "likelihood:bytes")
    assert (b.answer, b.correct, b.gold) == ("F", False, "A")  # "Bumili ng kotse." beats the best
    hand_a, hand_b = _hand(A_RELEVANT, A_IRRELEVANT, 1), _hand(B_RELEVANT, B_IRRELEVANT, 0)
    assert json.loads(a.reply)["metrics"] == pytest.approx(hand_a)
    assert json.loads(b.reply)["metrics"] == pytest.approx(hand_b)

    report = kalahi_run_report(run=run)
    row = report["endpoints"]["alpha"]
    for metric in ("mc1", "mc2", "mc2_published", "mc3"):
        assert row[metric] == pytest.approx((hand_a[metric] + hand_b[metric]) / 2)
    assert report["by_category"]["ethics"]["alpha"]["mc1"] == 1.0
    assert report["by_category"]["shared knowledge"]["alpha"]["mc1"] == 0.0

    # The scores page shows them to the project's reviewers; anyone else gets a 404.
    reviewer, outsider = UserFactory(username="kalahi-rev"), UserFactory(username="kalahi-out")
    membership_add(project=project, user=reviewer, role=Membership.Role.REVIEWER)
    client = Client()
    client.force_login(reviewer)
    page = client.get(f"/p/{project.slug}/kalahi-scores/")
    assert page.status_code == 200
    html = page.content.decode()
    assert f'id="kalahi-run-{run.pk}"' in html
    assert (
        f"<td>{row['mc1']:.3f}</td><td>{row['mc2']:.3f}</td><td>{row['mc2_published']:.3f}</td><td>{row['mc3']:.3f}</td>"
        in html
    )
    assert report["human_baseline"] == {"overall": 3 / 6, "by_category": {"ethics": 2 / 3, "shared knowledge": 1 / 3}}
    # The shared leaderboard: MC1 as the accuracy, the validators' majority beside it, by category.
    board = client.get(f"/p/{project.slug}/benchmarks/{run.pk}/")
    assert board.status_code == 200
    shared = benchmark_report(run=run)
    assert (shared["predictions"], shared["accuracy"]) == (2, 0.5)
    assert shared["human_baseline"]["accuracy"] == 0.5  # A's majority picked the best, B's did not
    client.force_login(outsider)
    assert client.get(f"/p/{project.slug}/kalahi-scores/").status_code == 404


def test_open_ended_replies_are_scored_against_the_references(project, llm_server, eager_tasks):
    reply_a = "Magdasal ka sa Santo Niño at mag-aral."
    reply_b = "Bumili ka ng bagong kotse."
    llm_server.configure(replies=[{"match": "Estudyante", "reply": reply_a}, {"match": "probinsya", "reply": reply_b}])
    endpoint = make_endpoint(llm_server, name="beta", model="beta-model")
    run = run_create(
        kind="benchmark",
        endpoints=[endpoint],
        project=project,
        parameters={"open_ended": True, "max_tokens": 256, "temperature": 0},
    )
    run.refresh_from_db()
    assert run.status == "done"
    call = Call.objects.filter(run=run).first()
    assert call.request["params"]["max_tokens"] == 256 and run.parameters["max_tokens"] == 256
    predictions = {p.item.external_id: p for p in Prediction.objects.filter(run=run).select_related("item")}
    rouge = rouge_scorer.RougeScorer(["rougeL"])

    def diff(reply, relevant, irrelevant):
        def m(ref):
            return {
                "chrf": sacrebleu.sentence_chrf(reply, [ref]).score,
                "bleu": sacrebleu.sentence_bleu(reply, [ref]).score,
                "rouge_l": rouge.score(ref, reply)["rougeL"].fmeasure,
            }

        rel, irr = [m(t) for t, _ in relevant], [m(t) for t, _ in irrelevant]
        return {k: max(x[k] for x in rel) - max(x[k] for x in irr) for k in ("chrf", "bleu", "rouge_l")}

    da, db = diff(reply_a, A_RELEVANT, A_IRRELEVANT), diff(reply_b, B_RELEVANT, B_IRRELEVANT)
    assert da["chrf"] > 0 and db["chrf"] < 0
    a, b = predictions["0101000100"], predictions["0202000100"]
    assert (a.reply, a.answer, a.parsed, a.correct, a.rule) == (reply_a, "relevant", True, True, "overlap:chrf")
    assert (b.reply, b.answer, b.correct) == (reply_b, "irrelevant", False)

    report = kalahi_run_report(run=run)["open_ended"]["beta"]
    for metric in ("chrf", "bleu", "rouge_l"):
        assert report[metric]["score"] == pytest.approx((da[metric] + db[metric]) / 2)
        assert report[metric]["accuracy"] == pytest.approx(((da[metric] > 0) + (db[metric] > 0)) / 2)


def test_the_shared_benchmark_page_offers_the_kalahi_templates(project):
    admin = UserFactory(username="kalahi-admin")
    membership_add(project=project, user=admin, role=Membership.Role.ADMIN)
    client = Client()
    client.force_login(admin)
    page = client.get(f"/p/{project.slug}/benchmarks/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "chatml" in html and "open_ended" in html
