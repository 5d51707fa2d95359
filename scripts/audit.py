"""pip-audit over the installed set (scripts/test runs it): fail on a known vulnerability that has a fix.

A vulnerability with no fixed version yet is printed and does not fail the run (there is nothing to
upgrade to). When the advisory database (PyPI's) cannot be reached, say so loudly and skip: never pass
silently as if the set had been checked.

Usage: .venv/bin/python scripts/audit.py
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

#: What pip-audit's error output says when it could not reach the advisory database.
UNREACHABLE = ("ConnectionError", "Max retries exceeded", "Temporary failure in name resolution", "timed out",
               "Name or service not known", "NewConnectionError", "ProxyError", "SSLError")  # fmt: skip


def findings(report: dict[str, Any]) -> tuple[list[str], list[str]]:
    """pip-audit's JSON report → (the vulnerabilities that have a fix, those that have none), a line each.

    >>> findings({"dependencies": [{"name": "a", "version": "1", "vulns": [{"id": "X-1", "fix_versions": ["1.2"]},
    ...     {"id": "X-2", "fix_versions": []}]}, {"name": "b", "version": "2", "vulns": []}]})
    (['a 1: X-1 (fixed in 1.2)'], ['a 1: X-2 (no fix yet)'])
    """
    fixable, unfixed = [], []
    for dep in report.get("dependencies", []):
        for vuln in dep.get("vulns", []):
            line = f"{dep['name']} {dep['version']}: {vuln['id']}"
            if vuln.get("fix_versions"):
                fixable.append(f"{line} (fixed in {', '.join(vuln['fix_versions'])})")
            else:
                unfixed.append(f"{line} (no fix yet)")
    return fixable, unfixed


def main() -> int:
    pip_audit = Path(sys.executable).with_name("pip-audit")
    command = [str(pip_audit), "--format", "json", "--progress-spinner", "off", "--skip-editable"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError:
        if any(word in done.stderr for word in UNREACHABLE):
            print("== pip-audit: SKIPPED, the advisory database cannot be reached from here:", file=sys.stderr)
            print(done.stderr.strip().splitlines()[-1], file=sys.stderr)
            return 0
        print(f"== pip-audit failed (exit {done.returncode}):\n{done.stderr}", file=sys.stderr)
        return 1
    fixable, unfixed = findings(report)
    for line in unfixed:
        print(f"== pip-audit: known, not fixable yet: {line}", file=sys.stderr)
    if fixable:
        print(
            "== pip-audit: known vulnerabilities with a fix: raise these lower bounds in pyproject.toml",
            file=sys.stderr,
        )
        for line in fixable:
            print(f"   {line}", file=sys.stderr)
        return 1
    print(f"== pip-audit: {len(report.get('dependencies', []))} packages, no known vulnerability with a fix")
    return 0


if __name__ == "__main__":
    sys.exit(main())
