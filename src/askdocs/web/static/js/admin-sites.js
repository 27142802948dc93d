// The Sites panel: the organisation's sites, and every change to them made through the
// operation table's forms (CreateSite, UpdateSite, DeleteSite: propose, review, apply) and
// its re-index action.
import { el } from "./account-api.js";
import { note, operationForm, opener, operations, refusal, run } from "./admin-forms.js";

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

function siteRow(ctx, ops, site, slot) {
  return [site.name, site.id, site.public ? "public" : "private", site.askEnabled ? "on" : "off",
    rootsText(site.roots), site.hostnames.join(", "), siteActions(ctx, ops, site, slot)];
}

export async function sitesPanel(ctx, ui) {
  const ops = await operations(ctx.session);
  const slot = el("div", "op-slot");
  slot.id = "site-form-slot";
  const parts = [];
  try {
    const { sites } = await run(ctx, ops.get("list_sites"), {});
    const rows = sites.map((site) => siteRow(ctx, ops, site, slot));
    parts.push(rows.length
      ? ui.table(["Name", "Id", "Visibility", "Ask AI", "Roots", "Hostnames", ""], rows)
      : note("This organisation has no sites of its own yet."));
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
