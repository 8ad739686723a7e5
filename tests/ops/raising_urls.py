"""The site's URLs and three that fail, for the tests only (``@pytest.mark.urls``): never served by the site."""

from django.http import HttpResponse
from django.urls import include, path
from rest_framework.permissions import AllowAny
from rest_framework.views import APIView

from dvorak_site import urls

SECRET = "the hand holds Black Potion"  # an exception's text, which no answer may show


def failing(request):
    raise RuntimeError(SECRET)


class FailingApiView(APIView):
    permission_classes = [AllowAny]

    def get(self, request):
        raise RuntimeError(SECRET)


def fine(request):
    return HttpResponse("fine")


urlpatterns = [
    path("api/v1/test-failing/", failing),
    path("api/v1/test-failing-drf/", FailingApiView.as_view()),
    path("test-failing-page/", failing),
    path("", include(urls.urlpatterns)),
]
