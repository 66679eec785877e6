"""The browsable API documentation (Swagger UI) at /api/docs/, served from this site only.

The Swagger UI files come from drf-spectacular-sidecar as static files (no CDN), and the split view
serves the initialising script as a separate file (`?script`), so the strict Content-Security-Policy
(no inline scripts or styles) holds on this page too.
"""

from django.contrib.auth.decorators import login_required
from drf_spectacular.views import SpectacularSwaggerSplitView


class ApiDocsView(SpectacularSwaggerSplitView):
    url_name = "api-schema"
    # drf-spectacular's own page carries an inline <style>, which the policy refuses.
    template_name = "api/docs.html"


# A person reading the docs signs in with the site's session; the schema needs it (SERVE_PERMISSIONS),
# so an anonymous visitor is sent to the login page instead of getting a bare 403.
api_docs = login_required(ApiDocsView.as_view())
