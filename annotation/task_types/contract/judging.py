"""The judging part of the task-type contract: who judges an approved item, what they see and what they give."""

from __future__ import annotations

from typing import Any, ClassVar

from annotation.task_types.contract.country_scope import CountryScope
from annotation.task_types.contract.marks import required
from annotation.task_types.records import JudgeItem, JudgingRule, JudgmentInput


class JudgingHooks:
    """Judging: how approved items are judged (cross-answered, labelled, validated): the `JudgingRule`, who may
    judge whom, what a judge is shown (never the author's answer), the judging form and keys, and a
    judgment's validation.

    A task type must give: `normalize_judgment`, `judge_view`. With the default `judging_rule` (None) the
    project has no judging; a task type that judges gives a rule, `judge_template` and
    `judgment_form_class`.
    """

    judge_template: ClassVar[str] = ""

    # Optional page template extending "annotation/judge_item.html" to word its blocks (heading, own_item, keys).
    judge_page_template: ClassVar[str] = ""

    def judgment_form_class(self) -> type | None:
        """The form annotators answer another's item with, or None when the protocol has no cross-answering."""
        return None

    @required
    def normalize_judgment(self, data: dict[str, Any]) -> JudgmentInput:
        """Validate a judgment of an item (form or API input); raise InvalidInput when it is not valid."""
        raise NotImplementedError

    # --- who may review and judge an item ------------------------------------------------------------
    # Members from named countries, reviewers and judges inside the author's country (ArabCulture); None:
    # anyone may review and judge, and a country is any text.
    country_scope: ClassVar[CountryScope | None] = None

    # Keyboard key -> judgment value shown on the judging page (A-E for multiple choice, e/n/c for labels).
    judgment_keys: ClassVar[dict[str, str]] = {}

    def judgment_keys_for(self, question: Any) -> dict[str, str]:
        """The keys of this question (what judge_item_for_judge returned): the keyboard panel lists only
        these. By default every key; a task type whose questions have a varying number of options
        narrows them."""
        return self.judgment_keys

    # The judging API's shapes (annotation.api.serializers.judgments.SHAPES): "generic" serves judge_item's
    # JudgeItem (id, category, view) and the judgment's value/flags/comment as stored, with the round;
    # "multiple_choice" the flat question/choices and answer A-E shapes the cross-answering API began with.
    judging_api_shape: ClassVar[str] = "generic"

    def judging_rule(self, settings: dict[str, Any]) -> JudgingRule | None:
        """How the project's approved items are judged, or None when the protocol has no judging."""
        return None

    @required
    def judge_view(self, payload: dict[str, Any], *, unit_data: dict[str, Any] | None = None) -> dict[str, Any]:
        """What a judge sees of an item: never the author's answer or label. `unit_data` is the item's
        Concept.data (e.g. the premise a hypothesis is judged against)."""
        raise NotImplementedError

    def judge_item(
        self, *, item_id: int, category: str, payload: dict[str, Any], unit_data: dict[str, Any], is_own: bool
    ) -> Any:
        """The object the judging page's `judge_template` reads as `question` (and the judging API
        renders): by default a JudgeItem holding judge_view(payload). Never the author's answer."""
        return JudgeItem(
            item_id=item_id, category=category, view=self.judge_view(payload, unit_data=unit_data), is_own=is_own
        )

    def judge_item_for_judge(
        self,
        *,
        judge_id: int,
        seed: int,
        item_id: int,
        category: str,
        payload: dict[str, Any],
        unit_data: dict[str, Any],
        is_own: bool,
    ) -> Any:
        """judge_item for one judge (the core's judging page and API call this): by default the same for
        everyone; a task type that shows each judge its own order (seeded by `seed`, the project's
        plan_seed) overrides it."""
        return self.judge_item(item_id=item_id, category=category, payload=payload, unit_data=unit_data, is_own=is_own)

    def complete_judgment(
        self,
        judgment: JudgmentInput,
        *,
        judge_id: int,
        judge_group: str,
        seed: int,
        item_id: int,
        payload: dict[str, Any],
    ) -> JudgmentInput:
        """Check a normalized judgment against the item it judges and add what only the server knows (the
        order the judge was shown, their group); raise InvalidInput to refuse. Default: unchanged."""
        return judgment

    def own_judgment(self, judgment: JudgmentInput | None) -> Any:
        """The judge's own earlier judgment as the judging page and API show it (None: not judged yet).
        The judging form class gives its initial data with `initial_for(own_judgment(...))`."""
        return judgment

    def own_judgment_for_judge(
        self, judgment: JudgmentInput | None, *, judge_id: int, seed: int, item_id: int, payload: dict[str, Any]
    ) -> Any:
        """own_judgment for one judge (the core's judging page and API call this): by default the same for
        everyone; a task type that shows each judge its own order overrides it to answer in that order."""
        return self.own_judgment(judgment)

    def payload_for_annotator(
        self, payload: dict[str, Any], *, viewer_id: int, item_id: int, seed: int
    ) -> dict[str, Any]:
        """What an annotator (a writer, who may also judge) is shown of an item's payload on the item page,
        its history and the item API; reviewers and admins see all of it. Default: all of it."""
        return payload
