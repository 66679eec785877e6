from django.contrib import admin

from annotation.models import (
    AnnotatorProfile,
    Assignment,
    Category,
    Concept,
    Item,
    ItemVersion,
    Judgment,
    Membership,
    Project,
)

for model in (AnnotatorProfile, Assignment, Category, Concept, Item, ItemVersion, Judgment, Membership, Project):
    admin.site.register(model)
