"""Every input of the fuzz seed corpus, replayed through its harness (no atheris needed).

The harnesses under ``tests/fuzz/`` check boardcore's error discipline on any input
(``make fuzz`` drives them coverage-guided); here each file of ``tests/fuzz/corpus/<name>/``
-- real documents, records, notation, byte programs and command lines of every game, and
every crashing input a fuzzer ever found, once fixed -- runs through its harness in the
ordinary test run, so the corpus keeps passing.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

CORPUS = Path(__file__).parent / "fuzz" / "corpus"
HARNESSES = ("state_from_dict", "parse_action", "apply", "replay", "cli")
CASES = [(name, path) for name in HARNESSES
         for path in sorted((CORPUS / name).iterdir())]


def test_every_harness_has_a_corpus() -> None:
    for name in HARNESSES:
        assert len(list((CORPUS / name).iterdir())) >= 8, name
    assert {p.name for p in CORPUS.iterdir()} == set(HARNESSES)


@pytest.mark.parametrize(("name", "path"), CASES, ids=[f"{n}/{p.name}" for n, p in CASES])
def test_corpus_input(name: str, path: Path) -> None:
    harness = importlib.import_module(f"tests.fuzz.fuzz_{name}")
    harness.one_input(path.read_bytes())


def test_the_harnesses_refuse_what_the_contract_refuses() -> None:
    from boardcore import IllegalActionError
    from tests.fuzz._harness import MESSAGE_LIMIT, ContractError, check_refusal

    check_refusal(IllegalActionError("illegal action 5: the game is over"), "apply")
    check_refusal(TypeError("action must be an integer, not 1.0"), "apply")
    for wrong in (ValueError("seed"), KeyError("x"), IndexError("list index out of range"),
                  OverflowError("int too big"), IllegalActionError("x" * (MESSAGE_LIMIT + 1))):
        with pytest.raises(ContractError):
            check_refusal(wrong, "apply")
