(use_declaration argument: (_) @import)
(extern_crate_declaration name: (identifier) @import)
(mod_item name: (identifier) @module.declaration !body)
(token_tree "mod" @module.in_macro)
; Paths written out in the code instead of imported (`crate::runtime::context::with(...)`).
(call_expression function: (scoped_identifier) @path.written)
(call_expression function: (generic_function function: (scoped_identifier) @path.written))
(scoped_type_identifier) @path.written
; Items written inside a macro's braces (`cfg_rt! { pub struct Runtime; }`), to be read again as items.
(source_file (macro_invocation (token_tree) @macro.items))
(declaration_list (macro_invocation (token_tree) @macro.items))
