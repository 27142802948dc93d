// The Users and grants panel: members and their roles, invitation links, and tool grants
// (admin-grants.js: proposed, reviewed, then applied, like every admin change).
import { el } from "./account-api.js";
import { grantEditor } from "./admin-grants.js";

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
      edit.addEventListener("click", async () => {
        editorSlot.replaceChildren(await grantEditor(ctx, ui, { ...member, tools: tools || [] }, held));
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
