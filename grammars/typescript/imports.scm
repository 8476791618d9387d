(import_statement source: (string (string_fragment) @import))
(export_statement source: (string (string_fragment) @import))
(call_expression function: (import) arguments: (arguments (string (string_fragment) @import)))
; The names an import binds and an export clause lists (`import { Button } from`,
; `export { Button }`), which are no uses.
(import_statement (import_clause) @import.names)
(export_statement (export_clause) @import.names)
; CommonJS: `require('./runner')` imports a module, and the names a `require` binds
; (`const Runner = require('./runner')`, `const { Hook, Suite } = require('./hooks')`,
; `const Base = require('./reporters').Base`) are imported names, no definitions of the
; module that requires them.
(call_expression function: (identifier) @_require arguments: (arguments . (string (string_fragment) @import) .) (#eq? @_require "require"))
(variable_declarator name: [(identifier) (object_pattern)] @import.names value: (call_expression function: (identifier) @_require arguments: (arguments . (string) .)) (#eq? @_require "require"))
(variable_declarator name: [(identifier) (object_pattern)] @import.names value: (member_expression object: (call_expression function: (identifier) @_require arguments: (arguments . (string) .))) (#eq? @_require "require"))
; TypeScript's form of it: `import fs = require('fs')`.
(import_require_clause source: (string (string_fragment) @import))
(import_require_clause (identifier) @import.names)
