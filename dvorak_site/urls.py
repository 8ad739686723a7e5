from django.conf import settings
from django.contrib import admin
from django.urls import include, path, re_path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from dvorak_site.api.views import NotFoundView

admin.site.site_url = "/"  # "View site" opens the public archive

api_v1 = [
    path("", include("dvorak_site.api.urls")),
    path("", include("decks.api.urls")),
    path("", include("ccg.api.urls")),
    path("", include("community.api.urls")),
    path("", include("games.api.urls")),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),  # Swagger UI
    path("redoc/", SpectacularRedocView.as_view(url_name="schema"), name="redoc"),
    re_path(r"^[\s\S]*$", NotFoundView.as_view()),  # last: any other API path (newlines too) is a JSON 404
]

urlpatterns = [
    path("api/v1/", include(api_v1)),
    # The CCG records' admin pages were the archive app's until the CCG side became an app of its own: a curator's
    # bookmark of an old page is sent to the new one.
    re_path(r"^admin/decks/(?P<rest>(?:cardsetversion|cardsetplayer|playerdeck|playerdeckentry|notification)/.*)$",
            RedirectView.as_view(url="/admin/ccg/%(rest)s", permanent=True, query_string=True)),
    # The admin's sign-in page offers "Forgot your password?" when this name exists: the site's reset, by email.
    path("admin/password_reset/", RedirectView.as_view(pattern_name="web:password-reset"), name="admin_password_reset"),
    path("admin/", admin.site.urls),
    path("", include("web.urls")),
]

if settings.BENCH_ENDPOINTS:
    from django.views.decorators.csrf import csrf_exempt

    from dvorak_site.api.bench import BareInsertView, deck_cards, deck_draw

    urlpatterns.insert(0, path("api/v1/bench/insert/", BareInsertView.as_view()))
    urlpatterns.insert(0, path("bench/deck/<int:deck_id>/draw/", csrf_exempt(deck_draw)))
    urlpatterns.insert(0, path("bench/archive/<slug:slug>/cards/", deck_cards))
