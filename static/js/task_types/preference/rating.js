/* Keys of the preference rating page (templates/annotation/task_types/preference/rating_form.html), beside
 * answer.js (Enter submits) and shortcuts.js (Ctrl+Enter submits from the comment box). Each response has
 * two focusable scales (relevance, fluency):
 * - 1-5 set the focused scale's score;
 * - Tab / Shift+Tab move between scales (relevance -> fluency -> next response), as the browser does, and
 *   so do ArrowDown / ArrowUp;
 * - b marks the response holding the focus as the best.
 * A focused scale brings its whole response on screen and shows its criterion in the rubric panel
 * (rubric_panel.html) with the chosen score marked. What was already chosen (a stored rating, or the posted
 * one after an error) comes from data-chosen.
 */
(function () {
  "use strict";

  function root() {
    return document.getElementById("rating");
  }

  function checkedScore(scale) {
    var radio = scale.querySelector('input[type="radio"]:checked');
    return radio ? radio.value : "";
  }

  function showCriterion(criterion, score) {
    var panel = document.getElementById("rubric");
    if (!panel) return;
    panel.setAttribute("data-showing", criterion);
    panel.querySelectorAll(".rubric-tab").forEach(function (tab) {
      tab.setAttribute("aria-pressed", tab.getAttribute("data-criterion") === criterion ? "true" : "false");
    });
    panel.querySelectorAll(".rubric-rows li[data-score]").forEach(function (row) {
      var inCriterion = row.closest(".rubric-criterion").getAttribute("data-criterion") === criterion;
      row.classList.toggle("chosen", inCriterion && row.getAttribute("data-score") === score);
    });
  }

  function pick(scale, value) {
    var radio = scale.querySelector('input[type="radio"][value="' + value + '"]');
    if (radio) radio.checked = true;
    scale.classList.add("rated");
  }

  function restore(container) {
    var chosen;
    try {
      chosen = JSON.parse(container.getAttribute("data-chosen") || "{}");
    } catch (e) {
      return;
    }
    (chosen.ratings || []).forEach(function (row, index) {
      ["relevance", "fluency"].forEach(function (criterion) {
        var scale = document.getElementById("scale-" + criterion + "-" + (index + 1));
        if (scale && row && row[criterion]) pick(scale, String(row[criterion]));
      });
    });
    if (chosen.best) {
      var best = document.getElementById("best-" + chosen.best);
      if (best) best.checked = true;
    }
  }

  function moveFrom(scale, step) {
    var scales = Array.prototype.slice.call(root().querySelectorAll(".scale"));
    var next = scales[scales.indexOf(scale) + step];
    if (next) next.focus();
  }

  document.addEventListener("DOMContentLoaded", function () {
    var container = root();
    if (!container) return;
    restore(container);
    var panel = document.getElementById("rubric");
    if (panel) {
      showCriterion("relevance", "");
      panel.querySelectorAll(".rubric-tab").forEach(function (tab) {
        tab.addEventListener("click", function () {
          showCriterion(tab.getAttribute("data-criterion"), "");
        });
      });
    }
    var first = container.querySelector(".scale");
    if (first) first.focus();
  });

  document.addEventListener("focusin", function (event) {
    var container = root();
    var scale = event.target && event.target.closest ? event.target.closest(".scale") : null;
    if (!container || !scale || !container.contains(scale)) return;
    showCriterion(scale.getAttribute("data-criterion"), checkedScore(scale));
    // The whole response, not only its scale: the rater reads what they score (it fits at 768 px high).
    scale.closest(".response").scrollIntoView({ block: "nearest" });
  });

  document.addEventListener("change", function (event) {
    var scale = event.target && event.target.closest ? event.target.closest(".scale") : null;
    if (scale) showCriterion(scale.getAttribute("data-criterion"), checkedScore(scale));
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") {
      var panel = document.getElementById("rubric");
      // On a phone the open rubric covers the page; Escape puts it away (on a wide screen it stays).
      if (panel && panel.open && !window.matchMedia("(min-width: 801px)").matches) panel.open = false;
      return;
    }
    var container = root();
    if (!container || event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (!target || !container.contains(target)) return;
    var tag = target.tagName ? target.tagName.toLowerCase() : "";
    if (tag === "textarea") return;
    var scale = target.closest(".scale");
    if (/^[1-5]$/.test(event.key) && scale) {
      event.preventDefault();
      pick(scale, event.key);
      showCriterion(scale.getAttribute("data-criterion"), event.key);
      return;
    }
    if ((event.key === "ArrowDown" || event.key === "ArrowUp") && scale) {
      event.preventDefault();
      moveFrom(scale, event.key === "ArrowDown" ? 1 : -1);
      return;
    }
    if ((event.key === "b" || event.key === "B") && !event.shiftKey) {
      var response = target.closest(".response");
      if (!response) return;
      var best = response.querySelector('input[name="best"]');
      if (best) {
        event.preventDefault();
        best.checked = true;
      }
    }
  });
})();
