// Box check: each value is a form (numbers and choices, never JSON). "Matches my box"
// confirms the value as shown; "Save what I see" rebuilds the value from the fields and
// saves it (table token). One value at a time, box by box (Previous, Next, Go to); after
// an answer the page reloads on the next value. A field that cannot be read is marked and
// says why beside it; a refusal from the companion shows under the value's form.
import { postBoxCheck, refusalText, tableToken } from "./api.js";
import { showRefusal } from "./actions.js";
import { askToken } from "./token.js";

document.getElementById("live").hidden = true; // nothing live on this page
tableToken(); // keep a #token=… from the address

const AT = "boxcheck-at"; // the value on show, kept across the reload an answer makes

async function answer(body, form) {
  const res = await postBoxCheck(body);
  if (res.ok) {
    if (form) sessionStorage.setItem(AT, nextKey(form.closest("section").dataset.key));
    location.reload();
    return;
  }
  if (form && res.status !== 401) formError(form, refusalText(res));
  else showRefusal(res);
  if (res.status === 401) askToken();
}

// A refusal said under the form it is about.
function formError(form, message) {
  let box = form.querySelector(".bc-form-error");
  if (!box) {
    box = document.createElement("p");
    box.className = "bc-form-error";
    box.setAttribute("role", "alert");
    form.querySelector(".bc-actions").before(box);
  }
  box.textContent = message;
}

// A field that cannot be read: marked, with the reason beside it, and focused.
function fieldError(input, message) {
  input.setAttribute("aria-invalid", "true");
  const label = input.closest("label") || input.parentElement;
  let said = label.querySelector(".bc-error");
  if (!said) {
    said = document.createElement("span");
    said.className = "bc-error";
    label.append(said);
  }
  said.textContent = message;
}

function clearErrors(form) {
  form.querySelectorAll("[aria-invalid]").forEach((el) => el.removeAttribute("aria-invalid"));
  form.querySelectorAll(".bc-error, .bc-form-error").forEach((el) => el.remove());
}

// Set `value` at `path` (a list of keys and indexes) inside `root`.
function setAt(root, path, value) {
  let here = root;
  for (const step of path.slice(0, -1)) here = here[step];
  here[path[path.length - 1]] = value;
}
function removeAt(root, path) {
  let here = root;
  for (const step of path.slice(0, -1)) here = here[step];
  delete here[path[path.length - 1]];
}

// The value a form describes: the value in force, with every field's answer put in place.
function readForm(form) {
  let value = JSON.parse(form.dataset.value);
  const problems = [];
  for (const input of form.querySelectorAll("[data-path]")) {
    const path = JSON.parse(input.dataset.path);
    if (input.tagName === "SELECT") {
      if (path.length) setAt(value, path, JSON.parse(input.value));
      else value = JSON.parse(input.value);
      continue;
    }
    const n = Number(input.value);
    const low = Number(input.min), high = Number(input.max);
    // a word typed in a number field reads as "" (the browser keeps it on show)
    if (input.value.trim() === "" || !Number.isInteger(n) || input.validity.badInput) {
      problems.push({ input, message: "a whole number, please" });
    } else if (n < low || n > high) {
      problems.push({ input, message: `a number from ${low} to ${high}, please` });
    } else if (input.dataset.optional && n === 0) {
      removeAt(value, path);
    } else if (path.length) {
      setAt(value, path, n);
    } else {
      value = n; // the whole value is this one number
    }
  }
  // lists that may grow or shrink: their fields, in order (spaces added or removed)
  for (const list of form.querySelectorAll("[data-list-path]")) {
    const items = [...list.querySelectorAll(".bc-items > label select, .bc-items > label input")]
      .map((el) => (el.tagName === "SELECT" ? JSON.parse(el.value) : Number(el.value)));
    const path = JSON.parse(list.dataset.listPath);
    if (path.length) setAt(value, path, items);
    else return { value: items, problems };
  }
  return { value, problems };
}

