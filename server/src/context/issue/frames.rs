//! Stack-trace frames an issue pastes: Java's `at com.x.Foo.bar(Foo.java:12)`, Rust's
//! `  3: tokio::runtime::park::run`, JavaScript's `at main (/app/index.js:3:9)` and a
//! browser's `render@http://localhost:5173/src/App.tsx:12:3`; which of them are of code the
//! workspace holds, and which lines of a code block are a trace's.

use std::borrow::Cow;

use super::own_code::{OwnCode, is_jdk_class};

/// Java stack frames `at com.x.Foo.bar(Foo.java:12)` of code the workspace may hold (see
/// [`OwnCode`]): the file path suffix, the method as its source names it (see
/// [`source_method`]; none for a constructor or what the compiler made) and the line.
pub(super) fn java_frames(text: &str, own: &OwnCode) -> Vec<(String, Option<String>, Option<u32>)> {
    let mut frames = Vec::new();
    for line in text.lines() {
        let Some((class_path, location)) = frame_parts(line) else { continue };
        if !location.contains(".java") || !own.may_hold_class(class_path) {
            continue;
        }
        let mut parts: Vec<&str> = class_path.split('.').collect();
        let Some(method) = parts.pop() else { continue };
        let Some(class) = parts.pop() else { continue };
        let outer = class.split('$').next().unwrap_or(class);
        parts.push(outer);
        // The line's digits, before the `)` and whatever a logger adds after it
        // (`Foo.java:12) ~[foo-1.2.jar:1.2]`).
        let line = location.split_once(':').and_then(|(_, rest)| {
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            rest[..digits].parse().ok()
        });
        frames.push((format!("{}.java", parts.join("/")), source_method(method).map(str::to_owned), line));
    }
    frames
}

/// The method a frame's method is in the source: a lambda's is the method it is written in
/// (`getWriter` of `lambda$getWriter$0`); a constructor (`<init>`), a class's initialiser
/// (`<clinit>`), a lambda in either (`lambda$new$0`, `lambda$static$1`) and an accessor the
/// compiler made (`access$000`) are no method of the source's.
fn source_method(method: &str) -> Option<&str> {
    let method = match method.strip_prefix("lambda$") {
        Some(lambda) => lambda.split('$').next()?,
        None => method,
    };
    let made = method.is_empty() || method.starts_with('<') || method.starts_with("access$");
    (!made && method != "new" && method != "static").then_some(method)
}

/// A Java frame's qualified method (`com.x.Foo.bar`, without the module or class loader that
/// Java 9 and later write first: `java.base/`, `app//`) and what its parentheses hold: of an
/// `at` line, or of a frame a structured log writes as a string of its own, without the `at`
/// (`"org.x.Foo.bar(Foo.java:12)",` in a JSON array of frames), whose parentheses must then
/// say where Java code stands.
fn frame_parts(line: &str) -> Option<(&str, &str)> {
    let line = line.trim_start();
    let (rest, quoted) = match line.strip_prefix("at ") {
        Some(_) => (after_at(line)?, false),
        None => (line.trim_start_matches(['[', '"', '\'']).trim_end().trim_end_matches([',', ']', '"', '\'']), true),
    };
    let (qualified, location) = rest.split_once('(')?;
    let qualified = qualified.trim();
    let qualified = qualified.rsplit_once('/').map_or(qualified, |(_, path)| path);
    if quoted && !(is_qualified_method(qualified) && location.ends_with(')') && is_java_location(location)) {
        return None;
    }
    Some((qualified, location))
}

/// What follows a trace line's `at ` (`com.x.Foo.bar(Foo.java:12)`, `src/main.rs:4:5`); `None`
/// for a line without it, and for a message's place in its input that Jackson writes alike
/// (`at [Source: (String)"{..}"; line: 1, column: 9]`), whose words are the message's.
fn after_at(line: &str) -> Option<&str> {
    line.strip_prefix("at ").filter(|rest| !rest.starts_with('['))
}

