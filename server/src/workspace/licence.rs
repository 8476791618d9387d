//! A licence header: the comment at the top of a source file that states its copyright or
//! its licence (`/* Copyright 2017 Google LLC. Licensed under the Apache License ... */`,
//! `// SPDX-License-Identifier: MIT` with the lines around it). The context pack leaves it
//! out of the files it shows, and a write of a whole file has to keep it.

/// Fewer comment lines than this are not worth leaving out: saying so costs as much.
const MIN_LINES: usize = 3;

/// Words of a licence header, lower-cased.
const WORDS: [&str; 4] = ["copyright", "license", "licence", "spdx-license-identifier"];

/// The licence header at the top of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LicenceHeader<'a> {
    /// The comment, as written, from its opening to its closing line.
    pub comment: &'a str,
    /// The lines it takes, with the blank lines around it: the file's code starts on the
    /// line after.
    pub lines: usize,
    /// The byte offset at which the rest of the file starts.
    pub rest: usize,
}

impl LicenceHeader<'_> {
    /// Whether `content` holds this header's comment, whatever its line endings and indentation.
    pub fn is_kept_in(&self, content: &str) -> bool {
        let without_spaces = |text: &str| text.chars().filter(|c| !c.is_whitespace()).collect::<String>();
        without_spaces(content).contains(&without_spaces(self.comment))
    }
}

/// The licence header `text` starts with: a comment of at least three lines, before any code,
/// that speaks of copyright or a licence, with code after it. A doc comment is a header only
/// when a blank line parts it from the code (`/** ... */` on a class documents the class), and
/// Rust's `///` and `//!` never are: they are documentation.
pub fn licence_header(text: &str) -> Option<LicenceHeader<'_>> {
    let mut lines = text
        .split_inclusive('\n')
        .scan(0, |offset, line| {
            let start = *offset;
            *offset += line.len();
            Some((start, line))
        })
        .peekable();
    let blank_before = std::iter::from_fn(|| lines.next_if(|(_, line)| line.trim().is_empty())).count();
    let (start, first) = lines.next()?;
    let opening = first.trim_start_matches('\u{feff}').trim_start();
    let mut comment_lines = 1;
    let mut end = start + first.len();
    let documents = if let Some(inside) = opening.strip_prefix("/*") {
        let mut closing = inside.find("*/").map(|at| &inside[at + 2..]);
        while closing.is_none() {
            let (_, line) = lines.next()?;
            closing = line.find("*/").map(|at| &line[at + 2..]);
            comment_lines += 1;
            end += line.len();
        }
        // Code on the closing line: the comment is not a header of its own.
        if !closing.is_some_and(|after| after.trim().is_empty()) {
            return None;
        }
        inside.starts_with('*') && !inside.starts_with("*/")
    } else if opening.starts_with("//") {
        let is_documentation = |line: &str| line.starts_with("///") || line.starts_with("//!");
        let mut line = opening;
        loop {
            if is_documentation(line) {
                return None;
            }
            let Some((_, next)) = lines.next_if(|(_, next)| next.trim_start().starts_with("//")) else { break };
            line = next.trim_start();
            comment_lines += 1;
            end += next.len();
        }
        false
    } else {
        return None;
    };
    let comment = text[start..end].trim_end();
    let lower = comment.to_lowercase();
    if comment_lines < MIN_LINES || !WORDS.iter().any(|word| lower.contains(word)) {
        return None;
    }
    // The blank lines after it, then code.
    let blank_after = std::iter::from_fn(|| lines.next_if(|(_, line)| line.trim().is_empty())).count();
    let (rest, _) = lines.next()?;
    let lines = blank_before + comment_lines + blank_after;
    (!documents || blank_after > 0).then_some(LicenceHeader { comment, lines, rest })
}

#[cfg(test)]
mod tests {
    use super::*;

    const APACHE: &str = "/*\n * Copyright 2017 Google LLC.\n *\n * Licensed under the Apache License, Version 2.0 (the \"License\");\n */\n";

    #[test]
    fn a_block_comment_on_copyright_before_the_code_is_a_header() {
        let text = format!("{APACHE}\npackage com.google.cloud.tools.jib.registry;\n\nclass A {{}}\n");
        let header = licence_header(&text).expect("a header");
        assert_eq!(header.lines, 6, "five lines of comment and the blank line after it");
        assert!(text[header.rest..].starts_with("package com.google"), "{}", &text[header.rest..]);
        assert_eq!(header.comment, APACHE.trim_end());
    }

    #[test]
    fn line_comments_and_blank_lines_above_count_too() {
        let text =
            "\n// Copyright 2020 The Authors.\n// SPDX-License-Identifier: MIT\n//\n// See LICENSE.\nuse std::io;\n";
        let header = licence_header(text).expect("a header");
        assert_eq!(header.lines, 5);
        assert_eq!(&text[header.rest..], "use std::io;\n");
        let crlf = "/*\r\n * Licensed to the Apache Software Foundation.\r\n */\r\n\r\npackage org.apache;\r\n";
        assert_eq!(licence_header(crlf).map(|h| h.lines), Some(4));
    }

