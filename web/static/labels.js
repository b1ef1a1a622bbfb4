// Human words for colours, pieces, places, pending decisions and game-record actions.
export const cap = (s) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : "");

const SPACES = {
  harvest: "Harvest", family: "Family", crafts: "Crafts", market: "Market",
  travel: "Travel", council: "Council", church: "Church",
};
const BUILDINGS = {
  wainwright: "Wainwright", stables: "Stables", office: "Office", smithy: "Smithy", mill: "Mill",
};
export const spaceName = (s) => SPACES[s] || cap(s);
export const buildingName = (b) => BUILDINGS[b] || cap(b);
export const cityName = (c) => (c || "").split("-").map(cap).join("-");

// "red-2a" -> "Red 2a" (colour, generation, copy letter).
export function memberName(id) {
  if (id === "monk") return "Monk";
  const [colour, rest] = String(id).split("-");
  return `${cap(colour)} ${rest || ""}`.trim();
}

// Where a member stands: "council:2" -> "Council level 2".
export function whereName(where) {
  const [zone, detail] = String(where).split(":");
  switch (zone) {
    case "farm": return "Farm";
    case "unborn": return "Not born";
    case "bag": return "Black bag";
    case "craft": return buildingName(detail);
    case "council": return `Council ${detail}`;
    case "church": return `Church window ${detail}`;
    case "travel": return `Travelling (${cityName(detail)})`;
    case "chronicle": return `Chronicle (${detail})`;
    case "grave": case "graves": return "Grave";
    case "removed": return "Out of the game";
    default: return detail ? `${cap(zone)} ${detail}` : cap(zone);
  }
}

// {green: 2, coin: 1} -> "2 green + 1 coin".
export function payText(pay) {
  const parts = Object.entries(pay || {}).filter(([, n]) => n).map(([k, n]) => `${n} ${k}${k === "coin" && n > 1 ? "s" : ""}`);
  return parts.join(" + ");
}
const paySuffix = (pay) => (payText(pay) ? `, pay ${payText(pay)}` : "");

const DRAWS = {
  fill_bag: "Draw the green bag onto the action spaces",
  mass_draw: "Draw the figures from the black bag",
  reveal_customers: "Turn up customer tiles at the market",
  deal_silver: "Deal the silver life goals (each player sees only their own)",
  deal_gold: "Deal the gold life goals (each player sees only their own)",
  draw_treasure: "Draw the top treasure (only its taker sees its value)",
};

// The group (heading) an action's button goes under.
const GROUPS = {
  take: "Take a cube", well: "Use the well", free: "Free action", skip: "Skip",
  harvest: "Harvest", birth: "Family", recall: "Family", train: "Crafts", produce: "Crafts",
  buy: "Crafts: buy a good", mill: "Crafts", serve: "Serve a customer", pass: "Stop selling",
  travel: "Travel", council_enter: "Council", council_advance: "Council",
  privilege: "Council privilege", church: "Church", die: "Who dies",
  buyout: "Buy out of the black bag", church_move: "Move in the church", done: "Done",
  virtual_draw: "Draw", fill_bag: "Draw", mass_draw: "Draw", reveal_customers: "Draw",
  // Le Port's voyage and market, Objectifs de vie
  recruit: "Hire a captain", load: "Load the ship", sail: "Sail", disembark: "Land",
  anchor: "Stay at sea", island_sell: "Sell on the island", island_take: "Take from the island",
  mission: "Mission church", leave_island: "Leave the island", return_port: "Return to port",
  sell_exotic: "Sell cocoa or tea", cash_treasure: "Cash a treasure",
  draw_treasure: "Draw", deal_goals: "Draw", claim_goal: "Claim a life goal",
};
// A type without a heading of its own still reads as words, never as a program name.
export const groupOf = (a) => GROUPS[a.type] || cap(String(a.type).replace(/_/g, " "));

