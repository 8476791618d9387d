use proptest::strategy::Strategy as _;

use super::signatures::{MAX_SIGNATURE_CHARS, MAX_VALUE_CHARS, cut_to};
use super::*;

/// [`use_lines`] where no type is from outside the workspace.
fn lines_using(language: Language, source: &[u8], names: &[&str], with_method_calls: bool) -> Vec<u32> {
    use_lines(language, source, names, with_method_calls, &|_: &str, _: &str| false)
}

fn symbols(language: Language, source: &str) -> FileSymbols {
    let tree = parse(language, source.as_bytes(), None).unwrap();
    extract(language, &tree, source.as_bytes())
}

fn fixture(path: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../grammars").join(path)).unwrap()
}

fn definitions(symbols: &FileSymbols) -> Vec<(String, DefinitionKind, Option<String>)> {
    symbols.definitions.iter().map(|d| (d.name.clone(), d.kind, d.container.clone())).collect()
}

fn references(symbols: &FileSymbols) -> Vec<&str> {
    symbols.references.iter().map(|(name, _)| name.as_str()).collect()
}

/// The uses written after a path, as (name, path, count), borrowed for comparing.
fn owned_uses(found: &FileSymbols) -> Vec<(&str, &str, u32)> {
    found.owned_uses.iter().map(|(name, owner, count)| (name.as_str(), owner.as_str(), *count)).collect()
}

/// Names, each with whether it is test code, owned, to compare with what was read.
fn flags(pairs: &[(&str, bool)]) -> Vec<(String, bool)> {
    pairs.iter().map(|(name, test)| ((*name).to_owned(), *test)).collect()
}

fn def(name: &str, kind: DefinitionKind, container: Option<&str>) -> (String, DefinitionKind, Option<String>) {
    (name.to_owned(), kind, container.map(str::to_owned))
}

#[test]
fn items_inside_a_macros_braces_are_read_as_items() {
    use DefinitionKind::*;
    let source = "macro_rules! cfg_rt { ($($item:item)*) => { $($item)* } }\n\
                  cfg_rt! {\n\
                  \x20   /// The runtime.\n\
                  \x20   pub struct Runtime { inner: Inner }\n\
                  \x20   mod driver;\n\
                  \x20   cfg_net! {\n\
                  \x20       pub fn bind() -> Listener { Listener::new() }\n\
                  \x20   }\n\
                  }\n\
                  impl Runtime {\n\
                  \x20   cfg_metrics! {\n\
                  \x20       pub fn metrics(&self) -> Metrics { Metrics::new(self) }\n\
                  \x20   }\n\
                  }\n\
                  #[cfg(test)]\nmod tests {\n    cfg_rt! { fn helper() {} }\n}\n\
                  fn main() {\n    select! { value = recv() => { let hidden = 1; } }\n}\n";
    let found = symbols(Language::Rust, source);
    assert_eq!(
        definitions(&found),
        [
            def("cfg_rt", Macro, None),
            def("Runtime", Struct, None),
            def("driver", Module, None),
            def("bind", Function, None),
            def("metrics", Method, Some("Runtime")),
            def("tests", Module, None),
            def("helper", Function, Some("tests")),
            def("main", Function, None),
        ],
        "not what a macro inside a function holds"
    );
    assert_eq!(found.definitions[0].signature, "macro_rules! cfg_rt", "not its rules");
    let runtime = &found.definitions[1];
    assert_eq!((runtime.line, runtime.lead_line, runtime.end_line), (4, 3, 4), "lines are the file's");
    assert_eq!(runtime.signature, "pub struct Runtime");
    let helper = found.definitions.iter().find(|d| d.name == "helper").unwrap();
    assert!(helper.test, "a body inside a test module is test code");
    assert!(references(&found).contains(&"Listener") && references(&found).contains(&"Metrics"));
    assert!(found.typed_calls.contains(&("Metrics".to_owned(), "new".to_owned(), 1)));
    let declared: Vec<&str> = found.module_declarations.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(declared, ["driver"], "declared once");
    // A body that is no items hides nothing of the next; a body in a body in an `impl` is
    // of its type, and two `impl`s on one line keep their own.
    let more = symbols(
        Language::Rust,
        "html! { <div></div> }\ncfg_rt! { pub fn after_markup() {} }\n\
         impl Runtime { cfg_a! { cfg_b! { pub fn two_levels(&self) {} } } }\n\
         impl Alpha { m! { pub fn from_alpha(&self) {} } } impl Beta { m! { pub fn from_beta(&self) {} } }\n",
    );
    let found: Vec<(String, DefinitionKind, Option<String>)> =
        definitions(&more).into_iter().filter(|(_, kind, _)| *kind != Struct).collect();
    for expected in [
        def("after_markup", Function, None),
        def("two_levels", Method, Some("Runtime")),
        def("from_alpha", Method, Some("Alpha")),
        def("from_beta", Method, Some("Beta")),
    ] {
        assert!(found.contains(&expected), "{expected:?} in {found:?}");
    }
    // Malformed bodies read as far as they parse, and a lone brace is no body.
    for malformed in [
        "m! {",
        "m! { pub fn }",
        "m! {}",
        "m! { { { }",
        "impl X { m! { fn } }",
        "m!{ cfg! { cfg! { cfg! { cfg! { cfg! { fn deep() {} } } } } } }",
    ] {
        let _ = symbols(Language::Rust, malformed);
    }
}

#[test]
fn test_code_in_a_source_file_is_marked() {
    let source = "pub fn settle() {}\n\
                  #[test]\nfn bounds() {}\n\
                  /// Runs it.\n#[tokio::test(flavor = \"multi_thread\")]\nasync fn drains() {}\n\
                  #[cfg(all(test, unix))]\nmod tests {\n    struct Fake;\n    impl Fake {\n        fn spin(&self) {}\n    }\n}\n\
                  #[cfg(not(test))]\nfn real() {}\n\
                  #[cfg(any(test, feature = \"mock\"))]\nfn shared() {}\n\
                  #[cfg(all(feature = \"parking_lot\", not(all(loom, test))))]\nfn const_new() {}\n\
                  #[test_case(1)]\n#[test_case(2)]\nfn case(n: u8) {}\n\
                  #[rstest::rstest]\nfn table(#[values(1, 2)] n: u8) {}\n\
                  #[quickcheck]\nfn any(n: u8) -> bool { true }\n\
                  #[proptest]\nfn strategy(#[strategy(1..9u8)] n: u8) {}\n\
                  #[testing]\nfn named_like_a_test() {}\n\
                  fn after() {}\n";
    let found = symbols(Language::Rust, source);
    let tests: Vec<(&str, bool)> = found.definitions.iter().map(|d| (d.name.as_str(), d.test)).collect();
    assert_eq!(
        tests,
        [
            ("settle", false),
            ("bounds", true),
            ("drains", true),
            ("tests", true),
            ("Fake", true),
            ("spin", true),
            ("real", false),
            ("shared", false),
            ("const_new", false),
            ("case", true),
            ("table", true),
            ("any", true),
            ("strategy", true),
            ("named_like_a_test", false),
            ("after", false),
        ]
    );
    let drains = found.definitions.iter().find(|d| d.name == "drains").unwrap();
    assert_eq!((drains.lead_line, drains.line), (4, 6), "the attribute is still part of its lead");
}

#[test]
fn a_file_or_module_whose_inner_attribute_says_test_is_test_code() {
    let tests = |source: &str| -> Vec<(String, bool)> {
        symbols(Language::Rust, source).definitions.into_iter().map(|d| (d.name, d.test)).collect()
    };
    // A file declared `#[cfg(test)] mod support;` elsewhere says so again at its top.
    let file = "//! Fakes for the tests.\n#![cfg(test)]\n\nuse super::*;\n\npub struct FakeClock;\nimpl FakeClock {\n    pub fn advance(&self) {}\n}\n";
    assert_eq!(tests(file), flags(&[("FakeClock", true), ("advance", true)]));
    let module = "pub fn real() {}\nmod checks {\n    #![cfg(all(test, unix))]\n    fn probe() {}\n}\nfn after() {}\n";
    assert_eq!(tests(module), flags(&[("real", false), ("checks", true), ("probe", true), ("after", false)]));
    let braces_below = "mod checks\n{\n    #![cfg(test)]\n    fn probe() {}\n}\nfn after() {}\n";
    assert_eq!(tests(braces_below), flags(&[("checks", true), ("probe", true), ("after", false)]));
    // The methods of an impl an attribute keeps to tests, and what they hold, are test code.
    let test_impl = "pub struct Clock;\n#[cfg(test)]\nimpl Clock {\n    fn frozen() -> Self {\n        \
                     fn inner() {}\n        Clock\n    }\n}\nimpl Clock {\n    pub fn now(&self) {}\n}\n";
    assert_eq!(tests(test_impl), flags(&[("Clock", false), ("frozen", true), ("inner", true), ("now", false)]));
    let in_a_macro = format!("cfg_rt! {{\n{test_impl}}}\n");
    assert_eq!(tests(&in_a_macro), flags(&[("Clock", false), ("frozen", true), ("inner", true), ("now", false)]));
    // Inner attributes that say nothing of tests leave the items as they are.
    let lint = "#![allow(dead_code)]\n#![cfg(not(test))]\npub fn kept() {}\n";
    assert_eq!(tests(lint), flags(&[("kept", false)]));
}

#[test]
fn a_method_and_an_associated_type_know_the_trait_their_impl_implements() {
    let source = "pub struct Lines;\n\
                  impl Iterator for Lines {\n    type Item = u8;\n    fn next(&mut self) -> Option<u8> { None }\n}\n\
                  impl std::fmt::Display for Lines {\n    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { Ok(()) }\n}\n\
                  impl<'a> From<&'a str> for Lines {\n    fn from(_: &'a str) -> Self { Lines }\n}\n\
                  impl<T> crate::ext::Gather<T> for Lines {\n    fn gather(&self) {}\n}\n\
                  impl Lines {\n    pub fn count(&self) -> usize { 0 }\n}\n\
                  pub trait Own {\n    fn own(&self) {}\n}\n\
                  cfg_io! {\n    impl std::io::Read for Lines {\n        fn read(&mut self, b: &mut [u8]) -> std::io::Result<usize> { Ok(0) }\n    }\n}\n\
                  fn free() {}\n";
    let read = symbols(Language::Rust, source);
    let implements: Vec<(&str, Option<&str>)> = read
        .definitions
        .iter()
        .filter(|d| matches!(d.kind, DefinitionKind::Method | DefinitionKind::Function))
        .map(|d| (d.name.as_str(), d.implements.as_deref()))
        .collect();
    assert_eq!(
        implements,
        [
            ("next", Some("Iterator")),
            ("fmt", Some("Display")),
            ("from", Some("From")),
            ("gather", Some("Gather")),
            ("count", None),
            ("own", None),
            ("read", Some("Read")),
            ("free", None),
        ]
    );
    let types: Vec<(&str, Option<&str>)> = read
        .definitions
        .iter()
        .filter(|d| d.kind == DefinitionKind::Type)
        .map(|d| (d.name.as_str(), d.implements.as_deref()))
        .collect();
    assert_eq!(types, [("Item", Some("Iterator"))], "an associated type of a trait's impl");
}

