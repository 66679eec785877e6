"""How a run is named and described on its pages: a title that says what it does over how many models,
parameters as a readable list (pure, no database)."""

from evaluation.run_display import VALUE_SHOWN, parameter_rows, run_title


def test_the_title_names_what_the_run_does_and_its_models():
    assert run_title(kind="preference_responses", models=4) == "Responses to rate, 4 models"
    assert run_title(kind="llm_gen", models=1) == "Generated questions, 1 model"
    assert run_title(kind="benchmark", models=2) == "Benchmark, 2 models"
    assert run_title(kind="gone_kind", models=3) == "gone_kind, 3 models"


def test_parameters_are_readable_rows():
    rows = parameter_rows(
        {
            "max_tokens": 512,
            "languages": ["id", "su"],
            "dedup": True,
            "stop": None,
            "sampling": {"temperature": 0.7, "top_p": 1},
            "template": "x" * (VALUE_SHOWN + 50),
        }
    )

    assert rows == [
        ("Max tokens", "512"),
        ("Languages", "id, su"),
        ("Dedup", "yes"),
        ("Stop", "—"),
        ("Sampling", "Temperature: 0.7; Top p: 1"),
        ("Template", "x" * (VALUE_SHOWN - 1) + "…"),
    ]
    assert parameter_rows({}) == []
