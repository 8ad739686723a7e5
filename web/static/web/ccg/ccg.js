/* What the CCG pages share, on top of the play client's toolkit (common.js): the page's config, the API's lists
   read to their end (a keyset list continues at its Link: rel="next"), and a file sent as multipart with the
   session's CSRF token. No framework, no build step. */
"use strict";

const Ccg = (function () {
  const { ApiError, cookie } = Play;

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

  return { config, allOf, upload, count };
})();
