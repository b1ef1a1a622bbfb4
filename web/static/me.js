// A player's private view: their face-down customers with points, and their full score.
import { getState, live, onLive, postAnytime, postReport, refusalText } from "./api.js";
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
        h("span", {}, "Wanted ", tile ? wants(tile) : "?"),
        h("strong", {}, tile ? `${tile.prestige} prestige` : "?"));
    })
    : h("p", { class: "muted" }, "No customer served yet."));
  const goods = Object.entries(me.goods || {}).filter(([, n]) => n).map(([g, n]) => `${n} ${g}`).join(", ") || "no goods";
  fill("me-supplies",
    h("p", {}, `${me.coins} coin${me.coins === 1 ? "" : "s"} · ${me.grain} grain · ${goods}`),
    h("p", {}, cubes(me.cubes, "no cubes")),
    // Le Port replaces the travel map: no city to visit then
    st.port ? null : h("p", { class: "muted" }, `Cities visited: ${(me.cities || []).map(cap).join(", ") || "none"}`));
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
function renderGoals(st) {
  const panel = document.getElementById("me-goals-panel");
  const mine = st.life_goals && st.life_goals.players[colour];
  panel.hidden = !mine;
  if (!mine) return;
  const report = mine.to_report;
  panel.classList.toggle("urgent", Boolean(report));
  if (!report) { delete chosen.silver; delete chosen.gold; }
  const auto = st.life_goals.claiming === "auto";
  fill("me-goals", [["silver", "Silver"], ["gold", "Gold"]].map(([tier, label]) => {
    const goal = mine[tier];
    if (!goal) {
      return report && report.tier === tier
        ? reportForm(st, report, label)
        : h("div", { class: "goal", "data-goal-tier": tier }, h("strong", {}, `${label}: `), "not dealt yet.");
    }
    const name = (mine.names || {})[goal] || goal;
    const worth = (mine.prestige || {})[goal];
    const asks = (mine.conditions || {})[goal];
    const what = h("p", { class: "goal-asks" }, asks ? `Asks for ${asks}` : "",
      worth ? [asks ? " · " : "", h("strong", {}, `${worth} prestige`)] : "");
    if ((mine.claimed || []).includes(goal)) {
      return h("div", { class: "goal", "data-goal": goal }, h("strong", {}, `${label}: ${name}`), " — claimed.", what);
    }
    const lacks = (mine.missing || {})[goal] || [];
    const claim = anytime(st, "claim_goal", "goal", goal);
    return h("div", { class: "goal", "data-goal": goal },
      h("strong", {}, `${label}: ${name}`), what,
      h("p", { class: "muted" }, lacks.length ? `Still missing: ${lacks.join("; ")}.` : "Met."),
      claim && !auto ? h("button", { type: "button", class: "btn", "data-claim": goal, onclick: () => send(claim) }, `Claim ${name}`) : null);
  }));
}

// A draw made by hand, reported by the one player who saw it: tap what was drawn, then
// say yes (a report can be taken back only with the table's undo). `key` names the report
// ("silver", "gold", "treasure"); each choice is { id, label, action }.
const chosen = {}; // key → the choice tapped, waiting for "yes"

function reportPicker({ key, cls, ask, help, confirm, note, attr, choices, redraw }) {
  const pick = chosen[key];
  const box = (...kids) => h("div", { class: `${cls} report`, "data-report": key }, ...kids);
  if (pick) {
    return box(h("strong", {}, confirm(pick.label)),
      note ? h("p", { class: "muted" }, note) : null,
      h("div", { class: "report-choices" },
        h("button", { type: "button", class: "btn primary", "data-report-confirm": pick.id,
          onclick: () => { delete chosen[key]; sendReport(pick.action); } }, `Yes, ${pick.label}`),
        h("button", { type: "button", class: "btn",
          onclick: () => { delete chosen[key]; redraw(); } }, "No, choose again")));
  }
  return box(h("strong", {}, ask), h("p", { class: "muted" }, ...help),
    h("div", { class: "report-choices" }, choices.map((c) => h("button", {
      type: "button", class: "btn", [attr]: c.id, onclick: () => { chosen[key] = c; redraw(); },
    }, c.label))));
}

// The goal tiles of the tier being dealt, by the names printed on them.
function reportForm(st, report, label) {
  const tier = report.tier;
  const action = (goal) => (st.reports || []).find((a) => a.tier === tier && a.hands[colour] === goal);
  const sealed = st.my_report && st.my_report.tier === tier ? st.my_report : null;
  const sealedName = sealed && sealed.sealed ? (report.goals.find((g) => g.goal === sealed.sealed) || {}).name : null;
  const ask = sealed && sealed.check_again ? sealed.check_again
    : sealedName ? `${label} goal: you reported ${sealedName}. It stays sealed until every player has reported; tap another tile to change it.`
      : `${label} goal: which tile did you draw?`;
  return reportPicker({
    key: tier, cls: "goal", attr: "data-report-goal", redraw: () => renderGoals(st),
    ask,
    help: [`If your table deals the goals by hand: draw a ${tier} goal tile face down, look at it without showing it, and tap its name. `,
      "If the tablet deals them, wait: your goal will show here."],
    confirm: (name) => `${label} goal: you drew ${name}?`,
    note: "Only you will see it until you claim it.",
    choices: report.goals.map((g) => ({ id: g.goal, label: g.name, action: action(g.goal) })),
  });
}

async function sendReport(action) {
  if (!action) return;
  const res = await postReport(colour, action, token);
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
  if (!report) delete chosen.treasure;
  fill("me-port",
    report ? treasureReport(st, report) : null,
    h("p", {}, `Your ship is ${where}${ship.captain ? ", a captain hired" : ""}.`),
    h("p", {}, `On the hold: ${(ship.hold || []).map((p) => piece(p, ship)).join(", ") || "nothing"}.`),
    h("p", {}, `On your farm: ${ship.cocoa} cocoa, ${ship.tea} tea.`),
    treasures.length ? treasures : h("p", { class: "muted" }, "No treasure unloaded."));
}

// A treasure taken by hand: its taker taps the value the tile shows, then says yes.
function treasureReport(st, report) {
  const coins = (n) => `${n} coin${n === 1 ? "" : "s"}`;
  const action = (tile) => (st.reports || []).find((a) => a.type === "draw_treasure" && a.tile === tile);
  return reportPicker({
    key: "treasure", cls: "treasure", attr: "data-report-treasure", redraw: () => renderPort(st),
    ask: "You take a treasure: what does it show?",
    help: ["If your table draws the real tiles: take the top treasure tile, look at it without showing it, and tap its value. ",
      "If the tablet draws it, wait: it will show here."],
    confirm: (value) => `Your treasure shows ${value}?`,
    choices: report.map((r) => ({ id: r.tile, label: coins(r.coins), action: action(r.tile) })),
  });
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

onLive("reports", () => refresh()); // another player reported, or a clash was found
live(refresh, token);