#[test]
fn names_written_only_where_a_type_stands_are_told_apart() {
    let java = symbols(
        Language::Java,
        "class A {\n  Map<String, Object> cache;\n  Map<String, Object> copy(Map<String, Object> from) { return from; }\n  \
         boolean f(LogicalType t) { return t == LogicalType.Map || t == Map; }\n}\n",
    );
    assert_eq!(count_of(&java.references, "Map"), 5, "{:?}", java.references);
    assert_eq!(count_of(&java.type_uses, "Map"), 3);
    assert!(!java.uses_only_as_type("Map"));
    assert!(java.uses_only_as_type("String") && !java.uses_only_as_type("LogicalType"), "a class read through");
    let rust = symbols(
        Language::Rust,
        "fn f(m: Map<u8>) -> Kind { let k = Kind::Map; Map::new(); k }\nfn g(w: &dyn Display) {}\n",
    );
    assert!(rust.uses_only_as_type("Display"));
    assert!(!rust.uses_only_as_type("Map"), "a path's name stands as no type: {:?}", rust.type_uses);
    assert!(!rust.uses_only_as_type("Kind"), "`Kind::Map` reads through the enum");
    let script = symbols(Language::TypeScript, "let a: Widget = new Widget(); let b: Shape = make();\n");
    assert!(!script.uses_only_as_type("Widget") && script.uses_only_as_type("Shape"));
}

#[test]
fn method_calls_are_counted_apart_and_only_methods_with_self_can_take_them() {
    let source = "fn f(v: Vec<u8>) -> Vec<u8> {\n    let w: Vec<u8> = v.iter().copied().collect();\n    \
                  w.into_iter().collect::<Vec<_>>();\n    collect(&w)\n}\n";
    let read = symbols(Language::Rust, source);
    let count = |counts: &[(String, u32)], name: &str| counts.iter().find(|(n, _)| n == name).map_or(0, |(_, c)| *c);
    assert_eq!((count(&read.references, "collect"), count(&read.method_calls, "collect")), (3, 2));
    assert!(!read.calls_only_as_method("collect", 3));
    assert_eq!(count(&read.method_calls, "iter"), 1);
    assert!(read.calls_only_as_method("iter", 1));
    // Java and TypeScript calls are not told apart: a namespace's function is called with a dot.
    let java = symbols(Language::Java, "class A { void f(B b) { b.run(); } }");
    assert!(java.method_calls.is_empty() && references(&java).contains(&"run"));

    let source = "pub fn free() {}\n\
                  pub struct S;\n\
                  impl S {\n    \
                  pub fn new() -> Self { S }\n    \
                  pub fn by_ref(&self) {}\n    \
                  fn by_mut_ref<'a>(&'a mut self) {}\n    \
                  fn by_value(mut self) {}\n    \
                  fn pinned(self: std::pin::Pin<&mut Self>) {}\n    \
                  fn generic<F: Fn(u8) -> u8>(&self, f: F) {}\n    \
                  fn takes_a_closure<F: Fn(u8) -> u8>(f: F) {}\n    \
                  fn selfish(selfish: u8) {}\n}\n\
                  pub trait T {\n    fn required(&self);\n    fn build() -> Self;\n}\n";
    let read = symbols(Language::Rust, source);
    let callable: Vec<(&str, bool)> =
        read.definitions.iter().map(|d| (d.name.as_str(), d.callable_as_method(Language::Rust))).collect();
    assert_eq!(
        callable,
        [
            ("free", false),
            ("S", false),
            ("new", false),
            ("by_ref", true),
            ("by_mut_ref", true),
            ("by_value", true),
            ("pinned", true),
            ("generic", true),
            ("takes_a_closure", false),
            ("selfish", false),
            ("T", false),
            ("required", true),
            ("build", false),
        ]
    );
    let java = symbols(Language::Java, "class A { static A of() { return null; } void run() {} enum E { WRAP } }");
    let callable: Vec<(&str, bool)> =
        java.definitions.iter().map(|d| (d.name.as_str(), d.callable_as_method(Language::Java))).collect();
    assert_eq!(
        callable,
        [("A", false), ("of", true), ("run", true), ("E", false), ("WRAP", true)],
        "a constant is read through its enum"
    );
    let rust = symbols(Language::Rust, "enum E { Wrap }");
    assert!(!rust.definitions[1].callable_as_method(Language::Rust), "no Rust variant is read through a value");
}

#[test]
fn calls_through_a_type_are_kept_with_the_type() {
    let typed = |language, source: &str| -> Vec<(String, String, u32)> { symbols(language, source).typed_calls };
    let owned = |owner: &str, called: &str, count| (owner.to_owned(), called.to_owned(), count);
    let rust = "fn f() {\n    let s = Semaphore::new(1);\n    Semaphore::new(2);\n    crate::sync::Pool::with_capacity(3);\n    Self::new();\n    io::stdout();\n    s.acquire();\n}\n";
    assert_eq!(
        typed(Language::Rust, rust),
        [owned("Pool", "with_capacity", 1), owned("Semaphore", "acquire", 1), owned("Semaphore", "new", 2)]
    );
    let fields = "struct Batch {\n    ll_sem: Arc<sync::Semaphore>,\n    waiters: Vec<Waiter>,\n}\n\
                  impl Batch {\n    fn close(&self, notify: &Notify, pair: (u8, u8)) {\n        self.ll_sem.acquire(1);\n        \
                  self.waiters.clear();\n        notify.notify_waiters();\n        let timer: Box<Timer> = make();\n        \
                  timer.reset();\n        pair.clone();\n    }\n}\n";
    assert_eq!(
        typed(Language::Rust, fields),
        [
            owned("Notify", "notify_waiters", 1),
            owned("Semaphore", "acquire", 1),
            owned("Timer", "reset", 1),
            owned("Vec", "clear", 1)
        ],
        "through an `Arc`, a `Box` or a reference, its target's; a tuple says nothing"
    );
    let script = "Pool.create(4);\npool.take();\nconsole.log(1);\n";
    assert_eq!(typed(Language::TypeScript, script), [owned("Pool", "create", 1)]);
    let class = "class Step {\n  private cache: Map<string, Blob>;\n  constructor(private readonly client: api.RegistryClient) {}\n  \
                 run(tag?: Tag, ids: string[]) {\n    this.client.pull(tag);\n    this.cache.get(tag);\n    \
                 const reader: Reader | null = null;\n    reader.read();\n    tag.parse();\n    ids.map(String);\n  }\n}\n";
    assert_eq!(
        typed(Language::TypeScript, class),
        [owned("Map", "get", 1), owned("RegistryClient", "pull", 1), owned("Tag", "parse", 1)],
        "a union and an array say nothing"
    );
    // Java: calls through a variable are calls through its declared type.
    let java = "class A {\n  private final RegistryClient client;\n  private Map<String, Blob> blobs;\n  \
                void f(Request request, int n) {\n    client.pull();\n    this.client.pull();\n    request.send();\n    \
                blobs.get(\"x\");\n    Map.Entry<String, Blob> entry = null;\n    entry.getKey();\n    \
                Builder builder = Request.builder();\n    builder.build();\n    var v = make();\n    v.run();\n    \
                int[] xs = null;\n    xs.clone();\n  }\n  void g(Response request) { request.send(); }\n}\n";
    assert_eq!(
        typed(Language::Java, java),
        [
            owned("Builder", "build", 1),
            owned("Entry", "getKey", 1),
            owned("Map", "get", 1),
            owned("RegistryClient", "pull", 2)
        ],
        "`request` is declared with two types, `v` with none, and `xs` is an array"
    );
}

#[test]
fn a_binding_built_by_a_constructor_holds_its_type() {
    let typed = |language, source: &str| -> Vec<(String, String, u32)> {
        symbols(language, source).typed_calls.into_iter().filter(|(_, called, _)| called != "new").collect()
    };
    let owned = |owner: &str, called: &str| (owner.to_owned(), called.to_owned(), 1);
    let rust = "async fn f() -> io::Result<()> {\n    let mut sem = sync::Semaphore::new(1);\n    sem.acquire();\n    \
                let listener = TcpListener::bind(addr).await?;\n    listener.accept();\n    \
                let config = Config::load(path).unwrap();\n    config.validate();\n    \
                let pool = Arc::new(Pool::default());\n    pool.get();\n    \
                let point = geometry::Point { x: 1, y: 2 };\n    point.norm();\n    \
                let moved = crate::Message::Move { x: 1 };\n    moved.process();\n    \
                let shared = Arc::new(/* one for all */ Cache::default());\n    shared.clear();\n    \
                let made = make();\n    made.run();\n    let this = Self::new();\n    this.reset();\n    \
                let boxed = Box::new(helper());\n    boxed.call();\n    let text: String = Name::new();\n    text.len();\n}\n";
    assert_eq!(
        typed(Language::Rust, rust),
        [
            owned("Cache", "clear"),
            owned("Cache", "default"),
            owned("Config", "load"),
            owned("Config", "validate"),
            owned("Message", "process"),
            owned("Point", "norm"),
            owned("Pool", "default"),
            owned("Pool", "get"),
            owned("Semaphore", "acquire"),
            owned("String", "len"),
            owned("TcpListener", "accept"),
            owned("TcpListener", "bind"),
        ],
        "a function's result, `Self` and a boxed call say nothing; a written type wins"
    );
    let java = "class A {\n  void f() {\n    var client = new api.RegistryClient(url);\n    client.pull();\n    \
                var cache = new HashMap<String, Blob>();\n    cache.get(key);\n    var made = make();\n    made.run();\n    \
                List<Blob> blobs = new ArrayList<>();\n    blobs.add(blob);\n  }\n}\n";
    assert_eq!(
        typed(Language::Java, java),
        [owned("HashMap", "get"), owned("List", "add"), owned("RegistryClient", "pull")],
        "a written type wins over the class built"
    );
    let script = "class Step {\n  private cache = new Map<string, Blob>();\n  run() {\n    \
                  const client = new api.RegistryClient(url);\n    client.pull();\n    this.cache.get(tag);\n    \
                  let reader = open();\n    reader.read();\n    const list: Items = new Array();\n    list.push(1);\n  }\n}\n";
    assert_eq!(
        typed(Language::TypeScript, script),
        [owned("Items", "push"), owned("Map", "get"), owned("RegistryClient", "pull")],
        "a written type wins over the class built"
    );
}

