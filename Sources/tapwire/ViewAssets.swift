// SPDX-License-Identifier: Apache-2.0

/// The style sheet, script and content security policy inlined into every `tapwire view`
/// page: plain CSS and a few dozen lines of plain script, nothing loaded from anywhere.
enum ViewAssets {
  /// No load of any kind (no image, font, frame, fetch or form target); only the inline
  /// style and script.
  static let contentSecurityPolicy =
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
    + "base-uri 'none'; form-action 'none'"

  static let style = """
    body{font:14px/1.35 system-ui,sans-serif;margin:0;color:#111;background:#fff}
    header{padding:8px 14px;border-bottom:1px solid #ccc}h1{font-size:17px;margin:4px 0}
    h2{font-size:14px;margin:4px 0 6px}.source{margin:2px 0;color:#555}
    main{display:flex;gap:12px;padding:8px 14px;align-items:flex-start}
    #tree{flex:1 1 45%;max-height:85vh;overflow:auto;min-width:0}
    #hex{flex:1 1 55%;max-height:85vh;overflow:auto;min-width:0}
    #tree ul{list-style:none;margin:0;padding-left:16px}#tree>ul{padding-left:0}
    .f{cursor:pointer;border-radius:3px;padding:0 2px}.f code{color:#777;font-size:12px}
    body[data-format=mfc] #tree{flex-basis:34%}body[data-format=mfc] #hex{flex-basis:66%}
    .n{color:#444}.err{color:#b00;font-weight:600}
    .f.lit,tr.lit,#messages li.lit{background:#ffe14d;outline:1px solid #a80}
    .f.sel{outline:2px solid #05c}
    .rows{font:13px/1.5 ui-monospace,DejaVu Sans Mono,monospace;white-space:nowrap}
    .row .a{color:#888;display:inline-block;width:8.5em}.row .t{color:#666;margin-left:1em}
    .row .k{color:#345;margin-left:1em;font:11px system-ui,sans-serif}
    .sector{font-weight:600;margin-top:6px;border-top:1px solid #bbb;padding-top:2px;
    font-family:system-ui,sans-serif;font-size:13px}
    .rows i{font-style:normal;padding:0 3px;cursor:pointer}
    i.c0{background:#fff;color:#999}i.c1{background:#eee}i.c2{background:#c9dcff}
    i.c3{background:#ffd970}i.c4{background:#ff9c9c}i.c5{background:#ffbf80}
    i.c6{background:#cfcfcf}i.c7{background:#b5e6b5}i.c8{background:#9ed6ef}
    i.c9{background:#c8b5f2}i.c10{background:#f5b2da}i.c11{background:#e9d36b}
    i.c12{background:#dfe8f3}i.c13{background:#f3e6cf}
    i.e{outline:2px solid #d00;outline-offset:-2px;color:#900}
    .rows i.lit{background:#ffe14d;color:#000;outline:1px solid #a80}
    #legend{list-style:none;padding:0;margin:6px 0;display:flex;flex-wrap:wrap;gap:4px 14px}
    #legend i{display:inline-block;width:14px;height:14px;margin-right:4px;vertical-align:-2px;
    border:1px solid #999}#legend i.c0{background:#fff}
    #messages{margin:4px 0;padding-left:18px}.error{color:#b00}.warning{color:#850}.note{color:#345}
    #parts{padding:4px 14px}table{border-collapse:collapse;font-size:13px}
    td,th{border:1px solid #ddd;padding:2px 6px;text-align:left;vertical-align:top}
    tr.f:hover{background:#fff7c0}#selftest{padding:8px 14px}
    #tree>ul>li{content-visibility:auto;contain-intrinsic-size:auto 40px}
    body:not([data-format=mfc]) .rows{min-width:50em}
    body:not([data-format=mfc]) .row{content-visibility:auto;contain-intrinsic-size:auto 20px}
    """

