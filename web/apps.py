from django.apps import AppConfig


class WebConfig(AppConfig):
    """The site people use in a browser: the public archive, accounts, talk, editing, and the play client.

    Its pages read through the same selectors and write through the same services as the API; the play client
    acts through the API itself, so the server stays the only judge.
    """

    name = "web"
    verbose_name = "Site"
