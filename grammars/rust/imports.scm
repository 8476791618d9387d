(use_declaration argument: (_) @import)
(extern_crate_declaration name: (identifier) @import)
(mod_item name: (identifier) @module.declaration !body)
(token_tree "mod" @module.in_macro)
