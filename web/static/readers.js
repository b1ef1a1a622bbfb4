// The reader-health panel (_readers.html): each adapter's state and each reader's reads per
// second, last tap, errors and link, from /api/sensors every few seconds.
import { h, fill } from "./dom.js";

const ago = (epoch) => {
  if (epoch == null) return "never";
  const s = Math.max(0, Math.round(Date.now() / 1000 - epoch));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  return new Date(epoch * 1000).toLocaleTimeString();
};

const badge = (state) => h("span", { class: `state state-${state}` }, state);

export function render(adapters) {
  document.getElementById("readers-none").hidden = adapters.length > 0;
  fill("readers-adapters", adapters.map((a) => h("div", { class: "adapter", "data-adapter": a.name },
    h("strong", {}, a.name), badge(a.health.state),
    h("span", { class: "muted" }, a.health.detail),
    h("span", { class: "small" }, `${a.health.reads_per_s} reads/s · ${a.health.errors} errors`))));
  const rows = adapters.flatMap((a) => a.readers.map((r) => h("tr", { "data-reader": r.reader },
    h("td", {}, r.reader),
    h("td", {}, badge(r.state)),
    h("td", {}, r.uid ? h("code", {}, r.uid) : r.state === "tag" ? "a tag" : "–"),
    h("td", {}, String(r.reads_per_s)),
    h("td", {}, ago(r.last_seen)),
    h("td", { title: r.last_error || "" }, String(r.errors)),
    h("td", {}, r.link || a.health.state))));
  const table = document.getElementById("reader-table");
  table.hidden = rows.length === 0;
  table.tBodies[0].replaceChildren(...rows);
}

export function startReaderPanel(every = 2000) {
  const tick = async () => {
    try {
      const token = localStorage.getItem("village.tableToken"); // UIDs for the table only
      const res = await fetch("/api/sensors", { cache: "no-store",
        headers: token ? { Authorization: `Bearer ${token}` } : {} });
      if (res.ok) render((await res.json()).adapters);
    } catch { /* offline: try again */ }
    setTimeout(tick, every);
  };
  tick();
}
