// Box check: confirm a printed value as shipped, or save the right one (table token).
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

const table = document.getElementById("boxcheck");
table.addEventListener("click", (ev) => {
  const button = ev.target.closest("button[data-confirm]");
  if (button) answer({ key: button.dataset.confirm, confirm: true });
});
table.addEventListener("submit", (ev) => {
  ev.preventDefault();
  const form = ev.target.closest("form.correct");
  let value;
  try {
    value = JSON.parse(form.elements.value.value);
  } catch (err) {
    showRefusal({ status: 400, body: { message: `${form.dataset.key}: this is not JSON (${err.message})` } });
    return;
  }
  answer({ key: form.dataset.key, value });
});
