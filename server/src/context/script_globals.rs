//! The globals a TypeScript or JavaScript module names without an import: `Error`, `Map`,
//! `Promise`, `Partial` and `Record` there are the language's, not a namesake another module
//! of the workspace defines (zod's `const Partial`, a sample's `class Record`), unless the
//! file imports or defines one.

use std::collections::HashSet;

use crate::context::IndexedFile;

/// ECMAScript's global objects, TypeScript's global types and the host objects code names most
/// (the browser's and Node's), sorted.
const SCRIPT_GLOBALS: [&str; 108] = [
    "AbortController",
    "AbortSignal",
    "AggregateError",
    "Array",
    "ArrayBuffer",
    "ArrayLike",
    "AsyncGenerator",
    "AsyncIterable",
    "AsyncIterableIterator",
    "AsyncIterator",
    "Atomics",
    "Awaited",
    "BigInt",
    "BigInt64Array",
    "BigUint64Array",
    "Blob",
    "Boolean",
    "Buffer",
    "Capitalize",
    "ConstructorParameters",
    "DataView",
    "Date",
    "Document",
    "Element",
    "Error",
    "EvalError",
    "Event",
    "EventTarget",
    "Exclude",
    "Extract",
    "File",
    "FinalizationRegistry",
    "Float32Array",
    "Float64Array",
    "FormData",
    "Function",
    "Generator",
    "HTMLElement",
    "Headers",
    "InstanceType",
    "Int16Array",
    "Int32Array",
    "Int8Array",
    "Intl",
    "Iterable",
    "IterableIterator",
    "Iterator",
    "JSON",
    "Lowercase",
    "Map",
    "Math",
    "NaN",
    "NoInfer",
    "Node",
    "NonNullable",
    "Number",
    "Object",
    "Omit",
    "OmitThisParameter",
    "Parameters",
    "Partial",
    "Pick",
    "Promise",
    "PromiseLike",
    "PropertyKey",
    "Proxy",
    "RangeError",
    "Readonly",
    "ReadonlyArray",
    "ReadonlyMap",
    "ReadonlySet",
    "Record",
    "ReferenceError",
    "Reflect",
    "RegExp",
    "Request",
    "Required",
    "Response",
    "ReturnType",
    "Set",
    "SharedArrayBuffer",
    "String",
    "Symbol",
    "SyntaxError",
    "TemplateStringsArray",
    "TextDecoder",
    "TextEncoder",
    "ThisParameterType",
    "ThisType",
    "TypeError",
    "URIError",
    "URL",
    "URLSearchParams",
    "Uint16Array",
    "Uint32Array",
    "Uint8Array",
    "Uint8ClampedArray",
    "Uncapitalize",
    "Uppercase",
    "WeakMap",
    "WeakRef",
    "WeakSet",
    "WebSocket",
    "Window",
    "Worker",
    "console",
    "globalThis",
    "process",
];

/// Whether `name` is a global of TypeScript and JavaScript code.
pub(crate) fn is_script_global(name: &str) -> bool {
    SCRIPT_GLOBALS.binary_search(&name).is_ok()
}

/// The globals a script file brings in from the workspace instead: those its imports bind
/// (`import { Record } from './record'`) or it defines itself.
pub(crate) fn brought_in(file: &IndexedFile) -> HashSet<String> {
    let defined = file.symbols.definitions.iter().map(|d| d.name.as_str());
    file.symbols
        .import_bindings
        .iter()
        .map(|(name, _)| name.as_str())
        .chain(defined)
        .filter(|name| is_script_global(name))
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::Language;

    #[test]
    fn the_globals_are_sorted_for_binary_search() {
        assert!(SCRIPT_GLOBALS.windows(2).all(|pair| pair[0] < pair[1]), "keep SCRIPT_GLOBALS sorted and unique");
    }

    #[test]
    fn a_global_is_the_workspaces_where_the_file_imports_or_defines_it() {
        let file = |source: &str| IndexedFile::from_source("src/a.ts", Language::TypeScript, source.as_bytes());
        assert!(brought_in(&file("const m: Map<string, Error> = new Map();\n")).is_empty());
        let own = brought_in(&file("import { Record as Record, Error } from './model';\nexport class Event {}\n"));
        let mut own: Vec<&str> = own.iter().map(String::as_str).collect();
        own.sort_unstable();
        assert_eq!(own, ["Error", "Event", "Record"]);
    }
}
