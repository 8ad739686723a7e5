"""Celery tasks of the game server: its clock and its computer players (games/background.py), when they run on the
worker (production). Both are safe to deliver twice: a clock's ``expire`` is refused once a deadline is met, and a
computer player's move is sent for the version it looked at."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="games.expire_due_clocks", ignore_result=True)
def expire_due_clocks() -> int:
    """For beat, every second: end the time of every seat whose deadline has passed."""
    from games import clocks

    return clocks.expire_due()


@shared_task(name="games.play_computer_players", ignore_result=True, acks_late=True)
def play_computer_players(game_id: str) -> bool:
    """One move of a computer player of the game, if one has something to do."""
    from games import bots

    return bots.play(game_id)
