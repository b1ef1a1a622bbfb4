// Legal options as big buttons, grouped by kind, and posting one with feedback.
import { postAction, refusalText } from "./api.js";
import { h, show } from "./dom.js";
import { actionLabel, groupOf } from "./labels.js";
import { askToken } from "./token.js";

// `state` (optional) lets labels say where members stand.
export function optionButtons(legal, onPick, state) {
  const places = {};
  for (const p of Object.values((state && state.players) || {})) {
    for (const m of p.members || []) places[m.id] = m.where;
  }
  const where = (m) => places[m];
  const groups = new Map();
  legal.forEach((a, i) => {
    const g = groupOf(a);
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g).push(h("button", {
      type: "button", class: "btn option", "data-type": a.type, "data-index": i,
      "data-action": JSON.stringify(a), onclick: (ev) => onPick(a, ev.currentTarget),
    }, a.cube || a.color ? h("span", { class: `cube cube-${a.cube || a.color}` }, h("span", { class: "cube-dot", "aria-hidden": "true" })) : null,
    actionLabel(a, where)));
  });
  return [...groups].map(([title, buttons]) =>
    h("section", { class: "group" }, h("h2", {}, title), h("div", { class: "buttons" }, buttons)));
}

// Show a refusal (422: the rule broken) in the #refusal box; hide it with null.
export function showRefusal(res) {
  const box = document.getElementById("refusal");
  if (!box) return;
  if (!res) { box.hidden = true; return; }
  const b = res.body || {};
  box.replaceChildren(...[
    h("span", { class: "why" }, refusalText(res)),
    b.rule ? h("span", { class: "rule" }, `Rule: ${b.rule}`) : null,
    b.code ? h("span", { class: "rule" }, `(${b.code})`) : null,
  ].filter(Boolean));
  box.hidden = false;
  box.scrollIntoView({ block: "nearest" });
}

// Post one action (refused with 409 if `expectedSeq` is given and the game moved on);
// disables the page's option buttons meanwhile. Returns the response.
export async function send(action, expectedSeq, after) {
  const buttons = document.querySelectorAll("button.option");
  buttons.forEach((b) => { b.disabled = true; });
  const res = await postAction(action, expectedSeq);
  buttons.forEach((b) => { b.disabled = false; });
  if (res.ok) {
    showRefusal(null);
  } else {
    showRefusal(res);
    if (res.status === 401) askToken();
  }
  if (after) await after(res);
  return res;
}

export function showDone(message) {
  const el = show("done", true);
  if (el) el.textContent = message;
}
