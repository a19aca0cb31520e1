//! The OpenAPI 3.1 document's frame: info, the bearer scheme, the error bodies, and the error
//! answers every guarded operation can give (added to each operation by [`finish`]).

use utoipa::openapi::path::Operation;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::tag::TagBuilder;
use utoipa::openapi::{Content, OpenApi, Ref, RefOr, Response, ResponseBuilder};
use utoipa::Modify;

use crate::auth::BEARER;
use crate::error::{ErrorEnvelopeDoc, Shape};

#[derive(utoipa::OpenApi)]
#[openapi(
    info(
        title = "Financial Utility and Money Movement API (Moneydesk reference server)",
        description = "Every operation requires `Authorization: Bearer <token>` and the scopes in its \
            security requirement (`admin` grants all). A missing or unknown token answers 401; a \
            malformed, expired or revoked one answers 401 with `code` 600 and `errorMessage` \
            \"Invalid token\" (on the fee schedules: `error_code` \"600\"); a token without the \
            scope answers 403. Errors use the envelope `{code, errorMessage, error, data: null}` \
            whose `code` is the HTTP status and whose `error` is the detail in words (each wrong \
            field as `field: problem`, joined by `; `); the added members `errors` \
            (`[{field, problem}]`), `reason` and `requestId` carry it for programs. The fee \
            schedules answer \
            `{status: \"error\", error_code, message}`. Operations marked `x-extension: true` are \
            not in the published description. Request bodies are limited (default 32 MiB, 413 beyond).",
        version = "1.0.0"
    ),
    components(schemas(ErrorEnvelopeDoc, moneydesk_model::FeeErrorBody, moneydesk_model::FieldError)),
    modifiers(&BearerScheme)
)]
pub struct ApiDoc;

struct BearerScheme;

impl Modify for BearerScheme {
    fn modify(&self, doc: &mut OpenApi) {
        let components = doc.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            BEARER,
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("mdk_<43 base64url characters>")
                    .description(Some("An API token created with `moneydesk-server token create`. Its scopes are listed in each operation's security requirement."))
                    .build(),
            ),
        );
    }
}

/// Adds the error answers the guard and the body limit can give to every operation, in the
/// path's body shape, unless the operation documents them itself.
pub fn finish(doc: &mut OpenApi) {
    describe_tags(doc);
    super::members::mark(doc);
    for (path, item) in doc.paths.paths.iter_mut() {
        let shape = Shape::for_path(path);
        let ops: [&mut Option<Operation>; 8] = [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.delete,
            &mut item.options,
            &mut item.head,
            &mut item.patch,
            &mut item.trace,
        ];
        for op in ops.into_iter().flatten() {
            for (status, description) in [
                ("400", "Invalid input; the body names every wrong field."),
                ("401", "Missing or unknown token (`code` 401), or a malformed, expired or revoked token (`code` 600, \"Invalid token\")."),
                ("403", "The token lacks the operation's scope."),
                ("413", "Request body too large."),
                ("500", "Internal error; the body carries the request id."),
            ] {
                if !op.responses.responses.contains_key(status) {
                    op.responses.responses.insert(status.to_string(), error_response(shape, description));
                }
            }
        }
    }
}

/// The tags whose operations share more than each one's description says: the ledger's chart
/// (what posts what) and its balances.
fn describe_tags(doc: &mut OpenApi) {
    let tags = doc.tags.get_or_insert_with(Vec::new);
    if !tags.iter().any(|t| t.name == "ledger") {
        let description = crate::ledger::tag_description();
        tags.push(TagBuilder::new().name("ledger").description(Some(description)).build());
    }
}

pub fn error_response(shape: Shape, description: &str) -> RefOr<Response> {
    let schema = match shape {
        Shape::Envelope => "ErrorEnvelope",
        Shape::Fee => "FeeErrorBody",
    };
    ResponseBuilder::new()
        .description(description)
        .content("application/json", Content::new(Some(Ref::from_schema_name(schema))))
        .build()
        .into()
}

#[cfg(test)]
mod tests {
    #[test]
    fn frame_is_openapi_3_1_with_bearer() {
        let mut doc = super::ApiDoc::openapi();
        super::finish(&mut doc);
        let v = serde_json::to_value(&doc).unwrap();
        assert!(v["openapi"].as_str().unwrap().starts_with("3.1"));
        assert_eq!(v["components"]["securitySchemes"]["bearer"]["scheme"], "bearer");
        let envelope = &v["components"]["schemas"]["ErrorEnvelope"]["properties"];
        assert!(envelope["error"]["type"].to_string().contains("string"), "{envelope}");
        for added in ["errors", "reason", "requestId"] {
            assert_eq!(envelope[added]["x-extension"], true, "{added}: {envelope}");
        }
    }
    use utoipa::OpenApi as _;
}

/// Bytes in a request or an answer, for `body = Binary`: a `Vec<u8>` would be described as an
/// array of integers, which generated clients read as JSON (openapi-python-client did).
#[derive(utoipa::ToSchema)]
#[schema(value_type = String, format = Binary)]
#[allow(dead_code)]
pub struct Binary(Vec<u8>);

/// The collection endpoints' paging parameters (CONTRACT.md points 3 and 4), for `params(...)`.
/// When several of `size`, `per` and `limit` are given they must agree (400 otherwise).
#[derive(Debug, serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub struct PageParams {
    /// 1-based page number; missing or 0 means the first page; a page past the end has empty
    /// `content` and the right totals.
    #[param(schema_with = crate::http::params::page)]
    page: Option<u64>,
    /// Page size, default 10; larger than 500 is clamped to 500 (the answer's `size` says so).
    #[param(schema_with = crate::http::params::size)]
    size: Option<u64>,
    /// Alias of `size`.
    #[param(schema_with = crate::http::params::size)]
    per: Option<u64>,
    /// Alias of `size`.
    #[param(schema_with = crate::http::params::size)]
    limit: Option<u64>,
}
