// The first hypothesis gets the focus only where there is a keyboard and a fine pointer: on a phone
// focusing it would open the on-screen keyboard and scroll the premise out of view.
(function () {
  const KEYBOARD = "(pointer: fine) and (hover: hover)";
  function focusFirst() {
    if (!window.matchMedia(KEYBOARD).matches) return;
    if (document.activeElement && document.activeElement !== document.body) return;
    const first = document.querySelector("#hypotheses textarea:not([disabled])");
    if (first) first.focus({ preventScroll: true });
  }
  document.addEventListener("DOMContentLoaded", focusFirst);
})();
