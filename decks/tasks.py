# Celery autodiscovers `<app>.tasks`; the CCG tasks live in decks/ccg/.
from decks.ccg.tasks import build_card_set_version, close_due_card_set_changes  # noqa: F401
