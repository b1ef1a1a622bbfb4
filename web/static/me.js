// A player's private view: their face-down customers with points, and their full score.
import { getState, live, postAnytime, postReport, refusalText } from "./api.js";
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

const PIECES = { grain: "a sack of grain", cocoa: "a cocoa basket", tea: "a tea bale" };
function piece(p, ship) {
  if (p.startsWith("treasure:")) {
    const coins = (ship.treasure_coins || {})[p.slice("treasure:".length)];
    return coins === undefined ? "a treasure" : `a treasure worth ${coins} coin${coins === 1 ? "" : "s"}`;
  }
  return p.includes("-") ? `family member ${p.split("-")[1]}` : PIECES[p] || `a ${p}`;
}

function showAnswer(res) {
  const box = document.getElementById("refusal");
  box.hidden = res.ok;
  if (!res.ok) box.textContent = res.status === 401
    ? "This link's token is not valid for the current game: ask the table for your new link."
    : refusalText(res);
}

async function send(action) {
  showAnswer(await postAnytime(action, token));
}

function anytime(st, type, field, value) {
  return (st.anytime || []).find((a) => a.type === type && a[field] === value);
}

// Life goals: each goal with what it still lacks, and a claim button once it is met;
// while the goals are dealt by hand, the tiles of the tier to pick the one drawn from.
let picked = null; // the tile tapped, waiting for "yes, that is mine"

function renderGoals(st) {
  const panel = document.getElementById("me-goals-panel");
  const mine = st.life_goals && st.life_goals.players[colour];
  panel.hidden = !mine;
  if (!mine) return;
  const report = mine.to_report;
  panel.classList.toggle("urgent", Boolean(report));
  if (!report) picked = null;
  const auto = st.life_goals.claiming === "auto";
  fill("me-goals", [["silver", "Silver"], ["gold", "Gold"]].map(([tier, label]) => {
    const goal = mine[tier];
    if (!goal) {
      return report && report.tier === tier
        ? reportForm(st, report, label)
        : h("div", { class: "goal", "data-goal-tier": tier }, h("strong", {}, `${label}: `), "not dealt yet.");
    }
    const name = (mine.names || {})[goal] || goal;
    if ((mine.claimed || []).includes(goal)) {
      return h("div", { class: "goal", "data-goal": goal }, h("strong", {}, `${label}: ${name}`), " — claimed.");
    }
    const lacks = (mine.missing || {})[goal] || [];
    const claim = anytime(st, "claim_goal", "goal", goal);
    return h("div", { class: "goal", "data-goal": goal },
      h("strong", {}, `${label}: ${name}`),
      h("p", { class: "muted" }, lacks.length ? `Still missing: ${lacks.join("; ")}.` : "Met."),
      claim && !auto ? h("button", { type: "button", class: "btn", "data-claim": goal, onclick: () => send(claim) }, `Claim ${name}`) : null);
  }));
}

// The tiles of the tier being dealt: tap the one drawn, then say yes (a mistaken report
// can only be taken back with the table's undo).
function reportForm(st, report, label) {
  const tier = report.tier;
  const action = (goal) => (st.reports || []).find((a) => a.tier === tier && a.hands[colour] === goal);
  if (picked && picked.tier === tier) {
    return h("div", { class: "goal report", "data-report": tier },
      h("strong", {}, `${label} goal: you drew ${picked.name}?`),
      h("p", { class: "muted" }, "Only you will see it until you claim it."),
      h("div", { class: "report-choices" },
        h("button", { type: "button", class: "btn primary", "data-report-confirm": picked.goal,
          onclick: () => sendReport(action(picked.goal)) }, `Yes, ${picked.name}`),
        h("button", { type: "button", class: "btn", onclick: () => { picked = null; renderGoals(st); } }, "No, choose again")));
  }
  return h("div", { class: "goal report", "data-report": tier },
    h("strong", {}, `${label} goal: which tile did you draw?`),
    h("p", { class: "muted" },
      `If your table deals the goals by hand: draw a ${tier} goal tile face down, look at it without showing it, and tap its name. `,
      "If the tablet deals them, wait: your goal will show here."),
    h("div", { class: "report-choices" }, report.goals.map((g) => h("button", {
      type: "button", class: "btn", "data-report-goal": g.goal,
      onclick: () => { picked = { tier, goal: g.goal, name: g.name }; renderGoals(st); },
    }, g.name))));
}

