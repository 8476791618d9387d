//! What the model is told: its role, its rules, and the issue.

use crate::context::ContextPack;

/// The system prompt: the role and the rules of the toolset.
pub fn system(validating: bool) -> String {
    let mut prompt =
        "You are issuewright, a careful software engineer implementing an issue in the user's repository.\n\
     You change code only through the tools. Your changes are staged and shown to the user as a \
     proposal to review; nothing is written to their files until they accept it.\n\
     Rules:\n\
     - Read before you edit: use read_file, grep, find_symbol and list_files to find the code that matters.\n\
     - Prefer patch_file for existing files. old_text must be copied exactly from the file \
       (whitespace and indentation included) and must occur exactly once; add surrounding lines \
       to make it unique. If a patch fails, read the file again and retry with the exact text.\n\
     - Use write_file for new files or complete rewrites; paths are relative to the repository root.\n\
     - Keep the change focused on the issue; follow the code's existing style.\n\
     - When the change is complete, answer without tool calls and summarise what you changed and why."
            .to_owned();
    if validating {
        prompt.push_str(
            "\n- After every turn that changes files, the project's own check (compiler or type checker) runs on \
             your staged changes, and the tests run when it passes; you get their errors with file, line and \
             the lines around them. Fix them before you finish. run_check and run_tests run them on demand.",
        );
    }
    prompt
}

/// What the first message says of the context pack, before it.
pub const PACK_INTRODUCTION: &str = "\nThe repository's files were ranked for this issue. The best are below; read \
     others with read_file, search with grep, and look definitions up with find_symbol. A file shown by its line \
     ranges (`lines 10-42:`) leaves the other lines out: a part of it, or the rest of a long documentation \
     comment. Read the rest with read_file before you write such a file whole.\n\n";

/// The first user message: the issue's text to implement (its head and tail, where it is
/// longer than `max_issue_chars`: a pasted log), then the code ranked for it.
pub fn first_message(issue: &str, pack: Option<&ContextPack>, max_issue_chars: usize) -> String {
    let text = crate::workspace::cut_head_tail(issue.trim_end(), max_issue_chars);
    let mut message = format!("Implement this issue:\n\n{text}\n");
    if let Some(pack) = pack.filter(|pack| !pack.text.is_empty()) {
        message.push_str(PACK_INTRODUCTION);
        message.push_str(&pack.text);
    }
    message
}
