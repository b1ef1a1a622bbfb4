// Le Testament du Duc de Crecy at the table: the play page (/crecy) and the public
// scoreboard (/crecy/board, the same board without controls). What the game waits for with
// its controls: the box's question about a card, a child card or an extra pawn drawn
// virtually (committed seed) or by hand, a friend card turned up onto the display by name,
// the draws only one player sees (reported on their phone), the options in words with
// their costs; what just happened; the board.
import { getLog, getTokens, live, postAction, postUndo, refusalText, stateAndLegal, tableToken } from "./api.js";
import { fill, h, text } from "./dom.js";
import { cap } from "./labels.js";
import { redraws } from "./redraws.js";
import { drawBoard, memberLabel } from "./crecy-board.js";
import { cardForm } from "./crecy-form.js";

const BOARD_ONLY = document.getElementById("cr-status").dataset.board === "yes";
const CHILD_EFFECTS = ["charming", "brave", "don_juan", "gossip_queen", "ravishing_smile", "beauty_queen", "surprise_twins"];
const EXTRA = ["green", "orange", "red", "blue", "yellow"];
let tokens = null;
let learned = {};
let types = {};
let st = null;

async function send(action) {
  const res = await postAction(action);
  const box = document.getElementById("refusal");
  box.hidden = res.ok;
  if (!res.ok) box.textContent = refusalText(res);
  return res;
}

const phone = (c) => (tokens && tokens[c]
  ? h("a", { href: `/crecy/me/${c}?token=${tokens[c]}`, class: "btn cr-phone", target: "_blank" }, `${cap(c)}'s phone`) : null);

function childForm() {
  const card = h("select", { name: "card", "aria-label": "the child card drawn" }, ["girl", "boy", "complication"].map((c) => h("option", { value: c }, c)));
  const effect = h("select", { name: "effect", "aria-label": "its printed effect" }, h("option", { value: "" }, "no effect printed"),
    CHILD_EFFECTS.map((e) => h("option", { value: e }, e.replace(/_/g, " "))));
  return h("form", { class: "col-form", id: "cr-child-hand", onsubmit: (e) => {
    e.preventDefault();
    send(effect.value && card.value !== "complication" ? { type: "child_drawn", card: card.value, effect: effect.value } : { type: "child_drawn", card: card.value });
  } }, "Or draw the top card of the child deck by hand: ", card, effect, h("button", { type: "submit", class: "btn" }, "Drawn by hand"));
}

function extraForm(who) {
  const colour = h("select", { name: "colour", "aria-label": "the extra pawn's colour" }, EXTRA.map((c) => h("option", { value: c }, c)));
  return h("form", { class: "col-form", id: "cr-extra-hand", onsubmit: (e) => { e.preventDefault(); send({ type: "extra_dealt", player: who, colour: colour.value }); } },
    `Or draw ${cap(who)}'s extra pawn by hand: `, colour, h("button", { type: "submit", class: "btn" }, "Drawn by hand"));
}

function displayForm() {
  const input = h("input", { id: "cr-friend-name", type: "text", autocomplete: "off", "aria-label": "the friend card's name" });
  return h("form", { class: "col-form", onsubmit: (e) => { e.preventDefault(); send({ type: "friend_drawn", name: input.value.trim(), to: "display" }); } },
    h("label", { for: "cr-friend-name" }, "Turn up the top friend card onto the display and type its name as printed: "), input,
    h("button", { type: "submit", class: "btn", id: "cr-friend-turned" }, "Turned up"));
}

function mentorScoreForm(p) {
  const me = st.players.find((x) => x.id === p.player);
  const main = h("input", { name: "main", type: "number", min: 0, value: 0, "aria-label": "the mentor's main count" });
  const second = Array.from({ length: me ? me.under_mentor : 0 }, (_, i) => h("input", { name: `s${i}`, type: "number", min: 0, value: 0, "aria-label": `secondary objective ${i + 1}` }));
  return h("form", { class: "col-form", id: "cr-mentor-score", onsubmit: (e) => {
    e.preventDefault();
    send({ type: "mentor_score", player: p.player, main: Number(main.value), secondary: second.map((s) => Number(s.value)) });
  } }, `${cap(p.player)} turns up the mentor and counts its honour (the phone shows the count so far): `, main,
  second.length ? " secondary objectives: " : "", second, h("button", { type: "submit", class: "btn" }, "Counted"));
}