/// Whether `text` is written as a frame's method is: dotted names (`org.x.Foo$1.bar`,
/// `Foo.<init>`), at least a class and its method.
fn is_qualified_method(text: &str) -> bool {
    text.contains('.')
        && text.split('.').all(|part| {
            !part.is_empty() && part.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | '<' | '>'))
        })
}

/// What the source files of the JVM's frames end in: Java's, and Kotlin's, Scala's, Groovy's,
/// Clojure's and JRuby's (`RealCall.kt:154`, `agent.rb:386`), and a generated class's
/// (`initialize.gen`), whose frames a Java trace holds alike.
const JVM_SOURCES: [&str; 8] = [".java", ".kt", ".kts", ".scala", ".groovy", ".clj", ".rb", ".gen"];

/// Whether a frame's parentheses say where a JVM frame's code stands: `Foo.java:12`,
/// `RealCall.kt:154`, `Native Method`, `Unknown Source` (not a JavaScript frame's
/// `/app/index.js:3:9`).
fn is_java_location(location: &str) -> bool {
    let place = location.split([':', ')']).next().unwrap_or_default();
    // A file's name, or JRuby's path to its script (`/usr/share/app/lib/agent.rb`).
    let is_file_name = place.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | '.' | '-' | '/'));
    (JVM_SOURCES.iter().any(|source| place.ends_with(source)) && is_file_name)
        || place == "Native Method"
        || place == "Unknown Source"
}

/// Whether `line` is a frame of code the workspace does not hold (see [`OwnCode`]): a Java
/// frame of the JDK (`at java.util.ArrayList.forEach(..)`,
/// `at jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)`), of a library or
/// of the reporter's own program, or a numbered Rust frame of a crate the workspace does not
/// build (`  4: std::panicking::begin_panic`, `  9: reedline::engine::Reedline::read_line`)
/// or of the runtime (`  0: rust_begin_unwind`, `  20: __libc_start_main`),
/// or a JavaScript frame of Node's own code, of a package the workspace does not hold or of a
/// script file it does not hold (`at Module._compile (node:internal/modules/cjs/loader:1105:14)`,
/// `at main (/home/me/app/index.js:3:9)`). Its names (`accept`,
/// `run`, `ArrayList`, `_compile`) are namesakes of the workspace's at best.
fn is_foreign_frame(line: &str, own: &OwnCode) -> bool {
    if let Some(symbol) = rust_frame_symbol(line) {
        return match symbol_crate(symbol) {
            Some(name) => !own.may_hold_crate(name),
            None => is_runtime_frame(symbol),
        };
    }
    if let Some(location) = script_frame_location(line) {
        return !own.may_hold_script(&location);
    }
    if is_script_builtin_frame(line) {
        return true;
    }
    frame_parts(line).is_some_and(|(class_path, location)| {
        is_jdk_class(class_path) || (is_java_location(location) && !own.may_hold_class(class_path))
    })
}

