"""Every API error has one shape: {"detail": str, "code": str, "errors"?: {field: [messages]}}.

Domain errors carry the same message the pages show; DRF's own errors (validation, 401/403/404,
405, throttling) are reshaped so clients parse a single format.
"""

from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from annotation.errors import DomainError


def exception_handler(exc, context):
    if isinstance(exc, DomainError):
        body = {"detail": exc.message, "code": exc.code}
        if exc.field_errors:
            body["errors"] = exc.field_errors
        return Response(body, status=exc.http_status)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        errors = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        response.data = {"detail": "Invalid input.", "code": "invalid", "errors": errors}
    elif isinstance(response.data, dict) and "detail" in response.data:
        detail = response.data["detail"]
        # DRF has already turned Http404 / PermissionDenied into APIExceptions whose detail has a code.
        response.data = {"detail": str(detail), "code": getattr(detail, "code", None) or "error"}
    return response
