"""The glossary of the published site: every jargon word a reader meets on its pages.

:data:`GLOSSARY` maps a term to ``(pattern, definition)``: ``pattern`` is the regular
expression of the words that use it (the first match on a page is linked to the entry, by
:func:`link_terms`), ``definition`` plain text. Rule ids (R9, C3,
V6) refer to ``kalooki_sim/RULES.md``, published as ``rules.html``. The site builder
(:mod:`kalooki_sim.report.site`) writes ``glossary.html`` from it, one anchor ``g-<slug>`` per
term (:func:`slug`).

>>> slug("Kaplan–Meier"), slug("lay off"), slug("call-k")
('kaplan-meier', 'lay-off', 'call-k')
"""

from __future__ import annotations

import re

#: term -> (words that use it, first match linked; definition)
GLOSSARY = {
    "call": (r"call(?:s|ed|ing)?", "Taking the card just discarded out of turn, together with "
             "a penalty card from the stock, by a player who has not opened (R9); at most 3 "
             "per player per hand."),
    "lay off": (r"lay(?:s|ing)? off|laid off", "Adding a card from one's hand to a meld already "
                "on the table, allowed once one has opened (R10, R11)."),
    "void": (r"voids?", "A deal on which the stock ran out a second time before anyone went "
             "out: nobody scores and the same dealer deals again (R13)."),
    "open": (r"open(?:s|ed|ing)?", "To put down the contract's melds for the first time (R7); "
             "the own turn to open counts a seat's own turns."),
    "censored": (r"censor(?:ed|ing)", "A seat whose hand ended (someone went out, or the deal "
                 "was void) before it opened: we know only that it had not opened yet, and the "
                 "Kaplan-Meier estimate uses it as such, not as a seat that never opens."),
    "paired": (r"pair(?:ed|ing)", "Two ways of playing compared on the same deals (each seat "
               "gets the same cards): the luck of the deal cancels in their difference."),
    "Holm": (r"Holm(?:'s)?", "Holm's adjustment of many comparisons made together: a "
             "difference is claimed only if it holds with at most a 5% chance of any false "
             "claim among all of them."),
    "rule ids": (r"\b[RCV]\d{1,2}(?:\.\d)?\b", "R1-R14 are the rules of the Jamaican card, "
                 "C1-C3 the engine's conventions where the sources are silent, V1-V9 the "
                 "variants (options of Rules). Code, tests and pages cite them; the rules page "
                 "has every one."),
    "V-numbers": (r"V-numbers?|variants?", "The variants of the rules (V1 pack size, V2-V5 "
                  "lay-off and joker options, V6 runs, V7 named formats, V8 call limit, V9 "
                  "Tuluki): fields of Rules, the card's rules by default."),
    "contract": (r"contracts?", "What a hand asks to open with: hand 1 asks 3 groups, hand 9 "
                 "4 runs; the nine contracts make the game (R2)."),
    "group": (
        r"(?:\d|one|two|three|four) groups?",
        "Three or more cards of one rank, at least two of them natural "
        "(not jokers) (R3)."),
    "run": (
        r"(?:\d|one|two|three|four) runs?",
        "Four or more consecutive cards of one suit; an ace is low or high only "
        "at an end; jokers fill gaps, never two side by side (R4)."),
    "meld": (r"melds?", "A group or a run laid on the table."),
    "upcard": (r"upcard", "The card turned face up after the deal to start the discard pile; "
               "it counts as the dealer's discard and can be taken or called (C1)."),
    "stock": (r"stock", "The face-down pile one draws from; when it runs out the discard pile "
              "is reshuffled once, and the next time the deal is void (R13)."),
    "take": (
        r"takes? (?:or|and) calls?|tak(?:e|es|ing) the (?:discard|card|upcard)",
        "The next player's drawing of the card just discarded "
        "instead of the stock's top card (R9.1), free of a penalty card."),
    "penalty": (r"penalt(?:y|ies)", "The points left in a hand when someone goes out: joker "
                "50, black ace 15, red ace 1, K Q J 10 count 10, 2-9 face value (R12). Low is "
                "good; the lowest game total wins (R14)."),
    "doubled": (r"doubl(?:ed|es|ing)", "When a player goes out in the turn it opened, every "
                "other player's penalty is doubled (R12)."),
    "going out": (r"go(?:es|ing)? out|went out|out first", "Getting rid of the last card: the "
                  "hand ends and the others score their penalties (R12)."),
    "cards needed": (r"cards? (?:still )?needed|cards_needed", "The least number of cards a "
                     "hand must add to lay its contract, jokers and the cards left in the pack "
                     "counted exactly; 0 means it can open now."),
    "shanten": (r"shanten", "Mahjong's name for the number of tiles a hand is from ready; "
                "cards needed is its Kalooki counterpart."),
    "outs": (r"outs", "The cards that would cut a hand's cards needed, counted by the copies "
             "still to come (not seen on the table, the pile or in another hand)."),
    "ukeire": (r"ukeire", "Mahjong's word for a hand's outs: the tiles that improve it and how "
               "many are left. The expert's outs discard keeps the hand with the most."),
    "greedy": (r"greedy", "A scripted player, beginner-like: it opens at once, lays off "
               "everything, and takes or calls whenever the card brings its contract closer "
               "(by a quick bound of the cards it needs)."),
    "expert": (r"expert", "The strongest scripted player: counts cards needed exactly, knows "
               "dead cards, calls only when the contract would then need at most five cards, "
               "and discards to keep the most outs in the one-kind contracts."),
    "never-call": (r"never-call", "Greedy that never calls (it still takes the discard "
                   "as its draw): the baseline of the call studies."),
    "call-k": (r"call-k|call-\d", "Greedy that calls at most k times a hand (call-1, "
              "call-2; never more than the rules' limit, V8)."),
    "hold-for-double": (r"hold-for-double", "Greedy that holds its opening until it can "
                        "go out on it (for at most 8 own turns), to double the others, and "
                        "calls only a card that completes its contract."),
    "search": (
        r"search(?:er| player)|searching player",
        "The player that looks ahead: at each take or call it plays "
        "the hand out many times both ways from what it knows (rollouts) and does the "
               "better."),
    "rollout": (r"rollouts?", "One play-out of a hand to its end, the unseen cards dealt at "
                "random; the advisor and the search player average many, acting and passing "
                "on the same cards."),
    "advisor": (r"advisor|advise", "ks.advise: asks whether to take or call a card in a "
                "situation you type in, by paired rollouts, with a 95% interval."),
    "call chart": (r"call charts?", "One table per contract: whether calling (or taking) "
                   "saves points, by cards needed before and after the card, cards left in "
                   "the stock and whether an opponent opened."),
    "chart player": (r"chart player|chart preset", "The expert following the call chart at "
                     "every take and call where its cell decides (preset \"chart\"); "
                     "\"thumb\" follows the rules of thumb alone."),
    "rules of thumb": (r"rules? of thumb", "A few clauses per contract, each true to the "
                       "chart: at least 95% of the decisions it covers are in cells that say "
                       "the same, none in a cell that says the opposite."),
    "fixed point": (r"fixed point", "The chart made again with its own players at the table, "
                    "round after round, until few verdicts change (a chart the table plays)."),
    "ladder": (r"ladder", "Each player against three experts on the same deals, in every "
               "seat in turn, over nine-hand games: points against the table, games won and "
               "a rating."),
    "Elo": (r"Elo(?: scale)?|Bradley[-–]Terry|Plackett[-–]Luce", "A rating from who wins: "
            "here 400 log10 of a player's strength over an expert's, read from how often it "
            "wins a game against three experts (0: as strong as the expert)."),
    "Tuluki": (r"Tuluki", "The two-player game (V9): the non-dealer may only call the other's "
               "discard, and the stock's top card is turned up and offered."),
    "duplicate format": (r"duplicate(?: format)?", "Every deal sequence is played once per "
                         "rotation of the seats, so every player holds every seat on the same "
                         "cards: the luck of the deal cancels."),
    "deal sequence": (r"deal sequences?", "The deals a hand takes until it is scored (the same "
                      "ones for every player compared); the unit of most intervals."),
    "confidence interval": (r"confidence intervals?|95% intervals?|\binterval",
                            "The brackets after a figure: the range that covers the true value "
                            "in 95% of repeated studies, counting only the simulation's noise."),
    "pp": (r"pp", "Percentage points: the difference of two percentages (12% to 14% is "
           "+2 pp)."),
    "Wilson": (r"Wilson(?:'s)?", "Wilson's interval for a proportion: it stays inside 0-100% "
               "and is right even when nothing, or everything, happened."),
    "Student t": (r"Student(?:'s)? t|t[- ]intervals?", "The interval of a mean from the "
                  "spread of its values (Student's t distribution)."),
    "bootstrap": (r"bootstrap(?:ped)?", "Re-drawing the deals at random with replacement many "
                  "times to see how much an estimate moves: an interval where no formula fits."),
    "percentile": (r"percentiles?|quantiles?", "The value below which a given share of the "
                   "outcomes lies (the 90th percentile: 90% of hands paid less)."),
    "Kaplan–Meier": (r"Kaplan[-–]Meier", "The survival estimate of how likely a seat has "
                     "opened by its t-th own turn, counting censored seats as open questions."),
    "restricted mean": (r"restricted means?", "The mean own turn to open counted up to a "
                        "limit (turn 20): a mean that censored seats do not distort."),
    "rank interval": (r"rank intervals?", "The range of places (1st, 2nd, ...) an item can "
                      "hold given all the intervals at once; \"most\" is said only when one "
                      "item alone can be first."),
    "variance ratio": (r"variance ratios?", "How much sharper a paired comparison is: the "
                       "variance of an unpaired difference over that of the paired one."),
    "verdict": (r"verdicts?", "The call chart's and the review's word for a cell or a "
                "decision: call, take or pass when the interval excludes zero (after Holm), "
                "unsure otherwise."),
    "exposure": (r"exposure", "How big a penalty a seat risks: the share of hands that cost "
                 "100 or 200 points or more, and the spread of penalties."),
    "successive halving": (r"successive halving|halving", "The tuning search: every "
                           "candidate plays a batch, the better half a fresh batch, and so on "
                           "to one winner, confirmed on fresh deals."),
}


