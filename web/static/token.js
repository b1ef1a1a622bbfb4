// The table token form: shown when no token is known or the server refused it.
import { setTableToken, tableToken } from "./api.js";

export function askToken(onSet) {
  const form = document.getElementById("token-form");
  if (!form || !form.hidden) return;
  form.hidden = false;
  const input = document.getElementById("token-input");
  input.focus();
  form.onsubmit = (ev) => {
    ev.preventDefault();
    setTableToken(input.value.trim());
    form.hidden = true;
    if (onSet) onSet();
  };
}

// Ask for the token at once if none is stored; returns the token (or null).
export function requireToken(onSet) {
  const token = tableToken();
  if (!token) askToken(onSet);
  return token;
}
