/* A card set's versions and changes: the changes read from the API, answered (accept, object; the proposer's own
   objection withdraws it) and proposed through it by registered players, the versions list read again when an
   accepted change may have made a new one. Nothing here reloads the page. */
"use strict";

(function () {
  const { api, showError, el } = Play;
  const cfg = Ccg.config();
  const API = cfg.api;
  const SET = `${API}decks/${encodeURIComponent(cfg.card_set)}/`;
  const $ = (id) => document.getElementById(id);
  const errorBox = $("changes-error");
  const page = { registered: cfg.registered, cards: new Map(), changes: new Map(), version: null };
  window.setChanges = page;  // for the browser tests and the curious

  const FIELD_NAMES = { title: "title", type: "type", text: "text", corner_value: "value", copies: "copies",
    flavor: "flavor", creator: "creator", stats: "stats", out_of_turn: "out of turn", effect: "effect" };

  function cardTitle(id) {
    const card = page.cards.get(id);
    return card ? `“${card.title}”` : `card ${id}`;
  }

  function heading(change) {
    if (change.kind === "add") return `Add ${change.content.title ? `“${change.content.title}”` : "a card"}`;
    if (change.kind === "remove") return `Remove ${cardTitle(change.card)}`;
    return `Change ${cardTitle(change.card)}`;
  }

  function when(iso) {
    return iso ? new Date(iso).toLocaleString() : "";
  }

  function shown(value) {
    if (value === undefined || value === null || value === "") return "(none)";
    return typeof value === "object" ? JSON.stringify(value) : String(value);
  }

  /* A field a change gives: for an open change of a card, what the latest version has beside what it would be. */
  function fieldChange(change, name, value) {
    const card = change.kind === "change" && change.status === "open" ? page.cards.get(change.card) : null;
    if (!card) return [shown(value)];
    return [el("del", {}, shown(card[name])), " → ", el("ins", {}, shown(value))];
  }

  function changeItem(change) {
    const votes = Object.entries(change.votes || {});
    const accepted = votes.filter(([, yes]) => yes).map(([name]) => name);
    const objected = votes.filter(([, yes]) => !yes).map(([name]) => name);
    const content = Object.entries(change.content || {});
    const facts = [`proposed by ${change.author || "someone"}`, when(change.created_at)];
    if (change.status === "open") facts.push(`answers close ${when(change.deadline)}`);
    else if (change.decided_at) facts.push(`decided ${when(change.decided_at)}`);
    if (change.version) facts.push(`in version ${change.version}`);
    return el("li", { class: `change ${change.status}`, id: `change-${change.id}`, "data-change": change.id },
      el("h3", {}, `#${change.id} ${heading(change)} · `, el("span", { class: "status" }, change.status)),
      el("p", { class: "muted" }, facts.filter(Boolean).join(" · ")),
      content.length ? el("dl", { class: "content" }, content.flatMap(([name, value]) => [
        el("dt", {}, FIELD_NAMES[name] || name),
        el("dd", {}, ...fieldChange(change, name, value))])) : null,
      el("p", { class: "votes" },
        accepted.length ? `Accepted by ${accepted.join(", ")}.` : "",
        objected.length ? ` Objected to by ${objected.join(", ")}.` : ""),
      answers(change));
  }

  function answers(change) {
    if (change.status !== "open" || !cfg.signed_in || !page.registered) return null;
    const mine = (change.votes || {})[cfg.username];
    const own = change.author === cfg.username;
    const box = el("div", { class: "answers" });
    if (mine !== undefined) box.append(el("span", { class: "muted" }, mine ? "You accept it." : "You object to it."));
    if (mine !== true && !own) box.append(el("button", { type: "button", class: "accept", onclick: () => answer(change, "accept") }, "Accept"));
    if (own) {
      box.append(el("button", { type: "button", class: "withdraw", onclick: () => answer(change, "object") }, "Withdraw"),
        el("span", { class: "muted" }, "(your objection to your own change rejects it)"));
    } else if (mine !== false) {
      box.append(el("button", { type: "button", class: "object", onclick: () => answer(change, "object") }, "Object"));
    }
    return box;
  }

  function showChanges() {
    const all = [...page.changes.values()].sort((a, b) => a.id - b.id);
    const open = all.filter((change) => change.status === "open");
    const decided = all.filter((change) => change.status !== "open").reverse();
    for (const [id, list, none] of [["open-changes", open, "No change is open."], ["decided-changes", decided, "None yet."]]) {
      const target = $(id);
      target.textContent = "";
      target.append(...(list.length ? list.map(changeItem) : [el("li", { class: "muted" }, none)]));
    }
  }

  async function answer(change, how) {
    showError(errorBox, null);
    try {
      const answered = await api("POST", `${SET}changes/${change.id}/${how}/`);
      page.changes.set(answered.id, answered);
      showChanges();
      if (answered.status === "accepted") await showVersions();
    } catch (error) {
      showError(errorBox, error);
      if (error.code === "change_decided") await loadChanges();
    }
  }

  async function loadChanges() {
    const changes = await Ccg.allOf(`${SET}changes/`);
    page.changes = new Map(changes.map((change) => [change.id, change]));
    showChanges();
  }

  /* The latest version's cards: their titles name the changes, and a change or removal chooses among them. */
  async function loadCards() {
    const versions = await Ccg.allOf(`${SET}versions/`);
    const latest = versions[versions.length - 1];
    const content = await api("GET", `${SET}versions/${latest.number}/`);
    page.version = content.version;
    page.cards = new Map(content.cards.map((card) => [card.id, card]));
    const picker = $("change-card");
    const chosen = picker.value;
    picker.textContent = "";
    picker.append(...content.cards.map((card) => el("option", { value: card.id }, `${card.title} (${card.type || "Thing"})`)));
    if (page.cards.has(Number(chosen))) picker.value = chosen;
    const types = $("card-types");
    types.textContent = "";
    types.append(...[...new Set(content.cards.map((card) => card.type).filter(Boolean))].sort().map((type) => el("option", { value: type })));
    return versions;
  }

  async function showVersions() {
    const versions = await loadCards();
    const list = $("versions");
    list.textContent = "";
    versions.slice().reverse().forEach((version, index) => {
      list.append(el("li", { id: `version-${version.number}` },
        el("h3", {}, `Version ${version.number}`, index === 0 ? [" ", el("span", { class: "tag" }, "latest")] : null,
          el("span", { class: "muted" }, ` · ${when(version.created_at)}`)),
        el("ul", {}, version.changelog.map((line) => el("li", {}, line))),
        version.problems.map((problem) => el("p", { class: "set-problem" }, problem.message))));
    });
    showChanges();
  }

  /* ---- proposing ---- */
  const form = $("propose-change");
  function showKind() {
    const kind = $("change-kind").value;
    form.querySelectorAll("[data-for]").forEach((label) => { label.hidden = !label.dataset.for.split(" ").includes(kind); });
    if (kind === "change") fillFromCard();
  }
  function fillFromCard() {
    const card = page.cards.get(Number($("change-card").value));
    if (!card) return;
    for (const name of ["title", "type", "corner_value", "text"]) form.elements[name].value = card[name] || "";
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    showError(errorBox, null);
    const kind = $("change-kind").value;
    const body = { kind };
    const fields = ["title", "type", "corner_value", "text"];
    if (kind === "add") {
      body.content = {};
      for (const name of fields) if (form.elements[name].value.trim()) body.content[name] = form.elements[name].value.trim();
      body.content.copies = Number(form.elements.copies.value || 1);
    } else {
      body.card = Number($("change-card").value);
      if (kind === "change") {
        const card = page.cards.get(body.card) || {};
        body.content = {};
        for (const name of fields) {
          const value = form.elements[name].value.trim();
          if (value !== (card[name] || "")) body.content[name] = value;
        }
      }
    }
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const change = await api("POST", `${SET}changes/`, body);
      page.changes.set(change.id, change);
      form.reset();
      showKind();
      showChanges();
      if (change.status === "accepted") await showVersions();
    } catch (error) {
      showError(errorBox, error);
    } finally {
      button.disabled = false;
    }
  });
  $("change-kind").addEventListener("change", showKind);
  $("change-card").addEventListener("change", fillFromCard);

  /* ---- registering ---- */
  const register = $("register");
  if (register) {
    register.addEventListener("click", async () => {
      showError(errorBox, null);
      register.disabled = true;
      try {
        const answer = await api("POST", `${SET}register/`);
        page.registered = true;
        register.hidden = true;
        $("registered").hidden = false;
        $("players-count").textContent = `${answer.players} registered player${answer.players === 1 ? "" : "s"}.`;
        $("propose-panel").hidden = false;
        showChanges();
      } catch (error) {
        showError(errorBox, error);
        register.disabled = false;
      }
    });
  }

  // The changes are shown as soon as they come, and again once the cards that name them have come.
  Promise.all([loadCards(), loadChanges()]).then(() => { showKind(); showChanges(); })
    .catch((error) => showError(errorBox, error));
})();
