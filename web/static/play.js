// The table's controller: what the game waits for, the options (in steps, with costs),
// what just happened (the narration of each event) and the market.
import { getLog, live, onLive, stateAndLegal, postUndo, tableToken } from "./api.js";
import { fill, h, show, text } from "./dom.js";
import { cap, drawPage, memberName, pendingText, spaceName } from "./labels.js";
import { cubes } from "./render.js";
import { choiceButtons, foldableRows, send, showRefusal } from "./actions.js";
import { narrationBlock, renderLog } from "./log.js";
import { marketPanel } from "./market.js";
import { askToken, requireToken } from "./token.js";
import { qrFigure } from "./qr.js";
import { redraws } from "./redraws.js";

let current = null;
let legal = null;
let path = [];
let shownSeq = null;
const PAGE_LINKS = {
  "/bag": "open the green-bag page (where to put the cubes, or draw by hand)",
  reveal_customers: "open the green-bag page to enter the tiles by hand",
  "/mass": "open the mass page (the black bag, buy-outs, the draw)",
};

// Goals dealt by hand: each player reports their own tile on their private page.
const HAND_DEALS = { deal_silver: "silver", deal_gold: "gold" };

function handDeal(p, st) {
  if (p.kind === "draw_treasure") {
    const taker = st.port && st.port.voyage ? cap(st.port.voyage.player) : "Its taker";
    return h("span", { id: "hand-deal", class: "muted hand-deal" },
      `Drawing the real tile? ${taker} looks at it and taps its value on their own page (`,
      h("a", { href: "/links" }, "the players' links"), "). The button below draws it virtually.");
  }
  const tier = HAND_DEALS[p.kind];
  if (!tier) return null;
  return h("span", { id: "hand-deal", class: "muted hand-deal" },
    `Dealing by hand? Each player draws a ${tier} goal tile face down, looks at it and taps it on their own page (`,
    h("a", { href: "/links" }, "the players' links"),
    `). Still to report: ${stillToReport(p, st).map(cap).join(", ")}.${checkAgain(st)} The button below deals the rest virtually.`);
}

