"""The site's pages. Thin, as the API's views are: read through selectors, write through services."""

from django import forms
from django.contrib import auth
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import UserCreationForm
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods


def _next_url(request, default: str = "/") -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                   require_https=request.is_secure()):
        return target
    return default


class SignUpForm(UserCreationForm):
    email = forms.EmailField(required=False, help_text="Optional: for resetting a forgotten password, and for the "
                                                      "CCG notices. Never shown to anyone.")

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


@require_http_methods(["GET", "POST"])
def sign_up(request):
    form = SignUpForm(request.POST or None)
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


# Password resets: Django's own views, on the site's templates (the admin's of the same names would win otherwise).
# The mail goes out through EMAIL_BACKEND: printed in the server's log under `make run`, SMTP when configured.
password_reset = auth_views.PasswordResetView.as_view(
    template_name="web/accounts/password_reset_form.html",
    email_template_name="web/accounts/password_reset_email.txt",
    subject_template_name="web/accounts/password_reset_subject.txt",
    success_url=reverse_lazy("web:password-reset-done"),
)
password_reset_done = auth_views.PasswordResetDoneView.as_view(template_name="web/accounts/password_reset_done.html")
password_reset_confirm = auth_views.PasswordResetConfirmView.as_view(
    template_name="web/accounts/password_reset_confirm.html", success_url=reverse_lazy("web:password-reset-complete"),
)
password_reset_complete = auth_views.PasswordResetCompleteView.as_view(
    template_name="web/accounts/password_reset_complete.html",
)
