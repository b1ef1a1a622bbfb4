// A Crecy player's phone (/crecy/me/<colour>?token=…): their hand, mentor and missions,
// which only they see; the steps only they take — the name of a mentor, a friend card or a
// mission they drew by hand, the options that name a card of their hand (marry, arrange,
// discard, keep a mission) — and a hand card's printed values, asked once before it is
// played face up. The table's options (ask for money, a title…) are tapped on the tablet. Nothing of another player's reaches this page (their view has none).
import { getState, live, refusalText } from "./api.js";
import { fill, h, text } from "./dom.js";
import { cap } from "./labels.js";
import { redraws } from "./redraws.js";
import { friendText, memberLabel } from "./crecy-board.js";
import { cardForm } from "./crecy-form.js";

const colour = document.querySelector("[data-colour]").dataset.colour;
const KEY = `village.playerToken.${colour}`;
const fromUrl = new URLSearchParams(location.search).get("token");
if (fromUrl) localStorage.setItem(KEY, fromUrl);
const token = fromUrl || localStorage.getItem(KEY);
let types = {};
let learned = {};
let asking = null; // the form open: {card} (a hand card) or {mentor: name, known}

async function call(method, url, body) {
  const res = await fetch(url, {
    method, cache: "no-store",
    headers: { "Content-Type": "application/json", Accept: "application/json", Authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  return { ok: res.ok, status: res.status, body: data };
}

function refused(res) {
  const box = document.getElementById("refusal");
  box.hidden = res.ok;
  if (!res.ok) box.textContent = refusalText(res);
}

async function send(action) {
  const res = await call("POST", "/api/own", { player: colour, action });
  refused(res);
  return res;
}

async function answerCard(answer) {
  // a hand card's form names nothing in public ("hand"); a mentor's never does
  const res = await send(answer.card_type === "crecy.friend" ? { ...answer, hand: colour } : answer);
  if (res.ok) asking = null;
  refresh();
}

// Each hand card the box does not know yet: to play it face up (marry, arrange), say first
// what is printed on it (this names the card to the table: do it when you play it).
function unknownCards(unknown) {
  if (!unknown.length) return null;
  return h("div", { class: "cr-unknown" }, h("p", { class: "muted" }, "Cards of your hand the box does not know yet: to marry or arrange with one, say first what is printed on it (the table then sees its name)."),
    unknown.map((c) => h("button", { type: "button", class: "btn", "data-learn": c, onclick: () => { asking = { card: c }; refresh(); } }, `Play ${c}: what is printed on it?`)));
}

function nameForm(question, label, make) {
  const input = h("input", { id: "me-name", type: "text", autocomplete: "off", "aria-label": label });
  return h("form", { class: "col-form", id: "me-report", onsubmit: (e) => { e.preventDefault(); send(make(input.value.trim())); } },
    h("label", { for: "me-name" }, question), input, h("button", { type: "submit", class: "btn btn-big" }, "That is the card"));
}

function step(st, own) {
  const p = st.pending;
  if (asking && asking.mentor) {
    const t = types["crecy.mentor"];
    return [cardForm({ card_type: "crecy.mentor", card: asking.mentor, question: `What does your mentor ${asking.mentor} print? Choose, for its main objective and each secondary one, what it counts; only you see this (the box keeps it once the mentor is turned up at the end).`, fields: t ? t.fields : [], known: asking.known || {} }, answerCard, "me-mentor-form"),
      h("button", { type: "button", class: "btn", id: "me-card-cancel", onclick: () => { asking = null; refresh(); } }, "Not now")];
  }
  if (asking) {
    const t = types["crecy.friend"];
    return [cardForm({ card_type: "crecy.friend", card: asking.card, question: `What is printed on ${asking.card}? You are about to play it face up.`, fields: t ? t.fields : [], known: {} }, answerCard, "me-card-form"),
      h("button", { type: "button", class: "btn", id: "me-card-cancel", onclick: () => { asking = null; refresh(); } }, "Not now")];
  }
  if (p.kind === "mentor_deal" && p.for === colour) return [nameForm("You are dealt a mentor card face down: look at it and type its name. ", "the mentor's name", (n) => ({ type: "mentor_dealt", player: colour, mentor: n }))];
  if (p.kind === "friend_draw" && p.to === colour) return [nameForm(`Draw the top friend card into your hand and type its name${p.left > 1 ? ` (${p.left} to draw)` : ""}: `, "the friend card's name", (n) => ({ type: "friend_drawn", name: n, to: colour }))];
  if (p.kind === "mission_draw" && p.for === colour) return [nameForm("Draw a mission card and type its name: ", "the mission's name", (n) => ({ type: "mission_drawn", name: n }))];
  const learn = p.kind === "turn" && p.player === colour ? unknownCards(own.unknown || []) : null;
  if (!own.actions.length) return learn ? [learn] : null;
  return [learn, h("div", { class: "cr-options" }, own.actions.map((a, i) => {
    const c = own.choices[i] || { steps: [a.type] };
    return h("button", { type: "button", class: "cr-option", "data-action": JSON.stringify(a), onclick: () => send(a) },
      h("strong", {}, c.steps[0]), c.cost_text ? h("small", {}, ` costs ${c.cost_text}`) : null, c.gain_text ? h("small", {}, `gives ${c.gain_text}`) : null);
  }))];
}

function tally(me) {
  const spouses = me.family.map((m) => m.spouse).filter(Boolean);
  const count = (k) => {
    const out = {};
    for (const s of spouses) { const v = ((learned["crecy.friend"] || {})[s] || {})[k]; if (v) out[v] = (out[v] || 0) + 1; }
    return Object.entries(out).map(([n, c]) => `${c} ${n}`).join(", ") || "none known";
  };
  const attached = (k) => me.family.filter((m) => m.attached[k]).length;
  return [`${me.family.length} family member${me.family.length === 1 ? "" : "s"}, ${me.family.filter((m) => m.generation >= 2 && !m.lost).length} children on the tree`,
    `friends in the family: ${spouses.length} (nationalities: ${count("nationality")}; activities: ${count("activity")})`,
    `titles ${attached("title")}, contributions ${attached("contribution")}, residences ${attached("residence")}, enterprises ${attached("enterprise")}`,
    `honour ${me.honour}, prestige ${me.prestige}, income ${me.income}, gold ${me.gold}, ${me.hand.length} cards in hand`];
}

// What the mentor would give now (the box counts it from the mentor's form, which its owner
// types once: the rulebook prints no mentor card), or the button that opens that form.
function mentorNow(me, m) {
  if (!me.mentor || !m) return null;
  const open = (label) => h("button", { type: "button", class: "btn", id: "me-mentor-learn", onclick: () => { asking = { mentor: me.mentor, known: m.values }; refresh(); } }, label);
  if (!m.known) return h("div", { id: "me-mentor-now" }, h("p", { class: "muted" }, "The box does not know what this mentor prints yet: type it once and this page counts its honour as your family stands."), open("What does your mentor print?"));
  if (!m.count) return h("div", { id: "me-mentor-now" }, h("p", {}, "Its main objective is counted by the table at the end (not a count the box can make)."), open("Correct its form"));
  const c = m.count;
  return h("div", { id: "me-mentor-now", "data-total": String(c.total) },
    h("p", {}, h("strong", {}, `Your mentor would give ${c.total} honour now`), `: ${c.main} for its main objective (${c.main_words})${c.best.length ? ` and ${c.best.join(" + ")} for secondary objectives` : ""}.`),
    c.secondary.length ? h("ul", {}, c.secondary.map((o) => h("li", { "data-met": String(o.met) }, `${o.met ? "✓" : "✗"} ${o.words}: ${o.now} of ${o.needed} → ${o.honour} honour`))) : null,
    h("p", { class: "muted" }, c.missions ? `Each of your ${c.missions} mission(s) under the mentor validates one secondary objective met.` : "A secondary objective needs a mission under the mentor (generation III)."),
    open("Correct its form"));
}

const redraw = redraws();
async function refresh() {
  if (!token) { text("me-status", "This page needs your player link (with ?token=…): ask the table for it."); return; }
  const mine = redraw.begin();
  const [res, own, cards] = await Promise.all([getState(colour, token), call("GET", `/api/own?player=${colour}`),
    fetch("/api/cards", { cache: "no-store" }).then((r) => r.json()).catch(() => ({}))]);
  if (!redraw.current(mine)) return;
  if (!res.ok) { text("me-status", res.status === 401 ? "This link's token is not valid for the current game: ask the table for your new link." : refusalText(res)); return; }
  const st = res.body;
  if (st.game !== "crecy") { text("me-status", "The current game is not Le Testament du Duc de Crecy."); return; }
  types = cards.types || {};
  learned = cards.learned || {};
  const me = st.players.find((p) => p.id === colour);
  if (!me) { text("me-status", `${cap(colour)} does not play in this game.`); return; }
  learned = { ...learned, "crecy.friend": { ...(learned["crecy.friend"] || {}), ...((own.ok && own.body.cards) || {}) } };
  const mineStep = step(st, own.ok ? own.body : { actions: [], choices: [] });
  document.getElementById("me-step").hidden = !mineStep;
  if (mineStep) fill("me-step-body", mineStep);
  text("me-status", st.pending.kind === "over" ? "The game is over." : mineStep ? "Your turn to act: below." : `Waiting: ${st.pending.player ? `${cap(st.pending.player)}'s step` : "the table"}.`);
  fill("me-hand", me.hand.length ? h("ul", {}, me.hand.map((c) => h("li", { "data-card": c }, friendText(c, learned)))) : h("p", { class: "muted" }, "No card in hand."));
  fill("me-mentor",
    h("p", { "data-mentor": me.mentor || "" }, me.mentor ? `Mentor: ${me.mentor}.` : "No mentor dealt yet."),
    h("p", {}, me.missions.length ? `Missions face up: ${me.missions.join(", ")}.` : "No mission face up.", me.under_mentor ? ` ${me.under_mentor} mission(s) under your mentor.` : ""),
    mentorNow(me, own.ok ? own.body.mentor : null),
    h("p", { class: "muted" }, "Your family as it stands now:"),
    h("ul", { id: "me-tally" }, tally(me).map((t) => h("li", {}, t))));
  fill("me-family", h("ul", {}, me.family.map((m) => h("li", {}, `${memberLabel(me.family, m.id)}${m.spouse ? ` ⚭ ${m.spouse}${m.arranged ? " (arranged)" : ""}` : ""}${Object.keys(m.attached).length ? ` · ${Object.entries(m.attached).map(([k, v]) => `${k} ${v}`).join(", ")}` : ""}`))));
  document.getElementById("me-status").dataset.seq = String(st.seq);
}

live(refresh, token);
