/* Keys of the answering page, on top of shortcuts.js (which handles 1-5 / A-E, U, Q, Ctrl+Enter).
 *
 * - Enter submits the answer form, unless the focus is in the reason box (a new line there),
 *   on a button or a link (they act on Enter themselves).
 * - Shift+1 .. Shift+5 toggle "option A..E is ambiguous". The physical key (event.code) is used
 *   because Shift+1 types "!" on some layouts; where Shift+1 types "1" (AZERTY) the digit selects.
 */
(function () {
  "use strict";

  function answerForm() {
    return document.querySelector("form[data-answer-form]");
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
    var form = answerForm();
    if (!form || event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
    var tag = event.target && event.target.tagName ? event.target.tagName.toLowerCase() : "";
    if (tag === "textarea" || tag === "select" || tag === "a" || tag === "button") return;
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      submit(form);
      return;
    }
    var digit = /^Digit([1-5])$/.exec(event.code || "");
    if (event.shiftKey && digit && !/^[0-9]$/.test(event.key)) {
      var box = form.querySelector('[data-option-flag="' + digit[1] + '"]');
      if (box) {
        event.preventDefault();
        box.click();
      }
    }
  });
})();
