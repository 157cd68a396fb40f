"""Tables of options checked by pydantic models, with errors that say where.

Every check raises a ``problem``: pydantic collects them, and
``first_problem`` reads the first back as a dotted path (keys joined with
dots, list indices as ``[i]``), a message and the value found. ``Section``
refuses unknown keys with the nearest valid one; ``options_model`` makes the
model of a plugin's option table (a pattern's, a shape's or an adjustment's
``options``: each option to its default, or to a tuple of its values).
"""
from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    ValidationError,
    ValidationInfo,
    create_model,
    model_validator,
)
from pydantic_core import PydanticCustomError

from hkcore.errors import shown


def nearest(word: Any, choices: Iterable[Any]) -> str:
    """`` (did you mean 'x'?)`` for the choice nearest ``word``, or ``""`` when none is near."""
    if not isinstance(word, str) or len(word) > 100:
        return ""
    found = difflib.get_close_matches(word, [str(c) for c in choices], n=1, cutoff=0.5)
    return f" (did you mean {found[0]!r}?)" if found else ""


#: the error type of every check of a preset key
PROBLEM = "preset"


def problem(message: str, value: Any = None, at: str = "") -> PydanticCustomError:
    """The error of a key's check: ``message`` as is, the ``value`` found, and
    ``at``, the path below the key pydantic is validating (``"[2]"``, ``"wait"``)."""
    return PydanticCustomError(PROBLEM, "{message}", {"message": message, "value": value, "at": at})


def joined(*parts: str | int) -> str:
    """A dotted TOML path: keys joined with dots, list indices as ``[i]``."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part:
            out += part if not out or part.startswith("[") else "." + part
    return out


def first_problem(exc: ValidationError, order: tuple[str, ...] = ()) -> tuple[str, str, Any]:
    """(dotted path, message, value) of the first error of ``exc``; with
    ``order``, errors of keys earlier in it first (a key-less error first of all)."""
    errors = exc.errors()
    if order:
        errors = sorted(errors, key=lambda e: order.index(e["loc"][0]) if e["loc"] and e["loc"][0] in order
                        else -1 if not e["loc"] else len(order))
    err = errors[0]
    ctx = err.get("ctx") or {}
    if err["type"] == PROBLEM:
        return joined(*err["loc"], ctx.get("at", "")), ctx["message"], ctx.get("value")
    return joined(*err["loc"]), f"{err['msg']}, got {shown(err.get('input'))}", err.get("input")


def one_of(allowed: tuple[Any, ...], by_text: bool = False) -> Callable[[Any], Any]:
    """A check that a value is one of ``allowed`` (of the same type); the nearest
    is looked for among their texts (with ``by_text``, by the value's text too)."""
    def check(value: Any) -> Any:
        if not any(type(value) is type(d) and value == d for d in allowed):
            raise problem(f"{shown(value)} is not one of {', '.join(map(repr, allowed))}"
                          f"{nearest(str(value) if by_text else value, map(str, allowed))}", value)
        return value
    return check


def of_type(kind: type) -> Callable[[Any], Any]:
    """A check that a value is of type ``kind`` exactly (``True`` is no int)."""
    def check(value: Any) -> Any:
        if type(value) is not kind:
            raise problem(f"expected {kind.__name__}, got {shown(value)}", value)
        return value
    return check


class Section(BaseModel):
    """A table of a preset file: unknown keys refused with the nearest valid one."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _known_keys(cls, data: Any, info: ValidationInfo) -> Any:
        if not isinstance(data, (dict, cls)):
            raise problem(f"expected a table of {cls.holds()}, got {shown(data)}", data)
        if isinstance(data, dict):
            for key in data:
                if key not in cls.model_fields:
                    raise problem(cls.unknown(key, info), key, key)
            cls.whole(data)
        return data

    @classmethod
    def unknown(cls, key: str, info: ValidationInfo) -> str:
        """What an unknown ``key`` of this section is told."""
        return f"unknown key {shown(key)}{nearest(key, cls.model_fields)}"

    @classmethod
    def whole(cls, data: dict[str, Any]) -> None:
        """Checks of the section's keys together, before each key's own (none by default)."""

    @classmethod
    def holds(cls) -> str:
        """What the section's table holds (to say what was expected)."""
        return "options"


class Options(Section):
    """The options of one pattern, shape or plugin (a model made from its option table by ``options_model``)."""

    @classmethod
    def unknown(cls, key: str, info: ValidationInfo) -> str:
        context = info.context if isinstance(info.context, Mapping) else {}
        what, owner = context.get("what", "plugin"), context.get("owner", "?")
        valid = [*context.get("beside", ()), *cls.model_fields]
        return (f"unknown key {shown(key)}{nearest(key, valid)}; {what} {shown(owner)} takes "
                + (", ".join(valid) or "no options"))


def option_fields(spec: Mapping[str, Any]) -> dict[str, Any]:
    """Pydantic fields of an option table: each option to its default, or to a
    tuple of its values (the first the default); a value of the wrong type,
    or not among them, is refused in the words of ``of_type`` and ``one_of``."""
    out: dict[str, Any] = {}
    for key, default in spec.items():
        if isinstance(default, tuple):
            plain = all(type(d) in (str, int, bool) for d in default)
            out[key] = (Annotated[Literal[default] if plain else Any, BeforeValidator(one_of(default))], default[0])
        else:
            kind = type(default)
            out[key] = (Annotated[kind if kind in (str, int, float, bool) else Any, BeforeValidator(of_type(kind))],
                        default)
    return out


def options_model(plugin: Any) -> type[Options]:
    """The model of a pattern's, shape's or adjustment's options (``plugin.options``)."""
    if not plugin.options:
        return Options
    return create_model(f"{plugin.id}_options", __base__=Options, **option_fields(plugin.options))


def checked_options(model: type[Options], given: Any, what: str, owner: str,
                    beside: tuple[str, ...] = ()) -> Options:
    """``given`` checked by an options ``model``; a problem names the option
    under ``owner`` (``beside``: the keys that may stand beside the options)."""
    try:
        return model.model_validate(given, context={"what": what, "owner": owner, "beside": beside})
    except ValidationError as exc:
        path, message, value = first_problem(exc)
        raise problem(message, value, joined(owner, path)) from None
