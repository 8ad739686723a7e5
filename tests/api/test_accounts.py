"""Accounts as a client and an operator see them: tokens that are stored only as hashes, expire, are listed and
revoked; an email address at sign-up; failed sign-ins limited per account and per address, on the API, the site
and the admin; password resets by email."""

import importlib
import json
import re
from datetime import timedelta

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connection
from django.test import Client
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from tests.api.test_frame import assert_error

pytestmark = pytest.mark.django_db

PASSWORD = "blank-cards-forever"


def register(client, username="ann", **more) -> dict:
    response = client.post("/api/v1/auth/register/", {"username": username, "password": PASSWORD, **more},
                           format="json")
    assert response.status_code == 201, response.content
    return response.json()


def sign_in(client, username="ann", password=PASSWORD, address="10.0.0.1"):
    return client.post("/api/v1/auth/token/", {"username": username, "password": password}, format="json",
                       REMOTE_ADDR=address)


def as_token(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def every_stored_text() -> str:
    """Every row of every table of the database, as text."""
    texts = []
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names():
            quoted = connection.ops.quote_name(table)
            cursor.execute(f"SELECT * FROM {quoted}")  # noqa: S608 (the database's own table names)
            texts += [repr(row) for row in cursor.fetchall()]
    return "\n".join(texts)


def test_no_table_holds_a_token(api_client):
    tokens = [register(api_client)["token"], sign_in(api_client).json()["token"]]
    assert all(re.fullmatch(r"dvorak_[0-9a-f]{64}", token) for token in tokens)
    stored = every_stored_text()
    for token in tokens:
        assert token not in stored and token[7:] not in stored
        assert as_token(token).get("/api/v1/account/").status_code == 200


def test_signing_out_revokes_the_token_used_and_only_it(api_client):
    first = register(api_client)["token"]
    second = sign_in(api_client).json()["token"]
    assert as_token(first).delete("/api/v1/auth/token/").status_code == 204
    assert_error(as_token(first).get("/api/v1/account/"), 401, "not_authenticated")
    assert as_token(second).get("/api/v1/account/").status_code == 200


def test_signing_out_without_a_token_is_refused(make_user):
    user = make_user()
    browser = APIClient()
    browser.force_login(user)  # the site's session cookie
    assert_error(browser.delete("/api/v1/auth/token/"), 400, "invalid")
    assert_error(APIClient().delete("/api/v1/auth/token/"), 401, "not_authenticated")


def test_a_user_lists_their_tokens_and_revokes_one_or_all(api_client, make_user):
    first = register(api_client)
    second = sign_in(api_client).json()
    third = sign_in(api_client).json()
    listed = as_token(second["token"]).get("/api/v1/auth/tokens/").json()
    assert [entry["id"] for entry in listed] == [third["id"], second["id"], first["id"]]  # newest first
    assert [entry["current"] for entry in listed] == [False, True, False]
    assert all(set(entry) == {"id", "created", "expiry", "current"} for entry in listed)

    assert as_token(second["token"]).delete(f"/api/v1/auth/tokens/{first['id']}/").status_code == 204
    assert as_token(first["token"]).get("/api/v1/account/").status_code == 401
    other = make_user()  # someone else's token is not found, and stays
    other_id = AuthToken.objects.get(user=other).token_key
    assert_error(as_token(second["token"]).delete(f"/api/v1/auth/tokens/{other_id}/"), 404, "not_found")
    assert as_token(other.api_token).get("/api/v1/account/").status_code == 200

    assert as_token(third["token"]).delete("/api/v1/auth/tokens/").json() == {"revoked": 2}
    for token in (second["token"], third["token"]):
        assert as_token(token).get("/api/v1/account/").status_code == 401
    assert as_token(other.api_token).get("/api/v1/account/").status_code == 200


def test_a_token_expires_unless_used_and_each_use_moves_its_expiry_on(make_user, settings):
    user = make_user()
    _, stale = AuthToken.objects.create(user=user, expiry=timedelta(seconds=-1))
    assert_error(as_token(stale).get("/api/v1/account/"), 401, "not_authenticated")
    assert not AuthToken.objects.filter(token_key=stale[:15]).exists()  # deleted as it was refused

    record, fresh = AuthToken.objects.create(user=user, expiry=timedelta(days=1))
    assert as_token(fresh).get("/api/v1/account/").status_code == 200
    record.refresh_from_db()
    assert record.expiry > timezone.now() + settings.REST_KNOX["TOKEN_TTL"] - timedelta(minutes=1)


def test_a_users_expired_tokens_go_when_they_sign_in_and_a_token_is_read_in_one_query(api_client,
                                                                                        django_assert_num_queries):
    from dvorak_kit.api.authentication import TOKEN_CACHE, CachedTokenAuthentication

    register(api_client)
    user = get_user_model().objects.get(username="ann")
    AuthToken.objects.create(user=user, expiry=timedelta(seconds=-1))
    _, fresh = AuthToken.objects.create(user=user)
    TOKEN_CACHE.forget_user(user.pk)
    with django_assert_num_queries(1):  # the token with its user; the user's other tokens are not read
        assert CachedTokenAuthentication().authenticate_credentials(fresh)[0].pk == user.pk
    assert AuthToken.objects.filter(user=user, expiry__lt=timezone.now()).count() == 1  # not read, so not deleted
    assert sign_in(api_client).status_code == 200
    assert AuthToken.objects.filter(user=user, expiry__lt=timezone.now()).count() == 0  # gone at the sign-in
    assert as_token(fresh).get("/api/v1/account/").status_code == 200


def test_the_answer_says_when_a_token_expires(api_client, settings):
    answer = register(api_client)
    expiry = timezone.datetime.fromisoformat(answer["expiry"].replace("Z", "+00:00"))
    assert abs(expiry - (timezone.now() + settings.REST_KNOX["TOKEN_TTL"])) < timedelta(minutes=1)


def test_an_email_address_is_optional_at_sign_up_and_only_its_owner_sees_it(api_client):
    ann = register(api_client, "ann", email="ann@example.org")["token"]
    bob = register(api_client, "bob")["token"]
    assert as_token(ann).get("/api/v1/account/").json() == {"username": "ann", "email": "ann@example.org"}
    assert as_token(bob).get("/api/v1/account/").json() == {"username": "bob", "email": ""}
    error = assert_error(api_client.post("/api/v1/auth/register/", {"username": "cat", "password": PASSWORD,
                                                                    "email": "not an address"}, format="json"),
                         400, "invalid")
    assert "email" in error["details"]
    assert not get_user_model().objects.filter(username="cat").exists()

    changed = as_token(bob).patch("/api/v1/account/", {"email": "bob@example.org"}, format="json")
    assert changed.json() == {"username": "bob", "email": "bob@example.org"}
    assert get_user_model().objects.get(username="bob").email == "bob@example.org"
    assert_error(as_token(bob).patch("/api/v1/account/", {"email": "nope"}, format="json"), 400, "invalid")
    assert get_user_model().objects.get(username="bob").email == "bob@example.org"


@pytest.fixture
def limits(settings):
    settings.AXES_FAILURE_LIMIT = 3
    return settings


def test_failed_sign_ins_lock_the_account_whatever_the_address(api_client, limits):
    register(api_client)
    for attempt in range(2):
        assert_error(sign_in(api_client, password="wrong", address=f"10.0.1.{attempt}"), 401, "not_authenticated")
    locked = sign_in(api_client, password="wrong", address="10.0.1.3")
    assert_error(locked, 429, "throttled")
    assert int(locked["Retry-After"]) == int(limits.AXES_COOLOFF_TIME.total_seconds())
    # The right password, from an address that never failed, is refused too until the cool-off is over.
    assert_error(sign_in(api_client, address="10.0.1.99"), 429, "throttled")


def test_failed_sign_ins_lock_the_address_whatever_the_account(api_client, make_user, limits):
    for name in ("ann", "bob", "cat"):
        register(api_client, name)
    for name in ("ann", "bob"):
        assert_error(sign_in(api_client, name, password="wrong", address="10.0.2.1"), 401, "not_authenticated")
    assert_error(sign_in(api_client, "cat", password="wrong", address="10.0.2.1"), 429, "throttled")
    assert_error(sign_in(api_client, "cat", address="10.0.2.1"), 429, "throttled")
    assert sign_in(api_client, "cat", address="10.0.2.2").status_code == 200  # another address, an account in good standing


def test_a_sign_in_clears_the_accounts_failures(api_client, limits):
    register(api_client)
    addresses = (f"10.0.3.{n}" for n in range(1, 100))
    for _ in range(3):  # two failures, then a success: never the third failure in a row
        for _ in range(2):
            assert_error(sign_in(api_client, password="wrong", address=next(addresses)), 401, "not_authenticated")
        assert sign_in(api_client, address=next(addresses)).status_code == 200


def test_the_site_and_the_admin_lock_out_too(make_user, limits):
    make_user("ann", curator=True)
    for path in ("/accounts/sign-in/", "/admin/login/"):
        browser = Client(REMOTE_ADDR="10.0.4.1" if path.startswith("/accounts") else "10.0.4.2")
        answers = [browser.post(path, {"username": f"x{path[1]}{n}", "password": "wrong"}) for n in range(3)]
        assert [answer.status_code for answer in answers] == [200, 200, 429]
        assert "Too many failed sign-ins" in answers[-1].content.decode()
        assert answers[-1]["Retry-After"]
        # The right password from that address is refused while it is locked.
        assert browser.post(path, {"username": "ann", "password": "a-long-passphrase"}).status_code == 429


def test_a_forgotten_password_is_reset_by_email(make_user, client):
    user = make_user("ann")
    user.email = "ann@example.org"
    user.save()
    page = client.get("/accounts/sign-in/")
    assert b"/accounts/password-reset/" in page.content
    assert client.post("/accounts/password-reset/", {"email": "ann@example.org"}).status_code == 302
    assert client.post("/accounts/password-reset/", {"email": "nobody@example.org"}).status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["ann@example.org"]
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+)", mail.outbox[0].body).group(1)
    form = client.get(link, follow=True)
    assert b"Choose a new password" in form.content
    done = client.post(form.redirect_chain[-1][0], {"new_password1": "a-brand-new-phrase",
                                                    "new_password2": "a-brand-new-phrase"}, follow=True)
    assert b"Your password is set" in done.content
    assert sign_in(APIClient(), "ann", "a-brand-new-phrase").status_code == 200
    assert b"does not work" in client.get(link, follow=True).content  # once only


