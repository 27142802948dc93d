// Forms built from the operation table: every admin change on this page is a form made from
// its operation's JSON schema (GET /api/v1/admin/schemas, the schema the assistant and MCP
// tools use), then proposed, reviewed and applied like the assistant's changes:
// POST /api/v1/admin/proposals/<slug> shows the summary (and a diff); Apply sends the same
// arguments with the confirmation token to /api/v1/admin/apply/<slug>; Cancel writes nothing.
import { el } from "./account-api.js";

const WORDS = { url: "URL", api: "API", id: "id", ask: "Ask AI" };
const HIDDEN = new Set(["organisationId"]);
const WIDE = new Set(["content"]);
let cached = null;

// Every operation by name: {operation, kind, authority, label, description, tools, schema}.
export async function operations(session) {
  if (!cached) {
    const { operations: listed } = await session.call("GET", "/api/v1/admin/schemas");
    cached = new Map(listed.map((entry) => [entry.operation, entry]));
  }
  return cached;
}

export function slugOf(name) {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").replace(/_/g, "-").toLowerCase();
}

// "askDailyLimit" -> "Ask AI daily limit"; "baseUrl" -> "Base URL".
export function fieldLabel(name) {
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(" ");
  const shown = words.map((word) => WORDS[word] || word).join(" ");
  return shown.charAt(0).toUpperCase() + shown.slice(1);
}

// A nullable field's schema is `anyOf: [{type: ...}, {type: "null"}]`: its non-null branch,
// with `nullable` set and the field's own description kept.
function normal(schema) {
  if (!Array.isArray(schema.anyOf)) return schema;
  const { anyOf, ...own } = schema;
  const other = anyOf.find((option) => option.type !== "null") || {};
  return { ...other, ...own, nullable: anyOf.some((option) => option.type === "null") };
}

function baseType(schema) {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  return schema.enum ? "enum" : type || "string";
}

function nullable(schema) {
  return Boolean(schema.nullable) || (Array.isArray(schema.type) && schema.type.includes("null"));
}

// One control per field kind; each knows how to read its value back (undefined: leave out).
function textControl(id, schema, value) {
  const input = el(WIDE.has(id.split("-").pop()) ? "textarea" : "input", "admin-input");
  if (input.tagName === "INPUT") input.type = /key$/i.test(id) ? "password" : "text";
  if (schema.maxLength) input.maxLength = schema.maxLength;
  if (value !== undefined && value !== null) input.value = value;
  const read = () => (input.value === "" && nullable(schema) ? undefined : input.value);
  return { node: input, read };
}

function numberControl(id, schema, value) {
  const input = el("input", "admin-input");
  Object.assign(input, { type: "number", step: "1" });
  if (schema.minimum !== undefined) input.min = schema.minimum;
  if (schema.maximum !== undefined) input.max = schema.maximum;
  if (value !== undefined && value !== null) input.value = value;
  return { node: input, read: () => (input.value === "" ? undefined : Number(input.value)) };
}

function choiceControl(options, value, blank) {
  const select = el("select", "admin-select");
  const choices = blank ? [["", blank], ...options] : options;
  for (const [key, text] of choices) {
    const option = el("option", "", text);
    option.value = key;
    option.selected = String(value) === key;
    select.append(option);
  }
  return select;
}

function booleanControl(id, schema, value, blank) {
  const select = choiceControl([["true", "Yes"], ["false", "No"]], value ?? "", value === undefined && blank);
  return { node: select, read: () => (select.value === "" ? undefined : select.value === "true") };
}

function enumControl(id, schema, value, blank) {
  const options = schema.enum.map((item) => [item, item]);
  const select = choiceControl(options, value ?? "", value === undefined && blank);
  return { node: select, read: () => (select.value === "" ? undefined : select.value) };
}

function listControl(id, schema, value) {
  const area = el("textarea", "admin-input");
  area.rows = 2;
  area.placeholder = "one per line";
  if (Array.isArray(value)) area.value = value.join("\n");
  const read = () => {
    const items = area.value.split(/[\n,]/).map((item) => item.trim()).filter(Boolean);
    return items.length || !nullable(schema) || Array.isArray(value) ? items : undefined;
  };
  return { node: area, read };
}

function rootRow(item, schema, rows) {
  const row = el("div", "op-root");
  const path = el("input", "admin-input");
  Object.assign(path, { type: "text", value: item.path || "", placeholder: "folder ('' = the site)" });
  path.setAttribute("aria-label", "Root folder");
  const audiences = schema.properties.audience.enum.map((a) => [a, a]);
  const audience = choiceControl(audiences, item.audience || "user", "");
  audience.setAttribute("aria-label", "Audience");
  const remove = el("button", "secondary-button", "Remove");
  remove.type = "button";
  remove.addEventListener("click", () => { row.remove(); rows.delete(row); });
  row.append(path, audience, remove);
  rows.set(row, () => ({ path: path.value.trim(), audience: audience.value }));
  return row;
}

function objectListControl(id, schema, value) {
  const box = el("div", "op-roots");
  const rows = new Map();
  const list = el("div", "op-root-list");
  const items = Array.isArray(value) && value.length ? value : value === undefined ? [] : [{}];
  for (const item of items) list.append(rootRow(item, schema.items, rows));
  const add = el("button", "secondary-button", "Add a root");
  add.type = "button";
  add.addEventListener("click", () => list.append(rootRow({}, schema.items, rows)));
  box.append(list, add);
  const read = () => (rows.size ? [...rows.values()].map((get) => get()) : undefined);
  return { node: box, read };
}

