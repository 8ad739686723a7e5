from django.urls import path

from dvorak_site.api import views

urlpatterns = [
    path("auth/register/", views.RegisterView.as_view(), name="auth-register"),
    path("auth/token/", views.TokenView.as_view(), name="auth-token"),
    path("auth/ticket/", views.TicketView.as_view(), name="auth-ticket"),
    path("health/", views.HealthView.as_view(), name="health"),
]
