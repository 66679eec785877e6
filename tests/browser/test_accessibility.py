"""axe-core over the main pages of a seeded project: no violation of "critical" or "serious" impact.

axe.min.js is vendored (tests/browser/vendor/, MPL-2.0, test-only: never served). It is evaluated
through the DevTools protocol rather than added as a <script> element: the site's policy refuses
inline scripts, so `add_script_tag` would be blocked and reported as a CSP violation.
"""

from pathlib import Path

import pytest

from tests.browser.conftest import log_in
from tests.browser.flow_pages import make_flow_pages

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLOW_MACHINE_MS = 30_000

AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text()
BLOCKING = {"critical", "serious"}
RUN_AXE = """async () => {
  const results = await axe.run(document, {resultTypes: ["violations"]});
  return results.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ") + " :: " + n.failureSummary.replace(/\\s+/g, " ")),
  }));
}"""


def axe_violations(page) -> list[dict]:
    page.evaluate(AXE)
    return [v for v in page.evaluate(RUN_AXE) if v["impact"] in BLOCKING]


def test_main_pages_have_no_serious_accessibility_violations(new_page, transactional_db):
    flow = make_flow_pages(slug="a11y")
    pages = {role: new_page() for role in ("anonymous", "annotator", "reviewer", "admin")}
    for page in pages.values():
        page.set_default_timeout(SLOW_MACHINE_MS)  # some twenty pages in a row, on a shared machine
    for role, user in (("annotator", flow.annotator), ("reviewer", flow.reviewer), ("admin", flow.admin)):
        log_in(pages[role], user.username)

    found = {}
    for role, path in flow.pages:
        page = pages[role]
        response = page.goto(path)
        assert response.status == 200, path
        if violations := axe_violations(page):
            found[f"{role} {path}"] = violations

    report = "\n".join(
        f"{where}: [{v['impact']}] {v['id']}: {v['help']}\n    " + "\n    ".join(v["nodes"])
        for where, violations in found.items()
        for v in violations
    )
    print(report)
    assert found == {}, report
