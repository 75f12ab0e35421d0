"""Run in a copy of the project where "fifth" is registered with its engine package only
(tests/test_fifth_game.py): what the layers say about the missing presentation part. Prints one
JSON report on stdout; a step that raised is reported by the end of its traceback.
"""

from __future__ import annotations

import json
import sys
import traceback
from typing import Any

NAME = "fifth"


def main() -> int:
    report: dict[str, Any] = {"errors": {}}
    try:
        import presentation

        report["uis"] = sorted(presentation.UIS)
    except Exception:  # noqa: BLE001 - the report says what went wrong
        report["errors"]["import presentation"] = traceback.format_exc().splitlines()[-6:]
    try:
        from tests.test_architecture import missing_parts

        report["missing_parts"] = missing_parts(NAME)
    except Exception:  # noqa: BLE001
        report["errors"]["missing_parts"] = traceback.format_exc().splitlines()[-6:]
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