function options(legal, p) {
  const open = [];
  const hidden = [];
  legal.actions.forEach((a, i) => {
    const c = legal.choices[i] || { steps: [a.type] };
    if (JSON.stringify(a).includes('"?"')) hidden.push(c.steps[0]);
    else open.push([a, c]);
  });
  const buttons = open.map(([a, c]) => h("button", { type: "button", class: "cr-option", "data-action": JSON.stringify(a), onclick: () => send(a) },
    h("strong", {}, c.steps[0]),
    c.cost_text ? h("small", {}, ` costs ${c.cost_text}`) : null, c.gain_text ? h("small", {}, `gives ${c.gain_text}`) : null));
  const who = p.player;
  return [h("div", { class: "cr-options" }, buttons),
    hidden.length ? h("p", { class: "cr-on-phone" }, `On ${cap(who)}'s phone only (a card of the hand): ${[...new Set(hidden)].join("; ")}. `, phone(who)) : null];
}

function controls(legal) {
  const p = st.pending;
  if (p.kind === "learn") return [cardForm(p.question, send)];
  if (p.kind === "child_draw" || p.kind === "extra_deal") {
    const who = p.for || st.turn;
    const fam = (st.players.find((x) => x.id === who) || { family: [] }).family;
    const whom = p.kind === "child_draw" ? `a child card for ${memberLabel(fam, p.member)} (${cap(who)})` : `${cap(p.for)}'s extra pawn`;
    return [h("p", {}, `Draw ${whom}${p.until ? ` until a ${p.until === "female" ? "girl" : "boy"}` : ""}${p.left > 1 ? ` (${p.left} cards to draw)` : ""}.`),
      st.draw ? h("p", {}, h("button", { type: "button", id: "cr-virtual", class: "btn btn-big", onclick: () => send({ type: "virtual_draw", commitment: st.draw.commitment }) }, "Draw virtually"),
        h("details", { class: "check-draw" }, h("summary", {}, "How can we trust this draw?"),
          h("p", {}, "Before the draw, the server commits to a secret seed by showing its SHA-256 hash; after it, the seed is shown on the draws list (/api/draws), and anyone can check that it gives this hash and this card."),
          h("p", { class: "hash" }, "Commitment ", h("code", { id: "commitment" }, st.draw.commitment)))) : null,
      p.kind === "child_draw" ? childForm() : extraForm(p.for)];
  }
  if (p.kind === "friend_draw" && p.to === "display") return [displayForm()];
  if (p.kind === "friend_draw") return [h("p", { id: "cr-waiting" }, `${cap(p.to)} draws a friend card into the hand and types its name on their phone${p.left > 1 ? ` (${p.left} to draw)` : ""}.`), phone(p.to)];
  if (p.kind === "mentor_deal") return [h("p", { id: "cr-waiting" }, `Deal a mentor card face down to ${cap(p.for)}: ${cap(p.for)} types its name on their phone.`), phone(p.for)];
  if (p.kind === "mission_draw") return [h("p", { id: "cr-waiting" }, `${cap(p.for)} draws a mission card and types its name on their phone.`), phone(p.for)];
  if (p.kind === "mentor_score" && legal.actions.length) return [h("p", {}, `${cap(p.player)}'s mentor is known to the box: its count, from the family as it stands.`), ...options(legal, p)];
  if (p.kind === "mentor_score") return [mentorScoreForm(p)];
  if (p.kind === "over") return [h("p", { id: "cr-over" }, p.winner && p.winner.length ? `The game is over: ${p.winner.map(cap).join(" and ")} won.` : "The game is over: no family is left to win.")];
  return options(legal, p);
}

