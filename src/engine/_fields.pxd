# Checks of a ``to_dict`` document's fields for ``_from_dict``: each returns the field's
# value or raises ``boardcore.errors.InvalidStateError`` naming the field.  ``lo`` and
# ``hi`` are Python ints (bounds up to 2**64 - 1).  Only the error path imports.


cdef inline int _invalid(str message) except -1:
    from boardcore.errors import InvalidStateError
    raise InvalidStateError(message)


cdef inline object field(object data, str name):
    """Return ``data[name]``; a missing field is an error."""
    if name not in data:
        _invalid(f"state data has no field {name!r}")
    return data[name]


cdef inline object int_field(object data, str name, object lo, object hi):
    """Return field ``name``, an int in ``lo..hi`` (bool refused)."""
    value = field(data, name)
    if type(value) is not int or not lo <= value <= hi:
        _invalid(f"field {name!r} is {value!r}; allowed ints {lo}..{hi}")
    return value


cdef inline list int_list(object data, str name, object lo, object hi,
                          Py_ssize_t length=-1):
    """Return field ``name``, a list of ints in ``lo..hi`` (of ``length`` items if >= 0)."""
    value = field(data, name)
    if not isinstance(value, list) or (length >= 0 and len(value) != length):
        want = f"a list of {length}" if length >= 0 else "a list"
        _invalid(f"field {name!r} must be {want} ints, not {value!r}")
    for x in value:
        if type(x) is not int or not lo <= x <= hi:
            _invalid(f"field {name!r} holds {x!r}; allowed ints {lo}..{hi}")
    return value
