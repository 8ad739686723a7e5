from django.apps import AppConfig


class CcgConfig(AppConfig):
    """CCG Dvorak: card sets' versions, registered players, player decks and notices. Its tables keep the names
    they had when these models belonged to the archive's app (``decks_cardsetversion``, ...)."""

    name = "ccg"
    label = "ccg"
    verbose_name = "CCG card sets"
