/* Autosave of the authoring form (form[data-autosave-url]): work is never lost.
 *
 * - About 3 s after typing stops, the form's fields go to the server as a draft (fetch, CSRF token in
 *   the form data); the status line then says "Draft saved at HH:MM" (the time comes from the server,
 *   in the user's time zone; the words from the form's data- attributes, translated by the template).
 * - Leaving the page (pagehide, or the tab hidden) with unsaved changes sends them with
 *   navigator.sendBeacon, which the browser delivers even as the page goes away.
 * - While changes are unsaved, leaving asks for confirmation (beforeunload); never after a submit.
 * Listeners sit on document: htmx swaps the form after "Save draft", which saves everything itself.
 */
(function () {
  "use strict";

  var DELAY_MS = 3000;
  var timer = null;
  var edits = 0; // changes typed so far
  var savedEdits = 0; // changes the server holds
  var leaving = false; // a form is being submitted: the page goes away on purpose

  function autosaveForm() {
    return document.querySelector("form[data-autosave-url]");
  }

  function dirty() {
    return edits !== savedEdits && !leaving;
  }

  function setStatus(form, text) {
    var status = document.getElementById("autosave-status");
    if (status) status.textContent = text;
  }

  function fieldsOf(form) {
    var data = new FormData(form);
    data.delete("action");
    return data;
  }

  function save(form) {
    clearTimeout(timer);
    timer = null;
    if (!dirty()) return;
    var sent = edits;
    setStatus(form, form.getAttribute("data-autosave-saving"));
    fetch(form.getAttribute("data-autosave-url"), {
      method: "POST",
      body: fieldsOf(form),
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    })
      .then(function (response) {
        return response.json().then(function (body) {
          if (!response.ok) throw new Error(body.error || response.status);
          return body;
        });
      })
      .then(function (body) {
        savedEdits = Math.max(savedEdits, sent);
        setStatus(form, form.getAttribute("data-autosave-saved").replace("{time}", body.time));
      })
      .catch(function () {
        setStatus(form, form.getAttribute("data-autosave-failed"));
      });
  }

  function saveOnLeave() {
    var form = autosaveForm();
    if (!form || !dirty()) return;
    clearTimeout(timer);
    if (navigator.sendBeacon && navigator.sendBeacon(form.getAttribute("data-autosave-url"), fieldsOf(form))) {
      savedEdits = edits;
      return;
    }
    fetch(form.getAttribute("data-autosave-url"), {
      method: "POST",
      body: fieldsOf(form),
      credentials: "same-origin",
      keepalive: true,
    });
    savedEdits = edits;
  }

  function onEdit(event) {
    var form = autosaveForm();
    if (!form || !form.contains(event.target)) return;
    edits += 1;
    clearTimeout(timer);
    timer = setTimeout(function () {
      save(form);
    }, DELAY_MS);
  }

  document.addEventListener("input", onEdit);
  document.addEventListener("change", onEdit);

  document.addEventListener("submit", function () {
    // Submit, or skip: the server takes over the text (and drops the draft); no warning, no beacon.
    leaving = true;
    clearTimeout(timer);
  });

  // "Save draft" goes through htmx (no submit event): the item then holds everything typed so far, and
  // the server drops the autosaved draft. A refused save comes back inside the form, text included.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = autosaveForm();
    if (form && form.contains(event.target)) {
      clearTimeout(timer);
      savedEdits = edits;
    }
  });

  window.addEventListener("beforeunload", function (event) {
    if (!dirty()) return;
    event.preventDefault();
    event.returnValue = ""; // older browsers need it set to show the prompt
  });
  window.addEventListener("pagehide", saveOnLeave);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") saveOnLeave();
  });
  // Back from the browser's page cache after a submit: the page is live again.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) leaving = false;
  });
})();
