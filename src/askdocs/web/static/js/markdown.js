// A small, safe Markdown renderer for streamed answers. It builds DOM nodes and sets only
// textContent and vetted href values: no HTML from the answer is ever parsed, and images
// are never rendered (so an answer cannot make the browser call a third party).

const FENCE = /^\s*(```|~~~)\s*([\w+#.-]*)\s*$/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*\d{1,9}[.)]\s+(.*)$/;
const HEADING = /^\s*#{1,6}\s+(.*?)\s*#*\s*$/;
const QUOTE = /^\s*>\s?(.*)$/;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const TABLE_RULE = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;

// A URL the answer may link to: same-site paths, in-page anchors, and http(s).
export function safeHref(url) {
  const value = String(url || "").trim();
  if (value.startsWith("#")) return value;
  if (value.startsWith("/") && !value.startsWith("//") && !value.includes("\\")) return value;
  try {
    const parsed = new URL(value);
    if (parsed.protocol === "https:" || parsed.protocol === "http:") return parsed.href;
  } catch {
    return null;
  }
  return null;
}

export function renderMarkdown(target, text, options = {}) {
  const fragment = document.createDocumentFragment();
  renderBlocks(fragment, String(text).replace(/\r\n?/g, "\n").split("\n"), options);
  target.replaceChildren(fragment);
}

function renderBlocks(parent, lines, options) {
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      i += 1;
      continue;
    }
    const fence = line.match(FENCE);
    if (fence) {
      i = renderFence(parent, lines, i, fence, options);
    } else if (QUOTE.test(line)) {
      i = renderQuote(parent, lines, i, options);
    } else if (isTable(lines, i)) {
      i = renderTable(parent, lines, i, options);
    } else if (BULLET.test(line) || NUMBERED.test(line)) {
      i = renderList(parent, lines, i, options);
    } else if (HEADING.test(line)) {
      const heading = document.createElement("p");
      heading.className = "answer-heading";
      renderInline(heading, line.match(HEADING)[1], options);
      parent.append(heading);
      i += 1;
    } else {
      i = renderParagraph(parent, lines, i, options);
    }
  }
}

function renderFence(parent, lines, start, fence, options) {
  const pre = document.createElement("pre");
  const code = document.createElement("code");
  if (fence[2]) code.className = `language-${fence[2]}`;
  const body = [];
  let i = start + 1;
  while (i < lines.length && !lines[i].trim().startsWith(fence[1])) {
    body.push(lines[i]);
    i += 1;
  }
  code.textContent = body.join("\n");
  pre.append(code);
  parent.append(pre);
  return i + 1;
}

function isTable(lines, i) {
  return TABLE_ROW.test(lines[i]) && i + 1 < lines.length && TABLE_RULE.test(lines[i + 1]);
}

function cells(line) {
  return line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());
}

// A pipe table, in a box that scrolls sideways when it is wider than the answer.
function renderTable(parent, lines, start, options) {
  const table = document.createElement("table");
  const head = document.createElement("thead");
  const headRow = document.createElement("tr");
  for (const cell of cells(lines[start])) {
    const th = document.createElement("th");
    renderInline(th, cell, options);
    headRow.append(th);
  }
  head.append(headRow);
  const body = document.createElement("tbody");
  let i = start + 2;
  while (i < lines.length && TABLE_ROW.test(lines[i])) {
    const row = document.createElement("tr");
    for (const cell of cells(lines[i])) {
      const td = document.createElement("td");
      renderInline(td, cell, options);
      row.append(td);
    }
    body.append(row);
    i += 1;
  }
  table.append(head, body);
  const box = document.createElement("div");
  box.className = "table-scroll";
  box.append(table);
  parent.append(box);
  return i;
}

function renderQuote(parent, lines, start, options) {
  const inner = [];
  let i = start;
  while (i < lines.length && QUOTE.test(lines[i])) {
    inner.push(lines[i].match(QUOTE)[1]);
    i += 1;
  }
  const quote = document.createElement("blockquote");
  renderBlocks(quote, inner, options);
  parent.append(quote);
  return i;
}

function renderList(parent, lines, start, options) {
  const ordered = NUMBERED.test(lines[start]) && !BULLET.test(lines[start]);
  const list = document.createElement(ordered ? "ol" : "ul");
  const pattern = ordered ? NUMBERED : BULLET;
  let i = start;
  while (i < lines.length && pattern.test(lines[i])) {
    const item = document.createElement("li");
    renderInline(item, lines[i].match(pattern)[1], options);
    list.append(item);
    i += 1;
  }
  parent.append(list);
  return i;
}

function renderParagraph(parent, lines, start, options) {
  const parts = [];
  let i = start;
  while (
    i < lines.length &&
    lines[i].trim() &&
    !FENCE.test(lines[i]) &&
    !QUOTE.test(lines[i]) &&
    !isTable(lines, i) &&
    !BULLET.test(lines[i]) &&
    !NUMBERED.test(lines[i]) &&
    !HEADING.test(lines[i])
  ) {
    parts.push(lines[i].trim());
    i += 1;
  }
  const paragraph = document.createElement("p");
  renderInline(paragraph, parts.join(" "), options);
  parent.append(paragraph);
  return i;
}

// Inline: `code`, **strong**, *em* / _em_, [label](url); images become their alt text;
// with options.citation, a marker [n] becomes the node it returns (else stays text).
const INLINE = /(`+)([^`]+?)\1|\*\*(.+?)\*\*|__(.+?)__|\*([^*\s][^*]*?)\*|!\[([^\]]*)\]\([^)]*\)|\[([^\]]+)\]\(([^)\s]+)(?:\s+"[^"]*")?\)|\[(\d{1,2})\](?!\()/g;

export function renderInline(parent, text, options = {}) {
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index > last) parent.append(text.slice(last, match.index));
    parent.append(inlineNode(match, options));
    last = match.index + match[0].length;
  }
  if (last < text.length) parent.append(text.slice(last));
}

function inlineNode(match, options) {
  if (match[2] !== undefined) {
    const code = document.createElement("code");
    code.textContent = match[2];
    return code;
  }
  if (match[3] !== undefined || match[4] !== undefined) {
    const strong = document.createElement("strong");
    renderInline(strong, match[3] ?? match[4], options);
    return strong;
  }
  if (match[5] !== undefined) {
    const em = document.createElement("em");
    renderInline(em, match[5], options);
    return em;
  }
  if (match[6] !== undefined) return document.createTextNode(match[6]);
  if (match[9] !== undefined) {
    const node = options.citation ? options.citation(Number(match[9])) : null;
    return node || document.createTextNode(match[0]);
  }
  const href = safeHref(match[8]);
  if (!href) return document.createTextNode(match[7]);
  const link = document.createElement("a");
  link.href = options.resolveHref ? options.resolveHref(href) : href;
  renderInline(link, match[7], options);
  if (options.onLink) options.onLink(link, href);
  return link;
}
