// Legal options as big buttons, grouped by kind, and posting one with feedback.
import { postAction, refusalText } from "./api.js";
import { h, show } from "./dom.js";
import { actionLabel, groupOf, spaceName } from "./labels.js";
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

function costLine(cs, row = false) {
  const cost = cs.map((c) => c.cost_text).filter(Boolean);
  const gain = cs.map((c) => c.gain_text || "");
  const range = (texts) => {
    const uniq = [...new Set(texts)];
    return uniq.length === 1 ? uniq[0] : null;
  };
  const lines = [];
  const one = range(cost);
  if (one && !(row && one === "free")) lines.push(h("span", { class: "cost" }, one === "free" ? "costs nothing" : `costs ${one}`));
  else if (cost.length) {
    const times = cs.map((c) => (c.cost_time || 0));
    const lo = Math.min(...times), hi = Math.max(...times);
    const varied = lo === hi ? (lo ? `costs ${lo} time, the rest differs by choice` : "costs differ by choice, no time")
      : `costs ${lo} to ${hi} time`;
    lines.push(h("span", { class: "cost" }, varied));
  }
  const g = range(gain); // said only when every choice gives the same
  if (g && !row) lines.push(h("span", { class: "gain" }, `gives ${g}`));
  const warned = cs.filter((c) => c.warning); // the action that follows has nothing to do
  const why = [...new Set(warned.map((c) => c.warning))];
  if (warned.length === cs.length && why.length === 1) lines.push(h("span", { class: "use-warn" }, why[0]));
  else if (warned.length && !row) lines.push(h("span", { class: "use-warn" }, "some of these cannot be used"));
  if (cs.length === 1 && cs[0].note) lines.push(h("span", { class: "note" }, cs[0].note));
  const bridge = cs.filter((c) => c.bridge);
  if (bridge.length === cs.length) lines.push(h("span", { class: "bridge-warn" }, bridge[0].bridge));
  else if (bridge.length) lines.push(h("span", { class: "bridge-warn" }, "some choices pass the bridge"));
  else if (!row && cs.length === 1 && cs[0].to_bridge != null && cs[0].cost && cs[0].cost.time) {
    lines.push(h("span", { class: "to-bridge-after" }, `then ${cs[0].to_bridge} to the bridge`));
  }
  return lines.length ? h("span", { class: "costs" }, lines) : null;
}

// A decision that fits the screen: at the first step one section per kind of action;
// inside it one row per first pick (a space for the cube takes, a destination for a
// voyage, a customer for a sale…) holding the next picks as small buttons (the cube, the
// way to pay), so that a payment is one picker, not one big button per way; a row with a
// single option is one button. A pick that still leads to several options is a step
// (class "step"), an option a leaf (class "option").
const paired = new Set(); // depths reached by a row's pick (its row label and the pick)

