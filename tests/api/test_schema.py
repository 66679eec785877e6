import pytest
from django.contrib.auth import get_user_model
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema
from rest_framework.test import APIClient

from tests.factories import UserFactory

P = "/api/projects/{slug}"
EXPECTED = {
    "/api/auth/token/": {"post"},
    "/api/auth/logout/": {"post"},
    "/api/projects/": {"get", "post"},
    f"{P}/": {"get", "patch"},
    f"{P}/members/": {"get", "post"},
    f"{P}/members/{{membership_id}}/": {"patch"},
    f"{P}/members/{{membership_id}}/profile/": {"get", "put"},
    f"{P}/profile/": {"get", "put"},
    f"{P}/invitations/": {"get"},
    f"{P}/invitations/{{invitation_id}}/": {"delete"},
    "/api/invitations/": {"get"},
    "/api/invitations/{invitation_id}/accept/": {"post"},
    "/api/invitations/{invitation_id}/decline/": {"post"},
    f"{P}/categories/": {"get"},
    f"{P}/concepts/": {"get"},
    f"{P}/concepts/import/": {"post"},
    f"{P}/plans/authoring/": {"post"},
    f"{P}/assignments/": {"get"},
    f"{P}/assignments/next/": {"post"},
    f"{P}/assignments/{{assignment_id}}/": {"get"},
    f"{P}/assignments/{{assignment_id}}/draft/": {"put"},
    f"{P}/assignments/{{assignment_id}}/submit/": {"post"},
    f"{P}/items/": {"get"},
    f"{P}/items/{{item_id}}/": {"get"},
    f"{P}/items/{{item_id}}/review/": {"post"},
    f"{P}/reviews/queue/": {"get"},
    f"{P}/reviews/next/": {"post"},
    f"{P}/error-types/": {"get"},
    f"{P}/dashboard/": {"get"},
}


@pytest.fixture(scope="module")
def schema():
    # Generating the schema reads no rows, so one copy serves every test here; an unsaved user is
    # enough to pass IsAuthenticated without a database.
    client = APIClient()
    client.force_authenticate(user=get_user_model()(username="reader"))
    response = client.get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    return response.json()


@pytest.mark.django_db
def test_the_schema_is_refused_to_anonymous_callers():
    response = APIClient().get("/api/schema/", {"format": "json"})

    assert (response.status_code, response.json()) == (
        401,
        {"detail": "Authentication credentials were not provided.", "code": "not_authenticated"},
    )
    assert response["WWW-Authenticate"] == "Token"


@pytest.mark.django_db
def test_the_schema_is_served_to_a_signed_in_user_by_session_or_token():
    user = UserFactory(username="reader")
    session = APIClient()
    session.force_login(user)
    token = APIClient().post("/api/auth/token/", {"username": "reader", "password": "pw-Gotong-2026"}, format="json")
    with_token = APIClient()
    with_token.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")

    answers = [session.get("/api/schema/", {"format": "json"}), with_token.get("/api/schema/", {"format": "json"})]

    assert [r.status_code for r in answers] == [200, 200]
    assert [r.json()["info"]["title"] for r in answers] == ["Gotong API", "Gotong API"]


def _operations(paths, prefix=""):
    return {prefix + path: set(ops) - {"parameters"} for path, ops in paths.items()}


def test_schema_is_valid_openapi_3_listing_every_endpoint(schema):
    # The routes of config.api_urls alone: other routes (the cross-answering API's) may join /api/ without
    # breaking this.
    own = SchemaGenerator(urlconf="config.api_urls").get_schema(request=None, public=True)

    validate_schema(schema)  # raises on anything that isn't OpenAPI 3
    assert schema["openapi"].startswith("3.")
    assert _operations(own["paths"], prefix="/api") == EXPECTED
    served = _operations(schema["paths"])
    assert {path: served.get(path) for path in EXPECTED} == EXPECTED


def test_schema_documents_request_and_response_bodies(schema):
    paths, components = schema["paths"], schema["components"]["schemas"]

    submit = paths[f"{P}/assignments/{{assignment_id}}/submit/"]["post"]
    assert submit["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/AuthoringInput"
    }
    assert set(submit["responses"]) == {"200", "400", "403", "404", "409"}
    assert submit["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ItemDetail"
    }
    assert set(paths[f"{P}/assignments/next/"]["post"]["responses"]) == {"200", "204", "404"}
    review = paths[f"{P}/items/{{item_id}}/review/"]["post"]
    assert set(review["responses"]) == {"201", "400", "403", "404", "409"}
    assert set(components["ReviewInput"]["properties"]) == {"version_id", "decision", "feedback", "error_types"}
    assert set(components["ItemDetail"]["properties"]) >= {
        "payload",
        "status",
        "concept",
        "category",
        "author",
        "versions",
        "reviews",
    }
    assert set(components["Error"]["properties"]) == {"detail", "code", "errors"}
    imported = paths[f"{P}/concepts/import/"]["post"]["requestBody"]["content"]
    assert list(imported) == ["multipart/form-data"]
    assert "security" not in paths["/api/auth/token/"]["post"]  # no credentials needed to ask for a token
    assert paths[f"{P}/dashboard/"]["get"]["security"] == [{"knoxApiToken": []}, {"cookieAuth": []}]
    assert paths["/api/auth/logout/"]["post"]["security"] == [{"knoxApiToken": []}]
    assert set(paths["/api/auth/logout/"]["post"]["responses"]) == {"204", "401"}
    assert set(components["Token"]["properties"]) == {"token", "expiry"}
