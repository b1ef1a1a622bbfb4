// Players' private links as list items with a QR code, built from the address phones can
// reach (the page's data-public-url: the host's LAN address or companion serve --public-url).
import { h } from "./dom.js";
import { cap } from "./labels.js";
import { qrFigure } from "./qr.js";

// The private-view link of each player, as list items with a QR code (`path`: the game's
// phone page, /me for Village, /crecy/me for Crecy).
export function playerLinks(tokens, path = "/me") {
  const base = document.body.dataset.publicUrl || location.origin;
  return Object.entries(tokens).map(([colour, token]) => {
    const url = `${base}${path}/${colour}?token=${encodeURIComponent(token)}`;
    return h("li", { class: "player-link", "data-colour": colour },
      h("h2", { class: "member" }, cap(colour)),
      qrFigure(url, `${cap(colour)}'s private view`),
      h("a", { href: url, class: "small" }, url));
  });
}
