"""Command-line integers as tilec reads them, for tilec's commands and the runtime's own
(``python -m tilec.runtime.measure``). Standard library only: the runtime imports nothing of
the compiler."""

from __future__ import annotations

import argparse


def integer(low: int, high: int, what: str = "an integer"):
    """An argparse type: ``what``, written in decimal digits (no sign, no leading zero), from
    ``low`` to ``high``; anything else is one error naming the option (exit status 2).

        parser.add_argument("--count", type=integer(1, MAX_FUZZ_CASES))   # --count -3: error
    """
    def parse(text: str) -> int:
        digits = text.strip()
        if digits.startswith("-") and digits[1:].isascii() and digits[1:].isdigit():
            raise argparse.ArgumentTypeError(f"'{text[:60]}' is negative; give {what} from {low} to {high}")
        if not (digits.isascii() and digits.isdigit()):
            raise argparse.ArgumentTypeError(f"'{text[:60]}' is not {what} (decimal digits, {low} to {high})")
        if len(digits) > 1 and digits.startswith("0"):
            raise argparse.ArgumentTypeError(f"'{text[:60]}' has a leading zero; write {digits.lstrip('0') or '0'}")
        if len(digits) > len(str(high)) or not low <= int(digits) <= high:  # int() of no huge string
            raise argparse.ArgumentTypeError(f"'{text[:60]}' is out of range: {what} from {low} to {high}")
        return int(digits)
    parse.__name__ = what  # argparse names the type by it
    return parse
