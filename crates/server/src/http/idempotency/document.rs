//! The key in the OpenAPI document: a header parameter and the 409 it can answer, on every
//! operation the layer covers (`http::api` runs [`document_all`] after `openapi::finish`).

use utoipa::openapi::path::{Operation, ParameterBuilder, ParameterIn};
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::Required;

use crate::error::Shape;
use crate::http::extract::IDEMPOTENCY_KEY_MAX;

const DESCRIPTION: &str = "Makes a retry safe (kept 24 hours by default, per user): the same key with the same \
    request answers the first answer again (its status and body, with `Idempotent-Replayed: true`) \
    without running the operation again; the same key with another request is a 409 \
    `idempotency_key_reused`; while the first request runs, a 409 `idempotency_key_in_flight`; if it \
    never finished, a 409 `idempotency_key_outcome_unknown` (read the object, use a new key). A refused \
    request (4xx) frees its key. Answers over 1 MiB (downloads) are not kept: a retry runs again.";

/// Documents the key on every POST and DELETE of `doc`.
pub fn document_all(doc: &mut utoipa::openapi::OpenApi) {
    for (path, item) in doc.paths.paths.iter_mut() {
        let shape = Shape::for_path(path);
        for op in [&mut item.post, &mut item.delete].into_iter().flatten() {
            document(op, shape);
        }
    }
}

/// Adds the `Idempotency-Key` header and its 409 to `op`, unless it documents a key itself
/// (then it handles the key itself and the layer leaves it alone).
pub fn document(op: &mut Operation, shape: Shape) {
    let params = op.parameters.get_or_insert_with(Vec::new);
    if params.iter().any(|p| p.name.eq_ignore_ascii_case("idempotency-key")) {
        return;
    }
    let schema = ObjectBuilder::new()
        .schema_type(Type::String)
        .min_length(Some(1))
        .max_length(Some(IDEMPOTENCY_KEY_MAX))
        // Visible ASCII, not only blanks (blanks around it are trimmed): `extract::idempotency_key`.
        .pattern(Some(r"^[ \t]*[!-~]([ -~]*[!-~])?[ \t]*$"))
        .examples([serde_json::json!("6f1c2a34-9b7e-4d1e-8a63-0c5e2f9d4b17")]);
    params.push(
        ParameterBuilder::new()
            .name("Idempotency-Key")
            .parameter_in(ParameterIn::Header)
            .required(Required::False)
            .description(Some(DESCRIPTION))
            .schema(Some(schema))
            .build(),
    );
    if !op.responses.responses.contains_key("409") {
        let description = "Conflict; with an Idempotency-Key: the key was used for another request, or its \
            first request is still running or never finished (`reason` says which).";
        op.responses.responses.insert("409".to_string(), crate::http::openapi::error_response(shape, description));
    }
}