// The label of one action's button: "Take brown cube from Harvest". `where(member)`, if
// given, tells where a member stands (for choices between members).
export function actionLabel(a, where) {
  const at = (m) => (where && where(m) ? ` (${whereName(where(m))})` : "");
  switch (a.type) {
    case "take": return `Take ${a.cube} cube from ${spaceName(a.space)}`;
    case "well": return `Return 3 ${a.color} at the well, then ${spaceName(a.space)}`;
    case "free": return `${spaceName(a.space)} (free action)`;
    case "skip": return "Skip (do nothing here)";
    case "harvest": return "Harvest grain";
    case "birth": return "Birth: the next generation joins the farm";
    case "recall": return `Bring ${memberName(a.member)}${at(a.member)} home to the farm`;
    case "train": return a.good
      ? `Train ${memberName(a.member)} at the ${buildingName(a.building)} and make a ${a.good}`
      : `Train ${memberName(a.member)} at the ${buildingName(a.building)} (train only)`;
    case "produce": return `Make a ${a.good} at the ${buildingName(a.building)}`;
    case "buy": return `Buy a ${a.good}${paySuffix(a.pay)}`;
    case "mill": return "Mill: 2 time + 2 grain for 2 coins";
    case "serve": return `Serve the customer on stall ${Number(a.slot) + 1}${paySuffix(a.pay)}`;
    case "pass": return "Stop selling for this market day";
    case "travel": {
      const gain = a.gain && a.gain.length ? `, gain ${a.gain.join(" + ")}` : "";
      return `${memberName(a.member)} travels to ${cityName(a.city)}${paySuffix(a.pay)}${gain}`;
    }
    case "council_enter": return `${memberName(a.member)} enters the council${paySuffix(a.pay)}`;
    case "council_advance": return `${memberName(a.member)} moves up the council${paySuffix(a.pay)}`;
    case "privilege": {
      const what = { 1: "be first player next round", 2: "take 2 cubes", 3: "take a good", 4: "pay 1 coin for 3 prestige" }[a.level] || `level ${a.level}`;
      const gain = a.gain && a.gain.length ? ` (${a.gain.join(" + ")})` : "";
      return `Privilege ${a.level}: ${what}${gain}`;
    }
    case "church": return `${memberName(a.member)} goes to church (black bag)${paySuffix(a.pay)}`;
    case "die": return `${memberName(a.member)}${at(a.member)} dies`;
    case "buyout": return a.members && a.members.length
      ? `Buy out ${a.members.map(memberName).join(", ")} (${a.members.length} coin${a.members.length > 1 ? "s" : ""})`
      : "Buy out nobody";
    case "church_move": return `Move ${memberName(a.member)} one window left`;
    case "done": return "Done moving in the church";
    case "virtual_draw": return DRAWS[a.draw] || `Draw (${a.draw})`;
    case "fill_bag": return "Record the green-bag draw";
    case "mass_draw": return `Record the mass draw: ${(a.figures || []).map(memberName).join(", ")}`;
    case "reveal_customers": return "Record the customer tiles turned up";
    default: return Object.entries(a).map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`).join(", ");
  }
}

// What the game waits for, without the name of who decides: "take a cube or use the well".
export function pendingWhat(p) {
  if (!p) return "no game yet";
  switch (p.kind) {
    case "turn":
      if (p.free) return "final turn, a free action";
      return `${p.final ? "final turn: " : ""}take a cube or use the well`;
    case "action": return `the ${spaceName(p.space)} action`;
    case "privilege": return `a council privilege (up to level ${p.max_level})`;
    case "market": return "market day: serve a customer or stop";
    case "death": return "choose who dies";
    case "buyout": return "mass: buy members out of the black bag";
    case "church_move": return "mass: move members in the church";
    case "fill_bag": return `round ${p.round || ""}: fill the green bag and draw`;
    case "mass_draw": return `mass: draw ${p.count} figures from the black bag`;
    case "reveal_customers": return "turn up new customers at the market";
    case "over": return "the game is over";
    case "voyage": return {
      recruit: "the voyage: hire a captain", load: "the voyage: load the ship",
      sail: "the voyage: sail on, stop or land",
      island: p.zone ? `on island ${p.zone}` : "on the island",
    }[p.step] || "the voyage";
    case "draw_treasure": return "draw the top treasure tile (face down)";
    case "deal_silver": return "deal the silver life goals, face down";
    case "deal_gold": return "deal the gold life goals, face down";
    default: return p.kind;
  }
}

// What the game waits for, as a heading: "Yellow: take a cube or use the well".
export function pendingText(p) {
  const what = pendingWhat(p);
  return p && p.player ? `${cap(p.player)}: ${what}` : cap(what);
}

// The page for a chance point (hand draws) or the mass.
export function drawPage(kind) {
  return { fill_bag: "/bag", reveal_customers: "/bag", mass_draw: "/mass", buyout: "/mass", church_move: "/mass" }[kind] || null;
}
