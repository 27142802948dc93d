// The admin area's docs-gaps report (/admin/report, platform administrators): what readers
// asked Ask AI, what the documentation could not answer, which answers they disliked and
// which pages answers cite (GET /api/v1/admin/ask-report, the report `askdocs report`
// prints). For a group with no match, "Draft a page" stores the WritePage proposal the
// report suggests (POST /api/v1/proposals) and opens its page, where it is applied once.
// The report is asked for the organisation chosen in the admin page, so its drafts target
// that organisation's sites and name it (an administrator of several is not asked again).
import { el } from "./account-api.js";

const WINDOWS = [
  ["24h", "Last 24 hours"],
  ["7d", "Last 7 days"],
  ["2w", "Last 2 weeks"],
  ["30d", "Last 30 days"],
];

function groupItems(groups, { ctx, drafts }) {
  const list = el("ol", "report-groups");
  for (const found of groups) {
    const item = el("li", "report-group");
    const head = el("p", "report-group-head");
    head.append(el("strong", "", found.label), el("span", "muted", ` — asked ${found.count} ${found.count === 1 ? "time" : "times"}`));
    if (found.sites.length) head.append(el("span", "muted", ` on ${found.sites.join(", ")}`));
    item.append(head);
    const others = found.examples.filter((text) => text !== found.label);
    if (others.length) {
      const examples = el("ul", "report-examples");
      for (const text of others) examples.append(el("li", "", text));
      item.append(examples);
    }
    if (drafts && found.draft) item.append(draftButton(ctx, found));
    list.append(item);
  }
  return list;
}

// Store the proposal, then open its page (Apply there writes the file, once).
function draftButton(ctx, found) {
  const box = el("div", "report-draft");
  const button = el("button", "secondary-button report-draft-button", "Draft a page");
  button.type = "button";
  button.setAttribute("aria-label", `Draft a page for “${found.label}”`);
  const status = el("span", "muted report-draft-status");
  status.setAttribute("role", "status");
  button.addEventListener("click", async () => {
    button.disabled = true;
    status.textContent = "Drafting…";
    try {
      const stored = await ctx.session.call("POST", "/api/v1/proposals",
        { operation: "write-page", arguments: found.draft });
      status.textContent = `Proposed ${found.draft.path} on ${found.draft.siteId}.`;
      window.location.assign(`/proposals/${encodeURIComponent(stored.id)}`);
    } catch (error) {
      button.disabled = false;
      status.textContent = `Could not draft it: ${error.message || "refused"}.`;
    }
  });
  box.append(button, el("span", "muted", ` ${found.draft.siteId}: ${found.draft.path} `), status);
  return box;
}

function section(title, id, ...children) {
  const node = el("section", "admin-card report-section");
  node.id = id;
  node.append(el("h2", "", title), ...children);
  return node;
}

function summary(report) {
  const since = new Date(report.since);
  const line = `${report.questions} ${report.questions === 1 ? "question" : "questions"} since ` +
    `${since.toLocaleString()}: ${report.noMatch} with no match, ${report.flagged} flagged, ` +
    `${report.liked} liked, ${report.dislikedCount} disliked.`;
  const node = el("p", "report-summary", line);
  node.id = "report-summary";
  return node;
}

export async function reportPanel(ctx, { table, note, refusalText }) {
  const box = el("div", "report");
  const bar = el("form", "admin-form report-bar");
  const label = el("label", "", "Since");
  const select = el("select", "admin-select");
  select.id = "report-since";
  for (const [value, text] of WINDOWS) {
    const option = el("option", "", text);
    option.value = value;
    option.selected = value === (ctx.since || "7d");
    select.append(option);
  }
  label.append(select);
  bar.append(label);
  const body = el("div", "report-body");
  body.id = "report-body";
  box.append(bar, body);
  async function load() {
    ctx.since = select.value;
    body.replaceChildren(note("Loading…"));
    delete box.dataset.loaded;
    let report;
    try {
      const query = new URLSearchParams({ since: select.value, organisationId: ctx.orgId });
      report = await ctx.session.call("GET", `/api/v1/admin/ask-report?${query}`);
    } catch (error) {
      body.replaceChildren(note(refusalText(error)));
      box.dataset.loaded = "refused";
      return;
    }
    const empty = (text) => note(text);
    const disliked = report.disliked.map((d) => [d.question, d.comment || "", d.kind,
      d.flagged ? "yes" : "", new Date(d.at).toLocaleString()]);
    const cited = report.pagesMostCited.map((p) => {
      const anchor = el("a", "", p.title || p.url);
      anchor.href = p.url;
      return [anchor, p.count];
    });
    body.replaceChildren(
      summary(report),
      section("Most asked", "report-most-asked", report.mostAsked.length
        ? groupItems(report.mostAsked, { ctx, drafts: false }) : empty("No questions in this window.")),
      section("No match: pages the documentation is missing", "report-no-match", report.noMatchGroups.length
        ? groupItems(report.noMatchGroups, { ctx, drafts: true }) : empty("Every question found a match.")),
      section("Disliked answers", "report-disliked", disliked.length
        ? table(["Question", "Comment", "Where", "Flagged", "When"], disliked) : empty("No answer was rated down.")),
      section("Pages most cited", "report-cited", cited.length
        ? table(["Page", "Citations"], cited) : empty("No answer cited a page yet.")),
    );
    box.dataset.loaded = select.value;
  }
  select.addEventListener("change", load);
  await load();
  return box;
}
