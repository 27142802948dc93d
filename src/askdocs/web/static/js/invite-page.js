// /invite/<token>: who the invitation is for; choose a password (new account) or join as
// the signed-in account, then go on to the assistant.
import { ApiError } from "./api.js";
import { Session, el, field, input, request } from "./account-api.js";

function card(title, ...children) {
  const heading = el("h1", "", title);
  heading.id = "invite-title";
  const form = el("form", "signin-card");
  form.setAttribute("aria-labelledby", "invite-title");
  form.append(heading, ...children);
  const main = el("main", "signin");
  main.append(form);
  return { main, form };
}

function describe(invitation) {
  if (invitation.organisationName) {
    return `Join ${invitation.organisationName} as ${invitation.role}, signed in as ${invitation.email}.`;
  }
  return invitation.platformAdmin
    ? `Create the account ${invitation.email} as a platform administrator.`
    : `Create the account ${invitation.email}.`;
}

export async function mountInvite(root) {
  const token = decodeURIComponent(window.location.pathname.split("/").pop() || "");
  let invitation;
  try {
    invitation = await request("GET", `/api/v1/auth/invitations/${encodeURIComponent(token)}`);
  } catch {
    const { main } = card("This invitation link is not valid",
      el("p", "", "It was already used, has expired, or was mistyped. Ask for a new one."));
    root.replaceChildren(main);
    return;
  }
  const session = await Session.current();
  const error = el("p", "ask-error", "");
  error.setAttribute("role", "alert");
  const button = el("button", "primary-button", "Accept invitation");
  button.type = "submit";
  button.id = "invite-accept";
  const parts = [el("p", "", describe(invitation))];
  let name = null;
  let password = null;
  // The server never says whether the address has an account (the link's holder may be
  // the inviter): a new account chooses a password, an existing one signs in first.
  if (!invitation.forYou) {
    name = input("name", "text", "name");
    name.required = false;
    password = input("new-password", "password", "new-password");
    parts.push(...field("Your name", name), ...field("Choose a password (at least 10 characters)", password));
    const link = el("a", "", `sign in as ${invitation.email}`);
    link.id = "invite-sign-in";
    link.href = `/sign-in?${new URLSearchParams({ next: window.location.pathname })}`;
    const note = el("p", "muted", "Already have an account? First ");
    note.append(link, ", then open this link again.");
    parts.push(note);
  }
  const { main, form } = card("You are invited", ...parts, error, button);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    button.disabled = true;
    error.textContent = "";
    const body = { token, name: name ? name.value : "" };
    if (password) body.password = password.value;
    try {
      await request("POST", "/api/v1/auth/invitations/accept", body, session ? session.csrf : "");
      window.location.assign("/assistant");
    } catch (failure) {
      error.textContent = failure instanceof ApiError && failure.message
        ? failure.message
        : "The invitation could not be accepted. Try again.";
      button.disabled = false;
    }
  });
  root.replaceChildren(main);
  (password || button).focus();
}
