// Prestige over the rounds as an inline SVG line chart.
const NS = "http://www.w3.org/2000/svg";
const COLOURS = { red: "#ff5a4f", yellow: "#ffd54a", blue: "#4aa3ff", white: "#f4f4f4" };

function el(tag, attrs, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

// history: [{round, prestige: {colour: n}}]; now: {round, prestige} appended if newer.
export function prestigePlot(history, now) {
  const points = [...(history || [])];
  if (now && (!points.length || points[points.length - 1].round < now.round)) points.push(now);
  const colours = Object.keys(now ? now.prestige : (points[0] || { prestige: {} }).prestige);
  const W = 340, H = 180, L = 30, R = 44, T = 10, B = 24;
  const maxR = Math.max(1, ...points.map((p) => p.round));
  const minR = Math.min(maxR - 1, ...points.map((p) => p.round));
  const maxP = Math.max(5, ...points.flatMap((p) => Object.values(p.prestige)));
  const x = (r) => L + ((r - minR) / (maxR - minR)) * (W - L - R);
  const y = (v) => H - B - (v / maxP) * (H - T - B);
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", class: "plot-svg",
    "aria-label": "Prestige per family over the rounds" });
  const step = maxP > 40 ? 20 : maxP > 20 ? 10 : 5;
  for (let v = 0; v <= maxP; v += step) {
    svg.append(el("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }));
    svg.append(el("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", class: "axis" }, v));
  }
  for (const p of points) {
    svg.append(el("text", { x: x(p.round), y: H - 6, "text-anchor": "middle", class: "axis" }, p.round));
  }
  const labels = [];
  colours.forEach((c, i) => {
    // equal lines side by side rather than hidden under each other
    const dy = (i - (colours.length - 1) / 2) * 3;
    const pts = points.filter((p) => c in p.prestige).map((p) => `${x(p.round).toFixed(1)},${(y(p.prestige[c]) + dy).toFixed(1)}`);
    if (!pts.length) return;
    const stroke = COLOURS[c] || "#ccc";
    svg.append(el("polyline", { points: pts.join(" "), fill: "none", stroke, "stroke-width": 3,
      "stroke-linejoin": "round", "data-colour": c }));
    const [lx, ly] = pts[pts.length - 1].split(",").map(Number);
    svg.append(el("circle", { cx: lx, cy: ly, r: 4, fill: stroke }));
    labels.push({ c, x: lx + 7, y: ly + 4, stroke, value: now ? now.prestige[c] : "" });
  });
  // End labels never overlap: sorted top to bottom, each at least LABEL_GAP below the one
  // above (tied families get one label each, stacked), kept inside the plot.
  const LABEL_GAP = 16; // a label's box is about 1.2 × its 13-unit font
  labels.sort((a, b) => a.y - b.y);
  for (let i = 1; i < labels.length; i++) {
    labels[i].y = Math.max(labels[i].y, labels[i - 1].y + LABEL_GAP);
  }
  const overflow = labels.length ? labels[labels.length - 1].y - (H - B + 4) : 0;
  if (overflow > 0) labels.forEach((l) => { l.y -= overflow; });
  for (const l of labels) {
    svg.append(el("text", { x: l.x, y: l.y, class: "end-label", fill: l.stroke, "data-colour": l.c }, l.value));
  }
  if (points.length === 0) svg.append(el("text", { x: W / 2, y: H / 2, "text-anchor": "middle", class: "axis" }, "no rounds yet"));
  return svg;
}
