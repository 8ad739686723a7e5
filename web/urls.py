from django.urls import path

from web import views

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/sign-up/", views.sign_up, name="sign-up"),
    path("accounts/sign-in/", views.SignInView.as_view(), name="sign-in"),
    path("accounts/sign-out/", views.SignOutView.as_view(), name="sign-out"),
]
