//! The files with errors as the `context` strategy shows them to the model: written here,
//! and read back from the message as it stands in the conversation, so that what the model
//! was shown of them counts as seen (a whole-file write after them keeps or drops those
//! lines knowingly) only while, and as far as, the message holds them.

/// A file with errors this long or shorter is shown whole.
const WHOLE_FILE_LINES: usize = 150;
/// Lines shown on each side of an error in a longer file.
const LINES_AROUND_ERROR: usize = 30;

/// What the strategy's message says before the files: where they begin in it.
pub(super) const FILES_INTRO: &str = "Here is the current text of the files with errors";

/// The file at `path` with its `text`, as the message shows it: its path, then its lines
/// numbered, all of them when it is short, else those within [`LINES_AROUND_ERROR`] of the
/// 0-based `error_lines`, with a line saying what is left out.
pub(super) fn shown_file(path: &str, text: &str, error_lines: &[usize]) -> String {
    format!("\n{path}:\n{}", lines_around(text, error_lines))
}

fn lines_around(text: &str, error_lines: &[usize]) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let shown = |number: usize| {
        lines.len() <= WHOLE_FILE_LINES
            || error_lines
                .iter()
                .any(|&error| number + LINES_AROUND_ERROR >= error && number <= error + LINES_AROUND_ERROR)
    };
    let mut out = String::new();
    let mut left_out = 0;
    for (number, line) in lines.iter().enumerate() {
        if !shown(number) {
            left_out += 1;
            continue;
        }
        if left_out > 0 {
            out.push_str(&format!("      ({left_out} lines not shown; read_file has them)\n"));
            left_out = 0;
        }
        out.push_str(&format!("{:>5} | {line}\n", number + 1));
    }
    if left_out > 0 {
        out.push_str(&format!("      ({left_out} lines not shown; read_file has them)\n"));
    }
    out
}

/// The files a `message` shows after [`FILES_INTRO`], each with the lines of it that the
/// message holds, as it stands (cut to fit, its middle may be gone): none for any other
/// message. Past a cut, lines count for no file until the next file's path (the cut may
/// have taken that of the file they belong to), and a line the cut may have shortened
/// counts for none.
pub(super) fn files_in(message: &str) -> Vec<(&str, Vec<&str>)> {
    let Some(at) = message.find(FILES_INTRO) else { return Vec::new() };
    let mut files: Vec<(&str, Vec<&str>)> = Vec::new();
    let mut past_cut = false;
    let mut lines = message[at..].lines().skip(1).peekable();
    while let Some(line) = lines.next() {
        if is_cut(line) {
            // The cut keeps whole lines unless it says characters alone.
            if !line.contains(" line")
                && let Some((_, shown)) = files.last_mut()
            {
                shown.pop();
            }
            past_cut = true;
        } else if let Some(code) = numbered(line) {
            if let Some((_, shown)) = files.last_mut().filter(|_| !past_cut) {
                shown.push(code);
            }
        } else if let Some(path) = line.strip_suffix(':')
            && !path.is_empty()
            && lines.peek().is_some_and(|next| numbered(next).is_some() || next.trim_start().starts_with('('))
        {
            files.push((path, Vec::new()));
            past_cut = false;
        }
    }
    files
}

/// Whether `line` is the mark a cut to fit leaves (see [`cut_head_tail`](crate::workspace::cut_head_tail)).
fn is_cut(line: &str) -> bool {
    line.starts_with("[... ") && line.ends_with(" cut ...]")
}

/// The code of a numbered line (`  12 | fn a() {}`), if `line` is one.
fn numbered(line: &str) -> Option<&str> {
    let (number, code) = line.split_once(" | ")?;
    let number = number.trim_start();
    (!number.is_empty() && number.bytes().all(|byte| byte.is_ascii_digit())).then_some(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_file_is_shown_around_its_errors_and_says_what_is_left_out() {
        let text: String = (1..=1_000).map(|n| format!("line {n}\n")).collect();
        let shown = lines_around(&text, &[699]);
        assert!(shown.contains("  700 | line 700\n"), "{shown}");
        assert!(shown.contains("  670 | line 670\n") && shown.contains("  730 | line 730\n"), "{shown}");
        assert!(!shown.contains("| line 669\n") && !shown.contains("| line 731\n"), "{shown}");
        assert!(shown.starts_with("      (669 lines not shown; read_file has them)\n"), "{shown}");
        assert!(shown.ends_with("      (270 lines not shown; read_file has them)\n"), "{shown}");
        assert!(shown.len() < 2_000, "{} characters", shown.len());

        // Two errors far apart: both places, the gap between them said.
        let two = lines_around(&text, &[9, 899]);
        assert!(two.contains("   10 | line 10\n") && two.contains("  900 | line 900\n"), "{two}");
        assert!(two.contains("(829 lines not shown"), "{two}");

        // A short file is shown whole.
        let short: String = (1..=20).map(|n| format!("line {n}\n")).collect();
        assert_eq!(lines_around(&short, &[3]).lines().count(), 20);
    }

    #[test]
    fn the_files_a_message_shows_are_read_back_as_far_as_it_holds_them() {
        let long: String = (1..=1_000).map(|n| format!("let x{n} = {n};\n")).collect();
        let a = format!("fn a() {{\n    1 | 2\n{}}}\n", "    let y = 0;\n".repeat(60));
        let message = format!(
            "Automatic validation after your changes:\nsrc/a.rs:3:1: error: x\n   |\n 3 | let a = 1;\n\n\
             The error count has not fallen for two rounds (2 -> 2 -> 2). {FILES_INTRO}; fix the first error from it.\n{}{}",
            shown_file("src/a.rs", &a, &[1]),
            shown_file("src/big file.rs", &long, &[499]),
        );
        let files = files_in(&message);
        let paths: Vec<&str> = files.iter().map(|(path, _)| *path).collect();
        assert_eq!(paths, ["src/a.rs", "src/big file.rs"], "the compiler's excerpt before is none");
        assert_eq!((files[0].1.len(), &files[0].1[..2]), (63, &["fn a() {", "    1 | 2"][..]), "` | ` in code kept");
        assert_eq!((files[1].1.first(), files[1].1.len()), (Some(&"let x470 = 470;"), 61));

        // Cut to fit as a message is, the middle gone with the second file's path: its lines
        // after the cut count for no file, the first file's before it for the first.
        let cut = crate::workspace::cut_head_tail(&message, 1_200);
        assert!(!cut.contains("src/big file.rs:") && cut.contains("| let x529 = 529;"), "{cut}");
        let files = files_in(&cut);
        assert_eq!(files.len(), 1, "{files:?}");
        assert!(files[0].1.iter().all(|line| a.lines().any(|whole| whole == *line)), "{files:?}");
        // A cut by characters alone may have shortened the line before it: that one counts for none.
        let shortened =
            format!("{}\n[... 99 characters cut ...]\n", &message[..message.find("    1 | 2").unwrap() + 4]);
        assert_eq!(files_in(&shortened), [("src/a.rs", vec!["fn a() {"])]);

        // Other messages, and malformed ones, show no files.
        for other in [
            "",
            "Automatic validation after your changes:\nsrc/a.rs:\n  1 | fn a() {}\n",
            FILES_INTRO,
            "Here is the current text of the files with errors\n:\n | x\n 1 |x\n",
        ] {
            assert!(files_in(other).iter().all(|(_, lines)| lines.is_empty()), "{other:?}: {:?}", files_in(other));
        }
    }
}
