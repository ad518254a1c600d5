/* Round entry (host): per player a photo (file input with the phone camera, or the laptop's webcam),
   the reading drawn over the photo, tiles as chips to tap and correct, add or remove; a typed hand
   works too. Submits the hands to the API; the preset scores the round.
   User text is only ever set with textContent / attributes, never parsed as HTML. */
"use strict";
(() => {
  const root = document.getElementById("round");
  const matchId = root.dataset.matchId;
  const token = Companion.hostToken(matchId);
  const form = document.getElementById("round-form");
  const formError = form.querySelector(".form-error");
  const dialog = document.getElementById("tile-dialog");
  const SVG = "http://www.w3.org/2000/svg";
  const TILE_RE = /^\s*(\d)\s*[-|/:]\s*(\d)\s*$/;
  const DOUBT = parseFloat(root.dataset.doubt || "0");  // a reading less sure than this asks to be checked
  const MAX_PIPS = 6;  // every preset plays a double-six set; a photo may still be misread as 7 or more
  const idempotencyKey = Companion.randomKey();

  if (!token) root.querySelector(".not-host").hidden = false;

  function parseHand(text) {
    const out = [];
    for (const part of text.split(",")) {
      if (!part.trim()) continue;
      const m = part.match(TILE_RE);
      if (!m || Number(m[1]) > MAX_PIPS || Number(m[2]) > MAX_PIPS) return null;
      out.push({ a: Number(m[1]), b: Number(m[2]), corners: null, edited: false });
    }
    return out;
  }

  let hands = [];

  function el(tag, attrs = {}, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function setupHand(section) {
    const hand = {
      name: section.dataset.player, section, tiles: [], scan: null,
      status: section.querySelector(".scan-status"),
      typed: section.querySelector(".typed-hand"),
    };
    if (section.dataset.initial) hand.tiles = parseHand(section.dataset.initial) || [];
    hand.out = section.dataset.edit === "yes" && !hand.tiles.length;  // an edited round's empty hand went out
    section.querySelector(".photo-input").addEventListener("change", (event) => {
      const file = event.target.files[0];
      if (file) scanFile(hand, file);
      event.target.value = "";  // the same photo can be chosen again
    });
    section.querySelector(".webcam-button").addEventListener("click", () => openWebcam(hand));
    section.querySelector(".add-tile").addEventListener("click", () => openTile(hand, null));
    section.querySelector(".went-out").addEventListener("click", () => { hand.tiles = []; hand.out = true; render(hand); });
    hand.typed.addEventListener("change", () => {
      const tiles = parseHand(hand.typed.value);
      hand.typed.classList.toggle("invalid", tiles === null);
      if (tiles !== null) { hand.tiles = tiles; render(hand); }
    });
    render(hand);
    return hand;
  }

  function label(t) { return `${t.a}-${t.b}`; }
  function tileKey(t) { return `${Math.max(t.a, t.b)}-${Math.min(t.a, t.b)}`; }  // 4-6 and 6-4 are one tile

  function duplicates() {
    const seen = new Map(), dup = new Set();
    for (const hand of hands) for (const t of hand.tiles) {
      const key = tileKey(t);
      if (seen.has(key)) dup.add(key);
      seen.set(key, hand.name);
    }
    return dup;
  }

  function impossible(t) { return t.a > MAX_PIPS || t.b > MAX_PIPS; }
  // read from the photo with doubt and not yet confirmed by a tap
  function unsure(t) { return !t.edited && typeof t.confidence === "number" && t.confidence < DOUBT; }

  // What stops the round from being scored, in words that say which tile to tap; null when all is well.
  function problem() {
    for (const hand of hands) {
      const bad = hand.tiles.find(impossible);
      if (bad) return `${hand.name}'s tile ${label(bad)} is not in a double-six set: tap it to correct it.`;
    }
    const dup = duplicates();
    if (dup.size) {
      const key = [...dup][0];
      const owners = hands.filter((h) => h.tiles.some((t) => tileKey(t) === key));
      return `The tile ${key} is read twice (${owners.map((h) => h.name).join(" and ")}): a set holds it once; tap the wrong one to correct it.`;
    }
    return null;
  }

  function renderAll() { hands.forEach(render); }

  function render(hand) {
    const dup = duplicates();
    const chips = hand.section.querySelector(".chips");
    chips.replaceChildren();
    hand.tiles.forEach((t, i) => {
      const key = tileKey(t);
      const chip = el("button", { type: "button", class: "chip" + (t.edited ? " edited" : "") + (dup.has(key) ? " dup" : "")
          + (impossible(t) ? " bad" : "") + (unsure(t) ? " unsure" : ""),
        "aria-label": `tile ${label(t)}${unsure(t) ? ", hard to read" : ""}, tap to correct`, "data-tile": label(t) });
      chip.append(el("b", {}, String(t.a)), el("i"), el("b", {}, String(t.b)));
      chip.addEventListener("click", () => openTile(hand, i));
      chips.append(chip);
    });
    if (!hand.tiles.length) {
      chips.append(el("span", { class: "muted empty" }, hand.out ? "no tiles: this player went out"
        : "No tiles yet: take a photo, add tiles, type them, or tap “Went out”."));
    }
    const pips = hand.tiles.reduce((s, t) => s + t.a + t.b, 0);
    hand.section.querySelector(".hand-total").textContent = `${hand.tiles.length} tile${hand.tiles.length === 1 ? "" : "s"} · ${pips} pip${pips === 1 ? "" : "s"}`;
    if (document.activeElement !== hand.typed) {
      hand.typed.value = hand.tiles.map(label).join(",");
      hand.typed.classList.remove("invalid");
    }
    drawOverlay(hand);
  }

  function drawOverlay(hand) {
    const svg = hand.section.querySelector("svg.overlay");
    svg.replaceChildren();
    if (!hand.scan) return;
    hand.tiles.forEach((t, i) => {
      if (!t.corners) return;
      const g = document.createElementNS(SVG, "g");
      g.setAttribute("class", "tile-mark" + (t.edited ? " edited" : "") + (impossible(t) ? " bad" : "")
          + (unsure(t) ? " unsure" : ""));
      const poly = document.createElementNS(SVG, "polygon");
      poly.setAttribute("points", t.corners.map((p) => p.join(",")).join(" "));
      const cx = t.corners.reduce((s, p) => s + p[0], 0) / 4;
      const cy = t.corners.reduce((s, p) => s + p[1], 0) / 4;
      const size = Math.max(hand.scan.width, hand.scan.height) / 22;
      const text = document.createElementNS(SVG, "text");
      text.setAttribute("x", cx); text.setAttribute("y", cy + size / 3);
      text.setAttribute("font-size", size);
      text.textContent = label(t);
      g.append(poly, text);
      g.addEventListener("click", () => openTile(hand, i));
      svg.append(g);
    });
  }

  hands = [...root.querySelectorAll("section.hand")].map(setupHand);
  renderAll();

  // ---- scanning
  function setStatus(hand, text, progress) {
    hand.status.hidden = !text;
    hand.status.querySelector(".scan-text").textContent = text || "";
    const bar = hand.status.querySelector("progress");
    if (progress === undefined) bar.removeAttribute("value"); else bar.value = progress;
    hand.status.classList.toggle("working", progress !== null);
    bar.hidden = progress === null;
  }

  function scanFile(hand, file) {
    const reading = hand.section.querySelector(".reading");
    const img = reading.querySelector("img");
    const shot = reading.querySelector(".shot");
    if (img.src.startsWith("blob:")) URL.revokeObjectURL(img.src);
    img.src = URL.createObjectURL(file);
    img.onerror = () => shot.classList.add("no-preview");  // e.g. HEIC on a desktop browser
    shot.classList.remove("no-preview");
    hand.scan = null;
    drawOverlay(hand);
    reading.hidden = false;
    hand.section.dataset.scan = "working";
    setStatus(hand, "Uploading…", 0);
    const data = new FormData();
    data.append("photo", file, file.name || "hand.jpg");
    if (root.dataset.profile) data.append("profile", root.dataset.profile);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/scan");
    xhr.upload.onprogress = (e) => { if (e.lengthComputable) setStatus(hand, "Uploading…", Math.round(100 * e.loaded / e.total)); };
    xhr.upload.onload = () => setStatus(hand, "Reading the tiles…");
    xhr.onerror = () => {
      hand.section.dataset.scan = "failed";
      setStatus(hand, "Could not reach the server. Try again, or type the hand.", null);
    };
    xhr.onload = () => {
      let body = null;
      try { body = JSON.parse(xhr.responseText); } catch (e) { body = null; }
      if (xhr.status !== 200 || !body || body.error) {
        hand.section.dataset.scan = "failed";
        setStatus(hand, `Could not read this photo: ${(body && body.error) || xhr.status}. Try again, or type the hand.`, null);
        return;
      }
      hand.scan = body;
      const svg = hand.section.querySelector("svg.overlay");
      svg.setAttribute("viewBox", `0 0 ${body.width} ${body.height}`);
      svg.setAttribute("preserveAspectRatio", "none");
      shot.style.aspectRatio = `${body.width} / ${body.height}`;
      hand.tiles = body.tiles.map((t) => ({ a: t.pips[0], b: t.pips[1], corners: t.corners, confidence: t.confidence,
                                            edited: false }));
      const warnings = reading.querySelector(".scan-warnings");
      warnings.replaceChildren(...(body.warnings || []).map((w) => el("li", {}, w)));
      const n = hand.tiles.length;
      setStatus(hand, n ? `Read ${n} tile${n === 1 ? "" : "s"}, ${body.pip_total} pip${body.pip_total === 1 ? "" : "s"}. Tap a tile to correct it.`
        : "Read no tiles. Take another photo, add the tiles, or type the hand.", null);
      renderAll();
      hand.section.dataset.scan = "done";
    };
    xhr.send(data);
  }

  async function openWebcam(hand) {
    const box = hand.section.querySelector(".webcam");
    const video = box.querySelector("video");
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
      setStatus(hand, "This browser allows the webcam only on https or on the laptop itself (localhost). Use the photo button.", null);
      return;
    }
    let stream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment", width: { ideal: 1920 } }, audio: false });
    } catch (err) {
      setStatus(hand, `No camera: ${err.message}`, null);
      return;
    }
    video.srcObject = stream;
    box.hidden = false;
    await video.play().catch(() => {});
    const stop = () => { stream.getTracks().forEach((t) => t.stop()); video.srcObject = null; box.hidden = true; };
    box.querySelector(".stop").onclick = stop;
    box.querySelector(".snap").onclick = () => {
      const canvas = document.createElement("canvas");
      canvas.width = video.videoWidth; canvas.height = video.videoHeight;
      canvas.getContext("2d").drawImage(video, 0, 0);
      stop();
      canvas.toBlob((blob) => scanFile(hand, new File([blob], `${hand.name}-webcam.jpg`, { type: "image/jpeg" })), "image/jpeg", 0.92);
    };
  }

  // ---- the tile dialog: tap a chip or an outline to correct it
  let editing = null;
  const halves = [...dialog.querySelectorAll(".td-half")];

  function showChoice() {
    halves.forEach((fs, h) => fs.querySelectorAll("button").forEach((b) => {
      b.setAttribute("aria-pressed", String(Number(b.value) === editing.values[h]));
    }));
    dialog.querySelector(".td-a").textContent = editing.values[0] ?? "?";
    dialog.querySelector(".td-b").textContent = editing.values[1] ?? "?";
    dialog.querySelector(".td-ok").disabled = editing.values.includes(null);
  }

  function openTile(hand, index) {
    const t = index === null ? null : hand.tiles[index];
    editing = { hand, index, values: t ? [t.a, t.b] : [null, null] };
    dialog.querySelector("#td-title").textContent = t ? `Correct ${hand.name}'s tile ${label(t)}` : `Add a tile to ${hand.name}'s hand`;
    dialog.querySelector(".td-remove").hidden = !t;
    showChoice();
    dialog.showModal();
  }

  halves.forEach((fs, h) => fs.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button) return;
    editing.values[h] = Number(button.value);
    showChoice();
  }));
  dialog.querySelector(".td-cancel").addEventListener("click", () => dialog.close());
  dialog.querySelector(".td-remove").addEventListener("click", () => {
    editing.hand.tiles.splice(editing.index, 1);
    dialog.close();
    renderAll();
  });
  dialog.querySelector(".td-ok").addEventListener("click", () => {
    const [a, b] = editing.values;
    if (editing.index === null) editing.hand.tiles.push({ a, b, corners: null, edited: true });
    else Object.assign(editing.hand.tiles[editing.index], { a, b, edited: true });
    dialog.close();
    renderAll();
  });

  // ---- points during play (All Fives)
  root.querySelectorAll(".pp-row").forEach((row) => row.addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-points]");
    if (!button) return;
    try {
      const match = await Companion.api("POST", `/api/matches/${matchId}/play-points`,
        { player: row.dataset.player, points: Number(button.dataset.points) }, { token });
      row.querySelector(".pp-total").textContent = match.pending_play[row.dataset.player] || 0;
    } catch (err) {
      formError.textContent = err.message;
      formError.hidden = false;
    }
  }));

  // ---- submit
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    formError.hidden = true;
    for (const hand of hands) {
      if (hand.typed.classList.contains("invalid")) {
        formError.textContent = `${hand.name}'s typed hand is not tiles like 6-4,3-3.`;
        formError.hidden = false;
        return;
      }
    }
    const stop = problem();
    if (stop) {
      formError.textContent = stop;
      formError.hidden = false;
      return;
    }
    const body = { hands: {} };
    hands.forEach((hand) => { body.hands[hand.name] = hand.tiles.map(label).join(","); });
    for (const field of ["boneyard", "table"]) {
      const value = form.elements[field].value.trim();
      if (value) body[field] = value;
    }
    const edit = root.dataset.edit;
    const button = document.getElementById("submit-round");
    button.disabled = true;
    try {
      if (edit) {
        await Companion.api("PUT", `/api/matches/${matchId}/rounds/${edit}`, body, { token });
      } else {
        await Companion.api("POST", `/api/matches/${matchId}/rounds`, body,
          { token, headers: { "Idempotency-Key": idempotencyKey } });
      }
      location.href = root.dataset.boardUrl;
    } catch (err) {
      formError.textContent = err.message;
      formError.hidden = false;
      button.disabled = false;
    }
  });
})();
