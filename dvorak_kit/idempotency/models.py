from django.conf import settings
from django.db import models


class RequestReceipt(models.Model):
    """The first answer to a creating request sent with an Idempotency-Key, given again to a retry of it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=200)
    # SHA-256 of the request the key first came with (method, path, body): the same key with another request is
    # refused, not answered with this one's answer.
    request_hash = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField()
    # The answer's headers a retry must see again (Location, ETag) and its body.
    headers = models.JSONField(default=dict)
    body = models.JSONField(null=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="idempotency_receipt_key")]
        indexes = [models.Index(fields=["user", "created_at"], name="idempotency_receipt_age")]

    def __str__(self) -> str:
        return f"{self.key} of user {self.user_id}"