function corrections() {
  const who = h("select", { name: "player", "aria-label": "whose family" }, st.players.map((p) => h("option", { value: p.id }, cap(p.id))));
  const nums = ["gold", "income", "prestige", "honour"].map((k) => h("label", { class: "col-field" }, k, h("input", { name: k, type: "number", value: 0 })));
  const note = h("input", { name: "note", type: "text", placeholder: "which card, why", "aria-label": "the reason" });
  const form = h("form", { class: "col-form", id: "cr-adjust-form", onsubmit: (e) => {
    e.preventDefault();
    const a = { type: "adjust", player: who.value, note: note.value.trim() || "a correction" };
    for (const k of ["gold", "income", "prestige", "honour"]) { const v = Number(form.elements[k].value); if (v) a[k] = v; }
    send(a);
  } }, who, nums, note, h("button", { type: "submit", class: "btn" }, "Apply the correction"));
  const missions = st.players.flatMap((p) => p.missions.map((m) => [p.id, m]));
  const honour = h("input", { type: "number", name: "honour", value: 0, "aria-label": "the honour printed on the mission" });
  const pick = h("select", { "aria-label": "the mission completed" }, missions.map(([p, m]) => h("option", { value: JSON.stringify([p, m]) }, `${cap(p)}: ${m}`)));
  const mform = missions.length ? h("form", { class: "col-form", id: "cr-mission-form", onsubmit: async (e) => {
    e.preventDefault();
    const [p, m] = JSON.parse(pick.value);
    const validate = { type: "validate_mission", player: p, mission: m, honour: Number(honour.value) };
    const res = await send(validate);
    // a mission whose reward the engine applies needs its printed values first: its form,
    // then the validation again
    if (!res.ok && res.body && res.body.code === "unknown_card") {
      const t = types["crecy.mission"];
      fill("cr-mission-question", cardForm({ card_type: "crecy.mission", card: m, question: `What is printed on the mission ${m}? Its reward is applied when it is validated.`, fields: t ? t.fields : [], known: {} },
        async (answer) => { const r = await send(answer); if (r.ok) { fill("cr-mission-question"); send(validate); } }, "cr-mission-card"));
    }
  } }, "A mission face up is completed: ", pick, honour, h("button", { type: "submit", class: "btn" }, "Validate")) : null;
  fill("cr-adjust", h("p", { class: "muted" }, "Each correction is narrated, kept in the record and undoable."), form, mform, h("div", { id: "cr-mission-question" }));
}

const redraw = redraws();
async function refresh(event) {
  const mine = redraw.begin();
  const [sres, lres] = await stateAndLegal(event);
  if (!redraw.current(mine)) return;
  if (!sres.ok) { text("cr-status", sres.status === 404 ? "No game yet: start one on the New game page." : refusalText(sres)); return; }
  st = sres.body;
  if (st.game !== "crecy") { text("cr-status", "The current game is not Le Testament du Duc de Crecy."); return; }
  const cards = await fetch("/api/cards", { cache: "no-store" }).then((r) => r.json()).catch(() => ({}));
  if (!redraw.current(mine)) return;
  learned = cards.learned || {};
  types = cards.types || {};
  if (!BOARD_ONLY && !tokens && tableToken()) {
    const t = await getTokens();
    if (!redraw.current(mine)) return;
    if (t.ok) tokens = Object.fromEntries(Object.entries(t.body.players || {}).map(([c, v]) => [c, typeof v === "string" ? v : v.token]));
  }
  text("cr-status", st.phase === "setup" ? "Setting up" : `Generation ${["", "I", "II", "III"][st.generation] || st.generation}, round ${st.round} · first player ${cap(st.first_player)}${st.pending.kind === "turn" ? ` · ${cap(st.turn)} to place a pawn` : ""}`);
  if (!BOARD_ONLY) {
    fill("cr-controls", controls(lres));
    corrections();
    document.getElementById("cr-now").dataset.seq = String(st.seq);
  }
  drawBoard(st, learned);
  const log = await getLog(8);
  if (!redraw.current(mine)) return;
  if (log.ok) {
    fill("cr-log", h("ol", { class: "col-log" }, (log.body.entries || []).slice(-8).map((e) =>
      h("li", { class: e.undone ? "undone" : "" }, (e.narration || []).join(" ")))));
  }
  document.getElementById("cr-status").dataset.seq = String(st.seq);
}

if (!BOARD_ONLY) {
  document.getElementById("cr-undo").addEventListener("click", async () => {
    const res = await postUndo();
    const box = document.getElementById("refusal");
    box.hidden = res.ok;
    if (!res.ok) box.textContent = refusalText(res);
  });
}
live(refresh, BOARD_ONLY ? null : tableToken());
