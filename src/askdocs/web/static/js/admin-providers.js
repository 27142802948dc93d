// The Inference providers panel (platform administrators): the providers, with their keys
// shown only as "…last four", and every change made through the operation table's forms
// (add, edit, delete: propose, review, apply) and its test action. A key is write-only:
// the edit form leaves it empty, which keeps the stored one.
import { el } from "./account-api.js";
import { note, operationForm, opener, operations, propose, refusal, run } from "./admin-forms.js";

const EDITABLE = ["name", "capability", "kind", "baseUrl", "model", "active"];

function lastTest(provider) {
  if (!provider.lastTestAt) return "never";
  return provider.lastTestOk ? "passed" : `failed: ${provider.lastTestError || ""}`;
}

function testButton(ctx, ops, provider, status) {
  const button = el("button", "secondary-button", "Test");
  button.type = "button";
  button.setAttribute("aria-label", `Test ${provider.name}`);
  button.addEventListener("click", async () => {
    button.disabled = true;
    status.textContent = "testing…";
    try {
      const result = await run(ctx, ops.get("test_inference_provider"), { providerId: provider.id });
      status.textContent = result.ok ? "passed" : `failed: ${result.error || ""}`;
    } catch (error) {
      status.textContent = error.message || "refused";
    }
    button.disabled = false;
  });
  return button;
}

function removeKeyButton(ctx, ops, provider, slot) {
  const button = el("button", "secondary-button", "Remove key");
  button.type = "button";
  button.addEventListener("click", async () => {
    const out = el("div", "op-outcome");
    slot.replaceChildren(out);
    await propose(ctx, ops.get("UpdateInferenceProvider"), { providerId: provider.id, apiKey: "" },
      out, () => ctx.reload());
  });
  return button;
}

function providerActions(ctx, ops, provider, slot, status) {
  const values = Object.fromEntries(EDITABLE.map((name) => [name, provider[name]]));
  const fixed = { providerId: provider.id };
  const edit = opener("Edit", slot, () => operationForm(ctx, ops.get("UpdateInferenceProvider"),
    { values, fixed, onDone: () => ctx.reload(), submit: "Review changes" }));
  edit.setAttribute("aria-label", `Edit ${provider.name}`);
  const remove = opener("Delete", slot, () => operationForm(ctx, ops.get("DeleteInferenceProvider"),
    { fixed, onDone: () => ctx.reload(), submit: `Review: delete ${provider.name}` }));
  remove.setAttribute("aria-label", `Delete ${provider.name}`);
  const actions = el("div", "admin-row-actions");
  actions.append(testButton(ctx, ops, provider, status), edit);
  if (provider.hasApiKey) actions.append(removeKeyButton(ctx, ops, provider, slot));
  actions.append(remove);
  return actions;
}

function providerRow(ctx, ops, provider, slot) {
  const status = el("span", "provider-test", lastTest(provider));
  status.setAttribute("aria-live", "polite");
  const key = provider.hasApiKey ? `…${provider.apiKeyLastFour || ""}` : "none";
  return [provider.name, provider.capability, provider.kind, provider.model,
    provider.baseUrl || "vendor default", provider.active ? "in use" : "", key, status,
    providerActions(ctx, ops, provider, slot, status)];
}

function inUse(listed) {
  const { inUse: used = {}, configured = {} } = listed;
  const fallback = ["chat", "embedding"].filter((c) => used[c] === "settings")
    .map((c) => `${c}: the configured provider (${configured[c] || "none"}) is in use`);
  const status = note(fallback.length ? `${fallback.join("; ")}.` : "Both capabilities use a stored provider.");
  status.id = "providers-in-use";
  return status;
}

export async function providersPanel(ctx, ui) {
  const ops = await operations(ctx.session);
  let listed;
  try {
    listed = await run(ctx, ops.get("list_inference_providers"), {});
  } catch (error) {
    return ui.card("Inference providers", refusal(error));
  }
  const slot = el("div", "op-slot");
  slot.id = "provider-form-slot";
  const rows = listed.providers.map((provider) => providerRow(ctx, ops, provider, slot));
  const body = rows.length
    ? ui.table(["Name", "Capability", "Kind", "Model", "Endpoint", "In use", "API key", "Last test", ""], rows)
    : note("No platform inference providers yet.");
  const add = opener("Add a provider", slot, () => operationForm(ctx, ops.get("CreateInferenceProvider"),
    { onDone: () => ctx.reload(), submit: "Review the new provider" }));
  add.id = "provider-new";
  return ui.card("Inference providers", body, inUse(listed), add, slot);
}
