/* The lobby: decks to create a game from, open games to join, your games, games to watch — all from the API. A CCG
   game (and Filibuster's, CCG by default) is created and joined with one of the player's valid decks of its set. */
"use strict";

(function () {
  const { api, showError, el } = Play;
  const root = document.getElementById("lobby");
  const API = root.dataset.api;
  const errorBox = document.getElementById("lobby-error");
  const decks = new Map();
  let playerDecks = [];  // the player's own decks of CCG card sets (GET /player-decks/), for CCG games

  async function loadPlayerDecks() {
    playerDecks = await Ccg.playerDecks(API);
    showPlayerDeckChoice();
  }

  /* A game that will be CCG (the variant chosen, or Filibuster's own) takes one of the player's decks of its set. */
  function showPlayerDeckChoice() {
    const form = document.getElementById("create-game");
    const deck = decks.get(form.elements.deck.value);
    const variant = form.elements.variant.value;
    const ruleset = form.elements.ruleset.value || (deck && deck.ruleset) || "dvorak";
    const ccg = Boolean(deck) && (variant === "ccg" || (variant === "" && ruleset === "filibuster"));
    const choice = document.getElementById("player-deck-choice");
    const picker = document.getElementById("player-deck-picker");
    const hint = document.getElementById("player-deck-hint");
    choice.hidden = !ccg;
    hint.hidden = true;
    hint.textContent = "";
    if (!deck) return;
    const build = Ccg.buildLink(deck.slug, "Build a deck");
    if (!ccg) {
      if (deck.kind === "card_set" && variant === "") {
        hint.hidden = false;
        hint.append("A CCG card set: choose the ccg variant to play with a deck of your own built from it. ", build, ".");
      }
      return;
    }
    const chosen = picker.value;
    const mine = playerDecks.filter((own) => own.card_set === deck.slug);
    picker.textContent = "";
    for (const own of mine) {
      picker.append(el("option", { value: own.id, disabled: !own.valid },
        `${own.name} (${own.size} cards${own.valid ? "" : ", not valid"})`));
    }
    const valid = Ccg.validDecksOf(playerDecks, deck.slug);
    if (valid.some((own) => String(own.id) === chosen)) picker.value = chosen;
    else if (valid.length) picker.value = String(valid[0].id);
    if (!valid.length) {
      picker.append(el("option", { value: "", selected: true }, "no valid deck of this set"));
      hint.hidden = false;
      hint.append("Each player brings a deck built from this card set. ", build, ", then come back.");
    }
  }

  /* Joining a CCG game: one of your valid decks of its set, chosen beside the button. */
  function joinControls(game) {
    let select = null;
    const button = el("button", { type: "button", class: "join", onclick: () => join(game, select) }, "Join");
    if (game.variant !== "ccg") return button;
    const choice = Ccg.deckChoice({ slug: game.deck, valid: Ccg.validDecksOf(playerDecks, game.deck), button,
      label: "Your deck for this game", build: "Build a deck to join" });
    select = choice.select;
    return choice.node;
  }

  async function allPages(url) {
    const results = [];
    while (url) {
      const page = await api("GET", url);
      results.push(...page.results);
      url = page.next;
    }
    return results;
  }

  async function loadDecks() {
    const picker = document.getElementById("deck-picker");
    const list = await allPages(API + "decks/");
    picker.textContent = "";
    picker.append(el("option", { value: "" }, "Choose a deck…"));
    for (const deck of list) {
      decks.set(deck.slug, deck);
      picker.append(el("option", { value: deck.slug },
        `${deck.title} (${deck.ruleset || "dvorak"}, ${deck.card_count} cards)`));
    }
    picker.addEventListener("change", () => {
      const deck = decks.get(picker.value);
      document.getElementById("deck-ruleset").textContent = deck
        ? `This deck plays the ${deck.ruleset || "dvorak"} ruleset unless you choose another.` : "";
      showPlayerDeckChoice();
    });
    // A deck page's "Play this deck" link names its deck: /play/?deck=<slug>.
    const wanted = new URLSearchParams(window.location.search).get("deck");
    if (wanted && decks.has(wanted)) {
      picker.value = wanted;
      picker.dispatchEvent(new Event("change"));
    }
  }

  function tableLink(game, text) {
    return el("a", { href: `/play/${game.id}/` }, text);
  }

  async function join(game, deckPicker) {
    showError(errorBox, null);
    const body = {};
    if (game.variant === "ccg" && deckPicker) body.player_deck = Number(deckPicker.value);
    if (game.variant === "team") {
      const team = window.prompt("Which team do you join?");
      if (!team) return;
      body.team = team;
    }
    try {
      await api("POST", `${API}games/${game.id}/join/`, body);
      window.location.href = `/play/${game.id}/`;
    } catch (error) {
      showError(errorBox, error);
    }
  }

  function fill(tableId, games, action) {
    const table = document.getElementById(tableId);
    table.textContent = "";
    if (!games.length) {
      table.append(el("tbody", {}, el("tr", {}, el("td", { class: "muted" }, "None."))));
      return;
    }
    table.append(el("thead", {}, el("tr", {}, ["Deck", "Ruleset", "Status", "Players", "Version", ""].map((h) => el("th", {}, h)))));
    table.append(el("tbody", {}, games.map((game) => el("tr", { "data-game": game.id },
      el("td", {}, game.deck_title || game.deck),
      el("td", {}, game.ruleset + (game.variant !== "standard" ? ` (${game.variant})` : "") + (game.creative ? ", creative" : "")),
      el("td", {}, game.status),
      el("td", {}, `${game.players.join(", ")} (${game.players.length}/${game.max_players})`),
      el("td", {}, game.version),
      el("td", {}, action(game))))));
  }

  /* The invitations among your notices (newest first, one per game): a button to take your seat while the table is
     open and waits for you, else where the game stands. */
  function fillInvitations(notices, invitedOpen, mine) {
    const seen = new Set();
    const invitations = notices.filter((notice) => notice.data && notice.data.kind === "invitation" && notice.data.game
      && !seen.has(notice.data.game) && seen.add(notice.data.game));
    const panel = document.getElementById("invitations-panel");
    const list = document.getElementById("invitations");
    list.textContent = "";
    panel.hidden = !invitations.length;
    const open = new Map(invitedOpen.map((game) => [game.id, game]));
    const seated = new Set(mine.map((game) => game.id));
    for (const notice of invitations) {
      const id = notice.data.game;
      const game = open.get(id);
      const link = el("a", { href: `/play/${id}/` }, "Go to the table");
      let where;
      if (seated.has(id)) where = el("span", { class: "muted" }, "You have taken your seat.");
      else if (game && game.players.length < game.max_players) {
        where = joinControls(game);
      } else where = el("span", { class: "muted" }, game ? "The table is full." : "The table is no longer open.");
      list.append(el("li", { "data-game": id },
        el("strong", {}, notice.subject || `${notice.data.from} invites you to a game`),
        game ? el("span", { class: "muted" }, `${game.players.join(", ")} (${game.players.length}/${game.max_players})`) : null,
        where, link));
    }
  }

  async function loadGames() {
    const username = document.querySelector(".account .who")?.textContent;
    const [mine, open, all, notices, invitedOpen] = await Promise.all([
      allPages(API + "games/?mine=1"), allPages(API + "games/?status=open"), allPages(API + "games/"),
      api("GET", API + "notifications/"), allPages(API + "games/?status=open&invited=1")]);
    fillInvitations(notices, invitedOpen, mine);
    fill("my-games", mine, (game) => tableLink(game, ["finished", "abandoned", "cancelled"].includes(game.status) ? "Replay" : "Open table"));
    const joinable = open.filter((game) => !game.players.includes(username) && game.players.length < game.max_players);
    fill("open-games", joinable, joinControls);
    // A cancelled game was never played: nothing to watch.
    const watchable = all.filter((game) => !game.players.includes(username) && game.status !== "cancelled");
    fill("watch-games", watchable, (game) => tableLink(game, "Watch"));
  }

  document.getElementById("create-game").addEventListener("submit", async (event) => {
    event.preventDefault();
    showError(errorBox, null);
    const form = new FormData(event.target);
    const body = { deck: form.get("deck"), creative: form.get("creative") === "on" };
    if (form.get("variant")) body.variant = form.get("variant");  // else the ruleset's own (Filibuster's: ccg)
    if (form.get("ruleset")) body.ruleset = form.get("ruleset");
    if (form.get("max_players")) body.max_players = Number(form.get("max_players"));
    let options = {};
    try {
      options = form.get("options") ? JSON.parse(form.get("options")) : {};
    } catch (e) {
      showError(errorBox, { message: "More options must be a JSON object, such as {\"blank_cards\": 20}.", code: "invalid" });
      return;
    }
    if (form.get("spectators") !== "anyone") options.spectators = form.get("spectators");
    if (form.get("team")) options.team = form.get("team");
    if (form.get("invite_only") === "on") options.invite_only = true;
    if (!document.getElementById("player-deck-choice").hidden && form.get("player_deck")) {
      options.player_deck = Number(form.get("player_deck"));
    }
    const kind = form.get("clock");
    if (kind === "per_move") options.clock = { per_move: Number(form.get("per_move")) };
    if (kind === "bank") options.clock = { initial: Number(form.get("initial")), increment: Number(form.get("increment") || 0) };
    const invite = String(form.get("invite") || "").split(",").map((name) => name.trim()).filter(Boolean);
    if (invite.length) body.invite = invite;
    if (Object.keys(options).length) body.options = options;
    try {
      const game = await api("POST", API + "games/", body);
      window.location.href = `/play/${game.id}/`;
    } catch (error) {
      showError(errorBox, error);
    }
  });

  // The clock's fields: those of the kind of clock chosen.
  const clockKind = document.getElementById("clock-kind");
  clockKind.addEventListener("change", () => {
    document.querySelectorAll("#clock-choice [data-clock]").forEach((label) => { label.hidden = label.dataset.clock !== clockKind.value; });
  });
  clockKind.dispatchEvent(new Event("change"));

  for (const name of ["ruleset", "variant"]) {
    document.getElementById("create-game").elements[name].addEventListener("change", showPlayerDeckChoice);
  }

  // The player's decks first: the open CCG games offer them to join with.
  Promise.all([loadDecks(), loadPlayerDecks().then(loadGames)]).then(showPlayerDeckChoice)
    .catch((error) => showError(errorBox, error));
})();
