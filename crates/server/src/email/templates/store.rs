//! Templates and their versions, both backends (tables `email_templates`,
//! `email_template_versions` of `0007_email.sql`).

use crate::storage::Database;

use super::Compiled;

#[derive(Clone, Debug)]
pub struct TemplateStore {
    pub(crate) db: Database,
}

impl TemplateStore {
    pub fn new(db: Database) -> TemplateStore {
        TemplateStore { db }
    }

    /// The latest version of `id`, compiled; `None` if there is no such template.
    pub async fn compiled_latest(&self, _id: &str) -> Result<Option<Compiled>, sqlx::Error> {
        unimplemented!("templates work")
    }
}
