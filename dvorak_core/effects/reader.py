"""The reader: common English card text to the effect language, sentence by sentence.

Deterministic and grammar-based: each sentence is matched against a small set of patterns (a condition or a
trigger in front, clauses joined by "and" / "then" behind); what no pattern reads is kept, word for word, in
``Reading.unread``. A card is understood when nothing of its text is left unread. Numbers may be digits or words
("two", "three", "a").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from dvorak_core.effects import language as L  # noqa: N812

NUMBER_WORDS = {
    "zero": 0, "no": 0, "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
}
NUM = r"(?:\d+|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r")"

SUBJECTS: dict[str, L.Who] = {
    "you": "you", "its controller": "controller", "their controller": "controller",
    "the controller": "controller", "each player": "each_player", "all players": "each_player",
    "every player": "each_player", "each other player": "each_opponent", "each opponent": "each_opponent",
    "every opponent": "each_opponent", "all other players": "each_opponent", "a player of your choice":
    "chosen_player", "target player": "chosen_player", "a player": "any_player", "any player": "any_player",
    "an opponent": "opponent", "your opponent": "opponent", "target opponent": "opponent",
    "they": "that_player", "that player": "that_player", "the first player": "any_player",
}
SUBJECT = r"(?:" + "|".join(re.escape(s) for s in sorted(SUBJECTS, key=len, reverse=True)) + r")"
OWNERS: dict[str, L.Who] = {
    "your": "you", "your opponent's": "opponent", "your opponents'": "opponent", "an opponent's": "opponent",
    "another player's": "opponent", "a player's": "any_player", "each opponent's": "each_opponent",
}
OWNER = r"(?:" + "|".join(re.escape(s) for s in sorted(OWNERS, key=len, reverse=True)) + r")"
ZONES: dict[str, L.Zone] = {
    "hand": "hand", "the discard pile": "discard_pile", "the discards": "discard_pile", "discards":
    "discard_pile", "the draw pile": "draw_pile", "the deck": "draw_pile", "their decks": "draw_pile",
    "your deck": "draw_pile", "play": "play",
}
NAME = r"(?-i:[A-Z][\w'-]*(?: [A-Z][\w'-]*)*)"  # a card type or title word: "Thing", "Body Part"


@dataclass(frozen=True)
class Reading:
    effects: tuple[L.Effect, ...]
    unread: list[str]
    understood: bool


def number(word: str) -> int:
    word = word.lower()
    return int(word) if word.isdigit() else NUMBER_WORDS[word]


def singular(word: str) -> str:
    """A card type or title word in the singular: Ministries -> Ministry, Arms -> Arm."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def subject(text: str | None, default: L.Who = "you") -> L.Who:
    return SUBJECTS[text.lower().strip()] if text else default


def _name(text: str) -> str:
    return " ".join(singular(word) for word in text.split())


# ---- clauses: one imperative or statement, no condition ----

Clause = Callable[[re.Match[str], str], tuple[L.Effect, ...] | None]
_CLAUSES: list[tuple[re.Pattern[str], Clause]] = []


def _registrar(table: list[tuple[re.Pattern[str], Clause]]) -> Callable[[str], Callable[[Clause], Clause]]:
    """A decorator that adds its builder to ``table`` under a pattern matching the whole text, any case."""
    def decorator(pattern: str) -> Callable[[Clause], Clause]:
        def register(builder: Clause) -> Clause:
            table.append((re.compile(rf"^(?:{pattern})$", re.IGNORECASE), builder))
            return builder
        return register
    return decorator


clause = _registrar(_CLAUSES)


@clause(rf"(?:(?P<who>{SUBJECT}) )?(?P<may>may )?draws? (?P<n>{NUM}) (?:more |extra )?cards?")
def _draw(m, title):
    return (L.Draw(who=subject(m["who"]), count=number(m["n"]), optional=bool(m["may"])),)


@clause(rf"(?:(?P<who>{SUBJECT}|(?:a|an) [\w-]+ {NAME}) )?discards? (?P<n>{NUM}|all) cards?"
        r"(?P<random> at random)?(?: from (?:your|their|his or her) hand)?")
def _discard(m, title):
    who = m["who"]
    n = None if m["n"].lower() == "all" else number(m["n"])
    return (L.Discard(who=subject(who) if who and who.lower() in SUBJECTS else ("chosen_player" if who else "you"),
                      count=n, random=bool(m["random"])),)


