//! A `package.json`'s own import map, Node's subpath imports: where a `#` specifier its
//! package's scripts write (`import { log } from '#utils/log'`) leads.

use super::paths::{join_inside, pattern_targets};

/// The `imports` of one `package.json`: its folder and each pattern (`#utils/*`) with the
/// places it may lead to, relative to the workspace.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PackageImports {
    /// The folder holding the `package.json` (`""` for the root): the scripts below it use
    /// its map.
    pub dir: String,
    /// Each pattern and its targets inside the workspace (`src/utils/*.js`), a conditions
    /// object's in the order of its conditions' names.
    pub map: Vec<(String, Vec<String>)>,
}

impl PackageImports {
    /// The import map of the parsed `package.json` in the folder `dir`. Every condition's
    /// target counts (`node`, `import`, `default`, nested ones), as any of them may be the
    /// source a run would change; targets in other packages or outside the workspace do not.
    pub fn of(dir: &str, manifest: &serde_json::Value) -> Self {
        let map = manifest["imports"]
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(pattern, _)| pattern.starts_with('#'))
            .map(|(pattern, value)| {
                let mut targets = Vec::new();
                local_targets(value, &mut targets);
                let targets = targets.into_iter().filter_map(|target| join_inside(dir, target)).collect();
                (pattern.clone(), targets)
            })
            .collect();
        Self { dir: dir.to_owned(), map }
    }

    /// Where `import` (`#utils/log`) may lead, relative to the workspace: the targets of the
    /// pattern it matches exactly, else of those with a `*` it matches, the longest part before
    /// the `*` first (as Node picks), the part the `*` stands for put in each of the target's.
    /// As in Node, that part is not empty and holds no `.` or `..` step (`#utils/../x`).
    pub fn candidates(&self, import: &str) -> Vec<String> {
        let map = self.map.iter().map(|(pattern, targets)| (pattern.as_str(), targets.as_slice()));
        pattern_targets(map, import, |part| !part.split('/').any(|step| matches!(step, "" | "." | "..")))
    }
}

/// The package's own files a target value names: a string that starts with `./`, or those of
/// a conditions object or an array of fallbacks, in order.
fn local_targets<'v>(value: &'v serde_json::Value, into: &mut Vec<&'v str>) {
    match value {
        serde_json::Value::String(target) if target.starts_with("./") => into.push(target),
        serde_json::Value::Object(conditions) => conditions.values().for_each(|value| local_targets(value, into)),
        serde_json::Value::Array(fallbacks) => fallbacks.iter().for_each(|value| local_targets(value, into)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn imports(dir: &str, json: &str) -> PackageImports {
        PackageImports::of(dir, &serde_json::from_str(json).unwrap())
    }

    #[test]
    fn patterns_lead_to_the_packages_own_files() {
        let map = imports(
            "packages/core",
            r##"{ "imports": {
                "#utils/*": "./src/utils/*.js",
                "#internal/*.js": { "types": "./src/internal/*.d.ts", "default": "./src/internal/*.js" },
                "#config": [{ "node": "./src/config.node.js" }, "./src/config.js"],
                "#dep": "lodash",
                "#out/*": "../../../elsewhere/*.js",
                "plain": "./src/plain.js"
            } }"##,
        );
        assert_eq!(map.candidates("#utils/log"), ["packages/core/src/utils/log.js"]);
        assert_eq!(map.candidates("#utils/deep/er"), ["packages/core/src/utils/deep/er.js"]);
        assert_eq!(
            map.candidates("#internal/parse.js"),
            ["packages/core/src/internal/parse.js", "packages/core/src/internal/parse.d.ts"],
            "every condition (by name: `default`, then `types`), a `*` between a prefix and a suffix"
        );
        let nested = imports("", r##"{ "imports": { "#a/*": "./any/*.js", "#a/b/*": "./b/*.js" } }"##);
        assert_eq!(nested.candidates("#a/b/c"), ["b/c.js", "any/b/c.js"], "the longest prefix first");
        assert_eq!(map.candidates("#config"), ["packages/core/src/config.node.js", "packages/core/src/config.js"]);
        assert!(map.candidates("#dep").is_empty(), "another package's");
        assert!(map.candidates("#out/x").is_empty(), "outside the workspace");
        assert!(map.candidates("#utilsx").is_empty() && map.candidates("#internal/parse.ts").is_empty());
        for aside in ["#utils/", "#utils/../secret", "#utils/./log", "#utils/a//b"] {
            assert!(map.candidates(aside).is_empty(), "{aside}: Node refuses it");
        }
        let twice = imports("", r##"{ "imports": { "#locale/*": "./locales/*/*.js" } }"##);
        assert_eq!(twice.candidates("#locale/fr"), ["locales/fr/fr.js"], "every `*` of the target");
        assert!(map.map.iter().all(|(pattern, _)| pattern != "plain"), "a key without `#` is no import");
    }

    #[test]
    fn a_manifest_without_a_map_or_with_a_malformed_one_maps_nothing() {
        for json in [r#"{}"#, r#"{ "imports": [] }"#, r##"{ "imports": { "#x": 3, "#y": null } }"##] {
            assert!(imports("", json).candidates("#x").is_empty(), "{json}");
        }
        assert_eq!(imports("", r##"{ "imports": { "#x": "./x.js" } }"##).candidates("#x"), ["x.js"]);
    }
}
