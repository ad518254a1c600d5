/* The scoreboard: follows the match live (Server-Sent Events, polling when the stream drops) and,
   on the host's device, offers "undo last round". The live part is rendered (and escaped) by the
   server; this script only swaps the fresh fragment in. */
"use strict";
(() => {
  const board = document.querySelector(".board");
  const matchId = board.dataset.matchId;
  const token = Companion.hostToken(matchId);
  const conn = document.getElementById("conn");
  const flash = document.querySelector(".flash");
  let version = Number(board.dataset.version);
  let busy = false, again = false, source = null, pollTimer = null;

  if (token) document.body.classList.add("is-host");
  localTimes(document);

  function setConn(state) {
    conn.textContent = state;
    conn.dataset.state = state;
  }

  function say(text) {
    flash.textContent = text;
    flash.hidden = !text;
  }

  // The server writes UTC times; show them in this screen's own clock.
  function localTimes(root) {
    root.querySelectorAll("time[datetime]").forEach((node) => {
      const when = new Date(node.getAttribute("datetime"));
      if (!isNaN(when)) node.textContent = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    });
  }

  function scoresOf(root) {
    const out = {};
    root.querySelectorAll(".card").forEach((card) => {
      out[card.dataset.player] = card.querySelector(".score").dataset.score;
    });
    return out;
  }

  // Swap in a fresh live part (server-rendered by Jinja, names escaped there), unless it is older.
  function show(html) {
    const template = document.createElement("template");
    template.innerHTML = html;
    const fresh = template.content.querySelector("#live");
    const current = document.getElementById("live");
    if (!fresh || Number(fresh.dataset.version) < version) return;
    version = Number(fresh.dataset.version);
    const before = scoresOf(current);
    const wasOpen = current.querySelector("details.history")?.open;
    if (wasOpen) fresh.querySelector("details.history").open = true;
    localTimes(fresh);
    current.replaceWith(fresh);
    fresh.querySelectorAll(".card").forEach((card) => {
      if (before[card.dataset.player] !== card.querySelector(".score").dataset.score) card.classList.add("bump");
    });
    followNext();
  }

  async function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      const res = await fetch(board.dataset.liveUrl, { cache: "no-store" });
      if (res.ok) show(await res.text());
    } finally {
      busy = false;
      if (again) { again = false; refresh(); }
    }
  }

  function startPolling() {
    if (pollTimer) return;
    pollTimer = setInterval(async () => {
      try {
        const match = await Companion.api("GET", board.dataset.apiUrl);
        if (match.version !== version) refresh();
      } catch (e) { setConn("offline"); }
    }, 3000);
  }

  function stopPolling() {
    clearInterval(pollTimer);
    pollTimer = null;
  }

  function listen() {
    if (!window.EventSource) { setConn("polling"); startPolling(); return; }
    source = new EventSource(board.dataset.eventsUrl);
    source.addEventListener("open", () => { setConn("live"); stopPolling(); });
    source.addEventListener("live", (event) => {  // the live part itself: nothing to fetch
      setConn("live");
      stopPolling();
      if (Number(event.lastEventId) !== version) show(event.data);
    });
    source.addEventListener("error", () => {
      setConn("polling");
      startPolling();
      if (source.readyState === EventSource.CLOSED) {  // refused (e.g. 503): try again later
        source.close();
        setTimeout(listen, 15000);
      }
    });
  }

  // Undo: a second tap within a few seconds confirms (no modal dialogs on a TV remote or phone).
  const undo = document.getElementById("undo-round");
  let armed = null;
  undo.addEventListener("click", async () => {
    const rounds = Number(document.getElementById("live").dataset.rounds);
    if (!rounds) { say("No round to undo."); return; }
    if (armed === null) {
      undo.textContent = `Tap again to undo round ${rounds}`;
      undo.classList.add("danger");
      armed = setTimeout(() => { armed = null; undo.textContent = "Undo last round"; undo.classList.remove("danger"); }, 4000);
      return;
    }
    clearTimeout(armed);
    armed = null;
    undo.textContent = "Undo last round";
    undo.classList.remove("danger");
    try {
      await Companion.api("DELETE", `/api/matches/${matchId}/rounds/${rounds}`, undefined, { token });
      say(`Round ${rounds} undone.`);
      refresh();
    } catch (err) {
      say(err.message);
    }
  });

  // Hand the host key to the host's phone: a QR code of the board with the key in the fragment.
  const hostDialog = document.getElementById("host-link-dialog");
  document.getElementById("host-phone").addEventListener("click", async () => {
    try {
      const link = await Companion.api("POST", `/api/matches/${matchId}/host-link`, undefined, { token });
      hostDialog.querySelector(".host-qr").src = link.qr;
      hostDialog.querySelector(".host-url").textContent = link.url;
      hostDialog.showModal();
    } catch (err) {
      say(err.message);
    }
  });
  hostDialog.addEventListener("close", () => { hostDialog.querySelector(".host-qr").removeAttribute("src"); });

  // The next match of the evening: the host starts it here; every board on this match follows.
  board.addEventListener("click", async (event) => {
    if (!event.target.closest(".rematch")) return;
    try {
      const next = await Companion.api("POST", `/api/matches/${matchId}/rematch`, undefined, { token });
      Companion.saveToken(next.id, next.host_token);
      location.href = `/m/${next.id}`;
    } catch (err) {
      say(err.message);
    }
  });

  function followNext() {
    const next = document.getElementById("live").dataset.next;
    if (next) setTimeout(() => { location.href = next; }, 4000);
  }

  // Full screen for the TV (where the browser allows it).
  const full = document.getElementById("fullscreen");
  if (document.fullscreenEnabled) {
    full.hidden = false;
    full.addEventListener("click", () => {
      if (document.fullscreenElement) document.exitFullscreen();
      else document.documentElement.requestFullscreen().catch(() => {});
    });
    document.addEventListener("fullscreenchange", () => { full.hidden = Boolean(document.fullscreenElement); });
  }

  followNext();
  listen();
})();
