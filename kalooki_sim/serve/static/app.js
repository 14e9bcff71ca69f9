// kalooki serve: the pages' behaviour. Every answer comes from the server's Python API; this
// file only gathers the fields, shows progress, and puts each refusal beside its field.
"use strict";
const $ = (s, r = document) => r.querySelector(s);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));

function clearErrors(form) {
  form.querySelectorAll(".err").forEach((e) => { e.textContent = ""; });
  form.querySelectorAll(".invalid").forEach((e) => e.classList.remove("invalid"));
}
function showError(field, message) {
  let box = $("#err-" + field);
  if (!box) box = document.querySelector(".err");
  box.textContent = message;
  const input = $("#f-" + field);
  if (input) input.classList.add("invalid");
  box.scrollIntoView({block: "center", behavior: "instant"});
}
function table(rows, cls) {
  if (!rows.length) return "<tr><td>no decisions</td></tr>";
  const keys = Object.keys(rows[0]);
  return "<tr>" + keys.map((k) => `<th>${esc(k)}</th>`).join("") + "</tr>" + rows.map((r) =>
    "<tr>" + keys.map((k) => `<td class="${k === "verdict" ? "v-" + esc(r[k]) : ""}">${esc(r[k])}</td>`).join("") + "</tr>").join("");
}

// a job: POST the form, then poll its state until it is answered or refused
async function ask(url, body, form, onDone) {
  const go = form.querySelector(".go"), prog = $("#progress");
  clearErrors(form);
  go.disabled = true;
  prog.textContent = "sending ...";
  const stop = () => { go.disabled = false; };
  let res;
  try {
    res = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  } catch (e) { prog.textContent = "the server did not answer: is kalooki serve running?"; return stop(); }
  const data = await res.json();
  if (!res.ok) { prog.textContent = ""; showError(data.field, data.error); return stop(); }
  const jid = data.job;
  for (;;) {
    await new Promise((r) => setTimeout(r, 250));
    const j = await (await fetch("/api/job/" + jid)).json();
    if (j.state === "queued") {
      prog.textContent = `waiting for ${j.ahead} answer${j.ahead === 1 ? "" : "s"} asked before yours ...`;
    } else if (j.state === "running") {
      const frac = j.total ? ` <progress max="${j.total}" value="${j.done}"></progress> ${j.done} of ${j.total}` : "";
      prog.innerHTML = `working: ${j.elapsed.toFixed(0)} s${frac}`;
    } else if (j.state === "error") {
      prog.textContent = "";
      showError(j.field || Object.keys(body)[0], j.error);
      return stop();
    } else {
      prog.textContent = `answered in ${j.seconds.toFixed(1)} s`;
      onDone(j.result);
      return stop();
    }
  }
}

// the card grid: a click adds the card to the card field last focused
let lastCardField = null;
function cardGrid() {
  const grid = $("#card-grid");
  if (!grid) return;
  const ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  for (const s of ["♠", "♥", "♦", "♣"]) {
    for (const r of ranks) {
      const b = document.createElement("button");
      b.type = "button"; b.textContent = r + s; b.dataset.card = r + s;
      if (s === "♥" || s === "♦") b.className = "red";
      grid.appendChild(b);
    }
  }
  const jk = document.createElement("button");
  jk.type = "button"; jk.textContent = "JK"; jk.dataset.card = "JK"; jk.className = "jk";
  grid.appendChild(jk);
  document.querySelectorAll(".cardfield").forEach((f) => f.addEventListener("focus", () => { lastCardField = f; }));
  lastCardField = $("#f-hand");
  grid.addEventListener("click", (e) => {
    const c = e.target.dataset.card;
    if (!c || !lastCardField) return;
    const f = lastCardField;
    if (f.id === "f-card" || f.id === "h-card") f.value = c;
    else f.value = (f.value.trim() ? f.value.trim() + " " : "") + c;
    f.focus();
  });
}

