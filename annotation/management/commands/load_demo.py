"""Load the demo: a commonsense-QA project in Indonesian and Sundanese, its team and planned work.

Idempotent: a second run finds everything in place, changes nothing and prints the accounts again.
Every write goes through the services, as a user clicking through the product would.
"""

from __future__ import annotations

import csv
import io
import os

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from annotation.management.commands.create_admin import staff_user_create
from annotation.models import Assignment, Membership, Project
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.catalog import concepts_import
from annotation.services.projects import membership_add, profile_update, project_create, user_create

User = get_user_model()

DEFAULT_PASSWORD = "gotong-demo"
PROJECT_SLUG = "demo-csqa"
PROJECT_NAME = "Gotong demo: Indonesian commonsense QA"
LANGUAGES = [
    {"code": "id", "name": "Indonesian", "direction": "ltr"},
    {"code": "su", "name": "Sundanese", "direction": "ltr"},
]

# The six annotators mirror the regions of Putri et al. 2024 (W1..W6).
ANNOTATORS = [
    ("w1", "W1", "West Java", "su,id", "Sundanese", 23, "Bachelor's degree"),
    ("w2", "W2", "Central Java", "jv,id", "Javanese", 25, "Bachelor's degree"),
    ("w3", "W3", "East Java", "jv,id", "Javanese", 21, "Master's degree"),
    ("w4", "W4", "Greater Jakarta", "id", "Betawi", 26, "Bachelor's degree"),
    ("w5", "W5", "Greater Jakarta", "id,min", "Minangkabau", 12, "Diploma"),
    ("w6", "W6", "Bali", "ban,id", "Balinese", 24, "Bachelor's degree"),
]

# category -> (Indonesian name, Sundanese name)
CATEGORY_NAMES = {
    "culinary": ("kuliner", "kuliner"),
    "place": ("tempat", "tempat"),
    "culture": ("budaya", "budaya"),
    "history": ("sejarah", "sajarah"),
    "activity": ("aktivitas", "kagiatan"),
}

# category -> [(concept in Indonesian, Sundanese translation or "")]
CONCEPTS = {
    "culinary": [
        ("rendang", ""),
        ("tempe", ""),
        ("sambal", "sambel"),
        ("nasi tumpeng", ""),
        ("ketupat", "kupat"),
        ("soto", ""),
        ("gudeg", ""),
        ("rujak", ""),
        ("kerupuk", "kurupuk"),
        ("jamu", ""),
    ],
    "place": [
        ("pasar tradisional", ""),
        ("warung", ""),
        ("masjid", "masigit"),
        ("pura", ""),
        ("alun-alun", ""),
        ("pesantren", ""),
        ("sawah", ""),
        ("posyandu", ""),
        ("balai desa", "bale desa"),
        ("terminal bus", ""),
    ],
    "culture": [
        ("batik", ""),
        ("gamelan", ""),
        ("wayang kulit", ""),
        ("angklung", "angklung"),
        ("mudik", ""),
        ("halalbihalal", ""),
        ("arisan", ""),
        ("gotong royong", ""),
        ("selamatan", ""),
        ("kebaya", ""),
    ],
    "history": [
        ("Sumpah Pemuda", ""),
        ("Proklamasi Kemerdekaan", ""),
        ("Majapahit", ""),
        ("Sriwijaya", ""),
        ("Borobudur", ""),
        ("Kartini", ""),
        ("Diponegoro", ""),
        ("Bandung Lautan Api", ""),
        ("Konferensi Asia Afrika", ""),
        ("Reformasi 1998", ""),
    ],
    "activity": [
        ("kerja bakti", ""),
        ("ronda malam", "ronda peuting"),
        ("ngabuburit", ""),
        ("kondangan", ""),
        ("pengajian", "pangaosan"),
        ("senam pagi", ""),
        ("jalan santai", ""),
        ("bermain layangan", ""),
        ("memancing", "nguseup"),
        ("takbiran", ""),
    ],
}

GUIDELINES = """\
# Writing commonsense questions

You get a **category** and a **concept** (for example *culinary* and *rendang*). Write **one
multiple-choice question** that someone who grew up where you live answers without thinking, and that
someone who only read about Indonesia might get wrong. The knowledge should be *common* in your region,
not trivia from a textbook.

## The question

- **Use the concept in the question**, as it is or inflected (*kunjung* → *berkunjung*, *dikunjungi*).
  If it really cannot appear, write a short justification; your reviewer will read it.
- Ask about **everyday life**: what people do, eat, say, wear, when and where. Give enough context to
  make one answer right: a place (*di Jawa Barat*, *di desa*), a time (*saat Lebaran*), a person (*anak
  muda*, *nenek*).
- Write in the **project language** you were given (Indonesian or Sundanese), in full sentences, with
  correct spelling. Regional words are welcome when that is how people really talk.

## The five options (A-E)

- Exactly **one correct answer**, marked as such.
- Four **distractors** that are plausible to an outsider but clearly wrong to a local: same type of
  thing as the answer (all foods, all places, all times), similar length.
- No two options that mean the same thing, no "all of the above", no "none of the above".

## Avoid (reviewers send these back)

| problem | instead of | write |
|---|---|---|
| Superlatives, opinions | "Makanan *paling enak* di Padang?" | "Masakan apa yang disajikan saat kenduri di Padang?" |
| Context too general | "...di seluruh dunia", "...di Asia" | a region, a town, an occasion |
| Logic or cause-and-effect puzzles | "Jika hujan, maka ...?" | a question about a custom or a habit |
| Options of equal value | two answers that are both true | make the distractors clearly wrong |
| Answer equal to a distractor | "soto" and "soto ayam" | options of the same level of detail |
| No valid answer | all five are wrong | check your answer against the question |
| Wrong language, translation error | Indonesian in a Sundanese task | write directly in the task language |

## Example (culinary, *ketupat*)

> Saat Lebaran, ketupat biasanya disantap bersama hidangan apa?
>
> A. Opor ayam · B. Es campur · C. Roti bakar · D. Bubur kacang hijau · E. Mie instan

Answer: **A**. The options are all foods, only one goes with ketupat at Lebaran, and nothing is a
matter of taste.

## After you submit

A QC reviewer approves your question, or sends it back with **feedback** and the **error types**
above. Revise and resubmit; the same reviewer sees your new version beside the old one. Approved
questions are later answered by five annotators from other regions, who may flag them as ambiguous.
"""


