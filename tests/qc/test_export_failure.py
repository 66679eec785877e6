"""A gold export that fails half-way leaves nothing behind: no .tmp file, no file that looks complete."""

import pytest

from annotation.models import Project
from qc.exports import FORMATS, gold_export
from tests.annotation.importing.imports import csqa_import
from tests.annotation.importing.messy import messy_bytes

pytestmark = pytest.mark.django_db


class StopHalfWay(Exception):
    pass


def _stop_after_first_chunk(written: int) -> None:
    raise StopHalfWay(written)


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_export_failing_mid_write_leaves_no_temporary_file(tmp_path, fmt):
    csqa_import(path_or_bytes=messy_bytes(), project_slug="messy", language="id")
    project = Project.objects.get(slug="messy")
    out = tmp_path / "out"

    # progress runs after each chunk, with the chunk's rows written and the split's file still open.
    with pytest.raises(StopHalfWay) as stopped:
        gold_export(project=project, fmt=fmt, out_dir=out, chunk_size=2, progress=_stop_after_first_chunk)

    assert stopped.value.args == (2,)
    assert sorted(p.name for p in out.iterdir()) == []


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_export_after_a_failed_one_writes_every_file(tmp_path, fmt):
    csqa_import(path_or_bytes=messy_bytes(), project_slug="messy", language="id")
    project = Project.objects.get(slug="messy")
    with pytest.raises(StopHalfWay):
        gold_export(project=project, fmt=fmt, out_dir=tmp_path, chunk_size=2, progress=_stop_after_first_chunk)

    result = gold_export(project=project, fmt=fmt, out_dir=tmp_path, chunk_size=2)

    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["README.md", *result.files.values()])
