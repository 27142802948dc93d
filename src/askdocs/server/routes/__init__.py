"""Route modules. Each exposes ``router: fastapi.APIRouter``; the app includes them in order."""

ROUTER_MODULES: tuple[str, ...] = ("askdocs.server.routes.health",)
