// /admin: the admin area. Every panel calls the same REST operations as scripts and the
// assistant (/api/v1/orgs, /api/v1/invitations, /api/v1/admin/*), so the server applies the
// same authority checks; a refusal is shown in the panel, never hidden. Every admin change
// is a form built from its operation's schema (admin-forms.js), proposed, reviewed, applied.
import { el } from "./account-api.js";
import { providersPanel } from "./admin-providers.js";
import { reportPanel } from "./admin-report.js";
import { runsPanel } from "./admin-runs.js";
import { sitesPanel } from "./admin-sites.js";
import { mountUsersPanel } from "./admin-users.js";

const TABS = [
  ["users", "Users and grants"],
  ["sites", "Sites"],
  ["providers", "Inference providers"],
  ["runs", "Index runs"],
  ["report", "Docs gaps"], // platform administrators only
];
const PATHS = { report: "/admin/report" };

export function table(headers, rows) {
  const node = el("table", "admin-table");
  const head = el("tr");
  for (const text of headers) head.append(el("th", "", text));
  const thead = el("thead");
  thead.append(head);
  const body = el("tbody");
  for (const cells of rows) {
    const row = el("tr");
    cells.forEach((cell, index) => {
      const td = el("td");
      td.dataset.label = headers[index];
      if (cell instanceof Node) td.append(cell);
      else td.textContent = cell === null || cell === undefined ? "" : String(cell);
      row.append(td);
    });
    body.append(row);
  }
  node.append(thead, body);
  return node;
}

export function note(text) {
  const node = el("p", "admin-note", text);
  node.setAttribute("role", "status");
  return node;
}

export function refusalText(error) {
  return `Not available to you here: ${error.message || "refused"}.`;
}

function card(title, ...children) {
  const node = el("section", "admin-card");
  node.append(el("h2", "", title), ...children);
  return node;
}

const UI = { card, table, note, refusalText };

const PANELS = {
  users: (ctx) => mountUsersPanel(ctx, UI),
  sites: (ctx) => sitesPanel(ctx, UI),
  providers: (ctx) => providersPanel(ctx, UI),
  runs: (ctx) => runsPanel(ctx, UI),
  report: (ctx) => reportPanel(ctx, UI),
};

function orgPicker(orgs, chosen, onChange) {
  const label = el("label", "", "Organisation");
  const select = el("select", "admin-select");
  select.id = "admin-org";
  for (const org of orgs) {
    const option = el("option", "", org.role ? `${org.name} (${org.role})` : org.name);
    option.value = org.id;
    option.selected = org.id === chosen;
    select.append(option);
  }
  select.addEventListener("change", () => onChange(select.value));
  label.append(select);
  return label;
}

function newOrgForm(session, reload) {
  const form = el("form", "admin-form");
  const label = el("label", "", "New organisation");
  const name = el("input", "admin-input");
  Object.assign(name, { id: "new-org-name", required: true, maxLength: 200 });
  label.append(name);
  const button = el("button", "secondary-button", "Create");
  button.type = "submit";
  form.append(label, button);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const org = await session.call("POST", "/api/v1/orgs", { name: name.value });
    reload(org.id);
  });
  return form;
}

// `tab`: the panel to open first ("report" at /admin/report).
export async function mountAdmin(root, session, chosen = null, tab = "users") {
  const { organisations } = await session.call("GET", "/api/v1/orgs");
  const main = el("main", "admin");
  main.id = "admin";
  main.append(el("h1", "", "Admin"));
  const bar = el("div", "admin-bar");
  main.append(bar);
  const reload = (orgId) => mountAdmin(root, session, orgId, ctxTab());
  let ctxTab = () => tab;
  if (session.user.platformAdmin) bar.append(newOrgForm(session, reload));
  root.replaceChildren(main);
  if (tab === "report" && !session.user.platformAdmin) {
    main.append(note("The docs-gaps report is for platform administrators."));
  }
  if (!organisations.length) {
    main.append(note("You are not in any organisation yet. An administrator can add you."));
    return;
  }
  const managed = organisations.find((o) => o.role === "owner" || o.role === "admin");
  const orgId = chosen || (managed || organisations[0]).id;
  bar.prepend(orgPicker(organisations, orgId, reload));
  const tabs = el("div", "admin-tabs");
  tabs.setAttribute("role", "tablist");
  const panel = el("div", "admin-panel");
  panel.id = "admin-panel";
  panel.setAttribute("role", "tabpanel");
  main.append(tabs, panel);
  const org = await session.call("GET", `/api/v1/orgs/${encodeURIComponent(orgId)}`);
  const ctx = { session, orgId, org, me: session.user, reload: () => show(ctx.tab) };
  ctxTab = () => ctx.tab;
  const allowed = TABS.filter(([name]) => name !== "report" || session.user.platformAdmin);
  async function show(name) {
    ctx.tab = name;
    const path = PATHS[name] || "/admin";
    if (window.location.pathname !== path) window.history.replaceState(null, "", path);
    for (const button of tabs.children) button.setAttribute("aria-selected", String(button.dataset.tab === name));
    panel.replaceChildren(note("Loading…"));
    panel.replaceChildren(await PANELS[name](ctx));
    panel.dataset.loaded = name;
  }
  for (const [name, title] of allowed) {
    const button = el("button", "admin-tab", title);
    Object.assign(button, { type: "button", id: `tab-${name}` });
    button.dataset.tab = name;
    button.setAttribute("role", "tab");
    button.addEventListener("click", () => show(name));
    tabs.append(button);
  }
  await show(allowed.some(([name]) => name === tab) ? tab : "users");
}
