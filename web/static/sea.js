// Le Port on the scoreboard: the sea board as a panel — each ship (where, captain hired,
// hold), captains left, the island stacks, the mission churches and the sea cemetery.
// Only public things: a treasure in a hold is "a treasure", never its value.
import { fill, h, show } from "./dom.js";
import { cap, memberName } from "./labels.js";

const plural = (n, word, many) => `${n} ${n === 1 ? word : many || `${word}s`}`;
const piece = (p) => (p.startsWith("treasure:") ? "a treasure" : p.includes("-") ? memberName(p) : `a ${p}`);
const where = (zone) => (zone === "port" ? "in port" : `at sea, zone ${zone}`);

function ship(colour, s) {
  const hold = (s.hold || []).map(piece);
  const farm = [s.cocoa ? plural(s.cocoa, "cocoa basket") : "", s.tea ? plural(s.tea, "tea bale") : ""]
    .filter(Boolean);
  return h("li", { "data-ship": colour },
    h("strong", {}, cap(colour)), ` — ${where(s.zone)}`, s.captain ? ", captain hired" : "",
    h("br"), `Hold: ${hold.join(", ") || "empty"}`,
    farm.length ? [h("br"), `On the farm: ${farm.join(", ")}`] : "");
}

export function seaBoard(st) {
  show("sea-panel", Boolean(st.port));
  if (!st.port) return;
  const sea = st.port;
  const churches = Object.entries(sea.missions || {});
  const graves = sea.cemetery || [];
  const buried = graves.filter(Boolean);
  fill("sea",
    h("ul", { class: "ships" }, Object.entries(sea.ships).map(([c, s]) => ship(c, s))),
    h("p", { "data-sea": "captains" }, `Captains left: ${(sea.captains || []).length}`),
    h("p", { "data-sea": "stacks" }, "Island stacks: ",
      `${plural(sea.stacks.cocoa, "cocoa basket")}, ${plural(sea.stacks.tea, "tea bale")}, `,
      plural(sea.stacks.treasure, "treasure")),
    h("p", { "data-sea": "missions" }, "Mission churches: ",
      churches.map(([id, m]) => `${id} ${m ? memberName(m) : "free"}`).join(" · ") || "none"),
    h("p", { "data-sea": "cemetery" },
      `Sea cemetery: ${buried.length} of ${graves.length} spaces taken`,
      buried.length ? ` (${buried.map(memberName).join(", ")})` : ""));
}
