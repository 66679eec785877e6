from annotation.models.aggregation import AggregatedAnnotator, AggregatedItem, AggregationFit, AggregationModel
from annotation.models.assignments import Assignment, AssignmentTally, PlannedBlock
from annotation.models.items import Item, ItemVersion
from annotation.models.judgments import Judgment
from annotation.models.preferences import UserPreferences
from annotation.models.projects import (
    AnnotatorProfile,
    Category,
    Concept,
    Invitation,
    Membership,
    Project,
    ProjectLanguage,
)
from annotation.models.ranking import ModelRanking
from annotation.models.screening import Application, ScreeningSetup
from annotation.models.work import Skip, WorkDraft

__all__ = [
    "AggregatedAnnotator",
    "AggregatedItem",
    "AggregationFit",
    "AggregationModel",
    "AnnotatorProfile",
    "Application",
    "Assignment",
    "AssignmentTally",
    "Category",
    "Concept",
    "Invitation",
    "Item",
    "ItemVersion",
    "Judgment",
    "Membership",
    "ModelRanking",
    "PlannedBlock",
    "Project",
    "ProjectLanguage",
    "ScreeningSetup",
    "Skip",
    "UserPreferences",
    "WorkDraft",
]
