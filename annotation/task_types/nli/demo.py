"""The IndoNLI demo project (TaskType.demo): twelve Indonesian premises, four per source genre, each
given to one writer who writes six hypotheses (two per label); lay annotators, QC review on."""

from __future__ import annotations

import csv
import io
from typing import Any

from annotation.task_types.base import DemoProject, DemoWork

SLUG = "demo-nli"
NAME = "Gotong demo: Indonesian NLI"
LANGUAGES = [{"code": "id", "name": "Indonesian", "direction": "ltr"}]
# Every approved pair goes to validation here (the lay default sends 30%), so the demo's judging has work.
SETTINGS = {"annotator_type": "lay", "qc_review": True, "validation_percent": 100}
VALIDATIONS_DONE = 6
WRITERS_PER_PREMISE = 1

# (premise id, source genre, topic, document id, text): written for the demo, not taken from a corpus
PREMISES = [
    (
        "demo-wiki-1",
        "wiki",
        "sejarah",
        "wiki-borobudur",
        "Candi Borobudur dibangun pada abad ke-9 pada masa wangsa Syailendra dan terletak di Magelang, Jawa Tengah.",
    ),
    (
        "demo-wiki-2",
        "wiki",
        "geografi",
        "wiki-toba",
        "Danau Toba di Sumatra Utara adalah danau vulkanik terbesar di Indonesia. "
        "Di tengah danau itu terdapat Pulau Samosir.",
    ),
    (
        "demo-wiki-3",
        "wiki",
        "budaya",
        "wiki-angklung",
        "Angklung adalah alat musik tradisional Sunda yang terbuat dari bambu dan dimainkan dengan cara digoyangkan.",
    ),
    (
        "demo-wiki-4",
        "wiki",
        "geografi",
        "wiki-nias",
        "Kota Gunungsitoli terletak di Pulau Nias dan berjarak sekitar 85 mil laut dari Kota Sibolga.",
    ),
    (
        "demo-news-1",
        "news",
        "transportasi",
        "news-bus-listrik",
        "Pemerintah Kota Bandung menambah sepuluh bus listrik untuk rute Dago-Leuwipanjang mulai bulan depan.",
    ),
    (
        "demo-news-2",
        "news",
        "ekonomi",
        "news-cabai",
        "Harga cabai rawit di pasar tradisional Surabaya naik hampir dua kali lipat menjelang Lebaran "
        "karena pasokan dari petani berkurang.",
    ),
    (
        "demo-news-3",
        "news",
        "olahraga",
        "news-bulu-tangkis",
        "Tim bulu tangkis putri Indonesia meraih medali perak setelah kalah dari Tiongkok di babak final.",
    ),
    (
        "demo-news-4",
        "news",
        "cuaca",
        "news-banjir",
        "Hujan deras sejak Senin malam membuat beberapa ruas jalan di Jakarta Timur tergenang setinggi lutut "
        "orang dewasa. Petugas menyiapkan pompa air di tiga titik.",
    ),
    (
        "demo-web-1",
        "web",
        "kuliner",
        "web-tempe",
        "Untuk membuat tempe, kedelai direbus, dikupas, lalu dicampur ragi dan didiamkan selama dua hari.",
    ),
    (
        "demo-web-2",
        "web",
        "kehidupan sehari-hari",
        "web-komuter",
        "Saya biasanya berangkat kerja naik kereta komuter dari Bogor pukul enam pagi supaya tidak terjebak macet.",
    ),
    (
        "demo-web-3",
        "web",
        "kehidupan sehari-hari",
        "web-warung-kopi",
        "Warung kopi di ujung gang itu buka dua puluh empat jam dan selalu ramai oleh mahasiswa saat musim ujian.",
    ),
    (
        "demo-web-4",
        "web",
        "wisata",
        "web-rinjani",
        "Pendaki Gunung Rinjani wajib mendaftar secara daring dan membawa turun kembali sampahnya ke pos pendakian.",
    ),
]

