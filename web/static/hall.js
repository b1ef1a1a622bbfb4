// The hall's grid: every table's card, redrawn from /api/tables, then one card at a time
// as the hall's live feed (/api/events, `card` events) says a table changed.
import { h } from "./dom.js";

const cards = new Map();

function cap(s) { return s ? s[0].toUpperCase() + s.slice(1) : ""; }

function cardEl(c) {
  const rows = c.ranking || [];
  const title = c.over ? "Finished" : c.round != null ? `Round ${c.round}` : "Starting";
  const die = c.next_to_die;
  return h("article", { class: `hall-card${c.over ? " over" : ""}`, id: `table-${c.table}`, "data-table": c.table },
    h("header", {}, h("h2", {}, c.table), h("span", { class: "round" }, title)),
    rows.length ? h("ol", {}, rows.map((r) => h("li", { "data-colour": r.player, class: r.place === 1 ? "lead" : "" },
      h("span", {}, `${r.place}. ${cap(r.player)}`), h("span", { class: "pts" }, `${r.points}`))))
      : h("p", { class: "muted" }, (c.players || []).map(cap).join(", ") || "no state yet"),
    c.over
      ? h("p", {}, "Winner: ", h("strong", {}, (c.winner || []).map(cap).join(" & ") || "—"))
      : h("p", { class: "small" },
        c.current_player ? [h("span", {}, `${cap(c.current_player)} to play`), " · "] : "",
        die ? h("span", { class: "die" }, `next to die: ${cap(die.player)} (${die.to_bridge} to the bridge)`) : ""),
    h("p", { class: "small muted" }, `game ${c.game_id} · event ${c.seq}`,
      (c.modules || []).length ? ` · ${c.modules.join(", ")}` : "", " · ",
      h("a", { href: `/games/${encodeURIComponent(c.table)}/${c.game_id}.jsonl` }, "record")));
}

function draw() {
  const grid = document.getElementById("grid");
  const names = [...cards.keys()].sort();
  grid.replaceChildren(...names.map((n) => cardEl(cards.get(n))));
  document.getElementById("empty").hidden = names.length > 0;
}

function update(c) {
  cards.set(c.table, c);
  const old = document.getElementById(`table-${c.table}`);
  if (!old) { draw(); return; }
  const el = cardEl(c);
  el.querySelectorAll("li.lead").forEach((li) => li.classList.add("fresh"));
  old.replaceWith(el);
}

async function load() {
  const res = await fetch("/api/tables");
  const body = await res.json();
  cards.clear();
  for (const c of body.tables) cards.set(c.table, c);
  draw();
}

function live() {
  const badge = document.getElementById("live");
  const es = new EventSource("/api/events");
  es.onopen = () => { badge.dataset.state = "live"; badge.textContent = "live"; load(); };
  es.onerror = () => { badge.dataset.state = "down"; badge.textContent = "reconnecting…"; };
  es.addEventListener("card", (ev) => update(JSON.parse(ev.data)));
}

load();
live();
