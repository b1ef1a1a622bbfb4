// The form of a card whose printed values the box does not know yet, built from its type's
// fields (`companion.games.cards`): the table page asks it for the cards in sight of all,
// the phone for a card of its hand about to be played face up.
import { h } from "./dom.js";

function field(f, known) {
  const input = f.kind === "choice"
    ? h("select", { name: f.name }, f.optional ? h("option", { value: "" }, "—") : null,
      f.choices.map((c) => h("option", { value: c, selected: c === known }, c.replace(/_/g, " "))))
    : h("input", { name: f.name, type: f.kind === "int" ? "number" : "text", value: known ?? "", required: !f.optional });
  return h("label", { class: "col-field" }, `${f.label}${f.optional ? " (if printed)" : ""} `, input);
}

// The box's question about a card: its type's form; the answer is kept for the next games.
export function cardForm(q, post, id = "cr-question") {
  const form = h("form", { class: "col-form cr-card-form", id, "data-card": q.card, onsubmit: (e) => {
    e.preventDefault();
    const values = {};
    for (const f of q.fields) {
      const v = form.elements[f.name].value.trim();
      values[f.name] = v === "" ? null : (f.kind === "int" ? Number(v) : v);
    }
    post({ type: "card_values", card_type: q.card_type, card: q.card, values });
  } }, h("p", {}, q.question, " The box keeps the answer for the next games."),
  q.fields.map((f) => field(f, (q.known || {})[f.name])),
  h("button", { type: "submit", class: "btn btn-big" }, "That is what it says"));
  return form;
}

