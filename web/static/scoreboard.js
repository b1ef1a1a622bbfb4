// The public scoreboard: fetches /api/state and redraws on every live event.
import { getState, live } from "./api.js";
import { fill, h, show, text } from "./dom.js";
import { cap, pendingWhat, spaceName, whereName } from "./labels.js";
import { prestigePlot } from "./plot.js";
import { cubes, family, member, slots } from "./render.js";
import { renderLog } from "./log.js";
import { seaBoard } from "./sea.js";
import { coloniaBoard, weekStrip } from "./colonia-board.js";

const ALIVE = new Set(["farm", "craft", "council", "travel", "church", "bag"]);
const SCORE_ROWS = [
  ["travel", "Travel"], ["council", "Council"], ["church", "Church"],
  ["chronicle", "Chronicle"], ["coins", "Coins"], ["customers", "Customers"],
];

function timeTrack(tt, colour) {
  const cells = [];
  for (let i = 0; i < tt.length; i++) {
    const cls = i < tt.position ? "tt passed" : i === tt.position ? "tt here" : "tt";
    cells.push(h("span", { class: cls }));
  }
  return h("div", { class: "time-track", "data-colour": colour, title: `${tt.position} of ${tt.length}` },
    h("div", { class: "tt-cells", role: "img", "aria-label": `time ${tt.position} of ${tt.length}` },
      cells, h("span", { class: "bridge", title: "bridge" }, "⌒")),
    h("div", { class: "tt-text" },
      h("strong", { class: "to-bridge" }, tt.to_bridge), ` space${tt.to_bridge === 1 ? "" : "s"} to the bridge`));
}

function membersByGeneration(members) {
  const rows = [];
  for (const gen of [1, 2, 3, 4]) {
    const alive = members.filter((m) => m.generation === gen && ALIVE.has(m.where.split(":")[0]));
    if (!alive.length) continue;
    rows.push(h("li", {}, h("span", { class: "gen" }, `Gen ${gen}`),
      alive.map((m) => h("span", { class: "chip" }, m.id.split("-")[1], h("small", {}, ` ${whereName(m.where)}`)))));
    // (one chip per member: its copy letter and where it stands)
  }
  const unborn = members.filter((m) => m.where === "unborn").length;
  const dead = members.filter((m) => /^(chronicle|grave|removed)/.test(m.where)).length;
  return h("div", { class: "members" },
    h("ul", { class: "gens" }, rows.length ? rows : h("li", { class: "muted" }, "nobody alive")),
    h("p", { class: "muted small" }, `${unborn} not born · ${dead} dead`));
}

// The score categories as a compact grid; hidden customer points show as a count.
function scoreGrid(score, customers) {
  const faceDown = customers && !Array.isArray(customers) ? customers.count : null;
  const cell = (label, value, cls = "") => h("div", { class: `stat ${cls}` },
    h("span", { class: "stat-label" }, label), h("span", { class: "stat-value" }, value));
  return h("div", { class: "score-grid", role: "group", "aria-label": "score" },
    SCORE_ROWS.map(([k, label]) => cell(label, score[k] == null
      ? (k === "customers" ? [`${faceDown ?? "?"}`, h("small", {}, " face down")] : "–") : score[k], `score-${k}`)),
    cell(score.total == null ? "Public total" : "Total", score.total ?? score.public_total, "total"));
}

function supplies(p) {
  const goods = Object.entries(p.goods || {}).filter(([, n]) => n).map(([g, n]) => `${n} ${g}`).join(", ");
  return h("p", { class: "supplies small" },
    `${p.coins} coin${p.coins === 1 ? "" : "s"} · ${p.grain} grain`, goods ? ` · ${goods}` : "",
    " · ", cubes(p.cubes, "no cubes"));
}

