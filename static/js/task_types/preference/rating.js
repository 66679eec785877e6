/* Keys of the preference rating page (templates/annotation/task_types/preference/rating_form.html), beside
 * answer.js (Enter submits). Each response has two focusable scales (relevance, fluency):
 * - 1-5 set the focused scale's score;
 * - Tab / Shift+Tab move between scales (relevance -> fluency -> next response), as the browser does;
 * - b marks the response holding the focus as the best.
 * What was already chosen (a stored rating, or the posted one after an error) comes from data-chosen.
 */
(function () {
  "use strict";

  function root() {
    return document.getElementById("rating");
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

  document.addEventListener("DOMContentLoaded", function () {
    var container = root();
    if (!container) return;
    restore(container);
    var first = container.querySelector(".scale");
    if (first) first.focus();
  });

  document.addEventListener("keydown", function (event) {
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