// `blank`: the empty choice of an optional field ("(default)", "(leave as it is)"), or "".
function control(id, schema, value, blank) {
  const kind = baseType(schema);
  if (kind === "boolean") return booleanControl(id, schema, value, blank);
  if (kind === "enum") return enumControl(id, schema, value, blank);
  if (kind === "integer" || kind === "number") return numberControl(id, schema, value);
  if (kind === "array" && schema.items?.type === "object") return objectListControl(id, schema, value);
  if (kind === "array") return listControl(id, schema, value);
  return textControl(id, schema, value);
}

function field(formId, name, given, value, required, blank) {
  const id = `${formId}-${name}`;
  const schema = normal(given);
  const made = control(id, schema, value, required ? "" : blank);
  made.node.id = id;
  const wrap = el("div", "op-field");
  const label = el("label", "", fieldLabel(name) + (required ? "" : " (optional)"));
  label.htmlFor = id;
  wrap.append(label, made.node);
  if (schema.description) {
    const help = el("small", "op-help", schema.description);
    help.id = `${id}-help`;
    made.node.setAttribute("aria-describedby", help.id);
    wrap.append(help);
  }
  return { wrap, read: made.read };
}

// A form for `op` (a schemas entry): `values` pre-fill fields, `fixed` are sent as they are
// and not shown (the site being edited, the organisation). `onDone(result)` after apply.
export function operationForm(ctx, op, { values = {}, fixed = {}, submit, onDone, hide = [] } = {}) {
  const form = el("form", "op-form");
  form.id = `form-${slugOf(op.operation)}`;
  form.dataset.operation = op.operation;
  const { properties = {}, required = [] } = op.schema;
  const readers = [];
  const blank = Object.keys(values).length ? "(leave as it is)" : "(default)";
  const entries = Object.entries(properties);
  const ordered = [...entries.filter(([n]) => required.includes(n)), ...entries.filter(([n]) => !required.includes(n))];
  for (const [name, schema] of ordered) {  // the required fields first
    if (HIDDEN.has(name) || name in fixed || hide.includes(name)) continue;
    const made = field(form.id, name, schema, values[name], required.includes(name), blank);
    readers.push([name, made.read]);
    form.append(made.wrap);
  }
  const button = el("button", "primary-button", submit || `Review: ${op.label}`);
  button.type = "submit";
  const out = el("div", "op-outcome");
  out.setAttribute("aria-live", "polite");
  form.append(button, out);
  const args = () => {
    const found = { ...fixed };
    for (const [name, read] of readers) {
      const value = read();
      if (value !== undefined) found[name] = value;
    }
    if ("organisationId" in properties && ctx.orgId && op.authority === "organisation") {
      found.organisationId = ctx.orgId;
    }
    return found;
  };
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    out.replaceChildren();
    await propose(ctx, op, args(), out, onDone);
  });
  return form;
}

// Propose `args`, show the review, apply on the person's click (`applyId`: the Apply
// button's id).
export async function propose(ctx, op, args, out, onDone, applyId = "") {
  const slug = slugOf(op.operation);
  let proposed;
  try {
    proposed = await ctx.session.call("POST", `/api/v1/admin/proposals/${slug}`, args);
  } catch (error) {
    out.append(refusal(error));
    return;
  }
  out.append(review(ctx, op, args, proposed, onDone, applyId));
}

function review(ctx, op, args, proposed, onDone, applyId) {
  const card = el("div", "op-review");
  card.append(el("p", "proposal-summary", proposed.proposal.summary));
  if (proposed.proposal.diff) card.append(el("pre", "op-diff", proposed.proposal.diff));
  const apply = el("button", "primary-button", "Apply");
  apply.type = "button";
  apply.className += " op-apply";
  if (applyId) apply.id = applyId;
  const cancel = el("button", "secondary-button", "Cancel");
  cancel.type = "button";
  const actions = el("div", "admin-row-actions");
  actions.append(apply, cancel);
  card.append(actions);
  cancel.addEventListener("click", () => card.replaceWith(note("Nothing was changed.")));
  apply.addEventListener("click", async () => {
    apply.disabled = cancel.disabled = true;
    const body = { ...args, confirmationToken: proposed.confirmationToken };
    try {
      const result = await ctx.session.call("POST", `/api/v1/admin/apply/${slugOf(op.operation)}`, body);
      card.replaceWith(note(`Done: ${op.label}.`));
      if (onDone) onDone(result);
    } catch (error) {
      apply.disabled = cancel.disabled = false;
      card.append(refusal(error));
    }
  });
  return card;
}

// A read or an action of the table: POST /api/v1/admin/{reads|actions}/<slug>.
export function run(ctx, op, args) {
  const kind = op.kind === "read" ? "reads" : "actions";
  const body = { ...args };
  if ("organisationId" in (op.schema.properties || {}) && ctx.orgId) body.organisationId = ctx.orgId;
  return ctx.session.call("POST", `/api/v1/admin/${kind}/${slugOf(op.operation)}`, body);
}

export function note(text) {
  const node = el("p", "admin-note", text);
  node.setAttribute("role", "status");
  return node;
}

export function refusal(error) {
  const node = el("p", "admin-note op-refusal", `Not done: ${error.message || "refused"}.`);
  node.setAttribute("role", "alert");
  return node;
}

// A button that opens `make()` (a form) in `slot`, closing whatever was open there.
export function opener(text, slot, make) {
  const button = el("button", "secondary-button", text);
  button.type = "button";
  button.addEventListener("click", async () => slot.replaceChildren(await make()));
  return button;
}
