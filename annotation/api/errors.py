"""Turn domain errors into JSON responses with the right status and the same message the pages show."""

from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from annotation.errors import DomainError


def exception_handler(exc, context):
    if isinstance(exc, DomainError):
        body = {"detail": exc.message, "code": exc.code}
        if exc.field_errors:
            body["errors"] = exc.field_errors
        return Response(body, status=exc.http_status)
    return drf_exception_handler(exc, context)
