/* The play client's small toolkit: calls to the API with the session cookie and CSRF token, the API's JSON
   errors shown as sentences, and a tiny element builder. No framework, no build step. */
"use strict";

const Play = (function () {
  function cookie(name) {
    const found = document.cookie.split("; ").find((part) => part.startsWith(name + "="));
    return found ? decodeURIComponent(found.slice(name.length + 1)) : "";
  }

  class ApiError extends Error {
    constructor(status, body) {
      const error = (body && body.error) || {};
      super(error.message || `The server answered ${status}.`);
      this.status = status;
      this.code = error.code || "http_" + status;
      this.details = error.details;
    }
  }

  /* One call to the API (or a same-origin feed): JSON in, JSON out; an answer other than 2xx throws an ApiError. */
  async function api(method, url, body, headers) {
    const init = { method, credentials: "same-origin", headers: Object.assign({ Accept: "application/json" }, headers || {}) };
    if (method !== "GET") {
      init.headers["X-CSRFToken"] = cookie("csrftoken");
      if (body !== undefined) {
        init.headers["Content-Type"] = "application/json";
        init.body = JSON.stringify(body);
      }
    }
    const response = await fetch(url, init);
    let data = null;
    const text = await response.text();
    if (text) {
      try { data = JSON.parse(text); } catch (e) { data = null; }
    }
    if (!response.ok) throw new ApiError(response.status, data);
    return data;
  }

  /* Shows an error from the API (or any exception) in a page's error box, readably: message, then its code. */
  function showError(box, error) {
    if (!box) return;
    if (!error) { box.hidden = true; box.textContent = ""; return; }
    box.hidden = false;
    box.textContent = "";
    const message = el("strong", {}, error.message || String(error));
    box.append(message);
    if (error.code) box.append(" ", el("code", {}, error.code));
    const details = error.details;
    if (details && typeof details === "object") {
      const lines = [];
      for (const [key, value] of Object.entries(details)) {
        if (key === "known" || key === "available") continue;
        lines.push(`${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`);
      }
      if (lines.length) box.append(el("span", { class: "details" }, " (" + lines.join("; ") + ")"));
    }
  }

  /* el("tag", {attr: value, onclick: fn}, child, …): children are nodes or text (never parsed as HTML). */
  function el(tag, attrs, ...children) {
    const node = document.createElementNS(
      ["svg", "g", "rect", "line", "circle", "polygon", "text", "path", "title", "polyline"].includes(tag)
        ? "http://www.w3.org/2000/svg" : "http://www.w3.org/1999/xhtml", tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  /* A clock's time as players read it: "0:07", "4:32", "1:05:00", "2d 3:00:00" (whole seconds, never below 0). */
  function duration(seconds) {
    let left = Math.max(0, Math.ceil(Number(seconds) || 0));
    const days = Math.floor(left / 86400);
    left -= days * 86400;
    const hours = Math.floor(left / 3600);
    const minutes = Math.floor((left % 3600) / 60);
    const secs = String(left % 60).padStart(2, "0");
    const clock = hours || days ? `${hours}:${String(minutes).padStart(2, "0")}:${secs}` : `${minutes}:${secs}`;
    return days ? `${days}d ${clock}` : clock;
  }

  return { api, ApiError, showError, el, cookie, duration };
})();
