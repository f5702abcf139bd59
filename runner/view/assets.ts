/**
 * The run explorer's stylesheet and script, shipped in the package as strings (no CDN, no network): every page and
 * the export inline them. The script builds table rows with textContent only (never innerHTML), so no string from a
 * model, a database or a benchmark file can become markup. `VIEW_JS_HASH` is its CSP hash: a page runs this script
 * and nothing else (no inline handlers, no other script).
 */
import { createHash } from "node:crypto";

export const VIEW_CSS = `
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d2430;background:#fafbfc}
header.top{background:#1d2430;color:#fff;padding:.5rem 1rem}
header.top a{color:#fff;text-decoration:none;font-weight:600}
main{max-width:1400px;margin:0 auto;padding:1rem;min-width:0}
section.page{min-width:0}
h1{font-size:1.35rem;margin:.4rem 0}
h2{font-size:1.1rem;margin:1.2rem 0 .4rem}
h3{font-size:1rem;margin:.8rem 0 .3rem}
a{color:#0b57d0}
.meta{color:#555;margin:.2rem 0;overflow-wrap:anywhere}
.note{background:#fff8e1;border-left:3px solid #f0b400;padding:.3rem .6rem;margin:.5rem 0;overflow-wrap:anywhere}
.refused{background:#fdecea;border-left:3px solid #c62828;padding:.5rem .8rem}
table{border-collapse:collapse;width:100%;table-layout:fixed;background:#fff}
th,td{border:1px solid #dde1e6;padding:.25rem .4rem;text-align:left;vertical-align:top;overflow-wrap:anywhere;word-break:break-word}
th{background:#eef1f5;font-weight:600}
th.num,td.num{text-align:right}
table.auto{table-layout:auto}table.runs th,table.runs td{overflow-wrap:break-word;word-break:normal}table.runs td:first-child{overflow-wrap:anywhere}table.runs td.num{white-space:nowrap}
.clamp{display:-webkit-box;-webkit-line-clamp:3;-webkit-box-orient:vertical;overflow:hidden}
pre,code{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f4f6f8;border:1px solid #e1e5ea;padding:.4rem .5rem;margin:.3rem 0;max-width:100%}
.v{display:inline-block;padding:0 .4rem;border-radius:3px;font-size:12px;font-weight:600}
.v-right{background:#d7f2dd;color:#17622a}.v-wrong{background:#fbd9d6;color:#8a1c12}
.v-failed{background:#ffe3b3;color:#7a4a00}.v-skipped,.v-unscored{background:#e4e7eb;color:#444}
.bar{height:.7rem;background:#6b8fd6;border-radius:2px;max-width:100%}
.filters{display:flex;flex-wrap:wrap;gap:.4rem .8rem;align-items:end;margin:.5rem 0;background:#fff;border:1px solid #dde1e6;padding:.5rem}
.filters label{display:flex;flex-direction:column;font-size:12px;color:#444;min-width:0}
.filters input,.filters select{font:inherit;max-width:14rem}
.pager{display:flex;gap:.6rem;align-items:center;margin:.4rem 0;flex-wrap:wrap}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,300px),1fr));gap:.8rem;min-width:0}
.grid>div{min-width:0}
del{background:#fbd9d6;text-decoration:line-through}
ins{background:#d7f2dd;text-decoration:none}
details{margin:.25rem 0}
summary{cursor:pointer}
.step{border:1px solid #dde1e6;background:#fff;padding:.5rem .7rem;margin:.6rem 0;min-width:0}
.step.reused{border-left:4px solid #9aa5b1;background:#f6f7f9}
.step.err{border-left:4px solid #c62828}
.step h3{margin:0 0 .3rem}
.error{background:#fdecea;border:1px solid #f5c2bd;padding:.4rem .6rem;margin:.3rem 0;overflow-wrap:anywhere}
.cmd{background:#1d2430;color:#e8edf3;padding:.3rem .5rem;border-radius:3px;display:block;white-space:pre-wrap;overflow-wrap:anywhere}
.chart-table{max-width:100%}
ul.ids{columns:12rem;padding-left:1.2rem}
th.c-id{width:7rem}th.c-db{width:9rem}th.c-diff{width:7rem}th.c-verdict{width:5.5rem}th.c-num{width:5rem}
@media (max-width:700px){.wide-only{display:none}main{padding:.5rem}th.c-id{width:3.5rem}th.c-verdict{width:4.6rem}th.c-num{width:3.6rem}th,td{padding:.2rem .25rem}}
@media print{header.top{display:none}}
`;

