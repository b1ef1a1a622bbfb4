// Camera calibration: drag the layout's regions over the rectified board; teach colours.
import { tableToken } from "./api.js";
import { showRefusal } from "./actions.js";
import { askToken } from "./token.js";

document.getElementById("live").hidden = true; // nothing live on this page
tableToken(); // keep a #token=… from the address

const stage = document.getElementById("cal-stage");
const image = document.getElementById("cal-image");
const boardSelect = document.getElementById("cal-board");
let summary = null;

async function call(method, url, body) {
  const headers = { "Content-Type": "application/json" };
  const token = tableToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(url, { method, headers, body: body ? JSON.stringify(body) : undefined });
  let data = null;
  try { data = await res.json(); } catch (err) { data = null; }
  return { ok: res.ok, status: res.status, body: data };
}

// A step's request: its answer's body, or null with the refusal shown (a missing token asked).
async function step(method, url, body) {
  const res = await call(method, url, body);
  if (!res.ok) {
    showRefusal(res);
    if (res.status === 401) askToken();
    return null;
  }
  document.getElementById("refusal").hidden = true;
  return res.body;
}

async function post(url, body) {
  const got = await step("POST", url, body);
  if (got === null) return;
  summary = got;
  draw();
}

function scale() {
  const board = summary.boards[boardSelect.value];
  return image.clientWidth / board.size_mm[0];
}

function draw() {
  for (const el of stage.querySelectorAll(".cal-region")) el.remove();
  document.getElementById("cal-file").textContent = summary.file;
  document.getElementById("cal-steps").textContent = `done: ${summary.steps.join(", ") || "nothing yet"}`;
  const board = summary.boards[boardSelect.value];
  const k = scale();
  for (const r of board.regions) {
    if (r.kind === "area") continue;
    const el = document.createElement("div");
    el.className = `cal-region cal-${r.kind}`;
    el.title = r.key;
    el.dataset.key = r.key;
    Object.assign(el.style, {
      position: "absolute", left: `${r.rect[0] * k}px`, top: `${r.rect[1] * k}px`,
      width: `${(r.rect[2] - r.rect[0]) * k}px`, height: `${(r.rect[3] - r.rect[1]) * k}px`,
      border: `2px solid ${r.kind === "cubes" ? "#fc0" : r.kind === "track" ? "#0af" : "#aaa"}`,
      boxSizing: "border-box", cursor: "move",
    });
    if (r.kind !== "track") {
      const label = document.createElement("span");
      label.textContent = r.name;
      Object.assign(label.style, { fontSize: "11px", background: "#0008", color: "#fff" });
      el.append(label);
    }
    el.addEventListener("pointerdown", (ev) => drag(ev, el, r));
    stage.append(el);
  }
  const select = document.querySelector("#cal-cubes select[name=region]");
  select.replaceChildren(...summary.boards.main.regions.filter((r) => r.kind === "cubes")
    .map((r) => new Option(r.name, r.name)));
}

function drag(ev, el, region) {
  ev.preventDefault();
  el.setPointerCapture(ev.pointerId);
  const k = scale();
  const box = el.getBoundingClientRect();
  const resize = ev.clientX > box.right - 14 && ev.clientY > box.bottom - 14;
  const start = { x: ev.clientX, y: ev.clientY, rect: [...region.rect] };
  const move = (e) => {
    const dx = (e.clientX - start.x) / k;
    const dy = (e.clientY - start.y) / k;
    const r = [...start.rect];
    if (resize) { r[2] += dx; r[3] += dy; } else { r[0] += dx; r[1] += dy; r[2] += dx; r[3] += dy; }
    region.rect = r;
    Object.assign(el.style, { left: `${r[0] * k}px`, top: `${r[1] * k}px`,
      width: `${(r[2] - r[0]) * k}px`, height: `${(r[3] - r[1]) * k}px` });
  };
  const up = () => {
    el.removeEventListener("pointermove", move);
    el.removeEventListener("pointerup", up);
    const rect = region.rect.map((v) => Math.round(v * 10) / 10);
    if (rect.some((v, i) => v !== start.rect[i])) {
      post("/api/camera/region", { board: boardSelect.value, key: region.key, rect });
    }
  };
  el.addEventListener("pointermove", move);
  el.addEventListener("pointerup", up);
}

