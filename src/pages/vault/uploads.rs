//! Uploads: files chosen with the button or dropped (whole folders too: their subfolders are
//! created first), sent three at a time with a progress bar each, an overall bar, and Cancel
//! for one or all. A finished upload refreshes the listing.

use std::collections::HashMap;

use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

use super::paths::join;
use crate::api::{self, ApiError};
use crate::format::bytes;
use crate::i18n::{fill, vault::text};
use crate::session::use_auth;

/// At most this many uploads run at once (the rest wait their turn).
const AT_ONCE: usize = 3;

#[derive(Clone, Debug, PartialEq)]
pub enum State {
    Waiting,
    Sending,
    Done,
    Failed(String),
    Cancelled,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    pub id: u32,
    pub name: String,
    pub folder: String,
    pub sent: f64,
    pub total: f64,
    pub state: State,
}

/// The page's upload queue (context): items shown, files and requests kept beside them.
#[derive(Clone, Copy)]
pub struct Queue {
    pub items: RwSignal<Vec<Item>>,
    files: StoredValue<HashMap<u32, SendWrapper<web_sys::File>>, LocalStorage>,
    running: StoredValue<HashMap<u32, SendWrapper<api::vault::Upload>>, LocalStorage>,
    next: StoredValue<u32>,
    /// Bumped when an upload finished: the listing loads again.
    pub changed: RwSignal<u32>,
    user: Signal<String>,
    auth: crate::session::Auth,
}

impl Queue {
    pub fn new(user: Signal<String>, changed: RwSignal<u32>) -> Queue {
        Queue {
            items: RwSignal::new(Vec::new()),
            files: StoredValue::new_local(HashMap::new()),
            running: StoredValue::new_local(HashMap::new()),
            next: StoredValue::new(1),
            changed,
            user,
            auth: use_auth(),
        }
    }

    /// Queues `file` for `folder` and starts what may start.
    pub fn add(&self, folder: &str, file: web_sys::File) {
        let id = self.next.get_value();
        self.next.set_value(id + 1);
        let total = file.size();
        self.items.update(|items| {
            items.push(Item {
                id,
                name: file.name(),
                folder: folder.to_string(),
                sent: 0.0,
                total,
                state: State::Waiting,
            })
        });
        self.files.update_value(|f| {
            f.insert(id, SendWrapper::new(file));
        });
        self.pump();
    }

    fn set(&self, id: u32, f: impl FnOnce(&mut Item)) {
        self.items.try_update(|items| {
            if let Some(i) = items.iter_mut().find(|i| i.id == id) {
                f(i);
            }
        });
    }

    /// Starts waiting uploads while fewer than `AT_ONCE` run.
    fn pump(&self) {
        let auth = self.auth;
        loop {
            let sending = self.items.with_untracked(|i| i.iter().filter(|i| i.state == State::Sending).count());
            let Some(next) = self.items.with_untracked(|i| i.iter().find(|i| i.state == State::Waiting).cloned())
            else {
                return;
            };
            if sending >= AT_ONCE {
                return;
            }
            let Some(file) = self.files.try_update_value(|f| f.remove(&next.id)).flatten() else {
                self.set(next.id, |i| i.state = State::Failed(text().unavailable.into()));
                continue;
            };
            self.set(next.id, |i| i.state = State::Sending);
            let queue = *self;
            let id = next.id;
            let started = api::vault::upload(
                &auth.client(),
                &self.user.get_untracked(),
                &next.folder,
                &file,
                &next.name,
                // The request's total includes the multipart framing: show the file's share.
                move |sent, total| {
                    queue.set(id, |i| i.sent = if total > 0.0 { i.total * (sent / total).min(1.0) } else { 0.0 })
                },
                move |result| {
                    queue.running.try_update_value(|r| r.remove(&id));
                    match result {
                        Ok(_) => {
                            queue.set(id, |i| (i.sent, i.state) = (i.total, State::Done));
                            queue.changed.try_update(|n| *n += 1);
                        }
                        Err(ApiError::Aborted) => queue.set(id, |i| i.state = State::Cancelled),
                        Err(e) => queue.set(id, |i| i.state = State::Failed(e.to_string())),
                    }
                    queue.pump();
                },
            );
            match started {
                Ok(upload) => self.running.update_value(|r| {
                    r.insert(id, SendWrapper::new(upload));
                }),
                Err(e) => self.set(id, |i| i.state = State::Failed(e.to_string())),
            }
        }
    }

