"""One small valid file per import format, built from rows, so a test can break any field of any row.

SAMPLES covers every format the task types register: test_every_format_has_a_sample fails the day a
format is added without one.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import IO, Any

from tests.annotation.importing.messy import row as csqa_row
from tests.annotation.task_types.sentence_completion.data import row as arabculture_row


@dataclass(frozen=True)
class Sample:
    layout: str  # "jsonl" or "csv"
    row: Callable[[int], dict[str, Any]]  # a valid row; n makes its id and texts unique
    long_field: str  # a free text field of the row, where a test or bench may make rows long

    def long_row(self, n: int, extra: str) -> dict[str, Any]:
        """Row n with `extra` appended to its long field (a file of a chosen size from short rows)."""
        row = self.row(n)
        row[self.long_field] = f"{row[self.long_field]} {extra}"
        return row

    def file(self, rows: list[dict[str, Any]]) -> bytes:
        """The rows as the format's file (JSON Lines, or CSV with the first row's columns)."""
        out = io.StringIO()
        self.write(out, rows, header=True)
        return out.getvalue().encode("utf-8", "surrogatepass")

    def write(self, out: IO[str], rows: Iterable[dict[str, Any]], *, header: bool) -> None:
        """Write rows to a text file (the CSV header first when `header`)."""
        rows = iter(rows)
        if self.layout == "jsonl":
            # ASCII JSON: a lone surrogate is written as the escape \ud800, as a real file would hold it.
            for row in rows:
                out.write(json.dumps(row) + "\n")
            return
        first = next(rows)
        writer = csv.DictWriter(out, fieldnames=list(first))
        if header:
            writer.writeheader()
        writer.writerow(first)
        writer.writerows(rows)

    def rows(self, count: int) -> list[dict[str, Any]]:
        return [self.row(n) for n in range(1, count + 1)]


def _kalahi(n: int) -> dict[str, Any]:
    return {
        "prompt_variation_id": f"{n:03d}00",
        "prompt_id": f"{n:03d}",
        "category": "Tradisyon",
        "topic": f"Pista {n}",
        "prompt": f"Ako ay taga-Bulacan.\nAno ang dapat kong dalhin sa pista {n}?",
        "best_answer": "Pagkain",
        "relevant_answers": "Pagkain;Regalo;Bulaklak",
        "irrelevant_answers": "Wala;Pera;Bato",
    }


def _indopref(n: int) -> dict[str, Any]:
    return {
        "id": f"pair-{n}",
        "domain": "Kuliner",
        "language": "id",
        "input": f"Apa makanan khas daerah {n}?",
        "response_1": f"Rendang {n}",
        "response_2": f"Soto {n}",
        "actual_score": "Response 1",
    }


def _prompts(n: int) -> dict[str, Any]:
    return {
        "id": f"prompt-{n}",
        "category": "Kuliner",
        "prompt": f"Ceritakan tentang makanan {n}.",
        "input": "",
        "responses": [{"model": "m1", "text": f"Jawaban {n}"}],
    }


def _indonli(n: int) -> dict[str, Any]:
    return {
        "pair_id": n,
        "premise_id": f"p{n}",
        "premise": f"Budi pergi ke pasar pada hari ke-{n}.",
        "hypothesis": f"Budi keluar rumah pada hari ke-{n}.",
        "label": "e",
        "data_split": "train",
        "annotator_type": "lay",
        "sentence_size": "single",
    }


def _mnli(n: int) -> dict[str, Any]:
    return {
        "pairID": f"{n}e",
        "promptID": f"{n}",
        "genre": "fiction",
        "sentence1": f"The cat sat on mat {n}.",
        "sentence2": f"A cat was on mat {n}.",
        "gold_label": "entailment",
        "label1": "entailment",
        "label2": "entailment",
        "label3": "entailment",
    }


def _csqa(n: int) -> dict[str, Any]:
    return csqa_row(f"q-{n}")


def _sentiment(n: int) -> dict[str, Any]:
    return {
        "id": f"s-{n}",
        "text": f"Kalimat nomor {n} cukup menyenangkan.",
        "author_label": "positive",
        "judges": ["W1", "W2"],
        "judge_labels": ["positive", "positive"],
    }


def _arabculture(n: int) -> dict[str, Any]:
    return arabculture_row(sample=f"{n} | Breakfast", k=n)


SAMPLES: dict[str, Sample] = {
    "id-csqa": Sample("jsonl", _csqa, "question"),
    "kalahi": Sample("csv", _kalahi, "prompt"),
    "indopref": Sample("jsonl", _indopref, "response_1"),
    "preference-prompts": Sample("jsonl", _prompts, "prompt"),
    "indonli": Sample("jsonl", _indonli, "hypothesis"),
    "mnli": Sample("jsonl", _mnli, "sentence2"),
    "arabculture": Sample("jsonl", _arabculture, "first_statement"),
    "sentiment-jsonl": Sample("jsonl", _sentiment, "text"),
}