def slug(term: str) -> str:
    """The anchor of ``term`` in ``glossary.html`` (``id="g-<slug>"``): lower case, runs of
    other characters than letters and digits as one hyphen."""
    return re.sub(r"[^a-z0-9]+", "-", term.lower()).strip("-")


#: text inside these tags is never linked to the glossary
#: (a tuple, not a set: the API reference shows it, in the same order every time)
NO_LINK = ("a", "caption", "code", "dt", "figcaption", "h1", "h2", "h3", "h4", "h5", "h6", "nav",
           "pre", "script", "style", "summary", "svg", "th", "title")


def linkable(parts):
    """The indices of the text pieces of ``parts`` (an HTML fragment split at its tags, tags
    kept) that may carry a link: not inside links, code, headings, captions or scripts.

    >>> parts = re.split(r"(<[^>]+>)", "a <code>b</code> c")
    >>> [parts[i] for i in linkable(parts)]
    ['a ', ' c']
    """
    skip = 0
    for i, part in enumerate(parts):
        if part.startswith("<"):
            tag = re.match(r"</?\s*(\w+)", part)
            if tag and tag.group(1).lower() in NO_LINK and not part.endswith("/>"):
                skip = max(skip + (-1 if part.startswith("</") else 1), 0)
        elif not skip:
            yield i


def link_terms(fragment: str, done: set, target: str = "glossary.html", terms=None) -> str:
    """Link the first use of each glossary term in ``fragment`` (HTML) to its entry in
    ``target`` (the glossary page). ``terms`` limits the terms considered (default: all);
    ``done`` holds the terms linked earlier on the page (updated). Text inside links, code,
    headings, captions and scripts is left alone.

    >>> link_terms("<p>a void, a void</p>", set())
    '<p>a <a class="term" href="glossary.html#g-void">void</a>, a void</p>'
    """
    parts = re.split(r"(<[^>]+>)", fragment)
    for i in linkable(parts):
        part = parts[i]
        for term in GLOSSARY if terms is None else terms:
            if term in done:
                continue
            m = re.search(rf"\b({GLOSSARY[term][0]})\b", part, re.I)
            if m:
                done.add(term)
                part = (part[:m.start()] + f'<a class="term" href="{target}#g-{slug(term)}">'
                        f"{m.group(1)}</a>" + part[m.end():])
        parts[i] = part
    return "".join(parts)
