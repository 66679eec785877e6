/* Keys of the judging page, on top of shortcuts.js (which clicks [data-hotkey] elements and handles
 * Ctrl+Enter). The task type's keys come from the form's data-judgment-keys (JSON, key -> value):
 * nothing here knows a protocol's options.
 *
 * - A judgment key picks the radio input with that value, unless the task type's template already
 *   wired the key to an element (data-hotkey), which shortcuts.js clicks.
 * - Enter submits the form, unless the focus is in a text box (a new line there), on a button or
 *   a link (they act on Enter themselves).
 * - Shift+digit toggles the box marked data-option-flag="<digit>" (e.g. "this option is ambiguous").
 *   The physical key (event.code) is used because Shift+1 types "!" on some layouts; where Shift+1
 *   types "1" (AZERTY) the digit selects.
 */
(function () {
  "use strict";

  function judgingForm() {
    return document.querySelector("form[data-answer-form]");
  }

  function judgmentKeys(form) {
    try {
      return JSON.parse(form.getAttribute("data-judgment-keys") || "{}");
    } catch (e) {
      return {};
    }
  }

  function submit(form) {
    var button = form.querySelector("[data-submit]");
    if (typeof form.requestSubmit === "function") {
      form.requestSubmit(button || undefined);
    } else if (button) {
      button.click();
    }
  }

  document.addEventListener("keydown", function (event) {
    var form = judgingForm();
    if (!form || event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
    // Keys typed in the skip box (its reasons, its note) are the skip form's, not the judgment's.
    if (event.target && event.target.closest && event.target.closest("#skip-box")) return;
    var tag = event.target && event.target.tagName ? event.target.tagName.toLowerCase() : "";
    if (tag === "textarea" || tag === "select" || tag === "a" || tag === "button") return;
    if (tag === "input" && ["text", "search", "number", "email", "url"].indexOf(event.target.type) !== -1) return;
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      submit(form);
      return;
    }
    var digit = /^Digit([1-9])$/.exec(event.code || "");
    if (event.shiftKey && digit && !/^[0-9]$/.test(event.key)) {
      var box = form.querySelector('[data-option-flag="' + digit[1] + '"]');
      if (box) {
        event.preventDefault();
        box.click();
      }
      return;
    }
    if (event.shiftKey) return;
    var key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    var keys = judgmentKeys(form);
    if (!Object.prototype.hasOwnProperty.call(keys, key)) return;
    if (document.querySelector('[data-hotkey="' + CSS.escape(key) + '"]')) return; // shortcuts.js clicks it
    var radio = form.querySelector('input[type="radio"][value="' + CSS.escape(String(keys[key])) + '"]');
    if (radio) {
      event.preventDefault();
      radio.click();
      radio.focus();
    }
  });
})();
