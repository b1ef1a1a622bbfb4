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

// What each log element shows: { game, seq, entries (oldest first) }, so that the next
// event of the live feed, which carries its own narration, is added without asking the
// server again (with a hundred phones watching, one request each per event adds up).
const shown = {};
const asking = {}; // the latest fetch of each log element: an older answer is not drawn

// Draw the latest `limit` entries of the log into the element `id`. `event`: the live
// event that prompted the redraw; when it is the one right after what is shown, its
// narration is added as is; otherwise (first draw, missed events, a new game) the log is
// fetched (`GET /api/log`).
export async function renderLog(id, limit = 8, event = null) {
  const mine = shown[id];
  if (mine && follows(mine, event)) {
    if (event.kind === "revert") {
      mine.entries.forEach((e) => { if (e.seq === event.reverts) e.undone = true; });
    }
    mine.entries.push({ seq: event.seq, kind: event.kind, narration: event.narration, undone: false });
    mine.entries = mine.entries.slice(-limit);
    mine.seq = event.seq;
    draw(id, mine.entries);
    return;
  }
  const ticket = (asking[id] = (asking[id] || 0) + 1);
  const res = await getLog(limit);
  if (!res.ok || !res.body || ticket !== asking[id]) return; // a later fetch will draw
  const entries = res.body.entries || [];
  const last = entries.length ? entries[entries.length - 1].seq : 0;
  const now = shown[id];
  if (now && now.game === res.body.game_id && now.seq > last) return; // an event came since
  shown[id] = { game: res.body.game_id, seq: last, entries: [...entries] };
  draw(id, entries);
}

function follows(mine, event) {
  return Boolean(event) && event.game_id === mine.game && event.seq === mine.seq + 1
    && (event.kind === "action" || event.kind === "revert") && Array.isArray(event.narration);
}

function draw(id, entries) {
  const newest = [...entries].reverse();
  fill(id, newest.length
    ? h("ol", { class: "log-list" }, newest.map((e) => h("li", {
      class: `log-entry${e.undone ? " undone" : ""}${e.kind === "revert" ? " revert" : ""}`,
      "data-seq": e.seq,
    }, e.undone ? h("span", { class: "undone-mark" }, "taken back") : null, narrationBlock(e.narration))))
    : h("p", { class: "muted" }, "Nothing has happened yet."));
}
