// /proposals/{id}: one stored proposal (made by the assistant or over MCP) for its own
// signed-in user, with Apply and Discard. Anyone else sees "not found", never more.
import { Session } from "./account-api.js";
import { AssistantApi } from "./assistant-api.js";
import { proposalCard } from "./proposal.js";

const config = JSON.parse(document.querySelector('meta[name="askdocs-config"]').content);
const root = document.getElementById("proposal-root");

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function signInPrompt() {
  const link = el("a", "primary-button", "Sign in to review it");
  link.id = "proposal-sign-in";
  link.href = `/sign-in?${new URLSearchParams({ next: window.location.pathname })}`;
  root.replaceChildren(el("h1", "", "A proposed change waits for you"), link);
}

async function main() {
  const session = await Session.current().catch(() => null);
  if (!session) {
    signInPrompt();
    return;
  }
  const api = new AssistantApi("", session.csrf);
  try {
    const proposal = await api.getProposal(config.proposalId);
    const made = proposalCard(proposal, {
      apply: (data, token) => api.applyProposal(data.id, token),
      discard: (data) => api.discardProposal(data.id),
    });
    root.replaceChildren(el("h1", "", "Proposed change"));
    if (made) root.append(made.card);
    if (proposal.threadId) {
      const back = el("a", "secondary-button", "Open the conversation");
      back.href = "/assistant";
      root.append(back);
    }
  } catch (error) {
    const missing = error?.status === 404;
    root.replaceChildren(
      el("h1", "", missing ? "No such proposal" : "The proposal could not be loaded"),
      el("p", "muted", missing ? "It does not exist, or it is not yours." : String(error?.message || "")),
    );
  }
}

main().finally(() => {
  document.body.dataset.ready = "true";
});
