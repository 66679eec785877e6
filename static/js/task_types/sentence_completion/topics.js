// The subtopic list shows only the chosen topic's subtopics (the server refuses any other pair anyway).
(function () {
  function sync(form) {
    const topic = form.querySelector("[data-topic-select]");
    const subtopic = form.querySelector("[data-subtopic-select]");
    if (!topic || !subtopic) return;
    for (const option of subtopic.options) {
      if (!option.value) continue;
      const shown = option.dataset.topic === topic.value;
      option.hidden = !shown;
      option.disabled = !shown;
    }
    const chosen = subtopic.selectedOptions[0];
    if (chosen && chosen.value && chosen.disabled) subtopic.value = "";
    // A topic with a single subtopic: nothing to choose, so it is chosen.
    const choices = Array.from(subtopic.options).filter((option) => option.value && !option.disabled);
    if (choices.length === 1 && !subtopic.value) subtopic.value = choices[0].value;
  }
  function bind(root) {
    const form = root.querySelector ? root.querySelector("#completion-author") : null;
    if (!form || form.dataset.topicsBound) return;
    form.dataset.topicsBound = "1";
    const topic = form.querySelector("[data-topic-select]");
    if (topic) topic.addEventListener("change", () => sync(form));
    sync(form);
  }
  document.addEventListener("DOMContentLoaded", () => bind(document));
  // The form is swapped by htmx after a draft save: bind the new one.
  document.addEventListener("htmx:afterSettle", () => bind(document));
})();
