//! Waiting for elements and acting on them: each helper polls until its condition holds or
//! the timeout passes, then fails with [`Browser::fail`].

use std::time::Instant;

use fantoccini::elements::Element;
use fantoccini::Locator;

use super::{intercepted, transient, Browser, POLL};

impl Browser {
    /// Waits until an element matches `css`.
    pub async fn wait_for(&self, css: &str) -> Element {
        self.retry(&format!("waiting for `{css}`"), || async { self.client.find(Locator::Css(css)).await }).await
    }

    /// Polls `condition` (a JS expression) until it is true; fails naming `what` after 20 s.
    pub async fn wait_js(&self, condition: &str, what: &str) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        loop {
            if self.js(&format!("return !!({condition})"), vec![]).await == serde_json::json!(true) {
                return;
            }
            if std::time::Instant::now() > deadline {
                self.fail(format!("timed out waiting until {what} ({condition})")).await;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    }

    /// Waits until nothing matches `css`.
    pub async fn wait_gone(&self, css: &str) {
        let deadline = Instant::now() + self.timeout;
        while self.count(css).await > 0 {
            if Instant::now() > deadline {
                self.fail(format!("timed out after {:?} waiting for `{css}` to go away", self.timeout)).await;
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// The text of the first element matching `css` (waiting for it).
    pub async fn text(&self, css: &str) -> String {
        self.retry(&format!("reading the text of `{css}`"), || async {
            self.client.find(Locator::Css(css)).await?.text().await
        })
        .await
    }

    /// Waits until the first element matching `css` has a text containing `needle`
    /// (case-insensitive); returns the text.
    pub async fn wait_for_text(&self, css: &str, needle: &str) -> String {
        let deadline = Instant::now() + self.timeout;
        let mut last = None;
        loop {
            match self.client.find(Locator::Css(css)).await {
                Ok(el) => match el.text().await {
                    Ok(t) if t.to_lowercase().contains(&needle.to_lowercase()) => return t,
                    Ok(t) => last = Some(t),
                    Err(e) if transient(&e) => {}
                    Err(e) => self.fail(format!("reading the text of `{css}`: {e}")).await,
                },
                Err(e) if transient(&e) => {}
                Err(e) => self.fail(format!("finding `{css}`: {e}")).await,
            }
            if Instant::now() > deadline {
                let seen = match last {
                    Some(t) => format!("its text was {t:?}"),
                    None => "no element matched".to_string(),
                };
                self.fail(format!(
                    "timed out after {:?} waiting for `{css}` to contain {needle:?}: {seen}",
                    self.timeout
                ))
                .await;
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// Clicks the first element matching `css`, waiting until it exists and takes clicks.
    pub async fn click(&self, css: &str) {
        self.retry(&format!("clicking `{css}`"), || async {
            let el = self.client.find(Locator::Css(css)).await?;
            let clicked = el.click().await;
            if clicked.as_ref().is_err_and(intercepted) {
                // WebDriver scrolls an element just into view, where a sticky header can cover
                // it: centre it for the next try.
                let center = "arguments[0].scrollIntoView({block: 'center', inline: 'center'})";
                let arg = serde_json::to_value(&el).unwrap_or_default();
                let _ = self.client.execute(center, vec![arg]).await;
            }
            clicked
        })
        .await
    }

    /// Replaces the value of the field matching `css` by typing `text` into it.
    pub async fn type_into(&self, css: &str, text: &str) {
        self.retry(&format!("typing into `{css}`"), || async {
            let el = self.client.find(Locator::Css(css)).await?;
            el.clear().await?;
            el.send_keys(text).await
        })
        .await
    }

    /// Chooses the file at `path` in the `<input type=file>` matching `css`.
    pub async fn upload(&self, css: &str, path: &std::path::Path) {
        let path = path.canonicalize().unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let path = path.to_str().expect("a UTF-8 path").to_string();
        self.retry(&format!("choosing {path} in `{css}`"), || async {
            self.client.find(Locator::Css(css)).await?.send_keys(&path).await
        })
        .await
    }

    /// Chooses the option with `value` in the `<select>` matching `css`.
    pub async fn select(&self, css: &str, value: &str) {
        self.retry(&format!("selecting {value:?} in `{css}`"), || async {
            self.client.find(Locator::Css(css)).await?.select_by_value(value).await
        })
        .await
    }

    /// How many elements match `css` now (no waiting).
    pub async fn count(&self, css: &str) -> usize {
        match self.client.find_all(Locator::Css(css)).await {
            Ok(all) => all.len(),
            Err(e) => self.fail(format!("finding `{css}`: {e}")).await,
        }
    }

    /// The current URL.
    pub async fn url(&self) -> url::Url {
        match self.client.current_url().await {
            Ok(u) => u,
            Err(e) => self.fail(format!("reading the current URL: {e}")).await,
        }
    }

    /// Waits until the current URL's path is `path`; returns the whole URL.
    pub async fn wait_for_path(&self, path: &str) -> url::Url {
        let deadline = Instant::now() + self.timeout;
        loop {
            let url = self.url().await;
            if url.path() == path {
                return url;
            }
            if Instant::now() > deadline {
                self.fail(format!(
                    "timed out after {:?} waiting for the path {path:?}; the URL is {url}",
                    self.timeout
                ))
                .await;
            }
            tokio::time::sleep(POLL).await;
        }
    }
}
