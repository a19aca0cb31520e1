//! [`vocabulary!`]: the one writer of the API's closed word lists (statuses, kinds, scopes,
//! sort fields), so that each is spelled once: its wire text, its label, its list.
//!
//! What it writes for one enum, here `DepositStatus` (labels given, derived serde):
//!
//! ```
//! use moneydesk_model::deposits::DepositStatus;
//!
//! assert_eq!(DepositStatus::ALL.len(), 7);
//! assert_eq!(DepositStatus::ALL[0], DepositStatus::InProgress);
//! const TEXT: &str = DepositStatus::Sent.as_str(); // const fn: usable in consts
//! assert_eq!(TEXT, "Sent_3");
//! assert_eq!(DepositStatus::Sent.to_string(), "Sent_3");
//! assert_eq!(DepositStatus::parse("Sent_3"), Some(DepositStatus::Sent));
//! assert_eq!(DepositStatus::parse("sent_3"), None, "exact unless `parse: ignore_case`");
//! assert_eq!(DepositStatus::InProgress.label(), "To confirm");
//! assert_eq!(DepositStatus::OPTIONS[0], ("In_Progress_1", "To confirm"));
//! assert!(DepositStatus::known().starts_with("In_Progress_1, Confirmed_2"));
//! assert_eq!(serde_json::to_string(&DepositStatus::Sent).unwrap(), "\"Sent_3\"");
//! assert_eq!(serde_json::from_str::<DepositStatus>("\"Settled_4\"").unwrap(), DepositStatus::Settled);
//! ```

