#!/usr/bin/env bash
# Fuzzes each target for SECONDS (default 60; `bash fuzz/run.sh 600 model_stream` for one),
# seeding its corpus from the wire-format examples, the grammar fixtures and the recorded
# build outputs. Needs a nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`).
# Inputs that crash are left in fuzz/artifacts/TARGET/.
set -euo pipefail
shopt -s nullglob # seeds that are not there (no shared/specs beside the checkout) are skipped
cd "$(dirname "$0")"
seconds=${1:-60}
shift || true
specs=../../shared/specs
samples=../server/src/validate/parse/samples

seed() { # target name bytes-file [prefix byte in octal]
    mkdir -p "corpus/$1"
    if [ -n "${4:-}" ]; then
        { printf "\\$4"; cat "$3"; } >"corpus/$1/$2"
    else
        cp "$3" "corpus/$1/$2"
    fi
}

for file in "$specs"/openai/examples/*.sse; do seed model_stream "openai-$(basename "$file")" "$file" 030; done
for file in "$specs"/anthropic/examples/*.sse; do seed model_stream "anthropic-$(basename "$file")" "$file" 031; done
if [ -f "$specs/ollama/examples/api-chat.docs-examples.json" ]; then
    mkdir -p corpus/model_stream
    python3 - "$specs/ollama/examples/api-chat.docs-examples.json" corpus/model_stream <<'PY'
import json, sys
examples = json.load(open(sys.argv[1]))
for name, example in examples.items():
    if not isinstance(example, dict):
        continue
    lines = example.get("response_chunks") or [example["response"]]
    with open(f"{sys.argv[2]}/ollama-{name}", "wb") as out:
        out.write(b"\032" + "".join(json.dumps(line) + "\n" for line in lines).encode())
PY
fi
for file in "$samples"/*; do seed compiler_output "$(basename "$file")" "$file"; done
seed source_file rust ../grammars/rust/fixture.rs 000
seed source_file java ../grammars/java/fixture.java 001
seed source_file tsx ../grammars/typescript/fixture.tsx 003
printf '\004const { Hook } = require("./hook");\nRunner.prototype.run = function (fn) {};\nexports.x = () => {};\nmodule.exports = { parse: function () {} };\nmodule.exports = class Cursor extends Base { next() {} };\n' \
    >corpus/source_file/commonjs
for file in "$specs"/github/examples/*.json; do seed issue_text "$(basename "$file")" "$file"; done
mkdir -p corpus/lsp_message corpus/model_answer corpus/document_changes corpus/tsconfig corpus/exact_edit
printf 'Content-Length: 52\r\n\r\n{"jsonrpc":"2.0","id":1,"method":"shutdown","params":null}' >corpus/lsp_message/shutdown
printf '{"tool_calls": [{"name": "read_file", "arguments": {"path": "src/lib.rs"}}]}' >corpus/model_answer/call
printf '```json\n{"done": "Added the retry."}\n```' >corpus/model_answer/done
printf '\001[{"range":{"start":{"line":1,"character":8},"end":{"line":1,"character":9}},"text":"x"}]' \
    >corpus/document_changes/utf16
printf '{ // aliases\n "extends": "./base", "compilerOptions": { "baseUrl": "src", "paths": { "@ui/*": ["ui/*"], }, }, }' \
    >corpus/tsconfig/aliases
printf '{ "imports": { "#utils/*": "./src/utils/*.js", "#cfg": [{ "node": "./cfg.js" }, "./cfg.default.js"], "#dep": "lodash" } }' \
    >corpus/tsconfig/package-imports
printf 'fn a() {\r\n    1\r\n}\n\0    1\n\0    2\n' >corpus/exact_edit/crlf
# Tool calls: NUL between calls, each led by a byte picking the tool (9 = read_file, 1 =
# list_files, 2 = grep, 3 = find_symbol, 4 = patch_file, 5 = write_file, 6 = mkdir, 7 = delete_file).
mkdir -p corpus/tool_calls
printf '\011{"path":"src/lib.rs","start_line":1}\0\004{"path":"src/lib.rs","old_text":"{ 1 }","new_text":"{ 2 }"}\0\002{"pattern":"fn ","path":"src"}' \
    >corpus/tool_calls/read-patch-grep
printf '\005{"path":"src/new.rs","content":"pub fn x() {}\\n"}\0\003{"name":"Clock"}\0\001{}\0\007{"path":"src/clock.rs"}' \
    >corpus/tool_calls/write-find-list-delete
printf '\005{"path":"../outside.txt","content":"x"}\0\011{"path":".env"}\0\006{"path":"/tmp/x"}' >corpus/tool_calls/escapes

targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(cargo +nightly fuzz list)
for target in "${targets[@]}"; do
    echo "== $target ($seconds s)"
    cargo +nightly fuzz run "$target" -- -max_total_time="$seconds" -max_len=65536 2>&1 | tail -n 4
done
