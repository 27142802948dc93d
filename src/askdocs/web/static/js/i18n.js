// UI strings in English, Czech and Slovak. Documentation text comes from the server.
const STRINGS = {
  en: {
    skip: "Skip to content",
    contents: "Contents",
    searchLabel: "Search the documentation",
    searchPlaceholder: "Search the docs",
    searchResults: "Search results",
    searching: "Searching…",
    noResults: "No results",
    resultCount: (n) => (n === 1 ? "1 result" : `${n} results`),
    searchFailed: "Search is unavailable right now",
    language: "Language",
    askAi: "Ask AI",
    loading: "Loading…",
    onThisPage: "On this page",
    previous: "Previous",
    next: "Next",
    related: "Related guides",
    notTranslated: "This page is not translated yet; it is shown in English.",
    notFound: "This page does not exist.",
    unavailable: "The documentation cannot be shown right now.",
    empty: "There is no documentation here yet.",
    close: "Close",
    askTitle: "Ask AI",
    askIntro: "Ask a question about the documentation. Answers are drawn from these pages, with their sources.",
    askPlaceholder: "Ask a question…",
    askLabel: "Your question",
    send: "Send",
    stop: "Stop",
    sources: "Sources",
    noSources: "No matching pages",
    thinking: "Looking through the documentation…",
    remaining: (n) => `${n} questions left today`,
    askFailed: "The question could not be answered.",
    botCheck: "Checking that you are not a bot…",
    you: "You",
    assistant: "Answer",
    newChat: "New conversation",
    answerDone: "Answer complete",
  },
  cs: {
    skip: "Přejít na obsah",
    contents: "Obsah",
    searchLabel: "Hledat v dokumentaci",
    searchPlaceholder: "Hledat v dokumentaci",
    searchResults: "Výsledky hledání",
    searching: "Hledám…",
    noResults: "Nic nenalezeno",
    resultCount: (n) => (n === 1 ? "1 výsledek" : n < 5 ? `${n} výsledky` : `${n} výsledků`),
    searchFailed: "Hledání teď není k dispozici",
    language: "Jazyk",
    askAi: "Zeptat se AI",
    loading: "Načítám…",
    onThisPage: "Na této stránce",
    previous: "Předchozí",
    next: "Další",
    related: "Související návody",
    notTranslated: "Tato stránka zatím není přeložená; zobrazuje se anglicky.",
    notFound: "Tato stránka neexistuje.",
    unavailable: "Dokumentaci teď nelze zobrazit.",
    empty: "Zatím tu není žádná dokumentace.",
    close: "Zavřít",
    askTitle: "Zeptat se AI",
    askIntro: "Zeptejte se na cokoli z dokumentace. Odpovědi vycházejí z těchto stránek a uvádějí zdroje.",
    askPlaceholder: "Napište otázku…",
    askLabel: "Vaše otázka",
    send: "Odeslat",
    stop: "Zastavit",
    sources: "Zdroje",
    noSources: "Žádné odpovídající stránky",
    thinking: "Procházím dokumentaci…",
    remaining: (n) => `Dnes zbývá otázek: ${n}`,
    askFailed: "Na otázku se nepodařilo odpovědět.",
    botCheck: "Ověřuji, že nejste robot…",
    you: "Vy",
    assistant: "Odpověď",
    newChat: "Nová konverzace",
    answerDone: "Odpověď je hotová",
  },
  sk: {
    skip: "Prejsť na obsah",
    contents: "Obsah",
    searchLabel: "Hľadať v dokumentácii",
    searchPlaceholder: "Hľadať v dokumentácii",
    searchResults: "Výsledky hľadania",
    searching: "Hľadám…",
    noResults: "Nič sa nenašlo",
    resultCount: (n) => (n === 1 ? "1 výsledok" : n < 5 ? `${n} výsledky` : `${n} výsledkov`),
    searchFailed: "Hľadanie teraz nie je k dispozícii",
    language: "Jazyk",
    askAi: "Opýtať sa AI",
    loading: "Načítavam…",
    onThisPage: "Na tejto stránke",
    previous: "Predchádzajúca",
    next: "Ďalšia",
    related: "Súvisiace návody",
    notTranslated: "Táto stránka ešte nie je preložená; zobrazuje sa po anglicky.",
    notFound: "Táto stránka neexistuje.",
    unavailable: "Dokumentáciu teraz nemožno zobraziť.",
    empty: "Zatiaľ tu nie je žiadna dokumentácia.",
    close: "Zavrieť",
    askTitle: "Opýtať sa AI",
    askIntro: "Opýtajte sa na čokoľvek z dokumentácie. Odpovede vychádzajú z týchto stránok a uvádzajú zdroje.",
    askPlaceholder: "Napíšte otázku…",
    askLabel: "Vaša otázka",
    send: "Odoslať",
    stop: "Zastaviť",
    sources: "Zdroje",
    noSources: "Žiadne zodpovedajúce stránky",
    thinking: "Prechádzam dokumentáciu…",
    remaining: (n) => `Dnes zostáva otázok: ${n}`,
    askFailed: "Na otázku sa nepodarilo odpovedať.",
    botCheck: "Overujem, že nie ste robot…",
    you: "Vy",
    assistant: "Odpoveď",
    newChat: "Nová konverzácia",
    answerDone: "Odpoveď je hotová",
  },
};

export const LOCALE_NAMES = { en: "English", cs: "Čeština", sk: "Slovenčina" };

let current = "en";

export function setLocale(locale) {
  current = STRINGS[locale] ? locale : "en";
  document.documentElement.lang = current;
}

export function locale() {
  return current;
}

export function t(key, ...args) {
  const value = (STRINGS[current] && STRINGS[current][key]) ?? STRINGS.en[key] ?? key;
  return typeof value === "function" ? value(...args) : value;
}

// Fill elements marked with data-i18n (text), data-i18n-label (aria-label) and
// data-i18n-placeholder (placeholder) under `root`.
export function translate(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  }
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) {
    el.setAttribute("placeholder", t(el.dataset.i18nPlaceholder));
  }
}
