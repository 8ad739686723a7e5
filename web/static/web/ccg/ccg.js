/* What the CCG pages share, on top of the play client's toolkit (common.js): the page's config, the API's lists
   read to their end (a keyset list continues at its Link: rel="next"), a file sent as multipart with the
   session's CSRF token, and the choice of a player's deck that every way to a CCG table offers (the lobby, the
   table, a card set's "Play against the computer"). No framework, no build step. */
"use strict";

const Ccg = (function () {
  const { ApiError, cookie, el } = Play;

  function config() {
    return JSON.parse(document.getElementById("ccg-config").textContent);
  }

  async function answer(response) {
    const text = await response.text();
    let data = null;
    if (text) {
      try { data = JSON.parse(text); } catch (e) { data = null; }
    }
    if (!response.ok) throw new ApiError(response.status, data);
    return data;
  }

  /* Every item of a list the API gives as a JSON array in slices (versions, changes, player decks). */
  async function allOf(url) {
    const items = [];
    while (url) {
      const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
      items.push(...(await answer(response)));
      const link = response.headers.get("Link") || "";
      const next = link.match(/<([^>]+)>;\s*rel="next"/);
      url = next ? next[1] : null;
    }
    return items;
  }

  /* A form (with a file) sent as multipart/form-data: JSON back, or an ApiError. */
  async function upload(url, formData) {
    const response = await fetch(url, {
      method: "POST", credentials: "same-origin", body: formData,
      headers: { Accept: "application/json", "X-CSRFToken": cookie("csrftoken") },
    });
    return answer(response);
  }

  /* "3 copies", "1 card": a count with its noun. */
  function count(n, noun) {
    return `${n} ${noun}${n === 1 ? "" : "s"}`;
  }

  /* The signed-in player's own decks (GET /player-decks/), each with its card set, size and validity. */
  function playerDecks(api) {
    return allOf(api + "player-decks/");
  }

  /* The decks of `decks` that may be brought to a CCG game of the card set `slug`: its own, and valid. */
  function validDecksOf(decks, slug) {
    return decks.filter((deck) => deck.card_set === slug && deck.valid);
  }

  function buildLink(slug, text) {
    return el("a", { href: `/decks/${encodeURIComponent(slug)}/build/`, class: "build-deck" }, text);
  }

  /* A seat at a CCG table is taken with one of your valid decks of its set: `{select, node}`, the choice of them
     (`chosen` first, when it is one), beside `button` when one is given; without a valid deck, no choice and no
     button but a sentence saying so, with `build` (a link's text) to the set's deck builder. */
  function deckChoice({ slug, valid, button, label, build, chosen }) {
    if (!valid.length) {
      return { select: null, node: el("span", { class: "no-deck" }, "You have no valid deck of this set. ", buildLink(slug, build), ".") };
    }
    const select = el("select", { class: "join-deck", name: "player_deck", "aria-label": label },
      valid.map((own) => el("option", { value: own.id }, `${own.name} (${own.size} cards)`)));
    if (valid.some((own) => own.id === chosen)) select.value = String(chosen);
    return { select, node: button ? el("span", { class: "join-with" }, select, " ", button) : select };
  }

  return { config, allOf, upload, count, playerDecks, validDecksOf, buildLink, deckChoice };
})();
