/* Tables reflow into stacked rows under 600 px instead of scrolling sideways.
 *
 * CSS shows each cell as a block with its column's name before it (`td::before { content:
 * attr(data-label) }`); this copies every column header's text into the data-label of the cells under
 * it (colspans counted), for the tables on the page and those htmx swaps in later. Cells that already
 * carry a data-label keep it. As `display: block` drops a table's semantics in some screen readers,
 * the table roles are set explicitly.
 */
(function () {
  "use strict";

  var ROLES = { TABLE: "table", THEAD: "rowgroup", TBODY: "rowgroup", TFOOT: "rowgroup", TR: "row", TD: "cell" };

  function headerLabels(table) {
    var head = table.tHead && table.tHead.rows[table.tHead.rows.length - 1];
    if (!head) return null;
    var labels = [];
    Array.prototype.forEach.call(head.cells, function (cell) {
      var text = cell.textContent.replace(/\s+/g, " ").trim();
      for (var i = 0; i < (cell.colSpan || 1); i++) labels.push(text);
    });
    return labels;
  }

  function label(table) {
    if (table.hasAttribute("data-reflowed")) return;
    table.setAttribute("data-reflowed", "");
    var labels = headerLabels(table);
    table.setAttribute("role", ROLES.TABLE);
    Array.prototype.forEach.call(table.querySelectorAll("thead, tbody, tfoot, tr, td, th"), function (el) {
      if (el.closest("table") !== table) return;
      if (el.tagName === "TH") {
        el.setAttribute("role", el.parentNode.parentNode.tagName === "THEAD" ? "columnheader" : "rowheader");
      } else if (!el.hasAttribute("role")) {
        el.setAttribute("role", ROLES[el.tagName]);
      }
    });
    if (!labels) return;
    Array.prototype.forEach.call(table.tBodies, function (body) {
      Array.prototype.forEach.call(body.rows, function (row) {
        var column = 0;
        Array.prototype.forEach.call(row.cells, function (cell) {
          if (!cell.hasAttribute("data-label") && labels[column]) cell.setAttribute("data-label", labels[column]);
          column += cell.colSpan || 1;
        });
      });
    });
  }

  function labelAll(root) {
    Array.prototype.forEach.call(root.querySelectorAll("table"), label);
  }

  function init() {
    labelAll(document);
    // An outerHTML swap replaces the target itself: look over the whole page (labelled tables are skipped).
    document.body.addEventListener("htmx:afterSettle", function () {
      labelAll(document);
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