  /// Lighting (hover, click, keyboard focus), in both directions, and the `#selftest`.
  static let script = #"""
    (function () {
      "use strict";
      var hex = document.getElementById("hex");
      var bytes = Array.prototype.slice.call(hex.getElementsByTagName("i"));
      bytes.forEach(function (b, n) { b.twOffset = n; });
      var treeFields = Array.prototype.slice.call(document.querySelectorAll("#tree [data-start]"));
      var starts = treeFields.map(function (f) { return +f.getAttribute("data-start"); });
      var ends = treeFields.map(function (f) { return +f.getAttribute("data-end"); });
      var lit = [], selected = null;
      function light(f) {
        lit.forEach(function (e) { e.classList.remove("lit"); });
        lit = [];
        if (!f) { document.body.removeAttribute("data-lit"); return; }
        var s = +f.getAttribute("data-start"), e = +f.getAttribute("data-end");
        for (var i = s; i < e && i < bytes.length; i++) { bytes[i].classList.add("lit"); lit.push(bytes[i]); }
        f.classList.add("lit");
        lit.push(f);
        document.body.setAttribute("data-lit", s + "-" + e);
      }
      function innermost(offset) {
        var best = -1;
        for (var k = 0; k < treeFields.length; k++) {
          if (starts[k] <= offset && offset < ends[k] &&
              (best < 0 || ends[k] - starts[k] <= ends[best] - starts[best])) { best = k; }
        }
        return best < 0 ? null : treeFields[best];
      }
      function target(node) {
        if (!node || !node.closest) { return null; }
        var f = node.closest("[data-start]");
        if (f) { return f; }
        return node.twOffset === undefined ? null : innermost(node.twOffset);
      }
      function select(f, from) {
        if (selected) { selected.classList.remove("sel"); }
        selected = f;
        if (f) { f.classList.add("sel"); }
        light(f);
        if (!f || !from) { return; }
        var first = bytes[+f.getAttribute("data-start")];
        if (from.twOffset === undefined && first && first.scrollIntoView) { first.scrollIntoView({ block: "nearest" }); }
        if (from.twOffset !== undefined && f.scrollIntoView) { f.scrollIntoView({ block: "nearest" }); }
      }
      document.addEventListener("mouseover", function (ev) { light(target(ev.target) || selected); });
      document.addEventListener("click", function (ev) { var f = target(ev.target); if (f) { select(f, ev.target); } });
      document.addEventListener("focusin", function (ev) { var f = target(ev.target); if (f) { select(f, null); } });
      function litBytes() { return Array.prototype.slice.call(hex.querySelectorAll("i.lit")); }
      function exactly(f, s, e, failures, what) {
        var on = litBytes(), ok = on.length === Math.min(e, bytes.length) - s && f.classList.contains("lit");
        on.forEach(function (b) { if (b.twOffset < s || b.twOffset >= e) { ok = false; } });
        if (!ok) { failures.push(what + " " + s + "-" + e + ": " + on.length + " bytes lit"); }
      }
      function selftest() {
        var failures = [], fields = Array.prototype.slice.call(document.querySelectorAll("[data-start]"));
        var step = Math.max(1, Math.floor(fields.length / 400)), checkedFields = 0, checkedBytes = 0;
        for (var k = 0; k < fields.length; k += step) {
          var f = fields[k];
          f.dispatchEvent(new MouseEvent("click", { bubbles: true }));
          var s = +f.getAttribute("data-start"), e = +f.getAttribute("data-end");
          if (!(0 <= s && s <= e && e <= bytes.length)) { failures.push("range " + s + "-" + e + " outside the input"); }
          if (!f.classList.contains("sel")) { failures.push("field " + s + "-" + e + " not selected"); }
          exactly(f, s, e, failures, "field");
          checkedFields++;
        }
        select(null, null);
        var bstep = Math.max(1, Math.floor(bytes.length / 400));
        for (var b = 0; b < bytes.length; b += bstep) {
          bytes[b].dispatchEvent(new MouseEvent("mouseover", { bubbles: true }));
          var owner = innermost(b);
          if (!owner) {
            if (litBytes().length !== 0) { failures.push("byte " + b + " in no field lit something"); }
          } else {
            var os = +owner.getAttribute("data-start"), oe = +owner.getAttribute("data-end");
            if (!(os <= b && b < oe)) { failures.push("byte " + b + " owner does not hold it"); }
            treeFields.forEach(function (t, n) {
              if (starts[n] <= b && b < ends[n] && ends[n] - starts[n] < oe - os) { failures.push("byte " + b + " not innermost"); }
            });
            exactly(owner, os, oe, failures, "byte " + b + " field");
          }
          checkedBytes++;
        }
        light(null);
        var requests = window.performance && performance.getEntriesByType ? performance.getEntriesByType("resource").length : 0;
        if (requests !== 0) { failures.push(requests + " requests left the page"); }
        var loaders = document.querySelectorAll(
          "[src], [srcset], [action], link, img, iframe, object, embed, [href]:not([href^='#'])").length;
        if (loaders !== 0) { failures.push(loaders + " elements that load something"); }
        var out = document.getElementById("selftest");
        out.hidden = false;
        out.setAttribute("data-result", failures.length ? "fail" : "pass");
        out.textContent = (failures.length ? "FAIL " : "PASS ") + checkedFields + " fields, " + checkedBytes +
          " bytes checked, " + requests + " requests" + (failures.length ? "\n" + failures.slice(0, 20).join("\n") : "");
      }
      var chosen = /^#field=(\d+)$/.exec(location.hash);
      if (chosen && treeFields[+chosen[1]]) { select(treeFields[+chosen[1]], null); }
      if (location.hash === "#selftest") { selftest(); }
      window.addEventListener("hashchange", function () { if (location.hash === "#selftest") { selftest(); } });
    })();
    """#
}
