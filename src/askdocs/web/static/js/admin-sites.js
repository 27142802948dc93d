// The Sites panel: the organisation's sites, and every change to them made through the
// operation table's forms (CreateSite, UpdateSite, DeleteSite: propose, review, apply) and
// its re-index action.
import { el } from "./account-api.js";
import { note, operationForm, opener, operations, refusal, run } from "./admin-forms.js";

const SITE_STATES = {
  ready: "ready", building: "indexing…", empty: "no pages", error: "indexing failed",
  docs_root_missing: "docs folder missing", unknown: "",
};
const POLL_MS = 3000; // how often the State column is refreshed while a site is indexing

function siteState(site) {
  const label = SITE_STATES[site.state] ?? site.state;
  const count = (site.problems || []).length;
  return count ? `${label} (${count} page${count === 1 ? "" : "s"} not served)` : label;
}

function stateCell(site) {
  const cell = el("span", "site-state", siteState(site));
  cell.dataset.siteId = site.id;
  cell.dataset.state = site.state || "unknown";
  return cell;
}

// While a site is indexing, re-read the list and update each State cell in place, until
// none is indexing or the panel left the page.
function watchStates(ctx, op, cells) {
  const tick = async () => {
    if (!cells.some((cell) => cell.isConnected)) return;
    let sites;
    try {
      ({ sites } = await run(ctx, op, {}));
    } catch {
      setTimeout(tick, POLL_MS * 2);
      return;
    }
    const byId = new Map(sites.map((site) => [site.id, site]));
    for (const cell of cells) {
      const site = byId.get(cell.dataset.siteId);
      if (!site) continue;
      cell.textContent = siteState(site);
      cell.dataset.state = site.state || "unknown";
    }
    if (sites.some((site) => site.state === "building")) setTimeout(tick, POLL_MS);
  };
  if (cells.some((cell) => cell.dataset.state === "building")) setTimeout(tick, POLL_MS);
}

const EDITABLE = ["name", "roots", "hostnames", "public", "askEnabled", "askDailyLimit", "defaultLocale"];

function rootsText(roots) {
  return roots.map((root) => `${root.path || "."} (${root.audience})`).join(", ");
}

function reindexButton(ctx, op, site) {
  const button = el("button", "secondary-button", "Re-index");
  button.type = "button";
  button.setAttribute("aria-label", `Re-index ${site.name}`);
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await run(ctx, op, { siteId: site.id });
      button.textContent = "Started";
    } catch (error) {
      button.textContent = error.message || "Refused";
    }
  });
  return button;
}

function siteActions(ctx, ops, site, slot) {
  const values = Object.fromEntries(EDITABLE.map((name) => [name, site[name]]));
  const fixed = { siteId: site.id };
  const done = () => ctx.reload();
  const edit = opener("Edit", slot, () => operationForm(ctx, ops.get("UpdateSite"),
    { values, fixed, onDone: done, submit: "Review changes" }));
  edit.setAttribute("aria-label", `Edit ${site.name}`);
  const remove = opener("Delete", slot, () => operationForm(ctx, ops.get("DeleteSite"),
    { fixed, onDone: done, submit: `Review: delete ${site.name}` }));
  remove.setAttribute("aria-label", `Delete ${site.name}`);
  const actions = el("div", "admin-row-actions");
  actions.append(edit, reindexButton(ctx, ops.get("reindex_site"), site), remove);
  return actions;
}

function siteRow(ctx, ops, site, slot, cells) {
  const state = stateCell(site);
  cells.push(state);
  return [site.name, site.id, site.public ? "public" : "private", site.askEnabled ? "on" : "off",
    rootsText(site.roots), site.hostnames.join(", "), state, siteActions(ctx, ops, site, slot)];
}

export async function sitesPanel(ctx, ui) {
  const ops = await operations(ctx.session);
  const slot = el("div", "op-slot");
  slot.id = "site-form-slot";
  const parts = [];
  try {
    const { sites } = await run(ctx, ops.get("list_sites"), {});
    const cells = [];
    const rows = sites.map((site) => siteRow(ctx, ops, site, slot, cells));
    parts.push(rows.length
      ? ui.table(["Name", "Id", "Visibility", "Ask AI", "Roots", "Hostnames", "State", ""], rows)
      : note("This organisation has no sites of its own yet."));
    const problems = sites.flatMap((site) => (site.problems || [])
      .map((p) => [site.id, p.path, p.reason]));
    if (problems.length) parts.push(ui.table(["Site", "Page not served", "Reason"], problems));
    watchStates(ctx, ops.get("list_sites"), cells);
  } catch (error) {
    return ui.card("Sites", refusal(error));
  }
  const create = opener("New site", slot, () => operationForm(ctx, ops.get("CreateSite"),
    { onDone: () => ctx.reload(), submit: "Review the new site" }));
  create.id = "site-new";
  parts.push(create, slot);
  if (ctx.org.ownsConfiguredSites) {
    parts.push(note("This organisation also owns the configured sites (the bundled docs and the config file's sites)."));
  }
  return ui.card("Sites", ...parts);
}
