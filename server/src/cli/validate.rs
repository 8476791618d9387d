//! `issuewright validate`: the project's check (and tests) in the shadow workspace, printed
//! as diagnostics.

use super::out::{errln, outln};
use std::collections::BTreeMap;
use std::process::ExitCode;

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::ValidateArgs;
use issuewright::config::{self, Config};
use issuewright::validate::{Kind, Problem, Report, TextsOnce, Validator};
use issuewright::workspace::{PositionEncoding, Root, WorkspacePath, read_disk_text};

/// Validates `--repo`; exit status 0 when there are no errors, 1 when there are, 2 when
/// validation could not run or did not finish (timed out, interrupted).
pub async fn run(args: ValidateArgs) -> ExitCode {
    match run_inner(&args).await {
        Ok(Verdict::Clean) => ExitCode::SUCCESS,
        Ok(Verdict::Errors) => ExitCode::FAILURE,
        Ok(Verdict::Unfinished) => ExitCode::from(2),
        Err(message) => {
            errln!("issuewright: {message}");
            ExitCode::from(2)
        }
    }
}

/// What a finished validation says.
enum Verdict {
    Clean,
    Errors,
    /// A check or test run did not finish: nothing can be said.
    Unfinished,
}

async fn run_inner(args: &ValidateArgs) -> Result<Verdict, String> {
    let root = Root::new(&args.repo).map_err(|error| format!("--repo {}: {error}", args.repo.display()))?;
    let layers = config::file_layers(root.path()).map_err(|error| error.to_string())?;
    let config = Config::resolve(layers, root.path()).map_err(|error| error.to_string())?;
    let validator = Validator::new(root.path(), config.validate, None).map_err(|error| error.to_string())?;
    let cancel = CancellationToken::new();
    let trigger = cancel.clone();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            trigger.cancel();
        }
    });

    let mut reports =
        vec![validator.run(Kind::Check, BTreeMap::new(), None, &cancel).await.map_err(|e| e.to_string())?];
    if args.tests && reports[0].passed {
        if validator.has_tests() {
            reports.push(validator.run(Kind::Test, BTreeMap::new(), None, &cancel).await.map_err(|e| e.to_string())?);
        } else {
            errln!("no test command for this project (set [validate] test in .issuewright.toml); the check ran alone");
        }
    }
    if let Some(reason) = reports.iter().find_map(|report| report.not_run.clone()) {
        return Err(reason);
    }
    let problems: Vec<&Problem> = reports.iter().flat_map(|report| &report.problems).collect();
    if args.json {
        // Each file is read once, however many problems it has.
        let read = |path: &WorkspacePath| read_disk_text(&root.path().join(path.as_str())).ok().flatten();
        let texts = TextsOnce::new(&read);
        let entries: Vec<Value> = problems.iter().map(|problem| entry(problem, &texts)).collect();
        outln!("{:#}", Value::Array(entries));
    } else {
        for problem in &problems {
            outln!("{}", line(problem));
        }
    }
    for report in &reports {
        errln!("{}", report.summary.lines().next().unwrap_or_default());
        if let Some(output) = &report.unparsed {
            errln!("{output}");
        }
    }
    // Reports that were not run returned above.
    if reports.iter().any(Report::inconclusive) {
        return Ok(Verdict::Unfinished);
    }
    Ok(if reports.iter().all(|report| report.passed && report.errors() == 0) {
        Verdict::Clean
    } else {
        Verdict::Errors
    })
}

/// `{"path", "range", "severity", "code", "source", "message"}`; the range is 0-based with
/// UTF-16 columns, as LSP has it; a problem outside the workspace has no path or range.
fn entry(problem: &Problem, texts: &TextsOnce) -> Value {
    let (path, range) = match &problem.place {
        Some(place) => {
            let text = texts.get(&place.path).unwrap_or_default();
            let range = Problem::range_in(place, problem.unit, &text, PositionEncoding::Utf16);
            (json!(place.path), json!(range))
        }
        None => (Value::Null, Value::Null),
    };
    let mut value = json!({
        "path": path,
        "range": range,
        "severity": problem.severity,
        "code": problem.code,
        "source": problem.source,
        "message": problem.message,
    });
    if let Some(elsewhere) = &problem.elsewhere {
        value["location"] = json!(elsewhere);
    }
    value
}

/// `path:line:col: error[code] message (source)`, as compilers print it.
fn line(problem: &Problem) -> String {
    let place = match (&problem.place, &problem.elsewhere) {
        (Some(place), _) => format!("{}:{}:{}: ", place.path, place.start.line + 1, place.start.column + 1),
        (None, Some(elsewhere)) => format!("{elsewhere}: "),
        (None, None) => String::new(),
    };
    let code = problem.code.as_deref().map(|code| format!("[{code}]")).unwrap_or_default();
    format!("{place}{}{code}: {} ({})", problem.severity.as_str(), problem.message, problem.source)
}
