import pytest

from annotation.errors import InvalidInput
from annotation.models import Project
from annotation.services.projects import project_create, project_update
from annotation.task_types import get_task_type, project_settings, registered_task_types
from tests.factories import UserFactory

# Fixed overlap unless a project asks for adaptive judging (annotation.adaptive).
JUDGING = {"judging_mode": "fixed", "adaptive_confidence": 99, "adaptive_min_judges": 2}
CSQA_DEFAULTS = {"answerers_per_item": 5, "ambiguity_threshold": 3, **JUDGING}


@pytest.mark.parametrize("task_type", registered_task_types(), ids=lambda tt: tt.name)
def test_every_task_type_accepts_its_own_defaults_unchanged(task_type):
    defaults = task_type.settings_defaults()

    assert task_type.settings_clean(dict(defaults)) == defaults
    assert task_type.settings_clean({}) == defaults


def test_csqa_defaults_round_trip():
    csqa = get_task_type("csqa")

    assert csqa.settings_defaults() == CSQA_DEFAULTS
    seven = {"answerers_per_item": 7, "ambiguity_threshold": 3, **JUDGING}
    assert csqa.settings_clean({"answerers_per_item": 7}) == seven
    assert csqa.settings_clean({"answerers_per_item": 100, "ambiguity_threshold": 0}) == {
        "answerers_per_item": 100,
        "ambiguity_threshold": 0,
        **JUDGING,
    }


def test_an_unknown_setting_is_refused_with_a_message():
    with pytest.raises(InvalidInput) as exc:
        get_task_type("csqa").settings_clean({"answerers_per_item": 5, "judges": 2})

    assert exc.value.message == "These settings are not valid: judges."
    assert exc.value.field_errors == {"judges": ["Unknown setting for Commonsense QA (question + 5 options)."]}


@pytest.mark.parametrize(
    ("data", "field_errors"),
    [
        ({"answerers_per_item": 0}, {"answerers_per_item": ["Use a whole number from 1 to 100."]}),
        ({"answerers_per_item": 101}, {"answerers_per_item": ["Use a whole number from 1 to 100."]}),
        ({"ambiguity_threshold": -1}, {"ambiguity_threshold": ["Use a whole number from 0 to 100."]}),
        ({"ambiguity_threshold": "3"}, {"ambiguity_threshold": ["Give a whole number."]}),
        ({"answerers_per_item": True}, {"answerers_per_item": ["Give a whole number."]}),
    ],
)
def test_a_setting_out_of_range_or_not_a_number_is_refused_with_a_field_error(data, field_errors):
    with pytest.raises(InvalidInput) as exc:
        get_task_type("csqa").settings_clean(data)

    assert exc.value.field_errors == field_errors


@pytest.mark.django_db
def test_create_stores_the_validated_settings_and_the_defaults():
    project = project_create(
        creator=UserFactory(),
        name="Settings",
        task_type="csqa",
        languages=[{"code": "id"}],
        answerers_per_item=4,
    )

    project.refresh_from_db()
    assert project.settings == {"answerers_per_item": 4, "ambiguity_threshold": 3, **JUDGING}
    assert project_settings(project) == {"answerers_per_item": 4, "ambiguity_threshold": 3, **JUDGING}


@pytest.mark.django_db
def test_create_with_a_setting_out_of_range_is_refused_and_creates_nothing():
    with pytest.raises(InvalidInput) as exc:
        project_create(
            creator=UserFactory(),
            name="Settings",
            task_type="csqa",
            languages=[{"code": "id"}],
            answerers_per_item=0,
        )

    assert exc.value.field_errors == {"answerers_per_item": ["Use a whole number from 1 to 100."]}
    assert Project.objects.count() == 0


@pytest.mark.django_db
def test_update_through_the_service_changes_only_the_given_setting():
    project = project_create(
        creator=UserFactory(),
        name="Settings",
        task_type="csqa",
        languages=[{"code": "id"}],
        answerers_per_item=4,
        ambiguity_threshold=2,
    )

    project_update(project=project, ambiguity_threshold=0)

    project.refresh_from_db()
    assert project.settings == {"answerers_per_item": 4, "ambiguity_threshold": 0, **JUDGING}
    assert (project.name, project.authors_per_concept) == ("Settings", 2)


@pytest.mark.django_db
def test_update_with_a_setting_out_of_range_is_refused_and_changes_nothing():
    project = project_create(
        creator=UserFactory(), name="Settings", task_type="csqa", languages=[{"code": "id"}], answerers_per_item=4
    )

    with pytest.raises(InvalidInput) as exc:
        project_update(project=project, name="Renamed", answerers_per_item=101)

    assert exc.value.field_errors == {"answerers_per_item": ["Use a whole number from 1 to 100."]}
    project.refresh_from_db()
    assert (project.name, project.settings) == (
        "Settings",
        {"answerers_per_item": 4, "ambiguity_threshold": 3, **JUDGING},
    )


@pytest.mark.django_db
def test_a_project_saved_without_settings_reads_the_defaults():
    project = Project.objects.create(name="Bare", slug="bare", task_type="csqa")

    assert project.settings == {}
    assert project_settings(project) == CSQA_DEFAULTS
