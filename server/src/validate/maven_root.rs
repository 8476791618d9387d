//! The folder above a Maven module that its build reads: the parent POMs Maven takes from
//! disk (a `<parent>` whose `relativePath`, `../pom.xml` unless set, holds that very POM),
//! as a multi-module project's module inherits its versions, plugins and dependencies.

use std::path::{Path, PathBuf};

use quick_xml::Reader;
use quick_xml::events::Event;

use super::repository::{read_small, repository_above};

/// How many parents up a module is followed.
const MAX_PARENTS: usize = 8;

/// The largest `pom.xml` read.
const MAX_POM_BYTES: u64 = 4 << 20;

/// What a POM says of itself and of its parent.
#[derive(Debug, Default, PartialEq, Eq)]
struct Pom {
    /// `project/groupId`, else the parent's (a module inherits it).
    group: Option<String>,
    /// `project/artifactId`.
    artifact: Option<String>,
    /// `project/parent/groupId` and `artifactId`, when it has a parent.
    parent: Option<(Option<String>, Option<String>)>,
    /// `project/parent/relativePath` as written: `Some("")` for `<relativePath/>`, which
    /// tells Maven to look the parent up in repositories only.
    relative_path: Option<String>,
}

impl Pom {
    /// Reads the elements of `text` this module needs; `None` when it is not XML.
    fn parse(text: &str) -> Option<Self> {
        let mut reader = Reader::from_str(text);
        let mut path: Vec<String> = Vec::new();
        let mut pom = Pom::default();
        loop {
            match reader.read_event().ok()? {
                Event::Start(start) => {
                    path.push(String::from_utf8_lossy(start.local_name().as_ref()).into_owned());
                    if path == ["project", "parent"] {
                        pom.parent = Some((None, None));
                    }
                }
                Event::Empty(empty) => {
                    let name = String::from_utf8_lossy(empty.local_name().as_ref()).into_owned();
                    if path == ["project", "parent"] && name == "relativePath" {
                        pom.relative_path = Some(String::new());
                    }
                }
                Event::End(_) => {
                    path.pop();
                }
                Event::Text(text) => {
                    let value = text.decode().ok()?.trim().to_owned();
                    let at: Vec<&str> = path.iter().map(String::as_str).collect();
                    match at.as_slice() {
                        ["project", "groupId"] => pom.group = Some(value),
                        ["project", "artifactId"] => pom.artifact = Some(value),
                        ["project", "parent", "groupId"] => pom.parent.get_or_insert_default().0 = Some(value),
                        ["project", "parent", "artifactId"] => pom.parent.get_or_insert_default().1 = Some(value),
                        ["project", "parent", "relativePath"] => pom.relative_path = Some(value),
                        _ => {}
                    }
                }
                Event::Eof => break,
                _ => {}
            }
        }
        // A module without a groupId of its own inherits its parent's.
        if pom.group.is_none() {
            pom.group = pom.parent.as_ref().and_then(|(group, _)| group.clone());
        }
        Some(pom)
    }

    /// Reads the POM at `file`.
    fn read(file: &Path) -> Option<Self> {
        Self::parse(&read_small(file, MAX_POM_BYTES)?)
    }
}

