(import_declaration (scoped_identifier) @import)
(import_declaration (identifier) @import)
(package_declaration (scoped_identifier) @package)
(package_declaration (identifier) @package)
