from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from games import bots, services

        # A game's computer players look at it after every command that moved it.
        if bots.after_commit not in services.AFTER_COMMIT:
            services.AFTER_COMMIT.append(bots.after_commit)