// Who has not yet reported a sealed tile, and who is asked to look at theirs again.
function stillToReport(p, st) {
  const done = new Set(((st.hand_reports || {}).reported) || []);
  return (p.to_deal || []).filter((c) => !done.has(c));
}
function checkAgain(st) {
  const again = ((st.hand_reports || {}).check_again) || [];
  return again.length ? ` Two reports named the same tile: ${again.map(cap).join(" and ")}, please look at your tiles again.` : "";
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

// Le Port: ships and holds, captains left, island stacks, mission churches, sea cemetery
// (the scoreboard's panel, web/static/sea.js).
import { seaBoard } from "./sea.js";

function seaPanel(st) {
  seaBoard(st);
}

// Overlapping refreshes: the latest wins, and while this page's own tap is on its way
// (`pick`, `doUndo`) the live feed's redraws wait, so the tap's confirmation is shown first
// and the next options once, below it. Drawn before it, they moved down when it appeared,
// or were folded for another height and drawn again under the next tap (a step where an
// option had been).
const redraw = redraws();
// The decision and path whose options are on show: the same again is not rebuilt (a
// button replaced under a finger between press and release is a tap lost).
let drawnKey = null;

async function refresh(event = null) {
  const mine = redraw.begin();
  if (mine === null) return; // the tap's own refresh follows its confirmation
  const [st, lg] = await stateAndLegal(event);
  if (!redraw.current(mine)) return;
  const undoButton = document.getElementById("undo");
  if (undoButton) undoButton.hidden = !st.ok; // nothing to undo before a game exists
  if (!st.ok) {
    text("pending", st.status === 404 ? "No game yet" : "The companion is not answering");
    fill("options", st.status === 404 ? h("a", { class: "btn btn-big", href: "/new" }, "Start a new game") : null);
    drawnKey = null;
    return;
  }
  if (st.body.game === "crecy") { // another game: its own play page
    text("pending", "The current game is Le Testament du Duc de Crecy");
    fill("options", h("a", { class: "btn btn-big", href: "/crecy" }, "Open Crecy's play page"));
    drawnKey = null;
    return;
  }
  if (st.body.game === "colonia") { // another game: its own table page
    text("pending", "The current game is Colonia");
    fill("options", h("a", { class: "btn btn-big", href: "/colonia" }, "Open Colonia's table page"));
    drawnKey = null;
    return;
  }
  current = st.body;
  legal = lg;
  const p = current.pending || {};
  const head = text("pending", current.over ? "The game is over" : pendingText(p));
  if (p.player) head.dataset.colour = p.player; else delete head.dataset.colour;
  const page = drawPage(p.kind);
  fill("pending-detail",
    `Round ${current.round}`,
    p.space ? ` · ${spaceName(p.space)}` : "",
    page ? [" · ", h("a", { href: page }, PAGE_LINKS[p.kind] || PAGE_LINKS[page])] : "",
    handDeal(p, current));
  const who = p.player && current.players[p.player];
  fill("context", who ? [
    `${plural(who.coins, "coin")} · ${who.grain} grain · `,
    Object.entries(who.goods || {}).filter(([, n]) => n).map(([g, n]) => `${g === "ox" && n !== 1 ? `${n} oxen` : plural(n, g)} · `),
    cubes(who.cubes, "no cubes"),
    ` · ${plural(who.time_track.to_bridge, "space")} to the bridge`,
  ] : null);
  const seq = lg.seq ?? current.seq;
  if (seq !== shownSeq) path = [];
  shownSeq = seq;
  if (decisionKey() !== drawnKey) drawOptions();
  fill("market", marketPanel(current));
  seaPanel(current);
  await renderLog("log", 6, event);
  if (!redraw.current(mine)) return;
  markDrawn(seq, p.kind);
}

function decisionKey() {
  return JSON.stringify([shownSeq, path, legal.actions, legal.choices]);
}

function drawOptions() {
  const seq = shownSeq;
  const options = legal.actions;
  drawnKey = decisionKey();
  if (!options.length) {
    fill("options", h("p", { class: "muted" }, current.over ? "Nothing left to decide." : "No option to choose right now."));
    return;
  }
  // the whole decision on the screen: the rows with the most picks become a step each, one
  // more each time, until it fits (or nothing is left to fold)
  const most = foldableRows(options, legal.choices, path);
  for (let fold = 0; fold <= most; fold += 1) {
    fill("options", choiceButtons(options, legal.choices, path, (a) => pick(a, seq), (p) => { path = p; drawOptions(); }, fold));
    if (fits()) break;
  }
}

// From the top of the page's main column to the last option, under the menu bar: within
// the window's height?
function fits() {
  const main = document.querySelector(".play-main");
  const bar = document.querySelector(".topbar");
  const buttons = document.querySelectorAll("#options button");
  if (!main || !buttons.length) return true;
  const last = buttons[buttons.length - 1].getBoundingClientRect().bottom;
  const top = main.getBoundingClientRect().top;
  return last - top + (bar ? bar.getBoundingClientRect().height : 0) <= window.innerHeight;
}

// The options now on show are those of this seq and decision (for tests and debugging).
function markDrawn(seq, kind) {
  const el = document.getElementById("options");
  el.dataset.seq = String(seq);
  el.dataset.kind = kind || "";
}

// Show the narration of the event stored at `seq` as the confirmation of a tap.
async function confirm(seq) {
  const res = await getLog(0, seq - 1);
  const entry = res.ok && res.body ? (res.body.entries || []).find((e) => e.seq === seq) : null;
  const box = show("done", true);
  if (!box) return;
  box.dataset.seq = String(seq);
  box.replaceChildren(narrationBlock(entry ? entry.narration : ["Done."]));
  // a tap low on a long page: bring the new heading and the move's result back into view
  // (on a phone the heading stays in view by itself, under the menu: the result does not)
  const main = document.querySelector(".play-main");
  if (main && main.getBoundingClientRect().top < 0) window.scrollTo({ top: 0 });
}

async function pick(action, expectedSeq) {
  await redraw.during(() => send(action, expectedSeq, async (res) => {
    if (res.ok && res.body && res.body.seq) await confirm(res.body.seq);
    else show("done", false);
  }));
  await refresh();
}

function manualEntry() {
  document.getElementById("manual-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    let action;
    try {
      action = JSON.parse(document.getElementById("manual").value);
    } catch (err) {
      showRefusal({ status: 400, body: { words: "this is not an action written as in the game record" } });
      return;
    }
    await pick(action);
  });
}

function undo() {
  const dialog = document.getElementById("undo-dialog");
  document.getElementById("undo").addEventListener("click", async () => {
    const res = await getLog(1);
    const what = res.ok && res.body ? res.body.undo : null;
    text("undo-what", what ? `This takes back: ${what}` : "There is nothing to undo.");
    document.getElementById("undo-confirm").disabled = !what;
    if (typeof dialog.showModal === "function") dialog.showModal();
    else if (what && window.confirm(`Undo? ${what}`)) doUndo();
  });
  dialog.addEventListener("close", () => {
    if (dialog.returnValue === "confirm") doUndo();
  });
}

async function doUndo() {
  await redraw.during(async () => {
    const res = await postUndo();
    if (res.ok) {
      showRefusal(null);
      await confirm(res.body.seq);
    } else {
      showRefusal(res);
      if (res.status === 401) askToken();
    }
  });
  await refresh();
}

// The table link as a QR code, so another tablet joins with the token (not typed).
function tableLink() {
  const dialog = document.getElementById("table-link-dialog");
  document.getElementById("show-table-link").addEventListener("click", () => {
    const token = tableToken();
    if (!token) { askToken(); return; }
    const base = document.body.dataset.publicUrl || location.origin;
    const url = `${base}/play#token=${encodeURIComponent(token)}`;
    fill("table-link-qr", qrFigure(url, "the play page, with the table token"));
    if (typeof dialog.showModal === "function") dialog.showModal(); else dialog.setAttribute("open", "");
  });
}

// Turned or resized sideways: fit the options again. A change of height alone (a phone's
// address bar showing as the page scrolls, its keyboard) moves no button.
let fittedWidth = window.innerWidth;
window.addEventListener("resize", () => {
  if (!legal || window.innerWidth === fittedWidth) return;
  fittedWidth = window.innerWidth;
  drawOptions();
});
requireToken();
tableLink();
manualEntry();
undo();
onLive("reports", () => refresh(null)); // a goal tile reported (sealed) on a phone
live(refresh);
