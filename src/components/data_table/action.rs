//! The table's controls, named once: the builder (`build.rs`, the `view!` in `mod.rs`) writes
//! an action into a control's `data-action` attribute, the delegated handlers (`events.rs`)
//! read it back, and the effects (`sync.rs`) find controls by it. A typo is a compile error,
//! not a dead button.

/// What a control does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Clears every filter.
    Clear,
    /// Goes to the last page (offered when the URL asks for a page past the end).
    LastPage,
    /// Starts the CSV export of every matching row.
    Export,
    /// Stops a running export.
    Cancel,
    /// The page-size select.
    Size,
    /// The "go to page" form.
    Jump,
}

/// The attribute that carries an [`Action`].
pub const ATTR: &str = "data-action";

impl Action {
    const ALL: [Action; 6] =
        [Action::Clear, Action::LastPage, Action::Export, Action::Cancel, Action::Size, Action::Jump];

    pub const fn as_str(self) -> &'static str {
        match self {
            Action::Clear => "clear",
            Action::LastPage => "last-page",
            Action::Export => "export",
            Action::Cancel => "cancel",
            Action::Size => "size",
            Action::Jump => "jump",
        }
    }

    /// The CSS selector of this action's control.
    pub const fn selector(self) -> &'static str {
        match self {
            Action::Clear => "[data-action=clear]",
            Action::LastPage => "[data-action=last-page]",
            Action::Export => "[data-action=export]",
            Action::Cancel => "[data-action=cancel]",
            Action::Size => "[data-action=size]",
            Action::Jump => "[data-action=jump]",
        }
    }

    /// The action an element carries, if any.
    pub fn of(el: &web_sys::Element) -> Option<Action> {
        let value = el.get_attribute(ATTR)?;
        Action::ALL.into_iter().find(|a| a.as_str() == value)
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn each_selector_names_its_own_action() {
        for a in Action::ALL {
            assert_eq!(a.selector(), format!("[{ATTR}={}]", a.as_str()));
        }
    }
}
