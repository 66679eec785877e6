from annotation.models.assignments import Assignment
from annotation.models.items import Item, ItemVersion
from annotation.models.judgments import Judgment
from annotation.models.projects import (
    AnnotatorProfile,
    Category,
    Concept,
    Invitation,
    Membership,
    Project,
    ProjectLanguage,
)

__all__ = [
    "AnnotatorProfile",
    "Assignment",
    "Category",
    "Concept",
    "Invitation",
    "Item",
    "ItemVersion",
    "Judgment",
    "Membership",
    "Project",
    "ProjectLanguage",
]
