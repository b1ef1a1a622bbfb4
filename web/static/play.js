// The table's controller: the pending decision and only its legal options.
import { getLegal, getState, live, postUndo, tableToken } from "./api.js";
import { fill, h, show, text } from "./dom.js";
import { actionLabel, drawPage, pendingText, spaceName } from "./labels.js";
import { cubes } from "./render.js";
import { optionButtons, send, showDone, showRefusal } from "./actions.js";
import { askToken, requireToken } from "./token.js";
import { qrFigure } from "./qr.js";

let current = null;
const PAGE_LINKS = {
  "/bag": "open the green-bag page (where to put the cubes, hand draw)",
  reveal_customers: "open the green-bag page (customer tiles by hand)",
  "/mass": "open the mass page (the black bag, hand draw)",
};

async function refresh() {
  const [st, legal] = await Promise.all([getState(), getLegal()]);
  if (!st.ok) {
    text("pending", st.status === 404 ? "No game yet" : "The companion is not answering");
    fill("options", st.status === 404 ? h("a", { class: "btn btn-big", href: "/new" }, "Start a new game") : null);
    return;
  }
  current = st.body;
  const p = current.pending || {};
  const head = text("pending", current.over ? "The game is over" : pendingText(p));
  if (p.player) head.dataset.colour = p.player; else delete head.dataset.colour;
  const page = drawPage(p.kind);
  fill("pending-detail",
    `Round ${current.round}`,
    p.space ? ` · ${spaceName(p.space)}` : "",
    page ? [" · ", h("a", { href: page }, PAGE_LINKS[p.kind] || PAGE_LINKS[page])] : "");
  const who = p.player && current.players[p.player];
  fill("context", who ? [
    `${who.coins} coin${who.coins === 1 ? "" : "s"} · ${who.grain} grain · `,
    Object.entries(who.goods || {}).filter(([, n]) => n).map(([g, n]) => `${n} ${g} · `),
    cubes(who.cubes, "no cubes"),
    ` · ${who.time_track.to_bridge} to the bridge`,
  ] : null);
  const options = legal.actions;
  const seq = legal.seq ?? current.seq;
  fill("options", options.length ? optionButtons(options, (a) => pick(a, seq), current)
    : h("p", { class: "muted" }, current.over ? "Nothing left to decide." : "No option to choose right now."));
  markDrawn(seq, p.kind);
}

// The options now on show are those of this seq and decision (for tests and debugging).
function markDrawn(seq, kind) {
  const el = document.getElementById("options");
  el.dataset.seq = String(seq);
  el.dataset.kind = kind || "";
}

async function pick(action, expectedSeq) {
  await send(action, expectedSeq, async (res) => {
    if (res.ok) {
      showDone(`Done: ${actionLabel(action)}${res.body && res.body.seq ? ` (#${res.body.seq})` : ""}`);
    } else {
      show("done", false);
    }
    await refresh();
  });
}

function manualEntry() {
  document.getElementById("manual-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    let action;
    try {
      action = JSON.parse(document.getElementById("manual").value);
    } catch (err) {
      showRefusal({ status: 400, body: { message: `this is not JSON (${err.message})` } });
      return;
    }
    await pick(action);
  });
}

function undo() {
  const dialog = document.getElementById("undo-dialog");
  document.getElementById("undo").addEventListener("click", () => {
    if (typeof dialog.showModal === "function") dialog.showModal();
    else if (window.confirm("Undo the last action?")) doUndo();
  });
  dialog.addEventListener("close", () => {
    if (dialog.returnValue === "confirm") doUndo();
  });
}

async function doUndo() {
  const res = await postUndo();
  if (res.ok) {
    showRefusal(null);
    showDone("The last action was undone.");
  } else {
    showRefusal(res);
    if (res.status === 401) askToken();
  }
  await refresh();
}

// The table link as a QR code, so another tablet joins with the token (not typed).
function tableLink() {
  const dialog = document.getElementById("table-link-dialog");
  document.getElementById("show-table-link").addEventListener("click", () => {
    const token = tableToken();
    if (!token) { askToken(); return; }
    const url = `${location.origin}/play#token=${encodeURIComponent(token)}`;
    fill("table-link-qr", qrFigure(url, url));
    if (typeof dialog.showModal === "function") dialog.showModal(); else dialog.setAttribute("open", "");
  });
}

requireToken();
tableLink();
manualEntry();
undo();
live(refresh);
