// The docs reader: catalog sidebar, article with its table of contents, locale switcher,
// search as you type and the Ask AI panel. Server-rendered article HTML is sanitised on
// the server; everything else is built with textContent.
import { ApiError, fetchArticle, fetchCatalog } from "./api.js";
import { createAskPanel } from "./ask.js";
import { altchaToken, turnstileToken } from "./botcheck.js";
import { LOCALE_NAMES, locale, setLocale, t, translate } from "./i18n.js";
import { addPermalinks, followReading, notFoundPage, searchShortcuts, wrapTables } from "./reader-nav.js";
import { createSearch } from "./search.js";
import { enhanceTabs } from "./tabs.js";

const config = JSON.parse(document.querySelector('meta[name="askdocs-config"]').content);
const $ = (id) => document.getElementById(id);
const view = { catalog: null, article: null, loading: null };
const phone = window.matchMedia("(max-width: 48em)");

function chooseLocale() {
  const fromUrl = new URLSearchParams(window.location.search).get("lang");
  const stored = window.localStorage.getItem("askdocs-locale");
  const browser = (navigator.language || "").slice(0, 2);
  for (const candidate of [fromUrl, stored, browser, config.defaultLocale]) {
    if (candidate && config.locales.includes(candidate)) return candidate;
  }
  return "en";
}