@clause(rf"(?:(?P<who>{SUBJECT}) )?discards? (?:your|their|his or her) (?:whole |entire )?hands?")
def _discard_hand(m, title):
    return (L.Discard(who=subject(m["who"]), count=None),)


@clause(rf"(?:destroy|remove|break) (?P<n>{NUM}|all|target|any|all of|one of) (?:(?P<owner>{OWNER}) )?"
        rf"(?P<what>{NAME}|cards?|items?|[a-z]+ cards?)(?: from play| in play)?")
def _destroy(m, title):
    n = m["n"].lower()
    count = None if n in ("all", "all of") else (1 if n in ("target", "any", "one of") else number(n))
    what = m["what"]
    what = None if what.lower().startswith("card") else _name(what.removesuffix(" cards").removesuffix(" card"))
    return (L.Destroy(L.Cards(what=what, count=count, owner=OWNERS[m["owner"].lower()] if m["owner"] else None)),)


@clause(rf"(?:destroy|remove|break) (?P<all>all )?(?P<owner>{OWNER}) (?P<what>{NAME}|items?|cards?)")
def _destroy_owned(m, title):
    what = None if m["what"].lower().startswith("card") else _name(m["what"])
    return (L.Destroy(L.Cards(what=what, count=None if m["all"] else 1, owner=OWNERS[m["owner"].lower()])),)


@clause(rf"take (?P<n>{NUM}) (?P<random>random )?cards? from (?P<owner>{OWNER}) hand")
def _take_hand(m, title):
    return (L.Take(L.Cards(count=number(m["n"]), owner=OWNERS[m["owner"].lower()], zone="hand",
                           random=bool(m["random"]))),)


@clause(rf"(?:choose|take) (?P<n>{NUM}) (?P<what>{NAME}|cards?) from (?P<zone>the discard pile|the draw pile|"
        r"the deck)(?: and put (?:it|them) into your hand)?")
def _take_pile(m, title):
    what = None if m["what"].lower().startswith("card") else _name(m["what"])
    return (L.Take(L.Cards(what=what, count=number(m["n"]), zone=ZONES[m["zone"].lower()])),)


@clause(rf"steal (?P<n>{NUM}) (?P<what>[\w-]+) from (?P<who>{SUBJECT})(?P<instead> instead of drawing normally)?")
def _steal(m, title):
    what = m["what"].lower()
    take = L.Take(L.Cards(what=None if what == "card" else singular(what), count=number(m["n"]),
                          owner=subject(m["who"])))
    return (take, L.Skip("draw")) if m["instead"] else (take,)


@clause(rf"(?:(?P<who>{SUBJECT}) )?(?:must )?(?:skips?|miss|misses|loses?) (?:your|their|his or her) next turn")
def _skip_turn(m, title):
    return (L.Skip("turn", who=subject(m["who"])),)


@clause(rf"give (?P<n>{NUM}) cards? (?:from your hand )?to (?P<who>{SUBJECT})")
def _give(m, title):
    return (L.Give(L.Cards(count=number(m["n"]), owner="you", zone="hand"), to=subject(m["who"])),)


_PLACES = r"(?:your hand|the discard pile|the draw pile|the deck|play)"


@clause(rf"(?:put|move|return) (?P<n>{NUM}|all) (?P<what>{NAME}|cards?)(?: from (?P<source>{_PLACES}))? "
        rf"(?:into|onto|on top of|on the bottom of|to|back into|back to) (?P<to>{_PLACES})")
def _move(m, title):
    what = None if m["what"].lower().startswith("card") else _name(m["what"])
    count = None if m["n"].lower() == "all" else number(m["n"])
    source = _place(m["source"]) if m["source"] else "play"
    return (L.Move(L.Cards(what=what, count=count, zone=source, owner="you" if source == "hand" else None),
                   to=_place(m["to"])),)


def _place(text: str) -> L.Zone:
    return ZONES[text.lower().removeprefix("your ")]


@clause(r"shuffle (?:all |the )?(?:discards|discard pile) (?:back )?into (?:the|their|your) (?:decks?|draw piles?)")
def _shuffle(m, title):
    return (L.Shuffle(),)


@clause(rf"(?P<who>{SUBJECT}) (?:shows|show|reveals|reveal) (?:to )?you (?P<n>{NUM}) cards? of (?:their|his or her) "
        r"choice from (?:their|his or her) hand")
