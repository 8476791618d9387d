(call_expression function: (identifier) @reference.call)
(call_expression function: (member_expression property: (property_identifier) @reference.call))
(new_expression constructor: (identifier) @reference.type)
(type_identifier) @reference.type
; The name a member is read through (`Pool.create`, `config.port`): a class, a namespace or a
; module-level constant, unless a function around it binds the name, which makes it a variable.
(member_expression object: (identifier) @reference.value)
(extends_clause value: (identifier) @relation.super)
(implements_clause (type_identifier) @relation.super)
(implements_clause (generic_type name: (type_identifier) @relation.super))
(extends_type_clause type: (generic_type name: (type_identifier) @relation.super))
(extends_type_clause type: (type_identifier) @relation.super)
; A call through a class (`Pool.create(4)`), which says whose method it is.
(call_expression function: (member_expression object: (identifier) @call.owner property: (property_identifier) @call.name))
; Variables, parameters and fields with their declared types, and the calls made through them
; (`client.pull()`, `this.client.pull()`), which say whose method is called.
(variable_declarator name: (identifier) @variable.name type: (type_annotation (_) @variable.type))
(required_parameter pattern: (identifier) @variable.name type: (type_annotation (_) @variable.type))
(optional_parameter pattern: (identifier) @variable.name type: (type_annotation (_) @variable.type))
(public_field_definition name: (property_identifier) @variable.name type: (type_annotation (_) @variable.type))
; One with no written type holds what its value builds (`const client = new RegistryClient(url)`).
(variable_declarator name: (identifier) @variable.name !type value: (_) @variable.value)
(public_field_definition name: (property_identifier) @variable.name !type value: (_) @variable.value)
(call_expression function: (member_expression object: (identifier) @call.receiver property: (property_identifier) @call.name))
(call_expression function: (member_expression object: (member_expression object: (this) property: (property_identifier) @call.receiver) property: (property_identifier) @call.name))
; A decorator without arguments (`@Column`); one with them is a call.
(decorator (identifier) @reference.call)
; A name passed to a call (`items.map(format)`, `setTimeout(flush)`), a function passed by its
; name, and a capitalised name standing alone (`size > MAX_SIZE`, `err instanceof HttpError`),
; a constant, a class or an enum used as a value: each unless a function around it binds the
; name (`extract::values`): its parameters, variables and patterns.
(arguments (identifier) @reference.argument)
; Other places a function stands as a value: a variable's value, a property's, an assignment's,
; a `return`'s, an array's element, an object's shorthand property (`const f = parseLine`,
; `{ onOpen: openFile }`, `[onOpen, onClose]`, `export default { install }`).
(variable_declarator value: (identifier) @reference.argument)
(pair value: (identifier) @reference.argument)
(assignment_expression right: (identifier) @reference.argument)
(return_statement (identifier) @reference.argument)
(array (identifier) @reference.argument)
(object (shorthand_property_identifier) @reference.argument)
((identifier) @reference.value (#match? @reference.value "^[A-Z]"))
(function_declaration) @value.scope
(generator_function_declaration) @value.scope
(function_expression) @value.scope
(generator_function) @value.scope
(arrow_function) @value.scope
(method_definition) @value.scope
(required_parameter pattern: (_) @value.binding)
(optional_parameter pattern: (_) @value.binding)
(arrow_function parameter: (identifier) @value.binding)
(variable_declarator name: (_) @value.binding)
(catch_clause parameter: (_) @value.binding)
(for_in_statement left: (_) @value.binding)
; A type parameter's name (`Entity` of `class Repository<Entity extends ObjectLiteral>`): written
; inside the item that declares it, the name is the parameter (`extract::type_parameters`).
(type_parameter name: (type_identifier) @type.parameter)