#[test]
fn methods_of_a_tuple_or_slice_belong_to_the_type_as_written() {
    use DefinitionKind::Method;
    let source = "impl Semaphore for (crate::sync::batch_semaphore::Semaphore, usize) {\n    fn add_permit(&self) {}\n}\n\
                  impl<T> Sorted for [T] {\n    fn is_sorted(&self) -> bool { true }\n}\n\
                  impl Flag for [u8; 4] { fn set(&self) {} }\n\
                  impl Callback for fn(std::io::Error) -> u8 { fn call(&self) {} }\n\
                  impl Pool for crate::pool::Pool { fn get(&self) {} }\n";
    let found = symbols(Language::Rust, source);
    assert_eq!(
        definitions(&found),
        [
            def("add_permit", Method, Some("(Semaphore, usize)")),
            def("is_sorted", Method, Some("[T]")),
            def("set", Method, Some("[u8; 4]")),
            def("call", Method, Some("fn(Error) -> u8")),
            def("get", Method, Some("Pool")),
        ]
    );
}

#[test]
fn impl_targets_skip_lifetimes_and_deep_types_do_not_exhaust_the_stack() {
    let found = symbols(Language::Rust, "impl<'a> Iterator for &'a Foo { fn next(&mut self) {} }\n");
    assert_eq!(definitions(&found), [def("next", DefinitionKind::Method, Some("Foo"))]);
    // Generated code can nest far deeper than any name search should go.
    let deep = format!("impl T for {}X {{ fn f() {{}} }}\n", "&".repeat(20_000));
    let parsed = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || symbols(Language::Rust, &deep).definitions.len())
        .unwrap()
        .join();
    assert!(parsed.is_ok(), "a 2 MB stack, as on the indexing threads, suffices");
}

#[test]
fn rust_fixture() {
    use DefinitionKind::*;
    let found = symbols(Language::Rust, &fixture("rust/fixture.rs"));
    assert_eq!(
        definitions(&found),
        [
            def("inline", Module, None),
            def("nested", Function, Some("inline")),
            def("declared", Module, None),
            def("LIMIT", Constant, None),
            def("COUNTER", Constant, None),
            def("Sender", Struct, None),
            def("Bits", Struct, None),
            def("Event", Enum, None),
            def("Open", Variant, None),
            def("Close", Variant, None),
            def("Map", Type, None),
            def("Channel", Trait, None),
            def("Item", Type, Some("Channel")),
            def("send", Method, Some("Channel")),
            def("close", Method, Some("Channel")),
            def("new", Method, Some("Sender")),
            def("try_send", Method, Some("Sender")),
            def("shout", Macro, None),
            def("helper", Function, None),
            def("written", Function, None),
        ]
    );
    assert_eq!(
        found.written_paths,
        ["mpsc::channel", "crate::sync::Limit", "super::helper", "self::inline::nested", "crate::sync::Limit::new"],
        "paths that may lead into the workspace, not through `std` or a type (`Vec::new`)"
    );
    let try_send = found.definitions.iter().find(|d| d.name == "try_send").unwrap();
    assert_eq!(try_send.signature, "pub fn try_send(&self, value: T) -> Result<(), Event>");
    assert_eq!((try_send.line, try_send.end_line), (41, 48), "a definition spans its body");
    let sender = found.definitions.iter().find(|d| d.name == "Sender").unwrap();
    assert_eq!(sender.signature, "pub struct Sender<T>");
    let names = references(&found);
    for expected in [
        "HashMap", "Sender", "Event", "Map", "helper", "len", "channel", "mpsc", "println", "describe", "new", "Ok",
        "Vec",
    ] {
        assert!(names.contains(&expected), "{expected} missing from {names:?}");
    }
    assert_eq!(found.imports, ["std::collections::HashMap", "crate::sync::{mpsc, Mutex as Lock}", "alloc"]);
    let declared: Vec<&str> = found.module_declarations.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(declared, ["declared"]);
    assert_eq!(found.impl_targets, ["Sender"]);
    assert!(found.supertypes.is_empty());
    assert_eq!(found.parse_errors, 0);
    let implementing = symbols(
        Language::Rust,
        "impl<T> fmt::Debug for Sender<T> {}\nimpl Channel for Pipe {}\n\
         impl<'de, T: Deserialize<'de>> Deserialize<'de> for Saturating<T> {}\nimpl convert::From<u8> for Port {}\n",
    );
    assert_eq!(implementing.supertypes, ["Debug", "Channel", "Deserialize", "From"]);
    assert_eq!(implementing.impl_targets, ["Sender", "Pipe", "Saturating", "Port"]);
    let java = symbols(Language::Java, "interface Repo<T> extends Crud<T, Long>, Closeable {}\n");
    assert_eq!(java.supertypes, ["Crud", "Closeable"], "an interface extends generic ones too");
    let script = symbols(
        Language::TypeScript,
        "class UserRepo implements Repository<User>, Disposable {}\ninterface Props extends Base<string> {}\n",
    );
    assert_eq!(script.supertypes, ["Repository", "Disposable", "Base"]);
}

#[test]
fn procedural_macros_are_macros_by_the_name_they_are_used_by() {
    use DefinitionKind::*;
    let source = r#"
/// `#[tokio::test]`
#[proc_macro_attribute]
pub fn test(args: TokenStream, item: TokenStream) -> TokenStream { entry::test(args, item) }
#[proc_macro]
// a function-like macro
pub fn select_priv_declare_output_enum(input: TokenStream) -> TokenStream { input }
#[proc_macro_derive(Serialize, attributes(serde))]
pub fn derive_serialize(input: TokenStream) -> TokenStream { input }
#[inline]
pub fn helper() {}
#[proc_macro_derive()]
pub fn nameless(input: TokenStream) -> TokenStream { input }
"#;
    let found = symbols(Language::Rust, source);
    assert_eq!(
        definitions(&found),
        [
            def("test", Macro, None),
            def("select_priv_declare_output_enum", Macro, None),
            def("Serialize", Macro, None),
            def("derive_serialize", Function, None),
            def("helper", Function, None),
            def("nameless", Function, None),
        ]
    );
    let derive = found.definitions.iter().find(|d| d.name == "Serialize").unwrap();
    assert_eq!(
        (derive.line, derive.signature.as_str()),
        (9, "pub fn derive_serialize(input: TokenStream) -> TokenStream")
    );
}

#[test]
fn a_module_declared_under_a_test_attribute_is_test_code() {
    let tested = |source: &str| -> Vec<(String, bool)> {
        symbols(Language::Rust, source).module_declarations.into_iter().map(|d| (d.name, d.test)).collect()
    };
    let source = "mod fs;\n#[cfg(test)]\n// the fake file system\n#[allow(dead_code)]\nmod mocks;\n\
                  #[cfg(not(test))]\nmod real;\n#[cfg(test)]\nmod tests {\n    mod helpers;\n}\nmod net { mod tcp; }\n";
    assert_eq!(
        tested(source),
        flags(&[("fs", false), ("mocks", true), ("real", false), ("helpers", true), ("tcp", false)])
    );
    let test_file = "//! Fakes.\n#![cfg(test)]\nmod clock;\n";
    assert_eq!(tested(test_file), flags(&[("clock", true)]));
    // Among a macro's tokens, as crates put declarations behind conditions.
    let in_macros = "cfg_rt! {\n    #[cfg(test)]\n    mod mocked;\n    #[path = \"rt.rs\"] pub mod runtime;\n}\n\
                     #[cfg(test)]\nmod tests {\n    cfg_net! { mod sockets; }\n}\n";
    assert_eq!(tested(in_macros), flags(&[("mocked", true), ("runtime", false), ("sockets", true)]));
}

#[test]
fn module_declarations_carry_their_path_attribute_and_inline_modules() {
    let source = r##"
#[cfg(unix)]
#[path = "unix/mod.rs"]
// the platform's half
mod imp;
#[path = r"raw/dir.rs"] mod raw;
#[doc = "not a path"]
pub(crate) mod r#try;
mod outer {
pub mod inner {
    #[path = "deep.rs"]
    mod leaf;
}
mod plain;
}
mod inline { fn body() {} }
cfg_rt! {
#[cfg_attr(docsrs, doc(cfg(feature = "rt")))]
#[path = "rt/mod.rs"]
pub(crate) mod runtime;
pub use self::runtime::Runtime;
}
cfg_if::cfg_if! {
if #[cfg(unix)] { mod unix; } else { mod other { mod nested; fn f() {} } }
}
macro_rules! declare { ($name:ident) => { mod $name; }; }
"##;
    let found = symbols(Language::Rust, source);
    let declared: Vec<(&str, Option<&str>, Vec<&str>)> = found
        .module_declarations
        .iter()
        .map(|d| (d.name.as_str(), d.path.as_deref(), d.within.iter().map(String::as_str).collect()))
        .collect();
    assert_eq!(
        declared,
        [
            ("imp", Some("unix/mod.rs"), vec![]),
            ("raw", Some("raw/dir.rs"), vec![]),
            ("try", None, vec![]),
            ("leaf", Some("deep.rs"), vec!["outer", "inner"]),
            ("plain", None, vec!["outer"]),
            ("runtime", Some("rt/mod.rs"), vec![]),
            ("unix", None, vec![]),
            ("nested", None, vec!["other"]),
        ]
    );
}