//
// `fold` (a number, 0 by default): so many of the rows with the most picks are drawn as a
// single step each ("Privilege 2: two cubes of your choice …"), for a decision that would
// not fit the screen otherwise (the page draws it again with one more fold until it fits).
export function choiceButtons(legal, choices, path, onPick, onStep, fold = 0) {
  if (!choices || choices.length !== legal.length) {
    return optionButtons(legal, (a) => onPick(a));
  }
  const all = legal.map((a, i) => ({ a, i, c: { ...choices[i], cost_time: (choices[i].cost || {}).time || 0 } }));
  const depth = path.length;
  const here = all.filter((o) => path.every((p, k) => o.c.steps[k] === p));
  const sections = new Map();
  for (const o of here) {
    // the well is one more cell among the spaces' cubes (a row of its own under them made
    // a turn taller than a tablet)
    const title = depth ? "Then choose" : groupOf(o.a.type === "well" ? { type: "take" } : o.a);
    if (!sections.has(title)) sections.set(title, []);
    sections.get(title).push(o);
  }
  if (!depth) paired.clear();
  const back = paired.has(depth) ? 2 : 1; // a row's pick went two steps at once
  const crumbs = depth ? h("div", { class: "crumbs" },
    h("button", { type: "button", class: "btn back", onclick: () => onStep(path.slice(0, -back)) }, "← Back"),
    h("span", { class: "crumb-path" }, path.join(" → "))) : null;
  const ctx = { path, depth, onPick, onStep, folds: foldable(here, depth, fold) };
  const drawn = [...sections].map(([title, os]) => ({ title, os, content: rows(os, ctx) }));
  // sections of a single button ("Skip: do nothing here", one good to buy) share one grid,
  // without headings: their buttons say what they are
  const lone = drawn.filter((d) => d.content.length === 1 && d.content[0].tagName === "BUTTON");
  const out = drawn.filter((d) => !lone.includes(d)).map(({ title, os, content }) => {
    // a section that is one row named like the section ("Use the well") needs no heading
    const single = content.length === 1 && content[0].querySelector?.(".row-label")?.textContent === title;
    const takes = !depth && os.some((o) => o.a.type === "take"); // short rows: two columns on a tablet
    // the cubes to take under the heading "take a cube or use the well": no second heading
    const alone = takes && drawn.length === 1;
    return h("section", { class: `group${takes ? " group-takes" : ""}` }, single || alone ? null : h("h2", {}, title),
      h("div", { class: "buttons" }, content));
  });
  if (lone.length > 1 || (lone.length && out.length)) {
    out.push(h("section", { class: "group group-lone" }, h("div", { class: "buttons" }, lone.map((d) => d.content[0]))));
  } else if (lone.length) {
    out.push(h("section", { class: "group" }, h("h2", {}, lone[0].title), h("div", { class: "buttons" }, lone[0].content)));
  }
  return [crumbs, ...out];
}

// The row an option goes in, and its label there: cube takes by space (the chip is the
// cube), anything else by the pick at this depth.
function rowOf(o, depth) {
  if (depth === 0 && o.a.type === "take") return { key: `take:${o.a.space}`, label: spaceName(o.a.space), own: true };
  // the well: one row, a pick per colour of cubes put back (then the space, then the pay)
  if (depth === 0 && o.a.type === "well") return { key: "well", label: "Use the well", own: true };
  // then which action: one row of small picks (the spaces), each marked if of no use now
  if (depth === 1 && o.a.type === "well") return { key: "well-space", label: "Then which action?", own: true };
  const step = o.c.steps[depth] ?? "";
  return { key: step, label: step, own: false };
}

// A member's action that goes on in steps (a building, then what to make; a city, then
// the pay): with two members or more, one row names the members, each a step, so a Crafts
// action with four members to train is one row, not four of four buildings each; goods
// made without training likewise one row of goods.
const FOLDED = { train: "Train a member", travel: "Travel with a member", produce: "Make a good" };
const FOLD_WORDS = { train: /^Train /, travel: /^Travel with /, produce: /^Make / };

function folded(os, depth) {
  if (depth) return new Set();
  const members = new Map();
  for (const o of os) {
    if (!FOLDED[o.a.type]) continue;
    if (!members.has(o.a.type)) members.set(o.a.type, new Set());
    members.get(o.a.type).add(o.c.steps[0]);
  }
  return new Set([...members].filter(([, m]) => m.size > 1).map(([t]) => t));
}

// The rows drawn as one step: the `n` with the most picks among the rows whose label is a
// step of its own (not a space's cubes, not the well).
function foldable(os, depth, n) {
  if (!n) return new Set();
  const members = folded(os, depth);
  const count = new Map();
  for (const o of os) {
    const r = members.has(o.a.type) ? { own: true } : rowOf(o, depth);
    if (r.own || o.c.steps.length <= depth + 1) continue;
    count.set(r.key, (count.get(r.key) || 0) + 1);
  }
  return new Set([...count].filter(([, c]) => c > 1).sort((a, b) => b[1] - a[1]).slice(0, n).map(([k]) => k));
}

// How many rows could be drawn as a step (`choiceButtons`' `fold` beyond it changes nothing).
export function foldableRows(legal, choices, path) {
  if (!choices || choices.length !== legal.length) return 0;
  const all = legal.map((a, i) => ({ a, i, c: { ...choices[i], cost_time: (choices[i].cost || {}).time || 0 } }));
  const here = all.filter((o) => path.every((p, k) => o.c.steps[k] === p));
  return foldable(here, path.length, Infinity).size;
}

