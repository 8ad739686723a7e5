"""The client: one ``httpx.Client`` with the token, the retry policy and the streams.

The API (docs/api.md) decides what is safe to send twice; this module only follows it. A GET, a command or a
creating POST (each sent with an ``Idempotency-Key``) may be sent again after a 5xx or a dropped connection: the
server answers a repeated key with its first answer and appends nothing. A POST without a key (join, start, register)
is sent again only when it cannot have arrived: after a 429 (refused before it was read) or when the connection
could not even be opened.
"""

from __future__ import annotations

import email.utils
import json
import random
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from datetime import UTC, datetime
from typing import Any, cast

import httpx

from dvorak_client.shapes import AccountLine, CommandResult, Event, Moves

__all__ = ["ApiError", "Client", "__version__"]

__version__ = "0.1.0"

API_PATH = "/api/v1"
NDJSON = "application/x-ndjson"
# Errors of a request that never reached the server: sending it again cannot do anything twice.
UNSENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)


class ApiError(Exception):
    """A refusal by the API, in its one error shape: ``{"error": {"code", "message", "details"?, "request_id"}}``.

    ``code`` is stable and meant for programs (``not_your_turn``, ``version_conflict``, ``throttled``, …);
    ``message`` is for people. An answer that is not in that shape (a proxy's HTML page) gets the code
    ``http_<status>``. ``request_id`` names the request in the server's logs (the body's, else the answer's
    ``X-Request-ID``): quote it when reporting a failure; it is in the exception's text.
    """

    def __init__(self, status: int, code: str, message: str, details: Any = None,
                 headers: Mapping[str, str] | None = None, request_id: str | None = None):
        super().__init__(f"{status} {code}: {message}" + (f" (request {request_id})" if request_id else ""))
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.headers = dict(headers or {})
        self.request_id = request_id

    @classmethod
    def from_response(cls, response: httpx.Response) -> ApiError:
        request_id = response.headers.get("X-Request-ID")
        try:
            error = response.json()["error"]
            code, message = str(error["code"]), str(error.get("message", ""))
            details = error.get("details")
            request_id = str(error.get("request_id") or request_id or "") or None
        except (ValueError, KeyError, TypeError):
            code, message, details = f"http_{response.status_code}", response.reason_phrase, None
        return cls(response.status_code, code, message, details, response.headers, request_id)


def api_root(base_url: str) -> str:
    """``http://host:8000`` and ``http://host:8000/api/v1/`` both name the same API."""
    base = base_url.rstrip("/")
    return base if base.endswith(API_PATH) else base + API_PATH


def retry_after(response: httpx.Response) -> float | None:
    """The seconds a ``Retry-After`` header asks for: a number, or an HTTP date."""
    value = response.headers.get("Retry-After", "").strip()
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


