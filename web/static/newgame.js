// New game: which game (Village, or another: Colonia, Le Testament du Duc de Crecy), player
// count, colours in seat order, first player (for Crecy each family's head card and side);
// then the players' links.
import { getState, live, postGame } from "./api.js";
import { fill, h, show } from "./dom.js";
import { cap } from "./labels.js";
import { showRefusal } from "./actions.js";
import { playerLinks } from "./links-list.js";
import { askToken, requireToken } from "./token.js";

const seatsEl = document.getElementById("seats");
let COLOURS = seatsEl.dataset.colours.split(",");
let seats = COLOURS.slice(0, 3);
let first = 0;

// Another game than Village (the page's data-games): its colours, counts and house rules
// replace Village's; Village's own parts (.village-only) are hidden.
const choiceEl = document.getElementById("game-choice");
const OTHER = choiceEl ? JSON.parse(choiceEl.dataset.games) : {};
const VILLAGE = { colours: COLOURS, counts: [...document.querySelectorAll('input[name="count"]')].map((r) => Number(r.value)) };
const gameName = () => (document.querySelector('input[name="game"]:checked') || { value: "village" }).value;
const heads = {}; // Crecy: each colour's family head card and side, as typed

function drawFamilies() {
  if (gameName() !== "crecy") return;
  fill("crecy-families", seats.map((colour, i) => {
    const f = heads[colour] || (heads[colour] = { head: "", side: i % 2 ? "patriarch" : "matriarch" });
    return h("li", { class: "seat", "data-colour": colour },
      h("span", { class: "seat-n" }, cap(colour)),
      h("input", { type: "text", name: `head-${colour}`, "aria-label": `${colour}'s family head card`, placeholder: "head card (name or colour)",
        value: f.head, oninput: (ev) => { f.head = ev.target.value; } }),
      h("select", { name: `side-${colour}`, "aria-label": `${colour}'s side`, onchange: (ev) => { f.side = ev.target.value; } },
        ["matriarch", "patriarch"].map((s) => h("option", { value: s, selected: s === f.side }, s))));
  }));
}

function chooseGame() {
  const name = gameName();
  const g = OTHER[name] || VILLAGE;
  document.querySelectorAll(".village-only").forEach((el) => { el.hidden = name !== "village"; });
  show("other-house-rules", name !== "village" && Object.keys(g.house_rules || {}).length > 0);
  show("crecy-options", name === "crecy");
  const help = document.getElementById("game-help");
  if (help) { help.hidden = !g.help; help.textContent = g.help || ""; }
  fill("other-rules", Object.entries(g.house_rules || {}).map(([rule, label]) => h("label", { class: "house-rule" },
    h("input", { type: "checkbox", name: "other-house", value: rule }),
    h("span", {}, h("strong", {}, rule.replace(/_/g, " ")), h("small", {}, label)))));
  const was = count();  // kept if the game is played by that many, else the nearest count
  const n = g.counts.includes(was) ? was : g.counts.reduce((a, b) => (Math.abs(b - was) < Math.abs(a - was) ? b : a));
  fill("counts", g.counts.map((k) => h("label", { class: "seg" },
    h("input", { type: "radio", name: "count", value: String(k), checked: k === n, onchange: () => setCount(count()) }),
    h("span", {}, String(k)))));
  COLOURS = g.colours;
  seats = COLOURS.slice(0, n);
  first = 0;
  setCount(n);
}

const count = () => Number(document.querySelector('input[name="count"]:checked').value);

function setCount(n) {
  const unused = COLOURS.filter((c) => !seats.includes(c));
  seats = seats.slice(0, n);
  while (seats.length < n) seats.push(unused.shift());
  if (first >= n) first = 0;
  document.querySelectorAll("table[data-count]").forEach((t) => { t.hidden = Number(t.dataset.count) !== n; });
  show("crecy-solo", gameName() === "crecy" && n === 1);
  draw();
}

function move(i, d) {
  const j = i + d;
  if (j < 0 || j >= seats.length) return;
  [seats[i], seats[j]] = [seats[j], seats[i]];
  if (first === i) first = j; else if (first === j) first = i;
  draw();
}

