//! A second origin for embedding tests: a tiny static server on another 127.0.0.1 port that
//! answers every GET with one HTML page (so the host's own routes below its base path work).

use axum::response::Html;
use axum::Router;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

pub struct StaticHost {
    /// `http://127.0.0.1:<port>`: what the API server must list in `cors_origins`.
    pub origin: String,
    task: JoinHandle<()>,
}

impl StaticHost {
    pub async fn serve(html: String) -> StaticHost {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("binding the host page's server");
        let origin = format!("http://{}", listener.local_addr().expect("local addr"));
        let app = Router::new().fallback(move || {
            let html = html.clone();
            async move { Html(html) }
        });
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        StaticHost { origin, task }
    }
}

impl Drop for StaticHost {
    fn drop(&mut self) {
        self.task.abort();
    }
}
