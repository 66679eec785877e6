"""Keyset (cursor) pagination for every API list: a bounded page, and no OFFSET to scan past.

A page is the rows that sort after (or before) the last row seen, in the queryset's own order, which
the selectors set (items by id, the review queue in hand-out order, concepts by category and name).
The primary key is appended when the order does not end with it, so the order is total and walking
the pages returns every row exactly once while nothing changes. The cursor carries the last row's
sort values, signed, so a client can't make the server filter on values it did not hand out.
"""

from __future__ import annotations

import datetime
import decimal
import operator
import uuid
from functools import reduce
from typing import Any

from django.core import signing
from django.core.exceptions import ImproperlyConfigured
from django.db.models import Q, QuerySet
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import CursorPagination
from rest_framework.utils.urls import remove_query_param, replace_query_param

PAGE_SIZE = 100
MAX_PAGE_SIZE = 500
_SALT = "gotong.api.cursor"


def _order_fields(queryset: QuerySet) -> list[str]:
    ordering = list(queryset.query.order_by) or list(queryset.model._meta.ordering)
    if not all(isinstance(field, str) and field not in ("?", "") for field in ordering):
        raise ImproperlyConfigured(f"Keyset pagination needs an order by field names, not {ordering!r}.")
    pk_names = {"pk", queryset.model._meta.pk.name}
    if not ordering or ordering[-1].lstrip("-") not in pk_names:
        ordering.append("pk")
    return ordering


def _value_of(instance: Any, field: str) -> Any:
    value = instance
    for part in field.lstrip("-").split("__"):
        value = value[part] if isinstance(value, dict) else getattr(value, part)
    if value is None:
        raise ImproperlyConfigured(f"Keyset pagination can't order by {field!r}: a row has no value for it.")
    return value


def _jsonable(value: Any) -> Any:
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()  # full precision: a truncated time would skip or repeat rows
    if isinstance(value, decimal.Decimal | uuid.UUID):
        return str(value)
    return value


def _beyond(ordering: list[str], key: list[Any], *, backwards: bool) -> Q:
    """Rows strictly after `key` in `ordering` (before it when `backwards`): a lexicographic comparison."""
    branches = []
    equal_so_far = Q()
    for field, value in zip(ordering, key, strict=True):
        name = field.lstrip("-")
        lookup = "gt" if field.startswith("-") == backwards else "lt"
        branches.append(equal_so_far & Q(**{f"{name}__{lookup}": value}))
        equal_so_far &= Q(**{name: value})
    return reduce(operator.or_, branches)


class KeysetPagination(CursorPagination):
    page_size = PAGE_SIZE
    page_size_query_param = "page_size"
    max_page_size = MAX_PAGE_SIZE
    page_size_query_description = f"Rows per page: 1 to {MAX_PAGE_SIZE} ({PAGE_SIZE} when left out)."
    cursor_query_description = "The `next` or `previous` address of the page before carries it."
    invalid_cursor_message = "This cursor is not valid here; start again from the first page."
    template = None

    def paginate_queryset(self, queryset, request, view=None):
        self.request = request
        self.page_size = self.get_page_size(request)
        self.base_url = request.build_absolute_uri()
        self.ordering = _order_fields(queryset)
        key, backwards = self.decode_cursor(request) or (None, False)

        if backwards:
            queryset = queryset.order_by(*(f[1:] if f.startswith("-") else f"-{f}" for f in self.ordering))
        else:
            queryset = queryset.order_by(*self.ordering)
        if key is not None:
            queryset = queryset.filter(_beyond(self.ordering, key, backwards=backwards))

        rows = list(queryset[: self.page_size + 1])
        more = len(rows) > self.page_size
        self.page = rows[: self.page_size]
        if backwards:
            self.page.reverse()
        # Going forwards there is a previous page when we came from one, and the reverse.
        self.has_next = more if not backwards else key is not None and bool(self.page)
        self.has_previous = more if backwards else key is not None and bool(self.page)
        return self.page

    def get_page_size(self, request) -> int:
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        try:
            size = int(raw)
        except ValueError:
            size = 0
        if size < 1:
            raise ValidationError({self.page_size_query_param: [f"A whole number from 1 to {self.max_page_size}."]})
        return min(size, self.max_page_size)

    def get_next_link(self):
        if not self.has_next:
            return None
        return self._link(self.page[-1], backwards=False)

    def get_previous_link(self):
        if not self.has_previous:
            return None
        return self._link(self.page[0], backwards=True)

    def _link(self, row: Any, *, backwards: bool) -> str:
        key = [_jsonable(_value_of(row, field)) for field in self.ordering]
        cursor = signing.dumps({"o": self.ordering, "k": key, "b": backwards}, salt=_SALT, compress=True)
        url = remove_query_param(self.base_url, self.cursor_query_param)
        return replace_query_param(url, self.cursor_query_param, cursor)

    def decode_cursor(self, request) -> tuple[list[Any], bool] | None:
        raw = request.query_params.get(self.cursor_query_param)
        if raw is None:
            return None
        try:
            cursor = signing.loads(raw, salt=_SALT)
        except signing.BadSignature:
            cursor = None
        # A cursor of another list (another order) would compare the wrong columns.
        if not isinstance(cursor, dict) or cursor.get("o") != self.ordering:
            raise ValidationError({self.cursor_query_param: [self.invalid_cursor_message]})
        return cursor["k"], bool(cursor["b"])

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"] = {"type": "integer", "minimum": 1, "maximum": self.max_page_size}
        return parameters
