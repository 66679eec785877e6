"""The project page's stage panel: the protocol's stages for the viewer's role, each with its count and its
next action, built from what the task type declares (pure: the counts come from
annotation.selectors.stages), so a task type never writes its own panel and cannot forget a stage."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext, ngettext

from annotation.task_types.base import JudgingRule, TaskType

ADMIN, REVIEWER, ANNOTATOR = "admin", "reviewer", "annotator"
REVIEW_ROLES = (ADMIN, REVIEWER)


@dataclass(frozen=True)
class StageAction:
    route: str  # a URL name taking the project's slug
    label: str
    query: str = ""  # appended to the URL ("?status=submitted")


@dataclass(frozen=True)
class Stage:
    key: str  # the section's id: stage-<key>
    title: str
    text: str  # the count in words; the first action is the next one ("12 ... wait for validation: Plan validation")
    actions: tuple[StageAction, ...]


@dataclass(frozen=True)
class StageCounts:
    """What the panel counts, for one viewer (annotation.selectors.stages.stage_counts)."""

    statuses: dict[str, int]  # items by status (an annotator's own items; a reviewer's the ones they may see)
    units_open: int  # authoring assignments open: the viewer's own (annotator), everyone's (admin)
    to_plan: int  # approved items not sent to judging yet
    judging_open: int  # the annotator's open judging assignments


def _count(text: str, n: int, **values: object) -> str:
    """`text` (ngettext's choice for n, called at each site so makemessages finds both forms) filled in."""
    return text % {"n": n, **values}


def _authoring(task_type: TaskType, role: str, counts: StageCounts, screening: bool) -> Stage:
    unit, units = task_type.unit_word, task_type.unit_words
    if role == ANNOTATOR:
        sent_back = counts.statuses.get("revision_requested", 0)
        text = _count(
            ngettext("%(n)s %(unit)s waits for you", "%(n)s %(units)s wait for you", counts.units_open),
            counts.units_open,
            unit=unit,
            units=units,
        )
        if sent_back:
            text += "; " + _count(
                ngettext("%(n)s item was sent back to you", "%(n)s items were sent back to you", sent_back), sent_back
            )
        actions = [StageAction("author_queue", gettext("Open my queue")), StageAction("item_list", gettext("My items"))]
        if screening:
            actions.append(StageAction("screening_page", gettext("Screening, training and pilot")))
        return Stage("authoring", gettext("Authoring"), text, tuple(actions))
    if role == ADMIN:
        text = _count(
            ngettext(
                "%(n)s %(unit)s waits for its author", "%(n)s %(units)s wait for their authors", counts.units_open
            ),
            counts.units_open,
            unit=unit,
            units=units,
        )
        return Stage(
            "authoring",
            gettext("Authoring"),
            text,
            (
                StageAction("project_concepts", gettext("Import %(units)s") % {"units": units}),
                StageAction("project_members", gettext("Members")),
                StageAction("project_skips", gettext("Skipped work")),
            ),
        )
    text = _count(
        ngettext(
            "%(n)s item waits for revision by its author",
            "%(n)s items wait for revision by their authors",
            counts.statuses.get("revision_requested", 0),
        ),
        counts.statuses.get("revision_requested", 0),
    )
    return Stage(
        "authoring",
        gettext("Authoring"),
        text,
        (StageAction("item_list", gettext("Items"), "?status=revision_requested"),),
    )


def _review(counts: StageCounts) -> Stage:
    n = counts.statuses.get("submitted", 0)
    text = _count(ngettext("%(n)s submitted item waits for review", "%(n)s submitted items wait for review", n), n)
    return Stage(
        "review",
        gettext("Review"),
        text,
        (StageAction("review_queue", gettext("Review queue")), StageAction("dashboard", gettext("Dashboard"))),
    )


def _judging(rule: JudgingRule, role: str, counts: StageCounts, has_form: bool) -> Stage | None:
    activity = str(rule.activity)
    if role == ANNOTATOR:
        if not has_form:
            return None
        text = _count(
            ngettext(
                "%(n)s item waits for you to %(verb)s", "%(n)s items wait for you to %(verb)s", counts.judging_open
            ),
            counts.judging_open,
            verb=rule.verb,
        )
        return Stage("judging", activity, text, (StageAction("judge_queue", gettext("Open the queue")),))
    # Every judgment by round (one round for most protocols), with the judges' proposed corrections.
    rounds = (StageAction("judging_rounds", gettext("Judgments by round")),)
    if role == ADMIN:
        text = _count(
            ngettext(
                "%(n)s approved item waits for %(activity)s",
                "%(n)s approved items wait for %(activity)s",
                counts.to_plan,
            ),
            counts.to_plan,
            activity=activity.lower(),
        )
        plan = StageAction("judging_plan", gettext("Plan %(activity)s") % {"activity": activity.lower()})
        return Stage("judging", activity, text, (plan, *rounds))
    n = counts.statuses.get("judged", 0)
    text = _count(
        ngettext(
            "%(n)s item %(verb_past)s, waiting for its gold decision",
            "%(n)s items %(verb_past)s, waiting for their gold decision",
            n,
        ),
        n,
        verb_past=rule.verb_past,
    )
    return Stage("judging", activity, text, rounds)


def _gold(counts: StageCounts) -> Stage:
    gold, excluded = counts.statuses.get("gold", 0), counts.statuses.get("excluded", 0)
    text = (
        _count(ngettext("%(n)s gold item", "%(n)s gold items", gold), gold)
        + ", "
        + _count(ngettext("%(n)s excluded", "%(n)s excluded", excluded), excluded)
    )
    return Stage("gold", gettext("Gold and report"), text, (StageAction("report_page", gettext("Report")),))


def _export(task_type: TaskType, counts: StageCounts) -> Stage:
    n = counts.statuses.get("gold", 0)
    text = _count(ngettext("%(n)s gold item to export", "%(n)s gold items to export", n), n)
    actions = [StageAction("export_page", gettext("Export"))]
    if task_type.importers():
        actions.append(StageAction("items_import_page", gettext("Import a file")))
    return Stage("export", gettext("Export and import"), text, tuple(actions))


# Pages of figures over the whole project: refused to a member who sees a part of it (a national reviewer,
# annotation.selectors.whole_project_check), so not offered to them either.
WHOLE_PROJECT_ROUTES = frozenset({"dashboard", "report_page", "benchmark_list"})


def project_stages(
    *, task_type: TaskType, settings: dict, role: str, counts: StageCounts, screening: bool, whole_project: bool = True
) -> list[Stage]:
    """The stages of the protocol the viewer takes part in, in the protocol's order. `whole_project`: the
    viewer sees every item (not a national reviewer of a scoped project)."""
    stages = _stages(task_type=task_type, settings=settings, role=role, counts=counts, screening=screening)
    if whole_project:
        return stages
    # The task type's own pages for reviewers are figures over the project too (leaderboards, scores).
    return [
        Stage(stage.key, stage.title, stage.text, _part_of_project(stage.actions))
        for stage in stages
        if stage.key != "models"
    ]


def _part_of_project(actions: tuple[StageAction, ...]) -> tuple[StageAction, ...]:
    return tuple(action for action in actions if action.route not in WHOLE_PROJECT_ROUTES)


def _stages(*, task_type: TaskType, settings: dict, role: str, counts: StageCounts, screening: bool) -> list[Stage]:
    stages = [_authoring(task_type, role, counts, screening)]
    if role in REVIEW_ROLES and task_type.review_required(settings):
        stages.append(_review(counts))
    rule = task_type.judging_rule(settings)
    if rule is not None and (stage := _judging(rule, role, counts, task_type.judgment_form_class() is not None)):
        stages.append(stage)
    if role in REVIEW_ROLES:
        stages.append(_gold(counts))
    if role == ADMIN:
        stages.append(_export(task_type, counts))
    pages = tuple(StageAction(p.route, str(p.label)) for p in task_type.project_pages if role in p.roles)
    if role == ADMIN:
        pages = (StageAction("llm_run_list", gettext("Model runs")), *pages)
    if role in REVIEW_ROLES and task_type.benchmark() is not None:
        pages = (*pages, StageAction("benchmark_list", gettext("Benchmarks")))
    if pages:
        stages.append(Stage("models", gettext("Model runs and pages"), "", pages))
    return stages