    pub fn cancel(&self, id: u32) {
        let waiting = self.items.with_untracked(|i| i.iter().any(|i| i.id == id && i.state == State::Waiting));
        if waiting {
            self.files.update_value(|f| {
                f.remove(&id);
            });
            self.set(id, |i| i.state = State::Cancelled);
        } else {
            self.running.with_value(|r| {
                if let Some(u) = r.get(&id) {
                    u.cancel();
                }
            });
        }
    }

    pub fn cancel_all(&self) {
        let ids: Vec<u32> = self.items.with_untracked(|i| {
            i.iter().filter(|i| matches!(i.state, State::Waiting | State::Sending)).map(|i| i.id).collect()
        });
        for id in ids {
            self.cancel(id);
        }
    }

    pub fn clear_finished(&self) {
        self.items.update(|i| i.retain(|i| matches!(i.state, State::Waiting | State::Sending)));
    }
}

/// The files of a drop: plain files as they are, a dropped folder walked (its own name kept)
/// into `(relative folder, file)` pairs; folders are listed first so they can be created.
pub async fn dropped(data: web_sys::DataTransfer) -> (Vec<String>, Vec<(String, web_sys::File)>) {
    let mut folders = Vec::new();
    let mut files = Vec::new();
    let mut pending: Vec<(String, web_sys::FileSystemEntry)> = Vec::new();
    let items = data.items();
    for i in 0..items.length() {
        let Some(item) = items.get(i) else { continue };
        match item.webkit_get_as_entry() {
            Ok(Some(entry)) => pending.push((String::new(), entry)),
            _ => {
                if let Ok(Some(f)) = item.get_as_file() {
                    files.push((String::new(), f));
                }
            }
        }
    }
    while let Some((at, entry)) = pending.pop() {
        if entry.is_directory() {
            let here = join(&at, &entry.name());
            folders.push(here.clone());
            let dir: web_sys::FileSystemDirectoryEntry = entry.unchecked_into();
            for child in read_all(&dir.create_reader()).await {
                pending.push((here.clone(), child));
            }
        } else if let Some(f) = file_of(entry.unchecked_into()).await {
            // macOS's folder metadata is not a document.
            if f.name() != ".DS_Store" {
                files.push((at, f));
            }
        }
    }
    folders.sort();
    (folders, files)
}

/// Every entry of a directory (the reader answers in batches until an empty one).
async fn read_all(reader: &web_sys::FileSystemDirectoryReader) -> Vec<web_sys::FileSystemEntry> {
    let mut all = Vec::new();
    loop {
        let batch = js_sys::Promise::new(&mut |resolve, reject| {
            let ok = Closure::once_into_js(move |entries: js_sys::Array| {
                let _ = resolve.call1(&wasm_bindgen::JsValue::NULL, &entries);
            });
            let err = Closure::once_into_js(move |e: wasm_bindgen::JsValue| {
                let _ = reject.call1(&wasm_bindgen::JsValue::NULL, &e);
            });
            let _ = reader.read_entries_with_callback_and_callback(ok.unchecked_ref(), err.unchecked_ref());
        });
        let Ok(entries) = wasm_bindgen_futures::JsFuture::from(batch).await else { break };
        let entries: js_sys::Array = entries.unchecked_into();
        if entries.length() == 0 {
            break;
        }
        all.extend(entries.iter().map(|e| e.unchecked_into::<web_sys::FileSystemEntry>()));
    }
    all
}