/// The nearest folder above the Maven module at `root`, inside its repository, that holds
/// every parent POM Maven reads from disk for it; `None` when it reads none above it.
pub fn build_root_above(root: &Path) -> Option<PathBuf> {
    let repository = repository_above(root)?;
    let mut pom = Pom::read(&root.join("pom.xml"))?;
    let mut folder = root.to_owned();
    let mut reached: Vec<PathBuf> = Vec::new();
    for _ in 0..MAX_PARENTS {
        let Some(wanted) = pom.parent.take() else { break };
        let written = pom.relative_path.take().unwrap_or_else(|| "../pom.xml".to_owned());
        if written.is_empty() || Path::new(&written).is_absolute() {
            break;
        }
        let mut file = crate::workspace::lexical_normal(&folder.join(&written));
        if file.is_dir() {
            file = file.join("pom.xml");
        }
        // Maven takes the file only when it is the parent named; else it looks in repositories.
        let Some(found) = Pom::read(&file).filter(|found| (found.group.clone(), found.artifact.clone()) == wanted)
        else {
            break;
        };
        let Some(parent_folder) = file.parent().filter(|parent| parent.starts_with(repository)) else { break };
        let Some(holding) = root.ancestors().find(|above| parent_folder.starts_with(above)) else { break };
        reached.push(holding.to_owned());
        folder = parent_folder.to_owned();
        pom = found;
    }
    reached.into_iter().filter(|folder| folder != root).min_by_key(|folder| folder.components().count())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::tree;

    fn pom(group: Option<&str>, artifact: &str, parent: Option<(&str, &str, Option<&str>)>) -> String {
        let mut text = String::from("<?xml version=\"1.0\"?>\n<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n");
        if let Some((group, artifact, relative)) = parent {
            text +=
                &format!("  <parent><groupId>{group}</groupId><artifactId>{artifact}</artifactId><version>1</version>");
            text += &match relative {
                Some("") => "<relativePath/>".to_owned(),
                Some(path) => format!("<relativePath>{path}</relativePath>"),
                None => String::new(),
            };
            text += "</parent>\n";
        }
        if let Some(group) = group {
            text += &format!("  <groupId>{group}</groupId>\n");
        }
        text + &format!(
            "  <artifactId>{artifact}</artifactId>\n  <!-- <artifactId>not this</artifactId> -->\n</project>\n"
        )
    }

    #[test]
    fn a_module_reads_its_parents_from_disk_up_to_the_repository() {
        let dir = tree::<&str>(&[
            (".git/HEAD", "ref: refs/heads/main\n"),
            ("pom.xml", &pom(Some("com.acme"), "acme", None)),
            ("services/pom.xml", &pom(None, "services", Some(("com.acme", "acme", None)))),
            ("services/api/pom.xml", &pom(None, "api", Some(("com.acme", "services", None)))),
            ("tools/cli/pom.xml", &pom(None, "cli", Some(("com.acme", "parent", Some("../../build/parent"))))),
            ("build/parent/pom.xml", &pom(Some("com.acme"), "parent", None)),
            (
                "alone/pom.xml",
                &pom(None, "alone", Some(("org.springframework.boot", "spring-boot-starter-parent", Some("")))),
            ),
            ("other/pom.xml", &pom(None, "other", Some(("com.acme", "not-the-root", None)))),
        ]);
        let root = dir.path();
        // Two parents up, the root's POM inherited through the services' one.
        assert_eq!(build_root_above(&root.join("services/api")).as_deref(), Some(root));
        assert_eq!(build_root_above(&root.join("services")).as_deref(), Some(root));
        // A parent in a sibling folder: the folder holding both.
        assert_eq!(build_root_above(&root.join("tools/cli")).as_deref(), Some(root));
        // Taken from repositories only, or not the POM found there: nothing above is read.
        assert_eq!(build_root_above(&root.join("alone")), None);
        assert_eq!(build_root_above(&root.join("other")), None);
        assert_eq!(build_root_above(root), None, "the repository's root");
    }

    #[test]
    fn broken_or_outside_poms_are_not_followed() {
        let dir = tree::<&str>(&[
            ("pom.xml", &pom(Some("com.acme"), "acme", None)),
            ("repo/.git/HEAD", "ref: refs/heads/main\n"),
            ("repo/module/pom.xml", &pom(None, "module", Some(("com.acme", "acme", Some("../../pom.xml"))))),
            ("repo/broken/pom.xml", "<project><parent><artifactId>x</artifact"),
            ("repo/empty/pom.xml", ""),
        ]);
        let root = dir.path().join("repo");
        assert_eq!(build_root_above(&root.join("module")), None, "the parent is outside the repository");
        assert_eq!(build_root_above(&root.join("broken")), None);
        assert_eq!(build_root_above(&root.join("empty")), None);
        assert_eq!(Pom::parse("<project><parent><artifactId>x</artifact"), None, "mismatched tags");
    }
}
