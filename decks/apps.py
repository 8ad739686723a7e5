from django.apps import AppConfig


class DecksConfig(AppConfig):
    name = "decks"