async fn file_of(entry: web_sys::FileSystemFileEntry) -> Option<web_sys::File> {
    let promise = js_sys::Promise::new(&mut |resolve, reject| {
        let ok = Closure::once_into_js(move |f: web_sys::File| {
            let _ = resolve.call1(&wasm_bindgen::JsValue::NULL, &f);
        });
        let err = Closure::once_into_js(move |e: wasm_bindgen::JsValue| {
            let _ = reject.call1(&wasm_bindgen::JsValue::NULL, &e);
        });
        entry.file_with_callback_and_callback(ok.unchecked_ref(), err.unchecked_ref());
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.ok().map(JsCast::unchecked_into)
}

/// The queue's panel: one row per file with its bar, the overall bar, Cancel and Clear.
#[component]
pub fn UploadPanel(queue: Queue) -> impl IntoView {
    let overall = Memo::new(move |_| {
        queue.items.with(|items| {
            let live: Vec<&Item> = items.iter().filter(|i| !matches!(i.state, State::Cancelled)).collect();
            let total: f64 = live.iter().map(|i| i.total).sum();
            let sent: f64 = live.iter().map(|i| if i.state == State::Done { i.total } else { i.sent }).sum();
            let done = live.iter().filter(|i| matches!(i.state, State::Done | State::Failed(_))).count();
            (sent, total, done, live.len())
        })
    });
    let active = move || queue.items.with(|i| i.iter().any(|i| matches!(i.state, State::Waiting | State::Sending)));
    let t = text();
    view! {
        <Show when=move || queue.items.with(|i| !i.is_empty())>
            <section class="vault-uploads" aria-labelledby="vault-uploads-title">
                <div class="vault-uploads-head">
                    <h2 id="vault-uploads-title">{t.uploads}</h2>
                    <span class="muted" id="vault-uploads-summary" aria-live="polite">
                        {move || {
                            let (sent, total, done, all) = overall.get();
                            fill(t.finished, &[&done.to_string(), &all.to_string(), &bytes(sent as u64), &bytes(total as u64)])
                        }}
                    </span>
                    <progress
                        class="vault-progress-all"
                        aria-label=t.all_uploads
                        max=move || overall.get().1.max(1.0)
                        value=move || overall.get().0
                    ></progress>
                    <Show when=active>
                        <button type="button" class="button" id="vault-cancel-all" on:click=move |_| queue.cancel_all()>{t.cancel_all}</button>
                    </Show>
                    <Show when=move || !active()>
                        <button type="button" class="button" id="vault-clear-uploads" on:click=move |_| queue.clear_finished()>{t.clear}</button>
                    </Show>
                </div>
                <ul class="vault-upload-list">
                    <For each=move || queue.items.get() key=|i| (i.id, format!("{:?}", i.state), i.sent as u64) let:item>
                        <li class="vault-upload" data-state=state_name(&item.state)>
                            <span class="vault-upload-name">{join(&item.folder, &item.name)}</span>
                            <progress max=item.total.max(1.0) value=item.sent aria-label=fill(t.upload_of, &[&item.name])></progress>
                            <span class="vault-upload-state">{state_text(&item)}</span>
                            {matches!(item.state, State::Waiting | State::Sending).then(|| {
                                let id = item.id;
                                view! {
                                    <button type="button" class="button small" aria-label=fill(t.cancel_upload, &[&item.name]) on:click=move |_| queue.cancel(id)>
                                        {t.cancel}
                                    </button>
                                }
                            })}
                        </li>
                    </For>
                </ul>
            </section>
        </Show>
    }
}

fn state_name(s: &State) -> &'static str {
    match s {
        State::Waiting => "waiting",
        State::Sending => "sending",
        State::Done => "done",
        State::Failed(_) => "failed",
        State::Cancelled => "cancelled",
    }
}

fn state_text(i: &Item) -> String {
    let t = text();
    match &i.state {
        State::Waiting => t.waiting.into(),
        State::Sending => fill(t.sending, &[&bytes(i.sent as u64), &bytes(i.total as u64)]),
        State::Done => fill(t.uploaded, &[&bytes(i.total as u64)]),
        State::Failed(why) => fill(t.failed, &[why]),
        State::Cancelled => t.cancelled.into(),
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::dropped;

    /// A drop as Chromium hands it over: entries with `isDirectory`, `createReader().readEntries`
    /// (answering in batches, then an empty one) and `file()`, built in JS, since a test cannot
    /// drop a real directory.
    const DROP: &str = r#"(() => {
        const file = (name) => ({ isFile: true, isDirectory: false, name, file: (ok) => setTimeout(() => ok(new File(['x'], name))) });
        const dir = (name, children) => ({
            isFile: false, isDirectory: true, name,
            createReader: () => { let left = [children.slice(0, 1), children.slice(1), []];
                return { readEntries: (ok) => setTimeout(() => ok(left.shift() || [])) }; },
        });
        const tree = dir('Reports', [file('a.pdf'), dir('2026', [file('b.pdf'), file('.DS_Store')])]);
        return { items: { length: 2, 0: { webkitGetAsEntry: () => tree }, 1: { webkitGetAsEntry: () => file('loose.txt') } } };
    })()"#;

    #[wasm_bindgen_test]
    async fn a_dropped_folder_is_walked_into_its_subfolders_and_files() {
        let data = js_sys::eval(DROP).unwrap().unchecked_into::<web_sys::DataTransfer>();
        let (folders, files) = dropped(data).await;
        assert_eq!(folders, ["Reports", "Reports/2026"], "folders first, parents before children");
        let mut got: Vec<(String, String)> = files.iter().map(|(dir, f)| (dir.clone(), f.name())).collect();
        got.sort();
        let want = [("", "loose.txt"), ("Reports", "a.pdf"), ("Reports/2026", "b.pdf")];
        assert_eq!(got, want.map(|(d, n)| (d.to_string(), n.to_string())), "every batch read, .DS_Store left out");
    }
}
