// Box check: each value is a form (numbers and choices, never JSON). "Matches my box"
// confirms the value as shown; "Save what I see" rebuilds the value from the fields and
// saves it (table token). A refusal says what is expected.
import { postBoxCheck, tableToken } from "./api.js";
import { showRefusal } from "./actions.js";
import { askToken } from "./token.js";

document.getElementById("live").hidden = true; // nothing live on this page
tableToken(); // keep a #token=… from the address

async function answer(body) {
  const res = await postBoxCheck(body);
  if (res.ok) {
    location.reload();
    return;
  }
  showRefusal(res);
  if (res.status === 401) askToken();
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
    const label = input.closest("label")?.querySelector(".bc-label")?.textContent || "a number";
    const low = Number(input.min), high = Number(input.max);
    if (input.value.trim() === "" || !Number.isInteger(n)) {
      problems.push(`${label}: a whole number, please`);
    } else if (n < low || n > high) {
      problems.push(`${label}: a number from ${low} to ${high}, please`);
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
    answer({ key: confirm.dataset.confirm, confirm: true });
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
  const { value, problems } = readForm(form);
  if (problems.length) {
    const title = form.closest("section").querySelector("h2").firstChild.textContent.trim();
    showRefusal({ status: 400, body: { message: `${title}: ${problems.join("; ")}` } });
    return;
  }
  answer({ key: form.dataset.key, value });
});

// The boxes owned: only their values are asked, only their expansions offered.
document.getElementById("boxes")?.addEventListener("submit", (ev) => {
  ev.preventDefault();
  const boxes = [...ev.target.querySelectorAll('input[name="box"]:checked')].map((box) => box.value);
  answer({ boxes });
});
