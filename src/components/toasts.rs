//! Short-lived messages (`[role=status]` inside `.toasts`), dismissed after a few seconds.

use std::time::Duration;

use leptos::prelude::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToastKind {
    Info,
    Success,
    Warning,
    Error,
}

impl ToastKind {
    fn class(self) -> &'static str {
        match self {
            ToastKind::Info => "toast toast-info",
            ToastKind::Success => "toast toast-success",
            ToastKind::Warning => "toast toast-warning",
            ToastKind::Error => "toast toast-error",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Toast {
    pub id: u32,
    pub kind: ToastKind,
    pub message: String,
}

#[derive(Clone, Copy)]
pub struct Toasts {
    list: RwSignal<Vec<Toast>>,
    next_id: StoredValue<u32>,
}

const SHOWN_FOR: Duration = Duration::from_secs(6);

impl Toasts {
    pub fn new() -> Self {
        Toasts { list: RwSignal::new(Vec::new()), next_id: StoredValue::new(0) }
    }

    pub fn show(&self, kind: ToastKind, message: impl Into<String>) {
        let id = self.next_id.get_value();
        self.next_id.set_value(id.wrapping_add(1));
        self.list.update(|l| l.push(Toast { id, kind, message: message.into() }));
        let this = *self;
        set_timeout(move || this.dismiss(id), SHOWN_FOR);
    }

    pub fn dismiss(&self, id: u32) {
        self.list.try_update(|l| l.retain(|t| t.id != id));
    }
}

impl Default for Toasts {
    fn default() -> Self {
        Self::new()
    }
}

pub fn use_toasts() -> Toasts {
    expect_context::<Toasts>()
}

/// Renders the list as it is (no keyed diffing: there are only ever a few toasts).
#[component]
pub fn ToastHost() -> impl IntoView {
    let toasts = use_toasts();
    let dismiss = crate::i18n::components::start().dismiss;
    let list = move || {
        toasts
            .list
            .get()
            .into_iter()
            .map(|t| {
                let id = t.id;
                view! {
                    <div class=t.kind.class() role="status">
                        <span class="toast-message">{t.message}</span>
                        <button type="button" class="toast-close" aria-label=dismiss on:click=move |_| toasts.dismiss(id)>
                            "×"
                        </button>
                    </div>
                }
            })
            .collect_view()
    };
    view! { <div class="toasts" aria-live="polite">{list}</div> }
}