/// Whether `line` is V8's frame of a function built into the language, which stands in no
/// file: `at Array.forEach (<anonymous>)`, `at new Promise (<anonymous>)`,
/// `at JSON.parse (native)`, `at async Promise.all (index 0)`.
fn is_script_builtin_frame(line: &str) -> bool {
    v8_place(line.trim()).is_some_and(|place| {
        matches!(place, "<anonymous>" | "native")
            || place.strip_prefix("index ").is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// What V8 writes in parentheses as a named frame's place (`/app/src/index.ts:3:9` of
/// `at main (/app/src/index.ts:3:9)`, `<anonymous>` of `at Array.forEach (<anonymous>)`);
/// `None` for a line that is no such frame.
fn v8_place(line: &str) -> Option<&str> {
    let (_, place) = line.strip_prefix("at ")?.strip_suffix(')')?.rsplit_once(" (")?;
    Some(place)
}

/// Where a JavaScript frame's code stands, as V8 writes it (`at main (/app/src/index.ts:3:9)`,
/// `at /app/src/index.ts:3:9`, `at node:internal/main/run_main_module:23:47`) or as Firefox
/// and Safari do (`render@http://localhost:5173/src/App.tsx?t=1690:12:3`); `None` for any
/// other line. The line and column are left off; a file's address comes as its path
/// (`/app/src/index.ts` of `file:///app/src/index.ts:3:9`, `\` as `/`), and a page's as its
/// path from the server's root without the query (`src/App.tsx`,
/// `node_modules/.vite/deps/react.js`): what a server serves is no file of the disk, so only
/// its `node_modules` tell whose code it is.
fn script_frame_location(line: &str) -> Option<String> {
    let line = line.trim();
    let location = match line.strip_prefix("at ") {
        Some(rest) => v8_place(line).unwrap_or(rest),
        None => {
            // Firefox's and Safari's `function@location:line:column`.
            let (function, location) = line.split_once('@')?;
            let numbered = location.rsplit(':').take(2).all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
            if function.contains(char::is_whitespace) || !numbered {
                return None;
            }
            location
        }
    };
    if location.contains(char::is_whitespace) {
        return None;
    }
    let place = without_position(location);
    if place.starts_with("node:") {
        return Some(place.to_owned());
    }
    let served = ["http://", "https://", "webpack://", "webpack-internal://"]
        .iter()
        .find_map(|scheme| place.strip_prefix(scheme));
    let place = match served {
        // A page's path from the server's root, its query left out.
        Some(page) => {
            let path = page.split_once('/').map_or("", |(_, path)| path);
            let path = path.split(['?', '#']).next().unwrap_or_default();
            path.trim_start_matches(['.', '/']).to_owned()
        }
        None => place.strip_prefix("file://").unwrap_or(place).replace('\\', "/"),
    };
    let extension = place.rsplit_once('.')?.1;
    if !matches!(extension, "js" | "mjs" | "cjs" | "jsx" | "ts" | "mts" | "cts" | "tsx") {
        return None;
    }
    Some(place)
}

/// A frame's location without the line and column it ends with (`/app/x.js` of
/// `/app/x.js:12:3`, `/src/App.tsx?t=1690` of `/src/App.tsx?t=1690:12:3`).
fn without_position(location: &str) -> &str {
    let digits_and_colons = location.len() - location.trim_end_matches(|c: char| c.is_ascii_digit() || c == ':').len();
    let run = &location[location.len() - digits_and_colons..];
    run.find(':').map_or(location, |colon| &location[..location.len() - digits_and_colons + colon])
}

/// The crate a Rust backtrace frame's function (see [`rust_frame_symbol`]) is in: `tokio` of
/// `tokio::sync::Sender<T>::send` and of `<tokio::Blocking<F> as core::future::Future>::poll`;
/// `None` for a function that names no path (`main`, `__libc_start_main`).
fn symbol_crate(symbol: &str) -> Option<&str> {
    let (first, _) = symbol.trim_start_matches('<').split_once("::")?;
    (!first.is_empty() && first.chars().all(|c| c.is_alphanumeric() || c == '_')).then_some(first)
}

/// The function a numbered Rust backtrace frame names (`tokio::sync::Sender<T>::send`,
/// `rust_begin_unwind`, `main`; an older backtrace's `  3: 0x55d1 - tokio::..` too); `None` for
/// any other line.
fn rust_frame_symbol(line: &str) -> Option<&str> {
    let line = line.trim_start();
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    let symbol = line.get(digits..)?.strip_prefix(": ").filter(|_| digits > 0)?.trim();
    let symbol = match symbol.split_once(" - ") {
        Some((address, symbol)) if address.starts_with("0x") => symbol,
        _ => symbol,
    };
    // A function's path holds spaces only inside its angle brackets (`<A as B>::f`); a
    // numbered line of prose (`2: tokio::spawn hangs`) holds others.
    let mut depth = 0usize;
    for c in symbol.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth = depth.saturating_sub(1),
            c if c.is_whitespace() && depth == 0 => return None,
            _ => {}
        }
    }
    (!symbol.is_empty()).then_some(symbol)
}

/// Whether a numbered frame's function that names no path is the runtime's: what starts a
/// process or a thread and what unwinds a panic (`rust_begin_unwind`,
/// `__rust_maybe_catch_panic`, `__libc_start_main`, `_start`, `start_thread`,
/// `BaseThreadInitThunk`), never a program's own `main`.
fn is_runtime_frame(symbol: &str) -> bool {
    const RUNTIME: [&str; 8] = [
        "BaseThreadInitThunk",
        "RtlUserThreadStart",
        "clone",
        "clone3",
        "invoke_main",
        "mainCRTStartup",
        "start_thread",
        "thread_start",
    ];
    !symbol.contains("::") && (symbol.starts_with('_') || symbol.starts_with("rust_") || RUNTIME.contains(&symbol))
}

/// `text` with the frames of code the workspace does not hold (see [`is_foreign_frame`]) left
/// as empty lines, and with a foreign Rust frame the `at` lines under it that say where its
/// code stands (`at /rustc/../library/std/src/panicking.rs:584:5`).
pub(super) fn without_foreign_frames<'a>(text: &'a str, own: &OwnCode) -> Cow<'a, str> {
    let mut foreign_rust_frame = false;
    let mut kept = String::new();
    let mut dropped_any = false;
    for line in text.split_inclusive('\n') {
        let location_of_foreign = foreign_rust_frame && line.trim_start().starts_with("at ") && !line.contains('(');
        let foreign = location_of_foreign || is_foreign_frame(line, own);
        // A numbered frame starts a frame; its `at` lines carry it on.
        foreign_rust_frame = if rust_frame_symbol(line).is_some() { foreign } else { location_of_foreign };
        if foreign {
            kept.push_str(&line[line.trim_end_matches(['\r', '\n']).len()..]);
            dropped_any = true;
        } else {
            kept.push_str(line);
        }
    }
    match dropped_any {
        true => Cow::Owned(kept),
        false => Cow::Borrowed(text),
    }
}