def _show(m, title):
    return (L.Reveal(who=subject(m["who"]), count=number(m["n"])),)


@clause(rf"look at (?P<owner>{OWNER}) hand")
def _look_at_hand(m, title):
    return (L.Reveal(who=OWNERS[m["owner"].lower()], count=None, to="you"),)


@clause(rf"(?:(?P<who>{SUBJECT}) )?reveals? (?:your|their|his or her) hand")
def _reveal_hand(m, title):
    return (L.Reveal(who=subject(m["who"]), count=None, to="each_player"),)


@clause(rf"(?:(?P<who>{SUBJECT}) )?(?P<verb>gains?|loses?|gets?|scores?) (?P<n>{NUM}) (?:more |free |extra )?"
        rf"(?P<name>[\w-]+)(?: instead of (?P<instead>{NUM}))?")
def _counter(m, title):
    amount = number(m["n"]) * (-1 if m["verb"].lower().startswith("lose") else 1)
    return (L.Counter(name=_counter_name(m["name"]), amount=amount, who=subject(m["who"]),
                      instead_of=number(m["instead"]) if m["instead"] else None),)


@clause(rf"make (?P<who>{SUBJECT}) lose (?P<n>{NUM}) (?P<name>[\w-]+)")
def _make_lose(m, title):
    return (L.Counter(name=_counter_name(m["name"]), amount=-number(m["n"]), who=subject(m["who"])),)


@clause(r"(?P<changes>(?:[+-]\d+ (?-i:[A-Z])[\w-]*\s*)+)")
def _stat_line(m, title):
    return tuple(L.Counter(name=_counter_name(name), amount=int(amount))
                 for amount, name in re.findall(r"([+-]\d+) ([A-Z][\w-]*)", m["changes"]))


@clause(rf"(?P<owner>your|your opponents'|each player's) (?P<name>(?-i:[A-Z])[\w-]*) is (?P<n>{NUM})")
def _set_counter(m, title):
    owners: dict[str, L.Who] = {"your": "you", "your opponents'": "each_opponent", "each player's": "each_player"}
    who = owners[m["owner"].lower()]
    return (L.SetCounter(name=_counter_name(m["name"]), value=number(m["n"]), who=who),)


def _counter_name(word: str) -> str:
    word = word.lower()
    return {"point": "points", "vp": "points"}.get(word, word)


@clause(rf"roll (?P<n>{NUM}) (?:(?P<sides>\d+)-sided )?(?:dice|die)")
def _roll(m, title):
    return (L.Roll(dice=number(m["n"]), sides=int(m["sides"]) if m["sides"] else 6),)


@clause(r"roll (?P<n>\d*)d(?P<sides>\d+)")
def _roll_notation(m, title):
    return (L.Roll(dice=int(m["n"] or 1), sides=int(m["sides"])),)


@clause(rf"(?:(?P<who>{SUBJECT}) )?(?:may )?takes? (?:an extra|another|one extra) turn(?: after this one)?")
def _extra_turn(m, title):
    return (L.ExtraTurn(who=subject(m["who"])),)


@clause(rf"(?:your |the |each player's )?(?:hand size|hand limit|maximum hand size) is (?P<n>{NUM})"
        rf"(?: cards?)?(?: instead of (?:{NUM}))?")
def _hand_limit(m, title):
    return (L.SetRule("hand_limit", number(m["n"])),)


@clause(r"there is no (?:hand size|hand limit|maximum hand size)")
def _no_hand_limit(m, title):
    return (L.SetRule("hand_limit", None),)


_PER_TURN = {"thing": "things_per_turn", "action": "actions_per_turn", "card": "draws_per_turn"}


@clause(r"any number of (?P<what>Things|Actions) may be played (?:each|per|in a) turn")
def _any_number(m, title):
    return (L.SetRule(_PER_TURN[singular(m["what"]).lower()], None),)


@clause(rf"(?:you|each player|players) may play (?P<n>{NUM}) (?P<what>Things?|Actions?) (?:each|per|a) turn"
        rf"(?: instead of (?:{NUM}))?")
def _play_limit(m, title):
    return (L.SetRule(_PER_TURN[singular(m["what"]).lower()], number(m["n"])),)


