# Shared by scripts/run and scripts/test: make .venv and install capicua into it, but only when needed.
# The install is editable (the code is used where it is), so it is redone only when pyproject.toml (the
# dependencies) changes: a stamp in .venv per set of extras remembers what was installed. A start then
# takes well under a second instead of a pip run.

ensure_venv() {
    local extras=$1 spec=. stamp=.venv/.capicua-installed want
    if [ -n "$extras" ]; then
        spec=".[$extras]"
        stamp="$stamp-$extras"
    fi
    if [ ! -x .venv/bin/python ]; then
        "${PYTHON:-python3}" -m venv .venv
        .venv/bin/python -m pip install --quiet --upgrade pip
    fi
    want=$(sha256sum pyproject.toml | cut -d' ' -f1)
    if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ] || ! .venv/bin/python -c "import capicua" 2>/dev/null; then
        echo "== installing capicua ($spec) into .venv" >&2
        # (PYTHONWARNINGS: setuptools prints a banner about folders named like the package, which is
        # what an editable install is)
        PYTHONWARNINGS=ignore .venv/bin/python -m pip install --quiet --disable-pip-version-check -e "$spec"
        echo "$want" > "$stamp"
    fi
}