/// Whether `line` is a stack trace's: a numbered frame (`  12: tokio::runtime::park::run`,
/// as Rust's backtraces number them), an `at` line (a Java or JavaScript frame, a Rust
/// frame's `at src/main.rs:4:5`) or a JavaScript frame as Firefox and Safari write it
/// (`render@http://localhost:5173/src/App.tsx:12:3`); not a message's place in its input
/// (Jackson's `at [Source: (String)"{..}"; line: 1, column: 9]`), whose words are the message's.
pub(super) fn is_trace_line(line: &str) -> bool {
    let line = line.trim_start();
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    (digits > 0 && line[digits..].starts_with(": "))
        || after_at(line).is_some()
        || script_frame_location(line).is_some()
        || frame_parts(line).is_some()
}

#[cfg(test)]
mod tests {
    use crate::context::issue::analyze;
    use crate::context::issue::tests::symbol;

    #[test]
    fn java_calls_and_stack_frames() {
        let text = "Add `JsonParser.getNumberTypeFP()`\n\nException in thread \"main\" java.lang.NullPointerException\n\
                    \tat com.google.cloud.tools.jib.registry.credentials.DockerConfigCredentialRetriever.retrieve(DockerConfigCredentialRetriever.java:120)\n";
        let query = analyze(text);
        assert_eq!(symbol(&query, "getNumberTypeFP").unwrap().qualifiers, ["JsonParser"]);
        assert!(
            query
                .paths
                .iter()
                .any(|(p, _)| p
                    == "com/google/cloud/tools/jib/registry/credentials/DockerConfigCredentialRetriever.java")
        );
        assert!(symbol(&query, "retrieve").is_some());
    }

