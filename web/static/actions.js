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
  const said = refusalText(res);
  box.replaceChildren(...[
    h("span", { class: "why" }, said),
    b.rule && !said.toLowerCase().includes(b.rule.toLowerCase()) ? h("span", { class: "rule" }, `Rule: ${b.rule}`) : null,
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

// Options as a person picks them: step by step when there are many (member → building →
// what to make; where → how to pay), every button showing its cost and what it does to the
// bridge. `choices[i]` ({steps, cost_text, gain_text, bridge, to_bridge}) describes
// `legal[i]`. `path` is the list of steps already picked; `onStep(path)` redraws.
export const FLAT_MAX = 8;

function costLine(cs) {
  const cost = cs.map((c) => c.cost_text).filter(Boolean);
  const gain = cs.map((c) => c.gain_text || "");
  const range = (texts) => {
    const uniq = [...new Set(texts)];
    return uniq.length === 1 ? uniq[0] : null;
  };
  const lines = [];
  const one = range(cost);
  if (one) lines.push(h("span", { class: "cost" }, one === "free" ? "costs nothing" : `costs ${one}`));
  else if (cost.length) {
    const times = cs.map((c) => (c.cost_time || 0));
    const lo = Math.min(...times), hi = Math.max(...times);
    lines.push(h("span", { class: "cost" }, lo === hi ? `costs ${lo} time or more` : `costs ${lo} to ${hi} time`));
  }
  const g = range(gain); // said only when every choice gives the same
  if (g) lines.push(h("span", { class: "gain" }, `gives ${g}`));
  const warned = cs.filter((c) => c.warning); // the action that follows has nothing to do
  if (warned.length === cs.length) lines.push(h("span", { class: "use-warn" }, warned[0].warning));
  else if (warned.length) lines.push(h("span", { class: "use-warn" }, "some of these cannot be used"));
  const bridge = cs.filter((c) => c.bridge);
  if (bridge.length === cs.length) lines.push(h("span", { class: "bridge-warn" }, bridge[0].bridge));
  else if (bridge.length) lines.push(h("span", { class: "bridge-warn" }, "some choices pass the bridge"));
  else if (cs.length === 1 && cs[0].to_bridge != null && cs[0].cost && cs[0].cost.time) {
    lines.push(h("span", { class: "to-bridge-after" }, `then ${cs[0].to_bridge} to the bridge`));
  }
  return lines.length ? h("span", { class: "costs" }, lines) : null;
}

export function choiceButtons(legal, choices, path, onPick, onStep) {
  if (!choices || choices.length !== legal.length) {
    return optionButtons(legal, (a) => onPick(a));
  }
  const all = legal.map((a, i) => ({ a, i, c: { ...choices[i], cost_time: (choices[i].cost || {}).time || 0 } }));
  const depth = path.length;
  const here = all.filter((o) => path.every((p, k) => o.c.steps[k] === p));
  const leaf = (o, label) => h("button", {
    type: "button", class: "btn option", "data-type": o.a.type, "data-index": o.i,
    "data-action": JSON.stringify(o.a), onclick: () => onPick(o.a),
  }, h("span", { class: "option-label" }, label), costLine([o.c]));
  if (legal.length <= FLAT_MAX && depth === 0) {
    const groups = new Map();
    for (const o of all) {
      const g = groupOf(o.a);
      if (!groups.has(g)) groups.set(g, []);
      groups.get(g).push(leaf(o, o.c.steps.join(", ")));
    }
    return [...groups].map(([title, buttons]) =>
      h("section", { class: "group" }, h("h2", {}, title), h("div", { class: "buttons" }, buttons)));
  }
  const branches = new Map();
  for (const o of here) {
    const key = o.c.steps[depth] ?? "";
    if (!branches.has(key)) branches.set(key, []);
    branches.get(key).push(o);
  }
  const buttons = [...branches].map(([label, os]) => {
    if (os.length === 1) return leaf(os[0], os[0].c.steps.slice(depth).join(", "));
    return h("button", {
      type: "button", class: "btn step", "data-step": label,
      onclick: () => onStep([...path, label]),
    }, h("span", { class: "option-label" }, `${label} …`), h("span", { class: "costs" },
      h("span", { class: "muted" }, `${os.length} ways`)), costLine(os.map((o) => o.c)));
  });
  const crumbs = depth ? h("div", { class: "crumbs" },
    h("button", { type: "button", class: "btn back", onclick: () => onStep(path.slice(0, -1)) }, "← Back"),
    h("span", { class: "crumb-path" }, path.join(" → "))) : null;
  return [crumbs, h("section", { class: "group" },
    h("h2", {}, depth ? "Then choose" : "Choose"), h("div", { class: "buttons" }, buttons))];
}