#[test]
fn java_fixture() {
    use DefinitionKind::*;
    let found = symbols(Language::Java, &fixture("java/fixture.java"));
    assert_eq!(
        definitions(&found),
        [
            def("EventBus", Class, None),
            def("LIMIT", Field, Some("EventBus")),
            def("listeners", Field, Some("EventBus")),
            def("EventBus", Method, Some("EventBus")),
            def("publish", Method, Some("EventBus")),
            def("Listener", Interface, Some("EventBus")),
            def("PRIORITY", Field, Some("Listener")),
            def("onEvent", Method, Some("Listener")),
            def("Mode", Enum, Some("EventBus")),
            def("SYNC", Variant, Some("Mode")),
            def("ASYNC", Variant, Some("Mode")),
            def("Pair", Class, Some("EventBus")),
            def("Marker", Interface, Some("EventBus")),
            def("value", Method, Some("Marker")),
        ]
    );
    assert_eq!(found.package.as_deref(), Some("com.example.events"));
    assert_eq!(found.supertypes, ["Base", "Closeable"]);
    assert_eq!(found.imports, ["java.util.List", "java.util.concurrent", "java.util.Objects.requireNonNull"]);
    assert_eq!(found.typed_calls, [("Listener".to_owned(), "onEvent".to_owned(), 1)], "`l` is a `Listener`");
    let publish = found.definitions.iter().find(|d| d.name == "publish").unwrap();
    assert_eq!(publish.signature, "public void publish(T event)");
    assert_eq!((publish.line, publish.end_line), (16, 22));
    let names = references(&found);
    for expected in
        ["List", "Listener", "ArrayList", "requireNonNull", "onEvent", "Helpers", "log", "Base", "Closeable"]
    {
        assert!(names.contains(&expected), "{expected} missing from {names:?}");
    }
}

#[test]
fn typescript_fixture() {
    use DefinitionKind::*;
    let found = symbols(Language::Tsx, &fixture("typescript/fixture.tsx"));
    assert_eq!(
        definitions(&found),
        [
            def("Props", Interface, None),
            def("Id", Type, None),
            def("Color", Enum, None),
            def("Shape", Class, None),
            def("area", Method, Some("Shape")),
            def("Circle", Class, None),
            def("constructor", Method, Some("Circle")),
            def("area", Method, Some("Circle")),
            def("onResize", Method, Some("Circle")),
            def("greet", Function, None),
            def("ids", Function, None),
            def("render", Function, None),
            def("LIMIT", Constant, None),
            def("legacy", Function, None),
            def("Geometry", Module, None),
            def("virtual:config", Module, None),
            def("setting", Function, Some("virtual:config")),
            def("lazy", Constant, None),
            def("default", Function, None),
        ]
    );
    assert_eq!(found.imports, ["react", "./util/path", "./helpers", "./lazy"]);
    assert_eq!(found.supertypes, ["Shape"]);
    let greet = found.definitions.iter().find(|d| d.name == "greet").unwrap();
    assert_eq!(greet.signature, "function greet(props: Props): string");
    let signature_of = |name: &str| found.definitions.iter().find(|d| d.name == name).unwrap().signature.as_str();
    assert_eq!(signature_of("render"), "render = (p: Props) =>");
    assert_eq!(signature_of("onResize"), "onResize = (scale: number): void =>");
    assert_eq!(signature_of("legacy"), "legacy = function (done: () => void)");
    let wrapped =
        symbols(Language::TypeScript, "export function preload(\n  base: string,\n  deps?: string[],\n): void {}\n");
    assert_eq!(wrapped.definitions[0].signature, "function preload(base: string, deps?: string[]): void");
    // An anonymous default export is known by the name its module exports it under.
    assert_eq!(signature_of("default"), "export default function (props: Props)");
    let names = references(&found);
    for expected in ["greet", "join", "Props", "Circle", "Math", "path", "Panel"] {
        assert!(names.contains(&expected), "{expected} missing from {names:?}");
    }
    let typescript = symbols(Language::TypeScript, "export function f(a: number): A { return g(a); }\n");
    assert_eq!(definitions(&typescript), [def("f", Function, None)]);
    let class = symbols(Language::TypeScript, "export default class extends Base {\n  run() {}\n}\n");
    assert_eq!(definitions(&class), [def("default", Class, None), def("run", Method, Some("default"))]);
    assert_eq!(class.supertypes, ["Base"]);
    // Module-level values of every form are constants, and a class expression is a class.
    let values = symbols(
        Language::TypeScript,
        "export const TIMEOUT_MS = 30 * 1000;\nconst OFFSET = -1;\nexport const ROUTES = [\"a\"] as const;\n\
         export const config = { port: 1 } satisfies Config;\nexport declare const VERSION: string;\n\
         declare let debug: boolean;\ndeclare const BUILD = \"1.0\";\nconst Base = class {};\nexport const createStore = configure;\n\
         const theme = settings.theme;\nconst mode = dark ? 1 : 2;\nconst none = null;\nconst words = /w+/;\n\
         const data = await load();\nconst sum = (1 + 2);\nconst el = document.body!;\nconst { a, b } = pair;\n",
    );
    assert_eq!(
        definitions(&values),
        [
            def("TIMEOUT_MS", Constant, None),
            def("OFFSET", Constant, None),
            def("ROUTES", Constant, None),
            def("config", Constant, None),
            def("VERSION", Constant, None),
            def("debug", Constant, None),
            def("BUILD", Constant, None),
            def("Base", Class, None),
            def("createStore", Constant, None),
            def("theme", Constant, None),
            def("mode", Constant, None),
            def("none", Constant, None),
            def("words", Constant, None),
            def("data", Constant, None),
            def("sum", Constant, None),
            def("el", Constant, None),
        ]
    );
    // A constant's signature holds its keyword and value, a long value cut.
    let constant = |name: &str| values.definitions.iter().find(|d| d.name == name).unwrap().signature.clone();
    assert_eq!(constant("TIMEOUT_MS"), "const TIMEOUT_MS = 30 * 1000");
    assert_eq!(constant("ROUTES"), "const ROUTES = [\"a\"] as const");
    assert_eq!(constant("VERSION"), "const VERSION: string");
    assert_eq!(constant("debug"), "let debug: boolean");
    assert_eq!(constant("words"), "const words = /w+/");
    let long = symbols(Language::TypeScript, &format!("const TABLE = [\n  {}\n];\n", "\"entry\", ".repeat(30)));
    let table = &long.definitions[0].signature;
    assert!(table.starts_with("const TABLE = [ \"entry\", ") && table.ends_with('…'), "{table}");
    assert!(table.chars().count() <= "const TABLE = ".len() + MAX_VALUE_CHARS + 1, "{table}");
    assert_eq!(cut_to("boolean bufferRecyclable".to_owned(), 17), "boolean…", "not in the middle of a name");
    assert_eq!(cut_to("x".repeat(50), 10), format!("{}…", "x".repeat(10)), "a name longer than the room is cut");
    assert_eq!(cut_to("a, bé".to_owned(), 4), "a,…");
    assert_eq!(cut_to("short".to_owned(), 10), "short");
    let named = symbols(Language::TypeScript, "export default function main() {}\nexport default (() => 1);\n");
    assert_eq!(definitions(&named), [def("main", Function, None)], "named, or not a bare function");
}

#[test]
fn a_reading_that_panics_gives_its_message_and_no_symbols() {
    let read = read_guarded(|| panic!("byte index 61 is not a char boundary"));
    assert_eq!(read.unwrap_err(), "byte index 61 is not a char boundary");
    let name = String::from("Name");
    let read = read_guarded(|| panic!("{name} is past the end"));
    assert_eq!(read.unwrap_err(), "Name is past the end");
    let found = read_guarded(|| symbols(Language::Rust, "pub fn kept() {}\n")).unwrap();
    assert_eq!(definitions(&found), [def("kept", DefinitionKind::Function, None)]);
}

#[test]
fn an_ambient_module_named_by_a_string_left_open_names_what_follows_its_quote() {
    // A name string that never closes, ending in a character of several bytes (bytes that are
    // not UTF-8 are read as U+FFFD): the name is what follows the opening quote, and reading it
    // does not stop the file being read.
    for source in [
        "declare module \"virtual:config\u{fffd}\u{fffd}\n  export function setting(): string;\n",
        "declare module \"caf\u{e9}\n",
        "declare module \"\n",
        "declare module 'virtual:config'\n",
    ] {
        for language in [Language::TypeScript, Language::Tsx, Language::JavaScript] {
            let found = symbols(language, source);
            for definition in found.definitions.iter().filter(|d| d.kind == DefinitionKind::Module) {
                assert!(!definition.name.starts_with(['"', '\'']), "{source:?}: {definition:?}");
                assert!(!definition.name.is_empty(), "{source:?}: {definition:?}");
            }
        }
    }
    let found =
        symbols(Language::TypeScript, "declare module 'virtual:config' {\n  export function setting(): string;\n}\n");
    assert_eq!(definitions(&found)[0], def("virtual:config", DefinitionKind::Module, None));
}