def test_dvorak_tokens_stored_in_the_clear_become_hashes_that_still_work(make_user):
    """The migration for a database whose tokens were DRF's (stored as sent): each becomes a hash, and the
    client's token goes on working; the old table is gone."""
    user = make_user()
    old = "8f14e45fceea167a5a36dedd4bea2543a0b1c2d3"
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, user_id integer, "
                       "created timestamp with time zone)")
        cursor.execute("INSERT INTO authtoken_token VALUES (%s, %s, %s)", [old, user.pk, timezone.now()])
    migration = importlib.import_module("accounts.migrations.0002_hash_existing_tokens")
    with connection.schema_editor() as editor:
        migration.hash_old_tokens(apps, editor)
    assert "authtoken_token" not in connection.introspection.table_names()
    assert old not in every_stored_text()
    assert as_token(old).get("/api/v1/account/").json()["username"] == user.username


def test_a_locked_out_sign_in_is_answered_the_same_through_the_asgi_servers(api_client, limits):
    """The ASGI servers run Django's middleware in async mode, where the lockout is answered by another path."""
    from asgiref.sync import async_to_sync
    from channels.testing import HttpCommunicator

    from dvorak_site.asgi import application

    register(api_client)

    async def post(path: str, body: bytes, content_type: bytes) -> dict:  # the site's form needs a CSRF token
        communicator = HttpCommunicator(application, "POST", path, body=body,
                                        headers=[(b"content-type", content_type), (b"host", b"localhost"),
                                                 (b"content-length", str(len(body)).encode())])
        return await communicator.get_response(timeout=10)

    wrong = json.dumps({"username": "ann", "password": "wrong"}).encode()
    answers = [async_to_sync(post)("/api/v1/auth/token/", wrong, b"application/json") for _ in range(3)]
    assert [answer["status"] for answer in answers] == [401, 401, 429], answers[0]["body"]
    assert json.loads(answers[-1]["body"])["error"]["code"] == "throttled"
    assert dict(answers[-1]["headers"])[b"Retry-After"] == str(int(limits.AXES_COOLOFF_TIME.total_seconds())).encode()


def test_the_admins_sign_in_page_offers_the_password_reset(client):
    page = client.get("/admin/login/")
    assert b"/admin/password_reset/" in page.content
    assert client.get("/admin/password_reset/", follow=True).redirect_chain[-1][0] == "/accounts/password-reset/"


def test_a_method_the_token_endpoint_does_not_take_is_405_signed_in_or_not(api_client, make_user):
    for client in (api_client, as_token(make_user().api_token)):
        assert_error(client.put("/api/v1/auth/token/", {}, format="json"), 405, "method_not_allowed")
        assert_error(client.generic("TRACE", "/api/v1/auth/token/"), 405, "method_not_allowed")