function draw() {
  drawFamilies();
  fill("seats", seats.map((colour, i) => h("li", { class: "seat", "data-colour": colour },
    h("span", { class: "seat-n" }, `Seat ${i + 1}`),
    h("select", {
      "aria-label": `colour of seat ${i + 1}`, name: `seat-${i}`,
      onchange: (ev) => {
        const other = seats.indexOf(ev.target.value);
        if (other >= 0) seats[other] = seats[i]; // swap: every colour once
        seats[i] = ev.target.value;
        draw();
      },
    }, COLOURS.map((c) => h("option", { value: c, selected: c === colour }, cap(c)))),
    h("label", { class: "first" }, h("input", {
      type: "radio", name: "first", value: colour, checked: i === first, onchange: () => { first = i; },
    }), "starts"),
    h("button", { type: "button", class: "btn", "aria-label": `move seat ${i + 1} up`, onclick: () => move(i, -1), disabled: i === 0 }, "↑"),
    h("button", { type: "button", class: "btn", "aria-label": `move seat ${i + 1} down`, onclick: () => move(i, 1), disabled: i === seats.length - 1 }, "↓"))));
}

async function start(ev) {
  ev.preventDefault();
  if (gameName() !== "village") return startOther(gameName());
  const houseRules = Object.fromEntries([...document.querySelectorAll('input[name="house"]')]
    .map((box) => [box.value, box.checked]));
  const modules = [...document.querySelectorAll('input[name="module"]:checked')].map((box) => box.value);
  const auto = document.querySelector('input[name="goal_claims"]');
  const res = await postGame({
    players: seats, first_player: seats[first], house_rules: houseRules,
    modules, goal_claims: auto && auto.checked ? "auto" : "manual",
  });
  if (!res.ok) {
    showRefusal(res);
    if (res.status === 401) askToken();
    return;
  }
  showRefusal(null);
  const tokens = (res.body && res.body.players) || {};
  fill("player-links", playerLinks(tokens));
  show("started", true);
  document.getElementById("started").scrollIntoView({ block: "start" });
}

// A game's own options: Crecy's family heads and its house rule; else the ticked house rules.
function otherOptions(name) {
  if (name === "crecy") {
    const families = Object.fromEntries(seats.map((c) => [c, { head: (heads[c].head || "").trim() || cap(c), side: heads[c].side }]));
    const house = Object.fromEntries([...document.querySelectorAll('input[name="crecy_house"], input[name="other-house"]')]
      .map((b) => [b.value, b.checked]));
    const solo = document.querySelector('input[name="crecy_solo"]:checked');
    return seats.length === 1 ? { families, house, solo: solo ? solo.value : "standard" } : { families, house };
  }
  const houseRules = Object.fromEntries([...document.querySelectorAll('input[name="other-house"]')]
    .map((box) => [box.value, box.checked]));
  return { house_rules: houseRules };
}

async function startOther(name) {
  const res = await postGame({ game: name, players: seats, first_player: seats[first], options: otherOptions(name) });
  if (!res.ok) {
    showRefusal(res);
    if (res.status === 401) askToken();
    return;
  }
  showRefusal(null);
  fill("player-links", playerLinks((res.body && res.body.players) || {}, OTHER[name].phone_page));
  show("started-other", true);
  document.getElementById("table-page").href = OTHER[name].table_page;
  document.getElementById("table-page").textContent = `${OTHER[name].label} table`;
  show("started", true);
  document.getElementById("started").scrollIntoView({ block: "start" });
}

async function current() {
  const res = await getState();
  const note = document.getElementById("in-progress");
  if (note) note.hidden = !(res.ok && !res.body.over);
}

document.querySelectorAll('input[name="count"]').forEach((r) => r.addEventListener("change", () => setCount(count())));
document.querySelectorAll('input[name="game"]').forEach((r) => r.addEventListener("change", chooseGame));
document.getElementById("new-game").addEventListener("submit", start);
setCount(count());
requireToken();
live(current);