function make(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// ---- routing -------------------------------------------------------------------------

function route() {
  const path = window.location.pathname;
  if (!path.startsWith("/docs/")) return { slug: null, anchor: null };
  const slug = path.slice(6).split("/").map(decodeURIComponent).join("/");
  const anchor = decodeURIComponent(window.location.hash.slice(1)) || null;
  return { slug: slug.replace(/\/+$/, ""), anchor };
}

function withLang(url) {
  const target = new URL(url, window.location.origin);
  if (locale() !== config.defaultLocale) target.searchParams.set("lang", locale());
  else target.searchParams.delete("lang");
  if (config.site && new URLSearchParams(window.location.search).get("site")) {
    target.searchParams.set("site", config.site);
  }
  return target.pathname + target.search + target.hash;
}

function navigate(url, { replace = false } = {}) {
  const target = withLang(url);
  if (replace) window.history.replaceState(null, "", target);
  else window.history.pushState(null, "", target);
  closeNav();
  if (phone.matches && ask.open) closeAsk(false);
  show();
}

document.addEventListener("click", (event) => {
  const link = event.target.closest("a[href]");
  if (!link || event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || link.target) return;
  const url = new URL(link.href, window.location.href);
  if (url.origin !== window.location.origin) return;
  if (url.pathname.startsWith("/docs/") || url.pathname === "/") {
    event.preventDefault();
    if (url.pathname === window.location.pathname && url.hash) {
      window.history.pushState(null, "", withLang(url.pathname + url.hash));
      scrollToAnchor(decodeURIComponent(url.hash.slice(1)));
      return;
    }
    navigate(url.pathname + url.hash);
  }
});
window.addEventListener("popstate", () => show());

// ---- catalog -------------------------------------------------------------------------

// The site's own locales (the catalog says which it has pages in): the picker lists only
// those, and hides itself when there is one.
let siteLocales = [config.defaultLocale];

async function loadCatalog() {
  const box = $("catalog");
  try {
    view.catalog = await fetchCatalog(config.site, locale());
  } catch (error) {
    view.catalog = null;
    box.replaceChildren(make("p", "muted", t("unavailable")));
    return;
  }
  if (Array.isArray(view.catalog.locales) && view.catalog.locales.length) {
    siteLocales = view.catalog.locales;
    localeOptions();
  }
  renderCatalog();
}

function renderCatalog() {
  const box = $("catalog");
  const sections = view.catalog.categories.map((category) => {
    const section = make("section", "catalog-section");
    const heading = make("h2", "catalog-heading", category.label);
    const list = make("ul", "catalog-list");
    for (const article of category.articles) {
      const item = make("li");
      const link = make("a", "catalog-link", article.title);
      link.href = article.url;
      link.dataset.slug = article.slug;
      item.append(link);
      if (article.audience === "administrator") {
        item.append(make("span", "badge", article.audience_label));
      }
      list.append(item);
    }
    section.append(heading, list);
    return section;
  });
  box.replaceChildren(...(sections.length ? sections : [make("p", "muted", t("empty"))]));
  markCurrent();
}

function markCurrent() {
  const slug = view.article?.slug;
  for (const link of document.querySelectorAll(".catalog-link")) {
    if (link.dataset.slug === slug) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}

function firstSlug() {
  const articles = (view.catalog?.categories || []).flatMap((c) => c.articles);
  const home = articles.find((a) => a.slug === "index");
  return (home || articles[0])?.slug || null;
}

// ---- article -------------------------------------------------------------------------

async function show() {
  const { slug: routed, anchor } = route();
  const slug = routed || firstSlug();
  const main = $("article");
  if (!slug) {
    if (view.catalog) main.replaceChildren(make("p", "muted", t("empty")));
    return;
  }
  if (view.article?.slug === slug && view.article.requested_locale === locale()) {
    scrollToAnchor(anchor);
    return;
  }
  view.loading?.abort();
  const controller = new AbortController();
  view.loading = controller;
  main.setAttribute("aria-busy", "true");
  try {
    const article = await fetchArticle(config.site, slug, locale(), controller.signal);
    view.article = article;
    renderArticle(article);
    scrollToAnchor(anchor, !anchor);
  } catch (error) {
    if (error?.name === "AbortError") return;
    view.article = null;
    const missing = error instanceof ApiError && error.status === 404;
    const message = missing ? t("notFound") : t("unavailable");
    $("toc").replaceChildren();
    document.title = `${message} · ${config.siteName}`;
    if (missing) await notFoundPage(main, config.site, slug);
    else main.replaceChildren(make("h1", "article-title", message));
  } finally {
    if (view.loading === controller) main.removeAttribute("aria-busy");
  }
}

function renderArticle(article) {
  const main = $("article");
  const header = make("header", "article-header");
  header.append(make("p", "crumb", article.category_label));
  const title = make("h1", "article-title", article.title);
  title.id = "article-title";
  title.tabIndex = -1;
  header.append(title);
  const meta = make("p", "article-meta");
  meta.append(make("span", article.audience === "administrator" ? "badge" : "badge badge-quiet", article.audience_label));
  header.append(meta);
  if (!article.translated) {
    const notice = make("p", "notice", t("notTranslated"));
    notice.setAttribute("role", "note");
    notice.lang = locale();
    header.append(notice);
  }
  const body = make("div", "doc-body");
  body.lang = article.locale;
  body.innerHTML = article.html; // sanitised by the server (nh3 allowlist); CSP is the second layer
  enhanceTabs(body);
  addPermalinks(body, article.url);
  const bar = readingBar(article);
  main.replaceChildren(bar, header, body, pager(article), related(article));
  wrapTables(body);
  renderToc(article);
  followReading(body, $("toc"), bar);
  document.title = `${article.title} · ${config.siteName}`;
  markCurrent();
}

// Narrow screens hide the side "On this page"; this bar names the section being read and
// opens into the same list.
function readingBar(article) {
  const bar = make("details", "reading-bar");
  const summary = make("summary");
  summary.append(make("span", "reading-label", t("onThisPage")), make("span", "reading-section"));
  const list = make("ul", "toc-list");
  for (const entry of article.toc) {
    const item = make("li", `toc-level-${entry.level}`);
    const link = make("a", "", entry.text);
    link.href = `${article.url}#${encodeURIComponent(entry.id)}`;
    link.addEventListener("click", () => (bar.open = false));
    item.append(link);
    list.append(item);
  }
  bar.append(summary, list);
  return bar;
}

function pager(article) {
  const nav = make("nav", "pager");
  nav.setAttribute("aria-label", `${t("previous")} / ${t("next")}`);
  for (const [ref, key, className] of [[article.previous, "previous", "pager-prev"], [article.next, "next", "pager-next"]]) {
    if (!ref) continue;
    const link = make("a", `pager-link ${className}`);
    link.href = ref.url;
    link.append(make("span", "pager-label", t(key)), make("span", "pager-title", ref.title));
    nav.append(link);
  }
  return nav;
}

function related(article) {
  const box = make("section", "related");
  if (!article.related.length) return box;
  box.append(make("h2", "related-heading", t("related")));
  const list = make("ul");
  for (const ref of article.related) {
    const item = make("li");
    const link = make("a", "", ref.title);
    link.href = ref.url;
    item.append(link);
    list.append(item);
  }
  box.append(list);
  return box;
}

function renderToc(article) {
  const toc = $("toc");
  if (!article.toc.length) {
    toc.replaceChildren();
    return;
  }
  const list = make("ul", "toc-list");
  for (const entry of article.toc) {
    const item = make("li", `toc-level-${entry.level}`);
    const link = make("a", "", entry.text);
    link.href = `${article.url}#${encodeURIComponent(entry.id)}`;
    item.append(link);
    list.append(item);
  }
  toc.replaceChildren(make("h2", "toc-heading", t("onThisPage")), list);
}

function scrollToAnchor(anchor, top = false) {
  const target = anchor ? document.getElementById(anchor) : null;
  if (target) {
    if (!target.hasAttribute("tabindex")) target.tabIndex = -1;
    target.scrollIntoView({ block: "start" });
    target.focus({ preventScroll: true });
  } else if (top) {
    window.scrollTo(0, 0);
    $("article-title")?.focus({ preventScroll: true });
  }
}

// ---- navigation drawer on phones -----------------------------------------------------

function openNav() {
  document.body.classList.add("nav-open");
  $("nav-toggle").setAttribute("aria-expanded", "true");
  $("nav-scrim").hidden = false;
  $("sidebar").querySelector("a")?.focus();
}

function closeNav() {
  if (!document.body.classList.contains("nav-open")) return;
  document.body.classList.remove("nav-open");
  $("nav-toggle").setAttribute("aria-expanded", "false");
  $("nav-scrim").hidden = true;
}

$("nav-toggle").addEventListener("click", () => {
  if (document.body.classList.contains("nav-open")) closeNav();
  else openNav();
});
$("nav-scrim").addEventListener("click", closeNav);
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && document.body.classList.contains("nav-open")) {
    closeNav();
    $("nav-toggle").focus();
  }
});

