// Players' private links as list items with a QR code, built from the address phones can
// reach (the page's data-public-url: the host's LAN address or companion serve --public-url).
import { h } from "./dom.js";
import { cap } from "./labels.js";
import { qrFigure } from "./qr.js";

// The private-view link of each player, as list items with a QR code.
// ``page``: the players' page ("me", Village's private view; another game's own).
export function playerLinks(tokens, page = "me") {
  const base = document.body.dataset.publicUrl || location.origin;
  return Object.entries(tokens).map(([colour, token]) => {
    const url = `${base}/${page}/${colour}?token=${encodeURIComponent(token)}`;
    return h("li", { class: "player-link", "data-colour": colour },
      h("h2", { class: "member" }, cap(colour)),
      qrFigure(url, `${cap(colour)}'s private view`),
      h("a", { href: url, class: "small" }, url));
  });
}