export const VIEW_JS = `(function(){
"use strict";
var exportMode = document.body.getAttribute("data-mode") === "export";
function route(){
  if (!exportMode) return;
  var pages = document.querySelectorAll("section.page");
  var want = location.hash.slice(1);
  var found = false;
  for (var i = 0; i < pages.length; i++) if (pages[i].id === want) found = true;
  for (var j = 0; j < pages.length; j++) pages[j].hidden = found ? pages[j].id !== want : j !== 0;
  window.scrollTo(0, 0);
}
window.addEventListener("hashchange", route);
route();

function el(tag, text, cls){ var e = document.createElement(tag); if (text !== undefined && text !== null) e.textContent = String(text); if (cls) e.className = cls; return e; }
var PAGE = 100;

function setupTable(script){
  var data = JSON.parse(script.textContent);
  var fields = data.fields;
  var rows = data.rows.map(function(a){ var r = {}; for (var i = 0; i < fields.length; i++) r[fields[i]] = a[i]; return r; });
  var root = document.getElementById(script.getAttribute("data-table"));
  if (!root) return;
  var form = root.querySelector("form.filters");
  var tbody = root.querySelector("tbody");
  var countEl = root.querySelector(".count");
  var prev = root.querySelector("button.prev"), next = root.querySelector("button.next");
  var detail = data.detail ? new Set(data.detail) : null;
  var state = { v: "", diff: "", db: "", ok: "", ov: "", text: "", sort: "", dir: "desc", page: 0 };
  if (!exportMode) {
    var params = new URLSearchParams(location.search);
    Object.keys(state).forEach(function(k){ var x = params.get(k); if (x !== null) state[k] = k === "page" ? Math.max(0, parseInt(x, 10) || 0) : x; });
  }
  function fill(name, values){
    var select = form.elements[name]; if (!select) return;
    values.forEach(function(x){ var o = el("option", x); o.value = x; select.appendChild(o); });
  }
  function distinct(f){ var s = new Set(); rows.forEach(function(r){ var x = f(r); if (x !== "" && x !== undefined) s.add(x); }); return Array.from(s).sort(); }
  fill("diff", distinct(function(r){ return r.diff; }));
  fill("db", distinct(function(r){ return r.db; }));
  var okeys = new Set(); rows.forEach(function(r){ Object.keys(r.out).forEach(function(k){ okeys.add(k); }); });
  fill("ok", Array.from(okeys).sort());
  Object.keys(state).forEach(function(k){ if (form.elements[k] && k !== "page") form.elements[k].value = state[k]; });
  var SORT = { cost: "tok", latency: "lat", rounds: "rounds", calls: "calls" };
  function matches(r){
    if (state.v && r.v !== state.v) return false;
    if (state.diff && r.diff !== state.diff) return false;
    if (state.db && r.db !== state.db) return false;
    if (state.ok) {
      if (!Object.prototype.hasOwnProperty.call(r.out, state.ok)) return false;
      if (state.ov !== "" && String(r.out[state.ok]) !== state.ov) return false;
    }
    if (state.text) {
      var t = state.text.toLowerCase();
      if (r.q.toLowerCase().indexOf(t) < 0 && r.sql.toLowerCase().indexOf(t) < 0 && r.init.toLowerCase().indexOf(t) < 0 && r.id.toLowerCase() !== t) return false;
    }
    return true;
  }
  function render(){
    var shown = rows.filter(matches);
    var key = SORT[state.sort];
    if (key) { var sign = state.dir === "asc" ? 1 : -1; shown.sort(function(a, b){ return sign * (a[key] - b[key]); }); }
    var pages = Math.max(1, Math.ceil(shown.length / PAGE));
    if (state.page >= pages) state.page = pages - 1;
    var slice = shown.slice(state.page * PAGE, state.page * PAGE + PAGE);
    var frag = document.createDocumentFragment();
    slice.forEach(function(r){
      var tr = el("tr"); tr.setAttribute("data-id", r.id); tr.setAttribute("data-verdict", r.v);
      var idCell = el("td");
      if (!detail || detail.has(r.id)) { var a = el("a", r.id); a.href = data.link + encodeURIComponent(r.id); idCell.appendChild(a); }
      else idCell.appendChild(el("span", r.id));
      tr.appendChild(idCell);
      tr.appendChild(el("td", r.db, "wide-only"));
      tr.appendChild(el("td", r.diff, "wide-only"));
      var vc = el("td"); vc.appendChild(el("span", r.v, "v v-" + r.v)); tr.appendChild(vc);
      var qc = el("td"); qc.appendChild(el("div", r.q, "clamp")); if (r.fail) qc.appendChild(el("div", r.fail, "meta clamp")); tr.appendChild(qc);
      var sc = el("td", undefined, "wide-only"); sc.appendChild(el("code", r.sql, "clamp")); tr.appendChild(sc);
      tr.appendChild(el("td", r.tok, "num"));
      tr.appendChild(el("td", r.calls, "num wide-only"));
      tr.appendChild(el("td", (r.lat / 1000).toFixed(1), "num wide-only"));
      tr.appendChild(el("td", r.rounds, "num"));
      frag.appendChild(tr);
    });
    tbody.replaceChildren(frag);
    countEl.textContent = shown.length + " of " + rows.length + " questions" + (shown.length > PAGE ? " (page " + (state.page + 1) + " of " + pages + ")" : "");
    prev.disabled = state.page <= 0; next.disabled = state.page >= pages - 1;
    if (!exportMode) {
      var q = new URLSearchParams();
      Object.keys(state).forEach(function(k){ if (state[k] !== "" && state[k] !== 0 && !(k === "dir" && state[k] === "desc")) q.set(k, state[k]); });
      var s = q.toString();
      history.replaceState(null, "", location.pathname + (s ? "?" + s : ""));
    }
    root.setAttribute("data-ready", "1");
  }
  function read(){ Object.keys(state).forEach(function(k){ if (form.elements[k] && k !== "page") state[k] = form.elements[k].value; }); state.page = 0; render(); }
  form.addEventListener("input", read);
  form.addEventListener("change", read);
  form.addEventListener("submit", function(e){ e.preventDefault(); read(); });
  prev.addEventListener("click", function(){ state.page--; render(); });
  next.addEventListener("click", function(){ state.page++; render(); });
  var quick = root.parentNode.querySelectorAll("[data-set-verdict]");
  for (var i = 0; i < quick.length; i++) quick[i].addEventListener("click", function(e){
    e.preventDefault(); form.elements.v.value = this.getAttribute("data-set-verdict"); read();
  });
  render();
}
var scripts = document.querySelectorAll("script[data-table]");
for (var i = 0; i < scripts.length; i++) setupTable(scripts[i]);
})();`;

/** The CSP source that allows exactly VIEW_JS. */
export const VIEW_JS_HASH = `'sha256-${createHash("sha256").update(VIEW_JS).digest("base64")}'`;

/** The pages' Content-Security-Policy: nothing from the network, no inline handler, no script but VIEW_JS. */
export const VIEW_CSP = `default-src 'none'; style-src 'unsafe-inline'; script-src ${VIEW_JS_HASH}; img-src data:; base-uri 'none'; form-action 'self'`;
