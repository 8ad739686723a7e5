from django.apps import AppConfig


class CommunityConfig(AppConfig):
    """People around the archive: who watches which deck (and the notices a change to it sends them), and which
    account is which designer (a claim a curator confirms).

    It hears of changes through `decks.signals.deck_changed` and sends its notices through the CCG side's
    `notification_send`, which the archive below may not import."""

    name = "community"
    verbose_name = "Community"

    def ready(self) -> None:
        from community import receivers  # noqa: F401  (connects the signal receivers)
