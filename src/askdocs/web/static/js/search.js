// Search as you type: a combobox over /api/search. Arrow keys move through the results,
// Enter opens one, Escape closes the list. Stale requests are aborted. With `onAsk`, the
// last option is "Ask AI about «query»", which hands the query to the Ask AI panel.
import { search } from "./api.js";
import { t, locale } from "./i18n.js";

const DELAY_MS = 120;
const MIN_CHARS = 2;

export function createSearch({ input, panel, list, status, site, onOpen, onAsk = null }) {
  let timer = 0;
  let controller = null;
  let results = [];
  let active = -1;
  let query = "";
  const count = () => results.length + (onAsk && query ? 1 : 0);

  function setExpanded(open) {
    panel.hidden = !open;
    input.setAttribute("aria-expanded", String(open));
    if (!open) input.removeAttribute("aria-activedescendant");
  }

  function highlight(index) {
    const options = list.querySelectorAll("[role=option]");
    options.forEach((option, i) => option.setAttribute("aria-selected", String(i === index)));
    active = index;
    if (index >= 0 && options[index]) {
      input.setAttribute("aria-activedescendant", options[index].id);
      options[index].scrollIntoView({ block: "nearest" });
    } else {
      input.removeAttribute("aria-activedescendant");
    }
  }

  function snippet(text) {
    const flat = text.replace(/[#>*`\[\]]/g, "").replace(/\s+/g, " ").trim();
    return flat.length > 150 ? `${flat.slice(0, 147)}…` : flat;
  }

  function askOption(index) {
    const option = document.createElement("li");
    option.id = `search-option-${index}`;
    option.setAttribute("role", "option");
    option.setAttribute("aria-selected", "false");
    option.className = "search-option search-ask";
    option.textContent = t("askAbout", query);
    option.addEventListener("mousedown", (event) => event.preventDefault());
    option.addEventListener("click", () => choose(index));
    return option;
  }

  // Keyword search while the site's sections are embedded: say so, with how far it is.
  function indexingNote(indexing) {
    if (!indexing) return "";
    return ` · ${t("keywordWhileEmbedding", indexing.embedded, indexing.total)}`;
  }

  function render(hits, asked, indexing = null) {
    results = hits;
    query = asked;
    list.replaceChildren();
    hits.forEach((hit, index) => {
      const option = document.createElement("li");
      option.id = `search-option-${index}`;
      option.setAttribute("role", "option");
      option.setAttribute("aria-selected", "false");
      option.className = "search-option";
      const title = document.createElement("span");
      title.className = "search-title";
      title.textContent = hit.heading && hit.heading !== hit.title
        ? `${hit.title} › ${hit.heading}` : hit.title;
      const text = document.createElement("span");
      text.className = "search-snippet";
      text.textContent = snippet(hit.text || "");
      option.append(title, text);
      option.addEventListener("mousedown", (event) => event.preventDefault());
      option.addEventListener("click", () => choose(index));
      list.append(option);
    });
    if (onAsk && query) list.append(askOption(hits.length));
    status.textContent = (hits.length ? t("resultCount", hits.length) : t("noResults"))
      + indexingNote(indexing);
    status.classList.toggle("search-indexing", Boolean(indexing));
    active = -1;
    setExpanded(true);
  }

  function choose(index) {
    if (onAsk && query && index === results.length) {
      setExpanded(false);
      input.blur();
      onAsk(query);
      return;
    }
    const hit = results[index];
    if (!hit) return;
    setExpanded(false);
    input.blur();
    onOpen(hit.url);
  }

  async function run(query) {
    controller?.abort();
    controller = new AbortController();
    status.textContent = t("searching");
    setExpanded(true);
    try {
      const body = await search(site, query, locale(), controller.signal);
      if (input.value.trim() === query) render(body.hits || [], query, body.indexing);
    } catch (error) {
      if (error?.name === "AbortError") return;
      results = [];
      list.replaceChildren();
      status.textContent = t("searchFailed");
    }
  }

  input.addEventListener("input", () => {
    clearTimeout(timer);
    const query = input.value.trim();
    if (query.length < MIN_CHARS) {
      controller?.abort();
      setExpanded(false);
      return;
    }
    timer = setTimeout(() => run(query), DELAY_MS);
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown" && count()) {
      event.preventDefault();
      setExpanded(true);
      highlight((active + 1) % count());
    } else if (event.key === "ArrowUp" && count()) {
      event.preventDefault();
      highlight(active <= 0 ? count() - 1 : active - 1);
    } else if (event.key === "Enter") {
      event.preventDefault();
      choose(active >= 0 ? active : 0);
    } else if (event.key === "Escape") {
      setExpanded(false);
    }
  });
  input.addEventListener("focus", () => {
    if (count() && input.value.trim().length >= MIN_CHARS) setExpanded(true);
  });
  input.addEventListener("blur", () => setExpanded(false));

  return {
    refresh() {
      input.dispatchEvent(new Event("input"));
    },
  };
}
