"""The site's pages. Thin, as the API's views are: read through selectors, write through services."""

from django.contrib import auth
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import UserCreationForm
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods


def _next_url(request, default: str = "/") -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                   require_https=request.is_secure()):
        return target
    return default


@require_http_methods(["GET", "POST"])
def sign_up(request):
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        auth.login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(_next_url(request))
    return render(request, "registration/sign_up.html", {"form": form, "next": _next_url(request, "")})


class SignInView(auth_views.LoginView):
    template_name = "registration/sign_in.html"
    redirect_authenticated_user = True


class SignOutView(auth_views.LogoutView):
    next_page = "/"
