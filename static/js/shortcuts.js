/* Keyboard shortcuts for Gotong pages. No build step, no dependencies.
 *
 * - Ctrl+Enter (Cmd+Enter on a Mac) submits the form with [data-ctrl-enter] that holds the focus
 *   (or the page's first such form), through its [data-submit] button so the button's value is sent.
 * - Ctrl+S clicks the page's [data-save] button (draft save) instead of the browser's "save page".
 * - Outside text fields, a key clicks the element with data-hotkey="<key>" (digits for options).
 * - <select data-autosubmit> submits its form on change.
 * Listeners sit on document, so content swapped in by htmx works without re-binding.
 */
(function () {
  "use strict";

  function isTyping(el) {
    if (!el || !el.tagName) return false;
    var tag = el.tagName.toLowerCase();
    if (tag === "textarea" || tag === "select" || el.isContentEditable) return true;
    if (tag !== "input") return false;
    var type = (el.getAttribute("type") || "text").toLowerCase();
    return ["checkbox", "radio", "button", "submit", "reset", "hidden"].indexOf(type) === -1;
  }

  function submitForm(form) {
    var button = form.querySelector("[data-submit]");
    if (typeof form.requestSubmit === "function") {
      form.requestSubmit(button || undefined);
    } else if (button) {
      button.click();
    } else {
      form.submit();
    }
  }

  document.addEventListener("keydown", function (event) {
    var modifier = event.ctrlKey || event.metaKey;
    if (modifier && event.key === "Enter") {
      var form = event.target.closest ? event.target.closest("form[data-ctrl-enter]") : null;
      form = form || document.querySelector("form[data-ctrl-enter]");
      if (form) {
        event.preventDefault();
        submitForm(form);
      }
      return;
    }
    if (modifier && (event.key === "s" || event.key === "S")) {
      var save = document.querySelector("[data-save]");
      if (save) {
        event.preventDefault();
        save.click();
      }
      return;
    }
    if (modifier || event.altKey || event.repeat || isTyping(event.target)) return;
    var key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    var target = document.querySelector('[data-hotkey="' + CSS.escape(key) + '"]');
    if (target) {
      event.preventDefault();
      target.click();
      target.focus();
    }
  });

  document.addEventListener("change", function (event) {
    var el = event.target;
    if (el.matches && el.matches("select[data-autosubmit]") && el.form) {
      el.form.requestSubmit();
    }
  });
})();
