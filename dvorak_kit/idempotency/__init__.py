"""The receipts of the API's creating requests sent with an ``Idempotency-Key``: the first answer, given again to a
retry of the same request (``dvorak_kit.api.idempotency``). Game commands keep their own receipts, per game."""
