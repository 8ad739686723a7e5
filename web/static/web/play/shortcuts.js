/* Ways to a table from outside the play pages, through the API as the lobby and the table act: a deck page's "Play
   against the computer" (a game of that deck, a computer player seated, the game started, its table opened) and,
   on a table closed to watchers, an invited player's "Take your seat". */
"use strict";

(function () {
  const { api, showError, el } = Play;
  const API = "/api/v1/";

  const computer = document.getElementById("play-computer");
  if (computer) {
    const errorBox = document.getElementById("play-computer-error");
    computer.addEventListener("submit", async (event) => {
      event.preventDefault();
      showError(errorBox, null);
      const button = computer.querySelector("button[type=submit]");
      const level = computer.querySelector("select[name=level]").value;
      button.disabled = true;
      let game = null;
      try {
        game = await api("POST", API + "games/", { deck: computer.dataset.deck });
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

  const takeSeat = document.getElementById("take-seat");
  if (takeSeat) {
    const errorBox = document.getElementById("take-seat-error");
    takeSeat.addEventListener("click", async () => {
      showError(errorBox, null);
      const body = {};
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