function seats() {
  const p = +$("#f-players").value, d = $("#f-discarder"), keep = d.value || "2";
  d.innerHTML = ""; $("#f-opened").innerHTML = ""; $("#h-seat").innerHTML = "<option value='0'>you</option>";
  for (let k = 1; k < p; k++) {
    const name = k === 1 ? "1 (the player before you)" : `${k}`;
    d.insertAdjacentHTML("beforeend", `<option value="${k}">${name}</option>`);
    $("#f-opened").insertAdjacentHTML("beforeend", `<label><input type="checkbox" value="${k}" id="f-opened-${k}"> seat ${k}</label>`);
    $("#h-seat").insertAdjacentHTML("beforeend", `<option value="${k}">seat ${k}</option>`);
  }
  d.value = +keep < p ? keep : "1";
}

let history = [];
function drawHistory() {
  $("#h-list").innerHTML = history.map((e, i) =>
    `<li>${e[0] === 0 ? "you" : "seat " + e[0]} ${esc(e[1])} ${esc(e[2] || "")}<button type="button" data-i="${i}" aria-label="remove event ${i + 1}">×</button></li>`).join("");
}

function advisePage() {
  cardGrid(); seats();
  $("#f-players").addEventListener("change", seats);
  $("#h-add").addEventListener("click", () => {
    const a = $("#h-action").value, c = $("#h-card").value.trim();
    history.push([+$("#h-seat").value, a, a === "draw" ? null : c]);
    $("#h-card").value = ""; drawHistory();
  });
  $("#h-list").addEventListener("click", (e) => {
    if (e.target.dataset.i !== undefined) { history.splice(+e.target.dataset.i, 1); drawHistory(); }
  });
  $("#advise-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const f = e.target, v = (n) => $("#f-" + n).value;
    const body = {hand: v("hand"), card: v("card"), contract: v("contract"), players: v("players"),
      discarder: v("discarder"), stock_left: v("stock_left"), calls_made: v("calls_made"),
      opened: [...document.querySelectorAll("#f-opened input:checked")].map((x) => +x.value),
      table: v("table"), seen: v("seen"), history: history, rollouts: v("rollouts"), seed: v("seed"),
      objective: v("objective")};
    $("#answer").hidden = true;
    ask("/api/advise", body, f, (r) => {
      $("#sentence").innerHTML = `<b>${esc(r.action.toUpperCase())}</b> (${esc(r.confidence)}). ` + esc(r.sentence);
      $("#picture").innerHTML = r.svg;
      $("#answer-table").innerHTML = table(r.rows);
      $("#answer").hidden = false;
      $("#answer").scrollIntoView({block: "start"});
    });
  });
}

function reviewPage() {
  $("#f-upload").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    clearErrors($("#review-form"));
    if (file.size > 200000) { showError("record", `the file ${file.name} is ${file.size.toLocaleString()} bytes; give a record of at most 200,000 (a hand's record is a few thousand)`); e.target.value = ""; return; }
    $("#f-record").value = await file.text();
  });
  $("#review-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const v = (n) => $("#f-" + n).value;
    const body = {record: v("record"), seed: v("seed"), hand_no: v("hand_no"), seat: v("seat"),
      players: v("players"), policies: v("policies"), rollouts: v("rollouts")};
    $("#answer").hidden = true;
    ask("/api/review", body, e.target, (r) => {
      const t = r.total;
      $("#total").innerHTML = `<b>${esc(r.title)}</b>: ${t.decisions} decisions: <span class="v-good">${t.good} good</span>, ${t.close} close, <span class="v-mistake">${t.mistake} mistake${t.mistake === 1 ? "" : "s"}</span>; points given away by the mistakes: ${t.points_lost}` + (t.score === null ? "" : `; your score in the hand: ${t.score}`) + ".";
      $("#answer-table").innerHTML = table(r.rows);
      $("#replay").srcdoc = r.replay;
      $("#answer").hidden = false;
      $("#answer").scrollIntoView({block: "start"});
    });
  });
}