GUIDELINES = """\
# Writing hypotheses for a premise

You get a **premise**: a sentence, two sentences or a short paragraph in Indonesian. Write **six
hypotheses** about it, **two for each label**:

- **entailment**: certainly true if the premise is true;
- **contradiction**: certainly false if the premise is true;
- **neutral**: might be true or false; the premise does not say.

## Each hypothesis

- **One sentence**, in correct, natural Indonesian, with correct punctuation.
- **Shares at least one keyword** with the premise, and is **not a copy** of a sentence of the premise.
- Vary the reasoning: paraphrase, numbers and dates, negation, world knowledge. Avoid writing every
  contradiction with *tidak*: validators and models learn that shortcut.

## Example

> Kota Gunungsitoli terletak di Pulau Nias dan berjarak sekitar 85 mil laut dari Kota Sibolga.

- entailment: *Gunungsitoli berada di Pulau Nias.*
- contradiction: *Kota Sibolga terletak di Pulau Nias.*
- neutral: *Gunungsitoli adalah kota terbesar di Pulau Nias.*

## After you submit

A QC reviewer approves your hypotheses or sends them back with feedback. Part of the approved pairs
then goes to **validators**, who label each pair without seeing your label: two in the first round,
one more in each of the next two rounds when they disagree. A label chosen by three people (you
included) becomes the gold label.
"""


# Two premises already written (six hypotheses, two per label) and approved.
WORK = (
    DemoWork(
        unit="demo-wiki-4",
        payloads=(
            {"hypothesis": "Gunungsitoli berada di Pulau Nias.", "label": "entailment", "tags": []},
            {"hypothesis": "Jarak Gunungsitoli ke Sibolga sekitar 85 mil laut.", "label": "entailment", "tags": []},
            {"hypothesis": "Kota Sibolga terletak di Pulau Nias.", "label": "contradiction", "tags": []},
            {"hypothesis": "Gunungsitoli berjarak 10 mil laut dari Sibolga.", "label": "contradiction", "tags": []},
            {"hypothesis": "Gunungsitoli adalah kota terbesar di Pulau Nias.", "label": "neutral", "tags": []},
            {"hypothesis": "Ada kapal setiap hari dari Gunungsitoli ke Sibolga.", "label": "neutral", "tags": []},
        ),
    ),
    DemoWork(
        unit="demo-wiki-1",
        payloads=(
            {"hypothesis": "Candi Borobudur terletak di Jawa Tengah.", "label": "entailment", "tags": []},
            {"hypothesis": "Borobudur dibangun pada masa wangsa Syailendra.", "label": "entailment", "tags": []},
            {"hypothesis": "Candi Borobudur dibangun pada abad ke-15.", "label": "contradiction", "tags": []},
            {"hypothesis": "Candi Borobudur terletak di Jawa Timur.", "label": "contradiction", "tags": []},
            {
                "hypothesis": "Candi Borobudur adalah candi yang paling ramai di Magelang.",
                "label": "neutral",
                "tags": [],
            },
            {"hypothesis": "Pembangunan Candi Borobudur memakan waktu puluhan tahun.", "label": "neutral", "tags": []},
        ),
    ),
)


def demo_validation(payload: dict[str, Any]) -> dict[str, Any]:
    """A demo validator's label: the author's."""
    return {"label": payload["label"], "error": False, "correction": "", "comment": ""}


def premises_csv() -> bytes:
    """The premises as the CSV an admin would upload through the premise import."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["premise_id", "text", "source", "topic", "document_id"])
    for premise_id, source, topic, document_id, text in PREMISES:
        writer.writerow([premise_id, text, source, topic, document_id])
    return out.getvalue().encode("utf-8")


def demo_project() -> DemoProject:
    return DemoProject(
        slug=SLUG,
        name=NAME,
        languages=LANGUAGES,
        guidelines=GUIDELINES,
        settings=SETTINGS,
        authors_per_unit=WRITERS_PER_PREMISE,
        units_file=premises_csv(),
        units_filename="demo-premises.csv",
        work=WORK,
        judged=VALIDATIONS_DONE,
        judgment=demo_validation,
    )
