"""The plugin contract, run over every registered task type on its own tiny examples (contract_examples)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.http import QueryDict
from django.utils.functional import Promise

from annotation.errors import InvalidInput
from annotation.importing.records import ImportRecord, RowIssue
from annotation.models import AnnotatorProfile, Assignment
from annotation.task_types import missing_hooks, registered_task_types
from annotation.task_types.base import ContractExamples
from annotation.task_types.contract.country_scope import CountryScope
from annotation.task_types.contract.unit_authoring import UnitAuthoring
from annotation.task_types.contract.unit_picking import UnitPicking
from annotation.task_types.contract.unit_variants import UnitVariants
from annotation.task_types.memo import GoldMemo
from annotation.task_types.records import UnitItem

TASK_TYPES = registered_task_types()
ROOT = Path(__file__).resolve().parents[3]
# An optional part of the contract -> the class a task type declaring it implements (None: not declared).
OPTIONAL_PARTS = {
    "unit_authoring": UnitAuthoring,
    "unit_variants": UnitVariants,
    "unit_picking": UnitPicking,
    "country_scope": CountryScope,
}


def _declaring(part: str) -> list:
    return [pytest.param(tt, id=tt.name) for tt in TASK_TYPES if getattr(tt, part) is not None]


def _examples(task_type):
    examples = task_type.contract_examples()
    assert examples is not None, f"{task_type.name}: every task type gives contract_examples()"
    assert isinstance(examples, ContractExamples), f"{task_type.name}: return a ContractExamples (base.py)"
    return examples


@pytest.fixture(params=TASK_TYPES, ids=[tt.name for tt in TASK_TYPES])
def task_type(request):
    return request.param


def test_every_required_hook_is_given(task_type):
    # required_hooks(): docs/tutorial/task-type.md lists them (tests/tutorial_task_type/test_tutorial_page.py).
    assert missing_hooks(task_type) == []


def test_settings_round_trip_and_unknown_ones_are_refused(task_type):
    defaults = task_type.settings_defaults()

    assert task_type.settings_clean(defaults) == defaults
    assert task_type.settings_clean({}) == defaults
    with pytest.raises(InvalidInput) as refused:
        task_type.settings_clean({**defaults, "no_such_setting": 1})
    assert "no_such_setting" in refused.value.field_errors


def test_payload_check_accepts_the_valid_example_and_refuses_the_invalid_one(task_type):
    examples = _examples(task_type)

    valid = task_type.check_payload(task_type.normalize_payload(examples.payload_valid), concept=examples.concept)
    invalid = task_type.check_payload(task_type.normalize_payload(examples.payload_invalid), concept=examples.concept)

    assert (valid.ok, valid.errors, valid.warnings) == (True, {}, {})
    assert invalid.errors != {}


def test_judging_form_validates_a_tiny_judgment(task_type):
    examples = _examples(task_type)
    form_class = task_type.judgment_form_class()
    if form_class is None:
        assert task_type.judging_rule(task_type.settings_defaults()) is None
        return
    data = QueryDict(mutable=True)
    for key, value in examples.judgment_form_data.items():
        data.setlist(key, value if isinstance(value, list) else [value])

    form = form_class(data, initial=form_class.initial_for(task_type.own_judgment(None)))

    assert form.is_valid(), form.errors
    clean = task_type.normalize_judgment(form.judgment_data())
    assert clean.value != {}
    assert set(task_type.judgment_keys.values()) <= {str(v) for v, _ in form.fields[next(iter(form.fields))].choices}
    assert task_type.judging_rule(task_type.settings_defaults()).kind


def test_gold_decision_on_a_tiny_case(task_type):
    examples = _examples(task_type)

    assert task_type.gold_decide(examples.gold_case) == examples.gold_outcome
    assert task_type.gold_policy


def test_the_gold_memo_key_names_everything_the_decision_reads(task_type):
    """Cases with equal memo keys get one decision (GoldMemo): the key leaves out who judged and the
    ids, so the same labels from other people decide the same; fewer judgments change the key."""
    examples = _examples(task_type)
    case = examples.gold_case
    memo = GoldMemo(task_type)
    assert memo.decide(case) == examples.gold_outcome
    key = task_type.gold_memo_key(case)
    if key is None:  # the task type decides every case on its own
        assert memo.outcomes == {}
        return
    others = case._replace(
        judgments=tuple(j._replace(judgment_id=j.judgment_id + 1000, user_id=j.user_id + 1000) for j in case.judgments)
    )
    assert task_type.gold_memo_key(others) == key
    assert task_type.gold_decide(others) == examples.gold_outcome
    assert memo.decide(others) is memo.decide(case)
    assert task_type.gold_memo_key(case._replace(judgments=case.judgments[1:])) != key


def test_export_row_has_exactly_the_export_fields(task_type):
    examples = _examples(task_type)
    record = examples.export_record

    row = task_type.export_row(record)

    assert tuple(row) == tuple(task_type.export_fields)
    assert isinstance(task_type.export_split(record), str) and task_type.export_split(record)
    line = task_type.export_jsonl(record)
    if line is not None:
        assert line == json.dumps(row, ensure_ascii=False)


def test_every_importer_parses_its_tiny_file(task_type):
    examples = _examples(task_type)
    importers = task_type.importers()

    assert set(examples.import_files) == set(importers)
    for name, data in examples.import_files.items():
        importer = importers[name]
        scan = importer.scan(io.BytesIO(data), known_annotators=[], max_annotators=100)
        out = list(importer.records(io.BytesIO(data), scan=scan))
        assert [o for o in out if isinstance(o, RowIssue)] == [], name
        records = [o for o in out if isinstance(o, ImportRecord)]
        assert records, name
        for record in records:
            check = task_type.check_payload(record.payload, concept=record.unit.name if record.unit else None)
            assert check.errors == {}, (name, record.external_id, check.errors)


def test_the_benchmark_hook_makes_a_model_task_of_the_export_example(task_type):
    """Every built-in template renders from the item's fields alone (the sandbox's names), the gold
    answer under the default key is one of the answers, and a choice task gives one option per letter."""
    from evaluation.templating import placeholders, render

    spec = task_type.benchmark()
    if spec is None:
        return
    record = _examples(task_type).export_record

    item = task_type.benchmark_item(record, gold_key=spec.gold_keys[0])

    assert spec.kind in ("choice", "label") and spec.gold_keys and spec.templates
    assert len({t.name for t in spec.templates}) == len(spec.templates)
    assert item is not None and item.gold in spec.answers
    assert set(item.fields) == set(spec.fields)
    assert len(item.options) == (len(spec.answers) if spec.kind == "choice" else 0)
    assert set(item.human_answers) <= set(spec.answers)
    for template in spec.templates:
        assert set(placeholders(template.text)) <= set(spec.fields), template.name
        assert render(template.text, item.fields).strip(), template.name
    for key in spec.gold_keys:
        other = task_type.benchmark_item(record, gold_key=key)
        assert other is None or other.gold in spec.answers


def test_value_labels_are_marked_for_translation(task_type):
    # A label given as a plain str would show untranslated on the report and rounds pages.
    plain = sorted(code for code, label in task_type.value_labels.items() if not isinstance(label, Promise))
    assert plain == []


def test_an_optional_part_is_not_declared_or_implements_its_class(task_type):
    declared = {part: getattr(task_type, part) for part in OPTIONAL_PARTS if getattr(task_type, part) is not None}

    assert [part for part, implemented in declared.items() if not isinstance(implemented, OPTIONAL_PARTS[part])] == []


@pytest.mark.parametrize("task_type", _declaring("unit_authoring"))
def test_unit_authoring_writes_a_whole_unit_on_one_form_and_back(task_type):
    """The form's initial data from a unit's payloads gives the same payloads back, one per slot."""
    unit_authoring = task_type.unit_authoring
    payload = task_type.normalize_payload(_examples(task_type).payload_valid)
    unit = [payload] * task_type.items_per_unit

    initial = unit_authoring.unit_form_initial(unit)
    back = [task_type.normalize_payload(p) for p in unit_authoring.unit_payloads_from_form(initial)]

    assert back == unit
    assert isinstance(unit_authoring.units_help, Promise) and str(unit_authoring.units_help)
    if unit_authoring.author_summary_template:
        assert (ROOT / "templates" / unit_authoring.author_summary_template).is_file()
        assert isinstance(unit_authoring.author_summary([payload], task_type.settings_defaults()), dict)


@pytest.mark.parametrize("task_type", _declaring("unit_variants"))
def test_unit_variants_offer_the_units_items_to_the_author_form(task_type):
    """The author form takes what the part gives it of the unit's other items; a planned authoring
    assignment asks for no variant, and a payload keeps what the unit's saved items already name."""
    unit_variants = task_type.unit_variants
    payload = task_type.normalize_payload(_examples(task_type).payload_valid)
    other = UnitItem(item_id=1, external_id="", status="approved", payload=payload)
    planned = Assignment(kind=Assignment.Kind.AUTHOR)

    task_type.form_class()(initial={}, **unit_variants.author_form_kwargs([other]))  # takes them, or raises
    errors = unit_variants.unit_reference_errors([payload], unit_items=[other], current=[payload], assignment=planned)

    assert unit_variants.author_assignment_kwargs(planned) == {}
    assert errors == {}