// ---- locale --------------------------------------------------------------------------

function localeOptions() {
  const select = $("locale-select");
  const single = siteLocales.length <= 1;
  select.hidden = single;
  document.querySelector('label[for="locale-select"]').hidden = single;
  select.replaceChildren(
    ...siteLocales.map((code) => {
      // Phones show the short code; the full name stays the option's accessible label.
      const option = make("option", "", phone.matches ? code.toUpperCase() : LOCALE_NAMES[code] || code);
      option.value = code;
      option.lang = code;
      option.setAttribute("aria-label", LOCALE_NAMES[code] || code);
      return option;
    }),
  );
  select.value = locale();
}

function fillLocales() {
  const select = $("locale-select");
  localeOptions();
  phone.addEventListener("change", localeOptions);
  select.addEventListener("change", async () => {
    setLocale(select.value);
    window.localStorage.setItem("askdocs-locale", select.value);
    translate();
    ask.relabel();
    $("ask-open").querySelector("span").textContent = t("askAi");
    window.history.replaceState(null, "", withLang(window.location.pathname + window.location.hash));
    view.article = null;
    await loadCatalog();
    await show();
  });
}

// ---- Ask AI --------------------------------------------------------------------------

const askButton = $("ask-open");
const ask = createAskPanel({
  root: $("ask-root"),
  config,
  onClose: () => closeAsk(true),
  onNavigate: (url) => navigate(url),
  getToken: config.botCheck === "altcha" ? altchaToken : turnstileToken,
});

// A backdrop behind the panel on narrow screens; a click on it closes the panel.
const askScrim = make("div", "ask-scrim");
askScrim.hidden = true;
askScrim.addEventListener("click", () => closeAsk(true));
$("ask-root").before(askScrim);

function openAsk() {
  document.body.classList.add("ask-open");
  askButton.setAttribute("aria-expanded", "true");
  askScrim.hidden = false;
  ask.show();
}

function closeAsk(returnFocus) {
  document.body.classList.remove("ask-open");
  askButton.setAttribute("aria-expanded", "false");
  askScrim.hidden = true;
  ask.hide();
  if (returnFocus) askButton.focus();
}

askButton.addEventListener("click", () => (ask.open ? closeAsk(true) : openAsk()));
if (!config.askEnabled) askButton.hidden = true;

// ---- start ---------------------------------------------------------------------------

setLocale(chooseLocale());
translate();
fillLocales();
createSearch({
  input: $("search-input"),
  panel: $("search-panel"),
  list: $("search-results"),
  status: $("search-status"),
  site: config.site,
  onOpen: (url) => navigate(url),
  onAsk: config.askEnabled ? (query) => {
    openAsk();
    ask.submitQuestion(query);
  } : null,
});
searchShortcuts($("search-input"));
await loadCatalog();
await show();
document.body.dataset.ready = "true";
