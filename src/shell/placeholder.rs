//! A group's page until its feature lands: says what it will do and which feature brings it.

use leptos::prelude::*;

use crate::groups::Group;

#[component]
pub fn Placeholder(group: &'static Group) -> impl IntoView {
    view! {
        <section class="page placeholder" data-testid="placeholder">
            <h1>{group.title}</h1>
            <div class="panel">
                <p class="badge">"Coming soon"</p>
                <p>{group.summary}</p>
                <p class="muted">
                    "This capability arrives with " {group.arrives_with} ". Your token already has the "
                    <code>{group.scope.as_str()}</code> " scope it needs."
                </p>
            </div>
        </section>
    }
}
