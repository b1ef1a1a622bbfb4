// A player's private view: their face-down customers with points, and their full score.
import { getState, live } from "./api.js";
import { facts, fill, h, text } from "./dom.js";
import { cap } from "./labels.js";
import { cubes } from "./render.js";

const colour = document.getElementById("me").dataset.colour;
const KEY = `village.playerToken.${colour}`;
const fromUrl = new URLSearchParams(location.search).get("token");
if (fromUrl) localStorage.setItem(KEY, fromUrl);
const token = fromUrl || localStorage.getItem(KEY);

const ROWS = [
  ["travel", "Travel"], ["council", "Council"], ["church", "Church"], ["chronicle", "Chronicle"],
  ["customers", "Customers (hidden from the others)"], ["coins", "Coins"],
  ["final", "End-of-game points (sum of the above)"],
];

function wants(tile) {
  const goods = Object.entries(tile.goods || {}).map(([g, n]) => `${n} ${g}`);
  if (tile.grain) goods.push(`${tile.grain} grain`);
  return goods.join(" + ") || "nothing";
}

function render(st) {
  const me = st.players[colour];
  if (!me) {
    text("me-status", `${cap(colour)} does not play in this game.`);
    return;
  }
  text("me-status", `Round ${st.round} · ${me.prestige} prestige on the board · only you see this page.`);
  const sc = me.score;
  fill("me-score", h("tbody", {},
    h("tr", { "data-score": "prestige" }, h("th", { scope: "row" }, "Prestige on the board"), h("td", {}, me.prestige)),
    ROWS.filter(([k]) => k in sc).map(([k, label]) => h("tr", { "data-score": k },
      h("th", { scope: "row" }, label), h("td", {}, sc[k] ?? "–"))),
    h("tr", { class: "total", "data-score": "total" }, h("th", { scope: "row" }, "Total if the game ended now"), h("td", {}, sc.total ?? "–"))));
  // the game's own tiles (from its header), else this installation's box-check values
  const catalogue = st.customer_tiles || facts().customers || {};
  const list = Array.isArray(me.customers) ? me.customers : [];
  fill("me-customers", list.length
    ? list.map((id) => {
      const tile = catalogue[id];
      return h("div", { class: "customer", "data-customer": id },
        h("span", {}, h("code", {}, id), " wanted ", tile ? wants(tile) : "?"),
        h("strong", {}, tile ? `${tile.prestige} prestige` : "?"));
    })
    : h("p", { class: "muted" }, "No customer served yet."));
  const goods = Object.entries(me.goods || {}).filter(([, n]) => n).map(([g, n]) => `${n} ${g}`).join(", ") || "no goods";
  fill("me-supplies",
    h("p", {}, `${me.coins} coin${me.coins === 1 ? "" : "s"} · ${me.grain} grain · ${goods}`),
    h("p", {}, cubes(me.cubes, "no cubes")),
    h("p", { class: "muted" }, `Cities visited: ${(me.cities || []).map(cap).join(", ") || "none"}`));
}

async function refresh() {
  if (!token) {
    text("me-status", "This page needs your player link (with ?token=…): ask the table for it.");
    return;
  }
  const res = await getState(colour, token);
  if (res.ok) render(res.body);
  else if (res.status === 401) text("me-status", "This link's token is not valid for the current game: ask the table for your new link.");
  else if (res.status === 404) text("me-status", "No game yet.");
  else text("me-status", `The companion did not answer (${res.status || "offline"}).`);
}

live(refresh);
