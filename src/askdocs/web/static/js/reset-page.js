// /reset/<token>: a one-time password-reset link from an administrator. Choose a new
// password; every other session and token of the account ends, and this browser is signed
// in (and recognised from now on, even while password sign-in is paused for strangers).
import { ApiError } from "./api.js";
import { el, field, input, request } from "./account-api.js";

function card(title, ...children) {
  const heading = el("h1", "", title);
  heading.id = "reset-title";
  const form = el("form", "signin-card");
  form.setAttribute("aria-labelledby", "reset-title");
  form.append(heading, ...children);
  const main = el("main", "signin");
  main.append(form);
  return { main, form };
}

export async function mountReset(root) {
  const token = decodeURIComponent(window.location.pathname.split("/").pop() || "");
  let link;
  try {
    link = await request("GET", `/api/v1/auth/reset/${encodeURIComponent(token)}`);
  } catch {
    const { main } = card("This reset link is not valid",
      el("p", "", "It was already used, has expired, or was mistyped. Ask an administrator for a new one."));
    root.replaceChildren(main);
    return;
  }
  const password = input("new-password", "password", "new-password");
  const error = el("p", "ask-error", "");
  error.id = "reset-error";
  error.setAttribute("role", "alert");
  const button = el("button", "primary-button", "Set the password and sign in");
  button.type = "submit";
  button.id = "reset-submit";
  const { main, form } = card("Choose a new password",
    el("p", "", `For ${link.email}. Every other session of the account ends.`),
    ...field("New password (at least 10 characters)", password), error, button);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    button.disabled = true;
    error.textContent = "";
    try {
      await request("POST", "/api/v1/auth/reset", { token, password: password.value });
      window.location.assign("/assistant");
    } catch (failure) {
      error.textContent = failure instanceof ApiError && failure.message
        ? failure.message
        : "The password could not be set. Try again.";
      button.disabled = false;
    }
  });
  root.replaceChildren(main);
  password.focus();
}
