//! The types of `java.lang`, which every Java file names without an import: `Object`,
//! `String` and `Exception` there are Java's, not a namesake the workspace defines (an enum
//! constant `Object`, a class `Error` in another package), unless the file brings one in.

use std::collections::{HashMap, HashSet};

use crate::context::{IndexedFile, Language};

/// The public top-level types of `java.lang` (Java 17), sorted.
const JAVA_LANG: [&str; 103] = [
    "AbstractMethodError",
    "Appendable",
    "ArithmeticException",
    "ArrayIndexOutOfBoundsException",
    "ArrayStoreException",
    "AssertionError",
    "AutoCloseable",
    "Boolean",
    "BootstrapMethodError",
    "Byte",
    "CharSequence",
    "Character",
    "Class",
    "ClassCastException",
    "ClassCircularityError",
    "ClassFormatError",
    "ClassLoader",
    "ClassNotFoundException",
    "ClassValue",
    "CloneNotSupportedException",
    "Cloneable",
    "Comparable",
    "Deprecated",
    "Double",
    "Enum",
    "EnumConstantNotPresentException",
    "Error",
    "Exception",
    "ExceptionInInitializerError",
    "Float",
    "FunctionalInterface",
    "IllegalAccessError",
    "IllegalAccessException",
    "IllegalArgumentException",
    "IllegalCallerException",
    "IllegalMonitorStateException",
    "IllegalStateException",
    "IllegalThreadStateException",
    "IncompatibleClassChangeError",
    "IndexOutOfBoundsException",
    "InheritableThreadLocal",
    "InstantiationError",
    "InstantiationException",
    "Integer",
    "InternalError",
    "InterruptedException",
    "Iterable",
    "LayerInstantiationException",
    "LinkageError",
    "Long",
    "Math",
    "Module",
    "ModuleLayer",
    "NegativeArraySizeException",
    "NoClassDefFoundError",
    "NoSuchFieldError",
    "NoSuchFieldException",
    "NoSuchMethodError",
    "NoSuchMethodException",
    "NullPointerException",
    "Number",
    "NumberFormatException",
    "Object",
    "OutOfMemoryError",
    "Override",
    "Package",
    "Process",
    "ProcessBuilder",
    "ProcessHandle",
    "Readable",
    "Record",
    "ReflectiveOperationException",
    "Runnable",
    "Runtime",
    "RuntimeException",
    "RuntimePermission",
    "SafeVarargs",
    "SecurityException",
    "SecurityManager",
    "Short",
    "StackOverflowError",
    "StackTraceElement",
    "StackWalker",
    "StrictMath",
    "String",
    "StringBuffer",
    "StringBuilder",
    "StringIndexOutOfBoundsException",
    "SuppressWarnings",
    "System",
    "Thread",
    "ThreadDeath",
    "ThreadGroup",
    "ThreadLocal",
    "Throwable",
    "TypeNotPresentException",
    "UnknownError",
    "UnsatisfiedLinkError",
    "UnsupportedClassVersionError",
    "UnsupportedOperationException",
    "VerifyError",
    "VirtualMachineError",
    "Void",
];

/// Whether `name` is a type of `java.lang`.
pub(crate) fn is_java_lang(name: &str) -> bool {
    JAVA_LANG.binary_search(&name).is_ok()
}

/// The `java.lang` type names that mean a type of the workspace in a Java file: those it
/// imports by name (`import com.acme.Error;`, or a constant so named by a static import),
/// defines itself, or its package defines (`in_package`).
pub(crate) fn brought_in(file: &IndexedFile, in_package: &[String]) -> HashSet<String> {
    let imported = file.symbols.imports.iter().filter_map(|import| import.rsplit('.').next());
    let defined = file.symbols.definitions.iter().filter(|d| d.kind.is_type()).map(|d| d.name.as_str());
    imported
        .chain(defined)
        .filter(|name| is_java_lang(name))
        .map(str::to_owned)
        .chain(in_package.iter().cloned())
        .collect()
}

/// The top-level types of the workspace's Java files named like a type of `java.lang`, by
/// package (`""` for the unnamed one): each package's files name them without an import.
pub(crate) fn package_types<'a>(files: impl Iterator<Item = &'a IndexedFile>) -> HashMap<String, Vec<String>> {
    let mut types: HashMap<String, Vec<String>> = HashMap::new();
    for file in files.filter(|file| file.language == Language::Java) {
        for definition in &file.symbols.definitions {
            if definition.container.is_none() && definition.kind.is_type() && is_java_lang(&definition.name) {
                let package = file.symbols.package.clone().unwrap_or_default();
                types.entry(package).or_default().push(definition.name.clone());
            }
        }
    }
    types
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_are_sorted_for_binary_search() {
        assert!(JAVA_LANG.windows(2).all(|pair| pair[0] < pair[1]), "keep JAVA_LANG sorted and unique");
    }

    #[test]
    fn a_java_lang_name_is_the_workspaces_where_the_file_or_its_package_brings_it_in() {
        let file = |source: &str| IndexedFile::from_source("src/A.java", Language::Java, source.as_bytes());
        let plain = file("package p;\nclass A { Object o; String s; }\n");
        assert!(brought_in(&plain, &[]).is_empty());
        let imported =
            file("package p;\nimport com.acme.Error;\nimport static com.acme.Shape.Object;\nclass A { Error e; }\n");
        let names = brought_in(&imported, &[]);
        assert!(names.contains("Error") && names.contains("Object") && !names.contains("String"), "{names:?}");
        let own = file("package p;\nclass A { static class Override {} }\n");
        assert!(brought_in(&own, &[]).contains("Override"));
        assert!(brought_in(&plain, &["Record".to_owned()]).contains("Record"));

        let shapes = file("package com.acme.cfg;\npublic enum Shape { Array, Object, String }\nclass Error {}\n");
        let other = IndexedFile::from_source("src/B.java", Language::Java, b"class Exception {}\n");
        let types = package_types([&shapes, &other].into_iter());
        assert_eq!(types.get("com.acme.cfg"), Some(&vec!["Error".to_owned()]), "constants and nested types are not");
        assert_eq!(types.get(""), Some(&vec!["Exception".to_owned()]));
    }
}