class Client:
    """A client of one Dvorak service, signed in with a token (or anonymous, for the archive).

    ``retries`` is how many times one call is sent again at most (after a 429, a 5xx or a dropped connection, as
    the module says); between attempts it waits what ``Retry-After`` says, else ``backoff`` seconds doubled each
    time up to ``max_backoff``, less a random part so that many clients do not come back at the same instant.
    ``max_wait`` bounds any one wait. ``stream_timeout`` is how long a stream may stay silent before it is taken
    for dropped and opened again: the server sends a keep-alive line at least every 10 seconds.
    """

    def __init__(self, base_url: str, token: str | None = None, *, timeout: float = 30.0, retries: int = 5,
                 backoff: float = 0.5, max_backoff: float = 30.0, max_wait: float = 120.0,
                 stream_timeout: float = 30.0, transport: httpx.BaseTransport | None = None,
                 sleep: Callable[[float], None] = time.sleep, username: str | None = None):
        self.base_url = api_root(base_url)
        self.token = token
        self.username = username
        self.retries = retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.max_wait = max_wait
        self.stream_timeout = stream_timeout
        self._sleep = sleep
        self._jitter = random.Random()
        headers = {"Accept": "application/json", "User-Agent": f"dvorak-client/{__version__}"}
        if token:
            headers["Authorization"] = f"Token {token}"
        self._http = httpx.Client(base_url=self.base_url, headers=headers, timeout=timeout, transport=transport)

    # --- accounts ------------------------------------------------------------------------------------------

    @classmethod
    def sign_in(cls, base_url: str, username: str, password: str, **options: Any) -> Client:
        """A client signed in with a new token of the account's (``POST /auth/token/``: one per sign-in, each
        revoked on its own; ``sign_out`` revokes this one). Too many failed sign-ins for the account, or from
        this address, are refused for a while (``ApiError`` ``throttled``, not retried)."""
        with cls(base_url, **options) as anonymous:
            body = anonymous.request("POST", "/auth/token/", json={"username": username, "password": password},
                                     replayable=True)
        return cls(base_url, body["token"], username=username, **options)

    @classmethod
    def register(cls, base_url: str, username: str, password: str, **options: Any) -> Client:
        """A new account (``POST /auth/register/``), and a client signed in as it."""
        with cls(base_url, **options) as anonymous:
            body = anonymous.request("POST", "/auth/register/", json={"username": username, "password": password})
        return cls(base_url, body["token"], username=body.get("username", username), **options)

    def sign_out(self) -> None:
        """Revoke this client's token (``DELETE /auth/token/``): the server refuses it from now on."""
        self.request("DELETE", "/auth/token/")
        self.token = None
        self._http.headers.pop("Authorization", None)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- any call ------------------------------------------------------------------------------------------

    def request(self, method: str, path: str, *, params: Mapping[str, Any] | None = None, json: Any = None,
                headers: Mapping[str, str] | None = None, idempotency_key: str | bool = False,
                replayable: bool | None = None) -> Any:
        """One call to the API, its JSON answer (None for a 204). ``path`` is relative to ``/api/v1``.

        ``idempotency_key=True`` sends a new key (a UUID) with this call and the same key with its retries; a
        string sends that key. ``replayable`` says whether the call may be sent again after a 5xx or a dropped
        connection: by default a GET, or any call with a key, may. An error answer raises ``ApiError``.
        """
        response = self.send(method, path, params=params, json=json, headers=headers,
                             idempotency_key=idempotency_key, replayable=replayable)
        if response.status_code == 204 or not response.content:
            return None
        return response.json()

    def send(self, method: str, path: str, *, params: Mapping[str, Any] | None = None, json: Any = None,
             headers: Mapping[str, str] | None = None, idempotency_key: str | bool = False,
             replayable: bool | None = None) -> httpx.Response:
        """As ``request``, but the ``httpx.Response`` itself (for its headers: ``ETag``, ``Link``, ``Location``)."""
        sent = dict(headers or {})
        if idempotency_key:
            sent["Idempotency-Key"] = idempotency_key if isinstance(idempotency_key, str) else str(uuid.uuid4())
        if replayable is None:
            replayable = method.upper() in {"GET", "HEAD", "OPTIONS"} or "Idempotency-Key" in sent
        attempt = 0
        while True:
            attempt += 1
            try:
                response = self._http.request(method, path, params=_query(params), json=json, headers=sent)
            except httpx.TransportError as error:
                if attempt > self.retries or not (replayable or isinstance(error, UNSENT)):
                    raise
                self._sleep(self._delay(attempt, None))
                continue
            status = response.status_code
            if status == 429 and (retry_after(response) or 0) > self.max_wait:
                raise ApiError.from_response(response)  # a wait longer than allowed: retrying early is refused again
            if attempt <= self.retries and (status == 429 or (status >= 500 and replayable)):
                self._sleep(self._delay(attempt, response))
                continue
            if response.is_error:
                raise ApiError.from_response(response)
            return response

    def _delay(self, attempt: int, response: httpx.Response | None) -> float:
        asked = retry_after(response) if response is not None else None
        if asked is not None:
            return min(asked, self.max_wait)
        ceiling = min(self.max_backoff, self.backoff * 2 ** (attempt - 1))
        return min(ceiling * self._jitter.uniform(0.5, 1.0), self.max_wait)

    def _pages(self, path: str, params: Mapping[str, Any] | None) -> Iterator[dict[str, Any]]:
        """The items of a paged list (``{"count", "next", "previous", "results"}``), page after page."""
        url: str | None = path
        while url:
            page = self.request("GET", url, params=params)
            yield from page["results"]
            url, params = page.get("next"), None  # `next` is a whole URL, its query included

    # --- the archive ---------------------------------------------------------------------------------------

    def decks(self, **filters: Any) -> Iterator[dict[str, Any]]:
        """Every deck summary ``GET /decks/`` lists, all pages (``search``, ``status``, ``ruleset``, … as filters)."""
        return self._pages("/decks/", filters)

    def deck(self, slug: str) -> dict[str, Any]:
        return cast(dict[str, Any], self.request("GET", f"/decks/{slug}/"))

    # --- games ---------------------------------------------------------------------------------------------

    def create_game(self, **fields: Any) -> dict[str, Any]:
        """``POST /games/`` (``deck``, ``ruleset``, ``max_players``, ``options``, ``invite``, …): the new game as
        its creator sees it. Sent with an Idempotency-Key, so a retry never makes a second game."""
        return cast(dict[str, Any], self.request("POST", "/games/", json=fields, idempotency_key=True))

    def games(self, *, mine: bool = False, invited: bool = False, status: str | None = None
              ) -> Iterator[dict[str, Any]]:
        """Game summaries, all pages: ``mine`` those you sit in, ``invited`` those you are invited to."""
        params = {"mine": 1 if mine else None, "invited": 1 if invited else None, "status": status}
        return self._pages("/games/", params)

    def game(self, game_id: str, *, at: int | None = None) -> dict[str, Any]:
        """The game as you may see it (``at``: as it was at that version)."""
        return cast(dict[str, Any], self.request("GET", f"/games/{game_id}/", params={"at": at}))

    def join(self, game_id: str, **fields: Any) -> dict[str, Any]:
        """Take a seat (``team``, ``player_deck``, ``deck`` where the game asks for them)."""
        return cast(dict[str, Any], self.request("POST", f"/games/{game_id}/join/", json=fields))

    def start(self, game_id: str) -> dict[str, Any]:
        return cast(dict[str, Any], self.request("POST", f"/games/{game_id}/start/"))

    def moves(self, game_id: str) -> Moves:
        """Every command you may send now, ``{"version", "moves"}`` (fill choices with ``dvorak_client.fill``)."""
        return cast(Moves, self.request("GET", f"/games/{game_id}/moves/"))

    def events(self, game_id: str, after: int = 0, *, limit: int | None = None) -> list[Event]:
        """Every event after version ``after``, oldest first, as you may see them; a paged answer's
        ``Link: rel="next"`` is followed to the end."""
        events: list[Event] = []
        url: str | None = f"/games/{game_id}/events/"
        params: Mapping[str, Any] | None = {"after": after, "limit": limit}
        while url:
            response = self.send("GET", url, params=params)
            events.extend(response.json()["events"])
            url, params = response.links.get("next", {}).get("url"), None
        return events

    def command(self, game_id: str, body: Mapping[str, Any], if_match: int | None = None, *,
                idempotency_key: str | None = None) -> CommandResult:
        """Send one command (``{"type": …, …}``): ``{"version", "events"}``. With ``if_match`` it is carried out
        only if the game is still at that version (else ``ApiError`` 412 ``version_conflict``). A new
        Idempotency-Key goes with each call (or ``idempotency_key``), and with its retries the same one."""
        headers = {} if if_match is None else {"If-Match": f'"{if_match}"'}
        return cast(CommandResult, self.request("POST", f"/games/{game_id}/commands/", json=dict(body),
                                                headers=headers, idempotency_key=idempotency_key or True))

    # --- streams -------------------------------------------------------------------------------------------

    def game_stream(self, game_id: str, after: int = 0) -> Iterator[Event]:
        """The game's events after version ``after`` as the server streams them (NDJSON), then each new one, for
        as long as you iterate. A dropped connection is opened again after the last version seen, so no event is
        missed or given twice."""
        resume = {"after": after}  # read again at each connection
        for line in self._follow(f"/games/{game_id}/stream/", lambda: dict(resume)):
            version = line.get("version")
            if isinstance(version, int):
                if version <= resume["after"]:
                    continue
                resume["after"] = version
            yield cast(Event, line)

    def account_stream(self) -> Iterator[AccountLine]:
        """Your feed (``GET /account/stream/``): ``invited``, ``game_started``, ``your_turn``, ``game_finished``
        and ``notice`` lines, for as long as you iterate. On connecting (and so after a dropped connection, which
        is opened again) the server first says what is true now; a line may come twice."""
        for line in self._follow("/account/stream/", dict):
            yield cast(AccountLine, line)

    def _follow(self, path: str, params: Callable[[], dict[str, Any]]) -> Iterator[dict[str, Any]]:
        """The JSON objects of an NDJSON stream, opened again whenever it ends or drops. A connection that ends
        without a single line, ``retries`` + 1 times in a row, ends the iteration (or raises its error)."""
        failures = 0
        while True:
            heard = False
            try:
                with self._open_stream(path, params()) as response:
                    for line in _ndjson_lines(response.iter_raw()):
                        heard = True
                        if line:  # an empty line is a keep-alive
                            yield json.loads(line)
                error: Exception | None = None
            except (httpx.TransportError, httpx.StreamError) as dropped:
                error = dropped
            failures = 0 if heard else failures + 1
            if failures > self.retries:
                if error is not None:
                    raise error
                return
            self._sleep(self._delay(max(failures, 1), None))

    def _open_stream(self, path: str, params: Mapping[str, Any]) -> _Stream:
        return _Stream(self, path, params)


