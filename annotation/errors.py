"""Domain errors raised by services. Views and the API turn them into messages / HTTP statuses."""


class DomainError(Exception):
    """Base class: a refused action. Nothing has been changed when one is raised."""

    http_status = 400
    code = "refused"

    def __init__(self, message: str, *, field_errors: dict[str, list[str]] | None = None):
        super().__init__(message)
        self.message = message
        self.field_errors = field_errors or {}


class IllegalTransition(DomainError):
    """The object is not in a state that allows this action (approve a draft, edit an approved item)."""

    http_status = 409
    code = "illegal_transition"


class Conflict(DomainError):
    """Someone else changed the object first (two reviewers deciding the same version)."""

    http_status = 409
    code = "conflict"


class InvalidInput(DomainError):
    """The data does not pass validation; `field_errors` says where."""

    http_status = 400
    code = "invalid"


class NotAllowed(DomainError):
    """The user's role does not allow this action on an object they can otherwise see."""

    http_status = 403
    code = "not_allowed"


class ServiceUnavailable(DomainError):
    """A service the action needs (the task broker) is unreachable: nothing was started; try again later."""

    http_status = 503
    code = "unavailable"


class Paused(NotAllowed):
    """The annotator's work is paused (too many known-answer checks missed) until an admin resumes it."""

    code = "paused"
