// The Users and grants panel: members and their roles, invitation links, and tool grants
// (proposed, then applied with the confirmation token, like every admin change).
import { el } from "./account-api.js";

const ROLES = ["owner", "admin", "member"];
const MAX_LISTED = 6;

function toolSummary(tools) {
  if (tools === undefined) return "";
  if (!tools.length) return "none";
  return tools.length > MAX_LISTED ? `${tools.length} tools` : tools.join(", ");
}

function roleSelect(member, onChange) {
  const select = el("select", "admin-select");
  select.setAttribute("aria-label", `Role of ${member.email}`);
  for (const role of ROLES) {
    const option = el("option", "", role);
    option.value = role;
    option.selected = role === member.role;
    select.append(option);
  }
  select.addEventListener("change", () => onChange(select.value));
  return select;
}

function inviteForm(ctx, ui) {
  const form = el("form", "admin-form");
  form.id = "invite-form";
  const emailLabel = el("label", "", "Email");
  const email = el("input", "admin-input");
  Object.assign(email, { id: "invite-email", type: "email", required: true });
  emailLabel.append(email);
  const roleLabel = el("label", "", "Role");
  const role = roleSelect({ email: "the invited person", role: "member" }, () => {});
  role.id = "invite-role";
  roleLabel.append(role);
  const button = el("button", "primary-button", "Create invitation link");
  button.type = "submit";
  const result = el("div");
  result.setAttribute("aria-live", "polite");
  form.append(emailLabel, roleLabel, button);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    result.replaceChildren();
    try {
      const made = await ctx.session.call("POST", "/api/v1/invitations",
        { email: email.value, organisationId: ctx.orgId, role: role.value });
      result.append(
        ui.note(`Send this one-time link to ${made.email}; it works until ${new Date(made.expiresAt).toLocaleString()}.`),
        ...copyableLink(made.link),
      );
    } catch (error) {
      result.append(ui.note(ui.refusalText(error)));
    }
  });
  return ui.card("Invite someone", form, result);
}

function grantEditor(ctx, ui, member, held) {
  const box = el("div", "grant-editor");
  box.id = "grant-editor";
  box.append(el("h3", "", `Tools for ${member.email}`));
  const list = el("ul", "tool-list");
  const boxes = [];
  for (const tool of held) {
    const item = el("li");
    const label = el("label");
    const check = el("input");
    Object.assign(check, { type: "checkbox", value: tool, checked: member.tools.includes(tool) });
    check.dataset.tool = tool;
    boxes.push(check);
    label.append(check, el("span", "", tool));
    item.append(label);
    list.append(item);
  }
  const review = el("button", "primary-button", "Review change");
  review.type = "button";
  review.id = "grant-review";
  const out = el("div");
  out.setAttribute("aria-live", "polite");
  box.append(list, review, out);
  review.addEventListener("click", async () => {
    const args = { organisationId: ctx.orgId, userId: member.userId,
      tools: boxes.filter((b) => b.checked).map((b) => b.value) };
    out.replaceChildren();
    try {
      const proposed = await ctx.session.call("POST", "/api/v1/admin/proposals/assign-tool-grants", args);
      const confirm = el("button", "primary-button", "Confirm");
      confirm.type = "button";
      confirm.id = "grant-confirm";
      confirm.addEventListener("click", async () => {
        confirm.disabled = true;
        try {
          await ctx.session.call("POST", "/api/v1/admin/apply/assign-tool-grants",
            { ...args, confirmationToken: proposed.confirmationToken });
          ctx.reload();
        } catch (error) {
          out.append(ui.note(ui.refusalText(error)));
        }
      });
      out.append(el("p", "proposal-summary", proposed.proposal.summary), confirm);
    } catch (error) {
      out.append(ui.note(ui.refusalText(error)));
    }
  });
  return box;
}

export async function mountUsersPanel(ctx, ui) {
  const orgPath = `/api/v1/orgs/${encodeURIComponent(ctx.orgId)}`;
  const org = await ctx.session.call("GET", orgPath);
  const mine = org.members.find((m) => m.userId === ctx.me.id);
  const manages = ctx.me.platformAdmin || (mine && (mine.role === "owner" || mine.role === "admin"));
  let grants = null;
  let grantError = null;
  try {
    const query = new URLSearchParams({ organisationId: ctx.orgId });
    grants = await ctx.session.call("GET", `/api/v1/admin/grants?${query}`);
  } catch (error) {
    grantError = error;
  }
  const toolsOf = new Map((grants?.members || []).map((m) => [m.userId, m.tools]));
  const held = toolsOf.get(ctx.me.id) || [];
  const editorSlot = el("div");
  const rows = org.members.map((member) => {
    const tools = toolsOf.get(member.userId);
    const role = manages
      ? roleSelect(member, async (value) => {
        try {
          await ctx.session.call("PATCH", `${orgPath}/members/${member.userId}`, { role: value });
        } catch (error) {
          editorSlot.replaceChildren(ui.note(ui.refusalText(error)));
        }
        ctx.reload();
      })
      : member.role;
    const actions = el("div", "admin-row-actions");
    if (grants && held.length) {
      const edit = el("button", "secondary-button", "Tools");
      edit.type = "button";
      edit.setAttribute("aria-label", `Tools for ${member.email}`);
      edit.addEventListener("click", () => {
        editorSlot.replaceChildren(grantEditor(ctx, ui, { ...member, tools: tools || [] }, held));
      });
      actions.append(edit);
    }
    if (manages && member.userId !== ctx.me.id) {
      const remove = el("button", "secondary-button", "Remove");
      remove.type = "button";
      remove.addEventListener("click", async () => {
        if (remove.dataset.armed !== "true") {
          remove.dataset.armed = "true";
          remove.textContent = "Confirm removal";
          return;
        }
        try {
          await ctx.session.call("DELETE", `${orgPath}/members/${member.userId}`);
        } catch (error) {
          editorSlot.replaceChildren(ui.note(ui.refusalText(error)));
          return;
        }
        ctx.reload();
      });
      actions.append(remove);
    }
    const toolCell = el("span", "tools-cell", toolSummary(tools));
    if (tools && tools.length > MAX_LISTED) toolCell.title = tools.join(", ");
    return [member.email, role, toolCell, actions];
  });
  const panel = el("div", "admin-panel");
  panel.id = "users-panel";
  const parts = [ui.table(["Member", "Role", "Tools", ""], rows), editorSlot];
  if (grantError) parts.push(ui.note(`Tool grants: ${ui.refusalText(grantError)}`));
  panel.append(ui.card(`Members of ${org.name}`, ...parts));
  if (manages) panel.append(inviteForm(ctx, ui));
  return panel;
}

// The whole link, wrapped (never cut, every "_" of its token visible), and a Copy button;
// where the clipboard is not available (plain HTTP), the text is selected to copy by hand.
function copyableLink(url) {
  const link = el("textarea", "admin-input admin-link");
  Object.assign(link, { id: "invite-link", readOnly: true, value: url, rows: 2 });
  link.setAttribute("aria-label", "Invitation link");
  link.spellcheck = false;
  const copy = el("button", "secondary-button", "Copy link");
  copy.type = "button";
  copy.id = "invite-copy";
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
      copy.textContent = "Copied";
    } catch {
      link.focus();
      link.select();
      copy.textContent = "Selected: press Ctrl+C (⌘C) to copy";
    }
  });
  // Tall enough for the whole link once it is on the page (field-sizing where supported).
  requestAnimationFrame(() => {
    link.style.height = "auto";
    link.style.height = `${link.scrollHeight + 2}px`;
  });
  return [link, copy];
}
