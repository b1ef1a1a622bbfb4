// Virtual draws, shared by the green-bag and mass pages: the commitment shown before the
// draw, posting it, then the revealed seed checked against the commitment.
import { getDraws, getLog } from "./api.js";
import { fill, h, show, text } from "./dom.js";
import { send } from "./actions.js";
import { sha256Hex } from "./sha256.js";

let lastShown = null; // the last commitment this page showed
const committedBySeq = {}; // the commitment this page posted a draw for, by the draw's seq

// The virtual draw on offer for `kind` in a state, or null; remembers its commitment.
export function offerFor(state, kind) {
  const d = state && state.draw;
  const offer = d && d.draw === kind ? d : null;
  if (offer) lastShown = offer.commitment;
  return offer;
}

// The audit of the draw stored at `seq` (or the latest of `kind`): {seq, kind, seed, digest, action}.
export async function findDraw(seq, kind) {
  const res = await getDraws();
  const list = res.ok && res.body && Array.isArray(res.body.draws) ? res.body.draws : [];
  if (seq != null) return list.find((d) => d.seq === seq) || null;
  return [...list].reverse().find((d) => d.kind === kind) || null;
}

// The latest chance action of `kind` in effect (not undone): {seq, source, virtual, draw}
// where `draw` is its audit (seed, digest, action) when the server drew it, or null when
// the table drew by hand; null if there is none yet.
export async function latestDraw(kind) {
  const res = await getDraws();
  if (!res.ok || !res.body) return null;
  const last = (res.body.latest || {})[kind];
  if (!last) return null;
  const list = Array.isArray(res.body.draws) ? res.body.draws : [];
  const draw = last.virtual ? list.find((d) => d.seq === last.seq) || null : null;
  return { ...last, draw };
}

// Show a draw's seed, its hash, and whether it matches the commitment this page showed
// before the draw (or, for a draw made before the page opened, the one stored with it).
export function showSeed(draw, open = false) {
  if (!draw || draw.withheld) return;
  const digest = sha256Hex(draw.seed);
  const seen = committedBySeq[draw.seq] || (lastShown === draw.digest ? lastShown : null);
  const expected = seen || draw.digest;
  text("seed", draw.seed);
  text("seed-hash", digest);
  text("seed-commitment", expected);
  const verify = text("verify", digest === expected
    ? `✓ sha256(seed) equals the commitment ${seen ? "shown here before the draw" : "stored with the draw"}.`
    : "✗ the seed does NOT match the commitment!");
  if (verify) verify.className = `verify ${digest === expected ? "ok" : "bad"}`;
  const panel = show("reveal-panel", true);
  if (panel && open) panel.open = true;
  allDraws();
}

const KINDS = {
  reveal_customers: "customer tiles", fill_bag: "green bag", mass_draw: "black bag at mass",
};

// Every virtual draw of the game, oldest first, those taken back by an undo marked.
export async function allDraws() {
  const [draws, log] = await Promise.all([getDraws(), getLog()]);
  const list = draws.ok && draws.body ? draws.body.draws || [] : [];
  const undone = new Set(((log.ok && log.body && log.body.entries) || []).filter((e) => e.undone).map((e) => e.seq));
  fill("all-draws", list.map((d, i) => h("li", { class: undone.has(d.seq) ? "undone" : "", "data-seq": d.seq },
    h("strong", {}, `Draw ${i + 1}: ${KINDS[d.kind] || "a draw"}`),
    undone.has(d.seq) ? h("span", { class: "undone-mark" }, " taken back by an undo") : null,
    d.withheld
      ? h("div", { class: "hash small" }, h("span", { class: "label" }, "seed "),
        "kept back until the game ends: it would tell a player's secret")
      : h("div", { class: "hash small" }, h("span", { class: "label" }, "seed "), h("code", {}, d.seed)),
    h("div", { class: "hash small" }, h("span", { class: "label" }, "commitment "), h("code", {}, d.digest)),
    d.withheld ? null : h("div", { class: `verify small ${sha256Hex(d.seed) === d.digest ? "ok" : "bad"}` },
      sha256Hex(d.seed) === d.digest ? "✓ the seed matches its commitment" : "✗ the seed does NOT match"))));
}

// Post the virtual draw for the commitment shown; returns the stored draw or null.
export async function drawNow(offer) {
  const committed = offer.commitment;
  const button = document.getElementById("draw");
  if (button) button.disabled = true;
  const res = await send({ type: "virtual_draw", commitment: committed });
  if (button) button.disabled = false;
  if (!res.ok) return null;
  const seq = res.body && res.body.seq;
  committedBySeq[seq] = committed;
  const draw = await findDraw(seq, offer.draw);
  showSeed(draw, true);
  return draw;
}