function familyCard(colour, p, st) {
  const current = st.current_player === colour;
  const winner = (st.winner || []).includes(colour);
  // by generation and place (figures of a generation are alike: their letters say nothing)
  const die = p.next_to_die || [];
  const where = Object.fromEntries((p.members || []).map((m) => [m.id, m.where]));
  const places = [...new Set(die.map((id) => whereName(where[id] || "")))];
  const nextDie = die.length
    ? `generation ${String(die[0]).split("-")[1][0]}, ${places.length > 1 ? `${places.slice(0, -1).join(", ")} or ${places[places.length - 1]}` : places[0]}`
    : "nobody";
  return h("article", { class: `card family-card${current ? " current" : ""}`, "data-colour": colour, id: `family-${colour}` },
    h("header", {}, h("h2", {}, family(colour), winner ? " 🏆" : ""),
      h("div", { class: "prestige" }, h("strong", { class: "prestige-n" }, p.prestige), h("small", {}, " prestige"))),
    timeTrack(p.time_track, colour),
    h("p", { class: "next-die" }, h("span", { class: "label" }, "Next to die: "), nextDie),
    membersByGeneration(p.members),
    scoreGrid(p.score, p.customers),
    supplies(p));
}

function chronicle(board) {
  const rows = Object.entries(board.chronicle).map(([sec, c]) => slots(c.members, c.capacity, cap(sec)));
  rows.push(slots(board.graves.members, board.graves.capacity, "Graves"));
  return [h("p", { class: "end-left" },
    h("strong", {}, board.chronicle_free), " chronicle spaces and ",
    h("strong", {}, board.graves_free), " graves left before the end"), rows];
}

function bags(board) {
  const bb = board.black_bag;
  return [
    h("div", { class: "bag-row" }, h("span", { class: "label" }, "Green bag"), cubes(board.green_bag)),
    h("div", { class: "bag-row" }, h("span", { class: "label" }, "Black bag"),
      h("span", { class: "chips" }, member("monk", `×${bb.monks}`), bb.members.map((m) => member(m)))),
  ];
}

function spaces(board) {
  return h("ul", { class: "spaces" }, Object.entries(board.spaces).map(([s, c]) =>
    h("li", {}, h("span", { class: "label" }, spaceName(s)), cubes(c))));
}

function render(st) {
  text("round", st.round);
  const turn = st.over
    ? `Game over · winner: ${(st.winner || []).map(cap).join(" and ")}`
    : cap(pendingWhat(st.pending));
  fill("turn", st.current_player && !st.over ? [family(st.current_player), " — "] : null, turn);
  fill("end-meter", h("span", {}, h("strong", {}, st.board.chronicle_free), " chronicle"),
    h("span", {}, h("strong", {}, st.board.graves_free), " graves left"));
  const families = fill("families", Object.entries(st.players).map(([c, p]) => familyCard(c, p, st)));
  families.dataset.count = Object.keys(st.players).length;
  const now = { round: st.round, prestige: Object.fromEntries(Object.entries(st.players).map(([c, p]) => [c, p.prestige])) };
  fill("plot", prestigePlot(st.prestige_history, now));
  fill("chronicle", chronicle(st.board));
  fill("bags", bags(st.board));
  fill("spaces", spaces(st.board));
  seaBoard(st);
}

async function refresh(event) {
  const res = event && event.state ? { ok: true, body: event.state } : await getState();
  const msg = document.getElementById("message");
  if (!res.ok) {
    msg.replaceChildren(res.status === 404
      ? h("span", {}, "No game yet. ", h("a", { href: "/new" }, "Start a new game"), ".")
      : `The companion did not answer (${res.status || "offline"}); retrying.`);
    show("message", true);
    return;
  }
  if (res.body.game === "crecy") { // Crecy's scoreboard is a page of its own
    msg.replaceChildren(h("span", {}, "The current game is Le Testament du Duc de Crecy: ", h("a", { href: "/crecy/board" }, "open its scoreboard"), "."));
    location.replace("/crecy/board");
    return;
  }
  const colonia = res.body.game === "colonia"; // Colonia's board instead of Village's
  show("status", !colonia);
  document.querySelector(".board-layout").hidden = colonia;
  show("colonia-scoreboard", colonia);
  if (colonia) {
    msg.replaceChildren(h("span", {}, "Colonia: the table plays on ", h("a", { href: "/colonia" }, "its table page"), "."));
    show("message", true);
    fill("col-week", weekStrip(res.body));
    coloniaBoard(res.body);
    await renderLog("col-log", 6, event);
    document.body.dataset.seq = res.body.seq ?? "";
    return;
  }
  show("message", false);
  render(res.body);
  await renderLog("log", 6, event);
  document.body.dataset.seq = res.body.seq ?? "";
}

live(refresh);