let cells = [];
const COLS = ["0", "1", "2", "3", "4", "5", "6+", "cannot lay it"];
const tone = (v) => ({call: "vb", take: "vb", pass: "vo", draw: "vo", either: "vg"}[v] || "vu");
function drawChart() {
  const h = +$("#c-hand").value, d = $("#c-decision").value, o = $("#c-opened").value === "true";
  const mine = cells.filter((c) => c.hand === h && c.decision === d && c.opponents_opened === o);
  let out = "";
  for (const band of ["40+", "20-39", "0-19"]) {
    const b = mine.filter((c) => c.stock_band === band);
    const rows = COLS.filter((r) => b.some((c) => c.needed_before === r));
    const cols = COLS.filter((x) => b.some((c) => c.needed_after === x));
    out += `<div><h3>${band} cards in the stock</h3><table><tr><th>before \\ after</th>${cols.map((x) => `<th>${esc(x)}</th>`).join("")}</tr>`;
    for (const r of rows) {
      out += `<tr><th>${esc(r)}</th>` + cols.map((x) => {
        const c = b.find((y) => y.needed_before === r && y.needed_after === x);
        if (!c) return "<td></td>";
        return `<td><button type="button" class="${tone(c.verdict)}" data-id="${c.id}" title="${esc(c.verdict || "thin")}">${c.d_relative === null ? "" : c.d_relative.toFixed(1)}</button></td>`;
      }).join("") + "</tr>";
    }
    out += "</table></div>";
  }
  $("#chart-grids").innerHTML = out || "<p>no cells for this choice</p>";
}
async function chartPage() {
  cells = (await (await fetch("/api/chart")).json()).cells;
  drawChart();
  for (const id of ["#c-hand", "#c-decision", "#c-opened"]) $(id).addEventListener("change", drawChart);
  $("#chart-grids").addEventListener("click", async (e) => {
    const id = e.target.dataset.id;
    if (id === undefined) return;
    document.querySelectorAll("#chart-grids button.sel").forEach((b) => b.classList.remove("sel"));
    e.target.classList.add("sel");
    const r = await (await fetch("/api/chart/" + id)).json();
    const c = r.cell, f = (x) => (x === null ? "-" : (x >= 0 ? "+" : "") + x.toFixed(2));
    $("#cell").innerHTML = `<h2>Contract ${c.hand}, ${esc(c.decision)}: needing ${esc(c.needed_before)} before, ${esc(c.needed_after)} after; ${esc(c.stock_band)} in the stock; ${c.opponents_opened ? "an opponent opened" : "nobody opened"}</h2>
      <p class="sentence">Verdict: <b id="cell-verdict">${esc(c.verdict || "too few deals")}</b>. Act minus pass: <b id="cell-d">${f(c.d_relative)}</b> points against the table, 95% interval <span id="cell-ci">[${f(c.d_relative_lo)}, ${f(c.d_relative_hi)}]</span>; own penalty ${f(c.d_penalty)} [${f(c.d_penalty_lo)}, ${f(c.d_penalty_hi)}]; chance of going out first ${c.d_out === null ? "-" : (c.d_out >= 0 ? "+" : "") + (100 * c.d_out).toFixed(1) + " percentage points"}; from ${c.decisions.toLocaleString()} decisions in ${c.deals.toLocaleString()} deals.</p>
      <p><b>Rules of thumb that cover this cell:</b> ${r.covering.length ? r.covering.map(esc).join("; ") : "none (the chart alone decides it)"}.</p>
      <p><b>The rule of the game:</b> ${esc(r.rule)}.</p><p class="lead">${esc(r.contract_rules)}</p>`;
    $("#cell").hidden = false;
    $("#cell").scrollIntoView({block: "nearest"});
  });
}

if ($("#advise-form")) advisePage();
if ($("#review-form")) reviewPage();
if ($("#chart-grids")) chartPage();