@clause(rf"(?:you|each player|players) (?:may )?draws? (?P<n>{NUM}) cards? (?:each|per|a|every) turn"
        rf"(?: instead of (?:{NUM}))?")
def _draw_limit(m, title):
    return (L.SetRule("draws_per_turn", number(m["n"])),)


@clause(rf"(?P<target>that Thing|this Thing|it|{NAME}) gets? (?P<n>[+-]\d+) to (?P<stat>[\w ]+)")
def _modify(m, title):
    return (L.Modify(_target(m["target"], title), stat=m["stat"].lower().strip(), amount=int(m["n"])),)


@clause(r"(?P<target>that Thing|this Thing|it) (?:may not|cannot|can't) use (?:its|any) Actions")
def _no_actions(m, title):
    return (L.Forbid(_target(m["target"], title), what="use_actions"),)


@clause(rf"(?P<other>your other |your )?(?P<what>{NAME}) (?:cannot|can't|may not) be destroyed")
def _protect(m, title):
    other = (m["other"] or "").lower()
    return (L.Protect(L.Cards(what=_name(m["what"]), count=None, owner="you" if other else None,
                              other="other" in other)),)


@clause(rf"(?:(?P<who>{SUBJECT}) )?(?P<verb>wins?|loses?) the game")
def _win(m, title):
    who = subject(m["who"])
    return (L.Win(who) if m["verb"].lower().startswith("win") else L.Lose(who),)


@clause(r"(?:this card |it )?may be played (?:at any time|out of turn)(?: even out of turn)?|you may play this card "
        r"(?:at any time|out of turn)|play (?:this card|at any time|it) (?:at any time|out of turn)")
def _any_time(m, title):
    return (L.AnyTime(),)


@clause(rf"(?:(?P<who>{SUBJECT}) )?draws? first even when (?:you|they) chooses? to score")
def _draw_first(m, title):
    # Only with its "even when ... to score": a bare "score 2 points and draw first" (the purple potions) makes
    # the 2 points the winner's claim in place of the usual 1, which its words do not say.
    return (L.DrawFirst(who=subject(m["who"])),)


@clause(r"count it as a (?P<result>win|loss|tie) for you")
def _count_as(m, title):
    return (L.Outcome({"loss": "lose"}.get(m["result"].lower(), m["result"].lower())),)


def _target(text: str, title: str) -> L.Cards:
    if text.lower() in ("that thing", "it"):
        return L.Cards(what="Thing", host=True)
    if text.lower() == "this thing" or text == title:
        return L.Cards(what=None)
    return L.Cards(what=_name(text), count=None)


def read_clause(text: str, title: str = "") -> tuple[L.Effect, ...] | None:
    """A clause's effects, or None where it cannot be read; "A and B", "A, then B" are read part by part."""
    text = text.strip().rstrip(".!").strip()
    if not text:
        return ()
    for pattern, builder in _CLAUSES:
        match = pattern.match(text)
        if match:
            built = builder(match, title)
            if built is not None:
                return built
    for joint in (r",? then ", r",? and then ", r" and ", r", "):
        parts = re.split(joint, text, maxsplit=1, flags=re.IGNORECASE)
        if len(parts) == 2:
            first, rest = read_clause(parts[0], title), read_clause(parts[1], title)
            if first is not None and rest is not None:
                return first + rest
    return None


# ---- conditions ----

def read_condition(text: str) -> L.Condition | None:
    text = text.strip()
    m = re.match(rf"^(?P<who>{SUBJECT}) (?:controls?|control|has|have) (?P<items>.+)$", text, re.IGNORECASE)
    if m:
        items = _counted_list(m["items"])
        if items:
            return L.Controls(who=subject(m["who"]), items=items)
    m = re.match(rf"^(?P<who>{SUBJECT}) (?P<verb>win|wins|lose|loses|tie|ties) with (?P<with>{NAME})$", text,
                 re.IGNORECASE)
    if m:
        return L.Happens(who=subject(m["who"]), verb=m["verb"].lower().rstrip("s"), with_=m["with"])
    m = re.match(rf"^(?P<who>{SUBJECT}) throws? (?P<with>{NAME})(?: and (?P<outcomes>(?:win|lose|tie)"
                 r"(?: or (?:win|lose|tie))*))?$", text, re.IGNORECASE)
    if m:
        outcomes = tuple(re.findall(r"win|lose|tie", (m["outcomes"] or "").lower()))
        return L.Happens(who=subject(m["who"]), verb="throw", with_=m["with"], outcomes=outcomes)
    m = re.match(rf"^you and your opponent both throw (?P<with>{NAME})$", text, re.IGNORECASE)
    if m:
        return L.Happens(who="each_player", verb="throw", with_=m["with"])
    if re.match(r"^you and your opponent (?:both )?throw the same sign$", text, re.IGNORECASE):
        return L.Happens(who="you", verb="tie")
    return None


