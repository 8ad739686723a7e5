"""The archive's file answers: a deck's exports and a player deck's deck files."""

from django.http import HttpResponse

from decks.exporters import UnknownFormatError
from dvorak_core.errors import NotFound


def attachment(make) -> HttpResponse:
    """``make()`` gives (content, content_type, filename); the answer is that file to download. A format the
    exporters do not know is a 404, as a missing deck is."""
    try:
        content, content_type, filename = make()
    except UnknownFormatError as error:
        raise NotFound(str(error)) from error
    return HttpResponse(content, content_type=content_type,
                        headers={"Content-Disposition": f'attachment; filename="{filename}"'})