const all = document.getElementById("boxcheck");
all.addEventListener("click", (ev) => {
  const confirm = ev.target.closest("button[data-confirm]");
  if (confirm) {
    answer({ key: confirm.dataset.confirm, confirm: true }, confirm.closest("form"));
    return;
  }
  const list = ev.target.closest("[data-list-path]");
  if (!list) return;
  const items = list.querySelector(".bc-items");
  const count = items.children.length;
  if (ev.target.closest("[data-more]") && count < Number(list.dataset.max) && count > 0) {
    const copy = items.lastElementChild.cloneNode(true);
    const label = copy.querySelector(".bc-label");
    if (label) label.textContent = label.textContent.replace(/\d+$/, String(count + 1));
    copy.querySelector("[data-path]")?.removeAttribute("data-path");
    items.append(copy);
  } else if (ev.target.closest("[data-fewer]") && count > Number(list.dataset.min)) {
    items.lastElementChild.remove();
  }
});
all.addEventListener("submit", (ev) => {
  ev.preventDefault();
  const form = ev.target.closest("form.bc-form");
  clearErrors(form);
  const { value, problems } = readForm(form);
  if (problems.length) {
    for (const p of problems) fieldError(p.input, p.message);
    problems[0].input.focus();
    return;
  }
  answer({ key: form.dataset.key, value }, form);
});

// One value at a time: the one kept from before a reload, else the first to check.
const sections = [...all.querySelectorAll("section.bc-value")];
const keys = sections.map((sec) => sec.dataset.key);
function nextKey(key) {
  const i = keys.indexOf(key);
  const later = sections.slice(i + 1).find((sec) => sec.classList.contains("unverified"));
  return (later || sections[Math.min(i + 1, sections.length - 1)]).dataset.key;
}
function showValue(key) {
  const i = Math.max(0, keys.indexOf(key));
  sections.forEach((sec, k) => { sec.hidden = k !== i; });
  const here = sections[i];
  const inBox = sections.filter((sec) => sec.dataset.box === here.dataset.box);
  const toCheck = inBox.filter((sec) => sec.classList.contains("unverified")).length;
  document.getElementById("bc-box").textContent = here.dataset.box;
  document.getElementById("bc-count").textContent =
    `value ${inBox.indexOf(here) + 1} of ${inBox.length} in this box, ${toCheck} still to check`;
  document.getElementById("bc-prev").disabled = i === 0;
  document.getElementById("bc-next").disabled = i === sections.length - 1;
  document.getElementById("bc-jump").value = here.dataset.key;
  sessionStorage.setItem(AT, here.dataset.key);
}
if (sections.length) {
  document.getElementById("bc-steps").hidden = false;
  const kept = sessionStorage.getItem(AT);
  const first = sections.find((sec) => sec.classList.contains("unverified")) || sections[0];
  showValue(keys.includes(kept) ? kept : first.dataset.key);
  const at = () => keys.indexOf(sessionStorage.getItem(AT));
  document.getElementById("bc-prev").addEventListener("click", () => showValue(keys[Math.max(0, at() - 1)]));
  document.getElementById("bc-next").addEventListener("click", () => showValue(keys[Math.min(keys.length - 1, at() + 1)]));
  document.getElementById("bc-jump").addEventListener("change", (ev) => showValue(ev.target.value));
}

// The boxes owned: only their values are asked, only their expansions offered.
document.getElementById("boxes")?.addEventListener("submit", (ev) => {
  ev.preventDefault();
  const boxes = [...ev.target.querySelectorAll('input[name="box"]:checked')].map((box) => box.value);
  answer({ boxes });
});

// Cards learned at the table (companion.games.cardstore): correct or forget one.
for (const form of document.querySelectorAll("form.learned-card")) {
  const send = async (body) => {
    const token = tableToken();
    if (!token) { askToken(); return; }
    const res = await fetch("/api/cards", {
      method: "POST", cache: "no-store",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify({ card_type: form.dataset.type, card: form.dataset.card, ...body }),
    });
    const data = await res.json().catch(() => null);
    if (!res.ok) { showRefusal({ status: res.status, body: data }); return; }
    location.reload();
  };
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const values = {};
    for (const el of form.querySelectorAll("[data-name]")) {
      values[el.dataset.name] = el.dataset.int ? Number(el.value) : el.value;
    }
    send({ values });
  });
  form.querySelector("[data-forget]").addEventListener("click", () => send({ forget: true }));
}