def _counted_list(text: str) -> tuple[L.Counted, ...] | None:
    parts = re.split(r",\s*(?:and\s+)?|\s+and\s+", text.strip())
    items = []
    for part in parts:
        m = re.match(rf"^(?:(?P<n>{NUM})(?: or more| or more of)?|at least (?P<least>{NUM})) (?P<what>{NAME})$",
                     part.strip(), re.IGNORECASE)
        if not m:
            return None
        items.append(L.Counted(count=number(m["n"] or m["least"]), what=_name(m["what"])))
    return tuple(items)


# ---- sentences ----

Sentence = Clause  # a builder of a whole sentence, which may hold a condition
_SENTENCES: list[tuple[re.Pattern[str], Sentence]] = []
sentence = _registrar(_SENTENCES)


@sentence(rf"if (?:a|an|any) (?P<what>{NAME}) is destroyed, (?P<then>.+)")
def _if_destroyed(m, title):
    then = read_clause(m["then"], title)
    return None if then is None else (L.When("destroyed", then, cards=L.Cards(what=_name(m["what"]))),)


@sentence(r"if (?P<cond>[^,]+?), (?:it is a win for you|you win)(?: the challenge)?")
def _if_win_challenge(m, title):
    condition = read_condition(m["cond"])
    return None if condition is None else (L.If(condition, (L.Outcome("win"),)),)


@sentence(r"if (?P<cond>.+?) and choose to score, (?P<then>[^,]+)")
def _if_scoring(m, title):
    """"If you win with Rock and choose to score, you score 2 points instead of 1": the choice to score is the
    usual score the ``instead_of`` replaces, so only a score in place of another is read here."""
    condition, then = read_condition(m["cond"]), read_clause(m["then"], title)
    if condition is None or then is None or not then or not all(
            isinstance(effect, L.Counter) and effect.instead_of is not None for effect in then):
        return None
    return (L.If(condition, then),)


@sentence(r"if (?P<cond>.+?), (?P<then>[^,]+)")
def _if(m, title):
    condition, then = read_condition(m["cond"]), read_clause(m["then"], title)
    if condition is None or then is None:
        return None
    return (L.If(condition, then),)


@sentence(rf"(?P<then>[^,]+) if (?P<cond>{SUBJECT} .+)")
def _then_if(m, title):
    condition, then = read_condition(m["cond"]), read_clause(m["then"], title)
    return None if condition is None or then is None else (L.If(condition, then),)


@sentence(r"the first player to (?:control|have) (?P<items>.+?) wins(?: the game)?")
def _first_to(m, title):
    items = _counted_list(m["items"])
    return None if not items else (L.If(L.Controls("any_player", items), (L.Win("that_player"),)),)


@sentence(rf"the first player to (?:get|score|reach|have) (?P<n>{NUM}) (?P<name>[\w-]+)(?: or more)? wins(?: the game)?")
def _first_to_reach(m, title):
    return (L.If(L.Reaches("any_player", _counter_name(m["name"]), number(m["n"])), (L.Win("that_player"),)),)


@sentence(rf"[\w' ]+ will win if the (?P<place>{NAME}) ever contains (?P<n>{NUM}) (?P<what>{NAME})")
def _contains(m, title):
    return (L.If(L.Contains(place=m["place"], count=number(m["n"]), what=_name(m["what"])), (L.Win("you"),)),)


@sentence(r"(?:when|whenever|as soon as) (?:it|this card|this thing|(?P<title>.+?)) comes? into play, (?P<then>.+)")
def _comes_into_play(m, title):
    if m["title"] and m["title"].lower() != title.lower():
        return None
    then = read_clause(m["then"], title)
    return None if then is None else (L.When("comes_into_play", then),)


@sentence(r"at the (?P<when>start|beginning|end) of (?:your|each) turn, (?P<then>.+)")
def _each_turn(m, title):
    then = read_clause(m["then"], title)
    event: L.Event = "end_of_turn" if m["when"].lower() == "end" else "start_of_turn"
    return None if then is None else (L.When(event, then),)


