from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers

from dvorak_kit.api.params import StrictTypes


class CredentialsSerializer(StrictTypes):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, write_only=True, style={"input_type": "password"})


class RegisterSerializer(CredentialsSerializer):
    username = serializers.RegexField(r"^[\w.@+-]+\Z", max_length=150)
    email = serializers.EmailField(max_length=254, required=False, allow_blank=True, default="",
                                   help_text="Optional: for resetting a forgotten password (on the site) and for "
                                             "the CCG notices. Only its owner sees it.")
    # What the password validators (settings) check that a schema can say too: 8 characters, not all digits.
    password = serializers.RegexField(
        r"\D", min_length=8, max_length=128, write_only=True, style={"input_type": "password"},
        error_messages={"min_length": "This password is too short: it needs at least 8 characters.",
                        "invalid": "This password is entirely numeric."},
        help_text="At least 8 characters, not all digits, not a common password.",
    )

    def validate_username(self, value: str) -> str:
        if get_user_model().objects.filter(username__iexact=value).exists():
            raise serializers.ValidationError("That username is taken.")
        return value

    def validate(self, attrs):
        # Every password rule's refusal under "password", where a client shows it (Django's validators raise
        # their own ValidationError, which would otherwise land in non_field_errors).
        try:
            password_validation.validate_password(attrs["password"], get_user_model()(username=attrs["username"]))
        except DjangoValidationError as refused:
            raise serializers.ValidationError({"password": list(refused.messages)}) from None
        return attrs


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send it as `Authorization: Token <token>`. Shown this once: the "
                                            "service keeps only its hash.")
    id = serializers.CharField(help_text="The token's first 15 characters: how `GET /auth/tokens/` names it.")
    expiry = serializers.DateTimeField(help_text="When it stops working unless used: each use moves it on.")


class RegisteredSerializer(TokenSerializer):
    username = serializers.CharField()


class TokenRecordSerializer(serializers.Serializer):
    id = serializers.CharField()
    created = serializers.DateTimeField()
    expiry = serializers.DateTimeField()
    current = serializers.BooleanField(help_text="The token this request was sent with.")


class RevokedSerializer(serializers.Serializer):
    revoked = serializers.IntegerField(help_text="How many tokens were revoked.")


class AccountSerializer(serializers.Serializer):
    username = serializers.CharField()
    email = serializers.EmailField(allow_blank=True)


class AccountUpdateSerializer(StrictTypes):
    email = serializers.EmailField(max_length=254, allow_blank=True,
                                   help_text="The account's email address; empty to remove it.")


class TicketSerializer(serializers.Serializer):
    ticket = serializers.CharField()
    expires_in = serializers.IntegerField(help_text="Seconds the ticket stays valid.")


class HealthSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["ok", "degraded", "unavailable"])
    database = serializers.DictField()
    channel_layer = serializers.DictField()
    broker = serializers.DictField()


class LiveSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["ok"])


class ReadyChecksSerializer(serializers.Serializer):
    database = serializers.ChoiceField(choices=["ok", "unavailable"])
    redis = serializers.ChoiceField(choices=["ok", "unavailable", "not_configured"],
                                    help_text="The channel layer and Celery's broker; `not_configured` without Redis.")


class ReadySerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["ok", "degraded", "unavailable"])
    checks = ReadyChecksSerializer()
