from django.apps import AppConfig


class EventStoreConfig(AppConfig):
    name = "dvorak_site.eventstore"
    label = "eventstore"
    verbose_name = "Event store"
