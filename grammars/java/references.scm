(method_invocation name: (identifier) @reference.call)
; The name a call or a field is read through (`Feature.values()`, `registry.pull()`): a class,
; or a field of the class, unless the method around it binds the name (`extract::values`):
; its parameters, local variables, a lambda's, a `catch`'s, a `for`'s or a pattern's names.
(method_invocation object: (identifier) @reference.value)
(field_access object: (identifier) @reference.value)
; A field read through a value (`this.registry`, `config.port`): a member of that name.
(field_access field: (identifier) @reference.field)
(method_declaration) @value.scope
(constructor_declaration) @value.scope
(compact_constructor_declaration) @value.scope
(lambda_expression) @value.scope
(formal_parameter name: (_) @value.binding)
(spread_parameter (variable_declarator name: (_) @value.binding))
(catch_formal_parameter name: (_) @value.binding)
(enhanced_for_statement name: (_) @value.binding)
(local_variable_declaration declarator: (variable_declarator name: (_) @value.binding))
(lambda_expression parameters: (_) @value.binding)
(resource name: (_) @value.binding)
(instanceof_expression name: (_) @value.binding)
(object_creation_expression type: (type_identifier) @reference.type)
(type_identifier) @reference.type
(superclass (type_identifier) @relation.super)
(superclass (generic_type (type_identifier) @relation.super))
(super_interfaces (type_list (type_identifier) @relation.super))
(super_interfaces (type_list (generic_type (type_identifier) @relation.super)))
(extends_interfaces (type_list (type_identifier) @relation.super))
(extends_interfaces (type_list (generic_type (type_identifier) @relation.super)))
; Variables with their declared types, and the calls made through them (`registry.pull()`,
; `this.registry.pull()`), which say whose method is called.
(field_declaration type: (_) @variable.type declarator: (variable_declarator name: (identifier) @variable.name))
(local_variable_declaration type: (_) @variable.type declarator: (variable_declarator name: (identifier) @variable.name))
(formal_parameter type: (_) @variable.type name: (identifier) @variable.name)
(enhanced_for_statement type: (_) @variable.type name: (identifier) @variable.name)
; A `var` holds what its value builds (`var client = new RegistryClient(url)`).
(local_variable_declaration type: (type_identifier) @_var (#eq? @_var "var") declarator: (variable_declarator name: (identifier) @variable.name value: (_) @variable.value))
(method_invocation object: (identifier) @call.receiver name: (identifier) @call.name)
(method_invocation object: (field_access object: (this) field: (identifier) @call.receiver) name: (identifier) @call.name)
; A method passed by reference (`String::valueOf`, `this::handle`): the type or object before
; `::` and the method after it (`Widget::new` names only its type).
(method_reference . (identifier) @reference.type)
(method_reference (_) . (identifier) @reference.call .)
; An annotation names its type (`@JsonCreator`, `@JsonProperty("name")`).
(marker_annotation name: (identifier) @reference.type)
(annotation name: (identifier) @reference.type)
; A capitalised name standing alone or after a dot is a constant, an enum constant or a class
; used as a value (`size > MAX_SIZE`, `case ALLOW_COMMENTS:`, `Feature.ALLOW_COMMENTS`).
((identifier) @reference.value (#match? @reference.value "^[A-Z]"))
; A type parameter's name (`T` of `<T> T first(List<T> items)`): written inside the class or
; method that declares it, the name is the parameter (`extract::type_parameters`).
(type_parameter (type_identifier) @type.parameter)
