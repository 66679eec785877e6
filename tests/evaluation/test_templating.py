import pytest

from annotation.errors import InvalidInput
from evaluation import templating


def test_given_fields_when_rendered_then_names_are_substituted_and_lists_joined():
    text = templating.render(
        "Concepts [{{ concepts }}] about {{topic}} ({{ n }})", {"concepts": ["a", "b c"], "topic": "x", "n": 2}
    )

    assert text == "Concepts [a, b c] about x (2)"


def test_a_template_asking_for_settings_renders_nothing():
    assert templating.render("key={{ settings.SECRET_KEY }}.", {"concept": "x"}) == "key=."
    assert templating.render("key={{ SECRET_KEY }}.", {"concept": "x"}) == "key=."


def test_an_attribute_of_a_given_field_renders_nothing():
    fields = {"concept": "padi"}

    assert templating.render("{{ concept.__class__ }}|{{ concept.upper }}|{{ concept }}", fields) == "||padi"
    assert templating.render("{{ concept['x'] }}{{ concept|upper }}{{ concept() }}", fields) == ""


def test_a_python_object_is_refused_before_anything_is_rendered():
    class Secretive:
        SECRET_KEY = "s3cret"

        def __str__(self):
            return self.SECRET_KEY

    with pytest.raises(TypeError, match="must be text"):
        templating.render("{{ obj }}", {"obj": Secretive()})
    with pytest.raises(TypeError, match="text or numbers only"):
        templating.render("{{ objs }}", {"objs": [Secretive()]})
    with pytest.raises(TypeError, match="must be text"):
        templating.render("{{ d }}", {"d": {"SECRET_KEY": "s3cret"}})


def test_field_values_are_not_rendered_again():
    assert templating.render("{{ a }}", {"a": "{{ b }}", "b": "no"}) == "{{ b }}"


def test_validate_template_names_unknown_and_missing_fields():
    with pytest.raises(InvalidInput) as refused:
        templating.validate_template(
            "{{ settings.SECRET_KEY }} {{ topic }}", allowed=("concepts", "topic"), required=("concepts",)
        )

    assert refused.value.field_errors == {
        "template": [
            "Unknown fields: {{ settings.SECRET_KEY }}. Available: {{ concepts }}, {{ topic }}.",
            "The template must use {{ concepts }}.",
        ]
    }
    templating.validate_template("{{ concepts }}", allowed=("concepts",), required=("concepts",))
