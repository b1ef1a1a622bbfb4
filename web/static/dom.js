// A tiny DOM builder: h("div", {class: "x", onclick: f}, "text", child, [more]).
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

// Replace the children of the element with id `id`.
export function fill(id, ...children) {
  const el = document.getElementById(id);
  if (el) el.replaceChildren(...children.flat(Infinity).filter((c) => c != null));
  return el;
}

export function show(id, on = true) {
  const el = document.getElementById(id);
  if (el) el.hidden = !on;
  return el;
}

export function text(id, value) {
  const el = document.getElementById(id);
  if (el) el.textContent = value;
  return el;
}

// The public box facts the server embedded in the page.
export function facts() {
  const el = document.getElementById("facts");
  try { return JSON.parse(el ? el.textContent : "{}"); } catch { return {}; }
}
