from django.contrib.auth import authenticate
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from annotation.api.authentication import TokenAuthentication
from annotation.api.serializers import TokenRequestSerializer, TokenSerializer
from annotation.api.services import auth_token_obtain, auth_token_revoke
from annotation.api.views.base import ERROR, validated
from annotation.errors import InvalidInput


class TokenObtainApi(APIView):
    # No session auth here: the token is the credential being asked for, and CSRF doesn't apply.
    authentication_classes = []
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="auth_token_obtain",
        request=TokenRequestSerializer,
        responses={200: TokenSerializer, 400: ERROR, 429: ERROR},
        auth=[],
        tags=["auth"],
    )
    def post(self, request):
        data = validated(TokenRequestSerializer, request.data)
        # The DRF request goes to django-axes, which counts failures per user name and IP and, past the
        # limit, refuses even the right password and flags the request.
        user = authenticate(request=request, username=data["username"], password=data["password"])
        if user is None:
            if getattr(request, "axes_locked_out", False):
                return Response(
                    {"detail": "Too many failed logins; try again later.", "code": "locked_out"},
                    status=status.HTTP_429_TOO_MANY_REQUESTS,
                )
            raise InvalidInput(
                "Unable to log in with these credentials.",
                field_errors={"non_field_errors": ["Wrong user name or password."]},
            )
        token = auth_token_obtain(user=user)
        return Response(TokenSerializer(token).data)


class TokenLogoutApi(APIView):
    # Token only: it is the token of this request that is revoked; a browser session logs out on the page.
    authentication_classes = [TokenAuthentication]
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="auth_token_logout",
        request=None,
        responses={204: None, 401: ERROR},
        tags=["auth"],
    )
    def post(self, request):
        auth_token_revoke(token=request.auth)
        return Response(status=status.HTTP_204_NO_CONTENT)
