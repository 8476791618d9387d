(call_expression function: (identifier) @reference.call)
(call_expression function: (field_expression field: (field_identifier) @reference.method))
(call_expression function: (scoped_identifier name: (identifier) @reference.call))
(call_expression function: (generic_function function: (identifier) @reference.call))
(call_expression function: (generic_function function: (field_expression field: (field_identifier) @reference.method)))
(call_expression function: (generic_function function: (scoped_identifier name: (identifier) @reference.call)))
(macro_invocation macro: (identifier) @reference.call)
; A field read through a value (`arg.requires`): a member of that name, as a method call is.
(field_expression field: (field_identifier) @reference.field)
(type_identifier) @reference.type
; A path's first name (`sync` of `sync::Mutex`), but not the standard crates' (`std::mem`),
; which a module of the workspace named `std` or `core` (tokio's `loom::std`) is not.
(scoped_identifier path: (identifier) @reference.type (#not-any-of? @reference.type "std" "core" "alloc"))
(scoped_type_identifier path: (identifier) @reference.type (#not-any-of? @reference.type "std" "core" "alloc"))
(impl_item trait: (type_identifier) @relation.super)
(impl_item trait: (scoped_type_identifier name: (type_identifier) @relation.super))
; A trait with arguments (`impl<'de> Deserialize<'de> for Saturating<T>`, `impl From<u8> for Port`).
(impl_item trait: (generic_type type: (type_identifier) @relation.super))
(impl_item trait: (generic_type type: (scoped_type_identifier name: (type_identifier) @relation.super)))
(impl_item type: (type_identifier) @relation.impl)
(impl_item type: (generic_type type: (type_identifier) @relation.impl))
; A call through a type (`Semaphore::new(5)`), which says whose function it is.
(call_expression function: (scoped_identifier path: (identifier) @call.owner name: (identifier) @call.name))
(call_expression function: (scoped_identifier path: (scoped_identifier name: (identifier) @call.owner) name: (identifier) @call.name))
; Fields, parameters and bindings with their declared types, and the method calls made through
; them (`sem.acquire()`, `self.sem.acquire()`), which say whose method is called.
(field_declaration name: (field_identifier) @variable.name type: (_) @variable.type)
(parameter pattern: (identifier) @variable.name type: (_) @variable.type)
(let_declaration pattern: (identifier) @variable.name type: (_) @variable.type)
(call_expression function: (field_expression value: (identifier) @call.receiver field: (field_identifier) @call.name))
(call_expression function: (field_expression value: (field_expression value: (self) field: (field_identifier) @call.receiver) field: (field_identifier) @call.name))
; A binding with no written type holds what its value builds, when a constructor of a named type
; builds it (`let sem = Semaphore::new(1)`, `let p = Point { x, y }`; see `constructed_type_name`).
(let_declaration pattern: (identifier) @variable.name !type value: (_) @variable.value)
; Calls written in a macro's tokens (`assert_eq!(compute(1), 1)`, `format!("{}", x.len())`,
; `vec![Meter::new(2)]`): a name and the group after it, and the name before that for a call
; through a type. `extract::token_calls` reads the tokens between them: a method after a `.`,
; a macro before a `!`, and no call where an operator or a keyword stands (`a * (b)`, `fn g()`).
(token_tree (identifier) @reference.token . (token_tree) @token.arguments)
(token_tree (identifier) @reference.token_owner . (identifier) @token.owned . (token_tree) @token.arguments)
; A capitalised name in a macro's tokens is a type, a variant or a constant used
; (`vec![Meter]`, `assert_eq!(p, Point { x: 1 })`), unless a keyword before it defines it.
(token_tree (identifier) @reference.token_capitalised (#match? @reference.token_capitalised "^[A-Z]"))
; What an attribute applies: a macro written with its path (`#[tokio::test]`; the built-in
; `#[test]` is none of the workspace's), and the derives of `#[derive(Debug, Parser)]`, also
; under a condition (`#[cfg_attr(feature = "serde", derive(Serialize))]`). The
; other tokens of an attribute's arguments call nothing (`all` of `#[cfg(all(unix, test))]`).
(attribute (scoped_identifier name: (identifier) @reference.call))
(attribute (identifier) @_derive (#eq? @_derive "derive") arguments: (token_tree (identifier) @reference.call))
(attribute (identifier) @_cfg_attr (#eq? @_cfg_attr "cfg_attr")
  arguments: (token_tree (identifier) @_derive (#eq? @_derive "derive") . (token_tree (identifier) @reference.call)))
(attribute arguments: (token_tree) @token.attribute)
; A path's names wherever it stands (`Mode::Sync` in a pattern, `u32::MAX`, `.map(Token::new)`,
; `Semaphore` of `sync::Semaphore::new(1)`): not a module it passes through (`sync`), nor a path
; in a `use` declaration; a call through a path counts once.
(scoped_identifier name: (identifier) @reference.path)
; A name that stands alone as a value: capitalised, a constant, a static, a unit struct or a
; variant in scope (`n > MAX_PERMITS`, `let m = Meter;`, `Sync => ..`); passed to a call, a
; function passed by its name (`.map(parse_line)`, `spawn(worker)`), unless a function around
; it binds the name (`extract::values`): its parameters, `let`s, closures' parameters and
; patterns.
((identifier) @reference.value (#match? @reference.value "^[A-Z]"))
(arguments (identifier) @reference.argument)
; Other places a function stands as a value: a `let`'s value, a field's, an assignment's, a
; `return`'s, an array's or a tuple's element (`let f = parse_line;`, `Handlers { on_open:
; open_file }`, `[on_open, on_close]`); a variable there is bound, as above.
(let_declaration value: (identifier) @reference.argument)
(field_initializer value: (identifier) @reference.argument)
(assignment_expression right: (identifier) @reference.argument)
(return_expression (identifier) @reference.argument)
(array_expression (identifier) @reference.argument)
(tuple_expression (identifier) @reference.argument)
(function_item) @value.scope
(closure_expression) @value.scope
(parameter pattern: (_) @value.binding)
(closure_parameters) @value.binding
(let_declaration pattern: (_) @value.binding)
(let_condition pattern: (_) @value.binding)
(for_expression pattern: (_) @value.binding)
(match_pattern) @value.binding
; A type parameter's name (`Error` of `impl<Item, Error> Sink<Item> for Either`): written
; alone inside the item that declares it, the name is the parameter (`extract::type_parameters`).
(type_parameter name: (type_identifier) @type.parameter)
; The traits that bound a type parameter, in its list or in a `where` clause (`F: Future + Send`):
; a name written after the parameter is the trait's (`F::Output` is `Future::Output`).
(type_parameter name: (type_identifier) @type.bounded bounds: (trait_bounds (_) @type.bound))
(where_predicate left: (type_identifier) @type.bounded bounds: (trait_bounds (_) @type.bound))
; An associated type named in a trait's arguments (`Item` of `impl Iterator<Item = u8>`,
; `Error` of `Sink<Item, Error = io::Error>`) is the trait's: read as if written after it
; (`Iterator::Item`), from outside the workspace where the trait is.
(generic_type type: (_) @associated.trait
  type_arguments: (type_arguments (type_binding name: (type_identifier) @associated.name)))
; The trait an `impl` implements (`Future` of `impl Future for Sleep`): a type written after `Self` in it
; (`Poll<Self::Output>`) is the trait's associated type.
(impl_item trait: (_) @impl.trait)
