// Crecy's board in sight of all, drawn from the public state: the tracks of each family,
// each family tree by generation (couples, children, attached cards), the friends on
// display, the main board and the decks. Nothing private is in the public state; this
// module only draws what it is given. Also the member labels the options use.
import { fill, h } from "./dom.js";
import { cap } from "./labels.js";

export const ROMAN = { 1: "I", 2: "II", 3: "III", 4: "IV" };
const ATTACHED = { title: "title", residence: "residence", enterprise: "enterprise", contribution: "contribution" };

// "the family head", "daughter II.2": the generation's numeral and the place in the family.
export function memberLabel(family, id) {
  if (id === "head") return "the family head";
  const m = family.find((x) => x.id === id);
  if (!m) return "a member";
  const same = family.filter((x) => x.generation === m.generation).map((x) => x.id);
  return `${m.sex === "female" ? "daughter" : "son"} ${ROMAN[m.generation] || m.generation}.${same.indexOf(id) + 1}`;
}

// A friend card in words, with what the box has learned of it (public printed values).
export function friendText(name, learned) {
  const v = (learned["crecy.friend"] || {})[name];
  if (!v) return name;
  const bits = [v.sex === "female" ? "♀" : v.sex === "male" ? "♂" : "", v.nationality, v.activity,
    v.gold > 0 ? `dowry ${v.gold} gold` : v.gold < 0 ? `wedding ${-v.gold} gold` : "",
    v.income ? `income ${v.income > 0 ? "+" : ""}${v.income}` : "",
    v.friends ? `${v.friends} card(s)` : "", v.prestige ? `prestige ${v.prestige > 0 ? "+" : ""}${v.prestige}` : "",
    v.effect && v.effect !== "none" ? v.effect.replace(/_/g, " ") : ""].filter(Boolean);
  return `${name} (${bits.join(", ")})`;
}

function tracks(st) {
  return h("table", { class: "cr-tracks" },
    h("thead", {}, h("tr", {}, ["Family", "Honour", "Prestige", "Income", "Gold", "Cards in hand",
      "Pawns", "Extra pawns", "Missions", "Children this generation"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, st.players.map((p) => h("tr", { "data-player": p.id, class: p.out ? "cr-out" : "" },
      h("th", { scope: "row" }, h("span", { class: "cr-dot", "data-colour": p.id }), `${cap(p.id)}${p.id === st.first_player ? " (first)" : ""}${p.out ? " — died out" : ""}`),
      h("td", { "data-track": "honour" }, p.honour), h("td", { "data-track": "prestige" }, p.prestige),
      h("td", { "data-track": "income" }, p.income), h("td", { "data-track": "gold" }, p.gold),
      h("td", {}, p.hand_size), h("td", {}, p.pawns),
      h("td", {}, p.extra.length ? p.extra.join(", ") : "—"),
      h("td", {}, `${p.missions.length} face up${p.missions_done.length ? `, ${p.missions_done.length} done` : ""}${p.under_mentor ? `, ${p.under_mentor} under the mentor` : ""}`),
      h("td", {}, p.born)))));
}

function memberItem(family, m, learned) {
  const spouse = m.spouse ? (m.arranged ? ` ⚭ ${friendText(m.spouse, learned)} (arranged, upside down)` : ` ⚭ ${friendText(m.spouse, learned)}`) : "";
  const parent = m.parent ? `, child of ${memberLabel(family, m.parent)}` : "";
  const att = Object.entries(m.attached).map(([k, v]) => h("span", { class: "cr-card" }, `${ATTACHED[k] || k}: ${v}`));
  return h("li", { class: `cr-member${m.lost ? " cr-lost" : ""}`, "data-member": m.id },
    h("strong", {}, memberLabel(family, m.id)), parent, spouse,
    m.children ? ` · ${m.children} child${m.children > 1 ? "ren" : ""}` : "",
    m.lost ? " · gone" : "", att.length ? " · " : "", att);
}

function tree(p, learned) {
  const gens = [...new Set(p.family.map((m) => m.generation))].sort();
  return h("article", { class: "cr-tree", "data-player": p.id, "data-colour": p.id },
    h("h3", {}, h("span", { class: "cr-dot", "data-colour": p.id }), `${cap(p.id)}: ${p.head} (${p.side})`),
    gens.map((g) => h("section", { class: "cr-gen", "data-generation": g },
      h("h4", {}, g === 4 ? "Heirs (born in generation III)" : `Generation ${ROMAN[g]}`),
      h("ul", {}, p.family.filter((m) => m.generation === g).map((m) => memberItem(p.family, m, learned))))));
}

function values(v) {
  if (!v) return " — printed values not known yet";
  const cost = [v.cost_gold ? `${v.cost_gold} gold` : "", v.cost_friends ? `${v.cost_friends} card(s)` : "", v.cost_income ? `${v.cost_income} income` : ""].filter(Boolean).join(", ") || "free";
  const gain = [v.income ? `income ${v.income > 0 ? "+" : ""}${v.income}` : "", v.prestige ? `prestige +${v.prestige}` : "", v.honour ? `honour +${v.honour}` : "", v.friends ? `${v.friends} card(s)` : ""].filter(Boolean).join(", ") || "nothing";
  return `: costs ${cost}; gives ${gain}`;
}

export function drawBoard(st, learned) {
  fill("cr-tracks", tracks(st));
  fill("cr-trees", st.players.map((p) => tree(p, learned)));
  fill("cr-display", st.display.length
    ? h("ul", {}, st.display.map((f) => h("li", { "data-friend": f }, friendText(f, learned))))
    : h("p", { class: "muted" }, "Empty."));
  const taken = (k) => (st.occupied.includes(k) ? " (taken this round)" : "");
  fill("cr-main",
    h("p", {}, "Titles:"), h("ul", {}, st.titles.map((t) => h("li", {}, `${t.name}${values(t.values)}`))),
    h("p", {}, "Contributions:"), h("ul", {}, st.contributions.map((c) => h("li", {}, `${c.name}${values(c.values)}`))),
    h("p", {}, `Main-board actions taken this round: ${st.occupied.length ? st.occupied.join(", ") : "none"}.`),
    h("p", {}, `Residences left ${st.residences}${taken("residence")}, enterprises left ${st.enterprises}${taken("enterprise")}.`));
  const deck = (d) => `${d.girl || 0} girls, ${d.boy || 0} boys${d.complication != null ? `, ${d.complication} complications` : ""}`;
  fill("cr-decks",
    h("p", {}, `Child deck: ${deck(st.child_deck)}; reserve for generation III: ${deck(st.child_reserve)}.`),
    h("p", {}, `Friend deck: ${st.friend_deck} cards; discard: ${st.friend_discard.length}.`),
    h("p", {}, `Missions left: ${st.missions_left}.`));
}