class _Stream:
    """A streamed GET, with the retries of ``Client.send`` before its first byte."""

    def __init__(self, client: Client, path: str, params: Mapping[str, Any]):
        self.client, self.path, self.params = client, path, params
        self.response: httpx.Response | None = None

    def __enter__(self) -> httpx.Response:
        client = self.client
        timeout = httpx.Timeout(client._http.timeout.connect, read=client.stream_timeout)
        attempt = 0
        while True:
            attempt += 1
            request = client._http.build_request("GET", self.path, params=_query(self.params),
                                                 headers={"Accept": NDJSON}, timeout=timeout)
            try:
                response = client._http.send(request, stream=True)
            except httpx.TransportError:
                if attempt > client.retries:
                    raise
                client._sleep(client._delay(attempt, None))
                continue
            status = response.status_code
            if response.is_error:
                response.read()
                response.close()
                if attempt <= client.retries and (status == 429 or status >= 500):
                    client._sleep(client._delay(attempt, response))
                    continue
                raise ApiError.from_response(response)
            self.response = response
            return response

    def __exit__(self, *exc_info: object) -> None:
        if self.response is not None:
            self.response.close()


def _ndjson_lines(chunks: Iterator[bytes]) -> Iterator[str]:
    """Lines split at ``\\n`` only. (httpx's ``iter_lines`` also splits at U+2028 and the like, which JSON lets a
    string hold as it is: a card's text would cut its event in two.)"""
    pending = b""
    for chunk in chunks:
        pending += chunk
        *lines, pending = pending.split(b"\n")
        for line in lines:
            yield line.rstrip(b"\r").decode("utf-8")
    if pending.strip():
        yield pending.decode("utf-8")


def _query(params: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """Parameters left out when None (an empty query parameter counts as left out anyway)."""
    if params is None:
        return None
    return {key: value for key, value in params.items() if value is not None}
