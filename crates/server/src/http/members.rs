//! Marks, wherever a schema appears in the OpenAPI document (as a component or inlined in a
//! generic page or envelope), the members the published description does not list with
//! `x-extension: true`, so a client written from the description knows what it may ignore
//! (checked against the description's own tables by `tests/server/description.rs`).

use std::collections::BTreeSet;

use utoipa::openapi::extensions::ExtensionsBuilder;
use utoipa::openapi::path::Operation;
use utoipa::openapi::schema::{AllOfBuilder, ArrayItems, Schema};
use utoipa::openapi::{OpenApi, RefOr};

/// The envelope's members (2.9) a schema must have to be an envelope, and the ones it adds.
const ENVELOPE: [&str; 3] = ["code", "errorMessage", "error"];
const ENVELOPE_ADDED: [&str; 3] = ["errors", "reason", "requestId"];

/// Records every member of which is this server's: 2.7 shows no fields of a permission record.
const OWN_RECORDS: [&str; 1] = ["Permission"];

pub fn mark(doc: &mut OpenApi) {
    let own: Vec<BTreeSet<String>> = {
        let schemas = doc.components.as_ref().map(|c| &c.schemas);
        OWN_RECORDS
            .iter()
            .filter_map(|name| match schemas.and_then(|s| s.get(*name)) {
                Some(RefOr::T(Schema::Object(o))) => Some(o.properties.keys().cloned().collect()),
                _ => None,
            })
            .collect()
    };
    if let Some(components) = doc.components.as_mut() {
        for schema in components.schemas.values_mut() {
            walk(schema, &own);
        }
    }
    for item in doc.paths.paths.values_mut() {
        let ops: [&mut Option<Operation>; 5] =
            [&mut item.get, &mut item.put, &mut item.post, &mut item.delete, &mut item.patch];
        for op in ops.into_iter().flatten() {
            for response in op.responses.responses.values_mut() {
                if let RefOr::T(r) = response {
                    r.content.values_mut().filter_map(|c| c.schema.as_mut()).for_each(|s| walk(s, &own));
                }
            }
        }
    }
}

fn walk(s: &mut RefOr<Schema>, own: &[BTreeSet<String>]) {
    let RefOr::T(schema) = s else { return };
    match schema {
        Schema::Object(o) => {
            let names: BTreeSet<String> = o.properties.keys().cloned().collect();
            if ENVELOPE.iter().all(|m| names.contains(*m)) {
                for m in ENVELOPE_ADDED {
                    if let Some(p) = o.properties.get_mut(m) {
                        extension(p);
                    }
                }
            }
            if own.contains(&names) {
                o.properties.values_mut().for_each(extension);
            }
            o.properties.values_mut().for_each(|p| walk(p, own));
        }
        Schema::Array(a) => {
            if let ArrayItems::RefOrSchema(items) = &mut a.items {
                walk(items, own);
            }
        }
        Schema::AllOf(x) => x.items.iter_mut().for_each(|i| walk(i, own)),
        Schema::OneOf(x) => x.items.iter_mut().for_each(|i| walk(i, own)),
        Schema::AnyOf(x) => x.items.iter_mut().for_each(|i| walk(i, own)),
        _ => {}
    }
}

/// Adds `x-extension: true` to a member's schema; a `$ref` member becomes `allOf: [$ref]`,
/// which may carry it.
fn extension(member: &mut RefOr<Schema>) {
    let x = || ExtensionsBuilder::new().add("x-extension", true).build();
    let add =
        |e: &mut Option<utoipa::openapi::extensions::Extensions>| e.get_or_insert_with(Default::default).merge(x());
    match member {
        RefOr::Ref(r) => {
            *member = RefOr::T(Schema::AllOf(AllOfBuilder::new().item(r.clone()).extensions(Some(x())).build()))
        }
        RefOr::T(Schema::Object(o)) => add(&mut o.extensions),
        RefOr::T(Schema::Array(a)) => add(&mut a.extensions),
        RefOr::T(Schema::AllOf(a)) => add(&mut a.extensions),
        RefOr::T(Schema::OneOf(a)) => add(&mut a.extensions),
        RefOr::T(Schema::AnyOf(a)) => add(&mut a.extensions),
        _ => {}
    }
}
