// Colonia's board in sight of all, drawn by the table page (/colonia) and the public
// scoreboard (/): the week-and-day strip, the coat-of-arms order, decrees, stalls, the
// bag's count, craftsmen's columns, ships, the relic display, and — only once the game is
// over — the final scoring told line by line (the server sends it only then).
import { fill, h } from "./dom.js";
import { cap } from "./labels.js";

const DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

export const names = (list) => {
  const n = list.map(cap);
  return n.length < 2 ? n.join("") : `${n.slice(0, -1).join(", ")} and ${n[n.length - 1]}`;
};
export const list = (o) => Object.entries(o).filter(([, n]) => n).map(([k, n]) => `${n} ${k}`).join(", ") || "nothing";

// Week n of 6 and its seven days, today marked.
export function weekStrip(st) {
  const today = DAYS.indexOf(st.day);
  return h("div", { class: "col-week", role: "img", "aria-label": st.week ? `week ${st.week} of 6, ${st.day}` : "setting up" },
    h("span", { class: "col-week-n" }, st.week ? `Week ${st.week} of 6` : "Setting up"),
    h("ol", { class: "col-days" }, DAYS.map((d, i) => h("li", {
      class: st.week && i === today ? "today" : st.week && i < today ? "past" : "",
    }, cap(d).slice(0, 3)))));
}

export function coloniaBoard(st) {
  fill("col-players", h("ol", {}, (st.order.length ? st.order : st.players.map((p) => p.color)).map((c) => {
    const p = st.players.find((x) => x.color === c);
    const streets = Object.entries(p.streets).map(([d, n]) => `${d.slice(0, 3)} ${n}`).join(" · ");
    const screen = p.screen ? ` — ${p.screen.score.total} VP (relics ${p.screen.score.relics}, reliquaries ${p.screen.score.doubled}, stained glass ${p.screen.score.window_vp}); money ${list(p.screen.money)}` : "";
    return h("li", { "data-player": c }, h("strong", {}, cap(c)), `: card ${p.card ?? "—"}, reserve ${p.reserve}, streets ${streets}${screen}`);
  })), st.places ? h("p", { id: "col-places" }, `Places: ${st.places.map((pl) => names(pl)).join(" · ")}`) : null);
  fill("col-decrees", st.decrees.length ? h("ul", {}, st.decrees.map((d) => h("li", {},
    `${d.name} (day ${d.day}${d.effect ? `, ${d.effect.replace(/_/g, " ")}` : ""}): ${d.adopted === null ? "to vote" : d.adopted ? "adopted" : "rejected"}`)))
    : h("p", { class: "muted" }, "None turned up yet."));
  fill("col-stalls", st.stalls.length ? h("ol", {}, st.stalls.map((s) => h("li", {},
    s.bought_by ? `bought by ${cap(s.bought_by)}` : list(s.materials)))) : h("p", { class: "muted" }, "Empty."),
  h("p", { class: "muted small", id: "col-bag" }, st.bag
    ? `In the bag: ${st.bag_count} materials (${list(st.bag)}).`
    : `In the bag: ${st.bag_count} materials (which ones is hidden: ${st.bag_unseen} left it behind the screens).`));
  fill("col-crafts", h("ul", {}, st.crafts.map((c) => h("li", {},
    `${cap(c.craft)}: stick after ${c.stick}; `, c.column.map((o, i) => `${i < c.stick ? "✓" : "·"}${cap(o.player)} ${o.members}`).join(", ") || "no order"))));
  fill("col-ships", h("ol", { type: "I" }, st.moorings.map((m, i) => h("li", { class: i < st.leaving ? "leaving" : "" },
    `${cap(m.city)} (${m.currency})${i < st.leaving ? ", leaves on Saturday" : ""}: `,
    m.holds.map((hd) => `${hd.goods.join("+")} ${hd.value}${hd.loaded_by ? ` [${cap(hd.loaded_by)}]` : ""}`).join(" | ")))));
  fill("col-relics", h("ul", {}, st.display.map((r) => h("li", {},
    `${r.name}: ${cap(r.city)} ${r.kind}, ${r.price} ${r.currency}${r.kind === "relic" ? `, ${r.vp} VP` : ""}${r.insured_by ? `, insured by ${cap(r.insured_by)}` : ""}`))));
  const final = document.getElementById("col-final");
  if (final) {
    final.hidden = !st.final;
    if (st.final) fill("col-final-lines", h("ul", { class: "col-final" }, st.final.lines.map((line) => h("li", { class: line.startsWith(" ") ? "why" : "" }, line.trim()))));
  }
}
