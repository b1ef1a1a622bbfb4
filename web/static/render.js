// Small visual pieces shared by the pages: cubes, members, family names, bars.
import { h } from "./dom.js";
import { cap, memberName } from "./labels.js";

export const CUBE_ORDER = ["brown", "pink", "orange", "green", "plague"];

export function cube(colour, count) {
  return h("span", { class: `cube cube-${colour}`, title: `${count ?? ""} ${colour}`.trim() },
    h("span", { class: "cube-dot", "aria-hidden": "true" }),
    count === undefined ? colour : h("span", { class: "cube-n" }, `${count} ${colour}`));
}

// {brown: 2, plague: 1} as cube chips, in the board's order; "empty" when nothing.
export function cubes(counts, empty = "empty") {
  const entries = CUBE_ORDER.filter((c) => counts && counts[c]).map((c) => cube(c, counts[c]));
  return entries.length ? h("span", { class: "chips" }, entries) : h("span", { class: "muted" }, empty);
}

export function family(colour) {
  return h("span", { class: "family", "data-colour": colour },
    h("span", { class: "swatch", "aria-hidden": "true" }), cap(colour));
}

export function member(id, extra) {
  const colour = String(id).split("-")[0];
  return h("span", { class: "member", "data-colour": id === "monk" ? "monk" : colour },
    memberName(id), extra ? h("small", {}, ` ${extra}`) : null);
}

// A row of `capacity` cells, filled with the members given (the chronicle, the graves).
export function slots(members, capacity, label) {
  const cells = [];
  for (let i = 0; i < Math.max(capacity, members.length); i++) {
    const m = members[i];
    cells.push(m
      ? h("span", { class: "slot full", "data-colour": String(m).split("-")[0], title: memberName(m) })
      : h("span", { class: "slot", title: "free" }));
  }
  return h("div", { class: "slots-row" },
    h("span", { class: "slots-label" }, label),
    h("span", { class: "slots", role: "img", "aria-label": `${label}: ${members.length} of ${capacity}` }, cells),
    h("span", { class: "slots-count" }, `${members.length}/${capacity}`));
}
