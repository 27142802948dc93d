// The reader header's account menu: "Sign in" for a visitor (back to this page after), and
// for a signed-in person a menu with who they are, the assistant, the admin area and
// "Sign out". A menu button (aria-haspopup, aria-expanded); Escape and a click outside
// close it and return focus to the button.
import { Session, el } from "./account-api.js";

function here() {
  const { pathname, search, hash } = window.location;
  return `${pathname}${search}${hash}`;
}

function signInLink() {
  const link = el("a", "account-sign-in", "Sign in");
  link.href = `/sign-in?next=${encodeURIComponent(here())}`;
  return link;
}

function item(text, onChoose) {
  const node = el("button", "account-item", text);
  node.type = "button";
  node.setAttribute("role", "menuitem");
  node.addEventListener("click", onChoose);
  return node;
}

function menuFor(session, button, close) {
  const menu = el("div", "account-menu");
  menu.id = "account-menu";
  menu.setAttribute("role", "menu");
  menu.hidden = true;
  const user = session.user || {};
  menu.append(el("p", "account-menu-who", user.displayName || user.email || "Signed in"));
  if (user.displayName && user.email) menu.append(el("p", "account-menu-email", user.email));
  const go = (path) => () => window.location.assign(path);
  menu.append(
    item("Assistant", go("/assistant")),
    item("Admin area", go("/admin")),
    item("Your account", go("/account")),
    item("Sign out", async () => {
      close();
      button.disabled = true;
      try {
        await session.signOut();
      } finally {
        window.location.reload();
      }
    }),
  );
  return menu;
}

function mountMenu(slot, session) {
  const wrap = el("div", "account");
  const button = el("button", "icon-button account-button");
  button.type = "button";
  button.id = "account-button";
  button.setAttribute("aria-haspopup", "menu");
  button.setAttribute("aria-expanded", "false");
  button.setAttribute("aria-controls", "account-menu");
  const user = session.user || {};
  const name = user.displayName || user.email || "Account";
  button.setAttribute("aria-label", `Account: ${name}`);
  button.title = name;
  button.append(el("span", "account-initial", name.trim().charAt(0).toUpperCase() || "?"));
  const open = (value) => {
    menu.hidden = !value;
    button.setAttribute("aria-expanded", String(value));
    if (value) menu.querySelector("[role=menuitem]")?.focus();
  };
  const close = () => open(false);
  const menu = menuFor(session, button, close);
  button.addEventListener("click", () => open(menu.hidden));
  menu.addEventListener("keydown", (event) => {
    const items = [...menu.querySelectorAll("[role=menuitem]")];
    const at = items.indexOf(document.activeElement);
    if (event.key === "Escape") {
      close();
      button.focus();
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      items[(at + step + items.length) % items.length]?.focus();
    }
  });
  document.addEventListener("click", (event) => {
    if (!wrap.contains(event.target)) close();
  });
  wrap.append(button, menu);
  slot.replaceChildren(wrap);
}

async function main() {
  const slot = document.getElementById("account-slot");
  if (!slot) return;
  const session = await Session.current().catch(() => null);
  if (session) mountMenu(slot, session);
  else slot.replaceChildren(signInLink());
}

main().finally(() => {
  document.body.dataset.accountReady = "true";
});
