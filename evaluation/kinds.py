"""Run kinds: what a run asks and what it does with the replies. The engine (evaluation/engine.py) is
the same for all of them.

A kind is an object registered under its name with `register(kind)`:

    class MyKind(RunKind):
        name = "my_kind"
        label = "What it does"

        def clean_parameters(self, parameters: dict, *, project) -> dict:   # InvalidInput if wrong
        def preflight(self, parameters: dict, *, endpoints) -> None:        # optional: InvalidInput if
                                                                            # an endpoint cannot do it
        def units(self, run) -> Iterable[Unit]:                             # the run's first calls
        def lock(self, run, unit_keys) -> None:                             # optional: rows to lock first
        def on_result(self, run, call) -> Iterable[Unit]:                   # a call finished (done)
        def on_failed(self, run, call) -> None:                             # a call failed for good
        def on_finish(self, run) -> None:                                   # every call finished

- `units` is called once, when the first worker takes the run; a Unit becomes one Call per endpoint
  of the run (or only `Unit.endpoint_ids`). Keys are unique within (run, endpoint, template).
- `on_result` runs in the transaction that records the call as done, exactly once per call (the
  write is fenced by the call's lease): create items there. Units it returns are follow-up calls
  (the next step of a pipeline, e.g. translate what was adapted); they are added to the run at once
  (idempotent by the unique constraint) and the run finishes only when they are finished too.
- `on_finish` runs once, in the transaction that marks the run done.
Kinds are pure about HTTP: they never call a model; the engine does, through evaluation/llm/client.py.
The one exception is `preflight`, asked by run_create before the run exists (nothing is created when
it refuses): e.g. whether an endpoint gives the log-probabilities likelihood scoring needs.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from annotation.errors import InvalidInput


@dataclass(frozen=True)
class Unit:
    key: str  # stable within the run: the same unit planned twice is one call
    messages: list[dict[str, Any]] = field(default_factory=list)
    template: str = ""
    params: dict[str, Any] = field(default_factory=dict)  # max_tokens, temperature, logprobs, stop, seed
    operation: str = "chat"  # or "embed": `inputs` are embedded; or "score": log P(continuation | context)
    inputs: list[str] = field(default_factory=list)
    context: str = ""  # "score" only
    continuation: str = ""  # "score" only
    prompt: str = ""  # "chat" with a plain prompt instead of messages: a plain completion (base models)
    endpoint_ids: tuple[int, ...] | None = None  # None: every endpoint of the run

    def request(self) -> dict[str, Any]:
        if self.operation == "embed":
            return {"input": list(self.inputs)}
        if self.operation == "score":
            return {"context": self.context, "continuation": self.continuation}
        if self.prompt:
            return {"prompt": self.prompt, "params": dict(self.params)}
        return {"messages": list(self.messages), "params": dict(self.params)}


class RunKind:
    name = ""
    label = ""
    # What the run page and the run list call a run of this kind ("Responses to rate, 4 models").
    title: Any = gettext_lazy("Model run")

    def clean_parameters(self, parameters: dict[str, Any], *, project: Any) -> dict[str, Any]:
        return parameters

    def preflight(self, parameters: dict[str, Any], *, endpoints: Any) -> None:
        """Before the run is created, with its cleaned parameters and endpoints: InvalidInput when an
        endpoint cannot do what the run asks. May ask the endpoints (evaluation/llm/client.py)."""
        return None

    def units(self, run: Any) -> Iterable[Unit]:
        raise NotImplementedError

    def lock(self, run: Any, unit_keys: list[str]) -> None:
        """Before a batch of replies is recorded (in its transaction): lock, in one fixed order, the
        rows the kind's `on_result`/`on_failed` will lock for these units, so two workers recording
        batches at once never wait on each other in a cycle."""
        return None

    def batch_end(self, run: Any) -> None:
        """After the batch's on_result/on_failed calls, in the same transaction (after `lock`): write what
        the kind buffered for the batch in one statement (the benchmark kind's predictions)."""
        return None

    def on_result(self, run: Any, call: Any) -> Iterable[Unit]:
        return ()

    def on_failed(self, run: Any, call: Any) -> None:
        return None

    def on_finish(self, run: Any) -> None:
        return None


_KINDS: dict[str, RunKind] = {}


def register(kind: RunKind) -> RunKind:
    if not kind.name:
        raise ValueError("a run kind needs a name")
    _KINDS[kind.name] = kind
    return kind


def get_kind(name: str) -> RunKind:
    try:
        return _KINDS[name]
    except KeyError:
        raise InvalidInput(
            f"Unknown run kind “{name}”; known: {', '.join(sorted(_KINDS)) or 'none'}.",
            field_errors={"kind": ["Unknown."]},
        ) from None


def kinds() -> dict[str, RunKind]:
    return dict(_KINDS)


MAX_PROMPTS = 100_000


class Responses(RunKind):
    """Each unit is a prompt; the reply text is kept on its call (responses to rate, quick probes).

    parameters: {"prompts": ["...", ...] or [{"key": "...", "prompt": "..."}], "system": "...",
                 "max_tokens": int, "temperature": float}
    """

    name = "responses"
    label = "Responses to prompts"
    title = gettext_lazy("Responses to prompts")

    def clean_parameters(self, parameters: dict[str, Any], *, project: Any) -> dict[str, Any]:
        prompts = parameters.get("prompts")
        if not isinstance(prompts, list) or not prompts:
            raise InvalidInput(_("Give at least one prompt."), field_errors={"prompts": [_("Required.")]})
        if len(prompts) > MAX_PROMPTS:
            raise InvalidInput(
                _("At most %(n)s prompts per run.") % {"n": MAX_PROMPTS}, field_errors={"prompts": [_("Too many.")]}
            )
        cleaned, keys = [], set()
        for index, prompt in enumerate(prompts):
            if isinstance(prompt, str):
                prompt = {"key": f"p{index + 1}", "prompt": prompt}
            if not isinstance(prompt, dict) or not str(prompt.get("prompt", "")).strip():
                raise InvalidInput(
                    _("Prompt %(n)s is empty.") % {"n": index + 1}, field_errors={"prompts": [_("Empty prompt.")]}
                )
            key = str(prompt.get("key") or f"p{index + 1}")[:200]
            if key in keys:
                raise InvalidInput(
                    _("Two prompts have the key “%(key)s”.") % {"key": key},
                    field_errors={"prompts": [_("Duplicate key.")]},
                )
            keys.add(key)
            cleaned.append({"key": key, "prompt": str(prompt["prompt"])})
        result: dict[str, Any] = {"prompts": cleaned}
        if parameters.get("system"):
            result["system"] = str(parameters["system"])
        for name, cast in (("max_tokens", int), ("temperature", float)):
            if parameters.get(name) not in (None, ""):
                try:
                    result[name] = cast(parameters[name])
                except (TypeError, ValueError):
                    raise InvalidInput(
                        _("%(name)s must be a number.") % {"name": name}, field_errors={name: [_("Not a number.")]}
                    ) from None
        return result

    def units(self, run: Any) -> Iterable[Unit]:
        parameters = run.parameters
        system = parameters.get("system")
        params = {k: parameters[k] for k in ("max_tokens", "temperature") if k in parameters}
        for prompt in parameters["prompts"]:
            messages = [{"role": "system", "content": system}] if system else []
            messages.append({"role": "user", "content": prompt["prompt"]})
            yield Unit(key=prompt["key"], messages=messages, template="responses", params=params)


register(Responses())
