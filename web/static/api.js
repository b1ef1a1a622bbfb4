// Talking to the server: state, legal actions, posting with the table token, live updates.
const TOKEN_KEY = "village.tableToken";

// The table token: from the URL fragment (#token=...) once, then from localStorage.
export function tableToken() {
  const m = location.hash.match(/token=([^&]+)/);
  if (m) {
    localStorage.setItem(TOKEN_KEY, decodeURIComponent(m[1]));
    history.replaceState(null, "", location.pathname + location.search);
  }
  return localStorage.getItem(TOKEN_KEY);
}

export function setTableToken(token) {
  if (token) localStorage.setItem(TOKEN_KEY, token);
  else localStorage.removeItem(TOKEN_KEY);
}

async function call(method, url, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(url, {
      method, headers, cache: "no-store",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    return { ok: false, status: 0, body: { code: "offline", message: "The companion cannot be reached (Wi-Fi?)." } };
  }
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  return { ok: res.ok, status: res.status, body: data };
}

// A game of another kind is now played (started, or opened from the stored games): a page
// that follows the game (`data-follow` on its bar) loads again, for the server draws the
// top bar and Village's own pages by the game played (web/topbar.py `FOLLOWING`). `view`
// is a state as the server gives it.
export function followGame(view) {
  const nav = document.querySelector("nav[data-game][data-follow]");
  const game = view && view.game;
  if (nav && typeof game === "string" && game !== nav.dataset.game) {
    location.reload();
    return true;
  }
  return false;
}

export const getState = async (viewer, token) => {
  const q = viewer ? `?viewer=${encodeURIComponent(viewer)}&token=${encodeURIComponent(token || "")}` : "";
  const res = await call("GET", `/api/state${q}`);
  if (res.ok) followGame(res.body);
  return res;
};
// The legal actions: the server answers {pending, seq, actions: [...]} (or a bare list).
export async function getLegal() {
  return legalAnswer(await call("GET", "/api/legal"));
}
function legalAnswer(res) {
  if (res.ok) {
    const b = res.body;
    res.actions = Array.isArray(b) ? b : (b && Array.isArray(b.actions) ? b.actions : []);
    res.choices = b && Array.isArray(b.choices) ? b.choices : [];
    res.seq = b && !Array.isArray(b) ? b.seq : undefined;
  } else {
    res.actions = [];
    res.choices = [];
  }
  return res;
}
// The public state and legal actions after a live event, as getState() and getLegal()
// answer them: from the event itself when it carries them (the latest event does), else
// fetched (on (re)connect, and for the older events of a catch-up).
export async function stateAndLegal(event) {
  if (event && event.state && event.legal) {
    return [{ ok: true, status: 200, body: event.state }, legalAnswer({ ok: true, status: 200, body: event.legal })];
  }
  return Promise.all([getState(), getLegal()]);
}
export const getDraws = () => call("GET", "/api/draws");
export const getLog = (limit, after) => {
  const q = new URLSearchParams();
  if (limit) q.set("limit", limit);
  if (after != null) q.set("after", after);
  return call("GET", `/api/log?${q}`);
};
export const getTokens = () => call("GET", "/api/tokens", undefined, tableToken());
// Post one action; with `expectedSeq` the server refuses it (409) if the game moved on.
export const postAction = (action, expectedSeq) => call("POST",
  `/api/actions${expectedSeq != null ? `?expected_seq=${encodeURIComponent(expectedSeq)}` : ""}`,
  action, tableToken());
// A player's own action allowed at any moment (claim a goal, cash a treasure), with their token.
export const postAnytime = (action, token) => call("POST", "/api/anytime", action, token);
export const postReport = (player, action, token) => call("POST", "/api/report", { player, action }, token);
export const postUndo = () => call("POST", "/api/undo", {}, tableToken());
export const postGame = (game) => call("POST", "/api/games", game, tableToken());
export const postBoxCheck = (answer) => call("POST", "/api/boxcheck", answer, tableToken());

// A refused request as one line for people: the rule it breaks and what is lacking, in
// words (the server's `words`), or what went wrong.
export function refusalText(res) {
  const b = res.body || {};
  if (res.status === 401) return "The table token is missing or wrong: enter it again.";
  // storage trouble (507/503) and busy answers carry a sentence for people as they are
  if (/^storage_|^busy$|^too_many_streams$/.test(b.code || "")) return b.message;
  const msg = b.words || b.message || (typeof b === "string" ? b : "");
  if (res.status === 422) return `Refused by the rules: ${msg}`;
  if (res.status === 400) return `Not understood: ${msg}`;
  if (res.status === 409) return "Someone else acted first: the game moved on. Look again and choose.";
  if (res.status === 0) return msg;
  return `Something went wrong (${res.status}): ${msg || "unexpected answer"}`;
}

// Named messages on the live feed (sensing: proposal, prompt, discrepancy, closed, health):
// `onLive(name, fn)` calls `fn(data)` for each; `onLive("open", fn)` calls `fn()` each time
// the stream (re)opens, before the server sends again what is still open. One stream per
// page: `live()` below opens it.
const named = [];
let liveSource = null;
function attachNamed(es, name, fn) {
  if (name === "open") es.addEventListener("open", () => fn());
  else es.addEventListener(name, (e) => { let d = null; try { d = JSON.parse(e.data); } catch { return; } fn(d); });
}
export function onLive(name, fn) {
  named.push([name, fn]);
  if (liveSource) attachNamed(liveSource, name, fn);
}

// Live updates: calls `refresh(event)` on every event (`event` is the parsed data, which
// carries the public `state` and `legal` after it), and `refresh(null)` after a reconnect and when the
// page becomes visible again; EventSource resumes with Last-Event-ID by itself. Falls back
// to polling if the server has no event stream. `token` (the table's, by default, or a
// player's) puts the stream among those the server keeps for the table, outside the cap
// every spectator shares.
export function live(refresh, token = tableToken()) {
  const badge = document.getElementById("live");
  const mark = (state, label) => {
    if (!badge) return;
    badge.dataset.state = state;
    badge.textContent = label;
  };
  let timer = null;
  let pendingEvent = null;
  const soon = (event = null) => {
    pendingEvent = event;
    clearTimeout(timer);
    timer = setTimeout(() => refresh(pendingEvent), 30);
  };
  let lastSeq = null;
  let es = null;
  let poll = null;
  const start = () => {
    if (!("EventSource" in window)) return startPolling();
    es = new EventSource(token ? `/api/events?token=${encodeURIComponent(token)}` : "/api/events");
    liveSource = es;
    named.forEach(([name, fn]) => attachNamed(es, name, fn));
    es.onopen = () => { mark("live", "live"); soon(); };
    es.onmessage = (ev) => {
      if (ev.lastEventId) lastSeq = ev.lastEventId;
      mark("live", "live");
      let data = null;
      try { data = JSON.parse(ev.data); } catch { data = null; }
      if (data && followGame(data.state)) return;
      soon(data);
    };
    es.onerror = () => {
      if (es.readyState === EventSource.CLOSED) {
        mark("down", "offline, retrying");
        es.close();
        setTimeout(start, 3000);
      } else {
        mark("connecting", "reconnecting…");
      }
    };
  };
  const startPolling = () => {
    mark("live", "polling");
    poll = poll || setInterval(() => refresh(null), 4000);
  };
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") soon();
  });
  refresh(null);
  start();
  return { refreshNow: refresh, get lastSeq() { return lastSeq; } };
}