def demo_password() -> str:
    return os.environ.get("GOTONG_DEMO_PASSWORD") or DEFAULT_PASSWORD


def concepts_csv() -> bytes:
    """The demo catalogue as the CSV an admin would upload (Sundanese translations where we have them)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["category", "concept", "category_id", "category_su", "concept_su"])
    for category, concepts in CONCEPTS.items():
        name_id, name_su = CATEGORY_NAMES[category]
        for concept, sundanese in concepts:
            writer.writerow([category, concept, name_id, name_su, sundanese])
    return out.getvalue().encode("utf-8")


class Command(BaseCommand):
    help = "Load the demo project, its accounts (one shared password) and planned authoring work."

    def add_arguments(self, parser):
        parser.add_argument(
            "--allow-production",
            action="store_true",
            help="Load the demo even with production settings (it creates accounts with a known password).",
        )

    def handle(self, *args, allow_production: bool, **options):
        if settings.SETTINGS_MODULE.endswith(".production") and not allow_production:
            raise CommandError(
                "The demo creates accounts with a known password; refusing with production settings "
                "(pass --allow-production if you really mean it)."
            )
        password = demo_password()
        with transaction.atomic():
            created = self.load(password)
        self.stdout.write(
            self.style.SUCCESS("Demo loaded.") if created else "The demo was already loaded; nothing changed."
        )
        self.print_accounts(password)

    def load(self, password: str) -> bool:
        """Create whatever is missing; return whether anything was created."""
        created = False
        admin = User.objects.filter(username="admin").first()
        if admin is None:
            admin = staff_user_create(username="admin", password=password, email="admin@example.org")
            created = True
        users = {}
        for username, *_rest in [("reviewer",), *ANNOTATORS]:
            users[username] = User.objects.filter(username=username).first()
        if users["reviewer"] is None:
            users["reviewer"] = user_create(username="reviewer", password=password, email="reviewer@example.org")
            created = True
        for username, *_rest in ANNOTATORS:
            if users[username] is None:
                users[username] = user_create(username=username, password=password, email=f"{username}@example.org")
                created = True

        project = Project.objects.filter(slug=PROJECT_SLUG).first()
        if project is None:
            project = project_create(
                creator=admin,
                name=PROJECT_NAME,
                slug=PROJECT_SLUG,
                task_type="csqa",
                languages=LANGUAGES,
                guidelines=GUIDELINES,
                authors_per_concept=2,
                answerers_per_item=5,
                ambiguity_threshold=3,
            )
            created = True
        members = set(Membership.objects.filter(project=project).values_list("user__username", flat=True))
        wanted = [("reviewer", Membership.Role.REVIEWER, "")] + [
            (username, Membership.Role.ANNOTATOR, code) for username, code, *_rest in ANNOTATORS
        ]
        profiles = {username: rest for username, _code, *rest in ANNOTATORS}
        for username, role, code in wanted:
            if username not in members:
                membership = membership_add(project=project, user=users[username], role=role, code=code)
                if username in profiles:
                    region, native, ethnicity, years, education = profiles[username]
                    profile_update(
                        membership=membership,
                        native_languages=native,
                        region=region,
                        country="Indonesia",
                        ethnicity=ethnicity,
                        years_in_region=years,
                        education=education,
                    )
                created = True

        summary = concepts_import(project=project, data=concepts_csv(), filename="demo-concepts.csv")
        created = created or bool(summary.categories_created or summary.concepts_created or summary.concepts_updated)
        # Planning again would reshuffle work people may have seen in their queue; plan only once.
        if not Assignment.objects.filter(project=project, kind=Assignment.Kind.AUTHOR).exists():
            assignment_plan_authoring(project=project)
            created = True
        return created

    def print_accounts(self, password: str) -> None:
        profiles = {
            m.user.username: getattr(m, "profile", None)
            for m in Membership.objects.filter(
                project__slug=PROJECT_SLUG, user__username__in=[a[0] for a in ANNOTATORS]
            ).select_related("user", "profile")
        }
        rows = [("admin", "admin", "platform and project admin"), ("reviewer", "reviewer", "QC reviewer")]
        for username, code, *_rest in ANNOTATORS:
            profile = profiles.get(username)
            where = f"{profile.region} ({profile.ethnicity})" if profile else ""
            rows.append((username, f"annotator {code}", where))
        self.stdout.write("")
        self.stdout.write(f"Demo project: {PROJECT_NAME} ({PROJECT_SLUG})")
        self.stdout.write(f"Demo accounts, all with the password: {password}")
        for username, role, detail in rows:
            self.stdout.write(f"  {username:<10} {role:<14} {detail}")
        self.stdout.write("")
