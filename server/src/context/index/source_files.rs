//! One file the walk found, read into an index entry: left out when too large, binary or
//! minified, taken from the cache when its content is known, else parsed and read.

use std::sync::Arc;

use super::{IndexedFile, MAX_SOURCE_BYTES};
use crate::context::walk::Found;
use crate::workspace::looks_binary;

/// JavaScript whose lines average more bytes than this is minified or bundled output.
const MAX_SCRIPT_LINE_AVERAGE: usize = 110;
/// Scripts smaller than this are never judged minified: a short file says too little.
const MIN_MINIFIED_BYTES: usize = 1024;
/// Fewer control characters than this never make a file terminal output.
const MIN_CONTROL_CHARACTERS: usize = 16;

/// Why the bytes of the file at `path` are not indexed as source, if they are not:
/// binary, or JavaScript minified or bundled by a tool (`jquery.min.js`, a committed
/// `static/js/main.chunk.js`), whose one-letter names and vendored words would rank for
/// issues about the project's own code. As GitHub's Linguist does, a `.js` file (or `.mjs`,
/// `.cjs`) whose lines average over 110 bytes is taken for minified: of 8,600 source files
/// in 17 Rust, Java and TypeScript projects only minified and bundled JavaScript passes it,
/// and that runs to thousands. Tools do not write `.jsx` or TypeScript; long lines there are
/// data written into code (an SVG logo component, an embedded font), which stays.
///
/// A file with control characters (other than tab, line and page breaks) at least one a line
/// on average, and 16 at least, is terminal output kept as data: a highlighter's test
/// fixtures written in its own escapes (`tests/syntax-tests/highlighted/Rust/output.rs`) parse
/// as thousands of errors, name nothing, and cost tree-sitter's error recovery five to eight
/// times what source of their size costs. Source that holds control characters (in string
/// literals) has them rarely: at most one in 40 lines of the 18,000 source files of 30
/// projects.
///
/// A `.ts` file that opens as XML is a Qt translation catalogue (`app_de.ts`), not TypeScript.
pub(crate) fn not_source(path: &str, bytes: &[u8]) -> Option<String> {
    if looks_binary(bytes) {
        return Some("binary".into());
    }
    if path.ends_with(".ts") && opens_as_xml(bytes) {
        return Some("XML (a Qt translation catalogue), not TypeScript".into());
    }
    let controls = bytes.iter().filter(|&&byte| is_control(byte)).count();
    if controls >= MIN_CONTROL_CHARACTERS {
        let lines = line_count(bytes);
        if controls >= lines {
            let lines = if lines == 1 { "one line".to_owned() } else { format!("{lines} lines") };
            return Some(format!("terminal output ({controls} control characters in {lines})"));
        }
    }
    let output_of_tools = [".js", ".mjs", ".cjs"].iter().any(|extension| path.ends_with(extension));
    if output_of_tools && bytes.len() >= MIN_MINIFIED_BYTES {
        let average = bytes.len() / line_count(bytes).max(1);
        if average > MAX_SCRIPT_LINE_AVERAGE {
            return Some(format!("minified or bundled (lines average {average} bytes)"));
        }
    }
    None
}

/// Whether `bytes` begin, after a byte order mark and white space, with an XML declaration
/// or a Qt translation catalogue's document type or root element, as TypeScript never does.
fn opens_as_xml(bytes: &[u8]) -> bool {
    let text = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let start = text.iter().position(|byte| !byte.is_ascii_whitespace()).unwrap_or(text.len());
    let text = &text[start..];
    [&b"<?xml"[..], b"<!DOCTYPE TS", b"<TS version"].iter().any(|opening| text.starts_with(opening))
}

/// Whether `byte` is a control character that text does not use: any but tab, line feed,
/// carriage return and form feed.
fn is_control(byte: u8) -> bool {
    (byte < 0x20 && !matches!(byte, b'\t' | b'\n' | b'\r' | 0x0c)) || byte == 0x7f
}

/// How many lines `bytes` holds, a last one without its line break counted.
fn line_count(bytes: &[u8]) -> usize {
    memchr::memchr_iter(b'\n', bytes).count() + usize::from(!bytes.is_empty() && !bytes.ends_with(b"\n"))
}

/// The bytes of the file at `path`, or none when it holds more than [`MAX_SOURCE_BYTES`]:
/// read no further than that, so a file that grew after its size was looked at (a log
/// written into, a build writing its output) costs no more memory than the limit.
pub(super) fn read_source_bytes(path: &std::path::Path) -> std::io::Result<Option<Vec<u8>>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?.take(MAX_SOURCE_BYTES + 1).read_to_end(&mut bytes)?;
    Ok((bytes.len() as u64 <= MAX_SOURCE_BYTES).then_some(bytes))
}

/// How a file's index entry was had.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Taken {
    /// Read and parsed.
    Parsed,
    /// Read, and known by its content hash.
    Known,
    /// Kept without reading the file, unchanged on disk.
    Unread,
}

/// A file indexed (and how), or why it was skipped.
pub(super) type Indexed = Result<(Arc<IndexedFile>, Taken), (String, String)>;

/// The entry kept for a found file whose size and modification time show it unchanged, so
/// it need not even be read.
pub(super) type Unread<'a> = dyn Fn(&Found) -> Option<Arc<IndexedFile>> + Sync + 'a;

/// The entry already known for a found file with a content hash, so it need not be parsed.
pub(super) type Known<'a> = dyn Fn(&Found, u64) -> Option<Arc<IndexedFile>> + Sync + 'a;

/// The index entry of the found `file`: taken from `unread` without reading the file, or
/// from `known` when its content hash is known, else parsed; or why it was left out. An
/// entry parsed here holds the file's stamp.
pub(super) fn index_found(file: &Found, unread: &Unread, known: &Known) -> Indexed {
    let skip = |why: String| Err((file.relative.clone(), why));
    if file.bytes > MAX_SOURCE_BYTES {
        return skip(format!("larger than {MAX_SOURCE_BYTES} bytes"));
    }
    if let Some(kept) = unread(file) {
        return Ok((kept, Taken::Unread));
    }
    // Read to the limit only: the file may have grown since the walk saw its size.
    let bytes = match read_source_bytes(&file.absolute) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return skip(format!("larger than {MAX_SOURCE_BYTES} bytes")),
        Err(error) => return skip(format!("unreadable: {error}")),
    };
    if let Some(why) = not_source(&file.relative, &bytes) {
        return skip(why);
    }
    let hash = xxhash_rust::xxh3::xxh3_64(&bytes);
    if let Some(known) = known(file, hash) {
        return Ok((known, Taken::Known));
    }
    match IndexedFile::read_source(&file.relative, file.language, &bytes) {
        Ok(parsed) => Ok((Arc::new(IndexedFile { stamp: file.stamp, ..parsed }), Taken::Parsed)),
        Err(why) => {
            tracing::error!("{}: {why}", file.relative);
            skip(why)
        }
    }
}
