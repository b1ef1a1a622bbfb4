// Players' links: each player's private view as a QR code, from the address phones reach.
import { getState, getTokens, live } from "./api.js";
import { fill, text } from "./dom.js";
import { cap } from "./labels.js";
import { playerLinks } from "./links-list.js";
import { askToken, requireToken } from "./token.js";

const PHONE_PAGES = { colonia: "/answer", crecy: "/crecy/me" };

async function refresh() {
  if (!requireToken(refresh)) {
    text("links-status", "Enter the table token to show the players' links.");
    return;
  }
  const res = await getTokens();
  if (res.status === 401) { askToken(refresh); text("links-status", "The table token is needed."); return; }
  if (!res.ok) { text("links-status", res.status === 404 ? "No game yet." : "The companion is not answering."); return; }
  const players = Object.fromEntries(Object.entries(res.body.players || {}).map(([c, p]) => [c, p.token]));
  text("links-status", `Game ${res.body.game_id}: ${Object.keys(players).map(cap).join(", ")}.`);
  const st = await getState();
  const page = PHONE_PAGES[st.ok ? st.body.game : ""] || "/me"; // each game's own phone page
  fill("player-links", playerLinks(players, page));
}

live(refresh);
