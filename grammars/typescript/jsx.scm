; TSX and JavaScript only (the TypeScript grammar has no JSX).
; A component used as an element (`<Button>`, `<Icon.Close />`): a capitalised name is a
; component, a lower-case one an element of the page (`<div>`); a closing tag names it again.
(jsx_opening_element name: (identifier) @reference.call (#match? @reference.call "^[A-Z]"))
(jsx_self_closing_element name: (identifier) @reference.call (#match? @reference.call "^[A-Z]"))
(jsx_opening_element name: (member_expression property: (property_identifier) @reference.call))
(jsx_self_closing_element name: (member_expression property: (property_identifier) @reference.call))
; A handler passed by its name (`onClick={save}`), unless a function around it binds the name.
(jsx_expression (identifier) @reference.argument)
