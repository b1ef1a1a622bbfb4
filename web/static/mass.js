// Mass: the black bag's contents, buy-outs in turn order, then a virtual or hand draw, then
// moves in the church.
import { getLog, live, stateAndLegal } from "./api.js";
import { narrationBlock } from "./log.js";
import { fill, h, show, text } from "./dom.js";
import { optionButtons, send } from "./actions.js";
import { drawNow, latestDraw, offerFor, showSeed } from "./draws.js";
import { cap, memberName, pendingText } from "./labels.js";
import { member } from "./render.js";
import { requireToken } from "./token.js";

let offer = null;
let picked = new Set();
let handKey = "";

function blackBag(bb) {
  return h("div", { class: "chips" },
    Array.from({ length: bb.monks }, (_, i) => member("monk", `${i + 1}`)),
    bb.members.map((m) => member(m)));
}

function church(players) {
  const windows = { 1: [], 2: [], 3: [], 4: [] };
  for (const p of Object.values(players)) {
    for (const m of p.members) {
      const [zone, w] = m.where.split(":");
      if (zone === "church" && windows[w]) windows[w].push(m.id);
    }
  }
  return h("ul", { class: "spaces" }, [4, 3, 2, 1].map((w) => h("li", {},
    h("span", { class: "label" }, `Window ${w}`),
    windows[w].length ? h("span", { class: "chips" }, windows[w].map((m) => member(m))) : h("span", { class: "muted" }, "empty"))));
}

// Hand draw: one toggle per figure in the bag (each monk separately).
function handFigures(bb, count) {
  const figures = [...Array.from({ length: bb.monks }, (_, i) => `monk#${i + 1}`), ...bb.members];
  const key = figures.join(",") + count;
  if (key === handKey) return;
  handKey = key;
  picked = new Set();
  text("hand-help", `Tap the ${count} figures you drew out of the black bag, then record them.`);
  fill("hand-figures", figures.map((f) => h("button", {
    type: "button", class: "btn figure-toggle", "aria-pressed": "false", "data-figure": f,
    onclick: (ev) => {
      const on = !picked.has(f);
      if (on) picked.add(f); else picked.delete(f);
      ev.currentTarget.setAttribute("aria-pressed", String(on));
    },
  }, f.startsWith("monk#") ? `Monk ${f.slice(5)}` : memberName(f))));
}

async function render(st, legal) {
  const p = st.pending || {};
  fill("black-bag", blackBag(st.board.black_bag));
  fill("church", church(st.players));
  offer = offerFor(st, "mass_draw");
  const deciding = ["buyout", "church_move"].includes(p.kind);
  const during = deciding || p.kind === "mass_draw";
  text("mass-status", during ? pendingText(p)
    : `No mass right now: it comes when the last cube of the round is taken. ${pendingText(p)}.`);
  await story(during);
  show("decision-panel", deciding);
  if (deciding || p.kind === "mass_draw") requireToken();
  if (deciding) {
    const after = (p.order || []).slice(1).map(cap);
    const then = after.length ? `, then ${after.join(", ")}` : "";
    text("decision-title", p.kind === "buyout"
      ? `Buy-outs in turn order: ${cap(p.player)} now${then} (1 coin per own member taken out)`
      : `${cap(p.player)}: move members left in the church${then}`);
    const key = JSON.stringify([legal.seq, legal.actions]);
    if (key !== drawnKey) { // the same decision again is not rebuilt under a finger
      drawnKey = key;
      fill("options", optionButtons(legal.actions, pick(legal.seq), st));
    }
  } else {
    drawnKey = null;
  }
  show("virtual-panel", Boolean(offer));
  if (offer) {
    text("commitment", offer.commitment);
    show("reveal-panel", false);
  }
  show("hand-panel", p.kind === "mass_draw");
  if (p.kind === "mass_draw") handFigures(st.board.black_bag, p.count);
  const opts = document.getElementById("options");
  opts.dataset.seq = String(legal.seq ?? st.seq);
  opts.dataset.kind = p.kind || "";
  if (!offer && p.kind !== "mass_draw") {
    const last = await latestDraw("mass_draw");
    if (last && last.draw) showSeed(last.draw); else show("reveal-panel", false);
  }
}

// The mass told as it happened: from "mass in the church" to the majority, in words
// (buy-outs, the figures drawn and where each goes, moves, who won the majority).
async function story(during) {
  const res = await getLog();
  const entries = (res.ok && res.body && res.body.entries) || [];
  const live = entries.filter((e) => !e.undone && e.kind === "action");
  let start = -1;
  live.forEach((e, i) => { if (e.narration.some((s) => s.includes("mass in the church"))) start = i; });
  show("story-panel", start >= 0);
  if (start < 0) return;
  let end = live.findIndex((e, i) => i >= start && e.narration.some((s) => s.startsWith("Church majority")));
  if (end < 0) end = live.length - 1;
  const told = live.slice(start, end + 1).map((e, i) => {
    // the first entry is the last turn of the round: keep only what concerns the mass
    const lines = i === 0 ? e.narration.filter((s) => /mass|black bag|buy/i.test(s)) : e.narration;
    return h("li", { class: "log-entry", "data-seq": e.seq }, narrationBlock(lines));
  });
  text("story-title", during ? "This mass so far" : "The last mass");
  fill("story", h("ol", { class: "log-list" }, told));
}

// Redraws: the latest started wins (an older one finishing later draws nothing), and
// while this page's own move is on its way the live feed's redraws wait for its answer.
let drawing = 0;
let holding = 0;
let drawnKey = null;

function pick(seq) {
  return async (action) => {
    holding += 1;
    drawing += 1; // a redraw under way from before the tap draws nothing
    try {
      await send(action, seq);
    } finally {
      holding -= 1;
    }
    await refresh();
  };
}

async function refresh(event = null) {
  if (holding) return; // the move's own refresh follows its answer
  const mine = ++drawing;
  const [st, legal] = await stateAndLegal(event);
  if (mine !== drawing) return;
  if (!st.ok) {
    text("mass-status", st.status === 404 ? "No game yet: start one on the New game page." : "The companion is not answering.");
    return;
  }
  await render(st.body, legal);
}

document.getElementById("draw").addEventListener("click", async () => {
  if (offer && await drawNow(offer)) await refresh();
});
document.getElementById("hand-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const figures = [...picked].map((f) => (f.startsWith("monk#") ? "monk" : f)).sort();
  const res = await send({ type: "mass_draw", figures });
  if (res.ok) handKey = "";
  await refresh();
});
live(refresh);
