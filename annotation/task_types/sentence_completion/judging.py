"""Stage 2, peer verification: another annotator of the author's country answers the item as a
multiple-choice question. The peer sees the premise and the three completions in a shuffled order,
never the author's answer; the order shown is recorded with the answer.

The order is a pure function of the project's seed and the item id (a hash), so the page and the API
show the same order every time the peer opens the item. The peer posts only the letter they chose;
the server (complete_judgment) recomputes the order and stores the letter shown, the order and the
completion it stands for in the author's lettering, which the gold rule compares with the author's.
"""

from __future__ import annotations

import hashlib
import itertools
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from annotation import limits
from annotation.errors import InvalidInput
from annotation.task_types.base import JudgmentInput
from annotation.task_types.sentence_completion.payload import LETTERS

PERMUTATIONS: tuple[tuple[int, ...], ...] = tuple(itertools.permutations(range(len(LETTERS))))


def shuffled_order(item_id: int, seed: int = 0) -> list[int]:
    """The author's indices in the order the peer sees them (reproducible per project seed and item)."""
    digest = hashlib.blake2b(f"completion-order:{seed}:{item_id}".encode(), digest_size=8).digest()
    return list(PERMUTATIONS[int.from_bytes(digest, "big") % len(PERMUTATIONS)])


def judge_view(payload: dict[str, Any], *, item_id: int, seed: int = 0) -> dict[str, Any]:
    """Premise and completions in the shuffled order: no answer, no author, no relevance flags."""
    completions = payload.get("completions") if isinstance(payload.get("completions"), list) else []
    completions = [str(c) for c in completions] + [""] * (len(LETTERS) - len(completions))
    order = shuffled_order(item_id, seed)
    return {
        "premise": str(payload.get("premise") or ""),
        "options": [{"letter": LETTERS[i], "text": completions[j]} for i, j in enumerate(order)],
    }


def normalize_judgment(data: dict[str, Any]) -> JudgmentInput:
    """The letter the peer chose among the options as shown (complete_judgment maps it back)."""
    if isinstance(data.get("value"), dict):  # the API's nested form {"value": {"choice": ...}, "comment": ...}
        data = {**data["value"], "comment": data.get("comment", "")}
    choice = str(data.get("choice") or data.get("shown") or "").strip().upper()
    if choice not in LETTERS:
        message = f"Choose one of the completions {', '.join(LETTERS)}."
        raise InvalidInput(message, field_errors={"choice": [message]})
    comment = limits.check_text(str(data.get("comment") or "").strip(), field="comment", max_length=limits.COMMENT)
    return JudgmentInput(value={"shown": choice}, flags={}, comment=comment)


def complete_judgment(judgment: JudgmentInput, *, item_id: int, seed: int) -> JudgmentInput:
    """Add the order the peer was shown and the completion their letter stands for (the author's lettering)."""
    order = shuffled_order(item_id, seed)
    shown = judgment.value["shown"]
    answer = LETTERS[order[LETTERS.index(shown)]]
    return JudgmentInput(
        value={"answer": answer, "shown": shown, "order": order}, flags=judgment.flags, comment=judgment.comment
    )


class PeerAnswerForm(forms.Form):
    # Not required here: the service's message is the one shown.
    choice = forms.ChoiceField(choices=[(c, c) for c in LETTERS], required=False, widget=forms.RadioSelect)
    comment = forms.CharField(
        required=False,
        max_length=limits.COMMENT,
        label=gettext_lazy("Comment (optional)"),
        widget=forms.Textarea(attrs={"dir": "auto", "rows": 2, "autocomplete": "off"}),
    )

    @staticmethod
    def initial_for(previous: JudgmentInput | None) -> dict[str, Any]:
        if previous is None:
            return {}
        return {"choice": (previous.value or {}).get("shown", ""), "comment": previous.comment or ""}

    def judgment_data(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {"choice": data.get("choice") or "", "comment": data.get("comment") or ""}


def own_judgment(judgment: JudgmentInput | None) -> JudgmentInput | None:
    """What the peer is shown of their own earlier answer: the letter they chose as shown, nothing more."""
    if judgment is None:
        return None
    return JudgmentInput(value={"shown": (judgment.value or {}).get("shown", "")}, flags={}, comment=judgment.comment)
