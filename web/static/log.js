// The table log: what happened, in plain words (the narration of each event), newest first.
import { getLog } from "./api.js";
import { fill, h } from "./dom.js";

// One event's narration: the first sentence says what was done, the others what follows.
export function narrationBlock(lines, attrs = {}) {
  const [head, ...rest] = lines || [];
  return h("div", { class: "narration", ...attrs },
    h("p", { class: "said" }, head || ""),
    rest.length ? h("ul", { class: "then" }, rest.map((s) => h("li", {}, s))) : null);
}

// Draw the latest `limit` entries of the log into the element `id`; returns the log body.
export async function renderLog(id, limit = 8) {
  const res = await getLog(limit);
  if (!res.ok || !res.body) return null;
  const entries = [...(res.body.entries || [])].reverse();
  fill(id, entries.length
    ? h("ol", { class: "log-list" }, entries.map((e) => h("li", {
      class: `log-entry${e.undone ? " undone" : ""}${e.kind === "revert" ? " revert" : ""}`,
      "data-seq": e.seq,
    }, e.undone ? h("span", { class: "undone-mark" }, "taken back") : null, narrationBlock(e.narration))))
    : h("p", { class: "muted" }, "Nothing has happened yet."));
  return res.body;
}
