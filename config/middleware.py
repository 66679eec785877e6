"""Refuse request bodies larger than the site handles, before anything reads them.

Django's DATA_UPLOAD_MAX_MEMORY_SIZE covers `request.body` and form fields, not DRF's JSON parser
(which reads the stream itself) nor uploaded files (streamed to disk whatever their size). So the
declared size (Content-Length) is checked here, per route: the file imports may send a file of
`limits.IMPORT_BYTES`, everything else `GOTONG_MAX_REQUEST_BYTES`. A body sent without a
Content-Length (chunked) is read through a cap that stops at the same limit.
"""

from __future__ import annotations

import os

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.response import TemplateResponse

from annotation import limits

DEFAULT_MAX_REQUEST_BYTES = 2 * 1024 * 1024
# Routes that take a file (`limits.IMPORT_BYTES`); the rest of the form fits in the usual limit.
UPLOAD_URL_NAMES = frozenset({"api-concepts-import", "api-import-items", "project_concepts", "items_import_page"})


class RequestTooLarge(RequestDataTooBig):
    """Raised while reading a body without Content-Length that goes past the limit."""


class _CappedStream:
    def __init__(self, stream, limit: int):
        self._stream = stream
        self._left = limit

    def _take(self, data: bytes) -> bytes:
        self._left -= len(data)
        if self._left < 0:
            raise RequestTooLarge("The request body is larger than allowed.")
        return data

    def read(self, size: int = -1, /) -> bytes:
        # One byte past the limit is enough to know; never read an unbounded amount.
        wanted = self._left + 1 if size is None or size < 0 else min(size, self._left + 1)
        return self._take(self._stream.read(wanted))

    def readline(self, size: int = -1, /) -> bytes:
        wanted = self._left + 1 if size is None or size < 0 else min(size, self._left + 1)
        return self._take(self._stream.readline(wanted))

    def close(self) -> None:
        self._stream.close()


def max_request_bytes() -> int:
    return int(getattr(settings, "GOTONG_MAX_REQUEST_BYTES", DEFAULT_MAX_REQUEST_BYTES))


def _size(size: int) -> str:
    megabytes = size / (1024 * 1024)
    if megabytes >= 1:
        return f"{megabytes:g} MB" if megabytes == int(megabytes) else f"{megabytes:.1f} MB"
    return f"{size:,} bytes"


class RequestSizeLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs) -> HttpResponse | None:
        match = request.resolver_match
        upload = match is not None and match.url_name in UPLOAD_URL_NAMES
        limit = max_request_bytes() + (limits.IMPORT_BYTES if upload else 0)
        try:
            declared = int(request.META.get("CONTENT_LENGTH") or "")
        except ValueError:
            declared = None
        if declared is not None:
            return self._refuse(request, limit=limit, upload=upload) if declared > limit else None
        stream = getattr(request, "_stream", None)
        if stream is None:
            return None
        if getattr(stream, "seekable", lambda: False)():
            # ASGI: the server has already spooled the body to a file; measure it.
            size = stream.seek(0, os.SEEK_END)
            stream.seek(0)
            return self._refuse(request, limit=limit, upload=upload) if size > limit else None
        request._stream = _CappedStream(stream, limit)
        request._too_large = (limit, upload)
        return None

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, RequestTooLarge) and hasattr(request, "_too_large"):
            limit, upload = request._too_large
            return self._refuse(request, limit=limit, upload=upload)
        return None

    def _refuse(self, request: HttpRequest, *, limit: int, upload: bool) -> HttpResponse:
        message = f"The request is larger than {_size(limit)}."
        if upload:
            message += f" A file may have at most {_size(limits.IMPORT_BYTES)}."
        if request.path_info.startswith("/api/"):
            return JsonResponse({"detail": message, "code": "request_too_large"}, status=413)
        response = TemplateResponse(request, "request_too_large.html", {"message": message}, status=413)
        return response.render()
