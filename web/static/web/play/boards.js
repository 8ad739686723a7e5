/* Board views: one fitted to each ruleset that has a board of its own, and a generic one (the board as readable
   tables) for anything else. Every view draws only what the state shows the viewer. */
"use strict";

const Boards = (function () {
  const { el } = Play;
  const SEAT_COLOURS = ["#2a5d8f", "#b5452b", "#3c8a3a", "#8a5a9e", "#b08a1a", "#4f7f86"];
  const seatColour = (seat) => SEAT_COLOURS[(seat || 0) % SEAT_COLOURS.length];

  /* Any JSON value as nested tables: an object as key/value rows, a list of objects as a table of columns. */
  function jsonTable(value, depth) {
    depth = depth || 0;
    if (value === null || value === undefined) return el("span", { class: "muted" }, "—");
    if (typeof value !== "object") return String(value);
    if (Array.isArray(value)) {
      if (!value.length) return el("span", { class: "muted" }, "none");
      if (value.every((item) => item && typeof item === "object" && !Array.isArray(item))) {
        const columns = [...new Set(value.flatMap((item) => Object.keys(item)))];
        return el("table", { class: "json" },
          el("thead", {}, el("tr", {}, columns.map((c) => el("th", {}, c)))),
          el("tbody", {}, value.map((item) => el("tr", {}, columns.map((c) => el("td", {}, jsonTable(item[c], depth + 1)))))));
      }
      return value.map((item) => (typeof item === "object" ? jsonTable(item, depth + 1) : String(item))).reduce(
        (acc, item, i) => (i ? acc.concat([", ", item]) : [item]), []);
    }
    if (!Object.keys(value).length) return el("span", { class: "muted" }, "none");
    if (value.title !== undefined && value.id !== undefined && depth > 0) {
      return el("span", { class: "card-ref", title: value.text || "" }, value.title);
    }
    return el("table", { class: "json kv" }, el("tbody", {}, Object.entries(value).map(([k, v]) =>
      el("tr", {}, el("th", {}, k), el("td", {}, jsonTable(v, depth + 1))))));
  }

  function cardBox(card, extra) {
    if (!card) return el("div", { class: "card hidden-card" }, "?");
    return el("div", { class: "card", "data-card": card.id || "", title: card.text || "" },
      el("div", { class: "card-title" }, card.title || card.name || card.id),
      card.type ? el("div", { class: "card-type" }, card.type + (card.corner_value ? " · " + card.corner_value : "")) : null,
      card.text ? el("div", { class: "card-text" }, card.text) : null,
      card.stats && Object.keys(card.stats).length
        ? el("div", { class: "card-stats" }, Object.entries(card.stats).map(([k, v]) => `${k.replace(/_/g, " ")} ${v}`).join(" · ")) : null,
      extra || null);
  }

  /* ---- S.E.R.M.: the field, its terrain, soldiers with their facings and lines of sight. ---- */
  const HEADING = { N: [0, 1], NE: [1, 1], E: [1, 0], SE: [1, -1], S: [0, -1], SW: [-1, -1], W: [-1, 0], NW: [-1, 1] };

  let sermSelected = null;

  function serm(state, ctx) {
    const board = state.board;
    if (!board) return el("p", { class: "muted" }, "The field is laid out when the game starts.");
    const size = 40;
    const w = board.field.width, h = board.field.height;
    // y counts from 0 at the south edge: draw it upwards.
    const cx = (x) => x * size + size / 2;
    const cy = (y) => (h - 1 - y) * size + size / 2;
    const svg = el("svg", { viewBox: `-24 -24 ${w * size + 48} ${h * size + 48}`, class: "serm-field", role: "img",
      "aria-label": `S.E.R.M. field, ${w} by ${h}` });
    svg.append(el("rect", { x: 0, y: 0, width: w * size, height: h * size, class: "field" }));
    for (let i = 0; i <= w; i++) svg.append(el("line", { x1: i * size, y1: 0, x2: i * size, y2: h * size, class: "grid" }));
    for (let j = 0; j <= h; j++) svg.append(el("line", { x1: 0, y1: j * size, x2: w * size, y2: j * size, class: "grid" }));
    for (let i = 0; i < w; i++) svg.append(el("text", { x: cx(i), y: h * size + 16, class: "coord" }, i));
    for (let j = 0; j < h; j++) svg.append(el("text", { x: -12, y: cy(j) + 4, class: "coord" }, j));
    svg.append(el("text", { x: (w * size) / 2, y: -8, class: "coord" }, "N"));
    for (const t of board.terrain || []) {
      svg.append(el("rect", { x: t.x * size, y: (h - t.y - t.height) * size, width: t.width * size, height: t.height * size,
        class: "terrain" }, el("title", {}, `terrain ${t.x},${t.y} ${t.width}×${t.height}`)));
    }
    const byId = new Map((board.soldiers || []).map((s) => [s.id, s]));
    // Every soldier's lines at once would hide the field: show those of one soldier, chosen by a click (by
    // default the activated one, else the viewer's first).
    const activated = board.activation && board.activation.soldier;
    if (!byId.has(sermSelected)) {
      const own = (board.soldiers || []).find((s) => s.seat === state.you);
      sermSelected = activated || (own || (board.soldiers || [])[0] || {}).id || null;
    }
    const sight = el("g", { class: "sight" });
    for (const s of (board.soldiers || []).filter((soldier) => soldier.id === sermSelected)) {
      for (const target of s.in_sight || []) {
        const other = byId.get(target);
        if (!other) continue;
        sight.append(el("line", { x1: cx(s.x), y1: cy(s.y), x2: cx(other.x), y2: cy(other.y),
          stroke: seatColour(s.seat), class: "sight-line", "data-from": s.id, "data-to": target },
          el("title", {}, `${s.title} sees ${other.title}`)));
      }
    }
    svg.append(sight);
    if (board.move && board.move.path) {
      const mover = byId.get(board.move.soldier);
      const points = [mover ? [mover.x, mover.y] : null].concat(board.move.path.map((p) => p.split(",").map(Number)))
        .filter(Boolean).map(([x, y]) => `${cx(x)},${cy(y)}`).join(" ");
      svg.append(el("polyline", { points, class: "move-path" }));
    }
    for (const s of board.soldiers || []) {
      const [dx, dy] = HEADING[s.facing] || [0, 1];
      // The facing: a chevron on the edge of the soldier's disc, pointing the way it looks.
      const len = Math.hypot(dx, dy);
      const ux = dx / len, uy = -dy / len;
      const point = (along, across) => `${cx(s.x) + ux * along * size - uy * across * size},${cy(s.y) + uy * along * size + ux * across * size}`;
      const chevron = [point(0.56, 0), point(0.3, 0.2), point(0.3, -0.2)].join(" ");
      const active = board.activation && board.activation.soldier === s.id;
      const seen = byId.get(sermSelected) && (byId.get(sermSelected).in_sight || []).includes(s.id);
      svg.append(el("g", { class: "soldier" + (active ? " active" : "") + (s.id === sermSelected ? " selected" : "") + (seen ? " seen" : ""),
        "data-soldier": s.id, onclick: () => { sermSelected = s.id; ctx.rerender(); } },
        el("title", {}, `${s.title} (${ctx.seatName(s.seat)}) at ${s.x},${s.y} facing ${s.facing}; sees ${(s.in_sight || []).map((t) => byId.get(t)?.title || t).join(", ") || "no enemy"}`),
        el("polygon", { points: chevron, class: "facing", fill: seatColour(s.seat) }),
        el("circle", { cx: cx(s.x), cy: cy(s.y), r: size * 0.34, fill: seatColour(s.seat), class: "body" }),
        el("text", { x: cx(s.x), y: cy(s.y) + 4, class: "label" }, initials(s.title))));
    }
    const chosen = byId.get(sermSelected);
    const sightNote = chosen ? el("p", { class: "sight-note" }, `Lines of sight of ${chosen.title} (${ctx.seatName(chosen.seat)}): `,
      (chosen.in_sight || []).map((t) => byId.get(t)?.title || t).join(", ") || "no enemy in sight", ". Click a soldier to see its own.") : null;
    const legend = el("ul", { class: "legend" }, (board.soldiers || []).map((s) => el("li", {},
      el("span", { class: "swatch", style: `background:${seatColour(s.seat)}` }), ` ${initials(s.title)} = ${s.title} `,
      el("span", { class: "muted" }, `(${ctx.seatName(s.seat)}, ${s.x},${s.y} facing ${s.facing}, sees ${(s.in_sight || []).length})`))));
    const facts = el("p", {}, `Phase: ${board.phase}. Initiative: ${board.initiative === null || board.initiative === undefined ? "—" : ctx.seatName(board.initiative)}.`,
      board.activation && board.activation.soldier ? ` Activated: ${byId.get(board.activation.soldier)?.title || board.activation.soldier}${board.activation.moved ? ", moved" : ""}${board.activation.shot ? ", shot" : ""}.` : "",
      (board.fallen || []).length ? ` Fallen: ${board.fallen.map((f) => `${f.title} (${ctx.seatName(f.seat)})`).join(", ")}.` : "");
    return el("div", { class: "serm" }, svg, sightNote, facts, legend);
  }

  function initials(title) {
    return String(title || "?").split(/\s+/).map((w) => w[0]).join("").slice(0, 2).toUpperCase();
  }

  /* ---- Socialism: the grid of Users, the tokens on each identity, viral posts, the pending card. ---- */
  function socialism(state, ctx) {
    const board = state.board;
    if (!board) return el("p", { class: "muted" }, "The grid starts empty when the game starts.");
    const grid = board.grid || [];
    const wrap = el("div", { class: "socialism" });
    if (!grid.length) wrap.append(el("p", { class: "muted" }, "No User on the grid yet: the first goes at (0, 0)."));
    else {
      const xs = grid.map((c) => c.x), ys = grid.map((c) => c.y);
      const minX = Math.min(...xs) - 1, maxX = Math.max(...xs) + 1, minY = Math.min(...ys) - 1, maxY = Math.max(...ys) + 1;
      const at = new Map(grid.map((c) => [`${c.x},${c.y}`, c]));
      const posts = new Map();
      for (const post of board.viral_posts || []) posts.set(post.on, post);
      const table = el("table", { class: "social-grid" });
      table.append(el("tr", {}, el("th", {}, ""), range(minX, maxX).map((x) => el("th", {}, `x ${x}`))));
      for (const y of range(minY, maxY)) {
        table.append(el("tr", {}, el("th", {}, `y ${y}`), range(minX, maxX).map((x) => {
          const cell = at.get(`${x},${y}`);
          if (!cell) return el("td", { class: "empty", "data-cell": `${x},${y}` }, "");
          return el("td", { class: "user-cell", "data-cell": `${x},${y}`, title: cell.card.text || "" },
            el("div", { class: "card-title" }, cell.card.title),
            (cell.identities || []).map((identity) => el("div", { class: "identity" },
              cell.identities.length > 1 ? el("span", { class: "muted" }, identity.name + " ") : null,
              (identity.members || []).length ? identity.members.map((seat) => el("span", {
                class: "token", style: `background:${seatColour(seat)}`, title: ctx.seatName(seat) }, ctx.seatName(seat)[0]))
                : el("span", { class: "muted" }, "no token"),
              posts.has(identity.id) ? el("span", { class: "viral", title: "Viral Post" }, " viral") : null)));
        })));
      }
      wrap.append(table);
    }
    const turn = board.turn || {};
    wrap.append(el("p", {}, `Turn: ${turn.seat === undefined ? "—" : ctx.seatName(turn.seat)} (${turn.stage || "—"})`,
      turn.invited && turn.invited.length ? `, invitations sent: ${turn.invited.join(", ")}` : "",
      `. Draw pile: ${board.draw_pile ? board.draw_pile.count : 0}. Unconnected sets: ${(board.sets || []).length}.`));
    if (board.pending) {
      wrap.append(el("p", { class: "notice" }, `${ctx.seatName(board.pending.seat)} played ${ctx.cardName(board.pending.card) || "a card"}; waiting for ${(board.pending.waiting || []).map(ctx.seatName).join(", ")} (Sherman Act window).`));
    }
    wrap.append(el("ul", { class: "legend" }, state.players.map((p) => el("li", {},
      el("span", { class: "swatch", style: `background:${seatColour(p.seat)}` }),
      ` ${p.username}: ${p.counters ? p.counters.tokens : "?"} tokens left, ${p.tokens_placed || 0} placed`))));
    if ((board.discard_pile || []).length) {
      wrap.append(el("h3", {}, "Discard pile"), el("div", { class: "cards" }, board.discard_pile.map((c) => cardBox(c))));
    }
    return wrap;
  }

  function range(a, b) {
    const out = [];
    for (let i = a; i <= b; i++) out.push(i);
    return out;
  }

  /* ---- Rock Paper Scissors Extreme: the centre, the supply, each player's items and points, the throws. ---- */
  function rps(state, ctx) {
    const board = state.board;
    if (!board) return el("p", { class: "muted" }, "The centre is dealt when the game starts.");
    const wrap = el("div", { class: "rps" });
    wrap.append(el("p", {}, `Challenge ${board.challenge}, throw ${board.throw}: ${board.phase}. Supply: ${board.supply ? board.supply.count : 0} cards. First to ${board.target_points}.`,
      board.nullified ? " A black potion nullifies totems, scrolls and athames." : ""));
    wrap.append(el("h3", {}, "Centre"), el("div", { class: "cards" }, (board.center || []).map((c) => cardBox(c, c.family ? el("div", { class: "card-type" }, `${c.family}${c.sign ? " · " + c.sign : ""}`) : null))));
    wrap.append(el("div", { class: "rps-players" }, (board.players || []).map((p) => el("div", { class: "rps-player" },
      el("h3", {}, `${ctx.seatName(p.seat)}: ${p.points} points`),
      el("div", { class: "cards" }, (p.items || []).length ? p.items.map((c) => cardBox(c)) : el("span", { class: "muted" }, "no items"))))));
    const throws = (board.revealed || []).map((t) => `${ctx.seatName(t.seat)} ${t.sign}`).join(" vs ");
    if (throws) wrap.append(el("p", {}, `Last throw: ${throws}.`));
    const pending = (board.throws || []).map((t) => `${ctx.seatName(t.seat)} ${t.sign ? "threw " + t.sign : "has thrown"}`).join(", ");
    if (pending) wrap.append(el("p", {}, pending + "."));
    if (board.window) wrap.append(el("p", {}, `Potion window (${board.window}): ${(board.asked || []).map(ctx.seatName).join(", ")} asked.`));
    return wrap;
  }

  /* ---- The Virtues of the Drake: the three decks, the cards in play, the Gullet, the Lair and the Bed. ---- */
  function drake(state, ctx) {
    const board = state.board;
    if (!board) return el("p", { class: "muted" }, "The Gullet, the Lair and the Bed are laid out when the game starts.");
    const row = (title, cards, note) => el("div", { class: "zone drake-" + title.toLowerCase().replace(/\W+/g, "-") },
      el("h3", {}, title, note ? el("span", { class: "muted" }, " " + note) : null),
      (cards || []).length ? el("div", { class: "cards" }, cards.map((c) => cardBox(c))) : el("span", { class: "muted" }, "none"));
    const decks = Object.entries(board.decks || {}).map(([name, d]) => `${name} ${d.count}`).join(", ");
    const turn = board.turn ? `${ctx.seatName(board.turn.seat)} (${board.turn.virtue}) is to ${board.turn.stage === "play" ? "play a card" : "act"}.` : "";
    return el("div", { class: "drake" },
      el("p", {}, `Decks, face down: ${decks}. Turn order: ${(board.play_order || []).join(", ")}. ${turn}`),
      board.outcome ? el("p", { class: "notice" }, `${board.outcome.virtue} wins: ${board.outcome.rule}`) : null,
      row("In play", [board.in_play && board.in_play.maiden, board.in_play && board.in_play.knight].filter(Boolean)),
      row("Gullet", board.gullet, "(the rightmost is the last)"),
      row("Lair", board.lair),
      row("Bed", board.bed),
      el("h3", {}, "Virtues"),
      el("ul", {}, (board.virtues || []).map((v) => el("li", {}, el("strong", {}, v.virtue), ": ",
        v.seat === null || v.seat === undefined ? "set aside" : ctx.seatName(v.seat), v.card ? ` — ${v.card.text || ""}` : ""))));
  }

  const fitted = { serm, socialism, rock_paper_scissors_extreme: rps, virtues_of_the_drake: drake };

  function render(state, ctx) {
    const view = fitted[state.ruleset];
    return view ? view(state, ctx) : jsonTable(state.board);
  }

  return { render, jsonTable, cardBox, seatColour };
})();
