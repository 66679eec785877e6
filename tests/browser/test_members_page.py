"""The Members page on a laptop screen: every Deactivate button lies inside the members panel (it was
clipped by the invite column), so a click reaches it."""

import pytest

from tests.browser.conftest import log_in
from tests.factories import make_csqa_project

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BOXES = """() => {
  const panel = document.getElementById("members-panel").getBoundingClientRect();
  return Array.from(document.querySelectorAll("#members button.danger")).map((b) => {
    const box = b.getBoundingClientRect();
    return box.left >= panel.left && box.right <= panel.right && box.width > 0;
  });
}"""


@pytest.mark.parametrize("width", [1024, 1366])
def test_every_deactivate_button_is_inside_the_members_panel(new_page, transactional_db, width):
    world = make_csqa_project(slug=f"members{width}", annotators=4)
    for n, member in enumerate(world.project.memberships.filter(role="annotator")):
        member.code = f"a-long-annotator-code-{n}"
        member.save(update_fields=["code"])
    page = new_page()
    page.set_viewport_size({"width": width, "height": 800})
    log_in(page, world.admin.username)

    page.goto(f"/p/{world.project.slug}/members/")

    assert page.evaluate(BOXES) == [True] * 5  # the reviewer and four annotators; not the admin themself
