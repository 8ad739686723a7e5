/* The deck builder: a card set's version as a list of cards to count, the deck's size and validity as the API
   judges them (POST /player-decks/check/, as each card is counted), saved, exported, imported and updated
   through the API's player-deck endpoints. Counting a card never reloads the page; saving a new deck moves the
   address to the deck's own page (/player-decks/<id>/) without a reload either. */
"use strict";

(function () {
  const { api, showError, el } = Play;
  const cfg = Ccg.config();
  const API = cfg.api;
  const $ = (id) => document.getElementById(id);
  const errorBox = $("builder-error");
  const MAX_COPIES = 100;  // a card's copies in a deck, as the API bounds them

  const builder = {
    deck: null,            // the saved deck as the API last answered it (null: not saved yet)
    version: null,         // the set's version the deck is built on: {number, cards, special_rules, …}
    cards: new Map(),      // card id → card of that version
    rows: new Map(),       // card id → its row in the list
    counts: new Map(),     // card id → copies in the deck (what the page shows, saved or not)
    saved: null,           // the deck's entries and name as last saved, to tell unsaved changes
    checks: 0,             // the number of the latest check asked, so a slower earlier answer is dropped
  };
  window.deckBuilder = builder;  // for the browser tests and the curious

  /* ---- the deck as the API takes it ---- */
  function entries() {
    const order = [...builder.cards.keys()];  // the set's own order, whatever order the cards were counted in
    return [...builder.counts].filter(([, n]) => n > 0).map(([card, count]) => ({ card, count }))
      .sort((a, b) => order.indexOf(a.card) - order.indexOf(b.card));
  }
  function deckName() {
    const input = $("deck-name");
    return input.value.trim() || input.placeholder;
  }
  function snapshot() {
    return JSON.stringify([deckName(), entries()]);
  }
  function dirty() {
    return builder.saved !== snapshot();
  }

  /* ---- the set's version: the list of cards ---- */
  async function loadVersion(number) {
    if (builder.version && builder.version.version === number) return;
    const version = await api("GET", `${API}decks/${encodeURIComponent(cfg.card_set)}/versions/${number}/`);
    builder.version = version;
    builder.cards = new Map(version.cards.map((card) => [card.id, card]));
    $("pool-version").textContent = `(version ${version.version})`;
    const types = [...new Set(version.cards.map((card) => card.type || "Thing"))].sort();
    const typeFilter = $("type-filter");
    const chosen = typeFilter.value;
    typeFilter.textContent = "";
    typeFilter.append(el("option", { value: "" }, "any"), ...types.map((type) => el("option", { value: type }, type)));
    typeFilter.value = types.includes(chosen) ? chosen : "";
    const body = $("pool-cards").tBodies[0];
    body.textContent = "";
    builder.rows.clear();
    for (const card of version.cards) {
      const row = cardRow(card);
      builder.rows.set(card.id, row);
      body.append(row);
    }
    for (const id of [...builder.counts.keys()]) {
      if (!builder.cards.has(id)) builder.counts.delete(id);
    }
  }

  function cardRow(card) {
    const title = card.title;
    const input = el("input", { type: "number", min: 0, max: MAX_COPIES, value: 0, class: "copies",
      "aria-label": `Copies of ${title}`, inputmode: "numeric" });
    input.addEventListener("change", () => setCount(card.id, Number(input.value)));
    const stats = Object.entries(card.stats || {}).map(([name, value]) => `${name} ${value}`).join(", ");
    return el("tr", { class: "pool-card", "data-card": card.id, "data-type": card.type || "Thing" },
      el("td", { class: "card-cell" },
        el("strong", { class: "title" }, title),
        card.text ? el("span", { class: "text" }, card.text) : null,
        stats ? el("span", { class: "stats muted" }, stats) : null),
      el("td", {}, card.type || "Thing"),
      el("td", { class: "num" }, card.corner_value || ""),
      el("td", { class: "num counter" },
        el("button", { type: "button", class: "less", "aria-label": `One fewer ${title}`, disabled: true,
          onclick: () => setCount(card.id, (builder.counts.get(card.id) || 0) - 1) }, "−"),
        input,
        el("button", { type: "button", class: "more", "aria-label": `One more ${title}`,
          onclick: () => setCount(card.id, (builder.counts.get(card.id) || 0) + 1) }, "+")));
  }

  function setCount(cardId, n) {
    const copies = Math.max(0, Math.min(MAX_COPIES, Math.floor(Number.isFinite(n) ? n : 0)));
    if (copies) builder.counts.set(cardId, copies);
    else builder.counts.delete(cardId);
    showCount(cardId);
    changed();
  }

  function showCount(cardId) {
    const row = builder.rows.get(cardId);
    if (!row) return;
    const n = builder.counts.get(cardId) || 0;
    row.querySelector("input.copies").value = n;
    row.classList.toggle("in-deck", n > 0);
    row.querySelector("button.less").disabled = n === 0;
  }

  /* ---- search and type filters ---- */
  function filter() {
    const words = $("card-search").value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    const type = $("type-filter").value;
    const onlyInDeck = $("only-in-deck").checked;
    let shown = 0;
    for (const [id, row] of builder.rows) {
      const card = builder.cards.get(id);
      const haystack = `${card.title} ${card.text || ""} ${card.type || ""}`.toLowerCase();
      const visible = words.every((word) => haystack.includes(word)) && (!type || (card.type || "Thing") === type)
        && (!onlyInDeck || builder.counts.get(id) > 0);
      row.hidden = !visible;
      if (visible) shown += 1;
    }
    $("pool-count").textContent = `${Ccg.count(shown, "card")} of ${builder.cards.size} shown.`;
  }

  /* ---- the deck's side: size, what it holds, its validity as the API says ---- */
  function changed() {
    summary();
    if ($("only-in-deck").checked) filter();
    saveStatus();
    scheduleCheck();
  }

  function summary() {
    const list = entries();
    const size = list.reduce((total, entry) => total + entry.count, 0);
    $("deck-size").textContent = size;
    const byType = new Map();
    for (const { card, count } of list) {
      const type = builder.cards.get(card)?.type || "Thing";
      byType.set(type, (byType.get(type) || 0) + count);
    }
    $("by-type").textContent = [...byType].map(([type, n]) => `${type} ${n}`).join(" · ");
    const deckList = $("deck-list");
    deckList.textContent = "";
    for (const { card, count } of list) {
      const title = builder.cards.get(card)?.title || `Card ${card}`;
      deckList.append(el("li", { "data-card": card },
        el("span", { class: "n" }, `${count} ×`), " ", title, " ",
        el("button", { type: "button", class: "link", "aria-label": `Take one ${title} out`,
          onclick: () => setCount(card, count - 1) }, "−")));
    }
  }

  let checkTimer = null;
  function scheduleCheck() {
    $("deck-valid").textContent = "Checking…";
    $("deck-validity").className = "validity checking";
    clearTimeout(checkTimer);
    checkTimer = setTimeout(check, 150);
  }

  async function check() {
    const asked = ++builder.checks;
    try {
      const verdict = await api("POST", `${API}player-decks/check/`,
        { card_set: cfg.card_set, version: builder.version.version, entries: entries() });
      if (asked === builder.checks) showVerdict(verdict);
    } catch (error) {
      if (asked === builder.checks) showError(errorBox, error);
    }
  }

  function showVerdict({ valid, problems }) {
    $("deck-valid").textContent = valid ? "Valid: this deck may be played." : "Not valid yet:";
    $("deck-validity").className = `validity ${valid ? "valid" : "invalid"}`;
    const list = $("deck-problems");
    list.textContent = "";
    list.append(...problems.map((problem) => el("li", {}, problem)));
  }

  function saveStatus() {
    const status = $("save-status");
    if (builder.deck && builder.deck.in_game) status.textContent = "A game is playing it.";
    else status.textContent = !builder.deck ? "Not saved yet." : dirty() ? "Unsaved changes." : "Saved.";
    $("save-deck").textContent = builder.deck ? "Save changes" : "Save deck";
  }

  /* ---- a saved deck, as the API answered it ---- */
  async function showDeck(deck) {
    builder.deck = deck;
    await loadVersion(deck.version);
    builder.counts = new Map(deck.entries.map((entry) => [entry.card, entry.count]));
    $("deck-name").value = deck.name;
    builder.saved = snapshot();
    for (const id of builder.rows.keys()) showCount(id);
    summary();
    filter();
    showVerdict(deck);
    saveStatus();
    const url = `/player-decks/${deck.id}/`;
    if (window.location.pathname !== url) window.history.replaceState(null, "", url);
    document.title = `${deck.name} · Dvorak`;
    $("builder-title").firstChild.textContent = `${deck.name} `;
    $("builder").dataset.mode = "tune";
    $("exports").hidden = false;
    $("exports-unsaved").hidden = true;
    $("export-cod").href = `${API}player-decks/${deck.id}/export/cod/`;
    $("export-o8d").href = `${API}player-decks/${deck.id}/export/o8d/`;
    $("deck-version").textContent = `Built on version ${deck.version} of the set` +
      (deck.latest_version > deck.version ? `, which is now at version ${deck.latest_version}.` : " (its latest).");
    $("in-game").hidden = !deck.in_game;
    $("save-deck").disabled = deck.in_game;
    $("delete-deck").hidden = false;
    await showOutdated(deck);
  }

  async function save() {
    showError(errorBox, null);
    const button = $("save-deck");
    button.disabled = true;
    try {
      const body = { name: deckName(), entries: entries() };
      const deck = builder.deck
        ? await api("PATCH", `${API}player-decks/${builder.deck.id}/`, body)
        : await api("POST", `${API}player-decks/`, { card_set: cfg.card_set, ...body },
          { "Idempotency-Key": `deck-${cfg.card_set}-${Date.now()}-${Math.random().toString(36).slice(2)}` });
      await showDeck(deck);
    } catch (error) {
      showError(errorBox, error);
    } finally {
      button.disabled = Boolean(builder.deck && builder.deck.in_game);
    }
  }

  /* ---- a deck left on an older version: what the newer one changed, and updating in one click ---- */
  const SHOWN_FIELDS = ["title", "type", "text", "corner_value", "flavor", "stats"];
  async function showOutdated(deck) {
    const panel = $("outdated");
    if (deck.latest_version <= deck.version) { panel.hidden = true; return; }
    const slug = encodeURIComponent(cfg.card_set);
    const [latest, versions] = await Promise.all([
      api("GET", `${API}decks/${slug}/versions/${deck.latest_version}/`), Ccg.allOf(`${API}decks/${slug}/versions/`)]);
    const newer = new Map(latest.cards.map((card) => [card.id, card]));
    $("outdated-summary").textContent = `It is built on version ${deck.version}; the set is now at version ` +
      `${deck.latest_version}. Updating brings it there: changed cards follow, removed cards are taken out.`;
    const diff = $("outdated-diff");
    diff.textContent = "";
    for (const entry of deck.entries) {
      const after = newer.get(entry.card);
      if (!after) {
        diff.append(el("li", { class: "removed" }, el("strong", {}, entry.title), ` (${entry.count} ${entry.count === 1 ? "copy" : "copies"}) is no longer in the set: it will be taken out.`));
        continue;
      }
      const before = builder.cards.get(entry.card) || {};
      const fields = SHOWN_FIELDS.filter((name) => JSON.stringify(before[name] ?? "") !== JSON.stringify(after[name] ?? ""));
      if (!fields.length) continue;
      diff.append(el("li", { class: "changed" }, el("strong", {}, entry.title), " changed: ",
        ...fields.map((name) => el("span", { class: "field" }, el("em", {}, name), " ",
          el("del", {}, show(before[name])), " → ", el("ins", {}, show(after[name]))))));
    }
    if (!diff.children.length) diff.append(el("li", {}, "None of this deck's cards changed."));
    const changelog = $("outdated-changelog");
    changelog.textContent = "";
    for (const version of versions.filter((v) => v.number > deck.version)) {
      changelog.append(el("li", {}, el("strong", {}, `Version ${version.number}: `), version.changelog.join("; ")));
    }
    panel.hidden = false;
  }
  function show(value) {
    if (value === undefined || value === null || value === "") return "(none)";
    return typeof value === "object" ? JSON.stringify(value) : String(value);
  }

  async function update() {
    showError(errorBox, null);
    const button = $("update-deck");
    button.disabled = true;
    try {
      const deck = await api("POST", `${API}player-decks/${builder.deck.id}/update/`);
      await showDeck(deck);
      const said = [];
      if (deck.removed.length) said.push(`taken out: ${deck.removed.join(", ")}`);
      if (deck.changed.length) said.push(`changed: ${deck.changed.join(", ")}`);
      $("save-status").textContent = `Updated to version ${deck.version}` + (said.length ? ` (${said.join("; ")}).` : ".");
    } catch (error) {
      showError(errorBox, error);
    } finally {
      button.disabled = false;
    }
  }

  /* ---- files: import a Cockatrice deck as a new deck ---- */
  async function importFile(event) {
    event.preventDefault();
    showError(errorBox, null);
    const form = event.target;
    if (dirty() && builder.deck && !window.confirm("Import as a new deck, leaving this one's unsaved changes?")) return;
    const data = new FormData(form);
    data.append("card_set", cfg.card_set);
    if (!data.get("name")) data.delete("name");
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const deck = await Ccg.upload(`${API}player-decks/import/`, data);
      form.reset();
      await showDeck(deck);
      $("save-status").textContent = "Imported and saved as a new deck.";
    } catch (error) {
      showError(errorBox, error);
    } finally {
      button.disabled = false;
    }
  }

  async function register() {
    showError(errorBox, null);
    try {
      await api("POST", `${API}decks/${encodeURIComponent(cfg.card_set)}/register/`);
      $("registration").hidden = true;
    } catch (error) {
      showError(errorBox, error);
    }
  }

  async function remove() {
    if (!window.confirm(`Delete the deck "${builder.deck.name}"?`)) return;
    try {
      await api("DELETE", `${API}player-decks/${builder.deck.id}/`);
      builder.saved = snapshot();
      window.location.href = cfg.links.my_decks;
    } catch (error) {
      showError(errorBox, error);
    }
  }

  /* ---- wiring ---- */
  $("card-search").addEventListener("input", filter);
  $("type-filter").addEventListener("change", filter);
  $("only-in-deck").addEventListener("change", filter);
  $("deck-name").addEventListener("input", saveStatus);
  $("save-deck").addEventListener("click", save);
  $("update-deck").addEventListener("click", update);
  $("import-form").addEventListener("submit", importFile);
  $("register").addEventListener("click", register);
  $("delete-deck").addEventListener("click", remove);
  window.addEventListener("beforeunload", (event) => {
    if (builder.version && dirty() && entries().length) event.preventDefault();
  });

  async function start() {
    $("registration").hidden = cfg.registered;
    if (cfg.player_deck) {
      await showDeck(await api("GET", `${API}player-decks/${cfg.player_deck}/`));
    } else {
      await loadVersion(cfg.version);
      builder.saved = snapshot();
      summary();
      filter();
      saveStatus();
      $("deck-version").textContent = `A new deck is built on version ${cfg.version} of the set, its latest.`;
      check();
    }
    builder.ready = true;
  }
  start().catch((error) => showError(errorBox, error));
})();
