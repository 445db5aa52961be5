// grader play: the page. The server draws the board (the genre's own SVG) and says where each
// variable sits (targets: cells and segments), so this script is the same for every genre.
"use strict";

const STAGES = ["nudge", "technique", "explain", "answer"];
const STAGE_NAMES = {nudge: "where to look", technique: "the technique", explain: "the explanation",
                     answer: "the answer"};
const KEYS = {
  cells: "Arrow keys move, Space or Enter cycles the marks, Delete clears.",
  values: "Arrow keys move, a digit sets the cell's value (again: clears it), Delete clears.",
  lines: "Drag between cell centres to draw a line (again: erase it); click a line to cycle it. " +
         "Arrow keys move, Shift+arrow draws a line, Space cycles the cell.",
  links: "Drag between cells to draw a line (again: erase it); click a cell to mark it empty. " +
         "Arrow keys move, Shift+arrow draws a line, Space marks empty.",
  edges: "Click an edge to cycle it (line, cross, nothing). Arrow keys move between edges, Space cycles.",
  bridges: "Click between two islands to cycle the bridges. Arrow keys move, Space cycles.",
};
const COMMON_KEYS = " Ctrl+Z undo, Ctrl+Y redo, H hint, A apply the next step, C check, W why.";
const SVG_NS = "http://www.w3.org/2000/svg";

const game = {
  puzzle: null, genre: null, info: null, state: null, undo: [], redo: [],
  hintStage: 0, whyMode: false, cursor: null, started: 0, elapsed: 0, solved: false,
  path: null, pathStep: 0, busy: false, pending: 0,
};

const $ = (id) => document.getElementById(id);