proptest::proptest! {
    /// Any text as a signature is read for a `self` receiver without panicking, and a
    /// receiver is found only in a Rust function's head.
    #[test]
    fn any_signature_is_read_for_a_receiver(
        head in proptest::sample::select(vec!["fn f", "pub fn g<'a, F: Fn(u8) -> u8>", "void run", "fn", " fn h<", "fn é"]),
        rest in proptest::prelude::any::<String>(),
    ) {
        let signature = format!("{head}{rest}");
        if let Some(true) = rust_receiver(&signature) {
            proptest::prop_assert!(signature.contains("fn ") && signature.contains("self"), "{signature}");
        }
    }

    /// Any source, however broken, is read without panicking into definitions that are
    /// in it: a name it holds, a line it has, a one-line signature of bounded length.
    #[test]
    fn any_source_yields_definitions_drawn_from_it(
        language in proptest::sample::select(vec![Language::Rust, Language::Java, Language::TypeScript, Language::Tsx]),
        pieces in proptest::collection::vec(proptest::prop_oneof![
            proptest::sample::select(vec![
                "fn ", "pub ", "struct ", "impl ", "trait ", "enum ", "mod ", "use ", "class ", "interface ",
                "function ", "export ", "import ", "package ", "const ", "type ", "void ", "<", ">", "'a ", "&",
                "{", "}", "(", ")", ";", ":", "::", ".", "=", "=>", ",", "\n", "\r", "\"", "//", "/*", "*/",
                "Name", "x", "é", "😀", "\u{0}", "#[test]\n", "#[cfg(all(test, not(x)))]\n", "#[", "]", "all(",
                // Whole definitions, some spread over lines.
                "fn spread(\n    a: i32,\n) -> u8 {}\n", "pub struct Point {\n    x: i32,\n}\n", "impl Point { fn x(&self) {} }",
                "class A {\n  void m(\n    int a) {}\n}\n", "interface I { int f(); }", "package a.b;\n",
                "export function g(\n  a: number,\n): void {}\n", "type T = {\n a: number };\n", "const K = 1;",
                "Client c = make();\n", "Map<String, Client> m;", "c.pull();", "this.c.pull();", "Pool::new(1);",
                "declare module ", "module ", "namespace ", "'",
            ]).prop_map(str::to_owned),
            proptest::prelude::any::<String>(),
        ], 0..60),
    ) {
        let source = pieces.concat();
        let found = symbols(language, &source);
        let lines = source.split('\n').count() as u32;
        for definition in &found.definitions {
            proptest::prop_assert!(!definition.name.is_empty() && source.contains(&definition.name), "{definition:?}");
            proptest::prop_assert!((1..=lines).contains(&definition.line), "{definition:?} in {lines} lines");
            proptest::prop_assert!(!definition.signature.contains('\n'), "{definition:?}");
            proptest::prop_assert!(definition.signature.chars().count() <= MAX_SIGNATURE_CHARS + 1, "{definition:?}");
        }
        for (owner, called, count) in &found.typed_calls {
            proptest::prop_assert!(*count > 0 && source.contains(owner.as_str()) && source.contains(called.as_str()));
            proptest::prop_assert!(!owner.is_empty() && !called.is_empty(), "({owner:?}, {called:?})");
        }
        for (name, count) in &found.references {
            proptest::prop_assert!(*count > 0 && source.contains(name.as_str()), "{name}");
            // Where the uses are agrees with how many there are: a line may hold several.
            let at = lines_using(language, source.as_bytes(), &[name.as_str()], true);
            proptest::prop_assert!(!at.is_empty() && at.len() <= *count as usize, "{name}: {at:?}, {count} uses");
            proptest::prop_assert!(at.windows(2).all(|pair| pair[0] < pair[1]), "{at:?}");
            proptest::prop_assert!(at.iter().all(|line| (1..=lines).contains(line)), "{at:?} in {lines} lines");
            // Method calls are some of the uses, and leaving them out leaves some of the lines.
            let methods = found.method_calls.iter().find(|(n, _)| n == name).map_or(0, |(_, c)| *c);
            proptest::prop_assert!(methods <= *count, "{name}: {methods} method calls of {count} uses");
            let without = lines_using(language, source.as_bytes(), &[name.as_str()], false);
            proptest::prop_assert!(without.iter().all(|line| at.contains(line)), "{without:?} not within {at:?}");
        }
        proptest::prop_assert!(found.method_calls.iter().all(|(name, _)| found.references.iter().any(|(n, _)| n == name)));
        // Whatever a signature holds, what a method call can reach is told without panicking.
        for definition in &found.definitions {
            let _ = definition.callable_as_method(Language::Rust);
        }
    }
}

#[test]
fn a_field_read_through_a_value_is_a_use_of_a_member_of_its_name() {
    let source = "fn check(arg: &Arg, given: &Given) -> bool {\n    \
                  arg.requires.is_empty()\n        && given.0 == 1\n        && arg.conflicts.len() > given.count()\n}\n";
    let found = symbols(Language::Rust, source);
    assert_eq!((found.uses_of("requires"), found.method_calls_of("requires")), (1, 1), "{:?}", found.references);
    assert_eq!((found.uses_of("conflicts"), found.uses_of("count")), (1, 1));
    assert_eq!(found.uses_of("0"), 0, "a tuple's field has no name");
    // `find_symbol` shows the line of the read with the method calls, not without them.
    assert_eq!(lines_using(Language::Rust, source.as_bytes(), &["requires"], true), [2]);
    assert!(lines_using(Language::Rust, source.as_bytes(), &["requires"], false).is_empty());
    let java = symbols(
        Language::Java,
        "class V {\n  boolean f(Arg a) { return a.requires.isEmpty() && this.count > 0; }\n}\n",
    );
    assert_eq!((java.uses_of("requires"), java.uses_of("count")), (1, 1), "{:?}", java.references);
    assert_eq!(java.method_calls_of("requires"), 1, "a field read reaches a member, as a method call does");
    // A capitalised name after a dot is a constant or a nested class as well: a plain use,
    // whichever of the two patterns that capture it the reading meets first.
    let constants = symbols(
        Language::Java,
        "class W {\n  boolean f(Config c) { return c.isEnabled(Feature.WRAP) && c.mode() == JsonCreator.Mode.DEFAULT; }\n}\n",
    );
    for name in ["WRAP", "Mode", "DEFAULT"] {
        assert_eq!(
            (constants.uses_of(name), constants.method_calls_of(name)),
            (1, 0),
            "{name}: {:?}",
            constants.method_calls
        );
    }
    assert_eq!(constants.method_calls, [], "no member read alone here");
}

#[test]
fn a_scripts_imports_say_which_names_they_bind() {
    let source = "import Def, { A, b as C } from './x';\nimport * as NS from './y';\nimport type { T } from './t';\n\
                  export { A as Out } from './x';\nconst d = new Def(A, C, NS);\n";
    for language in [Language::TypeScript, Language::JavaScript] {
        let found = symbols(language, source);
        let bound: Vec<(&str, &str)> = found.import_bindings.iter().map(|(n, m)| (n.as_str(), m.as_str())).collect();
        assert_eq!(
            bound,
            [("A", "./x"), ("C", "./x"), ("Def", "./x"), ("NS", "./y"), ("T", "./t")],
            "{language:?}: an export binds nothing here"
        );
        assert_eq!((found.uses_of("A"), found.uses_of("C"), found.uses_of("b")), (1, 1, 0), "{:?}", found.references);
    }
}

#[test]
fn a_commonjs_require_imports_its_module_and_binds_names() {
    let source = "const Runner = require('./runner');\nconst { Hook, Suite: S, opt = 1 } = require(\"./hooks\");\n\
                  const path = require('path');\nconst Base = require('./reporters').Base;\nconst debug = require('debug')('x');\n\
                  const kind = require(name);\nconst LIMIT = 10;\nnew Runner(new Hook(), S, path.join(Base));\n";
    let found = symbols(Language::JavaScript, source);
    assert_eq!(found.imports, ["./runner", "./hooks", "path", "./reporters", "debug"]);
    let mut bound: Vec<(&str, &str)> = found.import_bindings.iter().map(|(n, m)| (n.as_str(), m.as_str())).collect();
    bound.sort();
    assert_eq!(
        bound,
        [
            ("Base", "./reporters"),
            ("Hook", "./hooks"),
            ("Runner", "./runner"),
            ("S", "./hooks"),
            ("opt", "./hooks"),
            ("path", "path")
        ]
    );
    // What a `require` binds is imported, not defined here; other module-level values still
    // are, a value made by calling what is required among them.
    assert_eq!(
        definitions(&found),
        [
            def("debug", DefinitionKind::Constant, None),
            def("kind", DefinitionKind::Constant, None),
            def("LIMIT", DefinitionKind::Constant, None)
        ]
    );
    assert_eq!((found.uses_of("Runner"), found.uses_of("Hook")), (1, 1), "{:?}", found.references);
    let typescript = symbols(
        Language::TypeScript,
        "import fs = require('fs');\nimport helper = require(\"./helper\");\nhelper.run(fs);\n",
    );
    assert_eq!(typescript.imports, ["fs", "./helper"]);
    let bound: Vec<(&str, &str)> = typescript.import_bindings.iter().map(|(n, m)| (n.as_str(), m.as_str())).collect();
    assert_eq!(bound, [("fs", "fs"), ("helper", "./helper")]);
}

#[test]
fn commonjs_and_prototype_assignments_define_functions_and_methods() {
    use DefinitionKind::*;
    let source = "function Runner(suite) {}\nRunner.prototype.run = function (fn) {\n  return 1;\n};\n\
                  Runner.prototype.uncaught = function uncaught(err) {};\nModel.init = async (options) => {};\n\
                  exports.lookupFiles = (spec, ext) => {};\nmodule.exports.toArray = function (x) {};\n\
                  Suite.prototype = {\n  bail: function (b) {},\n  timeout(ms) {},\n  title: 'x',\n};\n\
                  module.exports = {\n  parse: function (text) {},\n  name: 'y',\n};\nmodule.exports = function createStats(o) {};\n\
                  module.exports = Runner;\nfunction later() {\n  this.helper = function () {};\n  other.fn = () => {};\n}\n\
                  module.exports = class Cursor extends Base {\n  next() {}\n};\n";
    for language in [Language::JavaScript, Language::TypeScript] {
        let found = symbols(language, source);
        assert_eq!(
            definitions(&found),
            [
                def("Runner", Function, None),
                def("run", Method, Some("Runner")),
                def("uncaught", Method, Some("Runner")),
                def("init", Method, Some("Model")),
                def("lookupFiles", Function, None),
                def("toArray", Function, None),
                def("bail", Method, Some("Suite")),
                def("timeout", Method, None),
                def("parse", Function, None),
                def("createStats", Function, None),
                def("later", Function, None),
                def("Cursor", Class, None),
                def("next", Method, Some("Cursor")),
            ],
            "{language:?}"
        );
        let signature_of = |name: &str| found.definitions.iter().find(|d| d.name == name).unwrap().signature.clone();
        assert_eq!(signature_of("run"), "Runner.prototype.run = function (fn)");
        assert_eq!(signature_of("init"), "Model.init = async (options) =>");
        assert_eq!(signature_of("bail"), "bail: function (b)");
        assert_eq!(signature_of("createStats"), "module.exports = function createStats(o)");
        let run = found.definitions.iter().find(|d| d.name == "run").unwrap();
        assert_eq!((run.line, run.end_line), (2, 4));
        assert_eq!(found.supertypes, ["Base"], "{language:?}");
    }
}

