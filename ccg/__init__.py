"""CCG Dvorak on the archive: card sets with numbered versions, players' own decks built from them, notices.

A card set is an archive deck of kind ``card_set``; its changes are proposed and decided in ``proposals`` and
grouped into versions here by a Celery task (``ccg.tasks``).
"""