_DURATIONS: dict[str, L.Duration] = {
    "until your next turn": "until_your_next_turn", "while this is in play": "while_in_play",
    "while this card is in play": "while_in_play", "as long as this is in play": "while_in_play",
    "this turn": "this_turn", "until the end of the turn": "this_turn", "for the rest of the game":
    "rest_of_game",
}
_DURATION = "|".join(re.escape(d) for d in _DURATIONS)


@sentence(rf"(?P<during>{_DURATION}),? (?P<then>.+)")
def _lasting_front(m, title):
    then = read_clause(m["then"], title)
    return None if then is None else (L.Lasting(_DURATIONS[m["during"].lower()], then),)


@sentence(rf"(?P<then>.+?),? (?P<during>{_DURATION})")
def _lasting_back(m, title):
    then = read_clause(m["then"], title)
    return None if then is None else (L.Lasting(_DURATIONS[m["during"].lower()], then),)


@sentence(r"(?:action|as an action),? ?:? (?P<then>.+)")
def _ability(m, title):
    then = read_clause(m["then"], title)
    return None if then is None else (L.Ability(then),)


@sentence(r"(?:drink|discard (?:the |this )?(?P<title>.+?))(?: (?:after|when) (?P<cond>.+?))? to (?P<then>.+)")
def _once(m, title):
    if m["title"] and m["title"].lower() not in (title.lower(), "card", "thing"):
        return None
    condition = read_condition(m["cond"]) if m["cond"] else None
    then = read_clause(m["then"], title)
    if then is None or (m["cond"] and condition is None):
        return None
    return (L.Ability(then, once=True, condition=condition),)


@sentence(rf"play onto (?:a|an|target) (?P<what>{NAME})(?: ?[-–—:] ?(?P<then>.+))?")
def _play_onto(m, title):
    then = read_clause(m["then"], title) if m["then"] else ()
    return None if then is None else (L.PlayOnto(L.Cards(what=_name(m["what"]))), *then)


def read_sentence(text: str, title: str = "") -> tuple[L.Effect, ...] | None:
    text = text.strip().rstrip(".").strip()
    for pattern, builder in _SENTENCES:
        match = pattern.match(text)
        if match:
            built = builder(match, title)
            if built is not None:
                return built
    return read_clause(text, title)


def sentences(text: str) -> list[str]:
    text = re.sub(r"\s+", " ", text.replace("‚", "")).strip()
    return [part for part in re.split(r"(?<=[^\d\s][.!?])\s+", text) if part.strip()]


def _exclamation(text: str) -> bool:
    """A short cry on its own ("Snicker-Snack!"): colour, not rules."""
    return text.endswith("!") and len(text.split()) <= 3


def read_text(text: str, title: str = "") -> Reading:
    effects, unread = _read(text, title)
    return Reading(effects=effects, unread=list(unread), understood=not unread)


# The readings of the texts read last: a text reads the same every time, and a deck's page or a game's setup reads
# every card of the deck. The effects are frozen values, so one reading may be handed to every caller.
READINGS_KEPT = 8192


@functools.lru_cache(maxsize=READINGS_KEPT)
def _read(text: str, title: str) -> tuple[tuple[L.Effect, ...], tuple[str, ...]]:
    effects: list[L.Effect] = []
    unread: list[str] = []
    parts = sentences(text)
    ability = False
    if parts and re.match(r"^action:\s*", parts[0], re.IGNORECASE):
        ability = True
        parts[0] = re.sub(r"^action:\s*", "", parts[0], flags=re.IGNORECASE)
        parts = [part for part in parts if part.strip()]
    for part in parts:
        if _exclamation(part):
            continue
        read = read_sentence(part, title)
        if read is None:
            unread.append(part.strip())
        else:
            effects.extend(read)
    if ability and effects:
        effects = [L.Ability(tuple(effects))]
    return tuple(effects), tuple(unread)


def read_card(title: str, type: str, text: str) -> Reading:  # noqa: A002 (the card's field)
    """What a card's text says, and what of it could not be read."""
    return read_text(text or "", title)


def read_special_rule(title: str, text: str) -> Reading:
    """What a Special Rule's text says, and what of it could not be read."""
    return read_text(text or "", title)