    #[test]
    fn the_jdks_own_frames_name_nothing_and_a_module_prefix_is_no_package() {
        let text = "Crash\n```\njava.lang.IllegalStateException: closed\n\
                    \tat java.base/java.util.ArrayList.forEach(ArrayList.java:1541)\n\
                    \tat java.util.stream.ReferencePipeline$3$1.accept(ReferencePipeline.java:195)\n\
                    \tat jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)\n\
                    \tat javax.swing.SwingWorker.run(SwingWorker.java:334)\n\
                    \tat app//com.acme.Pipeline.drain(Pipeline.java:42)\n\
                    \tat com.acme.Main.start(Main.java:7) ~[acme-1.2.jar:1.2]\n```\n";
        let frames = super::java_frames(text, &super::OwnCode::unknown());
        assert_eq!(
            frames,
            [
                ("com/acme/Pipeline.java".to_owned(), Some("drain".to_owned()), Some(42)),
                ("com/acme/Main.java".to_owned(), Some("start".to_owned()), Some(7)),
            ]
        );
        let query = analyze(text);
        for name in ["forEach", "accept", "invoke0", "run"] {
            assert!(symbol(&query, name).is_none(), "`{name}` is the JDK's: {:?}", query.symbols);
        }
        assert!(symbol(&query, "drain").is_some());
    }

    #[test]
    fn a_frames_method_is_the_one_its_source_names() {
        let text = "Crash\n```\n\tat com.acme.Factory.lambda$getWriter$0(Factory.java:83)\n\
                    \tat com.acme.Factory.<init>(Factory.java:20)\n\tat com.acme.Factory.lambda$static$1(Factory.java:9)\n\
                    \tat com.acme.Factory.access$000(Factory.java:5)\n\tat com.acme.Factory$1.run(Factory.java:40)\n```\n";
        let methods: Vec<Option<String>> =
            super::java_frames(text, &super::OwnCode::unknown()).into_iter().map(|(_, method, _)| method).collect();
        assert_eq!(methods, [Some("getWriter".to_owned()), None, None, None, Some("run".to_owned())]);
        let query = analyze(text);
        assert!(symbol(&query, "getWriter").is_some_and(|name| name.weight == 1.0), "{:?}", query.symbols);
        assert!(symbol(&query, "lambda$getWriter$0").is_none() && symbol(&query, "<init>").is_none());
    }

    #[test]
    fn a_structured_logs_quoted_frames_are_frames() {
        // Logstash and other JSON loggers write a backtrace as an array of strings, no `at`.
        let text = "DLQ writer fails\n```\n:backtrace=>[\n\
                    \"java.base/sun.nio.ch.FileChannelImpl.position(FileChannelImpl.java:358)\"\n\
                    \"org.logstash.common.io.RecordIOReader.seekToOffset(RecordIOReader.java:111)\",\n\
                    \"org.logstash.execution.JavaBasePipelineExt$INVOKER$i$1$0$initialize.call(JavaBasePipelineExt$INVOKER$i$1$0$initialize.gen)\"\n\
                    [\"org.jruby.RubyClass.newInstance(RubyClass.java:911)\"]\n```\n";
        let own = super::OwnCode::unknown()
            .java_packages(["org.logstash.common.io".to_owned(), "org.logstash.execution".to_owned()]);
        let frames = super::java_frames(text, &own);
        assert_eq!(
            frames,
            [("org/logstash/common/io/RecordIOReader.java".to_owned(), Some("seekToOffset".to_owned()), Some(111))]
        );
        let kept = super::without_foreign_frames(text, &own);
        assert!(!kept.contains("FileChannelImpl") && !kept.contains("RubyClass"), "{kept}");
        assert!(kept.contains("seekToOffset") && kept.contains("initialize.gen"), "{kept}");
        // Code and prose that call with a file's name are no frames.
        for line in [
            "\"load(Config.java:12)\"",
            "parser.parse(\"Foo.java:12\")",
            "see \"org.x.Foo.bar(Foo.java:12)\" above",
            "\"org.x.Foo.bar(Foo.java:12\"",
            "\"org..Foo.bar(Foo.java:12)\"",
            "\"org.x.Foo.bar(index.js:3:9)\"",
        ] {
            assert!(super::frame_parts(line).is_none(), "{line:?}");
        }
    }

