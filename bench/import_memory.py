"""Peak memory of importing a large file, for every import format, on PostgreSQL (DATABASE_URL).

For each format, writes a file of --mb megabytes (the rows of tests/annotation/importing/samples.py, each
made ~1 kB long in its free-text field, every row a new item) and imports it with `items_import` in a
fresh child process, which reports its own peak resident memory (VmHWM, read from /proc). Goal (bench/goals.py): under
300 MB whatever the format, i.e. the importers stream their files (a 52 MB preference-prompts file once
peaked at 759 MB, a 247,000-row indopref file at 574 MB).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gotong_bench_memory .venv/bin/python bench/import_memory.py \\
        [--mb 50] [--formats indopref,preference-prompts]

The database named in DATABASE_URL is dropped and re-created (its name must contain "bench").
Progress goes to stderr; the last stdout line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import (  # noqa: E402
    copy_rate,
    database_url_or_exit,
    emit_judged,
    log,
    migrate,
    peak_rss_mb,
    queue_background_tasks,
    recreate_database,
    setup_django,
)
from tests.annotation.importing.samples import SAMPLES  # noqa: E402

PAD = "panjang " * 125  # ~1 kB per row
BATCH = 1000  # rows written at a time


def write_file(path: Path, format_name: str, megabytes: float) -> int:
    """A file of the format of at least `megabytes` MB; returns its number of rows."""
    sample = SAMPLES[format_name]
    rows = 0
    with path.open("w", encoding="utf-8", newline="") as out:
        while out.tell() < megabytes * 2**20:
            sample.write(out, (sample.long_row(n, PAD) for n in range(rows + 1, rows + BATCH + 1)), header=rows == 0)
            rows += BATCH
    return rows


def import_child(path: str, format_name: str) -> None:
    """Run in a fresh process: import the file and report its own time and peak resident memory."""
    setup_django()
    queue_background_tasks()
    from annotation.services import imports

    started = time.perf_counter()
    summary = imports.items_import(
        path_or_bytes=path, project_slug=f"bench-{format_name}", format=format_name, language="id"
    )
    print(
        json.dumps(
            {
                "rows": summary.rows,
                "items": summary.items_created,
                "seconds": time.perf_counter() - started,
                "peak_mb": peak_rss_mb(),
            }
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=float, default=50.0, help="Size of each file in MB (default 50).")
    parser.add_argument("--formats", default=",".join(SAMPLES), help="Comma-separated formats (default: all).")
    parser.add_argument("--import-child", nargs=2, metavar=("FILE", "FORMAT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.import_child:
        import_child(*args.import_child)
        return
    formats = [name.strip() for name in args.formats.split(",") if name.strip()]
    unknown = sorted(set(formats) - set(SAMPLES))
    if unknown:
        sys.exit(f"Unknown formats: {', '.join(unknown)}; known: {', '.join(SAMPLES)}.")

    url = database_url_or_exit()
    recreate_database(url)
    setup_django()
    migrate()
    figures: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for format_name in formats:
            path = Path(tmp) / f"{format_name}.{SAMPLES[format_name].layout}"
            rows = write_file(path, format_name, args.mb)
            size_mb = path.stat().st_size / 2**20
            log(f"{format_name}: wrote {rows} rows ({size_mb:.1f} MB)")
            child = subprocess.run(
                [sys.executable, __file__, "--import-child", str(path), format_name],
                capture_output=True,
                text=True,
                check=False,
            )
            if child.returncode != 0:
                sys.exit(f"the {format_name} import failed:\n{child.stderr[-4000:]}")
            result = json.loads(child.stdout.strip().splitlines()[-1])
            path.unlink()
            log(f"{format_name}: {result['items']} items in {result['seconds']:.1f}s, peak {result['peak_mb']:.0f} MB")
            figures[format_name] = {
                "file_mb": round(size_mb, 1),
                "rows": result["rows"],
                "items": result["items"],
                "seconds": round(result["seconds"], 2),
                "peak_mb": round(result["peak_mb"], 1),
            }
    emit_judged(
        "import_memory",
        {
            "formats": figures,
            "max_peak_mb": max(f["peak_mb"] for f in figures.values()),
            "copy_rows_per_second": round(copy_rate()),
        },
    )


if __name__ == "__main__":
    main()