#[test]
fn calls_written_in_a_macros_tokens_are_uses() {
    let source = "fn a(x: &Meter) {\n    assert_eq!(compute(1), 1);\n    let s = format!(\"{}\", x.reading());\n    \
                  debug_assert!(matches!(Meter::new(2), _));\n    let v = vec![a * (b), 0..len(c)];\n    \
                  quote! { fn generated(&self) -> u8 { compute(3) } };\n}\n";
    let found = symbols(Language::Rust, source);
    assert_eq!(found.uses_of("compute"), 2, "{:?}", found.references);
    assert_eq!((found.uses_of("reading"), found.method_calls_of("reading")), (1, 1));
    assert_eq!(found.uses_of("matches"), 1, "a macro named in another's tokens");
    assert_eq!((found.uses_of("Meter"), found.uses_of("new")), (2, 1), "the parameter's type and the call's");
    let typed = "fn t(p: Pt) {\n    assert_eq!(p, Point { x: 1 });\n    let v = vec![Meter, Meter];\n    \
                 quote! { struct Generated { inner: Inner } impl Shown for Generated {} };\n}\n";
    let found_typed = symbols(Language::Rust, typed);
    assert_eq!((found_typed.uses_of("Point"), found_typed.uses_of("Meter")), (1, 2), "{:?}", found_typed.references);
    assert_eq!((found_typed.uses_of("Inner"), found_typed.uses_of("Shown")), (1, 1));
    assert_eq!(found_typed.uses_of("Generated"), 1, "the `impl`'s, not the `struct`'s");
    assert!(found.typed_calls.contains(&("Meter".into(), "new".into(), 1)), "{:?}", found.typed_calls);
    assert_eq!(found.uses_of("len"), 1, "a range up to a call is no method call");
    assert_eq!(found.method_calls_of("len"), 0);
    for no_call in ["a", "b", "generated", "s"] {
        assert_eq!(found.uses_of(no_call), 0, "{no_call}: {:?}", found.references);
    }
    let lines = lines_using(Language::Rust, source.as_bytes(), &["compute"], true);
    assert_eq!(lines, [2, 6]);
    assert_eq!(lines_using(Language::Rust, source.as_bytes(), &["reading"], false), Vec::<u32>::new());
    assert_eq!(lines_using(Language::Rust, source.as_bytes(), &["reading"], true), [3]);
}

#[test]
fn the_lines_that_use_a_name_are_its_calls_and_type_uses_not_its_definition() {
    let lines = |language, source: &str, names: &[&str]| lines_using(language, source.as_bytes(), names, true);
    let rust = "struct Pool;\nimpl Pool {\n    fn acquire(&self) {}\n}\n// acquire\nfn f(p: Pool) {\n    p.acquire(); p.acquire();\n    let _ = \"acquire\";\n}\n";
    assert_eq!(lines(Language::Rust, rust, &["acquire"]), [7], "one line for two calls; no comment or string");
    assert_eq!(lines(Language::Rust, rust, &["Pool"]), [2, 6], "the impl and the parameter, not the struct");
    assert_eq!(lines(Language::Rust, rust, &["acquire", "Pool"]), [2, 6, 7]);
    let java = "class Mapper {\n  Object read() { return null; }\n  void use(Mapper m) {\n    m.read();\n  }\n}\n";
    assert_eq!(lines(Language::Java, java, &["read"]), [4]);
    assert_eq!(lines(Language::Java, java, &["Mapper"]), [3]);
    let script = "export function render() {}\nrender();\nconst x: Store = make();\n";
    assert_eq!(lines(Language::TypeScript, script, &["render"]), [2]);
    assert_eq!(lines(Language::TypeScript, script, &["Store", "make"]), [3]);
    assert!(lines(Language::Rust, rust, &["missing"]).is_empty());
    // Items inside a macro's braces are read as items, as the index reads them, bodies
    // inside bodies too; a struct defined there is not its own use.
    let in_macros = "cfg_rt! {\n    pub struct Runtime;\n    impl Runtime {\n        fn block_on(&self) {\n            \
                     enter(self);\n        }\n    }\n    cfg_net! {\n        fn bind(rt: &Runtime) {\n            \
                     enter(rt);\n        }\n    }\n}\n";
    assert_eq!(lines(Language::Rust, in_macros, &["enter"]), [5, 10]);
    assert_eq!(lines(Language::Rust, in_macros, &["Runtime"]), [3, 9]);
    let counted: u32 = symbols(Language::Rust, in_macros)
        .references
        .iter()
        .filter(|(name, _)| name == "enter" || name == "Runtime")
        .map(|(_, count)| count)
        .sum();
    assert_eq!(counted, 4, "the index counts the same uses");
}

#[test]
fn a_definition_knows_where_its_comments_and_attributes_start() {
    let lead = |language, source: &str, name: &str| {
        let found = symbols(language, source);
        let definition = found.definitions.iter().find(|d| d.name == name).unwrap_or_else(|| panic!("{name}"));
        (definition.lead_line, definition.line)
    };
    let rust = "fn before() {} // not about `next`\n\
                /* A block comment\n   over two lines. */\n\
                /// Docs.\n\
                #[cfg_attr(\n    feature = \"serde\",\n    derive(Serialize)\n)]\n\
                pub struct Next;\n\
                \n\
                // Apart: a blank line below.\n\
                \n\
                fn alone() {}\n";
    assert_eq!(lead(Language::Rust, rust, "Next"), (2, 9), "the block comment, the docs and the attribute");
    assert_eq!(lead(Language::Rust, rust, "alone"), (13, 13), "a comment a blank line away is not its own");
    assert_eq!(lead(Language::Rust, rust, "before"), (1, 1));

    let java = "class Pool {\n    int size;\n    /**\n     * Takes a worker.\n     */\n    @Override\n    public int acquire() { return 1; }\n}\n";
    assert_eq!(lead(Language::Java, java, "acquire"), (3, 6), "the Javadoc; the annotation is the method's own");

    let typescript = "class Panel {\n  /** Closes on a click outside. */\n  @HostListener('click', [\n    '$event',\n  ])\n  onClick(event: Event) {}\n}\n\
                      // The default size.\nexport const SIZE = 10;\n";
    assert_eq!(lead(Language::TypeScript, typescript, "onClick"), (2, 6), "the JSDoc and the decorator");
    assert_eq!(lead(Language::TypeScript, typescript, "SIZE"), (8, 9), "a comment above `export const`");

    let crate_docs = "//! Crate docs.\n/*! More. */\npub fn first() {}\n";
    assert_eq!(lead(Language::Rust, crate_docs, "first"), (3, 3), "`//!` documents the module");
    let namespace = "/** Geometry helpers. */\nnamespace GeometryTools {\n  export const PI = 3;\n}\n";
    assert_eq!(lead(Language::TypeScript, namespace, "GeometryTools"), (1, 2));
}

#[test]
fn methods_of_an_impl_belong_to_the_type_by_its_own_name() {
    let found = symbols(
        Language::Rust,
        "impl pool::Pool { fn get(&self) {} }\nimpl<'a> Wrapper<'a, u8> { fn wrap() {} }\n\
         impl dyn error::Failure { fn cause(&self) {} }\nimpl dyn std::any::Any + Send { fn peek(&self) {} }\n",
    );
    let container = |name: &str| found.definitions.iter().find(|d| d.name == name).and_then(|d| d.container.clone());
    assert_eq!(container("get").as_deref(), Some("Pool"), "not the module `pool`");
    assert_eq!(container("wrap").as_deref(), Some("Wrapper"));
    assert_eq!(container("cause").as_deref(), Some("Failure"));
    assert_eq!(container("peek").as_deref(), Some("Any"));
}

#[test]
fn a_definition_knows_the_line_its_body_opens_on() {
    let body = |language, source: &str, name: &str| {
        let found = symbols(language, source);
        let definition = found.definitions.iter().find(|d| d.name == name).unwrap_or_else(|| panic!("{name}"));
        (definition.line, definition.body_line, definition.end_line)
    };
    let java = "/** The pool. */\n@SuppressWarnings({\"unchecked\"})\npublic class Pool\n    extends Base\n    implements Closeable,\n        Runnable {\n    void run() {}\n}\n";
    assert_eq!(body(Language::Java, java, "Pool"), (2, 6, 8), "past the annotation and the `implements` list");
    let rust = "pub struct Unit;\npub fn spread<T>(\n    a: T,\n) -> T\nwhere\n    T: Copy,\n{\n    a\n}\n";
    assert_eq!(body(Language::Rust, rust, "Unit"), (1, 1, 1), "no body: its last line");
    assert_eq!(body(Language::Rust, rust, "spread"), (2, 7, 9));
    let typescript = "@Component({\n  selector: 'app',\n})\nclass Panel\n  extends Base {\n}\n";
    assert_eq!(body(Language::TypeScript, typescript, "Panel"), (1, 5, 6));
}

#[test]
fn a_signature_leaves_out_the_comments_in_it() {
    let signature_of = |language, source: &str, name: &str| {
        let found = symbols(language, source);
        found.definitions.iter().find(|d| d.name == name).unwrap_or_else(|| panic!("{name}")).signature.clone()
    };
    let java = "public class IOContext {\n    @Deprecated // since 2.15\n    public IOContext(Object br /* may be null */, boolean managed) {}\n    public enum Feature implements JacksonFeature // since 2.12\n    {\n        ON;\n    }\n    String url = \"http://example.com\";\n}\n";
    assert_eq!(
        signature_of(Language::Java, java, "IOContext"),
        "public class IOContext",
        "the class's own head holds no comment"
    );
    let constructor = symbols(Language::Java, java);
    let constructor =
        constructor.definitions.iter().find(|d| d.name == "IOContext" && d.line == 2).expect("constructor");
    assert_eq!(constructor.signature, "@Deprecated public IOContext(Object br, boolean managed)");
    assert_eq!(signature_of(Language::Java, java, "Feature"), "public enum Feature implements JacksonFeature");
    let rust = "pub fn spread(\n    a: i32, // the first\n    /* then */ b: u8,\n) -> u8 {\n    a as u8 + b\n}\n";
    assert_eq!(signature_of(Language::Rust, rust, "spread"), "pub fn spread(a: i32, b: u8) -> u8");
    let typescript = "export function load(\n  path: string, // relative\n): string {\n  return 'http://x';\n}\n";
    assert_eq!(signature_of(Language::TypeScript, typescript, "load"), "function load(path: string): string");
}

