// QR codes of links, drawn by the companion itself (GET /qr.svg?text=…, no outside service).
import { h } from "./dom.js";

export const QR_MAX_TEXT = 512;

export function qrSrc(text) {
  return `/qr.svg?text=${encodeURIComponent(text)}`;
}

// An <img> of the QR code of `text`, with the text written under it for people who type.
export function qrFigure(text, caption) {
  return h("figure", { class: "qr" },
    h("img", { src: qrSrc(text), alt: `QR code: ${caption}`, width: 180, height: 180, loading: "lazy" }),
    h("figcaption", {}, caption));
}