    #[test]
    fn the_runtimes_frames_and_their_places_name_nothing() {
        let text = "Panic\n```\nstack backtrace:\n   0: rust_begin_unwind\n             \
                    at /rustc/a55dd71d/library/std/src/panicking.rs:584:5\n   1: core::panicking::panic_fmt\n   \
                    2: fd::walk::scan\n             at ./src/walk.rs:40:9\n   3: __libc_start_main\n   4: _start\n```\n";
        let query = analyze(text);
        for name in ["rust_begin_unwind", "panicking", "panic_fmt", "__libc_start_main", "_start"] {
            assert!(symbol(&query, name).is_none(), "`{name}` is the runtime's: {:?}", query.symbols);
        }
        assert!(symbol(&query, "scan").is_some(), "{:?}", query.symbols);
        assert_eq!(query.locations, [("src/walk.rs".to_owned(), 40)]);
    }

    #[test]
    fn a_frame_of_a_package_or_a_crate_the_workspace_lacks_is_foreign() {
        use super::{OwnCode, is_foreign_frame};
        let own = OwnCode::unknown().java_packages(["com.acme".to_owned(), String::new()]);
        assert!(!is_foreign_frame("\tat com.acme.Foo$Inner.bar(Foo.java:3)", &own));
        assert!(!is_foreign_frame("\tat Main.main(Main.java:3)", &own), "the unnamed package the workspace uses");
        assert!(is_foreign_frame("\tat org.lib.Foo.bar(Foo.java:3)", &own));
        assert!(is_foreign_frame("\tat okhttp3.internal.connection.RealCall.execute(RealCall.kt:154)", &own));
        assert!(is_foreign_frame("\tat usr.share.logstash.lib.agent.RUBY$block$converge$2(/x/agent.rb:386)", &own));
        assert!(!is_foreign_frame("\tat com.acme.Flow.collect(Flow.kt:12)", &own), "the workspace's package");
        assert!(is_foreign_frame("\tat org.lib.Foo.bar(Native Method)", &own));
        assert!(is_foreign_frame("\tat com.acme.sub.Foo.bar(Unknown Source)", &own), "a package is not its parent's");
        assert!(!is_foreign_frame("    at Object.<anonymous> (/app/index.js:3:9)", &own), "a JavaScript frame");
        assert!(!is_foreign_frame("    at src/main.rs:4:5", &own), "a Rust frame's place");
        assert!(is_foreign_frame("  4: std::panicking::begin_panic", &own), "the standard library's");
        let rust = OwnCode::unknown().java_packages([]).rust_crates(["tokio".to_owned()]);
        assert!(!is_foreign_frame("   5: tokio::sync::Sender<T>::send", &rust));
        assert!(!is_foreign_frame("   6: <tokio::Blocking<F> as core::future::Future>::poll", &rust));
        assert!(is_foreign_frame("   7: 0x55d1 - hyper::proto::h1::Dispatcher<D, Bs>::poll_inner", &rust));
        assert!(!is_foreign_frame("2: hyper::Body hangs when polled", &rust), "a numbered line of prose");
        assert!(!is_foreign_frame("  14: main", &rust), "no path");
        for runtime in ["   0: rust_begin_unwind", "  15: __libc_start_main", "  16: _start", "  9: start_thread"] {
            assert!(is_foreign_frame(runtime, &rust), "the runtime's: {runtime}");
        }
        assert!(!is_foreign_frame("  3: walk_tree", &rust), "a function of no path may be the workspace's");
        let unknown = OwnCode::unknown();
        assert!(!is_foreign_frame("   7: hyper::proto::h1::Dispatcher::poll", &unknown));
        let script = OwnCode::unknown()
            .npm_packages([(String::new(), "vite".to_owned()), ("packages/ui".to_owned(), "@acme/ui".to_owned())]);
        for own in [
            "    at ssrLoadModule (/app/node_modules/vite/dist/node/chunks/dep.js:120:9)",
            "    at Button (/app/node_modules/@acme/ui/index.mjs:3:9)",
            "    at /app/src/main.ts:4:5",
            "    at async main (file:///app/src/main.mts:4:5)",
        ] {
            assert!(!is_foreign_frame(own, &script), "{own}");
        }
        for foreign in [
            "    at render (/app/node_modules/react-dom/cjs/react-dom.development.js:10:2)",
            "    at Object.use (/app/node_modules/@babel/core/lib/index.js:3:9)",
            "    at Module._compile (node:internal/modules/cjs/loader:1105:14)",
            "    at node:internal/main/run_main_module:23:47",
            "    at Array.forEach (<anonymous>)",
            "    at new Promise (<anonymous>)",
            "    at JSON.parse (native)",
            "    at async Promise.all (index 0)",
        ] {
            assert!(is_foreign_frame(foreign, &script), "{foreign}");
        }
        for not_builtin in
            ["    at Object.<anonymous> (/app/src/index.ts:4:11)", "    at (<anonymous>)", "at foo (index x)"]
        {
            assert!(!super::is_script_builtin_frame(not_builtin), "{not_builtin}");
        }
        let browser = OwnCode::unknown()
            .npm_packages([(String::new(), "app".to_owned())])
            .script_files(["src/App.tsx".to_owned()]);
        for own in [
            "    at App (http://localhost:5173/src/App.tsx?t=1690:12:3)",
            "App@http://localhost:5173/src/App.tsx?t=1690:12:3",
            "App/<@http://localhost:3000/static/js/bundle.js:123:4",
            "    at App (webpack-internal:///./src/Other.js:12:3)",
            "    at App (C:\\repo\\src\\App.js:1:2)",
        ] {
            assert!(!is_foreign_frame(own, &browser), "{own}");
        }
        for foreign in [
            "    at renderWithHooks (http://localhost:5173/node_modules/.vite/deps/chunk-X.js?v=1a2b:123:4)",
            "commitRoot@http://localhost:5173/node_modules/.vite/deps/react-dom.js?v=1a2b:123:4",
            "    at main (C:\\Users\\me\\app\\index.js:3:9)",
            "    at main (file:///home/me/app/index.mjs:3:9)",
        ] {
            assert!(is_foreign_frame(foreign, &browser), "{foreign}");
        }
        assert!(!is_foreign_frame("    at render (/app/node_modules/react-dom/index.js:10:2)", &unknown));
        assert!(is_foreign_frame("    at Module._compile (node:internal/modules/cjs/loader:1105:14)", &unknown));
        assert!(!is_foreign_frame("\tat org.lib.Foo.bar(Foo.java:3)", &unknown));
        assert!(is_foreign_frame("\tat sun.reflect.NativeMethodAccessorImpl.invoke0(Native Method)", &unknown));
    }

