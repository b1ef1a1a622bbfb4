// The readers page: each hub's readers with a zone to choose, the reader that last saw a tag
// highlighted (put a tag on a reader to find it), Save → POST /api/zones (the whole map).
import { tableToken } from "./api.js";
import { h, fill } from "./dom.js";
import { askToken, requireToken } from "./token.js";

document.getElementById("live").hidden = true;
let waitingForToken = false; // a Save refused for want of the token: done once it is given
requireToken(() => { if (waitingForToken) save(); });

let choices = [];        // [{zone, group, label}]
let draft = null;        // the map being edited: {hubs: {id: {reader: zone}}, default: {...}}
let dirty = false;
let shape = "";          // which hubs and readers the cards were built for
let saving = false;
let drawn = "";          // the map the selects show

const tableOf = (hub) => (hub.hub_id == null ? draft.default : (draft.hubs[String(hub.hub_id)] ||= {}));

const LINK = { up: "connected", degraded: "connected, a reader is not answering",
  connecting: "connecting…", down: "not connected" };

function ago(epoch) {
  if (epoch == null) return "";
  const s = Math.max(0, Math.round(Date.now() / 1000 - epoch));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  return new Date(epoch * 1000).toLocaleTimeString();
}

function status(r) {
  if (r.state === "error") return "Not answering";
  const now = r.state === "tag" ? "A tag is on it" : "Nothing on it";
  const last = r.last_seen == null ? "no tag seen yet" : `last tag ${ago(r.last_seen)}`;
  return `${now} · ${last} · ${r.reads_per_s} reads/s`;
}

function zoneSelect(hub, r) {
  const table = tableOf(hub);
  const current = table[String(r.index)] || "";
  const groups = [];
  for (const c of choices) {
    let g = groups.find((x) => x.label === c.group);
    if (!g) groups.push(g = { label: c.group, items: [] });
    g.items.push(c);
  }
  const known = choices.some((c) => c.zone === current);
  const sel = h("select", { id: `zone-${r.reader}`, "data-index": r.index },
    h("option", { value: "" }, "Not used"),
    !known && current ? h("option", { value: current }, current) : null,
    groups.map((g) => h("optgroup", { label: g.label },
      g.items.map((c) => h("option", { value: c.zone }, c.label)))));
  sel.value = current;
  sel.addEventListener("change", () => {
    if (sel.value) table[String(r.index)] = sel.value;
    else delete table[String(r.index)];
    dirty = true;
    drawn = JSON.stringify(draft);
    say("Not saved yet.");
  });
  return sel;
}

function build(hubs) {
  document.getElementById("zones-none").hidden = hubs.length > 0;
  fill("zones-hubs", hubs.map((hub) => h("fieldset", { class: "hub", "data-hub": hub.name },
    h("legend", {}, hub.hub_id == null ? "Hub without a number" : `Hub ${hub.hub_id}`, " · ",
      h("span", { class: "hub-link" }, LINK[hub.health.state] || hub.health.state)),
    h("div", { class: "reader-cards" }, hub.readers.map((r) => h("div", {
      class: "reader-card", "data-reader": r.reader },
    h("h3", {}, `Reader ${r.index}`, h("span", { class: "latest-badge", hidden: true }, "last to see a tag")),
    h("p", { class: "status" }, status(r)),
    h("label", { for: `zone-${r.reader}` }, "Sits under", zoneSelect(hub, r))))))));
}

function update(hubs) {
  let latest = null;
  for (const hub of hubs) {
    const fs = document.querySelector(`fieldset[data-hub="${CSS.escape(hub.name)}"]`);
    if (fs) fs.querySelector(".hub-link").textContent = LINK[hub.health.state] || hub.health.state;
    for (const r of hub.readers) {
      if (r.last_seen != null && (!latest || r.last_seen > latest.last_seen)) latest = r;
      const card = document.querySelector(`.reader-card[data-reader="${CSS.escape(r.reader)}"]`);
      if (card) card.querySelector(".status").textContent = status(r);
    }
  }
  for (const card of document.querySelectorAll(".reader-card")) {
    const on = latest != null && card.dataset.reader === latest.reader;
    card.classList.toggle("latest", on);
    card.querySelector(".latest-badge").hidden = !on;
  }
}

function say(text) { document.getElementById("zones-state").textContent = text; }

function refuse(text) {
  const box = document.getElementById("refusal");
  box.textContent = text || "";
  box.hidden = !text;
}

async function refresh() {
  let body;
  try {
    const token = tableToken();
    const res = await fetch("/api/zones", { cache: "no-store",
      headers: token ? { Authorization: `Bearer ${token}` } : {} });
    if (!res.ok) return;
    body = await res.json();
  } catch { return; }
  choices = body.choices;
  if (!draft || (!dirty && !saving)) draft = body.map;
  const problem = document.getElementById("zones-problem");
  problem.textContent = body.problem || "";
  problem.hidden = !body.problem;
  const key = JSON.stringify(body.hubs.map((x) => [x.name, x.hub_id, x.readers.length]));
  if (key !== shape || JSON.stringify(draft) !== drawn) {
    build(body.hubs);  // new hubs or readers, or a map saved elsewhere
    shape = key;
    drawn = JSON.stringify(draft);
  }
  update(body.hubs);
}

async function save() {
  const headers = { "Content-Type": "application/json", Accept: "application/json" };
  const token = tableToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  saving = true;
  waitingForToken = false;
  refuse(null);
  say("Saving…");
  try {
    const res = await fetch("/api/zones", { method: "POST", headers, body: JSON.stringify(draft) });
    const body = await res.json().catch(() => ({}));
    if (res.ok) {
      dirty = false;
      draft = body.map;
      say("Saved. The readers use these zones now.");
    } else if (res.status === 401) {
      say("");
      refuse("Saving needs the table token.");
      waitingForToken = true;
      askToken(save);
    } else {
      say("Not saved.");
      refuse(body.message || `The companion refused (${res.status}).`);
    }
  } catch {
    say("Not saved.");
    refuse("The companion cannot be reached (Wi-Fi?).");
  } finally {
    saving = false;
  }
  await refresh();
}

document.getElementById("zones-save").addEventListener("click", save);

const tick = async () => {
  await refresh();
  setTimeout(tick, 1000);
};
tick();
