"""The public order and names of a project's annotators (W1, W2, ... W10), shared by the gold policy,
reports and exports so that every tie-break and every table uses the same order."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from annotation.models import Membership

_DIGITS = re.compile(r"(\d+)")


def code_sort_key(code: str) -> tuple:
    """Natural order: W2 before W10; digits compare as numbers, text case-insensitively."""
    return tuple(int(part) if part.isdigit() else part.casefold() for part in _DIGITS.split(code))


def public_order(name: str, user_id: int) -> tuple:
    """An annotator's place in the public order: by public name (the membership code, else the user
    name), in natural order, then by user id."""
    return (code_sort_key(name), user_id)


@dataclass(frozen=True)
class Annotator:
    user_id: int
    code: str
    region: str
    native_languages: str
    education: str
    active: bool


def project_annotators(*, project_ids: Iterable[int]) -> dict[int, list[Annotator]]:
    """project -> annotators in public order (membership code naturally, then user id). One query.

    Everyone who ever had an annotator membership is listed (leavers too): their answers still count.
    A member without a code is named by their user name.
    """
    rows = (
        Membership.objects.filter(project_id__in=list(project_ids), role=Membership.Role.ANNOTATOR)
        .values_list(
            "project_id",
            "user_id",
            "code",
            "user__username",
            "profile__region",
            "profile__native_languages",
            "profile__education",
            "is_active",
        )
        .order_by()
    )
    out: dict[int, list[Annotator]] = {}
    for project_id, user_id, code, username, region, native, education, active in rows:
        out.setdefault(project_id, []).append(
            Annotator(
                user_id=user_id,
                code=code or username,
                region=region or "",
                native_languages=native or "",
                education=education or "",
                active=active,
            )
        )
    for annotators in out.values():
        annotators.sort(key=lambda a: public_order(a.code, a.user_id))
    return out


def annotator_ranks(annotators: Iterable[Annotator]) -> dict[int, int]:
    """user id -> position in public order; users not in the list come after, by id."""
    return {a.user_id: i for i, a in enumerate(annotators)}


def rank_of(ranks: dict[int, int], user_id: int) -> tuple[int, int]:
    return (ranks.get(user_id, len(ranks)), user_id)
