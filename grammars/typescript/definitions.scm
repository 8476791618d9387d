(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(function_signature name: (identifier) @name) @definition.function
(class_declaration name: (type_identifier) @name) @definition.class
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(interface_declaration name: (type_identifier) @name) @definition.interface
(type_alias_declaration name: (type_identifier) @name) @definition.type
(enum_declaration name: (identifier) @name) @definition.enum
(method_definition name: (property_identifier) @name) @definition.method
(method_signature name: (property_identifier) @name) @definition.method
(abstract_method_signature name: (property_identifier) @name) @definition.method
(internal_module name: (identifier) @name) @definition.module
(module name: [(identifier) (string)] @name) @definition.module
(program (lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)]) @definition.function))
(program (export_statement (lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)]) @definition.function)))
(program (lexical_declaration (variable_declarator name: (identifier) @name value: [(number) (string) (object) (array) (template_string) (regex) (true) (false) (null) (undefined) (identifier) (member_expression) (subscript_expression) (call_expression) (new_expression) (await_expression) (binary_expression) (unary_expression) (ternary_expression) (parenthesized_expression) (as_expression) (satisfies_expression) (non_null_expression)]) @definition.constant))
(program (export_statement (lexical_declaration (variable_declarator name: (identifier) @name value: [(number) (string) (object) (array) (template_string) (regex) (true) (false) (null) (undefined) (identifier) (member_expression) (subscript_expression) (call_expression) (new_expression) (await_expression) (binary_expression) (unary_expression) (ternary_expression) (parenthesized_expression) (as_expression) (satisfies_expression) (non_null_expression)]) @definition.constant)))
(public_field_definition name: (property_identifier) @name value: [(arrow_function) (function_expression)]) @definition.method
(program (variable_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)]) @definition.function))
(program (export_statement "default" @name value: [(function_expression !name) (arrow_function)]) @definition.function)
(program (export_statement "default" @name value: (class !name)) @definition.class)
(program (lexical_declaration (variable_declarator name: (identifier) @name value: (class)) @definition.class))
(program (export_statement (lexical_declaration (variable_declarator name: (identifier) @name value: (class)) @definition.class)))
(program (ambient_declaration (lexical_declaration (variable_declarator name: (identifier) @name) @definition.constant)))
(program (export_statement (ambient_declaration (lexical_declaration (variable_declarator name: (identifier) @name) @definition.constant))))
; CommonJS and prototypes, at a module's top level: `Runner.prototype.run = function (fn) {}` and
; `Model.init = function init() {}` are methods of `Runner` and `Model`,
; `exports.lookupFiles = (spec) => {}` and `module.exports.lookupFiles = ..` functions (the
; container is read from the assignment's left side), and so are the functions an object
; assigned to `module.exports` or to a prototype holds (`module.exports = { parse: function () {} }`).
(program (expression_statement (assignment_expression left: (member_expression property: (property_identifier) @name) right: [(function_expression) (arrow_function)]) @definition.function) (#not-eq? @name "exports"))
(program (expression_statement (assignment_expression left: (member_expression property: (property_identifier) @_held) right: (object (pair key: (property_identifier) @name value: [(function_expression) (arrow_function)]) @definition.function))) (#any-of? @_held "exports" "prototype"))
; `module.exports = class Cursor {}`: the class by its own name.
(program (expression_statement (assignment_expression right: (class name: (type_identifier) @name) @definition.class)))
; `module.exports = function lookupFiles() {}`: the function by its own name.
(program (expression_statement (assignment_expression left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports) right: (function_expression name: (identifier) @name)) @definition.function) (#eq? @_module "module") (#eq? @_exports "exports"))
