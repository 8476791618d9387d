(import_statement source: (string (string_fragment) @import))
(export_statement source: (string (string_fragment) @import))
(call_expression function: (import) arguments: (arguments (string (string_fragment) @import)))
; The names an import binds and an export clause lists (`import { Button } from`,
; `export { Button }`), which are no uses.
(import_statement (import_clause) @import.names)
(export_statement (export_clause) @import.names)
