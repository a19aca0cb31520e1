//! The API groups the portal has a page for, with the scope each page needs.

use moneydesk_model::Scope;

pub struct Group {
    /// The route under the base path, also the nav link's last segment.
    pub slug: &'static str,
    pub title: &'static str,
    pub scope: Scope,
    /// What the page will do, for the dashboard and the placeholder.
    pub summary: &'static str,
    /// Which feature brings it.
    pub arrives_with: &'static str,
}

impl Group {
    pub fn path(&self) -> String {
        format!("/{}", self.slug)
    }
}

pub const GROUPS: [Group; 7] = [
    Group {
        slug: "fees",
        title: "Fee schedules",
        scope: Scope::FeesRead,
        summary: "Look up the ACH and wire fee schedules for an amount.",
        arrives_with: "the fee schedules feature (GET …/fee-schedules/fees/ach and …/fees/wire)",
    },
    Group {
        slug: "vault",
        title: "Document vault",
        scope: Scope::VaultRead,
        summary:
            "Browse a user's folders; create, move, download as zip and delete them; upload files and their versions.",
        arrives_with: "the document vault feature (…/document-vault/records)",
    },
    Group {
        slug: "email",
        title: "Email",
        scope: Scope::EmailSend,
        summary: "Compose and send messages, use templates, validate addresses and see sending domains.",
        arrives_with: "the email feature (…/utility/message/email)",
    },
    Group {
        slug: "routing",
        title: "Routing numbers",
        scope: Scope::RoutingRead,
        summary: "Validate ACH and wire routing numbers and search the directory by name, city, state or prefix.",
        arrives_with: "the routing feature (…/payment/routing/ach/validate and …/wire/validate)",
    },
    Group {
        slug: "deposits",
        title: "Check deposits",
        scope: Scope::DepositsRead,
        summary: "List deposits, create a check deposit with its images, scan checks and follow each deposit's status.",
        arrives_with: "the check deposits feature (…/money-movements/deposits)",
    },
    Group {
        slug: "accounts",
        title: "Accounts",
        scope: Scope::AccountsRead,
        summary: "Page, sort and search through accounts.",
        arrives_with: "the collections feature (…/unifi/accounts)",
    },
    Group {
        slug: "permissions",
        title: "Permissions",
        scope: Scope::PermissionsRead,
        summary: "Page through company users and their permissions.",
        arrives_with: "the collections feature (…/company/users/permissions)",
    },
];

pub fn group(slug: &str) -> &'static Group {
    GROUPS.iter().find(|g| g.slug == slug).expect("a group of GROUPS")
}
