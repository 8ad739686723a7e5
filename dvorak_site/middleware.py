"""The health check answers before the host check and the HTTPS redirect.

Probes (docker compose's health check, a load balancer) reach the process at its own address over plain
HTTP: their Host header is not a name the site serves, and they do not come through the TLS proxy. So
GET /api/v1/health/ is answered here, by the API's own health view, before SecurityMiddleware redirects to
HTTPS and before anything reads the Host header; every other request goes on as usual. The answer names no
host and holds nothing secret: which parts are reachable.
"""

from django.urls import reverse


class HealthCheckMiddleware:
    def __init__(self, get_response):
        from dvorak_site.api.views import HealthView

        self.get_response = get_response
        self.health_path = reverse("health")
        self.health_view = HealthView.as_view()

    def __call__(self, request):
        if request.path_info != self.health_path:
            return self.get_response(request)
        response = self.health_view(request)
        response.render()  # no later middleware renders it: this one answers directly
        return response
