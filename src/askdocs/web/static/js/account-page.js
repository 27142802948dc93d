// One entry for /sign-in, /invite/<token>, /reset/<token>, /account and /admin (the page
// kind is in the config).
import { Session } from "./account-api.js";
import { mountAccount } from "./account-self.js";
import { mountAdmin } from "./admin-page.js";
import { mountInvite } from "./invite-page.js";
import { mountReset } from "./reset-page.js";
import { mountSignIn } from "./sign-in-page.js";

const config = JSON.parse(document.querySelector('meta[name="askdocs-config"]').content);
const root = document.getElementById("account-root");
const section = document.getElementById("page-section");
const signOut = document.getElementById("sign-out");
const who = document.getElementById("account-who");

function showSignedIn(session) {
  who.textContent = session.user.email;
  who.hidden = false;
  signOut.hidden = false;
  signOut.addEventListener("click", async () => {
    signOut.disabled = true;
    await session.signOut().catch(() => {});
    window.location.assign("/sign-in");
  });
}

async function main() {
  section.textContent = {
    "sign-in": "Sign in", invite: "Invitation", reset: "New password", admin: "Admin", account: "Account",
  }[config.page] || "";
  if (config.page === "sign-in") mountSignIn(root, config);
  else if (config.page === "invite") await mountInvite(root);
  else if (config.page === "reset") await mountReset(root);
  else {
    const session = await Session.current();
    if (!session) {
      window.location.assign(`/sign-in?${new URLSearchParams({ next: window.location.pathname })}`);
      return;
    }
    showSignedIn(session);
    if (config.page === "account") mountAccount(root, session);
    else await mountAdmin(root, session, null, config.tab || "users");
  }
  document.body.dataset.ready = "true";
}

main();
