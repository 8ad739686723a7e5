from django.apps import AppConfig


class ProposalsConfig(AppConfig):
    name = "proposals"
