"""Curated stop words for the locales askdocs analyses (en, cs, sk).

Written without diacritics: the analyser folds diacritics before it looks words up, so
"že" and "ze" are the same word. The lists are short on purpose: only function words that
carry no meaning in a documentation question. Negations ("not", "ne") and words that often
name things in docs ("new", "first", "default") are kept out.
"""

from __future__ import annotations


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


EN: frozenset[str] = _words(
    """
    a about all also am an and any are as at be been being both but by can could did do
    does doing each few for from further had has have having he her here hers herself him
    himself his how i if in into is it its itself just me more most my myself nor of on
    only or other our ours ourselves own same she should so some such than that the their
    theirs them themselves then there these they this those through to too very was we
    were what when where which while who whom why will with would you your yours yourself
    yourselves let please want wants way ways get gets got thing things something anything
    """
)

CS: frozenset[str] = _words(
    """
    a aby aj ale ani ano asi az bez bude budem budes by byl byla byli bylo byt ci clanek
    co coz cz dalsi do ho i jak jake jako je jeho jej jeji jejich jen jeste ji jine jiz jsem
    jses jsme jsou jste k kam kde kdo kdyz ke ktera ktere kteri kterou ktery ku ma mate me
    mezi mi mit mne mnou muj muze my na nad nam nami nas nasi nebo nebyl nez nic nich
    nim o od ode on ona oni ono pak po pod podle pokud pouze prave pred pres pri pro
    proc proto protoze s se si sice sve svych svym svymi ta tak take takze tam te
    tedy tento teto tim timto to tohle toho tohoto tom tomto tomuto tu tuto ty tyto u uz
    v vam vas vase ve vice vsak z za zde ze
    """
)

SK: frozenset[str] = _words(
    """
    a aby aj ak ako ale alebo ani ano az bez bol bola boli bolo by byt cez co ci do ho
    i ich ja je jeho jej ju k kam kde kedy kto ktora ktore ktori ktory ku lebo len ma
    mat medzi mi mna mne mnou moj moze my na nad nam nas nase nech nim no o od
    on ona oni ono pod podla pokial potom pre pred preco pri s sa si sme so som su ste
    sve svoj ta tak take takze tam te tej tento teraz tiez to toho tom tomto tu tuto ty
    tym tymto u uz v vam vas vase vo z za ze
    """
)

STOP_WORDS: dict[str, frozenset[str]] = {"en": EN, "cs": CS, "sk": SK}


def stop_words(locale: str) -> frozenset[str]:
    """The stop words of ``locale`` (English for a locale without a list)."""
    return STOP_WORDS.get(locale, EN)
