// /account: the signed-in person's own account: who they are, their organisations and
// roles, and where to go next. Everything comes from GET /api/v1/auth/session (the same
// read the header's sign-out uses); nothing here changes anything.
import { el } from "./account-api.js";

function row(label, value) {
  const item = el("div", "account-fact");
  item.append(el("dt", "", label), el("dd", "", value));
  return item;
}

function organisations(list) {
  if (!list.length) return el("p", "admin-note", "You are not in any organisation yet.");
  const items = el("ul", "account-orgs");
  for (const org of list) items.append(el("li", "", `${org.name} (${org.role || "no role"})`));
  return items;
}

function links(user, orgs) {
  const nav = el("nav", "account-links");
  nav.setAttribute("aria-label", "Where to go");
  const targets = [["/assistant", "Open the assistant in full screen"], ["/", "Read the documentation"]];
  if (user.platformAdmin || orgs.some((o) => o.role === "owner" || o.role === "admin")) {
    targets.splice(1, 0, ["/admin", "Administer"]);
  }
  for (const [href, text] of targets) {
    const link = el("a", "secondary-button", text);
    link.href = href;
    nav.append(link);
  }
  return nav;
}

export function mountAccount(root, session) {
  const { user, organisations: orgs = [] } = session.me;
  const page = el("div", "admin account-self");
  const card = el("section", "admin-card");
  const facts = el("dl", "account-facts");
  facts.append(
    row("Name", user.displayName || "(no name set)"),
    row("Email", user.email),
    row("Platform administrator", user.platformAdmin ? "yes" : "no"),
  );
  card.append(el("h2", "", "You"), facts);
  const orgCard = el("section", "admin-card");
  orgCard.append(el("h2", "", "Organisations"), organisations(orgs));
  page.append(el("h1", "", "Your account"), card, orgCard, links(user, orgs));
  root.replaceChildren(page);
}