function rows(os, ctx) {
  const byRow = new Map();
  const fold = folded(os, ctx.depth);
  for (const o of os) {
    const r = fold.has(o.a.type) ? { key: `fold:${o.a.type}`, label: FOLDED[o.a.type], own: true } : rowOf(o, ctx.depth);
    if (!byRow.has(r.key)) byRow.set(r.key, { label: r.label, os: [], own: r.own });
    byRow.get(r.key).os.push(o);
  }
  // many single options (the ten pairs of cubes of a privilege after its step, "Load the
  // ship: an ox, Red 2b"…) as one row of small picks, not ten big buttons: under the
  // step's name, or the words they all begin with
  if (byRow.size > 6 && [...byRow.values()].every((r) => r.os.length === 1 && !r.own)) {
    const said = os.map((o) => o.c.steps[ctx.depth] ?? "");
    const head = said[0].includes(": ") ? said[0].slice(0, said[0].indexOf(": ") + 2) : null;
    const shared = head && said.every((t) => t.startsWith(head)) ? head : null;
    if (ctx.depth || shared) {
      const label = shared ? shared.slice(0, -2) : ctx.path[ctx.path.length - 1];
      return [optionRow(label, os, true, { ...ctx, strip: shared })];
    }
  }
  return [...byRow.entries()].map(([key, { label, os: ros, own }]) => {
    if (ros.length === 1 && !own) return leaf(ros[0], ros[0].c.steps.slice(ctx.depth).join(", "), ctx);
    if (!own && ctx.folds.has(key)) return foldedRow(label, ros, ctx);
    return optionRow(label, ros, own, ctx);
  });
}

// A row drawn as one step: its label, what its picks cost, then its picks on the next screen.
function foldedRow(label, ros, ctx) {
  return h("button", {
    type: "button", class: "btn step", "data-step": label,
    onclick: () => ctx.onStep([...ctx.path, label]),
  }, h("span", { class: "option-label" }, `${label} …`), costLine(ros.map((o) => o.c)));
}

// One option's button; a row's pick (`row`: the row's label) is small and named in full
// for screen readers ("Sail to island B: pay 1 green cube").
function leaf(o, label, ctx, row = null) {
  return h("button", {
    type: "button", class: `btn option${row ? " pick" : ""}`, "data-type": o.a.type, "data-index": o.i,
    "data-action": JSON.stringify(o.a), onclick: () => ctx.onPick(o.a),
    "aria-label": row ? `${row}: ${label}` : null,
  }, row ? pickLabel(o, label) : h("span", { class: "option-label" }, label), row ? chipCost(o) : costLine([o.c]));
}

const COLOURS = new Set(["brown", "pink", "orange", "green", "plague"]);
const dotted = (colour, words) => h("span", { class: `cube cube-${colour}` },
  h("span", { class: "cube-dot", "aria-hidden": "true" }), words);

// What a cube pays or gives, short, each colour with its chip: "1 orange + 2 grain".
function payChips(pay) {
  const parts = Object.entries(pay || {}).filter(([, n]) => n).map(([k, n]) =>
    (COLOURS.has(k) ? dotted(k, `${n} ${k}`) : `${n} ${k}${k === "coin" && n > 1 ? "s" : ""}`));
  return parts.flatMap((part, i) => (i ? [" + ", part] : [part]));
}

// A small pick's words, short enough for several on a line (its full words are its
// aria-label): two cubes of a privilege as chips, a payment as chips.
function pickLabel(o, said) {
  const a = o.a;
  if (a.type === "privilege" && a.level === 2 && a.gain && a.gain.length) {
    const [one, two] = a.gain;
    return h("span", { class: "option-label" }, a.gain.length === 2 && one === two
      ? dotted(one, `2 ${one}`) : a.gain.flatMap((c, i) => (i ? [" + ", dotted(c, c)] : [dotted(c, c)])));
  }
  const at = said.search(/(^|, )pay /);
  if (at >= 0 && a.pay && Object.keys(a.pay).length) {
    const before = said.slice(0, at);
    return h("span", { class: "option-label" }, before ? `${before}: ` : "", payChips(a.pay));
  }
  return h("span", { class: "option-label" }, said);
}

