"""The API's JSON parser: DRF's, plus a 400 for JSON that decodes but can't be handled or stored."""

from __future__ import annotations

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from annotation import limits

# No request body of the API nests deeper than a few levels; this leaves room and stays far below
# Python's recursion limit, which serializers and json.dumps would otherwise meet.
MAX_DEPTH = 32


class StrictJSONParser(JSONParser):
    """Refuses, as a 400 naming the problem, what DRF's parser lets through to a 500:

    JSON nested so deeply that decoding it overflows the stack (RecursionError), and strings that
    PostgreSQL can't store (NUL) or UTF-8 can't encode (a lone surrogate such as "\\ud800").
    """

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - nested too deeply.") from None
        found = next(limits.unstorable_strings(data, max_depth=MAX_DEPTH), None)
        if found is not None:
            where, problem = found
            raise ParseError(f"JSON parse error - {where}: {problem}")
        return data