    #[test]
    fn the_lines_of_a_stack_trace_are_told_from_code() {
        for line in [
            "  12: tokio::runtime::park::CachedParkThread::block_on",
            "             at ./src/runtime/park.rs:281:63",
            "\tat com.fasterxml.jackson.databind.ObjectMapper.readValue(ObjectMapper.java:3548)",
            "    at Object.<anonymous> (src/index.ts:4:11)",
            "0: std::panicking::begin_panic",
            "render@http://localhost:5173/src/App.tsx?t=1690:12:3",
            "@https://example.com/app.js:1:200",
            "  \"org.logstash.common.io.RecordIOReader.seekToBlock(RecordIOReader.java:101)\",",
        ] {
            assert!(super::is_trace_line(line), "{line:?}");
        }
        for line in [
            "let mapper = ObjectMapper::new();",
            "Command::new(\"app\").arg(Arg::new(\"x\"))",
            "12 │ def get_file_name []: table<name: string>",
            "1:2 error: expected `;`",
            "mail me@example.com:1:2",
            " at [Source: (String)\"{\"type\":\"FOURLEGGED\"}\"; line: 1, column: 9]",
            "depends on @acme/ui@1.2.3",
            "App@http://localhost:5173/src/App.tsx",
            "attempt to subtract with overflow",
            "",
        ] {
            assert!(!super::is_trace_line(line), "{line:?}");
        }
    }
}
