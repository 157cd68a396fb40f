"""The style every public value of hkcore shares (``Value``), and how the
scorer's hot path builds values it already knows to be valid (``trusted``)."""
from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict

from hkcore.errors import HkcoreError, shown


class Value(BaseModel):
    """The common style of hkcore's public values: frozen (assignment raises
    pydantic's ValidationError), unknown fields refused, dumped with the
    contract's field names (a meld's ``from``, not ``from_``), so that
    ``model_validate(x.model_dump())`` and ``model_validate_json(x.to_json())``
    give ``x`` back. ``to_json()`` is ``model_dump_json()``."""

    # the schema of a dump says every field is there (it always is): a client generated from it need not check
    model_config = ConfigDict(frozen=True, extra="forbid", serialize_by_alias=True,
                              json_schema_serialization_defaults_required=True)

    def to_json(self, **kwargs: Any) -> str:
        """This value's JSON (with ``kwargs``, as ``model_dump_json`` takes them)."""
        return self.model_dump_json(**kwargs)


_Model = TypeVar("_Model", bound=BaseModel)


def trusted(cls: type[_Model], values: dict[str, Any]) -> _Model:
    """An instance of ``cls`` from values the engine already knows to be valid.

    ``model_construct`` without its per-field bookkeeping: the scorer's hot
    path builds results this way (tests check that such a result validates
    and dumps like any other).
    """
    obj = cls.__new__(cls)
    _set = object.__setattr__
    _set(obj, "__dict__", values)
    _set(obj, "__pydantic_fields_set__", set(values))
    _set(obj, "__pydantic_extra__", None)
    _set(obj, "__pydantic_private__", None)
    return obj


def check_addable(a: Any, b: Any, same: tuple[str, ...] = ()) -> None:
    """An ``HkcoreError`` unless summaries ``a`` and ``b`` are of the same presets, in order, and agree on the
    fields ``same`` (what adding two ranges of one run needs)."""
    if list(a.presets) != list(b.presets):
        raise HkcoreError(f"summaries of different presets cannot be added: {list(a.presets)} and "
                          f"{list(b.presets)}")
    for name in same:
        if getattr(a, name) != getattr(b, name):
            raise HkcoreError(f"summaries with different {name} cannot be added: {shown(getattr(a, name))} "
                              f"and {shown(getattr(b, name))}")