async function api(name, body) {
  game.pending += 1;           // requests in flight (the browser tests wait for none)
  try {
    let response;
    try {
      response = await fetch(`/api/${name}`, {
        method: body === undefined ? "GET" : "POST",
        headers: {"content-type": "application/json"},
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (e) { throw new Error("The server does not answer: is grader play still running?"); }
    let data;
    try { data = await response.json(); } catch (e) { data = {error: `the server answered ${response.status}`}; }
    if (!response.ok) throw new Error(data.error || `the server answered ${response.status}`);
    return data;
  } finally { game.pending -= 1; }
}

function say(text, kind) {
  const m = $("message");
  m.textContent = text;
  m.className = kind || "";
}

function base() { return {puzzle: game.puzzle, genre: game.genre}; }

function storageKey() { return "grader-play:" + (game.genre || "") + ":" + game.puzzle; }

function save() {
  if (!game.info) return;
  try {
    localStorage.setItem(storageKey(), JSON.stringify({state: game.state, elapsed: elapsedSeconds(),
                                                       undo: game.undo.slice(-200), redo: game.redo.slice(-200),
                                                       solved: game.solved}));
    localStorage.setItem("grader-play:last", JSON.stringify({puzzle: game.puzzle, genre: game.genre}));
  } catch (e) { /* storage full or disabled: progress is simply not kept */ }
}

function saved() {
  try { return JSON.parse(localStorage.getItem(storageKey()) || "null"); } catch (e) { return null; }
}

// --- opening -------------------------------------------------------------------------------

async function openPuzzle(puzzle, genre, name) {
  say("Opening…");
  let info;
  try {
    info = await api("open", {puzzle, genre: genre || null});
  } catch (e) { say(e.message, "error"); return; }
  Object.assign(game, {puzzle, genre: genre || null, info, undo: [], redo: [], hintStage: 0,
                       whyMode: false, solved: false, path: null, elapsed: 0});
  const kept = saved();
  game.state = info.state;
  if (kept && Array.isArray(kept.state) && kept.state.length === info.state.length) {
    game.state = kept.state; game.undo = kept.undo || []; game.redo = kept.redo || [];
    game.elapsed = kept.elapsed || 0; game.solved = !!kept.solved;
  }
  game.started = Date.now();
  game.cursor = info.targets.length ? {index: 0, r: info.targets[0].r || 0, c: info.targets[0].c || 0} : null;
  const shownName = name || info.id;
  $("title").textContent = info.title + (shownName ? `: ${shownName.length > 60 ? shownName.slice(0, 57) + "…" : shownName}` : "");
  $("keys-help").textContent = KEYS[info.input] + COMMON_KEYS;
  $("path-view").hidden = true;
  $("open-panel").open = false;
  $("copy-pzprv3").disabled = !info.pzprv3;
  $("copy-pzprv3").title = info.pzprv3 ? "a board file for puzz.link's File > Open"
                                       : `pzprv3 board files are not written for ${info.title} yet`;
  const url = new URL(location.href);
  url.searchParams.set("puzzle", puzzle);
  if (genre) url.searchParams.set("genre", genre); else url.searchParams.delete("genre");
  history.replaceState(null, "", url);
  if (game.state === info.state) show(info); else await refresh();
  say(kept ? "Your progress on this puzzle was restored." : "Ready. " + KEYS[info.input]);
  updateHintButton();
  loadGrade();
  $("board").focus();
}

async function loadGrade() {
  $("grade").textContent = "grading…";
  try {
    const g = await api("grade", base());
    const parts = [`Level ${g.level} (${g.label})`];
    if (g.difficulty !== null && g.difficulty !== undefined) parts.push(`difficulty ${g.difficulty} of 10`);
    if (g.effort !== null && g.effort !== undefined) parts.push(`effort about ${g.effort} minutes`);
    parts.push(`${g.steps} steps`);
    if (g.status !== "solved") parts.push(`the techniques stop short (${g.status})`);
    $("grade").textContent = parts.join(" · ");
  } catch (e) { $("grade").textContent = "No grade: " + e.message; }
}

// --- the board -----------------------------------------------------------------------------

function show(view, target) {
  const box = target || $("board");
  box.innerHTML = view.svg;
  if (target) return;
  setSolved(view.solved);
  $("status").textContent = view.solved ? "Solved!" : "";
  $("undo").disabled = !game.undo.length;
  $("redo").disabled = !game.redo.length;
  addTargets(box.querySelector("svg"));
}

function addTargets(svg) {
  if (!svg) return;
  const layer = document.createElementNS(SVG_NS, "g");
  layer.setAttribute("class", "targets");
  for (const t of game.info.targets) {
    let el;
    if (t.kind === "cell") {
      el = document.createElementNS(SVG_NS, "rect");
      for (const [k, v] of Object.entries({x: t.x, y: t.y, width: t.w, height: t.h})) el.setAttribute(k, v);
    } else {
      el = document.createElementNS(SVG_NS, "line");
      for (const k of ["x1", "y1", "x2", "y2"]) el.setAttribute(k, t[k]);
    }
    el.setAttribute("class", "target");
    el.dataset.var = t.var;
    el.dataset.name = t.name;
    layer.appendChild(el);
  }
  // segments above cells, so a click on a line between two cells takes the line
  const cells = [...layer.children].filter((e) => e.tagName === "rect");
  for (const c of cells) layer.insertBefore(c, layer.firstChild);
  svg.appendChild(layer);
  drawCursor(svg);
}

function drawCursor(svg) {
  svg = svg || $("board").querySelector("svg");
  if (!svg || !game.cursor) return;
  svg.querySelectorAll(".cursor").forEach((e) => e.remove());
  const g = game.info.grid;
  let el;
  if (usesCellCursor()) {
    el = document.createElementNS(SVG_NS, "rect");
    const attrs = {x: g.x0 + game.cursor.c * g.size + 2, y: g.y0 + game.cursor.r * g.size + 2,
                   width: g.size - 4, height: g.size - 4};
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  } else {
    const t = game.info.targets[game.cursor.index];
    if (!t) return;
    el = document.createElementNS(SVG_NS, "circle");
    el.setAttribute("cx", t.kind === "cell" ? t.x + t.w / 2 : (t.x1 + t.x2) / 2);
    el.setAttribute("cy", t.kind === "cell" ? t.y + t.h / 2 : (t.y1 + t.y2) / 2);
    el.setAttribute("r", 7);
  }
  el.setAttribute("class", "cursor");
  svg.appendChild(el);
}

function usesCellCursor() { return !["edges", "bridges"].includes(game.info.input); }

async function refresh() {
  try { show(await api("render", {...base(), state: game.state})); } catch (e) { say(e.message, "error"); }
}

async function act(actions) {
  if (!game.info || !actions.length) return;
  try {
    const view = await api("render", {...base(), state: game.state, actions});
    if (JSON.stringify(view.state) === JSON.stringify(game.state)) return;
    changeTo(view);
  } catch (e) { say(e.message, "error"); }
}

function changeTo(view) {
  game.undo.push(game.state);
  game.redo = [];
  game.state = view.state;
  game.hintStage = 0;
  updateHintButton();
  const wasSolved = game.solved;
  show(view);
  if (view.solved && !wasSolved) say(`Solved in ${clock(elapsedSeconds())}. Well done!`, "good");
  save();
}

function undoRedo(from, to) {
  if (!from.length) return;
  to.push(game.state);
  game.state = from.pop();
  game.hintStage = 0;
  updateHintButton();
  refresh().then(save);
}

// --- pointer input -------------------------------------------------------------------------

function svgPoint(svg, event) {
  const p = svg.createSVGPoint();
  p.x = event.clientX; p.y = event.clientY;
  return p.matrixTransform(svg.getScreenCTM().inverse());
}

function cellAt(pt) {
  const g = game.info.grid;
  const c = Math.floor((pt.x - g.x0) / g.size), r = Math.floor((pt.y - g.y0) / g.size);
  return r >= 0 && c >= 0 && r < g.rows && c < g.cols ? {r, c} : null;
}

function segmentBetween(a, b) {
  return game.info.targets.find((t) => t.kind === "segment" && t.a && t.b &&
    ((t.a[0] === a.r && t.a[1] === a.c && t.b[0] === b.r && t.b[1] === b.c) ||
     (t.b[0] === a.r && t.b[1] === a.c && t.a[0] === b.r && t.a[1] === b.c)));
}

function lineAction(a, b) {
  if (game.info.input === "links") return {op: "link", a: [a.r, a.c], b: [b.r, b.c]};
  const seg = segmentBetween(a, b);
  return seg ? {op: "line", var: seg.var} : null;
}

let drag = null;

function onPointerDown(event) {
  const svg = $("board").querySelector("svg");
  if (!svg || !game.info) return;
  const pt = svgPoint(svg, event);
  drag = {start: cellAt(pt), last: cellAt(pt), actions: [], target: event.target, moved: false, svg};
  if (["lines", "links"].includes(game.info.input)) svg.setPointerCapture?.(event.pointerId);
  event.preventDefault();
  $("board").focus();
}

function onPointerMove(event) {
  if (!drag || !["lines", "links"].includes(game.info.input)) return;
  const cell = cellAt(svgPoint(drag.svg, event));
  if (!cell || !drag.last || (cell.r === drag.last.r && cell.c === drag.last.c)) return;
  if (Math.abs(cell.r - drag.last.r) + Math.abs(cell.c - drag.last.c) === 1) {
    const action = lineAction(drag.last, cell);
    if (action) { drag.actions.push(action); drawDragSegment(drag.last, cell); }
  }
  drag.moved = true;
  drag.last = cell;
}

function drawDragSegment(a, b) {
  const g = game.info.grid, el = document.createElementNS(SVG_NS, "line");
  const at = (p) => [g.x0 + (p.c + 0.5) * g.size, g.y0 + (p.r + 0.5) * g.size];
  const [x1, y1] = at(a), [x2, y2] = at(b);
  Object.entries({x1, y1, x2, y2}).forEach(([k, v]) => el.setAttribute(k, v));
  el.setAttribute("class", "drag");
  drag.svg.appendChild(el);
}

async function onPointerUp(event) {
  if (!drag) return;
  const d = drag;
  drag = null;
  if (d.moved) { await act(d.actions); return; }
  const cell = d.start;
  if (cell) game.cursor = {...game.cursor, r: cell.r, c: cell.c};
  if (game.whyMode) { if (cell) await askWhy(cell); return; }
  const v = d.target && d.target.dataset ? d.target.dataset.var : undefined;
  if (v !== undefined) {
    const index = game.info.targets.findIndex((t) => t.var === Number(v));
    if (index >= 0) game.cursor = {...game.cursor, index};
    await act([{op: "cycle", var: Number(v)}]);
  } else drawCursor();
}

// --- keyboard ------------------------------------------------------------------------------

const MOVES = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};

function targetAtCursor() {
  if (!usesCellCursor()) return game.info.targets[game.cursor.index];
  return game.info.targets.find((t) => t.kind === "cell" && t.r === game.cursor.r && t.c === game.cursor.c);
}

function moveTargetCursor(dr, dc) {
  // the nearest target whose centre lies in the direction of the key
  const centre = (t) => t.kind === "cell" ? [t.x + t.w / 2, t.y + t.h / 2] : [(t.x1 + t.x2) / 2, (t.y1 + t.y2) / 2];
  const [x0, y0] = centre(game.info.targets[game.cursor.index]);
  let best = null, bestScore = Infinity;
  game.info.targets.forEach((t, i) => {
    const [x, y] = centre(t), along = (x - x0) * dc + (y - y0) * dr, across = Math.abs((x - x0) * dr + (y - y0) * dc);
    if (along <= 0.5) return;
    const score = along + 2 * across;
    if (score < bestScore) { bestScore = score; best = i; }
  });
  if (best !== null) game.cursor.index = best;
}

async function onKey(event) {
  if (!game.info || event.target.tagName === "TEXTAREA" || event.target.tagName === "INPUT" ||
      event.target.tagName === "SELECT") return;
  const key = event.key, ctrl = event.ctrlKey || event.metaKey;
  if (ctrl && (key === "z" || key === "Z")) { event.preventDefault(); return event.shiftKey ? undoRedo(game.redo, game.undo) : undoRedo(game.undo, game.redo); }
  if (ctrl && (key === "y" || key === "Y")) { event.preventDefault(); return undoRedo(game.redo, game.undo); }
  if (ctrl || event.altKey) return;
  if (key in MOVES) {
    event.preventDefault();
    const [dr, dc] = MOVES[key];
    if (!usesCellCursor()) { moveTargetCursor(dr, dc); drawCursor(); return; }
    const g = game.info.grid, from = {r: game.cursor.r, c: game.cursor.c};
    const to = {r: Math.min(g.rows - 1, Math.max(0, from.r + dr)), c: Math.min(g.cols - 1, Math.max(0, from.c + dc))};
    game.cursor = {...game.cursor, ...to};
    if (event.shiftKey && ["lines", "links"].includes(game.info.input) && (to.r !== from.r || to.c !== from.c)) {
      const action = lineAction(from, to);
      if (action) await act([action]); else drawCursor();
    } else drawCursor();
    return;
  }
  const t = targetAtCursor();
  if (key === " " || key === "Enter") { event.preventDefault(); if (t) await act([{op: "cycle", var: t.var}]); return; }
  if (key === "Delete" || key === "Backspace") { event.preventDefault(); if (t) await act([{op: "clear", var: t.var}]); return; }
  if (/^[0-9]$/.test(key) && t) {
    const options = game.info.choices[t.var];
    if (game.info.input === "values") await act([{op: "set", var: t.var, value: Number(key)}]);
    else if (Number(key) < options.length) {
      const want = options[Number(key)];
      const now = game.state[t.var];
      if (want !== now) {   // step the cycle to the wanted choice
        const steps = (options.indexOf(want) - Math.max(0, options.indexOf(now)) + options.length) % options.length;
        await act(Array(steps || options.length).fill({op: "cycle", var: t.var}));
      }
    }
    return;
  }
  const shortcuts = {h: hintPressed, a: applyHint, c: checkPressed, w: whyKey};
  if (shortcuts[key.toLowerCase()]) { event.preventDefault(); await shortcuts[key.toLowerCase()](); }
}

// --- check, hint, why ----------------------------------------------------------------------

async function checkPressed() {
  if (!game.info) return;
  try {
    const got = await api("check", {...base(), state: game.state});
    show(got.view);
    say(got.text, got.board.status === "mistake" ? "error" : got.board.status === "solved" ? "good" : "");
  } catch (e) { say(e.message, "error"); }
}

function updateHintButton() {
  $("hint").textContent = `Hint: ${STAGE_NAMES[STAGES[game.hintStage]]}`;
}

async function hintPressed() {
  if (!game.info) return;
  const stage = STAGES[game.hintStage];
  await showHint(stage);
}

async function applyHint() {
  if (!game.info) return;
  await showHint("answer");
}

async function showHint(stage) {
  if (game.busy) return;
  game.busy = true;
  try {
    const h = await api("hint", {...base(), state: game.state, stage});
    const label = {mistake: "A mistake", step: "Hint", solved: "Solved", stuck: "Stuck",
                   contradiction: "A broken rule"}[h.kind] || "Hint";
    const level = h.level && stage !== "nudge" ? ` (level ${h.level})` : "";
    if (stage === "answer" && JSON.stringify(h.view.state) !== JSON.stringify(game.state)) {
      changeTo(h.view);
      if (!h.view.solved) say(`${label}${level}: ${h.text}`, h.kind === "mistake" ? "error" : "");
    } else {
      show(h.view);
      game.hintStage = h.kind === "step" || h.kind === "mistake" ? Math.min(game.hintStage + 1, 3) : 0;
      updateHintButton();
      say(`${label}${level}: ${h.text}`, h.kind === "mistake" || h.kind === "contradiction" ? "error"
                                          : h.kind === "solved" ? "good" : "");
    }
  } catch (e) { say(e.message, "error"); }
  finally { game.busy = false; }
}

function toggleWhy() {
  game.whyMode = !game.whyMode;
  $("why").classList.toggle("active", game.whyMode);
  say(game.whyMode ? "Why? Click a cell to see the steps that decide it." : "");
}

async function whyKey() {
  // W asks about the cell under the keyboard cursor; without one it waits for a click
  if (usesCellCursor() && game.cursor) await askWhy(game.cursor); else toggleWhy();
}

async function askWhy(cell) {
  game.whyMode = false;
  $("why").classList.remove("active");
  const name = `r${cell.r + 1}c${cell.c + 1}`;
  try {
    const got = await api("why", {...base(), state: game.state, cell: name});
    show(got.view);
    say(got.steps.length ? `Why ${name}? ${got.text}` : got.text);
  } catch (e) { say(e.message, "error"); }
}

// --- solve path ----------------------------------------------------------------------------

async function openPath() {
  if (!game.info) return;
  try {
    game.path = await api("path", base());
    game.pathStep = 0;
    $("path-view").hidden = false;
    await showPathStep();
  } catch (e) { say(e.message, "error"); }
}

async function showPathStep() {
  const got = await api("path", {...base(), step: game.pathStep});
  $("path-where").textContent = `step ${game.pathStep} of ${game.path.count}`;
  $("path-text").textContent = game.pathStep ? `[L${got.level}] ${got.name}: ${got.text}` : got.text;
  show(got.view, $("path-board"));
  $("path-back").disabled = game.pathStep === 0;
  $("path-next").disabled = game.pathStep >= game.path.count;
}

async function copyText(call, field, done) {
  if (!game.info) return;
  let text;
  try { text = (await api(call, {...base(), state: game.state}))[field]; }
  catch (e) { say(e.message, "error"); return; }
  game.copied = text;
  try { await navigator.clipboard.writeText(text); say(done); }
  catch (e) { say("The browser did not allow copying; here it is to copy by hand:\n" + text); }
}

// --- timer, set-up -------------------------------------------------------------------------

function elapsedSeconds() {
  return game.solved ? game.elapsed : game.elapsed + (Date.now() - game.started) / 1000;
}

function setSolved(solved) {
  // the timer stops when the board is solved and runs on after an undo
  if (solved && !game.solved) game.elapsed = elapsedSeconds();
  if (!solved && game.solved) game.started = Date.now();
  game.solved = solved;
}

function clock(seconds) {
  const s = Math.floor(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

setInterval(() => { if (game.info) $("timer").textContent = clock(elapsedSeconds()); }, 500);

async function setUp() {
  try {
    const genres = await api("genres");
    for (const g of genres) $("genre").add(new Option(g.title, g.genre));
    const corpus = await api("corpus");
    for (const p of corpus) $("corpus").add(new Option(p.id, p.id));
  } catch (e) { say(e.message, "error"); }
  $("open-corpus").onclick = async () => {
    const id = $("corpus").value;
    if (!id) return say("Choose a puzzle from the list first.", "error");
    try { const got = await api("puzzle/" + id); await openPuzzle(got.puzzle, null, id); }
    catch (e) { say(e.message, "error"); }
  };
  $("open-text").onclick = () => {
    const text = $("puzzle-text").value;
    if (!text.trim()) return say("Paste a puzzle first: a puzz.link URL, a Tatham game ID, YAML or a pzprv3 save.", "error");
    openPuzzle(text, $("genre").value || null);
  };
  $("puzzle-file").onchange = async (e) => {
    const file = e.target.files[0];
    if (file) openPuzzle(await file.text(), $("genre").value || null);
  };
  $("undo").onclick = () => undoRedo(game.undo, game.redo);
  $("redo").onclick = () => undoRedo(game.redo, game.undo);
  $("check").onclick = checkPressed;
  $("hint").onclick = hintPressed;
  $("apply-hint").onclick = applyHint;
  $("why").onclick = toggleWhy;
  $("restart").onclick = () => {
    if (!game.info || !confirm("Clear every mark and start again?")) return;
    game.elapsed = 0; game.started = Date.now(); game.solved = false;
    changeTo({...game.info, state: game.info.state, solved: false});
    say("Started again.");
  };
  $("copy-marks").onclick = () => copyText("render", "marks",
    "The marks grid is copied: save it to a file for grader hint --state.");
  $("copy-pzprv3").onclick = () => copyText("pzprv3", "pzprv3",
    "The board is copied as pzprv3: save it to a file and open it with puzz.link's File > Open.");
  $("path").onclick = openPath;
  $("path-back").onclick = () => { if (game.pathStep > 0) { game.pathStep--; showPathStep(); } };
  $("path-next").onclick = () => { if (game.pathStep < game.path.count) { game.pathStep++; showPathStep(); } };
  $("path-close").onclick = () => { $("path-view").hidden = true; };
  const board = $("board");
  board.addEventListener("pointerdown", onPointerDown);
  board.addEventListener("pointermove", onPointerMove);
  board.addEventListener("pointerup", onPointerUp);
  document.addEventListener("keydown", onKey);
  window.addEventListener("beforeunload", save);
  const params = new URLSearchParams(location.search);
  const last = JSON.parse(localStorage.getItem("grader-play:last") || "null");
  if (params.get("puzzle")) await openPuzzle(params.get("puzzle"), params.get("genre"));
  else if (last && last.puzzle) await openPuzzle(last.puzzle, last.genre);
  else say("Open a puzzle: choose one from the corpus, paste one, or open a file.");
}

setUp();
