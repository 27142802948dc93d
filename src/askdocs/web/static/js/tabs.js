// Tab sets of the article body (server HTML: div.tabset > section.tab-panel > p.tab-label).
// Without this script every panel shows with its label. With it, each set gets a tab list
// (WAI-ARIA tabs pattern): role=tablist/tab/tabpanel, aria-selected, aria-controls, a
// roving tabindex (only the selected tab is in the tab order), and Left/Right/Home/End move
// between tabs and select them; a link to a tab's anchor (the span before its panel) selects
// it. Nothing here comes from the article's HTML but text and ids.
let counter = 0;

export function enhanceTabs(root) {
  for (const set of root.querySelectorAll("div.tabset")) enhance(set);
}

function enhance(set) {
  const panels = [...set.children].filter((node) => node.matches("section.tab-panel"));
  if (!panels.length || set.querySelector(":scope > [role=tablist]")) return;
  const list = document.createElement("div");
  list.className = "tab-list";
  list.setAttribute("role", "tablist");
  const tabs = panels.map((panel) => tabFor(panel, list));
  set.prepend(list);
  set.classList.add("tabset-active");
  list.addEventListener("keydown", (event) => onKey(event, tabs, panels));
  tabs.forEach((tab, index) => tab.addEventListener("click", () => select(tabs, panels, index, false)));
  select(tabs, panels, Math.max(linked(panels), 0), false);
  window.addEventListener("hashchange", () => {
    const index = linked(panels);
    if (index >= 0) select(tabs, panels, index, false);
  });
}

// The panel a link opened (#id of the anchor span just before it: a content tab's id as
// the docs' build gives it), or -1.
function linked(panels) {
  let wanted = "";
  try {
    wanted = decodeURIComponent(location.hash.slice(1));
  } catch {
    return -1;
  }
  if (!wanted) return -1;
  return panels.findIndex((panel) => {
    const before = panel.previousElementSibling;
    return before !== null && before.matches("span[id]") && before.id === wanted;
  });
}

function tabFor(panel, list) {
  const id = `tab-${++counter}`;
  const label = panel.querySelector(":scope > p.tab-label");
  const tab = document.createElement("button");
  tab.type = "button";
  tab.className = "tab";
  tab.id = `${id}-tab`;
  tab.setAttribute("role", "tab");
  tab.setAttribute("aria-controls", `${id}-panel`);
  tab.textContent = label ? label.textContent : String(list.children.length + 1);
  panel.id = `${id}-panel`;
  panel.setAttribute("role", "tabpanel");
  panel.setAttribute("aria-labelledby", tab.id);
  panel.tabIndex = 0;
  list.append(tab);
  return tab;
}

function select(tabs, panels, index, focus) {
  tabs.forEach((tab, i) => {
    const on = i === index;
    tab.setAttribute("aria-selected", String(on));
    tab.tabIndex = on ? 0 : -1;
    panels[i].hidden = !on;
  });
  if (focus) tabs[index].focus();
}

function onKey(event, tabs, panels) {
  const current = tabs.indexOf(document.activeElement);
  if (current < 0) return;
  const last = tabs.length - 1;
  const next = {
    ArrowRight: current === last ? 0 : current + 1,
    ArrowLeft: current === 0 ? last : current - 1,
    Home: 0,
    End: last,
  }[event.key];
  if (next === undefined) return;
  event.preventDefault();
  select(tabs, panels, next, true);
}