// A cube take's row: each pick shows its own time, so the row says only why its action
// could not be used, if it could not.
function warningLine(cs) {
  const why = [...new Set(cs.filter((c) => c.warning).map((c) => c.warning))];
  if (why.length !== 1) return null;
  // "Red cannot use the Harvest action: nobody is on the farm." → its reason, on one line
  const reason = why[0].includes(": ") ? why[0].slice(why[0].indexOf(": ") + 2) : why[0];
  return h("span", { class: "row-warn use-warn", title: why[0] }, `no use now: ${reason}`);
}

// What a small pick button says beside its label: only what sets it apart (time, the bridge).
function chipCost(o) {
  const said = [];
  if (o.c.cost_time) said.push(h("span", { class: "cost" }, `${o.c.cost_time} time`));
  if (o.c.bridge) said.push(h("span", { class: "bridge-warn", title: o.c.bridge }, "bridge"));
  if (o.c.warning) said.push(h("span", { class: "use-warn", title: o.c.warning }, "no use now"));
  return said.length ? h("span", { class: "costs" }, said) : null;
}

// `own`: the row's label is not a step of its own (a space's cube takes, the well), so a
// pick goes one step; otherwise the row's label and the pick are two steps at once.
function optionRow(label, ros, own, ctx) {
  const take = own && ros[0].a.type === "take";
  const at = ctx.depth + (own ? 0 : 1);
  const chips = new Map();
  for (const o of ros) {
    const key = take ? `cube:${o.a.cube}` : (o.c.steps[at] ?? "");
    if (!chips.has(key)) chips.set(key, []);
    chips.get(key).push(o);
  }
  const buttons = [...chips].map(([key, cos]) => {
    if (take) {
      const o = cos[0];
      return h("button", {
        type: "button", class: "btn option pick", "data-type": o.a.type, "data-index": o.i,
        "data-action": JSON.stringify(o.a), onclick: () => ctx.onPick(o.a),
        "aria-label": `${label}: ${o.c.steps.join(", ")}`,
      }, h("span", { class: `option-label cube cube-${o.a.cube}` },
        h("span", { class: "cube-dot", "aria-hidden": "true" }), o.a.cube), chipCost({ ...o, c: { ...o.c, warning: null } }));
    }
    if (cos.length === 1) {
      let said = cos[0].c.steps.slice(at).join(", ");
      if (ctx.strip && said.startsWith(ctx.strip)) said = said.slice(ctx.strip.length);
      return leaf(cos[0], own ? said.replace(/^then the /, "").replace(FOLD_WORDS[cos[0].a.type] || /^$/, "") : said, ctx, label);
    }
    const times = cos.map((o) => o.c.cost_time);
    const lo = Math.min(...times), hi = Math.max(...times);
    const shown = own ? key.replace(/^Use the well: /, "").replace(/^then the /, "")
      .replace(FOLD_WORDS[cos[0].a.type] || /^$/, "") : key;
    return h("button", {
      type: "button", class: "btn step pick", "data-step": key, "aria-label": `${label}: ${shown}`,
      onclick: () => {
        if (!own) paired.add(ctx.depth + 2);
        ctx.onStep(own ? [...ctx.path, key] : [...ctx.path, label, key]);
      },
    }, h("span", { class: "option-label" }, `${shown} …`),
    hi ? h("span", { class: "costs" }, h("span", { class: "cost" }, lo === hi ? `${lo} time` : `${lo}–${hi} time`)) : null);
  });
  const well = own && ros[0].a.type === "well"; // its picks name the cubes it costs
  return h("div", { class: `option-row${well ? " row-well" : ""}` },
    h("div", { class: "row-head" }, h("span", { class: "row-label" }, label),
      take || well ? null : costLine(ros.map((o) => o.c), true)),
    h("div", { class: "row-picks" }, buttons),
    take ? warningLine(ros.map((o) => o.c)) : null); // under the whole row
}
