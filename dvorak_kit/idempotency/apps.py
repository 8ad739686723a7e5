from django.apps import AppConfig


class IdempotencyConfig(AppConfig):
    name = "dvorak_kit.idempotency"
    label = "idempotency"
    verbose_name = "Idempotency receipts"
