//! What a run starts from: the workspace ranked for the issue, and the context pack its first
//! prompt holds. The driver, `issuewright context --pack` and the editor's
//! `issuewright.context` all take it from here, so what they show is what a run sees.

use std::sync::LazyLock;

use super::{compact, prompt};
use crate::context::issue::IssueQuery;
use crate::context::{
    ContextPack, Index, NamedFile, RankedFile, build_pack, estimate_tokens, named_files_reading, pack, rank,
};
use crate::llm::ModelInfo;

/// The ranking of a workspace for an issue and the pack built from it.
#[derive(Debug, Clone)]
pub struct FirstContext {
    /// Every indexed file, best first, each with why it ranks there.
    pub ranked: Vec<RankedFile>,
    /// The files the issue names that the index does not parse (`README.md`), which the
    /// pack shows before the ranked ones.
    pub named: Vec<NamedFile>,
    /// The files in full and the repository map, as the first prompt holds them.
    pub pack: ContextPack,
    /// The tokens the pack may take, a share of the conversation's room.
    pub budget_tokens: usize,
}

impl FirstContext {
    /// How `path` reaches the model in the first prompt.
    pub fn place_of(&self, path: &str) -> PackPlace {
        if self.pack.full_files.iter().any(|file| file == path) {
            PackPlace::Full
        } else if self.pack.part_files.iter().any(|file| file == path) {
            PackPlace::Part
        } else if self.pack.mapped_files.iter().any(|file| file == path) {
            PackPlace::Map
        } else {
            PackPlace::Absent
        }
    }
}

/// Where a ranked file stands in the pack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PackPlace {
    /// Its whole code is in the first prompt (less a licence header and the tails of long
    /// documentation comments).
    Full,
    /// Too large for the budget: the parts the issue points at (or, where it points nowhere
    /// into the file, where the words it shares gather) are in the first prompt, and its
    /// signatures in the map.
    Part,
    /// Its path and main signatures are in the repository map.
    Map,
    /// It is not in the first prompt; the model can still read or search it.
    Absent,
}

/// Share of the room (percent) the first request's messages (the system prompt, the issue
/// and the pack) may take together: the rest, up to where the oldest results start giving
/// way (three fifths), is for what the first turns read.
const FIRST_PROMPT_SHARE_PERCENT: usize = 50;

/// The tokens the context pack may take with a model of `info`'s limits, for an issue whose
/// text is `issue`: a share of the room its conversation has (the window less the answer's
/// room and the descriptions of every tool a run may offer), less where a long issue and the
/// system prompt would take the first request past half that room. The issue is never cut
/// for the pack: it is what the model works from.
pub fn pack_budget(info: ModelInfo, issue: &str) -> usize {
    static TOOL_SPECS_TOKENS: LazyLock<usize> = LazyLock::new(|| {
        let specs = crate::tools::Toolset::with_validation().specs();
        crate::context::estimate_tokens(&serde_json::to_string(&specs).unwrap_or_default())
    });
    let room = compact::room(info.context_window, info.max_output, *TOOL_SPECS_TOKENS);
    // The first message as it would be without a pack, beside the longer system prompt.
    let without_pack = prompt::first_message(issue, None, compact::issue_budget(room));
    let taken = estimate_tokens(&prompt::system(true))
        + estimate_tokens(&without_pack)
        + estimate_tokens(prompt::PACK_INTRODUCTION);
    pack::pack_budget(room).min((room * FIRST_PROMPT_SHARE_PERCENT / 100).saturating_sub(taken))
}

/// Ranks `index` for `query`, finds the other files the issue names, and packs them with
/// the best ranked files within the budget of a model with `info`'s limits for the issue
/// whose text is `issue` (see [`pack_budget`]). `read` gives a file's current text by its
/// workspace path (the run's overlay, the editor's buffers or the disk).
pub fn first_context(
    index: &Index,
    query: &IssueQuery,
    issue: &str,
    info: ModelInfo,
    read: impl Fn(&str) -> Option<String>,
) -> FirstContext {
    let ranked = rank::rank_reading(index, query, &read);
    let named = named_files_reading(index, query, &read);
    let budget_tokens = pack_budget(info, issue);
    let pack = build_pack(index, &ranked, &named, query, budget_tokens, read);
    FirstContext { ranked, named, pack, budget_tokens }
}
