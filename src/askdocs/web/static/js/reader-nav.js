// Reading aids for an article: heading permalink icons, tables that scroll sideways (with a
// hint when they do), "On this page" following the reading position (the side list on wide
// screens, a one-line bar on narrow ones), the search shortcuts, and the 404 page's search.
import { search } from "./api.js";
import { t, locale } from "./i18n.js";

function make(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// A "#" link after each section heading of the article body.
export function addPermalinks(body, articleUrl) {
  for (const heading of body.querySelectorAll("h2[id], h3[id], h4[id]")) {
    const link = make("a", "heading-anchor"); // the "#" is CSS: the heading's text stays its own
    link.href = `${articleUrl}#${encodeURIComponent(heading.id)}`;
    link.setAttribute("aria-label", `${t("permalink")}: ${heading.textContent}`);
    heading.append(link);
  }
}

// Each table in a box that scrolls sideways; a hint shows while the table is wider.
export function wrapTables(body) {
  const boxes = [];
  for (const table of body.querySelectorAll("table")) {
    if (table.parentElement?.classList.contains("table-scroll")) continue;
    const box = make("div", "table-scroll");
    box.tabIndex = 0; // keyboard users can scroll it
    box.setAttribute("role", "region");
    box.setAttribute("aria-label", t("tableHint"));
    const hint = make("p", "table-hint", t("tableHint"));
    hint.hidden = true;
    table.replaceWith(box);
    box.append(table);
    box.after(hint);
    boxes.push([box, hint]);
  }
  const update = () => {
    for (const [box, hint] of boxes) hint.hidden = box.scrollWidth <= box.clientWidth + 1;
  };
  update();
  new ResizeObserver(update).observe(body);
}

let observer = null;

// Mark the section being read: the side list's link (aria-current) and the narrow bar.
export function followReading(body, toc, bar) {
  observer?.disconnect();
  const headings = [...body.querySelectorAll("h2[id], h3[id]")];
  const links = new Map([...toc.querySelectorAll("a")].map((a) => [a.hash.slice(1), a]));
  bar.hidden = headings.length === 0;
  if (!headings.length) return;
  const visible = new Set();
  const mark = () => {
    const current = headings.find((h) => visible.has(h)) || lastAbove(headings) || headings[0];
    for (const [id, link] of links) {
      if (decodeURIComponent(id) === current.id) link.setAttribute("aria-current", "location");
      else link.removeAttribute("aria-current");
    }
    bar.querySelector(".reading-section").textContent = current.textContent;
  };
  observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (entry.isIntersecting) visible.add(entry.target);
      else visible.delete(entry.target);
    }
    mark();
  }, { rootMargin: "-56px 0px -55% 0px" });
  headings.forEach((h) => observer.observe(h));
  mark();
}

function lastAbove(headings) {
  let found = null;
  for (const heading of headings) {
    if (heading.getBoundingClientRect().top < 80) found = heading;
  }
  return found;
}

// Cmd/Ctrl-K and "/" (outside a text field) open the search.
export function searchShortcuts(input) {
  document.addEventListener("keydown", (event) => {
    const typing = event.target.closest?.("input, textarea, select, [contenteditable]");
    const commandK = (event.metaKey || event.ctrlKey) && event.key.toLowerCase() === "k";
    if (commandK || (event.key === "/" && !typing && !event.metaKey && !event.ctrlKey)) {
      event.preventDefault();
      input.focus();
      input.select();
    }
  });
}

// The 404 page: the search box, and the pages closest to the words of the missing address.
export async function notFoundPage(main, site, slug) {
  const box = make("section", "not-found");
  box.append(make("h1", "article-title", t("notFound")), make("p", "", t("notFoundSearch")));
  const form = make("form", "not-found-search");
  form.setAttribute("role", "search");
  const label = make("label", "visually-hidden", t("searchLabel"));
  label.htmlFor = "not-found-input";
  const input = make("input");
  input.id = "not-found-input";
  input.type = "search";
  input.value = slug.replace(/[/_-]+/g, " ").trim();
  const go = make("button", "primary-button", t("searchLabel"));
  go.type = "submit";
  form.append(label, input, go);
  const list = make("ul", "not-found-pages");
  box.append(form, list);
  main.replaceChildren(box);
  const fill = async (query) => {
    list.replaceChildren();
    if (!query) return;
    try {
      const found = await search(site, query, locale());
      const seen = new Set();
      for (const hit of found.hits || []) {
        if (seen.has(hit.url.split("#")[0])) continue;
        seen.add(hit.url.split("#")[0]);
        const item = make("li");
        const link = make("a", "", hit.heading && hit.heading !== hit.title ? `${hit.title} › ${hit.heading}` : hit.title);
        link.href = hit.url;
        item.append(link);
        list.append(item);
      }
    } catch {
      list.append(make("li", "muted", t("searchFailed")));
    }
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    fill(input.value.trim());
  });
  await fill(input.value);
}