#[test]
fn a_java_signature_leaves_out_what_only_the_compiler_reads() {
    let java = "@SuppressWarnings({\"unchecked\", \"rawtypes\"})\npublic class Pool extends Base {\n    @Override\n    public int size() { return 0; }\n    @java.lang.Override @Deprecated public void close() {}\n    @SuppressWarnings(\"resource\") @Nullable Reader open(@Nonnull String path) { return null; }\n}\n";
    let found = symbols(Language::Java, java);
    let signature = |name: &str| found.definitions.iter().find(|d| d.name == name).map(|d| d.signature.as_str());
    assert_eq!(signature("Pool"), Some("public class Pool extends Base"));
    assert_eq!(signature("size"), Some("public int size()"));
    assert_eq!(signature("close"), Some("@Deprecated public void close()"), "what a caller heeds stays");
    assert_eq!(signature("open"), Some("@Nullable Reader open(@Nonnull String path)"));
    let size = found.definitions.iter().find(|d| d.name == "size").expect("size");
    assert_eq!(size.line, 3, "the method still starts on its annotation's line");
    let buffer =
        "class Buffer {\n    protected final byte read(final int ptr, final String... rest) { return 0; }\n}\n";
    let found = symbols(Language::Java, buffer);
    let read = found.definitions.iter().find(|d| d.name == "read").expect("read");
    assert_eq!(read.signature, "protected final byte read(int ptr, String... rest)", "a method's own `final` stays");
}

#[test]
fn broken_source_still_yields_what_parses() {
    let found = symbols(Language::Rust, "fn good() {}\nfn broken( {\nstruct Fine;\n");
    assert!(found.parse_errors > 0);
    assert!(found.definitions.iter().any(|d| d.name == "good"), "{:?}", found.definitions);
    let empty = symbols(Language::Java, "");
    assert_eq!(empty, FileSymbols::default());
    // tree-sitter repairs `void ()` with a missing, empty method name.
    let repaired = symbols(Language::Java, "class A { void () {} }\n");
    assert_eq!(definitions(&repaired), [def("A", DefinitionKind::Class, None)]);
    let binaryish = symbols(Language::TypeScript, "\u{0}\u{1}\u{fffd}garbage {{{{");
    assert!(binaryish.parse_errors > 0);
}

#[test]
fn components_method_references_annotations_and_decorators_are_uses() {
    let tsx = "export function App() {\n  return <Button onClick={go}><Icon.Close /><div /></Button>;\n}\n\
               class User {\n  @Column\n  name: string;\n}\n";
    let found = symbols(Language::Tsx, tsx);
    assert_eq!(found.uses_of("Button"), 1, "the closing tag names it again: {:?}", found.references);
    assert_eq!((found.uses_of("Icon"), found.uses_of("Close")), (1, 1));
    assert_eq!(found.uses_of("div"), 0, "an element of the page");
    assert_eq!(found.uses_of("Column"), 1);
    assert_eq!(lines_using(Language::Tsx, tsx.as_bytes(), &["Button", "Column"], true), [2, 5]);
    let java = "class Reader {\n  @JsonCreator\n  @JsonProperty(\"name\")\n  Reader(String name) {}\n  \
                List<String> all(List<Integer> ids) {\n    return ids.stream().map(String::valueOf).map(this::wrap)\
                .map(Widget::new).toList();\n  }\n}\n";
    let found = symbols(Language::Java, java);
    assert_eq!((found.uses_of("JsonCreator"), found.uses_of("JsonProperty")), (1, 1), "{:?}", found.references);
    assert_eq!((found.uses_of("valueOf"), found.uses_of("wrap")), (1, 1));
    assert_eq!(found.uses_of("Widget"), 1, "`Widget::new` names its type once");
    assert_eq!(lines_using(Language::Java, java.as_bytes(), &["wrap"], true), [6]);
}

#[test]
fn an_attribute_names_the_macros_it_applies_and_calls_nothing_else() {
    let source = "#[derive(Debug, Parser)]\nstruct Cli;\n#[cfg(all(unix, not(test)))]\n#[tokio::test(flavor = \"current_thread\")]\n\
                  #[test]\nasync fn runs() {\n    assert!(all(1));\n}\n\
                  #[cfg_attr(feature = \"serde\", derive(Serialize, Parser))]\nstruct Config;\n";
    let found = symbols(Language::Rust, source);
    assert_eq!((found.uses_of("Debug"), found.uses_of("Parser")), (1, 2), "{:?}", found.references);
    assert_eq!((found.uses_of("Serialize"), found.uses_of("derive"), found.uses_of("feature")), (1, 0, 0));
    assert_eq!(found.uses_of("test"), 1, "`#[tokio::test]`, not the built-in `#[test]`");
    assert_eq!(found.uses_of("all"), 1, "the call in the body, not the `cfg`'s");
    assert_eq!(found.uses_of("not"), 0);
    assert_eq!(lines_using(Language::Rust, source.as_bytes(), &["all", "Parser", "test"], true), [1, 4, 7, 9]);
}

#[test]
fn a_paths_names_are_uses_wherever_it_stands_but_in_an_import() {
    let source = "use crate::mode::{Mode, Token};\nuse tokio::sync::Semaphore;\nfn f(m: Mode) -> u32 {\n    \
                  let sem = tokio::sync::Semaphore::new(1);\n    let tokens: Vec<Token> = words.map(Token::new).collect();\n    \
                  match m {\n        Mode::Sync => u32::MAX,\n        _ => limits::DEFAULT,\n    }\n}\n";
    let found = symbols(Language::Rust, source);
    assert_eq!(found.uses_of("Sync"), 1, "{:?}", found.references);
    assert_eq!((found.uses_of("MAX"), found.uses_of("DEFAULT")), (1, 1));
    assert_eq!(found.uses_of("new"), 2, "a call through a path counts once, a function passed by its path too");
    assert_eq!(found.uses_of("Semaphore"), 1, "the type a call's path passes through, not the import");
    assert_eq!(found.uses_of("sync"), 0, "a module a path passes through");
    assert_eq!(found.uses_of("Mode"), 2, "the parameter's type and the pattern's, not the import");
    assert_eq!(lines_using(Language::Rust, source.as_bytes(), &["Sync", "Semaphore"], true), [4, 7]);
}

#[test]
fn functions_standing_as_values_beyond_calls_are_uses_unless_a_function_binds_the_name() {
    let source = "static HANDLERS: [fn(&str); 2] = [on_open, on_close];\n\
                  fn table(config: Config) -> Router {\n    let fallback = not_found;\n    \
                  let mut chosen = fallback;\n    chosen = on_error;\n    \
                  let router = Router { fallback: not_found, chosen };\n    let pair = (on_open, config);\n    \
                  if config.quiet { return silent; }\n    router\n}\n";
    let found = symbols(Language::Rust, source);
    let passed = ["on_open", "on_close", "not_found", "on_error", "silent"].map(|name| found.uses_of(name));
    assert_eq!(passed, [2, 1, 2, 1, 1], "{:?}", found.references);
    let bound = ["fallback", "chosen", "config", "router", "pair"].map(|name| found.uses_of(name));
    assert_eq!(bound, [0; 5], "variables and parameters: {:?}", found.references);
    assert_eq!(lines_using(Language::Rust, source.as_bytes(), &["not_found", "silent", "fallback"], true), [3, 6, 8]);

    let ts = "import { onOpen, onClose } from './handlers';\nconst routes = [onOpen, onClose];\n\
              export default { install, routes };\nfunction pick(config: Config) {\n  const fallback = notFound;\n  \
              let current = fallback;\n  current = onError;\n  return { handler: notFound, current, config };\n}\n\
              function quiet() { return silent; }\n";
    let found = symbols(Language::TypeScript, ts);
    let passed = ["onOpen", "onClose", "install", "notFound", "onError", "silent"].map(|name| found.uses_of(name));
    assert_eq!(passed, [1, 1, 1, 2, 1, 1], "not the imports: {:?}", found.references);
    let bound = ["fallback", "current", "config"].map(|name| found.uses_of(name));
    assert_eq!(bound, [0; 3], "variables and parameters: {:?}", found.references);
    assert_eq!(lines_using(Language::TypeScript, ts.as_bytes(), &["notFound", "silent", "current"], true), [5, 8, 10]);
}

#[test]
fn a_closure_binds_its_parameters_only_inside_itself() {
    let source = "fn f(items: Vec<u32>) {\n    items.iter().for_each(|handler| keep(handler));\n    \
                  register(handler);\n    let total = items.len();\n    items.iter().map(|n| n + total).for_each(drop);\n}\n";
    let found = symbols(Language::Rust, source);
    assert_eq!(found.uses_of("handler"), 1, "the function passed on line 3: {:?}", found.references);
    assert_eq!((found.uses_of("total"), found.uses_of("items")), (0, 0), "the function's variables, in a closure too");
    assert_eq!(lines_using(Language::Rust, source.as_bytes(), &["handler"], true), [3]);
    let ts = "function wire(buttons: Button[]) {\n  buttons.forEach((save) => keep(save));\n  \
              bus.on(save);\n  const limit = 3;\n  buttons.map((b) => clamp(b, limit));\n}\n";
    let found = symbols(Language::TypeScript, ts);
    assert_eq!(found.uses_of("save"), 1, "the function passed on line 3: {:?}", found.references);
    assert_eq!(found.uses_of("limit"), 0, "the function's variable, in an arrow function too");
    assert_eq!(lines_using(Language::TypeScript, ts.as_bytes(), &["save"], true), [3]);
}

