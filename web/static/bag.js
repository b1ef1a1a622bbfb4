// Green bag: the virtual draw (commitment before, seed after) or a hand draw, and where to
// put each physical cube.
import { getState, live } from "./api.js";
import { facts, fill, h, show, text } from "./dom.js";
import { send } from "./actions.js";
import { drawNow, latestDraw, offerFor, showSeed } from "./draws.js";
import { spaceName } from "./labels.js";
import { CUBE_ORDER, cube, cubes } from "./render.js";
import { requireToken } from "./token.js";
import { renderCustomers } from "./customers.js";

const SPACES = ["harvest", "family", "crafts", "market", "travel", "council", "church"];
let offer = null;
let handCounts = {};
let handPlayers = 0;

function placement(spaces, title) {
  return [h("p", { class: "detail" }, title),
    h("div", { class: "placement" }, SPACES.map((s) => {
      const c = spaces[s] || {};
      const items = CUBE_ORDER.filter((k) => c[k]).map((k) => cube(k, c[k]));
      return h("div", { class: "place", "data-space": s }, h("h3", {}, spaceName(s)),
        items.length ? items : h("span", { class: "muted" }, "no cube"));
    }))];
}

function stepper(space, colour) {
  const out = h("output", { "data-space": space, "data-cube": colour }, handCounts[space][colour] || 0);
  const change = (d) => () => {
    const v = Math.max(0, (handCounts[space][colour] || 0) + d);
    handCounts[space][colour] = v;
    out.textContent = v;
    handTotals();
  };
  return h("div", { class: "stepper" }, cube(colour),
    h("button", { type: "button", class: "btn", "aria-label": `one ${colour} fewer on ${spaceName(space)}`, onclick: change(-1) }, "−"),
    out,
    h("button", { type: "button", class: "btn", "aria-label": `one ${colour} more on ${spaceName(space)}`, onclick: change(1) }, "+"));
}

function handTotals() {
  const card = (facts().setup_spaces || {})[String(handPlayers)] || {};
  const lines = SPACES.map((s) => {
    const n = Object.values(handCounts[s]).reduce((a, b) => a + b, 0);
    const want = card[s];
    const el = document.querySelector(`[data-hand-total="${s}"]`);
    if (el) el.textContent = want !== undefined ? `${n} of ${want}` : `${n}`;
    return n;
  });
  text("hand-total", `${lines.reduce((a, b) => a + b, 0)} cubes entered; the setup card says how many go on each space (unless the bag runs out).`);
}

function buildHandForm(players) {
  if (handPlayers === players) return;
  handPlayers = players;
  handCounts = Object.fromEntries(SPACES.map((s) => [s, {}]));
  fill("hand-grid", SPACES.map((s) => h("div", { class: "place" },
    h("h3", {}, spaceName(s), " ", h("small", { class: "muted", "data-hand-total": s }, "")),
    CUBE_ORDER.map((c) => stepper(s, c)))));
  handTotals();
}

async function submitHand(ev) {
  ev.preventDefault();
  const spaces = Object.fromEntries(SPACES.map((s) => [s,
    Object.fromEntries(Object.entries(handCounts[s]).filter(([, n]) => n > 0))]));
  const res = await send({ type: "fill_bag", spaces });
  if (res.ok) handPlayers = 0;
}

// This round's draw as the state holds it (board.round_fill, whoever drew it) and where it
// came from (the latest fill_bag in effect: the server's virtual bag or a hand draw).
let source = null; // {key, last}: `last` from latestDraw("fill_bag"), for the round_fill `key`
let stale = true;

async function fillSource(st) {
  const key = `${st.game_id}:${st.round}:${JSON.stringify(st.board.round_fill || {})}`;
  if (stale || !source || source.key !== key) {
    source = { key, last: await latestDraw("fill_bag") };
    stale = false;
  }
  return source.last;
}

async function render(st) {
  const p = st.pending || {};
  offer = offerFor(st, "fill_bag");
  fill("bag-contents", cubes(st.board.green_bag, "the bag is empty"));
  const waiting = p.kind === "fill_bag";
  renderCustomers(st);
  if (p.kind === "reveal_customers") requireToken();
  text("bag-status", p.kind === "reveal_customers"
    ? `Round ${st.round}: customer tiles to turn up at the market (${(p.slots || []).length} space${(p.slots || []).length === 1 ? "" : "s"}).`
    : waiting
    ? `Round ${st.round}: the setup card's cubes and every plague cube from the supply go into the green bag, then cubes are drawn onto the action spaces.`
    : `Round ${st.round}: the bag was drawn for this round. Next draw at the start of the next round.`);
  show("virtual-panel", Boolean(offer));
  if (offer) {
    text("commitment", offer.commitment);
    show("reveal-panel", false);
  }
  const roundFill = st.board.round_fill || {};
  // At setup the customers come first: no cubes anywhere yet, so no placement to show.
  show("placement-panel", Object.keys(roundFill).length > 0 || p.kind !== "reveal_customers");
  show("hand-panel", waiting);
  if (waiting) {
    requireToken();
    buildHandForm(Object.keys(st.players).length);
    fill("placement", placement(st.board.spaces, "Cubes left on the spaces now, before this round's draw:"));
    return;
  }
  const last = Object.keys(roundFill).length ? await fillSource(st) : null;
  if (!last) {
    fill("placement", placement(st.board.spaces, "Cubes on the action spaces now:"));
    show("reveal-panel", false);
    return;
  }
  const how = last.draw ? "virtual draw, seed below" : "drawn by hand";
  const panel = fill("placement",
    placement(roundFill, `Round ${st.round}'s draw (#${last.seq}, ${how}): put these cubes on the action spaces.`),
    h("details", {}, h("summary", {}, "Cubes left on the spaces now"), placement(st.board.spaces, "")));
  if (panel) panel.dataset.source = last.draw ? "virtual" : "hand";
  if (last.draw) showSeed(last.draw); else show("reveal-panel", false);
}

async function refresh(event) {
  if (!event || ["fill_bag", "revert", "new_game"].includes(event.type)) stale = true;
  const res = event && event.state ? { ok: true, body: event.state } : await getState();
  if (!res.ok) {
    text("bag-status", res.status === 404 ? "No game yet: start one on the New game page." : "The companion is not answering.");
    return;
  }
  await render(res.body);
}

document.getElementById("draw").addEventListener("click", async () => {
  if (offer && await drawNow(offer)) await refresh(null);
});
document.getElementById("hand-form").addEventListener("submit", submitHand);
live(refresh);
