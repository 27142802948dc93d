// /sign-in: email and password, or single sign-on when configured. Errors from the
// single sign-on callback arrive as ?error=<code>.
import { ApiError } from "./api.js";
import { el, field, input, request } from "./account-api.js";

const MESSAGES = {
  invalid_credentials: "The email address or the password is wrong.",
  sign_in_limited:
    "Too many attempts. Wait a few minutes, or ask an administrator for a reset link.",
  oidc_domain_not_allowed: "Your email domain may not sign in here. Ask an administrator.",
  oidc_no_account: "There is no account for this email address. Ask for an invitation.",
  oidc_not_linked:
    "Your account is not linked to single sign-on yet. Sign in with your password, or ask an administrator to link it.",
  oidc_no_email: "The sign-on provider did not share a verified email address.",
  oidc_state_mismatch: "The sign-on took too long or came from another browser. Try again.",
  oidc_refused: "The sign-on was cancelled or refused.",
  oidc_token_expired: "The sign-on provider's answer had expired. Try again.",
  oidc_invalid_token: "The sign-on provider's answer could not be trusted.",
  oidc_exchange_failed: "The sign-on provider refused to finish signing you in.",
  oidc_unavailable: "The sign-on provider cannot be reached right now.",
};

export function mountSignIn(root, config) {
  const params = new URLSearchParams(window.location.search);
  // Where to go afterwards: judged by the server (askdocs.auth.redirects), never read here.
  const next = config.next || "/assistant";
  const heading = el("h1", "", "Sign in");
  heading.id = "signin-title";
  const email = input("email", "email", "username");
  const password = input("password", "password", "current-password");
  const error = el("p", "ask-error", MESSAGES[params.get("error")] || (params.get("error") ? "Signing in failed." : ""));
  error.id = "signin-error";
  error.setAttribute("role", "alert");
  const button = el("button", "primary-button", "Sign in");
  button.type = "submit";
  button.id = "signin-submit";
  const form = el("form", "signin-card");
  form.setAttribute("aria-labelledby", "signin-title");
  form.append(heading, ...field("Email", email), ...field("Password", password), error, button);
  if (config.oidc) {
    const sso = el("a", "secondary-button sso-button", `Sign in with ${config.oidcName}`);
    sso.id = "signin-sso";
    sso.href = `/api/v1/auth/oidc/start?${new URLSearchParams({ next })}`;
    form.append(el("p", "divider", "or"), sso);
  }
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    button.disabled = true;
    error.textContent = "";
    try {
      await request("POST", "/api/v1/auth/sign-in", { email: email.value, password: password.value });
      window.location.assign(next);
    } catch (failure) {
      const code = failure instanceof ApiError ? failure.code : "";
      error.textContent = MESSAGES[code] || "Signing in is not possible right now. Try again.";
      button.disabled = false;
      password.focus();
    }
  });
  const main = el("main", "signin");
  main.append(form);
  root.replaceChildren(main);
  email.focus();
}
