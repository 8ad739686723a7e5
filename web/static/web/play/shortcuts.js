/* Ways to a table from outside the play pages, through the API as the lobby and the table act: a deck page's "Play
   against the computer" (a game of that deck, a computer player seated, the game started, its table opened; for a
   card set played with player decks, with one of yours, the computer player playing a copy of it) and, on a table
   closed to watchers, an invited player's "Take your seat". */
"use strict";

(function () {
  const { api, showError, el } = Play;
  const API = "/api/v1/";

  const computer = document.getElementById("play-computer");
  if (computer) {
    const errorBox = document.getElementById("play-computer-error");
    const button = computer.querySelector("button[type=submit]");
    // A card set played with player decks: the game is made with one of yours (the computer player's is a copy).
    const place = document.getElementById("play-computer-deck");
    const deck = place ? chooseDeck(computer.dataset.deck, place, button, errorBox) : { select: null };
    computer.addEventListener("submit", async (event) => {
      event.preventDefault();
      showError(errorBox, null);
      const level = computer.querySelector("select[name=level]").value;
      button.disabled = true;
      let game = null;
      try {
        const body = { deck: computer.dataset.deck };
        if (deck.select) body.options = { player_deck: Number(deck.select.value) };
        game = await api("POST", API + "games/", body);
        const seat = () => api("POST", `${API}games/${game.id}/bots/`, { level });
        await seat();
        // A ruleset for more than two starts once enough computer players sit at the table.
        for (let added = 1; ; added++) {
          try {
            await api("POST", `${API}games/${game.id}/start/`);
            break;
          } catch (error) {
            if (error.code !== "not_enough_players" || added >= 19) throw error;
            await seat();
          }
        }
        window.location.href = `/play/${game.id}/`;
      } catch (error) {
        showError(errorBox, error);
        if (game) errorBox.append(" ", el("a", { href: `/play/${game.id}/` }, "Go to the table"));
        button.disabled = false;
      }
    });
  }

  /* A card set played with player decks: one of yours, chosen in place of `placeholder`, which leaves `button`
     disabled while you have none (saying so, with a link to the deck builder). The choice, once read. */
  function chooseDeck(slug, placeholder, button, errorBox) {
    const chosen = { select: null };
    button.disabled = true;
    Ccg.playerDecks(API).then((decks) => {
      const choice = Ccg.deckChoice({ slug, valid: Ccg.validDecksOf(decks, slug), label: "Your deck for this game",
        build: "Build a deck" });
      chosen.select = choice.select;
      placeholder.replaceWith(choice.select ? el("label", {}, "Your deck ", choice.select) : choice.node);
      button.disabled = !choice.select;
    }).catch((error) => showError(errorBox, error));
    return chosen;
  }

  const takeSeat = document.getElementById("take-seat");
  if (takeSeat) {
    const errorBox = document.getElementById("take-seat-error");
    const place = document.getElementById("take-seat-deck");
    const deck = place ? chooseDeck(takeSeat.dataset.deck, place, takeSeat, errorBox) : { select: null };
    takeSeat.addEventListener("click", async () => {
      showError(errorBox, null);
      const body = {};
      if (deck.select) body.player_deck = Number(deck.select.value);
      if (takeSeat.dataset.variant === "team") {
        const team = window.prompt("Which team do you join?");
        if (!team) return;
        body.team = team;
      }
      takeSeat.disabled = true;
      try {
        await api("POST", `${API}games/${takeSeat.dataset.game}/join/`, body);
        window.location.reload();
      } catch (error) {
        showError(errorBox, error);
        takeSeat.disabled = false;
      }
    });
  }
})();