async function sendReport(action) {
  if (!action) return;
  const res = await postReport(colour, action, token);
  picked = null;
  showAnswer(res);
  await refresh();
}

// Port: the hold, Port goods on the farm, treasures with their value and a cash button.
function renderPort(st) {
  const panel = document.getElementById("me-port-panel");
  const ship = st.port && st.port.ships[colour];
  panel.hidden = !ship;
  if (!ship) return;
  const where = ship.zone === "port" ? "in port" : `at sea, zone ${ship.zone}`;
  const treasures = (ship.treasures || []).map((t) => {
    const cash = anytime(st, "cash_treasure", "tile", t);
    const coins = (ship.treasure_coins || {})[t];
    return h("div", { class: "treasure", "data-treasure": t },
      coins === undefined ? "A treasure " : `A treasure worth ${coins} coin${coins === 1 ? "" : "s"} `,
      cash ? h("button", { type: "button", class: "btn", "data-cash": t, onclick: () => send(cash) }, "Cash it") : null);
  });
  const report = st.port.to_report;
  panel.classList.toggle("urgent", Boolean(report));
  if (!report) pickedTreasure = null;
  fill("me-port",
    report ? treasureReport(st, report) : null,
    h("p", {}, `Your ship is ${where}${ship.captain ? ", a captain hired" : ""}.`),
    h("p", {}, `On the hold: ${(ship.hold || []).map((p) => piece(p, ship)).join(", ") || "nothing"}.`),
    h("p", {}, `On your farm: ${ship.cocoa} cocoa, ${ship.tea} tea.`),
    treasures.length ? treasures : h("p", { class: "muted" }, "No treasure unloaded."));
}

// A treasure taken by hand: its taker taps the value the tile shows, then says yes.
let pickedTreasure = null;

function treasureReport(st, report) {
  const coins = (n) => `${n} coin${n === 1 ? "" : "s"}`;
  const action = (tile) => (st.reports || []).find((a) => a.type === "draw_treasure" && a.tile === tile);
  if (pickedTreasure) {
    const t = pickedTreasure;
    return h("div", { class: "treasure report", "data-report": "treasure" },
      h("strong", {}, `Your treasure shows ${coins(t.coins)}?`),
      h("div", { class: "report-choices" },
        h("button", { type: "button", class: "btn primary", "data-report-confirm": t.tile,
          onclick: () => { pickedTreasure = null; sendReport(action(t.tile)); } }, `Yes, ${coins(t.coins)}`),
        h("button", { type: "button", class: "btn", onclick: () => { pickedTreasure = null; renderPort(st); } }, "No, choose again")));
  }
  return h("div", { class: "treasure report", "data-report": "treasure" },
    h("strong", {}, "You take a treasure: what does it show?"),
    h("p", { class: "muted" },
      "If your table draws the real tiles: take the top treasure tile, look at it without showing it, and tap its value. ",
      "If the tablet draws it, wait: it will show here."),
    h("div", { class: "report-choices" }, report.map((r) => h("button", {
      type: "button", class: "btn", "data-report-treasure": r.tile,
      onclick: () => { pickedTreasure = r; renderPort(st); },
    }, coins(r.coins)))));
}

async function refresh() {
  if (!token) {
    text("me-status", "This page needs your player link (with ?token=…): ask the table for it.");
    return;
  }
  const res = await getState(colour, token);
  if (res.ok) {
    render(res.body);
    renderGoals(res.body);
    renderPort(res.body);
  }
  else if (res.status === 401) text("me-status", "This link's token is not valid for the current game: ask the table for your new link.");
  else if (res.status === 404) text("me-status", "No game yet.");
  else text("me-status", `The companion did not answer (${res.status || "offline"}).`);
}

live(refresh);
