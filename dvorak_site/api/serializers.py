from django.contrib.auth import get_user_model, password_validation
from rest_framework import serializers


class CredentialsSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, write_only=True, style={"input_type": "password"})


class RegisterSerializer(CredentialsSerializer):
    username = serializers.RegexField(r"^[\w.@+-]+\Z", max_length=150)

    def validate_username(self, value: str) -> str:
        if get_user_model().objects.filter(username__iexact=value).exists():
            raise serializers.ValidationError("That username is taken.")
        return value

    def validate(self, attrs):
        password_validation.validate_password(attrs["password"], get_user_model()(username=attrs["username"]))
        return attrs


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()


class RegisteredSerializer(TokenSerializer):
    username = serializers.CharField()


class TicketSerializer(serializers.Serializer):
    ticket = serializers.CharField()
    expires_in = serializers.IntegerField(help_text="Seconds the ticket stays valid.")


class HealthSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["ok", "degraded"])
    database = serializers.DictField()
    channel_layer = serializers.DictField()
    broker = serializers.DictField()