#[test]
fn names_that_stand_as_values_are_uses_unless_a_function_around_them_binds_them() {
    let source = "use crate::limits::{Mode, MAX_PERMITS};\nconst LIMIT: usize = MAX_PERMITS;\nstruct Meter;\n\
                  fn f(lines: Vec<&str>, config: u32, mode: Mode) -> Vec<u32> {\n    let m = Meter;\n    \
                  if config > LIMIT as u32 { return keep(config); }\n    std::thread::spawn(worker);\n    \
                  let run = |handler| call(handler);\n    if let Some(found) = lookup(mode) { keep(found); }\n    \
                  assert_eq!(m, Meter);\n    lines.into_iter().map(parse_line).map(|n| keep(n)).collect()\n}\n\
                  fn g() { call(handler) }\nfn h() -> u32 { match 3 { Sync => 1, _ => 0 } }\n";
    let found = symbols(Language::Rust, source);
    assert_eq!(found.uses_of("MAX_PERMITS"), 1, "the constant's value, not the import: {:?}", found.references);
    assert_eq!(found.uses_of("LIMIT"), 1, "its use, not its definition");
    assert_eq!(found.uses_of("Meter"), 2, "as a value and in the macro's tokens, not its definition");
    assert_eq!(found.uses_of("Sync"), 1, "a pattern's variant");
    assert_eq!((found.uses_of("parse_line"), found.uses_of("worker")), (1, 1), "functions passed by their names");
    assert_eq!(found.uses_of("handler"), 1, "in `g`; in `f` the closure binds it");
    let bound = ["config", "mode", "found", "n", "m"].map(|name| found.uses_of(name));
    assert_eq!(bound, [0; 5], "parameters and bindings are variables");
    assert_eq!(
        lines_using(Language::Rust, source.as_bytes(), &["MAX_PERMITS", "parse_line", "handler", "config"], true),
        [2, 11, 13]
    );

    let tsx = "import { save, format } from './store';\nexport function App({ items, onDone }: Props) {\n  \
               const [open, setOpen] = useState(false);\n  useEffect(() => subscribe(refresh), [open]);\n  \
               return <List items={items.map(format)} onSave={save} onDone={onDone} onOpen={(flag) => setOpen(flag)} />;\n}\n";
    let found = symbols(Language::Tsx, tsx);
    let passed = ["format", "save", "refresh"].map(|name| found.uses_of(name));
    assert_eq!(passed, [1, 1, 1], "{:?}", found.references);
    let bound = ["items", "onDone", "open", "flag"].map(|name| found.uses_of(name));
    assert_eq!(bound, [0; 4], "destructured props, state and parameters are variables, read through or passed");
    assert_eq!(lines_using(Language::Tsx, tsx.as_bytes(), &["save", "onDone", "refresh"], true), [4, 5]);
    let ts = "import { HttpError, MAX_SIZE } from './errors';\nexport { HttpError };\n\
              function check(err: unknown, size: number) {\n  const Fallback = pick();\n  \
              if (err instanceof HttpError && size > MAX_SIZE) { return Fallback; }\n  return null;\n}\n";
    let found = symbols(Language::TypeScript, ts);
    let values = ["HttpError", "MAX_SIZE", "Fallback"].map(|name| found.uses_of(name));
    assert_eq!(values, [1, 1, 0], "not in the import nor the export; `Fallback` is a variable: {:?}", found.references);
    assert_eq!(lines_using(Language::TypeScript, ts.as_bytes(), &["HttpError", "Fallback"], true), [5]);

    let java = "import com.acme.Limits;\nimport static com.acme.Limits.MAX_SIZE;\nclass Reader {\n  \
                static final int LIMIT = 8;\n  Registry registry;\n  boolean ok(int size, Feature f, Parser parser) {\n    \
                switch (f) { case ALLOW_COMMENTS: return true; default: break; }\n    \
                registry.pull(parser.next(), list.stream().map(item -> item.name));\n    \
                return size > MAX_SIZE && size < LIMIT && Feature.STRICT.enabled();\n  }\n}\n";
    let found = symbols(Language::Java, java);
    let constants = ["MAX_SIZE", "LIMIT", "ALLOW_COMMENTS", "STRICT"].map(|name| found.uses_of(name));
    assert_eq!(constants, [1; 4], "not the imports nor the definition: {:?}", found.references);
    assert_eq!(found.uses_of("Limits"), 0, "named only in imports");
    let read_through = ["registry", "list", "parser", "item"].map(|name| found.uses_of(name));
    assert_eq!(read_through, [1, 1, 0, 0], "a field and an outer name, not a parameter nor a lambda's");
    assert_eq!(
        lines_using(Language::Java, java.as_bytes(), &["MAX_SIZE", "LIMIT", "ALLOW_COMMENTS", "parser"], true),
        [7, 9]
    );
}

#[test]
fn rust_paths_inside_inline_modules_are_read_from_the_files_own_module() {
    let found = symbols(
        Language::Rust,
        "use super::config::Limits;\nfn top() { super::reset(); }\n\
         #[cfg(test)]\nmod tests {\n    use super::*;\n    use super::super::config;\n    \
         fn t() { super::top(); super::super::reset(); }\n    mod deeper {\n        use super::super::*;\n        \
         use super::super::super::io;\n    }\n}\n",
    );
    assert_eq!(
        found.imports,
        ["super::config::Limits", "self::*", "super::config", "self::*", "super::io"],
        "an inline module's `super` is the file's own module"
    );
    assert_eq!(found.written_paths, ["super::reset", "self::top"]);
    let spaced = symbols(Language::Rust, "mod tests {\n    use super :: {a, b};\n}\n");
    assert_eq!(spaced.imports, ["self::{a, b}"]);
}

#[test]
fn rust_uses_written_after_a_path_keep_the_path() {
    let found = symbols(
        Language::Rust,
        "use std::task::Poll;\nfn f(x: Poll<u8>) -> Poll<u8> {\n    match x {\n        Poll::Ready(v) => Poll::Ready(v),\n        \
         Poll::Pending => Poll :: Pending,\n    }\n}\nfn g() {\n    Self::new();\n    Vec::<u8>::new();\n    \
         module::call();\n    assert_eq!(h(), Poll::Ready(1));\n    let e = ::std::io::Error::last_os_error();\n    \
         <T as Trait>::make();\n}\n",
    );
    assert_eq!(
        owned_uses(&found),
        [
            ("Error", "std::io", 1),
            ("Pending", "Poll", 2),
            ("Ready", "Poll", 3),
            ("call", "module", 1),
            ("last_os_error", "std::io::Error", 1),
            ("new", "Self", 1),
        ],
        "not after a generic argument"
    );
}

#[test]
fn a_type_parameter_written_inside_its_item_is_no_use_of_a_type_named_alike() {
    let rust = symbols(
        Language::Rust,
        "impl<Item, Error> Sink<Item> for Either<Error>\nwhere\n    Error: Into<Item>,\n{\n    \
         fn close(e: Error) -> Result<(), Error> { Error::report(); Ok(()) }\n}\n\
         fn outside() -> Error { Error::new() }\nfn io() -> io::Error { todo!() }\n\
         fn generic<Item>(item: Item) -> Vec<Item> { vec![Item::default()] }\n",
    );
    let count = |found: &FileSymbols, name: &str| {
        found.references.iter().find(|(used, _)| used == name).map_or(0, |(_, count)| *count)
    };
    assert_eq!(count(&rust, "Error"), 3, "only outside the impl, and `io::Error` inside or out: {:?}", rust.references);
    assert_eq!(count(&rust, "Item"), 0, "{:?}", rust.references);
    assert_eq!(count(&rust, "Sink"), 1);
    let typescript = symbols(
        Language::TypeScript,
        "export class Repository<Entity extends ObjectLiteral> {\n  find(where: Partial<Entity>): Entity[] { return []; }\n}\n\
         export function create<Entity>(target: EntityTarget<Entity>): Entity { return new Entity(); }\n\
         export function decorate(target: Entity): void {}\n",
    );
    assert_eq!(count(&typescript, "Entity"), 1, "only in `decorate`: {:?}", typescript.references);
    assert_eq!(count(&typescript, "EntityTarget"), 1);
    let java = symbols(
        Language::Java,
        "class Box<Node extends Comparable<Node>> {\n  Node value;\n  <Token> Token first(List<Token> all) { return all.get(0); }\n  \
         Token last;\n}\n",
    );
    assert_eq!(count(&java, "Node"), 0, "{:?}", java.references);
    assert_eq!(count(&java, "Token"), 1, "only the field outside the method: {:?}", java.references);
}

#[test]
fn an_associated_type_named_in_a_traits_arguments_is_written_after_the_trait() {
    let found = symbols(
        Language::Rust,
        "fn lines() -> impl Iterator<Item = Line> { todo!() }\n\
         fn sink<S: futures::Sink<Frame, Error = io::Error>>(s: S) {}\n\
         fn own() -> Box<dyn crate::codec::Decoder<Item = Frame, Error = Error>> { todo!() }\n",
    );
    assert_eq!(
        owned_uses(&found),
        [
            ("Decoder", "crate::codec", 1),
            ("Error", "crate::codec::Decoder", 1),
            ("Error", "futures::Sink", 1),
            ("Error", "io", 1),
            ("Item", "Iterator", 1),
            ("Item", "crate::codec::Decoder", 1),
            ("Sink", "futures", 1),
        ]
    );
}

#[test]
fn a_name_written_after_a_type_parameter_is_its_bound_traits() {
    let found = symbols(
        Language::Rust,
        "use std::future::Future;\nfn run<F: Future + Send>(f: F) -> F::Output { todo!() }\n\
         impl<S, L: Link + Linked> Pool<S, L>\nwhere\n    S: futures::Stream<Item = u8> + Unpin,\n{\n    \
         fn next(&self) -> Option<S::Item> { None }\n    fn handle(&self) -> L::Handle { todo!() }\n}\n",
    );
    let owners = |name: &str| -> Vec<&str> {
        found.owned_uses.iter().filter(|(used, ..)| used == name).map(|(_, owner, _)| owner.as_str()).collect()
    };
    assert_eq!(owners("Output"), ["Future"], "{:?}", found.owned_uses);
    assert_eq!(owners("Item"), ["futures::Stream"], "`Item = u8` and `S::Item`: {:?}", found.owned_uses);
    assert_eq!(owners("Handle"), ["L"], "two traits bound `L`");
}

#[test]
fn a_type_written_after_self_in_an_impl_of_a_trait_is_the_traits() {
    let found = symbols(
        Language::Rust,
        "impl Future for Sleep {\n    type Output = ();\n    fn poll(&mut self) -> Poll<Self::Output> { Self::reset(); todo!() }\n}\n\
         impl Sleep {\n    fn deadline(&self) -> Self::Output { todo!() }\n}\n\
         impl std::fmt::Display for Mode {\n    fn fmt(&self) { let _ = Self::Idle; }\n}\n\
         impl<T> crate::codec::Decoder<T> for Lines {\n    fn decode(&self) -> Result<(), Self::Error> { todo!() }\n}\n",
    );
    assert_eq!(
        owned_uses(&found),
        [
            ("Decoder", "crate::codec", 1),
            ("Display", "std::fmt", 1),
            ("Error", "crate::codec::Decoder", 1),
            ("Idle", "Self", 1),
            ("Output", "Future", 1),
            ("Output", "Self", 1),
            ("reset", "Self", 1),
        ],
        "a variant, a function and an inherent `impl`'s type stay `Self`'s"
    );
}
