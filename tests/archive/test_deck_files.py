"""An archive deck as a Cockatrice deck file (`cod`)."""

from __future__ import annotations

from decks.exporters.deck_files import parse_cockatrice


def test_an_archive_deck_exports_as_a_cockatrice_deck_that_reads_back(api_client, new_deck):
    deck = new_deck(title="Κουζίνα & <Sink>")

    answer = api_client.get(f"/api/v1/decks/{deck['slug']}/export/cod/")

    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/xml; charset=utf-8"
    assert answer["Content-Disposition"] == f'attachment; filename="{deck["slug"]}.cod"'
    name, cards = parse_cockatrice(answer.content.decode())
    assert name == "Κουζίνα & <Sink>"
    assert cards == [("Frying Pan", 2), ("Wash Up", 1)]
    assert "Hand limit: The hand limit is 7." in answer.content.decode()  # the Special Rules, in the comments
