//! issuewright: a language server that implements issues.
//!
//! The modules follow one dependency order: the faces (`lsp`, and the CLI in `main.rs`)
//! call `agent`, which drives `llm`, `tools`, `issues` and `session`; all of them build on
//! `workspace`, which depends on nothing of ours.

pub mod agent;
pub mod issues;
pub mod llm;
pub mod lsp;
pub mod session;
pub mod tools;
pub mod workspace;
