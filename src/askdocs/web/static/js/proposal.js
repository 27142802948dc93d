// A proposed change, shown as a card: the server's summary, the diff (for pages), and
// Apply / Discard. The proposal is stored on the server, so a reloaded thread (or the
// /proposals/{id} page) shows it again with its state. The confirmation token reaches only
// the person's client (a data-proposal frame, or the owner's GET) and is forwarded at most
// once: the first click on either button takes it out of memory and disables both, and
// the server applies a proposal at most once anyway (409 proposal_settled).

const LABELS = {
  CreateSite: "Create a site",
  UpdateSite: "Change a site",
  DeleteSite: "Delete a site",
  WritePage: "Write a page",
  DeletePage: "Delete a page",
  AssignToolGrants: "Change tool grants",
  CreateInferenceProvider: "Add an inference provider",
  UpdateInferenceProvider: "Change an inference provider",
  DeleteInferenceProvider: "Delete an inference provider",
};
const MAX_DIFF_LINES = 400;

// Proposal ids already shown in this page: a frame seen again never comes back to life,
// whether it was applied, discarded or is still pending in another card.
const seen = new Set();

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function diffClass(line) {
  if (line.startsWith("+++") || line.startsWith("---")) return "diff-file";
  if (line.startsWith("@@")) return "diff-hunk";
  if (line.startsWith("+")) return "diff-add";
  if (line.startsWith("-")) return "diff-del";
  return "diff-same";
}

function diffBlock(diff) {
  const lines = diff.replace(/\n$/, "").split("\n").slice(0, MAX_DIFF_LINES);
  const pre = el("pre", "proposal-diff");
  pre.tabIndex = 0;
  pre.setAttribute("aria-label", "Changes, line by line");
  const code = el("code");
  for (const line of lines) code.append(el("span", diffClass(line), line || " "));
  pre.append(code);
  const added = lines.filter((l) => l.startsWith("+") && !l.startsWith("+++")).length;
  const removed = lines.filter((l) => l.startsWith("-") && !l.startsWith("---")).length;
  const details = el("details", "proposal-details");
  details.open = true;
  details.append(el("summary", "", `Changes: ${added} added, ${removed} removed`), pre);
  return details;
}

export function isProposal(data) {
  return Boolean(
    data && typeof data.id === "string" && typeof data.operation === "string" &&
      typeof data.summary === "string" &&
      (typeof data.token === "string" || data.token === null || data.token === undefined),
  );
}

const SETTLED = {
  applied: ["Applied", "Applied. The change is saved."],
  discarded: ["Discarded", "Discarded. Nothing was changed."],
  expired: ["Expired", "This proposal expired before it was applied. Ask the assistant again."],
  applying: ["Applying…", "Being applied."],
};

// Render one proposal into a card. apply(data, token) and discard(data) perform the requests.
export function proposalCard(data, { apply, discard = async () => {} }) {
  if (!isProposal(data) || seen.has(data.id)) return null;
  seen.add(data.id);
  const open = typeof data.token === "string" && (data.state || "pending") === "pending";
  let token = open ? data.token : null; // the only copy the page keeps
  const card = el("section", "proposal");
  card.dataset.proposal = data.id;
  card.dataset.state = open ? "pending" : data.state || "expired";
  const titleId = `proposal-${data.id}`;
  card.setAttribute("aria-labelledby", titleId);
  const title = el("h3", "proposal-title", LABELS[data.operation] || data.operation);
  title.id = titleId;
  const badge = el("span", "proposal-badge", open ? "Waiting for you" : SETTLED[card.dataset.state]?.[0] || "Closed");
  const head = el("div", "proposal-head");
  head.append(title, badge);
  card.append(head, el("p", "proposal-summary", data.summary));
  if (typeof data.diff === "string" && data.diff) card.append(diffBlock(data.diff));
  const applyButton = el("button", "primary-button proposal-apply", "Apply");
  applyButton.type = "button";
  const discardButton = el("button", "secondary-button proposal-discard", "Discard");
  discardButton.type = "button";
  const actions = el("div", "proposal-actions");
  actions.append(applyButton, discardButton);
  const status = el("p", "proposal-status");
  status.setAttribute("role", "status");
  card.append(actions, status);
  if (!open) {
    applyButton.disabled = true;
    discardButton.disabled = true;
    actions.hidden = true;
    status.textContent = SETTLED[card.dataset.state]?.[1] || "";
  }

  function take() {
    const taken = token;
    token = null;
    data.token = null;
    applyButton.disabled = true;
    discardButton.disabled = true;
    return taken;
  }

  function settle(state, badgeText, message) {
    card.dataset.state = state;
    badge.textContent = badgeText;
    status.textContent = message;
    status.scrollIntoView({ block: "nearest" });
  }

  // Once decided, a button stays inert even if something re-enables it.
  function spent() {
    if (token !== null) return false;
    applyButton.disabled = true;
    discardButton.disabled = true;
    return true;
  }

  applyButton.addEventListener("click", async () => {
    if (spent()) return;
    const sent = take();
    settle("applying", "Applying…", "Applying the change…");
    try {
      await apply(data, sent);
      settle("applied", "Applied", "Applied. The change is saved.");
    } catch (error) {
      const reason = error?.message || "the server refused it";
      settle("failed", "Not applied", `Not applied: ${reason}. Ask the assistant to propose it again.`);
    }
  });
  discardButton.addEventListener("click", async () => {
    if (spent()) return;
    take();
    try {
      await discard(data);
      settle("discarded", "Discarded", "Discarded. Nothing was changed.");
    } catch (error) {
      settle("failed", "Not discarded", `Not discarded: ${error?.message || "the server refused it"}.`);
    }
  });

  return {
    card,
    focus: () => applyButton.focus(),
    // The thread was left: the card goes, the token with it; the proposal stays stored
    // and comes back (still pending) when the thread is opened again.
    drop() {
      token = null;
      data.token = null;
      seen.delete(data.id);
    },
  };
}
