/* The guidelines drawer (<details data-open-wide>) starts closed so it stays out of the way on small
 * screens; on a wide screen there is room beside the form, so it opens at once. */
(function () {
  "use strict";
  if (!window.matchMedia("(min-width: 801px)").matches) return;
  document.querySelectorAll("details[data-open-wide]").forEach(function (el) {
    el.open = true;
  });
})();
