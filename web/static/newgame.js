// New game: which game (Village or Le Testament du Duc de Crecy), player count, colours in
// seat order, first player (and for Crecy each family's head card and side); then the
// players' links.
import { getState, live, postGame } from "./api.js";
import { fill, h, show } from "./dom.js";
import { cap } from "./labels.js";
import { showRefusal } from "./actions.js";
import { playerLinks } from "./links-list.js";
import { askToken, requireToken } from "./token.js";

const seatsEl = document.getElementById("seats");
const COLOURS = seatsEl.dataset.colours.split(",");
let seats = COLOURS.slice(0, 3);
let first = 0;

const gameName = () => document.querySelector('input[name="game"]:checked').value;
const heads = {}; // Crecy: each colour's family head card and side, as typed

function setGame() {
  const crecy = gameName() === "crecy";
  document.querySelectorAll(".village-only").forEach((el) => { el.hidden = crecy; });
  document.getElementById("crecy-options").hidden = !crecy;
  draw();
}

function drawFamilies() {
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

const count = () => Number(document.querySelector('input[name="count"]:checked').value);

function setCount(n) {
  const unused = COLOURS.filter((c) => !seats.includes(c));
  seats = seats.slice(0, n);
  while (seats.length < n) seats.push(unused.shift());
  if (first >= n) first = 0;
  document.querySelectorAll("table[data-count]").forEach((t) => { t.hidden = Number(t.dataset.count) !== n; });
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
  const houseRules = Object.fromEntries([...document.querySelectorAll('input[name="house"]')]
    .map((box) => [box.value, box.checked]));
  const modules = [...document.querySelectorAll('input[name="module"]:checked')].map((box) => box.value);
  const auto = document.querySelector('input[name="goal_claims"]');
  const crecy = gameName() === "crecy";
  const families = Object.fromEntries(seats.map((c) => [c, { head: (heads[c].head || "").trim() || cap(c), side: heads[c].side }]));
  const crecyHouse = Object.fromEntries([...document.querySelectorAll('input[name="crecy_house"]')].map((b) => [b.value, b.checked]));
  const res = await postGame(crecy
    ? { game: "crecy", players: seats, first_player: seats[first], options: { families, house: crecyHouse } }
    : { players: seats, first_player: seats[first], house_rules: houseRules,
      modules, goal_claims: auto && auto.checked ? "auto" : "manual" });
  if (!res.ok) {
    showRefusal(res);
    if (res.status === 401) askToken();
    return;
  }
  showRefusal(null);
  const tokens = (res.body && res.body.players) || {};
  fill("player-links", playerLinks(tokens, crecy ? "/crecy/me" : "/me"));
  const play = document.querySelector('#started a[href="/play"]');
  if (play) play.href = crecy ? "/crecy" : "/play";
  const board = document.querySelector('#started a[href="/"]');
  if (board) board.href = crecy ? "/crecy/board" : "/";
  show("started", true);
  document.getElementById("started").scrollIntoView({ block: "start" });
}

async function current() {
  const res = await getState();
  const note = document.getElementById("in-progress");
  if (note) note.hidden = !(res.ok && !res.body.over);
}

document.querySelectorAll('input[name="game"]').forEach((r) => r.addEventListener("change", setGame));
document.querySelectorAll('input[name="count"]').forEach((r) => r.addEventListener("change", () => setCount(count())));
document.getElementById("new-game").addEventListener("submit", start);
setCount(count());
setGame();
requireToken();
live(current);
