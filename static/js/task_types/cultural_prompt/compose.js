/* The KALAHI author form: shows the prompt assembled from its parts (user, context, personal situation,
 * instruction; one per line, empty parts left out) while the writer types, as the server assembles it.
 * Choosing the base prompt a variant shares ("Variant of") fills the empty shared parts (user, context,
 * instruction) with the base's own; what the writer already typed is never overwritten. */
(function () {
  "use strict";

  function update(box, out) {
    var parts = [];
    box.querySelectorAll("[data-part]").forEach(function (field) {
      var text = field.value.replace(/\r\n?/g, "\n").trim();
      if (text) parts.push(text);
    });
    out.textContent = parts.join("\n");
  }

  function baseParts() {
    var data = document.getElementById("cp-base-prompts");
    try {
      return data ? JSON.parse(data.textContent) : {};
    } catch (e) {
      return {};
    }
  }

  function init() {
    var box = document.querySelector("[data-compose]");
    var out = document.getElementById("assembled-prompt");
    if (!box || !out) return;
    box.addEventListener("input", function () {
      update(box, out);
    });
    update(box, out);
    var base = document.getElementById("id_prompt_id");
    if (!base) return;
    var bases = baseParts();
    base.addEventListener("change", function () {
      var parts = bases[base.value];
      if (!parts) return;
      ["user", "context", "instruction"].forEach(function (name) {
        var field = box.querySelector('[data-part="' + name + '"]');
        if (field && !field.value.trim() && parts[name]) field.value = parts[name];
      });
      update(box, out);
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
