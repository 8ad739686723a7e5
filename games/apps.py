from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        # The archive checks a deck's cards against the ruleset it names through dvorak_core, not by importing
        # this app: the engine's registry answers for it.
        from dvorak_core.card_data import install_finder
        from games.engine.rulesets import REGISTERED, get_ruleset

        install_finder(lambda ruleset, deck: get_ruleset(ruleset).card_problems(deck) if ruleset in REGISTERED
                       else [])
