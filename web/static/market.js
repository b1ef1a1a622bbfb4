// The market as it lies on the board: stalls and waiting line, each tile's wants and
// reward (marked when the box check has not confirmed the tiles), the stack's size.
import { facts, h } from "./dom.js";

export function slotName(slot) {
  const n = Number(slot);
  return n < 5 ? `Stall ${n + 1}` : `Waiting line ${n - 4}`;
}

// What a tile shows face up: "1 plough + 1 scroll", and its prestige.
export function wantsText(tile) {
  const wants = Object.entries(tile.goods || {}).filter(([, n]) => n).map(([g, n]) => `${n} ${g}${n > 1 ? "s" : ""}`);
  if (tile.grain) wants.push(`${tile.grain} grain`);
  return wants.join(" + ") || "nothing";
}

export function marketPanel(st) {
  const m = st.board.market;
  const tiles = st.customer_tiles || {};
  const usable = new Set(m.usable || []);
  const verified = facts().customers_verified;
  const row = (slot, id) => {
    if (!usable.has(slot)) return null;
    const tile = id && tiles[id];
    return h("li", { class: `market-slot${id ? "" : " empty"}`, "data-slot": slot },
      h("span", { class: "label" }, slotName(slot)),
      tile ? h("span", { class: "tile" }, h("span", { class: "wants" }, `wants ${wantsText(tile)}`),
        h("strong", { class: "reward" }, `${tile.prestige} prestige`))
        : h("span", { class: "muted" }, "empty"));
  };
  return [
    h("ul", { class: "market" },
      (m.stalls || []).map((id, i) => row(i, id)),
      (m.queue || []).map((id, i) => row(i + 5, id))),
    h("p", { class: "muted small" }, `${m.stack} tile${m.stack === 1 ? "" : "s"} left face down in the stack.`,
      verified ? "" : " The tiles' values are not confirmed by a box check yet: check them against your tiles."),
  ];
}