function loadImage() {
  const board = boardSelect.value === "main" ? "main" : "farm:red";
  image.src = `/api/camera/rectified.png?board=${encodeURIComponent(board)}&t=${Date.now()}`
    + `&token=${encodeURIComponent(tableToken() || "")}`;
}

const imageNote = document.getElementById("cal-image-note");
image.addEventListener("load", () => { imageNote.hidden = true; if (summary) draw(); });
// said beside the picture, not as a refusal: during the lens step the boards are not in view
image.addEventListener("error", () => { imageNote.hidden = false; });
boardSelect.addEventListener("change", loadImage);
document.getElementById("cal-reload").addEventListener("click", loadImage);
// The empty boards: frames kept one by one, each board's finding said, then learned.
function showEmpty(state) {
  document.getElementById("empty-say").textContent = state.say;
  document.getElementById("cal-empty").disabled = !state.ready;
  const boards = state.boards.map(([b, n]) => `${b} ${n ? `in ${n}` : "in none"}`).join(", ");
  document.getElementById("empty-state").textContent =
    `${state.frames} frames kept${state.frames ? `; found: ${boards}` : ""}`;
}

async function emptyCall(method, url) {
  const got = await step(method, url);
  if (got === null) return;
  loadImage(); // the picture the frame was taken from
  if (got.empty) { // learned: the calibration's summary, with the step's words
    summary = got;
    draw();
    showEmpty(got.empty);
  } else {
    showEmpty(got);
  }
}

document.getElementById("empty-frame").addEventListener("click", () => emptyCall("POST", "/api/camera/empty/frame"));
document.getElementById("cal-empty").addEventListener("click", () => emptyCall("POST", "/api/camera/empty"));
document.getElementById("empty-restart").addEventListener("click", () => emptyCall("DELETE", "/api/camera/empty/frames"));
call("GET", "/api/camera/empty").then((res) => res.ok && showEmpty(res.body));
document.getElementById("cal-cubes").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const f = ev.target.elements;
  post("/api/camera/cubes", { placed: { [f.region.value]: [f.colour.value, Number(f.count.value)] } });
});

// The lens step: photos of the ChArUco sheet, guided, then the lens computed.
const lensImage = document.getElementById("lens-coverage");

function showLens(state) {
  document.getElementById("lens-say").textContent = state.say;
  document.getElementById("lens-compute").disabled = !state.ready;
  const lens = state.lens
    ? `lens in force: error ${state.lens.rms_px} px, field of view ${state.lens.fov_deg}° (${state.lens.views} photos)`
    : "no lens computed yet";
  document.getElementById("lens-state").textContent = `${state.photos} photos kept; ${lens}`;
}

async function lensCall(method, url) {
  const got = await step(method, url);
  if (got !== null) showLens(got);
}

function refreshCoverage() {
  lensImage.src = `/api/camera/lens/coverage.png?t=${Date.now()}`
    + `&token=${encodeURIComponent(tableToken() || "")}`;
}

document.getElementById("lens-photo").addEventListener("click", () => lensCall("POST", "/api/camera/lens/photo"));
document.getElementById("lens-compute").addEventListener("click", () => lensCall("POST", "/api/camera/lens/compute"));
document.getElementById("lens-restart").addEventListener("click", () => lensCall("DELETE", "/api/camera/lens/photos"));
call("GET", "/api/camera/lens").then((res) => res.ok && showLens(res.body));
// the live view (where the sheet is now): the next picture asked once this one is in
lensImage.addEventListener("load", () => setTimeout(refreshCoverage, 1000));
lensImage.addEventListener("error", () => setTimeout(refreshCoverage, 5000));
refreshCoverage();

call("GET", "/api/camera/calibration").then((res) => {
  summary = res.body;
  document.getElementById("cal-file").textContent = summary.file; // even with no picture yet
  document.getElementById("cal-steps").textContent = `done: ${summary.steps.join(", ") || "nothing yet"}`;
  loadImage();
});
