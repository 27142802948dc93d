// The Index runs panel: every indexing run of the organisation's sites (re-indexes asked
// for and the background indexer's runs), newest first, with its figures and failures,
// for all sites or one.
import { el } from "./account-api.js";
import { note, operations, refusal, run } from "./admin-forms.js";

const LIMIT = 50;
const HEADERS = ["Site", "Status", "By", "Started", "Finished", "Pages", "Chunks", "Embedded",
  "Reused", "Failed files", "Error"];

function when(value) {
  return value ? new Date(value).toLocaleString() : "";
}

function runRow(names, r) {
  const by = r.initiator === "background" ? "background indexer" : r.initiator;
  return [names.get(r.siteId) || r.siteId, r.status, by, when(r.startedAt), when(r.finishedAt),
    r.pages ?? "", r.chunks ?? "", r.embedded ?? "", r.reused ?? "", r.failedFiles ?? "", r.error || ""];
}

function siteFilter(sites, chosen, onChange) {
  const label = el("label", "runs-filter", "Site");
  const select = el("select", "admin-select");
  select.id = "runs-site";
  for (const [value, text] of [["", "All sites"], ...sites.map((s) => [s.id, s.name])]) {
    const option = el("option", "", text);
    option.value = value;
    option.selected = value === chosen;
    select.append(option);
  }
  select.addEventListener("change", () => onChange(select.value));
  label.append(select);
  return label;
}

async function runsTable(ctx, ops, names, siteId) {
  const args = siteId ? { siteId, limit: LIMIT } : { limit: LIMIT };
  const { runs } = await run(ctx, ops.get("list_index_runs"), args);
  if (!runs.length) return note(siteId ? "No index runs of this site yet." : "No index runs yet.");
  return ctx.ui.table(HEADERS, runs.map((r) => runRow(names, r)));
}

export async function runsPanel(ctx, ui) {
  const ops = await operations(ctx.session);
  let sites;
  try {
    ({ sites } = await run(ctx, ops.get("list_sites"), {}));
  } catch (error) {
    return ui.card("Index runs", refusal(error));
  }
  const names = new Map(sites.map((site) => [site.id, site.name]));
  const body = el("div", "runs-body");
  body.id = "runs-body";
  const show = async (siteId) => {
    try {
      body.replaceChildren(await runsTable({ ...ctx, ui }, ops, names, siteId));
    } catch (error) {
      body.replaceChildren(refusal(error));
    }
  };
  await show("");
  return ui.card("Index runs", siteFilter(sites, "", show), body);
}
