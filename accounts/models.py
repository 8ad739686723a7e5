from django.db import models


class SpentTicket(models.Model):
    """A websocket or stream ticket that has opened something: it opens nothing again. Kept until long after the
    ticket itself expired (accounts.tickets), then pruned."""

    nonce = models.CharField(max_length=32, primary_key=True)
    spent_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"ticket {self.nonce} spent at {self.spent_at:%Y-%m-%d %H:%M:%S}"
