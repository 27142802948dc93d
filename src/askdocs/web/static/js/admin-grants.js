// The tool-grant editor: every tool the assigner holds, grouped (Read, Run, Propose, Apply)
// and shown by its operation's label and description from the operation table, with
// "grant all" shortcuts per group. Saving proposes AssignToolGrants, shows the review and
// applies it on the person's click, like every admin change.
import { el } from "./account-api.js";
import { operations, propose } from "./admin-forms.js";

const GROUPS = [
  ["read", "Read", "See sites, pages, runs, grants and providers; changes nothing."],
  ["run", "Run", "Start a re-index or a provider test."],
  ["propose", "Propose", "Prepare a change for a person to review; writes nothing."],
  ["apply", "Apply", "Apply a reviewed change."],
];

function sentence(text) {
  return text.charAt(0).toUpperCase() + text.slice(1).replace(/\.?$/, ".");
}

// tool name -> {group, label, description}, from the schemas entries of the admin table.
export function toolCatalog(ops) {
  const found = new Map();
  for (const op of ops.values()) {
    if (op.authority === "reader") continue;
    if (op.kind === "proposal") {
      const [proposeTool, applyTool] = op.tools;
      const description = sentence(op.description);
      found.set(proposeTool, { group: "propose", label: op.label, description });
      found.set(applyTool, { group: "apply", label: op.label, description });
    } else {
      const group = op.kind === "action" ? "run" : "read";
      found.set(op.operation, { group, label: op.label, description: op.description });
    }
  }
  return found;
}

function toolItem(tool, info, checked) {
  const item = el("li", "grant-item");
  const label = el("label");
  const check = el("input");
  Object.assign(check, { type: "checkbox", value: tool, checked });
  check.dataset.tool = tool;
  const text = el("span", "grant-text");
  text.append(el("span", "grant-label", info.label), el("small", "op-help", info.description));
  label.append(check, text);
  item.append(label);
  return [item, check];
}

function groupBox(key, title, help, entries, member) {
  const box = el("fieldset", "grant-group");
  box.dataset.group = key;
  box.append(el("legend", "", title), el("p", "op-help", help));
  const list = el("ul", "tool-list");
  const checks = [];
  for (const [tool, info] of entries) {
    const [item, check] = toolItem(tool, info, member.tools.includes(tool));
    list.append(item);
    checks.push(check);
  }
  const all = el("button", "secondary-button", `Grant all ${title.toLowerCase()}`);
  all.type = "button";
  all.dataset.grantAll = key;
  all.addEventListener("click", () => checks.forEach((check) => { check.checked = true; }));
  box.append(all, list);
  return [box, checks];
}

export async function grantEditor(ctx, ui, member, held) {
  const catalog = toolCatalog(await operations(ctx.session));
  const box = el("div", "grant-editor");
  box.id = "grant-editor";
  box.append(el("h3", "", `Tools for ${member.email}`));
  const checks = [];
  for (const [key, title, help] of GROUPS) {
    const entries = held.filter((tool) => catalog.get(tool)?.group === key)
      .map((tool) => [tool, catalog.get(tool)]);
    if (!entries.length) continue;
    const [group, boxes] = groupBox(key, title, help, entries, member);
    box.append(group);
    checks.push(...boxes);
  }
  const review = el("button", "primary-button", "Review change");
  review.type = "button";
  review.id = "grant-review";
  const out = el("div");
  out.setAttribute("aria-live", "polite");
  box.append(review, out);
  const op = (await operations(ctx.session)).get("AssignToolGrants");
  review.addEventListener("click", async () => {
    const args = { organisationId: ctx.orgId, userId: member.userId,
      tools: checks.filter((b) => b.checked).map((b) => b.value) };
    out.replaceChildren();
    await propose(ctx, op, args, out, () => ctx.reload(), "grant-confirm");
  });
  return box;
}
