"""Accounts: API tokens (hashed at rest, expiring, revocable), single-use websocket tickets, sign-in limits and
password resets. The tokens are django-rest-knox's, the limits django-axes', the resets Django's own views."""
