import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dvorak_site.settings")
application = get_wsgi_application()

from dvorak_site.startup import settle  # noqa: E402  (needs Django set up first)

settle()