/// A closed word list: `Variant = "wire text"` (or `= "wire text" / "label"` on every
/// variant; variants may carry attributes), after the enum's docs any `#[derive(..)]` beyond
/// `Debug, Clone, Copy, PartialEq, Eq, Hash`, then optional parts, in this order:
///
/// - `receiver: ref;`: `as_str` and `label` take `&self` (for `iter().map(T::as_str)`).
/// - `lists: slices;`: `ALL` and `OPTIONS` are `&'static [..]` rather than arrays.
/// - `parse: ignore_case;` (trimmed, any case) or `parse: by_hand;` (the enum writes its own).
/// - `from_str: Error = |s: &str| error;`: `FromStr` (exact text) failing with that error.
/// - `serde: from_str;` (by hand, through `FromStr`) or `serde: none;`; otherwise derived.
/// - `impl SortField;`: the collections' sort-field trait.
///
/// Always: `ALL`, `const fn as_str`, `parse` (unless by hand), `known`, `Display`; with labels
/// `const fn label` and `OPTIONS` (`(text, label)` in `ALL`'s order, what a filter menu offers);
/// with serde, a utoipa schema (string enum of the wire texts, the enum's docs as description),
/// written by hand because utoipa's derive does not see `serde(rename)` values that come from
/// a macro argument.
macro_rules! vocabulary {
    (
        $(#[doc = $doc:literal])*
        $(#[derive($($derive:path),+)])*
        $vis:vis enum $name:ident {
            $($(#[$vattr:meta])* $variant:ident = $text:literal $(/ $label:literal)?),+ $(,)?
        }
        $(receiver: $recv:ident;)?
        $(lists: $lists:ident;)?
        $(parse: $parse:ident;)?
        $(from_str: $err:ty = $make_err:expr;)?
        $(serde: $serde:ident;)?
        $(impl $trait:ident;)?
    ) => {
        $crate::vocabulary::vocabulary!(@enum [$($serde)?]
            [$(#[doc = $doc])* #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)] $(#[derive($($derive),+)])*]
            $vis $name { $($(#[$vattr])* $variant = $text),+ });

        impl $name {
            $crate::vocabulary::vocabulary!(@all [$($lists)?] $name $($variant)+);
            $crate::vocabulary::vocabulary!(@as_str [$($recv)?] $name $($variant = $text)+);
            $crate::vocabulary::vocabulary!(@parse [$($parse)?]);
            $crate::vocabulary::vocabulary!(@labels [$($recv)?] [$($lists)?] $name $($variant = $text $(/ $label)?)+);

            /// The known values, for error messages.
            pub fn known() -> String {
                Self::ALL.iter().map(|v| v.as_str()).collect::<Vec<_>>().join(", ")
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        $(
            impl ::std::str::FromStr for $name {
                type Err = $err;
                fn from_str(s: &str) -> Result<Self, $err> {
                    Self::ALL.iter().copied().find(|v| v.as_str() == s).ok_or_else(|| ($make_err)(s))
                }
            }
        )?

        $crate::vocabulary::vocabulary!(@serde [$($serde)?] $name);
        $crate::vocabulary::vocabulary!(@schema [$($serde)?] $name [$($doc),*] [$($text),+]);
        $crate::vocabulary::vocabulary!(@impl [$($trait)?] $name $($variant = $text)+);
    };

    (@enum [none] [$($attr:tt)*] $vis:vis $name:ident { $($(#[$vattr:meta])* $variant:ident = $text:literal),+ }) => {
        $($attr)* $vis enum $name { $($(#[$vattr])* $variant),+ }
    };
    (@enum [from_str] [$($attr:tt)*] $vis:vis $name:ident { $($(#[$vattr:meta])* $variant:ident = $text:literal),+ }) => {
        $($attr)* $vis enum $name { $($(#[$vattr])* $variant),+ }
    };
    (@enum [] [$($attr:tt)*] $vis:vis $name:ident { $($(#[$vattr:meta])* $variant:ident = $text:literal),+ }) => {
        $($attr)*
        #[derive(::serde::Serialize, ::serde::Deserialize)]
        $vis enum $name { $($(#[$vattr])* #[serde(rename = $text)] $variant),+ }
    };

    (@count $($x:tt)*) => { <[()]>::len(&[$($crate::vocabulary::vocabulary!(@unit $x)),*]) };
    (@unit $x:tt) => { () };

    (@all [] $name:ident $($variant:ident)+) => {
        pub const ALL: [$name; $crate::vocabulary::vocabulary!(@count $($variant)+)] = [$($name::$variant),+];
    };
    (@all [slices] $name:ident $($variant:ident)+) => {
        pub const ALL: &'static [$name] = &[$($name::$variant),+];
    };

    (@as_str [] $name:ident $($variant:ident = $text:literal)+) => {
        /// The wire text.
        pub const fn as_str(self) -> &'static str {
            match self { $($name::$variant => $text),+ }
        }
    };
    (@as_str [ref] $name:ident $($variant:ident = $text:literal)+) => {
        /// The wire text.
        pub const fn as_str(&self) -> &'static str {
            match self { $($name::$variant => $text),+ }
        }
    };

    (@parse []) => {
        /// The value whose wire text is exactly `s`.
        pub fn parse(s: &str) -> Option<Self> {
            Self::ALL.iter().copied().find(|v| v.as_str() == s)
        }
    };
    (@parse [ignore_case]) => {
        /// Case-insensitive, around spaces ignored.
        pub fn parse(s: &str) -> Option<Self> {
            let s = s.trim();
            Self::ALL.iter().copied().find(|v| v.as_str().eq_ignore_ascii_case(s))
        }
    };
    (@parse [by_hand]) => {};

    (@labels [$($recv:ident)?] [$($lists:ident)?] $name:ident $($variant:ident = $text:literal)+) => {};
    (@labels [$($recv:ident)?] [$($lists:ident)?] $name:ident $($variant:ident = $text:literal / $label:literal)+) => {
        $crate::vocabulary::vocabulary!(@label [$($recv)?] $name $($variant / $label)+);
        $crate::vocabulary::vocabulary!(@options [$($lists)?] $name $($text / $label)+);
    };
    (@label [] $name:ident $($variant:ident / $label:literal)+) => {
        /// For people (table badges, filter menus).
        pub const fn label(self) -> &'static str {
            match self { $($name::$variant => $label),+ }
        }
    };
    (@label [ref] $name:ident $($variant:ident / $label:literal)+) => {
        /// For people (table badges, filter menus).
        pub const fn label(&self) -> &'static str {
            match self { $($name::$variant => $label),+ }
        }
    };
    (@options [] $name:ident $($text:literal / $label:literal)+) => {
        /// `(wire text, label)` of every value, in `ALL`'s order: what a filter menu offers.
        pub const OPTIONS: [(&'static str, &'static str); $crate::vocabulary::vocabulary!(@count $($text)+)] = [$(($text, $label)),+];
    };
    (@options [slices] $name:ident $($text:literal / $label:literal)+) => {
        /// `(wire text, label)` of every value, in `ALL`'s order: what a filter menu offers.
        pub const OPTIONS: &'static [(&'static str, &'static str)] = &[$(($text, $label)),+];
    };

    (@serde [] $name:ident) => {};
    (@serde [none] $name:ident) => {};
    (@serde [from_str] $name:ident) => {
        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = <String as ::serde::Deserialize>::deserialize(d)?;
                s.parse().map_err(::serde::de::Error::custom)
            }
        }
    };

    (@schema [none] $name:ident [$($doc:literal),*] [$($text:literal),+]) => {};
    (@schema [$($serde:ident)?] $name:ident [$($doc:literal),*] [$($text:literal),+]) => {
        #[cfg(feature = "openapi")]
        impl ::utoipa::PartialSchema for $name {
            fn schema() -> ::utoipa::openapi::RefOr<::utoipa::openapi::schema::Schema> {
                ::utoipa::openapi::schema::ObjectBuilder::new()
                    .schema_type(::utoipa::openapi::schema::Type::String)
                    .enum_values(Some([$($text),+]))
                    .description($crate::vocabulary::description(&[$($doc),*]))
                    .into()
            }
        }

        #[cfg(feature = "openapi")]
        impl ::utoipa::ToSchema for $name {}
    };

    (@impl [] $name:ident $($variant:ident = $text:literal)+) => {};
    (@impl [SortField] $name:ident $($variant:ident = $text:literal)+) => {
        impl $crate::collections::SortField for $name {
            const ALL: &'static [Self] = &[$($name::$variant),+];
            fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }
        }
    };
}

pub(crate) use vocabulary;

/// The schema description utoipa's derive would write from these doc lines: trailing spaces
/// cut, the common indent removed, lines joined by newlines; none without docs.
#[cfg(feature = "openapi")]
#[doc(hidden)]
pub fn description(lines: &[&str]) -> Option<String> {
    if lines.is_empty() {
        return None;
    }
    let lines: Vec<&str> = lines.iter().map(|l| l.trim_end()).collect();
    let indent =
        lines.iter().filter(|l| !l.is_empty()).map(|l| l.len() - l.trim_start_matches(' ').len()).min().unwrap_or(0);
    let lines: Vec<&str> = lines.iter().map(|l| if l.is_empty() { *l } else { &l[indent..] }).collect();
    Some(lines.join("\n"))
}