@pytest.mark.parametrize("task_type", _declaring("unit_picking"))
def test_unit_picking_keeps_the_pick_from_the_form_to_the_payload_and_a_slot_is_not_pickable(task_type):
    """The author form, given the catalog, has a field per pick key and the payload keeps the pick; a
    writing slot of the plan (its Concept.data key true) can't be picked, a plain unit can."""
    picking = task_type.unit_picking
    category_key, concept_key = picking.unit_pick_keys
    payload = task_type.normalize_payload(_examples(task_type).payload_valid)
    picked = {**payload, category_key: "Food", concept_key: "Breakfast"}

    form = task_type.form_class()(initial={}, catalog={"Food": ["Breakfast"]})
    back = task_type.payload_from_form(task_type.form_initial(picked))

    assert {category_key, concept_key} <= set(form.fields)
    assert (back[category_key], back[concept_key]) == ("Food", "Breakfast")
    assert picking.unit_pickable({}) is True
    if picking.plan_slot_key:
        assert picking.unit_pickable({picking.plan_slot_key: True}) is False


@pytest.mark.parametrize("task_type", _declaring("country_scope"))
def test_country_scope_names_its_countries_and_scopes_by_default(task_type):
    """The scope is on with the default settings; a writer screened for one of the countries finds it on
    a new author form, whatever its case; one from elsewhere finds an empty form."""
    country_scope = task_type.country_scope
    country = country_scope.countries[0]

    assert len(set(country_scope.countries)) == len(country_scope.countries) > 0
    assert country_scope.member_scope(task_type.settings_defaults()) == "country"
    assert country_scope.author_form_defaults(profile=AnnotatorProfile(country=country.upper())) == {"country": country}
    assert country_scope.author_form_defaults(profile=AnnotatorProfile(country="Atlantis")) == {}
    assert country_scope.author_form_defaults(profile=None) == {}
