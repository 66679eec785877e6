import re
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

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


# The scan that rendering used before: kept here as the reference the linear scan must agree with.
_REGEX_PLACEHOLDER = re.compile(r"\{\{(.*?)\}\}", re.DOTALL)


@given(st.text(alphabet="{} ab\n", max_size=60))
def test_the_linear_scan_finds_what_the_regex_found(template):
    assert templating.placeholders(template) == [m.group(1).strip() for m in _REGEX_PLACEHOLDER.finditer(template)]


@given(st.text(alphabet="{} ab\n", max_size=60))
def test_rendering_substitutes_what_the_regex_substituted(template):
    fields = {"a": "X", "b": ["1", "2"]}

    def substitute(match: re.Match[str]) -> str:
        name = match.group(1).strip()
        return templating.LIST_SEPARATOR.join(fields[name]) if name == "b" else fields.get(name, "")

    assert templating.render(template, fields) == _REGEX_PLACEHOLDER.sub(substitute, template)


def _seconds(action, repeat: int = 5) -> float:
    """The fastest of a few runs: the least disturbed by the other processes of a loaded machine."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return min(times)


def test_a_template_of_twenty_thousand_braces_is_checked_in_linear_time():
    # The regex scan took 1.2 s for 20,000 `{` and four times as long for twice as many.
    half, full = "{" * 10_000, "{" * 20_000

    took_half = _seconds(lambda: templating.validate_template(half, allowed=("a",)))
    took_full = _seconds(lambda: templating.validate_template(full, allowed=("a",)))
    rendered = _seconds(lambda: templating.render(full, {"a": "x"}))

    assert took_full < 0.1 and rendered < 0.1
    assert took_full < 3 * took_half + 0.002


def test_a_template_over_the_limit_is_refused_before_it_is_read():
    huge = "{" * 2_000_000

    started = time.perf_counter()
    with pytest.raises(InvalidInput) as refused:
        templating.validate_template(huge, allowed=("a",))
    took = time.perf_counter() - started

    assert took < 0.05
    assert (refused.value.message, refused.value.field_errors) == (
        "The prompt template can't be used.",
        {"template": ["Keep the template under 20000 characters."]},
    )
    with pytest.raises(InvalidInput):
        templating.render(huge, {"a": "x"})
    with pytest.raises(InvalidInput):
        templating.placeholders(huge)


def test_a_template_of_exactly_the_limit_is_accepted():
    templating.validate_template("{{ a }}" + "x" * (templating.MAX_TEMPLATE_CHARS - 7), allowed=("a",))
