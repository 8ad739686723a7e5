from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from games import bots, feed, services

        # After every command: the game's computer players look at it, and its players' account feeds hear of it.
        for hook in (bots.after_commit, feed.after_commit):
            if hook not in services.AFTER_COMMIT:
                services.AFTER_COMMIT.append(hook)
