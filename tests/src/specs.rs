//! The official wire formats: request schemas to check what issuewright sends, and the
//! recorded payloads the fakes serve. Read from `$ISSUEWRIGHT_SPECS`, else `shared/specs`
//! beside the checkout.

use std::path::PathBuf;

use serde_json::{Map, Value, json};

/// The specs folder.
pub fn dir() -> PathBuf {
    let dir = std::env::var_os("ISSUEWRIGHT_SPECS")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate::repo_root().join("../shared/specs"));
    assert!(dir.is_dir(), "wire-format specs not found at {}; set ISSUEWRIGHT_SPECS", dir.display());
    dir
}

/// A spec file's bytes.
pub fn read(path: &str) -> Vec<u8> {
    std::fs::read(dir().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A spec file as JSON.
pub fn json(path: &str) -> Value {
    serde_json::from_slice(&read(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Checks a JSON document against a schema, listing every violation.
pub struct RequestSchema {
    validator: jsonschema::Validator,
}

impl RequestSchema {
    /// The violations of `body`, empty when it validates.
    pub fn violations(&self, body: &Value) -> Vec<String> {
        self.validator.iter_errors(body).map(|e| format!("{}: {e}", e.instance_path())).collect()
    }
}

/// OpenAI's `CreateChatCompletionRequest`, from the OpenAPI subset.
pub fn openai_chat_request() -> RequestSchema {
    let spec = json("openai/chat-completions.openapi-subset.json");
    let schema = json!({
        "$ref": "#/components/schemas/CreateChatCompletionRequest",
        "components": {"schemas": spec["components"]["schemas"]},
    });
    RequestSchema { validator: jsonschema::validator_for(&schema).expect("the OpenAI request schema compiles") }
}

/// Anthropic's Messages request body, from the docs' OpenAPI excerpt. The excerpt names the
/// required keys `requiredProperties`, and drops schemas of server tools and other blocks:
/// references to those accept nothing, since issuewright never sends them.
pub fn anthropic_messages_request() -> RequestSchema {
    let text = String::from_utf8(read("anthropic/messages.openapi-excerpt.yaml")).expect("UTF-8");
    let spec: Value = serde_norway::from_str(&text).expect("the Anthropic excerpt is YAML");
    let schemas = spec["components"]["schemas"].as_object().expect("components.schemas").clone();
    let mut body = spec["paths"]["request"]["body"]["application/json"]["schemaArray"][0].clone();
    let object = body.as_object_mut().expect("the body schema is an object");
    if let Some(required) = object.remove("requiredProperties") {
        object.insert("required".into(), required);
    }
    object.remove("example");
    let mut root = Value::Object(object.clone());
    root["components"] = json!({"schemas": schemas});
    permit_unresolved_refs(&mut root, &schemas);
    RequestSchema { validator: jsonschema::validator_for(&root).expect("the Anthropic request schema compiles") }
}

/// Ollama's `/api/chat` request body (`ChatRequest`), from the OpenAPI excerpt of its docs.
pub fn ollama_chat_request() -> RequestSchema {
    let text = String::from_utf8(read("ollama/api-chat.openapi-excerpt.yaml")).expect("UTF-8");
    let spec: Value = serde_norway::from_str(&text).expect("the Ollama excerpt is YAML");
    let schema = json!({
        "$ref": "#/components/schemas/ChatRequest",
        "components": {"schemas": spec["components"]["schemas"]},
    });
    RequestSchema { validator: jsonschema::validator_for(&schema).expect("the Ollama request schema compiles") }
}

fn permit_unresolved_refs(value: &mut Value, schemas: &Map<String, Value>) {
    match value {
        Value::Object(object) => {
            let unresolved = object
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix("#/components/schemas/"))
                .is_some_and(|name| !schemas.contains_key(name));
            if unresolved {
                *value = Value::Bool(false);
                return;
            }
            object.values_mut().for_each(|child| permit_unresolved_refs(child, schemas));
        }
        Value::Array(items) => items.iter_mut().for_each(|child| permit_unresolved_refs(child, schemas)),
        _ => {}
    }
}
