/* Shared by every page: the host key in localStorage and a small JSON API helper.
   The host key never leaves this browser except as an Authorization header to this server. */
"use strict";
const Companion = (() => {
  const storageKey = (id) => `companion.host.${id}`;

  function hostToken(id) {
    try { return localStorage.getItem(storageKey(id)); } catch (e) { return null; }
  }

  function saveToken(id, token) {
    try { localStorage.setItem(storageKey(id), token); } catch (e) { /* private mode: host for this tab only */ }
  }

  async function api(method, url, body, options = {}) {
    const headers = Object.assign({}, options.headers || {});
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (options.token) headers["Authorization"] = "Bearer " + options.token;
    const res = await fetch(url, {
      method, headers, cache: "no-store",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let data = null;
    try { data = await res.json(); } catch (e) { data = null; }
    if (!res.ok) {
      const err = new Error((data && data.error) || `the server answered ${res.status}`);
      err.status = res.status;
      throw err;
    }
    return data;
  }

  function randomKey() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);  // works on plain http, unlike crypto.randomUUID
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  // A "#host=KEY" link hands the host key to another of the host's devices.
  const hash = new URLSearchParams(location.hash.slice(1));
  const match = location.pathname.match(/^\/m\/([a-z0-9]+)/);
  if (hash.get("host") && match) {
    saveToken(match[1], hash.get("host"));
    history.replaceState(null, "", location.pathname + location.search);
  }

  return { hostToken, saveToken, api, randomKey };
})();
