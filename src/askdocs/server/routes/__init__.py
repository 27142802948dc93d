"""Route modules. Each exposes ``router: fastapi.APIRouter``; the app includes them in order."""

ROUTER_MODULES: tuple[str, ...] = (
    "askdocs.server.routes.health",
    "askdocs.server.routes.ready",
    "askdocs.server.routes.search",
    "askdocs.server.routes.ask",
    "askdocs.server.routes.ask_feedback",
    "askdocs.server.routes.turnstile",
    "askdocs.server.routes.assistant",
    "askdocs.server.routes.assistant_feedback",
    "askdocs.server.routes.admin",
    "askdocs.server.routes.ask_report",
    "askdocs.server.routes.proposals",
    "askdocs.server.routes.auth",
    "askdocs.server.routes.oidc",
    "askdocs.server.routes.invitations",
    "askdocs.server.routes.reset",
    "askdocs.server.routes.orgs",
    "askdocs.server.routes.reader",
    "askdocs.server.routes.account_pages",
    "askdocs.server.routes.agent_text",
    "askdocs.server.routes.web",
)
