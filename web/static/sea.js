// Le Port on the scoreboard: the sea board as a panel — each ship (where, captain hired,
// hold), captains left, the island stacks, the mission churches and the sea cemetery.
// Only public things: a treasure in a hold is "a treasure", never its value.
import { fill, h, show } from "./dom.js";
import { cap, memberName } from "./labels.js";

const plural = (n, word, many) => `${n} ${n === 1 ? word : many || `${word}s`}`;
const piece = (p) => (p.startsWith("treasure:") ? "a treasure" : p.includes("-") ? memberName(p) : `a ${p}`);
let places = {};
// "in port", "at sea, time zone A", "at island B" (the words of the log and the buttons).
const where = (zone) => (zone === "port" ? "in port"
  : places[zone] && places[zone].name.startsWith("island") ? `at ${places[zone].name}`
    : `at sea, ${places[zone] ? places[zone].name : `zone ${zone}`}`);
// The island whose offers name `what` (a stack, a mission church): " on island B".
const stackIsland = (what) => {
  const hit = Object.entries(places).find(([, p]) => (p.offers || "").includes(what));
  return hit ? ` on ${hit[1].name}` : "";
};

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
  places = sea.places || {};
  const churches = Object.entries(sea.missions || {});
  const graves = sea.cemetery || [];
  const buried = graves.filter(Boolean);
  fill("sea",
    h("ul", { class: "ships" }, Object.entries(sea.ships).map(([c, s]) => ship(c, s))),
    h("p", { "data-sea": "captains" }, `Captains left: ${(sea.captains || []).length}`),
    h("p", { "data-sea": "stacks" }, "Island stacks: ",
      `${plural(sea.stacks.cocoa, "cocoa basket")}${stackIsland("cocoa")}, `,
      `${plural(sea.stacks.tea, "tea bale")}${stackIsland("tea")}, `,
      `${plural(sea.stacks.treasure, "treasure")}${stackIsland("treasure")}`),
    h("p", { "data-sea": "missions" }, "Mission churches: ",
      churches.map(([id, m]) => `${id}${stackIsland(`church ${id}`)} ${m ? memberName(m) : "free"}`).join(" · ") || "none"),
    h("p", { "data-sea": "cemetery" },
      `Sea cemetery: ${buried.length} of ${graves.length} spaces taken`,
      buried.length ? ` (${buried.map(memberName).join(", ")})` : ""));
}
