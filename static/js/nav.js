/* The top navigation folds into a "Menu" (<details id="nav-menu">) under 600 px.
 *
 * The menu is rendered open, so without this script every link stays reachable; on a narrow screen it
 * starts closed, and crossing the breakpoint (rotating a phone) opens or closes it again. The summary
 * is hidden by CSS on wide screens, where the menu is always open.
 */
(function () {
  "use strict";

  var NARROW = "(max-width: 599.98px)";

  function init() {
    var menu = document.getElementById("nav-menu");
    if (!menu || !window.matchMedia) return;
    var query = window.matchMedia(NARROW);
    var fit = function () {
      menu.open = !query.matches;
    };
    fit();
    if (query.addEventListener) query.addEventListener("change", fit);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