    #[test]
    fn documentation_and_other_comments_are_not_headers() {
        let javadoc = "/**\n * A reader. Copyright notices are read by {@link Notices}.\n */\npublic class Reader {}\n";
        assert_eq!(licence_header(javadoc), None, "a class's documentation");
        let detached = "/**\n * Copyright (c) 2007 Mockito contributors\n * This program is made available under the terms of the MIT License.\n */\n\npackage org.mockito;\n";
        assert!(licence_header(detached).is_some(), "a doc comment a blank line parts from the code");
        let crate_docs = "//! Copyright handling.\n//! Reads licence files.\n//! And more.\npub mod licence;\n";
        assert_eq!(licence_header(crate_docs), None, "Rust documentation");
        let mixed = "// Copyright 2020 The Authors.\n// Licensed under MIT.\n/// The entry point.\n///\nfn main() {}\n";
        assert_eq!(licence_header(mixed), None, "the comment runs into an item's documentation");
        let plain = "/*\n * Parses the input.\n * Fast.\n */\nfn parse() {}\n";
        assert_eq!(licence_header(plain), None, "no word of a licence");
        let short = "// SPDX-License-Identifier: MIT\nfn main() {}\n";
        assert_eq!(licence_header(short), None, "one line is not worth leaving out");
        let code_first = "package a;\n/*\n * Copyright 2017.\n * Licensed.\n */\n";
        assert_eq!(licence_header(code_first), None, "code before the comment");
    }

    #[test]
    fn malformed_text_has_no_header() {
        assert_eq!(licence_header(""), None);
        assert_eq!(licence_header("\n\n  \n"), None);
        assert_eq!(licence_header("/*\n * Copyright 2017.\n * Licensed under MIT.\n"), None, "never closed");
        assert_eq!(licence_header(APACHE), None, "nothing after the comment");
        assert_eq!(licence_header(&format!("{APACHE}\n\n")), None, "only blank lines after it");
        let code_on_closing = "/*\n * Copyright 2017.\n * Licensed under MIT.\n */ package a;\n";
        assert_eq!(licence_header(code_on_closing), None);
        let one_line = "/* Copyright 2017. Licensed under MIT. */ class A {}\n";
        assert_eq!(licence_header(one_line), None);
    }

    /// A file's top as a generator writes it: blank lines, a comment in one of the styles
    /// (its lines may speak of a licence, close it early or hold code), blank lines, code.
    fn file_tops() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let comment_line = prop_oneof![
            Just("Copyright 2020 The Authors.".to_owned()),
            Just("Licensed under the MIT License.".to_owned()),
            Just("*/ class A {}".to_owned()),
            Just("".to_owned()),
            "[ a-z;{}*/\u{feff}é]{0,12}",
        ];
        let opening = prop_oneof![Just("/*"), Just("/**"), Just("//"), Just("///"), Just("//!"), Just("")];
        (
            0..3_usize,
            opening,
            proptest::collection::vec(comment_line, 0..6),
            any::<bool>(),
            0..3_usize,
            proptest::collection::vec("[ a-z;{}]{0,10}", 0..4),
            prop_oneof![Just("\n"), Just("\r\n")],
        )
            .prop_map(|(blank_before, opening, body, closed, blank_after, code, newline)| {
                let mut lines = vec![String::new(); blank_before];
                let block = opening.starts_with("/*");
                lines.push(opening.to_owned());
                for line in body {
                    lines.push(if block { format!(" * {line}") } else { format!("{opening} {line}") });
                }
                if block && closed {
                    lines.push(" */".to_owned());
                }
                lines.extend(std::iter::repeat_n(String::new(), blank_after));
                lines.extend(code);
                lines.join(newline) + newline
            })
    }

    proptest::proptest! {
        #[test]
        fn any_text_has_at_most_a_header_before_its_code(text in file_tops()) {
            if let Some(header) = licence_header(&text) {
                let (head, code) = text.split_at(header.rest);
                proptest::prop_assert_eq!(head.split_inclusive('\n').count(), header.lines);
                proptest::prop_assert!(head.contains(header.comment));
                proptest::prop_assert!(!code.trim().is_empty(), "code follows: {:?}", text);
                proptest::prop_assert!(head.lines().filter(|l| !l.trim().is_empty()).count() >= MIN_LINES);
                proptest::prop_assert!(header.is_kept_in(&text));
                proptest::prop_assert!(!header.is_kept_in(code), "the code holds no copy of it: {:?}", text);
            }
        }
    }

    #[test]
    fn a_header_is_kept_whatever_the_line_endings_and_indentation() {
        let text = format!("{APACHE}\npackage a;\n");
        let header = licence_header(&text).unwrap();
        assert!(header.is_kept_in(&format!("{}\npackage b;\n", APACHE.replace('\n', "\r\n"))));
        assert!(header.is_kept_in(&APACHE.replace(" *", "   *")));
        assert!(!header.is_kept_in("package a;\n"));
        assert!(!header.is_kept_in("/*\n * Copyright 2017 Google LLC.\n */\npackage a;\n"), "cut short");
    }
}
